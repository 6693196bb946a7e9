"""Python values to Avro's binary encoding: the defaults of fields a reader adds (in
the JSON form a schema gives them), and values for tests and writes."""

from __future__ import annotations

import struct
from typing import Any

from kafkawire.avro.schema import Schema
from kafkawire.errors import EncodeError


def zigzag(n: int) -> bytes:
    """``n`` as Avro's zigzag varint (int or long)."""
    if not -(1 << 63) <= n < 1 << 63:
        raise EncodeError(f"{n!r} does not fit in a long")
    n = ((n << 1) ^ (n >> 63)) & 0xFFFFFFFFFFFFFFFF
    out = bytearray()
    while n > 0x7F:
        out.append((n & 0x7F) | 0x80)
        n >>= 7
    out.append(n)
    return bytes(out)


def encode_json(s: Schema, value: Any) -> bytes:
    """``value``, in the JSON form of a schema's ``default``, encoded as ``s`` says (a
    union's default is its first branch's; bytes and fixed are strings of code points
    0-255)."""
    t = s["type"]
    try:
        if t == "union":
            return b"\x00" + encode_json(s["branches"][0], value)
        if t == "null":
            if value is not None:
                raise EncodeError(f"null default {value!r}")
            return b""
        if t == "boolean":
            return b"\x01" if value else b"\x00"
        if t in ("int", "long"):
            return zigzag(int(value))
        if t == "float":
            return struct.pack("<f", float(value))
        if t == "double":
            return struct.pack("<d", float(value))
        if t in ("bytes", "string"):
            raw = bytes(value.encode("latin-1") if t == "bytes" else value.encode("utf-8"))
            return zigzag(len(raw)) + raw
        if t == "fixed":
            raw = bytes(value.encode("latin-1"))
            if len(raw) != s["size"]:
                raise EncodeError(f"fixed default of {len(raw)} bytes, not {s['size']}")
            return raw
        if t == "enum":
            return zigzag(s["symbols"].index(value))
        if t == "array":
            body = b"".join(encode_json(s["items"], v) for v in value)
            return (zigzag(len(value)) + body + b"\x00") if value else b"\x00"
        if t == "map":
            body = b"".join(
                encode_json({"type": "string"}, k) + encode_json(s["values"], v) for k, v in value.items()
            )
            return (zigzag(len(value)) + body + b"\x00") if value else b"\x00"
        if t == "record":
            out = []
            for f in s["fields"]:
                if f["name"] in value:
                    out.append(encode_json(f["type"], value[f["name"]]))
                elif "default" in f:
                    out.append(encode_json(f["type"], f["default"]))
                else:
                    raise EncodeError(f"record {s['name']}: no value for field {f['name']!r}")
            return b"".join(out)
    except (TypeError, ValueError, AttributeError, KeyError) as exc:
        if isinstance(exc, EncodeError):
            raise
        raise EncodeError(f"{value!r:.60} is not a {t}: {exc}") from None
    raise EncodeError(f"unknown type {t!r}")
