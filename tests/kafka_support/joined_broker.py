"""A second broker joining a running test broker's cluster (:func:`join_broker`).

It is a broker-only KRaft node whose controller is the first broker's: a test puts a
partition's only replica on it and stops it, and that partition is offline (no leader)
in a cluster that otherwise runs on.  It costs one more JVM, so only a test that needs
it starts one.
"""

from __future__ import annotations

import tempfile
import time
from pathlib import Path

from kafka_support.broker import (
    HEAP,
    START_TIMEOUT,
    KafkaBroker,
    _free_ports,
    _launch,
    _run_tool,
    _RUNNING,
    server_properties,
)
from kafka_support.jars import classpath_string, java_executable
from kafka_support.jvm import start_options


def join_broker(first: KafkaBroker, node_id: int = 2, timeout: float = START_TIMEOUT) -> KafkaBroker:
    """Start broker ``node_id`` in ``first``'s cluster; return it once it answers
    ApiVersions (it registers with the controller a moment later)."""
    java = java_executable()
    cp = classpath_string()
    work = Path(tempfile.mkdtemp(prefix="kafkawire-kafka-joined-"))
    port, sasl_port = _free_ports(2)
    host = first.host
    broker = KafkaBroker(
        host=host,
        port=port,
        sasl_port=sasl_port,
        controller_port=first.controller_port,
        cluster_id=first.cluster_id,
        node_id=node_id,
        log_dir=work / "logs",
    )
    config = work / "server.properties"
    config.write_text(
        server_properties(
            node_id=node_id,
            port=port,
            sasl_port=sasl_port,
            controller_port=first.controller_port,
            log_dir=broker.log_dir,
            users=broker.users,
            extra={
                "process.roles": "broker",
                "listeners": f"PLAINTEXT://{host}:{port},SASL_PLAINTEXT://{host}:{sasl_port}",
            },
        )
    )
    began = time.monotonic()
    try:
        options, dumped = start_options("kafka-storage-tool")
        _run_tool(
            [
                java,
                *options,
                "-cp",
                cp,
                "kafka.tools.StorageTool",
                "format",
                "--config",
                str(config),
                "--cluster-id",
                first.cluster_id,
            ],
            cwd=work,
            timeout=timeout,
        )
        dumped()
        broker.command = [java, HEAP, "-Xms64m", "-cp", cp, "kafka.Kafka", str(config)]
        _RUNNING.append(broker)
        _launch(broker, began + timeout)
    except BaseException:
        broker.stop()
        raise
    broker.start_seconds = time.monotonic() - began
    return broker


__all__ = ["join_broker"]
