"""Avro schemas compiled into decode plans that both backends run.

A reader schema gives the *layout*: one builder per Arrow array of the output (a
struct per record, a list per array, a map per map, a struct of branches per union
that is more than a nullable type).  A writer schema, resolved against the reader
schema as the Avro specification defines it, gives a *plan*: flat nodes that read the
writer's bytes and append to the layout's builders.  Every writer schema id of a
column gets its own plan over the one layout, so the rows of all of them land in the
same arrays.

Nodes are tuples ``(op, out, a, b, first_kid, kid_count)``; ``out`` is a builder
index (-1: read and drop, for the fields the reader does not have); the kids of a
node are ``kids[first_kid:first_kid + kid_count]`` (node indexes, or for an enum the
writer-to-reader symbol map).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, List, Optional, Tuple

from kafkawire.avro.schema import Schema
from kafkawire.errors import SchemaResolutionError

# -- builder kinds (the Arrow layout of one array) ---------------------------------
B_NULL, B_FIXED, B_VAR, B_LIST, B_MAP, B_STRUCT = range(6)

# -- ops ---------------------------------------------------------------------------------
(
    OP_NULL,  # append a null to out
    OP_BOOL,
    OP_INT,
    OP_LONG,
    OP_FLOAT,
    OP_DOUBLE,
    OP_BYTES,  # bytes or string
    OP_FIXED,  # a = size
    OP_ENUM,  # a = writer symbol count; b = const (message for an unknown symbol); kids = reader index per writer symbol (-1: unknown)
    OP_RECORD,  # kids = field nodes in writer order, then the defaults of added fields
    OP_ARRAY,  # kids = [item node]; a = least bytes of an item
    OP_MAP,  # a = key builder; kids = [value node]; b = least bytes of a value
    OP_UNION,  # kids = one node per writer branch
    OP_MEMBER,  # out = a union's struct of branches; a = branch; kids = [node into it]
    OP_DECIMAL,  # a = fixed size (0: bytes); b = output width (16 or 32)
    OP_DURATION,  # fixed(12) to Arrow's month_day_nano interval
    OP_DEFAULT,  # a = const (the default, Avro-encoded); kids = [reader node]
    OP_ERROR,  # a = const (the message): a writer branch the reader cannot take
    OP_INT_LONG,
    OP_INT_FLOAT,
    OP_INT_DOUBLE,
    OP_LONG_FLOAT,
    OP_LONG_DOUBLE,
    OP_FLOAT_DOUBLE,
) = range(24)

# items of no bytes at all (nulls, records of nulls) that one array or map may hold:
# beyond this, a count is taken for a hostile value (a few bytes that would make
# megabytes of output), not data
MAX_EMPTY_ITEMS = 4096


@dataclass
class Builder:
    """One output array: its kind, value width (B_FIXED), child builders and Arrow type."""

    kind: int
    width: int
    kids: List[int]
    arrow_type: Any
    enum_symbols: Optional[List[str]] = None  # the dictionary of an enum column
    logical: Optional[str] = None  # "decimal" or "duration": values converted, not copied


@dataclass
class Layout:
    """The builders of a reader schema (root at index 0) and its Arrow type (the layout
    of a Protobuf message too: its ``reader`` then empty)."""

    builders: List[Builder]
    arrow_type: Any
    reader: Schema

    def spec(self) -> List[Tuple[int, int, Tuple[int, ...]]]:
        """What a backend needs of each builder: (kind, width, kids)."""
        return [(b.kind, b.width, tuple(b.kids)) for b in self.builders]


@dataclass
class Plan:
    """A writer schema's decode plan into a layout: its nodes, kid lists and constants."""

    nodes: List[Tuple[int, int, int, int, int, int]] = field(default_factory=list)
    kids: List[int] = field(default_factory=list)
    consts: List[bytes] = field(default_factory=list)
    root: int = 0
    writer_id: Optional[int] = None


# -- the layout of a reader schema -----------------------------------------------------


def _is_nullable_union(s: Schema) -> bool:
    return (
        s["type"] == "union" and len(s["branches"]) == 2 and any(b["type"] == "null" for b in s["branches"])
    )


def _non_null(s: Schema) -> Schema:
    return next(b for b in s["branches"] if b["type"] != "null")


def build_layout(reader: Schema, enums_as: str = "dictionary") -> Layout:
    """The builders for ``reader``: enums as an Arrow dictionary or as strings (``enums_as``)."""
    import pyarrow as pa

    if enums_as not in ("dictionary", "string"):
        raise ValueError(f"enums_as is 'dictionary' or 'string', not {enums_as!r}")
    builders: List[Builder] = []

    def add(s: Schema, stack: Tuple[str, ...]) -> Tuple[int, Any, bool]:
        """The builder index, Arrow type and nullability for ``s``."""
        t = s["type"]
        if t in ("record", "enum", "fixed") and s["name"] in stack:
            raise SchemaResolutionError(f"the recursive type {s['name']!r} has no Arrow column type")
        if t == "union":
            if len(s["branches"]) == 1:
                return add(s["branches"][0], stack)
            if all(b["type"] == "null" for b in s["branches"]):
                return add(s["branches"][0], stack)
            if _is_nullable_union(s):
                i, typ, _ = add(_non_null(s), stack)
                return i, typ, True
            index = len(builders)
            builders.append(Builder(B_STRUCT, 0, [], None))
            fields = []
            for m, b in enumerate(x for x in s["branches"] if x["type"] != "null"):
                kid, typ, _ = add(b, stack)
                builders[index].kids.append(kid)
                fields.append(pa.field(f"member{m}", typ, nullable=True))
            builders[index].arrow_type = pa.struct(fields)
            return index, builders[index].arrow_type, any(b["type"] == "null" for b in s["branches"])
        index = len(builders)
        builders.append(Builder(B_NULL, 0, [], None))
        b = builders[index]
        logical = str(s.get("logicalType"))
        if t == "null":
            b.arrow_type = pa.null()
            return index, b.arrow_type, True
        if t == "boolean":
            b.kind, b.width, b.arrow_type = B_FIXED, 1, pa.bool_()
        elif t == "int":
            b.kind, b.width = B_FIXED, 4
            b.arrow_type = {"date": pa.date32(), "time-millis": pa.time32("ms")}.get(logical, pa.int32())
        elif t == "long":
            b.kind, b.width = B_FIXED, 8
            b.arrow_type = {
                "time-micros": pa.time64("us"),
                "timestamp-millis": pa.timestamp("ms", tz="UTC"),
                "timestamp-micros": pa.timestamp("us", tz="UTC"),
                "timestamp-nanos": pa.timestamp("ns", tz="UTC"),
                "local-timestamp-millis": pa.timestamp("ms"),
                "local-timestamp-micros": pa.timestamp("us"),
                "local-timestamp-nanos": pa.timestamp("ns"),
            }.get(logical, pa.int64())
        elif t == "float":
            b.kind, b.width, b.arrow_type = B_FIXED, 4, pa.float32()
        elif t == "double":
            b.kind, b.width, b.arrow_type = B_FIXED, 8, pa.float64()
        elif t in ("bytes", "fixed") and logical == "decimal" and _decimal_ok(s):
            precision, scale = s["precision"], s.get("scale", 0)
            b.kind, b.logical = B_FIXED, "decimal"
            b.width = 16 if precision <= 38 else 32
            b.arrow_type = (pa.decimal128 if b.width == 16 else pa.decimal256)(precision, scale)
        elif t == "fixed" and logical == "duration" and s["size"] == 12:
            b.kind, b.width, b.logical = B_FIXED, 16, "duration"
            b.arrow_type = pa.month_day_nano_interval()
        elif t == "bytes":
            b.kind, b.arrow_type = B_VAR, pa.binary()
        elif t == "string":
            b.kind, b.arrow_type = B_VAR, pa.string()
        elif t == "fixed":
            b.kind, b.width, b.arrow_type = B_FIXED, s["size"], pa.binary(s["size"])
        elif t == "enum":
            b.kind, b.width, b.enum_symbols = B_FIXED, 4, s["symbols"]
            b.arrow_type = pa.dictionary(pa.int32(), pa.string()) if enums_as == "dictionary" else pa.string()
        elif t == "array":
            b.kind = B_LIST
            kid, typ, nullable = add(s["items"], stack)
            b.kids = [kid]
            b.arrow_type = pa.list_(pa.field("element", typ, nullable=nullable))
        elif t == "map":
            b.kind = B_MAP
            key = len(builders)
            builders.append(Builder(B_VAR, 0, [], pa.string()))
            kid, typ, nullable = add(s["values"], stack)
            b.kids = [key, kid]
            b.arrow_type = pa.map_(pa.string(), pa.field("value", typ, nullable=nullable))
        elif t == "record":
            b.kind = B_STRUCT
            fields = []
            for f in s["fields"]:
                kid, typ, nullable = add(f["type"], stack + (s["name"],))
                b.kids.append(kid)
                fields.append(pa.field(f["name"], typ, nullable=nullable))
            b.arrow_type = pa.struct(fields)
        else:  # pragma: no cover - schema.parse admits no other type
            raise SchemaResolutionError(f"unknown type {t!r}")
        return index, b.arrow_type, False

    _, arrow_type, _ = add(reader, ())
    return Layout(builders, arrow_type, reader)


def _decimal_ok(s: Schema) -> bool:
    """A decimal the specification allows (else the underlying type is used, as Java does)."""
    p, scale = s.get("precision"), s.get("scale", 0)
    if not isinstance(p, int) or not isinstance(scale, int) or not 0 < p <= 76 or not 0 <= scale <= p:
        return False
    return s["type"] == "bytes" or bool((2 ** (8 * s["size"] - 1) - 1) >= 10**p - 1)
