"""``from_registry``: Confluent-framed Avro values to a typed Spark struct column, the
values written by confluent-kafka's AvroSerializer through the test registry and
checked against fastavro's reading of the same bytes."""

from __future__ import annotations

import datetime
import decimal
import io
import json

import pytest

from support.avro_shapes import ORDER, order
from kafkawire.registry.client import clear_cache
from support.schema_registry import RegistryServer

pa = pytest.importorskip("pyarrow")
fastavro = pytest.importorskip("fastavro")

pytestmark = [pytest.mark.spark, pytest.mark.backend_independent]


def test_from_registry_gives_typed_columns(spark):
    from confluent_kafka.schema_registry import SchemaRegistryClient as ConfluentClient
    from confluent_kafka.schema_registry.avro import AvroSerializer
    from confluent_kafka.serialization import MessageField, SerializationContext
    from pyspark.sql import functions as F

    from kafkawire.spark.functions import from_registry

    clear_cache()
    with RegistryServer() as server:
        serializer = AvroSerializer(ConfluentClient({"url": server.url}), json.dumps(ORDER))
        ctx = SerializationContext("orders", MessageField.VALUE)
        payloads = [serializer(order(i), ctx) for i in range(40)] + [None]
        df = spark.createDataFrame([(i, p) for i, p in enumerate(payloads)], "n int, value binary")
        typed = df.select("n", from_registry("value", server.url, topic="orders").alias("o"))
        schema = dict((f.name, f.dataType.simpleString()) for f in typed.schema["o"].dataType.fields)
        assert schema["total"] == "decimal(12,2)"
        assert schema["created_at"] == "timestamp"
        assert schema["currency"] == "string"
        assert schema["attributes"] == "map<string,string>"
        assert schema["address"] == "struct<street:string,city:string,zip:string,country:string>"
        rows = (
            typed.orderBy("n")
            .select(
                "o.order_id",
                "o.total",
                F.unix_millis("o.created_at").alias("ms"),
                "o.currency",
                "o.ship_date",
                "o.tags",
                "o.attributes",
                "o.address.city",
                "o.session",
                "o.coupon",
            )
            .collect()
        )
    parsed = fastavro.parse_schema(ORDER)
    for row, payload in zip(rows, payloads):
        if payload is None:
            assert row.order_id is None
            continue
        want = fastavro.schemaless_reader(io.BytesIO(payload[5:]), parsed)
        epoch = datetime.datetime(1970, 1, 1, tzinfo=datetime.timezone.utc)
        assert row.order_id == want["order_id"]
        assert row.total == want["total"] and isinstance(row.total, decimal.Decimal)
        assert row.ms == (want["created_at"] - epoch) // datetime.timedelta(milliseconds=1)
        assert (row.currency, row.ship_date, row.coupon) == (
            want["currency"],
            want["ship_date"],
            want["coupon"],
        )
        assert row.tags == want["tags"] and dict(row.attributes) == want["attributes"]
        assert row.city == want["address"]["city"] and row.session == str(want["session"])


VARIETY = {
    "type": "record",
    "name": "Variety",
    "namespace": "t",
    "fields": [
        {"name": "multi", "type": ["null", "int", "string", "boolean"]},
        {"name": "fx", "type": {"type": "fixed", "name": "Fx", "size": 3}},
        {"name": "tm", "type": {"type": "int", "logicalType": "time-millis"}},
        {"name": "tu", "type": {"type": "long", "logicalType": "time-micros"}},
        {"name": "tsu", "type": {"type": "long", "logicalType": "timestamp-micros"}},
        {"name": "lts", "type": {"type": "long", "logicalType": "local-timestamp-millis"}},
        {
            "name": "dfix",
            "type": {
                "type": "fixed",
                "name": "D",
                "size": 8,
                "logicalType": "decimal",
                "precision": 18,
                "scale": 3,
            },
        },
        {"name": "nested", "type": {"type": "array", "items": {"type": "map", "values": ["null", "double"]}}},
        {"name": "raw", "type": "bytes"},
        {"name": "f", "type": "float"},
    ],
}


def _variety(i: int) -> dict:
    return {
        "multi": [None, i, f"s{i}", i % 2 == 0][i % 4],
        "fx": bytes([i % 256, 1, 2]),
        "tm": (i * 1234567) % 86_400_000,
        "tu": (i * 123456789) % 86_400_000_000,
        "tsu": 1_700_000_000_000_000 + i * 999_999,
        "lts": 1_600_000_000_000 + i * 3,
        "dfix": decimal.Decimal(i * 12345 - 99_999).scaleb(-3),
        "nested": [{"a": 1.5 * i, "b": None}] * (i % 3),
        "raw": bytes(range(i % 7)),
        "f": i / 7.0,
    }


def test_from_registry_equals_spark_avros_from_avro(spark):
    """Spark's own from_avro (spark-avro from Maven Central, the header cut with
    substring, as users do) reads the same payloads to the same rows."""
    from pyspark.sql import functions as F
    from pyspark.sql.avro.functions import from_avro

    from support.kafka.jars import KafkaUnavailable
    from support.kafka.spark_avro import spark_avro_jar
    from kafkawire.registry import SchemaRegistryClient
    from kafkawire.spark.functions import from_registry

    try:
        jar = spark_avro_jar()
    except KafkaUnavailable as exc:
        pytest.skip(f"spark-avro cannot be fetched: {exc}")
    spark.sql(f"ADD JAR '{jar}'")
    clear_cache()
    with RegistryServer() as server:
        client = SchemaRegistryClient(server.url)
        rows = []
        for schema, make, subject in ((ORDER, order, "orders-value"), (VARIETY, _variety, "variety-value")):
            sid = client.register(subject, json.dumps(schema))
            parsed = fastavro.parse_schema(schema)
            header = b"\x00" + sid.to_bytes(4, "big")
            payloads = []
            for i in range(60):
                buf = io.BytesIO()
                fastavro.schemaless_writer(buf, parsed, make(i))
                payloads.append(header + buf.getvalue())
            df = spark.createDataFrame([(i, p) for i, p in enumerate(payloads)], "n int, value binary")
            body = F.expr("substring(value, 6, length(value) - 5)")
            both = df.select(
                "n",
                from_registry("value", server.url, subject=subject).alias("ours"),
                from_avro(body, json.dumps(schema)).alias("spark"),
            ).orderBy("n")
            rows.append(both.collect())
    for table in rows:
        for row in table:
            assert row.ours == row.spark, row.n


def _typed_instant(i):
    return datetime.datetime(2026, 1, 1, tzinfo=datetime.timezone.utc) + datetime.timedelta(seconds=i * 77)


def _typed_frame(spark):
    """Rows of the Spark types to_avro derives Avro types for, a null row among them."""
    rows = [
        (
            i,
            f"name {i}",
            None if i % 4 == 0 else i * 1.5,
            decimal.Decimal(i * 1001).scaleb(-2),
            _typed_instant(i),
            datetime.date(2026, 1, 1) + datetime.timedelta(days=i),
            [f"t{j}" for j in range(i % 3)],
            {"k": i} if i % 2 else {},
            bytes(range(i % 5)),
            i % 2 == 0,
        )
        for i in range(40)
    ]
    ddl = (
        "id long, name string, score double, price decimal(10,2), at timestamp, day date, "
        "tags array<string>, counts map<string,int>, raw binary, flag boolean"
    )
    return spark.createDataFrame(rows, ddl)


def test_to_registry_writes_what_confluents_deserializer_and_from_registry_read(spark):
    from confluent_kafka.schema_registry import SchemaRegistryClient as ConfluentClient
    from confluent_kafka.schema_registry.avro import AvroDeserializer
    from confluent_kafka.serialization import MessageField, SerializationContext
    from pyspark.sql import functions as F

    from kafkawire.spark.functions import from_registry, to_registry

    clear_cache()
    df = _typed_frame(spark)
    cols = [c for c in df.columns]
    with RegistryServer() as server:
        framed = df.select(
            "id", to_registry(F.struct(*cols), server.url, topic="typed", auto_register=True).alias("value")
        )
        payloads = framed.orderBy("id").collect()
        back = (
            framed.select("id", from_registry("value", server.url, topic="typed").alias("v"))
            .orderBy("id")
            .collect()
        )
        deserializer = AvroDeserializer(ConfluentClient({"url": server.url}))
        ctx = SerializationContext("typed", MessageField.VALUE)
        read = [deserializer(bytes(r.value), ctx) for r in payloads]
    want = df.orderBy("id").collect()
    for row, got, roundtrip in zip(want, read, back):
        expected = row.asDict()
        expected["counts"] = dict(row.counts)
        expected["raw"] = bytes(row.raw)
        # Spark gives timestamps in the session's zone, the Avro readers in UTC: the instant compared
        expected["at"] = _typed_instant(row.id)
        assert {**got, "raw": bytes(got["raw"])} == expected
        ours = roundtrip.v.asDict(recursive=True)
        ours.update(
            raw=bytes(ours["raw"]),
            counts=dict(ours["counts"]),
            at=expected["at"] if ours["at"] == row.at else ours["at"],
        )
        assert ours == expected


def test_to_registry_bodies_equal_spark_avros_to_avro(spark):
    """Spark's own to_avro (spark-avro from Maven Central) writes the same bytes past the
    header, with the schema it derives and the one kafkawire derives alike."""
    from pyspark.sql import functions as F
    from pyspark.sql.avro.functions import to_avro

    from support.kafka.jars import KafkaUnavailable
    from support.kafka.spark_avro import spark_avro_jar
    from kafkawire.spark.functions import to_registry

    try:
        jar = spark_avro_jar()
    except KafkaUnavailable as exc:
        pytest.skip(f"spark-avro cannot be fetched: {exc}")
    spark.sql(f"ADD JAR '{jar}'")
    clear_cache()
    df = _typed_frame(spark)
    value = F.struct(*df.columns)
    with RegistryServer() as server:
        rows = (
            df.select(
                "id",
                to_registry(value, server.url, subject="s", auto_register=True).alias("ours"),
                to_avro(value).alias("spark"),
            )
            .orderBy("id")
            .collect()
        )
    for row in rows:
        assert bytes(row.ours)[5:] == bytes(row.spark), row.id
