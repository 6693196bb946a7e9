"""The phases of each end of a connection, and the table that moves between them.

Each end holds one phase, and the phase is all it knows of where it is: whether
ApiVersions has answered, whether SASL is owed, which step of an exchange is under way,
whether the frames are bare SASL tokens, whether the connection is closed.  What happens
(a :class:`ClientMove` or :class:`ServerMove`) is looked up with the phase in the end's
table, which gives the one phase it leads to; a move the table does not list for the
phase is refused with a specific :mod:`kafkawire.errors` exception, and the phase stays.
"""

from __future__ import annotations

import enum
from typing import Dict, FrozenSet, Mapping

__all__ = [
    "ClientPhase",
    "ClientMove",
    "ServerPhase",
    "ServerMove",
    "CLIENT_MOVES",
    "SERVER_MOVES",
    "SASL_EXCHANGE",
    "TOKEN_FRAMES",
    "SASL_OWED",
]


class ClientPhase(enum.Enum):
    """Where a client connection is.  A ``*_BEFORE_VERSIONS`` phase is its namesake
    with no ApiVersions answer yet (an exchange may start before it and end after)."""

    NEGOTIATING = "negotiating"  # no ApiVersions answer yet; any request may go
    READY = "ready"  # negotiated; any request may go
    UNAUTHENTICATED_BEFORE_VERSIONS = "unauthenticated_before_versions"
    UNAUTHENTICATED = "unauthenticated"  # a SASL listener: only ApiVersions before authenticate()
    SASL_HANDSHAKE_BEFORE_VERSIONS = "sasl_handshake_before_versions"
    SASL_HANDSHAKE = "sasl_handshake"  # the exchange's SaslHandshake waits for its answer
    SASL_AUTHENTICATE_BEFORE_VERSIONS = "sasl_authenticate_before_versions"
    SASL_AUTHENTICATE = "sasl_authenticate"  # the tokens ride in SaslAuthenticate requests
    SASL_TOKENS_BEFORE_VERSIONS = "sasl_tokens_before_versions"
    SASL_TOKENS = "sasl_tokens"  # the exchange's tokens are bare frames (SaslHandshake v0)
    BARE_TOKENS_BEFORE_VERSIONS = "bare_tokens_before_versions"
    BARE_TOKENS = "bare_tokens"  # bare token frames by hand, until end_sasl_tokens()
    CLOSED = "closed"


class ClientMove(enum.Enum):
    """What happens to a client connection."""

    SEND_API_VERSIONS = enum.auto()  # send() of an ApiVersions request
    SEND = enum.auto()  # send() of any other request
    TRACK = enum.auto()  # track(): a request written by someone else
    RECEIVE = enum.auto()  # receive_data()
    VERSIONS_ANSWERED = enum.auto()  # ApiVersions answered without error
    AUTHENTICATE = enum.auto()  # authenticate() sent the exchange's SaslHandshake
    HANDSHAKE_ANSWERED = enum.auto()  # the exchange's SaslHandshake v1+ answered without error
    HANDSHAKE_V0_ANSWERED = enum.auto()  # the exchange's SaslHandshake v0 answered without error
    BARE_TOKENS = enum.auto()  # begin_sasl_tokens(), or a SaslHandshake v0 sent by hand answered
    SEND_TOKEN = enum.auto()  # send_sasl_token()
    TOKENS_ENDED = enum.auto()  # end_sasl_tokens()
    AUTHENTICATED = enum.auto()  # the exchange succeeded
    CLOSE = enum.auto()  # lost, broken, or a failed SASL exchange


_C = ClientPhase
_M = ClientMove
#: each phase after the ApiVersions answer, by its twin before it
_AFTER_VERSIONS: Mapping[ClientPhase, ClientPhase] = {
    _C.NEGOTIATING: _C.READY,
    _C.UNAUTHENTICATED_BEFORE_VERSIONS: _C.UNAUTHENTICATED,
    _C.SASL_HANDSHAKE_BEFORE_VERSIONS: _C.SASL_HANDSHAKE,
    _C.SASL_AUTHENTICATE_BEFORE_VERSIONS: _C.SASL_AUTHENTICATE,
    _C.SASL_TOKENS_BEFORE_VERSIONS: _C.SASL_TOKENS,
    _C.BARE_TOKENS_BEFORE_VERSIONS: _C.BARE_TOKENS,
}
_BEFORE_VERSIONS = {after: before for before, after in _AFTER_VERSIONS.items()}
_STAY = (_M.TRACK, _M.RECEIVE)  # what every open phase takes and stays in

# The moves of each phase after the ApiVersions answer: move -> the phase it leads to.
_AFTER: Mapping[ClientPhase, Mapping[ClientMove, ClientPhase]] = {
    _C.READY: {
        _M.SEND_API_VERSIONS: _C.READY,
        _M.SEND: _C.READY,
        _M.VERSIONS_ANSWERED: _C.READY,  # a later ApiVersions
        _M.AUTHENTICATE: _C.SASL_HANDSHAKE,  # a first exchange, or a KIP-368 re-authentication
        _M.BARE_TOKENS: _C.BARE_TOKENS,
        _M.TOKENS_ENDED: _C.READY,  # not in token mode: nothing to end
    },
    _C.UNAUTHENTICATED: {
        _M.SEND_API_VERSIONS: _C.UNAUTHENTICATED,
        _M.VERSIONS_ANSWERED: _C.UNAUTHENTICATED,
        _M.AUTHENTICATE: _C.SASL_HANDSHAKE,
        _M.TOKENS_ENDED: _C.UNAUTHENTICATED,
    },
    _C.SASL_HANDSHAKE: {
        _M.VERSIONS_ANSWERED: _C.SASL_HANDSHAKE,  # an ApiVersions sent before the exchange
        _M.HANDSHAKE_ANSWERED: _C.SASL_AUTHENTICATE,
        _M.HANDSHAKE_V0_ANSWERED: _C.SASL_TOKENS,
    },
    _C.SASL_AUTHENTICATE: {
        _M.VERSIONS_ANSWERED: _C.SASL_AUTHENTICATE,
        _M.AUTHENTICATED: _C.READY,
    },
    _C.SASL_TOKENS: {_M.AUTHENTICATED: _C.READY},
    _C.BARE_TOKENS: {
        _M.SEND_TOKEN: _C.BARE_TOKENS,
        _M.BARE_TOKENS: _C.BARE_TOKENS,
        _M.TOKENS_ENDED: _C.READY,
    },
}


def _before(after: ClientPhase) -> Dict[ClientMove, ClientPhase]:
    """The row of ``after``'s twin before the ApiVersions answer: the same moves to the
    twins of the same phases, and the answer itself leads to ``after``."""
    row: Dict[ClientMove, ClientPhase] = {
        move: _BEFORE_VERSIONS[to] for move, to in _AFTER[after].items() if move is not _M.VERSIONS_ANSWERED
    }
    if _M.VERSIONS_ANSWERED in _AFTER[after]:
        row[_M.VERSIONS_ANSWERED] = after
    return row


def _open(row: Mapping[ClientMove, ClientPhase], phase: ClientPhase) -> Dict[ClientMove, ClientPhase]:
    return {**row, **{move: phase for move in _STAY}, _M.CLOSE: _C.CLOSED}


#: phase -> move -> the phase it leads to; a move missing from a phase's row is refused.
CLIENT_MOVES: Mapping[ClientPhase, Mapping[ClientMove, ClientPhase]] = {
    **{phase: _open(row, phase) for phase, row in _AFTER.items()},
    **{_BEFORE_VERSIONS[after]: _open(_before(after), _BEFORE_VERSIONS[after]) for after in _AFTER},
    _C.CLOSED: {_M.CLOSE: _C.CLOSED},  # lost again: nothing more to fail
}

#: The phases of the connection's own SASL exchange (started by ``authenticate()``).
SASL_EXCHANGE: FrozenSet[ClientPhase] = frozenset(
    phase for phase, row in CLIENT_MOVES.items() if _M.HANDSHAKE_ANSWERED in row or _M.AUTHENTICATED in row
)
#: The phases whose frames are bare SASL tokens, not Kafka responses.
TOKEN_FRAMES: FrozenSet[ClientPhase] = frozenset(
    (_C.SASL_TOKENS, _C.SASL_TOKENS_BEFORE_VERSIONS, _C.BARE_TOKENS, _C.BARE_TOKENS_BEFORE_VERSIONS)
)
#: The phases of a SASL listener's connection before its first exchange.
SASL_OWED: FrozenSet[ClientPhase] = frozenset((_C.UNAUTHENTICATED, _C.UNAUTHENTICATED_BEFORE_VERSIONS))


class ServerPhase(enum.Enum):
    """Where a server connection is."""

    REQUESTS = "requests"  # frames are Kafka requests
    SASL_TOKENS = "sasl_tokens"  # frames are bare SASL tokens (after a SaslHandshake v0)
    CLOSED = "closed"


class ServerMove(enum.Enum):
    """What happens to a server connection."""

    RECEIVE = enum.auto()  # receive_data()
    BARE_TOKENS = enum.auto()  # a SaslHandshake v0 received, or begin_sasl_tokens()
    TOKENS_ENDED = enum.auto()  # end_sasl_tokens()
    CLOSE = enum.auto()  # an invalid request, or the connection was lost


_S = ServerPhase
_SM = ServerMove
#: phase -> move -> the phase it leads to.  A closed connection stays closed: the
#: handlers of requests received before the invalid one may still switch token mode.
SERVER_MOVES: Mapping[ServerPhase, Mapping[ServerMove, ServerPhase]] = {
    _S.REQUESTS: {
        _SM.RECEIVE: _S.REQUESTS,
        _SM.BARE_TOKENS: _S.SASL_TOKENS,
        _SM.TOKENS_ENDED: _S.REQUESTS,  # a SaslHandshake v1 left token mode off
        _SM.CLOSE: _S.CLOSED,
    },
    _S.SASL_TOKENS: {
        _SM.RECEIVE: _S.SASL_TOKENS,
        _SM.BARE_TOKENS: _S.SASL_TOKENS,
        _SM.TOKENS_ENDED: _S.REQUESTS,
        _SM.CLOSE: _S.CLOSED,
    },
    _S.CLOSED: {_SM.BARE_TOKENS: _S.CLOSED, _SM.TOKENS_ENDED: _S.CLOSED, _SM.CLOSE: _S.CLOSED},
}
