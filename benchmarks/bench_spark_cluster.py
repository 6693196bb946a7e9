"""``kafka-cluster`` against Spark's own JVM Kafka connector, on one live broker, in one run.

Every figure is a ratio of times measured in the same run, on a Kafka 4.4 broker started
for it (``tests/kafka_support``) and Spark's connector (``spark-sql-kafka-0-10``,
Maven-resolved, ``ADD JAR``) in the same session.  Records have 16-byte keys and are
produced by librdkafka.  Each query counts the rows and sums the value lengths; the routes
of one figure run in interleaved rounds, best of ``--rounds``:

* read, on ``local[2]``: ``--records`` records of 100-byte values with compression none,
  lz4 and zstd (4 partitions), none again on 1 and 16 partitions, and ``--kib-records``
  of 1 KiB values (none, 4 partitions); each read by the connector (``kafka``), by
  ``kafka-cluster`` with every column and with the schema ``value binary``, and by the
  replay floor (``benchmarks/_replay_floor.py``): a trivial Python data source
  memory-mapping Arrow IPC files that hold the very batches ``kafka-cluster`` yields for
  that topic (one file a partition, so as many tasks), decoded once before.  The floor
  is what any Python data source pays to hand Spark those rows; what ``kafka-cluster``
  costs above it is fetching and decoding.  The transport floor is that replay with
  each task also fetching its range from the broker (the bytes received into one reused
  buffer, nothing decoded beyond the Fetch envelope and batch headers): what taking the
  records from a broker costs any reader before it decodes them.  "no Spark" is the
  same fetch and decode in this one process (one partition after another), for scale;
* cores: the 100-byte 4-partition topic again on ``local[1]``, against ``local[2]``;
* write: the same DataFrame (``spark.range`` rows of a 16-byte key and a 1 KiB value, or
  ``--write-value-bytes``; 2 tasks) written by the connector's sink and by
  ``kafka-cluster``'s, each round into a new 4-partition topic, by Spark's ``noop`` sink
  (the cost of making the rows) and by a Python sink that drops the Arrow batches it is
  handed (the floor of any Python sink);
* memory: one task's read (``kafkawire.spark.kafka_cluster.read_partition``, the function a
  Spark task runs) in a fresh process, over the whole 1-partition topic and over a
  quarter of it, with ``max.partition.fetch.bytes`` 1 MiB and 4 MiB: the largest Arrow
  batch it yields and the peak RSS of the process.

Run: ``python benchmarks/bench_spark_cluster.py [--records N] [--kib-records K] [--rounds R]
[--json FILE]`` (1,000,000 and 250,000 by default; ``--only`` measures one part).  On the
shared 2-core machine of the README's figures, under a load average of 16, 50,000 records
and 2 rounds took about 13 minutes; most of it is Spark's fixed cost a query.  Under a
load of 17-22, ``--only read`` with 100,000 and 25,000 records and 2 rounds took 5-6
minutes.
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import tempfile
import time
import uuid
from typing import Callable, Dict, Iterable, List, Optional, Tuple

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(HERE)
sys.path.insert(0, ROOT)
sys.path.insert(0, os.path.join(ROOT, "tests"))

from _replay_floor import replay_source, write_replay_file  # noqa: E402

VALUE_BYTES = 1024
#: the read topics: (value bytes, compression, partitions); 100-byte values take
#: ``--records`` a topic, 1 KiB ones ``--kib-records``
READ_TOPICS = (
    (100, "none", 4),
    (100, "lz4", 4),
    (100, "zstd", 4),
    (100, "none", 1),
    (100, "none", 16),
    (1024, "none", 4),
)
CORES_TOPIC = (100, "none", 4)
MEMORY_TOPIC = (100, "none", 1)
WRITE_PARTITIONS = 4
FETCH_SIZES = (1 << 20, 4 << 20)


def create_topic(bootstrap: str, topic: str, partitions: int) -> None:
    """Create ``topic`` and wait until its metadata shows every partition."""
    from confluent_kafka.admin import AdminClient, NewTopic

    admin = AdminClient({"bootstrap.servers": bootstrap})
    admin.create_topics([NewTopic(topic, partitions, 1)])[topic].result(30)
    for _ in range(100):
        if len(admin.list_topics(topic, timeout=10).topics[topic].partitions) == partitions:
            return
        time.sleep(0.1)
    raise RuntimeError(f"topic {topic} did not get its {partitions} partitions")


def produce_spread(
    bootstrap: str,
    topic: str,
    partitions: int,
    records: Iterable[Tuple[bytes, bytes]],
    compression: str = "none",
) -> None:
    """Create ``topic`` and produce ``(key, value)`` records with librdkafka, the i-th to
    partition i mod ``partitions``."""
    from confluent_kafka import Producer

    create_topic(bootstrap, topic, partitions)
    p = Producer(
        {
            "bootstrap.servers": bootstrap,
            "compression.type": compression,
            "linger.ms": 50,
            "batch.size": 1 << 20,
            "queue.buffering.max.messages": 1_000_000,
        }
    )
    for i, (key, value) in enumerate(records):
        while True:
            try:
                p.produce(topic, value=value, key=key, partition=i % partitions)
                break
            except BufferError:
                p.poll(0.1)
    assert p.flush(120) == 0


def fill_topic(
    bootstrap: str,
    topic: str,
    partitions: int,
    n_records: int,
    compression: str,
    value_bytes: int = VALUE_BYTES,
) -> None:
    """Create ``topic`` and produce the workload, spread evenly."""
    value = bytes(i % 251 for i in range(value_bytes))
    records = ((b"key-%012d" % i, value) for i in range(n_records))
    produce_spread(bootstrap, topic, partitions, records, compression)


def topic_records(bootstrap: str, topic: str) -> int:
    """How many records ``topic`` holds (the sum of its partitions' high watermarks)."""
    from confluent_kafka import Consumer, TopicPartition

    c = Consumer({"bootstrap.servers": bootstrap, "group.id": "bench-count"})
    try:
        parts = c.list_topics(topic, timeout=10).topics[topic].partitions
        return sum(c.get_watermark_offsets(TopicPartition(topic, p), timeout=10)[1] for p in parts)
    finally:
        c.close()


def cluster_options(bootstrap: str, topic: str, **extra: str) -> Dict[str, str]:
    return {"kafka.bootstrap.servers": bootstrap, "subscribe": topic, **extra}


def _planned(bootstrap: str, topic: str):
    from kafkawire.cluster.client import Cluster
    from kafkawire.cluster.plan import ClusterReadOptions, plan

    options = ClusterReadOptions.parse(cluster_options(bootstrap, topic))
    with Cluster(options.client) as cluster:
        return options, plan(cluster, options)


def replay_files(bootstrap: str, topic: str, out_dir: str) -> None:
    """Write the Arrow batches ``kafka-cluster`` yields for ``topic`` (every column), one
    IPC file a planned range, and beside the folder the transport floor's ``fetch``
    option: the range of each file (the broker, the only one, leads every partition)."""
    from kafkawire.cluster.fetch import fetched_schema
    from kafkawire.spark.kafka_cluster import RangePartition, read_partition

    options, ranges = _planned(bootstrap, topic)
    os.makedirs(out_dir, exist_ok=True)
    fetch: dict = {"broker": bootstrap, "ranges": {}}
    for i, r in enumerate(ranges):
        name = f"part-{i:04d}.arrow"
        batches = list(read_partition(RangePartition(r), options))
        write_replay_file(os.path.join(out_dir, name), fetched_schema(False), batches)
        fetch["ranges"][name] = [r.topic, r.partition, r.start, r.end]
    with open(out_dir + ".fetch.json", "w") as f:
        json.dump(fetch, f)


def no_spark(bootstrap: str, topic: str, rounds: int) -> float:
    """The fastest of ``rounds`` reads of ``topic`` in this process with no Spark: every
    planned range fetched and decoded in turn, the batches dropped."""
    from kafkawire.spark.kafka_cluster import RangePartition, read_partition

    options, ranges = _planned(bootstrap, topic)
    best = float("inf")
    for _ in range(rounds):
        t = time.perf_counter()
        for r in ranges:
            for _batch in read_partition(RangePartition(r), options):
                pass
        best = min(best, time.perf_counter() - t)
    return best


def _agg(df) -> Tuple[int, int]:
    from pyspark.sql import functions as F

    r = df.agg(F.count("*").alias("n"), F.sum(F.length("value")).alias("bytes")).collect()[0]
    return r.n, r.bytes


def cpu_seconds(pid: Optional[int] = None) -> float:
    """CPU seconds used so far by process ``pid``, or by the whole machine (every core,
    from ``/proc/stat``); NaN where ``/proc`` is not there."""
    try:
        if pid is None:
            with open("/proc/stat") as f:
                ticks = [int(x) for x in f.readline().split()[1:]]
            busy = sum(ticks) - ticks[3] - ticks[4]  # less idle and iowait
        else:
            with open(f"/proc/{pid}/stat") as f:
                fields = f.read().rsplit(")", 1)[1].split()
            busy = int(fields[11]) + int(fields[12])  # utime + stime
    except OSError:
        return float("nan")
    return busy / os.sysconf("SC_CLK_TCK")


#: the broker's process id, for the CPU it spends on each route (set by main)
BROKER_PID: Optional[int] = None


def best_of(
    routes: Dict[str, Callable[[], object]], rounds: int, check: Callable[[str, object], None]
) -> Dict[str, float]:
    """The fastest time of each route over ``rounds`` interleaved rounds (after one warm
    run), and under ``cpu`` the mean CPU seconds of a run: the machine's (every process,
    every core) and the broker's."""
    for name, run in routes.items():
        check(name, run())
    best = {name: float("inf") for name in routes}
    cpu = {name: {"machine": 0.0, "broker": 0.0} for name in routes}
    for _ in range(rounds):
        for name, run in routes.items():
            machine, broker = cpu_seconds(), cpu_seconds(BROKER_PID) if BROKER_PID else float("nan")
            t = time.perf_counter()
            out = run()
            best[name] = min(best[name], time.perf_counter() - t)
            cpu[name]["machine"] += (cpu_seconds() - machine) / rounds
            if BROKER_PID:
                cpu[name]["broker"] += (cpu_seconds(BROKER_PID) - broker) / rounds
            check(name, out)
    return dict(best, cpu=cpu)


def read_routes(spark, bootstrap: str, topic: str, replay_dir: str) -> Dict[str, Callable[[], object]]:
    with open(replay_dir + ".fetch.json") as f:
        fetch = f.read()

    def connector():
        return _agg(spark.read.format("kafka").options(**cluster_options(bootstrap, topic)).load())

    def ours(schema=None):
        r = spark.read.format("kafka-cluster").options(**cluster_options(bootstrap, topic))
        return _agg((r.schema(schema) if schema else r).load())

    return {
        "connector": connector,
        "kafka_cluster": ours,
        "kafka_cluster_value": lambda: ours("value binary"),
        "floor": lambda: _agg(spark.read.format("arrow-replay").load(replay_dir)),
        "transport": lambda: _agg(spark.read.format("arrow-replay").option("fetch", fetch).load(replay_dir)),
    }


def measure_reads(
    spark, bootstrap: str, topics: Dict[Tuple[int, str, int], Tuple[str, int]], work: str, rounds: int
) -> List[dict]:
    out = []
    for (value_bytes, codec, parts), (topic, n) in topics.items():
        replay_dir = os.path.join(work, topic)
        replay_files(bootstrap, topic, replay_dir)

        def check(name, got, n=n, value_bytes=value_bytes):
            assert got == (n, n * value_bytes), (name, got)

        best = best_of(read_routes(spark, bootstrap, topic, replay_dir), rounds, check)
        out.append(
            dict(
                best,
                value_bytes=value_bytes,
                codec=codec,
                partitions=parts,
                records=n,
                no_spark=no_spark(bootstrap, topic, rounds),
            )
        )
        print(fmt_read(out[-1]), flush=True)
    return out


def _discard_sink():
    """``arrow-discard``: the write floor, a Python sink that takes Spark's Arrow batches
    and drops them (what any Python data source pays to be handed the rows)."""
    from pyspark.sql.datasource import DataSource, DataSourceArrowWriter, WriterCommitMessage

    class Discard(DataSourceArrowWriter):
        def write(self, iterator):
            for _ in iterator:
                pass
            return WriterCommitMessage()

    class DiscardSink(DataSource):
        @classmethod
        def name(cls):
            return "arrow-discard"

        def writer(self, schema, overwrite):
            return Discard()

    return DiscardSink


def measure_write(spark, bootstrap: str, n: int, rounds: int, value_bytes: int = VALUE_BYTES) -> dict:
    from pyspark.sql import functions as F

    spark.dataSource.register(_discard_sink())
    rows = spark.range(n, numPartitions=2).select(
        F.format_string("key-%012d", "id").cast("binary").alias("key"),
        F.lit(bytes(i % 251 for i in range(value_bytes))).alias("value"),
    )

    def write(fmt: str) -> Callable[[], object]:
        def run():
            topic = f"bench-w-{uuid.uuid4().hex[:8]}"
            create_topic(bootstrap, topic, WRITE_PARTITIONS)
            rows.write.format(fmt).mode("append").option("kafka.bootstrap.servers", bootstrap).option(
                "topic", topic
            ).save()
            return topic

        return run

    def check(name, topic):
        if name not in ("noop", "python_floor"):
            assert topic_records(bootstrap, topic) == n, (name, topic)

    routes = {
        "connector": write("kafka"),
        "kafka_cluster": write("kafka-cluster"),
        "noop": write("noop"),
        "python_floor": write("arrow-discard"),
    }
    best = best_of(routes, rounds, check)
    return dict(best, records=n, value_bytes=value_bytes)


_MEMORY_CHILD = r"""
import json, resource, sys
import pyarrow as pa
from kafkawire.cluster.client import Cluster
from kafkawire.cluster.plan import OffsetRange, ClusterReadOptions
from kafkawire.spark.kafka_cluster import RangePartition, read_partition

bootstrap, topic, end, fetch = sys.argv[1], sys.argv[2], int(sys.argv[3]), sys.argv[4]
options = ClusterReadOptions.parse({"kafka.bootstrap.servers": bootstrap, "subscribe": topic,
                             "kafka.max.partition.fetch.bytes": fetch})
rows = peak = 0
for batch in read_partition(RangePartition(OffsetRange(topic, 0, 0, end)), options):
    rows += batch.num_rows
    peak = max(peak, batch.nbytes)
    del batch
print(json.dumps({"rows": rows, "largest_batch": peak,
                  "peak_rss": resource.getrusage(resource.RUSAGE_SELF).ru_maxrss * 1024}))
"""


def measure_memory(bootstrap: str, topic: str, n: int, value_bytes: int) -> List[dict]:
    out = []
    for end in (n // 4, n):
        for fetch in FETCH_SIZES:
            got = subprocess.run(
                [sys.executable, "-c", _MEMORY_CHILD, bootstrap, topic, str(end), str(fetch)],
                capture_output=True,
                text=True,
                check=True,
                env=dict(os.environ, PYTHONPATH=os.pathsep.join([ROOT, os.environ.get("PYTHONPATH", "")])),
            )
            fig = json.loads(got.stdout)
            assert fig["rows"] == end, fig
            out.append(dict(fig, records=end, fetch_bytes=fetch, range_bytes=end * value_bytes))
    return out


def measure_cores(bootstrap: str, topic: str, work: str, n: int, rounds: int) -> dict:
    """The reads again on ``local[1]``, in a process of its own: Spark's connector cannot
    be loaded into a second session of one JVM (its settings are registered once)."""
    got = subprocess.run(
        [
            sys.executable,
            __file__,
            "--records",
            str(n),
            "--rounds",
            str(rounds),
            "--local1",
            bootstrap,
            topic,
            work,
        ],
        capture_output=True,
        text=True,
        check=True,
    )
    return json.loads(got.stdout.strip().splitlines()[-1])


def local1_reads(bootstrap: str, topic: str, work: str, n: int, rounds: int) -> dict:
    """The child of :func:`measure_cores`: best times on ``local[1]``."""
    from support.kafka.spark_kafka import connector

    spark = session("local[1]", connector().jars)
    try:

        def check(name, got):
            assert got == (n, n * CORES_TOPIC[0]), (name, got)

        routes = read_routes(spark, bootstrap, topic, os.path.join(work, topic))
        routes.pop("kafka_cluster_value")
        return best_of(routes, rounds, check)
    finally:
        spark.stop()


def session(master: str, jars):
    from kafkawire.spark import local_session

    spark = local_session(master, app="kafkawire-bench-cluster", **{"spark.driver.memory": "2g"})
    for jar in jars:
        spark.sql(f"ADD JAR '{jar}'")
    from kafkawire.cluster.fetch import fetched_schema

    spark.dataSource.register(replay_source(fetched_schema(False)))
    return spark


def fmt_read(f: dict) -> str:
    n, cpu = f["records"], f["cpu"]
    return (
        f"  {n / 1e6:g}M x {f['value_bytes']:4} B {f['codec']:4} {f['partitions']:2} partitions:"
        f" connector {n / f['connector'] / 1e3:6.1f}k rows/s,"
        f" kafka-cluster {n / f['kafka_cluster'] / 1e3:6.1f}k"
        f" ({f['connector'] / f['kafka_cluster']:.2f}x connector, {f['floor'] / f['kafka_cluster']:.2f}x floor),"
        f" value only {f['connector'] / f['kafka_cluster_value']:.2f}x connector,"
        f" floor {n / f['floor'] / 1e3:6.1f}k, transport floor {n / f['transport'] / 1e3:6.1f}k"
        f" ({f['floor'] / f['transport']:.2f}x floor; kafka-cluster {f['transport'] / f['kafka_cluster']:.2f}x of it),"
        f" no Spark {n / f['no_spark'] / 1e3:6.1f}k;"
        f" CPU a run: kafka-cluster {cpu['kafka_cluster']['machine']:.2f} s"
        f" (broker {cpu['kafka_cluster']['broker']:.2f} s), floor {cpu['floor']['machine']:.2f} s,"
        f" transport floor {cpu['transport']['machine']:.2f} s (broker {cpu['transport']['broker']:.2f} s),"
        f" connector {cpu['connector']['machine']:.2f} s (broker {cpu['connector']['broker']:.2f} s)"
    )


def fmt_write(w: dict) -> str:
    n = w["records"]
    return (
        f"write {n:,} rows of {w.get('value_bytes', VALUE_BYTES)} B values into {WRITE_PARTITIONS} partitions, local[2]:"
        f" connector {n / w['connector'] / 1e3:.1f}k rows/s,"
        f" kafka-cluster {n / w['kafka_cluster'] / 1e3:.1f}k rows/s"
        f" ({w['connector'] / w['kafka_cluster']:.2f}x connector), noop {n / w['noop'] / 1e3:.1f}k rows/s,"
        f" Python sink floor {n / w['python_floor'] / 1e3:.1f}k rows/s"
    )


def report(fig: dict) -> str:
    lines = [
        "16 B keys; count + sum(length(value));"
        f" best of {fig['rounds']}; load average before {fig['load_before']}, after {fig['load_after']}",
        "read, local[2] (ratios: time of the other / time of kafka-cluster; higher is faster for kafka-cluster):",
    ]
    lines += [fmt_read(f) for f in fig["reads"]]
    c = fig["cores"]
    r2 = next(f for f in fig["reads"] if (f["value_bytes"], f["codec"], f["partitions"]) == CORES_TOPIC)
    lines.append(
        f"cores, {CORES_TOPIC[0]} B {CORES_TOPIC[1]} {CORES_TOPIC[2]} partitions, local[2] speed over local[1]:"
        f" connector {c['connector'] / r2['connector']:.2f}x, kafka-cluster {c['kafka_cluster'] / r2['kafka_cluster']:.2f}x,"
        f" floor {c['floor'] / r2['floor']:.2f}x; on local[1] kafka-cluster is"
        f" {c['connector'] / c['kafka_cluster']:.2f}x the connector, {c['floor'] / c['kafka_cluster']:.2f}x the floor"
    )
    lines.append(fmt_write(fig["write"]))
    lines.append("memory of one task's read (1 partition):")
    for m in fig["memory"]:
        lines.append(
            f"  range {m['range_bytes'] / 2**20:5.0f} MiB, fetch {m['fetch_bytes'] >> 20} MiB:"
            f" largest Arrow batch {m['largest_batch'] / 2**20:5.1f} MiB, peak RSS {m['peak_rss'] / 2**20:5.0f} MiB"
        )
    return "\n".join(lines)


def main(argv=None) -> int:
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--records", type=int, default=1_000_000, help="records in each topic of 100-byte values")
    p.add_argument("--kib-records", type=int, default=250_000, help="records in the topic of 1 KiB values")
    p.add_argument("--rounds", type=int, default=3)
    p.add_argument("--json", help="also write the figures here")
    p.add_argument("--only", choices=("read", "write", "cores", "memory"), help="measure only this part")
    p.add_argument(
        "--write-value-bytes", type=int, default=VALUE_BYTES, help="value size of the written rows"
    )
    p.add_argument("--local1", nargs=3, metavar=("BOOTSTRAP", "TOPIC", "WORK"), help=argparse.SUPPRESS)
    args = p.parse_args(argv)
    if args.local1:
        print(json.dumps(local1_reads(*args.local1, args.records, args.rounds)))
        return 0
    from support.kafka.broker import start_broker
    from support.kafka.spark_kafka import connector

    jars = connector().jars
    broker = start_broker()
    global BROKER_PID
    BROKER_PID = broker.process.pid if broker.process is not None else None
    spark = None
    fig: dict = {
        "records": args.records,
        "kib_records": args.kib_records,
        "rounds": args.rounds,
        "load_before": [round(x, 2) for x in os.getloadavg()],
    }
    try:
        bootstrap = broker.bootstrap_servers
        t = time.perf_counter()
        topics = {}
        for value_bytes, codec, parts in READ_TOPICS if args.only != "write" else ():
            n = args.records if value_bytes == 100 else args.kib_records
            topic = f"bench-{value_bytes}-{codec}-{parts}-{uuid.uuid4().hex[:6]}"
            topics[(value_bytes, codec, parts)] = (topic, n)
            fill_topic(bootstrap, topic, parts, n, codec, value_bytes)
        print(f"produced {len(topics)} topics in {time.perf_counter() - t:.1f} s", flush=True)
        with tempfile.TemporaryDirectory(prefix="kafkawire-bench-") as work:
            spark = session("local[2]", jars)
            if args.only in (None, "read", "cores"):
                fig["reads"] = measure_reads(spark, bootstrap, topics, work, args.rounds)
            if args.only in (None, "write"):
                fig["write"] = measure_write(
                    spark, bootstrap, args.records, args.rounds, args.write_value_bytes
                )
                print(fmt_write(fig["write"]), flush=True)
            spark.stop()
            spark = None
            if args.only in (None, "cores"):
                topic, n = topics[CORES_TOPIC]
                fig["cores"] = measure_cores(bootstrap, topic, work, n, args.rounds)
            if args.only in (None, "memory"):
                fig["memory"] = measure_memory(bootstrap, *topics[MEMORY_TOPIC], MEMORY_TOPIC[0])
        fig["load_after"] = [round(x, 2) for x in os.getloadavg()]
        if args.only is None:
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
