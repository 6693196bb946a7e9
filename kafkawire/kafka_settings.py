"""The settings Kafka's Java clients accept, as data: what ``kafka-cluster`` checks a
``kafka.``-prefixed option against.

:data:`CONSUMER` and :data:`PRODUCER` are the names Kafka 4.4.0's ``ConsumerConfig`` and
``ProducerConfig`` define (``tests/support/kafka/KafkaClientSettings.java names`` prints
them from the kafka-clients jar, and a test checks them against it).  Spark's Kafka connector hands every ``kafka.``
option to those clients, so each of these names is accepted.  The settings
``kafka-cluster`` acts on are the ``kafka.`` tables of :mod:`kafkawire.datasource_options`;
the rest are :data:`NO_EFFECT` (with why), :data:`CONNECTOR_REFUSES` (refused by Spark's
connector itself, with its words) or :data:`NOT_RUN` (a Java class or indirection a
Python client cannot honour, an error saying so).

Nothing here imports pyspark.
"""

from __future__ import annotations

from typing import Dict, FrozenSet, Tuple

KAFKA_VERSION = "4.4.0"

#: the values of ``isolation.level``, in the order of the wire's IsolationLevel (0, 1)
ISOLATION_LEVELS: Tuple[str, str] = ("read_uncommitted", "read_committed")

#: the settings ``ConsumerConfig`` and ``ProducerConfig`` both define (connection, security,
#: metadata, metrics)
_SHARED: FrozenSet[str] = frozenset(
    (
        "bootstrap.resolve.timeout.ms",
        "bootstrap.servers",
        "client.dns.lookup",
        "client.id",
        "client.rack",
        "config.providers",
        "connections.max.idle.ms",
        "enable.metrics.push",
        "interceptor.classes",
        "metadata.cluster.check.enable",
        "metadata.max.age.ms",
        "metadata.recovery.rebootstrap.trigger.ms",
        "metadata.recovery.strategy",
        "metric.reporters",
        "metrics.num.samples",
        "metrics.recording.level",
        "metrics.sample.window.ms",
        "receive.buffer.bytes",
        "reconnect.backoff.max.ms",
        "reconnect.backoff.ms",
        "request.timeout.ms",
        "retry.backoff.max.ms",
        "retry.backoff.ms",
        "sasl.client.callback.handler.class",
        "sasl.jaas.config",
        "sasl.kerberos.kinit.cmd",
        "sasl.kerberos.min.time.before.relogin",
        "sasl.kerberos.service.name",
        "sasl.kerberos.ticket.renew.jitter",
        "sasl.kerberos.ticket.renew.window.factor",
        "sasl.login.callback.handler.class",
        "sasl.login.class",
        "sasl.login.connect.timeout.ms",
        "sasl.login.read.timeout.ms",
        "sasl.login.refresh.buffer.seconds",
        "sasl.login.refresh.min.period.seconds",
        "sasl.login.refresh.window.factor",
        "sasl.login.refresh.window.jitter",
        "sasl.login.retry.backoff.max.ms",
        "sasl.login.retry.backoff.ms",
        "sasl.mechanism",
        "sasl.oauthbearer.allow.unverified.audience",
        "sasl.oauthbearer.allow.unverified.issuer",
        "sasl.oauthbearer.assertion.algorithm",
        "sasl.oauthbearer.assertion.claim.aud",
        "sasl.oauthbearer.assertion.claim.exp.seconds",
        "sasl.oauthbearer.assertion.claim.iss",
        "sasl.oauthbearer.assertion.claim.jti.include",
        "sasl.oauthbearer.assertion.claim.nbf.seconds",
        "sasl.oauthbearer.assertion.claim.sub",
        "sasl.oauthbearer.assertion.file",
        "sasl.oauthbearer.assertion.private.key.file",
        "sasl.oauthbearer.assertion.private.key.passphrase",
        "sasl.oauthbearer.assertion.template.file",
        "sasl.oauthbearer.client.credentials.client.id",
        "sasl.oauthbearer.client.credentials.client.secret",
        "sasl.oauthbearer.clock.skew.seconds",
        "sasl.oauthbearer.expected.audience",
        "sasl.oauthbearer.expected.issuer",
        "sasl.oauthbearer.header.urlencode",
        "sasl.oauthbearer.jwks.endpoint.refresh.ms",
        "sasl.oauthbearer.jwks.endpoint.retry.backoff.max.ms",
        "sasl.oauthbearer.jwks.endpoint.retry.backoff.ms",
        "sasl.oauthbearer.jwks.endpoint.url",
        "sasl.oauthbearer.jwt.retriever.class",
        "sasl.oauthbearer.jwt.validator.class",
        "sasl.oauthbearer.scope",
        "sasl.oauthbearer.scope.claim.name",
        "sasl.oauthbearer.sub.claim.name",
        "sasl.oauthbearer.token.endpoint.url",
        "security.protocol",
        "security.providers",
        "send.buffer.bytes",
        "socket.connection.setup.timeout.max.ms",
        "socket.connection.setup.timeout.ms",
        "ssl.cipher.suites",
        "ssl.enabled.protocols",
        "ssl.endpoint.identification.algorithm",
        "ssl.engine.factory.class",
        "ssl.key.password",
        "ssl.keymanager.algorithm",
        "ssl.keystore.certificate.chain",
        "ssl.keystore.key",
        "ssl.keystore.location",
        "ssl.keystore.password",
        "ssl.keystore.type",
        "ssl.protocol",
        "ssl.provider",
        "ssl.secure.random.implementation",
        "ssl.trustmanager.algorithm",
        "ssl.truststore.certificates",
        "ssl.truststore.location",
        "ssl.truststore.password",
        "ssl.truststore.type",
    )
)

#: ``ConsumerConfig.configNames()``
CONSUMER: FrozenSet[str] = _SHARED | frozenset(
    (
        "allow.auto.create.topics",
        "auto.commit.interval.ms",
        "auto.offset.reset",
        "check.crcs",
        "default.api.timeout.ms",
        "enable.auto.commit",
        "exclude.internal.topics",
        "fetch.max.bytes",
        "fetch.max.wait.ms",
        "fetch.min.bytes",
        "group.id",
        "group.instance.id",
        "group.protocol",
        "group.remote.assignor",
        "heartbeat.interval.ms",
        "internal.throw.on.fetch.stable.offset.unsupported",
        "isolation.level",
        "key.deserializer",
        "max.partition.fetch.bytes",
        "max.poll.interval.ms",
        "max.poll.records",
        "partition.assignment.strategy",
        "session.timeout.ms",
        "share.acknowledgement.mode",
        "share.acquire.mode",
        "value.deserializer",
    )
)

#: ``ProducerConfig.configNames()``
PRODUCER: FrozenSet[str] = _SHARED | frozenset(
    (
        "acks",
        "batch.size",
        "buffer.memory",
        "buffer.memory.allocation.strategy",
        "compression.gzip.level",
        "compression.lz4.level",
        "compression.type",
        "compression.zstd.level",
        "delivery.timeout.ms",
        "enable.idempotence",
        "key.serializer",
        "linger.ms",
        "max.block.ms",
        "max.in.flight.requests.per.connection",
        "max.request.size",
        "metadata.max.idle.ms",
        "partitioner.adaptive.partitioning.enable",
        "partitioner.availability.timeout.ms",
        "partitioner.class",
        "partitioner.ignore.keys",
        "partitioner.rack.aware",
        "retries",
        "transaction.timeout.ms",
        "transaction.two.phase.commit.enable",
        "transactional.id",
        "value.serializer",
    )
)

#: settings of Kafka's clients that change nothing in ``kafka-cluster``, by the reason
NO_EFFECT: Tuple[Tuple[str, Tuple[str, ...]], ...] = (
    (
        "kafka-cluster joins no consumer group: Spark plans which partitions and offsets each task "
        "reads, and the offsets live in its checkpoint",
        (
            "auto.commit.interval.ms",
            "group.instance.id",
            "group.protocol",
            "group.remote.assignor",
            "heartbeat.interval.ms",
            "internal.throw.on.fetch.stable.offset.unsupported",
            "max.poll.interval.ms",
            "partition.assignment.strategy",
            "session.timeout.ms",
            "share.acknowledgement.mode",
            "share.acquire.mode",
        ),
    ),
    (
        "``subscribePattern`` leaves internal topics out, and a topic that does not exist is an "
        "error naming it, as with Kafka's defaults",
        ("allow.auto.create.topics", "exclude.internal.topics"),
    ),
    ("every batch's CRC is checked", ("check.crcs",)),
    (
        "a task fetches the range it was planned and hands Spark Arrow batches of up to one "
        "Fetch response: nothing polls",
        ("max.poll.records",),
    ),
    ("tasks read from each partition's leader", ("client.rack",)),
    (
        "kafka-cluster reports no client metrics",
        (
            "enable.metrics.push",
            "metric.reporters",
            "metrics.num.samples",
            "metrics.recording.level",
            "metrics.sample.window.ms",
        ),
    ),
    (
        "connections are opened when needed, metadata is asked again after an error, and "
        "host names are resolved by the system's resolver; ``default.api.timeout.ms`` bounds "
        "the retries",
        (
            "bootstrap.resolve.timeout.ms",
            "client.dns.lookup",
            "connections.max.idle.ms",
            "metadata.cluster.check.enable",
            "metadata.max.age.ms",
            "metadata.max.idle.ms",
            "metadata.recovery.rebootstrap.trigger.ms",
            "metadata.recovery.strategy",
            "reconnect.backoff.max.ms",
            "reconnect.backoff.ms",
        ),
    ),
    (
        "Java's security plumbing: Python's ``ssl`` module (OpenSSL) does the TLS",
        (
            "security.providers",
            "ssl.keymanager.algorithm",
            "ssl.provider",
            "ssl.secure.random.implementation",
            "ssl.trustmanager.algorithm",
        ),
    ),
    (
        "Kerberos tickets are renewed by the GSS-API library from the keytab or ticket cache",
        (
            "sasl.kerberos.kinit.cmd",
            "sasl.kerberos.min.time.before.relogin",
            "sasl.kerberos.ticket.renew.jitter",
            "sasl.kerberos.ticket.renew.window.factor",
        ),
    ),
    (
        "read only by logins kafkawire does not run: OAUTHBEARER's JWT-assertion grant (its "
        "client-credentials grant is run), a broker's token validation, login classes of Java code",
        (
            "sasl.login.class",
            "sasl.oauthbearer.allow.unverified.audience",
            "sasl.oauthbearer.allow.unverified.issuer",
            "sasl.oauthbearer.assertion.algorithm",
            "sasl.oauthbearer.assertion.claim.aud",
            "sasl.oauthbearer.assertion.claim.exp.seconds",
            "sasl.oauthbearer.assertion.claim.iss",
            "sasl.oauthbearer.assertion.claim.jti.include",
            "sasl.oauthbearer.assertion.claim.nbf.seconds",
            "sasl.oauthbearer.assertion.claim.sub",
            "sasl.oauthbearer.assertion.file",
            "sasl.oauthbearer.assertion.private.key.file",
            "sasl.oauthbearer.assertion.private.key.passphrase",
            "sasl.oauthbearer.assertion.template.file",
            "sasl.oauthbearer.clock.skew.seconds",
            "sasl.oauthbearer.expected.audience",
            "sasl.oauthbearer.expected.issuer",
            "sasl.oauthbearer.jwks.endpoint.refresh.ms",
            "sasl.oauthbearer.jwks.endpoint.retry.backoff.max.ms",
            "sasl.oauthbearer.jwks.endpoint.retry.backoff.ms",
            "sasl.oauthbearer.jwks.endpoint.url",
            "sasl.oauthbearer.jwt.retriever.class",
            "sasl.oauthbearer.jwt.validator.class",
            "sasl.oauthbearer.scope.claim.name",
        ),
    ),
    (
        "a write task hands its rows to the producer as Spark gives them and waits for every "
        "acknowledgement; each codec runs at its default level; sends are retried until "
        "``default.api.timeout.ms``",
        (
            "buffer.memory.allocation.strategy",
            "compression.gzip.level",
            "compression.lz4.level",
            "compression.zstd.level",
            "delivery.timeout.ms",
            "max.block.ms",
            "partitioner.adaptive.partitioning.enable",
            "partitioner.availability.timeout.ms",
            "partitioner.rack.aware",
        ),
    ),
    (
        "the producer writes no transactions",
        ("transaction.timeout.ms", "transaction.two.phase.commit.enable"),
    ),
)

#: ``kafka.`` settings Spark's connector itself refuses, with its own explanation, for
#: reads and for writes
CONNECTOR_REFUSES: Dict[str, Dict[str, str]] = {
    "read": {
        "auto.offset.reset": (
            "Kafka option 'auto.offset.reset' is not supported. Instead set the source option "
            "'startingOffsets' to 'earliest' or 'latest' to specify where to start. Structured "
            "Streaming manages which offsets are consumed internally, rather than relying on the "
            "kafkaConsumer to do it."
        ),
        "key.deserializer": (
            "Kafka option 'key.deserializer' is not supported as keys are deserialized as byte "
            "arrays with ByteArrayDeserializer. Use DataFrame operations to explicitly deserialize "
            "the keys."
        ),
        "value.deserializer": (
            "Kafka option 'value.deserializer' is not supported as values are deserialized as byte "
            "arrays with ByteArrayDeserializer. Use DataFrame operations to explicitly deserialize "
            "the values."
        ),
        "enable.auto.commit": (
            "Kafka option 'enable.auto.commit' is not supported (committing correctly requires "
            "the source to commit, not the consumer)"
        ),
        "interceptor.classes": (
            "Kafka option 'interceptor.classes' is not supported (interceptors can modify the "
            "payload, so they are not safe)"
        ),
    },
    "write": {
        "key.serializer": (
            "Kafka option 'key.serializer' is not supported as keys are serialized with ByteArraySerializer."
        ),
        "value.serializer": (
            "Kafka option 'value.serializer' is not supported as value are serialized with "
            "ByteArraySerializer."
        ),
    },
}

#: ``kafka.`` settings Kafka's clients act on through Java code or an indirection a
#: Python client cannot run: an error, with why and what to do instead
NOT_RUN: Dict[str, str] = {
    "config.providers": (
        "kafka-cluster reads option values as written: put the values a config provider would "
        "have looked up (${provider:path:key}) in the options themselves"
    ),
    "interceptor.classes": "kafka-cluster runs no Java classes, so no producer interceptor",
    "ssl.engine.factory.class": (
        "kafka-cluster runs no Java classes: give the stores with the ssl.truststore.* and "
        "ssl.keystore.* settings"
    ),
    "transactional.id": (
        "kafka-cluster's producer is idempotent but writes no transactions (nor does Spark's "
        "connector, whose writes fail with it set)"
    ),
}
