"""The test set-up's Maven resolution, as a fresh machine meets it: several processes (the
tests and the workloads started beside them) resolving the Kafka jars at once into an
empty cache all get the same classpath (their Maven runs take turns)."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

pytestmark = [pytest.mark.kafka, pytest.mark.backend_independent, pytest.mark.timeout(900)]

TESTS = Path(__file__).parents[1]
RESOLVE = "from support.kafka.jars import classpath; print(len(classpath()))"


def test_processes_resolving_into_an_empty_cache_at_once_all_get_the_jars(tmp_path):
    from support.kafka.jars import classpath, require_kafka

    require_kafka()  # Maven and the jars are there (resolved into this run's cache)
    env = dict(os.environ, KAFKAWIRE_CACHE_DIR=str(tmp_path), PYTHONPATH=str(TESTS))
    runs = [
        subprocess.Popen(
            [sys.executable, "-c", RESOLVE],
            env=env,
            stdout=subprocess.PIPE,
            stderr=subprocess.STDOUT,
            text=True,
        )
        for _ in range(4)
    ]
    outs = [p.communicate(timeout=800)[0] for p in runs]
    assert [p.returncode for p in runs] == [0, 0, 0, 0], outs
    assert {o.strip().splitlines()[-1] for o in outs} == {str(len(classpath()))}
    assert [p.name for p in tmp_path.glob("*.tmp")] == []  # nothing half-written left
