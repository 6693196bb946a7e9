"""Message classes: defaults, versions, nulls, unknown tagged fields, records views,
dicts, equality, class lookup and version negotiation."""

from __future__ import annotations

import copy
import json
import pickle
import uuid

import pytest

from kafkawire.protocol import messages as m
from kafkawire.errors import DecodeError, EncodeError, UnknownApiError, UnsupportedVersionError
from kafkawire.protocol.schema import DATA_DIR, GROUPS
from kafkawire.protocol.schema.plan import snake_case

pytestmark = pytest.mark.in_process


@pytest.mark.backend_independent
def test_package_schema_holds_exactly_the_files_its_manifest_lists(backend):
    """MANIFEST.json records where each definition came from: every file is listed, with
    its Kafka jar, release, jar entry and sha256, and the valid versions the file itself
    declares."""
    manifest = json.loads((DATA_DIR / "MANIFEST.json").read_text())
    files = manifest["files"]
    listed = sorted(n for n in files if "/" in n)
    assert listed == sorted(f"{g}/{p.name}" for g in GROUPS for p in (DATA_DIR / g).glob("*.json"))
    for name in listed:
        entry = files[name]
        definition = json.loads((DATA_DIR / name).read_text())
        assert entry["validVersions"] == definition["validVersions"], name
        assert entry["version"] == manifest["kafka"] and entry["jar"].endswith(f"-{manifest['kafka']}.jar")
        assert len(entry["sha256"]) == 64 and entry["entry"].endswith(".json"), name
    assert "errors.json" in files


def test_names_defaults_and_class_attributes(backend):
    assert snake_case("IsrNodes") == "isr_nodes" and snake_case("KRaftVersion") == "k_raft_version"
    req = m.MetadataRequest()
    assert req.topics == [] and req.allow_auto_topic_creation is True
    resp = m.MetadataResponse()
    assert resp.controller_id == -1 and resp.cluster_id is None  # "default": -1 / "null"
    assert resp.cluster_authorized_operations == -2147483648
    topic = m.MetadataResponse.MetadataResponseTopic()
    assert topic.topic_id == uuid.UUID(int=0) and topic.is_internal is False and topic.name == ""
    assert m.ProduceRequest.PartitionProduceData().records is None  # nullable records
    assert m.FetchRequest().replica_state == m.FetchRequest.ReplicaState()  # struct default
    assert m.ConsumerGroupHeartbeatResponse().assignment is None  # "default": "null"
    assert m.MetadataRequest.api_key == 3 and m.MetadataRequest.kind == "request"
    assert 12 in m.MetadataResponse.valid_versions and 99 not in m.MetadataResponse.valid_versions
    assert 9 in m.MetadataRequest.flexible_versions and 8 not in m.MetadataRequest.flexible_versions
    assert m.request_class(3) is m.MetadataRequest and m.response_class(18) is m.ApiVersionsResponse
    with pytest.raises(UnknownApiError):
        m.request_class(1000)
    # Fresh mutable defaults per object.
    a, b = m.MetadataRequest(), m.MetadataRequest()
    a.topics.append(m.MetadataRequest.MetadataRequestTopic(name="x"))
    assert b.topics == []
    with pytest.raises(TypeError):
        m.MetadataRequest(no_such_field=1)


def test_equality_repr_copy_pickle(backend):
    a = m.MetadataRequest(topics=[m.MetadataRequest.MetadataRequestTopic(name="t")])
    b = m.MetadataRequest(topics=[m.MetadataRequest.MetadataRequestTopic(name="t")])
    assert a == b and not (a != b)
    b.topics[0].name = "u"
    assert a != b
    assert repr(a).startswith("MetadataRequest(topics=[MetadataRequest.MetadataRequestTopic(")
    assert pickle.loads(pickle.dumps(a)) == a
    assert copy.copy(a) == a and copy.deepcopy(a) == a
    big = m.ProduceRequest.PartitionProduceData(index=0, records=bytes(1000))
    assert "<bytes of 1000 bytes>" in repr(big)


def test_to_dict_is_json_safe_and_from_dict_inverts_it(backend):
    msg = m.FetchResponse(
        responses=[
            m.FetchResponse.FetchableTopicResponse(
                topic_id=uuid.UUID(int=7),
                partitions=[m.FetchResponse.PartitionData(partition_index=1, records=b"\x00\x01\xff")],
            )
        ]
    )
    msg._unknown_tagged = ((9, b"zz"),)
    wire = msg.encode(13)
    decoded = m.FetchResponse.decode(wire, 13)
    d = decoded.to_dict()
    text = json.dumps(d)
    again = m.FetchResponse.from_dict(json.loads(text))
    assert again == decoded == msg
    assert d["responses"][0]["topic_id"] == str(uuid.UUID(int=7))
    assert d["responses"][0]["partitions"][0]["records"] == "AAH/"
    assert d["_unknown_tagged_fields"] == [{"tag": 9, "data": "eno="}]


def test_non_default_value_in_a_field_the_version_lacks_raises(backend):
    msg = m.MetadataRequest(topics=[], allow_auto_topic_creation=False)  # v4+ only, not ignorable
    assert msg.encode(4) == b"\x00\x00\x00\x00\x00"  # no topics, then the boolean false
    with pytest.raises(EncodeError):
        msg.encode(3)
    with pytest.raises(EncodeError):
        msg.size(3)
    # Ignorable fields are dropped silently: OffsetCommitValue.leader_epoch (v3+).
    v = m.OffsetCommitValue(offset=1, leader_epoch=5, metadata="", commit_timestamp=2)
    assert m.OffsetCommitValue.decode(v.encode(1), 1).leader_epoch == -1
    # The default value itself is fine anywhere.
    assert m.MetadataRequest(topics=[]).encode(0) == b"\x00\x00\x00\x00"


def test_null_where_not_nullable_raises(backend):
    with pytest.raises(EncodeError):
        m.MetadataRequest(topics=None).encode(0)  # nullable from v1
    assert m.MetadataRequest.decode(m.MetadataRequest(topics=None).encode(1), 1).topics is None
    with pytest.raises(EncodeError):
        m.MetadataRequest(topics=[m.MetadataRequest.MetadataRequestTopic(name=None)]).encode(9)
    assert m.MetadataRequest(topics=[m.MetadataRequest.MetadataRequestTopic(name=None)]).encode(10)


def test_bad_values_raise_encode_errors(backend):
    for bad in (2**31, -(2**31) - 1, 1.5, "1", None):
        with pytest.raises(EncodeError):
            m.MetadataResponse(controller_id=bad).encode(12)
    with pytest.raises(EncodeError):
        m.MetadataResponse(cluster_id=b"bytes").encode(12)
    with pytest.raises(EncodeError):
        m.MetadataResponse(topics=[m.MetadataRequest()]).encode(12)
    with pytest.raises(EncodeError):
        m.MetadataResponse(topics="nope").encode(12)
    with pytest.raises(EncodeError):
        m.MetadataResponse.MetadataResponseTopic(topic_id="not-a-uuid").encode(12)
    with pytest.raises(EncodeError):
        m.MetadataResponse(cluster_id="\ud800").encode(12)  # lone surrogate
    with pytest.raises(UnsupportedVersionError):
        m.MetadataResponse().encode(99)
    with pytest.raises(UnsupportedVersionError):
        m.MetadataResponse.decode(b"", 99)


def test_unknown_tagged_fields_round_trip_in_ascending_order(backend):
    # ApiVersionsResponse v3 knows tags 0-3; 7 and 4 and 5 are unknown.
    wire = m.ApiVersionsResponse().encode(3)
    assert wire.endswith(b"\x00")
    body = wire[:-1]
    # Tags 7 then 4 (not ascending on the wire), plus known tag 1 (FinalizedFeaturesEpoch).
    raw = body + b"\x03" + b"\x07\x01x" + b"\x01\x08" + (5).to_bytes(8, "big") + b"\x04\x02yz"
    got = m.ApiVersionsResponse.decode(raw, 3)
    assert got.finalized_features_epoch == 5
    assert got._unknown_tagged == ((4, b"yz"), (7, b"\x78"))
    again = got.encode(3)
    assert again == body + b"\x03" + b"\x01\x08" + (5).to_bytes(8, "big") + b"\x04\x02yz" + b"\x07\x01x"
    assert m.ApiVersionsResponse.decode(again, 3) == got
    # Tag 0 unknown where it is not defined: RequestHeader v2 knows no tags.
    h = m.RequestHeader.decode(b"\x00\x12\x00\x03\x00\x00\x00\x01\xff\xff\x01\x00\x02hi", 2)
    assert h._unknown_tagged == ((0, b"hi"),) and h.encode(2).endswith(b"\x01\x00\x02hi")
    # A non-flexible version cannot carry them: nothing is dropped silently.
    with pytest.raises(EncodeError):
        h.encode(1)
    # An unknown tag equal to a known one is refused.
    bad = m.ApiVersionsResponse(_unknown_tagged=((1, b"x"),))
    with pytest.raises(EncodeError):
        bad.encode(3)


def test_a_tag_of_a_field_from_another_version_is_not_an_unknown_field(backend):
    # FetchRequest tags ReplicaState as 1 from v15: at v12 Kafka refuses tag 1 ("Tag 1 is
    # not valid for version 12"), so kafkawire neither reads nor writes it as unknown.
    wire = m.FetchRequest().encode(12)
    assert wire.endswith(b"\x00")
    with pytest.raises(DecodeError, match="tagged field 1"):
        m.FetchRequest.decode(wire[:-1] + b"\x01\x01\x01\x00", 12)
    assert m.FetchRequest.decode(wire[:-1] + b"\x01\x02\x01\x00", 12)._unknown_tagged == ((2, b"\x00"),)
    with pytest.raises(EncodeError, match="tag 1 is a field of FetchRequest"):
        m.FetchRequest(_unknown_tagged=((1, b"\x00"),)).encode(12)


def test_records_fields_are_zero_copy_views_and_accept_any_bytes_like(backend):
    payload = bytearray(b"R" * 100)
    msg = m.ProduceRequest(
        topic_data=[
            m.ProduceRequest.TopicProduceData(
                name="t",
                partition_data=[m.ProduceRequest.PartitionProduceData(index=0, records=memoryview(payload))],
            )
        ]
    )
    wire = msg.encode(3)
    assert msg.encode(3) == m.ProduceRequest(
        topic_data=[
            m.ProduceRequest.TopicProduceData(
                name="t",
                partition_data=[m.ProduceRequest.PartitionProduceData(index=0, records=bytes(payload))],
            )
        ]
    ).encode(3)
    buf = bytearray(wire)
    got = m.ProduceRequest.decode(buf, 3)
    view = got.topic_data[0].partition_data[0].records
    assert isinstance(view, memoryview) and bytes(view) == bytes(payload)
    buf[-1] = ord("Z")  # the view shares the input's memory
    assert view[-1] == ord("Z")


def test_negotiation_picks_the_highest_common_version(backend):
    V = m.ApiVersionsResponse.ApiVersion
    resp = m.ApiVersionsResponse(
        api_keys=[
            V(api_key=3, min_version=0, max_version=9),
            V(api_key=0, min_version=3, max_version=99),
            V(api_key=1, min_version=200, max_version=300),
            V(api_key=999, min_version=0, max_version=1),
        ]
    )
    got = m.negotiate_versions(resp)
    assert got == {3: 9, 0: m.supported_versions(0).highest}
    assert m.negotiate_version(resp, 3) == 9
    with pytest.raises(UnsupportedVersionError):
        m.negotiate_version(resp, 1)
    from kafkawire.protocol.schema.versions import VersionRange

    assert m.negotiate_version(resp, 3, VersionRange(0, 4)) == 4


def test_size_is_exact_and_encode_parts_frames(impl):
    msg = m.MetadataResponse(brokers=[m.MetadataResponse.MetadataResponseBroker(host="hé" * 50)])
    for v in range(0, 14):
        assert msg.size(v) == len(msg.encode(v))
    h = m.ResponseHeader(correlation_id=1)
    frame = impl("codec").encode_parts(
        ((m.ResponseHeader.plan(1), h), (m.MetadataResponse.plan(12), msg)), True
    )
    assert frame[4:] == h.encode(1) + msg.encode(12)
    assert int.from_bytes(frame[:4], "big") == len(frame) - 4


def test_nested_structs_may_be_given_as_dicts_and_other_values_fail_at_construction(backend):
    R = m.MetadataRequest
    as_dicts = R(topics=[{"name": "events"}])
    assert as_dicts == R(topics=[R.MetadataRequestTopic(name="events")])
    assert as_dicts.encode(12) == R(topics=[R.MetadataRequestTopic(name="events")]).encode(12)
    F = m.FetchRequest  # dicts inside dicts, and a mix with objects
    fetch = F(
        topics=[
            {"topic": "t", "partitions": [{"partition": 1, "fetch_offset": 5}, F.FetchPartition(partition=2)]}
        ]
    )
    assert [(p.partition, p.fetch_offset) for p in fetch.topics[0].partitions] == [(1, 5), (2, 0)]
    objects = [R.MetadataRequestTopic(name="kept")]
    assert R(topics=objects).topics is objects  # struct lists are kept as given
    with pytest.raises(
        EncodeError,
        match=r"MetadataRequest\.topics\[0\]: expected "
        r"MetadataRequest\.MetadataRequestTopic or a dict",
    ):
        R(topics=["events"])
    with pytest.raises(EncodeError, match=r"MetadataRequest\.topics: expected a list"):
        R(topics={"name": "events"})
    with pytest.raises(TypeError, match="MetadataRequestTopic has no field 'nme'"):
        R(topics=[{"nme": "events"}])


def test_tagged_nullable_struct_and_json_null_defaults_as_kafka_writes_them(backend):
    # Bytes written by Kafka 4.4's generated ConsumerGroupMemberMetadataValue (v0):
    # "default": null (a JSON null, not "null") is no default, so the tagged struct
    # defaults to an empty struct and a null one is written; inside a tagged field a
    # nullable struct's marker is an unsigned varint (0 null, 1 present), not the
    # int8 -1/1 of an untagged one.
    V = m.ConsumerGroupMemberMetadataValue
    assert V().classic_member_metadata == V.ClassicMemberMetadata()
    assert m.ConsumerGroupCurrentMemberAssignmentValue.TopicPartitions().assignment_epochs == []
    head = bytes.fromhex("01000263026801000000000500")
    msg = V(
        instance_id="",
        rack_id=None,
        client_id="c",
        client_host="h",
        subscribed_topic_names=[],
        subscribed_topic_regex=None,
        rebalance_timeout_ms=5,
        server_assignor=None,
    )
    assert msg.encode(0) == head + b"\x00"
    msg.classic_member_metadata = None
    assert msg.encode(0) == head + bytes.fromhex("01000100")
    assert V.decode(head + bytes.fromhex("01000100"), 0) == msg
    msg.classic_member_metadata = V.ClassicMemberMetadata(session_timeout_ms=1)
    present = head + bytes.fromhex("01000701000000010100")
    assert msg.encode(0) == present and V.decode(present, 0) == msg


def test_struct_fields_absent_from_the_wire_decode_as_fresh_defaults(backend):
    # FetchResponse v12 partitions carry three tagged structs; written at their defaults
    # they are left off the wire (and v4 has none of them), so the decoder makes each
    # default struct itself: equal to the class's own default, one per field and decode.
    F = m.FetchResponse
    msg = F(
        responses=[
            F.FetchableTopicResponse(
                topic="t",
                partitions=[F.PartitionData(partition_index=i, aborted_transactions=[]) for i in range(2)],
            )
        ]
    )
    for version in (4, 12):
        wire = msg.encode(version)
        first, second = F.decode(wire, version).responses[0].partitions
        again = F.decode(wire, version).responses[0].partitions[0]
        assert first.diverging_epoch == F.EpochEndOffset(epoch=-1, end_offset=-1)
        assert first.current_leader == F.LeaderIdAndEpoch(leader_id=-1, leader_epoch=-1)
        assert first.snapshot_id == F.SnapshotId(end_offset=-1, epoch=-1)
        assert type(first.snapshot_id) is F.SnapshotId and first.snapshot_id._unknown_tagged is None
        assert first.diverging_epoch is not second.diverging_epoch
        assert first.diverging_epoch is not again.diverging_epoch
        first.diverging_epoch.epoch = 7
        assert second.diverging_epoch.epoch == -1 and again.diverging_epoch.epoch == -1
        assert F.EpochEndOffset().epoch == -1
