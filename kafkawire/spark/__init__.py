"""kafkawire on PySpark (extra ``kafkawire[spark]``: pyspark 4, pyarrow).

* :func:`local_session` starts a local SparkSession ready for kafkawire.
* :func:`register` makes ``spark.read.format("kafka-log")`` and
  ``df.write.format("kafka-log")`` available (see :mod:`kafkawire.spark.kafka_log`), and
  ``format("kafka-cluster")`` for a live cluster (see :mod:`kafkawire.spark.kafka_cluster`).
* :mod:`kafkawire.spark.functions`: column functions decoding record-batch bytes and
  internal-topic keys/values held in binary columns.

The planning and reading behind ``kafka-log`` is :mod:`kafkawire.log.read`, which needs
no Spark; only this package (and the ``kafkawire demo`` command) imports pyspark.
"""

from __future__ import annotations

import os
import sys
from typing import TYPE_CHECKING, Dict, Optional, Union

from kafkawire.spark.kafka_cluster import KafkaClusterDataSource
from kafkawire.spark.kafka_log import FORMAT, KafkaLogDataSource

if TYPE_CHECKING:
    from pyspark.sql import SparkSession


def register(spark: "SparkSession") -> None:
    """Register the ``kafka-log`` and ``kafka-cluster`` data sources with ``spark`` (a
    SparkSession), and turn on Python data source filter pushdown, which both use to read
    only the partitions, segments, batches or offsets a query's ``topic``/``partition``/
    ``offset``/``timestamp`` filters can match (Spark refuses to plan a reader that pushes
    filters while ``spark.sql.python.filterPushdown.enabled`` is false)."""
    spark.conf.set("spark.sql.python.filterPushdown.enabled", "true")
    spark.dataSource.register(KafkaLogDataSource)
    spark.dataSource.register(KafkaClusterDataSource)


def local_session(master: str = "local[2]", app: str = "kafkawire", **conf: str) -> "SparkSession":
    """A local SparkSession (UTC, no UI) with ``kafka-log`` registered, whose Python
    workers run this interpreter and import the same kafkawire as this process
    (installed or a source tree); ``conf`` adds Spark settings.

    The workers start in this process's working directory with ``python -m``, which
    puts that directory first on ``sys.path``: run from a kafkawire checkout, they would
    import its unbuilt source tree instead of the installed package. They run with
    ``PYTHONSAFEPATH=1``, so they import what ``PYTHONPATH`` and the installation say."""
    os.environ["PYSPARK_PYTHON"] = sys.executable
    os.environ["PYSPARK_DRIVER_PYTHON"] = sys.executable
    os.environ.setdefault("SPARK_LOCAL_IP", "127.0.0.1")
    import kafkawire

    package_parent = os.path.dirname(os.path.dirname(os.path.abspath(kafkawire.__file__)))
    path = os.environ.get("PYTHONPATH", "")
    if package_parent not in path.split(os.pathsep):
        os.environ["PYTHONPATH"] = package_parent + (os.pathsep + path if path else "")
    from pyspark.sql import SparkSession

    settings: Dict[str, Optional[Union[bool, float, int, str]]] = dict(conf)
    spark = (
        SparkSession.builder.master(master)
        .appName(app)
        .config("spark.ui.enabled", "false")
        .config("spark.ui.showConsoleProgress", "false")
        .config("spark.sql.session.timeZone", "UTC")
        .config("spark.sql.shuffle.partitions", "4")
        .config("spark.executorEnv.PYTHONSAFEPATH", "1")
        .config(map=settings)
        .getOrCreate()
    )
    spark.sparkContext.setLogLevel("ERROR")
    register(spark)
    return spark


__all__ = ["FORMAT", "KafkaClusterDataSource", "KafkaLogDataSource", "local_session", "register"]
