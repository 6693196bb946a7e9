"""Encode and decode Kafka's primitive types.

Encoders take a value and return ``bytes``.  Decoders take ``(buf, offset)``, where
``buf`` is any bytes-like object, and return ``(value, new_offset)``; a truncated or
malformed value raises a :mod:`kafkawire.errors` exception.  The functions come from the
active backend (see ``kafkawire.BACKEND``).
"""

from typing import TYPE_CHECKING

from kafkawire import _backend

# Listed, not computed, so that type checkers know what the module exports.
__all__ = [
    "encode_int8",
    "decode_int8",
    "encode_int16",
    "decode_int16",
    "encode_uint16",
    "decode_uint16",
    "encode_int32",
    "decode_int32",
    "encode_uint32",
    "decode_uint32",
    "encode_int64",
    "decode_int64",
    "encode_float64",
    "decode_float64",
    "encode_bool",
    "decode_bool",
    "encode_uuid",
    "decode_uuid",
    "encode_unsigned_varint",
    "decode_unsigned_varint",
    "encode_varint",
    "decode_varint",
    "encode_varlong",
    "decode_varlong",
    "encode_array_length",
    "decode_array_length",
    "encode_compact_array_length",
    "decode_compact_array_length",
    "encode_bytes",
    "decode_bytes",
    "encode_nullable_bytes",
    "decode_nullable_bytes",
    "encode_compact_bytes",
    "decode_compact_bytes",
    "encode_compact_nullable_bytes",
    "decode_compact_nullable_bytes",
    "encode_string",
    "decode_string",
    "encode_nullable_string",
    "decode_nullable_string",
    "encode_compact_string",
    "decode_compact_string",
    "encode_compact_nullable_string",
    "decode_compact_nullable_string",
    "size_of_unsigned_varint",
    "size_of_varint",
    "size_of_varlong",
]
NAMES = tuple(__all__)

if TYPE_CHECKING:  # a type checker reads the pure twin; at run time the active backend's functions
    from kafkawire._pure.primitives import (
        decode_array_length,
        decode_bool,
        decode_bytes,
        decode_compact_array_length,
        decode_compact_bytes,
        decode_compact_nullable_bytes,
        decode_compact_nullable_string,
        decode_compact_string,
        decode_float64,
        decode_int16,
        decode_int32,
        decode_int64,
        decode_int8,
        decode_nullable_bytes,
        decode_nullable_string,
        decode_string,
        decode_uint16,
        decode_uint32,
        decode_unsigned_varint,
        decode_uuid,
        decode_varint,
        decode_varlong,
        encode_array_length,
        encode_bool,
        encode_bytes,
        encode_compact_array_length,
        encode_compact_bytes,
        encode_compact_nullable_bytes,
        encode_compact_nullable_string,
        encode_compact_string,
        encode_float64,
        encode_int16,
        encode_int32,
        encode_int64,
        encode_int8,
        encode_nullable_bytes,
        encode_nullable_string,
        encode_string,
        encode_uint16,
        encode_uint32,
        encode_unsigned_varint,
        encode_uuid,
        encode_varint,
        encode_varlong,
        size_of_unsigned_varint,
        size_of_varint,
        size_of_varlong,
    )
    from kafkawire._backend_interfaces import PrimitivesBackend
    from kafkawire._pure import primitives as _pure_primitives

    _PURE_IS_A_BACKEND: PrimitivesBackend = _pure_primitives  # what implementation("primitives") promises
else:
    _backend.bind(globals(), "primitives", NAMES)


def __dir__() -> list[str]:  # what the module defines, not what it imports
    return sorted(__all__)
