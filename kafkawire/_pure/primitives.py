"""Kafka's primitive types, in pure Python.

Encoders take a value and return bytes; decoders take ``(buf, offset)`` (``buf`` any
bytes-like object) and return ``(value, new_offset)``.  Every length is checked against
what remains of the buffer before anything is read or allocated.
"""

from __future__ import annotations

import struct
import uuid as _uuid
from typing import Any, Optional, Protocol, Tuple, Union

from kafkawire.errors import DecodeError, EncodeError, InvalidVarintError, TruncatedError
from kafkawire.protocol.schema.plan import INT32_MAX, INT32_MIN

_BytesLike = Union[bytes, bytearray, memoryview]

_I8 = struct.Struct(">b")
_I16 = struct.Struct(">h")
_U16 = struct.Struct(">H")
_I32 = struct.Struct(">i")
_U32 = struct.Struct(">I")
_I64 = struct.Struct(">q")
_F64 = struct.Struct(">d")

ZERO_UUID = _uuid.UUID(int=0)


def _truncated(what: str, offset: int, need: int, size: int) -> TruncatedError:
    return TruncatedError(
        f"truncated {what} at byte {offset}: needs {need} bytes, {max(size - offset, 0)} remain"
    )


def _check_offset(buf: _BytesLike, offset: int) -> None:
    if offset < 0 or offset > len(buf):
        raise TruncatedError(f"offset {offset} is outside a buffer of {len(buf)} bytes")


def _why_not(name: str, value: object) -> str:
    """Why a fixed-width value does not pack, in the Cython backend's words."""
    if name == "float64":
        return "not a number"
    return "out of range" if isinstance(value, int) else "not an integer"


class _Encoder(Protocol):
    def __call__(self, value: Any) -> bytes: ...


class _Decoder(Protocol):
    def __call__(self, buf: _BytesLike, offset: int = 0) -> Tuple[Any, int]: ...


def _fixed(name: str, st: struct.Struct) -> Tuple[_Encoder, _Decoder]:
    size = st.size

    def encode(value: Any) -> bytes:
        try:
            return st.pack(value)
        except (struct.error, TypeError, OverflowError):
            raise EncodeError(f"{name}: cannot encode {value!r}: {_why_not(name, value)}") from None

    def decode(buf: _BytesLike, offset: int = 0) -> Tuple[Any, int]:
        _check_offset(buf, offset)
        if len(buf) - offset < size:
            raise _truncated(name, offset, size, len(buf))
        return st.unpack_from(buf, offset)[0], offset + size

    encode.__name__ = f"encode_{name}"
    decode.__name__ = f"decode_{name}"
    encode.__doc__ = f"The {size}-byte big-endian {name} encoding of ``value``."
    decode.__doc__ = f"Read a {name} at ``offset``; returns ``(value, offset + {size})``."
    return encode, decode


encode_int8, decode_int8 = _fixed("int8", _I8)
encode_int16, decode_int16 = _fixed("int16", _I16)
encode_uint16, decode_uint16 = _fixed("uint16", _U16)
encode_int32, decode_int32 = _fixed("int32", _I32)
encode_uint32, decode_uint32 = _fixed("uint32", _U32)
encode_int64, decode_int64 = _fixed("int64", _I64)
encode_float64, decode_float64 = _fixed("float64", _F64)


def encode_bool(value: bool) -> bytes:
    """One byte: 1 for true, 0 for false."""
    return b"\x01" if value else b"\x00"


def decode_bool(buf: _BytesLike, offset: int = 0) -> Tuple[bool, int]:
    """Read a boolean; any non-zero byte is true, as in Kafka."""
    _check_offset(buf, offset)
    if offset >= len(buf):
        raise _truncated("bool", offset, 1, len(buf))
    return buf[offset] != 0, offset + 1


def encode_uuid(value: Optional[_uuid.UUID]) -> bytes:
    """The 16 bytes of a UUID; None writes the all-zero UUID."""
    if value is None:
        return bytes(16)
    if not isinstance(value, _uuid.UUID):
        raise EncodeError(f"uuid: expected uuid.UUID, got {type(value).__name__}")
    return value.bytes


def decode_uuid(buf: _BytesLike, offset: int = 0) -> Tuple[_uuid.UUID, int]:
    """Read a 16-byte UUID."""
    _check_offset(buf, offset)
    if len(buf) - offset < 16:
        raise _truncated("uuid", offset, 16, len(buf))
    return _uuid.UUID(bytes=bytes(buf[offset : offset + 16])), offset + 16


# -- varints -----------------------------------------------------------------


def _encode_uvarint(value: int) -> bytes:
    out = bytearray()
    while value > 0x7F:
        out.append((value & 0x7F) | 0x80)
        value >>= 7
    out.append(value)
    return bytes(out)


def read_uvarint(
    buf: _BytesLike, pos: int, end: int, max_bytes: int, bits: int, what: str
) -> Tuple[int, int]:
    """The LEB128 value at ``pos`` of at most ``max_bytes`` bytes, none at or past
    ``end``, that fits in ``bits`` bits; returns ``(value, position after it)``."""
    value = 0
    shift = 0
    start = pos
    while True:
        if pos >= end:
            raise TruncatedError(f"truncated {what} at byte {start}")
        b = buf[pos]
        pos += 1
        value |= (b & 0x7F) << shift
        if not b & 0x80:
            break
        shift += 7
        if pos - start >= max_bytes:
            raise InvalidVarintError(f"{what} at byte {start} is longer than {max_bytes} bytes")
    if value >> bits:
        raise InvalidVarintError(f"{what} at byte {start} does not fit in {bits} bits")
    return value, pos


def _decode_uvarint(buf: _BytesLike, offset: int, max_bytes: int, bits: int, what: str) -> Tuple[int, int]:
    _check_offset(buf, offset)
    return read_uvarint(buf, offset, len(buf), max_bytes, bits, what)


def encode_unsigned_varint(value: int) -> bytes:
    """Kafka's unsigned varint (LEB128) of a value in [0, 2**32)."""
    if not isinstance(value, int) or value < 0 or value > 0xFFFFFFFF:
        raise EncodeError(f"unsigned varint: {value!r} is not in [0, 2**32)")
    return _encode_uvarint(value)


def decode_unsigned_varint(buf: _BytesLike, offset: int = 0) -> Tuple[int, int]:
    """Read an unsigned varint of at most 5 bytes whose value fits in 32 bits."""
    return _decode_uvarint(buf, offset, 5, 32, "unsigned varint")


def encode_varint(value: int) -> bytes:
    """Kafka's varint: a zigzag-encoded signed 32-bit value."""
    if not isinstance(value, int) or not INT32_MIN <= value <= INT32_MAX:
        raise EncodeError(f"varint: {value!r} is not a signed 32-bit integer")
    return _encode_uvarint(((value << 1) ^ (value >> 31)) & 0xFFFFFFFF)


def decode_varint(buf: _BytesLike, offset: int = 0) -> Tuple[int, int]:
    """Read a zigzag varint (signed 32-bit)."""
    raw, pos = _decode_uvarint(buf, offset, 5, 32, "varint")
    return (raw >> 1) ^ -(raw & 1), pos


def encode_varlong(value: int) -> bytes:
    """Kafka's varlong: a zigzag-encoded signed 64-bit value (up to 10 bytes)."""
    if not isinstance(value, int) or not -(2**63) <= value < 2**63:
        raise EncodeError(f"varlong: {value!r} is not a signed 64-bit integer")
    return _encode_uvarint(((value << 1) ^ (value >> 63)) & 0xFFFFFFFFFFFFFFFF)


def decode_varlong(buf: _BytesLike, offset: int = 0) -> Tuple[int, int]:
    """Read a zigzag varlong (signed 64-bit)."""
    raw, pos = _decode_uvarint(buf, offset, 10, 64, "varlong")
    return (raw >> 1) ^ -(raw & 1), pos


def size_of_unsigned_varint(value: int) -> int:
    """How many bytes the unsigned varint of ``value`` takes."""
    n = 1
    while value > 0x7F:
        value >>= 7
        n += 1
    return n


def size_of_varint(value: int) -> int:
    """How many bytes the zigzag varint of a signed 32-bit ``value`` takes."""
    return size_of_unsigned_varint(((value << 1) ^ (value >> 31)) & 0xFFFFFFFF)


def size_of_varlong(value: int) -> int:
    """How many bytes the zigzag varlong of a signed 64-bit ``value`` takes."""
    return size_of_unsigned_varint(((value << 1) ^ (value >> 63)) & 0xFFFFFFFFFFFFFFFF)


# -- lengths -----------------------------------------------------------------


def encode_array_length(count: Optional[int]) -> bytes:
    """An int32 array length; None (a null array) is -1."""
    return encode_int32(-1 if count is None else count)


def decode_array_length(buf: _BytesLike, offset: int = 0) -> Tuple[Optional[int], int]:
    """An int32 array length; -1 is None (null).  Other negatives raise."""
    n, pos = decode_int32(buf, offset)
    if n == -1:
        return None, pos
    if n < 0:
        raise InvalidVarintError(f"array length {n} at byte {offset} is negative")
    return n, pos


def encode_compact_array_length(count: Optional[int]) -> bytes:
    """A compact array length: ``count + 1`` as unsigned varint; None (null) is 0."""
    return encode_unsigned_varint(0 if count is None else count + 1)


def decode_compact_array_length(buf: _BytesLike, offset: int = 0) -> Tuple[Optional[int], int]:
    """A compact array length: 0 is None (null), else the varint minus one."""
    n, pos = decode_unsigned_varint(buf, offset)
    return (None if n == 0 else n - 1), pos


# -- bytes and strings -------------------------------------------------------


def _take(buf: _BytesLike, offset: int, length: int, what: str) -> bytes:
    if length > len(buf) - offset:
        raise _truncated(what, offset, length, len(buf))
    return bytes(buf[offset : offset + length])


def _utf8(value: str, what: str) -> bytes:
    if not isinstance(value, str):
        raise EncodeError(f"{what}: expected str, got {type(value).__name__}")
    try:
        return value.encode("utf-8")
    except UnicodeEncodeError as exc:
        raise EncodeError(f"{what}: not encodable as UTF-8: {exc}") from None


def _text(raw: bytes, offset: int, what: str) -> str:
    try:
        return raw.decode("utf-8")
    except UnicodeDecodeError as exc:
        raise DecodeError(f"{what} at byte {offset} is not valid UTF-8: {exc}") from None


def _as_bytes(value: object, what: str) -> bytes:
    if isinstance(value, (bytes, bytearray, memoryview)):
        return bytes(value)
    raise EncodeError(f"{what}: expected a bytes-like object, got {type(value).__name__}")


def encode_bytes(value: _BytesLike) -> bytes:
    """Bytes with an int32 length."""
    if value is None:
        raise EncodeError("bytes: None is not allowed here (use encode_nullable_bytes)")
    raw = _as_bytes(value, "bytes")
    return encode_int32(len(raw)) + raw


def encode_nullable_bytes(value: Optional[_BytesLike]) -> bytes:
    """Bytes with an int32 length; None is length -1."""
    return b"\xff\xff\xff\xff" if value is None else encode_bytes(value)


def decode_bytes(buf: _BytesLike, offset: int = 0) -> Tuple[bytes, int]:
    """Bytes with an int32 length; a null (-1) raises (use decode_nullable_bytes)."""
    value, pos = decode_nullable_bytes(buf, offset)
    if value is None:
        raise DecodeError(f"null bytes at byte {offset} where null is not allowed")
    return value, pos


def decode_nullable_bytes(buf: _BytesLike, offset: int = 0) -> Tuple[Optional[bytes], int]:
    """Bytes with an int32 length; -1 is None."""
    n, pos = decode_int32(buf, offset)
    if n < 0:
        if n == -1:
            return None, pos
        raise InvalidVarintError(f"bytes length {n} at byte {offset} is negative")
    return _take(buf, pos, n, "bytes"), pos + n


def encode_compact_bytes(value: _BytesLike) -> bytes:
    """Bytes with a compact length (``len + 1`` as unsigned varint)."""
    if value is None:
        raise EncodeError("compact bytes: None is not allowed here")
    raw = _as_bytes(value, "compact bytes")
    return encode_unsigned_varint(len(raw) + 1) + raw


def encode_compact_nullable_bytes(value: Optional[_BytesLike]) -> bytes:
    """Bytes with a compact length; None is length 0."""
    return b"\x00" if value is None else encode_compact_bytes(value)


def decode_compact_bytes(buf: _BytesLike, offset: int = 0) -> Tuple[bytes, int]:
    """Bytes with a compact length; a null raises."""
    value, pos = decode_compact_nullable_bytes(buf, offset)
    if value is None:
        raise DecodeError(f"null compact bytes at byte {offset} where null is not allowed")
    return value, pos


def decode_compact_nullable_bytes(buf: _BytesLike, offset: int = 0) -> Tuple[Optional[bytes], int]:
    """Bytes with a compact length; 0 is None."""
    n, pos = decode_unsigned_varint(buf, offset)
    if n == 0:
        return None, pos
    return _take(buf, pos, n - 1, "compact bytes"), pos + n - 1


def encode_string(value: str) -> bytes:
    """A UTF-8 string with an int16 length."""
    if value is None:
        raise EncodeError("string: None is not allowed here (use encode_nullable_string)")
    raw = _utf8(value, "string")
    if len(raw) > 0x7FFF:
        raise EncodeError(f"string: {len(raw)} bytes is longer than an int16 length allows")
    return encode_int16(len(raw)) + raw


def encode_nullable_string(value: Optional[str]) -> bytes:
    """A UTF-8 string with an int16 length; None is length -1."""
    return b"\xff\xff" if value is None else encode_string(value)


def decode_string(buf: _BytesLike, offset: int = 0) -> Tuple[str, int]:
    """A UTF-8 string with an int16 length; a null raises."""
    value, pos = decode_nullable_string(buf, offset)
    if value is None:
        raise DecodeError(f"null string at byte {offset} where null is not allowed")
    return value, pos


def decode_nullable_string(buf: _BytesLike, offset: int = 0) -> Tuple[Optional[str], int]:
    """A UTF-8 string with an int16 length; -1 is None."""
    n, pos = decode_int16(buf, offset)
    if n < 0:
        if n == -1:
            return None, pos
        raise InvalidVarintError(f"string length {n} at byte {offset} is negative")
    return _text(_take(buf, pos, n, "string"), pos, "string"), pos + n


def encode_compact_string(value: str) -> bytes:
    """A UTF-8 string with a compact length."""
    if value is None:
        raise EncodeError("compact string: None is not allowed here")
    raw = _utf8(value, "compact string")
    return encode_unsigned_varint(len(raw) + 1) + raw


def encode_compact_nullable_string(value: Optional[str]) -> bytes:
    """A UTF-8 string with a compact length; None is length 0."""
    return b"\x00" if value is None else encode_compact_string(value)


def decode_compact_string(buf: _BytesLike, offset: int = 0) -> Tuple[str, int]:
    """A UTF-8 string with a compact length; a null raises."""
    value, pos = decode_compact_nullable_string(buf, offset)
    if value is None:
        raise DecodeError(f"null compact string at byte {offset} where null is not allowed")
    return value, pos


def decode_compact_nullable_string(buf: _BytesLike, offset: int = 0) -> Tuple[Optional[str], int]:
    """A UTF-8 string with a compact length; 0 is None."""
    n, pos = decode_unsigned_varint(buf, offset)
    if n == 0:
        return None, pos
    return _text(_take(buf, pos, n - 1, "compact string"), pos, "compact string"), pos + n - 1


def uninitialized_bytearray(size: int) -> bytearray:
    """A bytearray of ``size`` bytes for a decompressor to overwrite: zero-filled here
    (pure Python has no way to skip that), as the compiled twin's is not."""
    if size < 0:
        raise ValueError(f"negative size {size}")
    return bytearray(size)
