"""``kafkawire demo``: the main job, on an embedded default.

Writes a sample Kafka log directory (:mod:`kafkawire.log.sample`: three topics, six
partitions, every compression codec, headers, committed and aborted transactions, a
compacted-looking key set), reads it with a local Spark through the ``kafka-log`` data
source, and prints a few aggregates: records per topic and compression, bytes, what
``read_committed`` removed, and the compacted topic's latest values.

    kafkawire demo                    # a temporary directory, removed afterwards
    kafkawire demo --dir /tmp/kafka-logs --scale 5
    kafkawire demo --dir /tmp/kafka-logs --reuse    # the queries again, on that sample

Spark needs Java 17 or newer, checked first. Spark's own log (the JVM's stderr) goes to a
file, named when Spark fails, so the terminal shows the demo's progress and tables only;
the line after Spark starts says which kafkawire backend the driver and the workers run.
"""

from __future__ import annotations

import argparse
import contextlib
import logging
import os
import re
import shutil
import signal
import subprocess
import sys
import tempfile
import time
from typing import Any, Dict, Iterator, List, Optional, Set, Tuple

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
    p.add_argument(
        "--reuse",
        action="store_true",
        help="run the queries again on the sample an earlier `kafkawire demo --dir DIR` "
        "wrote to --dir, without writing a new one",
    )
    p.add_argument("--master", default="local[2]", help="Spark master (default local[2])")
    return p


def check_dir(keep: str) -> None:
    """``--dir`` must be a new or empty directory: the sample's partitions would be
    appended to any that are there."""
    if os.path.exists(keep) and not os.path.isdir(keep):
        raise CommandError(f"--dir {keep}: not a directory")
    if os.path.isdir(keep) and os.listdir(keep):
        raise CommandError(
            f"--dir {keep}: not empty (the sample needs a new or empty directory; "
            f"--reuse runs the queries again on a sample already there)"
        )


def check_reuse(keep: Optional[str]) -> None:
    """``--reuse`` reads the Kafka log directory ``--dir`` names, which must hold
    partition folders."""
    from kafkawire.log import segments

    if keep is None:
        raise CommandError("--reuse needs --dir DIR, the directory an earlier demo wrote", 2)
    if not os.path.isdir(keep):
        raise CommandError(f"--dir {keep}: no such directory (--reuse reads a sample already written)")
    if not segments.discover(keep):
        raise CommandError(f"--dir {keep}: no Kafka partition folders (<topic>-<partition>) to read")


JAVA_MAJOR = 17  # the oldest Java Spark 4 runs on


def java_version(java: str) -> Optional[int]:
    """The major version ``java -version`` reports (8 for ``1.8.0_...``), or None."""
    try:
        proc = subprocess.run([java, "-version"], capture_output=True, text=True, timeout=120)
    except (OSError, subprocess.SubprocessError):
        return None
    match = re.search(r'version "(\d+)(?:\.(\d+))?', proc.stderr + proc.stdout)
    if match is None:
        return None
    major = int(match.group(1))
    return int(match.group(2) or 0) if major == 1 else major


def check_java() -> str:
    """The java Spark will run (``$JAVA_HOME/bin/java``, else ``java`` on PATH, as
    Spark's launcher looks), or a one-line error when it is missing or older than 17."""
    home = os.environ.get("JAVA_HOME")
    java = os.path.join(home, "bin", "java") if home else shutil.which("java")
    where = f"JAVA_HOME={home}" if home else "PATH"
    if not java or not os.path.isfile(java):
        raise CommandError(f"needs Java {JAVA_MAJOR} or newer for Spark: no java in {where}")
    major = java_version(java)
    if major is None or major < JAVA_MAJOR:
        found = f"Java {major}" if major else "a java whose version could not be read"
        raise CommandError(f"needs Java {JAVA_MAJOR} or newer for Spark: {java} is {found}")
    return java


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
    print(title)
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


def _backend_where_imported(_: Any) -> Iterator[Tuple[str, str]]:
    import kafkawire

    yield kafkawire.BACKEND, os.path.dirname(os.path.abspath(kafkawire.__file__))


def worker_backends(spark: Any) -> Set[Tuple[str, str]]:
    """The (backend, package folder) of kafkawire in Spark's Python workers."""
    tasks = max(2, spark.sparkContext.defaultParallelism)
    return set(
        spark.sparkContext.parallelize(range(tasks), tasks).mapPartitions(_backend_where_imported).collect()
    )


def backend_line(spark: Any) -> str:
    """One line saying which kafkawire backend the driver and the workers run, and
    where the workers imported it from when that is not the driver's package."""
    import kafkawire

    here = (kafkawire.BACKEND, os.path.dirname(os.path.abspath(kafkawire.__file__)))
    workers = worker_backends(spark)
    if workers == {here}:
        return f"kafkawire backend: {here[0]} in the driver and the workers"
    elsewhere = "; ".join(f"{b} from {d}" for b, d in sorted(workers))
    return f"kafkawire backend: {here[0]} in the driver ({here[1]}); the workers: {elsewhere}"


@contextlib.contextmanager
def _stderr_to(path: str) -> Iterator[None]:
    """File descriptor 2 points at ``path`` inside the block: a JVM started there keeps
    writing its stderr (Spark's log, the JVM's own warnings) to that file."""
    sys.stderr.flush()
    saved = os.dup(2)
    try:
        with open(path, "ab") as log:
            os.dup2(log.fileno(), 2)
        yield
    finally:
        sys.stderr.flush()
        os.dup2(saved, 2)
        os.close(saved)


def start_spark(master: str, spark_log: str) -> Any:
    """A local session whose JVM writes its log to ``spark_log``, as does Python's
    logging (py4j's); a JVM that does not start is a one-line error quoting the log's
    last line."""
    from kafkawire.spark import local_session

    # py4j reports the gateway going away (Ctrl-C, a JVM that died) on the root logger,
    # which would print it to the terminal with a traceback: it goes to Spark's log too
    logging.getLogger().addHandler(logging.FileHandler(spark_log))
    try:
        with _stderr_to(spark_log):
            session = local_session(master, app="kafkawire-demo")
        _note_interrupts()
        return session
    except Exception as exc:  # noqa: BLE001 - pyspark's own errors, made one line
        try:
            with open(spark_log, encoding="utf-8", errors="replace") as f:
                lines = [line.strip() for line in f if line.strip()]
        except OSError:
            lines = []
        last = lines[-1] if lines else " ".join(str(exc).split())
        raise CommandError(f"Spark did not start: {last} (its log: {spark_log})") from exc


#: set by the SIGINT handler: a Ctrl-C that lands inside a py4j call can surface as a
#: Py4JError (the gateway refusing to send its cancel command), not a KeyboardInterrupt
_interrupted = [False]


def _note_interrupts() -> None:
    """Remember a Ctrl-C, then hand it to the handler pyspark installed (which cancels
    the running Spark jobs and raises KeyboardInterrupt)."""
    previous = signal.getsignal(signal.SIGINT)

    def handler(signum: int, frame: Any) -> None:
        _interrupted[0] = True
        if callable(previous):
            previous(signum, frame)
        raise KeyboardInterrupt

    signal.signal(signal.SIGINT, handler)


def run(
    directory: str,
    *,
    scale: int = 1,
    master: str = "local[2]",
    spark: Any = None,
    reuse: bool = False,
    spark_log: Optional[str] = None,
) -> Dict[str, Any]:
    """Generate the sample under ``directory`` (or, with ``reuse``, read the one there),
    read it with Spark, print the aggregates; returns the figures printed (for tests).
    A ``spark`` session given is used (with ``kafka-log`` registered) and left running;
    otherwise one is started, its log going to ``spark_log`` (a temporary file by
    default), and stopped."""
    from kafkawire.log import sample, segments

    t0 = time.monotonic()
    if reuse:
        plogs = segments.discover(directory)
        what = f"reading the sample already in {directory}: "
    else:
        log = sample.generate(directory, scale=scale)
        plogs = segments.discover(directory)
        what = f"wrote {len(log.records):,} records in "
    disk = sum(p.size for p in plogs)
    print(
        f"{what}{len(plogs)} partitions, {sum(len(p.segments) for p in plogs)} segments, {disk:,} bytes"
        + ("" if reuse else f": {directory}"),
        flush=True,
    )

    t1 = time.monotonic()
    own = spark is None
    if own:
        if spark_log is None:
            fd, spark_log = tempfile.mkstemp(prefix="kafkawire-demo-spark-", suffix=".log")
            os.close(fd)
        print(f"starting local Spark ({master}); its own log goes to {spark_log}", flush=True)
        spark = start_spark(master, spark_log)
    else:
        from kafkawire.spark import register

        register(spark)
    from pyspark.sql import functions as F

    print(f"local Spark {spark.version} ({master}) up in {time.monotonic() - t1:.1f}s", flush=True)
    print(backend_line(spark), flush=True)
    t2 = time.monotonic()
    df = spark.read.format("kafka-log").load(directory).cache()
    committed = spark.read.format("kafka-log").option("isolationLevel", "read_committed").load(directory)
    figures: Dict[str, Any] = {}

    _step(1, "counting records per topic and compression")
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

    _step(2, "summing up each topic")
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

    _step(3, "finding the records read_committed leaves out")
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

    _step(4, "finding the latest value of each key of 'users'")
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
        if spark_log is not None:
            os.remove(spark_log)  # nothing went wrong: nothing to read in it
    return figures


QUERIES = 4


def _step(n: int, what: str) -> None:
    print(f"\n[{n}/{QUERIES}] {what} ...", flush=True)


def _run(args: argparse.Namespace) -> int:
    if args.reuse:
        check_reuse(args.dir)
    elif args.dir is not None:
        check_dir(args.dir)
    try:
        import pyspark  # noqa: F401
    except ImportError:
        raise CommandError("needs pyspark: pip install 'kafkawire[spark]'") from None
    check_java()
    try:
        if args.reuse:
            print(f"running the queries again on the sample in {args.dir}", flush=True)
            run(args.dir, master=args.master, reuse=True)
            return 0
        with log_dir(args.dir) as directory:
            run(directory, scale=args.scale, master=args.master)
    except Exception:
        if _interrupted[0]:  # whatever py4j made of the Ctrl-C, it was one
            raise KeyboardInterrupt from None
        raise
    return 0


def main(argv: Optional[List[str]] = None) -> int:
    """Entry point of ``kafkawire demo``."""
    return run_command(_parser(), _run, argv)
