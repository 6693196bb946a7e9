"""The jobs the standalone-cluster tests submit with ``spark-submit``.

``spark_standalone_job.py JOB JSON``: runs one job with the JSON's arguments and prints
its result as one JSON line after ``@@RESULT@@``.

- ``read``: the same batch read with ``kafka-cluster`` and with Spark's ``kafka``
  connector; both row lists (``repr`` of each row, in topic, partition, offset order).
- ``stream``: an ``AvailableNow`` stream of ``kafka-cluster`` into a parquet file sink
  with a checkpoint; then what the sink holds.  With ``hold``, the first task of the
  first micro-batch writes its Python worker's pid to ``hold/ready`` and waits there to
  be killed; each row carries the attempt number of the task that wrote it.
- ``write``: ``count`` rows written with ``df.write`` to a topic by ``kafka-cluster``.
"""

from __future__ import annotations

import json
import os
import sys
import time

RESULT_MARKER = "@@RESULT@@"
HOLD_LIMIT = 300  # seconds the held task waits for its kill before it fails the job


def read(spark, a):
    def rows(fmt, extra):
        df = spark.read.format(fmt).options(**a["options"], **extra).load()
        return df.schema, [repr(tuple(r)) for r in df.orderBy("topic", "partition", "offset").collect()]

    our_schema, ours = rows("kafka-cluster", {"backend": a["backend"]})
    their_schema, theirs = rows("kafka", {})
    return {"same_schema": our_schema == their_schema, "ours": ours, "theirs": theirs}


def _held(hold):
    """A mapInArrow function: the first task to claim ``hold`` waits to be killed."""

    def run(batches):
        import pyarrow as pa
        from pyspark import TaskContext

        ctx = TaskContext.get()
        try:
            fd = os.open(os.path.join(hold, "claimed"), os.O_CREAT | os.O_EXCL | os.O_WRONLY)
        except FileExistsError:
            pass
        else:
            os.close(fd)
            ready = os.path.join(hold, "ready")
            with open(ready + ".tmp", "w") as f:
                f.write(str(os.getpid()))
            os.replace(ready + ".tmp", ready)
            time.sleep(HOLD_LIMIT)
            raise RuntimeError("the held task was not killed")
        attempt = ctx.attemptNumber()
        for batch in batches:
            yield pa.RecordBatch.from_arrays(
                [*batch.columns, pa.array([attempt] * batch.num_rows, pa.int32())],
                names=[*batch.schema.names, "attempt"],
            )

    return run


def stream(spark, a):
    df = spark.readStream.format("kafka-cluster").options(**a["options"], backend=a["backend"]).load()
    df = df.select("partition", "offset", "value")
    if a.get("hold"):
        df = df.mapInArrow(_held(a["hold"]), "partition int, offset long, value binary, attempt int")
    query = (
        df.writeStream.format("parquet")
        .option("path", a["out"])
        .option("checkpointLocation", a["checkpoint"])
        .trigger(availableNow=True)
        .start()
    )
    if not query.awaitTermination(a.get("timeout", 400)):
        query.stop()
        raise RuntimeError("the stream did not finish")
    if query.exception() is not None:
        raise RuntimeError(str(query.exception()))
    got = spark.read.parquet(a["out"]).collect()
    return {
        "records": [[r.partition, r.offset, r.value.hex()] for r in got],
        "attempts": sorted({r.attempt for r in got}) if a.get("hold") else [],
        "batches": len(query.recentProgress),
    }


def write(spark, a):
    n = a["count"]
    df = spark.createDataFrame(
        [(f"k{i % 17}", f"value-{i}") for i in range(n)], "key string, value string"
    ).repartition(2)
    (
        df.write.format("kafka-cluster")
        .option("kafka.bootstrap.servers", a["bootstrap"])
        .option("topic", a["topic"])
        .option("backend", a["backend"])
        .mode("append")
        .save()
    )
    return {"written": n}


def main(job: str, arguments: str) -> None:
    from pyspark.sql import SparkSession

    from kafkawire.spark import register

    spark = SparkSession.builder.appName(f"kafkawire-standalone-{job}").getOrCreate()
    register(spark)
    try:
        result = {"read": read, "stream": stream, "write": write}[job](spark, json.loads(arguments))
        # the executors that ran the tasks, to show they were the workers' and not the driver's
        result["executors"] = spark.sparkContext._jsc.sc().getExecutorMemoryStatus().size() - 1
        print(RESULT_MARKER, json.dumps(result), flush=True)
    finally:
        spark.stop()


if __name__ == "__main__":
    main(*sys.argv[1:])
