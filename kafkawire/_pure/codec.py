"""The pure-Python plan executor: exact size, encode and decode of a struct at a version.

It runs the plans of :mod:`kafkawire.schema.plan` (the Cython twin runs the same plans)
and gives identical bytes, values and exception types.

Encoding takes two passes: the first computes the exact size, caching every string's
UTF-8 bytes and every tagged value's size; the second writes into one buffer of exactly
that size.  Decoding checks every length and count against what remains of the buffer
(or of the enclosing tagged field) before reading or allocating anything.
"""
from __future__ import annotations

import struct as _struct
import uuid as _uuid
from typing import Any, List, Optional, Sequence, Tuple

from kafkawire.errors import DecodeError, EncodeError, InvalidVarintError, TruncatedError
from kafkawire.schema.plan import (
    ARRAY, BOOL, BYTES, DEF_EMPTY, DEF_NONE, FLOAT64, INT8, INT16, INT32, INT64, INT_RANGE,
    KIND_NAMES, RECORDS, STRING, STRUCT, UINT16, UINT32, UUID, StructPlan,
)

__all__ = ["encode", "encode_parts", "size", "decode", "decode_from", "UNKNOWN_TAGGED"]

# The slot of every message object that keeps unknown tagged fields: None or a tuple of
# (tag, bytes) pairs in ascending tag order.
UNKNOWN_TAGGED = "_unknown_tagged"

_I32 = _struct.Struct(">i")
_I16 = _struct.Struct(">h")
_ELEM = {k: _struct.Struct(">" + c) for k, c in
         ((BOOL, "?"), (INT8, "b"), (INT16, "h"), (UINT16, "H"), (INT32, "i"),
          (UINT32, "I"), (INT64, "q"), (FLOAT64, "d"))}
_UUID_NEW = _uuid.UUID.__new__
_ZERO_UUID = _uuid.UUID(int=0)
_SAFE_UNKNOWN = _uuid.SafeUUID.unknown
_set = object.__setattr__

# -- varints --------------------------------------------------------------------------


def _uvarint_size(v: int) -> int:
    n = 1
    while v > 0x7F:
        v >>= 7
        n += 1
    return n


def _read_uvarint(mv, pos: int, end: int) -> Tuple[int, int]:
    if pos < end:
        b = mv[pos]
        if b < 0x80:
            return b, pos + 1
    start = pos
    value = 0
    shift = 0
    while True:
        if pos >= end:
            raise TruncatedError(f"truncated unsigned varint at byte {start}")
        b = mv[pos]
        pos += 1
        if pos - start == 5 and (b & 0x80 or b > 0x0F):
            raise InvalidVarintError(f"unsigned varint at byte {start} does not fit in 32 bits")
        value |= (b & 0x7F) << shift
        if not b & 0x80:
            return value, pos
        shift += 7


def _write_uvarint(out: bytearray, pos: int, v: int) -> int:
    while v > 0x7F:
        out[pos] = (v & 0x7F) | 0x80
        v >>= 7
        pos += 1
    out[pos] = v
    return pos + 1


def _truncated(what: str, pos: int, need: int, end: int) -> TruncatedError:
    return TruncatedError(
        f"truncated {what} at byte {pos}: needs {need} bytes, {max(end - pos, 0)} remain")


# -- decoding -------------------------------------------------------------------------


def _read_len(compact: bool, short: bool, mv, pos: int, end: int, what: str) -> Tuple[int, int]:
    if compact:
        n, pos = _read_uvarint(mv, pos, end)
        return n - 1, pos
    if short:
        if end - pos < 2:
            raise _truncated(what + " length", pos, 2, end)
        return _I16.unpack_from(mv, pos)[0], pos + 2
    if end - pos < 4:
        raise _truncated(what + " length", pos, 4, end)
    return _I32.unpack_from(mv, pos)[0], pos + 4


def _null_check(p, n: int, pos: int, what: str) -> None:
    if n < -1:
        raise DecodeError(f"{p.attr}: negative {what} length {n} before byte {pos}")
    if n == -1 and not p.nullable:
        raise DecodeError(f"{p.attr}: null {what} before byte {pos} where null is not allowed")


def _uuid_from(raw) -> _uuid.UUID:
    i = int.from_bytes(raw, "big")
    if not i:
        return _ZERO_UUID
    u = _UUID_NEW(_uuid.UUID)
    _set(u, "int", i)
    _set(u, "is_safe", _SAFE_UNKNOWN)
    return u


def _read_text(mv, pos: int, n: int, end: int, attr: str) -> str:
    if n > end - pos:
        raise _truncated(f"{attr} string", pos, n, end)
    try:
        return str(mv[pos:pos + n], "utf-8")
    except UnicodeDecodeError as exc:
        raise DecodeError(f"{attr}: string at byte {pos} is not valid UTF-8: {exc}") from None


def _read_field(p, mv, pos: int, end: int) -> Tuple[Any, int]:
    kind = p.kind
    if kind == STRING:
        n, pos = _read_len(p.compact, True, mv, pos, end, "string")
        if n < 0:
            _null_check(p, n, pos, "string")
            return None, pos
        return _read_text(mv, pos, n, end, p.attr), pos + n
    if kind == BYTES or kind == RECORDS:
        n, pos = _read_len(p.compact, False, mv, pos, end, "bytes")
        if n < 0:
            _null_check(p, n, pos, "bytes")
            return None, pos
        if n > end - pos:
            raise _truncated(f"{p.attr} bytes", pos, n, end)
        if kind == RECORDS:
            return mv[pos:pos + n], pos + n
        return bytes(mv[pos:pos + n]), pos + n
    if kind == ARRAY:
        n, pos = _read_len(p.compact, False, mv, pos, end, "array")
        if n < 0:
            _null_check(p, n, pos, "array")
            return None, pos
        ek = p.elem_kind
        if ek == STRUCT:
            sub = p.sub
            if n > end - pos or n * sub.min_size > end - pos:
                raise _truncated(f"{p.attr} array of {n}", pos, n * max(sub.min_size, 1), end)
            out = []
            append = out.append
            for _ in range(n):
                v, pos = _read_struct(sub, mv, pos, end)
                append(v)
            return out, pos
        if ek in _ELEM:
            st = _ELEM[ek]
            w = st.size
            if n * w > end - pos:
                raise _truncated(f"{p.attr} array of {n}", pos, n * w, end)
            vals = list(_struct.unpack_from(">" + str(n) + st.format[1:], mv, pos)) if n else []
            return vals, pos + n * w
        if ek == UUID:
            if n * 16 > end - pos:
                raise _truncated(f"{p.attr} array of {n}", pos, n * 16, end)
            out = [_uuid_from(mv[pos + 16 * i:pos + 16 * i + 16]) for i in range(n)]
            return out, pos + 16 * n
        if ek == STRING:
            if n > end - pos:
                raise _truncated(f"{p.attr} array of {n}", pos, n, end)
            out = []
            for _ in range(n):
                m, pos = _read_len(p.compact, True, mv, pos, end, "string")
                if m < 0:
                    raise DecodeError(f"{p.attr}: null or negative string in an array at byte {pos}")
                out.append(_read_text(mv, pos, m, end, p.attr))
                pos += m
            return out, pos
        raise AssertionError(ek)
    if kind == STRUCT:
        if p.nullable:
            if pos >= end:
                raise _truncated(f"{p.attr} marker", pos, 1, end)
            marker = mv[pos]
            pos += 1
            if marker >= 0x80:  # negative int8: null
                return None, pos
        return _read_struct(p.sub, mv, pos, end)
    if kind == UUID:
        if end - pos < 16:
            raise _truncated(f"{p.attr} uuid", pos, 16, end)
        return _uuid_from(mv[pos:pos + 16]), pos + 16
    st = _ELEM[kind]
    if end - pos < st.size:
        raise _truncated(f"{p.attr} {KIND_NAMES[kind]}", pos, st.size, end)
    return st.unpack_from(mv, pos)[0], pos + st.size


def _read_struct(plan: StructPlan, mv, pos: int, end: int) -> Tuple[Any, int]:
    cls = plan.cls
    obj = cls.__new__(cls)
    for st, p in plan.steps:
        if st is not None:
            w = st.size
            if end - pos < w:
                raise _truncated(f"{p[0].attr} {KIND_NAMES[p[0].kind]}", pos, w, end)
            for fp, v in zip(p, st.unpack_from(mv, pos)):
                _set(obj, fp.attr, v)
            pos += w
        else:
            v, pos = _read_field(p, mv, pos, end)
            _set(obj, p.attr, v)
    for p in plan.absent:
        _set(obj, p.attr, p.factory() if p.factory is not None else p.default)
    unknown = None
    if plan.flexible:
        tagged = plan.tagged
        for p in tagged:
            _set(obj, p.attr, p.factory() if p.factory is not None else p.default)
        count, pos = _read_uvarint(mv, pos, end)
        if count > end - pos:
            raise _truncated("tagged fields", pos, count, end)
        for _ in range(count):
            tag, pos = _read_uvarint(mv, pos, end)
            n, pos = _read_uvarint(mv, pos, end)
            if n > end - pos:
                raise _truncated(f"tagged field {tag}", pos, n, end)
            for p in tagged:
                if p.tag == tag:
                    v, after = _read_field(p, mv, pos, pos + n)
                    if after != pos + n:
                        raise DecodeError(
                            f"{p.attr}: tagged field {tag} at byte {pos} declares {n} bytes "
                            f"but its value takes {after - pos}")
                    _set(obj, p.attr, v)
                    break
            else:
                if unknown is None:
                    unknown = []
                unknown.append((tag, bytes(mv[pos:pos + n])))
            pos += n
        if unknown is not None:
            unknown.sort(key=lambda t: t[0])
            unknown = tuple(unknown)
    _set(obj, UNKNOWN_TAGGED, unknown)
    return obj, pos


def _view(buf) -> memoryview:
    try:
        mv = memoryview(buf)
    except TypeError:
        raise DecodeError(f"expected a bytes-like object, got {type(buf).__name__}") from None
    if mv.ndim != 1 or mv.itemsize != 1 or mv.format not in ("B", "b", "c"):
        mv = mv.cast("B")
    elif mv.format != "B":
        mv = mv.cast("B")
    return mv


def decode_from(plan: StructPlan, buf, offset: int = 0) -> Tuple[Any, int]:
    """Decode one struct at ``offset``; returns ``(object, offset after it)``."""
    mv = _view(buf)
    if offset < 0 or offset > len(mv):
        raise TruncatedError(f"offset {offset} is outside a buffer of {len(mv)} bytes")
    return _read_struct(plan, mv, offset, len(mv))


def decode(plan: StructPlan, buf) -> Any:
    """Decode a struct that fills ``buf`` exactly (trailing bytes raise DecodeError)."""
    mv = _view(buf)
    obj, pos = _read_struct(plan, mv, 0, len(mv))
    if pos != len(mv):
        raise DecodeError(
            f"{plan.spec.name} v{plan.version}: {len(mv) - pos} trailing bytes after byte {pos}")
    return obj


# -- encoding: pass 1, exact size -------------------------------------------------------


def _get(obj, p) -> Any:
    try:
        return getattr(obj, p.attr)
    except AttributeError:
        raise EncodeError(f"{type(obj).__name__}.{p.attr} is not set") from None


def _utf8(p, v) -> bytes:
    if type(v) is not str:
        if not isinstance(v, str):
            raise EncodeError(f"{p.attr}: expected str, got {type(v).__name__}")
    try:
        return v.encode("utf-8")
    except UnicodeEncodeError as exc:
        raise EncodeError(f"{p.attr}: not encodable as UTF-8: {exc}") from None


def _nbytes(p, v) -> int:
    if type(v) is bytes:
        return len(v)
    if isinstance(v, (bytearray, memoryview)) or hasattr(v, "__buffer__"):
        try:
            mv = memoryview(v)
        except TypeError:
            pass
        else:
            if not mv.c_contiguous:
                raise EncodeError(f"{p.attr}: the bytes-like value is not contiguous")
            return mv.nbytes
    try:
        mv = memoryview(v)
    except TypeError:
        raise EncodeError(f"{p.attr}: expected a bytes-like object, got {type(v).__name__}") from None
    if not mv.c_contiguous:
        raise EncodeError(f"{p.attr}: the bytes-like value is not contiguous")
    return mv.nbytes


def _len_size(compact: bool, short: bool, n: int) -> int:
    if compact:
        return _uvarint_size(n + 1)
    return 2 if short else 4


def _null_value(p) -> int:
    if not p.nullable:
        raise EncodeError(f"{p.attr}: None is not allowed at this version")
    if p.kind == STRUCT:  # a null struct is the int8 marker -1
        return 1
    return 1 if p.compact else (2 if p.kind == STRING else 4)


def _size_value(p, v, cache: list) -> int:
    kind = p.kind
    if p.width:
        return p.width
    if v is None:
        return _null_value(p)
    if kind == STRING:
        raw = _utf8(p, v)
        cache.append(raw)
        n = len(raw)
        if not p.compact and n > 0x7FFF:
            raise EncodeError(f"{p.attr}: {n} bytes is longer than an int16 length allows")
        return _len_size(p.compact, True, n) + n
    if kind == BYTES or kind == RECORDS:
        n = _nbytes(p, v)
        return _len_size(p.compact, False, n) + n
    if kind == ARRAY:
        if type(v) is not list and not isinstance(v, (list, tuple)):
            raise EncodeError(f"{p.attr}: expected a list, got {type(v).__name__}")
        n = len(v)
        total = _len_size(p.compact, False, n)
        ek = p.elem_kind
        if ek == STRUCT:
            sub = p.sub
            cls = sub.cls
            for item in v:
                if not isinstance(item, cls):
                    raise EncodeError(
                        f"{p.attr}: expected {cls.__name__} items, got {type(item).__name__}")
                total += _size_struct(sub, item, cache)
            return total
        if ek == STRING:
            for item in v:
                if item is None:
                    raise EncodeError(f"{p.attr}: None in an array of strings")
                raw = _utf8(p, item)
                cache.append(raw)
                if not p.compact and len(raw) > 0x7FFF:
                    raise EncodeError(f"{p.attr}: {len(raw)} bytes is longer than an int16 length allows")
                total += _len_size(p.compact, True, len(raw)) + len(raw)
            return total
        if ek == UUID:
            return total + 16 * n
        return total + _ELEM[ek].size * n
    if kind == STRUCT:
        if not isinstance(v, p.sub.cls):
            raise EncodeError(f"{p.attr}: expected {p.sub.cls.__name__}, got {type(v).__name__}")
        return (1 if p.nullable else 0) + _size_struct(p.sub, v, cache)
    raise AssertionError(kind)


def _is_default(p, v) -> bool:
    dk = p.defkind
    if dk == DEF_NONE:
        return v is None
    if dk == DEF_EMPTY:
        if v is None:
            return False
        try:
            return len(v) == 0
        except TypeError:
            return False
    if p.kind == STRUCT:
        return v == p.sub.spec.default_instance()
    return v == p.default


def _check_unknown(unknown, plan: StructPlan) -> None:
    if type(unknown) is not tuple and not isinstance(unknown, (tuple, list)):
        raise EncodeError(f"{UNKNOWN_TAGGED} must be None or a sequence of (tag, bytes) pairs")
    for item in unknown:
        try:
            tag, data = item
        except (TypeError, ValueError):
            raise EncodeError(f"{UNKNOWN_TAGGED}: {item!r} is not a (tag, bytes) pair") from None
        if type(tag) is not int or not 0 <= tag <= 0xFFFFFFFF:
            raise EncodeError(f"{UNKNOWN_TAGGED}: tag {tag!r} is not an unsigned 32-bit int")
        if tag in plan.tags:
            raise EncodeError(f"{UNKNOWN_TAGGED}: tag {tag} is a known field at v{plan.version}")
        if not isinstance(data, (bytes, bytearray, memoryview)):
            raise EncodeError(f"{UNKNOWN_TAGGED}: tag {tag} data is not bytes-like")


def _size_struct(plan: StructPlan, obj, cache: list) -> int:
    total = 0
    for p in plan.fields:
        v = _get(obj, p)
        if p.width:
            total += p.width
        else:
            total += _size_value(p, v, cache)
    for p in plan.absent:
        if not p.ignorable:
            v = _get(obj, p)
            if not _is_default(p, v):
                raise EncodeError(
                    f"{plan.spec.name}.{p.attr} holds a non-default value ({v!r:.80}) but "
                    f"version {plan.version} does not have this field")
    if plan.flexible:
        count = 0
        for p in plan.tagged:
            v = _get(obj, p)
            if _is_default(p, v):
                continue
            count += 1
            idx = len(cache)
            cache.append(0)
            n = _size_value(p, v, cache)
            cache[idx] = n
            total += _uvarint_size(p.tag) + _uvarint_size(n) + n
        unknown = getattr(obj, UNKNOWN_TAGGED, None)
        if unknown:
            _check_unknown(unknown, plan)
            for tag, data in unknown:
                n = memoryview(data).nbytes
                count += 1
                total += _uvarint_size(tag) + _uvarint_size(n) + n
        total += _uvarint_size(count)
    else:
        unknown = getattr(obj, UNKNOWN_TAGGED, None)
        if unknown:
            raise EncodeError(
                f"{plan.spec.name} v{plan.version} is not flexible: it cannot carry the "
                f"unknown tagged fields this object holds")
    return total


# -- encoding: pass 2, write -------------------------------------------------------------


class _Writer:
    __slots__ = ("out", "pos", "cache", "ci")

    def __init__(self, out: bytearray, pos: int, cache: list) -> None:
        self.out = out
        self.pos = pos
        self.cache = cache
        self.ci = 0


def _write_len(w: _Writer, compact: bool, short: bool, n: int) -> None:
    if compact:
        w.pos = _write_uvarint(w.out, w.pos, n + 1)
    elif short:
        _I16.pack_into(w.out, w.pos, n)
        w.pos += 2
    else:
        _I32.pack_into(w.out, w.pos, n)
        w.pos += 4


def _pack(p, st, w: _Writer, v) -> None:
    try:
        st.pack_into(w.out, w.pos, v)
    except (_struct.error, TypeError, OverflowError) as exc:
        raise EncodeError(f"{p.attr}: cannot encode {v!r:.80} as {KIND_NAMES[p.kind if p.kind != ARRAY else p.elem_kind]}: {exc}") from None


def _check_int(p, kind: int, v) -> None:
    if type(v) is int or type(v) is bool:
        lo, hi = INT_RANGE[kind]
        if lo <= v <= hi:
            return
        raise EncodeError(f"{p.attr}: {v} is out of range for {KIND_NAMES[kind]}")
    if kind == FLOAT64 or kind == BOOL:
        return
    try:
        iv = v.__index__()
    except (AttributeError, TypeError):
        raise EncodeError(
            f"{p.attr}: cannot encode {v!r:.80} as {KIND_NAMES[kind]}: not an integer") from None
    lo, hi = INT_RANGE[kind]
    if not lo <= iv <= hi:
        raise EncodeError(f"{p.attr}: {iv} is out of range for {KIND_NAMES[kind]}")


def _write_fixed(p, kind: int, w: _Writer, v) -> None:
    if kind == BOOL:
        w.out[w.pos] = 1 if v else 0
        w.pos += 1
        return
    if kind == UUID:
        if not isinstance(v, _uuid.UUID):
            raise EncodeError(f"{p.attr}: expected uuid.UUID, got {type(v).__name__}")
        w.out[w.pos:w.pos + 16] = v.bytes
        w.pos += 16
        return
    if kind == FLOAT64:
        if not isinstance(v, (int, float)):
            raise EncodeError(f"{p.attr}: expected a float, got {type(v).__name__}")
    else:
        _check_int(p, kind, v)
    st = _ELEM[kind]
    _pack(p, st, w, v)
    w.pos += st.size


def _write_value(p, w: _Writer, v) -> None:
    kind = p.kind
    if p.width:
        _write_fixed(p, kind, w, v)
        return
    if v is None:
        if kind == STRUCT:
            w.out[w.pos] = 0xFF
            w.pos += 1
            return
        _write_len(w, p.compact, kind == STRING, -1)
        return
    if kind == STRING:
        raw = w.cache[w.ci]
        w.ci += 1
        _write_len(w, p.compact, True, len(raw))
        w.out[w.pos:w.pos + len(raw)] = raw
        w.pos += len(raw)
        return
    if kind == BYTES or kind == RECORDS:
        mv = memoryview(v).cast("B") if type(v) is not bytes else v
        n = len(mv)
        _write_len(w, p.compact, False, n)
        w.out[w.pos:w.pos + n] = mv
        w.pos += n
        return
    if kind == ARRAY:
        _write_len(w, p.compact, False, len(v))
        ek = p.elem_kind
        if ek == STRUCT:
            sub = p.sub
            for item in v:
                _write_struct(sub, item, w)
        elif ek == STRING:
            for _ in v:
                raw = w.cache[w.ci]
                w.ci += 1
                _write_len(w, p.compact, True, len(raw))
                w.out[w.pos:w.pos + len(raw)] = raw
                w.pos += len(raw)
        else:
            for item in v:
                _write_fixed(p, ek, w, item)
        return
    if kind == STRUCT:
        if p.nullable:
            w.out[w.pos] = 1
            w.pos += 1
        _write_struct(p.sub, v, w)
        return
    raise AssertionError(kind)


def _write_struct(plan: StructPlan, obj, w: _Writer) -> None:
    for p in plan.fields:
        _write_value(p, w, getattr(obj, p.attr))
    if not plan.flexible:
        return
    items = []
    for p in plan.tagged:
        v = getattr(obj, p.attr)
        if not _is_default(p, v):
            items.append((p.tag, p, v))
    unknown = getattr(obj, UNKNOWN_TAGGED, None)
    if unknown:
        for tag, data in unknown:
            items.append((tag, None, data))
        items.sort(key=lambda t: t[0])
    w.pos = _write_uvarint(w.out, w.pos, len(items))
    # Pass 1 cached each known tagged value's size in ascending tag order (the order
    # the items are written in), followed by what the value itself cached.
    for tag, p, v in items:
        w.pos = _write_uvarint(w.out, w.pos, tag)
        if p is None:
            raw = memoryview(v).cast("B")
            w.pos = _write_uvarint(w.out, w.pos, len(raw))
            w.out[w.pos:w.pos + len(raw)] = raw
            w.pos += len(raw)
        else:
            n = w.cache[w.ci]
            w.ci += 1
            w.pos = _write_uvarint(w.out, w.pos, n)
            start = w.pos
            _write_value(p, w, v)
            if w.pos - start != n:
                raise EncodeError(f"{p.attr}: value changed while it was being encoded")


def size(plan: StructPlan, obj) -> int:
    """The exact number of bytes :func:`encode` writes for ``obj`` at the plan's version."""
    if not isinstance(obj, plan.cls):
        raise EncodeError(f"expected {plan.cls.__name__}, got {type(obj).__name__}")
    return _size_struct(plan, obj, [])


def encode_parts(parts: Sequence[Tuple[StructPlan, Any]], size_prefix: bool = False) -> bytes:
    """Encode several structs back to back (a header then a body, say) into one buffer,
    optionally preceded by the int32 size of the rest (a Kafka frame)."""
    caches: List[list] = []
    total = 4 if size_prefix else 0
    for plan, obj in parts:
        if not isinstance(obj, plan.cls):
            raise EncodeError(f"expected {plan.cls.__name__}, got {type(obj).__name__}")
        cache: list = []
        total += _size_struct(plan, obj, cache)
        caches.append(cache)
    if size_prefix and total - 4 > 0x7FFFFFFF:
        raise EncodeError(f"a frame of {total - 4} bytes is larger than an int32 size allows")
    out = bytearray(total)
    pos = 0
    if size_prefix:
        _I32.pack_into(out, 0, total - 4)
        pos = 4
    for (plan, obj), cache in zip(parts, caches):
        w = _Writer(out, pos, cache)
        _write_struct(plan, obj, w)
        pos = w.pos
    if pos != total:
        raise EncodeError(f"encoded {pos} bytes where {total} were computed: a value changed")
    return bytes(out)


def encode(plan: StructPlan, obj) -> bytes:
    """The bytes of ``obj`` at the plan's version (exact size, one output buffer)."""
    return encode_parts(((plan, obj),), False)
