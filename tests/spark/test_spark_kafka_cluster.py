"""``kafka-cluster`` reads the session's real Kafka 4.4 broker as Spark's own Kafka
connector does: both read the same topics with the same options in the same Spark
session, and the DataFrames must be equal row for row.

The records come from librdkafka (confluent-kafka), an independent producer: every codec,
headers (with null values), null keys and null values, several partitions, and
transactions committed and aborted between plain records.  Spark's connector
(``spark-sql-kafka-0-10``, resolved with Maven by ``support.kafka.spark_kafka``) is added
to the shared session with ``ADD JAR``.
"""

from __future__ import annotations

import re
import time
import uuid

import pytest

pytestmark = [pytest.mark.kafka, pytest.mark.spark]

CODECS = ("none", "gzip", "snappy", "lz4", "zstd")
PARTITIONS = 4


def create_topic(bootstrap: str, name: str, partitions: int) -> None:
    from confluent_kafka.admin import AdminClient, NewTopic

    admin = AdminClient({"bootstrap.servers": bootstrap})
    admin.create_topics([NewTopic(name, partitions, 1)])[name].result(30)
    # the topic reaches the broker's metadata cache a moment after it is created
    for _ in range(100):
        meta = admin.list_topics(name, timeout=10).topics[name]
        if meta.error is None and len(meta.partitions) == partitions:
            return
        time.sleep(0.1)
    raise AssertionError(f"topic {name} did not appear")


def produce(bootstrap: str, topic: str, records, **conf) -> None:
    """``records``: (partition, key, value, headers) sent with librdkafka."""
    from confluent_kafka import Producer

    p = Producer({"bootstrap.servers": bootstrap, "linger.ms": 5, **conf})
    for partition, key, value, headers in records:
        p.produce(topic, value=value, key=key, partition=partition, headers=headers)
    assert p.flush(30) == 0


def sample(codec: str, n: int):
    """Records that cover null keys, null values and headers (some with null values)."""
    out = []
    for i in range(n):
        key = None if i % 5 == 0 else f"{codec}-k{i % 13}".encode()
        value = None if i % 11 == 0 else (f"{codec}-v{i}-" * (1 + i % 4)).encode()
        headers = [] if i % 3 == 0 else [("h", f"{i}".encode()), ("null", None)][: 1 + i % 2]
        out.append((i % PARTITIONS, key, value, headers))
    return out


@pytest.fixture(scope="module")
def mixed_topic(kafka_broker):
    """A topic of 4 partitions: 150 records per codec, then two transactions (one
    committed, one aborted) between plain records; returns its name."""
    from confluent_kafka import Producer

    boot = kafka_broker.bootstrap_servers
    name = f"kw-cluster-{uuid.uuid4().hex[:8]}"
    create_topic(boot, name, PARTITIONS)
    for codec in CODECS:
        produce(boot, name, sample(codec, 150), **{"compression.type": codec})
    tx = Producer({"bootstrap.servers": boot, "transactional.id": f"tx-{name}", "linger.ms": 5})
    tx.init_transactions(30)
    for outcome in ("commit", "abort", "commit"):
        tx.begin_transaction()
        for i in range(40):
            tx.produce(name, value=f"{outcome}-{i}".encode(), key=b"tx", partition=i % PARTITIONS)
        tx.flush(30)
        produce(boot, name, [(i % PARTITIONS, None, f"plain-{outcome}-{i}".encode(), []) for i in range(8)])
        if outcome == "commit":
            tx.commit_transaction(30)
        else:
            tx.abort_transaction(30)
    produce(boot, name, sample("after", 20))
    return name


def load(spark, fmt: str, options: dict):
    reader = spark.read.format(fmt)
    for k, v in options.items():
        reader = reader.option(k, str(v))
    return reader.load()


def rows(df):
    return sorted(df.collect(), key=lambda r: (r.topic, r.partition, r.offset))


def same_as_connector(spark, options: dict, backend: str):
    """Read with both formats; assert equal rows and schemas; return the rows."""
    theirs = load(spark, "kafka", options)
    ours = load(spark, "kafka-cluster", {**options, "backend": backend})
    assert ours.schema == theirs.schema
    expected = rows(theirs)
    assert rows(ours) == expected
    return expected


@pytest.mark.parametrize("isolation", ["read_uncommitted", "read_committed"])
def test_every_codec_headers_nulls_and_transactions_read_as_the_connector_does(
    spark_connector, kafka_broker, mixed_topic, backend, isolation
):
    got = same_as_connector(
        spark_connector,
        {
            "kafka.bootstrap.servers": kafka_broker.bootstrap_servers,
            "subscribe": mixed_topic,
            "includeHeaders": "true",
            "kafka.isolation.level": isolation,
        },
        backend,
    )
    values = [r.value for r in got]
    assert sum(v is not None and v.startswith(b"commit-") for v in values) == 80
    aborted = sum(v is not None and v.startswith(b"abort-") for v in values)
    assert aborted == (40 if isolation == "read_uncommitted" else 0)
    assert sum(v is None for v in values) > 0 and sum(r.key is None for r in got) > 0
    assert any(r.headers and any(h.value is None for h in r.headers) for r in got)


def test_log_append_time_and_create_time_in_one_partition_read_as_the_connector_does(
    spark_connector, kafka_broker, backend
):
    """A topic switched from LogAppendTime to CreateTime between two produces: one
    partition holds batches of both timestamp types, read in one fetch."""
    from confluent_kafka.admin import AdminClient, AlterConfigOpType, ConfigEntry, ConfigResource

    boot = kafka_broker.bootstrap_servers
    name = f"kw-tstype-{uuid.uuid4().hex[:8]}"
    admin = AdminClient({"bootstrap.servers": boot})
    create_topic(boot, name, 1)

    def timestamp_type(kind: str) -> None:
        entry = ConfigEntry("message.timestamp.type", kind, incremental_operation=AlterConfigOpType.SET)
        resource = ConfigResource(ConfigResource.Type.TOPIC, name, incremental_configs=[entry])
        admin.incremental_alter_configs([resource])[resource].result(30)

    timestamp_type("LogAppendTime")
    time.sleep(1)  # the topic's config reaches its log a moment later
    produce(boot, name, [(0, b"k", b"appended-%d" % i, []) for i in range(30)])
    timestamp_type("CreateTime")
    time.sleep(1)
    produce(boot, name, [(0, b"k", b"created-%d" % i, []) for i in range(30)], **{"linger.ms": 0})
    got = same_as_connector(spark_connector, {"kafka.bootstrap.servers": boot, "subscribe": name}, backend)
    assert {r.timestampType for r in got if r.value.startswith(b"appended")} == {1}
    assert {r.timestampType for r in got if r.value.startswith(b"created")} == {0}


def test_offsets_json_timestamps_and_min_partitions_as_the_connector_does(
    spark_connector, kafka_broker, mixed_topic, backend
):
    t = mixed_topic
    boot = kafka_broker.bootstrap_servers
    start = {t: {"0": 3, "1": -2, "2": 40, "3": 0}}
    end = {t: {"0": 100, "1": -1, "2": 41, "3": 7}}
    import json

    same_as_connector(
        spark_connector,
        {
            "kafka.bootstrap.servers": boot,
            "assign": json.dumps({t: [0, 1, 2, 3]}),
            "startingOffsets": json.dumps(start),
            "endingOffsets": json.dumps(end),
            "minPartitions": "9",
        },
        backend,
    )
    # a timestamp between two records: both start at the first record at or after it
    first = rows(load(spark_connector, "kafka", {"kafka.bootstrap.servers": boot, "subscribe": t}))
    middle = first[len(first) // 2].timestamp
    ms = int(middle.replace(tzinfo=__import__("datetime").timezone.utc).timestamp() * 1000)
    same_as_connector(
        spark_connector,
        {"kafka.bootstrap.servers": boot, "subscribePattern": t[:-2] + ".*", "startingTimestamp": ms},
        backend,
    )
    same_as_connector(
        spark_connector,
        {
            "kafka.bootstrap.servers": boot,
            "subscribe": t,
            "startingOffsetsByTimestamp": json.dumps({t: {str(p): ms for p in range(PARTITIONS)}}),
            "endingOffsetsByTimestamp": json.dumps({t: {str(p): ms + 1 for p in range(PARTITIONS)}}),
        },
        backend,
    )


@pytest.fixture(scope="module")
def header_runs_topic(kafka_broker):
    """A topic of 4 partitions written batch by batch (librdkafka): in each batch every
    record has headers, none has, or a random some have.  Returns the topic's name and,
    per partition, its batches as (first offset, headers of each record)."""
    import random

    from confluent_kafka import Producer

    boot = kafka_broker.bootstrap_servers
    name = f"kw-header-runs-{uuid.uuid4().hex[:8]}"
    create_topic(boot, name, PARTITIONS)
    rng = random.Random(37)
    batches: dict = {p: [] for p in range(PARTITIONS)}
    ends = dict.fromkeys(range(PARTITIONS), 0)
    # a long linger: each flush sends one batch per partition, nothing else does
    producer = Producer({"bootstrap.servers": boot, "linger.ms": 60000, "compression.type": "lz4"})
    for _ in range(10):
        for p in range(PARTITIONS):
            kind = rng.choice(["none", "all", "some"])
            heads = []
            for _ in range(rng.randint(2, 12)):
                has = kind == "all" or (kind == "some" and rng.random() < 0.5)
                heads.append(
                    [("h", b"%d" % rng.randrange(100)), ("null", None)][: rng.randint(1, 2)] if has else []
                )
            for i, h in enumerate(heads):
                producer.produce(name, value=b"v%d-%d" % (ends[p], i), key=b"k", partition=p, headers=h)
            batches[p].append((ends[p], heads))
            ends[p] += len(heads)
        assert producer.flush(30) == 0
    return name, batches


@pytest.mark.parametrize("seed", [1, 2, 3])
def test_ranges_cut_inside_batches_with_and_without_headers_read_as_the_connector_does(
    spark_connector, kafka_broker, header_runs_topic, seed, backend
):
    """Ranges that start and end at random offsets inside batches, with headers asked
    for: the records cut away in front of a range may carry headers or none."""
    import json
    import random

    name, batches = header_runs_topic
    rng = random.Random(seed)
    start, end = {}, {}
    for p, runs in batches.items():
        # partition 0 always starts behind records with no headers
        choices = [b for b in runs if not b[1][0]] if p == 0 else runs
        first, heads = rng.choice(choices)
        cut = rng.randint(1, len(heads) - 1)
        if p == 0:
            cut = next(i for i, h in enumerate(heads) if h) if any(heads) else cut
        start[str(p)] = first + cut
        later = [b for b in runs if b[0] + len(b[1]) > start[str(p)]]
        last_first, last_heads = rng.choice(later)
        end[str(p)] = max(start[str(p)] + 1, last_first + rng.randint(1, len(last_heads)))
    got = same_as_connector(
        spark_connector,
        {
            "kafka.bootstrap.servers": kafka_broker.bootstrap_servers,
            "assign": json.dumps({name: list(range(PARTITIONS))}),
            "startingOffsets": json.dumps({name: start}),
            "endingOffsets": json.dumps({name: end}),
            "includeHeaders": "true",
        },
        backend,
    )
    assert len(got) == sum(end[p] - start[p] for p in start)
    assert any(r.headers is None for r in got) and any(r.headers for r in got)


@pytest.mark.timeout(600)
def test_a_batch_decompressing_past_256_mib_reads_as_the_connector_does(
    spark_connector, kafka_broker, backend
):
    """One zstd batch of 2700 records of 100 KiB (librdkafka, a few kB on the wire):
    past the default decompression cap, yet a batch Kafka's consumer reads."""
    import hashlib
    import json

    from kafkawire.cluster.client import Cluster
    from kafkawire.cluster.fetch import read_range
    from kafkawire.cluster.plan import OffsetRange, ClusterReadOptions

    boot = kafka_broker.bootstrap_servers
    name = f"kw-huge-batch-{uuid.uuid4().hex[:8]}"
    create_topic(boot, name, 1)
    n, size = 2700, 100 << 10
    produce(
        boot,
        name,
        [(0, None, bytes([i % 251]) * size, []) for i in range(n)],
        **{
            "compression.type": "zstd",
            "linger.ms": 60000,
            "batch.size": 400 << 20,
            "message.max.bytes": 400 << 20,
            "batch.num.messages": n,
        },
    )
    options = ClusterReadOptions.parse(
        {"kafka.bootstrap.servers": boot, "subscribe": name, "backend": backend}
    )
    ours = []
    with Cluster(options.client) as cluster:
        for b in cluster.iterate(read_range(cluster.aio, OffsetRange(name, 0, 0, n), options, max_rows=256)):
            ours += [hashlib.sha256(v).hexdigest() for v in b.column("value").to_pylist()]
    theirs = load(
        spark_connector,
        "kafka",
        {"kafka.bootstrap.servers": boot, "assign": json.dumps({name: [0]})},
    ).selectExpr("offset", "sha2(value, 256) AS digest")
    assert ours == [r.digest for r in sorted(theirs.collect())]
    assert ours == [hashlib.sha256(bytes([i % 251]) * size).hexdigest() for i in range(n)]


def test_filters_and_a_schema_of_some_columns_give_the_same_rows(
    spark_connector, kafka_broker, mixed_topic, backend
):
    opts = {"kafka.bootstrap.servers": kafka_broker.bootstrap_servers, "subscribe": mixed_topic}
    where = "partition IN (1, 3) AND offset >= 20 AND offset < 90"
    theirs = load(spark_connector, "kafka", opts).where(where).select("partition", "offset", "value")
    ours = (
        spark_connector.read.format("kafka-cluster")
        .options(**opts, backend=backend)
        .schema("value binary, partition int, offset bigint")
        .load()
        .where(where)
        .select("partition", "offset", "value")
    )
    assert sorted(ours.collect()) == sorted(theirs.collect())


def test_sasl_scram_with_the_jaas_line_reads_as_the_connector_does(
    spark_connector, kafka_broker, mixed_topic, backend
):
    user = "alice"
    jaas = (
        "org.apache.kafka.common.security.scram.ScramLoginModule required "
        f'username="{user}" password="{kafka_broker.users[user]}";'
    )
    same_as_connector(
        spark_connector,
        {
            "kafka.bootstrap.servers": kafka_broker.sasl_bootstrap_servers,
            "kafka.security.protocol": "SASL_PLAINTEXT",
            "kafka.sasl.mechanism": "SCRAM-SHA-512",
            "kafka.sasl.jaas.config": jaas,
            "subscribe": mixed_topic,
            "endingOffsets": '{"%s": {"0": 30, "1": 30, "2": 30, "3": 30}}' % mixed_topic,
        },
        backend,
    )


# -- errors: each within the timeouts, naming what failed ------------------------------


def test_an_unknown_option_is_an_error_naming_it(spark, backend):
    from kafkawire.cluster.plan import ClusterReadOptions

    with pytest.raises(ValueError, match=r"unknown options kafka\.fetch\.max\.wait, startingoffset\b"):
        ClusterReadOptions.parse(
            {
                "kafka.bootstrap.servers": "h:1",
                "subscribe": "t",
                "startingOffset": "earliest",
                "kafka.fetch.max.wait": "1",
            }
        )
    # Spark hands a Python data source its option names in lower case
    with pytest.raises(Exception, match="unknown option startingofsets"):
        load(
            spark,
            "kafka-cluster",
            {"kafka.bootstrap.servers": "h:1", "subscribe": "t", "startingOfsets": "earliest"},
        ).schema


@pytest.mark.parametrize(
    "options, message",
    [
        ({"subscribe": "t"}, "kafka.bootstrap.servers is required"),
        ({"kafka.bootstrap.servers": "h:1"}, "exactly one of the options subscribe"),
        ({"kafka.bootstrap.servers": "h:1", "subscribe": "t", "assign": '{"t":[0]}'}, "exactly one"),
        (
            {"kafka.bootstrap.servers": "h:1", "subscribe": "t", "startingOffsets": "latest"},
            "not allowed for batch",
        ),
        (
            {"kafka.bootstrap.servers": "h:1", "subscribe": "t", "endingOffsets": '{"t":{"0":-2}}'},
            "-2 for t-0",
        ),
        (
            {"kafka.bootstrap.servers": "h:1", "subscribe": "t", "kafka.isolation.level": "dirty"},
            "isolation.level",
        ),
        ({"kafka.bootstrap.servers": "h", "subscribe": "t"}, "is not host:port"),
        (
            {
                "kafka.bootstrap.servers": "h:1",
                "subscribe": "t",
                "kafka.security.protocol": "SASL_SSL",
                "kafka.sasl.mechanism": "PLAIN",
                "kafka.sasl.jaas.config": "PlainLoginModule required user=x;",
            },
            "PLAIN logs in with org.apache.kafka.common.security.plain.PlainLoginModule",
        ),
        (
            {
                "kafka.bootstrap.servers": "h:1",
                "subscribe": "t",
                "kafka.security.protocol": "SASL_PLAINTEXT",
                "kafka.sasl.mechanism": "PLAIN",
                "kafka.sasl.jaas.config": 'org.apache.kafka.common.security.plain.PlainLoginModule required user="x"',
            },
            "must end with ';'",
        ),
        (
            {"kafka.bootstrap.servers": "h:1", "subscribe": "t", "kafka.security.protocol": "SASL_PLAINTEXT"},
            "GSSAPI needs the broker's Kerberos service name: option kafka.sasl.kerberos.service.name",
        ),
        ({"kafka.bootstrap.servers": "h:1", "subscribe": "t", "minPartitions": "0"}, "minPartitions"),
    ],
)
def test_bad_options_are_errors_naming_the_option(options, message, backend):
    from kafkawire.cluster.plan import ClusterReadOptions

    with pytest.raises(ValueError, match=__import__("re").escape(message)):
        ClusterReadOptions.parse(options)


def test_a_stream_starts_at_the_end_and_a_batch_at_the_start_as_the_connectors_do(backend):
    from kafkawire.cluster.plan import ClusterReadOptions

    base = {"kafka.bootstrap.servers": "h:1", "subscribe": "t"}
    assert ClusterReadOptions.parse(base).starting == ("earliest",)
    assert ClusterReadOptions.parse(base, streaming=True).starting == ("latest",)


def test_jaas_lines_parse_as_kafka_writes_them(backend):
    from kafkawire.cluster.config import parse_jaas

    module, opts = parse_jaas(
        "org.apache.kafka.common.security.plain.PlainLoginModule required\n"
        '  username="al\\"ice" password=secret serviceName="kafka";'
    )
    assert module == "org.apache.kafka.common.security.plain.PlainLoginModule"
    assert opts == {"username": 'al"ice', "password": "secret", "serviceName": "kafka"}


def _plan(options: dict):
    from kafkawire.cluster.client import Cluster
    from kafkawire.cluster.plan import ClusterReadOptions, plan

    opts = ClusterReadOptions.parse(options)
    with Cluster(opts.client) as cluster:
        return plan(cluster, opts)


def test_no_bootstrap_server_reachable_is_an_error_within_the_api_timeout(backend):
    from kafkawire.errors import ClusterError

    import socket

    with socket.socket() as s:  # a port nothing listens on
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
    with pytest.raises(ClusterError, match=f"no bootstrap server of 127.0.0.1:{port} answered"):
        _plan(
            {
                "kafka.bootstrap.servers": f"127.0.0.1:{port}",
                "subscribe": "t",
                "kafka.default.api.timeout.ms": "1500",
            }
        )


def test_a_missing_topic_and_wrong_credentials_are_errors_naming_them(kafka_broker, backend):
    from kafkawire.errors import BrokerErrorResponse, SaslAuthenticationError

    with pytest.raises(BrokerErrorResponse, match="topic 'kw-no-such-topic' does not exist"):
        _plan({"kafka.bootstrap.servers": kafka_broker.bootstrap_servers, "subscribe": "kw-no-such-topic"})
    with pytest.raises(SaslAuthenticationError):
        _plan(
            {
                "kafka.bootstrap.servers": kafka_broker.sasl_bootstrap_servers,
                "kafka.security.protocol": "SASL_PLAINTEXT",
                "kafka.sasl.mechanism": "PLAIN",
                "kafka.sasl.jaas.config": "org.apache.kafka.common.security.plain.PlainLoginModule required "
                'username="alice" password="wrong";',
                "subscribe": "t",
            }
        )


def test_min_partitions_cuts_ranges_in_proportion(backend):
    from kafkawire.cluster.config import ClientConfig
    from kafkawire.cluster.plan import OffsetRange, ClusterReadOptions, split

    opts = ClusterReadOptions(
        client=ClientConfig(bootstrap=(("h", 1),)), subscription=("subscribe", ("t",)), min_partitions=4
    )
    got = split([OffsetRange("t", 0, 0, 300), OffsetRange("t", 1, 10, 110), OffsetRange("t", 2, 5, 5)], opts)
    assert got == [
        OffsetRange("t", 0, 0, 100),
        OffsetRange("t", 0, 100, 200),
        OffsetRange("t", 0, 200, 300),
        OffsetRange("t", 1, 10, 110),
        OffsetRange("t", 2, 5, 5),
    ]


def test_cut_ranges_keep_a_late_bound_start_and_end_only_at_their_outer_ends(backend):
    """As the connector's: the cuts between pieces are fixed at planning, the first
    piece's ``earliest`` and the last piece's ``latest`` are looked up by their tasks."""
    from kafkawire.cluster.config import ClientConfig
    from kafkawire.cluster.plan import OffsetRange, ClusterReadOptions, split

    opts = ClusterReadOptions(
        client=ClientConfig(bootstrap=(("h", 1),)),
        subscription=("subscribe", ("t",)),
        max_records_per_partition=100,
    )
    late = OffsetRange("t", 0, 0, 300, from_earliest=True, to_latest=True)
    assert split([late], opts) == [
        OffsetRange("t", 0, 0, 100, from_earliest=True),
        OffsetRange("t", 0, 100, 200),
        OffsetRange("t", 0, 200, 300, to_latest=True),
    ]
    assert split([OffsetRange("t", 1, 5, 50, to_latest=True)], opts) == [
        OffsetRange("t", 1, 5, 50, to_latest=True)
    ]


# -- writing --------------------------------------------------------------------------

WRITE_KEYS = [f"key-{i}".encode() * (1 + i % 4) for i in range(48)] + [b"", b"a", b"ab", b"abc"]


@pytest.fixture(scope="module")
def java_key_partitions(kafka_broker):
    """Where Kafka's Java producer puts each of WRITE_KEYS among 6 partitions."""
    from support.kafka.java_clients import run_java

    boot = kafka_broker.bootstrap_servers
    topic = f"kw-java-keys-{uuid.uuid4().hex[:8]}"
    create_topic(boot, topic, 6)
    records = [
        {"partition": None, "key": k.hex(), "value": "00", "timestamp": 1, "headers": []} for k in WRITE_KEYS
    ]
    result = run_java({"op": "produce", "bootstrap": boot, "topic": topic, "records": records})
    assert result["delivered"] == len(records), result
    consumed = run_java(
        {"op": "consume", "bootstrap": boot, "topics": [topic], "group": topic, "expect": len(records)}
    )["records"]
    placed = {bytes.fromhex(r["key"]): r["partition"] for r in consumed}
    assert len(placed) == len(WRITE_KEYS) and len(set(placed.values())) > 1
    return placed


def test_rows_written_land_where_javas_partitioner_puts_them_and_read_back(
    spark_connector, kafka_broker, java_key_partitions, backend
):
    spark = spark_connector
    boot = kafka_broker.bootstrap_servers
    topic = f"kw-written-{uuid.uuid4().hex[:8]}"
    create_topic(boot, topic, 6)
    rows_in = [
        (k, b"value-%d" % i, [("h", b"%d" % i), ("n", None)] if i % 2 else None, None)
        for i, k in enumerate(WRITE_KEYS)
    ]
    rows_in += [(None, b"keyless-%d" % i, None, None) for i in range(30)]
    rows_in += [(b"pinned", None, None, 5), (b"pinned", b"", [], 0)]
    df = spark.createDataFrame(
        rows_in, "key binary, value binary, headers array<struct<key: string, value: binary>>, partition int"
    ).repartition(3)
    (
        df.write.format("kafka-cluster")
        .option("kafka.bootstrap.servers", boot)
        .option("topic", topic)
        .option("kafka.compression.type", "zstd")
        .option("backend", backend)
        .mode("append")
        .save()
    )
    back = load(
        spark, "kafka", {"kafka.bootstrap.servers": boot, "subscribe": topic, "includeHeaders": "true"}
    )
    got = rows(back)
    assert len(got) == len(rows_in)

    def norm(h):
        return sorted((x[0], x[1]) for x in h) if h else None

    assert sorted(repr((r.key, r.value, norm(r.headers))) for r in got) == sorted(
        repr((k, v, norm(h))) for k, v, h, _ in rows_in
    )
    for r in got:
        if r.key in java_key_partitions:
            assert r.partition == java_key_partitions[r.key], r.key
    assert {(r.value, r.partition) for r in got if r.key == b"pinned"} == {(None, 5), (b"", 0)}
    # every record once: each partition's offsets run from 0 without a gap
    for p in range(6):
        offsets = [r.offset for r in got if r.partition == p]
        assert offsets == list(range(len(offsets)))


def test_a_topic_column_sends_each_row_to_its_topic_with_string_keys_where_java_puts_them(
    spark_connector, kafka_broker, java_key_partitions, backend
):
    spark = spark_connector
    boot = kafka_broker.bootstrap_servers
    topics = [f"kw-by-column-{i}-{uuid.uuid4().hex[:8]}" for i in range(2)]
    for t in topics:
        create_topic(boot, t, 6)
    keys = [k for k in WRITE_KEYS if all(b < 0x80 for b in k)]
    rows_in = [
        (topics[i % 2], k.decode(), f"value-{i}", [("h", None)] if i % 3 else []) for i, k in enumerate(keys)
    ]
    rows_in += [(topics[i % 2], None, f"keyless-{i}", None) for i in range(10)]
    df = spark.createDataFrame(
        rows_in, "topic string, key string, value string, headers array<struct<key: string, value: binary>>"
    )
    df.write.format("kafka-cluster").option("kafka.bootstrap.servers", boot).option("backend", backend).mode(
        "append"
    ).save()
    back = load(
        spark,
        "kafka",
        {"kafka.bootstrap.servers": boot, "subscribe": ",".join(topics), "includeHeaders": "true"},
    )
    got = rows(back)
    assert sorted(
        repr((r.topic, r.key, r.value, [tuple(h) for h in r.headers or []])) for r in got
    ) == sorted(
        repr((t, k.encode() if k is not None else None, v.encode(), [tuple(h) for h in hs or []]))
        for t, k, v, hs in rows_in
    )
    for r in got:
        if r.key is not None:
            assert r.partition == java_key_partitions[r.key], r.key


@pytest.mark.parametrize(
    "ddl, message",
    [
        ("value binary, key int", "column 'key' is int, not string or binary"),
        ("value array<int>", "column 'value' is array<int>, not string or binary"),
        ("value binary, topic binary", "column 'topic' is binary, not string"),
        ("value binary, partition bigint", "column 'partition' is bigint, not int"),
        ("value binary, headers array<struct<key: binary, value: binary>>", "column 'headers' is"),
    ],
)
def test_write_columns_of_the_wrong_type_are_errors_naming_them(ddl, message, backend):
    from pyspark.sql.types import _parse_datatype_string

    from kafkawire.spark.kafka_cluster import ClusterWriter, ClusterWriteOptions

    options = ClusterWriteOptions.parse({"kafka.bootstrap.servers": "h:1", "topic": "t"})
    with pytest.raises(ValueError, match=re.escape(message)):
        ClusterWriter(options, _parse_datatype_string(ddl))


def test_a_null_topic_or_a_partition_the_topic_lacks_is_refused(kafka_broker, backend):
    import pyarrow as pa

    from kafkawire.spark.kafka_cluster import ClusterWriteOptions, produce_rows

    boot = kafka_broker.bootstrap_servers
    topic = f"kw-refused-{uuid.uuid4().hex[:8]}"
    create_topic(boot, topic, 2)
    options = ClusterWriteOptions.parse({"kafka.bootstrap.servers": boot, "backend": backend})
    batch = pa.RecordBatch.from_pydict({"topic": [topic, None], "value": [b"a", b"b"]})
    with pytest.raises(ValueError, match="a row has a null topic and no 'topic' option is set"):
        produce_rows(options, iter([batch]))
    batch = pa.RecordBatch.from_pydict(
        {"topic": [topic] * 2, "value": [b"a", b"b"], "partition": pa.array([1, 2], pa.int32())}
    )
    with pytest.raises(ValueError, match=re.escape(f"topic '{topic}' has no partition 2 (2 partitions)")):
        produce_rows(options, iter([batch]))


def test_write_options_are_checked(backend):
    from kafkawire.spark.kafka_cluster import ClusterWriteOptions

    base = {"kafka.bootstrap.servers": "h:1"}
    with pytest.raises(ValueError, match="unknown option kafka.lingerms"):
        ClusterWriteOptions.parse({**base, "kafka.lingerms": "5"})
    with pytest.raises(ValueError, match="kafka.compression.type: 'brotli'"):
        ClusterWriteOptions.parse({**base, "kafka.compression.type": "brotli"})
    with pytest.raises(ValueError, match="'2' is not one of all, -1, 1, 0"):
        ClusterWriteOptions.parse({**base, "kafka.acks": "2"})


def test_murmur2_is_kafkas(backend):
    from kafkawire.cluster.produce import murmur2, partition_for_key

    # the values Kafka's own Utils tests pin for its murmur2
    assert [murmur2(s.encode()) for s in ("21", "foobar", "a-little-bit-long-string", "abc")] == [
        -973932308,
        -790332482,
        -985981536,
        479470107,
    ]
    assert partition_for_key(b"foobar", 7) == (-790332482 & 0x7FFFFFFF) % 7
    assert murmur2(memoryview(b"xfoobar")[1:]) == -790332482  # any bytes-like object
    with pytest.raises(TypeError):
        murmur2("foobar")  # type: ignore[arg-type]


# -- streaming ------------------------------------------------------------------------


def test_a_stream_restarted_from_its_checkpoint_delivers_every_record_once(
    spark, kafka_broker, tmp_path, backend
):
    from confluent_kafka.admin import AdminClient, NewPartitions

    boot = kafka_broker.bootstrap_servers
    topic = f"kw-stream-{uuid.uuid4().hex[:8]}"
    create_topic(boot, topic, 3)
    out, checkpoint = str(tmp_path / "out"), str(tmp_path / "checkpoint")

    def run():
        query = (
            spark.readStream.format("kafka-cluster")
            .option("startingOffsets", "earliest")
            .option("kafka.bootstrap.servers", boot)
            .option("subscribe", topic)
            .option("maxOffsetsPerTrigger", "40")
            .option("backend", backend)
            .load()
            .writeStream.format("parquet")
            .option("path", out)
            .option("checkpointLocation", checkpoint)
            .trigger(availableNow=True)
            .start()
        )
        assert query.awaitTermination(300)
        assert query.exception() is None
        return [p["numInputRows"] for p in query.recentProgress]

    produce(boot, topic, [(i % 3, None, b"first-%d" % i, []) for i in range(60)])
    sizes = run()
    assert sum(sizes) == 60 and max(sizes) <= 40 and len(sizes) >= 2
    # more records, and a partition added while the query was stopped
    admin = AdminClient({"bootstrap.servers": boot})
    admin.create_partitions([NewPartitions(topic, 4)])[topic].result(30)
    for _ in range(100):
        if len(admin.list_topics(topic, timeout=10).topics[topic].partitions) == 4:
            break
        time.sleep(0.1)
    produce(boot, topic, [(i % 4, None, b"second-%d" % i, []) for i in range(40)])
    assert sum(run()) == 40
    got = spark.read.parquet(out).select("value", "partition", "offset").collect()
    assert sorted(r.value for r in got) == sorted(
        [b"first-%d" % i for i in range(60)] + [b"second-%d" % i for i in range(40)]
    )
    assert len({(r.partition, r.offset) for r in got}) == 100
    assert {r.partition for r in got} == {0, 1, 2, 3}


def test_rate_limit_shares_a_trigger_among_partitions_by_what_waits(backend):
    from kafkawire.cluster.plan import rate_limit

    start = {("t", 0): 0, ("t", 1): 100, ("t", 2): 5}
    end = {("t", 0): 300, ("t", 1): 200, ("t", 2): 6}
    # 401 waiting, 40 allowed: 29 and 9 by share, and the small partition still gets its one
    assert rate_limit(start, end, 40) == {("t", 0): 29, ("t", 1): 109, ("t", 2): 6}
    assert rate_limit(start, end, 1000) == end


def test_a_stream_written_to_a_topic_is_read_back_by_the_connector(
    spark_connector, kafka_broker, mixed_topic, tmp_path, backend
):
    spark = spark_connector
    boot = kafka_broker.bootstrap_servers
    copy = f"kw-stream-copy-{uuid.uuid4().hex[:8]}"
    create_topic(boot, copy, PARTITIONS)
    source = {"kafka.bootstrap.servers": boot, "subscribe": mixed_topic, "includeHeaders": "true"}
    query = (
        spark.readStream.format("kafka-cluster")
        .options(**source, backend=backend, startingOffsets="earliest")
        .load()
        .selectExpr("key", "value", "headers", "partition")
        .writeStream.format("kafka-cluster")
        .option("kafka.bootstrap.servers", boot)
        .option("topic", copy)
        .option("kafka.compression.type", "lz4")
        .option("checkpointLocation", str(tmp_path / "checkpoint"))
        .trigger(availableNow=True)
        .start()
    )
    assert query.awaitTermination(300)
    assert query.exception() is None

    def records(topic):
        df = load(spark, "kafka", {**source, "subscribe": topic})
        return sorted(repr((r.partition, r.key, r.value, r.headers)) for r in df.collect())

    assert records(copy) == records(mixed_topic)


def test_pem_stores_make_the_tls_context(tmp_path, backend):
    import ssl
    from pathlib import Path

    from support.tls_certs import make_pki

    from kafkawire.cluster.config import ClientConfig

    pki = make_pki(tmp_path)
    key, chain = Path(pki.client_key).read_text(), Path(pki.client_cert).read_text()
    base = {"bootstrap.servers": "127.0.0.1:9093", "security.protocol": "SSL", "ssl.truststore.type": "PEM"}
    by_text = ClientConfig.parse(
        {
            **base,
            "ssl.truststore.certificates": Path(pki.ca).read_text(),
            "ssl.keystore.type": "PEM",
            "ssl.keystore.key": key,
            "ssl.keystore.certificate.chain": chain,
        }
    ).ssl_context()
    keystore = tmp_path / "keystore.pem"
    keystore.write_text(key + chain)  # Kafka's PEM key store file: the key, then the chain
    by_file = ClientConfig.parse(
        {
            **base,
            "ssl.truststore.location": pki.ca,
            "ssl.keystore.location": str(keystore),
            "ssl.endpoint.identification.algorithm": "",
        }
    ).ssl_context()
    for context in (by_text, by_file):
        assert isinstance(context, ssl.SSLContext) and context.verify_mode == ssl.CERT_REQUIRED
        assert len(context.get_ca_certs()) == 1
    assert by_text.check_hostname and not by_file.check_hostname
    with pytest.raises(ValueError, match="'JCEKS' is not one of JKS, PKCS12, PEM"):
        ClientConfig.parse({**base, "ssl.truststore.type": "JCEKS", "ssl.truststore.location": "x.jks"})


def test_records_deleted_under_a_read_follow_fail_on_data_loss(kafka_broker, backend):
    from confluent_kafka import TopicPartition
    from confluent_kafka.admin import AdminClient

    from kafkawire.cluster.client import Cluster
    from kafkawire.cluster.fetch import read_range
    from kafkawire.cluster.plan import OffsetRange, ClusterReadOptions
    from kafkawire.errors import DataLossError

    boot = kafka_broker.bootstrap_servers
    topic = f"kw-lost-{uuid.uuid4().hex[:8]}"
    create_topic(boot, topic, 1)
    produce(boot, topic, [(0, None, b"r%d" % i, []) for i in range(50)])
    admin = AdminClient({"bootstrap.servers": boot})
    (done,) = admin.delete_records([TopicPartition(topic, 0, 20)]).values()
    assert done.result(30).low_watermark == 20  # the log now starts at offset 20
    planned = OffsetRange(topic, 0, 5, 50)  # planned before the deletion, say

    def read(fail: bool):
        opts = ClusterReadOptions.parse(
            {
                "kafka.bootstrap.servers": boot,
                "subscribe": topic,
                "failOnDataLoss": str(fail).lower(),
                "backend": backend,
            }
        )
        with Cluster(opts.client) as cluster:
            return [
                v
                for b in cluster.iterate(read_range(cluster.aio, planned, opts))
                for v in b.column("value").to_pylist()
            ]

    with pytest.raises(
        DataLossError, match=f"{topic}-0: offsets 5 to 50 were planned but the log now starts at 20"
    ):
        read(True)
    assert read(False) == [b"r%d" % i for i in range(20, 50)]
