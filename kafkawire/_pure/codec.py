"""The pure-Python plan executor: exact size, encode and decode of a struct at a version.

It runs the plans of :mod:`kafkawire.protocol.schema.plan` (the Cython twin runs the same plans)
and gives identical bytes, values and exception types.  Each plan is turned once into
three generated Python functions (read, size, write) whose statements follow the plan's
fields; :mod:`kafkawire._pure.codec_compile` writes them, from the helpers here.

Encoding takes two passes: the first computes the exact size, caching every string's
UTF-8 bytes and every tagged value's size; the second writes into one buffer of exactly
that size.  Decoding checks every length and count against what remains of the buffer
(or of the enclosing tagged field) before reading or allocating anything.
"""

from __future__ import annotations

import gc as _gc
import struct as _struct
import uuid as _uuid
from typing import Any, Dict, List, Optional, Sequence, Tuple

from kafkawire._pure.codec_compile import _ELEM, _Cache, _Compiled, _Next, _Writer, compile_plan
from kafkawire._pure.primitives import read_uvarint, size_of_unsigned_varint as _uvarint_size
from kafkawire.errors import DecodeError, EncodeError, TruncatedError
from kafkawire.protocol.schema.plan import (
    ARRAY,
    BOOL,
    BYTES,
    DEF_EMPTY,
    DEF_NONE,
    FLOAT64,
    INT32_MAX,
    INT_RANGE,
    KIND_NAMES,
    RECORDS,
    STRING,
    STRUCT,
    UUID,
    FieldPlan,
    StructPlan,
)

__all__ = ["encode", "encode_parts", "size", "decode", "decode_from", "UNKNOWN_TAGGED"]

# The slot of every message object that keeps unknown tagged fields: None or a tuple of
# (tag, bytes) pairs in ascending tag order.
UNKNOWN_TAGGED = "_unknown_tagged"


_I32 = _struct.Struct(">i")
_I16 = _struct.Struct(">h")
_UUID_NEW = _uuid.UUID.__new__
_ZERO_UUID = _uuid.UUID(int=0)
_SAFE_UNKNOWN = _uuid.SafeUUID.unknown
_set = object.__setattr__

# -- varints --------------------------------------------------------------------------


def _read_uvarint(mv: memoryview, pos: int, end: int) -> Tuple[int, int]:
    if pos < end:  # the one-byte case inline: it is nearly every length and count
        b = mv[pos]
        if b < 0x80:
            return b, pos + 1
    return read_uvarint(mv, pos, end, 5, 32, "unsigned varint")


def _write_uvarint(out: bytearray, pos: int, v: int) -> int:
    while v > 0x7F:
        out[pos] = (v & 0x7F) | 0x80
        v >>= 7
        pos += 1
    out[pos] = v
    return pos + 1


def _truncated(what: str, pos: int, need: int, end: int) -> TruncatedError:
    return TruncatedError(f"truncated {what} at byte {pos}: needs {need} bytes, {max(end - pos, 0)} remain")


# -- decoding -------------------------------------------------------------------------


def _read_len(compact: bool, short: bool, mv: memoryview, pos: int, end: int, what: str) -> Tuple[int, int]:
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


def _null_check(p: FieldPlan, n: int, pos: int, what: str) -> None:
    if n < -1:
        raise DecodeError(f"{p.attr}: negative {what} length {n} before byte {pos}")
    if n == -1 and not p.nullable:
        raise DecodeError(f"{p.attr}: null {what} before byte {pos} where null is not allowed")


def _uuid_from(raw: memoryview) -> _uuid.UUID:
    i = int.from_bytes(raw, "big")
    if not i:
        return _ZERO_UUID
    u = _UUID_NEW(_uuid.UUID)
    _set(u, "int", i)
    _set(u, "is_safe", _SAFE_UNKNOWN)
    return u


def _read_text(mv: memoryview, pos: int, n: int, end: int, attr: str) -> str:
    if n > end - pos:
        raise _truncated(f"{attr} string", pos, n, end)
    try:
        return str(mv[pos : pos + n], "utf-8")
    except UnicodeDecodeError as exc:
        raise DecodeError(f"{attr}: string at byte {pos} is not valid UTF-8: {exc}") from None


def _read_field(p: FieldPlan, mv: memoryview, pos: int, end: int) -> Tuple[Any, int]:
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
            return mv[pos : pos + n], pos + n
        return bytes(mv[pos : pos + n]), pos + n
    if kind == ARRAY:
        n, pos = _read_len(p.compact, False, mv, pos, end, "array")
        if n < 0:
            _null_check(p, n, pos, "array")
            return None, pos
        ek = p.elem_kind
        if ek == STRUCT:
            sub = p.sub
            assert sub is not None  # a struct field's plan has its struct's plan
            if n > end - pos or n * sub.min_size > end - pos:
                raise _truncated(f"{p.attr} array of {n}", pos, n * max(sub.min_size, 1), end)
            out: List[Any] = []
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
            out = [_uuid_from(mv[pos + 16 * i : pos + 16 * i + 16]) for i in range(n)]
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
        sub = p.sub
        assert sub is not None
        if p.nullable:
            if p.tag >= 0:  # a tagged struct's marker is an unsigned varint: 0 null
                marker, pos = _read_uvarint(mv, pos, end)
                if marker == 0:
                    return None, pos
                return _read_struct(sub, mv, pos, end)
            if pos >= end:
                raise _truncated(f"{p.attr} marker", pos, 1, end)
            marker = mv[pos]
            pos += 1
            if marker >= 0x80:  # negative int8: null
                return None, pos
        return _read_struct(sub, mv, pos, end)
    if kind == UUID:
        if end - pos < 16:
            raise _truncated(f"{p.attr} uuid", pos, 16, end)
        return _uuid_from(mv[pos : pos + 16]), pos + 16
    st = _ELEM[kind]
    if end - pos < st.size:
        raise _truncated(f"{p.attr} {KIND_NAMES[kind]}", pos, st.size, end)
    return st.unpack_from(mv, pos)[0], pos + st.size


def _read_tags(plan: StructPlan, obj: Any, mv: memoryview, pos: int, end: int) -> int:
    """Read a tagged-field section into ``obj`` (known tags by name, the rest kept raw);
    the tagged fields already hold their defaults."""
    tagged = plan.tagged
    unknown: Optional[List[Tuple[int, bytes]]] = None
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
                        f"but its value takes {after - pos}"
                    )
                _set(obj, p.attr, v)
                break
        else:
            if tag in plan.reserved_tags:
                raise DecodeError(
                    f"tagged field {tag} at byte {pos} is not valid at v{plan.version} of {plan.spec.name}"
                )
            if unknown is None:
                unknown = []
            unknown.append((tag, bytes(mv[pos : pos + n])))
        pos += n
    if unknown is None:
        _set(obj, UNKNOWN_TAGGED, None)
    else:
        unknown.sort(key=lambda t: t[0])
        _set(obj, UNKNOWN_TAGGED, tuple(unknown))
    return pos


def _read_struct(plan: StructPlan, mv: memoryview, pos: int, end: int) -> Tuple[Any, int]:
    compiled: _Compiled = plan.pure
    if compiled is None:
        compiled = _compile(plan)
    return compiled.read(mv, pos, end)


def _view(buf: Any) -> memoryview:
    if type(buf) is bytes:  # always one-dimensional unsigned bytes
        return memoryview(buf)
    try:
        mv = memoryview(buf)
    except TypeError:
        raise DecodeError(f"expected a bytes-like object, got {type(buf).__name__}") from None
    if mv.ndim != 1 or mv.itemsize != 1 or mv.format != "B":
        try:
            mv = mv.cast("B")
        except TypeError as exc:
            raise DecodeError(f"expected a contiguous bytes-like object: {exc}") from None
    return mv


def decode_from(plan: StructPlan, buf: Any, offset: int = 0) -> Tuple[Any, int]:
    """Decode one struct at ``offset``; returns ``(object, offset after it)``."""
    mv = _view(buf)
    if offset < 0 or offset > len(mv):
        raise TruncatedError(f"offset {offset} is outside a buffer of {len(mv)} bytes")
    # Decoding allocates many containers and makes no cycles: pause the cyclic GC.
    was = _gc.isenabled()
    _gc.disable()
    try:
        return _read_struct(plan, mv, offset, len(mv))
    finally:
        if was:
            _gc.enable()


# Buffers up to this size decode with the cyclic GC left as it is.
_SMALL = 4096


def decode(plan: StructPlan, buf: Any) -> Any:
    """Decode a struct that fills ``buf`` exactly (trailing bytes raise DecodeError)."""
    mv = _view(buf)
    compiled: _Compiled = plan.pure
    if compiled is None:
        compiled = _compile(plan)
    end = len(mv)
    if end <= _SMALL:  # too few objects to be worth pausing the cyclic GC for
        obj, pos = compiled.read(mv, 0, end)
    else:
        was = _gc.isenabled()
        _gc.disable()
        try:
            obj, pos = compiled.read(mv, 0, end)
        finally:
            if was:
                _gc.enable()
    if pos != len(mv):
        raise DecodeError(
            f"{plan.spec.name} v{plan.version}: {len(mv) - pos} trailing bytes after byte {pos}"
        )
    return obj


# -- encoding: pass 1, exact size -------------------------------------------------------


def _get(obj: Any, p: FieldPlan) -> Any:
    try:
        return getattr(obj, p.attr)
    except AttributeError:
        raise EncodeError(f"{type(obj).__name__}.{p.attr} is not set") from None


def _utf8(p: FieldPlan, v: Any) -> bytes:
    if type(v) is not str:
        if not isinstance(v, str):
            raise EncodeError(f"{p.attr}: expected str, got {type(v).__name__}")
    try:
        return v.encode("utf-8")
    except UnicodeEncodeError as exc:
        raise EncodeError(f"{p.attr}: not encodable as UTF-8: {exc}") from None


def _nbytes(p: FieldPlan, v: Any) -> int:
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


def _null_value(p: FieldPlan) -> int:
    if not p.nullable:
        raise EncodeError(f"{p.attr}: None is not allowed at this version")
    if p.kind == STRUCT:  # a null struct is a one-byte marker
        return 1
    return 1 if p.compact else (2 if p.kind == STRING else 4)


def _size_value(p: FieldPlan, v: Any, cache: _Cache) -> int:
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
            assert sub is not None
            cls = sub.cls
            for item in v:
                if not isinstance(item, cls):
                    raise EncodeError(f"{p.attr}: expected {cls.__name__} items, got {type(item).__name__}")
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
        sub = p.sub
        assert sub is not None
        if not isinstance(v, sub.cls):
            raise EncodeError(f"{p.attr}: expected {sub.cls.__name__}, got {type(v).__name__}")
        return (1 if p.nullable else 0) + _size_struct(sub, v, cache)
    raise AssertionError(kind)


def _is_default(p: FieldPlan, v: Any) -> bool:
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
    # == of a message class or a plain value: a bool, typed Any by its operands
    same: bool
    if p.kind == STRUCT:
        sub = p.sub
        assert sub is not None
        same = v == sub.spec.default_instance()
    else:
        same = v == p.default
    return same


def _check_unknown(unknown: Any, plan: StructPlan) -> None:
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
        if tag in plan.reserved_tags:
            raise EncodeError(
                f"{UNKNOWN_TAGGED}: tag {tag} is a field of {plan.spec.name} at "
                f"other versions, not an unknown one at v{plan.version}"
            )
        if not isinstance(data, (bytes, bytearray, memoryview)):
            raise EncodeError(f"{UNKNOWN_TAGGED}: tag {tag} data is not bytes-like")


def _size_tags(plan: StructPlan, obj: Any, cache: _Cache) -> int:
    """The size of a tagged-field section, caching each written known value's size."""
    total = 0
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
    return total + _uvarint_size(count)


def _absent_error(plan: StructPlan, p: FieldPlan, v: Any) -> EncodeError:
    return EncodeError(
        f"{plan.spec.name}.{p.attr} holds a non-default value ({v!r:.80}) but "
        f"version {plan.version} does not have this field"
    )


def _not_flexible(plan: StructPlan) -> EncodeError:
    return EncodeError(
        f"{plan.spec.name} v{plan.version} is not flexible: it cannot carry the "
        f"unknown tagged fields this object holds"
    )


def _size_struct(plan: StructPlan, obj: Any, cache: _Cache) -> int:
    compiled: _Compiled = plan.pure
    if compiled is None:
        compiled = _compile(plan)
    return compiled.size(obj, cache)


# -- encoding: pass 2, write -------------------------------------------------------------


def _write_len(out: bytearray, pos: int, compact: bool, short: bool, n: int) -> int:
    if compact:
        return _write_uvarint(out, pos, n + 1)
    if short:
        _I16.pack_into(out, pos, n)
        return pos + 2
    _I32.pack_into(out, pos, n)
    return pos + 4


def _check_int(p: FieldPlan, kind: int, v: Any) -> None:
    if type(v) is int or type(v) is bool:
        lo, hi = INT_RANGE[kind]
        if lo <= v <= hi:
            return
        raise EncodeError(f"{p.attr}: {v} is out of range for {KIND_NAMES[kind]}")
    try:
        iv = v.__index__()
    except (AttributeError, TypeError):
        raise EncodeError(
            f"{p.attr}: cannot encode {v!r:.80} as {KIND_NAMES[kind]}: not an integer"
        ) from None
    lo, hi = INT_RANGE[kind]
    if not lo <= iv <= hi:
        raise EncodeError(f"{p.attr}: {iv} is out of range for {KIND_NAMES[kind]}")


def _check_fixed(p: FieldPlan, kind: int, v: Any) -> None:
    """Raise EncodeError if ``v`` cannot be written as ``kind`` (BOOL takes anything)."""
    if kind == BOOL:
        return
    if kind == UUID:
        if not isinstance(v, _uuid.UUID):
            raise EncodeError(f"{p.attr}: expected uuid.UUID, got {type(v).__name__}")
        return
    if kind == FLOAT64:
        if not isinstance(v, (int, float)):
            raise EncodeError(f"{p.attr}: expected a float, got {type(v).__name__}")
        try:
            _ELEM[FLOAT64].pack(v)
        except (OverflowError, _struct.error) as exc:
            raise EncodeError(f"{p.attr}: cannot encode {v!r:.80} as float64: {exc}") from None
        return
    _check_int(p, kind, v)


def _run_error(run: Sequence[FieldPlan], obj: Any) -> EncodeError:
    """The EncodeError for a run of fixed fields that ``struct`` refused to pack."""
    for p in run:
        _check_fixed(p, p.kind, getattr(obj, p.attr))
    return EncodeError(f"{run[0].attr}: a value changed while it was being encoded")


def _write_fixed(p: FieldPlan, kind: int, v: Any, out: bytearray, pos: int) -> int:
    if kind == BOOL:
        out[pos] = 1 if v else 0
        return pos + 1
    _check_fixed(p, kind, v)
    if kind == UUID:
        out[pos : pos + 16] = v.bytes
        return pos + 16
    st = _ELEM[kind]
    st.pack_into(out, pos, v)
    return pos + st.size


def _write_value(p: FieldPlan, v: Any, out: bytearray, pos: int, nxt: _Next) -> int:
    kind = p.kind
    if p.width:
        return _write_fixed(p, kind, v, out, pos)
    if v is None:
        if kind == STRUCT:  # the int8 marker -1, or (tagged) the unsigned varint 0
            out[pos] = 0xFF if p.tag < 0 else 0
            return pos + 1
        return _write_len(out, pos, p.compact, kind == STRING, -1)
    if kind == STRING:
        raw = nxt()
        n = len(raw)
        pos = _write_len(out, pos, p.compact, True, n)
        out[pos : pos + n] = raw
        return pos + n
    if kind == BYTES or kind == RECORDS:
        mv = v if type(v) is bytes else memoryview(v).cast("B")
        n = len(mv)
        pos = _write_len(out, pos, p.compact, False, n)
        out[pos : pos + n] = mv
        return pos + n
    if kind == ARRAY:
        pos = _write_len(out, pos, p.compact, False, len(v))
        ek = p.elem_kind
        if ek == STRUCT:
            sub = p.sub
            assert sub is not None
            write = _writer(sub)
            for item in v:
                pos = write(item, out, pos, nxt)
        elif ek == STRING:
            for _ in v:
                raw = nxt()
                n = len(raw)
                pos = _write_len(out, pos, p.compact, True, n)
                out[pos : pos + n] = raw
                pos += n
        else:
            for item in v:
                pos = _write_fixed(p, ek, item, out, pos)
        return pos
    if kind == STRUCT:
        if p.nullable:
            out[pos] = 1
            pos += 1
        sub = p.sub
        assert sub is not None
        return _writer(sub)(v, out, pos, nxt)
    raise AssertionError(kind)


def _write_tags(plan: StructPlan, obj: Any, out: bytearray, pos: int, nxt: _Next) -> int:
    items: List[Tuple[int, Optional[FieldPlan], Any]] = []
    for p in plan.tagged:
        v = getattr(obj, p.attr)
        if not _is_default(p, v):
            items.append((p.tag, p, v))
    unknown = getattr(obj, UNKNOWN_TAGGED, None)
    if unknown:
        for tag, data in unknown:
            items.append((tag, None, data))
        items.sort(key=lambda t: t[0])
    pos = _write_uvarint(out, pos, len(items))
    # Pass 1 cached each known tagged value's size in ascending tag order (the order
    # the items are written in), followed by what the value itself cached.
    for tag, known, v in items:
        pos = _write_uvarint(out, pos, tag)
        if known is None:
            raw = memoryview(v).cast("B")
            pos = _write_uvarint(out, pos, len(raw))
            out[pos : pos + len(raw)] = raw
            pos += len(raw)
        else:
            n = nxt()
            pos = _write_uvarint(out, pos, n)
            start = pos
            pos = _write_value(known, v, out, pos, nxt)
            if pos - start != n:
                raise EncodeError(f"{known.attr}: value changed while it was being encoded")
    return pos


def _writer(plan: StructPlan) -> _Writer:
    compiled: _Compiled = plan.pure
    if compiled is None:
        compiled = _compile(plan)
    return compiled.write


_FMT: Dict[Tuple[str, int], _struct.Struct] = {}


def _array_fmt(code: str, n: int) -> _struct.Struct:
    key = (code, n)
    st = _FMT.get(key)
    if st is None:
        st = _struct.Struct(">" + str(n) + code)
        if len(_FMT) < 4096:
            _FMT[key] = st
    return st


def _trunc_run(run: Sequence[FieldPlan], pos: int, w: int, end: int) -> TruncatedError:
    return _truncated(f"{run[0].attr} {KIND_NAMES[run[0].kind]}", pos, w, end)


def _bad_count(p: FieldPlan, n: int, pos: int) -> DecodeError:
    if n == -1:
        return DecodeError(f"{p.attr}: null array before byte {pos} where null is not allowed")
    return DecodeError(f"{p.attr}: negative array length {n} before byte {pos}")


def _not_list(p: FieldPlan, v: Any) -> EncodeError:
    return EncodeError(f"{p.attr}: expected a list, got {type(v).__name__}")


def _runtime() -> Dict[str, Any]:
    """What the generated functions call: the general helpers above, by the names the
    generated source uses."""
    return {
        "new": object.__new__,
        "set": _set,
        "read_field": _read_field,
        "read_tags": _read_tags,
        "read_uvarint": _read_uvarint,
        "trunc": _truncated,
        "trunc_run": _trunc_run,
        "bad_count": _bad_count,
        "I32": _I32.unpack_from,
        "I16": _I16.unpack_from,
        "str": str,
        "UnicodeDecodeError": UnicodeDecodeError,
        "I32P": _I32.pack_into,
        "I16P": _I16.pack_into,
        "array_fmt": _array_fmt,
        "size_value": _size_value,
        "size_tags": _size_tags,
        "is_default": _is_default,
        "absent_error": _absent_error,
        "not_flexible": _not_flexible,
        "not_list": _not_list,
        "write_value": _write_value,
        "write_tags": _write_tags,
        "write_uvarint": _write_uvarint,
        "run_error": _run_error,
        "check_fixed": _check_fixed,
        "uvarint_size": _uvarint_size,
        "EncodeError": EncodeError,
        "struct_error": _struct.error,
        "UNKNOWN": UNKNOWN_TAGGED,
        "getattr": getattr,
        "isinstance": isinstance,
        "len": len,
        "list": list,
        "tuple": tuple,
        "type": type,
        "range": range,
        "bytes": bytes,
        "FLOAT_TYPES": (int, float),
    }


def _compile(plan: StructPlan) -> _Compiled:
    """``plan`` compiled to Python functions (and its nested plans with it)."""
    return compile_plan(plan, _RUNTIME)


def _sized(parts: Sequence[Tuple[StructPlan, Any]]) -> Tuple[int, List[_Cache]]:
    caches: List[_Cache] = []
    total = 0
    for plan, obj in parts:
        if not isinstance(obj, plan.cls):
            raise EncodeError(f"expected {plan.cls.__name__}, got {type(obj).__name__}")
        cache: _Cache = []
        try:
            total += _size_struct(plan, obj, cache)
        except AttributeError as exc:
            if exc.name is None:
                raise EncodeError(f"{type(obj).__name__}: a field is not set ({exc})") from None
            owner = obj if exc.obj is None else exc.obj
            raise EncodeError(f"{type(owner).__name__}.{exc.name} is not set") from None
        caches.append(cache)
    return total, caches


def size(plan: StructPlan, obj: Any) -> int:
    """The exact number of bytes :func:`encode` writes for ``obj`` at the plan's version."""
    return _sized(((plan, obj),))[0]


def encode_parts(parts: Sequence[Tuple[StructPlan, Any]], size_prefix: bool = False) -> bytes:
    """Encode several structs back to back (a header then a body, say) into one buffer,
    optionally preceded by the int32 size of the rest (a Kafka frame)."""
    body, caches = _sized(parts)
    total = body + (4 if size_prefix else 0)
    if size_prefix and body > INT32_MAX:
        raise EncodeError(f"a frame of {body} bytes is larger than an int32 size allows")
    out = bytearray(total)
    pos = 0
    if size_prefix:
        _I32.pack_into(out, 0, body)
        pos = 4
    try:
        for (plan, obj), cache in zip(parts, caches):
            pos = _writer(plan)(obj, out, pos, iter(cache).__next__)
    except (AttributeError, StopIteration, IndexError, _struct.error) as exc:
        raise EncodeError(f"a value changed while it was being encoded ({exc})") from None
    if pos != total or len(out) != total:
        raise EncodeError(f"encoded {pos} bytes where {total} were computed: a value changed")
    return bytes(out)


def encode(plan: StructPlan, obj: Any) -> bytes:
    """The bytes of ``obj`` at the plan's version (exact size, one output buffer)."""
    return encode_parts(((plan, obj),), False)


_RUNTIME = _runtime()
