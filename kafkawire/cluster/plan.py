"""What a read of a live cluster covers: Spark's Kafka connector's read options, and the
offset ranges they mean, worked out on the driver from Metadata and ListOffsets.

The options keep the connector's names and meanings (the table of
``docs/spark/kafka-cluster.md``, "Moving a job from Spark's connector"):

* which partitions: exactly one of ``subscribe`` (topics, comma separated),
  ``subscribePattern`` (a regular expression matched against whole topic names, internal
  topics left out) or ``assign`` (JSON ``{"topic": [0, 1]}``);
* where to start: ``startingTimestamp`` (every partition, ms), else
  ``startingOffsetsByTimestamp`` (JSON ``{"topic": {"0": ms}}``), else
  ``startingOffsets`` (``earliest``, ``latest``, or JSON ``{"topic": {"0": 23}}`` where -2
  is earliest and -1 latest); a timestamp no record reaches fails the query, or starts at
  the latest offset with ``startingOffsetsByTimestampStrategy`` ``latest``;
* where to end (batch reads): ``endingTimestamp``, ``endingOffsetsByTimestamp`` or
  ``endingOffsets`` (``latest`` or JSON with -1); a timestamp no record reaches ends at
  the latest offset;
* how to cut: one range per partition, each cut into parts of at most
  ``maxRecordsPerPartition`` records, then cut further in proportion to their sizes until
  there are ``minPartitions`` of them;
* ``includeHeaders``, ``failOnDataLoss``, ``maxOffsetsPerTrigger`` and the ``kafka.``
  client settings (:mod:`kafkawire.cluster.config`, plus ``kafka.isolation.level``,
  ``kafka.fetch.max.bytes`` and ``kafka.max.partition.fetch.bytes``).

For streaming, :func:`initial`, :func:`latest`, :func:`rate_limit` and
:func:`stream_ranges` work on per-partition offsets kept as Spark's checkpoint keeps the
connector's (``{"topic": {"0": 23}}``).

Every other option of the connector and setting of Kafka's consumer is taken
(:mod:`kafkawire.cluster.options`, :mod:`kafkawire.kafka_settings`); a name that is
neither is an error naming the one probably meant (Kafka's clients only log those, and a
typo goes unnoticed).
"""

from __future__ import annotations

import json
import re
from dataclasses import dataclass, field, replace
from typing import Any, Dict, List, Mapping, Optional, Sequence, Tuple

from kafkawire.kafka_settings import ISOLATION_LEVELS
from kafkawire import datasource_options
from kafkawire.cluster.client import EARLIEST, LATEST, Cluster, TopicPartition
from kafkawire.cluster.config import ClientConfig, client_settings
from kafkawire.cluster.options import read_extras

#: the read options besides the ``kafka.`` settings, lower case (keys are compared so)
READ_OPTIONS = tuple(n.lower() for n in datasource_options.names(datasource_options.KAFKA_CLUSTER_READ))
#: the consumer settings a read uses besides the connection's, with Kafka's defaults
READ_CLIENT_SETTINGS = datasource_options.defaults(datasource_options.KAFKA_CLUSTER_READ_CLIENT)


@dataclass(frozen=True)
class OffsetRange:
    """Offsets ``[start, end)`` of one partition: what one task reads.

    ``from_earliest`` and ``to_latest`` mark a batch read's ``earliest`` and ``latest``:
    ``start`` and ``end`` are then what they were when the read was planned, and the task
    asks again when it starts (:func:`bound_at_task`), as the connector's tasks do, so a
    log start that retention moved since is not lost data."""

    topic: str
    partition: int
    start: int
    end: int
    from_earliest: bool = False
    to_latest: bool = False

    @property
    def size(self) -> int:
        return max(0, self.end - self.start)

    @property
    def tp(self) -> TopicPartition:
        return (self.topic, self.partition)


# An offset spec: ("earliest",), ("latest",), ("offsets", {tp: offset}),
# ("timestamp", ms) or ("timestamps", {tp: ms}).
OffsetSpec = Tuple[Any, ...]


@dataclass(frozen=True)
class ClusterReadOptions:
    """The parsed read options of one query."""

    client: ClientConfig
    subscription: Tuple[
        str, Any
    ]  # ("subscribe", names) | ("subscribePattern", re) | ("assign", {topic: parts})
    starting: OffsetSpec = ("earliest",)
    ending: OffsetSpec = ("latest",)
    no_match_starts_latest: bool = False
    min_partitions: Optional[int] = None
    max_records_per_partition: Optional[int] = None
    max_offsets_per_trigger: Optional[int] = None
    include_headers: bool = False
    fail_on_data_loss: bool = True
    poll_timeout: float = 120.0  # seconds, kafkaConsumer.pollTimeoutMs
    isolation_level: int = 0  # 1: read_committed
    fetch_max_bytes: int = 50 << 20
    partition_fetch_bytes: int = 1 << 20
    backend: Optional[str] = None
    columns: Optional[Tuple[str, ...]] = field(default=None)
    commit_group: Optional[str] = None  # the group a stream commits its offsets to
    min_offsets_per_trigger: Optional[int] = None
    max_trigger_delay_ms: int = 15 * 60 * 1000
    offset_fetch_attempts: int = 3  # fetchOffset.numRetries
    offset_fetch_interval_ms: int = 1000  # fetchOffset.retryIntervalMs
    group_id: Optional[str] = None  # kafka.group.id
    group_id_prefix: Optional[str] = None  # groupIdPrefix

    @classmethod
    def parse(cls, options: Mapping[str, str], *, streaming: bool = False) -> "ClusterReadOptions":
        """Parse and check a query's options (keys in any case)."""
        opts = {str(k).lower(): str(v) for k, v in options.items()}
        settings = client_settings(opts)
        datasource_options.check_names(opts, "kafka-cluster", "read")
        client = ClientConfig.parse(settings)
        extra = read_extras(opts, settings)
        isolation = settings.get("isolation.level", "read_uncommitted").lower()
        if isolation not in ISOLATION_LEVELS:
            raise ValueError(
                f"option kafka.isolation.level: {isolation!r} is not one of {', '.join(ISOLATION_LEVELS)}"
            )
        strategy = opts.get("startingoffsetsbytimestampstrategy", "error").lower()
        if strategy not in ("error", "latest"):
            raise ValueError(
                f"option startingOffsetsByTimestampStrategy: {strategy!r} is not error or latest"
            )
        return cls(
            client=client,
            subscription=_subscription(opts),
            starting=_offset_spec(opts, "starting", streaming),
            ending=_offset_spec(opts, "ending", streaming),
            no_match_starts_latest=strategy == "latest",
            min_partitions=_count(opts, "minpartitions", "minPartitions"),
            max_records_per_partition=_count(opts, "maxrecordsperpartition", "maxRecordsPerPartition"),
            max_offsets_per_trigger=_count(opts, "maxoffsetspertrigger", "maxOffsetsPerTrigger"),
            include_headers=_bool(opts, "includeheaders", "includeHeaders", False),
            fail_on_data_loss=_bool(opts, "failondataloss", "failOnDataLoss", True),
            poll_timeout=_positive(
                opts.get("kafkaconsumer.polltimeoutms", "120000"), "kafkaConsumer.pollTimeoutMs", "integer"
            )
            / 1000,
            isolation_level=ISOLATION_LEVELS.index(isolation),
            fetch_max_bytes=_bytes(settings, "fetch.max.bytes"),
            partition_fetch_bytes=_bytes(settings, "max.partition.fetch.bytes"),
            backend=opts.get("backend") or None,
            commit_group=_commit_group(opts, settings),
            **extra,
        )


def _commit_group(opts: Mapping[str, str], settings: Mapping[str, str]) -> Optional[str]:
    if not _bool(opts, "commitoffsetstogroup", "commitOffsetsToGroup", False):
        return None
    group = settings.get("group.id") or opts.get("groupidprefix")
    if not group:
        raise ValueError(
            "option commitOffsetsToGroup needs the group: option kafka.group.id or groupIdPrefix"
        )
    return group


def _bool(opts: Mapping[str, str], key: str, name: str, default: bool) -> bool:
    raw = opts.get(key)
    return default if raw is None else datasource_options.parse_bool(raw, name)


def _positive(raw: str, name: str, what: str) -> int:
    """``raw`` as an integer of at least 1, or a ``ValueError`` naming option ``name``."""
    try:
        value = int(raw)
    except ValueError:
        value = 0
    if value < 1:
        raise ValueError(f"option {name}: {raw!r} is not a positive {what}")
    return value


def _count(opts: Mapping[str, str], key: str, name: str) -> Optional[int]:
    raw = opts.get(key)
    return None if raw is None else _positive(raw, name, "integer")


def _bytes(settings: Mapping[str, str], key: str) -> int:
    return _positive(str(settings.get(key, READ_CLIENT_SETTINGS[key])), f"kafka.{key}", "number of bytes")


def _json(raw: str, name: str) -> Any:
    try:
        return json.loads(raw)
    except ValueError as exc:
        raise ValueError(f"option {name}: not JSON ({exc}): {raw[:80]!r}") from None


def subscribed_topics(options: Mapping[str, str]) -> Optional[Tuple[str, ...]]:
    """The topics a read's options (any case) name: ``subscribe``'s or ``assign``'s;
    None for ``subscribePattern``, whose topics are known only from the cluster."""
    kind, what = _subscription({str(k).lower(): str(v) for k, v in options.items()})
    if kind == "subscribePattern":
        return None
    return tuple(what) if kind == "subscribe" else tuple(sorted({t for t, _ in what}))


def _subscription(opts: Mapping[str, str]) -> Tuple[str, Any]:
    given = [k for k in ("subscribe", "subscribepattern", "assign") if opts.get(k) is not None]
    if len(given) != 1:
        raise ValueError(
            "exactly one of the options subscribe, subscribePattern and assign must be given"
            + (f" (got {len(given)})" if given else "")
        )
    kind = given[0]
    raw = opts[kind]
    if kind == "subscribe":
        # a topic named twice is read once, as the connector reads it
        topics = tuple(dict.fromkeys(t.strip() for t in raw.split(",") if t.strip()))
        if not topics:
            raise ValueError("option subscribe names no topic")
        return ("subscribe", topics)
    if kind == "subscribepattern":
        try:
            re.compile(raw)
        except re.error as exc:
            raise ValueError(f"option subscribePattern: {raw!r} is not a regular expression: {exc}") from None
        return ("subscribePattern", raw)
    value = _json(raw, "assign")
    if (
        not isinstance(value, dict)
        or not value
        or not all(
            isinstance(ps, list) and all(isinstance(p, int) and p >= 0 for p in ps) for ps in value.values()
        )
    ):
        raise ValueError(f'option assign: expected JSON like {{"topic": [0, 1]}}, got {raw!r}')
    # a partition named twice is read once, as the connector reads it
    return ("assign", tuple(sorted({(str(t), p) for t, ps in value.items() for p in ps})))


def _per_partition(value: Any, name: str) -> Dict[TopicPartition, int]:
    if not isinstance(value, dict) or not all(isinstance(ps, dict) for ps in value.values()):
        raise ValueError(f'option {name}: expected JSON like {{"topic": {{"0": 23}}}}')
    out: Dict[TopicPartition, int] = {}
    for topic, parts in value.items():
        for p, v in parts.items():
            if not str(p).isdigit() or not isinstance(v, int) or isinstance(v, bool):
                raise ValueError(
                    f"option {name}: {topic} partition {p!r} -> {v!r} is not partition -> integer"
                )
            out[(str(topic), int(p))] = v
    return out


def _offset_spec(opts: Mapping[str, str], side: str, streaming: bool) -> OffsetSpec:
    """The starting or ending spec (``side``), by the connector's precedence:
    a timestamp for all partitions, then per-partition timestamps, then offsets."""
    if side == "ending" and streaming:
        for key in ("endingoffsets", "endingtimestamp", "endingoffsetsbytimestamp"):
            if key in opts:
                raise ValueError(f"option {key} is for batch reads, not streaming ones")
        return ("latest",)
    if f"{side}timestamp" in opts:
        raw = opts[f"{side}timestamp"]
        if not raw.strip().isdigit():
            raise ValueError(f"option {side}Timestamp: {raw!r} is not a timestamp in milliseconds")
        return ("timestamp", int(raw))
    if f"{side}offsetsbytimestamp" in opts:
        stamps = _per_partition(
            _json(opts[f"{side}offsetsbytimestamp"], f"{side}OffsetsByTimestamp"), f"{side}OffsetsByTimestamp"
        )
        return ("timestamps", stamps)
    given = opts.get(f"{side}offsets")
    if given is None:  # the connector's defaults: a stream starts at the end, a batch at the start
        return ("earliest",) if side == "starting" and not streaming else ("latest",)
    word = given.strip().lower()
    forbidden = "latest" if side == "starting" else "earliest"
    if word in ("earliest", "latest"):
        if word == forbidden and not (streaming and side == "starting"):
            raise ValueError(f"option {side}Offsets: {word!r} is not allowed for batch reads")
        return (word,)
    offsets = _per_partition(_json(given, f"{side}Offsets"), f"{side}Offsets")
    bad = [
        tp
        for tp, o in offsets.items()
        if o < -2
        or (o == (LATEST if side == "starting" else EARLIEST) and not (streaming and side == "starting"))
    ]
    if bad:
        t, p = bad[0]
        raise ValueError(f"option {side}Offsets: {offsets[bad[0]]} for {t}-{p} is not allowed here")
    return ("offsets", offsets)


# ---------------------------------------------------------------------------
# planning


def partitions_of(cluster: Cluster, subscription: Tuple[str, Any]) -> List[TopicPartition]:
    """The partitions a subscription covers now, sorted, from Metadata asked afresh (the
    connector lists them at every trigger: partitions added under a stream are found); a
    named topic that does not exist (or an assigned partition it lacks) is an error naming
    it.  A pattern picks its topics from the names of all of them, and only those it picks
    must be readable: a partition offline elsewhere in the cluster is none of its concern."""
    cluster.forget_metadata()
    kind, value = subscription
    if kind == "subscribePattern":
        pattern = re.compile(value)
        picked = [n for n, internal in cluster.topic_names().items() if not internal and pattern.fullmatch(n)]
        if not picked:
            return []
        topics = cluster.topics(picked, missing_ok=True)  # deleted since it was listed: gone
        return sorted((t.name, p) for t in topics.values() for p in t.partitions)
    if kind == "subscribe":
        topics = cluster.topics(list(value))
        return sorted((t, p) for t in value for p in topics[t].partitions)
    topics = cluster.topics(sorted({t for t, _ in value}))
    for t, p in value:
        if p not in topics[t].partitions:
            raise ValueError(
                f"option assign: topic {t!r} has no partition {p} ({len(topics[t].partitions)} partitions)"
            )
    return list(value)


def resolve_offsets(
    cluster: Cluster,
    spec: OffsetSpec,
    tps: Sequence[TopicPartition],
    *,
    starting: bool,
    isolation_level: int,
    no_match_latest: bool = False,
) -> Dict[TopicPartition, int]:
    """The offset ``spec`` means for each of ``tps`` (ListOffsets for the log ends and
    timestamps)."""
    side = "starting" if starting else "ending"
    kind = spec[0]
    asks: Dict[TopicPartition, int]
    if kind in ("earliest", "latest"):
        asks = {tp: EARLIEST if kind == "earliest" else LATEST for tp in tps}
    elif kind == "timestamp":
        asks = {tp: spec[1] for tp in tps}
    else:
        given: Dict[TopicPartition, int] = spec[1]
        missing = sorted(set(tps) - set(given))
        extra = sorted(set(given) - set(tps))
        if missing or extra:
            what = "Offsets" if kind == "offsets" else "OffsetsByTimestamp"
            raise ValueError(
                f"option {side}{what} must name every partition read and no other: "
                + "; ".join(
                    part
                    for part in (
                        "missing " + ", ".join(f"{t}-{p}" for t, p in missing) if missing else "",
                        "not read " + ", ".join(f"{t}-{p}" for t, p in extra) if extra else "",
                    )
                    if part
                )
            )
        if kind == "offsets":
            found = {tp: o for tp, o in given.items() if o >= 0}
            ends = {tp: o for tp, o in given.items() if o < 0}
            if ends:
                listed = cluster.list_offsets(ends, isolation_level=isolation_level)
                found.update({tp: listed[tp][0] for tp in ends})
            return {tp: found[tp] for tp in tps}
        asks = dict(given)
    listed = cluster.list_offsets(asks, isolation_level=isolation_level)
    out: Dict[TopicPartition, int] = {}
    latest_needed = []
    for tp in tps:
        offset = listed[tp][0]
        if offset >= 0:
            out[tp] = offset
        elif starting and not no_match_latest:
            raise ValueError(
                f"no record of {tp[0]}-{tp[1]} has a timestamp at or after {asks[tp]}"
                " (option startingOffsetsByTimestampStrategy=latest starts such partitions at their end)"
            )
        else:
            latest_needed.append(tp)
    if latest_needed:
        latest = cluster.list_offsets({tp: LATEST for tp in latest_needed}, isolation_level=isolation_level)
        out.update({tp: latest[tp][0] for tp in latest_needed})
    return out


def split(ranges: Sequence[OffsetRange], options: ClusterReadOptions) -> List[OffsetRange]:
    """Cut ``ranges`` into tasks: parts of at most ``maxRecordsPerPartition`` records,
    then, while there are fewer than ``minPartitions``, each range cut in proportion to
    its share of all the records."""
    out = list(ranges)
    if options.max_records_per_partition:
        out = [
            piece
            for r in out
            for piece in _cut(r, -(-r.size // options.max_records_per_partition) if r.size else 1)
        ]
    want = options.min_partitions
    if want and len(out) < want:
        total = sum(r.size for r in out)
        if total:
            out = [piece for r in out for piece in _cut(r, max(1, round(r.size * want / total)))]
    return out


def _cut(r: OffsetRange, parts: int) -> List[OffsetRange]:
    """``r`` in ``parts`` pieces; the first starts and the last ends where ``r`` does, late
    bound if ``r`` is (the connector keeps only the cuts between pieces fixed)."""
    parts = max(1, min(parts, r.size or 1))
    bounds = [r.start + r.size * i // parts for i in range(parts + 1)]
    pieces = [OffsetRange(r.topic, r.partition, a, b) for a, b in zip(bounds, bounds[1:])]
    pieces[0] = replace(pieces[0], from_earliest=r.from_earliest)
    pieces[-1] = replace(pieces[-1], to_latest=r.to_latest)
    return pieces


def _late(spec: OffsetSpec, tp: TopicPartition, word: str, sentinel: int) -> bool:
    """Whether ``spec`` leaves ``tp``'s offset to the log's end ``word`` (``earliest`` or
    ``latest``, -2 or -1 in JSON), which a batch task looks up again when it starts."""
    return bool(spec[0] == word or (spec[0] == "offsets" and spec[1].get(tp) == sentinel))


def plan(cluster: Cluster, options: ClusterReadOptions) -> List[OffsetRange]:
    """The offset ranges a batch read covers, one or more a partition, in partition order."""
    tps = partitions_of(cluster, options.subscription)
    if not tps:
        return []
    starts = resolve_offsets(
        cluster,
        options.starting,
        tps,
        starting=True,
        isolation_level=options.isolation_level,
        no_match_latest=options.no_match_starts_latest,
    )
    ends = resolve_offsets(
        cluster, options.ending, tps, starting=False, isolation_level=options.isolation_level
    )
    ranges = []
    for tp in tps:
        if ends[tp] < starts[tp]:
            raise ValueError(
                f"{tp[0]}-{tp[1]}: the starting offset {starts[tp]} is after the ending offset {ends[tp]}"
            )
        ranges.append(
            OffsetRange(
                tp[0],
                tp[1],
                starts[tp],
                ends[tp],
                from_earliest=_late(options.starting, tp, "earliest", EARLIEST),
                to_latest=_late(options.ending, tp, "latest", LATEST),
            )
        )
    return split(ranges, options)


def bound_at_task(cluster: Cluster, r: OffsetRange, options: ClusterReadOptions) -> OffsetRange:
    """``r`` with its late-bound ends looked up now, as a task starts (ListOffsets)."""
    start, end = r.start, r.end
    if r.from_earliest:
        start = cluster.list_offsets({r.tp: EARLIEST}, isolation_level=options.isolation_level)[r.tp][0]
    if r.to_latest:
        end = cluster.list_offsets({r.tp: LATEST}, isolation_level=options.isolation_level)[r.tp][0]
    return OffsetRange(r.topic, r.partition, start, end)


# ---------------------------------------------------------------------------
# streaming: offsets as Spark keeps them in its checkpoint, {"topic": {"0": 23}}

Offsets = Dict[TopicPartition, int]


def to_json(offsets: Offsets) -> Dict[str, Dict[str, int]]:
    """Offsets as the JSON-able dict Spark stores (the connector's layout)."""
    out: Dict[str, Dict[str, int]] = {}
    for (topic, partition), offset in sorted(offsets.items()):
        out.setdefault(topic, {})[str(partition)] = offset
    return out


def from_json(value: Mapping[str, Mapping[str, int]]) -> Offsets:
    """The inverse of :func:`to_json`."""
    return {(t, int(p)): int(o) for t, parts in value.items() for p, o in parts.items()}


#: how often, and how many seconds apart, the log ends are asked when one went back
#: (the connector's fetchOffset.numRetries and fetchOffset.retryIntervalMs defaults)
BACKWARDS_TRIES = 3
BACKWARDS_WAIT = 1.0


def latest(cluster: Cluster, options: ClusterReadOptions, known: Optional[Offsets] = None) -> Offsets:
    """The end of every partition the subscription covers now (new ones included).  An
    end before the ``known`` offset of its partition is asked again, a few times, as
    the connector does (a new leader's end can trail for a moment); one still behind is
    returned as it is, for :func:`stream_ranges` to report."""
    import time

    for attempt in range(BACKWARDS_TRIES):
        tps = partitions_of(cluster, options.subscription)
        if not tps:
            return {}
        ends = resolve_offsets(
            cluster, ("latest",), tps, starting=False, isolation_level=options.isolation_level
        )
        if not any(e < known[tp] for tp, e in ends.items() if known and tp in known):
            break
        if attempt + 1 < BACKWARDS_TRIES:
            time.sleep(BACKWARDS_WAIT)
    return ends


def earliest_of_new(cluster: Cluster, options: ClusterReadOptions, start: Offsets, end: Offsets) -> Offsets:
    """Where the partitions of ``end`` that ``start`` lacks (added since) begin; one that
    went away meanwhile is left out."""
    new = [tp for tp in end if tp not in start]
    if not new:
        return {}
    there = set(partitions_of(cluster, options.subscription))
    new = [tp for tp in new if tp in there]
    if not new:
        return {}
    return resolve_offsets(
        cluster, ("earliest",), new, starting=True, isolation_level=options.isolation_level
    )


def initial(cluster: Cluster, options: ClusterReadOptions) -> Offsets:
    """Where a new streaming query starts, by the starting options."""
    tps = partitions_of(cluster, options.subscription)
    if not tps:
        return {}
    return resolve_offsets(
        cluster,
        options.starting,
        tps,
        starting=True,
        isolation_level=options.isolation_level,
        no_match_latest=options.no_match_starts_latest,
    )


def rate_limit(start: Offsets, end: Offsets, limit: int) -> Offsets:
    """``end`` cut so that about ``limit`` records are read in all, each partition given
    its share in proportion to what it has waiting (a partition with a little waiting
    gets at least one record, so none starves).  ``start`` holds where each partition
    of ``end`` begins, new ones at their earliest offset, so they share the limit too."""
    waiting = {tp: max(0, e - start.get(tp, e)) for tp, e in end.items()}
    total = sum(waiting.values())
    if total <= limit:
        return dict(end)
    out = {}
    for tp, e in end.items():
        share = limit * waiting[tp] / total
        step = int(share) if share >= 1 else (1 if share > 0 else 0)
        out[tp] = min(e, start.get(tp, e) + step)
    return out


def _data_loss(options: ClusterReadOptions, what: str) -> None:
    """``what`` was lost: an error with ``failOnDataLoss``, else a warning."""
    from kafkawire.errors import DataLossError

    if options.fail_on_data_loss:
        raise DataLossError(f"{what}: records may have been lost; set failOnDataLoss=false to go on")
    import logging

    logging.getLogger("kafkawire.cluster.plan").warning("%s: going on", what)


def stream_ranges(
    cluster: Cluster, options: ClusterReadOptions, start: Offsets, end: Offsets
) -> List[OffsetRange]:
    """The ranges of one micro-batch from ``start`` to ``end``, checked as the connector
    checks them.  A partition new since ``start`` is read from its earliest offset, and
    one whose earliest offset is not 0 has lost records.  A partition that went away,
    or whose offset went back (its topic deleted and recreated, its log truncated), is
    data loss too: an error naming it with ``failOnDataLoss``; else it is skipped, and
    the query goes on from the offset it went back to."""
    earliest = earliest_of_new(cluster, options, start, end)
    ranges = []
    for tp in sorted(set(start) | set(end)):
        where = f"{tp[0]}-{tp[1]}"
        b = end.get(tp)
        if b is None:
            _data_loss(options, f"{where} is gone from the cluster (its topic deleted?)")
            continue
        if tp in start:
            a = start[tp]
        elif tp in earliest:
            a = earliest[tp]
            if a != 0:
                _data_loss(options, f"{where} was added and starts at offset {a}, not 0")
        else:
            _data_loss(options, f"{where} was added and is gone again before it was read")
            continue
        if b < a:
            _data_loss(
                options,
                f"{where}: its offset went from {a} back to {b} (its topic deleted and recreated,"
                " or its log truncated)",
            )
            continue
        ranges.append(OffsetRange(tp[0], tp[1], a, b))
    return split(ranges, options)
