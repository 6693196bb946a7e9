"""Spark's own Avro module (``spark-avro_2.13``: ``from_avro``), fetched with Maven.

``spark_avro_jar()`` finds the module's jar for the installed pyspark: the same version
when Maven Central has it, else the newest earlier minor release of the same major
line (a new pyspark may come before its ``spark-avro``).  Only the one jar is needed:
pyspark ships the Avro library it uses.  The path found is cached under
``~/.cache/kafkawire`` by pyspark version.
"""

from __future__ import annotations

import functools
import shutil
import subprocess
from pathlib import Path

from kafka_support.jars import CACHE_DIR, RESOLVE_TIMEOUT, KafkaUnavailable, maven_lock

ARTIFACT = "org.apache.spark:spark-avro_2.13"


def _get(version: str) -> Path | None:
    mvn = shutil.which("mvn")
    if mvn is None:
        raise KafkaUnavailable("no Maven (mvn) to fetch spark-avro")
    try:
        proc = subprocess.run(
            [mvn, "-q", "-B", "dependency:get", f"-Dartifact={ARTIFACT}:{version}", "-Dtransitive=false"],
            capture_output=True,
            text=True,
            timeout=RESOLVE_TIMEOUT,
        )
    except subprocess.TimeoutExpired:
        raise KafkaUnavailable(f"Maven did not fetch {ARTIFACT}:{version} in {RESOLVE_TIMEOUT} s") from None
    if proc.returncode != 0:
        return None
    jar = Path.home() / ".m2" / "repository" / "org" / "apache" / "spark" / "spark-avro_2.13" / version
    found = jar / f"spark-avro_2.13-{version}.jar"
    return found if found.exists() else None


@functools.lru_cache(maxsize=None)
def spark_avro_jar() -> Path:
    """The spark-avro jar for the installed pyspark (downloaded on first use)."""
    import pyspark

    major, minor = (int(p) for p in pyspark.__version__.split(".")[:2])
    cached = CACHE_DIR / f"spark-avro-{pyspark.__version__}.path"
    if cached.exists() and Path(cached.read_text()).exists():
        return Path(cached.read_text())
    with maven_lock():
        for m in range(minor, -1, -1):
            version = pyspark.__version__ if m == minor else f"{major}.{m}.0"
            jar = _get(version)
            if jar is not None:
                CACHE_DIR.mkdir(parents=True, exist_ok=True)
                cached.write_text(str(jar))
                return jar
    raise KafkaUnavailable(
        f"no {ARTIFACT} release of pyspark {pyspark.__version__}'s major line could be fetched"
    )
