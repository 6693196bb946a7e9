"""``kafkawire demo``: the main job, on an embedded default.

Writes a sample Kafka log directory (:mod:`kafkawire.log.sample`: three topics, six
partitions, every compression codec, headers, committed and aborted transactions, a
compacted-looking key set), reads it with a local Spark through the ``kafka-log`` data
source, and prints a few aggregates: records per topic and compression, bytes, what
``read_committed`` removed, and the compacted topic's latest values.

    kafkawire demo                    # a temporary directory, removed afterwards
    kafkawire demo --dir /tmp/kafka-logs --scale 5
"""

from __future__ import annotations

import argparse
import contextlib
import os
import shutil
import tempfile
import time
from typing import Any, Dict, Iterator, List, Optional

from kafkawire.cli import CommandError, CommandParser, run_command

DESCRIPTION = (
    "Write a sample Kafka log directory (three topics, six partitions, every compression "
    "codec, headers, committed and aborted transactions, a compacted-looking key set), "
    "read it with a local Spark through the kafka-log data source, and print a few "
    "aggregates: records per topic and compression, bytes, what read_committed removed, "
    "and the compacted topic's latest values."
)


def _scale(text: str) -> int:
    value = int(text)
    if value < 1:
        raise argparse.ArgumentTypeError(f"must be at least 1: {value}")
    return value


def _parser() -> argparse.ArgumentParser:
    p = CommandParser("kafkawire demo", DESCRIPTION)
    p.add_argument(
        "--dir",
        help="write the sample log into this directory and keep it; "
        "without --dir a temporary directory is used and removed "
        "at exit",
    )
    p.add_argument(
        "--scale", type=_scale, default=1, help="multiply the sample's record counts (default 1: about 8,000)"
    )
    p.add_argument("--master", default="local[2]", help="Spark master (default local[2])")
    return p


def check_dir(keep: str) -> None:
    """``--dir`` must be a new or empty directory: the sample's partitions would be
    appended to any that are there."""
    if os.path.exists(keep) and not os.path.isdir(keep):
        raise CommandError(f"--dir {keep}: not a directory")
    if os.path.isdir(keep) and os.listdir(keep):
        raise CommandError(f"--dir {keep}: not empty (the sample needs a new or empty directory)")


@contextlib.contextmanager
def log_dir(keep: Optional[str]) -> Iterator[str]:
    """The directory the sample is written to: ``keep`` (kept), or a temporary one that
    is removed at exit.  Says which on stdout."""
    if keep is not None:
        check_dir(keep)
        print(f"writing the sample log to {keep} (kept afterwards)", flush=True)
        yield keep
        return
    tmp = tempfile.mkdtemp(prefix="kafkawire-demo-")
    print(
        f"writing the sample log to a temporary directory, removed at exit: {tmp} (--dir DIR keeps it)",
        flush=True,
    )
    try:
        yield os.path.join(tmp, "kafka-logs")
    finally:
        shutil.rmtree(tmp, ignore_errors=True)
        print(f"removed {tmp}", flush=True)


def _table(title: str, header: List[str], rows: List[List[Any]]) -> None:
    print(f"\n{title}")
    cells = [header] + [["" if v is None else str(v) for v in r] for r in rows]
    widths = [max(len(r[i]) for r in cells) for i in range(len(header))]
    for i, r in enumerate(cells):
        print(
            "  "
            + "  ".join(
                v.rjust(w) if i and v.replace(".", "").isdigit() else v.ljust(w) for v, w in zip(r, widths)
            ).rstrip()
        )
        if i == 0:
            print("  " + "  ".join("-" * w for w in widths))


def run(directory: str, *, scale: int = 1, master: str = "local[2]", spark: Any = None) -> Dict[str, Any]:
    """Generate the sample under ``directory``, read it with Spark, print the aggregates;
    returns the figures printed (for tests).  A ``spark`` session given is used (with
    ``kafka-log`` registered) and left running; otherwise one is started and stopped."""
    from kafkawire.log import sample, segments

    t0 = time.monotonic()
    log = sample.generate(directory, scale=scale)
    plogs = segments.discover(directory)
    disk = sum(p.size for p in plogs)
    print(
        f"wrote {len(log.records):,} records in {len(plogs)} partitions, "
        f"{sum(len(p.segments) for p in plogs)} segments, {disk:,} bytes: {directory}"
    )

    t1 = time.monotonic()
    own = spark is None
    if own:
        from kafkawire.spark import local_session

        spark = local_session(master, app="kafkawire-demo")
    else:
        from kafkawire.spark import register

        register(spark)
    from pyspark.sql import functions as F

    print(f"local Spark {spark.version} ({master}) up in {time.monotonic() - t1:.1f}s")
    t2 = time.monotonic()
    df = spark.read.format("kafka-log").load(directory).cache()
    committed = spark.read.format("kafka-log").option("isolationLevel", "read_committed").load(directory)
    figures: Dict[str, Any] = {}

    per = (
        df.groupBy("topic", "compression")
        .agg(
            F.count("*").alias("records"),
            F.sum(F.coalesce(F.length("key"), F.lit(0)) + F.coalesce(F.length("value"), F.lit(0))).alias(
                "bytes"
            ),
            F.sum(F.size("headers")).alias("headers"),
        )
        .orderBy("topic", "compression")
        .collect()
    )
    figures["per_topic_compression"] = [tuple(r) for r in per]
    _table(
        "records per topic and compression (read_uncommitted)",
        ["topic", "compression", "records", "key+value bytes", "headers"],
        [list(r) for r in per],
    )

    topics = (
        df.groupBy("topic")
        .agg(
            F.countDistinct("partition").alias("partitions"),
            F.count("*").alias("records"),
            F.min("timestamp").alias("first"),
            F.max("timestamp").alias("last"),
        )
        .orderBy("topic")
        .collect()
    )
    on_disk: Dict[Optional[str], int] = {}
    for p in plogs:
        on_disk[p.topic] = on_disk.get(p.topic, 0) + p.size
    _table(
        "topics",
        ["topic", "partitions", "records", "bytes on disk", "first", "last"],
        [
            [
                r.topic,
                r.partitions,
                r.records,
                on_disk.get(r.topic),
                r["first"].strftime("%Y-%m-%d %H:%M:%S"),
                r["last"].strftime("%H:%M:%S"),
            ]
            for r in topics
        ],
    )

    keys = ["topic", "partition", "offset"]
    removed = df.select(*keys, "producer_id").join(committed.select(*keys), keys, "left_anti")
    rem = (
        removed.groupBy("topic", "partition", "producer_id")
        .agg(F.count("*").alias("records"), F.min("offset").alias("from"), F.max("offset").alias("to"))
        .orderBy("topic", "partition")
        .collect()
    )
    figures["removed_by_read_committed"] = sum(r.records for r in rem)
    figures["committed"] = committed.count()
    _table(
        f"what read_committed removed: {figures['removed_by_read_committed']:,} records of "
        f"aborted transactions ({figures['committed']:,} of {df.count():,} remain)",
        ["topic", "partition", "producer id", "records", "offsets from", "to"],
        [list(r) for r in rem],
    )

    users = df.where("topic = 'users'")
    latest = (
        users.groupBy("key")
        .agg(F.max_by("value", "offset").alias("value"))
        .agg(
            F.count("*").alias("keys"),
            F.sum(F.when(F.col("value").isNull(), 1).otherwise(0)).alias("tombstones"),
        )
        .collect()[0]
    )
    figures["users_keys"] = latest.keys
    _table(
        "the compacted-looking topic 'users'",
        ["records", "distinct keys", "keys deleted (latest is a tombstone)", "offset gaps (cleaned)"],
        [
            [
                users.count(),
                latest.keys,
                latest.tombstones,
                users.agg((F.max("offset") - F.min("offset") + 1 - F.count("*"))).collect()[0][0],
            ]
        ],
    )
    df.unpersist()
    print(f"\nSpark queries took {time.monotonic() - t2:.1f}s; total {time.monotonic() - t0:.1f}s")
    if own:
        spark.stop()
    return figures


def _run(args: argparse.Namespace) -> int:
    if args.dir is not None:
        check_dir(args.dir)
    try:
        import pyspark  # noqa: F401
    except ImportError:
        raise CommandError("needs pyspark: pip install 'kafkawire[spark]'") from None
    with log_dir(args.dir) as directory:
        run(directory, scale=args.scale, master=args.master)
    return 0


def main(argv: Optional[List[str]] = None) -> int:
    """Entry point of ``kafkawire demo``."""
    return run_command(_parser(), _run, argv)
