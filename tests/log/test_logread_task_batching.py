"""A task decodes its small splits together: the same rows, in the same order, with the
same schema, as reading each split alone.

The log has many small segments over several topics and partitions, every codec,
control batches, aborted transactions spread over segments, and a partition of legacy
v1 message sets (whose record counts their headers do not give, so they are decoded
on their own).  Each read of one task is compared with the reads of its splits one by
one, row for row, under filters, both isolation levels and the corrupt-batch modes.
"""

from __future__ import annotations

import os
import shutil
from dataclasses import replace

import pytest

pa = pytest.importorskip("pyarrow")

from kafkawire.protocol import records  # noqa: E402
from kafkawire.errors import StorageError  # noqa: E402
from kafkawire.log import planning, read, read_options, scan, segments, write  # noqa: E402
from kafkawire.log import sample  # noqa: E402

pytestmark = pytest.mark.in_process

BASE_TS = sample.BASE_TIMESTAMP


@pytest.fixture(scope="module")
def log_dir(tmp_path_factory):
    """The sample log in 4 KB segments (a few hundred), plus legacy message sets."""
    d = str(tmp_path_factory.mktemp("task-batching"))
    sample.generate(d, segment_bytes=4096)
    with write.PartitionWriter(os.path.join(d, "legacy-0"), segment_bytes=2048) as w:
        for base in range(0, 100, 10):
            recs = [
                {"key": b"k%d" % (base + i), "value": b"v" * 30, "timestamp": BASE_TS + i} for i in range(10)
            ]
            w.append(records.encode_batch(recs, base_offset=base, magic=1))
    return d


def _one_task(splits, options, row_filter=planning.NO_FILTER, stats=None):
    """What a task reading ``splits`` yields, and the table of it."""
    batches = list(read.read_splits(splits, options, row_filter=row_filter, stats=stats))
    return batches, pa.Table.from_batches(batches, schema=read_options.read_schema(options))


def _split_by_split(splits, options, row_filter=planning.NO_FILTER):
    batches = [b for s in splits for b in read.read_split(s, options, row_filter=row_filter)]
    return pa.Table.from_batches(batches, schema=read_options.read_schema(options))


OPTIONS = {
    "default": read_options.ReadOptions(),
    "read_committed": read_options.ReadOptions(isolation_level="read_committed"),
    "control": read_options.ReadOptions(include_control=True),
    "small chunks, some columns": read_options.ReadOptions(
        isolation_level="read_committed", chunk_bytes=20_000, columns=("partition", "offset", "value")
    ),
}
FILTERS = [
    planning.RowFilter(min_offset=150, max_offset=900),
    planning.RowFilter(min_timestamp=BASE_TS + 10_000, max_timestamp=BASE_TS + 30_000),
    planning.RowFilter(topics=frozenset({"payments", "legacy"}), min_offset=40),
]


@pytest.mark.parametrize("options", OPTIONS.values(), ids=OPTIONS.keys())
@pytest.mark.parametrize("row_filter", FILTERS, ids=lambda f: repr(f)[9:50])
def test_a_task_of_many_small_splits_gives_the_rows_of_its_splits_read_alone(log_dir, options, row_filter):
    splits = planning.plan(log_dir, options, row_filter)
    assert len({(s.topic, s.partition) for s in splits}) >= 3 and len(splits) > 10
    _batches, task = _one_task(splits, options, row_filter)
    alone = _split_by_split(splits, options, row_filter)
    assert task.schema == alone.schema == read_options.read_schema(options)
    assert task.num_rows
    assert task.to_pylist() == alone.to_pylist()


def test_aborted_transactions_over_many_segments_are_dropped_in_one_task(log_dir):
    committed = OPTIONS["read_committed"]
    splits = planning.plan(log_dir, committed)
    payments = [s for s in splits if s.topic == "payments"]
    aborted = {a for s in payments for a in s.aborted}
    # aborted transactions whose records lie in more than one segment of a task
    assert any(
        len({s.path for s in payments if s.aborted and _holds(s, first, last)}) > 1
        for _pid, first, last in aborted
    )
    _batches, task = _one_task(splits, committed)
    assert task.to_pylist() == _split_by_split(splits, committed).to_pylist()
    uncommitted = _split_by_split(splits, OPTIONS["default"]).to_pylist()
    kept = {(r["partition"], r["offset"]) for r in task.to_pylist() if r["topic"] == "payments"}
    dropped = [(r["partition"], r["offset"]) for r in uncommitted if r["topic"] == "payments"]
    dropped = [d for d in dropped if d not in kept]
    assert dropped
    ranges = {(s.partition, a[1], a[2]) for s in payments for a in s.aborted}
    assert all(any(p == q and lo <= o <= hi for q, lo, hi in ranges) for p, o in dropped)


def _holds(split, first, last):
    """Whether ``split``'s bytes hold some offset of [first, last] (read from its batch headers)."""
    with split.store.open(split.path) as f:
        headers = scan.scan_headers(split.path, split.start, split.end, f=f)
        return any(h.base_offset <= last and h.last_offset >= first for h in headers)


def test_small_splits_come_out_as_few_large_batches(log_dir):
    options = OPTIONS["default"]
    splits = [s for s in planning.plan(log_dir, options) if s.topic != "legacy"]
    stats = read.ReadStats()
    batches, task = _one_task(splits, options, stats=stats)
    assert len(batches) * 20 < len(splits)
    assert stats.rows == task.num_rows
    assert task.to_pylist() == _split_by_split(splits, options).to_pylist()
    # no batch holds more than a chunk's worth of input
    small = replace(options, chunk_bytes=16_384)
    assert len(_one_task(splits, small)[0]) > len(batches)


@pytest.mark.parametrize("mode", ["PERMISSIVE", "DROPMALFORMED"])
def test_a_corrupt_batch_among_small_splits_is_reported_as_when_read_alone(log_dir, tmp_path, mode):
    d = str(tmp_path / "log")
    shutil.copytree(log_dir, d)
    orders = segments.discover(os.path.join(d, "orders-1"))[0]
    seg = orders.segments[2]
    with open(seg.path, "r+b") as f:  # a byte of the first batch's records: its CRC fails
        f.seek(100)
        byte = f.read(1)
        f.seek(100)
        f.write(bytes([byte[0] ^ 0xFF]))
    options = read_options.ReadOptions(mode=mode)
    splits = planning.plan(d, options)
    stats = read.ReadStats()
    _batches, task = _one_task(splits, options, stats=stats)
    assert len(stats.corrupt) == 1 and seg.path in stats.corrupt[0]
    assert task.to_pylist() == _split_by_split(splits, options).to_pylist()
    if mode == "PERMISSIVE":
        bad = [r for r in task.to_pylist() if r["_corrupt_record"] is not None]
        assert len(bad) == 1 and bad[0]["topic"] == "orders" and bad[0]["partition"] == 1
    with pytest.raises(segments.SegmentError, match="at byte"):
        _one_task(splits, read_options.ReadOptions())


def _outcome(splits, options):
    """The rows and corrupt-record messages of one task's read, or the error it raised."""
    stats = read.ReadStats()
    try:
        _batches, table = _one_task(splits, options, stats=stats)
    except (segments.SegmentError, StorageError) as exc:
        return ("raised", type(exc).__name__, exc.path, exc.position, str(exc))
    return ("rows", table.to_pylist(), stats.corrupt)


@pytest.mark.parametrize("mode", read_options.MODES)
def test_small_segments_cut_short_or_deleted_after_planning_read_as_in_chunks(log_dir, tmp_path, mode):
    # small splits are read whole, straight into the task's buffer; split into chunks
    # (chunk_bytes below four times a split) they go through scan.iter_chunks: the same
    # rows, corrupt records and errors either way
    d = str(tmp_path / "log")
    shutil.copytree(log_dir, d)
    splits = planning.plan(d, read_options.ReadOptions())
    orders = segments.discover(os.path.join(d, "orders-1"))[0].segments
    with open(orders[1].path, "r+b") as f:  # its last batch loses its end
        f.truncate(orders[1].size - 10)
    last = list(scan.scan_headers(orders[3].path))[-1]
    with open(orders[3].path, "r+b") as f:  # cut at a batch boundary, short of the plan
        f.truncate(last.position)
    whole = read_options.ReadOptions(mode=mode)
    chunked = replace(whole, chunk_bytes=1024)
    assert all(s.end - s.start < whole.chunk_bytes // 4 for s in splits)
    assert all(s.end - s.start >= chunked.chunk_bytes // 4 for s in splits if "orders-1" in s.path)
    got = _outcome(splits, whole)
    assert got == _outcome(splits, chunked)
    if mode == "FAILFAST":
        assert got[0] == "raised" and got[2] == orders[1].path
    else:
        assert got[0] == "rows" and len(got[2]) == 2
        assert orders[1].path in got[2][0] and "truncated" in got[2][1]
    os.remove(orders[2].path)
    gone = _outcome(splits, whole)
    assert gone == _outcome(splits, chunked)
    if mode != "FAILFAST":  # (FAILFAST stops at the first truncated segment)
        assert gone[:3] == ("raised", "LogNotFoundError", orders[2].path)
