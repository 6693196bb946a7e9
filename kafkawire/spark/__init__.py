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

import hashlib
import os
import shutil
import sys
import tempfile
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


def _bytecode_spark_home() -> Optional[str]:
    """A Spark home for the JVM that is pip-installed pyspark's own without its
    ``python`` folder (links to the rest, made once in the user's cache), or None when
    pyspark is not such an installation or SPARK_HOME is set.

    Spark puts ``$SPARK_HOME/python/lib/pyspark.zip`` first on its Python workers'
    ``PYTHONPATH``, and a zip holds no byte code: each worker compiled PySpark afresh,
    about three times the CPU of importing the installed package. Without the zip the
    workers, which run this interpreter, import the installed pyspark and py4j."""
    from pyspark.find_spark_home import _find_spark_home

    if "SPARK_HOME" in os.environ:
        return None
    home = os.path.realpath(_find_spark_home())
    import pyspark

    if home != os.path.dirname(os.path.realpath(pyspark.__file__)):
        return None  # a Spark distribution: its zip may not match this pyspark
    cache = os.environ.get("XDG_CACHE_HOME") or os.path.join(os.path.expanduser("~"), ".cache")
    key = hashlib.sha256(home.encode()).hexdigest()[:12]
    linked = os.path.join(cache, "kafkawire", f"spark-home-{pyspark.__version__}-{key}")
    if not os.path.isdir(linked):
        os.makedirs(os.path.dirname(linked), exist_ok=True)
        staging = tempfile.mkdtemp(dir=os.path.dirname(linked))
        for name in os.listdir(home):
            if name != "python":
                os.symlink(os.path.join(home, name), os.path.join(staging, name))
        try:
            os.rename(staging, linked)
        except OSError:  # another process made it first
            shutil.rmtree(staging)
    return linked


def local_session(master: str = "local[2]", app: str = "kafkawire", **conf: str) -> "SparkSession":
    """A local SparkSession (UTC, no UI) with ``kafka-log`` registered, whose Python
    workers run this interpreter and import the same kafkawire as this process
    (installed or a source tree); ``conf`` adds Spark settings.

    The workers start in this process's working directory with ``python -m``, which
    puts that directory first on ``sys.path``: run from a kafkawire checkout, they would
    import its unbuilt source tree instead of the installed package. They run with
    ``PYTHONSAFEPATH=1``, so they import what ``PYTHONPATH`` and the installation say,
    and pyspark from the installation too (see :func:`_bytecode_spark_home`): Spark gives
    some workers a fixed 10 s to start, which a busy machine can miss."""
    os.environ["PYSPARK_PYTHON"] = sys.executable
    os.environ["PYSPARK_DRIVER_PYTHON"] = sys.executable
    os.environ.setdefault("SPARK_LOCAL_IP", "127.0.0.1")
    import kafkawire

    package_parent = os.path.dirname(os.path.dirname(os.path.abspath(kafkawire.__file__)))
    path = os.environ.get("PYTHONPATH", "")
    if package_parent not in path.split(os.pathsep):
        os.environ["PYTHONPATH"] = package_parent + (os.pathsep + path if path else "")
    from pyspark.sql import SparkSession

    try:
        spark_home = _bytecode_spark_home()
    except OSError:  # no links here (a read-only home, a Windows without symlinks)
        spark_home = None
    if spark_home is not None:
        os.environ["SPARK_HOME"] = spark_home
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
