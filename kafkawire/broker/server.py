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

This module holds the broker's life cycle and what tests inspect; everything a request
touches is one :class:`~kafkawire.broker.context.BrokerContext`, handed to the connection
loop (:mod:`~kafkawire.broker.connection_loop`), the dispatch
(:mod:`~kafkawire.broker.dispatch`), the frame log and round-trip check
(:mod:`~kafkawire.broker.frame_checks`) and the request handlers, functions in one module
per family of APIs (:mod:`kafkawire.broker.handlers`); the error codes they answer with
are in :mod:`~kafkawire.broker.codes`.
"""

from __future__ import annotations

import asyncio
import dataclasses
import functools
import logging
import threading
from typing import Any, Callable, Dict, List, Mapping, Optional, Set, Tuple

from kafkawire.protocol import messages as M
from kafkawire.protocol import records as R
from kafkawire.broker.acls import AclStore
from kafkawire.broker.config import BrokerConfig
from kafkawire.broker.connection_loop import serve_connection
from kafkawire.broker.connections import CodecStats, Connection
from kafkawire.broker.context import BrokerContext
from kafkawire.broker.dispatch import HANDLERS, Handler
from kafkawire.broker.frame_log import FrameLog
from kafkawire.broker.group_log import GroupLog
from kafkawire.broker.groups import GroupCoordinator
from kafkawire.broker.handlers.common import offsets_topic
from kafkawire.broker.security import ListenerSecurity
from kafkawire.broker.storage import Storage
from kafkawire.protocol.schema.catalog import ApiKey

log = logging.getLogger("kafkawire.broker")


def _versions_of(api_key: int) -> Tuple[int, int]:
    r = M.supported_versions(api_key)
    return r.lowest, r.highest


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
        security = ListenerSecurity(
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
        api_versions: Mapping[int, Tuple[int, int]] = (
            config.api_versions if config.api_versions is not None else {k: _versions_of(k) for k in HANDLERS}
        )
        #: What the connection loop, the dispatch and the handlers share.
        self.context = BrokerContext.made(config, api_versions, security)
        self._server: Optional[asyncio.AbstractServer] = None
        self._thread: Optional[threading.Thread] = None
        self._stop_event: Optional[asyncio.Event] = None

    # -- life cycle ------------------------------------------------------------------
    async def start(self) -> "Broker":
        """Open the log, bind the listening socket and start serving."""
        ctx, config = self.context, self.config
        ctx.state.open(
            asyncio.get_running_loop(), Storage(config.log_dir), AclStore(config.log_dir, config.super_users)
        )
        ctx.state.groups.attach_log(GroupLog(config.log_dir))
        if ctx.state.groups.log is not None and ctx.state.groups.log.log.next_offset:
            offsets_topic(ctx)  # kept from an earlier run, as Kafka keeps it
        if config.frame_log is not None:
            ctx.state.frame_log = FrameLog(config.frame_log)
        ctx.state.groups.start()
        self._server = await asyncio.start_server(
            functools.partial(serve_connection, ctx),
            config.host,
            ctx.state.port,
            limit=1 << 20,
            ssl=ctx.security.ssl_context(),
        )
        ctx.state.port = self._server.sockets[0].getsockname()[1]
        log.info("kafkawire broker listening on %s", self.bootstrap_servers)
        return self

    async def stop(self) -> None:
        """Stop listening, close every connection, flush and close the log."""
        ctx = self.context
        if self._server is not None:
            self._server.close()
            self._server = None
        for conn in list(ctx.state.connections.values()):
            conn.writer.close()
        for task in list(ctx.state.tasks):
            task.cancel()
        if ctx.state.tasks:
            await asyncio.wait(list(ctx.state.tasks), timeout=5)
        await ctx.state.groups.stop()
        if ctx.state.groups.log is not None:
            ctx.state.groups.log.close()
            ctx.state.groups.log = None
        if ctx.state.is_open:
            ctx.state.storage.close()
        if ctx.state.frame_log is not None:
            ctx.state.frame_log.close()
            ctx.state.frame_log = None

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
        state = self.context.state
        loop = state.loop if state.is_open else None
        if loop is not None and stop is not None and not loop.is_closed():
            loop.call_soon_threadsafe(stop.set)
        self._thread.join(timeout)
        self._thread = None

    def call(self, fn: Callable[[], Any], timeout: float = 10.0) -> Any:
        """Run ``fn()`` on the broker's loop and return its result (thread-safe)."""

        async def run() -> Any:
            return fn()

        return asyncio.run_coroutine_threadsafe(run(), self.context.state.loop).result(timeout)

    # -- inspection (for tests) ------------------------------------------------------
    def topic_records(self, topic: str) -> Dict[int, List[R.Record]]:
        """Every record of ``topic`` by partition, decoded with kafkawire.protocol.records."""

        def collect() -> Dict[int, bytes]:
            t = self.context.state.storage.topics[topic]
            return {p.partition: b"".join(p.iter_batches()) for p in t.partitions}

        raw = self.call(collect)
        return {p: R.decode(data) for p, data in raw.items()}

    def topic_batches(self, topic: str) -> Dict[int, List[Any]]:
        """The batch headers of ``topic`` by partition."""

        def collect() -> Dict[int, bytes]:
            t = self.context.state.storage.topics[topic]
            return {p.partition: b"".join(p.iter_batches()) for p in t.partitions}

        raw = self.call(collect)
        return {p: list(R.iter_batches(data)) for p, data in raw.items()}

    # -- what the broker is and saw (for tests; the context holds it) ----------------
    #: The handler of each API key served (:data:`kafkawire.broker.dispatch.HANDLERS`).
    HANDLERS: Dict[ApiKey, Handler] = HANDLERS

    @property
    def bootstrap_servers(self) -> str:
        """``host:port`` for clients to connect to."""
        return f"{self.host}:{self.port}"

    @property
    def host(self) -> str:
        """The address listened on."""
        return self.config.host

    @property
    def port(self) -> int:
        """The port listened on (the one bound, once started), which Metadata and
        FindCoordinator advertise; set it to advertise another (a relay's)."""
        return self.context.state.port

    @port.setter
    def port(self, port: int) -> None:
        self.context.state.port = port

    @property
    def log_dir(self) -> Optional[str]:
        """Where partitions and groups are kept (None: in memory)."""
        return self.config.log_dir

    @property
    def node_id(self) -> int:
        """This broker's node id."""
        return self.config.node_id

    @property
    def cluster_id(self) -> str:
        """The cluster id Metadata and DescribeCluster answer with."""
        return self.config.cluster_id

    @property
    def api_versions(self) -> Mapping[int, Tuple[int, int]]:
        """The versions served of each API key."""
        return self.context.api_versions

    @property
    def security(self) -> ListenerSecurity:
        """The listener's security protocol, TLS and SASL settings."""
        return self.context.security

    @property
    def check_roundtrip(self) -> bool:
        """Whether every frame is re-encoded and compared with the wire."""
        return self.context.check_roundtrip

    @property
    def storage(self) -> Optional[Storage]:
        """The partitions (None until started)."""
        return self.context.state.storage if self.context.state.is_open else None

    @property
    def acls(self) -> Optional[AclStore]:
        """The ACLs (None until started)."""
        return self.context.state.acls if self.context.state.is_open else None

    @property
    def groups(self) -> GroupCoordinator:
        """The consumer groups."""
        return self.context.state.groups

    @property
    def connections(self) -> Dict[int, Connection]:
        """The open connections by id."""
        return self.context.state.connections

    @property
    def stats(self) -> CodecStats:
        """Time spent in the codec per API."""
        return self.context.observed.stats

    @property
    def roundtrip_failures(self) -> List[Dict[str, Any]]:
        """Every frame that did not re-encode to its bytes (with ``check_roundtrip``)."""
        return self.context.observed.roundtrip_failures

    @property
    def frames_checked(self) -> int:
        """How many frames the round-trip check re-encoded."""
        return self.context.observed.frames_checked

    @property
    def handler_errors(self) -> List[str]:
        """Exceptions raised while answering a request (broker bugs)."""
        return self.context.observed.handler_errors

    @property
    def versions_seen(self) -> Dict[int, Set[int]]:
        """The versions asked of each API key."""
        return self.context.observed.versions_seen

    @property
    def fetches_parked(self) -> int:
        """Fetches that waited for data (``min_bytes`` not yet met)."""
        return self.context.observed.fetches_parked

    @property
    def closed_connections(self) -> List[Tuple[int, str]]:
        """``(connection id, why)`` of every closed connection."""
        return self.context.observed.closed_connections

    @property
    def authentications(self) -> List[Tuple[int, Optional[str], Optional[str]]]:
        """``(connection id, mechanism, principal or None)`` of every SASL authentication."""
        return self.context.observed.authentications
