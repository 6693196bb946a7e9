"""``kafka-cluster`` takes every option Spark's Kafka connector honours and every setting
Kafka's Java consumer and producer define, as users write them: each family is parsed
here without a broker (the settings drawn at random), and checked against Kafka's own
jar where it has the fact (the setting names, the JAAS grammar).  The reads and writes
against the real broker, side by side with Spark's connector, are in
``test_spark_kafka_options.py``."""

from __future__ import annotations

import json
import logging
import os
import random
import subprocess
from pathlib import Path

import pytest

from kafkawire import datasource_options as options_table
from kafkawire import kafka_settings
from kafkawire.cluster.config import ClientConfig, parse_jaas
from kafkawire.cluster.plan import ClusterReadOptions

BASE = {"kafka.bootstrap.servers": "127.0.0.1:9092", "subscribe": "t"}
SEED = int(os.environ.get("KAFKAWIRE_OPTIONS_SEED", random.randrange(1 << 32)))  # to replay a draw

# values users write for the settings whose value kafka-cluster reads
USER_VALUES = {
    "isolation.level": ["read_committed", "read_uncommitted"],
    "fetch.max.bytes": ["52428800", "1048576"],
    "max.partition.fetch.bytes": ["1048576", "4194304"],
    "fetch.min.bytes": ["1", "65536"],
    "fetch.max.wait.ms": ["100", "500"],
    "request.timeout.ms": ["30000", "120000"],
    "default.api.timeout.ms": ["60000"],
    "socket.connection.setup.timeout.ms": ["10000"],
    "retry.backoff.ms": ["100", "500"],
    "retry.backoff.max.ms": ["1000"],
    "receive.buffer.bytes": ["65536", "-1", "1048576"],
    "send.buffer.bytes": ["131072", "-1"],
    "security.protocol": ["PLAINTEXT"],
    "sasl.mechanism": ["PLAIN", "GSSAPI"],
    "ssl.endpoint.identification.algorithm": ["", "https"],
    "ssl.protocol": ["TLSv1.3", "TLSv1.2", "TLS"],
    "ssl.enabled.protocols": ["TLSv1.2,TLSv1.3", "TLSv1.3"],
    "ssl.truststore.type": ["JKS", "PKCS12", "PEM"],
    "ssl.keystore.type": ["JKS", "PKCS12", "PEM"],
    "acks": ["all", "-1", "1", "0"],
    "enable.idempotence": ["false"],
    "linger.ms": ["0", "5", "100"],
    "batch.size": ["16384", "1048576"],
    "compression.type": ["none", "lz4", "zstd"],
    "max.request.size": ["1048576", "10485760"],
    "max.in.flight.requests.per.connection": ["1", "5"],
    "retries": ["0", "3", "2147483647"],
    "buffer.memory": ["33554432"],
    "partitioner.class": ["org.apache.kafka.clients.producer.RoundRobinPartitioner"],
    "partitioner.ignore.keys": ["true", "false"],
}
# settings whose value is free text to kafka-cluster (names, ids, paths)
FREE = {"bootstrap.servers", "sasl.jaas.config", "sasl.kerberos.service.name"}
# the other settings kafka-cluster reads: their defaults are values users write too
HONOURED = {
    o.name: o.default
    for table in (
        options_table.KAFKA_CLUSTER_CLIENT,
        options_table.KAFKA_CLUSTER_READ_CLIENT,
        options_table.KAFKA_CLUSTER_WRITE_CLIENT,
    )
    for o in table
}


@pytest.fixture(autouse=True)
def _fresh_warnings(monkeypatch):
    """Each warning is given once a process: each test starts with none given."""
    monkeypatch.setattr(options_table, "_warned", set())


def _draw(rng: random.Random, names, k: int) -> dict:
    """``k`` settings of ``names`` with values users write (any text where the value
    changes nothing here)."""
    out = {}
    for name in rng.sample(sorted(names), k):
        if name in FREE or name.startswith("ssl.") and name not in USER_VALUES:
            continue
        if name not in USER_VALUES and name in HONOURED:
            if HONOURED[name] is None:  # a class name, a URL, an id: nothing to draw
                continue
            out[f"kafka.{name}"] = HONOURED[name]
            continue
        out[f"kafka.{name}"] = rng.choice(USER_VALUES.get(name, ["x", "1", "true", "a,b"]))
    return out


def _takeable(names):
    refused = set(kafka_settings.NOT_RUN)
    return {n for n in names if n not in refused}


def test_the_setting_tables_cover_every_setting_of_kafkas_clients_once(backend):
    honoured = [
        o.name
        for table in (
            options_table.KAFKA_CLUSTER_CLIENT,
            options_table.KAFKA_CLUSTER_READ_CLIENT,
            options_table.KAFKA_CLUSTER_WRITE_CLIENT,
        )
        for o in table
    ]
    no_effect = [n for _, names in kafka_settings.NO_EFFECT for n in names]
    refused = [n for side in kafka_settings.CONNECTOR_REFUSES.values() for n in side]
    placed = honoured + no_effect + list(kafka_settings.NOT_RUN)
    every = kafka_settings.CONSUMER | kafka_settings.PRODUCER
    assert sorted(set(placed) | set(refused)) == sorted(every)
    # one home each (interceptor.classes is refused by the connector on reads, not run on writes)
    assert len(placed) == len(set(placed))
    assert set(no_effect).isdisjoint(honoured) and set(refused) - {"interceptor.classes"} <= every - set(
        placed
    )


@pytest.mark.parametrize("draw", range(8))
def test_random_consumer_settings_are_taken_by_a_read(backend, draw, caplog):
    rng = random.Random(SEED + draw)
    names = _takeable(kafka_settings.CONSUMER) - set(kafka_settings.CONNECTOR_REFUSES["read"])
    given = {**BASE, **_draw(rng, names, 12)}
    with caplog.at_level(logging.WARNING, "kafkawire.cluster"):
        parsed = ClusterReadOptions.parse(given)
    assert parsed.client.bootstrap == (("127.0.0.1", 9092),), f"seed {SEED + draw}: {given}"
    # a consumer setting on a read is never warned about
    assert not [r for r in caplog.records if "kafka." in r.getMessage()], given


@pytest.mark.parametrize("draw", range(8))
def test_random_producer_settings_are_taken_by_a_write(backend, draw):
    pytest.importorskip("pyspark")
    from kafkawire.spark.kafka_cluster import ClusterWriteOptions

    rng = random.Random(SEED + 100 + draw)
    names = _takeable(kafka_settings.PRODUCER) - set(kafka_settings.CONNECTOR_REFUSES["write"])
    given = {"kafka.bootstrap.servers": "127.0.0.1:9092", **_draw(rng, names, 12)}
    given.pop("kafka.enable.idempotence", None)  # with acks 1 or 0 Kafka's producer refuses it too
    parsed = ClusterWriteOptions.parse(given)
    assert parsed.idempotent == (parsed.acks == -1 and parsed.retries > 0 and parsed.max_in_flight <= 5), (
        given
    )


def test_a_setting_of_the_other_client_is_taken_with_a_warning(backend, caplog):
    with caplog.at_level(logging.WARNING, "kafkawire.cluster"):
        ClusterReadOptions.parse({**BASE, "kafka.linger.ms": "7", "kafka.acks": "all"})
    said = [r.getMessage() for r in caplog.records]
    assert any("kafka.linger.ms is a producer setting" in m for m in said), said


def _misspell(rng: random.Random, name: str) -> str:
    i = rng.randrange(1, len(name) - 1)
    return rng.choice(
        [
            name[:i] + name[i + 1 :],
            name[:i] + name[i] + name[i:],
            name[:i] + name[i + 1] + name[i] + name[i + 2 :],
        ]
    )


@pytest.mark.parametrize("draw", range(6))
def test_a_misspelt_setting_is_an_error_naming_a_real_one(backend, draw):
    rng = random.Random(SEED + 200 + draw)
    every = kafka_settings.CONSUMER | kafka_settings.PRODUCER
    name = rng.choice(sorted(n for n in every if len(n) > 10))
    wrong = _misspell(rng, name)
    if wrong in every:
        return
    with pytest.raises(
        ValueError, match=rf"unknown option kafka\.{wrong.lower()} .*did you mean kafka\."
    ) as info:
        ClusterReadOptions.parse({**BASE, f"kafka.{wrong}": "1"})
    meant = str(info.value).split("did you mean ")[1].split("?")[0]
    assert meant[len("kafka.") :] in every


@pytest.mark.parametrize(
    "given, meant",
    [
        ({"maxOffsetPerTrigger": "100"}, "maxOffsetsPerTrigger"),
        ({"startingOffset": "earliest"}, "startingOffsets"),
        ({"failOnDataloss": "false"}, None),  # case does not matter: this is the option
        ({"kafka.fetch.max.wait": "100"}, "kafka.fetch.max.wait.ms"),
        ({"kafka.sesion.timeout.ms": "100"}, "kafka.session.timeout.ms"),
    ],
)
def test_near_misses_are_errors_naming_the_option_meant(backend, given, meant):
    if meant is None:
        ClusterReadOptions.parse({**BASE, **given})
        return
    with pytest.raises(ValueError, match=rf"did you mean {meant}\?"):
        ClusterReadOptions.parse({**BASE, **given})


def test_options_of_other_sources_are_ignored_with_one_warning_each(backend, caplog):
    extra = {"inferSchema": "true", "multiline": "true", "checkpointLocation": "/tmp/c"}
    with caplog.at_level(logging.WARNING, "kafkawire.cluster"):
        ClusterReadOptions.parse({**BASE, **extra})
        ClusterReadOptions.parse({**BASE, **extra})  # Spark parses a query's options more than once
    said = [r.getMessage() for r in caplog.records]
    for name in extra:
        assert len([m for m in said if m.startswith(f"option {name.lower()} ")]) <= 1
    assert any("option inferschema is no option of Spark's Kafka connector" in m for m in said), said


@pytest.mark.parametrize("name", sorted(kafka_settings.CONNECTOR_REFUSES["read"]))
def test_settings_the_connector_refuses_get_its_explanation(backend, name):
    with pytest.raises(ValueError, match=f"Kafka option '{name}' is not supported"):
        ClusterReadOptions.parse({**BASE, f"kafka.{name}": "x"})


def test_the_connectors_read_options_mean_what_they_mean_there(backend):
    parsed = ClusterReadOptions.parse(
        {
            **BASE,
            "kafkaConsumer.pollTimeoutMs": "512",
            "fetchOffset.numRetries": "7",
            "fetchOffset.retryIntervalMs": "25",
            "minOffsetsPerTrigger": "50",
            "maxOffsetsPerTrigger": "500",
            "maxTriggerDelay": "2m",
            "groupIdPrefix": "job",
            "kafka.group.id": "orders-job",
        }
    )
    assert (
        parsed.poll_timeout,
        parsed.offset_fetch_attempts,
        parsed.offset_fetch_interval_ms,
        parsed.min_offsets_per_trigger,
        parsed.max_offsets_per_trigger,
        parsed.max_trigger_delay_ms,
        parsed.group_id_prefix,
        parsed.group_id,
    ) == (0.512, 7, 25, 50, 500, 120_000, "job", "orders-job")
    # the connector's own words when the minimum is above the maximum
    with pytest.raises(
        ValueError,
        match=r"The value of minOffsetPerTrigger\(9\) is higher than the maxOffsetsPerTrigger\(3\)",
    ):
        ClusterReadOptions.parse({**BASE, "minOffsetsPerTrigger": "9", "maxOffsetsPerTrigger": "3"})


@pytest.mark.parametrize("draw", range(4))
def test_durations_read_as_spark_reads_them(backend, draw):
    from kafkawire.cluster.options import duration_ms

    rng = random.Random(SEED + 300 + draw)
    n = rng.randrange(0, 10_000)
    unit, factor = rng.choice(
        [("", 1), ("ms", 1), ("s", 1000), ("m", 60_000), ("min", 60_000), ("h", 3_600_000), ("d", 86_400_000)]
    )
    assert duration_ms(f"{n}{unit}", "maxTriggerDelay") == n * factor
    with pytest.raises(ValueError, match="option maxTriggerDelay"):
        duration_ms(f"{n} fortnights", "maxTriggerDelay")


def test_tls_versions_and_cipher_suites_shape_the_context(backend):
    import ssl

    base = {"bootstrap.servers": "127.0.0.1:9093", "security.protocol": "SSL", "ssl.truststore.type": "PEM"}
    only12 = ClientConfig.parse({**base, "ssl.protocol": "TLSv1.2"}).ssl_context()
    assert only12.maximum_version == ssl.TLSVersion.TLSv1_2
    both = ClientConfig.parse({**base, "ssl.protocol": "TLSv1.3"}).ssl_context()
    assert (both.minimum_version, both.maximum_version) == (ssl.TLSVersion.TLSv1_2, ssl.TLSVersion.TLSv1_3)
    only13 = ClientConfig.parse({**base, "ssl.enabled.protocols": "TLSv1.3"}).ssl_context()
    assert only13.minimum_version == ssl.TLSVersion.TLSv1_3
    suites = ClientConfig.parse(
        {**base, "ssl.cipher.suites": "TLS_ECDHE_RSA_WITH_AES_256_GCM_SHA384,TLS_AES_128_GCM_SHA256"}
    ).ssl_context()
    tls12 = {c["name"] for c in suites.get_ciphers() if c["protocol"] == "TLSv1.2"}
    assert tls12 == {"ECDHE-RSA-AES256-GCM-SHA384"}
    with pytest.raises(ValueError, match="SSLv3 is not a TLS version"):
        ClientConfig.parse({**base, "ssl.enabled.protocols": "SSLv3"})


def test_kafkas_own_partitioners_are_taken_and_any_other_class_named(backend):
    from kafkawire.cluster.produce import partitioner_of

    assert partitioner_of(None) == "default"
    assert partitioner_of("org.apache.kafka.clients.producer.RoundRobinPartitioner") == "round_robin"
    assert (
        partitioner_of("kafkashaded.org.apache.kafka.clients.producer.RoundRobinPartitioner") == "round_robin"
    )
    with pytest.raises(ValueError, match="not com.example.ByRegion"):
        partitioner_of("com.example.ByRegion")


def test_idempotence_is_refused_where_kafkas_producer_refuses_it(backend):
    pytest.importorskip("pyspark")
    from kafkawire.spark.kafka_cluster import ClusterWriteOptions

    base = {"kafka.bootstrap.servers": "127.0.0.1:9092"}
    assert not ClusterWriteOptions.parse({**base, "kafka.acks": "1"}).idempotent
    assert ClusterWriteOptions.parse({**base, "kafka.acks": "all"}).idempotent
    for conflict, message in (
        ({"kafka.acks": "1"}, "Must set acks to all"),
        ({"kafka.retries": "0"}, "Must set retries to non-zero"),
        ({"kafka.max.in.flight.requests.per.connection": "6"}, "at most 5"),
    ):
        with pytest.raises(ValueError, match=message):
            ClusterWriteOptions.parse({**base, "kafka.enable.idempotence": "true", **conflict})


def test_the_driver_tries_offset_lookups_as_often_as_asked(backend, monkeypatch):
    pytest.importorskip("pyspark")
    from kafkawire.errors import ClusterError, DataLossError
    from kafkawire.spark import kafka_cluster as cluster

    monkeypatch.setattr(cluster.time, "sleep", lambda s: None)
    options = ClusterReadOptions.parse(
        {**BASE, "fetchOffset.numRetries": "4", "fetchOffset.retryIntervalMs": "0"}
    )
    calls = []

    def failing(n):
        def lookup():
            calls.append(1)
            if len(calls) <= n:
                raise ClusterError("no bootstrap server answered")
            return "planned"

        return lookup

    assert cluster.with_offset_retries(options, "planning", failing(3)) == "planned" and len(calls) == 4
    calls.clear()
    with pytest.raises(ClusterError):
        cluster.with_offset_retries(options, "planning", failing(4))
    assert len(calls) == 4
    calls.clear()

    def lost():
        calls.append(1)
        raise DataLossError("gone")

    with pytest.raises(DataLossError):
        cluster.with_offset_retries(options, "planning", lost)
    assert len(calls) == 1


def test_min_offsets_per_trigger_waits_until_enough_or_the_delay(backend, monkeypatch):
    pytest.importorskip("pyspark")
    streaming = pytest.importorskip("pyspark.sql.streaming.datasource")
    if not hasattr(streaming, "ReadMinRows"):
        with pytest.raises(ValueError, match="PySpark 4.2 or newer"):
            from kafkawire.spark.kafka_cluster import ClusterStreamReader

            ClusterStreamReader(ClusterReadOptions.parse({**BASE, "minOffsetsPerTrigger": "10"}))
        return
    from kafkawire.spark import kafka_cluster as cluster

    clock = [1000.0]
    monkeypatch.setattr(cluster.time, "time", lambda: clock[0])
    waiting = {("t", 0): 0}
    monkeypatch.setattr(cluster.planning, "latest", lambda c, o, known=None: dict(waiting))
    reader = cluster.ClusterStreamReader(
        ClusterReadOptions.parse(
            {**BASE, "minOffsetsPerTrigger": "10", "maxTriggerDelay": "60s"}, streaming=True
        )
    )
    limit = reader.getDefaultReadLimit()
    assert isinstance(limit, streaming.ReadMinRows) and limit.min_rows == 10
    start = {"t": {"0": 0}}
    waiting[("t", 0)] = 3
    assert reader.latestOffset(start, limit) == {"t": {"0": 3}}  # the first trigger never waits
    clock[0] += 1
    waiting[("t", 0)] = 8
    assert reader.latestOffset({"t": {"0": 3}}, limit) == {"t": {"0": 3}}  # 5 waiting: put off
    waiting[("t", 0)] = 13
    assert reader.latestOffset({"t": {"0": 3}}, limit) == {"t": {"0": 13}}  # 10 waiting: go
    clock[0] += 30
    waiting[("t", 0)] = 14
    assert reader.latestOffset({"t": {"0": 13}}, limit) == {"t": {"0": 13}}
    clock[0] += 31  # maxTriggerDelay since the last batch: go with what there is
    assert reader.latestOffset({"t": {"0": 13}}, limit) == {"t": {"0": 14}}


# -- Kafka's own jar as the oracle ---------------------------------------------------------------

JAVA = Path(__file__).parents[1] / "support" / "kafka" / "KafkaClientSettings.java"


def _java(*args: str, stdin: str = "") -> str:
    from support.kafka.jars import classpath_string, java_executable, require_kafka

    require_kafka()
    proc = subprocess.run(
        [java_executable(), "-cp", classpath_string(), str(JAVA), *args],
        input=stdin,
        capture_output=True,
        text=True,
        timeout=300,
    )
    assert proc.returncode == 0, proc.stderr[-2000:]
    return proc.stdout


@pytest.mark.kafka
def test_the_setting_names_are_kafka_4_4s(backend):
    from support.kafka.jars import KAFKA_VERSION

    assert kafka_settings.KAFKA_VERSION == KAFKA_VERSION
    names = json.loads(_java("names"))
    assert sorted(kafka_settings.CONSUMER) == sorted(names["consumer"])
    assert sorted(kafka_settings.PRODUCER) == sorted(names["producer"])


def _jaas_value(rng: random.Random) -> str:
    alphabet = "abcXYZ019 =;:/'\"\\$.-_{}"
    return "".join(rng.choice(alphabet) for _ in range(rng.randrange(0, 12)))


def _jaas_line(rng: random.Random):
    """A JAAS line as users write them: quotes of either kind, escapes, several lines,
    comments; and the options it holds."""
    module = rng.choice(
        [
            "org.apache.kafka.common.security.plain.PlainLoginModule",
            "org.apache.kafka.common.security.scram.ScramLoginModule",
            "kafkashaded.org.apache.kafka.common.security.plain.PlainLoginModule",
        ]
    )
    parts = [module, rng.choice(["required", "REQUIRED", "optional"])]
    expected = {}
    for i in range(rng.randrange(0, 4)):
        key = rng.choice(["username", "password", "tokenauth", "user_x", f"k{i}"])
        value = _jaas_value(rng)
        quote = rng.choice("\"'")
        escaped = value.replace("\\", "\\\\").replace(quote, "\\" + quote)
        if rng.random() < 0.2 and value and value.isalpha():
            text = value  # a bare word
        else:
            text = quote + escaped + quote
        parts.append(f"{key}{rng.choice(['=', ' = '])}{text}")
        expected[key] = value
    sep = rng.choice([" ", "\n  ", " /* c */ ", "\n// c\n"])
    return sep.join(parts) + rng.choice([";", " ;", ";\n"]), expected


@pytest.mark.kafka
def test_jaas_lines_read_as_kafkas_own_parser_reads_them(backend):
    rng = random.Random(SEED + 400)
    lines = [_jaas_line(rng)[0] for _ in range(60)]
    theirs = json.loads(_java("jaas", stdin=json.dumps(lines)))
    for line, java in zip(lines, theirs):
        if "error" in java:
            with pytest.raises(ValueError):
                parse_jaas(line)
            continue
        module, options = parse_jaas(line)
        assert (module, options) == (java["module"].removeprefix("kafkashaded."), java["options"]), line


# -- the settings that shape what goes on the wire ----------------------------------------------


def test_socket_buffer_settings_size_the_connections_socket(backend):
    import socket

    from kafkawire.broker import Broker
    from kafkawire.cluster.client import Cluster

    with Broker(num_partitions=1) as broker:
        config = ClientConfig.parse(
            {
                "bootstrap.servers": f"127.0.0.1:{broker.port}",
                "receive.buffer.bytes": "65536",
                "send.buffer.bytes": "32768",
            }
        )
        with Cluster(config) as cluster:
            conn = cluster.run(cluster.aio.any_connection())
            sock = conn._stream.get_extra_info("socket")
            # Linux keeps twice what is asked, for its own bookkeeping
            assert sock.getsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF) in (65536, 2 * 65536)
            assert sock.getsockopt(socket.SOL_SOCKET, socket.SO_SNDBUF) in (32768, 2 * 32768)


def test_a_record_over_max_request_size_fails_naming_it(backend):
    pa = pytest.importorskip("pyarrow")
    from kafkawire.cluster.produce import Producer

    producer = Producer(None, max_record_bytes=1000, backend=backend)  # type: ignore[arg-type]
    producer._partition_counts["orders"] = 1  # no cluster is asked: the size is checked first
    with pytest.raises(
        ValueError, match="topic 'orders' is .* larger than 1000, the value of max.request.size"
    ):
        producer.send_arrow("orders", pa.array([b"x" * 10, b"y" * 2000]), keys=pa.array([b"k", b"k"]))
    with pytest.raises(ValueError, match="max.request.size"):
        producer.send("orders", b"z" * 2000)


def test_java_stores_without_the_stores_extra_say_how_to_install_it(backend, monkeypatch):
    import sys

    monkeypatch.setitem(sys.modules, "jks", None)  # what `import jks` meets when it is not installed
    with pytest.raises(ValueError, match=r"needs the package jks: pip install kafkawire\[stores\]"):
        ClientConfig.parse(
            {
                "bootstrap.servers": "127.0.0.1:9093",
                "security.protocol": "SSL",
                "ssl.truststore.type": "JKS",
                "ssl.truststore.location": "/stores/truststore.jks",
            }
        )


def test_headers_count_toward_the_record_that_carries_them(backend):
    pa = pytest.importorskip("pyarrow")
    from kafkawire.cluster.produce import Producer

    # not idempotent: no producer id to ask for, and nothing is sent, so no cluster
    producer = Producer(None, max_record_bytes=1000, idempotent=False, acks=1, backend=backend)  # type: ignore[arg-type]
    producer._partition_counts["orders"] = 1
    header = pa.struct([("key", pa.string()), ("value", pa.binary())])
    small = [[{"key": "h", "value": b"x" * 100}]] * 50  # 5000 header bytes in all, 100 a row
    producer.send_arrow("orders", pa.array([b"v"] * 50), headers=pa.array(small, pa.list_(header)))
    big = [[{"key": "h", "value": b"x" * 2000}]]
    with pytest.raises(ValueError, match="max.request.size"):
        producer.send_arrow("orders", pa.array([b"v"]), headers=pa.array(big, pa.list_(header)))
