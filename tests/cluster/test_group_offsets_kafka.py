"""A ``kafka-cluster`` stream with ``commitOffsetsToGroup`` commits each finished
micro-batch's end offsets to its consumer group, as a simple commit (no member, no
generation), once Spark has committed the batch: Kafka's own ``kafka-consumer-groups.sh
--describe`` (``ConsumerGroupCommand`` from the release jars) then shows the query's
offsets and its lag, and no batch ever sees the group ahead of where it starts."""

from __future__ import annotations

import random
import subprocess
import time
import uuid

import pytest

from kafkawire.cluster.plan import ClusterReadOptions

pytestmark = [pytest.mark.kafka, pytest.mark.spark]

PARTITIONS = 3


def describe_group(broker, group: str) -> dict:
    """What ``kafka-consumer-groups.sh --describe --group`` prints of ``group``:
    partition -> (current offset, log end offset, lag)."""
    from support.kafka.jars import classpath_string, java_executable
    from support.kafka.jvm import BASE_OPTIONS

    tool = subprocess.run(
        [java_executable(), "-Xmx256m", *BASE_OPTIONS, "-cp", classpath_string(),
         "org.apache.kafka.tools.consumer.group.ConsumerGroupCommand",
         "--bootstrap-server", broker.bootstrap_servers, "--describe", "--group", group],
        capture_output=True, text=True, timeout=120,
    )  # fmt: skip
    assert tool.returncode == 0, tool.stdout + tool.stderr
    lines = [line.split() for line in tool.stdout.splitlines()]
    header = next(line for line in lines if line[:1] == ["GROUP"])
    col = {name: i for i, name in enumerate(header)}
    return {
        int(line[col["PARTITION"]]): (
            int(line[col["CURRENT-OFFSET"]]),
            int(line[col["LOG-END-OFFSET"]]),
            int(line[col["LAG"]]),
        )
        for line in lines
        if line[:1] == [group]
    }


def group_offsets(admin, group: str, topic: str) -> dict:
    """The group's committed offsets (partition -> offset), asked with librdkafka's admin
    client, through the coordinator's loading (retriable) after the broker starts."""
    from confluent_kafka import ConsumerGroupTopicPartitions, KafkaException, TopicPartition

    asked = [ConsumerGroupTopicPartitions(group, [TopicPartition(topic, p) for p in range(PARTITIONS)])]
    for _ in range(100):
        try:
            answer = admin.list_consumer_group_offsets(asked)[group].result(30)
            return {tp.partition: tp.offset for tp in answer.topic_partitions if tp.offset >= 0}
        except KafkaException as exc:
            if not exc.args[0].retriable():
                raise
            time.sleep(0.2)
    raise AssertionError(f"the offsets of group {group} could not be listed")


def test_each_batch_end_is_committed_to_the_group_that_kafkas_tool_describes(
    spark, kafka_broker, tmp_path, backend
):
    from confluent_kafka.admin import AdminClient
    from test_spark_kafka_cluster import create_topic, produce

    boot = kafka_broker.bootstrap_servers
    topic, group = f"kw-commit-{uuid.uuid4().hex[:8]}", f"kw-group-{uuid.uuid4().hex[:8]}"
    create_topic(boot, topic, PARTITIONS)
    rng = random.Random()
    counts = [rng.randrange(20, 60) for _ in range(PARTITIONS)]
    produce(
        boot, topic, [(p, None, rng.randbytes(10), []) for p in range(PARTITIONS) for _ in range(counts[p])]
    )
    admin = AdminClient({"bootstrap.servers": boot})
    seen = []

    def batch(df, batch_id):
        starts = {}
        for row in df.select("partition", "offset").collect():
            starts[row.partition] = min(row.offset, starts.get(row.partition, row.offset))
        seen.append((starts, group_offsets(admin, group, topic)))

    query = (
        spark.readStream.format("kafka-cluster")
        .option("kafka.bootstrap.servers", boot)
        .option("subscribe", topic)
        .option("startingOffsets", "earliest")
        .option("maxOffsetsPerTrigger", "25")
        .option("kafka.group.id", group)
        .option("commitOffsetsToGroup", "true")
        .option("backend", backend)
        .load()
        .writeStream.foreachBatch(batch)
        .option("checkpointLocation", str(tmp_path / "checkpoint"))
        .trigger(availableNow=True)
        .start()
    )
    assert query.awaitTermination(300)
    assert query.exception() is None
    assert len(seen) >= 3
    for starts, committed in seen:  # the group is never ahead of the batch being read
        assert all(committed.get(p, 0) <= start for p, start in starts.items()), (starts, committed)
    assert any(committed for _, committed in seen[1:])  # and it moved while the query ran
    assert describe_group(kafka_broker, group) == {p: (counts[p], counts[p], 0) for p in range(PARTITIONS)}
    # records the query has not read yet show as the group's lag
    produce(boot, topic, [(0, None, b"later", [])] * 7)
    assert describe_group(kafka_broker, group)[0] == (counts[0], counts[0] + 7, 7)


@pytest.mark.parametrize(
    "options, message",
    [
        ({"commitOffsetsToGroup": "true"}, "needs the group: option kafka.group.id or groupIdPrefix"),
        (
            {"commitOffsetsToGroup": "maybe", "kafka.group.id": "g"},
            "commitOffsetsToGroup must be true or false",
        ),
    ],
)
def test_commit_offsets_to_group_options_are_checked(options, message, backend):
    base = {"kafka.bootstrap.servers": "127.0.0.1:9", "subscribe": "t"}
    with pytest.raises(ValueError, match=message):
        ClusterReadOptions.parse({**base, **options}, streaming=True)
    from kafkawire.spark.kafka_cluster import ClusterReader

    with pytest.raises(ValueError, match="is for streaming queries"):
        ClusterReader(
            ClusterReadOptions.parse({**base, "commitOffsetsToGroup": "true", "kafka.group.id": "g"})
        )


def test_the_group_is_kafka_group_id_else_the_prefix(backend):
    base = {"kafka.bootstrap.servers": "127.0.0.1:9", "subscribe": "t", "commitOffsetsToGroup": "true"}
    assert ClusterReadOptions.parse({**base, "groupIdPrefix": "etl"}, streaming=True).commit_group == "etl"
    both = {**base, "groupIdPrefix": "etl", "kafka.group.id": "orders-etl"}
    assert ClusterReadOptions.parse(both, streaming=True).commit_group == "orders-etl"
    assert (
        ClusterReadOptions.parse({**base, "commitOffsetsToGroup": "false"}, streaming=True).commit_group
        is None
    )
