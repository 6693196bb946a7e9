"""The test broker, spoken to frame by frame with kafkawire's own codec: every API's
answers and errors, long-poll fetches, idempotent sequence checks, legacy formats,
consumer groups, the log directory, the frame log, and misbehaving peers.

Runs on both backends: the broker decodes and encodes with the active one.
"""

from __future__ import annotations

import json
import socket
import struct
import subprocess
import sys
import threading
import time
import uuid
from pathlib import Path

import pytest
from conftest import subprocess_env

import kafkawire
from kafkawire.cli import decode as decodecmd
from kafkawire.protocol import messages as M
from kafkawire.protocol import records as R
from kafkawire.log import segments
from kafkawire.broker import Broker
from kafkawire.protocol.headers import RequestHeader

pytestmark = pytest.mark.timeout(60)


class Client:
    """A blocking connection that sends requests and reads their responses."""

    def __init__(self, broker: Broker, client_id: str = "kw-test") -> None:
        self.sock = socket.create_connection(("127.0.0.1", broker.port), timeout=10)
        self.client_id = client_id
        self.correlation_id = 0

    def send(self, msg, version: int) -> int:
        self.correlation_id += 1
        self.sock.sendall(kafkawire.encode_request(msg, version, self.correlation_id, self.client_id))
        return self.correlation_id

    def recv_frame(self) -> bytes:
        head = self._exactly(4)
        return self._exactly(struct.unpack(">i", head)[0])

    def _exactly(self, n: int) -> bytes:
        buf = b""
        while len(buf) < n:
            chunk = self.sock.recv(n - len(buf))
            if not chunk:
                raise ConnectionError("broker closed the connection")
            buf += chunk
        return buf

    def request(self, msg, version: int):
        cid = self.send(msg, version)
        header, resp = kafkawire.decode_response(self.recv_frame(), msg.api_key, version)
        assert header.correlation_id == cid
        return resp

    def is_closed(self, wait: float = 5.0) -> bool:
        self.sock.settimeout(wait)
        try:
            return self.sock.recv(1) == b""
        except ConnectionResetError:
            return True
        except socket.timeout:
            return False

    def close(self) -> None:
        self.sock.close()


@pytest.fixture
def broker(tmp_path):
    with Broker(num_partitions=2, check_roundtrip=True, max_frame_size=1 << 20) as b:
        yield b
    assert b.roundtrip_failures == []


@pytest.fixture
def client(broker):
    c = Client(broker)
    yield c
    c.close()


def metadata(client, *names, version=12, auto=True):
    topics = [M.MetadataRequest.MetadataRequestTopic(name=n) for n in names]
    return client.request(M.MetadataRequest(topics=topics, allow_auto_topic_creation=auto), version)


def produce(client, topic, partition, batch, *, acks=-1, version=9, topic_id=None):
    P = M.ProduceRequest
    req = P(
        acks=acks,
        timeout_ms=5000,
        topic_data=[
            P.TopicProduceData(
                name=topic,
                topic_id=topic_id or uuid.UUID(int=0),
                partition_data=[P.PartitionProduceData(index=partition, records=batch)],
            )
        ],
    )
    if acks == 0:
        client.send(req, version)
        return None
    resp = client.request(req, version)
    return resp.responses[0].partition_responses[0]


def fetch(
    client,
    topic,
    partition,
    offset,
    *,
    version=11,
    max_wait_ms=0,
    min_bytes=0,
    max_bytes=1 << 20,
    partition_max_bytes=1 << 20,
    topic_id=None,
):
    F = M.FetchRequest
    req = F(
        max_wait_ms=max_wait_ms,
        min_bytes=min_bytes,
        max_bytes=max_bytes,
        topics=[
            F.FetchTopic(
                topic=topic,
                topic_id=topic_id or uuid.UUID(int=0),
                partitions=[
                    F.FetchPartition(
                        partition=partition, fetch_offset=offset, partition_max_bytes=partition_max_bytes
                    )
                ],
            )
        ],
    )
    return client.request(req, version).responses[0].partitions[0]


def batch(n, start=0, **kw):
    return R.encode_batch(
        [
            {"key": b"k%d" % i, "value": b"v%d" % i, "headers": [("h", b"%d" % i)], "timestamp": 1000 + i}
            for i in range(start, start + n)
        ],
        **kw,
    )


# -- ApiVersions and KIP-511 -----------------------------------------------------------------


def test_api_versions_advertise_the_newest_version_of_each_implemented_api(client, broker):
    resp = client.request(M.ApiVersionsRequest(client_software_name="kw", client_software_version="1"), 3)
    assert resp.error_code == 0
    advertised = {a.api_key: (a.min_version, a.max_version) for a in resp.api_keys}
    assert set(advertised) == set(Broker.HANDLERS)
    for key, (lo, hi) in advertised.items():
        assert hi == M.supported_versions(key).highest
    assert advertised[1][1] >= 16 and advertised[0][1] >= 9  # flexible Fetch and Produce


def test_api_versions_at_an_unknown_version_get_the_v0_shaped_answer_of_kip_511(client):
    header = RequestHeader(
        request_api_key=18, request_api_version=99, correlation_id=7, client_id="future-client"
    )
    payload = header.encode(2) + M.ApiVersionsRequest(
        client_software_name="x", client_software_version="9"
    ).encode(3)
    client.sock.sendall(struct.pack(">i", len(payload)) + payload)
    frame = client.recv_frame()
    hdr, resp = kafkawire.decode_response(frame, 18, 0)
    assert hdr.correlation_id == 7
    assert resp.error_code == 35  # UNSUPPORTED_VERSION
    assert {a.api_key for a in resp.api_keys} == set(Broker.HANDLERS)
    # the connection stays usable at a version the client now knows the broker has
    assert client.request(M.ApiVersionsRequest(), 3).error_code == 0


# -- Metadata, CreateTopics, DeleteTopics -------------------------------------------------


@pytest.mark.parametrize("version", [0, 1, 4, 9, 12, 13])
def test_metadata_auto_creates_topics_at_every_version(client, broker, version):
    resp = metadata(client, "auto-topic", version=version)
    (t,) = resp.topics
    assert t.error_code == 0 and t.name == "auto-topic" and len(t.partitions) == 2
    assert resp.brokers[0].port == broker.port
    if version >= 10:
        assert t.topic_id == broker.storage.topics["auto-topic"].topic_id


def test_metadata_errors_for_unknown_and_invalid_topics(client):
    (t,) = metadata(client, "nope", auto=False).topics
    assert t.error_code == 3  # UNKNOWN_TOPIC_OR_PARTITION
    (t,) = metadata(client, "bad/name").topics
    assert t.error_code == 17  # INVALID_TOPIC_EXCEPTION
    resp = client.request(M.MetadataRequest(topics=None), 12)
    assert resp.topics == []


def test_create_and_delete_topics_with_kafka_errors(client, broker):
    C = M.CreateTopicsRequest
    req = C(
        topics=[
            C.CreatableTopic(name="made", num_partitions=3, replication_factor=1),
            C.CreatableTopic(name="made-default", num_partitions=-1, replication_factor=-1),
            C.CreatableTopic(name="zero", num_partitions=0, replication_factor=1),
            C.CreatableTopic(name="rf3", num_partitions=1, replication_factor=3),
        ],
        timeout_ms=1000,
    )
    resp = client.request(req, 7)
    codes = {t.name: t.error_code for t in resp.topics}
    assert codes == {"made": 0, "made-default": 0, "zero": 37, "rf3": 38}
    made = next(t for t in resp.topics if t.name == "made")
    assert made.num_partitions == 3 and made.topic_id == broker.storage.topics["made"].topic_id
    again = client.request(
        C(topics=[C.CreatableTopic(name="made", num_partitions=1, replication_factor=1)]), 4
    )
    assert again.topics[0].error_code == 36  # TOPIC_ALREADY_EXISTS
    D = M.DeleteTopicsRequest
    resp = client.request(D(topic_names=["made", "ghost"], timeout_ms=1000), 5)
    assert {r.name: r.error_code for r in resp.responses} == {"made": 0, "ghost": 3}
    tid = broker.storage.topics["made-default"].topic_id
    resp = client.request(
        D(
            topics=[
                D.DeleteTopicState(name=None, topic_id=tid),
                D.DeleteTopicState(name=None, topic_id=uuid.uuid4()),
            ],
            timeout_ms=1000,
        ),
        6,
    )
    assert [r.error_code for r in resp.responses] == [0, 100]  # UNKNOWN_TOPIC_ID
    assert "made" not in broker.storage.topics and "made-default" not in broker.storage.topics


# -- Produce, Fetch, ListOffsets -------------------------------------------------------------


def test_produce_assigns_offsets_and_fetch_returns_the_batches(client, broker):
    metadata(client, "p")
    r1 = produce(client, "p", 0, batch(3))
    r2 = produce(client, "p", 0, batch(2, start=3, compression="gzip"))
    assert (r1.error_code, r1.base_offset, r2.base_offset) == (0, 0, 3)
    part = fetch(client, "p", 0, 0)
    assert part.error_code == 0 and part.high_watermark == 5
    recs = R.decode(part.records)
    assert [r.offset for r in recs] == [0, 1, 2, 3, 4]
    assert [r.value for r in recs] == [b"v%d" % i for i in range(5)]
    assert recs[4].headers == [("h", b"4")]
    # fetch from the middle of a batch returns the whole batch (clients skip ahead)
    assert [r.offset for r in R.decode(fetch(client, "p", 0, 4).records)] == [3, 4]
    assert len(fetch(client, "p", 0, 5).records) == 0


def test_produce_and_fetch_by_topic_id_at_the_newest_versions(client, broker):
    (t,) = metadata(client, "ids", version=13).topics
    r = produce(client, None, 1, batch(2), version=13, topic_id=t.topic_id)
    assert (r.error_code, r.base_offset) == (0, 0)
    part = fetch(client, None, 1, 0, version=18, topic_id=t.topic_id)
    assert [x.value for x in R.decode(part.records)] == [b"v0", b"v1"]
    assert fetch(client, None, 0, 0, version=18, topic_id=uuid.uuid4()).error_code == 100


def test_produce_and_fetch_errors(client):
    metadata(client, "e")
    assert produce(client, "ghost", 0, batch(1)).error_code == 3
    assert produce(client, "e", 7, batch(1)).error_code == 3
    assert produce(client, "e", 0, batch(1), acks=2).error_code == 21  # INVALID_REQUIRED_ACKS
    corrupt = bytearray(batch(2))
    corrupt[-1] ^= 0xFF
    assert produce(client, "e", 0, bytes(corrupt)).error_code == 2  # CORRUPT_MESSAGE
    assert fetch(client, "e", 0, 99).error_code == 1  # OFFSET_OUT_OF_RANGE
    assert fetch(client, "ghost", 0, 0).error_code == 3


def test_acks_0_gets_no_response_and_the_next_request_is_answered(client, broker):
    metadata(client, "a0")
    assert produce(client, "a0", 0, batch(2), acks=0) is None
    resp = client.request(M.ApiVersionsRequest(), 3)  # answered, in order, next
    assert resp.error_code == 0
    assert [r.offset for r in broker.topic_records("a0")[0]] == [0, 1]


def _until(condition, what, timeout=20):
    """Wait for ``condition()`` to hold (the clock bounds the wait, nothing more)."""
    deadline = time.monotonic() + timeout
    while not condition():
        assert time.monotonic() < deadline, f"timed out waiting for {what}"
        time.sleep(0.01)


def test_fetch_waits_for_min_bytes_until_max_wait(client, broker):
    metadata(client, "w")
    parked = broker.fetches_parked
    part = fetch(client, "w", 0, 0, max_wait_ms=50, min_bytes=1)
    assert len(part.records) == 0 and broker.fetches_parked == parked + 1  # it waited, then gave up

    # The fetch is parked before the record exists, so only the produce can have ended it.
    F = M.FetchRequest
    req = F(
        max_wait_ms=50_000,
        min_bytes=1,
        max_bytes=1 << 20,
        topics=[
            F.FetchTopic(
                topic="w",
                partitions=[F.FetchPartition(partition=0, fetch_offset=0, partition_max_bytes=1 << 20)],
            )
        ],
    )
    cid = client.send(req, 11)
    _until(lambda: broker.fetches_parked == parked + 2, "the fetch to wait")
    other = Client(broker)
    try:
        produce(other, "w", 0, batch(1))
    finally:
        other.close()
    header, resp = kafkawire.decode_response(client.recv_frame(), req.api_key, 11)
    assert header.correlation_id == cid
    (part,) = resp.responses[0].partitions
    assert [r.value for r in R.decode(part.records)] == [b"v0"]


def test_fetch_max_bytes_returns_whole_batches_and_at_least_one(client):
    metadata(client, "mb")
    for i in range(4):
        produce(client, "mb", 0, batch(10, start=10 * i))
    sizes = [len(batch(10, start=10 * i)) for i in range(4)]
    part = fetch(client, "mb", 0, 0, max_bytes=sizes[0] + sizes[1] + 5)
    assert len(part.records) == sizes[0] + sizes[1]  # whole batches within the budget
    part = fetch(client, "mb", 0, 0, max_bytes=1, partition_max_bytes=1)
    assert len(part.records) == sizes[0]  # KIP-74: the first batch even if over the limits


@pytest.mark.parametrize("version", [1, 4, 7, 11])
def test_list_offsets_earliest_latest_and_by_timestamp(client, version):
    metadata(client, "lo")
    produce(client, "lo", 0, batch(3))
    produce(client, "lo", 0, batch(3, start=100))
    L = M.ListOffsetsRequest

    def ask(ts):
        req = L(
            replica_id=-1,
            topics=[
                L.ListOffsetsTopic(
                    name="lo", partitions=[L.ListOffsetsPartition(partition_index=0, timestamp=ts)]
                )
            ],
        )
        p = client.request(req, version).topics[0].partitions[0]
        assert p.error_code == 0
        return p.offset

    assert ask(-2) == 0 and ask(-1) == 6
    assert ask(1050) == 3  # first batch whose timestamps reach 1050
    assert ask(10**9) == -1


# -- legacy message formats ----------------------------------------------------------------


# Kafka 4 removed Produce v0-v2, so a legacy message set (magic 0/1) is refused as Kafka
# refuses it in Produce v3+.
@pytest.mark.parametrize("magic,compression", [(0, "none"), (0, "gzip"), (1, "snappy"), (1, "lz4")])
def test_legacy_message_sets_are_refused(client, broker, magic, compression):
    metadata(client, "legacy", version=1)
    data = R.encode_batch(
        [{"key": b"k%d" % i, "value": b"v%d" % i, "timestamp": 5000 + i} for i in range(4)],
        magic=magic,
        compression=compression,
    )
    r = produce(client, "legacy", 0, data, version=3)
    assert (r.error_code, r.base_offset) == (43, -1)  # UNSUPPORTED_FOR_MESSAGE_FORMAT
    assert broker.topic_batches("legacy")[0] == []


# -- idempotent producers ------------------------------------------------------------------


def test_idempotent_producer_sequence_checks(client, broker):
    metadata(client, "idem")
    init = client.request(M.InitProducerIdRequest(transactional_id=None, transaction_timeout_ms=1000), 4)
    pid, epoch = init.producer_id, init.producer_epoch
    assert init.error_code == 0 and pid >= 0 and epoch == 0

    def send(seq, n=2, ep=epoch):
        return produce(
            client, "idem", 0, batch(n, start=seq, producer_id=pid, producer_epoch=ep, base_sequence=seq)
        )

    assert (send(0).error_code, send(2).base_offset) == (0, 2)
    retry = send(2)  # a retry of the last batch: same offset, nothing written
    assert (retry.error_code, retry.base_offset) == (0, 2)
    assert send(9).error_code == 45  # OUT_OF_ORDER_SEQUENCE_NUMBER
    assert len(broker.topic_records("idem")[0]) == 4
    # KIP-360 epoch bump: the new epoch starts at sequence 0; the old one is fenced
    bumped = client.request(
        M.InitProducerIdRequest(
            transactional_id=None, transaction_timeout_ms=1000, producer_id=pid, producer_epoch=epoch
        ),
        4,
    )
    assert (bumped.producer_id, bumped.producer_epoch) == (pid, epoch + 1)
    assert send(0, ep=epoch + 1).error_code == 0
    assert send(4, ep=epoch).error_code == 47  # INVALID_PRODUCER_EPOCH
    assert (
        produce(
            client, "idem", 0, batch(1, producer_id=pid, producer_epoch=epoch + 2, base_sequence=5)
        ).error_code
        == 45
    )


# -- consumer groups ---------------------------------------------------------------------------


def _join(client, group, member_id="", version=9, session=6000, metadata_bytes=b"m"):
    J = M.JoinGroupRequest
    return client.request(
        J(
            group_id=group,
            session_timeout_ms=session,
            rebalance_timeout_ms=5000,
            member_id=member_id,
            protocol_type="consumer",
            protocols=[J.JoinGroupRequestProtocol(name="range", metadata=metadata_bytes)],
        ),
        version,
    )


def test_group_join_sync_heartbeat_commit_fetch_leave(client, broker):
    metadata(client, "g")
    first = _join(client, "grp")
    assert first.error_code == 79 and first.member_id  # MEMBER_ID_REQUIRED (KIP-394)
    joined = _join(client, "grp", first.member_id)
    assert joined.error_code == 0 and joined.leader == first.member_id
    assert [m.member_id for m in joined.members] == [first.member_id]
    gen = joined.generation_id
    S = M.SyncGroupRequest
    sync = client.request(
        S(
            group_id="grp",
            generation_id=gen,
            member_id=first.member_id,
            protocol_type="consumer",
            protocol_name="range",
            assignments=[S.SyncGroupRequestAssignment(member_id=first.member_id, assignment=b"assigned")],
        ),
        5,
    )
    assert (sync.error_code, sync.assignment, sync.protocol_name) == (0, b"assigned", "range")
    hb = client.request(M.HeartbeatRequest(group_id="grp", generation_id=gen, member_id=first.member_id), 4)
    assert hb.error_code == 0
    bad = client.request(
        M.HeartbeatRequest(group_id="grp", generation_id=gen + 5, member_id=first.member_id), 4
    )
    assert bad.error_code == 22  # ILLEGAL_GENERATION
    C = M.OffsetCommitRequest
    commit = client.request(
        C(
            group_id="grp",
            generation_id_or_member_epoch=gen,
            member_id=first.member_id,
            topics=[
                C.OffsetCommitRequestTopic(
                    name="g",
                    partitions=[
                        C.OffsetCommitRequestPartition(
                            partition_index=1, committed_offset=42, committed_metadata="meta"
                        )
                    ],
                )
            ],
        ),
        8,
    )
    assert commit.topics[0].partitions[0].error_code == 0
    stale = client.request(
        C(
            group_id="grp",
            generation_id_or_member_epoch=gen - 1,
            member_id=first.member_id,
            topics=[
                C.OffsetCommitRequestTopic(
                    name="g",
                    partitions=[
                        C.OffsetCommitRequestPartition(
                            partition_index=1, committed_offset=43, committed_metadata=""
                        )
                    ],
                )
            ],
        ),
        8,
    )
    assert stale.topics[0].partitions[0].error_code == 22
    F = M.OffsetFetchRequest
    old = client.request(
        F(group_id="grp", topics=[F.OffsetFetchRequestTopic(name="g", partition_indexes=[0, 1])]), 7
    )
    assert [(p.partition_index, p.committed_offset, p.metadata) for p in old.topics[0].partitions] == [
        (0, -1, ""),
        (1, 42, "meta"),
    ]
    new = client.request(F(groups=[F.OffsetFetchRequestGroup(group_id="grp", topics=None)]), 9)
    (t,) = new.groups[0].topics
    assert (t.name, t.partitions[0].partition_index, t.partitions[0].committed_offset) == ("g", 1, 42)
    L = M.LeaveGroupRequest
    left = client.request(L(group_id="grp", members=[L.MemberIdentity(member_id=first.member_id)]), 5)
    assert left.error_code == 0 and left.members[0].error_code == 0
    assert broker.groups.groups["grp"].state == "Empty"


def test_a_second_member_triggers_a_rebalance_and_both_get_the_new_generation(broker):
    a, b = Client(broker, "a"), Client(broker, "b")
    try:
        ja = _join(a, "two", version=3)
        assert ja.error_code == 0
        S = M.SyncGroupRequest
        a.request(
            S(
                group_id="two",
                generation_id=ja.generation_id,
                member_id=ja.member_id,
                assignments=[S.SyncGroupRequestAssignment(member_id=ja.member_id, assignment=b"all")],
            ),
            3,
        )
        result = {}
        t = threading.Thread(target=lambda: result.setdefault("b", _join(b, "two", version=3)))
        t.start()
        _until(
            lambda: broker.groups.groups["two"].state == "PreparingRebalance", "b's join to start a rebalance"
        )
        hb = a.request(
            M.HeartbeatRequest(group_id="two", generation_id=ja.generation_id, member_id=ja.member_id), 3
        )
        assert hb.error_code == 27  # REBALANCE_IN_PROGRESS: a must rejoin
        ja2 = _join(a, "two", ja.member_id, version=3)
        t.join(10)
        jb = result["b"]
        assert ja2.error_code == jb.error_code == 0
        assert ja2.generation_id == jb.generation_id == ja.generation_id + 1
        assert ja2.leader == ja.member_id and len(ja2.members) == 2 and jb.members == []
    finally:
        a.close()
        b.close()


def test_a_member_that_stops_heartbeating_is_removed(client, broker):
    joined = _join(client, "expire", version=3, session=1000)
    assert joined.error_code == 0
    deadline = time.monotonic() + 10
    while broker.groups.groups["expire"].members and time.monotonic() < deadline:
        time.sleep(0.1)
    assert not broker.groups.groups["expire"].members
    hb = client.request(
        M.HeartbeatRequest(group_id="expire", generation_id=joined.generation_id, member_id=joined.member_id),
        3,
    )
    assert hb.error_code == 25  # UNKNOWN_MEMBER_ID


def test_find_coordinator_old_and_batched(client, broker):
    F = M.FindCoordinatorRequest
    old = client.request(F(key="grp"), 2)
    assert (old.error_code, old.node_id, old.port) == (0, broker.node_id, broker.port)
    new = client.request(F(key_type=0, coordinator_keys=["a", "b"]), 6)
    assert [(c.key, c.port) for c in new.coordinators] == [("a", broker.port), ("b", broker.port)]


# -- misbehaving peers -------------------------------------------------------------------------


def _alive(broker):
    c = Client(broker)
    try:
        return c.request(M.ApiVersionsRequest(), 3).error_code == 0
    finally:
        c.close()


def test_garbage_closes_that_connection_and_others_keep_working(broker):
    bystander = Client(broker)
    try:
        bystander.request(M.ApiVersionsRequest(), 3)
        bad = Client(broker)
        bad.sock.sendall(struct.pack(">i", 12) + b"\xde\xad\xbe\xef" * 3)
        assert bad.is_closed()
        bad.close()
        assert bystander.request(M.ApiVersionsRequest(), 3).error_code == 0
        assert _alive(broker)
    finally:
        bystander.close()


def test_a_frame_over_the_size_limit_closes_the_connection_before_it_is_read(broker):
    bad = Client(broker)
    bad.sock.sendall(struct.pack(">i", 1 << 30) + b"x" * 100)
    assert bad.is_closed()
    bad.close()
    bad = Client(broker)
    bad.sock.sendall(struct.pack(">i", -5))
    assert bad.is_closed()
    bad.close()
    assert any("over the limit" in why for _, why in broker.closed_connections)
    assert _alive(broker)


def test_truncated_frames(broker):
    # the stream ends inside a frame: the broker drops the partial frame
    c = Client(broker)
    frame = kafkawire.encode_request(M.MetadataRequest(topics=None), 12, 1, "x")
    c.sock.sendall(frame[: len(frame) // 2])
    c.close()
    # a whole frame whose body is cut short: it does not decode, the connection closes
    c = Client(broker)
    payload = frame[4:-3]
    c.sock.sendall(struct.pack(">i", len(payload)) + payload)
    assert c.is_closed()
    c.close()
    deadline = time.monotonic() + 5
    while len(broker.closed_connections) < 2 and time.monotonic() < deadline:
        time.sleep(0.05)
    whys = [why for _, why in broker.closed_connections]
    assert any("inside a frame" in w for w in whys) and any("does not decode" in w for w in whys)
    assert _alive(broker)


@pytest.mark.parametrize("api_key,version", [(9999, 0), (88, 0), (32, 4), (3, 99)])
def test_unknown_or_unimplemented_apis_close_the_connection(broker, api_key, version):
    c = Client(broker)
    header = struct.pack(">hhih", api_key, version, 1, 1) + b"x"
    c.sock.sendall(struct.pack(">i", len(header) + 8) + header + b"\x00" * 8)
    assert c.is_closed()
    c.close()
    assert _alive(broker)


def test_pipelined_requests_are_answered_in_order(client):
    ids = [client.send(M.ApiVersionsRequest(), 3) for _ in range(5)]
    ids.append(client.send(M.MetadataRequest(topics=None), 12))
    got = [kafkawire.decode_response(client.recv_frame(), 18, 3)[0].correlation_id for _ in range(5)]
    got.append(kafkawire.decode_response(client.recv_frame(), 3, 12)[0].correlation_id)
    assert got == ids


# -- log directory, frame log, command line ----------------------------------------------------


def test_log_dir_holds_kafka_segments_and_survives_a_restart(tmp_path):
    logs = tmp_path / "logs"
    with Broker(log_dir=str(logs), num_partitions=1) as b:
        c = Client(b)
        metadata(c, "kept")
        produce(c, "kept", 0, batch(3))
        produce(c, "kept", 0, batch(2, start=3, compression="zstd"))
        topic_id = b.storage.topics["kept"].topic_id
        c.close()
    (plog,) = segments.discover(str(logs))
    assert (plog.topic, plog.partition) == ("kept", 0)
    assert plog.segments[0].name == "00000000000000000000.log"
    data = Path(plog.segments[0].path).read_bytes()
    assert [r.offset for r in R.decode(data)] == [0, 1, 2, 3, 4]
    with Broker(log_dir=str(logs), num_partitions=1) as b:
        assert b.storage.topics["kept"].topic_id == topic_id
        c = Client(b)
        assert produce(c, "kept", 0, batch(1, start=5)).base_offset == 5
        assert [r.value for r in R.decode(fetch(c, "kept", 0, 0).records)] == [b"v%d" % i for i in range(6)]
        c.close()


def test_frame_log_records_every_frame_and_decode_reads_it_back(tmp_path, capsys):
    log_path = tmp_path / "frames.jsonl"
    with Broker(frame_log=str(log_path)) as b:
        c = Client(b)
        metadata(c, "fl")
        produce(c, "fl", 0, batch(2))
        fetch(c, "fl", 0, 0)
        c.close()
    assert b.roundtrip_failures == [] and b.frames_checked == 6
    entries = [json.loads(line) for line in log_path.read_text().splitlines()]
    assert [(e["direction"], e["api_name"]) for e in entries] == [
        ("request", "MetadataRequest"),
        ("response", "MetadataResponse"),
        ("request", "ProduceRequest"),
        ("response", "ProduceResponse"),
        ("request", "FetchRequest"),
        ("response", "FetchResponse"),
    ]
    assert all(e["roundtrip"] for e in entries)
    assert decodecmd.main([str(log_path), "--compact", "--records"]) == 0
    lines = [json.loads(line) for line in capsys.readouterr().out.splitlines()]
    fetched = lines[5]["body"]["responses"][0]["partitions"][0]["records"]
    assert [r["offset"] for r in fetched] == [0, 1]
    # a single response frame as hex, with the API and version it answers
    assert (
        decodecmd.main(
            [
                "--hex",
                entries[5]["hex"],
                "--response",
                "--api-key",
                "1",
                "--version",
                str(entries[5]["api_version"]),
            ]
        )
        == 0
    )
    out = json.loads(capsys.readouterr().out)
    assert out["api_name"] == "FetchResponse" and out["header"]["correlation_id"] == 3
    # a request frame as a binary file, with its size prefix
    raw = tmp_path / "req.bin"
    payload = bytes.fromhex(entries[2]["hex"])
    raw.write_bytes(struct.pack(">i", len(payload)) + payload)
    assert decodecmd.main([str(raw)]) == 0
    assert json.loads(capsys.readouterr().out)["api_name"] == "ProduceRequest"
    assert decodecmd.main(["--hex", "00ff"]) == 1


@pytest.mark.backend_independent
@pytest.mark.timeout(60)
def test_serve_command_runs_a_broker_until_its_time_is_up(tmp_path):
    proc = subprocess.Popen(
        [
            sys.executable,
            "-m",
            "kafkawire",
            "serve",
            "--port",
            "0",
            "--log-dir",
            str(tmp_path / "d"),
            "--max-seconds",
            "20",
            "--check-roundtrip",
        ],
        stdout=subprocess.PIPE,
        text=True,
        cwd=str(tmp_path),
        env=subprocess_env(),
    )
    try:
        line = proc.stdout.readline()
        port = int(line.rsplit(":", 1)[1])
        s = socket.create_connection(("127.0.0.1", port), timeout=10)
        s.sendall(kafkawire.encode_request(M.ApiVersionsRequest(), 3, 1, "cli"))
        head = s.recv(4)
        assert len(head) == 4
        s.close()
        proc.send_signal(2)  # SIGINT stops it cleanly
        out, _ = proc.communicate(timeout=20)
        assert proc.returncode == 0 and "not byte-exact: 0" in out
    finally:
        if proc.poll() is None:
            proc.kill()
            proc.wait(10)
