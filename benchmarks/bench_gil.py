"""Thread scaling of the calls that release the GIL: CRC-32C, decompression, and the
CRC-32 of a long legacy message.

Each group holds a fixed amount of work done by one thread and the same work split over
two threads; the speed-up is the one-thread time divided by the two-thread time of the
same run (near 2 on two free cores, near 1 if the GIL were held).  ``hashlib.sha256``,
which CPython documents as releasing the GIL, is measured alongside as the machine's own
ceiling:

    python -m pytest benchmarks/bench_gil.py --benchmark-only --benchmark-group-by=group
"""

from __future__ import annotations

import hashlib
import os
import threading

import pytest

from kafkawire.protocol import compression, records
from kafkawire import crc32c

CALLS = 200  # per round, split evenly over the threads: rounds long beside thread start-up

# 4 MiB stays near the caches: a buffer far bigger would measure the memory bandwidth
# the two threads share.
_CRC_BUF = os.urandom(4 << 20)
# 800 KB of distinct pieces: compressible like record values, without the long repeats
# that would let zstd reach ratios no Kafka batch has.
_DATA = b"".join(b"kafka record value with some repetition " * 200 + os.urandom(2000) for _ in range(80))


def _split(fn, threads: int):
    """A round: ``CALLS`` calls of ``fn`` over ``threads`` threads."""
    per = CALLS // threads

    def work():
        for _ in range(per):
            fn()

    def run():
        ts = [threading.Thread(target=work) for _ in range(threads)]
        for t in ts:
            t.start()
        for t in ts:
            t.join()

    return run


def _work():
    jobs = {
        "crc32c-4MiB": lambda: crc32c(_CRC_BUF),
        "sha256-4MiB (control)": lambda: hashlib.sha256(_CRC_BUF).digest(),
    }
    for codec in ("gzip", "snappy", "lz4", "zstd"):
        packed = compression.compress(codec, _DATA)
        cid = compression.CODEC_IDS[codec]
        jobs[f"{codec}-decompress-800KB"] = lambda cid=cid, packed=packed: compression.decompress(cid, packed)
    # one uncompressed v1 message of 4 MiB: reading it is its CRC-32
    legacy = records.encode_batch([{"value": _CRC_BUF, "timestamp": 1}], magic=1)
    jobs["legacy-message-crc32-4MiB"] = lambda: records.decode(legacy, verify_crc=True)
    return jobs


JOBS = _work()


@pytest.mark.parametrize("threads", [1, 2])
@pytest.mark.parametrize("job", sorted(JOBS))
def test_thread_scaling(benchmark, job, threads):
    benchmark.group = f"gil {job}"
    benchmark.extra_info["threads"] = threads
    benchmark.pedantic(_split(JOBS[job], threads), rounds=10, warmup_rounds=1)
