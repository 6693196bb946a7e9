"""Scenarios: produce, fetch, offsets, metadata."""

from __future__ import annotations


from kafkawire.protocol import messages as M
from kafkawire.protocol import records as R

from support.kafka.scenarios.session import (
    NONE,
    RECORDS_PER_PRODUCE,
    Session,
    TOPIC,
    build,
    scenario,
    topic_ref,
)


@scenario(0)
def produce(s: Session, v: int):
    with s.connect() as conn:
        return s.produce(conn, v), {NONE}


@scenario(1)
def fetch(s: Session, v: int):
    topic = topic_ref(s, v >= 13, "topic")
    topic["partitions"] = [
        {
            "partition": 0,
            "fetch_offset": 0,
            "partition_max_bytes": 1 << 20,
            "current_leader_epoch": -1,
            "last_fetched_epoch": -1,
            "log_start_offset": -1,
        }
    ]
    req = build(
        M.FetchRequest,
        {
            "replica_id": -1,
            "replica_state": {"replica_id": -1, "replica_epoch": -1},
            "max_wait_ms": 100,
            "min_bytes": 1,
            "max_bytes": 1 << 20,
            "isolation_level": 0,
            "session_id": 0,
            "session_epoch": -1,
            "topics": [topic],
        },
    )
    reply = s.once(req, v)
    part = reply.body.responses[0].partitions[0]
    got = R.decode(part.records)
    assert len(got) >= RECORDS_PER_PRODUCE and got[0].offset == 0, got
    return reply, {NONE}


@scenario(2)
def list_offsets(s: Session, v: int):
    req = build(
        M.ListOffsetsRequest,
        {
            "replica_id": -1,
            "isolation_level": 0,
            "timeout_ms": 30000,
            "topics": [
                {
                    "name": TOPIC,
                    "partitions": [{"partition_index": 0, "current_leader_epoch": -1, "timestamp": -1}],
                }
            ],
        },
    )
    reply = s.once(req, v)
    part = reply.body.topics[0].partitions[0]
    latest = part.old_style_offsets[0] if v == 0 else part.offset
    assert latest >= RECORDS_PER_PRODUCE, part
    return reply, {NONE}


def latest_offset(s: Session, topic: str) -> int:
    reply = s.once(
        build(
            M.ListOffsetsRequest,
            {
                "replica_id": -1,
                "topics": [{"name": topic, "partitions": [{"partition_index": 0, "timestamp": -1}]}],
            },
        ),
        9,
    )
    return reply.body.topics[0].partitions[0].offset


@scenario(3)
def metadata(s: Session, v: int):
    reply = s.once(
        build(M.MetadataRequest, {"topics": [{"name": TOPIC}], "allow_auto_topic_creation": False}), v
    )
    assert [t.name for t in reply.body.topics] == [TOPIC]
    assert [b.node_id for b in reply.body.brokers] == [s.node_id]
    if v >= 10:
        assert reply.body.topics[0].topic_id == s.topic_id
    return reply, {NONE}


@scenario(21)
def delete_records(s: Session, v: int):
    return s.once(
        build(
            M.DeleteRecordsRequest,
            {
                "topics": [{"name": TOPIC, "partitions": [{"partition_index": 0, "offset": 0}]}],
                "timeout_ms": 30000,
            },
        ),
        v,
    ), {NONE}


@scenario(23)
def offset_for_leader_epoch(s: Session, v: int):
    return s.once(
        build(
            M.OffsetForLeaderEpochRequest,
            {
                "replica_id": -1,
                "topics": [
                    {
                        "topic": TOPIC,
                        "partitions": [{"partition": 0, "current_leader_epoch": -1, "leader_epoch": 0}],
                    }
                ],
            },
        ),
        v,
    ), {NONE}


@scenario(61)
def describe_producers(s: Session, v: int):
    return s.once(
        build(M.DescribeProducersRequest, {"topics": [{"name": TOPIC, "partition_indexes": [0]}]}), v
    ), {NONE}


@scenario(75)
def describe_topic_partitions(s: Session, v: int):
    reply = s.once(
        build(
            M.DescribeTopicPartitionsRequest, {"topics": [{"name": TOPIC}], "response_partition_limit": 100}
        ),
        v,
    )
    assert reply.body.topics[0].topic_id == s.topic_id
    return reply, {NONE}
