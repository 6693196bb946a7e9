"""Kafka log layout, segment framing, splitting and the per-split reader (no Spark).

The reader (``kafkawire.log.read.read_split``) is the code Spark's workers run; it is
tested here on both backends directly.
"""

from __future__ import annotations

import os
import struct

import pytest

from kafkawire.protocol import records
from kafkawire import _backend
from kafkawire.protocol.record_layout import BatchHeader
from kafkawire.broker import storage
from kafkawire.errors import CorruptRecordError, DecodeError, LogNotFoundError
from kafkawire.log import indexes, planning, read, read_options, sample, scan, segments, transactions, write

pytestmark = pytest.mark.in_process


@pytest.fixture
def arrow():
    """pyarrow, for the tests of the reader (it builds Arrow tables); the layout and
    framing tests run without it."""
    return pytest.importorskip("pyarrow", reason="pyarrow is not installed: the reader builds Arrow tables")


@pytest.fixture(scope="module")
def sample_log(tmp_path_factory):
    """The sample log directory (written once; its bytes do not depend on the backend)."""
    return sample.generate(str(tmp_path_factory.mktemp("sample")))


def _rows(table):
    out = []
    for r in table.to_pylist():
        ts = r["timestamp"]
        ms = None if ts is None else int(ts.timestamp() * 1000 + 0.5)
        out.append(
            (
                r["topic"],
                r["partition"],
                r["offset"],
                ms,
                r["key"],
                r["value"],
                [(h["key"], h["value"]) for h in r["headers"]],
                r["compression"],
            )
        )
    return out


def _expected(log, *, committed=False):
    return [
        (r.topic, r.partition, r.offset, r.timestamp, r.key, r.value, r.headers, r.compression)
        for r in log.records
        if not (committed and r.aborted)
    ]


def _batches(n_batches, per_batch=20, *, base=0, codec="none", value=b"v" * 50):
    out = bytearray()
    off = base
    for b in range(n_batches):
        recs = [
            {
                "key": f"k{off + i}".encode(),
                "value": value,
                "headers": [("h", b"x")],
                "timestamp": 1_700_000_000_000 + off + i,
            }
            for i in range(per_batch)
        ]
        out += records.encode_batch(recs, base_offset=off, compression=codec)
        off += per_batch
    return bytes(out)


def _partition(tmp_path, data, name="t-0", base=0):
    d = tmp_path / name
    d.mkdir(parents=True, exist_ok=True)
    p = d / segments.segment_name(base)
    p.write_bytes(data)
    return str(p)


# -- discovery ---------------------------------------------------------------


def test_discover_log_dir_partition_dir_segment_and_glob(sample_log):
    root = sample_log.directory
    logs = segments.discover(root)
    names = [(pl.topic, pl.partition) for pl in logs]
    assert names == [
        ("orders", 0),
        ("orders", 1),
        ("orders", 2),
        ("payments", 0),
        ("payments", 1),
        ("users", 0),
    ]
    assert all(len(pl.segments) >= 1 for pl in logs)
    assert all(s.index_path for pl in logs for s in pl.segments)
    one = segments.discover(os.path.join(root, "orders-1"))
    assert [(p.topic, p.partition) for p in one] == [("orders", 1)]
    seg = logs[0].segments[-1].path
    assert [s.path for s in segments.discover(seg)[0].segments] == [seg]
    globbed = segments.discover(os.path.join(root, "orders-*", "*.log"))
    assert [(p.topic, p.partition) for p in globbed] == names[:3]
    assert sum(len(p.segments) for p in globbed) == sum(len(p.segments) for p in logs[:3])


def test_discover_skips_foreign_folders_and_names_missing_paths(tmp_path):
    (tmp_path / "not-a-partition").mkdir()
    (tmp_path / "cleaner-offset-checkpoint").write_text("0\n")
    (tmp_path / "t-x").mkdir()
    _partition(tmp_path, _batches(1), "topic.with-dash-3")
    logs = segments.discover(str(tmp_path))
    assert [(p.topic, p.partition) for p in logs] == [("topic.with-dash", 3)]
    with pytest.raises(FileNotFoundError, match="nope"):
        segments.discover(str(tmp_path / "nope"))
    # a folder named outright must be a log directory or a partition folder
    with pytest.raises(FileNotFoundError, match="not-a-partition: no Kafka log in it"):
        segments.discover(str(tmp_path / "not-a-partition"))
    assert segments.discover(str(tmp_path / "t-x" / "..")) != []
    # a glob may match foreign folders, beside Kafka's
    assert [p.topic for p in segments.discover(str(tmp_path / "t*"))] == ["topic.with-dash"]
    (tmp_path / "empty-0").mkdir()
    assert segments.discover(str(tmp_path / "empty-0")) == []  # an empty partition


LOOKED_FOR = (
    "looked for partition folders named <topic>-<partition> holding segment files (<base offset>.log), "
    "or segment files"
)


def _etc(root):
    """A folder like /etc: files, and folders named as partitions are (dbus-1,
    polkit-1) that hold other things."""
    (root / "dbus-1" / "system.d").mkdir(parents=True)
    (root / "dbus-1" / "session.conf").write_text("<busconfig/>\n")
    (root / "polkit-1" / "rules.d").mkdir(parents=True)
    (root / "hostname").write_text("box\n")
    return root


def test_a_folder_that_is_not_kafkas_is_an_error_an_empty_partition_an_empty_log(tmp_path, arrow):
    etc = _etc(tmp_path / "etc")
    for path in (etc, etc / "dbus-1", etc / "*-1", etc / "polkit-*"):
        for attempt in (segments.discover, planning.plan, read.read_all):
            with pytest.raises(LogNotFoundError) as err:
                attempt(str(path))
            assert err.value.path == str(path)
            what = "what it matches" if "*" in str(path) else "it"
            assert str(err.value) == f"{path}: no Kafka log in {what}: {LOOKED_FOR}"
    # Kafka's empty partitions beside them are still empty logs
    (etc / "orders-0").mkdir()  # made, nothing written yet
    (etc / "orders-1").mkdir()  # every segment deleted: the partition's own files remain
    (etc / "orders-1" / "partition.metadata").write_text("version: 0\ntopic_id: 8Xm2dZ0nRBuK3cS0v2OYcA\n")
    (etc / "orders-1" / "leader-epoch-checkpoint").write_text("0\n0\n")
    for path in (etc, etc / "orders-0", etc / "orders-1", etc / "orders-*"):
        assert segments.discover(str(path)) == []
        assert read.read_all(str(path)).num_rows == 0


def test_segment_file_names_are_twenty_digit_base_offsets():
    assert segments.segment_name(0) == "00000000000000000000.log"
    assert segments.segment_name(1234, ".index") == "00000000000000001234.index"
    assert segments.parse_partition_dir("__consumer_offsets-49") == ("__consumer_offsets", 49)
    assert segments.parse_partition_dir("orders") is None


# -- headers, writer, indexes ------------------------------------------------


def test_scan_headers_matches_decoded_batches(tmp_path):
    data = _batches(5, codec="lz4") + records.encode_control_batch(
        "commit", base_offset=100, producer_id=9, producer_epoch=1
    )
    path = _partition(tmp_path, data)
    headers = list(scan.scan_headers(path))
    decoded = list(records.iter_batches(data))
    assert [
        (h.base_offset, h.last_offset, h.size_in_bytes, h.magic, h.is_control, h.producer_id) for h in headers
    ] == [
        (b.base_offset, b.last_offset, b.size_in_bytes, b.magic, b.is_control, b.producer_id) for b in decoded
    ]
    assert headers[-1].is_transactional and headers[-1].is_control
    assert sum(h.size_in_bytes for h in headers) == len(data)


def test_batch_headers_name_every_field_as_the_decoded_batches_do(tmp_path):
    # one BatchHeader for the segment scanner and the broker's log, its every field
    # read from the bytes as the record decoder reads the same field
    data = _batches(3, codec="gzip") + records.encode_control_batch(
        "abort", base_offset=50, producer_id=4, producer_epoch=2
    )
    headers = list(scan.scan_headers(_partition(tmp_path, data)))
    names = [n for n in BatchHeader._fields if n != "position"]
    names += ["last_offset", "compression", "compression_id", "is_transactional", "is_control"]
    for h, b in zip(headers, records.iter_batches(data), strict=True):
        assert {n: getattr(h, n) for n in names} == {n: getattr(b, n) for n in names}
        stored = storage.read_header(data, h.position)
        assert type(stored) is type(h) and stored == h
    assert [h.compression for h in headers] == ["gzip"] * 3 + ["none"]


def test_partition_writer_rolls_segments_and_indexes_batch_starts(tmp_path):
    d = str(tmp_path / "t-0")
    with write.PartitionWriter(d, segment_bytes=20_000, index_interval_bytes=1500) as w:
        w.append(_batches(40))
    logs = segments.discover(d)
    segs = logs[0].segments
    assert len(segs) > 2
    assert all(s.size <= 20_000 for s in segs)
    offsets = []
    for s in segs:
        with open(s.path, "rb") as f:
            data = f.read()
        starts = {h.position: h for h in scan.scan_headers(s.path)}
        assert next(iter(starts.values())).base_offset == s.base_offset
        entries = indexes.read_offset_index(s.index_path, s.base_offset)
        assert entries, "an index entry every 1500 bytes"
        for off, pos in entries:
            assert pos in starts and starts[pos].last_offset == off
        times = indexes.read_time_index(s.path[:-4] + ".timeindex", s.base_offset)
        assert times and all(t >= 1_700_000_000_000 for t, _ in times)
        offsets += [r.offset for r in records.decode(data)]
    assert offsets == list(range(800))
    assert scan.last_offset(logs[0]) == 799


def test_read_offset_index_stops_at_preallocated_zeros(tmp_path):
    p = tmp_path / "x.index"
    p.write_bytes(struct.pack(">iiii", 0, 0, 10, 4100) + bytes(8 * 100))
    assert indexes.read_offset_index(str(p), 500) == [(500, 0), (510, 4100)]


def _linear_floor(entries, offset):
    """The last ``.index`` entry below ``offset``, by reading every entry."""
    below = [e for e in entries if e[0] < offset]
    return below[-1] if below else None


def test_index_lookups_by_binary_search_equal_a_full_read(tmp_path):
    d = str(tmp_path / "t-0")
    with write.PartitionWriter(d, segment_bytes=60_000, index_interval_bytes=700) as w:
        w.append(_batches(120))
    for s in segments.discover(d)[0].segments:
        entries = indexes.read_offset_index(s.index_path, s.base_offset)
        times = indexes.read_time_index(s.path[:-4] + ".timeindex", s.base_offset)
        assert len(entries) > 5 and times
        with indexes.OffsetIndex(s.index_path, s.base_offset) as index:
            assert [index.entry_at(i) for i in range(len(index))] == entries
            for probe in range(s.base_offset - 1, entries[-1][0] + 3):
                i = index.first_offset_at_least(probe)
                assert (entries[i - 1] if i else None) == _linear_floor(entries, probe)
        with indexes.TimeIndex(s.path[:-4] + ".timeindex", s.base_offset) as tindex:
            assert [tindex.entry_at(i) for i in range(len(tindex))] == times
        for probe in range(times[0][0] - 1, times[-1][0] + 2):
            older = [off for ts, off in times if ts < probe]
            want = older[-1] + 1 if older else None
            assert indexes.time_index_start(s, probe) == want


def test_index_lookups_stop_at_preallocated_zeros(tmp_path):
    p = tmp_path / "x.index"
    p.write_bytes(struct.pack(">iiii", 0, 0, 10, 4100) + bytes(8 * 100))
    with indexes.OffsetIndex(str(p), 500) as index:
        assert len(index) == 2
        assert index.first_offset_at_least(511) == 2
    t = tmp_path / "x.timeindex"
    t.write_bytes(struct.pack(">qiqi", 1000, 3, 2000, 9) + bytes(12 * 50))
    with indexes.TimeIndex(str(t), 500) as tindex:
        assert [tindex.entry_at(i) for i in range(len(tindex))] == [(1000, 503), (2000, 509)]
    (tmp_path / "empty.index").write_bytes(b"")
    with indexes.OffsetIndex(str(tmp_path / "empty.index")) as index:
        assert len(index) == 0 and index.first_offset_at_least(5) == 0


def test_the_index_bounds_a_segment_range_on_both_sides(tmp_path):
    d = str(tmp_path / "t-0")
    with write.PartitionWriter(d, index_interval_bytes=700) as w:
        w.append(_batches(60))
    (seg,) = segments.discover(d)[0].segments
    headers = list(scan.scan_headers(seg.path))
    for lo, hi in ((0, 0), (95, 130), (300, 300), (1180, 5000)):
        start = indexes.index_floor(seg, lo)
        end = indexes.index_ceiling(seg, hi)
        inside = [h for h in headers if start <= h.position < end]
        assert {h.position for h in headers} >= {start} | ({end} - {seg.size})
        # every batch that holds an offset of [lo, hi] is inside the range
        assert all(start <= h.position < end for h in headers if h.last_offset >= lo and h.base_offset <= hi)
        assert inside
    assert indexes.index_ceiling(seg, 100) < seg.size  # it does cut
    assert indexes.index_floor(seg, 900) > 0
    # split_segment over a range cuts only inside it
    start, end = indexes.index_floor(seg, 300), indexes.index_ceiling(seg, 900)
    ranges = indexes.split_segment(seg, 1500, start, end)
    assert ranges[0][0] == start and ranges[-1][1] == end and len(ranges) > 1
    assert all(a[1] == b[0] for a, b in zip(ranges, ranges[1:]))
    assert {a for a, _ in ranges} <= {h.position for h in headers}


def test_an_index_pointing_into_a_batch_bounds_nothing(tmp_path):
    path = _partition(tmp_path, _batches(30))
    with open(path[:-4] + ".index", "wb") as f:  # positions in the middle of batches
        for i in range(1, 20):
            f.write(struct.pack(">ii", i * 10 + 9, i * 1000 + 7))
    (seg,) = segments.discover(path)[0].segments
    assert indexes.index_floor(seg, 150) == 0
    assert indexes.index_ceiling(seg, 150) == seg.size


def test_set_base_offset_keeps_the_crc_valid():
    data = bytearray(_batches(1, codec="zstd"))
    write.set_base_offset(data, 1_000_000)
    (batch,) = list(records.iter_batches(bytes(data)))
    assert batch.base_offset == 1_000_000
    assert [r.offset for r in batch] == list(range(1_000_000, 1_000_020))


# -- splitting and bounded reading --------------------------------------------


def test_split_with_index_and_by_scanning_give_batch_boundaries(tmp_path):
    d = str(tmp_path / "t-0")
    with write.PartitionWriter(d, index_interval_bytes=1000) as w:
        w.append(_batches(60, codec="gzip"))
    (seg,) = segments.discover(d)[0].segments
    bounds = {h.position for h in scan.scan_headers(seg.path)}
    with_index = indexes.split_segment(seg, 2500)
    no_index = indexes.split_segment(segments.Segment(seg.path, seg.base_offset, seg.size, None), 2500)
    for ranges in (with_index, no_index):
        assert len(ranges) > 3
        assert ranges[0][0] == 0 and ranges[-1][1] == seg.size
        assert all(a[1] == b[0] for a, b in zip(ranges, ranges[1:]))
        assert all(start in bounds for start, _ in ranges)


def test_split_ignores_an_index_that_does_not_match_the_log(tmp_path):
    path = _partition(tmp_path, _batches(30))
    idx = path[:-4] + ".index"
    with open(idx, "wb") as f:  # positions in the middle of batches
        for i in range(1, 20):
            f.write(struct.pack(">ii", i * 10, i * 1000 + 7))
    (seg,) = segments.discover(path)[0].segments
    bounds = {h.position for h in scan.scan_headers(path)}
    ranges = indexes.split_segment(seg, 3000)
    assert len(ranges) > 1 and all(s in bounds for s, _ in ranges)


@pytest.mark.parametrize("reuse", [False, True])
def test_iter_chunks_bounds_memory_and_reads_big_batches_whole(tmp_path, reuse):
    data = _batches(3) + _batches(1, per_batch=50, base=60, value=b"x" * 4000) + _batches(3, base=110)
    path = _partition(tmp_path, data)
    seen, views = [], []
    for pos, view, headers in scan.iter_chunks(path, chunk_size=3000, reuse_buffer=reuse):
        assert len(view) <= 3000 or len(headers) == 1
        assert headers[0].position == pos
        seen.append(bytes(view))
        views.append(view)
    assert b"".join(seen) == data
    assert len(seen) > 3
    if reuse:  # one buffer (two: the big batch outgrew the first), overwritten chunk after chunk
        assert len({id(v.obj) for v in views}) == 2
        assert bytes(views[0]) != seen[0]
    else:  # each view keeps its own bytes
        assert [bytes(v) for v in views] == seen


def test_read_split_ranges_give_the_same_rows_as_whole_segments(sample_log, arrow):
    whole = read.read_all(sample_log.directory)
    opts = read_options.ReadOptions(max_partition_bytes=8000, chunk_bytes=3000)
    splits = planning.plan(sample_log.directory, opts)
    assert len(splits) > len(planning.plan(sample_log.directory))
    parts = read.read_all(sample_log.directory, opts)
    assert parts.equals(whole)


# -- records against what was written -----------------------------------------


def test_every_sample_record_reads_back_as_written(sample_log, arrow):
    table = read.read_all(sample_log.directory)
    assert table.schema == read_options.read_schema()
    assert _rows(table) == _expected(sample_log)
    assert set(table.column("compression").to_pylist()) == set(sample.CODECS)


def test_read_committed_drops_exactly_the_aborted_transactions(sample_log, arrow):
    opts = read_options.ReadOptions(isolation_level="read_committed")
    table = read.read_all(sample_log.directory, opts)
    assert sample_log.aborted
    assert _rows(table) == _expected(sample_log, committed=True)


def test_include_control_keeps_the_markers(sample_log, arrow):
    table = read.read_all(sample_log.directory, read_options.ReadOptions(include_control=True))
    ctl = [r for r in table.to_pylist() if r["is_control"]]
    assert len(ctl) == sample_log.control_batches
    assert all(r["topic"] == "payments" and r["is_transactional"] for r in ctl)


def test_transactions_come_from_markers_and_match_the_txnindex(sample_log):
    for plog in segments.discover(sample_log.directory):
        if plog.topic != "payments":
            continue
        state = transactions.transactions(plog)
        txn = indexes.read_txn_index(plog.segments[-1].path[:-4] + ".txnindex")
        assert state.aborted == [(a.producer_id, a.first_offset, a.last_offset) for a in txn]
        assert state.last_stable_offset is None


def test_open_transaction_hides_everything_from_its_start_under_read_committed(tmp_path, arrow):
    data = _batches(2)  # offsets 0..39
    txn = [{"key": b"t", "value": b"pending", "timestamp": 1}] * 5
    data += records.encode_batch(
        txn, base_offset=40, producer_id=7, producer_epoch=0, base_sequence=0, is_transactional=True
    )
    data += _batches(1, base=45)
    _partition(tmp_path, data)
    committed = read.read_all(str(tmp_path), read_options.ReadOptions(isolation_level="read_committed"))
    assert committed.column("offset").to_pylist() == list(range(40))
    assert read.read_all(str(tmp_path)).num_rows == 65


def test_segments_written_here_decode_in_kafka_python_record_for_record(sample_log):
    kr = pytest.importorskip("kafka.record")
    for plog in segments.discover(sample_log.directory):
        want = [
            (r.offset, r.timestamp, r.key, r.value, r.headers)
            for r in sample_log.records
            if (r.topic, r.partition) == (plog.topic, plog.partition)
        ]
        got = []
        for seg in plog.segments:
            with open(seg.path, "rb") as f:
                mem = kr.MemoryRecords(f.read())
            while True:
                batch = mem.next_batch()
                if batch is None:
                    break
                if batch.is_control_batch:
                    continue
                got += [(r.offset, r.timestamp, r.key, r.value, list(r.headers)) for r in batch]
        assert got == want


def test_read_split_decodes_with_the_backend_its_options_name(sample_log, arrow, monkeypatch):
    (split, *_rest) = planning.plan(sample_log.directory)
    for name in ("python", "cython"):
        if name == "cython" and not _backend.fast_available():
            continue
        impl = _backend.implementation("records", name)
        real, used = impl.to_arrow, []
        monkeypatch.setattr(impl, "to_arrow", lambda *a, **k: used.append(name) or real(*a, **k))
        before = _backend.BACKEND
        it = read.read_split(split, read_options.ReadOptions(backend=name))
        next(it)
        assert used and _backend.BACKEND == before  # asked for, not switched globally
        it.close()


# -- bad files ----------------------------------------------------------------


def test_truncated_tail_names_the_file_and_position(tmp_path, arrow):
    data = _batches(4)
    cut = len(data) - 30
    path = _partition(tmp_path, data[:cut])
    last = list(records.iter_batches(data))[-1]
    start = len(data) - last.size_in_bytes
    with pytest.raises(segments.SegmentError) as info:
        read.read_all(str(tmp_path))
    assert info.value.path == path and info.value.position == start
    assert path in str(info.value) and f"byte {start}" in str(info.value)
    assert "truncated" in str(info.value)


def test_corrupt_crc_names_the_file_and_batch_position(tmp_path, arrow):
    data = bytearray(_batches(5, codec="snappy"))
    starts = [h.position for h in scan.scan_headers(_partition(tmp_path, bytes(data)))]
    data[starts[2] + 70] ^= 0xFF
    path = _partition(tmp_path, bytes(data))
    with pytest.raises(CorruptRecordError) as info:
        read.read_all(str(tmp_path))
    err = info.value
    assert isinstance(err, segments.SegmentError)
    assert err.path == path and err.position == starts[2]
    assert f"{path}: at byte {starts[2]}" in str(err)
    # without CRC checks the bytes still have to decompress; either way: no crash
    try:
        read.read_all(str(tmp_path), read_options.ReadOptions(verify_crc=False))
    except DecodeError as exc:
        assert path in str(exc)


def test_garbage_file_fails_with_a_clear_error(tmp_path, arrow):
    path = _partition(tmp_path, os.urandom(5000) * 2)
    with pytest.raises(segments.SegmentError) as info:
        read.read_all(str(tmp_path))
    assert info.value.path == path and info.value.position == 0


def test_dropmalformed_and_permissive_skip_corrupt_batches(tmp_path, arrow):
    data = bytearray(_batches(5))
    data[61 * 0 + 5 * 0 + 200] ^= 0x01  # inside the first batch's records
    _partition(tmp_path, bytes(data))
    dropped = read.read_all(str(tmp_path), read_options.ReadOptions(mode="DROPMALFORMED"))
    assert dropped.column("offset").to_pylist() == list(range(20, 100))
    opts = read_options.ReadOptions(mode="PERMISSIVE")
    table = read.read_all(str(tmp_path), opts)
    bad = [r for r in table.to_pylist() if r["_corrupt_record"] is not None]
    assert len(bad) == 1 and bad[0]["offset"] == 0 and "at byte 0" in bad[0]["_corrupt_record"]
    assert table.num_rows == 81


def test_read_options_are_checked():
    with pytest.raises(ValueError, match="isolationLevel"):
        read_options.ReadOptions.parse({"isolationLevel": "serializable"})
    with pytest.raises(ValueError, match="mode"):
        read_options.ReadOptions.parse({"mode": "lenient"})
    o = read_options.ReadOptions.parse(
        {"VERIFYCRC": "false", "maxPartitionBytes": "64m", "includeControl": "true"}
    )
    assert (o.verify_crc, o.max_partition_bytes, o.include_control) == (False, 64 << 20, True)
