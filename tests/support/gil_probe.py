"""Whether a call releases the GIL, decided without reading a clock.

The switch interval is raised far beyond the test's length, so a thread that holds the
GIL keeps it until it blocks or until C code lets it go.  A worker thread repeats the
call; the main thread, which is waiting to run, marks a flag as soon as it gets the GIL.
If the call held the GIL, nothing between the calls gives it up, so the worker finishes
every round before the flag can be set.  If the call releases it, the main thread runs
while a call is in flight and the worker sees the flag and stops.
"""

from __future__ import annotations

import sys
import threading
import time

# Far longer than any test: no forced switch between threads happens while one runs.
_NO_FORCED_SWITCH = 100.0


def python_ran_during(fn, rounds: int = 1_000_000, timeout: float = 60.0) -> bool:
    """True if the main thread ran Python code while ``fn`` was being called by another
    thread; ``fn`` is called at most ``rounds`` times or until ``timeout`` seconds."""
    main_ran = threading.Event()
    seen = []

    def worker():
        give_up = time.monotonic() + timeout
        n = 0
        while not main_ran.is_set() and n < rounds and time.monotonic() < give_up:
            fn()
            n += 1
        seen.append(main_ran.is_set())

    old = sys.getswitchinterval()
    sys.setswitchinterval(_NO_FORCED_SWITCH)
    try:
        t = threading.Thread(target=worker)
        t.start()  # returns once this thread holds the GIL again
        main_ran.set()
        t.join(timeout + 10)
    finally:
        sys.setswitchinterval(old)
    assert not t.is_alive(), "the worker thread did not finish"
    return seen[0]
