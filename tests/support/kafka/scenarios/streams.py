"""Scenarios: Kafka Streams groups (KIP-1071)."""

from __future__ import annotations

import uuid

from kafkawire.protocol import messages as M

from support.kafka.wire import KafkaConnection, Reply
from support.kafka.scenarios.session import NONE, Session, TOPIC, build, scenario


def streams_heartbeat(
    s: Session, conn: KafkaConnection, group: str, version: int, member: str, epoch: int
) -> Reply:
    topology = None
    if epoch == 0:  # a joining member describes its topology: one sub-topology reading TOPIC
        topology = {
            "epoch": 0,
            "subtopologies": [
                {
                    "subtopology_id": "0",
                    "source_topics": [TOPIC],
                    "source_topic_regex": [],
                    "state_changelog_topics": [],
                    "repartition_sink_topics": [],
                    "repartition_source_topics": [],
                    "copartition_groups": [],
                }
            ],
        }
    return s.call(
        conn,
        build(
            M.StreamsGroupHeartbeatRequest,
            {
                "group_id": group,
                "member_id": member,
                "member_epoch": epoch,
                "endpoint_information_epoch": -1,
                "rebalance_timeout_ms": 30000,
                "topology": topology,
                "active_tasks": [] if epoch == 0 else None,
                "standby_tasks": [] if epoch == 0 else None,
                "warmup_tasks": [] if epoch == 0 else None,
                "process_id": "process-1" if epoch == 0 else None,
                "client_tags": [] if epoch == 0 else None,
                "task_offsets": None,
                "task_end_offsets": None,
            },
        ),
        version,
    )


@scenario(88)
def streams_group_heartbeat(s: Session, v: int):
    group, member = s.name("streams"), str(uuid.uuid4())
    with s.connect() as conn:
        reply = streams_heartbeat(s, conn, group, v, member, 0)
        assert reply.body.member_epoch >= 1, reply.body
        streams_heartbeat(s, conn, group, v, member, -1)  # leave
    return reply, {NONE}


@scenario(89)
def streams_group_describe(s: Session, v: int):
    group = s.name("streams-describe")
    with s.connect() as conn:
        streams_heartbeat(s, conn, group, 0, str(uuid.uuid4()), 0)
        reply = s.call(
            conn,
            build(
                M.StreamsGroupDescribeRequest,
                {
                    "group_ids": [group],
                    "include_authorized_operations": True,
                    "include_topology_description": True,
                },
            ),
            v,
        )
    assert reply.body.groups[0].members, reply.body
    return reply, {NONE}
