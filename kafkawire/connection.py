"""One Kafka connection's bookkeeping, without I/O: both ends of it.

The codec turns one message into bytes and back; a connection needs more.  A client
numbers its requests with correlation ids, remembers what each one asked for (a
response does not say which API or version it answers), bounds how many wait at once,
negotiates versions with ApiVersions, and must account for every request when the
connection drops.  A broker must answer in request order even when its handlers finish
out of order, and must not answer a Produce with ``acks=0``.

:class:`ClientConnection` and :class:`ServerConnection` do this as state machines in the
style of h11: bytes in (``receive_data``), events out; messages in (``send``,
``respond``), bytes out.  They never touch a socket or read a clock, so the same object
serves a blocking client, an asyncio one, a proxy, a mock broker or a capture analyser.

SASL: a client authenticates through the same object.  Given a mechanism from
:mod:`kafkawire.sasl` (``sasl=`` or :meth:`ClientConnection.authenticate`), the client
goes ApiVersions -> SaslHandshake -> SaslAuthenticate -> ready: it sends the SASL
requests with correlation ids like any other request, answers each challenge by itself
(the bytes wait in :meth:`ClientConnection.data_to_send`), refuses other requests until
the exchange ends, and reports :class:`Authenticated` or :class:`AuthenticationFailed`.
After a SaslHandshake v0 the tokens travel as bare size-prefixed frames with no Kafka
header until the mechanism finishes; from v1 on they ride in SaslAuthenticate requests.
Without a mechanism the raw-token mode is still there by hand: both ends switch to it by
themselves after a v0 handshake, :meth:`ClientConnection.send_sasl_token`,
:class:`SaslTokenReceived` and :meth:`ServerConnection.respond` carry the tokens, and
``end_sasl_tokens()`` returns to Kafka messages.
"""

from __future__ import annotations

import struct
from collections import OrderedDict
from typing import TYPE_CHECKING, Any, Dict, List, Mapping, Optional, Tuple, Type, Union

from kafkawire import __version__
from kafkawire.error_codes import ErrorCode
from kafkawire.errors import (
    AuthenticationRequiredError,
    ConnectionClosedError,
    ConnectionStateError,
    DecodeError,
    EncodeError,
    FrameTooLarge,
    InFlightLimitError,
    InvalidFrame,
    KafkaWireError,
    RequestTimedOutError,
    SaslAuthenticationError,
    SaslError,
    SaslMechanismError,
    SaslStateError,
    SaslTokenTooLarge,
    TruncatedError,
    UnexpectedResponseError,
    UnknownApiError,
    UnsupportedByPeerError,
    UnsupportedVersionError,
    for_code,
)
from kafkawire.framing import DEFAULT_MAX_FRAME_SIZE, BytesLike, FrameReader, frame
from kafkawire.headers import RequestHeader, ResponseHeader, peek_request_api
from kafkawire.messages import (
    ApiVersionsRequest,
    ApiVersionsResponse,
    Message,
    SaslAuthenticateRequest,
    SaslHandshakeRequest,
    api_keys,
    negotiate_versions,
    request_class,
    supported_versions,
)
from kafkawire.protocol import decode_request_prefix, decode_response, encode_request, encode_response
from kafkawire.schema.catalog import ApiKey
from kafkawire.schema.plan import INT32_MAX, INT32_MIN
from kafkawire.schema.versions import VersionRange

if TYPE_CHECKING:
    from kafkawire.sasl import SaslClient

__all__ = [
    "ClientConnection",
    "ServerConnection",
    "ResponseEvent",
    "RequestFailed",
    "UnexpectedResponse",
    "SaslTokenReceived",
    "Authenticated",
    "AuthenticationFailed",
    "RequestEvent",
    "InvalidRequest",
    "next_correlation_id",
    "SASL_RESERVED_MIN",
]

#: The lowest of the ids Kafka's client keeps for its SASL re-authentication requests
#: (KIP-368); a SASL layer may use them through :meth:`ClientConnection.track`.
SASL_RESERVED_MIN = INT32_MAX - 7
_CORRELATION_ID = struct.Struct(">i")
# How many finished correlation ids a client remembers, to tell a late or duplicate
# response from one it never asked for.
_REMEMBERED = 1024

Versions = Mapping[int, Union[VersionRange, Tuple[int, int]]]


def next_correlation_id(correlation_id: int) -> int:
    """The id after ``correlation_id``, an int32 counter as Kafka's Java client keeps it:
    the top eight ids (``SASL_RESERVED_MIN`` to 2**31-1) are left to SASL
    re-authentication requests, so the counter goes from 2**31-9 to -2**31."""
    following = correlation_id + 1
    return INT32_MIN if following >= SASL_RESERVED_MIN else following


def _ranges(versions: Optional[Versions]) -> Dict[int, VersionRange]:
    """Every API kafkawire knows at the versions it supports, narrowed by ``versions``."""
    out = {key: supported_versions(key) for key in api_keys()}
    for key, rng in (versions or {}).items():
        if not isinstance(rng, VersionRange):
            rng = VersionRange(*rng)
        out[key] = rng
    return out


def _is_acks0_produce(api_key: Optional[int], message: Any) -> bool:
    return api_key == ApiKey.PRODUCE and getattr(message, "acks", None) == 0


class _Event:
    __slots__: Tuple[str, ...] = ()

    def __repr__(self) -> str:
        fields = ", ".join(
            f"{name}={getattr(self, name)!r}"
            for name in self.__slots__
            if name not in ("header", "message", "request", "payload")
        )
        return f"{type(self).__name__}({fields})"


# -- client events ---------------------------------------------------------------------


class ResponseEvent(_Event):
    """A response matched to the request it answers."""

    __slots__ = ("correlation_id", "api_key", "version", "header", "message", "request")

    def __init__(
        self,
        correlation_id: int,
        api_key: int,
        version: int,
        header: ResponseHeader,
        message: Any,
        request: Optional[Message],
    ) -> None:
        self.correlation_id = correlation_id
        self.api_key = api_key
        self.version = version  # the version of the request (a KIP-511 answer is v0-shaped)
        self.header = header
        self.message = message
        self.request = request  # None for a request tracked without its message


class RequestFailed(_Event):
    """A request that will get no usable response: ``error`` says why (the connection
    was lost, its deadline passed, or its response did not decode)."""

    __slots__ = ("correlation_id", "api_key", "version", "request", "error")

    def __init__(
        self,
        correlation_id: int,
        api_key: int,
        version: int,
        request: Optional[Message],
        error: KafkaWireError,
    ) -> None:
        self.correlation_id = correlation_id
        self.api_key = api_key
        self.version = version
        self.request = request
        self.error = error


class UnexpectedResponse(_Event):
    """A frame that answers no waiting request (``correlation_id`` is None when the
    frame is too short to hold one); the stream stays usable."""

    __slots__ = ("correlation_id", "payload", "error")

    def __init__(self, correlation_id: Optional[int], payload: bytes, error: KafkaWireError) -> None:
        self.correlation_id = correlation_id
        self.payload = payload
        self.error = error


class SaslTokenReceived(_Event):
    """A bare SASL token frame (the SaslHandshake v0 path); on a server, answer it with
    ``respond(event, token)``."""

    __slots__ = ("token", "sequence")

    def __init__(self, token: bytes, sequence: Optional[int] = None) -> None:
        self.token = token
        self.sequence = sequence


class Authenticated(_Event):
    """The SASL exchange started by :meth:`ClientConnection.authenticate` succeeded: the
    connection now takes every request.  ``session_lifetime_ms`` is the broker's
    KIP-368 lifetime (0: none, or SaslAuthenticate v0 / bare tokens)."""

    __slots__ = ("mechanism", "handshake_version", "broker_mechanisms", "session_lifetime_ms")

    def __init__(
        self, mechanism: str, handshake_version: int, broker_mechanisms: List[str], session_lifetime_ms: int
    ) -> None:
        self.mechanism = mechanism
        self.handshake_version = handshake_version
        self.broker_mechanisms = broker_mechanisms
        self.session_lifetime_ms = session_lifetime_ms


class AuthenticationFailed(_Event):
    """The SASL exchange failed; the connection is closed (as the broker closes it).
    ``error`` is :class:`~kafkawire.errors.SaslAuthenticationError` for a refusal (with
    the broker's message), :class:`~kafkawire.errors.SaslMechanismError` for a mechanism
    the broker does not enable, another :class:`~kafkawire.errors.SaslError` for a
    malformed or out-of-order SASL message, or the error that ended the connection.
    Requests still waiting fail with :class:`RequestFailed` events carrying it."""

    __slots__ = ("mechanism", "error")

    def __init__(self, mechanism: str, error: KafkaWireError) -> None:
        self.mechanism = mechanism
        self.error = error


class _Pending:
    __slots__ = ("api_key", "version", "request", "deadline", "sasl")

    def __init__(
        self,
        api_key: int,
        version: int,
        request: Optional[Message],
        deadline: Optional[float],
        sasl: bool = False,
    ) -> None:
        self.api_key = api_key
        self.version = version
        self.request = request
        self.deadline = deadline
        self.sasl = sasl  # a request of the connection's own SASL exchange


class _SaslExchange:
    """The SASL exchange under way on a client connection."""

    __slots__ = (
        "client",
        "handshake_version",
        "authenticate_version",
        "deadline",
        "broker_mechanisms",
        "session_lifetime_ms",
    )

    def __init__(
        self,
        client: "SaslClient",
        handshake_version: int,
        authenticate_version: int,
        deadline: Optional[float],
    ) -> None:
        self.client = client
        self.handshake_version = handshake_version
        self.authenticate_version = authenticate_version
        self.deadline = deadline
        self.broker_mechanisms: List[str] = []
        self.session_lifetime_ms = 0


class ClientConnection:
    """The client end of one connection.

    ``client_id`` goes in every request header; ``max_in_flight`` bounds the requests
    waiting for a response (Kafka's ``max.in.flight.requests.per.connection``; None for
    no bound); ``versions`` narrows the versions this client uses per API key (API key
    -> ``VersionRange`` or ``(lowest, highest)``), by default every version kafkawire
    knows.  ``first_correlation_id`` is where numbering starts (see
    :func:`next_correlation_id` for how it wraps).  ``sasl`` is the mechanism client
    (:mod:`kafkawire.sasl`) of a SASL listener: requests other than ApiVersions are
    refused with :class:`~kafkawire.errors.AuthenticationRequiredError` until
    :meth:`authenticate` has succeeded.
    """

    def __init__(
        self,
        client_id: Optional[str] = None,
        max_in_flight: Optional[int] = 5,
        versions: Optional[Versions] = None,
        *,
        first_correlation_id: int = 0,
        max_frame_size: int = DEFAULT_MAX_FRAME_SIZE,
        sasl: Optional["SaslClient"] = None,
    ) -> None:
        if max_in_flight is not None and (not isinstance(max_in_flight, int) or max_in_flight < 1):
            raise ValueError(f"max_in_flight must be a positive int or None, not {max_in_flight!r}")
        if not INT32_MIN <= first_correlation_id <= INT32_MAX:
            raise ValueError(f"first_correlation_id {first_correlation_id} is not an int32")
        self.client_id = client_id
        self.max_in_flight = max_in_flight
        self.ours: Dict[int, VersionRange] = _ranges(versions)
        #: What the peer advertised (API key -> VersionRange), once ApiVersions answered.
        self.peer_versions: Optional[Dict[int, VersionRange]] = None
        #: API key -> the version this connection uses, once ApiVersions answered.
        self.negotiated: Optional[Dict[int, int]] = None
        self._api_versions_version: Optional[int] = None  # set by a KIP-511 answer
        self._next_id = INT32_MIN if first_correlation_id >= SASL_RESERVED_MIN else first_correlation_id
        self._pending: Dict[int, _Pending] = {}
        self._finished: "OrderedDict[int, str]" = OrderedDict()  # id -> how it finished
        self._frames = FrameReader(max_frame_size)
        self._sasl_tokens = False
        self._closed: Optional[KafkaWireError] = None
        self._sasl_client = sasl
        self._auth: Optional[_SaslExchange] = None
        self._out = bytearray()  # what the connection wrote by itself (SASL steps)
        #: True once a SASL exchange succeeded (stays True through a re-authentication).
        self.authenticated = False
        #: The mechanisms the broker enables, from the last SaslHandshake answer.
        self.broker_mechanisms: List[str] = []
        #: The broker's KIP-368 session lifetime from the last successful exchange.
        self.session_lifetime_ms = 0

    # -- state ---------------------------------------------------------------------
    @property
    def in_flight(self) -> int:
        """Requests waiting for their response."""
        return len(self._pending)

    @property
    def pending(self) -> Dict[int, Optional[Message]]:
        """The requests waiting for a response, by correlation id (a copy)."""
        return {cid: p.request for cid, p in self._pending.items()}

    @property
    def state(self) -> str:
        """The connection's phase: ``"negotiating"`` (no ApiVersions answer yet),
        ``"authenticating"`` (a SASL exchange is under way, or a SASL listener waits for
        :meth:`authenticate`), ``"sasl_tokens"`` (bare SASL frames after a SaslHandshake
        v0), ``"ready"`` or ``"closed"``."""
        if self._closed is not None:
            return "closed"
        if self._sasl_tokens:
            return "sasl_tokens"
        if self._auth is not None:
            return "authenticating"
        if self.negotiated is None:
            return "negotiating"
        return "authenticating" if self._needs_authentication else "ready"

    @property
    def _needs_authentication(self) -> bool:
        return self._sasl_client is not None and not self.authenticated

    @property
    def next_correlation_id(self) -> int:
        return self._next_id

    # -- sending -------------------------------------------------------------------
    def api_versions_request(
        self,
        software_name: str = "kafkawire",
        software_version: str = __version__,
        deadline: Optional[float] = None,
    ) -> Tuple[int, bytes]:
        """Send the ApiVersions handshake at the best version known so far (after a
        KIP-511 answer: the highest the broker supports)."""
        return self.send(
            ApiVersionsRequest(client_software_name=software_name, client_software_version=software_version),
            deadline=deadline,
        )

    def send(
        self, message: Message, *, version: Optional[int] = None, deadline: Optional[float] = None
    ) -> Tuple[int, bytes]:
        """``(correlation_id, frame)`` for ``message``: write the frame to the peer.

        The version is ``version`` if given, else the negotiated one once ApiVersions
        was answered, else the highest this client supports.  A Produce with
        ``acks=0`` gets no response and is not tracked.  ``deadline`` (any clock, the
        one ``expire`` is given) bounds the wait for the response.
        """
        if self._closed is not None:
            raise ConnectionClosedError(f"cannot send on a closed connection: {self._closed}")
        if not isinstance(message, Message) or message.kind != "request":
            raise EncodeError(f"send() takes a request message, not {type(message).__name__}")
        if self._auth is not None:
            raise AuthenticationRequiredError(
                f"cannot send {type(message).__name__}: the {self._auth.client.mechanism} "
                "SASL exchange is under way"
            )
        if self._sasl_tokens:
            raise ConnectionStateError(
                "the connection carries bare SASL tokens (SaslHandshake v0): use "
                "send_sasl_token() until end_sasl_tokens()"
            )
        if self._needs_authentication:
            if message.api_key != ApiKey.API_VERSIONS:
                raise AuthenticationRequiredError(
                    f"cannot send {type(message).__name__} before SASL authentication: call "
                    "authenticate() first (only ApiVersions may come before it)"
                )
        return self._send(message, version, deadline)

    def _send(
        self, message: Message, version: Optional[int], deadline: Optional[float], sasl: bool = False
    ) -> Tuple[int, bytes]:
        api_key = message.api_key
        version = self._version_for(type(message), version)
        tracked = not _is_acks0_produce(api_key, message)
        if tracked and self.max_in_flight is not None and len(self._pending) >= self.max_in_flight:
            raise InFlightLimitError(
                f"{len(self._pending)} requests are in flight, the limit is {self.max_in_flight}"
            )
        correlation_id = self._next_id
        if correlation_id in self._pending:
            raise InFlightLimitError(f"correlation id {correlation_id} is still in flight after wrapping")
        data = encode_request(message, version, correlation_id, self.client_id)
        self._next_id = next_correlation_id(correlation_id)
        if tracked:
            assert api_key is not None  # encode_request found the message's API
            self._pending[correlation_id] = _Pending(api_key, version, message, deadline, sasl)
        else:
            self._remember(correlation_id, "was a Produce with acks=0, which gets no response")
        return correlation_id, data

    def track(
        self,
        correlation_id: int,
        api_key: int,
        version: int,
        request: Optional[Message] = None,
        *,
        deadline: Optional[float] = None,
    ) -> None:
        """Expect the response to a request written by someone else: a proxy forwarding a
        client's bytes, or a capture being read.  A Produce with ``acks=0`` is ignored,
        as in :meth:`send`; a correlation id already waiting is refused."""
        if self._closed is not None:
            raise ConnectionClosedError(f"cannot track on a closed connection: {self._closed}")
        if _is_acks0_produce(api_key, request):
            self._remember(correlation_id, "was a Produce with acks=0, which gets no response")
            return
        if correlation_id in self._pending:
            raise ConnectionStateError(f"correlation id {correlation_id} is already waiting for a response")
        if self.max_in_flight is not None and len(self._pending) >= self.max_in_flight:
            raise InFlightLimitError(
                f"{len(self._pending)} requests are in flight, the limit is {self.max_in_flight}"
            )
        self._pending[correlation_id] = _Pending(api_key, version, request, deadline)

    def _version_for(self, cls: Type[Message], version: Optional[int]) -> int:
        api_key = cls.api_key
        name = cls.__name__
        if api_key is None:
            raise EncodeError(f"{name} is not a request of a Kafka API")
        if version is not None:
            if version not in cls.valid_versions:
                raise UnsupportedVersionError(
                    f"{name} has no version {version} (valid: {cls.valid_versions})"
                )
            if self.peer_versions is not None:
                peer = self.peer_versions.get(api_key)
                if peer is None or version not in peer:
                    raise UnsupportedByPeerError(
                        f"the peer does not support {name} v{version} (it advertised "
                        f"{peer if peer is not None else 'no version'})"
                    )
            return version
        if (
            api_key == ApiKey.API_VERSIONS
            and self.negotiated is None
            and self._api_versions_version is not None
        ):
            return self._api_versions_version
        if self.negotiated is not None:
            try:
                return self.negotiated[api_key]
            except KeyError:
                peer = self.peer_versions.get(api_key) if self.peer_versions else None
                raise UnsupportedByPeerError(
                    f"no version of {name} is supported by both sides (peer: "
                    f"{peer if peer is not None else 'not advertised'}, ours: {self.ours.get(api_key)})"
                ) from None
        ours = self.ours.get(api_key)
        if ours is None or ours.empty:
            raise UnsupportedVersionError(f"this connection uses no version of {name}")
        return ours.highest

    def send_sasl_token(self, token: bytes) -> bytes:
        """A bare SASL token frame (the SaslHandshake v0 path)."""
        if self._closed is not None:
            raise ConnectionClosedError(f"cannot send on a closed connection: {self._closed}")
        if self._auth is not None:
            raise ConnectionStateError("the connection's own SASL exchange sends the tokens")
        if not self._sasl_tokens:
            raise ConnectionStateError(
                "bare SASL tokens travel only after a SaslHandshake v0 answered NONE (or begin_sasl_tokens())"
            )
        return frame(token)

    def begin_sasl_tokens(self) -> None:
        """Switch to bare SASL token frames (done by itself after a SaslHandshake v0)."""
        self._sasl_tokens = True

    def end_sasl_tokens(self) -> None:
        """Back to Kafka messages, once the SASL mechanism has finished."""
        self._sasl_tokens = False

    # -- SASL authentication -----------------------------------------------------------
    def authenticate(
        self,
        client: Optional["SaslClient"] = None,
        *,
        handshake_version: Optional[int] = None,
        authenticate_version: Optional[int] = None,
        deadline: Optional[float] = None,
    ) -> bytes:
        """Start a SASL exchange with ``client`` (by default the ``sasl`` given to the
        constructor); returns the SaslHandshake frame to write.

        The connection then answers each challenge by itself: after every
        :meth:`receive_data`, write what :meth:`data_to_send` returns, until an
        :class:`Authenticated` or :class:`AuthenticationFailed` event.  The versions are
        the given ones, else the negotiated ones, else the highest kafkawire knows;
        ``handshake_version=0`` sends the tokens as bare size-prefixed frames (Kafka's
        legacy framing).  ``deadline`` (the clock of :meth:`expire`) bounds the whole
        exchange.  Called again once authenticated, it re-authenticates (KIP-368, which
        needs SaslHandshake v1): requests in flight keep their place, new ones wait.
        """
        if self._closed is not None:
            raise ConnectionClosedError(f"cannot authenticate on a closed connection: {self._closed}")
        if self._auth is not None or self._sasl_tokens:
            raise ConnectionStateError("a SASL exchange is already under way on this connection")
        client = client if client is not None else self._sasl_client
        if client is None:
            raise ConnectionStateError("no SASL mechanism: pass a kafkawire.sasl client")
        if client.complete:
            raise SaslStateError(
                f"{client.mechanism}: this client has already finished an "
                "exchange; make a new one for each authentication"
            )
        hs_version = self._version_for(SaslHandshakeRequest, handshake_version)
        if hs_version == 0 and self.authenticated:
            raise ConnectionStateError("re-authentication needs SaslHandshake v1 or later (KIP-368)")
        auth_version = self._version_for(SaslAuthenticateRequest, authenticate_version) if hs_version else 0
        self._sasl_client = client
        exchange = _SaslExchange(client, hs_version, auth_version, deadline)
        _, data = self._send(
            SaslHandshakeRequest(mechanism=client.mechanism), hs_version, deadline, sasl=True
        )
        self._auth = exchange
        return data

    def data_to_send(self) -> bytes:
        """The bytes the connection produced by itself (the SASL steps that answer a
        challenge) since the last call: write them to the peer."""
        out = bytes(self._out)
        self._out.clear()
        return out

    def _sasl_answer(self, api_key: int, version: int, message: Any) -> List[_Event]:
        """The connection's own SaslHandshake or SaslAuthenticate was answered."""
        exchange = self._auth
        if exchange is None:  # an exchange that failed earlier: nothing waits for this
            return []
        if api_key == ApiKey.SASL_HANDSHAKE:
            exchange.broker_mechanisms = self.broker_mechanisms = list(message.mechanisms)
            if message.error_code == ErrorCode.UNSUPPORTED_SASL_MECHANISM:
                return self._sasl_failed(
                    SaslMechanismError(
                        f"the broker does not enable {exchange.client.mechanism}; it offers "
                        f"{', '.join(exchange.broker_mechanisms) or 'none'}"
                    )
                )
            if message.error_code:
                return self._sasl_failed(
                    SaslError(
                        f"SaslHandshake failed with error code {message.error_code} "
                        f"({for_code(message.error_code).name})"
                    )
                )
            try:
                first = exchange.client.start()
            except SaslError as exc:
                return self._sasl_failed(exc)
            self._sasl_tokens = exchange.handshake_version == 0
            self._sasl_token_out(first)
            return []
        if message.error_code:
            return self._sasl_failed(
                SaslAuthenticationError(
                    message.error_message
                    or f"SaslAuthenticate failed with error code {message.error_code} "
                    f"({for_code(message.error_code).name})"
                )
            )
        if version >= 1:
            exchange.session_lifetime_ms = message.session_lifetime_ms
        return self._sasl_challenge(bytes(message.auth_bytes))

    def _sasl_challenge(self, challenge: bytes) -> List[_Event]:
        exchange = self._auth
        assert exchange is not None
        try:
            reply = exchange.client.receive(challenge)
        except SaslError as exc:
            return self._sasl_failed(exc)
        if reply is not None:
            self._sasl_token_out(reply)
            return []
        self._auth = None
        self._sasl_tokens = False
        self.authenticated = True
        self.session_lifetime_ms = exchange.session_lifetime_ms
        return [
            Authenticated(
                exchange.client.mechanism,
                exchange.handshake_version,
                exchange.broker_mechanisms,
                exchange.session_lifetime_ms,
            )
        ]

    def _sasl_token_out(self, token: bytes) -> None:
        exchange = self._auth
        assert exchange is not None
        if self._sasl_tokens:
            self._out += frame(token)
        else:
            _, data = self._send(
                SaslAuthenticateRequest(auth_bytes=token),
                exchange.authenticate_version,
                exchange.deadline,
                sasl=True,
            )
            self._out += data

    def _sasl_failed(self, error: KafkaWireError) -> List[_Event]:
        """The exchange failed: Kafka closes such a connection, so this end closes too."""
        return self._close(error)

    # -- receiving -----------------------------------------------------------------
    def receive_data(self, data: BytesLike) -> List[Any]:
        """The events that ``data`` (any piece of the byte stream) completes
        (:class:`ResponseEvent`, :class:`RequestFailed`, :class:`UnexpectedResponse`,
        :class:`SaslTokenReceived`; typed ``Any``, as the caller knows which it expects).

        A frame the stream cannot recover from (a negative or oversized size) closes
        the connection: every waiting request then fails with an event.
        """
        if self._closed is not None:
            raise ConnectionClosedError(f"cannot receive on a closed connection: {self._closed}")
        try:
            payloads = self._frames.feed(data)
        except FrameTooLarge as exc:
            if self._auth is not None:  # the frame holds a SASL challenge
                return self._close(SaslTokenTooLarge(f"a SASL reply frame is too large: {exc}"))
            return self._close(ConnectionClosedError(f"the response stream is broken: {exc}"))
        except InvalidFrame as exc:
            return self._close(ConnectionClosedError(f"the response stream is broken: {exc}"))
        events: List[_Event] = []
        for payload in payloads:
            if self._closed is not None:  # a failed SASL exchange closed the connection
                break
            events.extend(self._response(payload))
        return events

    def _response(self, payload: bytes) -> List[_Event]:
        if self._sasl_tokens:
            if self._auth is not None:
                return self._sasl_challenge(payload)
            return [SaslTokenReceived(payload)]
        if len(payload) < 4:
            return [
                UnexpectedResponse(
                    None,
                    payload,
                    TruncatedError(f"a response of {len(payload)} bytes is too short for a correlation id"),
                )
            ]
        correlation_id = _CORRELATION_ID.unpack_from(payload)[0]
        pending = self._pending.pop(correlation_id, None)
        if pending is None:
            how = self._finished.get(correlation_id, "was never sent")
            return [
                UnexpectedResponse(
                    correlation_id,
                    payload,
                    UnexpectedResponseError(f"a response with correlation id {correlation_id}, which {how}"),
                )
            ]
        api_key, version = pending.api_key, pending.version
        try:
            header, message = decode_response(payload, api_key, version)
        except DecodeError as exc:
            self._remember(correlation_id, "had a response that did not decode")
            if pending.sasl:
                return self._sasl_failed(exc)
            return [RequestFailed(correlation_id, api_key, version, pending.request, exc)]
        self._remember(correlation_id, "was already answered")
        if pending.sasl:
            return self._sasl_answer(api_key, version, message)
        if api_key == ApiKey.API_VERSIONS:
            self._api_versions_answered(message)
        elif api_key == ApiKey.SASL_HANDSHAKE and version == 0 and message.error_code == 0:
            self._sasl_tokens = True
        return [ResponseEvent(correlation_id, api_key, version, header, message, pending.request)]

    def _api_versions_answered(self, message: ApiVersionsResponse) -> None:
        advertised = {e.api_key: VersionRange(e.min_version, e.max_version) for e in message.api_keys}
        if message.error_code == ErrorCode.UNSUPPORTED_VERSION:
            # KIP-511: the broker did not know our ApiVersions version and listed what it
            # knows; the next ApiVersions goes at the highest version both sides have
            # (v0 when the answer does not say).
            theirs = advertised.get(ApiKey.API_VERSIONS, VersionRange(0, 0))
            common = theirs.intersect(self.ours[ApiKey.API_VERSIONS])
            self._api_versions_version = common.highest if not common.empty else 0
            return
        if message.error_code != 0:
            return
        self.peer_versions = advertised
        self.negotiated = negotiate_versions(message, self.ours)

    def _remember(self, correlation_id: int, how: str) -> None:
        self._finished[correlation_id] = how
        self._finished.move_to_end(correlation_id)
        if len(self._finished) > _REMEMBERED:
            self._finished.popitem(last=False)

    # -- failures ------------------------------------------------------------------
    def expire(self, now: float) -> List[Any]:
        """Fail every request whose deadline is at or before ``now``.  A response that
        arrives for one later is an :class:`UnexpectedResponse`.  A SASL exchange past
        its deadline fails (:class:`AuthenticationFailed`) and closes the connection."""
        if self._auth is not None and self._auth.deadline is not None and self._auth.deadline <= now:
            return self._close(
                RequestTimedOutError(
                    f"the {self._auth.client.mechanism} SASL exchange passed its deadline "
                    f"{self._auth.deadline} at {now}"
                )
            )
        expired = [cid for cid, p in self._pending.items() if p.deadline is not None and p.deadline <= now]
        events: List[Any] = []
        for cid in expired:
            p = self._pending.pop(cid)
            self._remember(cid, "had expired")
            events.append(
                RequestFailed(
                    cid,
                    p.api_key,
                    p.version,
                    p.request,
                    RequestTimedOutError(
                        f"correlation id {cid} ({type(p.request).__name__} v{p.version}) passed its "
                        f"deadline {p.deadline} at {now}"
                    ),
                )
            )
        return events

    def connection_lost(self, why: str = "the connection was lost") -> List[Any]:
        """The connection is gone: every waiting request fails with an event (and a SASL
        exchange under way with :class:`AuthenticationFailed`)."""
        if self._closed is not None:
            return []
        if not self._frames.at_boundary:
            why += f" inside a response frame ({self._frames.buffered} bytes of it received)"
        if self._auth is not None:
            # Kafka refuses a bad token after SaslHandshake v0 by closing the connection
            hint = (
                " (after SaslHandshake v0 a broker gives no reason)"
                if self._auth.handshake_version == 0
                else ""
            )
            return self._close(SaslAuthenticationError(f"{why} during SASL authentication{hint}"))
        return self._close(ConnectionClosedError(why))

    def _close(self, error: KafkaWireError) -> List[Any]:
        """Close with ``error``: the SASL exchange under way fails, then every waiting
        request (the exchange's own requests are accounted for by its event)."""
        self._closed = error
        events: List[Any] = []
        if self._auth is not None:
            events.append(AuthenticationFailed(self._auth.client.mechanism, error))
            self._auth = None
        self._sasl_tokens = False
        events += [
            RequestFailed(cid, p.api_key, p.version, p.request, error)
            for cid, p in self._pending.items()
            if not p.sasl
        ]
        for cid in self._pending:
            self._remember(cid, "failed when the connection closed")
        self._pending.clear()
        return events


# -- server side -----------------------------------------------------------------------


class RequestEvent(_Event):
    """A request received.  ``expects_response`` is False for a Produce with
    ``acks=0``.  ``unsupported_version`` marks an ApiVersions request at a version the
    server does not support: its ``message`` is None and :meth:`ServerConnection.respond`
    writes the answer v0-shaped (KIP-511; see
    :meth:`ServerConnection.api_versions_response`).  ``trailing`` counts the bytes
    after the body, which were not read (Kafka's broker ignores them too)."""

    __slots__ = (
        "correlation_id",
        "api_key",
        "version",
        "header",
        "message",
        "expects_response",
        "unsupported_version",
        "sequence",
        "payload",
        "trailing",
    )

    def __init__(
        self,
        api_key: int,
        version: int,
        header: RequestHeader,
        message: Any,
        expects_response: bool,
        unsupported_version: bool,
        sequence: Optional[int],
        payload: bytes,
        trailing: int = 0,
    ) -> None:
        self.correlation_id = header.correlation_id
        self.api_key = api_key
        self.version = version
        self.header = header
        self.message = message
        self.expects_response = expects_response
        self.unsupported_version = unsupported_version
        self.sequence = sequence
        self.payload = payload  # the frame as received, without its size (for logs, proxies)
        self.trailing = trailing  # bytes after the body, not read (Kafka ignores them too)


class InvalidRequest(_Event):
    """A request the server cannot serve (Kafka closes the connection): a broken frame,
    bytes that do not decode, or an API or version the server does not support."""

    __slots__ = ("error", "payload")

    def __init__(self, error: KafkaWireError, payload: Optional[bytes]) -> None:
        self.error = error
        self.payload = payload


class ServerConnection:
    """The broker end of one connection.

    ``supported`` is what the server serves (API key -> ``VersionRange`` or
    ``(lowest, highest)``), by default every API and version kafkawire knows; it is
    also what :meth:`api_versions_response` advertises.  Responses leave in request
    order: :meth:`respond` returns the bytes that may be written now.
    """

    def __init__(
        self, supported: Optional[Versions] = None, *, max_frame_size: int = DEFAULT_MAX_FRAME_SIZE
    ) -> None:
        if supported is None:
            self.supported = _ranges(None)
        else:
            self.supported = {
                k: v if isinstance(v, VersionRange) else VersionRange(*v) for k, v in supported.items()
            }
        self.client_id: Optional[str] = None
        #: ``(name, version)`` from an ApiVersions request v3+.
        self.client_software: Optional[Tuple[str, str]] = None
        self.requests_received = 0
        self._frames = FrameReader(max_frame_size)
        self._next_sequence = 0
        self._next_out = 0  # sequence of the oldest unanswered request
        self._unanswered: Dict[int, List[Any]] = {}  # sequence -> [event, frame or None]
        self._sasl_tokens = False
        self._closed: Optional[KafkaWireError] = None

    @property
    def unanswered(self) -> int:
        """Requests received that still wait for their response."""
        return len(self._unanswered)

    @property
    def at_frame_boundary(self) -> bool:
        """False when the stream holds part of a frame (say so if the client closes now)."""
        return self._frames.at_boundary

    @property
    def buffered(self) -> int:
        return self._frames.buffered

    def api_versions_response(self, error_code: int = 0, throttle_time_ms: int = 0) -> ApiVersionsResponse:
        """An ApiVersionsResponse advertising ``supported`` (KIP-511 answers pass
        ``error_code=35``, UNSUPPORTED_VERSION)."""
        Entry = ApiVersionsResponse.ApiVersion
        entries = [
            Entry(api_key=k, min_version=r.lowest, max_version=r.highest)
            for k, r in sorted(self.supported.items())
            if not r.empty
        ]
        return ApiVersionsResponse(error_code=error_code, api_keys=entries, throttle_time_ms=throttle_time_ms)

    def begin_sasl_tokens(self) -> None:
        """Read the next frames as bare SASL tokens (done by itself on SaslHandshake v0)."""
        self._sasl_tokens = True

    def end_sasl_tokens(self) -> None:
        """Back to Kafka requests, once the SASL mechanism has finished."""
        self._sasl_tokens = False

    def receive_data(self, data: BytesLike) -> List[Any]:
        """The events that ``data`` completes (:class:`RequestEvent`,
        :class:`InvalidRequest`, :class:`SaslTokenReceived`; typed ``Any``).  After an :class:`InvalidRequest` (always
        the last event) the connection is closed and takes no more data."""
        if self._closed is not None:
            raise ConnectionClosedError(f"cannot receive on a closed connection: {self._closed}")
        try:
            payloads = self._frames.feed(data)
        except InvalidFrame as exc:
            self._closed = exc
            return [InvalidRequest(exc, None)]
        events: List[_Event] = []
        for payload in payloads:
            event = self._request(payload)
            events.append(event)
            if isinstance(event, InvalidRequest):
                self._closed = event.error
                break
        return events

    def _enqueue(self, event: Union[RequestEvent, SaslTokenReceived]) -> int:
        sequence = self._next_sequence
        self._next_sequence += 1
        self._unanswered[sequence] = [event, None]
        return sequence

    def _request(self, payload: bytes) -> _Event:
        if self._sasl_tokens:
            token = SaslTokenReceived(payload)
            token.sequence = self._enqueue(token)
            return token
        try:
            api_key, version = peek_request_api(payload)
            request_class(api_key)
        except (TruncatedError, UnknownApiError) as exc:
            return InvalidRequest(exc, payload)
        served = self.supported.get(api_key)
        if served is None or served.empty:
            return InvalidRequest(
                UnknownApiError(f"{request_class(api_key).__name__} (API key {api_key}) is not served here"),
                payload,
            )
        if version not in served:
            if api_key == ApiKey.API_VERSIONS:
                return self._unsupported_api_versions(payload, version)
            return InvalidRequest(
                UnsupportedVersionError(
                    f"{request_class(api_key).__name__} v{version} is outside the served v{served}"
                ),
                payload,
            )
        try:
            # Kafka's broker reads the body it expects and ignores any bytes after it
            # (it serves librdkafka 2.16's MetadataRequests, which carry 3 extra bytes):
            # so does this end, keeping the count in ``event.trailing``.
            header, message, end = decode_request_prefix(payload)
        except DecodeError as exc:
            return InvalidRequest(exc, payload)
        self.requests_received += 1
        self.client_id = header.client_id
        if api_key == ApiKey.API_VERSIONS and version >= 3:
            self.client_software = (message.client_software_name, message.client_software_version)
        elif api_key == ApiKey.SASL_HANDSHAKE and version == 0:
            self._sasl_tokens = True
        trailing = len(payload) - end
        if _is_acks0_produce(api_key, message):
            return RequestEvent(api_key, version, header, message, False, False, None, payload, trailing)
        event = RequestEvent(api_key, version, header, message, True, False, None, payload, trailing)
        event.sequence = self._enqueue(event)
        return event

    def _unsupported_api_versions(self, payload: bytes, version: int) -> _Event:
        if len(payload) < 8:
            return InvalidRequest(
                TruncatedError(f"an ApiVersions request of {len(payload)} bytes has no correlation id"),
                payload,
            )
        correlation_id = _CORRELATION_ID.unpack_from(payload, 4)[0]
        try:  # a newer client's header is v2 (ApiVersions has been flexible since v3)
            header, _ = RequestHeader.decode_from(payload, 2, 0)
        except DecodeError:
            header = RequestHeader(
                request_api_key=ApiKey.API_VERSIONS,
                request_api_version=version,
                correlation_id=correlation_id,
                client_id=None,
            )
        self.requests_received += 1
        event = RequestEvent(ApiKey.API_VERSIONS, version, header, None, True, True, None, payload)
        event.sequence = self._enqueue(event)
        return event

    def respond(self, event: Union[RequestEvent, SaslTokenReceived], message: Any) -> bytes:
        """Answer ``event`` with ``message`` (a response message; the token bytes for a
        :class:`SaslTokenReceived`); returns what may be written now, possibly b"":
        the responses, in request order, that no earlier unanswered request holds back."""
        sequence = getattr(event, "sequence", None)
        slot = self._unanswered.get(sequence) if sequence is not None else None
        if slot is None or slot[0] is not event:
            if isinstance(event, RequestEvent) and not event.expects_response:
                raise ConnectionStateError("a Produce with acks=0 gets no response")
            raise ConnectionStateError(
                f"{event!r} is not a request of this connection waiting for its response"
            )
        if slot[1] is not None:
            raise ConnectionStateError(f"{event!r} was already answered")
        if isinstance(event, SaslTokenReceived):
            if not isinstance(message, (bytes, bytearray, memoryview)):
                raise EncodeError(f"a SASL token is bytes, not {type(message).__name__}")
            slot[1] = frame(message)
        else:
            if (
                not isinstance(message, Message)
                or message.kind != "response"
                or message.api_key != event.api_key
            ):
                raise EncodeError(
                    f"a {type(message).__name__} cannot answer a request of API key {event.api_key}"
                )
            version = 0 if event.unsupported_version else event.version
            slot[1] = encode_response(message, version, event.correlation_id)
        return self._ready()

    def _ready(self) -> bytes:
        out = []
        while True:
            slot = self._unanswered.get(self._next_out)
            if slot is None or slot[1] is None:
                break
            out.append(slot[1])
            del self._unanswered[self._next_out]
            self._next_out += 1
        return b"".join(out)

    def connection_lost(self) -> int:
        """The connection is gone; returns how many requests were left unanswered."""
        self._closed = self._closed or ConnectionClosedError("the connection was lost")
        left = len(self._unanswered)
        self._unanswered.clear()
        return left
