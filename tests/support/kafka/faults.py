"""Streams of ``kafka-cluster`` into a file sink while the three-broker cluster
(:mod:`support.kafka.cluster`) goes through faults, and the check that the sink holds
every record produced exactly once.  The test suite runs one round
(``tests/spark/test_spark_kafka_cluster_faults.py``), ``benchmarks/soak_cluster_faults.py``
as many as fit in its minutes.

Two topics are written at once by Kafka's own producer (``SequenceProducer.java``):
one idempotent, read with ``read_uncommitted``; one transactional, some of its
transactions aborted, read with ``kafka.isolation.level=read_committed``.  A stream of
each writes parquet with a checkpoint.  A round of faults, each made while both
producers write and followed by a wait until both streams have read records in
micro-batches planned after it:

1. a broker leading partitions of the topics is killed (SIGKILL), and started again;
2. the leader of each topic's partition 0 moves to another broker;
3. each topic gets one more partition;
4. both queries are stopped and started again from their checkpoints.

Then the producers stop, the streams read what is left, and each sink must hold exactly
the records the producer had acknowledged (by topic, partition, offset, key and value),
the aborted ones left out.
"""

from __future__ import annotations

import random
import threading
import time
import uuid
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Dict, List, Optional, Set, Tuple

from support.kafka.cluster import CONTROLLER, KafkaCluster
from support.kafka.java_clients import run_java
from support.kafka.streaming import error_text, started, wait_for

PRODUCER = Path(__file__).with_name("SequenceProducer.java")
KEYS = 50  # record n has key k<n % KEYS>
PAUSE_MS = 25  # between two sends: some 40 records a second a producer
WAIT = 300.0  # seconds a stream may take to read on after a fault (a fencing, a restart)

Row = Tuple[str, int, int, bytes, bytes]  # topic, partition, offset, key, value


class SequenceProducer:
    """``SequenceProducer.java`` in a thread, writing to ``topic`` until :meth:`stop`."""

    def __init__(self, bootstrap: str, topic: str, work: Path, transactional: bool, seed: int) -> None:
        self.topic, self.transactional = topic, transactional
        self._stop = work / f"{topic}.stop"
        rng = random.Random(seed)
        job: Dict[str, Any] = {
            "bootstrap": bootstrap,
            "topic": topic,
            "keys": KEYS,
            "pause_ms": PAUSE_MS,
            "stop": str(self._stop),
        }
        if transactional:  # a random quarter of the transactions aborted
            job.update(
                transactional_id=topic,
                per_transaction=rng.randint(3, 12),
                abort=[t for t in range(100000) if rng.random() < 0.25],
            )
        self._result: Dict[str, Any] = {}
        self._thread = threading.Thread(target=self._run, args=(job,), daemon=True)
        self._thread.start()

    def _run(self, job: Dict[str, Any]) -> None:
        try:
            self._result.update(run_java(job, timeout=4 * 3600, source=PRODUCER))
        except BaseException as exc:  # raised by stop()
            self._result["error"] = exc

    def stop(self) -> Dict[str, Any]:
        """Stop writing; the producer's result once every record is acknowledged."""
        self._stop.touch()
        self._thread.join(600)
        if "error" in self._result:
            raise self._result["error"]
        assert self._result, f"the producer of {self.topic} did not stop within 600 s"
        return self._result

    def expected(self, result: Dict[str, Any]) -> Tuple[List[Row], Set[bytes]]:
        """The rows a sink must hold (the records of committed transactions, or every one
        acknowledged), sorted, and the values of aborted records."""
        rows, aborted = [], set()
        for partition, offset, n, committed in result["records"]:
            if committed:
                rows.append((self.topic, partition, offset, b"k%d" % (n % KEYS), b"%d" % n))
            else:
                aborted.add(b"%d" % n)
        return sorted(rows), aborted


@dataclass
class Stream:
    """One topic, its producer and the ``kafka-cluster`` query that copies it to parquet."""

    topic: str
    isolation: str
    out: Path
    checkpoint: Path
    producer: Optional[SequenceProducer] = None
    query: Any = None
    seen: int = -1  # micro-batches up to this one do not count as reading on

    def start(self, spark: Any, bootstrap: str, backend: str) -> None:
        def start() -> Any:
            return (
                spark.readStream.format("kafka-cluster")
                .option("kafka.bootstrap.servers", bootstrap)
                .option("subscribe", self.topic)
                .option("startingOffsets", "earliest")
                .option("kafka.isolation.level", self.isolation)
                .option("kafka.default.api.timeout.ms", "240000")  # longer than a fencing takes
                .option("backend", backend)
                .load()
                .writeStream.format("parquet")
                .option("path", str(self.out))
                .option("checkpointLocation", str(self.checkpoint))
                .trigger(processingTime="500 milliseconds")
                .start()
            )

        self.query = started(start)
        self.seen = -1

    def mark(self) -> None:
        """From now on only micro-batches planned after this moment count as reading on
        (the one running may have been planned before)."""
        self.seen = max((p["batchId"] for p in self.query.recentProgress), default=-1) + 1

    def read_on(self) -> bool:
        """Whether a micro-batch after the last one seen read records (then it is seen)."""
        assert self.query.exception() is None, error_text(self.query)
        batches = [p["batchId"] for p in self.query.recentProgress if p["numInputRows"]]
        if batches and max(batches) > self.seen:
            self.seen = max(batches)
            return True
        return False

    def rows(self, spark: Any) -> List[Row]:
        got = spark.read.parquet(str(self.out)).select("topic", "partition", "offset", "key", "value")
        return sorted((r.topic, r.partition, r.offset, bytes(r.key), bytes(r.value)) for r in got.collect())


@dataclass
class Outcome:
    """What a run did, and what each sink holds against what its producer wrote."""

    events: List[str] = field(default_factory=list)
    # topic -> (rows expected, rows in the sink, values of aborted records)
    sinks: Dict[str, Tuple[List[Row], List[Row], Set[bytes]]] = field(default_factory=dict)

    def check(self) -> None:
        """Every record produced in the sink once; none of an aborted transaction."""
        problems = []
        for topic, (expected, got, aborted) in self.sinks.items():
            missing = sorted(set(expected) - set(got))
            twice = len(got) - len(set(got))
            extra = sorted(set(got) - set(expected))
            read_aborted = len(aborted & {v for *_, v in got})
            if missing or twice or extra or read_aborted:
                problems.append(
                    f"{topic}: {len(missing)} records missing (first {missing[:3]}), {twice} twice,"
                    f" {len(extra)} not expected (first {extra[:3]}), {read_aborted} of aborted transactions"
                )
        assert not problems, "\n".join(problems)


class FaultRun:
    """The two streams over the cluster, and the rounds of faults this module describes."""

    def __init__(self, cluster: KafkaCluster, spark: Any, backend: str, work: Path, seed: int = 0) -> None:
        self.cluster, self.spark, self.backend = cluster, spark, backend
        self.bootstrap = cluster.bootstrap_servers
        self.outcome = Outcome()
        self.began = time.monotonic()
        tag = uuid.uuid4().hex[:8]
        self.streams: List[Stream] = []
        for i, (kind, isolation) in enumerate((("idem", "read_uncommitted"), ("txn", "read_committed"))):
            topic = f"kw-faults-{kind}-{tag}"
            cluster.create_topic(topic, 2)
            self.streams.append(Stream(topic, isolation, work / topic / "out", work / topic / "cp"))
        self.work, self.seed = work, seed

    def log(self, event: str) -> None:
        self.outcome.events.append(f"{time.monotonic() - self.began:7.1f} s  {event}")
        print(self.outcome.events[-1], flush=True)  # as it happens: a run that fails shows how far it got

    def _read_on(self, after: str) -> None:
        """Wait until both streams have read records in micro-batches planned after now."""
        for s in self.streams:
            s.mark()
        for s in self.streams:
            wait_for(f"the stream of {s.topic} to read records after {after}", s.read_on, WAIT)
        self.log(f"both streams read records after {after}")

    def start_queries(self) -> None:
        for s in self.streams:  # one at a time: a busy machine starts Python workers slowly
            s.start(self.spark, self.bootstrap, self.backend)

    def kill_and_restart(self) -> None:
        topic = self.streams[0].topic
        leaders = {d["leader"] for d in self.cluster.describe(topic).values()} - {CONTROLLER}
        if not leaders:
            self.cluster.move_leader(topic, 0, CONTROLLER + 1)
            leaders = {CONTROLLER + 1}
        victim = min(leaders)
        self.cluster.kill(victim)
        self.log(f"broker {victim} killed (leader of partitions of {topic})")
        try:
            self._read_on(f"broker {victim} was killed")
        finally:
            self.cluster.start(victim)
        self.log(f"broker {victim} started again")
        self._read_on(f"broker {victim} came back")

    def move_leaders(self) -> None:
        for s in self.streams:
            now = self.cluster.describe(s.topic)[0]
            to = min(set(now["isr"]) - {now["leader"]})
            self.cluster.move_leader(s.topic, 0, to)
            self.log(f"leader of {s.topic}-0 moved from broker {now['leader']} to {to}")
        self._read_on("the leader moves")

    def add_partitions(self) -> None:
        for s in self.streams:
            total = len(self.cluster.describe(s.topic)) + 1
            self.cluster.add_partitions(s.topic, total)
            self.log(f"{s.topic} has {total} partitions")
        self._read_on("the partitions were added")

    def restart_queries(self) -> None:
        for s in self.streams:
            s.query.stop()
        self.log("both queries stopped")
        self.start_queries()
        self.log("both queries started again from their checkpoints")
        self._read_on("the queries' restart")

    def round(self) -> None:
        self.kill_and_restart()
        self.move_leaders()
        self.add_partitions()
        self.restart_queries()

    def run(self, rounds: Optional[int] = 1, until: Optional[float] = None) -> Outcome:
        """``rounds`` rounds of faults (or, at least one, until the monotonic time
        ``until``), then the producers' and the sinks' records compared (:meth:`Outcome.check`)."""
        results: Dict[str, Dict[str, Any]] = {}
        try:
            # the queries first: a Python worker that starts slowly fails the query
            self.start_queries()
            for i, s in enumerate(self.streams):
                s.producer = SequenceProducer(
                    self.bootstrap, s.topic, self.work, s.isolation == "read_committed", self.seed + i
                )
            self._read_on("the queries started")
            done = 0
            while (rounds is None or done < rounds) and (
                done == 0 or until is None or time.monotonic() < until
            ):
                self.round()
                done += 1
                self.log(f"round {done} done")
            for s in self.streams:
                results[s.topic] = s.producer.stop()
            self.log("producers stopped")
            for s in self.streams:
                s.query.processAllAvailable()
        finally:
            for s in self.streams:
                if (
                    s.producer is not None and s.topic not in results
                ):  # a failed run: its error is the one to see
                    try:
                        s.producer.stop()
                    except BaseException:
                        pass
                if s.query is not None:
                    s.query.stop()
        for s in self.streams:
            result = results[s.topic]
            if not s.producer.transactional:
                assert result["failures"] == [], result["failures"][:5]
            expected, aborted = s.producer.expected(result)
            self.outcome.sinks[s.topic] = (expected, s.rows(self.spark), aborted)
            aborted_txns = len(result["aborted_transactions"])
            self.log(
                f"{s.topic}: {len(result['records'])} records acknowledged, {len(expected)} to read"
                + (f", {aborted_txns} transactions aborted" if s.producer.transactional else "")
            )
        return self.outcome


__all__ = ["FaultRun", "Outcome", "SequenceProducer"]
