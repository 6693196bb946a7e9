"""``kafka-cluster`` under the events a live cluster has, beside Spark's own connector
given the same events on the session's real Kafka 4.4 broker: partitions added under a
running stream, a topic deleted and recreated under a stream, a new partition that
retention got to first, ``maxOffsetsPerTrigger`` with new partitions, an offline
partition outside a pattern's topics, a topic or partition named twice, and a log start
that moves between a batch read's planning and its task.  Each ends in the same rows as
the connector's, or the same failure.  ``docs/cluster-events.md`` tabulates the outcomes.
"""

from __future__ import annotations

import time
import uuid

import pytest

from support.kafka.streaming import error_text, started, wait_for
from test_spark_kafka_cluster import create_topic, load, produce, same_as_connector

pytestmark = [pytest.mark.kafka, pytest.mark.spark]

FORMATS = ("kafka", "kafka-cluster")


def _admin(boot: str):
    from confluent_kafka.admin import AdminClient

    return AdminClient({"bootstrap.servers": boot})


def _add_partitions(boot: str, topic: str, total: int) -> None:
    from confluent_kafka.admin import NewPartitions

    admin = _admin(boot)
    admin.create_partitions([NewPartitions(topic, total)])[topic].result(30)
    wait_for(
        "the new partitions",
        lambda: len(admin.list_topics(topic, timeout=10).topics[topic].partitions) == total,
    )


def _delete_records(broker, topic: str, partition: int, before: int) -> None:
    """Move the log start of ``topic``-``partition`` to ``before``, as retention would
    (a DeleteRecords request: librdkafka's admin client hangs on a partition just added)."""
    from support.blocking_client import BlockingClient

    from kafkawire.protocol import messages as M

    D = M.DeleteRecordsRequest
    client = BlockingClient(broker)
    try:
        answer = client.request(
            D(
                topics=[
                    D.DeleteRecordsTopic(name=topic, partitions=[D.DeleteRecordsPartition(partition, before)])
                ],
                timeout_ms=30000,
            )
        )
    finally:
        client.close()
    (result,) = answer.topics[0].partitions
    assert (result.error_code, result.low_watermark) == (0, before)


def _options(fmt: str, backend: str, **options: str) -> dict:
    return {**options, "backend": backend} if fmt == "kafka-cluster" else options


class _AvailableNow:
    """One stream per format over the same options, each run to the end of what is there
    (``Trigger.AvailableNow``) into a parquet folder with its checkpoint, as often as
    the test asks."""

    def __init__(self, spark, tmp_path, backend: str, **options: str) -> None:
        self.spark, self.tmp, self.backend, self.options = spark, tmp_path, backend, options

    def run(self, fmt: str, **more: str):
        """Run ``fmt``'s query once: (input rows of each micro-batch, error text)."""
        from pyspark.errors import StreamingQueryException

        reader = self.spark.readStream.format(fmt).options(
            **_options(fmt, self.backend, **self.options, **more)
        )
        query = started(
            lambda: (
                reader.load()
                .writeStream.format("parquet")
                .option("path", str(self.tmp / fmt / "out"))
                .option("checkpointLocation", str(self.tmp / fmt / "checkpoint"))
                .trigger(availableNow=True)
                .start()
            )
        )
        try:
            query.awaitTermination(300)
        except StreamingQueryException:  # a failure is part of the answer
            pass
        sizes = [p["numInputRows"] for p in query.recentProgress if p["numInputRows"]]
        return sizes, error_text(query)

    def rows(self, fmt: str):
        out = self.spark.read.parquet(str(self.tmp / fmt / "out"))
        return sorted(
            (r.partition, r.offset, r.value) for r in out.select("partition", "offset", "value").collect()
        )


def test_partitions_added_under_a_running_stream_are_read_from_their_start_as_the_connectors_are(
    spark_connector, kafka_broker, backend
):
    spark = spark_connector
    boot = kafka_broker.bootstrap_servers
    topic = f"kw-grow-{uuid.uuid4().hex[:8]}"
    create_topic(boot, topic, 2)
    produce(boot, topic, [(i % 2, None, b"before-%d" % i, []) for i in range(20)])
    names = {fmt: f"grow_{fmt.replace('-', '_')}_{uuid.uuid4().hex[:8]}" for fmt in FORMATS}
    queries = {}

    def count(fmt: str) -> int:
        assert queries[fmt].exception() is None, error_text(queries[fmt])
        return spark.table(names[fmt]).count()

    try:
        for fmt in FORMATS[::-1]:  # one at a time: a busy machine starts Python workers slowly
            queries[fmt] = started(
                lambda: (
                    spark.readStream.format(fmt)
                    .options(
                        **_options(fmt, backend, **{"kafka.bootstrap.servers": boot, "subscribe": topic})
                    )
                    .option("startingOffsets", "earliest")
                    .load()
                    .writeStream.format("memory")
                    .queryName(names[fmt])
                    .trigger(processingTime="300 milliseconds")
                    .start()
                )
            )
            wait_for(f"the {fmt} stream to read the first records", lambda: count(fmt) == 20)
        _add_partitions(boot, topic, 4)  # while both run
        produce(boot, topic, [(i % 4, None, b"after-%d" % i, []) for i in range(24)])
        wait_for("the records of the added partitions", lambda: all(count(f) == 44 for f in FORMATS), 120)
    finally:
        for query in queries.values():
            query.stop()
    got = {
        fmt: sorted((r.partition, r.offset, r.value) for r in spark.table(names[fmt]).collect())
        for fmt in FORMATS
    }
    assert got["kafka-cluster"] == got["kafka"]
    assert {p for p, _, _ in got["kafka"]} == {0, 1, 2, 3}


def test_an_added_partition_not_starting_at_zero_is_data_loss_as_the_connectors_is(
    spark_connector, kafka_broker, tmp_path, backend
):
    """Retention reached the new partition before the stream did: the connector reports
    data loss (failOnDataLoss=true) or reads what is left (false); so does kafka-cluster."""
    boot = kafka_broker.bootstrap_servers
    topic = f"kw-late-{uuid.uuid4().hex[:8]}"
    create_topic(boot, topic, 1)
    produce(boot, topic, [(0, None, b"first-%d" % i, []) for i in range(10)])
    stream = _AvailableNow(
        spark_connector,
        tmp_path,
        backend,
        **{"kafka.bootstrap.servers": boot, "subscribe": topic, "startingOffsets": "earliest"},
    )
    for fmt in FORMATS:
        assert stream.run(fmt) == ([10], "")
    _add_partitions(boot, topic, 2)
    produce(boot, topic, [(1, None, b"new-%d" % i, []) for i in range(10)])
    _delete_records(kafka_broker, topic, 1, 4)  # the new partition now starts at offset 4
    _, theirs = stream.run("kafka")
    assert f"Added partition {topic}-1 starts from 4 instead of 0" in theirs, theirs
    _, ours = stream.run("kafka-cluster")
    assert f"{topic}-1 was added and starts at offset 4, not 0" in ours and "failOnDataLoss=false" in ours
    for fmt in FORMATS:
        assert stream.run(fmt, failOnDataLoss="false") == ([6], "")
    assert stream.rows("kafka-cluster") == stream.rows("kafka")
    assert [o for p, o, _ in stream.rows("kafka") if p == 1] == list(range(4, 10))


def _recreate(boot: str, topic: str, partitions: int) -> None:
    from confluent_kafka.admin import NewTopic

    admin = _admin(boot)
    admin.delete_topics([topic])[topic].result(30)
    deadline = time.monotonic() + 120
    while True:  # the name is taken until the deletion has gone through
        try:
            admin.create_topics([NewTopic(topic, partitions, 1)])[topic].result(30)
            break
        except Exception as exc:  # TOPIC_ALREADY_EXISTS while the old one is being deleted
            assert time.monotonic() < deadline, f"topic {topic} not recreated: {exc}"
            time.sleep(0.5)
    wait_for(
        "the recreated topic",
        lambda: len(admin.list_topics(topic, timeout=10).topics[topic].partitions) == partitions,
    )


def test_a_topic_recreated_under_a_stream_is_data_loss_or_read_on_from_its_new_offsets_as_the_connector_does(
    spark_connector, kafka_broker, tmp_path, backend
):
    """The topic is deleted and recreated between two runs of a stream, and holds fewer
    records than the checkpoint's offset: its offset went back from 30 to 10.  With
    failOnDataLoss both fail naming the partition and both offsets; without, both go on
    from offset 10 and read what comes after it."""
    boot = kafka_broker.bootstrap_servers
    topic = f"kw-again-{uuid.uuid4().hex[:8]}"
    create_topic(boot, topic, 1)
    produce(boot, topic, [(0, None, b"old-%d" % i, []) for i in range(30)])
    stream = _AvailableNow(
        spark_connector,
        tmp_path,
        backend,
        **{"kafka.bootstrap.servers": boot, "subscribe": topic, "startingOffsets": "earliest"},
    )
    for fmt in FORMATS:
        assert stream.run(fmt) == ([30], "")
    _recreate(boot, topic, 1)
    produce(boot, topic, [(0, None, b"new-%d" % i, []) for i in range(10)])
    _, theirs = stream.run("kafka")
    assert f"Partition {topic}-0 offset was changed from 30 to 10" in theirs, theirs
    _, ours = stream.run("kafka-cluster")
    assert f"{topic}-0: its offset went from 30 back to 10" in ours and "failOnDataLoss=false" in ours
    for fmt in FORMATS:
        assert stream.run(fmt, failOnDataLoss="false") == ([], "")
    produce(boot, topic, [(0, None, b"newer-%d" % i, []) for i in range(5)])
    for fmt in FORMATS:
        assert stream.run(fmt, failOnDataLoss="false") == ([5], "")
    assert stream.rows("kafka-cluster") == stream.rows("kafka")
    # the new log's records below offset 10 are skipped, by the connector too
    assert [(o, v) for _, o, v in stream.rows("kafka") if not v.startswith(b"old-")] == [
        (10 + i, b"newer-%d" % i) for i in range(5)
    ]


def test_max_offsets_per_trigger_bounds_added_partitions_as_the_connectors_does(
    spark_connector, kafka_broker, tmp_path, backend
):
    """An added partition starts at its earliest offset and shares the limit with the
    others, Trigger.AvailableNow included: the micro-batches are the connector's."""
    boot = kafka_broker.bootstrap_servers
    topic = f"kw-limit-{uuid.uuid4().hex[:8]}"
    create_topic(boot, topic, 2)
    produce(boot, topic, [(i % 2, None, b"a-%d" % i, []) for i in range(12)])
    stream = _AvailableNow(
        spark_connector,
        tmp_path,
        backend,
        **{
            "kafka.bootstrap.servers": boot,
            "subscribe": topic,
            "startingOffsets": "earliest",
            "maxOffsetsPerTrigger": "10",
        },
    )
    first = {fmt: stream.run(fmt) for fmt in FORMATS}
    assert first["kafka-cluster"] == first["kafka"] and first["kafka"][1] == ""
    _add_partitions(boot, topic, 3)
    produce(boot, topic, [(2, None, b"b-%d" % i, []) for i in range(40)] + [(0, None, b"c", [])])
    second = {fmt: stream.run(fmt) for fmt in FORMATS}
    assert second["kafka-cluster"] == second["kafka"]
    sizes, error = second["kafka"]
    assert error == "" and sum(sizes) == 41 and max(sizes) <= 10
    assert stream.rows("kafka-cluster") == stream.rows("kafka")


@pytest.fixture(scope="module")
def offline_topic(kafka_broker):
    """A topic whose one partition is offline: its only replica is on a second broker of
    the cluster, stopped.  The topic is deleted and that broker unregistered after the
    module's tests, so the session's other tests see a healthy cluster."""
    from confluent_kafka.admin import NewTopic
    from support.kafka.broker import start_broker

    from support.blocking_client import BlockingClient
    from kafkawire.protocol import messages as M

    boot = kafka_broker.bootstrap_servers
    admin = _admin(boot)
    name = f"kw-offline-{uuid.uuid4().hex[:8]}"
    # a broker only, of the session broker's cluster
    second = start_broker(node_id=2, cluster_id=kafka_broker.cluster_id, controller=kafka_broker.controller)
    try:
        deadline = time.monotonic() + 120
        while True:  # broker 2 takes replicas once the controller has it registered and unfenced
            try:
                admin.create_topics([NewTopic(name, num_partitions=1, replica_assignment=[[2]])])[
                    name
                ].result(30)
                break
            except Exception as exc:
                assert time.monotonic() < deadline, f"broker 2 never took a replica: {exc}"
                time.sleep(0.5)
    finally:
        second.stop()

    def offline() -> bool:
        meta = admin.list_topics(name, timeout=10).topics[name]
        return meta.partitions and meta.partitions[0].leader == -1

    wait_for("the partition to go offline", offline, 120)
    yield name
    admin.delete_topics([name])[name].result(30)
    client = BlockingClient(kafka_broker)
    try:
        assert client.request(M.UnregisterBrokerRequest(broker_id=2)).error_code == 0
    finally:
        client.close()


def test_an_offline_partition_outside_a_pattern_does_not_fail_its_read_as_it_does_not_the_connectors(
    spark_connector, kafka_broker, offline_topic, backend
):
    boot = kafka_broker.bootstrap_servers
    prefix = f"kw-picked-{uuid.uuid4().hex[:8]}"
    for i in range(2):
        create_topic(boot, f"{prefix}-{i}", 2)
        produce(boot, f"{prefix}-{i}", [(j % 2, None, b"%d-%d" % (i, j), []) for j in range(10)])
    got = same_as_connector(
        spark_connector,
        {
            "kafka.bootstrap.servers": boot,
            "subscribePattern": f"{prefix}-.*",
            # short, so that a read retrying the offline partition fails soon
            "kafka.request.timeout.ms": "5000",
            "kafka.default.api.timeout.ms": "10000",
        },
        backend,
    )
    assert len(got) == 20


@pytest.mark.parametrize(
    "subscription",
    [
        {"subscribe": "{t},{t}"},
        {"subscribe": "{t}, {t} ,{t}"},
        {"assign": '{{"{t}": [0, 0, 1]}}'},
    ],
    ids=["subscribe-twice", "subscribe-thrice", "assign-twice"],
)
def test_a_topic_or_partition_named_twice_is_read_once_as_the_connector_reads_it(
    spark_connector, kafka_broker, subscription, backend
):
    boot = kafka_broker.bootstrap_servers
    topic = f"kw-twice-{uuid.uuid4().hex[:8]}"
    create_topic(boot, topic, 2)
    produce(boot, topic, [(i % 2, None, b"%d" % i, []) for i in range(10)])
    options = {k: v.format(t=topic) for k, v in subscription.items()}
    got = same_as_connector(spark_connector, {"kafka.bootstrap.servers": boot, **options}, backend)
    assert len(got) == 10


def test_a_batch_tasks_earliest_and_latest_are_looked_up_when_it_starts_as_the_connectors_are(
    spark_connector, kafka_broker, tmp_path, backend
):
    """A task that starts after retention moved the log start reads from the new start,
    with no data loss error, and up to the end as it is then.  The read is in a union
    after tasks (as many as Spark has cores) that, once the read is planned and before
    its task starts, delete the topic's first 10 records and produce 5 more."""
    spark = spark_connector
    boot = kafka_broker.bootstrap_servers
    cores = spark.sparkContext.defaultParallelism

    def got(fmt: str):
        topic = f"kw-bound-{uuid.uuid4().hex[:8]}"
        create_topic(boot, topic, 1)
        produce(boot, topic, [(0, None, b"r-%d" % i, []) for i in range(30)])
        marker = str(tmp_path / topic)

        def first_tasks(batches):  # runs in a Python worker: nothing of this module
            import os
            import time

            import pandas as pd
            from confluent_kafka import Producer, TopicPartition
            from confluent_kafka.admin import AdminClient

            for batch in batches:
                if 0 in batch["id"].values:
                    admin = AdminClient({"bootstrap.servers": boot})
                    (done,) = admin.delete_records([TopicPartition(topic, 0, 10)]).values()
                    done.result(30)
                    p = Producer({"bootstrap.servers": boot})
                    for i in range(5):
                        p.produce(topic, value=b"late-%d" % i, partition=0)
                    assert p.flush(30) == 0
                    open(marker, "w").close()
            deadline = time.monotonic() + 120
            while not os.path.exists(marker) and time.monotonic() < deadline:
                time.sleep(0.1)
            yield pd.DataFrame({"value": pd.Series([], dtype=object)})

        first = spark.range(0, cores, 1, cores).mapInPandas(first_tasks, "value binary")
        read = load(
            spark, fmt, _options(fmt, backend, **{"kafka.bootstrap.servers": boot, "subscribe": topic})
        )
        return sorted(r.value for r in first.union(read.select("value")).collect())

    theirs = got("kafka")
    assert theirs == sorted([b"r-%d" % i for i in range(10, 30)] + [b"late-%d" % i for i in range(5)])
    assert got("kafka-cluster") == theirs
