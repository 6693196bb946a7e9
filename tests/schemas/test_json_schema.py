"""JSON Schema values: payloads written by confluent-kafka's ``JSONSerializer`` through
its registry client and the test registry, decoded to Arrow and checked against
pyarrow's own JSON reader on the bodies; random schemas and documents; hostile
payloads give :mod:`kafkawire.errors` exceptions.  Each test runs on both backends."""

from __future__ import annotations

import io
import json
import string

import pytest
from hypothesis import HealthCheck, event, given, settings
from hypothesis import strategies as st

from kafkawire.errors import (
    PayloadDecodeError,
    SchemaFramingError,
    SchemaResolutionError,
    TruncatedPayloadError,
)
from kafkawire.registry import SchemaRegistryClient, column_decoder
from kafkawire.registry.client import clear_cache
from kafkawire.registry.json_schema import JsonColumnDecoder, JsonSchemaLayout, RegistryJsonDecoder
from kafkawire.registry.wire import frame
from support.schema_registry import RegistryServer

pa = pytest.importorskip("pyarrow")
pj = pytest.importorskip("pyarrow.json")
jsonschema = pytest.importorskip("jsonschema")  # confluent-kafka's JSONSerializer validates with it

pytestmark = pytest.mark.in_process

DRAFT7 = "http://json-schema.org/draft-07/schema#"
DRAFT2020 = "https://json-schema.org/draft/2020-12/schema"

ORDER_V1 = {
    "$schema": DRAFT7,
    "title": "Order",
    "type": "object",
    "properties": {
        "order_id": {"type": "integer"},
        "customer": {"type": "string"},
        "total": {"type": "number"},
        "paid": {"type": "boolean"},
        "created_at": {"type": "string", "format": "date-time"},
        "tags": {"type": "array", "items": {"type": "string"}},
        "address": {"$ref": "#/definitions/Address"},
    },
    "required": ["order_id", "customer"],
    "definitions": {
        "Address": {
            "type": "object",
            "properties": {"city": {"type": "string"}, "zip": {"type": ["string", "null"]}},
            "required": ["city"],
        }
    },
}
# version 2: a nullable coupon (oneOf with null), an enum, a date, a nested list of objects
ORDER_V2 = json.loads(json.dumps(ORDER_V1))
ORDER_V2["properties"].update(
    {
        "coupon": {"oneOf": [{"type": "null"}, {"type": "string"}]},
        "status": {"enum": ["new", "paid", "shipped"]},
        "ship_date": {"type": "string", "format": "date"},
        "lines": {
            "type": "array",
            "items": {
                "type": "object",
                "properties": {"sku": {"type": "string"}, "qty": {"type": "integer"}},
                "required": ["sku", "qty"],
            },
        },
    }
)


def order(i, version):
    value = {
        "order_id": i * 7919 - (1 << 40),
        "customer": f"c{i} ü✓",
        "total": i * 1.25,
        "paid": i % 2 == 0,
        "created_at": f"2024-0{1 + i % 9}-1{i % 10}T0{i % 10}:1{i % 6}:0{i % 10}.{i:03d}{'Z' if i % 3 else '+05:30'}",
        "tags": [f"t{j}" for j in range(i % 4)],
        "address": {"city": f"city {i}", "zip": None if i % 5 == 0 else f"{i:05d}"},
    }
    if i % 4 == 1:
        del value["address"]
    if version == 2:
        value.update(
            coupon=None if i % 3 else f"SAVE{i}",
            status=["new", "paid", "shipped"][i % 3],
            ship_date=f"2025-02-{1 + i % 28:02d}",
            lines=[{"sku": f"s{j}", "qty": j + i} for j in range(i % 3)],
        )
    return value


def _date_fields_as_strings(t):
    """``t`` with date32 replaced by string (pyarrow's JSON reader parses no dates)."""
    if pa.types.is_struct(t):
        return pa.struct([pa.field(f.name, _date_fields_as_strings(f.type)) for f in t])
    if pa.types.is_list(t):
        return pa.list_(pa.field("element", _date_fields_as_strings(t.value_type)))
    return pa.string() if pa.types.is_date32(t) else t


def pyarrow_reads(bodies, arrow_type):
    """The bodies as pyarrow's JSON reader reads them with the columns of ``arrow_type``."""
    schema = pa.schema(list(_date_fields_as_strings(arrow_type)))
    ndjson = b"".join(json.dumps(json.loads(b)).encode() + b"\n" for b in bodies)
    table = pj.read_json(
        io.BytesIO(ndjson),
        parse_options=pj.ParseOptions(explicit_schema=schema, unexpected_field_behavior="ignore"),
    )
    return pa.StructArray.from_arrays([c.combine_chunks() for c in table.columns], fields=list(schema)).cast(
        arrow_type
    )


@pytest.fixture
def registry():
    clear_cache()
    with RegistryServer() as server:
        yield server


def _serializer(server, schema, references=()):
    from confluent_kafka.schema_registry import Schema
    from confluent_kafka.schema_registry import SchemaRegistryClient as ConfluentClient
    from confluent_kafka.schema_registry.json_schema import JSONSerializer

    return JSONSerializer(
        Schema(json.dumps(schema), "JSON", list(references)), ConfluentClient({"url": server.url})
    )


def _ctx(topic):
    from confluent_kafka.serialization import MessageField, SerializationContext

    return SerializationContext(topic, MessageField.VALUE)


def test_confluent_payloads_across_versions_read_as_pyarrow_reads_them(registry):
    ctx = _ctx("orders")
    v1, v2 = _serializer(registry, ORDER_V1), _serializer(registry, ORDER_V2)
    payloads = [v1(order(i, 1), ctx) for i in range(30)] + [v2(order(i, 2), ctx) for i in range(30)]
    client = SchemaRegistryClient(registry.url)
    ids = {p[1:5] for p in payloads}
    assert len(ids) == 2 and client.subject_versions("orders-value") == [1, 2]

    decoder = RegistryJsonDecoder.for_topic(client, "orders")  # the reader: version 2
    column = decoder.decode(payloads + [None], topic="orders")
    assert column.type.field("ship_date").type == pa.date32()
    assert column.type.field("created_at").type == pa.timestamp("us", tz="UTC")
    assert column.type.field("lines").type.value_type.field("qty").type == pa.int64()
    assert column[-1].as_py() is None
    want = pyarrow_reads([p[5:] for p in payloads], decoder.arrow_type)
    assert column.slice(0, len(payloads)).equals(want)
    # and field by field against json.loads
    for row, payload in zip(column.to_pylist(), payloads):
        doc = json.loads(payload[5:])
        assert row["order_id"] == doc["order_id"] and row["customer"] == doc["customer"]
        assert row["coupon"] == doc.get("coupon") and row["status"] == doc.get("status")
        assert row["address"] == (None if "address" not in doc else doc["address"])

    # the version 1 reader drops what version 2 added
    old = RegistryJsonDecoder(client, subject="orders-value", version=1).decode(payloads)
    assert old.type.names == list(ORDER_V1["properties"])
    assert old.field("order_id").equals(column.slice(0, len(payloads)).field("order_id"))


def test_references_to_other_subjects_and_2020_12_defs(registry):
    from confluent_kafka.schema_registry import SchemaReference as ConfluentReference

    address = {
        "$schema": DRAFT2020,
        "type": "object",
        "properties": {"city": {"type": "string"}, "zip": {"$ref": "#/$defs/Zip"}},
        "$defs": {"Zip": {"type": ["string", "null"]}},  # resolved inside address.json
    }
    client = SchemaRegistryClient(registry.url)
    client.register("address", json.dumps(address), "JSON")
    schema = {
        "$schema": DRAFT2020,
        "type": "object",
        "properties": {
            "home": {"$ref": "address.json"},
            "work": {"anyOf": [{"$ref": "address.json"}, {"type": "null"}]},
            "kind": {"$ref": "#/$defs/Kind"},
            "site": {
                "allOf": [
                    {"$ref": "address.json"},
                    {"type": "object", "properties": {"floor": {"type": "integer"}}, "required": ["floor"]},
                ]
            },
        },
        "$defs": {"Kind": {"type": "string", "enum": ["a", "b"]}},
    }
    serializer = _serializer(registry, schema, [ConfluentReference("address.json", "address", 1)])
    values = [
        {"home": {"city": "x", "zip": "1"}, "work": None, "kind": "a", "site": {"city": "s", "floor": 2}},
        {"home": {"city": "y", "zip": None}, "work": {"city": "z", "zip": "9"}, "kind": "b"},
    ]
    payloads = [serializer(v, _ctx("people")) for v in values]
    decoder = column_decoder(client, subject="people-value")
    assert isinstance(decoder, RegistryJsonDecoder)
    assert str(decoder.arrow_type.field("site").type) == "struct<city: string, zip: string, floor: int64>"
    rows = decoder.decode(payloads).to_pylist()
    assert rows[0] == {**values[0], "site": {"city": "s", "zip": None, "floor": 2}}
    assert rows[1] == {**values[1], "site": None}
    with pytest.raises(PayloadDecodeError, match="field site.floor: a required property is missing"):
        decoder.decode([payloads[0][:5] + json.dumps({**values[0], "site": {"city": "s"}}).encode()])


def test_a_value_the_schema_does_not_take_names_its_record(registry):
    client = SchemaRegistryClient(registry.url)
    sid = client.register("orders-value", json.dumps(ORDER_V2), "JSON")
    good = frame(sid, json.dumps(order(3, 2)).encode())
    cases = {
        "order_id": {**order(1, 2), "order_id": "7"},  # wrong type
        "customer": {k: v for k, v in order(1, 2).items() if k != "customer"},  # required missing
        "status": {**order(1, 2), "status": "lost"},  # not in the enum
        "address.city": {**order(2, 2), "address": {"zip": "1"}},
        "lines[].qty": {**order(2, 2), "lines": [{"sku": "s", "qty": 1.5}]},
        "created_at": {**order(1, 2), "created_at": "2024-01-01T00:00:00"},  # no UTC offset
        "paid": {**order(1, 2), "paid": None},  # null where the type is not nullable
    }
    decoder = RegistryJsonDecoder(client, subject="orders-value")
    for field, value in cases.items():
        bad = frame(sid, json.dumps(value).encode())
        with pytest.raises(PayloadDecodeError) as info:
            decoder.decode([good, bad], topic="orders", partitions=[0, 3], offsets=[41, 42])
        assert str(info.value).startswith("topic orders, partition 3, offset 42: ")
        assert f"field {field}:" in str(info.value)
        column, reasons = decoder.decode_permissive([good, bad, good], topic="orders", offsets=[1, 2, 3])
        assert column.is_null().to_pylist() == [False, True, False]
        assert reasons[1].as_py().startswith("topic orders, offset 2: ") and reasons[0].as_py() is None
        assert column[0].as_py() == column[2].as_py() == decoder.decode([good])[0].as_py()


def test_a_value_framed_for_another_schema_type_is_refused(registry):
    client = SchemaRegistryClient(registry.url)
    json_id = client.register("t-value", json.dumps({"type": "object", "properties": {}}), "JSON")
    avro_id = client.register("a-value", json.dumps({"type": "record", "name": "R", "fields": []}))
    decoder = RegistryJsonDecoder(client, reader_id=json_id)
    with pytest.raises(PayloadDecodeError, match="row 0: schema id 2 is AVRO, not JSON Schema"):
        decoder.decode([frame(avro_id, b"{}")])
    with pytest.raises(SchemaFramingError, match="row 1: .*99"):
        decoder.decode([frame(json_id, b"{}"), frame(99, b"{}")])


# -- hostile payloads ---------------------------------------------------------------------------

HOSTILE = {
    "truncated": (b'{"order_id": 1, "customer": "x', TruncatedPayloadError),
    "empty body": (b"", TruncatedPayloadError),
    "invalid UTF-8": (b'{"order_id": 1, "customer": "\xc3\x28"}', PayloadDecodeError),
    "overlong UTF-8": (b'{"order_id": 1, "customer": "\xc0\xaf"}', PayloadDecodeError),
    "lone surrogate escape": (b'{"order_id": 1, "customer": "\\ud800"}', PayloadDecodeError),
    "deep nesting": (
        b'{"order_id": 1, "customer": "x", "extra": ' + b"[" * 100_000 + b"]" * 100_000 + b"}",
        PayloadDecodeError,
    ),
    "huge integer": (b'{"order_id": ' + b"9" * 20 + b', "customer": "x"}', PayloadDecodeError),
    "integer past Python's digit limit": (
        b'{"order_id": ' + b"9" * 10_000 + b', "customer": "x"}',
        PayloadDecodeError,
    ),
    "number past a double": (b'{"order_id": 1, "customer": "x", "total": 1e400}', PayloadDecodeError),
    "NaN": (b'{"order_id": 1, "customer": "x", "total": NaN}', PayloadDecodeError),
    "trailing bytes": (b'{"order_id": 1, "customer": "x"} {}', PayloadDecodeError),
    "not an object": (b"[1, 2]", PayloadDecodeError),
    "a JSON null": (b"null", PayloadDecodeError),
    "bool for integer": (b'{"order_id": true, "customer": "x"}', PayloadDecodeError),
}


@pytest.mark.parametrize("name", sorted(HOSTILE))
def test_hostile_payloads_raise_decode_errors(name):
    body, error = HOSTILE[name]
    decoder = RegistryJsonDecoder(_json_ids_client(), reader_schema=ORDER_V2)
    with pytest.raises(error) as info:
        decoder.decode([frame(1, body)], topic="t", partitions=[0], offsets=[5])
    assert str(info.value).startswith("topic t, partition 0, offset 5: ")


def test_framing_errors():
    decoder = RegistryJsonDecoder(_json_ids_client(), reader_schema=ORDER_V2)
    with pytest.raises(SchemaFramingError, match="magic byte 1"):
        decoder.decode([b"\x01\x00\x00\x00\x01{}"])
    with pytest.raises(TruncatedPayloadError):
        decoder.decode([b"\x00\x00\x00"])


class _JsonIds:
    """A registry client stand-in whose every schema id is a JSON schema (the hostile
    tests are of the payload, not of the registry)."""

    def schema_by_id(self, schema_id):
        from kafkawire.registry.client import RegisteredSchema

        return RegisteredSchema(schema_id, "{}", "JSON")


def _json_ids_client():
    return _JsonIds()


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.data())
def test_every_cut_and_byte_flip_of_a_payload_decodes_or_raises(data):
    decoder = RegistryJsonDecoder(_json_ids_client(), reader_schema=ORDER_V2)
    body = json.dumps(order(data.draw(st.integers(0, 50)), 2)).encode()
    cut = data.draw(st.integers(0, len(body) - 1))
    flipped = bytearray(body)
    at = data.draw(st.integers(0, len(body) - 1))
    flipped[at] = data.draw(st.integers(0, 255))
    for mangled in (body[:cut], bytes(flipped)):
        try:
            decoder.decode([frame(1, mangled)])
        except SchemaFramingError:
            pass


_json_values = st.recursive(
    st.none()
    | st.booleans()
    | st.integers(-(1 << 63), (1 << 63) - 1)
    | st.floats(allow_nan=False, allow_infinity=False)
    | st.sampled_from(["new", "paid", "x", "2024-01-02T03:04:05Z", "2024-01-02"]),
    lambda inner: (
        st.lists(inner, max_size=3)
        | st.dictionaries(st.sampled_from(["city", "zip", "sku", "qty", "q"]), inner, max_size=3)
    ),
    max_leaves=8,
)


@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    st.dictionaries(st.sampled_from(list(ORDER_V2["properties"]) + ["other"]), _json_values, max_size=4),
    st.booleans(),
)
def test_random_documents_are_refused_exactly_when_jsonschema_refuses_them(document, with_required):
    """The ``jsonschema`` library (which Confluent's serializer validates with) is the
    oracle: what it refuses raises; what it takes decodes, but for a date-time or date
    that is not RFC 3339 (the formats it does not assert)."""
    if with_required:  # else few documents would be valid
        document = {**document, "order_id": 1, "customer": "c"}
    decoder = RegistryJsonDecoder(_json_ids_client(), reader_schema=ORDER_V2)
    valid = jsonschema.Draft7Validator(ORDER_V2).is_valid(document)
    event("valid" if valid else "refused")
    try:
        decoder.decode([frame(1, json.dumps(document).encode())])
    except PayloadDecodeError as exc:
        assert not valid or "RFC 3339" in str(exc), exc
    else:
        assert valid


# -- random schemas and documents ---------------------------------------------------------

_names = st.text(string.ascii_letters + "_", min_size=1, max_size=8)
_strings = st.text(st.characters(codec="utf-8", exclude_categories=("Cs",)), max_size=12)
_LEAVES = {
    "integer": ({"type": "integer"}, st.integers(-(1 << 63), (1 << 63) - 1)),
    "number": ({"type": "number"}, st.floats(allow_nan=False, allow_infinity=False)),
    "string": ({"type": "string"}, _strings),
    "boolean": ({"type": "boolean"}, st.booleans()),
    "date-time": (
        {"type": "string", "format": "date-time"},
        st.datetimes(
            min_value=__import__("datetime").datetime(1900, 1, 1),
            max_value=__import__("datetime").datetime(2200, 1, 1),
            timezones=st.just(__import__("datetime").timezone.utc),
        ).map(lambda d: d.isoformat()),
    ),
    "enum": ({"enum": ["red", "green", "blue"]}, st.sampled_from(["red", "green", "blue"])),
}


@st.composite
def schema_and_values(draw, depth=2):
    """A JSON Schema and a strategy of documents it takes."""
    kind = draw(st.sampled_from(["object", "array", "nullable"] * (depth > 0) + list(_LEAVES)))
    if kind in _LEAVES:
        return _LEAVES[kind]
    if kind == "nullable":
        schema, values = draw(schema_and_values(depth - 1))
        if draw(st.booleans()):
            return {"oneOf": [{"type": "null"}, schema]}, st.none() | values
        if "type" in schema and isinstance(schema["type"], str):
            return {**schema, "type": [schema["type"], "null"]}, st.none() | values
        return {"anyOf": [schema, {"type": "null"}]}, st.none() | values
    if kind == "array":
        schema, values = draw(schema_and_values(depth - 1))
        return {"type": "array", "items": schema}, st.lists(values, max_size=3)
    names = draw(st.lists(_names, min_size=1, max_size=4, unique=True))
    fields = {n: draw(schema_and_values(depth - 1)) for n in names}
    required = [n for n in names if draw(st.booleans())]

    @st.composite
    def documents(d):
        doc = {}
        for n, (_, values) in fields.items():
            if n in required or d(st.booleans()):
                doc[n] = d(values)
        return doc

    return {
        "type": "object",
        "properties": {n: s for n, (s, _) in fields.items()},
        "required": required,
    }, documents()


@settings(
    max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large]
)
@given(st.data())
def test_random_schemas_and_documents_read_as_pyarrow_reads_them(data):
    fields, values = data.draw(schema_and_values(depth=3).filter(lambda sv: sv[0].get("type") == "object"))
    schema = {"$schema": DRAFT7, **fields}
    docs = data.draw(st.lists(values, min_size=1, max_size=5))
    bodies = [json.dumps(d, ensure_ascii=data.draw(st.booleans())).encode() for d in docs]
    decoder = RegistryJsonDecoder(_json_ids_client(), reader_schema=schema)
    column = decoder.decode([frame(1, b) for b in bodies])
    assert column.equals(pyarrow_reads(bodies, decoder.arrow_type))
    # a required property dropped, or a value of the wrong type, is refused
    required = fields["required"]
    if required:
        doc = dict(docs[0])
        del doc[required[0]]
        with pytest.raises(PayloadDecodeError, match=f"field {required[0]}: a required property is missing"):
            decoder.decode([frame(1, json.dumps(doc).encode())])
    # a value that the jsonschema library finds the first property's schema does not take
    name, field = next(iter(fields["properties"].items()))
    validator = jsonschema.Draft7Validator(field)
    bad = next(v for v in ({"not": ["this"]}, [{"x": 1}], 5.5, "zz") if not validator.is_valid(v))
    with pytest.raises(PayloadDecodeError, match=f"field {name}"):
        decoder.decode([frame(1, json.dumps({**docs[0], name: bad}).encode())])


# -- schemas ------------------------------------------------------------------------------------


def test_schema_types_map_to_arrow():
    layout = JsonSchemaLayout(
        {
            "type": "object",
            "properties": {
                "i": {"type": "integer"},
                "n": {"type": ["number", "integer", "null"]},
                "d": {"type": "string", "format": "date"},
                "t": {"type": "string", "format": "time"},
                "u": {"type": "string", "format": "uuid"},
                "m": {"type": "object", "additionalProperties": {"type": "boolean"}},
                "any": {},
                "either": {"type": ["string", "integer"]},
                "e": {"enum": [1, 2, None]},
                "c": {"const": "x"},
                "ext": {"allOf": [{"$ref": "#/definitions/A"}, {"properties": {"b": {"type": "integer"}}}]},
            },
            "definitions": {"A": {"type": "object", "properties": {"a": {"type": "string"}}}},
        }
    )
    t = layout.arrow_type
    assert [str(f.type) for f in t] == [
        "int64",
        "double",
        "date32[day]",
        "string",
        "string",
        "map<string, bool>",
        "string",
        "string",
        "int64",
        "string",
        "struct<a: string, b: int64>",
    ]
    row = layout.row(
        {"any": {"x": [1, "y"]}, "either": 5, "e": None, "m": {"k": True}, "ext": {"a": "s", "b": 1}}
    )
    assert row["any"] == '{"x":[1,"y"]}' and row["either"] == "5" and row["m"] == [("k", True)]


def test_the_types_kafka_connect_annotates_keep_their_width_and_logical_type():
    """As Confluent's JSON Schema converter writes Connect's schemas: ``connect.type`` for
    the narrower numbers, the logical type's name as the title."""
    connect = "org.apache.kafka.connect.data."
    decoder = JsonColumnDecoder(
        {
            "type": "object",
            "properties": {
                "ts": {"type": "integer", "title": connect + "Timestamp", "connect.type": "int64"},
                "day": {"type": "integer", "title": connect + "Date", "connect.type": "int32"},
                "at": {"type": "integer", "title": connect + "Time", "connect.type": "int32"},
                "small": {"type": "integer", "connect.type": "int8"},
                "mid": {"type": "integer", "connect.type": "int16"},
                "f": {"type": "number", "connect.type": "float32"},
            },
        }
    )
    assert [str(f.type) for f in decoder.arrow_type] == [
        "timestamp[ms, tz=UTC]",
        "date32[day]",
        "time32[ms]",
        "int32",
        "int32",
        "float",
    ]
    value = {"ts": 1_700_000_000_123, "day": 19_000, "at": 3_600_001, "small": -128, "mid": 32767, "f": 0.1}
    column = decoder.decode([json.dumps(value).encode()])
    # the integers' bits as the logical types (Arrow's cast from int to date32 is refused)
    storage = [pa.int64(), pa.int32(), pa.int32(), pa.int32(), pa.int32(), pa.float64()]
    want = pa.StructArray.from_arrays(
        [
            pa.array([value[f.name]], s).view(f.type)
            if s.bit_width == f.type.bit_width
            else pa.array([value[f.name]], f.type)
            for f, s in zip(decoder.arrow_type, storage)
        ],
        fields=list(decoder.arrow_type),
    )
    assert column.equals(want)
    for field, bad in (("small", 128), ("mid", -32769), ("at", 86_400_000), ("day", 1 << 31)):
        with pytest.raises(PayloadDecodeError, match=f"field {field}: integer {bad} is outside"):
            decoder.decode([json.dumps({field: bad}).encode()])


@pytest.mark.parametrize(
    "schema, message",
    [
        ({"type": "object", "properties": {"me": {"$ref": "#"}}}, "recursive"),
        ({"type": "object", "properties": {"x": {"$ref": "#/definitions/none"}}}, "points to nothing"),
        ({"type": "object", "properties": {"x": {"$ref": "other.json"}}}, "names no schema"),
        ({"type": "thing"}, "not JSON Schema's"),
        (False, "takes no value"),
    ],
)
def test_schemas_without_an_arrow_type_are_refused(schema, message):
    with pytest.raises(SchemaResolutionError, match=message):
        JsonSchemaLayout(schema)
