"""The options of the ``kafka-log`` and ``kafka-cluster`` Spark data sources, each once.

Every option is an :class:`Option`: its name as Spark spells it (``.option(name, value)``;
case does not matter), its default as the string that means the same when given, and what
it does.  Every source and sink checks the names it is given with :func:`check_names`
against these tables (an option not listed is an error naming the one probably meant), the
``kafka.`` client settings take their defaults from here, and the documentation's option
tables are printed from these tuples.

Nothing here imports pyspark: the log and cluster packages read it without Spark.
"""

from __future__ import annotations

import logging
from typing import Dict, Iterable, List, Mapping, NamedTuple, Optional, Sequence, Set, Tuple, Union

from kafkawire import kafka_settings
from kafkawire.errors import OptionError


class Option(NamedTuple):
    """One data source option."""

    #: as written in ``.option(name, value)`` (case does not matter)
    name: str
    #: the value that means the same as leaving the option out; None when it has no
    #: such value (required, or worked out at run time: ``meaning`` says how)
    default: Optional[str]
    #: what the option does, one paragraph (inline ``code`` in double backquotes)
    meaning: str


def names(options: Sequence[Option]) -> Tuple[str, ...]:
    """The names of ``options``, as Spark spells them."""
    return tuple(o.name for o in options)


def defaults(options: Sequence[Option]) -> Dict[str, Optional[str]]:
    """Each option's name and default, in order."""
    return {o.name: o.default for o in options}


def parse_bool(value: Union[str, bool], name: str) -> bool:
    """A true/false option's value (``true``/``1``/``yes`` or ``false``/``0``/``no``, any case).

    A ``ValueError`` names option ``name`` for anything else.
    """
    if isinstance(value, bool):
        return value
    text = str(value).strip().lower()
    if text in ("true", "1", "yes"):
        return True
    if text in ("false", "0", "no"):
        return False
    raise ValueError(f"option {name} must be true or false, not {value!r}")


#: what ``spark.read.format("kafka-log")`` takes (:mod:`kafkawire.log.read` parses them)
KAFKA_LOG_READ: Tuple[Option, ...] = (
    Option("verifyCrc", "true", "Check each batch's CRC32C (CRC32 for legacy messages)."),
    Option("includeControl", "false", "Keep control records (transaction markers) as rows."),
    Option(
        "isolationLevel",
        "read_uncommitted",
        "``read_committed`` drops the records of aborted transactions, found from the abort "
        "markers of each partition's log in offset order, and stops at the last stable offset "
        "(the start of a transaction still open at the log's end), as a consumer would.",
    ),
    Option(
        "mode",
        "FAILFAST",
        "What a corrupt batch does: ``FAILFAST`` fails the query naming the file and byte "
        "position; ``DROPMALFORMED`` skips it; ``PERMISSIVE`` skips it and adds one row for it "
        "whose ``columnNameOfCorruptRecord`` column holds the error. A key or value that "
        "``keyFormat`` or ``valueFormat`` cannot decode is treated alike: the query fails "
        "naming its topic, partition and offset, the row is dropped, or the row keeps a null "
        "key or value and the error.",
    ),
    Option(
        "columnNameOfCorruptRecord",
        "_corrupt_record",
        "The column that holds the error of a corrupt batch, key or value in ``PERMISSIVE`` mode.",
    ),
    Option(
        "maxPartitionBytes",
        "128m",
        "The target size of one Spark partition (task), as Spark's file sources have it: "
        "bigger segments are cut at batch boundaries (from the ``.index`` when present), "
        "smaller ones are packed together; lowered so the log spreads over at least "
        "``minPartitions`` tasks, but never below ``openCostInBytes``.",
    ),
    Option(
        "openCostInBytes",
        None,
        "What opening one more segment counts for when segments are packed into tasks: by "
        "default 128k for a local file, 1m for an object in an object store.",
    ),
    Option(
        "minPartitions",
        None,
        "At least this many tasks, in whole waves of it; by default the planning machine's "
        "core count (set it to the cluster's on a cluster).",
    ),
    Option(
        "chunkBytes",
        "4m",
        "How much of a segment a task decodes at a time: its memory is bounded by this plus "
        "the largest batch.",
    ),
    Option(
        "backend",
        None,
        "``cython`` or ``python``: the kafkawire backend the tasks decode with (by default "
        "the one the worker runs).",
    ),
    Option(
        "remoteStoragePath",
        None,
        "Tiered storage: the remote tier as Kafka's file-based RemoteStorageManager "
        "(``LocalTieredStorage``) wrote it (its ``dir``). Each partition's remote segments "
        "are read before its local log, each offset once; needs ``remoteLogMetadataPath``.",
    ),
    Option(
        "remoteLogMetadataPath",
        None,
        "Tiered storage: the ``__remote_log_metadata`` log (the broker's log directory, or "
        "that topic's partition folders), which says which remote segments hold the history.",
    ),
)

#: how ``kafka-log`` reaches an object store, for ``s3://`` and ``s3a://`` paths
#: (:class:`kafkawire.log.storage.StorageOptions` parses them)
OBJECT_STORE: Tuple[Option, ...] = (
    Option(
        "endpoint",
        None,
        "An S3-compatible server's URL (``http://127.0.0.1:9000``); by default the AWS SDKs' "
        "``AWS_ENDPOINT_URL_S3``, else ``AWS_ENDPOINT_URL``, else AWS S3 of the region.",
    ),
    Option("region", None, "The bucket's region (by default the AWS SDK's: ``AWS_REGION`` and so on)."),
    Option(
        "accessKey",
        None,
        "The access key id, with ``secretKey`` (by default the AWS SDK's sources: "
        "``AWS_ACCESS_KEY_ID``, ``~/.aws/credentials``, the instance's role).",
    ),
    Option("secretKey", None, "The secret access key, with ``accessKey``."),
    Option("sessionToken", None, "The session token of temporary credentials."),
    Option("anonymous", "false", "Send unsigned requests, for a public bucket."),
    Option(
        "pathStyle",
        None,
        "``false``: virtual-host addressing (``bucket.host``) at an ``endpoint``, whose "
        "default is path-style (``host/bucket``); AWS itself is always addressed by virtual host.",
    ),
)
KAFKA_LOG_READ += OBJECT_STORE


def _column_format(column: str) -> Tuple[Option, ...]:
    """The options that decode the ``column`` (``key`` or ``value``) of a read."""
    return (
        Option(
            f"{column}Format",
            "binary",
            f"``binary``: the {column} as its bytes. ``avro``, ``protobuf``, ``json``: {column}s "
            "framed by Confluent's serializers, decoded in the read's tasks to a struct of the "
            "reader schema's fields (its type read from the registry when the query is "
            "planned); ``registry``: whichever of the three the reader schema is. Needs "
            "``schema.registry.url``.",
        ),
        Option(
            f"{column}Subject",
            None,
            f"The subject whose version is the reader schema of the {column}s (by default the "
            f"one ``{column}SubjectStrategy`` names for the topic read).",
        ),
        Option(
            f"{column}SubjectStrategy",
            "topic",
            f"How the subject is named when ``{column}Subject`` is not given: ``topic`` "
            f"(``<topic>-{column}``; a read of one topic), ``record`` (the record's full name, "
            f"``{column}Message``) or ``topic-record`` (``<topic>-<record>``); Confluent's "
            "class names (``TopicNameStrategy``, ...) too.",
        ),
        Option(
            f"{column}SchemaVersion",
            "latest",
            "The subject's version that is the reader schema: a number or ``latest`` (looked up "
            "once, when the query is planned: its tasks read by that schema's id).",
        ),
        Option(
            f"{column}SchemaId",
            None,
            f"The registry's id of the reader schema of the {column}s, instead of a subject.",
        ),
        Option(
            f"{column}ReaderSchema",
            None,
            "The reader schema as text, instead of the registry's: Avro JSON (``avro``; give "
            "only the fields a query needs and only those are decoded) or a JSON Schema "
            "(``json``).",
        ),
        Option(
            f"{column}Message",
            None,
            f"The full name of the Protobuf message the {column}s hold (by default the schema's "
            "first), or of the record the ``record`` subject strategies name.",
        ),
    )


#: how a source or sink reaches the Schema Registry, as Confluent's clients name it
#: (:mod:`kafkawire.spark.registry_columns`)
REGISTRY: Tuple[Option, ...] = (
    Option(
        "schema.registry.url",
        None,
        "The Schema Registry's URL (``https://registry:8081``); several, comma separated, are tried in turn.",
    ),
    Option(
        "schema.registry.basic.auth.credentials.source",
        "USER_INFO",
        "Where the basic credentials come from, as Confluent's clients take it: "
        "``USER_INFO`` (``schema.registry.basic.auth.user.info``) or ``URL`` (the "
        "``user:secret@`` of the URL).",
    ),
    Option("schema.registry.basic.auth.user.info", None, "``user:secret`` for HTTP basic authentication."),
    Option("schema.registry.bearer.auth.token", None, "A bearer token (Confluent's ``STATIC_TOKEN``)."),
    Option(
        "schema.registry.bearer.auth.logical.cluster",
        None,
        "Confluent Cloud: the registry's logical cluster (the ``target-sr-cluster`` header).",
    ),
    Option(
        "schema.registry.bearer.auth.identity.pool.id",
        None,
        "Confluent Cloud: the identity pool (the ``Confluent-Identity-Pool-Id`` header).",
    ),
    Option(
        "schema.registry.ssl.ca.location",
        None,
        "A PEM file of the CA certificates that an ``https`` registry's certificate is checked "
        "against (by default the system's).",
    ),
    Option(
        "schema.registry.ssl.certificate.location",
        None,
        "A PEM file of the client's certificate (chain), for mutual TLS.",
    ),
    Option("schema.registry.ssl.key.location", None, "A PEM file of the client's private key."),
    Option("schema.registry.ssl.key.password", None, "The password of that key, if it has one."),
    Option(
        "schema.registry.timeout.ms",
        "10000",
        "How long one request to the registry may take; a failed one is tried 3 more times.",
    ),
)
#: what decodes keys and values written by Confluent's serializers as a source reads them
COLUMN_FORMATS: Tuple[Option, ...] = (*_column_format("value"), *_column_format("key"), *REGISTRY)
KAFKA_LOG_READ += COLUMN_FORMATS


def _column_write_format(column: str) -> Tuple[Option, ...]:
    """The options that encode the ``column`` (``key`` or ``value``) of a write."""
    return (
        Option(
            f"{column}Format",
            "binary",
            f"``binary``: the ``{column}`` column as it is (string or binary). ``avro``, "
            f"``protobuf``, ``json``: a struct ``{column}`` column written framed as Confluent's "
            "``AvroSerializer``, ``ProtobufSerializer``, ``JSONSerializer`` frame it; ``registry``: "
            "in the type of the subject's latest version. The writer schema is registered or looked "
            "up once, when the write starts, and the column's type checked against it: every task "
            "writes that id. Needs ``schema.registry.url``.",
        ),
        Option(
            f"{column}WriterSchema",
            None,
            "The writer schema as text: Avro JSON (``avro``; by default derived from the column's "
            "type as ``to_avro`` derives it), ``.proto`` text (``protobuf``) or a JSON Schema "
            "(``json``); for these two, by default the subject's latest version.",
        ),
        Option(
            f"{column}Message",
            None,
            f"The full name of the Protobuf message the {column}s are (by default the schema's first).",
        ),
        Option(
            f"{column}Subject",
            None,
            f"The subject of the {column}s' schema (by default the one ``{column}SubjectStrategy`` "
            "names for the ``topic`` option).",
        ),
        Option(
            f"{column}SubjectStrategy",
            "topic",
            f"``topic`` (``<topic>-{column}``), ``record`` (the schema's record or message full "
            "name) or ``topic-record``; Confluent's class names too.",
        ),
    )


#: what encodes keys and values as Confluent's serializers do as a sink writes them
COLUMN_WRITE_FORMATS: Tuple[Option, ...] = (
    *_column_write_format("value"),
    *_column_write_format("key"),
    Option(
        "auto.register.schemas",
        "true",
        "Register the writer schema under its subject (as Confluent's serializers do by "
        "default); ``false`` looks its id up, and a schema the subject does not hold fails "
        "the write when it starts.",
    ),
    Option(
        "use.latest.version",
        "false",
        "Write with the subject's latest version instead of the writer schema given or derived "
        "(needs ``auto.register.schemas`` ``false``).",
    ),
    *REGISTRY,
)

#: what ``df.write.format("kafka-log")`` takes (:mod:`kafkawire.spark.kafka_log`)
KAFKA_LOG_WRITE: Tuple[Option, ...] = (
    Option("compression", "none", "The batches' codec: ``none``, ``gzip``, ``snappy``, ``lz4`` or ``zstd``."),
    Option("batchBytes", "1m", "The size a batch is filled to, before compression."),
    Option("segmentBytes", "1g", "The size at which a partition's segment is rolled to a new file."),
    Option(
        "indexIntervalBytes",
        "4096",
        "Bytes of log between two entries of the ``.index`` and ``.timeindex`` files.",
    ),
    Option("topic", None, "The topic of rows whose ``topic`` column is absent or null."),
    Option("partition", "0", "The partition of rows whose ``partition`` column is absent or null."),
    Option("backend", None, "``cython`` or ``python``: the kafkawire backend the tasks encode with."),
    *COLUMN_WRITE_FORMATS,
)

#: what ``spark.read.format("kafka-cluster")`` and ``readStream`` take besides the
#: ``kafka.`` settings (:mod:`kafkawire.cluster.plan`); Spark's Kafka connector's names
KAFKA_CLUSTER_READ: Tuple[Option, ...] = (
    Option(
        "subscribe",
        None,
        "Topics to read, comma separated (exactly one of ``subscribe``, ``subscribePattern`` "
        "and ``assign``).",
    ),
    Option(
        "subscribePattern",
        None,
        "A regular expression matched against whole topic names; internal topics are left out.",
    ),
    Option("assign", None, 'Partitions to read, as JSON: ``{"orders": [0, 1]}``.'),
    Option(
        "startingOffsets",
        "earliest",
        'Where to start: ``earliest``, ``latest``, or JSON ``{"orders": {"0": 23}}`` naming '
        "every partition read (-2: earliest, -1: latest). A stream starts at ``latest`` "
        "unless told otherwise.",
    ),
    Option(
        "endingOffsets",
        "latest",
        "Where a batch read ends: ``latest`` or JSON as for ``startingOffsets`` (-1: latest).",
    ),
    Option(
        "startingTimestamp", None, "Start every partition at the first record at or after this time (ms)."
    ),
    Option("endingTimestamp", None, "End every partition at the first record at or after this time (ms)."),
    Option(
        "startingOffsetsByTimestamp",
        None,
        'Start times per partition, as JSON ``{"orders": {"0": 1700000000000}}``.',
    ),
    Option("endingOffsetsByTimestamp", None, "End times per partition, as JSON."),
    Option(
        "startingOffsetsByTimestampStrategy",
        "error",
        "When no record reaches a starting time: ``error`` fails the query, ``latest`` starts "
        "at the latest offset.",
    ),
    Option(
        "minPartitions",
        None,
        "At least this many tasks: ranges are cut further in proportion to their sizes.",
    ),
    Option(
        "maxRecordsPerPartition", None, "Cut each partition's range into parts of at most this many records."
    ),
    Option("maxOffsetsPerTrigger", None, "Streams: at most this many records per micro-batch."),
    Option(
        "minOffsetsPerTrigger",
        None,
        "Streams: skip a trigger while fewer records than this are waiting, until "
        "``maxTriggerDelay`` has passed since the last batch (needs PySpark's ``ReadMinRows`` "
        "read limit, PySpark 4.2 or newer).",
    ),
    Option(
        "maxTriggerDelay",
        "15m",
        "Streams, with ``minOffsetsPerTrigger``: the longest a batch is put off, as Spark "
        "writes durations (``500ms``, ``30s``, ``15m``, ``1h``; a bare number is milliseconds).",
    ),
    Option(
        "fetchOffset.numRetries",
        "3",
        "How many times the driver tries its offset lookups (Metadata and ListOffsets of a "
        "plan or a trigger) before the query fails.",
    ),
    Option("fetchOffset.retryIntervalMs", "1000", "How long the driver waits between those tries."),
    Option(
        "groupIdPrefix",
        None,
        "The prefix of the consumer group id the connector makes up for a query; kafka-cluster "
        "joins no group: it is the group a stream commits to with ``commitOffsetsToGroup`` "
        "when ``kafka.group.id`` names none (the prefix is then the group's whole name).",
    ),
    Option(
        "commitOffsetsToGroup",
        "false",
        "Streams: ``true`` commits each finished micro-batch's end offsets to the consumer "
        "group ``kafka.group.id`` (else ``groupIdPrefix``) once Spark has committed the "
        "batch, so that Kafka's tools (``kafka-consumer-groups.sh``, lag monitors) see the "
        "query's progress; the group is not joined. Spark's connector commits nothing.",
    ),
    Option("includeHeaders", "false", "Add the ``headers`` column."),
    Option(
        "mode",
        "FAILFAST",
        "What a key or value that ``keyFormat`` or ``valueFormat`` cannot decode does (a bad "
        "magic byte, an unknown schema id, a truncated body): ``FAILFAST`` fails the query "
        "naming its topic, partition and offset; ``PERMISSIVE`` keeps the row with a null key "
        "or value and the error in the ``columnNameOfCorruptRecord`` column; "
        "``DROPMALFORMED`` drops the row.",
    ),
    Option(
        "columnNameOfCorruptRecord",
        "_corrupt_record",
        "The column that holds why a key or value did not decode, in ``PERMISSIVE`` mode.",
    ),
    Option(
        "failOnDataLoss",
        "true",
        "Fail, naming the topic, partition and offsets, when offsets asked for are gone "
        "(deleted by retention); ``false`` reads what is left.",
    ),
    Option(
        "kafkaConsumer.pollTimeoutMs",
        "120000",
        "How long a task keeps asking for records its range holds when the log seems to end "
        "before them (a new leader's high watermark can trail for a moment) before it judges "
        "them lost. The connector's default is ``spark.network.timeout``, 120 s unless set.",
    ),
    Option("backend", None, "``cython`` or ``python``: the kafkawire backend the tasks decode with."),
    *COLUMN_FORMATS,
)

#: the ``kafka.`` settings (prefix left out) of every ``kafka-cluster`` connection, with
#: Kafka's Java client defaults (:mod:`kafkawire.cluster.config`)
KAFKA_CLUSTER_CLIENT: Tuple[Option, ...] = (
    Option("bootstrap.servers", None, "``host:port[,host:port...]``: required."),
    Option("client.id", None, "The client id sent with each request (``kafkawire`` by default)."),
    Option("request.timeout.ms", "30000", "How long a request waits for its answer."),
    Option(
        "default.api.timeout.ms",
        "60000",
        "How long a call may spend in all, retrying moved leaders, lost connections and timeouts.",
    ),
    Option(
        "socket.connection.setup.timeout.ms",
        "10000",
        "How long a TCP connect to a broker may take (the handshakes that follow wait as a request does).",
    ),
    Option(
        "socket.connection.setup.timeout.max.ms",
        "30000",
        "The connect timeout doubles after each failed connect to the same broker, up to this.",
    ),
    Option("retry.backoff.ms", "100", "The first wait before a retry."),
    Option("retry.backoff.max.ms", "1000", "The longest wait before a retry."),
    Option(
        "receive.buffer.bytes",
        "-1",
        "The socket's receive buffer (SO_RCVBUF) in bytes; -1: the system's, which Linux grows "
        "as a connection needs (Kafka's clients ask 32 KiB or 64 KiB).",
    ),
    Option("send.buffer.bytes", "-1", "The socket's send buffer (SO_SNDBUF) in bytes; -1: the system's."),
    Option(
        "security.protocol",
        "PLAINTEXT",
        "``PLAINTEXT``, ``SSL``, ``SASL_PLAINTEXT`` or ``SASL_SSL``.",
    ),
    Option(
        "sasl.mechanism",
        "GSSAPI",
        "``PLAIN``, ``SCRAM-SHA-256``, ``SCRAM-SHA-512``, ``GSSAPI`` (Kerberos, Kafka's default), "
        "``OAUTHBEARER`` (tokens from an OAuth server, or Amazon MSK's IAM signer) or ``AWS_MSK_IAM``.",
    ),
    Option(
        "sasl.jaas.config",
        None,
        "The JAAS line of the mechanism's login module, read for ``username`` and ``password`` "
        "(and SCRAM's ``tokenauth=true``: a delegation token's id and HMAC); "
        "for GSSAPI, ``Krb5LoginModule`` with ``useKeyTab=true keyTab=... principal=...`` or "
        "``useTicketCache=true`` (none: the default ticket cache); for OAUTHBEARER, "
        "``OAuthBearerLoginModule`` with ``clientId``, ``clientSecret``, ``scope`` and "
        "``extension_<name>`` options; for Amazon MSK, ``IAMLoginModule`` with ``awsProfileName`` "
        "or ``awsRoleArn`` (``awsRoleSessionName``, ``awsRoleExternalId``, ``awsStsRegion``).",
    ),
    Option(
        "sasl.login.callback.handler.class",
        None,
        "OAUTHBEARER's token source: Kafka's ``OAuthBearerLoginCallbackHandler`` (the OAuth "
        "client-credentials grant at ``sasl.oauthbearer.token.endpoint.url``) or Amazon's "
        "``software.amazon.msk.auth.iam.IAMOAuthBearerLoginCallbackHandler`` (MSK's IAM token).",
    ),
    Option(
        "sasl.client.callback.handler.class",
        None,
        "``software.amazon.msk.auth.iam.IAMClientCallbackHandler`` with ``AWS_MSK_IAM`` (the AWS "
        "credential chain); no other class is taken.",
    ),
    Option(
        "sasl.oauthbearer.token.endpoint.url",
        None,
        "The OAuth server's token endpoint (``https:``/``http:``), or a ``file:`` URL of a file "
        "holding the token.",
    ),
    Option(
        "sasl.oauthbearer.client.credentials.client.id",
        None,
        "The OAuth client id (else the JAAS line's ``clientId``).",
    ),
    Option(
        "sasl.oauthbearer.client.credentials.client.secret",
        None,
        "The OAuth client secret (else the JAAS line's ``clientSecret``).",
    ),
    Option(
        "sasl.oauthbearer.scope",
        None,
        "The scope asked of the OAuth server (else the JAAS line's ``scope``).",
    ),
    Option(
        "sasl.oauthbearer.header.urlencode",
        "false",
        "URL-encode the client id and secret before they go into the HTTP Basic header.",
    ),
    Option("sasl.oauthbearer.sub.claim.name", "sub", "The token claim that names its subject."),
    Option(
        "sasl.login.refresh.window.factor",
        "0.8",
        "A new token is fetched at this fraction of the held one's lifetime (plus the jitter).",
    ),
    Option("sasl.login.refresh.window.jitter", "0.05", "Up to this fraction more, at random."),
    Option(
        "sasl.login.refresh.min.period.seconds", "60", "A new token is fetched no sooner than this after one."
    ),
    Option(
        "sasl.login.refresh.buffer.seconds", "300", "A new token is fetched no later than this before expiry."
    ),
    Option("sasl.login.connect.timeout.ms", "10000", "How long connecting to the token endpoint may take."),
    Option("sasl.login.read.timeout.ms", "10000", "How long the token endpoint may take to answer."),
    Option("sasl.login.retry.backoff.ms", "100", "The first wait before asking the token endpoint again."),
    Option(
        "sasl.login.retry.backoff.max.ms",
        "10000",
        "The longest wait before asking the token endpoint again; the retries stop once they "
        "have waited this long in all.",
    ),
    Option(
        "sasl.kerberos.service.name",
        None,
        "GSSAPI: the primary of the brokers' principals (``kafka`` for ``kafka/host@REALM``).",
    ),
    Option(
        "ssl.truststore.type",
        "JKS",
        "``JKS``, ``PKCS12`` or ``PEM``, as in Kafka (JKS and PKCS12 need the ``stores`` extra: "
        "``pip install kafkawire[stores]``); ``ssl.truststore.certificates`` is PEM whatever the type.",
    ),
    Option(
        "ssl.truststore.location",
        None,
        "The trust store file of the trusted CA certificates (else the system's).",
    ),
    Option(
        "ssl.truststore.password",
        None,
        "The trust store's password (JKS and PKCS12; a JKS store is read without it too).",
    ),
    Option("ssl.truststore.certificates", None, "The trusted CA certificates as PEM text."),
    Option(
        "ssl.keystore.type",
        "JKS",
        "``JKS``, ``PKCS12`` or ``PEM``: the key store's format; the PEM text options are PEM whatever the type.",
    ),
    Option(
        "ssl.keystore.location",
        None,
        "The key store file holding the client's private key and certificate chain.",
    ),
    Option("ssl.keystore.password", None, "The key store's password (JKS and PKCS12)."),
    Option(
        "ssl.keystore.key",
        None,
        "The client's private key as PEM text (with ``ssl.keystore.certificate.chain``).",
    ),
    Option("ssl.keystore.certificate.chain", None, "The client's certificate chain as PEM text."),
    Option(
        "ssl.key.password",
        None,
        "The password of the private key (a PEM key's encryption; in a JKS or PKCS12 store, "
        "by default the store's password).",
    ),
    Option(
        "ssl.protocol",
        "TLSv1.3",
        "``TLSv1.3`` or ``TLSv1.2`` (``TLS`` alike): with ``ssl.enabled.protocols`` unset, the "
        "newest version the connection may use; TLSv1.3 also allows TLSv1.2, as Java's does.",
    ),
    Option(
        "ssl.enabled.protocols",
        "TLSv1.2,TLSv1.3",
        "The TLS versions a connection may use, comma separated (``TLSv1.2``, ``TLSv1.3``).",
    ),
    Option(
        "ssl.cipher.suites",
        None,
        "The TLS 1.2 cipher suites a connection may use, by their IANA names as Java takes "
        "them (``TLS_ECDHE_RSA_WITH_AES_256_GCM_SHA384``) or OpenSSL's; by default OpenSSL's.",
    ),
    Option(
        "ssl.endpoint.identification.algorithm",
        "https",
        "The empty string turns off the check that the broker's certificate names its host.",
    ),
)

#: the consumer's ``kafka.`` settings a read takes besides the connection's
KAFKA_CLUSTER_READ_CLIENT: Tuple[Option, ...] = (
    Option(
        "group.id",
        None,
        "The query's consumer group, as the connector takes it: no group is joined, since "
        "Spark assigns the partitions; a stream commits its offsets to it with "
        "``commitOffsetsToGroup``.",
    ),
    Option(
        "isolation.level",
        "read_uncommitted",
        "``read_committed`` drops the records of aborted transactions and stops at the last stable offset.",
    ),
    Option("fetch.max.bytes", str(50 << 20), "The most one Fetch response may hold."),
    Option("fetch.min.bytes", "1", "The least a broker gathers before it answers a Fetch."),
    Option(
        "fetch.max.wait.ms",
        "500",
        "How long a broker may wait for ``fetch.min.bytes`` before it answers a Fetch.",
    ),
    Option(
        "max.partition.fetch.bytes", str(1 << 20), "The most one Fetch response may hold of one partition."
    ),
)

#: what ``df.write.format("kafka-cluster")`` and ``writeStream`` take besides the
#: connection's ``kafka.`` settings (:mod:`kafkawire.spark.kafka_cluster`)
KAFKA_CLUSTER_WRITE: Tuple[Option, ...] = (
    Option("topic", None, "The topic of every row (overrides the ``topic`` column)."),
    Option("backend", None, "``cython`` or ``python``: the kafkawire backend the tasks encode with."),
    Option("checkpointLocation", None, "Streams: Spark's own, handed to the writer with the rest."),
    Option(
        "includeHeaders",
        "false",
        "Taken as the connector takes it on a write: a ``headers`` column is written whenever "
        "the rows have one.",
    ),
    *COLUMN_WRITE_FORMATS,
)

#: the producer's ``kafka.`` settings a write takes besides the connection's
KAFKA_CLUSTER_WRITE_CLIENT: Tuple[Option, ...] = (
    Option("compression.type", "none", "``none``, ``gzip``, ``snappy``, ``lz4`` or ``zstd``."),
    Option("batch.size", "16384", "The size a batch is filled to, in bytes."),
    Option(
        "acks",
        "all",
        "``all`` (or ``-1``): every batch acknowledged by the in-sync replicas; ``1``: by the "
        "leader; ``0``: sent without waiting for an answer. With ``enable.idempotence`` "
        "unset the producer is idempotent under ``all`` only, as Kafka's is.",
    ),
    Option(
        "enable.idempotence",
        "true",
        "Number each batch so that a retried one is written once. Set ``true`` it needs "
        "``acks`` ``all``, ``retries`` above 0 and ``max.in.flight.requests.per.connection`` "
        "of at most 5 (an error otherwise); left out, it gives way to a setting that "
        "conflicts, as in Kafka's producer.",
    ),
    Option(
        "linger.ms",
        "5",
        "How long a write task waits for Spark's next rows before it sends the batches it "
        "has encoded: rows that come within it go out in the same Produce requests; ``0`` "
        "sends each Arrow batch Spark hands over at once.",
    ),
    Option(
        "max.request.size",
        "1048576",
        "The largest record a write takes (a bigger one fails naming the topic), and the "
        "largest batch (``batch.size`` is lowered to it).",
    ),
    Option(
        "max.in.flight.requests.per.connection",
        "5",
        "How many Produce requests are on the wire at once.",
    ),
    Option(
        "retries",
        "2147483647",
        "How many times a failed Produce is sent again (within ``default.api.timeout.ms``); "
        "``0`` fails at the first error.",
    ),
    Option(
        "buffer.memory", str(32 << 20), "How many bytes of encoded batches a task buffers before it sends."
    ),
    Option(
        "partitioner.class",
        None,
        "Kafka's own partitioners only: ``org.apache.kafka.clients.producer.RoundRobinPartitioner`` "
        "(keyed rows too go round the partitions) or the default; another class is an error naming it.",
    ),
    Option(
        "partitioner.ignore.keys",
        "false",
        "``true``: keys do not choose the partition, keyless stickiness does.",
    ),
)

#: what each source takes, for reads and for writes (a ``kafka-cluster`` stream reads and
#: writes as its batch queries do), besides the ``kafka.`` settings of ``kafka-cluster``
SOURCES: Dict[Tuple[str, str], Tuple[Option, ...]] = {
    ("kafka-log", "read"): KAFKA_LOG_READ,
    ("kafka-log", "write"): KAFKA_LOG_WRITE,
    ("kafka-cluster", "read"): KAFKA_CLUSTER_READ,
    ("kafka-cluster", "write"): KAFKA_CLUSTER_WRITE,
}
#: what Spark itself passes to ``kafka-log`` with the options: the paths of ``load``/``save``
PATH_OPTIONS = ("path", "paths")

_log = logging.getLogger("kafkawire.cluster")
_warned: Set[str] = set()  # each warning once a process: Spark may run a query many times


def _warn_once(message: str) -> None:
    if message not in _warned:
        _warned.add(message)
        _log.warning(message)


def _plain(name: str) -> str:
    return name.lower().replace("_", "").replace("-", "").replace(".", "")


def nearest(name: str, names: Iterable[str], cutoff: float) -> Optional[str]:
    """The name of ``names`` that ``name`` most likely misspells: the same but for case,
    ``_``, ``-`` and ``.``, else the closest at least ``cutoff`` alike (difflib's ratio)."""
    import difflib  # only for a name that is wrong: Spark's workers import this module

    by_plain = {_plain(n): n for n in names}
    found = difflib.get_close_matches(_plain(name), list(by_plain), n=1, cutoff=cutoff)
    return by_plain.get(_plain(name)) or (by_plain[found[0]] if found else None)


def writes_only(options: Mapping[str, object], source: str) -> bool:
    """Whether ``options`` hold an option that writes of ``source`` take and reads do not:
    the options of a write, which Spark may ask for a schema as it asks a read."""
    read = {n.lower() for n in names(SOURCES[source, "read"])}
    write = {n.lower() for n in names(SOURCES[source, "write"])}
    return any(str(k).lower() in write - read for k in options)


def check_names(options: Mapping[str, object], source: str, side: str) -> None:
    """Check the option names of a ``source`` (``kafka-log``, ``kafka-cluster``) query on
    ``side`` (``read``, ``write``), case aside: every source and sink checks with this.

    A name the source does not take raises :class:`~kafkawire.errors.OptionError` naming
    it and the option probably meant.  ``kafka-cluster`` takes what Spark's Kafka
    connector takes: the ``kafka.`` settings of Kafka's consumer (reads) or producer
    (writes), a setting of the other client or an option the connector ignores with a
    warning naming it, since Spark hands a source options meant for others; a near miss
    of an option (``maxOffsetPerTrigger``) or any other ``kafka.`` name is an error, and
    a setting the connector refuses gets its explanation."""
    known = names(SOURCES[source, side])
    taken = {n.lower() for n in known}
    connector = source == "kafka-cluster"
    doing = "reading a Kafka cluster" if side == "read" else "writing to a Kafka cluster"
    client = kafka_settings.CONSUMER if side == "read" else kafka_settings.PRODUCER
    every = kafka_settings.CONSUMER | kafka_settings.PRODUCER
    unknown: List[Tuple[str, Optional[str]]] = []  # each with the name probably meant
    for key in sorted(str(k) for k in options):
        low = key.lower()
        if low in taken or (not connector and low in PATH_OPTIONS):
            continue
        if not connector:  # any near name helps: every unknown name is an error
            unknown.append((key, nearest(key, (*known, *PATH_OPTIONS), cutoff=0.6)))
            continue
        if low.startswith("kafka."):
            name = low[len("kafka.") :]
            refusal = kafka_settings.CONNECTOR_REFUSES[side].get(name) or kafka_settings.NOT_RUN.get(name)
            if refusal is not None:
                raise OptionError(f"option {key}: {refusal}")
            if name in client:
                continue
            if name in every:
                _warn_once(
                    f"option {key} is a {'producer' if side == 'read' else 'consumer'} setting:"
                    f" {doing} does not use it"
                )
                continue
            near = nearest(name, sorted(every), cutoff=0.8)
            unknown.append((key, None if near is None else f"kafka.{near}"))
            continue
        # only a near miss (of an option or a setting) is surely a typo: the connector
        # ignores the rest
        near = nearest(key, (*known, *(f"kafka.{n}" for n in sorted(every))), cutoff=0.8)
        if near is not None:
            unknown.append((key, near))
        elif low in (n.lower() for n in names(SOURCES[source, "write" if side == "read" else "read"])):
            _warn_once(f"option {key} is for {'writes' if side == 'read' else 'reads'}: {doing} ignores it")
        else:
            _warn_once(f"option {key} is no option of Spark's Kafka connector: {doing} ignores it")
    if not unknown:
        return
    if not connector:
        hints = ", ".join(f"{k!r}" + (f" (did you mean {m!r}?)" if m else "") for k, m in unknown)
        raise OptionError(f"{source} has no {side} option {hints}; its {side} options: {', '.join(known)}")
    meant = [m for _, m in unknown if m]
    raise OptionError(
        f"unknown option{'s' if len(unknown) > 1 else ''} {', '.join(k for k, _ in unknown)} for {doing}"
        + (f" (did you mean {', '.join(meant)}?)" if meant else "")
        + "; the options are those of Spark's Kafka connector and the settings of Kafka's"
        f" {'consumer' if side == 'read' else 'producer'} (see reference/spark-options)"
    )


__all__ = [
    "Option",
    "names",
    "defaults",
    "KAFKA_LOG_READ",
    "KAFKA_LOG_WRITE",
    "REGISTRY",
    "COLUMN_FORMATS",
    "COLUMN_WRITE_FORMATS",
    "writes_only",
    "KAFKA_CLUSTER_READ",
    "KAFKA_CLUSTER_CLIENT",
    "KAFKA_CLUSTER_READ_CLIENT",
    "KAFKA_CLUSTER_WRITE",
    "KAFKA_CLUSTER_WRITE_CLIENT",
    "SOURCES",
    "PATH_OPTIONS",
    "nearest",
    "check_names",
]
