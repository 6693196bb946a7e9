"""Scenarios: share group offsets (KIP-932 admin APIs)."""

from __future__ import annotations

import uuid

from kafkawire.protocol import messages as M

from support.kafka.wire import KafkaConnection
from support.kafka.scenarios.new_groups import share_fetch_until_records, share_group_with_records
from support.kafka.scenarios.session import NONE, Session, TOPIC, _code, build, scenario
from support.kafka.scenarios.streams import streams_heartbeat


def empty_share_group(s: Session, conn: KafkaConnection, group: str) -> None:
    """A share group with its start offset on the data topic, and no member left."""
    member = share_group_with_records(s, conn, group, 1)
    share_fetch_until_records(s, conn, group, member, 1)
    left = s.call(
        conn,
        build(M.ShareGroupHeartbeatRequest, {"group_id": group, "member_id": member, "member_epoch": -1}),
        1,
    ).body
    assert left.error_code == NONE, left


@scenario(90)
def describe_share_group_offsets(s: Session, v: int):
    group = s.name("share-offsets")
    with s.connect() as conn:
        empty_share_group(s, conn, group)
        reply = s.call(
            conn,
            build(
                M.DescribeShareGroupOffsetsRequest,
                {"groups": [{"group_id": group, "topics": [{"topic_name": TOPIC, "partitions": [0]}]}]},
            ),
            v,
        )
    topic = reply.body.groups[0].topics[0]
    assert (topic.topic_name, topic.topic_id, [p.partition_index for p in topic.partitions]) == (
        TOPIC,
        s.topic_id,
        [0],
    ), reply.body
    return reply, {NONE}


@scenario(91)
def alter_share_group_offsets(s: Session, v: int):
    group = s.name("share-alter")
    with s.connect() as conn:
        empty_share_group(s, conn, group)
        return s.call(
            conn,
            build(
                M.AlterShareGroupOffsetsRequest,
                {
                    "group_id": group,
                    "topics": [
                        {"topic_name": TOPIC, "partitions": [{"partition_index": 0, "start_offset": 1}]}
                    ],
                },
            ),
            v,
        ), {NONE}


@scenario(92)
def delete_share_group_offsets(s: Session, v: int):
    group = s.name("share-delete")
    with s.connect() as conn:
        empty_share_group(s, conn, group)
        return s.call(
            conn,
            build(M.DeleteShareGroupOffsetsRequest, {"group_id": group, "topics": [{"topic_name": TOPIC}]}),
            v,
        ), {NONE}


@scenario(93)
def streams_group_topology_description_update(s: Session, v: int):
    group, member = s.name("streams-topology"), str(uuid.uuid4())
    with s.connect() as conn:
        joined = streams_heartbeat(s, conn, group, 0, member, 0).body
        assert joined.error_code == NONE, joined
        node = {
            "name": "KSTREAM-SOURCE-0000000000",
            "node_type": 0,
            "source_topics": [TOPIC],
            "sink_topic": None,
            "stores": [],
            "successors": [],
        }
        reply = s.call(
            conn,
            build(
                M.StreamsGroupTopologyDescriptionUpdateRequest,
                {
                    "group_id": group,
                    "member_id": member,
                    "topology_epoch": 0,
                    "topology_description": {
                        "subtopologies": [{"subtopology_id": "0", "nodes": [node]}],
                        "global_stores": [],
                    },
                },
            ),
            v,
        )
        streams_heartbeat(s, conn, group, 0, member, -1)
    # Kafka 4.4 advertises the API but, at its default streams.version, refuses it
    return reply, {_code("UNSUPPORTED_VERSION")}


@scenario(94)
def unregister_controller(s: Session, v: int):
    return s.once(M.UnregisterControllerRequest(controller_id=999), v), {
        _code("CONTROLLER_ID_NOT_REGISTERED")
    }  # a code Kafka 4.4 added (136)
