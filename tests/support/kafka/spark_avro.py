"""Spark's own Avro and Protobuf modules (``spark-avro_2.13``: ``from_avro``;
``spark-protobuf_2.13``: ``from_protobuf``), fetched with Maven.

``spark_avro_jar()`` and ``spark_protobuf_jar()`` find the module's jar for the
installed pyspark: the same version when Maven Central has it, else the newest earlier
minor release of the same major line (a new pyspark may come before its modules).
Only the one jar is needed: pyspark ships the Avro library, and spark-protobuf's jar
shades the protobuf runtime it uses.  The path found is cached under
``~/.cache/kafkawire`` by module and pyspark version.
"""

from __future__ import annotations

import functools
import shutil
import subprocess
from pathlib import Path

from support.kafka.jars import CACHE_DIR, RESOLVE_TIMEOUT, KafkaUnavailable, maven_lock

GROUP = "org.apache.spark"


def _get(module: str, version: str) -> Path | None:
    mvn = shutil.which("mvn")
    artifact = f"{GROUP}:{module}_2.13"
    if mvn is None:
        raise KafkaUnavailable(f"no Maven (mvn) to fetch {module}")
    try:
        proc = subprocess.run(
            [mvn, "-q", "-B", "dependency:get", f"-Dartifact={artifact}:{version}", "-Dtransitive=false"],
            capture_output=True,
            text=True,
            timeout=RESOLVE_TIMEOUT,
        )
    except subprocess.TimeoutExpired:
        raise KafkaUnavailable(f"Maven did not fetch {artifact}:{version} in {RESOLVE_TIMEOUT} s") from None
    if proc.returncode != 0:
        return None
    jar = Path.home() / ".m2" / "repository" / "org" / "apache" / "spark" / f"{module}_2.13" / version
    found = jar / f"{module}_2.13-{version}.jar"
    return found if found.exists() else None


def spark_avro_jar() -> Path:
    """The spark-avro jar for the installed pyspark (downloaded on first use)."""
    return _module_jar("spark-avro")


def spark_protobuf_jar() -> Path:
    """The spark-protobuf jar for the installed pyspark (downloaded on first use)."""
    return _module_jar("spark-protobuf")


@functools.lru_cache(maxsize=None)
def _module_jar(module: str) -> Path:
    import pyspark

    major, minor = (int(p) for p in pyspark.__version__.split(".")[:2])
    cached = CACHE_DIR / f"{module}-{pyspark.__version__}.path"
    if cached.exists() and Path(cached.read_text()).exists():
        return Path(cached.read_text())
    with maven_lock():
        for m in range(minor, -1, -1):
            version = pyspark.__version__ if m == minor else f"{major}.{m}.0"
            jar = _get(module, version)
            if jar is not None:
                CACHE_DIR.mkdir(parents=True, exist_ok=True)
                cached.write_text(str(jar))
                return jar
    raise KafkaUnavailable(
        f"no {GROUP}:{module}_2.13 release of pyspark {pyspark.__version__}'s major line could be fetched"
    )
