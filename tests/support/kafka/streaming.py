"""Helpers of the tests that run Spark streaming queries: bounded waits on a condition,
a failed query's whole error, and a query started again while its source's Python
worker is too late to connect back (a constant 10 s of Spark's, missed on a busy
machine)."""

from __future__ import annotations

import time
from typing import Any, Callable

#: what Spark's error says when the Python worker of a stream's source did not connect
#: back in time
WORKER_LATE = "Python worker failed to connect back"


def wait_for(what: str, condition: Callable[[], Any], timeout: float = 180) -> None:
    """Return once ``condition()`` is true; fail naming ``what`` after ``timeout`` s."""
    deadline = time.monotonic() + timeout
    while not condition():
        if time.monotonic() > deadline:
            raise AssertionError(f"timed out after {timeout:g} s waiting for {what}")
        time.sleep(0.2)


def error_text(query: Any) -> str:
    """A failed query's error with the error it wraps (Spark cuts the middle out of a
    long one), or "" when it did not fail."""
    error = query.exception()
    return "" if error is None else f"{error}\n{getattr(error, '_cause', None) or ''}"


def started(start: Callable[[], Any], tries: int = 8) -> Any:
    """``start()``'s query, started again (``tries`` times in all) while it fails as it
    starts because its source's Python worker was late: nothing had been read or written
    yet."""
    for _ in range(tries):
        query = start()
        wait_for(
            "the query to start",
            lambda: query.exception() is not None or query.recentProgress or not query.isActive,
        )
        if WORKER_LATE not in error_text(query) or query.recentProgress:
            return query
    raise AssertionError(f"the query's Python worker was late {tries} times: {error_text(query)}")


__all__ = ["WORKER_LATE", "error_text", "started", "wait_for"]
