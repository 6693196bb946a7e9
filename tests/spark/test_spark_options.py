"""The options of every Spark source and sink: one checker of names for all of them (a
misspelt option is a :class:`kafkawire.errors.OptionError` naming the option meant, on
``kafka-log`` reads and writes and ``kafka-cluster`` reads, writes and streams), and a
query's options parsed once on the driver.

The driver-side calls are made as PySpark's ``sql/worker`` modules make them: the source is made and asked for its schema in one Python worker,
pickled, and asked for its reader or writer in another; the misspellings are drawn at
random (``KAFKAWIRE_OPTIONS_SEED`` replays a draw)."""

from __future__ import annotations

import os
import pickle
import random
import re

import pytest

pytest.importorskip("pyspark")
pytest.importorskip("pyarrow")

from pyspark.sql.datasource import CaseInsensitiveDict  # noqa: E402
from pyspark.sql.pandas.types import from_arrow_schema  # noqa: E402
from pyspark.sql.types import BinaryType, StringType, StructField, StructType  # noqa: E402

from kafkawire import datasource_options, kafka_settings  # noqa: E402
from kafkawire.cluster import fetch, plan  # noqa: E402
from kafkawire.errors import OptionError  # noqa: E402
from kafkawire.log import read_options  # noqa: E402
from kafkawire.spark import kafka_cluster, kafka_log  # noqa: E402

SEED = int(os.environ.get("KAFKAWIRE_OPTIONS_SEED", random.randrange(1 << 32)))

CLUSTER = {"kafka.bootstrap.servers": "127.0.0.1:9", "subscribe": "t"}
ROWS = StructType([StructField("topic", StringType()), StructField("value", BinaryType())])


def _log_columns():
    return from_arrow_schema(read_options.read_schema(read_options.ReadOptions(), pruned=False))


def _cluster_columns():
    return from_arrow_schema(fetch.fetched_schema(False))


#: each source and sink: its data source, options it is given besides the misspelt one,
#: what Spark calls on the driver for it, and the names a misspelling is drawn from
USES = {
    "kafka-log read": (
        kafka_log.KafkaLogDataSource,
        {"path": "/nowhere"},
        lambda source: source.reader(_log_columns()),
        datasource_options.KAFKA_LOG_READ,
    ),
    "kafka-log write": (
        kafka_log.KafkaLogDataSource,
        {"path": "/nowhere", "topic": "t"},
        lambda source: source.writer(ROWS, False),
        datasource_options.KAFKA_LOG_WRITE,
    ),
    "kafka-cluster read": (
        kafka_cluster.KafkaClusterDataSource,
        CLUSTER,
        lambda source: source.reader(_cluster_columns()),
        datasource_options.KAFKA_CLUSTER_READ,
    ),
    "kafka-cluster load": (  # load() asks the schema, before Spark says batch or stream
        kafka_cluster.KafkaClusterDataSource,
        CLUSTER,
        lambda source: source.schema(),
        datasource_options.KAFKA_CLUSTER_READ,
    ),
    "kafka-cluster write": (
        kafka_cluster.KafkaClusterDataSource,
        {"kafka.bootstrap.servers": "127.0.0.1:9"},
        lambda source: source.writer(ROWS, False),
        datasource_options.KAFKA_CLUSTER_WRITE,
    ),
    "kafka-cluster stream read": (
        kafka_cluster.KafkaClusterDataSource,
        CLUSTER,
        lambda source: source.streamReader(_cluster_columns()),
        datasource_options.KAFKA_CLUSTER_READ,
    ),
    "kafka-cluster stream write": (
        kafka_cluster.KafkaClusterDataSource,
        {"kafka.bootstrap.servers": "127.0.0.1:9", "checkpointLocation": "/nowhere"},
        lambda source: source.streamWriter(ROWS, False),
        datasource_options.KAFKA_CLUSTER_WRITE,
    ),
}


def _misspell(rng: random.Random, name: str) -> str:
    """``name`` with one letter dropped, doubled or swapped with the next."""
    i = rng.randrange(1, len(name) - 2)
    return rng.choice(
        [
            name[:i] + name[i + 1 :],
            name[:i] + name[i] + name[i:],
            name[:i] + name[i + 1] + name[i] + name[i + 2 :],
        ]
    )


def _meant(message: str) -> str:
    found = re.search(r"did you mean '?([^'?]+)'?\?", message)
    assert found, message
    return found.group(1)


@pytest.mark.parametrize("use", sorted(USES))
@pytest.mark.parametrize("draw", range(3))
def test_a_misspelt_option_is_one_error_naming_the_option_meant(backend, use, draw):
    cls, given, call, table = USES[use]
    rng = random.Random(f"{SEED}-{use}-{draw}")
    cluster = cls is kafka_cluster.KafkaClusterDataSource
    names = [o.name for o in table if len(o.name) > 6]
    settings = kafka_settings.CONSUMER if "read" in use or "load" in use else kafka_settings.PRODUCER
    if cluster and rng.random() < 0.5:  # a kafka. setting of the client this side runs
        names = [f"kafka.{n}" for n in sorted(settings) if len(n) > 10]
    name = rng.choice(names)
    wrong = _misspell(rng, name)
    taken = {n.lower() for n in datasource_options.names(table)} | {f"kafka.{n}" for n in settings}
    if wrong.lower() in taken:  # the misspelling is another option's name
        return
    source = cls(CaseInsensitiveDict({**given, "backend": backend, wrong: "1"}))
    with pytest.raises(OptionError) as raised:
        call(source)
    message = str(raised.value)
    assert wrong.lower() in message.lower(), (SEED, message)
    meant = _meant(message)
    every = kafka_settings.CONSUMER | kafka_settings.PRODUCER
    assert meant in datasource_options.names(table) or (
        meant.startswith("kafka.") and meant[len("kafka.") :] in every
    ), (SEED, wrong, message)
    # the same error class, and words, whichever the source
    assert isinstance(raised.value, ValueError)


def _as_spark_plans(cls, options, call, monkeypatch, parsers):
    """How many times ``parsers`` run while Spark's driver makes ``cls``'s source of
    ``options`` in one worker (schema), and ``call``s its copy in another."""
    counted = []
    for owner in parsers:
        parse = owner.parse.__func__

        def counting(klass, *args, _parse=parse, **kwargs):
            counted.append(klass)
            return _parse(klass, *args, **kwargs)

        monkeypatch.setattr(owner, "parse", classmethod(counting))
    source = cls(CaseInsensitiveDict(options))
    source.schema()  # create_data_source.py
    copy = pickle.loads(pickle.dumps(source))  # to plan_data_source_read.py (or the filters' worker)
    made = call(copy)
    pickle.loads(pickle.dumps(made))  # the reader or writer goes to the tasks
    return len(counted)


@pytest.mark.parametrize(
    "cls, options, call, parsers",
    [
        (
            kafka_log.KafkaLogDataSource,
            {"path": "/nowhere", "mode": "PERMISSIVE"},
            lambda s: s.reader(_log_columns().add("_corrupt_record", StringType())),
            [read_options.ReadOptions],
        ),
        (
            kafka_cluster.KafkaClusterDataSource,
            CLUSTER,
            lambda s: s.reader(_cluster_columns()),
            [plan.ClusterReadOptions],
        ),
        (
            kafka_cluster.KafkaClusterDataSource,
            {**CLUSTER, "startingOffsets": "latest"},
            lambda s: s.streamReader(_cluster_columns()),
            [plan.ClusterReadOptions],
        ),
    ],
    ids=["kafka-log read", "kafka-cluster read", "kafka-cluster stream"],
)
def test_a_querys_options_are_parsed_once_on_the_driver(backend, monkeypatch, cls, options, call, parsers):
    assert _as_spark_plans(cls, {**options, "backend": backend}, call, monkeypatch, parsers) == 1


def test_a_stream_from_the_latest_offsets_loads(backend):
    """``startingOffsets`` ``latest`` is a stream's (a batch read refuses it): asked for
    the schema before it knows which the query is, the source must not refuse it."""
    source = kafka_cluster.KafkaClusterDataSource(
        CaseInsensitiveDict({**CLUSTER, "startingOffsets": "latest", "backend": backend})
    )
    assert "`value` binary" in source.schema()
    reader = pickle.loads(pickle.dumps(source)).streamReader(_cluster_columns())
    assert reader.options.starting == ("latest",)
    with pytest.raises(ValueError, match="'latest' is not allowed for batch reads"):
        pickle.loads(pickle.dumps(source)).reader(_cluster_columns())


def test_spark_loads_a_stream_from_the_latest_offsets_and_refuses_a_misspelt_option(spark, backend):
    from pyspark.errors import PySparkException

    def stream(**extra):
        reader = spark.readStream.format("kafka-cluster").option("backend", backend)
        for k, v in {**CLUSTER, **extra}.items():
            reader = reader.option(k, v)
        return reader.load()

    assert "value" in stream(startingOffsets="latest").columns
    with pytest.raises(PySparkException, match="did you mean maxOffsetsPerTrigger"):
        stream(maxOffsetPerTrigger="10")
