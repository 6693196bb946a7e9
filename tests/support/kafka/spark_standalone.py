"""A standalone Spark cluster of the installed PySpark, and jobs submitted to it.

``start_standalone(work)`` runs Spark's own ``Master`` and two ``Worker`` classes through
``spark-class`` under pyspark's ``SPARK_HOME``, each a process of its own on 127.0.0.1,
one core per worker, and waits (bounded) until the master counts both workers alive.

The executors' Python is the one a user ships: a virtualenv holding a kafkawire wheel
built from this checkout, pyarrow and cramjam, packed as a ``.tar.gz`` and passed with
``spark.archives``; Spark unpacks it in each executor's directory and runs
``./environment/bin/python`` (``spark.pyspark.python``).  The venv copies its interpreter
(``--copies``) so nothing in it points back at this checkout.  The archive is cached under
``~/.cache/kafkawire`` keyed by the package's sources and the interpreter's version.

``StandaloneSpark.submit_command(script, args)`` is ``spark-submit`` in client mode: the
driver is this Python.  The driver JVM plans Python data sources with
``spark.pyspark.python`` too, so the job runs in ``driver_dir``, which holds the same
archive unpacked as ``environment``, as each executor's directory does.
"""

from __future__ import annotations

import hashlib
import json
import os
import signal
import subprocess
import sys
import tarfile
import tempfile
import time
import urllib.request
from dataclasses import dataclass, field
from pathlib import Path
from typing import List, Sequence

from support.kafka.broker import _die_with_parent, _free_ports
from support.kafka.jars import CACHE_DIR

ROOT = Path(__file__).resolve().parents[3]  # the checkout: setup.py, kafkawire/
START_TIMEOUT = 180  # seconds for the master and both workers to come up on a busy machine
BUILD_TIMEOUT = 900  # seconds to build the wheel and the venv (Cython compiles on 2 cores)
STOP_TIMEOUT = 30
WORKER_MEMORY = "1g"  # each worker offers this to its one executor
EXECUTOR_MEMORY = "512m"
# what the executors need beside kafkawire: the data source's imports (pyspark itself comes
# from Spark's pyspark.zip on the executors' PYTHONPATH)
EXECUTOR_REQUIREMENTS = ("pyarrow>=14", "cramjam>=2.8")


class StandaloneFailed(RuntimeError):
    pass


def spark_home() -> Path:
    import pyspark

    return Path(pyspark.__file__).parent


def _sources_key() -> str:
    h = hashlib.sha256(sys.version.encode())
    for name in ("setup.py", "pyproject.toml"):
        h.update((ROOT / name).read_bytes())
    for path in sorted((ROOT / "kafkawire").rglob("*")):
        if path.suffix in (".py", ".pyx", ".pxd", ".pyi", ".h", ".typed") or path.name.endswith(".c.in"):
            h.update(str(path.relative_to(ROOT)).encode())
            h.update(path.read_bytes())
    h.update("\n".join(EXECUTOR_REQUIREMENTS).encode())
    return h.hexdigest()[:16]


def _run(cmd: List[str], what: str, **kw) -> None:
    try:
        proc = subprocess.run(cmd, capture_output=True, text=True, timeout=BUILD_TIMEOUT, **kw)
    except subprocess.TimeoutExpired:
        raise StandaloneFailed(f"{what} did not finish in {BUILD_TIMEOUT} s")
    if proc.returncode != 0:
        raise StandaloneFailed(f"{what} failed:\n{proc.stdout[-3000:]}{proc.stderr[-3000:]}")


def executor_archive() -> Path:
    """The packed virtualenv the executors run (built on first use, then cached)."""
    built = CACHE_DIR / f"spark-executor-env-{_sources_key()}.tar.gz"
    if built.exists():
        return built
    CACHE_DIR.mkdir(parents=True, exist_ok=True)
    with tempfile.TemporaryDirectory(dir=CACHE_DIR) as tmp:
        wheels, venv = Path(tmp) / "wheels", Path(tmp) / "venv"
        _run(
            [sys.executable, "-m", "pip", "wheel", "-q", "--no-deps", "-w", str(wheels), str(ROOT)],
            "the wheel",
        )
        _run([sys.executable, "-m", "venv", "--copies", "--without-pip", str(venv)], "the venv")
        # this Python's pip installs into the venv's site-packages (the venv has no pip)
        purelib = subprocess.run(
            [str(venv / "bin" / "python"), "-c", "import sysconfig; print(sysconfig.get_path('purelib'))"],
            capture_output=True,
            text=True,
            check=True,
        ).stdout.strip()
        wheel = next(wheels.glob("kafkawire-*.whl"))
        _run(
            [
                sys.executable,
                "-m",
                "pip",
                "install",
                "-q",
                "--target",
                purelib,
                str(wheel),
                *EXECUTOR_REQUIREMENTS,
            ],
            "installing into the venv",
        )
        partial = Path(tmp) / built.name
        with tarfile.open(partial, "w:gz", compresslevel=1) as tar:
            tar.add(venv, arcname=".")
        os.replace(partial, built)  # whole or not at all, should two runs build at once
    return built


@dataclass
class StandaloneSpark:
    master_url: str
    ui_port: int
    work: Path
    archive: Path
    processes: List[subprocess.Popen] = field(default_factory=list)

    @property
    def driver_dir(self) -> Path:
        return self.work / "driver"

    def alive_workers(self) -> int:
        try:
            with urllib.request.urlopen(f"http://127.0.0.1:{self.ui_port}/json/", timeout=5) as r:
                return int(json.load(r).get("aliveworkers", 0))
        except (OSError, ValueError):
            return 0

    def logs(self) -> str:
        return "\n".join(
            f"== {p.name}\n" + p.read_text(errors="replace")[-4000:] for p in sorted(self.work.glob("*.log"))
        )

    def submit_command(self, script: Path, args: Sequence[str], jars: Sequence[Path] = ()) -> List[str]:
        cmd = [
            str(spark_home() / "bin" / "spark-submit"),
            "--master",
            self.master_url,
            "--conf",
            f"spark.archives={self.archive}#environment",
            "--conf",
            "spark.pyspark.python=./environment/bin/python",
            "--conf",
            f"spark.pyspark.driver.python={sys.executable}",
            "--conf",
            f"spark.executor.memory={EXECUTOR_MEMORY}",
            "--conf",
            "spark.executor.cores=1",
            # the first tasks wait (bounded) for both executors, so both run tasks
            "--conf",
            "spark.cores.max=2",
            "--conf",
            "spark.scheduler.minRegisteredResourcesRatio=1.0",
            "--conf",
            "spark.scheduler.maxRegisteredResourcesWaitingTime=120s",
            "--conf",
            "spark.driver.memory=512m",
            "--conf",
            "spark.driver.host=127.0.0.1",
            "--conf",
            "spark.driver.bindAddress=127.0.0.1",
            "--conf",
            "spark.ui.enabled=false",
            "--conf",
            "spark.log.level=WARN",
            "--conf",
            "spark.sql.shuffle.partitions=2",
        ]
        if jars:
            cmd += ["--jars", ",".join(map(str, jars))]
        return cmd + [str(script), *args]

    def stop(self) -> None:
        for proc in reversed(self.processes):  # the workers (and their executors) first
            if proc.poll() is None:
                os.killpg(proc.pid, signal.SIGTERM)
        for proc in self.processes:
            try:
                proc.wait(STOP_TIMEOUT)
            except subprocess.TimeoutExpired:
                os.killpg(proc.pid, signal.SIGKILL)
                proc.wait(STOP_TIMEOUT)
        self.processes.clear()


def daemon_env() -> dict:
    env = dict(os.environ)
    env.update(
        SPARK_HOME=str(spark_home()),
        SPARK_LOCAL_IP="127.0.0.1",
        SPARK_LOCAL_HOSTNAME="127.0.0.1",
        SPARK_DAEMON_MEMORY="256m",
        PYSPARK_PYTHON=sys.executable,
    )
    return env


def start_standalone(work: Path, workers: int = 2, timeout: float = START_TIMEOUT) -> StandaloneSpark:
    """A master and ``workers`` workers, each a process of its own; raises
    :class:`StandaloneFailed` (with their logs) if they are not up by ``timeout``."""
    archive = executor_archive()
    (work / "driver").mkdir(parents=True, exist_ok=True)
    with tarfile.open(archive) as tar:
        tar.extractall(work / "driver" / "environment", filter="tar")
    port, ui_port, *worker_ui = _free_ports(2 + workers)
    spark = StandaloneSpark(f"spark://127.0.0.1:{port}", ui_port, work, archive)
    spark_class = str(spark_home() / "bin" / "spark-class")
    env = daemon_env()

    def launch(name: str, args: List[str]) -> None:
        with open(work / f"{name}.log", "ab") as log:
            spark.processes.append(
                subprocess.Popen(
                    [spark_class, *args],
                    stdout=log,
                    stderr=subprocess.STDOUT,
                    stdin=subprocess.DEVNULL,
                    env=env,
                    cwd=work,
                    start_new_session=True,  # a process group of its own: stop() ends its children
                    preexec_fn=_die_with_parent,
                )
            )

    try:
        launch(
            "master",
            [
                "org.apache.spark.deploy.master.Master",
                "--host",
                "127.0.0.1",
                "--port",
                str(port),
                "--webui-port",
                str(ui_port),
            ],
        )
        for i in range(workers):
            (work / f"worker-{i}").mkdir(exist_ok=True)
            launch(
                f"worker-{i}",
                [
                    "org.apache.spark.deploy.worker.Worker",
                    "--host",
                    "127.0.0.1",
                    "--cores",
                    "1",
                    "--memory",
                    WORKER_MEMORY,
                    "--webui-port",
                    str(worker_ui[i]),
                    "--work-dir",
                    str(work / f"worker-{i}"),
                    spark.master_url,
                ],
            )
        deadline = time.monotonic() + timeout
        while spark.alive_workers() < workers:
            if time.monotonic() > deadline or any(p.poll() is not None for p in spark.processes):
                raise StandaloneFailed(
                    f"the standalone cluster did not come up in {timeout} s:\n{spark.logs()}"
                )
            time.sleep(0.5)
    except BaseException:
        spark.stop()
        raise
    return spark
