"""kafkawire.connection's client end against the real Apache Kafka 4.4 broker, over a
socket: negotiation, five requests in flight matched by correlation id, an acks=0
Produce left untracked, Kafka's own KIP-511 answer, and the broker dropping the
connection with requests still waiting."""

from __future__ import annotations

import socket
import struct
import time
import uuid

import pytest

from kafkawire import errors
from kafkawire.protocol import messages as M
from kafkawire.protocol import records as R
from kafkawire.connection import ClientConnection, ClientPhase, RequestFailed, ResponseEvent
from kafkawire.protocol.headers import RequestHeader

pytestmark = [pytest.mark.kafka, pytest.mark.timeout(180), pytest.mark.in_process]


class Socket:
    """A ClientConnection on a blocking socket, read in small pieces."""

    def __init__(self, broker, **kw) -> None:
        self.sock = socket.create_connection((broker.host, broker.port), timeout=30)
        self.conn = ClientConnection(**kw)

    def write(self, data: bytes) -> None:
        self.sock.sendall(data)

    def events(self, want: int) -> list:
        out = []
        while len(out) < want:
            chunk = self.sock.recv(113)
            if not chunk:
                return out + self.conn.connection_lost("the broker closed the connection")
            out += self.conn.receive_data(chunk)
        return out

    def call(self, message, **kw) -> ResponseEvent:
        _, data = self.conn.send(message, **kw)
        self.write(data)
        (event,) = self.events(1)
        assert isinstance(event, ResponseEvent), event
        return event

    def close(self) -> None:
        self.sock.close()


@pytest.fixture
def client(kafka_broker):
    c = Socket(kafka_broker, client_id="kw-connection")
    answer = c.call(M.ApiVersionsRequest(client_software_name="kafkawire-tests", client_software_version="1"))
    assert answer.message.error_code == 0 and c.conn.phase is ClientPhase.READY
    yield c
    c.close()


def _topic(client, name: str, partitions: int = 1) -> uuid.UUID:
    T = M.CreateTopicsRequest
    created = client.call(
        T(
            topics=[T.CreatableTopic(name=name, num_partitions=partitions, replication_factor=1)],
            timeout_ms=30000,
        )
    )
    assert created.message.topics[0].error_code in (0, 36), created.message  # 36: already exists
    # a new topic reaches the broker's metadata cache a moment after CreateTopics answers
    for _ in range(150):
        meta = client.call(
            M.MetadataRequest(
                topics=[M.MetadataRequest.MetadataRequestTopic(name=name)], allow_auto_topic_creation=False
            )
        )
        (topic,) = meta.message.topics
        if (
            topic.error_code == 0
            and len(topic.partitions) == partitions
            and all(p.leader_id >= 0 for p in topic.partitions)
        ):
            return topic.topic_id
        time.sleep(0.2)
    raise AssertionError(f"topic {name} did not appear in the metadata: {topic}")


def _produce(client, name, topic_id, value: bytes, acks: int):
    P = M.ProduceRequest
    version = client.conn.negotiated[0]
    data = P.TopicProduceData(
        partition_data=[
            P.PartitionProduceData(
                index=0, records=R.encode_batch([{"key": None, "value": value, "timestamp": 1}])
            )
        ]
    )
    if version >= 13:
        data.topic_id = topic_id
    else:
        data.name = name
    return P(acks=acks, timeout_ms=10000, topic_data=[data])


def test_negotiated_versions_are_the_highest_both_sides_have(client):
    peer = client.conn.peer_versions
    for key, version in client.conn.negotiated.items():
        assert version == min(peer[key].highest, M.supported_versions(key).highest)
    assert client.conn.negotiated[3] == M.supported_versions(3).highest


def test_five_pipelined_requests_are_matched_and_a_sixth_waits(client):
    names = [f"kw-pipelined-{i}" for i in range(5)]
    _topic(client, names[0])
    wire = b""
    sent = {}
    for name in names:
        cid, data = client.conn.send(
            M.MetadataRequest(
                topics=[M.MetadataRequest.MetadataRequestTopic(name=name)], allow_auto_topic_creation=False
            )
        )
        sent[cid] = name
        wire += data
    with pytest.raises(errors.InFlightLimitError):
        client.conn.send(M.MetadataRequest(topics=None))
    client.write(wire)
    events = client.events(5)
    assert [e.correlation_id for e in events] == list(sent)
    assert [e.message.topics[0].name for e in events] == [sent[e.correlation_id] for e in events]
    assert [e.message.topics[0].error_code for e in events] == [0, 3, 3, 3, 3]  # 3: unknown topic
    assert client.conn.in_flight == 0


def test_acks_0_produce_gets_no_response_and_is_not_tracked(client):
    topic_id = _topic(client, "kw-acks0")
    cid, quiet = client.conn.send(_produce(client, "kw-acks0", topic_id, b"quiet", acks=0))
    assert client.conn.in_flight == 0
    _, loud = client.conn.send(_produce(client, "kw-acks0", topic_id, b"loud", acks=-1))
    client.write(quiet + loud)
    (ack,) = client.events(1)
    partition = ack.message.responses[0].partition_responses[0]
    assert ack.correlation_id == cid + 1 and partition.error_code == 0
    first = partition.base_offset - 1  # the acks=0 batch went first, one record
    F = M.FetchRequest
    wanted = F.FetchTopic(
        partitions=[F.FetchPartition(partition=0, fetch_offset=first, partition_max_bytes=1 << 20)]
    )
    if client.conn.negotiated[1] >= 13:  # Fetch names topics by id from v13
        wanted.topic_id = topic_id
    else:
        wanted.topic = "kw-acks0"
    fetch = client.call(F(max_wait_ms=0, min_bytes=0, max_bytes=1 << 20, topics=[wanted]))
    records = R.decode(fetch.message.responses[0].partitions[0].records)
    assert [r.value for r in records][:2] == [b"quiet", b"loud"]


def test_kafkas_kip_511_answer_sets_the_retry_version(kafka_broker):
    c = Socket(kafka_broker)
    try:
        # ask at a version no broker knows, by hand, and hand Kafka's answer to a client
        # that believes it asked at its own highest version
        cid, _ = c.conn.api_versions_request()
        header = RequestHeader(
            request_api_key=18, request_api_version=999, correlation_id=cid, client_id="kw-kip511"
        )
        payload = header.encode(2) + M.ApiVersionsRequest(
            client_software_name="kw", client_software_version="1"
        ).encode(3)
        c.write(struct.pack(">i", len(payload)) + payload)
        (answer,) = c.events(1)
        assert answer.message.error_code == 35  # UNSUPPORTED_VERSION
        _, data = c.conn.api_versions_request()
        retry = M.ApiVersionsRequest  # the retry goes at the broker's highest ApiVersions version
        theirs = {e.api_key: e.max_version for e in answer.message.api_keys}[18]
        assert struct.unpack_from(">h", data, 6)[0] == min(theirs, retry.valid_versions.highest)
        c.write(data)
        (ok,) = c.events(1)
        assert ok.message.error_code == 0 and c.conn.phase is ClientPhase.READY
    finally:
        c.close()


def test_the_broker_dropping_the_connection_fails_the_requests_still_waiting(client):
    metadata = M.MetadataRequest(topics=None)
    first, a = client.conn.send(metadata)
    client.conn.send(metadata)  # replaced on the wire by garbage below
    third, c = client.conn.send(metadata)
    fourth, d = client.conn.send(metadata)
    garbage = struct.pack(">hhih", 9999, 0, 2, 0)  # an API key Kafka does not have: it closes
    client.write(a + struct.pack(">i", len(garbage)) + garbage + c + d)
    events = client.events(4)
    assert isinstance(events[0], ResponseEvent) and events[0].correlation_id == first
    failed = events[1:]
    assert all(
        isinstance(e, RequestFailed) and isinstance(e.error, errors.ConnectionClosedError) for e in failed
    )
    assert sorted(e.correlation_id for e in failed) == sorted([first + 1, third, fourth])
    assert client.conn.phase is ClientPhase.CLOSED
