"""``kafka-cluster`` from a Spark Connect client.

A Spark Connect server runs in the shared session's driver (``SparkConnectService``, the
service ``start-connect-server.sh`` starts, on a free port); a Connect client session
registers the source with :func:`kafkawire.spark.register`, as a user's client does
(``spark.dataSource.register`` sends the class to the server).  What it reads equals
what Spark's own connector reads in the classic session; what it writes, the connector
reads back; and an option error comes back to the client naming the option.
"""

from __future__ import annotations

import uuid

import pytest

from test_spark_kafka_cluster import create_topic, produce, rows

pytestmark = [pytest.mark.kafka, pytest.mark.spark]


@pytest.fixture(scope="module")
def connect(spark):
    """A Spark Connect client session of a server in the shared session's driver."""
    try:
        from pyspark.sql.connect.session import SparkSession as ConnectSession
    except ImportError as exc:  # pyspark checks grpcio, pandas and the rest on import
        pytest.skip(f"the Spark Connect client cannot be imported: {exc}")
    from kafkawire.spark import register

    jvm = spark._jvm
    spark._jsc.sc().conf().set("spark.connect.grpc.binding.port", "0")  # a free port
    service = getattr(jvm.org.apache.spark.sql.connect.service, "SparkConnectService$").__getattr__("MODULE$")
    service.start(spark._jsc.sc())
    try:
        client = ConnectSession.builder.remote(f"sc://127.0.0.1:{service.localPort()}").create()
        try:
            register(client)
            yield client
        finally:
            client.stop()
    finally:
        service.stop(jvm.scala.Option.empty(), jvm.scala.Option.empty())


def _load(session, fmt: str, options: dict):
    return session.read.format(fmt).options(**options).load()


COLUMNS = (
    "key",
    "value",
    "topic",
    "partition",
    "offset",
    "CAST(timestamp AS LONG) AS ms",
    "timestampType",
    "headers",
)


@pytest.mark.timeout(300)
def test_a_connect_client_reads_and_writes_as_the_connector_does(
    connect, spark_connector, kafka_broker, backend
):
    boot = kafka_broker.bootstrap_servers
    topic = f"kw-connect-{uuid.uuid4().hex[:8]}"
    create_topic(boot, topic, 3)
    produce(
        boot,
        topic,
        [
            (i % 3, None if i % 4 == 0 else b"k%d" % i, b"v%d" % i, [("h", b"%d" % i)] if i % 2 else [])
            for i in range(90)
        ],
        **{"compression.type": "zstd"},
    )
    options = {"kafka.bootstrap.servers": boot, "subscribe": topic, "includeHeaders": "true"}
    theirs = rows(_load(spark_connector, "kafka", options).selectExpr(*COLUMNS))
    ours = rows(_load(connect, "kafka-cluster", {**options, "backend": backend}).selectExpr(*COLUMNS))
    assert len(ours) == 90 and ours == theirs

    copy = f"kw-connect-copy-{uuid.uuid4().hex[:8]}"
    create_topic(boot, copy, 3)
    (
        _load(connect, "kafka-cluster", {**options, "backend": backend})
        .select("key", "value", "headers")
        .write.format("kafka-cluster")
        .option("kafka.bootstrap.servers", boot)
        .option("topic", copy)
        .option("backend", backend)
        .mode("append")
        .save()
    )
    back = _load(spark_connector, "kafka", {**options, "subscribe": copy}).collect()
    assert sorted(repr((r.key, r.value, r.headers)) for r in back) == sorted(
        repr((r.key, r.value, r.headers)) for r in theirs
    )

    with pytest.raises(Exception, match="unknown option startingofsets"):
        _load(connect, "kafka-cluster", {**options, "startingOfsets": "earliest"}).schema
