"""A blocking socket client on :class:`kafkawire.connection.ClientConnection`, for the
tests that talk to a broker (Kafka's or kafkawire's) one request at a time or pipelined,
and authenticate through the connection (SASL PLAIN, SCRAM, OAUTHBEARER; SaslHandshake
v1 or the v0 bare tokens).  Every read is bounded by the socket's timeout."""

from __future__ import annotations

import socket
import ssl
from typing import List, Optional

from kafkawire import sasl as _sasl
from kafkawire.connection import (
    Authenticated,
    AuthenticationFailed,
    ClientConnection,
    ClientPhase,
    RequestFailed,
    ResponseEvent,
)
from kafkawire.errors import ConnectionClosedError
from kafkawire.sasl import SaslClient


class BlockingClient:
    """``target`` is ``(host, port)`` or anything with ``host`` and ``port`` (a test
    broker); ``context`` wraps the socket in TLS."""

    def __init__(
        self,
        target,
        context: Optional[ssl.SSLContext] = None,
        *,
        client_id: str = "kafkawire-test",
        timeout: float = 30,
        max_in_flight: Optional[int] = None,
        sasl: Optional[SaslClient] = None,
    ) -> None:
        address = target if isinstance(target, tuple) else (target.host, target.port)
        sock = socket.create_connection(address, timeout=timeout)
        self.sock = context.wrap_socket(sock, server_hostname="localhost") if context else sock
        self.conn = ClientConnection(client_id, max_in_flight=max_in_flight, sasl=sasl)

    def _read(self) -> list:
        """The events of the next bytes the broker sends (a close is events too)."""
        if self.conn.phase is ClientPhase.CLOSED:
            raise ConnectionClosedError("the connection is closed: nothing more will arrive")
        try:
            data = self.sock.recv(65536)
        except (OSError, ssl.SSLError) as exc:
            return self.conn.connection_lost(f"the connection failed: {exc}")
        if not data:
            return self.conn.connection_lost("the broker closed the connection")
        events = self.conn.receive_data(data)
        answer = self.conn.data_to_send()  # the connection's next SASL step
        if answer:
            self.sock.sendall(answer)
        return events

    def negotiate(self) -> ResponseEvent:
        """The ApiVersions handshake: later requests go at the negotiated versions."""
        (event,) = self.pipeline_events([], api_versions=True)
        return event

    def login(
        self, mechanism: str, username: str, password: str, handshake_version: Optional[int] = 1
    ) -> Authenticated:
        """:meth:`authenticate` with a username/password mechanism."""
        return self.authenticate(_sasl.client_for(mechanism, username, password), handshake_version)

    def authenticate(
        self,
        client: Optional[SaslClient] = None,
        handshake_version: Optional[int] = 1,
    ) -> Authenticated:
        """Run a SASL exchange through the connection; a failure raises its error."""
        self.sock.sendall(self.conn.authenticate(client, handshake_version=handshake_version))
        while True:
            for event in self._read():
                if isinstance(event, Authenticated):
                    return event
                if isinstance(event, AuthenticationFailed):
                    raise event.error
                raise AssertionError(f"unexpected event during authentication: {event!r}")

    def pipeline_events(
        self, messages, version: Optional[int] = None, *, api_versions: bool = False
    ) -> List[ResponseEvent]:
        """Send every message before reading any answer; the response events in order.
        A request that fails raises its error."""
        ids, data = [], b""
        if api_versions:
            cid, frame = self.conn.api_versions_request()
            ids.append(cid)
            data += frame
        for message in messages:
            cid, frame = self.conn.send(message, version=version)
            ids.append(cid)
            data += frame
        self.sock.sendall(data)
        answers = {}
        while len(answers) < len(ids):
            for event in self._read():
                if isinstance(event, RequestFailed):
                    raise event.error
                assert isinstance(event, ResponseEvent), event
                answers[event.correlation_id] = event
        return [answers[cid] for cid in ids]

    def request(self, message, version: Optional[int] = None):
        """The response message to ``message``."""
        (event,) = self.pipeline_events([message], version)
        return event.message

    def closed_by_peer(self) -> bool:
        try:
            return self.sock.recv(1) == b""
        except (ConnectionResetError, ssl.SSLError):
            return True

    def close(self) -> None:
        self.sock.close()
