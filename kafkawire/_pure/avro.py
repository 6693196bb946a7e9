"""Avro values to Arrow builders, in pure Python: the twin of ``kafkawire._fast.avro``.

:func:`decode_column` runs the plans of :mod:`kafkawire.avro.plan` over a binary
column, one value per row, appending to one builder per output array; see
:mod:`kafkawire.avro.decode` for the public API.  Every length and count is checked
against the bytes that remain before anything is appended.
"""

from __future__ import annotations

import struct
from array import array
from typing import Any, Callable, Dict, List, Optional, Sequence, Tuple

from kafkawire.avro import plan as P
from kafkawire.errors import BadMagicByteError, PayloadDecodeError, TruncatedPayloadError

_I32 = struct.Struct("<i")
_I64 = struct.Struct("<q")
_F32 = struct.Struct("<f")
_F64 = struct.Struct("<d")
_DURATION_IN = struct.Struct("<III")
_DURATION_OUT = struct.Struct("<iiq")
_INT32_MAX = (1 << 31) - 1


class _Col:
    __slots__ = ("kind", "width", "kids", "data", "valid", "offs", "nulls")

    def __init__(self, kind: int, width: int, kids: Sequence[int]) -> None:
        self.kind = kind
        self.width = width
        self.kids = kids
        self.data = bytearray()
        self.valid = bytearray()  # one byte per value: 1 valid, 0 null
        self.offs = array("i", [0])
        self.nulls = 0


def _fill(cols: List[_Col], b: int, valid: int) -> None:
    """Append a null (valid=0) or an empty value (valid=1) to builder ``b``; a struct's
    children get empty values, a null builder only nulls."""
    c = cols[b]
    kind = c.kind
    if kind == P.B_NULL:
        valid = 0
    c.valid.append(valid)
    if not valid:
        c.nulls += 1
    if kind == P.B_FIXED:
        c.data += bytes(c.width)
    elif kind == P.B_VAR:
        c.offs.append(len(c.data))
    elif kind == P.B_LIST or kind == P.B_MAP:
        c.offs.append(len(cols[c.kids[0]].valid))
    elif kind == P.B_STRUCT:
        for k in c.kids:
            _fill(cols, k, 1)


def _truncated(what: str, pos: int) -> TruncatedPayloadError:
    return TruncatedPayloadError(f"the value ends inside {what} at byte {pos}")


def _varint(buf: Any, pos: int, end: int, last_shift: int, last_max: int, bits: int) -> Tuple[int, int]:
    """A zigzag varint of ``bits`` bits: its last byte (at ``last_shift``) at most ``last_max``."""
    result = shift = 0
    start = pos
    while True:
        if pos >= end:
            raise _truncated("a varint", start)
        b = buf[pos]
        pos += 1
        if shift == last_shift and b > last_max:
            raise PayloadDecodeError(
                f"the {'int' if bits == 32 else 'long'} at byte {start} does not fit in {bits} bits"
            )
        result |= (b & 0x7F) << shift
        if not b & 0x80:
            return (result >> 1) ^ -(result & 1), pos
        shift += 7


def _long(buf: Any, pos: int, end: int) -> Tuple[int, int]:
    return _varint(buf, pos, end, 63, 1, 64)


def _int(buf: Any, pos: int, end: int) -> Tuple[int, int]:
    return _varint(buf, pos, end, 28, 0x0F, 32)


def _length(buf: Any, pos: int, end: int, what: str) -> Tuple[int, int]:
    n, after = _long(buf, pos, end)
    if n < 0:
        raise PayloadDecodeError(f"the {what} length {n} at byte {pos} is negative")
    if n > end - after:
        raise _truncated(f"a {what} of {n} bytes", after)
    return n, after


def _count(buf: Any, pos: int, end: int, least: int, total: int) -> Tuple[int, int]:
    """An array or map block count (0 ends), its block byte size skipped; bounded by
    the bytes that remain (or MAX_EMPTY_ITEMS for items of no bytes)."""
    start = pos
    n, pos = _long(buf, pos, end)
    if n < 0:
        if n == -(1 << 63):
            raise PayloadDecodeError(f"the block count at byte {start} is out of range")
        n = -n
        _, pos = _length(buf, pos, end, "block")
    if least > 0:
        if n > (end - pos) // least:
            raise _truncated(f"a block of {n} items", start)
    elif total + n > P.MAX_EMPTY_ITEMS:
        raise PayloadDecodeError(
            f"a block of {n} items of no bytes at byte {start}: over {P.MAX_EMPTY_ITEMS}"
        )
    return n, pos


class _Runner:
    """One plan run over one value's bytes."""

    __slots__ = ("nodes", "kids", "consts", "cols", "root")

    def __init__(self, plan: P.Plan, cols: List[_Col]) -> None:
        self.root = plan.root
        self.nodes = plan.nodes
        self.kids = plan.kids
        self.consts = plan.consts
        self.cols = cols

    def run(self, i: int, buf: Any, pos: int, end: int) -> int:  # noqa: C901 - one branch per op
        op, out, a, b, k0, nk = self.nodes[i]
        cols = self.cols
        c = cols[out] if out >= 0 else None
        if op == P.OP_RECORD:
            for k in range(k0, k0 + nk):
                pos = self.run(self.kids[k], buf, pos, end)
            if c is not None:
                c.valid.append(1)
            return pos
        if op == P.OP_UNION:
            start = pos
            index, pos = _long(buf, pos, end)
            if not 0 <= index < nk:
                raise PayloadDecodeError(f"union branch {index} at byte {start}; the writer's union has {nk}")
            return self.run(self.kids[k0 + index], buf, pos, end)
        if op == P.OP_NULL:
            if c is not None:
                _fill(cols, out, 0)
            return pos
        if op == P.OP_MEMBER:
            assert c is not None
            c.valid.append(1)
            for m, kb in enumerate(c.kids):
                if m != a:
                    _fill(cols, kb, 0)
            return self.run(self.kids[k0], buf, pos, end)
        if op == P.OP_INT or op == P.OP_INT_LONG or op == P.OP_INT_FLOAT or op == P.OP_INT_DOUBLE:
            v, pos = _int(buf, pos, end)
        elif op == P.OP_LONG or op == P.OP_LONG_FLOAT or op == P.OP_LONG_DOUBLE:
            v, pos = _long(buf, pos, end)
        elif op == P.OP_FLOAT or op == P.OP_FLOAT_DOUBLE:
            if end - pos < 4:
                raise _truncated("a float", pos)
            v = _F32.unpack_from(buf, pos)[0]
            pos += 4
        elif op == P.OP_DOUBLE:
            if end - pos < 8:
                raise _truncated("a double", pos)
            v = _F64.unpack_from(buf, pos)[0]
            pos += 8
        elif op == P.OP_BOOL:
            if pos >= end:
                raise _truncated("a boolean", pos)
            v = buf[pos] == 1  # as Java's decoder reads it
            pos += 1
        elif op == P.OP_BYTES:
            n, pos = _length(buf, pos, end, "bytes")
            if c is not None:
                c.data += buf[pos : pos + n]
                if len(c.data) > _INT32_MAX:
                    raise PayloadDecodeError("over 2 GiB of bytes in one column of one batch")
                c.offs.append(len(c.data))
                c.valid.append(1)
            return pos + n
        elif op == P.OP_FIXED or op == P.OP_DURATION:
            n = 12 if op == P.OP_DURATION else a
            if end - pos < n:
                raise _truncated(f"a fixed of {n} bytes", pos)
            if c is not None:
                if op == P.OP_FIXED:
                    c.data += buf[pos : pos + n]
                else:
                    months, days, millis = _DURATION_IN.unpack_from(buf, pos)
                    if months > _INT32_MAX or days > _INT32_MAX:
                        raise PayloadDecodeError(
                            f"a duration of {months} months, {days} days at byte {pos}: over Arrow's int32"
                        )
                    c.data += _DURATION_OUT.pack(months, days, millis * 1_000_000)
                c.valid.append(1)
            return pos + n
        elif op == P.OP_DECIMAL:
            if a == 0:
                n, pos = _length(buf, pos, end, "decimal")
            else:
                n = a
                if end - pos < n:
                    raise _truncated(f"a decimal of {n} bytes", pos)
            if c is not None:
                unscaled = int.from_bytes(buf[pos : pos + n], "big", signed=True)
                try:
                    c.data += unscaled.to_bytes(b, "little", signed=True)
                except OverflowError:
                    raise PayloadDecodeError(
                        f"a decimal of {n} bytes at byte {pos} is wider than {b * 8} bits"
                    ) from None
                c.valid.append(1)
            return pos + n
        elif op == P.OP_ENUM:
            start = pos
            index, pos = _int(buf, pos, end)
            if not 0 <= index < a:
                raise PayloadDecodeError(
                    f"enum index {index} at byte {start}; the writer's enum has {a} symbols"
                )
            if c is not None:
                mapped = self.kids[k0 + index]
                if mapped < 0:
                    raise PayloadDecodeError(self.consts[b].decode())
                c.data += _I32.pack(mapped)
                c.valid.append(1)
            return pos
        elif op == P.OP_ARRAY or op == P.OP_MAP:
            item = self.kids[k0]
            least = a if op == P.OP_ARRAY else 1 + b  # a map entry: its key's length, then the value
            keys = cols[a] if op == P.OP_MAP and a >= 0 else None
            total = 0
            while True:
                n, pos = _count(buf, pos, end, least, total)
                if n == 0:
                    break
                total += n
                for _ in range(n):
                    if op == P.OP_MAP:
                        kn, pos = _length(buf, pos, end, "map key")
                        if keys is not None:
                            keys.data += buf[pos : pos + kn]
                            keys.offs.append(len(keys.data))
                            keys.valid.append(1)
                        pos += kn
                    pos = self.run(item, buf, pos, end)
            if c is not None:
                c.offs.append(len(cols[c.kids[0]].valid))
                c.valid.append(1)
            return pos
        elif op == P.OP_DEFAULT:
            const = self.consts[a]
            self.run(self.kids[k0], const, 0, len(const))
            return pos
        elif op == P.OP_ERROR:
            raise PayloadDecodeError(f"{self.consts[a].decode()} (the union branch ends at byte {pos})")
        else:  # pragma: no cover - the compiler emits no other op
            raise PayloadDecodeError(f"unknown plan op {op}")
        if c is not None:
            if op == P.OP_INT:
                c.data += _I32.pack(v)
            elif op == P.OP_LONG or op == P.OP_INT_LONG:
                c.data += _I64.pack(v)
            elif op == P.OP_BOOL:
                c.data.append(v)
            elif op == P.OP_FLOAT or op == P.OP_INT_FLOAT or op == P.OP_LONG_FLOAT:
                c.data += _F32.pack(float(v))
            else:
                c.data += _F64.pack(float(v))
            c.valid.append(1)
        return pos


def decode_column(
    count: int,
    array_offset: int,
    validity: Optional[Any],
    offsets: Any,
    data: Any,
    layout: Sequence[Tuple[int, int, Tuple[int, ...]]],
    plan_for: Callable[[int], P.Plan],
    framed: bool,
) -> List[Tuple[Any, Any, Any, int]]:
    """Decode ``count`` values of an Arrow binary column (its validity bitmap or None,
    int32 offsets and data buffers, from ``array_offset``) into the builders of
    ``layout``; each builder's (data, validity bytes, offsets, null count).

    A framed value's plan is ``plan_for(schema id)`` (asked once per id per call); an
    unframed column's is ``plan_for(-1)``.  A null value is a null row.  An error is
    raised with the row (from 0) in its ``row`` attribute.
    """
    cols = [_Col(kind, width, kids) for kind, width, kids in layout]
    offs = memoryview(offsets).cast("B").cast("i")
    buf = memoryview(data).cast("B")
    bits = memoryview(validity).cast("B") if validity is not None else None
    runners: Dict[int, _Runner] = {}
    for i in range(count):
        row = array_offset + i
        try:
            if bits is not None and not (bits[row >> 3] >> (row & 7)) & 1:
                _fill(cols, 0, 0)
                continue
            pos, end = offs[row], offs[row + 1]
            schema_id = -1
            if framed:
                if end - pos < 5:
                    if end > pos and buf[pos] != 0:
                        raise BadMagicByteError(f"magic byte {buf[pos]}, expected 0")
                    raise TruncatedPayloadError(
                        f"a framed value of {end - pos} bytes, shorter than its 5-byte header"
                    )
                if buf[pos] != 0:
                    raise BadMagicByteError(f"magic byte {buf[pos]}, expected 0")
                schema_id = int.from_bytes(buf[pos + 1 : pos + 5], "big")
                pos += 5
            runner = runners.get(schema_id)
            if runner is None:
                runner = runners[schema_id] = _Runner(plan_for(schema_id), cols)
            pos = runner.run(runner.root, buf, pos, end)
            if pos != end:
                raise PayloadDecodeError(f"{end - pos} bytes after the value")
        except Exception as exc:
            if not hasattr(exc, "row"):
                exc.row = i  # type: ignore[attr-defined]
            raise
    return [(c.data, c.valid, c.offs, c.nulls) for c in cols]
