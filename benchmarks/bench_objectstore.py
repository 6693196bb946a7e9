"""``kafka-log`` from an S3-compatible object store against the same segments on disk.

The log (``bench_spark_layouts.build_log``: 16-byte keys, 100-byte values, one header,
batches of 1000 records; 2 partitions of 8 MB segments) is written to a local folder and
copied into a SeaweedFS server on this machine (``tests/seaweedfs_support``, built by
``python tests/support/seaweedfs.py build``).  Each query runs on both, interleaved, best
of the rounds; the figure is local time / object-store time (1.0: as fast as disk):

* ``read_all``: the plan and every split read to Arrow in one Python process;
* the fetch floor: the same bytes (every split, in ranges of ``chunkBytes``) fetched and
  decoded to nothing, from each copy: pyarrow's S3 client's ranged GETs, one at a time
  and with as many in flight as the reader keeps (``storage.AHEAD_FETCHES`` ahead of the
  one in use), and ``os.pread`` on disk.  ``read_all`` from the store against the best
  of its floor says what the reader adds to the store's own cost (1.0: nothing);
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
from collections import deque
from concurrent.futures import ThreadPoolExecutor

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path[:0] = [HERE, os.path.join(os.path.dirname(HERE), "tests")]

from bench_spark_layouts import _agg, _best_interleaved, build_log  # noqa: E402

BUCKET = "kafkawire-bench"


def _read_all_rows(path: str, options) -> int:
    from kafkawire.log import planning, read

    return sum(b.num_rows for b in read.read_splits(planning.plan(path, options), options))


def _ranges(splits, chunk: int):
    """(split, position, size) of every range the reader fetches of ``splits``."""
    for split in splits:
        for position in range(split.start, split.end, chunk):
            yield split, position, min(chunk, split.end - position)


def fetch_only(splits, chunk: int, in_flight: int = 1) -> int:
    """The floor of reading ``splits``: their bytes fetched in ranges of ``chunk`` and
    decoded to nothing, ``in_flight`` at a time (each object opened once, as the reader
    does): ranged GETs through pyarrow's S3 client for objects, ``os.pread`` for local
    files.  Returns the bytes fetched."""
    from kafkawire.log import storage

    opened = {}

    def open_once(split) -> None:
        if split.path not in opened:
            if isinstance(split.store, storage.ObjectStore):
                opened[split.path] = split.store.filesystem.open_input_file(split.store.key(split.path))
            else:
                opened[split.path] = os.open(split.path, os.O_RDONLY)

    def fetch(split, position: int, size: int) -> int:
        f = opened[split.path]
        return len(os.pread(f, size, position) if isinstance(f, int) else f.read_at(size, position))

    total = 0
    try:
        with ThreadPoolExecutor(in_flight) as pool:
            pending: deque = deque()
            for r in _ranges(splits, chunk):
                open_once(r[0])
                if in_flight == 1:
                    total += fetch(*r)
                    continue
                pending.append(pool.submit(fetch, *r))
                if len(pending) >= in_flight:
                    total += pending.popleft().result()
            while pending:
                total += pending.popleft().result()
        return total
    finally:
        for f in opened.values():
            os.close(f) if isinstance(f, int) else f.close()


def floor_runs(splits, chunk: int) -> dict:
    """The fetch floors of ``splits`` (:func:`fetch_only`), by name: one range at a
    time, and as many in flight as the reader keeps."""
    from kafkawire.log import storage

    deep = storage.AHEAD_FETCHES + 1
    return {
        "fetch_1": lambda: fetch_only(splits, chunk, 1),
        f"fetch_{deep}": lambda: fetch_only(splits, chunk, deep),
    }


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
    from support import seaweedfs as seaweedfs_support

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
        chunk = plain.chunk_bytes
        runs = {"local": lambda: _read_all_rows(local, plain), "s3": lambda: _read_all_rows(uri, remote)}
        for where, splits in (("local", planning.plan(local, plain)), ("s3", planning.plan(uri, remote))):
            assert fetch_only(splits, chunk) == sum(s.end - s.start for s in splits)
            for name, run in floor_runs(splits, chunk).items():
                runs[f"{where}_{name}"] = run
        t = _best_interleaved(runs, rounds)
        floor_s3 = min(v for k, v in t.items() if k.startswith("s3_fetch"))
        floor_local = min(v for k, v in t.items() if k.startswith("local_fetch"))
        out = {
            "read_all_local_s": t["local"],
            "read_all_s3_s": t["s3"],
            "read_all_ratio": t["local"] / t["s3"],
            "floor_s3_s": floor_s3,
            "floor_local_s": floor_local,
            "floors_s": {k: v for k, v in t.items() if "fetch" in k},
            "chunk_bytes": chunk,
            # what the reader adds to the store's own cost (1.0: nothing)
            "vs_floor": floor_s3 / t["s3"],
            # the best read_all from the store could do against the local read
            "floor_ratio": t["local"] / floor_s3,
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
        f"fetch floor (the same bytes in {fig['chunk_bytes'] >> 20} MB ranges, no decode): SeaweedFS"
        f" {fig['floor_s3_s']:.2f} s, disk {fig['floor_local_s']:.3f} s"
        f" ({', '.join(f'{k} {v:.3f} s' for k, v in fig['floors_s'].items())})",
        f"read_all from SeaweedFS against its fetch floor: {fig['vs_floor']:.2f}x;"
        f" the floor against read_all from disk: {fig['floor_ratio']:.2f}x (the most read_all"
        " from the store could reach)",
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
