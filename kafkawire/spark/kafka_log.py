"""``kafka-log``: Kafka log segments as a Spark 4 Python data source, read and write.

Read::

    spark.read.format("kafka-log").load("/var/lib/kafka/data")          # a log directory
    spark.read.format("kafka-log").load("/backup/orders-3")             # one partition
    spark.read.format("kafka-log").load("/backup/orders-3/*.log")       # segment files
    spark.read.format("kafka-log").option("endpoint", "http://minio:9000").load("s3://logs/kafka")

Columns: ``topic``, ``partition``, then those of :func:`kafkawire.protocol.records.to_arrow`.
Spark does not tell a Python data source which columns a query uses; a schema naming
some of them does, and only those are decoded and handed to Spark (keys, values and
headers not named are never copied)::

    spark.read.format("kafka-log").schema("offset bigint, value binary").load(path)

Filters on ``topic`` and ``partition`` (``=``, ``IN``) and on ``offset`` and
``timestamp`` (ranges) are pushed down (:func:`kafkawire.spark.register` turns on
``spark.sql.python.filterPushdown.enabled``): partitions and segments that cannot match
are not opened, a segment is entered at the batch its ``.index`` or ``.timeindex`` points
to, and batches outside the range are skipped by their header without being decompressed.
Spark still checks every filter on the rows it gets.

Read options: :data:`kafkawire.datasource_options.KAFKA_LOG_READ`, each with its default
and meaning (the documentation site prints them as a table); an option not there is an
error naming it.  Segments become Spark partitions as Spark's own file sources make
them: bigger segments are cut at batch boundaries (from the ``.index`` file when
present, else by scanning batch headers), smaller ones are packed together, and tasks
get equal work in whole waves of ``minPartitions``.  Objects of ``s3://`` and ``s3a://``
paths are listed once per folder and read by ranged requests of the bytes planned.

Write::

    df.write.format("kafka-log").mode("overwrite").option("compression", "zstd").save(path)

Rows of (``topic``, ``partition``, ``key``, ``value``, ``headers``, ``timestamp``) become
partition folders of segment files (with ``.index`` and ``.timeindex``) under ``path``.
Only ``value`` is required; options ``topic`` and ``partition`` give the defaults when
those columns are absent or null (the write options:
:data:`kafkawire.datasource_options.KAFKA_LOG_WRITE`).  Append mode continues each partition's offsets after its
existing last offset; overwrite replaces the partition folders under ``path``.
Each task writes its batches to a staging folder; the job's commit gives them their
final offsets (a batch's base offset lies outside its CRC, so this needs no re-encoding)
and appends them to the partitions, so every partition's offsets are contiguous however
the rows were spread over tasks.
"""

from __future__ import annotations

import json
import os
import shutil
import time
import uuid
from dataclasses import dataclass, replace
from typing import (
    TYPE_CHECKING,
    Any,
    Dict,
    Iterator,
    List,
    Mapping,
    Optional,
    Sequence,
    Tuple,
)

from pyspark.sql.datasource import (
    DataSource,
    DataSourceArrowWriter,
    DataSourceReader,
    Filter,
    InputPartition,
    WriterCommitMessage,
)

from kafkawire import _backend, datasource_options
from kafkawire.log import planning, read, read_options, scan, segments, storage, write
from kafkawire.protocol.schema.plan import INT32_MAX
from kafkawire.spark import registry_columns
from kafkawire.spark.filters import row_filter_of
from kafkawire.spark.options import ParsedOnce, columns_of

if TYPE_CHECKING:
    import pyarrow
    from pyspark.sql.types import StructType

    from kafkawire._backend_interfaces import BatchBuilderLike, RecordsBackend

FORMAT = "kafka-log"
_STAGING_PREFIX = "_kafkawire_staging-"


def _paths(options: Mapping[str, str]) -> List[str]:
    paths: List[str] = []
    raw = options.get("paths")
    if raw:
        try:
            paths.extend(json.loads(raw))
        except ValueError:
            paths.extend(p for p in raw.split(",") if p)
    if options.get("path"):
        paths.append(options["path"])
    if not paths:
        raise ValueError("kafka-log needs a path: spark.read.format('kafka-log').load(PATH)")
    return paths


class SplitPartition(InputPartition):
    """A Spark input partition: the :class:`~kafkawire.log.planning.Split` list one
    task reads (small segments packed together, big ones cut, for equal work)."""

    def __init__(self, splits: List[planning.Split]) -> None:
        super().__init__(splits)


class KafkaLogReader(DataSourceReader):
    """Plans splits on the driver side and reads each group in a task."""

    def __init__(
        self,
        options: Mapping[str, str],
        schema: Optional["StructType"] = None,
        parsed: Optional[read_options.ReadOptions] = None,
        formats: Optional[registry_columns.Formats] = None,
    ) -> None:
        """``parsed``: ``options`` parsed already (parsed and checked here if not);
        ``formats``: how keys and values are decoded (None: left binary), narrowed to
        the fields ``schema`` keeps (:func:`~kafkawire.spark.registry_columns.narrowed`)."""
        self.paths = _paths(options)
        self.options = parsed if parsed is not None else read_options.ReadOptions.parse(options)
        # a schema whose value is a struct of a few fields narrows its reader schema
        self.formats = formats = registry_columns.narrowed(formats, schema)
        source = read_options.read_schema(self.options, pruned=False)
        full = registry_columns.typed_schema(source, formats)
        #: the columns the tasks hand Spark, in order
        self.output: Tuple[str, ...] = tuple(full.names)
        if schema is not None:
            wanted = columns_of(schema, full, FORMAT)
            self.output = tuple(full.names) if wanted is None else wanted
            self.options = replace(self.options, columns=wanted)
        if formats is not None:
            read = registry_columns.read_columns(self.output, formats, source.names)
            self.options = replace(self.options, columns=read)
        self.row_filter = planning.NO_FILTER

    def pushFilters(self, filters: List[Filter]) -> Iterator[Filter]:
        """Takes the filters on ``topic``, ``partition``, ``offset`` and ``timestamp``
        that the log's layout can answer; every filter still goes back to Spark, which
        re-checks the rows (the pushed ones then cost it almost nothing)."""
        self.row_filter = row_filter_of(filters)
        yield from filters

    def partitions(self) -> Sequence[InputPartition]:
        splits = planning.plan(self.paths, self.options, self.row_filter)
        groups = planning.pack(splits, self.options)
        return [SplitPartition(g) for g in groups] or [SplitPartition([])]

    def read(self, partition: InputPartition) -> Iterator["pyarrow.RecordBatch"]:
        batches = read.read_splits(partition.value, self.options, row_filter=self.row_filter)
        if self.formats is None:
            return batches
        return registry_columns.typed_batches(batches, self.formats, self.output, self.options.backend)


# ---------------------------------------------------------------------------
# writing


@dataclass(frozen=True)
class LogWriteOptions:
    """The ``kafka-log`` write options (an option that is none of these raises
    :class:`~kafkawire.errors.OptionError` naming it)."""

    compression: str = "none"
    batch_bytes: int = 1 << 20
    segment_bytes: int = write.DEFAULT_SEGMENT_BYTES
    index_interval_bytes: int = write.DEFAULT_INDEX_INTERVAL_BYTES
    topic: Optional[str] = None
    partition: int = 0
    #: the struct columns written framed (``keyFormat``, ``valueFormat``)
    formats: Tuple[registry_columns.WriteFormat, ...] = ()

    @classmethod
    def parse(cls, options: Mapping[str, str]) -> "LogWriteOptions":
        from kafkawire.protocol.compression import codec_id, codec_name

        datasource_options.check_names(options, FORMAT, "write")
        opts = {str(k).lower(): v for k, v in options.items()}
        return cls(
            compression=codec_name(codec_id(str(opts.get("compression", "none")).lower())),
            batch_bytes=read_options.byte_size(opts.get("batchbytes", 1 << 20), "batchBytes"),
            segment_bytes=read_options.byte_size(
                opts.get("segmentbytes", write.DEFAULT_SEGMENT_BYTES), "segmentBytes"
            ),
            index_interval_bytes=read_options.byte_size(
                opts.get("indexintervalbytes", write.DEFAULT_INDEX_INTERVAL_BYTES), "indexIntervalBytes"
            ),
            topic=None if opts.get("topic") is None else _check_topic(str(opts["topic"]), "option topic"),
            partition=_check_partition(str(opts.get("partition", 0)), "option partition"),
            formats=registry_columns.write_formats(options),
        )


@dataclass
class StagedPartition:
    topic: str
    partition: int
    path: str
    records: int


@dataclass
class StagedTask(WriterCommitMessage):
    """What one write task staged: its Spark partition id and files per topic partition."""

    task: int
    files: List[StagedPartition]


def _check_topic(topic: object, where: str) -> str:
    """``topic`` if it is a Kafka topic name (they become folder names here); ``where``
    names the option or column it came from."""
    if not isinstance(topic, str):
        raise ValueError(f"{where}: {topic!r} is not a string")
    if (
        not topic
        or len(topic) > 249
        or topic in (".", "..")
        or any(not (c.isascii() and (c.isalnum() or c in "._-")) for c in topic)
    ):
        raise ValueError(f"{where}: invalid Kafka topic name {topic!r}")
    return topic


def _check_partition(partition: object, where: str) -> int:
    """``partition`` as a Kafka partition number (an int32 from 0): an int, or the text
    of one; ``where`` names the option or column it came from."""
    number = -1
    if isinstance(partition, str) and partition.strip().isdecimal():
        number = int(partition)
    elif isinstance(partition, int) and not isinstance(partition, bool):
        number = partition
    if not 0 <= number <= INT32_MAX:  # partitions are int32 on the wire
        raise ValueError(
            f"{where}: {partition!r} is not a partition number (an integer from 0 to {INT32_MAX})"
        )
    return number


class _StagingFile:
    def __init__(self, path: str) -> None:
        self.path = path
        self.fh = open(path, "wb")
        self.next_offset = 0
        self.records = 0


class KafkaLogWriter(DataSourceArrowWriter):
    """Encodes rows into batches per topic partition; the commit places them in the log."""

    def __init__(
        self,
        options: Mapping[str, str],
        schema: "StructType",
        overwrite: bool,
        parsed: Optional[LogWriteOptions] = None,
    ) -> None:
        """``parsed``: ``options`` parsed already (parsed and checked here if not)."""
        paths = _paths(options)
        if len(paths) != 1:
            raise ValueError("kafka-log writes to one path")
        if storage.scheme_of(paths[0]) not in (None, "file"):
            raise ValueError(f"kafka-log writes to local paths only, not {paths[0]!r}")
        self.path = os.path.abspath(storage.local_path(paths[0]))
        self.options = parsed if parsed is not None else LogWriteOptions.parse(options)
        self.overwrite = overwrite
        self.staging = os.path.join(self.path, _STAGING_PREFIX + uuid.uuid4().hex)
        names = set(schema.fieldNames())
        if "value" not in names:
            raise ValueError("kafka-log writes need a 'value' column")
        if "topic" not in names and not self.options.topic:
            raise ValueError("kafka-log writes need a 'topic' column or the 'topic' option")
        # the writer schemas resolved once, here on the driver, for every task
        formats = registry_columns.pinned_formats(self.options.formats, schema)
        self.options = replace(self.options, formats=formats)
        self.backend = options.get("backend")

    # -- in the tasks ------------------------------------------------------

    def write(self, iterator: Iterator["pyarrow.RecordBatch"]) -> StagedTask:
        # the records implementation the 'backend' option names, else the active one
        batches = registry_columns.encoded_batches(iterator, self.options.formats)
        return self._write(batches, _backend.implementation("records", self.backend or None))

    def _write(self, iterator: Iterator["pyarrow.RecordBatch"], records: RecordsBackend) -> StagedTask:
        import pyarrow as pa
        import pyarrow.compute as pc
        from pyspark import TaskContext

        ctx = TaskContext.get()
        task = ctx.partitionId() if ctx is not None else 0
        attempt = ctx.attemptNumber() if ctx is not None else 0
        folder = os.path.join(self.staging, f"task-{task:06d}-{attempt}")
        os.makedirs(folder, exist_ok=True)
        opts = self.options
        files: Dict[Tuple[str, int], _StagingFile] = {}
        # the batch being filled of each topic partition; the builder says when it is full
        builders: Dict[Tuple[str, int], BatchBuilderLike] = {}

        def staging_file(tp: Tuple[str, int]) -> _StagingFile:
            sf = files.get(tp)
            if sf is None:
                sf = files[tp] = _StagingFile(os.path.join(folder, f"{tp[0]}-{tp[1]}.batches"))
            return sf

        def new_builder(tp: Tuple[str, int]) -> BatchBuilderLike:
            builder = builders[tp] = records.BatchBuilder(
                base_offset=staging_file(tp).next_offset,
                compression=opts.compression,
                max_bytes=opts.batch_bytes,
            )
            return builder

        def flush(tp: Tuple[str, int]) -> None:
            builder = builders.pop(tp, None)
            if builder is None or not builder.record_count:
                return
            sf = staging_file(tp)
            sf.fh.write(builder.build())
            sf.next_offset += builder.record_count
            sf.records += builder.record_count

        now = int(time.time() * 1000)
        for batch in iterator:
            n = batch.num_rows
            if n == 0:
                continue
            names = batch.schema.names

            def column(name: str, default: object = None) -> List[Any]:
                if name not in names:
                    return [default] * n
                got: List[Any] = batch.column(names.index(name)).to_pylist()
                return got

            topics = column("topic", opts.topic)
            parts = column("partition", opts.partition)
            keys = column("key")
            values = column("value")
            headers = column("headers")
            if "timestamp" in names:
                tcol = batch.column(names.index("timestamp"))
                if pa.types.is_timestamp(tcol.type):
                    tcol = pc.cast(pc.cast(tcol, pa.timestamp("ms", tz="UTC")), pa.int64())
                stamps = tcol.to_pylist()
            else:
                stamps = [None] * n
            for i in range(n):
                topic = topics[i] if topics[i] is not None else opts.topic
                part = parts[i] if parts[i] is not None else opts.partition
                if topic is None:
                    raise ValueError("a row has a null topic and no 'topic' option is set")
                tp = (_check_topic(topic, "column topic"), _check_partition(part, "column partition"))
                key, value = keys[i], values[i]
                if isinstance(value, str):
                    value = value.encode()
                if isinstance(key, str):
                    key = key.encode()
                hdrs = headers[i]
                if hdrs:
                    hdrs = [(h["key"], h["value"]) if isinstance(h, dict) else tuple(h) for h in hdrs]
                ts = stamps[i]
                timestamp = now if ts is None else ts
                builder = builders.get(tp)
                if builder is None:
                    builder = new_builder(tp)
                if not builder.append(key, value, hdrs or [], timestamp):  # full: the record starts the next
                    flush(tp)
                    new_builder(tp).append(key, value, hdrs or [], timestamp)
        for tp in list(builders):
            flush(tp)
        for sf in files.values():
            sf.fh.close()
        return StagedTask(
            task, [StagedPartition(tp[0], tp[1], sf.path, sf.records) for tp, sf in sorted(files.items())]
        )

    # -- on the driver -----------------------------------------------------

    def commit(self, messages: List[Optional[WriterCommitMessage]]) -> None:
        try:
            staged: Dict[Tuple[str, int], List[StagedPartition]] = {}
            # every message is a StagedTask of this writer's tasks (None: a task that failed)
            ours = [m for m in messages if isinstance(m, StagedTask)]
            for msg in sorted(ours, key=lambda m: m.task):
                for sp in msg.files:
                    staged.setdefault((sp.topic, sp.partition), []).append(sp)
            if self.overwrite:
                self._clear()
            for (topic, partition), files in sorted(staged.items()):
                directory = os.path.join(self.path, f"{topic}-{partition}")
                next_offset = 0
                if os.path.isdir(directory):
                    for plog in segments.discover(directory):
                        next_offset = scan.last_offset(plog) + 1
                with write.PartitionWriter(
                    directory,
                    next_offset=next_offset,
                    segment_bytes=self.options.segment_bytes,
                    index_interval_bytes=self.options.index_interval_bytes,
                ) as out:
                    for sp in files:
                        delta = out.next_offset
                        for _pos, view, headers in scan.iter_chunks(sp.path):
                            for h in headers:
                                start = h.position - _pos
                                entry = bytearray(view[start : start + h.size_in_bytes])
                                write.set_base_offset(entry, h.base_offset + delta)
                                out.append(entry)
        finally:
            shutil.rmtree(self.staging, ignore_errors=True)

    def abort(self, messages: List[Optional[WriterCommitMessage]]) -> None:
        shutil.rmtree(self.staging, ignore_errors=True)

    def _clear(self) -> None:
        if not os.path.isdir(self.path):
            return
        for name in os.listdir(self.path):
            sub = os.path.join(self.path, name)
            if (
                os.path.isdir(sub)
                and segments.parse_partition_dir(name)
                and any(n.endswith(segments.LOG_SUFFIX) for n in os.listdir(sub))
            ):
                shutil.rmtree(sub)


class KafkaLogDataSource(ParsedOnce, DataSource):
    """The ``kafka-log`` format: Kafka log directories, partitions or segment files."""

    @classmethod
    def name(cls) -> str:
        return FORMAT

    def _read_options(self) -> read_options.ReadOptions:
        # Spark may ask a write for the schema too, with write options: the names are
        # checked where a read begins (reader), the values parsed once for both
        return self.parsed("read", lambda options: read_options.ReadOptions.parse(options, strict=False))

    def _formats(self) -> Optional[registry_columns.Formats]:
        # the reader schemas are read from the registry once, on the driver
        def topics() -> List[str]:
            found = segments.discover(_paths(self.options), self._read_options().storage)
            return sorted({p.topic for p in found if p.topic is not None})

        return self.parsed("formats", lambda options: registry_columns.read_formats(options, topics))

    def schema(self) -> str:
        if datasource_options.writes_only(self.options, FORMAT):
            # a write's options: a write has no reader schema
            return registry_columns.ddl(read_options.read_schema(self._read_options()), None)
        return registry_columns.ddl(read_options.read_schema(self._read_options()), self._formats())

    def reader(self, schema: "StructType") -> KafkaLogReader:
        datasource_options.check_names(self.options, FORMAT, "read")
        return KafkaLogReader(self.options, schema, self._read_options(), self._formats())

    def writer(self, schema: "StructType", overwrite: bool) -> KafkaLogWriter:
        return KafkaLogWriter(self.options, schema, overwrite, self.parsed("write", LogWriteOptions.parse))
