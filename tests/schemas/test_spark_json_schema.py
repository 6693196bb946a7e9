"""``from_registry`` on JSON Schema values: the payloads written by confluent-kafka's
``JSONSerializer`` through the test registry, across two schema versions, read as
Spark's own ``from_json`` reads the bodies past the framing with the same columns."""

from __future__ import annotations

import json

import pytest

from kafkawire.registry.client import clear_cache
from support.schema_registry import RegistryServer
from test_json_schema import ORDER_V2, order

pytest.importorskip("pyarrow")
pytest.importorskip("jsonschema")

pytestmark = [pytest.mark.spark, pytest.mark.backend_independent]

# version 3: a map and a property of any JSON value on top of version 2
ORDER_V3 = json.loads(json.dumps(ORDER_V2))
ORDER_V3["properties"].update(
    {"counts": {"type": "object", "additionalProperties": {"type": "integer"}}, "extra": {}}
)
# ORDER_V3's columns as Spark's DDL, written out by hand
ORDER_DDL = (
    "order_id bigint, customer string, total double, paid boolean, created_at timestamp,"
    " tags array<string>, address struct<city: string, zip: string>, coupon string, status string,"
    " ship_date date, lines array<struct<sku: string, qty: bigint>>, counts map<string, bigint>,"
    " extra string"
)


def test_from_registry_reads_json_schema_values_as_from_json_does(spark):
    from confluent_kafka.schema_registry import Schema
    from confluent_kafka.schema_registry import SchemaRegistryClient as ConfluentClient
    from confluent_kafka.schema_registry.json_schema import JSONSerializer
    from confluent_kafka.serialization import MessageField, SerializationContext
    from pyspark.sql import functions as F

    from kafkawire.spark.functions import from_registry

    clear_cache()
    ctx = SerializationContext("orders", MessageField.VALUE)
    with RegistryServer() as server:
        client = ConfluentClient({"url": server.url})
        v2 = JSONSerializer(Schema(json.dumps(ORDER_V2), "JSON"), client)
        v3 = JSONSerializer(Schema(json.dumps(ORDER_V3), "JSON"), client)
        payloads = [v2(order(i, 2), ctx) for i in range(25)]
        for i in range(25, 50):
            value = order(i, 2)
            value.update(counts={f"k{j}": j * i for j in range(i % 3)}, extra=[{"i": i}, "x", None][i % 3])
            payloads.append(v3(value, ctx))
        df = spark.createDataFrame([(i, p) for i, p in enumerate(payloads + [None])], "n int, value binary")
        typed = df.select("n", from_registry("value", server.url, topic="orders").alias("o"))
        want = spark.createDataFrame([], ORDER_DDL).schema
        assert typed.schema["o"].dataType.simpleString() == want.simpleString()
        ours = typed.orderBy("n").select("o.*").collect()
    body = F.expr("cast(substring(value, 6) as string)")
    theirs = df.orderBy("n").select(F.from_json(body, ORDER_DDL).alias("o")).select("o.*").collect()
    assert len(ours) == len(payloads) + 1
    assert ours[:-1] == theirs[:-1]
    assert all(r.created_at is not None and r.order_id is not None for r in ours[:-1])
    assert (ours[25].extra, ours[26].extra, ours[27].extra) == ("x", None, '{"i":27}')
    assert ours[26].counts == {"k0": 0, "k1": 26} and ours[3].ship_date is not None
    assert all(v is None for v in ours[-1])
