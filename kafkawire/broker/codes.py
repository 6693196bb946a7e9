"""Kafka's error codes the broker answers with, by their ErrorCode names, and the other
protocol numbers its modules share."""

from __future__ import annotations

import uuid

from kafkawire.broker import acls as A
from kafkawire.error_codes import ErrorCode

# Kafka error codes the broker answers with.
NONE = ErrorCode.NONE.value
OFFSET_OUT_OF_RANGE = ErrorCode.OFFSET_OUT_OF_RANGE.value
CORRUPT_MESSAGE = ErrorCode.CORRUPT_MESSAGE.value
UNKNOWN_TOPIC_OR_PARTITION = ErrorCode.UNKNOWN_TOPIC_OR_PARTITION.value
LEADER_NOT_AVAILABLE = ErrorCode.LEADER_NOT_AVAILABLE.value
MESSAGE_TOO_LARGE = ErrorCode.MESSAGE_TOO_LARGE.value
COORDINATOR_NOT_AVAILABLE = ErrorCode.COORDINATOR_NOT_AVAILABLE.value
INVALID_TOPIC_EXCEPTION = ErrorCode.INVALID_TOPIC_EXCEPTION.value
INVALID_REQUIRED_ACKS = ErrorCode.INVALID_REQUIRED_ACKS.value
INVALID_GROUP_ID = ErrorCode.INVALID_GROUP_ID.value
UNSUPPORTED_VERSION = ErrorCode.UNSUPPORTED_VERSION.value
TOPIC_ALREADY_EXISTS = ErrorCode.TOPIC_ALREADY_EXISTS.value
INVALID_PARTITIONS = ErrorCode.INVALID_PARTITIONS.value
INVALID_REPLICATION_FACTOR = ErrorCode.INVALID_REPLICATION_FACTOR.value
INVALID_REQUEST = ErrorCode.INVALID_REQUEST.value
UNSUPPORTED_FOR_MESSAGE_FORMAT = ErrorCode.UNSUPPORTED_FOR_MESSAGE_FORMAT.value
INVALID_RECORD = ErrorCode.INVALID_RECORD.value
UNKNOWN_TOPIC_ID = ErrorCode.UNKNOWN_TOPIC_ID.value
TOPIC_AUTHORIZATION_FAILED = ErrorCode.TOPIC_AUTHORIZATION_FAILED.value
GROUP_AUTHORIZATION_FAILED = ErrorCode.GROUP_AUTHORIZATION_FAILED.value
CLUSTER_AUTHORIZATION_FAILED = ErrorCode.CLUSTER_AUTHORIZATION_FAILED.value
ILLEGAL_SASL_STATE = ErrorCode.ILLEGAL_SASL_STATE.value
TRANSACTIONAL_ID_AUTHORIZATION_FAILED = ErrorCode.TRANSACTIONAL_ID_AUTHORIZATION_FAILED.value
MISMATCHED_ENDPOINT_TYPE = ErrorCode.MISMATCHED_ENDPOINT_TYPE.value

API_VERSIONS = 18
# Kafka's connection.failed.authentication.delay.ms: a refused client gets time to read
# the refusal before the connection closes (clients that see the close first report a
# lost connection instead of the reason)
FAILED_AUTHENTICATION_DELAY = 0.1

ZERO_UUID = uuid.UUID(int=0)

# The operations a topic has (READ .. DESCRIBE_CONFIGS, ALTER_CONFIGS)
TOPIC_OPERATIONS = (
    A.READ,
    A.WRITE,
    A.CREATE,
    A.DELETE,
    A.ALTER,
    A.DESCRIBE,
    A.DESCRIBE_CONFIGS,
    A.ALTER_CONFIGS,
)
ALL_TOPIC_OPERATIONS = sum(1 << b for b in TOPIC_OPERATIONS)
# The operations the cluster has (what Kafka 4.4 reports without an authorizer)
CLUSTER_OPERATIONS = (
    A.CREATE,
    A.ALTER,
    A.DESCRIBE,
    A.CLUSTER_ACTION,
    A.DESCRIBE_CONFIGS,
    A.ALTER_CONFIGS,
    A.IDEMPOTENT_WRITE,
)
ALL_CLUSTER_OPERATIONS = sum(1 << b for b in CLUSTER_OPERATIONS)
BROKER_ENDPOINT = 1  # DescribeCluster's endpoint type of brokers (2: controllers)
