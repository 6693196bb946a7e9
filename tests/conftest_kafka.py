"""The real-Kafka fixtures, loaded by ``tests/conftest.py`` as a plugin.

One Apache Kafka 4.4 broker (``kafka_support.broker``) serves every test of the run that
asks for ``kafka_broker``; it starts on first use and stops when the session ends.
``spark_connector`` is the shared SparkSession with Spark's own Kafka connector added.

``kafka_workload`` and ``kafka_tiered`` each run a broker of their own under Java clients
for a minute or more, mostly waiting on them: when a selected test uses one, it starts
in a child Python as the session starts (:mod:`kafka_support.background`) and runs while
the tests before its first user do; the fixture then waits for it.
"""

from __future__ import annotations

import os
import shutil
import tempfile
from pathlib import Path

import pytest

# fixture -> the module that writes it in a child Python (python -m MODULE DEST)
_BACKGROUND = {"kafka_workload": "kafka_support.workload", "kafka_tiered": "kafka_support.tiered"}
_jobs: dict = {}  # fixture -> kafka_support.background.Job
_WAIT = 900  # seconds a fixture waits for its child: the broker, the workload, a clean stop


def pytest_collection_finish(session):
    if session.config.option.collectonly:
        return
    used = {name for item in session.items for name in getattr(item, "fixturenames", ())}
    wanted = [fixture for fixture in _BACKGROUND if fixture in used]
    if not wanted:
        return
    from conftest import subprocess_env
    from kafka_support import background

    tests = str(Path(__file__).parent)
    env = subprocess_env()
    env["PYTHONPATH"] = os.pathsep.join([tests, env["PYTHONPATH"]])
    where = Path(tempfile.mkdtemp(prefix="kafkawire-background-"))
    for fixture in wanted:
        _jobs[fixture] = background.start(_BACKGROUND[fixture], where / fixture, env)


def pytest_sessionfinish(session):
    for job in _jobs.values():
        job.stop()
        shutil.rmtree(job.dest.parent, ignore_errors=True)


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
def kafka_cluster():
    """Three Kafka 4.4 brokers (:class:`kafka_support.cluster.KafkaCluster`): replication
    factor 3, ``min.insync.replicas=2``; started on first use, shared by the tests that
    ask for it.  A test that kills a broker starts it again before it ends."""
    from kafka_support.jars import require_kafka

    require_kafka()
    from kafka_support.cluster import start_cluster

    cluster = start_cluster()
    try:
        yield cluster
    finally:
        cluster.stop()


@pytest.fixture(scope="session")
def kafka_workload(tmp_path_factory):
    """A data directory a broker of its own wrote under a real client workload, and what
    Kafka's consumer read from it (:class:`kafka_support.workload.Workload`)."""
    from kafka_support.jars import require_kafka

    require_kafka()
    from kafka_support.workload import load_workload, run_workload

    if "kafka_workload" in _jobs:
        return load_workload(_jobs["kafka_workload"].wait(_WAIT))
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
    from kafka_support.tiered import load_tiered_workload, run_tiered_workload

    if "kafka_tiered" in _jobs:
        return load_tiered_workload(_jobs["kafka_tiered"].wait(_WAIT))
    return run_tiered_workload(tmp_path_factory.mktemp("kafka-tiered"))
