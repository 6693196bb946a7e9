"""ApiVersions, Metadata, DescribeCluster, DescribeTopicPartitions, CreateTopics and
DeleteTopics."""

from __future__ import annotations

import uuid
from typing import List, Optional, Tuple

from kafkawire.protocol import messages as M
from kafkawire.broker import acls as A
from kafkawire.broker.codes import ALL_CLUSTER_OPERATIONS, BROKER_ENDPOINT, CLUSTER_OPERATIONS, ZERO_UUID
from kafkawire.broker.connections import Connection
from kafkawire.broker.context import BrokerContext
from kafkawire.broker.handlers.common import allowed, auto_create, may_create_topic, topic_operations
from kafkawire.broker.storage import topic_name_error
from kafkawire.protocol.error_codes import ErrorCode
from kafkawire.protocol.headers import RequestHeader


# -- ApiVersions -----------------------------------------------------------------
async def api_versions(
    ctx: BrokerContext, conn: Connection, header: RequestHeader, req: M.ApiVersionsRequest, version: int
) -> M.ApiVersionsResponse:
    """ApiVersions: the versions of every API this broker serves."""
    return conn.protocol.api_versions_response()


# -- Metadata --------------------------------------------------------------------
async def metadata(
    ctx: BrokerContext, conn: Connection, header: RequestHeader, req: M.MetadataRequest, version: int
) -> M.MetadataResponse:
    """Metadata: this broker and the topics asked for (auto-created when allowed)."""
    R_ = M.MetadataResponse
    storage = ctx.state.storage
    wanted: List[Tuple[Optional[str], Optional[uuid.UUID]]]
    if req.topics is None or (version == 0 and not req.topics):
        wanted = [
            (t.name, None)
            for t in storage.topics.values()
            if allowed(ctx, conn, A.DESCRIBE, A.TOPIC, t.name)  # internal ones too, as Kafka lists them
        ]
    else:
        wanted = [(t.name, t.topic_id if version >= 10 else None) for t in req.topics]
    auto = ctx.config.auto_create_topics and (version < 4 or req.allow_auto_topic_creation)
    topics = []
    for name, topic_id in wanted:
        topic = None
        error: int = ErrorCode.NONE
        if name is None and topic_id is not None and topic_id != ZERO_UUID:
            topic = storage.by_id.get(topic_id)
            error = ErrorCode.NONE if topic is not None else ErrorCode.UNKNOWN_TOPIC_ID
        elif name is not None:
            topic = storage.topics.get(name)
            if not allowed(ctx, conn, A.DESCRIBE, A.TOPIC, name):
                topic, error = None, ErrorCode.TOPIC_AUTHORIZATION_FAILED
            elif topic is None:
                if topic_name_error(name) is not None:
                    error = ErrorCode.INVALID_TOPIC_EXCEPTION
                elif auto and not may_create_topic(ctx, conn, name):
                    error = ErrorCode.UNKNOWN_TOPIC_OR_PARTITION
                elif auto:
                    error = auto_create(ctx, name)
                    topic = storage.topics.get(name)
                else:
                    error = ErrorCode.UNKNOWN_TOPIC_OR_PARTITION
        else:
            error = ErrorCode.INVALID_REQUEST
        if topic is not None and name is None and not allowed(ctx, conn, A.DESCRIBE, A.TOPIC, topic.name):
            topic, error = None, ErrorCode.TOPIC_AUTHORIZATION_FAILED
        if topic is None:
            topics.append(
                R_.MetadataResponseTopic(
                    error_code=error,
                    name=name if name is not None or version >= 12 else "",
                    topic_id=topic_id or ZERO_UUID,
                    partitions=[],
                )
            )
            continue
        parts = [
            R_.MetadataResponsePartition(
                error_code=ErrorCode.NONE,
                partition_index=p.partition,
                leader_id=ctx.config.node_id,
                leader_epoch=p.leader_epoch,
                replica_nodes=[ctx.config.node_id],
                isr_nodes=[ctx.config.node_id],
                offline_replicas=[],
            )
            for p in topic.partitions
        ]
        topics.append(
            R_.MetadataResponseTopic(
                error_code=ErrorCode.NONE,
                name=topic.name,
                topic_id=topic.topic_id,
                is_internal=topic.is_internal,
                partitions=parts,
                topic_authorized_operations=topic_operations(ctx, conn, topic.name)
                if version >= 8 and req.include_topic_authorized_operations
                else -2147483648,
            )
        )
    brokers = [
        R_.MetadataResponseBroker(
            node_id=ctx.config.node_id, host=ctx.config.host, port=ctx.state.port, rack=None
        )
    ]
    return R_(
        throttle_time_ms=0,
        brokers=brokers,
        cluster_id=ctx.config.cluster_id,
        controller_id=ctx.config.node_id,
        topics=topics,
    )


# -- DescribeCluster / DescribeTopicPartitions (what Kafka's admin client asks) -------
async def describe_cluster(
    ctx: BrokerContext, conn: Connection, header: RequestHeader, req: M.DescribeClusterRequest, version: int
) -> M.DescribeClusterResponse:
    """DescribeCluster: this broker as the cluster's only node."""
    R_ = M.DescribeClusterResponse
    if version >= 1 and req.endpoint_type != BROKER_ENDPOINT:
        # as Kafka's brokers answer: controllers are not reachable through a broker
        return R_(
            throttle_time_ms=0,
            error_code=ErrorCode.MISMATCHED_ENDPOINT_TYPE,
            error_message="The request was sent to an endpoint of type BROKER, "
            "but we wanted an endpoint of type CONTROLLER",
            cluster_id="",
            brokers=[],
        )
    operations = -2147483648  # Kafka's "not requested"
    if req.include_cluster_authorized_operations:
        operations = (
            ALL_CLUSTER_OPERATIONS
            if not ctx.config.acl_enforce
            else ctx.state.acls.operations(
                conn.principal, conn.host, A.CLUSTER, A.CLUSTER_NAME, CLUSTER_OPERATIONS
            )
        )
    broker = R_.DescribeClusterBroker(
        broker_id=ctx.config.node_id, host=ctx.config.host, port=ctx.state.port, rack=None, is_fenced=False
    )
    return R_(
        throttle_time_ms=0,
        error_code=ErrorCode.NONE,
        error_message=None,
        cluster_id=ctx.config.cluster_id,
        controller_id=ctx.config.node_id,
        brokers=[broker],
        cluster_authorized_operations=operations,
    )


async def describe_topic_partitions(
    ctx: BrokerContext,
    conn: Connection,
    header: RequestHeader,
    req: M.DescribeTopicPartitionsRequest,
    version: int,
) -> M.DescribeTopicPartitionsResponse:
    """Topics in name order from the cursor on, at most ``response_partition_limit``
    partitions in all; the next cursor names the first partition left out (as Kafka
    4.4 does: a topic is left out whole once the limit is reached before it)."""
    R_ = M.DescribeTopicPartitionsResponse
    storage = ctx.state.storage
    if req.topics:
        names = sorted({t.name for t in req.topics})
    else:
        names = sorted(
            n for n in storage.topics if not n.startswith("__") and allowed(ctx, conn, A.DESCRIBE, A.TOPIC, n)
        )
    cursor = req.cursor
    if cursor is not None:
        names = [n for n in names if n >= cursor.topic_name]
    budget = max(req.response_partition_limit, 0)
    topics, next_cursor = [], None
    for name in names:
        first = cursor.partition_index if cursor is not None and name == cursor.topic_name else 0
        if budget == 0:
            next_cursor = R_.Cursor(topic_name=name, partition_index=first)
            break
        topic = storage.topics.get(name)
        error = ErrorCode.NONE
        if not allowed(ctx, conn, A.DESCRIBE, A.TOPIC, name):
            topic, error = None, ErrorCode.TOPIC_AUTHORIZATION_FAILED
        elif topic is None:
            error = ErrorCode.UNKNOWN_TOPIC_OR_PARTITION
        if topic is None:
            topics.append(
                R_.DescribeTopicPartitionsResponseTopic(
                    error_code=error,
                    name=name,
                    topic_id=ZERO_UUID,
                    partitions=[],
                    topic_authorized_operations=topic_operations(ctx, conn, name),
                )
            )
            continue
        taken = topic.partitions[first : first + budget]
        budget -= len(taken)
        topics.append(
            R_.DescribeTopicPartitionsResponseTopic(
                error_code=ErrorCode.NONE,
                name=name,
                topic_id=topic.topic_id,
                is_internal=topic.is_internal,
                partitions=[
                    R_.DescribeTopicPartitionsResponsePartition(
                        error_code=ErrorCode.NONE,
                        partition_index=p.partition,
                        leader_id=ctx.config.node_id,
                        leader_epoch=p.leader_epoch,
                        replica_nodes=[ctx.config.node_id],
                        isr_nodes=[ctx.config.node_id],
                        eligible_leader_replicas=[],
                        last_known_elr=[],
                        offline_replicas=[],
                    )
                    for p in taken
                ],
                topic_authorized_operations=topic_operations(ctx, conn, name),
            )
        )
        if first + len(taken) < len(topic.partitions):
            next_cursor = R_.Cursor(topic_name=name, partition_index=first + len(taken))
            break
    return R_(throttle_time_ms=0, topics=topics, next_cursor=next_cursor)


# -- CreateTopics / DeleteTopics -------------------------------------------------------
async def create_topics(
    ctx: BrokerContext, conn: Connection, header: RequestHeader, req: M.CreateTopicsRequest, version: int
) -> M.CreateTopicsResponse:
    """CreateTopics: create each valid topic (only validate with ``validate_only``)."""
    R_ = M.CreateTopicsResponse
    results = []
    names = [t.name for t in req.topics]
    for t in req.topics:
        res = R_.CreatableTopicResult(name=t.name, error_code=ErrorCode.NONE, error_message=None)
        error, message = ErrorCode.NONE, None
        partitions = t.num_partitions
        if t.assignments:
            partitions = len(t.assignments)
        elif partitions == -1:
            partitions = ctx.config.num_partitions
        if names.count(t.name) > 1:
            error, message = ErrorCode.INVALID_REQUEST, f"topic {t.name!r} appears more than once"
        elif not may_create_topic(ctx, conn, t.name):
            error, message = ErrorCode.TOPIC_AUTHORIZATION_FAILED, "Authorization failed."
        elif topic_name_error(t.name):
            error, message = ErrorCode.INVALID_TOPIC_EXCEPTION, topic_name_error(t.name)
        elif t.name in ctx.state.storage.topics:
            error, message = ErrorCode.TOPIC_ALREADY_EXISTS, f"Topic '{t.name}' already exists."
        elif partitions <= 0:
            error, message = ErrorCode.INVALID_PARTITIONS, "Number of partitions must be larger than 0."
        elif t.replication_factor not in (-1, 1) or any(
            len(a.broker_ids) != 1 or a.broker_ids[0] != ctx.config.node_id for a in t.assignments
        ):
            error, message = (
                ErrorCode.INVALID_REPLICATION_FACTOR,
                ("Replication factor must be 1 (or -1): this cluster has one broker."),
            )
        res.error_code, res.error_message = error, message
        if error == ErrorCode.NONE:
            configs = {c.name: c.value for c in t.configs}
            if not req.validate_only:
                topic = ctx.state.storage.create_topic(t.name, partitions, configs=configs)
                res.topic_id = topic.topic_id
            if version >= 5:
                res.num_partitions = partitions
                res.replication_factor = 1
                res.configs = [
                    R_.CreatableTopicConfigs(
                        name=k, value=v, read_only=False, config_source=1, is_sensitive=False
                    )
                    for k, v in sorted(configs.items())
                ]
        results.append(res)
    return R_(throttle_time_ms=0, topics=results)


async def delete_topics(
    ctx: BrokerContext, conn: Connection, header: RequestHeader, req: M.DeleteTopicsRequest, version: int
) -> M.DeleteTopicsResponse:
    """DeleteTopics: delete each topic named or identified."""
    R_ = M.DeleteTopicsResponse
    results = []
    wanted: List[Tuple[Optional[str], Optional[uuid.UUID]]]
    if version >= 6:
        wanted = [(t.name, t.topic_id) for t in req.topics]
    else:
        wanted = [(n, None) for n in req.topic_names]
    for name, topic_id in wanted:
        if name is None:
            topic = ctx.state.storage.by_id.get(topic_id) if topic_id is not None else None
            error = ErrorCode.NONE if topic is not None else ErrorCode.UNKNOWN_TOPIC_ID
            if topic is not None and not allowed(ctx, conn, A.DESCRIBE, A.TOPIC, topic.name):
                topic, error = None, ErrorCode.UNKNOWN_TOPIC_ID  # by id, a hidden topic stays unknown
        else:
            topic = ctx.state.storage.topics.get(name)
            error = ErrorCode.NONE if topic is not None else ErrorCode.UNKNOWN_TOPIC_OR_PARTITION
        subject = topic.name if topic is not None else name
        if subject is not None and not allowed(ctx, conn, A.DELETE, A.TOPIC, subject):
            error = ErrorCode.TOPIC_AUTHORIZATION_FAILED
        elif topic is not None:
            ctx.state.storage.delete_topic(topic.name)
        results.append(
            R_.DeletableTopicResult(
                name=topic.name if topic is not None else name,
                topic_id=topic.topic_id if topic is not None else (topic_id or ZERO_UUID),
                error_code=error,
            )
        )
    return R_(throttle_time_ms=0, responses=results)
