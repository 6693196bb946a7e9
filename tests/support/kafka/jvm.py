"""Java start-up options for the test JVMs (the Kafka broker, its storage tool, the Java
client driver): a small heap, the quick JIT tier, and a class-data-sharing archive per
program, dumped by its first run and mapped by the later ones (it roughly halves the CPU
a JVM spends loading Kafka's classes; a missing or stale archive only costs that time).
"""

from __future__ import annotations

import hashlib
import os
from pathlib import Path
from typing import Callable, List, Tuple

from support.kafka.jars import CACHE_DIR, classpath_string, java_executable

# the JVM's own messages (an archive dump says so at exit) go to stderr, never stdout
BASE_OPTIONS = [
    "-XX:+UseSerialGC",
    "-XX:TieredStopAtLevel=1",
    "-Djava.awt.headless=true",
    "-Xlog:disable",
    "-Xlog:all=warning:stderr",
    # Kafka's own log lines (slf4j-simple): warnings and errors, to stderr
    "-Dorg.slf4j.simpleLogger.defaultLogLevel=warn",
    "-Dorg.slf4j.simpleLogger.logFile=System.err",
]


def _archive(program: str, classpath: str) -> Path:
    key = hashlib.sha256(f"{java_executable()}\0{classpath}\0{program}".encode()).hexdigest()[:16]
    return CACHE_DIR / f"cds-{program}-{key}.jsa"


def start_options(program: str, classpath: str = "") -> Tuple[List[str], Callable[[], None]]:
    """``(options, done)``: JVM options for ``program`` on ``classpath`` (default: the
    Kafka jars), and a function to call once that JVM has exited (it publishes an
    archive the run dumped, under its final name, so that no run maps a half-written one)."""
    archive = _archive(program, classpath or classpath_string())
    if archive.exists():
        return BASE_OPTIONS + [f"-XX:SharedArchiveFile={archive}"], lambda: None
    CACHE_DIR.mkdir(parents=True, exist_ok=True)
    dumping = archive.with_name(f"{archive.name}.{os.getpid()}.tmp")

    def done() -> None:
        if dumping.exists() and dumping.stat().st_size > 0:
            os.replace(dumping, archive)
        else:
            dumping.unlink(missing_ok=True)

    return BASE_OPTIONS + [f"-XX:ArchiveClassesAtExit={dumping}"], done
