"""A reader schema narrowed to the fields a Spark schema names
(:mod:`kafkawire.spark.projection`): through nested records, arrays and maps of records
and nullable unions, the narrowed schema's values equal fastavro's resolving reader's
with that schema as the reader, and the full decode's values projected."""

import io
import json
import random

import pytest

from kafkawire.avro.decode import decode
from kafkawire.avro.plan import build_layout
from kafkawire.avro.schema import parse
from kafkawire.errors import OptionError
from kafkawire.spark.avro_types import spark_compatible
from kafkawire.spark.projection import avro_json, narrow_avro, narrow_type
from support.avro_shapes import as_fastavro, normalize

pa = pytest.importorskip("pyarrow")
fastavro = pytest.importorskip("fastavro")

pytestmark = pytest.mark.in_process

POINT = {
    "type": "record",
    "name": "Point",
    "fields": [
        {"name": "x", "type": "double"},
        {"name": "y", "type": "double"},
        {"name": "z", "type": "int"},
    ],
}
WRITER = {
    "type": "record",
    "name": "Shape",
    "namespace": "geo",
    "fields": [
        {"name": "id", "type": "long"},
        {"name": "name", "type": "string"},
        {"name": "kind", "type": {"type": "enum", "name": "Kind", "symbols": ["A", "B"]}},
        {"name": "centre", "type": ["null", POINT], "default": None},
        {"name": "corners", "type": {"type": "array", "items": "Point"}},
        {"name": "labels", "type": {"type": "map", "values": "Point"}},
        {"name": "either", "type": ["int", "string"]},
    ],
}


def _struct(*fields):
    return pa.struct([pa.field(n, t) for n, t in fields])


POINT_X = _struct(("x", pa.float64()))
WANTED = _struct(
    ("kind", pa.string()),
    ("corners", pa.list_(pa.field("element", POINT_X))),
    ("labels", pa.map_(pa.string(), pa.field("value", POINT_X))),
    ("centre", POINT_X),
    ("id", pa.int64()),
)


def _point(rng):
    return {"x": rng.uniform(-1e6, 1e6), "y": rng.random(), "z": rng.randrange(-(2**31), 2**31)}


def _shape(rng, i):
    return {
        "id": rng.randrange(-(2**63), 2**63),
        "name": f"shape {i}",
        "kind": rng.choice("AB"),
        "centre": None if i % 3 == 0 else _point(rng),
        "corners": [_point(rng) for _ in range(rng.randrange(4))],
        "labels": {f"k{j}": _point(rng) for j in range(rng.randrange(3))},
        "either": rng.choice([i, f"s{i}"]),
    }


def _full_type(schema):
    return spark_compatible(build_layout(parse(json.dumps(schema)), "string").arrow_type)


def test_a_narrowed_reader_schema_reads_as_fastavro_reads_it(backend):
    rng = random.Random(20261129)
    shapes = [_shape(rng, i) for i in range(200)]
    bodies = []
    for s in shapes:
        out = io.BytesIO()
        fastavro.schemaless_writer(out, fastavro.parse_schema(WRITER), s)
        bodies.append(out.getvalue())
    full = _full_type(WRITER)
    narrowed = narrow_type(full, WANTED, "value")
    assert narrowed.equals(WANTED)
    text = avro_json(narrow_avro(parse(json.dumps(WRITER)), full, narrowed, "value"))
    reader = json.loads(text)
    assert _full_type(reader).equals(WANTED)  # what the source checks too

    got = decode(pa.array(bodies, pa.binary()), WRITER, text, enums_as="string")
    assert spark_compatible(got.type).equals(WANTED)
    oracle = [
        fastavro.schemaless_reader(
            io.BytesIO(b), fastavro.parse_schema(WRITER), fastavro.parse_schema(reader)
        )
        for b in bodies
    ]
    reader_form = parse(text)
    assert [normalize(as_fastavro(reader_form, v)) for v in got.to_pylist()] == [normalize(o) for o in oracle]
    whole = decode(pa.array(bodies, pa.binary()), WRITER, enums_as="string").cast(_full_type(WRITER))
    assert got.to_pylist() == whole.cast(WANTED).to_pylist()


def test_a_field_the_reader_lacks_or_types_otherwise_is_named_with_both_types():
    full = _full_type(WRITER)
    with pytest.raises(OptionError, match=r"value\.corners\[\]\.w: the reader schema has no field 'w' there"):
        narrow_type(full, _struct(("corners", pa.list_(_struct(("w", pa.float64()))))), "value")
    with pytest.raises(OptionError, match=r"value\.labels\[\]\.z is bigint, the reader schema's is int"):
        narrow_type(full, _struct(("labels", pa.map_(pa.string(), _struct(("z", pa.int64()))))), "value")
    with pytest.raises(OptionError, match=r"value\.id is string, the reader schema's is bigint"):
        narrow_type(full, _struct(("id", pa.string())), "value")
    # a union of several types is taken whole, or not narrowed
    assert narrow_type(full, _struct(("either", full.field("either").type)), "value")
    # one named record kept with different fields in two places has no one definition
    two = narrow_type(
        full, _struct(("centre", POINT_X), ("corners", pa.list_(_struct(("y", pa.float64()))))), "v"
    )
    with pytest.raises(OptionError, match="record type geo.Point in two places"):
        avro_json(narrow_avro(parse(json.dumps(WRITER)), full, two, "v"))
