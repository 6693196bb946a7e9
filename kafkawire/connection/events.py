"""What the two ends of a connection report: immutable events, and the unions that say
which events each method can return."""

from __future__ import annotations

from dataclasses import dataclass, fields
from typing import Any, List, Optional, Union

from kafkawire.errors import KafkaWireError
from kafkawire.protocol.headers import RequestHeader, ResponseHeader
from kafkawire.protocol.messages import Message

__all__ = [
    "ResponseEvent",
    "RequestFailed",
    "UnexpectedResponse",
    "SaslTokenReceived",
    "Authenticated",
    "AuthenticationFailed",
    "RequestEvent",
    "InvalidRequest",
    "ClientEvent",
    "ServerEvent",
]

# Fields too large or too nested to print in a repr.
_UNPRINTED = frozenset(("header", "message", "request", "payload"))


class _Event:
    """The base of every event: frozen, slotted, keyword-only dataclasses that compare
    and hash by identity (a server matches a response to the very event it answers, and
    two requests with equal fields are still two requests)."""

    __slots__ = ()

    def __repr__(self) -> str:
        shown = ", ".join(
            f"{f.name}={getattr(self, f.name)!r}"
            for f in fields(self)  # type: ignore[arg-type]  # every subclass is a dataclass
            if f.name not in _UNPRINTED
        )
        return f"{type(self).__name__}({shown})"


# -- client events ---------------------------------------------------------------------


@dataclass(frozen=True, slots=True, kw_only=True, eq=False, repr=False)
class ResponseEvent(_Event):
    """A response matched to the request it answers.  ``version`` is the request's (a
    KIP-511 answer is v0-shaped); ``request`` is None for a request tracked without its
    message."""

    correlation_id: int
    api_key: int
    version: int
    header: ResponseHeader
    message: Any
    request: Optional[Message]


@dataclass(frozen=True, slots=True, kw_only=True, eq=False, repr=False)
class RequestFailed(_Event):
    """A request that will get no usable response: ``error`` says why (the connection
    was lost, its deadline passed, or its response did not decode)."""

    correlation_id: int
    api_key: int
    version: int
    request: Optional[Message]
    error: KafkaWireError


@dataclass(frozen=True, slots=True, kw_only=True, eq=False, repr=False)
class UnexpectedResponse(_Event):
    """A frame that answers no waiting request (``correlation_id`` is None when the
    frame is too short to hold one); the stream stays usable."""

    correlation_id: Optional[int]
    payload: bytes
    error: KafkaWireError


@dataclass(frozen=True, slots=True, kw_only=True, eq=False, repr=False)
class SaslTokenReceived(_Event):
    """A bare SASL token frame (the SaslHandshake v0 path); on a server, answer it with
    ``respond(event, token)`` (``sequence`` is its place among the answers)."""

    token: bytes
    sequence: Optional[int] = None


@dataclass(frozen=True, slots=True, kw_only=True, eq=False, repr=False)
class Authenticated(_Event):
    """The SASL exchange started by ``ClientConnection.authenticate`` succeeded: the
    connection now takes every request.  ``session_lifetime_ms`` is the broker's
    KIP-368 lifetime (0: none, or SaslAuthenticate v0 / bare tokens)."""

    mechanism: str
    handshake_version: int
    broker_mechanisms: List[str]
    session_lifetime_ms: int


@dataclass(frozen=True, slots=True, kw_only=True, eq=False, repr=False)
class AuthenticationFailed(_Event):
    """The SASL exchange failed; the connection is closed (as the broker closes it).
    ``error`` is :class:`~kafkawire.errors.SaslAuthenticationError` for a refusal (with
    the broker's message), :class:`~kafkawire.errors.SaslMechanismError` for a mechanism
    the broker does not enable, another :class:`~kafkawire.errors.SaslError` for a
    malformed or out-of-order SASL message, or the error that ended the connection.
    Requests still waiting fail with :class:`RequestFailed` events carrying it."""

    mechanism: str
    error: KafkaWireError


# -- server events ---------------------------------------------------------------------


@dataclass(frozen=True, slots=True, kw_only=True, eq=False, repr=False)
class RequestEvent(_Event):
    """A request received.  ``expects_response`` is False for a Produce with
    ``acks=0``.  ``unsupported_version`` marks an ApiVersions request at a version the
    server does not support: its ``message`` is None and ``ServerConnection.respond``
    writes the answer v0-shaped (KIP-511; see ``ServerConnection.api_versions_response``).
    ``sequence`` is the request's place among the answers (None when none is due);
    ``payload`` is the frame as received, without its size (for logs and proxies);
    ``trailing`` counts the bytes after the body, which were not read (Kafka's broker
    ignores them too)."""

    correlation_id: int
    api_key: int
    version: int
    header: RequestHeader
    message: Any
    expects_response: bool
    unsupported_version: bool = False
    sequence: Optional[int] = None
    payload: bytes
    trailing: int = 0


@dataclass(frozen=True, slots=True, kw_only=True, eq=False, repr=False)
class InvalidRequest(_Event):
    """A request the server cannot serve (Kafka closes the connection): a broken frame,
    bytes that do not decode, or an API or version the server does not support."""

    error: KafkaWireError
    payload: Optional[bytes]


#: What ``ClientConnection.receive_data``, ``expire`` and ``connection_lost`` return.
ClientEvent = Union[
    ResponseEvent, RequestFailed, UnexpectedResponse, SaslTokenReceived, Authenticated, AuthenticationFailed
]
#: What ``ServerConnection.receive_data`` returns.
ServerEvent = Union[RequestEvent, InvalidRequest, SaslTokenReceived]
