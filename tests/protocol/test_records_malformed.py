"""Hostile and broken input: truncation at every byte, bit flips, counts and lengths far
beyond the buffer, decompression bombs.  Only kafkawire.errors exceptions, no allocation
beyond a small multiple of the input (or the decompression cap), no crash."""

from __future__ import annotations

import random
import struct
import tracemalloc

import pytest

from kafkawire.protocol import compression, records
from kafkawire.errors import (
    CorruptRecordError,
    DecompressionError,
    DecompressionLimitError,
    KafkaWireError,
)

pytestmark = pytest.mark.in_process

TS = 1_700_000_000_000
RECS = [
    {"key": b"key", "value": b"value" * 3, "headers": [("h", b"1"), ("n", None)], "timestamp": TS + 3},
    {"key": None, "value": b"", "headers": [], "timestamp": TS - 1},
]
LEGACY = [dict(r, headers=[]) for r in RECS]
SMALL = {
    "v2": records.encode_batch(RECS),
    "v2-gzip": records.encode_batch(RECS, compression="gzip"),
    "v2-lz4": records.encode_batch(RECS, compression="lz4"),
    "v2-zstd": records.encode_batch(RECS, compression="zstd"),
    "v2-snappy": records.encode_batch(RECS, compression="snappy"),
    "v1": records.encode_batch(LEGACY, magic=1),
    "v1-gzip": records.encode_batch(LEGACY, magic=1, compression="gzip"),
    "v0-snappy": records.encode_batch(LEGACY, magic=0, compression="snappy"),
    "v0-lz4": records.encode_batch(LEGACY, magic=0, compression="lz4"),
}


def _consume(buf, verify=True, **kw):
    """Decode everything the way a user would; returns the iterator's leftover."""
    it = records.iter_batches(buf, verify_crc=verify, **kw)
    for batch in it:
        for r in batch:
            (r.offset, r.timestamp, r.key, r.value, r.headers)
        (batch.base_offset, batch.last_offset, batch.record_count)
    records.decode(buf, verify_crc=verify, **kw)
    return it.remaining_bytes


def _only_ours(buf, verify=True, **kw):
    try:
        _consume(buf, verify, **kw)
    except KafkaWireError:
        pass
    try:
        records.to_arrow(buf, verify_crc=verify, **kw)
    except KafkaWireError:
        pass


@pytest.mark.parametrize("name", sorted(SMALL))
def test_truncation_at_every_byte_stops_cleanly(name):
    whole = SMALL[name]
    for n in range(len(whole)):
        cut = whole[:n]
        it = records.iter_batches(cut)
        got = list(it)
        if name.startswith("v1") and not name.endswith("gzip"):
            # A v1 message set is one batch per message: whole messages before the cut.
            assert it.remaining_bytes + sum(b.size_in_bytes for b in got) == n
        else:
            assert got == [] and it.remaining_bytes == n
        assert records.decode(cut) == [] or name == "v1"


@pytest.mark.parametrize("name", sorted(SMALL))
def test_truncation_inside_a_batch_whose_size_was_fixed_up(name):
    whole = SMALL[name]
    for n in range(17, len(whole)):
        cut = bytearray(whole[:n])
        struct.pack_into(">i", cut, 8, n - 12)
        for verify in (True, False):
            _only_ours(bytes(cut), verify)


@pytest.mark.parametrize("name", sorted(SMALL))
def test_random_bit_flips(name):
    rng = random.Random(name)
    whole = SMALL[name]
    for _ in range(300):
        buf = bytearray(whole)
        for _ in range(rng.randint(1, 3)):
            i = rng.randrange(len(buf))
            buf[i] ^= 1 << rng.randrange(8)
        _only_ours(bytes(buf), True)
        _only_ours(bytes(buf), False)


def test_a_crc_flip_anywhere_after_the_crc_is_detected():
    whole = SMALL["v2"]
    for i in range(21, len(whole)):
        buf = bytearray(whole)
        buf[i] ^= 0x10
        with pytest.raises(CorruptRecordError):
            records.decode(bytes(buf))


def _v2_with(header_patch=None, body=b""):
    buf = bytearray(records.encode_batch([]))
    buf += body
    struct.pack_into(">i", buf, 8, len(buf) - 12)
    if header_patch:
        header_patch(buf)
    return bytes(buf)


def _varint(v):
    z = (v << 1) ^ (v >> 63)
    z &= (1 << 64) - 1
    out = bytearray()
    while z > 0x7F:
        out.append((z & 0x7F) | 0x80)
        z >>= 7
    out.append(z)
    return bytes(out)


HOSTILE = {
    "count 2**31-1, no records": _v2_with(lambda b: struct.pack_into(">i", b, 57, 2**31 - 1)),
    "count -5": _v2_with(lambda b: struct.pack_into(">i", b, 57, -5)),
    "record length 2**31-1": _v2_with(
        lambda b: struct.pack_into(">i", b, 57, 1), _varint(2**31 - 1) + bytes(10)
    ),
    "key length 2**31-1": _v2_with(
        lambda b: struct.pack_into(">i", b, 57, 1),
        _varint(9) + b"\x00\x00\x00" + _varint(2**31 - 1) + bytes(4),
    ),
    "header count 2**30": _v2_with(
        lambda b: struct.pack_into(">i", b, 57, 1),
        _varint(8) + b"\x00\x00\x00\x01\x01" + _varint(2**30) + bytes(1),
    ),
    "overlong varint": _v2_with(lambda b: struct.pack_into(">i", b, 57, 1), b"\xff" * 12),
    "batch length 2**31-1": struct.pack(">qi", 0, 2**31 - 1) + bytes(60),
    "batch length -1": struct.pack(">qi", 0, -1) + bytes(60),
    "magic 7": struct.pack(">qiiB", 0, 49, 0, 7) + bytes(48),
    "legacy key length 2**31-1": (lambda m: struct.pack(">qi", 0, len(m)) + m)(
        struct.pack(">IBBqi", 0, 1, 0, 0, 2**31 - 1) + bytes(4)
    ),
    "legacy wrapper with null value": (lambda m: struct.pack(">qi", 0, len(m)) + m)(
        struct.pack(">IBBqii", 0, 1, 1, 0, -1, -1)
    ),
    "legacy wrapper of garbage": (lambda m: struct.pack(">qi", 0, len(m)) + m)(
        struct.pack(">IBBqii", 0, 1, 1, 0, -1, 10) + b"0123456789"
    ),
    "unknown codec 6": _v2_with(lambda b: struct.pack_into(">h", b, 21, 6), b"xx"),
}


@pytest.mark.parametrize("name", sorted(HOSTILE))
def test_hostile_counts_and_lengths_raise_before_allocating(name):
    buf = HOSTILE[name]
    tracemalloc.start()
    try:
        for verify in (False, True):
            try:
                left = _consume(buf, verify)
            except KafkaWireError:
                continue
            # "batch length 2**31-1" is a partial batch: everything is left over.
            assert left == len(buf)
        _, peak = tracemalloc.get_traced_memory()
    finally:
        tracemalloc.stop()
    assert peak < 64 * 1024 + 50 * len(buf)


def _bomb_batch(codec, size):
    body = bytearray()
    # one record whose value is `size` zero bytes
    inner = b"\x00" + _varint(0) + _varint(0) + _varint(-1) + _varint(size) + bytes(size) + _varint(0)
    body = _varint(len(inner)) + inner
    if codec == "zstd":
        zstandard = pytest.importorskip("zstandard")
        payload = zstandard.ZstdCompressor(write_content_size=False).compress(body)
    else:
        payload = compression.compress(codec, body)
    buf = bytearray(records.encode_batch([{"key": None, "value": b"", "timestamp": 0}]))
    buf = buf[:61] + payload
    struct.pack_into(">i", buf, 8, len(buf) - 12)
    struct.pack_into(">h", buf, 21, compression.codec_id(codec))
    struct.pack_into(">i", buf, 57, 1)
    return bytes(buf)


@pytest.mark.parametrize("codec", ["gzip", "snappy", "lz4", "zstd"])
def test_decompression_bombs_hit_the_cap(codec):
    buf = _bomb_batch(codec, 8 << 20)
    assert len(buf) < 600_000
    with pytest.raises(DecompressionLimitError):
        records.decode(buf, verify_crc=False, max_decompressed_size=1 << 20)
    with pytest.raises(DecompressionLimitError):
        records.to_arrow(buf, verify_crc=False, max_decompressed_size=1 << 20)
    (rec,) = records.decode(buf, verify_crc=False, max_decompressed_size=9 << 20)
    assert rec.value == bytes(8 << 20)


def test_the_default_cap_is_finite_and_generous():
    assert 64 << 20 <= records.DEFAULT_MAX_DECOMPRESSED_SIZE <= 1 << 30


@pytest.mark.parametrize("codec", ["gzip", "snappy", "lz4", "zstd"])
def test_corrupt_compressed_payloads(codec):
    buf = bytearray(records.encode_batch(RECS * 20, compression=codec))
    for i in range(61, len(buf), 7):
        b = bytearray(buf)
        b[i] ^= 0xFF
        try:
            records.decode(bytes(b), verify_crc=False)
        except KafkaWireError:
            pass


def test_legacy_v0_lz4_with_the_kafka_3160_checksum_reads():
    buf = SMALL["v0-lz4"]
    assert [r.value for r in records.decode(buf)] == [r["value"] for r in LEGACY]


def test_xerial_block_longer_than_its_data():
    payload = b"\x82SNAPPY\x00" + struct.pack(">ii", 1, 1) + struct.pack(">i", 1000) + b"abc"
    with pytest.raises(DecompressionError):
        compression.decompress(compression.SNAPPY, payload)
