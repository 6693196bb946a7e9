"""Tiered storage: a topic's history read from the remote tier plus the local log.

The ``kafka_tiered`` fixture (``support.kafka.tiered``) runs a Kafka 4.4 broker of its
own with tiered storage on (Kafka's file-based RemoteStorageManager, the topic-based
remote log metadata manager), writes one topic per codec with committed and aborted
transactions, waits until each partition's local log starts past offset 0 with the
remote tier reaching into it, records what Kafka's consumer reads under both isolation
levels, and stops the broker.  The oracles: that consumer's records, and Kafka's
``DumpLogSegments --remote-log-metadata-decoder`` for the metadata records.
"""

from __future__ import annotations

import dataclasses
import re
import shutil
import uuid
from pathlib import Path

import pyarrow as pa
import pytest
from support.kafka.workload import consumed_rows

from kafkawire.protocol import internal_topics
from kafkawire.log import planning, read, read_options, scan, segments, storage, tiered, transactions
from kafkawire.errors import LogNotFoundError
from kafkawire.log.segments import SegmentError

pytestmark = pytest.mark.kafka

ISOLATION_LEVELS = ("read_uncommitted", "read_committed")


def _tier_options(workload, **more):
    return dict(
        remote_storage_path=str(workload.remote_dir),
        remote_log_metadata_path=str(workload.metadata_dir),
        **more,
    )


def _local_paths(workload):
    return [str(workload.log_dir / f"{t}-0") for t in workload.topics]


def _table_rows(table):
    cols = {
        c: table.column(c).to_pylist() for c in ("topic", "partition", "offset", "timestamp", "key", "value")
    }

    micros = table.column("timestamp").cast(pa.int64()).to_pylist()
    stamps = [None if t is None else t // 1000 for t in micros]
    headers = table.column("headers").to_pylist()
    return sorted(
        zip(
            cols["topic"],
            cols["partition"],
            cols["offset"],
            stamps,
            cols["key"],
            cols["value"],
            [[(h["key"], h["value"]) for h in hs] for hs in headers],
        )
    )


# -- the remote log metadata against Kafka's decoder ----------------------------------

_TOPIC_ID_PARTITION = re.compile(
    r"topicIdPartition=(?P<id>[\w-]+):(?P<name>.+)-(?P<partition>\d+), id=(?P<sid>[\w-]+)\}"
)
_FIELDS = re.compile(r"(\w+)=([^,{}]+|\{[^}]*\})")


def _as_kafka_prints(rec):
    """The fields of a decoded metadata record as Kafka's ``toString`` spells them."""
    msg = rec.message
    sid = msg.remote_log_segment_id
    tip = sid.topic_id_partition
    out = {
        "topicIdPartition": f"{tiered.kafka_uuid(tip.id)}:{tip.name}-{tip.partition}",
        "id": tiered.kafka_uuid(sid.id),
        "brokerId": str(msg.broker_id),
        "eventTimestampMs": str(msg.event_timestamp_ms),
        "state": tiered.segment_state_name(msg.remote_log_segment_state),
        "customMetadata": "Optional.empty" if msg.custom_metadata is None else "present",
    }
    if type(msg).__name__ == "RemoteLogSegmentMetadataRecord":
        out.update(
            startOffset=str(msg.start_offset),
            endOffset=str(msg.end_offset),
            maxTimestampMs=str(msg.max_timestamp_ms),
            segmentSizeInBytes=str(msg.segment_size_in_bytes),
            txnIdxEmpty=str(msg.txn_index_empty).lower(),
            segmentLeaderEpochs="{"
            + ", ".join(f"{e.leader_epoch}={e.offset}" for e in msg.segment_leader_epochs)
            + "}",
        )
    return out


def _parse_kafka_print(text):
    m = _TOPIC_ID_PARTITION.search(text)
    assert m is not None, text
    fields = dict(_FIELDS.findall(text[m.end() :]))
    fields.pop("remoteLogSegmentId", None)
    fields.update(topicIdPartition=f"{m['id']}:{m['name']}-{m['partition']}", id=m["sid"])
    return text.split("{", 1)[0], fields


def test_remote_log_metadata_decodes_as_kafkas_decoder_prints(kafka_tiered):
    from support.kafka.dump_log_segments import dump

    files = [str(p) for p in sorted(kafka_tiered.metadata_dir.glob("*.log"))]
    dumped = dump(files, ["--remote-log-metadata-decoder"])
    table = read.read_all(files)
    values = dict(zip(table.column("offset").to_pylist(), table.column("value").to_pylist()))
    keys = set(table.column("key").to_pylist())
    assert keys == {None}  # the metadata manager writes no key
    kinds = set()
    for entries in dumped.values():
        for batch in entries:
            for krec in batch["records"]:
                kind, theirs = _parse_kafka_print(krec["payload"])
                rec = internal_topics.decode_remote_log_metadata_record(values[int(krec["offset"])])
                ours = _as_kafka_prints(rec)
                assert {k: theirs.get(k) for k in ours} == ours, krec["offset"]
                kinds.add((kind, ours["state"]))
    assert kinds == {
        ("RemoteLogSegmentMetadata", "COPY_SEGMENT_STARTED"),
        ("RemoteLogSegmentMetadataUpdate", "COPY_SEGMENT_FINISHED"),
    }


def test_remote_log_metadata_records_encode_back_to_their_bytes(kafka_tiered):
    table = read.read_all(str(kafka_tiered.metadata_dir))
    values = table.column("value").to_pylist()
    assert values
    for value in values:
        rec = internal_topics.decode_remote_log_metadata_record(value)
        assert internal_topics.encode_remote_log_metadata_record(rec.message, rec.version) == value


def test_remote_segments_are_the_copied_segments_laid_out_as_kafka_wrote_them(kafka_tiered):
    remote = tiered.remote_segments(str(kafka_tiered.log_dir))
    assert sorted(remote) == [(t, 0) for t in sorted(kafka_tiered.topics)]
    for (topic, partition), segs in remote.items():
        tiers = kafka_tiered.summary["tiers"][f"{topic}-{partition}"]
        assert segs[0].start_offset == 0
        # contiguous, up to at least what the broker said was tiered when the wait ended
        assert all(a.end_offset + 1 == b.start_offset for a, b in zip(segs, segs[1:]))
        assert segs[-1].end_offset >= tiers["latest_tiered"]
        for seg in segs:
            path = Path(seg.object_path(str(kafka_tiered.remote_dir)))
            assert path.stat().st_size == seg.size
            assert Path(seg.object_path(str(kafka_tiered.remote_dir), ".index")).exists()


# -- remote tier plus local log against Kafka's consumer ------------------------------


@pytest.mark.parametrize("isolation", ISOLATION_LEVELS)
def test_remote_tier_plus_local_log_reads_what_kafkas_consumer_reads(kafka_tiered, isolation):
    want = consumed_rows(kafka_tiered.records[isolation])
    table = read.read_all(
        _local_paths(kafka_tiered), **_tier_options(kafka_tiered, isolation_level=isolation)
    )
    got = _table_rows(table)
    assert len(got) == len(want)
    assert got == want
    # every codec's topic is there, and most of each only in the remote tier
    assert {r[0] for r in got} == set(kafka_tiered.topics)
    local_only = read.read_all(_local_paths(kafka_tiered), isolation_level=isolation)
    assert local_only.num_rows < len(want) / 2


def test_the_tiers_overlap_and_each_offset_is_read_once(kafka_tiered):
    """The local log starts inside what the remote tier holds; the read takes the
    overlap once, and the offsets run without a gap (control records included)."""
    options = read_options.ReadOptions(include_control=True, **_tier_options(kafka_tiered))
    remote = tiered.remote_segments(str(kafka_tiered.metadata_dir))
    table = read.read_all(_local_paths(kafka_tiered), options)
    ends = kafka_tiered.summary["end_offsets"]["read_uncommitted"]
    for topic in kafka_tiered.topics:
        local_start = segments.discover(str(kafka_tiered.log_dir / f"{topic}-0"))[0].segments[0].base_offset
        assert 0 < local_start <= remote[(topic, 0)][-1].end_offset
        offsets = [
            o
            for t, o in zip(table.column("topic").to_pylist(), table.column("offset").to_pylist())
            if t == topic
        ]
        assert offsets == list(range(ends[f"{topic}-0"]))


def test_offset_and_time_filters_across_the_tier_boundary_keep_the_rows_they_match(kafka_tiered):
    """Bounds that start in the remote tier and end in the local log (the remote segment
    cut where the local log starts, its index reaching past the cut)."""
    paths = _local_paths(kafka_tiered)
    options = read_options.ReadOptions(**_tier_options(kafka_tiered))
    whole = read.read_all(paths, options)
    rows = list(
        zip(
            whole.column("topic").to_pylist(),
            whole.column("offset").to_pylist(),
            whole.column("timestamp").cast("int64").to_pylist(),
        )
    )
    for topic in kafka_tiered.topics:
        local_start = segments.discover(str(kafka_tiered.log_dir / f"{topic}-0"))[0].segments[0].base_offset
        lo, hi = local_start - 30, local_start + 20
        got = read.read_all(
            paths, options, planning.RowFilter(topics=frozenset([topic]), min_offset=lo, max_offset=hi)
        )
        assert got.column("offset").to_pylist() == [o for t, o, _ in rows if t == topic and lo <= o <= hi]
        stamps = sorted(ts for t, o, ts in rows if t == topic)
        since = stamps[len(stamps) // 3] // 1000  # milliseconds
        got = read.read_all(
            paths, options, planning.RowFilter(topics=frozenset([topic]), min_timestamp=since)
        )
        assert got.num_rows == sum(1 for t, _, ts in rows if t == topic and ts // 1000 >= since)


@pytest.mark.spark
@pytest.mark.parametrize("isolation", ISOLATION_LEVELS)
def test_kafka_log_reads_both_tiers_as_kafkas_consumer_reads(kafka_log, kafka_tiered, isolation):
    from pyspark.sql import functions as F

    df = (
        kafka_log(
            isolationLevel=isolation,
            remoteStoragePath=kafka_tiered.remote_dir,
            remoteLogMetadataPath=kafka_tiered.metadata_dir,
        )
        .load(_local_paths(kafka_tiered))
        .select(
            "topic", "partition", "offset", F.unix_millis("timestamp").alias("ts"), "key", "value", "headers"
        )
    )
    got = sorted(
        (
            r.topic,
            r.partition,
            r.offset,
            r.ts,
            None if r.key is None else bytes(r.key),
            None if r.value is None else bytes(r.value),
            [(h.key, None if h.value is None else bytes(h.value)) for h in r.headers],
        )
        for r in df.collect()
    )
    assert got == consumed_rows(kafka_tiered.records[isolation])


@pytest.mark.spark
def test_decode_remote_log_metadata_column_function(kafka_log, kafka_tiered):
    import json

    from kafkawire.spark.functions import decode_remote_log_metadata

    rows = (
        kafka_log()
        .load(str(kafka_tiered.metadata_dir))
        .select(decode_remote_log_metadata("value").alias("m"))
        .select("m.*")
        .collect()
    )
    assert {r.record_type for r in rows} == {
        "RemoteLogSegmentMetadataRecord",
        "RemoteLogSegmentMetadataUpdateRecord",
    }
    finished = set()
    for r in rows:
        fields = json.loads(r.fields)
        assert r.version == 0
        if fields["remote_log_segment_state"] == tiered.COPY_SEGMENT_FINISHED:
            finished.add(fields["remote_log_segment_id"]["id"])
    remote = tiered.remote_segments(str(kafka_tiered.metadata_dir))
    assert finished == {str(s.segment_id) for segs in remote.values() for s in segs}


def _upto(rows, topic, last):
    return [r for r in rows if r[0] == topic and r[2] <= last]


@pytest.mark.parametrize("isolation", ISOLATION_LEVELS)
def test_partitions_without_local_segments_are_read_from_the_remote_tier(kafka_tiered, tmp_path, isolation):
    """A partition whose local folder is gone (its log directory named, or the folder
    itself), and one whose folder keeps only an empty active segment (every closed
    segment tiered and deleted locally), read from the remote tier alone: Kafka's
    consumer's records up to where the remote tier ends.  Under ``read_committed`` the
    comparison stops at the remote tier's last transaction marker (a transaction still
    undecided there is decided only in the local log, which is gone)."""
    logs = tmp_path / "logs"
    shutil.copytree(kafka_tiered.log_dir, logs)
    shutil.rmtree(logs / "tiered-gzip-0")
    for f in (logs / "tiered-lz4-0").iterdir():
        if f.name != "partition.metadata":
            f.unlink()
    remote = tiered.remote_segments(str(kafka_tiered.metadata_dir))
    ends = {t: remote[(t, 0)][-1].end_offset for t in ("tiered-gzip", "tiered-lz4")}
    (logs / "tiered-lz4-0" / segments.segment_name(ends["tiered-lz4"] + 1)).touch()
    options = _tier_options(kafka_tiered, isolation_level=isolation)
    want = consumed_rows(kafka_tiered.records[isolation])
    got = _table_rows(
        read.read_all(
            str(logs),
            read_options.ReadOptions(**options),
            planning.RowFilter(topics=frozenset(kafka_tiered.topics)),
        )
    )
    for topic in kafka_tiered.topics:
        if topic not in ends:  # the local tier intact: the whole history
            assert [r for r in got if r[0] == topic] == [r for r in want if r[0] == topic]
    controls = read.read_all(
        str(logs / "tiered-gzip-0"),
        read_options.ReadOptions(include_control=True, **_tier_options(kafka_tiered)),
    )
    assert controls.num_rows > 0 and max(controls.column("offset").to_pylist()) == ends["tiered-gzip"]
    for topic, end in ends.items():
        last = end
        if isolation == "read_committed":
            whole = read.read_all(
                str(logs / f"{topic}-0"),
                read_options.ReadOptions(include_control=True, **_tier_options(kafka_tiered)),
            )
            flags = zip(whole.column("offset").to_pylist(), whole.column("is_control").to_pylist())
            last = max(o for o, control in flags if control)
        mine = [r for r in got if r[0] == topic]
        assert mine and max(r[2] for r in mine) <= end
        assert _upto(mine, topic, last) == _upto(want, topic, last)
    # the missing partition folder named outright reads the same
    alone = _table_rows(read.read_all(str(logs / "tiered-gzip-0"), **options))
    assert alone == [r for r in got if r[0] == "tiered-gzip"]


def _crafted_copy(root, template, name, parts, leader_epochs):
    """A remote segment of ``template``'s partition, under a new segment id, whose
    ``.log`` (and ``.txnindex``) is the ``parts``' one after the other (of any partition), with the
    offsets ``template`` to ``parts[-1]`` gives and ``leader_epochs``; written under
    ``root`` as a RemoteStorageManager would keep it."""
    data = b"".join(Path(p.object_path(str(root))).read_bytes() for p in parts)
    seg = dataclasses.replace(
        template,
        segment_id=uuid.uuid5(uuid.NAMESPACE_OID, name),
        end_offset=template.start_offset + sum(p.end_offset - p.start_offset + 1 for p in parts) - 1,
        size=len(data),
        leader_epochs=leader_epochs,
    )
    Path(seg.object_path(str(root))).write_bytes(data)
    # its aborted transactions: those whose markers the parts hold, as their indexes say
    txn = [Path(p.object_path(str(root), segments.TXN_INDEX_SUFFIX)) for p in parts]
    entries = b"".join(t.read_bytes() for t in txn if t.exists())
    if entries:
        Path(seg.object_path(str(root), segments.TXN_INDEX_SUFFIX)).write_bytes(entries)
    return seg


@pytest.mark.parametrize("isolation", ISOLATION_LEVELS)
def test_overlapping_remote_segments_give_each_offset_once_by_leader_epoch_lineage(
    kafka_tiered, remote_copy, monkeypatch, isolation
):
    """A single broker never copies a range twice, so the overlaps are crafted from its
    real segments (the remote log metadata replaced by what leader changes leave): a
    segment copied again under a new id, a copy of two segments, a copy of three that
    starts inside the previous one, and a copy by a leader of epoch 1 (which the
    partition's leader epoch chain, epoch 0 from offset 0, does not have) holding another
    topic's records.  The read must take each offset once, from the lineage's segments,
    and equal Kafka's consumer."""
    remote = tiered.remote_segments(str(kafka_tiered.metadata_dir))
    s = remote[("tiered-none", 0)]
    path = str(kafka_tiered.log_dir / "tiered-none-0")
    local_start = segments.discover(path)[0].segments[0].base_offset
    # Local retention keeps two or three tiered segments, by their sizes; the crafting
    # below needs five before them.
    assert s[4].end_offset < local_start, (s[4], local_start)
    again = _crafted_copy(remote_copy, s[1], "again", [s[1]], ((0, s[1].start_offset),))
    two = _crafted_copy(remote_copy, s[2], "two", s[2:4], ((0, s[2].start_offset),))
    three = _crafted_copy(remote_copy, s[3], "three", s[3:6], ((0, s[3].start_offset),))
    other = remote[("tiered-gzip", 0)][1:4]
    diverged = _crafted_copy(remote_copy, s[1], "diverged", other, ((1, s[1].start_offset),))
    assert diverged.end_offset > s[2].start_offset  # it would reach furthest, were it read
    crafted = sorted(s + [again, two, three, diverged], key=lambda seg: (seg.start_offset, seg.end_offset))
    monkeypatch.setattr(tiered, "remote_segments", lambda *a, **k: {("tiered-none", 0): crafted})
    logs = tiered.tiered_logs(path, str(remote_copy), str(kafka_tiered.metadata_dir))
    taken = [(Path(seg.path).name, seg.size) for seg in logs[0].segments[:4]]
    assert taken[:3] == [
        (s[0].object_name(), s[0].size),
        (again.object_name(), again.size),  # of two copies of a range, the one recorded last
        (two.object_name(), s[2].size),  # cut where "three" starts
    ]
    # "three" whole, or cut where the local log starts when it reaches that far
    assert taken[3][0] == three.object_name()
    assert taken[3][1] == three.size if three.end_offset < local_start else 0 < taken[3][1] < three.size
    # then the remote segment after it, or the local log
    assert logs[0].segments[4].base_offset == min(three.end_offset + 1, local_start)
    options = _tier_options(kafka_tiered, isolation_level=isolation)
    options["remote_storage_path"] = str(remote_copy)
    got = _table_rows(read.read_all(path, **options))
    assert got == [r for r in consumed_rows(kafka_tiered.records[isolation]) if r[0] == "tiered-none"]


@pytest.mark.backend_independent
def test_a_segment_is_read_only_when_its_epochs_agree_with_the_lineage():
    """Kafka's rule for a remote segment against the leader epoch chain, case by case
    (the chain: epoch 0 from offset 0, epoch 2 from 100, epoch 5 from 150)."""
    chain = [(0, 0), (2, 100), (5, 150)]

    def seg(start, end, *epochs):
        return tiered.RemoteSegment("t", 0, uuid.uuid4(), uuid.uuid4(), start, end, 1, 1, tuple(epochs))

    assert tiered.in_lineage(seg(0, 99, (0, 0)), chain)
    assert tiered.in_lineage(seg(50, 120, (0, 50), (2, 100)), chain)
    assert tiered.in_lineage(seg(150, 400, (5, 150)), chain)  # the latest epoch is open-ended
    # an old leader of epoch 0 copied offsets the chain gives to epoch 2 (its log diverged)
    assert not tiered.in_lineage(seg(50, 110, (0, 50)), chain)
    # epoch 2 began at 100 in the chain, not at 105
    assert not tiered.in_lineage(seg(50, 120, (0, 50), (2, 105)), chain)
    # an epoch the chain does not have (a leader that lost its election's log)
    assert not tiered.in_lineage(seg(100, 120, (3, 100)), chain)
    # epochs 0 then 5, skipping 2: not this chain's history
    assert not tiered.in_lineage(seg(50, 160, (0, 50), (5, 150)), chain)
    # the chain cut at the log's start (epoch 0 now from 40) still holds a segment from 0
    assert tiered.in_lineage(seg(0, 60, (0, 0)), [(0, 40), (2, 100)])
    # no chain to check against: the metadata alone decides
    assert tiered.in_lineage(seg(0, 60, (9, 0)), [])


def test_read_committed_takes_the_remote_tiers_aborted_transactions_from_its_txnindex(kafka_tiered):
    """What the remote segments' ``.txnindex`` files and the local log's scan give is
    what a scan of every batch header of both tiers gives (the read itself is checked
    against Kafka's consumer above), and it is what ``read_committed`` plans with."""
    logs = tiered.tiered_logs(
        _local_paths(kafka_tiered), str(kafka_tiered.remote_dir), str(kafka_tiered.metadata_dir)
    )
    indexed_somewhere = 0
    for log in logs:
        assert isinstance(log, tiered.TieredLog) and log.remote_count > 0
        known = tiered.transactions(log)
        assert known is not None, log.topic  # not the scan's fallback
        scanned = transactions.transactions(log)
        assert sorted(known.aborted) == sorted(scanned.aborted) and known.aborted, log.topic
        assert known.last_stable_offset == scanned.last_stable_offset
        assert planning.partition_transactions(log).aborted == known.aborted
        indexed_somewhere += len(log.remote_txn_indexes)
    assert indexed_somewhere > 0  # some aborted transaction lives only in the remote tier


def test_without_a_local_log_open_transactions_come_from_the_remote_producer_snapshot(kafka_tiered, tmp_path):
    """A partition read from the remote tier alone: its aborted transactions from the
    ``.txnindex`` objects and those still open at its end from the producer state
    snapshot uploaded with its last segment are what a scan of its batch headers finds,
    and some partition ends inside an open transaction (so the snapshot is what tells)."""
    logs = tmp_path / "logs"
    logs.mkdir()
    shutil.copytree(kafka_tiered.metadata_dir, logs / kafka_tiered.metadata_dir.name)
    joined = tiered.tiered_logs(str(logs), str(kafka_tiered.remote_dir), str(kafka_tiered.metadata_dir))
    assert sorted(log.topic for log in joined if log.topic in kafka_tiered.topics) == sorted(
        kafka_tiered.topics
    )
    open_somewhere = 0
    for log in joined:
        if log.topic not in kafka_tiered.topics:
            continue
        assert isinstance(log, tiered.TieredLog) and log.remote_count == len(log.segments)
        assert log.remote_snapshot is not None
        known = tiered.transactions(log)
        scanned = transactions.transactions(log)
        assert known is not None, log.topic
        assert sorted(known.aborted) == sorted(scanned.aborted) and known.open == scanned.open, log.topic
        open_somewhere += bool(known.open)
    assert open_somewhere > 0


# -- errors ---------------------------------------------------------------------------


@pytest.fixture
def remote_copy(kafka_tiered, tmp_path):
    """A copy of the remote tier to damage."""
    dest = tmp_path / "remote"
    shutil.copytree(kafka_tiered.remote_dir, dest)
    return dest


def _second_segment(kafka_tiered, root):
    seg = tiered.remote_segments(str(kafka_tiered.metadata_dir))[("tiered-gzip", 0)][1]
    return seg, Path(seg.object_path(str(root)))


@pytest.mark.parametrize("mode", read_options.MODES)
def test_a_missing_remote_segment_names_the_object_and_its_offsets_in_every_mode(
    kafka_tiered, remote_copy, mode
):
    """A segment the metadata names but the remote tier lacks is an error in every mode,
    as a local segment deleted before its read is (skipping it would drop its offsets
    without a word)."""
    seg, path = _second_segment(kafka_tiered, remote_copy)
    path.unlink()
    with pytest.raises(LogNotFoundError) as info:
        read.read_all(
            str(kafka_tiered.log_dir / "tiered-gzip-0"),
            mode=mode,
            remote_storage_path=str(remote_copy),
            remote_log_metadata_path=str(kafka_tiered.metadata_dir),
        )
    assert info.value.path == str(path)
    assert f"offsets {seg.start_offset}-{seg.end_offset}" in str(info.value)
    assert "missing from the remote tier" in str(info.value)


def _last_data_batch(path):
    return [h for h in scan.scan_headers(str(path)) if not h.is_control][-1]


@pytest.mark.parametrize("mode", read_options.MODES)
@pytest.mark.parametrize("cut", ["inside the last batch", "before the last batch"])
def test_a_truncated_remote_segment_behaves_as_a_truncated_local_one_in_every_mode(
    kafka_tiered, remote_copy, mode, cut
):
    """An object shorter than the metadata says: FAILFAST names it, its offsets and
    size when planning; DROPMALFORMED reads the batches it still holds, PERMISSIVE those
    and a corrupt-record row naming the object and the byte its cut batch was at.
    Either way the rows are Kafka's consumer's but for the offsets of that batch (the
    object's last with records) and those after it.  A cut
    at a batch boundary is reported too (the metadata says how long the object is)."""
    seg, path = _second_segment(kafka_tiered, remote_copy)
    last = _last_data_batch(path)
    size = last.position + 20 if cut == "inside the last batch" else last.position
    with open(path, "r+b") as f:
        f.truncate(size)
    read_tiers = lambda: read.read_all(  # noqa: E731
        str(kafka_tiered.log_dir / "tiered-gzip-0"),
        mode=mode,
        remote_storage_path=str(remote_copy),
        remote_log_metadata_path=str(kafka_tiered.metadata_dir),
    )
    if mode == "FAILFAST":
        with pytest.raises(SegmentError) as info:
            read_tiers()
        assert info.value.path == str(path) and info.value.position == size
        assert f"offsets {seg.start_offset}-{seg.end_offset}" in str(info.value)
        assert f"holds {size} bytes" in str(info.value) and "truncated" in str(info.value)
        return
    table = read_tiers()
    corrupt = table.column("_corrupt_record").to_pylist() if mode == "PERMISSIVE" else []
    bad = [c for c in corrupt if c is not None]
    if mode == "PERMISSIVE":
        assert len(bad) == 1 and bad[0].startswith(f"{path}: at byte {last.position}: "), bad
    keep = [i for i, c in enumerate(corrupt or [None] * table.num_rows) if c is None]
    got = _table_rows(table.take(keep))
    lost = range(last.base_offset, seg.end_offset + 1)  # that batch and any after it
    want = consumed_rows(kafka_tiered.records["read_uncommitted"])
    assert got == [r for r in want if r[0] == "tiered-gzip" and r[2] not in lost]
    assert len(got) < len([r for r in want if r[0] == "tiered-gzip"])


@pytest.mark.backend_independent
def test_one_tier_option_without_the_other_is_an_error(kafka_tiered):
    with pytest.raises(ValueError, match="remoteStoragePath needs option remoteLogMetadataPath"):
        read_options.ReadOptions.parse({"remoteStoragePath": str(kafka_tiered.remote_dir)})
    with pytest.raises(ValueError, match="remoteLogMetadataPath needs option remoteStoragePath"):
        read.read_all(str(kafka_tiered.log_dir / "tiered-none-0"), remote_log_metadata_path="x")
    with pytest.raises(ValueError, match=r"'remoteStorage' \(did you mean 'remoteStoragePath'\?\)"):
        read_options.ReadOptions.parse({"remoteStorage": "x", "remoteLogMetadataPath": "y"})
    with pytest.raises(FileNotFoundError, match="__remote_log_metadata"):
        tiered.remote_segments(str(kafka_tiered.log_dir / "tiered-none-0"))


def test_a_gap_in_the_remote_tier_or_between_the_tiers_names_the_missing_offsets(kafka_tiered):
    remote = tiered.remote_segments(str(kafka_tiered.metadata_dir))
    logs = segments.discover(str(kafka_tiered.log_dir / "tiered-lz4-0"))
    segs = remote[("tiered-lz4", 0)]
    root = str(kafka_tiered.remote_dir)
    lost = segs[1]
    with pytest.raises(
        SegmentError, match=f"has no segment for offsets {lost.start_offset}-{lost.end_offset}"
    ):
        tiered.join_tiers(logs, {("tiered-lz4", 0): segs[:1] + segs[2:]}, root)
    local_start = logs[0].segments[0].base_offset
    before = [s for s in segs if s.end_offset < local_start - 1]
    with pytest.raises(
        SegmentError, match=f"neither tier holds offsets {before[-1].end_offset + 1}-{local_start - 1}"
    ):
        tiered.join_tiers(logs, {("tiered-lz4", 0): before}, root)
    # a remote segment of another topic id (the topic made again under its name) is not read
    other = [dataclasses.replace(s, topic_id=uuid.uuid4()) for s in segs]
    assert tiered.join_tiers(logs, {("tiered-lz4", 0): other}, root)[0].segments == logs[0].segments


# -- the remote tier in an S3-compatible object store ---------------------------------


@pytest.fixture(scope="module")
def tiered_in_s3(kafka_tiered, seaweedfs):
    """The remote tier and the metadata log copied to SeaweedFS; the local log stays on
    disk, as a broker's does."""
    remote = seaweedfs.upload(str(kafka_tiered.remote_dir), "tiered", "remote")
    metadata = seaweedfs.upload(
        str(kafka_tiered.metadata_dir), "tiered", f"logs/{kafka_tiered.metadata_dir.name}"
    )
    return remote, metadata


@pytest.mark.objectstore
@pytest.mark.parametrize("isolation", ISOLATION_LEVELS)
def test_a_remote_tier_in_an_object_store_reads_what_kafkas_consumer_reads(
    kafka_tiered, seaweedfs, tiered_in_s3, isolation
):
    remote, metadata = tiered_in_s3
    options = read_options.ReadOptions.parse(
        {
            **seaweedfs.options,
            "isolationLevel": isolation,
            "remoteStoragePath": remote,
            "remoteLogMetadataPath": metadata,
        }
    )
    plan = planning.plan(_local_paths(kafka_tiered), options)
    assert any(s.path.startswith("s3://tiered/remote/") for s in plan)
    table = read.read_all(_local_paths(kafka_tiered), options)
    assert _table_rows(table) == consumed_rows(kafka_tiered.records[isolation])


@pytest.mark.objectstore
@pytest.mark.spark
def test_kafka_log_reads_a_remote_tier_in_an_object_store(kafka_log, kafka_tiered, seaweedfs, tiered_in_s3):
    remote, metadata = tiered_in_s3
    df = kafka_log(
        isolationLevel="read_committed",
        remoteStoragePath=remote,
        remoteLogMetadataPath=metadata,
        **seaweedfs.options,
    ).load(_local_paths(kafka_tiered))
    java = kafka_tiered.records["read_committed"]
    assert sorted((r.topic, r.offset) for r in df.select("topic", "offset").collect()) == sorted(
        (r["topic"], r["offset"]) for r in java
    )


@pytest.mark.objectstore
def test_a_remote_object_missing_from_the_store_is_named(kafka_tiered, seaweedfs):
    remote = seaweedfs.upload(str(kafka_tiered.remote_dir), "tiered", "remote-damaged")
    seg = tiered.remote_segments(str(kafka_tiered.metadata_dir))[("tiered-snappy", 0)][2]
    gone = seg.object_path(remote, store=storage.open_store(remote))
    seaweedfs.filesystem().delete_file(gone[len("s3://") :])
    options = read_options.ReadOptions.parse(
        {
            **seaweedfs.options,
            "remoteStoragePath": remote,
            "remoteLogMetadataPath": str(kafka_tiered.metadata_dir),
        }
    )
    with pytest.raises(LogNotFoundError) as info:
        planning.plan(str(kafka_tiered.log_dir / "tiered-snappy-0"), options)
    assert info.value.path == gone
    assert f"offsets {seg.start_offset}-{seg.end_offset}" in str(info.value) and "missing" in str(info.value)


@pytest.mark.objectstore
def test_read_committed_over_a_remote_tier_fetches_its_txnindex_not_its_batch_headers(
    kafka_tiered, seaweedfs, tiered_in_s3
):
    """Planning ``read_committed`` fetches from the remote tier only what
    ``read_uncommitted`` does plus the ``.txnindex`` objects, where a scan of the batch
    headers for the aborted transactions fetches much more; the rows are Kafka's
    ``read_committed`` consumer's."""
    remote, metadata = tiered_in_s3

    def planned(isolation):
        options = read_options.ReadOptions.parse(
            {
                **seaweedfs.options,
                "isolationLevel": isolation,
                "remoteStoragePath": remote,
                "remoteLogMetadataPath": metadata,
            }
        )
        splits = planning.plan(_local_paths(kafka_tiered), options)
        return splits, options, next(s.store for s in splits if s.path.startswith("s3://")).bytes_read

    _, _, uncommitted = planned("read_uncommitted")
    splits, options, committed = planned("read_committed")
    logs = tiered.tiered_logs(_local_paths(kafka_tiered), remote, metadata, options.storage)
    store = logs[0].segments[0].store
    index_bytes = sum(store.info(p).size for log in logs for p in log.remote_txn_indexes)
    assert index_bytes > 0
    assert committed - uncommitted == index_bytes
    before = store.bytes_read
    for log in logs:
        transactions.transactions(log)
    scanned = store.bytes_read - before
    print(
        f"\nread_committed planning fetched {committed - uncommitted} bytes more than read_uncommitted "
        f"(the .txnindex objects); a scan of the remote batch headers fetches {scanned} "
        f"({scanned / max(1, committed - uncommitted):.0f}x)"
    )
    assert scanned > 4 * index_bytes
    table = pa.Table.from_batches(list(read.read_splits(splits, options)))
    assert _table_rows(table) == consumed_rows(kafka_tiered.records["read_committed"])


@pytest.mark.objectstore
def test_a_truncated_remote_object_reads_as_the_same_truncated_local_one(
    kafka_tiered, seaweedfs, remote_copy, tmp_path
):
    seg, path = _second_segment(kafka_tiered, remote_copy)
    last = _last_data_batch(path)
    with open(path, "r+b") as f:
        f.truncate(last.position + 20)
    # only the damaged partition's folder goes to the store: what the read looks at
    root = tmp_path / "one-partition"
    shutil.copytree(path.parent, root / tiered.LOCAL_TIERED_STORAGE_ROOT / path.parent.name)
    remote = seaweedfs.upload(str(root), "tiered", f"remote-truncated-{uuid.uuid4().hex[:8]}")
    for mode in ("PERMISSIVE", "DROPMALFORMED"):
        tables = [
            read.read_all(
                str(kafka_tiered.log_dir / "tiered-gzip-0"),
                read_options.ReadOptions.parse(
                    {
                        **seaweedfs.options,
                        "mode": mode,
                        "remoteStoragePath": where,
                        "remoteLogMetadataPath": str(kafka_tiered.metadata_dir),
                    }
                ),
            )
            for where in (str(root), remote)
        ]
        extra = ["_corrupt_record"] if mode == "PERMISSIVE" else []
        assert tables[1].drop_columns(extra).equals(tables[0].drop_columns(extra)), mode
        if mode == "PERMISSIVE":
            local, s3 = ([c for c in t.column("_corrupt_record").to_pylist() if c] for t in tables)
            assert [c.replace(str(root), remote) for c in local] == s3 and len(s3) == 1
