"""Legacy message sets (magic 0 and 1) written by kafkawire, byte for byte against the
legacy builders of aiokafka (its Cython builder) and kafka-python, and against the golden
vectors those builders made (tests/vectors/records), on both backends.

Uncompressed sets are the same bytes.  A compressed set is one wrapper message: the peers
write it as a producer does (wrapper offset and v1 timestamp 0, for the broker to fill
in); kafkawire writes what a log holds after the broker's validation (the last offset,
and the highest timestamp for create time), so there the inner set, once decompressed,
is compared byte for byte, and the wrapper field by field.
"""

from __future__ import annotations

import glob
import json
import os
import struct

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from kafkawire.protocol import compression, records
from kafkawire.errors import EncodeError

pytestmark = pytest.mark.in_process


def _peer_module(name: str):
    """A peer's module, imported by the tests that compare with it: only they skip
    when the peer is not installed."""
    return pytest.importorskip(name)


def _peer_builders():
    """The legacy builders of aiokafka and kafka-python."""
    return (
        _peer_module("aiokafka.record.legacy_records").LegacyRecordBatchBuilder,
        _peer_module("kafka.record.legacy_records").LegacyRecordBatchBuilder,
    )


VECTORS = os.path.join(os.path.dirname(os.path.dirname(__file__)), "vectors", "records")
CODECS = {"none": 0, "gzip": 1, "snappy": 2, "lz4": 3}

_records = st.lists(
    st.fixed_dictionaries(
        {
            "key": st.none() | st.binary(max_size=40),
            "value": st.none() | st.binary(max_size=300),
            "timestamp": st.integers(-(2**63), 2**63 - 1),
        }
    ),
    max_size=30,
)


def _peer(builder_cls, recs, magic, codec, base_offset=0) -> bytes:
    b = builder_cls(magic=magic, compression_type=CODECS[codec], batch_size=1 << 30)
    for i, r in enumerate(recs):
        b.append(base_offset + i, timestamp=r["timestamp"], key=r["key"], value=r["value"])
    return bytes(b.build())


def _ours(recs, magic, codec, base_offset=0, builder=False) -> bytes:
    if not builder:
        return records.encode_batch(recs, magic=magic, compression=codec, base_offset=base_offset)
    b = records.BatchBuilder(magic=magic, compression=codec, base_offset=base_offset, max_bytes=1 << 30)
    for r in recs:
        assert b.append(r["key"], r["value"], None, r["timestamp"])
    return b.build()


def _message(buf: bytes):
    """(offset, magic, attributes, timestamp, key, value) of the one message in ``buf``."""
    offset, size, _crc, magic, attrs = struct.unpack_from(">qiIbB", buf)
    assert size == len(buf) - 12
    pos, ts = 18, None
    if magic == 1:
        (ts,) = struct.unpack_from(">q", buf, 18)
        pos = 26
    fields = []
    for _ in range(2):
        (n,) = struct.unpack_from(">i", buf, pos)
        pos += 4
        fields.append(None if n < 0 else buf[pos : pos + n])
        pos += max(n, 0)
    assert pos == len(buf)
    return offset, magic, attrs, ts, fields[0], fields[1]


@pytest.mark.parametrize("magic", [0, 1])
@pytest.mark.parametrize("builder", [False, True], ids=["encode_batch", "BatchBuilder"])
def test_uncompressed_sets_are_the_peers_bytes(magic, builder):
    @settings(max_examples=60, deadline=None, suppress_health_check=list(HealthCheck))
    @given(recs=_records, base_offset=st.integers(0, 2**40))
    def run(recs, base_offset):
        ours = _ours(recs, magic, "none", base_offset, builder)
        for peer_cls in _peer_builders():
            assert ours == _peer(peer_cls, recs, magic, "none", base_offset)

    run()


@pytest.mark.parametrize("magic,codec", [(0, "gzip"), (0, "snappy"), (1, "gzip"), (1, "snappy"), (1, "lz4")])
@pytest.mark.parametrize("builder", [False, True], ids=["encode_batch", "BatchBuilder"])
def test_compressed_sets_hold_the_peers_inner_bytes(magic, codec, builder):
    if not {
        "gzip": _peer_module("kafka.codec").has_gzip,
        "snappy": _peer_module("kafka.codec").has_snappy,
        "lz4": _peer_module("kafka.codec").has_lz4,
    }[codec]():
        pytest.skip(f"kafka-python has no {codec} codec here")

    @settings(max_examples=25, deadline=None, suppress_health_check=list(HealthCheck))
    @given(recs=_records.filter(bool))
    def run(recs):
        ours = _message(_ours(recs, magic, codec, 0, builder))
        for peer_cls in _peer_builders():
            theirs = _message(_peer(peer_cls, recs, magic, codec))
            assert ours[1:3] == theirs[1:3] == (magic, CODECS[codec])
            assert ours[4] is None and theirs[4] is None
            inner = compression.decompress(CODECS[codec], ours[5], magic=magic)
            assert inner == compression.decompress(CODECS[codec], theirs[5], magic=magic)
        assert ours[0] == len(recs) - 1
        assert ours[3] == (max(r["timestamp"] for r in recs) if magic == 1 else None)

    run()


def _legacy_vectors():
    out = []
    for path in sorted(glob.glob(os.path.join(VECTORS, "v[01]-none-*.json"))):
        out.append(path)
    return out


@pytest.mark.parametrize("path", _legacy_vectors(), ids=lambda p: os.path.basename(p)[:-5])
def test_uncompressed_golden_vectors_are_reencoded_byte_for_byte(path):
    with open(path) as f:
        meta = json.load(f)
    with open(os.path.join(VECTORS, meta["file"]), "rb") as f:
        data = f.read()
    recs = [
        {
            "offset": r["offset"],
            "timestamp": r["timestamp"],
            "key": None if r["key"] is None else bytes.fromhex(r["key"]),
            "value": None if r["value"] is None else bytes.fromhex(r["value"]),
        }
        for r in meta["records"]
    ]
    magic = meta["params"]["magic"]
    assert records.encode_batch(recs, magic=magic, base_offset=meta["params"]["base_offset"]) == data


@pytest.mark.parametrize("magic", [0, 1])
def test_what_a_legacy_message_cannot_hold_is_refused(magic):
    with pytest.raises(EncodeError):
        records.encode_batch([{"value": b"v", "headers": [("h", b"1")]}], magic=magic)
    with pytest.raises(EncodeError):
        records.encode_batch([{"value": b"v", "timestamp": 1}], magic=magic, compression="zstd")
    with pytest.raises(EncodeError):
        records.encode_batch([{"value": b"v", "timestamp": 1}], magic=magic, producer_id=5)
    with pytest.raises(EncodeError):
        records.encode_batch([{"value": b"v", "timestamp": 1, "offset": 2**63}], magic=magic)
    b = records.BatchBuilder(magic=magic)
    with pytest.raises(EncodeError):
        b.append(b"k", b"v", [("h", b"1")], 1)
    assert b.record_count == 0
    assert b.append(b"k", b"v", None, 1) and b.build() == records.encode_batch(
        [{"key": b"k", "value": b"v", "timestamp": 1}], magic=magic
    )


def test_a_v0_message_drops_its_timestamp():
    assert records.encode_batch([{"value": b"v", "timestamp": 2**62}], magic=0) == records.encode_batch(
        [{"value": b"v", "timestamp": 5}], magic=0
    )
    for magic in (0, 1):
        with pytest.raises(EncodeError, match="does not fit in int64"):
            records.encode_batch([{"value": b"v", "timestamp": 2**70}], magic=magic)
        with pytest.raises(EncodeError, match="does not fit in int64"):
            records.BatchBuilder(magic=magic).append(None, b"v", None, 2**70)


@pytest.mark.parametrize("magic,codec", [(0, "none"), (1, "none"), (1, "gzip")])
def test_builder_size_counts_what_it_holds(magic, codec):
    b = records.BatchBuilder(magic=magic, compression=codec, max_bytes=200)
    added = 0
    while b.append(b"key", b"x" * 50, None, 10 + added):
        added += 1
    overhead = 12 + (22 if magic else 14)
    assert b.record_count == added == (200 - (overhead if codec != "none" else 0)) // (overhead + 53)
    assert b.size_in_bytes == (overhead if codec != "none" else 0) + added * (overhead + 53)
