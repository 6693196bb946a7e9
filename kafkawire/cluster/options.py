"""The read options of Spark's Kafka connector beyond which offsets a read covers: the
trigger limits of a stream, the driver's offset lookup retries and the consumer group
names (:func:`read_extras`, for
:class:`kafkawire.cluster.plan.ClusterReadOptions`).  Values are read as the connector reads
them: ``maxTriggerDelay`` as Spark's durations (``15m``), the rest as integers.
"""

from __future__ import annotations

import re
from typing import Any, Dict, Mapping, Optional

# Spark's time suffixes (JavaUtils.timeStringAsMs), in milliseconds
_UNITS = {
    "us": 0.001,
    "ms": 1,
    "s": 1000,
    "m": 60_000,
    "min": 60_000,
    "h": 3_600_000,
    "d": 86_400_000,
}


def duration_ms(raw: str, name: str) -> int:
    """A duration as Spark writes one (``500ms``, ``30s``, ``15m``; a bare number is
    milliseconds), in milliseconds; a ``ValueError`` names option ``name`` otherwise."""
    m = re.fullmatch(r"\s*(\d+)\s*([a-z]*)\s*", raw.lower())
    if m is None or m.group(2) not in ("", *_UNITS):
        raise ValueError(
            f"option {name}: {raw!r} is not a duration (a number with ms, s, m, min, h or d; bare: ms)"
        )
    return int(int(m.group(1)) * _UNITS[m.group(2) or "ms"])


def integer(raw: object, name: str, minimum: int) -> int:
    """``raw`` as an integer of at least ``minimum``; a ``ValueError`` names option
    ``name`` otherwise (every integer option and ``kafka.`` setting is read by this)."""
    try:
        value = int(str(raw).strip())
    except ValueError:
        raise ValueError(f"option {name}: {raw!r} is not an integer") from None
    if value < minimum:
        raise ValueError(f"option {name}: {value} is below {minimum}")
    return value


def _integer(opts: Mapping[str, str], key: str, name: str, minimum: int) -> Optional[int]:
    raw = opts.get(key)
    return None if raw is None else integer(raw, name, minimum)


def read_extras(opts: Mapping[str, str], settings: Mapping[str, str]) -> Dict[str, Any]:
    """The :class:`~kafkawire.cluster.plan.ClusterReadOptions` fields of these options, from a
    query's options (lower-cased keys) and its ``kafka.`` settings."""
    low = _integer(opts, "minoffsetspertrigger", "minOffsetsPerTrigger", 1)
    high = _integer(opts, "maxoffsetspertrigger", "maxOffsetsPerTrigger", 1)
    if low is not None and high is not None and low > high:
        raise ValueError(
            f"The value of minOffsetPerTrigger({low}) is higher than the maxOffsetsPerTrigger({high})."
        )
    attempts = _integer(opts, "fetchoffset.numretries", "fetchOffset.numRetries", 1)
    interval = _integer(opts, "fetchoffset.retryintervalms", "fetchOffset.retryIntervalMs", 0)
    return {
        "min_offsets_per_trigger": low,
        "max_trigger_delay_ms": duration_ms(opts.get("maxtriggerdelay", "15m"), "maxTriggerDelay"),
        "offset_fetch_attempts": 3 if attempts is None else attempts,
        "offset_fetch_interval_ms": 1000 if interval is None else interval,
        "group_id": settings.get("group.id"),
        "group_id_prefix": opts.get("groupidprefix"),
    }
