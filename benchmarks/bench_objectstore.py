"""``kafka-log`` from an S3-compatible object store against the same segments on disk.

The log (``bench_spark_layouts.build_log``: 16-byte keys, 100-byte values, one header,
batches of 1000 records; 2 partitions of 8 MB segments) is written to a local folder and
copied into a SeaweedFS server on this machine (``tests/seaweedfs_support``, built by
``python tests/seaweedfs_support.py build``).  Each query runs on both, interleaved, best
of the rounds; the figure is local time / object-store time (1.0: as fast as disk):

* ``read_all``: the plan and every split read to Arrow in one Python process;
* Spark: ``count(*)``, ``sum(length(value))``, ``max(offset)`` on ``local[2]``;
* a selective filter (300 records by offset) read through the store, with the bytes the
  store served over the bytes of the batches returned.

Run as a script (``python benchmarks/bench_objectstore.py [--records N]``) or under
pytest-benchmark.
"""

from __future__ import annotations

import argparse
import os
import shutil
import sys
import tempfile
import time

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path[:0] = [HERE, os.path.join(os.path.dirname(HERE), "tests")]

from bench_spark_layouts import _agg, _best_interleaved, build_log  # noqa: E402

BUCKET = "kafkawire-bench"


def _read_all_rows(path: str, options) -> int:
    from kafkawire.log import planning, read

    return sum(b.num_rows for b in read.read_splits(planning.plan(path, options), options))


def _filtered_bytes(local: str, uri: str, options, row_filter):
    """(rows, bytes the store served, bytes of the batches holding the rows) of one read
    of ``uri`` filtered by offsets (the batches measured in the local copy ``local``)."""
    from kafkawire.log import planning, read, scan, segments

    splits = planning.plan(uri, options, row_filter)
    store = splits[0].store
    before = store.bytes_read
    rows = 0
    lo, hi = row_filter.min_offset, row_filter.max_offset
    for b in read.read_splits(splits, options, row_filter=row_filter):
        rows += sum(1 for o in b.column(b.schema.get_field_index("offset")).to_pylist() if lo <= o <= hi)
    returned = 0
    for plog in segments.discover(local):
        if row_filter.keeps_partition(plog.topic, plog.partition):
            for seg in plog.segments:
                returned += sum(
                    h.size_in_bytes
                    for h in scan.scan_headers(seg.path)
                    if h.last_offset >= lo and h.base_offset <= hi
                )
    return rows, store.bytes_read - before, returned


def measure(work: str, n_records: int, rounds: int = 3, spark=None) -> dict:
    import seaweedfs_support

    from kafkawire.log import planning, read_options, storage

    local = os.path.join(work, "log")
    build_log(local, n_records, 2, 8 << 20)
    server = seaweedfs_support.start_server()
    try:
        uri = server.upload(local, BUCKET, "log")
        remote = read_options.ReadOptions(
            storage=storage.StorageOptions(
                endpoint=server.endpoint, access_key=server.access_key, secret_key=server.secret_key
            )
        )
        plain = read_options.ReadOptions()
        assert _read_all_rows(uri, remote) == _read_all_rows(local, plain) == n_records
        t = _best_interleaved(
            {"local": lambda: _read_all_rows(local, plain), "s3": lambda: _read_all_rows(uri, remote)}, rounds
        )
        out = {
            "read_all_local_s": t["local"],
            "read_all_s3_s": t["s3"],
            "read_all_ratio": t["local"] / t["s3"],
            "bytes": sum(os.path.getsize(os.path.join(d, f)) for d, _, fs in os.walk(local) for f in fs),
        }
        f = planning.RowFilter(
            partitions=frozenset({0}), min_offset=n_records // 4, max_offset=n_records // 4 + 299
        )
        rows, served, returned = _filtered_bytes(local, uri, remote, f)
        assert rows == 300
        out.update(
            filter_rows=rows, filter_served=served, filter_returned=returned, filter_ratio=served / returned
        )
        if spark is not None:
            reader = spark.read.format("kafka-log")
            dl = reader.load(local)
            ds = reader.options(**server.options).load(uri)
            assert _agg(dl) == _agg(ds)
            t = _best_interleaved({"local": lambda: _agg(dl), "s3": lambda: _agg(ds)}, rounds)
            out.update(spark_local_s=t["local"], spark_s3_s=t["s3"], spark_ratio=t["local"] / t["s3"])
    finally:
        server.stop()
        shutil.rmtree(server.directory, ignore_errors=True)
    return out


def report(fig: dict, n_records: int) -> str:
    lines = [
        f"{n_records} records, {fig['bytes'] / 1e6:.0f} MB in 2 partitions of 8 MB segments; "
        "local time / object-store time (higher: the store is faster)",
        f"read_all, one process: local {fig['read_all_local_s']:.2f} s, SeaweedFS {fig['read_all_s3_s']:.2f} s:"
        f" {fig['read_all_ratio']:.2f}x",
    ]
    if "spark_ratio" in fig:
        lines.append(
            f"Spark local[2] count/sum/max: local {fig['spark_local_s']:.2f} s, SeaweedFS {fig['spark_s3_s']:.2f} s:"
            f" {fig['spark_ratio']:.2f}x"
        )
    lines.append(
        f"filter of {fig['filter_rows']} records by offset: served {fig['filter_served']} bytes for"
        f" {fig['filter_returned']} bytes of batches returned ({fig['filter_ratio']:.2f}x)"
    )
    return "\n".join(lines)


def _session():
    from kafkawire.spark import local_session

    return local_session("local[2]", app="kafkawire-bench-objectstore", **{"spark.driver.memory": "4g"})


def test_object_store_vs_local_disk(benchmark, tmp_path):
    n = int(os.environ.get("KAFKAWIRE_BENCH_RECORDS", 1_000_000))
    spark = _session()
    fig = benchmark.pedantic(
        measure, args=(str(tmp_path), n), kwargs={"spark": spark}, rounds=1, iterations=1
    )
    benchmark.extra_info.update(fig)
    print("\n" + report(fig, n))


def main(argv=None) -> int:
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--records", type=int, default=1_000_000)
    p.add_argument("--rounds", type=int, default=3)
    p.add_argument("--no-spark", action="store_true", help="only the read_all and filter figures")
    args = p.parse_args(argv)
    work = tempfile.mkdtemp(prefix="kafkawire-bench-objectstore-")
    try:
        spark = None if args.no_spark else _session()
        began = time.perf_counter()
        print(report(measure(work, args.records, args.rounds, spark), args.records))
        print(f"({time.perf_counter() - began:.0f} s)")
        if spark is not None:
            spark.stop()
    finally:
        shutil.rmtree(work, ignore_errors=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
