"""The test broker keeps its consumer groups as records of ``__consumer_offsets``.

Kafka's Java consumer commits to a ``kafkawire`` broker with a log directory; after a
restart it resumes from what it committed.  The records the broker wrote are those a
Kafka 4.4 broker writes for a classic group (record types and value versions taken from
the real broker's log of the ``kafka_workload`` fixture), and the Spark column
functions read them.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from kafkawire.protocol import internal_topics, records
from kafkawire.log import segments
from kafkawire.broker import Broker

pytestmark = [pytest.mark.kafka, pytest.mark.clients]

TOPIC = "resume"


def _java(job, timeout=90):
    from support.kafka.java_clients import run_java

    return run_java(job, timeout)


def _produce(bootstrap: str, start: int, count: int) -> None:
    recs = [
        {
            "partition": i % 2,
            "timestamp": 1_700_000_000_000 + i,
            "key": f"{i}".encode().hex(),
            "value": f"value {i}".encode().hex(),
            "headers": [],
        }
        for i in range(start, start + count)
    ]
    result = _java(
        {"op": "produce", "client": "java", "bootstrap": bootstrap, "topic": TOPIC, "records": recs}
    )
    assert result["failures"] == [] and result["delivered"] == count


def _consume(bootstrap: str, expect: int):
    return _java(
        {
            "op": "consume",
            "client": "java",
            "bootstrap": bootstrap,
            "group": "g",
            "topics": [TOPIC],
            "expect": expect,
            "timeout": 30,
        }
    )["records"]


def _coordinator_records(path: Path):
    out = []
    for plog in segments.discover(str(path)):
        for seg in plog.segments:
            for batch in records.iter_batches(Path(seg.path).read_bytes()):
                for r in batch:
                    out.append(
                        internal_topics.decode_record(internal_topics.CONSUMER_OFFSETS, r.key, r.value)
                    )
    return out


def _classic_versions(recs):
    return {(r.record_type, r.value_version) for r in recs if r.record_type in (1, 2) and r.value is not None}


def test_committed_offsets_survive_a_restart(tmp_path, kafka_workload):
    log_dir = tmp_path / "logs"
    with Broker(num_partitions=2, log_dir=str(log_dir)) as b:
        _produce(b.bootstrap_servers, 0, 20)
        assert len(_consume(b.bootstrap_servers, 20)) == 20
    with Broker(num_partitions=2, log_dir=str(log_dir)) as b:
        _produce(b.bootstrap_servers, 20, 6)
        again = _consume(b.bootstrap_servers, 6)
        # only the new records: the group resumed from its committed offsets
        assert sorted(bytes.fromhex(r["key"]).decode() for r in again) == [str(i) for i in range(20, 26)]
    ours = _coordinator_records(log_dir / "__consumer_offsets-0")
    kafkas = _coordinator_records(kafka_workload.log_dir / "__consumer_offsets-0")
    assert _classic_versions(ours) == _classic_versions(kafkas) != set()
    commits = {(r.key.topic, r.key.partition): r.value.offset for r in ours if r.record_type == 1}
    assert commits == {(TOPIC, 0): 13, (TOPIC, 1): 13}
    groups = [r.value for r in ours if r.record_type == 2 and r.value.members]
    assert groups and groups[-1].protocol == "range" and groups[-1].protocol_type == "consumer"


@pytest.mark.spark
def test_kafka_log_reads_the_test_brokers_groups(kafka_log, tmp_path):
    from kafkawire.spark.functions import decode_consumer_offsets

    log_dir = tmp_path / "logs"
    with Broker(num_partitions=2, log_dir=str(log_dir)) as b:
        _produce(b.bootstrap_servers, 0, 8)
        assert len(_consume(b.bootstrap_servers, 8)) == 8
    rows = (
        kafka_log()
        .load(str(log_dir))
        .where("topic = '__consumer_offsets'")
        .select(decode_consumer_offsets("key", "value").alias("r"))
        .select("r.*")
        .collect()
    )
    commits = {(r.topic, r.partition): r.offset for r in rows if r.record_type == "offset_commit"}
    assert commits == {(TOPIC, 0): 4, (TOPIC, 1): 4}
    assert {r.record_type for r in rows} == {"offset_commit", "group_metadata"}
    assert not [r for r in rows if r.error]


def _offsets_topic_as_seen(target) -> dict:
    """What a client sees of ``__consumer_offsets`` once a group has asked for its
    coordinator: Metadata by name (no auto-creation) and of every topic, and a Produce."""
    import time

    from support.blocking_client import BlockingClient

    from kafkawire.protocol import messages as M

    name = internal_topics.CONSUMER_OFFSETS
    conn = BlockingClient(target)
    try:
        deadline = time.monotonic() + 60
        while True:  # Kafka answers COORDINATOR_NOT_AVAILABLE while it creates the topic
            found = conn.request(M.FindCoordinatorRequest(key_type=0, coordinator_keys=["lister"]), 4)
            if found.coordinators[0].error_code == 0 or time.monotonic() > deadline:
                break
            time.sleep(0.5)
        named = conn.request(M.MetadataRequest(topics=[{"name": name}], allow_auto_topic_creation=False), 12)
        every = conn.request(M.MetadataRequest(topics=None, allow_auto_topic_creation=False), 12)
        produced = conn.request(
            M.ProduceRequest(
                acks=1,
                timeout_ms=10000,
                topic_data=[
                    {
                        "name": name,
                        "partition_data": [{"index": 0, "records": records.encode_batch([{"value": b"x"}])}],
                    }
                ],
            ),
            9,
        )
    finally:
        conn.close()
    (topic,) = named.topics
    listed = [t for t in every.topics if t.name == name]
    return {
        "coordinator": found.coordinators[0].error_code,
        "named": (topic.error_code, topic.is_internal, len(topic.partitions)),
        "listed": [(t.is_internal, len(t.partitions)) for t in listed],
        "produce": produced.responses[0].partition_responses[0].error_code,
    }


def test_consumer_offsets_is_an_internal_topic_as_in_kafka(kafka_broker):
    """Once a group has a coordinator, ``kcat -C -t __consumer_offsets`` finds the topic
    on the test broker as on Kafka 4.4 (both keep one partition of it here); before,
    Metadata without auto-creation does not know it, as a fresh Kafka does not."""
    from support.blocking_client import BlockingClient

    from kafkawire.protocol import messages as M

    kafka = _offsets_topic_as_seen((kafka_broker.host, kafka_broker.port))
    assert kafka["named"][:2] == (0, True) and kafka["listed"] == [(True, 1)], kafka
    with Broker() as b:
        conn = BlockingClient(b)
        try:
            before = conn.request(
                M.MetadataRequest(
                    topics=[{"name": internal_topics.CONSUMER_OFFSETS}], allow_auto_topic_creation=False
                ),
                12,
            )
        finally:
            conn.close()
        assert before.topics[0].error_code == 3  # UNKNOWN_TOPIC_OR_PARTITION
        assert _offsets_topic_as_seen(b) == kafka
