"""Internal topics: __consumer_offsets, __transaction_state, __share_group_state,
__cluster_metadata and __remote_log_metadata records, and KRaft control records."""

from __future__ import annotations

import uuid

import pytest

from kafkawire.protocol import internal_topics, messages as m, records
from kafkawire.errors import DecodeError, EncodeError, UnknownApiError

pytestmark = pytest.mark.in_process


def test_record_types_come_from_the_key_definitions():
    co = internal_topics._KEYS[internal_topics.CONSUMER_OFFSETS]
    # Kafka 4's coordinator-key definitions name their record type as apiKey.
    assert co[0] == (m.LegacyOffsetCommitKey, m.LegacyOffsetCommitValue)
    assert co[1] == (m.OffsetCommitKey, m.OffsetCommitValue)
    assert co[2] == (m.GroupMetadataKey, m.GroupMetadataValue)
    assert co[3][0] is m.ConsumerGroupMetadataKey
    assert co[8][0] is m.ConsumerGroupCurrentMemberAssignmentKey
    assert sorted(co) == [t for t in range(0, 24) if t not in (9, 18)]  # 9, 18: retired types
    assert internal_topics._KEYS[internal_topics.TRANSACTION_STATE] == {
        0: (m.TransactionLogKey, m.TransactionLogValue)
    }
    assert internal_topics._KEYS[internal_topics.SHARE_GROUP_STATE] == {
        0: (m.ShareSnapshotKey, m.ShareSnapshotValue),
        1: (m.ShareUpdateKey, m.ShareUpdateValue),
    }


def test_offset_commit_record_decodes_byte_for_byte():
    # Key: version 1, group "g", topic "t", partition 3 (layout of Kafka's GroupMetadataManager).
    key = bytes.fromhex("000100016700017400000003")
    # Value v3: offset 42, leader epoch 7, metadata "", commit ts 1000.
    value = bytes.fromhex("0003000000000000002a00000007000000000000000003e8")
    rec = internal_topics.decode_record(internal_topics.CONSUMER_OFFSETS, key, value)
    assert rec.record_type == 1
    assert rec.key == m.OffsetCommitKey(group="g", topic="t", partition=3)
    assert rec.value_version == 3
    assert rec.value == m.OffsetCommitValue(offset=42, leader_epoch=7, metadata="", commit_timestamp=1000)
    assert internal_topics.encode_key(internal_topics.CONSUMER_OFFSETS, rec.key, 1) == key
    assert internal_topics.encode_value(rec.value, 3) == value


def test_tombstone_value_is_none():
    key = internal_topics.encode_key(internal_topics.CONSUMER_OFFSETS, m.GroupMetadataKey(group="grp"))
    assert key[:2] == b"\x00\x02"
    rec = internal_topics.decode_record(internal_topics.CONSUMER_OFFSETS, key, None)
    assert rec.value is None and rec.value_version is None and rec.key.group == "grp"


def test_group_metadata_value_at_every_version_keeps_the_fields_that_version_has():
    member = m.GroupMetadataValue.MemberMetadata(
        member_id="m-1",
        group_instance_id="inst",
        client_id="c",
        client_host="/127.0.0.1",
        rebalance_timeout=300000,
        session_timeout=45000,
        subscription=b"\x00\x01",
        assignment=b"\x02",
    )
    value = m.GroupMetadataValue(
        protocol_type="consumer",
        generation=5,
        protocol="range",
        leader="m-1",
        current_state_timestamp=123,
        members=[member],
    )

    # What each version keeps, from the field table: rebalanceTimeout from v1,
    # currentStateTimestamp from v2, groupInstanceId from v3; the rest read as defaults.
    def expected(version):
        mm = m.GroupMetadataValue.MemberMetadata(
            member_id="m-1",
            group_instance_id="inst" if version >= 3 else None,
            client_id="c",
            client_host="/127.0.0.1",
            rebalance_timeout=300000 if version >= 1 else -1,
            session_timeout=45000,
            subscription=b"\x00\x01",
            assignment=b"\x02",
        )
        return m.GroupMetadataValue(
            protocol_type="consumer",
            generation=5,
            protocol="range",
            leader="m-1",
            current_state_timestamp=123 if version >= 2 else -1,
            members=[mm],
        )

    for version in range(0, 5):
        raw = internal_topics.encode_value(value, version)
        got_version, got = internal_topics.decode_value(internal_topics.CONSUMER_OFFSETS, 2, raw)
        assert got_version == version
        assert got == expected(version), version
    # v0 written out by hand from the layout: version prefix, then int16-length strings,
    # int32 generation, int32 member count, int32-length bytes.
    v0 = bytes.fromhex(
        "0000"
        "0008" + b"consumer".hex() + "00000005"
        "0005" + b"range".hex() + "0003" + b"m-1".hex() + "00000001"
        "0003" + b"m-1".hex() + "0001" + b"c".hex() + "000a" + b"/127.0.0.1".hex() + "0000afc8"
        "00000002"
        "0001"
        "00000001"
        "02"
    )
    assert internal_topics.encode_value(value, 0) == v0


def test_transaction_state_and_share_group_state():
    key = internal_topics.encode_key(
        internal_topics.TRANSACTION_STATE, m.TransactionLogKey(transactional_id="tx")
    )
    assert key == b"\x00\x00\x00\x02tx"
    value = m.TransactionLogValue(
        producer_id=9,
        producer_epoch=1,
        transaction_timeout_ms=60000,
        transaction_status=0,
        transaction_start_timestamp_ms=-1,
        transaction_last_update_timestamp_ms=5,
        previous_producer_id=8,
    )
    rec = internal_topics.decode_record(
        internal_topics.TRANSACTION_STATE, key, internal_topics.encode_value(value, 1)
    )
    assert rec.key.transactional_id == "tx" and rec.value == value
    # v0 has no tagged fields: the non-default tagged value cannot be written there.
    share_key = internal_topics.encode_key(
        internal_topics.SHARE_GROUP_STATE,
        m.ShareUpdateKey(group_id="g", topic_id=uuid.UUID(int=5), partition=2),
    )
    assert share_key[:2] == b"\x00\x01"
    assert internal_topics.decode_key(internal_topics.SHARE_GROUP_STATE, share_key)[1].partition == 2


def test_unknown_record_type_and_topic_raise():
    with pytest.raises(UnknownApiError):
        internal_topics.decode_key(internal_topics.CONSUMER_OFFSETS, b"\x00\x63")
    with pytest.raises(UnknownApiError):
        internal_topics.decode_key("orders", b"\x00\x00")
    with pytest.raises(DecodeError):
        internal_topics.decode_key(internal_topics.CONSUMER_OFFSETS, b"\x00")
    with pytest.raises(DecodeError):
        internal_topics.decode_key(internal_topics.CONSUMER_OFFSETS, b"\x00\x02\x00\x05ab")


def test_cluster_metadata_records():
    topic_id = uuid.UUID("12345678-1234-5678-1234-567812345678")
    rec = m.TopicRecord(name="orders", topic_id=topic_id)
    raw = internal_topics.encode_metadata_record(rec, 0)
    # frame version 1, record type 2 (TopicRecord), version 0, then the flexible struct.
    assert raw == bytes([1, 2, 0, 7]) + b"orders" + topic_id.bytes + b"\x00"
    got = internal_topics.decode_metadata_record(raw)
    assert got == internal_topics.MetadataRecord(1, 2, 0, rec)
    part = m.PartitionRecord(
        partition_id=0,
        topic_id=topic_id,
        replicas=[1, 2],
        isr=[1, 2],
        leader=1,
        leader_epoch=3,
        partition_epoch=4,
    )
    # v0 by hand: frame version 1, record type 3, version 0, partition id, topic id,
    # compact arrays (length + 1) of replicas, isr, removing and adding replicas, leader,
    # leader epoch, partition epoch, no tagged fields.
    v0 = (
        bytes([1, 3, 0])
        + bytes(4)
        + topic_id.bytes
        + bytes.fromhex("030000000100000002030000000100000002010100000001000000030000000400")
    )
    assert internal_topics.encode_metadata_record(part, 0) == v0
    for version in range(0, 3):  # every field set is in v0; later fields keep their defaults
        assert (
            internal_topics.decode_metadata_record(
                internal_topics.encode_metadata_record(part, version)
            ).message
            == part
        )
    with pytest.raises(DecodeError):
        internal_topics.decode_metadata_record(bytes([0, 2, 0]) + raw[3:])  # frame version 0
    with pytest.raises(UnknownApiError):
        internal_topics.decode_metadata_record(bytes([1, 99, 0]))


def test_remote_log_metadata_records_have_a_numbering_of_their_own():
    """Record type 2 is RemotePartitionDeleteMetadataRecord on ``__remote_log_metadata``
    and TopicRecord on ``__cluster_metadata``: the same frame, two tables."""
    topic_id = uuid.UUID("12345678-1234-5678-1234-567812345678")
    rec = m.RemotePartitionDeleteMetadataRecord(
        topic_id_partition=m.RemotePartitionDeleteMetadataRecord.TopicIdPartitionEntry(
            name="orders", id=topic_id, partition=3
        ),
        broker_id=1,
        event_timestamp_ms=1700000000000,
        remote_partition_delete_state=0,
    )
    raw = internal_topics.encode_remote_log_metadata_record(rec, 0)
    # frame version 1, record type 2, version 0; compact string, uuid, int32 partition
    # (no tagged fields), int32 broker, int64 time, int8 state, no tagged fields
    assert raw == (
        bytes([1, 2, 0, 7])
        + b"orders"
        + topic_id.bytes
        + bytes.fromhex("0000000300")
        + bytes.fromhex("00000001")
        + (1700000000000).to_bytes(8, "big")
        + bytes([0, 0])
    )
    assert internal_topics.decode_remote_log_metadata_record(raw) == internal_topics.MetadataRecord(
        1, 2, 0, rec
    )
    with pytest.raises(EncodeError, match="not a remote log metadata record"):
        internal_topics.encode_remote_log_metadata_record(m.TopicRecord(name="x", topic_id=topic_id), 0)
    with pytest.raises(EncodeError, match="not a metadata record"):
        internal_topics.encode_metadata_record(rec, 0)
    with pytest.raises(UnknownApiError, match="no remote log metadata record has type 9"):
        internal_topics.decode_remote_log_metadata_record(bytes([1, 9, 0]))
    with pytest.raises(DecodeError, match="remote log metadata record frame version 0"):
        internal_topics.decode_remote_log_metadata_record(bytes([0]) + raw[1:])


def test_control_records():
    msg = m.LeaderChangeMessage(
        version=0, leader_id=1, voters=[m.LeaderChangeMessage.Voter(voter_id=1)], granting_voters=[]
    )
    key, value = internal_topics.encode_control_record(msg, 0)
    assert key == b"\x00\x00\x00\x02"
    got = internal_topics.decode_control_record(key, value)
    assert (got.type, got.type_id) == ("leader_change", 2) and got.message == msg
    # Kafka's bytes (a 4.4 broker's first metadata-log record): the value is the struct,
    # its Version field first, with no second version prefix
    kafka = internal_topics.decode_control_record(
        bytes.fromhex("00000002"), bytes.fromhex("00000000000102000000010002000000010000")
    )
    assert kafka.value_version == 0 and kafka.message == m.LeaderChangeMessage(
        version=0,
        leader_id=1,
        voters=[m.LeaderChangeMessage.Voter(voter_id=1)],
        granting_voters=[m.LeaderChangeMessage.Voter(voter_id=1)],
    )
    assert internal_topics.encode_control_record(kafka.message, 0)[1] == bytes.fromhex(
        "00000000000102000000010002000000010000"
    )
    commit = internal_topics.decode_control_record(b"\x00\x00\x00\x01", b"\x00\x00\x00\x00\x00\x05")
    assert commit.message is None and commit.raw == b"\x00\x00\x00\x00\x00\x05"
    # a transaction marker: the same ControlRecord type kafkawire.protocol.records gives
    assert type(commit) is records.ControlRecord
    assert (commit.type, commit.type_id, commit.coordinator_epoch) == ("commit", 1, 5)
