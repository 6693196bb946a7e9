"""Columns of JSON values framed by Confluent's ``JSONSerializer``, parsed to typed Arrow.

A framed JSON value is the magic byte 0, the schema id (4 bytes, big-endian), then the
value as UTF-8 JSON text.  The reader schema (a JSON Schema, draft-07 or 2020-12, as
the registry holds it) is compiled once into an Arrow type and one checking converter
per node; each value is parsed by the standard library's C parser and checked against
the reader schema as it is laid into the row that Arrow builds the column from.  The
writer schema id of each value must name a JSON schema in the registry; the value is
then read by the reader schema alone, as JSON is read: absent properties null, unknown
ones dropped.  :class:`JsonColumnDecoder` reads bare JSON texts (no framing) the same way;
:class:`RegistryJsonEncoder` writes Arrow rows as framed values, each checked first.
The Connect types that Kafka Connect's JSON Schema converter writes into a schema
(``connect.type``, a logical type's name as the ``title``) keep their width and meaning.

This reader is exact, and it is the pure backend's whole work.  Each converter keeps
beside it what it does (its plan), from which :class:`FastPlan` lays out the work of the
Cython backend's reader (``kafkawire._fast.json_schema``): it parses and checks a value
in one pass into the column's buffers, and leaves the rows it cannot vouch for to this
reader, so both give the same column, the same exceptions and the same messages.
"""

from __future__ import annotations

import datetime
import json
import math
import re
import weakref
from typing import TYPE_CHECKING, Any, Callable, Dict, List, Mapping, Optional, Sequence, Set, Tuple, Union

from kafkawire import _backend
from kafkawire.avro import plan as P
from kafkawire.avro.arrow import finish
from kafkawire.avro.decode import binary_column
from kafkawire.errors import (
    PayloadDecodeError,
    SchemaFramingError,
    SchemaResolutionError,
    TruncatedPayloadError,
)
from kafkawire.registry.client import RegisteredSchema, SchemaRegistryClient
from kafkawire.registry.strategies import ForTopic, strategy
from kafkawire.registry.wire import parse_header

if TYPE_CHECKING:  # a type checker reads the pure twin; at run time the active backend's
    from kafkawire._backend_interfaces import JsonSchemaBackend
    from kafkawire._pure import json_schema as _pure_json_schema

    from kafkawire._pure.json_schema import read_column as _read_column

    _PURE_IS_A_BACKEND: JsonSchemaBackend = _pure_json_schema  # what implementation("json_schema") promises
else:
    _backend.bind(globals(), "json_schema", ("read_column",), prefix="_")

JsonSchema = Union[bool, Dict[str, Any]]
# a node's converter: the parsed JSON value to what Arrow's builder takes, checked
Convert = Callable[[Any], Any]

MAX_REF_DEPTH = 32  # references of references, and $ref chains: past this a schema is refused
_INT64 = (-(1 << 63), (1 << 63) - 1)
_INT32 = (-(1 << 31), (1 << 31) - 1)
# Kafka Connect's JSON Schema converter keeps a Connect type the JSON types lack in the
# property connect.type, and a logical type in the schema's title
CONNECT_TYPE = "connect.type"
_CONNECT_WIDTHS = {"int8": (-(1 << 7), (1 << 7) - 1), "int16": (-(1 << 15), (1 << 15) - 1), "int32": _INT32}
CONNECT_LOGICAL: Dict[str, Tuple[Callable[[], Any], int, int]] = {
    # milliseconds since the epoch, days since the epoch, milliseconds of the day
    "org.apache.kafka.connect.data.Timestamp": (lambda: _pa().timestamp("ms", tz="UTC"), *_INT64),
    "org.apache.kafka.connect.data.Date": (lambda: _pa().date32(), *_INT32),
    "org.apache.kafka.connect.data.Time": (lambda: _pa().time32("ms"), 0, 86_400_000 - 1),
}
# RFC 3339's date-time and full-date (the JSON Schema formats); the offset is required
_DATE_TIME = re.compile(
    r"(\d{4})-(\d{2})-(\d{2})[Tt ](\d{2}):(\d{2}):(\d{2})(?:\.(\d+))?([Zz]|[+-]\d{2}:\d{2})\Z", re.ASCII
)
_DATE = re.compile(r"(\d{4})-(\d{2})-(\d{2})\Z", re.ASCII)
_TYPES = ("object", "array", "string", "integer", "number", "boolean", "null")

# What the compiled reader (kafkawire._fast.json_schema) does for a converter, kept beside
# it: (kind, arguments).  A converter without one is called by that reader on the value.
N_STRING, N_DATETIME, N_DATE, N_INT, N_NUMBER, N_BOOL, N_ARRAY, N_MAP, N_STRUCT, N_PY = range(10)
N_JOINED = -1  # the structs of an allOf: one N_STRUCT to that reader
_PLANS: "weakref.WeakKeyDictionary[Convert, Tuple[Any, ...]]" = weakref.WeakKeyDictionary()


def _planned(*plan: Any) -> Callable[[Convert], Convert]:
    def mark(convert: Convert) -> Convert:
        _PLANS[convert] = plan
        return convert

    return mark


class Misfit(ValueError):
    """A JSON value that its schema does not take; ``path`` is where (``address.zip``,
    ``tags[]``)."""

    def __init__(self, path: str, reason: str) -> None:
        super().__init__(f"field {path or '(the value)'}: {reason}")
        self.path = path
        self.reason = reason


def _pa() -> Any:
    import pyarrow

    return pyarrow


def _json_text(value: Any) -> str:
    """A JSON value as a string column holds it: a string as itself, anything else as
    compact JSON text (as Spark's ``from_json`` gives a string field that holds JSON)."""
    if type(value) is str:
        return value
    return json.dumps(value, separators=(",", ":"), ensure_ascii=False, allow_nan=False)


def _kind(value: Any) -> str:
    """The JSON type of a parsed value, for messages."""
    if value is None:
        return "null"
    if type(value) is bool:
        return "boolean"
    if type(value) is int:
        return "integer"
    if type(value) is float:
        return "number"
    names: Dict[type, str] = {str: "string", list: "array", dict: "object"}
    return names.get(type(value), type(value).__name__)


def _parse_date_time(text: str) -> datetime.datetime:
    m = _DATE_TIME.match(text)
    if m is None:
        raise ValueError("not an RFC 3339 date-time with a UTC offset")
    year, month, day, hour, minute, second, frac, zone = m.groups()
    tz = datetime.timezone.utc
    if zone not in ("Z", "z"):
        sign = -1 if zone[0] == "-" else 1
        tz = datetime.timezone(sign * datetime.timedelta(hours=int(zone[1:3]), minutes=int(zone[4:6])))
    micros = int((frac or "").ljust(6, "0")[:6])  # truncated to microseconds, as Spark keeps them
    return datetime.datetime(
        int(year), int(month), int(day), int(hour), int(minute), int(second), micros, tzinfo=tz
    )


def _parse_date(text: str) -> datetime.date:
    m = _DATE.match(text)
    if m is None:
        raise ValueError("not an RFC 3339 full-date (YYYY-MM-DD)")
    return datetime.date(int(m[1]), int(m[2]), int(m[3]))


class _Compiler:
    """Turns a JSON Schema (and the schemas it references by name) into an Arrow type
    and a converter, resolving ``$ref`` into ``$defs``/``definitions`` and into the
    referenced documents."""

    def __init__(self, documents: Mapping[str, JsonSchema]) -> None:
        self.documents = dict(documents)
        self.active: List[str] = []  # the $refs being compiled: one met again is a recursion
        self.connect_logical: Dict[str, str] = {}  # path -> the Connect logical type written there

    # -- $ref ----------------------------------------------------------------------------

    def _pointer(self, doc: JsonSchema, pointer: str, ref: str) -> JsonSchema:
        node: Any = doc
        for token in [t for t in pointer.lstrip("/").split("/") if t] if pointer else []:
            token = token.replace("~1", "/").replace("~0", "~")
            if isinstance(node, dict) and token in node:
                node = node[token]
            elif isinstance(node, list) and token.isdigit() and int(token) < len(node):
                node = node[int(token)]
            else:
                raise SchemaResolutionError(f"$ref {ref!r} points to nothing")
        if not isinstance(node, (dict, bool)):
            raise SchemaResolutionError(f"$ref {ref!r} points to something that is not a schema")
        return node

    def _resolve(self, ref: str, base: JsonSchema) -> Tuple[JsonSchema, JsonSchema]:
        """The schema ``ref`` names and the document it is in."""
        name, _, pointer = ref.partition("#")
        if name:
            doc = self.documents.get(name)
            if doc is None:  # a document named by its $id rather than by the reference's name
                doc = next(
                    (d for d in self.documents.values() if isinstance(d, dict) and d.get("$id") == name), None
                )
            if doc is None:
                raise SchemaResolutionError(f"$ref {ref!r} names no schema given or referenced")
        else:
            doc = base
        if pointer and not pointer.startswith("/"):  # an anchor: a $defs entry with that $anchor
            for defs in ("$defs", "definitions"):
                for sub in (doc.get(defs) or {}).values() if isinstance(doc, dict) else ():
                    if isinstance(sub, dict) and sub.get("$anchor") == pointer:
                        return sub, doc
            raise SchemaResolutionError(f"$ref {ref!r}: no such anchor")
        return self._pointer(doc, pointer, ref), doc

    # -- schemas -----------------------------------------------------------------------

    def compile(self, schema: JsonSchema, doc: JsonSchema, path: str) -> Tuple[Any, Convert, bool]:
        """``(arrow type, converter, nullable)`` of ``schema`` (inside document ``doc``)."""
        import pyarrow as pa

        if schema is True or schema == {}:
            return pa.string(), _json_text, True
        if schema is False:
            raise SchemaResolutionError(f"field {path or '(the value)'}: the schema false takes no value")
        if not isinstance(schema, dict):
            raise SchemaResolutionError(f"field {path or '(the value)'}: {schema!r} is not a schema")
        if "$ref" in schema:
            ref = schema["$ref"]
            if not isinstance(ref, str):
                raise SchemaResolutionError(f"field {path}: $ref {ref!r} is not a string")
            key = f"{id(doc)}:{ref}"
            if key in self.active:
                raise SchemaResolutionError(
                    f"field {path}: $ref {ref!r} is recursive, which no Arrow type holds"
                )
            if len(self.active) >= MAX_REF_DEPTH:
                raise SchemaResolutionError(f"field {path}: $refs chain deeper than {MAX_REF_DEPTH}")
            target, target_doc = self._resolve(ref, doc)
            self.active.append(key)
            try:
                return self.compile(target, target_doc, path)
            finally:
                self.active.pop()
        if "enum" in schema or "const" in schema:
            return self._enum(schema, path)
        for word in ("oneOf", "anyOf"):
            if word in schema:
                return self._alternatives(schema[word], doc, path, word)
        if "allOf" in schema:
            return self._all_of(schema["allOf"], doc, path)
        types = schema.get("type")
        if types is None:
            types = "object" if "properties" in schema else "array" if "items" in schema else None
            if types is None:
                return pa.string(), _json_text, True
        if isinstance(types, str):
            types = [types]
        if not isinstance(types, list) or not types or any(t not in _TYPES for t in types):
            raise SchemaResolutionError(
                f"field {path or '(the value)'}: type {schema.get('type')!r} is not JSON Schema's"
            )
        nullable = "null" in types
        kept = [t for t in types if t != "null"]
        if "integer" in kept and "number" in kept:  # every integer is a number
            kept.remove("integer")
        if not kept:
            return pa.null(), _null(path), True
        if len(kept) == 1:
            arrow, convert, _ = self._typed(kept[0], schema, doc, path)
            return arrow, convert, nullable
        branches = [self._typed(t, schema, doc, path)[1] for t in kept]
        return pa.string(), _any_of(branches, path), True

    def _typed(
        self, kind: str, schema: Dict[str, Any], doc: JsonSchema, path: str
    ) -> Tuple[Any, Convert, bool]:
        import pyarrow as pa

        if kind == "object":
            return self._object(schema, doc, path)
        if kind == "array":
            items = schema.get("items", True)
            if isinstance(items, list) or "prefixItems" in schema:  # a tuple: items of several schemas
                items = True
            arrow, convert, nullable = self.compile(items, doc, f"{path}[]")
            return pa.list_(pa.field("element", arrow)), _array(convert, nullable, path), False
        if kind == "string":
            fmt = schema.get("format")
            if fmt == "date-time":
                return pa.timestamp("us", tz="UTC"), _string(path, _parse_date_time), False
            if fmt == "date":
                return pa.date32(), _string(path, _parse_date), False
            return pa.string(), _string(path, None), False
        if kind == "integer":
            return self._connect_integer(schema, path)
        if kind == "number":
            if schema.get(CONNECT_TYPE) == "float32":
                return pa.float32(), _number(path), False
            return pa.float64(), _number(path), False
        return pa.bool_(), _boolean(path), False

    def _connect_integer(self, schema: Dict[str, Any], path: str) -> Tuple[Any, Convert, bool]:
        """An integer as Kafka Connect's JSON Schema converter wrote it: its logical type
        (the schema's title) or its width (``connect.type``), else int64."""
        import pyarrow as pa

        logical = CONNECT_LOGICAL.get(schema.get("title", ""))
        if logical is not None:
            self.connect_logical[path] = schema["title"]
        if logical is not None:
            arrow, low, high = logical
            return arrow(), _integer(path, low, high), False
        low, high = _CONNECT_WIDTHS.get(schema.get(CONNECT_TYPE, "int64"), _INT64)
        return (pa.int64() if high > _INT32[1] else pa.int32()), _integer(path, low, high), False

    def _object(self, schema: Dict[str, Any], doc: JsonSchema, path: str) -> Tuple[Any, Convert, bool]:
        import pyarrow as pa

        properties = schema.get("properties")
        if not properties:
            extra = schema.get("additionalProperties", True)
            arrow, convert, nullable = self.compile(True if extra is False else extra, doc, f"{path}{{}}")
            return pa.map_(pa.string(), arrow), _map(convert, nullable, path), False
        required = set(schema.get("required") or ())
        fields = []
        converters = []
        for name, sub in properties.items():
            arrow, convert, nullable = self.compile(sub, doc, f"{path}.{name}" if path else name)
            fields.append(pa.field(name, arrow))
            converters.append((name, convert, nullable, name in required))
        for name in required - set(properties):  # required yet not described: it must be there
            converters.append((name, _json_text, True, True))
        return pa.struct(fields), _struct(converters, path, len(fields)), False

    def _enum(self, schema: Dict[str, Any], path: str) -> Tuple[Any, Convert, bool]:
        import pyarrow as pa

        allowed = list(schema["enum"]) if "enum" in schema else [schema["const"]]
        if not isinstance(schema.get("enum", []), list) or not allowed:
            raise SchemaResolutionError(f"field {path}: enum {schema.get('enum')!r} is not a non-empty list")
        nullable = None in allowed
        kinds = {_kind(v) for v in allowed if v is not None}
        if kinds == {"integer", "number"}:
            kinds = {"number"}
        kind = kinds.pop() if len(kinds) == 1 else None
        arrow = {
            "string": pa.string(),
            "integer": pa.int64(),
            "number": pa.float64(),
            "boolean": pa.bool_(),
        }.get(kind or "", pa.string())
        keys = {_enum_key(v) for v in allowed}
        out: Convert = {"integer": _integer(path), "number": _number(path), "boolean": _boolean(path)}.get(
            kind or "", _json_text
        )

        def convert(value: Any) -> Any:
            if _enum_key(value) not in keys:
                raise Misfit(path, f"{_short(value)} is not one of the enum's values")
            return out(value)

        return arrow, convert, nullable

    def _alternatives(
        self, branches: Any, doc: JsonSchema, path: str, word: str
    ) -> Tuple[Any, Convert, bool]:
        import pyarrow as pa

        if not isinstance(branches, list) or not branches:
            raise SchemaResolutionError(f"field {path}: {word} is not a non-empty list")
        compiled = [self.compile(b, doc, path) for b in branches]
        nullable = any(n for _, _, n in compiled)
        kept = [c for c in compiled if not pa.types.is_null(c[0])]
        if not kept:
            return pa.null(), _null(path), True
        if len(kept) == 1:  # T or null: a nullable T, as Confluent's converter reads it
            return kept[0][0], kept[0][1], nullable
        if all(c[0] == kept[0][0] for c in kept):  # one Arrow type: the first branch that takes the value
            return kept[0][0], _first_of([c[1] for c in kept], path), nullable
        return pa.string(), _any_of([c[1] for c in kept], path), True

    def _all_of(self, parts: Any, doc: JsonSchema, path: str) -> Tuple[Any, Convert, bool]:
        """The schemas of an ``allOf``: one schema as itself; objects (the form in which
        schemas extend each other) as one struct of all their properties, each part
        checking the value."""
        import pyarrow as pa

        if not isinstance(parts, list) or not parts:
            raise SchemaResolutionError(f"field {path}: allOf is not a non-empty list")
        compiled = [self.compile(part, doc, path) for part in parts]
        if len(compiled) == 1:
            return compiled[0]
        if not all(pa.types.is_struct(arrow) for arrow, _, _ in compiled):
            raise SchemaResolutionError(f"field {path}: allOf of schemas that are not all objects")
        fields: Dict[str, Any] = {}
        for arrow, _, _ in compiled:
            for f in arrow:
                if fields.setdefault(f.name, f) != f:
                    raise SchemaResolutionError(f"field {path}: allOf gives {f.name} two types")
        return (
            pa.struct(list(fields.values())),
            _joined([c for _, c, _ in compiled]),
            all(n for _, _, n in compiled),
        )


def _enum_key(value: Any) -> Any:
    """A JSON value as enum values compare: 1 and 1.0 alike, true and 1 not."""
    kind = _kind(value)
    if kind in ("integer", "number"):
        return ("number", value)
    if kind in ("array", "object"):
        return (kind, json.dumps(value, sort_keys=True))
    return (kind, value)


def _short(value: Any) -> str:
    text = repr(value)
    return text if len(text) <= 60 else text[:57] + "..."


def _wrong(path: str, want: str, value: Any) -> Misfit:
    return Misfit(path, f"expected {want}, got {_kind(value)} {_short(value)}")


def _null(path: str) -> Convert:
    def convert(value: Any) -> Any:
        raise _wrong(path, "null", value)

    return convert


def _string(path: str, parse: Optional[Callable[[str], Any]]) -> Convert:
    kinds: Dict[Any, int] = {None: N_STRING, _parse_date_time: N_DATETIME, _parse_date: N_DATE}

    @_planned(kinds[parse])
    def convert(value: Any) -> Any:
        if type(value) is not str:
            raise _wrong(path, "a string", value)
        if parse is None:
            return value
        try:
            return parse(value)
        except ValueError as exc:
            raise Misfit(path, f"{_short(value)}: {exc}") from None

    return convert


def _integer(path: str, low: int = _INT64[0], high: int = _INT64[1]) -> Convert:
    @_planned(N_INT, low, high)
    def convert(value: Any) -> Any:
        if type(value) is float and value.is_integer():  # 1.0 is an integer to JSON Schema
            value = int(value)
        if type(value) is not int:
            raise _wrong(path, "an integer", value)
        if not low <= value <= high:
            raise Misfit(path, f"integer {_short(value)} is outside [{low}, {high}]")
        return value

    return convert


def _number(path: str) -> Convert:
    @_planned(N_NUMBER)
    def convert(value: Any) -> Any:
        if type(value) is int:
            try:
                return float(value)
            except OverflowError:
                raise Misfit(path, f"number {_short(value)} is past a double's range") from None
        if type(value) is not float:
            raise _wrong(path, "a number", value)
        if not math.isfinite(value):  # 1e400 parses as infinity
            raise Misfit(path, "a number past a double's range")
        return value

    return convert


def _boolean(path: str) -> Convert:
    @_planned(N_BOOL)
    def convert(value: Any) -> Any:
        if type(value) is not bool:
            raise _wrong(path, "a boolean", value)
        return value

    return convert


def _array(item: Convert, nullable: bool, path: str) -> Convert:
    @_planned(N_ARRAY, item, nullable)
    def convert(value: Any) -> Any:
        if type(value) is not list:
            raise _wrong(path, "an array", value)
        if nullable:
            return [None if v is None else item(v) for v in value]
        return [item(v) for v in value]

    return convert


def _map(item: Convert, nullable: bool, path: str) -> Convert:
    @_planned(N_MAP, item, nullable)
    def convert(value: Any) -> Any:
        if type(value) is not dict:
            raise _wrong(path, "an object", value)
        return [(k, None if v is None and nullable else item(v)) for k, v in value.items()]

    return convert


def _struct(fields: Sequence[Tuple[str, Convert, bool, bool]], path: str, width: int) -> Convert:
    described = fields[:width]
    undescribed = [name for name, _, _, _ in fields[width:]]

    @_planned(N_STRUCT, fields, width)
    def convert(value: Any) -> Any:
        if type(value) is not dict:
            raise _wrong(path, "an object", value)
        row = {}
        for name, item, nullable, required in described:
            if name in value:
                v = value[name]
                row[name] = None if v is None and nullable else item(v)
            elif required:
                raise Misfit(f"{path}.{name}" if path else name, "a required property is missing")
            else:
                row[name] = None
        for name in undescribed:
            if name not in value:
                raise Misfit(f"{path}.{name}" if path else name, "a required property is missing")
        return row

    return convert


def _joined(parts: Sequence[Convert]) -> Convert:
    """The struct rows of several converters of one value, joined."""

    @_planned(N_JOINED, parts)
    def convert(value: Any) -> Any:
        row: Dict[str, Any] = {}
        for part in parts:
            row.update(part(value))
        return row

    return convert


def _first_of(branches: Sequence[Convert], path: str) -> Convert:
    def convert(value: Any) -> Any:
        reasons = []
        for branch in branches:
            try:
                return branch(value)
            except Misfit as exc:
                reasons.append(exc.reason)
        raise Misfit(path, "no alternative takes the value: " + "; ".join(reasons))

    return convert


def _any_of(branches: Sequence[Convert], path: str) -> Convert:
    """Alternatives of different types: checked, then kept as JSON text."""
    first = _first_of(branches, path)

    def convert(value: Any) -> Any:
        first(value)
        return _json_text(value)

    return convert


class _Unplanned(Exception):
    """A node of an Arrow type the compiled reader cannot lay a converter's result in."""


# the Arrow types of the converters the compiled reader calls: (kind of result, width)
def _python_outputs() -> Dict[Any, Tuple[int, int, int]]:
    pa = _pa()
    return {
        pa.string(): (0, P.B_VAR, 0),
        pa.int64(): (1, P.B_FIXED, 8),
        pa.float64(): (2, P.B_FIXED, 8),
        pa.bool_(): (3, P.B_FIXED, 1),
    }


def _struct_fields(convert: Convert) -> Tuple[List[Tuple[str, Convert, bool, bool]], int]:
    """The fields ``(name, converter, nullable, required)`` of a struct converter (those
    it describes first, then the ones only required) and how many it describes; of an
    ``allOf``'s join of structs, the fields of all, when no two describe one property."""
    plan = _PLANS.get(convert, (N_PY,))
    if plan[0] == N_STRUCT:
        return list(plan[1]), plan[2]
    if plan[0] != N_JOINED:
        raise _Unplanned("an allOf part that is not an object schema")
    described: List[Tuple[str, Convert, bool, bool]] = []
    only_required: Dict[str, Tuple[str, Convert, bool, bool]] = {}
    for part in plan[1]:
        fields, count = _struct_fields(part)
        described += fields[:count]
        only_required.update((f[0], f) for f in fields[count:])
    names = [f[0] for f in described]
    if len(set(names)) != len(names):
        raise _Unplanned("allOf parts that describe one property")
    merged = [(n, c, nullable, required or n in only_required) for n, c, nullable, required in described]
    return merged + [f for n, f in only_required.items() if n not in names], len(described)


class FastPlan:
    """A compiled layout as the compiled reader runs it: one builder per Arrow array
    (:class:`kafkawire.avro.plan.Layout`, finished by :func:`kafkawire.avro.arrow.finish`),
    nodes ``(kind, builder, a, b, width, low, high, converter)`` (the root first) and the
    struct fields ``(name, node, nullable, required)``."""

    def __init__(self, arrow_type: Any, convert: Convert, nullable: bool) -> None:
        self.builders: List[P.Builder] = []
        self.nodes: List[Tuple[Any, ...]] = []
        self.fields: List[Tuple[bytes, int, bool, bool]] = []
        self._python = _python_outputs()
        self._lower(arrow_type, convert)
        self.layout = P.Layout(self.builders, arrow_type, {})  # no Avro reader schema
        self.spec = self.layout.spec()
        self.plan = (self.nodes, self.fields, nullable)

    def _lower(self, arrow: Any, convert: Convert) -> int:
        """The node of ``convert`` (of Arrow type ``arrow``), its kids' nodes after it."""
        pa = _pa()
        plan = _PLANS.get(convert, (N_PY,))
        kind, args = plan[0], plan[1:]
        node, out = len(self.nodes), len(self.builders)
        self.nodes.append(())
        self.builders.append(P.Builder(P.B_NULL, 0, [], arrow))
        a = b = width = low = high = 0
        builder = P.Builder(P.B_FIXED, 0, [], arrow)
        if kind in (N_STRING, N_DATETIME, N_DATE, N_INT, N_NUMBER, N_BOOL):
            if kind == N_STRING:
                builder.kind = P.B_VAR
            else:
                width = builder.width = 1 if kind == N_BOOL else arrow.bit_width // 8
            if kind == N_INT:
                low, high = args
        elif kind in (N_ARRAY, N_MAP):
            item, b = args
            if kind == N_ARRAY:
                builder.kind = P.B_LIST
                a = self._lower(arrow.value_type, item)
                builder.kids = [self.nodes[a][1]]
            else:
                builder.kind = P.B_MAP
                keys = len(self.builders)
                self.builders.append(P.Builder(P.B_VAR, 0, [], pa.string()))
                a = self._lower(arrow.item_type, item)
                builder.kids = [keys, self.nodes[a][1]]
        elif kind in (N_STRUCT, N_JOINED):
            described, count = _struct_fields(convert)
            builder.kind = P.B_STRUCT
            entries = []
            for i, (name, item, nullable, required) in enumerate(described):
                kid = self._lower(arrow.field(i).type, item) if i < count else -1
                entries.append((name.encode("utf-8"), kid, nullable, required))
            builder.kids = [self.nodes[kid][1] for _, kid, _, _ in entries if kid >= 0]
            a, b = len(self.fields), len(entries)
            self.fields.extend(entries)
        else:
            if arrow not in self._python:
                raise _Unplanned(str(arrow))
            a, builder.kind, builder.width = self._python[arrow]
        self.builders[out] = builder
        self.nodes[node] = (kind, out, a, b, width, low, high, convert if kind == N_PY else None)
        return node


class JsonSchemaLayout:
    """A JSON Schema compiled: its Arrow type and the converter of parsed values.

    ``documents`` are the schemas it references, by the name its ``$ref``s use (the
    name of the registry's schema reference).
    """

    def __init__(
        self, schema: Union[str, JsonSchema], documents: Optional[Mapping[str, Union[str, JsonSchema]]] = None
    ) -> None:
        root = _load_schema(schema)
        docs = {name: _load_schema(d) for name, d in (documents or {}).items()}
        compiler = _Compiler(docs)
        arrow, convert, nullable = compiler.compile(root, root, "")
        # where the schema holds a time as Kafka Connect's integer (a writer writes it so)
        self.connect_logical = compiler.connect_logical
        self.arrow_type = arrow
        self.nullable = nullable
        self._convert = convert
        try:
            self.fast: Optional[FastPlan] = FastPlan(arrow, convert, nullable)
        except _Unplanned:  # a type only the exact reader builds: it reads every value
            self.fast = None

    def row(self, document: Any) -> Any:
        """A parsed JSON value as the row Arrow builds from; :class:`Misfit` when the
        schema does not take it."""
        if document is None:
            if not self.nullable:
                raise Misfit("", "expected a value, got null")
            return None
        return self._convert(document)


def _load_schema(schema: Union[str, JsonSchema]) -> JsonSchema:
    if isinstance(schema, str):
        try:
            schema = json.loads(schema)
        except ValueError as exc:
            raise SchemaResolutionError(f"a JSON Schema that is not JSON: {exc}") from None
    if not isinstance(schema, (dict, bool)):
        raise SchemaResolutionError(f"a JSON Schema is an object or a boolean, not {type(schema).__name__}")
    return schema


def _reject_constant(name: str) -> Any:
    raise ValueError(f"{name} is not JSON")


_DECODER = json.JSONDecoder(parse_constant=_reject_constant)
_SURROGATE_ESCAPE = re.compile(r"\\u[dD][89a-fA-F]", re.ASCII)


def parse_body(body: bytes, start: int = 0) -> Any:
    """The JSON value of ``body[start:]``: UTF-8 JSON text, strictly (no NaN or
    Infinity, no lone surrogate escapes).  Raises :class:`PayloadDecodeError` or, for
    text that ends too early, :class:`TruncatedPayloadError`."""
    try:
        text = body[start:].decode("utf-8")
    except UnicodeDecodeError as exc:
        raise PayloadDecodeError(f"byte {start + exc.start} is not UTF-8: {exc.reason}") from None
    try:
        value = _DECODER.decode(text)
    except json.JSONDecodeError as exc:
        # the scanner names where an unterminated string starts, not where the text ends
        if exc.pos >= len(text.rstrip()) or exc.msg.startswith("Unterminated string"):
            raise TruncatedPayloadError(f"the JSON text ends early: {exc.msg}") from None
        raise PayloadDecodeError(f"not JSON: {exc.msg} at character {exc.pos}") from None
    except ValueError as exc:  # an integer of more digits than Python converts, NaN
        raise PayloadDecodeError(f"not JSON that can be read: {exc}") from None
    except RecursionError:
        raise PayloadDecodeError("the JSON value nests deeper than can be parsed") from None
    if _SURROGATE_ESCAPE.search(text):  # a lone one (not of a pair) is text no UTF-8 column holds
        try:
            json.dumps(value, ensure_ascii=False).encode("utf-8")
        except UnicodeEncodeError:
            raise PayloadDecodeError("a string escapes a lone surrogate, which is not Unicode text") from None
        except RecursionError:
            raise PayloadDecodeError("the JSON value nests deeper than can be parsed") from None
    return value


def parse_registered(client: SchemaRegistryClient, registered: RegisteredSchema) -> JsonSchemaLayout:
    """A registered JSON Schema compiled, with the schemas its references name."""
    if registered.schema_type != "JSON":
        raise SchemaResolutionError(
            f"schema id {registered.schema_id} is {registered.schema_type}, not JSON Schema"
        )
    documents: Dict[str, str] = {}

    def add_references(schema: RegisteredSchema, depth: int) -> None:
        if depth > MAX_REF_DEPTH:
            raise SchemaResolutionError(
                f"schema id {registered.schema_id}: references nest deeper than {MAX_REF_DEPTH}"
            )
        for ref in schema.references:
            if ref.name not in documents:
                referenced = client.schema_version(ref.subject, ref.version)
                documents[ref.name] = referenced.schema
                add_references(referenced, depth + 1)

    add_references(registered, 0)
    try:
        return JsonSchemaLayout(registered.schema, documents)
    except SchemaResolutionError as exc:
        raise SchemaResolutionError(f"schema id {registered.schema_id}: {exc}") from None


class JsonColumnDecoder:
    """Decodes a binary column of JSON texts (bare bodies, no framing) to the Arrow
    type of ``schema`` (JSON Schema text or its parsed form; ``documents`` are the
    schemas its ``$ref``s name, by name).  ``backend`` ("cython", "python") is the
    backend that reads (by default the active one, when each call runs)."""

    def __init__(
        self,
        schema: Union[str, JsonSchema],
        documents: Optional[Mapping[str, Union[str, JsonSchema]]] = None,
        backend: Optional[str] = None,
    ) -> None:
        self.layout = JsonSchemaLayout(schema, documents)
        self._choose(backend)

    def _choose(self, backend: Optional[str]) -> None:
        self._chosen = (
            None if backend is None else _backend.implementation("json_schema", backend).read_column
        )

    @property
    def arrow_type(self) -> Any:
        """The Arrow type of decoded columns."""
        return self.layout.arrow_type

    def row(self, value: bytes) -> Any:
        """One value as the row Arrow builds from (raises the error without its place)."""
        return self._checked(parse_body(value), "")

    def _checked(self, document: Any, where: str) -> Any:
        try:
            return self.layout.row(document)
        except Misfit as exc:
            raise PayloadDecodeError(f"{where}{exc}") from None
        except RecursionError:
            raise PayloadDecodeError("the JSON value nests deeper than can be read") from None

    def _rows(
        self,
        values: Any,
        topic: Optional[str],
        partitions: Optional[Sequence[int]],
        offsets: Optional[Sequence[int]],
        reasons: Optional[List[Optional[str]]],
    ) -> Any:
        import pyarrow as pa

        column = binary_column(values)
        fast = self.layout.fast
        read = None
        if fast is not None:
            validity, value_offsets, data = column.buffers()
            read = (self._chosen or _read_column)(
                len(column),
                column.offset,
                validity,
                value_offsets,
                data,
                fast.spec,
                fast.plan,
                _DECODER.decode,
                self._takes_id if self.framed else None,
            )
        if fast is None or read is None:
            rows = self._exact_rows(column, range(len(column)), topic, partitions, offsets, reasons)
            return pa.array(rows, self.layout.arrow_type)
        builders, left = read
        out = finish(fast.layout, builders)
        # the rows the compiled reader left (null in ``out``): the exact reader's to give or refuse
        given = [
            (i, row)
            for i, row in zip(left, self._exact_rows(column, left, topic, partitions, offsets, reasons))
            if row is not None
        ]
        if not given:
            return out
        extra = pa.array([row for _, row in given], self.layout.arrow_type)
        take = list(range(len(out)))
        for k, (i, _) in enumerate(given):
            take[i] = len(out) + k
        return pa.concat_arrays([out, extra]).take(pa.array(take, pa.int64()))

    framed = False

    def _takes_id(self, schema_id: int) -> bool:
        """Whether the compiled reader reads framed values of ``schema_id``."""
        return False

    def _exact_rows(
        self,
        column: Any,
        indexes: Sequence[int],
        topic: Optional[str],
        partitions: Optional[Sequence[int]],
        offsets: Optional[Sequence[int]],
        reasons: Optional[List[Optional[str]]],
    ) -> List[Any]:
        """The rows of the values at ``indexes``, read by the exact reader (the pure
        backend's whole work)."""
        rows: List[Any] = []
        for i in indexes:
            value = column[i].as_py()
            if value is None:
                rows.append(None)
                continue
            try:
                rows.append(self.row(value))
            except SchemaFramingError as exc:
                located = _located(exc, i, topic, partitions, offsets)
                if reasons is None:
                    raise located from None
                reasons[i] = str(located)
                rows.append(None)
        return rows

    def decode(
        self,
        values: Any,
        *,
        topic: Optional[str] = None,
        partitions: Optional[Sequence[int]] = None,
        offsets: Optional[Sequence[int]] = None,
    ) -> Any:
        """The Arrow array of the JSON ``values`` (a null value is a null row).

        A value that is not (framed) JSON, or that the reader schema does not take (a
        wrong type, a required property missing), raises a
        :class:`~kafkawire.errors.SchemaFramingError` naming ``topic`` and the row's
        partition and offset (or the row, when no offsets are given).
        """
        return self._rows(values, topic, partitions, offsets, None)

    def decode_permissive(
        self,
        values: Any,
        *,
        topic: Optional[str] = None,
        partitions: Optional[Sequence[int]] = None,
        offsets: Optional[Sequence[int]] = None,
    ) -> Tuple[Any, Any]:
        """``(column, reasons)``: a null row for each value that :meth:`decode` would
        refuse, and beside it a string column of why (null for the good rows), as
        Spark's ``PERMISSIVE`` mode fills its corrupt-record column."""
        import pyarrow as pa

        n = len(binary_column(values))
        reasons: List[Optional[str]] = [None] * n
        column = self._rows(values, topic, partitions, offsets, reasons)
        return column, pa.array(reasons, pa.string())


class RegistryJsonDecoder(JsonColumnDecoder, ForTopic):
    """Decodes framed JSON values to one Arrow type, the reader schema's.

    The reader schema is ``reader_schema`` when given (JSON Schema text or its parsed
    form, with ``documents``, the schemas its ``$ref``s name), else the registry's schema
    ``reader_id``, else version ``version`` of ``subject``.  The schema id of each value
    must be a JSON schema of the registry (fetched once per process).  ``backend`` as
    :class:`JsonColumnDecoder`'s.
    """

    def __init__(
        self,
        client: SchemaRegistryClient,
        *,
        subject: Optional[str] = None,
        version: Union[int, str] = "latest",
        reader_schema: Union[None, str, JsonSchema] = None,
        documents: Optional[Mapping[str, Union[str, JsonSchema]]] = None,
        reader_id: Optional[int] = None,
        backend: Optional[str] = None,
    ) -> None:
        self.client = client
        self.reader_id: Optional[int] = reader_id
        self._choose(backend)
        if reader_schema is not None:
            self.layout = JsonSchemaLayout(reader_schema, documents)
        elif reader_id is not None:
            self.layout = parse_registered(client, client.schema_by_id(reader_id))
        elif subject is not None:
            registered = client.schema_version(subject, version)
            self.reader_id = registered.schema_id
            self.layout = parse_registered(client, registered)
        else:
            raise ValueError(
                "give the reader schema, its id, or the subject whose version is the reader schema"
            )
        self._json_ids: Set[int] = set()

    def row(self, value: bytes) -> Any:
        """One framed value as the row Arrow builds from (raises the error without its place)."""
        schema_id, start = parse_header(value)
        self._check_id(schema_id)
        return self._checked(parse_body(value, start), f"schema id {schema_id}: ")

    def _check_id(self, schema_id: int) -> None:
        if schema_id not in self._json_ids:
            registered = self.client.schema_by_id(schema_id)
            if registered.schema_type != "JSON":
                raise PayloadDecodeError(
                    f"schema id {schema_id} is {registered.schema_type}, not JSON Schema"
                )
            self._json_ids.add(schema_id)

    framed = True

    def _takes_id(self, schema_id: int) -> bool:
        """Whether the compiled reader reads values of ``schema_id``: else the exact
        reader raises for them, in their row's turn."""
        try:
            self._check_id(schema_id)
        except Exception:  # whatever the registry raises is the exact reader's to report
            return False
        return True


def _located(
    exc: SchemaFramingError,
    row: int,
    topic: Optional[str],
    partitions: Optional[Sequence[int]],
    offsets: Optional[Sequence[int]],
) -> SchemaFramingError:
    """``exc`` again, naming the topic, partition and offset of its row (or the row)."""
    partition = partitions[row] if partitions is not None else None
    offset = offsets[row] if offsets is not None else None
    reason = exc.reason if offsets is not None else f"row {row}: {exc.reason}"
    return type(exc)(reason, topic, partition, offset)


# -- writes -------------------------------------------------------------------------------


def _to_json(t: Any, path: str, connect: Mapping[str, str]) -> Convert:
    """The converter of a Python value of Arrow type ``t`` (as ``to_pylist`` gives it)
    to its JSON value: timestamps and dates as the RFC 3339 text the decoder reads (or,
    where ``connect`` names a Kafka Connect logical type, its integer), bytes as base64
    (as Kafka Connect's JSON converter writes them), a struct's nulls left out (an absent
    property reads as null)."""
    import base64

    pa = _pa()
    logical = connect.get(path, "").rsplit(".", 1)[-1]
    if logical and (pa.types.is_timestamp(t) or pa.types.is_date(t) or pa.types.is_time(t)):
        return _connect_integer(t, logical, path)
    if pa.types.is_struct(t):
        fields = [(f.name, _to_json(f.type, f"{path}.{f.name}" if path else f.name, connect)) for f in t]

        def struct(v: Any) -> Any:
            return {name: convert(v[name]) for name, convert in fields if v[name] is not None}

        return struct
    if pa.types.is_map(t):
        key, item = (
            _to_json(t.key_type, f"{path}{{}}", connect),
            _to_json(t.item_type, f"{path}{{}}", connect),
        )

        def mapping(v: Any) -> Any:
            return {str(key(k)): None if x is None else item(x) for k, x in v}

        return mapping
    if pa.types.is_list(t) or pa.types.is_large_list(t) or pa.types.is_fixed_size_list(t):
        element = _to_json(t.value_type, f"{path}[]", connect)
        return lambda v: [None if x is None else element(x) for x in v]
    if pa.types.is_dictionary(t):
        return _to_json(t.value_type, path, connect)
    if pa.types.is_timestamp(t):

        def timestamp(v: Any) -> Any:
            if v.tzinfo is None:  # a timestamp without a zone is taken as UTC
                v = v.replace(tzinfo=datetime.timezone.utc)
            return v.isoformat()

        return timestamp
    if pa.types.is_date(t) or pa.types.is_time(t):
        return lambda v: v.isoformat()
    if pa.types.is_binary(t) or pa.types.is_large_binary(t) or pa.types.is_fixed_size_binary(t):
        return lambda v: base64.b64encode(v).decode("ascii")
    if pa.types.is_decimal(t):
        return lambda v: int(v) if v == v.to_integral_value() else float(v)
    if pa.types.is_floating(t):
        return lambda v: v
    if pa.types.is_string(t) or pa.types.is_large_string(t) or pa.types.is_integer(t):
        return lambda v: v
    if pa.types.is_boolean(t) or pa.types.is_null(t):
        return lambda v: v
    raise SchemaResolutionError(f"field {path or '(the value)'}: no JSON value for the Arrow type {t}")


def _connect_integer(t: Any, logical: str, path: str) -> Convert:
    """A timestamp, date or time as the integer of Kafka Connect's logical type
    ``logical`` (``Timestamp``: milliseconds since the epoch, ``Date``: days since the
    epoch, ``Time``: milliseconds of the day)."""
    pa = _pa()
    epoch = datetime.datetime(1970, 1, 1, tzinfo=datetime.timezone.utc)

    def millis(micros: int) -> int:
        if micros % 1000:
            raise Misfit(path, f"has a finer unit than the milliseconds of a Connect {logical}")
        return micros // 1000

    if logical == "Timestamp" and pa.types.is_timestamp(t):

        def timestamp(v: Any) -> Any:
            if v.tzinfo is None:  # a timestamp without a zone is taken as UTC
                v = v.replace(tzinfo=datetime.timezone.utc)
            return millis((v - epoch) // _MICRO)

        return timestamp
    if logical == "Date" and pa.types.is_date(t):
        return lambda v: (v - epoch.date()).days
    if logical == "Time" and pa.types.is_time(t):
        return lambda v: millis(((v.hour * 60 + v.minute) * 60 + v.second) * 1_000_000 + v.microsecond)
    raise SchemaResolutionError(f"field {path or '(the value)'}: a Connect {logical} is not written from {t}")


_MICRO = datetime.timedelta(microseconds=1)


class RegistryJsonEncoder:
    """Writes the rows of struct columns (or tables) as JSON values framed as
    Confluent's ``JSONSerializer`` frames them (the magic byte, the schema's registered
    id, the UTF-8 JSON text), each checked against the schema first as that serializer
    validates: a value the schema does not take raises
    :class:`~kafkawire.errors.JsonValueError` naming the field and row.

    The schema is ``schema`` (JSON Schema text or its parsed form) when given,
    registered under the subject with ``auto_register`` or else looked up there;
    without it, the subject's latest version.  The subject is ``subject``, or the one
    ``subject_strategy`` names for ``topic`` (and the schema's ``title``).
    """

    def __init__(
        self,
        client: SchemaRegistryClient,
        *,
        subject: Optional[str] = None,
        topic: Optional[str] = None,
        is_key: bool = False,
        subject_strategy: str = "topic",
        schema: Union[None, str, JsonSchema] = None,
        auto_register: bool = False,
    ) -> None:
        if subject is None and topic is None:
            raise ValueError("give the subject, or the topic whose subject the strategy names")
        self.client = client
        self.schema_id: Optional[int] = None
        if schema is None:
            if subject is None:
                subject = strategy(subject_strategy)(topic or "", is_key, None)
            registered = client.schema_version(subject)
            self.schema_id = registered.schema_id
            self.layout = parse_registered(client, registered)
            self._text = registered.schema
        else:
            loaded = _load_schema(schema)
            self.layout = JsonSchemaLayout(loaded)
            self._text = schema if isinstance(schema, str) else json.dumps(schema)
            if subject is None:
                title = loaded.get("title") if isinstance(loaded, dict) else None
                subject = strategy(subject_strategy)(topic or "", is_key, title)
        self.subject = subject
        self._auto_register = auto_register
        self._converters: Dict[Any, Convert] = {}

    def _schema_id(self) -> int:
        if self.schema_id is None:
            self.schema_id = self.client.writer_schema(
                self.subject, self._text, "JSON", self._auto_register
            ).schema_id
        return self.schema_id

    def encode(self, column: Any) -> Any:
        """A binary Arrow array of the framed values (null for a null row)."""
        from kafkawire.avro.write import one_array
        from kafkawire.errors import JsonValueError
        from kafkawire.registry.wire import frame

        pa = _pa()
        column = one_array(column)
        convert = self._converters.get(column.type)
        if convert is None:
            convert = self._converters[column.type] = _to_json(column.type, "", self.layout.connect_logical)
        head = frame(self._schema_id(), b"")
        out: List[Optional[bytes]] = []
        for row, value in enumerate(column.to_pylist()):
            if value is None:
                out.append(None)
                continue
            try:
                document = convert(value)
                self.layout.row(document)
                text = json.dumps(document, ensure_ascii=False, separators=(",", ":"), allow_nan=False)
            except Misfit as exc:
                raise JsonValueError(exc.reason, exc.path, row) from None
            except ValueError:  # NaN or an infinity where the schema takes any JSON: no JSON number
                raise JsonValueError("a number that is not finite", "", row) from None
            out.append(head + text.encode("utf-8"))
        return pa.array(out, pa.binary())
