"""Kafka's generated Java message classes, asked from Python through one long-lived JVM.

``MessageOracle.java`` (beside this file) is compiled with ``javac`` against the Kafka
jars on first use; the classes are cached under ``~/.cache/kafkawire`` keyed by the
hash of the source and of the Kafka jars.  :class:`JavaMessages` starts one JVM and
sends it framed cases on stdin: Java parses a message from wire bytes or from its JSON
form, re-serializes it, and answers with its bytes and its JSON (the generated
``*JsonConverter``).  A batch sends many messages of one definition and version in
one frame (:meth:`JavaMessages.wire_batch`, :meth:`JavaMessages.json_batch`).
"""

from __future__ import annotations

import hashlib
import json
import os
import select
import struct
import subprocess
import zipfile
from pathlib import Path
from typing import Any, Dict, List, Optional, Sequence, Tuple

from support.kafka import jars

SOURCE = Path(__file__).with_name("MessageOracle.java")
ANSWER_TIMEOUT = 120.0  # seconds for one answer; a batch of a few hundred under load
COMPILE_TIMEOUT = 300
WIRE, JSON = 1, 2
_WIRE_BATCH, _JSON_BATCH = 3, 4
REFUSED, OTHER_BYTES = 1, 2  # what went wrong with one message of a batch
_GENERATED_PACKAGES = (
    "org/apache/kafka/common/message/",
    "org/apache/kafka/raft/generated/",
    "org/apache/kafka/server/log/remote/metadata/storage/generated/",
)
# The jar a coordinator definition comes from names the record-type enum Java uses.
COORDINATOR_TOPICS = {
    "kafka-group-coordinator": "group",
    "kafka-share-coordinator": "share",
    "kafka-transaction-coordinator": "transaction",
}


class JavaError(Exception):
    """Java refused a case; the text is Java's exception."""


def _kafka_jars_hash() -> str:
    digest = hashlib.sha256(SOURCE.read_bytes())
    for path in sorted(jars.classpath()):
        if path.name.startswith("kafka"):
            digest.update(path.name.encode())
            digest.update(hashlib.sha256(path.read_bytes()).digest())
    return digest.hexdigest()[:16]


def compiled_classes() -> Path:
    """The directory holding MessageOracle.class, compiled on first use."""
    out = jars.CACHE_DIR / f"message-oracle-{_kafka_jars_hash()}"
    if (out / "MessageOracle.class").exists():
        return out
    tmp = out.with_suffix(".tmp")
    tmp.mkdir(parents=True, exist_ok=True)
    proc = subprocess.run(
        [jars.javac_executable(), "-nowarn", "-cp", jars.classpath_string(), "-d", str(tmp), str(SOURCE)],
        capture_output=True,
        text=True,
        timeout=COMPILE_TIMEOUT,
    )
    if proc.returncode != 0:
        raise jars.KafkaUnavailable("javac failed on MessageOracle.java: " + proc.stderr[-2000:])
    tmp.replace(out)
    return out


def generated_class_names() -> Dict[str, str]:
    """Kafka's generated class (dotted name) of each header, data, raft and remote log
    metadata definition, by simple name, from the jars' listings."""
    found: Dict[str, str] = {}
    for artifact in ("kafka-clients", "kafka-raft", "kafka-storage"):
        with zipfile.ZipFile(jars.jar(artifact)) as zf:
            for entry in zf.namelist():
                if entry.endswith(".class") and entry.startswith(_GENERATED_PACKAGES) and "$" not in entry:
                    found[entry.rsplit("/", 1)[1][:-6]] = entry[:-6].replace("/", ".")
    return found


class JavaMessages:
    """One JVM running MessageOracle; :meth:`ask` sends a case and reads its answer."""

    def __init__(self) -> None:
        self.class_names = generated_class_names()
        classes = compiled_classes()
        classpath = os.pathsep.join([str(classes), jars.classpath_string()])
        self._proc = subprocess.Popen(
            [
                jars.java_executable(),
                "-Xmx256m",
                "-XX:+UseSerialGC",
                "-XX:TieredStopAtLevel=1",
                "-Xshare:auto",
                "-cp",
                classpath,
                "MessageOracle",
            ],
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            stderr=subprocess.DEVNULL,
        )
        self._buffer = bytearray()
        self._pos = 0

    def ask(
        self, source: int, kind: str, name: str, ident: int, version: int, data: bytes
    ) -> Tuple[bytes, Any]:
        """``(bytes, json)`` as Java re-serializes the message it read from ``data``."""
        self._send(source, kind, name, ident, version, struct.pack(">i", len(data)) + data)
        wire = self._part()
        return wire, json.loads(self._part())

    def wire_batch(
        self, kind: str, name: str, ident: int, version: int, wires: Sequence[bytes]
    ) -> Tuple[Dict[int, Tuple[int, bytes]], List[Any]]:
        """Java reads each of ``wires`` and writes it back.  Returns ``(problems, jsons)``:
        by index, ``(REFUSED, error text)`` or ``(OTHER_BYTES, Java's bytes)`` for each
        message that did not come back byte for byte, and Java's JSON of every message
        (None where refused)."""
        body = [struct.pack(">i", len(wires))]
        for wire in wires:
            body += [struct.pack(">i", len(wire)), wire]
        self._send(_WIRE_BATCH, kind, name, ident, version, b"".join(body))
        problems = self._problems()
        return problems, json.loads(self._part())

    def json_batch(
        self, kind: str, name: str, ident: int, version: int, messages: List[Any]
    ) -> Tuple[Dict[int, Tuple[int, bytes]], List[bytes]]:
        """Java builds each of ``messages`` (JSON values) and writes it.  Returns
        ``(problems, bytes of each message)`` (empty bytes where Java refused it)."""
        data = json.dumps(messages).encode()
        self._send(_JSON_BATCH, kind, name, ident, version, struct.pack(">i", len(data)) + data)
        problems = self._problems()
        (count,) = struct.unpack(">i", self._read(4))
        return problems, [self._part() for _ in range(count)]

    def _send(self, source: int, kind: str, name: str, ident: int, version: int, body: bytes) -> None:
        case = struct.pack(">b", source) + _utf(kind) + _utf(name) + struct.pack(">hh", ident, version) + body
        self._proc.stdin.write(struct.pack(">i", len(case)) + case)
        self._proc.stdin.flush()
        if self._read(1)[0] == 1:
            raise JavaError(self._part().decode("utf-8", "replace"))

    def _problems(self) -> Dict[int, Tuple[int, bytes]]:
        (count,) = struct.unpack(">i", self._read(4))
        problems = {}
        for _ in range(count):
            index, what = struct.unpack(">ib", self._read(5))
            problems[index] = (what, self._part())
        return problems

    def _part(self) -> bytes:
        (size,) = struct.unpack(">i", self._read(4))
        return self._read(size)

    def _read(self, n: int) -> bytes:
        # Answers are read in large chunks into a buffer (a batch answer has many parts).
        buf, pos = self._buffer, self._pos
        fd = self._proc.stdout.fileno()
        while len(buf) - pos < n:
            ready, _, _ = select.select([fd], [], [], ANSWER_TIMEOUT)
            if not ready:
                raise TimeoutError(f"the Java oracle gave no answer in {ANSWER_TIMEOUT} s")
            chunk = os.read(fd, max(1 << 16, n - (len(buf) - pos)))
            if not chunk:
                raise EOFError(f"the Java oracle exited (status {self._proc.poll()})")
            buf += chunk
        out = bytes(buf[pos : pos + n])
        self._pos = pos + n
        if self._pos == len(buf):  # an answer read to its end
            buf.clear()
            self._pos = 0
        return out

    def __repr__(self) -> str:
        return f"<JavaMessages pid={self._proc.pid}>"

    def close(self) -> None:
        if self._proc.poll() is None:
            self._proc.stdin.close()
            try:
                self._proc.wait(timeout=10)
            except subprocess.TimeoutExpired:
                self._proc.kill()
                self._proc.wait(timeout=10)
        self._proc.stdout.close()


def _utf(text: str) -> bytes:
    raw = text.encode("ascii")
    return struct.pack(">H", len(raw)) + raw


def java_target(
    spec: Any, manifest: Dict[str, Any], class_names: Dict[str, str]
) -> Optional[Tuple[str, str, int]]:
    """``(kind, name, id)`` that MessageOracle instantiates for a kafkawire definition."""
    if spec.type in ("request", "response") or (
        spec.type == "metadata" and f"metadata/{spec.name}.json" in manifest
    ):
        # the __remote_log_metadata records (remote/) have their own record types:
        # their generated classes are instantiated by name, below
        return spec.type, "", spec.api_key
    if spec.type in ("coordinator-key", "coordinator-value"):
        artifact = manifest[f"coordinator/{spec.name}.json"]["artifact"]
        return spec.type, COORDINATOR_TOPICS[artifact], spec.api_key
    for candidate in (spec.name + "Data", spec.name):
        if candidate in class_names:
            return "class", class_names[candidate], -1
    return None
