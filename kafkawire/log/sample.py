"""A sample Kafka log directory, deterministic, for the demo, the tests and benchmarks.

:func:`generate` writes what a broker would hold for three topics:

``orders`` (3 partitions)
    JSON order events with headers (``trace-id``, ``source``), the batches cycling
    through every compression codec: none, gzip, snappy, lz4, zstd.  Small segments, so
    each partition has several ``.log`` files with their ``.index`` and ``.timeindex``.
``payments`` (2 partitions)
    A transactional producer per partition: committed transactions, and one aborted
    transaction (records followed by an ABORT marker) while a plain idempotent producer
    keeps writing in between.  The aborted range is also in the segment's ``.txnindex``.
``users`` (1 partition)
    A compacted-looking key set: a few hundred updates of 40 keys with tombstones; the
    first segment looks cleaned (only the latest record of each key kept, so the offsets
    have gaps, as after log compaction), the active segment holds the recent updates.

It returns a :class:`SampleLog` listing every record written, with its fate under
``read_committed``, so callers can check a reader record for record.
"""

from __future__ import annotations

import json
import os
import random
from dataclasses import dataclass, field
from typing import Any, Dict, List, Optional, Sequence, Tuple

from kafkawire.log import indexes, segments, write

CODECS = ("none", "gzip", "snappy", "lz4", "zstd")
#: 2024-01-01T00:00:00Z in milliseconds: every sample timestamp counts from here.
BASE_TIMESTAMP = 1704067200000


@dataclass
class SampleRecord:
    """One record written to the sample log, and what a reader should see of it."""

    topic: str
    partition: int
    offset: int
    timestamp: int
    key: Optional[bytes]
    value: Optional[bytes]
    headers: List[Tuple[str, Optional[bytes]]]
    compression: str
    is_transactional: bool = False
    aborted: bool = False


@dataclass
class SampleLog:
    """What :func:`generate` wrote."""

    directory: str
    records: List[SampleRecord] = field(default_factory=list)
    control_batches: int = 0
    bytes_written: int = 0

    @property
    def aborted(self) -> List[SampleRecord]:
        return [r for r in self.records if r.aborted]


class _Partition:
    """Writes one partition's batches, tracking offsets and the manifest."""

    def __init__(self, log: SampleLog, topic: str, partition: int, *, segment_bytes: int) -> None:
        from kafkawire.protocol import records

        self._records = records
        self.log = log
        self.topic = topic
        self.partition = partition
        self.dir = os.path.join(log.directory, f"{topic}-{partition}")
        self.writer = write.PartitionWriter(self.dir, segment_bytes=segment_bytes, index_interval_bytes=1024)
        self.next_offset = 0
        self.aborted_txns: List[indexes.AbortedTxn] = []

    def batch(
        self,
        recs: List[Dict[str, Any]],
        *,
        compression: str = "none",
        offsets: Optional[Sequence[int]] = None,
        **batch_fields: Any,
    ) -> List[SampleRecord]:
        base = self.next_offset if offsets is None else offsets[0]
        items = []
        for i, r in enumerate(recs):
            item = dict(r)
            item["offset"] = (base + i) if offsets is None else offsets[i]
            items.append(item)
        data = self._records.encode_batch(
            items, base_offset=base, compression=compression, partition_leader_epoch=0, **batch_fields
        )
        self.writer.append(data)
        self.log.bytes_written += len(data)
        self.next_offset = items[-1]["offset"] + 1
        out = [
            SampleRecord(
                self.topic,
                self.partition,
                it["offset"],
                it["timestamp"],
                it["key"],
                it["value"],
                list(it.get("headers") or []),
                compression,
                is_transactional=batch_fields.get("is_transactional", False),
            )
            for it in items
        ]
        self.log.records.extend(out)
        return out

    def marker(self, kind: str, producer_id: int, producer_epoch: int, timestamp: int) -> int:
        data = self._records.encode_control_batch(
            kind,
            base_offset=self.next_offset,
            producer_id=producer_id,
            producer_epoch=producer_epoch,
            timestamp=timestamp,
            partition_leader_epoch=0,
        )
        self.writer.append(data)
        self.log.bytes_written += len(data)
        self.log.control_batches += 1
        offset = self.next_offset
        self.next_offset += 1
        return offset

    def close(self) -> None:
        self.writer.close()
        if self.aborted_txns:
            # Kafka keeps each aborted range in the .txnindex of the segment that holds
            # its marker; the sample's markers all sit in the partition's last segment.
            last = self.writer.segments[-1]
            indexes.write_txn_index(
                last[: -len(segments.LOG_SUFFIX)] + segments.TXN_INDEX_SUFFIX, self.aborted_txns
            )


def _order(rng: random.Random, i: int) -> bytes:
    return json.dumps(
        {
            "order_id": i,
            "customer": f"c{rng.randrange(500):03d}",
            "amount": round(rng.uniform(1, 500), 2),
            "items": rng.randrange(1, 9),
            "status": rng.choice(["new", "paid", "shipped"]),
        },
        separators=(",", ":"),
    ).encode()


def generate(directory: str, *, scale: int = 1, seed: int = 7, segment_bytes: int = 64 * 1024) -> SampleLog:
    """Write the sample log directory into ``directory`` (created if need be).

    ``scale`` multiplies the record counts (scale 1: about 9,000 records, 1.5 MB).
    """
    rng = random.Random(seed)
    os.makedirs(directory, exist_ok=True)
    log = SampleLog(directory)
    ts = BASE_TIMESTAMP

    # orders: every codec, headers, several segments
    for p in range(3):
        part = _Partition(log, "orders", p, segment_bytes=segment_bytes)
        n = 2000 * scale
        i = 0
        b = 0
        while i < n:
            size = rng.randrange(20, 120)
            recs = []
            for _ in range(min(size, n - i)):
                ts += rng.randrange(0, 20)
                headers: List[Tuple[str, Optional[bytes]]] = [
                    ("trace-id", f"{rng.getrandbits(64):016x}".encode()),
                    ("source", rng.choice([b"web", b"mobile", b"pos"])),
                ]
                if i % 97 == 0:
                    headers.append(("retry", None))
                recs.append(
                    {
                        "key": f"order-{p}-{i}".encode(),
                        "value": _order(rng, i),
                        "headers": headers,
                        "timestamp": ts,
                    }
                )
                i += 1
            part.batch(recs, compression=CODECS[b % len(CODECS)])
            b += 1
        part.close()

    # payments: committed and aborted transactions among plain batches
    for p in range(2):
        part = _Partition(log, "payments", p, segment_bytes=segment_bytes)
        txn_pid, plain_pid = 4000 + p, 5000 + p
        seq = {txn_pid: 0, plain_pid: 0}

        def pay(count: int, pid: int, transactional: bool, codec: str) -> List[SampleRecord]:
            nonlocal ts
            recs = []
            for _ in range(count):
                ts += rng.randrange(1, 30)
                recs.append(
                    {
                        "key": f"acct-{rng.randrange(50):02d}".encode(),
                        "value": json.dumps({"cents": rng.randrange(1, 100000)}).encode(),
                        "headers": [("txn", b"1" if transactional else b"0")],
                        "timestamp": ts,
                    }
                )
            out = part.batch(
                recs,
                compression=codec,
                producer_id=pid,
                producer_epoch=0,
                base_sequence=seq[pid],
                is_transactional=transactional,
            )
            seq[pid] += count
            return out

        for round_ in range(6 * scale):
            codec = CODECS[round_ % len(CODECS)]
            pay(30, plain_pid, False, codec)
            aborting = round_ % 3 == 1
            first = part.next_offset
            txn_recs = pay(40, txn_pid, True, codec)
            pay(25, plain_pid, False, codec)  # a plain producer writes mid-transaction
            txn_recs += pay(40, txn_pid, True, codec)
            ts += 5
            marker = part.marker("abort" if aborting else "commit", txn_pid, 0, ts)
            if aborting:
                for r in txn_recs:
                    r.aborted = True
                part.aborted_txns.append(indexes.AbortedTxn(txn_pid, first, marker, marker + 1))
        part.close()

    # users: a compacted-looking key set with tombstones
    part = _Partition(log, "users", 0, segment_bytes=segment_bytes)
    keys = [f"user-{k:02d}".encode() for k in range(40)]
    history: List[Dict[str, Any]] = []
    for off in range(600 * scale):
        ts += rng.randrange(1, 50)
        key = rng.choice(keys)
        value = (
            None
            if rng.random() < 0.08
            else json.dumps({"name": key.decode(), "v": off, "plan": rng.choice(["free", "pro"])}).encode()
        )
        history.append({"key": key, "value": value, "headers": [], "timestamp": ts, "offset": off})
    cleaned_upto = len(history) // 2
    latest: Dict[bytes, Dict[str, Any]] = {}
    for rec in history[:cleaned_upto]:
        latest[rec["key"]] = rec
    kept = sorted(latest.values(), key=lambda r: r["offset"])
    for start in range(0, len(kept), 16):
        chunk = kept[start : start + 16]
        part.batch(
            [{k: r[k] for k in ("key", "value", "headers", "timestamp")} for r in chunk],
            compression="lz4",
            offsets=[r["offset"] for r in chunk],
        )
    part.writer.roll()  # the cleaner leaves the active segment apart
    for start in range(cleaned_upto, len(history), 25):
        chunk = history[start : start + 25]
        part.batch(
            [{k: r[k] for k in ("key", "value", "headers", "timestamp")} for r in chunk], compression="snappy"
        )
    part.close()
    return log


__all__ = [
    "CODECS",
    "BASE_TIMESTAMP",
    "SampleRecord",
    "SampleLog",
    "generate",
]


def __dir__() -> list[str]:  # what the module defines, not what it imports
    return sorted(__all__)
