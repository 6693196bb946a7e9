"""An asyncio client connection: :class:`kafkawire.connection.ClientConnection` on a socket.

>>> conn = await open_connection("127.0.0.1", 9092, client_id="app")   # doctest: +SKIP
>>> event = await conn.request(MetadataRequest(topics=None))           # doctest: +SKIP

``open_connection`` connects and runs the ApiVersions handshake (falling back the KIP-511
way when the broker does not know our ApiVersions version), so every later request goes
at the highest version both sides support.  Requests may be pipelined: concurrent
``request`` calls share the connection, ``max_in_flight`` of them on the wire at once,
the rest waiting for a slot.  A request that fails raises the specific
:mod:`kafkawire.errors` exception its :class:`~kafkawire.connection.RequestFailed` event
carries (a timeout, a lost connection, a response that does not decode).

On a SASL listener, ``open_connection(..., sasl=...)`` (a :mod:`kafkawire.sasl` client,
or ``sasl_mechanism``/``sasl_username``/``sasl_password``) authenticates right after the
ApiVersions handshake, through the same :class:`~kafkawire.connection.ClientConnection`;
a refusal raises its :class:`~kafkawire.errors.SaslAuthenticationError`.

On an SSL or SASL_SSL listener, ``open_connection(..., ssl=context)`` (an
:class:`ssl.SSLContext`, or True for :func:`ssl.create_default_context`) runs the TLS
handshake first, checking the certificate against ``server_hostname`` (by default the
host connected to); a handshake that fails or outlasts the timeout, or a broker that
refuses our client certificate (or its absence), raises
:class:`~kafkawire.errors.TlsHandshakeError`.
"""

from __future__ import annotations

import asyncio
import functools
import logging
import socket as _socket
import ssl as _ssl
import threading
from collections import deque
from typing import (
    TYPE_CHECKING,
    Any,
    Callable,
    Coroutine,
    Deque,
    Dict,
    Generator,
    List,
    Optional,
    ParamSpec,
    Union,
)

from kafkawire import __version__
from kafkawire.protocol.error_codes import ErrorCode
from kafkawire.connection import (
    Authenticated,
    AuthenticationFailed,
    ClientConnection,
    ClientPhase,
    RequestFailed,
    ResponseEvent,
    SaslTokenReceived,
    UnexpectedResponse,
    Versions,
)
from kafkawire.errors import (
    ConnectionClosedError,
    ConnectTimeoutError,
    ConnectionStateError,
    InFlightLimitError,
    KafkaWireError,
    RequestTimedOutError,
    SaslKerberosError,
    SaslLoginError,
    TlsHandshakeError,
)
from kafkawire.protocol.messages import ApiVersionsRequest, Message
from kafkawire.protocol.schema.catalog import ApiKey

if TYPE_CHECKING:
    from kafkawire.sasl import SaslClient

__all__ = ["AsyncConnection", "Opening", "open_connection"]

log = logging.getLogger("kafkawire.aio")

# Reading pauses while twice this waits to be read (the read loop takes each piece at once)
_READ_LIMIT = 1 << 18


# -- the socket ---------------------------------------------------------------------
# The socket under AsyncConnection: an asyncio protocol that hands
# over the pieces the socket delivers as they are, with flow control both ways.
#
# asyncio's ``StreamReader`` copies every piece into a buffer and out again; the frame
# reader of the connection keeps the pieces and joins a frame's once, so this stream only
# queues them.  Reading pauses while more than twice ``limit`` bytes wait to be read;
# :meth:`drain` waits while the transport's write buffer is full.


class SocketStream(asyncio.Protocol):
    """Both directions of one connected socket (plain, or TLS after :meth:`start_tls`)."""

    def __init__(self, limit: int) -> None:
        self._limit = limit
        self._loop = asyncio.get_running_loop()
        self.transport: Optional[asyncio.Transport] = None
        self._pieces: Deque[bytes] = deque()
        self._size = 0  # bytes in _pieces
        self._reading_paused = False
        self._eof = False
        self._error: Optional[BaseException] = None
        self._data_waiter: Optional[asyncio.Future[None]] = None
        self._writing_paused = False
        self._drain_waiters: Deque[asyncio.Future[None]] = deque()
        self._closed: asyncio.Future[None] = self._loop.create_future()

    @classmethod
    async def connect(cls, host: str, port: int, limit: int) -> "SocketStream":
        _, stream = await asyncio.get_running_loop().create_connection(lambda: cls(limit), host, port)
        return stream

    # -- asyncio.Protocol -----------------------------------------------------------

    def connection_made(self, transport: asyncio.BaseTransport) -> None:
        assert isinstance(transport, asyncio.Transport)
        self.transport = transport

    def data_received(self, data: bytes) -> None:
        self._pieces.append(data)
        self._size += len(data)
        if not self._reading_paused and self._size > 2 * self._limit and self.transport is not None:
            self.transport.pause_reading()
            self._reading_paused = True
        self._wake_reader()

    def eof_received(self) -> bool:
        self._eof = True
        self._wake_reader()
        return False  # the transport closes itself

    def connection_lost(self, exc: Optional[Exception]) -> None:
        self._eof = True
        self._error = exc
        self._wake_reader()
        lost = exc or ConnectionResetError("Connection lost")
        while self._drain_waiters:
            waiter = self._drain_waiters.popleft()
            if not waiter.done():
                waiter.set_exception(lost)
        if not self._closed.done():
            self._closed.set_result(None)

    def pause_writing(self) -> None:
        self._writing_paused = True

    def resume_writing(self) -> None:
        self._writing_paused = False
        while self._drain_waiters:
            waiter = self._drain_waiters.popleft()
            if not waiter.done():
                waiter.set_result(None)

    # -- reading --------------------------------------------------------------------

    def _wake_reader(self) -> None:
        waiter, self._data_waiter = self._data_waiter, None
        if waiter is not None and not waiter.done():
            waiter.set_result(None)

    async def read(self) -> bytes:
        """The next piece received, ``b""`` at the end of the stream; raises what broke
        the connection."""
        while not self._pieces:
            if self._error is not None:
                raise self._error
            if self._eof:
                return b""
            self._data_waiter = self._loop.create_future()
            await self._data_waiter
        data = self._pieces.popleft()
        self._size -= len(data)
        if self._reading_paused and self._size <= self._limit and self.transport is not None:
            self._reading_paused = False
            self.transport.resume_reading()
        return data

    # -- writing --------------------------------------------------------------------

    def write(self, data: bytes) -> None:
        assert self.transport is not None
        self.transport.write(data)

    async def drain(self) -> None:
        """Wait until the write buffer has room; raises when the connection is lost."""
        assert self.transport is not None
        if self.transport.is_closing():
            await asyncio.sleep(0)  # let connection_lost run first, as asyncio's streams do
            raise self._error or ConnectionResetError("Connection lost")
        if self._writing_paused:
            waiter = self._loop.create_future()
            self._drain_waiters.append(waiter)
            await waiter

    def get_extra_info(self, name: str, default: Any = None) -> Any:
        return self.transport.get_extra_info(name, default) if self.transport is not None else default

    async def start_tls(
        self, context: _ssl.SSLContext, *, server_hostname: str, ssl_handshake_timeout: float
    ) -> None:
        """Run the TLS handshake on this socket; later reads and writes are encrypted."""
        await self.drain()
        assert self.transport is not None
        transport = await self._loop.start_tls(
            self.transport,
            self,
            context,
            server_hostname=server_hostname,
            ssl_handshake_timeout=ssl_handshake_timeout,
        )
        assert isinstance(transport, asyncio.Transport)
        self.transport = transport

    # -- closing --------------------------------------------------------------------

    def is_closing(self) -> bool:
        return self.transport is None or self.transport.is_closing()

    def close(self) -> None:
        if self.transport is not None:
            self.transport.close()

    async def wait_closed(self) -> None:
        await self._closed


# -- the connection -----------------------------------------------------------------


class AsyncConnection:
    """One client connection driven by asyncio; make it with :func:`open_connection`."""

    def __init__(self, stream: SocketStream, protocol: ClientConnection, timeout: float) -> None:
        self.protocol = protocol
        self.timeout = timeout
        self._stream = stream
        self._waiting: Dict[int, asyncio.Future[ResponseEvent]] = {}
        self._authenticating: Optional[asyncio.Future[Authenticated]] = None
        #: The outcome of the last SASL exchange, once one succeeded.
        self.authentication: Optional[Authenticated] = None
        self._slot_freed = asyncio.Condition()
        #: Bytes read from the broker so far.
        self.bytes_received = 0
        self._reading = asyncio.get_running_loop().create_task(self._read_loop())

    @property
    def negotiated(self) -> Optional[Dict[int, int]]:
        """API key -> the version this connection uses."""
        return self.protocol.negotiated

    async def request(
        self, message: Message, *, version: Optional[int] = None, timeout: Optional[float] = None
    ) -> ResponseEvent:
        """Send ``message`` and wait for its response event (``.message`` is the response)."""
        if message.api_key == ApiKey.PRODUCE and getattr(message, "acks", None) == 0:
            raise ConnectionStateError("a Produce with acks=0 gets no response: use send()")
        loop = asyncio.get_running_loop()
        timeout = self.timeout if timeout is None else timeout
        deadline = loop.time() + timeout
        while True:
            try:
                correlation_id, data = self.protocol.send(message, version=version, deadline=deadline)
                break
            except InFlightLimitError:
                async with self._slot_freed:
                    try:
                        await asyncio.wait_for(
                            self._slot_freed.wait_for(self._has_room), max(0.0, deadline - loop.time())
                        )
                    except asyncio.TimeoutError:
                        raise RequestTimedOutError(
                            f"no in-flight slot freed within {timeout} s for {type(message).__name__}"
                        ) from None
        future: asyncio.Future[ResponseEvent] = loop.create_future()
        self._waiting[correlation_id] = future
        await self._write(data)
        try:
            return await asyncio.wait_for(asyncio.shield(future), max(0.0, deadline - loop.time()))
        except asyncio.TimeoutError:
            await self._dispatch(self.protocol.expire(max(loop.time(), deadline)))
            return await future

    async def authenticate(
        self,
        client: Optional["SaslClient"] = None,
        *,
        handshake_version: Optional[int] = None,
        timeout: Optional[float] = None,
    ) -> Authenticated:
        """Run a SASL exchange (``client`` defaults to the connection's ``sasl``); once
        authenticated, again for a KIP-368 re-authentication.  A refusal raises the
        :class:`~kafkawire.connection.AuthenticationFailed` event's error, and the
        connection is closed."""
        loop = asyncio.get_running_loop()
        timeout = self.timeout if timeout is None else timeout
        deadline = loop.time() + timeout
        mechanism_client = client if client is not None else self.protocol.sasl_client
        prepare = getattr(mechanism_client, "prepare", None)
        # GSSAPI asks the KDC (MIT waits by itself), OAUTHBEARER may ask an OAuth server
        if prepare is not None:
            try:
                await asyncio.wait_for(_in_thread(prepare), timeout)
            except asyncio.TimeoutError:
                await self.close()
                if getattr(mechanism_client, "mechanism", "") == "GSSAPI":
                    raise SaslKerberosError(
                        f"GSSAPI: no Kerberos ticket within the {timeout} s timeout (the KDC does not answer)"
                    ) from None
                raise SaslLoginError(
                    f"{getattr(mechanism_client, 'mechanism', 'SASL')}: no credential within the {timeout} s timeout"
                ) from None
            except BaseException:
                await self.close()
                raise
        data = self.protocol.authenticate(client, handshake_version=handshake_version, deadline=deadline)
        outcome: asyncio.Future[Authenticated] = loop.create_future()
        self._authenticating = outcome
        await self._write(data)
        try:
            event = await asyncio.wait_for(asyncio.shield(outcome), max(0.0, deadline - loop.time()))
        except asyncio.TimeoutError:
            await self._dispatch(self.protocol.expire(max(loop.time(), deadline)))
            event = await outcome
        self.authentication = event
        return event

    async def _write(self, data: bytes) -> bool:
        """Write and wait for the buffer to drain; False when the connection is lost (the
        read loop then fails every waiting request with the reason)."""
        self._stream.write(data)
        try:
            await self._stream.drain()
        except (ConnectionError, OSError):
            return False
        return True

    @property
    def closed(self) -> bool:
        """Whether the connection is closed (lost, broken, or refused by SASL)."""
        return self.protocol.phase is ClientPhase.CLOSED

    def _has_room(self) -> bool:
        p = self.protocol
        return self.closed or p.max_in_flight is None or p.in_flight < p.max_in_flight

    async def send(self, message: Message, *, version: Optional[int] = None) -> int:
        """Send a request whose response is not awaited (a Produce with ``acks=0``);
        returns its correlation id."""
        correlation_id, data = self.protocol.send(message, version=version)
        if not await self._write(data):
            raise ConnectionClosedError(f"the connection was lost: {type(message).__name__} not sent")
        return correlation_id

    async def close(self) -> None:
        """Close the socket; requests still waiting fail with ConnectionClosedError."""
        self._stream.close()
        try:
            await self._stream.wait_closed()
        except (ConnectionError, OSError):
            pass
        await self._reading

    async def __aenter__(self) -> "AsyncConnection":
        return self

    async def __aexit__(self, *exc: object) -> None:
        await self.close()

    async def _read_loop(self) -> None:
        why = "the broker closed the connection"
        try:
            while True:
                data = await self._stream.read()
                if not data:
                    break
                self.bytes_received += len(data)
                await self._dispatch(self.protocol.receive_data(data))
                answer = self.protocol.data_to_send()  # the next SASL step, if any
                if answer:
                    self._stream.write(answer)
                if self.closed:
                    return
        except KafkaWireError as exc:  # receive after close (a ConnectionError too): nothing left to fail
            why = str(exc)
        except (ConnectionError, OSError) as exc:
            why = f"the connection failed: {exc}"
        except asyncio.CancelledError:
            why = "the connection was cancelled"
        await self._dispatch(self.protocol.connection_lost(why))

    async def _dispatch(self, events: List[Any]) -> None:
        freed = False
        for event in events:
            if isinstance(event, (ResponseEvent, RequestFailed)):
                freed = True
                future = self._waiting.pop(event.correlation_id, None)
                if future is None or future.done():
                    continue
                if isinstance(event, ResponseEvent):
                    future.set_result(event)
                else:
                    future.set_exception(event.error)
            elif isinstance(event, (Authenticated, AuthenticationFailed)):
                outcome, self._authenticating = self._authenticating, None
                if outcome is None or outcome.done():
                    continue
                if isinstance(event, Authenticated):
                    outcome.set_result(event)
                else:
                    outcome.set_exception(event.error)
            elif isinstance(event, UnexpectedResponse):
                log.warning("ignoring a response: %s", event.error)
            elif isinstance(event, SaslTokenReceived):
                log.warning("ignoring a bare SASL token frame that no exchange of this connection expects")
        if freed:
            async with self._slot_freed:
                self._slot_freed.notify_all()


_P = ParamSpec("_P")


class Opening(Coroutine[Any, Any, "AsyncConnection"]):
    """What :func:`open_connection` returns: ``await`` it for the connection, or open,
    use and close the connection with ``async with open_connection(...) as conn``.  It
    is the connecting coroutine itself to asyncio (``asyncio.run``, ``create_task``)."""

    def __init__(self, opening: Coroutine[Any, Any, "AsyncConnection"]) -> None:
        self._opening = opening
        self._conn: Optional[AsyncConnection] = None

    def __await__(self) -> Generator[Any, None, "AsyncConnection"]:
        return self._opening.__await__()

    def send(self, value: Any) -> Any:
        return self._opening.send(value)

    def throw(self, typ: Any, val: Any = None, tb: Any = None) -> Any:
        return self._opening.throw(typ, val, tb)

    def close(self) -> None:
        self._opening.close()

    async def __aenter__(self) -> "AsyncConnection":
        self._conn = await self._opening
        return self._conn

    async def __aexit__(self, *exc: object) -> None:
        if self._conn is not None:
            await self._conn.close()


def _in_thread(call: Callable[[], None]) -> "asyncio.Future[None]":
    """``call()`` in a daemon thread of its own (one that may block past any timeout
    without holding up the loop's shutdown, as the default executor's threads would)."""
    loop = asyncio.get_running_loop()
    done: "asyncio.Future[None]" = loop.create_future()

    def settle(error: Optional[BaseException]) -> None:
        if done.cancelled():
            return
        if error is None:
            done.set_result(None)
        else:
            done.set_exception(error)

    def run() -> None:
        error: Optional[BaseException] = None
        try:
            call()
        except BaseException as exc:  # handed to the awaiting task
            error = exc
        try:
            loop.call_soon_threadsafe(settle, error)
        except RuntimeError:  # the loop has closed: nobody waits any more
            pass

    threading.Thread(target=run, name="kafkawire-kerberos", daemon=True).start()
    return done


def _awaitable_or_context(
    connect: Callable[_P, Coroutine[Any, Any, "AsyncConnection"]],
) -> Callable[_P, Opening]:
    @functools.wraps(connect)
    def opening(*args: _P.args, **kwargs: _P.kwargs) -> Opening:
        return Opening(connect(*args, **kwargs))

    return opening


@_awaitable_or_context
async def open_connection(
    host: str,
    port: int,
    *,
    client_id: Optional[str] = None,
    max_in_flight: Optional[int] = 5,
    versions: Optional[Versions] = None,
    timeout: float = 30.0,
    connect_timeout: Optional[float] = None,
    software_name: str = "kafkawire",
    software_version: Optional[str] = None,
    sasl: Optional["SaslClient"] = None,
    sasl_mechanism: Optional[str] = None,
    sasl_username: Optional[str] = None,
    sasl_password: Optional[str] = None,
    sasl_handshake_version: Optional[int] = None,
    sasl_kerberos_service_name: str = "kafka",
    sasl_kerberos_keytab: Optional[str] = None,
    ssl: Union[_ssl.SSLContext, bool, None] = None,
    server_hostname: Optional[str] = None,
    receive_buffer_bytes: int = -1,
    send_buffer_bytes: int = -1,
) -> AsyncConnection:
    """Connect to a Kafka broker (over TLS if asked), run the ApiVersions handshake, then
    SASL if asked.

    ``timeout`` bounds the connect with its TLS handshake, the ApiVersions handshake, the
    authentication, and by default every request; ``connect_timeout``, when given, bounds
    the TCP connect instead (Kafka's ``socket.connection.setup.timeout.ms``).  TLS: ``ssl`` is an
    :class:`ssl.SSLContext` or True (a default context: the system's certificate
    authorities, host name checked); ``server_hostname`` is the name the certificate must
    carry, by default ``host``.  A connect that outlasts ``timeout`` raises
    :class:`~kafkawire.errors.ConnectTimeoutError`, a failed TLS handshake
    :class:`~kafkawire.errors.TlsHandshakeError`.  SASL: ``sasl`` is a :mod:`kafkawire.sasl` client, or
    ``sasl_mechanism`` (PLAIN, SCRAM-SHA-256, SCRAM-SHA-512) with ``sasl_username`` and
    ``sasl_password`` make one; ``sasl_handshake_version=0`` uses Kafka's legacy bare
    token frames.  ``sasl_mechanism="GSSAPI"`` (Kerberos) authenticates to
    ``sasl_kerberos_service_name/host`` as ``sasl_username`` (a principal) with the
    ``sasl_kerberos_keytab``, or with the ticket in the default credential cache.

    ``receive_buffer_bytes`` and ``send_buffer_bytes`` set the socket's SO_RCVBUF and
    SO_SNDBUF (-1: the system's), as Kafka's clients' ``receive.buffer.bytes`` and
    ``send.buffer.bytes``.

    ``await open_connection(...)`` gives the connection; ``async with
    open_connection(...) as conn`` also closes it at the end of the block.
    """
    if sasl is None and sasl_mechanism == "GSSAPI":
        from kafkawire.sasl import GssapiClient

        sasl = GssapiClient(
            host,
            service_name=sasl_kerberos_service_name,
            principal=sasl_username,
            keytab=sasl_kerberos_keytab,
        )
    elif sasl is None and sasl_mechanism is not None:
        from kafkawire.sasl import client_for

        sasl = client_for(sasl_mechanism, sasl_username or "", sasl_password or "")
    context = _tls_context(ssl, server_hostname)
    loop = asyncio.get_running_loop()
    began = loop.time()
    connecting = timeout if connect_timeout is None else connect_timeout
    try:
        stream = await asyncio.wait_for(SocketStream.connect(host, port, _READ_LIMIT), connecting)
    except asyncio.TimeoutError as exc:
        raise ConnectTimeoutError(
            f"the connect to {host}:{port} did not finish within {connecting:g} s"
        ) from exc
    # the TLS handshake has what is left of ``timeout``, or all of it after a connect bound on its own
    deadline = (began if connect_timeout is None else loop.time()) + timeout
    sock = stream.get_extra_info("socket")
    for option, size in ((_socket.SO_RCVBUF, receive_buffer_bytes), (_socket.SO_SNDBUF, send_buffer_bytes)):
        if size != -1 and sock is not None:
            sock.setsockopt(_socket.SOL_SOCKET, option, size)
    if context is not None:
        await _start_tls(
            stream, context, server_hostname or host, f"{host}:{port}", deadline - loop.time(), timeout
        )
    protocol = ClientConnection(client_id, max_in_flight, versions, sasl=sasl)
    conn = AsyncConnection(stream, protocol, timeout)
    hello = ApiVersionsRequest(
        client_software_name=software_name, client_software_version=software_version or __version__
    )
    try:
        for _ in range(2):  # the second try follows a KIP-511 answer, at the broker's version
            try:
                answer = await conn.request(hello)
            except ConnectionClosedError as exc:
                if context is None or conn.bytes_received:
                    raise
                # TLS 1.3: the broker checks our certificate after our half of the
                # handshake, so its refusal arrives here, as a close or an alert
                raise TlsHandshakeError(
                    f"{host}:{port} closed the TLS connection before answering ApiVersions "
                    f"(a listener that requires client certificates does so when ours is "
                    f"missing or not trusted): {exc}"
                ) from exc
            if answer.message.error_code != ErrorCode.UNSUPPORTED_VERSION:
                break
        if protocol.negotiated is None:
            raise ConnectionClosedError(
                f"the broker's ApiVersions answer carried error code {answer.message.error_code}"
            )
        if sasl is not None:
            await conn.authenticate(handshake_version=sasl_handshake_version)
    except BaseException:
        await conn.close()
        raise
    return conn


def _tls_context(
    ssl: Union[_ssl.SSLContext, bool, None], server_hostname: Optional[str]
) -> Optional[_ssl.SSLContext]:
    if ssl is True:
        return _ssl.create_default_context()
    if ssl is None or ssl is False:
        if server_hostname is not None:
            raise ValueError("server_hostname is only meaningful with ssl")
        return None
    if not isinstance(ssl, _ssl.SSLContext):
        raise TypeError(f"ssl must be an ssl.SSLContext, True or None, not {type(ssl).__name__}")
    return ssl


async def _start_tls(
    stream: SocketStream,
    context: _ssl.SSLContext,
    server_hostname: str,
    where: str,
    remaining: float,
    timeout: float,
) -> None:
    """Upgrade the connected socket in place; every way the handshake can fail (or hang)
    becomes a TlsHandshakeError, and the socket is closed."""
    remaining = max(remaining, 0.001)
    try:
        # wait_for bounds the handshake (and closes the transport when it cancels it);
        # asyncio's own handshake timeout is only a backstop behind it
        await asyncio.wait_for(
            stream.start_tls(context, server_hostname=server_hostname, ssl_handshake_timeout=remaining + 1.0),
            remaining,
        )
    except _ssl.SSLCertVerificationError as exc:
        stream.close()
        raise TlsHandshakeError(
            f"the TLS certificate of {where} did not verify for {server_hostname!r}: {exc.verify_message}"
        ) from exc
    except (OSError, asyncio.TimeoutError) as exc:
        stream.close()
        if isinstance(exc, asyncio.TimeoutError):
            why = f"it did not finish within {timeout} s"
        else:
            why = str(exc) or "the peer closed the connection (is it a TLS listener?)"
        raise TlsHandshakeError(f"the TLS handshake with {where} failed: {why}") from exc


def __dir__() -> list[str]:  # what the module defines, not what it imports
    return sorted(__all__)
