#!/usr/bin/env python3
"""Refresh kafkawire/protocol/schema/data from an Apache Kafka release's jars.

    python tools/update_schema.py --kafka 4.4.0            # rewrite the packaged schema
    python tools/update_schema.py --kafka 4.4.0 --check    # exit 1 if it differs

Maven resolves the release jars of ``tools/pom.xml`` (or ``--classpath`` names them).
Every JSON message definition in them is copied, as facts only: the license comments
and the ``about`` prose are dropped, everything else is kept as Kafka states it.  The
error table is what ``org.apache.kafka.common.protocol.Errors`` says when asked by a
small Java program (``tools/KafkaErrors.java``).  ``MANIFEST.json`` names each file's
jar, version and the sha256 of the jar entry it came from.  After writing, the
package's index of the definitions (``kafkawire/protocol/schema/catalog.py``) is rebuilt.
"""

from __future__ import annotations

import argparse
import hashlib
import json
import os
import re
import shutil
import subprocess
import sys
import tempfile
import zipfile
from pathlib import Path
from typing import Dict, List

TOOLS = Path(__file__).resolve().parent
DATA_DIR = TOOLS.parent / "kafkawire" / "protocol" / "schema" / "data"
GROUPS = ("messages", "data", "coordinator", "metadata", "raft", "remote")

# The jars whose definitions kafkawire ships, and where each jar keeps them.
JARS = {
    "kafka-clients": "common/message/",
    "kafka-metadata": "common/metadata/",
    "kafka-raft": "common/message/",
    "kafka-group-coordinator": "common/message/",
    "kafka-share-coordinator": "common/message/",
    "kafka-transaction-coordinator": "common/message/",
    "kafka-storage": "message/",
}
# kafka-clients' KRaft control-record payloads (the values of a metadata log's control
# batches); its other "data" definitions are embedded payloads.
CONTROL_RECORDS = {
    "LeaderChangeMessage",
    "SnapshotHeaderRecord",
    "SnapshotFooterRecord",
    "KRaftVersionRecord",
    "VotersRecord",
}


def resolve_jars(version: str) -> List[Path]:
    """The release jars (and their dependencies) of ``version``, resolved by Maven."""
    mvn = shutil.which("mvn")
    if mvn is None:
        sys.exit("update_schema: Maven (mvn) is needed to resolve the Kafka jars")
    with tempfile.TemporaryDirectory() as tmp:
        out = Path(tmp) / "classpath"
        cmd = [
            mvn,
            "-q",
            "-B",
            "-f",
            str(TOOLS / "pom.xml"),
            f"-Dkafka.version={version}",
            "dependency:build-classpath",
            f"-Dmdep.outputFile={out}",
        ]
        proc = subprocess.run(cmd, capture_output=True, text=True, timeout=900)
        if proc.returncode != 0 or not out.exists():
            sys.exit("update_schema: Maven failed:\n" + proc.stdout + proc.stderr)
        return [Path(p) for p in out.read_text().split(os.pathsep) if p]


def find_jar(jars: List[Path], artifact: str, version: str) -> Path:
    name = f"{artifact}-{version}.jar"
    for path in jars:
        if path.name == name:
            return path
    sys.exit(f"update_schema: {name} is not among the resolved jars")


def strip_prose(node):
    """The definition without its ``about`` texts (Kafka's prose, not a wire fact)."""
    if isinstance(node, dict):
        return {k: strip_prose(v) for k, v in node.items() if k != "about"}
    if isinstance(node, list):
        return [strip_prose(v) for v in node]
    return node


def parse_definition(text: str) -> dict:
    """Kafka's JSON-with-comments: drop every line comment, then parse."""
    without_comments = re.sub(r"^\s*//.*$", "", text, flags=re.M)
    return json.loads(without_comments)


def group_of(artifact: str, spec: dict) -> str:
    kind = spec["type"]
    if kind in ("request", "response", "header"):
        return "messages"
    if kind == "metadata":
        # kafka-storage's are the __remote_log_metadata records, whose apiKeys are a
        # numbering of their own (0 is RemoteLogSegmentMetadataRecord, not BrokerRecord)
        return "remote" if artifact == "kafka-storage" else "metadata"
    if kind.startswith("coordinator-"):
        return "coordinator"
    if artifact == "kafka-raft" or spec["name"] in CONTROL_RECORDS:
        return "raft"
    return "data"


def render(obj) -> bytes:
    return (json.dumps(obj, indent=1) + "\n").encode()


def extract(jars: List[Path], version: str) -> Dict[str, bytes]:
    """Every file of the packaged schema, by path relative to the data directory."""
    files: Dict[str, bytes] = {}
    manifest: Dict[str, dict] = {}
    for artifact, prefix in JARS.items():
        jar_path = find_jar(jars, artifact, version)
        with zipfile.ZipFile(jar_path) as jar:
            for entry in sorted(jar.namelist()):
                if not (entry.startswith(prefix) and entry.endswith(".json")) or "/" in entry[len(prefix) :]:
                    continue
                raw = jar.read(entry)
                spec = strip_prose(parse_definition(raw.decode("utf-8")))
                group = group_of(artifact, spec)
                relative = f"{group}/{spec['name']}.json"
                if relative in files:
                    sys.exit(f"update_schema: {relative} is defined twice")
                files[relative] = render(spec)
                manifest[relative] = {
                    "jar": jar_path.name,
                    "artifact": artifact,
                    "version": version,
                    "entry": entry,
                    "sha256": hashlib.sha256(raw).hexdigest(),
                    "validVersions": spec["validVersions"],
                }
    clients = find_jar(jars, "kafka-clients", version)
    files["errors.json"] = render(error_table(jars, version))
    manifest["errors.json"] = {
        "jar": clients.name,
        "artifact": "kafka-clients",
        "version": version,
        "entry": "org/apache/kafka/common/protocol/Errors.class",
        "sha256": hashlib.sha256(
            zipfile.ZipFile(clients).read("org/apache/kafka/common/protocol/Errors.class")
        ).hexdigest(),
    }
    files["MANIFEST.json"] = render({"kafka": version, "files": dict(sorted(manifest.items()))})
    return files


def error_table(jars: List[Path], version: str) -> dict:
    """Kafka's ``Errors`` enum, as its own code reports it."""
    java = shutil.which("java")
    if java is None:
        sys.exit("update_schema: Java is needed to read Kafka's error table")
    classpath = os.pathsep.join(str(j) for j in jars)
    proc = subprocess.run(
        [java, "-cp", classpath, str(TOOLS / "KafkaErrors.java")], capture_output=True, text=True, timeout=300
    )
    if proc.returncode != 0:
        sys.exit("update_schema: KafkaErrors failed:\n" + proc.stderr)
    errors = [json.loads(line) for line in proc.stdout.splitlines() if line.startswith("{")]
    errors.sort(key=lambda e: e["code"])
    return {
        "source": f"Apache Kafka {version}: org.apache.kafka.common.protocol.Errors "
        "('retriable': the exception derives from RetriableException)",
        "errors": errors,
    }


def current_files(data_dir: Path) -> Dict[str, bytes]:
    out = {}
    for name in ("errors.json", "MANIFEST.json"):
        if (data_dir / name).exists():
            out[name] = (data_dir / name).read_bytes()
    for group in GROUPS:
        for path in sorted((data_dir / group).glob("*.json")):
            out[f"{group}/{path.name}"] = path.read_bytes()
    return out


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--kafka", required=True, help="the Apache Kafka release, e.g. 4.4.0")
    parser.add_argument(
        "--check", action="store_true", help="compare with the packaged schema instead of writing it"
    )
    parser.add_argument("--classpath", help="the resolved jars (os.pathsep-separated); skips Maven")
    parser.add_argument("--data-dir", type=Path, default=DATA_DIR)
    args = parser.parse_args(argv)
    if args.classpath:
        jars = [Path(p) for p in args.classpath.split(os.pathsep) if p]
    else:
        jars = resolve_jars(args.kafka)
    wanted = extract(jars, args.kafka)
    have = current_files(args.data_dir)
    if args.check:
        differ = sorted(k for k in set(wanted) | set(have) if wanted.get(k) != have.get(k))
        for name in differ:
            state = "missing" if name not in have else "extra" if name not in wanted else "differs"
            print(f"{name}: {state}")
        return 1 if differ else 0
    for name in have:
        if name not in wanted:
            (args.data_dir / name).unlink()
    for name, content in wanted.items():
        path = args.data_dir / name
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_bytes(content)
    if args.data_dir.resolve() == DATA_DIR:  # the package's index of the definitions
        subprocess.run([sys.executable, str(TOOLS / "build_schema_catalog.py")], check=True)
    print(f"update_schema: {len(wanted) - 2} definitions and the error table of Kafka {args.kafka}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
