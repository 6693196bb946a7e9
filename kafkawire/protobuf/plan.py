"""A Protobuf message type compiled into the Arrow layout ``spark-protobuf``'s
``from_protobuf`` gives it and a decode plan that both backends run.

The layout is Avro's (:class:`kafkawire.avro.plan.Layout`, finished into Arrow by
:mod:`kafkawire.avro.arrow`): a struct per message, a list per repeated field (its
items never null), a map per map field, strings for enums (the value's name), a UTC
timestamp for ``Timestamp`` and microseconds for ``Duration`` (both as Spark knows
them: a message of that name with the fields ``seconds`` and ``nanos``), the value
for the well-known wrappers (``google.protobuf.Int32Value`` ...: a nullable scalar, as
``from_protobuf`` gives them with ``unwrap.well.known.types``).  A message field whose
type has no fields is left out, as Spark leaves it out; a recursive type has no
Arrow type and is refused.

The plan: message nodes ``(kind, out, first_field, field_count)`` and field entries
``(number, kind, out, mode, sub, oneof, list_out)``; ``sub`` is a message node (for
message kinds) or a constant (an enum's names, a default); ``oneof`` a group id
(-1: none); ``list_out`` the list or map builder of a repeated field.
"""

from __future__ import annotations

import codecs
from dataclasses import dataclass, field
from typing import Any, Dict, List, Optional, Tuple

from kafkawire.avro.plan import B_FIXED, B_LIST, B_MAP, B_STRUCT, B_VAR, Builder, Layout
from kafkawire.errors import SchemaResolutionError
from kafkawire.protobuf.schema import Field, Message, Pool

# -- value kinds -------------------------------------------------------------------------
(
    K_INT32,  # varint, its low 32 bits (int32, uint32)
    K_INT64,  # varint (int64, uint64)
    K_SINT32,
    K_SINT64,
    K_BOOL,
    K_ENUM,  # sub = the enum's constant: (names by number, closed, unknown-name prefix)
    K_FIXED32,  # fixed32, sfixed32
    K_FIXED64,  # fixed64, sfixed64
    K_FLOAT,
    K_DOUBLE,
    K_STRING,
    K_BYTES,
    K_MESSAGE,  # sub = its message node
) = range(13)

WIRE_TYPE = (0, 0, 0, 0, 0, 0, 5, 1, 5, 1, 2, 2, 2)  # by kind

# -- field modes -------------------------------------------------------------------------
M_NULLABLE, M_IMPLICIT, M_DEFAULT, M_REQUIRED, M_REPEATED = range(5)
# null when absent; null when absent or the default (proto3 without presence); the
# default when absent (sub: the default's constant); an error when absent; a list

# -- message node kinds ------------------------------------------------------------------
N_STRUCT, N_INLINE, N_TIME = range(3)
# a struct of its fields; no array of its own, its fields write to others' (a map
# entry's key and value, a wrapper's value); seconds and nanos as int64 microseconds

_KINDS = {
    "int32": K_INT32,
    "uint32": K_INT32,
    "int64": K_INT64,
    "uint64": K_INT64,
    "sint32": K_SINT32,
    "sint64": K_SINT64,
    "bool": K_BOOL,
    "enum": K_ENUM,
    "fixed32": K_FIXED32,
    "sfixed32": K_FIXED32,
    "fixed64": K_FIXED64,
    "sfixed64": K_FIXED64,
    "float": K_FLOAT,
    "double": K_DOUBLE,
    "string": K_STRING,
    "bytes": K_BYTES,
    "message": K_MESSAGE,
}

_WRAPPERS = {
    f"google.protobuf.{n}Value": t
    for n, t in (
        ("Double", "double"),
        ("Float", "float"),
        ("Int64", "int64"),
        ("UInt64", "uint64"),
        ("Int32", "int32"),
        ("UInt32", "uint32"),
        ("Bool", "bool"),
        ("String", "string"),
        ("Bytes", "bytes"),
    )
}

# messages (and unknown groups) nest at most this deep in one value: a plan is bounded by
# its schema, this by what a schema may ask
MAX_DEPTH = 100


@dataclass
class Plan:
    """A message's decode plan: its nodes, field entries and constants (module docstring)."""

    nodes: List[Tuple[int, int, int, int]] = field(default_factory=list)  # kind, out, first, count
    fields: List[Tuple[int, int, int, int, int, int, int]] = field(default_factory=list)
    consts: List[Any] = field(default_factory=list)
    root: int = 0


def _arrow_scalar(pa: Any, kind: int) -> Tuple[int, int, Any]:
    """(builder kind, width, Arrow type) of a scalar kind."""
    if kind in (K_INT32, K_SINT32, K_FIXED32):
        return B_FIXED, 4, pa.int32()
    if kind in (K_INT64, K_SINT64, K_FIXED64):
        return B_FIXED, 8, pa.int64()
    if kind == K_BOOL:
        return B_FIXED, 1, pa.bool_()
    if kind == K_FLOAT:
        return B_FIXED, 4, pa.float32()
    if kind == K_DOUBLE:
        return B_FIXED, 8, pa.float64()
    if kind == K_BYTES:
        return B_VAR, 0, pa.binary()
    return B_VAR, 0, pa.string()  # string, enum


def _time_kind(m: Message) -> Optional[str]:
    """ "Timestamp" or "Duration" when Spark takes ``m`` for one (by its simple name and fields)."""
    simple = m.full_name.rsplit(".", 1)[-1]
    if simple in ("Timestamp", "Duration") and [f.name for f in m.fields] == ["seconds", "nanos"]:
        return simple
    return None


def _default(f: Field, kind: int, enum_values: List[Tuple[str, int]]) -> Any:
    """A field's default as its backend value: an int, a float, a bool, bytes."""
    text = f.default
    if kind == K_BOOL:
        return text == "true"
    if kind in (K_FLOAT, K_DOUBLE):
        return 0.0 if text is None else float(text)  # float() reads inf, -inf and nan too
    if kind == K_STRING:
        return (text or "").encode("utf-8")
    if kind == K_BYTES:  # C-escaped, as descriptors hold it
        return codecs.escape_decode((text or "").encode("utf-8"))[0]
    if kind == K_ENUM:
        if text is None:
            return enum_values[0][1]
        for name, number in enum_values:
            if name == text:
                return number
        raise SchemaResolutionError(f"the default {text!r} of {f.name!r} is not one of its enum's values")
    if text is None:
        return 0
    digits = text.lstrip("-")  # .proto integers: decimal, 0x hexadecimal, 0 octal
    base = 16 if digits[:2].lower() == "0x" else 8 if digits[:1] == "0" and len(digits) > 1 else 10
    try:
        value = int(text, base)
    except ValueError:
        raise SchemaResolutionError(f"the default {text!r} of {f.name!r} is not an integer") from None
    bits = 32 if kind in (K_INT32, K_SINT32, K_FIXED32) else 64
    value &= (1 << bits) - 1
    return value - (1 << bits) if value >= 1 << (bits - 1) else value


def compile_message(pool: Pool, root: Message) -> Tuple[Layout, Plan]:
    """The layout and plan of ``root``."""
    import pyarrow as pa

    builders: List[Builder] = []
    plan = Plan()

    def builder(kind: int, width: int, arrow_type: Any, kids: Optional[List[int]] = None) -> int:
        builders.append(Builder(kind, width, kids or [], arrow_type))
        return len(builders) - 1

    def const(value: Any) -> int:
        plan.consts.append(value)
        return len(plan.consts) - 1

    def value_of(f: Field, stack: Tuple[str, ...]) -> Optional[Tuple[int, Any, int, int]]:
        """(builder, Arrow type, kind, sub) of one value of ``f`` (a map entry for a
        map field), or None when Spark leaves the field out."""
        kind = _KINDS[f.type]
        if kind == K_ENUM:
            e = pool.enums[f.type_name]
            names: Dict[int, bytes] = {}
            for vname, number in e.values:
                names.setdefault(number, vname.encode())
            prefix = f"UNKNOWN_ENUM_VALUE_{e.full_name.rsplit('.', 1)[-1]}_".encode()
            out = builder(B_VAR, 0, pa.string())
            return out, pa.string(), kind, const((names, e.closed, prefix, _default(f, kind, e.values)))
        if kind != K_MESSAGE:
            b, w, typ = _arrow_scalar(pa, kind)
            return builder(b, w, typ), typ, kind, const(_default(f, kind, []))
        m = pool.message(f.type_name)
        if m.full_name in stack:
            raise SchemaResolutionError(f"the recursive message {m.full_name!r} has no Arrow column type")
        inner = stack + (m.full_name,)
        time = _time_kind(m)
        if time is not None:
            typ = pa.timestamp("us", tz="UTC") if time == "Timestamp" else pa.duration("us")
            out = builder(B_FIXED, 8, typ)
            zero = const(0)
            node = add_node(
                N_TIME,
                out,
                [(1, K_INT64, -1, M_IMPLICIT, zero, -1, -1), (2, K_INT32, -1, M_IMPLICIT, zero, -1, -1)],
            )
            return out, typ, kind, node
        if m.full_name in _WRAPPERS or m.map_entry:
            values = [value_of(g, inner) for g in m.fields]
            if any(v is None for v in values):
                return None
            entries = [(g.number, v[2], v[0], M_DEFAULT, v[3], -1, -1) for g, v in zip(m.fields, values)]  # type: ignore[index]
            if m.map_entry:
                key, value = values[0], values[1]
                assert key is not None and value is not None
                typ = pa.map_(key[1], pa.field("value", value[1], nullable=False))
                out = builder(B_MAP, 0, typ, [key[0], value[0]])
            else:
                out, typ = values[0][0], values[0][1]  # type: ignore[index]
            return out, typ, kind, add_node(N_INLINE, -1, entries)
        out = builder(B_STRUCT, 0, None)
        node = struct_node(m, out, inner)
        if not builders[out].kids:
            return None  # a message of no fields: Spark leaves the field out
        return out, builders[out].arrow_type, kind, node

    def add_node(node_kind: int, out: int, entries: List[Tuple[int, int, int, int, int, int, int]]) -> int:
        plan.nodes.append((node_kind, out, len(plan.fields), len(entries)))
        plan.fields.extend(entries)
        return len(plan.nodes) - 1

    def struct_node(m: Message, out: int, stack: Tuple[str, ...]) -> int:
        entries = []
        arrow_fields = []
        for f in m.fields:
            got = value_of(f, stack)
            if got is None:
                continue
            fout, typ, kind, sub = got
            oneof = -1 if f.oneof is None else f.oneof + (1 << 20)  # proto3 optional: negative ids
            list_out = -1
            if f.label == "repeated":
                mode = M_REPEATED
                if pa.types.is_map(typ):
                    list_out, fout = fout, -1
                else:
                    list_out = builder(B_LIST, 0, pa.list_(pa.field("element", typ, nullable=False)), [fout])
                    typ = builders[list_out].arrow_type
                builders[out].kids.append(list_out)
            else:
                builders[out].kids.append(fout)
                if f.label == "required":
                    mode = M_REQUIRED
                elif f.default is not None and kind != K_MESSAGE:
                    mode = M_DEFAULT
                elif f.presence:
                    mode = M_NULLABLE
                else:
                    mode = M_IMPLICIT
            arrow_fields.append(pa.field(f.name, typ, nullable=f.label != "required"))
            entries.append((f.number, kind, fout, mode, sub, oneof, list_out))
        builders[out].arrow_type = pa.struct(arrow_fields)
        return add_node(N_STRUCT, out, entries)

    out = builder(B_STRUCT, 0, None)
    plan.root = struct_node(root, out, (root.full_name,))
    return Layout(builders, builders[out].arrow_type, {}), plan
