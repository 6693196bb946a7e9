"""The phases of each end of a connection and the moves between them, as tables.

Each end holds one phase; every change goes through :meth:`Phases.move`, which looks the
move up in its end's table and raises :class:`~kafkawire.errors.ConnectionStateError`
for one the table does not list.  Where a move can land in more than one phase (an
exchange that ends before or after the ApiVersions answer), the table lists each and the
caller says which.
"""

from __future__ import annotations

import enum
from typing import Generic, Mapping, Tuple, TypeVar

from kafkawire.errors import ConnectionStateError

__all__ = ["ClientPhase", "ClientMove", "ServerPhase", "ServerMove", "CLIENT_MOVES", "SERVER_MOVES", "Phases"]


class ClientPhase(enum.Enum):
    """Where a client connection is."""

    NEGOTIATING = "negotiating"  # no ApiVersions answer yet
    UNAUTHENTICATED = "unauthenticated"  # negotiated; a SASL listener waits for authenticate()
    AUTHENTICATING = "authenticating"  # the connection's own SASL exchange is under way
    SASL_TOKENS = "sasl_tokens"  # bare SASL token frames after a SaslHandshake v0
    READY = "ready"
    CLOSED = "closed"

    @property
    def state(self) -> str:
        """The name ``ClientConnection.state`` gives this phase (a SASL listener waiting
        for ``authenticate()`` reads as "authenticating", as it always has)."""
        return "authenticating" if self is ClientPhase.UNAUTHENTICATED else self.value


class ClientMove(enum.Enum):
    """What moves a client connection from one phase to another."""

    NEGOTIATED = enum.auto()  # ApiVersions answered without error
    EXCHANGE_STARTED = enum.auto()  # authenticate()
    BARE_TOKENS = enum.auto()  # a SaslHandshake v0 answered NONE, or begin_sasl_tokens()
    TOKENS_ENDED = enum.auto()  # end_sasl_tokens()
    EXCHANGE_SUCCEEDED = enum.auto()  # the mechanism finished and the broker agreed
    CLOSED = enum.auto()  # lost, broken, or a failed SASL exchange


_C = ClientPhase
_M = ClientMove
_OPEN = (_C.NEGOTIATING, _C.UNAUTHENTICATED, _C.READY)
#: phase -> move -> the phases it may lead to
CLIENT_MOVES: Mapping[ClientPhase, Mapping[ClientMove, Tuple[ClientPhase, ...]]] = {
    **{
        phase: {
            _M.NEGOTIATED: (_C.UNAUTHENTICATED, _C.READY),
            _M.EXCHANGE_STARTED: (_C.AUTHENTICATING,),
            _M.BARE_TOKENS: (_C.SASL_TOKENS,),
            _M.TOKENS_ENDED: (phase,),  # not in token mode: nothing to end
            _M.CLOSED: (_C.CLOSED,),
        }
        for phase in _OPEN
    },
    _C.AUTHENTICATING: {
        _M.NEGOTIATED: (_C.AUTHENTICATING,),  # an ApiVersions sent before the exchange
        _M.BARE_TOKENS: (_C.SASL_TOKENS,),  # the exchange's own SaslHandshake v0
        _M.EXCHANGE_SUCCEEDED: (_C.NEGOTIATING, _C.READY),
        _M.CLOSED: (_C.CLOSED,),
    },
    _C.SASL_TOKENS: {
        _M.BARE_TOKENS: (_C.SASL_TOKENS,),
        _M.TOKENS_ENDED: _OPEN + (_C.AUTHENTICATING,),
        _M.EXCHANGE_SUCCEEDED: (_C.NEGOTIATING, _C.READY),
        _M.CLOSED: (_C.CLOSED,),
    },
    _C.CLOSED: {},
}


class ServerPhase(enum.Enum):
    """Where a server connection is."""

    REQUESTS = "requests"  # frames are Kafka requests
    SASL_TOKENS = "sasl_tokens"  # frames are bare SASL tokens (after a SaslHandshake v0)
    CLOSED = "closed"


class ServerMove(enum.Enum):
    """What moves a server connection from one phase to another."""

    BARE_TOKENS = enum.auto()  # a SaslHandshake v0 received, or begin_sasl_tokens()
    TOKENS_ENDED = enum.auto()  # end_sasl_tokens()
    CLOSED = enum.auto()  # an invalid request, or the connection was lost


_S = ServerPhase
_SM = ServerMove
#: phase -> move -> the phases it may lead to.  A closed connection stays closed: the
#: handlers of requests received before the invalid one may still switch token mode.
SERVER_MOVES: Mapping[ServerPhase, Mapping[ServerMove, Tuple[ServerPhase, ...]]] = {
    _S.REQUESTS: {
        _SM.BARE_TOKENS: (_S.SASL_TOKENS,),
        _SM.TOKENS_ENDED: (_S.REQUESTS,),  # a SaslHandshake v1 left token mode off
        _SM.CLOSED: (_S.CLOSED,),
    },
    _S.SASL_TOKENS: {
        _SM.BARE_TOKENS: (_S.SASL_TOKENS,),
        _SM.TOKENS_ENDED: (_S.REQUESTS,),
        _SM.CLOSED: (_S.CLOSED,),
    },
    _S.CLOSED: {move: (_S.CLOSED,) for move in ServerMove},
}

P = TypeVar("P", ClientPhase, ServerPhase)
M = TypeVar("M", ClientMove, ServerMove)


class Phases(Generic[P, M]):
    """One end's current phase, changed only by moves its table allows."""

    __slots__ = ("phase", "_table")

    def __init__(self, table: Mapping[P, Mapping[M, Tuple[P, ...]]], start: P) -> None:
        self._table: Mapping[P, Mapping[M, Tuple[P, ...]]] = table
        self.phase: P = start

    def allows(self, move: M) -> bool:
        """Whether ``move`` may be made in the current phase."""
        return move in self._table[self.phase]

    def move(self, move: M, to: P) -> None:
        """Make ``move``, landing in ``to``; a move the table does not allow from here, or
        not to there, raises :class:`~kafkawire.errors.ConnectionStateError`."""
        if to not in self._table[self.phase].get(move, ()):
            raise ConnectionStateError(
                f"the connection cannot go from {self.phase.name} to {to.name} by {move.name}"
            )
        self.phase = to
