"""One offset range of a live partition, fetched from its leader and decoded to Arrow.

:func:`read_range`, an asynchronous generator (:meth:`Cluster.iterate
<kafkawire.cluster.client.Cluster.iterate>` iterates it from blocking code), yields
Arrow record batches with the columns of Spark's Kafka connector (:func:`fetched_schema`),
one or a few per Fetch response, so a task holds at
most one response (``kafka.max.partition.fetch.bytes``, or one batch when a batch is
bigger) and what it decodes to.  The next Fetch is on the wire while the last one is
decoded.

Which records it keeps is what Kafka's Java consumer returns: never control records; with
``read_committed``, not the records of aborted transactions.  A batch of a producer is
aborted when the Fetch response listed an aborted transaction of that producer starting
at or before the batch's last offset and no abort marker of that producer has come since
(the consumer's own walk over the response's ``aborted_transactions``).

A fetch that finds its offset gone (``OFFSET_OUT_OF_RANGE``, or a log that still ends
before the range does after ``kafkaConsumer.pollTimeoutMs`` of asking again: a leader just
elected can trail the old one's high watermark for a moment) raises
:class:`~kafkawire.errors.DataLossError` naming the partition and the offsets when
``failOnDataLoss`` is true, and otherwise skips to what is left.  A Fetch a quota
throttled (no records, a ``throttle_time_ms``) is no fault: the next one waits that long
(:meth:`AsyncCluster.request <kafkawire.cluster.client.AsyncCluster.request>`).  A leader
that moved or is not ready, a connection lost in the middle of a response, or a
response that does not decode is asked again (a new connection, after a metadata
refresh), within ``default.api.timeout.ms``; then the error names the partition and the
broker.  A record batch that fails its CRC check raises
:class:`~kafkawire.errors.CorruptRecordError` naming them at once, as Kafka's consumer
does not retry one either.
"""

from __future__ import annotations

import asyncio
import functools
import logging
import time
from typing import TYPE_CHECKING, Any, AsyncGenerator, Dict, Iterator, List, Optional, Tuple

from kafkawire.protocol import compression
from kafkawire import _backend
from kafkawire.cluster.client import EARLIEST, AsyncCluster, Retriable, broker_error
from kafkawire.cluster.plan import OffsetRange, ClusterReadOptions
from kafkawire.protocol.error_codes import ErrorCode
from kafkawire.errors import ClusterError, CorruptRecordError, DataLossError, DecodeError
from kafkawire.protocol.records import parse_control_record

if TYPE_CHECKING:
    import pyarrow

log = logging.getLogger("kafkawire.cluster.fetch")

#: the columns of Spark's Kafka connector, in its order (headers only when asked for)
COLUMNS = ("key", "value", "topic", "partition", "offset", "timestamp", "timestampType", "headers")
# the to_arrow column each output column comes from
_SOURCE = {
    "key": "key",
    "value": "value",
    "offset": "offset",
    "timestamp": "timestamp",
    "timestampType": "timestamp_type",
    "headers": "headers",
}


def fetched_schema(include_headers: bool, columns: Optional[Tuple[str, ...]] = None) -> "pyarrow.Schema":
    """The Arrow schema of the rows read: the connector's columns, ``headers`` only with
    ``include_headers``, only ``columns`` of them (in that order) when given."""
    return _fetched_schema(include_headers, columns)


@functools.lru_cache(maxsize=16)
def _fetched_schema(include_headers: bool, columns: Optional[Tuple[str, ...]]) -> "pyarrow.Schema":
    import pyarrow as pa

    from kafkawire.protocol.record_layout import spark_arrow_type
    from kafkawire.protocol.records import arrow_schema as records_schema

    headers_type = spark_arrow_type(records_schema().field("headers").type)
    types = {
        "key": pa.binary(),
        "value": pa.binary(),
        "topic": pa.string(),
        "partition": pa.int32(),
        "offset": pa.int64(),
        "timestamp": pa.timestamp("us", tz="UTC"),
        "timestampType": pa.int32(),
        "headers": headers_type,
    }
    full = [n for n in COLUMNS if include_headers or n != "headers"]
    names = full if columns is None else list(columns)
    for n in names:
        if n not in full:
            raise ValueError(f"a Kafka cluster read has no column {n!r}; its columns are {', '.join(full)}")
    return pa.schema([pa.field(n, types[n]) for n in names])


class _Txns:
    """The read_committed walk over one partition's batches (Kafka's consumer's rule)."""

    def __init__(self, listed: Any) -> None:
        # (first offset, producer id) of the aborted transactions listed, in offset order
        self.pending = sorted((t.first_offset, t.producer_id) for t in listed or ())
        self.aborted: set[int] = set()

    def keeps(self, batch: Any, records: Any) -> bool:
        """Whether a data batch is kept; control batches update the state and are dropped."""
        pid = batch.producer_id
        if pid >= 0:
            while self.pending and self.pending[0][0] <= batch.last_offset:
                self.aborted.add(self.pending.pop(0)[1])
            if batch.is_control:
                recs = batch.records()
                if recs and parse_control_record(recs[0]).type == "abort":
                    self.aborted.discard(pid)
                return False
            if batch.is_transactional and pid in self.aborted:
                return False
        return not batch.is_control


class _SparkColumns:
    """Decoded tables of one range as batches of the connector's columns (``schema``).

    ``topic`` and ``partition`` hold one value on every row, and ``timestampType`` nearly
    always does: each such column is made once, as long as the longest table yet, and
    sliced (a view) for each table."""

    def __init__(self, r: OffsetRange, schema: "pyarrow.Schema") -> None:
        import pyarrow as pa

        self.schema = schema
        self._value = {
            "topic": pa.scalar(r.topic, pa.string()),
            "partition": pa.scalar(r.partition, pa.int32()),
            0: pa.scalar(0, pa.int32()),  # the timestamp types
            1: pa.scalar(1, pa.int32()),
        }
        self._repeated: Dict[Any, "pyarrow.Array"] = {}

    def _constant(self, value: Any, n: int) -> "pyarrow.Array":
        import pyarrow as pa

        column = self._repeated.get(value)
        if column is None or len(column) < n:
            column = self._repeated[value] = pa.repeat(self._value[value], n)
        return column.slice(0, n)

    def _timestamp_type(self, col: "pyarrow.ChunkedArray") -> "pyarrow.ChunkedArray":
        """The int8 timestamp types as Spark's int32.  A record batch has one timestamp
        type, so a table nearly always holds one: then a slice of a constant column,
        which spares a compute kernel call on every table."""
        import pyarrow as pa

        if col.num_chunks == 1 and col.null_count == 0:
            chunk = col.chunk(0)
            n = len(chunk)
            types = chunk.buffers()[1].slice(chunk.offset, n).to_pybytes()
            for t in (0, 1):
                if types.count(t) == n:
                    return pa.chunked_array([self._constant(t, n)])
        return col.cast(pa.int32())

    def batches(self, table: "pyarrow.Table", max_rows: int) -> List["pyarrow.RecordBatch"]:
        import pyarrow as pa

        n = table.num_rows
        cols = []
        for f in self.schema:
            if f.name in ("topic", "partition"):
                cols.append(self._constant(f.name, n))
                continue
            col = table.column(_SOURCE[f.name])
            if f.name == "timestampType":
                col = self._timestamp_type(col)
            elif f.name == "headers":
                col = pa.chunked_array([_null_if_empty(c, f.type) for c in col.chunks], f.type)
            elif col.type != f.type:  # only nested names differ: a view, not a copy
                col = pa.chunked_array([c.view(f.type) for c in col.chunks], f.type)
            cols.append(col)
        table = pa.Table.from_arrays(cols, schema=self.schema)
        out: List["pyarrow.RecordBatch"] = table.to_batches(max_chunksize=max_rows)
        return out


def _null_if_empty(headers: "pyarrow.ListArray", spark_type: "pyarrow.DataType") -> "pyarrow.Array":
    """Header lists as Spark's connector gives them: null for a record with none."""
    import pyarrow as pa
    import pyarrow.compute as pc

    empty = pc.equal(pc.list_value_length(headers), 0)
    offsets = headers.offsets
    first = offsets[0].as_py()
    # from_arrays takes a mask only with offsets of its own, starting at 0: a slice
    # (rows cut away in front, with or without headers) gets them made afresh
    if headers.offset or first:
        values = headers.values.slice(first, offsets[-1].as_py() - first)
        offsets = pc.subtract(offsets, pa.scalar(first, offsets.type))
    else:
        values = headers.values
    return pa.ListArray.from_arrays(offsets, values, mask=empty).view(spark_type)


def _trim(table: "pyarrow.Table", start: int, end: int) -> "pyarrow.Table":
    """The rows of ``table`` (offsets ascending) with offsets in ``[start, end)``."""
    if table.num_rows == 0:
        return table
    offsets = table.column("offset")
    first, last = offsets[0].as_py(), offsets[-1].as_py()
    if first >= start and last < end:
        return table
    import pyarrow.compute as pc

    # offsets ascend: the rows to drop are a run at either end
    a = pc.sum(pc.less(offsets, start)).as_py() or 0
    b = table.num_rows - (pc.sum(pc.greater_equal(offsets, end)).as_py() or 0)
    return table.slice(a, max(0, b - a))


async def read_range(
    cluster: AsyncCluster, r: OffsetRange, options: ClusterReadOptions, *, max_rows: int = 1 << 16
) -> AsyncGenerator["pyarrow.RecordBatch", None]:
    """The records of ``r`` as Arrow record batches of at most ``max_rows`` rows."""
    records = _backend.implementation("records", options.backend)
    schema = fetched_schema(options.include_headers, options.columns)
    columns = _SparkColumns(r, schema)
    wanted = {_SOURCE[n] for n in schema.names if n in _SOURCE} | {"offset"}
    decode = [n for n in records.arrow_schema().names if n in wanted]
    where = f"{r.topic}-{r.partition}"
    offset = r.start
    pending: Optional[asyncio.Task[Any]] = None
    deadline = time.monotonic() + cluster.config.api_timeout
    ended_since: Optional[float] = None  # when the log first seemed to end before ``offset``

    async def ask(at: int) -> Any:
        conn, info, part = await cluster.leader(r.tp)
        request = cluster.fetch_request(
            conn,
            info,
            part,
            at,
            max_bytes=options.fetch_max_bytes,
            partition_max_bytes=options.partition_fetch_bytes,
            isolation_level=options.isolation_level,
        )
        answer = await cluster.request(conn, request)
        broker = cluster.describe(conn)
        if answer.error_code:
            raise Retriable(broker_error(answer.error_code, f"fetching {where} from {broker}"))
        p = _the_partition(answer, r)
        if p is None:
            if answer.throttle_time_ms > 0:  # a quota: the answer holds nothing, ask again after it
                return None, broker
            raise Retriable(ClusterError(f"the Fetch response of {broker} does not hold {where}"))
        if p.error_code not in (ErrorCode.NONE, ErrorCode.OFFSET_OUT_OF_RANGE):
            err = broker_error(p.error_code, f"fetching {where} at offset {at} from {broker}")
            if err.error.retriable:
                raise Retriable(err)
            raise err
        return p, broker

    async def fetch(at: int) -> Any:
        return await cluster.retrying(f"fetching {where}", lambda: ask(at))

    try:
        while offset < r.end:
            p, broker = await (pending if pending is not None else fetch(offset))
            pending = None
            if p is None:  # throttled: the next Fetch waits until the broker takes it
                continue
            if p.error_code == ErrorCode.OFFSET_OUT_OF_RANGE:
                offset = await _out_of_range(cluster, r, offset, options)
                continue
            buf = p.records
            # Kafka's consumer starts each response's walk afresh from the aborted
            # transactions it lists (the broker lists every one the response overlaps)
            txns = _Txns(p.aborted_transactions) if options.isolation_level == 1 else None
            batches = 0
            kept: List[Tuple[int, int]] = []  # byte runs of kept batches
            cap = compression.DEFAULT_MAX_DECOMPRESSED_SIZE  # what the largest may become
            pos = 0
            next_offset = offset
            for b in _checked(
                records.iter_batches(buf if buf is not None else b"", verify_crc=True), where, offset, broker
            ):
                size = b.size_in_bytes
                next_offset = b.last_offset + 1
                keep = txns.keeps(b, records) if txns is not None else not b.is_control
                if keep and b.last_offset >= offset:
                    cap = max(cap, compression.greatest_decompressed_size(b.compression_id, size))
                    if kept and kept[-1][1] == pos:
                        kept[-1] = (kept[-1][0], pos + size)
                    else:
                        kept.append((pos, pos + size))
                batches += 1
                pos += size
                if next_offset >= r.end:
                    break
            if not batches:
                bound = p.last_stable_offset if options.isolation_level == 1 else p.high_watermark
                if 0 <= bound <= offset:
                    # a leader just elected can answer with a high watermark behind the old
                    # leader's for a moment: ask again, through fresh metadata, for as long as
                    # the connector polls before the records are judged lost
                    now = time.monotonic()
                    ended_since = now if ended_since is None else ended_since
                    if now - ended_since < options.poll_timeout:
                        cluster.forget_metadata()
                        await asyncio.sleep(cluster.config.retry_backoff)
                        continue
                    ended_since = None
                    offset = _log_ended(r, offset, bound, options, waited=True)
                    continue
                if time.monotonic() > deadline:
                    raise DataLossError(
                        f"{where}: no record came at offset {offset} within {cluster.config.api_timeout:g} s"
                        f" though the range reaches {r.end}"
                    )
                continue
            deadline = time.monotonic() + cluster.config.api_timeout
            ended_since = None
            # a batch may begin before the offset asked for (the one holding it, or one
            # whose first records are behind the log start): those records are not read
            fetched_from, offset = offset, next_offset
            if offset < r.end:
                pending = asyncio.create_task(fetch(offset))
                await asyncio.sleep(0)  # let it reach the wire while we decode
            view = memoryview(buf)
            for a, b_end in kept:
                try:  # the walk above checked these batches' CRCs
                    table = records.to_arrow(
                        view[a:b_end], columns=decode, verify_crc=False, max_decompressed_size=cap
                    )
                except DecodeError as exc:
                    raise _corrupt(where, fetched_from, broker, exc) from exc
                table = _trim(table, fetched_from, r.end)
                if table.num_rows:
                    for batch in columns.batches(table, max_rows):
                        yield batch
    finally:
        # a reader stopped early (a LIMIT) lets the Fetch on the wire finish: cut off,
        # its connection's close would fail a request nothing waits for any more
        if pending is not None:
            try:
                await pending
            except Exception:  # its records are not wanted, nor its failure
                pass


def _the_partition(answer: Any, r: OffsetRange) -> Any:
    """The partition of ``r`` in a Fetch response (by name or by topic id), or None."""
    for t in answer.responses:
        for p in t.partitions:
            if p.partition_index == r.partition:
                return p
    return None


def _corrupt(where: str, offset: int, broker: str, exc: DecodeError) -> CorruptRecordError:
    return CorruptRecordError(
        f"{where}: the records {broker} returned from offset {offset} are corrupt: {exc}"
    )


def _checked(batches: Iterator[Any], where: str, offset: int, broker: str) -> Iterator[Any]:
    """``batches`` with a decode failure named after the partition and the broker: a
    corrupt batch is an error, not retried (Kafka's consumer does the same)."""
    try:
        yield from batches
    except DecodeError as exc:
        raise _corrupt(where, offset, broker, exc) from exc


async def _out_of_range(
    cluster: AsyncCluster, r: OffsetRange, offset: int, options: ClusterReadOptions
) -> int:
    """Where to go on after OFFSET_OUT_OF_RANGE at ``offset``: an error with
    ``failOnDataLoss``, else the log's start (or the range's end when none is left)."""
    ((earliest, _),) = (
        await cluster.list_offsets({r.tp: EARLIEST}, isolation_level=options.isolation_level)
    ).values()
    where = f"{r.topic}-{r.partition}"
    if options.fail_on_data_loss:
        raise DataLossError(
            f"{where}: offsets {offset} to {r.end} were planned but the log now starts at {earliest}:"
            " records were lost (deleted by retention or the topic recreated); set failOnDataLoss=false"
            " to skip them"
        )
    if earliest > offset:
        log.warning(
            "%s: offsets %d to %d are gone (the log starts at %d): skipped",
            where,
            offset,
            min(earliest, r.end),
            earliest,
        )
        return min(earliest, r.end)
    return _log_ended(r, offset, offset, options)


def _log_ended(
    r: OffsetRange, offset: int, bound: int, options: ClusterReadOptions, waited: bool = False
) -> int:
    where = f"{r.topic}-{r.partition}"
    if options.fail_on_data_loss:
        still = f" still after kafkaConsumer.pollTimeoutMs ({options.poll_timeout:g} s)" if waited else ""
        raise DataLossError(
            f"{where}: offsets {offset} to {r.end} were planned but the log now ends at {bound}{still}:"
            " records were lost (the log was truncated); set failOnDataLoss=false to skip them"
        )
    log.warning("%s: offsets %d to %d are gone (the log ends at %d): skipped", where, offset, r.end, bound)
    return r.end
