"""Arrow columns to Avro's binary encoding, column by column.

A struct column (or a table's rows) is written as records of an Avro schema: the one
given, or the one :func:`avro_schema` derives from the Arrow type as spark-avro's
``to_avro`` derives it.  Each Avro type is an encoder over a whole Arrow array that
returns every value's bytes at once (a byte buffer and offsets); a record's bytes are
its fields' bytes put side by side row by row, with numpy, so no Python object is made
per value except for decimals.

A value the schema cannot hold raises :class:`~kafkawire.errors.AvroValueError`
naming the field and the row; an Arrow type the schema cannot take raises
:class:`~kafkawire.errors.SchemaResolutionError`.  Needs pyarrow and numpy.
"""

from __future__ import annotations

from typing import Any, Callable, Dict, List, Optional, Tuple

from kafkawire.avro.encode import encode_json, zigzag
from kafkawire.avro.schema import Schema, parse
from kafkawire.errors import AvroValueError, SchemaResolutionError

# (bytes, offsets): value i is data[offsets[i]:offsets[i + 1]]
Encoded = Tuple[Any, Any]
# (array, values to write (bool per value), row of each value) -> Encoded
Encoder = Callable[[Any, Any, Any], Encoded]

# rows encoded at once (see AvroArrowEncoder.encode_parts)
ROWS_PER_SLICE = 16384
_UNITS = {"s": 1, "ms": 1000, "us": 1_000_000, "ns": 1_000_000_000}
_LOGICAL_UNIT = {
    "time-millis": "ms",
    "time-micros": "us",
    "timestamp-millis": "ms",
    "timestamp-micros": "us",
    "timestamp-nanos": "ns",
    "local-timestamp-millis": "ms",
    "local-timestamp-micros": "us",
    "local-timestamp-nanos": "ns",
}


# -- the schema of an Arrow type ---------------------------------------------------------


def avro_schema(arrow_type: Any, record_name: str = "topLevelRecord", namespace: str = "") -> Any:
    """The Avro schema (JSON form) of values of ``arrow_type``, as spark-avro's
    ``to_avro`` derives it from the Spark type: records named by their field (the top
    one ``topLevelRecord``) in the namespace of their parents, a nullable type as the
    union ``[type, "null"]``, timestamps in the column's unit, decimals as named fixed."""
    return _avro_type(arrow_type, False, record_name, namespace)


def _avro_type(t: Any, nullable: bool, name: str, namespace: str) -> Any:
    import pyarrow as pa

    s: Any
    if pa.types.is_null(t):
        return "null"
    if pa.types.is_dictionary(t):
        return _avro_type(t.value_type, nullable, name, namespace)
    if pa.types.is_boolean(t):
        s = "boolean"
    elif pa.types.is_integer(t):
        s = "int" if t.bit_width < 32 or (t.bit_width == 32 and pa.types.is_signed_integer(t)) else "long"
    elif pa.types.is_float32(t) or pa.types.is_float16(t):
        s = "float"
    elif pa.types.is_float64(t):
        s = "double"
    elif pa.types.is_string(t) or pa.types.is_large_string(t):
        s = "string"
    elif pa.types.is_binary(t) or pa.types.is_large_binary(t):
        s = "bytes"
    elif pa.types.is_fixed_size_binary(t):
        s = {"type": "fixed", "name": _qualified(name, namespace) + ".fixed", "size": t.byte_width}
    elif pa.types.is_date(t):
        s = {"type": "int", "logicalType": "date"}
    elif pa.types.is_timestamp(t):
        unit = {"s": "millis", "ms": "millis", "us": "micros", "ns": "nanos"}[t.unit]
        s = {"type": "long", "logicalType": ("timestamp-" if t.tz else "local-timestamp-") + unit}
    elif pa.types.is_time(t):
        s = (
            {"type": "int", "logicalType": "time-millis"}
            if t.unit in ("s", "ms")
            else {"type": "long", "logicalType": "time-micros"}
        )
    elif pa.types.is_decimal(t):
        s = {
            "type": "fixed",
            "name": _qualified(name, namespace) + ".fixed",
            "size": _bytes_for_precision(t.precision),
            "logicalType": "decimal",
            "precision": t.precision,
            "scale": t.scale,
        }
    elif pa.types.is_interval(t):
        s = {
            "type": "fixed",
            "name": _qualified(name, namespace) + ".duration",
            "size": 12,
            "logicalType": "duration",
        }
    elif pa.types.is_map(t):
        if not (pa.types.is_string(t.key_type) or pa.types.is_large_string(t.key_type)):
            raise SchemaResolutionError(f"an Avro map's keys are strings, not {t.key_type}")
        s = {"type": "map", "values": _avro_type(t.item_type, t.item_field.nullable, name, namespace)}
    elif pa.types.is_list(t) or pa.types.is_large_list(t) or pa.types.is_fixed_size_list(t):
        s = {"type": "array", "items": _avro_type(t.value_type, t.value_field.nullable, name, namespace)}
    elif pa.types.is_struct(t):
        inner = _qualified(name, namespace)
        s = {"type": "record", "name": name}
        if namespace:
            s["namespace"] = namespace
        s["fields"] = [{"name": f.name, "type": _avro_type(f.type, f.nullable, f.name, inner)} for f in t]
    else:
        raise SchemaResolutionError(f"no Avro type for the Arrow type {t}")
    return [s, "null"] if nullable else s


def _qualified(name: str, namespace: str) -> str:
    return f"{namespace}.{name}" if namespace else name


def _bytes_for_precision(precision: int) -> int:
    """The fewest bytes whose two's complement holds every ``precision``-digit number."""
    size = 1
    while 2 ** (8 * size - 1) - 1 < 10**precision - 1:
        size += 1
    return size


# -- byte columns ---------------------------------------------------------------------------


def concat_rows(parts: List[Tuple[Any, Any, Any]], n: int) -> Encoded:
    """Row ``i`` of the result: ``data[starts[i]:starts[i] + lens[i]]`` of each part, in turn."""
    import numpy as np

    total = np.zeros(n, np.int64)
    for _, _, lens in parts:
        total += lens
    offsets = np.zeros(n + 1, np.int64)
    np.cumsum(total, out=offsets[1:])
    out = np.empty(int(offsets[-1]), np.uint8)
    pos = offsets[:-1].copy()
    for data, starts, lens in parts:
        m = int(lens.sum())
        if m:
            within = np.arange(m, dtype=np.int64) - np.repeat(np.cumsum(lens) - lens, lens)
            out[np.repeat(pos, lens) + within] = data[np.repeat(starts, lens) + within]
        pos += lens
    return out, offsets


def as_part(enc: Encoded, keep: Any = None) -> Tuple[Any, Any, Any]:
    """``enc`` as a part of :func:`concat_rows`; the values where ``keep`` is False left out."""
    import numpy as np

    data, offsets = enc
    lens = np.diff(offsets)
    return data, offsets[:-1], lens if keep is None else np.where(keep, lens, 0)


def _fixed_width(values: Any) -> Encoded:
    """A numpy array's values, little-endian, as their bytes."""
    import numpy as np

    values = np.ascontiguousarray(values, dtype=values.dtype.newbyteorder("<"))
    width = values.dtype.itemsize
    return values.view(np.uint8).reshape(-1), np.arange(len(values) + 1, dtype=np.int64) * width


def varints(values: Any) -> Encoded:
    """int64s as Avro's zigzag varints."""
    import numpy as np

    v = np.asarray(values, np.int64)
    return base128(((v << 1) ^ (v >> 63)).view(np.uint64))


def base128(values: Any) -> Encoded:
    """uint64s as base-128 varints (seven bits a byte, the low ones first)."""
    import numpy as np

    u = np.asarray(values, np.uint64)
    sizes = np.ones(len(u), np.int64)
    rest = u >> np.uint64(7)
    while rest.any():
        sizes += rest != 0
        rest >>= np.uint64(7)
    offsets = np.zeros(len(u) + 1, np.int64)
    np.cumsum(sizes, out=offsets[1:])
    out = np.empty(int(offsets[-1]), np.uint8)
    for k in range(int(sizes.max()) if len(u) else 0):
        rows = sizes > k
        byte = ((u[rows] >> np.uint64(7 * k)) & np.uint64(0x7F)).astype(np.uint8)
        byte |= np.where(sizes[rows] > k + 1, 0x80, 0).astype(np.uint8)
        out[offsets[:-1][rows] + k] = byte
    return out, offsets


# -- encoders ---------------------------------------------------------------------------------


def _valid(arr: Any) -> Any:
    import numpy as np

    if arr.null_count == 0:
        return np.ones(len(arr), bool)
    return arr.is_valid().to_numpy(zero_copy_only=False)


def _first(bad: Any, rows: Any) -> int:
    import numpy as np

    return int(rows[int(np.argmax(bad))])


def _decode_dictionary(arr: Any) -> Any:
    import pyarrow as pa

    return arr.dictionary_decode() if pa.types.is_dictionary(arr.type) else arr


def _slice_children(arr: Any) -> Tuple[Any, Any]:
    """The value offsets of a list or map array rebased to 0, and its values sliced to match."""
    import numpy as np

    offsets = arr.offsets.to_numpy(zero_copy_only=False).astype(np.int64)
    values = arr.values.slice(int(offsets[0]), int(offsets[-1] - offsets[0]))
    return offsets - offsets[0], values


class _Compiler:
    """Builds the encoder of an Avro schema for an Arrow type (checked once, not per value)."""

    def encoder(self, s: Schema, t: Any, path: str) -> Encoder:
        import pyarrow as pa

        if s["type"] == "union":
            return self._union(s, t, path)
        if pa.types.is_dictionary(t) and s["type"] != "enum":
            inner = self.encoder(s, t.value_type, path)
            return lambda arr, keep, rows: inner(arr.dictionary_decode(), keep, rows)
        value = self._value(s, t, path)
        if s["type"] == "null":
            return value

        def not_null(arr: Any, keep: Any, rows: Any) -> Encoded:
            bad = keep & ~_valid(arr)
            if bad.any():
                raise AvroValueError(f"a null, but the type is {_name(s)}", path, _first(bad, rows))
            return value(arr, keep, rows)

        return not_null

    def _union(self, s: Schema, t: Any, path: str) -> Encoder:
        """A nullable type (``["null", T]`` either way round) from a column of ``T``, any
        other union from the struct of branches the decoder makes (``member0``, ...:
        the first member set picks the branch, none set the null branch)."""
        import numpy as np
        import pyarrow as pa

        branches = s["branches"]
        null_index = next((i for i, b in enumerate(branches) if b["type"] == "null"), None)
        others = [i for i, b in enumerate(branches) if b["type"] != "null"]
        if len(others) <= 1:
            if not others:
                return lambda arr, keep, rows: varints(np.zeros(len(arr), np.int64))
            value = self.encoder(branches[others[0]], t, path)
            if null_index is None:
                return lambda arr, keep, rows: concat_rows(
                    [as_part(varints(np.zeros(len(arr), np.int64))), as_part(value(arr, keep, rows))],
                    len(arr),
                )

            def nullable(arr: Any, keep: Any, rows: Any) -> Encoded:
                valid = _valid(arr)
                index = np.where(valid, others[0], null_index)
                return concat_rows(
                    [as_part(varints(index)), as_part(value(arr, keep & valid, rows), valid)], len(arr)
                )

            return nullable
        if not pa.types.is_struct(t) or [f.name for f in t] != [f"member{m}" for m in range(len(others))]:
            raise SchemaResolutionError(
                f"field {path or '(the value)'}: the union {_name(s)} is written from a struct of "
                f"fields member0..member{len(others) - 1} (one per non-null branch), not {t}"
            )
        members = [self.encoder(branches[i], t[m].type, path) for m, i in enumerate(others)]

        def union(arr: Any, keep: Any, rows: Any) -> Encoded:
            valid = _valid(arr)
            index = np.full(len(arr), -1, np.int64)
            for m in reversed(range(len(others))):
                index = np.where(valid & _valid(arr.field(m)), others[m], index)
            unset = keep & (index < 0)
            if null_index is not None:
                index[unset] = null_index
            elif unset.any():
                raise AvroValueError(f"no branch of the union {_name(s)} is set", path, _first(unset, rows))
            parts = [as_part(varints(index))]
            for m, i in enumerate(others):
                chosen = index == i
                parts.append(as_part(members[m](arr.field(m), keep & chosen, rows), chosen))
            return concat_rows(parts, len(arr))

        return union

    def _value(self, s: Schema, t: Any, path: str) -> Encoder:
        """The encoder of the non-null values of a column (nulls give empty bytes)."""
        import numpy as np
        import pyarrow as pa
        import pyarrow.compute as pc

        kind = s["type"]
        logical = s.get("logicalType")
        refuse = SchemaResolutionError(
            f"field {path or '(the value)'}: an Arrow {t} is not written as {_name(s)}"
        )
        if kind == "null":
            if not pa.types.is_null(t):
                raise refuse
            return lambda arr, keep, rows: (np.zeros(0, np.uint8), np.zeros(len(arr) + 1, np.int64))
        if kind == "boolean":
            if not pa.types.is_boolean(t):
                raise refuse
            return lambda arr, keep, rows: _fixed_width(
                arr.fill_null(False).to_numpy(zero_copy_only=False).astype(np.uint8)
            )
        if kind in ("int", "long"):
            return self._integer(s, t, path, refuse)
        if kind in ("float", "double"):
            # a double column is not narrowed into a float (as spark-avro refuses it); integers
            # widen into a double as Avro's own promotions do, rounding past 2^53
            if not (pa.types.is_float16(t) or pa.types.is_float32(t)) and (
                kind == "float" or not (pa.types.is_float64(t) or pa.types.is_integer(t))
            ):
                raise refuse
            arrow_type, dtype = (pa.float32(), np.float32) if kind == "float" else (pa.float64(), np.float64)
            return lambda arr, keep, rows: _fixed_width(
                arr.cast(arrow_type, safe=False).fill_null(0).to_numpy(zero_copy_only=False).astype(dtype)
            )
        if kind in ("bytes", "fixed") and logical == "decimal" and pa.types.is_decimal(t):
            return _decimal(s, path)
        if kind == "fixed" and logical == "duration" and pa.types.is_interval(t):
            return _duration(path)
        if kind in ("bytes", "string"):
            wanted = pa.types.is_string(t) or pa.types.is_large_string(t)
            if kind == "bytes":
                wanted = wanted or pa.types.is_binary(t) or pa.types.is_large_binary(t)
            if not wanted:
                raise refuse
            return _variable

        if kind == "fixed":
            if not (pa.types.is_fixed_size_binary(t) or pa.types.is_binary(t) or pa.types.is_large_binary(t)):
                raise refuse
            size = s["size"]

            def fixed(arr: Any, keep: Any, rows: Any) -> Encoded:
                data, offsets = _variable_parts(arr)
                lens = np.diff(offsets)
                bad = keep & (lens != size)
                if bad.any():
                    raise AvroValueError(
                        f"{int(lens[np.argmax(bad)])} bytes, but {_name(s)} holds {size}",
                        path,
                        _first(bad, rows),
                    )
                return concat_rows([(data, offsets[:-1], np.where(keep, lens, 0))], len(arr))

            return fixed
        if kind == "enum":
            if not (pa.types.is_string(t) or pa.types.is_large_string(t) or pa.types.is_dictionary(t)):
                raise refuse
            symbols = pa.array(s["symbols"], pa.string())

            def enum(arr: Any, keep: Any, rows: Any) -> Encoded:
                arr = _decode_dictionary(arr)
                index = pc.index_in(arr, value_set=symbols.cast(arr.type))
                unknown = keep & ~_valid(index)
                if unknown.any():
                    value = arr[int(np.argmax(unknown))].as_py()
                    raise AvroValueError(
                        f"{value!r} is not a symbol of {_name(s)}", path, _first(unknown, rows)
                    )
                return varints(index.fill_null(0).to_numpy(zero_copy_only=False))

            return enum
        if kind == "array":
            if not (pa.types.is_list(t) or pa.types.is_large_list(t)):
                raise refuse
            return _blocks(self.encoder(s["items"], t.value_type, path + "[]"))
        if kind == "map":
            if not pa.types.is_map(t):
                raise refuse
            key = self.encoder({"type": "string"}, t.key_type, path + "{}")
            value = self.encoder(s["values"], t.item_type, path + "{}")

            def entry(entries: Any, keep: Any, rows: Any) -> Encoded:
                return concat_rows(
                    [
                        as_part(key(entries.field(0), keep, rows)),
                        as_part(value(entries.field(1), keep, rows)),
                    ],
                    len(entries),
                )

            return _blocks(entry)
        if kind == "record":
            return self._record(s, t, path, refuse)
        raise refuse  # pragma: no cover - schema.parse admits no other type

    def _integer(self, s: Schema, t: Any, path: str, refuse: Exception) -> Encoder:
        import numpy as np
        import pyarrow as pa

        kind, logical = s["type"], s.get("logicalType")
        bits = 32 if kind == "int" else 64
        scale: Optional[Tuple[int, int]] = None  # (multiply by, divide by) to the logical unit
        if logical == "date" and pa.types.is_date(t):
            scale = (1, 1) if pa.types.is_date32(t) else (1, 86_400_000)
        elif logical in _LOGICAL_UNIT and (pa.types.is_timestamp(t) or pa.types.is_time(t)):
            have, want = _UNITS[t.unit], _UNITS[_LOGICAL_UNIT[logical]]
            scale = (want // have, 1) if want >= have else (1, have // want)
        elif not pa.types.is_integer(t):
            raise refuse
        lo, hi = -(1 << (bits - 1)), (1 << (bits - 1)) - 1

        def integer(arr: Any, keep: Any, rows: Any) -> Encoded:
            if scale is None:
                raw = arr.fill_null(0).to_numpy(zero_copy_only=False)
                if raw.dtype == np.uint64:
                    big = keep & (raw > np.uint64(hi))
                    if big.any():
                        raise AvroValueError(
                            f"{int(raw[np.argmax(big)])} does not fit in {kind}", path, _first(big, rows)
                        )
                values = raw.astype(np.int64)
            else:
                storage = (
                    pa.int32()
                    if pa.types.is_date32(arr.type) or arr.type in (pa.time32("s"), pa.time32("ms"))
                    else pa.int64()
                )
                values = arr.view(storage).fill_null(0).to_numpy(zero_copy_only=False).astype(np.int64)
                mul, div = scale
                if mul != 1:
                    limit = ((1 << 63) - 1) // mul
                    big = keep & (np.abs(values) > limit)
                    if big.any():
                        raise AvroValueError(
                            "out of the range of a long in the schema's unit", path, _first(big, rows)
                        )
                    values = values * mul
                if div != 1:
                    lossy = keep & (values % div != 0)
                    if lossy.any():
                        raise AvroValueError(
                            f"has a finer unit than the schema's {logical or kind}", path, _first(lossy, rows)
                        )
                    values = values // div
            if bits == 32:
                big = keep & ((values < lo) | (values > hi))
                if big.any():
                    raise AvroValueError(
                        f"{int(values[np.argmax(big)])} does not fit in int", path, _first(big, rows)
                    )
            return varints(values)

        return integer

    def _record(self, s: Schema, t: Any, path: str, refuse: Exception) -> Encoder:
        import numpy as np
        import pyarrow as pa

        if not pa.types.is_struct(t):
            raise refuse
        names = [f.name for f in t]
        extra = set(names) - {f["name"] for f in s["fields"]}
        if extra:
            raise SchemaResolutionError(
                f"field {path or '(the value)'}: {sorted(extra)} not in the record {s['name']}"
            )
        fields: List[Tuple[Optional[int], Any]] = []  # (Arrow field index, encoder) or (None, default bytes)
        for f in s["fields"]:
            where = f"{path}.{f['name']}" if path else f["name"]
            if f["name"] in names:
                i = names.index(f["name"])
                fields.append((i, self.encoder(f["type"], t[i].type, where)))
            elif "default" in f:
                fields.append((None, np.frombuffer(encode_json(f["type"], f["default"]), np.uint8)))
            else:
                raise SchemaResolutionError(f"field {where} of the schema has no column and no default")

        def record(arr: Any, keep: Any, rows: Any) -> Encoded:
            n = len(arr)
            inner = keep & _valid(arr)
            parts = []
            for i, enc in fields:
                if i is None:  # a default: the same bytes in every row
                    parts.append((enc, np.zeros(n, np.int64), np.where(inner, len(enc), 0)))
                else:
                    parts.append(as_part(enc(arr.field(i), inner, rows), inner))
            return concat_rows(parts, n)

        return record


def _name(s: Schema) -> str:
    return str(s.get("name") or s.get("logicalType") or s["type"])


def _variable_parts(arr: Any) -> Tuple[Any, Any]:
    """The bytes and value offsets of a string or binary array (fixed-size binary too)."""
    import numpy as np
    import pyarrow as pa

    t = arr.type
    if pa.types.is_fixed_size_binary(t):
        data = arr.buffers()[1]
        width = t.byte_width
        bytes_ = np.frombuffer(data, np.uint8) if data is not None else np.zeros(0, np.uint8)
        return bytes_, (np.arange(len(arr) + 1, dtype=np.int64) + arr.offset) * width
    large = pa.types.is_large_string(t) or pa.types.is_large_binary(t)
    buffers = arr.buffers()
    offsets = np.frombuffer(buffers[1], np.int64 if large else np.int32)[
        arr.offset : arr.offset + len(arr) + 1
    ]
    data = np.frombuffer(buffers[2], np.uint8) if buffers[2] is not None else np.zeros(0, np.uint8)
    return data, offsets.astype(np.int64)


def _variable(arr: Any, keep: Any, rows: Any) -> Encoded:
    """Strings and bytes: a length, then the bytes."""
    import numpy as np

    data, offsets = _variable_parts(arr)
    lens = np.where(keep, np.diff(offsets), 0)
    return concat_rows([as_part(varints(lens)), (data, offsets[:-1], lens)], len(arr))


def _blocks(item: Encoder) -> Encoder:
    """Arrays and maps: one block of all the items (its count, the items), then a 0."""
    import numpy as np

    def blocks(arr: Any, keep: Any, rows: Any) -> Encoded:
        n = len(arr)
        offsets, values = _slice_children(arr)
        counts = np.where(keep, np.diff(offsets), 0)
        items = item(values, np.repeat(keep, np.diff(offsets)), np.repeat(rows, np.diff(offsets)))
        item_offsets = items[1][offsets]
        zero = np.zeros(1, np.uint8)
        return concat_rows(
            [
                as_part(varints(counts), counts > 0),
                (items[0], item_offsets[:-1], np.where(keep, np.diff(item_offsets), 0)),
                (zero, np.zeros(n, np.int64), np.ones(n, np.int64)),
            ],
            n,
        )

    return blocks


def _decimal(s: Schema, path: str) -> Encoder:
    """Decimals as their unscaled value in big-endian two's complement: the fewest bytes
    (bytes) or the fixed size, sign-extended."""
    import numpy as np

    precision, scale = s["precision"], s.get("scale", 0)
    size = s.get("size")
    limit = 10**precision

    def encode(arr: Any, keep: Any, rows: Any) -> Encoded:
        import pyarrow as pa

        if pa.types.is_decimal128(arr.type) and precision <= 38:
            try:  # Arrow's checked cast: every value fits the schema's precision and scale
                fitted = arr.cast(pa.decimal128(precision, scale), safe=True)
            except pa.ArrowInvalid:
                pass  # a bad value, or only a null slot's leftover bytes: per value below
            else:
                return _decimal128(fitted, keep, size)
        chunks = []
        for i, value in enumerate(arr.to_pylist()):
            if not keep[i] or value is None:
                chunks.append(b"")
                continue
            sign, digits, exponent = value.as_tuple()
            u = int("".join(map(str, digits)) or "0") * (-1 if sign else 1)
            shift = exponent + scale
            if shift < 0 and u % 10**-shift:
                raise AvroValueError(
                    f"{value} has more than the schema's {scale} decimal places", path, int(rows[i])
                )
            u = u * 10**shift if shift >= 0 else u // 10**-shift
            if abs(u) >= limit:
                raise AvroValueError(
                    f"{value} has more than the schema's {precision} digits", path, int(rows[i])
                )
            if size is not None:
                chunks.append(u.to_bytes(size, "big", signed=True))
            else:
                raw = u.to_bytes(
                    (u.bit_length() if u >= 0 else (~u).bit_length()) // 8 + 1, "big", signed=True
                )
                chunks.append(zigzag(len(raw)) + raw)
        lens = np.fromiter((len(c) for c in chunks), np.int64, len(chunks))
        offsets = np.zeros(len(chunks) + 1, np.int64)
        np.cumsum(lens, out=offsets[1:])
        return np.frombuffer(b"".join(chunks), np.uint8), offsets

    return encode


def _decimal128(arr: Any, keep: Any, size: Optional[int]) -> Encoded:
    """Arrow decimal128 values (little-endian 16-byte two's complement) as Avro's
    big-endian unscaled values: the last ``size`` bytes, or the fewest that keep the
    sign, after their length."""
    import numpy as np

    n = len(arr)
    buf = arr.buffers()[1]
    be = np.frombuffer(buf, np.uint8)[arr.offset * 16 : (arr.offset + n) * 16].reshape(n, 16)[:, ::-1]
    be = np.ascontiguousarray(be)
    starts = np.arange(n, dtype=np.int64) * 16
    if size is not None:
        if size > 16:  # sign-extended to the fixed's size
            pad = np.where(be[:, :1] >= 0x80, 0xFF, 0).astype(np.uint8).repeat(size - 16, axis=1)
            be = np.ascontiguousarray(np.hstack([pad, be]))
            starts = np.arange(n, dtype=np.int64) * size
        else:
            starts = starts + (16 - size)
        return concat_rows([(be.reshape(-1), starts, np.where(keep, size, 0))], n)
    sign = np.where(be[:, :1] >= 0x80, 0xFF, 0).astype(np.uint8)
    # a leading byte is redundant when it is all sign and the next byte's top bit is the sign's
    redundant = (be[:, :15] == sign) & ((be[:, 1:] & 0x80) == (sign & 0x80))
    lens = 16 - np.cumprod(redundant, axis=1).sum(axis=1)
    lens = np.where(keep, lens, 0)
    return concat_rows([as_part(varints(lens), keep), (be.reshape(-1), starts + 16 - lens, lens)], n)


def _duration(path: str) -> Encoder:
    """month_day_nano intervals as Avro's duration: months, days, milliseconds, each a
    little-endian unsigned 32-bit integer."""
    import numpy as np

    def encode(arr: Any, keep: Any, rows: Any) -> Encoded:
        out = np.zeros((len(arr), 3), np.int64)
        for i, value in enumerate(arr.to_pylist()):
            if keep[i] and value is not None:
                months, days, nanos = value.months, value.days, value.nanoseconds
                if (
                    nanos % 1_000_000
                    or min(months, days, nanos) < 0
                    or max(months, days, nanos // 1_000_000) >= 1 << 32
                ):
                    raise AvroValueError(
                        f"{value} is not a duration of whole, unsigned 32-bit parts", path, int(rows[i])
                    )
                out[i] = (months, days, nanos // 1_000_000)
        data, offsets = _fixed_width(out.astype(np.uint32).reshape(-1))
        return data, offsets[::3]

    return encode


def one_array(column: Any) -> Any:
    """A table, record batch or chunked array as one Arrow array (a struct per row)."""
    import pyarrow as pa

    if isinstance(column, (pa.Table, pa.RecordBatch)):
        column = column.to_struct_array()
    if isinstance(column, pa.ChunkedArray):
        column = column.combine_chunks()
    return column


def binary_array(encoded: Encoded, valid: Any) -> Any:
    """The values of ``encoded`` as a binary Arrow array (large_binary past 2 GiB), null
    where not ``valid``."""
    import numpy as np
    import pyarrow as pa

    data, offsets = encoded
    n = len(valid)
    validity = None if valid.all() else pa.array(valid).buffers()[1]
    large = offsets[-1] >= 1 << 31  # past what int32 offsets can point to
    return pa.Array.from_buffers(
        pa.large_binary() if large else pa.binary(),
        n,
        [validity, pa.py_buffer(offsets.astype(np.int64 if large else np.int32)), pa.py_buffer(data)],
        null_count=int(n - valid.sum()),
    )


class AvroArrowEncoder:
    """Writes the rows of struct columns (or tables) as Avro values of one schema.

    ``schema`` is the writer schema (JSON text or its parsed form); without it, the
    schema :func:`avro_schema` derives from the first column's type; ``parsed`` is
    the schema already in normal form (a registered schema with its references).  Each
    Arrow type met is checked against the schema once."""

    def __init__(self, schema: Any = None, parsed: Optional[Schema] = None) -> None:
        self.schema_json: Optional[Any] = schema
        self.schema: Optional[Schema] = (
            parsed if parsed is not None else parse(schema) if schema is not None else None
        )
        self._encoders: Dict[Any, Encoder] = {}

    def compile(self, arrow_type: Any) -> Encoder:
        """The encoder of columns of ``arrow_type`` (compiled once; the schema derived from
        it when none was given)."""
        enc = self._encoders.get(arrow_type)
        if enc is None:
            if self.schema is None:
                self.schema_json = avro_schema(arrow_type)
                self.schema = parse(self.schema_json)
            enc = self._encoders[arrow_type] = _Compiler().encoder(self.schema, arrow_type, "")
        return enc

    def encode_parts(self, column: Any, prefix: bytes = b"") -> Tuple[Encoded, Any]:
        """The values' bytes and offsets, each value after ``prefix`` (a framing header),
        and which rows are valid (a null row gives no bytes)."""
        import numpy as np

        column = one_array(column)
        valid = _valid(column)
        encoder = self.compile(column.type)
        datas, offsets = [], [np.zeros(1, np.int64)]
        head = np.frombuffer(prefix, np.uint8)
        # a slice at a time: the index arrays of the byte scatters (8 bytes per byte
        # written) stay small enough for the caches, and the time linear in the rows
        for start in range(0, len(column), ROWS_PER_SLICE):
            part = column.slice(start, ROWS_PER_SLICE)
            rows = np.arange(start, start + len(part), dtype=np.int64)
            keep = valid[start : start + len(part)]
            data, part_offsets = encoder(part, keep, rows)
            if prefix:
                data, part_offsets = concat_rows(
                    [
                        (head, np.zeros(len(part), np.int64), np.where(keep, len(head), 0)),
                        as_part((data, part_offsets), keep),
                    ],
                    len(part),
                )
            datas.append(data)
            offsets.append(part_offsets[1:] + offsets[-1][-1])
        return (np.concatenate(datas or [np.zeros(0, np.uint8)]), np.concatenate(offsets)), valid

    def encode(self, column: Any) -> List[Optional[bytes]]:
        """Each row's Avro value (None for a null row)."""
        (data, offsets), valid = self.encode_parts(column)
        raw = data.tobytes()
        return [raw[offsets[i] : offsets[i + 1]] if valid[i] else None for i in range(len(valid))]
