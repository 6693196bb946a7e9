"""A soak of ``kafka-cluster`` streams under broker faults: the reading case of
``tests/spark/test_spark_kafka_cluster_faults.py`` for ``--minutes`` instead of one round.

It starts the three-broker Kafka 4.4 cluster of the tests (``tests/support/kafka/cluster.py``)
and a ``local[2]`` Spark session, then runs :class:`support.kafka.faults.FaultRun`: two
topics written by Kafka's Java producer (idempotent; transactional with a random quarter
of its transactions aborted), a stream of each (``read_uncommitted``, ``read_committed``)
into parquet, and rounds of faults (a broker leading partitions killed and started again,
a leader moved, a partition added, both queries restarted from their checkpoints) until
the minutes are up.  Then it checks that each sink holds every record produced exactly
once and none of an aborted transaction, prints what happened, and exits non-zero if not.

Run: ``python benchmarks/soak_cluster_faults.py --minutes 30 [--backend python] [--seed N]``.
A round takes one to three minutes on a busy 2-core machine; a soak of N minutes ends
within a round of them, and each round adds a partition to each topic.
"""

from __future__ import annotations

import argparse
import os
import random
import sys
import tempfile
import time
from pathlib import Path

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(HERE)
sys.path.insert(0, ROOT)
sys.path.insert(0, os.path.join(ROOT, "tests"))


def main(argv=None) -> int:
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--minutes", type=float, default=10.0, help="how long to go on with rounds of faults")
    p.add_argument("--backend", choices=("cython", "python"), default="cython")
    p.add_argument("--seed", type=int, default=None, help="of the aborted transactions (random if not given)")
    args = p.parse_args(argv)
    if args.minutes <= 0:
        p.error("--minutes must be positive")
    seed = random.randrange(1 << 16) if args.seed is None else args.seed

    os.environ["PYSPARK_PYTHON"] = sys.executable
    os.environ["SPARK_LOCAL_IP"] = "127.0.0.1"
    from support.kafka.cluster import start_cluster
    from support.kafka.faults import FaultRun

    from kafkawire.spark import local_session

    began = time.monotonic()
    cluster = start_cluster()
    try:
        spark = local_session(
            "local[2]", app="kafkawire-soak-faults", **{"spark.sql.shuffle.partitions": "2"}
        )
        try:
            with tempfile.TemporaryDirectory(prefix="kafkawire-soak-") as work:
                print(f"seed {seed}, backend {args.backend}")  # the run prints its events as they happen
                run = FaultRun(cluster, spark, args.backend, Path(work), seed)
                outcome = run.run(rounds=None, until=began + args.minutes * 60)
                for topic, (expected, got, aborted) in outcome.sinks.items():
                    print(
                        f"{topic}: {len(got)} rows in the sink, {len(expected)} expected, {len(aborted)} aborted"
                    )
                try:
                    outcome.check()
                except AssertionError as exc:
                    print(f"FAILED: {exc}")
                    return 1
        finally:
            spark.stop()
    finally:
        cluster.stop()
    print("every record produced is in its sink once; no aborted record")
    return 0


if __name__ == "__main__":
    sys.exit(main())
