"""Threads: decoding and encoding from several threads gives what one thread gives, and
the long pure-C steps (CRC32C of a big buffer, decompression) release the GIL, so two
threads finish a fixed amount of that work faster than one.

Timing tests are lenient (two threads must beat one thread by 15%, not by 2x), are
retried, and are skipped with the reason when the machine is too busy to show any
parallel speedup at all: the same measurement is made on ``hashlib.sha256``, which
CPython documents as releasing the GIL, and if that shows none either the machine, not
kafkawire, is the limit.
"""
from __future__ import annotations

import glob
import hashlib
import os
import random
import sys
import threading
import time
from concurrent.futures import ThreadPoolExecutor

import pytest

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
if ROOT not in sys.path:
    sys.path.append(ROOT)  # after site-packages: the installed kafkawire wins

from fuzz import targets as T  # noqa: E402
from kafkawire import compression, messages  # noqa: E402
from kafkawire.errors import KafkaWireError  # noqa: E402

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
            jobs.append(("arrow", lambda p=payload: R.to_arrow(p, verify_crc=False).to_pydict()
                         .get("offset")))
    recs = [{"key": b"k%d" % i, "value": b"v" * i, "timestamp": 1000 + i,
             "headers": [("h", b"%d" % i)]} for i in range(50)]
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
# Two measurements.  Throughput: two threads doing a fixed number of calls finish
# faster than one thread doing them all; on a shared machine this is noisy, so each
# attempt also measures hashlib.sha256 (documented to release the GIL) as a control, and
# the test fails only when the control showed two free cores several times while the
# call under test never sped up.  Progress: while another thread is inside one long
# call, a Python loop keeps running; with the GIL held the loop would stop for the
# whole call.  Scheduling on a busy machine cannot fake the second one.


def _timed(fn, calls, threads):
    per = calls // threads
    barrier = threading.Barrier(threads + 1)

    def run():
        barrier.wait()
        for _ in range(per):
            fn()

    ts = [threading.Thread(target=run) for _ in range(threads)]
    for t in ts:
        t.start()
    barrier.wait()
    start = time.perf_counter()
    for t in ts:
        t.join()
    return time.perf_counter() - start


def _calls_for(fn, seconds=0.15):
    """How many calls of ``fn`` take about ``seconds`` on one thread (an even number)."""
    fn()
    n, start = 0, time.perf_counter()
    while time.perf_counter() - start < seconds / 3:
        fn()
        n += 1
    return max(4, 2 * ((3 * n + 1) // 2))


def _speedup(fn, calls):
    one = _timed(fn, calls, 1)
    two = _timed(fn, calls, 2)
    return one / two


_CONTROL_BUF = os.urandom(1 << 20)


def _control():
    hashlib.sha256(_CONTROL_BUF).digest()


def _assert_two_threads_faster(fn, what, attempts=8, needed=1.15, control_needed=1.5):
    if (os.cpu_count() or 1) < 2:
        pytest.skip("one CPU: two threads cannot be faster than one")
    if "asan" in os.environ.get("LD_PRELOAD", ""):
        pytest.skip("timings mean nothing under AddressSanitizer (its allocator serializes)")
    calls, control_calls = _calls_for(fn), _calls_for(_control)
    seen, free = [], 0
    for _ in range(attempts):
        ratio, control = _speedup(fn, calls), _speedup(_control, control_calls)
        seen.append(f"{ratio:.2f}x (control {control:.2f}x)")
        if ratio >= needed:
            return
        free += control >= control_needed
    if free < 3:
        pytest.skip(f"machine too busy: hashlib.sha256 (which releases the GIL) was "
                    f"{control_needed}x faster on two threads in only {free} of {attempts} "
                    f"attempts; {what}: {', '.join(seen)}")
    pytest.fail(f"{what}: two threads were never {needed}x faster than one although the "
                f"control was {control_needed}x faster {free} times: is the GIL held? "
                f"{', '.join(seen)}")


def _max_gap_during(fn):
    """(longest pause of a Python loop while ``fn`` runs in another thread, fn's time)."""
    started, done = threading.Event(), threading.Event()
    took = []

    def work():
        started.set()
        t0 = time.perf_counter()
        fn()
        took.append(time.perf_counter() - t0)
        done.set()

    old = sys.getswitchinterval()
    sys.setswitchinterval(0.001)
    try:
        t = threading.Thread(target=work)
        t.start()
        started.wait()
        gap, last = 0.0, time.perf_counter()
        while not done.is_set():
            now = time.perf_counter()
            gap = max(gap, now - last)
            last = now
        t.join()
    finally:
        sys.setswitchinterval(old)
    return gap, took[0]


def _assert_python_runs_during(fn, what, attempts=4):
    seen = []
    for _ in range(attempts):
        gap, took = _max_gap_during(fn)
        seen.append(f"paused {gap * 1000:.0f} ms of {took * 1000:.0f} ms")
        if took >= 0.01 and gap < took / 2:
            return
    if max(float(x.split()[-2]) for x in seen) < 10:
        pytest.skip(f"{what} is too fast here to measure: {seen}")
    pytest.fail(f"{what}: a Python thread stopped while it ran (GIL held?): {seen}")


@pytest.mark.backends("cython")
def test_crc32c_of_large_buffers_releases_the_gil(impl):
    crc32c = impl("crc").crc32c
    # 4 MiB stays near the caches (a buffer far bigger than the caches measures memory
    # bandwidth, which two threads share); ~0.3 ms a call with a CRC instruction.
    big = os.urandom(4 << 20)
    _assert_two_threads_faster(lambda: crc32c(big), "crc32c of 4 MiB")


@pytest.mark.backends("cython")
def test_python_keeps_running_during_a_long_crc32c(impl):
    crc32c = impl("crc").crc32c
    big = os.urandom(1 << 20) * 256
    _assert_python_runs_during(lambda: [crc32c(big) for _ in range(4)] and None,
                               "crc32c of 256 MiB")


# 800 KB: big enough that the codec's work dwarfs the call, small enough to stay near the
# caches (two threads share the memory bandwidth a much bigger buffer would measure).
_DATA = (b"kafka record value with some repetition " * 200 + os.urandom(2000)) * 80
# 24 MB for one long call, each piece different: repeating one piece would let zstd's
# long matches reach ratios no Kafka batch has, and the output buffer (zero-filled under
# the GIL) would then be re-made several times, which is what gets measured.
_BIG = b"".join(b"kafka record value with some repetition " * 200 + os.urandom(2000)
                for _ in range(2400))


_LZ4_GIL = pytest.mark.xfail(
    strict=False,
    reason="lz4 frames are read block by block in Python (compression._lz4_blocks): per "
           "64 KiB block a copy and a call, and the zero-filled output, all under the GIL; "
           "two threads gain little over one")


@pytest.mark.backend_independent
@pytest.mark.parametrize("codec", ["gzip", "snappy", pytest.param("lz4", marks=_LZ4_GIL), "zstd"])
def test_decompression_of_large_buffers_releases_the_gil(codec):
    pytest.importorskip("cramjam")
    cid = compression.CODEC_IDS[codec]
    packed = compression.compress(codec, _DATA)
    assert bytes(compression.decompress(cid, packed)) == _DATA
    _assert_two_threads_faster(lambda: compression.decompress(cid, packed),
                               f"{codec} decompression of {len(_DATA) >> 10} KiB")


@pytest.mark.backend_independent
@pytest.mark.parametrize("codec", ["gzip", "snappy", "lz4", "zstd"])
def test_python_keeps_running_during_a_long_decompression(codec):
    pytest.importorskip("cramjam")
    cid = compression.CODEC_IDS[codec]
    packed = compression.compress(codec, _BIG)
    _assert_python_runs_during(lambda: compression.decompress(cid, packed),
                               f"{codec} decompression of {len(_BIG) >> 20} MiB")
