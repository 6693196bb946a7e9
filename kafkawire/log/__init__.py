"""Kafka log directories on disk, without Spark.

* :mod:`kafkawire.log.segments`: partition directories, segment files and their indexes,
  read and written.
* :mod:`kafkawire.log.read`: reading partitions as Arrow record batches, planned in
  byte-range splits (what the ``kafka-log`` Spark data source runs).
* :mod:`kafkawire.log.sample`: a generated sample log directory for demos and tests.

Nothing here imports pyspark.
"""
