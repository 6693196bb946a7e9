"""Helpers of the Avro tests: values as fastavro reads them, from the Arrow columns
kafkawire decodes (so fastavro's reading can be the oracle), and random schemas with
values of them for hypothesis."""

from __future__ import annotations

import datetime
import decimal
import uuid
from typing import Any, Dict

from hypothesis import strategies as st

from kafkawire.avro.schema import Schema, parse


def as_fastavro(s: Schema, v: Any) -> Any:
    """An Arrow ``to_pylist`` value of schema ``s`` in fastavro's Python form."""
    t = s["type"]
    if v is None:
        return None
    if t == "union":
        branches = [b for b in s["branches"] if b["type"] != "null"]
        if len(s["branches"]) == 2 and len(branches) == 1 or len(s["branches"]) == 1:
            return as_fastavro(branches[0] if branches else s["branches"][0], v)
        for i, b in enumerate(branches):
            if v[f"member{i}"] is not None or (b["type"] == "null"):
                return as_fastavro(b, v[f"member{i}"])
        raise AssertionError(f"no member set in {v!r}")
    if t == "record":
        return {f["name"]: as_fastavro(f["type"], v[f["name"]]) for f in s["fields"]}
    if t == "array":
        return [as_fastavro(s["items"], x) for x in v]
    if t == "map":
        return {k: as_fastavro(s["values"], x) for k, x in v}
    logical = s.get("logicalType")
    if logical == "uuid" and t == "string":
        return uuid.UUID(v)
    if logical == "duration":
        months, days, nanos = v.months, v.days, v.nanoseconds
        return (
            months.to_bytes(4, "little")
            + days.to_bytes(4, "little")
            + (nanos // 1_000_000).to_bytes(4, "little")
        )
    return v


def normalize(x: Any) -> Any:
    """Values compared across readers: floats by their bits (NaN equals NaN), times as is."""
    import math
    import struct

    if isinstance(x, float):
        return ("f", struct.pack("<d", x)) if not math.isnan(x) else ("f", "nan")
    if isinstance(x, dict):
        return {k: normalize(v) for k, v in x.items()}
    if isinstance(x, (list, tuple)):
        return [normalize(v) for v in x]
    return x


# -- random schemas and values -------------------------------------------------------------

_names = iter(f"T{i}" for i in range(10**9))


def _fresh() -> str:
    return next(_names)


@st.composite
def schemas(draw: Any, depth: int = 3) -> Any:
    """A random Avro schema (JSON form)."""
    leaves = st.sampled_from(
        [
            "null",
            "boolean",
            "int",
            "long",
            "float",
            "double",
            "bytes",
            "string",
            {"type": "int", "logicalType": "date"},
            {"type": "int", "logicalType": "time-millis"},
            {"type": "long", "logicalType": "time-micros"},
            {"type": "long", "logicalType": "timestamp-millis"},
            {"type": "long", "logicalType": "timestamp-micros"},
            {"type": "long", "logicalType": "local-timestamp-millis"},
            {"type": "long", "logicalType": "local-timestamp-micros"},
            {"type": "string", "logicalType": "uuid"},
            {"type": "bytes", "logicalType": "decimal", "precision": 20, "scale": 4},
            "fixed",
            "enum",
            "decimal_fixed",
        ]
    )
    if depth == 0:
        kind = draw(leaves)
    else:
        kind = draw(st.one_of(leaves, st.sampled_from(["record", "array", "map", "nullable", "union"])))
    if kind == "fixed":
        return {"type": "fixed", "name": _fresh(), "size": draw(st.integers(0, 20))}
    if kind == "decimal_fixed":
        return {
            "type": "fixed",
            "name": _fresh(),
            "size": 9,
            "logicalType": "decimal",
            "precision": 18,
            "scale": 2,
        }
    if kind == "enum":
        n = draw(st.integers(1, 5))
        return {"type": "enum", "name": _fresh(), "symbols": [f"S{i}" for i in range(n)]}
    if kind == "record":
        n = draw(st.integers(0, 4))
        return {
            "type": "record",
            "name": _fresh(),
            "fields": [{"name": f"f{i}", "type": draw(schemas(depth - 1))} for i in range(n)],
        }
    if kind == "array":
        return {"type": "array", "items": draw(schemas(depth - 1))}
    if kind == "map":
        return {"type": "map", "values": draw(schemas(depth - 1))}
    if kind == "nullable":
        inner = draw(schemas(depth - 1))
        if inner == "null" or isinstance(inner, list):
            return inner  # a union holds no union (nor null twice)
        return ["null", inner]
    if kind == "union":
        picks = draw(
            st.lists(
                st.sampled_from(["null", "int", "string", "double", "boolean", "bytes"]),
                min_size=2,
                max_size=4,
                unique=True,
            )
        )
        return picks
    return kind


def values(s: Schema) -> Any:
    """A strategy of values (fastavro's Python form) of parsed schema ``s``."""
    t = s["type"]
    logical = s.get("logicalType")
    utc = datetime.timezone.utc
    if t == "union":
        return st.one_of(*[values(b) for b in s["branches"]])
    if t == "null":
        return st.none()
    if t == "boolean":
        return st.booleans()
    if t == "int":
        if logical == "date":
            return st.dates()
        if logical == "time-millis":
            return st.times().map(lambda x: x.replace(microsecond=x.microsecond // 1000 * 1000))
        return st.integers(-(2**31), 2**31 - 1)
    if t == "long":
        if logical == "time-micros":
            return st.times()
        if logical in ("timestamp-millis", "timestamp-micros"):
            dt = st.datetimes(
                datetime.datetime(1900, 1, 1), datetime.datetime(2200, 1, 1), timezones=st.just(utc)
            )
            return (
                dt.map(lambda x: x.replace(microsecond=x.microsecond // 1000 * 1000))
                if logical.endswith("millis")
                else dt
            )
        if logical in ("local-timestamp-millis", "local-timestamp-micros"):
            dt = st.datetimes(datetime.datetime(1900, 1, 1), datetime.datetime(2200, 1, 1))
            return (
                dt.map(lambda x: x.replace(microsecond=x.microsecond // 1000 * 1000))
                if logical.endswith("millis")
                else dt
            )
        return st.integers(-(2**63), 2**63 - 1)
    if t == "float":
        return st.floats(width=32, allow_nan=False)
    if t == "double":
        return st.floats(allow_nan=False)
    if t == "bytes":
        if logical == "decimal":
            return st.decimals(
                min_value=-(10**15), max_value=10**15, places=4, allow_nan=False, allow_infinity=False
            )
        return st.binary(max_size=20)
    if t == "string":
        if logical == "uuid":
            return st.uuids()
        return st.text(max_size=20)
    if t == "fixed":
        if logical == "decimal":
            return st.decimals(
                min_value=-(10**15), max_value=10**15, places=2, allow_nan=False, allow_infinity=False
            )
        return st.binary(min_size=s["size"], max_size=s["size"])
    if t == "enum":
        return st.sampled_from(s["symbols"])
    if t == "array":
        return st.lists(values(s["items"]), max_size=4)
    if t == "map":
        return st.dictionaries(st.text(max_size=5), values(s["values"]), max_size=4)
    if t == "record":
        return st.fixed_dictionaries({f["name"]: values(f["type"]) for f in s["fields"]})
    raise AssertionError(t)


def parsed(schema_json: Any) -> Schema:
    """``schema_json`` in kafkawire's normal form."""
    return parse(schema_json)


# -- a realistic schema: the tests' and the benchmark's -----------------------------------

ORDER = {
    "type": "record",
    "name": "Order",
    "namespace": "shop",
    "fields": [
        {"name": "order_id", "type": "long"},
        {"name": "customer_id", "type": "long"},
        {"name": "sku", "type": "string"},
        {"name": "title", "type": "string"},
        {"name": "quantity", "type": "int"},
        {"name": "unit_price", "type": "double"},
        {"name": "discount", "type": "float"},
        {"name": "total", "type": {"type": "bytes", "logicalType": "decimal", "precision": 12, "scale": 2}},
        {
            "name": "currency",
            "type": {"type": "enum", "name": "Currency", "symbols": ["EUR", "USD", "GBP", "JPY"]},
        },
        {
            "name": "status",
            "type": {"type": "enum", "name": "Status", "symbols": ["NEW", "PAID", "SHIPPED", "CANCELLED"]},
        },
        {"name": "created_at", "type": {"type": "long", "logicalType": "timestamp-millis"}},
        {"name": "ship_date", "type": ["null", {"type": "int", "logicalType": "date"}], "default": None},
        {"name": "coupon", "type": ["null", "string"], "default": None},
        {"name": "gift", "type": "boolean"},
        {"name": "tags", "type": {"type": "array", "items": "string"}},
        {"name": "attributes", "type": {"type": "map", "values": "string"}},
        {
            "name": "address",
            "type": {
                "type": "record",
                "name": "Address",
                "fields": [
                    {"name": "street", "type": "string"},
                    {"name": "city", "type": "string"},
                    {"name": "zip", "type": "string"},
                    {"name": "country", "type": "string"},
                ],
            },
        },
        {"name": "weight_kg", "type": "double"},
        {"name": "session", "type": {"type": "string", "logicalType": "uuid"}},
        {"name": "priority", "type": "int"},
    ],
}


def order(i: int) -> Dict[str, Any]:
    """The ``i``-th order of a deterministic stream (fastavro's Python form)."""
    return {
        "order_id": 10_000_000 + i,
        "customer_id": (i * 7919) % 1_000_003,
        "sku": f"SKU-{i % 5000:05d}",
        "title": ["Blue kettle", "Espresso beans 1kg", "USB-C cable, 2 m", "Notebook A5"][i % 4],
        "quantity": 1 + i % 9,
        "unit_price": 3.5 + (i % 200) * 0.25,
        "discount": float(i % 5) * 0.5,
        "total": decimal.Decimal(i % 100_000) / 100,
        "currency": ["EUR", "USD", "GBP", "JPY"][i % 4],
        "status": ["NEW", "PAID", "SHIPPED", "CANCELLED"][i % 4],
        "created_at": datetime.datetime(2026, 1, 1, tzinfo=datetime.timezone.utc)
        + datetime.timedelta(milliseconds=i * 1337),
        "ship_date": None if i % 3 == 0 else datetime.date(2026, 1, 1) + datetime.timedelta(days=i % 365),
        "coupon": None if i % 4 else f"SAVE{i % 50}",
        "gift": i % 7 == 0,
        "tags": ["express", "fragile", "bulk"][: i % 4],
        "attributes": {"colour": "blue", "size": "M"} if i % 2 else {},
        "address": {
            "street": f"{i % 300} Main Street",
            "city": "Lyon",
            "zip": f"{69000 + i % 10}",
            "country": "FR",
        },
        "weight_kg": 0.1 * (i % 40),
        "session": uuid.UUID(int=(i * 2654435761) % (1 << 128)),
        "priority": i % 3,
    }
