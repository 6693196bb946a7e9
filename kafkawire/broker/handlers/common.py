"""What several handlers ask: authorization, topic and partition lookup, auto-creation."""

from __future__ import annotations

import uuid
from typing import Optional, Tuple

from kafkawire.protocol import internal_topics
from kafkawire.broker import acls as A
from kafkawire.broker.codes import ALL_TOPIC_OPERATIONS, TOPIC_OPERATIONS
from kafkawire.broker.connections import Connection
from kafkawire.broker.context import BrokerContext
from kafkawire.broker.storage import PartitionLog, Topic, topic_name_error
from kafkawire.protocol.error_codes import ErrorCode


# -- helpers ---------------------------------------------------------------------
def allowed(ctx: BrokerContext, conn: Connection, operation: int, resource_type: int, name: str) -> bool:
    """Whether the connection's principal may do ``operation`` on the resource
    (always, without ``acl_enforce``)."""
    if not ctx.config.acl_enforce:
        return True
    return ctx.state.acls.authorize(conn.principal, conn.host, operation, resource_type, name)


def may_create_topic(ctx: BrokerContext, conn: Connection, name: str) -> bool:
    """Whether the connection may create topic ``name`` (CREATE on the cluster or the topic)."""
    return allowed(ctx, conn, A.CREATE, A.CLUSTER, A.CLUSTER_NAME) or allowed(
        ctx, conn, A.CREATE, A.TOPIC, name
    )


def find_topic(
    ctx: BrokerContext, name: Optional[str], topic_id: Optional[uuid.UUID], by_id: bool
) -> Tuple[Optional[Topic], int]:
    """``(topic, error)`` for a topic named by name (old versions) or id (new)."""
    if by_id:
        t = ctx.state.storage.by_id.get(topic_id) if topic_id is not None else None
        return t, (ErrorCode.NONE if t is not None else ErrorCode.UNKNOWN_TOPIC_ID)
    t = ctx.state.storage.topics.get(name) if name is not None else None
    return t, (ErrorCode.NONE if t is not None else ErrorCode.UNKNOWN_TOPIC_OR_PARTITION)


def partition_of(topic: Optional[Topic], topic_error: int, index: int) -> Tuple[Optional[PartitionLog], int]:
    """``(partition log, error)`` of partition ``index`` of ``topic`` (None, its
    lookup failing with ``topic_error``)."""
    if topic is None:
        return None, topic_error
    if not 0 <= index < len(topic.partitions):
        return None, ErrorCode.UNKNOWN_TOPIC_OR_PARTITION
    return topic.partitions[index], ErrorCode.NONE


def topic_operations(ctx: BrokerContext, conn: Connection, name: str) -> int:
    """The operations the connection may do on topic ``name``, as Kafka's bit set."""
    if not ctx.config.acl_enforce:
        return ALL_TOPIC_OPERATIONS
    return ctx.state.acls.operations(conn.principal, conn.host, A.TOPIC, name, TOPIC_OPERATIONS)


def auto_create(ctx: BrokerContext, name: str) -> int:
    """Create topic ``name`` as Metadata's auto-creation does; returns the error code."""
    err = topic_name_error(name)
    if err is not None:
        return ErrorCode.INVALID_TOPIC_EXCEPTION
    if name == internal_topics.CONSUMER_OFFSETS:
        offsets_topic(ctx)  # the group coordinator's, as Kafka creates it
        return ErrorCode.NONE
    ctx.state.storage.create_topic(name, ctx.config.num_partitions)
    return ErrorCode.NONE


def offsets_topic(ctx: BrokerContext) -> None:
    """List the group coordinator's partition as the internal ``__consumer_offsets``
    (Kafka creates the topic when a group first asks for its coordinator)."""
    log = ctx.state.groups.log
    if log is not None and internal_topics.CONSUMER_OFFSETS not in ctx.state.storage.topics:
        ctx.state.storage.add_internal_topic(internal_topics.CONSUMER_OFFSETS, [log.log])
