"""The real-Kafka fixture, loaded by ``tests/conftest.py`` as a plugin.

One Apache Kafka 4.4 broker (``kafka_support.broker``) serves every test of the run that
asks for ``kafka_broker``; it starts on first use and stops when the session ends.
"""

from __future__ import annotations

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
