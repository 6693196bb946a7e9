"""Consumer groups kept as Kafka keeps them: records of ``__consumer_offsets``.

With a log directory, the broker's group coordinator writes every offset commit and
every settled group (after the leader's SyncGroup, and when the last member leaves) to
the partition ``__consumer_offsets-0`` of that directory, with the record types and
versions a Kafka 4.4 broker writes for the classic protocol: an ``OffsetCommitKey``
(type 1) with an ``OffsetCommitValue`` v4 (v3 when the topic id is unknown), a
``GroupMetadataKey`` (type 2) with a ``GroupMetadataValue`` v3.  On start the records
are read back in order, so committed offsets (and each group's generation) survive a
restart, and ``kafka-log`` / ``decode_consumer_offsets`` read the groups as they read a
real broker's.  Without a log directory the partition is kept in memory.  As in Kafka, the
topic exists once a group has asked for its coordinator (or was kept in the directory):
from then on Metadata lists it as internal and Fetch reads it.
"""

from __future__ import annotations

import os
import time
import uuid
from typing import TYPE_CHECKING, Any, Dict, Iterator, List, Optional, Tuple

from kafkawire.protocol import internal_topics, messages, records
from kafkawire.broker.storage import PartitionLog, split_batches

if TYPE_CHECKING:
    from kafkawire.broker.groups import CommittedOffset, Group

TOPIC = internal_topics.CONSUMER_OFFSETS
PARTITION = 0
OFFSET_COMMIT = 1
GROUP_METADATA = 2
OFFSET_COMMIT_VERSION = 4  # with the topic id
OFFSET_COMMIT_VERSION_NO_ID = 3
GROUP_METADATA_VERSION = 3


def _now_ms() -> int:
    return int(time.time() * 1000)


class GroupLog:
    """The coordinator's ``__consumer_offsets`` partition under ``log_dir`` (in memory
    without one)."""

    def __init__(self, log_dir: Optional[str]) -> None:
        directory = None
        if log_dir is not None:
            directory = os.path.join(log_dir, f"{TOPIC}-{PARTITION}")
            os.makedirs(directory, exist_ok=True)
        self.log = PartitionLog(TOPIC, PARTITION, directory)  # in memory without log_dir

    def _append(self, entries: List[Tuple[bytes, Optional[bytes]]]) -> None:
        now = _now_ms()
        batch = records.encode_batch([{"key": k, "value": v, "timestamp": now} for k, v in entries])
        self.log.append(split_batches(batch))

    def offset_committed(
        self,
        group_id: str,
        topic: str,
        partition: int,
        committed: "CommittedOffset",
        topic_id: Optional[uuid.UUID],
    ) -> None:
        key = internal_topics.encode_key(
            TOPIC, messages.OffsetCommitKey(group=group_id, topic=topic, partition=partition), OFFSET_COMMIT
        )
        version = OFFSET_COMMIT_VERSION if topic_id is not None else OFFSET_COMMIT_VERSION_NO_ID
        fields: Dict[str, Any] = dict(
            offset=committed.offset,
            leader_epoch=committed.leader_epoch,
            metadata=committed.metadata or "",
            commit_timestamp=committed.commit_timestamp,
        )
        if topic_id is not None:
            fields["topic_id"] = topic_id
        value = internal_topics.encode_value(messages.OffsetCommitValue(**fields), version)
        self._append([(key, value)])

    def group_settled(self, group: "Group") -> None:
        key = internal_topics.encode_key(
            TOPIC, messages.GroupMetadataKey(group=group.group_id), GROUP_METADATA
        )
        members = [
            messages.GroupMetadataValue.MemberMetadata(
                member_id=m.member_id,
                group_instance_id=m.group_instance_id,
                client_id=m.client_id,
                client_host=m.client_host,
                rebalance_timeout=m.rebalance_timeout_ms,
                session_timeout=m.session_timeout_ms,
                subscription=m.metadata_for(group.protocol_name or ""),
                assignment=m.assignment,
            )
            for m in group.members.values()
        ]
        value = internal_topics.encode_value(
            messages.GroupMetadataValue(
                protocol_type=group.protocol_type or "",
                generation=group.generation_id,
                protocol=group.protocol_name,
                leader=group.leader if members else None,
                current_state_timestamp=_now_ms(),
                members=members,
            ),
            GROUP_METADATA_VERSION,
        )
        self._append([(key, value)])

    def replay(self) -> Iterator[internal_topics.CoordinatorRecord]:
        """Every record of the partition, in offset order."""
        for data in self.log.iter_batches():
            for batch in records.iter_batches(data):
                if batch.is_control:
                    continue
                for r in batch:
                    yield internal_topics.decode_record(TOPIC, r.key, r.value)

    def close(self) -> None:
        self.log.close()
