"""Requests with bytes after their body, as librdkafka 2.16 sends MetadataRequest v13
(``tests/vectors/messages/metadata_v13_request_librdkafka.*``: 3 bytes, ``01 00 00``,
after a complete v13 body).

Kafka 4.4 reads the body its schema describes and never looks at what follows: its
broker answers such a request as it answers the same request without those bytes, and
closes the connection only when the body itself does not decode.  kafkawire's codec
stays byte-exact (``decode_request`` refuses the extra bytes; ``decode_request_prefix``
reads as Kafka reads and says where the body ends); the server connection and the test
broker serve the request as Kafka does.
"""

from __future__ import annotations

import json
import struct
from pathlib import Path
from typing import List, Tuple, Union

import pytest

import kafkawire
from kafkawire.protocol import messages as M
from kafkawire.broker import Broker
from kafkawire.connection import InvalidRequest, RequestEvent, ServerConnection
from kafkawire.errors import DecodeError

from support.kafka.wire import KafkaConnection

pytestmark = pytest.mark.in_process

VECTOR = Path(__file__).parents[1] / "vectors" / "messages" / "metadata_v13_request_librdkafka"
LIBRDKAFKA_FRAME = VECTOR.with_suffix(".bin").read_bytes()
META = json.loads(VECTOR.with_suffix(".json").read_text())
PAYLOAD = LIBRDKAFKA_FRAME[4:]
BODY_END = META["body_end"]


def _frame(payload: bytes) -> bytes:
    return struct.pack(">i", len(payload)) + payload


def _frames() -> List[Tuple[str, bytes]]:
    """Frames with bytes after their body, and one whose body is cut short."""
    api_versions = kafkawire.encode_request(
        M.ApiVersionsRequest(client_software_name="kw", client_software_version="1"), 3, 7, "kw"
    )
    metadata_v4 = kafkawire.encode_request(M.MetadataRequest(topics=None), 4, 8, "kw")
    return [
        ("librdkafka MetadataRequest v13 + 010000", LIBRDKAFKA_FRAME),
        ("ApiVersions v3 + 010000", _frame(api_versions[4:] + b"\x01\x00\x00")),
        ("Metadata v4 + dead", _frame(metadata_v4[4:] + b"\xde\xad")),
        ("Metadata v13 body cut short", _frame(PAYLOAD[: BODY_END - 1])),
    ]


EXPECTED = [("answered", 3), ("answered", 7), ("answered", 8), "closed"]


def _outcome(host: str, port: int, frame: bytes) -> Union[str, Tuple[str, int]]:
    """``("answered", correlation id)`` or ``"closed"``; a broker that does neither
    within the socket timeout fails the test."""
    with KafkaConnection(host, port) as conn:
        conn.send_frame(frame)
        try:
            payload = conn.read_payload()
        except ConnectionError:
            return "closed"
    return ("answered", struct.unpack_from(">i", payload, 0)[0])


def _outcomes(host: str, port: int) -> list:
    return [_outcome(host, port, frame) for _, frame in _frames()]


def test_decode_request_refuses_the_extra_bytes_and_the_prefix_reading_stops_before_them(backend):
    with pytest.raises(DecodeError, match="MetadataRequest v13: 3 trailing bytes after byte 22"):
        kafkawire.decode_request(PAYLOAD)
    header, request, end = kafkawire.decode_request_prefix(PAYLOAD)
    assert end == BODY_END and PAYLOAD[end:].hex() == META["trailing_hex"]
    assert (header.request_api_key, header.request_api_version, header.correlation_id) == (3, 13, 3)
    assert header.client_id == "rdkafka"
    assert request == M.MetadataRequest(
        topics=None, allow_auto_topic_creation=False, include_topic_authorized_operations=False
    )
    assert kafkawire.decode_request(PAYLOAD[:end]) == (header, request)


def test_server_connection_serves_the_request_and_counts_the_extra_bytes(backend):
    server = ServerConnection()
    (event,) = server.receive_data(LIBRDKAFKA_FRAME)
    assert isinstance(event, RequestEvent) and event.trailing == 3 and event.message.topics is None
    answer = server.respond(event, M.MetadataResponse(brokers=[], topics=[]))
    assert kafkawire.decode_response(answer[4:], 3, 13)[0].correlation_id == 3
    (refused,) = ServerConnection().receive_data(_frame(PAYLOAD[: BODY_END - 1]))
    assert isinstance(refused, InvalidRequest) and isinstance(refused.error, DecodeError)


def test_test_broker_answers_requests_with_extra_bytes_and_logs_them_apart(backend):
    logged: list = []
    with Broker(frame_log=logged.append, check_roundtrip=True) as broker:
        assert _outcomes(broker.host, broker.port) == EXPECTED
    assert broker.roundtrip_failures == [] and broker.handler_errors == []
    (entry,) = [e for e in logged if e["direction"] == "request" and e["api_version"] == 13]
    assert entry["trailing_hex"] == "010000" and entry["roundtrip"] is True
    assert entry["hex"] == PAYLOAD[:BODY_END].hex()  # what `kafkawire decode` reads back
    (closed,) = [why for _, why in broker.closed_connections if "does not decode" in why]
    assert closed == "request does not decode: truncated unsigned varint at byte 21"


@pytest.mark.kafka
def test_kafka_and_the_test_broker_treat_extra_bytes_alike(kafka_broker, backend):
    """Kafka 4.4 answers each request with bytes after its body and closes the
    connection on a body cut short; kafkawire's test broker does the same."""
    assert _outcomes(kafka_broker.host, kafka_broker.port) == EXPECTED
    # Kafka's answer ignores the extra bytes: it is its answer to the request without them
    api_versions = _frames()[1][1]
    clean = _frame(api_versions[4:-3])
    answers = []
    for frame in (api_versions, clean):
        with KafkaConnection(kafka_broker.host, kafka_broker.port) as conn:
            conn.send_frame(frame)
            answers.append(conn.read_payload())
    assert answers[0] == answers[1]
    with Broker() as broker:
        assert _outcomes(broker.host, broker.port) == EXPECTED


@pytest.fixture(scope="module")
def java():
    from support.kafka import jars, oracle

    jars.require_kafka()
    server = oracle.JavaMessages()
    yield server
    server.close()


@pytest.mark.kafka
def test_kafkas_metadata_reader_stops_where_kafkawire_says_the_body_ends(java, backend):
    """Kafka's generated MetadataRequestData reads v13 from the body: it stops after 4
    bytes (null topics, two false booleans, no tagged fields), the 3 bytes left over
    are not part of the message (the oracle refuses leftovers), and what it read is
    what kafkawire reads."""
    from support.kafka.oracle import WIRE, JavaError

    header, request, end = kafkawire.decode_request_prefix(PAYLOAD)
    body_start = end - len(request.encode(13))
    with pytest.raises(JavaError, match="3 trailing bytes"):
        java.ask(WIRE, "request", "", 3, 13, PAYLOAD[body_start:])
    theirs, their_json = java.ask(WIRE, "request", "", 3, 13, PAYLOAD[body_start:end])
    assert theirs == request.encode(13) == bytes(4)
    assert their_json == {
        "topics": None,
        "allowAutoTopicCreation": False,
        "includeTopicAuthorizedOperations": False,
    }
