"""Kafka log directories on disk, without Spark.

* :mod:`kafkawire.log.storage`: where a log lives (local files or an S3-compatible store).
* :mod:`kafkawire.log.segments`: partition directories and segment files, found.
* :mod:`kafkawire.log.scan`: the log entries of a segment file, framed and read in chunks.
* :mod:`kafkawire.log.indexes`: the ``.index``, ``.timeindex`` and ``.txnindex`` files.
* :mod:`kafkawire.log.write`: a partition folder written as a broker does.
* :mod:`kafkawire.log.read_options`: the options of a read and the schema they select.
* :mod:`kafkawire.log.transactions`: a partition's aborted and open transactions.
* :mod:`kafkawire.log.planning`: partitions planned in byte-range splits, packed in tasks.
* :mod:`kafkawire.log.read`: splits read as Arrow record batches (what the ``kafka-log``
  Spark data source runs).
* :mod:`kafkawire.log.tiered`: tiered storage's remote segments, joined to a local log.
* :mod:`kafkawire.log.sample`: a generated sample log directory for demos and tests.

Nothing here imports pyspark.
"""
