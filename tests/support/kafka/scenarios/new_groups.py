"""Scenarios: the consumer group protocol (KIP-848) and share groups (KIP-932)."""

from __future__ import annotations

import uuid
from typing import Tuple

from kafkawire.protocol import messages as M
from kafkawire.protocol import records as R

from support.kafka.wire import KafkaConnection, Reply
from support.kafka.scenarios.session import NONE, Session, TOPIC, build, error_codes, scenario


def consumer_heartbeat(
    s: Session, conn: KafkaConnection, group: str, version: int, member: str, epoch: int
) -> Reply:
    return s.call(
        conn,
        build(
            M.ConsumerGroupHeartbeatRequest,
            {
                "group_id": group,
                "member_id": member,
                "member_epoch": epoch,
                "rebalance_timeout_ms": 30000,
                "subscribed_topic_names": [TOPIC],
                "topic_partitions": [],
            },
        ),
        version,
    )


@scenario(68)
def consumer_group_heartbeat(s: Session, v: int):
    group = s.name("consumer")
    member = str(uuid.uuid4())
    with s.connect() as conn:
        reply = consumer_heartbeat(s, conn, group, v, member, 0)
        assert reply.body.member_epoch >= 1, reply.body
        if v >= 1:
            assert reply.body.member_id == member
        # leave, so the group does not wait out a session timeout
        consumer_heartbeat(s, conn, group, v, reply.body.member_id, -1)
    return reply, {NONE}


@scenario(69)
def consumer_group_describe(s: Session, v: int):
    group = s.name("consumer-describe")
    with s.connect() as conn:
        consumer_heartbeat(s, conn, group, 1, str(uuid.uuid4()), 0)
        reply = s.call(
            conn,
            build(
                M.ConsumerGroupDescribeRequest, {"group_ids": [group], "include_authorized_operations": True}
            ),
            v,
        )
    assert reply.body.groups[0].members, reply.body
    return reply, {NONE}


@scenario(76)
def share_group_heartbeat(s: Session, v: int):
    with s.connect() as conn:
        reply = s.call(
            conn,
            build(
                M.ShareGroupHeartbeatRequest,
                {
                    "group_id": s.name("share"),
                    "member_id": str(uuid.uuid4()),
                    "member_epoch": 0,
                    "subscribed_topic_names": [TOPIC],
                },
            ),
            v,
        )
    assert reply.body.member_epoch >= 1, reply.body
    return reply, {NONE}


@scenario(77)
def share_group_describe(s: Session, v: int):
    group = s.name("share-describe")
    with s.connect() as conn:
        s.call(
            conn,
            build(
                M.ShareGroupHeartbeatRequest,
                {
                    "group_id": group,
                    "member_id": str(uuid.uuid4()),
                    "member_epoch": 0,
                    "subscribed_topic_names": [TOPIC],
                },
            ),
            v,
        )
        reply = s.call(
            conn,
            build(M.ShareGroupDescribeRequest, {"group_ids": [group], "include_authorized_operations": True}),
            v,
        )
    assert reply.body.groups[0].members, reply.body
    return reply, {NONE}


def share_fetch_request(s: Session, group: str, member: str, epoch: int):
    fields = {
        "group_id": group,
        "member_id": member,
        "share_session_epoch": epoch,
        "max_wait_ms": 1000,
        "min_bytes": 1,
        "max_bytes": 1 << 20,
        "topics": [
            {
                "topic_id": s.topic_id,
                "partitions": [
                    {"partition_index": 0, "partition_max_bytes": 1 << 20, "acknowledgement_batches": []}
                ],
            }
        ],
    }
    if "max_records" in M.ShareFetchRequest._attrs:  # v1+ (KIP-1098)
        fields.update(max_records=100, batch_size=100)
    return build(M.ShareFetchRequest, fields)


def share_fetch_until_records(
    s: Session, conn: KafkaConnection, group: str, member: str, version: int
) -> Tuple[Reply, int]:
    """Share-fetch until the broker hands out records (the group's start offset is
    initialised asynchronously); each fetch after the first continues the share session.
    Returns the reply and the session's next epoch."""
    epoch = 0
    for _ in range(30):
        reply = s.call(conn, share_fetch_request(s, group, member, epoch), version)
        assert reply.body.error_code == NONE, reply.body
        epoch += 1
        parts = reply.body.responses[0].partitions if reply.body.responses else []
        if parts and parts[0].records is not None and len(R.decode(parts[0].records)):
            return reply, epoch
    raise AssertionError("the share fetch never returned records")


def share_group_with_records(s: Session, conn: KafkaConnection, group: str, version: int) -> str:
    """A share group whose start offset is the earliest record, and one member of it."""
    reply = s.call(
        conn,
        build(
            M.IncrementalAlterConfigsRequest,
            {
                "resources": [
                    {
                        "resource_type": 32,
                        "resource_name": group,
                        "configs": [
                            {"name": "share.auto.offset.reset", "config_operation": 0, "value": "earliest"}
                        ],
                    }
                ],
                "validate_only": False,
            },
        ),
        1,
    ).body
    assert error_codes(reply) == {NONE}, reply
    member, _ = s.share_member(conn, group, version)
    return member


@scenario(78)
def share_fetch(s: Session, v: int):
    group = s.name("share-fetch")
    with s.connect() as conn:
        member = share_group_with_records(s, conn, group, 1)
        reply, _ = share_fetch_until_records(s, conn, group, member, v)
    return reply, {NONE}


@scenario(79)
def share_acknowledge(s: Session, v: int):
    group = s.name("share-ack")
    with s.connect() as conn:
        member = share_group_with_records(s, conn, group, 1)
        fetched, epoch = share_fetch_until_records(s, conn, group, member, v)
        acquired = fetched.body.responses[0].partitions[0].acquired_records[0]
        reply = s.call(
            conn,
            build(
                M.ShareAcknowledgeRequest,
                {
                    "group_id": group,
                    "member_id": member,
                    "share_session_epoch": epoch,
                    "topics": [
                        {
                            "topic_id": s.topic_id,
                            "partitions": [
                                {
                                    "partition_index": 0,
                                    "acknowledgement_batches": [
                                        {
                                            "first_offset": acquired.first_offset,
                                            "last_offset": acquired.last_offset,
                                            "acknowledge_types": [1],
                                        }
                                    ],
                                }
                            ],
                        }
                    ],
                },
            ),
            v,
        )  # 1: accept
    return reply, {NONE}
