"""Filter pushdown shared by ``kafka-log`` and ``kafka-cluster``: the filters Spark pushes
on ``topic``, ``partition``, ``offset`` and ``timestamp`` as one
:class:`~kafkawire.log.planning.RowFilter`.  Each source narrows what it reads with it
(segments and batches of a log, offset ranges of a cluster); Spark still checks every
filter on the rows."""

from __future__ import annotations

import datetime as _dt
from typing import Callable, Optional, Sequence, Tuple, TypeVar

from pyspark.sql.datasource import (
    EqualTo,
    Filter,
    GreaterThan,
    GreaterThanOrEqual,
    In,
    LessThan,
    LessThanOrEqual,
)

from kafkawire.log import planning

_T = TypeVar("_T")

_EPOCH = _dt.datetime(1970, 1, 1, tzinfo=_dt.timezone.utc)


def _epoch_ms(value: object) -> Optional[int]:
    """A pushed-down timestamp literal as epoch milliseconds (None if not one)."""
    if isinstance(value, _dt.datetime):
        if value.tzinfo is None:  # Spark hands naive datetimes in the worker's zone
            value = value.astimezone()
        return (value - _EPOCH) // _dt.timedelta(milliseconds=1)  # floor: a superset
    return None


def row_filter_of(filters: Sequence[Filter]) -> planning.RowFilter:
    """The :class:`~kafkawire.log.planning.RowFilter` implied by the AND of
    ``filters`` (those it cannot use are left to Spark alone)."""
    topics: Optional[frozenset[str]] = None
    partitions: Optional[frozenset[int]] = None
    lo_off: Optional[int] = None
    hi_off: Optional[int] = None
    lo_ts: Optional[int] = None
    hi_ts: Optional[int] = None

    def tighter(old: Optional[_T], new: _T, pick: Callable[[_T, _T], _T]) -> _T:
        return new if old is None else pick(old, new)

    for f in filters:
        column: Tuple[str, ...] = getattr(f, "attribute", ())  # Not(...) has none: left to Spark
        name = column[0] if len(column) == 1 else None
        if name in ("topic", "partition"):
            if isinstance(f, EqualTo):
                values = frozenset([f.value])
            elif isinstance(f, In):
                values = frozenset(f.value)
            else:
                continue
            if name == "topic":
                topics = values if topics is None else topics & values
            else:
                partitions = values if partitions is None else partitions & values
            continue
        if name not in ("offset", "timestamp"):
            continue
        raw = getattr(f, "value", None)
        if name == "offset":
            value = raw if isinstance(raw, int) and not isinstance(raw, bool) else None
        else:
            value = _epoch_ms(raw)  # whole milliseconds, rounded down
        if value is None:
            continue
        # strict bounds tighten by one only for offsets; a millisecond bound rounded
        # down keeps every row that may match, and Spark drops the rest
        strict = 1 if name == "offset" else 0
        lo: Optional[int] = None
        hi: Optional[int] = None
        if isinstance(f, EqualTo):
            lo = hi = value
        elif isinstance(f, GreaterThan):
            lo = value + strict
        elif isinstance(f, GreaterThanOrEqual):
            lo = value
        elif isinstance(f, LessThan):
            hi = value - strict
        elif isinstance(f, LessThanOrEqual):
            hi = value
        if name == "offset":
            lo_off = tighter(lo_off, lo, max) if lo is not None else lo_off
            hi_off = tighter(hi_off, hi, min) if hi is not None else hi_off
        else:
            lo_ts = tighter(lo_ts, lo, max) if lo is not None else lo_ts
            hi_ts = tighter(hi_ts, hi, min) if hi is not None else hi_ts
    return planning.RowFilter(topics, partitions, lo_off, hi_off, lo_ts, hi_ts)
