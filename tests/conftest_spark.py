"""The Spark fixtures, loaded by ``tests/conftest.py`` as a plugin.

One local SparkSession serves every Spark test of the run (starting one costs seconds).
Its Python workers are separate processes: tests pass the backend they run on to the
``kafka-log`` source as its ``backend`` option, so the python-backend run decodes with
the pure backend in the workers too.
"""

from __future__ import annotations

import os
import shutil
import sys

import pytest


@pytest.fixture(scope="session")
def spark():
    """A session-scoped ``local[2]`` SparkSession with ``kafka-log`` registered."""
    pytest.importorskip("pyspark")
    pytest.importorskip("pyarrow")
    if shutil.which("java") is None and not os.environ.get("JAVA_HOME"):
        pytest.skip("Spark needs a Java runtime (java on PATH or JAVA_HOME)")
    # set here too, before anything starts a JVM: the workers run this interpreter
    os.environ["PYSPARK_PYTHON"] = sys.executable
    os.environ["SPARK_LOCAL_IP"] = "127.0.0.1"
    from kafkawire.spark import local_session

    session = local_session("local[2]", app="kafkawire-tests", **{"spark.sql.shuffle.partitions": "2"})
    yield session
    session.stop()


@pytest.fixture(scope="session")
def spark_standalone(tmp_path_factory):
    """A standalone Spark cluster (:class:`kafka_support.spark_standalone.StandaloneSpark`):
    a master and two one-core workers, each a process of its own, whose executors run a
    packed virtualenv with kafkawire; started on first use, stopped when the session ends."""
    pytest.importorskip("pyspark")
    if shutil.which("java") is None and not os.environ.get("JAVA_HOME"):
        pytest.skip("Spark needs a Java runtime (java on PATH or JAVA_HOME)")
    from kafka_support.spark_standalone import start_standalone

    cluster = start_standalone(tmp_path_factory.mktemp("spark-standalone"))
    try:
        yield cluster
    finally:
        cluster.stop()


@pytest.fixture
def kafka_log(spark, backend):
    """``kafka_log(**options)``: a ``kafka-log`` reader decoding with the test's backend."""

    def reader(**options):
        r = spark.read.format("kafka-log").option("backend", backend)
        for k, v in options.items():
            r = r.option(k, str(v))
        return r

    return reader
