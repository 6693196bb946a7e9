"""``kafka-cluster`` against Spark's own JVM Kafka connector, reading one live broker in
one run.

Workload: a topic of 2 partitions holding 1M records of 100-byte values (16-byte keys),
lz4-compressed by librdkafka, on a Kafka 4.4 broker started for the run
(``tests/kafka_support``).  Each reader counts the records and sums the value lengths
on ``local[2]``, in interleaved rounds, best of 3:

* ``kafka``: Spark's connector (``spark-sql-kafka-0-10``, Maven-resolved, ``ADD JAR``);
* ``kafka-cluster``: every column, then a schema of ``value`` alone.

Run: ``python benchmarks/bench_spark_cluster.py [--records N] [--rounds R]``.
"""

from __future__ import annotations

import argparse
import os
import sys
import time
import uuid

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.dirname(HERE))
sys.path.insert(0, os.path.join(os.path.dirname(HERE), "tests"))

PARTITIONS = 2


def fill_topic(bootstrap: str, topic: str, n_records: int) -> None:
    """Create ``topic`` and produce the workload with librdkafka (lz4)."""
    from confluent_kafka import Producer
    from confluent_kafka.admin import AdminClient, NewTopic

    admin = AdminClient({"bootstrap.servers": bootstrap})
    admin.create_topics([NewTopic(topic, PARTITIONS, 1)])[topic].result(30)
    for _ in range(100):
        if len(admin.list_topics(topic, timeout=10).topics[topic].partitions) == PARTITIONS:
            break
        time.sleep(0.1)
    p = Producer(
        {
            "bootstrap.servers": bootstrap,
            "compression.type": "lz4",
            "linger.ms": 50,
            "batch.size": 1 << 20,
            "queue.buffering.max.messages": 1_000_000,
        }
    )
    value = bytes(range(100))
    for i in range(n_records):
        while True:
            try:
                p.produce(topic, value=value, key=b"key-%012d" % i, partition=i % PARTITIONS)
                break
            except BufferError:
                p.poll(0.1)
    assert p.flush(120) == 0


def measure(spark, bootstrap: str, topic: str, n_records: int, rounds: int) -> dict:
    from pyspark.sql import functions as F

    def agg(df):
        return df.agg(F.count("*").alias("n"), F.sum(F.length("value")).alias("bytes")).collect()[0]

    def connector():
        return (
            spark.read.format("kafka")
            .option("kafka.bootstrap.servers", bootstrap)
            .option("subscribe", topic)
            .load()
        )

    def ours(schema=None):
        r = (
            spark.read.format("kafka-cluster")
            .option("kafka.bootstrap.servers", bootstrap)
            .option("subscribe", topic)
        )
        return (r.schema(schema) if schema else r).load()

    routes = {
        "connector_s": connector,
        "kafka_cluster_s": ours,
        "kafka_cluster_value_only_s": lambda: ours("value binary"),
    }
    for make in routes.values():  # warm: JVM classes, Python workers, page cache
        agg(make().limit(1000))
    best = {name: float("inf") for name in routes}
    for _ in range(rounds):
        for name, make in routes.items():
            t = time.perf_counter()
            r = agg(make())
            best[name] = min(best[name], time.perf_counter() - t)
            assert r.n == n_records and r.bytes == 100 * n_records, (name, r)
    out: dict = dict(best, records=n_records, rounds=rounds)
    out["ratio_all_columns"] = best["connector_s"] / best["kafka_cluster_s"]
    out["ratio_value_only"] = best["connector_s"] / best["kafka_cluster_value_only_s"]
    return out


def report(fig: dict) -> str:
    n = fig["records"]
    lines = [f"{n:,} records of 100 B, lz4, {PARTITIONS} partitions, local[2], best of {fig['rounds']}"]
    for name, label in (
        ("connector_s", "Spark's Kafka connector (JVM)"),
        ("kafka_cluster_s", "kafka-cluster, every column"),
        ("kafka_cluster_value_only_s", "kafka-cluster, value only"),
    ):
        lines.append(f"  {label:32} {fig[name]:6.2f} s  {n / fig[name]:>11,.0f} rows/s")
    lines.append(
        f"  kafka-cluster / connector speed: {fig['ratio_all_columns']:.2f}x every column,"
        f" {fig['ratio_value_only']:.2f}x value only"
    )
    return "\n".join(lines)


def main(argv=None) -> int:
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--records", type=int, default=1_000_000)
    p.add_argument("--rounds", type=int, default=3)
    args = p.parse_args(argv)
    from kafka_support.broker import start_broker
    from kafka_support.spark_kafka import connector

    from kafkawire.spark import local_session

    jars = connector().jars
    broker = start_broker()
    spark = None
    try:
        topic = f"bench-{uuid.uuid4().hex[:8]}"
        t = time.perf_counter()
        fill_topic(broker.bootstrap_servers, topic, args.records)
        print(f"produced {args.records:,} records in {time.perf_counter() - t:.1f} s")
        spark = local_session("local[2]", app="kafkawire-bench-cluster", **{"spark.driver.memory": "2g"})
        for jar in jars:
            spark.sql(f"ADD JAR '{jar}'")
        print(report(measure(spark, broker.bootstrap_servers, topic, args.records, args.rounds)))
    finally:
        if spark is not None:
            spark.stop()
        broker.stop()
    return 0


if __name__ == "__main__":
    sys.exit(main())
