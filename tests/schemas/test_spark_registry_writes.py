"""``to_registry`` writing Protobuf and JSON Schema values in Spark (the format of the
subject's latest version), read back by ``from_registry`` and by confluent-kafka's own
deserializers through the test registry."""

from __future__ import annotations

import datetime

import pytest

from kafkawire.registry.client import clear_cache
from support.protobuf_shapes import build
from support.schema_registry import RegistryServer
from test_protobuf_encode import _deserializer as protobuf_deserializer
from test_protobuf_encode import _writable
from test_protobuf_values import _orders
from test_protobuf_values import _serializer as protobuf_serializer

pytest.importorskip("pyarrow")
pytest.importorskip("google.protobuf")
pytest.importorskip("grpc_tools")

pytestmark = [pytest.mark.spark, pytest.mark.backend_independent]


def test_to_registry_writes_protobuf_that_confluent_and_from_registry_read(spark):
    from kafkawire.spark.functions import from_registry, to_registry

    _, order, _, _ = build()
    clear_cache()
    messages = _orders()
    receipt = order.Receipt(order_name="r", line=order.Order.Line(sku="s", qty=3))
    with RegistryServer() as server:
        write = protobuf_serializer(server, order.Order)
        payloads = [write(m) for m in messages]
        df = spark.createDataFrame(
            [(i, p, receipt.SerializeToString()) for i, p in enumerate(payloads)],
            "n int, value binary, r binary",
        )
        typed = df.select("n", from_registry("value", server.url, topic="orders").alias("o"))
        # the subject's latest version is Protobuf: to_registry writes Protobuf with it
        framed = typed.select("n", "o", to_registry("o", server.url, topic="orders").alias("value"))
        back = framed.select("n", "o", from_registry("value", server.url, topic="orders").alias("again"))
        rows = back.orderBy("n").collect()
        read = protobuf_deserializer(server, order.Order)
        written = framed.orderBy("n").collect()
        assert [read(bytes(r.value)) for r in written] == [_writable(m) for m in messages]
        assert [str(r.o) for r in rows] == [str(r.again) for r in rows]  # str: NaN equal to NaN
        # a second message of the file, chosen by name both ways
        receipts = spark.createDataFrame(
            [({"order_name": "r", "line": {"sku": "s", "qty": 3, "notes": [], "status": None}},)],
            "r struct<order_name string, line struct<sku string, qty int, notes array<string>, status string>>",
        )
        out = receipts.select(to_registry("r", server.url, topic="orders", message="shop.Receipt").alias("v"))
        value = bytes(out.collect()[0].v)
        assert value[5:7] == b"\x02\x02"
        assert protobuf_deserializer(server, order.Receipt)(value) == receipt
        again = out.select(from_registry("v", server.url, topic="orders", message="shop.Receipt").alias("x"))
        assert again.collect()[0].x.line.sku == "s"
        with pytest.raises(Exception, match="not the column's shop.Order"):
            out.select(from_registry("v", server.url, topic="orders").alias("x")).collect()


def test_to_registry_writes_json_that_confluent_and_from_registry_read(spark):
    from confluent_kafka.schema_registry import SchemaRegistryClient as ConfluentClient
    from confluent_kafka.schema_registry.json_schema import JSONDeserializer

    from kafkawire.spark.functions import from_registry, to_registry
    from test_json_schema import ORDER_V2, _ctx, _serializer, order

    clear_cache()
    documents = [order(i, 2) for i in range(12)]
    with RegistryServer() as server:
        write = _serializer(server, ORDER_V2)
        payloads = [write(d, _ctx("orders")) for d in documents]
        df = spark.createDataFrame(list(enumerate(payloads)), "n int, value binary")
        typed = df.select("n", from_registry("value", server.url, topic="orders").alias("o"))
        framed = typed.select("n", "o", to_registry("o", server.url, topic="orders").alias("value"))
        rows = (
            framed.select("n", "o", from_registry("value", server.url, topic="orders").alias("again"))
            .orderBy("n")
            .collect()
        )
        assert [str(r.o) for r in rows] == [str(r.again) for r in rows]  # str: NaN equal to NaN
        deserializer = JSONDeserializer(None, schema_registry_client=ConfluentClient({"url": server.url}))
        read = [deserializer(bytes(r.value), _ctx("orders")) for r in framed.orderBy("n").collect()]
    for document, got in zip(documents, read):
        assert got["order_id"] == document["order_id"] and got["lines"] == document["lines"]
        at = datetime.datetime.fromisoformat(document["created_at"].replace("Z", "+00:00"))
        assert datetime.datetime.fromisoformat(got["created_at"]) == at
        assert got.get("coupon") == document["coupon"] and got["ship_date"] == document["ship_date"]
