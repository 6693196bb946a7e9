"""The options real jobs pass to Spark's Kafka connector, run through that connector and
``kafka-cluster`` against the session's real Kafka 4.4 broker: the rows must be equal.

Option sets are drawn at random from the settings users write (Kafka's consumer and
producer settings, the connector's own options); trust and key stores are made by
Java's ``keytool``, as Java users make them, for a listener that asks for client
certificates."""

from __future__ import annotations

import os
import random
import subprocess
import time
import uuid
from pathlib import Path

import pytest
from test_spark_kafka_cluster import create_topic, load, produce, same_as_connector

pytestmark = [pytest.mark.kafka, pytest.mark.spark]

SEED = int(os.environ.get("KAFKAWIRE_OPTIONS_SEED", random.randrange(1 << 32)))  # to replay a draw
PARTITIONS = 3

# the read options users pass, with values they write; each draw takes a few
READ_CHOICES = {
    "kafka.session.timeout.ms": ["45000", "10000"],
    "kafka.heartbeat.interval.ms": ["3000"],
    "kafka.max.poll.records": ["500", "1"],
    "kafka.max.poll.interval.ms": ["300000"],
    "kafka.auto.commit.interval.ms": ["5000"],
    "kafka.fetch.min.bytes": ["1", "1024"],
    "kafka.fetch.max.wait.ms": ["100", "500"],
    "kafka.max.partition.fetch.bytes": ["1048576", "65536"],
    "kafka.fetch.max.bytes": ["52428800"],
    "kafka.receive.buffer.bytes": ["65536", "-1", "262144"],
    "kafka.send.buffer.bytes": ["131072", "-1"],
    "kafka.request.timeout.ms": ["30000", "60000"],
    "kafka.client.id": ["orders-job", "etl-7"],
    "kafka.client.rack": ["rack-a"],
    "kafka.check.crcs": ["true", "false"],
    "kafka.metadata.max.age.ms": ["300000"],
    "kafka.reconnect.backoff.ms": ["50"],
    "kafka.connections.max.idle.ms": ["540000"],
    "kafka.client.dns.lookup": ["use_all_dns_ips"],
    "kafka.exclude.internal.topics": ["true"],
    "kafka.allow.auto.create.topics": ["false"],
    "kafka.metrics.num.samples": ["2"],
    "kafka.isolation.level": ["read_committed", "read_uncommitted"],
    "kafka.partition.assignment.strategy": ["org.apache.kafka.clients.consumer.RangeAssignor"],
    "kafka.group.id": ["orders-readers"],
    "groupIdPrefix": ["orders-job"],
    "kafkaConsumer.pollTimeoutMs": ["120000", "60000"],
    "fetchOffset.numRetries": ["3", "5"],
    "fetchOffset.retryIntervalMs": ["10", "1000"],
    "minPartitions": ["2", "5"],
    "maxRecordsPerPartition": ["40"],
    "failOnDataLoss": ["true", "false"],
    "includeHeaders": ["true", "false"],
}


@pytest.fixture(scope="module")
def topic(kafka_broker):
    boot = kafka_broker.bootstrap_servers
    name = f"kw-options-{uuid.uuid4().hex[:8]}"
    create_topic(boot, name, PARTITIONS)
    rng = random.Random(SEED)
    produce(
        boot,
        name,
        [
            (
                i % PARTITIONS,
                None if i % 7 == 0 else b"k%d" % rng.randrange(50),
                b"v" * rng.randrange(200),
                [("h", b"%d" % i)],
            )
            for i in range(300)
        ],
        **{"compression.type": "lz4"},
    )
    return name


@pytest.mark.parametrize("draw", range(4))
def test_random_read_option_sets_read_as_the_connector_does(
    spark_connector, kafka_broker, topic, backend, draw
):
    rng = random.Random(SEED + draw)
    chosen = {name: rng.choice(values) for name, values in rng.sample(sorted(READ_CHOICES.items()), 8)}
    if "kafka.group.id" in chosen:
        # the connector keeps consumers by group id in its JVM, and refuses one group id
        # with other settings: as it warns, a group id belongs to one query
        chosen["kafka.group.id"] += f"-{uuid.uuid4().hex[:8]}"
    options = {"kafka.bootstrap.servers": kafka_broker.bootstrap_servers, "subscribe": topic, **chosen}
    print(f"KAFKAWIRE_OPTIONS_SEED={SEED}: {chosen}")
    assert len(same_as_connector(spark_connector, options, backend)) == 300, f"seed {SEED + draw}: {chosen}"


def test_a_setting_the_connector_refuses_is_refused_with_its_words(
    spark_connector, kafka_broker, topic, backend
):
    options = {
        "kafka.bootstrap.servers": kafka_broker.bootstrap_servers,
        "subscribe": topic,
        "kafka.auto.offset.reset": "earliest",
    }
    with pytest.raises(Exception) as theirs:
        load(spark_connector, "kafka", options).collect()
    with pytest.raises(Exception) as ours:
        load(spark_connector, "kafka-cluster", {**options, "backend": backend}).collect()
    said = "Kafka option 'auto.offset.reset' is not supported"
    assert said in str(theirs.value) and said in str(ours.value)


# -- writes: the same rows and options through both connectors ----------------------------------


def _written(spark, boot, topic):
    df = load(spark, "kafka", {"kafka.bootstrap.servers": boot, "subscribe": topic, "includeHeaders": "true"})
    return sorted((r.partition, r.key, r.value, repr(r.headers)) for r in df.collect())


WRITE_CHOICES = {
    "kafka.acks": ["all", "1", "0", "-1"],
    "kafka.linger.ms": ["0", "5", "50"],
    "kafka.batch.size": ["16384", "1000"],
    "kafka.compression.type": ["none", "lz4", "zstd"],
    "kafka.max.request.size": ["1048576", "2097152"],
    "kafka.max.in.flight.requests.per.connection": ["1", "5"],
    "kafka.retries": ["3", "2147483647"],
    "kafka.buffer.memory": ["33554432"],
    "kafka.delivery.timeout.ms": ["120000"],
    "kafka.client.id": ["orders-writer"],
    "kafka.send.buffer.bytes": ["131072", "-1"],
    "kafka.partitioner.ignore.keys": ["false"],
    "includeHeaders": ["true"],
}


@pytest.mark.parametrize("draw", range(3))
def test_random_write_option_sets_place_rows_as_the_connector_does(
    spark_connector, kafka_broker, backend, draw
):
    boot = kafka_broker.bootstrap_servers
    rng = random.Random(SEED + 50 + draw)
    chosen = {name: rng.choice(values) for name, values in rng.sample(sorted(WRITE_CHOICES.items()), 6)}
    chosen["kafka.acks"] = ["0", "1", "all"][draw % 3]  # each draw its own acks
    print(f"KAFKAWIRE_OPTIONS_SEED={SEED}: {chosen}")
    source = spark_connector.createDataFrame(
        [(b"k%d" % rng.randrange(30), b"v%d" % i, [("h", b"%d" % i)]) for i in range(200)],
        "key binary, value binary, headers array<struct<key:string,value:binary>>",
    ).coalesce(1)
    got = {}
    for fmt in ("kafka", "kafka-cluster"):
        target = f"kw-options-w-{uuid.uuid4().hex[:8]}"
        create_topic(boot, target, PARTITIONS)
        writer = source.write.format(fmt).option("kafka.bootstrap.servers", boot).option("topic", target)
        for k, v in chosen.items():
            writer = writer.option(k, v)
        if fmt == "kafka-cluster":
            writer = writer.option("backend", backend)
        writer.mode("append").save()
        got[fmt] = _written(spark_connector, boot, target)
    assert len(got["kafka"]) == 200 and got["kafka-cluster"] == got["kafka"], (
        f"seed {SEED + 50 + draw}: {chosen}"
    )


def test_round_robin_partitioner_places_rows_as_kafkas_producer_does(spark_connector, kafka_broker, backend):
    """Kafka 4.4's own producer is the oracle here: the connector's kafka-clients 3.9 asks
    the partitioner again for each new batch, so its round robin skips partitions as its
    batches happen to fill."""
    from support.kafka.java_clients import run_java

    boot = kafka_broker.bootstrap_servers
    rr = "org.apache.kafka.clients.producer.RoundRobinPartitioner"
    rng = random.Random(SEED + 60)
    data = [(b"k%d" % rng.randrange(4), b"v%d" % i) for i in range(rng.randrange(20, 80))]
    java_topic, ours_topic = (f"kw-options-rr-{uuid.uuid4().hex[:8]}" for _ in range(2))
    for name in (java_topic, ours_topic):
        create_topic(boot, name, PARTITIONS)
    now = int(time.time() * 1000)
    records = [{"timestamp": now, "key": k.hex(), "value": v.hex(), "headers": []} for k, v in data]
    result = run_java(
        {
            "op": "produce",
            "bootstrap": boot,
            "topic": java_topic,
            "records": records,
            "config": {"partitioner.class": rr},
        },
        timeout=180,
    )
    assert result["failures"] == [] and result["delivered"] == len(data)
    (
        spark_connector.createDataFrame(data, "key binary, value binary")
        .coalesce(1)
        .write.format("kafka-cluster")
        .option("kafka.bootstrap.servers", boot)
        .option("topic", ours_topic)
        .option("kafka.partitioner.class", "kafkashaded." + rr)  # as on Databricks
        .option("backend", backend)
        .mode("append")
        .save()
    )

    def groups(topic):
        """The values each partition got: Kafka's producer goes round the partitions in
        the order its metadata lists them, which the broker does not keep sorted."""
        by_partition = {}
        for partition, _, value, _ in _written(spark_connector, boot, topic):
            by_partition.setdefault(partition, set()).add(value)
        return sorted(sorted(values) for values in by_partition.values())

    expected = groups(java_topic)
    assert len(expected) == PARTITIONS and groups(ours_topic) == expected


# -- Java's trust and key stores, made by keytool ----------------------------------------------


def _keytool(*args: str, cwd: Path) -> None:
    import shutil

    keytool = shutil.which("keytool")
    if keytool is None:
        pytest.skip("Java's keytool is needed to make the stores")
    subprocess.run([keytool, *args], cwd=cwd, check=True, capture_output=True, timeout=120)


def _stores(pki, directory: Path, kind: str) -> dict:
    """A trust store of the CA and a key store of a client key made by keytool and signed
    by the CA (the key with a password of its own in a JKS store), as ``kafka.`` options."""
    from support.tls_certs import CLIENT_SUBJECT, _openssl

    d = directory / kind.lower()
    d.mkdir()
    store = ["-storetype", kind, "-storepass", "store-secret"]
    key_password = "key-secret" if kind == "JKS" else "store-secret"  # PKCS12: one password
    _keytool(
        "-importcert", "-noprompt", "-alias", "ca", "-file", pki.ca, "-keystore", "trust.p", *store, cwd=d
    )
    dname = ",".join(reversed(CLIENT_SUBJECT.strip("/").split("/")))
    keystore = ["-keystore", "client.p", *store, "-keypass", key_password]
    _keytool(
        "-genkeypair",
        "-alias",
        "client",
        "-keyalg",
        "RSA",
        "-keysize",
        "2048",
        "-validity",
        "2",
        "-dname",
        dname,
        *keystore,
        cwd=d,
    )
    _keytool("-certreq", "-alias", "client", "-file", "client.csr", *keystore, cwd=d)
    ca_key = str(Path(pki.ca).with_name("ca.key"))
    _openssl(
        "x509",
        "-req",
        "-in",
        "client.csr",
        "-CA",
        pki.ca,
        "-CAkey",
        ca_key,
        "-CAcreateserial",
        "-out",
        "client.pem",
        "-days",
        "2",
        cwd=d,
    )
    _keytool("-importcert", "-noprompt", "-alias", "ca", "-file", pki.ca, *keystore, cwd=d)
    _keytool("-importcert", "-noprompt", "-alias", "client", "-file", "client.pem", *keystore, cwd=d)
    options = {
        "kafka.ssl.truststore.location": str(d / "trust.p"),
        "kafka.ssl.truststore.password": "store-secret",
        "kafka.ssl.keystore.location": str(d / "client.p"),
        "kafka.ssl.keystore.password": "store-secret",
        "kafka.ssl.key.password": key_password,
    }
    if kind == "PKCS12":  # JKS is Kafka's default type
        options.update({"kafka.ssl.truststore.type": "PKCS12", "kafka.ssl.keystore.type": "PKCS12"})
    return options


@pytest.fixture(scope="module")
def pki(tmp_path_factory):
    from support.tls_certs import make_pki

    return make_pki(tmp_path_factory.mktemp("pki"))


@pytest.fixture(scope="module")
def kafka_mtls(pki):
    """A broker of this module's own whose SSL listener asks for client certificates."""
    from support.kafka.jars import require_kafka

    require_kafka()
    from support.kafka.broker import start_broker

    broker = start_broker(
        tls=(pki.server_cert, pki.server_key),
        extra_properties={
            "ssl.truststore.type": "PEM",
            "ssl.truststore.location": pki.ca,
            "listener.name.ssl.ssl.client.auth": "required",
        },
    )
    try:
        yield broker
    finally:
        broker.stop()


@pytest.mark.timeout(600)
@pytest.mark.parametrize("kind", ["JKS", "PKCS12"])
def test_java_stores_with_client_certificates_read_as_the_connector_does(
    spark_connector, kafka_mtls, pki, tmp_path, backend, kind
):
    pytest.importorskip("cryptography")
    if kind == "JKS":
        pytest.importorskip("jks")
    boot = kafka_mtls.bootstrap_servers
    topic = f"kw-stores-{uuid.uuid4().hex[:8]}"
    create_topic(boot, topic, 2)
    produce(boot, topic, [(i % 2, b"k%d" % i, b"v%d" % i, []) for i in range(120)])
    options = {
        "kafka.bootstrap.servers": f"127.0.0.1:{kafka_mtls.ssl_port}",
        "kafka.security.protocol": "SSL",
        "subscribe": topic,
        **_stores(pki, tmp_path, kind),
        # TLS 1.2 with one suite by its IANA name, or Kafka's default TLS 1.3
        **(
            {
                "kafka.ssl.enabled.protocols": "TLSv1.2",
                "kafka.ssl.cipher.suites": "TLS_ECDHE_RSA_WITH_AES_128_GCM_SHA256",
            }
            if kind == "JKS"
            else {"kafka.ssl.protocol": "TLSv1.3"}
        ),
    }
    assert len(same_as_connector(spark_connector, options, backend)) == 120
    # a wrong key password is refused before any connection, naming the option
    from kafkawire.cluster.plan import ClusterReadOptions

    wrong = {**options, "kafka.ssl.key.password": "nope", "kafka.ssl.keystore.password": "nope"}
    with pytest.raises(ValueError, match="password"):
        ClusterReadOptions.parse(wrong).client.ssl_context()
