"""A client of a live cluster, over :mod:`kafkawire.aio` connections.

Two layers.  :class:`AsyncCluster` is the client: it keeps one connection per broker,
finds brokers from the bootstrap servers and Metadata, and retries what Kafka's clients
retry: a lost connection, a request timeout, a response
that does not decode (its connection is dropped), and the
retriable Kafka errors (a partition's leader moved, is not there yet, a topic still
being created), refreshing the metadata between tries, with exponential backoff between
``retry.backoff.ms`` and ``retry.backoff.max.ms``, until ``default.api.timeout.ms`` has
passed.  Then, or on an error no retry cures (authentication, authorization, a topic that
does not exist), it raises a :class:`~kafkawire.errors.ClusterError` naming what failed.

A SASL session the broker gave a lifetime (an OAUTHBEARER token's, or
``connections.max.reauth.ms``) is renewed on its connection before it ends, at 85-95% of
it as Kafka's clients do (KIP-368), with fresh credentials: the broker would otherwise
close the connection.

:class:`Cluster` is the same client for blocking code (Spark's driver and tasks): it runs
an :class:`AsyncCluster` on an event loop of its own, and nothing else.
"""

from __future__ import annotations

import asyncio
import random
import time
import uuid
from dataclasses import dataclass
from typing import (
    Any,
    AsyncGenerator,
    Awaitable,
    Callable,
    Dict,
    Iterator,
    List,
    Optional,
    Sequence,
    Tuple,
    TypeVar,
    cast,
)

from kafkawire.protocol import messages as M
from kafkawire.aio import AsyncConnection, open_connection
from kafkawire.cluster.config import ClientConfig
from kafkawire.protocol.error_codes import ErrorCode
from kafkawire.errors import (
    BrokerErrorResponse,
    ClusterError,
    ConnectionStateError,
    ConnectTimeoutError,
    DecodeError,
    RequestTimedOutError,
    SaslError,
    TlsHandshakeError,
    for_code,
)
from kafkawire.protocol.schema.catalog import ApiKey


_T = TypeVar("_T")

TopicPartition = Tuple[str, int]

#: ListOffsets timestamps that ask for the log's ends
EARLIEST = -2
LATEST = -1

# API key -> the first version whose response a broker sends at once when a quota is
# exceeded, leaving the client to wait ``throttle_time_ms`` before its next request to
# that broker (KIP-219); below it the broker itself held the response back
_CLIENT_THROTTLES_FROM: Dict[int, int] = {
    ApiKey.PRODUCE: 6,
    ApiKey.FETCH: 8,
    ApiKey.LIST_OFFSETS: 3,
    ApiKey.METADATA: 6,
}
_GROUP_KEY = 0  # FindCoordinator's key_type of a consumer group


@dataclass(frozen=True)
class PartitionInfo:
    """One partition as Metadata describes it."""

    partition: int
    leader: int  # -1 while it has none
    leader_epoch: int


@dataclass(frozen=True)
class TopicInfo:
    """One topic as Metadata describes it."""

    name: str
    topic_id: uuid.UUID
    partitions: Dict[int, PartitionInfo]
    internal: bool = False


@dataclass(frozen=True)
class LeaderHint:
    """What the planner's metadata said of one partition's leader, handed to the task that
    reads the partition so that its first Fetch goes straight to the leader, with no
    bootstrap connection and no Metadata of its own (:meth:`AsyncCluster.hint`)."""

    topic_id: uuid.UUID
    partition: PartitionInfo
    host: str
    port: int


class Retriable(Exception):
    """Raised inside a retried call: try again after a backoff (``cause`` says why)."""

    def __init__(self, cause: BaseException) -> None:
        super().__init__(str(cause))
        self.cause = cause


def broker_error(code: int, what: str) -> BrokerErrorResponse:
    """The exception of Kafka error ``code`` met while doing ``what``."""
    err = for_code(code)
    return BrokerErrorResponse(f"{what}: the broker answered {err.name} (error code {code})", err)


def check(code: int, what: str) -> None:
    """Raise for a Kafka error code: :class:`Retriable` if Kafka's clients retry it."""
    if code == ErrorCode.NONE:
        return
    exc = broker_error(code, what)
    if exc.error.retriable:
        raise Retriable(exc)
    raise exc


class AsyncCluster:
    """A client of one cluster on the running event loop; close it when done."""

    def __init__(self, config: ClientConfig) -> None:
        self.config = config
        self._brokers: Dict[int, Tuple[str, int]] = {}
        self._connections: Dict[int, AsyncConnection] = {}
        self._bootstrap: Optional[AsyncConnection] = None
        self._topics: Dict[str, TopicInfo] = {}
        self._addresses: Dict[AsyncConnection, str] = {}  # where each connection goes
        self._hints: Dict[TopicPartition, LeaderHint] = {}  # for the first try only
        # connection -> (its host, when its SASL session is to be renewed)
        self._reauthentications: Dict[AsyncConnection, Tuple[str, float]] = {}
        self._reauthenticating = asyncio.Lock()
        #: KIP-368 re-authentications done so far
        self.reauthentications = 0
        self._failed_connects: Dict[Tuple[str, int], int] = {}  # in a row, per address
        self._throttled: Dict[str, float] = {}  # address -> monotonic end of its throttle
        self._throttle_waits = 0.0  # seconds spent waiting for throttles, in all

    # -- life cycle -----------------------------------------------------------------

    async def close(self) -> None:
        """Close every connection."""
        conns = list(self._connections.values()) + ([self._bootstrap] if self._bootstrap else [])
        self._connections.clear()
        self._bootstrap = None
        for conn in conns:
            await self._close_quietly(conn)

    # -- connections ----------------------------------------------------------------

    def connect_timeout(self, host: str, port: int) -> float:
        """How long the next TCP connect to ``host:port`` may take: Kafka's clients'
        ``socket.connection.setup.timeout.ms``, doubled after each connect to that address
        that failed in a row, up to ``socket.connection.setup.timeout.max.ms`` (without
        Kafka's random 20 % either way)."""
        c = self.config
        failed = min(self._failed_connects.get((host, port), 0), 32)
        return min(c.connect_timeout * (1 << failed), max(c.connect_timeout, c.connect_timeout_max))

    async def _open(self, host: str, port: int) -> AsyncConnection:
        c = self.config
        try:
            conn = await open_connection(
                host,
                port,
                client_id=c.client_id,
                timeout=c.request_timeout,
                connect_timeout=self.connect_timeout(host, port),
                sasl=c.sasl_client(host),
                ssl=c.ssl_context(),
                receive_buffer_bytes=c.receive_buffer,
                send_buffer_bytes=c.send_buffer,
            )
        except SaslError as exc:
            # wrong credentials: no retry cures them; say which broker refused them
            raise type(exc)(f"authenticating to {host}:{port}: {exc}") from exc
        except TlsHandshakeError:
            raise  # wrong certificates: no retry cures them
        except (ConnectionStateError, ConnectTimeoutError, RequestTimedOutError, OSError) as exc:
            if isinstance(exc, (ConnectTimeoutError, ConnectionRefusedError)):  # no TCP connection
                self._failed_connects[(host, port)] = self._failed_connects.get((host, port), 0) + 1
            raise Retriable(ClusterError(f"cannot reach {host}:{port}: {exc}")) from exc
        self._failed_connects.pop((host, port), None)
        self._addresses[conn] = f"{host}:{port}"
        self._schedule_reauthentication(conn, host)
        return conn

    def _schedule_reauthentication(self, conn: AsyncConnection, host: str) -> None:
        """KIP-368: a broker that gave the session a lifetime closes the connection at
        its end; re-authenticate before then, at 85-95% of it, as Kafka's clients do."""
        lifetime = conn.authentication.session_lifetime_ms if conn.authentication else 0
        if lifetime > 0:
            due = time.monotonic() + lifetime / 1000 * (0.85 + 0.1 * random.random())
            self._reauthentications[conn] = (host, due)
        else:
            self._reauthentications.pop(conn, None)

    async def _reauthenticate_if_due(self, conn: AsyncConnection) -> None:
        if conn not in self._reauthentications or time.monotonic() < self._reauthentications[conn][1]:
            return
        async with self._reauthenticating:  # concurrent requests re-authenticate once
            entry = self._reauthentications.get(conn)
            if entry is None or time.monotonic() < entry[1]:
                return
            host = entry[0]
            try:
                await conn.authenticate(self.config.sasl_client(host))
            except SaslError as exc:
                where = self.describe(conn)
                self._forget(conn)
                # refused credentials: no retry cures them
                raise type(exc)(f"re-authenticating to {where}: {exc}") from exc
            except (ConnectionStateError, RequestTimedOutError, OSError) as exc:
                where = self.describe(conn)
                self._forget(conn)
                raise Retriable(ClusterError(f"re-authenticating to {where} failed: {exc}")) from exc
            self.reauthentications += 1
            self._schedule_reauthentication(conn, host)

    def describe(self, conn: AsyncConnection) -> str:
        """Which broker ``conn`` goes to, for messages: ``broker 1 (host:port)``."""
        where = self._addresses.get(conn, "?")
        for node, c in self._connections.items():
            if c is conn:
                return f"broker {node} ({where})"
        return f"bootstrap server {where}"

    async def any_connection(self) -> AsyncConnection:
        """A connection to some broker of the cluster: a known one, else a bootstrap
        server (each tried in turn)."""
        for conn in list(self._connections.values()):
            if not conn.closed:
                return conn
        if self._bootstrap is not None and not self._bootstrap.closed:
            return self._bootstrap
        failures = []
        for host, port in self.config.bootstrap:
            try:
                self._bootstrap = await self._open(host, port)
                return self._bootstrap
            except Retriable as exc:
                failures.append(str(exc.cause))
        raise Retriable(
            ClusterError(
                f"no bootstrap server of {self.config.describe_bootstrap()} answered: " + "; ".join(failures)
            )
        )

    async def connection(self, node: int) -> AsyncConnection:
        """The connection to broker ``node`` (opened on first use, again when lost)."""
        conn = self._connections.get(node)
        if conn is not None and not conn.closed:
            return conn
        if node not in self._brokers:
            await self._metadata(None)
        if node not in self._brokers:
            raise Retriable(ClusterError(f"broker {node} is not in the cluster's metadata"))
        host, port = self._brokers[node]
        conn = self._connections[node] = await self._open(host, port)
        return conn

    async def request(self, conn: AsyncConnection, message: Any) -> Any:
        """Send ``message`` on ``conn``; its response, or :class:`Retriable` when the
        connection is lost or the answer does not come in time.  A broker that throttled
        an answer (a quota) is sent nothing more until its ``throttle_time_ms`` has
        passed, as Kafka's clients do."""
        address = self._addresses.get(conn, "?")
        wait = self._throttled.get(address, 0.0) - time.monotonic()
        if wait > 0:
            await asyncio.sleep(wait)
            self._throttle_waits += wait
        await self._reauthenticate_if_due(conn)
        try:
            event = await conn.request(message)
        except (ConnectionStateError, RequestTimedOutError, OSError) as exc:
            where = self.describe(conn)
            self._forget(conn)
            raise Retriable(ClusterError(f"{type(message).__name__} to {where} failed: {exc}")) from exc
        except DecodeError as exc:
            # garbage where a response belongs: that connection is not trusted again
            where = self.describe(conn)
            self._forget(conn)
            await self._close_quietly(conn)
            raise Retriable(
                ClusterError(f"the answer of {where} to {type(message).__name__} did not decode: {exc}")
            ) from exc
        throttle_ms = getattr(event.message, "throttle_time_ms", 0)
        if throttle_ms > 0 and event.version >= _CLIENT_THROTTLES_FROM.get(event.api_key, 1 << 15):
            until = time.monotonic() + throttle_ms / 1000
            self._throttled[address] = max(self._throttled.get(address, 0.0), until)
        return event.message

    async def _close_quietly(self, conn: AsyncConnection) -> None:
        try:
            await conn.close()
        except Exception:  # it is dropped, broken or misbehaving: nothing more to say
            pass

    def _forget(self, conn: AsyncConnection) -> None:
        for node, c in list(self._connections.items()):
            if c is conn:
                del self._connections[node]
        if self._bootstrap is conn:
            self._bootstrap = None
        self._addresses.pop(conn, None)
        self._reauthentications.pop(conn, None)

    # -- retries ----------------------------------------------------------------------

    async def retrying(
        self,
        what: str,
        attempt: Callable[[], Awaitable[_T]],
        deadline: Optional[float] = None,
        max_tries: Optional[int] = None,
    ) -> _T:
        """Run ``attempt`` until it returns, retrying on :class:`Retriable` after a
        backoff (and a metadata refresh) until ``deadline`` (monotonic seconds; by default
        ``default.api.timeout.ms`` from now) or ``max_tries`` tries; then raise the last
        cause, naming ``what``."""
        cfg = self.config
        if deadline is None:
            deadline = time.monotonic() + cfg.api_timeout
        backoff = cfg.retry_backoff
        tries = 0
        throttled = self._throttle_waits
        while True:
            tries += 1
            try:
                return await attempt()
            except Retriable as exc:
                # waiting out a broker's throttle is no fault: it extends the deadline
                deadline += self._throttle_waits - throttled
                throttled = self._throttle_waits
                left = deadline - time.monotonic()
                if left <= 0 or tries == max_tries:
                    cause = exc.cause
                    message = (
                        f"{what}: gave up after {tries} tries in {cfg.api_timeout:g} s: {cause}"
                        if left <= 0
                        else f"{what}: gave up after {tries} tries (retries: {tries - 1}): {cause}"
                    )
                    if isinstance(cause, BrokerErrorResponse):
                        raise BrokerErrorResponse(message, cause.error) from cause
                    raise ClusterError(message) from cause
                await asyncio.sleep(min(backoff, left))
                backoff = min(backoff * 2, max(cfg.retry_backoff_max, cfg.retry_backoff))
                self.forget_metadata()  # a leader may have moved: ask again

    # -- metadata -----------------------------------------------------------------------

    async def _metadata(self, topics: Optional[Sequence[str]]) -> Any:
        conn = await self.any_connection()
        request = M.MetadataRequest(
            topics=None
            if topics is None
            else [M.MetadataRequest.MetadataRequestTopic(name=t) for t in topics],
            allow_auto_topic_creation=False,
        )
        answer = await self.request(conn, request)
        for b in answer.brokers:
            self._brokers[b.node_id] = (b.host, b.port)
        return answer

    async def _topics_once(
        self, names: Optional[Sequence[str]], missing_ok: bool = False
    ) -> Dict[str, TopicInfo]:
        """One attempt at :meth:`topics`, known topics taken from this client's metadata."""
        wanted = None if names is None else sorted(set(names))
        if wanted is not None and all(n in self._topics for n in wanted):
            return {n: self._topics[n] for n in wanted}
        answer = await self._metadata(wanted)
        found: Dict[str, TopicInfo] = {}
        for t in answer.topics:
            if t.error_code == ErrorCode.UNKNOWN_TOPIC_OR_PARTITION and wanted is not None:
                if missing_ok:
                    continue
                raise broker_error(
                    t.error_code, f"topic {t.name!r} does not exist on {self.config.describe_bootstrap()}"
                )
            check(t.error_code, f"metadata of topic {t.name!r}")
            parts = {}
            for p in t.partitions:
                # REPLICA_NOT_AVAILABLE: a follower is down, the leader is still there
                if p.error_code not in (ErrorCode.NONE, ErrorCode.REPLICA_NOT_AVAILABLE):
                    check(p.error_code, f"metadata of {t.name}-{p.partition_index}")
                parts[p.partition_index] = PartitionInfo(p.partition_index, p.leader_id, p.leader_epoch)
            found[t.name] = TopicInfo(t.name, t.topic_id, parts, bool(t.is_internal))
        self._topics.update(found)
        return found

    async def topics(
        self, names: Optional[Sequence[str]] = None, *, missing_ok: bool = False
    ) -> Dict[str, TopicInfo]:
        """The named topics (every topic when None) from Metadata; a named topic that
        does not exist raises :class:`~kafkawire.errors.BrokerErrorResponse`, or is left
        out with ``missing_ok``."""
        return await self.retrying(
            "reading the cluster's metadata", lambda: self._topics_once(names, missing_ok)
        )

    def topic_name(self, topic_id: uuid.UUID) -> Optional[str]:
        """The name of the topic this client's metadata gives ``topic_id`` (no I/O)."""
        for name, info in self._topics.items():
            if info.topic_id == topic_id:
                return name
        return None

    async def topic_names(self) -> Dict[str, bool]:
        """Every topic's name, and whether it is internal, from Metadata; nothing of their
        partitions is checked (one offline partition does not make the list an error)."""

        async def attempt() -> Dict[str, bool]:
            answer = await self._metadata(None)
            return {t.name: bool(t.is_internal) for t in answer.topics if t.name is not None}

        return await self.retrying("listing the cluster's topics", attempt)

    def hint(self, tp: TopicPartition) -> Optional[LeaderHint]:
        """What this client's metadata says of ``tp``'s leader, for another client's
        :meth:`use_hint`; None when it knows of no leader (no I/O)."""
        info = self._topics.get(tp[0])
        part = None if info is None else info.partitions.get(tp[1])
        if part is None or part.leader not in self._brokers:
            return None
        host, port = self._brokers[part.leader]
        return LeaderHint(info.topic_id, part, host, port)  # type: ignore[union-attr]

    def forget_metadata(self) -> None:
        """Forget what Metadata and hints said of topics and leaders (the connections
        stay open): a client lent to a new task starts as a new client would."""
        self._topics.clear()
        self._hints.clear()

    def use_hint(self, tp: TopicPartition, hint: LeaderHint) -> None:
        """Take ``tp``'s leader from ``hint`` for the first try: a lost connection or an
        error from that broker (not the leader any more, a stale leader epoch) forgets
        every hint, and the retry asks Metadata as it would have without one."""
        self._hints[tp] = hint

    async def leader(self, tp: TopicPartition) -> Tuple[AsyncConnection, TopicInfo, PartitionInfo]:
        """The connection to ``tp``'s leader, with what Metadata says of it
        (:class:`Retriable` while it has none), or what a hint says of it."""
        topic, partition = tp
        hint = self._hints.get(tp)
        if hint is not None and topic not in self._topics:
            node = hint.partition.leader
            self._brokers.setdefault(node, (hint.host, hint.port))
            return (
                await self.connection(node),
                TopicInfo(topic, hint.topic_id, {partition: hint.partition}),
                hint.partition,
            )
        info = (await self._topics_once([topic]))[topic]
        part = info.partitions.get(partition)
        if part is None:
            raise broker_error(
                ErrorCode.UNKNOWN_TOPIC_OR_PARTITION, f"topic {topic!r} has no partition {partition}"
            )
        if part.leader < 0:
            raise Retriable(broker_error(ErrorCode.LEADER_NOT_AVAILABLE, f"partition {topic}-{partition}"))
        return await self.connection(part.leader), info, part

    # -- offsets ----------------------------------------------------------------------------

    async def list_offsets(
        self, specs: Dict[TopicPartition, int], *, isolation_level: int = 0
    ) -> Dict[TopicPartition, Tuple[int, int]]:
        """ListOffsets of every partition in ``specs`` (partition -> timestamp, or
        :data:`EARLIEST`/:data:`LATEST`), asked of each partition's leader: partition ->
        (offset, timestamp); offset -1 when no record has that timestamp or later."""
        found: Dict[TopicPartition, Tuple[int, int]] = {}

        async def attempt() -> Dict[TopicPartition, Tuple[int, int]]:
            by_leader: Dict[int, List[TopicPartition]] = {}
            for tp in specs:
                if tp in found:
                    continue
                _, _, part = await self.leader(tp)
                by_leader.setdefault(part.leader, []).append(tp)
            for node, tps in sorted(by_leader.items()):
                conn = await self.connection(node)
                L = M.ListOffsetsRequest
                topics: Dict[str, List[Any]] = {}
                for topic, partition in tps:
                    topics.setdefault(topic, []).append(
                        L.ListOffsetsPartition(
                            partition_index=partition,
                            current_leader_epoch=-1,
                            timestamp=specs[(topic, partition)],
                        )
                    )
                request = L(
                    replica_id=-1,
                    isolation_level=isolation_level,
                    topics=[L.ListOffsetsTopic(name=n, partitions=ps) for n, ps in topics.items()],
                    timeout_ms=int(self.config.request_timeout * 1000),
                )
                answer = await self.request(conn, request)
                for t in answer.topics:
                    for p in t.partitions:
                        check(p.error_code, f"listing the offsets of {t.name}-{p.partition_index}")
                        found[(t.name, p.partition_index)] = (p.offset, p.timestamp)
            return found

        return await self.retrying("listing offsets", attempt)

    # -- consumer group offsets -----------------------------------------------------------

    async def _coordinator(self, group: str) -> AsyncConnection:
        """The connection to ``group``'s coordinator (FindCoordinator)."""
        conn = await self.any_connection()
        F = M.FindCoordinatorRequest
        batched = (conn.negotiated or {}).get(ApiKey.FIND_COORDINATOR, 0) >= 4  # keys in a list from v4
        if batched:
            request = F(key_type=_GROUP_KEY, coordinator_keys=[group])
        else:
            request = F(key=group, key_type=_GROUP_KEY)
        answer = await self.request(conn, request)
        found = answer.coordinators[0] if batched else answer
        check(found.error_code, f"finding the coordinator of group {group!r}")
        self._brokers[found.node_id] = (found.host, found.port)
        return await self.connection(found.node_id)

    async def commit_offsets(self, group: str, offsets: Dict[TopicPartition, int]) -> None:
        """Commit ``offsets`` (the next offset to read, per partition) to consumer group
        ``group`` as a simple commit: no member, no generation, as Kafka's tools and a
        consumer that assigns its own partitions commit.  A group with members of its
        own refuses it (an error naming the group)."""

        async def attempt() -> None:
            conn = await self._coordinator(group)
            infos = await self._topics_once(sorted({t for t, _ in offsets}))
            C = M.OffsetCommitRequest
            by_id = (conn.negotiated or {}).get(ApiKey.OFFSET_COMMIT, 0) >= 10  # topics go by id from v10
            topics = []
            for name in sorted(infos):
                topic = C.OffsetCommitRequestTopic(
                    partitions=[
                        C.OffsetCommitRequestPartition(
                            partition_index=p,
                            committed_offset=o,
                            committed_leader_epoch=-1,
                            committed_metadata="",
                        )
                        for (t, p), o in sorted(offsets.items())
                        if t == name
                    ]
                )
                if by_id:
                    topic.topic_id = infos[name].topic_id
                else:
                    topic.name = name
                topics.append(topic)
            request = C(
                group_id=group,
                generation_id_or_member_epoch=-1,
                member_id="",
                group_instance_id=None,
                retention_time_ms=-1,
                topics=topics,
            )
            answer = await self.request(conn, request)
            # a coordinator that moved or is loading is retriable: the next try finds it again
            for t in answer.topics:
                for p in t.partitions:
                    check(
                        p.error_code,
                        f"committing offsets of group {group!r} for partition {p.partition_index}",
                    )

        await self.retrying(f"committing offsets to group {group!r}", attempt)

    # -- fetch and produce ----------------------------------------------------------------

    def fetch_request(
        self,
        conn: AsyncConnection,
        info: TopicInfo,
        partition: PartitionInfo,
        offset: int,
        *,
        max_bytes: int,
        partition_max_bytes: int,
        isolation_level: int,
        max_wait_ms: Optional[int] = None,
    ) -> Any:
        """A Fetch of one partition from ``offset`` at the version ``conn`` speaks; the
        broker answers once it has ``fetch.min.bytes`` or after ``max_wait_ms`` (by
        default ``fetch.max.wait.ms``)."""
        F = M.FetchRequest
        topic = F.FetchTopic(
            partitions=[
                F.FetchPartition(
                    partition=partition.partition,
                    current_leader_epoch=partition.leader_epoch,
                    fetch_offset=offset,
                    partition_max_bytes=partition_max_bytes,
                )
            ]
        )
        if (conn.negotiated or {}).get(ApiKey.FETCH, 0) >= 13:  # topics go by id from v13
            topic.topic_id = info.topic_id
        else:
            topic.topic = info.name
        return F(
            replica_id=-1,
            max_wait_ms=self.config.fetch_max_wait_ms if max_wait_ms is None else max_wait_ms,
            min_bytes=self.config.fetch_min_bytes,
            max_bytes=max_bytes,
            isolation_level=isolation_level,
            session_id=0,
            session_epoch=-1,
            topics=[topic],
        )

    def produce_request(
        self, conn: AsyncConnection, batches: Dict[TopicPartition, bytes], acks: int, timeout_ms: int
    ) -> Any:
        """A Produce of one record batch per partition, at the version ``conn`` speaks."""
        P = M.ProduceRequest
        by_id = (conn.negotiated or {}).get(ApiKey.PRODUCE, 0) >= 13  # topics go by id from v13
        topics: Dict[str, Any] = {}
        for (topic, partition), data in batches.items():
            t = topics.get(topic)
            if t is None:
                t = topics[topic] = P.TopicProduceData(partition_data=[])
                if by_id:
                    t.topic_id = self._topics[topic].topic_id
                else:
                    t.name = topic
            t.partition_data.append(P.PartitionProduceData(index=partition, records=data))
        return P(transactional_id=None, acks=acks, timeout_ms=timeout_ms, topic_data=list(topics.values()))


class Cluster:
    """An :class:`AsyncCluster` for blocking code, on an event loop of its own (a Spark
    task and the driver are plain blocking code); close it (or use it as a context
    manager).  ``aio`` is the client itself, for coroutines :meth:`run` runs."""

    def __init__(self, config: ClientConfig) -> None:
        self._loop = asyncio.new_event_loop()
        self.aio = AsyncCluster(config)

    @property
    def config(self) -> ClientConfig:
        return self.aio.config

    @property
    def reauthentications(self) -> int:
        """KIP-368 re-authentications done so far."""
        return self.aio.reauthentications

    def run(self, coroutine: Awaitable[_T]) -> _T:
        """Run ``coroutine`` on this client's loop and return its result.

        What it raises is raised here, not out of ``run_until_complete``: there the
        exception would hold that frame, which holds the task, which holds the exception,
        a cycle keeping every frame it passed through (a read's fetched buffers, the
        Arrow batches over them) until the garbage collector runs."""
        ok, outcome = self._loop.run_until_complete(_settled(coroutine))
        if ok:
            return cast(_T, outcome)
        try:
            raise outcome
        finally:
            outcome = None  # the traceback holds this frame: it must not hold the exception

    def close(self) -> None:
        """Close every connection and the event loop."""
        if self._loop.is_closed():
            return
        self.run(self.aio.close())
        self._loop.close()

    def __enter__(self) -> "Cluster":
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    def connect_timeout(self, host: str, port: int) -> float:
        """:meth:`AsyncCluster.connect_timeout`."""
        return self.aio.connect_timeout(host, port)

    def topics(
        self, names: Optional[Sequence[str]] = None, *, missing_ok: bool = False
    ) -> Dict[str, TopicInfo]:
        """:meth:`AsyncCluster.topics`."""
        return self.run(self.aio.topics(names, missing_ok=missing_ok))

    def topic_names(self) -> Dict[str, bool]:
        """:meth:`AsyncCluster.topic_names`."""
        return self.run(self.aio.topic_names())

    def hint(self, tp: TopicPartition) -> Optional[LeaderHint]:
        """:meth:`AsyncCluster.hint`."""
        return self.aio.hint(tp)

    def use_hint(self, tp: TopicPartition, hint: LeaderHint) -> None:
        """:meth:`AsyncCluster.use_hint`."""
        self.aio.use_hint(tp, hint)

    def forget_metadata(self) -> None:
        """:meth:`AsyncCluster.forget_metadata`."""
        self.aio.forget_metadata()

    def list_offsets(
        self, specs: Dict[TopicPartition, int], *, isolation_level: int = 0
    ) -> Dict[TopicPartition, Tuple[int, int]]:
        """:meth:`AsyncCluster.list_offsets`."""
        return self.run(self.aio.list_offsets(specs, isolation_level=isolation_level))

    def commit_offsets(self, group: str, offsets: Dict[TopicPartition, int]) -> None:
        """:meth:`AsyncCluster.commit_offsets`."""
        self.run(self.aio.commit_offsets(group, offsets))

    def iterate(self, items: AsyncGenerator[_T, None]) -> Iterator[_T]:
        """An asynchronous generator of :attr:`aio` (such as
        :func:`kafkawire.cluster.fetch.read_range`) as a blocking iterator; stopped early,
        it closes the generator, which lets what it has on the wire finish."""
        try:
            while True:
                try:
                    yield self.run(anext(items))
                except StopAsyncIteration:
                    return
        finally:
            if not self._loop.is_closed():
                self.run(items.aclose())


async def _settled(coroutine: Awaitable[_T]) -> Tuple[bool, Any]:
    """(True, what ``coroutine`` returns) or (False, what it raises)."""
    try:
        return True, await coroutine
    except BaseException as exc:  # raised again by Cluster.run, outside the event loop
        return False, exc
