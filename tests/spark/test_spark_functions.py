"""Column functions for binary columns: record batches and internal-topic records.

The Arrow-level functions run on both backends without Spark; the Spark columns once.
"""

from __future__ import annotations

import json
import struct

import pytest

pa = pytest.importorskip("pyarrow")

from kafkawire.protocol import messages, records  # noqa: E402
from kafkawire.spark import functions as fn  # noqa: E402


def _prefixed(version: int, body: bytes) -> bytes:
    return struct.pack(">h", version) + body


def _offset_commit(group, topic, partition, offset, *, version=3, epoch=7, ts=1_700_000_000_000):
    key = _prefixed(1, messages.OffsetCommitKey(group=group, topic=topic, partition=partition).encode(0))
    value = _prefixed(
        version,
        messages.OffsetCommitValue(
            offset=offset, leader_epoch=epoch, metadata="meta", commit_timestamp=ts
        ).encode(version),
    )
    return key, value


def _group_metadata(group):
    key = _prefixed(2, messages.GroupMetadataKey(group=group).encode(0))
    member = messages.GroupMetadataValue.MemberMetadata(
        member_id="m-1",
        group_instance_id=None,
        client_id="app",
        client_host="/10.0.0.1",
        rebalance_timeout=30000,
        session_timeout=10000,
        subscription=b"\x00\x01",
        assignment=b"\x00\x02",
    )
    value = _prefixed(
        3,
        messages.GroupMetadataValue(
            protocol_type="consumer",
            generation=4,
            protocol="range",
            leader="m-1",
            current_state_timestamp=1_700_000_000_001,
            members=[member],
        ).encode(3),
    )
    return key, value


def test_record_batches_column_decodes_to_record_structs():
    b1 = records.encode_batch(
        [{"key": b"a", "value": b"1", "headers": [("h", b"x")], "timestamp": 1000}] * 3, compression="lz4"
    )
    b2 = records.encode_batch([{"key": None, "value": b"2", "timestamp": 2000}], base_offset=9)
    out = fn.decode_record_batches_array(pa.array([b1, None, b1 + b2, b""], pa.binary()))
    rows = out.to_pylist()
    assert rows[1] is None and rows[3] == []
    assert [r["offset"] for r in rows[2]] == [0, 1, 2, 9]
    assert rows[0][0]["headers"] == [{"key": "h", "value": b"x"}]
    assert rows[2][3]["key"] is None and rows[2][3]["compression"] == "none"
    assert out.type.value_type.field("timestamp").type == pa.timestamp("us", tz="UTC")


def test_consumer_offsets_commits_group_metadata_and_tombstones():
    k1, v1 = _offset_commit("g1", "orders", 2, 4242)
    k2, v2 = _group_metadata("g1")
    k3, v3 = _offset_commit("g2", "pay", 0, 7, version=1, epoch=-1)
    out = fn.decode_consumer_offsets_array(pa.array([k1, k2, k3, k1]), pa.array([v1, v2, v3, None]))
    commit, group, old, tomb = out.to_pylist()
    assert (
        commit["record_type"],
        commit["group"],
        commit["topic"],
        commit["partition"],
        commit["offset"],
        commit["leader_epoch"],
        commit["metadata"],
        commit["commit_timestamp"],
    ) == ("offset_commit", "g1", "orders", 2, 4242, 7, "meta", 1_700_000_000_000)
    assert group["record_type"] == "group_metadata" and group["generation"] == 4
    assert group["protocol"] == "range" and group["leader"] == "m-1"
    (member,) = group["members"]
    assert member["member_id"] == "m-1" and member["session_timeout"] == 10000
    assert member["assignment"] == b"\x00\x02"
    assert old["value_version"] == 1 and old["offset"] == 7 and old["leader_epoch"] is None
    assert tomb["offset"] is None and tomb["group"] == "g1" and tomb["error"] is None


def test_internal_topic_garbage_is_an_error_field_not_a_crash():
    out = fn.decode_consumer_offsets_array(
        pa.array([b"\x00", b"\x00\x01\xff"]), pa.array([None, None])
    ).to_pylist()
    assert all(r["error"] for r in out)
    bad = fn.decode_cluster_metadata_array(pa.array([b"\x00\x7f\x00"])).to_pylist()
    assert bad[0]["error"]


def test_transaction_state_and_cluster_metadata_to_json():
    key = _prefixed(0, messages.TransactionLogKey(transactional_id="tx-1").encode(0))
    value_cls = messages.TransactionLogValue
    value = _prefixed(
        0,
        value_cls(
            producer_id=77,
            producer_epoch=2,
            transaction_timeout_ms=60000,
            transaction_status=4,
            transaction_partitions=[],
            transaction_last_update_timestamp_ms=5,
            transaction_start_timestamp_ms=3,
        ).encode(0),
    )
    (row,) = fn.decode_transaction_state_array(pa.array([key]), pa.array([value])).to_pylist()
    fields = json.loads(row["fields"])
    assert row["record_type"] == "transaction_log"
    assert fields["key"]["transactional_id"] == "tx-1"
    assert fields["value"]["producer_id"] == 77
    topic = messages.metadata_record_class(2)  # TopicRecord
    import uuid

    tid = uuid.UUID(int=5)
    rec = topic(name="orders", topic_id=tid)
    frame = bytes([1, 2, 0]) + rec.encode(0)  # frame version, record type, version
    (row,) = fn.decode_cluster_metadata_array(pa.array([frame])).to_pylist()
    assert row["record_type"] == "TopicRecord" and row["version"] == 0
    assert json.loads(row["fields"])["name"] == "orders"
    assert str(tid) in row["fields"]


@pytest.mark.spark
@pytest.mark.backends("cython")
def test_functions_as_spark_columns(spark):
    from pyspark.sql import functions as F

    b = records.encode_batch(
        [{"key": b"k%d" % i, "value": b"v", "timestamp": 1000 + i} for i in range(5)], compression="zstd"
    )
    k1, v1 = _offset_commit("g1", "orders", 2, 4242)
    k2, v2 = _group_metadata("g1")
    df = spark.createDataFrame([(b, k1, v1), (b, k2, v2)], "batch binary, key binary, value binary")
    out = df.select(
        fn.decode_record_batches("batch").alias("recs"),
        fn.decode_consumer_offsets("key", "value").alias("co"),
    )
    rows = out.select(
        F.size("recs").alias("n"),
        F.col("recs")[4]["offset"].alias("last"),
        F.unix_millis(F.col("recs")[4]["timestamp"]).alias("ts"),
        "co.record_type",
        "co.offset",
        F.size("co.members").alias("m"),
    ).collect()
    assert [(r.n, r.last, r.ts) for r in rows] == [(5, 4, 1004)] * 2
    assert [(r.record_type, r.offset) for r in rows] == [("offset_commit", 4242), ("group_metadata", None)]
    assert rows[1].m == 1
