"""A Kafka 4.4 broker with tiered storage on, its topics mostly in the remote tier.

:func:`run_tiered_workload` starts a broker of its own (``start_broker``) with KIP-405
tiered storage: Kafka's file-based RemoteStorageManager (``LocalTieredStorage``, from
kafka-storage's test jar: no other RemoteStorageManager is on Maven Central) writing
under ``dest/remote``, and the default ``TopicBasedRemoteLogMetadataManager`` keeping
its records in ``__remote_log_metadata``.  ``TieredWorkloadDriver.java`` writes one
topic per codec (small segments, a small local retention, committed and aborted
transactions), waits until each partition's local log starts past what the remote tier
holds, and reads every topic back with Kafka's consumer under both isolation levels.
The broker is then stopped cleanly and its data directory moved to ``dest/logs``.
"""

from __future__ import annotations

import hashlib
import json
import os
import shutil
import subprocess
import tempfile
import time
import zipfile
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Dict, List

from support.kafka.broker import start_broker
from support.kafka.jars import CACHE_DIR, classpath_string, java_executable, javac_executable
from support.kafka.java_clients import COMPILE_TIMEOUT, compiled
from support.kafka.jvm import start_options
from support.kafka.workload import stop_cleanly

DRIVER_SOURCE = Path(__file__).with_name("TieredWorkloadDriver.java")
COMPAT_SOURCE = Path(__file__).parent / "compat" / "LogContext.java"
DRIVER_TIMEOUT = 300  # seconds: produce, wait for tiering (at most 120 s), read back
RSM_CLASS = "org.apache.kafka.server.log.remote.storage.LocalTieredStorage"
METADATA_TOPIC = "__remote_log_metadata"


def broker_properties(remote_dir: Path) -> Dict[str, object]:
    """What turns tiered storage on, with quick copy and local-retention passes."""
    return {
        "remote.log.storage.system.enable": "true",
        "remote.log.storage.manager.class.name": RSM_CLASS,
        "rsm.config.dir": str(remote_dir),
        "remote.log.metadata.manager.listener.name": "PLAINTEXT",
        "rlmm.config.remote.log.metadata.topic.replication.factor": 1,
        "rlmm.config.remote.log.metadata.topic.num.partitions": 1,
        "remote.log.manager.task.interval.ms": 500,  # copy closed segments soon
        "log.retention.check.interval.ms": 500,  # and drop the tiered ones locally soon
    }


def compat_jar() -> Path:
    """``compat/LogContext.java`` compiled against the Kafka jars, as a cached jar."""
    key = hashlib.sha256(COMPAT_SOURCE.read_bytes() + classpath_string().encode()).hexdigest()[:16]
    built = CACHE_DIR / f"tiered-compat-{key}.jar"
    if built.exists():
        return built
    CACHE_DIR.mkdir(parents=True, exist_ok=True)
    with tempfile.TemporaryDirectory(dir=CACHE_DIR) as tmp:
        classes = Path(tmp) / "classes"
        proc = subprocess.run(
            [
                javac_executable(),
                "-nowarn",
                "-cp",
                classpath_string(),
                "-d",
                str(classes),
                str(COMPAT_SOURCE),
            ],
            capture_output=True,
            text=True,
            timeout=COMPILE_TIMEOUT,
        )
        if proc.returncode != 0:
            raise AssertionError(f"javac failed on {COMPAT_SOURCE.name}:\n{proc.stdout}{proc.stderr}")
        partial = Path(tmp) / built.name
        with zipfile.ZipFile(partial, "w") as jar:
            for cls in sorted(classes.rglob("*.class")):
                jar.write(cls, cls.relative_to(classes).as_posix())
        os.replace(partial, built)
    return built


@dataclass
class TieredWorkload:
    log_dir: Path  # the broker's whole data directory (the local tier, and the metadata topic)
    remote_dir: Path  # what LocalTieredStorage wrote (the remote tier)
    summary: Dict[str, Any]  # see TieredWorkloadDriver.java
    records: Dict[str, List[Dict[str, Any]]]  # isolation level -> Kafka's consumer's records
    seconds: float

    @property
    def topics(self) -> List[str]:
        return list(self.summary["topics"])

    @property
    def metadata_dir(self) -> Path:
        return self.log_dir / f"{METADATA_TOPIC}-0"


def run_tiered_workload(dest: Path) -> TieredWorkload:
    """Run the tiered workload against a broker of its own; keep its two tiers in ``dest``."""
    write_tiered_workload(dest)
    return load_tiered_workload(dest)


def write_tiered_workload(dest: Path) -> None:
    """The two tiers to ``dest/logs`` and ``dest/remote``, what Kafka's consumer read and
    the driver's summary to ``dest/consumer``."""
    began = time.monotonic()
    jar = compiled(DRIVER_SOURCE)
    remote = dest / "remote"
    remote.mkdir(parents=True)
    out = dest / "consumer"
    out.mkdir()
    broker = start_broker(extra_properties=broker_properties(remote), extra_classpath=[compat_jar()])
    try:
        cp = os.pathsep.join([str(jar), classpath_string()])
        options, dumped = start_options("tiered-workload-driver", cp)
        cmd = [java_executable(), "-Xmx192m", *options, "-cp", cp, "TieredWorkloadDriver"]
        try:
            proc = subprocess.run(
                [*cmd, broker.bootstrap_servers, str(out)],
                capture_output=True,
                text=True,
                timeout=DRIVER_TIMEOUT,
            )
        except subprocess.TimeoutExpired as exc:
            raise AssertionError(
                f"the tiered workload did not finish in {DRIVER_TIMEOUT} s: {exc.stderr!r:.3000}"
            )
        dumped()
        if proc.returncode != 0:
            raise AssertionError(
                f"the tiered workload failed ({proc.returncode}):\n{proc.stdout[-2000:]}\n{proc.stderr[-4000:]}"
                f"\nbroker:\n{broker.output()[-3000:]}"
            )
        stop_cleanly(broker)
        broker.after_exit()
        shutil.move(str(broker.log_dir), dest / "logs")
    finally:
        broker.stop()
    (dest / "seconds").write_text(f"{time.monotonic() - began:.1f}")


def load_tiered_workload(dest: Path) -> TieredWorkload:
    """What :func:`write_tiered_workload` left in ``dest``."""
    out = dest / "consumer"
    records = {}
    for isolation in ("read_uncommitted", "read_committed"):
        lines = (out / f"{isolation}.jsonl").read_text().splitlines()
        records[isolation] = [json.loads(line) for line in lines]
    summary = json.loads((out / "summary.json").read_text())
    seconds = float((dest / "seconds").read_text())
    return TieredWorkload(dest / "logs", dest / "remote", summary, records, seconds)


if __name__ == "__main__":  # started by support.kafka.background
    from support.kafka.background import run_as_child

    run_as_child(write_tiered_workload)
