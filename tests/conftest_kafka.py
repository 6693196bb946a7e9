"""The real-Kafka fixtures, loaded by ``tests/conftest.py`` as a plugin.

One Apache Kafka 4.4 broker (``kafka_support.broker``) serves every test of the run that
asks for ``kafka_broker``; it starts on first use and stops when the session ends.
``spark_connector`` is the shared SparkSession with Spark's own Kafka connector added.
"""

from __future__ import annotations

import os

import pytest


@pytest.fixture(scope="session")
def kafka_broker():
    """A running single-node Kafka 4.4 broker (:class:`kafka_support.broker.KafkaBroker`):
    ``host``, ``port`` (PLAINTEXT), ``sasl_port`` (SASL_PLAINTEXT with PLAIN and
    SCRAM-SHA-256/512), ``users`` (name -> password), ``cluster_id``, ``node_id``."""
    from kafka_support.jars import require_kafka

    require_kafka()
    from kafka_support.broker import start_broker

    broker = start_broker()
    try:
        yield broker
    finally:
        broker.stop()


@pytest.fixture(scope="session")
def kafka_workload(tmp_path_factory):
    """A data directory a broker of its own wrote under a real client workload, and what
    Kafka's consumer read from it (:class:`kafka_support.workload.Workload`)."""
    from kafka_support.jars import require_kafka

    require_kafka()
    from kafka_support.workload import run_workload

    return run_workload(tmp_path_factory.mktemp("kafka-workload"))


@pytest.fixture(scope="session")
def spark_connector(spark):
    """The shared session with Spark's Kafka connector on its class path (``kafka``)."""
    from kafka_support.jars import KafkaUnavailable
    from kafka_support.spark_kafka import connector

    try:
        conn = connector()
    except KafkaUnavailable as exc:
        reason = f"Spark's Kafka connector cannot be resolved: {exc}"
        if os.environ.get("KAFKAWIRE_REQUIRE_KAFKA") == "1":
            pytest.fail(reason, pytrace=False)
        pytest.skip(reason)
    for jar in conn.jars:
        spark.sql(f"ADD JAR '{jar}'")
    return spark


@pytest.fixture(scope="session")
def kafka_tiered(tmp_path_factory):
    """The two tiers a tiered-storage broker of its own wrote (most of each topic only in
    the remote tier), and what Kafka's consumer read from it
    (:class:`kafka_support.tiered.TieredWorkload`)."""
    from kafka_support.jars import require_kafka

    require_kafka()
    from kafka_support.tiered import run_tiered_workload

    return run_tiered_workload(tmp_path_factory.mktemp("kafka-tiered"))
