"""The Apache Kafka release jars, resolved with Maven into a cached classpath.

``classpath()`` returns the jars of ``pom.xml`` beside this file (Kafka's broker, clients,
metadata, raft, storage and coordinator modules with their dependencies).  Maven resolves
them once into its local repository; the classpath itself is cached under
``~/.cache/kafkawire`` keyed by the pom's hash, so later runs start no Maven at all.
Processes that resolve at once (the tests and the workloads started beside them) take
turns under :func:`maven_lock`.

``require_kafka()`` is what a test calls before it needs Java: without Java or Maven (or
when the jars cannot be resolved) it skips with one clear reason, and with
``KAFKAWIRE_REQUIRE_KAFKA=1`` that skip becomes a failure.
"""

from __future__ import annotations

import contextlib
import functools
import hashlib
import os
import shutil
import subprocess
from pathlib import Path
from typing import Iterator

import pytest

POM = Path(__file__).with_name("pom.xml")
KAFKA_VERSION = "4.4.0"
CACHE_DIR = Path(os.environ.get("KAFKAWIRE_CACHE_DIR", Path.home() / ".cache" / "kafkawire"))
RESOLVE_TIMEOUT = 900  # seconds; a first resolution downloads about 60 MB


class KafkaUnavailable(RuntimeError):
    """Java, Maven or the Kafka jars cannot be had on this machine."""


def java_executable() -> str:
    home = os.environ.get("JAVA_HOME")
    if home and (Path(home) / "bin" / "java").exists():
        return str(Path(home) / "bin" / "java")
    found = shutil.which("java")
    if found is None:
        raise KafkaUnavailable("no Java runtime (java on PATH or JAVA_HOME)")
    return found


def javac_executable() -> str:
    java = Path(java_executable()).resolve()
    javac = java.with_name("javac")
    if javac.exists():
        return str(javac)
    found = shutil.which("javac")
    if found is None:
        raise KafkaUnavailable("no Java compiler (javac); install a JDK, not only a JRE")
    return found


def _pom_key() -> str:
    return hashlib.sha256(POM.read_bytes()).hexdigest()[:16]


@contextlib.contextmanager
def maven_lock() -> Iterator[None]:
    """Held while Maven resolves into the local repository and writes a cached classpath:
    on a machine with an empty ``~/.m2``, the tests and the workloads started beside them
    in child processes resolve the same jars at the same time, and one Maven's files
    (and the other's finished classpath) must not be taken for the other's."""
    CACHE_DIR.mkdir(parents=True, exist_ok=True)
    try:
        import fcntl
    except ImportError:  # not POSIX: one process at a time is then the caller's care
        yield
        return
    with open(CACHE_DIR / "maven.lock", "w") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)
        try:
            yield
        finally:
            fcntl.flock(lock, fcntl.LOCK_UN)


def existing_jars(paths: str) -> tuple[Path, ...]:
    """The jars of a classpath string, or () if it is empty or any jar is gone."""
    jars = tuple(Path(p) for p in paths.split(os.pathsep) if p)
    return jars if jars and all(j.exists() for j in jars) else ()


def cached_jars(cached: Path) -> tuple[Path, ...]:
    """The jars a cached classpath file lists, or () if it is missing or any jar is gone."""
    return existing_jars(cached.read_text()) if cached.exists() else ()


@functools.lru_cache(maxsize=None)
def classpath() -> tuple[Path, ...]:
    """Every jar of the pom, resolved (and downloaded on first use) by Maven."""
    cached = CACHE_DIR / f"kafka-{KAFKA_VERSION}-{_pom_key()}.classpath"
    jars = cached_jars(cached)
    if jars:
        return jars
    mvn = shutil.which("mvn")
    if mvn is None:
        raise KafkaUnavailable("no Maven (mvn) to resolve the Kafka jars")
    java_executable()
    with maven_lock():
        jars = cached_jars(cached)  # another process may have resolved them meanwhile
        if jars:
            return jars
        out = cached.with_suffix(".tmp")
        cmd = [mvn, "-q", "-B", "-f", str(POM), "dependency:build-classpath", f"-Dmdep.outputFile={out}"]
        try:
            proc = subprocess.run(cmd, capture_output=True, text=True, timeout=RESOLVE_TIMEOUT)
        except subprocess.TimeoutExpired:
            raise KafkaUnavailable(f"Maven did not resolve the Kafka jars in {RESOLVE_TIMEOUT} s")
        if proc.returncode != 0 or not out.exists():
            tail = (proc.stdout + proc.stderr).strip().splitlines()[-3:]
            raise KafkaUnavailable("Maven could not resolve the Kafka jars: " + " | ".join(tail))
        out.replace(cached)
    return cached_jars(cached)


def jar(artifact: str) -> Path:
    """The resolved jar of one artifact, e.g. ``jar("kafka-clients")``."""
    name = f"{artifact}-{KAFKA_VERSION}.jar"
    for path in classpath():
        if path.name == name:
            return path
    raise KafkaUnavailable(f"{name} is not on the resolved classpath")


def classpath_string() -> str:
    return os.pathsep.join(str(p) for p in classpath())


def require_kafka() -> None:
    """Skip the calling test (or fail it under KAFKAWIRE_REQUIRE_KAFKA=1) without Kafka."""
    try:
        classpath()
    except KafkaUnavailable as exc:
        reason = f"Apache Kafka {KAFKA_VERSION} is not available: {exc}"
        if os.environ.get("KAFKAWIRE_REQUIRE_KAFKA") == "1":
            pytest.fail(reason + " (KAFKAWIRE_REQUIRE_KAFKA=1)", pytrace=False)
        pytest.skip(reason)
