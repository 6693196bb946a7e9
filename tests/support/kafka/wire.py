"""A blocking kafkawire client connection for tests that talk to a real broker.

``KafkaConnection(host, port).call(request, version)`` encodes ``request`` with
kafkawire, sends it, and returns the response frame's payload with its decoded header
and body.  Every read is bounded by a socket timeout.
"""

from __future__ import annotations

import itertools
import socket
from dataclasses import dataclass
from typing import Any

import kafkawire
from kafkawire.protocol.framing import FrameReader

TIMEOUT = 30.0  # seconds for one answer; coordinator APIs wait for their topic to load


@dataclass
class Reply:
    payload: bytes  # the response frame without its size prefix
    header: Any
    body: Any
    api_key: int
    version: int
    correlation_id: int


class KafkaConnection:
    def __init__(self, host: str, port: int, client_id: str = "kafkawire-tests") -> None:
        self.client_id = client_id
        self._sock = socket.create_connection((host, port), timeout=TIMEOUT)
        self._sock.settimeout(TIMEOUT)
        self._reader = FrameReader()
        self._ids = itertools.count(1)

    def close(self) -> None:
        self._sock.close()

    def __enter__(self) -> "KafkaConnection":
        return self

    def __exit__(self, *exc) -> None:
        self.close()

    def send_frame(self, frame: bytes) -> None:
        self._sock.sendall(frame)

    def read_payload(self) -> bytes:
        while True:
            chunk = self._sock.recv(1 << 20)
            if not chunk:
                raise ConnectionError("the broker closed the connection")
            frames = self._reader.feed(chunk)
            if frames:
                assert len(frames) == 1, "one request in flight, one answer"
                return frames[0]

    def call(self, request: Any, version: int) -> Reply:
        """Send ``request`` at ``version``; return the broker's decoded answer."""
        correlation_id = next(self._ids)
        self.send_frame(kafkawire.encode_request(request, version, correlation_id, client_id=self.client_id))
        payload = self.read_payload()
        header, body = kafkawire.decode_response(payload, type(request).api_key, version)
        assert header.correlation_id == correlation_id
        return Reply(payload, header, body, type(request).api_key, version, correlation_id)
