"""Spark's own Kafka connector reads a live Kafka 4.4 broker; kafkawire's column
functions turn ``__consumer_offsets`` into a consumer-lag table.

kafka-python (an independent client) produces to a data topic and commits offsets for two
groups; the consumer-lag pipeline of docs/spark/functions.md then runs as written, in a child Python with a
SparkSession of its own (the suite's shared session has no connector jars on
``spark.jars``), and its table must equal what was produced and committed.

The child and its Spark workers run the backend the run's environment selects, as a
user's would: the first leg of .ci/run checks the Cython backend, its pure-Python leg
(``KAFKAWIRE_NO_EXTENSIONS=1``) the pure one.  One run per leg: a second, with the other
backend forced, would start a second Spark for what the other leg checks.
"""

from __future__ import annotations

import json
import re
import subprocess
import sys
import uuid
from pathlib import Path

import pytest

from conftest import subprocess_env

pytestmark = [pytest.mark.kafka, pytest.mark.spark, pytest.mark.slow]

PAGE = Path(__file__).resolve().parents[2] / "docs" / "spark" / "functions.md"
PIPELINE_TIMEOUT = 600  # seconds: a JVM start and four Spark jobs on a busy machine

# Runs the page's block, then hands its lag table back as JSON on the last line.
CHILD = """
import json, sys
namespace = {"__name__": "__readme__"}
exec(compile(sys.stdin.read(), "docs/spark/functions.md", "exec"), namespace)
rows = [r.asDict() for r in namespace["lag"].collect()]
namespace["spark"].stop()
print("LAG " + json.dumps(rows))
"""


def lag_pipeline() -> str:
    text = PAGE.read_text(encoding="utf-8")
    section = text.split("## Consumer lag from a live broker", 1)[1]
    return re.search(r"^```py\n(.*?)^```$", section, re.S | re.M).group(1)


def _produce_and_commit(bootstrap: str, topic: str, groups: dict) -> dict:
    """Two partitions of records, then each group's commits in order; returns each
    partition's log end offset."""
    from kafka import KafkaAdminClient, KafkaConsumer, KafkaProducer, TopicPartition
    from kafka.admin import NewTopic
    from kafka.structs import OffsetAndMetadata

    admin = KafkaAdminClient(bootstrap_servers=bootstrap, request_timeout_ms=30000)
    try:
        admin.create_topics([NewTopic(topic, num_partitions=2, replication_factor=1)])
    finally:
        admin.close()
    counts = {0: 5, 1: 3}
    producer = KafkaProducer(bootstrap_servers=bootstrap, acks="all")
    try:
        for partition, count in counts.items():
            for i in range(count):
                producer.send(topic, f"record {i}".encode(), partition=partition).get(30)
    finally:
        producer.close()
    for group, commits in groups.items():
        consumer = KafkaConsumer(bootstrap_servers=bootstrap, group_id=group, enable_auto_commit=False)
        try:
            for partition, offset in commits:
                consumer.commit({TopicPartition(topic, partition): OffsetAndMetadata(offset, "", -1)})
        finally:
            consumer.close()
    return counts


@pytest.mark.backend_independent
def test_consumer_lag_from_a_live_broker_with_sparks_kafka_connector(kafka_broker):
    pytest.importorskip("pyspark")
    pytest.importorskip("kafka")
    from support.kafka.jars import KafkaUnavailable
    from support.kafka.spark_kafka import connector

    try:
        conn = connector()
    except KafkaUnavailable as exc:
        pytest.fail(f"Spark's Kafka connector cannot be resolved: {exc}")
    print(f"Spark Kafka connector: {conn.describe()}")

    run = uuid.uuid4().hex[:8]
    topic, ahead, behind = f"lag-{run}", f"ahead-{run}", f"behind-{run}"
    # later commits of a partition replace earlier ones
    groups = {ahead: [(0, 2), (0, 4), (1, 3)], behind: [(0, 1), (0, 0)]}
    ends = _produce_and_commit(kafka_broker.bootstrap_servers, topic, groups)

    env = subprocess_env(
        KAFKA_BOOTSTRAP=kafka_broker.bootstrap_servers,
        SPARK_KAFKA_JARS=",".join(str(j) for j in conn.jars),
        PYSPARK_PYTHON=sys.executable,
        SPARK_LOCAL_IP="127.0.0.1",
    )
    proc = subprocess.run(
        [sys.executable, "-c", CHILD],
        input=lag_pipeline(),
        env=env,
        capture_output=True,
        text=True,
        timeout=PIPELINE_TIMEOUT,
    )
    assert proc.returncode == 0, proc.stderr[-4000:]
    print(proc.stdout)
    rows = json.loads(proc.stdout.strip().splitlines()[-1].removeprefix("LAG "))

    expected = []
    for group, commits in sorted(groups.items()):
        last = dict(commits)  # the newest commit of each partition
        for partition in sorted(last):
            end = ends[partition]
            expected.append(
                {
                    "group": group,
                    "topic": topic,
                    "partition": partition,
                    "committed_offset": last[partition],
                    "log_end_offset": end,
                    "lag": end - last[partition],
                }
            )
    assert [r for r in rows if r["topic"] == topic] == expected
