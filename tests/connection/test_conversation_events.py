"""kafkawire.cli.conversation on streams written here frame by frame: what a traffic analyser
is told about a reused correlation id, an acks=0 Produce, an ApiVersions request at a
version nobody knows, a frame that is not a request, requests left unanswered, and the
records inside a Produce; and each event as JSON."""

from __future__ import annotations

import struct

import pytest

import kafkawire
from kafkawire.protocol import messages as M
from kafkawire.protocol import records as R
from kafkawire.cli.conversation import Conversation, event_json

pytestmark = pytest.mark.in_process


def _metadata(correlation_id):
    return kafkawire.encode_request(M.MetadataRequest(topics=[]), 1, correlation_id, "cli")


def test_a_correlation_id_reused_while_in_flight_is_reported(backend):
    c = Conversation()
    (first,) = c.client_data(_metadata(7))
    assert event_json(first)["api_name"] == "MetadataRequest"
    again = [event_json(e) for e in c.client_data(_metadata(7))]
    assert again[0]["direction"] == "request" and again[0]["correlation_id"] == 7
    assert again[1] == {
        "direction": "response",
        "correlation_id": 7,
        "error": "ConnectionStateError: correlation id 7 is already waiting for a response",
    }
    (answer,) = c.server_data(kafkawire.encode_response(M.MetadataResponse(), 1, 7))
    out = event_json(answer)
    assert (out["direction"], out["api_name"], out["api_version"], out["correlation_id"]) == (
        "response",
        "MetadataResponse",
        1,
        7,
    )


def test_acks_0_produce_and_an_unknown_api_versions_version_are_noted(backend):
    c = Conversation()
    produce = kafkawire.encode_request(M.ProduceRequest(acks=0, topic_data=[]), 3, 8, "cli")
    (event,) = c.client_data(produce)
    assert event_json(event)["note"] == "acks=0: no response"
    body = struct.pack(">hhi", 18, 99, 9) + struct.pack(">h", 3) + b"cli" + b"\x00"
    (event,) = c.client_data(struct.pack(">i", len(body)) + body)
    out = event_json(event)
    assert out["note"] == "ApiVersions at a version the reader does not know (KIP-511)"
    assert "body" not in out and out["api_version"] == 99
    # the capture ends before its answer: the one request awaiting a response fails
    assert [event_json(e) for e in c.end()] == [
        {
            "direction": "response",
            "correlation_id": 9,
            "api_key": 18,
            "api_version": 99,
            "error": "ConnectionClosedError: the capture ended",
        }
    ]
    assert c.server_data(kafkawire.encode_response(M.ApiVersionsResponse(), 0, 9)) == []


def test_a_frame_that_is_not_a_request_stops_reading_the_client_stream(backend):
    c = Conversation()
    (bad,) = c.client_data(struct.pack(">i", 4) + b"\xff\xff\xff\xff")
    assert event_json(bad) == {
        "direction": "request",
        "error": "UnknownApiError: no request is defined for API key -1",
    }
    assert c.client_data(_metadata(1)) == []  # the stream lost its framing


def test_records_of_a_produce_request_are_decoded_on_request(backend):
    P = M.ProduceRequest
    batch = R.encode_batch([{"key": b"k", "value": b"hello", "timestamp": 5}])
    request = P(
        acks=1,
        timeout_ms=100,
        topic_data=[
            P.TopicProduceData(name="t", partition_data=[P.PartitionProduceData(index=0, records=batch)])
        ],
    )
    (event,) = Conversation().client_data(kafkawire.encode_request(request, 9, 3, "cli"))
    out = event_json(event, records=True)
    (rec,) = out["body"]["topic_data"][0]["partition_data"][0]["records"]
    assert rec == {"offset": 0, "timestamp": 5, "key": "k", "value": "hello", "headers": []}


def test_only_conversation_events_have_a_json_form(backend):
    with pytest.raises(TypeError, match="^not a conversation event: 5$"):
        event_json(5)
