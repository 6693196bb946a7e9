"""Avro values to Arrow builders, in pure Python: the twin of ``kafkawire._fast.avro``.

:func:`decode_column` runs the plans of :mod:`kafkawire.avro.plan` over a binary
column, one value per row, appending to one builder per output array; see
:mod:`kafkawire.avro.decode` for the public API.  Every length and count is checked
against the bytes that remain before anything is appended.
"""

from __future__ import annotations

import struct
from typing import Any, Callable, Dict, List, Optional, Sequence, Tuple

from kafkawire._pure.arrow_builders import (
    F32,
    F64,
    I32,
    I64,
    INT32_MAX,
    Col,
    decode_rows,
    end_list,
    fill,
    put_var,
    truncated,
)
from kafkawire.avro import plan as P
from kafkawire.errors import PayloadDecodeError

_DURATION_IN = struct.Struct("<III")
_DURATION_OUT = struct.Struct("<iiq")


def _varint(buf: Any, pos: int, end: int, last_shift: int, last_max: int, bits: int) -> Tuple[int, int]:
    """A zigzag varint of ``bits`` bits: its last byte (at ``last_shift``) at most ``last_max``."""
    result = shift = 0
    start = pos
    while True:
        if pos >= end:
            raise truncated("a varint", start)
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
        raise truncated(f"a {what} of {n} bytes", after)
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
            raise truncated(f"a block of {n} items", start)
    elif total + n > P.MAX_EMPTY_ITEMS:
        raise PayloadDecodeError(
            f"a block of {n} items of no bytes at byte {start}: over {P.MAX_EMPTY_ITEMS}"
        )
    return n, pos


class _Runner:
    """One plan run over one value's bytes."""

    __slots__ = ("nodes", "kids", "consts", "cols", "root")

    def __init__(self, plan: P.Plan, cols: List[Col]) -> None:
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
                fill(cols, out, 0)
            return pos
        if op == P.OP_MEMBER:
            assert c is not None
            c.valid.append(1)
            for m, kb in enumerate(c.kids):
                if m != a:
                    fill(cols, kb, 0)
            return self.run(self.kids[k0], buf, pos, end)
        if op == P.OP_INT or op == P.OP_INT_LONG or op == P.OP_INT_FLOAT or op == P.OP_INT_DOUBLE:
            v, pos = _int(buf, pos, end)
        elif op == P.OP_LONG or op == P.OP_LONG_FLOAT or op == P.OP_LONG_DOUBLE:
            v, pos = _long(buf, pos, end)
        elif op == P.OP_FLOAT or op == P.OP_FLOAT_DOUBLE:
            if end - pos < 4:
                raise truncated("a float", pos)
            v = F32.unpack_from(buf, pos)[0]
            pos += 4
        elif op == P.OP_DOUBLE:
            if end - pos < 8:
                raise truncated("a double", pos)
            v = F64.unpack_from(buf, pos)[0]
            pos += 8
        elif op == P.OP_BOOL:
            if pos >= end:
                raise truncated("a boolean", pos)
            v = buf[pos] == 1  # as Java's decoder reads it
            pos += 1
        elif op == P.OP_BYTES:
            n, pos = _length(buf, pos, end, "bytes")
            if c is not None:  # put_var's body: a call per value here costs the decode 2%
                c.data += buf[pos : pos + n]
                if len(c.data) > INT32_MAX:
                    raise PayloadDecodeError("over 2 GiB of bytes in one column of one batch")
                c.offs.append(len(c.data))
                c.valid.append(1)
            return pos + n
        elif op == P.OP_FIXED or op == P.OP_DURATION:
            n = 12 if op == P.OP_DURATION else a
            if end - pos < n:
                raise truncated(f"a fixed of {n} bytes", pos)
            if c is not None:
                if op == P.OP_FIXED:
                    c.data += buf[pos : pos + n]
                else:
                    months, days, millis = _DURATION_IN.unpack_from(buf, pos)
                    if months > INT32_MAX or days > INT32_MAX:
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
                    raise truncated(f"a decimal of {n} bytes", pos)
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
                c.data += I32.pack(mapped)
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
                            put_var(keys, buf[pos : pos + kn])
                        pos += kn
                    pos = self.run(item, buf, pos, end)
            if c is not None:
                end_list(cols, c)
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
                c.data += I32.pack(v)
            elif op == P.OP_LONG or op == P.OP_INT_LONG:
                c.data += I64.pack(v)
            elif op == P.OP_BOOL:
                c.data.append(v)
            elif op == P.OP_FLOAT or op == P.OP_INT_FLOAT or op == P.OP_LONG_FLOAT:
                c.data += F32.pack(float(v))
            else:
                c.data += F64.pack(float(v))
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
    runners: Dict[int, _Runner] = {}

    def value(cols: List[Col], buf: Any, pos: int, end: int, schema_id: int) -> None:
        runner = runners.get(schema_id)
        if runner is None:
            runner = runners[schema_id] = _Runner(plan_for(schema_id), cols)
        pos = runner.run(runner.root, buf, pos, end)
        if pos != end:
            raise PayloadDecodeError(f"{end - pos} bytes after the value")

    return decode_rows(count, array_offset, validity, offsets, data, layout, framed, value)
