"""JSON Schema writes: Arrow rows to framed JSON values, read back by confluent-kafka's
``JSONDeserializer`` (which validates each value with the ``jsonschema`` library)
through its registry client and the test registry, and by ``RegistryJsonDecoder``;
values the schema does not take name their field and row."""

from __future__ import annotations

import datetime
import json

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from kafkawire.errors import JsonValueError, SchemaRegistryError
from kafkawire.registry import SchemaRegistryClient
from kafkawire.registry.json_schema import RegistryJsonDecoder, RegistryJsonEncoder
from kafkawire.registry.client import clear_cache
from support.schema_registry import RegistryServer
from test_json_schema import ORDER_V2, _ctx, _serializer, order

pa = pytest.importorskip("pyarrow")
pytest.importorskip("jsonschema")

pytestmark = pytest.mark.in_process


@pytest.fixture
def registry():
    clear_cache()
    with RegistryServer() as server:
        yield server


def _deserializer(server):
    from confluent_kafka.schema_registry import SchemaRegistryClient as ConfluentClient
    from confluent_kafka.schema_registry.json_schema import JSONDeserializer

    deserializer = JSONDeserializer(None, schema_registry_client=ConfluentClient({"url": server.url}))
    return lambda v: deserializer(v, _ctx("orders"))


def _as_written(document):
    """A document as the writer gives it back: nulls of objects left out, date-times
    as instants."""
    if isinstance(document, dict):
        return {k: _as_written(v) for k, v in document.items() if v is not None}
    if isinstance(document, list):
        return [_as_written(v) for v in document]
    if isinstance(document, str) and "T" in document and document[:4].isdigit():
        return datetime.datetime.fromisoformat(document.replace("Z", "+00:00"))
    return document


def test_rows_read_back_by_confluents_deserializer(registry):
    documents = [order(i, 2) for i in range(30)]
    write = _serializer(registry, ORDER_V2)
    payloads = [write(d, _ctx("orders")) for d in documents]  # registers orders-value
    client = SchemaRegistryClient(registry.url)
    column = RegistryJsonDecoder(client, subject="orders-value").decode(payloads + [None])
    values = RegistryJsonEncoder(client, topic="orders").encode(column)
    assert values[-1].as_py() is None
    read = _deserializer(registry)
    assert [_as_written(read(v)) for v in values.to_pylist()[:-1]] == [_as_written(d) for d in documents]
    assert (
        RegistryJsonDecoder(client, subject="orders-value").decode(values).to_pylist() == column.to_pylist()
    )


def test_a_given_schema_is_registered_or_looked_up(registry):
    client = SchemaRegistryClient(registry.url)
    schema = {"type": "object", "title": "Point", "properties": {"x": {"type": "integer"}}}
    rows = pa.array([{"x": 1}, {"x": None}])
    with pytest.raises(SchemaRegistryError, match="not registered under the subject 'points-value'"):
        RegistryJsonEncoder(client, topic="points", schema=schema).encode(rows)
    values = RegistryJsonEncoder(client, topic="points", schema=schema, auto_register=True).encode(rows)
    assert values.equals(RegistryJsonEncoder(client, topic="points", schema=json.dumps(schema)).encode(rows))
    assert [v[5:] for v in values.to_pylist()] == [b'{"x":1}', b"{}"]
    record = RegistryJsonEncoder(client, topic="points", schema=schema, subject_strategy="topic-record")
    assert record.subject == "points-Point"


@pytest.mark.parametrize(
    "row, field, reason",
    [
        ({"order_id": 1, "customer": None}, "customer", "a required property is missing"),
        ({"order_id": 1, "customer": "c", "status": "lost"}, "status", "is not one of the enum's values"),
        ({"order_id": 1, "customer": "c", "total": float("nan")}, "total", "past a double's range"),
        ({"order_id": "1", "customer": "c"}, "order_id", "expected an integer"),
        ({"order_id": 1, "customer": "c", "lines": [{"sku": "s"}]}, "lines[].qty", "required property"),
    ],
)
def test_values_the_schema_does_not_take_name_their_field_and_row(registry, row, field, reason):
    client = SchemaRegistryClient(registry.url)
    column = pa.array([None, row])  # a null row is a null value
    with pytest.raises(JsonValueError) as exc:
        RegistryJsonEncoder(client, subject="o", schema=ORDER_V2, auto_register=True).encode(column)
    assert (exc.value.row, exc.value.field) == (1, field)
    assert reason in exc.value.reason


@settings(
    max_examples=60,
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.function_scoped_fixture],
)
@given(
    st.lists(
        st.fixed_dictionaries(
            {
                "order_id": st.integers(-(2**63), 2**63 - 1),
                "customer": st.text(max_size=5),
                "total": st.none() | st.floats(allow_nan=False, allow_infinity=False),
                "created_at": st.none()
                | st.datetimes(timezones=st.just(datetime.timezone.utc)).map(
                    lambda d: d.replace(microsecond=d.microsecond)
                ),
                "tags": st.none() | st.lists(st.text(max_size=3), max_size=3),
                "status": st.none() | st.sampled_from(["new", "paid", "shipped"]),
                "ship_date": st.none() | st.dates(),
            }
        ),
        min_size=1,
        max_size=5,
    )
)
def test_random_rows_read_back_by_confluents_deserializer(registry, rows):
    client = SchemaRegistryClient(registry.url)
    column = pa.array(rows)
    values = RegistryJsonEncoder(client, subject="orders-value", schema=ORDER_V2, auto_register=True).encode(
        column
    )
    read = _deserializer(registry)
    for row, value in zip(rows, values.to_pylist()):
        got = read(value)
        want = {k: v for k, v in row.items() if v is not None}
        if "created_at" in want:
            got["created_at"] = datetime.datetime.fromisoformat(got["created_at"])
        if "ship_date" in want:
            got["ship_date"] = datetime.date.fromisoformat(got["ship_date"])
        assert got == want
    decoded = RegistryJsonDecoder(client, subject="orders-value").decode(values)
    for row, back in zip(rows, decoded.to_pylist()):
        assert {k: back[k] for k in row} == row


def test_the_encoder_writes_the_type_of_the_schema_or_of_the_subjects_latest_version(registry):
    from kafkawire.registry import column_encoder, schema_type_of
    from kafkawire.registry.avro import RegistryAvroEncoder
    from kafkawire.registry.protobuf import RegistryProtobufEncoder

    client = SchemaRegistryClient(registry.url)
    proto = 'syntax = "proto3"; message P { int64 x = 1; }'
    avro = {"type": "record", "name": "P", "fields": [{"name": "x", "type": "long"}]}
    assert [schema_type_of(s) for s in (proto, json.dumps(avro), ORDER_V2, json.dumps(ORDER_V2), True)] == [
        "PROTOBUF",
        "AVRO",
        "JSON",
        "JSON",
        "JSON",
    ]
    rows = pa.array([{"x": 1}])
    column_encoder(client, topic="p", schema=proto, auto_register=True).encode(rows)
    column_encoder(client, topic="j", schema={"type": "object"}, auto_register=True).encode(rows)
    assert isinstance(column_encoder(client, topic="p"), RegistryProtobufEncoder)
    assert isinstance(column_encoder(client, topic="j"), RegistryJsonEncoder)
    assert isinstance(column_encoder(client, topic="none"), RegistryAvroEncoder)  # no version: Avro, derived
    assert isinstance(column_encoder(client, topic="p", schema_type="avro"), RegistryAvroEncoder)
    with pytest.raises(ValueError, match="schema_type 'XML'"):
        column_encoder(client, topic="p", schema_type="xml")
    with pytest.raises(ValueError, match="a message is chosen in a Protobuf schema"):
        column_encoder(client, topic="j", message="P")


def test_kafka_connects_logical_types_are_written_as_its_integers(registry):
    connect = "org.apache.kafka.connect.data."
    schema = {
        "type": "object",
        "title": "Tick",
        "properties": {
            "ts": {"type": "integer", "title": connect + "Timestamp", "connect.type": "int64"},
            "day": {"type": "integer", "title": connect + "Date", "connect.type": "int32"},
            "at": {"type": "integer", "title": connect + "Time", "connect.type": "int32"},
            "days": {"type": "array", "items": {"type": "integer", "title": connect + "Date"}},
        },
    }
    client = SchemaRegistryClient(registry.url)
    values = [
        {"ts": 1_700_000_000_123, "day": 19_000, "at": 3_600_001, "days": [-1, 0]},
        {"ts": -1, "day": -719_162, "at": 86_399_999, "days": []},
    ]
    column = RegistryJsonDecoder(client, reader_schema=schema).layout
    decoded = pa.array([column.row(v) for v in values], column.arrow_type)
    encoder = RegistryJsonEncoder(client, topic="ticks", schema=schema, auto_register=True)
    written = encoder.encode(decoded)
    read = _deserializer(registry)
    assert [read(v) for v in written.to_pylist()] == values
    finer = pa.array(
        [{"ts": datetime.datetime(2024, 1, 1, 0, 0, 0, 1)}], pa.struct([("ts", pa.timestamp("us"))])
    )
    with pytest.raises(JsonValueError, match="row 0, field ts: has a finer unit"):
        encoder.encode(finer)
