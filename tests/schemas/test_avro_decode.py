"""Avro values decoded to Arrow columns, on both backends, against fastavro's reading
of the same bytes: Confluent's AvroSerializer writes them through its registry client
(against the test registry), and hypothesis draws random schemas and values."""

import datetime
import decimal
import io
import json
import struct

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from support.avro_shapes import ORDER, as_fastavro, normalize, order, parsed, schemas, values
from kafkawire.avro.decode import decode, decoder
from kafkawire.errors import (
    BadMagicByteError,
    PayloadDecodeError,
    SchemaResolutionError,
    TruncatedPayloadError,
    UnknownSchemaIdError,
)
from kafkawire.registry import SchemaRegistryClient
from kafkawire.registry.avro import RegistryAvroDecoder
from kafkawire.registry.client import clear_cache
from support.schema_registry import RegistryServer

pa = pytest.importorskip("pyarrow")
fastavro = pytest.importorskip("fastavro")

pytestmark = pytest.mark.in_process


def _write(schema, records):
    parsed_schema = fastavro.parse_schema(schema)
    out = []
    for r in records:
        buf = io.BytesIO()
        fastavro.schemaless_writer(buf, parsed_schema, r)
        out.append(buf.getvalue())
    return out


def _fastavro_read(payloads, writer, reader=None):
    w = fastavro.parse_schema(writer)
    r = fastavro.parse_schema(reader) if reader is not None else None
    return [fastavro.schemaless_reader(io.BytesIO(p), w, r) for p in payloads]


def _ours(column, schema):
    s = parsed(schema)
    return [as_fastavro(s, v) for v in column.to_pylist()]


@pytest.fixture
def registry():
    clear_cache()
    with RegistryServer() as server:
        yield server


def test_confluent_serializer_payloads_decode_as_fastavro_reads_them(registry):
    from confluent_kafka.schema_registry import SchemaRegistryClient as ConfluentClient
    from confluent_kafka.schema_registry.avro import AvroSerializer
    from confluent_kafka.serialization import MessageField, SerializationContext

    serializer = AvroSerializer(ConfluentClient({"url": registry.url}), json.dumps(ORDER))
    ctx = SerializationContext("orders", MessageField.VALUE)
    records = [order(i) for i in range(300)]
    payloads = [serializer(r, ctx) for r in records]
    column = RegistryAvroDecoder.for_topic(SchemaRegistryClient(registry.url), "orders").decode(payloads)
    assert column.type.field("total").type == pa.decimal128(12, 2)
    assert column.type.field("created_at").type == pa.timestamp("ms", tz="UTC")
    oracle = _fastavro_read([p[5:] for p in payloads], ORDER)
    assert normalize(_ours(column, ORDER)) == normalize(oracle)


@settings(max_examples=60, suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large])
@given(st.data())
def test_random_schemas_and_values_decode_as_fastavro_reads_them(data):
    schema = {"type": "record", "name": "Root", "fields": [{"name": "v", "type": data.draw(schemas())}]}
    records = data.draw(st.lists(values(parsed(schema)), min_size=1, max_size=5))
    payloads = _write(schema, records)
    column = decode(payloads, schema)
    assert normalize(_ours(column, schema)) == normalize(_fastavro_read(payloads, schema))


def test_logical_types_map_to_arrow_types():
    schema = {
        "type": "record",
        "name": "L",
        "fields": [
            {"name": "d", "type": {"type": "int", "logicalType": "date"}},
            {"name": "tm", "type": {"type": "int", "logicalType": "time-millis"}},
            {"name": "tu", "type": {"type": "long", "logicalType": "time-micros"}},
            {"name": "ts_ms", "type": {"type": "long", "logicalType": "timestamp-millis"}},
            {"name": "ts_us", "type": {"type": "long", "logicalType": "timestamp-micros"}},
            {"name": "ts_ns", "type": {"type": "long", "logicalType": "timestamp-nanos"}},
            {"name": "lts", "type": {"type": "long", "logicalType": "local-timestamp-micros"}},
            {
                "name": "dec",
                "type": {
                    "type": "fixed",
                    "name": "D",
                    "size": 16,
                    "logicalType": "decimal",
                    "precision": 38,
                    "scale": 3,
                },
            },
            {"name": "big", "type": {"type": "bytes", "logicalType": "decimal", "precision": 60, "scale": 0}},
            {"name": "dur", "type": {"type": "fixed", "name": "Dur", "size": 12, "logicalType": "duration"}},
            {"name": "u", "type": {"type": "string", "logicalType": "uuid"}},
        ],
    }
    # written by hand, field by field, as the specification encodes them
    from kafkawire.avro.encode import zigzag

    body = b"".join(
        [
            zigzag(19000),
            zigzag(3_600_000),
            zigzag(7_200_000_001),
            zigzag(1_700_000_000_123),
            zigzag(-1),
            zigzag(1_700_000_000_123_456_789),
            zigzag(5),
            (-12345).to_bytes(16, "big", signed=True),
            zigzag(26) + (10**60 - 1).to_bytes(26, "big", signed=True),
            struct.pack("<III", 14, 3, 86_400_001),
            zigzag(36) + b"0f8fad5b-d9cb-469f-a165-70867728950e",
        ]
    )
    row = decode([body], schema).to_pylist()[0]
    utc = datetime.timezone.utc
    assert row["d"] == datetime.date(2022, 1, 8)
    assert row["tm"] == datetime.time(1, 0)
    assert row["tu"] == datetime.time(2, 0, 0, 1)
    assert row["ts_ms"] == datetime.datetime(2023, 11, 14, 22, 13, 20, 123000, tzinfo=utc)
    assert row["ts_us"] == datetime.datetime(1969, 12, 31, 23, 59, 59, 999999, tzinfo=utc)
    column = decode([body], schema)
    assert column.field("ts_ns").cast(pa.int64()).to_pylist() == [1_700_000_000_123_456_789]
    assert column.type.field("lts").type == pa.timestamp("us")
    assert row["dec"] == decimal.Decimal("-12.345")
    assert column.type.field("big").type == pa.decimal256(60, 0)
    assert row["big"] == decimal.Decimal(10**60 - 1)
    assert (row["dur"].months, row["dur"].days, row["dur"].nanoseconds) == (14, 3, 86_400_001_000_000)
    assert row["u"] == "0f8fad5b-d9cb-469f-a165-70867728950e"


def test_unions_enums_maps_and_nulls():
    schema = {
        "type": "record",
        "name": "U",
        "fields": [
            {"name": "multi", "type": ["null", "int", "string"]},
            {"name": "e", "type": {"type": "enum", "name": "E", "symbols": ["A", "B"]}},
            {"name": "m", "type": {"type": "map", "values": ["null", "long"]}},
            {
                "name": "r",
                "type": ["null", {"type": "record", "name": "In", "fields": [{"name": "x", "type": "int"}]}],
            },
        ],
    }
    records = [
        {"multi": None, "e": "A", "m": {}, "r": None},
        {"multi": 5, "e": "B", "m": {"k": 1, "n": None}, "r": {"x": 3}},
        {"multi": "s", "e": "A", "m": {"z": -9}, "r": None},
    ]
    column = decode(_write(schema, records) + [None], schema)
    assert column.type.field("multi").type == pa.struct(
        [pa.field("member0", pa.int32()), pa.field("member1", pa.string())]
    )
    assert column.type.field("e").type == pa.dictionary(pa.int32(), pa.string())
    assert column.to_pylist() == [
        {"multi": None, "e": "A", "m": [], "r": None},
        {"multi": {"member0": 5, "member1": None}, "e": "B", "m": [("k", 1), ("n", None)], "r": {"x": 3}},
        {"multi": {"member0": None, "member1": "s"}, "e": "A", "m": [("z", -9)], "r": None},
        None,
    ]
    column.validate(full=True)
    as_strings = decoder(schema, enums_as="string").decode(_write(schema, records))
    assert as_strings.field("e").to_pylist() == ["A", "B", "A"]


def test_sliced_and_chunked_columns():
    schema = {"type": "record", "name": "S", "fields": [{"name": "s", "type": "string"}]}
    payloads = pa.array(_write(schema, [{"s": str(i)} for i in range(10)]), pa.binary())
    assert decode(payloads.slice(3, 4), schema).field("s").to_pylist() == ["3", "4", "5", "6"]
    chunked = pa.chunked_array([payloads.slice(0, 2), payloads.slice(2)])
    assert decode(chunked, schema).field("s").to_pylist() == [str(i) for i in range(10)]


# -- framed values and their errors ---------------------------------------------------------


def test_framing_errors_name_topic_partition_and_offset(registry):
    client = SchemaRegistryClient(registry.url)
    sid = client.register("t-value", json.dumps(ORDER))
    good = b"\x00" + sid.to_bytes(4, "big") + _write(ORDER, [order(1)])[0]
    dec = RegistryAvroDecoder(client, subject="t-value")
    cases = [
        (b"\x07" + good[1:], BadMagicByteError, "magic byte 7"),
        (good[:3], TruncatedPayloadError, "shorter than its 5-byte header"),
        (good[:-3], TruncatedPayloadError, "ends inside"),
        (b"\x00\x00\x00\x03\xe7" + good[5:], UnknownSchemaIdError, "schema id 999"),
        (good + b"\x00", PayloadDecodeError, "1 bytes after the value"),
    ]
    for bad, error, words in cases:
        with pytest.raises(error, match=f"topic t, partition 4, offset 101: .*{words}"):
            dec.decode([good, bad], topic="t", partitions=[4, 4], offsets=[100, 101])


def test_unframed_row_errors_name_the_row():
    schema = {"type": "record", "name": "S", "fields": [{"name": "n", "type": "long"}]}
    with pytest.raises(TruncatedPayloadError, match="row 1: the value ends inside a varint"):
        decode([b"\x02", b"\x80"], schema)


def test_bad_enum_index_and_union_branch():
    schema = {
        "type": "record",
        "name": "S",
        "fields": [
            {"name": "e", "type": {"type": "enum", "name": "E", "symbols": ["A"]}},
            {"name": "u", "type": ["null", "int"]},
        ],
    }
    with pytest.raises(PayloadDecodeError, match="enum index 1"):
        decode([b"\x02\x00"], schema)
    with pytest.raises(PayloadDecodeError, match="union branch 2"):
        decode([b"\x00\x04"], schema)


def test_invalid_utf8_string_is_an_error():
    schema = {"type": "record", "name": "S", "fields": [{"name": "s", "type": "string"}]}
    with pytest.raises(PayloadDecodeError, match="UTF-8"):
        decode([b"\x04\xff\xfe"], schema)


def test_a_schema_that_does_not_parse():
    with pytest.raises(SchemaResolutionError, match="unknown type"):
        decode([b""], {"type": "record", "name": "S", "fields": [{"name": "x", "type": "Nope"}]})


def test_permissive_mode_nulls_bad_rows_and_says_why():
    schema = {
        "type": "record",
        "name": "S",
        "fields": [{"name": "n", "type": "long"}, {"name": "s", "type": "string"}],
    }
    good = _write(schema, [{"n": i, "s": f"v{i}"} for i in range(6)])
    values = [good[0], b"\x80", good[2], good[3], b"\x02\x02\x00\x00", None, good[5]]
    column, reasons = decoder(schema).decode_permissive(
        values, topic="t", partitions=[0] * 7, offsets=list(range(100, 107))
    )
    assert column.to_pylist() == [
        {"n": 0, "s": "v0"},
        None,
        {"n": 2, "s": "v2"},
        {"n": 3, "s": "v3"},
        None,
        None,
        {"n": 5, "s": "v5"},
    ]
    assert reasons.null_count == 5
    assert reasons[1].as_py().startswith("topic t, partition 0, offset 101: the value ends inside a varint")
    assert reasons[4].as_py() == "topic t, partition 0, offset 104: 1 bytes after the value"
    clean, none = decoder(schema).decode_permissive(good)
    assert none.null_count == len(good) and clean.to_pylist() == decode(good, schema).to_pylist()
