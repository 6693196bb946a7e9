"""Planning and reading Kafka log segments as Arrow batches, independent of Spark.

This is the code the ``kafka-log`` data source runs: :func:`plan` on the driver side
(which partitions and segments, split where, which transactions were aborted) and
:func:`read_split` in each worker (one byte range of one segment to Arrow record
batches).  Nothing here imports pyspark, so it is tested, and benchmarked, on its own.

Reading is bounded in memory: a split is read in chunks of whole batches
(:func:`kafkawire.log.segments.iter_chunks`), each decoded by :func:`kafkawire.records.to_arrow`
into Arrow columns with no Python object per record.
"""

from __future__ import annotations

import functools
import os
from concurrent.futures import Future
from dataclasses import dataclass, field, replace
from typing import (
    TYPE_CHECKING,
    Any,
    Dict,
    Iterator,
    List,
    Mapping,
    NamedTuple,
    Optional,
    Sequence,
    Tuple,
    Union,
)

from kafkawire import _backend, datasource_options
from kafkawire._records_common import BatchHeader
from kafkawire.errors import CodecUnavailableError, DecodeError
from kafkawire.log import segments
from kafkawire.log.segments import SegmentCorruptRecordError, SegmentError
from kafkawire.log.storage import (
    LOCAL,
    LOCAL_OPEN_COST_BYTES,
    NO_STORAGE_OPTIONS,
    RangeFile,
    Store,
    StorageOptions,
)

if TYPE_CHECKING:
    import pyarrow

    from kafkawire._backend_protocol import RecordsBackend

#: Spark's own default for ``spark.sql.files.maxPartitionBytes``.
DEFAULT_MAX_PARTITION_BYTES = 128 << 20
#: What opening one more local segment costs, in bytes read.  Spark's 4 MB default is
#: sized for files on a distributed store; a local segment opens in about the time it
#: takes to decode 128 KB of it, and the lower cost lets small segments share a task
#: (measured: 100 partitions of 256 KB segments on local[2] run in 2 tasks instead of
#: 33, 4x faster).  An object store's segments count their store's open cost
#: (:data:`kafkawire.log.storage.OBJECT_OPEN_COST_BYTES`) unless the option sets one.
DEFAULT_OPEN_COST_BYTES = LOCAL_OPEN_COST_BYTES
DEFAULT_CHUNK_BYTES = 4 << 20
MODES = ("FAILFAST", "PERMISSIVE", "DROPMALFORMED")
ISOLATION_LEVELS = ("read_uncommitted", "read_committed")
DEFAULT_CORRUPT_COLUMN = "_corrupt_record"


def _size(value: Union[str, int], name: str) -> int:
    """A byte size option: an integer, or with a k/m/g suffix (``128m``)."""
    if isinstance(value, int):
        return value
    text = str(value).strip().lower().rstrip("b")
    mult = {"k": 1 << 10, "m": 1 << 20, "g": 1 << 30}.get(text[-1:], 1)
    try:
        return int(text[:-1] if mult > 1 else text) * mult
    except ValueError:
        raise ValueError(
            f"option {name} must be a byte size such as 134217728 or 128m, not {value!r}"
        ) from None


def _positive(value: Union[str, int, None], name: str) -> Optional[int]:
    if value is None:
        return None
    try:
        n = int(value)
    except (TypeError, ValueError):
        n = 0
    if n < 1:
        raise ValueError(f"option {name} must be a positive integer, not {value!r}")
    return n


#: the ``kafka-log`` read options, as Spark spells them (case does not matter)
READ_OPTIONS = datasource_options.names(datasource_options.KAFKA_LOG_READ)
#: what Spark itself passes along with the options: the paths given to ``load``/``save``
PATH_OPTIONS = ("path", "paths")


def check_option_names(options: Mapping[str, Any], known: Sequence[str], what: str) -> None:
    """Raise ``ValueError`` naming each option of ``options`` that is not in ``known``
    (or a path), with the option it was probably meant to be."""
    import difflib

    def plain(name: str) -> str:
        return name.lower().replace("_", "").replace("-", "").replace(".", "")

    every = (*known, *PATH_OPTIONS)
    lowered = {n.lower() for n in every}
    unknown = [str(k) for k in options if str(k).lower() not in lowered]
    if not unknown:
        return
    plain_names = {plain(n): n for n in every}
    hints = []
    for k in unknown:
        near = plain_names.get(plain(k))
        if near is None:
            close = difflib.get_close_matches(plain(k), list(plain_names), n=1)
            near = plain_names[close[0]] if close else None
        hints.append(f"{k!r}" + (f" (did you mean {near!r}?)" if near else ""))
    raise ValueError(
        f"kafka-log has no {what} option {', '.join(hints)}; its {what} options: {', '.join(known)}"
    )


@dataclass(frozen=True)
class ReadOptions:
    """The ``kafka-log`` read options, parsed and checked once on the driver."""

    verify_crc: bool = True
    include_control: bool = False
    isolation_level: str = "read_uncommitted"
    mode: str = "FAILFAST"
    corrupt_column: str = DEFAULT_CORRUPT_COLUMN
    max_partition_bytes: int = DEFAULT_MAX_PARTITION_BYTES
    open_cost_bytes: Optional[int] = None  # None: the store's (see open_cost)
    min_partitions: Optional[int] = None  # None: the planning machine's core count
    chunk_bytes: int = DEFAULT_CHUNK_BYTES
    backend: Optional[str] = None
    #: tiered storage: where Kafka's file-based RemoteStorageManager (LocalTieredStorage)
    #: keeps the remote tier (its ``dir``), and the ``__remote_log_metadata`` log that
    #: says which remote segments to read (see :mod:`kafkawire.log.tiered`); both or neither
    remote_storage_path: Optional[str] = None
    remote_log_metadata_path: Optional[str] = None
    #: the columns to yield, in this order (None: all); set from the schema a query
    #: gives, since Spark passes Python data sources no pruned column list
    columns: Optional[Tuple[str, ...]] = None
    #: how to reach an object store (endpoint, credentials) for s3:// paths
    storage: StorageOptions = NO_STORAGE_OPTIONS

    def open_cost(self, store: Store = LOCAL) -> int:
        """What opening one file of ``store`` counts, in bytes, when tasks are planned:
        ``open_cost_bytes`` when set, else the store's own cost."""
        return store.open_cost_bytes if self.open_cost_bytes is None else self.open_cost_bytes

    def __post_init__(self) -> None:
        if self.isolation_level not in ISOLATION_LEVELS:
            raise ValueError(
                f"isolation_level must be one of {ISOLATION_LEVELS}, not {self.isolation_level!r}"
            )
        if self.mode not in MODES:
            raise ValueError(f"mode must be one of {MODES}, not {self.mode!r}")
        if self.backend not in (None, "cython", "python"):
            raise ValueError(f"backend must be 'cython' or 'python', not {self.backend!r}")
        if (self.remote_storage_path is None) != (self.remote_log_metadata_path is None):
            given, missing = (
                ("remoteStoragePath", "remoteLogMetadataPath")
                if self.remote_log_metadata_path is None
                else ("remoteLogMetadataPath", "remoteStoragePath")
            )
            raise ValueError(
                f"option {given} needs option {missing} too: the remote tier is read as the "
                "remote log metadata describes it"
            )

    @classmethod
    def parse(cls, options: Mapping[str, str], *, strict: bool = True) -> "ReadOptions":
        """From Spark's (case-insensitive) option map.  An option that is not a read
        option raises ``ValueError`` naming it (``isolation_level`` for
        ``isolationLevel`` would read uncommitted data); ``strict=False`` ignores it, for
        the schema Spark asks of a write too."""
        if strict:
            check_option_names(options, READ_OPTIONS, "read")
        opts = {str(k).lower(): v for k, v in options.items()}
        iso = str(opts.get("isolationlevel", "read_uncommitted")).lower()
        if iso not in ISOLATION_LEVELS:
            raise ValueError(f"option isolationLevel must be one of {ISOLATION_LEVELS}, not {iso!r}")
        mode = str(opts.get("mode", "FAILFAST")).upper()
        if mode not in MODES:
            raise ValueError(f"option mode must be one of {MODES}, not {mode!r}")
        backend = opts.get("backend")
        if backend is not None and backend not in ("cython", "python"):
            raise ValueError(f"option backend must be 'cython' or 'python', not {backend!r}")
        return cls(
            verify_crc=datasource_options.parse_bool(opts.get("verifycrc", True), "verifyCrc"),
            include_control=datasource_options.parse_bool(opts.get("includecontrol", False), "includeControl"),
            isolation_level=iso,
            mode=mode,
            corrupt_column=opts.get("columnnameofcorruptrecord", DEFAULT_CORRUPT_COLUMN),
            max_partition_bytes=_size(
                opts.get("maxpartitionbytes", DEFAULT_MAX_PARTITION_BYTES), "maxPartitionBytes"
            ),
            open_cost_bytes=(
                None
                if opts.get("opencostinbytes") is None
                else _size(opts["opencostinbytes"], "openCostInBytes")
            ),
            min_partitions=_positive(opts.get("minpartitions"), "minPartitions"),
            chunk_bytes=_size(opts.get("chunkbytes", DEFAULT_CHUNK_BYTES), "chunkBytes"),
            backend=backend,
            storage=StorageOptions.parse(opts),
            remote_storage_path=opts.get("remotestoragepath"),
            remote_log_metadata_path=opts.get("remotelogmetadatapath"),
        )


# ---------------------------------------------------------------------------
# schema


def arrow_schema(options: Optional[ReadOptions] = None, *, pruned: bool = True) -> "pyarrow.Schema":
    """The Arrow schema of what :func:`read_split` yields: ``topic``, ``partition``, the
    columns of :func:`kafkawire.records.to_arrow`, and in PERMISSIVE mode the corrupt
    record column; only ``options.columns`` of them when set (and ``pruned``).  Every
    field is nullable, as Spark's are."""
    return _arrow_schema(options, pruned)


@functools.lru_cache(maxsize=64)  # asked for once a split: a task may read a thousand
def _arrow_schema(options: Optional[ReadOptions], pruned: bool) -> "pyarrow.Schema":
    import pyarrow as pa

    from kafkawire import records

    fields = [pa.field("topic", pa.string()), pa.field("partition", pa.int32())]
    fields += [pa.field(f.name, _spark_arrow_type(f.type)) for f in records.arrow_schema()]
    if options is not None and options.mode == "PERMISSIVE":
        fields.append(pa.field(options.corrupt_column, pa.string()))
    if options is None or options.columns is None or not pruned:
        return pa.schema(fields)
    by_name = {f.name: f for f in fields}
    for name in options.columns:
        if name not in by_name:
            raise ValueError(f"kafka-log has no column {name!r}; its columns are " + ", ".join(by_name))
    return pa.schema([by_name[name] for name in options.columns])


def _spark_arrow_type(t: "pyarrow.DataType") -> "pyarrow.DataType":
    """``t`` as Spark writes it in Arrow: every field nullable, list items named
    ``element``.  Spark compares the batches a data source yields to exactly that."""
    import pyarrow as pa

    if pa.types.is_list(t):
        return pa.list_(pa.field("element", _spark_arrow_type(t.value_type)))
    if pa.types.is_struct(t):
        return pa.struct([pa.field(f.name, _spark_arrow_type(f.type)) for f in t])
    return t


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


@dataclass
class TxnState:
    """What a partition's log says about its transactions."""

    aborted: List[Tuple[int, int, int]] = field(default_factory=list)
    open: Dict[int, int] = field(default_factory=dict)  # producer id -> first offset
    errors: List[str] = field(default_factory=list)
    #: ``(producer id, marker offset)`` of ABORT markers with no batch of their
    #: transaction before them in the scan (it began before the segments scanned)
    unstarted: List[Tuple[int, int]] = field(default_factory=list)

    @property
    def last_stable_offset(self) -> Optional[int]:
        return min(self.open.values()) if self.open else None


def _control_type(path: str, header: BatchHeader, f: RangeFile) -> str:
    from kafkawire import records

    data = f.read_at(header.position, header.size_in_bytes)
    for batch in records.iter_batches(data, verify_crc=False):
        for rec in batch:
            try:
                return records.parse_control_record(rec).type
            except DecodeError as exc:
                raise SegmentError(path, header.position, f"bad control record: {exc}") from exc
    return "unknown"


def transactions(plog: segments.PartitionLog, *, strict: bool = True) -> TxnState:
    """Scan the batch headers of a partition, in offset order, for its transactions.

    A transaction starts at a producer's first transactional batch after its previous
    marker and ends at its control batch; an ABORT marker makes ``[first, marker]`` an
    aborted range, which is what a broker's ``.txnindex`` records and what a
    ``read_committed`` consumer skips.  Only control batches are read beyond their header.
    ``strict=False`` stops at a framing error of a segment instead of raising.
    """
    state = TxnState()
    for seg in plog.segments:
        with seg.store.open(seg.path, seg.size) as f:
            try:
                for h in segments.scan_headers(seg.path, 0, seg.size, f=f):
                    if not h.is_transactional:
                        continue
                    if not h.is_control:
                        state.open.setdefault(h.producer_id, h.base_offset)
                        continue
                    kind = _control_type(seg.path, h, f)
                    first = state.open.pop(h.producer_id, None)
                    if kind == "abort" and first is not None:
                        state.aborted.append((h.producer_id, first, h.last_offset))
                    elif kind == "abort":
                        state.unstarted.append((h.producer_id, h.last_offset))
            except SegmentError as exc:
                if strict:
                    raise
                state.errors.append(str(exc))
    return state


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
    (through the ``.index`` and ``.timeindex``); :func:`read_split` skips batches by their
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
    options: ReadOptions = ReadOptions(),
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
                after = segments.time_index_start(seg, row_filter.min_timestamp)
                if after is not None:
                    start_offset = after if start_offset is None else max(start_offset, after)
            start = segments.index_floor(seg, start_offset) if start_offset is not None else 0
            end = (
                segments.index_ceiling(seg, row_filter.max_offset)
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
            ranges = segments.split_segment(seg, grain, start, end)
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


def pack(splits: Sequence[Split], options: ReadOptions = ReadOptions()) -> List[List[Split]]:
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


# ---------------------------------------------------------------------------
# reading


def _bounds_mask(table: "pyarrow.Table", row_filter: RowFilter) -> Optional["pyarrow.ChunkedArray"]:
    """The mask of rows inside the filter's offset and timestamp bounds (None: all)."""
    import pyarrow as pa
    import pyarrow.compute as pc

    mask: Optional["pyarrow.ChunkedArray"] = None

    def both(m: "pyarrow.ChunkedArray") -> None:
        nonlocal mask
        mask = m if mask is None else pc.and_(mask, m)

    offsets = table.column("offset")
    if row_filter.min_offset is not None:
        both(pc.greater_equal(offsets, pa.scalar(row_filter.min_offset, pa.int64())))
    if row_filter.max_offset is not None:
        both(pc.less_equal(offsets, pa.scalar(row_filter.max_offset, pa.int64())))
    stamps = table.column("timestamp")
    for bound, cmp in (
        (row_filter.min_timestamp, pc.greater_equal),
        (row_filter.max_timestamp, pc.less_equal),
    ):
        if bound is not None:
            both(pc.fill_null(cmp(stamps, pa.scalar(bound * 1000, stamps.type)), False))
    return mask


def _record_filter(
    table: "pyarrow.Table", split: Split, options: ReadOptions, row_filter: RowFilter = NO_FILTER
) -> Optional["pyarrow.ChunkedArray"]:
    """The mask of rows to keep (None: keep all) for control records, isolation and
    the pushed-down filter's bounds."""
    import pyarrow as pa
    import pyarrow.compute as pc

    if table.num_rows == 0:
        return None
    mask = _bounds_mask(table, row_filter) if row_filter.bounds_rows else None
    if not options.include_control:
        ctl = table.column("is_control")
        if pc.any(ctl).as_py():
            mask = pc.invert(ctl) if mask is None else pc.and_(mask, pc.invert(ctl))
    if options.isolation_level == "read_committed":
        offsets = table.column("offset")
        drop = None
        if split.last_stable_offset is not None:
            drop = pc.greater_equal(offsets, pa.scalar(split.last_stable_offset, pa.int64()))
        txn = table.column("is_transactional")
        if split.aborted and pc.any(txn).as_py():
            lo = pc.min(offsets).as_py()
            hi = pc.max(offsets).as_py()
            pids = table.column("producer_id")
            data = pc.and_(txn, pc.invert(table.column("is_control")))
            for pid, first, last in split.aborted:
                if last < lo or first > hi:
                    continue
                hit = pc.and_(
                    pc.and_(data, pc.equal(pids, pa.scalar(pid, pa.int64()))),
                    pc.and_(
                        pc.greater_equal(offsets, pa.scalar(first, pa.int64())),
                        pc.less_equal(offsets, pa.scalar(last, pa.int64())),
                    ),
                )
                drop = hit if drop is None else pc.or_(drop, hit)
        if drop is not None:
            keep = pc.invert(pc.fill_null(drop, False))
            mask = keep if mask is None else pc.and_(mask, keep)
    return mask


def _finish(
    table: "pyarrow.Table",
    split: Split,
    options: ReadOptions,
    schema: "pyarrow.Schema",
    row_filter: RowFilter = NO_FILTER,
) -> "pyarrow.Table":
    """Filter a table decoded from ``split`` down to the rows to keep and the columns of
    ``schema`` (the split's topic and partition among them when asked for)."""
    return _finish_runs(table, [(split, table.num_rows)], options, schema, row_filter)


def _finish_runs(
    table: "pyarrow.Table",
    runs: Sequence[Tuple[Split, int]],
    options: ReadOptions,
    schema: "pyarrow.Schema",
    row_filter: RowFilter,
) -> "pyarrow.Table":
    """:func:`_finish` of a table decoded from several splits at once: ``runs`` says
    which split the rows came from, as (split, rows) in row order, one entry a run of
    splits of one partition.  The topic and partition columns are built once a run,
    the row mask once for the table (once a run under ``read_committed``: aborted
    transactions and the last stable offset are the partition's)."""
    import pyarrow as pa

    mask: Optional[Union["pyarrow.Array", "pyarrow.ChunkedArray"]]
    if options.isolation_level == "read_committed" and len(runs) > 1:
        masks = []
        start = 0
        for split, n in runs:
            m = _record_filter(table.slice(start, n), split, options, row_filter)
            masks.append(m)
            start += n
        mask = None
        if any(m is not None for m in masks):
            mask = pa.chunked_array(
                [pa.repeat(True, n) if m is None else m.combine_chunks() for m, (_s, n) in zip(masks, runs)],
                pa.bool_(),
            )
    else:
        mask = _record_filter(table, runs[0][0], options, row_filter)
    if mask is not None:
        mask = mask.combine_chunks()
        table = table.filter(mask)

    def shared(name: str, kind: "pyarrow.DataType") -> "pyarrow.Array":
        # one array a run: a split's topic and partition, not the records'
        parts = [pa.repeat(pa.scalar(getattr(split, name), kind), n) for split, n in runs]
        col = parts[0] if len(parts) == 1 else pa.concat_arrays(parts)
        return col if mask is None else col.filter(mask)

    n = table.num_rows
    cols = []
    for f in schema:
        if f.name == "topic":
            cols.append(shared("topic", pa.string()))
        elif f.name == "partition":
            cols.append(shared("partition", pa.int32()))
        elif f.name == options.corrupt_column and options.mode == "PERMISSIVE":
            cols.append(pa.nulls(n, pa.string()))
        else:
            col = table.column(f.name)
            if col.type != f.type:
                # the same buffers, only nested names and nullability differ: a
                # zero-copy view, not a cast
                col = pa.chunked_array([c.view(f.type) for c in col.chunks], f.type)
            cols.append(col)
    return pa.Table.from_arrays(cols, schema=schema)


#: what :func:`_record_filter` may read besides the columns asked for
_FILTER_COLUMNS = ("offset", "timestamp", "is_control", "is_transactional", "producer_id")


def _decoded_columns(options: ReadOptions, schema: "pyarrow.Schema") -> List[str]:
    """The columns of :func:`kafkawire.records.to_arrow` a split's reader needs: those
    ``schema`` yields and those the row filters read."""
    from kafkawire import records

    wanted = set(schema.names) | set(_FILTER_COLUMNS)
    return [name for name in records.arrow_schema().names if name in wanted]


def _corrupt_row(
    split: Split, options: ReadOptions, schema: "pyarrow.Schema", offset: Optional[int], message: str
) -> "pyarrow.Table":
    import pyarrow as pa

    values = []
    for f in schema:
        if f.name == "topic":
            values.append(pa.array([split.topic], pa.string()))
        elif f.name == "partition":
            values.append(pa.array([split.partition], pa.int32()))
        elif f.name == "offset":
            values.append(pa.array([offset], pa.int64()))
        elif f.name == options.corrupt_column:
            values.append(pa.array([message], pa.string()))
        else:
            values.append(pa.nulls(1, f.type))
    return pa.Table.from_arrays(values, schema=schema)


class ReadStats:
    """What one :func:`read_split` call met: records yielded, corrupt batches skipped,
    and batches a row filter ruled out by their header alone (never decoded)."""

    def __init__(self) -> None:
        self.rows = 0
        self.corrupt: List[str] = []
        self.batches_read = 0
        self.batches_skipped = 0


def read_split(
    split: Split,
    options: ReadOptions = ReadOptions(),
    *,
    stats: Optional[ReadStats] = None,
    row_filter: RowFilter = NO_FILTER,
) -> Iterator["pyarrow.RecordBatch"]:
    """Arrow record batches of the records in ``split``, filtered per ``options`` and
    ``row_filter`` (batches it rules out are skipped by their header, undecoded).

    In FAILFAST mode a corrupt batch raises :class:`~kafkawire.log.segments.SegmentError`
    naming the file and byte position; DROPMALFORMED skips it; PERMISSIVE skips it and
    yields one row for it whose corrupt-record column holds that message.  A framing
    error (a length or magic that cannot be) ends the split, since nothing after it can
    be located.
    """
    return read_splits([split], options, stats=stats, row_filter=row_filter)


def read_splits(
    splits: Sequence[Split],
    options: ReadOptions = ReadOptions(),
    *,
    stats: Optional[ReadStats] = None,
    row_filter: RowFilter = NO_FILTER,
) -> Iterator["pyarrow.RecordBatch"]:
    """:func:`read_split` of each split in turn, as one Spark task reads them: the same
    rows in the same order, but small splits (many small segments) are decoded together,
    up to ``chunk_bytes`` at a time, into one Arrow batch."""
    reader = _TaskReader(options, stats if stats is not None else ReadStats(), row_filter)
    ahead: Optional["Future[RangeFile]"] = None
    for i, split in enumerate(splits):
        opened = _opened(ahead)
        # an object is opened, and its first chunk fetched, while the one before decodes
        following = splits[i + 1] if i + 1 < len(splits) else None
        ahead = (
            following.store.open_ahead(following.path, following.start, following.end, options.chunk_bytes)
            if following is not None
            else None
        )
        try:
            for item in reader.pieces(split, opened):
                if isinstance(item, _Piece):
                    yield from reader.add(item)
                else:
                    yield from reader.flush()
                    yield from reader.emit(item)
        finally:
            if opened is not None:
                opened.close()
    yield from reader.flush()


def _opened(ahead: Optional["Future[RangeFile]"]) -> Optional[RangeFile]:
    """The file opened ahead, or None (then the split's read opens it, and says why
    it cannot)."""
    try:
        return ahead.result() if ahead is not None else None
    except OSError:
        return None


def _runs(headers: List[BatchHeader], row_filter: RowFilter) -> Tuple[List[Tuple[int, int]], bool]:
    """Runs of consecutive batches the filter may want, as (first, last) header
    indexes; ``done`` is True when the partition has nothing more to give."""
    runs: List[Tuple[int, int]] = []
    first: Optional[int] = None
    for i, h in enumerate(headers):
        if row_filter.past_end(h):
            if first is not None:
                runs.append((first, i - 1))
            return runs, True
        if row_filter.keeps_batch(h):
            if first is None:
                first = i
        elif first is not None:
            runs.append((first, i - 1))
            first = None
    if first is not None:
        runs.append((first, len(headers) - 1))
    return runs, False


class _Piece(NamedTuple):
    """Whole batches of one split to decode: ``view`` starts at file position ``base``
    (only good until the split's reader resumes)."""

    split: Split
    view: memoryview
    base: int
    headers: List[BatchHeader]


class _TaskReader:
    """Reads the splits of one task.  What they share is worked out once (the records
    backend, the schema, the columns to decode), and the pieces of small splits are
    copied into one buffer and decoded by one :func:`kafkawire.records.to_arrow` call:
    a Python-level cost per split (the call, the table, the topic and partition
    columns, the batch Spark takes) is paid once per ``chunk_bytes`` instead."""

    def __init__(self, options: ReadOptions, stats: ReadStats, row_filter: RowFilter) -> None:
        self.options = options
        self.stats = stats
        self.row_filter = row_filter
        # the records implementation the 'backend' option names, else the active one
        self.records: RecordsBackend = _backend.implementation("records", options.backend or None)
        self.schema = arrow_schema(options)
        self.columns = _decoded_columns(options, self.schema)
        # the pieces copied to ``buffer[:filled]``: (split, file position, headers,
        # start and end in the buffer, rows)
        self.pending: List[Tuple[Split, int, List[BatchHeader], int, int, int]] = []
        self.buffer = bytearray()
        self.filled = 0

    def bad(
        self, split: Split, position: int, offset: Optional[int], exc: Exception
    ) -> Optional["pyarrow.Table"]:
        """What a corrupt batch of ``split`` gives per ``mode``: an error raised, nothing,
        or its corrupt-record row."""
        err = (
            exc
            if isinstance(exc, SegmentError)
            else SegmentCorruptRecordError(split.path, position, str(exc))
        )
        if self.options.mode == "FAILFAST":
            raise err from (None if exc is err else exc)
        self.stats.corrupt.append(str(err))
        if self.options.mode == "PERMISSIVE":
            return _corrupt_row(split, self.options, self.schema, offset, str(err))
        return None

    def emit(self, table: "pyarrow.Table") -> Iterator["pyarrow.RecordBatch"]:
        for b in table.to_batches():
            if b.num_rows:
                self.stats.rows += b.num_rows
                yield b

    def pieces(self, split: Split, f: Optional[RangeFile] = None) -> Iterator[Union[_Piece, "pyarrow.Table"]]:
        """The pieces of ``split`` the row filter may want, in order, and the
        corrupt-record row (a table) of a framing error that ends it; ``f`` is the
        split's file when it was opened ahead."""
        row_filter = self.row_filter
        filtering = row_filter.bounds_rows
        # to_arrow copies what it keeps, so every chunk can reuse one buffer
        chunks = segments.iter_chunks(
            split.path,
            split.start,
            split.end,
            chunk_size=self.options.chunk_bytes,
            reuse_buffer=True,
            store=split.store,
            f=f,
        )
        while True:
            try:
                position, view, headers = next(chunks)
            except StopIteration:
                return
            except SegmentError as exc:
                row = self.bad(split, exc.position, None, exc)
                if row is not None:
                    yield row
                return
            if not filtering:
                yield _Piece(split, view, position, headers)
                continue
            runs, done = _runs(headers, row_filter)
            self.stats.batches_skipped += len(headers) - sum(b - a + 1 for a, b in runs)
            for first, last in runs:
                a = headers[first].position - position
                b = headers[last].end - position
                yield _Piece(split, view[a:b], headers[first].position, headers[first : last + 1])
            if done:
                return

    def add(self, piece: _Piece) -> Iterator["pyarrow.RecordBatch"]:
        """Decode ``piece`` now (a big one, or one with legacy messages, whose record
        counts the headers do not give) or copy it to the buffer, flushed when full."""
        size = len(piece.view)
        limit = self.options.chunk_bytes
        if size * 4 >= limit or any(h.magic < 2 for h in piece.headers):
            yield from self.flush()
            yield from self.decode(piece)
            return
        if self.filled + size > limit:
            yield from self.flush()
        start, end = self.filled, self.filled + size
        if len(self.buffer) < end:  # grown to chunk_bytes at most, then reused
            grown = bytearray(min(limit, max(end, 2 * len(self.buffer))))
            grown[:start] = memoryview(self.buffer)[:start]
            self.buffer = grown
        self.buffer[start:end] = piece.view
        rows = sum(h.record_count for h in piece.headers)  # exactly what a v2 batch decodes to
        self.pending.append((piece.split, piece.base, piece.headers, start, end, rows))
        self.filled = end

    def flush(self) -> Iterator["pyarrow.RecordBatch"]:
        """Decode the buffered pieces with one call, as one table; if a batch among them
        is bad, decode them piece by piece to say which."""
        if not self.pending:
            return
        pending, self.pending = self.pending, []
        filled, self.filled = self.filled, 0
        view = memoryview(self.buffer)[:filled]
        batches = sum(len(headers) for _s, _b, headers, _a, _e, _n in pending)
        try:
            table = self.records.to_arrow(view, verify_crc=self.options.verify_crc, columns=self.columns)
        except DecodeError:
            table = None
        if table is None or table.num_rows != sum(n for *_rest, n in pending):
            for split, base, headers, a, b, _n in pending:
                yield from self.decode(_Piece(split, view[a:b], base, headers))
            return
        self.stats.batches_read += batches
        runs: List[Tuple[Split, int]] = []
        for split, _b, _h, _a, _e, n in pending:
            if runs and _same_partition(runs[-1][0], split):
                runs[-1] = (runs[-1][0], runs[-1][1] + n)
            else:
                runs.append((split, n))
        yield from self.emit(_finish_runs(table, runs, self.options, self.schema, self.row_filter))

    def decode(self, piece: _Piece) -> Iterator["pyarrow.RecordBatch"]:
        """One piece decoded on its own; if a batch in it is bad, batch by batch."""
        split, view, base, headers = piece
        records, verify, columns = self.records, self.options.verify_crc, self.columns
        self.stats.batches_read += len(headers)
        try:
            table = records.to_arrow(view, verify_crc=verify, columns=columns)
        except DecodeError:
            table = None
        if table is not None:
            yield from self.emit(_finish(table, split, self.options, self.schema, self.row_filter))
            return
        # something in the run is bad: decode batch by batch to say which
        for h in headers:
            rel = h.position - base
            try:
                part = records.to_arrow(view[rel : rel + h.size_in_bytes], verify_crc=verify, columns=columns)
            except CodecUnavailableError:
                raise  # the machine lacks a library: no batch is corrupt
            except DecodeError as exc:
                row = self.bad(split, h.position, h.base_offset, exc)
                if row is not None:
                    yield from self.emit(row)
                continue
            yield from self.emit(_finish(part, split, self.options, self.schema, self.row_filter))


def _same_partition(a: Split, b: Split) -> bool:
    """Whether rows of ``a`` and ``b`` share their topic and partition columns and
    transaction filter."""
    return (
        a.topic == b.topic
        and a.partition == b.partition
        and a.last_stable_offset == b.last_stable_offset
        and (a.aborted is b.aborted or a.aborted == b.aborted)
    )


def read_all(
    paths: Union[segments.PathLike, Sequence[segments.PathLike]],
    options: ReadOptions = ReadOptions(),
    row_filter: RowFilter = NO_FILTER,
    **fields: Any,
) -> "pyarrow.Table":
    """Every split of ``paths`` read into one ``pyarrow.Table`` (for small logs, tests).

    ``fields`` set :class:`ReadOptions` fields over ``options``:
    ``read_all(path, isolation_level="read_committed")``."""
    import pyarrow as pa

    if fields:
        unknown = sorted(set(fields) - set(ReadOptions.__dataclass_fields__))
        if unknown:
            raise TypeError(
                f"read_all() got unknown option {', '.join(map(repr, unknown))}; "
                f"the options are {', '.join(ReadOptions.__dataclass_fields__)}"
            )
        options = replace(options, **fields)

    batches = list(read_splits(plan(paths, options, row_filter), options, row_filter=row_filter))
    return pa.Table.from_batches(batches, schema=arrow_schema(options))


__all__ = [
    "DEFAULT_MAX_PARTITION_BYTES",
    "DEFAULT_OPEN_COST_BYTES",
    "DEFAULT_CHUNK_BYTES",
    "MODES",
    "ISOLATION_LEVELS",
    "DEFAULT_CORRUPT_COLUMN",
    "READ_OPTIONS",
    "PATH_OPTIONS",
    "check_option_names",
    "ReadOptions",
    "arrow_schema",
    "Split",
    "TxnState",
    "transactions",
    "RowFilter",
    "NO_FILTER",
    "plan",
    "split_bytes",
    "pack",
    "ReadStats",
    "read_split",
    "read_splits",
    "read_all",
]


def __dir__() -> list[str]:  # what the module defines, not what it imports
    return sorted(__all__)
