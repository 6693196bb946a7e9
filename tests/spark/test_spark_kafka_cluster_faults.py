"""``kafka-cluster`` streams end to end on the three-broker Kafka 4.4 cluster
(``kafka_cluster``: replication factor 3, ``min.insync.replicas=2``) while it goes
through faults: no record lost, none twice.

* Reading: Kafka's Java producer writes keyed, numbered records to two topics (one
  idempotent, one transactional with a random quarter of its transactions aborted) while
  a stream of each (``read_uncommitted``, ``read_committed``) writes parquet with a
  checkpoint; meanwhile a broker leading partitions is killed and started again, a
  leader moves, partitions are added and both queries are stopped and started again from
  their checkpoints (:mod:`support.kafka.faults`).  Each sink holds exactly the records
  the producer had acknowledged, by topic, partition, offset, key and value, and none
  of an aborted transaction.
* Writing: a stream into ``kafka-cluster`` (acks=all) while the leader of a partition is
  killed: every row lands once, as Kafka's Java consumer reads the topic back.

``benchmarks/soak_cluster_faults.py`` runs the reading case for as many minutes as asked.
``docs/cluster-events.md`` records what happened.
"""

from __future__ import annotations

import json
import random
import uuid

import pytest

pytestmark = [pytest.mark.kafka, pytest.mark.spark]


@pytest.mark.timeout(1800)
def test_streams_under_broker_faults_deliver_every_committed_record_once(
    kafka_cluster, spark, tmp_path, backend
):
    from support.kafka.faults import FaultRun

    seed = random.randrange(1 << 16)  # of the aborted transactions
    print(f"seed {seed}")  # the run prints its events as they happen
    outcome = FaultRun(kafka_cluster, spark, backend, tmp_path, seed).run(rounds=1)
    outcome.check()
    for topic, (expected, _, aborted) in outcome.sinks.items():
        assert {p for _, p, *_ in expected} == {0, 1, 2}, f"{topic}: the added partition was not written"
        assert ("-txn-" in topic) == bool(aborted), f"{topic}: aborted records {len(aborted)}"


@pytest.mark.timeout(900)
def test_a_stream_written_while_a_partition_leader_is_killed_lands_every_row_once(
    kafka_cluster, spark, tmp_path, backend
):
    """Rows come from JSON files, one a micro-batch; the leader of partition 0 is killed
    once some have landed, and started again when the stream has written them all."""
    from confluent_kafka import Consumer, TopicPartition
    from support.kafka.cluster import CONTROLLER
    from support.kafka.java_clients import run_java
    from support.kafka.streaming import started, wait_for

    topic = f"kw-sink-faults-{uuid.uuid4().hex[:8]}"
    kafka_cluster.create_topic(topic, 3)
    boot = kafka_cluster.bootstrap_servers
    if kafka_cluster.describe(topic)[0]["leader"] == CONTROLLER:
        kafka_cluster.move_leader(topic, 0, CONTROLLER + 1)
    victim = kafka_cluster.describe(topic)[0]["leader"]
    files, per_file = 20, 150
    n = files * per_file
    source = tmp_path / "rows"
    source.mkdir()
    for f in range(files):
        lines = (
            json.dumps({"key": f"{i}", "value": f"v-{i}"}) for i in range(f * per_file, (f + 1) * per_file)
        )
        (source / f"{f:03d}.json").write_text("\n".join(lines) + "\n")
    watcher = Consumer({"bootstrap.servers": boot, "group.id": topic})

    def landed() -> int:
        return sum(watcher.get_watermark_offsets(TopicPartition(topic, p), 10)[1] for p in range(3))

    query = started(
        lambda: (
            spark.readStream.schema("key string, value string")
            .option("maxFilesPerTrigger", 1)
            .json(str(source))
            .writeStream.format("kafka-cluster")
            .option("kafka.bootstrap.servers", boot)
            .option("topic", topic)
            .option("kafka.batch.size", "1024")
            .option("kafka.delivery.timeout.ms", "300000")
            .option("backend", backend)
            .option("checkpointLocation", str(tmp_path / "checkpoint"))
            .trigger(processingTime="200 milliseconds")
            .start()
        )
    )
    killed = False
    try:
        wait_for("the first rows", lambda: landed() >= 2 * per_file)
        before = landed()
        kafka_cluster.kill(victim)
        killed = True
        assert before < n, "the stream had written every row before the broker was killed"
        query.processAllAvailable()
        assert query.exception() is None
        written = sum(p["numInputRows"] for p in query.recentProgress)
    finally:
        query.stop()
        watcher.close()
        if killed:
            kafka_cluster.start(victim)
    assert written == n
    consumed = run_java(
        {"op": "consume", "bootstrap": boot, "topics": [topic], "group": f"{topic}-check", "expect": n},
        timeout=300,
    )
    values = sorted(bytes.fromhex(r["value"]).decode() for r in consumed["records"])
    assert values == sorted(f"v-{i}" for i in range(n))
    # none twice: the partitions hold no more records than were written
    ends = Consumer({"bootstrap.servers": boot, "group.id": f"{topic}-ends"})
    try:
        assert sum(ends.get_watermark_offsets(TopicPartition(topic, p), 10)[1] for p in range(3)) == n
    finally:
        ends.close()
