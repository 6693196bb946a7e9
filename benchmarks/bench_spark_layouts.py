"""``kafka-log`` against the floor and Spark's Parquet reader, for three log layouts.

The query: ``count(*)``, ``sum(length(value))``, ``max(offset)`` over every record on
``local[2]``.  Rows: 16-byte keys, 100-byte values, one header, batches of 1000 records.

* ``kafka-log``: the log itself;
* the replay floor: a trivial Python data source yielding the same rows, already decoded,
  from Arrow IPC files (one per core): what any Python data source costs Spark;
* Parquet: the same rows written by Spark, read by its own (JVM) reader.

Parquet reads only the columns the query uses.  Spark tells a Python data source
nothing of the sort, so each layout is measured twice: with every column, and with a
schema naming the two columns the query uses (``offset``, ``value``), given to both
``kafka-log`` and the floor.

Layouts: 2 partitions of 1 GiB segments; 2 partitions of 8 MB segments; 100 partitions of
small segments.  Then two filtered queries against the full scan of the first layout:
the newest 1% by timestamp, and one partition's offset range.

Run as a script (``python benchmarks/bench_spark_layouts.py [--records N]``), from outside
the source tree or with the extensions built in place, or under pytest-benchmark.
"""

from __future__ import annotations

import argparse
import os
import shutil
import sys
import tempfile
import time

from _replay_floor import replay_source

BASE_TS = 1_700_000_000_000
#: the columns the query reads, as a schema a Python data source can be given
QUERY_COLUMNS = "offset bigint, value binary"
LAYOUTS = {
    "2 partitions, 1 GiB segments": (2, 1 << 30),
    "2 partitions, 8 MB segments": (2, 8 << 20),
    "100 partitions, small segments": (100, 256 << 10),
}


def _batches(n_records: int):
    """The benchmark's records (16-byte keys, 100-byte values, one header), as record
    batches of 1000 with offsets from 0."""
    from kafkawire.protocol import records

    value = bytes(range(100))
    for base in range(0, n_records, 1000):
        recs = [
            {
                "key": b"key-%012d" % (base + i),
                "value": value,
                "headers": [("trace", b"0123456789abcdef")],
                "timestamp": BASE_TS + base + i,
            }
            for i in range(min(1000, n_records - base))
        ]
        yield records.encode_batch(recs, base_offset=base)


def build_log(directory: str, n_records: int, partitions: int, segment_bytes: int) -> None:
    from kafkawire.log import write

    per = n_records // partitions
    for p in range(partitions):
        with write.PartitionWriter(os.path.join(directory, f"bench-{p}"), segment_bytes=segment_bytes) as w:
            for batch in _batches(per):
                w.append(batch)


def build_replay(log_dir: str, out_dir: str, files: int) -> None:
    """The log's rows, decoded once, as ``files`` Arrow IPC files."""
    import pyarrow as pa

    from kafkawire.log import planning, read, read_options

    opts = read_options.ReadOptions(min_partitions=files)
    groups = planning.pack(planning.plan(log_dir, opts), opts)
    schema = read_options.read_schema(opts)
    os.makedirs(out_dir, exist_ok=True)
    sinks = [pa.OSFile(os.path.join(out_dir, f"part-{i}.arrow"), "wb") for i in range(files)]
    writers = [pa.ipc.new_file(s, schema) for s in sinks]
    for i, g in enumerate(groups):
        for b in read.read_splits(g, opts):
            writers[i % files].write_batch(b)
    for w, s in zip(writers, sinks):
        w.close()
        s.close()


def _agg(df):
    from pyspark.sql import functions as F

    return tuple(df.agg(F.count("*"), F.sum(F.length("value")), F.max("offset")).collect()[0])


def _best(fn, rounds: int) -> float:
    best = float("inf")
    for _ in range(rounds):
        t = time.perf_counter()
        fn()
        best = min(best, time.perf_counter() - t)
    return best


def _best_interleaved(queries: dict, rounds: int) -> dict:
    """The best time of each query over ``rounds`` rounds, a round running each query
    once in turn: a drift of the machine or of the JVM's compilation is shared, not
    charged to whichever query runs first."""
    best = {name: float("inf") for name in queries}
    for _ in range(rounds):
        for name, fn in queries.items():
            t = time.perf_counter()
            fn()
            best[name] = min(best[name], time.perf_counter() - t)
    return best


def measure(spark, work: str, n_records: int, rounds: int = 2) -> dict:
    from kafkawire.log import read_options

    spark.dataSource.register(replay_source(read_options.read_schema()))
    out: dict = {}
    full_dir = None
    for name, (partitions, seg) in LAYOUTS.items():
        log_dir = os.path.join(work, f"log-{partitions}-{seg}")
        build_log(log_dir, n_records, partitions, seg)
        replay_dir = os.path.join(work, f"replay-{partitions}-{seg}")
        build_replay(log_dir, replay_dir, spark.sparkContext.defaultParallelism)
        parquet_dir = os.path.join(work, f"parquet-{partitions}-{seg}")
        kl = spark.read.format("kafka-log").load(log_dir)
        kl.select("offset", "timestamp", "key", "value", "headers").write.parquet(parquet_dir)
        replay = spark.read.format("arrow-replay").load(replay_dir)
        parquet = spark.read.parquet(parquet_dir)
        expected = _agg(replay)  # also warms the workers
        assert _agg(kl) == expected == _agg(parquet), (name, _agg(kl), expected)
        kl_some = spark.read.format("kafka-log").schema(QUERY_COLUMNS).load(log_dir)
        replay_some = spark.read.format("arrow-replay").schema(QUERY_COLUMNS).load(replay_dir)
        assert _agg(kl_some) == _agg(replay_some) == expected
        t = _best_interleaved(
            {
                "kl": lambda: _agg(kl),
                "floor": lambda: _agg(replay),
                "parquet": lambda: _agg(parquet),
                "kl_some": lambda: _agg(kl_some),
                "floor_some": lambda: _agg(replay_some),
            },
            rounds,
        )
        t_kl, t_floor, t_parquet = t["kl"], t["floor"], t["parquet"]
        t_kl_some, t_floor_some = t["kl_some"], t["floor_some"]
        out[name] = {
            "kafka_log_s": t_kl,
            "floor_s": t_floor,
            "parquet_s": t_parquet,
            "vs_floor": t_floor / t_kl,
            "vs_parquet": t_parquet / t_kl,
            "kafka_log_2col_s": t_kl_some,
            "floor_2col_s": t_floor_some,
            "vs_floor_2col": t_floor_some / t_kl_some,
            "vs_parquet_2col": t_parquet / t_kl_some,
            "tasks": kl.rdd.getNumPartitions(),
        }
        if full_dir is None:
            full_dir = log_dir
    out.update(
        measure_filters(spark, full_dir, n_records, rounds, full=out[next(iter(LAYOUTS))]["kafka_log_s"])
    )
    out["udf"] = measure_udf(spark, n_records, rounds)
    return out


def measure_filters(spark, log_dir: str, n_records: int, rounds: int = 2, full: float = None) -> dict:
    """The newest 1% by timestamp, and one partition's offset range, against the full
    scan of a log of 2 partitions (``build_log`` with 2 partitions)."""
    df = spark.read.format("kafka-log").load(log_dir)
    if full is None:
        assert _agg(df)[0] == n_records
        full = _best(lambda: _agg(df), rounds)
    per = n_records // 2
    newest = BASE_TS + per - per // 100
    lo, hi = per // 2, per // 2 + per // 1000
    out = {}
    for label, cond, want in (
        ("timestamp >= newest 1%", f"timestamp >= timestamp_millis({newest})", 2 * (per // 100)),
        (
            "partition = 1 and offset between A and B",
            f"partition = 1 and offset between {lo} and {hi}",
            hi - lo + 1,
        ),
    ):
        q = df.where(cond)
        assert _agg(q)[0] == want, (label, _agg(q))
        t = _best(lambda: _agg(q), rounds)
        out[label] = {"filtered_s": t, "full_scan_s": full, "speedup": full / t}
    return out


def _aiokafka_arrow_udf():
    """The same work with aiokafka's Cython record reader in an Arrow UDF: every column
    ``decode_record_batches`` gives, as Python values turned into Arrow."""
    from pyspark.sql.functions import arrow_udf

    from kafkawire.spark.functions import _RECORD, _arrow_type, _ddl

    record_type = _arrow_type(_RECORD)
    codecs = {0: "none", 1: "gzip", 2: "snappy", 3: "lz4", 4: "zstd"}

    @arrow_udf(f"array<{_ddl(_RECORD)}>")
    def decode(batches):
        import datetime

        import pyarrow as pa
        from aiokafka.record.memory_records import MemoryRecords

        utc = datetime.timezone.utc
        out = []
        for data in batches.to_pylist():
            mem = MemoryRecords(data)
            rows = []
            while mem.has_next():
                batch = mem.next_batch()
                if batch.is_control_batch:
                    continue
                for r in batch:
                    rows.append(
                        {
                            "offset": r.offset,
                            "timestamp": datetime.datetime.fromtimestamp(r.timestamp / 1000, utc),
                            "timestamp_type": r.timestamp_type,
                            "key": r.key,
                            "value": r.value,
                            "headers": [{"key": k, "value": v} for k, v in r.headers],
                            "partition_leader_epoch": -1,
                            "producer_id": batch.producer_id,
                            "producer_epoch": batch.producer_epoch,
                            "sequence": batch.base_sequence + r.offset - batch.base_offset,
                            "is_transactional": batch.is_transactional,
                            "is_control": False,
                            "compression": codecs[batch.compression_type],
                        }
                    )
            out.append(rows)
        return pa.array(out, type=pa.list_(pa.field("element", record_type)))

    return decode


def measure_udf(spark, n_records: int, rounds: int = 2) -> dict:
    """``decode_record_batches`` over a binary column of record batches (one batch of
    1000 records a row) against an Arrow UDF calling aiokafka, both exploded to rows."""
    from pyspark.sql import functions as F

    from kafkawire.spark.functions import decode_record_batches

    rows = [(batch,) for batch in _batches(n_records)]
    df = (
        spark.createDataFrame(rows, "batch binary").repartition(spark.sparkContext.defaultParallelism).cache()
    )
    df.count()
    ours = df.select(F.explode(decode_record_batches("batch")).alias("r")).select("r.*")
    theirs = df.select(F.explode(_aiokafka_arrow_udf()("batch")).alias("r")).select("r.*")
    assert _agg(ours) == _agg(theirs)
    t_ours = _best(lambda: _agg(ours), rounds)
    t_theirs = _best(lambda: _agg(theirs), rounds)
    df.unpersist()
    return {
        "decode_record_batches_s": t_ours,
        "aiokafka_arrow_udf_s": t_theirs,
        "ours_rows_per_s": n_records / t_ours,
        "theirs_rows_per_s": n_records / t_theirs,
        "speedup": t_theirs / t_ours,
    }


def report(fig: dict, n_records: int) -> str:
    lines = [f"{n_records:,} records, local[2]"]
    for name in (n for n in LAYOUTS if n in fig):
        f = fig[name]
        lines.append(
            f"  {name:34s} kafka-log {f['kafka_log_s']:6.2f} s ({f['tasks']} tasks)"
            f"  floor {f['floor_s']:6.2f} s  parquet {f['parquet_s']:6.2f} s"
            f"  -> {f['vs_floor']:.2f}x floor, {f['vs_parquet']:.2f}x parquet"
        )
        if "kafka_log_2col_s" in f:
            lines.append(
                f"  {'  same, schema ' + QUERY_COLUMNS:34s} kafka-log "
                f"{f['kafka_log_2col_s']:6.2f} s            floor "
                f"{f['floor_2col_s']:6.2f} s                  -> "
                f"{f['vs_floor_2col']:.2f}x floor, {f['vs_parquet_2col']:.2f}x parquet"
            )
    for name, f in fig.items():
        if "full_scan_s" in f:
            lines.append(
                f"  {name:42s} {f['filtered_s']:6.2f} s vs full scan "
                f"{f['full_scan_s']:6.2f} s: {f['speedup']:.1f}x"
            )
    u = fig.get("udf")
    if u:
        lines.append(
            f"  UDF over record-batch bytes: decode_record_batches "
            f"{u['ours_rows_per_s']:,.0f} rows/s, aiokafka Arrow UDF "
            f"{u['theirs_rows_per_s']:,.0f} rows/s: {u['speedup']:.1f}x"
        )
    return "\n".join(lines)


def _session():
    from kafkawire.spark import local_session

    return local_session("local[2]", app="kafkawire-bench-layouts", **{"spark.driver.memory": "4g"})


def test_kafka_log_layouts_vs_floor_and_parquet(benchmark, tmp_path):
    n = int(os.environ.get("KAFKAWIRE_BENCH_RECORDS", 1_000_000))
    spark = _session()
    fig = benchmark.pedantic(measure, args=(spark, str(tmp_path), n), rounds=1, iterations=1)
    benchmark.extra_info.update({k: v for k, v in fig.items()})
    print("\n" + report(fig, n))


def main(argv=None) -> int:
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--records", type=int, default=1_000_000)
    p.add_argument("--rounds", type=int, default=2)
    p.add_argument(
        "--filters-only",
        action="store_true",
        help="only the filtered queries, on 2 partitions of 1 GiB segments "
        "(e.g. --records 14000000 for about 2 GB)",
    )
    args = p.parse_args(argv)
    work = tempfile.mkdtemp(prefix="kafkawire-bench-layouts-")
    try:
        spark = _session()
        if args.filters_only:
            build_log(work, args.records, 2, 1 << 30)
            print(report(measure_filters(spark, work, args.records, args.rounds), args.records))
        else:
            print(report(measure(spark, work, args.records, args.rounds), args.records))
        spark.stop()
    finally:
        shutil.rmtree(work, ignore_errors=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
