"""What the test broker shows of its connections and frames: each connection's client,
software, request count and principal; the codec time per API; a request handler that
fails; a frame log that is a function; a request that does not re-encode to its bytes.

Runs on both backends: the broker decodes and encodes with the active one.
"""

from __future__ import annotations

import struct
import time

import pytest
from test_broker_protocol import Client

import kafkawire
from kafkawire.protocol import messages as M
from kafkawire.broker import Broker, CodecStats
from kafkawire.protocol.schema.catalog import ApiKey

pytestmark = [pytest.mark.timeout(60), pytest.mark.in_process]

UNKNOWN_TOPIC = M.MetadataRequest.MetadataRequestTopic


def _closed(broker: Broker, count: int, timeout: float = 10) -> list:
    """The reasons the broker gave for its closed connections, once it has ``count``."""
    deadline = time.monotonic() + timeout
    while len(broker.closed_connections) < count and time.monotonic() < deadline:
        time.sleep(0.02)
    return [why for _, why in broker.closed_connections]


def test_each_connection_shows_its_client_software_requests_and_principal():
    with Broker() as b:
        c = Client(b, client_id="orders-app")
        try:
            versions = M.ApiVersionsRequest(client_software_name="orders", client_software_version="1.2")
            assert c.request(versions, 3).error_code == 0
            c.request(M.MetadataRequest(topics=None), 12)
            (conn,) = b.connections.values()
            assert conn.client_id == "orders-app"
            assert conn.software == ("orders", "1.2")
            assert conn.requests == 2
            assert conn.principal == "User:ANONYMOUS" and conn.host == "127.0.0.1"
            assert conn.sasl is None and conn.session_expires is None
        finally:
            c.close()
        assert _closed(b, 1) == ["client closed the connection"]
        assert b.connections == {}


def test_acls_on_a_plaintext_listener_judge_the_anonymous_principal():
    # nothing is granted to User:ANONYMOUS: the topic is refused, the connection stays open
    with Broker(acl_enforce=True) as b:
        c = Client(b)
        try:
            resp = c.request(M.MetadataRequest(topics=[UNKNOWN_TOPIC(name="private")]), 12)
            assert resp.topics[0].error_code == 29  # TOPIC_AUTHORIZATION_FAILED
            assert c.request(M.ApiVersionsRequest(), 3).error_code == 0
        finally:
            c.close()
        assert b.handler_errors == []


def test_codec_stats_count_the_requests_of_each_api():
    assert CodecStats().summary() == {} and CodecStats().total_us_per_request() == 0.0
    with Broker() as b:
        c = Client(b)
        try:
            c.request(M.ApiVersionsRequest(), 3)
            c.request(M.MetadataRequest(topics=None), 12)
            c.request(M.MetadataRequest(topics=None), 1)
        finally:
            c.close()
        summary = b.stats.summary()
    assert sorted(summary) == ["ApiVersions", "Metadata"]
    assert summary["ApiVersions"]["requests"] == 1 and summary["Metadata"]["requests"] == 2
    for per_api in summary.values():
        assert set(per_api) == {"requests", "decode_us_per_request", "encode_us_per_request"}
    assert isinstance(b.stats.total_us_per_request(), float)


def test_a_failing_handler_closes_only_its_connection_and_is_recorded(monkeypatch):
    with Broker() as b:

        async def broken_metadata(ctx, conn, header, request, version):
            raise RuntimeError("metadata handler broke")

        monkeypatch.setitem(b.HANDLERS, ApiKey.METADATA, broken_metadata)
        bystander = Client(b)
        victim = Client(b)
        try:
            assert bystander.request(M.ApiVersionsRequest(), 3).error_code == 0
            victim.send(M.MetadataRequest(topics=None), 12)
            assert victim.is_closed()
            assert b.handler_errors == ["RuntimeError: metadata handler broke"]
            assert _closed(b, 1) == ["internal error: RuntimeError: metadata handler broke"]
            assert bystander.request(M.ApiVersionsRequest(), 3).error_code == 0
        finally:
            victim.close()
            bystander.close()


def test_stopping_the_broker_closes_its_open_connections():
    with Broker() as b:
        c = Client(b)
        c.request(M.ApiVersionsRequest(), 3)
    try:
        assert c.is_closed()
        assert [why for _, why in b.closed_connections] == ["broker stopping"]
    finally:
        c.close()


def test_a_frame_log_function_gets_every_frame_as_a_dict():
    entries: list = []
    with Broker(frame_log=entries.append) as b:
        c = Client(b)
        try:
            c.request(M.MetadataRequest(topics=[UNKNOWN_TOPIC(name="logged")]), 12)
        finally:
            c.close()
    assert [(e["direction"], e["api_name"], e["correlation_id"]) for e in entries] == [
        ("request", "MetadataRequest", 1),
        ("response", "MetadataResponse", 1),
    ]
    request, response = entries
    assert request["header"]["client_id"] == "kw-test"
    assert request["body"]["topics"][0]["name"] == "logged"
    assert response["body"]["topics"][0]["name"] == "logged"
    header, body = kafkawire.decode_response(bytes.fromhex(response["hex"]), 3, 12)
    assert header.correlation_id == 1 and body.topics[0].name == "logged"
    assert all(e["roundtrip"] for e in entries)


def test_a_request_that_does_not_re_encode_to_its_bytes_is_reported_and_answered():
    # Kafka reads any non-zero byte as true; kafkawire writes true as 1, so a 2 on the
    # wire decodes but does not re-encode to the same bytes
    frame = kafkawire.encode_request(
        M.MetadataRequest(topics=[UNKNOWN_TOPIC(name="odd")], allow_auto_topic_creation=True), 12, 1, "x"
    )
    payload = bytearray(frame[4:])
    at = len(payload) - 3  # allow_auto_topic_creation, then the authorized-operations flag and tags
    assert payload[at] == 1
    payload[at] = 2
    entries: list = []
    with Broker(check_roundtrip=True, frame_log=entries.append) as b:
        c = Client(b)
        try:
            c.sock.sendall(struct.pack(">i", len(payload)) + payload)
            header, resp = kafkawire.decode_response(c.recv_frame(), 3, 12)
            assert header.correlation_id == 1 and resp.topics[0].name == "odd"
        finally:
            c.close()
    (failure,) = b.roundtrip_failures
    assert (failure["direction"], failure["api_name"], failure["roundtrip"]) == (
        "request",
        "MetadataRequest",
        False,
    )
    assert failure["first_difference"] == at
    assert failure["hex"] == bytes(payload).hex()
    assert bytes.fromhex(failure["reencoded_hex"]) == bytes(payload[:at]) + b"\x01" + bytes(payload[at + 1 :])
    assert [e["roundtrip"] for e in entries] == [False, True]
    assert b.frames_checked == 2
