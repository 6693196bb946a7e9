"""Writing to a live cluster: Kafka's default key partitioner and an idempotent producer.

:func:`partition_for_key` is the partition Kafka's Java producer picks for a keyed record
when none is given: the 32-bit MurmurHash2 of the key bytes (seed ``0x9747b28c``), its
sign bit cleared, modulo the partition count; so a key lands where a Java client puts it.
Records without a key stick to one partition per batch, the next batch going to the next
partition, as the Java client's sticky partitioning spreads them.

:class:`Producer` is idempotent the way Kafka's is: it asks for a producer id
(InitProducerId), numbers each partition's records with sequences, sends every batch
with ``acks=all`` to the partition's leader, and when a request fails (a lost connection,
a timeout, a leader that moved) sends the same bytes again: the broker recognises the
sequence and keeps one copy.  A batch the broker refuses for good raises
:class:`~kafkawire.errors.BrokerErrorResponse` with its error.
"""

from __future__ import annotations

import asyncio
import time
from typing import Any, Dict, List, Optional, Sequence, Tuple

from kafkawire import messages as M
from kafkawire.cluster.client import Cluster, Retriable, TopicPartition, broker_error, check

_MASK32 = 0xFFFFFFFF
_M = 0x5BD1E995
_SEED = 0x9747B28C
_DUPLICATE_SEQUENCE = 46  # the broker already has this batch: it was written once
CODECS = ("none", "gzip", "snappy", "lz4", "zstd")


def murmur2(data: bytes) -> int:
    """The 32-bit MurmurHash2 of ``data`` as Kafka's clients compute it (a signed int)."""
    n = len(data)
    h = (_SEED ^ n) & _MASK32
    whole = n - n % 4
    for i in range(0, whole, 4):
        k = int.from_bytes(data[i : i + 4], "little")
        k = (k * _M) & _MASK32
        k ^= k >> 24
        k = (k * _M) & _MASK32
        h = ((h * _M) & _MASK32) ^ k
    tail = n % 4
    if tail:
        if tail == 3:
            h ^= data[whole + 2] << 16
        if tail >= 2:
            h ^= data[whole + 1] << 8
        h ^= data[whole]
        h = (h * _M) & _MASK32
    h ^= h >> 13
    h = (h * _M) & _MASK32
    h ^= h >> 15
    return h - (1 << 32) if h & 0x80000000 else h


def partition_for_key(key: bytes, partitions: int) -> int:
    """The partition Kafka's default partitioner gives ``key`` among ``partitions``."""
    return (murmur2(key) & 0x7FFFFFFF) % partitions


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
    ) -> None:
        from kafkawire import _backend

        if compression not in CODECS:
            raise ValueError(f"compression {compression!r} is not one of {', '.join(CODECS)}")
        self.cluster = cluster
        self.compression = compression
        self.batch_bytes = batch_bytes
        self.buffer_bytes = buffer_bytes
        self._records = _backend.implementation("records", backend)
        self._producer: Optional[Tuple[int, int]] = None
        self._sequences: Dict[TopicPartition, int] = {}
        self._open: Dict[TopicPartition, List[Dict[str, Any]]] = {}  # records of the batch being filled
        self._open_bytes: Dict[TopicPartition, int] = {}
        self._ready: Dict[TopicPartition, List[Tuple[bytes, int]]] = {}  # (batch, records), in order
        self._buffered = 0
        self._sticky: Dict[str, int] = {}
        #: records acknowledged by the broker so far
        self.acknowledged = 0

    def partitions(self, topic: str) -> int:
        """How many partitions ``topic`` has (an error naming it if it does not exist)."""
        return len(self.cluster.topics([topic])[topic].partitions)

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
        count = self.partitions(topic)
        if partition is None:
            if key is not None:
                partition = partition_for_key(key, count)
            else:
                partition = self._sticky.setdefault(topic, 0) % count
        elif not 0 <= partition < count:
            raise ValueError(f"topic {topic!r} has no partition {partition} ({count} partitions)")
        tp = (topic, partition)
        size = 24 + len(key or b"") + len(value or b"") + sum(8 + len(k) + len(v or b"") for k, v in headers)
        batch = self._open.setdefault(tp, [])
        if batch and self._open_bytes[tp] + size > self.batch_bytes:
            self._close_batch(tp)
            batch = self._open.setdefault(tp, [])
        batch.append(
            {
                "key": key,
                "value": value,
                "headers": list(headers),
                "timestamp": int(time.time() * 1000) if timestamp is None else timestamp,
            }
        )
        self._open_bytes[tp] = self._open_bytes.get(tp, 61) + size
        self._buffered += size
        if self._buffered >= self.buffer_bytes:
            self.flush()
        return tp

    def _close_batch(self, tp: TopicPartition) -> None:
        records = self._open.pop(tp, None)
        self._open_bytes.pop(tp, None)
        if not records:
            return
        if self._producer is None:
            self._producer = self._init_producer_id()
        pid, epoch = self._producer
        seq = self._sequences.get(tp, 0)
        data = self._records.encode_batch(
            records, compression=self.compression, producer_id=pid, producer_epoch=epoch, base_sequence=seq
        )
        self._sequences[tp] = (seq + len(records)) & 0x7FFFFFFF
        self._ready.setdefault(tp, []).append((data, len(records)))
        topic = tp[0]
        if topic in self._sticky:  # keyless records move on to the next partition
            self._sticky[topic] += 1

    def _init_producer_id(self) -> Tuple[int, int]:
        async def attempt() -> Tuple[int, int]:
            conn = await self.cluster.any_connection()
            answer = await self.cluster.request(
                conn,
                M.InitProducerIdRequest(
                    transactional_id=None, transaction_timeout_ms=-1, producer_id=-1, producer_epoch=-1
                ),
            )
            check(answer.error_code, "asking for a producer id (InitProducerId)")
            return answer.producer_id, answer.producer_epoch

        return self.cluster.retrying("asking for a producer id", attempt)

    def flush(self) -> None:
        """Send every buffered record and wait until the broker has acknowledged them."""
        for tp in list(self._open):
            self._close_batch(tp)
        self._buffered = 0
        while self._ready:
            # one batch per partition per round keeps each partition's batches in order
            round_ = {tp: batches.pop(0) for tp, batches in self._ready.items()}
            self._ready = {tp: b for tp, b in self._ready.items() if b}
            self.cluster.run(self._send_round(round_))

    async def _send_round(self, batches: Dict[TopicPartition, Tuple[bytes, int]]) -> None:
        left = dict(batches)  # what the broker has not acknowledged yet
        deadline = time.monotonic() + self.cluster.config.api_timeout

        async def attempt() -> None:
            by_leader: Dict[int, List[TopicPartition]] = {}
            for tp in left:
                _, _, part = await self.cluster.leader(tp)
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

        await self.cluster.retrying_async("producing", attempt, deadline)

    async def _produce(
        self, node: int, tps: List[TopicPartition], left: Dict[TopicPartition, Tuple[bytes, int]]
    ) -> None:
        """One Produce to broker ``node``; the batches it acknowledges leave ``left``."""
        conn = await self.cluster.connection(node)
        timeout_ms = int(self.cluster.config.request_timeout * 1000)
        batches = {tp: left[tp][0] for tp in tps}
        request = self.cluster.produce_request(conn, batches, acks=-1, timeout_ms=timeout_ms)
        answer = await self.cluster.request(conn, request)
        ids = {info.topic_id: name for name, info in self.cluster._topics.items()}
        for t in answer.responses:
            name = t.name or ids.get(t.topic_id, str(t.topic_id))
            for p in t.partition_responses:
                tp = (name, p.index)
                if p.error_code not in (0, _DUPLICATE_SEQUENCE):
                    detail = f": {p.error_message}" if p.error_message else ""
                    check(p.error_code, f"producing to {name}-{p.index}{detail}")
                batches.pop(tp, None)
                done = left.pop(tp, None)
                if done is not None:
                    self.acknowledged += done[1]
        if batches:
            raise broker_error(-1, f"producing: no answer for {', '.join(f'{t}-{p}' for t, p in batches)}")
