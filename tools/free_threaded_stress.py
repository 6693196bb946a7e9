"""Many threads decode, encode and build Arrow at once; every result must equal what one
thread gets.  Meant for a free-threaded CPython run with ``PYTHON_GIL=0`` (see
tests/protocol/test_free_threaded.py), where the threads truly run at the same time.

    PYTHON_GIL=0 python3.13t tools/free_threaded_stress.py cython 8

Each thread starts on a fresh kafkawire, so what is built on first use (message classes,
their plans, each backend's compiled form of them, pyarrow's import) is built by all
threads at once; then every thread runs the whole job list twice in its own shuffled
order.  The jobs: every message definition's every version encoded and decoded, the fuzz
corpus's messages (half with one byte flipped, so errors race too) and record batches
decoded, batches of each format (v2, legacy v0 and v1) encoded with each codec at
hand, Arrow tables built from them (when pyarrow is installed).  Prints one JSON line: whether the threads agreed with one
thread, the first disagreement, whether the GIL was on, and what was covered.
"""

from __future__ import annotations

import glob
import hashlib
import json
import os
import random
import sys
import threading
from typing import Any, Callable, Dict, List, Tuple

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
sys.path.append(ROOT)  # fuzz.targets; after the kafkawire under test

from fuzz import targets as T  # noqa: E402
from kafkawire.protocol import compression, messages, records  # noqa: E402
from kafkawire import _backend  # noqa: E402
from kafkawire.errors import KafkaWireError  # noqa: E402

Job = Tuple[str, Callable[[], Any]]

RECS = [
    {"key": b"k%d" % i, "value": b"v" * i, "timestamp": 1000 + i, "headers": [("h", b"%d" % i)]}
    for i in range(40)
]
LEGACY_RECS = [{k: v for k, v in r.items() if k != "headers"} for r in RECS]  # v0/v1 have none


def _has(module: str) -> bool:
    try:
        __import__(module)
    except ImportError:
        return False
    return True


ARROW = _has("pyarrow")
# without cramjam (no wheel for 3.13t: PyO3 builds free-threaded only from 3.14 on) only
# uncompressed batches can be built
CODECS = list(compression.CODEC_NAMES) if _has("cramjam") else ["none"]


def _corpus(name: str, step: int = 1) -> List[bytes]:
    files = sorted(glob.glob(os.path.join(ROOT, "fuzz", "corpus", name, "*")))[::step]
    out = []
    for path in files:
        with open(path, "rb") as f:
            out.append(f.read())
    return out


def _definition_job(name: str) -> Job:
    """Every version of one definition: its class and plans are built on first use."""

    def run() -> str:
        cls = messages.CLASSES[name]
        digest = hashlib.sha256()
        for version in range(cls.valid_versions.lowest, cls.valid_versions.highest + 1):
            wire = cls().encode(version)
            digest.update(bytes([version]) + wire + cls.decode(wire, version).encode(version))
        return digest.hexdigest()

    return f"definition {name}", run


def jobs() -> List[Job]:
    """The jobs, in a fixed order; nothing in them is built before the threads start."""
    out = [_definition_job(name) for name in sorted(messages.CLASSES)]
    pairs = T.message_pairs()
    rnd = random.Random(5)
    for data in _corpus("message", step=2):
        name, version = pairs[int.from_bytes(data[:2], "big") % len(pairs)]
        payload = bytearray(data[2:])
        if payload and rnd.random() < 0.5:
            payload[rnd.randrange(len(payload))] ^= 0xFF

        def decode_and_encode(
            name: str = name, version: int = version, payload: bytes = bytes(payload)
        ) -> Any:
            msg = messages.CLASSES[name].decode(payload, version)
            return T.normalize(msg), msg.encode(version)

        out.append((f"message {name} v{version}", decode_and_encode))
    for data in _corpus("records"):
        batch = data[1:]
        out.append(("records", lambda b=batch: T.normalize(records.decode(b, verify_crc=True))))
        if ARROW:
            out.append(("arrow corpus", lambda b=batch: records.to_arrow(b, verify_crc=False).to_pydict()))
    for magic in (2, 1, 0):  # v2 record batches and both legacy message formats
        for codec in CODECS:

            def encode_and_read(codec: str = codec, magic: int = magic) -> Any:
                recs = RECS if magic == 2 else LEGACY_RECS
                buf = records.encode_batch(recs, compression=codec, base_offset=7, magic=magic)
                decoded = [r.as_tuple() for b in records.iter_batches(buf) for r in b.records()]
                # gzip, zstd... output may differ between library versions, never between threads
                return buf, decoded, records.to_arrow(buf).to_pydict() if ARROW else None

            out.append((f"batch v{magic} {codec}", encode_and_read))
    return out


def outcome(fn: Callable[[], Any]) -> Any:
    """A job's result, or the kafkawire error it raised (errors must agree too)."""
    try:
        return ("ok", fn())
    except KafkaWireError as exc:
        return ("error", type(exc).__name__, str(exc))


def main() -> int:
    backend, threads = sys.argv[1], int(sys.argv[2])
    with _backend.use(backend):
        work = jobs()
        barrier = threading.Barrier(threads)
        got: List[Any] = [None] * threads

        def run(seed: int) -> None:
            order = list(range(len(work)))
            random.Random(seed).shuffle(order)
            barrier.wait()
            results: Dict[int, Any] = {}
            for _ in range(2):
                for i in order:
                    results[i] = outcome(work[i][1])
            got[seed] = results

        pool = [threading.Thread(target=run, args=(i,)) for i in range(threads)]
        for t in pool:
            t.start()
        for t in pool:
            t.join()
        alone = [outcome(fn) for _label, fn in work]
        mismatch = next(
            (
                f"thread {t}: {work[i][0]}"
                for t, results in enumerate(got)
                for i in range(len(work))
                if results is None or results[i] != alone[i]
            ),
            None,
        )
        errors = sum(1 for result in alone if result[0] == "error")
        print(
            json.dumps(
                {
                    "backend": _backend.BACKEND,
                    "gil_enabled": sys._is_gil_enabled() if hasattr(sys, "_is_gil_enabled") else True,
                    "threads": threads,
                    "jobs": len(work),
                    "errors": errors,
                    "arrow": ARROW,
                    "codecs": CODECS,
                    "mismatch": mismatch,
                }
            )
        )
    return 0 if mismatch is None else 1


if __name__ == "__main__":
    sys.exit(main())
