"""Protobuf values to Arrow builders, in pure Python: the twin of ``kafkawire._fast.protobuf``.

:func:`decode_column` runs the plans of :mod:`kafkawire.protobuf.plan` over a binary
column into the builders of :mod:`kafkawire._pure.arrow_builders` (shared with Avro).
A message is read as the protobuf runtimes read it: fields in any order, the last
value of a singular field kept (a message field's occurrences merged, a oneof's other
members cleared), repeated scalars packed or not, unknown fields skipped; a known field
of another wire type, or a closed enum's unknown number, is an error, as in
``from_protobuf``.  Repeated values are appended as they are met; singular
ones once the message ends.  Every length is checked against the bytes that remain.
"""

from __future__ import annotations

from typing import Any, Callable, Dict, List, Optional, Sequence, Tuple

from kafkawire._pure.arrow_builders import (
    F32,
    F64,
    I32,
    I64,
    Col,
    decode_rows,
    end_list,
    fill,
    put_var,
    truncated,
)
from kafkawire.errors import PayloadDecodeError
from kafkawire.protobuf import plan as P

_INT64_MIN, _INT64_MAX = -(1 << 63), (1 << 63) - 1


def _varint(buf: Any, pos: int, end: int) -> Tuple[int, int]:
    """An unsigned 64-bit varint (a 10th byte's high bits dropped, as protobuf drops them)."""
    result = shift = 0
    start = pos
    while True:
        if pos >= end:
            raise truncated("a varint", start)
        b = buf[pos]
        pos += 1
        if shift == 63:
            if b & 0x80:
                raise PayloadDecodeError(f"the varint at byte {start} is longer than 10 bytes")
            return result | ((b & 1) << 63), pos
        result |= (b & 0x7F) << shift
        if not b & 0x80:
            return result, pos
        shift += 7


def _length(buf: Any, pos: int, end: int) -> Tuple[int, int]:
    n, after = _varint(buf, pos, end)
    if n > end - after:
        raise truncated(f"a length-delimited field of {n} bytes", pos)
    return n, after


def _skip(buf: Any, pos: int, end: int, wt: int, number: int, depth: int) -> int:
    """Past an unknown field's value (a group's fields included)."""
    if wt == 0:
        return _varint(buf, pos, end)[1]
    if wt == 1 or wt == 5:
        n = 8 if wt == 1 else 4
        if end - pos < n:
            raise truncated(f"a {n}-byte field", pos)
        return pos + n
    if wt == 2:
        n, pos = _length(buf, pos, end)
        return pos + n
    if wt == 3:
        if depth >= P.MAX_DEPTH:
            raise PayloadDecodeError(f"groups nest deeper than {P.MAX_DEPTH} at byte {pos}")
        while True:
            start = pos
            key, pos = _varint(buf, pos, end)
            if key & 7 == 4:
                if key >> 3 != number:
                    raise PayloadDecodeError(f"the group ending at byte {start} is not the one open")
                return pos
            pos = _skip(buf, pos, end, key & 7, key >> 3, depth + 1)
    raise PayloadDecodeError(f"wire type {wt} at byte {pos}")


def _mistyped(number: int, start: int, wt: int, expected: int) -> PayloadDecodeError:
    """A known field in a wire type not its own.  The runtimes keep it (and a closed
    enum's unknown number) among the unknown fields, and from_protobuf refuses a value
    whose unknown fields have a number of the schema's: another schema wrote it."""
    return PayloadDecodeError(f"field {number} at byte {start} has wire type {wt}, not its type's {expected}")


def _signed(v: int, bits: int) -> int:
    v &= (1 << bits) - 1
    return v - (1 << bits) if v >> (bits - 1) else v


def _scalar(kind: int, buf: Any, pos: int, end: int) -> Tuple[Any, int]:
    """One value of a scalar ``kind`` (a string or bytes as bytes) and the position after it."""
    if kind <= P.K_ENUM:
        v, pos = _varint(buf, pos, end)
        if kind == P.K_INT32:
            return _signed(v, 32), pos
        if kind == P.K_INT64:
            return _signed(v, 64), pos
        if kind == P.K_SINT32:
            v &= 0xFFFFFFFF
            return (v >> 1) ^ -(v & 1), pos
        if kind == P.K_SINT64:
            return (v >> 1) ^ -(v & 1), pos
        if kind == P.K_BOOL:
            return v != 0, pos
        return _signed(v, 32), pos  # an enum number is an int32
    if kind == P.K_FIXED32 or kind == P.K_FLOAT:
        if end - pos < 4:
            raise truncated("a 4-byte field", pos)
        return (I32 if kind == P.K_FIXED32 else F32).unpack_from(buf, pos)[0], pos + 4
    if kind == P.K_FIXED64 or kind == P.K_DOUBLE:
        if end - pos < 8:
            raise truncated("an 8-byte field", pos)
        return (I64 if kind == P.K_FIXED64 else F64).unpack_from(buf, pos)[0], pos + 8
    n, pos = _length(buf, pos, end)
    return bytes(buf[pos : pos + n]), pos + n


def _is_zero(kind: int, v: Any) -> bool:
    """True for a proto3 default (0, false, empty; +0.0 but not -0.0, as Java compares)."""
    if kind == P.K_FLOAT or kind == P.K_DOUBLE:
        return v == 0.0 and str(v)[0] != "-"
    if kind == P.K_STRING or kind == P.K_BYTES:
        return len(v) == 0
    return not v


class _Runner:
    """One plan run over the values of one column."""

    def __init__(self, plan: P.Plan, cols: List[Col]) -> None:
        self.plan = plan
        self.cols = cols
        # per message node: field number -> entry index (its first entry for a number)
        self.lookup: List[Dict[int, int]] = []
        self.oneofs: List[List[int]] = [[] for _ in plan.fields]  # per entry: its oneof's others
        for _kind, _out, first, count in plan.nodes:
            table: Dict[int, int] = {}
            for i in range(first, first + count):
                table.setdefault(plan.fields[i][0], i)
                for j in range(first, first + count):
                    if j != i and plan.fields[i][5] != -1 and plan.fields[j][5] == plan.fields[i][5]:
                        self.oneofs[i].append(j)
            self.lookup.append(table)

    def append(self, kind: int, out: int, sub: int, v: Any) -> None:
        """One scalar value to builder ``out``."""
        c = self.cols[out]
        if kind == P.K_STRING or kind == P.K_BYTES:
            put_var(c, v)
            return
        if kind == P.K_ENUM:
            names, _closed, prefix, _default = self.plan.consts[sub]
            name = names.get(v)
            put_var(c, name if name is not None else prefix + str(v).encode())
            return
        if kind == P.K_BOOL:
            c.data.append(1 if v else 0)
        elif kind == P.K_FLOAT:
            c.data += F32.pack(v)
        elif kind == P.K_DOUBLE:
            c.data += F64.pack(v)
        elif c.width == 4:
            c.data += I32.pack(v)
        else:
            c.data += I64.pack(v)
        c.valid.append(1)

    def message(self, node: int, buf: Any, pos: int, end: int, depth: int) -> None:
        """The message at ``buf[pos:end]`` into the builders of ``node``."""
        if depth > P.MAX_DEPTH:
            raise PayloadDecodeError(f"messages nest deeper than {P.MAX_DEPTH}")
        plan = self.plan
        node_kind, out, first, count = plan.nodes[node]
        fields = plan.fields
        lookup = self.lookup[node]
        last: List[Any] = [None] * count  # singular fields: the value; messages: [spans]
        while pos < end:
            start = pos
            key, pos = _varint(buf, pos, end)
            number, wt = key >> 3, key & 7
            if number == 0:
                raise PayloadDecodeError(f"field number 0 at byte {start}")
            i = lookup.get(number)
            if i is None:
                pos = _skip(buf, pos, end, wt, number, 0)
                continue
            _, kind, fout, mode, sub, oneof, list_out = fields[i]
            expected = P.WIRE_TYPE[kind]
            if mode == P.M_REPEATED:
                if wt == expected:
                    if kind == P.K_MESSAGE:
                        n, pos = _length(buf, pos, end)
                        self.message(sub, buf, pos, pos + n, depth + 1)
                        pos += n
                    else:
                        v, pos = _scalar(kind, buf, pos, end)
                        self._known(kind, sub, v, number, start)
                        self.append(kind, fout, sub, v)
                elif wt == 2 and expected != 2:  # packed
                    n, pos = _length(buf, pos, end)
                    stop = pos + n
                    while pos < stop:
                        v, pos = _scalar(kind, buf, pos, stop)
                        self._known(kind, sub, v, number, start)
                        self.append(kind, fout, sub, v)
                else:
                    raise _mistyped(number, start, wt, expected)
                continue
            if wt != expected:
                raise _mistyped(number, start, wt, expected)
            if kind == P.K_MESSAGE:
                n, pos = _length(buf, pos, end)
                spans = last[i - first]
                if spans is None:
                    spans = last[i - first] = []
                spans.append((pos, pos + n))
                pos += n
            else:
                v, pos = _scalar(kind, buf, pos, end)
                self._known(kind, sub, v, number, start)
                last[i - first] = v
            for j in self.oneofs[i]:
                last[j - first] = None
        if node_kind == P.N_TIME:
            seconds = last[0] or 0
            nanos = last[1] or 0
            micros = seconds * 1_000_000 + (nanos // 1000 if nanos >= 0 else -(-nanos // 1000))
            if not _INT64_MIN <= micros <= _INT64_MAX:
                raise PayloadDecodeError(f"{seconds} seconds is out of the microsecond range")
            c = self.cols[out]
            c.data += I64.pack(micros)
            c.valid.append(1)
            return
        for k in range(count):
            _, kind, fout, mode, sub, oneof, list_out = fields[first + k]
            if mode == P.M_REPEATED:
                end_list(self.cols, self.cols[list_out])
                continue
            v = last[k]
            if kind == P.K_MESSAGE:
                if v is None:
                    if mode == P.M_DEFAULT:  # a map entry's value: the empty message
                        self.message(sub, buf, 0, 0, depth + 1)
                    elif mode == P.M_REQUIRED:
                        raise PayloadDecodeError(f"the required field {fields[first + k][0]} is missing")
                    else:
                        fill(self.cols, fout, 0)
                elif len(v) == 1:
                    self.message(sub, buf, v[0][0], v[0][1], depth + 1)
                else:  # occurrences of one message field merge: read them as one
                    merged = b"".join(bytes(buf[s:e]) for s, e in v)
                    self.message(sub, merged, 0, len(merged), depth + 1)
                continue
            if v is None:
                if mode == P.M_DEFAULT:
                    default = plan.consts[sub]
                    v = default[3] if kind == P.K_ENUM else default
                elif mode == P.M_REQUIRED:
                    raise PayloadDecodeError(f"the required field {fields[first + k][0]} is missing")
                elif fout >= 0:
                    fill(self.cols, fout, 0)
                    continue
            elif mode == P.M_IMPLICIT and _is_zero(kind, v):
                if fout >= 0:
                    fill(self.cols, fout, 0)
                continue
            if fout >= 0:
                self.append(kind, fout, sub, v)
        if node_kind == P.N_STRUCT:
            self.cols[out].valid.append(1)

    def _known(self, kind: int, sub: int, v: Any, number: int, start: int) -> None:
        """A closed enum's number that is none of its values refused (see _mistyped)."""
        if kind == P.K_ENUM and self.plan.consts[sub][1] and v not in self.plan.consts[sub][0]:
            raise PayloadDecodeError(
                f"field {number} at byte {start}: {v} is none of its closed enum's values"
            )


def decode_column(
    count: int,
    array_offset: int,
    validity: Optional[Any],
    offsets: Any,
    data: Any,
    layout: Sequence[Tuple[int, int, Tuple[int, ...]]],
    plan_for: Callable[[int, Sequence[int]], P.Plan],
    framed: bool,
) -> List[Tuple[Any, Any, Any, int]]:
    """Decode ``count`` Protobuf values of an Arrow binary column (its validity bitmap
    or None, int32 offsets and data buffers, from ``array_offset``) into the builders
    of ``layout``; each builder's (data, validity bytes, offsets, null count).

    A framed value's plan is ``plan_for(schema id, message indexes)``; an unframed
    column's ``plan_for(-1, [])``.  A null value is a null row.  An error is raised
    with the row (from 0) in its ``row`` attribute.
    """
    from kafkawire.registry.wire import decode_message_indexes

    runners: Dict[Any, _Runner] = {}

    def value(cols: List[Col], buf: Any, pos: int, end: int, schema_id: int) -> None:
        key: Any = -1
        if framed:  # the indexes read from the whole framed value
            indexes, after = decode_message_indexes(buf[pos - 5 : end], 5)
            key = (schema_id, tuple(indexes))
            pos += after - 5
        runner = runners.get(key)
        if runner is None:
            plan = plan_for(key[0], key[1]) if framed else plan_for(-1, ())
            runner = runners[key] = _Runner(plan, cols)
        runner.message(runner.plan.root, buf, pos, end, 0)

    return decode_rows(count, array_offset, validity, offsets, data, layout, framed, value)
