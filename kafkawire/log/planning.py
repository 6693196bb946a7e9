"""Planning a ``kafka-log`` read: which partitions and segments, split where, which
transactions were aborted, and which splits a task reads together.

This runs on the driver side; :mod:`kafkawire.log.read` reads the splits it makes.
"""

from __future__ import annotations

import os
from dataclasses import dataclass, replace
from typing import (
    Dict,
    List,
    Optional,
    Sequence,
    Tuple,
    Union,
)

from kafkawire.protocol.record_layout import BatchHeader
from kafkawire.log import indexes, segments
from kafkawire.log.segments import SegmentError
from kafkawire.log.read_options import DEFAULT_READ_OPTIONS, ReadOptions
from kafkawire.log.transactions import TxnState, transactions
from kafkawire.log.storage import (
    LOCAL,
    Store,
)

# ---------------------------------------------------------------------------
# planning


@dataclass(frozen=True)
class Split:
    """One unit of work: bytes ``[start, end)`` of one segment, on batch boundaries.

    ``aborted`` lists the aborted transactions of the split's partition as
    ``(producer id, first offset, last offset)``; ``last_stable_offset`` is the first
    offset of the earliest transaction still open at the log's end (None if none is).
    Both are filled only for ``read_committed``.
    """

    topic: Optional[str]
    partition: Optional[int]
    path: str
    start: int
    end: int
    aborted: Tuple[Tuple[int, int, int], ...] = ()
    last_stable_offset: Optional[int] = None
    #: where ``path`` lives (a task reopens it there)
    store: Store = LOCAL


def partition_transactions(plog: segments.PartitionLog, *, strict: bool = True) -> TxnState:
    """:func:`transactions` of ``plog``; for a log joined to its remote tier, from the
    remote segments' ``.txnindex`` objects rather than a scan of their batch headers
    where they tell (:func:`kafkawire.log.tiered.transactions`)."""
    from kafkawire.log import tiered

    if isinstance(plog, tiered.TieredLog):
        known = tiered.transactions(plog, strict=strict)
        if known is not None:
            return known
    return transactions(plog, strict=strict)


@dataclass(frozen=True)
class RowFilter:
    """What a query keeps, as far as the log's own structure can tell (all bounds
    inclusive; None: no bound).  Timestamps are epoch milliseconds.

    :func:`plan` uses it to skip partitions, whole segments and the start of segments
    (through the ``.index`` and ``.timeindex``); :func:`~kafkawire.log.read.read_split` skips batches by their
    header, without decompressing them, and drops the rows outside it.
    """

    topics: Optional[frozenset[str]] = None
    partitions: Optional[frozenset[int]] = None
    min_offset: Optional[int] = None
    max_offset: Optional[int] = None
    min_timestamp: Optional[int] = None
    max_timestamp: Optional[int] = None

    @property
    def empty(self) -> bool:
        """True when nothing can match (contradictory bounds, an empty IN list)."""
        return (
            self.topics is not None
            and not self.topics
            or self.partitions is not None
            and not self.partitions
            or self.min_offset is not None
            and self.max_offset is not None
            and self.min_offset > self.max_offset
            or self.min_timestamp is not None
            and self.max_timestamp is not None
            and self.min_timestamp > self.max_timestamp
        )

    @property
    def bounds_rows(self) -> bool:
        return any(
            v is not None for v in (self.min_offset, self.max_offset, self.min_timestamp, self.max_timestamp)
        )

    def keeps_partition(self, topic: Optional[str], partition: Optional[int]) -> bool:
        return (self.topics is None or topic in self.topics) and (
            self.partitions is None or partition in self.partitions
        )

    def keeps_batch(self, h: BatchHeader) -> bool:
        """False only when no record of the batch can match."""
        if self.min_offset is not None and h.last_offset < self.min_offset:
            return False  # a legacy wrapper's offset is its last inner one
        if h.magic < 2:
            return True  # inner offsets and timestamps are not in the header
        if self.max_offset is not None and h.base_offset > self.max_offset:
            return False
        # the header has the largest timestamp, not the smallest (deltas may be negative)
        return self.min_timestamp is None or h.max_timestamp >= self.min_timestamp

    def past_end(self, h: BatchHeader) -> bool:
        """True when this batch and every later one of its partition are past the
        offsets the filter wants (offsets only grow along a partition)."""
        return self.max_offset is not None and h.magic >= 2 and h.base_offset > self.max_offset


NO_FILTER = RowFilter()


def _segment_bounds(plog: segments.PartitionLog) -> List[Tuple[segments.Segment, Optional[int]]]:
    """Each segment with the last offset it can hold (None for the last segment)."""
    segs = [s for s in plog.segments]
    return [(seg, segs[i + 1].base_offset - 1 if i + 1 < len(segs) else None) for i, seg in enumerate(segs)]


def plan(
    paths: Union[segments.PathLike, Sequence[segments.PathLike]],
    options: ReadOptions = DEFAULT_READ_OPTIONS,
    row_filter: RowFilter = NO_FILTER,
) -> List[Split]:
    """The splits that read ``paths`` (see :func:`kafkawire.log.segments.discover`), in
    topic, partition and offset order.

    Each segment larger than a quarter of the target task size (``max_partition_bytes``,
    or less so that every core gets work: see :func:`split_bytes`) is cut at batch
    boundaries, found from its ``.index`` when there is one, else by scanning batch
    headers: pieces that small let :func:`pack` give every task the same work.
    ``row_filter`` skips partitions, segments and segment starts that cannot match.
    With ``remote_storage_path`` and ``remote_log_metadata_path`` each partition's
    remote tier is read before its local log, and a partition with no local segments
    from the remote tier alone (:func:`kafkawire.log.tiered.tiered_logs`).
    """
    if row_filter.empty:
        return []
    if options.remote_storage_path is not None and options.remote_log_metadata_path is not None:
        from kafkawire.log import tiered

        found = tiered.tiered_logs(
            paths,
            options.remote_storage_path,
            options.remote_log_metadata_path,
            options.storage,
            strict=options.mode == "FAILFAST",
        )
    else:
        found = segments.discover(paths, options.storage)
    logs = [pl for pl in found if row_filter.keeps_partition(pl.topic, pl.partition)]
    pieces: List[Tuple[segments.PartitionLog, segments.Segment, int, int]] = []
    for plog in logs:
        for seg, seg_last in _segment_bounds(plog):
            if seg.size == 0:
                continue
            if row_filter.max_offset is not None and seg.base_offset > row_filter.max_offset:
                continue
            if (
                row_filter.min_offset is not None
                and seg_last is not None
                and seg_last < row_filter.min_offset
            ):
                continue
            start_offset = row_filter.min_offset
            if row_filter.min_timestamp is not None:
                # where the time index says older records end; a segment whose every
                # entry is older is skipped up to its last indexed batch
                after = indexes.time_index_start(seg, row_filter.min_timestamp)
                if after is not None:
                    start_offset = after if start_offset is None else max(start_offset, after)
            start = indexes.index_floor(seg, start_offset) if start_offset is not None else 0
            end = (
                indexes.index_ceiling(seg, row_filter.max_offset)
                if row_filter.max_offset is not None
                else seg.size
            )
            if end > start:
                pieces.append((plog, seg, start, end))
    store = pieces[0][1].store if pieces else LOCAL
    target = split_bytes(sum(end - start for _p, _s, start, end in pieces), len(pieces), options, store)
    # no finer than what opening a segment costs, unless the target itself is
    grain = min(target, max(options.open_cost(store), target // 4))
    out: List[Split] = []
    strict = options.mode == "FAILFAST"
    txn: Dict[str, Tuple[Tuple[Tuple[int, int, int], ...], Optional[int]]] = {}
    for plog, seg, start, end in pieces:
        if options.isolation_level == "read_committed" and plog.directory not in txn:
            state = partition_transactions(plog, strict=strict)
            txn[plog.directory] = (tuple(state.aborted), state.last_stable_offset)
        aborted, lso = txn.get(plog.directory, ((), None))
        try:
            ranges = indexes.split_segment(seg, grain, start, end)
        except SegmentError:
            if strict:
                raise
            ranges = [(start, end)]  # the read reports the bad batch
        out.extend(
            Split(plog.topic, plog.partition, seg.path, a, b, aborted, lso, seg.store) for a, b in ranges
        )
    return out


def _cores(options: ReadOptions) -> int:
    return options.min_partitions or os.cpu_count() or 1


def split_bytes(total: int, files: int, options: ReadOptions, store: Store = LOCAL) -> int:
    """The target bytes of one Spark partition, as Spark's file sources choose it:
    ``maxPartitionBytes``, lowered so that the log spreads over ``minPartitions`` tasks
    (by default the planning machine's cores), never below the open cost of a file of
    ``store`` (:meth:`ReadOptions.open_cost`)."""
    open_cost = options.open_cost(store)
    per_core = (total + files * open_cost) // _cores(options)
    return max(1, min(options.max_partition_bytes, max(open_cost, per_core)))


def pack(splits: Sequence[Split], options: ReadOptions = DEFAULT_READ_OPTIONS) -> List[List[Split]]:
    """Splits grouped into Spark partitions of about equal work, in topic, partition and
    offset order.

    As many groups as it takes for none to read more than ``maxPartitionBytes``, rounded
    up to whole waves of ``minPartitions`` tasks: with 2 cores, 3 equal tasks take as
    long as 4 (the last runs alone), so the work is cut in 2 or 4.  For balance a split
    weighs its bytes plus ``openCostInBytes``, unless it continues the previous split's
    segment, and goes to the group its middle falls in.  Consecutive ranges of one
    segment in one group are read as one split.
    """
    if not splits:
        return []
    costs = []
    for i, s in enumerate(splits):
        continues = i > 0 and splits[i - 1].path == s.path and splits[i - 1].end == s.start
        costs.append(s.end - s.start + (0 if continues else options.open_cost(s.store)))
    total = sum(costs)
    cores = _cores(options)
    waves = -(-sum(s.end - s.start for s in splits) // (options.max_partition_bytes * cores))
    n = min(len(splits), waves * cores)
    share = total / n
    groups: List[List[Split]] = [[] for _ in range(n)]
    done = 0
    for s, cost in zip(splits, costs):
        groups[min(n - 1, int((done + cost / 2) // share))].append(s)
        done += cost
    return [_joined(g) for g in groups if g]


def _joined(group: List[Split]) -> List[Split]:
    """``group`` with each run of adjacent ranges of one segment made one split."""
    out = [group[0]]
    for s in group[1:]:
        last = out[-1]
        if s.path == last.path and s.start == last.end:
            out[-1] = replace(last, end=s.end)
        else:
            out.append(s)
    return out


__all__ = [
    "Split",
    "partition_transactions",
    "RowFilter",
    "NO_FILTER",
    "plan",
    "split_bytes",
    "pack",
]


def __dir__() -> list[str]:  # what the module defines, not what it imports
    return sorted(__all__)
