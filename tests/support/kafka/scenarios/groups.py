"""Scenarios: classic groups and offsets."""

from __future__ import annotations


from kafkawire.protocol import messages as M

from support.kafka.wire import KafkaConnection, Reply
from support.kafka.scenarios.session import (
    MEMBER_ID_REQUIRED,
    NONE,
    Session,
    TOPIC,
    build,
    scenario,
    topic_ref,
)


def commit(
    s: Session,
    conn: KafkaConnection,
    group: str,
    version: int,
    offset: int = 2,
    member: str = "",
    generation: int = -1,
) -> Reply:
    topic = topic_ref(s, version >= 10)
    topic["partitions"] = [
        {
            "partition_index": 0,
            "committed_offset": offset,
            "committed_leader_epoch": -1,
            "committed_metadata": "m",
        }
    ]
    return s.call(
        conn,
        build(
            M.OffsetCommitRequest,
            {
                "group_id": group,
                "generation_id_or_member_epoch": generation,
                "member_id": member,
                "retention_time_ms": -1,
                "topics": [topic],
            },
        ),
        version,
    )


@scenario(8)
def offset_commit(s: Session, v: int):
    with s.connect() as conn:
        return commit(s, conn, s.name("commit"), v), {NONE}


@scenario(9)
def offset_fetch(s: Session, v: int):
    group = s.name("fetch")
    with s.connect() as conn:
        commit(s, conn, group, 9, offset=2)
        if v >= 8:
            topic = topic_ref(s, v >= 10)
            topic["partition_indexes"] = [0]
            req = build(
                M.OffsetFetchRequest,
                {
                    "groups": [{"group_id": group, "member_id": None, "member_epoch": -1, "topics": [topic]}],
                    "require_stable": True,
                },
            )
        else:
            req = build(
                M.OffsetFetchRequest,
                {
                    "group_id": group,
                    "require_stable": True,
                    "topics": [{"name": TOPIC, "partition_indexes": [0]}],
                },
            )
        reply = s.call(conn, req, v)
    body = reply.body
    topics = body.groups[0].topics if v >= 8 else body.topics
    assert topics[0].partitions[0].committed_offset == 2, body
    return reply, {NONE}


@scenario(10)
def find_coordinator(s: Session, v: int):
    req = (
        build(M.FindCoordinatorRequest, {"key_type": 0, "coordinator_keys": [s.name("g")]})
        if v >= 4
        else build(M.FindCoordinatorRequest, {"key": s.name("g"), "key_type": 0})
    )
    reply = s.once(req, v)
    node = reply.body.coordinators[0].node_id if v >= 4 else reply.body.node_id
    assert node == s.node_id
    return reply, {NONE}


@scenario(11)
def join_group(s: Session, v: int):
    join = build(
        M.JoinGroupRequest,
        {
            "group_id": s.name("join"),
            "session_timeout_ms": 30000,
            "rebalance_timeout_ms": 30000,
            "member_id": "",
            "protocol_type": "consumer",
            "protocols": [{"name": "range", "metadata": b"\x00\x01"}],
            "reason": "test",
        },
    )
    with s.connect() as conn:
        reply = s.call(conn, join, v)
        if v < 4:
            return reply, {NONE}
        # KIP-394: a new member first learns its id, then joins with it
        assert reply.body.error_code == MEMBER_ID_REQUIRED, reply.body
        join.member_id = reply.body.member_id
        return s.call(conn, join, v), {NONE}


@scenario(14)
def sync_group(s: Session, v: int):
    group = s.name("sync")
    with s.connect() as conn:
        join = build(
            M.JoinGroupRequest,
            {
                "group_id": group,
                "session_timeout_ms": 30000,
                "rebalance_timeout_ms": 30000,
                "member_id": "",
                "protocol_type": "consumer",
                "protocols": [{"name": "range", "metadata": b""}],
            },
        )
        join.member_id = s.call(conn, join, 9).body.member_id
        joined = s.call(conn, join, 9).body
        reply = s.call(
            conn,
            build(
                M.SyncGroupRequest,
                {
                    "group_id": group,
                    "generation_id": joined.generation_id,
                    "member_id": joined.member_id,
                    "protocol_type": "consumer",
                    "protocol_name": "range",
                    "assignments": [{"member_id": joined.member_id, "assignment": b"\x00\x07"}],
                },
            ),
            v,
        )
    assert bytes(reply.body.assignment) == b"\x00\x07"
    return reply, {NONE}


@scenario(12)
def heartbeat(s: Session, v: int):
    group = s.name("heartbeat")
    with s.connect() as conn:
        member, generation = s.join_classic(conn, group)
        return s.call(
            conn,
            build(M.HeartbeatRequest, {"group_id": group, "generation_id": generation, "member_id": member}),
            v,
        ), {NONE}


@scenario(13)
def leave_group(s: Session, v: int):
    group = s.name("leave")
    with s.connect() as conn:
        member, _ = s.join_classic(conn, group)
        return s.call(
            conn,
            build(
                M.LeaveGroupRequest,
                {
                    "group_id": group,
                    "member_id": member,
                    "members": [{"member_id": member, "reason": "done"}],
                },
            ),
            v,
        ), {NONE}


@scenario(15)
def describe_groups(s: Session, v: int):
    group = s.name("describe")
    with s.connect() as conn:
        member, _ = s.join_classic(conn, group)
        reply = s.call(
            conn,
            build(M.DescribeGroupsRequest, {"groups": [group], "include_authorized_operations": True}),
            v,
        )
    described = reply.body.groups[0]
    assert described.group_state == "Stable" and described.members[0].member_id == member
    return reply, {NONE}


@scenario(16)
def list_groups(s: Session, v: int):
    with s.connect() as conn:
        commit(s, conn, s.name("listed"), 9)
        reply = s.call(conn, build(M.ListGroupsRequest, {"states_filter": [], "types_filter": []}), v)
    assert s.name("listed") in [g.group_id for g in reply.body.groups]
    return reply, {NONE}


@scenario(42)
def delete_groups(s: Session, v: int):
    group = s.name("delete")
    with s.connect() as conn:
        commit(s, conn, group, 9)
        return s.call(conn, build(M.DeleteGroupsRequest, {"groups_names": [group]}), v), {NONE}


@scenario(47)
def offset_delete(s: Session, v: int):
    group = s.name("offset-delete")
    with s.connect() as conn:
        commit(s, conn, group, 9)
        return s.call(
            conn,
            build(
                M.OffsetDeleteRequest,
                {"group_id": group, "topics": [{"name": TOPIC, "partitions": [{"partition_index": 0}]}]},
            ),
            v,
        ), {NONE}
