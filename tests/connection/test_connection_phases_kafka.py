"""The client's phase table against Apache Kafka 4.4's SASL listener: every move that
can happen on the wire (ApiVersions answered before, inside and without an exchange, the
SaslHandshake answered at v0 and v1, each SASL round, success, a refusal, the broker
closing with a request waiting) is made by Kafka's own bytes, one response frame at a
time, and after each the connection is in the phase the table gives for the moves that
frame made."""

from __future__ import annotations

import functools
import socket
import struct
from typing import Iterable, List

import pytest

from kafkawire.protocol import messages as M
from kafkawire import sasl
from kafkawire.connection import (
    Authenticated,
    AuthenticationFailed,
    ClientConnection,
    ClientPhase,
    RequestFailed,
    ResponseEvent,
)
from kafkawire.connection.state import CLIENT_MOVES, ClientMove
from kafkawire.errors import ConnectionClosedError

pytestmark = [pytest.mark.kafka, pytest.mark.timeout(180), pytest.mark.in_process]

CM = ClientMove


def after(phase: ClientPhase, moves: Iterable[ClientMove]) -> ClientPhase:
    """Where the table says ``moves`` lead from ``phase``."""
    return functools.reduce(lambda p, m: CLIENT_MOVES[p][m], moves, phase)


class Wire:
    """A ClientConnection on a socket to Kafka's SASL listener, fed one frame at a time
    so that each receive makes the moves of one answer."""

    def __init__(self, kafka_broker, mechanism: str, password: str) -> None:
        self.sock = socket.create_connection((kafka_broker.host, kafka_broker.sasl_port), timeout=60)
        self.conn = ClientConnection("phases", sasl=sasl.client_for(mechanism, "alice", password))

    def _exactly(self, n: int) -> bytes:
        out = b""
        while len(out) < n:
            chunk = self.sock.recv(n - len(out))
            if not chunk:
                return out
            out += chunk
        return out

    def step(self, moves: List[ClientMove], action):
        """Run ``action``; the connection must land where ``moves`` lead."""
        before = self.conn.phase
        result = action()
        assert self.conn.phase is after(before, moves), (before, moves)
        return result

    def frame(self, moves: List[ClientMove]) -> list:
        """Feed the next answer frame, which makes ``moves``; write the SASL step it asks."""
        size = self._exactly(4)
        if len(size) < 4:
            return self.step(moves, lambda: self.conn.connection_lost("Kafka closed the connection"))
        payload = self._exactly(struct.unpack(">i", size)[0])
        events = self.step(moves, lambda: self.conn.receive_data(size + payload))
        step = self.conn.data_to_send()
        if step:
            self.sock.sendall(step)
        return events

    def send(self, move: ClientMove, action) -> int:
        """Send what ``action`` makes (a request, or the exchange's handshake), which
        makes ``move``; returns the request's correlation id, if any."""
        sent = self.step([move], action)
        correlation_id, data = sent if isinstance(sent, tuple) else (None, sent)
        self.sock.sendall(data)
        return correlation_id

    def rounds(self) -> list:
        """The exchange's rounds after its handshake, to the one that ends it: each
        answer is a RECEIVE, the last one also AUTHENTICATED or CLOSE (a refusal)."""
        for _ in range(5):
            before = self.conn.phase
            size = self._exactly(4)
            payload = self._exactly(struct.unpack(">i", size)[0])
            events = self.conn.receive_data(size + payload)
            ended = [CM.AUTHENTICATED] if any(isinstance(e, Authenticated) for e in events) else []
            ended += [CM.CLOSE] if any(isinstance(e, AuthenticationFailed) for e in events) else []
            assert self.conn.phase is after(before, [CM.RECEIVE] + ended), (before, events)
            if ended:
                return events
            self.sock.sendall(self.conn.data_to_send())
        raise AssertionError("the exchange did not end")

    def close(self) -> None:
        self.sock.close()


@pytest.fixture
def wire(kafka_broker, request):
    mechanism, password = request.param
    w = Wire(kafka_broker, mechanism, kafka_broker.users["alice"] if password is None else password)
    yield w
    w.close()


RIGHT = [("PLAIN", None), ("SCRAM-SHA-256", None)]


@pytest.mark.parametrize("handshake_version", [0, 1])
@pytest.mark.parametrize("wire", RIGHT, indirect=True, ids=lambda p: p[0])
def test_versions_then_an_exchange_then_kafka_closing_with_a_request_waiting(wire, handshake_version):
    c = wire.conn
    assert c.phase is ClientPhase.UNAUTHENTICATED_BEFORE_VERSIONS
    wire.send(CM.SEND_API_VERSIONS, c.api_versions_request)
    (answer,) = wire.frame([CM.RECEIVE, CM.VERSIONS_ANSWERED])
    assert isinstance(answer, ResponseEvent) and c.phase is ClientPhase.UNAUTHENTICATED
    wire.send(CM.AUTHENTICATE, lambda: c.authenticate(handshake_version=handshake_version))
    answered = CM.HANDSHAKE_V0_ANSWERED if handshake_version == 0 else CM.HANDSHAKE_ANSWERED
    assert wire.frame([CM.RECEIVE, answered]) == []
    (done,) = wire.rounds()
    assert isinstance(done, Authenticated) and c.phase is ClientPhase.READY
    metadata = M.MetadataRequest(topics=None)
    first = wire.send(CM.SEND, lambda: c.send(metadata))
    garbage = struct.pack(">hhih", 9999, 0, 2, 0)  # an API key Kafka does not have: it closes
    wire.sock.sendall(struct.pack(">i", len(garbage)) + garbage)
    waiting = wire.send(CM.SEND, lambda: c.send(metadata))
    (answer,) = wire.frame([CM.RECEIVE])
    assert answer.correlation_id == first and c.phase is ClientPhase.READY
    (failed,) = wire.frame([CM.CLOSE])  # Kafka closed with the second request waiting
    assert isinstance(failed, RequestFailed) and failed.correlation_id == waiting
    with pytest.raises(ConnectionClosedError):
        c.send(metadata)  # CLOSED has no SEND: refused
    assert CM.SEND not in CLIENT_MOVES[ClientPhase.CLOSED] and c.phase is ClientPhase.CLOSED


@pytest.mark.parametrize("wire", RIGHT, indirect=True, ids=lambda p: p[0])
def test_versions_answered_inside_an_exchange_started_before_them(wire):
    c = wire.conn
    wire.send(CM.SEND_API_VERSIONS, c.api_versions_request)
    wire.send(CM.AUTHENTICATE, c.authenticate)
    assert c.phase is ClientPhase.SASL_HANDSHAKE_BEFORE_VERSIONS
    wire.frame([CM.RECEIVE, CM.VERSIONS_ANSWERED])
    assert c.phase is ClientPhase.SASL_HANDSHAKE
    wire.frame([CM.RECEIVE, CM.HANDSHAKE_ANSWERED])
    (done,) = wire.rounds()
    assert isinstance(done, Authenticated) and c.phase is ClientPhase.READY


@pytest.mark.parametrize("wire", RIGHT, indirect=True, ids=lambda p: p[0])
def test_an_exchange_without_versions_ends_negotiating(wire):
    c = wire.conn
    wire.send(CM.AUTHENTICATE, lambda: c.authenticate(handshake_version=0))
    wire.frame([CM.RECEIVE, CM.HANDSHAKE_V0_ANSWERED])
    assert c.phase is ClientPhase.SASL_TOKENS_BEFORE_VERSIONS
    (done,) = wire.rounds()
    assert isinstance(done, Authenticated) and c.phase is ClientPhase.NEGOTIATING
    wire.send(CM.SEND_API_VERSIONS, c.api_versions_request)
    wire.frame([CM.RECEIVE, CM.VERSIONS_ANSWERED])
    assert c.phase is ClientPhase.READY


@pytest.mark.parametrize("wire", [("SCRAM-SHA-256", "wrong")], indirect=True, ids=lambda p: p[0])
def test_a_refusal_closes_from_the_exchange_and_kafka_closing_after_keeps_it_closed(wire):
    c = wire.conn
    wire.send(CM.AUTHENTICATE, lambda: c.authenticate(handshake_version=1))
    wire.frame([CM.RECEIVE, CM.HANDSHAKE_ANSWERED])
    (failed,) = wire.rounds()
    assert isinstance(failed, AuthenticationFailed) and "Authentication failed" in str(failed.error)
    assert c.phase is ClientPhase.CLOSED
    assert wire.frame([CM.CLOSE]) == []  # Kafka's close after its refusal: lost again
