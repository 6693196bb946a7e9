"""Reading Kafka log segments as Arrow batches, independent of Spark.

This is the code the ``kafka-log`` data source runs in each worker: :func:`read_split`
reads one byte range of one segment (as :func:`kafkawire.log.planning.plan` made it on
the driver side) to Arrow record batches; :func:`read_all` plans and reads in one call.
Nothing here imports pyspark, so it is tested, and benchmarked, on its own.

Reading is bounded in memory: a split is read in chunks of whole batches
(:func:`kafkawire.log.scan.iter_chunks`), each decoded by :func:`kafkawire.protocol.records.to_arrow`
into Arrow columns with no Python object per record.
"""

from __future__ import annotations

from concurrent.futures import Future
from dataclasses import replace
from typing import (
    TYPE_CHECKING,
    Any,
    Iterator,
    List,
    NamedTuple,
    Optional,
    Sequence,
    Tuple,
    Union,
)

from kafkawire import _backend
from kafkawire.protocol.record_layout import BatchHeader
from kafkawire.errors import CodecUnavailableError, DecodeError
from kafkawire.log import scan, segments
from kafkawire.log.segments import SegmentCorruptRecordError, SegmentError
from kafkawire.log.planning import NO_FILTER, RowFilter, Split, plan
from kafkawire.log.read_options import DEFAULT_READ_OPTIONS, ReadOptions, read_schema
from kafkawire.log.storage import (
    RangeFile,
)

if TYPE_CHECKING:
    import pyarrow

    from kafkawire._backend_interfaces import RecordsBackend

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
    """The columns of :func:`kafkawire.protocol.records.to_arrow` a split's reader needs: those
    ``schema`` yields and those the row filters read."""
    from kafkawire.protocol import records

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
    options: ReadOptions = DEFAULT_READ_OPTIONS,
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
    options: ReadOptions = DEFAULT_READ_OPTIONS,
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
            yield from reader.read(split, opened)
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
    backend, the schema, the columns to decode), and small splits are read into one
    buffer (straight from the file, or copied there from their chunks when a filter
    picks pieces of them) and decoded by one :func:`kafkawire.protocol.records.to_arrow` call:
    a Python-level cost per split (the call, the table, the topic and partition
    columns, the batch Spark takes) is paid once per ``chunk_bytes`` instead."""

    def __init__(self, options: ReadOptions, stats: ReadStats, row_filter: RowFilter) -> None:
        self.options = options
        self.stats = stats
        self.row_filter = row_filter
        # the records implementation the 'backend' option names, else the active one
        self.records: RecordsBackend = _backend.implementation("records", options.backend or None)
        self.schema = read_schema(options)
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

    def read(self, split: Split, f: Optional[RangeFile] = None) -> Iterator["pyarrow.RecordBatch"]:
        """What ``split`` gives, decoded now or left in the buffer for :meth:`flush`
        (``f``: the split's file when it was opened ahead)."""
        if not self.row_filter.bounds_rows and self.small(split.end - split.start):
            yield from self.read_small(split, f)
            return
        for item in self.pieces(split, f):
            if isinstance(item, _Piece):
                yield from self.add(item)
            else:
                yield from self.flush()
                yield from self.emit(item)

    def small(self, size: int) -> bool:
        """Whether ``size`` bytes of batches are decoded with others, not alone."""
        return size * 4 < self.options.chunk_bytes

    def room(self, size: int) -> memoryview:
        """``size`` bytes of the buffer after what it holds (grown to ``chunk_bytes`` at
        most, then reused)."""
        start, end = self.filled, self.filled + size
        if len(self.buffer) < end:
            grown = bytearray(min(self.options.chunk_bytes, max(end, 2 * len(self.buffer))))
            grown[:start] = memoryview(self.buffer)[:start]
            self.buffer = grown
        return memoryview(self.buffer)[start:end]

    def keep(self, split: Split, base: int, headers: List[BatchHeader], size: int) -> None:
        """The ``size`` bytes after what the buffer holds, batches ``headers`` of
        ``split`` from file position ``base``, to be decoded at the next flush."""
        rows = sum(h.record_count for h in headers)  # exactly what a v2 batch decodes to
        self.pending.append((split, base, headers, self.filled, self.filled + size, rows))
        self.filled += size

    def read_small(self, split: Split, f: Optional[RangeFile]) -> Iterator["pyarrow.RecordBatch"]:
        """A split read straight into the buffer, once (its bytes are not copied again
        from a chunk of their own): what :meth:`pieces` and :meth:`add` give of it."""
        size = split.end - split.start
        if self.filled + size > self.options.chunk_bytes:
            yield from self.flush()
        into = self.room(size)
        n, headers, error = scan.read_whole(split.path, split.start, split.end, into, f=f, store=split.store)
        if headers and any(h.magic < 2 for h in headers):
            # legacy message sets, whose record counts the headers do not give, alone
            yield from self.flush()
            yield from self.decode(_Piece(split, into[:n], split.start, headers))
        elif headers:
            self.keep(split, split.start, headers, n)
        if error is not None:
            row = self.bad(split, error.position, None, error)
            if row is not None:
                yield from self.flush()
                yield from self.emit(row)

    def pieces(self, split: Split, f: Optional[RangeFile] = None) -> Iterator[Union[_Piece, "pyarrow.Table"]]:
        """The pieces of ``split`` the row filter may want, in order, and the
        corrupt-record row (a table) of a framing error that ends it; ``f`` is the
        split's file when it was opened ahead."""
        row_filter = self.row_filter
        filtering = row_filter.bounds_rows
        # to_arrow copies what it keeps, so every chunk can reuse one buffer
        chunks = scan.iter_chunks(
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
        if not self.small(size) or any(h.magic < 2 for h in piece.headers):
            yield from self.flush()
            yield from self.decode(piece)
            return
        if self.filled + size > self.options.chunk_bytes:
            yield from self.flush()
        self.room(size)[:] = piece.view
        self.keep(piece.split, piece.base, piece.headers, size)

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
    options: ReadOptions = DEFAULT_READ_OPTIONS,
    row_filter: RowFilter = NO_FILTER,
    **fields: Any,
) -> "pyarrow.Table":
    """Every split of ``paths`` read into one ``pyarrow.Table`` (for small logs, tests).

    ``fields`` set :class:`~kafkawire.log.read_options.ReadOptions` fields over ``options``:
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
    return pa.Table.from_batches(batches, schema=read_schema(options))


__all__ = [
    "ReadStats",
    "read_split",
    "read_splits",
    "read_all",
]


def __dir__() -> list[str]:  # what the module defines, not what it imports
    return sorted(__all__)
