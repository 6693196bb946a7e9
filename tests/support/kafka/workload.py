"""A log directory written by a real Kafka 4.4 broker under a real client workload.

:func:`run_workload` starts a broker of its own (``start_broker``) set up so that its
log cleaner runs soon and often, drives it with ``LogWorkloadDriver.java`` (Kafka's Java
clients: every compression codec, headers, null keys and values, idempotent and
transactional producers with one transaction left open, a compacted topic the cleaner
has cleaned, classic, consumer-protocol and share groups, a deleted topic), stops the
broker cleanly and moves its data directory to ``dest``.  The result says where the log
directory is and what Kafka's consumer read from the live broker, under both isolation
levels.
"""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import time
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Dict, List, Tuple

from support.kafka.broker import STOP_TIMEOUT, start_broker
from support.kafka.jars import classpath_string, java_executable
from support.kafka.java_clients import compiled
from support.kafka.jvm import start_options

DRIVER_SOURCE = Path(__file__).with_name("LogWorkloadDriver.java")
DRIVER_TIMEOUT = 300  # seconds, for the whole workload on a busy 2-core machine

BROKER_PROPERTIES = {
    "log.cleaner.backoff.ms": 100,  # the cleaner looks for work ten times a second
    "log.cleaner.threads": 1,
    "log.cleaner.dedupe.buffer.size": 4 * 1024 * 1024,
    "log.cleaner.min.cleanable.ratio": 0.01,
    "log.segment.delete.delay.ms": 600000,  # a deleted topic's folder stays, as -delete
    "log.retention.ms": -1,  # the records carry fixed, old timestamps
}


@dataclass
class Workload:
    log_dir: Path  # the broker's whole data directory
    summary: Dict[str, Any]  # what the driver did (see LogWorkloadDriver.java)
    records: Dict[str, List[Dict[str, Any]]]  # isolation level -> Kafka's consumer's records
    seconds: float  # broker start, workload and clean stop

    @property
    def topics(self) -> List[str]:
        return list(self.summary["topics"])

    def end_offsets(self, isolation: str) -> Dict[str, int]:
        return dict(self.summary["end_offsets"][isolation])


def consumed_rows(records: List[Dict[str, Any]]) -> List[Tuple[Any, ...]]:
    """What a Java driver's consumer read (hex keys, values and header values), sorted, as
    ``(topic, partition, offset, timestamp, key, value, headers)`` tuples of bytes."""
    return sorted(
        (
            r["topic"],
            r["partition"],
            r["offset"],
            r["timestamp"],
            None if r["key"] is None else bytes.fromhex(r["key"]),
            None if r["value"] is None else bytes.fromhex(r["value"]),
            [(k, None if v is None else bytes.fromhex(v)) for k, v in r["headers"]],
        )
        for r in records
    )


def stop_cleanly(broker) -> None:
    """SIGTERM and wait: Kafka's controlled shutdown flushes and checkpoints its logs."""
    proc = broker.process
    proc.terminate()
    try:
        proc.wait(STOP_TIMEOUT * 4)
    except subprocess.TimeoutExpired:
        broker.stop()
        raise AssertionError("the Kafka broker did not shut down cleanly: " + broker.output()[-2000:])


def run_workload(dest: Path) -> Workload:
    """Run the workload against a broker of its own; keep what it wrote in ``dest``."""
    write_workload(dest)
    return load_workload(dest)


def write_workload(dest: Path) -> None:
    """The broker's data directory to ``dest/logs``, what Kafka's consumer read and the
    driver's summary to ``dest/consumer``."""
    began = time.monotonic()
    jar = compiled(DRIVER_SOURCE)
    broker = start_broker(extra_properties=BROKER_PROPERTIES)
    try:
        out = dest / "consumer"
        out.mkdir(parents=True)
        cp = os.pathsep.join([str(jar), classpath_string()])
        options, dumped = start_options("log-workload-driver", cp)
        try:
            proc = subprocess.run(
                [
                    java_executable(),
                    "-Xmx256m",
                    *options,
                    "-cp",
                    cp,
                    "LogWorkloadDriver",
                    broker.bootstrap_servers,
                    str(out),
                ],
                capture_output=True,
                text=True,
                timeout=DRIVER_TIMEOUT,
            )
        except subprocess.TimeoutExpired as exc:
            raise AssertionError(
                f"the log workload did not finish in {DRIVER_TIMEOUT} s: {exc.stderr!r:.3000}"
            ) from None
        dumped()
        if proc.returncode != 0:
            raise AssertionError(
                f"the log workload failed ({proc.returncode}):\n{proc.stdout[-2000:]}\n{proc.stderr[-4000:]}"
            )
        stop_cleanly(broker)
        broker.after_exit()
        shutil.move(str(broker.log_dir), dest / "logs")
        shutil.copy(broker.log_dir.parent / "broker.out", dest / "broker.out")
    finally:
        broker.stop()
    (dest / "seconds").write_text(f"{time.monotonic() - began:.1f}")


def load_workload(dest: Path) -> Workload:
    """What :func:`write_workload` left in ``dest``."""
    out = dest / "consumer"
    records = {}
    for isolation in ("read_uncommitted", "read_committed"):
        lines = (out / f"{isolation}.jsonl").read_text().splitlines()
        records[isolation] = [json.loads(line) for line in lines]
    summary = json.loads((out / "summary.json").read_text())
    seconds = float((dest / "seconds").read_text())
    return Workload(log_dir=dest / "logs", summary=summary, records=records, seconds=seconds)


if __name__ == "__main__":  # started by support.kafka.background
    from support.kafka.background import run_as_child

    run_as_child(write_workload)
