"""What several handlers ask: authorization, topic and partition lookup, auto-creation."""

from __future__ import annotations

import uuid
from typing import Optional, Tuple

from kafkawire import internal_topics
from kafkawire.broker import acls as A
from kafkawire.broker.codes import ALL_TOPIC_OPERATIONS, TOPIC_OPERATIONS
from kafkawire.broker.connections import Connection
from kafkawire.broker.state import BrokerState
from kafkawire.broker.storage import PartitionLog, Topic, topic_name_error
from kafkawire.error_codes import ErrorCode


class HandlerHelpers(BrokerState):
    """Authorization, topic and partition lookup and auto-creation, for the handlers."""

    # -- helpers ---------------------------------------------------------------------
    def _allowed(self, conn: Connection, operation: int, resource_type: int, name: str) -> bool:
        """Whether the connection's principal may do ``operation`` on the resource
        (always, without ``acl_enforce``)."""
        if not self.acl_enforce:
            return True
        return self._acl_store.authorize(conn.principal, conn.host, operation, resource_type, name)

    def _may_create_topic(self, conn: Connection, name: str) -> bool:
        return self._allowed(conn, A.CREATE, A.CLUSTER, A.CLUSTER_NAME) or self._allowed(
            conn, A.CREATE, A.TOPIC, name
        )

    def _resolve(
        self, name: Optional[str], topic_id: Optional[uuid.UUID], by_id: bool
    ) -> Tuple[Optional[Topic], int]:
        """``(topic, error)`` for a topic named by name (old versions) or id (new)."""
        if by_id:
            t = self._store.by_id.get(topic_id) if topic_id is not None else None
            return t, (ErrorCode.NONE if t is not None else ErrorCode.UNKNOWN_TOPIC_ID)
        t = self._store.topics.get(name) if name is not None else None
        return t, (ErrorCode.NONE if t is not None else ErrorCode.UNKNOWN_TOPIC_OR_PARTITION)

    @staticmethod
    def _partition(
        topic: Optional[Topic], topic_error: int, index: int
    ) -> Tuple[Optional[PartitionLog], int]:
        """``(partition log, error)`` of partition ``index`` of ``topic`` (None, its
        lookup failing with ``topic_error``)."""
        if topic is None:
            return None, topic_error
        if not 0 <= index < len(topic.partitions):
            return None, ErrorCode.UNKNOWN_TOPIC_OR_PARTITION
        return topic.partitions[index], ErrorCode.NONE

    def _topic_operations(self, conn: Connection, name: str) -> int:
        if not self.acl_enforce:
            return ALL_TOPIC_OPERATIONS
        return self._acl_store.operations(conn.principal, conn.host, A.TOPIC, name, TOPIC_OPERATIONS)

    def _auto_create(self, name: str) -> int:
        err = topic_name_error(name)
        if err is not None:
            return ErrorCode.INVALID_TOPIC_EXCEPTION
        if name == internal_topics.CONSUMER_OFFSETS:
            self._offsets_topic()  # the group coordinator's, as Kafka creates it
            return ErrorCode.NONE
        self._store.create_topic(name, self.num_partitions)
        return ErrorCode.NONE

    def _offsets_topic(self) -> None:
        """List the group coordinator's partition as the internal ``__consumer_offsets``
        (Kafka creates the topic when a group first asks for its coordinator)."""
        log = self.groups.log
        if log is not None and internal_topics.CONSUMER_OFFSETS not in self._store.topics:
            self._store.add_internal_topic(internal_topics.CONSUMER_OFFSETS, [log.log])
