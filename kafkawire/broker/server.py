"""A single-node, Kafka-compatible broker built only from kafkawire's codec.

It is meant for tests and demos: real Kafka clients (librdkafka, kafka-python,
aiokafka, the Java client) connect to it on 127.0.0.1 and produce, fetch, and run
consumer groups.  Every request is decoded with :func:`kafkawire.decode_request_prefix`
(as Kafka does, bytes after a request's body are ignored; the frame log shows them) and
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

This module holds the broker's state and life cycle; :class:`Broker` gets its behaviour
from mixins: the connection loop (:mod:`~kafkawire.broker.connection_loop`), the dispatch
(:mod:`~kafkawire.broker.dispatch`), the frame log and round-trip check
(:mod:`~kafkawire.broker.frame_checks`), and the request handlers, one module per family of
APIs (:mod:`kafkawire.broker.handlers`); the error codes they answer with are in
:mod:`~kafkawire.broker.codes`.
"""

from __future__ import annotations

import asyncio
import dataclasses
import itertools
import logging
import threading
from collections import defaultdict
from typing import Any, Callable, Dict, List, Optional, Set, Tuple

from kafkawire import messages as M
from kafkawire import records as R
from kafkawire.broker.acls import AclStore
from kafkawire.broker.config import BrokerConfig
from kafkawire.broker.connection_loop import ConnectionLoop
from kafkawire.broker.connections import CodecStats, Connection
from kafkawire.broker.dispatch import Dispatch
from kafkawire.broker.frame_checks import FrameChecks
from kafkawire.broker.frame_log import FrameLog
from kafkawire.broker.group_log import GroupLog
from kafkawire.broker.groups import GroupCoordinator
from kafkawire.broker.handlers.acls import AclHandlers
from kafkawire.broker.handlers.common import HandlerHelpers
from kafkawire.broker.handlers.groups import GroupHandlers
from kafkawire.broker.handlers.produce_fetch import ProduceFetchHandlers
from kafkawire.broker.handlers.sasl import SaslHandlers
from kafkawire.broker.handlers.topics import TopicHandlers
from kafkawire.broker.security import ListenerSecurity
from kafkawire.broker.storage import Storage

log = logging.getLogger("kafkawire.broker")


def _versions_of(api_key: int) -> Tuple[int, int]:
    r = M.supported_versions(api_key)
    return r.lowest, r.highest


class Broker(
    ConnectionLoop,
    Dispatch,
    FrameChecks,
    SaslHandlers,
    TopicHandlers,
    ProduceFetchHandlers,
    AclHandlers,
    GroupHandlers,
    HandlerHelpers,
):
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
    certificates); ``super_users``; ``acl_enforce``; ``session_lifetime_ms``; for GSSAPI
    (Kerberos), ``kerberos_keytab``, the service's keytab, and ``kerberos_principal``,
    the service principal in it to use (by default any).
    """

    def __init__(self, config: Optional[BrokerConfig] = None, **settings: Any) -> None:
        """``config``, or the :class:`~kafkawire.broker.config.BrokerConfig` the keyword
        ``settings`` make (given both, the settings replace the config's)."""
        if config is None:
            config = BrokerConfig(**settings)
        elif settings:
            config = dataclasses.replace(config, **settings)
        self.config = config
        self.host = config.host
        self.port = config.port
        self.log_dir = config.log_dir
        self.node_id = config.node_id
        self.num_partitions = config.num_partitions
        self.auto_create_topics = config.auto_create_topics
        self.max_frame_size = config.max_frame_size
        self.cluster_id = config.cluster_id
        self._frame_log_target = config.frame_log
        self.frame_log: Optional[FrameLog] = None
        self.check_roundtrip = (
            (config.frame_log is not None) if config.check_roundtrip is None else config.check_roundtrip
        )
        self.api_versions: Dict[int, Tuple[int, int]] = dict(
            config.api_versions
            if config.api_versions is not None
            else {k: _versions_of(k) for k in self.HANDLERS}
        )
        self.security = ListenerSecurity(
            config.security_protocol,
            sasl_mechanisms=config.sasl_mechanisms,
            users=config.users,
            ssl_certfile=config.ssl_certfile,
            ssl_keyfile=config.ssl_keyfile,
            ssl_cafile=config.ssl_cafile,
            session_lifetime_ms=config.session_lifetime_ms,
            kerberos_keytab=config.kerberos_keytab,
            kerberos_principal=config.kerberos_principal,
        )
        self.super_users = tuple(config.super_users)
        self.acl_enforce = config.acl_enforce
        self.acls: Optional[AclStore] = None
        self.authentications: List[
            Tuple[int, Optional[str], Optional[str]]
        ] = []  # (conn, mechanism, principal or None)
        self.storage: Optional[Storage] = None
        self.groups = GroupCoordinator()
        self.stats = CodecStats()
        self.roundtrip_failures: List[Dict[str, Any]] = []
        self.handler_errors: List[str] = []  # exceptions raised while answering (bugs)
        self.versions_seen: Dict[int, Set[int]] = defaultdict(set)  # API key -> versions asked
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
        self._tasks: Set[asyncio.Task[Any]] = set()
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
        self.groups.attach_log(GroupLog(self.log_dir))
        if self.groups.log is not None and self.groups.log.log.next_offset:
            self._offsets_topic()  # kept from an earlier run, as Kafka keeps it
        self._appended = asyncio.Condition()
        if self._frame_log_target is not None:
            self.frame_log = FrameLog(self._frame_log_target)
        self.groups.start()
        self._server = await asyncio.start_server(
            self._serve_connection, self.host, self.port, limit=1 << 20, ssl=self.security.ssl_context()
        )
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

    async def __aexit__(self, *exc: object) -> None:
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

    def __exit__(self, *exc: object) -> None:
        self.shutdown()

    def shutdown(self, timeout: float = 10.0) -> None:
        """Stop a broker started with ``with`` (from any thread but its own)."""
        if self._thread is None:
            return
        stop = self._stop_event  # made before the thread reported ready
        if self._loop is not None and stop is not None and not self._loop.is_closed():
            self._loop.call_soon_threadsafe(stop.set)
        self._thread.join(timeout)
        self._thread = None

    def call(self, fn: Callable[[], Any], timeout: float = 10.0) -> Any:
        """Run ``fn()`` on the broker's loop and return its result (thread-safe)."""

        async def run() -> Any:
            return fn()

        return asyncio.run_coroutine_threadsafe(run(), self._running_loop).result(timeout)

    # -- inspection (for tests) ------------------------------------------------------
    def topic_records(self, topic: str) -> Dict[int, List[R.Record]]:
        """Every record of ``topic`` by partition, decoded with kafkawire.records."""

        def collect() -> Dict[int, bytes]:
            t = self._store.topics[topic]
            return {p.partition: b"".join(p.iter_batches()) for p in t.partitions}

        raw = self.call(collect)
        return {p: R.decode(data) for p, data in raw.items()}

    def topic_batches(self, topic: str) -> Dict[int, List[Any]]:
        """The batch headers of ``topic`` by partition."""

        def collect() -> Dict[int, bytes]:
            t = self._store.topics[topic]
            return {p.partition: b"".join(p.iter_batches()) for p in t.partitions}

        raw = self.call(collect)
        return {p: list(R.iter_batches(data)) for p, data in raw.items()}
