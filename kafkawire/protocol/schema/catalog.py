"""Every definition of kafkawire/protocol/schema/data, by Kafka name, and the API keys of the
requests (generated, do not edit).

Written by tools/build_schema_catalog.py from the JSON files; the test suite fails when
it no longer matches them.
"""

from enum import IntEnum
from typing import NamedTuple, Optional


class Entry(NamedTuple):
    """One definition, as its JSON file states it."""

    group: str  # the folder of data/
    filename: str
    type: str  # "request", "response", "data", "header", "metadata" or a coordinator type
    api_key: Optional[int]  # apiKey: the API of a request or response, a record type
    valid_versions: str
    flexible_versions: str


class ApiKey(IntEnum):
    """The API key of every request Kafka defines, under Java's ``ApiKeys`` name (the
    request's name without "Request", upper snake case); retired APIs included."""

    PRODUCE = 0
    FETCH = 1
    LIST_OFFSETS = 2
    METADATA = 3
    LEADER_AND_ISR = 4
    STOP_REPLICA = 5
    UPDATE_METADATA = 6
    CONTROLLED_SHUTDOWN = 7
    OFFSET_COMMIT = 8
    OFFSET_FETCH = 9
    FIND_COORDINATOR = 10
    JOIN_GROUP = 11
    HEARTBEAT = 12
    LEAVE_GROUP = 13
    SYNC_GROUP = 14
    DESCRIBE_GROUPS = 15
    LIST_GROUPS = 16
    SASL_HANDSHAKE = 17
    API_VERSIONS = 18
    CREATE_TOPICS = 19
    DELETE_TOPICS = 20
    DELETE_RECORDS = 21
    INIT_PRODUCER_ID = 22
    OFFSET_FOR_LEADER_EPOCH = 23
    ADD_PARTITIONS_TO_TXN = 24
    ADD_OFFSETS_TO_TXN = 25
    END_TXN = 26
    WRITE_TXN_MARKERS = 27
    TXN_OFFSET_COMMIT = 28
    DESCRIBE_ACLS = 29
    CREATE_ACLS = 30
    DELETE_ACLS = 31
    DESCRIBE_CONFIGS = 32
    ALTER_CONFIGS = 33
    ALTER_REPLICA_LOG_DIRS = 34
    DESCRIBE_LOG_DIRS = 35
    SASL_AUTHENTICATE = 36
    CREATE_PARTITIONS = 37
    CREATE_DELEGATION_TOKEN = 38
    RENEW_DELEGATION_TOKEN = 39
    EXPIRE_DELEGATION_TOKEN = 40
    DESCRIBE_DELEGATION_TOKEN = 41
    DELETE_GROUPS = 42
    ELECT_LEADERS = 43
    INCREMENTAL_ALTER_CONFIGS = 44
    ALTER_PARTITION_REASSIGNMENTS = 45
    LIST_PARTITION_REASSIGNMENTS = 46
    OFFSET_DELETE = 47
    DESCRIBE_CLIENT_QUOTAS = 48
    ALTER_CLIENT_QUOTAS = 49
    DESCRIBE_USER_SCRAM_CREDENTIALS = 50
    ALTER_USER_SCRAM_CREDENTIALS = 51
    VOTE = 52
    BEGIN_QUORUM_EPOCH = 53
    END_QUORUM_EPOCH = 54
    DESCRIBE_QUORUM = 55
    ALTER_PARTITION = 56
    UPDATE_FEATURES = 57
    ENVELOPE = 58
    FETCH_SNAPSHOT = 59
    DESCRIBE_CLUSTER = 60
    DESCRIBE_PRODUCERS = 61
    BROKER_REGISTRATION = 62
    BROKER_HEARTBEAT = 63
    UNREGISTER_BROKER = 64
    DESCRIBE_TRANSACTIONS = 65
    LIST_TRANSACTIONS = 66
    ALLOCATE_PRODUCER_IDS = 67
    CONSUMER_GROUP_HEARTBEAT = 68
    CONSUMER_GROUP_DESCRIBE = 69
    CONTROLLER_REGISTRATION = 70
    GET_TELEMETRY_SUBSCRIPTIONS = 71
    PUSH_TELEMETRY = 72
    ASSIGN_REPLICAS_TO_DIRS = 73
    LIST_CONFIG_RESOURCES = 74
    DESCRIBE_TOPIC_PARTITIONS = 75
    SHARE_GROUP_HEARTBEAT = 76
    SHARE_GROUP_DESCRIBE = 77
    SHARE_FETCH = 78
    SHARE_ACKNOWLEDGE = 79
    ADD_RAFT_VOTER = 80
    REMOVE_RAFT_VOTER = 81
    UPDATE_RAFT_VOTER = 82
    INITIALIZE_SHARE_GROUP_STATE = 83
    READ_SHARE_GROUP_STATE = 84
    WRITE_SHARE_GROUP_STATE = 85
    DELETE_SHARE_GROUP_STATE = 86
    READ_SHARE_GROUP_STATE_SUMMARY = 87
    STREAMS_GROUP_HEARTBEAT = 88
    STREAMS_GROUP_DESCRIBE = 89
    DESCRIBE_SHARE_GROUP_OFFSETS = 90
    ALTER_SHARE_GROUP_OFFSETS = 91
    DELETE_SHARE_GROUP_OFFSETS = 92
    STREAMS_GROUP_TOPOLOGY_DESCRIPTION_UPDATE = 93
    UNREGISTER_CONTROLLER = 94


CATALOG = {
    'AddOffsetsToTxnRequest': Entry('messages', 'AddOffsetsToTxnRequest.json', 'request', 25, '0-4', '3+'),
    'AddOffsetsToTxnResponse': Entry('messages', 'AddOffsetsToTxnResponse.json', 'response', 25, '0-4', '3+'),
    'AddPartitionsToTxnRequest': Entry('messages', 'AddPartitionsToTxnRequest.json', 'request', 24, '0-5', '3+'),
    'AddPartitionsToTxnResponse': Entry('messages', 'AddPartitionsToTxnResponse.json', 'response', 24, '0-5', '3+'),
    'AddRaftVoterRequest': Entry('messages', 'AddRaftVoterRequest.json', 'request', 80, '0-1', '0+'),
    'AddRaftVoterResponse': Entry('messages', 'AddRaftVoterResponse.json', 'response', 80, '0-1', '0+'),
    'AllocateProducerIdsRequest': Entry('messages', 'AllocateProducerIdsRequest.json', 'request', 67, '0', '0+'),
    'AllocateProducerIdsResponse': Entry('messages', 'AllocateProducerIdsResponse.json', 'response', 67, '0', '0+'),
    'AlterClientQuotasRequest': Entry('messages', 'AlterClientQuotasRequest.json', 'request', 49, '0-1', '1+'),
    'AlterClientQuotasResponse': Entry('messages', 'AlterClientQuotasResponse.json', 'response', 49, '0-1', '1+'),
    'AlterConfigsRequest': Entry('messages', 'AlterConfigsRequest.json', 'request', 33, '0-2', '2+'),
    'AlterConfigsResponse': Entry('messages', 'AlterConfigsResponse.json', 'response', 33, '0-2', '2+'),
    'AlterPartitionReassignmentsRequest': Entry('messages', 'AlterPartitionReassignmentsRequest.json', 'request', 45, '0-1', '0+'),
    'AlterPartitionReassignmentsResponse': Entry('messages', 'AlterPartitionReassignmentsResponse.json', 'response', 45, '0-1', '0+'),
    'AlterPartitionRequest': Entry('messages', 'AlterPartitionRequest.json', 'request', 56, '2-3', '0+'),
    'AlterPartitionResponse': Entry('messages', 'AlterPartitionResponse.json', 'response', 56, '2-3', '0+'),
    'AlterReplicaLogDirsRequest': Entry('messages', 'AlterReplicaLogDirsRequest.json', 'request', 34, '1-2', '2+'),
    'AlterReplicaLogDirsResponse': Entry('messages', 'AlterReplicaLogDirsResponse.json', 'response', 34, '1-2', '2+'),
    'AlterShareGroupOffsetsRequest': Entry('messages', 'AlterShareGroupOffsetsRequest.json', 'request', 91, '0', '0+'),
    'AlterShareGroupOffsetsResponse': Entry('messages', 'AlterShareGroupOffsetsResponse.json', 'response', 91, '0', '0+'),
    'AlterUserScramCredentialsRequest': Entry('messages', 'AlterUserScramCredentialsRequest.json', 'request', 51, '0', '0+'),
    'AlterUserScramCredentialsResponse': Entry('messages', 'AlterUserScramCredentialsResponse.json', 'response', 51, '0', '0+'),
    'ApiVersionsRequest': Entry('messages', 'ApiVersionsRequest.json', 'request', 18, '0-5', '3+'),
    'ApiVersionsResponse': Entry('messages', 'ApiVersionsResponse.json', 'response', 18, '0-5', '3+'),
    'AssignReplicasToDirsRequest': Entry('messages', 'AssignReplicasToDirsRequest.json', 'request', 73, '0', '0+'),
    'AssignReplicasToDirsResponse': Entry('messages', 'AssignReplicasToDirsResponse.json', 'response', 73, '0', '0+'),
    'BeginQuorumEpochRequest': Entry('messages', 'BeginQuorumEpochRequest.json', 'request', 53, '0-1', '1+'),
    'BeginQuorumEpochResponse': Entry('messages', 'BeginQuorumEpochResponse.json', 'response', 53, '0-1', '1+'),
    'BrokerHeartbeatRequest': Entry('messages', 'BrokerHeartbeatRequest.json', 'request', 63, '0-2', '0+'),
    'BrokerHeartbeatResponse': Entry('messages', 'BrokerHeartbeatResponse.json', 'response', 63, '0-2', '0+'),
    'BrokerRegistrationRequest': Entry('messages', 'BrokerRegistrationRequest.json', 'request', 62, '0-4', '0+'),
    'BrokerRegistrationResponse': Entry('messages', 'BrokerRegistrationResponse.json', 'response', 62, '0-4', '0+'),
    'ConsumerGroupDescribeRequest': Entry('messages', 'ConsumerGroupDescribeRequest.json', 'request', 69, '0-1', '0+'),
    'ConsumerGroupDescribeResponse': Entry('messages', 'ConsumerGroupDescribeResponse.json', 'response', 69, '0-1', '0+'),
    'ConsumerGroupHeartbeatRequest': Entry('messages', 'ConsumerGroupHeartbeatRequest.json', 'request', 68, '0-1', '0+'),
    'ConsumerGroupHeartbeatResponse': Entry('messages', 'ConsumerGroupHeartbeatResponse.json', 'response', 68, '0-1', '0+'),
    'ControlledShutdownRequest': Entry('messages', 'ControlledShutdownRequest.json', 'request', 7, 'none', 'none'),
    'ControlledShutdownResponse': Entry('messages', 'ControlledShutdownResponse.json', 'response', 7, 'none', 'none'),
    'ControllerRegistrationRequest': Entry('messages', 'ControllerRegistrationRequest.json', 'request', 70, '0', '0+'),
    'ControllerRegistrationResponse': Entry('messages', 'ControllerRegistrationResponse.json', 'response', 70, '0', '0+'),
    'CreateAclsRequest': Entry('messages', 'CreateAclsRequest.json', 'request', 30, '1-3', '2+'),
    'CreateAclsResponse': Entry('messages', 'CreateAclsResponse.json', 'response', 30, '1-3', '2+'),
    'CreateDelegationTokenRequest': Entry('messages', 'CreateDelegationTokenRequest.json', 'request', 38, '1-3', '2+'),
    'CreateDelegationTokenResponse': Entry('messages', 'CreateDelegationTokenResponse.json', 'response', 38, '1-3', '2+'),
    'CreatePartitionsRequest': Entry('messages', 'CreatePartitionsRequest.json', 'request', 37, '0-3', '2+'),
    'CreatePartitionsResponse': Entry('messages', 'CreatePartitionsResponse.json', 'response', 37, '0-3', '2+'),
    'CreateTopicsRequest': Entry('messages', 'CreateTopicsRequest.json', 'request', 19, '2-7', '5+'),
    'CreateTopicsResponse': Entry('messages', 'CreateTopicsResponse.json', 'response', 19, '2-7', '5+'),
    'DeleteAclsRequest': Entry('messages', 'DeleteAclsRequest.json', 'request', 31, '1-3', '2+'),
    'DeleteAclsResponse': Entry('messages', 'DeleteAclsResponse.json', 'response', 31, '1-3', '2+'),
    'DeleteGroupsRequest': Entry('messages', 'DeleteGroupsRequest.json', 'request', 42, '0-3', '2+'),
    'DeleteGroupsResponse': Entry('messages', 'DeleteGroupsResponse.json', 'response', 42, '0-3', '2+'),
    'DeleteRecordsRequest': Entry('messages', 'DeleteRecordsRequest.json', 'request', 21, '0-2', '2+'),
    'DeleteRecordsResponse': Entry('messages', 'DeleteRecordsResponse.json', 'response', 21, '0-2', '2+'),
    'DeleteShareGroupOffsetsRequest': Entry('messages', 'DeleteShareGroupOffsetsRequest.json', 'request', 92, '0', '0+'),
    'DeleteShareGroupOffsetsResponse': Entry('messages', 'DeleteShareGroupOffsetsResponse.json', 'response', 92, '0', '0+'),
    'DeleteShareGroupStateRequest': Entry('messages', 'DeleteShareGroupStateRequest.json', 'request', 86, '0', '0+'),
    'DeleteShareGroupStateResponse': Entry('messages', 'DeleteShareGroupStateResponse.json', 'response', 86, '0', '0+'),
    'DeleteTopicsRequest': Entry('messages', 'DeleteTopicsRequest.json', 'request', 20, '1-6', '4+'),
    'DeleteTopicsResponse': Entry('messages', 'DeleteTopicsResponse.json', 'response', 20, '1-6', '4+'),
    'DescribeAclsRequest': Entry('messages', 'DescribeAclsRequest.json', 'request', 29, '1-3', '2+'),
    'DescribeAclsResponse': Entry('messages', 'DescribeAclsResponse.json', 'response', 29, '1-3', '2+'),
    'DescribeClientQuotasRequest': Entry('messages', 'DescribeClientQuotasRequest.json', 'request', 48, '0-1', '1+'),
    'DescribeClientQuotasResponse': Entry('messages', 'DescribeClientQuotasResponse.json', 'response', 48, '0-1', '1+'),
    'DescribeClusterRequest': Entry('messages', 'DescribeClusterRequest.json', 'request', 60, '0-2', '0+'),
    'DescribeClusterResponse': Entry('messages', 'DescribeClusterResponse.json', 'response', 60, '0-2', '0+'),
    'DescribeConfigsRequest': Entry('messages', 'DescribeConfigsRequest.json', 'request', 32, '1-4', '4+'),
    'DescribeConfigsResponse': Entry('messages', 'DescribeConfigsResponse.json', 'response', 32, '1-4', '4+'),
    'DescribeDelegationTokenRequest': Entry('messages', 'DescribeDelegationTokenRequest.json', 'request', 41, '1-3', '2+'),
    'DescribeDelegationTokenResponse': Entry('messages', 'DescribeDelegationTokenResponse.json', 'response', 41, '1-3', '2+'),
    'DescribeGroupsRequest': Entry('messages', 'DescribeGroupsRequest.json', 'request', 15, '0-6', '5+'),
    'DescribeGroupsResponse': Entry('messages', 'DescribeGroupsResponse.json', 'response', 15, '0-6', '5+'),
    'DescribeLogDirsRequest': Entry('messages', 'DescribeLogDirsRequest.json', 'request', 35, '1-5', '2+'),
    'DescribeLogDirsResponse': Entry('messages', 'DescribeLogDirsResponse.json', 'response', 35, '1-5', '2+'),
    'DescribeProducersRequest': Entry('messages', 'DescribeProducersRequest.json', 'request', 61, '0', '0+'),
    'DescribeProducersResponse': Entry('messages', 'DescribeProducersResponse.json', 'response', 61, '0', '0+'),
    'DescribeQuorumRequest': Entry('messages', 'DescribeQuorumRequest.json', 'request', 55, '0-2', '0+'),
    'DescribeQuorumResponse': Entry('messages', 'DescribeQuorumResponse.json', 'response', 55, '0-2', '0+'),
    'DescribeShareGroupOffsetsRequest': Entry('messages', 'DescribeShareGroupOffsetsRequest.json', 'request', 90, '0-1', '0+'),
    'DescribeShareGroupOffsetsResponse': Entry('messages', 'DescribeShareGroupOffsetsResponse.json', 'response', 90, '0-1', '0+'),
    'DescribeTopicPartitionsRequest': Entry('messages', 'DescribeTopicPartitionsRequest.json', 'request', 75, '0', '0+'),
    'DescribeTopicPartitionsResponse': Entry('messages', 'DescribeTopicPartitionsResponse.json', 'response', 75, '0', '0+'),
    'DescribeTransactionsRequest': Entry('messages', 'DescribeTransactionsRequest.json', 'request', 65, '0', '0+'),
    'DescribeTransactionsResponse': Entry('messages', 'DescribeTransactionsResponse.json', 'response', 65, '0', '0+'),
    'DescribeUserScramCredentialsRequest': Entry('messages', 'DescribeUserScramCredentialsRequest.json', 'request', 50, '0', '0+'),
    'DescribeUserScramCredentialsResponse': Entry('messages', 'DescribeUserScramCredentialsResponse.json', 'response', 50, '0', '0+'),
    'ElectLeadersRequest': Entry('messages', 'ElectLeadersRequest.json', 'request', 43, '0-2', '2+'),
    'ElectLeadersResponse': Entry('messages', 'ElectLeadersResponse.json', 'response', 43, '0-2', '2+'),
    'EndQuorumEpochRequest': Entry('messages', 'EndQuorumEpochRequest.json', 'request', 54, '0-1', '1+'),
    'EndQuorumEpochResponse': Entry('messages', 'EndQuorumEpochResponse.json', 'response', 54, '0-1', '1+'),
    'EndTxnRequest': Entry('messages', 'EndTxnRequest.json', 'request', 26, '0-5', '3+'),
    'EndTxnResponse': Entry('messages', 'EndTxnResponse.json', 'response', 26, '0-5', '3+'),
    'EnvelopeRequest': Entry('messages', 'EnvelopeRequest.json', 'request', 58, '0', '0+'),
    'EnvelopeResponse': Entry('messages', 'EnvelopeResponse.json', 'response', 58, '0', '0+'),
    'ExpireDelegationTokenRequest': Entry('messages', 'ExpireDelegationTokenRequest.json', 'request', 40, '1-2', '2+'),
    'ExpireDelegationTokenResponse': Entry('messages', 'ExpireDelegationTokenResponse.json', 'response', 40, '1-2', '2+'),
    'FetchRequest': Entry('messages', 'FetchRequest.json', 'request', 1, '4-18', '12+'),
    'FetchResponse': Entry('messages', 'FetchResponse.json', 'response', 1, '4-18', '12+'),
    'FetchSnapshotRequest': Entry('messages', 'FetchSnapshotRequest.json', 'request', 59, '0-1', '0+'),
    'FetchSnapshotResponse': Entry('messages', 'FetchSnapshotResponse.json', 'response', 59, '0-1', '0+'),
    'FindCoordinatorRequest': Entry('messages', 'FindCoordinatorRequest.json', 'request', 10, '0-6', '3+'),
    'FindCoordinatorResponse': Entry('messages', 'FindCoordinatorResponse.json', 'response', 10, '0-6', '3+'),
    'GetTelemetrySubscriptionsRequest': Entry('messages', 'GetTelemetrySubscriptionsRequest.json', 'request', 71, '0', '0+'),
    'GetTelemetrySubscriptionsResponse': Entry('messages', 'GetTelemetrySubscriptionsResponse.json', 'response', 71, '0', '0+'),
    'HeartbeatRequest': Entry('messages', 'HeartbeatRequest.json', 'request', 12, '0-4', '4+'),
    'HeartbeatResponse': Entry('messages', 'HeartbeatResponse.json', 'response', 12, '0-4', '4+'),
    'IncrementalAlterConfigsRequest': Entry('messages', 'IncrementalAlterConfigsRequest.json', 'request', 44, '0-1', '1+'),
    'IncrementalAlterConfigsResponse': Entry('messages', 'IncrementalAlterConfigsResponse.json', 'response', 44, '0-1', '1+'),
    'InitProducerIdRequest': Entry('messages', 'InitProducerIdRequest.json', 'request', 22, '0-6', '2+'),
    'InitProducerIdResponse': Entry('messages', 'InitProducerIdResponse.json', 'response', 22, '0-6', '2+'),
    'InitializeShareGroupStateRequest': Entry('messages', 'InitializeShareGroupStateRequest.json', 'request', 83, '0', '0+'),
    'InitializeShareGroupStateResponse': Entry('messages', 'InitializeShareGroupStateResponse.json', 'response', 83, '0', '0+'),
    'JoinGroupRequest': Entry('messages', 'JoinGroupRequest.json', 'request', 11, '0-9', '6+'),
    'JoinGroupResponse': Entry('messages', 'JoinGroupResponse.json', 'response', 11, '0-9', '6+'),
    'LeaderAndIsrRequest': Entry('messages', 'LeaderAndIsrRequest.json', 'request', 4, 'none', 'none'),
    'LeaderAndIsrResponse': Entry('messages', 'LeaderAndIsrResponse.json', 'response', 4, 'none', 'none'),
    'LeaveGroupRequest': Entry('messages', 'LeaveGroupRequest.json', 'request', 13, '0-5', '4+'),
    'LeaveGroupResponse': Entry('messages', 'LeaveGroupResponse.json', 'response', 13, '0-5', '4+'),
    'ListConfigResourcesRequest': Entry('messages', 'ListConfigResourcesRequest.json', 'request', 74, '0-1', '0+'),
    'ListConfigResourcesResponse': Entry('messages', 'ListConfigResourcesResponse.json', 'response', 74, '0-1', '0+'),
    'ListGroupsRequest': Entry('messages', 'ListGroupsRequest.json', 'request', 16, '0-5', '3+'),
    'ListGroupsResponse': Entry('messages', 'ListGroupsResponse.json', 'response', 16, '0-5', '3+'),
    'ListOffsetsRequest': Entry('messages', 'ListOffsetsRequest.json', 'request', 2, '1-11', '6+'),
    'ListOffsetsResponse': Entry('messages', 'ListOffsetsResponse.json', 'response', 2, '1-11', '6+'),
    'ListPartitionReassignmentsRequest': Entry('messages', 'ListPartitionReassignmentsRequest.json', 'request', 46, '0', '0+'),
    'ListPartitionReassignmentsResponse': Entry('messages', 'ListPartitionReassignmentsResponse.json', 'response', 46, '0', '0+'),
    'ListTransactionsRequest': Entry('messages', 'ListTransactionsRequest.json', 'request', 66, '0-2', '0+'),
    'ListTransactionsResponse': Entry('messages', 'ListTransactionsResponse.json', 'response', 66, '0-2', '0+'),
    'MetadataRequest': Entry('messages', 'MetadataRequest.json', 'request', 3, '0-13', '9+'),
    'MetadataResponse': Entry('messages', 'MetadataResponse.json', 'response', 3, '0-13', '9+'),
    'OffsetCommitRequest': Entry('messages', 'OffsetCommitRequest.json', 'request', 8, '2-10', '8+'),
    'OffsetCommitResponse': Entry('messages', 'OffsetCommitResponse.json', 'response', 8, '2-10', '8+'),
    'OffsetDeleteRequest': Entry('messages', 'OffsetDeleteRequest.json', 'request', 47, '0', 'none'),
    'OffsetDeleteResponse': Entry('messages', 'OffsetDeleteResponse.json', 'response', 47, '0', 'none'),
    'OffsetFetchRequest': Entry('messages', 'OffsetFetchRequest.json', 'request', 9, '1-10', '6+'),
    'OffsetFetchResponse': Entry('messages', 'OffsetFetchResponse.json', 'response', 9, '1-10', '6+'),
    'OffsetForLeaderEpochRequest': Entry('messages', 'OffsetForLeaderEpochRequest.json', 'request', 23, '2-4', '4+'),
    'OffsetForLeaderEpochResponse': Entry('messages', 'OffsetForLeaderEpochResponse.json', 'response', 23, '2-4', '4+'),
    'ProduceRequest': Entry('messages', 'ProduceRequest.json', 'request', 0, '3-13', '9+'),
    'ProduceResponse': Entry('messages', 'ProduceResponse.json', 'response', 0, '3-13', '9+'),
    'PushTelemetryRequest': Entry('messages', 'PushTelemetryRequest.json', 'request', 72, '0', '0+'),
    'PushTelemetryResponse': Entry('messages', 'PushTelemetryResponse.json', 'response', 72, '0', '0+'),
    'ReadShareGroupStateRequest': Entry('messages', 'ReadShareGroupStateRequest.json', 'request', 84, '0', '0+'),
    'ReadShareGroupStateResponse': Entry('messages', 'ReadShareGroupStateResponse.json', 'response', 84, '0', '0+'),
    'ReadShareGroupStateSummaryRequest': Entry('messages', 'ReadShareGroupStateSummaryRequest.json', 'request', 87, '0-1', '0+'),
    'ReadShareGroupStateSummaryResponse': Entry('messages', 'ReadShareGroupStateSummaryResponse.json', 'response', 87, '0-1', '0+'),
    'RemoveRaftVoterRequest': Entry('messages', 'RemoveRaftVoterRequest.json', 'request', 81, '0', '0+'),
    'RemoveRaftVoterResponse': Entry('messages', 'RemoveRaftVoterResponse.json', 'response', 81, '0', '0+'),
    'RenewDelegationTokenRequest': Entry('messages', 'RenewDelegationTokenRequest.json', 'request', 39, '1-2', '2+'),
    'RenewDelegationTokenResponse': Entry('messages', 'RenewDelegationTokenResponse.json', 'response', 39, '1-2', '2+'),
    'RequestHeader': Entry('messages', 'RequestHeader.json', 'header', None, '1-2', '2+'),
    'ResponseHeader': Entry('messages', 'ResponseHeader.json', 'header', None, '0-1', '1+'),
    'SaslAuthenticateRequest': Entry('messages', 'SaslAuthenticateRequest.json', 'request', 36, '0-2', '2+'),
    'SaslAuthenticateResponse': Entry('messages', 'SaslAuthenticateResponse.json', 'response', 36, '0-2', '2+'),
    'SaslHandshakeRequest': Entry('messages', 'SaslHandshakeRequest.json', 'request', 17, '0-1', 'none'),
    'SaslHandshakeResponse': Entry('messages', 'SaslHandshakeResponse.json', 'response', 17, '0-1', 'none'),
    'ShareAcknowledgeRequest': Entry('messages', 'ShareAcknowledgeRequest.json', 'request', 79, '1-2', '0+'),
    'ShareAcknowledgeResponse': Entry('messages', 'ShareAcknowledgeResponse.json', 'response', 79, '1-2', '0+'),
    'ShareFetchRequest': Entry('messages', 'ShareFetchRequest.json', 'request', 78, '1-2', '0+'),
    'ShareFetchResponse': Entry('messages', 'ShareFetchResponse.json', 'response', 78, '1-2', '0+'),
    'ShareGroupDescribeRequest': Entry('messages', 'ShareGroupDescribeRequest.json', 'request', 77, '1', '0+'),
    'ShareGroupDescribeResponse': Entry('messages', 'ShareGroupDescribeResponse.json', 'response', 77, '1', '0+'),
    'ShareGroupHeartbeatRequest': Entry('messages', 'ShareGroupHeartbeatRequest.json', 'request', 76, '1', '0+'),
    'ShareGroupHeartbeatResponse': Entry('messages', 'ShareGroupHeartbeatResponse.json', 'response', 76, '1', '0+'),
    'StopReplicaRequest': Entry('messages', 'StopReplicaRequest.json', 'request', 5, 'none', 'none'),
    'StopReplicaResponse': Entry('messages', 'StopReplicaResponse.json', 'response', 5, 'none', 'none'),
    'StreamsGroupDescribeRequest': Entry('messages', 'StreamsGroupDescribeRequest.json', 'request', 89, '0-1', '0+'),
    'StreamsGroupDescribeResponse': Entry('messages', 'StreamsGroupDescribeResponse.json', 'response', 89, '0-1', '0+'),
    'StreamsGroupHeartbeatRequest': Entry('messages', 'StreamsGroupHeartbeatRequest.json', 'request', 88, '0-1', '0+'),
    'StreamsGroupHeartbeatResponse': Entry('messages', 'StreamsGroupHeartbeatResponse.json', 'response', 88, '0-1', '0+'),
    'StreamsGroupTopologyDescriptionUpdateRequest': Entry('messages', 'StreamsGroupTopologyDescriptionUpdateRequest.json', 'request', 93, '0', '0+'),
    'StreamsGroupTopologyDescriptionUpdateResponse': Entry('messages', 'StreamsGroupTopologyDescriptionUpdateResponse.json', 'response', 93, '0', '0+'),
    'SyncGroupRequest': Entry('messages', 'SyncGroupRequest.json', 'request', 14, '0-5', '4+'),
    'SyncGroupResponse': Entry('messages', 'SyncGroupResponse.json', 'response', 14, '0-5', '4+'),
    'TxnOffsetCommitRequest': Entry('messages', 'TxnOffsetCommitRequest.json', 'request', 28, '0-6', '3+'),
    'TxnOffsetCommitResponse': Entry('messages', 'TxnOffsetCommitResponse.json', 'response', 28, '0-6', '3+'),
    'UnregisterBrokerRequest': Entry('messages', 'UnregisterBrokerRequest.json', 'request', 64, '0', '0+'),
    'UnregisterBrokerResponse': Entry('messages', 'UnregisterBrokerResponse.json', 'response', 64, '0', '0+'),
    'UnregisterControllerRequest': Entry('messages', 'UnregisterControllerRequest.json', 'request', 94, '0', '0+'),
    'UnregisterControllerResponse': Entry('messages', 'UnregisterControllerResponse.json', 'response', 94, '0', '0+'),
    'UpdateFeaturesRequest': Entry('messages', 'UpdateFeaturesRequest.json', 'request', 57, '0-2', '0+'),
    'UpdateFeaturesResponse': Entry('messages', 'UpdateFeaturesResponse.json', 'response', 57, '0-2', '0+'),
    'UpdateMetadataRequest': Entry('messages', 'UpdateMetadataRequest.json', 'request', 6, 'none', 'none'),
    'UpdateMetadataResponse': Entry('messages', 'UpdateMetadataResponse.json', 'response', 6, 'none', 'none'),
    'UpdateRaftVoterRequest': Entry('messages', 'UpdateRaftVoterRequest.json', 'request', 82, '0', '0+'),
    'UpdateRaftVoterResponse': Entry('messages', 'UpdateRaftVoterResponse.json', 'response', 82, '0', '0+'),
    'VoteRequest': Entry('messages', 'VoteRequest.json', 'request', 52, '0-2', '0+'),
    'VoteResponse': Entry('messages', 'VoteResponse.json', 'response', 52, '0-2', '0+'),
    'WriteShareGroupStateRequest': Entry('messages', 'WriteShareGroupStateRequest.json', 'request', 85, '0-1', '0+'),
    'WriteShareGroupStateResponse': Entry('messages', 'WriteShareGroupStateResponse.json', 'response', 85, '0-1', '0+'),
    'WriteTxnMarkersRequest': Entry('messages', 'WriteTxnMarkersRequest.json', 'request', 27, '1-2', '1+'),
    'WriteTxnMarkersResponse': Entry('messages', 'WriteTxnMarkersResponse.json', 'response', 27, '1-2', '1+'),
    'AbortedTxn': Entry('data', 'AbortedTxn.json', 'data', None, '0', 'none'),
    'ConsumerProtocolAssignment': Entry('data', 'ConsumerProtocolAssignment.json', 'data', None, '0-3', 'none'),
    'ConsumerProtocolSubscription': Entry('data', 'ConsumerProtocolSubscription.json', 'data', None, '0-3', 'none'),
    'ControlRecordTypeSchema': Entry('data', 'ControlRecordTypeSchema.json', 'data', None, '0', 'none'),
    'DefaultPrincipalData': Entry('data', 'DefaultPrincipalData.json', 'data', None, '0', '0+'),
    'EndTxnMarker': Entry('data', 'EndTxnMarker.json', 'data', None, '0', 'none'),
    'ProducerSnapshot': Entry('data', 'ProducerSnapshot.json', 'data', None, '1', 'none'),
    'ConsumerGroupCurrentMemberAssignmentKey': Entry('coordinator', 'ConsumerGroupCurrentMemberAssignmentKey.json', 'coordinator-key', 8, '0', 'none'),
    'ConsumerGroupCurrentMemberAssignmentValue': Entry('coordinator', 'ConsumerGroupCurrentMemberAssignmentValue.json', 'coordinator-value', 8, '0', '0+'),
    'ConsumerGroupMemberMetadataKey': Entry('coordinator', 'ConsumerGroupMemberMetadataKey.json', 'coordinator-key', 5, '0', 'none'),
    'ConsumerGroupMemberMetadataValue': Entry('coordinator', 'ConsumerGroupMemberMetadataValue.json', 'coordinator-value', 5, '0', '0+'),
    'ConsumerGroupMetadataKey': Entry('coordinator', 'ConsumerGroupMetadataKey.json', 'coordinator-key', 3, '0', 'none'),
    'ConsumerGroupMetadataValue': Entry('coordinator', 'ConsumerGroupMetadataValue.json', 'coordinator-value', 3, '0', '0+'),
    'ConsumerGroupPartitionMetadataKey': Entry('coordinator', 'ConsumerGroupPartitionMetadataKey.json', 'coordinator-key', 4, '0', 'none'),
    'ConsumerGroupPartitionMetadataValue': Entry('coordinator', 'ConsumerGroupPartitionMetadataValue.json', 'coordinator-value', 4, '0', '0+'),
    'ConsumerGroupRegularExpressionKey': Entry('coordinator', 'ConsumerGroupRegularExpressionKey.json', 'coordinator-key', 16, '0', 'none'),
    'ConsumerGroupRegularExpressionValue': Entry('coordinator', 'ConsumerGroupRegularExpressionValue.json', 'coordinator-value', 16, '0', '0+'),
    'ConsumerGroupTargetAssignmentMemberKey': Entry('coordinator', 'ConsumerGroupTargetAssignmentMemberKey.json', 'coordinator-key', 7, '0', 'none'),
    'ConsumerGroupTargetAssignmentMemberValue': Entry('coordinator', 'ConsumerGroupTargetAssignmentMemberValue.json', 'coordinator-value', 7, '0', '0+'),
    'ConsumerGroupTargetAssignmentMetadataKey': Entry('coordinator', 'ConsumerGroupTargetAssignmentMetadataKey.json', 'coordinator-key', 6, '0', 'none'),
    'ConsumerGroupTargetAssignmentMetadataValue': Entry('coordinator', 'ConsumerGroupTargetAssignmentMetadataValue.json', 'coordinator-value', 6, '0', '0+'),
    'GroupMetadataKey': Entry('coordinator', 'GroupMetadataKey.json', 'coordinator-key', 2, '0', 'none'),
    'GroupMetadataValue': Entry('coordinator', 'GroupMetadataValue.json', 'coordinator-value', 2, '0-4', '4+'),
    'LegacyOffsetCommitKey': Entry('coordinator', 'LegacyOffsetCommitKey.json', 'coordinator-key', 0, '0', 'none'),
    'LegacyOffsetCommitValue': Entry('coordinator', 'LegacyOffsetCommitValue.json', 'coordinator-value', 0, '0', 'none'),
    'OffsetCommitKey': Entry('coordinator', 'OffsetCommitKey.json', 'coordinator-key', 1, '0', 'none'),
    'OffsetCommitValue': Entry('coordinator', 'OffsetCommitValue.json', 'coordinator-value', 1, '0-4', '4+'),
    'ShareGroupCurrentMemberAssignmentKey': Entry('coordinator', 'ShareGroupCurrentMemberAssignmentKey.json', 'coordinator-key', 14, '0', 'none'),
    'ShareGroupCurrentMemberAssignmentValue': Entry('coordinator', 'ShareGroupCurrentMemberAssignmentValue.json', 'coordinator-value', 14, '0', '0+'),
    'ShareGroupMemberMetadataKey': Entry('coordinator', 'ShareGroupMemberMetadataKey.json', 'coordinator-key', 10, '0', 'none'),
    'ShareGroupMemberMetadataValue': Entry('coordinator', 'ShareGroupMemberMetadataValue.json', 'coordinator-value', 10, '0', '0+'),
    'ShareGroupMetadataKey': Entry('coordinator', 'ShareGroupMetadataKey.json', 'coordinator-key', 11, '0', 'none'),
    'ShareGroupMetadataValue': Entry('coordinator', 'ShareGroupMetadataValue.json', 'coordinator-value', 11, '0', '0+'),
    'ShareGroupStatePartitionMetadataKey': Entry('coordinator', 'ShareGroupStatePartitionMetadataKey.json', 'coordinator-key', 15, '0', 'none'),
    'ShareGroupStatePartitionMetadataValue': Entry('coordinator', 'ShareGroupStatePartitionMetadataValue.json', 'coordinator-value', 15, '0', '0+'),
    'ShareGroupTargetAssignmentMemberKey': Entry('coordinator', 'ShareGroupTargetAssignmentMemberKey.json', 'coordinator-key', 13, '0', 'none'),
    'ShareGroupTargetAssignmentMemberValue': Entry('coordinator', 'ShareGroupTargetAssignmentMemberValue.json', 'coordinator-value', 13, '0', '0+'),
    'ShareGroupTargetAssignmentMetadataKey': Entry('coordinator', 'ShareGroupTargetAssignmentMetadataKey.json', 'coordinator-key', 12, '0', 'none'),
    'ShareGroupTargetAssignmentMetadataValue': Entry('coordinator', 'ShareGroupTargetAssignmentMetadataValue.json', 'coordinator-value', 12, '0', '0+'),
    'ShareSnapshotKey': Entry('coordinator', 'ShareSnapshotKey.json', 'coordinator-key', 0, '0', 'none'),
    'ShareSnapshotValue': Entry('coordinator', 'ShareSnapshotValue.json', 'coordinator-value', 0, '0', '0+'),
    'ShareUpdateKey': Entry('coordinator', 'ShareUpdateKey.json', 'coordinator-key', 1, '0', 'none'),
    'ShareUpdateValue': Entry('coordinator', 'ShareUpdateValue.json', 'coordinator-value', 1, '0', '0+'),
    'StreamsGroupCurrentMemberAssignmentKey': Entry('coordinator', 'StreamsGroupCurrentMemberAssignmentKey.json', 'coordinator-key', 22, '0', 'none'),
    'StreamsGroupCurrentMemberAssignmentValue': Entry('coordinator', 'StreamsGroupCurrentMemberAssignmentValue.json', 'coordinator-value', 22, '0', '0+'),
    'StreamsGroupMemberMetadataKey': Entry('coordinator', 'StreamsGroupMemberMetadataKey.json', 'coordinator-key', 19, '0', 'none'),
    'StreamsGroupMemberMetadataValue': Entry('coordinator', 'StreamsGroupMemberMetadataValue.json', 'coordinator-value', 19, '0', '0+'),
    'StreamsGroupMetadataKey': Entry('coordinator', 'StreamsGroupMetadataKey.json', 'coordinator-key', 17, '0', 'none'),
    'StreamsGroupMetadataValue': Entry('coordinator', 'StreamsGroupMetadataValue.json', 'coordinator-value', 17, '0', '0+'),
    'StreamsGroupTargetAssignmentMemberKey': Entry('coordinator', 'StreamsGroupTargetAssignmentMemberKey.json', 'coordinator-key', 21, '0', 'none'),
    'StreamsGroupTargetAssignmentMemberValue': Entry('coordinator', 'StreamsGroupTargetAssignmentMemberValue.json', 'coordinator-value', 21, '0', '0+'),
    'StreamsGroupTargetAssignmentMetadataKey': Entry('coordinator', 'StreamsGroupTargetAssignmentMetadataKey.json', 'coordinator-key', 20, '0', 'none'),
    'StreamsGroupTargetAssignmentMetadataValue': Entry('coordinator', 'StreamsGroupTargetAssignmentMetadataValue.json', 'coordinator-value', 20, '0', '0+'),
    'StreamsGroupTopologyKey': Entry('coordinator', 'StreamsGroupTopologyKey.json', 'coordinator-key', 23, '0', 'none'),
    'StreamsGroupTopologyValue': Entry('coordinator', 'StreamsGroupTopologyValue.json', 'coordinator-value', 23, '0', '0+'),
    'TransactionLogKey': Entry('coordinator', 'TransactionLogKey.json', 'coordinator-key', 0, '0', 'none'),
    'TransactionLogValue': Entry('coordinator', 'TransactionLogValue.json', 'coordinator-value', 0, '0-1', '1+'),
    'AbortTransactionRecord': Entry('metadata', 'AbortTransactionRecord.json', 'metadata', 25, '0', '0+'),
    'AccessControlEntryRecord': Entry('metadata', 'AccessControlEntryRecord.json', 'metadata', 18, '0', '0+'),
    'BeginTransactionRecord': Entry('metadata', 'BeginTransactionRecord.json', 'metadata', 23, '0', '0+'),
    'BrokerRegistrationChangeRecord': Entry('metadata', 'BrokerRegistrationChangeRecord.json', 'metadata', 17, '0-3', '0+'),
    'ClearElrRecord': Entry('metadata', 'ClearElrRecord.json', 'metadata', 28, '0', '0+'),
    'ClientQuotaRecord': Entry('metadata', 'ClientQuotaRecord.json', 'metadata', 14, '0', '0+'),
    'ConfigRecord': Entry('metadata', 'ConfigRecord.json', 'metadata', 4, '0', '0+'),
    'DelegationTokenRecord': Entry('metadata', 'DelegationTokenRecord.json', 'metadata', 10, '0', '0+'),
    'EndTransactionRecord': Entry('metadata', 'EndTransactionRecord.json', 'metadata', 24, '0', '0+'),
    'FeatureLevelRecord': Entry('metadata', 'FeatureLevelRecord.json', 'metadata', 12, '0', '0+'),
    'FenceBrokerRecord': Entry('metadata', 'FenceBrokerRecord.json', 'metadata', 7, '0', '0+'),
    'NoOpRecord': Entry('metadata', 'NoOpRecord.json', 'metadata', 20, '0', '0+'),
    'PartitionChangeRecord': Entry('metadata', 'PartitionChangeRecord.json', 'metadata', 5, '0-2', '0+'),
    'PartitionRecord': Entry('metadata', 'PartitionRecord.json', 'metadata', 3, '0-2', '0+'),
    'ProducerIdsRecord': Entry('metadata', 'ProducerIdsRecord.json', 'metadata', 15, '0', '0+'),
    'RegisterBrokerRecord': Entry('metadata', 'RegisterBrokerRecord.json', 'metadata', 0, '0-4', '0+'),
    'RegisterControllerRecord': Entry('metadata', 'RegisterControllerRecord.json', 'metadata', 27, '0', '0+'),
    'RemoveAccessControlEntryRecord': Entry('metadata', 'RemoveAccessControlEntryRecord.json', 'metadata', 19, '0', '0+'),
    'RemoveDelegationTokenRecord': Entry('metadata', 'RemoveDelegationTokenRecord.json', 'metadata', 26, '0', '0+'),
    'RemoveTopicRecord': Entry('metadata', 'RemoveTopicRecord.json', 'metadata', 9, '0', '0+'),
    'RemoveUserScramCredentialRecord': Entry('metadata', 'RemoveUserScramCredentialRecord.json', 'metadata', 22, '0', '0+'),
    'TopicRecord': Entry('metadata', 'TopicRecord.json', 'metadata', 2, '0', '0+'),
    'UnfenceBrokerRecord': Entry('metadata', 'UnfenceBrokerRecord.json', 'metadata', 8, '0', '0+'),
    'UnregisterBrokerRecord': Entry('metadata', 'UnregisterBrokerRecord.json', 'metadata', 1, '0', '0+'),
    'UnregisterControllerRecord': Entry('metadata', 'UnregisterControllerRecord.json', 'metadata', 29, '0', '0+'),
    'UserScramCredentialRecord': Entry('metadata', 'UserScramCredentialRecord.json', 'metadata', 11, '0', '0+'),
    'ZkMigrationStateRecord': Entry('metadata', 'ZkMigrationStateRecord.json', 'metadata', 21, '0', '0+'),
    'KRaftVersionRecord': Entry('raft', 'KRaftVersionRecord.json', 'data', None, '0', '0+'),
    'LeaderChangeMessage': Entry('raft', 'LeaderChangeMessage.json', 'data', None, '0-1', '0+'),
    'QuorumStateData': Entry('raft', 'QuorumStateData.json', 'data', None, '0-1', '0+'),
    'SnapshotFooterRecord': Entry('raft', 'SnapshotFooterRecord.json', 'data', None, '0', '0+'),
    'SnapshotHeaderRecord': Entry('raft', 'SnapshotHeaderRecord.json', 'data', None, '0', '0+'),
    'VotersRecord': Entry('raft', 'VotersRecord.json', 'data', None, '0', '0+'),
    'RemoteLogSegmentMetadataRecord': Entry('remote', 'RemoteLogSegmentMetadataRecord.json', 'metadata', 0, '0', '0+'),
    'RemoteLogSegmentMetadataSnapshotRecord': Entry('remote', 'RemoteLogSegmentMetadataSnapshotRecord.json', 'metadata', 3, '0', '0+'),
    'RemoteLogSegmentMetadataUpdateRecord': Entry('remote', 'RemoteLogSegmentMetadataUpdateRecord.json', 'metadata', 1, '0', '0+'),
    'RemotePartitionDeleteMetadataRecord': Entry('remote', 'RemotePartitionDeleteMetadataRecord.json', 'metadata', 2, '0', '0+'),
}
