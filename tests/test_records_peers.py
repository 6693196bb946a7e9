"""Batches kafkawire encodes, at every compression and magic, decode in aiokafka (its
Cython and pure readers) and kafka-python to the same records."""
from __future__ import annotations

import pytest

from kafkawire import records

aio_memory = pytest.importorskip("aiokafka.record.memory_records")
aio_default = pytest.importorskip("aiokafka.record.default_records")
aio_legacy = pytest.importorskip("aiokafka.record.legacy_records")
kp_memory = pytest.importorskip("kafka.record.memory_records")
kafka_codec = pytest.importorskip("kafka.codec")

TS = 1_700_000_000_000
RECS = [
    {"key": b"k0", "value": b"v0", "headers": [("a", b"1"), ("b", None)], "timestamp": TS},
    {"key": None, "value": b"", "headers": [], "timestamp": TS - 30},
    {"key": b"", "value": None, "headers": [("h\u00e9", b"")], "timestamp": TS + 9},
    {"key": b"z" * 70, "value": b"abc" * 3000, "headers": [], "timestamp": TS + 1},
]
LEGACY = [dict(r, headers=[]) for r in RECS]
CASES = [(2, c) for c in ("none", "gzip", "snappy", "lz4", "zstd")] + \
        [(m, c) for m in (0, 1) for c in ("none", "gzip", "snappy", "lz4")]


def _expected(buf):
    return [(r.offset, r.timestamp, r.key, r.value, list(r.headers))
            for r in records.decode(buf)]


def _walk(reader, buf):
    mr = reader(buf)
    out = []
    while mr.has_next():
        batch = mr.next_batch()
        assert batch.validate_crc()
        out += [(r.offset, r.timestamp, r.key, r.value, list(r.headers or [])) for r in batch]
    return out


def _available(codec):
    return codec == "none" or {"gzip": kafka_codec.has_gzip, "snappy": kafka_codec.has_snappy,
                               "lz4": kafka_codec.has_lz4, "zstd": kafka_codec.has_zstd}[codec]()


@pytest.mark.parametrize("magic,codec", CASES)
def test_aiokafka_reads_what_kafkawire_writes(magic, codec):
    buf = records.encode_batch(RECS if magic == 2 else LEGACY, magic=magic, compression=codec,
                               base_offset=300, producer_id=-1)
    if magic == 0 and codec == "lz4":
        pytest.skip("aiokafka does not read lz4 at magic 0 (KAFKA-3160 framing)")
    assert _walk(aio_memory.MemoryRecords, buf) == _expected(buf)
    if magic == 2:
        batch = aio_default._DefaultRecordBatchPy(buf)
        assert batch.validate_crc()
        got = [(r.offset, r.timestamp, r.key, r.value, list(r.headers)) for r in batch]
    else:
        got = []
        for b in records.iter_batches(buf):
            lb = aio_legacy._LegacyRecordBatchPy(bytes(b.raw), magic)
            assert lb.validate_crc()
            got += [(r.offset, r.timestamp, r.key, r.value, []) for r in lb]
    assert got == _expected(buf)


@pytest.mark.parametrize("magic,codec", CASES)
def test_kafka_python_reads_what_kafkawire_writes(magic, codec):
    if not _available(codec):
        pytest.skip(f"kafka-python has no {codec} codec here")
    buf = records.encode_batch(RECS if magic == 2 else LEGACY, magic=magic, compression=codec,
                               base_offset=300)
    assert _walk(kp_memory.MemoryRecords, buf) == _expected(buf)


def test_peers_read_idempotent_and_control_batches():
    buf = records.encode_batch(RECS, producer_id=9, producer_epoch=4, base_sequence=17,
                               is_transactional=True, base_offset=10)
    marker = records.encode_control_batch("commit", base_offset=14, producer_id=9,
                                          producer_epoch=4, coordinator_epoch=3, timestamp=TS)
    for reader in (aio_memory.MemoryRecords, kp_memory.MemoryRecords):
        mr = reader(buf + marker)
        b1 = mr.next_batch()
        assert (b1.producer_id, b1.producer_epoch, b1.base_sequence) == (9, 4, 17)
        assert b1.is_transactional and not b1.is_control_batch
        b2 = mr.next_batch()
        assert b2.is_control_batch and b2.validate_crc()
