"""``from_registry``: Confluent-framed Avro values to a typed Spark struct column, the
values written by confluent-kafka's AvroSerializer through the test registry and
checked against fastavro's reading of the same bytes."""

from __future__ import annotations

import datetime
import decimal
import io
import json

import pytest

from avro_support import ORDER, order
from kafkawire.registry.client import clear_cache
from schema_registry import RegistryServer

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
