"""Planning and reading Kafka log segments as Arrow batches, independent of Spark.

This is the code the ``kafka-log`` data source runs: :func:`plan` on the driver side
(which partitions and segments, split where, which transactions were aborted) and
:func:`read_split` in each worker (one byte range of one segment to Arrow record
batches).  Nothing here imports pyspark, so it is tested, and benchmarked, on its own.

Reading is bounded in memory: a split is read in chunks of whole batches
(:func:`kafkawire.segments.iter_chunks`), each decoded by :func:`kafkawire.records.to_arrow`
into Arrow columns with no Python object per record.
"""
from __future__ import annotations

import os
from contextlib import nullcontext
from dataclasses import dataclass, field
from typing import Dict, Iterator, List, Mapping, Optional, Sequence, Tuple

from kafkawire import _backend, segments
from kafkawire.errors import DecodeError
from kafkawire.segments import SegmentCorruptRecordError, SegmentError

#: Spark's own default for ``spark.sql.files.maxPartitionBytes``.
DEFAULT_MAX_PARTITION_BYTES = 128 << 20
DEFAULT_CHUNK_BYTES = 4 << 20
MODES = ("FAILFAST", "PERMISSIVE", "DROPMALFORMED")
ISOLATION_LEVELS = ("read_uncommitted", "read_committed")
DEFAULT_CORRUPT_COLUMN = "_corrupt_record"


def _bool(value, name: str) -> bool:
    if isinstance(value, bool):
        return value
    text = str(value).strip().lower()
    if text in ("true", "1", "yes"):
        return True
    if text in ("false", "0", "no"):
        return False
    raise ValueError(f"option {name} must be true or false, not {value!r}")


def _size(value, name: str) -> int:
    """A byte size option: an integer, or with a k/m/g suffix (``128m``)."""
    if isinstance(value, int):
        return value
    text = str(value).strip().lower().rstrip("b")
    mult = {"k": 1 << 10, "m": 1 << 20, "g": 1 << 30}.get(text[-1:], 1)
    try:
        return int(text[:-1] if mult > 1 else text) * mult
    except ValueError:
        raise ValueError(f"option {name} must be a byte size such as 134217728 or 128m, "
                         f"not {value!r}") from None


@dataclass(frozen=True)
class ReadOptions:
    """The ``kafka-log`` read options, parsed and checked once on the driver."""

    verify_crc: bool = True
    include_control: bool = False
    isolation_level: str = "read_uncommitted"
    mode: str = "FAILFAST"
    corrupt_column: str = DEFAULT_CORRUPT_COLUMN
    max_partition_bytes: int = DEFAULT_MAX_PARTITION_BYTES
    chunk_bytes: int = DEFAULT_CHUNK_BYTES
    backend: Optional[str] = None

    @classmethod
    def parse(cls, options: Mapping[str, str]) -> "ReadOptions":
        """From Spark's (case-insensitive) option map; unknown options are ignored."""
        opts = {str(k).lower(): v for k, v in options.items()}
        iso = str(opts.get("isolationlevel", "read_uncommitted")).lower()
        if iso not in ISOLATION_LEVELS:
            raise ValueError(f"option isolationLevel must be one of {ISOLATION_LEVELS}, "
                             f"not {iso!r}")
        mode = str(opts.get("mode", "FAILFAST")).upper()
        if mode not in MODES:
            raise ValueError(f"option mode must be one of {MODES}, not {mode!r}")
        backend = opts.get("backend")
        if backend is not None and backend not in ("cython", "python"):
            raise ValueError(f"option backend must be 'cython' or 'python', not {backend!r}")
        return cls(
            verify_crc=_bool(opts.get("verifycrc", True), "verifyCrc"),
            include_control=_bool(opts.get("includecontrol", False), "includeControl"),
            isolation_level=iso,
            mode=mode,
            corrupt_column=opts.get("columnnameofcorruptrecord", DEFAULT_CORRUPT_COLUMN),
            max_partition_bytes=_size(opts.get("maxpartitionbytes",
                                               DEFAULT_MAX_PARTITION_BYTES),
                                      "maxPartitionBytes"),
            chunk_bytes=_size(opts.get("chunkbytes", DEFAULT_CHUNK_BYTES), "chunkBytes"),
            backend=backend,
        )


# ---------------------------------------------------------------------------
# schema


def arrow_schema(options: Optional[ReadOptions] = None):
    """The Arrow schema of what :func:`read_split` yields: ``topic``, ``partition``, the
    columns of :func:`kafkawire.records.to_arrow`, and in PERMISSIVE mode the corrupt
    record column.  Every field is nullable, as Spark's are."""
    import pyarrow as pa

    from kafkawire import records

    fields = [pa.field("topic", pa.string()), pa.field("partition", pa.int32())]
    fields += [pa.field(f.name, _spark_arrow_type(f.type)) for f in records.arrow_schema()]
    if options is not None and options.mode == "PERMISSIVE":
        fields.append(pa.field(options.corrupt_column, pa.string()))
    return pa.schema(fields)


def _spark_arrow_type(t):
    """``t`` as Spark writes it in Arrow: every field nullable, list items named
    ``element``.  Spark compares the batches a data source yields to exactly that."""
    import pyarrow as pa

    if pa.types.is_list(t):
        return pa.list_(pa.field("element", _spark_arrow_type(t.value_type)))
    if pa.types.is_struct(t):
        return pa.struct([pa.field(f.name, _spark_arrow_type(f.type)) for f in t])
    return t


_SPARK_TYPES = {
    "string": "string", "int32": "int", "int64": "bigint", "int16": "smallint",
    "int8": "tinyint", "bool": "boolean", "binary": "binary", "timestamp[us, tz=UTC]":
    "timestamp",
}


def spark_type(t) -> str:
    """The Spark SQL type (as DDL) of the Arrow type ``t``."""
    import pyarrow as pa

    if pa.types.is_list(t):
        return f"array<{spark_type(t.value_type)}>"
    if pa.types.is_struct(t):
        return "struct<" + ", ".join(f"{f.name}: {spark_type(f.type)}" for f in t) + ">"
    return _SPARK_TYPES[str(t)]


def spark_ddl(options: Optional[ReadOptions] = None) -> str:
    """The Spark DDL of :func:`arrow_schema`."""
    return ", ".join(f"`{f.name}` {spark_type(f.type)}" for f in arrow_schema(options))


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


@dataclass
class TxnState:
    """What a partition's log says about its transactions."""

    aborted: List[Tuple[int, int, int]] = field(default_factory=list)
    open: Dict[int, int] = field(default_factory=dict)  # producer id -> first offset
    errors: List[str] = field(default_factory=list)

    @property
    def last_stable_offset(self) -> Optional[int]:
        return min(self.open.values()) if self.open else None


def _control_type(path: str, header: segments.BatchHeader, f) -> str:
    from kafkawire import records

    f.seek(header.position)
    data = f.read(header.size)
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
        with open(seg.path, "rb") as f:
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
            except SegmentError as exc:
                if strict:
                    raise
                state.errors.append(str(exc))
    return state


def plan(paths, options: ReadOptions = ReadOptions()) -> List[Split]:
    """The splits that read ``paths`` (see :func:`kafkawire.segments.discover`).

    Each segment larger than ``max_partition_bytes`` is cut at batch boundaries, found
    from its ``.index`` when there is one, else by scanning batch headers.
    """
    out: List[Split] = []
    strict = options.mode == "FAILFAST"
    for plog in segments.discover(paths):
        aborted: Tuple[Tuple[int, int, int], ...] = ()
        lso = None
        if options.isolation_level == "read_committed":
            state = transactions(plog, strict=strict)
            aborted = tuple(state.aborted)
            lso = state.last_stable_offset
        for seg in plog.segments:
            if seg.size == 0:
                continue
            try:
                ranges = segments.split_segment(seg, options.max_partition_bytes)
            except SegmentError:
                if strict:
                    raise
                ranges = [(0, seg.size)]  # the read reports the bad batch
            for start, end in ranges:
                out.append(Split(plog.topic, plog.partition, seg.path, start, end,
                                 aborted, lso))
    return out


# ---------------------------------------------------------------------------
# reading


def _record_filter(table, split: Split, options: ReadOptions):
    """The mask of rows to keep (None: keep all) for control records and isolation."""
    import pyarrow as pa
    import pyarrow.compute as pc

    if table.num_rows == 0:
        return None
    mask = None
    if not options.include_control:
        ctl = table.column("is_control")
        if pc.any(ctl).as_py():
            mask = pc.invert(ctl)
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
                hit = pc.and_(pc.and_(data, pc.equal(pids, pa.scalar(pid, pa.int64()))),
                              pc.and_(pc.greater_equal(offsets, pa.scalar(first, pa.int64())),
                                      pc.less_equal(offsets, pa.scalar(last, pa.int64()))))
                drop = hit if drop is None else pc.or_(drop, hit)
        if drop is not None:
            keep = pc.invert(pc.fill_null(drop, False))
            mask = keep if mask is None else pc.and_(mask, keep)
    return mask


def _finish(table, split: Split, options: ReadOptions, schema):
    """Filter a decoded table and give it the split's topic/partition columns."""
    import pyarrow as pa

    mask = _record_filter(table, split, options)
    if mask is not None:
        table = table.filter(mask)
    n = table.num_rows
    cols = [pa.repeat(pa.scalar(split.topic, pa.string()), n),
            pa.repeat(pa.scalar(split.partition, pa.int32()), n)]
    for i, f in enumerate(schema):
        if i < 2 or f.name == options.corrupt_column and options.mode == "PERMISSIVE":
            continue
        col = table.column(f.name)
        cols.append(col if col.type == f.type else col.cast(f.type))
    if options.mode == "PERMISSIVE":
        cols.append(pa.nulls(n, pa.string()))
    return pa.Table.from_arrays(cols, schema=schema)


def _corrupt_row(split: Split, options: ReadOptions, schema, offset: Optional[int],
                 message: str):
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
    """What one :func:`read_split` call met: records yielded, batches skipped."""

    def __init__(self) -> None:
        self.rows = 0
        self.corrupt: List[str] = []


def read_split(split: Split, options: ReadOptions = ReadOptions(), *,
               stats: Optional[ReadStats] = None) -> Iterator["pyarrow.RecordBatch"]:
    """Arrow record batches of the records in ``split``, filtered per ``options``.

    In FAILFAST mode a corrupt batch raises :class:`~kafkawire.segments.SegmentError`
    naming the file and byte position; DROPMALFORMED skips it; PERMISSIVE skips it and
    yields one row for it whose corrupt-record column holds that message.  A framing
    error (a length or magic that cannot be) ends the split, since nothing after it can
    be located.
    """
    ctx = _backend.use(options.backend) if options.backend else nullcontext()
    with ctx:
        yield from _read_split(split, options, stats if stats is not None else ReadStats())


def _read_split(split: Split, options: ReadOptions, stats: ReadStats):
    from kafkawire import records

    schema = arrow_schema(options)
    verify = options.verify_crc

    def bad(position: int, offset: Optional[int], exc: Exception):
        err = (exc if isinstance(exc, SegmentError) else
               SegmentCorruptRecordError(split.path, position, str(exc)))
        if options.mode == "FAILFAST":
            raise err from (None if exc is err else exc)
        stats.corrupt.append(str(err))
        if options.mode == "PERMISSIVE":
            return _corrupt_row(split, options, schema, offset, str(err))
        return None

    def emit(table):
        for b in table.to_batches():
            if b.num_rows:
                stats.rows += b.num_rows
                yield b

    chunks = segments.iter_chunks(split.path, split.start, split.end,
                                  chunk_size=options.chunk_bytes)
    while True:
        try:
            position, view, headers = next(chunks)
        except StopIteration:
            return
        except SegmentError as exc:
            row = bad(exc.position, None, exc)
            if row is not None:
                yield from emit(row)
            return
        try:
            table = records.to_arrow(view, verify_crc=verify)
        except DecodeError:
            table = None
        if table is not None:
            yield from emit(_finish(table, split, options, schema))
            continue
        # something in the chunk is bad: decode batch by batch to say which
        base = position
        for h in headers:
            rel = h.position - base
            try:
                part = records.to_arrow(view[rel:rel + h.size], verify_crc=verify)
            except DecodeError as exc:
                row = bad(h.position, h.base_offset, exc)
                if row is not None:
                    yield from emit(row)
                continue
            yield from emit(_finish(part, split, options, schema))


def read_all(paths, options: ReadOptions = ReadOptions()):
    """Every split of ``paths`` read into one ``pyarrow.Table`` (for small logs, tests)."""
    import pyarrow as pa

    batches = [b for s in plan(paths, options) for b in read_split(s, options)]
    return pa.Table.from_batches(batches, schema=arrow_schema(options))
