"""``kafka-cluster`` when the cluster misbehaves, against the real Kafka 4.4 broker.

* A task given its partition's leader by the planner fetches with no bootstrap server;
  when the leader moved, its epoch is stale or the topic was recreated, the task asks
  Metadata and reads the same rows.
* A connection cut in the middle of a Fetch response, or a response of garbage, is
  retried on a new connection and the read gives the same rows as an undisturbed one;
  when it keeps happening, the read fails within ``default.api.timeout.ms`` with a
  :class:`~kafkawire.errors.ClusterError` naming the partition and the broker.  A record
  batch whose CRC does not match is a :class:`~kafkawire.errors.CorruptRecordError`
  naming them (Kafka's consumer does not retry one either).  The faults come from a TCP
  proxy (``support.kafka.proxy``) between the reader and the session's broker.

A broker of the module's own (``guarded_kafka``: ACLs enforced, SASL_SSL, a quick log
cleaner) serves the rest, each compared with Spark's own connector where it has the case:

* SASL_SSL with SCRAM and a PEM trust store (a file, or its text) reads the rows the
  connector reads over the same listener.
* A topic the user may not describe, or describe but not read, fails the read with a
  :class:`~kafkawire.errors.BrokerErrorResponse` naming the topic and
  TOPIC_AUTHORIZATION_FAILED, where the connector fails with Kafka's
  TopicAuthorizationException.
* A streaming query into a file sink goes on across a restart of the broker, then is
  stopped and started again from its checkpoint, while a producer keeps writing: the
  sink holds every acknowledged record once.
* A compacted topic, its offsets full of holes, reads as the connector reads it, from
  its start or from offsets inside a hole.

On the session's broker, a topic deleted under a streaming query follows what the
connector does by name, and ``failOnDataLoss`` by pattern.
"""

from __future__ import annotations

import time
import uuid

import pytest

from test_spark_kafka_cluster import create_topic, produce

pytestmark = [pytest.mark.kafka]


@pytest.fixture(scope="module")
def small_topic(kafka_broker):
    """A topic of one partition: 300 records in several batches (lz4)."""
    name = f"kw-faults-{uuid.uuid4().hex[:8]}"
    boot = kafka_broker.bootstrap_servers
    create_topic(boot, name, 1)
    for start in range(0, 300, 100):
        produce(
            boot,
            name,
            [(0, b"k%d" % i, b"value-%d-" % i * 8, [("h", b"%d" % i)]) for i in range(start, start + 100)],
            **{"compression.type": "lz4"},
        )
    return name


def _read(bootstrap: str, topic: str, backend: str, **settings: str):
    """Every record of ``topic``'s partition 0 read by :func:`read_range`, as
    (offset, key, value, headers) tuples; the 300-record size of ``small_topic``."""
    from kafkawire.cluster.client import Cluster
    from kafkawire.cluster.fetch import read_range
    from kafkawire.cluster.plan import OffsetRange, ClusterReadOptions

    options = ClusterReadOptions.parse(
        {
            "kafka.bootstrap.servers": bootstrap,
            "subscribe": topic,
            "includeHeaders": "true",
            "backend": backend,
            # small responses: several Fetches, one of them spoiled
            "kafka.max.partition.fetch.bytes": "4096",
            **{f"kafka.{k}": v for k, v in settings.items()},
        }
    )
    with Cluster(options.client) as cluster:
        out = []
        for batch in cluster.iterate(read_range(cluster.aio, OffsetRange(topic, 0, 0, 300), options)):
            d = batch.to_pydict()
            out += list(zip(d["offset"], d["key"], d["value"], map(repr, d["headers"])))
        return out


@pytest.mark.timeout(120)
@pytest.mark.parametrize("fault", ["cut", "garbage"])
def test_a_fetch_cut_or_answered_with_garbage_is_retried_to_the_same_rows(
    kafka_broker, small_topic, fault, backend
):
    from support.kafka.proxy import FaultProxy

    expected = _read(kafka_broker.bootstrap_servers, small_topic, backend)
    assert [r[0] for r in expected] == list(range(300))
    with FaultProxy(kafka_broker.host, kafka_broker.port, fault, faults=2) as proxy:
        got = _read(proxy.address, small_topic, backend)
        assert proxy.spoiled == 2
    assert got == expected


@pytest.mark.timeout(120)
@pytest.mark.parametrize(
    "fault, cause",
    [("cut", "the broker closed the connection"), ("garbage", "did not decode")],
)
def test_a_broker_that_keeps_failing_fetches_is_an_error_naming_partition_and_broker(
    kafka_broker, small_topic, fault, cause, backend
):
    from support.kafka.proxy import FaultProxy

    from kafkawire.errors import ClusterError

    with FaultProxy(kafka_broker.host, kafka_broker.port, fault, faults=1000) as proxy:
        with pytest.raises(ClusterError) as caught:
            _read(proxy.address, small_topic, backend, **{"default.api.timeout.ms": "2000"})
        assert proxy.spoiled >= 2
    message = str(caught.value)
    assert f"fetching {small_topic}-0: gave up after" in message
    assert f"broker {kafka_broker.node_id} ({proxy.address})" in message and cause in message


@pytest.mark.timeout(120)
def test_a_batch_corrupted_on_the_way_is_an_error_naming_partition_and_broker(
    kafka_broker, small_topic, backend
):
    from support.kafka.proxy import FaultProxy

    from kafkawire.errors import CorruptRecordError

    with FaultProxy(kafka_broker.host, kafka_broker.port, "corrupt", faults=1) as proxy:
        with pytest.raises(CorruptRecordError) as caught:
            _read(proxy.address, small_topic, backend)
    message = str(caught.value)
    assert message.startswith(f"{small_topic}-0: the records broker {kafka_broker.node_id} ({proxy.address})")
    assert "returned from offset 0 are corrupt" in message and "CRC" in message


def _closed_port() -> int:
    import socket

    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def _task(bootstrap: str, topic: str, backend: str, hint):
    """A Spark task's read of ``topic``'s partition 0 (300 records), given the leader
    ``hint`` the planner put into its input partition: its batches, as they come."""
    from kafkawire.cluster.plan import OffsetRange, ClusterReadOptions
    from kafkawire.spark.kafka_cluster import RangePartition, read_partition

    options = ClusterReadOptions.parse(
        {
            "kafka.bootstrap.servers": bootstrap,
            "subscribe": topic,
            "backend": backend,
            "kafka.retry.backoff.ms": "10",
            "kafka.default.api.timeout.ms": "20000",
        }
    )
    return read_partition(RangePartition(OffsetRange(topic, 0, 0, 300), hint), options)


def _task_read(bootstrap: str, topic: str, backend: str, hint) -> list:
    """The offsets :func:`_task` reads."""
    out = []
    for batch in _task(bootstrap, topic, backend, hint):
        out += batch.column("offset").to_pylist()
    return out


def _planned_hint(bootstrap: str, topic: str):
    from kafkawire.cluster.client import Cluster
    from kafkawire.cluster.config import ClientConfig

    with Cluster(ClientConfig.parse({"bootstrap.servers": bootstrap})) as cluster:
        cluster.topics([topic])
        return cluster.hint((topic, 0))


@pytest.mark.timeout(120)
def test_the_tasks_of_one_worker_read_over_the_connections_the_last_one_kept(
    kafka_broker, small_topic, backend
):
    """Spark runs task after task in one Python worker: the next task with the same
    settings borrows the client the last one gave back, its connections open (the proxy
    takes no new one).  A connection the broker dropped meanwhile is opened again; a
    read that fails or is left unfinished closes its client instead of giving it back;
    a forked child does not use its parent's."""
    import os

    from support.kafka.proxy import FaultProxy

    from kafkawire.cluster import pool
    from kafkawire.errors import CorruptRecordError

    pool.close_idle()
    try:
        with FaultProxy(kafka_broker.host, kafka_broker.port, "cut", faults=0) as proxy:
            assert _task_read(proxy.address, small_topic, backend, None) == list(range(300))
            opened = proxy.accepted
            assert opened >= 1 and pool.idle() == 1
            assert _task_read(proxy.address, small_topic, backend, None) == list(range(300))
            assert (proxy.accepted, pool.idle()) == (opened, 1)
            proxy.drop_connections()  # as a broker restart would
            assert _task_read(proxy.address, small_topic, backend, None) == list(range(300))
            assert proxy.accepted > opened and pool.idle() == 1
            task = _task(proxy.address, small_topic, backend, None)
            next(task)
            task.close()  # a LIMIT stopped it
            assert pool.idle() == 0
        with FaultProxy(kafka_broker.host, kafka_broker.port, "corrupt", faults=1) as proxy:
            with pytest.raises(CorruptRecordError):
                _task_read(proxy.address, small_topic, backend, None)
            assert pool.idle() == 0
            opened = proxy.accepted
            assert _task_read(proxy.address, small_topic, backend, None) == list(range(300))
            assert proxy.accepted > opened  # a new client, not the failed one
        assert pool.idle() == 1
        child = os.fork()
        if child == 0:  # pragma: no cover - the child's answer is its exit status
            os._exit(0 if pool.idle() == 0 else 1)
        assert os.waitpid(child, 0)[1] == 0 and pool.idle() == 1
    finally:
        pool.close_idle()


@pytest.mark.timeout(120)
def test_a_task_given_its_leader_fetches_with_no_bootstrap_server_nor_metadata(
    kafka_broker, small_topic, backend
):
    """The planner's word on the leader takes a task straight to it: the read works with
    a bootstrap server that does not answer."""
    hint = _planned_hint(kafka_broker.bootstrap_servers, small_topic)
    assert (hint.host, hint.port, hint.partition.leader) == (
        kafka_broker.host,
        kafka_broker.port,
        kafka_broker.node_id,
    )
    assert _task_read(f"127.0.0.1:{_closed_port()}", small_topic, backend, hint) == list(range(300))


@pytest.mark.timeout(120)
@pytest.mark.parametrize("stale", ["moved", "leader epoch", "topic id"])
def test_a_task_whose_leader_hint_is_stale_asks_metadata_and_reads_the_same_rows(
    kafka_broker, small_topic, stale, backend
):
    """A leader gone from where the planner saw it (the connection fails), a leader epoch
    the broker does not know (UNKNOWN_LEADER_EPOCH) or a topic recreated under another id
    (UNKNOWN_TOPIC_ID): the task retries through Metadata as one given no hint does."""
    import dataclasses
    import uuid as uuid_

    hint = _planned_hint(kafka_broker.bootstrap_servers, small_topic)
    if stale == "moved":
        hint = dataclasses.replace(hint, port=_closed_port())
    elif stale == "leader epoch":
        part = hint.partition
        hint = dataclasses.replace(
            hint, partition=dataclasses.replace(part, leader_epoch=part.leader_epoch + 5)
        )
    else:
        hint = dataclasses.replace(hint, topic_id=uuid_.uuid4())
    assert _task_read(kafka_broker.bootstrap_servers, small_topic, backend, hint) == list(range(300))


def _produce_in_small_batches(bootstrap: str, topic: str, backend: str, n: int, way: str) -> int:
    """``n`` records into ``topic``'s partitions 0 and 1 by kafkawire's producer, a few
    records a batch so that many Produce requests are on the wire at once, a record at a
    time (``send``) or as Arrow columns (``send_arrow``); returns how many it says the
    broker acknowledged."""
    import pyarrow as pa

    from kafkawire.cluster.client import Cluster
    from kafkawire.cluster.config import ClientConfig
    from kafkawire.cluster.produce import Producer

    with Cluster(ClientConfig.parse({"bootstrap.servers": bootstrap})) as cluster:
        producer = Producer(cluster, batch_bytes=300, backend=backend)
        if way == "send":
            for i in range(n):
                producer.send(topic, b"value-%d" % i, key=b"k%d" % i, partition=i % 2)
        else:
            producer.send_arrow(
                topic,
                pa.array([b"value-%d" % i for i in range(n)]),
                keys=pa.array([b"k%d" % i for i in range(n)]),
                partitions=pa.array([i % 2 for i in range(n)], pa.int32()),
            )
        producer.flush()
        return producer.acknowledged


@pytest.mark.timeout(120)
@pytest.mark.parametrize("way", ["send", "send_arrow"])
@pytest.mark.parametrize("cut", [0, 1])
def test_produce_requests_on_the_wire_together_write_each_record_once_in_order(
    kafka_broker, cut, way, backend
):
    """A response cut with requests behind it on the wire: they are sent again in order,
    and the broker keeps one copy of what it had already written (Kafka's Java consumer
    reads the topic)."""
    from support.kafka.java_clients import run_java
    from support.kafka.proxy import FaultProxy

    from kafkawire.protocol.schema.catalog import ApiKey

    boot = kafka_broker.bootstrap_servers
    topic = f"kw-pipelined-{uuid.uuid4().hex[:8]}"
    create_topic(boot, topic, 2)
    n = 400
    with FaultProxy(
        kafka_broker.host, kafka_broker.port, "cut", faults=cut, api=ApiKey.PRODUCE, after=3
    ) as proxy:
        assert _produce_in_small_batches(proxy.address, topic, backend, n, way) == n
        assert proxy.spoiled == cut
    consumed = run_java({"op": "consume", "bootstrap": boot, "topics": [topic], "group": topic, "expect": n})
    by_partition: dict = {0: [], 1: []}
    for r in sorted(consumed["records"], key=lambda r: (r["partition"], r["offset"])):
        by_partition[r["partition"]].append(bytes.fromhex(r["value"]))
    for p in (0, 1):
        assert by_partition[p] == [b"value-%d" % i for i in range(p, n, 2)]


@pytest.fixture
def blackholed_port():
    """A port on 127.0.0.1 where a TCP connect hangs: a listener that accepts nothing,
    its backlog of one taken, so the kernel drops every further SYN."""
    import socket

    with socket.socket() as listener, socket.socket() as filler:
        listener.bind(("127.0.0.1", 0))
        listener.listen(0)
        port = listener.getsockname()[1]
        filler.connect(("127.0.0.1", port))
        yield port


@pytest.mark.timeout(120)
def test_a_connect_that_hangs_fails_within_the_connection_setup_timeout(blackholed_port, backend):
    """A bootstrap server whose connect never completes: each try gives up after
    ``socket.connection.setup.timeout.ms``, doubled after each failed connect up to
    ``socket.connection.setup.timeout.max.ms`` (Kafka's clients' schedule), not after
    ``request.timeout.ms``."""
    from kafkawire.cluster.client import Cluster
    from kafkawire.cluster.plan import ClusterReadOptions, plan
    from kafkawire.errors import ClusterError

    options = ClusterReadOptions.parse(
        {
            "kafka.bootstrap.servers": f"127.0.0.1:{blackholed_port}",
            "subscribe": "t",
            "kafka.socket.connection.setup.timeout.ms": "200",
            "kafka.socket.connection.setup.timeout.max.ms": "800",
            "kafka.request.timeout.ms": "30000",
            "kafka.default.api.timeout.ms": "3000",
        }
    )
    with Cluster(options.client) as cluster:
        timeouts = [cluster.connect_timeout("127.0.0.1", blackholed_port)]
        with pytest.raises(ClusterError) as caught:
            plan(cluster, options)
        timeouts.append(cluster.connect_timeout("127.0.0.1", blackholed_port))
    assert timeouts == [0.2, 0.8]
    # tries of 0.2, 0.4 and 0.8 s fit in the 3 s: the last one waited 0.8 s
    assert f"the connect to 127.0.0.1:{blackholed_port} did not finish within 0.8 s" in str(caught.value)


def _throttled_read(bootstrap: str, topic: str, client_id: str, backend: str):
    from kafkawire.cluster.client import Cluster
    from kafkawire.cluster.fetch import read_range
    from kafkawire.cluster.plan import OffsetRange, ClusterReadOptions

    options = ClusterReadOptions.parse(
        {
            "kafka.bootstrap.servers": bootstrap,
            "subscribe": topic,
            "backend": backend,
            "kafka.client.id": client_id,
            "kafka.max.partition.fetch.bytes": "16384",
            # shorter than the read takes under the quota: being throttled is no fault
            "kafka.default.api.timeout.ms": "2000",
        }
    )
    with Cluster(options.client) as cluster:
        return [
            v
            for b in cluster.iterate(read_range(cluster.aio, OffsetRange(topic, 0, 0, 100), options))
            for v in b.column("value").to_pylist()
        ]


@pytest.mark.timeout(180)
def test_a_fetch_quota_throttles_the_read_and_is_no_fault(kafka_broker, backend):
    """A client id with a consumer byte-rate quota (set with Kafka's Admin API, as
    kafka-configs does): the broker answers Fetches it throttles with no records and a
    ``throttle_time_ms``.  The read waits that long before its next request to the broker
    (as Kafka's clients do), asks no new metadata, and gets every record."""
    from support.kafka.cluster import admin
    from support.kafka.proxy import FaultProxy

    # a first client's rate is taken over the quota's whole window (10 s): 100 kB read at
    # once is twice a 5 kB/s quota, several seconds of throttling.  Batches of 8 kB: the
    # broker answers a throttled Fetch with nothing, and one batch bigger than the quota
    # allows in a window would be throttled for ever

    from kafkawire.protocol.schema.catalog import ApiKey

    boot = kafka_broker.bootstrap_servers
    topic = f"kw-quota-{uuid.uuid4().hex[:8]}"
    create_topic(boot, topic, 1)
    values = [b"%04d-" % i + b"x" * 1000 for i in range(100)]
    produce(boot, topic, [(0, None, v, []) for v in values], **{"batch.size": 8192})
    client_id = f"kw-throttled-{backend}-{uuid.uuid4().hex[:6]}"
    admin(boot, {"op": "quota", "client_id": client_id, "consumer_byte_rate": 5000})
    with FaultProxy(kafka_broker.host, kafka_broker.port, "cut", faults=0) as proxy:
        assert _throttled_read(proxy.address, topic, client_id, backend) == values
    assert proxy.throttled, "the quota throttled no Fetch"
    for at, ms in proxy.throttled:
        later = [t for t, _ in proxy.requests if t > at]
        assert all(t >= at + ms / 1000 for t in later), (at, ms, later[:3])
    metadata = [t for t, api in proxy.requests if api == ApiKey.METADATA]
    assert all(t < proxy.throttled[0][0] for t in metadata), "throttling cleared the metadata"


@pytest.mark.timeout(180)
@pytest.mark.parametrize("fail_on_data_loss", [True, False])
def test_records_planned_past_the_log_end_are_waited_for_until_the_poll_timeout(
    kafka_broker, fail_on_data_loss, backend
):
    """A range that reaches past where the log ends (a new leader's high watermark can
    trail the old one's for a moment): the task asks again until the records come,
    for up to ``kafkaConsumer.pollTimeoutMs``, before it judges them lost."""
    import threading

    from kafkawire.cluster.client import Cluster
    from kafkawire.cluster.fetch import read_range
    from kafkawire.cluster.plan import OffsetRange, ClusterReadOptions
    from kafkawire.errors import DataLossError

    boot = kafka_broker.bootstrap_servers
    topic = f"kw-late-{uuid.uuid4().hex[:8]}"
    create_topic(boot, topic, 1)
    produce(boot, topic, [(0, None, b"r%d" % i, []) for i in range(20)])

    def read(end: int, after_first=lambda: None, **poll_ms: str) -> list:
        opts = ClusterReadOptions.parse(
            {
                "kafka.bootstrap.servers": boot,
                "subscribe": topic,
                "failOnDataLoss": str(fail_on_data_loss).lower(),
                "backend": backend,
                **{f"kafkaConsumer.{k}": v for k, v in poll_ms.items()},
            }
        )
        out: list = []
        with Cluster(opts.client) as cluster:
            for b in cluster.iterate(read_range(cluster.aio, OffsetRange(topic, 0, 0, end), opts)):
                out += b.column("value").to_pylist()
                after_first()
                after_first = lambda: None  # noqa: E731
        return out

    # the last 20 records come a few seconds after the task has read the first 20, while
    # it waits for them
    late = threading.Timer(3.0, produce, (boot, topic, [(0, None, b"r%d" % i, []) for i in range(20, 40)]))
    try:
        assert read(40, late.start) == [b"r%d" % i for i in range(40)]  # the default poll timeout, 120 s
    finally:
        late.join()
    # records that never come: lost after the poll timeout
    if fail_on_data_loss:
        with pytest.raises(
            DataLossError,
            match=f"{topic}-0: offsets 40 to 50 were planned but the log now ends at 40"
            " still after kafkaConsumer.pollTimeoutMs",
        ):
            read(50, pollTimeoutMs="1500")
    else:
        assert len(read(50, pollTimeoutMs="1500")) == 40


# -- a broker of this module's own: ACLs, TLS, a quick log cleaner, restarted ----------


@pytest.fixture(scope="module")
def pki(tmp_path_factory):
    from support.tls_certs import make_pki

    return make_pki(tmp_path_factory.mktemp("pki"))


@pytest.fixture(scope="module")
def guarded_kafka(pki):
    """A broker that enforces ACLs (admin, and the anonymous users of the PLAINTEXT and
    SSL listeners, are super users), listens on SASL_SSL too, runs its log cleaner every
    half second, and that a test may restart: alice may read topics named ``kw-open-*``
    and only describe ``kw-described-*``."""
    from confluent_kafka.admin import (
        AclBinding,
        AclOperation,
        AclPermissionType,
        AdminClient,
        ResourcePatternType,
        ResourceType,
    )
    from support.kafka.jars import require_kafka

    require_kafka()
    from support.kafka.broker import start_broker

    broker = start_broker(
        tls=(pki.server_cert, pki.server_key),
        extra_properties={
            "authorizer.class.name": "org.apache.kafka.metadata.authorizer.StandardAuthorizer",
            "super.users": "User:admin;User:ANONYMOUS",
            "log.cleaner.backoff.ms": 500,
        },
    )
    try:
        admin = AdminClient({"bootstrap.servers": broker.bootstrap_servers})
        grants = [("kw-open-", AclOperation.READ), ("kw-open-", AclOperation.DESCRIBE)]
        grants += [("kw-described-", AclOperation.DESCRIBE)]
        bindings = [
            AclBinding(
                ResourceType.TOPIC,
                prefix,
                ResourcePatternType.PREFIXED,
                "User:alice",
                "*",
                operation,
                AclPermissionType.ALLOW,
            )
            for prefix, operation in grants
        ]
        for done in admin.create_acls(bindings).values():
            done.result(30)
        yield broker
    finally:
        broker.stop()


def _alice(broker, port: int, protocol: str = "SASL_PLAINTEXT") -> dict:
    jaas = (
        "org.apache.kafka.common.security.scram.ScramLoginModule required "
        f'username="alice" password="{broker.users["alice"]}";'
    )
    return {
        "kafka.bootstrap.servers": f"{broker.host}:{port}",
        "kafka.security.protocol": protocol,
        "kafka.sasl.mechanism": "SCRAM-SHA-256",
        "kafka.sasl.jaas.config": jaas,
    }


def _plan(options: dict):
    from kafkawire.cluster.client import Cluster
    from kafkawire.cluster.plan import ClusterReadOptions, plan

    opts = ClusterReadOptions.parse(options)
    with Cluster(opts.client) as cluster:
        return opts, plan(cluster, opts)


@pytest.mark.spark
@pytest.mark.timeout(300)
def test_sasl_ssl_with_a_pem_trust_store_reads_as_the_connector_does(
    spark_connector, guarded_kafka, pki, backend
):
    from pathlib import Path

    from test_spark_kafka_cluster import load, rows, same_as_connector

    boot = guarded_kafka.bootstrap_servers
    topic = f"kw-open-tls-{uuid.uuid4().hex[:8]}"
    create_topic(boot, topic, 2)
    produce(
        boot,
        topic,
        [(i % 2, b"k%d" % i, b"v%d" % i, [("h", b"%d" % i)]) for i in range(200)],
        **{"compression.type": "zstd"},
    )
    options = {
        **_alice(guarded_kafka, guarded_kafka.sasl_ssl_port, "SASL_SSL"),
        "kafka.ssl.truststore.type": "PEM",
        "kafka.ssl.truststore.location": pki.ca,
        "subscribe": topic,
        "includeHeaders": "true",
    }
    expected = same_as_connector(spark_connector, options, backend)
    assert len(expected) == 200
    # the trust store given as text (Kafka's ssl.truststore.certificates)
    del options["kafka.ssl.truststore.location"]
    options["kafka.ssl.truststore.certificates"] = Path(pki.ca).read_text()
    assert rows(load(spark_connector, "kafka-cluster", {**options, "backend": backend})) == expected


@pytest.mark.spark
@pytest.mark.timeout(300)
def test_a_topic_not_authorized_is_an_error_naming_it_as_the_connectors_is(
    spark_connector, guarded_kafka, backend
):
    from kafkawire.cluster.client import Cluster
    from kafkawire.cluster.fetch import read_range
    from kafkawire.errors import BrokerErrorResponse

    from test_spark_kafka_cluster import load

    boot = guarded_kafka.bootstrap_servers
    tag = uuid.uuid4().hex[:8]
    hidden, described = f"kw-secret-{tag}", f"kw-described-{tag}"
    for topic in (hidden, described):
        create_topic(boot, topic, 1)
        produce(boot, topic, [(0, None, b"%d" % i, []) for i in range(10)])
    alice = _alice(guarded_kafka, guarded_kafka.sasl_port)
    # not even to be described: Metadata refuses it and the driver's plan names it
    with pytest.raises(
        BrokerErrorResponse, match=f"metadata of topic '{hidden}'.*TOPIC_AUTHORIZATION_FAILED"
    ):
        _plan({**alice, "subscribe": hidden})
    # described but not read: the plan is made, and the Fetch refused
    options, ranges = _plan({**alice, "subscribe": described, "backend": backend})
    assert [(r.topic, r.start, r.end) for r in ranges] == [(described, 0, 10)]
    with Cluster(options.client) as cluster:
        with pytest.raises(
            BrokerErrorResponse,
            match=f"fetching {described}-0 at offset 0 from broker {guarded_kafka.node_id} .*TOPIC_AUTHORIZATION_FAILED",
        ):
            list(cluster.iterate(read_range(cluster.aio, ranges[0], options)))
    # in Spark, both jobs fail.  The connector's planning names Kafka's
    # TopicAuthorizationException; its task's does not reach the driver when its jar came
    # by ADD JAR (Spark reports UnknownReason, the executor's log has the exception)
    for topic, theirs in ((hidden, "TopicAuthorizationException"), (described, None)):
        with pytest.raises(Exception, match=theirs):
            load(spark_connector, "kafka", {**alice, "subscribe": topic}).collect()
        with pytest.raises(Exception, match=f"{topic}.*TOPIC_AUTHORIZATION_FAILED"):
            load(
                spark_connector, "kafka-cluster", {**alice, "subscribe": topic, "backend": backend}
            ).collect()


class _Writer:
    """A producer thread writing ``r-<n>`` records to two partitions, a few every tenth of
    a second, until stopped; ``delivered`` holds the values the broker acknowledged."""

    def __init__(self, bootstrap: str, topic: str) -> None:
        import threading

        self.bootstrap, self.topic = bootstrap, topic
        self.delivered: list = []
        self.failures: list = []
        self._stop = threading.Event()
        self._thread = threading.Thread(target=self._run, daemon=True)
        self._thread.start()

    def _done(self, err, msg) -> None:
        (self.failures if err is not None else self.delivered).append(err or msg.value())

    def _run(self) -> None:
        from confluent_kafka import Producer

        p = Producer({"bootstrap.servers": self.bootstrap, "enable.idempotence": True, "linger.ms": 5})
        n = 0
        while not self._stop.is_set():
            for _ in range(10):
                p.produce(self.topic, value=b"r-%d" % n, partition=n % 2, on_delivery=self._done)
                n += 1
            p.poll(0.1)
        p.flush(120)

    def stop(self) -> None:
        self._stop.set()
        self._thread.join(180)


def _wait_for(what: str, condition, timeout: float = 180) -> None:
    deadline = time.monotonic() + timeout
    while not condition():
        assert time.monotonic() < deadline, f"timed out waiting for {what}"
        time.sleep(0.2)


@pytest.mark.spark
@pytest.mark.timeout(600)
def test_a_stream_goes_on_across_a_broker_restart_and_its_own_delivering_every_record_once(
    spark, guarded_kafka, tmp_path, backend
):
    boot = guarded_kafka.bootstrap_servers
    topic = f"kw-open-restart-{uuid.uuid4().hex[:8]}"
    create_topic(boot, topic, 2)
    out, checkpoint = str(tmp_path / "out"), str(tmp_path / "checkpoint")

    def start():
        return (
            spark.readStream.format("kafka-cluster")
            .option("startingOffsets", "earliest")
            .option("kafka.bootstrap.servers", boot)
            .option("subscribe", topic)
            .option("backend", backend)
            .option("kafka.default.api.timeout.ms", "180000")  # longer than a restart takes
            .load()
            .writeStream.format("parquet")
            .option("path", out)
            .option("checkpointLocation", checkpoint)
            .trigger(processingTime="500 milliseconds")
            .start()
        )

    def read_since(query, batch: int = -1) -> bool:
        """Whether a micro-batch after ``batch`` read records."""
        assert query.exception() is None
        return any(p["batchId"] > batch and p["numInputRows"] for p in query.recentProgress)

    writer = _Writer(boot, topic)
    try:
        query = start()
        try:
            _wait_for("a first micro-batch", lambda: read_since(query))
            guarded_kafka.restart()  # while the query runs and the producer writes
            last = query.lastProgress["batchId"]
            _wait_for("a micro-batch after the restart", lambda: read_since(query, last))
        finally:
            query.stop()
        query = start()  # from the checkpoint, while the producer still writes
        try:
            _wait_for("a micro-batch after the query's restart", lambda: read_since(query))
            writer.stop()
            query.processAllAvailable()
        finally:
            query.stop()
    finally:
        writer.stop()
    assert writer.failures == []
    got = [r.value for r in spark.read.parquet(out).select("value").collect()]
    assert len(got) == len(writer.delivered) and sorted(got) == sorted(writer.delivered)


@pytest.mark.spark
@pytest.mark.timeout(300)
def test_a_compacted_topic_with_offset_gaps_reads_as_the_connector_does(
    spark_connector, guarded_kafka, backend
):
    import json

    from confluent_kafka.admin import AdminClient, NewTopic

    from kafkawire.cluster.client import Cluster
    from kafkawire.cluster.fetch import read_range

    from test_spark_kafka_cluster import load, rows

    def same_as_connector(spark, options, backend):
        # the cleaner may still be removing records while Spark reads: a comparison
        # counts only when the connector's reads before and after ours agree (the
        # cleaner only removes, so the log held still in between)
        for _ in range(5):
            before = rows(load(spark, "kafka", options))
            ours = load(spark, "kafka-cluster", {**options, "backend": backend})
            got = rows(ours)
            if rows(load(spark, "kafka", options)) == before:
                assert ours.schema == load(spark, "kafka", options).schema
                assert got == before
                return before
        raise AssertionError("the log cleaner kept changing the topic across 5 reads")

    boot = guarded_kafka.bootstrap_servers
    topic = f"kw-open-compacted-{uuid.uuid4().hex[:8]}"
    admin = AdminClient({"bootstrap.servers": boot})
    config = {
        "cleanup.policy": "compact",
        "segment.ms": "100",  # each round of records in a segment of its own
        "min.cleanable.dirty.ratio": "0.01",
        "min.compaction.lag.ms": "0",
    }
    admin.create_topics([NewTopic(topic, 2, 1, config=config)])[topic].result(30)
    _wait_for(
        "the topic", lambda: len(admin.list_topics(topic, timeout=10).topics[topic].partitions) == 2, 30
    )
    # each round rewrites a part of the keys the round before wrote (some with a null
    # value), so compaction leaves the older rounds with holes; the last round stays in
    # the active segment, which is not cleaned
    written = [0, 0]
    for round_, every in enumerate((1, 2, 3, 1)):
        produce(
            boot,
            topic,
            [
                (k % 2, b"key-%d" % k, None if k % 7 == round_ else b"v%d-%d" % (round_, k), [])
                for k in range(0, 40, every)
            ],
        )
        for k in range(0, 40, every):
            written[k % 2] += 1
        time.sleep(0.3)
    options, ranges = _plan({"kafka.bootstrap.servers": boot, "subscribe": topic, "backend": backend})

    def cleaned() -> bool:  # records removed from both partitions
        kept = [0, 0]
        with Cluster(options.client) as cluster:
            for r in ranges:
                kept[r.partition] += sum(
                    b.num_rows for b in cluster.iterate(read_range(cluster.aio, r, options))
                )
        return kept[0] < written[0] and kept[1] < written[1]

    _wait_for("the log cleaner", cleaned, 120)
    got = same_as_connector(spark_connector, {"kafka.bootstrap.servers": boot, "subscribe": topic}, backend)
    for p in (0, 1):
        offsets = [r.offset for r in got if r.partition == p]
        assert offsets != list(range(offsets[0], offsets[0] + len(offsets)))  # gaps
    # starting inside a gap: both begin at the next record kept
    first_gap = {
        str(p): next(o + 1 for o, n in zip(offs, offs[1:]) if n > o + 1)
        for p in (0, 1)
        for offs in [[r.offset for r in got if r.partition == p]]
    }
    same_as_connector(
        spark_connector,
        {
            "kafka.bootstrap.servers": boot,
            "subscribe": topic,
            "startingOffsets": json.dumps({topic: first_gap}),
        },
        backend,
    )


@pytest.mark.spark
@pytest.mark.timeout(300)
def test_a_topic_deleted_under_a_stream_fails_it_or_is_skipped_by_fail_on_data_loss(
    spark, kafka_broker, backend
):
    """Subscribed by name, a deleted topic fails the query naming it, whatever
    failOnDataLoss says (Spark's connector fails too, with Kafka's
    UnknownTopicOrPartitionException).  Matched by a pattern, its partitions are gone:
    with failOnDataLoss an error names them, without it the query goes on (the
    connector's query idles on without a word either way)."""
    import re

    from confluent_kafka.admin import AdminClient

    boot = kafka_broker.bootstrap_servers
    admin = AdminClient({"bootstrap.servers": boot})

    def run(how: str, fail_on_data_loss: str):
        topic = f"kw-gone-{uuid.uuid4().hex[:8]}"
        create_topic(boot, topic, 2)
        produce(boot, topic, [(i % 2, None, b"%d" % i, []) for i in range(20)])
        query = (
            spark.readStream.format("kafka-cluster")
            .option("kafka.bootstrap.servers", boot)
            .option(how, topic if how == "subscribe" else re.escape(topic))
            .option("startingOffsets", "earliest")
            .option("failOnDataLoss", fail_on_data_loss)
            .option("backend", backend)
            .load()
            .writeStream.format("memory")
            .queryName(f"gone_{uuid.uuid4().hex[:8]}")
            .trigger(processingTime="300 milliseconds")
            .start()
        )
        try:
            _wait_for(
                "a first micro-batch", lambda: any(p["numInputRows"] for p in query.recentProgress), 120
            )
            last = query.lastProgress["batchId"]
            admin.delete_topics([topic])[topic].result(30)
            _wait_for(
                "the query to fail or plan a batch without the topic",
                lambda: (
                    query.exception() is not None or any(p["batchId"] > last for p in query.recentProgress)
                ),
                120,
            )
            error = query.exception()
            # Spark cuts the middle out of a long query error (a traceback grown by
            # retries); the error it wraps, kept whole, is its cause
            cause = getattr(error, "_cause", None)
            return topic, None if error is None else f"{error}\n{cause or ''}"
        finally:
            query.stop()

    topic, error = run("subscribe", "false")
    assert f"topic '{topic}' does not exist" in str(error)
    topic, error = run("subscribePattern", "true")
    assert f"{topic}-0 is gone from the cluster" in str(error) and "failOnDataLoss=false" in str(error)
    topic, error = run("subscribePattern", "false")
    assert error is None
