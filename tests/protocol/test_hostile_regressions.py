"""Regression tests for bugs the hostile-input fuzzing found, one per bug.

Each test names the input that failed and checks the fixed behaviour on both backends
(through the shared fuzz target, which compares them) and directly.
"""

from __future__ import annotations

import os
import sys

import pytest

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
if ROOT not in sys.path:
    sys.path.append(ROOT)  # after site-packages: the installed kafkawire wins

from fuzz import targets as T  # noqa: E402

pytestmark = pytest.mark.in_process


def test_legacy_attributes_with_the_high_bit_read_the_same_on_both_backends(impl):
    # Found by the records target: a magic 1 message with attributes 0x80 read as 128
    # in Cython and -128 in pure Python.  Both now read the byte unsigned.
    msg = T.legacy_message(b"value", magic=1, attributes=0x80, timestamp=5)
    (batch,) = list(impl("records").iter_batches(msg))
    assert batch.attributes == 0x80
    assert batch.compression == "none"
    assert [r.value for r in batch.records()] == [b"value"]
    T.records_target(b"\x01" + msg)


def _zigzag(v):
    u = (v << 1) ^ (v >> 63)
    out = bytearray()
    while u > 0x7F:
        out.append((u & 0x7F) | 0x80)
        u >>= 7
    out.append(u)
    return bytes(out)


def _record(offset_delta, key=b"k", value=b"v"):
    body = (
        b"\x00"
        + _zigzag(0)
        + _zigzag(offset_delta)
        + _zigzag(len(key))
        + key
        + _zigzag(len(value))
        + value
        + _zigzag(0)
    )
    return _zigzag(len(body)) + body


def test_arrow_sequence_of_a_negative_offset_delta_matches_sequence_of(impl):
    # Found by the records target: a record whose offset delta is negative made the
    # Cython Arrow path compute INT32_MAX - delta in int32 (signed overflow: undefined
    # behaviour, in practice -2147483647) where pure Python and sequence_of() give
    # base_sequence + delta.  The Cython path now computes in int64.
    pa = pytest.importorskip("pyarrow")  # noqa: F841
    section = _record(0) + _record(-2) + _record(2)
    buf = T.v2_batch(
        section,
        attributes=0,
        count=3,
        last_offset_delta=2,
        base_sequence=3,
        producer_id=1,
        producer_epoch=0,
        base_offset=10,
    )
    R = impl("records")
    table = R.to_arrow(buf)
    assert table.column("sequence").to_pylist() == [3, 1, 5]
    (batch,) = list(R.iter_batches(buf))
    assert [batch.sequence_of(r.offset - batch.base_offset) for r in batch.records()] == [3, 1, 5]
    T.records_target(b"\x09" + buf)


def test_arrow_sequence_wraps_past_int32_max_like_kafka(impl):
    pytest.importorskip("pyarrow")
    section = _record(0) + _record(1) + _record(2)
    buf = T.v2_batch(
        section,
        attributes=0,
        count=3,
        last_offset_delta=2,
        base_sequence=0x7FFFFFFF,
        producer_id=1,
        producer_epoch=0,
    )
    assert impl("records").to_arrow(buf).column("sequence").to_pylist() == [0x7FFFFFFF, 0, 1]


def test_a_corrupt_lz4_block_under_a_small_cap_is_a_decompression_error():
    # Found by the hostile suite: with max_size below the frame's block size, a corrupt
    # lz4 block went through cramjam's decompress_block unguarded and raised
    # cramjam.DecompressionError instead of kafkawire's.
    import struct

    from kafkawire.protocol import compression
    from kafkawire.errors import DecompressionError

    head = b"\x04\x22\x4d\x18" + bytes([0x60, 0x40])  # independent blocks of 64 KiB
    head += bytes([(compression.xxh32(head[4:6]) >> 8) & 0xFF])
    garbage = b"\xff" * 40
    frame = head + struct.pack("<I", len(garbage)) + garbage + b"\x00\x00\x00\x00"
    for cap in (1 << 10, 1 << 20):
        with pytest.raises(DecompressionError, match="lz4"):
            compression.decompress(compression.LZ4, frame, max_size=cap)
    T.compression_target(bytes([0x80 | 3 | (2 << 3), 1]) + frame)


def test_a_segment_shorter_than_the_range_asked_for_is_a_segment_error(tmp_path, backend):
    # Found reading the segment code for the segment target: scan_headers() with an end
    # beyond the file (a segment truncated after its size was taken, as a Spark split
    # can see) read fewer than 17 header bytes and raised struct.error.
    from kafkawire.log import scan, segments

    path = tmp_path / segments.segment_name(0)
    path.write_bytes(b"\x00" * 10)
    with pytest.raises(segments.SegmentError, match="truncated log entry header"):
        list(scan.scan_headers(str(path), 0, 100))
    with pytest.raises(segments.SegmentError, match="10 bytes left"):
        scan.parse_header(b"\x00" * 10, 0, available=100)


def test_offsets_past_int64_wrap_alike_on_both_backends(impl):
    # Found by atheris (records target, crash-a3919913): base offset -2**63 + 9 with a
    # negative lastOffsetDelta made last_offset -9223372038222223351 in pure Python (no
    # int64 at all) and a wrapped value in Cython (C signed overflow: undefined
    # behaviour).  Both now wrap like Java's long; record offsets and timestamps too.
    R = impl("records")
    base = -(1 << 63) + 9
    section = _record(-20)
    buf = T.v2_batch(
        section,
        attributes=0,
        count=1,
        base_offset=base,
        last_offset_delta=-1367447552,
        base_timestamp=(1 << 63) - 5,
    )
    (batch,) = list(R.iter_batches(buf))
    assert batch.last_offset == base - 1367447552 + (1 << 64)
    assert batch.next_offset == batch.last_offset + 1
    (rec,) = batch.records()
    assert rec.offset == base - 20 + (1 << 64)
    assert rec.timestamp == (1 << 63) - 5
    # A legacy gzip wrapper whose offset minus its last inner offset overflows int64.
    from kafkawire.protocol import compression

    inner = T.legacy_message(b"v", magic=1, attributes=0, offset=-(1 << 63))
    wrapper = T.legacy_message(
        compression.compress("gzip", inner, magic=1), magic=1, attributes=1, offset=(1 << 63) - 1
    )
    (legacy,) = list(R.iter_batches(wrapper))
    # the wrapped shift is negative (-1): the inner offsets stand, as for a producer wrapper
    assert [r.offset for r in legacy.records()] == [-(1 << 63)]
    T.records_target(b"\x0b" + buf)
    T.records_target(b"\x0b" + wrapper)


def test_an_lz4_frame_of_tiny_blocks_does_not_claim_the_whole_cap():
    # Found by the hostile memory tests' review of the lz4 block reader: its output
    # buffer was sized from the block headers alone (each compressed block counted as
    # the frame's block size, up to 4 MiB), so 511 bytes of one-byte blocks allocated
    # and zero-filled the whole 256 MiB default cap (200 ms under the GIL) per batch.
    import struct
    import tracemalloc

    from kafkawire.protocol import compression

    head = b"\x04\x22\x4d\x18" + bytes([0x60, 0x70])  # independent blocks of 4 MiB
    head += bytes([(compression.xxh32(head[4:6]) >> 8) & 0xFF])
    frame = head + (struct.pack("<I", 1) + b"\x00") * 100 + b"\x00" * 4
    tracemalloc.start()
    try:
        try:
            compression.decompress(compression.LZ4, frame)
        except compression.DecompressionError:
            pass
        peak = tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()
    assert peak < 1 << 20, peak
    big = bytes(range(256)) * 4096 + b"z" * (3 << 20)  # real data still decodes
    packed = compression.compress("lz4", big)
    assert bytes(compression.decompress(compression.LZ4, packed)) == big


def test_a_snappy_length_header_beyond_what_the_block_can_hold_is_not_allocated():
    # Found with the lz4 one: a raw snappy block's varint header was believed up to the
    # cap, so 8 bytes declaring 192 MiB allocated and zero-filled 192 MiB (150 ms under
    # the GIL) before failing; xerial blocks alike.
    import struct
    import tracemalloc

    from kafkawire.protocol import compression

    raw = b"\x80\x80\x80\x60" + b"\x00" * 4
    xerial = (
        b"\x82SNAPPY\x00" + struct.pack(">ii", 1, 1) + (struct.pack(">I", 5) + b"\xfe\xff\xff\x07\x00") * 2
    )
    for data in (raw, xerial):
        tracemalloc.start()
        try:
            with pytest.raises(compression.DecompressionError, match="snappy"):
                compression.decompress(compression.SNAPPY, data)
            peak = tracemalloc.get_traced_memory()[1]
        finally:
            tracemalloc.stop()
        assert peak < 1 << 20, peak
    for blob in (b"\x00" * (8 << 20), bytes(range(256)) * 5000, b""):  # real data decodes
        packed = compression.compress("snappy", blob)
        assert bytes(compression.decompress(compression.SNAPPY, packed)) == blob
        import cramjam

        assert (
            bytes(compression.decompress(compression.SNAPPY, bytes(cramjam.snappy.compress_raw(blob))))
            == blob
        )
