"""Kafka's SASL exchanges around the mechanisms: a client's exchange alone (framed by
:class:`~kafkawire.connection.ClientConnection`) and a broker's side of one connection."""

from __future__ import annotations

from typing import Callable, List, Mapping, Optional

from kafkawire.protocol import messages as M
from kafkawire.connection import Authenticated, AuthenticationFailed, ClientConnection, ClientEvent
from kafkawire.protocol.error_codes import ErrorCode
from kafkawire.errors import SaslAuthenticationError, SaslError, SaslStateError
from kafkawire.sasl.mechanisms import DEFAULT_MAX_TOKEN_SIZE, SaslClient, SaslServer

__all__ = ["ClientSession", "ServerSession"]


class ClientSession:
    """A client's SASL exchange alone, for code that drives it before handing the socket
    to something else: a :class:`~kafkawire.connection.ClientConnection` that does
    nothing but :meth:`~kafkawire.connection.ClientConnection.authenticate`.  A client
    that goes on with Kafka requests is simpler on the connection itself.

    Write :meth:`data_to_send` to the socket, give what the socket reads to
    :meth:`receive_data`, until :attr:`done`.  ``handshake_version=1`` (the default)
    sends the tokens in SaslAuthenticate requests; ``handshake_version=0`` sends them as
    bare size-prefixed frames after the handshake, as Kafka's legacy clients did.
    A refused authentication raises :class:`~kafkawire.errors.SaslAuthenticationError`
    with the broker's message; an unsupported mechanism raises
    :class:`~kafkawire.errors.SaslMechanismError` naming the broker's mechanisms.
    """

    def __init__(
        self,
        client: SaslClient,
        *,
        handshake_version: int = 1,
        authenticate_version: int = 2,
        client_id: Optional[str] = "kafkawire",
        correlation_id: int = 1,
        max_token_size: int = DEFAULT_MAX_TOKEN_SIZE,
    ) -> None:
        if handshake_version not in (0, 1):
            raise ValueError("SaslHandshake versions are 0 and 1")
        self.client = client
        self.handshake_version = handshake_version
        self.authenticate_version = authenticate_version
        self.done = False
        self.connection = ClientConnection(
            client_id,
            max_in_flight=None,
            first_correlation_id=correlation_id,
            max_frame_size=max_token_size + 1024,
        )
        self._out = self.connection.authenticate(
            client, handshake_version=handshake_version, authenticate_version=authenticate_version
        )

    @property
    def broker_mechanisms(self) -> List[str]:
        """The mechanisms the broker enables, once it answered the handshake."""
        return self.connection.broker_mechanisms

    @property
    def session_lifetime_ms(self) -> int:
        """The broker's KIP-368 session lifetime, once authenticated."""
        return self.connection.session_lifetime_ms

    def data_to_send(self) -> bytes:
        """The bytes to write now (possibly none)."""
        out, self._out = self._out + self.connection.data_to_send(), b""
        return out

    def receive_data(self, data: bytes) -> None:
        """Bytes read from the socket; raises on a refusal or a malformed message."""
        if self.done:
            raise SaslStateError("the SASL exchange is over: further bytes belong to the connection")
        self._outcome(self.connection.receive_data(data))

    def connection_closed(self) -> None:
        """The broker closed the connection before the exchange ended: raises."""
        if not self.done:
            self._outcome(self.connection.connection_lost("the broker closed the connection"))

    def _outcome(self, events: List[ClientEvent]) -> None:
        for event in events:
            if isinstance(event, Authenticated):
                self.done = True
            elif isinstance(event, AuthenticationFailed):
                raise event.error
            else:  # nothing else was sent: any other frame is out of place
                raise SaslStateError(f"a frame arrived outside the SASL exchange: {event!r}")


class ServerSession:
    """A broker's side of SASL on one connection, without I/O.

    ``servers`` maps each enabled mechanism to a factory of :class:`SaslServer`.  The
    broker hands SaslHandshake and SaslAuthenticate requests to :meth:`handshake` and
    :meth:`authenticate` and sends back what they return; after a v0 handshake,
    :attr:`expects_raw_token` is true and each frame is a bare token for
    :meth:`raw_token`, whose reply goes back as a bare size-prefixed frame.  Once
    :attr:`authenticated`, :attr:`principal` names the user; :attr:`failure` holds the
    reason of a refusal (the broker then closes the connection).
    """

    def __init__(
        self, servers: Mapping[str, Callable[[], SaslServer]], *, session_lifetime_ms: int = 0
    ) -> None:
        self.servers = dict(servers)
        self.session_lifetime_ms = session_lifetime_ms
        self.principal: Optional[str] = None
        self.authenticated = False
        self.expects_raw_token = False
        self.failure: Optional[str] = None
        self._server: Optional[SaslServer] = None
        self._handshake_version: Optional[int] = None
        self._bad_mechanism: Optional[str] = None  # why a re-authentication must fail

    @property
    def mechanism(self) -> Optional[str]:
        """The mechanism of the current (or last) exchange."""
        return self._server.mechanism if self._server is not None else None

    @property
    def exchange_complete(self) -> bool:
        """Whether the current exchange has just succeeded (or is the one that did)."""
        return self._server is not None and self._server.complete

    def handshake(self, request: M.SaslHandshakeRequest, version: int) -> M.SaslHandshakeResponse:
        """The SaslHandshakeResponse to ``request``; starts a (re-)authentication."""
        enabled = list(self.servers)
        if self._server is not None and not self._server.complete:
            self.failure = "SaslHandshake in the middle of an authentication"
            return M.SaslHandshakeResponse(error_code=ErrorCode.ILLEGAL_SASL_STATE, mechanisms=enabled)
        factory = self.servers.get(request.mechanism)
        if factory is None:
            self.failure = f"mechanism {request.mechanism!r} is not enabled"
            return M.SaslHandshakeResponse(
                error_code=ErrorCode.UNSUPPORTED_SASL_MECHANISM, mechanisms=enabled
            )
        if self.authenticated and self._server is not None and request.mechanism != self._server.mechanism:
            # KIP-368: Kafka answers the handshake, then fails the SaslAuthenticate after it
            self._bad_mechanism = (
                f"SASL mechanism '{request.mechanism}' requested by client is not "
                f"supported for re-authentication of mechanism '{self._server.mechanism}'"
            )
        self._server = factory()
        self._handshake_version = version
        self.expects_raw_token = version == 0
        return M.SaslHandshakeResponse(error_code=0, mechanisms=enabled)

    def authenticate(self, request: M.SaslAuthenticateRequest, version: int) -> M.SaslAuthenticateResponse:
        """The SaslAuthenticateResponse to ``request``; a refusal sets :attr:`failure`."""
        R_ = M.SaslAuthenticateResponse
        if self._server is None or self._handshake_version != 1 or self._server.complete:
            self.failure = "SaslAuthenticate without a SaslHandshake v1 before it"
            return R_(error_code=ErrorCode.ILLEGAL_SASL_STATE, error_message=self.failure, auth_bytes=b"")
        if self._bad_mechanism is not None:
            self.failure = self._bad_mechanism
            return R_(
                error_code=ErrorCode.SASL_AUTHENTICATION_FAILED, error_message=self.failure, auth_bytes=b""
            )
        try:
            challenge = self._server.receive(bytes(request.auth_bytes))
        except SaslError as exc:
            self.failure = str(exc)
            # As Kafka answers: PLAIN's reason is told to the client, SCRAM's is not (it
            # would tell an unknown user from a wrong password)
            message = (
                str(exc)
                if self._server.mechanism == "PLAIN"
                else (
                    "Authentication failed during authentication due to invalid credentials "
                    f"with SASL mechanism {self._server.mechanism}"
                )
            )
            return R_(error_code=ErrorCode.SASL_AUTHENTICATION_FAILED, error_message=message, auth_bytes=b"")
        try:
            lifetime = self._on_step()
        except SaslAuthenticationError as exc:  # a re-authentication as someone else
            self.failure = str(exc)
            return R_(
                error_code=ErrorCode.SASL_AUTHENTICATION_FAILED, error_message=self.failure, auth_bytes=b""
            )
        return R_(
            error_code=0,
            error_message=None,
            auth_bytes=challenge,
            session_lifetime_ms=lifetime if version >= 1 else 0,
        )

    def raw_token(self, token: bytes) -> Optional[bytes]:
        """The reply to a token sent after a v0 handshake, to send back as a bare
        size-prefixed frame (:func:`kafkawire.protocol.framing.frame`), or None when nothing goes
        back (GSSAPI's last message); a refusal raises (Kafka just closes the connection)."""
        if not self.expects_raw_token or self._server is None:
            raise SaslStateError("no bare SASL token is expected on this connection")
        try:
            challenge = self._server.receive(token)
            self._on_step()
        except SaslError as exc:
            self.failure = str(exc)
            raise
        if self._server.complete and not self._server.final_reply:
            return None
        return challenge

    def _on_step(self) -> int:
        server = self._server
        if server is None or not server.complete:
            return 0
        if self.authenticated and server.principal != self.principal:
            # KIP-368: re-authentication may not change who the connection belongs to
            self.authenticated = False
            raise SaslAuthenticationError(
                "Cannot change principals during re-authentication from "
                f"User.{self.principal}: User.{server.principal}"
            )
        self.principal = server.principal
        self.authenticated = True
        self.expects_raw_token = False
        return self.session_lifetime_ms
