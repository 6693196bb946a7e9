"""The ``kafka-log`` data source on a real local SparkSession.

Each test runs per backend; the ``kafka_log`` fixture passes the backend to the workers
through the source's ``backend`` option.
"""

from __future__ import annotations

import os

import pytest

pytest.importorskip("pyspark")

from pyspark.sql import functions as F  # noqa: E402

from kafkawire.protocol import records  # noqa: E402
from kafkawire.log import sample, segments  # noqa: E402

pytestmark = pytest.mark.spark

COLUMNS = ["topic", "partition", "offset", "ts", "key", "value", "headers", "compression"]


@pytest.fixture(scope="module")
def sample_log(tmp_path_factory):
    return sample.generate(str(tmp_path_factory.mktemp("spark-sample")))


def _collect(df):
    rows = (
        df.select(
            "topic",
            "partition",
            "offset",
            F.unix_millis("timestamp").alias("ts"),
            "key",
            "value",
            "headers",
            "compression",
        )
        .orderBy("topic", "partition", "offset")
        .collect()
    )
    return [
        (
            r.topic,
            r.partition,
            r.offset,
            r.ts,
            None if r.key is None else bytes(r.key),
            None if r.value is None else bytes(r.value),
            [(h.key, None if h.value is None else bytes(h.value)) for h in r.headers],
            r.compression,
        )
        for r in rows
    ]


def _expected(log, committed=False):
    return sorted(
        (r.topic, r.partition, r.offset, r.timestamp, r.key, r.value, r.headers, r.compression)
        for r in log.records
        if not (committed and r.aborted)
    )


def test_reads_every_record_of_a_log_directory_as_written(kafka_log, sample_log):
    df = kafka_log().load(sample_log.directory)
    assert df.columns[:3] == ["topic", "partition", "offset"]
    assert _collect(df) == _expected(sample_log)


def test_read_committed_removes_the_aborted_transaction(kafka_log, sample_log):
    uncommitted = kafka_log().load(sample_log.directory)
    committed = kafka_log(isolationLevel="read_committed").load(sample_log.directory)
    assert _collect(committed) == _expected(sample_log, committed=True)
    removed = uncommitted.select("topic", "partition", "offset").subtract(
        committed.select("topic", "partition", "offset")
    )
    want = sorted((r.topic, r.partition, r.offset) for r in sample_log.aborted)
    assert sorted(tuple(r) for r in removed.collect()) == want


def test_split_segments_give_the_same_rows_as_unsplit(kafka_log, sample_log):
    plain = kafka_log().load(sample_log.directory)
    split = kafka_log(maxPartitionBytes=20000, chunkBytes=8000).load(sample_log.directory)
    assert split.rdd.getNumPartitions() > plain.rdd.getNumPartitions()
    assert _collect(split) == _collect(plain)


def test_one_partition_folder_and_segment_globs(kafka_log, sample_log):
    folder = os.path.join(sample_log.directory, "orders-2")
    one = kafka_log().load(folder)
    globbed = kafka_log().load(os.path.join(folder, "*.log"))
    want = [r for r in _expected(sample_log) if r[:2] == ("orders", 2)]
    assert _collect(one) == want
    assert _collect(globbed) == want


@pytest.mark.backends("cython")
def test_control_records_on_request(kafka_log, sample_log):
    df = kafka_log(includeControl="true").load(sample_log.directory)
    assert df.where("is_control").count() == sample_log.control_batches


def test_write_then_read_round_trip_with_compression(spark, kafka_log, sample_log, tmp_path, backend):
    src = kafka_log().load(sample_log.directory).where("topic <> 'users'")
    out = str(tmp_path / "written")
    (
        src.select("topic", "partition", "key", "value", "headers", "timestamp")
        .repartition(3)  # rows of one partition spread over tasks
        .write.format("kafka-log")
        .mode("overwrite")
        .option("compression", "zstd")
        .option("batchBytes", "8k")
        .option("backend", backend)
        .save(out)
    )
    assert sorted(os.listdir(out)) == ["orders-0", "orders-1", "orders-2", "payments-0", "payments-1"]
    back = kafka_log().load(out)
    got = back.groupBy("topic", "partition").agg(
        F.count("*").alias("n"),
        F.min("offset").alias("lo"),
        F.max("offset").alias("hi"),
        F.countDistinct("offset").alias("distinct"),
    )
    for r in got.collect():
        assert (r.lo, r.hi, r.distinct) == (0, r.n - 1, r.n)  # contiguous offsets
    assert set(r.compression for r in back.select("compression").distinct().collect()) == {"zstd"}

    def content(df):
        return sorted(
            tuple(r)
            for r in df.select(
                "topic",
                "partition",
                "key",
                "value",
                F.unix_millis("timestamp").alias("ts"),
                F.to_json("headers").alias("h"),
            ).collect()
        )

    assert content(back) == content(src)


@pytest.mark.backends("cython")
def test_append_continues_offsets_and_overwrite_replaces(spark, kafka_log, tmp_path):
    out = str(tmp_path / "log")
    df = spark.createDataFrame([("k%d" % i, "v%d" % i) for i in range(50)], "key string, value string")
    df = df.select(F.col("key").cast("binary").alias("key"), F.col("value").cast("binary").alias("value"))
    df.write.format("kafka-log").mode("overwrite").option("topic", "t").save(out)
    df.write.format("kafka-log").mode("append").option("topic", "t").save(out)
    offsets = [r.offset for r in kafka_log().load(out).orderBy("offset").collect()]
    assert offsets == list(range(100))
    df.limit(5).write.format("kafka-log").mode("overwrite").option("topic", "t").save(out)
    assert kafka_log().load(out).count() == 5
    assert not [n for n in os.listdir(out) if n.startswith("_kafkawire_staging")]


@pytest.mark.backends("cython")
def test_written_segments_decode_in_aiokafka_record_for_record(spark, kafka_log, tmp_path):
    mr = pytest.importorskip("aiokafka.record.memory_records")
    rows = [
        ("pay", i % 2, f"k{i}".encode(), os.urandom(i % 40), i * 1000 + 1_700_000_000_000) for i in range(400)
    ]
    df = spark.createDataFrame(rows, "topic string, partition int, key binary, value binary, ts long").select(
        "topic",
        "partition",
        "key",
        "value",
        F.timestamp_millis("ts").alias("timestamp"),
        F.array(F.struct(F.lit("h").alias("key"), F.col("key").alias("value"))).alias("headers"),
    )
    out = str(tmp_path / "w")
    df.write.format("kafka-log").mode("overwrite").option("compression", "lz4").save(out)
    for plog in segments.discover(out):
        got = []
        for seg in plog.segments:
            with open(seg.path, "rb") as f:
                mem = mr.MemoryRecords(f.read())
            while mem.has_next():
                batch = mem.next_batch()
                got += [(r.key, r.value, r.timestamp, list(r.headers), r.offset) for r in batch]
        want = [(k, v, ts, [("h", k)]) for t, p, k, v, ts in rows if p == plog.partition]
        assert sorted(g[:4] for g in got) == sorted(want)
        assert [g[4] for g in got] == list(range(len(want)))


def test_corrupt_batch_fails_the_query_with_file_and_position(kafka_log, tmp_path):
    data = bytearray(records.encode_batch([{"key": b"k", "value": b"x" * 100, "timestamp": 1}] * 10))
    good = bytes(data)
    data[100] ^= 0x40
    d = tmp_path / "bad-0"
    d.mkdir()
    path = d / segments.segment_name(0)
    path.write_bytes(good + bytes(data))
    with pytest.raises(Exception) as info:
        kafka_log().load(str(tmp_path)).count()
    assert f"{path}: at byte {len(good)}" in str(info.value)
    permissive = kafka_log(mode="PERMISSIVE").load(str(tmp_path))
    assert permissive.where("_corrupt_record IS NOT NULL").count() == 1
    assert kafka_log(mode="DROPMALFORMED").load(str(tmp_path)).count() == 10


def test_a_folder_that_is_not_kafkas_fails_the_query_naming_what_was_looked_for(kafka_log, tmp_path):
    etc = tmp_path / "etc"  # as /etc: folders named as partitions are, holding other things
    (etc / "dbus-1" / "system.d").mkdir(parents=True)
    (etc / "polkit-1" / "rules.d").mkdir(parents=True)
    with pytest.raises(Exception) as info:
        kafka_log().load(str(etc)).collect()
    assert (
        f"LogNotFoundError: {etc}: no Kafka log in it: looked for partition folders named "
        "<topic>-<partition> holding segment files (<base offset>.log), or segment files"
    ) in str(info.value)
    (etc / "orders-0").mkdir()  # an empty partition beside them: an empty log
    assert kafka_log().load(str(etc)).count() == 0


def test_truncated_and_garbage_segments_name_the_file(kafka_log, tmp_path):
    batch = records.encode_batch([{"value": b"v" * 50, "timestamp": 5}] * 3)
    d = tmp_path / "t-0"
    d.mkdir()
    path = d / segments.segment_name(0)
    path.write_bytes(batch + batch[:-10])
    with pytest.raises(Exception) as info:
        kafka_log().load(str(tmp_path)).collect()
    assert f"{path}: at byte {len(batch)}" in str(info.value) and "truncated" in str(info.value)
    path.write_bytes(b"\x00garbage" * 100)
    with pytest.raises(Exception) as info:
        kafka_log().load(str(tmp_path)).collect()
    assert f"{path}: at byte 0" in str(info.value)


@pytest.mark.parametrize(
    "condition, unpushable",
    [
        (
            "topic = 'orders' and partition in (0, 2)",
            "concat(topic, '') = 'orders' and partition + 0 in (0, 2)",
        ),
        (
            "partition = 1 and offset between 300 and 700",
            "partition + 0 = 1 and offset + 0 between 300 and 700",
        ),
        ("offset > 1500 or offset < 10", "offset + 0 > 1500 or offset + 0 < 10"),
        ("timestamp >= timestamp_millis({late})", "unix_millis(timestamp) >= {late}"),
        (
            "timestamp < timestamp_millis({early}) and topic = 'payments'",
            "unix_millis(timestamp) < {early} and concat(topic, '') = 'payments'",
        ),
    ],
)
def test_pushed_down_filters_give_the_rows_spark_alone_gives(kafka_log, sample_log, condition, unpushable):
    """The same predicate once in a form the source can use and once in a form only
    Spark evaluates (an expression on the column is never pushed down)."""
    late = sample.BASE_TIMESTAMP + 35_000
    early = sample.BASE_TIMESTAMP + 70_000
    for isolation in ("read_uncommitted", "read_committed"):
        df = kafka_log(isolationLevel=isolation).load(sample_log.directory)
        pushed = _collect(df.where(condition.format(late=late, early=early)))
        alone = _collect(df.where(unpushable.format(late=late, early=early)))
        assert pushed == alone
        assert pushed  # the predicates select something


def test_small_segments_are_packed_into_few_spark_partitions(kafka_log, sample_log):
    df = kafka_log(minPartitions=2).load(sample_log.directory)
    assert df.rdd.getNumPartitions() <= 4
    assert df.count() == len(sample_log.records)


@pytest.mark.parametrize(
    "columns",
    [
        "offset bigint, value binary",
        "value binary, topic string, `partition` int, offset bigint, headers "
        "array<struct<key:string,value:binary>>, is_control boolean",
        "timestamp timestamp, offset bigint, key binary",
    ],
)
def test_a_schema_of_some_columns_gives_those_columns_of_the_same_rows(kafka_log, sample_log, columns):
    """A schema naming some of the columns (Spark's only way to tell a Python source
    what a query reads) gives exactly those columns of the rows the full read gives,
    with and without a pushed-down filter, in both isolation levels."""
    for isolation in ("read_uncommitted", "read_committed"):
        full = kafka_log(isolationLevel=isolation).load(sample_log.directory)
        pruned = kafka_log(isolationLevel=isolation).schema(columns).load(sample_log.directory)
        names = pruned.columns
        assert len(names) == len(columns.split(", "))
        for cond in (
            "true",
            "partition = 1 and offset between 300 and 700",
            f"timestamp >= timestamp_millis({sample.BASE_TIMESTAMP + 35_000})",
        ):
            if "partition" in cond and "partition" not in names:
                cond = "offset between 300 and 700"
            if "timestamp" in cond and "timestamp" not in names:
                continue
            want = full.where(cond).select(*names).orderBy(*names).collect()
            got = pruned.where(cond).orderBy(*names).collect()
            assert got == want and got


def test_a_schema_with_an_unknown_column_or_type_names_it(kafka_log, sample_log):
    from pyspark.errors import PySparkException

    for schema, word in (("offset bigint, nope int", "nope"), ("offset int", "bigint")):
        with pytest.raises(PySparkException, match=word):
            kafka_log().schema(schema).load(sample_log.directory).collect()


def test_an_option_kafka_log_does_not_have_fails_the_query(kafka_log, sample_log):
    from pyspark.errors import PySparkException

    committed = kafka_log(isolationLevel="read_committed").load(sample_log.directory).count()
    assert committed == len(sample_log.records) - len(sample_log.aborted)
    with pytest.raises(PySparkException, match="did you mean 'isolationLevel'"):
        kafka_log(isolation_level="read_committed").load(sample_log.directory).count()
