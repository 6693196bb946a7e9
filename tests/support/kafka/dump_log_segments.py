"""Kafka's own ``DumpLogSegments`` tool, run on files and its text output parsed.

The tool lives in the ``kafka-tools`` artifact.  Maven Central mirrors do not all carry
``kafka-tools`` 4.4.0 yet, so 4.3.0's is resolved (with Maven, into ``~/.m2``) and run on
the 4.4 jars by ``DumpLogRunner.java``, which dumps each file in turn in one JVM.

:func:`dump` returns, per file, its entries as dicts of the tool's own field names with
values as the tool printed them (text): batches (``baseOffset`` ...) with their records
(``offset`` ... ``key``, ``payload`` or ``endTxnMarker``) under ``records``; index,
time index entries; :func:`dump_txn_indexes` the aborted transactions of ``.txnindex``
files, read by Kafka 4.4's own ``TransactionIndex``.
"""

from __future__ import annotations

import functools
import json
import os
import pwd
import re
import shutil
import subprocess
from pathlib import Path
from typing import Dict, List

from support.kafka.jars import KafkaUnavailable, classpath_string, java_executable, maven_lock
from support.kafka.java_clients import compiled
from support.kafka.jvm import start_options

TOOLS_VERSION = "4.3.0"
RUNNER = Path(__file__).with_name("DumpLogRunner.java")
TXN_INDEX_READER = Path(__file__).with_name("TxnIndexReader.java")
FILE_MARK = "@@FILE@@ "
RUN_TIMEOUT = 300

_KRAFT_CONTROL = re.compile(
    r" (?P<name>LeaderChange|SnapshotHeader|SnapshotFooter|KRaftVersion|KRaftVoters):? "
    r"(?P<json>\{.*\})$",
    re.S,
)
_FIELD = re.compile(r"(\w+): (\S*)")
_RECORD_HEAD = re.compile(
    r"\| offset: (?P<offset>-?\d+) (?P<tstype>CreateTime|LogAppendTime|NoTimestampType): "
    r"(?P<ts>-?\d+) keySize: (?P<keySize>-?\d+) valueSize: (?P<valueSize>-?\d+) "
    r"sequence: (?P<sequence>-?\d+) headerKeys: \[(?P<headerKeys>[^\]]*)\]"
)


@functools.lru_cache(maxsize=None)
def tools_jar() -> Path:
    # Maven's local repository is under Java's user.home, the account's home directory
    # from the password database, whatever $HOME says
    path = (
        Path(pwd.getpwuid(os.getuid()).pw_dir)
        / ".m2"
        / "repository"
        / "org"
        / "apache"
        / "kafka"
        / "kafka-tools"
        / TOOLS_VERSION
        / f"kafka-tools-{TOOLS_VERSION}.jar"
    )
    if path.exists():
        return path
    mvn = shutil.which("mvn")
    if mvn is None:
        raise KafkaUnavailable("no Maven (mvn) to resolve kafka-tools")
    with maven_lock():
        if path.exists():  # another process resolved it meanwhile
            return path
        proc = subprocess.run(
            [
                mvn,
                "-q",
                "-B",
                "dependency:get",
                f"-Dartifact=org.apache.kafka:kafka-tools:{TOOLS_VERSION}",
                "-Dtransitive=false",
            ],
            capture_output=True,
            text=True,
            timeout=600,
        )
    if proc.returncode != 0 or not path.exists():
        raise KafkaUnavailable(f"Maven could not resolve kafka-tools {TOOLS_VERSION}: " + proc.stdout[-500:])
    return path


def _parse_record(line: str) -> Dict[str, object]:
    m = _RECORD_HEAD.match(line)
    if m is None:
        raise AssertionError(f"DumpLogSegments printed a record line we cannot read: {line!r}")
    rec: Dict[str, object] = {
        "offset": m["offset"],
        m["tstype"]: m["ts"],
        "keySize": m["keySize"],
        "valueSize": m["valueSize"],
        "sequence": m["sequence"],
        "headerKeys": m["headerKeys"].split(",") if m["headerKeys"] else [],
    }
    rest = line[m.end() :]
    if rest.startswith(" endTxnMarker: "):
        rec.update(_FIELD.findall(rest))
        return rec
    control = _KRAFT_CONTROL.match(rest)
    if control is not None:  # e.g. " LeaderChange: {...}", " KRaftVersion {...}"
        rec[control["name"]] = json.loads(control["json"])
        return rec
    if rest.startswith(" key: "):
        rest = rest[len(" key: ") :]
        key, sep, payload = rest.partition(" payload: ")
        rec["key"] = key
        if sep:
            rec["payload"] = payload
    elif rest.startswith(" payload: "):
        rec["payload"] = rest[len(" payload: ") :]
    return rec


def parse(text: str) -> Dict[str, List[Dict[str, object]]]:
    """DumpLogSegments' output (as run by DumpLogRunner) to entries per file."""
    files: Dict[str, List[Dict[str, object]]] = {}
    entries: List[Dict[str, object]] = []
    last: Dict[str, object] = {}
    lines = text.split("\n")
    # a payload holding a newline continues on the next line: glue it back
    joined: List[str] = []
    for line in lines:
        if (
            joined
            and joined[-1].startswith("| offset: ")
            and not line.startswith(
                (
                    "| offset: ",
                    "baseOffset: ",
                    FILE_MARK,
                    "Dumping ",
                    "Log starting offset",
                    "offset: ",
                    "timestamp: ",
                    "version: ",
                    "producerId: ",
                )
            )
        ):
            joined[-1] += "\n" + line
        else:
            joined.append(line)
    for line in joined:
        if line.startswith(FILE_MARK):
            entries = files.setdefault(line[len(FILE_MARK) :], [])
        elif line.startswith(("Dumping ", "Log starting offset")) or not line:
            continue
        elif line.startswith("baseOffset: "):
            last = dict(_FIELD.findall(line))
            last["records"] = []
            entries.append(last)
        elif line.startswith("| offset: "):
            last["records"].append(_parse_record(line))
        else:
            entries.append(dict(_FIELD.findall(line)))
    return files


def dump(files: List[str], options: List[str] = ()) -> Dict[str, List[Dict[str, object]]]:
    """Run DumpLogSegments with ``options`` on each of ``files``; its entries per file."""
    jar = compiled(RUNNER)
    cp = os.pathsep.join([str(jar), str(tools_jar()), classpath_string()])
    opts, dumped = start_options("dump-log-runner", cp)
    proc = subprocess.run(
        [
            java_executable(),
            "-Xmx256m",
            "-Dstdout.encoding=UTF-8",
            "-Dfile.encoding=UTF-8",
            *opts,
            "-cp",
            cp,
            "DumpLogRunner",
            *options,
            "--",
            *files,
        ],
        capture_output=True,
        timeout=RUN_TIMEOUT,
    )
    dumped()
    if proc.returncode != 0:
        raise AssertionError(
            f"DumpLogSegments failed ({proc.returncode}): {proc.stderr.decode(errors='replace')[-3000:]}"
        )
    return parse(proc.stdout.decode("utf-8", errors="replace"))


def dump_txn_indexes(files: List[str]) -> Dict[str, List[Dict[str, object]]]:
    """The aborted transactions of ``.txnindex`` files, as Kafka 4.4's TransactionIndex
    reads them (4.3's DumpLogSegments cannot open them on the 4.4 jars)."""
    jar = compiled(TXN_INDEX_READER)
    cp = os.pathsep.join([str(jar), classpath_string()])
    proc = subprocess.run(
        [java_executable(), "-Xmx128m", "-cp", cp, "TxnIndexReader", *files],
        capture_output=True,
        timeout=RUN_TIMEOUT,
    )
    if proc.returncode != 0:
        raise AssertionError(
            f"TransactionIndex failed ({proc.returncode}): {proc.stderr.decode(errors='replace')[-3000:]}"
        )
    return parse(proc.stdout.decode())
