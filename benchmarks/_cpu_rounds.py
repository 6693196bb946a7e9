"""The table of CPU seconds that the schema codecs' benchmark scripts print.

Each script builds its routes (functions of no arguments), times them with
``cpu_rounds`` and prints them with ``print_table``: best and median seconds, the rate,
and the ratio of each route's time to kafkawire's.
"""

from __future__ import annotations

import statistics
import sys
import time
from typing import Callable, Dict, List, Tuple


def argv(n: int, rounds: int) -> Tuple[int, int]:
    """N and ROUNDS of ``script.py [N [ROUNDS]]``, else these defaults."""
    args = sys.argv[1:]
    return int(args[0]) if args else n, int(args[1]) if len(args) > 1 else rounds


def cpu_rounds(routes: Dict[str, Callable[[], object]], rounds: int) -> Dict[str, List[float]]:
    """Each route's CPU seconds in each round, the routes interleaved.

    CPU seconds of this process: on a shared machine the wall clock measures the
    neighbours as much as the code.
    """
    times: Dict[str, List[float]] = {name: [] for name in routes}
    for _ in range(rounds):
        for name, fn in routes.items():
            start = time.process_time()
            fn()
            times[name].append(time.process_time() - start)
    return times


def print_table(
    title: str, n: int, times: Dict[str, List[float]], baseline: str, unit: str = "rec/s"
) -> None:
    """``title``, then a line a route: best seconds (median), millions of ``unit`` for
    ``n`` items, and the best time over ``baseline``'s (kafkawire's route)."""
    rounds = min(len(t) for t in times.values())
    print(f"{title}; CPU seconds, best of {rounds} (median in brackets)")
    best = {name: min(t) for name, t in times.items()}
    width = max(len(name) for name in times)
    for name, t in times.items():
        print(
            f"  {name:{width}s} {best[name]:8.3f} s ({statistics.median(t):.3f})"
            f"  {n / best[name] / 1e6:7.2f} M {unit}  {best[name] / best[baseline]:6.2f}x kafkawire's time"
        )
