"""The ``kafka-cluster`` Spark source reads a Kerberized topic with the options a user of
Spark's Kafka connector writes (``kafka.sasl.mechanism=GSSAPI``,
``kafka.sasl.kerberos.service.name``, the ``Krb5LoginModule`` JAAS line), and gets the
rows Spark's own connector reads from the same broker (over its PLAINTEXT listener: the
shared Spark JVM has no Kerberos configuration)."""

from __future__ import annotations

import uuid

import pytest

from support.fixtures.kerberos import SERVICE_HOST
from test_spark_kafka_cluster import create_topic, load, produce, rows, sample

pytestmark = [pytest.mark.kafka, pytest.mark.spark, pytest.mark.kerberos, pytest.mark.timeout(600)]


@pytest.fixture(scope="module")
def kerberized_topic(kerberos_kafka):
    """A topic of 2 partitions on the Kerberized broker, written by librdkafka."""
    name = f"kw-kerberized-{uuid.uuid4().hex[:8]}"
    create_topic(kerberos_kafka.bootstrap_servers, name, 2)
    produce(kerberos_kafka.bootstrap_servers, name, [(p % 2, k, v, h) for p, k, v, h in sample("krb", 60)])
    return name


def test_kafka_cluster_reads_a_kerberized_topic_as_the_connector_does(
    spark_connector, kerberos, kerberos_kafka, kerberized_topic, backend
):
    jaas = (
        "com.sun.security.auth.module.Krb5LoginModule required useKeyTab=true storeKey=true "
        f'keyTab="{kerberos.alice_keytab}" principal="{kerberos.alice}";'
    )
    ours = load(
        spark_connector,
        "kafka-cluster",
        {
            "kafka.bootstrap.servers": f"{SERVICE_HOST}:{kerberos_kafka.sasl_port}",
            "kafka.security.protocol": "SASL_PLAINTEXT",
            "kafka.sasl.mechanism": "GSSAPI",
            "kafka.sasl.kerberos.service.name": "kafka",
            "kafka.sasl.jaas.config": jaas,
            "subscribe": kerberized_topic,
            "backend": backend,
        },
    )
    theirs = load(
        spark_connector,
        "kafka",
        {"kafka.bootstrap.servers": kerberos_kafka.bootstrap_servers, "subscribe": kerberized_topic},
    )
    assert ours.schema == theirs.schema
    expected = rows(theirs)
    assert len(expected) == 60
    assert rows(ours) == expected
