"""A real Kafka 4.4 cluster of three brokers for the tests of cluster events.

:func:`start_cluster` starts three nodes with :func:`support.kafka.broker.start_broker`:
node 1 is broker and controller (the controller quorum, of one), nodes 2 and 3 are brokers
only.  Topics are replicated three times with ``min.insync.replicas=2``, heaps are small,
every listener is on 127.0.0.1.  A killed broker is fenced, and its partitions get new
leaders, once ``broker.session.timeout.ms`` passes without its heartbeat; node 1 is not
killed (:data:`CONTROLLER`: without it no leader is elected).

The cluster is changed with Kafka's own Admin API (``ClusterAdmin.java``, one JVM a call):
:meth:`KafkaCluster.move_leader` reorders a partition's replicas by a reassignment and
runs a preferred leader election (what ``kafka-reassign-partitions.sh`` and
``kafka-leader-election.sh`` do), :meth:`~KafkaCluster.add_partitions`,
:meth:`~KafkaCluster.delete_topic` (and :meth:`~KafkaCluster.recreate_topic`),
:meth:`~KafkaCluster.set_quota`; a broker is
killed (SIGKILL) and started again with :meth:`~KafkaCluster.kill` and
:meth:`~KafkaCluster.start`.
"""

from __future__ import annotations

import time
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Dict, List, Optional

from support.kafka.broker import KafkaBroker, start_broker
from support.kafka.java_clients import run_java

NODES = 3
CONTROLLER = 1  # the node that is also the controller quorum
HEAP = "-Xmx256m"
ADMIN = Path(__file__).with_name("ClusterAdmin.java")
SETTINGS: Dict[str, object] = {
    "default.replication.factor": 3,
    "min.insync.replicas": 2,
    "offsets.topic.replication.factor": 3,
    "transaction.state.log.replication.factor": 3,
    "transaction.state.log.min.isr": 2,
    "share.coordinator.state.topic.replication.factor": 3,
    "share.coordinator.state.topic.min.isr": 2,
    # a killed broker's leaders move after this long; long enough that a stalled JVM on a
    # busy machine is not fenced
    "broker.session.timeout.ms": 15000,
}
WAIT = 120.0  # seconds for the brokers to register, or to come back


def admin(bootstrap: str, job: Dict[str, Any]) -> Dict[str, Any]:
    """Run one ``ClusterAdmin.java`` job (or ``{"jobs": [...]}``) against any cluster; its
    JSON result."""
    return run_java({"bootstrap": bootstrap, **job}, timeout=180, source=ADMIN)


@dataclass
class KafkaCluster:
    """Three running brokers; ``brokers[i]`` is node ``i + 1``."""

    brokers: List[KafkaBroker]

    @property
    def bootstrap_servers(self) -> str:
        return ",".join(b.bootstrap_servers for b in self.brokers)

    def broker(self, node: int) -> KafkaBroker:
        return self.brokers[node - 1]

    def admin(self, job: Dict[str, Any]) -> Dict[str, Any]:
        """Run one ``ClusterAdmin.java`` job on this cluster (:func:`admin`)."""
        return admin(self.bootstrap_servers, job)

    def registered(self) -> List[int]:
        """The brokers the cluster's metadata lists (the fenced ones left out)."""
        from confluent_kafka.admin import AdminClient

        admin = AdminClient({"bootstrap.servers": self.bootstrap_servers})
        return sorted(admin.list_topics(timeout=10).brokers)

    def _wait(self, what: str, done: Any) -> None:
        deadline = time.monotonic() + WAIT
        while not done():
            if time.monotonic() > deadline:
                raise AssertionError(f"the Kafka cluster: {what} within {WAIT:g} s")
            time.sleep(0.3)

    def create_topic(self, name: str, partitions: int, **configs: str) -> None:
        """A topic on all three brokers; returns once every replica is in sync."""
        self.admin(
            {
                "op": "create",
                "topic": name,
                "partitions": partitions,
                "replication": NODES,
                "configs": configs,
            }
        )
        self._wait(
            f"topic {name} has not got {partitions} partitions in sync",
            lambda: len(self.in_sync(name)) == partitions,
        )

    def describe(self, topic: str) -> Dict[int, Dict[str, Any]]:
        """partition -> {"leader", "replicas", "isr"} of ``topic``."""
        return {int(p): d for p, d in self.admin({"op": "describe", "topic": topic}).items()}

    def in_sync(self, topic: str) -> List[int]:
        """The partitions of ``topic`` whose three replicas are all in sync."""
        return sorted(p for p, d in self.describe(topic).items() if len(d["isr"]) == NODES)

    def move_leader(self, topic: str, partition: int, to: int) -> None:
        """Make broker ``to`` the leader of the partition; returns once it is."""
        self.admin({"op": "move_leader", "topic": topic, "partition": partition, "to": to})

    def add_partitions(self, topic: str, total: int) -> None:
        self.admin({"op": "add_partitions", "topic": topic, "total": total})

    def delete_topic(self, topic: str) -> None:
        self.admin({"op": "delete", "topic": topic})

    def recreate_topic(self, topic: str, partitions: int, **configs: str) -> None:
        """Delete ``topic`` and create it again, empty, under a new topic id."""
        from confluent_kafka.admin import AdminClient

        self.delete_topic(topic)
        listed = AdminClient({"bootstrap.servers": self.bootstrap_servers})
        self._wait(f"topic {topic} is not gone", lambda: topic not in listed.list_topics(timeout=10).topics)
        self.create_topic(topic, partitions, **configs)

    def set_quota(self, client_id: str, **rates: Optional[float]) -> None:
        """``consumer_byte_rate`` and ``producer_byte_rate`` of ``client_id`` (None: removed)."""
        self.admin({"op": "quota", "client_id": client_id, **rates})

    def kill(self, node: int) -> None:
        """Kill broker ``node``'s JVM (SIGKILL); its partitions get new leaders once the
        controller fences it."""
        if node == CONTROLLER:
            raise ValueError(f"node {CONTROLLER} is the controller quorum: kill another broker")
        self.broker(node).kill()

    def start(self, node: int) -> None:
        """Start a killed broker again; returns once the cluster lists it."""
        if self.broker(node).process is None:
            self.broker(node).start()
        self._wait(f"broker {node} is not back", lambda: node in self.registered())

    def stop(self) -> None:
        # the brokers first: a broker shutting down cleanly waits for the controller
        for b in reversed(self.brokers):
            b.stop()


def start_cluster() -> KafkaCluster:
    """Start the three brokers; return once the cluster's metadata lists them all."""
    first = start_broker(extra_properties=SETTINGS, heap=HEAP)
    brokers = [first]
    try:
        # one after another, from this thread: a JVM is sent SIGTERM when the thread that
        # started it ends (the death signal of support.kafka.broker), so no worker threads
        for node in range(2, NODES + 1):
            brokers.append(
                start_broker(
                    extra_properties=SETTINGS,
                    heap=HEAP,
                    node_id=node,
                    cluster_id=first.cluster_id,
                    controller=first.controller,
                )
            )
        cluster = KafkaCluster(brokers)
        cluster._wait(
            "not every broker registered", lambda: cluster.registered() == list(range(1, NODES + 1))
        )
        return cluster
    except BaseException:
        KafkaCluster(brokers).stop()
        raise


__all__ = ["KafkaCluster", "admin", "start_cluster", "CONTROLLER", "NODES", "SETTINGS"]
