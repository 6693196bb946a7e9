"""A TCP proxy on 127.0.0.1 in front of a real broker that spoils Fetch or Produce responses.

Clients bootstrap through the proxy; it rewrites the brokers listed in Metadata responses
to its own address, so they keep coming back through it for Fetch too.  The first
``faults`` Fetch responses that carry records are spoiled by ``fault``:

* ``"cut"``: half the frame is sent, then both connections are closed;
* ``"garbage"``: the frame keeps its size and correlation id, the rest is 0xff bytes;
* ``"corrupt"``: one byte inside the partition's record batch is flipped (the frame
  still decodes, the batch's CRC does not match).

With ``api=ApiKey.PRODUCE`` the responses spoiled are Produce responses, the first
``faults`` after ``after`` of them have passed, and the fault is ``"cut"``: the broker has
written the records, the client hears nothing of it.

Everything else passes unchanged.  ``accepted`` counts the client connections taken, and
``drop_connections`` closes those open, as a broker restart would.  ``requests`` lists
each request as it arrives (monotonic time, API key), ``throttled`` each Fetch response
with a ``throttle_time_ms`` as it leaves for the client (monotonic time, that time).  The proxy is
bounded: it closes itself after ``lifetime`` seconds, and closing it ends every thread it
started.
"""

from __future__ import annotations

import select
import socket
import struct
import threading
import time
from typing import Dict, List, Optional, Tuple

import kafkawire
from kafkawire.protocol.schema.catalog import ApiKey

FAULTS = ("cut", "garbage", "corrupt")


class FaultProxy:
    """``with FaultProxy(host, port, "cut", faults=1) as proxy:`` bootstrap on ``proxy.address``."""

    def __init__(
        self,
        host: str,
        port: int,
        fault: str,
        *,
        faults: int = 1,
        lifetime: float = 120.0,
        api: int = ApiKey.FETCH,
        after: int = 0,
    ) -> None:
        if fault not in FAULTS:
            raise ValueError(f"fault must be one of {FAULTS}, not {fault!r}")
        if api not in (ApiKey.FETCH, ApiKey.PRODUCE) or (api == ApiKey.PRODUCE and fault != "cut"):
            raise ValueError("the faults are a Fetch response spoiled any way, or a Produce response cut")
        self.api = api
        self.passed_left = after  # responses of ``api`` to let through before the faults
        self.upstream = (host, port)
        self.fault = fault
        self.faults_left = faults
        self.spoiled = 0  # responses spoiled so far
        self.requests: List[Tuple[float, int]] = []
        self.throttled: List[Tuple[float, int]] = []
        self._lock = threading.Lock()
        self._stop = threading.Event()
        self._listener = socket.create_server(("127.0.0.1", 0))
        self._listener.settimeout(0.2)
        self.port = self._listener.getsockname()[1]
        self._sockets: List[socket.socket] = []
        self.accepted = 0  # client connections taken so far
        self._threads = [threading.Thread(target=self._accept, daemon=True)]
        self._deadline = time.monotonic() + lifetime
        self._threads[0].start()

    @property
    def address(self) -> str:
        return f"127.0.0.1:{self.port}"

    def __enter__(self) -> "FaultProxy":
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    def close(self) -> None:
        """Stop accepting, close every connection, and join the threads."""
        self._stop.set()
        with self._lock:
            for s in self._sockets:
                _close(s)
        _close(self._listener)
        for t in self._threads:
            if t is not threading.current_thread():
                t.join(5)

    def drop_connections(self) -> None:
        """Close every connection made so far, as a broker restarting would; new ones are
        still taken."""
        with self._lock:
            dropped, self._sockets = self._sockets, []
        for s in dropped:
            _close(s)

    # -- plumbing ---------------------------------------------------------------------

    def _accept(self) -> None:
        while not self._stop.is_set():
            if time.monotonic() > self._deadline:
                threading.Thread(target=self.close, daemon=True).start()
                return
            try:
                client, _ = self._listener.accept()
            except socket.timeout:
                continue
            except OSError:
                return
            try:
                broker = socket.create_connection(self.upstream, timeout=10)
            except OSError:
                _close(client)
                continue
            for s in (client, broker):
                s.settimeout(10)  # sends; reads wait in select, a fifth of a second at a time
            asked: Dict[int, Tuple[int, int]] = {}  # correlation id -> (api key, version)
            with self._lock:
                self.accepted += 1
                self._sockets += [client, broker]
                pumps = [
                    threading.Thread(target=self._requests, args=(client, broker, asked), daemon=True),
                    threading.Thread(target=self._responses, args=(broker, client, asked), daemon=True),
                ]
                self._threads += pumps
            for t in pumps:
                t.start()

    def _frames(self, source: socket.socket, sink: socket.socket):
        """Whole size-prefixed frames read from ``source`` (None when the pair is done)."""
        buf = b""
        while not self._stop.is_set():
            while len(buf) >= 4 and len(buf) >= 4 + struct.unpack_from(">i", buf)[0]:
                size = struct.unpack_from(">i", buf)[0]
                yield buf[: 4 + size]
                buf = buf[4 + size :]
            try:
                if not select.select([source], [], [], 0.2)[0]:
                    continue
                chunk = source.recv(1 << 16)
            except (OSError, ValueError):  # closed under us
                break
            if not chunk:
                break
            buf += chunk
        _close(source)
        _close(sink)

    def _requests(
        self, client: socket.socket, broker: socket.socket, asked: Dict[int, Tuple[int, int]]
    ) -> None:
        for frame in self._frames(client, broker):
            api_key, version, correlation_id = struct.unpack_from(">hhi", frame, 4)
            asked[correlation_id] = (api_key, version)
            self.requests.append((time.monotonic(), api_key))
            if not _send(broker, frame):
                break

    def _responses(
        self, broker: socket.socket, client: socket.socket, asked: Dict[int, Tuple[int, int]]
    ) -> None:
        for frame in self._frames(broker, client):
            (correlation_id,) = struct.unpack_from(">i", frame, 4)
            api_key, version = asked.pop(correlation_id, (-1, -1))
            if api_key == ApiKey.METADATA:
                frame = self._rewritten_metadata(frame, version, correlation_id)
            elif api_key == ApiKey.FETCH and self.faults_left <= 0:
                throttle = kafkawire.decode_response(frame[4:], ApiKey.FETCH, version)[1].throttle_time_ms
                if throttle:
                    self.throttled.append((time.monotonic(), throttle))
            elif api_key == self.api:
                spoiled = self._spoiled(frame, version, correlation_id)
                if spoiled is None:  # cut
                    _send(client, frame[: len(frame) // 2])
                    _close(client)
                    _close(broker)
                    return
                frame = spoiled
            if not _send(client, frame):
                break

    def _rewritten_metadata(self, frame: bytes, version: int, correlation_id: int) -> bytes:
        _, message = kafkawire.decode_response(frame[4:], ApiKey.METADATA, version)
        for b in message.brokers:
            b.host, b.port = "127.0.0.1", self.port
        return kafkawire.encode_response(message, version, correlation_id)

    def _spoiled(self, frame: bytes, version: int, correlation_id: int) -> Optional[bytes]:
        """The frame to send in place of a Fetch or Produce response (None: cut it)."""
        if self.api == ApiKey.PRODUCE:
            with self._lock:
                if self.passed_left > 0 or self.faults_left <= 0:
                    self.passed_left -= 1
                    return frame
                self.faults_left -= 1
                self.spoiled += 1
            return None
        _, message = kafkawire.decode_response(frame[4:], ApiKey.FETCH, version)
        parts = [p for t in message.responses for p in t.partitions if p.records]
        with self._lock:
            if not parts or self.faults_left <= 0:
                return frame
            self.faults_left -= 1
            self.spoiled += 1
        if self.fault == "cut":
            return None
        if self.fault == "garbage":
            return frame[:8] + b"\xff" * (len(frame) - 8)
        records = bytearray(parts[0].records)
        records[len(records) // 2] ^= 0x5A
        parts[0].records = bytes(records)
        return kafkawire.encode_response(message, version, correlation_id)


def _send(s: socket.socket, data: bytes) -> bool:
    try:
        s.sendall(data)
        return True
    except OSError:
        return False


def _close(s: socket.socket) -> None:
    try:
        s.shutdown(socket.SHUT_RDWR)
    except OSError:
        pass
    try:
        s.close()
    except OSError:
        pass
