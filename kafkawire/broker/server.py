"""A single-node, Kafka-compatible broker built only from kafkawire's codec.

It is meant for tests and demos: real Kafka clients (librdkafka, kafka-python,
aiokafka, the Java client) connect to it on 127.0.0.1 and produce, fetch, and run
consumer groups.  Every request is decoded with :func:`kafkawire.decode_request` and
every response encoded with :func:`kafkawire.encode_response`, so a conversation with a
real client exercises the codec end to end; with ``check_roundtrip`` every frame is
also re-encoded after decoding and compared with the bytes on the wire.

Each connection's bookkeeping (framing, request decoding, response order, client id) is
a :class:`kafkawire.connection.ServerConnection`.  Connections are handled as Kafka
handles them: requests of one connection are answered in order, one at a time; a
frame over ``max_frame_size``, a negative size, a request that does not decode, an
unknown API key, or an API this broker does not implement closes that connection (the
others keep working); an ApiVersions request at a version the broker does not serve is
answered in the v0 shape with UNSUPPORTED_VERSION and the broker's versions (KIP-511).

Security (:mod:`kafkawire.broker.security`, :mod:`kafkawire.broker.acls`): the listener
speaks PLAINTEXT, SSL, SASL_PLAINTEXT or SASL_SSL.  On a SASL listener only ApiVersions,
SaslHandshake and SaslAuthenticate are answered before authentication (anything else
closes the connection), a refused authentication is answered with
SASL_AUTHENTICATION_FAILED and closes it, and a session lifetime (KIP-368) ends
connections that do not re-authenticate in time.  With ``acl_enforce`` every request is
authorized against the ACLs of CreateAcls, as Kafka's StandardAuthorizer would.
"""
from __future__ import annotations

import asyncio
import itertools
import json
import logging
import os
import threading
import time
import uuid
from collections import defaultdict
from typing import Any, Callable, Dict, List, Mapping, Optional, Sequence, Tuple, Union

import kafkawire
from kafkawire import messages as M
from kafkawire import records as R
from kafkawire.error_codes import ErrorCode
from kafkawire.errors import DecodeError, InvalidFrame, UnknownApiError, UnsupportedVersionError
from kafkawire.connection import InvalidRequest, RequestEvent, SaslTokenReceived, ServerConnection
from kafkawire.framing import DEFAULT_MAX_FRAME_SIZE
from kafkawire.headers import (
    encode_request_header, encode_response_header,
    request_header_version, response_header_version,
)
from kafkawire.broker import acls as A
from kafkawire.broker.acls import AclBinding, AclError, AclFilter, AclStore
from kafkawire.broker.group_log import GroupLog
from kafkawire.broker.groups import UNKNOWN_MEMBER_ID, GroupCoordinator
from kafkawire.broker.security import (
    ANONYMOUS, BEFORE_AUTHENTICATION, SASL_MECHANISMS, ListenerSecurity, certificate_principal,
)
from kafkawire.errors import SaslError
from kafkawire.broker.storage import (
    Storage, StorageError, peek_magic, split_batches, topic_name_error,
)

log = logging.getLogger("kafkawire.broker")

# Kafka error codes the broker answers with.
NONE = ErrorCode.NONE.value
OFFSET_OUT_OF_RANGE = ErrorCode.OFFSET_OUT_OF_RANGE.value
CORRUPT_MESSAGE = ErrorCode.CORRUPT_MESSAGE.value
UNKNOWN_TOPIC_OR_PARTITION = ErrorCode.UNKNOWN_TOPIC_OR_PARTITION.value
LEADER_NOT_AVAILABLE = ErrorCode.LEADER_NOT_AVAILABLE.value
MESSAGE_TOO_LARGE = ErrorCode.MESSAGE_TOO_LARGE.value
COORDINATOR_NOT_AVAILABLE = ErrorCode.COORDINATOR_NOT_AVAILABLE.value
INVALID_TOPIC_EXCEPTION = ErrorCode.INVALID_TOPIC_EXCEPTION.value
INVALID_REQUIRED_ACKS = ErrorCode.INVALID_REQUIRED_ACKS.value
INVALID_GROUP_ID = ErrorCode.INVALID_GROUP_ID.value
UNSUPPORTED_VERSION = ErrorCode.UNSUPPORTED_VERSION.value
TOPIC_ALREADY_EXISTS = ErrorCode.TOPIC_ALREADY_EXISTS.value
INVALID_PARTITIONS = ErrorCode.INVALID_PARTITIONS.value
INVALID_REPLICATION_FACTOR = ErrorCode.INVALID_REPLICATION_FACTOR.value
INVALID_REQUEST = ErrorCode.INVALID_REQUEST.value
UNSUPPORTED_FOR_MESSAGE_FORMAT = ErrorCode.UNSUPPORTED_FOR_MESSAGE_FORMAT.value
INVALID_RECORD = ErrorCode.INVALID_RECORD.value
UNKNOWN_TOPIC_ID = ErrorCode.UNKNOWN_TOPIC_ID.value
TOPIC_AUTHORIZATION_FAILED = ErrorCode.TOPIC_AUTHORIZATION_FAILED.value
GROUP_AUTHORIZATION_FAILED = ErrorCode.GROUP_AUTHORIZATION_FAILED.value
CLUSTER_AUTHORIZATION_FAILED = ErrorCode.CLUSTER_AUTHORIZATION_FAILED.value
ILLEGAL_SASL_STATE = ErrorCode.ILLEGAL_SASL_STATE.value
TRANSACTIONAL_ID_AUTHORIZATION_FAILED = ErrorCode.TRANSACTIONAL_ID_AUTHORIZATION_FAILED.value
MISMATCHED_ENDPOINT_TYPE = ErrorCode.MISMATCHED_ENDPOINT_TYPE.value

API_VERSIONS = 18
# Kafka's connection.failed.authentication.delay.ms: a refused client gets time to read
# the refusal before the connection closes (clients that see the close first report a
# lost connection instead of the reason)
FAILED_AUTHENTICATION_DELAY = 0.1

ZERO_UUID = uuid.UUID(int=0)


def _versions_of(api_key: int) -> Tuple[int, int]:
    r = M.supported_versions(api_key)
    return r.lowest, r.highest


class FrameLog:
    """Writes every frame of the broker's conversations as JSON lines: direction,
    connection, API, version, correlation id, the payload in hex (what
    ``kafkawire decode`` reads back) and the decoded header and body."""

    def __init__(self, target: Union[str, os.PathLike, Callable[[dict], None]]) -> None:
        self._fh = None
        if callable(target):
            self._sink = target
        else:
            self._fh = open(target, "a", encoding="utf-8")
            self._sink = self._write

    def _write(self, entry: dict) -> None:
        self._fh.write(json.dumps(entry, default=str) + "\n")
        self._fh.flush()

    def __call__(self, entry: dict) -> None:
        self._sink(entry)

    def close(self) -> None:
        if self._fh is not None:
            self._fh.close()
            self._fh = None


class Connection:
    """What the broker knows of one client connection: its socket and the state of its
    protocol (correlation ids, response order, client id and software)."""

    __slots__ = ("id", "peer", "writer", "protocol", "principal", "sasl", "session_expires")

    def __init__(self, conn_id: int, peer: str, writer: asyncio.StreamWriter,
                 protocol: ServerConnection) -> None:
        self.id = conn_id
        self.peer = peer
        self.writer = writer
        self.protocol = protocol

    @property
    def client_id(self) -> Optional[str]:
        return self.protocol.client_id

    @property
    def software(self) -> Optional[Tuple[str, str]]:
        return self.protocol.client_software

    @property
    def requests(self) -> int:
        return self.protocol.requests_received
        self.principal = ANONYMOUS
        self.sasl = None  # kafkawire.sasl.ServerSession on a SASL listener
        self.session_expires: Optional[float] = None  # loop time (KIP-368)

    @property
    def host(self) -> str:
        return self.peer.rsplit(":", 1)[0]


class CodecStats:
    """Time spent in kafkawire's codec per API: request decode and response encode."""

    def __init__(self) -> None:
        self.count: Dict[int, int] = defaultdict(int)
        self.decode_ns: Dict[int, int] = defaultdict(int)
        self.encode_ns: Dict[int, int] = defaultdict(int)

    def summary(self) -> Dict[str, dict]:
        out = {}
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


class Broker:
    """A single-node Kafka broker on 127.0.0.1, for tests and demos.

    Use it as a context manager (``with Broker() as b:`` runs it on a thread of its own;
    ``async with Broker() as b:`` on the running loop); ``b.bootstrap_servers`` is what
    clients connect to.

    ``log_dir`` keeps partitions as Kafka segment files, and consumer groups as records of
    ``__consumer_offsets`` (:mod:`kafkawire.broker.group_log`), and reloads both on start;
    ``frame_log`` (a path or a callable taking a dict) records every frame;
    ``check_roundtrip`` (default: on when ``frame_log`` is given) re-encodes every
    decoded frame and records any difference in :attr:`roundtrip_failures`;
    ``num_partitions`` is the partition count of auto-created topics.

    Security: ``security_protocol`` (PLAINTEXT, SSL, SASL_PLAINTEXT, SASL_SSL);
    ``sasl_mechanisms`` and ``users`` (name -> password; SCRAM credentials derived from
    it); ``ssl_certfile``/``ssl_keyfile`` (and ``ssl_cafile`` to require client
    certificates); ``super_users``; ``acl_enforce``; ``session_lifetime_ms``.
    """

    #: API key -> handler method name.  ApiVersions advertises exactly these.
    HANDLERS = {
        0: "_produce",
        1: "_fetch",
        2: "_list_offsets",
        3: "_metadata",
        8: "_offset_commit",
        9: "_offset_fetch",
        10: "_find_coordinator",
        11: "_join_group",
        12: "_heartbeat",
        13: "_leave_group",
        14: "_sync_group",
        17: "_sasl_handshake",
        18: "_api_versions",
        19: "_create_topics",
        20: "_delete_topics",
        22: "_init_producer_id",
        29: "_describe_acls",
        30: "_create_acls",
        31: "_delete_acls",
        36: "_sasl_authenticate",
        60: "_describe_cluster",
        75: "_describe_topic_partitions",
    }

    def __init__(self, *, host: str = "127.0.0.1", port: int = 0, log_dir: Optional[str] = None,
                 node_id: int = 1, num_partitions: int = 1, auto_create_topics: bool = True,
                 frame_log: Union[None, str, os.PathLike, Callable[[dict], None]] = None,
                 check_roundtrip: Optional[bool] = None,
                 max_frame_size: int = DEFAULT_MAX_FRAME_SIZE,
                 cluster_id: str = "kafkawire-test-cluster",
                 api_versions: Optional[Dict[int, Tuple[int, int]]] = None,
                 security_protocol: str = "PLAINTEXT",
                 sasl_mechanisms: Sequence[str] = SASL_MECHANISMS,
                 users: Optional[Mapping[str, str]] = None,
                 ssl_certfile: Optional[str] = None, ssl_keyfile: Optional[str] = None,
                 ssl_cafile: Optional[str] = None, super_users: Sequence[str] = (),
                 acl_enforce: bool = False, session_lifetime_ms: int = 0) -> None:
        self.host = host
        self.port = port
        self.log_dir = log_dir
        self.node_id = node_id
        self.num_partitions = num_partitions
        self.auto_create_topics = auto_create_topics
        self.max_frame_size = max_frame_size
        self.cluster_id = cluster_id
        self._frame_log_target = frame_log
        self.frame_log: Optional[FrameLog] = None
        self.check_roundtrip = (frame_log is not None) if check_roundtrip is None else check_roundtrip
        self.api_versions: Dict[int, Tuple[int, int]] = dict(
            api_versions if api_versions is not None else {k: _versions_of(k) for k in self.HANDLERS})
        self.security = ListenerSecurity(
            security_protocol, sasl_mechanisms=sasl_mechanisms, users=users,
            ssl_certfile=ssl_certfile, ssl_keyfile=ssl_keyfile, ssl_cafile=ssl_cafile,
            session_lifetime_ms=session_lifetime_ms)
        self.super_users = tuple(super_users)
        self.acl_enforce = acl_enforce
        self.acls: Optional[AclStore] = None
        self.authentications: List[Tuple[int, str, Optional[str]]] = []  # (conn, mechanism, principal or None)
        self.storage: Optional[Storage] = None
        self.groups = GroupCoordinator()
        self.stats = CodecStats()
        self.roundtrip_failures: List[dict] = []
        self.handler_errors: List[str] = []  # exceptions raised while answering (bugs)
        self.versions_seen: Dict[int, set] = defaultdict(set)  # API key -> versions asked
        self.frames_checked = 0
        self.fetches_parked = 0  # fetches that waited for data (min_bytes not yet met)
        self.closed_connections: List[Tuple[int, str]] = []  # (connection id, why)
        self.connections: Dict[int, Connection] = {}
        self._conn_ids = itertools.count(1)
        self._producer_ids = itertools.count(1000)
        self._transactional: Dict[str, Tuple[int, int]] = {}
        self._producer_epochs: Dict[int, int] = {}
        self._server: Optional[asyncio.AbstractServer] = None
        self._appended: Optional[asyncio.Condition] = None
        self._tasks: set = set()
        self._loop: Optional[asyncio.AbstractEventLoop] = None
        self._thread: Optional[threading.Thread] = None
        self._stop_event: Optional[asyncio.Event] = None

    # -- life cycle ------------------------------------------------------------------
    @property
    def bootstrap_servers(self) -> str:
        return f"{self.host}:{self.port}"

    async def start(self) -> "Broker":
        """Open the log, bind the listening socket and start serving."""
        self._loop = asyncio.get_running_loop()
        self.storage = Storage(self.log_dir)
        self.acls = AclStore(self.log_dir, self.super_users)
        if self.log_dir is not None:
            self.groups.attach_log(GroupLog(self.log_dir))
        self._appended = asyncio.Condition()
        if self._frame_log_target is not None:
            self.frame_log = FrameLog(self._frame_log_target)
        self.groups.start()
        self._server = await asyncio.start_server(self._serve_connection, self.host, self.port,
                                                  limit=1 << 20, ssl=self.security.ssl_context())
        self.port = self._server.sockets[0].getsockname()[1]
        log.info("kafkawire broker listening on %s", self.bootstrap_servers)
        return self

    async def stop(self) -> None:
        """Stop listening, close every connection, flush and close the log."""
        if self._server is not None:
            self._server.close()
            self._server = None
        for conn in list(self.connections.values()):
            conn.writer.close()
        for task in list(self._tasks):
            task.cancel()
        if self._tasks:
            await asyncio.wait(list(self._tasks), timeout=5)
        await self.groups.stop()
        if self.groups.log is not None:
            self.groups.log.close()
            self.groups.log = None
        if self.storage is not None:
            self.storage.close()
        if self.frame_log is not None:
            self.frame_log.close()
            self.frame_log = None

    async def __aenter__(self) -> "Broker":
        return await self.start()

    async def __aexit__(self, *exc) -> None:
        await self.stop()

    def __enter__(self) -> "Broker":
        """Run the broker on an event loop of its own, in a daemon thread."""
        ready = threading.Event()
        failure: List[BaseException] = []

        def run() -> None:
            loop = asyncio.new_event_loop()
            asyncio.set_event_loop(loop)
            try:
                self._stop_event = asyncio.Event()
                loop.run_until_complete(self.start())
            except BaseException as exc:  # report to the starting thread
                failure.append(exc)
                ready.set()
                loop.close()
                return
            ready.set()
            try:
                loop.run_until_complete(self._stop_event.wait())
            finally:
                loop.run_until_complete(self.stop())
                loop.close()

        self._thread = threading.Thread(target=run, name="kafkawire-broker", daemon=True)
        self._thread.start()
        if not ready.wait(30):
            raise RuntimeError("the broker did not start within 30 s")
        if failure:
            raise failure[0]
        return self

    def __exit__(self, *exc) -> None:
        self.shutdown()

    def shutdown(self, timeout: float = 10.0) -> None:
        """Stop a broker started with ``with`` (from any thread but its own)."""
        if self._thread is None:
            return
        if self._loop is not None and not self._loop.is_closed():
            self._loop.call_soon_threadsafe(self._stop_event.set)
        self._thread.join(timeout)
        self._thread = None

    def call(self, fn: Callable[[], Any], timeout: float = 10.0) -> Any:
        """Run ``fn()`` on the broker's loop and return its result (thread-safe)."""
        async def run():
            return fn()
        return asyncio.run_coroutine_threadsafe(run(), self._loop).result(timeout)

    # -- inspection (for tests) ------------------------------------------------------
    def topic_records(self, topic: str) -> Dict[int, list]:
        """Every record of ``topic`` by partition, decoded with kafkawire.records."""
        def collect():
            t = self.storage.topics[topic]
            return {p.partition: b"".join(p.iter_batches()) for p in t.partitions}
        raw = self.call(collect)
        return {p: R.decode(data) for p, data in raw.items()}

    def topic_batches(self, topic: str) -> Dict[int, list]:
        """The batch headers of ``topic`` by partition."""
        def collect():
            t = self.storage.topics[topic]
            return {p.partition: b"".join(p.iter_batches()) for p in t.partitions}
        raw = self.call(collect)
        return {p: list(R.iter_batches(data)) for p, data in raw.items()}

    # -- connections -----------------------------------------------------------------
    async def _serve_connection(self, reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        task = asyncio.current_task()
        self._tasks.add(task)
        peer = writer.get_extra_info("peername")
        protocol = ServerConnection(self.api_versions, max_frame_size=self.max_frame_size)
        conn = Connection(next(self._conn_ids), f"{peer[0]}:{peer[1]}" if peer else "?", writer, protocol)
        if self.security.uses_ssl:
            tls = writer.get_extra_info("ssl_object")
            conn.principal = certificate_principal(tls.getpeercert() if tls is not None else None)
        conn.sasl = self.security.sasl_session()
        self.connections[conn.id] = conn
        why = "client closed the connection"
        try:
            while True:
                data = await reader.read(1 << 18)
                if not data:
                    if not protocol.at_frame_boundary:
                        why = f"client closed the connection inside a frame ({protocol.buffered} bytes buffered)"
                    break
                t0 = time.perf_counter_ns()
                events = protocol.receive_data(data)
                # decode time of this read, shared by the requests it completed
                decode_ns = (time.perf_counter_ns() - t0) // max(1, len(events))
                close = None
                for event in events:
                    try:
                        close = await self._handle_event(conn, event, decode_ns)
                    except (ConnectionError, asyncio.CancelledError):
                        raise
                    except Exception as exc:  # a broker bug: keep it visible, drop the connection
                        log.exception("connection %d: request failed", conn.id)
                        self.handler_errors.append(f"{type(exc).__name__}: {exc}")
                        close = f"internal error: {type(exc).__name__}: {exc}"
                    if close:
                        break
                if close:
                    why = close
                    break
        except (ConnectionError, asyncio.IncompleteReadError) as exc:
            why = f"connection error: {exc}"
        except asyncio.CancelledError:
            why = "broker stopping"
        finally:
            protocol.connection_lost()
            self.connections.pop(conn.id, None)
            self.closed_connections.append((conn.id, why))
            log.debug("connection %d (%s) closed: %s", conn.id, conn.peer, why)
            try:
                writer.close()
            except Exception:  # already gone
                pass
            self._tasks.discard(task)

    async def _send(self, conn: Connection, frame: bytes) -> None:
        conn.writer.write(frame)
        await conn.writer.drain()

    @staticmethod
    def _why_invalid(error: Exception) -> str:
        """Why a request the connection could not serve closes it, as Kafka closes it."""
        if isinstance(error, InvalidFrame):
            return f"invalid frame: {error}"
        if isinstance(error, UnknownApiError):
            return f"unknown or unimplemented API: {error}"
        if isinstance(error, UnsupportedVersionError):
            return f"unsupported version: {error}"
        return f"request does not decode: {error}"

    async def _handle_event(self, conn: Connection, event, decode_ns: int) -> Optional[str]:
        """Answer one request; returns why the connection must close, or None.

        Requests of one connection are handled one at a time, as Kafka does, so what
        ``respond`` releases is exactly this request's response."""
        if isinstance(event, InvalidRequest):
            return self._why_invalid(event.error)
        if isinstance(event, SaslTokenReceived):
            return await self._raw_sasl_token(conn, event)
        if not isinstance(event, RequestEvent):
            return f"{type(event).__name__} is not served by this broker"
        api_key, version = event.api_key, event.version
        self.versions_seen[api_key].add(version)
        if event.unsupported_version:
            return await self._unsupported_api_versions(conn, event)
        refused = self._before_authentication(conn, api_key)
        if refused:
            return refused
        handler_name = self.HANDLERS.get(api_key)
        if handler_name is None:
            return f"API key {api_key} ({type(event.message).__name__}) is not implemented by this broker"
        header, request = event.header, event.message
        if self.frame_log is not None or self.check_roundtrip:
            self._log_request(conn, event.payload, header, request)
        response = await getattr(self, handler_name)(conn, header, request, version)
        self.stats.count[api_key] += 1
        self.stats.decode_ns[api_key] += decode_ns
        if not event.expects_response:  # Produce with acks=0 has no response
            return None
        t2 = time.perf_counter_ns()
        frame = conn.protocol.respond(event, response)
        self.stats.encode_ns[api_key] += time.perf_counter_ns() - t2
        if self.frame_log is not None or self.check_roundtrip:
            self._log_response(conn, frame, api_key, version, header.correlation_id)
        await self._send(conn, frame)
        if conn.sasl is not None and conn.sasl.failure is not None:
            await asyncio.sleep(FAILED_AUTHENTICATION_DELAY)
            return f"SASL authentication failed: {conn.sasl.failure}"
        return None

    # -- authentication --------------------------------------------------------------
    def _before_authentication(self, conn: Connection, api_key: int) -> Optional[str]:
        """Why a request must close the connection: sent before SASL authentication, or
        after the session lifetime ran out without re-authentication (KIP-368)."""
        if conn.sasl is None or api_key in BEFORE_AUTHENTICATION:
            return None
        if not conn.sasl.authenticated:
            return f"API key {api_key} sent before SASL authentication"
        if conn.session_expires is not None and self._loop.time() > conn.session_expires:
            return "the SASL session expired without re-authentication"
        return None

    def _authenticated(self, conn: Connection) -> None:
        conn.principal = f"User:{conn.sasl.principal}"
        lifetime = self.security.session_lifetime_ms
        conn.session_expires = self._loop.time() + lifetime / 1000.0 if lifetime else None
        self.authentications.append((conn.id, conn.sasl.mechanism, conn.sasl.principal))

    async def _raw_sasl_token(self, conn: Connection, event: SaslTokenReceived) -> Optional[str]:
        """A bare token after SaslHandshake v0: answered with a bare frame; a refusal
        closes the connection (this framing has no way to say why)."""
        if conn.sasl is None or not conn.sasl.expects_raw_token:
            return "a bare SASL token where none is expected"
        try:
            reply = conn.sasl.raw_token(event.token)
        except SaslError as exc:
            self.authentications.append((conn.id, conn.sasl.mechanism, None))
            await asyncio.sleep(FAILED_AUTHENTICATION_DELAY)
            return f"SASL authentication failed: {exc}"
        if not conn.sasl.expects_raw_token:  # the mechanism finished: Kafka requests again
            conn.protocol.end_sasl_tokens()
            self._authenticated(conn)
        await self._send(conn, conn.protocol.respond(event, reply))
        return None

    async def _sasl_handshake(self, conn, header, req, version):
        if conn.sasl is None:  # Kafka answers so on listeners without SASL
            conn.protocol.end_sasl_tokens()
            return M.SaslHandshakeResponse(error_code=ILLEGAL_SASL_STATE, mechanisms=[])
        response = conn.sasl.handshake(req, version)
        if not conn.sasl.expects_raw_token:
            conn.protocol.end_sasl_tokens()
        return response

    async def _sasl_authenticate(self, conn, header, req, version):
        if conn.sasl is None:
            return M.SaslAuthenticateResponse(error_code=ILLEGAL_SASL_STATE, auth_bytes=b"",
                                              error_message="this listener has no SASL")
        response = conn.sasl.authenticate(req, version)
        if conn.sasl.failure is not None:
            self.authentications.append((conn.id, conn.sasl.mechanism, None))
        elif conn.sasl.exchange_complete:
            self._authenticated(conn)
        return response

    async def _unsupported_api_versions(self, conn: Connection, event: "RequestEvent") -> None:
        """KIP-511: an ApiVersions request at a version this broker does not serve gets a
        v0-shaped response: UNSUPPORTED_VERSION plus the versions the broker supports."""
        response = conn.protocol.api_versions_response(error_code=UNSUPPORTED_VERSION)
        frame = conn.protocol.respond(event, response)
        if self.frame_log is not None:
            self.frame_log({"time": time.time(), "connection": conn.id, "direction": "request",
                            "api_key": API_VERSIONS, "api_version": event.version,
                            "correlation_id": event.correlation_id, "hex": event.payload.hex(),
                            "note": "version not supported: answered as KIP-511 asks"})
        if self.frame_log is not None or self.check_roundtrip:
            self._log_response(conn, frame, API_VERSIONS, 0, event.correlation_id)
        await self._send(conn, frame)
        return None

    # -- frame log and round-trip check ----------------------------------------------
    def _roundtrip_failed(self, entry: dict, expected: bytes, got: bytes) -> None:
        diff_at = next((i for i, (a, b) in enumerate(zip(expected, got)) if a != b),
                       min(len(expected), len(got)))
        failure = dict(entry, reencoded_hex=got.hex(), first_difference=diff_at)
        self.roundtrip_failures.append(failure)
        log.error("frame does not re-encode to the same bytes: %s v%s (byte %d)",
                  entry.get("api_name"), entry.get("api_version"), diff_at)

    def _log_request(self, conn: Connection, payload: bytes, header, request) -> None:
        version = header.request_api_version
        entry = {"time": time.time(), "connection": conn.id, "direction": "request",
                 "api_key": header.request_api_key, "api_name": type(request).__name__,
                 "api_version": version, "correlation_id": header.correlation_id}

        def encode_again() -> bytes:
            hv = request_header_version(header.request_api_key, version)
            return encode_request_header(header, hv) + request.encode(version)

        self._check_and_log(entry, payload, header, request, encode_again)

    def _log_response(self, conn: Connection, frame: bytes, api_key: int, version: int,
                      correlation_id: int) -> None:
        payload = memoryview(frame)[4:]
        cls = M.response_class(api_key)
        entry = {"time": time.time(), "connection": conn.id, "direction": "response",
                 "api_key": api_key, "api_name": cls.__name__, "api_version": version,
                 "correlation_id": correlation_id}
        try:
            header, body = kafkawire.decode_response(payload, api_key, version)
        except DecodeError as exc:
            entry["decode_error"] = str(exc)
            self.roundtrip_failures.append(dict(entry, hex=bytes(payload).hex()))
            if self.frame_log is not None:
                self.frame_log(dict(entry, hex=bytes(payload).hex()))
            return

        def encode_again() -> bytes:
            # KIP-511 answers are v0-shaped whatever was asked
            body_version = version
            if api_key == API_VERSIONS and body.error_code == UNSUPPORTED_VERSION:
                body_version = 0
            hv = response_header_version(api_key, version)
            return encode_response_header(header, hv) + body.encode(body_version)

        self._check_and_log(entry, payload, header, body, encode_again)

    def _check_and_log(self, entry: dict, payload, header, body,
                       encode_again: Callable[[], bytes]) -> None:
        """With ``check_roundtrip``, whether re-encoding ``header`` and ``body`` gives
        ``payload`` back; then ``entry`` to the frame log, if there is one."""
        if self.check_roundtrip:
            again = encode_again()
            self.frames_checked += 1
            entry["roundtrip"] = again == bytes(payload)
            if not entry["roundtrip"]:
                self._roundtrip_failed(dict(entry, hex=bytes(payload).hex()), bytes(payload), again)
        if self.frame_log is not None:
            entry["hex"] = bytes(payload).hex()
            entry["header"] = header.to_dict()
            entry["body"] = body.to_dict()
            self.frame_log(entry)

    # -- helpers ---------------------------------------------------------------------
    def _allowed(self, conn: Connection, operation: int, resource_type: int, name: str) -> bool:
        """Whether the connection's principal may do ``operation`` on the resource
        (always, without ``acl_enforce``)."""
        if not self.acl_enforce:
            return True
        return self.acls.authorize(conn.principal, conn.host, operation, resource_type, name)

    def _may_create_topic(self, conn: Connection, name: str) -> bool:
        return (self._allowed(conn, A.CREATE, A.CLUSTER, A.CLUSTER_NAME)
                or self._allowed(conn, A.CREATE, A.TOPIC, name))

    def _resolve(self, name: Optional[str], topic_id: Optional[uuid.UUID], by_id: bool):
        """``(topic, error)`` for a topic named by name (old versions) or id (new)."""
        if by_id:
            t = self.storage.by_id.get(topic_id)
            return t, (NONE if t is not None else UNKNOWN_TOPIC_ID)
        t = self.storage.topics.get(name)
        return t, (NONE if t is not None else UNKNOWN_TOPIC_OR_PARTITION)

    @staticmethod
    def _partition(topic, topic_error: int, index: int):
        """``(partition log, error)`` of partition ``index`` of ``topic`` (None, its
        lookup failing with ``topic_error``)."""
        if topic is None:
            return None, topic_error
        if not 0 <= index < len(topic.partitions):
            return None, UNKNOWN_TOPIC_OR_PARTITION
        return topic.partitions[index], NONE

    def _topic_operations(self, conn: Connection, name: str) -> int:
        if not self.acl_enforce:
            return _ALL_TOPIC_OPERATIONS
        return self.acls.operations(conn.principal, conn.host, A.TOPIC, name, _TOPIC_OPERATIONS)

    def _auto_create(self, name: str) -> int:
        err = topic_name_error(name)
        if err is not None:
            return INVALID_TOPIC_EXCEPTION
        self.storage.create_topic(name, self.num_partitions)
        return NONE

    # -- ApiVersions -----------------------------------------------------------------
    async def _api_versions(self, conn, header, req, version):
        return conn.protocol.api_versions_response()

    # -- Metadata --------------------------------------------------------------------
    async def _metadata(self, conn, header, req, version):
        R_ = M.MetadataResponse
        storage = self.storage
        wanted: List[Tuple[Optional[str], Optional[uuid.UUID]]]
        if req.topics is None or (version == 0 and not req.topics):
            wanted = [(t.name, None) for t in storage.topics.values() if not t.name.startswith("__")
                      and self._allowed(conn, A.DESCRIBE, A.TOPIC, t.name)]
        else:
            wanted = [(t.name, t.topic_id if version >= 10 else None) for t in req.topics]
        auto = self.auto_create_topics and (version < 4 or req.allow_auto_topic_creation)
        topics = []
        for name, topic_id in wanted:
            topic = None
            error = NONE
            if name is None and topic_id is not None and topic_id != ZERO_UUID:
                topic = storage.by_id.get(topic_id)
                error = NONE if topic is not None else UNKNOWN_TOPIC_ID
            elif name is not None:
                topic = storage.topics.get(name)
                if not self._allowed(conn, A.DESCRIBE, A.TOPIC, name):
                    topic, error = None, TOPIC_AUTHORIZATION_FAILED
                elif topic is None:
                    if topic_name_error(name) is not None:
                        error = INVALID_TOPIC_EXCEPTION
                    elif auto and not self._may_create_topic(conn, name):
                        error = UNKNOWN_TOPIC_OR_PARTITION
                    elif auto:
                        error = self._auto_create(name)
                        topic = storage.topics.get(name)
                    else:
                        error = UNKNOWN_TOPIC_OR_PARTITION
            else:
                error = INVALID_REQUEST
            if topic is not None and name is None and not self._allowed(conn, A.DESCRIBE, A.TOPIC, topic.name):
                topic, error = None, TOPIC_AUTHORIZATION_FAILED
            if topic is None:
                topics.append(R_.MetadataResponseTopic(
                    error_code=error, name=name if name is not None or version >= 12 else "",
                    topic_id=topic_id or ZERO_UUID, partitions=[]))
                continue
            parts = [R_.MetadataResponsePartition(
                error_code=NONE, partition_index=p.partition, leader_id=self.node_id,
                leader_epoch=p.leader_epoch, replica_nodes=[self.node_id], isr_nodes=[self.node_id],
                offline_replicas=[]) for p in topic.partitions]
            topics.append(R_.MetadataResponseTopic(
                error_code=NONE, name=topic.name, topic_id=topic.topic_id,
                is_internal=topic.is_internal, partitions=parts,
                topic_authorized_operations=self._topic_operations(conn, topic.name)
                if version >= 8 and req.include_topic_authorized_operations else -2147483648))
        brokers = [R_.MetadataResponseBroker(node_id=self.node_id, host=self.host, port=self.port, rack=None)]
        return R_(throttle_time_ms=0, brokers=brokers, cluster_id=self.cluster_id,
                  controller_id=self.node_id, topics=topics)

    # -- DescribeCluster / DescribeTopicPartitions (what Kafka's admin client asks) -------
    async def _describe_cluster(self, conn, header, req, version):
        R_ = M.DescribeClusterResponse
        if version >= 1 and req.endpoint_type != _BROKER_ENDPOINT:
            # as Kafka's brokers answer: controllers are not reachable through a broker
            return R_(throttle_time_ms=0, error_code=MISMATCHED_ENDPOINT_TYPE,
                      error_message="The request was sent to an endpoint of type BROKER, "
                                    "but we wanted an endpoint of type CONTROLLER",
                      cluster_id="", brokers=[])
        operations = -2147483648  # Kafka's "not requested"
        if req.include_cluster_authorized_operations:
            operations = (_ALL_CLUSTER_OPERATIONS if not self.acl_enforce else self.acls.operations(
                conn.principal, conn.host, A.CLUSTER, A.CLUSTER_NAME, _CLUSTER_OPERATIONS))
        broker = R_.DescribeClusterBroker(broker_id=self.node_id, host=self.host, port=self.port,
                                          rack=None, is_fenced=False)
        return R_(throttle_time_ms=0, error_code=NONE, error_message=None, cluster_id=self.cluster_id,
                  controller_id=self.node_id, brokers=[broker],
                  cluster_authorized_operations=operations)

    async def _describe_topic_partitions(self, conn, header, req, version):
        """Topics in name order from the cursor on, at most ``response_partition_limit``
        partitions in all; the next cursor names the first partition left out (as Kafka
        4.4 does: a topic is left out whole once the limit is reached before it)."""
        R_ = M.DescribeTopicPartitionsResponse
        storage = self.storage
        if req.topics:
            names = sorted({t.name for t in req.topics})
        else:
            names = sorted(n for n in storage.topics if not n.startswith("__")
                           and self._allowed(conn, A.DESCRIBE, A.TOPIC, n))
        cursor = req.cursor
        if cursor is not None:
            names = [n for n in names if n >= cursor.topic_name]
        budget = max(req.response_partition_limit, 0)
        topics, next_cursor = [], None
        for name in names:
            first = cursor.partition_index if cursor is not None and name == cursor.topic_name else 0
            if budget == 0:
                next_cursor = R_.Cursor(topic_name=name, partition_index=first)
                break
            topic = storage.topics.get(name)
            error = NONE
            if not self._allowed(conn, A.DESCRIBE, A.TOPIC, name):
                topic, error = None, TOPIC_AUTHORIZATION_FAILED
            elif topic is None:
                error = UNKNOWN_TOPIC_OR_PARTITION
            if topic is None:
                topics.append(R_.DescribeTopicPartitionsResponseTopic(
                    error_code=error, name=name, topic_id=ZERO_UUID, partitions=[],
                    topic_authorized_operations=self._topic_operations(conn, name)))
                continue
            taken = topic.partitions[first:first + budget]
            budget -= len(taken)
            topics.append(R_.DescribeTopicPartitionsResponseTopic(
                error_code=NONE, name=name, topic_id=topic.topic_id, is_internal=topic.is_internal,
                partitions=[R_.DescribeTopicPartitionsResponsePartition(
                    error_code=NONE, partition_index=p.partition, leader_id=self.node_id,
                    leader_epoch=p.leader_epoch, replica_nodes=[self.node_id],
                    isr_nodes=[self.node_id], eligible_leader_replicas=[], last_known_elr=[],
                    offline_replicas=[]) for p in taken],
                topic_authorized_operations=self._topic_operations(conn, name)))
            if first + len(taken) < len(topic.partitions):
                next_cursor = R_.Cursor(topic_name=name, partition_index=first + len(taken))
                break
        return R_(throttle_time_ms=0, topics=topics, next_cursor=next_cursor)

    # -- CreateTopics / DeleteTopics -------------------------------------------------------
    async def _create_topics(self, conn, header, req, version):
        R_ = M.CreateTopicsResponse
        results = []
        names = [t.name for t in req.topics]
        for t in req.topics:
            res = R_.CreatableTopicResult(name=t.name, error_code=NONE, error_message=None)
            error, message = NONE, None
            partitions = t.num_partitions
            if t.assignments:
                partitions = len(t.assignments)
            elif partitions == -1:
                partitions = self.num_partitions
            if names.count(t.name) > 1:
                error, message = INVALID_REQUEST, f"topic {t.name!r} appears more than once"
            elif not self._may_create_topic(conn, t.name):
                error, message = TOPIC_AUTHORIZATION_FAILED, "Authorization failed."
            elif topic_name_error(t.name):
                error, message = INVALID_TOPIC_EXCEPTION, topic_name_error(t.name)
            elif t.name in self.storage.topics:
                error, message = TOPIC_ALREADY_EXISTS, f"Topic '{t.name}' already exists."
            elif partitions <= 0:
                error, message = INVALID_PARTITIONS, "Number of partitions must be larger than 0."
            elif t.replication_factor not in (-1, 1) or any(
                    len(a.broker_ids) != 1 or a.broker_ids[0] != self.node_id for a in t.assignments):
                error, message = INVALID_REPLICATION_FACTOR, (
                    "Replication factor must be 1 (or -1): this cluster has one broker.")
            res.error_code, res.error_message = error, message
            if error == NONE:
                configs = {c.name: c.value for c in t.configs}
                if not req.validate_only:
                    topic = self.storage.create_topic(t.name, partitions, configs=configs)
                    res.topic_id = topic.topic_id
                if version >= 5:
                    res.num_partitions = partitions
                    res.replication_factor = 1
                    res.configs = [R_.CreatableTopicConfigs(name=k, value=v, read_only=False,
                                                             config_source=1, is_sensitive=False)
                                   for k, v in sorted(configs.items())]
            results.append(res)
        return R_(throttle_time_ms=0, topics=results)

    async def _delete_topics(self, conn, header, req, version):
        R_ = M.DeleteTopicsResponse
        results = []
        if version >= 6:
            wanted = [(t.name, t.topic_id) for t in req.topics]
        else:
            wanted = [(n, None) for n in req.topic_names]
        for name, topic_id in wanted:
            if name is None:
                topic = self.storage.by_id.get(topic_id)
                error = NONE if topic is not None else UNKNOWN_TOPIC_ID
                if topic is not None and not self._allowed(conn, A.DESCRIBE, A.TOPIC, topic.name):
                    topic, error = None, UNKNOWN_TOPIC_ID  # by id, a hidden topic stays unknown
            else:
                topic = self.storage.topics.get(name)
                error = NONE if topic is not None else UNKNOWN_TOPIC_OR_PARTITION
            if (topic is not None or name is not None) and not self._allowed(
                    conn, A.DELETE, A.TOPIC, topic.name if topic is not None else name):
                error = TOPIC_AUTHORIZATION_FAILED
            elif topic is not None:
                self.storage.delete_topic(topic.name)
            results.append(R_.DeletableTopicResult(
                name=topic.name if topic is not None else name,
                topic_id=topic.topic_id if topic is not None else (topic_id or ZERO_UUID),
                error_code=error))
        return R_(throttle_time_ms=0, responses=results)

    # -- Produce ---------------------------------------------------------------------
    def _to_batches(self, buf, produce_version: int):
        """The magic-2 batches of a produce request's records.  Produce v3+ (the only
        versions since Kafka 4) must carry record batches, never legacy message sets."""
        if buf is None or len(buf) == 0:
            raise StorageError(INVALID_RECORD, "no records")
        magic = peek_magic(buf)
        if magic in (0, 1):
            raise StorageError(UNSUPPORTED_FOR_MESSAGE_FORMAT, "Produce v3+ must carry record batches (magic 2)")
        if magic != 2:
            raise StorageError(CORRUPT_MESSAGE, f"unknown magic {magic}")
        batches = split_batches(buf)
        for _batch in R.iter_batches(buf):  # CRC check of every batch (records stay packed)
            pass
        return batches

    async def _produce(self, conn, header, req, version):
        R_ = M.ProduceResponse
        by_id = version >= 13
        responses = []
        appended = False
        txn_denied = req.transactional_id is not None and not self._allowed(
            conn, A.WRITE, A.TRANSACTIONAL_ID, req.transactional_id)
        for td in req.topic_data:
            topic, terr = self._resolve(td.name, td.topic_id, by_id)
            if txn_denied:
                topic, terr = None, TRANSACTIONAL_ID_AUTHORIZATION_FAILED
            elif not self._allowed(conn, A.WRITE, A.TOPIC, topic.name if topic else td.name or ""):
                topic, terr = None, TOPIC_AUTHORIZATION_FAILED
            parts = []
            for pd in td.partition_data:
                res = R_.PartitionProduceResponse(index=pd.index, error_code=NONE, base_offset=-1,
                                                  log_append_time_ms=-1, log_start_offset=-1)
                plog, res.error_code = self._partition(topic, terr, pd.index)
                if plog is not None and req.acks not in (-1, 0, 1):
                    res.error_code = INVALID_REQUIRED_ACKS
                    plog = None
                if plog is not None:
                    try:
                        batches = self._to_batches(pd.records, version)
                        base, _dup = plog.append(batches)
                        res.base_offset = base
                        res.log_start_offset = plog.log_start_offset
                        appended = appended or not _dup
                    except StorageError as exc:
                        res.error_code = exc.code
                        if version >= 8:
                            res.error_message = str(exc)
                    except DecodeError as exc:
                        res.error_code = CORRUPT_MESSAGE
                        if version >= 8:
                            res.error_message = str(exc)
                parts.append(res)
            responses.append(R_.TopicProduceResponse(
                name=td.name if not by_id else (topic.name if topic else ""),
                topic_id=td.topic_id, partition_responses=parts))
        if appended:
            async with self._appended:
                self._appended.notify_all()
        if req.acks == 0:
            return None
        return R_(responses=responses, throttle_time_ms=0)

    # -- Fetch -----------------------------------------------------------------------
    async def _fetch(self, conn, header, req, version):
        loop = asyncio.get_running_loop()

        deadline = loop.time() + max(req.max_wait_ms, 0) / 1000.0
        min_bytes = max(req.min_bytes, 0)
        parked = False
        while True:
            async with self._appended:
                response, total, errors = self._fetch_once(conn, req, version)
                remaining = deadline - loop.time()
                if total >= min_bytes or errors or remaining <= 0:
                    return response
                if not parked:
                    parked = True
                    self.fetches_parked += 1
                try:
                    await asyncio.wait_for(self._appended.wait(), remaining)
                except asyncio.TimeoutError:
                    pass

    def _fetch_once(self, conn, req, version):
        R_ = M.FetchResponse
        by_id = version >= 13
        budget = req.max_bytes if version >= 3 else 0x7FFFFFFF
        total = 0
        errors = False
        topics = []
        for ft in req.topics:
            topic, terr = self._resolve(ft.topic, ft.topic_id, by_id)
            if not self._allowed(conn, A.READ, A.TOPIC, topic.name if topic else ft.topic or ""):
                topic, terr = None, TOPIC_AUTHORIZATION_FAILED
            parts = []
            for fp in ft.partitions:
                pd = R_.PartitionData(partition_index=fp.partition, error_code=NONE,
                                      high_watermark=-1, last_stable_offset=-1,
                                      log_start_offset=-1, aborted_transactions=None if version >= 4 else [],
                                      records=b"")
                plog, pd.error_code = self._partition(topic, terr, fp.partition)
                if plog is None:
                    errors = True
                    parts.append(pd)
                    continue
                pd.high_watermark = plog.high_watermark
                pd.last_stable_offset = plog.high_watermark
                pd.log_start_offset = plog.log_start_offset
                limit = min(fp.partition_max_bytes, budget - total)
                try:
                    # KIP-74: the first batch of the response comes whole whatever the limits
                    chunks = plog.read(fp.fetch_offset, max(limit, 0), min_one=total == 0)
                except StorageError as exc:
                    pd.error_code = exc.code
                    errors = True
                    parts.append(pd)
                    continue
                if chunks:
                    data = b"".join(chunks)
                    pd.records = data
                    total += len(data)
                parts.append(pd)
            topics.append(R_.FetchableTopicResponse(topic=ft.topic if not by_id else (topic.name if topic else ""),
                                                    topic_id=ft.topic_id, partitions=parts))
        return R_(throttle_time_ms=0, error_code=NONE, session_id=0, responses=topics), total, errors

    # -- ListOffsets -----------------------------------------------------------------
    async def _list_offsets(self, conn, header, req, version):
        R_ = M.ListOffsetsResponse
        topics = []
        for lt in req.topics:
            topic = self.storage.topics.get(lt.name)
            terr = UNKNOWN_TOPIC_OR_PARTITION
            if not self._allowed(conn, A.DESCRIBE, A.TOPIC, lt.name):
                topic, terr = None, TOPIC_AUTHORIZATION_FAILED
            parts = []
            for lp in lt.partitions:
                res = R_.ListOffsetsPartitionResponse(partition_index=lp.partition_index, error_code=NONE)
                if version == 0:
                    res.old_style_offsets = []
                plog, res.error_code = self._partition(topic, terr, lp.partition_index)
                if plog is None:
                    parts.append(res)
                    continue
                ts = lp.timestamp
                if ts == -1:
                    offset, found_ts = plog.high_watermark, -1
                elif ts in (-2, -4):
                    offset, found_ts = plog.log_start_offset, -1
                elif ts == -3:
                    offset, found_ts = plog.max_timestamp_offset()
                elif ts < 0:
                    offset, found_ts = -1, -1
                else:
                    offset, found_ts = plog.offset_for_timestamp(ts)
                if version == 0:
                    res.old_style_offsets = [offset] if offset >= 0 and lp.max_num_offsets > 0 else []
                else:
                    res.offset, res.timestamp = offset, found_ts
                    if version >= 4:
                        res.leader_epoch = plog.leader_epoch if offset >= 0 else -1
                parts.append(res)
            topics.append(R_.ListOffsetsTopicResponse(name=lt.name, partitions=parts))
        return R_(throttle_time_ms=0, topics=topics)

    # -- InitProducerId --------------------------------------------------------------
    async def _init_producer_id(self, conn, header, req, version):
        R_ = M.InitProducerIdResponse
        if req.transactional_id is not None:
            if not self._allowed(conn, A.WRITE, A.TRANSACTIONAL_ID, req.transactional_id):
                return R_(throttle_time_ms=0, error_code=TRANSACTIONAL_ID_AUTHORIZATION_FAILED,
                          producer_id=-1, producer_epoch=-1)
        elif self.acl_enforce and not (
                self._allowed(conn, A.IDEMPOTENT_WRITE, A.CLUSTER, A.CLUSTER_NAME)
                or self.acls.any_topic_allows(conn.principal, conn.host, A.WRITE)):
            return R_(throttle_time_ms=0, error_code=CLUSTER_AUTHORIZATION_FAILED,
                      producer_id=-1, producer_epoch=-1)
        if req.transactional_id is not None:
            pid, epoch = self._transactional.get(req.transactional_id, (None, -1))
            if pid is None:
                pid = next(self._producer_ids)
            epoch = epoch + 1
            self._transactional[req.transactional_id] = (pid, epoch)
        elif version >= 3 and req.producer_id >= 0 and req.producer_id in self._producer_epochs:
            pid = req.producer_id
            epoch = self._producer_epochs[pid] + 1  # KIP-360: bump the epoch, keep the id
        else:
            pid, epoch = next(self._producer_ids), 0
        self._producer_epochs[pid] = epoch
        return R_(throttle_time_ms=0, error_code=NONE, producer_id=pid, producer_epoch=epoch)

    # -- ACLs ------------------------------------------------------------------------
    def _cluster_allowed(self, conn, operation: int) -> bool:
        return self._allowed(conn, operation, A.CLUSTER, A.CLUSTER_NAME)

    async def _create_acls(self, conn, header, req, version):
        R_ = M.CreateAclsResponse
        results, added = [], []
        allowed = self._cluster_allowed(conn, A.ALTER)
        for c in req.creations:
            binding = AclBinding(c.resource_type, c.resource_name,
                                 c.resource_pattern_type if version >= 1 else A.LITERAL,
                                 c.principal, c.host, c.operation, c.permission_type)
            error, message = NONE, None
            if not allowed:
                error, message = CLUSTER_AUTHORIZATION_FAILED, "Authorization failed."
            else:
                try:
                    binding.validate()
                    added.append(binding)
                except AclError as exc:
                    error, message = INVALID_REQUEST, str(exc)
            results.append(R_.AclCreationResult(error_code=error, error_message=message))
        self.acls.add(added)
        return R_(throttle_time_ms=0, results=results)

    @staticmethod
    def _acl_filter(f, version: int) -> AclFilter:
        return AclFilter(f.resource_type_filter, f.resource_name_filter,
                         f.pattern_type_filter if version >= 1 else A.LITERAL,
                         f.principal_filter, f.host_filter, f.operation, f.permission_type)

    async def _describe_acls(self, conn, header, req, version):
        R_ = M.DescribeAclsResponse
        if not self._cluster_allowed(conn, A.DESCRIBE):
            return R_(throttle_time_ms=0, error_code=CLUSTER_AUTHORIZATION_FAILED,
                      error_message="Authorization failed.", resources=[])
        flt = self._acl_filter(req, version)
        try:
            flt.validate()
        except AclError as exc:
            return R_(throttle_time_ms=0, error_code=INVALID_REQUEST, error_message=str(exc), resources=[])
        by_resource: Dict[Tuple[int, str, int], list] = defaultdict(list)
        for b in self.acls.describe(flt):
            by_resource[(b.resource_type, b.resource_name, b.pattern_type)].append(
                R_.AclDescription(principal=b.principal, host=b.host, operation=b.operation,
                                  permission_type=b.permission_type))
        return R_(throttle_time_ms=0, error_code=NONE, error_message=None, resources=[
            R_.DescribeAclsResource(resource_type=t, resource_name=n, pattern_type=p, acls=acls)
            for (t, n, p), acls in by_resource.items()])

    async def _delete_acls(self, conn, header, req, version):
        R_ = M.DeleteAclsResponse
        allowed = self._cluster_allowed(conn, A.ALTER)
        results = []
        for f in req.filters:
            if not allowed:
                results.append(R_.DeleteAclsFilterResult(
                    error_code=CLUSTER_AUTHORIZATION_FAILED, error_message="Authorization failed.",
                    matching_acls=[]))
                continue
            flt = self._acl_filter(f, version)
            try:
                flt.validate()
            except AclError as exc:
                results.append(R_.DeleteAclsFilterResult(error_code=INVALID_REQUEST,
                                                         error_message=str(exc), matching_acls=[]))
                continue
            results.append(R_.DeleteAclsFilterResult(error_code=NONE, error_message=None, matching_acls=[
                R_.DeleteAclsMatchingAcl(error_code=NONE, error_message=None, resource_type=b.resource_type,
                                         resource_name=b.resource_name, pattern_type=b.pattern_type,
                                         principal=b.principal, host=b.host, operation=b.operation,
                                         permission_type=b.permission_type)
                for b in self.acls.delete(flt)]))
        return R_(throttle_time_ms=0, filter_results=results)

    # -- groups ----------------------------------------------------------------------
    async def _find_coordinator(self, conn, header, req, version):
        R_ = M.FindCoordinatorResponse
        key_type = req.key_type if version >= 1 else 0

        def error_for(key: str) -> int:
            if key_type == 1:
                ok = self._allowed(conn, A.DESCRIBE, A.TRANSACTIONAL_ID, key)
                return NONE if ok else TRANSACTIONAL_ID_AUTHORIZATION_FAILED
            return NONE if self._allowed(conn, A.DESCRIBE, A.GROUP, key) else GROUP_AUTHORIZATION_FAILED

        def coordinator(error: int):
            if error:
                return dict(error_code=error, error_message="Authorization failed.", node_id=-1,
                            host="", port=-1)
            return dict(error_code=NONE, error_message=None, node_id=self.node_id, host=self.host,
                        port=self.port)

        if version >= 4:
            coords = [R_.Coordinator(key=k, **coordinator(error_for(k))) for k in req.coordinator_keys]
            return R_(throttle_time_ms=0, coordinators=coords)
        return R_(throttle_time_ms=0, **coordinator(error_for(req.key)))

    async def _join_group(self, conn, header, req, version):
        R_ = M.JoinGroupResponse
        if not req.group_id:
            result_error = INVALID_GROUP_ID
            return R_(error_code=result_error, generation_id=-1,
                      protocol_name=None if version >= 7 else "", leader="", member_id=req.member_id,
                      members=[])
        if not self._allowed(conn, A.READ, A.GROUP, req.group_id):
            return R_(error_code=GROUP_AUTHORIZATION_FAILED, generation_id=-1,
                      protocol_name=None if version >= 7 else "", leader="", member_id=req.member_id,
                      members=[])
        group = self.groups.get(req.group_id)
        result = await group.join(
            req.member_id, req.group_instance_id if version >= 5 else None, header.client_id or "",
            conn.peer.rsplit(":", 1)[0], req.session_timeout_ms,
            req.rebalance_timeout_ms if version >= 1 else req.session_timeout_ms,
            req.protocol_type, [(p.name, bytes(p.metadata)) for p in req.protocols],
            require_known_member_id=version >= 4)
        members = [R_.JoinGroupResponseMember(member_id=mid, group_instance_id=gi if version >= 5 else None,
                                               metadata=md) for mid, gi, md in result.members]
        protocol_name = result.protocol_name
        if protocol_name is None and version < 7:
            protocol_name = ""
        return R_(throttle_time_ms=0, error_code=result.error_code, generation_id=result.generation_id,
                  protocol_type=result.protocol_type if version >= 7 else None,
                  protocol_name=protocol_name, leader=result.leader, member_id=result.member_id,
                  members=members)

    async def _sync_group(self, conn, header, req, version):
        R_ = M.SyncGroupResponse
        if not self._allowed(conn, A.READ, A.GROUP, req.group_id):
            return R_(throttle_time_ms=0, error_code=GROUP_AUTHORIZATION_FAILED, assignment=b"")
        group = self.groups.get(req.group_id, create=False)
        if group is None:
            return R_(throttle_time_ms=0, error_code=UNKNOWN_MEMBER_ID, assignment=b"")
        error, assignment = await group.sync(
            req.member_id, req.generation_id, [(a.member_id, bytes(a.assignment)) for a in req.assignments])
        resp = R_(throttle_time_ms=0, error_code=error, assignment=assignment)
        if version >= 5 and error == NONE:
            resp.protocol_type = group.protocol_type
            resp.protocol_name = group.protocol_name
        return resp

    async def _heartbeat(self, conn, header, req, version):
        if not self._allowed(conn, A.READ, A.GROUP, req.group_id):
            return M.HeartbeatResponse(throttle_time_ms=0, error_code=GROUP_AUTHORIZATION_FAILED)
        group = self.groups.get(req.group_id, create=False)
        error = group.heartbeat(req.member_id, req.generation_id) if group else UNKNOWN_MEMBER_ID
        return M.HeartbeatResponse(throttle_time_ms=0, error_code=error)

    async def _leave_group(self, conn, header, req, version):
        R_ = M.LeaveGroupResponse
        if not self._allowed(conn, A.READ, A.GROUP, req.group_id):
            return R_(throttle_time_ms=0, error_code=GROUP_AUTHORIZATION_FAILED, members=[])
        group = self.groups.get(req.group_id, create=False)
        if version < 3:
            error = group.leave(req.member_id) if group else UNKNOWN_MEMBER_ID
            return R_(throttle_time_ms=0, error_code=error)
        members = []
        for m in req.members:
            error = group.leave(m.member_id, m.group_instance_id) if group else UNKNOWN_MEMBER_ID
            members.append(R_.MemberResponse(member_id=m.member_id, group_instance_id=m.group_instance_id,
                                             error_code=error))
        return R_(throttle_time_ms=0, error_code=NONE, members=members)

    async def _offset_commit(self, conn, header, req, version):
        R_ = M.OffsetCommitResponse
        by_id = version >= 10
        generation = req.generation_id_or_member_epoch if version >= 1 else -1
        member_id = req.member_id if version >= 1 else ""
        if not self._allowed(conn, A.READ, A.GROUP, req.group_id):
            group, group_error = None, GROUP_AUTHORIZATION_FAILED
        else:
            group = self.groups.get(req.group_id) if req.group_id else None
            group_error = INVALID_GROUP_ID if group is None else group.check_commit(member_id, generation)
        topics = []
        for t in req.topics:
            topic, terr = self._resolve(t.name, t.topic_id, by_id)
            parts = []
            for p in t.partitions:
                error = group_error
                if error == NONE and not self._allowed(conn, A.READ, A.TOPIC, topic.name if topic else t.name or ""):
                    error = TOPIC_AUTHORIZATION_FAILED
                if error == NONE:
                    plog, error = self._partition(topic, terr, p.partition_index)
                    if plog is not None:
                        group.commit(topic.name, p.partition_index, p.committed_offset,
                                     p.committed_leader_epoch if version >= 6 else -1,
                                     p.committed_metadata, topic.topic_id)
                parts.append(R_.OffsetCommitResponsePartition(partition_index=p.partition_index,
                                                              error_code=error))
            topics.append(R_.OffsetCommitResponseTopic(name=t.name, topic_id=t.topic_id, partitions=parts))
        return R_(throttle_time_ms=0, topics=topics)

    def _offsets_of(self, conn, group_id: str, requested, by_id: bool):
        """``[(name, topic_id, [(partition, offset, epoch, metadata, error)])]``."""
        group = self.groups.get(group_id, create=False)
        committed = group.offsets if group is not None else {}
        out = []
        if requested is None:
            by_topic: Dict[str, list] = defaultdict(list)
            for (topic, part), c in sorted(committed.items()):
                if not self._allowed(conn, A.DESCRIBE, A.TOPIC, topic):
                    continue  # topics the principal may not see are left out
                by_topic[topic].append((part, c.offset, c.leader_epoch, c.metadata, NONE))
            for name, parts in by_topic.items():
                t = self.storage.topics.get(name)
                out.append((name, t.topic_id if t else ZERO_UUID, parts))
            return out
        for name, topic_id, partitions in requested:
            if by_id:
                t = self.storage.by_id.get(topic_id)
                if t is None:
                    out.append((name, topic_id, [(p, -1, -1, "", UNKNOWN_TOPIC_ID) for p in partitions]))
                    continue
                name = t.name
            if not self._allowed(conn, A.DESCRIBE, A.TOPIC, name):
                out.append((name, topic_id, [(p, -1, -1, "", TOPIC_AUTHORIZATION_FAILED) for p in partitions]))
                continue
            parts = []
            for p in partitions:
                c = committed.get((name, p))
                if c is None:
                    parts.append((p, -1, -1, "", NONE))
                else:
                    parts.append((p, c.offset, c.leader_epoch, c.metadata, NONE))
            out.append((name, topic_id, parts))
        return out

    async def _offset_fetch(self, conn, header, req, version):
        R_ = M.OffsetFetchResponse
        if version >= 8:
            groups = []
            for g in req.groups:
                requested = None if g.topics is None else [
                    (t.name, t.topic_id, list(t.partition_indexes)) for t in g.topics]
                topics = []
                if not self._allowed(conn, A.DESCRIBE, A.GROUP, g.group_id):
                    groups.append(R_.OffsetFetchResponseGroup(group_id=g.group_id, topics=[],
                                                              error_code=GROUP_AUTHORIZATION_FAILED))
                    continue
                for name, topic_id, parts in self._offsets_of(conn, g.group_id, requested, version >= 10):
                    topics.append(R_.OffsetFetchResponseTopics(
                        name=name if version < 10 else "", topic_id=topic_id if version >= 10 else ZERO_UUID,
                        partitions=[R_.OffsetFetchResponsePartitions(
                            partition_index=p, committed_offset=o, committed_leader_epoch=e,
                            metadata=md, error_code=err) for p, o, e, md, err in parts]))
                groups.append(R_.OffsetFetchResponseGroup(group_id=g.group_id, topics=topics, error_code=NONE))
            return R_(throttle_time_ms=0, groups=groups)
        requested = None if req.topics is None else [(t.name, None, list(t.partition_indexes))
                                                     for t in req.topics]
        topics = []
        if not self._allowed(conn, A.DESCRIBE, A.GROUP, req.group_id):
            return R_(throttle_time_ms=0, topics=[], error_code=GROUP_AUTHORIZATION_FAILED)
        for name, _tid, parts in self._offsets_of(conn, req.group_id, requested, False):
            topics.append(R_.OffsetFetchResponseTopic(name=name, partitions=[
                R_.OffsetFetchResponsePartition(
                    partition_index=p, committed_offset=o,
                    committed_leader_epoch=e if version >= 5 else -1,
                    metadata=md, error_code=err) for p, o, e, md, err in parts]))
        return R_(throttle_time_ms=0, topics=topics, error_code=NONE)


# The operations a topic has (READ .. DESCRIBE_CONFIGS, ALTER_CONFIGS)
_TOPIC_OPERATIONS = (A.READ, A.WRITE, A.CREATE, A.DELETE, A.ALTER, A.DESCRIBE,
                     A.DESCRIBE_CONFIGS, A.ALTER_CONFIGS)
_ALL_TOPIC_OPERATIONS = sum(1 << b for b in _TOPIC_OPERATIONS)
# The operations the cluster has (what Kafka 4.4 reports without an authorizer)
_CLUSTER_OPERATIONS = (A.CREATE, A.ALTER, A.DESCRIBE, A.CLUSTER_ACTION, A.DESCRIBE_CONFIGS,
                       A.ALTER_CONFIGS, A.IDEMPOTENT_WRITE)
_ALL_CLUSTER_OPERATIONS = sum(1 << b for b in _CLUSTER_OPERATIONS)
_BROKER_ENDPOINT = 1  # DescribeCluster's endpoint type of brokers (2: controllers)
