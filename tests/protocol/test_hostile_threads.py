"""Threads: decoding and encoding from several threads gives what one thread gives, and
the long pure-C steps (CRC32C of a big buffer, decompression) release the GIL, so a
Python thread runs while they are in flight.  Nothing here reads a clock: the speed-up
of two threads over one is measured in benchmarks/bench_gil.py.
"""

from __future__ import annotations

import glob
import os
import random
import sys
import threading
from concurrent.futures import ThreadPoolExecutor

import pytest

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
if ROOT not in sys.path:
    sys.path.append(ROOT)  # after site-packages: the installed kafkawire wins

from support.gil_probe import python_ran_during  # noqa: E402
from fuzz import targets as T  # noqa: E402
from kafkawire.protocol import compression, messages  # noqa: E402
from kafkawire.errors import KafkaWireError  # noqa: E402

pytestmark = pytest.mark.in_process

THREADS = 4


def _corpus(name, step=1):
    files = sorted(glob.glob(os.path.join(ROOT, "fuzz", "corpus", name, "*")))[::step]
    out = []
    for path in files:
        with open(path, "rb") as f:
            out.append(f.read())
    return out


def _jobs(impl):
    """(label, callable) pairs whose results are compared across threads."""
    codec, R, crc = impl("codec"), impl("records"), impl("crc")
    pairs = T.message_pairs()
    jobs = []
    rnd = random.Random(5)
    for data in _corpus("message", step=4):
        name, version = pairs[int.from_bytes(data[:2], "big") % len(pairs)]
        plan = messages.CLASSES[name].plan(version)
        payload = bytearray(data[2:])
        if payload and rnd.random() < 0.5:
            payload[rnd.randrange(len(payload))] ^= 0xFF
        payload = bytes(payload)

        def decode_and_encode(plan=plan, payload=payload):
            msg = codec.decode(plan, payload)
            return T.normalize(msg), codec.encode(plan, msg)

        jobs.append((f"{name} v{version}", decode_and_encode))
    for data in _corpus("records"):
        payload = data[1:]
        jobs.append(("records", lambda p=payload: T.normalize(R.decode(p, verify_crc=True))))
        if _arrow():
            jobs.append(
                ("arrow", lambda p=payload: R.to_arrow(p, verify_crc=False).to_pydict().get("offset"))
            )
    recs = [
        {"key": b"k%d" % i, "value": b"v" * i, "timestamp": 1000 + i, "headers": [("h", b"%d" % i)]}
        for i in range(50)
    ]
    for c in ("none", "gzip", "snappy", "lz4", "zstd"):
        jobs.append((f"encode {c}", lambda c=c: R.encode_batch(recs, compression=c, base_offset=3)))
    blob = os.urandom(200_000)
    jobs.append(("crc32c", lambda: crc.crc32c(blob)))
    return jobs


def _arrow():
    try:
        import pyarrow  # noqa: F401
    except ImportError:
        return False
    return True


def _outcome(fn):
    try:
        return ("ok", fn())
    except KafkaWireError as exc:
        return ("error", type(exc).__name__, str(exc))


def test_several_threads_decode_and_encode_what_one_thread_does(impl):
    jobs = _jobs(impl)
    expected = [_outcome(fn) for _label, fn in jobs]
    barrier = threading.Barrier(THREADS)

    def worker(seed):
        order = list(range(len(jobs)))
        random.Random(seed).shuffle(order)
        barrier.wait()
        got = {}
        for _ in range(2):
            for i in order:
                got[i] = _outcome(jobs[i][1])
        return got

    old = sys.getswitchinterval()
    sys.setswitchinterval(1e-5)  # switch threads as often as possible
    try:
        with ThreadPoolExecutor(THREADS) as pool:
            results = list(pool.map(worker, range(THREADS)))
    finally:
        sys.setswitchinterval(old)
    for got in results:
        for i, (label, _fn) in enumerate(jobs):
            assert got[i] == expected[i], f"{label}: a thread got a different result"


def test_one_batch_object_read_from_several_threads_decodes_once_and_alike(impl):
    R = impl("records")
    recs = [{"key": b"k%d" % i, "value": b"x" * 100, "timestamp": i} for i in range(2000)]
    buf = R.encode_batch(recs, compression="zstd")
    (batch,) = list(R.iter_batches(buf))
    with ThreadPoolExecutor(THREADS) as pool:
        results = list(pool.map(lambda _: [r.as_tuple() for r in batch.records()], range(8)))
    assert all(r == results[0] for r in results)
    assert len(results[0]) == 2000


# ---------------------------------------------------------------------------
# the GIL
#
# Checked without a clock (tests/support/gil_probe.py): while another thread is inside the call,
# a Python thread gets to run.  How much two threads gain is measured in
# benchmarks/bench_gil.py, not asserted here.


def test_the_probe_sees_a_call_that_holds_the_gil():
    # bytes(n) zero-fills under the GIL: the probe must say so, or it proves nothing.
    assert not python_ran_during(lambda: bytes(1 << 20), rounds=200)


@pytest.mark.backends("cython")
def test_python_runs_during_a_long_crc32c(impl):
    crc32c = impl("crc").crc32c
    big = os.urandom(4 << 20)
    assert python_ran_during(lambda: crc32c(big)), "crc32c held the GIL"


@pytest.mark.backends("cython")
def test_python_runs_during_the_crc_of_a_long_legacy_message(impl):
    R = impl("records")
    buf = R.encode_batch([{"value": os.urandom(4 << 20), "timestamp": 1}], magic=1)
    assert python_ran_during(lambda: R.decode(buf, verify_crc=True), rounds=200), (
        "the CRC-32 of a legacy message held the GIL"
    )


# 800 KB, each piece different: repeating one piece would let zstd's long matches reach
# ratios no Kafka batch has.
_DATA = b"".join(b"kafka record value with some repetition " * 200 + os.urandom(2000) for _ in range(80))


@pytest.mark.backend_independent
@pytest.mark.parametrize("codec", ["gzip", "snappy", "lz4", "zstd"])
def test_python_runs_during_a_long_decompression(codec):
    pytest.importorskip("cramjam")
    cid = compression.CODEC_IDS[codec]
    packed = compression.compress(codec, _DATA)
    assert bytes(compression.decompress(cid, packed)) == _DATA
    assert python_ran_during(lambda: compression.decompress(cid, packed)), (
        f"{codec} decompression held the GIL"
    )
