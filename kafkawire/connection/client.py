"""The client end of a connection: requests out with correlation ids, responses matched
back to them, versions negotiated with ApiVersions, and the client's own SASL exchange."""

from __future__ import annotations

from collections import OrderedDict
from typing import TYPE_CHECKING, Any, Dict, List, Optional, Tuple, Type

from kafkawire import __version__
from kafkawire.connection._shared import CORRELATION_ID, Versions, is_acks0_produce, ranges
from kafkawire.connection.events import (
    Authenticated,
    AuthenticationFailed,
    ClientEvent,
    RequestFailed,
    ResponseEvent,
    SaslTokenReceived,
    UnexpectedResponse,
)
from kafkawire.connection.state import (
    CLIENT_MOVES,
    SASL_EXCHANGE,
    SASL_OWED,
    TOKEN_FRAMES,
    ClientMove,
    ClientPhase,
)
from kafkawire.protocol.error_codes import ErrorCode
from kafkawire.errors import (
    AuthenticationRequiredError,
    BrokenStreamError,
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
    SaslMalformedError,
    SaslMechanismError,
    SaslStateError,
    SaslTokenTooLarge,
    TruncatedError,
    UnexpectedResponseError,
    UnsupportedByPeerError,
    UnsupportedVersionError,
    for_code,
)
from kafkawire.protocol.framing import DEFAULT_MAX_FRAME_SIZE, BytesLike, FrameReader, frame
from kafkawire.protocol.messages import (
    ApiVersionsRequest,
    ApiVersionsResponse,
    Message,
    SaslAuthenticateRequest,
    SaslHandshakeRequest,
    negotiate_versions,
)
from kafkawire.protocol.requests import decode_response, encode_request
from kafkawire.protocol.schema.catalog import ApiKey
from kafkawire.protocol.schema.plan import INT32_MAX, INT32_MIN
from kafkawire.protocol.schema.versions import VersionRange

if TYPE_CHECKING:
    from kafkawire.sasl.mechanisms import SaslClient

__all__ = ["ClientConnection", "next_correlation_id", "SASL_RESERVED_MIN"]

#: The lowest of the ids Kafka's client keeps for its SASL re-authentication requests
#: (KIP-368); a SASL layer may use them through :meth:`ClientConnection.track`.
SASL_RESERVED_MIN = INT32_MAX - 7
# How many finished correlation ids a client remembers, to tell a late or duplicate
# response from one it never asked for.
_REMEMBERED = 1024


def next_correlation_id(correlation_id: int) -> int:
    """The id after ``correlation_id``, an int32 counter as Kafka's Java client keeps it:
    the top eight ids (``SASL_RESERVED_MIN`` to 2**31-1) are left to SASL
    re-authentication requests, so the counter goes from 2**31-9 to -2**31."""
    following = correlation_id + 1
    return INT32_MIN if following >= SASL_RESERVED_MIN else following


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
        self.ours: Dict[int, VersionRange] = ranges(versions)
        #: What the peer advertised (API key -> VersionRange), once ApiVersions answered.
        self.peer_versions: Optional[Dict[int, VersionRange]] = None
        #: API key -> the version this connection uses, once ApiVersions answered.
        self.negotiated: Optional[Dict[int, int]] = None
        self._api_versions_version: Optional[int] = None  # set by a KIP-511 answer
        self._next_id = INT32_MIN if first_correlation_id >= SASL_RESERVED_MIN else first_correlation_id
        self._pending: Dict[int, _Pending] = {}
        self._finished: "OrderedDict[int, str]" = OrderedDict()  # id -> how it finished
        self._frames = FrameReader(max_frame_size)
        self._phase = ClientPhase.NEGOTIATING if sasl is None else ClientPhase.UNAUTHENTICATED_BEFORE_VERSIONS
        self._closed_by = ""  # why the connection closed, for the errors that follow
        self._sasl_client = sasl
        self._exchange: Optional[_SaslExchange] = None  # the exchange of the SASL phases
        self._out = bytearray()  # what the connection wrote by itself (SASL steps)
        #: True once a SASL exchange succeeded (stays True through a re-authentication).
        self.authenticated = False
        #: The mechanisms the broker enables, from the last SaslHandshake answer.
        self.broker_mechanisms: List[str] = []
        #: The broker's KIP-368 session lifetime from the last successful exchange.
        self.session_lifetime_ms = 0

    # -- state ---------------------------------------------------------------------
    @property
    def sasl_client(self) -> Optional["SaslClient"]:
        """The mechanism client :meth:`authenticate` uses when given none."""
        return self._sasl_client

    @property
    def in_flight(self) -> int:
        """Requests waiting for their response."""
        return len(self._pending)

    @property
    def pending(self) -> Dict[int, Optional[Message]]:
        """The requests waiting for a response, by correlation id (a copy)."""
        return {cid: p.request for cid, p in self._pending.items()}

    @property
    def phase(self) -> ClientPhase:
        """Where the connection is: all it knows of it (each move's next phase is in
        :data:`~kafkawire.connection.state.CLIENT_MOVES`)."""
        return self._phase

    def _next(self, move: ClientMove, what: str = "") -> ClientPhase:
        """The phase the table gives ``move`` from here, or raise why it cannot be made
        here (``what`` names the action in the message)."""
        to = CLIENT_MOVES[self._phase].get(move)
        if to is None:
            raise self._refusal(move, what or move.name.lower().replace("_", " "))
        return to

    def _move(self, move: ClientMove, what: str = "") -> None:
        self._phase = self._next(move, what)

    def _refusal(self, move: ClientMove, what: str) -> KafkaWireError:
        """The error of a move the table does not list for the current phase."""
        phase = self._phase
        if phase is ClientPhase.CLOSED:
            return ConnectionClosedError(f"cannot {what} on a closed connection: {self._closed_by}")
        if phase in SASL_EXCHANGE:
            assert self._exchange is not None
            if move in (ClientMove.SEND, ClientMove.SEND_API_VERSIONS):
                return AuthenticationRequiredError(
                    f"cannot {what}: the {self._exchange.client.mechanism} SASL exchange is under way"
                )
            if move in (ClientMove.SEND_TOKEN, ClientMove.BARE_TOKENS, ClientMove.TOKENS_ENDED):
                return ConnectionStateError("the connection's own SASL exchange sends the tokens")
        if move is ClientMove.AUTHENTICATE and phase in TOKEN_FRAMES | SASL_EXCHANGE:
            return ConnectionStateError("a SASL exchange is already under way on this connection")
        if phase in TOKEN_FRAMES and move in (ClientMove.SEND, ClientMove.SEND_API_VERSIONS):
            return ConnectionStateError(
                "the connection carries bare SASL tokens (SaslHandshake v0): use "
                "send_sasl_token() until end_sasl_tokens()"
            )
        if move is ClientMove.SEND_TOKEN:
            return ConnectionStateError(
                "bare SASL tokens travel only after a SaslHandshake v0 answered NONE (or begin_sasl_tokens())"
            )
        if phase in SASL_OWED:
            return AuthenticationRequiredError(
                f"cannot {what} before SASL authentication: call authenticate() first "
                "(only ApiVersions may come before it)"
            )
        return ConnectionStateError(f"the connection cannot {what} in phase {phase.name}")

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
        if self._phase is not ClientPhase.CLOSED and (
            not isinstance(message, Message) or message.kind != "request"
        ):
            raise EncodeError(f"send() takes a request message, not {type(message).__name__}")
        api_versions = getattr(message, "api_key", None) == ApiKey.API_VERSIONS
        move = ClientMove.SEND_API_VERSIONS if api_versions else ClientMove.SEND
        to = self._next(move, f"send {type(message).__name__}")
        sent = self._send(message, version, deadline)
        self._phase = to
        return sent

    def _send(
        self, message: Message, version: Optional[int], deadline: Optional[float], sasl: bool = False
    ) -> Tuple[int, bytes]:
        api_key = message.api_key
        version = self._version_for(type(message), version)
        tracked = not is_acks0_produce(api_key, message)
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
        self._move(ClientMove.TRACK, "track a request")
        if is_acks0_produce(api_key, request):
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
        self._move(ClientMove.SEND_TOKEN, "send a SASL token")
        return frame(token)

    def begin_sasl_tokens(self) -> None:
        """Switch to bare SASL token frames (done by itself after a SaslHandshake v0)."""
        self._move(ClientMove.BARE_TOKENS, "switch to bare SASL tokens")

    def end_sasl_tokens(self) -> None:
        """Back to Kafka messages, once the SASL mechanism has finished."""
        self._move(ClientMove.TOKENS_ENDED, "end bare SASL tokens")

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
        after = self._next(ClientMove.AUTHENTICATE, "authenticate")
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
        self._exchange = exchange
        self._phase = after
        return data

    def data_to_send(self) -> bytes:
        """The bytes the connection produced by itself (the SASL steps that answer a
        challenge) since the last call: write them to the peer."""
        out = bytes(self._out)
        self._out.clear()
        return out

    def _sasl_answer(self, api_key: int, version: int, message: Any) -> List[ClientEvent]:
        """The connection's own SaslHandshake or SaslAuthenticate was answered."""
        exchange = self._exchange
        assert exchange is not None and self._phase in SASL_EXCHANGE  # its requests end with it
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
            self._move(
                ClientMove.HANDSHAKE_V0_ANSWERED
                if exchange.handshake_version == 0
                else ClientMove.HANDSHAKE_ANSWERED
            )
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

    def _sasl_challenge(self, challenge: bytes) -> List[ClientEvent]:
        exchange = self._exchange
        assert exchange is not None
        if exchange.client.complete:
            # the client's last message ended the exchange (GSSAPI's security-layer
            # choice): this answer only says it succeeded, and carries nothing
            if challenge:
                return self._sasl_failed(
                    SaslMalformedError(
                        f"{exchange.client.mechanism}: the broker sent {len(challenge)} bytes "
                        "after the exchange ended"
                    )
                )
            return self._sasl_succeeded(exchange)
        try:
            reply = exchange.client.receive(challenge)
        except SaslError as exc:
            return self._sasl_failed(exc)
        if reply is not None:
            self._sasl_token_out(reply)
            if exchange.client.complete and exchange.handshake_version == 0:
                return self._sasl_succeeded(exchange)  # Kafka answers a last bare token with nothing
            return []
        return self._sasl_succeeded(exchange)

    def _sasl_succeeded(self, exchange: _SaslExchange) -> List[ClientEvent]:
        self._move(ClientMove.AUTHENTICATED)
        self.authenticated = True
        self.session_lifetime_ms = exchange.session_lifetime_ms
        return [
            Authenticated(
                mechanism=exchange.client.mechanism,
                handshake_version=exchange.handshake_version,
                broker_mechanisms=exchange.broker_mechanisms,
                session_lifetime_ms=exchange.session_lifetime_ms,
            )
        ]

    def _sasl_token_out(self, token: bytes) -> None:
        exchange = self._exchange
        assert exchange is not None
        if self._phase in TOKEN_FRAMES:
            self._out += frame(token)
        else:
            _, data = self._send(
                SaslAuthenticateRequest(auth_bytes=token),
                exchange.authenticate_version,
                exchange.deadline,
                sasl=True,
            )
            self._out += data

    def _sasl_failed(self, error: KafkaWireError) -> List[ClientEvent]:
        """The exchange failed: Kafka closes such a connection, so this end closes too."""
        return self._close(error)

    # -- receiving -----------------------------------------------------------------
    def receive_data(self, data: BytesLike) -> List[ClientEvent]:
        """The events that ``data`` (any piece of the byte stream) completes
        (:class:`ResponseEvent`, :class:`RequestFailed`, :class:`UnexpectedResponse`,
        :class:`SaslTokenReceived`, and :class:`Authenticated` or
        :class:`AuthenticationFailed` during the connection's own SASL exchange).

        A frame the stream cannot recover from (a negative or oversized size) closes
        the connection: every waiting request then fails with an event.
        """
        self._move(ClientMove.RECEIVE, "receive")
        try:
            payloads = self._frames.feed(data)
        except FrameTooLarge as exc:
            if self._phase in SASL_EXCHANGE:  # the frame holds a SASL challenge
                return self._close(SaslTokenTooLarge(f"a SASL reply frame is too large: {exc}"))
            return self._close(_broken(exc))
        except InvalidFrame as exc:
            return self._close(_broken(exc))
        events: List[ClientEvent] = []
        for payload in payloads:
            if self._phase is ClientPhase.CLOSED:  # a failed SASL exchange closed the connection
                break
            events.extend(self._response(payload))
        return events

    def _response(self, payload: bytes) -> List[ClientEvent]:
        if self._phase in TOKEN_FRAMES:
            if self._phase in SASL_EXCHANGE:
                return self._sasl_challenge(payload)
            return [SaslTokenReceived(token=payload)]
        if len(payload) < 4:
            return [
                UnexpectedResponse(
                    correlation_id=None,
                    payload=payload,
                    error=TruncatedError(
                        f"a response of {len(payload)} bytes is too short for a correlation id"
                    ),
                )
            ]
        correlation_id = CORRELATION_ID.unpack_from(payload)[0]
        pending = self._pending.pop(correlation_id, None)
        if pending is None:
            how = self._finished.get(correlation_id, "was never sent")
            return [
                UnexpectedResponse(
                    correlation_id=correlation_id,
                    payload=payload,
                    error=UnexpectedResponseError(
                        f"a response with correlation id {correlation_id}, which {how}"
                    ),
                )
            ]
        api_key, version = pending.api_key, pending.version
        try:
            header, message = decode_response(payload, api_key, version)
        except DecodeError as exc:
            self._remember(correlation_id, "had a response that did not decode")
            if pending.sasl:
                return self._sasl_failed(exc)
            return [self._failed(correlation_id, pending, exc)]
        self._remember(correlation_id, "was already answered")
        if pending.sasl:
            return self._sasl_answer(api_key, version, message)
        if api_key == ApiKey.API_VERSIONS:
            self._api_versions_answered(message)
        elif api_key == ApiKey.SASL_HANDSHAKE and version == 0 and message.error_code == 0:
            self._move(ClientMove.BARE_TOKENS, "switch to bare SASL tokens")
        return [
            ResponseEvent(
                correlation_id=correlation_id,
                api_key=api_key,
                version=version,
                header=header,
                message=message,
                request=pending.request,
            )
        ]

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
        self._move(ClientMove.VERSIONS_ANSWERED, "take an ApiVersions answer")

    @staticmethod
    def _failed(correlation_id: int, pending: _Pending, error: KafkaWireError) -> RequestFailed:
        return RequestFailed(
            correlation_id=correlation_id,
            api_key=pending.api_key,
            version=pending.version,
            request=pending.request,
            error=error,
        )

    def _remember(self, correlation_id: int, how: str) -> None:
        self._finished[correlation_id] = how
        self._finished.move_to_end(correlation_id)
        if len(self._finished) > _REMEMBERED:
            self._finished.popitem(last=False)

    # -- failures ------------------------------------------------------------------
    def expire(self, now: float) -> List[ClientEvent]:
        """Fail every request whose deadline is at or before ``now``.  A response that
        arrives for one later is an :class:`UnexpectedResponse`.  A SASL exchange past
        its deadline fails (:class:`AuthenticationFailed`) and closes the connection."""
        exchange = self._exchange
        if self._phase in SASL_EXCHANGE and exchange is not None:
            if exchange.deadline is not None and exchange.deadline <= now:
                return self._close(
                    RequestTimedOutError(
                        f"the {exchange.client.mechanism} SASL exchange passed its deadline "
                        f"{exchange.deadline} at {now}"
                    )
                )
        expired = [cid for cid, p in self._pending.items() if p.deadline is not None and p.deadline <= now]
        events: List[ClientEvent] = []
        for cid in expired:
            p = self._pending.pop(cid)
            self._remember(cid, "had expired")
            events.append(
                self._failed(
                    cid,
                    p,
                    RequestTimedOutError(
                        f"correlation id {cid} ({type(p.request).__name__} v{p.version}) passed its "
                        f"deadline {p.deadline} at {now}"
                    ),
                )
            )
        return events

    def connection_lost(self, why: str = "the connection was lost") -> List[ClientEvent]:
        """The connection is gone: every waiting request fails with an event (and a SASL
        exchange under way with :class:`AuthenticationFailed`)."""
        if self._phase is ClientPhase.CLOSED:  # lost again: it stays closed, nothing is left to fail
            return []
        if not self._frames.at_boundary:
            why += f" inside a response frame ({self._frames.buffered} bytes of it received)"
        if self._phase in SASL_EXCHANGE:
            assert self._exchange is not None
            # Kafka refuses a bad token after SaslHandshake v0 by closing the connection
            hint = (
                " (after SaslHandshake v0 a broker gives no reason)"
                if self._exchange.handshake_version == 0
                else ""
            )
            return self._close(SaslAuthenticationError(f"{why} during SASL authentication{hint}"))
        return self._close(ConnectionClosedError(why))

    def _close(self, error: KafkaWireError) -> List[ClientEvent]:
        """Close with ``error``: the SASL exchange under way fails, then every waiting
        request (the exchange's own requests are accounted for by its event)."""
        events: List[ClientEvent] = []
        if self._phase in SASL_EXCHANGE:
            assert self._exchange is not None
            events.append(AuthenticationFailed(mechanism=self._exchange.client.mechanism, error=error))
        self._move(ClientMove.CLOSE)
        self._closed_by = str(error)
        events += [self._failed(cid, p, error) for cid, p in self._pending.items() if not p.sasl]
        for cid in self._pending:
            self._remember(cid, "failed when the connection closed")
        self._pending.clear()
        return events


def _broken(framing: InvalidFrame) -> BrokenStreamError:
    """The error of a connection whose peer sent a frame the stream cannot recover from."""
    error = BrokenStreamError(f"the response stream is broken: {framing}")
    error.__cause__ = framing
    return error
