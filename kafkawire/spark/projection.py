"""A decoded column narrowed to the fields a query's schema names.

Spark tells a Python data source nothing of the columns a query uses, but it passes on
a schema given with ``spark.read.schema(...)``.  When that schema's ``value`` (or
``key``) is a struct of some of the reader schema's fields, :func:`narrow_type` checks
it against the column's full type and gives the narrowed type; for Avro,
:func:`narrow_avro` and :func:`avro_json` give the reader schema of only those fields,
so the tasks decode no more than the query keeps.
"""

from __future__ import annotations

import json
from typing import TYPE_CHECKING, Any, Dict, List

from kafkawire.avro.schema import Schema
from kafkawire.errors import OptionError

if TYPE_CHECKING:
    import pyarrow


def _ddl(t: "pyarrow.DataType") -> str:
    from kafkawire.spark.avro_types import spark_ddl

    return spark_ddl(t)


def narrow_type(full: "pyarrow.DataType", wanted: "pyarrow.DataType", path: str) -> "pyarrow.DataType":
    """``full`` (a decoded column's Spark-compatible type) keeping the struct fields
    ``wanted`` names, in its order, through structs, lists and maps.  A field ``full``
    lacks, or a type other than ``full``'s (no casts: the decoder gives its types), is
    an :class:`~kafkawire.errors.OptionError` naming it at ``path`` and both types."""
    import pyarrow as pa

    if wanted.equals(full):
        return full
    if pa.types.is_struct(full) and pa.types.is_struct(wanted):
        fields = []
        for f in wanted:
            i = full.get_field_index(f.name)
            if i < 0:
                raise OptionError(
                    f"the schema's {path}.{f.name}: the reader schema has no field {f.name!r} there; "
                    f"its fields are {', '.join(g.name for g in full)}"
                )
            if not f.nullable:
                raise OptionError(f"the schema's {path}.{f.name} is NOT NULL: decoded fields are nullable")
            fields.append(pa.field(f.name, narrow_type(full.field(i).type, f.type, f"{path}.{f.name}")))
        return pa.struct(fields)
    if pa.types.is_list(full) and pa.types.is_list(wanted):
        return pa.list_(pa.field("element", narrow_type(full.value_type, wanted.value_type, f"{path}[]")))
    if pa.types.is_map(full) and pa.types.is_map(wanted) and full.key_type.equals(wanted.key_type):
        item = narrow_type(full.item_type, wanted.item_type, f"{path}[]")
        return pa.map_(full.key_type, pa.field("value", item))
    raise OptionError(f"the schema's {path} is {_ddl_or_str(wanted)}, the reader schema's is {_ddl(full)}")


def _ddl_or_str(t: "pyarrow.DataType") -> str:
    try:
        return _ddl(t)
    except ValueError:
        return str(t)


def narrow_avro(s: Schema, full: "pyarrow.DataType", narrowed: "pyarrow.DataType", path: str) -> Schema:
    """The Avro reader schema ``s`` (normal form, decoded as ``full``) keeping only the
    fields of ``narrowed`` (:func:`narrow_type`'s), with their types, defaults and names."""
    if narrowed.equals(full):
        return s
    t = s["type"]
    if t == "union":
        others = [b for b in s["branches"] if b["type"] != "null"]
        if len(others) != 1:  # decoded as a struct of members: taken whole
            raise OptionError(f"the schema's {path} is an Avro union of several types: give its whole type")
        return {
            "type": "union",
            "branches": [
                b if b["type"] == "null" else narrow_avro(b, full, narrowed, path) for b in s["branches"]
            ],
        }
    if t == "record":
        by_name = {f["name"]: f for f in s["fields"]}
        fields = []
        for f in narrowed:
            kept = by_name[f.name]
            inner = narrow_avro(kept["type"], full.field(f.name).type, f.type, f"{path}.{f.name}")
            fields.append({**kept, "type": inner})
        return {**s, "fields": fields}
    if t == "array":
        return {**s, "items": narrow_avro(s["items"], full.value_type, narrowed.value_type, f"{path}[]")}
    if t == "map":
        return {**s, "values": narrow_avro(s["values"], full.item_type, narrowed.item_type, f"{path}[]")}
    raise AssertionError(f"{path}: Avro {t} decoded as {full}, narrowed to {narrowed}")  # narrow_type checked


def avro_json(s: Schema) -> str:
    """``s`` (normal form) as Avro JSON text: each named type defined where first met,
    by its full name after.  A named type narrowed two ways (two fields of one record
    type keeping different fields) is an :class:`~kafkawire.errors.OptionError`."""
    defined: Dict[str, Schema] = {}

    def out(x: Schema) -> Any:
        t = x["type"]
        if t == "union":
            return [out(b) for b in x["branches"]]
        if t == "array":
            return {"type": "array", "items": out(x["items"])}
        if t == "map":
            return {"type": "map", "values": out(x["values"])}
        if t not in ("record", "enum", "fixed"):
            return dict(x) if len(x) > 1 else t
        name = x["name"]
        if name in defined:
            if defined[name] is not x and defined[name] != x:
                raise OptionError(
                    f"the schema keeps different fields of the record type {name} in two places"
                )
            return name
        defined[name] = x
        namespace, _, short = name.rpartition(".")
        body: Dict[str, Any] = {k: v for k, v in x.items() if k not in ("name", "fields")}
        body.update(name=short, namespace=namespace)
        if t == "record":
            fields: List[Dict[str, Any]] = []
            for f in x["fields"]:
                fields.append({**f, "type": out(f["type"])})
            body["fields"] = fields
        return body

    return json.dumps(out(s))
