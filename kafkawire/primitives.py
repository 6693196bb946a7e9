"""Encode and decode Kafka's primitive types.

Encoders take a value and return ``bytes``.  Decoders take ``(buf, offset)``, where
``buf`` is any bytes-like object, and return ``(value, new_offset)``; a truncated or
malformed value raises a :mod:`kafkawire.errors` exception.  The functions come from the
active backend (see ``kafkawire.BACKEND``).
"""
from kafkawire import _backend

NAMES = tuple(
    f"{direction}_{kind}"
    for kind in (
        "int8", "int16", "uint16", "int32", "uint32", "int64", "float64", "bool", "uuid",
        "unsigned_varint", "varint", "varlong",
        "array_length", "compact_array_length",
        "bytes", "nullable_bytes", "compact_bytes", "compact_nullable_bytes",
        "string", "nullable_string", "compact_string", "compact_nullable_string",
    )
    for direction in ("encode", "decode")
) + ("size_of_unsigned_varint", "size_of_varint", "size_of_varlong")

_backend.bind(globals(), "primitives", NAMES)

__all__ = list(NAMES)
