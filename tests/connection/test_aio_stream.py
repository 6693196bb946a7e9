"""kafkawire.aio.SocketStream: the socket under the asyncio connection, over real sockets:
pieces in order, reading paused while too much waits, drain held back by a peer that
does not read, and a lost connection reported to a reader and a writer."""

from __future__ import annotations

import asyncio
import os
import socket
import struct

import pytest

from kafkawire.aio import SocketStream

pytestmark = [pytest.mark.timeout(60), pytest.mark.in_process]

LIMIT = 1 << 16


async def serve(handle):
    """A server on 127.0.0.1 running ``handle(reader, writer)``; returns (server, port)."""
    server = await asyncio.start_server(handle, "127.0.0.1", 0)
    return server, server.sockets[0].getsockname()[1]


def test_every_byte_in_order_with_reading_paused_while_too_much_waits():
    payload = os.urandom(3 << 20)

    async def handle(reader, writer):
        writer.write(payload)
        await writer.drain()
        writer.close()

    async def main():
        server, port = await serve(handle)
        async with server:
            stream = await SocketStream.connect("127.0.0.1", port, LIMIT)
            await asyncio.sleep(0.5)  # the peer sends while nobody reads
            assert not stream.transport.is_reading()
            # what waits is bounded: reading pauses past twice the limit, plus one read
            assert stream._size <= 2 * LIMIT + (256 << 10)
            got = bytearray()
            while True:
                piece = await asyncio.wait_for(stream.read(), 10)
                if not piece:
                    break
                got += piece
            assert bytes(got) == payload
            assert await stream.read() == b""  # the end stays the end
            await asyncio.wait_for(stream.wait_closed(), 10)

    asyncio.run(main())


def test_drain_waits_for_a_peer_that_does_not_read_then_fails_when_it_goes():
    accepted = asyncio.Event()
    peer = {}

    async def handle(reader, writer):
        peer["writer"] = writer
        accepted.set()

    async def main():
        server, port = await serve(handle)
        async with server:
            stream = await SocketStream.connect("127.0.0.1", port, LIMIT)
            await accepted.wait()
            chunk = bytes(1 << 20)
            waited = False
            for _ in range(256):  # far more than the kernel's buffers hold
                stream.write(chunk)
                drained = asyncio.ensure_future(stream.drain())
                done, _ = await asyncio.wait({drained}, timeout=0.2)
                if not done:
                    waited = True
                    break
            assert waited, "drain never waited though the peer reads nothing"
            sock = peer["writer"].get_extra_info("socket")
            sock.setsockopt(socket.SOL_SOCKET, socket.SO_LINGER, struct.pack("ii", 1, 0))
            peer["writer"].transport.abort()  # a reset, not a clean close
            with pytest.raises((ConnectionError, OSError)):
                await asyncio.wait_for(drained, 10)
            with pytest.raises((ConnectionError, OSError)):
                await asyncio.wait_for(stream.drain(), 10)
            stream.close()
            await asyncio.wait_for(stream.wait_closed(), 10)

    asyncio.run(main())


def test_a_reset_reaches_the_reader_as_an_error_not_an_end():
    async def handle(reader, writer):
        writer.write(b"partial")
        await writer.drain()
        sock = writer.get_extra_info("socket")
        sock.setsockopt(socket.SOL_SOCKET, socket.SO_LINGER, struct.pack("ii", 1, 0))
        writer.transport.abort()

    async def main():
        server, port = await serve(handle)
        async with server:
            stream = await SocketStream.connect("127.0.0.1", port, LIMIT)
            got = b""
            with pytest.raises((ConnectionError, OSError)):
                while True:
                    piece = await asyncio.wait_for(stream.read(), 10)
                    if not piece:
                        break  # a clean end: the test fails below
                    got += piece
            assert got in (b"", b"partial")  # a reset may discard what was queued

    asyncio.run(main())
