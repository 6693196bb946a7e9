"""The packaged schema is exactly what Apache Kafka 4.4.0's release jars say.

``tools/update_schema.py --check`` re-extracts every message definition from the jars
and asks Kafka's ``Errors`` enum for the error table, then compares with
``kafkawire/protocol/schema/data`` byte for byte.
"""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

from support.kafka import jars
from kafkawire.protocol.schema import DATA_DIR

pytestmark = [pytest.mark.kafka, pytest.mark.backend_independent, pytest.mark.in_process]

TOOL = Path(__file__).resolve().parents[2] / "tools" / "update_schema.py"


def test_packaged_schema_equals_the_release_jars(backend):
    proc = subprocess.run(
        [
            sys.executable,
            str(TOOL),
            "--kafka",
            jars.KAFKA_VERSION,
            "--check",
            "--classpath",
            jars.classpath_string(),
            "--data-dir",
            str(DATA_DIR),
        ],
        capture_output=True,
        text=True,
        timeout=600,
    )
    assert proc.returncode == 0, proc.stdout + proc.stderr


def test_manifest_names_the_release(backend):
    manifest = json.loads((DATA_DIR / "MANIFEST.json").read_text())
    assert manifest["kafka"] == jars.KAFKA_VERSION
    for name, entry in manifest["files"].items():
        assert entry["version"] == jars.KAFKA_VERSION and entry["jar"].endswith(f"-{jars.KAFKA_VERSION}.jar")
        assert (DATA_DIR / name).is_file(), name
