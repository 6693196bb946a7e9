"""Types of kafkawire.protocol.messages (generated from the schema, do not edit).

Written by tools/gen_message_stubs.py; the test suite fails when it no longer matches
the schema.
"""

import uuid
from collections.abc import Iterable, Mapping, Sequence
from typing import Any, ClassVar, Literal, overload

from kafkawire.protocol.message_class import Message as Message
from kafkawire.protocol.message_class import Struct as Struct
from kafkawire.protocol.schema.plan import DefinitionSpec
from kafkawire.protocol.schema.versions import VersionRange

_Bytes = bytes | bytearray | memoryview

CLASSES: Mapping[str, type[Message]]
SPECS: Mapping[str, DefinitionSpec]

def metadata_record_class(record_type: int) -> type[Message]: ...
def remote_log_metadata_record_class(record_type: int) -> type[Message]: ...
def api_keys() -> tuple[int, ...]: ...
def supported_versions(api_key: int) -> VersionRange: ...
def negotiate_versions(
    api_versions: Message | Iterable[Any], ours: Mapping[int, VersionRange] | None = None
) -> dict[int, int]: ...
def negotiate_version(
    api_versions: Message | Iterable[Any], api_key: int, ours: VersionRange | None = None
) -> int: ...

class AddOffsetsToTxnRequest(Message):
    """Kafka's AddOffsetsToTxnRequest (request 25, versions 0-4)."""
    api_key: ClassVar[Literal[25]]
    kind: ClassVar[Literal['request']]
    transactional_id: str
    producer_id: int
    producer_epoch: int
    group_id: str
    def __init__(
        self,
        transactional_id: str = ...,
        producer_id: int = ...,
        producer_epoch: int = ...,
        group_id: str = ...,
        _unknown_tagged: tuple[tuple[int, bytes], ...] | None = ...,
    ) -> None: ...

class AddOffsetsToTxnResponse(Message):
    """Kafka's AddOffsetsToTxnResponse (response 25, versions 0-4)."""
    api_key: ClassVar[Literal[25]]
    kind: ClassVar[Literal['response']]
    throttle_time_ms: int
    error_code: int
    def __init__(
        self,
        throttle_time_ms: int = ...,
        error_code: int = ...,
        _unknown_tagged: tuple[tuple[int, bytes], ...] | None = ...,
    ) -> None: ...

class AddPartitionsToTxnRequest(Message):
    """Kafka's AddPartitionsToTxnRequest (request 24, versions 0-5)."""
    api_key: ClassVar[Literal[24]]
    kind: ClassVar[Literal['request']]
    transactions: list[AddPartitionsToTxnRequest.AddPartitionsToTxnTransaction]
    v3_and_below_transactional_id: str
    v3_and_below_producer_id: int
    v3_and_below_producer_epoch: int
    v3_and_below_topics: list[AddPartitionsToTxnRequest.AddPartitionsToTxnTopic]
    def __init__(
        self,
        transactions: Sequence[AddPartitionsToTxnRequest.AddPartitionsToTxnTransaction | dict[str, Any]] = ...,
        v3_and_below_transactional_id: str = ...,
        v3_and_below_producer_id: int = ...,
        v3_and_below_producer_epoch: int = ...,
        v3_and_below_topics: Sequence[AddPartitionsToTxnRequest.AddPartitionsToTxnTopic | dict[str, Any]] = ...,
        _unknown_tagged: tuple[tuple[int, bytes], ...] | None = ...,
    ) -> None: ...
    class AddPartitionsToTxnTransaction(Struct):
        """A struct of Kafka's AddPartitionsToTxnRequest."""
        transactional_id: str
        producer_id: int
        producer_epoch: int
        verify_only: bool
        topics: list[AddPartitionsToTxnRequest.AddPartitionsToTxnTopic]
        def __init__(
            self,
            transactional_id: str = ...,
            producer_id: int = ...,
            producer_epoch: int = ...,
            verify_only: bool = ...,
            topics: Sequence[AddPartitionsToTxnRequest.AddPartitionsToTxnTopic | dict[str, Any]] = ...,
            _unknown_tagged: tuple[tuple[int, bytes], ...] | None = ...,
        ) -> None: ...
    class AddPartitionsToTxnTopic(Struct):
        """A struct of Kafka's AddPartitionsToTxnRequest."""
        name: str
        partitions: list[int]
        def __init__(
            self,
            name: str = ...,
            partitions: Sequence[int] = ...,
            _unknown_tagged: tuple[tuple[int, bytes], ...] | None = ...,
        ) -> None: ...

class AddPartitionsToTxnResponse(Message):
    """Kafka's AddPartitionsToTxnResponse (response 24, versions 0-5)."""
    api_key: ClassVar[Literal[24]]
    kind: ClassVar[Literal['response']]
    throttle_time_ms: int
    error_code: int
    results_by_transaction: list[AddPartitionsToTxnResponse.AddPartitionsToTxnResult]
    results_by_topic_v3_and_below: list[AddPartitionsToTxnResponse.AddPartitionsToTxnTopicResult]
    def __init__(
        self,
        throttle_time_ms: int = ...,
        error_code: int = ...,
        results_by_transaction: Sequence[AddPartitionsToTxnResponse.AddPartitionsToTxnResult | dict[str, Any]] = ...,
        results_by_topic_v3_and_below: Sequence[AddPartitionsToTxnResponse.AddPartitionsToTxnTopicResult | dict[str, Any]] = ...,
        _unknown_tagged: tuple[tuple[int, bytes], ...] | None = ...,
    ) -> None: ...
    class AddPartitionsToTxnResult(Struct):
        """A struct of Kafka's AddPartitionsToTxnResponse."""
        transactional_id: str
        topic_results: list[AddPartitionsToTxnResponse.AddPartitionsToTxnTopicResult]
        def __init__(
            self,
            transactional_id: str = ...,
            topic_results: Sequence[AddPartitionsToTxnResponse.AddPartitionsToTxnTopicResult | dict[str, Any]] = ...,
            _unknown_tagged: tuple[tuple[int, bytes], ...] | None = ...,
        ) -> None: ...
    class AddPartitionsToTxnTopicResult(Struct):
        """A struct of Kafka's AddPartitionsToTxnResponse."""
        name: str
        results_by_partition: list[AddPartitionsToTxnResponse.AddPartitionsToTxnPartitionResult]
        def __init__(
            self,
            name: str = ...,
            results_by_partition: Sequence[AddPartitionsToTxnResponse.AddPartitionsToTxnPartitionResult | dict[str, Any]] = ...,
            _unknown_tagged: tuple[tuple[int, bytes], ...] | None = ...,
        ) -> None: ...
    class AddPartitionsToTxnPartitionResult(Struct):
        """A struct of Kafka's AddPartitionsToTxnResponse."""
        partition_index: int
        partition_error_code: int
        def __init__(
            self,
            partition_index: int = ...,
            partition_error_code: int = ...,
            _unknown_tagged: tuple[tuple[int, bytes], ...] | None = ...,
        ) -> None: ...

class AddRaftVoterRequest(Message):
    """Kafka's AddRaftVoterRequest (request 80, versions 0-1)."""
    api_key: ClassVar[Literal[80]]
    kind: ClassVar[Literal['request']]
    cluster_id: str | None
    timeout_ms: int
    voter_id: int
    voter_directory_id: uuid.UUID
    listeners: list[AddRaftVoterRequest.Listener]
    ack_when_committed: bool
    def __init__(
        self,
        cluster_id: str | None = ...,
        timeout_ms: int = ...,
        voter_id: int = ...,
        voter_directory_id: uuid.UUID = ...,
        listeners: Sequence[AddRaftVoterRequest.Listener | dict[str, Any]] = ...,
        ack_when_committed: bool = ...,
        _unknown_tagged: tuple[tuple[int, bytes], ...] | None = ...,
    ) -> None: ...
    class Listener(Struct):
        """A struct of Kafka's AddRaftVoterRequest."""
        name: str
        host: str
        port: int
        def __init__(
            self,
            name: str = ...,
            host: str = ...,
            port: int = ...,
            _unknown_tagged: tuple[tuple[int, bytes], ...] | None = ...,
        ) -> None: ...

class AddRaftVoterResponse(Message):
    """Kafka's AddRaftVoterResponse (response 80, versions 0-1)."""
    api_key: ClassVar[Literal[80]]
    kind: ClassVar[Literal['response']]
    throttle_time_ms: int
    error_code: int
    error_message: str | None
    def __init__(
        self,
        throttle_time_ms: int = ...,
        error_code: int = ...,
        error_message: str | None = ...,
        _unknown_tagged: tuple[tuple[int, bytes], ...] | None = ...,
    ) -> None: ...

class AllocateProducerIdsRequest(Message):
    """Kafka's AllocateProducerIdsRequest (request 67, versions 0)."""
    api_key: ClassVar[Literal[67]]
    kind: ClassVar[Literal['request']]
    broker_id: int
    broker_epoch: int
    def __init__(
        self,
        broker_id: int = ...,
        broker_epoch: int = ...,
        _unknown_tagged: tuple[tuple[int, bytes], ...] | None = ...,
    ) -> None: ...

class AllocateProducerIdsResponse(Message):
    """Kafka's AllocateProducerIdsResponse (response 67, versions 0)."""
    api_key: ClassVar[Literal[67]]
    kind: ClassVar[Literal['response']]
    throttle_time_ms: int
    error_code: int
    producer_id_start: int
    producer_id_len: int
    def __init__(
        self,
        throttle_time_ms: int = ...,
        error_code: int = ...,
        producer_id_start: int = ...,
        producer_id_len: int = ...,
        _unknown_tagged: tuple[tuple[int, bytes], ...] | None = ...,
    ) -> None: ...

class AlterClientQuotasRequest(Message):
    """Kafka's AlterClientQuotasRequest (request 49, versions 0-1)."""
    api_key: ClassVar[Literal[49]]
    kind: ClassVar[Literal['request']]
    entries: list[AlterClientQuotasRequest.EntryData]
    validate_only: bool
    def __init__(
        self,
        entries: Sequence[AlterClientQuotasRequest.EntryData | dict[str, Any]] = ...,
        validate_only: bool = ...,
        _unknown_tagged: tuple[tuple[int, bytes], ...] | None = ...,
    ) -> None: ...
    class EntryData(Struct):
        """A struct of Kafka's AlterClientQuotasRequest."""
        entity: list[AlterClientQuotasRequest.EntityData]
        ops: list[AlterClientQuotasRequest.OpData]
        def __init__(
            self,
            entity: Sequence[AlterClientQuotasRequest.EntityData | dict[str, Any]] = ...,
            ops: Sequence[AlterClientQuotasRequest.OpData | dict[str, Any]] = ...,
            _unknown_tagged: tuple[tuple[int, bytes], ...] | None = ...,
        ) -> None: ...
    class EntityData(Struct):
        """A struct of Kafka's AlterClientQuotasRequest."""
        entity_type: str
        entity_name: str | None
        def __init__(
            self,
            entity_type: str = ...,
            entity_name: str | None = ...,
            _unknown_tagged: tuple[tuple[int, bytes], ...] | None = ...,
        ) -> None: ...
    class OpData(Struct):
        """A struct of Kafka's AlterClientQuotasRequest."""
        key: str
        value: float
        remove: bool
        def __init__(
            self,
            key: str = ...,
            value: float = ...,
            remove: bool = ...,
            _unknown_tagged: tuple[tuple[int, bytes], ...] | None = ...,
        ) -> None: ...

class AlterClientQuotasResponse(Message):
    """Kafka's AlterClientQuotasResponse (response 49, versions 0-1)."""
    api_key: ClassVar[Literal[49]]
    kind: ClassVar[Literal['response']]
    throttle_time_ms: int
    entries: list[AlterClientQuotasResponse.EntryData]
    def __init__(
        self,
        throttle_time_ms: int = ...,
        entries: Sequence[AlterClientQuotasResponse.EntryData | dict[str, Any]] = ...,
        _unknown_tagged: tuple[tuple[int, bytes], ...] | None = ...,
    ) -> None: ...
    class EntryData(Struct):
        """A struct of Kafka's AlterClientQuotasResponse."""
        error_code: int
        error_message: str | None
        entity: list[AlterClientQuotasResponse.EntityData]
        def __init__(
            self,
            error_code: int = ...,
            error_message: str | None = ...,
            entity: Sequence[AlterClientQuotasResponse.EntityData | dict[str, Any]] = ...,
            _unknown_tagged: tuple[tuple[int, bytes], ...] | None = ...,
        ) -> None: ...
    class EntityData(Struct):
        """A struct of Kafka's AlterClientQuotasResponse."""
        entity_type: str
        entity_name: str | None
        def __init__(
            self,
            entity_type: str = ...,
            entity_name: str | None = ...,
            _unknown_tagged: tuple[tuple[int, bytes], ...] | None = ...,
        ) -> None: ...

class AlterConfigsRequest(Message):
    """Kafka's AlterConfigsRequest (request 33, versions 0-2)."""
    api_key: ClassVar[Literal[33]]
    kind: ClassVar[Literal['request']]
    resources: list[AlterConfigsRequest.AlterConfigsResource]
    validate_only: bool
    def __init__(
        self,
        resources: Sequence[AlterConfigsRequest.AlterConfigsResource | dict[str, Any]] = ...,
        validate_only: bool = ...,
        _unknown_tagged: tuple[tuple[int, bytes], ...] | None = ...,
    ) -> None: ...
    class AlterConfigsResource(Struct):
        """A struct of Kafka's AlterConfigsRequest."""
        resource_type: int
        resource_name: str
        configs: list[AlterConfigsRequest.AlterableConfig]
        def __init__(
            self,
            resource_type: int = ...,
            resource_name: str = ...,
            configs: Sequence[AlterConfigsRequest.AlterableConfig | dict[str, Any]] = ...,
            _unknown_tagged: tuple[tuple[int, bytes], ...] | None = ...,
        ) -> None: ...
    class AlterableConfig(Struct):
        """A struct of Kafka's AlterConfigsRequest."""
        name: str
        value: str | None
        def __init__(
            self,
            name: str = ...,
            value: str | None = ...,
            _unknown_tagged: tuple[tuple[int, bytes], ...] | None = ...,
        ) -> None: ...

class AlterConfigsResponse(Message):
    """Kafka's AlterConfigsResponse (response 33, versions 0-2)."""
    api_key: ClassVar[Literal[33]]
    kind: ClassVar[Literal['response']]
    throttle_time_ms: int
    responses: list[AlterConfigsResponse.AlterConfigsResourceResponse]
    def __init__(
        self,
        throttle_time_ms: int = ...,
        responses: Sequence[AlterConfigsResponse.AlterConfigsResourceResponse | dict[str, Any]] = ...,
        _unknown_tagged: tuple[tuple[int, bytes], ...] | None = ...,
    ) -> None: ...
    class AlterConfigsResourceResponse(Struct):
        """A struct of Kafka's AlterConfigsResponse."""
        error_code: int
        error_message: str | None
        resource_type: int
        resource_name: str
        def __init__(
            self,
            error_code: int = ...,
            error_message: str | None = ...,
            resource_type: int = ...,
            resource_name: str = ...,
            _unknown_tagged: tuple[tuple[int, bytes], ...] | None = ...,
        ) -> None: ...

class AlterPartitionReassignmentsRequest(Message):
    """Kafka's AlterPartitionReassignmentsRequest (request 45, versions 0-1)."""
    api_key: ClassVar[Literal[45]]
    kind: ClassVar[Literal['request']]
    timeout_ms: int
    allow_replication_factor_change: bool
    topics: list[AlterPartitionReassignmentsRequest.ReassignableTopic]
    def __init__(
        self,
        timeout_ms: int = ...,
        allow_replication_factor_change: bool = ...,
        topics: Sequence[AlterPartitionReassignmentsRequest.ReassignableTopic | dict[str, Any]] = ...,
        _unknown_tagged: tuple[tuple[int, bytes], ...] | None = ...,
    ) -> None: ...
    class ReassignableTopic(Struct):
        """A struct of Kafka's AlterPartitionReassignmentsRequest."""
        name: str
        partitions: list[AlterPartitionReassignmentsRequest.ReassignablePartition]
        def __init__(
            self,
            name: str = ...,
            partitions: Sequence[AlterPartitionReassignmentsRequest.ReassignablePartition | dict[str, Any]] = ...,
            _unknown_tagged: tuple[tuple[int, bytes], ...] | None = ...,
        ) -> None: ...
    class ReassignablePartition(Struct):
        """A struct of Kafka's AlterPartitionReassignmentsRequest."""
        partition_index: int
        replicas: list[int] | None
        def __init__(
            self,
            partition_index: int = ...,
            replicas: Sequence[int] | None = ...,
            _unknown_tagged: tuple[tuple[int, bytes], ...] | None = ...,
        ) -> None: ...

class AlterPartitionReassignmentsResponse(Message):
    """Kafka's AlterPartitionReassignmentsResponse (response 45, versions 0-1)."""
    api_key: ClassVar[Literal[45]]
    kind: ClassVar[Literal['response']]
    throttle_time_ms: int
    allow_replication_factor_change: bool
    error_code: int
    error_message: str | None
    responses: list[AlterPartitionReassignmentsResponse.ReassignableTopicResponse]
    def __init__(
        self,
        throttle_time_ms: int = ...,
        allow_replication_factor_change: bool = ...,
        error_code: int = ...,
        error_message: str | None = ...,
        responses: Sequence[AlterPartitionReassignmentsResponse.ReassignableTopicResponse | dict[str, Any]] = ...,
        _unknown_tagged: tuple[tuple[int, bytes], ...] | None = ...,
    ) -> None: ...
    class ReassignableTopicResponse(Struct):
        """A struct of Kafka's AlterPartitionReassignmentsResponse."""
        name: str
        partitions: list[AlterPartitionReassignmentsResponse.ReassignablePartitionResponse]
        def __init__(
            self,
            name: str = ...,
            partitions: Sequence[AlterPartitionReassignmentsResponse.ReassignablePartitionResponse | dict[str, Any]] = ...,
            _unknown_tagged: tuple[tuple[int, bytes], ...] | None = ...,
        ) -> None: ...
    class ReassignablePartitionResponse(Struct):
        """A struct of Kafka's AlterPartitionReassignmentsResponse."""
        partition_index: int
        error_code: int
        error_message: str | None
        def __init__(
            self,
            partition_index: int = ...,
            error_code: int = ...,
            error_message: str | None = ...,
            _unknown_tagged: tuple[tuple[int, bytes], ...] | None = ...,
        ) -> None: ...

class AlterPartitionRequest(Message):
    """Kafka's AlterPartitionRequest (request 56, versions 2-3)."""
    api_key: ClassVar[Literal[56]]
    kind: ClassVar[Literal['request']]
    broker_id: int
    broker_epoch: int
    topics: list[AlterPartitionRequest.TopicData]
    def __init__(
        self,
        broker_id: int = ...,
        broker_epoch: int = ...,
        topics: Sequence[AlterPartitionRequest.TopicData | dict[str, Any]] = ...,
        _unknown_tagged: tuple[tuple[int, bytes], ...] | None = ...,
    ) -> None: ...
    class TopicData(Struct):
        """A struct of Kafka's AlterPartitionRequest."""
        topic_id: uuid.UUID
        partitions: list[AlterPartitionRequest.PartitionData]
        def __init__(
            self,
            topic_id: uuid.UUID = ...,
            partitions: Sequence[AlterPartitionRequest.PartitionData | dict[str, Any]] = ...,
            _unknown_tagged: tuple[tuple[int, bytes], ...] | None = ...,
        ) -> None: ...
    class PartitionData(Struct):
        """A struct of Kafka's AlterPartitionRequest."""
        partition_index: int
        leader_epoch: int
        new_isr: list[int]
        new_isr_with_epochs: list[AlterPartitionRequest.BrokerState]
        leader_recovery_state: int
        partition_epoch: int
        def __init__(
            self,
            partition_index: int = ...,
            leader_epoch: int = ...,
            new_isr: Sequence[int] = ...,
            new_isr_with_epochs: Sequence[AlterPartitionRequest.BrokerState | dict[str, Any]] = ...,
            leader_recovery_state: int = ...,
            partition_epoch: int = ...,
            _unknown_tagged: tuple[tuple[int, bytes], ...] | None = ...,
        ) -> None: ...
    class BrokerState(Struct):
        """A struct of Kafka's AlterPartitionRequest."""
        broker_id: int
        broker_epoch: int
        def __init__(
            self,
            broker_id: int = ...,
            broker_epoch: int = ...,
            _unknown_tagged: tuple[tuple[int, bytes], ...] | None = ...,
        ) -> None: ...

class AlterPartitionResponse(Message):
    """Kafka's AlterPartitionResponse (response 56, versions 2-3)."""
    api_key: ClassVar[Literal[56]]
    kind: ClassVar[Literal['response']]
    throttle_time_ms: int
    error_code: int
    topics: list[AlterPartitionResponse.TopicData]
    def __init__(
        self,
        throttle_time_ms: int = ...,
        error_code: int = ...,
        topics: Sequence[AlterPartitionResponse.TopicData | dict[str, Any]] = ...,
        _unknown_tagged: tuple[tuple[int, bytes], ...] | None = ...,
    ) -> None: ...
    class TopicData(Struct):
        """A struct of Kafka's AlterPartitionResponse."""
        topic_id: uuid.UUID
        partitions: list[AlterPartitionResponse.PartitionData]
        def __init__(
            self,
            topic_id: uuid.UUID = ...,
            partitions: Sequence[AlterPartitionResponse.PartitionData | dict[str, Any]] = ...,
            _unknown_tagged: tuple[tuple[int, bytes], ...] | None = ...,
        ) -> None: ...
    class PartitionData(Struct):
        """A struct of Kafka's AlterPartitionResponse."""
        partition_index: int
        error_code: int
        leader_id: int
        leader_epoch: int
        isr: list[int]
        leader_recovery_state: int
        partition_epoch: int
        def __init__(
            self,
            partition_index: int = ...,
            error_code: int = ...,
            leader_id: int = ...,
            leader_epoch: int = ...,
            isr: Sequence[int] = ...,
            leader_recovery_state: int = ...,
            partition_epoch: int = ...,
            _unknown_tagged: tuple[tuple[int, bytes], ...] | None = ...,
        ) -> None: ...

class AlterReplicaLogDirsRequest(Message):
    """Kafka's AlterReplicaLogDirsRequest (request 34, versions 1-2)."""
    api_key: ClassVar[Literal[34]]
    kind: ClassVar[Literal['request']]
    dirs: list[AlterReplicaLogDirsRequest.AlterReplicaLogDir]
    def __init__(
        self,
        dirs: Sequence[AlterReplicaLogDirsRequest.AlterReplicaLogDir | dict[str, Any]] = ...,
        _unknown_tagged: tuple[tuple[int, bytes], ...] | None = ...,
    ) -> None: ...
    class AlterReplicaLogDir(Struct):
        """A struct of Kafka's AlterReplicaLogDirsRequest."""
        path: str
        topics: list[AlterReplicaLogDirsRequest.AlterReplicaLogDirTopic]
        def __init__(
            self,
            path: str = ...,
            topics: Sequence[AlterReplicaLogDirsRequest.AlterReplicaLogDirTopic | dict[str, Any]] = ...,
            _unknown_tagged: tuple[tuple[int, bytes], ...] | None = ...,
        ) -> None: ...
    class AlterReplicaLogDirTopic(Struct):
        """A struct of Kafka's AlterReplicaLogDirsRequest."""
        name: str
        partitions: list[int]
        def __init__(
            self,
            name: str = ...,
            partitions: Sequence[int] = ...,
            _unknown_tagged: tuple[tuple[int, bytes], ...] | None = ...,
        ) -> None: ...

class AlterReplicaLogDirsResponse(Message):
    """Kafka's AlterReplicaLogDirsResponse (response 34, versions 1-2)."""
    api_key: ClassVar[Literal[34]]
    kind: ClassVar[Literal['response']]
    throttle_time_ms: int
    results: list[AlterReplicaLogDirsResponse.AlterReplicaLogDirTopicResult]
    def __init__(
        self,
        throttle_time_ms: int = ...,
        results: Sequence[AlterReplicaLogDirsResponse.AlterReplicaLogDirTopicResult | dict[str, Any]] = ...,
        _unknown_tagged: tuple[tuple[int, bytes], ...] | None = ...,
    ) -> None: ...
    class AlterReplicaLogDirTopicResult(Struct):
        """A struct of Kafka's AlterReplicaLogDirsResponse."""
        topic_name: str
        partitions: list[AlterReplicaLogDirsResponse.AlterReplicaLogDirPartitionResult]
        def __init__(
            self,
            topic_name: str = ...,
            partitions: Sequence[AlterReplicaLogDirsResponse.AlterReplicaLogDirPartitionResult | dict[str, Any]] = ...,
            _unknown_tagged: tuple[tuple[int, bytes], ...] | None = ...,
        ) -> None: ...
    class AlterReplicaLogDirPartitionResult(Struct):
        """A struct of Kafka's AlterReplicaLogDirsResponse."""
        partition_index: int
        error_code: int
        def __init__(
            self,
            partition_index: int = ...,
            error_code: int = ...,
            _unknown_tagged: tuple[tuple[int, bytes], ...] | None = ...,
        ) -> None: ...

class AlterShareGroupOffsetsRequest(Message):
    """Kafka's AlterShareGroupOffsetsRequest (request 91, versions 0)."""
    api_key: ClassVar[Literal[91]]
    kind: ClassVar[Literal['request']]
    group_id: str
    topics: list[AlterShareGroupOffsetsRequest.AlterShareGroupOffsetsRequestTopic]
    def __init__(
        self,
        group_id: str = ...,
        topics: Sequence[AlterShareGroupOffsetsRequest.AlterShareGroupOffsetsRequestTopic | dict[str, Any]] = ...,
        _unknown_tagged: tuple[tuple[int, bytes], ...] | None = ...,
    ) -> None: ...
    class AlterShareGroupOffsetsRequestTopic(Struct):
        """A struct of Kafka's AlterShareGroupOffsetsRequest."""
        topic_name: str
        partitions: list[AlterShareGroupOffsetsRequest.AlterShareGroupOffsetsRequestPartition]
        def __init__(
            self,
            topic_name: str = ...,
            partitions: Sequence[AlterShareGroupOffsetsRequest.AlterShareGroupOffsetsRequestPartition | dict[str, Any]] = ...,
            _unknown_tagged: tuple[tuple[int, bytes], ...] | None = ...,
        ) -> None: ...
    class AlterShareGroupOffsetsRequestPartition(Struct):
        """A struct of Kafka's AlterShareGroupOffsetsRequest."""
        partition_index: int
        start_offset: int
        def __init__(
            self,
            partition_index: int = ...,
            start_offset: int = ...,
            _unknown_tagged: tuple[tuple[int, bytes], ...] | None = ...,
        ) -> None: ...

class AlterShareGroupOffsetsResponse(Message):
    """Kafka's AlterShareGroupOffsetsResponse (response 91, versions 0)."""
    api_key: ClassVar[Literal[91]]
    kind: ClassVar[Literal['response']]
    throttle_time_ms: int
    error_code: int
    error_message: str | None
    responses: list[AlterShareGroupOffsetsResponse.AlterShareGroupOffsetsResponseTopic]
    def __init__(
        self,
        throttle_time_ms: int = ...,
        error_code: int = ...,
        error_message: str | None = ...,
        responses: Sequence[AlterShareGroupOffsetsResponse.AlterShareGroupOffsetsResponseTopic | dict[str, Any]] = ...,
        _unknown_tagged: tuple[tuple[int, bytes], ...] | None = ...,
    ) -> None: ...
    class AlterShareGroupOffsetsResponseTopic(Struct):
        """A struct of Kafka's AlterShareGroupOffsetsResponse."""
        topic_name: str
        topic_id: uuid.UUID
        partitions: list[AlterShareGroupOffsetsResponse.AlterShareGroupOffsetsResponsePartition]
        def __init__(
            self,
            topic_name: str = ...,
            topic_id: uuid.UUID = ...,
            partitions: Sequence[AlterShareGroupOffsetsResponse.AlterShareGroupOffsetsResponsePartition | dict[str, Any]] = ...,
            _unknown_tagged: tuple[tuple[int, bytes], ...] | None = ...,
        ) -> None: ...
    class AlterShareGroupOffsetsResponsePartition(Struct):
        """A struct of Kafka's AlterShareGroupOffsetsResponse."""
        partition_index: int
        error_code: int
        error_message: str | None
        def __init__(
            self,
            partition_index: int = ...,
            error_code: int = ...,
            error_message: str | None = ...,
            _unknown_tagged: tuple[tuple[int, bytes], ...] | None = ...,
        ) -> None: ...

class AlterUserScramCredentialsRequest(Message):
    """Kafka's AlterUserScramCredentialsRequest (request 51, versions 0)."""
    api_key: ClassVar[Literal[51]]
    kind: ClassVar[Literal['request']]
    deletions: list[AlterUserScramCredentialsRequest.ScramCredentialDeletion]
    upsertions: list[AlterUserScramCredentialsRequest.ScramCredentialUpsertion]
    def __init__(
        self,
        deletions: Sequence[AlterUserScramCredentialsRequest.ScramCredentialDeletion | dict[str, Any]] = ...,
        upsertions: Sequence[AlterUserScramCredentialsRequest.ScramCredentialUpsertion | dict[str, Any]] = ...,
        _unknown_tagged: tuple[tuple[int, bytes], ...] | None = ...,
    ) -> None: ...
    class ScramCredentialDeletion(Struct):
        """A struct of Kafka's AlterUserScramCredentialsRequest."""
        name: str
        mechanism: int
        def __init__(
            self,
            name: str = ...,
            mechanism: int = ...,
            _unknown_tagged: tuple[tuple[int, bytes], ...] | None = ...,
        ) -> None: ...
    class ScramCredentialUpsertion(Struct):
        """A struct of Kafka's AlterUserScramCredentialsRequest."""
        name: str
        mechanism: int
        iterations: int
        salt: bytes
        salted_password: bytes
        def __init__(
            self,
            name: str = ...,
            mechanism: int = ...,
            iterations: int = ...,
            salt: _Bytes = ...,
            salted_password: _Bytes = ...,
            _unknown_tagged: tuple[tuple[int, bytes], ...] | None = ...,
        ) -> None: ...

class AlterUserScramCredentialsResponse(Message):
    """Kafka's AlterUserScramCredentialsResponse (response 51, versions 0)."""
    api_key: ClassVar[Literal[51]]
    kind: ClassVar[Literal['response']]
    throttle_time_ms: int
    results: list[AlterUserScramCredentialsResponse.AlterUserScramCredentialsResult]
    def __init__(
        self,
        throttle_time_ms: int = ...,
        results: Sequence[AlterUserScramCredentialsResponse.AlterUserScramCredentialsResult | dict[str, Any]] = ...,
        _unknown_tagged: tuple[tuple[int, bytes], ...] | None = ...,
    ) -> None: ...
    class AlterUserScramCredentialsResult(Struct):
        """A struct of Kafka's AlterUserScramCredentialsResponse."""
        user: str
        error_code: int
        error_message: str | None
        def __init__(
            self,
            user: str = ...,
            error_code: int = ...,
            error_message: str | None = ...,
            _unknown_tagged: tuple[tuple[int, bytes], ...] | None = ...,
        ) -> None: ...

class ApiVersionsRequest(Message):
    """Kafka's ApiVersionsRequest (request 18, versions 0-5)."""
    api_key: ClassVar[Literal[18]]
    kind: ClassVar[Literal['request']]
    client_software_name: str
    client_software_version: str
    cluster_id: str | None
    node_id: int
    def __init__(
        self,
        client_software_name: str = ...,
        client_software_version: str = ...,
        cluster_id: str | None = ...,
        node_id: int = ...,
        _unknown_tagged: tuple[tuple[int, bytes], ...] | None = ...,
    ) -> None: ...

class ApiVersionsResponse(Message):
    """Kafka's ApiVersionsResponse (response 18, versions 0-5)."""
    api_key: ClassVar[Literal[18]]
    kind: ClassVar[Literal['response']]
    error_code: int
    api_keys: list[ApiVersionsResponse.ApiVersion]
    throttle_time_ms: int
    supported_features: list[ApiVersionsResponse.SupportedFeatureKey]
    finalized_features_epoch: int
    finalized_features: list[ApiVersionsResponse.FinalizedFeatureKey]
    zk_migration_ready: bool
    def __init__(
        self,
        error_code: int = ...,
        api_keys: Sequence[ApiVersionsResponse.ApiVersion | dict[str, Any]] = ...,
        throttle_time_ms: int = ...,
        supported_features: Sequence[ApiVersionsResponse.SupportedFeatureKey | dict[str, Any]] = ...,
        finalized_features_epoch: int = ...,
        finalized_features: Sequence[ApiVersionsResponse.FinalizedFeatureKey | dict[str, Any]] = ...,
        zk_migration_ready: bool = ...,
        _unknown_tagged: tuple[tuple[int, bytes], ...] | None = ...,
    ) -> None: ...
    class ApiVersion(Struct):
        """A struct of Kafka's ApiVersionsResponse."""
        api_key: int
        min_version: int
        max_version: int
        def __init__(
            self,
            api_key: int = ...,
            min_version: int = ...,
            max_version: int = ...,
            _unknown_tagged: tuple[tuple[int, bytes], ...] | None = ...,
        ) -> None: ...
    class SupportedFeatureKey(Struct):
        """A struct of Kafka's ApiVersionsResponse."""
        name: str
        min_version: int
        max_version: int
        def __init__(
            self,
            name: str = ...,
            min_version: int = ...,
            max_version: int = ...,
            _unknown_tagged: tuple[tuple[int, bytes], ...] | None = ...,
        ) -> None: ...
    class FinalizedFeatureKey(Struct):
        """A struct of Kafka's ApiVersionsResponse."""
        name: str
        max_version_level: int
        min_version_level: int
        def __init__(
            self,
            name: str = ...,
            max_version_level: int = ...,
            min_version_level: int = ...,
            _unknown_tagged: tuple[tuple[int, bytes], ...] | None = ...,
        ) -> None: ...

class AssignReplicasToDirsRequest(Message):
    """Kafka's AssignReplicasToDirsRequest (request 73, versions 0)."""
    api_key: ClassVar[Literal[73]]
    kind: ClassVar[Literal['request']]
    broker_id: int
    broker_epoch: int
    directories: list[AssignReplicasToDirsRequest.DirectoryData]
    def __init__(
        self,
        broker_id: int = ...,
        broker_epoch: int = ...,
        directories: Sequence[AssignReplicasToDirsRequest.DirectoryData | dict[str, Any]] = ...,
        _unknown_tagged: tuple[tuple[int, bytes], ...] | None = ...,
    ) -> None: ...
    class DirectoryData(Struct):
        """A struct of Kafka's AssignReplicasToDirsRequest."""
        id: uuid.UUID
        topics: list[AssignReplicasToDirsRequest.TopicData]
        def __init__(
            self,
            id: uuid.UUID = ...,
            topics: Sequence[AssignReplicasToDirsRequest.TopicData | dict[str, Any]] = ...,
            _unknown_tagged: tuple[tuple[int, bytes], ...] | None = ...,
        ) -> None: ...
    class TopicData(Struct):
        """A struct of Kafka's AssignReplicasToDirsRequest."""
        topic_id: uuid.UUID
        partitions: list[AssignReplicasToDirsRequest.PartitionData]
        def __init__(
            self,
            topic_id: uuid.UUID = ...,
            partitions: Sequence[AssignReplicasToDirsRequest.PartitionData | dict[str, Any]] = ...,
            _unknown_tagged: tuple[tuple[int, bytes], ...] | None = ...,
        ) -> None: ...
    class PartitionData(Struct):
        """A struct of Kafka's AssignReplicasToDirsRequest."""
        partition_index: int
        def __init__(
            self,
            partition_index: int = ...,
            _unknown_tagged: tuple[tuple[int, bytes], ...] | None = ...,
        ) -> None: ...

class AssignReplicasToDirsResponse(Message):
    """Kafka's AssignReplicasToDirsResponse (response 73, versions 0)."""
    api_key: ClassVar[Literal[73]]
    kind: ClassVar[Literal['response']]
    throttle_time_ms: int
    error_code: int
    directories: list[AssignReplicasToDirsResponse.DirectoryData]
    def __init__(
        self,
        throttle_time_ms: int = ...,
        error_code: int = ...,
        directories: Sequence[AssignReplicasToDirsResponse.DirectoryData | dict[str, Any]] = ...,
        _unknown_tagged: tuple[tuple[int, bytes], ...] | None = ...,
    ) -> None: ...
    class DirectoryData(Struct):
        """A struct of Kafka's AssignReplicasToDirsResponse."""
        id: uuid.UUID
        topics: list[AssignReplicasToDirsResponse.TopicData]
        def __init__(
            self,
            id: uuid.UUID = ...,
            topics: Sequence[AssignReplicasToDirsResponse.TopicData | dict[str, Any]] = ...,
            _unknown_tagged: tuple[tuple[int, bytes], ...] | None = ...,
        ) -> None: ...
    class TopicData(Struct):
        """A struct of Kafka's AssignReplicasToDirsResponse."""
        topic_id: uuid.UUID
        partitions: list[AssignReplicasToDirsResponse.PartitionData]
        def __init__(
            self,
            topic_id: uuid.UUID = ...,
            partitions: Sequence[AssignReplicasToDirsResponse.PartitionData | dict[str, Any]] = ...,
            _unknown_tagged: tuple[tuple[int, bytes], ...] | None = ...,
        ) -> None: ...
    class PartitionData(Struct):
        """A struct of Kafka's AssignReplicasToDirsResponse."""
        partition_index: int
        error_code: int
        def __init__(
            self,
            partition_index: int = ...,
            error_code: int = ...,
            _unknown_tagged: tuple[tuple[int, bytes], ...] | None = ...,
        ) -> None: ...

class BeginQuorumEpochRequest(Message):
    """Kafka's BeginQuorumEpochRequest (request 53, versions 0-1)."""
    api_key: ClassVar[Literal[53]]
    kind: ClassVar[Literal['request']]
    cluster_id: str | None
    voter_id: int
    topics: list[BeginQuorumEpochRequest.TopicData]
    leader_endpoints: list[BeginQuorumEpochRequest.LeaderEndpoint]
    def __init__(
        self,
        cluster_id: str | None = ...,
        voter_id: int = ...,
        topics: Sequence[BeginQuorumEpochRequest.TopicData | dict[str, Any]] = ...,
        leader_endpoints: Sequence[BeginQuorumEpochRequest.LeaderEndpoint | dict[str, Any]] = ...,
        _unknown_tagged: tuple[tuple[int, bytes], ...] | None = ...,
    ) -> None: ...
    class TopicData(Struct):
        """A struct of Kafka's BeginQuorumEpochRequest."""
        topic_name: str
        partitions: list[BeginQuorumEpochRequest.PartitionData]
        def __init__(
            self,
            topic_name: str = ...,
            partitions: Sequence[BeginQuorumEpochRequest.PartitionData | dict[str, Any]] = ...,
            _unknown_tagged: tuple[tuple[int, bytes], ...] | None = ...,
        ) -> None: ...
    class PartitionData(Struct):
        """A struct of Kafka's BeginQuorumEpochRequest."""
        partition_index: int
        voter_directory_id: uuid.UUID
        leader_id: int
        leader_epoch: int
        def __init__(
            self,
            partition_index: int = ...,
            voter_directory_id: uuid.UUID = ...,
            leader_id: int = ...,
            leader_epoch: int = ...,
            _unknown_tagged: tuple[tuple[int, bytes], ...] | None = ...,
        ) -> None: ...
    class LeaderEndpoint(Struct):
        """A struct of Kafka's BeginQuorumEpochRequest."""
        name: str
        host: str
        port: int
        def __init__(
            self,
            name: str = ...,
            host: str = ...,
            port: int = ...,
            _unknown_tagged: tuple[tuple[int, bytes], ...] | None = ...,
        ) -> None: ...

class BeginQuorumEpochResponse(Message):
    """Kafka's BeginQuorumEpochResponse (response 53, versions 0-1)."""
    api_key: ClassVar[Literal[53]]
    kind: ClassVar[Literal['response']]
    error_code: int
    topics: list[BeginQuorumEpochResponse.TopicData]
    node_endpoints: list[BeginQuorumEpochResponse.NodeEndpoint]
    def __init__(
        self,
        error_code: int = ...,
        topics: Sequence[BeginQuorumEpochResponse.TopicData | dict[str, Any]] = ...,
        node_endpoints: Sequence[BeginQuorumEpochResponse.NodeEndpoint | dict[str, Any]] = ...,
        _unknown_tagged: tuple[tuple[int, bytes], ...] | None = ...,
    ) -> None: ...
    class TopicData(Struct):
        """A struct of Kafka's BeginQuorumEpochResponse."""
        topic_name: str
        partitions: list[BeginQuorumEpochResponse.PartitionData]
        def __init__(
            self,
            topic_name: str = ...,
            partitions: Sequence[BeginQuorumEpochResponse.PartitionData | dict[str, Any]] = ...,
            _unknown_tagged: tuple[tuple[int, bytes], ...] | None = ...,
        ) -> None: ...
    class PartitionData(Struct):
        """A struct of Kafka's BeginQuorumEpochResponse."""
        partition_index: int
        error_code: int
        leader_id: int
        leader_epoch: int
        def __init__(
            self,
            partition_index: int = ...,
            error_code: int = ...,
            leader_id: int = ...,
            leader_epoch: int = ...,
            _unknown_tagged: tuple[tuple[int, bytes], ...] | None = ...,
        ) -> None: ...
    class NodeEndpoint(Struct):
        """A struct of Kafka's BeginQuorumEpochResponse."""
        node_id: int
        host: str
        port: int
        def __init__(
            self,
            node_id: int = ...,
            host: str = ...,
            port: int = ...,
            _unknown_tagged: tuple[tuple[int, bytes], ...] | None = ...,
        ) -> None: ...

class BrokerHeartbeatRequest(Message):
    """Kafka's BrokerHeartbeatRequest (request 63, versions 0-2)."""
    api_key: ClassVar[Literal[63]]
    kind: ClassVar[Literal['request']]
    broker_id: int
    broker_epoch: int
    current_metadata_offset: int
    want_fence: bool
    want_shut_down: bool
    offline_log_dirs: list[uuid.UUID]
    cordoned_log_dirs: list[uuid.UUID] | None
    def __init__(
        self,
        broker_id: int = ...,
        broker_epoch: int = ...,
        current_metadata_offset: int = ...,
        want_fence: bool = ...,
        want_shut_down: bool = ...,
        offline_log_dirs: Sequence[uuid.UUID] = ...,
        cordoned_log_dirs: Sequence[uuid.UUID] | None = ...,
        _unknown_tagged: tuple[tuple[int, bytes], ...] | None = ...,
    ) -> None: ...

class BrokerHeartbeatResponse(Message):
    """Kafka's BrokerHeartbeatResponse (response 63, versions 0-2)."""
    api_key: ClassVar[Literal[63]]
    kind: ClassVar[Literal['response']]
    throttle_time_ms: int
    error_code: int
    is_caught_up: bool
    is_fenced: bool
    should_shut_down: bool
    def __init__(
        self,
        throttle_time_ms: int = ...,
        error_code: int = ...,
        is_caught_up: bool = ...,
        is_fenced: bool = ...,
        should_shut_down: bool = ...,
        _unknown_tagged: tuple[tuple[int, bytes], ...] | None = ...,
    ) -> None: ...

class BrokerRegistrationRequest(Message):
    """Kafka's BrokerRegistrationRequest (request 62, versions 0-4)."""
    api_key: ClassVar[Literal[62]]
    kind: ClassVar[Literal['request']]
    broker_id: int
    cluster_id: str
    incarnation_id: uuid.UUID
    listeners: list[BrokerRegistrationRequest.Listener]
    features: list[BrokerRegistrationRequest.Feature]
    rack: str | None
    is_migrating_zk_broker: bool
    log_dirs: list[uuid.UUID]
    previous_broker_epoch: int
    def __init__(
        self,
        broker_id: int = ...,
        cluster_id: str = ...,
        incarnation_id: uuid.UUID = ...,
        listeners: Sequence[BrokerRegistrationRequest.Listener | dict[str, Any]] = ...,
        features: Sequence[BrokerRegistrationRequest.Feature | dict[str, Any]] = ...,
        rack: str | None = ...,
        is_migrating_zk_broker: bool = ...,
        log_dirs: Sequence[uuid.UUID] = ...,
        previous_broker_epoch: int = ...,
        _unknown_tagged: tuple[tuple[int, bytes], ...] | None = ...,
    ) -> None: ...
    class Listener(Struct):
        """A struct of Kafka's BrokerRegistrationRequest."""
        name: str
        host: str
        port: int
        security_protocol: int
        def __init__(
            self,
            name: str = ...,
            host: str = ...,
            port: int = ...,
            security_protocol: int = ...,
            _unknown_tagged: tuple[tuple[int, bytes], ...] | None = ...,
        ) -> None: ...
    class Feature(Struct):
        """A struct of Kafka's BrokerRegistrationRequest."""
        name: str
        min_supported_version: int
        max_supported_version: int
        def __init__(
            self,
            name: str = ...,
            min_supported_version: int = ...,
            max_supported_version: int = ...,
            _unknown_tagged: tuple[tuple[int, bytes], ...] | None = ...,
        ) -> None: ...

class BrokerRegistrationResponse(Message):
    """Kafka's BrokerRegistrationResponse (response 62, versions 0-4)."""
    api_key: ClassVar[Literal[62]]
    kind: ClassVar[Literal['response']]
    throttle_time_ms: int
    error_code: int
    broker_epoch: int
    def __init__(
        self,
        throttle_time_ms: int = ...,
        error_code: int = ...,
        broker_epoch: int = ...,
        _unknown_tagged: tuple[tuple[int, bytes], ...] | None = ...,
    ) -> None: ...

class ConsumerGroupDescribeRequest(Message):
    """Kafka's ConsumerGroupDescribeRequest (request 69, versions 0-1)."""
    api_key: ClassVar[Literal[69]]
    kind: ClassVar[Literal['request']]
    group_ids: list[str]
    include_authorized_operations: bool
    def __init__(
        self,
        group_ids: Sequence[str] = ...,
        include_authorized_operations: bool = ...,
        _unknown_tagged: tuple[tuple[int, bytes], ...] | None = ...,
    ) -> None: ...

class ConsumerGroupDescribeResponse(Message):
    """Kafka's ConsumerGroupDescribeResponse (response 69, versions 0-1)."""
    api_key: ClassVar[Literal[69]]
    kind: ClassVar[Literal['response']]
    throttle_time_ms: int
    groups: list[ConsumerGroupDescribeResponse.DescribedGroup]
    def __init__(
        self,
        throttle_time_ms: int = ...,
        groups: Sequence[ConsumerGroupDescribeResponse.DescribedGroup | dict[str, Any]] = ...,
        _unknown_tagged: tuple[tuple[int, bytes], ...] | None = ...,
    ) -> None: ...
    class DescribedGroup(Struct):
        """A struct of Kafka's ConsumerGroupDescribeResponse."""
        error_code: int
        error_message: str | None
        group_id: str
        group_state: str
        group_epoch: int
        assignment_epoch: int
        assignor_name: str
        members: list[ConsumerGroupDescribeResponse.Member]
        authorized_operations: int
        def __init__(
            self,
            error_code: int = ...,
            error_message: str | None = ...,
            group_id: str = ...,
            group_state: str = ...,
            group_epoch: int = ...,
            assignment_epoch: int = ...,
            assignor_name: str = ...,
            members: Sequence[ConsumerGroupDescribeResponse.Member | dict[str, Any]] = ...,
            authorized_operations: int = ...,
            _unknown_tagged: tuple[tuple[int, bytes], ...] | None = ...,
        ) -> None: ...
    class Member(Struct):
        """A struct of Kafka's ConsumerGroupDescribeResponse."""
        member_id: str
        instance_id: str | None
        rack_id: str | None
        member_epoch: int
        client_id: str
        client_host: str
        subscribed_topic_names: list[str]
        subscribed_topic_regex: str | None
        assignment: ConsumerGroupDescribeResponse.Assignment
        target_assignment: ConsumerGroupDescribeResponse.Assignment
        member_type: int
        def __init__(
            self,
            member_id: str = ...,
            instance_id: str | None = ...,
            rack_id: str | None = ...,
            member_epoch: int = ...,
            client_id: str = ...,
            client_host: str = ...,
            subscribed_topic_names: Sequence[str] = ...,
            subscribed_topic_regex: str | None = ...,
            assignment: ConsumerGroupDescribeResponse.Assignment | dict[str, Any] = ...,
            target_assignment: ConsumerGroupDescribeResponse.Assignment | dict[str, Any] = ...,
            member_type: int = ...,
            _unknown_tagged: tuple[tuple[int, bytes], ...] | None = ...,
        ) -> None: ...
    class Assignment(Struct):
        """A struct of Kafka's ConsumerGroupDescribeResponse."""
        topic_partitions: list[ConsumerGroupDescribeResponse.TopicPartitions]
        def __init__(
            self,
            topic_partitions: Sequence[ConsumerGroupDescribeResponse.TopicPartitions | dict[str, Any]] = ...,
            _unknown_tagged: tuple[tuple[int, bytes], ...] | None = ...,
        ) -> None: ...
    class TopicPartitions(Struct):
        """A struct of Kafka's ConsumerGroupDescribeResponse."""
        topic_id: uuid.UUID
        topic_name: str
        partitions: list[int]
        def __init__(
            self,
            topic_id: uuid.UUID = ...,
            topic_name: str = ...,
            partitions: Sequence[int] = ...,
            _unknown_tagged: tuple[tuple[int, bytes], ...] | None = ...,
        ) -> None: ...

class ConsumerGroupHeartbeatRequest(Message):
    """Kafka's ConsumerGroupHeartbeatRequest (request 68, versions 0-1)."""
    api_key: ClassVar[Literal[68]]
    kind: ClassVar[Literal['request']]
    group_id: str
    member_id: str
    member_epoch: int
    instance_id: str | None
    rack_id: str | None
    rebalance_timeout_ms: int
    subscribed_topic_names: list[str] | None
    subscribed_topic_regex: str | None
    server_assignor: str | None
    topic_partitions: list[ConsumerGroupHeartbeatRequest.TopicPartitions] | None
    def __init__(
        self,
        group_id: str = ...,
        member_id: str = ...,
        member_epoch: int = ...,
        instance_id: str | None = ...,
        rack_id: str | None = ...,
        rebalance_timeout_ms: int = ...,
        subscribed_topic_names: Sequence[str] | None = ...,
        subscribed_topic_regex: str | None = ...,
        server_assignor: str | None = ...,
        topic_partitions: Sequence[ConsumerGroupHeartbeatRequest.TopicPartitions | dict[str, Any]] | None = ...,
        _unknown_tagged: tuple[tuple[int, bytes], ...] | None = ...,
    ) -> None: ...
    class TopicPartitions(Struct):
        """A struct of Kafka's ConsumerGroupHeartbeatRequest."""
        topic_id: uuid.UUID
        partitions: list[int]
        def __init__(
            self,
            topic_id: uuid.UUID = ...,
            partitions: Sequence[int] = ...,
            _unknown_tagged: tuple[tuple[int, bytes], ...] | None = ...,
        ) -> None: ...

class ConsumerGroupHeartbeatResponse(Message):
    """Kafka's ConsumerGroupHeartbeatResponse (response 68, versions 0-1)."""
    api_key: ClassVar[Literal[68]]
    kind: ClassVar[Literal['response']]
    throttle_time_ms: int
    error_code: int
    error_message: str | None
    member_id: str | None
    member_epoch: int
    heartbeat_interval_ms: int
    assignment: ConsumerGroupHeartbeatResponse.Assignment | None
    def __init__(
        self,
        throttle_time_ms: int = ...,
        error_code: int = ...,
        error_message: str | None = ...,
        member_id: str | None = ...,
        member_epoch: int = ...,
        heartbeat_interval_ms: int = ...,
        assignment: ConsumerGroupHeartbeatResponse.Assignment | dict[str, Any] | None = ...,
        _unknown_tagged: tuple[tuple[int, bytes], ...] | None = ...,
    ) -> None: ...
    class Assignment(Struct):
        """A struct of Kafka's ConsumerGroupHeartbeatResponse."""
        topic_partitions: list[ConsumerGroupHeartbeatResponse.TopicPartitions]
        def __init__(
            self,
            topic_partitions: Sequence[ConsumerGroupHeartbeatResponse.TopicPartitions | dict[str, Any]] = ...,
            _unknown_tagged: tuple[tuple[int, bytes], ...] | None = ...,
        ) -> None: ...
    class TopicPartitions(Struct):
        """A struct of Kafka's ConsumerGroupHeartbeatResponse."""
        topic_id: uuid.UUID
        partitions: list[int]
        def __init__(
            self,
            topic_id: uuid.UUID = ...,
            partitions: Sequence[int] = ...,
            _unknown_tagged: tuple[tuple[int, bytes], ...] | None = ...,
        ) -> None: ...

class ControlledShutdownRequest(Message):
    """Kafka's ControlledShutdownRequest (request 7, versions none)."""
    api_key: ClassVar[Literal[7]]
    kind: ClassVar[Literal['request']]
    def __init__(
        self,
        _unknown_tagged: tuple[tuple[int, bytes], ...] | None = ...,
    ) -> None: ...

class ControlledShutdownResponse(Message):
    """Kafka's ControlledShutdownResponse (response 7, versions none)."""
    api_key: ClassVar[Literal[7]]
    kind: ClassVar[Literal['response']]
    def __init__(
        self,
        _unknown_tagged: tuple[tuple[int, bytes], ...] | None = ...,
    ) -> None: ...

class ControllerRegistrationRequest(Message):
    """Kafka's ControllerRegistrationRequest (request 70, versions 0)."""
    api_key: ClassVar[Literal[70]]
    kind: ClassVar[Literal['request']]
    controller_id: int
    incarnation_id: uuid.UUID
    zk_migration_ready: bool
    listeners: list[ControllerRegistrationRequest.Listener]
    features: list[ControllerRegistrationRequest.Feature]
    def __init__(
        self,
        controller_id: int = ...,
        incarnation_id: uuid.UUID = ...,
        zk_migration_ready: bool = ...,
        listeners: Sequence[ControllerRegistrationRequest.Listener | dict[str, Any]] = ...,
        features: Sequence[ControllerRegistrationRequest.Feature | dict[str, Any]] = ...,
        _unknown_tagged: tuple[tuple[int, bytes], ...] | None = ...,
    ) -> None: ...
    class Listener(Struct):
        """A struct of Kafka's ControllerRegistrationRequest."""
        name: str
        host: str
        port: int
        security_protocol: int
        def __init__(
            self,
            name: str = ...,
            host: str = ...,
            port: int = ...,
            security_protocol: int = ...,
            _unknown_tagged: tuple[tuple[int, bytes], ...] | None = ...,
        ) -> None: ...
    class Feature(Struct):
        """A struct of Kafka's ControllerRegistrationRequest."""
        name: str
        min_supported_version: int
        max_supported_version: int
        def __init__(
            self,
            name: str = ...,
            min_supported_version: int = ...,
            max_supported_version: int = ...,
            _unknown_tagged: tuple[tuple[int, bytes], ...] | None = ...,
        ) -> None: ...

class ControllerRegistrationResponse(Message):
    """Kafka's ControllerRegistrationResponse (response 70, versions 0)."""
    api_key: ClassVar[Literal[70]]
    kind: ClassVar[Literal['response']]
    throttle_time_ms: int
    error_code: int
    error_message: str | None
    def __init__(
        self,
        throttle_time_ms: int = ...,
        error_code: int = ...,
        error_message: str | None = ...,
        _unknown_tagged: tuple[tuple[int, bytes], ...] | None = ...,
    ) -> None: ...

class CreateAclsRequest(Message):
    """Kafka's CreateAclsRequest (request 30, versions 1-3)."""
    api_key: ClassVar[Literal[30]]
    kind: ClassVar[Literal['request']]
    creations: list[CreateAclsRequest.AclCreation]
    def __init__(
        self,
        creations: Sequence[CreateAclsRequest.AclCreation | dict[str, Any]] = ...,
        _unknown_tagged: tuple[tuple[int, bytes], ...] | None = ...,
    ) -> None: ...
    class AclCreation(Struct):
        """A struct of Kafka's CreateAclsRequest."""
        resource_type: int
        resource_name: str
        resource_pattern_type: int
        principal: str
        host: str
        operation: int
        permission_type: int
        def __init__(
            self,
            resource_type: int = ...,
            resource_name: str = ...,
            resource_pattern_type: int = ...,
            principal: str = ...,
            host: str = ...,
            operation: int = ...,
            permission_type: int = ...,
            _unknown_tagged: tuple[tuple[int, bytes], ...] | None = ...,
        ) -> None: ...

class CreateAclsResponse(Message):
    """Kafka's CreateAclsResponse (response 30, versions 1-3)."""
    api_key: ClassVar[Literal[30]]
    kind: ClassVar[Literal['response']]
    throttle_time_ms: int
    results: list[CreateAclsResponse.AclCreationResult]
    def __init__(
        self,
        throttle_time_ms: int = ...,
        results: Sequence[CreateAclsResponse.AclCreationResult | dict[str, Any]] = ...,
        _unknown_tagged: tuple[tuple[int, bytes], ...] | None = ...,
    ) -> None: ...
    class AclCreationResult(Struct):
        """A struct of Kafka's CreateAclsResponse."""
        error_code: int
        error_message: str | None
        def __init__(
            self,
            error_code: int = ...,
            error_message: str | None = ...,
            _unknown_tagged: tuple[tuple[int, bytes], ...] | None = ...,
        ) -> None: ...

class CreateDelegationTokenRequest(Message):
    """Kafka's CreateDelegationTokenRequest (request 38, versions 1-3)."""
    api_key: ClassVar[Literal[38]]
    kind: ClassVar[Literal['request']]
    owner_principal_type: str | None
    owner_principal_name: str | None
    renewers: list[CreateDelegationTokenRequest.CreatableRenewers]
    max_lifetime_ms: int
    def __init__(
        self,
        owner_principal_type: str | None = ...,
        owner_principal_name: str | None = ...,
        renewers: Sequence[CreateDelegationTokenRequest.CreatableRenewers | dict[str, Any]] = ...,
        max_lifetime_ms: int = ...,
        _unknown_tagged: tuple[tuple[int, bytes], ...] | None = ...,
    ) -> None: ...
    class CreatableRenewers(Struct):
        """A struct of Kafka's CreateDelegationTokenRequest."""
        principal_type: str
        principal_name: str
        def __init__(
            self,
            principal_type: str = ...,
            principal_name: str = ...,
            _unknown_tagged: tuple[tuple[int, bytes], ...] | None = ...,
        ) -> None: ...

class CreateDelegationTokenResponse(Message):
    """Kafka's CreateDelegationTokenResponse (response 38, versions 1-3)."""
    api_key: ClassVar[Literal[38]]
    kind: ClassVar[Literal['response']]
    error_code: int
    principal_type: str
    principal_name: str
    token_requester_principal_type: str
    token_requester_principal_name: str
    issue_timestamp_ms: int
    expiry_timestamp_ms: int
    max_timestamp_ms: int
    token_id: str
    hmac: bytes
    throttle_time_ms: int
    def __init__(
        self,
        error_code: int = ...,
        principal_type: str = ...,
        principal_name: str = ...,
        token_requester_principal_type: str = ...,
        token_requester_principal_name: str = ...,
        issue_timestamp_ms: int = ...,
        expiry_timestamp_ms: int = ...,
        max_timestamp_ms: int = ...,
        token_id: str = ...,
        hmac: _Bytes = ...,
        throttle_time_ms: int = ...,
        _unknown_tagged: tuple[tuple[int, bytes], ...] | None = ...,
    ) -> None: ...

class CreatePartitionsRequest(Message):
    """Kafka's CreatePartitionsRequest (request 37, versions 0-3)."""
    api_key: ClassVar[Literal[37]]
    kind: ClassVar[Literal['request']]
    topics: list[CreatePartitionsRequest.CreatePartitionsTopic]
    timeout_ms: int
    validate_only: bool
    def __init__(
        self,
        topics: Sequence[CreatePartitionsRequest.CreatePartitionsTopic | dict[str, Any]] = ...,
        timeout_ms: int = ...,
        validate_only: bool = ...,
        _unknown_tagged: tuple[tuple[int, bytes], ...] | None = ...,
    ) -> None: ...
    class CreatePartitionsTopic(Struct):
        """A struct of Kafka's CreatePartitionsRequest."""
        name: str
        count: int
        assignments: list[CreatePartitionsRequest.CreatePartitionsAssignment] | None
        def __init__(
            self,
            name: str = ...,
            count: int = ...,
            assignments: Sequence[CreatePartitionsRequest.CreatePartitionsAssignment | dict[str, Any]] | None = ...,
            _unknown_tagged: tuple[tuple[int, bytes], ...] | None = ...,
        ) -> None: ...
    class CreatePartitionsAssignment(Struct):
        """A struct of Kafka's CreatePartitionsRequest."""
        broker_ids: list[int]
        def __init__(
            self,
            broker_ids: Sequence[int] = ...,
            _unknown_tagged: tuple[tuple[int, bytes], ...] | None = ...,
        ) -> None: ...

class CreatePartitionsResponse(Message):
    """Kafka's CreatePartitionsResponse (response 37, versions 0-3)."""
    api_key: ClassVar[Literal[37]]
    kind: ClassVar[Literal['response']]
    throttle_time_ms: int
    results: list[CreatePartitionsResponse.CreatePartitionsTopicResult]
    def __init__(
        self,
        throttle_time_ms: int = ...,
        results: Sequence[CreatePartitionsResponse.CreatePartitionsTopicResult | dict[str, Any]] = ...,
        _unknown_tagged: tuple[tuple[int, bytes], ...] | None = ...,
    ) -> None: ...
    class CreatePartitionsTopicResult(Struct):
        """A struct of Kafka's CreatePartitionsResponse."""
        name: str
        error_code: int
        error_message: str | None
        def __init__(
            self,
            name: str = ...,
            error_code: int = ...,
            error_message: str | None = ...,
            _unknown_tagged: tuple[tuple[int, bytes], ...] | None = ...,
        ) -> None: ...

class CreateTopicsRequest(Message):
    """Kafka's CreateTopicsRequest (request 19, versions 2-7)."""
    api_key: ClassVar[Literal[19]]
    kind: ClassVar[Literal['request']]
    topics: list[CreateTopicsRequest.CreatableTopic]
    timeout_ms: int
    validate_only: bool
    def __init__(
        self,
        topics: Sequence[CreateTopicsRequest.CreatableTopic | dict[str, Any]] = ...,
        timeout_ms: int = ...,
        validate_only: bool = ...,
        _unknown_tagged: tuple[tuple[int, bytes], ...] | None = ...,
    ) -> None: ...
    class CreatableTopic(Struct):
        """A struct of Kafka's CreateTopicsRequest."""
        name: str
        num_partitions: int
        replication_factor: int
        assignments: list[CreateTopicsRequest.CreatableReplicaAssignment]
        configs: list[CreateTopicsRequest.CreatableTopicConfig]
        def __init__(
            self,
            name: str = ...,
            num_partitions: int = ...,
            replication_factor: int = ...,
            assignments: Sequence[CreateTopicsRequest.CreatableReplicaAssignment | dict[str, Any]] = ...,
            configs: Sequence[CreateTopicsRequest.CreatableTopicConfig | dict[str, Any]] = ...,
            _unknown_tagged: tuple[tuple[int, bytes], ...] | None = ...,
        ) -> None: ...
    class CreatableReplicaAssignment(Struct):
        """A struct of Kafka's CreateTopicsRequest."""
        partition_index: int
        broker_ids: list[int]
        def __init__(
            self,
            partition_index: int = ...,
            broker_ids: Sequence[int] = ...,
            _unknown_tagged: tuple[tuple[int, bytes], ...] | None = ...,
        ) -> None: ...
    class CreatableTopicConfig(Struct):
        """A struct of Kafka's CreateTopicsRequest."""
        name: str
        value: str | None
        def __init__(
            self,
            name: str = ...,
            value: str | None = ...,
            _unknown_tagged: tuple[tuple[int, bytes], ...] | None = ...,
        ) -> None: ...

class CreateTopicsResponse(Message):
    """Kafka's CreateTopicsResponse (response 19, versions 2-7)."""
    api_key: ClassVar[Literal[19]]
    kind: ClassVar[Literal['response']]
    throttle_time_ms: int
    topics: list[CreateTopicsResponse.CreatableTopicResult]
    def __init__(
        self,
        throttle_time_ms: int = ...,
        topics: Sequence[CreateTopicsResponse.CreatableTopicResult | dict[str, Any]] = ...,
        _unknown_tagged: tuple[tuple[int, bytes], ...] | None = ...,
    ) -> None: ...
    class CreatableTopicResult(Struct):
        """A struct of Kafka's CreateTopicsResponse."""
        name: str
        topic_id: uuid.UUID
        error_code: int
        error_message: str | None
        topic_config_error_code: int
        num_partitions: int
        replication_factor: int
        configs: list[CreateTopicsResponse.CreatableTopicConfigs] | None
        def __init__(
            self,
            name: str = ...,
            topic_id: uuid.UUID = ...,
            error_code: int = ...,
            error_message: str | None = ...,
            topic_config_error_code: int = ...,
            num_partitions: int = ...,
            replication_factor: int = ...,
            configs: Sequence[CreateTopicsResponse.CreatableTopicConfigs | dict[str, Any]] | None = ...,
            _unknown_tagged: tuple[tuple[int, bytes], ...] | None = ...,
        ) -> None: ...
    class CreatableTopicConfigs(Struct):
        """A struct of Kafka's CreateTopicsResponse."""
        name: str
        value: str | None
        read_only: bool
        config_source: int
        is_sensitive: bool
        def __init__(
            self,
            name: str = ...,
            value: str | None = ...,
            read_only: bool = ...,
            config_source: int = ...,
            is_sensitive: bool = ...,
            _unknown_tagged: tuple[tuple[int, bytes], ...] | None = ...,
        ) -> None: ...

class DeleteAclsRequest(Message):
    """Kafka's DeleteAclsRequest (request 31, versions 1-3)."""
    api_key: ClassVar[Literal[31]]
    kind: ClassVar[Literal['request']]
    filters: list[DeleteAclsRequest.DeleteAclsFilter]
    def __init__(
        self,
        filters: Sequence[DeleteAclsRequest.DeleteAclsFilter | dict[str, Any]] = ...,
        _unknown_tagged: tuple[tuple[int, bytes], ...] | None = ...,
    ) -> None: ...
    class DeleteAclsFilter(Struct):
        """A struct of Kafka's DeleteAclsRequest."""
        resource_type_filter: int
        resource_name_filter: str | None
        pattern_type_filter: int
        principal_filter: str | None
        host_filter: str | None
        operation: int
        permission_type: int
        def __init__(
            self,
            resource_type_filter: int = ...,
            resource_name_filter: str | None = ...,
            pattern_type_filter: int = ...,
            principal_filter: str | None = ...,
            host_filter: str | None = ...,
            operation: int = ...,
            permission_type: int = ...,
            _unknown_tagged: tuple[tuple[int, bytes], ...] | None = ...,
        ) -> None: ...

class DeleteAclsResponse(Message):
    """Kafka's DeleteAclsResponse (response 31, versions 1-3)."""
    api_key: ClassVar[Literal[31]]
    kind: ClassVar[Literal['response']]
    throttle_time_ms: int
    filter_results: list[DeleteAclsResponse.DeleteAclsFilterResult]
    def __init__(
        self,
        throttle_time_ms: int = ...,
        filter_results: Sequence[DeleteAclsResponse.DeleteAclsFilterResult | dict[str, Any]] = ...,
        _unknown_tagged: tuple[tuple[int, bytes], ...] | None = ...,
    ) -> None: ...
    class DeleteAclsFilterResult(Struct):
        """A struct of Kafka's DeleteAclsResponse."""
        error_code: int
        error_message: str | None
        matching_acls: list[DeleteAclsResponse.DeleteAclsMatchingAcl]
        def __init__(
            self,
            error_code: int = ...,
            error_message: str | None = ...,
            matching_acls: Sequence[DeleteAclsResponse.DeleteAclsMatchingAcl | dict[str, Any]] = ...,
            _unknown_tagged: tuple[tuple[int, bytes], ...] | None = ...,
        ) -> None: ...
    class DeleteAclsMatchingAcl(Struct):
        """A struct of Kafka's DeleteAclsResponse."""
        error_code: int
        error_message: str | None
        resource_type: int
        resource_name: str
        pattern_type: int
        principal: str
        host: str
        operation: int
        permission_type: int
        def __init__(
            self,
            error_code: int = ...,
            error_message: str | None = ...,
            resource_type: int = ...,
            resource_name: str = ...,
            pattern_type: int = ...,
            principal: str = ...,
            host: str = ...,
            operation: int = ...,
            permission_type: int = ...,
            _unknown_tagged: tuple[tuple[int, bytes], ...] | None = ...,
        ) -> None: ...

class DeleteGroupsRequest(Message):
    """Kafka's DeleteGroupsRequest (request 42, versions 0-3)."""
    api_key: ClassVar[Literal[42]]
    kind: ClassVar[Literal['request']]
    groups_names: list[str]
    def __init__(
        self,
        groups_names: Sequence[str] = ...,
        _unknown_tagged: tuple[tuple[int, bytes], ...] | None = ...,
    ) -> None: ...

class DeleteGroupsResponse(Message):
    """Kafka's DeleteGroupsResponse (response 42, versions 0-3)."""
    api_key: ClassVar[Literal[42]]
    kind: ClassVar[Literal['response']]
    throttle_time_ms: int
    results: list[DeleteGroupsResponse.DeletableGroupResult]
    def __init__(
        self,
        throttle_time_ms: int = ...,
        results: Sequence[DeleteGroupsResponse.DeletableGroupResult | dict[str, Any]] = ...,
        _unknown_tagged: tuple[tuple[int, bytes], ...] | None = ...,
    ) -> None: ...
    class DeletableGroupResult(Struct):
        """A struct of Kafka's DeleteGroupsResponse."""
        group_id: str
        error_code: int
        error_message: str | None
        def __init__(
            self,
            group_id: str = ...,
            error_code: int = ...,
            error_message: str | None = ...,
            _unknown_tagged: tuple[tuple[int, bytes], ...] | None = ...,
        ) -> None: ...

class DeleteRecordsRequest(Message):
    """Kafka's DeleteRecordsRequest (request 21, versions 0-2)."""
    api_key: ClassVar[Literal[21]]
    kind: ClassVar[Literal['request']]
    topics: list[DeleteRecordsRequest.DeleteRecordsTopic]
    timeout_ms: int
    def __init__(
        self,
        topics: Sequence[DeleteRecordsRequest.DeleteRecordsTopic | dict[str, Any]] = ...,
        timeout_ms: int = ...,
        _unknown_tagged: tuple[tuple[int, bytes], ...] | None = ...,
    ) -> None: ...
    class DeleteRecordsTopic(Struct):
        """A struct of Kafka's DeleteRecordsRequest."""
        name: str
        partitions: list[DeleteRecordsRequest.DeleteRecordsPartition]
        def __init__(
            self,
            name: str = ...,
            partitions: Sequence[DeleteRecordsRequest.DeleteRecordsPartition | dict[str, Any]] = ...,
            _unknown_tagged: tuple[tuple[int, bytes], ...] | None = ...,
        ) -> None: ...
    class DeleteRecordsPartition(Struct):
        """A struct of Kafka's DeleteRecordsRequest."""
        partition_index: int
        offset: int
        def __init__(
            self,
            partition_index: int = ...,
            offset: int = ...,
            _unknown_tagged: tuple[tuple[int, bytes], ...] | None = ...,
        ) -> None: ...

class DeleteRecordsResponse(Message):
    """Kafka's DeleteRecordsResponse (response 21, versions 0-2)."""
    api_key: ClassVar[Literal[21]]
    kind: ClassVar[Literal['response']]
    throttle_time_ms: int
    topics: list[DeleteRecordsResponse.DeleteRecordsTopicResult]
    def __init__(
        self,
        throttle_time_ms: int = ...,
        topics: Sequence[DeleteRecordsResponse.DeleteRecordsTopicResult | dict[str, Any]] = ...,
        _unknown_tagged: tuple[tuple[int, bytes], ...] | None = ...,
    ) -> None: ...
    class DeleteRecordsTopicResult(Struct):
        """A struct of Kafka's DeleteRecordsResponse."""
        name: str
        partitions: list[DeleteRecordsResponse.DeleteRecordsPartitionResult]
        def __init__(
            self,
            name: str = ...,
            partitions: Sequence[DeleteRecordsResponse.DeleteRecordsPartitionResult | dict[str, Any]] = ...,
            _unknown_tagged: tuple[tuple[int, bytes], ...] | None = ...,
        ) -> None: ...
    class DeleteRecordsPartitionResult(Struct):
        """A struct of Kafka's DeleteRecordsResponse."""
        partition_index: int
        low_watermark: int
        error_code: int
        def __init__(
            self,
            partition_index: int = ...,
            low_watermark: int = ...,
            error_code: int = ...,
            _unknown_tagged: tuple[tuple[int, bytes], ...] | None = ...,
        ) -> None: ...

class DeleteShareGroupOffsetsRequest(Message):
    """Kafka's DeleteShareGroupOffsetsRequest (request 92, versions 0)."""
    api_key: ClassVar[Literal[92]]
    kind: ClassVar[Literal['request']]
    group_id: str
    topics: list[DeleteShareGroupOffsetsRequest.DeleteShareGroupOffsetsRequestTopic]
    def __init__(
        self,
        group_id: str = ...,
        topics: Sequence[DeleteShareGroupOffsetsRequest.DeleteShareGroupOffsetsRequestTopic | dict[str, Any]] = ...,
        _unknown_tagged: tuple[tuple[int, bytes], ...] | None = ...,
    ) -> None: ...
    class DeleteShareGroupOffsetsRequestTopic(Struct):
        """A struct of Kafka's DeleteShareGroupOffsetsRequest."""
        topic_name: str
        def __init__(
            self,
            topic_name: str = ...,
            _unknown_tagged: tuple[tuple[int, bytes], ...] | None = ...,
        ) -> None: ...

class DeleteShareGroupOffsetsResponse(Message):
    """Kafka's DeleteShareGroupOffsetsResponse (response 92, versions 0)."""
    api_key: ClassVar[Literal[92]]
    kind: ClassVar[Literal['response']]
    throttle_time_ms: int
    error_code: int
    error_message: str | None
    responses: list[DeleteShareGroupOffsetsResponse.DeleteShareGroupOffsetsResponseTopic]
    def __init__(
        self,
        throttle_time_ms: int = ...,
        error_code: int = ...,
        error_message: str | None = ...,
        responses: Sequence[DeleteShareGroupOffsetsResponse.DeleteShareGroupOffsetsResponseTopic | dict[str, Any]] = ...,
        _unknown_tagged: tuple[tuple[int, bytes], ...] | None = ...,
    ) -> None: ...
    class DeleteShareGroupOffsetsResponseTopic(Struct):
        """A struct of Kafka's DeleteShareGroupOffsetsResponse."""
        topic_name: str
        topic_id: uuid.UUID
        error_code: int
        error_message: str | None
        def __init__(
            self,
            topic_name: str = ...,
            topic_id: uuid.UUID = ...,
            error_code: int = ...,
            error_message: str | None = ...,
            _unknown_tagged: tuple[tuple[int, bytes], ...] | None = ...,
        ) -> None: ...

class DeleteShareGroupStateRequest(Message):
    """Kafka's DeleteShareGroupStateRequest (request 86, versions 0)."""
    api_key: ClassVar[Literal[86]]
    kind: ClassVar[Literal['request']]
    group_id: str
    topics: list[DeleteShareGroupStateRequest.DeleteStateData]
    def __init__(
        self,
        group_id: str = ...,
        topics: Sequence[DeleteShareGroupStateRequest.DeleteStateData | dict[str, Any]] = ...,
        _unknown_tagged: tuple[tuple[int, bytes], ...] | None = ...,
    ) -> None: ...
    class DeleteStateData(Struct):
        """A struct of Kafka's DeleteShareGroupStateRequest."""
        topic_id: uuid.UUID
        partitions: list[DeleteShareGroupStateRequest.PartitionData]
        def __init__(
            self,
            topic_id: uuid.UUID = ...,
            partitions: Sequence[DeleteShareGroupStateRequest.PartitionData | dict[str, Any]] = ...,
            _unknown_tagged: tuple[tuple[int, bytes], ...] | None = ...,
        ) -> None: ...
    class PartitionData(Struct):
        """A struct of Kafka's DeleteShareGroupStateRequest."""
        partition: int
        def __init__(
            self,
            partition: int = ...,
            _unknown_tagged: tuple[tuple[int, bytes], ...] | None = ...,
        ) -> None: ...

class DeleteShareGroupStateResponse(Message):
    """Kafka's DeleteShareGroupStateResponse (response 86, versions 0)."""
    api_key: ClassVar[Literal[86]]
    kind: ClassVar[Literal['response']]
    results: list[DeleteShareGroupStateResponse.DeleteStateResult]
    def __init__(
        self,
        results: Sequence[DeleteShareGroupStateResponse.DeleteStateResult | dict[str, Any]] = ...,
        _unknown_tagged: tuple[tuple[int, bytes], ...] | None = ...,
    ) -> None: ...
    class DeleteStateResult(Struct):
        """A struct of Kafka's DeleteShareGroupStateResponse."""
        topic_id: uuid.UUID
        partitions: list[DeleteShareGroupStateResponse.PartitionResult]
        def __init__(
            self,
            topic_id: uuid.UUID = ...,
            partitions: Sequence[DeleteShareGroupStateResponse.PartitionResult | dict[str, Any]] = ...,
            _unknown_tagged: tuple[tuple[int, bytes], ...] | None = ...,
        ) -> None: ...
    class PartitionResult(Struct):
        """A struct of Kafka's DeleteShareGroupStateResponse."""
        partition: int
        error_code: int
        error_message: str | None
        def __init__(
            self,
            partition: int = ...,
            error_code: int = ...,
            error_message: str | None = ...,
            _unknown_tagged: tuple[tuple[int, bytes], ...] | None = ...,
        ) -> None: ...

class DeleteTopicsRequest(Message):
    """Kafka's DeleteTopicsRequest (request 20, versions 1-6)."""
    api_key: ClassVar[Literal[20]]
    kind: ClassVar[Literal['request']]
    topics: list[DeleteTopicsRequest.DeleteTopicState]
    topic_names: list[str]
    timeout_ms: int
    def __init__(
        self,
        topics: Sequence[DeleteTopicsRequest.DeleteTopicState | dict[str, Any]] = ...,
        topic_names: Sequence[str] = ...,
        timeout_ms: int = ...,
        _unknown_tagged: tuple[tuple[int, bytes], ...] | None = ...,
    ) -> None: ...
    class DeleteTopicState(Struct):
        """A struct of Kafka's DeleteTopicsRequest."""
        name: str | None
        topic_id: uuid.UUID
        def __init__(
            self,
            name: str | None = ...,
            topic_id: uuid.UUID = ...,
            _unknown_tagged: tuple[tuple[int, bytes], ...] | None = ...,
        ) -> None: ...

class DeleteTopicsResponse(Message):
    """Kafka's DeleteTopicsResponse (response 20, versions 1-6)."""
    api_key: ClassVar[Literal[20]]
    kind: ClassVar[Literal['response']]
    throttle_time_ms: int
    responses: list[DeleteTopicsResponse.DeletableTopicResult]
    def __init__(
        self,
        throttle_time_ms: int = ...,
        responses: Sequence[DeleteTopicsResponse.DeletableTopicResult | dict[str, Any]] = ...,
        _unknown_tagged: tuple[tuple[int, bytes], ...] | None = ...,
    ) -> None: ...
    class DeletableTopicResult(Struct):
        """A struct of Kafka's DeleteTopicsResponse."""
        name: str | None
        topic_id: uuid.UUID
        error_code: int
        error_message: str | None
        def __init__(
            self,
            name: str | None = ...,
            topic_id: uuid.UUID = ...,
            error_code: int = ...,
            error_message: str | None = ...,
            _unknown_tagged: tuple[tuple[int, bytes], ...] | None = ...,
        ) -> None: ...

class DescribeAclsRequest(Message):
    """Kafka's DescribeAclsRequest (request 29, versions 1-3)."""
    api_key: ClassVar[Literal[29]]
    kind: ClassVar[Literal['request']]
    resource_type_filter: int
    resource_name_filter: str | None
    pattern_type_filter: int
    principal_filter: str | None
    host_filter: str | None
    operation: int
    permission_type: int
    def __init__(
        self,
        resource_type_filter: int = ...,
        resource_name_filter: str | None = ...,
        pattern_type_filter: int = ...,
        principal_filter: str | None = ...,
        host_filter: str | None = ...,
        operation: int = ...,
        permission_type: int = ...,
        _unknown_tagged: tuple[tuple[int, bytes], ...] | None = ...,
    ) -> None: ...

class DescribeAclsResponse(Message):
    """Kafka's DescribeAclsResponse (response 29, versions 1-3)."""
    api_key: ClassVar[Literal[29]]
    kind: ClassVar[Literal['response']]
    throttle_time_ms: int
    error_code: int
    error_message: str | None
    resources: list[DescribeAclsResponse.DescribeAclsResource]
    def __init__(
        self,
        throttle_time_ms: int = ...,
        error_code: int = ...,
        error_message: str | None = ...,
        resources: Sequence[DescribeAclsResponse.DescribeAclsResource | dict[str, Any]] = ...,
        _unknown_tagged: tuple[tuple[int, bytes], ...] | None = ...,
    ) -> None: ...
    class DescribeAclsResource(Struct):
        """A struct of Kafka's DescribeAclsResponse."""
        resource_type: int
        resource_name: str
        pattern_type: int
        acls: list[DescribeAclsResponse.AclDescription]
        def __init__(
            self,
            resource_type: int = ...,
            resource_name: str = ...,
            pattern_type: int = ...,
            acls: Sequence[DescribeAclsResponse.AclDescription | dict[str, Any]] = ...,
            _unknown_tagged: tuple[tuple[int, bytes], ...] | None = ...,
        ) -> None: ...
    class AclDescription(Struct):
        """A struct of Kafka's DescribeAclsResponse."""
        principal: str
        host: str
        operation: int
        permission_type: int
        def __init__(
            self,
            principal: str = ...,
            host: str = ...,
            operation: int = ...,
            permission_type: int = ...,
            _unknown_tagged: tuple[tuple[int, bytes], ...] | None = ...,
        ) -> None: ...

class DescribeClientQuotasRequest(Message):
    """Kafka's DescribeClientQuotasRequest (request 48, versions 0-1)."""
    api_key: ClassVar[Literal[48]]
    kind: ClassVar[Literal['request']]
    components: list[DescribeClientQuotasRequest.ComponentData]
    strict: bool
    def __init__(
        self,
        components: Sequence[DescribeClientQuotasRequest.ComponentData | dict[str, Any]] = ...,
        strict: bool = ...,
        _unknown_tagged: tuple[tuple[int, bytes], ...] | None = ...,
    ) -> None: ...
    class ComponentData(Struct):
        """A struct of Kafka's DescribeClientQuotasRequest."""
        entity_type: str
        match_type: int
        match: str | None
        def __init__(
            self,
            entity_type: str = ...,
            match_type: int = ...,
            match: str | None = ...,
            _unknown_tagged: tuple[tuple[int, bytes], ...] | None = ...,
        ) -> None: ...

class DescribeClientQuotasResponse(Message):
    """Kafka's DescribeClientQuotasResponse (response 48, versions 0-1)."""
    api_key: ClassVar[Literal[48]]
    kind: ClassVar[Literal['response']]
    throttle_time_ms: int
    error_code: int
    error_message: str | None
    entries: list[DescribeClientQuotasResponse.EntryData] | None
    def __init__(
        self,
        throttle_time_ms: int = ...,
        error_code: int = ...,
        error_message: str | None = ...,
        entries: Sequence[DescribeClientQuotasResponse.EntryData | dict[str, Any]] | None = ...,
        _unknown_tagged: tuple[tuple[int, bytes], ...] | None = ...,
    ) -> None: ...
    class EntryData(Struct):
        """A struct of Kafka's DescribeClientQuotasResponse."""
        entity: list[DescribeClientQuotasResponse.EntityData]
        values: list[DescribeClientQuotasResponse.ValueData]
        def __init__(
            self,
            entity: Sequence[DescribeClientQuotasResponse.EntityData | dict[str, Any]] = ...,
            values: Sequence[DescribeClientQuotasResponse.ValueData | dict[str, Any]] = ...,
            _unknown_tagged: tuple[tuple[int, bytes], ...] | None = ...,
        ) -> None: ...
    class EntityData(Struct):
        """A struct of Kafka's DescribeClientQuotasResponse."""
        entity_type: str
        entity_name: str | None
        def __init__(
            self,
            entity_type: str = ...,
            entity_name: str | None = ...,
            _unknown_tagged: tuple[tuple[int, bytes], ...] | None = ...,
        ) -> None: ...
    class ValueData(Struct):
        """A struct of Kafka's DescribeClientQuotasResponse."""
        key: str
        value: float
        def __init__(
            self,
            key: str = ...,
            value: float = ...,
            _unknown_tagged: tuple[tuple[int, bytes], ...] | None = ...,
        ) -> None: ...

class DescribeClusterRequest(Message):
    """Kafka's DescribeClusterRequest (request 60, versions 0-2)."""
    api_key: ClassVar[Literal[60]]
    kind: ClassVar[Literal['request']]
    include_cluster_authorized_operations: bool
    endpoint_type: int
    include_fenced_brokers: bool
    def __init__(
        self,
        include_cluster_authorized_operations: bool = ...,
        endpoint_type: int = ...,
        include_fenced_brokers: bool = ...,
        _unknown_tagged: tuple[tuple[int, bytes], ...] | None = ...,
    ) -> None: ...

class DescribeClusterResponse(Message):
    """Kafka's DescribeClusterResponse (response 60, versions 0-2)."""
    api_key: ClassVar[Literal[60]]
    kind: ClassVar[Literal['response']]
    throttle_time_ms: int
    error_code: int
    error_message: str | None
    endpoint_type: int
    cluster_id: str
    controller_id: int
    brokers: list[DescribeClusterResponse.DescribeClusterBroker]
    cluster_authorized_operations: int
    def __init__(
        self,
        throttle_time_ms: int = ...,
        error_code: int = ...,
        error_message: str | None = ...,
        endpoint_type: int = ...,
        cluster_id: str = ...,
        controller_id: int = ...,
        brokers: Sequence[DescribeClusterResponse.DescribeClusterBroker | dict[str, Any]] = ...,
        cluster_authorized_operations: int = ...,
        _unknown_tagged: tuple[tuple[int, bytes], ...] | None = ...,
    ) -> None: ...
    class DescribeClusterBroker(Struct):
        """A struct of Kafka's DescribeClusterResponse."""
        broker_id: int
        host: str
        port: int
        rack: str | None
        is_fenced: bool
        def __init__(
            self,
            broker_id: int = ...,
            host: str = ...,
            port: int = ...,
            rack: str | None = ...,
            is_fenced: bool = ...,
            _unknown_tagged: tuple[tuple[int, bytes], ...] | None = ...,
        ) -> None: ...

class DescribeConfigsRequest(Message):
    """Kafka's DescribeConfigsRequest (request 32, versions 1-4)."""
    api_key: ClassVar[Literal[32]]
    kind: ClassVar[Literal['request']]
    resources: list[DescribeConfigsRequest.DescribeConfigsResource]
    include_synonyms: bool
    include_documentation: bool
    def __init__(
        self,
        resources: Sequence[DescribeConfigsRequest.DescribeConfigsResource | dict[str, Any]] = ...,
        include_synonyms: bool = ...,
        include_documentation: bool = ...,
        _unknown_tagged: tuple[tuple[int, bytes], ...] | None = ...,
    ) -> None: ...
    class DescribeConfigsResource(Struct):
        """A struct of Kafka's DescribeConfigsRequest."""
        resource_type: int
        resource_name: str
        configuration_keys: list[str] | None
        def __init__(
            self,
            resource_type: int = ...,
            resource_name: str = ...,
            configuration_keys: Sequence[str] | None = ...,
            _unknown_tagged: tuple[tuple[int, bytes], ...] | None = ...,
        ) -> None: ...

class DescribeConfigsResponse(Message):
    """Kafka's DescribeConfigsResponse (response 32, versions 1-4)."""
    api_key: ClassVar[Literal[32]]
    kind: ClassVar[Literal['response']]
    throttle_time_ms: int
    results: list[DescribeConfigsResponse.DescribeConfigsResult]
    def __init__(
        self,
        throttle_time_ms: int = ...,
        results: Sequence[DescribeConfigsResponse.DescribeConfigsResult | dict[str, Any]] = ...,
        _unknown_tagged: tuple[tuple[int, bytes], ...] | None = ...,
    ) -> None: ...
    class DescribeConfigsResult(Struct):
        """A struct of Kafka's DescribeConfigsResponse."""
        error_code: int
        error_message: str | None
        resource_type: int
        resource_name: str
        configs: list[DescribeConfigsResponse.DescribeConfigsResourceResult]
        def __init__(
            self,
            error_code: int = ...,
            error_message: str | None = ...,
            resource_type: int = ...,
            resource_name: str = ...,
            configs: Sequence[DescribeConfigsResponse.DescribeConfigsResourceResult | dict[str, Any]] = ...,
            _unknown_tagged: tuple[tuple[int, bytes], ...] | None = ...,
        ) -> None: ...
    class DescribeConfigsResourceResult(Struct):
        """A struct of Kafka's DescribeConfigsResponse."""
        name: str
        value: str | None
        read_only: bool
        config_source: int
        is_sensitive: bool
        synonyms: list[DescribeConfigsResponse.DescribeConfigsSynonym]
        config_type: int
        documentation: str | None
        def __init__(
            self,
            name: str = ...,
            value: str | None = ...,
            read_only: bool = ...,
            config_source: int = ...,
            is_sensitive: bool = ...,
            synonyms: Sequence[DescribeConfigsResponse.DescribeConfigsSynonym | dict[str, Any]] = ...,
            config_type: int = ...,
            documentation: str | None = ...,
            _unknown_tagged: tuple[tuple[int, bytes], ...] | None = ...,
        ) -> None: ...
    class DescribeConfigsSynonym(Struct):
        """A struct of Kafka's DescribeConfigsResponse."""
        name: str
        value: str | None
        source: int
        def __init__(
            self,
            name: str = ...,
            value: str | None = ...,
            source: int = ...,
            _unknown_tagged: tuple[tuple[int, bytes], ...] | None = ...,
        ) -> None: ...

class DescribeDelegationTokenRequest(Message):
    """Kafka's DescribeDelegationTokenRequest (request 41, versions 1-3)."""
    api_key: ClassVar[Literal[41]]
    kind: ClassVar[Literal['request']]
    owners: list[DescribeDelegationTokenRequest.DescribeDelegationTokenOwner] | None
    def __init__(
        self,
        owners: Sequence[DescribeDelegationTokenRequest.DescribeDelegationTokenOwner | dict[str, Any]] | None = ...,
        _unknown_tagged: tuple[tuple[int, bytes], ...] | None = ...,
    ) -> None: ...
    class DescribeDelegationTokenOwner(Struct):
        """A struct of Kafka's DescribeDelegationTokenRequest."""
        principal_type: str
        principal_name: str
        def __init__(
            self,
            principal_type: str = ...,
            principal_name: str = ...,
            _unknown_tagged: tuple[tuple[int, bytes], ...] | None = ...,
        ) -> None: ...

class DescribeDelegationTokenResponse(Message):
    """Kafka's DescribeDelegationTokenResponse (response 41, versions 1-3)."""
    api_key: ClassVar[Literal[41]]
    kind: ClassVar[Literal['response']]
    error_code: int
    tokens: list[DescribeDelegationTokenResponse.DescribedDelegationToken]
    throttle_time_ms: int
    def __init__(
        self,
        error_code: int = ...,
        tokens: Sequence[DescribeDelegationTokenResponse.DescribedDelegationToken | dict[str, Any]] = ...,
        throttle_time_ms: int = ...,
        _unknown_tagged: tuple[tuple[int, bytes], ...] | None = ...,
    ) -> None: ...
    class DescribedDelegationToken(Struct):
        """A struct of Kafka's DescribeDelegationTokenResponse."""
        principal_type: str
        principal_name: str
        token_requester_principal_type: str
        token_requester_principal_name: str
        issue_timestamp: int
        expiry_timestamp: int
        max_timestamp: int
        token_id: str
        hmac: bytes
        renewers: list[DescribeDelegationTokenResponse.DescribedDelegationTokenRenewer]
        def __init__(
            self,
            principal_type: str = ...,
            principal_name: str = ...,
            token_requester_principal_type: str = ...,
            token_requester_principal_name: str = ...,
            issue_timestamp: int = ...,
            expiry_timestamp: int = ...,
            max_timestamp: int = ...,
            token_id: str = ...,
            hmac: _Bytes = ...,
            renewers: Sequence[DescribeDelegationTokenResponse.DescribedDelegationTokenRenewer | dict[str, Any]] = ...,
            _unknown_tagged: tuple[tuple[int, bytes], ...] | None = ...,
        ) -> None: ...
    class DescribedDelegationTokenRenewer(Struct):
        """A struct of Kafka's DescribeDelegationTokenResponse."""
        principal_type: str
        principal_name: str
        def __init__(
            self,
            principal_type: str = ...,
            principal_name: str = ...,
            _unknown_tagged: tuple[tuple[int, bytes], ...] | None = ...,
        ) -> None: ...

class DescribeGroupsRequest(Message):
    """Kafka's DescribeGroupsRequest (request 15, versions 0-6)."""
    api_key: ClassVar[Literal[15]]
    kind: ClassVar[Literal['request']]
    groups: list[str]
    include_authorized_operations: bool
    def __init__(
        self,
        groups: Sequence[str] = ...,
        include_authorized_operations: bool = ...,
        _unknown_tagged: tuple[tuple[int, bytes], ...] | None = ...,
    ) -> None: ...

class DescribeGroupsResponse(Message):
    """Kafka's DescribeGroupsResponse (response 15, versions 0-6)."""
    api_key: ClassVar[Literal[15]]
    kind: ClassVar[Literal['response']]
    throttle_time_ms: int
    groups: list[DescribeGroupsResponse.DescribedGroup]
    def __init__(
        self,
        throttle_time_ms: int = ...,
        groups: Sequence[DescribeGroupsResponse.DescribedGroup | dict[str, Any]] = ...,
        _unknown_tagged: tuple[tuple[int, bytes], ...] | None = ...,
    ) -> None: ...
    class DescribedGroup(Struct):
        """A struct of Kafka's DescribeGroupsResponse."""
        error_code: int
        error_message: str | None
        group_id: str
        group_state: str
        protocol_type: str
        protocol_data: str
        members: list[DescribeGroupsResponse.DescribedGroupMember]
        authorized_operations: int
        def __init__(
            self,
            error_code: int = ...,
            error_message: str | None = ...,
            group_id: str = ...,
            group_state: str = ...,
            protocol_type: str = ...,
            protocol_data: str = ...,
            members: Sequence[DescribeGroupsResponse.DescribedGroupMember | dict[str, Any]] = ...,
            authorized_operations: int = ...,
            _unknown_tagged: tuple[tuple[int, bytes], ...] | None = ...,
        ) -> None: ...
    class DescribedGroupMember(Struct):
        """A struct of Kafka's DescribeGroupsResponse."""
        member_id: str
        group_instance_id: str | None
        client_id: str
        client_host: str
        member_metadata: bytes
        member_assignment: bytes
        def __init__(
            self,
            member_id: str = ...,
            group_instance_id: str | None = ...,
            client_id: str = ...,
            client_host: str = ...,
            member_metadata: _Bytes = ...,
            member_assignment: _Bytes = ...,
            _unknown_tagged: tuple[tuple[int, bytes], ...] | None = ...,
        ) -> None: ...

class DescribeLogDirsRequest(Message):
    """Kafka's DescribeLogDirsRequest (request 35, versions 1-5)."""
    api_key: ClassVar[Literal[35]]
    kind: ClassVar[Literal['request']]
    topics: list[DescribeLogDirsRequest.DescribableLogDirTopic] | None
    def __init__(
        self,
        topics: Sequence[DescribeLogDirsRequest.DescribableLogDirTopic | dict[str, Any]] | None = ...,
        _unknown_tagged: tuple[tuple[int, bytes], ...] | None = ...,
    ) -> None: ...
    class DescribableLogDirTopic(Struct):
        """A struct of Kafka's DescribeLogDirsRequest."""
        topic: str
        partitions: list[int]
        def __init__(
            self,
            topic: str = ...,
            partitions: Sequence[int] = ...,
            _unknown_tagged: tuple[tuple[int, bytes], ...] | None = ...,
        ) -> None: ...

class DescribeLogDirsResponse(Message):
    """Kafka's DescribeLogDirsResponse (response 35, versions 1-5)."""
    api_key: ClassVar[Literal[35]]
    kind: ClassVar[Literal['response']]
    throttle_time_ms: int
    error_code: int
    results: list[DescribeLogDirsResponse.DescribeLogDirsResult]
    def __init__(
        self,
        throttle_time_ms: int = ...,
        error_code: int = ...,
        results: Sequence[DescribeLogDirsResponse.DescribeLogDirsResult | dict[str, Any]] = ...,
        _unknown_tagged: tuple[tuple[int, bytes], ...] | None = ...,
    ) -> None: ...
    class DescribeLogDirsResult(Struct):
        """A struct of Kafka's DescribeLogDirsResponse."""
        error_code: int
        log_dir: str
        topics: list[DescribeLogDirsResponse.DescribeLogDirsTopic]
        total_bytes: int
        usable_bytes: int
        is_cordoned: bool
        def __init__(
            self,
            error_code: int = ...,
            log_dir: str = ...,
            topics: Sequence[DescribeLogDirsResponse.DescribeLogDirsTopic | dict[str, Any]] = ...,
            total_bytes: int = ...,
            usable_bytes: int = ...,
            is_cordoned: bool = ...,
            _unknown_tagged: tuple[tuple[int, bytes], ...] | None = ...,
        ) -> None: ...
    class DescribeLogDirsTopic(Struct):
        """A struct of Kafka's DescribeLogDirsResponse."""
        name: str
        partitions: list[DescribeLogDirsResponse.DescribeLogDirsPartition]
        def __init__(
            self,
            name: str = ...,
            partitions: Sequence[DescribeLogDirsResponse.DescribeLogDirsPartition | dict[str, Any]] = ...,
            _unknown_tagged: tuple[tuple[int, bytes], ...] | None = ...,
        ) -> None: ...
    class DescribeLogDirsPartition(Struct):
        """A struct of Kafka's DescribeLogDirsResponse."""
        partition_index: int
        partition_size: int
        offset_lag: int
        is_future_key: bool
        def __init__(
            self,
            partition_index: int = ...,
            partition_size: int = ...,
            offset_lag: int = ...,
            is_future_key: bool = ...,
            _unknown_tagged: tuple[tuple[int, bytes], ...] | None = ...,
        ) -> None: ...

class DescribeProducersRequest(Message):
    """Kafka's DescribeProducersRequest (request 61, versions 0)."""
    api_key: ClassVar[Literal[61]]
    kind: ClassVar[Literal['request']]
    topics: list[DescribeProducersRequest.TopicRequest]
    def __init__(
        self,
        topics: Sequence[DescribeProducersRequest.TopicRequest | dict[str, Any]] = ...,
        _unknown_tagged: tuple[tuple[int, bytes], ...] | None = ...,
    ) -> None: ...
    class TopicRequest(Struct):
        """A struct of Kafka's DescribeProducersRequest."""
        name: str
        partition_indexes: list[int]
        def __init__(
            self,
            name: str = ...,
            partition_indexes: Sequence[int] = ...,
            _unknown_tagged: tuple[tuple[int, bytes], ...] | None = ...,
        ) -> None: ...

class DescribeProducersResponse(Message):
    """Kafka's DescribeProducersResponse (response 61, versions 0)."""
    api_key: ClassVar[Literal[61]]
    kind: ClassVar[Literal['response']]
    throttle_time_ms: int
    topics: list[DescribeProducersResponse.TopicResponse]
    def __init__(
        self,
        throttle_time_ms: int = ...,
        topics: Sequence[DescribeProducersResponse.TopicResponse | dict[str, Any]] = ...,
        _unknown_tagged: tuple[tuple[int, bytes], ...] | None = ...,
    ) -> None: ...
    class TopicResponse(Struct):
        """A struct of Kafka's DescribeProducersResponse."""
        name: str
        partitions: list[DescribeProducersResponse.PartitionResponse]
        def __init__(
            self,
            name: str = ...,
            partitions: Sequence[DescribeProducersResponse.PartitionResponse | dict[str, Any]] = ...,
            _unknown_tagged: tuple[tuple[int, bytes], ...] | None = ...,
        ) -> None: ...
    class PartitionResponse(Struct):
        """A struct of Kafka's DescribeProducersResponse."""
        partition_index: int
        error_code: int
        error_message: str | None
        active_producers: list[DescribeProducersResponse.ProducerState]
        def __init__(
            self,
            partition_index: int = ...,
            error_code: int = ...,
            error_message: str | None = ...,
            active_producers: Sequence[DescribeProducersResponse.ProducerState | dict[str, Any]] = ...,
            _unknown_tagged: tuple[tuple[int, bytes], ...] | None = ...,
        ) -> None: ...
    class ProducerState(Struct):
        """A struct of Kafka's DescribeProducersResponse."""
        producer_id: int
        producer_epoch: int
        last_sequence: int
        last_timestamp: int
        coordinator_epoch: int
        current_txn_start_offset: int
        def __init__(
            self,
            producer_id: int = ...,
            producer_epoch: int = ...,
            last_sequence: int = ...,
            last_timestamp: int = ...,
            coordinator_epoch: int = ...,
            current_txn_start_offset: int = ...,
            _unknown_tagged: tuple[tuple[int, bytes], ...] | None = ...,
        ) -> None: ...

class DescribeQuorumRequest(Message):
    """Kafka's DescribeQuorumRequest (request 55, versions 0-2)."""
    api_key: ClassVar[Literal[55]]
    kind: ClassVar[Literal['request']]
    topics: list[DescribeQuorumRequest.TopicData]
    def __init__(
        self,
        topics: Sequence[DescribeQuorumRequest.TopicData | dict[str, Any]] = ...,
        _unknown_tagged: tuple[tuple[int, bytes], ...] | None = ...,
    ) -> None: ...
    class TopicData(Struct):
        """A struct of Kafka's DescribeQuorumRequest."""
        topic_name: str
        partitions: list[DescribeQuorumRequest.PartitionData]
        def __init__(
            self,
            topic_name: str = ...,
            partitions: Sequence[DescribeQuorumRequest.PartitionData | dict[str, Any]] = ...,
            _unknown_tagged: tuple[tuple[int, bytes], ...] | None = ...,
        ) -> None: ...
    class PartitionData(Struct):
        """A struct of Kafka's DescribeQuorumRequest."""
        partition_index: int
        def __init__(
            self,
            partition_index: int = ...,
            _unknown_tagged: tuple[tuple[int, bytes], ...] | None = ...,
        ) -> None: ...

class DescribeQuorumResponse(Message):
    """Kafka's DescribeQuorumResponse (response 55, versions 0-2)."""
    api_key: ClassVar[Literal[55]]
    kind: ClassVar[Literal['response']]
    error_code: int
    error_message: str | None
    topics: list[DescribeQuorumResponse.TopicData]
    nodes: list[DescribeQuorumResponse.Node]
    def __init__(
        self,
        error_code: int = ...,
        error_message: str | None = ...,
        topics: Sequence[DescribeQuorumResponse.TopicData | dict[str, Any]] = ...,
        nodes: Sequence[DescribeQuorumResponse.Node | dict[str, Any]] = ...,
        _unknown_tagged: tuple[tuple[int, bytes], ...] | None = ...,
    ) -> None: ...
    class TopicData(Struct):
        """A struct of Kafka's DescribeQuorumResponse."""
        topic_name: str
        partitions: list[DescribeQuorumResponse.PartitionData]
        def __init__(
            self,
            topic_name: str = ...,
            partitions: Sequence[DescribeQuorumResponse.PartitionData | dict[str, Any]] = ...,
            _unknown_tagged: tuple[tuple[int, bytes], ...] | None = ...,
        ) -> None: ...
    class PartitionData(Struct):
        """A struct of Kafka's DescribeQuorumResponse."""
        partition_index: int
        error_code: int
        error_message: str | None
        leader_id: int
        leader_epoch: int
        high_watermark: int
        current_voters: list[DescribeQuorumResponse.ReplicaState]
        observers: list[DescribeQuorumResponse.ReplicaState]
        def __init__(
            self,
            partition_index: int = ...,
            error_code: int = ...,
            error_message: str | None = ...,
            leader_id: int = ...,
            leader_epoch: int = ...,
            high_watermark: int = ...,
            current_voters: Sequence[DescribeQuorumResponse.ReplicaState | dict[str, Any]] = ...,
            observers: Sequence[DescribeQuorumResponse.ReplicaState | dict[str, Any]] = ...,
            _unknown_tagged: tuple[tuple[int, bytes], ...] | None = ...,
        ) -> None: ...
    class ReplicaState(Struct):
        """A struct of Kafka's DescribeQuorumResponse."""
        replica_id: int
        replica_directory_id: uuid.UUID
        log_end_offset: int
        last_fetch_timestamp: int
        last_caught_up_timestamp: int
        def __init__(
            self,
            replica_id: int = ...,
            replica_directory_id: uuid.UUID = ...,
            log_end_offset: int = ...,
            last_fetch_timestamp: int = ...,
            last_caught_up_timestamp: int = ...,
            _unknown_tagged: tuple[tuple[int, bytes], ...] | None = ...,
        ) -> None: ...
    class Node(Struct):
        """A struct of Kafka's DescribeQuorumResponse."""
        node_id: int
        listeners: list[DescribeQuorumResponse.Listener]
        def __init__(
            self,
            node_id: int = ...,
            listeners: Sequence[DescribeQuorumResponse.Listener | dict[str, Any]] = ...,
            _unknown_tagged: tuple[tuple[int, bytes], ...] | None = ...,
        ) -> None: ...
    class Listener(Struct):
        """A struct of Kafka's DescribeQuorumResponse."""
        name: str
        host: str
        port: int
        def __init__(
            self,
            name: str = ...,
            host: str = ...,
            port: int = ...,
            _unknown_tagged: tuple[tuple[int, bytes], ...] | None = ...,
        ) -> None: ...

class DescribeShareGroupOffsetsRequest(Message):
    """Kafka's DescribeShareGroupOffsetsRequest (request 90, versions 0-1)."""
    api_key: ClassVar[Literal[90]]
    kind: ClassVar[Literal['request']]
    groups: list[DescribeShareGroupOffsetsRequest.DescribeShareGroupOffsetsRequestGroup]
    def __init__(
        self,
        groups: Sequence[DescribeShareGroupOffsetsRequest.DescribeShareGroupOffsetsRequestGroup | dict[str, Any]] = ...,
        _unknown_tagged: tuple[tuple[int, bytes], ...] | None = ...,
    ) -> None: ...
    class DescribeShareGroupOffsetsRequestGroup(Struct):
        """A struct of Kafka's DescribeShareGroupOffsetsRequest."""
        group_id: str
        topics: list[DescribeShareGroupOffsetsRequest.DescribeShareGroupOffsetsRequestTopic] | None
        def __init__(
            self,
            group_id: str = ...,
            topics: Sequence[DescribeShareGroupOffsetsRequest.DescribeShareGroupOffsetsRequestTopic | dict[str, Any]] | None = ...,
            _unknown_tagged: tuple[tuple[int, bytes], ...] | None = ...,
        ) -> None: ...
    class DescribeShareGroupOffsetsRequestTopic(Struct):
        """A struct of Kafka's DescribeShareGroupOffsetsRequest."""
        topic_name: str
        partitions: list[int]
        def __init__(
            self,
            topic_name: str = ...,
            partitions: Sequence[int] = ...,
            _unknown_tagged: tuple[tuple[int, bytes], ...] | None = ...,
        ) -> None: ...

class DescribeShareGroupOffsetsResponse(Message):
    """Kafka's DescribeShareGroupOffsetsResponse (response 90, versions 0-1)."""
    api_key: ClassVar[Literal[90]]
    kind: ClassVar[Literal['response']]
    throttle_time_ms: int
    groups: list[DescribeShareGroupOffsetsResponse.DescribeShareGroupOffsetsResponseGroup]
    def __init__(
        self,
        throttle_time_ms: int = ...,
        groups: Sequence[DescribeShareGroupOffsetsResponse.DescribeShareGroupOffsetsResponseGroup | dict[str, Any]] = ...,
        _unknown_tagged: tuple[tuple[int, bytes], ...] | None = ...,
    ) -> None: ...
    class DescribeShareGroupOffsetsResponseGroup(Struct):
        """A struct of Kafka's DescribeShareGroupOffsetsResponse."""
        group_id: str
        topics: list[DescribeShareGroupOffsetsResponse.DescribeShareGroupOffsetsResponseTopic]
        error_code: int
        error_message: str | None
        def __init__(
            self,
            group_id: str = ...,
            topics: Sequence[DescribeShareGroupOffsetsResponse.DescribeShareGroupOffsetsResponseTopic | dict[str, Any]] = ...,
            error_code: int = ...,
            error_message: str | None = ...,
            _unknown_tagged: tuple[tuple[int, bytes], ...] | None = ...,
        ) -> None: ...
    class DescribeShareGroupOffsetsResponseTopic(Struct):
        """A struct of Kafka's DescribeShareGroupOffsetsResponse."""
        topic_name: str
        topic_id: uuid.UUID
        partitions: list[DescribeShareGroupOffsetsResponse.DescribeShareGroupOffsetsResponsePartition]
        def __init__(
            self,
            topic_name: str = ...,
            topic_id: uuid.UUID = ...,
            partitions: Sequence[DescribeShareGroupOffsetsResponse.DescribeShareGroupOffsetsResponsePartition | dict[str, Any]] = ...,
            _unknown_tagged: tuple[tuple[int, bytes], ...] | None = ...,
        ) -> None: ...
    class DescribeShareGroupOffsetsResponsePartition(Struct):
        """A struct of Kafka's DescribeShareGroupOffsetsResponse."""
        partition_index: int
        start_offset: int
        leader_epoch: int
        lag: int
        error_code: int
        error_message: str | None
        def __init__(
            self,
            partition_index: int = ...,
            start_offset: int = ...,
            leader_epoch: int = ...,
            lag: int = ...,
            error_code: int = ...,
            error_message: str | None = ...,
            _unknown_tagged: tuple[tuple[int, bytes], ...] | None = ...,
        ) -> None: ...

class DescribeTopicPartitionsRequest(Message):
    """Kafka's DescribeTopicPartitionsRequest (request 75, versions 0)."""
    api_key: ClassVar[Literal[75]]
    kind: ClassVar[Literal['request']]
    topics: list[DescribeTopicPartitionsRequest.TopicRequest]
    response_partition_limit: int
    cursor: DescribeTopicPartitionsRequest.Cursor | None
    def __init__(
        self,
        topics: Sequence[DescribeTopicPartitionsRequest.TopicRequest | dict[str, Any]] = ...,
        response_partition_limit: int = ...,
        cursor: DescribeTopicPartitionsRequest.Cursor | dict[str, Any] | None = ...,
        _unknown_tagged: tuple[tuple[int, bytes], ...] | None = ...,
    ) -> None: ...
    class TopicRequest(Struct):
        """A struct of Kafka's DescribeTopicPartitionsRequest."""
        name: str
        def __init__(
            self,
            name: str = ...,
            _unknown_tagged: tuple[tuple[int, bytes], ...] | None = ...,
        ) -> None: ...
    class Cursor(Struct):
        """A struct of Kafka's DescribeTopicPartitionsRequest."""
        topic_name: str
        partition_index: int
        def __init__(
            self,
            topic_name: str = ...,
            partition_index: int = ...,
            _unknown_tagged: tuple[tuple[int, bytes], ...] | None = ...,
        ) -> None: ...

class DescribeTopicPartitionsResponse(Message):
    """Kafka's DescribeTopicPartitionsResponse (response 75, versions 0)."""
    api_key: ClassVar[Literal[75]]
    kind: ClassVar[Literal['response']]
    throttle_time_ms: int
    topics: list[DescribeTopicPartitionsResponse.DescribeTopicPartitionsResponseTopic]
    next_cursor: DescribeTopicPartitionsResponse.Cursor | None
    def __init__(
        self,
        throttle_time_ms: int = ...,
        topics: Sequence[DescribeTopicPartitionsResponse.DescribeTopicPartitionsResponseTopic | dict[str, Any]] = ...,
        next_cursor: DescribeTopicPartitionsResponse.Cursor | dict[str, Any] | None = ...,
        _unknown_tagged: tuple[tuple[int, bytes], ...] | None = ...,
    ) -> None: ...
    class DescribeTopicPartitionsResponseTopic(Struct):
        """A struct of Kafka's DescribeTopicPartitionsResponse."""
        error_code: int
        name: str | None
        topic_id: uuid.UUID
        is_internal: bool
        partitions: list[DescribeTopicPartitionsResponse.DescribeTopicPartitionsResponsePartition]
        topic_authorized_operations: int
        def __init__(
            self,
            error_code: int = ...,
            name: str | None = ...,
            topic_id: uuid.UUID = ...,
            is_internal: bool = ...,
            partitions: Sequence[DescribeTopicPartitionsResponse.DescribeTopicPartitionsResponsePartition | dict[str, Any]] = ...,
            topic_authorized_operations: int = ...,
            _unknown_tagged: tuple[tuple[int, bytes], ...] | None = ...,
        ) -> None: ...
    class DescribeTopicPartitionsResponsePartition(Struct):
        """A struct of Kafka's DescribeTopicPartitionsResponse."""
        error_code: int
        partition_index: int
        leader_id: int
        leader_epoch: int
        replica_nodes: list[int]
        isr_nodes: list[int]
        eligible_leader_replicas: list[int] | None
        last_known_elr: list[int] | None
        offline_replicas: list[int]
        def __init__(
            self,
            error_code: int = ...,
            partition_index: int = ...,
            leader_id: int = ...,
            leader_epoch: int = ...,
            replica_nodes: Sequence[int] = ...,
            isr_nodes: Sequence[int] = ...,
            eligible_leader_replicas: Sequence[int] | None = ...,
            last_known_elr: Sequence[int] | None = ...,
            offline_replicas: Sequence[int] = ...,
            _unknown_tagged: tuple[tuple[int, bytes], ...] | None = ...,
        ) -> None: ...
    class Cursor(Struct):
        """A struct of Kafka's DescribeTopicPartitionsResponse."""
        topic_name: str
        partition_index: int
        def __init__(
            self,
            topic_name: str = ...,
            partition_index: int = ...,
            _unknown_tagged: tuple[tuple[int, bytes], ...] | None = ...,
        ) -> None: ...

class DescribeTransactionsRequest(Message):
    """Kafka's DescribeTransactionsRequest (request 65, versions 0)."""
    api_key: ClassVar[Literal[65]]
    kind: ClassVar[Literal['request']]
    transactional_ids: list[str]
    def __init__(
        self,
        transactional_ids: Sequence[str] = ...,
        _unknown_tagged: tuple[tuple[int, bytes], ...] | None = ...,
    ) -> None: ...

class DescribeTransactionsResponse(Message):
    """Kafka's DescribeTransactionsResponse (response 65, versions 0)."""
    api_key: ClassVar[Literal[65]]
    kind: ClassVar[Literal['response']]
    throttle_time_ms: int
    transaction_states: list[DescribeTransactionsResponse.TransactionState]
    def __init__(
        self,
        throttle_time_ms: int = ...,
        transaction_states: Sequence[DescribeTransactionsResponse.TransactionState | dict[str, Any]] = ...,
        _unknown_tagged: tuple[tuple[int, bytes], ...] | None = ...,
    ) -> None: ...
    class TransactionState(Struct):
        """A struct of Kafka's DescribeTransactionsResponse."""
        error_code: int
        transactional_id: str
        transaction_state: str
        transaction_timeout_ms: int
        transaction_start_time_ms: int
        producer_id: int
        producer_epoch: int
        topics: list[DescribeTransactionsResponse.TopicData]
        def __init__(
            self,
            error_code: int = ...,
            transactional_id: str = ...,
            transaction_state: str = ...,
            transaction_timeout_ms: int = ...,
            transaction_start_time_ms: int = ...,
            producer_id: int = ...,
            producer_epoch: int = ...,
            topics: Sequence[DescribeTransactionsResponse.TopicData | dict[str, Any]] = ...,
            _unknown_tagged: tuple[tuple[int, bytes], ...] | None = ...,
        ) -> None: ...
    class TopicData(Struct):
        """A struct of Kafka's DescribeTransactionsResponse."""
        topic: str
        partitions: list[int]
        def __init__(
            self,
            topic: str = ...,
            partitions: Sequence[int] = ...,
            _unknown_tagged: tuple[tuple[int, bytes], ...] | None = ...,
        ) -> None: ...

class DescribeUserScramCredentialsRequest(Message):
    """Kafka's DescribeUserScramCredentialsRequest (request 50, versions 0)."""
    api_key: ClassVar[Literal[50]]
    kind: ClassVar[Literal['request']]
    users: list[DescribeUserScramCredentialsRequest.UserName] | None
    def __init__(
        self,
        users: Sequence[DescribeUserScramCredentialsRequest.UserName | dict[str, Any]] | None = ...,
        _unknown_tagged: tuple[tuple[int, bytes], ...] | None = ...,
    ) -> None: ...
    class UserName(Struct):
        """A struct of Kafka's DescribeUserScramCredentialsRequest."""
        name: str
        def __init__(
            self,
            name: str = ...,
            _unknown_tagged: tuple[tuple[int, bytes], ...] | None = ...,
        ) -> None: ...

class DescribeUserScramCredentialsResponse(Message):
    """Kafka's DescribeUserScramCredentialsResponse (response 50, versions 0)."""
    api_key: ClassVar[Literal[50]]
    kind: ClassVar[Literal['response']]
    throttle_time_ms: int
    error_code: int
    error_message: str | None
    results: list[DescribeUserScramCredentialsResponse.DescribeUserScramCredentialsResult]
    def __init__(
        self,
        throttle_time_ms: int = ...,
        error_code: int = ...,
        error_message: str | None = ...,
        results: Sequence[DescribeUserScramCredentialsResponse.DescribeUserScramCredentialsResult | dict[str, Any]] = ...,
        _unknown_tagged: tuple[tuple[int, bytes], ...] | None = ...,
    ) -> None: ...
    class DescribeUserScramCredentialsResult(Struct):
        """A struct of Kafka's DescribeUserScramCredentialsResponse."""
        user: str
        error_code: int
        error_message: str | None
        credential_infos: list[DescribeUserScramCredentialsResponse.CredentialInfo]
        def __init__(
            self,
            user: str = ...,
            error_code: int = ...,
            error_message: str | None = ...,
            credential_infos: Sequence[DescribeUserScramCredentialsResponse.CredentialInfo | dict[str, Any]] = ...,
            _unknown_tagged: tuple[tuple[int, bytes], ...] | None = ...,
        ) -> None: ...
    class CredentialInfo(Struct):
        """A struct of Kafka's DescribeUserScramCredentialsResponse."""
        mechanism: int
        iterations: int
        def __init__(
            self,
            mechanism: int = ...,
            iterations: int = ...,
            _unknown_tagged: tuple[tuple[int, bytes], ...] | None = ...,
        ) -> None: ...

class ElectLeadersRequest(Message):
    """Kafka's ElectLeadersRequest (request 43, versions 0-2)."""
    api_key: ClassVar[Literal[43]]
    kind: ClassVar[Literal['request']]
    election_type: int
    topic_partitions: list[ElectLeadersRequest.TopicPartitions] | None
    timeout_ms: int
    def __init__(
        self,
        election_type: int = ...,
        topic_partitions: Sequence[ElectLeadersRequest.TopicPartitions | dict[str, Any]] | None = ...,
        timeout_ms: int = ...,
        _unknown_tagged: tuple[tuple[int, bytes], ...] | None = ...,
    ) -> None: ...
    class TopicPartitions(Struct):
        """A struct of Kafka's ElectLeadersRequest."""
        topic: str
        partitions: list[int]
        def __init__(
            self,
            topic: str = ...,
            partitions: Sequence[int] = ...,
            _unknown_tagged: tuple[tuple[int, bytes], ...] | None = ...,
        ) -> None: ...

class ElectLeadersResponse(Message):
    """Kafka's ElectLeadersResponse (response 43, versions 0-2)."""
    api_key: ClassVar[Literal[43]]
    kind: ClassVar[Literal['response']]
    throttle_time_ms: int
    error_code: int
    replica_election_results: list[ElectLeadersResponse.ReplicaElectionResult]
    def __init__(
        self,
        throttle_time_ms: int = ...,
        error_code: int = ...,
        replica_election_results: Sequence[ElectLeadersResponse.ReplicaElectionResult | dict[str, Any]] = ...,
        _unknown_tagged: tuple[tuple[int, bytes], ...] | None = ...,
    ) -> None: ...
    class ReplicaElectionResult(Struct):
        """A struct of Kafka's ElectLeadersResponse."""
        topic: str
        partition_result: list[ElectLeadersResponse.PartitionResult]
        def __init__(
            self,
            topic: str = ...,
            partition_result: Sequence[ElectLeadersResponse.PartitionResult | dict[str, Any]] = ...,
            _unknown_tagged: tuple[tuple[int, bytes], ...] | None = ...,
        ) -> None: ...
    class PartitionResult(Struct):
        """A struct of Kafka's ElectLeadersResponse."""
        partition_id: int
        error_code: int
        error_message: str | None
        def __init__(
            self,
            partition_id: int = ...,
            error_code: int = ...,
            error_message: str | None = ...,
            _unknown_tagged: tuple[tuple[int, bytes], ...] | None = ...,
        ) -> None: ...

class EndQuorumEpochRequest(Message):
    """Kafka's EndQuorumEpochRequest (request 54, versions 0-1)."""
    api_key: ClassVar[Literal[54]]
    kind: ClassVar[Literal['request']]
    cluster_id: str | None
    topics: list[EndQuorumEpochRequest.TopicData]
    leader_endpoints: list[EndQuorumEpochRequest.LeaderEndpoint]
    def __init__(
        self,
        cluster_id: str | None = ...,
        topics: Sequence[EndQuorumEpochRequest.TopicData | dict[str, Any]] = ...,
        leader_endpoints: Sequence[EndQuorumEpochRequest.LeaderEndpoint | dict[str, Any]] = ...,
        _unknown_tagged: tuple[tuple[int, bytes], ...] | None = ...,
    ) -> None: ...
    class TopicData(Struct):
        """A struct of Kafka's EndQuorumEpochRequest."""
        topic_name: str
        partitions: list[EndQuorumEpochRequest.PartitionData]
        def __init__(
            self,
            topic_name: str = ...,
            partitions: Sequence[EndQuorumEpochRequest.PartitionData | dict[str, Any]] = ...,
            _unknown_tagged: tuple[tuple[int, bytes], ...] | None = ...,
        ) -> None: ...
    class PartitionData(Struct):
        """A struct of Kafka's EndQuorumEpochRequest."""
        partition_index: int
        leader_id: int
        leader_epoch: int
        preferred_successors: list[int]
        preferred_candidates: list[EndQuorumEpochRequest.ReplicaInfo]
        def __init__(
            self,
            partition_index: int = ...,
            leader_id: int = ...,
            leader_epoch: int = ...,
            preferred_successors: Sequence[int] = ...,
            preferred_candidates: Sequence[EndQuorumEpochRequest.ReplicaInfo | dict[str, Any]] = ...,
            _unknown_tagged: tuple[tuple[int, bytes], ...] | None = ...,
        ) -> None: ...
    class ReplicaInfo(Struct):
        """A struct of Kafka's EndQuorumEpochRequest."""
        candidate_id: int
        candidate_directory_id: uuid.UUID
        def __init__(
            self,
            candidate_id: int = ...,
            candidate_directory_id: uuid.UUID = ...,
            _unknown_tagged: tuple[tuple[int, bytes], ...] | None = ...,
        ) -> None: ...
    class LeaderEndpoint(Struct):
        """A struct of Kafka's EndQuorumEpochRequest."""
        name: str
        host: str
        port: int
        def __init__(
            self,
            name: str = ...,
            host: str = ...,
            port: int = ...,
            _unknown_tagged: tuple[tuple[int, bytes], ...] | None = ...,
        ) -> None: ...

class EndQuorumEpochResponse(Message):
    """Kafka's EndQuorumEpochResponse (response 54, versions 0-1)."""
    api_key: ClassVar[Literal[54]]
    kind: ClassVar[Literal['response']]
    error_code: int
    topics: list[EndQuorumEpochResponse.TopicData]
    node_endpoints: list[EndQuorumEpochResponse.NodeEndpoint]
    def __init__(
        self,
        error_code: int = ...,
        topics: Sequence[EndQuorumEpochResponse.TopicData | dict[str, Any]] = ...,
        node_endpoints: Sequence[EndQuorumEpochResponse.NodeEndpoint | dict[str, Any]] = ...,
        _unknown_tagged: tuple[tuple[int, bytes], ...] | None = ...,
    ) -> None: ...
    class TopicData(Struct):
        """A struct of Kafka's EndQuorumEpochResponse."""
        topic_name: str
        partitions: list[EndQuorumEpochResponse.PartitionData]
        def __init__(
            self,
            topic_name: str = ...,
            partitions: Sequence[EndQuorumEpochResponse.PartitionData | dict[str, Any]] = ...,
            _unknown_tagged: tuple[tuple[int, bytes], ...] | None = ...,
        ) -> None: ...
    class PartitionData(Struct):
        """A struct of Kafka's EndQuorumEpochResponse."""
        partition_index: int
        error_code: int
        leader_id: int
        leader_epoch: int
        def __init__(
            self,
            partition_index: int = ...,
            error_code: int = ...,
            leader_id: int = ...,
            leader_epoch: int = ...,
            _unknown_tagged: tuple[tuple[int, bytes], ...] | None = ...,
        ) -> None: ...
    class NodeEndpoint(Struct):
        """A struct of Kafka's EndQuorumEpochResponse."""
        node_id: int
        host: str
        port: int
        def __init__(
            self,
            node_id: int = ...,
            host: str = ...,
            port: int = ...,
            _unknown_tagged: tuple[tuple[int, bytes], ...] | None = ...,
        ) -> None: ...

class EndTxnRequest(Message):
    """Kafka's EndTxnRequest (request 26, versions 0-5)."""
    api_key: ClassVar[Literal[26]]
    kind: ClassVar[Literal['request']]
    transactional_id: str
    producer_id: int
    producer_epoch: int
    committed: bool
    def __init__(
        self,
        transactional_id: str = ...,
        producer_id: int = ...,
        producer_epoch: int = ...,
        committed: bool = ...,
        _unknown_tagged: tuple[tuple[int, bytes], ...] | None = ...,
    ) -> None: ...

class EndTxnResponse(Message):
    """Kafka's EndTxnResponse (response 26, versions 0-5)."""
    api_key: ClassVar[Literal[26]]
    kind: ClassVar[Literal['response']]
    throttle_time_ms: int
    error_code: int
    producer_id: int
    producer_epoch: int
    def __init__(
        self,
        throttle_time_ms: int = ...,
        error_code: int = ...,
        producer_id: int = ...,
        producer_epoch: int = ...,
        _unknown_tagged: tuple[tuple[int, bytes], ...] | None = ...,
    ) -> None: ...

class EnvelopeRequest(Message):
    """Kafka's EnvelopeRequest (request 58, versions 0)."""
    api_key: ClassVar[Literal[58]]
    kind: ClassVar[Literal['request']]
    request_data: bytes
    request_principal: bytes | None
    client_host_address: bytes
    def __init__(
        self,
        request_data: _Bytes = ...,
        request_principal: _Bytes | None = ...,
        client_host_address: _Bytes = ...,
        _unknown_tagged: tuple[tuple[int, bytes], ...] | None = ...,
    ) -> None: ...

class EnvelopeResponse(Message):
    """Kafka's EnvelopeResponse (response 58, versions 0)."""
    api_key: ClassVar[Literal[58]]
    kind: ClassVar[Literal['response']]
    response_data: bytes | None
    error_code: int
    def __init__(
        self,
        response_data: _Bytes | None = ...,
        error_code: int = ...,
        _unknown_tagged: tuple[tuple[int, bytes], ...] | None = ...,
    ) -> None: ...

class ExpireDelegationTokenRequest(Message):
    """Kafka's ExpireDelegationTokenRequest (request 40, versions 1-2)."""
    api_key: ClassVar[Literal[40]]
    kind: ClassVar[Literal['request']]
    hmac: bytes
    expiry_time_period_ms: int
    def __init__(
        self,
        hmac: _Bytes = ...,
        expiry_time_period_ms: int = ...,
        _unknown_tagged: tuple[tuple[int, bytes], ...] | None = ...,
    ) -> None: ...

class ExpireDelegationTokenResponse(Message):
    """Kafka's ExpireDelegationTokenResponse (response 40, versions 1-2)."""
    api_key: ClassVar[Literal[40]]
    kind: ClassVar[Literal['response']]
    error_code: int
    expiry_timestamp_ms: int
    throttle_time_ms: int
    def __init__(
        self,
        error_code: int = ...,
        expiry_timestamp_ms: int = ...,
        throttle_time_ms: int = ...,
        _unknown_tagged: tuple[tuple[int, bytes], ...] | None = ...,
    ) -> None: ...

class FetchRequest(Message):
    """Kafka's FetchRequest (request 1, versions 4-18)."""
    api_key: ClassVar[Literal[1]]
    kind: ClassVar[Literal['request']]
    cluster_id: str | None
    replica_id: int
    replica_state: FetchRequest.ReplicaState
    max_wait_ms: int
    min_bytes: int
    max_bytes: int
    isolation_level: int
    session_id: int
    session_epoch: int
    topics: list[FetchRequest.FetchTopic]
    forgotten_topics_data: list[FetchRequest.ForgottenTopic]
    rack_id: str
    def __init__(
        self,
        cluster_id: str | None = ...,
        replica_id: int = ...,
        replica_state: FetchRequest.ReplicaState | dict[str, Any] = ...,
        max_wait_ms: int = ...,
        min_bytes: int = ...,
        max_bytes: int = ...,
        isolation_level: int = ...,
        session_id: int = ...,
        session_epoch: int = ...,
        topics: Sequence[FetchRequest.FetchTopic | dict[str, Any]] = ...,
        forgotten_topics_data: Sequence[FetchRequest.ForgottenTopic | dict[str, Any]] = ...,
        rack_id: str = ...,
        _unknown_tagged: tuple[tuple[int, bytes], ...] | None = ...,
    ) -> None: ...
    class ReplicaState(Struct):
        """A struct of Kafka's FetchRequest."""
        replica_id: int
        replica_epoch: int
        def __init__(
            self,
            replica_id: int = ...,
            replica_epoch: int = ...,
            _unknown_tagged: tuple[tuple[int, bytes], ...] | None = ...,
        ) -> None: ...
    class FetchTopic(Struct):
        """A struct of Kafka's FetchRequest."""
        topic: str
        topic_id: uuid.UUID
        partitions: list[FetchRequest.FetchPartition]
        def __init__(
            self,
            topic: str = ...,
            topic_id: uuid.UUID = ...,
            partitions: Sequence[FetchRequest.FetchPartition | dict[str, Any]] = ...,
            _unknown_tagged: tuple[tuple[int, bytes], ...] | None = ...,
        ) -> None: ...
    class FetchPartition(Struct):
        """A struct of Kafka's FetchRequest."""
        partition: int
        current_leader_epoch: int
        fetch_offset: int
        last_fetched_epoch: int
        log_start_offset: int
        partition_max_bytes: int
        replica_directory_id: uuid.UUID
        high_watermark: int
        def __init__(
            self,
            partition: int = ...,
            current_leader_epoch: int = ...,
            fetch_offset: int = ...,
            last_fetched_epoch: int = ...,
            log_start_offset: int = ...,
            partition_max_bytes: int = ...,
            replica_directory_id: uuid.UUID = ...,
            high_watermark: int = ...,
            _unknown_tagged: tuple[tuple[int, bytes], ...] | None = ...,
        ) -> None: ...
    class ForgottenTopic(Struct):
        """A struct of Kafka's FetchRequest."""
        topic: str
        topic_id: uuid.UUID
        partitions: list[int]
        def __init__(
            self,
            topic: str = ...,
            topic_id: uuid.UUID = ...,
            partitions: Sequence[int] = ...,
            _unknown_tagged: tuple[tuple[int, bytes], ...] | None = ...,
        ) -> None: ...

class FetchResponse(Message):
    """Kafka's FetchResponse (response 1, versions 4-18)."""
    api_key: ClassVar[Literal[1]]
    kind: ClassVar[Literal['response']]
    throttle_time_ms: int
    error_code: int
    session_id: int
    responses: list[FetchResponse.FetchableTopicResponse]
    node_endpoints: list[FetchResponse.NodeEndpoint]
    def __init__(
        self,
        throttle_time_ms: int = ...,
        error_code: int = ...,
        session_id: int = ...,
        responses: Sequence[FetchResponse.FetchableTopicResponse | dict[str, Any]] = ...,
        node_endpoints: Sequence[FetchResponse.NodeEndpoint | dict[str, Any]] = ...,
        _unknown_tagged: tuple[tuple[int, bytes], ...] | None = ...,
    ) -> None: ...
    class FetchableTopicResponse(Struct):
        """A struct of Kafka's FetchResponse."""
        topic: str
        topic_id: uuid.UUID
        partitions: list[FetchResponse.PartitionData]
        def __init__(
            self,
            topic: str = ...,
            topic_id: uuid.UUID = ...,
            partitions: Sequence[FetchResponse.PartitionData | dict[str, Any]] = ...,
            _unknown_tagged: tuple[tuple[int, bytes], ...] | None = ...,
        ) -> None: ...
    class PartitionData(Struct):
        """A struct of Kafka's FetchResponse."""
        partition_index: int
        error_code: int
        high_watermark: int
        last_stable_offset: int
        log_start_offset: int
        diverging_epoch: FetchResponse.EpochEndOffset
        current_leader: FetchResponse.LeaderIdAndEpoch
        snapshot_id: FetchResponse.SnapshotId
        aborted_transactions: list[FetchResponse.AbortedTransaction] | None
        preferred_read_replica: int
        records: _Bytes | None
        def __init__(
            self,
            partition_index: int = ...,
            error_code: int = ...,
            high_watermark: int = ...,
            last_stable_offset: int = ...,
            log_start_offset: int = ...,
            diverging_epoch: FetchResponse.EpochEndOffset | dict[str, Any] = ...,
            current_leader: FetchResponse.LeaderIdAndEpoch | dict[str, Any] = ...,
            snapshot_id: FetchResponse.SnapshotId | dict[str, Any] = ...,
            aborted_transactions: Sequence[FetchResponse.AbortedTransaction | dict[str, Any]] | None = ...,
            preferred_read_replica: int = ...,
            records: _Bytes | None = ...,
            _unknown_tagged: tuple[tuple[int, bytes], ...] | None = ...,
        ) -> None: ...
    class EpochEndOffset(Struct):
        """A struct of Kafka's FetchResponse."""
        epoch: int
        end_offset: int
        def __init__(
            self,
            epoch: int = ...,
            end_offset: int = ...,
            _unknown_tagged: tuple[tuple[int, bytes], ...] | None = ...,
        ) -> None: ...
    class LeaderIdAndEpoch(Struct):
        """A struct of Kafka's FetchResponse."""
        leader_id: int
        leader_epoch: int
        def __init__(
            self,
            leader_id: int = ...,
            leader_epoch: int = ...,
            _unknown_tagged: tuple[tuple[int, bytes], ...] | None = ...,
        ) -> None: ...
    class SnapshotId(Struct):
        """A struct of Kafka's FetchResponse."""
        end_offset: int
        epoch: int
        def __init__(
            self,
            end_offset: int = ...,
            epoch: int = ...,
            _unknown_tagged: tuple[tuple[int, bytes], ...] | None = ...,
        ) -> None: ...
    class AbortedTransaction(Struct):
        """A struct of Kafka's FetchResponse."""
        producer_id: int
        first_offset: int
        def __init__(
            self,
            producer_id: int = ...,
            first_offset: int = ...,
            _unknown_tagged: tuple[tuple[int, bytes], ...] | None = ...,
        ) -> None: ...
    class NodeEndpoint(Struct):
        """A struct of Kafka's FetchResponse."""
        node_id: int
        host: str
        port: int
        rack: str | None
        def __init__(
            self,
            node_id: int = ...,
            host: str = ...,
            port: int = ...,
            rack: str | None = ...,
            _unknown_tagged: tuple[tuple[int, bytes], ...] | None = ...,
        ) -> None: ...

class FetchSnapshotRequest(Message):
    """Kafka's FetchSnapshotRequest (request 59, versions 0-1)."""
    api_key: ClassVar[Literal[59]]
    kind: ClassVar[Literal['request']]
    cluster_id: str | None
    replica_id: int
    max_bytes: int
    topics: list[FetchSnapshotRequest.TopicSnapshot]
    def __init__(
        self,
        cluster_id: str | None = ...,
        replica_id: int = ...,
        max_bytes: int = ...,
        topics: Sequence[FetchSnapshotRequest.TopicSnapshot | dict[str, Any]] = ...,
        _unknown_tagged: tuple[tuple[int, bytes], ...] | None = ...,
    ) -> None: ...
    class TopicSnapshot(Struct):
        """A struct of Kafka's FetchSnapshotRequest."""
        name: str
        partitions: list[FetchSnapshotRequest.PartitionSnapshot]
        def __init__(
            self,
            name: str = ...,
            partitions: Sequence[FetchSnapshotRequest.PartitionSnapshot | dict[str, Any]] = ...,
            _unknown_tagged: tuple[tuple[int, bytes], ...] | None = ...,
        ) -> None: ...
    class PartitionSnapshot(Struct):
        """A struct of Kafka's FetchSnapshotRequest."""
        partition: int
        current_leader_epoch: int
        snapshot_id: FetchSnapshotRequest.SnapshotId
        position: int
        replica_directory_id: uuid.UUID
        def __init__(
            self,
            partition: int = ...,
            current_leader_epoch: int = ...,
            snapshot_id: FetchSnapshotRequest.SnapshotId | dict[str, Any] = ...,
            position: int = ...,
            replica_directory_id: uuid.UUID = ...,
            _unknown_tagged: tuple[tuple[int, bytes], ...] | None = ...,
        ) -> None: ...
    class SnapshotId(Struct):
        """A struct of Kafka's FetchSnapshotRequest."""
        end_offset: int
        epoch: int
        def __init__(
            self,
            end_offset: int = ...,
            epoch: int = ...,
            _unknown_tagged: tuple[tuple[int, bytes], ...] | None = ...,
        ) -> None: ...

class FetchSnapshotResponse(Message):
    """Kafka's FetchSnapshotResponse (response 59, versions 0-1)."""
    api_key: ClassVar[Literal[59]]
    kind: ClassVar[Literal['response']]
    throttle_time_ms: int
    error_code: int
    topics: list[FetchSnapshotResponse.TopicSnapshot]
    node_endpoints: list[FetchSnapshotResponse.NodeEndpoint]
    def __init__(
        self,
        throttle_time_ms: int = ...,
        error_code: int = ...,
        topics: Sequence[FetchSnapshotResponse.TopicSnapshot | dict[str, Any]] = ...,
        node_endpoints: Sequence[FetchSnapshotResponse.NodeEndpoint | dict[str, Any]] = ...,
        _unknown_tagged: tuple[tuple[int, bytes], ...] | None = ...,
    ) -> None: ...
    class TopicSnapshot(Struct):
        """A struct of Kafka's FetchSnapshotResponse."""
        name: str
        partitions: list[FetchSnapshotResponse.PartitionSnapshot]
        def __init__(
            self,
            name: str = ...,
            partitions: Sequence[FetchSnapshotResponse.PartitionSnapshot | dict[str, Any]] = ...,
            _unknown_tagged: tuple[tuple[int, bytes], ...] | None = ...,
        ) -> None: ...
    class PartitionSnapshot(Struct):
        """A struct of Kafka's FetchSnapshotResponse."""
        index: int
        error_code: int
        snapshot_id: FetchSnapshotResponse.SnapshotId
        current_leader: FetchSnapshotResponse.LeaderIdAndEpoch
        size: int  # type: ignore[assignment]
        position: int
        unaligned_records: _Bytes
        def __init__(
            self,
            index: int = ...,
            error_code: int = ...,
            snapshot_id: FetchSnapshotResponse.SnapshotId | dict[str, Any] = ...,
            current_leader: FetchSnapshotResponse.LeaderIdAndEpoch | dict[str, Any] = ...,
            size: int = ...,
            position: int = ...,
            unaligned_records: _Bytes = ...,
            _unknown_tagged: tuple[tuple[int, bytes], ...] | None = ...,
        ) -> None: ...
    class SnapshotId(Struct):
        """A struct of Kafka's FetchSnapshotResponse."""
        end_offset: int
        epoch: int
        def __init__(
            self,
            end_offset: int = ...,
            epoch: int = ...,
            _unknown_tagged: tuple[tuple[int, bytes], ...] | None = ...,
        ) -> None: ...
    class LeaderIdAndEpoch(Struct):
        """A struct of Kafka's FetchSnapshotResponse."""
        leader_id: int
        leader_epoch: int
        def __init__(
            self,
            leader_id: int = ...,
            leader_epoch: int = ...,
            _unknown_tagged: tuple[tuple[int, bytes], ...] | None = ...,
        ) -> None: ...
    class NodeEndpoint(Struct):
        """A struct of Kafka's FetchSnapshotResponse."""
        node_id: int
        host: str
        port: int
        def __init__(
            self,
            node_id: int = ...,
            host: str = ...,
            port: int = ...,
            _unknown_tagged: tuple[tuple[int, bytes], ...] | None = ...,
        ) -> None: ...

class FindCoordinatorRequest(Message):
    """Kafka's FindCoordinatorRequest (request 10, versions 0-6)."""
    api_key: ClassVar[Literal[10]]
    kind: ClassVar[Literal['request']]
    key: str
    key_type: int
    coordinator_keys: list[str]
    def __init__(
        self,
        key: str = ...,
        key_type: int = ...,
        coordinator_keys: Sequence[str] = ...,
        _unknown_tagged: tuple[tuple[int, bytes], ...] | None = ...,
    ) -> None: ...

class FindCoordinatorResponse(Message):
    """Kafka's FindCoordinatorResponse (response 10, versions 0-6)."""
    api_key: ClassVar[Literal[10]]
    kind: ClassVar[Literal['response']]
    throttle_time_ms: int
    error_code: int
    error_message: str | None
    node_id: int
    host: str
    port: int
    coordinators: list[FindCoordinatorResponse.Coordinator]
    def __init__(
        self,
        throttle_time_ms: int = ...,
        error_code: int = ...,
        error_message: str | None = ...,
        node_id: int = ...,
        host: str = ...,
        port: int = ...,
        coordinators: Sequence[FindCoordinatorResponse.Coordinator | dict[str, Any]] = ...,
        _unknown_tagged: tuple[tuple[int, bytes], ...] | None = ...,
    ) -> None: ...
    class Coordinator(Struct):
        """A struct of Kafka's FindCoordinatorResponse."""
        key: str
        node_id: int
        host: str
        port: int
        error_code: int
        error_message: str | None
        def __init__(
            self,
            key: str = ...,
            node_id: int = ...,
            host: str = ...,
            port: int = ...,
            error_code: int = ...,
            error_message: str | None = ...,
            _unknown_tagged: tuple[tuple[int, bytes], ...] | None = ...,
        ) -> None: ...

class GetTelemetrySubscriptionsRequest(Message):
    """Kafka's GetTelemetrySubscriptionsRequest (request 71, versions 0)."""
    api_key: ClassVar[Literal[71]]
    kind: ClassVar[Literal['request']]
    client_instance_id: uuid.UUID
    def __init__(
        self,
        client_instance_id: uuid.UUID = ...,
        _unknown_tagged: tuple[tuple[int, bytes], ...] | None = ...,
    ) -> None: ...

class GetTelemetrySubscriptionsResponse(Message):
    """Kafka's GetTelemetrySubscriptionsResponse (response 71, versions 0)."""
    api_key: ClassVar[Literal[71]]
    kind: ClassVar[Literal['response']]
    throttle_time_ms: int
    error_code: int
    client_instance_id: uuid.UUID
    subscription_id: int
    accepted_compression_types: list[int]
    push_interval_ms: int
    telemetry_max_bytes: int
    delta_temporality: bool
    requested_metrics: list[str]
    def __init__(
        self,
        throttle_time_ms: int = ...,
        error_code: int = ...,
        client_instance_id: uuid.UUID = ...,
        subscription_id: int = ...,
        accepted_compression_types: Sequence[int] = ...,
        push_interval_ms: int = ...,
        telemetry_max_bytes: int = ...,
        delta_temporality: bool = ...,
        requested_metrics: Sequence[str] = ...,
        _unknown_tagged: tuple[tuple[int, bytes], ...] | None = ...,
    ) -> None: ...

class HeartbeatRequest(Message):
    """Kafka's HeartbeatRequest (request 12, versions 0-4)."""
    api_key: ClassVar[Literal[12]]
    kind: ClassVar[Literal['request']]
    group_id: str
    generation_id: int
    member_id: str
    group_instance_id: str | None
    def __init__(
        self,
        group_id: str = ...,
        generation_id: int = ...,
        member_id: str = ...,
        group_instance_id: str | None = ...,
        _unknown_tagged: tuple[tuple[int, bytes], ...] | None = ...,
    ) -> None: ...

class HeartbeatResponse(Message):
    """Kafka's HeartbeatResponse (response 12, versions 0-4)."""
    api_key: ClassVar[Literal[12]]
    kind: ClassVar[Literal['response']]
    throttle_time_ms: int
    error_code: int
    def __init__(
        self,
        throttle_time_ms: int = ...,
        error_code: int = ...,
        _unknown_tagged: tuple[tuple[int, bytes], ...] | None = ...,
    ) -> None: ...

class IncrementalAlterConfigsRequest(Message):
    """Kafka's IncrementalAlterConfigsRequest (request 44, versions 0-1)."""
    api_key: ClassVar[Literal[44]]
    kind: ClassVar[Literal['request']]
    resources: list[IncrementalAlterConfigsRequest.AlterConfigsResource]
    validate_only: bool
    def __init__(
        self,
        resources: Sequence[IncrementalAlterConfigsRequest.AlterConfigsResource | dict[str, Any]] = ...,
        validate_only: bool = ...,
        _unknown_tagged: tuple[tuple[int, bytes], ...] | None = ...,
    ) -> None: ...
    class AlterConfigsResource(Struct):
        """A struct of Kafka's IncrementalAlterConfigsRequest."""
        resource_type: int
        resource_name: str
        configs: list[IncrementalAlterConfigsRequest.AlterableConfig]
        def __init__(
            self,
            resource_type: int = ...,
            resource_name: str = ...,
            configs: Sequence[IncrementalAlterConfigsRequest.AlterableConfig | dict[str, Any]] = ...,
            _unknown_tagged: tuple[tuple[int, bytes], ...] | None = ...,
        ) -> None: ...
    class AlterableConfig(Struct):
        """A struct of Kafka's IncrementalAlterConfigsRequest."""
        name: str
        config_operation: int
        value: str | None
        def __init__(
            self,
            name: str = ...,
            config_operation: int = ...,
            value: str | None = ...,
            _unknown_tagged: tuple[tuple[int, bytes], ...] | None = ...,
        ) -> None: ...

class IncrementalAlterConfigsResponse(Message):
    """Kafka's IncrementalAlterConfigsResponse (response 44, versions 0-1)."""
    api_key: ClassVar[Literal[44]]
    kind: ClassVar[Literal['response']]
    throttle_time_ms: int
    responses: list[IncrementalAlterConfigsResponse.AlterConfigsResourceResponse]
    def __init__(
        self,
        throttle_time_ms: int = ...,
        responses: Sequence[IncrementalAlterConfigsResponse.AlterConfigsResourceResponse | dict[str, Any]] = ...,
        _unknown_tagged: tuple[tuple[int, bytes], ...] | None = ...,
    ) -> None: ...
    class AlterConfigsResourceResponse(Struct):
        """A struct of Kafka's IncrementalAlterConfigsResponse."""
        error_code: int
        error_message: str | None
        resource_type: int
        resource_name: str
        def __init__(
            self,
            error_code: int = ...,
            error_message: str | None = ...,
            resource_type: int = ...,
            resource_name: str = ...,
            _unknown_tagged: tuple[tuple[int, bytes], ...] | None = ...,
        ) -> None: ...

class InitProducerIdRequest(Message):
    """Kafka's InitProducerIdRequest (request 22, versions 0-6)."""
    api_key: ClassVar[Literal[22]]
    kind: ClassVar[Literal['request']]
    transactional_id: str | None
    transaction_timeout_ms: int
    producer_id: int
    producer_epoch: int
    enable2_pc: bool
    keep_prepared_txn: bool
    def __init__(
        self,
        transactional_id: str | None = ...,
        transaction_timeout_ms: int = ...,
        producer_id: int = ...,
        producer_epoch: int = ...,
        enable2_pc: bool = ...,
        keep_prepared_txn: bool = ...,
        _unknown_tagged: tuple[tuple[int, bytes], ...] | None = ...,
    ) -> None: ...

class InitProducerIdResponse(Message):
    """Kafka's InitProducerIdResponse (response 22, versions 0-6)."""
    api_key: ClassVar[Literal[22]]
    kind: ClassVar[Literal['response']]
    throttle_time_ms: int
    error_code: int
    producer_id: int
    producer_epoch: int
    ongoing_txn_producer_id: int
    ongoing_txn_producer_epoch: int
    def __init__(
        self,
        throttle_time_ms: int = ...,
        error_code: int = ...,
        producer_id: int = ...,
        producer_epoch: int = ...,
        ongoing_txn_producer_id: int = ...,
        ongoing_txn_producer_epoch: int = ...,
        _unknown_tagged: tuple[tuple[int, bytes], ...] | None = ...,
    ) -> None: ...

class InitializeShareGroupStateRequest(Message):
    """Kafka's InitializeShareGroupStateRequest (request 83, versions 0)."""
    api_key: ClassVar[Literal[83]]
    kind: ClassVar[Literal['request']]
    group_id: str
    topics: list[InitializeShareGroupStateRequest.InitializeStateData]
    def __init__(
        self,
        group_id: str = ...,
        topics: Sequence[InitializeShareGroupStateRequest.InitializeStateData | dict[str, Any]] = ...,
        _unknown_tagged: tuple[tuple[int, bytes], ...] | None = ...,
    ) -> None: ...
    class InitializeStateData(Struct):
        """A struct of Kafka's InitializeShareGroupStateRequest."""
        topic_id: uuid.UUID
        partitions: list[InitializeShareGroupStateRequest.PartitionData]
        def __init__(
            self,
            topic_id: uuid.UUID = ...,
            partitions: Sequence[InitializeShareGroupStateRequest.PartitionData | dict[str, Any]] = ...,
            _unknown_tagged: tuple[tuple[int, bytes], ...] | None = ...,
        ) -> None: ...
    class PartitionData(Struct):
        """A struct of Kafka's InitializeShareGroupStateRequest."""
        partition: int
        state_epoch: int
        start_offset: int
        def __init__(
            self,
            partition: int = ...,
            state_epoch: int = ...,
            start_offset: int = ...,
            _unknown_tagged: tuple[tuple[int, bytes], ...] | None = ...,
        ) -> None: ...

class InitializeShareGroupStateResponse(Message):
    """Kafka's InitializeShareGroupStateResponse (response 83, versions 0)."""
    api_key: ClassVar[Literal[83]]
    kind: ClassVar[Literal['response']]
    results: list[InitializeShareGroupStateResponse.InitializeStateResult]
    def __init__(
        self,
        results: Sequence[InitializeShareGroupStateResponse.InitializeStateResult | dict[str, Any]] = ...,
        _unknown_tagged: tuple[tuple[int, bytes], ...] | None = ...,
    ) -> None: ...
    class InitializeStateResult(Struct):
        """A struct of Kafka's InitializeShareGroupStateResponse."""
        topic_id: uuid.UUID
        partitions: list[InitializeShareGroupStateResponse.PartitionResult]
        def __init__(
            self,
            topic_id: uuid.UUID = ...,
            partitions: Sequence[InitializeShareGroupStateResponse.PartitionResult | dict[str, Any]] = ...,
            _unknown_tagged: tuple[tuple[int, bytes], ...] | None = ...,
        ) -> None: ...
    class PartitionResult(Struct):
        """A struct of Kafka's InitializeShareGroupStateResponse."""
        partition: int
        error_code: int
        error_message: str | None
        def __init__(
            self,
            partition: int = ...,
            error_code: int = ...,
            error_message: str | None = ...,
            _unknown_tagged: tuple[tuple[int, bytes], ...] | None = ...,
        ) -> None: ...

class JoinGroupRequest(Message):
    """Kafka's JoinGroupRequest (request 11, versions 0-9)."""
    api_key: ClassVar[Literal[11]]
    kind: ClassVar[Literal['request']]
    group_id: str
    session_timeout_ms: int
    rebalance_timeout_ms: int
    member_id: str
    group_instance_id: str | None
    protocol_type: str
    protocols: list[JoinGroupRequest.JoinGroupRequestProtocol]
    reason: str | None
    def __init__(
        self,
        group_id: str = ...,
        session_timeout_ms: int = ...,
        rebalance_timeout_ms: int = ...,
        member_id: str = ...,
        group_instance_id: str | None = ...,
        protocol_type: str = ...,
        protocols: Sequence[JoinGroupRequest.JoinGroupRequestProtocol | dict[str, Any]] = ...,
        reason: str | None = ...,
        _unknown_tagged: tuple[tuple[int, bytes], ...] | None = ...,
    ) -> None: ...
    class JoinGroupRequestProtocol(Struct):
        """A struct of Kafka's JoinGroupRequest."""
        name: str
        metadata: bytes
        def __init__(
            self,
            name: str = ...,
            metadata: _Bytes = ...,
            _unknown_tagged: tuple[tuple[int, bytes], ...] | None = ...,
        ) -> None: ...

class JoinGroupResponse(Message):
    """Kafka's JoinGroupResponse (response 11, versions 0-9)."""
    api_key: ClassVar[Literal[11]]
    kind: ClassVar[Literal['response']]
    throttle_time_ms: int
    error_code: int
    generation_id: int
    protocol_type: str | None
    protocol_name: str | None
    leader: str
    skip_assignment: bool
    member_id: str
    members: list[JoinGroupResponse.JoinGroupResponseMember]
    def __init__(
        self,
        throttle_time_ms: int = ...,
        error_code: int = ...,
        generation_id: int = ...,
        protocol_type: str | None = ...,
        protocol_name: str | None = ...,
        leader: str = ...,
        skip_assignment: bool = ...,
        member_id: str = ...,
        members: Sequence[JoinGroupResponse.JoinGroupResponseMember | dict[str, Any]] = ...,
        _unknown_tagged: tuple[tuple[int, bytes], ...] | None = ...,
    ) -> None: ...
    class JoinGroupResponseMember(Struct):
        """A struct of Kafka's JoinGroupResponse."""
        member_id: str
        group_instance_id: str | None
        metadata: bytes
        def __init__(
            self,
            member_id: str = ...,
            group_instance_id: str | None = ...,
            metadata: _Bytes = ...,
            _unknown_tagged: tuple[tuple[int, bytes], ...] | None = ...,
        ) -> None: ...

class LeaderAndIsrRequest(Message):
    """Kafka's LeaderAndIsrRequest (request 4, versions none)."""
    api_key: ClassVar[Literal[4]]
    kind: ClassVar[Literal['request']]
    def __init__(
        self,
        _unknown_tagged: tuple[tuple[int, bytes], ...] | None = ...,
    ) -> None: ...

class LeaderAndIsrResponse(Message):
    """Kafka's LeaderAndIsrResponse (response 4, versions none)."""
    api_key: ClassVar[Literal[4]]
    kind: ClassVar[Literal['response']]
    def __init__(
        self,
        _unknown_tagged: tuple[tuple[int, bytes], ...] | None = ...,
    ) -> None: ...

class LeaveGroupRequest(Message):
    """Kafka's LeaveGroupRequest (request 13, versions 0-5)."""
    api_key: ClassVar[Literal[13]]
    kind: ClassVar[Literal['request']]
    group_id: str
    member_id: str
    members: list[LeaveGroupRequest.MemberIdentity]
    def __init__(
        self,
        group_id: str = ...,
        member_id: str = ...,
        members: Sequence[LeaveGroupRequest.MemberIdentity | dict[str, Any]] = ...,
        _unknown_tagged: tuple[tuple[int, bytes], ...] | None = ...,
    ) -> None: ...
    class MemberIdentity(Struct):
        """A struct of Kafka's LeaveGroupRequest."""
        member_id: str
        group_instance_id: str | None
        reason: str | None
        def __init__(
            self,
            member_id: str = ...,
            group_instance_id: str | None = ...,
            reason: str | None = ...,
            _unknown_tagged: tuple[tuple[int, bytes], ...] | None = ...,
        ) -> None: ...

class LeaveGroupResponse(Message):
    """Kafka's LeaveGroupResponse (response 13, versions 0-5)."""
    api_key: ClassVar[Literal[13]]
    kind: ClassVar[Literal['response']]
    throttle_time_ms: int
    error_code: int
    members: list[LeaveGroupResponse.MemberResponse]
    def __init__(
        self,
        throttle_time_ms: int = ...,
        error_code: int = ...,
        members: Sequence[LeaveGroupResponse.MemberResponse | dict[str, Any]] = ...,
        _unknown_tagged: tuple[tuple[int, bytes], ...] | None = ...,
    ) -> None: ...
    class MemberResponse(Struct):
        """A struct of Kafka's LeaveGroupResponse."""
        member_id: str
        group_instance_id: str | None
        error_code: int
        def __init__(
            self,
            member_id: str = ...,
            group_instance_id: str | None = ...,
            error_code: int = ...,
            _unknown_tagged: tuple[tuple[int, bytes], ...] | None = ...,
        ) -> None: ...

class ListConfigResourcesRequest(Message):
    """Kafka's ListConfigResourcesRequest (request 74, versions 0-1)."""
    api_key: ClassVar[Literal[74]]
    kind: ClassVar[Literal['request']]
    resource_types: list[int]
    def __init__(
        self,
        resource_types: Sequence[int] = ...,
        _unknown_tagged: tuple[tuple[int, bytes], ...] | None = ...,
    ) -> None: ...

class ListConfigResourcesResponse(Message):
    """Kafka's ListConfigResourcesResponse (response 74, versions 0-1)."""
    api_key: ClassVar[Literal[74]]
    kind: ClassVar[Literal['response']]
    throttle_time_ms: int
    error_code: int
    config_resources: list[ListConfigResourcesResponse.ConfigResource]
    def __init__(
        self,
        throttle_time_ms: int = ...,
        error_code: int = ...,
        config_resources: Sequence[ListConfigResourcesResponse.ConfigResource | dict[str, Any]] = ...,
        _unknown_tagged: tuple[tuple[int, bytes], ...] | None = ...,
    ) -> None: ...
    class ConfigResource(Struct):
        """A struct of Kafka's ListConfigResourcesResponse."""
        resource_name: str
        resource_type: int
        def __init__(
            self,
            resource_name: str = ...,
            resource_type: int = ...,
            _unknown_tagged: tuple[tuple[int, bytes], ...] | None = ...,
        ) -> None: ...

class ListGroupsRequest(Message):
    """Kafka's ListGroupsRequest (request 16, versions 0-5)."""
    api_key: ClassVar[Literal[16]]
    kind: ClassVar[Literal['request']]
    states_filter: list[str]
    types_filter: list[str]
    def __init__(
        self,
        states_filter: Sequence[str] = ...,
        types_filter: Sequence[str] = ...,
        _unknown_tagged: tuple[tuple[int, bytes], ...] | None = ...,
    ) -> None: ...

class ListGroupsResponse(Message):
    """Kafka's ListGroupsResponse (response 16, versions 0-5)."""
    api_key: ClassVar[Literal[16]]
    kind: ClassVar[Literal['response']]
    throttle_time_ms: int
    error_code: int
    groups: list[ListGroupsResponse.ListedGroup]
    def __init__(
        self,
        throttle_time_ms: int = ...,
        error_code: int = ...,
        groups: Sequence[ListGroupsResponse.ListedGroup | dict[str, Any]] = ...,
        _unknown_tagged: tuple[tuple[int, bytes], ...] | None = ...,
    ) -> None: ...
    class ListedGroup(Struct):
        """A struct of Kafka's ListGroupsResponse."""
        group_id: str
        protocol_type: str
        group_state: str
        group_type: str
        def __init__(
            self,
            group_id: str = ...,
            protocol_type: str = ...,
            group_state: str = ...,
            group_type: str = ...,
            _unknown_tagged: tuple[tuple[int, bytes], ...] | None = ...,
        ) -> None: ...

class ListOffsetsRequest(Message):
    """Kafka's ListOffsetsRequest (request 2, versions 1-11)."""
    api_key: ClassVar[Literal[2]]
    kind: ClassVar[Literal['request']]
    replica_id: int
    isolation_level: int
    topics: list[ListOffsetsRequest.ListOffsetsTopic]
    timeout_ms: int
    def __init__(
        self,
        replica_id: int = ...,
        isolation_level: int = ...,
        topics: Sequence[ListOffsetsRequest.ListOffsetsTopic | dict[str, Any]] = ...,
        timeout_ms: int = ...,
        _unknown_tagged: tuple[tuple[int, bytes], ...] | None = ...,
    ) -> None: ...
    class ListOffsetsTopic(Struct):
        """A struct of Kafka's ListOffsetsRequest."""
        name: str
        partitions: list[ListOffsetsRequest.ListOffsetsPartition]
        def __init__(
            self,
            name: str = ...,
            partitions: Sequence[ListOffsetsRequest.ListOffsetsPartition | dict[str, Any]] = ...,
            _unknown_tagged: tuple[tuple[int, bytes], ...] | None = ...,
        ) -> None: ...
    class ListOffsetsPartition(Struct):
        """A struct of Kafka's ListOffsetsRequest."""
        partition_index: int
        current_leader_epoch: int
        timestamp: int
        def __init__(
            self,
            partition_index: int = ...,
            current_leader_epoch: int = ...,
            timestamp: int = ...,
            _unknown_tagged: tuple[tuple[int, bytes], ...] | None = ...,
        ) -> None: ...

class ListOffsetsResponse(Message):
    """Kafka's ListOffsetsResponse (response 2, versions 1-11)."""
    api_key: ClassVar[Literal[2]]
    kind: ClassVar[Literal['response']]
    throttle_time_ms: int
    topics: list[ListOffsetsResponse.ListOffsetsTopicResponse]
    def __init__(
        self,
        throttle_time_ms: int = ...,
        topics: Sequence[ListOffsetsResponse.ListOffsetsTopicResponse | dict[str, Any]] = ...,
        _unknown_tagged: tuple[tuple[int, bytes], ...] | None = ...,
    ) -> None: ...
    class ListOffsetsTopicResponse(Struct):
        """A struct of Kafka's ListOffsetsResponse."""
        name: str
        partitions: list[ListOffsetsResponse.ListOffsetsPartitionResponse]
        def __init__(
            self,
            name: str = ...,
            partitions: Sequence[ListOffsetsResponse.ListOffsetsPartitionResponse | dict[str, Any]] = ...,
            _unknown_tagged: tuple[tuple[int, bytes], ...] | None = ...,
        ) -> None: ...
    class ListOffsetsPartitionResponse(Struct):
        """A struct of Kafka's ListOffsetsResponse."""
        partition_index: int
        error_code: int
        timestamp: int
        offset: int
        leader_epoch: int
        def __init__(
            self,
            partition_index: int = ...,
            error_code: int = ...,
            timestamp: int = ...,
            offset: int = ...,
            leader_epoch: int = ...,
            _unknown_tagged: tuple[tuple[int, bytes], ...] | None = ...,
        ) -> None: ...

class ListPartitionReassignmentsRequest(Message):
    """Kafka's ListPartitionReassignmentsRequest (request 46, versions 0)."""
    api_key: ClassVar[Literal[46]]
    kind: ClassVar[Literal['request']]
    timeout_ms: int
    topics: list[ListPartitionReassignmentsRequest.ListPartitionReassignmentsTopics] | None
    def __init__(
        self,
        timeout_ms: int = ...,
        topics: Sequence[ListPartitionReassignmentsRequest.ListPartitionReassignmentsTopics | dict[str, Any]] | None = ...,
        _unknown_tagged: tuple[tuple[int, bytes], ...] | None = ...,
    ) -> None: ...
    class ListPartitionReassignmentsTopics(Struct):
        """A struct of Kafka's ListPartitionReassignmentsRequest."""
        name: str
        partition_indexes: list[int]
        def __init__(
            self,
            name: str = ...,
            partition_indexes: Sequence[int] = ...,
            _unknown_tagged: tuple[tuple[int, bytes], ...] | None = ...,
        ) -> None: ...

class ListPartitionReassignmentsResponse(Message):
    """Kafka's ListPartitionReassignmentsResponse (response 46, versions 0)."""
    api_key: ClassVar[Literal[46]]
    kind: ClassVar[Literal['response']]
    throttle_time_ms: int
    error_code: int
    error_message: str | None
    topics: list[ListPartitionReassignmentsResponse.OngoingTopicReassignment]
    def __init__(
        self,
        throttle_time_ms: int = ...,
        error_code: int = ...,
        error_message: str | None = ...,
        topics: Sequence[ListPartitionReassignmentsResponse.OngoingTopicReassignment | dict[str, Any]] = ...,
        _unknown_tagged: tuple[tuple[int, bytes], ...] | None = ...,
    ) -> None: ...
    class OngoingTopicReassignment(Struct):
        """A struct of Kafka's ListPartitionReassignmentsResponse."""
        name: str
        partitions: list[ListPartitionReassignmentsResponse.OngoingPartitionReassignment]
        def __init__(
            self,
            name: str = ...,
            partitions: Sequence[ListPartitionReassignmentsResponse.OngoingPartitionReassignment | dict[str, Any]] = ...,
            _unknown_tagged: tuple[tuple[int, bytes], ...] | None = ...,
        ) -> None: ...
    class OngoingPartitionReassignment(Struct):
        """A struct of Kafka's ListPartitionReassignmentsResponse."""
        partition_index: int
        replicas: list[int]
        adding_replicas: list[int]
        removing_replicas: list[int]
        def __init__(
            self,
            partition_index: int = ...,
            replicas: Sequence[int] = ...,
            adding_replicas: Sequence[int] = ...,
            removing_replicas: Sequence[int] = ...,
            _unknown_tagged: tuple[tuple[int, bytes], ...] | None = ...,
        ) -> None: ...

class ListTransactionsRequest(Message):
    """Kafka's ListTransactionsRequest (request 66, versions 0-2)."""
    api_key: ClassVar[Literal[66]]
    kind: ClassVar[Literal['request']]
    state_filters: list[str]
    producer_id_filters: list[int]
    duration_filter: int
    transactional_id_pattern: str | None
    def __init__(
        self,
        state_filters: Sequence[str] = ...,
        producer_id_filters: Sequence[int] = ...,
        duration_filter: int = ...,
        transactional_id_pattern: str | None = ...,
        _unknown_tagged: tuple[tuple[int, bytes], ...] | None = ...,
    ) -> None: ...

class ListTransactionsResponse(Message):
    """Kafka's ListTransactionsResponse (response 66, versions 0-2)."""
    api_key: ClassVar[Literal[66]]
    kind: ClassVar[Literal['response']]
    throttle_time_ms: int
    error_code: int
    unknown_state_filters: list[str]
    transaction_states: list[ListTransactionsResponse.TransactionState]
    def __init__(
        self,
        throttle_time_ms: int = ...,
        error_code: int = ...,
        unknown_state_filters: Sequence[str] = ...,
        transaction_states: Sequence[ListTransactionsResponse.TransactionState | dict[str, Any]] = ...,
        _unknown_tagged: tuple[tuple[int, bytes], ...] | None = ...,
    ) -> None: ...
    class TransactionState(Struct):
        """A struct of Kafka's ListTransactionsResponse."""
        transactional_id: str
        producer_id: int
        transaction_state: str
        def __init__(
            self,
            transactional_id: str = ...,
            producer_id: int = ...,
            transaction_state: str = ...,
            _unknown_tagged: tuple[tuple[int, bytes], ...] | None = ...,
        ) -> None: ...

class MetadataRequest(Message):
    """Kafka's MetadataRequest (request 3, versions 0-13)."""
    api_key: ClassVar[Literal[3]]
    kind: ClassVar[Literal['request']]
    topics: list[MetadataRequest.MetadataRequestTopic] | None
    allow_auto_topic_creation: bool
    include_cluster_authorized_operations: bool
    include_topic_authorized_operations: bool
    def __init__(
        self,
        topics: Sequence[MetadataRequest.MetadataRequestTopic | dict[str, Any]] | None = ...,
        allow_auto_topic_creation: bool = ...,
        include_cluster_authorized_operations: bool = ...,
        include_topic_authorized_operations: bool = ...,
        _unknown_tagged: tuple[tuple[int, bytes], ...] | None = ...,
    ) -> None: ...
    class MetadataRequestTopic(Struct):
        """A struct of Kafka's MetadataRequest."""
        topic_id: uuid.UUID
        name: str | None
        def __init__(
            self,
            topic_id: uuid.UUID = ...,
            name: str | None = ...,
            _unknown_tagged: tuple[tuple[int, bytes], ...] | None = ...,
        ) -> None: ...

class MetadataResponse(Message):
    """Kafka's MetadataResponse (response 3, versions 0-13)."""
    api_key: ClassVar[Literal[3]]
    kind: ClassVar[Literal['response']]
    throttle_time_ms: int
    brokers: list[MetadataResponse.MetadataResponseBroker]
    cluster_id: str | None
    controller_id: int
    topics: list[MetadataResponse.MetadataResponseTopic]
    cluster_authorized_operations: int
    error_code: int
    def __init__(
        self,
        throttle_time_ms: int = ...,
        brokers: Sequence[MetadataResponse.MetadataResponseBroker | dict[str, Any]] = ...,
        cluster_id: str | None = ...,
        controller_id: int = ...,
        topics: Sequence[MetadataResponse.MetadataResponseTopic | dict[str, Any]] = ...,
        cluster_authorized_operations: int = ...,
        error_code: int = ...,
        _unknown_tagged: tuple[tuple[int, bytes], ...] | None = ...,
    ) -> None: ...
    class MetadataResponseBroker(Struct):
        """A struct of Kafka's MetadataResponse."""
        node_id: int
        host: str
        port: int
        rack: str | None
        def __init__(
            self,
            node_id: int = ...,
            host: str = ...,
            port: int = ...,
            rack: str | None = ...,
            _unknown_tagged: tuple[tuple[int, bytes], ...] | None = ...,
        ) -> None: ...
    class MetadataResponseTopic(Struct):
        """A struct of Kafka's MetadataResponse."""
        error_code: int
        name: str | None
        topic_id: uuid.UUID
        is_internal: bool
        partitions: list[MetadataResponse.MetadataResponsePartition]
        topic_authorized_operations: int
        def __init__(
            self,
            error_code: int = ...,
            name: str | None = ...,
            topic_id: uuid.UUID = ...,
            is_internal: bool = ...,
            partitions: Sequence[MetadataResponse.MetadataResponsePartition | dict[str, Any]] = ...,
            topic_authorized_operations: int = ...,
            _unknown_tagged: tuple[tuple[int, bytes], ...] | None = ...,
        ) -> None: ...
    class MetadataResponsePartition(Struct):
        """A struct of Kafka's MetadataResponse."""
        error_code: int
        partition_index: int
        leader_id: int
        leader_epoch: int
        replica_nodes: list[int]
        isr_nodes: list[int]
        offline_replicas: list[int]
        def __init__(
            self,
            error_code: int = ...,
            partition_index: int = ...,
            leader_id: int = ...,
            leader_epoch: int = ...,
            replica_nodes: Sequence[int] = ...,
            isr_nodes: Sequence[int] = ...,
            offline_replicas: Sequence[int] = ...,
            _unknown_tagged: tuple[tuple[int, bytes], ...] | None = ...,
        ) -> None: ...

class OffsetCommitRequest(Message):
    """Kafka's OffsetCommitRequest (request 8, versions 2-10)."""
    api_key: ClassVar[Literal[8]]
    kind: ClassVar[Literal['request']]
    group_id: str
    generation_id_or_member_epoch: int
    member_id: str
    group_instance_id: str | None
    retention_time_ms: int
    topics: list[OffsetCommitRequest.OffsetCommitRequestTopic]
    def __init__(
        self,
        group_id: str = ...,
        generation_id_or_member_epoch: int = ...,
        member_id: str = ...,
        group_instance_id: str | None = ...,
        retention_time_ms: int = ...,
        topics: Sequence[OffsetCommitRequest.OffsetCommitRequestTopic | dict[str, Any]] = ...,
        _unknown_tagged: tuple[tuple[int, bytes], ...] | None = ...,
    ) -> None: ...
    class OffsetCommitRequestTopic(Struct):
        """A struct of Kafka's OffsetCommitRequest."""
        name: str
        topic_id: uuid.UUID
        partitions: list[OffsetCommitRequest.OffsetCommitRequestPartition]
        def __init__(
            self,
            name: str = ...,
            topic_id: uuid.UUID = ...,
            partitions: Sequence[OffsetCommitRequest.OffsetCommitRequestPartition | dict[str, Any]] = ...,
            _unknown_tagged: tuple[tuple[int, bytes], ...] | None = ...,
        ) -> None: ...
    class OffsetCommitRequestPartition(Struct):
        """A struct of Kafka's OffsetCommitRequest."""
        partition_index: int
        committed_offset: int
        committed_leader_epoch: int
        committed_metadata: str | None
        def __init__(
            self,
            partition_index: int = ...,
            committed_offset: int = ...,
            committed_leader_epoch: int = ...,
            committed_metadata: str | None = ...,
            _unknown_tagged: tuple[tuple[int, bytes], ...] | None = ...,
        ) -> None: ...

class OffsetCommitResponse(Message):
    """Kafka's OffsetCommitResponse (response 8, versions 2-10)."""
    api_key: ClassVar[Literal[8]]
    kind: ClassVar[Literal['response']]
    throttle_time_ms: int
    topics: list[OffsetCommitResponse.OffsetCommitResponseTopic]
    def __init__(
        self,
        throttle_time_ms: int = ...,
        topics: Sequence[OffsetCommitResponse.OffsetCommitResponseTopic | dict[str, Any]] = ...,
        _unknown_tagged: tuple[tuple[int, bytes], ...] | None = ...,
    ) -> None: ...
    class OffsetCommitResponseTopic(Struct):
        """A struct of Kafka's OffsetCommitResponse."""
        name: str
        topic_id: uuid.UUID
        partitions: list[OffsetCommitResponse.OffsetCommitResponsePartition]
        def __init__(
            self,
            name: str = ...,
            topic_id: uuid.UUID = ...,
            partitions: Sequence[OffsetCommitResponse.OffsetCommitResponsePartition | dict[str, Any]] = ...,
            _unknown_tagged: tuple[tuple[int, bytes], ...] | None = ...,
        ) -> None: ...
    class OffsetCommitResponsePartition(Struct):
        """A struct of Kafka's OffsetCommitResponse."""
        partition_index: int
        error_code: int
        def __init__(
            self,
            partition_index: int = ...,
            error_code: int = ...,
            _unknown_tagged: tuple[tuple[int, bytes], ...] | None = ...,
        ) -> None: ...

class OffsetDeleteRequest(Message):
    """Kafka's OffsetDeleteRequest (request 47, versions 0)."""
    api_key: ClassVar[Literal[47]]
    kind: ClassVar[Literal['request']]
    group_id: str
    topics: list[OffsetDeleteRequest.OffsetDeleteRequestTopic]
    def __init__(
        self,
        group_id: str = ...,
        topics: Sequence[OffsetDeleteRequest.OffsetDeleteRequestTopic | dict[str, Any]] = ...,
        _unknown_tagged: tuple[tuple[int, bytes], ...] | None = ...,
    ) -> None: ...
    class OffsetDeleteRequestTopic(Struct):
        """A struct of Kafka's OffsetDeleteRequest."""
        name: str
        partitions: list[OffsetDeleteRequest.OffsetDeleteRequestPartition]
        def __init__(
            self,
            name: str = ...,
            partitions: Sequence[OffsetDeleteRequest.OffsetDeleteRequestPartition | dict[str, Any]] = ...,
            _unknown_tagged: tuple[tuple[int, bytes], ...] | None = ...,
        ) -> None: ...
    class OffsetDeleteRequestPartition(Struct):
        """A struct of Kafka's OffsetDeleteRequest."""
        partition_index: int
        def __init__(
            self,
            partition_index: int = ...,
            _unknown_tagged: tuple[tuple[int, bytes], ...] | None = ...,
        ) -> None: ...

class OffsetDeleteResponse(Message):
    """Kafka's OffsetDeleteResponse (response 47, versions 0)."""
    api_key: ClassVar[Literal[47]]
    kind: ClassVar[Literal['response']]
    error_code: int
    throttle_time_ms: int
    topics: list[OffsetDeleteResponse.OffsetDeleteResponseTopic]
    def __init__(
        self,
        error_code: int = ...,
        throttle_time_ms: int = ...,
        topics: Sequence[OffsetDeleteResponse.OffsetDeleteResponseTopic | dict[str, Any]] = ...,
        _unknown_tagged: tuple[tuple[int, bytes], ...] | None = ...,
    ) -> None: ...
    class OffsetDeleteResponseTopic(Struct):
        """A struct of Kafka's OffsetDeleteResponse."""
        name: str
        partitions: list[OffsetDeleteResponse.OffsetDeleteResponsePartition]
        def __init__(
            self,
            name: str = ...,
            partitions: Sequence[OffsetDeleteResponse.OffsetDeleteResponsePartition | dict[str, Any]] = ...,
            _unknown_tagged: tuple[tuple[int, bytes], ...] | None = ...,
        ) -> None: ...
    class OffsetDeleteResponsePartition(Struct):
        """A struct of Kafka's OffsetDeleteResponse."""
        partition_index: int
        error_code: int
        def __init__(
            self,
            partition_index: int = ...,
            error_code: int = ...,
            _unknown_tagged: tuple[tuple[int, bytes], ...] | None = ...,
        ) -> None: ...

class OffsetFetchRequest(Message):
    """Kafka's OffsetFetchRequest (request 9, versions 1-10)."""
    api_key: ClassVar[Literal[9]]
    kind: ClassVar[Literal['request']]
    group_id: str
    topics: list[OffsetFetchRequest.OffsetFetchRequestTopic] | None
    groups: list[OffsetFetchRequest.OffsetFetchRequestGroup]
    require_stable: bool
    def __init__(
        self,
        group_id: str = ...,
        topics: Sequence[OffsetFetchRequest.OffsetFetchRequestTopic | dict[str, Any]] | None = ...,
        groups: Sequence[OffsetFetchRequest.OffsetFetchRequestGroup | dict[str, Any]] = ...,
        require_stable: bool = ...,
        _unknown_tagged: tuple[tuple[int, bytes], ...] | None = ...,
    ) -> None: ...
    class OffsetFetchRequestTopic(Struct):
        """A struct of Kafka's OffsetFetchRequest."""
        name: str
        partition_indexes: list[int]
        def __init__(
            self,
            name: str = ...,
            partition_indexes: Sequence[int] = ...,
            _unknown_tagged: tuple[tuple[int, bytes], ...] | None = ...,
        ) -> None: ...
    class OffsetFetchRequestGroup(Struct):
        """A struct of Kafka's OffsetFetchRequest."""
        group_id: str
        member_id: str | None
        member_epoch: int
        topics: list[OffsetFetchRequest.OffsetFetchRequestTopics] | None
        def __init__(
            self,
            group_id: str = ...,
            member_id: str | None = ...,
            member_epoch: int = ...,
            topics: Sequence[OffsetFetchRequest.OffsetFetchRequestTopics | dict[str, Any]] | None = ...,
            _unknown_tagged: tuple[tuple[int, bytes], ...] | None = ...,
        ) -> None: ...
    class OffsetFetchRequestTopics(Struct):
        """A struct of Kafka's OffsetFetchRequest."""
        name: str
        topic_id: uuid.UUID
        partition_indexes: list[int]
        def __init__(
            self,
            name: str = ...,
            topic_id: uuid.UUID = ...,
            partition_indexes: Sequence[int] = ...,
            _unknown_tagged: tuple[tuple[int, bytes], ...] | None = ...,
        ) -> None: ...

class OffsetFetchResponse(Message):
    """Kafka's OffsetFetchResponse (response 9, versions 1-10)."""
    api_key: ClassVar[Literal[9]]
    kind: ClassVar[Literal['response']]
    throttle_time_ms: int
    topics: list[OffsetFetchResponse.OffsetFetchResponseTopic]
    error_code: int
    groups: list[OffsetFetchResponse.OffsetFetchResponseGroup]
    def __init__(
        self,
        throttle_time_ms: int = ...,
        topics: Sequence[OffsetFetchResponse.OffsetFetchResponseTopic | dict[str, Any]] = ...,
        error_code: int = ...,
        groups: Sequence[OffsetFetchResponse.OffsetFetchResponseGroup | dict[str, Any]] = ...,
        _unknown_tagged: tuple[tuple[int, bytes], ...] | None = ...,
    ) -> None: ...
    class OffsetFetchResponseTopic(Struct):
        """A struct of Kafka's OffsetFetchResponse."""
        name: str
        partitions: list[OffsetFetchResponse.OffsetFetchResponsePartition]
        def __init__(
            self,
            name: str = ...,
            partitions: Sequence[OffsetFetchResponse.OffsetFetchResponsePartition | dict[str, Any]] = ...,
            _unknown_tagged: tuple[tuple[int, bytes], ...] | None = ...,
        ) -> None: ...
    class OffsetFetchResponsePartition(Struct):
        """A struct of Kafka's OffsetFetchResponse."""
        partition_index: int
        committed_offset: int
        committed_leader_epoch: int
        metadata: str | None
        error_code: int
        def __init__(
            self,
            partition_index: int = ...,
            committed_offset: int = ...,
            committed_leader_epoch: int = ...,
            metadata: str | None = ...,
            error_code: int = ...,
            _unknown_tagged: tuple[tuple[int, bytes], ...] | None = ...,
        ) -> None: ...
    class OffsetFetchResponseGroup(Struct):
        """A struct of Kafka's OffsetFetchResponse."""
        group_id: str
        topics: list[OffsetFetchResponse.OffsetFetchResponseTopics]
        error_code: int
        def __init__(
            self,
            group_id: str = ...,
            topics: Sequence[OffsetFetchResponse.OffsetFetchResponseTopics | dict[str, Any]] = ...,
            error_code: int = ...,
            _unknown_tagged: tuple[tuple[int, bytes], ...] | None = ...,
        ) -> None: ...
    class OffsetFetchResponseTopics(Struct):
        """A struct of Kafka's OffsetFetchResponse."""
        name: str
        topic_id: uuid.UUID
        partitions: list[OffsetFetchResponse.OffsetFetchResponsePartitions]
        def __init__(
            self,
            name: str = ...,
            topic_id: uuid.UUID = ...,
            partitions: Sequence[OffsetFetchResponse.OffsetFetchResponsePartitions | dict[str, Any]] = ...,
            _unknown_tagged: tuple[tuple[int, bytes], ...] | None = ...,
        ) -> None: ...
    class OffsetFetchResponsePartitions(Struct):
        """A struct of Kafka's OffsetFetchResponse."""
        partition_index: int
        committed_offset: int
        committed_leader_epoch: int
        metadata: str | None
        error_code: int
        def __init__(
            self,
            partition_index: int = ...,
            committed_offset: int = ...,
            committed_leader_epoch: int = ...,
            metadata: str | None = ...,
            error_code: int = ...,
            _unknown_tagged: tuple[tuple[int, bytes], ...] | None = ...,
        ) -> None: ...

class OffsetForLeaderEpochRequest(Message):
    """Kafka's OffsetForLeaderEpochRequest (request 23, versions 2-4)."""
    api_key: ClassVar[Literal[23]]
    kind: ClassVar[Literal['request']]
    replica_id: int
    topics: list[OffsetForLeaderEpochRequest.OffsetForLeaderTopic]
    def __init__(
        self,
        replica_id: int = ...,
        topics: Sequence[OffsetForLeaderEpochRequest.OffsetForLeaderTopic | dict[str, Any]] = ...,
        _unknown_tagged: tuple[tuple[int, bytes], ...] | None = ...,
    ) -> None: ...
    class OffsetForLeaderTopic(Struct):
        """A struct of Kafka's OffsetForLeaderEpochRequest."""
        topic: str
        partitions: list[OffsetForLeaderEpochRequest.OffsetForLeaderPartition]
        def __init__(
            self,
            topic: str = ...,
            partitions: Sequence[OffsetForLeaderEpochRequest.OffsetForLeaderPartition | dict[str, Any]] = ...,
            _unknown_tagged: tuple[tuple[int, bytes], ...] | None = ...,
        ) -> None: ...
    class OffsetForLeaderPartition(Struct):
        """A struct of Kafka's OffsetForLeaderEpochRequest."""
        partition: int
        current_leader_epoch: int
        leader_epoch: int
        def __init__(
            self,
            partition: int = ...,
            current_leader_epoch: int = ...,
            leader_epoch: int = ...,
            _unknown_tagged: tuple[tuple[int, bytes], ...] | None = ...,
        ) -> None: ...

class OffsetForLeaderEpochResponse(Message):
    """Kafka's OffsetForLeaderEpochResponse (response 23, versions 2-4)."""
    api_key: ClassVar[Literal[23]]
    kind: ClassVar[Literal['response']]
    throttle_time_ms: int
    topics: list[OffsetForLeaderEpochResponse.OffsetForLeaderTopicResult]
    def __init__(
        self,
        throttle_time_ms: int = ...,
        topics: Sequence[OffsetForLeaderEpochResponse.OffsetForLeaderTopicResult | dict[str, Any]] = ...,
        _unknown_tagged: tuple[tuple[int, bytes], ...] | None = ...,
    ) -> None: ...
    class OffsetForLeaderTopicResult(Struct):
        """A struct of Kafka's OffsetForLeaderEpochResponse."""
        topic: str
        partitions: list[OffsetForLeaderEpochResponse.EpochEndOffset]
        def __init__(
            self,
            topic: str = ...,
            partitions: Sequence[OffsetForLeaderEpochResponse.EpochEndOffset | dict[str, Any]] = ...,
            _unknown_tagged: tuple[tuple[int, bytes], ...] | None = ...,
        ) -> None: ...
    class EpochEndOffset(Struct):
        """A struct of Kafka's OffsetForLeaderEpochResponse."""
        error_code: int
        partition: int
        leader_epoch: int
        end_offset: int
        def __init__(
            self,
            error_code: int = ...,
            partition: int = ...,
            leader_epoch: int = ...,
            end_offset: int = ...,
            _unknown_tagged: tuple[tuple[int, bytes], ...] | None = ...,
        ) -> None: ...

class ProduceRequest(Message):
    """Kafka's ProduceRequest (request 0, versions 3-13)."""
    api_key: ClassVar[Literal[0]]
    kind: ClassVar[Literal['request']]
    transactional_id: str | None
    acks: int
    timeout_ms: int
    topic_data: list[ProduceRequest.TopicProduceData]
    def __init__(
        self,
        transactional_id: str | None = ...,
        acks: int = ...,
        timeout_ms: int = ...,
        topic_data: Sequence[ProduceRequest.TopicProduceData | dict[str, Any]] = ...,
        _unknown_tagged: tuple[tuple[int, bytes], ...] | None = ...,
    ) -> None: ...
    class TopicProduceData(Struct):
        """A struct of Kafka's ProduceRequest."""
        name: str
        topic_id: uuid.UUID
        partition_data: list[ProduceRequest.PartitionProduceData]
        def __init__(
            self,
            name: str = ...,
            topic_id: uuid.UUID = ...,
            partition_data: Sequence[ProduceRequest.PartitionProduceData | dict[str, Any]] = ...,
            _unknown_tagged: tuple[tuple[int, bytes], ...] | None = ...,
        ) -> None: ...
    class PartitionProduceData(Struct):
        """A struct of Kafka's ProduceRequest."""
        index: int
        records: _Bytes | None
        def __init__(
            self,
            index: int = ...,
            records: _Bytes | None = ...,
            _unknown_tagged: tuple[tuple[int, bytes], ...] | None = ...,
        ) -> None: ...

class ProduceResponse(Message):
    """Kafka's ProduceResponse (response 0, versions 3-13)."""
    api_key: ClassVar[Literal[0]]
    kind: ClassVar[Literal['response']]
    responses: list[ProduceResponse.TopicProduceResponse]
    throttle_time_ms: int
    node_endpoints: list[ProduceResponse.NodeEndpoint]
    def __init__(
        self,
        responses: Sequence[ProduceResponse.TopicProduceResponse | dict[str, Any]] = ...,
        throttle_time_ms: int = ...,
        node_endpoints: Sequence[ProduceResponse.NodeEndpoint | dict[str, Any]] = ...,
        _unknown_tagged: tuple[tuple[int, bytes], ...] | None = ...,
    ) -> None: ...
    class TopicProduceResponse(Struct):
        """A struct of Kafka's ProduceResponse."""
        name: str
        topic_id: uuid.UUID
        partition_responses: list[ProduceResponse.PartitionProduceResponse]
        def __init__(
            self,
            name: str = ...,
            topic_id: uuid.UUID = ...,
            partition_responses: Sequence[ProduceResponse.PartitionProduceResponse | dict[str, Any]] = ...,
            _unknown_tagged: tuple[tuple[int, bytes], ...] | None = ...,
        ) -> None: ...
    class PartitionProduceResponse(Struct):
        """A struct of Kafka's ProduceResponse."""
        index: int
        error_code: int
        base_offset: int
        log_append_time_ms: int
        log_start_offset: int
        record_errors: list[ProduceResponse.BatchIndexAndErrorMessage]
        error_message: str | None
        current_leader: ProduceResponse.LeaderIdAndEpoch
        def __init__(
            self,
            index: int = ...,
            error_code: int = ...,
            base_offset: int = ...,
            log_append_time_ms: int = ...,
            log_start_offset: int = ...,
            record_errors: Sequence[ProduceResponse.BatchIndexAndErrorMessage | dict[str, Any]] = ...,
            error_message: str | None = ...,
            current_leader: ProduceResponse.LeaderIdAndEpoch | dict[str, Any] = ...,
            _unknown_tagged: tuple[tuple[int, bytes], ...] | None = ...,
        ) -> None: ...
    class BatchIndexAndErrorMessage(Struct):
        """A struct of Kafka's ProduceResponse."""
        batch_index: int
        batch_index_error_message: str | None
        def __init__(
            self,
            batch_index: int = ...,
            batch_index_error_message: str | None = ...,
            _unknown_tagged: tuple[tuple[int, bytes], ...] | None = ...,
        ) -> None: ...
    class LeaderIdAndEpoch(Struct):
        """A struct of Kafka's ProduceResponse."""
        leader_id: int
        leader_epoch: int
        def __init__(
            self,
            leader_id: int = ...,
            leader_epoch: int = ...,
            _unknown_tagged: tuple[tuple[int, bytes], ...] | None = ...,
        ) -> None: ...
    class NodeEndpoint(Struct):
        """A struct of Kafka's ProduceResponse."""
        node_id: int
        host: str
        port: int
        rack: str | None
        def __init__(
            self,
            node_id: int = ...,
            host: str = ...,
            port: int = ...,
            rack: str | None = ...,
            _unknown_tagged: tuple[tuple[int, bytes], ...] | None = ...,
        ) -> None: ...

class PushTelemetryRequest(Message):
    """Kafka's PushTelemetryRequest (request 72, versions 0)."""
    api_key: ClassVar[Literal[72]]
    kind: ClassVar[Literal['request']]
    client_instance_id: uuid.UUID
    subscription_id: int
    terminating: bool
    compression_type: int
    metrics: bytes
    def __init__(
        self,
        client_instance_id: uuid.UUID = ...,
        subscription_id: int = ...,
        terminating: bool = ...,
        compression_type: int = ...,
        metrics: _Bytes = ...,
        _unknown_tagged: tuple[tuple[int, bytes], ...] | None = ...,
    ) -> None: ...

class PushTelemetryResponse(Message):
    """Kafka's PushTelemetryResponse (response 72, versions 0)."""
    api_key: ClassVar[Literal[72]]
    kind: ClassVar[Literal['response']]
    throttle_time_ms: int
    error_code: int
    def __init__(
        self,
        throttle_time_ms: int = ...,
        error_code: int = ...,
        _unknown_tagged: tuple[tuple[int, bytes], ...] | None = ...,
    ) -> None: ...

class ReadShareGroupStateRequest(Message):
    """Kafka's ReadShareGroupStateRequest (request 84, versions 0)."""
    api_key: ClassVar[Literal[84]]
    kind: ClassVar[Literal['request']]
    group_id: str
    topics: list[ReadShareGroupStateRequest.ReadStateData]
    def __init__(
        self,
        group_id: str = ...,
        topics: Sequence[ReadShareGroupStateRequest.ReadStateData | dict[str, Any]] = ...,
        _unknown_tagged: tuple[tuple[int, bytes], ...] | None = ...,
    ) -> None: ...
    class ReadStateData(Struct):
        """A struct of Kafka's ReadShareGroupStateRequest."""
        topic_id: uuid.UUID
        partitions: list[ReadShareGroupStateRequest.PartitionData]
        def __init__(
            self,
            topic_id: uuid.UUID = ...,
            partitions: Sequence[ReadShareGroupStateRequest.PartitionData | dict[str, Any]] = ...,
            _unknown_tagged: tuple[tuple[int, bytes], ...] | None = ...,
        ) -> None: ...
    class PartitionData(Struct):
        """A struct of Kafka's ReadShareGroupStateRequest."""
        partition: int
        leader_epoch: int
        def __init__(
            self,
            partition: int = ...,
            leader_epoch: int = ...,
            _unknown_tagged: tuple[tuple[int, bytes], ...] | None = ...,
        ) -> None: ...

class ReadShareGroupStateResponse(Message):
    """Kafka's ReadShareGroupStateResponse (response 84, versions 0)."""
    api_key: ClassVar[Literal[84]]
    kind: ClassVar[Literal['response']]
    results: list[ReadShareGroupStateResponse.ReadStateResult]
    def __init__(
        self,
        results: Sequence[ReadShareGroupStateResponse.ReadStateResult | dict[str, Any]] = ...,
        _unknown_tagged: tuple[tuple[int, bytes], ...] | None = ...,
    ) -> None: ...
    class ReadStateResult(Struct):
        """A struct of Kafka's ReadShareGroupStateResponse."""
        topic_id: uuid.UUID
        partitions: list[ReadShareGroupStateResponse.PartitionResult]
        def __init__(
            self,
            topic_id: uuid.UUID = ...,
            partitions: Sequence[ReadShareGroupStateResponse.PartitionResult | dict[str, Any]] = ...,
            _unknown_tagged: tuple[tuple[int, bytes], ...] | None = ...,
        ) -> None: ...
    class PartitionResult(Struct):
        """A struct of Kafka's ReadShareGroupStateResponse."""
        partition: int
        error_code: int
        error_message: str | None
        state_epoch: int
        start_offset: int
        state_batches: list[ReadShareGroupStateResponse.StateBatch]
        def __init__(
            self,
            partition: int = ...,
            error_code: int = ...,
            error_message: str | None = ...,
            state_epoch: int = ...,
            start_offset: int = ...,
            state_batches: Sequence[ReadShareGroupStateResponse.StateBatch | dict[str, Any]] = ...,
            _unknown_tagged: tuple[tuple[int, bytes], ...] | None = ...,
        ) -> None: ...
    class StateBatch(Struct):
        """A struct of Kafka's ReadShareGroupStateResponse."""
        first_offset: int
        last_offset: int
        delivery_state: int
        delivery_count: int
        def __init__(
            self,
            first_offset: int = ...,
            last_offset: int = ...,
            delivery_state: int = ...,
            delivery_count: int = ...,
            _unknown_tagged: tuple[tuple[int, bytes], ...] | None = ...,
        ) -> None: ...

class ReadShareGroupStateSummaryRequest(Message):
    """Kafka's ReadShareGroupStateSummaryRequest (request 87, versions 0-1)."""
    api_key: ClassVar[Literal[87]]
    kind: ClassVar[Literal['request']]
    group_id: str
    topics: list[ReadShareGroupStateSummaryRequest.ReadStateSummaryData]
    def __init__(
        self,
        group_id: str = ...,
        topics: Sequence[ReadShareGroupStateSummaryRequest.ReadStateSummaryData | dict[str, Any]] = ...,
        _unknown_tagged: tuple[tuple[int, bytes], ...] | None = ...,
    ) -> None: ...
    class ReadStateSummaryData(Struct):
        """A struct of Kafka's ReadShareGroupStateSummaryRequest."""
        topic_id: uuid.UUID
        partitions: list[ReadShareGroupStateSummaryRequest.PartitionData]
        def __init__(
            self,
            topic_id: uuid.UUID = ...,
            partitions: Sequence[ReadShareGroupStateSummaryRequest.PartitionData | dict[str, Any]] = ...,
            _unknown_tagged: tuple[tuple[int, bytes], ...] | None = ...,
        ) -> None: ...
    class PartitionData(Struct):
        """A struct of Kafka's ReadShareGroupStateSummaryRequest."""
        partition: int
        leader_epoch: int
        def __init__(
            self,
            partition: int = ...,
            leader_epoch: int = ...,
            _unknown_tagged: tuple[tuple[int, bytes], ...] | None = ...,
        ) -> None: ...

class ReadShareGroupStateSummaryResponse(Message):
    """Kafka's ReadShareGroupStateSummaryResponse (response 87, versions 0-1)."""
    api_key: ClassVar[Literal[87]]
    kind: ClassVar[Literal['response']]
    results: list[ReadShareGroupStateSummaryResponse.ReadStateSummaryResult]
    def __init__(
        self,
        results: Sequence[ReadShareGroupStateSummaryResponse.ReadStateSummaryResult | dict[str, Any]] = ...,
        _unknown_tagged: tuple[tuple[int, bytes], ...] | None = ...,
    ) -> None: ...
    class ReadStateSummaryResult(Struct):
        """A struct of Kafka's ReadShareGroupStateSummaryResponse."""
        topic_id: uuid.UUID
        partitions: list[ReadShareGroupStateSummaryResponse.PartitionResult]
        def __init__(
            self,
            topic_id: uuid.UUID = ...,
            partitions: Sequence[ReadShareGroupStateSummaryResponse.PartitionResult | dict[str, Any]] = ...,
            _unknown_tagged: tuple[tuple[int, bytes], ...] | None = ...,
        ) -> None: ...
    class PartitionResult(Struct):
        """A struct of Kafka's ReadShareGroupStateSummaryResponse."""
        partition: int
        error_code: int
        error_message: str | None
        state_epoch: int
        leader_epoch: int
        start_offset: int
        delivery_complete_count: int
        def __init__(
            self,
            partition: int = ...,
            error_code: int = ...,
            error_message: str | None = ...,
            state_epoch: int = ...,
            leader_epoch: int = ...,
            start_offset: int = ...,
            delivery_complete_count: int = ...,
            _unknown_tagged: tuple[tuple[int, bytes], ...] | None = ...,
        ) -> None: ...

class RemoveRaftVoterRequest(Message):
    """Kafka's RemoveRaftVoterRequest (request 81, versions 0)."""
    api_key: ClassVar[Literal[81]]
    kind: ClassVar[Literal['request']]
    cluster_id: str | None
    voter_id: int
    voter_directory_id: uuid.UUID
    def __init__(
        self,
        cluster_id: str | None = ...,
        voter_id: int = ...,
        voter_directory_id: uuid.UUID = ...,
        _unknown_tagged: tuple[tuple[int, bytes], ...] | None = ...,
    ) -> None: ...

class RemoveRaftVoterResponse(Message):
    """Kafka's RemoveRaftVoterResponse (response 81, versions 0)."""
    api_key: ClassVar[Literal[81]]
    kind: ClassVar[Literal['response']]
    throttle_time_ms: int
    error_code: int
    error_message: str | None
    def __init__(
        self,
        throttle_time_ms: int = ...,
        error_code: int = ...,
        error_message: str | None = ...,
        _unknown_tagged: tuple[tuple[int, bytes], ...] | None = ...,
    ) -> None: ...

class RenewDelegationTokenRequest(Message):
    """Kafka's RenewDelegationTokenRequest (request 39, versions 1-2)."""
    api_key: ClassVar[Literal[39]]
    kind: ClassVar[Literal['request']]
    hmac: bytes
    renew_period_ms: int
    def __init__(
        self,
        hmac: _Bytes = ...,
        renew_period_ms: int = ...,
        _unknown_tagged: tuple[tuple[int, bytes], ...] | None = ...,
    ) -> None: ...

class RenewDelegationTokenResponse(Message):
    """Kafka's RenewDelegationTokenResponse (response 39, versions 1-2)."""
    api_key: ClassVar[Literal[39]]
    kind: ClassVar[Literal['response']]
    error_code: int
    expiry_timestamp_ms: int
    throttle_time_ms: int
    def __init__(
        self,
        error_code: int = ...,
        expiry_timestamp_ms: int = ...,
        throttle_time_ms: int = ...,
        _unknown_tagged: tuple[tuple[int, bytes], ...] | None = ...,
    ) -> None: ...

class RequestHeader(Message):
    """Kafka's RequestHeader (header, versions 1-2)."""
    api_key: ClassVar[None]
    kind: ClassVar[Literal['header']]
    request_api_key: int
    request_api_version: int
    correlation_id: int
    client_id: str | None
    def __init__(
        self,
        request_api_key: int = ...,
        request_api_version: int = ...,
        correlation_id: int = ...,
        client_id: str | None = ...,
        _unknown_tagged: tuple[tuple[int, bytes], ...] | None = ...,
    ) -> None: ...

class ResponseHeader(Message):
    """Kafka's ResponseHeader (header, versions 0-1)."""
    api_key: ClassVar[None]
    kind: ClassVar[Literal['header']]
    correlation_id: int
    def __init__(
        self,
        correlation_id: int = ...,
        _unknown_tagged: tuple[tuple[int, bytes], ...] | None = ...,
    ) -> None: ...

class SaslAuthenticateRequest(Message):
    """Kafka's SaslAuthenticateRequest (request 36, versions 0-2)."""
    api_key: ClassVar[Literal[36]]
    kind: ClassVar[Literal['request']]
    auth_bytes: bytes
    def __init__(
        self,
        auth_bytes: _Bytes = ...,
        _unknown_tagged: tuple[tuple[int, bytes], ...] | None = ...,
    ) -> None: ...

class SaslAuthenticateResponse(Message):
    """Kafka's SaslAuthenticateResponse (response 36, versions 0-2)."""
    api_key: ClassVar[Literal[36]]
    kind: ClassVar[Literal['response']]
    error_code: int
    error_message: str | None
    auth_bytes: bytes
    session_lifetime_ms: int
    def __init__(
        self,
        error_code: int = ...,
        error_message: str | None = ...,
        auth_bytes: _Bytes = ...,
        session_lifetime_ms: int = ...,
        _unknown_tagged: tuple[tuple[int, bytes], ...] | None = ...,
    ) -> None: ...

class SaslHandshakeRequest(Message):
    """Kafka's SaslHandshakeRequest (request 17, versions 0-1)."""
    api_key: ClassVar[Literal[17]]
    kind: ClassVar[Literal['request']]
    mechanism: str
    def __init__(
        self,
        mechanism: str = ...,
        _unknown_tagged: tuple[tuple[int, bytes], ...] | None = ...,
    ) -> None: ...

class SaslHandshakeResponse(Message):
    """Kafka's SaslHandshakeResponse (response 17, versions 0-1)."""
    api_key: ClassVar[Literal[17]]
    kind: ClassVar[Literal['response']]
    error_code: int
    mechanisms: list[str]
    def __init__(
        self,
        error_code: int = ...,
        mechanisms: Sequence[str] = ...,
        _unknown_tagged: tuple[tuple[int, bytes], ...] | None = ...,
    ) -> None: ...

class ShareAcknowledgeRequest(Message):
    """Kafka's ShareAcknowledgeRequest (request 79, versions 1-2)."""
    api_key: ClassVar[Literal[79]]
    kind: ClassVar[Literal['request']]
    group_id: str | None
    member_id: str | None
    share_session_epoch: int
    is_renew_ack: bool
    topics: list[ShareAcknowledgeRequest.AcknowledgeTopic]
    def __init__(
        self,
        group_id: str | None = ...,
        member_id: str | None = ...,
        share_session_epoch: int = ...,
        is_renew_ack: bool = ...,
        topics: Sequence[ShareAcknowledgeRequest.AcknowledgeTopic | dict[str, Any]] = ...,
        _unknown_tagged: tuple[tuple[int, bytes], ...] | None = ...,
    ) -> None: ...
    class AcknowledgeTopic(Struct):
        """A struct of Kafka's ShareAcknowledgeRequest."""
        topic_id: uuid.UUID
        partitions: list[ShareAcknowledgeRequest.AcknowledgePartition]
        def __init__(
            self,
            topic_id: uuid.UUID = ...,
            partitions: Sequence[ShareAcknowledgeRequest.AcknowledgePartition | dict[str, Any]] = ...,
            _unknown_tagged: tuple[tuple[int, bytes], ...] | None = ...,
        ) -> None: ...
    class AcknowledgePartition(Struct):
        """A struct of Kafka's ShareAcknowledgeRequest."""
        partition_index: int
        acknowledgement_batches: list[ShareAcknowledgeRequest.AcknowledgementBatch]
        def __init__(
            self,
            partition_index: int = ...,
            acknowledgement_batches: Sequence[ShareAcknowledgeRequest.AcknowledgementBatch | dict[str, Any]] = ...,
            _unknown_tagged: tuple[tuple[int, bytes], ...] | None = ...,
        ) -> None: ...
    class AcknowledgementBatch(Struct):
        """A struct of Kafka's ShareAcknowledgeRequest."""
        first_offset: int
        last_offset: int
        acknowledge_types: list[int]
        def __init__(
            self,
            first_offset: int = ...,
            last_offset: int = ...,
            acknowledge_types: Sequence[int] = ...,
            _unknown_tagged: tuple[tuple[int, bytes], ...] | None = ...,
        ) -> None: ...

class ShareAcknowledgeResponse(Message):
    """Kafka's ShareAcknowledgeResponse (response 79, versions 1-2)."""
    api_key: ClassVar[Literal[79]]
    kind: ClassVar[Literal['response']]
    throttle_time_ms: int
    error_code: int
    error_message: str | None
    acquisition_lock_timeout_ms: int
    responses: list[ShareAcknowledgeResponse.ShareAcknowledgeTopicResponse]
    node_endpoints: list[ShareAcknowledgeResponse.NodeEndpoint]
    def __init__(
        self,
        throttle_time_ms: int = ...,
        error_code: int = ...,
        error_message: str | None = ...,
        acquisition_lock_timeout_ms: int = ...,
        responses: Sequence[ShareAcknowledgeResponse.ShareAcknowledgeTopicResponse | dict[str, Any]] = ...,
        node_endpoints: Sequence[ShareAcknowledgeResponse.NodeEndpoint | dict[str, Any]] = ...,
        _unknown_tagged: tuple[tuple[int, bytes], ...] | None = ...,
    ) -> None: ...
    class ShareAcknowledgeTopicResponse(Struct):
        """A struct of Kafka's ShareAcknowledgeResponse."""
        topic_id: uuid.UUID
        partitions: list[ShareAcknowledgeResponse.PartitionData]
        def __init__(
            self,
            topic_id: uuid.UUID = ...,
            partitions: Sequence[ShareAcknowledgeResponse.PartitionData | dict[str, Any]] = ...,
            _unknown_tagged: tuple[tuple[int, bytes], ...] | None = ...,
        ) -> None: ...
    class PartitionData(Struct):
        """A struct of Kafka's ShareAcknowledgeResponse."""
        partition_index: int
        error_code: int
        error_message: str | None
        current_leader: ShareAcknowledgeResponse.LeaderIdAndEpoch
        def __init__(
            self,
            partition_index: int = ...,
            error_code: int = ...,
            error_message: str | None = ...,
            current_leader: ShareAcknowledgeResponse.LeaderIdAndEpoch | dict[str, Any] = ...,
            _unknown_tagged: tuple[tuple[int, bytes], ...] | None = ...,
        ) -> None: ...
    class LeaderIdAndEpoch(Struct):
        """A struct of Kafka's ShareAcknowledgeResponse."""
        leader_id: int
        leader_epoch: int
        def __init__(
            self,
            leader_id: int = ...,
            leader_epoch: int = ...,
            _unknown_tagged: tuple[tuple[int, bytes], ...] | None = ...,
        ) -> None: ...
    class NodeEndpoint(Struct):
        """A struct of Kafka's ShareAcknowledgeResponse."""
        node_id: int
        host: str
        port: int
        rack: str | None
        def __init__(
            self,
            node_id: int = ...,
            host: str = ...,
            port: int = ...,
            rack: str | None = ...,
            _unknown_tagged: tuple[tuple[int, bytes], ...] | None = ...,
        ) -> None: ...

class ShareFetchRequest(Message):
    """Kafka's ShareFetchRequest (request 78, versions 1-2)."""
    api_key: ClassVar[Literal[78]]
    kind: ClassVar[Literal['request']]
    group_id: str | None
    member_id: str | None
    share_session_epoch: int
    max_wait_ms: int
    min_bytes: int
    max_bytes: int
    max_records: int
    batch_size: int
    share_acquire_mode: int
    is_renew_ack: bool
    topics: list[ShareFetchRequest.FetchTopic]
    forgotten_topics_data: list[ShareFetchRequest.ForgottenTopic]
    def __init__(
        self,
        group_id: str | None = ...,
        member_id: str | None = ...,
        share_session_epoch: int = ...,
        max_wait_ms: int = ...,
        min_bytes: int = ...,
        max_bytes: int = ...,
        max_records: int = ...,
        batch_size: int = ...,
        share_acquire_mode: int = ...,
        is_renew_ack: bool = ...,
        topics: Sequence[ShareFetchRequest.FetchTopic | dict[str, Any]] = ...,
        forgotten_topics_data: Sequence[ShareFetchRequest.ForgottenTopic | dict[str, Any]] = ...,
        _unknown_tagged: tuple[tuple[int, bytes], ...] | None = ...,
    ) -> None: ...
    class FetchTopic(Struct):
        """A struct of Kafka's ShareFetchRequest."""
        topic_id: uuid.UUID
        partitions: list[ShareFetchRequest.FetchPartition]
        def __init__(
            self,
            topic_id: uuid.UUID = ...,
            partitions: Sequence[ShareFetchRequest.FetchPartition | dict[str, Any]] = ...,
            _unknown_tagged: tuple[tuple[int, bytes], ...] | None = ...,
        ) -> None: ...
    class FetchPartition(Struct):
        """A struct of Kafka's ShareFetchRequest."""
        partition_index: int
        partition_max_bytes: int
        acknowledgement_batches: list[ShareFetchRequest.AcknowledgementBatch]
        def __init__(
            self,
            partition_index: int = ...,
            partition_max_bytes: int = ...,
            acknowledgement_batches: Sequence[ShareFetchRequest.AcknowledgementBatch | dict[str, Any]] = ...,
            _unknown_tagged: tuple[tuple[int, bytes], ...] | None = ...,
        ) -> None: ...
    class AcknowledgementBatch(Struct):
        """A struct of Kafka's ShareFetchRequest."""
        first_offset: int
        last_offset: int
        acknowledge_types: list[int]
        def __init__(
            self,
            first_offset: int = ...,
            last_offset: int = ...,
            acknowledge_types: Sequence[int] = ...,
            _unknown_tagged: tuple[tuple[int, bytes], ...] | None = ...,
        ) -> None: ...
    class ForgottenTopic(Struct):
        """A struct of Kafka's ShareFetchRequest."""
        topic_id: uuid.UUID
        partitions: list[int]
        def __init__(
            self,
            topic_id: uuid.UUID = ...,
            partitions: Sequence[int] = ...,
            _unknown_tagged: tuple[tuple[int, bytes], ...] | None = ...,
        ) -> None: ...

class ShareFetchResponse(Message):
    """Kafka's ShareFetchResponse (response 78, versions 1-2)."""
    api_key: ClassVar[Literal[78]]
    kind: ClassVar[Literal['response']]
    throttle_time_ms: int
    error_code: int
    error_message: str | None
    acquisition_lock_timeout_ms: int
    responses: list[ShareFetchResponse.ShareFetchableTopicResponse]
    node_endpoints: list[ShareFetchResponse.NodeEndpoint]
    def __init__(
        self,
        throttle_time_ms: int = ...,
        error_code: int = ...,
        error_message: str | None = ...,
        acquisition_lock_timeout_ms: int = ...,
        responses: Sequence[ShareFetchResponse.ShareFetchableTopicResponse | dict[str, Any]] = ...,
        node_endpoints: Sequence[ShareFetchResponse.NodeEndpoint | dict[str, Any]] = ...,
        _unknown_tagged: tuple[tuple[int, bytes], ...] | None = ...,
    ) -> None: ...
    class ShareFetchableTopicResponse(Struct):
        """A struct of Kafka's ShareFetchResponse."""
        topic_id: uuid.UUID
        partitions: list[ShareFetchResponse.PartitionData]
        def __init__(
            self,
            topic_id: uuid.UUID = ...,
            partitions: Sequence[ShareFetchResponse.PartitionData | dict[str, Any]] = ...,
            _unknown_tagged: tuple[tuple[int, bytes], ...] | None = ...,
        ) -> None: ...
    class PartitionData(Struct):
        """A struct of Kafka's ShareFetchResponse."""
        partition_index: int
        error_code: int
        error_message: str | None
        acknowledge_error_code: int
        acknowledge_error_message: str | None
        current_leader: ShareFetchResponse.LeaderIdAndEpoch
        records: _Bytes | None
        acquired_records: list[ShareFetchResponse.AcquiredRecords]
        def __init__(
            self,
            partition_index: int = ...,
            error_code: int = ...,
            error_message: str | None = ...,
            acknowledge_error_code: int = ...,
            acknowledge_error_message: str | None = ...,
            current_leader: ShareFetchResponse.LeaderIdAndEpoch | dict[str, Any] = ...,
            records: _Bytes | None = ...,
            acquired_records: Sequence[ShareFetchResponse.AcquiredRecords | dict[str, Any]] = ...,
            _unknown_tagged: tuple[tuple[int, bytes], ...] | None = ...,
        ) -> None: ...
    class LeaderIdAndEpoch(Struct):
        """A struct of Kafka's ShareFetchResponse."""
        leader_id: int
        leader_epoch: int
        def __init__(
            self,
            leader_id: int = ...,
            leader_epoch: int = ...,
            _unknown_tagged: tuple[tuple[int, bytes], ...] | None = ...,
        ) -> None: ...
    class AcquiredRecords(Struct):
        """A struct of Kafka's ShareFetchResponse."""
        first_offset: int
        last_offset: int
        delivery_count: int
        def __init__(
            self,
            first_offset: int = ...,
            last_offset: int = ...,
            delivery_count: int = ...,
            _unknown_tagged: tuple[tuple[int, bytes], ...] | None = ...,
        ) -> None: ...
    class NodeEndpoint(Struct):
        """A struct of Kafka's ShareFetchResponse."""
        node_id: int
        host: str
        port: int
        rack: str | None
        def __init__(
            self,
            node_id: int = ...,
            host: str = ...,
            port: int = ...,
            rack: str | None = ...,
            _unknown_tagged: tuple[tuple[int, bytes], ...] | None = ...,
        ) -> None: ...

class ShareGroupDescribeRequest(Message):
    """Kafka's ShareGroupDescribeRequest (request 77, versions 1)."""
    api_key: ClassVar[Literal[77]]
    kind: ClassVar[Literal['request']]
    group_ids: list[str]
    include_authorized_operations: bool
    def __init__(
        self,
        group_ids: Sequence[str] = ...,
        include_authorized_operations: bool = ...,
        _unknown_tagged: tuple[tuple[int, bytes], ...] | None = ...,
    ) -> None: ...

class ShareGroupDescribeResponse(Message):
    """Kafka's ShareGroupDescribeResponse (response 77, versions 1)."""
    api_key: ClassVar[Literal[77]]
    kind: ClassVar[Literal['response']]
    throttle_time_ms: int
    groups: list[ShareGroupDescribeResponse.DescribedGroup]
    def __init__(
        self,
        throttle_time_ms: int = ...,
        groups: Sequence[ShareGroupDescribeResponse.DescribedGroup | dict[str, Any]] = ...,
        _unknown_tagged: tuple[tuple[int, bytes], ...] | None = ...,
    ) -> None: ...
    class DescribedGroup(Struct):
        """A struct of Kafka's ShareGroupDescribeResponse."""
        error_code: int
        error_message: str | None
        group_id: str
        group_state: str
        group_epoch: int
        assignment_epoch: int
        assignor_name: str
        members: list[ShareGroupDescribeResponse.Member]
        authorized_operations: int
        def __init__(
            self,
            error_code: int = ...,
            error_message: str | None = ...,
            group_id: str = ...,
            group_state: str = ...,
            group_epoch: int = ...,
            assignment_epoch: int = ...,
            assignor_name: str = ...,
            members: Sequence[ShareGroupDescribeResponse.Member | dict[str, Any]] = ...,
            authorized_operations: int = ...,
            _unknown_tagged: tuple[tuple[int, bytes], ...] | None = ...,
        ) -> None: ...
    class Member(Struct):
        """A struct of Kafka's ShareGroupDescribeResponse."""
        member_id: str
        rack_id: str | None
        member_epoch: int
        client_id: str
        client_host: str
        subscribed_topic_names: list[str]
        assignment: ShareGroupDescribeResponse.Assignment
        def __init__(
            self,
            member_id: str = ...,
            rack_id: str | None = ...,
            member_epoch: int = ...,
            client_id: str = ...,
            client_host: str = ...,
            subscribed_topic_names: Sequence[str] = ...,
            assignment: ShareGroupDescribeResponse.Assignment | dict[str, Any] = ...,
            _unknown_tagged: tuple[tuple[int, bytes], ...] | None = ...,
        ) -> None: ...
    class Assignment(Struct):
        """A struct of Kafka's ShareGroupDescribeResponse."""
        topic_partitions: list[ShareGroupDescribeResponse.TopicPartitions]
        def __init__(
            self,
            topic_partitions: Sequence[ShareGroupDescribeResponse.TopicPartitions | dict[str, Any]] = ...,
            _unknown_tagged: tuple[tuple[int, bytes], ...] | None = ...,
        ) -> None: ...
    class TopicPartitions(Struct):
        """A struct of Kafka's ShareGroupDescribeResponse."""
        topic_id: uuid.UUID
        topic_name: str
        partitions: list[int]
        def __init__(
            self,
            topic_id: uuid.UUID = ...,
            topic_name: str = ...,
            partitions: Sequence[int] = ...,
            _unknown_tagged: tuple[tuple[int, bytes], ...] | None = ...,
        ) -> None: ...

class ShareGroupHeartbeatRequest(Message):
    """Kafka's ShareGroupHeartbeatRequest (request 76, versions 1)."""
    api_key: ClassVar[Literal[76]]
    kind: ClassVar[Literal['request']]
    group_id: str
    member_id: str
    member_epoch: int
    rack_id: str | None
    subscribed_topic_names: list[str] | None
    def __init__(
        self,
        group_id: str = ...,
        member_id: str = ...,
        member_epoch: int = ...,
        rack_id: str | None = ...,
        subscribed_topic_names: Sequence[str] | None = ...,
        _unknown_tagged: tuple[tuple[int, bytes], ...] | None = ...,
    ) -> None: ...

class ShareGroupHeartbeatResponse(Message):
    """Kafka's ShareGroupHeartbeatResponse (response 76, versions 1)."""
    api_key: ClassVar[Literal[76]]
    kind: ClassVar[Literal['response']]
    throttle_time_ms: int
    error_code: int
    error_message: str | None
    member_id: str | None
    member_epoch: int
    heartbeat_interval_ms: int
    assignment: ShareGroupHeartbeatResponse.Assignment | None
    def __init__(
        self,
        throttle_time_ms: int = ...,
        error_code: int = ...,
        error_message: str | None = ...,
        member_id: str | None = ...,
        member_epoch: int = ...,
        heartbeat_interval_ms: int = ...,
        assignment: ShareGroupHeartbeatResponse.Assignment | dict[str, Any] | None = ...,
        _unknown_tagged: tuple[tuple[int, bytes], ...] | None = ...,
    ) -> None: ...
    class Assignment(Struct):
        """A struct of Kafka's ShareGroupHeartbeatResponse."""
        topic_partitions: list[ShareGroupHeartbeatResponse.TopicPartitions]
        def __init__(
            self,
            topic_partitions: Sequence[ShareGroupHeartbeatResponse.TopicPartitions | dict[str, Any]] = ...,
            _unknown_tagged: tuple[tuple[int, bytes], ...] | None = ...,
        ) -> None: ...
    class TopicPartitions(Struct):
        """A struct of Kafka's ShareGroupHeartbeatResponse."""
        topic_id: uuid.UUID
        partitions: list[int]
        def __init__(
            self,
            topic_id: uuid.UUID = ...,
            partitions: Sequence[int] = ...,
            _unknown_tagged: tuple[tuple[int, bytes], ...] | None = ...,
        ) -> None: ...

class StopReplicaRequest(Message):
    """Kafka's StopReplicaRequest (request 5, versions none)."""
    api_key: ClassVar[Literal[5]]
    kind: ClassVar[Literal['request']]
    def __init__(
        self,
        _unknown_tagged: tuple[tuple[int, bytes], ...] | None = ...,
    ) -> None: ...

class StopReplicaResponse(Message):
    """Kafka's StopReplicaResponse (response 5, versions none)."""
    api_key: ClassVar[Literal[5]]
    kind: ClassVar[Literal['response']]
    def __init__(
        self,
        _unknown_tagged: tuple[tuple[int, bytes], ...] | None = ...,
    ) -> None: ...

class StreamsGroupDescribeRequest(Message):
    """Kafka's StreamsGroupDescribeRequest (request 89, versions 0-1)."""
    api_key: ClassVar[Literal[89]]
    kind: ClassVar[Literal['request']]
    group_ids: list[str]
    include_authorized_operations: bool
    include_topology_description: bool
    def __init__(
        self,
        group_ids: Sequence[str] = ...,
        include_authorized_operations: bool = ...,
        include_topology_description: bool = ...,
        _unknown_tagged: tuple[tuple[int, bytes], ...] | None = ...,
    ) -> None: ...

class StreamsGroupDescribeResponse(Message):
    """Kafka's StreamsGroupDescribeResponse (response 89, versions 0-1)."""
    api_key: ClassVar[Literal[89]]
    kind: ClassVar[Literal['response']]
    throttle_time_ms: int
    groups: list[StreamsGroupDescribeResponse.DescribedGroup]
    def __init__(
        self,
        throttle_time_ms: int = ...,
        groups: Sequence[StreamsGroupDescribeResponse.DescribedGroup | dict[str, Any]] = ...,
        _unknown_tagged: tuple[tuple[int, bytes], ...] | None = ...,
    ) -> None: ...
    class DescribedGroup(Struct):
        """A struct of Kafka's StreamsGroupDescribeResponse."""
        error_code: int
        error_message: str | None
        group_id: str
        group_state: str
        group_epoch: int
        assignment_epoch: int
        topology: StreamsGroupDescribeResponse.Topology | None
        members: list[StreamsGroupDescribeResponse.Member]
        authorized_operations: int
        topology_description: StreamsGroupDescribeResponse.TopologyDescription | None
        topology_description_status: int
        assignor_name: str | None
        def __init__(
            self,
            error_code: int = ...,
            error_message: str | None = ...,
            group_id: str = ...,
            group_state: str = ...,
            group_epoch: int = ...,
            assignment_epoch: int = ...,
            topology: StreamsGroupDescribeResponse.Topology | dict[str, Any] | None = ...,
            members: Sequence[StreamsGroupDescribeResponse.Member | dict[str, Any]] = ...,
            authorized_operations: int = ...,
            topology_description: StreamsGroupDescribeResponse.TopologyDescription | dict[str, Any] | None = ...,
            topology_description_status: int = ...,
            assignor_name: str | None = ...,
            _unknown_tagged: tuple[tuple[int, bytes], ...] | None = ...,
        ) -> None: ...
    class Topology(Struct):
        """A struct of Kafka's StreamsGroupDescribeResponse."""
        epoch: int
        subtopologies: list[StreamsGroupDescribeResponse.Subtopology] | None
        def __init__(
            self,
            epoch: int = ...,
            subtopologies: Sequence[StreamsGroupDescribeResponse.Subtopology | dict[str, Any]] | None = ...,
            _unknown_tagged: tuple[tuple[int, bytes], ...] | None = ...,
        ) -> None: ...
    class Subtopology(Struct):
        """A struct of Kafka's StreamsGroupDescribeResponse."""
        subtopology_id: str
        source_topics: list[str]
        repartition_sink_topics: list[str]
        state_changelog_topics: list[StreamsGroupDescribeResponse.TopicInfo]
        repartition_source_topics: list[StreamsGroupDescribeResponse.TopicInfo]
        def __init__(
            self,
            subtopology_id: str = ...,
            source_topics: Sequence[str] = ...,
            repartition_sink_topics: Sequence[str] = ...,
            state_changelog_topics: Sequence[StreamsGroupDescribeResponse.TopicInfo | dict[str, Any]] = ...,
            repartition_source_topics: Sequence[StreamsGroupDescribeResponse.TopicInfo | dict[str, Any]] = ...,
            _unknown_tagged: tuple[tuple[int, bytes], ...] | None = ...,
        ) -> None: ...
    class TopicInfo(Struct):
        """A struct of Kafka's StreamsGroupDescribeResponse."""
        name: str
        partitions: int
        replication_factor: int
        topic_configs: list[StreamsGroupDescribeResponse.KeyValue]
        def __init__(
            self,
            name: str = ...,
            partitions: int = ...,
            replication_factor: int = ...,
            topic_configs: Sequence[StreamsGroupDescribeResponse.KeyValue | dict[str, Any]] = ...,
            _unknown_tagged: tuple[tuple[int, bytes], ...] | None = ...,
        ) -> None: ...
    class KeyValue(Struct):
        """A struct of Kafka's StreamsGroupDescribeResponse."""
        key: str
        value: str
        def __init__(
            self,
            key: str = ...,
            value: str = ...,
            _unknown_tagged: tuple[tuple[int, bytes], ...] | None = ...,
        ) -> None: ...
    class Member(Struct):
        """A struct of Kafka's StreamsGroupDescribeResponse."""
        member_id: str
        member_epoch: int
        instance_id: str | None
        rack_id: str | None
        client_id: str
        client_host: str
        topology_epoch: int
        process_id: str
        user_endpoint: StreamsGroupDescribeResponse.Endpoint | None
        client_tags: list[StreamsGroupDescribeResponse.KeyValue]
        task_offsets: list[StreamsGroupDescribeResponse.TaskOffset]
        task_end_offsets: list[StreamsGroupDescribeResponse.TaskOffset]
        assignment: StreamsGroupDescribeResponse.Assignment
        target_assignment: StreamsGroupDescribeResponse.Assignment
        is_classic: bool
        def __init__(
            self,
            member_id: str = ...,
            member_epoch: int = ...,
            instance_id: str | None = ...,
            rack_id: str | None = ...,
            client_id: str = ...,
            client_host: str = ...,
            topology_epoch: int = ...,
            process_id: str = ...,
            user_endpoint: StreamsGroupDescribeResponse.Endpoint | dict[str, Any] | None = ...,
            client_tags: Sequence[StreamsGroupDescribeResponse.KeyValue | dict[str, Any]] = ...,
            task_offsets: Sequence[StreamsGroupDescribeResponse.TaskOffset | dict[str, Any]] = ...,
            task_end_offsets: Sequence[StreamsGroupDescribeResponse.TaskOffset | dict[str, Any]] = ...,
            assignment: StreamsGroupDescribeResponse.Assignment | dict[str, Any] = ...,
            target_assignment: StreamsGroupDescribeResponse.Assignment | dict[str, Any] = ...,
            is_classic: bool = ...,
            _unknown_tagged: tuple[tuple[int, bytes], ...] | None = ...,
        ) -> None: ...
    class Endpoint(Struct):
        """A struct of Kafka's StreamsGroupDescribeResponse."""
        host: str
        port: int
        def __init__(
            self,
            host: str = ...,
            port: int = ...,
            _unknown_tagged: tuple[tuple[int, bytes], ...] | None = ...,
        ) -> None: ...
    class TaskOffset(Struct):
        """A struct of Kafka's StreamsGroupDescribeResponse."""
        subtopology_id: str
        partition: int
        offset: int
        def __init__(
            self,
            subtopology_id: str = ...,
            partition: int = ...,
            offset: int = ...,
            _unknown_tagged: tuple[tuple[int, bytes], ...] | None = ...,
        ) -> None: ...
    class Assignment(Struct):
        """A struct of Kafka's StreamsGroupDescribeResponse."""
        active_tasks: list[StreamsGroupDescribeResponse.TaskIds]
        standby_tasks: list[StreamsGroupDescribeResponse.TaskIds]
        warmup_tasks: list[StreamsGroupDescribeResponse.TaskIds]
        def __init__(
            self,
            active_tasks: Sequence[StreamsGroupDescribeResponse.TaskIds | dict[str, Any]] = ...,
            standby_tasks: Sequence[StreamsGroupDescribeResponse.TaskIds | dict[str, Any]] = ...,
            warmup_tasks: Sequence[StreamsGroupDescribeResponse.TaskIds | dict[str, Any]] = ...,
            _unknown_tagged: tuple[tuple[int, bytes], ...] | None = ...,
        ) -> None: ...
    class TaskIds(Struct):
        """A struct of Kafka's StreamsGroupDescribeResponse."""
        subtopology_id: str
        partitions: list[int]
        def __init__(
            self,
            subtopology_id: str = ...,
            partitions: Sequence[int] = ...,
            _unknown_tagged: tuple[tuple[int, bytes], ...] | None = ...,
        ) -> None: ...
    class TopologyDescription(Struct):
        """A struct of Kafka's StreamsGroupDescribeResponse."""
        subtopologies: list[StreamsGroupDescribeResponse.TopologyDescriptionSubtopology]
        global_stores: list[StreamsGroupDescribeResponse.TopologyDescriptionGlobalStore]
        def __init__(
            self,
            subtopologies: Sequence[StreamsGroupDescribeResponse.TopologyDescriptionSubtopology | dict[str, Any]] = ...,
            global_stores: Sequence[StreamsGroupDescribeResponse.TopologyDescriptionGlobalStore | dict[str, Any]] = ...,
            _unknown_tagged: tuple[tuple[int, bytes], ...] | None = ...,
        ) -> None: ...
    class TopologyDescriptionSubtopology(Struct):
        """A struct of Kafka's StreamsGroupDescribeResponse."""
        subtopology_id: str
        nodes: list[StreamsGroupDescribeResponse.TopologyDescriptionNode]
        def __init__(
            self,
            subtopology_id: str = ...,
            nodes: Sequence[StreamsGroupDescribeResponse.TopologyDescriptionNode | dict[str, Any]] = ...,
            _unknown_tagged: tuple[tuple[int, bytes], ...] | None = ...,
        ) -> None: ...
    class TopologyDescriptionNode(Struct):
        """A struct of Kafka's StreamsGroupDescribeResponse."""
        name: str
        node_type: int
        source_topics: list[str]
        sink_topic: str | None
        stores: list[str]
        successors: list[str]
        def __init__(
            self,
            name: str = ...,
            node_type: int = ...,
            source_topics: Sequence[str] = ...,
            sink_topic: str | None = ...,
            stores: Sequence[str] = ...,
            successors: Sequence[str] = ...,
            _unknown_tagged: tuple[tuple[int, bytes], ...] | None = ...,
        ) -> None: ...
    class TopologyDescriptionGlobalStore(Struct):
        """A struct of Kafka's StreamsGroupDescribeResponse."""
        source: StreamsGroupDescribeResponse.TopologyDescriptionNode
        processor: StreamsGroupDescribeResponse.TopologyDescriptionNode
        def __init__(
            self,
            source: StreamsGroupDescribeResponse.TopologyDescriptionNode | dict[str, Any] = ...,
            processor: StreamsGroupDescribeResponse.TopologyDescriptionNode | dict[str, Any] = ...,
            _unknown_tagged: tuple[tuple[int, bytes], ...] | None = ...,
        ) -> None: ...

class StreamsGroupHeartbeatRequest(Message):
    """Kafka's StreamsGroupHeartbeatRequest (request 88, versions 0-1)."""
    api_key: ClassVar[Literal[88]]
    kind: ClassVar[Literal['request']]
    group_id: str
    member_id: str
    member_epoch: int
    endpoint_information_epoch: int
    instance_id: str | None
    rack_id: str | None
    rebalance_timeout_ms: int
    topology: StreamsGroupHeartbeatRequest.Topology | None
    active_tasks: list[StreamsGroupHeartbeatRequest.TaskIds] | None
    standby_tasks: list[StreamsGroupHeartbeatRequest.TaskIds] | None
    warmup_tasks: list[StreamsGroupHeartbeatRequest.TaskIds] | None
    process_id: str | None
    user_endpoint: StreamsGroupHeartbeatRequest.Endpoint | None
    client_tags: list[StreamsGroupHeartbeatRequest.KeyValue] | None
    task_offsets: list[StreamsGroupHeartbeatRequest.TaskOffset] | None
    task_end_offsets: list[StreamsGroupHeartbeatRequest.TaskOffset] | None
    shutdown_application: bool
    def __init__(
        self,
        group_id: str = ...,
        member_id: str = ...,
        member_epoch: int = ...,
        endpoint_information_epoch: int = ...,
        instance_id: str | None = ...,
        rack_id: str | None = ...,
        rebalance_timeout_ms: int = ...,
        topology: StreamsGroupHeartbeatRequest.Topology | dict[str, Any] | None = ...,
        active_tasks: Sequence[StreamsGroupHeartbeatRequest.TaskIds | dict[str, Any]] | None = ...,
        standby_tasks: Sequence[StreamsGroupHeartbeatRequest.TaskIds | dict[str, Any]] | None = ...,
        warmup_tasks: Sequence[StreamsGroupHeartbeatRequest.TaskIds | dict[str, Any]] | None = ...,
        process_id: str | None = ...,
        user_endpoint: StreamsGroupHeartbeatRequest.Endpoint | dict[str, Any] | None = ...,
        client_tags: Sequence[StreamsGroupHeartbeatRequest.KeyValue | dict[str, Any]] | None = ...,
        task_offsets: Sequence[StreamsGroupHeartbeatRequest.TaskOffset | dict[str, Any]] | None = ...,
        task_end_offsets: Sequence[StreamsGroupHeartbeatRequest.TaskOffset | dict[str, Any]] | None = ...,
        shutdown_application: bool = ...,
        _unknown_tagged: tuple[tuple[int, bytes], ...] | None = ...,
    ) -> None: ...
    class Topology(Struct):
        """A struct of Kafka's StreamsGroupHeartbeatRequest."""
        epoch: int
        subtopologies: list[StreamsGroupHeartbeatRequest.Subtopology]
        def __init__(
            self,
            epoch: int = ...,
            subtopologies: Sequence[StreamsGroupHeartbeatRequest.Subtopology | dict[str, Any]] = ...,
            _unknown_tagged: tuple[tuple[int, bytes], ...] | None = ...,
        ) -> None: ...
    class Subtopology(Struct):
        """A struct of Kafka's StreamsGroupHeartbeatRequest."""
        subtopology_id: str
        source_topics: list[str]
        source_topic_regex: list[str]
        state_changelog_topics: list[StreamsGroupHeartbeatRequest.TopicInfo]
        repartition_sink_topics: list[str]
        repartition_source_topics: list[StreamsGroupHeartbeatRequest.TopicInfo]
        copartition_groups: list[StreamsGroupHeartbeatRequest.CopartitionGroup]
        def __init__(
            self,
            subtopology_id: str = ...,
            source_topics: Sequence[str] = ...,
            source_topic_regex: Sequence[str] = ...,
            state_changelog_topics: Sequence[StreamsGroupHeartbeatRequest.TopicInfo | dict[str, Any]] = ...,
            repartition_sink_topics: Sequence[str] = ...,
            repartition_source_topics: Sequence[StreamsGroupHeartbeatRequest.TopicInfo | dict[str, Any]] = ...,
            copartition_groups: Sequence[StreamsGroupHeartbeatRequest.CopartitionGroup | dict[str, Any]] = ...,
            _unknown_tagged: tuple[tuple[int, bytes], ...] | None = ...,
        ) -> None: ...
    class TopicInfo(Struct):
        """A struct of Kafka's StreamsGroupHeartbeatRequest."""
        name: str
        partitions: int
        replication_factor: int
        topic_configs: list[StreamsGroupHeartbeatRequest.KeyValue]
        def __init__(
            self,
            name: str = ...,
            partitions: int = ...,
            replication_factor: int = ...,
            topic_configs: Sequence[StreamsGroupHeartbeatRequest.KeyValue | dict[str, Any]] = ...,
            _unknown_tagged: tuple[tuple[int, bytes], ...] | None = ...,
        ) -> None: ...
    class KeyValue(Struct):
        """A struct of Kafka's StreamsGroupHeartbeatRequest."""
        key: str
        value: str
        def __init__(
            self,
            key: str = ...,
            value: str = ...,
            _unknown_tagged: tuple[tuple[int, bytes], ...] | None = ...,
        ) -> None: ...
    class CopartitionGroup(Struct):
        """A struct of Kafka's StreamsGroupHeartbeatRequest."""
        source_topics: list[int]
        source_topic_regex: list[int]
        repartition_source_topics: list[int]
        def __init__(
            self,
            source_topics: Sequence[int] = ...,
            source_topic_regex: Sequence[int] = ...,
            repartition_source_topics: Sequence[int] = ...,
            _unknown_tagged: tuple[tuple[int, bytes], ...] | None = ...,
        ) -> None: ...
    class TaskIds(Struct):
        """A struct of Kafka's StreamsGroupHeartbeatRequest."""
        subtopology_id: str
        partitions: list[int]
        def __init__(
            self,
            subtopology_id: str = ...,
            partitions: Sequence[int] = ...,
            _unknown_tagged: tuple[tuple[int, bytes], ...] | None = ...,
        ) -> None: ...
    class Endpoint(Struct):
        """A struct of Kafka's StreamsGroupHeartbeatRequest."""
        host: str
        port: int
        def __init__(
            self,
            host: str = ...,
            port: int = ...,
            _unknown_tagged: tuple[tuple[int, bytes], ...] | None = ...,
        ) -> None: ...
    class TaskOffset(Struct):
        """A struct of Kafka's StreamsGroupHeartbeatRequest."""
        subtopology_id: str
        partition: int
        offset: int
        def __init__(
            self,
            subtopology_id: str = ...,
            partition: int = ...,
            offset: int = ...,
            _unknown_tagged: tuple[tuple[int, bytes], ...] | None = ...,
        ) -> None: ...

class StreamsGroupHeartbeatResponse(Message):
    """Kafka's StreamsGroupHeartbeatResponse (response 88, versions 0-1)."""
    api_key: ClassVar[Literal[88]]
    kind: ClassVar[Literal['response']]
    throttle_time_ms: int
    error_code: int
    error_message: str | None
    member_id: str
    member_epoch: int
    heartbeat_interval_ms: int
    acceptable_recovery_lag_legacy: int
    task_offset_interval_ms: int
    acceptable_recovery_lag: int
    status: list[StreamsGroupHeartbeatResponse.Status] | None
    active_tasks: list[StreamsGroupHeartbeatResponse.TaskIds] | None
    standby_tasks: list[StreamsGroupHeartbeatResponse.TaskIds] | None
    warmup_tasks: list[StreamsGroupHeartbeatResponse.TaskIds] | None
    topology_description_required: bool
    endpoint_information_epoch: int
    partitions_by_user_endpoint: list[StreamsGroupHeartbeatResponse.EndpointToPartitions] | None
    def __init__(
        self,
        throttle_time_ms: int = ...,
        error_code: int = ...,
        error_message: str | None = ...,
        member_id: str = ...,
        member_epoch: int = ...,
        heartbeat_interval_ms: int = ...,
        acceptable_recovery_lag_legacy: int = ...,
        task_offset_interval_ms: int = ...,
        acceptable_recovery_lag: int = ...,
        status: Sequence[StreamsGroupHeartbeatResponse.Status | dict[str, Any]] | None = ...,
        active_tasks: Sequence[StreamsGroupHeartbeatResponse.TaskIds | dict[str, Any]] | None = ...,
        standby_tasks: Sequence[StreamsGroupHeartbeatResponse.TaskIds | dict[str, Any]] | None = ...,
        warmup_tasks: Sequence[StreamsGroupHeartbeatResponse.TaskIds | dict[str, Any]] | None = ...,
        topology_description_required: bool = ...,
        endpoint_information_epoch: int = ...,
        partitions_by_user_endpoint: Sequence[StreamsGroupHeartbeatResponse.EndpointToPartitions | dict[str, Any]] | None = ...,
        _unknown_tagged: tuple[tuple[int, bytes], ...] | None = ...,
    ) -> None: ...
    class Status(Struct):
        """A struct of Kafka's StreamsGroupHeartbeatResponse."""
        status_code: int
        status_detail: str
        def __init__(
            self,
            status_code: int = ...,
            status_detail: str = ...,
            _unknown_tagged: tuple[tuple[int, bytes], ...] | None = ...,
        ) -> None: ...
    class TaskIds(Struct):
        """A struct of Kafka's StreamsGroupHeartbeatResponse."""
        subtopology_id: str
        partitions: list[int]
        def __init__(
            self,
            subtopology_id: str = ...,
            partitions: Sequence[int] = ...,
            _unknown_tagged: tuple[tuple[int, bytes], ...] | None = ...,
        ) -> None: ...
    class EndpointToPartitions(Struct):
        """A struct of Kafka's StreamsGroupHeartbeatResponse."""
        user_endpoint: StreamsGroupHeartbeatResponse.Endpoint
        active_partitions: list[StreamsGroupHeartbeatResponse.TopicPartition]
        standby_partitions: list[StreamsGroupHeartbeatResponse.TopicPartition]
        def __init__(
            self,
            user_endpoint: StreamsGroupHeartbeatResponse.Endpoint | dict[str, Any] = ...,
            active_partitions: Sequence[StreamsGroupHeartbeatResponse.TopicPartition | dict[str, Any]] = ...,
            standby_partitions: Sequence[StreamsGroupHeartbeatResponse.TopicPartition | dict[str, Any]] = ...,
            _unknown_tagged: tuple[tuple[int, bytes], ...] | None = ...,
        ) -> None: ...
    class Endpoint(Struct):
        """A struct of Kafka's StreamsGroupHeartbeatResponse."""
        host: str
        port: int
        def __init__(
            self,
            host: str = ...,
            port: int = ...,
            _unknown_tagged: tuple[tuple[int, bytes], ...] | None = ...,
        ) -> None: ...
    class TopicPartition(Struct):
        """A struct of Kafka's StreamsGroupHeartbeatResponse."""
        topic: str
        partitions: list[int]
        def __init__(
            self,
            topic: str = ...,
            partitions: Sequence[int] = ...,
            _unknown_tagged: tuple[tuple[int, bytes], ...] | None = ...,
        ) -> None: ...

class StreamsGroupTopologyDescriptionUpdateRequest(Message):
    """Kafka's StreamsGroupTopologyDescriptionUpdateRequest (request 93, versions 0)."""
    api_key: ClassVar[Literal[93]]
    kind: ClassVar[Literal['request']]
    group_id: str
    member_id: str
    topology_epoch: int
    topology_description: StreamsGroupTopologyDescriptionUpdateRequest.TopologyDescription
    def __init__(
        self,
        group_id: str = ...,
        member_id: str = ...,
        topology_epoch: int = ...,
        topology_description: StreamsGroupTopologyDescriptionUpdateRequest.TopologyDescription | dict[str, Any] = ...,
        _unknown_tagged: tuple[tuple[int, bytes], ...] | None = ...,
    ) -> None: ...
    class TopologyDescription(Struct):
        """A struct of Kafka's StreamsGroupTopologyDescriptionUpdateRequest."""
        subtopologies: list[StreamsGroupTopologyDescriptionUpdateRequest.TopologyDescriptionSubtopology]
        global_stores: list[StreamsGroupTopologyDescriptionUpdateRequest.TopologyDescriptionGlobalStore]
        def __init__(
            self,
            subtopologies: Sequence[StreamsGroupTopologyDescriptionUpdateRequest.TopologyDescriptionSubtopology | dict[str, Any]] = ...,
            global_stores: Sequence[StreamsGroupTopologyDescriptionUpdateRequest.TopologyDescriptionGlobalStore | dict[str, Any]] = ...,
            _unknown_tagged: tuple[tuple[int, bytes], ...] | None = ...,
        ) -> None: ...
    class TopologyDescriptionSubtopology(Struct):
        """A struct of Kafka's StreamsGroupTopologyDescriptionUpdateRequest."""
        subtopology_id: str
        nodes: list[StreamsGroupTopologyDescriptionUpdateRequest.TopologyDescriptionNode]
        def __init__(
            self,
            subtopology_id: str = ...,
            nodes: Sequence[StreamsGroupTopologyDescriptionUpdateRequest.TopologyDescriptionNode | dict[str, Any]] = ...,
            _unknown_tagged: tuple[tuple[int, bytes], ...] | None = ...,
        ) -> None: ...
    class TopologyDescriptionNode(Struct):
        """A struct of Kafka's StreamsGroupTopologyDescriptionUpdateRequest."""
        name: str
        node_type: int
        source_topics: list[str]
        sink_topic: str | None
        stores: list[str]
        successors: list[str]
        def __init__(
            self,
            name: str = ...,
            node_type: int = ...,
            source_topics: Sequence[str] = ...,
            sink_topic: str | None = ...,
            stores: Sequence[str] = ...,
            successors: Sequence[str] = ...,
            _unknown_tagged: tuple[tuple[int, bytes], ...] | None = ...,
        ) -> None: ...
    class TopologyDescriptionGlobalStore(Struct):
        """A struct of Kafka's StreamsGroupTopologyDescriptionUpdateRequest."""
        source: StreamsGroupTopologyDescriptionUpdateRequest.TopologyDescriptionNode
        processor: StreamsGroupTopologyDescriptionUpdateRequest.TopologyDescriptionNode
        def __init__(
            self,
            source: StreamsGroupTopologyDescriptionUpdateRequest.TopologyDescriptionNode | dict[str, Any] = ...,
            processor: StreamsGroupTopologyDescriptionUpdateRequest.TopologyDescriptionNode | dict[str, Any] = ...,
            _unknown_tagged: tuple[tuple[int, bytes], ...] | None = ...,
        ) -> None: ...

class StreamsGroupTopologyDescriptionUpdateResponse(Message):
    """Kafka's StreamsGroupTopologyDescriptionUpdateResponse (response 93, versions 0)."""
    api_key: ClassVar[Literal[93]]
    kind: ClassVar[Literal['response']]
    throttle_time_ms: int
    error_code: int
    error_message: str | None
    def __init__(
        self,
        throttle_time_ms: int = ...,
        error_code: int = ...,
        error_message: str | None = ...,
        _unknown_tagged: tuple[tuple[int, bytes], ...] | None = ...,
    ) -> None: ...

class SyncGroupRequest(Message):
    """Kafka's SyncGroupRequest (request 14, versions 0-5)."""
    api_key: ClassVar[Literal[14]]
    kind: ClassVar[Literal['request']]
    group_id: str
    generation_id: int
    member_id: str
    group_instance_id: str | None
    protocol_type: str | None
    protocol_name: str | None
    assignments: list[SyncGroupRequest.SyncGroupRequestAssignment]
    def __init__(
        self,
        group_id: str = ...,
        generation_id: int = ...,
        member_id: str = ...,
        group_instance_id: str | None = ...,
        protocol_type: str | None = ...,
        protocol_name: str | None = ...,
        assignments: Sequence[SyncGroupRequest.SyncGroupRequestAssignment | dict[str, Any]] = ...,
        _unknown_tagged: tuple[tuple[int, bytes], ...] | None = ...,
    ) -> None: ...
    class SyncGroupRequestAssignment(Struct):
        """A struct of Kafka's SyncGroupRequest."""
        member_id: str
        assignment: bytes
        def __init__(
            self,
            member_id: str = ...,
            assignment: _Bytes = ...,
            _unknown_tagged: tuple[tuple[int, bytes], ...] | None = ...,
        ) -> None: ...

class SyncGroupResponse(Message):
    """Kafka's SyncGroupResponse (response 14, versions 0-5)."""
    api_key: ClassVar[Literal[14]]
    kind: ClassVar[Literal['response']]
    throttle_time_ms: int
    error_code: int
    protocol_type: str | None
    protocol_name: str | None
    assignment: bytes
    def __init__(
        self,
        throttle_time_ms: int = ...,
        error_code: int = ...,
        protocol_type: str | None = ...,
        protocol_name: str | None = ...,
        assignment: _Bytes = ...,
        _unknown_tagged: tuple[tuple[int, bytes], ...] | None = ...,
    ) -> None: ...

class TxnOffsetCommitRequest(Message):
    """Kafka's TxnOffsetCommitRequest (request 28, versions 0-6)."""
    api_key: ClassVar[Literal[28]]
    kind: ClassVar[Literal['request']]
    transactional_id: str
    group_id: str
    producer_id: int
    producer_epoch: int
    generation_id_or_member_epoch: int
    member_id: str
    group_instance_id: str | None
    topics: list[TxnOffsetCommitRequest.TxnOffsetCommitRequestTopic]
    def __init__(
        self,
        transactional_id: str = ...,
        group_id: str = ...,
        producer_id: int = ...,
        producer_epoch: int = ...,
        generation_id_or_member_epoch: int = ...,
        member_id: str = ...,
        group_instance_id: str | None = ...,
        topics: Sequence[TxnOffsetCommitRequest.TxnOffsetCommitRequestTopic | dict[str, Any]] = ...,
        _unknown_tagged: tuple[tuple[int, bytes], ...] | None = ...,
    ) -> None: ...
    class TxnOffsetCommitRequestTopic(Struct):
        """A struct of Kafka's TxnOffsetCommitRequest."""
        name: str
        topic_id: uuid.UUID
        partitions: list[TxnOffsetCommitRequest.TxnOffsetCommitRequestPartition]
        def __init__(
            self,
            name: str = ...,
            topic_id: uuid.UUID = ...,
            partitions: Sequence[TxnOffsetCommitRequest.TxnOffsetCommitRequestPartition | dict[str, Any]] = ...,
            _unknown_tagged: tuple[tuple[int, bytes], ...] | None = ...,
        ) -> None: ...
    class TxnOffsetCommitRequestPartition(Struct):
        """A struct of Kafka's TxnOffsetCommitRequest."""
        partition_index: int
        committed_offset: int
        committed_leader_epoch: int
        committed_metadata: str | None
        def __init__(
            self,
            partition_index: int = ...,
            committed_offset: int = ...,
            committed_leader_epoch: int = ...,
            committed_metadata: str | None = ...,
            _unknown_tagged: tuple[tuple[int, bytes], ...] | None = ...,
        ) -> None: ...

class TxnOffsetCommitResponse(Message):
    """Kafka's TxnOffsetCommitResponse (response 28, versions 0-6)."""
    api_key: ClassVar[Literal[28]]
    kind: ClassVar[Literal['response']]
    throttle_time_ms: int
    topics: list[TxnOffsetCommitResponse.TxnOffsetCommitResponseTopic]
    def __init__(
        self,
        throttle_time_ms: int = ...,
        topics: Sequence[TxnOffsetCommitResponse.TxnOffsetCommitResponseTopic | dict[str, Any]] = ...,
        _unknown_tagged: tuple[tuple[int, bytes], ...] | None = ...,
    ) -> None: ...
    class TxnOffsetCommitResponseTopic(Struct):
        """A struct of Kafka's TxnOffsetCommitResponse."""
        name: str
        topic_id: uuid.UUID
        partitions: list[TxnOffsetCommitResponse.TxnOffsetCommitResponsePartition]
        def __init__(
            self,
            name: str = ...,
            topic_id: uuid.UUID = ...,
            partitions: Sequence[TxnOffsetCommitResponse.TxnOffsetCommitResponsePartition | dict[str, Any]] = ...,
            _unknown_tagged: tuple[tuple[int, bytes], ...] | None = ...,
        ) -> None: ...
    class TxnOffsetCommitResponsePartition(Struct):
        """A struct of Kafka's TxnOffsetCommitResponse."""
        partition_index: int
        error_code: int
        def __init__(
            self,
            partition_index: int = ...,
            error_code: int = ...,
            _unknown_tagged: tuple[tuple[int, bytes], ...] | None = ...,
        ) -> None: ...

class UnregisterBrokerRequest(Message):
    """Kafka's UnregisterBrokerRequest (request 64, versions 0)."""
    api_key: ClassVar[Literal[64]]
    kind: ClassVar[Literal['request']]
    broker_id: int
    def __init__(
        self,
        broker_id: int = ...,
        _unknown_tagged: tuple[tuple[int, bytes], ...] | None = ...,
    ) -> None: ...

class UnregisterBrokerResponse(Message):
    """Kafka's UnregisterBrokerResponse (response 64, versions 0)."""
    api_key: ClassVar[Literal[64]]
    kind: ClassVar[Literal['response']]
    throttle_time_ms: int
    error_code: int
    error_message: str | None
    def __init__(
        self,
        throttle_time_ms: int = ...,
        error_code: int = ...,
        error_message: str | None = ...,
        _unknown_tagged: tuple[tuple[int, bytes], ...] | None = ...,
    ) -> None: ...

class UnregisterControllerRequest(Message):
    """Kafka's UnregisterControllerRequest (request 94, versions 0)."""
    api_key: ClassVar[Literal[94]]
    kind: ClassVar[Literal['request']]
    controller_id: int
    def __init__(
        self,
        controller_id: int = ...,
        _unknown_tagged: tuple[tuple[int, bytes], ...] | None = ...,
    ) -> None: ...

class UnregisterControllerResponse(Message):
    """Kafka's UnregisterControllerResponse (response 94, versions 0)."""
    api_key: ClassVar[Literal[94]]
    kind: ClassVar[Literal['response']]
    throttle_time_ms: int
    error_code: int
    error_message: str | None
    def __init__(
        self,
        throttle_time_ms: int = ...,
        error_code: int = ...,
        error_message: str | None = ...,
        _unknown_tagged: tuple[tuple[int, bytes], ...] | None = ...,
    ) -> None: ...

class UpdateFeaturesRequest(Message):
    """Kafka's UpdateFeaturesRequest (request 57, versions 0-2)."""
    api_key: ClassVar[Literal[57]]
    kind: ClassVar[Literal['request']]
    timeout_ms: int
    feature_updates: list[UpdateFeaturesRequest.FeatureUpdateKey]
    validate_only: bool
    def __init__(
        self,
        timeout_ms: int = ...,
        feature_updates: Sequence[UpdateFeaturesRequest.FeatureUpdateKey | dict[str, Any]] = ...,
        validate_only: bool = ...,
        _unknown_tagged: tuple[tuple[int, bytes], ...] | None = ...,
    ) -> None: ...
    class FeatureUpdateKey(Struct):
        """A struct of Kafka's UpdateFeaturesRequest."""
        feature: str
        max_version_level: int
        allow_downgrade: bool
        upgrade_type: int
        def __init__(
            self,
            feature: str = ...,
            max_version_level: int = ...,
            allow_downgrade: bool = ...,
            upgrade_type: int = ...,
            _unknown_tagged: tuple[tuple[int, bytes], ...] | None = ...,
        ) -> None: ...

class UpdateFeaturesResponse(Message):
    """Kafka's UpdateFeaturesResponse (response 57, versions 0-2)."""
    api_key: ClassVar[Literal[57]]
    kind: ClassVar[Literal['response']]
    throttle_time_ms: int
    error_code: int
    error_message: str | None
    results: list[UpdateFeaturesResponse.UpdatableFeatureResult]
    def __init__(
        self,
        throttle_time_ms: int = ...,
        error_code: int = ...,
        error_message: str | None = ...,
        results: Sequence[UpdateFeaturesResponse.UpdatableFeatureResult | dict[str, Any]] = ...,
        _unknown_tagged: tuple[tuple[int, bytes], ...] | None = ...,
    ) -> None: ...
    class UpdatableFeatureResult(Struct):
        """A struct of Kafka's UpdateFeaturesResponse."""
        feature: str
        error_code: int
        error_message: str | None
        def __init__(
            self,
            feature: str = ...,
            error_code: int = ...,
            error_message: str | None = ...,
            _unknown_tagged: tuple[tuple[int, bytes], ...] | None = ...,
        ) -> None: ...

class UpdateMetadataRequest(Message):
    """Kafka's UpdateMetadataRequest (request 6, versions none)."""
    api_key: ClassVar[Literal[6]]
    kind: ClassVar[Literal['request']]
    def __init__(
        self,
        _unknown_tagged: tuple[tuple[int, bytes], ...] | None = ...,
    ) -> None: ...

class UpdateMetadataResponse(Message):
    """Kafka's UpdateMetadataResponse (response 6, versions none)."""
    api_key: ClassVar[Literal[6]]
    kind: ClassVar[Literal['response']]
    def __init__(
        self,
        _unknown_tagged: tuple[tuple[int, bytes], ...] | None = ...,
    ) -> None: ...

class UpdateRaftVoterRequest(Message):
    """Kafka's UpdateRaftVoterRequest (request 82, versions 0)."""
    api_key: ClassVar[Literal[82]]
    kind: ClassVar[Literal['request']]
    cluster_id: str | None
    current_leader_epoch: int
    voter_id: int
    voter_directory_id: uuid.UUID
    listeners: list[UpdateRaftVoterRequest.Listener]
    k_raft_version_feature: UpdateRaftVoterRequest.KRaftVersionFeature
    def __init__(
        self,
        cluster_id: str | None = ...,
        current_leader_epoch: int = ...,
        voter_id: int = ...,
        voter_directory_id: uuid.UUID = ...,
        listeners: Sequence[UpdateRaftVoterRequest.Listener | dict[str, Any]] = ...,
        k_raft_version_feature: UpdateRaftVoterRequest.KRaftVersionFeature | dict[str, Any] = ...,
        _unknown_tagged: tuple[tuple[int, bytes], ...] | None = ...,
    ) -> None: ...
    class Listener(Struct):
        """A struct of Kafka's UpdateRaftVoterRequest."""
        name: str
        host: str
        port: int
        def __init__(
            self,
            name: str = ...,
            host: str = ...,
            port: int = ...,
            _unknown_tagged: tuple[tuple[int, bytes], ...] | None = ...,
        ) -> None: ...
    class KRaftVersionFeature(Struct):
        """A struct of Kafka's UpdateRaftVoterRequest."""
        min_supported_version: int
        max_supported_version: int
        def __init__(
            self,
            min_supported_version: int = ...,
            max_supported_version: int = ...,
            _unknown_tagged: tuple[tuple[int, bytes], ...] | None = ...,
        ) -> None: ...

class UpdateRaftVoterResponse(Message):
    """Kafka's UpdateRaftVoterResponse (response 82, versions 0)."""
    api_key: ClassVar[Literal[82]]
    kind: ClassVar[Literal['response']]
    throttle_time_ms: int
    error_code: int
    current_leader: UpdateRaftVoterResponse.CurrentLeader
    def __init__(
        self,
        throttle_time_ms: int = ...,
        error_code: int = ...,
        current_leader: UpdateRaftVoterResponse.CurrentLeader | dict[str, Any] = ...,
        _unknown_tagged: tuple[tuple[int, bytes], ...] | None = ...,
    ) -> None: ...
    class CurrentLeader(Struct):
        """A struct of Kafka's UpdateRaftVoterResponse."""
        leader_id: int
        leader_epoch: int
        host: str
        port: int
        def __init__(
            self,
            leader_id: int = ...,
            leader_epoch: int = ...,
            host: str = ...,
            port: int = ...,
            _unknown_tagged: tuple[tuple[int, bytes], ...] | None = ...,
        ) -> None: ...

class VoteRequest(Message):
    """Kafka's VoteRequest (request 52, versions 0-2)."""
    api_key: ClassVar[Literal[52]]
    kind: ClassVar[Literal['request']]
    cluster_id: str | None
    voter_id: int
    topics: list[VoteRequest.TopicData]
    def __init__(
        self,
        cluster_id: str | None = ...,
        voter_id: int = ...,
        topics: Sequence[VoteRequest.TopicData | dict[str, Any]] = ...,
        _unknown_tagged: tuple[tuple[int, bytes], ...] | None = ...,
    ) -> None: ...
    class TopicData(Struct):
        """A struct of Kafka's VoteRequest."""
        topic_name: str
        partitions: list[VoteRequest.PartitionData]
        def __init__(
            self,
            topic_name: str = ...,
            partitions: Sequence[VoteRequest.PartitionData | dict[str, Any]] = ...,
            _unknown_tagged: tuple[tuple[int, bytes], ...] | None = ...,
        ) -> None: ...
    class PartitionData(Struct):
        """A struct of Kafka's VoteRequest."""
        partition_index: int
        replica_epoch: int
        replica_id: int
        replica_directory_id: uuid.UUID
        voter_directory_id: uuid.UUID
        last_offset_epoch: int
        last_offset: int
        pre_vote: bool
        def __init__(
            self,
            partition_index: int = ...,
            replica_epoch: int = ...,
            replica_id: int = ...,
            replica_directory_id: uuid.UUID = ...,
            voter_directory_id: uuid.UUID = ...,
            last_offset_epoch: int = ...,
            last_offset: int = ...,
            pre_vote: bool = ...,
            _unknown_tagged: tuple[tuple[int, bytes], ...] | None = ...,
        ) -> None: ...

class VoteResponse(Message):
    """Kafka's VoteResponse (response 52, versions 0-2)."""
    api_key: ClassVar[Literal[52]]
    kind: ClassVar[Literal['response']]
    error_code: int
    topics: list[VoteResponse.TopicData]
    node_endpoints: list[VoteResponse.NodeEndpoint]
    def __init__(
        self,
        error_code: int = ...,
        topics: Sequence[VoteResponse.TopicData | dict[str, Any]] = ...,
        node_endpoints: Sequence[VoteResponse.NodeEndpoint | dict[str, Any]] = ...,
        _unknown_tagged: tuple[tuple[int, bytes], ...] | None = ...,
    ) -> None: ...
    class TopicData(Struct):
        """A struct of Kafka's VoteResponse."""
        topic_name: str
        partitions: list[VoteResponse.PartitionData]
        def __init__(
            self,
            topic_name: str = ...,
            partitions: Sequence[VoteResponse.PartitionData | dict[str, Any]] = ...,
            _unknown_tagged: tuple[tuple[int, bytes], ...] | None = ...,
        ) -> None: ...
    class PartitionData(Struct):
        """A struct of Kafka's VoteResponse."""
        partition_index: int
        error_code: int
        leader_id: int
        leader_epoch: int
        vote_granted: bool
        def __init__(
            self,
            partition_index: int = ...,
            error_code: int = ...,
            leader_id: int = ...,
            leader_epoch: int = ...,
            vote_granted: bool = ...,
            _unknown_tagged: tuple[tuple[int, bytes], ...] | None = ...,
        ) -> None: ...
    class NodeEndpoint(Struct):
        """A struct of Kafka's VoteResponse."""
        node_id: int
        host: str
        port: int
        def __init__(
            self,
            node_id: int = ...,
            host: str = ...,
            port: int = ...,
            _unknown_tagged: tuple[tuple[int, bytes], ...] | None = ...,
        ) -> None: ...

class WriteShareGroupStateRequest(Message):
    """Kafka's WriteShareGroupStateRequest (request 85, versions 0-1)."""
    api_key: ClassVar[Literal[85]]
    kind: ClassVar[Literal['request']]
    group_id: str
    topics: list[WriteShareGroupStateRequest.WriteStateData]
    def __init__(
        self,
        group_id: str = ...,
        topics: Sequence[WriteShareGroupStateRequest.WriteStateData | dict[str, Any]] = ...,
        _unknown_tagged: tuple[tuple[int, bytes], ...] | None = ...,
    ) -> None: ...
    class WriteStateData(Struct):
        """A struct of Kafka's WriteShareGroupStateRequest."""
        topic_id: uuid.UUID
        partitions: list[WriteShareGroupStateRequest.PartitionData]
        def __init__(
            self,
            topic_id: uuid.UUID = ...,
            partitions: Sequence[WriteShareGroupStateRequest.PartitionData | dict[str, Any]] = ...,
            _unknown_tagged: tuple[tuple[int, bytes], ...] | None = ...,
        ) -> None: ...
    class PartitionData(Struct):
        """A struct of Kafka's WriteShareGroupStateRequest."""
        partition: int
        state_epoch: int
        leader_epoch: int
        start_offset: int
        delivery_complete_count: int
        state_batches: list[WriteShareGroupStateRequest.StateBatch]
        def __init__(
            self,
            partition: int = ...,
            state_epoch: int = ...,
            leader_epoch: int = ...,
            start_offset: int = ...,
            delivery_complete_count: int = ...,
            state_batches: Sequence[WriteShareGroupStateRequest.StateBatch | dict[str, Any]] = ...,
            _unknown_tagged: tuple[tuple[int, bytes], ...] | None = ...,
        ) -> None: ...
    class StateBatch(Struct):
        """A struct of Kafka's WriteShareGroupStateRequest."""
        first_offset: int
        last_offset: int
        delivery_state: int
        delivery_count: int
        def __init__(
            self,
            first_offset: int = ...,
            last_offset: int = ...,
            delivery_state: int = ...,
            delivery_count: int = ...,
            _unknown_tagged: tuple[tuple[int, bytes], ...] | None = ...,
        ) -> None: ...

class WriteShareGroupStateResponse(Message):
    """Kafka's WriteShareGroupStateResponse (response 85, versions 0-1)."""
    api_key: ClassVar[Literal[85]]
    kind: ClassVar[Literal['response']]
    results: list[WriteShareGroupStateResponse.WriteStateResult]
    def __init__(
        self,
        results: Sequence[WriteShareGroupStateResponse.WriteStateResult | dict[str, Any]] = ...,
        _unknown_tagged: tuple[tuple[int, bytes], ...] | None = ...,
    ) -> None: ...
    class WriteStateResult(Struct):
        """A struct of Kafka's WriteShareGroupStateResponse."""
        topic_id: uuid.UUID
        partitions: list[WriteShareGroupStateResponse.PartitionResult]
        def __init__(
            self,
            topic_id: uuid.UUID = ...,
            partitions: Sequence[WriteShareGroupStateResponse.PartitionResult | dict[str, Any]] = ...,
            _unknown_tagged: tuple[tuple[int, bytes], ...] | None = ...,
        ) -> None: ...
    class PartitionResult(Struct):
        """A struct of Kafka's WriteShareGroupStateResponse."""
        partition: int
        error_code: int
        error_message: str | None
        def __init__(
            self,
            partition: int = ...,
            error_code: int = ...,
            error_message: str | None = ...,
            _unknown_tagged: tuple[tuple[int, bytes], ...] | None = ...,
        ) -> None: ...

class WriteTxnMarkersRequest(Message):
    """Kafka's WriteTxnMarkersRequest (request 27, versions 1-2)."""
    api_key: ClassVar[Literal[27]]
    kind: ClassVar[Literal['request']]
    markers: list[WriteTxnMarkersRequest.WritableTxnMarker]
    def __init__(
        self,
        markers: Sequence[WriteTxnMarkersRequest.WritableTxnMarker | dict[str, Any]] = ...,
        _unknown_tagged: tuple[tuple[int, bytes], ...] | None = ...,
    ) -> None: ...
    class WritableTxnMarker(Struct):
        """A struct of Kafka's WriteTxnMarkersRequest."""
        producer_id: int
        producer_epoch: int
        transaction_result: bool
        topics: list[WriteTxnMarkersRequest.WritableTxnMarkerTopic]
        coordinator_epoch: int
        transaction_version: int
        def __init__(
            self,
            producer_id: int = ...,
            producer_epoch: int = ...,
            transaction_result: bool = ...,
            topics: Sequence[WriteTxnMarkersRequest.WritableTxnMarkerTopic | dict[str, Any]] = ...,
            coordinator_epoch: int = ...,
            transaction_version: int = ...,
            _unknown_tagged: tuple[tuple[int, bytes], ...] | None = ...,
        ) -> None: ...
    class WritableTxnMarkerTopic(Struct):
        """A struct of Kafka's WriteTxnMarkersRequest."""
        name: str
        partition_indexes: list[int]
        def __init__(
            self,
            name: str = ...,
            partition_indexes: Sequence[int] = ...,
            _unknown_tagged: tuple[tuple[int, bytes], ...] | None = ...,
        ) -> None: ...

class WriteTxnMarkersResponse(Message):
    """Kafka's WriteTxnMarkersResponse (response 27, versions 1-2)."""
    api_key: ClassVar[Literal[27]]
    kind: ClassVar[Literal['response']]
    markers: list[WriteTxnMarkersResponse.WritableTxnMarkerResult]
    def __init__(
        self,
        markers: Sequence[WriteTxnMarkersResponse.WritableTxnMarkerResult | dict[str, Any]] = ...,
        _unknown_tagged: tuple[tuple[int, bytes], ...] | None = ...,
    ) -> None: ...
    class WritableTxnMarkerResult(Struct):
        """A struct of Kafka's WriteTxnMarkersResponse."""
        producer_id: int
        topics: list[WriteTxnMarkersResponse.WritableTxnMarkerTopicResult]
        def __init__(
            self,
            producer_id: int = ...,
            topics: Sequence[WriteTxnMarkersResponse.WritableTxnMarkerTopicResult | dict[str, Any]] = ...,
            _unknown_tagged: tuple[tuple[int, bytes], ...] | None = ...,
        ) -> None: ...
    class WritableTxnMarkerTopicResult(Struct):
        """A struct of Kafka's WriteTxnMarkersResponse."""
        name: str
        partitions: list[WriteTxnMarkersResponse.WritableTxnMarkerPartitionResult]
        def __init__(
            self,
            name: str = ...,
            partitions: Sequence[WriteTxnMarkersResponse.WritableTxnMarkerPartitionResult | dict[str, Any]] = ...,
            _unknown_tagged: tuple[tuple[int, bytes], ...] | None = ...,
        ) -> None: ...
    class WritableTxnMarkerPartitionResult(Struct):
        """A struct of Kafka's WriteTxnMarkersResponse."""
        partition_index: int
        error_code: int
        def __init__(
            self,
            partition_index: int = ...,
            error_code: int = ...,
            _unknown_tagged: tuple[tuple[int, bytes], ...] | None = ...,
        ) -> None: ...

class AbortedTxn(Message):
    """Kafka's AbortedTxn (data, versions 0)."""
    api_key: ClassVar[None]
    kind: ClassVar[Literal['data']]
    producer_id: int
    first_offset: int
    last_offset: int
    last_stable_offset: int
    def __init__(
        self,
        producer_id: int = ...,
        first_offset: int = ...,
        last_offset: int = ...,
        last_stable_offset: int = ...,
        _unknown_tagged: tuple[tuple[int, bytes], ...] | None = ...,
    ) -> None: ...

class ConsumerProtocolAssignment(Message):
    """Kafka's ConsumerProtocolAssignment (data, versions 0-3)."""
    api_key: ClassVar[None]
    kind: ClassVar[Literal['data']]
    assigned_partitions: list[ConsumerProtocolAssignment.TopicPartition]
    user_data: bytes | None
    def __init__(
        self,
        assigned_partitions: Sequence[ConsumerProtocolAssignment.TopicPartition | dict[str, Any]] = ...,
        user_data: _Bytes | None = ...,
        _unknown_tagged: tuple[tuple[int, bytes], ...] | None = ...,
    ) -> None: ...
    class TopicPartition(Struct):
        """A struct of Kafka's ConsumerProtocolAssignment."""
        topic: str
        partitions: list[int]
        def __init__(
            self,
            topic: str = ...,
            partitions: Sequence[int] = ...,
            _unknown_tagged: tuple[tuple[int, bytes], ...] | None = ...,
        ) -> None: ...

class ConsumerProtocolSubscription(Message):
    """Kafka's ConsumerProtocolSubscription (data, versions 0-3)."""
    api_key: ClassVar[None]
    kind: ClassVar[Literal['data']]
    topics: list[str]
    user_data: bytes | None
    owned_partitions: list[ConsumerProtocolSubscription.TopicPartition]
    generation_id: int
    rack_id: str | None
    def __init__(
        self,
        topics: Sequence[str] = ...,
        user_data: _Bytes | None = ...,
        owned_partitions: Sequence[ConsumerProtocolSubscription.TopicPartition | dict[str, Any]] = ...,
        generation_id: int = ...,
        rack_id: str | None = ...,
        _unknown_tagged: tuple[tuple[int, bytes], ...] | None = ...,
    ) -> None: ...
    class TopicPartition(Struct):
        """A struct of Kafka's ConsumerProtocolSubscription."""
        topic: str
        partitions: list[int]
        def __init__(
            self,
            topic: str = ...,
            partitions: Sequence[int] = ...,
            _unknown_tagged: tuple[tuple[int, bytes], ...] | None = ...,
        ) -> None: ...

class ControlRecordTypeSchema(Message):
    """Kafka's ControlRecordTypeSchema (data, versions 0)."""
    api_key: ClassVar[None]
    kind: ClassVar[Literal['data']]
    type: int
    def __init__(
        self,
        type: int = ...,
        _unknown_tagged: tuple[tuple[int, bytes], ...] | None = ...,
    ) -> None: ...

class DefaultPrincipalData(Message):
    """Kafka's DefaultPrincipalData (data, versions 0)."""
    api_key: ClassVar[None]
    kind: ClassVar[Literal['data']]
    type: str
    name: str
    token_authenticated: bool
    def __init__(
        self,
        type: str = ...,
        name: str = ...,
        token_authenticated: bool = ...,
        _unknown_tagged: tuple[tuple[int, bytes], ...] | None = ...,
    ) -> None: ...

class EndTxnMarker(Message):
    """Kafka's EndTxnMarker (data, versions 0)."""
    api_key: ClassVar[None]
    kind: ClassVar[Literal['data']]
    coordinator_epoch: int
    def __init__(
        self,
        coordinator_epoch: int = ...,
        _unknown_tagged: tuple[tuple[int, bytes], ...] | None = ...,
    ) -> None: ...

class ProducerSnapshot(Message):
    """Kafka's ProducerSnapshot (data, versions 1)."""
    api_key: ClassVar[None]
    kind: ClassVar[Literal['data']]
    crc: int
    producer_entries: list[ProducerSnapshot.ProducerEntry]
    def __init__(
        self,
        crc: int = ...,
        producer_entries: Sequence[ProducerSnapshot.ProducerEntry | dict[str, Any]] = ...,
        _unknown_tagged: tuple[tuple[int, bytes], ...] | None = ...,
    ) -> None: ...
    class ProducerEntry(Struct):
        """A struct of Kafka's ProducerSnapshot."""
        producer_id: int
        epoch: int
        last_sequence: int
        last_offset: int
        offset_delta: int
        timestamp: int
        coordinator_epoch: int
        current_txn_first_offset: int
        def __init__(
            self,
            producer_id: int = ...,
            epoch: int = ...,
            last_sequence: int = ...,
            last_offset: int = ...,
            offset_delta: int = ...,
            timestamp: int = ...,
            coordinator_epoch: int = ...,
            current_txn_first_offset: int = ...,
            _unknown_tagged: tuple[tuple[int, bytes], ...] | None = ...,
        ) -> None: ...

class ConsumerGroupCurrentMemberAssignmentKey(Message):
    """Kafka's ConsumerGroupCurrentMemberAssignmentKey (coordinator-key 8, versions 0)."""
    api_key: ClassVar[Literal[8]]
    kind: ClassVar[Literal['coordinator-key']]
    group_id: str
    member_id: str
    def __init__(
        self,
        group_id: str = ...,
        member_id: str = ...,
        _unknown_tagged: tuple[tuple[int, bytes], ...] | None = ...,
    ) -> None: ...

class ConsumerGroupCurrentMemberAssignmentValue(Message):
    """Kafka's ConsumerGroupCurrentMemberAssignmentValue (coordinator-value 8, versions 0)."""
    api_key: ClassVar[Literal[8]]
    kind: ClassVar[Literal['coordinator-value']]
    member_epoch: int
    previous_member_epoch: int
    state: int
    assigned_partitions: list[ConsumerGroupCurrentMemberAssignmentValue.TopicPartitions]
    partitions_pending_revocation: list[ConsumerGroupCurrentMemberAssignmentValue.TopicPartitions]
    def __init__(
        self,
        member_epoch: int = ...,
        previous_member_epoch: int = ...,
        state: int = ...,
        assigned_partitions: Sequence[ConsumerGroupCurrentMemberAssignmentValue.TopicPartitions | dict[str, Any]] = ...,
        partitions_pending_revocation: Sequence[ConsumerGroupCurrentMemberAssignmentValue.TopicPartitions | dict[str, Any]] = ...,
        _unknown_tagged: tuple[tuple[int, bytes], ...] | None = ...,
    ) -> None: ...
    class TopicPartitions(Struct):
        """A struct of Kafka's ConsumerGroupCurrentMemberAssignmentValue."""
        topic_id: uuid.UUID
        partitions: list[int]
        assignment_epochs: list[int] | None
        def __init__(
            self,
            topic_id: uuid.UUID = ...,
            partitions: Sequence[int] = ...,
            assignment_epochs: Sequence[int] | None = ...,
            _unknown_tagged: tuple[tuple[int, bytes], ...] | None = ...,
        ) -> None: ...

class ConsumerGroupMemberMetadataKey(Message):
    """Kafka's ConsumerGroupMemberMetadataKey (coordinator-key 5, versions 0)."""
    api_key: ClassVar[Literal[5]]
    kind: ClassVar[Literal['coordinator-key']]
    group_id: str
    member_id: str
    def __init__(
        self,
        group_id: str = ...,
        member_id: str = ...,
        _unknown_tagged: tuple[tuple[int, bytes], ...] | None = ...,
    ) -> None: ...

class ConsumerGroupMemberMetadataValue(Message):
    """Kafka's ConsumerGroupMemberMetadataValue (coordinator-value 5, versions 0)."""
    api_key: ClassVar[Literal[5]]
    kind: ClassVar[Literal['coordinator-value']]
    instance_id: str | None
    rack_id: str | None
    client_id: str
    client_host: str
    subscribed_topic_names: list[str]
    subscribed_topic_regex: str | None
    rebalance_timeout_ms: int
    server_assignor: str | None
    classic_member_metadata: ConsumerGroupMemberMetadataValue.ClassicMemberMetadata | None
    def __init__(
        self,
        instance_id: str | None = ...,
        rack_id: str | None = ...,
        client_id: str = ...,
        client_host: str = ...,
        subscribed_topic_names: Sequence[str] = ...,
        subscribed_topic_regex: str | None = ...,
        rebalance_timeout_ms: int = ...,
        server_assignor: str | None = ...,
        classic_member_metadata: ConsumerGroupMemberMetadataValue.ClassicMemberMetadata | dict[str, Any] | None = ...,
        _unknown_tagged: tuple[tuple[int, bytes], ...] | None = ...,
    ) -> None: ...
    class ClassicMemberMetadata(Struct):
        """A struct of Kafka's ConsumerGroupMemberMetadataValue."""
        session_timeout_ms: int
        supported_protocols: list[ConsumerGroupMemberMetadataValue.ClassicProtocol]
        def __init__(
            self,
            session_timeout_ms: int = ...,
            supported_protocols: Sequence[ConsumerGroupMemberMetadataValue.ClassicProtocol | dict[str, Any]] = ...,
            _unknown_tagged: tuple[tuple[int, bytes], ...] | None = ...,
        ) -> None: ...
    class ClassicProtocol(Struct):
        """A struct of Kafka's ConsumerGroupMemberMetadataValue."""
        name: str
        metadata: bytes
        def __init__(
            self,
            name: str = ...,
            metadata: _Bytes = ...,
            _unknown_tagged: tuple[tuple[int, bytes], ...] | None = ...,
        ) -> None: ...

class ConsumerGroupMetadataKey(Message):
    """Kafka's ConsumerGroupMetadataKey (coordinator-key 3, versions 0)."""
    api_key: ClassVar[Literal[3]]
    kind: ClassVar[Literal['coordinator-key']]
    group_id: str
    def __init__(
        self,
        group_id: str = ...,
        _unknown_tagged: tuple[tuple[int, bytes], ...] | None = ...,
    ) -> None: ...

class ConsumerGroupMetadataValue(Message):
    """Kafka's ConsumerGroupMetadataValue (coordinator-value 3, versions 0)."""
    api_key: ClassVar[Literal[3]]
    kind: ClassVar[Literal['coordinator-value']]
    epoch: int
    metadata_hash: int
    def __init__(
        self,
        epoch: int = ...,
        metadata_hash: int = ...,
        _unknown_tagged: tuple[tuple[int, bytes], ...] | None = ...,
    ) -> None: ...

class ConsumerGroupPartitionMetadataKey(Message):
    """Kafka's ConsumerGroupPartitionMetadataKey (coordinator-key 4, versions 0)."""
    api_key: ClassVar[Literal[4]]
    kind: ClassVar[Literal['coordinator-key']]
    group_id: str
    def __init__(
        self,
        group_id: str = ...,
        _unknown_tagged: tuple[tuple[int, bytes], ...] | None = ...,
    ) -> None: ...

class ConsumerGroupPartitionMetadataValue(Message):
    """Kafka's ConsumerGroupPartitionMetadataValue (coordinator-value 4, versions 0)."""
    api_key: ClassVar[Literal[4]]
    kind: ClassVar[Literal['coordinator-value']]
    topics: list[ConsumerGroupPartitionMetadataValue.TopicMetadata]
    def __init__(
        self,
        topics: Sequence[ConsumerGroupPartitionMetadataValue.TopicMetadata | dict[str, Any]] = ...,
        _unknown_tagged: tuple[tuple[int, bytes], ...] | None = ...,
    ) -> None: ...
    class TopicMetadata(Struct):
        """A struct of Kafka's ConsumerGroupPartitionMetadataValue."""
        topic_id: uuid.UUID
        topic_name: str
        num_partitions: int
        partition_metadata: list[ConsumerGroupPartitionMetadataValue.PartitionMetadata]
        def __init__(
            self,
            topic_id: uuid.UUID = ...,
            topic_name: str = ...,
            num_partitions: int = ...,
            partition_metadata: Sequence[ConsumerGroupPartitionMetadataValue.PartitionMetadata | dict[str, Any]] = ...,
            _unknown_tagged: tuple[tuple[int, bytes], ...] | None = ...,
        ) -> None: ...
    class PartitionMetadata(Struct):
        """A struct of Kafka's ConsumerGroupPartitionMetadataValue."""
        partition: int
        racks: list[str]
        def __init__(
            self,
            partition: int = ...,
            racks: Sequence[str] = ...,
            _unknown_tagged: tuple[tuple[int, bytes], ...] | None = ...,
        ) -> None: ...

class ConsumerGroupRegularExpressionKey(Message):
    """Kafka's ConsumerGroupRegularExpressionKey (coordinator-key 16, versions 0)."""
    api_key: ClassVar[Literal[16]]
    kind: ClassVar[Literal['coordinator-key']]
    group_id: str
    regular_expression: str
    def __init__(
        self,
        group_id: str = ...,
        regular_expression: str = ...,
        _unknown_tagged: tuple[tuple[int, bytes], ...] | None = ...,
    ) -> None: ...

class ConsumerGroupRegularExpressionValue(Message):
    """Kafka's ConsumerGroupRegularExpressionValue (coordinator-value 16, versions 0)."""
    api_key: ClassVar[Literal[16]]
    kind: ClassVar[Literal['coordinator-value']]
    topics: list[str]
    version: int
    timestamp: int
    def __init__(
        self,
        topics: Sequence[str] = ...,
        version: int = ...,
        timestamp: int = ...,
        _unknown_tagged: tuple[tuple[int, bytes], ...] | None = ...,
    ) -> None: ...

class ConsumerGroupTargetAssignmentMemberKey(Message):
    """Kafka's ConsumerGroupTargetAssignmentMemberKey (coordinator-key 7, versions 0)."""
    api_key: ClassVar[Literal[7]]
    kind: ClassVar[Literal['coordinator-key']]
    group_id: str
    member_id: str
    def __init__(
        self,
        group_id: str = ...,
        member_id: str = ...,
        _unknown_tagged: tuple[tuple[int, bytes], ...] | None = ...,
    ) -> None: ...

class ConsumerGroupTargetAssignmentMemberValue(Message):
    """Kafka's ConsumerGroupTargetAssignmentMemberValue (coordinator-value 7, versions 0)."""
    api_key: ClassVar[Literal[7]]
    kind: ClassVar[Literal['coordinator-value']]
    topic_partitions: list[ConsumerGroupTargetAssignmentMemberValue.TopicPartition]
    def __init__(
        self,
        topic_partitions: Sequence[ConsumerGroupTargetAssignmentMemberValue.TopicPartition | dict[str, Any]] = ...,
        _unknown_tagged: tuple[tuple[int, bytes], ...] | None = ...,
    ) -> None: ...
    class TopicPartition(Struct):
        """A struct of Kafka's ConsumerGroupTargetAssignmentMemberValue."""
        topic_id: uuid.UUID
        partitions: list[int]
        def __init__(
            self,
            topic_id: uuid.UUID = ...,
            partitions: Sequence[int] = ...,
            _unknown_tagged: tuple[tuple[int, bytes], ...] | None = ...,
        ) -> None: ...

class ConsumerGroupTargetAssignmentMetadataKey(Message):
    """Kafka's ConsumerGroupTargetAssignmentMetadataKey (coordinator-key 6, versions 0)."""
    api_key: ClassVar[Literal[6]]
    kind: ClassVar[Literal['coordinator-key']]
    group_id: str
    def __init__(
        self,
        group_id: str = ...,
        _unknown_tagged: tuple[tuple[int, bytes], ...] | None = ...,
    ) -> None: ...

class ConsumerGroupTargetAssignmentMetadataValue(Message):
    """Kafka's ConsumerGroupTargetAssignmentMetadataValue (coordinator-value 6, versions 0)."""
    api_key: ClassVar[Literal[6]]
    kind: ClassVar[Literal['coordinator-value']]
    assignment_epoch: int
    assignment_timestamp: int
    def __init__(
        self,
        assignment_epoch: int = ...,
        assignment_timestamp: int = ...,
        _unknown_tagged: tuple[tuple[int, bytes], ...] | None = ...,
    ) -> None: ...

class GroupMetadataKey(Message):
    """Kafka's GroupMetadataKey (coordinator-key 2, versions 0)."""
    api_key: ClassVar[Literal[2]]
    kind: ClassVar[Literal['coordinator-key']]
    group: str
    def __init__(
        self,
        group: str = ...,
        _unknown_tagged: tuple[tuple[int, bytes], ...] | None = ...,
    ) -> None: ...

class GroupMetadataValue(Message):
    """Kafka's GroupMetadataValue (coordinator-value 2, versions 0-4)."""
    api_key: ClassVar[Literal[2]]
    kind: ClassVar[Literal['coordinator-value']]
    protocol_type: str
    generation: int
    protocol: str | None
    leader: str | None
    current_state_timestamp: int
    members: list[GroupMetadataValue.MemberMetadata]
    def __init__(
        self,
        protocol_type: str = ...,
        generation: int = ...,
        protocol: str | None = ...,
        leader: str | None = ...,
        current_state_timestamp: int = ...,
        members: Sequence[GroupMetadataValue.MemberMetadata | dict[str, Any]] = ...,
        _unknown_tagged: tuple[tuple[int, bytes], ...] | None = ...,
    ) -> None: ...
    class MemberMetadata(Struct):
        """A struct of Kafka's GroupMetadataValue."""
        member_id: str
        group_instance_id: str | None
        client_id: str
        client_host: str
        rebalance_timeout: int
        session_timeout: int
        subscription: bytes
        assignment: bytes
        def __init__(
            self,
            member_id: str = ...,
            group_instance_id: str | None = ...,
            client_id: str = ...,
            client_host: str = ...,
            rebalance_timeout: int = ...,
            session_timeout: int = ...,
            subscription: _Bytes = ...,
            assignment: _Bytes = ...,
            _unknown_tagged: tuple[tuple[int, bytes], ...] | None = ...,
        ) -> None: ...

class LegacyOffsetCommitKey(Message):
    """Kafka's LegacyOffsetCommitKey (coordinator-key 0, versions 0)."""
    api_key: ClassVar[Literal[0]]
    kind: ClassVar[Literal['coordinator-key']]
    group: str
    topic: str
    partition: int
    def __init__(
        self,
        group: str = ...,
        topic: str = ...,
        partition: int = ...,
        _unknown_tagged: tuple[tuple[int, bytes], ...] | None = ...,
    ) -> None: ...

class LegacyOffsetCommitValue(Message):
    """Kafka's LegacyOffsetCommitValue (coordinator-value 0, versions 0)."""
    api_key: ClassVar[Literal[0]]
    kind: ClassVar[Literal['coordinator-value']]
    offset: int
    metadata: str
    commit_timestamp: int
    def __init__(
        self,
        offset: int = ...,
        metadata: str = ...,
        commit_timestamp: int = ...,
        _unknown_tagged: tuple[tuple[int, bytes], ...] | None = ...,
    ) -> None: ...

class OffsetCommitKey(Message):
    """Kafka's OffsetCommitKey (coordinator-key 1, versions 0)."""
    api_key: ClassVar[Literal[1]]
    kind: ClassVar[Literal['coordinator-key']]
    group: str
    topic: str
    partition: int
    def __init__(
        self,
        group: str = ...,
        topic: str = ...,
        partition: int = ...,
        _unknown_tagged: tuple[tuple[int, bytes], ...] | None = ...,
    ) -> None: ...

class OffsetCommitValue(Message):
    """Kafka's OffsetCommitValue (coordinator-value 1, versions 0-4)."""
    api_key: ClassVar[Literal[1]]
    kind: ClassVar[Literal['coordinator-value']]
    offset: int
    leader_epoch: int
    metadata: str
    commit_timestamp: int
    expire_timestamp: int
    topic_id: uuid.UUID
    def __init__(
        self,
        offset: int = ...,
        leader_epoch: int = ...,
        metadata: str = ...,
        commit_timestamp: int = ...,
        expire_timestamp: int = ...,
        topic_id: uuid.UUID = ...,
        _unknown_tagged: tuple[tuple[int, bytes], ...] | None = ...,
    ) -> None: ...

class ShareGroupCurrentMemberAssignmentKey(Message):
    """Kafka's ShareGroupCurrentMemberAssignmentKey (coordinator-key 14, versions 0)."""
    api_key: ClassVar[Literal[14]]
    kind: ClassVar[Literal['coordinator-key']]
    group_id: str
    member_id: str
    def __init__(
        self,
        group_id: str = ...,
        member_id: str = ...,
        _unknown_tagged: tuple[tuple[int, bytes], ...] | None = ...,
    ) -> None: ...

class ShareGroupCurrentMemberAssignmentValue(Message):
    """Kafka's ShareGroupCurrentMemberAssignmentValue (coordinator-value 14, versions 0)."""
    api_key: ClassVar[Literal[14]]
    kind: ClassVar[Literal['coordinator-value']]
    member_epoch: int
    previous_member_epoch: int
    state: int
    assigned_partitions: list[ShareGroupCurrentMemberAssignmentValue.TopicPartitions]
    def __init__(
        self,
        member_epoch: int = ...,
        previous_member_epoch: int = ...,
        state: int = ...,
        assigned_partitions: Sequence[ShareGroupCurrentMemberAssignmentValue.TopicPartitions | dict[str, Any]] = ...,
        _unknown_tagged: tuple[tuple[int, bytes], ...] | None = ...,
    ) -> None: ...
    class TopicPartitions(Struct):
        """A struct of Kafka's ShareGroupCurrentMemberAssignmentValue."""
        topic_id: uuid.UUID
        partitions: list[int]
        def __init__(
            self,
            topic_id: uuid.UUID = ...,
            partitions: Sequence[int] = ...,
            _unknown_tagged: tuple[tuple[int, bytes], ...] | None = ...,
        ) -> None: ...

class ShareGroupMemberMetadataKey(Message):
    """Kafka's ShareGroupMemberMetadataKey (coordinator-key 10, versions 0)."""
    api_key: ClassVar[Literal[10]]
    kind: ClassVar[Literal['coordinator-key']]
    group_id: str
    member_id: str
    def __init__(
        self,
        group_id: str = ...,
        member_id: str = ...,
        _unknown_tagged: tuple[tuple[int, bytes], ...] | None = ...,
    ) -> None: ...

class ShareGroupMemberMetadataValue(Message):
    """Kafka's ShareGroupMemberMetadataValue (coordinator-value 10, versions 0)."""
    api_key: ClassVar[Literal[10]]
    kind: ClassVar[Literal['coordinator-value']]
    rack_id: str | None
    client_id: str
    client_host: str
    subscribed_topic_names: list[str]
    def __init__(
        self,
        rack_id: str | None = ...,
        client_id: str = ...,
        client_host: str = ...,
        subscribed_topic_names: Sequence[str] = ...,
        _unknown_tagged: tuple[tuple[int, bytes], ...] | None = ...,
    ) -> None: ...

class ShareGroupMetadataKey(Message):
    """Kafka's ShareGroupMetadataKey (coordinator-key 11, versions 0)."""
    api_key: ClassVar[Literal[11]]
    kind: ClassVar[Literal['coordinator-key']]
    group_id: str
    def __init__(
        self,
        group_id: str = ...,
        _unknown_tagged: tuple[tuple[int, bytes], ...] | None = ...,
    ) -> None: ...

class ShareGroupMetadataValue(Message):
    """Kafka's ShareGroupMetadataValue (coordinator-value 11, versions 0)."""
    api_key: ClassVar[Literal[11]]
    kind: ClassVar[Literal['coordinator-value']]
    epoch: int
    metadata_hash: int
    def __init__(
        self,
        epoch: int = ...,
        metadata_hash: int = ...,
        _unknown_tagged: tuple[tuple[int, bytes], ...] | None = ...,
    ) -> None: ...

class ShareGroupStatePartitionMetadataKey(Message):
    """Kafka's ShareGroupStatePartitionMetadataKey (coordinator-key 15, versions 0)."""
    api_key: ClassVar[Literal[15]]
    kind: ClassVar[Literal['coordinator-key']]
    group_id: str
    def __init__(
        self,
        group_id: str = ...,
        _unknown_tagged: tuple[tuple[int, bytes], ...] | None = ...,
    ) -> None: ...

class ShareGroupStatePartitionMetadataValue(Message):
    """Kafka's ShareGroupStatePartitionMetadataValue (coordinator-value 15, versions 0)."""
    api_key: ClassVar[Literal[15]]
    kind: ClassVar[Literal['coordinator-value']]
    initializing_topics: list[ShareGroupStatePartitionMetadataValue.TopicPartitionsInfo]
    initialized_topics: list[ShareGroupStatePartitionMetadataValue.TopicPartitionsInfo]
    deleting_topics: list[ShareGroupStatePartitionMetadataValue.TopicInfo]
    def __init__(
        self,
        initializing_topics: Sequence[ShareGroupStatePartitionMetadataValue.TopicPartitionsInfo | dict[str, Any]] = ...,
        initialized_topics: Sequence[ShareGroupStatePartitionMetadataValue.TopicPartitionsInfo | dict[str, Any]] = ...,
        deleting_topics: Sequence[ShareGroupStatePartitionMetadataValue.TopicInfo | dict[str, Any]] = ...,
        _unknown_tagged: tuple[tuple[int, bytes], ...] | None = ...,
    ) -> None: ...
    class TopicPartitionsInfo(Struct):
        """A struct of Kafka's ShareGroupStatePartitionMetadataValue."""
        topic_id: uuid.UUID
        topic_name: str
        partitions: list[int]
        def __init__(
            self,
            topic_id: uuid.UUID = ...,
            topic_name: str = ...,
            partitions: Sequence[int] = ...,
            _unknown_tagged: tuple[tuple[int, bytes], ...] | None = ...,
        ) -> None: ...
    class TopicInfo(Struct):
        """A struct of Kafka's ShareGroupStatePartitionMetadataValue."""
        topic_id: uuid.UUID
        topic_name: str
        def __init__(
            self,
            topic_id: uuid.UUID = ...,
            topic_name: str = ...,
            _unknown_tagged: tuple[tuple[int, bytes], ...] | None = ...,
        ) -> None: ...

class ShareGroupTargetAssignmentMemberKey(Message):
    """Kafka's ShareGroupTargetAssignmentMemberKey (coordinator-key 13, versions 0)."""
    api_key: ClassVar[Literal[13]]
    kind: ClassVar[Literal['coordinator-key']]
    group_id: str
    member_id: str
    def __init__(
        self,
        group_id: str = ...,
        member_id: str = ...,
        _unknown_tagged: tuple[tuple[int, bytes], ...] | None = ...,
    ) -> None: ...

class ShareGroupTargetAssignmentMemberValue(Message):
    """Kafka's ShareGroupTargetAssignmentMemberValue (coordinator-value 13, versions 0)."""
    api_key: ClassVar[Literal[13]]
    kind: ClassVar[Literal['coordinator-value']]
    topic_partitions: list[ShareGroupTargetAssignmentMemberValue.TopicPartition]
    def __init__(
        self,
        topic_partitions: Sequence[ShareGroupTargetAssignmentMemberValue.TopicPartition | dict[str, Any]] = ...,
        _unknown_tagged: tuple[tuple[int, bytes], ...] | None = ...,
    ) -> None: ...
    class TopicPartition(Struct):
        """A struct of Kafka's ShareGroupTargetAssignmentMemberValue."""
        topic_id: uuid.UUID
        partitions: list[int]
        def __init__(
            self,
            topic_id: uuid.UUID = ...,
            partitions: Sequence[int] = ...,
            _unknown_tagged: tuple[tuple[int, bytes], ...] | None = ...,
        ) -> None: ...

class ShareGroupTargetAssignmentMetadataKey(Message):
    """Kafka's ShareGroupTargetAssignmentMetadataKey (coordinator-key 12, versions 0)."""
    api_key: ClassVar[Literal[12]]
    kind: ClassVar[Literal['coordinator-key']]
    group_id: str
    def __init__(
        self,
        group_id: str = ...,
        _unknown_tagged: tuple[tuple[int, bytes], ...] | None = ...,
    ) -> None: ...

class ShareGroupTargetAssignmentMetadataValue(Message):
    """Kafka's ShareGroupTargetAssignmentMetadataValue (coordinator-value 12, versions 0)."""
    api_key: ClassVar[Literal[12]]
    kind: ClassVar[Literal['coordinator-value']]
    assignment_epoch: int
    assignment_timestamp: int
    def __init__(
        self,
        assignment_epoch: int = ...,
        assignment_timestamp: int = ...,
        _unknown_tagged: tuple[tuple[int, bytes], ...] | None = ...,
    ) -> None: ...

class ShareSnapshotKey(Message):
    """Kafka's ShareSnapshotKey (coordinator-key 0, versions 0)."""
    api_key: ClassVar[Literal[0]]
    kind: ClassVar[Literal['coordinator-key']]
    group_id: str
    topic_id: uuid.UUID
    partition: int
    def __init__(
        self,
        group_id: str = ...,
        topic_id: uuid.UUID = ...,
        partition: int = ...,
        _unknown_tagged: tuple[tuple[int, bytes], ...] | None = ...,
    ) -> None: ...

class ShareSnapshotValue(Message):
    """Kafka's ShareSnapshotValue (coordinator-value 0, versions 0)."""
    api_key: ClassVar[Literal[0]]
    kind: ClassVar[Literal['coordinator-value']]
    snapshot_epoch: int
    state_epoch: int
    leader_epoch: int
    start_offset: int
    delivery_complete_count: int
    create_timestamp: int
    write_timestamp: int
    state_batches: list[ShareSnapshotValue.StateBatch]
    def __init__(
        self,
        snapshot_epoch: int = ...,
        state_epoch: int = ...,
        leader_epoch: int = ...,
        start_offset: int = ...,
        delivery_complete_count: int = ...,
        create_timestamp: int = ...,
        write_timestamp: int = ...,
        state_batches: Sequence[ShareSnapshotValue.StateBatch | dict[str, Any]] = ...,
        _unknown_tagged: tuple[tuple[int, bytes], ...] | None = ...,
    ) -> None: ...
    class StateBatch(Struct):
        """A struct of Kafka's ShareSnapshotValue."""
        first_offset: int
        last_offset: int
        delivery_state: int
        delivery_count: int
        def __init__(
            self,
            first_offset: int = ...,
            last_offset: int = ...,
            delivery_state: int = ...,
            delivery_count: int = ...,
            _unknown_tagged: tuple[tuple[int, bytes], ...] | None = ...,
        ) -> None: ...

class ShareUpdateKey(Message):
    """Kafka's ShareUpdateKey (coordinator-key 1, versions 0)."""
    api_key: ClassVar[Literal[1]]
    kind: ClassVar[Literal['coordinator-key']]
    group_id: str
    topic_id: uuid.UUID
    partition: int
    def __init__(
        self,
        group_id: str = ...,
        topic_id: uuid.UUID = ...,
        partition: int = ...,
        _unknown_tagged: tuple[tuple[int, bytes], ...] | None = ...,
    ) -> None: ...

class ShareUpdateValue(Message):
    """Kafka's ShareUpdateValue (coordinator-value 1, versions 0)."""
    api_key: ClassVar[Literal[1]]
    kind: ClassVar[Literal['coordinator-value']]
    snapshot_epoch: int
    leader_epoch: int
    start_offset: int
    delivery_complete_count: int
    state_batches: list[ShareUpdateValue.StateBatch]
    def __init__(
        self,
        snapshot_epoch: int = ...,
        leader_epoch: int = ...,
        start_offset: int = ...,
        delivery_complete_count: int = ...,
        state_batches: Sequence[ShareUpdateValue.StateBatch | dict[str, Any]] = ...,
        _unknown_tagged: tuple[tuple[int, bytes], ...] | None = ...,
    ) -> None: ...
    class StateBatch(Struct):
        """A struct of Kafka's ShareUpdateValue."""
        first_offset: int
        last_offset: int
        delivery_state: int
        delivery_count: int
        def __init__(
            self,
            first_offset: int = ...,
            last_offset: int = ...,
            delivery_state: int = ...,
            delivery_count: int = ...,
            _unknown_tagged: tuple[tuple[int, bytes], ...] | None = ...,
        ) -> None: ...

class StreamsGroupCurrentMemberAssignmentKey(Message):
    """Kafka's StreamsGroupCurrentMemberAssignmentKey (coordinator-key 22, versions 0)."""
    api_key: ClassVar[Literal[22]]
    kind: ClassVar[Literal['coordinator-key']]
    group_id: str
    member_id: str
    def __init__(
        self,
        group_id: str = ...,
        member_id: str = ...,
        _unknown_tagged: tuple[tuple[int, bytes], ...] | None = ...,
    ) -> None: ...

class StreamsGroupCurrentMemberAssignmentValue(Message):
    """Kafka's StreamsGroupCurrentMemberAssignmentValue (coordinator-value 22, versions 0)."""
    api_key: ClassVar[Literal[22]]
    kind: ClassVar[Literal['coordinator-value']]
    member_epoch: int
    previous_member_epoch: int
    state: int
    active_tasks: list[StreamsGroupCurrentMemberAssignmentValue.TaskIds]
    standby_tasks: list[StreamsGroupCurrentMemberAssignmentValue.TaskIds]
    warmup_tasks: list[StreamsGroupCurrentMemberAssignmentValue.TaskIds]
    active_tasks_pending_revocation: list[StreamsGroupCurrentMemberAssignmentValue.TaskIds]
    standby_tasks_pending_revocation: list[StreamsGroupCurrentMemberAssignmentValue.TaskIds]
    warmup_tasks_pending_revocation: list[StreamsGroupCurrentMemberAssignmentValue.TaskIds]
    def __init__(
        self,
        member_epoch: int = ...,
        previous_member_epoch: int = ...,
        state: int = ...,
        active_tasks: Sequence[StreamsGroupCurrentMemberAssignmentValue.TaskIds | dict[str, Any]] = ...,
        standby_tasks: Sequence[StreamsGroupCurrentMemberAssignmentValue.TaskIds | dict[str, Any]] = ...,
        warmup_tasks: Sequence[StreamsGroupCurrentMemberAssignmentValue.TaskIds | dict[str, Any]] = ...,
        active_tasks_pending_revocation: Sequence[StreamsGroupCurrentMemberAssignmentValue.TaskIds | dict[str, Any]] = ...,
        standby_tasks_pending_revocation: Sequence[StreamsGroupCurrentMemberAssignmentValue.TaskIds | dict[str, Any]] = ...,
        warmup_tasks_pending_revocation: Sequence[StreamsGroupCurrentMemberAssignmentValue.TaskIds | dict[str, Any]] = ...,
        _unknown_tagged: tuple[tuple[int, bytes], ...] | None = ...,
    ) -> None: ...
    class TaskIds(Struct):
        """A struct of Kafka's StreamsGroupCurrentMemberAssignmentValue."""
        subtopology_id: str
        partitions: list[int]
        assignment_epochs: list[int] | None
        def __init__(
            self,
            subtopology_id: str = ...,
            partitions: Sequence[int] = ...,
            assignment_epochs: Sequence[int] | None = ...,
            _unknown_tagged: tuple[tuple[int, bytes], ...] | None = ...,
        ) -> None: ...

class StreamsGroupMemberMetadataKey(Message):
    """Kafka's StreamsGroupMemberMetadataKey (coordinator-key 19, versions 0)."""
    api_key: ClassVar[Literal[19]]
    kind: ClassVar[Literal['coordinator-key']]
    group_id: str
    member_id: str
    def __init__(
        self,
        group_id: str = ...,
        member_id: str = ...,
        _unknown_tagged: tuple[tuple[int, bytes], ...] | None = ...,
    ) -> None: ...

class StreamsGroupMemberMetadataValue(Message):
    """Kafka's StreamsGroupMemberMetadataValue (coordinator-value 19, versions 0)."""
    api_key: ClassVar[Literal[19]]
    kind: ClassVar[Literal['coordinator-value']]
    instance_id: str | None
    rack_id: str | None
    client_id: str
    client_host: str
    rebalance_timeout_ms: int
    topology_epoch: int
    process_id: str
    user_endpoint: StreamsGroupMemberMetadataValue.Endpoint | None
    client_tags: list[StreamsGroupMemberMetadataValue.KeyValue]
    def __init__(
        self,
        instance_id: str | None = ...,
        rack_id: str | None = ...,
        client_id: str = ...,
        client_host: str = ...,
        rebalance_timeout_ms: int = ...,
        topology_epoch: int = ...,
        process_id: str = ...,
        user_endpoint: StreamsGroupMemberMetadataValue.Endpoint | dict[str, Any] | None = ...,
        client_tags: Sequence[StreamsGroupMemberMetadataValue.KeyValue | dict[str, Any]] = ...,
        _unknown_tagged: tuple[tuple[int, bytes], ...] | None = ...,
    ) -> None: ...
    class Endpoint(Struct):
        """A struct of Kafka's StreamsGroupMemberMetadataValue."""
        host: str
        port: int
        def __init__(
            self,
            host: str = ...,
            port: int = ...,
            _unknown_tagged: tuple[tuple[int, bytes], ...] | None = ...,
        ) -> None: ...
    class KeyValue(Struct):
        """A struct of Kafka's StreamsGroupMemberMetadataValue."""
        key: str
        value: str
        def __init__(
            self,
            key: str = ...,
            value: str = ...,
            _unknown_tagged: tuple[tuple[int, bytes], ...] | None = ...,
        ) -> None: ...

class StreamsGroupMetadataKey(Message):
    """Kafka's StreamsGroupMetadataKey (coordinator-key 17, versions 0)."""
    api_key: ClassVar[Literal[17]]
    kind: ClassVar[Literal['coordinator-key']]
    group_id: str
    def __init__(
        self,
        group_id: str = ...,
        _unknown_tagged: tuple[tuple[int, bytes], ...] | None = ...,
    ) -> None: ...

class StreamsGroupMetadataValue(Message):
    """Kafka's StreamsGroupMetadataValue (coordinator-value 17, versions 0)."""
    api_key: ClassVar[Literal[17]]
    kind: ClassVar[Literal['coordinator-value']]
    epoch: int
    metadata_hash: int
    validated_topology_epoch: int
    last_assignment_configs: list[StreamsGroupMetadataValue.LastAssignmentConfig] | None
    stored_description_topology_epoch: int
    failed_description_topology_epoch: int
    def __init__(
        self,
        epoch: int = ...,
        metadata_hash: int = ...,
        validated_topology_epoch: int = ...,
        last_assignment_configs: Sequence[StreamsGroupMetadataValue.LastAssignmentConfig | dict[str, Any]] | None = ...,
        stored_description_topology_epoch: int = ...,
        failed_description_topology_epoch: int = ...,
        _unknown_tagged: tuple[tuple[int, bytes], ...] | None = ...,
    ) -> None: ...
    class LastAssignmentConfig(Struct):
        """A struct of Kafka's StreamsGroupMetadataValue."""
        key: str
        value: str
        def __init__(
            self,
            key: str = ...,
            value: str = ...,
            _unknown_tagged: tuple[tuple[int, bytes], ...] | None = ...,
        ) -> None: ...

class StreamsGroupTargetAssignmentMemberKey(Message):
    """Kafka's StreamsGroupTargetAssignmentMemberKey (coordinator-key 21, versions 0)."""
    api_key: ClassVar[Literal[21]]
    kind: ClassVar[Literal['coordinator-key']]
    group_id: str
    member_id: str
    def __init__(
        self,
        group_id: str = ...,
        member_id: str = ...,
        _unknown_tagged: tuple[tuple[int, bytes], ...] | None = ...,
    ) -> None: ...

class StreamsGroupTargetAssignmentMemberValue(Message):
    """Kafka's StreamsGroupTargetAssignmentMemberValue (coordinator-value 21, versions 0)."""
    api_key: ClassVar[Literal[21]]
    kind: ClassVar[Literal['coordinator-value']]
    active_tasks: list[StreamsGroupTargetAssignmentMemberValue.TaskIds]
    standby_tasks: list[StreamsGroupTargetAssignmentMemberValue.TaskIds]
    warmup_tasks: list[StreamsGroupTargetAssignmentMemberValue.TaskIds]
    def __init__(
        self,
        active_tasks: Sequence[StreamsGroupTargetAssignmentMemberValue.TaskIds | dict[str, Any]] = ...,
        standby_tasks: Sequence[StreamsGroupTargetAssignmentMemberValue.TaskIds | dict[str, Any]] = ...,
        warmup_tasks: Sequence[StreamsGroupTargetAssignmentMemberValue.TaskIds | dict[str, Any]] = ...,
        _unknown_tagged: tuple[tuple[int, bytes], ...] | None = ...,
    ) -> None: ...
    class TaskIds(Struct):
        """A struct of Kafka's StreamsGroupTargetAssignmentMemberValue."""
        subtopology_id: str
        partitions: list[int]
        def __init__(
            self,
            subtopology_id: str = ...,
            partitions: Sequence[int] = ...,
            _unknown_tagged: tuple[tuple[int, bytes], ...] | None = ...,
        ) -> None: ...

class StreamsGroupTargetAssignmentMetadataKey(Message):
    """Kafka's StreamsGroupTargetAssignmentMetadataKey (coordinator-key 20, versions 0)."""
    api_key: ClassVar[Literal[20]]
    kind: ClassVar[Literal['coordinator-key']]
    group_id: str
    def __init__(
        self,
        group_id: str = ...,
        _unknown_tagged: tuple[tuple[int, bytes], ...] | None = ...,
    ) -> None: ...

class StreamsGroupTargetAssignmentMetadataValue(Message):
    """Kafka's StreamsGroupTargetAssignmentMetadataValue (coordinator-value 20, versions 0)."""
    api_key: ClassVar[Literal[20]]
    kind: ClassVar[Literal['coordinator-value']]
    assignment_epoch: int
    assignment_timestamp: int
    def __init__(
        self,
        assignment_epoch: int = ...,
        assignment_timestamp: int = ...,
        _unknown_tagged: tuple[tuple[int, bytes], ...] | None = ...,
    ) -> None: ...

class StreamsGroupTopologyKey(Message):
    """Kafka's StreamsGroupTopologyKey (coordinator-key 23, versions 0)."""
    api_key: ClassVar[Literal[23]]
    kind: ClassVar[Literal['coordinator-key']]
    group_id: str
    def __init__(
        self,
        group_id: str = ...,
        _unknown_tagged: tuple[tuple[int, bytes], ...] | None = ...,
    ) -> None: ...

class StreamsGroupTopologyValue(Message):
    """Kafka's StreamsGroupTopologyValue (coordinator-value 23, versions 0)."""
    api_key: ClassVar[Literal[23]]
    kind: ClassVar[Literal['coordinator-value']]
    epoch: int
    subtopologies: list[StreamsGroupTopologyValue.Subtopology]
    def __init__(
        self,
        epoch: int = ...,
        subtopologies: Sequence[StreamsGroupTopologyValue.Subtopology | dict[str, Any]] = ...,
        _unknown_tagged: tuple[tuple[int, bytes], ...] | None = ...,
    ) -> None: ...
    class Subtopology(Struct):
        """A struct of Kafka's StreamsGroupTopologyValue."""
        subtopology_id: str
        source_topics: list[str]
        source_topic_regex: list[str]
        state_changelog_topics: list[StreamsGroupTopologyValue.TopicInfo]
        repartition_sink_topics: list[str]
        repartition_source_topics: list[StreamsGroupTopologyValue.TopicInfo]
        copartition_groups: list[StreamsGroupTopologyValue.CopartitionGroup]
        def __init__(
            self,
            subtopology_id: str = ...,
            source_topics: Sequence[str] = ...,
            source_topic_regex: Sequence[str] = ...,
            state_changelog_topics: Sequence[StreamsGroupTopologyValue.TopicInfo | dict[str, Any]] = ...,
            repartition_sink_topics: Sequence[str] = ...,
            repartition_source_topics: Sequence[StreamsGroupTopologyValue.TopicInfo | dict[str, Any]] = ...,
            copartition_groups: Sequence[StreamsGroupTopologyValue.CopartitionGroup | dict[str, Any]] = ...,
            _unknown_tagged: tuple[tuple[int, bytes], ...] | None = ...,
        ) -> None: ...
    class TopicInfo(Struct):
        """A struct of Kafka's StreamsGroupTopologyValue."""
        name: str
        partitions: int
        replication_factor: int
        topic_configs: list[StreamsGroupTopologyValue.TopicConfig]
        def __init__(
            self,
            name: str = ...,
            partitions: int = ...,
            replication_factor: int = ...,
            topic_configs: Sequence[StreamsGroupTopologyValue.TopicConfig | dict[str, Any]] = ...,
            _unknown_tagged: tuple[tuple[int, bytes], ...] | None = ...,
        ) -> None: ...
    class TopicConfig(Struct):
        """A struct of Kafka's StreamsGroupTopologyValue."""
        key: str
        value: str
        def __init__(
            self,
            key: str = ...,
            value: str = ...,
            _unknown_tagged: tuple[tuple[int, bytes], ...] | None = ...,
        ) -> None: ...
    class CopartitionGroup(Struct):
        """A struct of Kafka's StreamsGroupTopologyValue."""
        source_topics: list[int]
        source_topic_regex: list[int]
        repartition_source_topics: list[int]
        def __init__(
            self,
            source_topics: Sequence[int] = ...,
            source_topic_regex: Sequence[int] = ...,
            repartition_source_topics: Sequence[int] = ...,
            _unknown_tagged: tuple[tuple[int, bytes], ...] | None = ...,
        ) -> None: ...

class TransactionLogKey(Message):
    """Kafka's TransactionLogKey (coordinator-key 0, versions 0)."""
    api_key: ClassVar[Literal[0]]
    kind: ClassVar[Literal['coordinator-key']]
    transactional_id: str
    def __init__(
        self,
        transactional_id: str = ...,
        _unknown_tagged: tuple[tuple[int, bytes], ...] | None = ...,
    ) -> None: ...

class TransactionLogValue(Message):
    """Kafka's TransactionLogValue (coordinator-value 0, versions 0-1)."""
    api_key: ClassVar[Literal[0]]
    kind: ClassVar[Literal['coordinator-value']]
    producer_id: int
    previous_producer_id: int
    next_producer_id: int
    producer_epoch: int
    next_producer_epoch: int
    transaction_timeout_ms: int
    transaction_status: int
    transaction_partitions: list[TransactionLogValue.PartitionsSchema] | None
    transaction_last_update_timestamp_ms: int
    transaction_start_timestamp_ms: int
    client_transaction_version: int
    def __init__(
        self,
        producer_id: int = ...,
        previous_producer_id: int = ...,
        next_producer_id: int = ...,
        producer_epoch: int = ...,
        next_producer_epoch: int = ...,
        transaction_timeout_ms: int = ...,
        transaction_status: int = ...,
        transaction_partitions: Sequence[TransactionLogValue.PartitionsSchema | dict[str, Any]] | None = ...,
        transaction_last_update_timestamp_ms: int = ...,
        transaction_start_timestamp_ms: int = ...,
        client_transaction_version: int = ...,
        _unknown_tagged: tuple[tuple[int, bytes], ...] | None = ...,
    ) -> None: ...
    class PartitionsSchema(Struct):
        """A struct of Kafka's TransactionLogValue."""
        topic: str
        partition_ids: list[int]
        def __init__(
            self,
            topic: str = ...,
            partition_ids: Sequence[int] = ...,
            _unknown_tagged: tuple[tuple[int, bytes], ...] | None = ...,
        ) -> None: ...

class AbortTransactionRecord(Message):
    """Kafka's AbortTransactionRecord (metadata 25, versions 0)."""
    api_key: ClassVar[Literal[25]]
    kind: ClassVar[Literal['metadata']]
    reason: str | None
    def __init__(
        self,
        reason: str | None = ...,
        _unknown_tagged: tuple[tuple[int, bytes], ...] | None = ...,
    ) -> None: ...

class AccessControlEntryRecord(Message):
    """Kafka's AccessControlEntryRecord (metadata 18, versions 0)."""
    api_key: ClassVar[Literal[18]]
    kind: ClassVar[Literal['metadata']]
    id: uuid.UUID
    resource_type: int
    resource_name: str
    pattern_type: int
    principal: str
    host: str
    operation: int
    permission_type: int
    def __init__(
        self,
        id: uuid.UUID = ...,
        resource_type: int = ...,
        resource_name: str = ...,
        pattern_type: int = ...,
        principal: str = ...,
        host: str = ...,
        operation: int = ...,
        permission_type: int = ...,
        _unknown_tagged: tuple[tuple[int, bytes], ...] | None = ...,
    ) -> None: ...

class BeginTransactionRecord(Message):
    """Kafka's BeginTransactionRecord (metadata 23, versions 0)."""
    api_key: ClassVar[Literal[23]]
    kind: ClassVar[Literal['metadata']]
    name: str | None
    def __init__(
        self,
        name: str | None = ...,
        _unknown_tagged: tuple[tuple[int, bytes], ...] | None = ...,
    ) -> None: ...

class BrokerRegistrationChangeRecord(Message):
    """Kafka's BrokerRegistrationChangeRecord (metadata 17, versions 0-3)."""
    api_key: ClassVar[Literal[17]]
    kind: ClassVar[Literal['metadata']]
    broker_id: int
    broker_epoch: int
    fenced: int
    in_controlled_shutdown: int
    log_dirs: list[uuid.UUID]
    cordoned_log_dirs: list[uuid.UUID] | None
    def __init__(
        self,
        broker_id: int = ...,
        broker_epoch: int = ...,
        fenced: int = ...,
        in_controlled_shutdown: int = ...,
        log_dirs: Sequence[uuid.UUID] = ...,
        cordoned_log_dirs: Sequence[uuid.UUID] | None = ...,
        _unknown_tagged: tuple[tuple[int, bytes], ...] | None = ...,
    ) -> None: ...

class ClearElrRecord(Message):
    """Kafka's ClearElrRecord (metadata 28, versions 0)."""
    api_key: ClassVar[Literal[28]]
    kind: ClassVar[Literal['metadata']]
    topic_name: str
    def __init__(
        self,
        topic_name: str = ...,
        _unknown_tagged: tuple[tuple[int, bytes], ...] | None = ...,
    ) -> None: ...

class ClientQuotaRecord(Message):
    """Kafka's ClientQuotaRecord (metadata 14, versions 0)."""
    api_key: ClassVar[Literal[14]]
    kind: ClassVar[Literal['metadata']]
    entity: list[ClientQuotaRecord.EntityData]
    key: str
    value: float
    remove: bool
    def __init__(
        self,
        entity: Sequence[ClientQuotaRecord.EntityData | dict[str, Any]] = ...,
        key: str = ...,
        value: float = ...,
        remove: bool = ...,
        _unknown_tagged: tuple[tuple[int, bytes], ...] | None = ...,
    ) -> None: ...
    class EntityData(Struct):
        """A struct of Kafka's ClientQuotaRecord."""
        entity_type: str
        entity_name: str | None
        def __init__(
            self,
            entity_type: str = ...,
            entity_name: str | None = ...,
            _unknown_tagged: tuple[tuple[int, bytes], ...] | None = ...,
        ) -> None: ...

class ConfigRecord(Message):
    """Kafka's ConfigRecord (metadata 4, versions 0)."""
    api_key: ClassVar[Literal[4]]
    kind: ClassVar[Literal['metadata']]
    resource_type: int
    resource_name: str
    name: str
    value: str | None
    def __init__(
        self,
        resource_type: int = ...,
        resource_name: str = ...,
        name: str = ...,
        value: str | None = ...,
        _unknown_tagged: tuple[tuple[int, bytes], ...] | None = ...,
    ) -> None: ...

class DelegationTokenRecord(Message):
    """Kafka's DelegationTokenRecord (metadata 10, versions 0)."""
    api_key: ClassVar[Literal[10]]
    kind: ClassVar[Literal['metadata']]
    owner: str
    requester: str
    renewers: list[str]
    issue_timestamp: int
    max_timestamp: int
    expiration_timestamp: int
    token_id: str
    def __init__(
        self,
        owner: str = ...,
        requester: str = ...,
        renewers: Sequence[str] = ...,
        issue_timestamp: int = ...,
        max_timestamp: int = ...,
        expiration_timestamp: int = ...,
        token_id: str = ...,
        _unknown_tagged: tuple[tuple[int, bytes], ...] | None = ...,
    ) -> None: ...

class EndTransactionRecord(Message):
    """Kafka's EndTransactionRecord (metadata 24, versions 0)."""
    api_key: ClassVar[Literal[24]]
    kind: ClassVar[Literal['metadata']]
    def __init__(
        self,
        _unknown_tagged: tuple[tuple[int, bytes], ...] | None = ...,
    ) -> None: ...

class FeatureLevelRecord(Message):
    """Kafka's FeatureLevelRecord (metadata 12, versions 0)."""
    api_key: ClassVar[Literal[12]]
    kind: ClassVar[Literal['metadata']]
    name: str
    feature_level: int
    def __init__(
        self,
        name: str = ...,
        feature_level: int = ...,
        _unknown_tagged: tuple[tuple[int, bytes], ...] | None = ...,
    ) -> None: ...

class FenceBrokerRecord(Message):
    """Kafka's FenceBrokerRecord (metadata 7, versions 0)."""
    api_key: ClassVar[Literal[7]]
    kind: ClassVar[Literal['metadata']]
    id: int
    epoch: int
    def __init__(
        self,
        id: int = ...,
        epoch: int = ...,
        _unknown_tagged: tuple[tuple[int, bytes], ...] | None = ...,
    ) -> None: ...

class NoOpRecord(Message):
    """Kafka's NoOpRecord (metadata 20, versions 0)."""
    api_key: ClassVar[Literal[20]]
    kind: ClassVar[Literal['metadata']]
    def __init__(
        self,
        _unknown_tagged: tuple[tuple[int, bytes], ...] | None = ...,
    ) -> None: ...

class PartitionChangeRecord(Message):
    """Kafka's PartitionChangeRecord (metadata 5, versions 0-2)."""
    api_key: ClassVar[Literal[5]]
    kind: ClassVar[Literal['metadata']]
    partition_id: int
    topic_id: uuid.UUID
    isr: list[int] | None
    leader: int
    replicas: list[int] | None
    removing_replicas: list[int] | None
    adding_replicas: list[int] | None
    leader_recovery_state: int
    directories: list[uuid.UUID] | None
    eligible_leader_replicas: list[int] | None
    last_known_elr: list[int] | None
    def __init__(
        self,
        partition_id: int = ...,
        topic_id: uuid.UUID = ...,
        isr: Sequence[int] | None = ...,
        leader: int = ...,
        replicas: Sequence[int] | None = ...,
        removing_replicas: Sequence[int] | None = ...,
        adding_replicas: Sequence[int] | None = ...,
        leader_recovery_state: int = ...,
        directories: Sequence[uuid.UUID] | None = ...,
        eligible_leader_replicas: Sequence[int] | None = ...,
        last_known_elr: Sequence[int] | None = ...,
        _unknown_tagged: tuple[tuple[int, bytes], ...] | None = ...,
    ) -> None: ...

class PartitionRecord(Message):
    """Kafka's PartitionRecord (metadata 3, versions 0-2)."""
    api_key: ClassVar[Literal[3]]
    kind: ClassVar[Literal['metadata']]
    partition_id: int
    topic_id: uuid.UUID
    replicas: list[int]
    isr: list[int]
    removing_replicas: list[int]
    adding_replicas: list[int]
    leader: int
    leader_recovery_state: int
    leader_epoch: int
    partition_epoch: int
    directories: list[uuid.UUID]
    eligible_leader_replicas: list[int] | None
    last_known_elr: list[int] | None
    def __init__(
        self,
        partition_id: int = ...,
        topic_id: uuid.UUID = ...,
        replicas: Sequence[int] = ...,
        isr: Sequence[int] = ...,
        removing_replicas: Sequence[int] = ...,
        adding_replicas: Sequence[int] = ...,
        leader: int = ...,
        leader_recovery_state: int = ...,
        leader_epoch: int = ...,
        partition_epoch: int = ...,
        directories: Sequence[uuid.UUID] = ...,
        eligible_leader_replicas: Sequence[int] | None = ...,
        last_known_elr: Sequence[int] | None = ...,
        _unknown_tagged: tuple[tuple[int, bytes], ...] | None = ...,
    ) -> None: ...

class ProducerIdsRecord(Message):
    """Kafka's ProducerIdsRecord (metadata 15, versions 0)."""
    api_key: ClassVar[Literal[15]]
    kind: ClassVar[Literal['metadata']]
    broker_id: int
    broker_epoch: int
    next_producer_id: int
    def __init__(
        self,
        broker_id: int = ...,
        broker_epoch: int = ...,
        next_producer_id: int = ...,
        _unknown_tagged: tuple[tuple[int, bytes], ...] | None = ...,
    ) -> None: ...

class RegisterBrokerRecord(Message):
    """Kafka's RegisterBrokerRecord (metadata 0, versions 0-4)."""
    api_key: ClassVar[Literal[0]]
    kind: ClassVar[Literal['metadata']]
    broker_id: int
    is_migrating_zk_broker: bool
    incarnation_id: uuid.UUID
    broker_epoch: int
    end_points: list[RegisterBrokerRecord.BrokerEndpoint]
    features: list[RegisterBrokerRecord.BrokerFeature]
    rack: str | None
    fenced: bool
    in_controlled_shutdown: bool
    log_dirs: list[uuid.UUID]
    cordoned_log_dirs: list[uuid.UUID] | None
    def __init__(
        self,
        broker_id: int = ...,
        is_migrating_zk_broker: bool = ...,
        incarnation_id: uuid.UUID = ...,
        broker_epoch: int = ...,
        end_points: Sequence[RegisterBrokerRecord.BrokerEndpoint | dict[str, Any]] = ...,
        features: Sequence[RegisterBrokerRecord.BrokerFeature | dict[str, Any]] = ...,
        rack: str | None = ...,
        fenced: bool = ...,
        in_controlled_shutdown: bool = ...,
        log_dirs: Sequence[uuid.UUID] = ...,
        cordoned_log_dirs: Sequence[uuid.UUID] | None = ...,
        _unknown_tagged: tuple[tuple[int, bytes], ...] | None = ...,
    ) -> None: ...
    class BrokerEndpoint(Struct):
        """A struct of Kafka's RegisterBrokerRecord."""
        name: str
        host: str
        port: int
        security_protocol: int
        def __init__(
            self,
            name: str = ...,
            host: str = ...,
            port: int = ...,
            security_protocol: int = ...,
            _unknown_tagged: tuple[tuple[int, bytes], ...] | None = ...,
        ) -> None: ...
    class BrokerFeature(Struct):
        """A struct of Kafka's RegisterBrokerRecord."""
        name: str
        min_supported_version: int
        max_supported_version: int
        def __init__(
            self,
            name: str = ...,
            min_supported_version: int = ...,
            max_supported_version: int = ...,
            _unknown_tagged: tuple[tuple[int, bytes], ...] | None = ...,
        ) -> None: ...

class RegisterControllerRecord(Message):
    """Kafka's RegisterControllerRecord (metadata 27, versions 0)."""
    api_key: ClassVar[Literal[27]]
    kind: ClassVar[Literal['metadata']]
    controller_id: int
    incarnation_id: uuid.UUID
    zk_migration_ready: bool
    end_points: list[RegisterControllerRecord.ControllerEndpoint]
    features: list[RegisterControllerRecord.ControllerFeature]
    def __init__(
        self,
        controller_id: int = ...,
        incarnation_id: uuid.UUID = ...,
        zk_migration_ready: bool = ...,
        end_points: Sequence[RegisterControllerRecord.ControllerEndpoint | dict[str, Any]] = ...,
        features: Sequence[RegisterControllerRecord.ControllerFeature | dict[str, Any]] = ...,
        _unknown_tagged: tuple[tuple[int, bytes], ...] | None = ...,
    ) -> None: ...
    class ControllerEndpoint(Struct):
        """A struct of Kafka's RegisterControllerRecord."""
        name: str
        host: str
        port: int
        security_protocol: int
        def __init__(
            self,
            name: str = ...,
            host: str = ...,
            port: int = ...,
            security_protocol: int = ...,
            _unknown_tagged: tuple[tuple[int, bytes], ...] | None = ...,
        ) -> None: ...
    class ControllerFeature(Struct):
        """A struct of Kafka's RegisterControllerRecord."""
        name: str
        min_supported_version: int
        max_supported_version: int
        def __init__(
            self,
            name: str = ...,
            min_supported_version: int = ...,
            max_supported_version: int = ...,
            _unknown_tagged: tuple[tuple[int, bytes], ...] | None = ...,
        ) -> None: ...

class RemoveAccessControlEntryRecord(Message):
    """Kafka's RemoveAccessControlEntryRecord (metadata 19, versions 0)."""
    api_key: ClassVar[Literal[19]]
    kind: ClassVar[Literal['metadata']]
    id: uuid.UUID
    def __init__(
        self,
        id: uuid.UUID = ...,
        _unknown_tagged: tuple[tuple[int, bytes], ...] | None = ...,
    ) -> None: ...

class RemoveDelegationTokenRecord(Message):
    """Kafka's RemoveDelegationTokenRecord (metadata 26, versions 0)."""
    api_key: ClassVar[Literal[26]]
    kind: ClassVar[Literal['metadata']]
    token_id: str
    def __init__(
        self,
        token_id: str = ...,
        _unknown_tagged: tuple[tuple[int, bytes], ...] | None = ...,
    ) -> None: ...

class RemoveTopicRecord(Message):
    """Kafka's RemoveTopicRecord (metadata 9, versions 0)."""
    api_key: ClassVar[Literal[9]]
    kind: ClassVar[Literal['metadata']]
    topic_id: uuid.UUID
    def __init__(
        self,
        topic_id: uuid.UUID = ...,
        _unknown_tagged: tuple[tuple[int, bytes], ...] | None = ...,
    ) -> None: ...

class RemoveUserScramCredentialRecord(Message):
    """Kafka's RemoveUserScramCredentialRecord (metadata 22, versions 0)."""
    api_key: ClassVar[Literal[22]]
    kind: ClassVar[Literal['metadata']]
    name: str
    mechanism: int
    def __init__(
        self,
        name: str = ...,
        mechanism: int = ...,
        _unknown_tagged: tuple[tuple[int, bytes], ...] | None = ...,
    ) -> None: ...

class TopicRecord(Message):
    """Kafka's TopicRecord (metadata 2, versions 0)."""
    api_key: ClassVar[Literal[2]]
    kind: ClassVar[Literal['metadata']]
    name: str
    topic_id: uuid.UUID
    def __init__(
        self,
        name: str = ...,
        topic_id: uuid.UUID = ...,
        _unknown_tagged: tuple[tuple[int, bytes], ...] | None = ...,
    ) -> None: ...

class UnfenceBrokerRecord(Message):
    """Kafka's UnfenceBrokerRecord (metadata 8, versions 0)."""
    api_key: ClassVar[Literal[8]]
    kind: ClassVar[Literal['metadata']]
    id: int
    epoch: int
    def __init__(
        self,
        id: int = ...,
        epoch: int = ...,
        _unknown_tagged: tuple[tuple[int, bytes], ...] | None = ...,
    ) -> None: ...

class UnregisterBrokerRecord(Message):
    """Kafka's UnregisterBrokerRecord (metadata 1, versions 0)."""
    api_key: ClassVar[Literal[1]]
    kind: ClassVar[Literal['metadata']]
    broker_id: int
    broker_epoch: int
    def __init__(
        self,
        broker_id: int = ...,
        broker_epoch: int = ...,
        _unknown_tagged: tuple[tuple[int, bytes], ...] | None = ...,
    ) -> None: ...

class UnregisterControllerRecord(Message):
    """Kafka's UnregisterControllerRecord (metadata 29, versions 0)."""
    api_key: ClassVar[Literal[29]]
    kind: ClassVar[Literal['metadata']]
    controller_id: int
    def __init__(
        self,
        controller_id: int = ...,
        _unknown_tagged: tuple[tuple[int, bytes], ...] | None = ...,
    ) -> None: ...

class UserScramCredentialRecord(Message):
    """Kafka's UserScramCredentialRecord (metadata 11, versions 0)."""
    api_key: ClassVar[Literal[11]]
    kind: ClassVar[Literal['metadata']]
    name: str
    mechanism: int
    salt: bytes
    stored_key: bytes
    server_key: bytes
    iterations: int
    def __init__(
        self,
        name: str = ...,
        mechanism: int = ...,
        salt: _Bytes = ...,
        stored_key: _Bytes = ...,
        server_key: _Bytes = ...,
        iterations: int = ...,
        _unknown_tagged: tuple[tuple[int, bytes], ...] | None = ...,
    ) -> None: ...

class ZkMigrationStateRecord(Message):
    """Kafka's ZkMigrationStateRecord (metadata 21, versions 0)."""
    api_key: ClassVar[Literal[21]]
    kind: ClassVar[Literal['metadata']]
    zk_migration_state: int
    def __init__(
        self,
        zk_migration_state: int = ...,
        _unknown_tagged: tuple[tuple[int, bytes], ...] | None = ...,
    ) -> None: ...

class KRaftVersionRecord(Message):
    """Kafka's KRaftVersionRecord (data, versions 0)."""
    api_key: ClassVar[None]
    kind: ClassVar[Literal['data']]
    version: int
    k_raft_version: int
    def __init__(
        self,
        version: int = ...,
        k_raft_version: int = ...,
        _unknown_tagged: tuple[tuple[int, bytes], ...] | None = ...,
    ) -> None: ...

class LeaderChangeMessage(Message):
    """Kafka's LeaderChangeMessage (data, versions 0-1)."""
    api_key: ClassVar[None]
    kind: ClassVar[Literal['data']]
    version: int
    leader_id: int
    voters: list[LeaderChangeMessage.Voter]
    granting_voters: list[LeaderChangeMessage.Voter]
    def __init__(
        self,
        version: int = ...,
        leader_id: int = ...,
        voters: Sequence[LeaderChangeMessage.Voter | dict[str, Any]] = ...,
        granting_voters: Sequence[LeaderChangeMessage.Voter | dict[str, Any]] = ...,
        _unknown_tagged: tuple[tuple[int, bytes], ...] | None = ...,
    ) -> None: ...
    class Voter(Struct):
        """A struct of Kafka's LeaderChangeMessage."""
        voter_id: int
        voter_directory_id: uuid.UUID
        def __init__(
            self,
            voter_id: int = ...,
            voter_directory_id: uuid.UUID = ...,
            _unknown_tagged: tuple[tuple[int, bytes], ...] | None = ...,
        ) -> None: ...

class QuorumStateData(Message):
    """Kafka's QuorumStateData (data, versions 0-1)."""
    api_key: ClassVar[None]
    kind: ClassVar[Literal['data']]
    cluster_id: str
    leader_id: int
    leader_epoch: int
    voted_id: int
    voted_directory_id: uuid.UUID
    applied_offset: int
    current_voters: list[QuorumStateData.Voter] | None
    def __init__(
        self,
        cluster_id: str = ...,
        leader_id: int = ...,
        leader_epoch: int = ...,
        voted_id: int = ...,
        voted_directory_id: uuid.UUID = ...,
        applied_offset: int = ...,
        current_voters: Sequence[QuorumStateData.Voter | dict[str, Any]] | None = ...,
        _unknown_tagged: tuple[tuple[int, bytes], ...] | None = ...,
    ) -> None: ...
    class Voter(Struct):
        """A struct of Kafka's QuorumStateData."""
        voter_id: int
        def __init__(
            self,
            voter_id: int = ...,
            _unknown_tagged: tuple[tuple[int, bytes], ...] | None = ...,
        ) -> None: ...

class SnapshotFooterRecord(Message):
    """Kafka's SnapshotFooterRecord (data, versions 0)."""
    api_key: ClassVar[None]
    kind: ClassVar[Literal['data']]
    version: int
    def __init__(
        self,
        version: int = ...,
        _unknown_tagged: tuple[tuple[int, bytes], ...] | None = ...,
    ) -> None: ...

class SnapshotHeaderRecord(Message):
    """Kafka's SnapshotHeaderRecord (data, versions 0)."""
    api_key: ClassVar[None]
    kind: ClassVar[Literal['data']]
    version: int
    last_contained_log_timestamp: int
    def __init__(
        self,
        version: int = ...,
        last_contained_log_timestamp: int = ...,
        _unknown_tagged: tuple[tuple[int, bytes], ...] | None = ...,
    ) -> None: ...

class VotersRecord(Message):
    """Kafka's VotersRecord (data, versions 0)."""
    api_key: ClassVar[None]
    kind: ClassVar[Literal['data']]
    version: int
    voters: list[VotersRecord.Voter]
    def __init__(
        self,
        version: int = ...,
        voters: Sequence[VotersRecord.Voter | dict[str, Any]] = ...,
        _unknown_tagged: tuple[tuple[int, bytes], ...] | None = ...,
    ) -> None: ...
    class Voter(Struct):
        """A struct of Kafka's VotersRecord."""
        voter_id: int
        voter_directory_id: uuid.UUID
        endpoints: list[VotersRecord.Endpoint]
        k_raft_version_feature: VotersRecord.KRaftVersionFeature
        def __init__(
            self,
            voter_id: int = ...,
            voter_directory_id: uuid.UUID = ...,
            endpoints: Sequence[VotersRecord.Endpoint | dict[str, Any]] = ...,
            k_raft_version_feature: VotersRecord.KRaftVersionFeature | dict[str, Any] = ...,
            _unknown_tagged: tuple[tuple[int, bytes], ...] | None = ...,
        ) -> None: ...
    class Endpoint(Struct):
        """A struct of Kafka's VotersRecord."""
        name: str
        host: str
        port: int
        def __init__(
            self,
            name: str = ...,
            host: str = ...,
            port: int = ...,
            _unknown_tagged: tuple[tuple[int, bytes], ...] | None = ...,
        ) -> None: ...
    class KRaftVersionFeature(Struct):
        """A struct of Kafka's VotersRecord."""
        min_supported_version: int
        max_supported_version: int
        def __init__(
            self,
            min_supported_version: int = ...,
            max_supported_version: int = ...,
            _unknown_tagged: tuple[tuple[int, bytes], ...] | None = ...,
        ) -> None: ...

class RemoteLogSegmentMetadataRecord(Message):
    """Kafka's RemoteLogSegmentMetadataRecord (metadata 0, versions 0)."""
    api_key: ClassVar[Literal[0]]
    kind: ClassVar[Literal['metadata']]
    remote_log_segment_id: RemoteLogSegmentMetadataRecord.RemoteLogSegmentIdEntry
    start_offset: int
    end_offset: int
    broker_id: int
    max_timestamp_ms: int
    event_timestamp_ms: int
    segment_leader_epochs: list[RemoteLogSegmentMetadataRecord.SegmentLeaderEpochEntry]
    segment_size_in_bytes: int
    custom_metadata: bytes | None
    remote_log_segment_state: int
    txn_index_empty: bool
    def __init__(
        self,
        remote_log_segment_id: RemoteLogSegmentMetadataRecord.RemoteLogSegmentIdEntry | dict[str, Any] = ...,
        start_offset: int = ...,
        end_offset: int = ...,
        broker_id: int = ...,
        max_timestamp_ms: int = ...,
        event_timestamp_ms: int = ...,
        segment_leader_epochs: Sequence[RemoteLogSegmentMetadataRecord.SegmentLeaderEpochEntry | dict[str, Any]] = ...,
        segment_size_in_bytes: int = ...,
        custom_metadata: _Bytes | None = ...,
        remote_log_segment_state: int = ...,
        txn_index_empty: bool = ...,
        _unknown_tagged: tuple[tuple[int, bytes], ...] | None = ...,
    ) -> None: ...
    class RemoteLogSegmentIdEntry(Struct):
        """A struct of Kafka's RemoteLogSegmentMetadataRecord."""
        topic_id_partition: RemoteLogSegmentMetadataRecord.TopicIdPartitionEntry
        id: uuid.UUID
        def __init__(
            self,
            topic_id_partition: RemoteLogSegmentMetadataRecord.TopicIdPartitionEntry | dict[str, Any] = ...,
            id: uuid.UUID = ...,
            _unknown_tagged: tuple[tuple[int, bytes], ...] | None = ...,
        ) -> None: ...
    class TopicIdPartitionEntry(Struct):
        """A struct of Kafka's RemoteLogSegmentMetadataRecord."""
        name: str
        id: uuid.UUID
        partition: int
        def __init__(
            self,
            name: str = ...,
            id: uuid.UUID = ...,
            partition: int = ...,
            _unknown_tagged: tuple[tuple[int, bytes], ...] | None = ...,
        ) -> None: ...
    class SegmentLeaderEpochEntry(Struct):
        """A struct of Kafka's RemoteLogSegmentMetadataRecord."""
        leader_epoch: int
        offset: int
        def __init__(
            self,
            leader_epoch: int = ...,
            offset: int = ...,
            _unknown_tagged: tuple[tuple[int, bytes], ...] | None = ...,
        ) -> None: ...

class RemoteLogSegmentMetadataSnapshotRecord(Message):
    """Kafka's RemoteLogSegmentMetadataSnapshotRecord (metadata 3, versions 0)."""
    api_key: ClassVar[Literal[3]]
    kind: ClassVar[Literal['metadata']]
    segment_id: uuid.UUID
    start_offset: int
    end_offset: int
    broker_id: int
    max_timestamp_ms: int
    event_timestamp_ms: int
    segment_leader_epochs: list[RemoteLogSegmentMetadataSnapshotRecord.SegmentLeaderEpochEntry]
    segment_size_in_bytes: int
    custom_metadata: bytes | None
    remote_log_segment_state: int
    txn_index_empty: bool
    def __init__(
        self,
        segment_id: uuid.UUID = ...,
        start_offset: int = ...,
        end_offset: int = ...,
        broker_id: int = ...,
        max_timestamp_ms: int = ...,
        event_timestamp_ms: int = ...,
        segment_leader_epochs: Sequence[RemoteLogSegmentMetadataSnapshotRecord.SegmentLeaderEpochEntry | dict[str, Any]] = ...,
        segment_size_in_bytes: int = ...,
        custom_metadata: _Bytes | None = ...,
        remote_log_segment_state: int = ...,
        txn_index_empty: bool = ...,
        _unknown_tagged: tuple[tuple[int, bytes], ...] | None = ...,
    ) -> None: ...
    class SegmentLeaderEpochEntry(Struct):
        """A struct of Kafka's RemoteLogSegmentMetadataSnapshotRecord."""
        leader_epoch: int
        offset: int
        def __init__(
            self,
            leader_epoch: int = ...,
            offset: int = ...,
            _unknown_tagged: tuple[tuple[int, bytes], ...] | None = ...,
        ) -> None: ...

class RemoteLogSegmentMetadataUpdateRecord(Message):
    """Kafka's RemoteLogSegmentMetadataUpdateRecord (metadata 1, versions 0)."""
    api_key: ClassVar[Literal[1]]
    kind: ClassVar[Literal['metadata']]
    remote_log_segment_id: RemoteLogSegmentMetadataUpdateRecord.RemoteLogSegmentIdEntry
    broker_id: int
    event_timestamp_ms: int
    custom_metadata: bytes | None
    remote_log_segment_state: int
    def __init__(
        self,
        remote_log_segment_id: RemoteLogSegmentMetadataUpdateRecord.RemoteLogSegmentIdEntry | dict[str, Any] = ...,
        broker_id: int = ...,
        event_timestamp_ms: int = ...,
        custom_metadata: _Bytes | None = ...,
        remote_log_segment_state: int = ...,
        _unknown_tagged: tuple[tuple[int, bytes], ...] | None = ...,
    ) -> None: ...
    class RemoteLogSegmentIdEntry(Struct):
        """A struct of Kafka's RemoteLogSegmentMetadataUpdateRecord."""
        topic_id_partition: RemoteLogSegmentMetadataUpdateRecord.TopicIdPartitionEntry
        id: uuid.UUID
        def __init__(
            self,
            topic_id_partition: RemoteLogSegmentMetadataUpdateRecord.TopicIdPartitionEntry | dict[str, Any] = ...,
            id: uuid.UUID = ...,
            _unknown_tagged: tuple[tuple[int, bytes], ...] | None = ...,
        ) -> None: ...
    class TopicIdPartitionEntry(Struct):
        """A struct of Kafka's RemoteLogSegmentMetadataUpdateRecord."""
        name: str
        id: uuid.UUID
        partition: int
        def __init__(
            self,
            name: str = ...,
            id: uuid.UUID = ...,
            partition: int = ...,
            _unknown_tagged: tuple[tuple[int, bytes], ...] | None = ...,
        ) -> None: ...

class RemotePartitionDeleteMetadataRecord(Message):
    """Kafka's RemotePartitionDeleteMetadataRecord (metadata 2, versions 0)."""
    api_key: ClassVar[Literal[2]]
    kind: ClassVar[Literal['metadata']]
    topic_id_partition: RemotePartitionDeleteMetadataRecord.TopicIdPartitionEntry
    broker_id: int
    event_timestamp_ms: int
    remote_partition_delete_state: int
    def __init__(
        self,
        topic_id_partition: RemotePartitionDeleteMetadataRecord.TopicIdPartitionEntry | dict[str, Any] = ...,
        broker_id: int = ...,
        event_timestamp_ms: int = ...,
        remote_partition_delete_state: int = ...,
        _unknown_tagged: tuple[tuple[int, bytes], ...] | None = ...,
    ) -> None: ...
    class TopicIdPartitionEntry(Struct):
        """A struct of Kafka's RemotePartitionDeleteMetadataRecord."""
        name: str
        id: uuid.UUID
        partition: int
        def __init__(
            self,
            name: str = ...,
            id: uuid.UUID = ...,
            partition: int = ...,
            _unknown_tagged: tuple[tuple[int, bytes], ...] | None = ...,
        ) -> None: ...

@overload
def request_class(api_key: Literal[0]) -> type[ProduceRequest]: ...
@overload
def request_class(api_key: Literal[1]) -> type[FetchRequest]: ...
@overload
def request_class(api_key: Literal[2]) -> type[ListOffsetsRequest]: ...
@overload
def request_class(api_key: Literal[3]) -> type[MetadataRequest]: ...
@overload
def request_class(api_key: Literal[4]) -> type[LeaderAndIsrRequest]: ...
@overload
def request_class(api_key: Literal[5]) -> type[StopReplicaRequest]: ...
@overload
def request_class(api_key: Literal[6]) -> type[UpdateMetadataRequest]: ...
@overload
def request_class(api_key: Literal[7]) -> type[ControlledShutdownRequest]: ...
@overload
def request_class(api_key: Literal[8]) -> type[OffsetCommitRequest]: ...
@overload
def request_class(api_key: Literal[9]) -> type[OffsetFetchRequest]: ...
@overload
def request_class(api_key: Literal[10]) -> type[FindCoordinatorRequest]: ...
@overload
def request_class(api_key: Literal[11]) -> type[JoinGroupRequest]: ...
@overload
def request_class(api_key: Literal[12]) -> type[HeartbeatRequest]: ...
@overload
def request_class(api_key: Literal[13]) -> type[LeaveGroupRequest]: ...
@overload
def request_class(api_key: Literal[14]) -> type[SyncGroupRequest]: ...
@overload
def request_class(api_key: Literal[15]) -> type[DescribeGroupsRequest]: ...
@overload
def request_class(api_key: Literal[16]) -> type[ListGroupsRequest]: ...
@overload
def request_class(api_key: Literal[17]) -> type[SaslHandshakeRequest]: ...
@overload
def request_class(api_key: Literal[18]) -> type[ApiVersionsRequest]: ...
@overload
def request_class(api_key: Literal[19]) -> type[CreateTopicsRequest]: ...
@overload
def request_class(api_key: Literal[20]) -> type[DeleteTopicsRequest]: ...
@overload
def request_class(api_key: Literal[21]) -> type[DeleteRecordsRequest]: ...
@overload
def request_class(api_key: Literal[22]) -> type[InitProducerIdRequest]: ...
@overload
def request_class(api_key: Literal[23]) -> type[OffsetForLeaderEpochRequest]: ...
@overload
def request_class(api_key: Literal[24]) -> type[AddPartitionsToTxnRequest]: ...
@overload
def request_class(api_key: Literal[25]) -> type[AddOffsetsToTxnRequest]: ...
@overload
def request_class(api_key: Literal[26]) -> type[EndTxnRequest]: ...
@overload
def request_class(api_key: Literal[27]) -> type[WriteTxnMarkersRequest]: ...
@overload
def request_class(api_key: Literal[28]) -> type[TxnOffsetCommitRequest]: ...
@overload
def request_class(api_key: Literal[29]) -> type[DescribeAclsRequest]: ...
@overload
def request_class(api_key: Literal[30]) -> type[CreateAclsRequest]: ...
@overload
def request_class(api_key: Literal[31]) -> type[DeleteAclsRequest]: ...
@overload
def request_class(api_key: Literal[32]) -> type[DescribeConfigsRequest]: ...
@overload
def request_class(api_key: Literal[33]) -> type[AlterConfigsRequest]: ...
@overload
def request_class(api_key: Literal[34]) -> type[AlterReplicaLogDirsRequest]: ...
@overload
def request_class(api_key: Literal[35]) -> type[DescribeLogDirsRequest]: ...
@overload
def request_class(api_key: Literal[36]) -> type[SaslAuthenticateRequest]: ...
@overload
def request_class(api_key: Literal[37]) -> type[CreatePartitionsRequest]: ...
@overload
def request_class(api_key: Literal[38]) -> type[CreateDelegationTokenRequest]: ...
@overload
def request_class(api_key: Literal[39]) -> type[RenewDelegationTokenRequest]: ...
@overload
def request_class(api_key: Literal[40]) -> type[ExpireDelegationTokenRequest]: ...
@overload
def request_class(api_key: Literal[41]) -> type[DescribeDelegationTokenRequest]: ...
@overload
def request_class(api_key: Literal[42]) -> type[DeleteGroupsRequest]: ...
@overload
def request_class(api_key: Literal[43]) -> type[ElectLeadersRequest]: ...
@overload
def request_class(api_key: Literal[44]) -> type[IncrementalAlterConfigsRequest]: ...
@overload
def request_class(api_key: Literal[45]) -> type[AlterPartitionReassignmentsRequest]: ...
@overload
def request_class(api_key: Literal[46]) -> type[ListPartitionReassignmentsRequest]: ...
@overload
def request_class(api_key: Literal[47]) -> type[OffsetDeleteRequest]: ...
@overload
def request_class(api_key: Literal[48]) -> type[DescribeClientQuotasRequest]: ...
@overload
def request_class(api_key: Literal[49]) -> type[AlterClientQuotasRequest]: ...
@overload
def request_class(api_key: Literal[50]) -> type[DescribeUserScramCredentialsRequest]: ...
@overload
def request_class(api_key: Literal[51]) -> type[AlterUserScramCredentialsRequest]: ...
@overload
def request_class(api_key: Literal[52]) -> type[VoteRequest]: ...
@overload
def request_class(api_key: Literal[53]) -> type[BeginQuorumEpochRequest]: ...
@overload
def request_class(api_key: Literal[54]) -> type[EndQuorumEpochRequest]: ...
@overload
def request_class(api_key: Literal[55]) -> type[DescribeQuorumRequest]: ...
@overload
def request_class(api_key: Literal[56]) -> type[AlterPartitionRequest]: ...
@overload
def request_class(api_key: Literal[57]) -> type[UpdateFeaturesRequest]: ...
@overload
def request_class(api_key: Literal[58]) -> type[EnvelopeRequest]: ...
@overload
def request_class(api_key: Literal[59]) -> type[FetchSnapshotRequest]: ...
@overload
def request_class(api_key: Literal[60]) -> type[DescribeClusterRequest]: ...
@overload
def request_class(api_key: Literal[61]) -> type[DescribeProducersRequest]: ...
@overload
def request_class(api_key: Literal[62]) -> type[BrokerRegistrationRequest]: ...
@overload
def request_class(api_key: Literal[63]) -> type[BrokerHeartbeatRequest]: ...
@overload
def request_class(api_key: Literal[64]) -> type[UnregisterBrokerRequest]: ...
@overload
def request_class(api_key: Literal[65]) -> type[DescribeTransactionsRequest]: ...
@overload
def request_class(api_key: Literal[66]) -> type[ListTransactionsRequest]: ...
@overload
def request_class(api_key: Literal[67]) -> type[AllocateProducerIdsRequest]: ...
@overload
def request_class(api_key: Literal[68]) -> type[ConsumerGroupHeartbeatRequest]: ...
@overload
def request_class(api_key: Literal[69]) -> type[ConsumerGroupDescribeRequest]: ...
@overload
def request_class(api_key: Literal[70]) -> type[ControllerRegistrationRequest]: ...
@overload
def request_class(api_key: Literal[71]) -> type[GetTelemetrySubscriptionsRequest]: ...
@overload
def request_class(api_key: Literal[72]) -> type[PushTelemetryRequest]: ...
@overload
def request_class(api_key: Literal[73]) -> type[AssignReplicasToDirsRequest]: ...
@overload
def request_class(api_key: Literal[74]) -> type[ListConfigResourcesRequest]: ...
@overload
def request_class(api_key: Literal[75]) -> type[DescribeTopicPartitionsRequest]: ...
@overload
def request_class(api_key: Literal[76]) -> type[ShareGroupHeartbeatRequest]: ...
@overload
def request_class(api_key: Literal[77]) -> type[ShareGroupDescribeRequest]: ...
@overload
def request_class(api_key: Literal[78]) -> type[ShareFetchRequest]: ...
@overload
def request_class(api_key: Literal[79]) -> type[ShareAcknowledgeRequest]: ...
@overload
def request_class(api_key: Literal[80]) -> type[AddRaftVoterRequest]: ...
@overload
def request_class(api_key: Literal[81]) -> type[RemoveRaftVoterRequest]: ...
@overload
def request_class(api_key: Literal[82]) -> type[UpdateRaftVoterRequest]: ...
@overload
def request_class(api_key: Literal[83]) -> type[InitializeShareGroupStateRequest]: ...
@overload
def request_class(api_key: Literal[84]) -> type[ReadShareGroupStateRequest]: ...
@overload
def request_class(api_key: Literal[85]) -> type[WriteShareGroupStateRequest]: ...
@overload
def request_class(api_key: Literal[86]) -> type[DeleteShareGroupStateRequest]: ...
@overload
def request_class(api_key: Literal[87]) -> type[ReadShareGroupStateSummaryRequest]: ...
@overload
def request_class(api_key: Literal[88]) -> type[StreamsGroupHeartbeatRequest]: ...
@overload
def request_class(api_key: Literal[89]) -> type[StreamsGroupDescribeRequest]: ...
@overload
def request_class(api_key: Literal[90]) -> type[DescribeShareGroupOffsetsRequest]: ...
@overload
def request_class(api_key: Literal[91]) -> type[AlterShareGroupOffsetsRequest]: ...
@overload
def request_class(api_key: Literal[92]) -> type[DeleteShareGroupOffsetsRequest]: ...
@overload
def request_class(api_key: Literal[93]) -> type[StreamsGroupTopologyDescriptionUpdateRequest]: ...
@overload
def request_class(api_key: Literal[94]) -> type[UnregisterControllerRequest]: ...
@overload
def request_class(api_key: int) -> type[Message]: ...

@overload
def response_class(api_key: Literal[0]) -> type[ProduceResponse]: ...
@overload
def response_class(api_key: Literal[1]) -> type[FetchResponse]: ...
@overload
def response_class(api_key: Literal[2]) -> type[ListOffsetsResponse]: ...
@overload
def response_class(api_key: Literal[3]) -> type[MetadataResponse]: ...
@overload
def response_class(api_key: Literal[4]) -> type[LeaderAndIsrResponse]: ...
@overload
def response_class(api_key: Literal[5]) -> type[StopReplicaResponse]: ...
@overload
def response_class(api_key: Literal[6]) -> type[UpdateMetadataResponse]: ...
@overload
def response_class(api_key: Literal[7]) -> type[ControlledShutdownResponse]: ...
@overload
def response_class(api_key: Literal[8]) -> type[OffsetCommitResponse]: ...
@overload
def response_class(api_key: Literal[9]) -> type[OffsetFetchResponse]: ...
@overload
def response_class(api_key: Literal[10]) -> type[FindCoordinatorResponse]: ...
@overload
def response_class(api_key: Literal[11]) -> type[JoinGroupResponse]: ...
@overload
def response_class(api_key: Literal[12]) -> type[HeartbeatResponse]: ...
@overload
def response_class(api_key: Literal[13]) -> type[LeaveGroupResponse]: ...
@overload
def response_class(api_key: Literal[14]) -> type[SyncGroupResponse]: ...
@overload
def response_class(api_key: Literal[15]) -> type[DescribeGroupsResponse]: ...
@overload
def response_class(api_key: Literal[16]) -> type[ListGroupsResponse]: ...
@overload
def response_class(api_key: Literal[17]) -> type[SaslHandshakeResponse]: ...
@overload
def response_class(api_key: Literal[18]) -> type[ApiVersionsResponse]: ...
@overload
def response_class(api_key: Literal[19]) -> type[CreateTopicsResponse]: ...
@overload
def response_class(api_key: Literal[20]) -> type[DeleteTopicsResponse]: ...
@overload
def response_class(api_key: Literal[21]) -> type[DeleteRecordsResponse]: ...
@overload
def response_class(api_key: Literal[22]) -> type[InitProducerIdResponse]: ...
@overload
def response_class(api_key: Literal[23]) -> type[OffsetForLeaderEpochResponse]: ...
@overload
def response_class(api_key: Literal[24]) -> type[AddPartitionsToTxnResponse]: ...
@overload
def response_class(api_key: Literal[25]) -> type[AddOffsetsToTxnResponse]: ...
@overload
def response_class(api_key: Literal[26]) -> type[EndTxnResponse]: ...
@overload
def response_class(api_key: Literal[27]) -> type[WriteTxnMarkersResponse]: ...
@overload
def response_class(api_key: Literal[28]) -> type[TxnOffsetCommitResponse]: ...
@overload
def response_class(api_key: Literal[29]) -> type[DescribeAclsResponse]: ...
@overload
def response_class(api_key: Literal[30]) -> type[CreateAclsResponse]: ...
@overload
def response_class(api_key: Literal[31]) -> type[DeleteAclsResponse]: ...
@overload
def response_class(api_key: Literal[32]) -> type[DescribeConfigsResponse]: ...
@overload
def response_class(api_key: Literal[33]) -> type[AlterConfigsResponse]: ...
@overload
def response_class(api_key: Literal[34]) -> type[AlterReplicaLogDirsResponse]: ...
@overload
def response_class(api_key: Literal[35]) -> type[DescribeLogDirsResponse]: ...
@overload
def response_class(api_key: Literal[36]) -> type[SaslAuthenticateResponse]: ...
@overload
def response_class(api_key: Literal[37]) -> type[CreatePartitionsResponse]: ...
@overload
def response_class(api_key: Literal[38]) -> type[CreateDelegationTokenResponse]: ...
@overload
def response_class(api_key: Literal[39]) -> type[RenewDelegationTokenResponse]: ...
@overload
def response_class(api_key: Literal[40]) -> type[ExpireDelegationTokenResponse]: ...
@overload
def response_class(api_key: Literal[41]) -> type[DescribeDelegationTokenResponse]: ...
@overload
def response_class(api_key: Literal[42]) -> type[DeleteGroupsResponse]: ...
@overload
def response_class(api_key: Literal[43]) -> type[ElectLeadersResponse]: ...
@overload
def response_class(api_key: Literal[44]) -> type[IncrementalAlterConfigsResponse]: ...
@overload
def response_class(api_key: Literal[45]) -> type[AlterPartitionReassignmentsResponse]: ...
@overload
def response_class(api_key: Literal[46]) -> type[ListPartitionReassignmentsResponse]: ...
@overload
def response_class(api_key: Literal[47]) -> type[OffsetDeleteResponse]: ...
@overload
def response_class(api_key: Literal[48]) -> type[DescribeClientQuotasResponse]: ...
@overload
def response_class(api_key: Literal[49]) -> type[AlterClientQuotasResponse]: ...
@overload
def response_class(api_key: Literal[50]) -> type[DescribeUserScramCredentialsResponse]: ...
@overload
def response_class(api_key: Literal[51]) -> type[AlterUserScramCredentialsResponse]: ...
@overload
def response_class(api_key: Literal[52]) -> type[VoteResponse]: ...
@overload
def response_class(api_key: Literal[53]) -> type[BeginQuorumEpochResponse]: ...
@overload
def response_class(api_key: Literal[54]) -> type[EndQuorumEpochResponse]: ...
@overload
def response_class(api_key: Literal[55]) -> type[DescribeQuorumResponse]: ...
@overload
def response_class(api_key: Literal[56]) -> type[AlterPartitionResponse]: ...
@overload
def response_class(api_key: Literal[57]) -> type[UpdateFeaturesResponse]: ...
@overload
def response_class(api_key: Literal[58]) -> type[EnvelopeResponse]: ...
@overload
def response_class(api_key: Literal[59]) -> type[FetchSnapshotResponse]: ...
@overload
def response_class(api_key: Literal[60]) -> type[DescribeClusterResponse]: ...
@overload
def response_class(api_key: Literal[61]) -> type[DescribeProducersResponse]: ...
@overload
def response_class(api_key: Literal[62]) -> type[BrokerRegistrationResponse]: ...
@overload
def response_class(api_key: Literal[63]) -> type[BrokerHeartbeatResponse]: ...
@overload
def response_class(api_key: Literal[64]) -> type[UnregisterBrokerResponse]: ...
@overload
def response_class(api_key: Literal[65]) -> type[DescribeTransactionsResponse]: ...
@overload
def response_class(api_key: Literal[66]) -> type[ListTransactionsResponse]: ...
@overload
def response_class(api_key: Literal[67]) -> type[AllocateProducerIdsResponse]: ...
@overload
def response_class(api_key: Literal[68]) -> type[ConsumerGroupHeartbeatResponse]: ...
@overload
def response_class(api_key: Literal[69]) -> type[ConsumerGroupDescribeResponse]: ...
@overload
def response_class(api_key: Literal[70]) -> type[ControllerRegistrationResponse]: ...
@overload
def response_class(api_key: Literal[71]) -> type[GetTelemetrySubscriptionsResponse]: ...
@overload
def response_class(api_key: Literal[72]) -> type[PushTelemetryResponse]: ...
@overload
def response_class(api_key: Literal[73]) -> type[AssignReplicasToDirsResponse]: ...
@overload
def response_class(api_key: Literal[74]) -> type[ListConfigResourcesResponse]: ...
@overload
def response_class(api_key: Literal[75]) -> type[DescribeTopicPartitionsResponse]: ...
@overload
def response_class(api_key: Literal[76]) -> type[ShareGroupHeartbeatResponse]: ...
@overload
def response_class(api_key: Literal[77]) -> type[ShareGroupDescribeResponse]: ...
@overload
def response_class(api_key: Literal[78]) -> type[ShareFetchResponse]: ...
@overload
def response_class(api_key: Literal[79]) -> type[ShareAcknowledgeResponse]: ...
@overload
def response_class(api_key: Literal[80]) -> type[AddRaftVoterResponse]: ...
@overload
def response_class(api_key: Literal[81]) -> type[RemoveRaftVoterResponse]: ...
@overload
def response_class(api_key: Literal[82]) -> type[UpdateRaftVoterResponse]: ...
@overload
def response_class(api_key: Literal[83]) -> type[InitializeShareGroupStateResponse]: ...
@overload
def response_class(api_key: Literal[84]) -> type[ReadShareGroupStateResponse]: ...
@overload
def response_class(api_key: Literal[85]) -> type[WriteShareGroupStateResponse]: ...
@overload
def response_class(api_key: Literal[86]) -> type[DeleteShareGroupStateResponse]: ...
@overload
def response_class(api_key: Literal[87]) -> type[ReadShareGroupStateSummaryResponse]: ...
@overload
def response_class(api_key: Literal[88]) -> type[StreamsGroupHeartbeatResponse]: ...
@overload
def response_class(api_key: Literal[89]) -> type[StreamsGroupDescribeResponse]: ...
@overload
def response_class(api_key: Literal[90]) -> type[DescribeShareGroupOffsetsResponse]: ...
@overload
def response_class(api_key: Literal[91]) -> type[AlterShareGroupOffsetsResponse]: ...
@overload
def response_class(api_key: Literal[92]) -> type[DeleteShareGroupOffsetsResponse]: ...
@overload
def response_class(api_key: Literal[93]) -> type[StreamsGroupTopologyDescriptionUpdateResponse]: ...
@overload
def response_class(api_key: Literal[94]) -> type[UnregisterControllerResponse]: ...
@overload
def response_class(api_key: int) -> type[Message]: ...

__all__ = [
    'AbortTransactionRecord',
    'AbortedTxn',
    'AccessControlEntryRecord',
    'AddOffsetsToTxnRequest',
    'AddOffsetsToTxnResponse',
    'AddPartitionsToTxnRequest',
    'AddPartitionsToTxnResponse',
    'AddRaftVoterRequest',
    'AddRaftVoterResponse',
    'AllocateProducerIdsRequest',
    'AllocateProducerIdsResponse',
    'AlterClientQuotasRequest',
    'AlterClientQuotasResponse',
    'AlterConfigsRequest',
    'AlterConfigsResponse',
    'AlterPartitionReassignmentsRequest',
    'AlterPartitionReassignmentsResponse',
    'AlterPartitionRequest',
    'AlterPartitionResponse',
    'AlterReplicaLogDirsRequest',
    'AlterReplicaLogDirsResponse',
    'AlterShareGroupOffsetsRequest',
    'AlterShareGroupOffsetsResponse',
    'AlterUserScramCredentialsRequest',
    'AlterUserScramCredentialsResponse',
    'ApiVersionsRequest',
    'ApiVersionsResponse',
    'AssignReplicasToDirsRequest',
    'AssignReplicasToDirsResponse',
    'BeginQuorumEpochRequest',
    'BeginQuorumEpochResponse',
    'BeginTransactionRecord',
    'BrokerHeartbeatRequest',
    'BrokerHeartbeatResponse',
    'BrokerRegistrationChangeRecord',
    'BrokerRegistrationRequest',
    'BrokerRegistrationResponse',
    'ClearElrRecord',
    'ClientQuotaRecord',
    'ConfigRecord',
    'ConsumerGroupCurrentMemberAssignmentKey',
    'ConsumerGroupCurrentMemberAssignmentValue',
    'ConsumerGroupDescribeRequest',
    'ConsumerGroupDescribeResponse',
    'ConsumerGroupHeartbeatRequest',
    'ConsumerGroupHeartbeatResponse',
    'ConsumerGroupMemberMetadataKey',
    'ConsumerGroupMemberMetadataValue',
    'ConsumerGroupMetadataKey',
    'ConsumerGroupMetadataValue',
    'ConsumerGroupPartitionMetadataKey',
    'ConsumerGroupPartitionMetadataValue',
    'ConsumerGroupRegularExpressionKey',
    'ConsumerGroupRegularExpressionValue',
    'ConsumerGroupTargetAssignmentMemberKey',
    'ConsumerGroupTargetAssignmentMemberValue',
    'ConsumerGroupTargetAssignmentMetadataKey',
    'ConsumerGroupTargetAssignmentMetadataValue',
    'ConsumerProtocolAssignment',
    'ConsumerProtocolSubscription',
    'ControlRecordTypeSchema',
    'ControlledShutdownRequest',
    'ControlledShutdownResponse',
    'ControllerRegistrationRequest',
    'ControllerRegistrationResponse',
    'CreateAclsRequest',
    'CreateAclsResponse',
    'CreateDelegationTokenRequest',
    'CreateDelegationTokenResponse',
    'CreatePartitionsRequest',
    'CreatePartitionsResponse',
    'CreateTopicsRequest',
    'CreateTopicsResponse',
    'DefaultPrincipalData',
    'DelegationTokenRecord',
    'DeleteAclsRequest',
    'DeleteAclsResponse',
    'DeleteGroupsRequest',
    'DeleteGroupsResponse',
    'DeleteRecordsRequest',
    'DeleteRecordsResponse',
    'DeleteShareGroupOffsetsRequest',
    'DeleteShareGroupOffsetsResponse',
    'DeleteShareGroupStateRequest',
    'DeleteShareGroupStateResponse',
    'DeleteTopicsRequest',
    'DeleteTopicsResponse',
    'DescribeAclsRequest',
    'DescribeAclsResponse',
    'DescribeClientQuotasRequest',
    'DescribeClientQuotasResponse',
    'DescribeClusterRequest',
    'DescribeClusterResponse',
    'DescribeConfigsRequest',
    'DescribeConfigsResponse',
    'DescribeDelegationTokenRequest',
    'DescribeDelegationTokenResponse',
    'DescribeGroupsRequest',
    'DescribeGroupsResponse',
    'DescribeLogDirsRequest',
    'DescribeLogDirsResponse',
    'DescribeProducersRequest',
    'DescribeProducersResponse',
    'DescribeQuorumRequest',
    'DescribeQuorumResponse',
    'DescribeShareGroupOffsetsRequest',
    'DescribeShareGroupOffsetsResponse',
    'DescribeTopicPartitionsRequest',
    'DescribeTopicPartitionsResponse',
    'DescribeTransactionsRequest',
    'DescribeTransactionsResponse',
    'DescribeUserScramCredentialsRequest',
    'DescribeUserScramCredentialsResponse',
    'ElectLeadersRequest',
    'ElectLeadersResponse',
    'EndQuorumEpochRequest',
    'EndQuorumEpochResponse',
    'EndTransactionRecord',
    'EndTxnMarker',
    'EndTxnRequest',
    'EndTxnResponse',
    'EnvelopeRequest',
    'EnvelopeResponse',
    'ExpireDelegationTokenRequest',
    'ExpireDelegationTokenResponse',
    'FeatureLevelRecord',
    'FenceBrokerRecord',
    'FetchRequest',
    'FetchResponse',
    'FetchSnapshotRequest',
    'FetchSnapshotResponse',
    'FindCoordinatorRequest',
    'FindCoordinatorResponse',
    'GetTelemetrySubscriptionsRequest',
    'GetTelemetrySubscriptionsResponse',
    'GroupMetadataKey',
    'GroupMetadataValue',
    'HeartbeatRequest',
    'HeartbeatResponse',
    'IncrementalAlterConfigsRequest',
    'IncrementalAlterConfigsResponse',
    'InitProducerIdRequest',
    'InitProducerIdResponse',
    'InitializeShareGroupStateRequest',
    'InitializeShareGroupStateResponse',
    'JoinGroupRequest',
    'JoinGroupResponse',
    'KRaftVersionRecord',
    'LeaderAndIsrRequest',
    'LeaderAndIsrResponse',
    'LeaderChangeMessage',
    'LeaveGroupRequest',
    'LeaveGroupResponse',
    'LegacyOffsetCommitKey',
    'LegacyOffsetCommitValue',
    'ListConfigResourcesRequest',
    'ListConfigResourcesResponse',
    'ListGroupsRequest',
    'ListGroupsResponse',
    'ListOffsetsRequest',
    'ListOffsetsResponse',
    'ListPartitionReassignmentsRequest',
    'ListPartitionReassignmentsResponse',
    'ListTransactionsRequest',
    'ListTransactionsResponse',
    'MetadataRequest',
    'MetadataResponse',
    'NoOpRecord',
    'OffsetCommitKey',
    'OffsetCommitRequest',
    'OffsetCommitResponse',
    'OffsetCommitValue',
    'OffsetDeleteRequest',
    'OffsetDeleteResponse',
    'OffsetFetchRequest',
    'OffsetFetchResponse',
    'OffsetForLeaderEpochRequest',
    'OffsetForLeaderEpochResponse',
    'PartitionChangeRecord',
    'PartitionRecord',
    'ProduceRequest',
    'ProduceResponse',
    'ProducerIdsRecord',
    'ProducerSnapshot',
    'PushTelemetryRequest',
    'PushTelemetryResponse',
    'QuorumStateData',
    'ReadShareGroupStateRequest',
    'ReadShareGroupStateResponse',
    'ReadShareGroupStateSummaryRequest',
    'ReadShareGroupStateSummaryResponse',
    'RegisterBrokerRecord',
    'RegisterControllerRecord',
    'RemoteLogSegmentMetadataRecord',
    'RemoteLogSegmentMetadataSnapshotRecord',
    'RemoteLogSegmentMetadataUpdateRecord',
    'RemotePartitionDeleteMetadataRecord',
    'RemoveAccessControlEntryRecord',
    'RemoveDelegationTokenRecord',
    'RemoveRaftVoterRequest',
    'RemoveRaftVoterResponse',
    'RemoveTopicRecord',
    'RemoveUserScramCredentialRecord',
    'RenewDelegationTokenRequest',
    'RenewDelegationTokenResponse',
    'RequestHeader',
    'ResponseHeader',
    'SaslAuthenticateRequest',
    'SaslAuthenticateResponse',
    'SaslHandshakeRequest',
    'SaslHandshakeResponse',
    'ShareAcknowledgeRequest',
    'ShareAcknowledgeResponse',
    'ShareFetchRequest',
    'ShareFetchResponse',
    'ShareGroupCurrentMemberAssignmentKey',
    'ShareGroupCurrentMemberAssignmentValue',
    'ShareGroupDescribeRequest',
    'ShareGroupDescribeResponse',
    'ShareGroupHeartbeatRequest',
    'ShareGroupHeartbeatResponse',
    'ShareGroupMemberMetadataKey',
    'ShareGroupMemberMetadataValue',
    'ShareGroupMetadataKey',
    'ShareGroupMetadataValue',
    'ShareGroupStatePartitionMetadataKey',
    'ShareGroupStatePartitionMetadataValue',
    'ShareGroupTargetAssignmentMemberKey',
    'ShareGroupTargetAssignmentMemberValue',
    'ShareGroupTargetAssignmentMetadataKey',
    'ShareGroupTargetAssignmentMetadataValue',
    'ShareSnapshotKey',
    'ShareSnapshotValue',
    'ShareUpdateKey',
    'ShareUpdateValue',
    'SnapshotFooterRecord',
    'SnapshotHeaderRecord',
    'StopReplicaRequest',
    'StopReplicaResponse',
    'StreamsGroupCurrentMemberAssignmentKey',
    'StreamsGroupCurrentMemberAssignmentValue',
    'StreamsGroupDescribeRequest',
    'StreamsGroupDescribeResponse',
    'StreamsGroupHeartbeatRequest',
    'StreamsGroupHeartbeatResponse',
    'StreamsGroupMemberMetadataKey',
    'StreamsGroupMemberMetadataValue',
    'StreamsGroupMetadataKey',
    'StreamsGroupMetadataValue',
    'StreamsGroupTargetAssignmentMemberKey',
    'StreamsGroupTargetAssignmentMemberValue',
    'StreamsGroupTargetAssignmentMetadataKey',
    'StreamsGroupTargetAssignmentMetadataValue',
    'StreamsGroupTopologyDescriptionUpdateRequest',
    'StreamsGroupTopologyDescriptionUpdateResponse',
    'StreamsGroupTopologyKey',
    'StreamsGroupTopologyValue',
    'SyncGroupRequest',
    'SyncGroupResponse',
    'TopicRecord',
    'TransactionLogKey',
    'TransactionLogValue',
    'TxnOffsetCommitRequest',
    'TxnOffsetCommitResponse',
    'UnfenceBrokerRecord',
    'UnregisterBrokerRecord',
    'UnregisterBrokerRequest',
    'UnregisterBrokerResponse',
    'UnregisterControllerRecord',
    'UnregisterControllerRequest',
    'UnregisterControllerResponse',
    'UpdateFeaturesRequest',
    'UpdateFeaturesResponse',
    'UpdateMetadataRequest',
    'UpdateMetadataResponse',
    'UpdateRaftVoterRequest',
    'UpdateRaftVoterResponse',
    'UserScramCredentialRecord',
    'VoteRequest',
    'VoteResponse',
    'VotersRecord',
    'WriteShareGroupStateRequest',
    'WriteShareGroupStateResponse',
    'WriteTxnMarkersRequest',
    'WriteTxnMarkersResponse',
    'ZkMigrationStateRecord',
    'CLASSES',
    'SPECS',
    'Message',
    'Struct',
    'api_keys',
    'metadata_record_class',
    'negotiate_version',
    'negotiate_versions',
    'remote_log_metadata_record_class',
    'request_class',
    'response_class',
    'supported_versions',
]
