"""The filled builders of a layout made into Arrow arrays, without copying their buffers.

Both backends hand over, per builder, its values buffer, one validity byte per value,
its int32 offsets and its null count; this module, the one home of the Arrow side,
packs the validity bytes into bitmaps and wraps the buffers in arrays of the layout's
types.
"""

from __future__ import annotations

from typing import Any, List, Optional, Sequence, Tuple

from kafkawire.avro import plan as P
from kafkawire.errors import PayloadDecodeError


def _bitmap(pa: Any, valid: Any, n: int) -> Any:
    """One validity byte per value packed into an Arrow bitmap."""
    return pa.Array.from_buffers(pa.uint8(), n, [None, pa.py_buffer(valid)]).cast(pa.bool_()).buffers()[1]


def _check(pa: Any, arr: Any, what: str) -> None:
    """Values Arrow's own checks refuse (as Spark and pyarrow would later) refused now,
    naming the first such value's position in its column (the row, for a field of the
    top-level record)."""
    try:
        arr.validate(full=True)
    except pa.ArrowInvalid as exc:
        lo, hi = 0, len(arr) - 1  # the first bad value: the shortest prefix that fails
        while lo < hi:
            mid = (lo + hi) // 2
            try:
                arr.slice(0, mid + 1).validate(full=True)
                lo = mid + 1
            except pa.ArrowInvalid:
                hi = mid
        raise PayloadDecodeError(f"{what} at position {lo} of its column: {exc}") from None


def finish(layout: P.Layout, cols: Sequence[Tuple[Any, Any, Any, int]]) -> Any:
    """The Arrow array of the layout's root builder (and so of all of them)."""
    import pyarrow as pa

    def build(i: int) -> Any:
        b = layout.builders[i]
        data, valid, offsets, nulls = cols[i]
        n = len(valid)
        validity: Optional[Any] = _bitmap(pa, valid, n) if nulls else None
        if b.kind == P.B_NULL:
            return pa.nulls(n)
        if b.kind == P.B_FIXED:
            if b.enum_symbols is not None:
                indices = pa.Array.from_buffers(pa.int32(), n, [validity, pa.py_buffer(data)])
                arr = pa.DictionaryArray.from_arrays(indices, pa.array(b.enum_symbols, pa.string()))
                return arr if pa.types.is_dictionary(b.arrow_type) else arr.dictionary_decode()
            if pa.types.is_boolean(b.arrow_type):
                bits = _bitmap(pa, data, n)
                return pa.Array.from_buffers(pa.bool_(), n, [validity, bits])
            arr = pa.Array.from_buffers(b.arrow_type, n, [validity, pa.py_buffer(data)])
            if pa.types.is_time(b.arrow_type):
                _check(pa, arr, "a time of day outside [0, 24 h)")
            elif b.logical == "decimal":
                _check(pa, arr, "a decimal of more digits than its precision")
            return arr
        if b.kind == P.B_VAR:
            arr = pa.Array.from_buffers(
                b.arrow_type, n, [validity, pa.py_buffer(offsets), pa.py_buffer(data)]
            )
            if pa.types.is_string(b.arrow_type):
                _check(pa, arr, "a string that is not UTF-8")
            return arr
        if b.kind == P.B_LIST:
            return pa.Array.from_buffers(
                b.arrow_type, n, [validity, pa.py_buffer(offsets)], children=[build(b.kids[0])]
            )
        if b.kind == P.B_MAP:
            t = b.arrow_type
            entries = pa.StructArray.from_arrays(
                [build(b.kids[0]), build(b.kids[1])], fields=[t.key_field, t.item_field]
            )
            return pa.Array.from_buffers(t, n, [validity, pa.py_buffer(offsets)], children=[entries])
        kids: List[Any] = [build(k) for k in b.kids]
        return pa.Array.from_buffers(b.arrow_type, n, [validity], children=kids)

    return build(0)
