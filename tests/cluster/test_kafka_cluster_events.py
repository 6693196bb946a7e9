"""``kafka-cluster`` on a real Kafka 4.4 cluster of three brokers while the cluster changes
under it (``kafka_cluster``: replication factor 3, ``min.insync.replicas=2``).

* A task reading at the tail of a partition while its leader moves from broker to broker
  (reassignments and preferred elections, with Kafka's Admin API) and a producer keeps
  writing: a new leader's high watermark can trail the old one's for a moment, and the
  task waits for the records rather than judging them lost; every record is read once.
* ``df.write`` (acks=all, idempotent) while the leader of a partition is killed (a
  broker, not the controller): every row lands once, as Kafka's Java consumer reads the
  topic back.
"""

from __future__ import annotations

import threading
import time
import uuid

import pytest

pytestmark = [pytest.mark.kafka]


def _producer_thread(
    bootstrap: str, topic: str, stop: threading.Event, counted: list, acked: list
) -> threading.Thread:
    """librdkafka writing ``r0``, ``r1``, ... to partition 0 (idempotent, acks=all) until
    ``stop``; ``counted`` gets how many it wrote, all acknowledged; ``acked[0]`` is the
    offset after the last record acknowledged so far."""
    from confluent_kafka import Producer

    def delivered(err, msg) -> None:
        if err is None:
            acked[0] = max(acked[0], msg.offset() + 1)

    def run() -> None:
        p = Producer({"bootstrap.servers": bootstrap, "enable.idempotence": True, "linger.ms": 5})
        i = 0
        while not stop.is_set():
            p.produce(topic, value=b"r%d" % i, partition=0, on_delivery=delivered)
            i += 1
            if i % 20 == 0:
                p.poll(0)
                time.sleep(0.005)
        assert p.flush(120) == 0
        counted.append(i)

    t = threading.Thread(target=run, daemon=True)
    t.start()
    return t


@pytest.mark.timeout(900)
def test_a_task_at_the_tail_reads_every_record_once_while_the_leader_moves(kafka_cluster, backend):
    from kafkawire.cluster.client import Cluster
    from kafkawire.cluster.fetch import read_range
    from kafkawire.cluster.plan import OffsetRange, ClusterReadOptions

    topic = f"kw-moving-{uuid.uuid4().hex[:8]}"
    kafka_cluster.create_topic(topic, 1)
    boot = kafka_cluster.bootstrap_servers
    options = ClusterReadOptions.parse(
        {
            "kafka.bootstrap.servers": boot,
            "subscribe": topic,
            "backend": backend,
            "kafka.retry.backoff.ms": "20",
        }
    )
    stop, counted, acked = threading.Event(), [], [0]
    producer = _producer_thread(boot, topic, stop, counted, acked)
    leader = kafka_cluster.describe(topic)[0]["leader"]
    # round the brokers twice, ending where it began
    moves = ([n for n in (1, 2, 3) if n != leader] + [leader]) * 2
    failures: list = []

    def move() -> None:
        try:
            kafka_cluster.admin(
                {"jobs": [{"op": "move_leader", "topic": topic, "partition": 0, "to": n} for n in moves]}
            )
        except BaseException as exc:  # reported by the test below
            failures.append(exc)
        finally:
            stop.set()

    mover = threading.Thread(target=move, daemon=True)
    got: list = []
    moving = 0  # reads begun while the leader moved
    # the moves begin once the producer has records acknowledged (on a busy machine its
    # idempotent id alone can take seconds), so that reads overlap the moves
    deadline = time.monotonic() + 120
    while acked[0] == 0 and time.monotonic() < deadline:
        time.sleep(0.05)
    assert acked[0] > 0, "the producer had nothing acknowledged after 120 s"
    with Cluster(options.client) as cluster:
        mover.start()
        # micro-batches planned up to the records acknowledged (committed on the leader that
        # acknowledged them) and read at once from whichever broker leads by then
        while True:
            done = not producer.is_alive()
            end = acked[0]
            if end > len(got):
                moving += mover.is_alive()
                r = OffsetRange(topic, 0, len(got), end)
                got += [
                    v
                    for b in cluster.iterate(read_range(cluster.aio, r, options))
                    for v in b.column("value").to_pylist()
                ]
            if done and end == len(got):
                break
    mover.join()
    producer.join()
    assert not failures, failures
    assert kafka_cluster.describe(topic)[0]["leader"] == leader  # the moves were made
    assert moving >= 1
    assert got == [b"r%d" % i for i in range(counted[0])]


@pytest.mark.spark
@pytest.mark.timeout(900)
def test_a_write_while_a_partition_leader_is_killed_lands_every_row_once(kafka_cluster, spark, backend):
    from confluent_kafka import Consumer, TopicPartition
    from support.kafka.cluster import CONTROLLER
    from support.kafka.java_clients import run_java

    topic = f"kw-sink-{uuid.uuid4().hex[:8]}"
    kafka_cluster.create_topic(topic, 3)
    boot = kafka_cluster.bootstrap_servers
    # partition 0's leader, on a broker that is not the controller
    if kafka_cluster.describe(topic)[0]["leader"] == CONTROLLER:
        kafka_cluster.move_leader(topic, 0, CONTROLLER + 1)
    victim = kafka_cluster.describe(topic)[0]["leader"]
    n = 30000
    df = spark.range(0, n, 1, 3).selectExpr(
        "CAST(id AS STRING) AS key", "CONCAT('v-', CAST(id AS STRING), '-', repeat('x', 40)) AS value"
    )
    watcher = Consumer({"bootstrap.servers": boot, "group.id": topic})
    written = threading.Event()
    killed_while_writing: list = []

    def kill_once_writing() -> None:
        deadline = time.monotonic() + 300
        while not written.is_set() and time.monotonic() < deadline:
            landed = sum(watcher.get_watermark_offsets(TopicPartition(topic, p), 10)[1] for p in range(3))
            if landed >= n // 10:
                kafka_cluster.kill(victim)
                killed_while_writing.append(not written.is_set())
                return
            time.sleep(0.1)

    killer = threading.Thread(target=kill_once_writing, daemon=True)
    killer.start()
    try:
        (
            df.write.format("kafka-cluster")
            .mode("append")
            .option("kafka.bootstrap.servers", boot)
            .option("topic", topic)
            .option("kafka.batch.size", "2048")
            .option("backend", backend)
            .save()
        )
        written.set()
        killer.join()
    finally:
        written.set()
        killer.join()
        watcher.close()
        kafka_cluster.start(victim)
    assert killed_while_writing == [True], "the broker was not killed while the write ran"
    consumed = run_java(
        {"op": "consume", "bootstrap": boot, "topics": [topic], "group": f"{topic}-check", "expect": n},
        timeout=300,
    )
    values = sorted(bytes.fromhex(r["value"]).decode() for r in consumed["records"])
    assert values == sorted(f"v-{i}-" + "x" * 40 for i in range(n))
    # none twice: the partitions hold no more records than were written
    ends = Consumer({"bootstrap.servers": boot, "group.id": f"{topic}-ends"})
    try:
        assert sum(ends.get_watermark_offsets(TopicPartition(topic, p), 10)[1] for p in range(3)) == n
    finally:
        ends.close()
