"""``kafka-cluster`` on a multi-process Spark: jobs submitted with ``spark-submit`` to a
standalone cluster (a master and two one-core workers, each a process of its own; the
``spark_standalone`` fixture), whose executors run kafkawire from a virtualenv shipped as
an archive with ``spark.archives``.  The broker is the session's Kafka 4.4; the oracles are
Spark's own ``kafka`` connector on the same cluster and Kafka's Java consumer.
"""

from __future__ import annotations

import json
import os
import signal
import subprocess
import time
import uuid
from pathlib import Path

import pytest
from test_spark_kafka_cluster import create_topic, produce

# in_process: each job takes its backend as a query option, so the first leg already runs
# both on the cluster's executors; the pure-Python leg would repeat minutes of the same
pytestmark = [pytest.mark.kafka, pytest.mark.spark, pytest.mark.in_process]

JOB = Path(__file__).parents[1] / "support" / "kafka" / "spark_standalone_job.py"
SUBMIT_TIMEOUT = 600  # seconds for one submitted job on a busy 2-core machine
READY_TIMEOUT = 300  # seconds for the held task to start


def _start(cluster, job: str, arguments: dict, jars=()) -> subprocess.Popen:
    from conftest import subprocess_env
    from support.kafka.spark_standalone import spark_home

    cmd = cluster.submit_command(JOB, [job, json.dumps(arguments)], jars)
    # pyspark's own Spark home: the shipped venv has no pyspark and takes it from the
    # home's python/lib zip, which the home local_session gave this process leaves out
    env = subprocess_env(SPARK_LOCAL_IP="127.0.0.1", SPARK_HOME=str(spark_home()))
    return subprocess.Popen(
        cmd,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        env=env,
        cwd=cluster.driver_dir,
        start_new_session=True,
    )


def _result(proc: subprocess.Popen) -> dict:
    try:
        out, err = proc.communicate(timeout=SUBMIT_TIMEOUT)
    except subprocess.TimeoutExpired:
        os.killpg(proc.pid, signal.SIGKILL)
        out, err = proc.communicate()
        raise AssertionError(f"the job did not finish in {SUBMIT_TIMEOUT} s:\n{err[-5000:]}")
    from support.kafka.spark_standalone_job import RESULT_MARKER

    lines = [line for line in out.splitlines() if line.startswith(RESULT_MARKER)]
    start = out.find("Traceback")  # the driver's Python error, else the end of its output
    why = out[start : start + 6000] if start >= 0 else out[-6000:]
    assert proc.returncode == 0 and lines, f"spark-submit exited {proc.returncode}:\n{why}\n{err[-3000:]}"
    result = json.loads(lines[-1][len(RESULT_MARKER) :])
    assert result["executors"] == 2  # the tasks ran in the workers' executors
    return result


def submit(cluster, job: str, arguments: dict, jars=()) -> dict:
    return _result(_start(cluster, job, arguments, jars))


def _topic(kafka_broker, prefix: str, partitions: int, count: int):
    """A new topic of ``partitions`` with ``count`` records spread over them (random
    lengths, some null keys); returns its name and the values produced."""
    import random

    boot = kafka_broker.bootstrap_servers
    name = f"kw-standalone-{prefix}-{uuid.uuid4().hex[:8]}"
    create_topic(boot, name, partitions)
    rng = random.Random(name)
    values = [b"%s-%d-" % (prefix.encode(), i) + rng.randbytes(rng.randrange(0, 200)) for i in range(count)]
    records = [
        (i % partitions, None if i % 7 == 0 else b"k%d" % (i % 11), v, [("i", b"%d" % i)])
        for i, v in enumerate(values)
    ]
    produce(boot, name, records, **{"compression.type": "lz4"})
    return name, values


def test_a_batch_read_on_the_cluster_equals_the_connectors(spark_standalone, kafka_broker, backend):
    from support.kafka.spark_kafka import connector

    topic, values = _topic(kafka_broker, "read", 3, 300)
    options = {
        "kafka.bootstrap.servers": kafka_broker.bootstrap_servers,
        "subscribe": topic,
        "includeHeaders": "true",
        "minPartitions": "4",  # ranges cut inside batches, spread over both executors
    }
    got = submit(spark_standalone, "read", {"options": options, "backend": backend}, connector().jars)
    assert got["same_schema"]
    assert len(got["theirs"]) == len(values)
    assert got["ours"] == got["theirs"]


def _stream_args(kafka_broker, topic, tmp_path, backend, **extra):
    return {
        "options": {
            "kafka.bootstrap.servers": kafka_broker.bootstrap_servers,
            "subscribe": topic,
            "startingOffsets": "earliest",
            "maxOffsetsPerTrigger": "150",
        },
        "backend": backend,
        "out": str(tmp_path / "out"),
        "checkpoint": str(tmp_path / "checkpoint"),
        **extra,
    }


def _exactly_once(result, values, partitions):
    records = result["records"]
    assert sorted(bytes.fromhex(v) for _, _, v in records) == sorted(values)
    for p in range(partitions):  # each offset once, none missing
        offsets = sorted(o for q, o, _ in records if q == p)
        assert offsets == list(range(len(offsets)))


def test_a_stream_on_the_cluster_writes_every_record_once(spark_standalone, kafka_broker, tmp_path, backend):
    topic, values = _topic(kafka_broker, "stream", 3, 400)
    got = submit(spark_standalone, "stream", _stream_args(kafka_broker, topic, tmp_path, backend))
    assert got["batches"] >= 3  # 400 records at 150 a trigger
    _exactly_once(got, values, 3)


def test_a_write_on_the_cluster_is_read_back_by_javas_consumer(spark_standalone, kafka_broker, backend):
    from support.kafka.java_clients import run_java

    boot = kafka_broker.bootstrap_servers
    topic = f"kw-standalone-write-{uuid.uuid4().hex[:8]}"
    create_topic(boot, topic, 4)
    count = 500
    assert (
        submit(
            spark_standalone, "write", {"bootstrap": boot, "topic": topic, "backend": backend, "count": count}
        )["written"]
        == count
    )
    consumed = run_java(
        {"op": "consume", "bootstrap": boot, "topics": [topic], "group": topic, "expect": count}, timeout=180
    )["records"]
    got = sorted((bytes.fromhex(r["key"]).decode(), bytes.fromhex(r["value"]).decode()) for r in consumed)
    assert got == sorted((f"k{i % 17}", f"value-{i}") for i in range(count))


def test_a_python_worker_killed_mid_task_is_retried_and_the_sink_holds_each_record_once(
    spark_standalone, kafka_broker, tmp_path, backend
):
    topic, values = _topic(kafka_broker, "kill", 3, 400)
    hold = tmp_path / "hold"
    hold.mkdir()
    proc = _start(
        spark_standalone, "stream", _stream_args(kafka_broker, topic, tmp_path, backend, hold=str(hold))
    )
    ready = hold / "ready"
    deadline = time.monotonic() + READY_TIMEOUT
    while not ready.exists():
        if proc.poll() is not None or time.monotonic() > deadline:
            _result(proc)  # shows why the job ended
            raise AssertionError(f"no task held in {READY_TIMEOUT} s")
        time.sleep(0.2)
    os.kill(int(ready.read_text()), signal.SIGKILL)  # the Python worker inside the task
    got = _result(proc)
    assert max(got["attempts"]) >= 1  # a retried task wrote some of the rows
    _exactly_once(got, values, 3)
