"""Thread scaling of ``decode``, ``to_arrow`` and ``encode``: one thread against two, each
thread on batches of its own.  On a free-threaded CPython (``PYTHON_GIL=0``) two threads
should do the work in about half the time on two free cores; with the GIL, about the same
time as one.

    PYTHON_GIL=0 python3.13t benchmarks/thread_scaling.py [--backend cython] [--rounds 15]
    benchmarks/thread_scaling.sh    # on the cached 3.13t, then on the GIL build

A standalone script (no pytest), so it runs on an interpreter with nothing but kafkawire
(and pyarrow, for ``to_arrow``) installed.  Each round does a fixed number of calls, all in
one thread or split over two; rounds of one and two threads alternate so that both see
the same load, and the speed-up is the one-thread time over the two-thread time, each the
fastest of its rounds.  On a machine other jobs keep busy the wall-clock speed-up is
capped by the CPU the scheduler grants, so the CPU time the process spends per call is
shown too: two threads over one near 1.0 means the threads do not slow each other down
(no lock, no shared cache line fought over), the condition for 2x on two free cores.
The same calls split over two *processes* (each with its own interpreter, so nothing
Python-level is shared) give the ceiling the machine grants this job in the same run:
threads over processes near 1.0 means the threads lose nothing to sharing one
interpreter, whatever the machine's load leaves of the second core.  The page faults
per call (the process's minor faults over the median round) show memory the kernel has
to hand out again with each call: a cost a second thread can add without any lock.
Two controls give the machine's own ceiling in the same run:
``hashlib.sha256`` of 1 MiB (releases the GIL on every build) and a pure-Python loop
(scales only without the GIL).  The batch is the README's W1: 1000 records, 16 B keys,
100 B values, one header.
"""

from __future__ import annotations

import argparse
import hashlib
import multiprocessing
import os
import platform
import resource
import statistics
import sys
import threading
import time
from multiprocessing.connection import Connection
from typing import Callable, Dict, List, Tuple

from kafkawire.protocol import records
from kafkawire import _backend

CALLS = 400  # per round, split evenly over the threads


def _w1() -> List[dict]:
    return [
        {
            "key": os.urandom(8).hex().encode(),
            "value": os.urandom(50).hex().encode(),
            "timestamp": 1_700_000_000_000 + i,
            "headers": [("trace", b"%08d" % i)],
        }
        for i in range(1000)
    ]


def _spin() -> int:
    total = 0
    for i in range(20_000):
        total += i * i
    return total


def _jobs(threads: int) -> Dict[str, List[Callable[[], object]]]:
    """Per job, one callable per thread, each on its own data."""
    recs = [_w1() for _ in range(threads)]
    batches = [records.encode_batch(r) for r in recs]
    blobs = [os.urandom(1 << 20) for _ in range(threads)]
    jobs: Dict[str, List[Callable[[], object]]] = {
        "decode": [lambda b=b: records.decode(b) for b in batches],
        "encode": [lambda r=r: records.encode_batch(r) for r in recs],
        "sha256 1 MiB (control)": [lambda b=b: hashlib.sha256(b).digest() for b in blobs],
        "pure-Python loop (control)": [_spin for _ in range(threads)],
    }
    try:
        import pyarrow  # noqa: F401
    except ImportError:
        print("pyarrow is not installed: no to_arrow row", file=sys.stderr)
    else:
        jobs["to_arrow"] = [lambda b=b: records.to_arrow(b) for b in batches]
    return jobs


def _round(calls: List[Callable[[], object]], threads: int) -> Tuple[float, float, int]:
    """Wall and CPU seconds and page faults (of the whole process) for ``CALLS`` calls
    split over ``threads`` threads (the first ``threads`` callables, one per thread)."""
    per = CALLS // threads
    barrier = threading.Barrier(threads + 1)

    def work(fn: Callable[[], object]) -> None:
        barrier.wait()
        for _ in range(per):
            fn()

    pool = [threading.Thread(target=work, args=(calls[i],)) for i in range(threads)]
    for t in pool:
        t.start()
    barrier.wait()
    faults = resource.getrusage(resource.RUSAGE_SELF).ru_minflt
    started, cpu = time.perf_counter(), time.process_time()
    for t in pool:
        t.join()
    wall, cpu = time.perf_counter() - started, time.process_time() - cpu
    return wall, cpu, resource.getrusage(resource.RUSAGE_SELF).ru_minflt - faults


def _process_worker(conn: Connection, backend: str, name: str) -> None:
    """In a process of its own: on each count received, that many calls of job ``name``
    on data of its own; sends back the CPU seconds they took."""
    with _backend.use(backend):
        fn = _jobs(1)[name][0]
        fn()
        conn.send(0.0)
        while True:
            count = conn.recv()
            if count is None:
                return
            cpu = time.thread_time()
            for _ in range(count):
                fn()
            conn.send(time.thread_time() - cpu)


class _Processes:
    """Two worker processes ready to run one job: ``round(n)`` splits ``CALLS`` calls
    over the first ``n`` of them."""

    def __init__(self, backend: str, name: str) -> None:
        ctx = multiprocessing.get_context("spawn")  # no fork of a threaded process
        self.conns: List[Connection] = []
        self.procs = []
        for _ in range(2):
            ours, theirs = ctx.Pipe()
            proc = ctx.Process(target=_process_worker, args=(theirs, backend, name), daemon=True)
            proc.start()
            self.conns.append(ours)
            self.procs.append(proc)
        for conn in self.conns:
            conn.recv()  # ready: data made, first call done

    def round(self, n: int) -> Tuple[float, float]:
        """Wall and CPU seconds for ``CALLS`` calls split over ``n`` processes."""
        started = time.perf_counter()
        for conn in self.conns[:n]:
            conn.send(CALLS // n)
        cpu = sum(conn.recv() for conn in self.conns[:n])
        return time.perf_counter() - started, cpu

    def close(self) -> None:
        for conn, proc in zip(self.conns, self.procs):
            conn.send(None)
            proc.join()


def main(argv: List[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--backend", default="cython", choices=["cython", "python"])
    parser.add_argument("--rounds", type=int, default=15, help="rounds of each thread count")
    args = parser.parse_args(argv)

    gil = sys._is_gil_enabled() if hasattr(sys, "_is_gil_enabled") else True
    print(
        f"Python {platform.python_version()}{'' if gil else ' free-threaded, GIL off'}, "
        f"backend {args.backend}, {os.cpu_count()} CPUs, load average "
        f"{' '.join('%.1f' % x for x in os.getloadavg())}"
    )
    print(
        "| job | 1 thread | 2 threads | speed-up | CPU per call, 2 threads / 1 "
        "| page faults per call, 1 thread / 2 | 2 processes vs 1 | CPU per call, 2 processes / 1 |"
    )
    print("|---|---|---|---|---|---|---|---|")
    started = time.perf_counter()
    with _backend.use(args.backend):
        for name, calls in _jobs(2).items():
            calls[0]()  # warm: first use builds what it needs
            procs = _Processes(args.backend, name)
            one: List[Tuple[float, float, int]] = []
            two: List[Tuple[float, float, int]] = []
            pone: List[Tuple[float, float]] = []
            ptwo: List[Tuple[float, float]] = []
            try:
                for _ in range(args.rounds):
                    one.append(_round(calls, 1))
                    two.append(_round(calls, 2))
                    pone.append(procs.round(1))
                    ptwo.append(procs.round(2))
            finally:
                procs.close()

            # fastest wall and CPU time of the rounds; page faults: the median round's
            t1, c1 = min(r[0] for r in one), min(r[1] for r in one)
            t2, c2 = min(r[0] for r in two), min(r[1] for r in two)
            f1, f2 = statistics.median(r[2] for r in one), statistics.median(r[2] for r in two)
            p1, pc1 = min(r[0] for r in pone), min(r[1] for r in pone)
            p2, pc2 = min(r[0] for r in ptwo), min(r[1] for r in ptwo)
            print(
                f"| {name} | {t1 * 1e6 / CALLS:.1f} µs | {t2 * 1e6 / CALLS:.1f} µs | {t1 / t2:.2f}x "
                f"| {c2 / c1:.2f} | {f1 / CALLS:.2f} / {f2 / CALLS:.2f} "
                f"| {p1 / p2:.2f}x | {pc2 / pc1:.2f} |",
                flush=True,
            )
    print(
        f"{time.perf_counter() - started:.0f} s; load average now "
        f"{' '.join('%.1f' % x for x in os.getloadavg())}"
    )
    return 0


if __name__ == "__main__":
    sys.exit(main())
