"""A log directory a real Kafka 4.4 broker wrote, read by kafkawire.

The ``kafka_workload`` fixture (``support.kafka.workload``) drives a broker of its own
with Kafka's Java clients, records what Kafka's consumer read from it live, stops it
cleanly and keeps its data directory.  The oracles are Kafka itself: its consumer's
records (both isolation levels) for ``kafka-log``, and its ``DumpLogSegments`` tool for
``kafkawire dump-log`` and for the internal-topic decoders.
"""

from __future__ import annotations

import base64
import json
import os
import re
import uuid
from collections import Counter
from pathlib import Path

import pytest
from support.kafka.workload import consumed_rows

from kafkawire.protocol import internal_topics
from kafkawire.cli import dump_log as dumplog
from kafkawire.log import indexes, scan, segments, transactions

pytestmark = pytest.mark.kafka

ISOLATION_LEVELS = ("read_uncommitted", "read_committed")
INTERNAL_TOPICS = ("__consumer_offsets", "__transaction_state", "__share_group_state")


def _spark_rows(df, topics):
    from pyspark.sql import functions as F

    rows = (
        df.where(F.col("topic").isin(topics))
        .select(
            "topic", "partition", "offset", F.unix_millis("timestamp").alias("ts"), "key", "value", "headers"
        )
        .collect()
    )
    return sorted(
        (
            r.topic,
            r.partition,
            r.offset,
            r.ts,
            None if r.key is None else bytes(r.key),
            None if r.value is None else bytes(r.value),
            [(h.key, None if h.value is None else bytes(h.value)) for h in r.headers],
        )
        for r in rows
    )


def _partition_dirs(log_dir: Path):
    return sorted(p for p in log_dir.iterdir() if p.is_dir())


# -- kafka-log against Kafka's consumer ------------------------------------------------


@pytest.mark.spark
@pytest.mark.parametrize("isolation", ISOLATION_LEVELS)
def test_kafka_log_reads_what_kafkas_consumer_read(kafka_log, kafka_workload, isolation):
    df = kafka_log(isolationLevel=isolation).load(str(kafka_workload.log_dir))
    got = _spark_rows(df, kafka_workload.topics)
    want = consumed_rows(kafka_workload.records[isolation])
    assert len(got) == len(want)
    assert got == want


@pytest.mark.backend_independent
def test_read_committed_ends_at_the_open_transactions_last_stable_offset(kafka_workload):
    committed_end = kafka_workload.end_offsets("read_committed")
    uncommitted_end = kafka_workload.end_offsets("read_uncommitted")
    for plog in segments.discover(str(kafka_workload.log_dir)):
        if plog.topic != "txn":
            continue
        name = f"{plog.topic}-{plog.partition}"
        lso = transactions.transactions(plog).last_stable_offset
        assert lso == committed_end[name] < uncommitted_end[name]


@pytest.mark.spark
def test_control_records_only_with_include_control(kafka_log, kafka_workload):
    """The transaction markers are the offsets Kafka's consumer skipped: with them, the
    transactional topic's offsets run without a gap up to the log end."""
    from pyspark.sql import functions as F

    log_dir = str(kafka_workload.log_dir)
    plain = kafka_log().load(log_dir).where(F.col("topic") == "txn")
    assert plain.where("is_control").count() == 0
    with_control = kafka_log(includeControl="true").load(log_dir).where(F.col("topic") == "txn")
    control = with_control.where("is_control").select("partition", "offset").collect()
    ended = [s for s in kafka_workload.summary["transactions"].values() if s != "open"]
    assert len(control) == len(ended) * 2  # every transaction wrote to both partitions
    java = Counter()
    for r in kafka_workload.records["read_uncommitted"]:
        if r["topic"] == "txn":
            java[r["partition"]] += 1
    ends = kafka_workload.end_offsets("read_uncommitted")
    for partition in (0, 1):
        offsets = sorted(
            [
                r["offset"]
                for r in kafka_workload.records["read_uncommitted"]
                if r["topic"] == "txn" and r["partition"] == partition
            ]
            + [c.offset for c in control if c.partition == partition]
        )
        assert offsets == list(range(ends[f"txn-{partition}"]))


@pytest.mark.spark
def test_the_whole_data_directory_reads_without_error(kafka_log, kafka_workload):
    """Checkpoints, producer snapshots, leader-epoch checkpoints, partition.metadata,
    files the cleaner left as .deleted, the deleted topic's -delete folder and the
    metadata log's snapshot and quorum files are not segments: they are skipped."""
    log_dir = kafka_workload.log_dir
    names = {p.name for p in _partition_dirs(log_dir)}
    assert any(n.endswith("-delete") for n in names)
    assert "__cluster_metadata-0" in names
    assert any(p.name.endswith(".deleted") for p in (log_dir / "compacted-0").iterdir())
    df = kafka_log(includeControl="true").load(str(log_dir))
    seen = {(r.topic, r.partition) for r in df.select("topic", "partition").distinct().collect()}
    partitions = {segments.parse_partition_dir(n) for n in names if not n.endswith("-delete")}
    assert seen == partitions
    assert "deleted" not in {t for t, _ in seen}


# -- dump-log against DumpLogSegments ---------------------------------------------------


def _text(value):
    if isinstance(value, bool):
        return "true" if value else "false"
    return str(value)


def _ours(path: str, capsys):
    """kafkawire dump-log's entries of one file (keys and payloads as hex)."""
    status = dumplog.main([path, "--bytes-as", "hex"])
    out = capsys.readouterr().out
    assert status == 0, out[-2000:]
    return [json.loads(line) for line in out.splitlines()][1:]


def _as_kafka_prints(entry):
    """One of our dumped batches or index entries with its values as Kafka prints them."""
    out = {}
    for k, v in entry.items():
        if k == "records":
            continue
        if k == "deleteHorizonMs":
            v = "OptionalLong.empty" if v is None else f"OptionalLong[{v}]"
        out[k] = _text(v)
    return out


_UUID = re.compile(r"^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$")


def _norm(value):
    """A decoded struct as JSON, comparable across Kafka's and kafkawire's spelling:
    field names without case or underscores, UUIDs in Kafka's base64 form."""
    if isinstance(value, dict):
        return {k.replace("_", "").lower(): _norm(v) for k, v in value.items()}
    if isinstance(value, list):
        return [_norm(v) for v in value]
    if isinstance(value, str) and _UUID.match(value):
        return base64.urlsafe_b64encode(uuid.UUID(value).bytes).decode().rstrip("=")
    return value


_DEFAULTS = (None, 0, -1, "", [], False, "AAAAAAAAAAAAAAAAAAAAAA")


def _without_absent(ours, theirs):
    """``ours`` without the fields Kafka's JSON leaves out: those the record's version
    has not, and tagged fields at their default (ours hold the defaults)."""
    if isinstance(ours, dict) and isinstance(theirs, dict):
        return {
            k: _without_absent(v, theirs.get(k)) for k, v in ours.items() if k in theirs or v not in _DEFAULTS
        }
    if isinstance(ours, list) and isinstance(theirs, list) and len(ours) == len(theirs):
        return [_without_absent(a, b) for a, b in zip(ours, theirs)]
    return ours


def _record_as_kafka_prints(rec):
    out = {}
    for k, v in rec.items():
        if isinstance(v, dict):
            out[k] = _norm(v)
        elif k in ("key", "payload"):
            if v is None:
                continue  # Kafka prints no key (or payload) for a null one
            try:
                out[k] = bytes.fromhex(v).decode("utf-8")
            except UnicodeDecodeError:
                out[k] = None  # Kafka prints undecodable bytes its own way: not compared
        elif k == "headerKeys":
            out[k] = list(v)
        else:
            out[k] = _text(v)
    return out


def _compare_file(path, theirs, ours):
    assert len(ours) == len(theirs), path
    for mine, kafka in zip(ours, theirs):
        assert _as_kafka_prints(mine) == {k: v for k, v in kafka.items() if k != "records"}, path
        if "records" not in kafka:
            continue
        assert len(mine["records"]) == len(kafka["records"]), (path, mine["baseOffset"])
        for rec, krec in zip(mine["records"], kafka["records"]):
            rec = _record_as_kafka_prints(rec)
            krec = {k: _norm(v) if isinstance(v, dict) else v for k, v in krec.items()}
            rec = {k: _without_absent(v, krec.get(k)) for k, v in rec.items()}
            for k in ("key", "payload"):
                if rec.get(k, "") is None:
                    del rec[k]
                    krec = {kk: vv for kk, vv in krec.items() if kk != k}
            assert rec == krec, (path, rec["offset"])


@pytest.fixture(scope="module")
def dumped_by_kafka(kafka_workload):
    from support.kafka.dump_log_segments import dump

    files = []
    for pdir in _partition_dirs(kafka_workload.log_dir):
        for name in sorted(os.listdir(pdir)):
            # .txnindex: kafka-tools 4.3's dumper needs a class 4.4 moved (compared
            # with 4.4's own TransactionIndex below)
            if name.endswith((".log", ".index", ".timeindex")):
                files.append(str(pdir / name))
    return dump(files, ["--deep-iteration", "--print-data-log"])


def test_dump_log_prints_what_dump_log_segments_prints(kafka_workload, dumped_by_kafka, capsys):
    assert len(dumped_by_kafka) > 40
    kinds = Counter(Path(p).suffix for p in dumped_by_kafka)
    assert kinds[".log"] > 20 and kinds[".index"] > 20 and kinds[".timeindex"] > 20
    for path, theirs in sorted(dumped_by_kafka.items()):
        theirs = [e for e in theirs if e]  # an empty index prints no entry
        _compare_file(path, theirs, _ours(path, capsys))


# -- the internal topics against DumpLogSegments' decoders -----------------------------

DECODERS = {
    "__consumer_offsets": "--offsets-decoder",
    "__transaction_state": "--transaction-log-decoder",
    "__share_group_state": "--share-group-state-decoder",
    "__cluster_metadata": "--cluster-metadata-decoder",
}


def _records_by_offset(path):
    from kafkawire.protocol import records

    out = {}
    with open(path, "rb") as f:
        for batch in records.iter_batches(f.read()):
            for r in batch:
                out[r.offset] = (
                    batch.is_control,
                    None if r.key is None else bytes(r.key),
                    None if r.value is None else bytes(r.value),
                )
    return out


def _embedded_protocol(value):
    """A GroupMetadataValue's members' subscription and assignment bytes decoded as the
    consumer protocol (Kafka's decoder prints them so, for protocol type "consumer")."""
    from kafkawire.protocol import messages

    out = value.to_dict()
    if type(value).__name__ != "GroupMetadataValue" or value.protocol_type != "consumer":
        return out
    for member, raw in zip(out["members"], value.members):
        for attr, cls in (
            ("subscription", messages.ConsumerProtocolSubscription),
            ("assignment", messages.ConsumerProtocolAssignment),
        ):
            data = bytes(getattr(raw, attr))
            version = int.from_bytes(data[:2], "big", signed=True)
            member[attr] = cls.decode_from(data, version, 2)[0].to_dict()
    return out


def _snake_upper(name: str) -> str:
    return re.sub(r"(?<=[a-z0-9])(?=[A-Z])", "_", name).upper()


@pytest.fixture(scope="module")
def decoded_by_kafka(kafka_workload):
    from support.kafka.dump_log_segments import dump

    out = {}
    for topic, option in DECODERS.items():
        files = [str(p) for p in sorted((kafka_workload.log_dir / f"{topic}-0").glob("*.log"))]
        out.update(dump(files, [option]))
    return out


def test_internal_topics_decode_as_kafkas_decoders_print(kafka_workload, decoded_by_kafka):
    seen = Counter()
    for path, entries in sorted(decoded_by_kafka.items()):
        topic = segments.parse_partition_dir(Path(path).parent.name)[0]
        raw = _records_by_offset(path)
        for batch in entries:
            for krec in batch["records"]:
                control, key, value = raw[int(krec["offset"])]
                if control:
                    continue  # transaction markers and KRaft control records: dump-log's test
                if topic == internal_topics.CLUSTER_METADATA:
                    want = json.loads(krec["payload"])
                    rec = internal_topics.decode_metadata_record(value)
                    got = {
                        "type": _snake_upper(type(rec.message).__name__),
                        "version": rec.version,
                        "data": _norm(rec.message.to_dict()),
                    }
                    want["data"] = _norm(want["data"])
                    got["data"] = _without_absent(got["data"], want["data"])
                    assert got == want, (path, krec["offset"])
                    seen[(topic, want["type"])] += 1
                    continue
                rec = internal_topics.decode_record(topic, key, value)
                want_key = json.loads(krec["key"])
                assert int(want_key["type"]) == rec.record_type, (path, krec["offset"])
                want = _norm(want_key["data"])
                assert _without_absent(_norm(rec.key.to_dict()), want) == want
                if krec["payload"] == "<DELETE>":
                    assert rec.value is None
                else:
                    want_value = json.loads(krec["payload"])
                    assert int(want_value["version"]) == rec.value_version
                    want = _norm(want_value["data"])
                    assert _without_absent(_norm(_embedded_protocol(rec.value)), want) == want, (
                        path,
                        krec["offset"],
                    )
                seen[(topic, type(rec.key).__name__)] += 1
    # what the workload wrote: classic, consumer-protocol and share groups, transactions,
    # share-group state, and the metadata log
    kinds = {k for _, k in seen}
    assert {
        "OffsetCommitKey",
        "GroupMetadataKey",
        "ConsumerGroupMemberMetadataKey",
        "ConsumerGroupCurrentMemberAssignmentKey",
        "ShareGroupMetadataKey",
        "ShareGroupStatePartitionMetadataKey",
        "TransactionLogKey",
        "ShareSnapshotKey",
        "TOPIC_RECORD",
        "PARTITION_RECORD",
    } <= kinds, sorted(kinds)


@pytest.mark.spark
def test_spark_functions_decode_every_internal_record_with_no_unknown_type(kafka_log, kafka_workload):
    from pyspark.sql import functions as F

    from kafkawire.spark.functions import (
        decode_cluster_metadata,
        decode_consumer_offsets,
        decode_transaction_state,
    )

    df = kafka_log().load(str(kafka_workload.log_dir))
    offsets = (
        df.where(F.col("topic") == "__consumer_offsets")
        .select(decode_consumer_offsets("key", "value").alias("r"))
        .select("r.*")
        .collect()
    )
    assert offsets and not [r for r in offsets if r.error or r.record_type.startswith("unknown")]
    kinds = Counter(r.record_type for r in offsets)
    assert {
        "offset_commit",
        "group_metadata",
        "consumer_group_metadata",
        "consumer_group_member_metadata",
        "consumer_group_current_member_assignment",
        "share_group_metadata",
        "share_group_member_metadata",
        "share_group_state_partition_metadata",
    } <= set(kinds), kinds
    members = [
        r for r in offsets if r.record_type == "consumer_group_member_metadata" and r.fields is not None
    ]
    assert members and all(r.group == "group-consumer" and r.member_id for r in members)
    assert json.loads(members[0].fields)["subscribed_topic_names"] == ["codec-none", "codec-zstd"]
    commits = {
        (r.group, r.topic, r.partition): r.offset
        for r in offsets
        if r.record_type == "offset_commit" and r.offset is not None
    }
    # the last commit of each group is the end of what it read
    assert (
        commits[("group-consumer", "codec-zstd", 0)]
        == kafka_workload.end_offsets("read_uncommitted")["codec-zstd-0"]
    )
    for topic, fn in (("__transaction_state", decode_transaction_state), ("__cluster_metadata", None)):
        part = df.where((F.col("topic") == topic) & ~F.col("is_control"))
        col = fn("key", "value") if fn else decode_cluster_metadata("value")
        rows = part.select(col.alias("r")).select("r.*").collect()
        assert rows and not [r for r in rows if r.error or r.record_type is None], topic


# -- damaged copies of the real log -----------------------------------------------------

DAMAGED = "codec-zstd-0"


def _damaged_copy(kafka_workload, tmp_path):
    import shutil

    dst = tmp_path / "logs" / DAMAGED
    shutil.copytree(kafka_workload.log_dir / DAMAGED, dst)
    return dst, sorted(dst.glob("*.log"))


def _kafka_rows(kafka_workload, keep=lambda offset: True):
    topic, partition = segments.parse_partition_dir(DAMAGED)
    return consumed_rows(
        r
        for r in kafka_workload.records["read_uncommitted"]
        if r["topic"] == topic and r["partition"] == partition and keep(r["offset"])
    )


def _modes_keep_the_good_batches(kafka_log, root, kafka_workload, bad_path, bad_batch):
    with pytest.raises(Exception) as info:
        kafka_log().load(str(root)).collect()
    assert f"{bad_path}: at byte {bad_batch.position}" in str(info.value)
    want = _kafka_rows(kafka_workload, lambda o: not bad_batch.base_offset <= o <= bad_batch.last_offset)
    topics = [DAMAGED.rsplit("-", 1)[0]]
    assert _spark_rows(kafka_log(mode="DROPMALFORMED").load(str(root)), topics) == want
    permissive = kafka_log(mode="PERMISSIVE").load(str(root))
    assert _spark_rows(permissive.where("_corrupt_record IS NULL"), topics) == want
    (bad,) = permissive.where("_corrupt_record IS NOT NULL").collect()
    assert str(bad_path) in bad._corrupt_record


@pytest.mark.spark
def test_a_truncated_last_segment(kafka_log, kafka_workload, tmp_path):
    """A broker killed mid-write: the last batch of the last segment is cut short."""
    pdir, logs = _damaged_copy(kafka_workload, tmp_path)
    last = list(scan.scan_headers(str(logs[-1])))[-1]
    with open(logs[-1], "r+b") as f:
        f.truncate(last.position + last.size_in_bytes // 2)
    _modes_keep_the_good_batches(kafka_log, tmp_path / "logs", kafka_workload, logs[-1], last)


@pytest.mark.spark
def test_a_corrupt_batch_in_the_middle(kafka_log, kafka_workload, tmp_path):
    pdir, logs = _damaged_copy(kafka_workload, tmp_path)
    assert len(logs) >= 3
    middle = logs[len(logs) // 2]
    headers = list(scan.scan_headers(str(middle)))
    bad = headers[len(headers) // 2]
    with open(middle, "r+b") as f:  # a flipped bit in the compressed records: CRC mismatch
        f.seek(bad.position + bad.size_in_bytes - 5)
        byte = f.read(1)[0]
        f.seek(bad.position + bad.size_in_bytes - 5)
        f.write(bytes([byte ^ 0x10]))
    _modes_keep_the_good_batches(kafka_log, tmp_path / "logs", kafka_workload, middle, bad)


@pytest.mark.spark
def test_an_index_pointing_past_the_end(kafka_log, kafka_workload, tmp_path):
    """An .index entry beyond its segment's end is not trusted: the segment is read from
    its start, and an offset filter still gets exactly its rows."""
    import struct

    from pyspark.sql import functions as F

    pdir, logs = _damaged_copy(kafka_workload, tmp_path)
    seg = logs[len(logs) // 2]
    index = seg.with_suffix(".index")
    entries = indexes.read_offset_index(str(index), segments.base_offset_of(str(seg)))
    assert entries, "the segment has index entries"
    size = seg.stat().st_size
    base = segments.base_offset_of(str(seg))
    with open(index, "r+b") as f:  # every entry: relative offset kept, position past the end
        for i, (offset, _position) in enumerate(entries):
            f.seek(8 * i)
            f.write(struct.pack(">ii", offset - base, size + 4096 * (i + 1)))
    first = entries[-1][0] + 1
    df = kafka_log().load(str(tmp_path / "logs")).where(F.col("offset") >= first)
    topics = [DAMAGED.rsplit("-", 1)[0]]
    assert _spark_rows(df, topics) == _kafka_rows(kafka_workload, lambda o: o >= first)
    small = kafka_log(maxPartitionBytes=4096, openCostInBytes=0).load(str(tmp_path / "logs"))
    assert _spark_rows(small, topics) == _kafka_rows(kafka_workload)


def test_dump_log_prints_transaction_indexes_as_kafka_reads_them(kafka_workload, capsys):
    from support.kafka.dump_log_segments import dump_txn_indexes

    files = sorted(str(p) for p in kafka_workload.log_dir.glob("*/*.txnindex"))
    theirs = dump_txn_indexes(files)
    assert sum(len(v) for v in theirs.values()) >= 2  # both aborted transactions
    for path in files:
        _compare_file(path, theirs[path], _ours(path, capsys))
