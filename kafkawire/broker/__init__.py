"""A single-node, Kafka-compatible test broker built from kafkawire's own codec.

>>> from kafkawire.broker import Broker
>>> with Broker() as broker:            # doctest: +SKIP
...     producer = confluent_kafka.Producer({"bootstrap.servers": broker.bootstrap_servers})

See :mod:`kafkawire.broker.server` for what it implements, and ``kafkawire serve`` for
the command line.
"""

from kafkawire.broker.config import BrokerConfig
from kafkawire.broker.connections import CodecStats
from kafkawire.broker.frame_log import FrameLog
from kafkawire.broker.server import Broker

__all__ = ["Broker", "BrokerConfig", "CodecStats", "FrameLog"]
