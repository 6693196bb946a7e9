"""Arrow columns to Protobuf values, column by column.

The rows of a struct column, typed as :mod:`kafkawire.protobuf.decode` (and
``from_protobuf``) types a message, are written as the protobuf runtime serializes
that message: fields in number order, a proto3 field without presence left out when
it holds its default, repeated numbers packed (proto3, or ``[packed = true]``), map
entries as messages of their key and value (both always written), enums by name to
number, Timestamp, Duration and the wrappers from their Arrow columns.  Each field is
an encoder over a whole Arrow array returning every value's bytes at once; a message
puts its fields' bytes side by side row by row with numpy (as the Avro writer does),
so no Python object is made per value.

A value the message cannot hold raises :class:`~kafkawire.errors.ProtobufValueError`
naming the field and the row; an Arrow type the message cannot take raises
:class:`~kafkawire.errors.SchemaResolutionError`.  Needs pyarrow and numpy.
"""

from __future__ import annotations

from typing import Any, Callable, Dict, List, Optional, Sequence, Tuple

from kafkawire.avro.write import (
    AvroArrowEncoder,
    Encoded,
    _first,
    _fixed_width,
    _slice_children,
    _valid,
    _variable_parts,
    as_part,
    base128,
    concat_rows,
)
from kafkawire.errors import ProtobufValueError, SchemaResolutionError
from kafkawire.protobuf.plan import _WRAPPERS, _time_kind
from kafkawire.protobuf.schema import Field, Message, Pool

# (array, rows to write, row of each value) -> (each value's bytes, where it is not the
# proto3 default: 0, false, empty, all-zero bits)
Scalar = Callable[[Any, Any, Any], Tuple[Encoded, Any]]
# (array, rows to write, row of each value) -> each row's bytes (a message body)
Encoder = Callable[[Any, Any, Any], Encoded]
# a part of concat_rows: row i is data[starts[i]:starts[i] + lens[i]]
Part = Tuple[Any, Any, Any]
# (array, rows to write, row of each value) -> the parts of a field's tags and values in
# each row, put side by side with the other fields' by one concat_rows per message
Fields = Callable[[Any, Any, Any], List[Part]]

_VARINT, _FIXED64, _LENGTH, _FIXED32 = 0, 1, 2, 5
_RANGES = {  # what an Arrow integer may hold for each type: the unsigned ones also as Java's signed view
    "int32": (-(1 << 31), (1 << 31) - 1),
    "sint32": (-(1 << 31), (1 << 31) - 1),
    "sfixed32": (-(1 << 31), (1 << 31) - 1),
    "uint32": (-(1 << 31), (1 << 32) - 1),
    "fixed32": (-(1 << 31), (1 << 32) - 1),
    "int64": (-(1 << 63), (1 << 63) - 1),
    "sint64": (-(1 << 63), (1 << 63) - 1),
    "sfixed64": (-(1 << 63), (1 << 63) - 1),
    "uint64": (-(1 << 63), (1 << 64) - 1),
    "fixed64": (-(1 << 63), (1 << 64) - 1),
}
_WIRE = {
    "fixed32": _FIXED32,
    "sfixed32": _FIXED32,
    "float": _FIXED32,
    "fixed64": _FIXED64,
    "sfixed64": _FIXED64,
    "double": _FIXED64,
    "string": _LENGTH,
    "bytes": _LENGTH,
    "message": _LENGTH,
}
_PER_SECOND = {"s": 1, "ms": 1000, "us": 1_000_000, "ns": 1_000_000_000}


def varints(values: Any) -> Encoded:
    """int64s (or uint64s) as Protobuf's varints: a negative int64 as its 10-byte two's complement."""
    import numpy as np

    return base128(np.asarray(values).astype(np.int64, copy=False).view(np.uint64))


def _tag(number: int, wire: int) -> Any:
    import numpy as np

    data, _ = varints(np.array([(number << 3) | wire], np.uint64))
    return data


def _const(data: Any, present: Any) -> Part:
    """A part of :func:`concat_rows`: the same bytes in every row where ``present``."""
    import numpy as np

    return data, np.zeros(len(present), np.int64), np.where(present, len(data), 0)


def _delimited(body: Encoded, present: Any) -> List[Part]:
    """The parts of a length-delimited value: its length, then its bytes."""
    import numpy as np

    lens = np.diff(body[1])
    return [as_part(varints(lens), present), as_part(body, present)]


class _Compiler:
    """Builds the encoder of a message for an Arrow type (checked once, not per value)."""

    def __init__(self, pool: Pool) -> None:
        self.pool = pool

    # -- values of one field ------------------------------------------------------------

    def scalar(self, f: Field, t: Any, path: str) -> Scalar:
        """The encoder of one value of ``f`` (its type's bytes, no tag)."""
        import numpy as np
        import pyarrow as pa

        refuse = SchemaResolutionError(f"field {path}: a {f.type} is not written from {t}")
        if pa.types.is_dictionary(t):
            inner = self.scalar(f, t.value_type, path)
            return lambda arr, keep, rows: inner(arr.dictionary_decode(), keep, rows)
        kind = f.type
        if kind in ("string", "bytes"):
            ok = (
                pa.types.is_string(t) or pa.types.is_large_string(t)
                if kind == "string"
                else pa.types.is_binary(t) or pa.types.is_large_binary(t) or pa.types.is_fixed_size_binary(t)
            )
            if not ok:
                raise refuse

            def variable(arr: Any, keep: Any, rows: Any) -> Tuple[Encoded, Any]:
                data, offsets = _variable_parts(arr)
                lens = np.where(keep, np.diff(offsets), 0)
                body = concat_rows([as_part(varints(lens)), (data, offsets[:-1], lens)], len(arr))
                return body, lens > 0

            return variable
        if kind == "enum":
            return self._enum(f, t, path, refuse)
        if kind == "bool":
            if not pa.types.is_boolean(t):
                raise refuse

            def boolean(arr: Any, keep: Any, rows: Any) -> Tuple[Encoded, Any]:
                values = arr.fill_null(False).to_numpy(zero_copy_only=False).astype(np.uint8)
                return (values, np.arange(len(values) + 1, dtype=np.int64)), values != 0

            return boolean
        if kind in ("float", "double"):
            if not pa.types.is_floating(t):
                raise refuse
            dtype = np.float32 if kind == "float" else np.float64
            bits = np.uint32 if kind == "float" else np.uint64

            def floating(arr: Any, keep: Any, rows: Any) -> Tuple[Encoded, Any]:
                values = arr.fill_null(0).to_numpy(zero_copy_only=False).astype(dtype)
                return _fixed_width(values), values.view(bits) != 0  # -0.0 is not the default

            return floating
        if not pa.types.is_integer(t):
            raise refuse
        lo, hi = _RANGES[kind]
        lo64, hi64 = max(lo, -(1 << 63)), min(hi, (1 << 63) - 1)  # comparable with int64s
        wire = _WIRE.get(kind, _VARINT)

        def integer(arr: Any, keep: Any, rows: Any) -> Tuple[Encoded, Any]:
            raw = arr.fill_null(0).to_numpy(zero_copy_only=False)
            if raw.dtype == np.uint64:
                big = keep & (raw > np.uint64(hi))
                values = raw.view(np.int64)
            else:
                values = raw.astype(np.int64)
                big = keep & ((values < lo64) | (values > hi64))
            if big.any():
                value = int(raw[np.argmax(big)])
                raise ProtobufValueError(f"{value} does not fit in {kind}", path, _first(big, rows))
            if kind in ("sint32", "sint64"):
                u = ((values << 1) ^ (values >> 63)).view(np.uint64)
            else:
                u = values.view(np.uint64)
            if wire == _FIXED32:
                enc = _fixed_width((u & np.uint64(0xFFFFFFFF)).astype(np.uint32))
            elif wire == _FIXED64:
                enc = _fixed_width(u)
            elif kind in ("uint32",):
                enc = varints(u & np.uint64(0xFFFFFFFF))
            else:
                enc = varints(u)
            return enc, values != 0

        return integer

    def _enum(self, f: Field, t: Any, path: str, refuse: Exception) -> Scalar:
        import numpy as np
        import pyarrow as pa
        import pyarrow.compute as pc

        e = self.pool.enums[f.type_name]
        if pa.types.is_integer(t):  # the numbers themselves (from_protobuf's enums.as.ints)
            known = np.array(sorted({n for _, n in e.values}), np.int64)
            number = self.scalar(Field(f.name, f.number, "int32"), t, path)

            def enum_number(arr: Any, keep: Any, rows: Any) -> Tuple[Encoded, Any]:
                if e.closed:  # a proto2 enum takes only the numbers it names
                    values = arr.fill_null(0).to_numpy(zero_copy_only=False).astype(np.int64)
                    unknown = keep & _valid(arr) & ~np.isin(values, known)
                    if unknown.any():
                        raise ProtobufValueError(
                            f"{int(values[np.argmax(unknown)])} is not a value of {e.full_name}",
                            path,
                            _first(unknown, rows),
                        )
                return number(arr, keep, rows)

            return enum_number
        if not (pa.types.is_string(t) or pa.types.is_large_string(t)):
            raise refuse
        names = pa.array([n for n, _ in e.values], t)
        numbers = np.array([n for _, n in e.values], np.int64)
        prefix = f"UNKNOWN_ENUM_VALUE_{e.full_name.rsplit('.', 1)[-1]}_"

        def enum(arr: Any, keep: Any, rows: Any) -> Tuple[Encoded, Any]:
            index = pc.index_in(arr, value_set=names).fill_null(-1).to_numpy(zero_copy_only=False)
            unknown = keep & _valid(arr) & (index < 0)
            values = numbers[np.maximum(index, 0)]
            for i in np.flatnonzero(unknown):  # a number the enum does not name, as the decoder names it
                name = arr[int(i)].as_py()
                number = name[len(prefix) :] if name.startswith(prefix) and not e.closed else ""
                if not number.lstrip("-").isdigit() or not -(1 << 31) <= int(number) < 1 << 31:
                    raise ProtobufValueError(f"{name!r} is not a value of {e.full_name}", path, int(rows[i]))
                values[i] = int(number)
            return varints(values.view(np.uint64)), values != 0

        return enum

    def _time(self, which: str, t: Any, path: str) -> Encoder:
        """A Timestamp or Duration's body (seconds, nanos) from a timestamp or duration column."""
        import numpy as np
        import pyarrow as pa

        if not (pa.types.is_timestamp(t) if which == "Timestamp" else pa.types.is_duration(t)):
            raise SchemaResolutionError(f"field {path}: a {which} is not written from {t}")
        per = _PER_SECOND[t.unit]
        seconds_tag, nanos_tag = _tag(1, _VARINT), _tag(2, _VARINT)

        def time(arr: Any, keep: Any, rows: Any) -> Encoded:
            v = arr.view(pa.int64()).fill_null(0).to_numpy(zero_copy_only=False)
            if which == "Timestamp":  # nanos in [0, 1e9): the seconds floored
                seconds, rest = np.divmod(v, per)
            else:  # seconds and nanos of the same sign
                seconds = np.where(v < 0, -(-v // per), v // per)
                rest = v - seconds * per
            nanos = rest * (1_000_000_000 // per)
            has_s, has_n = keep & (seconds != 0), keep & (nanos != 0)
            return concat_rows(
                [
                    _const(seconds_tag, has_s),
                    as_part(varints(seconds.view(np.uint64)), has_s),
                    _const(nanos_tag, has_n),
                    as_part(varints(nanos.view(np.uint64)), has_n),
                ],
                len(arr),
            )

        return time

    def body(self, f: Field, t: Any, path: str) -> Encoder:
        """The encoder of a message-typed ``f``'s body from column type ``t``."""
        m = self.pool.message(f.type_name)
        time = _time_kind(m)
        if time is not None:
            return self._time(time, t, path)
        if m.full_name in _WRAPPERS:  # the wrapped scalar: its value field, left out when default
            value = self.scalar(m.fields[0], t, path)
            tag = _tag(1, _WIRE.get(m.fields[0].type, _VARINT))

            def wrapper(arr: Any, keep: Any, rows: Any) -> Encoded:
                enc, nonzero = value(arr, keep, rows)
                present = keep & nonzero
                return concat_rows([_const(tag, present), as_part(enc, present)], len(arr))

            return wrapper
        return self.message(m, t, path)

    # -- fields ------------------------------------------------------------------------

    def field(self, f: Field, t: Any, path: str) -> Fields:
        """The encoder of ``f``'s tags and values in each row."""
        if f.label == "repeated":
            return self._repeated(f, t, path)
        if f.type == "message":
            body = self.body(f, t, path)
            tag = _tag(f.number, _LENGTH)

            def message(arr: Any, keep: Any, rows: Any) -> List[Part]:
                present = keep & _valid(arr)
                enc = body(arr, present, rows)
                return [_const(tag, present), *_delimited(enc, present)]

            return self._checked(f, path, message)
        value = self.scalar(f, t, path)
        tag = _tag(f.number, _WIRE.get(f.type, _VARINT))
        implicit = not f.presence and f.label != "required"

        def scalar(arr: Any, keep: Any, rows: Any) -> List[Part]:
            present = keep & _valid(arr)
            enc, nonzero = value(arr, present, rows)
            if implicit:
                present &= nonzero
            return [_const(tag, present), as_part(enc, present)]

        return self._checked(f, path, scalar)

    def _checked(self, f: Field, path: str, enc: Fields) -> Fields:
        """``enc``, refusing a null in a required field."""
        if f.label != "required":
            return enc

        def required(arr: Any, keep: Any, rows: Any) -> List[Part]:
            bad = keep & ~_valid(arr)
            if bad.any():
                raise ProtobufValueError("a null in a required field", path, _first(bad, rows))
            return enc(arr, keep, rows)

        return required

    def _repeated(self, f: Field, t: Any, path: str) -> Fields:
        import numpy as np
        import pyarrow as pa

        items_path = path + "[]"
        m = self.pool.messages.get(f.type_name) if f.type == "message" else None
        if m is not None and m.map_entry:
            if not pa.types.is_map(t):
                raise SchemaResolutionError(f"field {path}: a map is not written from {t}")
            key, value = m.fields
            key_enc = self.scalar(key, t.key_type, path + "{}")
            key_tag = _tag(1, _WIRE.get(key.type, _VARINT))
            value_tag = _tag(2, _WIRE.get(value.type, _VARINT))
            if value.type == "message":
                body = self.body(value, t.item_type, path + "{}")

                def value_enc(arr: Any, keep: Any, rows: Any) -> List[Any]:
                    return _delimited(body(arr, keep, rows), keep)

            else:
                value_scalar = self.scalar(value, t.item_type, path + "{}")

                def value_enc(arr: Any, keep: Any, rows: Any) -> List[Any]:
                    return [as_part(value_scalar(arr, keep, rows)[0], keep)]

            def entry(entries: Any, keep: Any, rows: Any) -> Encoded:  # key and value always written
                values = entries.field(1)
                bad = keep & ~_valid(values)
                if bad.any():
                    raise ProtobufValueError("a null map value", path + "{}", _first(bad, rows))
                return concat_rows(
                    [
                        _const(key_tag, keep),
                        as_part(key_enc(entries.field(0), keep, rows)[0], keep),
                        _const(value_tag, keep),
                        *value_enc(values, keep, rows),
                    ],
                    len(entries),
                )

            item: Encoder = entry
            packed = False
        elif not (pa.types.is_list(t) or pa.types.is_large_list(t)):
            raise SchemaResolutionError(f"field {path}: a repeated field is not written from {t}")
        else:
            t = t.value_type
            packed = f.packed and f.type not in ("string", "bytes", "message")
            if f.type == "message":
                body = self.body(f, t, items_path)
                item = body
            else:
                item_scalar = self.scalar(f, t, items_path)

                def item(arr: Any, keep: Any, rows: Any) -> Encoded:
                    return item_scalar(arr, keep, rows)[0]

        tag = _tag(
            f.number,
            _LENGTH if packed or f.type in ("string", "bytes", "message") else _WIRE.get(f.type, _VARINT),
        )
        delimited = f.type == "message"  # a string's or bytes' scalar bytes hold their length

        def repeated(arr: Any, keep: Any, rows: Any) -> List[Part]:
            keep = keep & _valid(arr)
            offsets, values = _slice_children(arr)
            counts = np.diff(offsets)
            item_keep = np.repeat(keep, counts)
            item_rows = np.repeat(rows, counts)
            bad = item_keep & ~_valid(values)
            if bad.any():
                raise ProtobufValueError("a null item", items_path, _first(bad, item_rows))
            enc = item(values, item_keep, item_rows)
            if not packed:  # each item after its own tag (and length)
                parts = [_const(tag, item_keep)]
                parts += _delimited(enc, item_keep) if delimited else [as_part(enc, item_keep)]
                enc = concat_rows(parts, len(values))
            # a row's items are side by side in enc: its bytes are one slice
            starts = enc[1][offsets]
            lens = np.where(keep, np.diff(starts), 0)
            row_bytes = (enc[0], starts[:-1], lens)
            if not packed:
                return [row_bytes]
            present = lens > 0
            return [_const(tag, present), as_part(varints(lens), present), row_bytes]

        return repeated

    # -- messages ------------------------------------------------------------------------

    def message(self, m: Message, t: Any, path: str) -> Encoder:
        """The encoder of ``m``'s bodies from a struct column of type ``t``."""
        import numpy as np
        import pyarrow as pa

        if not pa.types.is_struct(t):
            raise SchemaResolutionError(
                f"field {path or '(the value)'}: the message {m.full_name} is not written from {t}"
            )
        names = [c.name for c in t]
        by_name = {f.name: f for f in m.fields}
        extra = [n for n in names if n not in by_name]
        if extra:
            raise SchemaResolutionError(
                f"field {path or '(the value)'}: {extra} not in the message {m.full_name}"
            )
        fields: List[Tuple[int, Field, Fields]] = []
        for f in sorted(m.fields, key=lambda f: f.number):
            where = f"{path}.{f.name}" if path else f.name
            if f.name in names:
                i = names.index(f.name)
                fields.append((i, f, self.field(f, t[i].type, where)))
            elif f.label == "required":
                raise SchemaResolutionError(f"field {where} is required and the column has no such field")
        oneofs: Dict[int, List[Tuple[int, str]]] = {}
        for i, f, _ in fields:
            if f.oneof is not None and f.oneof >= 0 and f.label != "repeated":
                oneofs.setdefault(f.oneof, []).append((i, f.name))

        def message(arr: Any, keep: Any, rows: Any) -> Encoded:
            for members in oneofs.values():
                if len(members) > 1:
                    count = sum(keep & _valid(arr.field(i)) for i, _ in members)
                    bad = count > 1
                    if bad.any():
                        raise ProtobufValueError(
                            f"more than one of the oneof's members {[n for _, n in members]} is set",
                            path,
                            _first(bad, rows),
                        )
            parts = [part for i, _, enc in fields for part in enc(arr.field(i), keep, rows)]
            if not parts:
                return np.zeros(0, np.uint8), np.zeros(len(arr) + 1, np.int64)
            return concat_rows(parts, len(arr))

        return message


def message_indexes(pool: Pool, file: str, message: str) -> List[int]:
    """The path of ``message`` (a full name) in ``file``: Confluent's message indexes."""

    def find(level: Sequence[Message], path: List[int]) -> Optional[List[int]]:
        for i, m in enumerate(level):
            if m.full_name == message:
                return path + [i]
            found = find(m.nested, path + [i])
            if found is not None:
                return found
        return None

    found = find(pool.files[file].messages, [])
    if found is None:
        raise SchemaResolutionError(f"no message {message!r} in the schema's file")
    return found


class ProtobufArrowEncoder(AvroArrowEncoder):
    """Writes the rows of struct columns (or tables) as Protobuf values of ``message``
    (a full name in ``pool``).  Each Arrow type met is checked against the message once."""

    def __init__(self, pool: Pool, message: str) -> None:
        super().__init__()
        self.pool = pool
        self.message = pool.message(message)
        self._protobuf: Dict[Any, Encoder] = {}

    def compile(self, arrow_type: Any) -> Any:
        """The encoder of columns of ``arrow_type`` (compiled once)."""
        enc = self._protobuf.get(arrow_type)
        if enc is None:
            enc = self._protobuf[arrow_type] = _Compiler(self.pool).message(self.message, arrow_type, "")
        return enc
