"""What both value decoders (:mod:`kafkawire._pure.avro`, :mod:`kafkawire._pure.protobuf`)
share, in pure Python: the twin of ``kafkawire/_fast/arrow_builders.pxi``.

The Arrow builders they fill, one per array of a layout (:mod:`kafkawire.avro.plan`):
its values, one validity byte per value and int32 offsets, made into arrays by
:mod:`kafkawire.avro.arrow`; and :func:`decode_rows`, the walk over a binary column's
rows that hands each value's bytes to the format's reader.
"""

from __future__ import annotations

import struct
from array import array
from typing import Any, Callable, List, Optional, Sequence, Tuple

from kafkawire.avro import plan as P
from kafkawire.errors import BadMagicByteError, PayloadDecodeError, TruncatedPayloadError

I32 = struct.Struct("<i")
I64 = struct.Struct("<q")
F32 = struct.Struct("<f")
F64 = struct.Struct("<d")
INT32_MAX = (1 << 31) - 1


class Col:
    """One builder: its kind and width (:mod:`kafkawire.avro.plan`), its kids, its buffers."""

    __slots__ = ("kind", "width", "kids", "data", "valid", "offs", "nulls")

    def __init__(self, kind: int, width: int, kids: Sequence[int]) -> None:
        self.kind = kind
        self.width = width
        self.kids = kids
        self.data = bytearray()
        self.valid = bytearray()  # one byte per value: 1 valid, 0 null
        self.offs = array("i", [0])
        self.nulls = 0


def fill(cols: List[Col], b: int, valid: int) -> None:
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
            fill(cols, k, 1)


def put_var(c: Col, value: Any) -> None:
    """One value of a variable-width builder (bytes, a string): its bytes and its end."""
    if len(c.data) + len(value) > INT32_MAX:  # past what the int32 offsets can point to
        raise PayloadDecodeError("over 2 GiB of bytes in one column of one batch")
    c.data += value
    c.offs.append(len(c.data))
    c.valid.append(1)


def end_list(cols: List[Col], c: Col) -> None:
    """A list or map value closed: its items are those its item builder took since it began."""
    c.offs.append(len(cols[c.kids[0]].valid))
    c.valid.append(1)


def truncated(what: str, pos: int) -> TruncatedPayloadError:
    return TruncatedPayloadError(f"the value ends inside {what} at byte {pos}")


def decode_rows(
    count: int,
    array_offset: int,
    validity: Optional[Any],
    offsets: Any,
    data: Any,
    layout: Sequence[Tuple[int, int, Tuple[int, ...]]],
    framed: bool,
    value: Callable[[List[Col], Any, int, int, int], None],
) -> List[Tuple[Any, Any, Any, int]]:
    """The builders of ``layout`` filled from ``count`` values of an Arrow binary column
    (its validity bitmap or None, int32 offsets and data, from ``array_offset``): each
    builder's (data, validity bytes, offsets, null count).

    A null value is a null row; every other is ``value(builders, data, start, end,
    schema id)``, a framed one's magic byte checked and its schema id read (-1
    unframed).  An error is raised with the row (from 0) in its ``row`` attribute.
    """
    cols = [Col(kind, width, kids) for kind, width, kids in layout]
    offs = memoryview(offsets).cast("B").cast("i")
    buf = memoryview(data).cast("B")
    bits = memoryview(validity).cast("B") if validity is not None else None
    for i in range(count):
        row = array_offset + i
        try:
            if bits is not None and not (bits[row >> 3] >> (row & 7)) & 1:
                fill(cols, 0, 0)
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
            value(cols, buf, pos, end, schema_id)
        except Exception as exc:
            if not hasattr(exc, "row"):
                exc.row = i  # type: ignore[attr-defined]
            raise
    return [(c.data, c.valid, c.offs, c.nulls) for c in cols]
