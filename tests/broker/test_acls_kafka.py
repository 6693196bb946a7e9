"""The test broker's ACL decisions against Kafka 4.4's StandardAuthorizer.

One real broker runs with ``authorizer.class.name=StandardAuthorizer`` (admin and the
PLAINTEXT listeners' ANONYMOUS are super users); kafkawire's test broker runs with
``acl_enforce``.  Both get the same topics and the same ACLs through CreateAcls, then
alice, authenticated with SASL, makes the same requests to each: every error code (and
which topics Metadata shows, and the authorized-operation bits) must be the same.
"""

from __future__ import annotations

import time

import pytest

from kafkawire.protocol import messages as M
from kafkawire import sasl
from kafkawire.broker import Broker
from kafkawire.broker import acls as A

from support.blocking_client import BlockingClient

pytestmark = [pytest.mark.kafka, pytest.mark.in_process]

TOPICS = ("orders", "secret", "pre-a", "pre-b")
ACLS = [  # (resource type, name, pattern, operation, permission) for User:alice
    (A.TOPIC, "orders", A.LITERAL, A.WRITE, A.ALLOW),
    (A.TOPIC, "orders", A.LITERAL, A.READ, A.ALLOW),
    (A.TOPIC, "pre-", A.PREFIXED, A.ALL, A.ALLOW),
    (A.TOPIC, "pre-b", A.LITERAL, A.READ, A.DENY),
    (A.GROUP, "g-ok", A.LITERAL, A.READ, A.ALLOW),
]


@pytest.fixture(scope="module")
def authorizing_kafka():
    from support.kafka.broker import start_broker

    broker = start_broker(
        extra_properties={
            "authorizer.class.name": "org.apache.kafka.metadata.authorizer.StandardAuthorizer",
            "super.users": "User:admin;User:ANONYMOUS",
        }
    )
    try:
        yield broker
    finally:
        broker.stop()


def _login(host: str, port: int, user: str, password: str) -> BlockingClient:
    conn = BlockingClient((host, port))
    conn.authenticate(sasl.PlainClient(user, password))
    return conn


def _prepare(admin: BlockingClient) -> None:
    CT = M.CreateTopicsRequest
    created = admin.request(
        CT(
            topics=[CT.CreatableTopic(name=t, num_partitions=1, replication_factor=1) for t in TOPICS],
            timeout_ms=30000,
        ),
        5,
    )
    assert all(t.error_code in (0, 36) for t in created.topics), created
    C = M.CreateAclsRequest.AclCreation
    resp = admin.request(
        M.CreateAclsRequest(
            creations=[
                C(
                    resource_type=rt,
                    resource_name=n,
                    resource_pattern_type=pt,
                    principal="User:alice",
                    host="*",
                    operation=op,
                    permission_type=perm,
                )
                for rt, n, pt, op, perm in ACLS
            ]
        ),
        3,
    )
    assert [r.error_code for r in resp.results] == [0] * len(ACLS)


def _wait_until(predicate, attempts: int = 300) -> None:
    """ACLs and topics reach the authorizer through the metadata log: retry briefly."""
    for _ in range(attempts):
        if predicate():
            return
        time.sleep(0.1)


def _produce(conn: BlockingClient, topic: str) -> int:
    from kafkawire.protocol import records as R

    PR = M.ProduceRequest
    batch = R.encode_batch([{"key": b"k", "value": b"v", "timestamp": 1700000000000}])
    resp = conn.request(
        PR(
            acks=-1,
            timeout_ms=5000,
            topic_data=[
                PR.TopicProduceData(
                    name=topic, partition_data=[PR.PartitionProduceData(index=0, records=batch)]
                )
            ],
        ),
        9,
    )
    return resp.responses[0].partition_responses[0].error_code


def _fetch(conn: BlockingClient, topic: str) -> int:
    FR = M.FetchRequest
    resp = conn.request(
        FR(
            replica_id=-1,
            max_wait_ms=0,
            min_bytes=0,
            max_bytes=1 << 20,
            isolation_level=0,
            topics=[
                FR.FetchTopic(
                    topic=topic,
                    partitions=[FR.FetchPartition(partition=0, fetch_offset=0, partition_max_bytes=1 << 20)],
                )
            ],
        ),
        12,
    )
    return resp.responses[0].partitions[0].error_code


def _observe(alice: BlockingClient, admin: BlockingClient) -> dict:
    """What alice's requests get back, as plain data."""
    MR = M.MetadataRequest
    out = {}
    listed = alice.request(MR(topics=None, allow_auto_topic_creation=False), 12)
    out["metadata: listed topics"] = sorted(t.name for t in listed.topics if not t.name.startswith("__"))
    named = alice.request(
        MR(
            topics=[MR.MetadataRequestTopic(name=n) for n in ("orders", "secret", "missing", "pre-missing")],
            allow_auto_topic_creation=False,
            include_topic_authorized_operations=True,
        ),
        12,
    )
    out["metadata: named"] = {t.name: t.error_code for t in named.topics}
    out["metadata: operations"] = {
        t.name: t.topic_authorized_operations for t in named.topics if t.error_code == 0
    }
    for topic in TOPICS:
        out[f"produce {topic}"] = _produce(alice, topic)
        out[f"fetch {topic}"] = _fetch(alice, topic)
    LO = M.ListOffsetsRequest
    lo = alice.request(
        LO(
            replica_id=-1,
            isolation_level=0,
            topics=[
                LO.ListOffsetsTopic(
                    name=t, partitions=[LO.ListOffsetsPartition(partition_index=0, timestamp=-1)]
                )
                for t in ("orders", "secret")
            ],
        ),
        7,
    )
    out["list offsets"] = {t.name: t.partitions[0].error_code for t in lo.topics}
    fc = alice.request(M.FindCoordinatorRequest(key_type=0, coordinator_keys=["g-ok", "g-no"]), 4)
    out["find coordinator"] = {c.key: c.error_code for c in fc.coordinators}
    JG = M.JoinGroupRequest
    out["join g-no"] = alice.request(
        JG(
            group_id="g-no",
            session_timeout_ms=6000,
            rebalance_timeout_ms=6000,
            member_id="",
            protocol_type="consumer",
            protocols=[JG.JoinGroupRequestProtocol(name="range", metadata=b"")],
        ),
        5,
    ).error_code
    OF = M.OffsetFetchRequest
    of = alice.request(
        OF(groups=[OF.OffsetFetchRequestGroup(group_id="g-no", topics=None)], require_stable=False), 8
    )
    out["offset fetch g-no"] = of.groups[0].error_code
    IP = M.InitProducerIdRequest
    out["init producer id"] = alice.request(
        IP(transactional_id=None, transaction_timeout_ms=1000), 4
    ).error_code
    out["init producer id tx"] = alice.request(
        IP(transactional_id="tx", transaction_timeout_ms=1000), 4
    ).error_code
    CT = M.CreateTopicsRequest
    ct = alice.request(
        CT(
            topics=[
                CT.CreatableTopic(name=n, num_partitions=1, replication_factor=1)
                for n in ("not-mine", "pre-new")
            ],
            timeout_ms=30000,
            validate_only=True,
        ),
        5,
    )
    out["create topics"] = {t.name: t.error_code for t in ct.topics}
    dt = alice.request(M.DeleteTopicsRequest(topic_names=["orders"], timeout_ms=5000), 5)
    out["delete topics"] = {t.name: t.error_code for t in dt.responses}
    flt = dict(
        resource_type_filter=A.ANY,
        resource_name_filter=None,
        pattern_type_filter=A.ANY,
        principal_filter=None,
        host_filter=None,
        operation=A.ANY,
        permission_type=A.ANY,
    )
    out["describe acls (alice)"] = alice.request(M.DescribeAclsRequest(**flt), 3).error_code
    match = admin.request(
        M.DescribeAclsRequest(
            **dict(
                flt, resource_type_filter=A.TOPIC, resource_name_filter="pre-b", pattern_type_filter=A.MATCH
            )
        ),
        3,
    )
    out["describe acls MATCH pre-b (admin)"] = sorted(
        (r.resource_name, r.pattern_type, a.principal, a.operation, a.permission_type)
        for r in match.resources
        for a in r.acls
    )
    return out


def test_test_broker_authorizes_as_kafka_does(authorizing_kafka):
    k = authorizing_kafka
    users = k.users
    admin = _login(k.host, k.sasl_port, "admin", users["admin"])
    _prepare(admin)
    alice = _login(k.host, k.sasl_port, "alice", users["alice"])
    _wait_until(lambda: _produce(alice, "orders") == 0 and _fetch(alice, "pre-b") == 29)
    # the group and transaction coordinators of a fresh broker load first (codes 14, 15)
    _wait_until(
        lambda: (
            admin.request(M.FindCoordinatorRequest(key_type=0, coordinator_keys=["g-ok"]), 4)
            .coordinators[0]
            .error_code
            == 0
        )
    )
    _wait_until(
        lambda: (
            admin.request(
                M.InitProducerIdRequest(transactional_id=None, transaction_timeout_ms=1000), 4
            ).error_code
            == 0
        )
    )
    kafka = _observe(alice, admin)

    with Broker(
        security_protocol="SASL_PLAINTEXT",
        users=users,
        super_users=["admin"],
        acl_enforce=True,
        auto_create_topics=False,
        check_roundtrip=True,
    ) as ours:
        admin = _login(ours.host, ours.port, "admin", users["admin"])
        _prepare(admin)
        alice = _login(ours.host, ours.port, "alice", users["alice"])
        _produce(alice, "orders")  # the same records as the real broker got
        ours_ = _observe(alice, admin)
        assert ours.handler_errors == [] and ours.roundtrip_failures == []

    # what Kafka decided (so that agreement means something)
    assert kafka["metadata: listed topics"] == ["orders", "pre-a", "pre-b"]
    assert kafka["metadata: named"] == {"orders": 0, "secret": 29, "missing": 29, "pre-missing": 3}
    assert (kafka["produce secret"], kafka["fetch pre-b"], kafka["produce pre-b"]) == (29, 29, 0)
    assert (kafka["join g-no"], kafka["describe acls (alice)"], kafka["init producer id tx"]) == (30, 31, 53)
    differences = {key: (kafka[key], ours_.get(key)) for key in kafka if kafka[key] != ours_.get(key)}
    assert differences == {}
