"""Apache Kafka's Java clients as a test driver: ``JavaClientDriver.java`` beside this
file, compiled with ``javac`` against the resolved Kafka jars on first use and cached
under the jars' cache directory, keyed by the source's and the jars' hashes.

``run_java(job, timeout)`` runs one driver job (the JSON jobs of
``tests/broker/test_clients_driver.py``) in a JVM that is killed after ``timeout`` seconds.
"""

from __future__ import annotations

import functools
import hashlib
import json
import os
import subprocess
import tempfile
import zipfile
from pathlib import Path
from typing import Any, Dict, Tuple

from support.kafka.jars import (
    CACHE_DIR,
    KafkaUnavailable,
    classpath,
    classpath_string,
    java_executable,
    javac_executable,
)
from support.kafka.jvm import start_options

SOURCE = Path(__file__).with_name("JavaClientDriver.java")
COMPILE_TIMEOUT = 300  # seconds; javac on a busy 2-core machine
RESULT_MARKER = "@@RESULT@@"


def _build_key(source: Path) -> str:
    h = hashlib.sha256(source.read_bytes())
    for jar in classpath():
        h.update(jar.name.encode())
        h.update(hashlib.sha256(jar.read_bytes()).digest())
    return h.hexdigest()[:16]


@functools.lru_cache(maxsize=None)
def compiled(source: Path = SOURCE) -> Path:
    """A Java program beside this file compiled against the Kafka jars, as a jar (a jar,
    not a class directory: class-data sharing takes only jars), compiling it if it is
    not cached."""
    prefix = "java-client-driver" if source == SOURCE else source.stem
    built = CACHE_DIR / f"{prefix}-{_build_key(source)}.jar"
    if built.exists():
        return built
    with tempfile.TemporaryDirectory(dir=CACHE_DIR if CACHE_DIR.exists() else None) as tmp:
        try:
            proc = subprocess.run(
                [javac_executable(), "-nowarn", "-cp", classpath_string(), "-d", tmp, str(source)],
                capture_output=True,
                text=True,
                timeout=COMPILE_TIMEOUT,
            )
        except subprocess.TimeoutExpired:
            raise KafkaUnavailable(f"javac did not compile {source.name} in {COMPILE_TIMEOUT} s")
        if proc.returncode != 0:
            raise AssertionError(f"javac failed on {source.name}:\n{proc.stdout}{proc.stderr}")
        partial = Path(tmp) / built.name
        with zipfile.ZipFile(partial, "w") as jar:
            for cls in sorted(Path(tmp).glob("*.class")):
                jar.write(cls, cls.name)
        os.replace(partial, built)  # whole or not at all, should two runs build at once
    return built


def run_java(
    job: Dict[str, Any], timeout: float = 90, jvm_options: Tuple[str, ...] = (), source: Path = SOURCE
) -> Dict[str, Any]:
    """Run one driver job in a JVM (given ``jvm_options``, e.g. a ``krb5.conf``); its
    JSON result.  ``source`` is another program of the same contract beside this file
    (``ClusterAdmin.java``)."""
    cp = os.pathsep.join([str(compiled(source)), classpath_string()])
    name = "java-client-driver" if source == SOURCE else source.stem
    options, dumped = start_options(name, cp)
    cmd = [java_executable(), "-Xmx256m", *options, *jvm_options, "-cp", cp, source.stem]
    try:
        proc = subprocess.run(cmd, input=json.dumps(job), capture_output=True, text=True, timeout=timeout)
        dumped()
    except subprocess.TimeoutExpired as exc:
        err = exc.stderr.decode(errors="replace") if isinstance(exc.stderr, bytes) else (exc.stderr or "")
        raise AssertionError(
            f"java {job.get('op')} timed out after {timeout}s; stderr:\n{err[-3000:]}"
        ) from None
    if proc.returncode != 0 or RESULT_MARKER not in proc.stdout:
        raise AssertionError(
            f"java driver failed (rc {proc.returncode}):\n{proc.stdout[-2000:]}\n{proc.stderr[-4000:]}"
        )
    return json.loads(proc.stdout.rsplit(RESULT_MARKER, 1)[1].splitlines()[0])
