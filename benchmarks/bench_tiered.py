"""Reading a topic from Kafka's tiered storage against the same segments on local disk.

One partition of the benchmark log (``bench_spark_layouts.build_log``: 16-byte keys,
100-byte values, one header, batches of 1000 records) is cut into segments and tiered
as a broker with Kafka's file-based RemoteStorageManager (``LocalTieredStorage``) would
leave it: every closed segment, with its indexes, in the remote tier's layout
(``kafka-tiered-storage/<topic>-<partition>-<topic id>/<offset>-<segment id>.log``),
described by ``__remote_log_metadata`` records (copy started, copy finished), and only
the last segment left in the local partition folder.  ``read_all`` (the plan and every
split read to Arrow, in one process) then reads, interleaved, best of the rounds:

* local: the partition folder holding every segment;
* tiered, on disk: the remote tier in a local folder plus the local tail (what the
  metadata folding, listing and joining of the tiers cost);
* tiered, SeaweedFS: the same remote tier in an S3-compatible server on this machine
  (``tests/seaweedfs_support``; left out when it is not built).

and, in the same rounds, the fetch floor of the SeaweedFS read
(``bench_objectstore.fetch_only``: the same splits' bytes fetched in ranges of
``chunkBytes`` and decoded to nothing, the remote tier by ranged GETs, the local tail by
``os.pread``).  The figure is local time / tiered time (1.0: as fast as the local log);
the SeaweedFS read is also given against its floor (1.0: the reader adds nothing to
the store's cost).  Run as a script
(``python benchmarks/bench_tiered.py [--records N]``) or under pytest-benchmark.
"""

from __future__ import annotations

import argparse
import os
import shutil
import sys
import tempfile
import time
import uuid
from typing import Any, Callable, Dict, List, Optional, Tuple

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path[:0] = [HERE, os.path.join(os.path.dirname(HERE), "tests")]

from bench_objectstore import fetch_only, floor_runs  # noqa: E402
from bench_spark_layouts import _best_interleaved, build_log  # noqa: E402

BUCKET = "kafkawire-bench-tiered"
TOPIC = "bench"
TOPIC_ID = uuid.UUID("5b3e6f1c-1f0a-4d51-9c39-3f6f0a2e7d10")


def _metadata_batch(values: List[bytes], base_offset: int) -> bytes:
    from kafkawire.protocol import records

    return records.encode_batch(
        [{"key": None, "value": v, "timestamp": 0} for v in values], base_offset=base_offset
    )


def tier(local: str, work: str) -> Tuple[str, str, str]:
    """Tier the partition folder ``local`` (``<work>/.../bench-0``): its closed segments
    into ``<work>/remote`` and ``<work>/logs/__remote_log_metadata-0``, its last segment
    into ``<work>/logs/bench-0``.  Returns (local tail folder, remote root, metadata
    folder)."""
    from kafkawire.protocol import internal_topics, messages
    from kafkawire.log import scan, segments, tiered, write

    plog = segments.discover(local)[0]
    tail = os.path.join(work, "logs", f"{TOPIC}-0")
    metadata = os.path.join(work, "logs", "__remote_log_metadata-0")
    root = os.path.join(work, "remote")
    os.makedirs(tail)
    values: List[bytes] = []
    for seg in plog.segments[:-1]:
        last = list(scan.scan_headers(seg.path))[-1].last_offset
        remote = tiered.RemoteSegment(
            TOPIC, 0, TOPIC_ID, uuid.uuid4(), seg.base_offset, last, seg.size, tiered.COPY_SEGMENT_FINISHED
        )
        folder = os.path.join(root, tiered.LOCAL_TIERED_STORAGE_ROOT, remote.folder)
        os.makedirs(folder, exist_ok=True)
        for suffix in (segments.LOG_SUFFIX, segments.INDEX_SUFFIX, segments.TIME_INDEX_SUFFIX):
            src = seg.path[: -len(segments.LOG_SUFFIX)] + suffix
            if os.path.exists(src):
                shutil.copyfile(src, os.path.join(folder, remote.object_name(suffix)))
        sid = {"topic_id_partition": {"name": TOPIC, "id": TOPIC_ID, "partition": 0}, "id": remote.segment_id}
        started = messages.RemoteLogSegmentMetadataRecord(
            remote_log_segment_id=sid,
            start_offset=seg.base_offset,
            end_offset=last,
            broker_id=1,
            segment_leader_epochs=[{"leader_epoch": 0, "offset": seg.base_offset}],
            segment_size_in_bytes=seg.size,
            remote_log_segment_state=0,
            txn_index_empty=True,
        )
        finished = messages.RemoteLogSegmentMetadataUpdateRecord(
            remote_log_segment_id=sid, broker_id=1, remote_log_segment_state=tiered.COPY_SEGMENT_FINISHED
        )
        values += [internal_topics.encode_remote_log_metadata_record(m, 0) for m in (started, finished)]
    with write.PartitionWriter(metadata) as w:
        w.append(_metadata_batch(values, 0))
    active = plog.segments[-1]
    for suffix in (segments.LOG_SUFFIX, segments.INDEX_SUFFIX, segments.TIME_INDEX_SUFFIX):
        src = active.path[: -len(segments.LOG_SUFFIX)] + suffix
        if os.path.exists(src):
            shutil.copyfile(src, os.path.join(tail, os.path.basename(src)))
    with open(os.path.join(tail, tiered.PARTITION_METADATA), "w") as f:
        f.write(f"version: 0\ntopic_id: {tiered.kafka_uuid(TOPIC_ID)}\n")
    return tail, root, metadata


def _rows(path: str, options: Any) -> int:
    from kafkawire.log import planning, read

    return sum(b.num_rows for b in read.read_splits(planning.plan(path, options), options))


def measure(
    work: str, n_records: int, segment_bytes: int = 2 << 20, rounds: int = 9, s3: bool = True
) -> Dict[str, Any]:
    from kafkawire.log import planning, read_options, segments
    from kafkawire.log import storage

    build_log(os.path.join(work, "whole"), n_records, 1, segment_bytes)
    local = os.path.join(work, "whole", f"{TOPIC}-0")
    tail, root, metadata = tier(local, work)
    plain = read_options.ReadOptions()
    on_disk = read_options.ReadOptions(remote_storage_path=root, remote_log_metadata_path=metadata)
    runs: Dict[str, Callable[[], int]] = {
        "local": lambda: _rows(local, plain),
        "tiered_disk": lambda: _rows(tail, on_disk),
    }
    out: Dict[str, Any] = {
        "segments": len(segments.discover(local)[0].segments),
        "bytes": segments.discover(local)[0].size,
    }
    server = None
    try:
        if s3:
            from support import seaweedfs as seaweedfs_support

            try:
                server = seaweedfs_support.start_server()
            except seaweedfs_support.SeaweedUnavailable as exc:  # the on-disk figures only
                print(f"(no SeaweedFS: {exc})")
        if server is not None:
            uri = server.upload(root, BUCKET, "remote")
            in_s3 = read_options.ReadOptions(
                remote_storage_path=uri,
                remote_log_metadata_path=metadata,
                storage=storage.StorageOptions(
                    endpoint=server.endpoint, access_key=server.access_key, secret_key=server.secret_key
                ),
            )
            runs["tiered_s3"] = lambda: _rows(tail, in_s3)
            splits = planning.plan(tail, in_s3)
            assert fetch_only(splits, in_s3.chunk_bytes) == sum(s.end - s.start for s in splits)
            floors = floor_runs(splits, in_s3.chunk_bytes)
            runs.update({f"floor_{name}": run for name, run in floors.items()})
        for name, run in runs.items():
            assert name.startswith("floor_") or run() == n_records, name
        t = _best_interleaved(runs, rounds)
    finally:
        if server is not None:
            server.stop()
            shutil.rmtree(server.directory, ignore_errors=True)
    floors = {name: seconds for name, seconds in t.items() if name.startswith("floor_")}
    for name, seconds in t.items():
        out[f"{name}_s"] = seconds
        if name not in floors:
            out[f"{name}_ratio"] = t["local"] / seconds
    if floors:
        out["floors_s"] = floors
        out["floor_s"] = min(floors.values())
        # what the reader adds to the store's own cost (1.0: nothing)
        out["tiered_s3_vs_floor"] = out["floor_s"] / t["tiered_s3"]
        out["floor_ratio"] = t["local"] / out["floor_s"]
    return out


def report(fig: Dict[str, Any], n_records: int) -> str:
    lines = [
        f"{n_records} records, {fig['bytes'] / 1e6:.0f} MB in {fig['segments']} segments, all but the last"
        " in the remote tier; read_all in one process, local time / tiered time",
        f"local log: {fig['local_s']:.2f} s",
        f"tiered, remote tier on disk: {fig['tiered_disk_s']:.2f} s: {fig['tiered_disk_ratio']:.2f}x",
    ]
    if "tiered_s3_s" in fig:
        lines.append(
            f"tiered, remote tier in SeaweedFS: {fig['tiered_s3_s']:.2f} s: {fig['tiered_s3_ratio']:.2f}x"
        )
        lines.append(
            f"fetch floor of the SeaweedFS read (same bytes, no decode): {fig['floor_s']:.2f} s"
            f" ({', '.join(f'{k[6:]} {v:.3f} s' for k, v in fig['floors_s'].items())});"
            f" the read against it {fig['tiered_s3_vs_floor']:.2f}x, the floor against the local"
            f" log {fig['floor_ratio']:.2f}x"
        )
    return "\n".join(lines)


def test_tiered_vs_local_disk(benchmark: Any, tmp_path: Any) -> None:
    n = int(os.environ.get("KAFKAWIRE_BENCH_RECORDS", 300_000))
    fig = benchmark.pedantic(measure, args=(str(tmp_path), n), rounds=1, iterations=1)
    benchmark.extra_info.update(fig)
    print("\n" + report(fig, n))


def main(argv: Optional[List[str]] = None) -> int:
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--records", type=int, default=300_000)
    p.add_argument("--segment-bytes", type=int, default=2 << 20)
    p.add_argument("--rounds", type=int, default=9)
    p.add_argument("--no-s3", action="store_true", help="only the remote tier on disk")
    args = p.parse_args(argv)
    work = tempfile.mkdtemp(prefix="kafkawire-bench-tiered-")
    try:
        began = time.perf_counter()
        fig = measure(work, args.records, args.segment_bytes, args.rounds, not args.no_s3)
        print(report(fig, args.records))
        print(f"({time.perf_counter() - began:.0f} s)")
    finally:
        shutil.rmtree(work, ignore_errors=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
