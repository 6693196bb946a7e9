"""FindCoordinator, JoinGroup, SyncGroup, Heartbeat, LeaveGroup, OffsetCommit and
OffsetFetch (the group state itself is :mod:`kafkawire.broker.groups`')."""

from __future__ import annotations

import uuid
from collections import defaultdict
from typing import Any, Dict, List, Optional, Tuple

from kafkawire.protocol import messages as M
from kafkawire.broker import acls as A
from kafkawire.broker.codes import ZERO_UUID
from kafkawire.broker.connections import Connection
from kafkawire.broker.context import BrokerContext
from kafkawire.broker.handlers.common import allowed, offsets_topic, partition_of, find_topic
from kafkawire.protocol.error_codes import ErrorCode
from kafkawire.protocol.headers import RequestHeader

# (partition, committed offset, leader epoch, metadata, error code)
_PartitionOffset = Tuple[int, int, int, Optional[str], int]


# -- groups ----------------------------------------------------------------------
async def find_coordinator(
    ctx: BrokerContext, conn: Connection, header: RequestHeader, req: M.FindCoordinatorRequest, version: int
) -> M.FindCoordinatorResponse:
    """FindCoordinator: this broker, for every group and transactional id it may describe."""
    R_ = M.FindCoordinatorResponse
    key_type = req.key_type if version >= 1 else 0

    def error_for(key: str) -> int:
        if key_type == 1:
            ok = allowed(ctx, conn, A.DESCRIBE, A.TRANSACTIONAL_ID, key)
            return ErrorCode.NONE if ok else ErrorCode.TRANSACTIONAL_ID_AUTHORIZATION_FAILED
        return (
            ErrorCode.NONE
            if allowed(ctx, conn, A.DESCRIBE, A.GROUP, key)
            else ErrorCode.GROUP_AUTHORIZATION_FAILED
        )

    def coordinator(error: int) -> Dict[str, Any]:
        if error:
            return dict(error_code=error, error_message="Authorization failed.", node_id=-1, host="", port=-1)
        return dict(
            error_code=ErrorCode.NONE,
            error_message=None,
            node_id=ctx.config.node_id,
            host=ctx.config.host,
            port=ctx.state.port,
        )

    if key_type == 0:
        offsets_topic(ctx)  # where the group's offsets go
    if version >= 4:
        coords = [R_.Coordinator(key=k, **coordinator(error_for(k))) for k in req.coordinator_keys]
        return R_(throttle_time_ms=0, coordinators=coords)
    return R_(throttle_time_ms=0, **coordinator(error_for(req.key)))


async def join_group(
    ctx: BrokerContext, conn: Connection, header: RequestHeader, req: M.JoinGroupRequest, version: int
) -> M.JoinGroupResponse:
    """JoinGroup: join (or rejoin) a consumer group; waits for the rebalance."""
    R_ = M.JoinGroupResponse
    if not req.group_id:
        result_error = ErrorCode.INVALID_GROUP_ID
        return R_(
            error_code=result_error,
            generation_id=-1,
            protocol_name=None if version >= 7 else "",
            leader="",
            member_id=req.member_id,
            members=[],
        )
    if not allowed(ctx, conn, A.READ, A.GROUP, req.group_id):
        return R_(
            error_code=ErrorCode.GROUP_AUTHORIZATION_FAILED,
            generation_id=-1,
            protocol_name=None if version >= 7 else "",
            leader="",
            member_id=req.member_id,
            members=[],
        )
    group = ctx.state.groups.get(req.group_id)
    result = await group.join(
        req.member_id,
        req.group_instance_id if version >= 5 else None,
        header.client_id or "",
        conn.peer.rsplit(":", 1)[0],
        req.session_timeout_ms,
        req.rebalance_timeout_ms if version >= 1 else req.session_timeout_ms,
        req.protocol_type,
        [(p.name, bytes(p.metadata)) for p in req.protocols],
        require_known_member_id=version >= 4,
    )
    members = [
        R_.JoinGroupResponseMember(member_id=mid, group_instance_id=gi if version >= 5 else None, metadata=md)
        for mid, gi, md in result.members
    ]
    protocol_name = result.protocol_name
    if protocol_name is None and version < 7:
        protocol_name = ""
    return R_(
        throttle_time_ms=0,
        error_code=result.error_code,
        generation_id=result.generation_id,
        protocol_type=result.protocol_type if version >= 7 else None,
        protocol_name=protocol_name,
        leader=result.leader,
        member_id=result.member_id,
        members=members,
    )


async def sync_group(
    ctx: BrokerContext, conn: Connection, header: RequestHeader, req: M.SyncGroupRequest, version: int
) -> M.SyncGroupResponse:
    """SyncGroup: the member's assignment once the leader has sent them."""
    R_ = M.SyncGroupResponse
    if not allowed(ctx, conn, A.READ, A.GROUP, req.group_id):
        return R_(throttle_time_ms=0, error_code=ErrorCode.GROUP_AUTHORIZATION_FAILED, assignment=b"")
    group = ctx.state.groups.get(req.group_id, create=False)
    if group is None:
        return R_(throttle_time_ms=0, error_code=ErrorCode.UNKNOWN_MEMBER_ID, assignment=b"")
    error, assignment = await group.sync(
        req.member_id, req.generation_id, [(a.member_id, bytes(a.assignment)) for a in req.assignments]
    )
    resp = R_(throttle_time_ms=0, error_code=error, assignment=assignment)
    if version >= 5 and error == ErrorCode.NONE:
        resp.protocol_type = group.protocol_type
        resp.protocol_name = group.protocol_name
    return resp


async def heartbeat(
    ctx: BrokerContext, conn: Connection, header: RequestHeader, req: M.HeartbeatRequest, version: int
) -> M.HeartbeatResponse:
    """Heartbeat: keep a member alive, or tell it to rejoin."""
    if not allowed(ctx, conn, A.READ, A.GROUP, req.group_id):
        return M.HeartbeatResponse(throttle_time_ms=0, error_code=ErrorCode.GROUP_AUTHORIZATION_FAILED)
    group = ctx.state.groups.get(req.group_id, create=False)
    error = group.heartbeat(req.member_id, req.generation_id) if group else ErrorCode.UNKNOWN_MEMBER_ID
    return M.HeartbeatResponse(throttle_time_ms=0, error_code=error)


async def leave_group(
    ctx: BrokerContext, conn: Connection, header: RequestHeader, req: M.LeaveGroupRequest, version: int
) -> M.LeaveGroupResponse:
    """LeaveGroup: remove members from a group."""
    R_ = M.LeaveGroupResponse
    if not allowed(ctx, conn, A.READ, A.GROUP, req.group_id):
        return R_(throttle_time_ms=0, error_code=ErrorCode.GROUP_AUTHORIZATION_FAILED, members=[])
    group = ctx.state.groups.get(req.group_id, create=False)
    if version < 3:
        error = group.leave(req.member_id) if group else ErrorCode.UNKNOWN_MEMBER_ID
        return R_(throttle_time_ms=0, error_code=error)
    members = []
    for m in req.members:
        error = group.leave(m.member_id, m.group_instance_id) if group else ErrorCode.UNKNOWN_MEMBER_ID
        members.append(
            R_.MemberResponse(member_id=m.member_id, group_instance_id=m.group_instance_id, error_code=error)
        )
    return R_(throttle_time_ms=0, error_code=ErrorCode.NONE, members=members)


async def offset_commit(
    ctx: BrokerContext, conn: Connection, header: RequestHeader, req: M.OffsetCommitRequest, version: int
) -> M.OffsetCommitResponse:
    """OffsetCommit: store a group's committed offsets."""
    R_ = M.OffsetCommitResponse
    by_id = version >= 10
    generation = req.generation_id_or_member_epoch if version >= 1 else -1
    member_id = req.member_id if version >= 1 else ""
    group_error: int
    if not allowed(ctx, conn, A.READ, A.GROUP, req.group_id):
        group, group_error = None, ErrorCode.GROUP_AUTHORIZATION_FAILED
    else:
        group = ctx.state.groups.get(req.group_id) if req.group_id else None
        group_error = (
            ErrorCode.INVALID_GROUP_ID if group is None else group.check_commit(member_id, generation)
        )
    topics = []
    for t in req.topics:
        topic, terr = find_topic(ctx, t.name, t.topic_id, by_id)
        parts = []
        for p in t.partitions:
            error: int = group_error
            if error == ErrorCode.NONE and not allowed(
                ctx, conn, A.READ, A.TOPIC, topic.name if topic else t.name or ""
            ):
                error = ErrorCode.TOPIC_AUTHORIZATION_FAILED
            if error == ErrorCode.NONE:
                plog, error = partition_of(topic, terr, p.partition_index)
                if plog is not None and topic is not None and group is not None:  # error NONE: both found
                    group.commit(
                        topic.name,
                        p.partition_index,
                        p.committed_offset,
                        p.committed_leader_epoch if version >= 6 else -1,
                        p.committed_metadata,
                        topic.topic_id,
                    )
            parts.append(
                R_.OffsetCommitResponsePartition(partition_index=p.partition_index, error_code=error)
            )
        topics.append(R_.OffsetCommitResponseTopic(name=t.name, topic_id=t.topic_id, partitions=parts))
    return R_(throttle_time_ms=0, topics=topics)


def _offsets_of(
    ctx: BrokerContext,
    conn: Connection,
    group_id: str,
    requested: Optional[List[Tuple[str, uuid.UUID, List[int]]]],
    by_id: bool,
) -> List[Tuple[str, uuid.UUID, List[_PartitionOffset]]]:
    """``[(name, topic_id, [(partition, offset, epoch, metadata, error)])]``."""
    group = ctx.state.groups.get(group_id, create=False)
    committed = group.offsets if group is not None else {}
    out: List[Tuple[str, uuid.UUID, List[_PartitionOffset]]] = []
    if requested is None:
        by_topic: Dict[str, List[_PartitionOffset]] = defaultdict(list)
        for (topic, part), held in sorted(committed.items()):
            if not allowed(ctx, conn, A.DESCRIBE, A.TOPIC, topic):
                continue  # topics the principal may not see are left out
            by_topic[topic].append((part, held.offset, held.leader_epoch, held.metadata, ErrorCode.NONE))
        for name, parts in by_topic.items():
            t = ctx.state.storage.topics.get(name)
            out.append((name, t.topic_id if t else ZERO_UUID, parts))
        return out
    for name, topic_id, partitions in requested:
        if by_id:
            t = ctx.state.storage.by_id.get(topic_id)
            if t is None:
                out.append(
                    (name, topic_id, [(p, -1, -1, "", ErrorCode.UNKNOWN_TOPIC_ID) for p in partitions])
                )
                continue
            name = t.name
        if not allowed(ctx, conn, A.DESCRIBE, A.TOPIC, name):
            out.append(
                (
                    name,
                    topic_id,
                    [(p, -1, -1, "", ErrorCode.TOPIC_AUTHORIZATION_FAILED) for p in partitions],
                )
            )
            continue
        parts = []
        for p in partitions:
            c = committed.get((name, p))
            if c is None:
                parts.append((p, -1, -1, "", ErrorCode.NONE))
            else:
                parts.append((p, c.offset, c.leader_epoch, c.metadata, ErrorCode.NONE))
        out.append((name, topic_id, parts))
    return out


async def offset_fetch(
    ctx: BrokerContext, conn: Connection, header: RequestHeader, req: M.OffsetFetchRequest, version: int
) -> M.OffsetFetchResponse:
    """OffsetFetch: a group's (or several groups') committed offsets."""
    R_ = M.OffsetFetchResponse
    if version >= 8:
        groups = []
        for g in req.groups:
            requested = (
                None
                if g.topics is None
                else [(t.name, t.topic_id, list(t.partition_indexes)) for t in g.topics]
            )
            group_topics: List[M.OffsetFetchResponse.OffsetFetchResponseTopics] = []
            if not allowed(ctx, conn, A.DESCRIBE, A.GROUP, g.group_id):
                groups.append(
                    R_.OffsetFetchResponseGroup(
                        group_id=g.group_id, topics=[], error_code=ErrorCode.GROUP_AUTHORIZATION_FAILED
                    )
                )
                continue
            for name, topic_id, parts in _offsets_of(ctx, conn, g.group_id, requested, version >= 10):
                group_topics.append(
                    R_.OffsetFetchResponseTopics(
                        name=name if version < 10 else "",
                        topic_id=topic_id if version >= 10 else ZERO_UUID,
                        partitions=[
                            R_.OffsetFetchResponsePartitions(
                                partition_index=p,
                                committed_offset=o,
                                committed_leader_epoch=e,
                                metadata=md,
                                error_code=err,
                            )
                            for p, o, e, md, err in parts
                        ],
                    )
                )
            groups.append(
                R_.OffsetFetchResponseGroup(
                    group_id=g.group_id, topics=group_topics, error_code=ErrorCode.NONE
                )
            )
        return R_(throttle_time_ms=0, groups=groups)
    requested = (
        None if req.topics is None else [(t.name, ZERO_UUID, list(t.partition_indexes)) for t in req.topics]
    )
    topics = []
    if not allowed(ctx, conn, A.DESCRIBE, A.GROUP, req.group_id):
        return R_(throttle_time_ms=0, topics=[], error_code=ErrorCode.GROUP_AUTHORIZATION_FAILED)
    for name, _tid, parts in _offsets_of(ctx, conn, req.group_id, requested, False):
        topics.append(
            R_.OffsetFetchResponseTopic(
                name=name,
                partitions=[
                    R_.OffsetFetchResponsePartition(
                        partition_index=p,
                        committed_offset=o,
                        committed_leader_epoch=e if version >= 5 else -1,
                        metadata=md,
                        error_code=err,
                    )
                    for p, o, e, md, err in parts
                ],
            )
        )
    return R_(throttle_time_ms=0, topics=topics, error_code=ErrorCode.NONE)
