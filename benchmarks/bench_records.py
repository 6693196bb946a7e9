"""Record batches: kafkawire against aiokafka's Cython record codec, in the same run.

    python -m pytest benchmarks/bench_records.py --benchmark-only

Workloads (one benchmark group each; the ratio is aiokafka's time over kafkawire's):

* W1: one uncompressed v2 batch of 1000 records, 16-byte keys, 100-byte values, one
  header, CRC checked.  W2: the same with 1 KiB values.
* W1's records compressed with gzip, snappy, lz4 and zstd.
* encode: building W1 uncompressed from the same 1000 (key, value, headers, timestamp).
* build: W1 record by record (BatchBuilder.append in a loop, as a producer does) against
  aiokafka's DefaultRecordBatchBuilder, uncompressed and with each codec.  Floors in the
  same group: the loop calling an append that does nothing, and each codec alone on W1's
  uncompressed records (ours, and the codec call aiokafka's builder makes).
* to_arrow: W1 into a pyarrow.Table against aiokafka decoding W1's records.
* legacy: W1's records (no headers) as a v1 message set, 1000 uncompressed messages;
  decoded, and encoded against aiokafka's (and kafka-python's) legacy builders.

Both sides decode to the same objects: every record with offset, timestamp, key, value
and headers, the checksum verified (aiokafka: ``validate_crc()`` on each batch, as its
consumer does with ``check_crcs``).
"""

from __future__ import annotations

import random

import pytest

from kafkawire import _backend
from kafkawire.protocol import records as kw

aiokafka = pytest.importorskip("aiokafka")
from aiokafka.record.default_records import DefaultRecordBatchBuilder  # noqa: E402
from aiokafka.record.legacy_records import LegacyRecordBatchBuilder  # noqa: E402
from aiokafka.record.memory_records import MemoryRecords  # noqa: E402

N = 1000
_rng = random.Random(7)
BASE_TS = 1_700_000_000_000
CODECS = {"none": 0, "gzip": 1, "snappy": 2, "lz4": 3, "zstd": 4}


def _text(n: int) -> bytes:
    """Compressible but not trivial bytes, like JSON payloads."""
    words = [b"alpha", b"beta", b"gamma", b"delta", b"kafka", b"record", b"value", b"42"]
    out = bytearray()
    while len(out) < n:
        out += _rng.choice(words) + b" "
    return bytes(out[:n])


def _records(value_size: int):
    return [
        {
            "key": b"key-%012d" % i,
            "value": _text(value_size),
            "headers": [("trace-id", b"%016x" % i)],
            "timestamp": BASE_TS + i,
        }
        for i in range(N)
    ]


W1 = _records(100)
W2 = _records(1024)


def _aio_build(recs, codec=0):
    b = DefaultRecordBatchBuilder(
        magic=2,
        compression_type=codec,
        is_transactional=0,
        producer_id=-1,
        producer_epoch=-1,
        base_sequence=-1,
        batch_size=1 << 30,
    )
    for i, r in enumerate(recs):
        b.append(i, timestamp=r["timestamp"], key=r["key"], value=r["value"], headers=r["headers"])
    return bytes(b.build())


def _aio_legacy_build(recs, magic=1, codec=0):
    b = LegacyRecordBatchBuilder(magic=magic, compression_type=codec, batch_size=1 << 30)
    for i, r in enumerate(recs):
        b.append(i, timestamp=r["timestamp"], key=r["key"], value=r["value"])
    return bytes(b.build())


def aio_decode(buf):
    """aiokafka's consumer path: batches from MemoryRecords, CRC checked, records listed."""
    mr = MemoryRecords(buf)
    out = []
    while True:
        batch = mr.next_batch()
        if batch is None:
            break
        if not batch.validate_crc():
            raise ValueError("bad crc")
        out.extend(batch)
    return out


BUFS = {
    "W1": kw.encode_batch(W1),
    "W2": kw.encode_batch(W2),
    "legacy-v1": kw.encode_batch([dict(r, headers=[]) for r in W1], magic=1),
}
for _name in ("gzip", "snappy", "lz4", "zstd"):
    BUFS[f"W1-{_name}"] = kw.encode_batch(W1, compression=_name)

KW_LABEL = f"kafkawire ({_backend.BACKEND})"


def _check(ours, theirs):
    assert len(ours) == len(theirs) == N
    a, b = ours[-1], theirs[-1]
    assert (a.offset, a.timestamp, a.key, a.value) == (b.offset, b.timestamp, b.key, b.value)


def _ratio_info(benchmark, label, records=N):
    benchmark.extra_info["implementation"] = label
    benchmark.extra_info["records"] = records


DECODE_CASES = ["W1", "W2", "W1-gzip", "W1-snappy", "W1-lz4", "W1-zstd", "legacy-v1"]


@pytest.mark.parametrize("case", DECODE_CASES)
def test_decode_kafkawire(benchmark, case):
    benchmark.group = f"decode {case}"
    buf = BUFS[case]
    _ratio_info(benchmark, KW_LABEL)
    out = benchmark(kw.decode, buf)
    _check(out, aio_decode(buf))


@pytest.mark.parametrize("case", DECODE_CASES)
def test_decode_aiokafka(benchmark, case):
    benchmark.group = f"decode {case}"
    buf = BUFS[case]
    _ratio_info(benchmark, "aiokafka (cython)")
    out = benchmark(aio_decode, buf)
    _check(kw.decode(buf), out)


def test_encode_kafkawire(benchmark):
    benchmark.group = "encode W1"
    _ratio_info(benchmark, KW_LABEL)
    out = benchmark(kw.encode_batch, W1)
    assert out == BUFS["W1"]


def test_encode_kafkawire_builder(benchmark):
    benchmark.group = "encode W1"
    _ratio_info(benchmark, KW_LABEL + " BatchBuilder")

    def build():
        b = kw.BatchBuilder(max_bytes=1 << 30)
        for r in W1:
            b.append(r["key"], r["value"], r["headers"], r["timestamp"])
        return b.build()

    assert benchmark(build) == BUFS["W1"]


def test_encode_aiokafka(benchmark):
    benchmark.group = "encode W1"
    _ratio_info(benchmark, "aiokafka (cython)")
    out = benchmark(_aio_build, W1)
    assert kw.decode(out) == kw.decode(BUFS["W1"])


def test_to_arrow_kafkawire(benchmark):
    pytest.importorskip("pyarrow")
    benchmark.group = "to_arrow W1"
    _ratio_info(benchmark, KW_LABEL + " to_arrow")
    table = benchmark(kw.to_arrow, BUFS["W1"])
    assert table.num_rows == N


def test_to_arrow_aiokafka(benchmark):
    benchmark.group = "to_arrow W1"
    _ratio_info(benchmark, "aiokafka (cython) decode")
    assert len(benchmark(aio_decode, BUFS["W1"])) == N


LEGACY_W1 = [dict(r, headers=[]) for r in W1]


def _kw_legacy_builder(recs):
    b = kw.BatchBuilder(magic=1, max_bytes=1 << 30)
    for r in recs:
        b.append(r["key"], r["value"], None, r["timestamp"])
    return b.build()


def test_encode_legacy_kafkawire(benchmark):
    benchmark.group = "encode legacy-v1"
    _ratio_info(benchmark, KW_LABEL)
    assert benchmark(kw.encode_batch, LEGACY_W1, magic=1) == BUFS["legacy-v1"]


def test_encode_legacy_kafkawire_builder(benchmark):
    benchmark.group = "encode legacy-v1"
    _ratio_info(benchmark, KW_LABEL + " BatchBuilder")
    assert benchmark(_kw_legacy_builder, LEGACY_W1) == BUFS["legacy-v1"]


def test_encode_legacy_aiokafka(benchmark):
    benchmark.group = "encode legacy-v1"
    _ratio_info(benchmark, "aiokafka (cython) LegacyRecordBatchBuilder")
    assert benchmark(_aio_legacy_build, LEGACY_W1) == BUFS["legacy-v1"]


def test_encode_legacy_kafka_python(benchmark):
    kp_legacy = pytest.importorskip("kafka.record.legacy_records")
    benchmark.group = "encode legacy-v1"
    _ratio_info(benchmark, "kafka-python LegacyRecordBatchBuilder")

    def build():
        b = kp_legacy.LegacyRecordBatchBuilder(magic=1, compression_type=0, batch_size=1 << 30)
        for i, r in enumerate(LEGACY_W1):
            b.append(i, timestamp=r["timestamp"], key=r["key"], value=r["value"])
        return bytes(b.build())

    assert benchmark(build) == BUFS["legacy-v1"]


BUILD_CODECS = ["none", "gzip", "snappy", "lz4", "zstd"]
W1_RECORDS = BUFS["W1"][61:]  # the records of W1 as they are compressed


def _kw_build(recs, codec):
    b = kw.BatchBuilder(max_bytes=1 << 30, compression=codec)
    append = b.append
    for r in recs:
        append(r["key"], r["value"], r["headers"], r["timestamp"])
    return b.build()


class _NoAppend:
    def append(self, key=None, value=None, headers=None, timestamp=None):
        return True


@pytest.mark.parametrize("codec", BUILD_CODECS)
def test_build_kafkawire(benchmark, codec):
    benchmark.group = f"build W1 {codec}"
    _ratio_info(benchmark, KW_LABEL + " BatchBuilder")
    out = benchmark(_kw_build, W1, codec)
    assert out == BUFS["W1" if codec == "none" else f"W1-{codec}"]


@pytest.mark.parametrize("codec", BUILD_CODECS)
def test_build_aiokafka(benchmark, codec):
    benchmark.group = f"build W1 {codec}"
    _ratio_info(benchmark, "aiokafka (cython) DefaultRecordBatchBuilder")
    out = benchmark(_aio_build, W1, CODECS[codec])
    assert kw.decode(out) == kw.decode(BUFS["W1"])


def test_build_floor_loop(benchmark):
    benchmark.group = "build W1 none"
    _ratio_info(benchmark, "floor: the same loop, an append that does nothing")

    def loop():
        append = _NoAppend().append
        for r in W1:
            append(r["key"], r["value"], r["headers"], r["timestamp"])

    benchmark(loop)


@pytest.mark.parametrize("codec", BUILD_CODECS[1:])
def test_build_floor_codec(benchmark, codec):
    from kafkawire.protocol import compression

    benchmark.group = f"build W1 {codec}"
    _ratio_info(benchmark, f"floor: kafkawire's {codec} alone on W1's records")
    benchmark(compression.compress, codec, W1_RECORDS)


@pytest.mark.parametrize("codec", BUILD_CODECS[1:])
def test_build_floor_aiokafka_codec(benchmark, codec):
    from aiokafka import codec as aio_codec

    benchmark.group = f"build W1 {codec}"
    _ratio_info(benchmark, f"floor: aiokafka's {codec} alone on W1's records")
    benchmark(getattr(aio_codec, f"{codec}_encode"), W1_RECORDS)
