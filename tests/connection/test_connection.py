"""kafkawire.connection: both ends of a connection as state machines, on both backends.

The two ends are checked against each other, against hostile byte streams, against
kafka-python's own protocol state machine (its client end talks to our server end, its
response classes feed our client end), and over real sockets against the test broker.
"""

from __future__ import annotations

import dataclasses
import random
import socket
import struct

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import kafkawire
from kafkawire import errors
from kafkawire.protocol import messages as M
from kafkawire.protocol import records as R
from kafkawire.connection import (
    SASL_RESERVED_MIN,
    ClientConnection,
    ClientPhase,
    InvalidRequest,
    RequestEvent,
    RequestFailed,
    ResponseEvent,
    SaslTokenReceived,
    ServerConnection,
    UnexpectedResponse,
    next_correlation_id,
)
from kafkawire.protocol.schema.plan import INT32_MAX, INT32_MIN
from kafkawire.protocol.schema.versions import VersionRange

pytestmark = [pytest.mark.timeout(120), pytest.mark.in_process]

SETTINGS = dict(deadline=None, suppress_health_check=list(HealthCheck), database=None)


def metadata_request():
    return M.MetadataRequest(topics=None, allow_auto_topic_creation=False)


def metadata_response(tag: str):
    return M.MetadataResponse(cluster_id=tag, controller_id=1, brokers=[], topics=[])


def produce_request(acks: int, topic: str = "t"):
    P = M.ProduceRequest
    batch = R.encode_batch([{"key": b"k", "value": b"v", "timestamp": 1}])
    return P(
        acks=acks,
        timeout_ms=1000,
        topic_data=[
            P.TopicProduceData(name=topic, partition_data=[P.PartitionProduceData(index=0, records=batch)])
        ],
    )


def handshake(client: ClientConnection, server: ServerConnection) -> None:
    _, data = client.api_versions_request()
    (event,) = server.receive_data(data)
    (answer,) = client.receive_data(server.respond(event, server.api_versions_response()))
    assert isinstance(answer, ResponseEvent) and answer.message.error_code == 0


def feed_in_pieces(conn, data: bytes, cuts) -> list:
    events = []
    start = 0
    for cut in sorted(set(cuts)) + [len(data)]:
        events += conn.receive_data(data[start:cut])
        start = cut
    return events


# -- negotiation -----------------------------------------------------------------------------


def test_api_versions_negotiates_the_highest_common_version_of_each_api():
    client = ClientConnection("c", versions={3: (0, 9)})
    server = ServerConnection({3: (4, 12), 18: (0, 4), 0: (3, 9)})
    assert client.phase is ClientPhase.NEGOTIATING
    handshake(client, server)
    assert client.phase is ClientPhase.READY
    assert client.negotiated == {3: 9, 18: 4, 0: 9}
    assert client.peer_versions[3] == VersionRange(4, 12)
    _, data = client.send(metadata_request())
    (event,) = server.receive_data(data)
    assert (event.api_key, event.version, event.header.client_id) == (3, 9, "c")


def test_an_api_or_version_the_peer_did_not_advertise_is_refused_before_encoding():
    client = ClientConnection()
    server = ServerConnection({3: (4, 12), 18: (0, 4)})
    handshake(client, server)
    with pytest.raises(errors.UnsupportedByPeerError, match="FetchRequest"):
        client.send(M.FetchRequest())
    with pytest.raises(errors.UnsupportedByPeerError, match="v2"):
        client.send(metadata_request(), version=2)
    with pytest.raises(errors.UnsupportedVersionError):
        client.send(metadata_request(), version=99)
    assert client.in_flight == 0 and client.next_correlation_id == 1


def test_before_api_versions_the_highest_version_kafkawire_knows_is_used():
    client = ClientConnection()
    _, data = client.send(metadata_request())
    header, _ = kafkawire.decode_request(data[4:])
    assert header.request_api_version == M.supported_versions(3).highest


@pytest.mark.parametrize("broker_api_versions,retry_version", [((0, 2), 2), ((0, 0), 0), (None, 0)])
def test_unsupported_api_versions_version_falls_back_the_kip_511_way(broker_api_versions, retry_version):
    server = ServerConnection({3: (0, 12), 18: broker_api_versions or (0, 0)})
    client = ClientConnection()
    cid, data = client.api_versions_request()
    (event,) = server.receive_data(data)
    assert event.unsupported_version and event.message is None and event.correlation_id == cid
    answer = server.api_versions_response(error_code=35)
    if broker_api_versions is None:  # an answer that does not list ApiVersions itself
        answer.api_keys = [a for a in answer.api_keys if a.api_key != 18]
    out = server.respond(event, answer)
    # the answer is v0-shaped whatever version was asked (header v0, no tagged fields)
    header, body = kafkawire.decode_response(out[4:], 18, 0)
    assert header.correlation_id == cid and body.error_code == 35
    (answer,) = client.receive_data(out)
    assert answer.message.error_code == 35 and client.negotiated is None
    _, data = client.api_versions_request()
    (event,) = server.receive_data(data)
    assert event.version == retry_version and not event.unsupported_version
    client.receive_data(server.respond(event, server.api_versions_response()))
    assert client.phase is ClientPhase.READY and client.negotiated[3] == 12


def test_kip_511_answer_written_by_kafka_python_is_read_by_the_client():
    from kafka.protocol.metadata import ApiVersionsResponse as KPApiVersions

    client = ClientConnection()
    cid, _ = client.api_versions_request()
    answer = KPApiVersions(
        version=0,
        error_code=35,
        api_keys=[KPApiVersions.ApiVersion(api_key=18, min_version=0, max_version=2)],
    )
    answer.with_header(correlation_id=cid)
    (event,) = client.receive_data(answer.encode(header=True, framed=True))
    assert event.message.error_code == 35 and event.version == M.supported_versions(18).highest
    _, data = client.api_versions_request()
    assert kafkawire.decode_request(data[4:])[0].request_api_version == 2


# -- correlation ids, pipelining, in-flight bound ----------------------------------------------


def test_correlation_ids_wrap_to_int32_min_before_the_ids_kept_for_sasl():
    # Kafka's NetworkClient.nextCorrelationId: ids 2**31-8 .. 2**31-1 belong to SASL
    # re-authentication, the counter jumps from 2**31-9 to -2**31
    assert SASL_RESERVED_MIN == 2**31 - 8
    assert next_correlation_id(2**31 - 10) == 2**31 - 9
    assert next_correlation_id(2**31 - 9) == INT32_MIN
    assert next_correlation_id(-1) == 0
    assert ClientConnection(first_correlation_id=INT32_MAX).next_correlation_id == INT32_MIN
    client = ClientConnection(first_correlation_id=INT32_MAX - 10, max_in_flight=None)
    server = ServerConnection()
    sent = [client.send(metadata_request(), version=12) for _ in range(5)]
    assert [cid for cid, _ in sent] == [
        INT32_MAX - 10,
        INT32_MAX - 9,
        INT32_MAX - 8,
        INT32_MIN,
        INT32_MIN + 1,
    ]
    events = server.receive_data(b"".join(data for _, data in sent))
    assert [e.correlation_id for e in events] == [cid for cid, _ in sent]
    out = b"".join(server.respond(e, metadata_response(str(e.correlation_id))) for e in events)
    answers = client.receive_data(out)
    assert [(a.correlation_id, a.message.cluster_id) for a in answers] == [(cid, str(cid)) for cid, _ in sent]


def test_max_in_flight_bounds_tracked_requests_and_acks_0_produce_is_not_tracked():
    client = ClientConnection(max_in_flight=5)
    server = ServerConnection()
    sent = [client.send(metadata_request()) for _ in range(5)]
    with pytest.raises(errors.InFlightLimitError, match="limit is 5"):
        client.send(metadata_request())
    cid0, acks0 = client.send(produce_request(acks=0))  # still allowed: no response comes
    assert client.in_flight == 5 and cid0 not in client.pending
    events = server.receive_data(b"".join(d for _, d in sent) + acks0)
    assert [e.expects_response for e in events] == [True] * 5 + [False]
    with pytest.raises(errors.ConnectionStateError, match="acks=0"):
        server.respond(events[5], M.ProduceResponse())
    (first,) = client.receive_data(server.respond(events[0], metadata_response("0")))
    assert first.correlation_id == sent[0][0]
    client.send(metadata_request())  # room again
    # a response to the acks=0 produce would be a stray frame, reported and skipped
    stray = kafkawire.encode_response(M.ProduceResponse(), 9, cid0)
    (event,) = client.receive_data(stray)
    assert isinstance(event, UnexpectedResponse) and "acks=0" in str(event.error)


def test_acks_1_produce_is_tracked_and_answered():
    client, server = ClientConnection(), ServerConnection()
    cid, data = client.send(produce_request(acks=1))
    (event,) = server.receive_data(data)
    assert event.expects_response and client.in_flight == 1
    (answer,) = client.receive_data(server.respond(event, M.ProduceResponse(responses=[])))
    assert answer.correlation_id == cid and isinstance(answer.request, M.ProduceRequest)


@settings(max_examples=60, **SETTINGS)
@given(
    order=st.permutations(range(6)),
    cuts=st.lists(st.integers(0, 2000), max_size=12),
    server_cuts=st.lists(st.integers(0, 2000), max_size=12),
)
def test_any_split_and_any_completion_order_keeps_request_order(backend, order, cuts, server_cuts):
    client = ClientConnection(max_in_flight=6)
    server = ServerConnection()
    requests = [
        metadata_request(),
        M.ApiVersionsRequest(),
        metadata_request(),
        produce_request(acks=1),
        M.FindCoordinatorRequest(key_type=0, coordinator_keys=["g"]),
        metadata_request(),
    ]
    sent = [client.send(r) for r in requests]
    stream = b"".join(d for _, d in sent)
    events = feed_in_pieces(server, stream, cuts)
    assert [e.correlation_id for e in events] == [cid for cid, _ in sent]
    responses = [
        metadata_response("0"),
        server.api_versions_response(),
        metadata_response("2"),
        M.ProduceResponse(responses=[]),
        M.FindCoordinatorResponse(),
        metadata_response("5"),
    ]
    out = b""
    for i in order:  # handlers finish in any order; bytes still leave in request order
        ready = server.respond(events[i], responses[i])
        assert ready == b"" or ready.startswith(out[:0])
        out += ready
    assert server.unanswered == 0
    answers = feed_in_pieces(client, out, server_cuts)
    assert all(isinstance(a, ResponseEvent) for a in answers)
    assert [(a.correlation_id, a.api_key) for a in answers] == [
        (cid, r.api_key) for (cid, _), r in zip(sent, requests)
    ]
    assert [a.request for a in answers] == requests
    assert answers[2].message.cluster_id == "2" and client.in_flight == 0


def test_respond_releases_only_the_answered_prefix():
    client, server = ClientConnection(), ServerConnection()
    events = server.receive_data(b"".join(client.send(metadata_request())[1] for _ in range(3)))
    assert server.respond(events[2], metadata_response("2")) == b""
    assert server.respond(events[1], metadata_response("1")) == b""
    out = server.respond(events[0], metadata_response("0"))
    assert [a.message.cluster_id for a in client.receive_data(out)] == ["0", "1", "2"]


# -- failures: loss, expiry, strays, hostile streams --------------------------------------------


def test_connection_lost_fails_every_pending_request_once():
    client = ClientConnection()
    sent = [client.send(metadata_request())[0] for _ in range(4)]
    partial = kafkawire.encode_response(metadata_response("x"), 12, sent[0])[:9]
    assert client.receive_data(partial) == []
    failed = client.connection_lost()
    assert sorted(f.correlation_id for f in failed) == sorted(sent)
    assert all(
        isinstance(f, RequestFailed) and isinstance(f.error, errors.ConnectionClosedError) for f in failed
    )
    assert "inside a response frame" in str(failed[0].error)
    assert client.connection_lost() == [] and client.phase is ClientPhase.CLOSED
    with pytest.raises(errors.ConnectionClosedError):
        client.send(metadata_request())
    with pytest.raises(errors.ConnectionClosedError):
        client.receive_data(b"\x00")


def test_expire_fails_requests_past_their_deadline_and_a_late_answer_is_a_stray():
    client, server = ClientConnection(), ServerConnection()
    a = client.send(metadata_request(), deadline=10.0)
    b = client.send(metadata_request(), deadline=20.0)
    c = client.send(metadata_request())
    assert client.expire(5.0) == []
    (gone,) = client.expire(10.0)
    assert gone.correlation_id == a[0] and isinstance(gone.error, errors.RequestTimedOutError)
    events = server.receive_data(a[1] + b[1] + c[1])
    out = b"".join(server.respond(e, metadata_response(str(e.correlation_id))) for e in events)
    late, on_time, other = client.receive_data(out)
    assert isinstance(late, UnexpectedResponse) and "expired" in str(late.error)
    assert on_time.correlation_id == b[0] and other.correlation_id == c[0]
    assert client.expire(1e9) == []


def test_unknown_and_duplicate_correlation_ids_are_events_and_the_stream_goes_on():
    client, server = ClientConnection(), ServerConnection()
    cid, data = client.send(metadata_request())
    (event,) = server.receive_data(data)
    answer = server.respond(event, metadata_response("ok"))
    never = kafkawire.encode_response(metadata_response("?"), 12, 4242)
    tiny = struct.pack(">i", 2) + b"\x00\x01"
    got = client.receive_data(never + answer + answer + tiny)
    assert [type(e) for e in got] == [
        UnexpectedResponse,
        ResponseEvent,
        UnexpectedResponse,
        UnexpectedResponse,
    ]
    assert "never sent" in str(got[0].error) and "already answered" in str(got[2].error)
    assert isinstance(got[0].error, errors.UnexpectedResponseError)
    assert got[3].correlation_id is None and isinstance(got[3].error, errors.TruncatedError)
    cid2, data = client.send(metadata_request())
    (event,) = server.receive_data(data)
    assert client.receive_data(server.respond(event, metadata_response("after")))[0].correlation_id == cid2


def test_a_response_that_does_not_decode_fails_its_request_only():
    client = ClientConnection()
    bad_cid, _ = client.send(metadata_request(), version=12)
    good_cid, _ = client.send(metadata_request(), version=12)
    garbage = struct.pack(">i", bad_cid) + b"\xff" * 7
    good = kafkawire.encode_response(metadata_response("g"), 12, good_cid)
    failed, ok = client.receive_data(struct.pack(">i", len(garbage)) + garbage + good)
    assert isinstance(failed, RequestFailed) and isinstance(failed.error, errors.DecodeError)
    assert failed.correlation_id == bad_cid and ok.message.cluster_id == "g"


@pytest.mark.parametrize("prefix", [struct.pack(">i", 1 << 20), struct.pack(">i", -1)])
def test_a_broken_frame_size_closes_the_client_and_fails_everything(prefix):
    client = ClientConnection(max_frame_size=1 << 16)
    sent = [client.send(metadata_request())[0] for _ in range(3)]
    failed = client.receive_data(prefix + b"x" * 10)
    assert sorted(f.correlation_id for f in failed) == sorted(sent)
    # the peer's fault and a lost connection: a BrokenStreamError caused by the framing error
    assert all(isinstance(f.error, errors.BrokenStreamError) for f in failed)
    assert all(isinstance(f.error.__cause__, errors.InvalidFrame) for f in failed)
    assert client.phase is ClientPhase.CLOSED


def test_garbage_after_api_versions_fails_only_what_it_answers():
    client, server = ClientConnection(), ServerConnection()
    handshake(client, server)
    cid, _ = client.send(metadata_request())
    got = client.receive_data(struct.pack(">i", 5) + b"\xde\xad\xbe\xef\x00")
    assert isinstance(got[0], UnexpectedResponse) and client.in_flight == 1
    got = client.receive_data(struct.pack(">i", 6) + struct.pack(">i", cid) + b"\xff\xff")
    assert isinstance(got[0], RequestFailed) and client.in_flight == 0 and client.phase is ClientPhase.READY


@pytest.mark.parametrize(
    "payload,error",
    [
        (struct.pack(">hhi", 9999, 0, 1) + b"\x00\x00", errors.UnknownApiError),
        (struct.pack(">hhi", 3, 99, 1) + b"\x00\x00", errors.UnsupportedVersionError),
        (struct.pack(">hhi", 1, 4, 1) + b"\x00\x00", errors.UnknownApiError),  # Fetch: not served here
        (struct.pack(">hhi", 3, 12, 1) + b"\x00\x01", errors.DecodeError),
        (b"\x00\x03", errors.TruncatedError),
    ],
)
def test_a_request_the_server_cannot_serve_is_an_invalid_request_and_closes_it(payload, error):
    server = ServerConnection({3: (0, 12), 18: (0, 4)})
    good = ClientConnection().send(metadata_request(), version=12)[1]
    events = server.receive_data(good + struct.pack(">i", len(payload)) + payload + good)
    assert isinstance(events[0], RequestEvent) and isinstance(events[1], InvalidRequest)
    assert len(events) == 2 and isinstance(events[1].error, error)
    with pytest.raises(errors.ConnectionClosedError):
        server.receive_data(good)


def test_an_oversized_request_frame_is_refused_before_it_is_buffered():
    server = ServerConnection(max_frame_size=100)
    (event,) = server.receive_data(struct.pack(">i", 101))
    assert isinstance(event, InvalidRequest) and isinstance(event.error, errors.FrameTooLarge)


def test_server_refuses_responses_to_unknown_or_answered_requests():
    client, server, other = ClientConnection(), ServerConnection(), ServerConnection()
    (event,) = server.receive_data(client.send(metadata_request())[1])
    (foreign,) = other.receive_data(ClientConnection().send(metadata_request())[1])
    with pytest.raises(errors.ConnectionStateError, match="not a request of this connection"):
        server.respond(foreign, metadata_response("x"))
    with pytest.raises(errors.EncodeError, match="ProduceResponse"):
        server.respond(event, M.ProduceResponse())
    server.respond(event, metadata_response("x"))
    with pytest.raises(errors.ConnectionStateError):
        server.respond(event, metadata_response("x"))
    assert server.connection_lost() == 0


def test_server_records_client_id_and_software():
    client, server = ClientConnection("app-1"), ServerConnection()
    (event,) = server.receive_data(client.api_versions_request("app", "2.0")[1])
    assert server.client_id == "app-1" and server.client_software == ("app", "2.0")
    assert server.requests_received == 1 and server.unanswered == 1


# -- SASL hook: the SaslHandshake v0 raw-token path ---------------------------------------------


def test_sasl_handshake_v0_switches_both_ends_to_bare_tokens_and_back():
    client, server = ClientConnection(), ServerConnection()
    handshake(client, server)
    _, data = client.send(M.SaslHandshakeRequest(mechanism="PLAIN"), version=0)
    (event,) = server.receive_data(data)
    with pytest.raises(errors.ConnectionStateError, match="bare SASL"):
        client.send_sasl_token(b"too early")
    answer = server.respond(event, M.SaslHandshakeResponse(error_code=0, mechanisms=["PLAIN"]))
    (handshake_answer,) = client.receive_data(answer)
    assert handshake_answer.message.mechanisms == ["PLAIN"] and client.phase is ClientPhase.BARE_TOKENS
    token_frame = client.send_sasl_token(b"\x00user\x00secret")
    assert token_frame == struct.pack(">i", 12) + b"\x00user\x00secret"
    with pytest.raises(errors.ConnectionStateError, match="send_sasl_token"):
        client.send(metadata_request())
    (token,) = server.receive_data(token_frame)
    assert isinstance(token, SaslTokenReceived) and token.token == b"\x00user\x00secret"
    with pytest.raises(errors.EncodeError, match="SASL token is bytes"):
        server.respond(token, M.SaslAuthenticateResponse())
    (reply,) = client.receive_data(server.respond(token, b""))
    assert isinstance(reply, SaslTokenReceived) and reply.token == b""
    client.end_sasl_tokens()
    server.end_sasl_tokens()
    cid, data = client.send(metadata_request())
    (event,) = server.receive_data(data)
    assert client.receive_data(server.respond(event, metadata_response("in")))[0].correlation_id == cid


def test_sasl_handshake_v1_keeps_kafka_messages():
    client, server = ClientConnection(), ServerConnection()
    _, data = client.send(M.SaslHandshakeRequest(mechanism="PLAIN"), version=1)
    (event,) = server.receive_data(data)
    client.receive_data(server.respond(event, M.SaslHandshakeResponse(error_code=0, mechanisms=["PLAIN"])))
    _, data = client.send(M.SaslAuthenticateRequest(auth_bytes=b"\x00u\x00p"))
    (event,) = server.receive_data(data)
    assert event.message.auth_bytes == b"\x00u\x00p" and client.phase is ClientPhase.NEGOTIATING


# -- a random conversation: nothing lost, nothing mismatched ------------------------------------


@settings(max_examples=40, **SETTINGS)
@given(seed=st.integers(0, 2**32 - 1), steps=st.integers(5, 80))
def test_random_interleavings_never_lose_or_mismatch_a_request(backend, seed, steps):
    rnd = random.Random(seed)
    client = ClientConnection(
        max_in_flight=rnd.choice([1, 3, 5, None]), first_correlation_id=rnd.choice([0, INT32_MAX - 3])
    )
    server = ServerConnection()
    to_server = b""  # bytes written by the client, not yet read by the server
    to_client = b""
    handled = []  # server events not yet answered
    sent = {}  # correlation id -> request tag, for every tracked request
    outcomes = {}  # correlation id -> what became of it
    clock = 0.0
    lost = False
    for _ in range(steps):
        op = rnd.randrange(7)
        if op == 0 and not lost:
            tag = f"r{len(sent)}"
            try:
                cid, data = client.send(
                    M.MetadataRequest(topics=[M.MetadataRequest.MetadataRequestTopic(name=tag)]),
                    deadline=clock + rnd.choice([1, 5, 50]),
                )
            except errors.InFlightLimitError:
                continue
            sent[cid] = tag
            to_server += data
        elif op == 1 and to_server:
            cut = rnd.randint(0, len(to_server))
            for e in server.receive_data(to_server[:cut]):
                handled.append(e)
            to_server = to_server[cut:]
        elif op == 2 and handled:
            e = handled.pop(rnd.randrange(len(handled)))
            tag = e.message.topics[0].name
            to_client += server.respond(e, metadata_response(tag))
        elif op == 3 and to_client and not lost:
            cut = rnd.randint(0, len(to_client))
            events = client.receive_data(to_client[:cut])
            to_client = to_client[cut:]
            for ev in events:
                if isinstance(ev, ResponseEvent):
                    assert ev.message.cluster_id == sent[ev.correlation_id]
                    assert ev.request.topics[0].name == sent[ev.correlation_id]
                    assert ev.correlation_id not in outcomes
                    outcomes[ev.correlation_id] = "answered"
                else:
                    assert isinstance(ev, UnexpectedResponse) and outcomes[ev.correlation_id] == "expired"
        elif op == 4 and not lost:
            clock += rnd.choice([1, 10])
            for ev in client.expire(clock):
                assert ev.correlation_id not in outcomes
                outcomes[ev.correlation_id] = "expired"
        elif op == 5 and rnd.random() < 0.2 and not lost:
            lost = True
            for ev in client.connection_lost():
                assert ev.correlation_id not in outcomes
                outcomes[ev.correlation_id] = "lost"
    if not lost:
        for ev in client.connection_lost():
            outcomes[ev.correlation_id] = "lost"
    assert set(outcomes) == set(sent)  # every request had exactly one outcome
    assert client.in_flight == 0


# -- kafka-python's protocol state machine as the other end --------------------------------------


def test_kafka_python_client_protocol_talks_to_our_server_end():
    from kafka.protocol.metadata import ApiVersionsRequest as KPApiVersionsRequest
    from kafka.protocol.metadata import MetadataRequest as KPMetadataRequest
    from kafka.protocol.parser import KafkaProtocol

    theirs = KafkaProtocol(client_id="kp")
    server = ServerConnection({3: (0, 12), 18: (0, 3)})
    theirs.send_request(
        KPApiVersionsRequest(version=3, client_software_name="kp", client_software_version="3")
    )
    for _ in range(3):
        theirs.send_request(KPMetadataRequest(version=12, topics=None, allow_auto_topic_creation=False))
    events = server.receive_data(theirs.send_bytes())
    assert [(e.api_key, e.version, e.header.client_id) for e in events] == [(18, 3, "kp")] + [
        (3, 12, "kp")
    ] * 3
    assert server.client_software == ("kp", "3")
    out = b""
    for e in reversed(events):  # finish last first: the bytes still come in order
        msg = server.api_versions_response() if e.api_key == 18 else metadata_response(f"c{e.correlation_id}")
        out += server.respond(e, msg)
    got = []
    for i in range(0, len(out), 7):  # kafka-python checks each correlation id in order
        got += theirs.receive_bytes(out[i : i + 7])
    assert [cid for cid, _ in got] == [e.correlation_id for e in events]
    versions, *metas = [resp for _, resp in got]
    assert {a.api_key: a.max_version for a in versions.api_keys} == {3: 12, 18: 3}
    assert [m.cluster_id for m in metas] == [f"c{e.correlation_id}" for e in events[1:]]


def test_our_client_end_reads_responses_kafka_python_writes():
    from kafka.protocol.metadata import ApiVersionsResponse as KPApiVersions
    from kafka.protocol.metadata import MetadataResponse as KPMetadata

    client = ClientConnection()
    cid, _ = client.api_versions_request()
    answer = KPApiVersions(
        version=4,
        error_code=0,
        throttle_time_ms=0,
        api_keys=[
            KPApiVersions.ApiVersion(api_key=18, min_version=0, max_version=4),
            KPApiVersions.ApiVersion(api_key=3, min_version=0, max_version=11),
        ],
    )
    answer.with_header(correlation_id=cid)
    stream = answer.encode(header=True, framed=True)
    (event,) = feed_in_pieces(client, stream, range(0, len(stream), 3))
    assert client.negotiated == {18: 4, 3: 11}
    ids = [client.send(metadata_request())[0] for _ in range(4)]
    stream = b""
    for cid in ids:
        resp = KPMetadata(
            version=11, throttle_time_ms=0, brokers=[], cluster_id=f"k{cid}", controller_id=1, topics=[]
        )
        resp.with_header(correlation_id=cid)
        stream += resp.encode(header=True, framed=True)
    got = feed_in_pieces(client, stream, [5, 6, 40, 41, 42])
    assert [(e.correlation_id, e.version, e.message.cluster_id) for e in got] == [
        (cid, 11, f"k{cid}") for cid in ids
    ]


# -- real sockets against the test broker -------------------------------------------------------


def _exchange(sock: socket.socket, client: ClientConnection, data: bytes, want: int) -> list:
    sock.sendall(data)
    events = []
    while len(events) < want:
        chunk = sock.recv(7)  # small reads: frames arrive split
        if not chunk:
            return events + client.connection_lost()
        events += client.receive_data(chunk)
    return events


def test_client_end_drives_the_test_broker_over_a_socket():
    from kafkawire.broker import Broker

    with Broker(num_partitions=1, check_roundtrip=True) as broker:
        sock = socket.create_connection(("127.0.0.1", broker.port), timeout=10)
        try:
            client = ClientConnection("sock-test")
            _, data = client.api_versions_request()
            (answer,) = _exchange(sock, client, data, 1)
            assert answer.message.error_code == 0 and client.negotiated[0] == M.supported_versions(0).highest
            # five pipelined requests, then an acks=0 produce, then one more
            data = b"".join(
                client.send(M.MetadataRequest(topics=[M.MetadataRequest.MetadataRequestTopic(name=f"t{i}")]))[
                    1
                ]
                for i in range(5)
            )
            with pytest.raises(errors.InFlightLimitError):
                client.send(metadata_request())
            events = _exchange(sock, client, data, 5)
            assert [e.message.topics[0].name for e in events] == [f"t{i}" for i in range(5)]
            topic_id = events[0].message.topics[0].topic_id
            P = M.ProduceRequest
            quiet = P(
                acks=0,
                timeout_ms=1000,
                topic_data=[
                    P.TopicProduceData(
                        name="t0",
                        topic_id=topic_id,
                        partition_data=[
                            P.PartitionProduceData(
                                index=0,
                                records=R.encode_batch([{"key": None, "value": b"quiet", "timestamp": 1}]),
                            )
                        ],
                    )
                ],
            )
            _, q = client.send(quiet)
            _, loud = client.send(
                P(
                    acks=-1,
                    timeout_ms=1000,
                    topic_data=[
                        P.TopicProduceData(
                            name="t0",
                            topic_id=topic_id,
                            partition_data=[
                                P.PartitionProduceData(
                                    index=0,
                                    records=R.encode_batch([{"key": None, "value": b"loud", "timestamp": 2}]),
                                )
                            ],
                        )
                    ],
                )
            )
            (ack,) = _exchange(sock, client, q + loud, 1)
            assert ack.message.responses[0].partition_responses[0].base_offset == 1
            assert [r.value for r in broker.topic_records("t0")[0]] == [b"quiet", b"loud"]
            # the connection drops with requests pending: each fails
            client.send(M.FetchRequest(max_wait_ms=5000, min_bytes=1 << 20, topics=[]))
            sock.shutdown(socket.SHUT_RDWR)
            failed = client.connection_lost()
            assert len(failed) == 1 and isinstance(failed[0].error, errors.ConnectionClosedError)
        finally:
            sock.close()
        assert broker.roundtrip_failures == []


def test_track_expects_responses_to_requests_written_elsewhere():
    """A proxy forwards a client's request bytes unchanged and reads the answer itself."""
    writer, server = ClientConnection(first_correlation_id=40), ServerConnection()
    proxy = ClientConnection(max_in_flight=2)
    (event,) = server.receive_data(writer.send(metadata_request(), version=11)[1])
    proxy.track(event.correlation_id, event.api_key, event.version, event.message)
    with pytest.raises(errors.ConnectionStateError, match="already waiting"):
        proxy.track(event.correlation_id, event.api_key, event.version)
    proxy.track(41, 0, 9, produce_request(acks=0))  # no response comes: not tracked
    assert proxy.in_flight == 1
    (answer,) = proxy.receive_data(server.respond(event, metadata_response("via proxy")))
    assert (answer.correlation_id, answer.version, answer.message.cluster_id) == (40, 11, "via proxy")


def test_events_are_frozen_slotted_and_keyword_only():
    client, server = ClientConnection(), ServerConnection()
    _, data = client.api_versions_request()
    (event,) = server.receive_data(data)
    with pytest.raises(dataclasses.FrozenInstanceError):
        event.sequence = 7
    assert not hasattr(event, "__dict__")
    with pytest.raises(TypeError):
        SaslTokenReceived(b"token")  # keyword-only: SaslTokenReceived(token=b"token")
    assert repr(SaslTokenReceived(token=b"t", sequence=1)) == "SaslTokenReceived(token=b't', sequence=1)"
    twin = dataclasses.replace(event)
    assert twin is not event and twin != event  # events compare by identity


def test_each_end_moves_only_along_its_table():
    from kafkawire.connection.state import CLIENT_MOVES, SERVER_MOVES, ServerPhase

    assert set(CLIENT_MOVES) == set(ClientPhase) and set(SERVER_MOVES) == set(ServerPhase)
    client, server = ClientConnection(), ServerConnection()
    assert (client.phase, server.phase) == (ClientPhase.NEGOTIATING, ServerPhase.REQUESTS)
    handshake(client, server)
    assert client.phase is ClientPhase.READY
    client.begin_sasl_tokens()
    assert client.phase is ClientPhase.BARE_TOKENS
    client.end_sasl_tokens()
    assert client.phase is ClientPhase.READY
    client.connection_lost()
    assert client.phase is ClientPhase.CLOSED
    with pytest.raises(errors.ConnectionClosedError, match="cannot switch to bare SASL tokens on a closed"):
        client.begin_sasl_tokens()  # a closed connection goes nowhere
    server.begin_sasl_tokens()
    assert server.phase is ServerPhase.SASL_TOKENS
    server.end_sasl_tokens()
    server.end_sasl_tokens()  # after a SaslHandshake v1 a broker ends a mode it never began
    assert server.phase is ServerPhase.REQUESTS
    server.connection_lost()
    server.end_sasl_tokens()  # a handler may still run for a request received before
    assert server.phase is ServerPhase.CLOSED
