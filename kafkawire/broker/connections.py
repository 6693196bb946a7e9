"""What the broker knows of each client connection, and its codec statistics (the loop
that serves a connection is :mod:`kafkawire.broker.connection_loop`)."""

from __future__ import annotations

import asyncio
from collections import defaultdict
from typing import Any, Dict, Optional, Tuple

from kafkawire.protocol import messages as M
from kafkawire import sasl
from kafkawire.broker.security import ANONYMOUS
from kafkawire.connection import ServerConnection


class Connection:
    """What the broker knows of one client connection: its socket and the state of its
    protocol (correlation ids, response order, client id and software)."""

    __slots__ = ("id", "peer", "writer", "protocol", "principal", "sasl", "session_expires")

    def __init__(
        self, conn_id: int, peer: str, writer: asyncio.StreamWriter, protocol: ServerConnection
    ) -> None:
        self.id = conn_id
        self.peer = peer
        self.writer = writer
        self.protocol = protocol
        self.principal: str = ANONYMOUS
        self.sasl: Optional[sasl.ServerSession] = None  # on a SASL listener
        self.session_expires: Optional[float] = None  # loop time (KIP-368)

    @property
    def client_id(self) -> Optional[str]:
        return self.protocol.client_id

    @property
    def software(self) -> Optional[Tuple[str, str]]:
        return self.protocol.client_software

    @property
    def requests(self) -> int:
        return self.protocol.requests_received

    @property
    def host(self) -> str:
        return self.peer.rsplit(":", 1)[0]

    async def send(self, frame: bytes) -> None:
        """Write ``frame`` to the client and wait until the socket's buffer has room."""
        self.writer.write(frame)
        await self.writer.drain()


class CodecStats:
    """Time spent in kafkawire's codec per API: request decode and response encode."""

    def __init__(self) -> None:
        self.count: Dict[int, int] = defaultdict(int)
        self.decode_ns: Dict[int, int] = defaultdict(int)
        self.encode_ns: Dict[int, int] = defaultdict(int)

    def summary(self) -> Dict[str, Dict[str, Any]]:
        out: Dict[str, Dict[str, Any]] = {}
        for key in sorted(self.count):
            n = self.count[key]
            name = M.request_class(key).__name__[: -len("Request")]
            out[name] = {
                "requests": n,
                "decode_us_per_request": self.decode_ns[key] / n / 1000.0,
                "encode_us_per_request": self.encode_ns[key] / n / 1000.0,
            }
        return out

    def total_us_per_request(self) -> float:
        n = sum(self.count.values())
        if not n:
            return 0.0
        return (sum(self.decode_ns.values()) + sum(self.encode_ns.values())) / n / 1000.0
