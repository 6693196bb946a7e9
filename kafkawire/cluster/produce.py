"""Writing to a live cluster: Kafka's default key partitioner and an idempotent producer.

:func:`partition_for_key` is the partition Kafka's Java producer picks for a keyed record
when none is given: the 32-bit MurmurHash2 of the key bytes (seed ``0x9747b28c``), its
sign bit cleared, modulo the partition count; so a key lands where a Java client puts it.
Records without a key stick to one partition per batch, the next batch going to the next
partition, as the Java client's sticky partitioning spreads them.  Records come one at a
time (:meth:`Producer.send`) or as Arrow columns (:meth:`Producer.send_arrow`: the key
column hashed in one pass, each partition's rows encoded into whole batches at once).

:class:`Producer` is idempotent the way Kafka's is: it asks for a producer id
(InitProducerId), numbers each partition's records with sequences, sends every batch
with ``acks=all`` to the partition's leader, up to five requests on the wire at once
as Kafka's producer keeps them, and when a request fails (a lost connection,
a timeout, a leader that moved) sends the same bytes again: the broker recognises the
sequence and keeps one copy.  A batch the broker refuses for good raises
:class:`~kafkawire.errors.BrokerErrorResponse` with its error.  As Kafka's producer it
can also run with ``acks`` 1 (the leader's word) or 0 (no answer awaited), without
idempotence (a retried batch may then be written twice), with fewer retries or requests
in flight, and with Kafka's ``RoundRobinPartitioner`` (:func:`partitioner_of`).
"""

from __future__ import annotations

import asyncio
import collections
import time
from typing import Any, Deque, Dict, List, Optional, Sequence, Tuple

from kafkawire import _backend
from kafkawire.protocol import messages as M
from kafkawire.protocol.record_layout import RECORD_ESTIMATE, next_sequence
from kafkawire.cluster.client import Cluster, Retriable, TopicPartition, broker_error, check
from kafkawire.protocol.error_codes import ErrorCode
from kafkawire.errors import ClusterError

CODECS = ("none", "gzip", "snappy", "lz4", "zstd")
#: Produce rounds on the wire at once: Kafka's producer's default
#: max.in.flight.requests.per.connection, the most its idempotence keeps in order
MAX_IN_FLIGHT = 5


def murmur2(data: bytes, *, backend: Optional[str] = None) -> int:
    """The 32-bit MurmurHash2 of ``data`` as Kafka's clients compute it (a signed int),
    by ``backend`` (default: the active one)."""
    return int(_backend.implementation("crc", backend).murmur2(data))


def partition_for_key(key: bytes, partitions: int, *, backend: Optional[str] = None) -> int:
    """The partition Kafka's default partitioner gives ``key`` among ``partitions``."""
    return _partition_of_hash(murmur2(key, backend=backend), partitions)


def _partition_of_hash(key_hash: int, partitions: int) -> int:
    return (key_hash & 0x7FFFFFFF) % partitions


#: Kafka's producer's own partitioners a ``partitioner.class`` may name, and what each is here
PARTITIONERS = {"org.apache.kafka.clients.producer.RoundRobinPartitioner": "round_robin"}
_SHADED = "kafkashaded."  # Databricks ships Kafka's client under this package prefix


def partitioner_of(class_name: Optional[str]) -> str:
    """``default`` (no class: Kafka's built-in key hash and sticky keyless batches) or
    ``round_robin`` for Kafka's ``RoundRobinPartitioner``; any other class is an error naming it."""
    if class_name is None or not class_name.strip():
        return "default"
    name = class_name.strip()
    name = name[len(_SHADED) :] if name.startswith(_SHADED) else name
    if name not in PARTITIONERS:
        raise ValueError(
            f"option kafka.partitioner.class: kafka-cluster runs no Java classes, so not {class_name.strip()};"
            f" it places rows as Kafka's own partitioners do: leave it unset (keys hashed, keyless rows"
            f" in sticky batches) or name {', '.join(PARTITIONERS)}"
        )
    return PARTITIONERS[name]


class Producer:
    """An idempotent producer on a :class:`~kafkawire.cluster.client.Cluster`: add
    records with :meth:`send`; :meth:`flush` writes what is buffered and returns once the
    broker has acknowledged all of it."""

    def __init__(
        self,
        cluster: Cluster,
        *,
        compression: str = "none",
        batch_bytes: int = 16384,
        buffer_bytes: int = 32 << 20,
        backend: Optional[str] = None,
        acks: int = -1,
        idempotent: bool = True,
        max_in_flight: int = MAX_IN_FLIGHT,
        retries: Optional[int] = None,
        partitioner: str = "default",
        ignore_keys: bool = False,
        max_record_bytes: Optional[int] = None,
    ) -> None:
        if compression not in CODECS:
            raise ValueError(f"compression {compression!r} is not one of {', '.join(CODECS)}")
        if idempotent and (acks != -1 or max_in_flight > MAX_IN_FLIGHT or retries == 0):
            raise ValueError(
                "an idempotent producer needs acks all, at most 5 requests in flight and retries"
            )
        self.cluster = cluster
        self.compression = compression
        self.batch_bytes = batch_bytes
        self.buffer_bytes = buffer_bytes
        self.acks = acks
        self.idempotent = idempotent
        self.max_in_flight = max_in_flight
        self.retries = retries
        self.partitioner = partitioner
        self.ignore_keys = ignore_keys
        self.max_record_bytes = max_record_bytes
        self._round_robin: Dict[str, int] = {}
        self._murmur2 = _backend.implementation("crc", backend).murmur2
        self._records = _backend.implementation("records", backend)
        self._producer: Optional[Tuple[int, int]] = None
        self._sequences: Dict[TopicPartition, int] = {}
        self._open: Dict[TopicPartition, List[Dict[str, Any]]] = {}  # records of the batch being filled
        self._open_bytes: Dict[TopicPartition, int] = {}
        self._ready: Dict[TopicPartition, List[Tuple[bytes, int]]] = {}  # (batch, records), in order
        self._buffered = 0
        self._sticky: Dict[str, int] = {}
        self._partition_counts: Dict[str, int] = {}  # asked once a topic, not once a record
        #: records acknowledged by the broker so far
        self.acknowledged = 0

    def partitions(self, topic: str) -> int:
        """How many partitions ``topic`` has (an error naming it if it does not exist)."""
        count = self._partition_counts.get(topic)
        if count is None:
            count = self._partition_counts[topic] = len(self.cluster.topics([topic])[topic].partitions)
        return count

    def send(
        self,
        topic: str,
        value: Optional[bytes],
        *,
        key: Optional[bytes] = None,
        headers: Sequence[Tuple[str, Optional[bytes]]] = (),
        partition: Optional[int] = None,
        timestamp: Optional[int] = None,
    ) -> TopicPartition:
        """Buffer one record; returns the partition it goes to."""
        # called once a row: the work here is kept to what each record needs
        count = self._partition_counts.get(topic) or self.partitions(topic)
        if partition is None:
            if self.partitioner == "round_robin":
                partition = self._next_round_robin(topic, 1) % count
            elif key is not None and not self.ignore_keys:
                partition = _partition_of_hash(self._murmur2(key), count)
            else:
                partition = self._sticky.setdefault(topic, 0) % count
        elif not 0 <= partition < count:
            raise ValueError(f"topic {topic!r} has no partition {partition} ({count} partitions)")
        tp = (topic, partition)
        size = 24 + (len(key) if key is not None else 0) + (len(value) if value is not None else 0)
        if headers:
            size += sum(8 + len(k) + len(v or b"") for k, v in headers)
        self._check_size(topic, size)
        batch = self._open.get(tp)
        if batch is None:
            batch = self._open[tp] = []
            self._open_bytes[tp] = 61  # the batch header
        elif self._open_bytes[tp] + size > self.batch_bytes:
            self._close_batch(tp)
            batch = self._open[tp] = []
            self._open_bytes[tp] = 61
        batch.append(
            {
                "key": key,
                "value": value,
                "headers": list(headers) if headers else [],
                "timestamp": int(time.time() * 1000) if timestamp is None else timestamp,
            }
        )
        self._open_bytes[tp] += size
        self._buffered += size
        if self._buffered >= self.buffer_bytes:
            self.flush()
        return tp

    def _next_round_robin(self, topic: str, n: int) -> int:
        """The first of ``n`` turns of ``topic``'s round-robin counter (Kafka's
        ``RoundRobinPartitioner`` keeps one a topic, from 0)."""
        first = self._round_robin.get(topic, 0)
        self._round_robin[topic] = first + n
        return first

    def _check_size(self, topic: str, size: int) -> None:
        """A record (``size`` bytes of key, value and headers) over ``max.request.size``
        fails, as Kafka's producer's ``RecordTooLargeException``."""
        if self.max_record_bytes is not None and size + 61 > self.max_record_bytes:
            raise ValueError(
                f"a record for topic {topic!r} is {size + 61} bytes when serialized, larger than"
                f" {self.max_record_bytes}, the value of max.request.size"
            )

    def _ids(self) -> Tuple[int, int]:
        """The producer id and epoch a batch carries: (-1, -1) unless idempotent."""
        if not self.idempotent:
            return -1, -1
        if self._producer is None:
            self._producer = self._init_producer_id()
        return self._producer

    def prepare(self, topics: Sequence[str] = ()) -> None:
        """Ask for the producer id and ``topics``' partitions now rather than with the
        first records (a caller can do it while it waits for them)."""
        self._ids()
        for topic in topics:
            self.partitions(topic)

    def send_arrow(
        self, topic: str, values: Any, *, keys: Any = None, headers: Any = None, partitions: Any = None
    ) -> None:
        """Buffer the rows of Arrow columns for ``topic``, each partition's in row order
        and encoded a batch at a time: ``values`` and ``keys`` (or None) binary or string
        arrays, ``headers`` a list<struct<key, value>> array (or None), ``partitions``
        int32s whose nulls (or None) leave the choice to the key partitioner."""
        import pyarrow as pa
        import pyarrow.compute as pc

        n = len(values)
        if not n:
            return
        count = self._partition_counts.get(topic) or self.partitions(topic)
        if self.max_record_bytes is not None:
            sizes = pc.fill_null(pc.binary_length(values), 0)
            if keys is not None:
                sizes = pc.add(sizes, pc.fill_null(pc.binary_length(keys), 0))
            if headers is not None and len(pc.list_flatten(headers)):
                import numpy as np

                flat = pc.list_flatten(headers)
                each = pc.add(
                    *(pc.fill_null(pc.binary_length(flat.field(f)), 0) for f in ("key", "value"))
                ).to_numpy(zero_copy_only=False)
                rows = pc.list_parent_indices(headers).to_numpy(zero_copy_only=False)
                per_row = np.bincount(rows, weights=each + 8, minlength=n).astype("int64")
                sizes = pc.add(sizes, pa.array(per_row))
            self._check_size(topic, pc.max(sizes).as_py() + 24)
        if self.partitioner == "round_robin":
            first = self._next_round_robin(topic, n)
            parts = pa.array([(first + i) % count for i in range(n)], pa.int32())
        elif keys is None or self.ignore_keys:
            parts = pa.array([-1] * n, pa.int32())
        else:
            raw = self._records.arrow_key_partitions(keys, count)
            parts = pa.Array.from_buffers(pa.int32(), n, [None, pa.py_buffer(raw)])
        if partitions is not None and partitions.null_count < n:
            bad = pc.filter(partitions, pc.or_(pc.less(partitions, 0), pc.greater_equal(partitions, count)))
            if len(bad):
                raise ValueError(f"topic {topic!r} has no partition {bad[0].as_py()} ({count} partitions)")
            parts = pc.if_else(pc.is_valid(partitions), partitions, parts)
        keyless = pc.equal(parts, -1)
        if pc.any(keyless).as_py():
            parts = self._stick(topic, parts, keyless, values, count)
        # one pass a partition over its rows, in their order (the sort is stable)
        order = pc.sort_indices(parts)
        counts = pc.value_counts(parts)
        values = values.take(order)
        keys = keys.take(order) if keys is not None else None
        headers = headers.take(order) if headers is not None else None
        start = 0
        for partition, rows in sorted(
            zip(counts.field("values").to_pylist(), counts.field("counts").to_pylist())
        ):
            self._encode_arrow(
                (topic, partition),
                *(c.slice(start, rows) if c is not None else None for c in (keys, values, headers)),
            )
            start += rows
        if self._buffered >= self.buffer_bytes:
            self.flush()

    def _stick(self, topic: str, parts: Any, keyless: Any, values: Any, count: int) -> Any:
        """``parts`` with the keyless rows spread as Kafka's sticky partitioner does: about
        a batch (keys and values counted) to one partition, then on to the next."""
        import pyarrow.compute as pc

        sizes = pc.add(pc.fill_null(pc.binary_length(pc.filter(values, keyless)), 0), RECORD_ESTIMATE)
        before = pc.subtract(pc.cumulative_sum(sizes), sizes)  # the keyless bytes ahead of each
        chunks = pc.divide(before, self.batch_bytes)
        sticky = self._sticky.get(topic, 0)
        self._sticky[topic] = sticky + chunks[-1].as_py() + 1  # the next rows open a new batch
        spread = pc.remainder(pc.add(chunks, sticky), count)
        return pc.replace_with_mask(parts, keyless, pc.cast(spread, "int32"))

    def _encode_arrow(self, tp: TopicPartition, keys: Any, values: Any, headers: Any) -> None:
        self._close_batch(tp)  # records sent one at a time before these go first
        pid, epoch = self._ids()
        seq = self._sequences.get(tp, 0) if self.idempotent else -1
        batches = self._records.encode_arrow_batches(
            keys,
            values,
            headers,
            max_bytes=self.batch_bytes,
            timestamp=int(time.time() * 1000),
            compression=self.compression,
            producer_id=pid,
            producer_epoch=epoch,
            base_sequence=seq,
        )
        self._ready.setdefault(tp, []).extend(batches)
        if self.idempotent:
            self._sequences[tp] = next_sequence(seq, len(values))
        self._buffered += sum(len(data) for data, _ in batches)

    def _close_batch(self, tp: TopicPartition) -> None:
        records = self._open.pop(tp, None)
        self._open_bytes.pop(tp, None)
        if not records:
            return
        pid, epoch = self._ids()
        seq = self._sequences.get(tp, 0) if self.idempotent else -1
        data = self._records.encode_batch(
            records, compression=self.compression, producer_id=pid, producer_epoch=epoch, base_sequence=seq
        )
        if self.idempotent:
            self._sequences[tp] = (seq + len(records)) & 0x7FFFFFFF
        self._ready.setdefault(tp, []).append((data, len(records)))
        topic = tp[0]
        if topic in self._sticky:  # keyless records move on to the next partition
            self._sticky[topic] += 1

    def _init_producer_id(self) -> Tuple[int, int]:
        async def attempt() -> Tuple[int, int]:
            conn = await self.cluster.aio.any_connection()
            answer = await self.cluster.aio.request(
                conn,
                M.InitProducerIdRequest(
                    transactional_id=None, transaction_timeout_ms=-1, producer_id=-1, producer_epoch=-1
                ),
            )
            check(answer.error_code, "asking for a producer id (InitProducerId)")
            return answer.producer_id, answer.producer_epoch

        return self.cluster.run(self.cluster.aio.retrying("asking for a producer id", attempt))

    def flush(self) -> None:
        """Send every buffered record and wait until the broker has acknowledged them."""
        for tp in list(self._open):
            self._close_batch(tp)
        self._buffered = 0
        # one batch per partition per round keeps each partition's batches in order
        rounds = []
        while self._ready:
            rounds.append({tp: batches.pop(0) for tp, batches in self._ready.items()})
            self._ready = {tp: b for tp, b in self._ready.items() if b}
        if rounds:
            self.cluster.run(self._send_rounds(rounds))

    async def _send_rounds(self, rounds: List[Dict[TopicPartition, Tuple[bytes, int]]]) -> None:
        """Send ``rounds`` in order, up to :data:`MAX_IN_FLIGHT` on the wire at once.

        The first goes alone: it finds the leaders and opens the connections.  Once a
        round fails, the rest wait for what is on the wire, then every batch not yet
        acknowledged is sent again, one round at a time and with retries: the broker
        acknowledges a batch it already holds as a duplicate and refuses one whose
        predecessor it lacks, so sending them again in order writes each once."""
        left = [dict(r) for r in rounds]  # each round's batches not acknowledged yet
        await self._send_round(left[0])
        on_wire: Deque["asyncio.Future[bool]"] = collections.deque()
        failed = False
        for batches in left[1:]:
            if len(on_wire) >= self.max_in_flight:
                failed = not await on_wire.popleft()
            if failed:
                break
            on_wire.append(asyncio.ensure_future(self._try_round(batches)))
        await asyncio.gather(*on_wire)
        for batches in left:
            if batches:
                await self._send_round(batches)

    async def _try_round(self, left: Dict[TopicPartition, Tuple[bytes, int]]) -> bool:
        """One attempt at a round (no retry): whether the broker acknowledged all of it."""
        try:
            await self._attempt_round(left)
        except Exception:  # sent again in order, where a lasting error is raised
            return False
        return not left

    async def _send_round(self, left: Dict[TopicPartition, Tuple[bytes, int]]) -> None:
        """Send one round, retrying until the broker has acknowledged all of it."""
        deadline = time.monotonic() + self.cluster.aio.config.api_timeout
        tries = None if self.retries is None else self.retries + 1
        await self.cluster.aio.retrying("producing", lambda: self._attempt_round(left), deadline, tries)

    async def _attempt_round(self, left: Dict[TopicPartition, Tuple[bytes, int]]) -> None:
        """One Produce per leader of the batches in ``left``; acknowledged ones leave it."""
        by_leader: Dict[int, List[TopicPartition]] = {}
        for tp in left:
            _, _, part = await self.cluster.aio.leader(tp)
            by_leader.setdefault(part.leader, []).append(tp)
        results = await asyncio.gather(
            *(self._produce(node, tps, left) for node, tps in by_leader.items()), return_exceptions=True
        )
        retry: Optional[BaseException] = None
        for result in results:
            if isinstance(result, Retriable):
                retry = result
            elif isinstance(result, BaseException):
                raise result
        if retry is not None:
            raise retry

    async def _produce(
        self, node: int, tps: List[TopicPartition], left: Dict[TopicPartition, Tuple[bytes, int]]
    ) -> None:
        """One Produce to broker ``node``; the batches it acknowledges leave ``left``."""
        conn = await self.cluster.aio.connection(node)
        timeout_ms = int(self.cluster.aio.config.request_timeout * 1000)
        batches = {tp: left[tp][0] for tp in tps}
        request = self.cluster.aio.produce_request(conn, batches, acks=self.acks, timeout_ms=timeout_ms)
        if self.acks == 0:  # no answer comes: a batch is done once it is written to the socket
            try:
                await conn.send(request)
            except OSError as exc:  # ConnectionClosedError is one
                raise Retriable(ClusterError(f"Produce to broker {node} failed: {exc}")) from exc
            for tp in tps:
                self.acknowledged += left.pop(tp)[1]
            return
        answer = await self.cluster.aio.request(conn, request)
        for t in answer.responses:
            name = t.name or self.cluster.aio.topic_name(t.topic_id) or str(t.topic_id)
            for p in t.partition_responses:
                tp = (name, p.index)
                # DUPLICATE_SEQUENCE_NUMBER: the broker already has this batch, written once
                if p.error_code not in (ErrorCode.NONE, ErrorCode.DUPLICATE_SEQUENCE_NUMBER):
                    detail = f": {p.error_message}" if p.error_message else ""
                    check(p.error_code, f"producing to {name}-{p.index}{detail}")
                batches.pop(tp, None)
                done = left.pop(tp, None)
                if done is not None:
                    self.acknowledged += done[1]
        if batches:
            raise broker_error(
                ErrorCode.UNKNOWN_SERVER_ERROR,
                f"producing: no answer for {', '.join(f'{t}-{p}' for t, p in batches)}",
            )
