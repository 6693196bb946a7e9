"""Regenerate the record-batch golden vectors of this directory from real peers.

    python tests/vectors/records/generate.py

Every vector is a ``.bin`` file of wire bytes, built by aiokafka (its Cython builders
and its pure-Python ones) or kafka-python, with a ``.json`` sidecar naming the library,
version and builder, the parameters, and the records expected from decoding it.  The
expected records are written from the *inputs* given to the peer (not from kafkawire),
and the peer's own reader is checked to agree before anything is written.

Compressed vectors differ from run to run where the codec embeds a time (gzip's
header); their decoded records do not.
"""

from __future__ import annotations

import json
import os
import struct
import sys

import aiokafka
import crc32c
import kafka
from aiokafka.record import default_records as aio_default
from aiokafka.record import legacy_records as aio_legacy
from aiokafka.record.memory_records import MemoryRecords as AioMemoryRecords
from kafka.record import default_records as kp_default
from kafka.record import legacy_records as kp_legacy
from kafka.record.memory_records import MemoryRecords as KpMemoryRecords

HERE = os.path.dirname(os.path.abspath(__file__))
CODECS = {"none": 0, "gzip": 1, "snappy": 2, "lz4": 3, "zstd": 4}
TS = 1_700_000_000_000

# Null and empty keys and values, headers (one with a null value), and timestamps that
# go down after the first record (negative deltas from the batch's base timestamp).
RECORDS_V2 = [
    {
        "key": b"key-0",
        "value": b"value-0",
        "headers": [("trace", b"abc"), ("empty", b"")],
        "timestamp": TS + 500,
    },
    {"key": None, "value": b"no key", "headers": [], "timestamp": TS},
    {"key": b"", "value": b"", "headers": [("null-value", None)], "timestamp": TS - 1000},
    {"key": b"k3", "value": None, "headers": [("h\u00e9", b"\x00\xff")], "timestamp": TS + 10},
    {"key": b"\x00\x01\x02", "value": bytes(range(256)) * 4, "headers": [], "timestamp": TS + 2000},
]
RECORDS_LEGACY = [dict(r, headers=[]) for r in RECORDS_V2]


def _hex(b):
    return None if b is None else b.hex()


def _expect(records, magic, base_offset=0, tstype="create"):
    out = []
    for i, r in enumerate(records):
        out.append(
            {
                "offset": base_offset + i,
                "timestamp": None if magic == 0 else r["timestamp"],
                "timestamp_type": None if magic == 0 else tstype,
                "key": _hex(r["key"]),
                "value": _hex(r["value"]),
                "headers": [[k, _hex(v)] for k, v in r["headers"]],
            }
        )
    return out


def _peer_records(reader_cls, buf):
    mr = reader_cls(buf)
    out = []
    while True:
        batch = mr.next_batch()
        if batch is None:
            break
        assert batch.validate_crc()
        for r in batch:
            out.append(
                {
                    "offset": r.offset,
                    "timestamp": r.timestamp,
                    "key": _hex(r.key),
                    "value": _hex(r.value),
                    "headers": [[k, _hex(v)] for k, v in (r.headers or [])],
                }
            )
    return out


def _check_with_peer(buf, expected, reader_cls=KpMemoryRecords):
    got = _peer_records(reader_cls, buf)
    want = [{k: e[k] for k in ("offset", "timestamp", "key", "value", "headers")} for e in expected]
    assert got == want, (got, want)


def _write(name, buf, sidecar):
    with open(os.path.join(HERE, name + ".bin"), "wb") as f:
        f.write(buf)
    sidecar = dict(file=name + ".bin", size=len(buf), **sidecar)
    with open(os.path.join(HERE, name + ".json"), "w") as f:
        json.dump(sidecar, f, indent=1, sort_keys=True)
        f.write("\n")
    print(f"{name}: {len(buf)} bytes")


def v2_vector(
    name,
    library,
    builder_cls,
    records,
    *,
    codec="none",
    producer_id=-1,
    producer_epoch=-1,
    base_sequence=-1,
    is_transactional=False,
):
    b = builder_cls(
        magic=2,
        compression_type=CODECS[codec],
        is_transactional=int(is_transactional),
        producer_id=producer_id,
        producer_epoch=producer_epoch,
        base_sequence=base_sequence,
        batch_size=1 << 24,
    )
    for i, r in enumerate(records):
        assert (
            b.append(i, timestamp=r["timestamp"], key=r["key"], value=r["value"], headers=r["headers"])
            is not None
        )
    buf = bytes(b.build())
    expected = _expect(records, 2)
    _check_with_peer(buf, expected)
    _check_with_peer(buf, expected, AioMemoryRecords)
    _write(
        name,
        buf,
        {
            "producer": library,
            "params": {
                "magic": 2,
                "compression": codec,
                "producer_id": producer_id,
                "producer_epoch": producer_epoch,
                "base_sequence": base_sequence,
                "is_transactional": is_transactional,
                "base_offset": 0,
            },
            "batches": [
                {
                    "magic": 2,
                    "base_offset": 0,
                    "last_offset": len(records) - 1,
                    "compression": codec,
                    "timestamp_type": "create",
                    "is_transactional": is_transactional,
                    "is_control": False,
                    "producer_id": producer_id,
                    "producer_epoch": producer_epoch,
                    "base_sequence": base_sequence,
                    "record_count": len(records),
                }
            ],
            "records": expected,
        },
    )
    return buf


def legacy_vector(name, library, builder_cls, records, *, magic, codec="none"):
    b = builder_cls(magic=magic, compression_type=CODECS[codec], batch_size=1 << 24)
    for i, r in enumerate(records):
        assert b.append(i, timestamp=r["timestamp"], key=r["key"], value=r["value"]) is not None
    buf = bytes(b.build())
    expected = _expect(records, magic)
    _check_with_peer(buf, expected)
    _write(
        name,
        buf,
        {
            "producer": library,
            "params": {"magic": magic, "compression": codec, "base_offset": 0},
            "batches": [{"magic": magic, "compression": codec, "last_offset": len(records) - 1}]
            if codec != "none"
            else [{"magic": magic, "compression": "none", "last_offset": i} for i in range(len(records))],
            "records": expected,
        },
    )
    return buf


def control_vector(name, kind, coordinator_epoch):
    """A transaction marker.  Only brokers write control batches, so no client library
    builds one: this is aiokafka's pure builder's transactional batch holding the
    marker record, with the control attribute set and the CRC32C recomputed by the
    ``crc32c`` package."""
    ctype = {"abort": 0, "commit": 1}[kind]
    key = struct.pack(">hh", 0, ctype)
    value = struct.pack(">hi", 0, coordinator_epoch)
    b = aio_default._DefaultRecordBatchBuilderPy(
        magic=2,
        compression_type=0,
        is_transactional=1,
        producer_id=77,
        producer_epoch=3,
        base_sequence=-1,
        batch_size=1 << 20,
    )
    b.append(0, timestamp=TS, key=key, value=value, headers=[])
    buf = bytearray(b.build())
    attrs = struct.unpack_from(">h", buf, 21)[0] | 0x20
    struct.pack_into(">h", buf, 21, attrs)
    struct.pack_into(">I", buf, 17, crc32c.crc32c(bytes(buf[21:])))
    buf = bytes(buf)
    batch = KpMemoryRecords(buf).next_batch()
    assert batch.is_control_batch and batch.validate_crc()
    expected = [
        {
            "offset": 0,
            "timestamp": TS,
            "timestamp_type": "create",
            "key": key.hex(),
            "value": value.hex(),
            "headers": [],
        }
    ]
    _write(
        name,
        buf,
        {
            "producer": {
                "library": "aiokafka",
                "version": aiokafka.__version__,
                "builder": "_DefaultRecordBatchBuilderPy, control bit set by hand, "
                f"CRC32C by crc32c {crc32c.__version__ if hasattr(crc32c, '__version__') else ''}".strip(),
            },
            "params": {
                "magic": 2,
                "control_type": kind,
                "coordinator_epoch": coordinator_epoch,
                "producer_id": 77,
                "producer_epoch": 3,
            },
            "batches": [
                {
                    "magic": 2,
                    "is_control": True,
                    "is_transactional": True,
                    "producer_id": 77,
                    "producer_epoch": 3,
                    "record_count": 1,
                }
            ],
            "control": {"type": kind, "coordinator_epoch": coordinator_epoch},
            "records": expected,
        },
    )


def rewrapped_vector(name, plain, codec, compress, how):
    """The uncompressed v2 batch ``plain`` with its records section recompressed by
    another peer library (the forms Java clients and librdkafka write), the length,
    attributes and CRC32C (``crc32c`` package) fixed up."""
    body = compress(plain[61:])
    buf = bytearray(plain[:61]) + body
    struct.pack_into(">i", buf, 8, len(buf) - 12)
    attrs = (struct.unpack_from(">h", buf, 21)[0] & ~7) | CODECS[codec]
    struct.pack_into(">h", buf, 21, attrs)
    struct.pack_into(">I", buf, 17, crc32c.crc32c(bytes(buf[21:])))
    buf = bytes(buf)
    expected = _expect(RECORDS_V2, 2)
    _check_with_peer(buf, expected)
    _write(
        name,
        buf,
        {
            "producer": {
                "library": "kafka-python",
                "version": kafka.__version__,
                "builder": "DefaultRecordBatchBuilder (uncompressed), records section recompressed: " + how,
            },
            "params": {"magic": 2, "compression": codec},
            "batches": [{"magic": 2, "compression": codec, "record_count": len(RECORDS_V2)}],
            "records": expected,
        },
    )


def main():
    aio_c = {
        "library": "aiokafka",
        "version": aiokafka.__version__,
        "builder": "DefaultRecordBatchBuilder (Cython, aiokafka.record._crecords)",
    }
    aio_py = {
        "library": "aiokafka",
        "version": aiokafka.__version__,
        "builder": "_DefaultRecordBatchBuilderPy (pure Python)",
    }
    kp = {
        "library": "kafka-python",
        "version": kafka.__version__,
        "builder": "kafka.record.default_records.DefaultRecordBatchBuilder",
    }
    assert aio_default.DefaultRecordBatchBuilder is not aio_default._DefaultRecordBatchBuilderPy
    for codec in CODECS:
        v2_vector(
            f"v2-{codec}-aiokafka-cython",
            aio_c,
            aio_default.DefaultRecordBatchBuilder,
            RECORDS_V2,
            codec=codec,
        )
        v2_vector(
            f"v2-{codec}-kafka-python", kp, kp_default.DefaultRecordBatchBuilder, RECORDS_V2, codec=codec
        )
    v2_vector("v2-none-aiokafka-pure", aio_py, aio_default._DefaultRecordBatchBuilderPy, RECORDS_V2)
    v2_vector(
        "v2-gzip-aiokafka-pure", aio_py, aio_default._DefaultRecordBatchBuilderPy, RECORDS_V2, codec="gzip"
    )
    v2_vector(
        "v2-idempotent-aiokafka-cython",
        aio_c,
        aio_default.DefaultRecordBatchBuilder,
        RECORDS_V2,
        producer_id=1234,
        producer_epoch=5,
        base_sequence=42,
    )
    v2_vector(
        "v2-transactional-kafka-python",
        kp,
        kp_default.DefaultRecordBatchBuilder,
        RECORDS_V2,
        codec="lz4",
        producer_id=99,
        producer_epoch=1,
        base_sequence=2147483645,
        is_transactional=True,
    )
    for magic in (0, 1):
        for codec in ("none", "gzip", "snappy", "lz4"):
            kpl = {
                "library": "kafka-python",
                "version": kafka.__version__,
                "builder": "kafka.record.legacy_records.LegacyRecordBatchBuilder",
            }
            legacy_vector(
                f"v{magic}-{codec}-kafka-python",
                kpl,
                kp_legacy.LegacyRecordBatchBuilder,
                RECORDS_LEGACY,
                magic=magic,
                codec=codec,
            )
            if not (magic == 0 and codec == "lz4"):  # aiokafka refuses lz4 for magic 0
                aiol = {
                    "library": "aiokafka",
                    "version": aiokafka.__version__,
                    "builder": "LegacyRecordBatchBuilder (Cython)",
                }
                legacy_vector(
                    f"v{magic}-{codec}-aiokafka-cython",
                    aiol,
                    aio_legacy.LegacyRecordBatchBuilder,
                    RECORDS_LEGACY,
                    magic=magic,
                    codec=codec,
                )
    aiolp = {
        "library": "aiokafka",
        "version": aiokafka.__version__,
        "builder": "_LegacyRecordBatchBuilderPy (pure Python)",
    }
    legacy_vector(
        "v1-snappy-aiokafka-pure",
        aiolp,
        aio_legacy._LegacyRecordBatchBuilderPy,
        RECORDS_LEGACY,
        magic=1,
        codec="snappy",
    )
    import snappy
    import zstandard

    plain = open(os.path.join(HERE, "v2-none-kafka-python.bin"), "rb").read()
    rewrapped_vector(
        "v2-snappy-raw-librdkafka-style",
        plain,
        "snappy",
        snappy.compress,
        f"one raw snappy block (python-snappy {snappy.__version__}), as librdkafka writes",
    )
    rewrapped_vector(
        "v2-zstd-no-content-size",
        plain,
        "zstd",
        lambda d: zstandard.ZstdCompressor(write_content_size=False).compress(d),
        f"zstd frame without a content size (zstandard {zstandard.__version__}), as "
        "streaming producers write",
    )
    legacy = open(os.path.join(HERE, "v1-gzip-kafka-python.bin"), "rb").read()
    mixed = legacy + plain
    expected = _expect(RECORDS_LEGACY, 1) + _expect(RECORDS_V2, 2)
    _check_with_peer(mixed, expected)
    _write(
        "mixed-v1-then-v2",
        mixed,
        {
            "producer": {
                "library": "kafka-python",
                "version": kafka.__version__,
                "builder": "v1-gzip-kafka-python.bin followed by v2-none-kafka-python.bin",
            },
            "params": {"magics": [1, 2]},
            "batches": [{"magic": 1, "compression": "gzip"}, {"magic": 2, "compression": "none"}],
            "records": expected,
        },
    )
    control_vector("v2-control-commit", "commit", 7)
    control_vector("v2-control-abort", "abort", 0)


if __name__ == "__main__":
    sys.exit(main())
