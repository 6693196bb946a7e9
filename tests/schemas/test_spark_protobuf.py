"""``from_registry`` on Protobuf values: payloads written by confluent-kafka's
ProtobufSerializer through the test registry, typed as spark-protobuf's
``from_protobuf`` types them, and equal to its rows on the same bytes."""

from __future__ import annotations

import datetime

import pytest

from kafkawire.registry.client import clear_cache
from support.protobuf_shapes import build, descriptor_path, expected
from support.schema_registry import RegistryServer
from test_protobuf_values import _orders, _serializer

pytest.importorskip("pyarrow")
pytest.importorskip("google.protobuf")
pytest.importorskip("grpc_tools")

pytestmark = [pytest.mark.spark, pytest.mark.backend_independent]


def _frame(spark, server):
    _, order, _, _ = build()
    write = _serializer(server, order.Order)
    messages = _orders()
    payloads = [write(m) for m in messages] + [None]
    return messages, spark.createDataFrame([(i, p) for i, p in enumerate(payloads)], "n int, value binary")


def test_from_registry_types_protobuf_values_as_from_protobuf(spark):
    from pyspark.sql import functions as F

    from kafkawire.spark.functions import from_registry

    clear_cache()
    with RegistryServer() as server:
        messages, df = _frame(spark, server)
        typed = df.select("n", from_registry("value", server.url, topic="orders").alias("o"))
        types = {f.name: f.dataType.simpleString() for f in typed.schema["o"].dataType.fields}
        got = (
            typed.orderBy("n")
            .select(
                "n",
                "o.u64",
                "o.status",
                "o.counts",
                "o.by_id",
                "o.w_i32",
                "o.cash",
                F.unix_micros("o.created").alias("created"),
                "o.ttl",
                "o.lines",
            )
            .collect()
        )
    assert types["u64"] == "bigint" and types["status"] == "string" and types["created"] == "timestamp"
    assert types["ttl"] == "interval day to second" and types["w_i32"] == "int"
    assert types["counts"] == "map<string,int>"
    assert types["by_id"] == "map<bigint,struct<sku:string,qty:int,notes:array<string>,status:string>>"
    assert "nothing" not in types
    epoch = datetime.datetime(1970, 1, 1, tzinfo=datetime.timezone.utc)
    for row, message in zip(got, messages):
        want = expected(message)
        assert row.u64 == want["u64"] and row.status == want["status"] and row.w_i32 == want["w_i32"]
        assert row.counts == want["counts"]
        assert {k: v.asDict(recursive=True) for k, v in row.by_id.items()} == want["by_id"]
        assert (row.cash.asDict() if row.cash else None) == want["cash"]
        created = want["created"]
        assert row.created == (
            None if created is None else (created - epoch) // datetime.timedelta(microseconds=1)
        )
        assert row.ttl == want["ttl"]
        assert [line.asDict(recursive=True) for line in row.lines] == want["lines"]
    assert got[-1].u64 is None  # the null value: a null row


def test_from_registry_equals_spark_protobufs_from_protobuf(spark):
    """Spark's own from_protobuf (spark-protobuf from Maven Central, with the descriptor
    set file, the header and message indexes cut with substring) reads the same
    payloads to the same rows."""
    from pyspark.sql import functions as F
    from pyspark.sql.protobuf.functions import from_protobuf

    from support.kafka.jars import KafkaUnavailable
    from support.kafka.spark_avro import spark_protobuf_jar
    from kafkawire.spark.functions import from_registry

    try:
        jar = spark_protobuf_jar()
    except KafkaUnavailable as exc:
        pytest.skip(f"spark-protobuf cannot be fetched: {exc}")
    spark.sql(f"ADD JAR '{jar}'")
    clear_cache()
    with RegistryServer() as server:
        _, df = _frame(spark, server)
        body = F.expr("substring(value, 7, length(value) - 6)")  # past the header and [0]
        both = df.select(
            "n",
            from_registry("value", server.url, topic="orders").alias("ours"),
            from_protobuf(
                body,
                "shop.Order",
                descFilePath=descriptor_path(),
                options={"unwrap.well.known.types": "true"},
            ).alias("spark"),
        ).orderBy("n")
        assert both.schema["ours"].dataType.simpleString() == both.schema["spark"].dataType.simpleString()
        rows = both.collect()
    for row in rows:
        assert row.ours == row.spark, row.n
