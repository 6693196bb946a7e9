"""Kafka primitive types: edges, round trips, malformed input, and a peer's varints."""

import struct
import uuid

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import kafkawire
from kafkawire.protocol import primitives as p
from kafkawire.errors import DecodeError, EncodeError, InvalidVarintError, KafkaWireError, TruncatedError

pytestmark = pytest.mark.in_process

INT32_EDGES = [0, 1, -1, 63, -64, 64, -65, 2**31 - 1, -(2**31)]
INT64_EDGES = INT32_EDGES + [2**31, -(2**31) - 1, 2**63 - 1, -(2**63)]


def test_active_backend_is_the_one_under_test(backend):
    assert kafkawire.BACKEND == backend
    assert p.decode_varint.__module__.startswith(
        "kafkawire._fast" if backend == "cython" else "kafkawire._pure"
    )


def test_examples_from_the_spec():
    assert p.decode_unsigned_varint(b"\x96\x01", 0) == (150, 2)
    assert p.encode_varint(-1) == b"\x01"
    assert p.encode_varint(1) == b"\x02"
    assert len(p.encode_varlong(-(2**63))) == 10
    assert p.encode_unsigned_varint(0) == b"\x00"
    assert p.encode_unsigned_varint(2**32 - 1) == b"\xff\xff\xff\xff\x0f"


@pytest.mark.parametrize("value", INT32_EDGES)
def test_varint_edges_round_trip(value):
    raw = p.encode_varint(value)
    assert p.decode_varint(raw, 0) == (value, len(raw))
    assert p.size_of_varint(value) == len(raw)
    # Offsets into a larger buffer work the same.
    assert p.decode_varint(b"\xaa" + raw + b"\xbb", 1) == (value, len(raw) + 1)


@pytest.mark.parametrize("value", INT64_EDGES)
def test_varlong_edges_round_trip(value):
    raw = p.encode_varlong(value)
    assert p.decode_varlong(raw, 0) == (value, len(raw))
    assert p.size_of_varlong(value) == len(raw)


@given(st.integers(-(2**31), 2**31 - 1))
@settings(max_examples=300)
def test_varint_round_trips(value):
    raw = p.encode_varint(value)
    assert p.decode_varint(bytearray(raw), 0) == (value, len(raw))


@given(st.integers(-(2**63), 2**63 - 1))
@settings(max_examples=300)
def test_varlong_round_trips(value):
    raw = p.encode_varlong(value)
    assert p.decode_varlong(memoryview(raw), 0) == (value, len(raw))


@given(st.integers(0, 2**32 - 1))
@settings(max_examples=300)
def test_unsigned_varint_round_trips(value):
    raw = p.encode_unsigned_varint(value)
    assert p.decode_unsigned_varint(raw, 0) == (value, len(raw))
    assert p.size_of_unsigned_varint(value) == len(raw)


@given(st.integers(-(2**63), 2**63 - 1))
@settings(max_examples=300)
def test_varlong_matches_aiokafka(value):
    util = pytest.importorskip("aiokafka.record.util")
    out = bytearray()
    util.encode_varint_py(value, out.append)
    assert p.encode_varlong(value) == bytes(out)
    assert p.decode_varlong(bytes(out), 0) == util.decode_varint_py(bytearray(out), 0)


@pytest.mark.parametrize(
    "decoder, raw",
    [
        ("decode_unsigned_varint", b"\x80\x80\x80\x80\x80\x01"),  # six bytes
        ("decode_unsigned_varint", b"\xff\xff\xff\xff\x1f"),  # 33 bits
        ("decode_varint", b"\x80\x80\x80\x80\x80\x00"),
        ("decode_varlong", b"\x80" * 10 + b"\x00"),  # eleven bytes
        ("decode_varlong", b"\xff" * 9 + b"\x02"),  # 65 bits
    ],
)
def test_overlong_varints_raise(decoder, raw):
    with pytest.raises(InvalidVarintError):
        getattr(p, decoder)(raw, 0)


@pytest.mark.parametrize("decoder", ["decode_unsigned_varint", "decode_varint", "decode_varlong"])
@pytest.mark.parametrize("raw", [b"", b"\x80", b"\xff\xff", b"\x96"])
def test_truncated_varints_raise(decoder, raw):
    with pytest.raises(TruncatedError):
        getattr(p, decoder)(raw, 0)


FIXED = [
    ("int8", ">b", [-128, 0, 127]),
    ("int16", ">h", [-32768, 0, 32767]),
    ("uint16", ">H", [0, 65535]),
    ("int32", ">i", [-(2**31), 0, 2**31 - 1]),
    ("uint32", ">I", [0, 2**32 - 1]),
    ("int64", ">q", [-(2**63), 0, 2**63 - 1]),
    ("float64", ">d", [0.0, -1.5, 1e300, float("inf")]),
]


@pytest.mark.parametrize("name, fmt, values", FIXED)
def test_fixed_width_types_match_struct(name, fmt, values):
    enc, dec = getattr(p, f"encode_{name}"), getattr(p, f"decode_{name}")
    for value in values:
        raw = enc(value)
        assert raw == struct.pack(fmt, value)
        assert dec(b"\x00" + raw, 1) == (value, 1 + len(raw))
        with pytest.raises(TruncatedError):
            dec(raw[:-1], 0)


@pytest.mark.parametrize(
    "name, bad",
    [
        ("int8", 128),
        ("int16", -32769),
        ("uint16", -1),
        ("int32", 2**31),
        ("uint32", 2**32),
        ("int64", 2**63),
        ("int32", "1"),
        ("int64", 1.5),
    ],
)
def test_out_of_range_values_raise_encode_error(name, bad):
    with pytest.raises(EncodeError):
        getattr(p, f"encode_{name}")(bad)


def test_varint_encoders_reject_out_of_range():
    for fn, bad in [
        (p.encode_varint, 2**31),
        (p.encode_varlong, -(2**63) - 1),
        (p.encode_unsigned_varint, -1),
        (p.encode_unsigned_varint, 2**32),
    ]:
        with pytest.raises(EncodeError):
            fn(bad)


def test_bool_and_uuid():
    assert p.decode_bool(b"\x02", 0) == (True, 1)
    assert p.encode_bool(False) == b"\x00"
    u = uuid.uuid4()
    assert p.decode_uuid(p.encode_uuid(u), 0) == (u, 16)
    assert p.encode_uuid(None) == bytes(16)
    with pytest.raises(TruncatedError):
        p.decode_uuid(bytes(15), 0)


STRINGS = ["", "a", "kafkawire", "ünïcödé ✓", "x" * 300]


@pytest.mark.parametrize("value", STRINGS)
def test_strings_classic_and_compact(value):
    raw = value.encode()
    assert p.encode_string(value) == struct.pack(">h", len(raw)) + raw
    assert p.decode_string(p.encode_string(value), 0) == (value, 2 + len(raw))
    compact = p.encode_compact_string(value)
    assert compact == p.encode_unsigned_varint(len(raw) + 1) + raw
    assert p.decode_compact_string(compact, 0) == (value, len(compact))


def test_null_forms():
    assert p.encode_nullable_string(None) == b"\xff\xff"
    assert p.decode_nullable_string(b"\xff\xff", 0) == (None, 2)
    assert p.encode_compact_nullable_string(None) == b"\x00"
    assert p.decode_compact_nullable_string(b"\x00", 0) == (None, 1)
    assert p.encode_nullable_bytes(None) == b"\xff\xff\xff\xff"
    assert p.decode_nullable_bytes(b"\xff\xff\xff\xff", 0) == (None, 4)
    assert p.decode_compact_nullable_bytes(b"\x00", 0) == (None, 1)
    assert p.encode_array_length(None) == b"\xff\xff\xff\xff"
    assert p.decode_array_length(b"\xff\xff\xff\xff", 0) == (None, 4)
    assert p.encode_compact_array_length(None) == b"\x00"
    assert p.decode_compact_array_length(b"\x04", 0) == (3, 1)
    for decoder, raw in [
        (p.decode_string, b"\xff\xff"),
        (p.decode_compact_string, b"\x00"),
        (p.decode_bytes, b"\xff\xff\xff\xff"),
        (p.decode_compact_bytes, b"\x00"),
    ]:
        with pytest.raises(DecodeError):
            decoder(raw, 0)
    with pytest.raises(EncodeError):
        p.encode_string(None)


@given(st.one_of(st.none(), st.binary(max_size=300)))
@settings(max_examples=200)
def test_bytes_round_trip(value):
    for enc, dec in [
        (p.encode_nullable_bytes, p.decode_nullable_bytes),
        (p.encode_compact_nullable_bytes, p.decode_compact_nullable_bytes),
    ]:
        raw = enc(value)
        assert dec(raw, 0) == (value, len(raw))


@given(st.text(max_size=100))
@settings(max_examples=200)
def test_text_round_trip(value):
    raw = p.encode_compact_nullable_string(value)
    assert p.decode_compact_nullable_string(bytearray(raw), 0) == (value, len(raw))


def test_lengths_beyond_the_buffer_raise_before_reading():
    with pytest.raises(TruncatedError):
        p.decode_bytes(b"\x7f\xff\xff\xff" + b"abc", 0)
    with pytest.raises(TruncatedError):
        p.decode_compact_string(b"\xff\xff\xff\xff\x0f" + b"abc", 0)
    with pytest.raises(DecodeError):
        p.decode_string(b"\x80\x00", 0)  # negative length other than -1
    with pytest.raises(DecodeError):
        p.decode_array_length(b"\xff\xff\xff\xfe", 0)


def test_invalid_utf8_raises_decode_error():
    with pytest.raises(DecodeError):
        p.decode_string(b"\x00\x02\xff\xfe", 0)


def test_offsets_outside_the_buffer_raise():
    for bad in (-1, 5):
        with pytest.raises(TruncatedError):
            p.decode_int8(b"\x00\x01", bad)


def test_a_primitive_decode_error_is_a_kafkawire_error_and_a_value_error():
    # bad bytes are ValueErrors (tests/protocol/test_errors.py says which errors are not)
    with pytest.raises(KafkaWireError) as caught:
        p.decode_int32(b"\x00", 0)
    assert isinstance(caught.value, ValueError)


def test_wrong_input_types():
    with pytest.raises(TypeError):
        p.decode_int32("abcd", 0)
    with pytest.raises(EncodeError):
        p.encode_bytes("text")
    with pytest.raises(EncodeError):
        p.encode_string(b"bytes")
