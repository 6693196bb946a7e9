"""``kafka-cluster``: a live Kafka cluster as a Spark 4 Python data source, no JVM connector.

It takes Spark's Kafka connector's options and gives its columns, so moving a query
from the connector is changing ``format("kafka")`` to ``format("kafka-cluster")``::

    (spark.read.format("kafka-cluster")
        .option("kafka.bootstrap.servers", "broker:9092")
        .option("subscribe", "orders")
        .load())

Its name is not ``kafka``: Spark's connector registers that name whenever its jar is on
the class path, and the two must be told apart (the tests read the same topics with
both in one session); ``kafka-cluster`` says what it reads, as ``kafka-log`` does.

The driver plans offset ranges from Metadata and ListOffsets
(:mod:`kafkawire.cluster.plan`); each task fetches its range from the partition's leader
and decodes it straight to Arrow (:mod:`kafkawire.cluster.fetch`).  A schema naming some
of the columns (``spark.read.schema("value binary, offset bigint")``) decodes only
those.  Filters on ``topic``, ``partition``, ``offset`` and a lower bound on ``timestamp``
narrow the ranges fetched (with :func:`kafkawire.spark.register`'s filter pushdown);
Spark still checks every filter on the rows.

``spark.readStream.format("kafka-cluster")`` streams (:class:`ClusterStreamReader`:
offsets in Spark's checkpoint, ``maxOffsetsPerTrigger``, ``Trigger.AvailableNow``, each
batch's end committed to a consumer group with ``commitOffsetsToGroup``), and
``df.write`` and ``df.writeStream`` with ``format("kafka-cluster")`` produce rows of
``topic`` (or the ``topic`` option), ``key``, ``value``, ``headers`` and ``partition``
(:class:`ClusterWriter`, :class:`ClusterStreamWriter`).
"""

from __future__ import annotations

import logging
import queue
import threading
import time
from dataclasses import dataclass, replace
from typing import (
    TYPE_CHECKING,
    Any,
    Callable,
    Dict,
    Iterator,
    List,
    Mapping,
    Optional,
    Sequence,
    Tuple,
    TypeVar,
)

from pyspark.sql.datasource import (
    DataSource,
    DataSourceArrowWriter,
    DataSourceReader,
    DataSourceStreamArrowWriter,
    DataSourceStreamReader,
    Filter,
    InputPartition,
    WriterCommitMessage,
)
from pyspark.sql.streaming.datasource import (
    ReadAllAvailable,
    ReadLimit,
    ReadMaxRows,
    SupportsTriggerAvailableNow,
)

from kafkawire import datasource_options
from kafkawire.cluster.client import Cluster, LeaderHint
from kafkawire.cluster.config import ClientConfig, client_settings
from kafkawire.cluster.fetch import fetched_schema, read_range
from kafkawire.cluster.options import integer
from kafkawire.cluster import plan as planning
from kafkawire.cluster import pool
from kafkawire.cluster.plan import OffsetRange, ClusterReadOptions, plan
from kafkawire.cluster.produce import CODECS, Producer, partitioner_of
from kafkawire.errors import ClusterError, DataLossError
from kafkawire.spark import registry_columns
from kafkawire.spark.ddl import spark_type
from kafkawire.spark.filters import row_filter_of
from kafkawire.spark.options import ParsedOnce, columns_of

if TYPE_CHECKING:
    import pyarrow
    from pyspark.sql.types import StructType

    from kafkawire.log.planning import RowFilter

FORMAT = "kafka-cluster"
_T = TypeVar("_T")


def with_offset_retries(options: ClusterReadOptions, what: str, lookup: Callable[[], _T]) -> _T:
    """``lookup()`` (the driver's Metadata and ListOffsets of a plan or a trigger), tried
    ``fetchOffset.numRetries`` times ``fetchOffset.retryIntervalMs`` apart, as the
    connector's driver tries its offset lookups; data loss is not tried again."""
    for attempt in range(1, options.offset_fetch_attempts + 1):
        try:
            return lookup()
        except DataLossError:
            raise
        except ClusterError as exc:
            if attempt == options.offset_fetch_attempts:
                raise
            logging.getLogger("kafkawire.cluster").warning(
                "%s failed (attempt %d of %d), trying again in %d ms: %s",
                what,
                attempt,
                options.offset_fetch_attempts,
                options.offset_fetch_interval_ms,
                exc,
            )
            time.sleep(options.offset_fetch_interval_ms / 1000)
    raise AssertionError("unreachable")  # the loop returns or raises


def ddl(include_headers: bool) -> str:
    """The Spark DDL of the rows a read gives (``headers`` with ``include_headers``)."""
    return ", ".join(f"`{f.name}` {spark_type(f.type)}" for f in fetched_schema(include_headers))


def typed_read(
    options: ClusterReadOptions, schema: "StructType", formats: Optional[registry_columns.Formats]
) -> Tuple[ClusterReadOptions, Optional[registry_columns.Formats], Optional[Tuple[str, ...]]]:
    """``options`` fetching only what the columns ``schema`` asks for need, ``formats``
    decoding only the fields it asks for, and the columns the tasks hand Spark once
    ``formats`` has decoded keys and values (None: what they fetch)."""
    formats = registry_columns.narrowed(formats, schema)
    source = fetched_schema(options.include_headers)
    full = registry_columns.typed_schema(source, formats)
    wanted = columns_of(schema, full, FORMAT)
    if formats is None:
        return replace(options, columns=wanted), None, None
    output = tuple(full.names) if wanted is None else wanted
    return (
        replace(options, columns=registry_columns.read_columns(output, formats, source.names)),
        formats,
        output,
    )


class RangePartition(InputPartition):
    """A Spark input partition: the offset range one task reads, with what the planner
    knew of its leader (the task then needs no Metadata before its first Fetch)."""

    def __init__(self, offset_range: Optional[OffsetRange], leader: Optional[LeaderHint] = None) -> None:
        super().__init__(offset_range)
        self.leader = leader


def range_partitions(
    ranges: Sequence[OffsetRange], cluster: Optional[Cluster] = None
) -> List[InputPartition]:
    """One input partition a non-empty range, with ``cluster``'s word on its leader when
    given (metadata it has just read); Spark runs one task even for a read of nothing,
    and that task gets no range."""
    hint = cluster.hint if cluster is not None else lambda tp: None
    # a late-bound range may have records by the time its task starts
    kept = [r for r in ranges if r.size or r.from_earliest or r.to_latest]
    return [RangePartition(r, hint(r.tp)) for r in kept] or [RangePartition(None)]


def read_partition(
    partition: InputPartition,
    options: ClusterReadOptions,
    formats: Optional[registry_columns.Formats] = None,
    output: Optional[Tuple[str, ...]] = None,
) -> Iterator["pyarrow.RecordBatch"]:
    """A task's read (batch and stream alike): its range fetched from the leader as
    Arrow, and with ``formats`` its keys and values decoded, as the columns ``output``."""
    batches = _fetched(partition, options)
    if formats is None or output is None:
        return batches
    return registry_columns.typed_batches(batches, formats, output, options.backend)


def _fetched(partition: InputPartition, options: ClusterReadOptions) -> Iterator["pyarrow.RecordBatch"]:
    r = partition.value
    if r is None:
        return
    with pool.borrowed(options.client) as cluster:  # a Python worker runs task after task
        hint = getattr(partition, "leader", None)
        if hint is not None:
            cluster.use_hint(r.tp, hint)
        yield from cluster.iterate(
            read_range(cluster.aio, planning.bound_at_task(cluster, r, options), options)
        )


def narrow(
    cluster: Cluster, ranges: Sequence[OffsetRange], row_filter: "RowFilter", options: ClusterReadOptions
) -> List[OffsetRange]:
    """``ranges`` cut down to what pushed-down filters can match: partitions they rule
    out dropped, offsets clamped, and the start moved to the first offset whose
    timestamp reaches a lower timestamp bound (ListOffsets by time)."""
    out = []
    for r in ranges:
        if not row_filter.keeps_partition(r.topic, r.partition):
            continue
        if row_filter.min_offset is not None:  # a bound set by a filter is fixed at planning
            r = replace(r, start=max(r.start, row_filter.min_offset), from_earliest=False)
        if row_filter.max_offset is not None:
            r = replace(r, end=min(r.end, row_filter.max_offset + 1), to_latest=False)
        if r.size or r.from_earliest or r.to_latest:
            out.append(r)
    if row_filter.min_timestamp is not None and out:
        found = cluster.list_offsets(
            {r.tp: row_filter.min_timestamp for r in out}, isolation_level=options.isolation_level
        )
        out = [
            replace(r, start=max(r.start, found[r.tp][0]), from_earliest=False)
            for r in out
            if found[r.tp][0] >= 0 and found[r.tp][0] < r.end
        ]
    return out


class ClusterReader(DataSourceReader):
    """Plans offset ranges on the driver; each task fetches and decodes one."""

    def __init__(
        self,
        options: ClusterReadOptions,
        formats: Optional[registry_columns.Formats] = None,
        output: Optional[Tuple[str, ...]] = None,
    ) -> None:
        """``formats``: how keys and values are decoded into the columns ``output``
        (:func:`typed_read`); None leaves them binary."""
        if options.commit_group is not None:
            raise ValueError(
                "option commitOffsetsToGroup is for streaming queries (a batch read has no progress)"
            )
        self.options = options
        self.formats, self.output = formats, output
        self.row_filter: Optional["RowFilter"] = None

    def pushFilters(self, filters: List[Filter]) -> Iterator[Filter]:
        """Takes the filters that narrow what is fetched; every filter still goes back to
        Spark, which checks the rows."""
        self.row_filter = row_filter_of(filters)
        yield from filters

    def partitions(self) -> Sequence[InputPartition]:
        def lookup() -> List[InputPartition]:
            with Cluster(self.options.client) as cluster:
                ranges = plan(cluster, self.options)
                if self.row_filter is not None:
                    ranges = narrow(cluster, ranges, self.row_filter, self.options)
                return range_partitions(ranges, cluster)

        return with_offset_retries(self.options, "planning the read", lookup)

    def read(self, partition: InputPartition) -> Iterator["pyarrow.RecordBatch"]:
        return read_partition(partition, self.options, self.formats, self.output)


class ClusterStreamReader(DataSourceStreamReader, SupportsTriggerAvailableNow):
    """``spark.readStream``: offsets are per-partition JSON (``{"topic": {"0": 23}}``, as
    the connector keeps them) in Spark's checkpoint, so a restarted query goes on from
    the last batch it committed.  ``maxOffsetsPerTrigger`` bounds a batch, shared among
    the partitions in proportion to what each has waiting; ``minOffsetsPerTrigger`` puts a
    batch off while fewer records wait, until ``maxTriggerDelay`` has passed since the last
    one, as the connector does; new partitions are read from their start;
    ``Trigger.AvailableNow`` reads up to the offsets at its start."""

    def __init__(
        self,
        options: ClusterReadOptions,
        formats: Optional[registry_columns.Formats] = None,
        output: Optional[Tuple[str, ...]] = None,
    ) -> None:
        """``formats`` and ``output``: as :class:`ClusterReader`'s."""
        if options.min_offsets_per_trigger is not None:
            _require_read_min_rows()
        self.options = options
        self.formats, self.output = formats, output
        self._cluster: Optional[Cluster] = None
        self._target: Optional[planning.Offsets] = None
        self._group_offsets: Optional[planning.Offsets] = None  # last committed to the group
        self._last_trigger = 0.0  # when a batch last went ahead (time.time(), as the connector's clock)

    def __getstate__(self) -> Dict[str, Any]:  # tasks get the options, not the driver's connections
        return {
            "options": self.options,
            "formats": self.formats,
            "output": self.output,
            "_cluster": None,
            "_target": None,
            "_group_offsets": None,
            "_last_trigger": 0.0,
        }

    @property
    def cluster(self) -> Cluster:
        if self._cluster is None:
            self._cluster = Cluster(self.options.client)
        return self._cluster

    def initialOffset(self) -> Dict[str, Any]:
        return with_offset_retries(
            self.options,
            "finding the starting offsets",
            lambda: planning.to_json(planning.initial(self.cluster, self.options)),
        )

    def getDefaultReadLimit(self) -> ReadLimit:
        n = self.options.max_offsets_per_trigger
        if n is None and self.options.min_offsets_per_trigger is not None:
            from pyspark.sql.streaming.datasource import ReadMinRows

            return ReadMinRows(self.options.min_offsets_per_trigger)
        return ReadMaxRows(n) if n else ReadAllAvailable()

    def _put_off(self, begin: planning.Offsets, end: planning.Offsets, minimum: int) -> bool:
        """Whether this trigger waits: fewer than ``minimum`` records wait and
        ``maxTriggerDelay`` has not passed since the last batch (the connector's rule)."""
        now = time.time()
        if (now - self._last_trigger) * 1000 >= self.options.max_trigger_delay_ms:
            self._last_trigger = now
            return False
        if sum(max(0, e - begin.get(tp, 0)) for tp, e in end.items()) < minimum:
            return True
        self._last_trigger = now
        return False

    def prepareForTriggerAvailableNow(self) -> None:
        self._target = planning.latest(self.cluster, self.options)

    def latestOffset(self, start: Dict[str, Any], limit: ReadLimit) -> Dict[str, Any]:
        # an end behind the start stays so: partitions() reports it as data loss
        begin = planning.from_json(start)
        # Spark plans the next batch once the last one is in its commit log, so ``start``
        # is committed; Spark's own commit() of the last batch of a run comes only when
        # a next batch is planned, which an idle or ending query never does
        self._commit_to_group(begin)
        end = (
            with_offset_retries(
                self.options,
                "finding the latest offsets",
                lambda: planning.latest(self.cluster, self.options, known=begin),
            )
            if self._target is None
            else dict(self._target)
        )
        if isinstance(limit, ReadAllAvailable):
            return planning.to_json(end)
        minimum = getattr(limit, "min_rows", None) or self.options.min_offsets_per_trigger
        # Trigger.AvailableNow reads what is there at its start: it waits for nothing more
        if minimum is not None and self._target is None and self._put_off(begin, end, minimum):
            return planning.to_json(begin)
        rows = getattr(limit, "max_rows", None) or self.options.max_offsets_per_trigger
        if rows:
            # partitions found since the last batch start at their earliest and share the limit
            new = planning.earliest_of_new(self.cluster, self.options, begin, end)
            end = planning.rate_limit({**new, **begin}, end, int(rows))
        return planning.to_json(end)

    def partitions(self, start: Dict[str, Any], end: Dict[str, Any]) -> Sequence[InputPartition]:
        ranges = with_offset_retries(
            self.options,
            "planning a micro-batch",
            lambda: planning.stream_ranges(
                self.cluster, self.options, planning.from_json(start), planning.from_json(end)
            ),
        )
        # no leader hints: this client's metadata may be old (it is asked again only
        # after an error), and a stale hint costs each task a retry
        return range_partitions(ranges)

    def read(self, partition: InputPartition) -> Iterator["pyarrow.RecordBatch"]:
        return read_partition(partition, self.options, self.formats, self.output)

    def commit(self, end: Dict[str, Any]) -> None:
        """Spark has committed the batch that ends at ``end`` to its checkpoint (where the
        query's offsets live)."""
        self._commit_to_group(planning.from_json(end))

    def _commit_to_group(self, offsets: planning.Offsets) -> None:
        """With ``commitOffsetsToGroup``, give the consumer group offsets the checkpoint
        has committed, for Kafka's tools to see (each change once)."""
        group = self.options.commit_group
        if group is not None and offsets and offsets != self._group_offsets:
            self.cluster.commit_offsets(group, offsets)
            self._group_offsets = dict(offsets)

    def stop(self) -> None:
        if self._cluster is not None:
            self._cluster.close()
            self._cluster = None


def _require_read_min_rows() -> None:
    """``minOffsetsPerTrigger`` needs PySpark's ``ReadMinRows`` read limit (PySpark 4.2 on)."""
    try:
        from pyspark.sql.streaming.datasource import ReadMinRows  # noqa: F401
    except ImportError:
        import pyspark

        raise ValueError(
            f"option minOffsetsPerTrigger needs the ReadMinRows read limit of PySpark 4.2 or newer;"
            f" this is PySpark {pyspark.__version__}"
        ) from None


# ---------------------------------------------------------------------------
# writing

#: write options besides the connection's, with the producer defaults of Kafka's client
WRITE_CLIENT_SETTINGS = datasource_options.defaults(datasource_options.KAFKA_CLUSTER_WRITE_CLIENT)
_ACKS = {"all": -1, "-1": -1, "1": 1, "0": 0}


def _setting_int(settings: Mapping[str, str], name: str, minimum: int) -> int:
    return integer(settings.get(name, WRITE_CLIENT_SETTINGS[name]), f"kafka.{name}", minimum)


@dataclass(frozen=True)
class ClusterWriteOptions:
    """The parsed write options: Spark's connector's ``topic`` and ``kafka.`` settings."""

    client: ClientConfig
    topic: Optional[str] = None
    compression: str = "none"
    batch_bytes: int = 16384
    backend: Optional[str] = None
    acks: int = -1
    idempotent: bool = True
    linger_ms: int = 5
    max_request_size: int = 1048576
    max_in_flight: int = 5
    retries: int = 2147483647
    buffer_bytes: int = 32 << 20
    partitioner: str = "default"
    ignore_keys: bool = False
    #: the struct columns written framed (``keyFormat``, ``valueFormat``)
    formats: Tuple[registry_columns.WriteFormat, ...] = ()

    @classmethod
    def parse(cls, options: Mapping[str, str]) -> "ClusterWriteOptions":
        """Parse and check the write options (keys in any case)."""
        opts = {str(k).lower(): str(v) for k, v in options.items()}
        settings = client_settings(opts)
        datasource_options.check_names(opts, FORMAT, "write")
        compression = settings.get("compression.type", "none").lower()
        if compression not in CODECS:
            raise ValueError(
                f"option kafka.compression.type: {compression!r} is not one of {', '.join(CODECS)}"
            )
        raw_acks = settings.get("acks", "all").strip().lower()
        if raw_acks not in _ACKS:
            raise ValueError(f"option kafka.acks: {raw_acks!r} is not one of all, -1, 1, 0")
        acks = _ACKS[raw_acks]
        in_flight = _setting_int(settings, "max.in.flight.requests.per.connection", 1)
        retries = _setting_int(settings, "retries", 0)
        idempotence = settings.get("enable.idempotence")
        if idempotence is None:  # Kafka's producer: idempotent unless a setting conflicts
            idempotent = acks == -1 and in_flight <= 5 and retries > 0
        else:
            idempotent = datasource_options.parse_bool(idempotence, "kafka.enable.idempotence")
            # Kafka's producer refuses these pairs the same way
            if idempotent and acks != -1:
                raise ValueError("Must set acks to all in order to use the idempotent producer.")
            if idempotent and in_flight > 5:
                raise ValueError(
                    "Must set max.in.flight.requests.per.connection to at most 5 when using the idempotent producer."
                )
            if idempotent and retries == 0:
                raise ValueError("Must set retries to non-zero when using the idempotent producer.")
        batch = _setting_int(settings, "batch.size", 1)
        return cls(
            client=ClientConfig.parse(settings),
            topic=opts.get("topic"),
            compression=compression,
            batch_bytes=batch,
            backend=opts.get("backend") or None,
            acks=acks,
            idempotent=idempotent,
            linger_ms=_setting_int(settings, "linger.ms", 0),
            max_request_size=_setting_int(settings, "max.request.size", 1),
            max_in_flight=in_flight,
            retries=retries,
            buffer_bytes=_setting_int(settings, "buffer.memory", 1),
            partitioner=partitioner_of(settings.get("partitioner.class")),
            ignore_keys=datasource_options.parse_bool(
                settings.get("partitioner.ignore.keys", "false"), "kafka.partitioner.ignore.keys"
            ),
            formats=registry_columns.write_formats(options),
        )


@dataclass
class Written(WriterCommitMessage):
    """What one write task wrote: records acknowledged by the brokers."""

    records: int


#: the write columns' Spark types, as Spark's connector takes them
_WRITE_TYPES = {
    "topic": ("string",),
    "key": ("string", "binary"),
    "value": ("string", "binary"),
    "partition": ("int",),
    "headers": ("array<struct<key:string,value:binary>>",),
}


def check_write_schema(options: ClusterWriteOptions, schema: "StructType") -> None:
    """A write needs a ``value`` column, and a ``topic`` column or option; the columns
    it takes have the types Spark's connector takes (a struct, written as Avro, for a
    ``keyFormat`` or ``valueFormat`` column)."""
    names = set(schema.fieldNames())
    if "value" not in names:
        raise ValueError(f"writing to {FORMAT} needs a 'value' column")
    if options.topic is None and "topic" not in names:
        raise ValueError(f"writing to {FORMAT} needs a 'topic' column or the 'topic' option")
    framed = {f.column for f in options.formats}  # written as Avro: any struct
    for field in schema.fields:
        types = _WRITE_TYPES.get(field.name)
        if field.name in framed:
            if field.dataType.typeName() == "struct":
                continue
            types = ("a struct",)
        if types is not None and field.dataType.simpleString() not in types:
            raise ValueError(
                f"writing to {FORMAT}: column {field.name!r} is {field.dataType.simpleString()},"
                f" not {' or '.join(types)}"
            )


def _column(batch: "pyarrow.RecordBatch", name: str) -> Any:
    """Column ``name`` of ``batch`` (None if it has none), large types as 32-bit ones."""
    import pyarrow as pa

    if name not in batch.schema.names:
        return None
    column = batch.column(batch.schema.get_field_index(name))
    if pa.types.is_large_binary(column.type):
        return column.cast(pa.binary())
    if pa.types.is_large_string(column.type):
        return column.cast(pa.string())
    return column


def _send_batch(producer: Producer, options: ClusterWriteOptions, batch: "pyarrow.RecordBatch") -> None:
    """One Arrow batch of rows to ``producer``, a topic at a time."""
    import pyarrow.compute as pc

    columns = {name: _column(batch, name) for name in ("key", "value", "headers", "partition")}
    if options.topic is not None:  # the option wins over the column, as in Spark's connector
        producer.send_arrow(options.topic, **_columns(columns))
        return
    topics = _column(batch, "topic")
    if topics.null_count:
        raise ValueError("a row has a null topic and no 'topic' option is set")
    names = pc.unique(topics).to_pylist()
    for topic in names:
        rows = (
            columns
            if len(names) == 1
            else {k: c.filter(pc.equal(topics, topic)) if c is not None else None for k, c in columns.items()}
        )
        producer.send_arrow(topic, **_columns(rows))


def _columns(columns: Dict[str, Any]) -> Dict[str, Any]:
    return {
        "values": columns["value"],
        "keys": columns["key"],
        "headers": columns["headers"],
        "partitions": columns["partition"],
    }


def produce_rows(options: ClusterWriteOptions, iterator: Iterator["pyarrow.RecordBatch"]) -> Written:
    """One task's rows produced with an idempotent producer of its own; returns once
    the brokers have acknowledged every record.

    A thread of its own encodes and sends each Arrow batch while this one reads the
    next from Spark (which waits on Spark's socket, the GIL released), and it connects
    and asks for the producer id while the first rows are on their way."""
    work: "queue.Queue[Optional[pyarrow.RecordBatch]]" = queue.Queue(maxsize=2)
    done: Dict[str, Any] = {}

    def produce() -> None:
        try:
            with Cluster(options.client) as cluster:
                producer = Producer(
                    cluster,
                    compression=options.compression,
                    batch_bytes=min(options.batch_bytes, options.max_request_size),
                    buffer_bytes=options.buffer_bytes,
                    backend=options.backend,
                    acks=options.acks,
                    idempotent=options.idempotent,
                    max_in_flight=options.max_in_flight,
                    retries=options.retries,
                    partitioner=options.partitioner,
                    ignore_keys=options.ignore_keys,
                    max_record_bytes=options.max_request_size,
                )
                producer.prepare([options.topic] if options.topic is not None else [])
                batch = work.get()
                while batch is not None:
                    _send_batch(producer, options, batch)
                    if options.linger_ms:
                        try:  # rows that come within linger.ms go out with these
                            batch = work.get(timeout=options.linger_ms / 1000)
                            continue
                        except queue.Empty:
                            pass
                    producer.flush()
                    batch = work.get()
                producer.flush()
                done["written"] = Written(producer.acknowledged)
        except BaseException as exc:  # raised again in the task's thread
            done["error"] = exc

    thread = threading.Thread(target=produce, name="kafka-cluster-producer", daemon=True)
    thread.start()

    def hand_over(item: Optional["pyarrow.RecordBatch"]) -> bool:
        """Queue ``item`` for the producer thread; False once that thread has ended."""
        while thread.is_alive():
            try:
                work.put(item, timeout=0.1)
                return True
            except queue.Full:
                continue
        return False

    try:
        for batch in iterator:
            if not hand_over(batch):
                break
    finally:
        hand_over(None)
        thread.join()
    if "error" in done:
        raise done["error"]
    written: Written = done["written"]
    return written


class ClusterWriter(DataSourceArrowWriter):
    """``df.write``: each task produces its rows (:func:`produce_rows`)."""

    def __init__(self, options: ClusterWriteOptions, schema: "StructType") -> None:
        check_write_schema(options, schema)
        self.options = replace(options, formats=registry_columns.pinned_formats(options.formats, schema))

    def write(self, iterator: Iterator["pyarrow.RecordBatch"]) -> Written:
        return produce_rows(self.options, registry_columns.encoded_batches(iterator, self.options.formats))


class ClusterStreamWriter(DataSourceStreamArrowWriter):
    """``df.writeStream``: each micro-batch's tasks produce their rows
    (:func:`produce_rows`); a batch Spark runs again after a failure is produced again,
    so delivery is at least once, as with Spark's connector."""

    def __init__(self, options: ClusterWriteOptions, schema: "StructType") -> None:
        check_write_schema(options, schema)
        self.options = replace(options, formats=registry_columns.pinned_formats(options.formats, schema))

    def write(self, iterator: Iterator["pyarrow.RecordBatch"]) -> Written:
        return produce_rows(self.options, registry_columns.encoded_batches(iterator, self.options.formats))

    def commit(self, messages: List[Optional[WriterCommitMessage]], batchId: int) -> None:
        """Nothing to do: the records are written when the tasks end."""

    def abort(self, messages: List[Optional[WriterCommitMessage]], batchId: int) -> None:
        """Nothing to undo: what the tasks produced stays (no transactions)."""


class KafkaClusterDataSource(ParsedOnce, DataSource):
    """The ``kafka-cluster`` format: a live Kafka cluster, as Spark's Kafka connector reads it."""

    @classmethod
    def name(cls) -> str:
        return FORMAT

    def _formats(self) -> Optional[registry_columns.Formats]:
        # the reader schemas are read from the registry once, on the driver
        return self.parsed(
            "formats",
            lambda options: registry_columns.read_formats(
                options, lambda: planning.subscribed_topics(options)
            ),
        )

    def schema(self) -> str:
        # Spark asks before it says whether the query is a batch read or a stream, whose
        # offset options differ: the names are checked, the rest parsed by the reader
        opts = {k.lower(): v for k, v in self.options.items()}
        if not any(k in opts for k in ("subscribe", "subscribepattern", "assign")):
            # no read: a write has no reader schema (nor a read's options to check)
            return registry_columns.ddl(fetched_schema(False), None)
        datasource_options.check_names(self.options, FORMAT, "read")
        source = fetched_schema(
            datasource_options.parse_bool(opts.get("includeheaders", "false"), "includeHeaders")
        )
        return registry_columns.ddl(source, self._formats())

    def reader(self, schema: "StructType") -> ClusterReader:
        read = self.parsed("read", ClusterReadOptions.parse)
        options, formats, output = typed_read(read, schema, self._formats())
        return ClusterReader(options, formats, output)

    def writer(self, schema: "StructType", overwrite: bool) -> ClusterWriter:
        return ClusterWriter(self.parsed("write", ClusterWriteOptions.parse), schema)

    def streamReader(self, schema: "StructType") -> ClusterStreamReader:
        options = self.parsed("stream", lambda given: ClusterReadOptions.parse(given, streaming=True))
        options, formats, output = typed_read(options, schema, self._formats())
        return ClusterStreamReader(options, formats, output)

    def streamWriter(self, schema: "StructType", overwrite: bool) -> ClusterStreamWriter:
        return ClusterStreamWriter(self.parsed("write", ClusterWriteOptions.parse), schema)
