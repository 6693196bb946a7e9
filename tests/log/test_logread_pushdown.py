"""Reading only what a query asks for, and packing small segments into few tasks.

Every pushed-down read is compared with the full read filtered afterwards by the same
predicate (in plain Python over the rows), on a log with compaction gaps, control
batches, aborted transactions, several segments per partition and a legacy message set.
"""

from __future__ import annotations

import os

import pytest

pa = pytest.importorskip("pyarrow")

from kafkawire.protocol import records  # noqa: E402
from kafkawire.log import planning, read, read_options, scan, segments, write  # noqa: E402
from kafkawire.log import sample  # noqa: E402

pytestmark = pytest.mark.in_process

BASE_TS = sample.BASE_TIMESTAMP


@pytest.fixture(scope="module")
def log_dir(tmp_path_factory):
    """The sample log plus a partition of legacy v1 message sets (its bytes do not
    depend on the backend, so it is written once)."""
    d = str(tmp_path_factory.mktemp("pushdown"))
    sample.generate(d, segment_bytes=16 * 1024)
    with write.PartitionWriter(os.path.join(d, "legacy-0"), segment_bytes=4096) as w:
        for base in range(0, 200, 10):
            recs = [
                {"key": b"k%d" % (base + i), "value": b"v" * 30, "timestamp": BASE_TS + base + i}
                for i in range(10)
            ]
            w.append(
                records.encode_batch(
                    recs, base_offset=base, magic=1, compression="gzip" if base % 20 else "none"
                )
            )
    return d


def _rows(table):
    return sorted(
        (
            r["topic"],
            r["partition"],
            r["offset"],
            None if r["timestamp"] is None else int(r["timestamp"].timestamp() * 1000 + 0.5),
            r["key"],
            r["value"],
        )
        for r in table.to_pylist()
    )


def _matches(row, f: planning.RowFilter) -> bool:
    topic, partition, offset, ts = row[:4]
    if f.topics is not None and topic not in f.topics:
        return False
    if f.partitions is not None and partition not in f.partitions:
        return False
    if f.min_offset is not None and offset < f.min_offset:
        return False
    if f.max_offset is not None and offset > f.max_offset:
        return False
    if f.min_timestamp is not None and (ts is None or ts < f.min_timestamp):
        return False
    if f.max_timestamp is not None and (ts is None or ts > f.max_timestamp):
        return False
    return True


FILTERS = [
    planning.RowFilter(topics=frozenset({"orders"})),
    planning.RowFilter(topics=frozenset({"orders", "users"}), partitions=frozenset({0})),
    planning.RowFilter(partitions=frozenset({1}), min_offset=500, max_offset=900),
    planning.RowFilter(min_offset=1500),
    planning.RowFilter(max_offset=40),
    planning.RowFilter(min_offset=300, max_offset=300),
    planning.RowFilter(topics=frozenset({"users"}), min_offset=250, max_offset=350),
    planning.RowFilter(topics=frozenset({"legacy"}), min_offset=95, max_offset=121),
    planning.RowFilter(min_timestamp=BASE_TS + 30_000),
    planning.RowFilter(min_timestamp=BASE_TS + 10_000, max_timestamp=BASE_TS + 20_000),
    planning.RowFilter(topics=frozenset({"payments"}), min_timestamp=BASE_TS + 40_000, max_offset=700),
    planning.RowFilter(topics=frozenset({"nope"})),
    planning.RowFilter(min_offset=10, max_offset=5),
]


@pytest.mark.parametrize(
    "options",
    [
        read_options.ReadOptions(),
        read_options.ReadOptions(isolation_level="read_committed"),
        read_options.ReadOptions(include_control=True, max_partition_bytes=5000, chunk_bytes=3000),
    ],
    ids=["default", "read_committed", "control+small-splits"],
)
@pytest.mark.parametrize("row_filter", FILTERS, ids=lambda f: repr(f)[9:60])
def test_a_pushed_down_read_equals_the_full_read_filtered_afterwards(log_dir, options, row_filter):
    full = _rows(read.read_all(log_dir, options))
    expected = [r for r in full if _matches(r, row_filter)]
    got = _rows(read.read_all(log_dir, options, row_filter))
    assert got == expected


def test_a_partition_filter_plans_only_that_partition(log_dir):
    f = planning.RowFilter(topics=frozenset({"orders"}), partitions=frozenset({2}))
    splits = planning.plan(log_dir, read_options.ReadOptions(), f)
    assert splits and {(s.topic, s.partition) for s in splits} == {("orders", 2)}


def test_an_offset_range_skips_segments_and_starts_inside_one_from_the_index(log_dir):
    everything = [s for s in planning.plan(log_dir) if (s.topic, s.partition) == ("orders", 1)]
    f = planning.RowFilter(
        topics=frozenset({"orders"}), partitions=frozenset({1}), min_offset=900, max_offset=1000
    )
    narrowed = planning.plan(log_dir, read_options.ReadOptions(), f)
    assert len(everything) > 3
    assert 0 < len(narrowed) < len(everything)
    assert sum(s.end - s.start for s in narrowed) < sum(s.end - s.start for s in everything) / 3
    first = narrowed[0]
    head = next(scan.scan_headers(first.path, first.start, first.end))
    assert head.base_offset <= 900  # a batch boundary at or before the first wanted offset
    assert first.start > 0 or os.path.basename(first.path) != segments.segment_name(0)


def test_batches_outside_the_filter_are_skipped_by_their_header(log_dir):
    f = planning.RowFilter(topics=frozenset({"orders"}), partitions=frozenset({0}), max_offset=50)
    opts = read_options.ReadOptions()
    stats = read.ReadStats()
    splits = planning.plan(log_dir, opts, f)
    rows = sum(b.num_rows for b in read.read_splits(splits, opts, stats=stats, row_filter=f))
    assert rows == 51
    # the read stops at the first batch past the range: the first segment's rest is
    # skipped by header, later segments are never opened
    assert stats.batches_skipped >= 1
    assert len(splits) >= 1


def test_a_time_filter_starts_reading_where_the_time_index_allows(log_dir):
    # orders' partitions were written one after the other: this keeps about the last
    # quarter of partition 1 and all of partition 2
    late = BASE_TS + 35_000
    opts = read_options.ReadOptions()
    f = planning.RowFilter(topics=frozenset({"orders"}), min_timestamp=late)
    everything = read.ReadStats()
    for _ in read.read_splits(
        planning.plan(log_dir, opts, planning.RowFilter(topics=f.topics)), opts, stats=everything
    ):
        pass
    narrowed = read.ReadStats()
    for _ in read.read_splits(planning.plan(log_dir, opts, f), opts, stats=narrowed, row_filter=f):
        pass
    assert narrowed.batches_read < everything.batches_read / 2


def test_small_segments_are_packed_into_few_tasks_in_offset_order(log_dir):
    opts = read_options.ReadOptions(min_partitions=2)
    splits = planning.plan(log_dir, opts)
    groups = planning.pack(splits, opts)
    assert len(splits) > 20
    assert len(groups) <= 4  # about 1.5 MB over 2 cores, 4 MB open cost per file
    flat = [s for g in groups for s in g]
    assert sorted(flat, key=id) == sorted(splits, key=id)  # each split exactly once
    for g in groups:
        assert g == sorted(g, key=splits.index)
    table = pa.Table.from_batches(
        [b for g in groups for b in read.read_splits(g, opts)], schema=read_options.read_schema(opts)
    )
    assert _rows(table) == _rows(read.read_all(log_dir, opts))


def test_a_big_segment_is_cut_at_batch_boundaries_so_every_core_gets_work(tmp_path):
    d = tmp_path / "big-0"
    with write.PartitionWriter(str(d)) as w:
        for base in range(0, 20_000, 100):
            recs = [{"key": None, "value": b"x" * 100, "timestamp": BASE_TS}] * 100
            w.append(records.encode_batch(recs, base_offset=base))
    opts = read_options.ReadOptions(min_partitions=4, open_cost_bytes=1)
    splits = planning.plan(str(tmp_path), opts)
    groups = planning.pack(splits, opts)
    assert len(splits) >= 4 and len(groups) >= 4
    assert sum(b.num_rows for g in groups for b in read.read_splits(g, opts)) == 20_000


def _partitions(tmp_path, sizes):
    """One partition per entry of ``sizes``: that many batches of 100 records."""
    for p, batches in enumerate(sizes):
        with write.PartitionWriter(str(tmp_path / f"even-{p}")) as w:
            for base in range(0, batches * 100, 100):
                recs = [{"key": None, "value": b"x" * 100, "timestamp": BASE_TS}] * 100
                w.append(records.encode_batch(recs, base_offset=base))
    return str(tmp_path)


def _bytes(group):
    return sum(s.end - s.start for s in group)


def test_tasks_get_equal_work_even_when_segments_do_not_divide_evenly(tmp_path):
    # three equal partitions over two cores: whole segments would make tasks of 1 and 2
    log = _partitions(tmp_path, [60, 60, 60])
    opts = read_options.ReadOptions(min_partitions=2, open_cost_bytes=1)
    groups = planning.pack(planning.plan(log, opts), opts)
    assert len(groups) == 2
    sizes = [_bytes(g) for g in groups]
    assert max(sizes) < 1.2 * min(sizes)
    table = pa.Table.from_batches(
        [b for g in groups for b in read.read_splits(g, opts)], schema=read_options.read_schema(opts)
    )
    assert _rows(table) == _rows(read.read_all(log, opts))


def test_tasks_come_in_whole_waves_of_the_cores(tmp_path):
    log = _partitions(tmp_path, [30] * 6)
    total = sum(_bytes([s]) for s in planning.plan(log))
    # maxPartitionBytes asks for 3 tasks; on 2 cores the third would run alone: 4 it is
    opts = read_options.ReadOptions(min_partitions=2, open_cost_bytes=1, max_partition_bytes=total // 3 + 1)
    groups = planning.pack(planning.plan(log, opts), opts)
    assert len(groups) == 4
    sizes = [_bytes(g) for g in groups]
    assert max(sizes) < 1.3 * min(sizes)


def test_pieces_of_one_segment_in_one_task_are_read_as_one_split(tmp_path):
    log = _partitions(tmp_path, [200])
    opts = read_options.ReadOptions(min_partitions=2, open_cost_bytes=1)
    splits = planning.plan(log, opts)
    assert len(splits) >= 8  # cut finer than the tasks, for balance
    groups = planning.pack(splits, opts)
    assert [len(g) for g in groups] == [1, 1]
    (a,), (b,) = groups
    assert (a.start, a.end, b.end) == (0, b.start, splits[-1].end)
    assert sum(batch.num_rows for g in groups for batch in read.read_splits(g, opts)) == 20_000


def test_split_size_follows_spark_rules():
    opts = read_options.ReadOptions(max_partition_bytes=128 << 20, open_cost_bytes=4 << 20, min_partitions=2)
    assert planning.split_bytes(10 << 30, 10, opts) == 128 << 20  # capped
    assert planning.split_bytes(100 << 20, 1, opts) == (104 << 20) // 2  # spread over cores
    assert planning.split_bytes(1000, 1, opts) == 4 << 20  # never below the open cost


def test_read_options_parse_the_packing_options():
    o = read_options.ReadOptions.parse({"openCostInBytes": "1m", "minPartitions": "8"})
    assert (o.open_cost_bytes, o.min_partitions) == (1 << 20, 8)
    with pytest.raises(ValueError, match="minPartitions"):
        read_options.ReadOptions.parse({"minPartitions": "0"})


@pytest.mark.parametrize(
    "columns", [("offset", "value"), ("value", "partition", "topic"), ("headers", "timestamp", "is_control")]
)
@pytest.mark.parametrize("row_filter", FILTERS[2:4] + FILTERS[8:9], ids=lambda f: repr(f)[9:60])
@pytest.mark.parametrize("isolation", ["read_uncommitted", "read_committed"])
def test_a_read_of_some_columns_equals_those_columns_of_the_full_read(
    log_dir, columns, row_filter, isolation
):
    full = read_options.ReadOptions(isolation_level=isolation)
    some = read_options.ReadOptions(isolation_level=isolation, columns=columns)
    table = read.read_all(log_dir, some, row_filter)
    assert table.schema == read_options.read_schema(some)
    assert table.schema.names == list(columns)
    assert table.num_rows
    expected = read.read_all(log_dir, full, row_filter).select(list(columns))
    assert table.to_pylist() == expected.to_pylist()


def test_an_unknown_column_is_named():
    with pytest.raises(ValueError, match="no column 'nope'"):
        read_options.read_schema(read_options.ReadOptions(columns=("offset", "nope")))
