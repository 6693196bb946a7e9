# cython: language_level=3
"""Kafka's primitive types, compiled: the Cython twin of ``kafkawire._pure.primitives``."""
import uuid as _uuid

from cpython.buffer cimport PyBUF_SIMPLE, PyBuffer_Release, PyObject_GetBuffer
from cpython.bytearray cimport PyByteArray_FromStringAndSize
from cpython.bytes cimport PyBytes_AS_STRING, PyBytes_FromStringAndSize, PyBytes_GET_SIZE
from libc.stdint cimport INT32_MAX, INT32_MIN, INT64_MAX, INT64_MIN
from libc.string cimport memcpy

from kafkawire.errors import DecodeError, EncodeError, InvalidVarintError, TruncatedError

_UUID = _uuid.UUID
ZERO_UUID = _UUID(int=0)


cdef int raise_truncated(str what, Py_ssize_t pos, Py_ssize_t need, Py_ssize_t size) except -1:
    cdef Py_ssize_t remain = size - pos
    if remain < 0:
        remain = 0
    raise TruncatedError(
        f"truncated {what} at byte {pos}: needs {need} bytes, {remain} remain")


cdef int read_uvarint(const uint8_t *data, Py_ssize_t size, Py_ssize_t *pos,
                      uint64_t *out, int max_bytes, str what) except -1:
    cdef Py_ssize_t start = pos[0]
    cdef Py_ssize_t p = start
    cdef uint64_t value = 0
    cdef uint64_t b
    cdef int shift = 0
    while True:
        if p >= size:
            raise TruncatedError(f"truncated {what} at byte {start}")
        b = data[p]
        p += 1
        if p - start == max_bytes:
            # The last byte may only carry the bits the type has left.
            if b & 0x80:
                raise InvalidVarintError(
                    f"{what} at byte {start} is longer than {max_bytes} bytes")
            if (max_bytes == 5 and b > 0x0F) or (max_bytes == 10 and b > 0x01):
                raise InvalidVarintError(
                    f"{what} at byte {start} does not fit in {32 if max_bytes == 5 else 64} bits")
        value |= (b & 0x7F) << shift
        if not (b & 0x80):
            break
        shift += 7
    out[0] = value
    pos[0] = p
    return 0


cdef inline int _check_offset(Py_ssize_t offset, Py_ssize_t size) except -1:
    if offset < 0 or offset > size:
        raise TruncatedError(f"offset {offset} is outside a buffer of {size} bytes")
    return 0


cdef inline int _open(object buf, Py_buffer *view, Py_ssize_t offset) except -1:
    PyObject_GetBuffer(buf, view, PyBUF_SIMPLE)
    cdef Py_ssize_t size = view.len
    if offset < 0 or offset > size:
        PyBuffer_Release(view)
        _check_offset(offset, size)
    return 0


cdef inline bytes _new_bytes(const uint8_t *src, Py_ssize_t n):
    return PyBytes_FromStringAndSize(<const char *>src, n)


# -- fixed-width integers ------------------------------------------------------

cdef long long _as_int(object value, long long low, long long high, str name) except? -1:
    cdef long long v
    if not isinstance(value, int):
        raise EncodeError(f"{name}: cannot encode {value!r}: not an integer")
    try:
        v = value
    except OverflowError:  # beyond a C long long: out of every range
        raise EncodeError(f"{name}: cannot encode {value!r}: out of range") from None
    if v < low or v > high:
        raise EncodeError(f"{name}: cannot encode {value!r}: out of range")
    return v


def encode_int8(value):
    """The 1-byte int8 encoding of ``value``."""
    cdef uint8_t b = <uint8_t>_as_int(value, -128, 127, "int8")
    return _new_bytes(&b, 1)


def encode_int16(value):
    """The 2-byte big-endian int16 encoding of ``value``."""
    cdef uint8_t b[2]
    store_be16(b, <uint16_t>_as_int(value, -32768, 32767, "int16"))
    return _new_bytes(b, 2)


def encode_uint16(value):
    """The 2-byte big-endian uint16 encoding of ``value``."""
    cdef uint8_t b[2]
    store_be16(b, <uint16_t>_as_int(value, 0, 65535, "uint16"))
    return _new_bytes(b, 2)


def encode_int32(value):
    """The 4-byte big-endian int32 encoding of ``value``."""
    cdef uint8_t b[4]
    store_be32(b, <uint32_t>_as_int(value, INT32_MIN, INT32_MAX, "int32"))
    return _new_bytes(b, 4)


def encode_uint32(value):
    """The 4-byte big-endian uint32 encoding of ``value``."""
    cdef uint8_t b[4]
    store_be32(b, <uint32_t>_as_int(value, 0, 4294967295, "uint32"))
    return _new_bytes(b, 4)


def encode_int64(value):
    """The 8-byte big-endian int64 encoding of ``value``."""
    cdef uint8_t b[8]
    store_be64(b, <uint64_t>_as_int(value, INT64_MIN, INT64_MAX, "int64"))
    return _new_bytes(b, 8)


def encode_float64(value):
    """The 8-byte big-endian IEEE 754 encoding of ``value``."""
    cdef double d
    cdef uint64_t bits
    cdef uint8_t b[8]
    try:
        d = value
    except TypeError:
        raise EncodeError(f"float64: cannot encode {value!r}: not a number") from None
    memcpy(&bits, &d, 8)
    store_be64(b, bits)
    return _new_bytes(b, 8)


cdef object _decode_fixed(object buf, Py_ssize_t offset, int width, int kind, str name):
    # kind: 0 signed, 1 unsigned, 2 float
    cdef Py_buffer view
    cdef const uint8_t *p
    cdef uint64_t bits
    cdef double d
    cdef object value
    _open(buf, &view, offset)
    try:
        if view.len - offset < width:
            raise_truncated(name, offset, width, view.len)
        p = <const uint8_t *>view.buf + offset
        if width == 1:
            if kind == 0:
                value = <int8_t>p[0]
            else:
                value = <long>p[0]
        elif width == 2:
            if kind == 0:
                value = <int16_t>load_be16(p)
            else:
                value = <long>load_be16(p)
        elif width == 4:
            if kind == 0:
                value = <int32_t>load_be32(p)
            else:
                value = <unsigned long long>load_be32(p)
        else:
            bits = load_be64(p)
            if kind == 2:
                memcpy(&d, &bits, 8)
                value = d
            else:
                value = <int64_t>bits
        return value, offset + width
    finally:
        PyBuffer_Release(&view)


def decode_int8(buf, Py_ssize_t offset=0):
    """Read an int8 at ``offset``; returns ``(value, offset + 1)``."""
    return _decode_fixed(buf, offset, 1, 0, "int8")


def decode_int16(buf, Py_ssize_t offset=0):
    """Read an int16 at ``offset``; returns ``(value, offset + 2)``."""
    return _decode_fixed(buf, offset, 2, 0, "int16")


def decode_uint16(buf, Py_ssize_t offset=0):
    """Read a uint16 at ``offset``; returns ``(value, offset + 2)``."""
    return _decode_fixed(buf, offset, 2, 1, "uint16")


def decode_int32(buf, Py_ssize_t offset=0):
    """Read an int32 at ``offset``; returns ``(value, offset + 4)``."""
    return _decode_fixed(buf, offset, 4, 0, "int32")


def decode_uint32(buf, Py_ssize_t offset=0):
    """Read a uint32 at ``offset``; returns ``(value, offset + 4)``."""
    return _decode_fixed(buf, offset, 4, 1, "uint32")


def decode_int64(buf, Py_ssize_t offset=0):
    """Read an int64 at ``offset``; returns ``(value, offset + 8)``."""
    return _decode_fixed(buf, offset, 8, 0, "int64")


def decode_float64(buf, Py_ssize_t offset=0):
    """Read a float64 at ``offset``; returns ``(value, offset + 8)``."""
    return _decode_fixed(buf, offset, 8, 2, "float64")


def encode_bool(value):
    """One byte: 1 for true, 0 for false."""
    return b"\x01" if value else b"\x00"


def decode_bool(buf, Py_ssize_t offset=0):
    """Read a boolean; any non-zero byte is true, as in Kafka."""
    value, pos = _decode_fixed(buf, offset, 1, 1, "bool")
    return value != 0, pos


def encode_uuid(value):
    """The 16 bytes of a UUID; None writes the all-zero UUID."""
    if value is None:
        return bytes(16)
    if not isinstance(value, _UUID):
        raise EncodeError(f"uuid: expected uuid.UUID, got {type(value).__name__}")
    return value.bytes


def decode_uuid(buf, Py_ssize_t offset=0):
    """Read a 16-byte UUID."""
    cdef Py_buffer view
    _open(buf, &view, offset)
    try:
        if view.len - offset < 16:
            raise_truncated("uuid", offset, 16, view.len)
        raw = _new_bytes(<const uint8_t *>view.buf + offset, 16)
    finally:
        PyBuffer_Release(&view)
    return _UUID(bytes=raw), offset + 16


# -- varints -------------------------------------------------------------------

cdef bytes _uvarint_bytes(uint64_t v):
    cdef uint8_t out[10]
    cdef int n = write_uvarint(out, v)
    return _new_bytes(out, n)


def encode_unsigned_varint(value):
    """Kafka's unsigned varint (LEB128) of a value in [0, 2**32)."""
    if not isinstance(value, int) or value < 0 or value > 0xFFFFFFFF:
        raise EncodeError(f"unsigned varint: {value!r} is not in [0, 2**32)")
    return _uvarint_bytes(<uint64_t>value)


def encode_varint(value):
    """Kafka's varint: a zigzag-encoded signed 32-bit value."""
    if not isinstance(value, int) or not INT32_MIN <= value <= INT32_MAX:
        raise EncodeError(f"varint: {value!r} is not a signed 32-bit integer")
    return _uvarint_bytes(zigzag32(<int32_t>value))


def encode_varlong(value):
    """Kafka's varlong: a zigzag-encoded signed 64-bit value (up to 10 bytes)."""
    if not isinstance(value, int) or not -9223372036854775808 <= value <= 9223372036854775807:
        raise EncodeError(f"varlong: {value!r} is not a signed 64-bit integer")
    return _uvarint_bytes(zigzag64(<int64_t>value))


def decode_unsigned_varint(buf, Py_ssize_t offset=0):
    """Read an unsigned varint of at most 5 bytes whose value fits in 32 bits."""
    cdef Py_buffer view
    cdef Py_ssize_t pos = offset
    cdef uint32_t v
    if type(buf) is bytes:  # fast path: no buffer request for the common case
        _check_offset(offset, PyBytes_GET_SIZE(buf))
        read_uvarint32(<const uint8_t *>PyBytes_AS_STRING(buf), PyBytes_GET_SIZE(buf), &pos, &v)
        return v, pos
    _open(buf, &view, offset)
    try:
        read_uvarint32(<const uint8_t *>view.buf, view.len, &pos, &v)
    finally:
        PyBuffer_Release(&view)
    return v, pos


def decode_varint(buf, Py_ssize_t offset=0):
    """Read a zigzag varint (signed 32-bit)."""
    cdef Py_buffer view
    cdef Py_ssize_t pos = offset
    cdef int32_t v
    if type(buf) is bytes:  # fast path: no buffer request for the common case
        _check_offset(offset, PyBytes_GET_SIZE(buf))
        read_varint32(<const uint8_t *>PyBytes_AS_STRING(buf), PyBytes_GET_SIZE(buf), &pos, &v)
        return v, pos
    _open(buf, &view, offset)
    try:
        read_varint32(<const uint8_t *>view.buf, view.len, &pos, &v)
    finally:
        PyBuffer_Release(&view)
    return v, pos


def decode_varlong(buf, Py_ssize_t offset=0):
    """Read a zigzag varlong (signed 64-bit)."""
    cdef Py_buffer view
    cdef Py_ssize_t pos = offset
    cdef int64_t v
    if type(buf) is bytes:  # fast path: no buffer request for the common case
        _check_offset(offset, PyBytes_GET_SIZE(buf))
        read_varint64(<const uint8_t *>PyBytes_AS_STRING(buf), PyBytes_GET_SIZE(buf), &pos, &v)
        return v, pos
    _open(buf, &view, offset)
    try:
        read_varint64(<const uint8_t *>view.buf, view.len, &pos, &v)
    finally:
        PyBuffer_Release(&view)
    return v, pos


def size_of_unsigned_varint(value):
    """How many bytes the unsigned varint of ``value`` takes."""
    return uvarint_size(<uint64_t>value)


def size_of_varint(value):
    """How many bytes the zigzag varint of a signed 32-bit ``value`` takes."""
    return uvarint_size(zigzag32(<int32_t>value))


def size_of_varlong(value):
    """How many bytes the zigzag varlong of a signed 64-bit ``value`` takes."""
    return uvarint_size(zigzag64(<int64_t>value))


# -- lengths -------------------------------------------------------------------

def encode_array_length(count):
    """An int32 array length; None (a null array) is -1."""
    return encode_int32(-1 if count is None else count)


def decode_array_length(buf, Py_ssize_t offset=0):
    """An int32 array length; -1 is None (null).  Other negatives raise."""
    n, pos = _decode_fixed(buf, offset, 4, 0, "int32")
    if n == -1:
        return None, pos
    if n < 0:
        raise InvalidVarintError(f"array length {n} at byte {offset} is negative")
    return n, pos


def encode_compact_array_length(count):
    """A compact array length: ``count + 1`` as unsigned varint; None (null) is 0."""
    return encode_unsigned_varint(0 if count is None else count + 1)


def decode_compact_array_length(buf, Py_ssize_t offset=0):
    """A compact array length: 0 is None (null), else the varint minus one."""
    n, pos = decode_unsigned_varint(buf, offset)
    return (None if n == 0 else n - 1), pos


# -- bytes and strings ---------------------------------------------------------

cdef bytes _as_bytes(object value, str what):
    if isinstance(value, bytes):
        return <bytes>value
    if isinstance(value, (bytearray, memoryview)):
        return bytes(value)
    raise EncodeError(f"{what}: expected a bytes-like object, got {type(value).__name__}")


cdef bytes _utf8(object value, str what):
    if not isinstance(value, str):
        raise EncodeError(f"{what}: expected str, got {type(value).__name__}")
    try:
        return (<str>value).encode("utf-8")
    except UnicodeEncodeError as exc:
        raise EncodeError(f"{what}: not encodable as UTF-8: {exc}") from None


cdef bytes _with_int_length(bytes raw, int width):
    cdef Py_ssize_t n = len(raw)
    out = PyBytes_FromStringAndSize(NULL, width + n)
    cdef uint8_t *p = <uint8_t *>PyBytes_AS_STRING(out)
    if width == 2:
        store_be16(p, <uint16_t>n)
    else:
        store_be32(p, <uint32_t>n)
    memcpy(p + width, PyBytes_AS_STRING(raw), n)
    return out


cdef bytes _with_compact_length(bytes raw):
    cdef Py_ssize_t n = len(raw)
    if n >= 0xFFFFFFFF:
        raise EncodeError(f"{n} bytes is longer than a compact length allows")
    cdef uint8_t head[10]
    cdef int h = write_uvarint(head, <uint64_t>n + 1)
    out = PyBytes_FromStringAndSize(NULL, h + n)
    cdef uint8_t *p = <uint8_t *>PyBytes_AS_STRING(out)
    memcpy(p, head, h)
    memcpy(p + h, PyBytes_AS_STRING(raw), n)
    return out


cdef tuple _read_sized(object buf, Py_ssize_t offset, int kind, bint text, str what):
    # kind: 2 int16 length, 4 int32 length, 0 compact length.  Returns (value|None, pos).
    cdef Py_buffer view
    cdef Py_ssize_t pos = offset
    cdef Py_ssize_t n
    cdef uint32_t u
    cdef const uint8_t *data
    _open(buf, &view, offset)
    try:
        data = <const uint8_t *>view.buf
        if kind == 0:
            read_uvarint32(data, view.len, &pos, &u)
            if u == 0:
                return None, pos
            n = <Py_ssize_t>u - 1
        else:
            if view.len - pos < kind:
                raise_truncated("int16" if kind == 2 else "int32", pos, kind, view.len)
            n = <int16_t>load_be16(data + pos) if kind == 2 else <int32_t>load_be32(data + pos)
            pos += kind
            if n == -1:
                return None, pos
            if n < 0:
                raise InvalidVarintError(f"{what} length {n} at byte {offset} is negative")
        if n > view.len - pos:
            raise_truncated(what, pos, n, view.len)
        if text:
            try:
                value = (<const char *>data)[pos:pos + n].decode("utf-8")
            except UnicodeDecodeError as exc:
                raise DecodeError(f"{what} at byte {pos} is not valid UTF-8: {exc}") from None
        else:
            value = _new_bytes(data + pos, n)
        return value, pos + n
    finally:
        PyBuffer_Release(&view)


cdef tuple _not_null(tuple result, str what, Py_ssize_t offset):
    if result[0] is None:
        raise DecodeError(f"null {what} at byte {offset} where null is not allowed")
    return result


def encode_bytes(value):
    """Bytes with an int32 length."""
    if value is None:
        raise EncodeError("bytes: None is not allowed here (use encode_nullable_bytes)")
    return _with_int_length(_as_bytes(value, "bytes"), 4)


def encode_nullable_bytes(value):
    """Bytes with an int32 length; None is length -1."""
    return b"\xff\xff\xff\xff" if value is None else encode_bytes(value)


def decode_bytes(buf, Py_ssize_t offset=0):
    """Bytes with an int32 length; a null (-1) raises (use decode_nullable_bytes)."""
    return _not_null(_read_sized(buf, offset, 4, False, "bytes"), "bytes", offset)


def decode_nullable_bytes(buf, Py_ssize_t offset=0):
    """Bytes with an int32 length; -1 is None."""
    return _read_sized(buf, offset, 4, False, "bytes")


def encode_compact_bytes(value):
    """Bytes with a compact length (``len + 1`` as unsigned varint)."""
    if value is None:
        raise EncodeError("compact bytes: None is not allowed here")
    return _with_compact_length(_as_bytes(value, "compact bytes"))


def encode_compact_nullable_bytes(value):
    """Bytes with a compact length; None is length 0."""
    return b"\x00" if value is None else encode_compact_bytes(value)


def decode_compact_bytes(buf, Py_ssize_t offset=0):
    """Bytes with a compact length; a null raises."""
    return _not_null(_read_sized(buf, offset, 0, False, "compact bytes"), "compact bytes", offset)


def decode_compact_nullable_bytes(buf, Py_ssize_t offset=0):
    """Bytes with a compact length; 0 is None."""
    return _read_sized(buf, offset, 0, False, "compact bytes")


def encode_string(value):
    """A UTF-8 string with an int16 length."""
    if value is None:
        raise EncodeError("string: None is not allowed here (use encode_nullable_string)")
    raw = _utf8(value, "string")
    if len(raw) > 0x7FFF:
        raise EncodeError(f"string: {len(raw)} bytes is longer than an int16 length allows")
    return _with_int_length(raw, 2)


def encode_nullable_string(value):
    """A UTF-8 string with an int16 length; None is length -1."""
    return b"\xff\xff" if value is None else encode_string(value)


def decode_string(buf, Py_ssize_t offset=0):
    """A UTF-8 string with an int16 length; a null raises."""
    return _not_null(_read_sized(buf, offset, 2, True, "string"), "string", offset)


def decode_nullable_string(buf, Py_ssize_t offset=0):
    """A UTF-8 string with an int16 length; -1 is None."""
    return _read_sized(buf, offset, 2, True, "string")


def encode_compact_string(value):
    """A UTF-8 string with a compact length."""
    if value is None:
        raise EncodeError("compact string: None is not allowed here")
    return _with_compact_length(_utf8(value, "compact string"))


def encode_compact_nullable_string(value):
    """A UTF-8 string with a compact length; None is length 0."""
    return b"\x00" if value is None else encode_compact_string(value)


def decode_compact_string(buf, Py_ssize_t offset=0):
    """A UTF-8 string with a compact length; a null raises."""
    return _not_null(_read_sized(buf, offset, 0, True, "compact string"), "compact string", offset)


def decode_compact_nullable_string(buf, Py_ssize_t offset=0):
    """A UTF-8 string with a compact length; 0 is None."""
    return _read_sized(buf, offset, 0, True, "compact string")


def uninitialized_bytearray(Py_ssize_t size):
    """A bytearray of ``size`` bytes as the allocator gave them, not zero-filled: the
    output buffer of a decompressor, which overwrites it (zeroing a large one would
    take time under the GIL for bytes nobody reads).  Whoever fills it must cut off
    what was not written before anyone else sees it."""
    if size < 0:
        raise ValueError(f"negative size {size}")
    return PyByteArray_FromStringAndSize(NULL, size)
