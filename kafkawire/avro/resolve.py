"""A writer schema resolved against a reader layout, as the Avro specification's
"Schema Resolution" section defines it, compiled into a :class:`~kafkawire.avro.plan.Plan`.

Fields match by name (or a reader field's alias); writer fields the reader lacks are
read and dropped; reader fields the writer lacks take their default.  int, long and
float promote to the wider numbers, string and bytes to each other.  A writer union
resolves branch by branch (a branch the reader cannot take fails only when a value
uses it); a reader union takes the first branch that matches the writer exactly, else
the first it promotes to.  Enum symbols map by name (an unknown one takes the reader's
default symbol, or fails when a value uses it).  Anything else is an error naming both
schema ids and the field.
"""

from __future__ import annotations

from typing import List, Optional, Tuple

from kafkawire.avro import plan as P
from kafkawire.avro.encode import encode_json
from kafkawire.avro.schema import Schema
from kafkawire.errors import EncodeError, SchemaResolutionError

_PROMOTIONS = {
    ("int", "long"): P.OP_INT_LONG,
    ("int", "float"): P.OP_INT_FLOAT,
    ("int", "double"): P.OP_INT_DOUBLE,
    ("long", "float"): P.OP_LONG_FLOAT,
    ("long", "double"): P.OP_LONG_DOUBLE,
    ("float", "double"): P.OP_FLOAT_DOUBLE,
    ("string", "bytes"): P.OP_BYTES,
    ("bytes", "string"): P.OP_BYTES,
}
_PRIMITIVE_OPS = {
    "null": P.OP_NULL,
    "boolean": P.OP_BOOL,
    "int": P.OP_INT,
    "long": P.OP_LONG,
    "float": P.OP_FLOAT,
    "double": P.OP_DOUBLE,
    "bytes": P.OP_BYTES,
    "string": P.OP_BYTES,
}


def _least_size(s: Schema, stack: Tuple[str, ...] = ()) -> int:
    """The fewest bytes a value of ``s`` is encoded in (0 for nulls and empty records)."""
    t = s["type"]
    if t in ("null",):
        return 0
    if t == "float":
        return 4
    if t == "double":
        return 8
    if t == "fixed":
        return int(s["size"])
    if t == "record":
        if s["name"] in stack:
            return 0
        return sum(_least_size(f["type"], stack + (s["name"],)) for f in s["fields"])
    return 1  # a varint, a length, a block count or a union index


def _short(s: Schema) -> str:
    return str(s.get("name", s["type"]))


class _Compiler:
    def __init__(self, layout: P.Layout, writer_id: Optional[int], reader_id: Optional[int]) -> None:
        self.layout = layout
        self.plan = P.Plan(writer_id=writer_id)
        self.writer_id = writer_id
        self.reader_id = reader_id

    def _where(self, path: List[str]) -> str:
        ids = f"writer schema id {self.writer_id}" if self.writer_id is not None else "the writer schema"
        ids += (
            f" and reader schema id {self.reader_id}"
            if self.reader_id is not None
            else " and the reader schema"
        )
        return f"{ids}, field {'.'.join(path) or '(the value itself)'}"

    def fail(self, path: List[str], why: str) -> SchemaResolutionError:
        return SchemaResolutionError(f"{self._where(path)}: {why}")

    def node(self, op: int, out: int = -1, a: int = 0, b: int = 0, kids: Tuple[int, ...] = ()) -> int:
        first = len(self.plan.kids)
        self.plan.kids.extend(kids)
        self.plan.nodes.append((op, out, a, b, first, len(kids)))
        return len(self.plan.nodes) - 1

    def const(self, data: bytes) -> int:
        self.plan.consts.append(data)
        return len(self.plan.consts) - 1

    # -- writer values read and dropped ------------------------------------------------

    def skip(self, w: Schema, stack: Tuple[str, ...] = ()) -> int:
        t = w["type"]
        if t in _PRIMITIVE_OPS:
            return self.node(_PRIMITIVE_OPS[t])
        if t == "fixed":
            return self.node(P.OP_FIXED, a=w["size"])
        if t == "enum":
            return self.node(P.OP_ENUM, a=len(w["symbols"]), b=-1, kids=tuple([0] * len(w["symbols"])))
        if t == "union":
            return self.node(P.OP_UNION, kids=tuple(self.skip(b, stack) for b in w["branches"]))
        if t == "array":
            return self.node(P.OP_ARRAY, a=_least_size(w["items"]), kids=(self.skip(w["items"], stack),))
        if t == "map":
            return self.node(
                P.OP_MAP, a=-1, b=_least_size(w["values"]), kids=(self.skip(w["values"], stack),)
            )
        if w["name"] in stack:
            raise SchemaResolutionError(f"the recursive type {w['name']!r} is not supported")
        return self.node(
            P.OP_RECORD, kids=tuple(self.skip(f["type"], stack + (w["name"],)) for f in w["fields"])
        )

    # -- writer values into reader builders ---------------------------------------------

    def resolve(self, w: Schema, r: Schema, out: int, path: List[str]) -> int:
        """The node that reads ``w`` into builder ``out`` of reader type ``r`` (raises
        :class:`SchemaResolutionError` when ``w`` cannot be read as ``r``)."""
        if w["type"] == "union":
            kids = []
            for b in w["branches"]:
                try:
                    kids.append(self.resolve(b, r, out, path))
                except SchemaResolutionError as exc:
                    kids.append(self.node(P.OP_ERROR, a=self.const(str(exc).encode())))
            return self.node(P.OP_UNION, kids=tuple(kids))
        if r["type"] == "union":
            return self._into_union(w, r, out, path)
        return self._same_kind(w, r, out, path)

    def _into_union(self, w: Schema, r: Schema, out: int, path: List[str]) -> int:
        builder = self.layout.builders[out]
        rb = r["branches"]
        if len(rb) == 1:
            return self.resolve(w, rb[0], out, path)
        simple = P._is_nullable_union(r) or all(b["type"] == "null" for b in rb)
        # the first exact match, else the first promotion (as the specification orders them)
        for exact in (True, False):
            non_null = 0
            for branch in rb:
                if self._matches(w, branch, exact):
                    if w["type"] == "null":
                        return self.node(P.OP_NULL, out=out)
                    if simple:
                        return self._same_kind(w, branch, out, path)
                    member = builder.kids[non_null]
                    return self.node(
                        P.OP_MEMBER, out=out, a=non_null, kids=(self._same_kind(w, branch, member, path),)
                    )
                if branch["type"] != "null":
                    non_null += 1
        raise self.fail(path, f"no branch of the reader's union takes the writer's {_short(w)}")

    @staticmethod
    def _matches(w: Schema, r: Schema, exact: bool) -> bool:
        wt, rt = w["type"], r["type"]
        if wt != rt:
            return not exact and (wt, rt) in _PROMOTIONS
        if wt in ("record", "enum", "fixed"):
            return _names_match(w, r)
        return True

    def _same_kind(self, w: Schema, r: Schema, out: int, path: List[str]) -> int:
        wt, rt = w["type"], r["type"]
        builder = self.layout.builders[out]
        if wt != rt:
            op = _PROMOTIONS.get((wt, rt))
            if op is None:
                raise self.fail(path, f"the writer's {_short(w)} cannot be read as the reader's {_short(r)}")
            if builder.logical == "decimal":  # a string read as a decimal's bytes
                return self.node(P.OP_DECIMAL, out=out, a=0, b=builder.width)
            return self.node(op, out=out)
        if wt in ("record", "enum", "fixed") and not _names_match(w, r):
            raise self.fail(path, f"the writer's {w['name']} is not the reader's {r['name']}")
        if rt == "bytes" and builder.logical == "decimal":
            return self.node(P.OP_DECIMAL, out=out, a=0, b=builder.width)
        if wt in _PRIMITIVE_OPS:
            return self.node(_PRIMITIVE_OPS[wt], out=out)
        if wt == "fixed":
            if w["size"] != r["size"]:
                raise self.fail(
                    path, f"fixed {r['name']} has {w['size']} bytes in the writer, {r['size']} in the reader"
                )
            if builder.logical == "duration":
                return self.node(P.OP_DURATION, out=out)
            if builder.logical == "decimal":
                return self.node(P.OP_DECIMAL, out=out, a=w["size"], b=builder.width)
            return self.node(P.OP_FIXED, out=out, a=w["size"])
        if wt == "enum":
            symbols = r["symbols"]
            default = symbols.index(r["default"]) if "default" in r else -1
            mapping = tuple(symbols.index(x) if x in symbols else default for x in w["symbols"])
            missing = [x for x, m in zip(w["symbols"], mapping) if m < 0]
            message = (
                self.const(
                    f"{self._where(path)}: a symbol of the writer's {w['name']} ({', '.join(missing)}) "
                    f"is not in the reader's, which has no default".encode()
                )
                if missing
                else -1
            )
            return self.node(P.OP_ENUM, out=out, a=len(w["symbols"]), b=message, kids=mapping)
        if wt == "array":
            item = self.resolve(w["items"], r["items"], builder.kids[0], path + ["element"])
            return self.node(P.OP_ARRAY, out=out, a=_least_size(w["items"]), kids=(item,))
        if wt == "map":
            value = self.resolve(w["values"], r["values"], builder.kids[1], path + ["value"])
            return self.node(P.OP_MAP, out=out, a=builder.kids[0], b=_least_size(w["values"]), kids=(value,))
        # records
        reader_fields = {f["name"]: (i, f) for i, f in enumerate(r["fields"])}
        for i, f in enumerate(r["fields"]):
            for alias in f.get("aliases", ()):
                reader_fields.setdefault(alias, (i, f))
        kids = []
        taken = set()
        for wf in w["fields"]:
            match = reader_fields.get(wf["name"])
            if match is None or match[0] in taken:
                kids.append(self.skip(wf["type"]))
                continue
            i, rf = match
            taken.add(i)
            kids.append(self.resolve(wf["type"], rf["type"], builder.kids[i], path + [rf["name"]]))
        for i, rf in enumerate(r["fields"]):
            if i in taken:
                continue
            if "default" not in rf:
                raise self.fail(
                    path + [rf["name"]], "the reader's field is not in the writer's schema and has no default"
                )
            try:
                data = encode_json(rf["type"], rf["default"])
            except EncodeError as exc:
                raise self.fail(path + [rf["name"]], f"the default does not fit its type: {exc}") from None
            reader_node = self.resolve(rf["type"], rf["type"], builder.kids[i], path + [rf["name"]])
            kids.append(self.node(P.OP_DEFAULT, a=self.const(data), kids=(reader_node,)))
        return self.node(P.OP_RECORD, out=out, kids=tuple(kids))


def _names_match(w: Schema, r: Schema) -> bool:
    """Named types match by full or unqualified name, or a reader alias."""
    wn, rn = str(w["name"]), str(r["name"])
    aliases = [str(a) for a in r.get("aliases", ())]
    return wn == rn or _short_name(wn) == _short_name(rn) or _short_name(wn) in map(_short_name, aliases)


def _short_name(name: str) -> str:
    return name.rpartition(".")[2]


def compile_plan(
    writer: Schema, layout: P.Layout, writer_id: Optional[int] = None, reader_id: Optional[int] = None
) -> P.Plan:
    """The plan that decodes values written with ``writer`` into ``layout`` (whose reader
    schema it is resolved against); the ids name the schemas in errors."""
    compiler = _Compiler(layout, writer_id, reader_id)
    compiler.plan.root = compiler.resolve(writer, layout.reader, 0, [])
    return compiler.plan
