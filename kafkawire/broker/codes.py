"""The protocol numbers the broker's modules share that Kafka's schema does not hold
(error codes are :class:`~kafkawire.protocol.error_codes.ErrorCode`, API keys
:class:`~kafkawire.protocol.schema.catalog.ApiKey`)."""

from __future__ import annotations

import uuid

from kafkawire.broker import acls as A

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
