"""Avro schemas parsed into one normal form: every schema a dict with a ``type``, named
types by full name, references to them replaced by the type itself.

The compiler (:mod:`kafkawire.avro.plan`) and the default encoder read this form only.
A schema that the specification does not allow (an unknown type, a duplicate name, a
fixed without size, a union inside a union) raises
:class:`~kafkawire.errors.SchemaResolutionError`.
"""

from __future__ import annotations

import json
from typing import Any, Dict, List, Optional, Sequence, Union

from kafkawire.errors import SchemaResolutionError

PRIMITIVES = ("null", "boolean", "int", "long", "float", "double", "bytes", "string")
NAMED = ("record", "error", "enum", "fixed")
# far deeper than any real schema: a deeper one is refused before it can exhaust the stack
MAX_DEPTH = 100

Schema = Dict[str, Any]


def parse(
    schema: Union[str, Dict[str, Any], Sequence[Any]], named: Optional[Dict[str, Schema]] = None
) -> Schema:
    """``schema`` (JSON text or its parsed value) in normal form.  ``named`` holds the
    named types it may refer to (a registry schema's references) and receives its own."""
    if isinstance(schema, str):
        stripped = schema.strip()
        if stripped.startswith(("{", "[", '"')):
            try:
                schema = json.loads(stripped)
            except ValueError as exc:
                raise SchemaResolutionError(f"the schema is not JSON: {exc}") from None
    return _parse(schema, named if named is not None else {}, None, 0)


def _fullname(name: str, namespace: Optional[str]) -> str:
    if "." in name or not namespace:
        return name
    return f"{namespace}.{name}"


def _parse(s: Any, named: Dict[str, Schema], namespace: Optional[str], depth: int) -> Schema:
    if depth > MAX_DEPTH:
        raise SchemaResolutionError(f"the schema nests deeper than {MAX_DEPTH} levels")
    if isinstance(s, str):
        if s in PRIMITIVES:
            return {"type": s}
        for candidate in (_fullname(s, namespace), s):
            if candidate in named:
                return named[candidate]
        raise SchemaResolutionError(f"unknown type {s!r}")
    if isinstance(s, list):
        branches = [_parse(b, named, namespace, depth + 1) for b in s]
        if any(b["type"] == "union" for b in branches):
            raise SchemaResolutionError("a union may not hold a union")
        seen = set()
        for b in branches:
            key = b.get("name", b["type"])
            if key in seen:
                raise SchemaResolutionError(f"a union holds {key!r} twice")
            seen.add(key)
        return {"type": "union", "branches": branches}
    if not isinstance(s, dict) or "type" not in s:
        raise SchemaResolutionError(f"not an Avro schema: {s!r:.80}")
    t = s["type"]
    if isinstance(t, (dict, list)) or (isinstance(t, str) and t not in PRIMITIVES + NAMED + ("array", "map")):
        # {"type": {...}} or {"type": "SomeName"}: the inner type, logical type kept if any
        inner = _parse(t, named, namespace, depth + 1)
        return inner
    if t in PRIMITIVES:
        out: Schema = {"type": t}
        if "logicalType" in s:
            out.update({k: s[k] for k in ("logicalType", "precision", "scale") if k in s})
        return out
    if t == "array":
        return {"type": "array", "items": _parse(s.get("items"), named, namespace, depth + 1)}
    if t == "map":
        return {"type": "map", "values": _parse(s.get("values"), named, namespace, depth + 1)}
    # named types
    name = s.get("name")
    if not isinstance(name, str) or not name:
        raise SchemaResolutionError(f"a {t} without a name")
    full = _fullname(name, s.get("namespace") if "namespace" in s else namespace)
    if full in named:
        raise SchemaResolutionError(f"the name {full!r} is defined twice")
    inner_ns = full.rpartition(".")[0] or None
    out = {
        "type": "record" if t == "error" else t,
        "name": full,
        "aliases": [_fullname(a, inner_ns) for a in s.get("aliases", ())],
    }
    if t == "fixed":
        size = s.get("size")
        if not isinstance(size, int) or size < 0:
            raise SchemaResolutionError(f"fixed {full!r} has no valid size")
        out["size"] = size
        out.update({k: s[k] for k in ("logicalType", "precision", "scale") if k in s})
        named[full] = out
        return out
    if t == "enum":
        symbols = s.get("symbols")
        if (
            not isinstance(symbols, list)
            or not all(isinstance(x, str) for x in symbols)
            or len(set(symbols)) != len(symbols)
        ):
            raise SchemaResolutionError(f"enum {full!r} needs distinct string symbols")
        out["symbols"] = list(symbols)
        if "default" in s:
            if s["default"] not in symbols:
                raise SchemaResolutionError(f"enum {full!r}: default {s['default']!r} is not a symbol")
            out["default"] = s["default"]
        named[full] = out
        return out
    # record: registered before its fields so that they may refer to it (and so be recursive)
    named[full] = out
    out["fields"] = fields = []
    names = set()
    for f in s.get("fields", ()):
        fname = f.get("name") if isinstance(f, dict) else None
        if not isinstance(fname, str) or fname in names:
            raise SchemaResolutionError(f"record {full!r}: a field without a name, or a name used twice")
        names.add(fname)
        field: Schema = {
            "name": fname,
            "type": _parse(f.get("type"), named, inner_ns, depth + 1),
            "aliases": list(f.get("aliases", ())),
        }
        if "default" in f:
            field["default"] = f["default"]
        fields.append(field)
    return out


def branches(s: Schema) -> List[Schema]:
    """The branches of a union, or ``[s]`` for any other schema."""
    return s["branches"] if s["type"] == "union" else [s]
