"""Spark's own Kafka connector (``spark-sql-kafka-0-10_2.13``), resolved with Maven.

``connector()`` picks the connector release for the installed pyspark: the same version
when Maven can resolve it, else the newest plain release (``X.Y.Z``) of the same major
line (the connector of a newer minor may not be published yet). The releases are listed by
resolving a version range in a pom's dependency, which Maven supports from an empty local
repository. The chosen version and its jars (without the ones pyspark already ships, see
``spark-kafka-pom.xml``) are cached under
``~/.cache/kafkawire`` keyed by the pom's hash and the pyspark version.
"""

from __future__ import annotations

import functools
import hashlib
import os
import re
import shutil
import subprocess
import xml.etree.ElementTree as ET
from dataclasses import dataclass
from pathlib import Path

from support.kafka.jars import (
    CACHE_DIR,
    RESOLVE_TIMEOUT,
    KafkaUnavailable,
    existing_jars,
    java_executable,
    maven_lock,
)

POM = Path(__file__).with_name("spark-kafka-pom.xml")
VERSIONS_POM = Path(__file__).with_name("spark-kafka-versions-pom.xml")
ARTIFACT = "spark-sql-kafka-0-10_2.13"
GROUP = "org.apache.spark"
_RELEASE = re.compile(r"^(\d+)\.(\d+)\.(\d+)$")  # no previews or release candidates


@dataclass(frozen=True)
class Connector:
    version: str  # the connector release resolved
    pyspark_version: str  # the pyspark it runs in
    jars: tuple[Path, ...]

    @property
    def exact(self) -> bool:
        return self.version == self.pyspark_version

    def describe(self) -> str:
        how = "matches" if self.exact else "newest of the same major line; none published for"
        return f"{ARTIFACT} {self.version} ({how} pyspark {self.pyspark_version})"


def _resolve(version: str, out: Path) -> subprocess.CompletedProcess:
    mvn = shutil.which("mvn")
    if mvn is None:
        raise KafkaUnavailable("no Maven (mvn) to resolve Spark's Kafka connector")
    cmd = [
        mvn,
        "-q",
        "-B",
        "-f",
        str(POM),
        "dependency:build-classpath",
        f"-Dspark.connector.version={version}",
        f"-Dmdep.outputFile={out}",
    ]
    try:
        return subprocess.run(cmd, capture_output=True, text=True, timeout=RESOLVE_TIMEOUT)
    except subprocess.TimeoutExpired:
        raise KafkaUnavailable(f"Maven did not resolve {ARTIFACT} {version} in {RESOLVE_TIMEOUT} s")


def newest_of_major(versions, major: int) -> str | None:
    """The highest plain release (``X.Y.Z``) of ``major`` among ``versions``."""
    releases = [tuple(int(p) for p in m.groups()) for m in map(_RELEASE.match, versions) if m]
    same = sorted(v for v in releases if v[0] == major)
    return ".".join(map(str, same[-1])) if same else None


def _published_versions(major: int) -> list[str]:
    """The connector's published versions, as Maven lists them when it resolves a version
    range of ``major`` in ``spark-kafka-versions-pom.xml`` (the only place Maven supports a
    range from an empty local repository; ``dependency:get`` takes one literally).

    The range is resolved into a local repository of its own under ``CACHE_DIR``, so the
    version list is found without knowing where the user's repository is. Resolving the
    range writes that list before Maven reads each candidate's descriptor; a repository
    that serves the list but not every old preview's descriptor still lists them."""
    mvn = shutil.which("mvn")
    if mvn is None:
        raise KafkaUnavailable("no Maven (mvn) to list Spark's Kafka connector releases")
    repo = CACHE_DIR / "maven-versions"
    cmd = [
        mvn,
        "-q",
        "-B",
        "-f",
        str(VERSIONS_POM),
        "dependency:build-classpath",
        f"-Dspark.connector.range=[{major}.0.0,{major + 1}.0.0)",
        f"-Dmaven.repo.local={repo}",
        f"-Dmdep.outputFile={repo / 'classpath.txt'}",
    ]
    try:
        proc = subprocess.run(cmd, capture_output=True, text=True, timeout=RESOLVE_TIMEOUT)
    except subprocess.TimeoutExpired:
        raise KafkaUnavailable(f"Maven did not list the {ARTIFACT} releases in {RESOLVE_TIMEOUT} s")
    folder = repo / GROUP.replace(".", os.sep) / ARTIFACT
    versions: list[str] = []
    for meta in sorted(folder.glob("maven-metadata*.xml")):
        try:
            versions += [v.text or "" for v in ET.parse(meta).getroot().iter("version")]
        except (OSError, ET.ParseError):
            continue
    if not versions:
        tail = (proc.stdout + proc.stderr).strip().splitlines()[-3:]
        raise KafkaUnavailable(f"Maven could not list the {ARTIFACT} releases: " + " | ".join(tail))
    return versions


@functools.lru_cache(maxsize=None)
def connector() -> Connector:
    """The connector for the installed pyspark, resolved (downloaded on first use)."""
    import pyspark

    wanted = pyspark.__version__
    java_executable()
    key = hashlib.sha256(POM.read_bytes()).hexdigest()[:16]
    cached = CACHE_DIR / f"spark-kafka-{wanted}-{key}.classpath"
    found = _cached(cached, wanted)
    if found is not None:
        return found
    with maven_lock():
        found = _cached(cached, wanted)  # another process may have resolved it meanwhile
        return found if found is not None else _resolve_connector(wanted, cached)


def _cached(cached: Path, wanted: str) -> Connector | None:
    if not cached.exists():
        return None
    version, _, paths = cached.read_text().partition("\n")  # the version, then the classpath
    jars = existing_jars(paths)
    return Connector(version, wanted, jars) if jars else None


def _resolve_connector(wanted: str, cached: Path) -> Connector:
    out = cached.with_suffix(".tmp")
    version = wanted
    proc = _resolve(version, out)
    if proc.returncode != 0 or not out.exists():
        major = int(wanted.split(".")[0])
        version = newest_of_major(_published_versions(major), major)
        if version is None:
            raise KafkaUnavailable(f"no {ARTIFACT} release for pyspark {wanted}'s major line")
        proc = _resolve(version, out)
    if proc.returncode != 0 or not out.exists():
        tail = (proc.stdout + proc.stderr).strip().splitlines()[-3:]
        raise KafkaUnavailable(f"Maven could not resolve {ARTIFACT} {version}: " + " | ".join(tail))
    paths = out.read_text().strip()
    out.unlink()
    cached.write_text(f"{version}\n{paths}")
    return Connector(version, wanted, tuple(Path(p) for p in paths.split(os.pathsep) if p))
