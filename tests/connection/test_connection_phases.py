"""The phase tables of kafkawire.connection, walked pair by pair on both backends: each
end is brought into every phase through its public methods, then each move is made
there through its public methods; the connection must land in the phase the table
gives, or refuse with a kafkawire error and stay where it was.  The same walk over
Kafka 4.4's SASL listener is in test_connection_phases_kafka.py."""

from __future__ import annotations

import dataclasses
from typing import Callable, Dict, Optional

import pytest

from kafkawire import errors
from kafkawire.protocol import messages as M
from kafkawire import sasl
from kafkawire.connection import (
    SASL_RESERVED_MIN,
    AuthenticationFailed,
    ClientConnection,
    ClientPhase,
    SaslTokenReceived,
    ServerConnection,
    ServerPhase,
)
from kafkawire.connection.state import (
    CLIENT_MOVES,
    SASL_EXCHANGE,
    SASL_OWED,
    SERVER_MOVES,
    TOKEN_FRAMES,
    ClientMove,
    ServerMove,
)
from kafkawire.protocol.requests import encode_response

from test_connection_sasl import Broker, metadata_request

pytestmark = [pytest.mark.timeout(120), pytest.mark.in_process]

P = ClientPhase
CM = ClientMove
BEFORE_VERSIONS = {p for p in P if p.name.endswith("_BEFORE_VERSIONS")} | {P.NEGOTIATING}
TRACKED_ID = SASL_RESERVED_MIN  # an id the connection never numbers a request of its own with


@dataclasses.dataclass
class Walk:
    """A client in some phase, the broker beside it, and what the exchange left to send."""

    client: ClientConnection
    broker: Broker
    handshake: bytes = b""  # the exchange's SaslHandshake, not yet delivered
    handshake_version: int = 1

    def negotiate(self) -> None:
        _, data = self.client.api_versions_request()
        self.client.receive_data(self.broker.receive(data))


def reach(phase: ClientPhase, handshake_version: int = 1) -> Walk:
    """A client brought into ``phase`` by its public methods alone."""
    owed = phase in SASL_EXCHANGE | SASL_OWED
    walk = Walk(
        ClientConnection("walk", sasl=sasl.PlainClient("alice", "alice-secret") if owed else None),
        Broker(),
        handshake_version=0 if phase.name.startswith("SASL_TOKENS") else handshake_version,
    )
    if phase is P.CLOSED:
        walk.client.connection_lost()
    elif phase not in BEFORE_VERSIONS:
        walk.negotiate()
    if phase in SASL_EXCHANGE:
        walk.handshake = walk.client.authenticate(handshake_version=walk.handshake_version)
        if not phase.name.startswith("SASL_HANDSHAKE"):
            deliver_handshake(walk)
    if phase in TOKEN_FRAMES - SASL_EXCHANGE:
        walk.client.begin_sasl_tokens()
    assert walk.client.phase is phase
    agrees(walk.client)
    return walk


def agrees(client: ClientConnection) -> None:
    """The phase against what the connection holds besides it: the ApiVersions answer,
    and the exchange's request waiting for its answer."""
    phase = client.phase
    if phase is not P.CLOSED:
        assert (client.negotiated is None) == (phase in BEFORE_VERSIONS), phase
    waiting = {type(r) for r in client.pending.values()}
    assert (M.SaslHandshakeRequest in waiting) == phase.name.startswith("SASL_HANDSHAKE"), phase
    if M.SaslAuthenticateRequest in waiting:
        assert phase.name.startswith("SASL_AUTHENTICATE"), phase


def deliver_handshake(walk: Walk) -> None:
    """The exchange's SaslHandshake reaches the broker and its answer comes back."""
    assert walk.client.receive_data(walk.broker.receive(walk.handshake)) == []


def versions_answered(walk: Walk) -> list:
    """The answer to an ApiVersions request the connection was told to expect."""
    walk.client.track(TRACKED_ID, 18, 3)
    answer = encode_response(walk.broker.conn.api_versions_response(), 3, TRACKED_ID)
    return walk.client.receive_data(answer)


def authenticated(walk: Walk) -> list:
    """The exchange's token reaches the broker and its (last) answer comes back."""
    return walk.client.receive_data(walk.broker.receive(walk.client.data_to_send()))


#: move -> how a test makes it happen through the public methods
CLIENT_TRIGGERS: Dict[ClientMove, Callable[[Walk], object]] = {
    CM.SEND_API_VERSIONS: lambda w: w.client.api_versions_request(),
    CM.SEND: lambda w: w.client.send(metadata_request()),
    CM.TRACK: lambda w: w.client.track(TRACKED_ID, 3, 12),
    CM.RECEIVE: lambda w: w.client.receive_data(b""),
    CM.VERSIONS_ANSWERED: versions_answered,
    CM.AUTHENTICATE: lambda w: w.client.authenticate(sasl.PlainClient("alice", "alice-secret")),
    CM.HANDSHAKE_ANSWERED: deliver_handshake,
    CM.HANDSHAKE_V0_ANSWERED: deliver_handshake,
    CM.BARE_TOKENS: lambda w: w.client.begin_sasl_tokens(),
    CM.SEND_TOKEN: lambda w: w.client.send_sasl_token(b"token"),
    CM.TOKENS_ENDED: lambda w: w.client.end_sasl_tokens(),
    CM.AUTHENTICATED: authenticated,
    CM.CLOSE: lambda w: w.client.connection_lost(),
}


def arises(phase: ClientPhase, move: ClientMove) -> bool:
    """Whether ``move`` can happen in ``phase`` at all: the exchange's answers come only
    while its requests wait, and in token mode every frame is a SASL token."""
    if phase is P.CLOSED:
        return True  # every move is tried, and all but CLOSE are refused
    if move in (CM.HANDSHAKE_ANSWERED, CM.HANDSHAKE_V0_ANSWERED):
        return phase.name.startswith("SASL_HANDSHAKE")
    if move is CM.AUTHENTICATED:
        return phase in SASL_EXCHANGE and not phase.name.startswith("SASL_HANDSHAKE")
    if move is CM.VERSIONS_ANSWERED:
        return phase not in TOKEN_FRAMES
    return True


@pytest.mark.parametrize("move", list(ClientMove), ids=lambda m: m.name)
@pytest.mark.parametrize("phase", list(ClientPhase), ids=lambda p: p.name)
def test_every_client_move_lands_where_the_table_says_or_is_refused(phase, move):
    expected = CLIENT_MOVES[phase].get(move)
    if not arises(phase, move):
        assert expected is None, f"the table moves {phase.name} by {move.name}, which cannot happen there"
        return
    walk = reach(phase, handshake_version=0 if move is CM.HANDSHAKE_V0_ANSWERED else 1)
    trigger = CLIENT_TRIGGERS[move]
    if expected is None:
        with pytest.raises(errors.KafkaWireError) as refused:
            trigger(walk)
        assert walk.client.phase is phase
        wanted = errors.ConnectionClosedError if phase is P.CLOSED else errors.ConnectionStateError
        assert isinstance(refused.value, wanted)
    else:
        trigger(walk)
        assert walk.client.phase is expected
        agrees(walk.client)


def test_each_refusal_names_why():
    """The refusals a user meets: closed, an exchange under way, SASL owed, token mode."""
    cases = [
        (P.CLOSED, CM.SEND, errors.ConnectionClosedError, "closed connection: the connection was lost"),
        (P.SASL_AUTHENTICATE, CM.SEND, errors.AuthenticationRequiredError, "PLAIN SASL exchange is under"),
        (P.SASL_HANDSHAKE, CM.AUTHENTICATE, errors.ConnectionStateError, "already under way"),
        (P.SASL_TOKENS, CM.SEND_TOKEN, errors.ConnectionStateError, "own SASL exchange"),
        (P.UNAUTHENTICATED, CM.SEND, errors.AuthenticationRequiredError, "before SASL authentication"),
        (P.UNAUTHENTICATED, CM.BARE_TOKENS, errors.AuthenticationRequiredError, "before SASL authentication"),
        (P.BARE_TOKENS, CM.SEND, errors.ConnectionStateError, "use send_sasl_token"),
        (P.READY, CM.SEND_TOKEN, errors.ConnectionStateError, "only after a SaslHandshake v0"),
    ]
    for phase, move, error, message in cases:
        with pytest.raises(error, match=message):
            CLIENT_TRIGGERS[move](reach(phase))


def test_an_answer_in_token_mode_is_a_token():
    """Why no answer moves a connection in token mode: the frame is read as a token."""
    walk = reach(P.BARE_TOKENS)
    (event,) = versions_answered(walk)
    assert isinstance(event, SaslTokenReceived) and walk.client.phase is P.BARE_TOKENS


def test_versions_answered_during_an_exchange_end_it_ready():
    """An ApiVersions sent before authenticate() and answered inside the exchange: the
    exchange goes on, and ends ready rather than negotiating."""
    walk = Walk(ClientConnection(sasl=sasl.PlainClient("alice", "alice-secret")), Broker())
    _, versions = walk.client.api_versions_request()
    walk.handshake = walk.client.authenticate()
    assert walk.client.phase is P.SASL_HANDSHAKE_BEFORE_VERSIONS
    walk.client.receive_data(walk.broker.receive(versions + walk.handshake))
    assert walk.client.phase is P.SASL_AUTHENTICATE
    authenticated(walk)
    assert walk.client.phase is P.READY


def test_a_failed_exchange_closes_from_each_of_its_phases():
    for phase in sorted(SASL_EXCHANGE, key=lambda p: p.name):
        walk = reach(phase)
        (failed,) = walk.client.connection_lost()
        assert isinstance(failed, AuthenticationFailed) and walk.client.phase is P.CLOSED


# -- the server end ------------------------------------------------------------------------


def reach_server(phase: ServerPhase) -> ServerConnection:
    server = ServerConnection()
    if phase is ServerPhase.SASL_TOKENS:
        server.begin_sasl_tokens()
    elif phase is ServerPhase.CLOSED:
        server.connection_lost()
    assert server.phase is phase
    return server


def _handshake_v0() -> bytes:
    _, data = ClientConnection().send(M.SaslHandshakeRequest(mechanism="PLAIN"), version=0)
    return data


SERVER_TRIGGERS: Dict[ServerMove, Callable[[ServerConnection], object]] = {
    ServerMove.RECEIVE: lambda s: s.receive_data(b""),
    ServerMove.BARE_TOKENS: lambda s: s.begin_sasl_tokens(),
    ServerMove.TOKENS_ENDED: lambda s: s.end_sasl_tokens(),
    ServerMove.CLOSE: lambda s: s.connection_lost(),
}


@pytest.mark.parametrize("move", list(ServerMove), ids=lambda m: m.name)
@pytest.mark.parametrize("phase", list(ServerPhase), ids=lambda p: p.name)
def test_every_server_move_lands_where_the_table_says_or_is_refused(phase, move):
    server = reach_server(phase)
    expected: Optional[ServerPhase] = SERVER_MOVES[phase].get(move)
    if expected is None:
        with pytest.raises(errors.ConnectionClosedError):
            SERVER_TRIGGERS[move](server)
        assert server.phase is phase
    else:
        SERVER_TRIGGERS[move](server)
        assert server.phase is expected


def test_a_server_switches_to_tokens_on_a_v0_handshake_and_closes_on_an_invalid_request():
    server = reach_server(ServerPhase.REQUESTS)
    server.receive_data(_handshake_v0())
    assert server.phase is SERVER_MOVES[ServerPhase.REQUESTS][ServerMove.BARE_TOKENS]
    server.end_sasl_tokens()
    server.receive_data(b"\x00\x00\x00\x02\xff\xff")  # no room for an API version
    assert server.phase is SERVER_MOVES[ServerPhase.REQUESTS][ServerMove.CLOSE]


def test_an_asyncio_connection_is_closed_when_its_phase_is():
    """``AsyncConnection.closed``, which kafka-cluster asks before reusing a connection,
    is the phase: open after the handshake, closed once the broker has gone."""
    import asyncio

    from kafkawire.aio import open_connection
    from kafkawire.broker import Broker as TestBroker

    async def main(broker: TestBroker) -> None:
        conn = await open_connection("127.0.0.1", broker.port, client_id="phases", timeout=30)
        assert conn.protocol.phase is P.READY and not conn.closed
        broker.shutdown()  # closes its end of every connection
        for _ in range(1200):  # the read loop sees the close: at most a minute
            if conn.closed:
                break
            await asyncio.sleep(0.05)
        assert conn.protocol.phase is P.CLOSED and conn.closed
        await conn.close()

    with TestBroker() as broker:
        asyncio.run(main(broker))
