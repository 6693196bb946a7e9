"""The broker's log: topics, partitions, record batches and producer state.

A partition's log is a list of record batches (magic 2) in offset order.  Appending a
batch assigns its offsets the way a Kafka leader does: by rewriting the batch's
``baseOffset`` (bytes 0-8, outside the CRC, so the batch is otherwise untouched) and
its ``partitionLeaderEpoch`` (bytes 12-16, also outside the CRC).  Reading returns the
stored batches from the one holding the fetch offset on, whole, up to a byte budget
(always at least one batch, as KIP-74 asks, so a large batch never blocks a consumer).

Only the 61-byte batch header is read here (offsets, counts, timestamps, producer
fields); records themselves are never touched.  Legacy (magic 0/1) message sets are
converted to batches by the server with :mod:`kafkawire.protocol.records` before they get here.

With a log directory the log also lives on disk as Kafka lays it out, written by
:class:`kafkawire.log.write.PartitionWriter`: ``<dir>/<topic>-<partition>/`` with
``<base offset>.log`` segments (the batches back to back) and their indexes, so Kafka's
own tools, ``kafkawire dump-log`` and the ``kafka-log`` Spark source read what the
clients produced.
"""

from __future__ import annotations

import bisect
import os
import struct
import uuid
from dataclasses import dataclass, field
from typing import Dict, Iterator, List, Optional, Tuple

from kafkawire.protocol.record_layout import V2_HEADER_SIZE, BatchHeader, unpack_v2_header
from kafkawire.protocol.error_codes import ErrorCode
from kafkawire.protocol.framing import BytesLike
from kafkawire.log import scan, segments, write

# The batch header of magic 2 (kafkawire.protocol.record_layout has its layout).
BATCH_HEADER_SIZE = V2_HEADER_SIZE
_OFFSET = struct.Struct(">q")
_EPOCH = struct.Struct(">i")

NO_TIMESTAMP = -1


class StorageError(Exception):
    """A Kafka error raised by the log; ``code`` is the Kafka error code."""

    def __init__(self, code: int, message: str = "") -> None:
        super().__init__(message or f"kafka error {code}")
        self.code = code


def peek_magic(buf: BytesLike, pos: int = 0) -> int:
    """The magic byte of the batch or legacy message at ``pos`` (-1 if too short)."""
    return buf[pos + 16] if len(buf) >= pos + 17 else -1


def read_header(buf: BytesLike, pos: int = 0) -> BatchHeader:
    """The header of the magic-2 batch at ``pos`` of ``buf``; raises StorageError(2)
    (CORRUPT_MESSAGE) when it is not a whole batch."""
    if len(buf) - pos < BATCH_HEADER_SIZE:
        raise StorageError(ErrorCode.CORRUPT_MESSAGE, "record batch shorter than its header")
    h = unpack_v2_header(buf, pos)
    if h.magic != 2:
        raise StorageError(ErrorCode.CORRUPT_MESSAGE, f"unexpected magic {h.magic}")
    if h.size_in_bytes < BATCH_HEADER_SIZE or len(buf) - pos < h.size_in_bytes:
        raise StorageError(ErrorCode.CORRUPT_MESSAGE, "record batch length does not match its bytes")
    return h


def split_batches(buf: BytesLike) -> List[Tuple[BatchHeader, memoryview]]:
    """The magic-2 batches of ``buf`` (a produce request's records), each with its bytes."""
    view = memoryview(buf)
    out = []
    pos = 0
    while pos < len(view):
        h = read_header(view, pos)
        out.append((h, view[pos : pos + h.size_in_bytes]))
        pos += h.size_in_bytes
    return out


@dataclass
class _Stored:
    base_offset: int
    last_offset: int
    max_timestamp: int
    data: bytes


@dataclass
class ProducerEntry:
    """What the log remembers of one idempotent producer: its epoch and its last five
    batches (first sequence, last sequence, base offset), as Kafka does."""

    epoch: int
    batches: List[Tuple[int, int, int]] = field(default_factory=list)

    @property
    def last_sequence(self) -> int:
        return self.batches[-1][1] if self.batches else -1


class PartitionLog:
    """One partition: its batches, offsets, and idempotent producers' state."""

    def __init__(
        self, topic: str, partition: int, directory: Optional[str] = None, leader_epoch: int = 0
    ) -> None:
        self.topic = topic
        self.partition = partition
        self.leader_epoch = leader_epoch
        self._batches: List[_Stored] = []
        self._bases: List[int] = []
        self.log_start_offset = 0
        self.next_offset = 0  # log end offset; with one replica also the high watermark
        self.size_bytes = 0
        self.producers: Dict[int, ProducerEntry] = {}
        self.directory = directory
        self._writer = None
        if directory is not None:
            self._load(directory)
            self._writer = write.PartitionWriter(directory, next_offset=self.next_offset)

    # -- on disk ------------------------------------------------------------------------
    def _load(self, directory: str) -> None:
        """Read back the partition's segments (whole batches; a torn tail is dropped)."""
        for plog in segments.discover(directory):
            for seg in plog.segments:
                try:
                    for _pos, view, headers in scan.iter_chunks(seg.path):
                        off = 0
                        for sh in headers:
                            data = bytes(view[off : off + sh.size_in_bytes])
                            off += sh.size_in_bytes
                            if sh.magic != 2:
                                continue  # legacy entries: not written by this broker
                            h = read_header(data)
                            self._remember(h, data)
                            if h.producer_id >= 0 and h.base_sequence >= 0 and not h.is_control:
                                self._note_producer(h, h.base_offset)
                except segments.SegmentError:
                    pass  # a torn tail, as after a crash: keep the whole batches before it
        if self._batches:
            self.log_start_offset = self._batches[0].base_offset

    def flush(self) -> None:
        w = self._writer
        if w is None:
            return
        for fh in (getattr(w, "_log", None), getattr(w, "_index", None), getattr(w, "_timeindex", None)):
            if fh is not None:
                fh.flush()

    def close(self) -> None:
        if self._writer is not None:
            self._writer.close()
            self._writer = None

    # -- writing ------------------------------------------------------------------------
    def _remember(self, h: BatchHeader, data: bytes) -> None:
        self._batches.append(_Stored(h.base_offset, h.last_offset, h.max_timestamp, data))
        self._bases.append(h.base_offset)
        self.next_offset = h.last_offset + 1
        self.size_bytes += len(data)

    def _note_producer(self, h: BatchHeader, base_offset: int) -> None:
        entry = self.producers.get(h.producer_id)
        if entry is None or entry.epoch != h.producer_epoch:
            entry = self.producers[h.producer_id] = ProducerEntry(h.producer_epoch)
        entry.batches.append((h.base_sequence, h.last_sequence, base_offset))
        del entry.batches[:-5]

    def check_producer(self, h: BatchHeader) -> Optional[int]:
        """For an idempotent batch: the base offset it was already written at (a retry),
        or None when it is new and in sequence; raises StorageError otherwise."""
        if h.producer_id < 0 or h.base_sequence < 0:
            return None
        entry = self.producers.get(h.producer_id)
        if entry is None or h.producer_epoch > entry.epoch:
            if h.base_sequence != 0:
                raise StorageError(
                    ErrorCode.OUT_OF_ORDER_SEQUENCE_NUMBER,
                    f"producer {h.producer_id} epoch {h.producer_epoch} must start at "
                    f"sequence 0, not {h.base_sequence}",
                )
            return None
        if h.producer_epoch < entry.epoch:
            raise StorageError(
                ErrorCode.INVALID_PRODUCER_EPOCH,
                f"producer {h.producer_id} epoch {h.producer_epoch} is older than the current {entry.epoch}",
            )
        for first, last, base in entry.batches:
            if first == h.base_sequence and last == h.last_sequence:
                return base
        expected = (entry.last_sequence + 1) & 0x7FFFFFFF
        if h.base_sequence != expected:
            raise StorageError(
                ErrorCode.OUT_OF_ORDER_SEQUENCE_NUMBER,
                f"producer {h.producer_id}: sequence {h.base_sequence}, expected {expected}",
            )
        return None

    def append(self, batches: List[Tuple[BatchHeader, memoryview]]) -> Tuple[int, bool]:
        """Append the batches of one produce request to this partition.

        Returns ``(base_offset, duplicate)``: the offset of the first record, and
        whether the request was a retry of batches already in the log (nothing is
        written then).  Sequence checks for idempotent producers happen before anything
        is written, so a rejected request leaves the log unchanged.
        """
        if not batches:
            return self.next_offset, False
        duplicate_at = None
        for h, _ in batches:
            dup = self.check_producer(h)
            if dup is not None:
                if len(batches) == 1:
                    duplicate_at = dup
                else:
                    raise StorageError(
                        ErrorCode.OUT_OF_ORDER_SEQUENCE_NUMBER, "duplicate batch in a multi-batch request"
                    )
        if duplicate_at is not None:
            return duplicate_at, True
        first = self.next_offset
        for h, view in batches:
            rewritten = bytearray(view)
            base = self.next_offset
            _OFFSET.pack_into(rewritten, 0, base)
            _EPOCH.pack_into(rewritten, 12, self.leader_epoch)
            data = bytes(rewritten)
            stored_h = h._replace(base_offset=base, partition_leader_epoch=self.leader_epoch)
            self._remember(stored_h, data)
            if h.producer_id >= 0 and h.base_sequence >= 0:
                self._note_producer(stored_h, base)
            if self._writer is not None:
                self._writer.append(data)
        self.flush()
        return first, False

    # -- reading ------------------------------------------------------------------------
    @property
    def high_watermark(self) -> int:
        return self.next_offset

    def read(self, offset: int, max_bytes: int, *, min_one: bool = True) -> List[bytes]:
        """The batches holding ``offset`` and after, whole, within ``max_bytes`` (the
        first one always when ``min_one``).  Raises StorageError(OFFSET_OUT_OF_RANGE)
        for an offset outside [log start, log end]."""
        if offset < self.log_start_offset or offset > self.next_offset:
            raise StorageError(
                ErrorCode.OFFSET_OUT_OF_RANGE,
                f"offset {offset} is outside [{self.log_start_offset}, {self.next_offset}]",
            )
        i = bisect.bisect_right(self._bases, offset) - 1
        if i < 0:
            i = 0
        out: List[bytes] = []
        total = 0
        batches = self._batches
        while i < len(batches):
            b = batches[i]
            if b.last_offset < offset:
                i += 1
                continue
            n = len(b.data)
            if total + n > max_bytes and (out or not min_one):
                break
            out.append(b.data)
            total += n
            i += 1
        return out

    def offset_for_timestamp(self, timestamp: int) -> Tuple[int, int]:
        """ListOffsets: ``(offset, timestamp)`` of the first batch whose max timestamp is
        at least ``timestamp`` (Kafka answers with batch precision for compressed data
        and this log answers the same for all), or ``(-1, -1)`` when none is."""
        for b in self._batches:
            if b.max_timestamp >= timestamp:
                return max(b.base_offset, self.log_start_offset), b.max_timestamp
        return -1, -1

    def max_timestamp_offset(self) -> Tuple[int, int]:
        """ListOffsets -3 (KIP-734): the offset and value of the largest timestamp."""
        best = (-1, -1)
        for b in self._batches:
            if b.max_timestamp > best[1]:
                best = (b.last_offset, b.max_timestamp)
        return best

    def iter_batches(self) -> Iterator[bytes]:
        for b in self._batches:
            yield b.data


@dataclass
class Topic:
    name: str
    topic_id: uuid.UUID
    partitions: List[PartitionLog]
    configs: Dict[str, Optional[str]] = field(default_factory=dict)  # None: Kafka's default
    is_internal: bool = False


_LEGAL = set("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789._-")


def topic_name_error(name: Optional[str]) -> Optional[str]:
    """Why ``name`` is not a legal Kafka topic name, or None when it is."""
    if not name:
        return "topic name is empty"
    if name in (".", ".."):
        return "topic name cannot be '.' or '..'"
    if len(name) > 249:
        return "topic name is longer than 249 characters"
    if not set(name) <= _LEGAL:
        return "topic name has characters other than ASCII alphanumerics, '.', '_' and '-'"
    return None


class Storage:
    """Every topic of the broker, optionally kept in a Kafka log directory."""

    def __init__(self, log_dir: Optional[str] = None) -> None:
        self.log_dir = log_dir
        self.topics: Dict[str, Topic] = {}
        self.by_id: Dict[uuid.UUID, Topic] = {}
        if log_dir is not None:
            os.makedirs(log_dir, exist_ok=True)
            self._load_dir()

    def _load_dir(self) -> None:
        assert self.log_dir is not None  # only called with a log directory
        found: Dict[str, List[int]] = {}
        for entry in sorted(os.listdir(self.log_dir)):
            topic, sep, part = entry.rpartition("-")
            if not sep or not part.isdigit() or topic_name_error(topic):
                continue
            if topic == "__consumer_offsets":
                continue  # the group coordinator's own (kafkawire.broker.group_log)
            if not os.path.isdir(os.path.join(self.log_dir, entry)):
                continue
            found.setdefault(topic, []).append(int(part))
        for topic, parts in found.items():
            if sorted(parts) != list(range(len(parts))):
                continue
            topic_id = self._stored_topic_id(topic)
            self.create_topic(topic, len(parts), topic_id=topic_id)

    def _stored_topic_id(self, topic: str) -> Optional[uuid.UUID]:
        assert self.log_dir is not None  # only called with a log directory
        path = os.path.join(self.log_dir, f"{topic}-0", "partition.metadata")
        try:
            with open(path) as fh:
                for line in fh:
                    key, _, value = line.partition(":")
                    if key.strip() == "topic_id":
                        return _uuid_from_kafka(value.strip())
        except (OSError, ValueError):
            return None
        return None

    def create_topic(
        self,
        name: str,
        num_partitions: int,
        *,
        topic_id: Optional[uuid.UUID] = None,
        configs: Optional[Dict[str, Optional[str]]] = None,
    ) -> Topic:
        if topic_id is None:
            topic_id = uuid.uuid4()
        parts = []
        for p in range(num_partitions):
            directory = None
            if self.log_dir is not None:
                directory = os.path.join(self.log_dir, f"{name}-{p}")
                os.makedirs(directory, exist_ok=True)
                meta = os.path.join(directory, "partition.metadata")
                if not os.path.exists(meta):
                    with open(meta, "w") as fh:
                        fh.write(f"version: 0\ntopic_id: {_uuid_to_kafka(topic_id)}\n")
            parts.append(PartitionLog(name, p, directory))
        topic = Topic(name, topic_id, parts, dict(configs or {}), name.startswith("__"))
        self.topics[name] = topic
        self.by_id[topic_id] = topic
        return topic

    def add_internal_topic(self, name: str, partitions: List[PartitionLog]) -> Topic:
        """List ``partitions``, kept by a coordinator, as the internal topic ``name``."""
        topic = Topic(name, uuid.uuid4(), partitions, {}, is_internal=True)
        self.topics[name] = topic
        self.by_id[topic.topic_id] = topic
        return topic

    def delete_topic(self, name: str) -> None:
        topic = self.topics.pop(name)
        self.by_id.pop(topic.topic_id, None)
        for p in topic.partitions:
            p.close()
            if p.directory is not None:
                for f in os.listdir(p.directory):
                    os.unlink(os.path.join(p.directory, f))
                os.rmdir(p.directory)

    def partition(self, topic: str, partition: int) -> Optional[PartitionLog]:
        t = self.topics.get(topic)
        if t is None or not 0 <= partition < len(t.partitions):
            return None
        return t.partitions[partition]

    def close(self) -> None:
        for t in self.topics.values():
            for p in t.partitions:
                p.close()


def _uuid_to_kafka(u: uuid.UUID) -> str:
    """Kafka prints topic ids as URL-safe base64 without padding."""
    import base64

    return base64.urlsafe_b64encode(u.bytes).decode().rstrip("=")


def _uuid_from_kafka(s: str) -> uuid.UUID:
    import base64

    return uuid.UUID(bytes=base64.urlsafe_b64decode(s + "=" * (-len(s) % 4)))
