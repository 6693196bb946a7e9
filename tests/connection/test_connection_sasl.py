"""SASL through kafkawire.connection.ClientConnection, on both backends: the phases
(ApiVersions -> SaslHandshake -> authenticate -> ready), the two framings (SaslAuthenticate
requests after a v1 handshake, bare size-prefixed tokens after v0), refusals, hostile
answers, re-authentication with requests in flight, and random splits of both byte
streams.  The broker end is ServerConnection with kafkawire.sasl.ServerSession, the test
broker's own request handling; the same client against Kafka 4.4 is in
test_sasl_kafka.py."""

from __future__ import annotations

import random
import struct

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from kafkawire import errors
from kafkawire.protocol import messages as M
from kafkawire import sasl
from kafkawire.connection import (
    Authenticated,
    AuthenticationFailed,
    ClientConnection,
    ClientPhase,
    RequestFailed,
    ResponseEvent,
    SaslTokenReceived,
    ServerConnection,
)
from kafkawire.protocol.requests import decode_request

pytestmark = [pytest.mark.timeout(120), pytest.mark.in_process]

USERS = {"alice": "alice-secret", "bob": "bob-secret"}
MECHANISMS = ["PLAIN", "SCRAM-SHA-256", "SCRAM-SHA-512"]
# SCRAM credentials cost a PBKDF2 each: made once
CREDENTIALS = {m: {u: sasl.scram_credential(m, p) for u, p in USERS.items()} for m in sasl.SCRAM_MECHANISMS}
SETTINGS = dict(deadline=None, suppress_health_check=list(HealthCheck), database=None)


class Broker:
    """A broker's end in memory: answers ApiVersions, the SASL exchange (as the test
    broker does, closing the connection on a refusal), and Metadata."""

    def __init__(self, mechanisms=MECHANISMS) -> None:
        self.conn = ServerConnection()
        servers = {"PLAIN": lambda: sasl.PlainServer(USERS)}
        for m in sasl.SCRAM_MECHANISMS:
            servers[m] = lambda m=m: sasl.ScramServer(m, CREDENTIALS[m])
        self.session = sasl.ServerSession({m: servers[m] for m in mechanisms}, session_lifetime_ms=60000)
        self.closed = False
        self.held = []  # Metadata requests whose answer the test releases itself

    def receive(self, data: bytes, hold_metadata: bool = False) -> bytes:
        out = b""
        for event in self.conn.receive_data(data):
            if isinstance(event, SaslTokenReceived):
                try:
                    reply = self.session.raw_token(event.token)
                except errors.SaslError:
                    self.closed = True  # a refusal after a v0 handshake: just close
                    return out
                if not self.session.expects_raw_token:
                    self.conn.end_sasl_tokens()
                out += self.conn.respond(event, reply)
            elif event.api_key == 18:
                out += self.conn.respond(event, self.conn.api_versions_response())
            elif event.api_key == 17:
                answer = self.session.handshake(event.message, event.version)
                if not self.session.expects_raw_token:
                    self.conn.end_sasl_tokens()
                out += self.conn.respond(event, answer)
            elif event.api_key == 36:
                out += self.conn.respond(event, self.session.authenticate(event.message, event.version))
            else:
                assert event.api_key == 3 and self.session.authenticated
                if hold_metadata:
                    self.held.append(event)
                else:
                    out += self.conn.respond(event, metadata_response(event))
            if self.session.failure is not None:
                self.closed = True
                return out
        return out

    def release(self) -> bytes:
        out = b"".join(self.conn.respond(e, metadata_response(e)) for e in self.held)
        self.held = []
        return out


def metadata_request(name: str = "t"):
    return M.MetadataRequest(
        topics=[M.MetadataRequest.MetadataRequestTopic(name=name)], allow_auto_topic_creation=False
    )


def metadata_response(event):
    return M.MetadataResponse(cluster_id=event.message.topics[0].name, brokers=[], topics=[])


def negotiate(client: ClientConnection, broker: Broker) -> None:
    _, data = client.api_versions_request()
    (answer,) = client.receive_data(broker.receive(data))
    assert isinstance(answer, ResponseEvent) and client.negotiated is not None


def run_exchange(client: ClientConnection, broker: Broker, data: bytes) -> list:
    """Carry bytes both ways until the exchange ends (or the broker closes)."""
    for _ in range(10):
        answer = broker.receive(data)
        events = client.receive_data(answer) if answer else []
        if broker.closed and not events:
            events = client.connection_lost("the broker closed the connection")
        if events:
            return events
        data = client.data_to_send()
    raise AssertionError("the exchange did not end")


@pytest.mark.parametrize("handshake_version", [0, 1])
@pytest.mark.parametrize("mechanism", MECHANISMS)
def test_phases_then_pipelined_requests(mechanism, handshake_version):
    client = ClientConnection("app", sasl=sasl.client_for(mechanism, "alice", "alice-secret"))
    broker = Broker()
    assert client.phase is ClientPhase.UNAUTHENTICATED_BEFORE_VERSIONS
    with pytest.raises(errors.AuthenticationRequiredError, match="before SASL authentication"):
        client.send(metadata_request())
    negotiate(client, broker)
    assert client.phase is ClientPhase.UNAUTHENTICATED  # negotiated, not yet authenticated
    with pytest.raises(errors.AuthenticationRequiredError):
        client.send(metadata_request())
    with pytest.raises(errors.AuthenticationRequiredError):  # the exchange is the connection's
        client.send(M.SaslHandshakeRequest(mechanism="PLAIN"))
    data = client.authenticate(handshake_version=handshake_version)
    with pytest.raises(errors.AuthenticationRequiredError, match="under way"):
        client.send(metadata_request())
    (done,) = run_exchange(client, broker, data)
    assert isinstance(done, Authenticated)
    assert (done.mechanism, done.handshake_version, done.broker_mechanisms) == (
        mechanism,
        handshake_version,
        MECHANISMS,
    )
    assert done.session_lifetime_ms == (60000 if handshake_version else 0)
    assert client.phase is ClientPhase.READY and client.authenticated and broker.session.principal == "alice"
    names = [f"after-{i}" for i in range(5)]
    sent = [client.send(metadata_request(n)) for n in names]
    events = client.receive_data(broker.receive(b"".join(d for _, d in sent)))
    assert [(e.correlation_id, e.message.cluster_id) for e in events] == [
        (cid, n) for (cid, _), n in zip(sent, names)
    ]


def test_v0_tokens_are_bare_size_prefixed_frames():
    client = ClientConnection(sasl=sasl.PlainClient("alice", "alice-secret"))
    broker = Broker()
    handshake = client.authenticate(handshake_version=0)
    assert client.data_to_send() == b""  # nothing more until the handshake is answered
    assert client.receive_data(broker.receive(handshake)) == []
    assert client.phase is ClientPhase.SASL_TOKENS_BEFORE_VERSIONS
    token = b"\x00alice\x00alice-secret"
    assert client.data_to_send() == struct.pack(">i", len(token)) + token  # no Kafka header
    with pytest.raises(errors.ConnectionStateError, match="own SASL exchange"):
        client.send_sasl_token(b"x")


def test_v1_tokens_ride_in_sasl_authenticate_with_the_next_correlation_id():
    client = ClientConnection("app", sasl=sasl.PlainClient("alice", "alice-secret"), first_correlation_id=41)
    broker = Broker()
    handshake = client.authenticate(handshake_version=1)
    header, request = decode_request(handshake[4:])
    assert (header.request_api_key, header.request_api_version, header.correlation_id) == (17, 1, 41)
    assert request.mechanism == "PLAIN" and client.in_flight == 1
    assert client.receive_data(broker.receive(handshake)) == []
    header, request = decode_request(client.data_to_send()[4:])
    assert (header.request_api_key, header.correlation_id, header.client_id) == (36, 42, "app")
    assert request.auth_bytes == b"\x00alice\x00alice-secret"
    assert client.next_correlation_id == 43


@pytest.mark.parametrize("mechanism", MECHANISMS)
def test_a_wrong_password_is_an_authentication_failed_event(mechanism):
    client = ClientConnection(sasl=sasl.client_for(mechanism, "alice", "wrong"))
    broker = Broker()
    negotiate(client, broker)
    (failed,) = run_exchange(client, broker, client.authenticate(handshake_version=1))
    assert isinstance(failed, AuthenticationFailed) and failed.mechanism == mechanism
    assert isinstance(failed.error, errors.SaslAuthenticationError)
    assert "Authentication failed" in str(failed.error)
    assert client.phase is ClientPhase.CLOSED and client.in_flight == 0
    with pytest.raises(errors.ConnectionClosedError, match="Authentication failed"):
        client.send(metadata_request())


def test_a_wrong_password_after_a_v0_handshake_fails_when_the_broker_closes():
    client = ClientConnection(sasl=sasl.client_for("SCRAM-SHA-256", "alice", "wrong"))
    (failed,) = run_exchange(client, Broker(), client.authenticate(handshake_version=0))
    assert isinstance(failed, AuthenticationFailed)
    assert isinstance(failed.error, errors.SaslAuthenticationError)
    assert "after SaslHandshake v0" in str(failed.error)


def test_a_mechanism_the_broker_lacks_names_the_ones_it_has():
    client = ClientConnection(sasl=sasl.PlainClient("alice", "alice-secret"))
    broker = Broker(mechanisms=["SCRAM-SHA-512"])
    (failed,) = run_exchange(client, broker, client.authenticate())
    assert isinstance(failed.error, errors.SaslMechanismError)
    assert "offers SCRAM-SHA-512" in str(failed.error) and client.broker_mechanisms == ["SCRAM-SHA-512"]


def authenticated(user: str = "alice", mechanism: str = "SCRAM-SHA-256"):
    client = ClientConnection(sasl=sasl.client_for(mechanism, user, USERS[user]))
    broker = Broker()
    negotiate(client, broker)
    (done,) = run_exchange(client, broker, client.authenticate())
    assert isinstance(done, Authenticated)
    return client, broker


def test_reauthentication_keeps_requests_in_flight_matched():
    client, broker = authenticated()
    sent = b"".join(client.send(metadata_request(f"m{i}"))[1] for i in range(3))
    assert broker.receive(sent, hold_metadata=True) == b""
    handshake = client.authenticate(sasl.client_for("SCRAM-SHA-256", "alice", "alice-secret"))
    assert client.phase is ClientPhase.SASL_HANDSHAKE and client.in_flight == 4
    with pytest.raises(errors.AuthenticationRequiredError):
        client.send(metadata_request())
    broker.receive(handshake)  # answered after the three Metadata: held back in order
    events = client.receive_data(broker.release())
    assert [e.message.cluster_id for e in events] == ["m0", "m1", "m2"]
    (done,) = run_exchange(client, broker, client.data_to_send())
    assert isinstance(done, Authenticated) and client.phase is ClientPhase.READY
    with pytest.raises(errors.ConnectionStateError, match="KIP-368"):
        client.authenticate(sasl.PlainClient("alice", "alice-secret"), handshake_version=0)


def test_nothing_pending_is_lost_when_a_reauthentication_fails():
    client, broker = authenticated()
    sent = b"".join(client.send(metadata_request(f"m{i}"))[1] for i in range(2))
    broker.receive(sent, hold_metadata=True)
    client.authenticate(sasl.client_for("SCRAM-SHA-256", "alice", "alice-secret"))
    events = client.connection_lost()
    assert [type(e) for e in events] == [AuthenticationFailed, RequestFailed, RequestFailed]
    assert [e.request.topics[0].name for e in events[1:]] == ["m0", "m1"]
    assert all(isinstance(e.error, errors.SaslAuthenticationError) for e in events)
    assert client.in_flight == 0 and client.phase is ClientPhase.CLOSED


def test_an_exchange_past_its_deadline_fails_and_closes():
    client = ClientConnection(sasl=sasl.PlainClient("alice", "alice-secret"))
    client.authenticate(handshake_version=0, deadline=10.0)
    assert client.expire(9.0) == []
    (failed,) = client.expire(10.0)
    assert isinstance(failed, AuthenticationFailed) and isinstance(failed.error, errors.RequestTimedOutError)
    assert client.phase is ClientPhase.CLOSED


# -- hostile answers: a specific error event, never a crash ----------------------------------


def test_a_garbage_scram_challenge_after_v0_is_a_malformed_error():
    client = ClientConnection(sasl=sasl.ScramClient("SCRAM-SHA-256", "alice", "alice-secret"))
    broker = Broker()
    client.receive_data(broker.receive(client.authenticate(handshake_version=0)))
    client.data_to_send()
    (failed,) = client.receive_data(struct.pack(">i", 5) + b"r=,,,")
    assert isinstance(failed, AuthenticationFailed) and isinstance(failed.error, errors.SaslMalformedError)


def test_an_oversized_frame_during_the_exchange_is_a_token_too_large_error():
    client = ClientConnection(sasl=sasl.PlainClient("alice", "alice-secret"), max_frame_size=1024)
    client.authenticate()
    (failed,) = client.receive_data(struct.pack(">i", 1 << 20))
    assert isinstance(failed.error, errors.SaslTokenTooLarge)


def test_an_authenticate_answer_that_does_not_decode_fails_the_exchange():
    client = ClientConnection(sasl=sasl.PlainClient("alice", "alice-secret"))
    broker = Broker()
    assert client.receive_data(broker.receive(client.authenticate())) == []
    header, _ = decode_request(client.data_to_send()[4:])
    truncated = struct.pack(">ii", 5, header.correlation_id) + b"\x00"
    (failed,) = client.receive_data(truncated)
    assert isinstance(failed, AuthenticationFailed) and isinstance(failed.error, errors.DecodeError)


def test_misuse_raises_specific_errors():
    client = ClientConnection()
    with pytest.raises(errors.ConnectionStateError, match="no SASL mechanism"):
        client.authenticate()
    mechanism = sasl.PlainClient("alice", "alice-secret")
    client.authenticate(mechanism)
    with pytest.raises(errors.ConnectionStateError, match="already under way"):
        client.authenticate(mechanism)
    spent, _ = authenticated(mechanism="PLAIN")
    with pytest.raises(errors.SaslStateError, match="make a new one"):
        spent.authenticate()


def test_sasl_client_session_is_the_connection_doing_the_exchange_alone():
    session = sasl.ClientSession(sasl.ScramClient("SCRAM-SHA-512", "alice", "alice-secret"), correlation_id=7)
    broker = Broker()
    data = session.data_to_send()
    assert decode_request(data[4:])[0].correlation_id == 7
    while not session.done:
        session.receive_data(broker.receive(data))
        data = session.data_to_send()
    assert session.broker_mechanisms == MECHANISMS and session.session_lifetime_ms == 60000
    assert session.connection.authenticated and session.connection.in_flight == 0


# -- random splits of both streams ---------------------------------------------------------------


@settings(max_examples=30, **SETTINGS)
@given(
    seed=st.integers(0, 2**32 - 1),
    mechanism=st.sampled_from(MECHANISMS),
    handshake_version=st.sampled_from([0, 1]),
    right=st.booleans(),
)
def test_random_splits_end_in_exactly_one_outcome(backend, seed, mechanism, handshake_version, right):
    rnd = random.Random(seed)
    client = ClientConnection(sasl=sasl.client_for(mechanism, "bob", USERS["bob"] if right else "nope"))
    broker = Broker()
    to_broker, to_client = client.api_versions_request()[1], b""
    outcomes = []
    for _ in range(400):
        if outcomes or (broker.closed and not to_client):
            break
        if to_broker and (not to_client or rnd.random() < 0.5):
            cut = rnd.randint(1, len(to_broker))
            to_client += broker.receive(to_broker[:cut])
            to_broker = to_broker[cut:]
            continue
        if not to_client:
            break
        cut = rnd.randint(1, len(to_client))
        for event in client.receive_data(to_client[:cut]):
            if isinstance(event, ResponseEvent) and event.api_key == 18:
                to_broker += client.authenticate(handshake_version=handshake_version)
            else:
                outcomes.append(event)
        to_client = to_client[cut:]
        to_broker += client.data_to_send()
    if not outcomes:
        assert broker.closed
        outcomes = client.connection_lost("the broker closed the connection")
    (outcome,) = outcomes
    if right:
        assert isinstance(outcome, Authenticated) and client.phase is ClientPhase.READY
        cid, data = client.send(metadata_request("after"))
        (answer,) = client.receive_data(broker.receive(data))
        assert (answer.correlation_id, answer.message.cluster_id) == (cid, "after")
    else:
        assert isinstance(outcome, AuthenticationFailed)
        assert isinstance(outcome.error, errors.SaslAuthenticationError)
        assert client.phase is ClientPhase.CLOSED and client.in_flight == 0
