"""Registry-framed Avro values in Spark: ``kafka-cluster`` with kafkawire's decoding
against Spark's JVM ``kafka`` connector with ``spark-avro``'s ``from_avro``, in one run.

``--records`` orders of the 20-field schema of ``benchmarks/bench_avro.py``
(``tests/support/avro_shapes.py``), written by fastavro and framed with the id the test
registry (``tests/support/schema_registry.py``) gave the schema, are produced with
librdkafka (no compression) into a topic of ``--partitions`` partitions on a Kafka 4.4
broker started for the run (``tests/support/kafka``).  Spark runs on ``local[2]`` with the
connector (``spark-sql-kafka-0-10``) and ``spark-avro`` (Maven-resolved, ``ADD JAR``) in
the same session.  Every route answers the same query over the whole topic, group by
``status``: count, sum of ``total`` (a decimal), max of ``created_at`` (a timestamp);
each route's answer is checked against the first's.  The routes (:data:`ROUTES`) run in
interleaved rounds after one warm run, best of ``--rounds``:

* ``jvm``: Spark's connector, the header cut with ``substring(value, 6, ...)``, then
  ``from_avro`` with the full schema;
* ``jvm_reader``: the same with the reader schema of the three fields as ``from_avro``'s
  ``avroSchema`` option (spark-avro reads with the first schema as the writer's and
  that option as the reader's, so Avro's resolving decoder skips the other fields);
* ``cluster``: ``kafka-cluster`` then ``from_registry`` (the subject's latest version);
  ``cluster_value``: the same reading only the ``value`` column (``.schema("value
  binary")``: a Python source is not pruned by Spark, it is told its columns);
* ``cluster_reader``: ``from_registry`` with ``reader_schema`` of the three fields;
* ``source`` and ``source_reader``: ``kafka-cluster`` decoding in the source
  (``valueFormat=avro``), without and with ``valueReaderSchema``: skipped with a
  message when this tree's ``kafka-cluster`` has no such option; ``source_schema``:
  ``valueFormat=avro`` with ``.schema("value struct<...>")`` of the three fields, which
  narrows the reader schema to them;
* ``floor``: ``kafka-cluster`` reading the binary values, the same aggregation on their
  lengths: what reading costs before any decoding; ``udf_floor``: the same with the
  values through an Arrow UDF that returns them unchanged (what ``from_registry``'s hop
  to a Python worker and back costs before it decodes anything).

Besides the best wall time, the CPU seconds a run of each route spends in Spark, the
mean of the rounds, read from ``/proc`` (NaN elsewhere): in the driver's JVM and in the
Python workers it forks (the broker excluded).

Run: ``python benchmarks/bench_spark_registry.py [--records N] [--partitions P]
[--rounds R] [--only ROUTE ...] [--json FILE]``.
"""

from __future__ import annotations

import argparse
import io
import json
import os
import sys
import time
import uuid
from dataclasses import dataclass
from typing import Callable, Dict, Iterator, List, Optional, Tuple

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(HERE)
sys.path[:0] = [HERE, ROOT, os.path.join(ROOT, "tests")]

from bench_spark_cluster import produce_spread, topic_records  # noqa: E402
from support.avro_shapes import ORDER, order  # noqa: E402

#: the fields the query reads, and the reader schema of only them (same record name)
QUERY_FIELDS = ("status", "total", "created_at")
READER = dict(ORDER, fields=[f for f in ORDER["fields"] if f["name"] in QUERY_FIELDS])


@dataclass
class Setup:
    """What the routes read: the session, the broker, the topic, the registry."""

    spark: object
    bootstrap: str
    topic: str
    registry: str

    def load(self, fmt: str, **options: str):
        return (
            self.spark.read.format(fmt)  # type: ignore[attr-defined]
            .option("kafka.bootstrap.servers", self.bootstrap)
            .option("subscribe", self.topic)
            .options(**options)
        )


def aggregate(orders):
    """The query: group by status, count, sum of total, max of created_at."""
    from pyspark.sql import functions as F

    return orders.groupBy("status").agg(
        F.count("*").alias("n"), F.sum("total").alias("total"), F.max("created_at").alias("latest")
    )


def _from_avro(s: Setup, reader: bool):
    from pyspark.sql import functions as F
    from pyspark.sql.avro.functions import from_avro

    body = F.expr("substring(value, 6, length(value) - 5)")  # past the magic byte and id
    options = {"avroSchema": json.dumps(READER)} if reader else {}
    decoded = from_avro(body, json.dumps(ORDER), options).alias("o")
    return aggregate(s.load("kafka").load().select(decoded).select("o.*"))


def _from_registry(s: Setup, reader: bool, value_only: bool = False):
    from kafkawire.spark.functions import from_registry

    df = s.load("kafka-cluster")
    df = df.schema("value binary").load() if value_only else df.load()
    if reader:
        decoded = from_registry("value", s.registry, reader_schema=json.dumps(READER))
    else:
        decoded = from_registry("value", s.registry, topic=s.topic)
    return aggregate(df.select(decoded.alias("o")).select("o.*"))


def _source_option_missing() -> Optional[str]:
    from kafkawire.datasource_options import SOURCES, names

    if "valueformat" in {n.lower() for n in names(SOURCES["kafka-cluster", "read"])}:
        return None
    return "this kafka-cluster has no valueFormat option"


def _narrowing_missing() -> Optional[str]:
    from kafkawire.spark import registry_columns

    if hasattr(registry_columns, "narrowed"):
        return _source_option_missing()
    return "this kafka-cluster does not narrow the reader schema to a schema's value fields"


def _in_source(s: Setup, reader: bool, schema: bool = False):
    options = {"valueFormat": "avro", "schema.registry.url": s.registry}
    if reader:
        options["valueReaderSchema"] = json.dumps(READER)
    df = s.load("kafka-cluster", **options)
    if schema:  # the value's struct of the query's fields: the reader schema is narrowed to them
        df = df.schema("value struct<status: string, total: decimal(12, 2), created_at: timestamp>")
    df = df.load()
    value = dict(df.dtypes).get("value", "")
    return aggregate(df.select("value.*") if value.startswith("struct") else df)


def _floor(s: Setup, hop: bool = False):
    from pyspark.sql import functions as F

    values = s.load("kafka-cluster").schema("value binary").load()
    if hop:  # through an Arrow UDF that hands the values back as they came
        values = values.select(F.arrow_udf(lambda v: v, "binary")("value").alias("value"))
    return values.groupBy((F.length("value") % 4).alias("status")).agg(
        F.count("*").alias("n"),
        F.sum(F.length("value")).alias("total"),
        F.max(F.length("value")).alias("latest"),
    )


@dataclass(frozen=True)
class Route:
    label: str
    query: Callable[[Setup], object]  # the aggregated DataFrame
    #: why the route cannot run in this tree, or None
    missing: Callable[[], Optional[str]] = lambda: None
    #: whether its answer is the decoded query's (the floor's is not)
    decodes: bool = True


#: the routes, the baseline first.  A new route is one entry here.
ROUTES: Dict[str, Route] = {
    "jvm": Route("Spark's kafka + from_avro (full schema)", lambda s: _from_avro(s, False)),
    "jvm_reader": Route(
        "Spark's kafka + from_avro, avroSchema option: reader schema of 3 fields",
        lambda s: _from_avro(s, True),
    ),
    "cluster": Route("kafka-cluster + from_registry", lambda s: _from_registry(s, False)),
    "cluster_value": Route(
        "kafka-cluster, value column only, + from_registry", lambda s: _from_registry(s, False, True)
    ),
    "cluster_reader": Route(
        "kafka-cluster + from_registry, reader schema of 3 fields", lambda s: _from_registry(s, True)
    ),
    "source": Route(
        "kafka-cluster, valueFormat=avro (decoded in the source)",
        lambda s: _in_source(s, False),
        _source_option_missing,
    ),
    "source_reader": Route(
        "kafka-cluster, valueFormat=avro + valueReaderSchema of 3 fields",
        lambda s: _in_source(s, True),
        _source_option_missing,
    ),
    "source_schema": Route(
        "kafka-cluster, valueFormat=avro, .schema of the 3 fields",
        lambda s: _in_source(s, False, True),
        _narrowing_missing,
    ),
    "floor": Route("floor: kafka-cluster, binary values, the aggregation on lengths", _floor, decodes=False),
    "udf_floor": Route(
        "floor + an Arrow UDF handing the values back (the UDF hop)", lambda s: _floor(s, True), decodes=False
    ),
}


def produce(bootstrap: str, topic: str, partitions: int, n: int, schema_id: int) -> None:
    """``n`` framed orders, spread evenly over the partitions."""
    import fastavro

    parsed = fastavro.parse_schema(ORDER)
    header = b"\x00" + schema_id.to_bytes(4, "big")

    def records() -> Iterator[Tuple[bytes, bytes]]:
        buf = io.BytesIO()
        for i in range(n):
            buf.seek(0)
            buf.truncate()
            buf.write(header)
            fastavro.schemaless_writer(buf, parsed, order(i))
            yield b"%d" % i, buf.getvalue()

    produce_spread(bootstrap, topic, partitions, records())


def _children() -> Dict[int, List[int]]:
    out: Dict[int, List[int]] = {}
    for name in os.listdir("/proc"):
        if name.isdigit():
            try:
                with open(f"/proc/{name}/stat") as f:
                    ppid = int(f.read().rsplit(")", 1)[1].split()[1])
            except (OSError, IndexError, ValueError):
                continue
            out.setdefault(ppid, []).append(int(name))
    return out


def spark_cpu(exclude: Optional[int]) -> Dict[str, float]:
    """CPU seconds used so far by this process's descendants, less the subtree of
    ``exclude`` (the broker): under ``jvm`` Spark's JVM, under ``python`` the Python
    workers it forks (with the reaped ones); NaN where ``/proc`` is not there."""
    try:
        children = _children()
    except OSError:
        return {"jvm": float("nan"), "python": float("nan")}
    jvm = python = 0
    todo = list(children.get(os.getpid(), []))
    while todo:
        pid = todo.pop()
        if pid == exclude:
            continue
        try:
            with open(f"/proc/{pid}/stat") as f:
                head, tail = f.read().rsplit(")", 1)
        except OSError:
            continue
        utime, stime, cutime, cstime = (int(x) for x in tail.split()[11:15])
        own, reaped = utime + stime, cutime + cstime
        if head.endswith("(java"):  # its reaped children are Python workers
            jvm, python = jvm + own, python + reaped
        else:
            python += own + reaped
        todo += children.get(pid, [])
    tick = os.sysconf("SC_CLK_TCK")
    return {"jvm": jvm / tick, "python": python / tick}


def _rows(df) -> list:
    return sorted(tuple(r) for r in df.collect())


def measure(setup: Setup, routes: Dict[str, Route], rounds: int, n: int, broker_pid: Optional[int]) -> dict:
    """Best wall time and mean Spark CPU of each route, interleaved rounds after a warm run.
    Each run builds its query anew: a DataFrame run again reuses its shuffle's output."""
    want = None
    for name, r in routes.items():
        got = _rows(r.query(setup))
        assert sum(row[1] for row in got) == n, (name, got)
        if r.decodes:
            want = got if want is None else want
            assert got == want, (name, got, want)
    best = {name: float("inf") for name in routes}
    cpu = {name: {"jvm": 0.0, "python": 0.0} for name in routes}
    for _ in range(rounds):
        for name, r in routes.items():
            c, t = spark_cpu(broker_pid), time.perf_counter()
            r.query(setup).collect()  # type: ignore[attr-defined]
            best[name] = min(best[name], time.perf_counter() - t)
            after = spark_cpu(broker_pid)
            for side in ("jvm", "python"):
                cpu[name][side] += (after[side] - c[side]) / rounds
    return {"wall": best, "cpu": cpu, "answer": [list(map(str, row)) for row in want or []]}


def report(fig: dict) -> str:
    n, wall, cpu = fig["records"], fig["wall"], fig["cpu"]
    base = wall["jvm"] if "jvm" in wall else None
    lines = [
        f"{n:,} orders ({fig['avro_bytes'] / 1e6:.0f} MB of framed Avro), {fig['partitions']} partitions,"
        f" local[2], best of {fig['rounds']}; load average before {fig['load_before']}, after {fig['load_after']}",
        f"{'route':78} {'wall s':>7} {'rows/s':>8} {'CPU s: JVM + Python':>20} {'vs jvm':>7}",
    ]
    for name, r in ROUTES.items():
        if name in fig["skipped"]:
            lines.append(f"{r.label:78} skipped: {fig['skipped'][name]}")
        elif name in wall:
            ratio = f"{base / wall[name]:6.2f}x" if base else ""
            c = cpu[name]
            lines.append(
                f"{r.label:78} {wall[name]:7.2f} {n / wall[name] / 1e3:7.0f}k"
                f" {c['jvm'] + c['python']:6.1f}: {c['jvm']:5.1f} + {c['python']:5.1f} {ratio:>7}"
            )
    return "\n".join(lines)


def main(argv=None) -> int:
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--records", type=int, default=1_000_000)
    p.add_argument("--partitions", type=int, default=4)
    p.add_argument("--rounds", type=int, default=3)
    p.add_argument("--only", nargs="+", choices=list(ROUTES), help="run only these routes")
    p.add_argument("--json", help="also write the figures here")
    args = p.parse_args(argv)

    import pyspark

    from kafkawire.registry import SchemaRegistryClient
    from kafkawire.spark import local_session
    from support.kafka.broker import start_broker
    from support.kafka.spark_avro import spark_avro_jar
    from support.kafka.spark_kafka import connector
    from support.schema_registry import RegistryServer

    routes, skipped = {}, {}
    for name in args.only or ROUTES:
        why = ROUTES[name].missing()
        if why is None:
            routes[name] = ROUTES[name]
        else:
            skipped[name] = why
            print(f"route {name} skipped: {why}", flush=True)
    jars = [*connector().jars, spark_avro_jar()]
    fig: dict = {
        "records": args.records,
        "partitions": args.partitions,
        "rounds": args.rounds,
        "pyspark": pyspark.__version__,
        "skipped": skipped,
        "load_before": [round(x, 2) for x in os.getloadavg()],
    }
    broker = start_broker()
    broker_pid = broker.process.pid if broker.process is not None else None
    spark = None
    try:
        with RegistryServer() as registry:
            topic = f"orders-{uuid.uuid4().hex[:6]}"
            schema_id = SchemaRegistryClient(registry.url).register(f"{topic}-value", json.dumps(ORDER))
            t = time.perf_counter()
            produce(broker.bootstrap_servers, topic, args.partitions, args.records, schema_id)
            assert topic_records(broker.bootstrap_servers, topic) == args.records
            print(f"produced {args.records:,} orders in {time.perf_counter() - t:.1f} s", flush=True)
            spark = local_session("local[2]", app="kafkawire-bench-registry", **{"spark.driver.memory": "2g"})
            for jar in jars:
                spark.sql(f"ADD JAR '{jar}'")
            setup = Setup(spark, broker.bootstrap_servers, topic, registry.url)
            fig["avro_bytes"] = (
                setup.load("kafka-cluster")
                .schema("value binary")
                .load()
                .selectExpr("sum(length(value))")
                .first()[0]
            )
            fig.update(measure(setup, routes, args.rounds, args.records, broker_pid))
        fig["load_after"] = [round(x, 2) for x in os.getloadavg()]
        print(report(fig))
        if args.json:
            with open(args.json, "w") as f:
                json.dump(fig, f, indent=1)
    finally:
        if spark is not None:
            spark.stop()
        broker.stop()
    return 0


if __name__ == "__main__":
    sys.exit(main())
