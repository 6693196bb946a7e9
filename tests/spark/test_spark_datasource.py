"""The ``kafka-log`` source's own logic, called without a SparkSession: the filters a
query pushes down become the bounds the reader plans with, and the writer checks its
options and rows and lays out the log (read back by aiokafka, a peer).

``tests/spark/test_spark_kafka_log.py`` runs the same classes through Spark; there Spark
re-checks every row, so a pushed filter that is ignored goes unnoticed, and a writer's
refusal is only seen as a failed job.
"""

from __future__ import annotations

import datetime as dt
import os

import pytest

pytest.importorskip("pyspark")
pa = pytest.importorskip("pyarrow")

from pyspark.sql.datasource import (  # noqa: E402
    EqualTo,
    GreaterThan,
    GreaterThanOrEqual,
    In,
    IsNotNull,
    LessThan,
    LessThanOrEqual,
    Not,
)
from pyspark.sql.types import BinaryType, StringType, StructField, StructType  # noqa: E402

from kafkawire.log import scan, segments  # noqa: E402
from kafkawire.log.planning import RowFilter  # noqa: E402
from kafkawire.spark.filters import row_filter_of  # noqa: E402
from kafkawire.spark.kafka_log import KafkaLogReader, KafkaLogWriter  # noqa: E402

UTC = dt.timezone.utc


@pytest.mark.backend_independent
def test_offset_bounds_are_inclusive_and_the_tightest_wins():
    got = row_filter_of(
        [
            GreaterThan(("offset",), 10),
            GreaterThanOrEqual(("offset",), 5),
            LessThan(("offset",), 100),
            LessThanOrEqual(("offset",), 120),
        ]
    )
    assert (got.min_offset, got.max_offset) == (11, 99)
    assert row_filter_of([EqualTo(("offset",), 42)]) == RowFilter(min_offset=42, max_offset=42)


@pytest.mark.backend_independent
def test_topic_and_partition_sets_intersect():
    got = row_filter_of(
        [
            In(("topic",), ("orders", "payments")),
            EqualTo(("topic",), "orders"),
            In(("partition",), (0, 1, 2)),
            In(("partition",), (2, 3)),
        ]
    )
    assert got.topics == frozenset({"orders"}) and got.partitions == frozenset({2})
    assert row_filter_of([EqualTo(("topic",), "a"), EqualTo(("topic",), "b")]).empty


@pytest.mark.backend_independent
def test_timestamps_become_epoch_milliseconds_rounded_down():
    at = dt.datetime(2024, 5, 1, 12, 0, 0, 123_999, tzinfo=UTC)
    ms = 1_714_564_800_123  # 2024-05-01T12:00:00.123Z
    got = row_filter_of([GreaterThan(("timestamp",), at), LessThanOrEqual(("timestamp",), at)])
    # no +1 for a strict bound: rows in the same millisecond may still match
    assert (got.min_timestamp, got.max_timestamp) == (ms, ms)
    # a naive datetime is the worker's local time, as Spark hands it
    naive = at.astimezone().replace(tzinfo=None)
    assert row_filter_of([EqualTo(("timestamp",), naive)]).min_timestamp == ms


@pytest.mark.backend_independent
def test_filters_the_log_cannot_answer_leave_no_bound():
    unusable = [
        Not(EqualTo(("offset",), 3)),  # negation: no attribute
        LessThan(("partition",), 3),  # only = and IN on partitions
        GreaterThan(("offset",), True),  # a boolean is not an offset
        GreaterThan(("timestamp",), 1_700_000_000),  # not a timestamp literal
        EqualTo(("headers", "key"), "h"),  # a nested field
        IsNotNull(("key",)),
    ]
    assert row_filter_of(unusable) == RowFilter()


@pytest.mark.backend_independent
def test_every_filter_goes_back_to_spark():
    reader = KafkaLogReader({"path": "/nowhere"})
    filters = [EqualTo(("topic",), "t"), IsNotNull(("key",))]
    assert list(reader.pushFilters(filters)) == filters
    assert reader.row_filter.topics == frozenset({"t"})


def _schema(*names):
    return StructType(
        [StructField(n, BinaryType() if n in ("key", "value") else StringType()) for n in names]
    )


@pytest.mark.backend_independent
@pytest.mark.parametrize(
    "options, names, message",
    [
        ({}, ("value",), "needs a path"),
        ({"paths": '["/a", "/b"]'}, ("topic", "value"), "writes to one path"),
        ({"path": "/a"}, ("topic", "key"), "need a 'value' column"),
        ({"path": "/a"}, ("key", "value"), "need a 'topic' column or the 'topic' option"),
        ({"path": "/a", "topic": "t", "compression": "brotli"}, ("value",), "brotli"),
        ({"path": "/a", "topic": "a/b"}, ("value",), r"option topic: invalid Kafka topic name 'a/b'"),
        (
            {"path": "/a", "topic": "t", "partition": "two"},
            ("value",),
            r"option partition: 'two' is not a partition",
        ),
        (
            {"path": "/a", "topic": "t", "partition": "-1"},
            ("value",),
            r"option partition: '-1' is not a partition",
        ),
        ({"path": "/a", "topic": "t", "partition": "2147483648"}, ("value",), "from 0 to 2147483647"),
        (
            {"path": "/a", "topic": "t", "segment_bytes": "1m"},
            ("value",),
            r"no write option 'segment_bytes' \(did you mean 'segmentBytes'\?\)",
        ),
    ],
)
def test_writer_refuses_what_it_cannot_write(options, names, message):
    with pytest.raises(ValueError, match=message):
        KafkaLogWriter(options, _schema(*names), overwrite=False)


@pytest.mark.backend_independent
def test_reader_refuses_an_option_it_does_not_have():
    """An unknown option was ignored: ``isolation_level`` read uncommitted data."""
    for options, message in (
        (
            {"isolation_level": "read_committed"},
            r"no read option 'isolation_level' \(did you mean 'isolationLevel'\?\)",
        ),
        (
            {"verifyCRC": "false", "chunk": "1m"},
            r"'chunk' \(did you mean 'chunkBytes'\?\); its read options: verifyCrc",
        ),
        ({"compression": "zstd"}, "no read option 'compression'"),
    ):
        with pytest.raises(ValueError, match=message):
            KafkaLogReader({"path": "/a", **options})
    # Spark's own spelling, in any case, and the paths Spark adds
    reader = KafkaLogReader({"path": "/a", "paths": "[]", "ISOLATIONLEVEL": "read_committed"})
    assert reader.options.isolation_level == "read_committed"


@pytest.mark.backend_independent
def test_a_directory_without_partition_folders_is_no_empty_log(tmp_path):
    (tmp_path / "logs").mkdir()
    (tmp_path / "logs" / "meta.properties").write_text("version=1\n")
    reader = KafkaLogReader({"path": str(tmp_path / "logs")})
    with pytest.raises(FileNotFoundError, match="no Kafka log in it: looked for partition folders"):
        reader.partitions()
    (tmp_path / "logs" / "dbus-1" / "system.d").mkdir(parents=True)  # named as a partition, not Kafka's
    with pytest.raises(FileNotFoundError, match="no Kafka log in it: looked for partition folders"):
        KafkaLogReader({"path": str(tmp_path / "logs")}).partitions()
    (tmp_path / "logs" / "t-0").mkdir()  # an empty partition is an empty log
    assert [p.value for p in KafkaLogReader({"path": str(tmp_path / "logs")}).partitions()] == [[]]


@pytest.mark.backend_independent
@pytest.mark.parametrize("topic", ["", ".", "..", "a/b", "t\u00e9", "x" * 250])
def test_rows_with_an_invalid_topic_name_are_refused(tmp_path, topic):
    writer = KafkaLogWriter({"path": str(tmp_path)}, _schema("topic", "value"), overwrite=False)
    batch = pa.RecordBatch.from_pydict({"topic": [topic], "value": [b"v"]})
    with pytest.raises(ValueError, match="invalid Kafka topic name"):
        writer.write(iter([batch]))


@pytest.mark.backend_independent
@pytest.mark.parametrize(
    "column, value, message",
    [
        ("topic", 7, r"column topic: 7 is not a string"),
        ("topic", b"t", r"column topic: b't' is not a string"),
        ("partition", "two", r"column partition: 'two' is not a partition number"),
        ("partition", -1, r"column partition: -1 is not a partition number"),
        ("partition", 1.5, r"column partition: 1\.5 is not a partition number"),
        ("partition", 1 << 31, r"column partition: 2147483648 is not a partition number"),
    ],
)
def test_rows_with_a_topic_or_partition_of_the_wrong_kind_are_refused(tmp_path, column, value, message):
    writer = KafkaLogWriter({"path": str(tmp_path), "topic": "t"}, _schema("value"), overwrite=False)
    batch = pa.RecordBatch.from_pydict({column: [value], "value": [b"v"]})
    with pytest.raises(ValueError, match=message):
        writer.write(iter([batch]))


@pytest.mark.backend_independent
def test_a_null_topic_without_the_topic_option_is_refused(tmp_path):
    writer = KafkaLogWriter({"path": str(tmp_path)}, _schema("topic", "value"), overwrite=False)
    batch = pa.RecordBatch.from_pydict({"topic": ["t", None], "value": [b"a", b"b"]})
    with pytest.raises(ValueError, match="null topic"):
        writer.write(iter([batch]))


def _written(path):
    """{(topic, partition): [(offset, key, value, timestamp, headers)]} read by aiokafka."""
    mr = pytest.importorskip("aiokafka.record.memory_records")
    out = {}
    for plog in segments.discover(path):
        rows = out.setdefault((plog.topic, plog.partition), [])
        for seg in plog.segments:
            with open(seg.path, "rb") as f:
                mem = mr.MemoryRecords(f.read())
            while mem.has_next():
                rows += [(r.offset, r.key, r.value, r.timestamp, list(r.headers)) for r in mem.next_batch()]
    return out


def test_write_commit_and_overwrite_outside_spark(tmp_path, backend):
    path = str(tmp_path / "log")
    options = {
        "path": path,
        "topic": "dflt",
        "partition": "1",
        "batchBytes": "200",
        "compression": "gzip",
        "backend": backend,
    }
    schema = _schema("topic", "key", "value")
    ts = pa.array([1_700_000_000_000 + i for i in range(6)], pa.timestamp("ms", tz="UTC"))
    batch = pa.RecordBatch.from_pydict(
        {
            "topic": ["t", None, "t", "t", None, "t"],
            "partition": [0, None, 0, 2, 3, 0],
            "key": ["k0", None, b"k2", "k3", "k4", "k5"],  # str and bytes both accepted
            "value": [b"v" * 80, "v1", b"v" * 90, b"v3", None, b"v5"],
            "headers": [[{"key": "h", "value": b"1"}], None, [], None, None, None],
            "timestamp": ts,
        }
    )
    writer = KafkaLogWriter(options, schema, overwrite=False)
    empty = pa.RecordBatch.from_pydict({"value": pa.array([], pa.binary())})
    writer.commit([writer.write(iter([empty, batch]))])
    assert _written(path) == {
        ("dflt", 1): [(0, None, b"v1", 1_700_000_000_001, [])],
        ("dflt", 3): [(0, b"k4", None, 1_700_000_000_004, [])],
        ("t", 0): [
            (0, b"k0", b"v" * 80, 1_700_000_000_000, [("h", b"1")]),
            (1, b"k2", b"v" * 90, 1_700_000_000_002, []),
            (2, b"k5", b"v5", 1_700_000_000_005, []),
        ],
        ("t", 2): [(0, b"k3", b"v3", 1_700_000_000_003, [])],
    }
    # batchBytes 200: the two large records of t-0 do not share a batch
    t0 = [d for d in segments.discover(path) if (d.topic, d.partition) == ("t", 0)][0]
    assert len(list(scan.scan_headers(t0.segments[0].path))) >= 2
    assert not [n for n in os.listdir(path) if n.startswith("_kafkawire_staging")]

    # overwrite replaces the partition folders; the rows get offsets from 0 again
    again = KafkaLogWriter({"path": path, "topic": "t", "backend": backend}, _schema("value"), overwrite=True)
    one = pa.RecordBatch.from_pydict({"value": [b"only"]})
    again.commit([again.write(iter([one]))])
    assert [(k, [r[:3] for r in v]) for k, v in _written(path).items()] == [(("t", 0), [(0, None, b"only")])]


def test_abort_removes_the_staged_files(tmp_path, backend):
    path = str(tmp_path / "log")
    writer = KafkaLogWriter(
        {"path": path, "topic": "t", "backend": backend}, _schema("value"), overwrite=False
    )
    staged = writer.write(iter([pa.RecordBatch.from_pydict({"value": [b"x"]})]))
    assert all(os.path.exists(f.path) for f in staged.files)
    writer.abort([staged])
    assert not os.path.exists(writer.staging)
    assert os.listdir(path) == []  # no partition folder either
