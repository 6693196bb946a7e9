"""``kafka-log`` on local Spark against the route a user has today, in one run.

Workload: a log directory of about 1M records (16-byte keys, 100-byte values, one header,
uncompressed batches of 1000 records) in 2 partitions of 8 MB segments.  Each route
reads every record and aggregates (count, value bytes, max offset) on ``local[2]``:

* ``kafka-log``: ``spark.read.format("kafka-log").load(dir)``;
* ``binaryFile`` + a Python UDF decoding each segment with aiokafka's record reader (its
  Cython ``MemoryRecords``), exploded into rows: what works without kafkawire.

Then the split of the ``kafka-log`` time: the same splits read in this process by
``read.read_split`` (kafkawire's decode to Arrow, one core) against Spark's wall time
on two cores.

Run as a script (``python benchmarks/bench_spark.py [--records N]``) or under
pytest-benchmark (``pytest benchmarks/bench_spark.py``, one round each).
"""

from __future__ import annotations

import argparse
import os
import shutil
import sys
import tempfile
import time

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.dirname(HERE))


def build_log(directory: str, n_records: int = 1_000_000, partitions: int = 2) -> int:
    """The benchmark's log directory; returns its size in bytes."""
    from kafkawire.protocol import records
    from kafkawire.log import write

    per_batch = 1000
    value = bytes(range(100))
    total = 0
    for p in range(partitions):
        d = os.path.join(directory, f"bench-{p}")
        with write.PartitionWriter(d, segment_bytes=8 << 20) as w:
            n = n_records // partitions
            for base in range(0, n, per_batch):
                recs = [
                    {
                        "key": b"key-%012d" % (base + i),
                        "value": value,
                        "headers": [("trace", b"0123456789abcdef")],
                        "timestamp": 1_700_000_000_000 + base + i,
                    }
                    for i in range(min(per_batch, n - base))
                ]
                data = records.encode_batch(recs, base_offset=base)
                w.append(data)
                total += len(data)
    return total


def _aiokafka_udf():
    from pyspark.sql.functions import udf

    @udf(
        "array<struct<offset: bigint, timestamp: bigint, key: binary, value: binary, "
        "headers: array<struct<key: string, value: binary>>>>"
    )
    def decode_segment(content):
        from aiokafka.record.memory_records import MemoryRecords

        mem = MemoryRecords(bytes(content))
        out = []
        while mem.has_next():
            batch = mem.next_batch()
            if batch.is_control_batch:
                continue
            for r in batch:
                out.append((r.offset, r.timestamp, r.key, r.value, list(r.headers)))
        return out

    return decode_segment


def measure(spark, directory: str, n_records: int) -> dict:
    from pyspark.sql import functions as F

    from kafkawire.log import planning, read, read_options

    def agg(df):
        return df.agg(
            F.count("*").alias("n"), F.sum(F.length("value")).alias("bytes"), F.max("offset").alias("hi")
        ).collect()[0]

    out: dict = {}
    # warm the Python workers once (imports, worker start) so both routes start equal
    agg(spark.read.format("kafka-log").load(os.path.join(directory, "bench-0")))

    t = time.perf_counter()
    r = agg(spark.read.format("kafka-log").load(directory))
    out["kafka_log_s"] = time.perf_counter() - t
    assert r.n == n_records, r

    decode = _aiokafka_udf()
    files = spark.read.format("binaryFile").load(os.path.join(directory, "*", "*.log"))
    t = time.perf_counter()
    rows = files.select(F.explode(decode("content")).alias("r")).select("r.*")
    r2 = agg(rows)
    out["binaryfile_udf_s"] = time.perf_counter() - t
    assert r2.n == n_records and r2.bytes == r.bytes, (r, r2)

    # kafkawire's own share: the same splits, decoded to Arrow in this process
    opts = read_options.ReadOptions()
    splits = planning.plan(directory, opts)
    for _ in read.read_split(splits[0], opts):  # warm: imports, page cache
        pass
    t = time.perf_counter()
    n = sum(b.num_rows for s in splits for b in read.read_split(s, opts))
    out["decode_one_core_s"] = time.perf_counter() - t
    assert n == n_records
    out["records"] = n_records
    out["splits"] = len(splits)
    out["kafka_log_rows_per_s"] = n_records / out["kafka_log_s"]
    out["binaryfile_udf_rows_per_s"] = n_records / out["binaryfile_udf_s"]
    out["speedup"] = out["binaryfile_udf_s"] / out["kafka_log_s"]
    # CPU-seconds of decode over the CPU-seconds Spark's two cores had
    out["decode_share"] = out["decode_one_core_s"] / (2 * out["kafka_log_s"])
    return out


def report(fig: dict) -> str:
    return (
        f"{fig['records']:,} records, {fig['splits']} splits, local[2]\n"
        f"  kafka-log                 {fig['kafka_log_s']:7.2f} s  "
        f"{fig['kafka_log_rows_per_s']:>12,.0f} rows/s\n"
        f"  binaryFile + aiokafka UDF {fig['binaryfile_udf_s']:7.2f} s  "
        f"{fig['binaryfile_udf_rows_per_s']:>12,.0f} rows/s\n"
        f"  kafka-log is {fig['speedup']:.1f}x faster\n"
        f"  kafkawire decode alone: {fig['decode_one_core_s']:.2f} s on one core = "
        f"{fig['decode_share'] * 100:.0f}% of the CPU time of the kafka-log query; "
        f"the rest is Spark (Arrow transfer to the JVM, the aggregation, task overhead)"
    )


def _session():
    from kafkawire.spark import local_session

    # the UDF route holds a whole segment's records as Python rows: give it room
    return local_session("local[2]", app="kafkawire-bench", **{"spark.driver.memory": "4g"})


def test_kafka_log_vs_binaryfile_udf(benchmark, tmp_path):
    n = int(os.environ.get("KAFKAWIRE_BENCH_RECORDS", 1_000_000))
    build_log(str(tmp_path), n)
    spark = _session()
    fig = benchmark.pedantic(measure, args=(spark, str(tmp_path), n), rounds=1, iterations=1)
    benchmark.extra_info.update(fig)
    print("\n" + report(fig))
    assert fig["speedup"] >= 1


def main(argv=None) -> int:
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--records", type=int, default=1_000_000)
    p.add_argument("--dir", help="keep the log here (default: a temporary directory)")
    args = p.parse_args(argv)
    directory = args.dir or tempfile.mkdtemp(prefix="kafkawire-bench-")
    try:
        if not os.path.isdir(directory) or not os.listdir(directory):
            t = time.perf_counter()
            size = build_log(directory, args.records)
            print(f"built {size / 1e6:.0f} MB in {time.perf_counter() - t:.1f}s")
        spark = _session()
        print(report(measure(spark, directory, args.records)))
        spark.stop()
    finally:
        if not args.dir:
            shutil.rmtree(directory, ignore_errors=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
