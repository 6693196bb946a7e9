"""Batches kafkawire encodes, at every compression and magic, decode in aiokafka (its
Cython and pure readers) and kafka-python to the same records."""

from __future__ import annotations

import pytest

from kafkawire.protocol import records

pytestmark = pytest.mark.in_process

aio_memory = pytest.importorskip("aiokafka.record.memory_records")
aio_default = pytest.importorskip("aiokafka.record.default_records")
aio_legacy = pytest.importorskip("aiokafka.record.legacy_records")
aio_errors = pytest.importorskip("aiokafka.errors")
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
CASES = [(2, c) for c in ("none", "gzip", "snappy", "lz4", "zstd")] + [
    (m, c) for m in (0, 1) for c in ("none", "gzip", "snappy", "lz4")
]


def _expected(magic):
    """The input records as a reader must return them: offsets from the base offset,
    no timestamps at magic 0, headers only at magic 2."""
    recs = RECS if magic == 2 else LEGACY
    return [
        (300 + i, None if magic == 0 else r["timestamp"], r["key"], r["value"], r["headers"])
        for i, r in enumerate(recs)
    ]


def _walk(reader, buf):
    mr = reader(buf)
    out = []
    while mr.has_next():
        batch = mr.next_batch()
        assert batch.validate_crc()
        out += [(r.offset, r.timestamp, r.key, r.value, list(r.headers or [])) for r in batch]
    return out


def _available(codec):
    return (
        codec == "none"
        or {
            "gzip": kafka_codec.has_gzip,
            "snappy": kafka_codec.has_snappy,
            "lz4": kafka_codec.has_lz4,
            "zstd": kafka_codec.has_zstd,
        }[codec]()
    )


AIOKAFKA_CASES = [c for c in CASES if c != (0, "lz4")]


@pytest.mark.parametrize("magic,codec", AIOKAFKA_CASES)
def test_aiokafka_reads_what_kafkawire_writes(magic, codec):
    buf = records.encode_batch(
        RECS if magic == 2 else LEGACY, magic=magic, compression=codec, base_offset=300, producer_id=-1
    )
    assert _walk(aio_memory.MemoryRecords, buf) == _expected(magic)
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
    assert got == _expected(magic)


def test_aiokafka_still_refuses_lz4_at_magic_0():
    """A known peer gap, checked to still be there: aiokafka rejects lz4 in magic 0
    message sets (the KAFKA-3160 framing) that Kafka and kafka-python read."""
    buf = records.encode_batch(LEGACY, magic=0, compression="lz4", base_offset=300)
    with pytest.raises(aio_errors.UnsupportedCodecError):
        _walk(aio_memory.MemoryRecords, buf)
    assert _walk(kp_memory.MemoryRecords, buf) == _expected(0)


@pytest.mark.parametrize("magic,codec", CASES)
def test_kafka_python_reads_what_kafkawire_writes(magic, codec):
    if not _available(codec):
        pytest.skip(f"kafka-python has no {codec} codec here")
    buf = records.encode_batch(
        RECS if magic == 2 else LEGACY, magic=magic, compression=codec, base_offset=300
    )
    assert _walk(kp_memory.MemoryRecords, buf) == _expected(magic)


def test_peers_read_idempotent_and_control_batches():
    buf = records.encode_batch(
        RECS, producer_id=9, producer_epoch=4, base_sequence=17, is_transactional=True, base_offset=10
    )
    marker = records.encode_control_batch(
        "commit", base_offset=14, producer_id=9, producer_epoch=4, coordinator_epoch=3, timestamp=TS
    )
    for reader in (aio_memory.MemoryRecords, kp_memory.MemoryRecords):
        mr = reader(buf + marker)
        b1 = mr.next_batch()
        assert (b1.producer_id, b1.producer_epoch, b1.base_sequence) == (9, 4, 17)
        assert b1.is_transactional and not b1.is_control_batch
        b2 = mr.next_batch()
        assert b2.is_control_batch and b2.validate_crc()
