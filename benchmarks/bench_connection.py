"""Connection state machine benchmarks: kafkawire.connection against kafka-python's
``KafkaProtocol`` (its client-side protocol state machine) in the same run.

Group ``client-roundtrip``: one fresh client connection sends 100 MetadataRequest v12
(one topic each), hands the bytes over, then reads the 100 responses (each one topic,
one partition) delivered in 4 KiB pieces: encode, correlation-id bookkeeping, framing
and decode of every event.  Run on the Cython backend, the pure backend and
kafka-python; ``extra_info["events_per_s"]`` counts a request and its response as two
events.

Group ``server-roundtrip``: kafkawire's server end receives the same 100 requests and
answers them in reverse order (the ordering buffer releases everything at the end).
"""

from __future__ import annotations

import uuid

import pytest

from kafkawire import _backend
from kafkawire.protocol import messages as m
from kafkawire.connection import ClientConnection, ResponseEvent, ServerConnection
from kafkawire.protocol.requests import encode_response

N = 100
VERSION = 12
PIECE = 4096
TOPIC = "orders.events"


def _request():
    return m.MetadataRequest(
        topics=[m.MetadataRequest.MetadataRequestTopic(name=TOPIC)], allow_auto_topic_creation=False
    )


def _response():
    R = m.MetadataResponse
    part = R.MetadataResponsePartition(
        error_code=0,
        partition_index=0,
        leader_id=1,
        leader_epoch=3,
        replica_nodes=[1],
        isr_nodes=[1],
        offline_replicas=[],
    )
    return R(
        throttle_time_ms=0,
        brokers=[R.MetadataResponseBroker(node_id=1, host="localhost", port=9092)],
        cluster_id="bench",
        controller_id=1,
        topics=[
            R.MetadataResponseTopic(error_code=0, name=TOPIC, topic_id=uuid.UUID(int=1), partitions=[part])
        ],
    )


# kafka-python numbers its requests from 1; kafkawire is told to do the same
RESPONSES = b"".join(encode_response(_response(), VERSION, cid) for cid in range(1, N + 1))
PIECES = [RESPONSES[i : i + PIECE] for i in range(0, len(RESPONSES), PIECE)]


def _kafkawire_client_roundtrip():
    conn = ClientConnection("bench", max_in_flight=None, first_correlation_id=1)
    req = _request()
    out = [conn.send(req, version=VERSION)[1] for _ in range(N)]
    wire = b"".join(out)
    events = []
    for piece in PIECES:
        events += conn.receive_data(piece)
    return wire, events


def _kafka_python_client_roundtrip():
    from kafka.protocol.metadata import MetadataRequest
    from kafka.protocol.parser import KafkaProtocol

    proto = KafkaProtocol(client_id="bench")
    for _ in range(N):
        proto.send_request(
            MetadataRequest(
                version=VERSION,
                topics=[MetadataRequest.MetadataRequestTopic(name=TOPIC)],
                allow_auto_topic_creation=False,
            )
        )
    wire = proto.send_bytes()
    got = []
    for piece in PIECES:
        got += proto.receive_bytes(piece)
    return wire, got


def _events_per_s(benchmark) -> None:
    stats = benchmark.stats.stats if benchmark.stats else None
    if stats is not None and stats.mean:
        benchmark.extra_info["events_per_s"] = round(2 * N / stats.mean)


def test_both_clients_write_the_same_requests_and_read_every_response():
    with _backend.use("python"):
        ours, events = _kafkawire_client_roundtrip()
    theirs, got = _kafka_python_client_roundtrip()
    assert ours == theirs
    assert [e.correlation_id for e in events] == [cid for cid, _ in got] == list(range(1, N + 1))
    assert all(isinstance(e, ResponseEvent) and e.message.topics[0].name == TOPIC for e in events)


@pytest.mark.benchmark(group="client-roundtrip")
@pytest.mark.parametrize("backend_name", ["cython", "python"])
def test_client_roundtrip_kafkawire(benchmark, backend_name):
    if backend_name == "cython" and not _backend.fast_available():
        pytest.skip("the Cython backend did not load")
    with _backend.use(backend_name):
        _, events = benchmark(_kafkawire_client_roundtrip)
    assert len(events) == N
    _events_per_s(benchmark)


@pytest.mark.benchmark(group="client-roundtrip")
def test_client_roundtrip_kafka_python(benchmark):
    pytest.importorskip("kafka")
    _, got = benchmark(_kafka_python_client_roundtrip)
    assert len(got) == N
    _events_per_s(benchmark)


@pytest.mark.benchmark(group="server-roundtrip")
@pytest.mark.parametrize("backend_name", ["cython", "python"])
def test_server_roundtrip_kafkawire(benchmark, backend_name):
    if backend_name == "cython" and not _backend.fast_available():
        pytest.skip("the Cython backend did not load")
    requests, _ = _kafkawire_client_roundtrip()
    response = _response()

    def serve():
        conn = ServerConnection()
        events = conn.receive_data(requests)
        out = [conn.respond(e, response) for e in reversed(events)]
        return b"".join(out)

    with _backend.use(backend_name):
        out = benchmark(serve)
    assert len(out) == len(RESPONSES)
    _events_per_s(benchmark)
