"""The ``keyFormat``/``valueFormat`` read options of ``kafka-cluster`` and ``kafka-log``:
keys and values written by confluent-kafka's own serializers through the test registry
to the session's Kafka 4.4 broker arrive typed, decoded in the read's tasks.

The rows equal ``from_registry``'s on the same bytes and those of the independent
oracle, Spark's own ``from_avro`` (spark-avro from Maven Central) on the bytes past the
5-byte header, each writer version read as the reader schema with its ``avroSchema``
option; JSON Schema and Protobuf values equal ``from_registry``'s. Corrupt values (a
bad magic byte, a truncated body, an unknown schema id) fail the query naming their
topic, partition and offset, or give a null and the reason in ``PERMISSIVE`` mode.
"""

from __future__ import annotations

import base64
import json
import uuid

import pytest

from support.avro_shapes import ORDER, order
from support.schema_registry import RegistryServer
from test_spark_kafka_cluster import create_topic, produce

pytest.importorskip("pyarrow")
pytestmark = [pytest.mark.kafka, pytest.mark.spark]

# version 2 of the orders: a field more, with a default for the values of version 1
ORDER_V2 = json.loads(json.dumps(ORDER))
ORDER_V2["fields"].append({"name": "channel", "type": "string", "default": "web"})
KEY = {
    "type": "record",
    "name": "OrderKey",
    "namespace": "shop",
    "fields": [{"name": "id", "type": "long"}, {"name": "region", "type": "string"}],
}
# a reader schema of a few fields: only these are decoded
FEW = {
    "type": "record",
    "name": "Order",
    "namespace": "shop",
    "fields": [
        {"name": "order_id", "type": "long"},
        {"name": "channel", "type": "string", "default": "none"},
        {"name": "sku", "type": "string"},
    ],
}
PARTITIONS = 2
GOOD = 60  # orders in the typed topic: the first half written with version 1
BAD = {3: "magic byte 1, expected 0", 5: "ends", 7: "schema id 99999"}  # offset -> reason


def _serializer(url, schema, topic, field):
    from confluent_kafka.schema_registry import SchemaRegistryClient as ConfluentClient
    from confluent_kafka.schema_registry.avro import AvroSerializer
    from confluent_kafka.serialization import MessageField, SerializationContext

    write = AvroSerializer(ConfluentClient({"url": url}), json.dumps(schema))
    ctx = SerializationContext(topic, MessageField.KEY if field == "key" else MessageField.VALUE)
    return lambda value: write(value, ctx)


@pytest.fixture(scope="module")
def registry():
    from kafkawire.registry.client import clear_cache

    clear_cache()
    with RegistryServer() as server:
        yield server


@pytest.fixture(scope="module")
def topics(kafka_broker, registry):
    """Two topics: ``typed``, framed keys and values of two writer versions over two
    partitions; ``corrupt``, one partition of framed values with the corrupt ones of
    ``BAD`` among them."""
    boot = kafka_broker.bootstrap_servers
    typed, corrupt = (f"kw-{what}-{uuid.uuid4().hex[:8]}" for what in ("typed", "corrupt"))
    create_topic(boot, typed, PARTITIONS)
    create_topic(boot, corrupt, 1)
    v1 = _serializer(registry.url, ORDER, typed, "value")
    v2 = _serializer(registry.url, ORDER_V2, typed, "value")
    key = _serializer(registry.url, KEY, typed, "key")
    records = []
    for i in range(GOOD):
        value = v1(order(i)) if i < GOOD // 2 else v2({**order(i), "channel": f"c{i % 3}"})
        records.append((i % PARTITIONS, key({"id": i, "region": f"r{i % 4}"}), value, []))
    records.append((0, None, None, []))  # a tombstone: null key, null value
    produce(boot, typed, records)
    good = _serializer(registry.url, ORDER, corrupt, "value")
    values = [good(order(i)) for i in range(10)]
    values[3] = b"\x01" + values[3][1:]
    values[5] = values[5][:12]
    values[7] = b"\x00" + (99999).to_bytes(4, "big") + values[7][5:]
    produce(boot, corrupt, [(0, None, v, []) for v in values])
    return {"typed": typed, "corrupt": corrupt, "bootstrap": boot}


def _cluster(spark, topics, backend, topic="typed", schema=None, **options):
    reader = (
        spark.read.format("kafka-cluster")
        .option("kafka.bootstrap.servers", topics["bootstrap"])
        .option("subscribe", topics[topic])
        .option("backend", backend)
    )
    for k, v in options.items():
        reader = reader.option(k, v)
    return (reader if schema is None else reader.schema(schema)).load()


def _with_spark_avro(spark):
    from support.kafka.jars import KafkaUnavailable
    from support.kafka.spark_avro import spark_avro_jar

    try:
        jar = spark_avro_jar()
    except KafkaUnavailable as exc:
        pytest.skip(f"spark-avro cannot be fetched: {exc}")
    spark.sql(f"ADD JAR '{jar}'")


def _from_avro_rows(spark, rows, column, reader_schema, writers):
    """Spark's from_avro of each row's ``column`` past its header, by its writer id's
    schema (``writers``) read as ``reader_schema``: {(partition, offset): row}."""
    from pyspark.sql import functions as F
    from pyspark.sql.avro.functions import from_avro

    out = {}
    for writer_id, writer in writers.items():
        mine = [
            (r.partition, r.offset, bytes(r[column]))
            for r in rows
            if r[column] is not None and int.from_bytes(bytes(r[column])[1:5], "big") == writer_id
        ]
        if not mine:
            continue
        df = spark.createDataFrame(mine, "partition int, offset bigint, raw binary")
        body = F.expr("substring(raw, 6, length(raw) - 5)")
        options = {"avroSchema": json.dumps(reader_schema)}
        decoded = df.select("partition", "offset", from_avro(body, json.dumps(writer), options).alias("v"))
        out.update({(r.partition, r.offset): r.v for r in decoded.collect()})
    return out


def _writer_ids(registry, subject):
    from kafkawire.registry import SchemaRegistryClient

    client = SchemaRegistryClient(registry.url)
    return {
        client.schema_version(subject, v).schema_id: json.loads(client.schema_version(subject, v).schema)
        for v in client.subject_versions(subject)
    }


def test_kafka_cluster_keys_and_values_arrive_typed_as_from_registry_and_from_avro_read_them(
    spark, registry, topics, backend
):
    from kafkawire.spark.functions import from_registry

    _with_spark_avro(spark)
    typed = _cluster(
        spark,
        topics,
        backend,
        valueFormat="avro",
        keyFormat="avro",
        **{"schema.registry.url": registry.url},
    )
    value_type = typed.schema["value"].dataType
    assert [f.name for f in value_type.fields] == [f["name"] for f in ORDER_V2["fields"]]
    assert typed.schema["key"].dataType.simpleString() == "struct<id:bigint,region:string>"
    rows = {(r.partition, r.offset): r for r in typed.collect()}
    assert len(rows) == GOOD + 1

    raw = _cluster(spark, topics, backend)
    ours = raw.select(
        "partition",
        "offset",
        from_registry("value", registry.url, topic=topics["typed"]).alias("value"),
        from_registry("key", registry.url, topic=topics["typed"], is_key=True).alias("key"),
    )
    udf_rows = {(r.partition, r.offset): r for r in ours.collect()}
    raw_rows = raw.collect()
    writers = _writer_ids(registry, f"{topics['typed']}-value")
    assert len(writers) == 2  # several writer ids in one read
    values = _from_avro_rows(spark, raw_rows, "value", ORDER_V2, writers)
    keys = _from_avro_rows(spark, raw_rows, "key", KEY, _writer_ids(registry, f"{topics['typed']}-key"))
    for where, row in rows.items():
        assert row.value == udf_rows[where].value and row.key == udf_rows[where].key, where
        assert row.value == values.get(where) and row.key == keys.get(where), where
    channels = {r.value.channel for r in rows.values() if r.value is not None}
    assert channels == {"web", "c0", "c1", "c2"}  # version 1's values take the default


def test_a_reader_schema_of_a_few_fields_decodes_only_those(spark, registry, topics, backend):
    _with_spark_avro(spark)
    few = _cluster(
        spark,
        topics,
        backend,
        valueFormat="avro",
        valueReaderSchema=json.dumps(FEW),
        **{"schema.registry.url": registry.url},
    )
    assert few.schema["value"].dataType.simpleString() == "struct<order_id:bigint,channel:string,sku:string>"
    got = {(r.partition, r.offset): r.value for r in few.collect()}
    raw_rows = _cluster(spark, topics, backend).collect()
    want = _from_avro_rows(spark, raw_rows, "value", FEW, _writer_ids(registry, f"{topics['typed']}-value"))
    assert {k: v for k, v in got.items() if v is not None} == want
    assert len(want) == GOOD and {v.channel for v in want.values()} == {"none", "c0", "c1", "c2"}


# the value and key fields a query's schema names (nested ones too, in an order of its own)
NARROW_VALUE = (
    "struct<sku: string, order_id: bigint, address: struct<zip: string, city: string>, channel: string>"
)
NARROW = f"partition int, offset bigint, value {NARROW_VALUE}, key struct<region: string>"
# the reader schema ORDER_V2 keeps for them: what Spark's from_avro is given
NARROW_AVRO = {
    "type": "record",
    "name": "Order",
    "namespace": "shop",
    "fields": [
        {"name": "sku", "type": "string"},
        {"name": "order_id", "type": "long"},
        {
            "name": "address",
            "type": {
                "type": "record",
                "name": "Address",
                "fields": [{"name": "zip", "type": "string"}, {"name": "city", "type": "string"}],
            },
        },
        {"name": "channel", "type": "string", "default": "web"},
    ],
}


def _narrowed(row, names):
    """``row`` (a struct) keeping ``names``' fields, in that order: {field: value or dict}."""
    if row is None:
        return None
    return {
        n: _narrowed(row[n], sub) if isinstance(sub, tuple) else row[n]
        for n, sub in (x if isinstance(x, tuple) else (x, None) for x in names)
    }


def test_a_schema_of_a_few_value_fields_decodes_only_those_in_both_sources(
    spark, registry, topics, backend, kafka_broker
):
    from pyspark.sql.types import StructType

    from kafkawire.spark.kafka_cluster import KafkaClusterDataSource

    _with_spark_avro(spark)
    options = {"valueFormat": "avro", "keyFormat": "avro", "schema.registry.url": registry.url}
    narrow = _cluster(spark, topics, backend, schema=NARROW, **options)
    assert narrow.schema["value"].dataType.simpleString() == NARROW_VALUE.replace(" ", "")
    got = {(r.partition, r.offset): r for r in narrow.collect()}
    full = {(r.partition, r.offset): r for r in _cluster(spark, topics, backend, **options).collect()}
    assert got.keys() == full.keys() and len(got) == GOOD + 1
    fields = ("sku", "order_id", ("address", ("zip", "city")), "channel")
    for where, row in got.items():
        assert _narrowed(row.value, fields) == _narrowed(full[where].value, fields), where
        assert _narrowed(row.key, ("region",)) == _narrowed(full[where].key, ("region",)), where
    raw_rows = _cluster(spark, topics, backend).collect()
    want = _from_avro_rows(
        spark, raw_rows, "value", NARROW_AVRO, _writer_ids(registry, f"{topics['typed']}-value")
    )
    assert {k: r.value for k, r in got.items() if r.value is not None} == want
    assert {v.channel for v in want.values()} == {"web", "c0", "c1", "c2"}
    # valueFormat registry, whose reader schema is Avro here, narrows alike
    registry_options = {**options, "valueFormat": "registry", "keyFormat": "registry"}
    by_type = _cluster(spark, topics, backend, schema=NARROW, **registry_options)
    assert {(r.partition, r.offset): r for r in by_type.collect()} == got

    # the tasks decode by a reader schema of those fields only
    source = KafkaClusterDataSource(
        {"kafka.bootstrap.servers": topics["bootstrap"], "subscribe": topics["typed"], **options}
    )
    reader = source.reader(StructType.fromDDL(NARROW))
    reader_schema = json.loads(reader.formats.value.format.reader_schema)
    assert [f["name"] for f in reader_schema["fields"]] == ["sku", "order_id", "address", "channel"]
    assert json.loads(reader.formats.key.format.reader_schema)["fields"] == [
        {"name": "region", "type": "string", "aliases": []}
    ]

    path = f"{kafka_broker.log_dir}/{topics['typed']}-*"
    log = spark.read.format("kafka-log").option("backend", backend).options(**options).schema(NARROW)
    assert {(r.partition, r.offset): r for r in log.load(path).collect()} == got


def test_a_schema_field_the_reader_schema_lacks_or_types_otherwise_fails_naming_it(
    spark, registry, topics, backend, kafka_broker
):
    options = {"valueFormat": "avro", "schema.registry.url": registry.url}
    path = f"{kafka_broker.log_dir}/{topics['typed']}-*"
    cases = {
        "value struct<order_id: bigint, totl: decimal(12,2)>": "the schema's value.totl: the reader schema has no field 'totl'",
        "value struct<total: string>": r"the schema's value.total is string, the reader schema's is decimal\(12, 2\)",
        "value struct<address: struct<city: int>>": "the schema's value.address.city is int, the reader schema's is string",
    }
    for ddl, message in cases.items():
        with pytest.raises(Exception, match=message):
            _cluster(spark, topics, backend, schema=ddl, **options).collect()
        log = spark.read.format("kafka-log").option("backend", backend).options(**options).schema(ddl)
        with pytest.raises(Exception, match=message):
            log.load(path).collect()
    # with a reader schema of a few fields, the schema narrows that one
    few = {**options, "valueReaderSchema": json.dumps(FEW)}
    rows = _cluster(
        spark, topics, backend, schema="offset bigint, value struct<sku: string>", **few
    ).collect()
    assert sorted(r.value.sku for r in rows if r.value) == sorted(order(i)["sku"] for i in range(GOOD))
    with pytest.raises(Exception, match="the schema's value.title: the reader schema has no field 'title'"):
        _cluster(spark, topics, backend, schema="value struct<title: string>", **few).collect()


def test_corrupt_values_fail_naming_where_or_give_a_null_and_the_reason(spark, registry, topics, backend):
    from pyspark.errors import PythonException

    options = {"valueFormat": "avro", "schema.registry.url": registry.url}
    topic = topics["corrupt"]
    with pytest.raises(PythonException) as failed:
        _cluster(spark, topics, backend, "corrupt", **options).collect()
    assert f"BadMagicByteError: topic {topic}, partition 0, offset 3: value: magic byte 1" in str(
        failed.value
    )

    permissive = _cluster(spark, topics, backend, "corrupt", mode="PERMISSIVE", **options)
    assert permissive.columns[-1] == "_corrupt_record"
    rows = sorted(permissive.collect(), key=lambda r: r.offset)
    assert len(rows) == 10
    for row in rows:
        if row.offset in BAD:
            assert row.value is None
            assert row._corrupt_record.startswith(f"value: topic {topic}, partition 0, offset {row.offset}: ")
            assert BAD[row.offset] in row._corrupt_record
        else:
            assert row.value.order_id == order(row.offset)["order_id"] and row._corrupt_record is None
    named = _cluster(
        spark, topics, backend, "corrupt", mode="PERMISSIVE", columnNameOfCorruptRecord="why", **options
    )
    assert named.where("why is not null").count() == len(BAD)
    dropped = _cluster(spark, topics, backend, "corrupt", mode="DROPMALFORMED", **options)
    assert sorted(r.offset for r in dropped.collect()) == [o for o in range(10) if o not in BAD]


def test_kafka_log_reads_the_brokers_log_directory_typed_as_kafka_cluster_does(
    spark, registry, topics, backend, kafka_broker
):
    from kafkawire.errors import OptionError
    from kafkawire.spark.kafka_log import KafkaLogDataSource

    options = {"valueFormat": "avro", "keyFormat": "avro", "schema.registry.url": registry.url}
    cluster = {(r.partition, r.offset): r for r in _cluster(spark, topics, backend, **options).collect()}
    path = f"{kafka_broker.log_dir}/{topics['typed']}-*"
    log = spark.read.format("kafka-log").option("backend", backend).options(**options).load(path)
    assert (
        log.schema["value"].dataType == _cluster(spark, topics, backend, **options).schema["value"].dataType
    )
    got = {(r.partition, r.offset): r for r in log.select("partition", "offset", "key", "value").collect()}
    assert got.keys() == cluster.keys()
    assert all(got[k].value == cluster[k].value and got[k].key == cluster[k].key for k in got)
    # only the columns a schema names are handed over, the value still decoded
    ddl = "offset bigint, value " + log.schema["value"].dataType.simpleString()
    pruned = spark.read.format("kafka-log").option("backend", backend).options(**options).schema(ddl)
    assert sorted(r.value.order_id for r in pruned.load(path).collect() if r.value) == sorted(
        r.value.order_id for r in cluster.values() if r.value
    )
    # a log directory of many topics has no one subject under the topic strategy
    with pytest.raises(OptionError, match="valueSubject, valueSchemaId or valueReaderSchema"):
        KafkaLogDataSource({"path": str(kafka_broker.log_dir), **options, "keyFormat": "binary"}).schema()


def _streamed(spark, topics, backend, out, schema=None, **options):
    """``topics``' typed topic streamed to parquet under ``out`` in micro-batches of 25
    records: what was written."""
    reader = (
        spark.readStream.format("kafka-cluster")
        .option("kafka.bootstrap.servers", topics["bootstrap"])
        .option("subscribe", topics["typed"])
        .option("startingOffsets", "earliest")
        .option("maxOffsetsPerTrigger", "25")
        .option("backend", backend)
        .options(**options)
    )
    query = (
        (reader if schema is None else reader.schema(schema))
        .load()
        .writeStream.format("parquet")
        .option("path", str(out / "out"))
        .option("checkpointLocation", str(out / "checkpoint"))
        .trigger(availableNow=True)
        .start()
    )
    assert query.awaitTermination(300)
    assert query.exception() is None
    assert len([p for p in query.recentProgress if p["numInputRows"]]) >= 2
    return spark.read.parquet(str(out / "out"))


def test_a_stream_reads_typed_values_micro_batch_by_micro_batch(spark, registry, topics, tmp_path, backend):
    options = {"valueFormat": "avro", "schema.registry.url": registry.url}
    written = _streamed(spark, topics, backend, tmp_path, **options)
    assert written.schema["value"].dataType.simpleString().startswith("struct<order_id:bigint,")
    streamed = {(r.partition, r.offset): r.value for r in written.collect()}
    batch = {(r.partition, r.offset): r.value for r in _cluster(spark, topics, backend, **options).collect()}
    assert streamed == batch and len(batch) == GOOD + 1


def test_a_stream_with_a_schema_of_a_few_fields_decodes_only_those(
    spark, registry, topics, tmp_path, backend
):
    options = {"valueFormat": "avro", "keyFormat": "avro", "schema.registry.url": registry.url}
    written = _streamed(spark, topics, backend, tmp_path, NARROW, **options)
    assert written.schema["value"].dataType.simpleString() == NARROW_VALUE.replace(" ", "")
    streamed = {(r.partition, r.offset): r for r in written.collect()}
    assert streamed == {
        (r.partition, r.offset): r
        for r in _cluster(spark, topics, backend, schema=NARROW, **options).collect()
    }


# a JSON Schema of the types JSON values take, a nullable one and a nested object among them
JSON_ORDER = {
    "$schema": "http://json-schema.org/draft-07/schema#",
    "type": "object",
    "properties": {
        "id": {"type": "integer"},
        "customer": {"type": "string"},
        "total": {"type": "number"},
        "paid": {"type": "boolean"},
        "coupon": {"type": ["string", "null"]},
        "tags": {"type": "array", "items": {"type": "string"}},
        "address": {"type": "object", "properties": {"city": {"type": "string"}}},
    },
    "required": ["id"],
}


def _json_order(i):
    return {
        "id": i,
        "customer": f"c{i}",
        "total": i * 1.25,
        "paid": i % 2 == 0,
        "coupon": None if i % 3 else f"SAVE{i}",
        "tags": [f"t{j}" for j in range(i % 3)],
        "address": {"city": f"city {i}"},
    }


def test_json_schema_and_protobuf_values_arrive_as_from_registry_reads_them(
    spark, registry, kafka_broker, backend
):
    pytest.importorskip("jsonschema")
    pytest.importorskip("grpc_tools")
    from confluent_kafka.schema_registry import Schema
    from confluent_kafka.schema_registry import SchemaRegistryClient as ConfluentClient
    from confluent_kafka.schema_registry.json_schema import JSONSerializer
    from confluent_kafka.schema_registry.protobuf import ProtobufSerializer
    from confluent_kafka.serialization import MessageField, SerializationContext

    from kafkawire.spark.functions import from_registry
    from support.protobuf_shapes import build

    boot = kafka_broker.bootstrap_servers
    client = ConfluentClient({"url": registry.url})
    json_topic, proto_topic = (f"kw-{what}-{uuid.uuid4().hex[:8]}" for what in ("json", "proto"))
    for topic in (json_topic, proto_topic):
        create_topic(boot, topic, 1)
    write_json = JSONSerializer(Schema(json.dumps(JSON_ORDER), "JSON"), client)
    ctx = SerializationContext(json_topic, MessageField.VALUE)
    produce(boot, json_topic, [(0, None, write_json(_json_order(i), ctx), []) for i in range(20)])
    _, proto, _, _ = build()
    write_proto = ProtobufSerializer(proto.Order, client, {"use.deprecated.format": False})
    ctx = SerializationContext(proto_topic, MessageField.VALUE)
    orders = [
        proto.Order(i64=i, name=f"order {i}", tags=[f"t{j}" for j in range(i % 3)], counts={"a": i})
        for i in range(20)
    ]
    produce(boot, proto_topic, [(0, None, write_proto(m, ctx), []) for m in orders])
    for topic, kinds in ((json_topic, ("json", "registry")), (proto_topic, ("protobuf", "registry"))):
        where = {"t": topic, "bootstrap": boot}
        want = _cluster(spark, where, backend, "t").select(
            "offset", from_registry("value", registry.url, topic=topic).alias("value")
        )
        want_rows = sorted(want.collect())
        assert len(want_rows) == 20 and all(r.value is not None for r in want_rows)
        for kind in kinds:
            typed = _cluster(
                spark, where, backend, "t", valueFormat=kind, **{"schema.registry.url": registry.url}
            )
            assert typed.schema["value"] == want.schema["value"], (topic, kind)
            assert sorted(typed.select("offset", "value").collect()) == want_rows, (topic, kind)
            # a schema of two of the fields, the other way round, gets those
            first, *_, last = want.schema["value"].dataType.fields
            two = ", ".join(f"`{f.name}`: {f.dataType.simpleString()}" for f in (last, first))
            narrow = _cluster(
                spark,
                where,
                backend,
                "t",
                f"offset bigint, value struct<{two}>",
                valueFormat=kind,
                **{"schema.registry.url": registry.url},
            )
            assert sorted(narrow.collect()) == sorted(
                (r.offset, (r.value[last.name], r.value[first.name])) for r in want_rows
            ), (topic, kind)


def _consume(bootstrap, topic, count):
    """The first ``count`` records of ``topic``, read by librdkafka's consumer."""
    import time

    from confluent_kafka import Consumer

    consumer = Consumer(
        {"bootstrap.servers": bootstrap, "group.id": f"g-{topic}", "auto.offset.reset": "earliest"}
    )
    consumer.subscribe([topic])
    got, deadline = [], time.monotonic() + 120
    try:
        while len(got) < count and time.monotonic() < deadline:
            message = consumer.poll(1.0)
            if message is not None and message.error() is None:
                got.append(message)
    finally:
        consumer.close()
    return got


def test_struct_rows_written_as_avro_read_back_by_confluents_deserializer(
    spark, registry, kafka_broker, tmp_path, backend
):
    from confluent_kafka.schema_registry import SchemaRegistryClient as ConfluentClient
    from confluent_kafka.schema_registry.avro import AvroDeserializer
    from confluent_kafka.serialization import MessageField, SerializationContext
    from pyspark.sql import functions as F

    boot = kafka_broker.bootstrap_servers
    topic = f"kw-written-{uuid.uuid4().hex[:8]}"
    create_topic(boot, topic, 1)
    rows = [
        (i, f"name {i}", None if i % 4 == 0 else i * 1.5, [f"t{j}" for j in range(i % 3)]) for i in range(30)
    ]
    df = spark.createDataFrame(rows, "id long, name string, score double, tags array<string>")
    frame = df.select(F.struct("id").alias("key"), F.struct(*df.columns).alias("value"))
    options = {
        "valueFormat": "avro",
        "keyFormat": "avro",
        "schema.registry.url": registry.url,
        "topic": topic,
    }
    sink = frame.write.format("kafka-cluster").option("kafka.bootstrap.servers", boot)
    sink.option("backend", backend).options(**options).mode("append").save()
    want = [({"id": r[0]}, dict(zip(df.columns, r))) for r in rows]

    read = AvroDeserializer(ConfluentClient({"url": registry.url}))
    got = [
        (
            read(m.key(), SerializationContext(topic, MessageField.KEY)),
            read(m.value(), SerializationContext(topic, MessageField.VALUE)),
        )
        for m in _consume(boot, topic, len(rows))
    ]
    assert sorted(got, key=lambda kv: kv[0]["id"]) == want

    log = str(tmp_path / "log")
    frame.write.format("kafka-log").option("backend", backend).options(**options).mode("overwrite").save(log)
    reader = spark.read.format("kafka-log").option("backend", backend)
    back = reader.options(**{k: v for k, v in options.items() if k != "topic"}).load(log)
    typed = [(r.key.asDict(), r.value.asDict()) for r in back.collect()]
    assert sorted(typed, key=lambda kv: kv[0]["id"]) == want


def test_the_tasks_decode_on_the_querys_backend(registry, backend, monkeypatch):
    """The backend option of a query, not the worker's active backend, decodes."""
    import pyarrow as pa

    from kafkawire import _backend
    from kafkawire.spark import registry_columns

    monkeypatch.setattr(registry_columns, "_decoders", {})  # no decoder of an earlier test
    pure = _backend.implementation("avro", "python")
    calls = []
    real = pure.decode_column
    monkeypatch.setattr(pure, "decode_column", lambda *args: calls.append(1) or real(*args))
    write = _serializer(registry.url, KEY, "backend-check", "key")
    keys = [write({"id": i, "region": "r"}) for i in range(3)]  # registers the schema
    formats = registry_columns.read_formats(
        {"keyFormat": "avro", "schema.registry.url": registry.url}, lambda: ["backend-check"]
    )
    batch = pa.record_batch(
        [
            pa.array(["backend-check"] * 3),
            pa.array([0] * 3, pa.int32()),
            pa.array([0, 1, 2], pa.int64()),
            pa.array(keys, pa.binary()),
        ],
        names=["topic", "partition", "offset", "key"],
    )
    typed = registry_columns.typed_batch(batch, formats, ["offset", "key"], "python")
    assert typed.column("key").to_pylist() == [{"id": i, "region": "r"} for i in range(3)]
    assert calls  # on the cython run too, where the active backend is the compiled one


@pytest.mark.backend_independent
def test_the_format_options_are_checked_before_anything_is_read(registry, topics):
    from kafkawire.errors import OptionError, SchemaRegistryError
    from kafkawire.spark.kafka_cluster import KafkaClusterDataSource

    base = {"kafka.bootstrap.servers": topics["bootstrap"], "subscribe": topics["typed"]}
    url = {"schema.registry.url": registry.url}

    def schema(**options):
        return KafkaClusterDataSource({**base, **options}).schema()

    with pytest.raises(OptionError, match="did you mean valueFormat"):
        schema(valueFromat="avro", **url)
    with pytest.raises(
        OptionError, match="^option keyFormat or valueFormat needs option schema.registry.url"
    ):
        schema(valueFormat="avro")
    with pytest.raises(OptionError, match="'xml' is not one of binary, avro, protobuf, json, registry"):
        schema(valueFormat="xml", **url)
    with pytest.raises(OptionError, match="option valueSubject needs option valueFormat"):
        schema(valueSubject="orders-value", **url)
    with pytest.raises(SchemaRegistryError, match="subject 'no-such-value'"):
        schema(valueFormat="avro", valueSubject="no-such-value", **url)
    with pytest.raises(SchemaRegistryError, match="schema id 4242 is not in the registry"):
        schema(valueFormat="registry", valueSchemaId="4242", **url)
    pattern = {"kafka.bootstrap.servers": topics["bootstrap"], "subscribePattern": "kw-typed-.*", **url}
    with pytest.raises(OptionError, match="covers a pattern's topics"):
        KafkaClusterDataSource({**pattern, "valueFormat": "avro"}).schema()
    subject = f"{topics['typed']}-value"
    # a pattern read with the subject named, or the registry's schema id, is typed
    ddl = KafkaClusterDataSource({**pattern, "valueFormat": "avro", "valueSubject": subject}).schema()
    assert "`value` struct<`order_id`: bigint" in ddl
    with pytest.raises(OptionError, match="valueMessage"):
        schema(valueFormat="avro", valueSubjectStrategy="record", **url)


def test_an_unknown_subject_fails_at_load(spark, registry, topics, backend):
    from pyspark.errors import AnalysisException

    with pytest.raises(
        AnalysisException, match="SchemaRegistryError: the values' reader schema, version latest"
    ):
        _cluster(
            spark,
            topics,
            backend,
            valueFormat="avro",
            valueSubject="no-such-value",
            **{"schema.registry.url": registry.url},
        )


# -- the sinks' valueFormat protobuf, json and registry -----------------------------------

READING_PROTO = """
syntax = "proto3";
package sink;

message Reading {
  int64 id = 1;
  string name = 2;
  double score = 3;
  repeated string tags = 4;
  Place place = 5;
}
message Place { string city = 1; }
"""
# version 2 of the readings: a field more
READING_PROTO_V2 = READING_PROTO.replace("Place place = 5;", "Place place = 5;\n  int32 rank = 6;")
READING_JSON = {
    "type": "object",
    "properties": {
        "id": {"type": "integer"},
        "name": {"type": "string"},
        "score": {"type": "number"},
        "tags": {"type": "array", "items": {"type": "string"}},
        "place": {"type": "object", "properties": {"city": {"type": "string"}}},
    },
    "required": ["id"],
}
# the readings in Avro, every field nullable as Spark's columns are, and a field more
READING_AVRO = {
    "type": "record",
    "name": "Reading",
    "namespace": "sink",
    "fields": [
        *(
            {"name": name, "type": ["null", kind], "default": None}
            for name, kind in (
                ("id", "long"),
                ("name", "string"),
                ("score", "double"),
                ("tags", {"type": "array", "items": ["null", "string"]}),
                (
                    "place",
                    {
                        "type": "record",
                        "name": "Place",
                        "fields": [{"name": "city", "type": ["null", "string"]}],
                    },
                ),
                ("rank", "int"),
            )
        )
    ],
}
READING_DDL = "id long, name string, score double, tags array<string>, place struct<city string>"
WRITER_SCHEMAS = {"protobuf": READING_PROTO, "json": json.dumps(READING_JSON)}


@pytest.fixture(scope="module")
def reading_class(tmp_path_factory):
    """The protoc-made message class of ``READING_PROTO``, for ProtobufDeserializer."""
    import importlib
    import sys

    from grpc_tools import protoc

    out = tmp_path_factory.mktemp("reading")
    (out / "reading.proto").write_text(READING_PROTO)
    assert protoc.main(["protoc", f"-I{out}", f"--python_out={out}", str(out / "reading.proto")]) == 0
    sys.path.insert(0, str(out))
    try:
        return importlib.import_module("reading_pb2").Reading
    finally:
        sys.path.remove(str(out))


def _readings(spark, count=40, seed=7):
    """Random readings: a frame of their ``key`` and ``value`` structs, and the values."""
    import random

    from pyspark.sql import functions as F

    rng = random.Random(seed)
    rows = [
        (
            i + 1,  # not 0: an absent proto3 scalar reads as null, as from_protobuf reads it
            f"name {rng.randrange(1000)}",
            rng.uniform(-1e6, 1e6),
            [f"t{rng.randrange(9)}" for _ in range(rng.randrange(4))],
            (f"city {rng.randrange(50)}",),
        )
        for i in range(count)
    ]
    df = spark.createDataFrame(rows, READING_DDL)
    want = [{"id": r[0], "name": r[1], "score": r[2], "tags": r[3], "place": {"city": r[4][0]}} for r in rows]
    return df.select(F.struct("id").alias("key"), F.struct(*df.columns).alias("value")), want


def _confluent_reader(kind, registry, topic, reading_class):
    """confluent-kafka's own deserializer of ``kind`` values, as plain dicts."""
    from confluent_kafka.schema_registry import SchemaRegistryClient as ConfluentClient
    from confluent_kafka.serialization import MessageField, SerializationContext

    client = ConfluentClient({"url": registry.url})
    ctx = SerializationContext(topic, MessageField.VALUE)
    if kind == "json":
        from confluent_kafka.schema_registry.json_schema import JSONDeserializer

        read = JSONDeserializer(None, schema_registry_client=client)
        return lambda v: read(v, ctx)
    from confluent_kafka.schema_registry.protobuf import ProtobufDeserializer

    read_proto = ProtobufDeserializer(reading_class, {}, client)

    def as_dict(v):
        m = read_proto(v, ctx)
        return {
            "id": m.id,
            "name": m.name,
            "score": m.score,
            "tags": list(m.tags),
            "place": {"city": m.place.city},
        }

    return as_dict


def _typed(rows):
    """A typed read's values as plain dicts, by id."""
    return sorted(
        ({**r.value.asDict(recursive=True), "tags": list(r.value.tags)} for r in rows if r.value is not None),
        key=lambda v: v["id"],
    )


def _ids(values):
    return {int.from_bytes(bytes(v)[1:5], "big") for v in values}


@pytest.mark.parametrize("kind", ["protobuf", "json"])
def test_both_sinks_write_protobuf_and_json_that_confluent_and_a_typed_read_read(
    spark, registry, kafka_broker, reading_class, tmp_path, backend, kind
):
    pytest.importorskip("grpc_tools")
    from kafkawire.registry import SchemaRegistryClient

    boot = kafka_broker.bootstrap_servers
    topic = f"kw-sink-{kind}-{uuid.uuid4().hex[:8]}"
    create_topic(boot, topic, 2)
    frame, want = _readings(spark)
    schema = WRITER_SCHEMAS[kind]
    if kind == "protobuf":  # as confluent-kafka's serializer registers it, and its deserializer reads it
        schema = base64.b64encode(reading_class.DESCRIPTOR.file.serialized_pb).decode()
    options = {
        "valueFormat": kind,
        "valueWriterSchema": schema,
        "schema.registry.url": registry.url,
        "topic": topic,
        "backend": backend,
    }
    frame.select("value").repartition(3).write.format("kafka-cluster").option(
        "kafka.bootstrap.servers", boot
    ).options(**options).mode("append").save()
    got = _consume(boot, topic, len(want))
    registered = SchemaRegistryClient(registry.url).schema_version(f"{topic}-value")
    assert registered.schema_type == kind.upper()
    assert _ids(m.value() for m in got) == {registered.schema_id}  # one id, registered once
    read = _confluent_reader(kind, registry, topic, reading_class)
    assert sorted((read(m.value()) for m in got), key=lambda v: v["id"]) == want

    reading = {"valueFormat": kind, "schema.registry.url": registry.url}
    for format_ in (kind, "registry"):
        typed = _cluster(
            spark, {"t": topic, "bootstrap": boot}, backend, "t", **{**reading, "valueFormat": format_}
        )
        assert _typed(typed.collect()) == want, format_

    log = str(tmp_path / "log")
    frame.select("value").write.format("kafka-log").options(**options).mode("overwrite").save(log)
    back = spark.read.format("kafka-log").option("backend", backend).options(**reading).load(log)
    assert _typed(back.collect()) == want
    raw = spark.read.format("kafka-log").option("backend", backend).load(log).collect()
    assert _ids(r.value for r in raw) == {registered.schema_id}
    assert sorted((read(bytes(r.value)) for r in raw), key=lambda v: v["id"]) == want


def test_a_stream_writes_json_values_to_kafka_cluster(
    spark, registry, kafka_broker, reading_class, tmp_path, backend
):
    boot = kafka_broker.bootstrap_servers
    topic = f"kw-sink-stream-{uuid.uuid4().hex[:8]}"
    create_topic(boot, topic, 1)
    frame, want = _readings(spark, 25, seed=11)
    source = str(tmp_path / "rows")
    frame.select("value").write.parquet(source)
    stream = spark.readStream.schema(frame.select("value").schema).parquet(source)
    query = (
        stream.writeStream.format("kafka-cluster")
        .option("kafka.bootstrap.servers", boot)
        .option("topic", topic)
        .option("backend", backend)
        .option("valueFormat", "json")
        .option("valueWriterSchema", WRITER_SCHEMAS["json"])
        .option("schema.registry.url", registry.url)
        .option("checkpointLocation", str(tmp_path / "checkpoint"))
        .trigger(availableNow=True)
        .start()
    )
    try:
        assert query.awaitTermination(300) and query.exception() is None
    finally:
        query.stop()
    read = _confluent_reader("json", registry, topic, reading_class)
    assert sorted((read(m.value()) for m in _consume(boot, topic, len(want))), key=lambda v: v["id"]) == want


def test_auto_register_false_and_use_latest_version_write_with_the_registered_schema(
    spark, registry, tmp_path, backend
):
    from kafkawire.registry import SchemaRegistryClient

    client = SchemaRegistryClient(registry.url)
    topic = f"kw-sink-registered-{uuid.uuid4().hex[:8]}"
    frame, want = _readings(spark, 10)
    values = frame.select("value")
    log = str(tmp_path / "log")

    def write(to=topic, **options):
        sink = values.write.format("kafka-log").option("backend", backend).option("topic", to)
        sink.option("schema.registry.url", registry.url).options(**options).mode("overwrite").save(log)
        raw = spark.read.format("kafka-log").load(log).collect()
        return _ids(r.value for r in raw)

    # auto.register.schemas false: a schema the subject does not hold fails the write at its start
    with pytest.raises(Exception, match="not registered|not found|40403|40401"):
        write(valueFormat="protobuf", valueWriterSchema=READING_PROTO, **{"auto.register.schemas": "false"})
    assert f"{topic}-value" not in client.subjects()
    v1 = client.register(f"{topic}-value", READING_PROTO, "PROTOBUF")
    v2 = client.register(f"{topic}-value", READING_PROTO_V2, "PROTOBUF")
    assert v1 != v2
    # ... and one it holds is written with its id
    assert write(
        valueFormat="protobuf", valueWriterSchema=READING_PROTO, **{"auto.register.schemas": "false"}
    ) == {v1}
    # use.latest.version: the subject's latest, whatever the writer schema would be
    latest = {"auto.register.schemas": "false", "use.latest.version": "true"}
    assert write(valueFormat="protobuf", **latest) == {v2}
    assert write(valueFormat="registry", **latest) == {v2}
    with pytest.raises(Exception, match="valueWriterSchema and use.latest.version each name"):
        write(valueFormat="protobuf", valueWriterSchema=READING_PROTO, **latest)
    # Avro: the subject's latest instead of the schema derived from the column
    avro_topic = f"{topic}-avro"
    with pytest.raises(Exception, match="not registered|not found|40403|40401"):
        write(avro_topic, valueFormat="avro", **{"auto.register.schemas": "false"})
    avro = client.register(f"{avro_topic}-value", json.dumps(READING_AVRO))
    assert write(avro_topic, valueFormat="avro", **latest) == {avro}
    back = spark.read.format("kafka-log").options(valueFormat="avro", **{"schema.registry.url": registry.url})
    assert _typed(back.load(log).collect()) == [{**w, "rank": None} for w in want]


def test_a_missing_schema_or_a_mismatched_struct_fails_the_write_at_its_start(
    spark, registry, tmp_path, backend
):
    topic = f"kw-sink-bad-{uuid.uuid4().hex[:8]}"
    frame, _ = _readings(spark, 3)
    values = frame.select("value")

    def write(df=values, **options):
        sink = df.write.format("kafka-log").option("backend", backend).option("topic", topic)
        sink.option("schema.registry.url", registry.url).options(**options).mode("overwrite").save(
            str(tmp_path / "log")
        )

    for kind in ("protobuf", "json", "registry"):
        with pytest.raises(
            Exception,
            match="OptionError: the values' writer schema is the latest version of their subject, which has none: give option valueWriterSchema",
        ):
            write(valueFormat=kind)
    from pyspark.sql import functions as F

    wrong = values.select(F.struct(F.col("value.id"), F.col("value.id").alias("name")).alias("value"))
    for kind in ("protobuf", "json"):
        with pytest.raises(Exception, match="SchemaResolutionError: the values: .*name"):
            write(wrong, valueFormat=kind, valueWriterSchema=WRITER_SCHEMAS[kind])
    with pytest.raises(Exception, match="valueMessage names a Protobuf message"):
        write(valueFormat="json", valueWriterSchema=WRITER_SCHEMAS["json"], valueMessage="sink.Reading")
    assert not (tmp_path / "log").exists() or not any((tmp_path / "log").iterdir())


@pytest.mark.backend_independent
def test_the_tasks_write_the_id_pinned_when_the_write_began(registry):
    """A version registered while a write runs changes nothing: every task frames with
    the id the driver resolved."""
    import pyarrow as pa
    from pyspark.sql.types import LongType, StructField, StructType

    from kafkawire.registry import SchemaRegistryClient
    from kafkawire.spark import registry_columns

    topic = f"kw-pinned-{uuid.uuid4().hex[:8]}"
    client = SchemaRegistryClient(registry.url)
    first = client.register(f"{topic}-value", READING_PROTO, "PROTOBUF")
    options = {"valueFormat": "protobuf", "topic": topic, "schema.registry.url": registry.url}
    schema = StructType([StructField("value", StructType([StructField("id", LongType())]))])
    formats = registry_columns.pinned_formats(registry_columns.write_formats(options), schema)
    client.register(f"{topic}-value", READING_PROTO_V2, "PROTOBUF")  # the latest now
    registry_columns._encoders.clear()  # a task's worker: no encoder yet
    batch = pa.record_batch([pa.array([{"id": 1}, {"id": 2}])], names=["value"])
    (out,) = registry_columns.encoded_batches(iter([batch]), formats)
    assert _ids(out.column("value").to_pylist()) == {first}


@pytest.mark.backend_independent
def test_value_message_writes_another_message_of_the_schema(registry):
    """``valueMessage`` picks the file's second message: message indexes [1]."""
    import pyarrow as pa
    from pyspark.sql.types import StringType, StructField, StructType

    from kafkawire.registry import RegistryProtobufDecoder, SchemaRegistryClient
    from kafkawire.spark import registry_columns

    options = {
        "valueFormat": "protobuf",
        "valueWriterSchema": READING_PROTO,
        "valueMessage": "sink.Place",
        "valueSubject": f"kw-place-{uuid.uuid4().hex[:8]}",
        "schema.registry.url": registry.url,
    }
    schema = StructType([StructField("value", StructType([StructField("city", StringType())]))])
    formats = registry_columns.pinned_formats(registry_columns.write_formats(options), schema)
    batch = pa.record_batch([pa.array([{"city": "Oslo"}, None])], names=["value"])
    (out,) = registry_columns.encoded_batches(iter([batch]), formats)
    values = out.column("value")
    assert values[0].as_py()[5:7] == b"\x02\x02" and values[1].as_py() is None
    decoder = RegistryProtobufDecoder(
        SchemaRegistryClient(registry.url), reader_id=formats[0].schema_id, message="sink.Place"
    )
    assert decoder.decode(values).to_pylist() == [{"city": "Oslo"}, None]
    with pytest.raises(Exception, match="sink.Nowhere"):
        registry_columns.pinned_formats(
            registry_columns.write_formats({**options, "valueMessage": "sink.Nowhere"}), schema
        )


@pytest.mark.backend_independent
def test_spark_asking_a_write_for_its_schema_needs_no_reader_schema(tmp_path):
    """A write's options with valueFormat and a registry nobody listens on: the schema
    is the binary columns', and nothing asks the registry."""
    from kafkawire.spark.kafka_cluster import KafkaClusterDataSource
    from kafkawire.spark.kafka_log import KafkaLogDataSource

    write = {
        "valueFormat": "json",
        "valueWriterSchema": WRITER_SCHEMAS["json"],
        "schema.registry.url": "http://127.0.0.1:9",
        "topic": "t",
    }
    cluster = KafkaClusterDataSource({"kafka.bootstrap.servers": "127.0.0.1:9", **write}).schema()
    assert "`value` binary" in cluster
    log = KafkaLogDataSource({"path": str(tmp_path), **write}).schema()
    assert "`value` binary" in log
