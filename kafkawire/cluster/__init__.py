"""A live Kafka cluster read and written without a JVM: what the ``kafka-cluster`` Spark
data source (:mod:`kafkawire.spark.kafka_cluster`) is made of, usable without Spark.

* :mod:`kafkawire.cluster.config`: the ``kafka.``-prefixed client settings Kafka's own
  clients take (bootstrap servers, security protocol, SASL JAAS line, PEM stores, timeouts).
* :mod:`kafkawire.cluster.stores`: Java's JKS and PKCS12 trust and key stores as PEM.
* :mod:`kafkawire.cluster.options`: the connector's trigger, retry and group options.
* :mod:`kafkawire.cluster.client`: :class:`~kafkawire.cluster.client.AsyncCluster`, an
  asyncio client over :mod:`kafkawire.aio` connections: metadata, offsets, leaders and
  retries (a partition's leader moving, within a deadline); and
  :class:`~kafkawire.cluster.client.Cluster`, the same client for blocking code, on an
  event loop of its own.
* :mod:`kafkawire.cluster.plan`: Spark's Kafka connector's read options, and the offset
  ranges a read covers, worked out on the driver from Metadata and ListOffsets.
* :mod:`kafkawire.cluster.fetch`: one offset range fetched from its leader and decoded
  straight to Arrow, in bounded batches, ``read_committed`` as Kafka's consumer reads (an
  asynchronous generator; ``Cluster.iterate`` runs it from blocking code).
* :mod:`kafkawire.cluster.produce`: Kafka's default key partitioner and an idempotent
  producer.
* :mod:`kafkawire.cluster.pool`: clients kept open between the reads of one process, as
  Spark runs task after task in one Python worker.
"""
