"""Clients kept open between the reads of one process.

Spark runs task after task in one Python worker.  A task that opened its own
:class:`~kafkawire.cluster.client.Cluster` would connect to the leader, ask ApiVersions
and, on a secured cluster, shake hands over TLS and run the SASL exchange, all before its
first Fetch.  :func:`borrowed` lends the next task with the same client settings the
client the last one gave back, its connections still open, as Spark's own connector keeps
its consumers between tasks.

What a client learnt of topics and leaders is forgotten when it is lent again: each task
starts from its planner's leader hints or asks Metadata, as a new client would.  A
connection the broker closed while the client sat idle (a restart,
``connections.max.idle.ms``, a SASL session past ``connections.max.reauth.ms``) fails the
next request on it, and the client's retry opens a new one.  A read that raised or was abandoned closes its
client instead of giving it back.  A forked child does not touch its parent's clients.
"""

from __future__ import annotations

import contextlib
import os
import threading
from typing import Iterator, List, Tuple

from kafkawire.cluster.client import Cluster
from kafkawire.cluster.config import ClientConfig

#: How many idle clients a process keeps (most recently given back first); one more
#: given back closes the longest idle.
KEEP = 4

_lock = threading.Lock()
_idle: List[Tuple[ClientConfig, Cluster]] = []  # longest idle first
_inherited: List[Tuple[ClientConfig, Cluster]] = []  # a parent's, never used nor closed here


@contextlib.contextmanager
def borrowed(config: ClientConfig) -> Iterator[Cluster]:
    """A client of ``config``: an idle one if this process kept one, else a new one;
    given back to be kept when the block ends normally, closed when it raises."""
    cluster = _take(config)
    try:
        yield cluster
    except BaseException:
        cluster.close()
        raise
    _give_back(config, cluster)


def idle() -> int:
    """How many clients this process keeps idle."""
    with _lock:
        return len(_idle)


def close_idle() -> None:
    """Close every idle client now (a test's clean slate; otherwise their sockets close
    with the process)."""
    with _lock:
        closing = [c for _, c in _idle]
        _idle.clear()
    for cluster in closing:
        cluster.close()


def _take(config: ClientConfig) -> Cluster:
    with _lock:
        for i in range(len(_idle) - 1, -1, -1):
            if _idle[i][0] == config:
                cluster = _idle.pop(i)[1]
                cluster.forget_metadata()
                return cluster
    return Cluster(config)


def _give_back(config: ClientConfig, cluster: Cluster) -> None:
    with _lock:
        _idle.append((config, cluster))
        closing = [c for _, c in _idle[:-KEEP]]
        del _idle[:-KEEP]
    for old in closing:
        old.close()


def _set_parents_aside() -> None:
    """In a forked child: the parent's clients hold the parent's sockets, and its lock
    may have been held by a thread the child does not have."""
    global _lock
    _lock = threading.Lock()
    _inherited.extend(_idle)
    _idle.clear()


if hasattr(os, "register_at_fork"):  # POSIX; elsewhere no process forks
    os.register_at_fork(after_in_child=_set_parents_aside)
