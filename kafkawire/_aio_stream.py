"""The socket under :class:`kafkawire.aio.AsyncConnection`: an asyncio protocol that hands
over the pieces the socket delivers as they are, with flow control both ways.

asyncio's ``StreamReader`` copies every piece into a buffer and out again; the frame
reader of the connection keeps the pieces and joins a frame's once, so this stream only
queues them.  Reading pauses while more than twice ``limit`` bytes wait to be read;
:meth:`drain` waits while the transport's write buffer is full.
"""

from __future__ import annotations

import asyncio
import ssl
from collections import deque
from typing import Any, Deque, Optional


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
        self, context: ssl.SSLContext, *, server_hostname: str, ssl_handshake_timeout: float
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
