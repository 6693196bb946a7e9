"""kafkawire on PySpark (extra ``kafkawire[spark]``: pyspark 4, pyarrow).

* :func:`register` makes ``spark.read.format("kafka-log")`` and
  ``df.write.format("kafka-log")`` available (see :mod:`kafkawire.spark.datasource`).
* :mod:`kafkawire.spark.functions`: column functions decoding record-batch bytes and
  internal-topic keys/values held in binary columns.
* :mod:`kafkawire.spark.logread`: the planning and reading behind ``kafka-log``, usable
  without Spark.
"""
from __future__ import annotations

from kafkawire.spark.datasource import FORMAT, KafkaLogDataSource


def register(spark) -> None:
    """Register the ``kafka-log`` data source with ``spark`` (a SparkSession)."""
    spark.dataSource.register(KafkaLogDataSource)


__all__ = ["FORMAT", "KafkaLogDataSource", "register"]
