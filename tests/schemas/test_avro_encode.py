"""Arrow columns written as Avro values (kafkawire.avro.write) and as Confluent-framed
values with a registered schema id (RegistryAvroEncoder): what is written is read by
fastavro and by confluent-kafka's AvroDeserializer (through its SchemaRegistryClient
against the test registry), and must give the values back."""

import datetime
import decimal
import io
import json

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from support.avro_shapes import ORDER, as_fastavro, normalize, order, parsed, schemas, values
from kafkawire.avro.decode import decode
from kafkawire.avro.write import AvroArrowEncoder, avro_schema
from kafkawire.errors import AvroValueError, EncodeError, SchemaRegistryError, SchemaResolutionError
from kafkawire.registry import RegistryAvroEncoder, SchemaRegistryClient
from kafkawire.registry.avro import RegistryAvroDecoder
from kafkawire.registry.client import clear_cache
from support.schema_registry import RegistryServer

pa = pytest.importorskip("pyarrow")
fastavro = pytest.importorskip("fastavro")

pytestmark = pytest.mark.in_process


def _fastavro_write(schema, records):
    parsed_schema = fastavro.parse_schema(schema)
    out = []
    for r in records:
        buf = io.BytesIO()
        fastavro.schemaless_writer(buf, parsed_schema, r)
        out.append(buf.getvalue())
    return out


def _fastavro_read(payloads, schema):
    parsed_schema = fastavro.parse_schema(schema)
    return [fastavro.schemaless_reader(io.BytesIO(p), parsed_schema) for p in payloads]


@pytest.fixture
def registry():
    clear_cache()
    with RegistryServer() as server:
        yield server


def _orders(n):
    records = [order(i) for i in range(n)]
    return records, decode(_fastavro_write(ORDER, records), ORDER)


def test_a_realistic_schema_is_written_byte_for_byte_as_fastavro_writes_it():
    records, column = _orders(200)
    assert AvroArrowEncoder(ORDER).encode(column) == _fastavro_write(ORDER, records)


@settings(max_examples=80, suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large])
@given(st.data())
def test_random_schemas_and_values_written_with_the_schema_read_back_by_fastavro(data):
    schema = {"type": "record", "name": "Root", "fields": [{"name": "v", "type": data.draw(schemas())}]}
    records = data.draw(st.lists(values(parsed(schema)), min_size=1, max_size=5))
    column = decode(_fastavro_write(schema, records), schema)
    written = AvroArrowEncoder(schema).encode(column)
    assert normalize(_fastavro_read(written, schema)) == normalize(
        _fastavro_read(_fastavro_write(schema, records), schema)
    )


@settings(max_examples=80, suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large])
@given(st.data())
def test_random_columns_written_with_the_derived_schema_read_back(data):
    schema = {"type": "record", "name": "Root", "fields": [{"name": "v", "type": data.draw(schemas())}]}
    records = data.draw(st.lists(values(parsed(schema)), min_size=1, max_size=5))
    column = decode(_fastavro_write(schema, records), schema)
    derived = avro_schema(column.type)
    written = AvroArrowEncoder().encode(column)
    # fastavro takes the derived schema and reads what the column holds
    want = [as_fastavro(parsed(derived), v) for v in column.to_pylist()]
    assert normalize(_fastavro_read(written, derived)) == normalize(want)
    assert decode(written, derived).to_pylist() == column.to_pylist()


def test_derived_schema_is_spark_avros():
    t = pa.struct(
        [
            pa.field("id", pa.int64(), nullable=False),
            pa.field("name", pa.string()),
            pa.field("price", pa.decimal128(10, 2)),
            pa.field("at", pa.timestamp("us", tz="UTC")),
            pa.field("local", pa.timestamp("us")),
            pa.field("day", pa.date32()),
            pa.field("tags", pa.list_(pa.field("element", pa.string(), nullable=False))),
            pa.field("inner", pa.struct([pa.field("x", pa.int16(), nullable=False)]), nullable=False),
        ]
    )
    assert avro_schema(t) == {
        "type": "record",
        "name": "topLevelRecord",
        "fields": [
            {"name": "id", "type": "long"},
            {"name": "name", "type": ["string", "null"]},
            {
                "name": "price",
                "type": [
                    {
                        "type": "fixed",
                        "name": "topLevelRecord.price.fixed",
                        "size": 5,
                        "logicalType": "decimal",
                        "precision": 10,
                        "scale": 2,
                    },
                    "null",
                ],
            },
            {"name": "at", "type": [{"type": "long", "logicalType": "timestamp-micros"}, "null"]},
            {"name": "local", "type": [{"type": "long", "logicalType": "local-timestamp-micros"}, "null"]},
            {"name": "day", "type": [{"type": "int", "logicalType": "date"}, "null"]},
            {"name": "tags", "type": [{"type": "array", "items": "string"}, "null"]},
            {
                "name": "inner",
                "type": {
                    "type": "record",
                    "name": "inner",
                    "namespace": "topLevelRecord",
                    "fields": [{"name": "x", "type": "int"}],
                },
            },
        ],
    }


def test_tables_sliced_chunked_columns_and_null_rows():
    records, column = _orders(30)
    want = _fastavro_write(ORDER, records)
    encoder = AvroArrowEncoder(ORDER)
    assert encoder.encode(column.slice(7, 11)) == want[7:18]
    assert encoder.encode(pa.chunked_array([column.slice(0, 5), column.slice(5)])) == want
    assert encoder.encode(pa.Table.from_struct_array(column)) == want
    with_nulls = pa.StructArray.from_arrays(
        column.flatten(), fields=list(column.type), mask=pa.array([i % 3 == 0 for i in range(30)])
    )
    assert encoder.encode(with_nulls) == [None if i % 3 == 0 else w for i, w in enumerate(want)]


def test_units_are_converted_to_the_schemas_and_missing_fields_take_defaults():
    schema = {
        "type": "record",
        "name": "R",
        "fields": [
            {"name": "at", "type": {"type": "long", "logicalType": "timestamp-millis"}},
            {"name": "n", "type": "long"},
            {"name": "d", "type": "double"},
            {"name": "added", "type": "string", "default": "x"},
        ],
    }
    at = datetime.datetime(2026, 5, 1, 12, 0, 0, 123000, tzinfo=datetime.timezone.utc)
    table = pa.table(
        {
            "at": pa.array([at], pa.timestamp("us", tz="UTC")),
            "n": pa.array([7], pa.int8()),
            "d": pa.array([2**53 + 1], pa.int64()),  # widened as Avro's promotion does
        }
    )
    assert _fastavro_read(AvroArrowEncoder(schema).encode(table), schema) == [
        {"at": at, "n": 7, "d": float(2**53), "added": "x"}
    ]


@pytest.mark.parametrize(
    "schema_type, column, field, row, message",
    [
        ("long", pa.array([1, None, 3], pa.int64()), "v", 1, "a null"),
        ("int", pa.array([1, 2, 1 << 31], pa.int64()), "v", 2, "does not fit in int"),
        ("long", pa.array([0, 1 << 63], pa.uint64()), "v", 1, "does not fit in long"),
        (
            {"type": "bytes", "logicalType": "decimal", "precision": 4, "scale": 2},
            pa.array([decimal.Decimal("12.34"), decimal.Decimal("123.45")], pa.decimal128(10, 2)),
            "v",
            1,
            "more than the schema's 4 digits",
        ),
        (
            {"type": "fixed", "name": "D", "size": 8, "logicalType": "decimal", "precision": 10, "scale": 1},
            pa.array([decimal.Decimal("1.25")], pa.decimal128(10, 2)),
            "v",
            0,
            "decimal places",
        ),
        (
            {"type": "enum", "name": "E", "symbols": ["A", "B"]},
            pa.array(["A", "C"]),
            "v",
            1,
            "'C' is not a symbol",
        ),
        ({"type": "fixed", "name": "F", "size": 2}, pa.array([b"ab", b"abc"]), "v", 1, "3 bytes"),
        (
            {"type": "long", "logicalType": "timestamp-millis"},
            pa.array([1000, 1001], pa.timestamp("us", tz="UTC")),
            "v",
            1,
            "finer unit",
        ),
        (
            {"type": "array", "items": "int"},
            pa.array([[1], [], [2, None]], pa.list_(pa.int64())),
            "v[]",
            2,
            "a null",
        ),
        (
            {"type": "record", "name": "In", "fields": [{"name": "x", "type": "string"}]},
            pa.array([{"x": "a"}, {"x": None}]),
            "v.x",
            1,
            "a null",
        ),
    ],
)
def test_a_value_the_schema_cannot_hold_names_the_field_and_row(schema_type, column, field, row, message):
    schema = {"type": "record", "name": "R", "fields": [{"name": "v", "type": schema_type}]}
    with pytest.raises(AvroValueError, match=message) as info:
        AvroArrowEncoder(schema).encode(pa.table({"v": column}))
    assert (info.value.field, info.value.row) == (field, row)
    assert isinstance(info.value, EncodeError)


def test_a_null_under_a_null_parent_is_no_error():
    schema = {
        "type": "record",
        "name": "R",
        "fields": [
            {
                "name": "v",
                "type": ["null", {"type": "record", "name": "In", "fields": [{"name": "x", "type": "int"}]}],
            }
        ],
    }
    inner = pa.StructArray.from_arrays([pa.array([1, None])], names=["x"], mask=pa.array([False, True]))
    assert _fastavro_read(AvroArrowEncoder(schema).encode(pa.table({"v": inner})), schema) == [
        {"v": {"x": 1}},
        {"v": None},
    ]


def test_an_arrow_type_the_schema_cannot_take_is_refused():
    schema = {"type": "record", "name": "R", "fields": [{"name": "v", "type": "int"}]}
    with pytest.raises(SchemaResolutionError, match="field v: an Arrow string"):
        AvroArrowEncoder(schema).encode(pa.table({"v": ["a"]}))
    narrow = {"type": "record", "name": "R", "fields": [{"name": "v", "type": "float"}]}
    with pytest.raises(SchemaResolutionError, match="field v: an Arrow double is not written as float"):
        AvroArrowEncoder(narrow).encode(pa.table({"v": [1.5]}))
    with pytest.raises(SchemaResolutionError, match=r"\['w'\] not in the record R"):
        AvroArrowEncoder(schema).encode(pa.table({"v": [1], "w": [2]}))
    with pytest.raises(SchemaResolutionError, match="no column and no default"):
        two = {
            "type": "record",
            "name": "R",
            "fields": [{"name": "v", "type": "int"}, {"name": "w", "type": "int"}],
        }
        AvroArrowEncoder(two).encode(pa.table({"v": [2]}))


# -- framed, with a registered schema id ------------------------------------------------------


def _confluent_read(url, values, topic="orders"):
    from confluent_kafka.schema_registry import SchemaRegistryClient as ConfluentClient
    from confluent_kafka.schema_registry.avro import AvroDeserializer
    from confluent_kafka.serialization import MessageField, SerializationContext

    deserializer = AvroDeserializer(ConfluentClient({"url": url}))
    ctx = SerializationContext(topic, MessageField.VALUE)
    return [deserializer(v, ctx) for v in values]


def test_registered_on_write_and_read_by_confluents_deserializer(registry):
    records, column = _orders(100)
    client = SchemaRegistryClient(registry.url)
    encoder = RegistryAvroEncoder(client, topic="orders", auto_register=True)
    framed = encoder.encode(column)
    assert encoder.subject == "orders-value"
    assert client.schema_version("orders-value").schema_id == encoder.schema_id
    assert json.loads(client.schema_by_id(encoder.schema_id).schema) == avro_schema(column.type)
    read = _confluent_read(registry.url, framed.to_pylist())
    assert normalize(read) == normalize([{**r, "session": str(r["session"])} for r in records])
    # and kafkawire's own reader takes it back to the same column
    back = RegistryAvroDecoder.for_topic(client, "orders").decode(framed)
    assert back.to_pylist() == column.to_pylist()


@settings(
    max_examples=30,
    suppress_health_check=[
        HealthCheck.too_slow,
        HealthCheck.data_too_large,
        HealthCheck.function_scoped_fixture,
    ],
)
@given(st.data())
def test_random_schemas_registered_and_read_by_confluents_deserializer(registry, data):
    # "n": Confluent's deserializer refuses a value of no bytes past the header
    fields = [{"name": "n", "type": "long"}, {"name": "v", "type": data.draw(schemas())}]
    schema = {"type": "record", "name": "Root", "fields": fields}
    records = data.draw(st.lists(values(parsed(schema)), min_size=1, max_size=4))
    column = decode(_fastavro_write(schema, records), schema)
    client = SchemaRegistryClient(registry.url)
    framed = RegistryAvroEncoder(client, topic="random", schema=schema, auto_register=True).encode(column)
    read = _confluent_read(registry.url, framed.to_pylist(), topic="random")
    assert normalize(read) == normalize(_fastavro_read(_fastavro_write(schema, records), schema))


def test_the_id_is_looked_up_when_not_registering(registry):
    from confluent_kafka.schema_registry import SchemaRegistryClient as ConfluentClient
    from confluent_kafka.schema_registry import Schema

    records, column = _orders(5)
    client = SchemaRegistryClient(registry.url)
    with pytest.raises(SchemaRegistryError, match="not registered under the subject 'shop.Order'"):
        RegistryAvroEncoder(client, topic="orders", subject_strategy="record", schema=ORDER).encode(column)
    sid = ConfluentClient({"url": registry.url}).register_schema(
        "orders-shop.Order", Schema(json.dumps(ORDER), "AVRO")
    )
    encoder = RegistryAvroEncoder(client, topic="orders", subject_strategy="topic-record", schema=ORDER)
    framed = encoder.encode(column)
    assert encoder.schema_id == sid
    assert [v[:5] for v in framed.to_pylist()] == [b"\x00" + sid.to_bytes(4, "big")] * 5
    # Confluent's client registered; the encoder looked up
    assert registry.registry.requests["POST /subjects/orders-shop.Order/versions"] == 1
    assert registry.registry.requests["POST /subjects/orders-shop.Order"] == 1


def test_the_latest_version_is_the_writer_schema_when_asked(registry):
    records, column = _orders(3)
    client = SchemaRegistryClient(registry.url)
    sid = client.register("orders-value", json.dumps(ORDER))
    encoder = RegistryAvroEncoder(client, topic="orders", use_latest_version=True)
    framed = encoder.encode(column)
    assert encoder.schema_id == sid
    assert [v[5:] for v in framed.to_pylist()] == _fastavro_write(ORDER, records)


def _fewest_bytes(u):
    """``u`` as Java's ``BigInteger.toByteArray`` gives it: the fewest bytes that keep the sign."""
    return u.to_bytes((u if u >= 0 else ~u).bit_length() // 8 + 1, "big", signed=True)


def test_decimals_at_the_byte_boundaries():
    unscaled = [0, 1, -1, 127, 128, -128, -129, 255, 256, -32768, -32769, 10**37, -(10**37) + 1]
    column = pa.array([decimal.Decimal(f"{u}E-2") for u in unscaled], pa.decimal128(38, 2))
    for avro_type, rescale in (
        ({"type": "bytes", "logicalType": "decimal", "precision": 38, "scale": 2}, 1),
        (
            {"type": "fixed", "name": "F", "size": 20, "logicalType": "decimal", "precision": 38, "scale": 2},
            1,
        ),
        ({"type": "bytes", "logicalType": "decimal", "precision": 40, "scale": 3}, 10),  # per value
    ):
        schema = {"type": "record", "name": "R", "fields": [{"name": "v", "type": avro_type}]}
        written = AvroArrowEncoder(schema).encode(pa.table({"v": column}))
        assert [r["v"] for r in _fastavro_read(written, schema)] == column.to_pylist()
        if avro_type["type"] == "bytes":  # a one-byte length, then the fewest bytes
            assert [w[1:] for w in written] == [_fewest_bytes(u * rescale) for u in unscaled]
            assert [w[0] for w in written] == [2 * len(_fewest_bytes(u * rescale)) for u in unscaled]


def test_a_long_column_is_written_a_slice_at_a_time():
    from kafkawire.avro import write

    n = 2 * write.ROWS_PER_SLICE + 5
    schema = {"type": "record", "name": "R", "fields": [{"name": "v", "type": ["null", "string"]}]}
    column = pa.array([None if i % 7 == 0 else str(i) for i in range(n)])
    written = AvroArrowEncoder(schema).encode(pa.table({"v": column}))
    assert written == _fastavro_write(schema, [{"v": v} for v in column.to_pylist()])
    assert AvroArrowEncoder(schema).encode(pa.table({"v": column.slice(0, 0)})) == []
    strict = {"type": "record", "name": "R", "fields": [{"name": "v", "type": "string"}]}
    with pytest.raises(AvroValueError) as info:
        AvroArrowEncoder(strict).encode(pa.table({"v": column.slice(1)}))
    assert info.value.row == 6  # the first null past row 0 of the slice given
    late = pa.array(["x"] * (n - 1) + [None])
    with pytest.raises(AvroValueError) as info:
        AvroArrowEncoder(strict).encode(pa.table({"v": late}))
    assert info.value.row == n - 1
