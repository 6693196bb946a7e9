"""One meaningful conversation with a real Kafka broker per API, at any version.

``SCENARIOS[api_key](session, version)`` sends the request of ``api_key`` at ``version``
(after whatever set-up requests it needs: a joined group, an open transaction, a share
group member) and returns ``(reply, expected)``: the broker's reply to the request
under test and the set of error codes its response must carry (every ``*error_code``
field, at any depth).  Every reply, set-up ones included, is checked by the session:
it decodes, and re-encodes to the bytes the broker sent.

The scenarios are written from Kafka's documented semantics: a single node broker
without an authorizer (so ACL APIs answer SECURITY_DISABLED), asked for delegation
tokens on a PLAINTEXT connection (DELEGATION_TOKEN_REQUEST_NOT_ALLOWED), running the
classic, consumer, share and streams group protocols.
"""

from __future__ import annotations

import base64
import time
import uuid
from dataclasses import dataclass, field
from typing import Any, Callable, Dict, List, Set, Tuple

import kafkawire
from kafkawire.protocol import messages as M
from kafkawire.protocol import records as R
from kafkawire.errors import for_name

from support.kafka.wire import KafkaConnection, Reply


def _code(name: str) -> int:
    return for_name(name).code


# Kafka error codes the scenarios expect.
NONE = _code("NONE")
REQUEST_TIMED_OUT = _code("REQUEST_TIMED_OUT")
COORDINATOR_NOT_AVAILABLE = _code("COORDINATOR_NOT_AVAILABLE")
SECURITY_DISABLED = _code("SECURITY_DISABLED")
LOG_DIR_NOT_FOUND = _code("LOG_DIR_NOT_FOUND")
DELEGATION_TOKEN_REQUEST_NOT_ALLOWED = _code("DELEGATION_TOKEN_REQUEST_NOT_ALLOWED")
MEMBER_ID_REQUIRED = _code("MEMBER_ID_REQUIRED")
ELECTION_NOT_NEEDED = _code("ELECTION_NOT_NEEDED")
NO_REASSIGNMENT_IN_PROGRESS = _code("NO_REASSIGNMENT_IN_PROGRESS")
BROKER_ID_NOT_REGISTERED = _code("BROKER_ID_NOT_REGISTERED")
TRANSACTIONAL_ID_NOT_FOUND = _code("TRANSACTIONAL_ID_NOT_FOUND")
VOTER_NOT_FOUND = _code("VOTER_NOT_FOUND")

ZERO_UUID = uuid.UUID(int=0)
TOPIC = "kafkawire-data"  # 1 partition, RECORDS_PER_PRODUCE records per produce
TXN_TOPIC = "kafkawire-txn"  # the partitions transactions add
MARKER_TOPIC = "kafkawire-markers"  # where WriteTxnMarkers writes (no transaction races it)
RECORDS_PER_PRODUCE = 3


def build(cls: Any, fields: Dict[str, Any]) -> Any:
    """``cls.from_dict(fields)`` with bytes given as bytes and UUIDs as UUID objects."""

    def plain(value: Any) -> Any:
        if isinstance(value, (bytes, bytearray, memoryview)):
            return base64.b64encode(bytes(value)).decode("ascii")
        if isinstance(value, uuid.UUID):
            return str(value)
        if isinstance(value, dict):
            return {k: plain(v) for k, v in value.items()}
        if isinstance(value, list):
            return [plain(v) for v in value]
        return value

    return cls.from_dict(plain(fields))


def at_version(msg: Any, version: int) -> Any:
    """``msg`` with the fields ``version`` lacks back at their defaults, as a client
    fills only the fields of the version it speaks (kafkawire refuses to drop a
    non-default value silently)."""

    def prune(spec: Any, values: Dict[str, Any]) -> Dict[str, Any]:
        out = {}
        for f in spec.fields:
            if f.attr not in values or version not in f.versions:
                continue
            value = values[f.attr]
            if f.struct is not None and isinstance(value, list):
                value = [prune(f.struct, v) for v in value]
            elif f.struct is not None and isinstance(value, dict):
                value = prune(f.struct, value)
            out[f.attr] = value
        return out

    return type(msg).from_dict(prune(type(msg)._spec, msg.to_dict()))


def error_codes(msg: Any) -> Set[int]:
    """Every ``*error_code`` value anywhere in a decoded message."""
    found: Set[int] = set()

    def walk(value: Any) -> None:
        if isinstance(value, dict):
            for k, v in value.items():
                if k.endswith("error_code") and isinstance(v, int):
                    found.add(v)
                else:
                    walk(v)
        elif isinstance(value, list):
            for v in value:
                walk(v)

    walk(msg.to_dict())
    return found


def reencoded(reply: Reply) -> bytes:
    """The reply's response encoded again by kafkawire, without the size prefix."""
    return kafkawire.encode_response(reply.body, reply.version, reply.correlation_id)[4:]


@dataclass
class Session:
    """The broker and the objects the scenarios share (created once per test run)."""

    host: str
    port: int
    sasl_port: int
    cluster_id: str
    node_id: int
    users: Dict[str, str]
    tag: str = "t"  # makes names unique per test case
    topic_id: uuid.UUID = ZERO_UUID
    txn_topic_id: uuid.UUID = ZERO_UUID
    replies: List[Reply] = field(default_factory=list)

    def connect(self, sasl: bool = False) -> KafkaConnection:
        return KafkaConnection(self.host, self.sasl_port if sasl else self.port)

    def call(self, conn: KafkaConnection, request: Any, version: int) -> Reply:
        reply = conn.call(at_version(request, version), version)
        self.replies.append(reply)
        return reply

    def once(self, request: Any, version: int, sasl: bool = False) -> Reply:
        with self.connect(sasl) as conn:
            return self.call(conn, request, version)

    def name(self, prefix: str) -> str:
        return f"{prefix}-{self.tag}"

    # -- set-up shared by the scenarios ---------------------------------------------
    def create_topic(self, name: str, partitions: int = 1) -> uuid.UUID:
        reply = self.once(
            build(
                M.CreateTopicsRequest,
                {
                    "topics": [{"name": name, "num_partitions": partitions, "replication_factor": 1}],
                    "timeout_ms": 30000,
                },
            ),
            7,
        )
        topic = reply.body.topics[0]
        assert topic.error_code == NONE, topic
        return topic.topic_id

    def produce(self, conn: KafkaConnection, version: int = 9, **batch: Any) -> Reply:
        records = [
            {"key": b"k%d" % i, "value": b"value %d" % i, "headers": [("h", b"v")]}
            for i in range(RECORDS_PER_PRODUCE)
        ]
        partition = {"index": 0, "records": R.encode_batch(records, **batch)}
        topic = {"topic_id": str(self.topic_id)} if version >= 13 else {"name": TOPIC}
        topic["partition_data"] = [partition]
        return self.call(
            conn, build(M.ProduceRequest, {"acks": -1, "timeout_ms": 30000, "topic_data": [topic]}), version
        )

    def join_classic(self, conn: KafkaConnection, group: str) -> Tuple[str, int]:
        """A one-member classic consumer group: JoinGroup (twice: KIP-394), SyncGroup.
        Returns (member id, generation)."""
        join = build(
            M.JoinGroupRequest,
            {
                "group_id": group,
                "session_timeout_ms": 30000,
                "rebalance_timeout_ms": 30000,
                "member_id": "",
                "protocol_type": "consumer",
                "protocols": [{"name": "range", "metadata": b""}],
            },
        )
        first = self.call(conn, join, 9).body
        assert first.error_code == MEMBER_ID_REQUIRED, first
        join.member_id = first.member_id
        joined = self.call(conn, join, 9).body
        assert joined.error_code == NONE, joined
        sync = self.call(
            conn,
            build(
                M.SyncGroupRequest,
                {
                    "group_id": group,
                    "generation_id": joined.generation_id,
                    "member_id": joined.member_id,
                    "protocol_type": "consumer",
                    "protocol_name": "range",
                    "assignments": [{"member_id": joined.member_id, "assignment": b""}],
                },
            ),
            5,
        ).body
        assert sync.error_code == NONE, sync
        return joined.member_id, joined.generation_id

    def init_transaction(self, conn: KafkaConnection, txn_id: str) -> Tuple[int, int]:
        """A transactional producer id: FindCoordinator (the coordinator loads its
        partition), then InitProducerId.  Returns (producer id, epoch)."""
        reply = self.call(
            conn,
            build(
                M.InitProducerIdRequest,
                {
                    "transactional_id": txn_id,
                    "transaction_timeout_ms": 60000,
                    "producer_id": -1,
                    "producer_epoch": -1,
                },
            ),
            5,
        ).body
        assert reply.error_code == NONE, reply
        return reply.producer_id, reply.producer_epoch

    def add_partition(self, conn: KafkaConnection, txn_id: str, pid: int, epoch: int) -> None:
        reply = self.call(
            conn,
            build(
                M.AddPartitionsToTxnRequest,
                {
                    "v3_and_below_transactional_id": txn_id,
                    "v3_and_below_producer_id": pid,
                    "v3_and_below_producer_epoch": epoch,
                    "v3_and_below_topics": [{"name": TXN_TOPIC, "partitions": [0]}],
                },
            ),
            3,
        ).body
        assert error_codes(reply) == {NONE}, reply

    def share_member(self, conn: KafkaConnection, group: str, version: int) -> Tuple[str, int]:
        """A share group member with the data topic's partition assigned."""
        member = str(uuid.uuid4())
        epoch = 0
        for _ in range(50):
            reply = self.call(
                conn,
                build(
                    M.ShareGroupHeartbeatRequest,
                    {
                        "group_id": group,
                        "member_id": member,
                        "member_epoch": epoch,
                        "subscribed_topic_names": [TOPIC] if epoch == 0 else None,
                    },
                ),
                version,
            ).body
            assert reply.error_code == NONE, reply
            epoch = reply.member_epoch
            if reply.assignment is not None and reply.assignment.topic_partitions:
                return member, epoch
            time.sleep(0.1)
        raise AssertionError(f"share group {group} never assigned a partition")


Scenario = Callable[[Session, int], Tuple[Reply, Set[int]]]
SCENARIOS: Dict[int, Scenario] = {}


def scenario(api_key: int):
    def register(fn: Scenario) -> Scenario:
        SCENARIOS[api_key] = fn
        return fn

    return register


def topic_ref(s: Session, by_id: bool, name_key: str = "name", id_key: str = "topic_id") -> dict:
    return {id_key: s.topic_id} if by_id else {name_key: TOPIC}


# -- produce, fetch, offsets, metadata -------------------------------------------------
@scenario(0)
def produce(s: Session, v: int):
    with s.connect() as conn:
        return s.produce(conn, v), {NONE}


@scenario(1)
def fetch(s: Session, v: int):
    topic = topic_ref(s, v >= 13, "topic")
    topic["partitions"] = [
        {
            "partition": 0,
            "fetch_offset": 0,
            "partition_max_bytes": 1 << 20,
            "current_leader_epoch": -1,
            "last_fetched_epoch": -1,
            "log_start_offset": -1,
        }
    ]
    req = build(
        M.FetchRequest,
        {
            "replica_id": -1,
            "replica_state": {"replica_id": -1, "replica_epoch": -1},
            "max_wait_ms": 100,
            "min_bytes": 1,
            "max_bytes": 1 << 20,
            "isolation_level": 0,
            "session_id": 0,
            "session_epoch": -1,
            "topics": [topic],
        },
    )
    reply = s.once(req, v)
    part = reply.body.responses[0].partitions[0]
    got = R.decode(part.records)
    assert len(got) >= RECORDS_PER_PRODUCE and got[0].offset == 0, got
    return reply, {NONE}


@scenario(2)
def list_offsets(s: Session, v: int):
    req = build(
        M.ListOffsetsRequest,
        {
            "replica_id": -1,
            "isolation_level": 0,
            "timeout_ms": 30000,
            "topics": [
                {
                    "name": TOPIC,
                    "partitions": [{"partition_index": 0, "current_leader_epoch": -1, "timestamp": -1}],
                }
            ],
        },
    )
    reply = s.once(req, v)
    part = reply.body.topics[0].partitions[0]
    latest = part.old_style_offsets[0] if v == 0 else part.offset
    assert latest >= RECORDS_PER_PRODUCE, part
    return reply, {NONE}


def latest_offset(s: Session, topic: str) -> int:
    reply = s.once(
        build(
            M.ListOffsetsRequest,
            {
                "replica_id": -1,
                "topics": [{"name": topic, "partitions": [{"partition_index": 0, "timestamp": -1}]}],
            },
        ),
        9,
    )
    return reply.body.topics[0].partitions[0].offset


@scenario(3)
def metadata(s: Session, v: int):
    reply = s.once(
        build(M.MetadataRequest, {"topics": [{"name": TOPIC}], "allow_auto_topic_creation": False}), v
    )
    assert [t.name for t in reply.body.topics] == [TOPIC]
    assert [b.node_id for b in reply.body.brokers] == [s.node_id]
    if v >= 10:
        assert reply.body.topics[0].topic_id == s.topic_id
    return reply, {NONE}


@scenario(21)
def delete_records(s: Session, v: int):
    return s.once(
        build(
            M.DeleteRecordsRequest,
            {
                "topics": [{"name": TOPIC, "partitions": [{"partition_index": 0, "offset": 0}]}],
                "timeout_ms": 30000,
            },
        ),
        v,
    ), {NONE}


@scenario(23)
def offset_for_leader_epoch(s: Session, v: int):
    return s.once(
        build(
            M.OffsetForLeaderEpochRequest,
            {
                "replica_id": -1,
                "topics": [
                    {
                        "topic": TOPIC,
                        "partitions": [{"partition": 0, "current_leader_epoch": -1, "leader_epoch": 0}],
                    }
                ],
            },
        ),
        v,
    ), {NONE}


@scenario(61)
def describe_producers(s: Session, v: int):
    return s.once(
        build(M.DescribeProducersRequest, {"topics": [{"name": TOPIC, "partition_indexes": [0]}]}), v
    ), {NONE}


@scenario(75)
def describe_topic_partitions(s: Session, v: int):
    reply = s.once(
        build(
            M.DescribeTopicPartitionsRequest, {"topics": [{"name": TOPIC}], "response_partition_limit": 100}
        ),
        v,
    )
    assert reply.body.topics[0].topic_id == s.topic_id
    return reply, {NONE}


# -- topics, configs, partitions --------------------------------------------------------
@scenario(19)
def create_topics(s: Session, v: int):
    reply = s.once(
        build(
            M.CreateTopicsRequest,
            {
                "topics": [
                    {
                        "name": s.name("created"),
                        "num_partitions": 2,
                        "replication_factor": 1,
                        "configs": [{"name": "retention.ms", "value": "3600000"}],
                    }
                ],
                "timeout_ms": 30000,
                "validate_only": False,
            },
        ),
        v,
    )
    return reply, {NONE}


@scenario(20)
def delete_topics(s: Session, v: int):
    name = s.name("deleted")
    s.create_topic(name)
    req = (
        build(M.DeleteTopicsRequest, {"topics": [{"name": name}], "timeout_ms": 30000})
        if v >= 6
        else build(M.DeleteTopicsRequest, {"topic_names": [name], "timeout_ms": 30000})
    )
    return s.once(req, v), {NONE}


@scenario(32)
def describe_configs(s: Session, v: int):
    reply = s.once(
        build(
            M.DescribeConfigsRequest,
            {
                "resources": [
                    {
                        "resource_type": 2,
                        "resource_name": TOPIC,
                        "configuration_keys": ["cleanup.policy", "retention.ms"],
                    }
                ],
                "include_synonyms": True,
                "include_documentation": True,
            },
        ),
        v,
    )
    names = sorted(c.name for c in reply.body.results[0].configs)
    assert names == ["cleanup.policy", "retention.ms"], names
    return reply, {NONE}


@scenario(33)
def alter_configs(s: Session, v: int):
    return s.once(
        build(
            M.AlterConfigsRequest,
            {
                "resources": [
                    {
                        "resource_type": 2,
                        "resource_name": TOPIC,
                        "configs": [{"name": "retention.ms", "value": "86400000"}],
                    }
                ],
                "validate_only": True,
            },
        ),
        v,
    ), {NONE}


@scenario(44)
def incremental_alter_configs(s: Session, v: int):
    return s.once(
        build(
            M.IncrementalAlterConfigsRequest,
            {
                "resources": [
                    {
                        "resource_type": 2,
                        "resource_name": TOPIC,
                        "configs": [{"name": "retention.ms", "config_operation": 0, "value": "86400000"}],
                    }
                ],
                "validate_only": True,
            },
        ),
        v,
    ), {NONE}


@scenario(37)
def create_partitions(s: Session, v: int):
    return s.once(
        build(
            M.CreatePartitionsRequest,
            {
                "topics": [{"name": TOPIC, "count": 2, "assignments": None}],
                "timeout_ms": 30000,
                "validate_only": True,
            },
        ),
        v,
    ), {NONE}


@scenario(34)
def alter_replica_log_dirs(s: Session, v: int):
    return s.once(
        build(
            M.AlterReplicaLogDirsRequest,
            {"dirs": [{"path": "/no/such/log/dir", "topics": [{"name": TOPIC, "partitions": [0]}]}]},
        ),
        v,
    ), {LOG_DIR_NOT_FOUND}


@scenario(35)
def describe_log_dirs(s: Session, v: int):
    reply = s.once(build(M.DescribeLogDirsRequest, {"topics": [{"topic": TOPIC, "partitions": [0]}]}), v)
    assert reply.body.results and reply.body.results[0].topics[0].name == TOPIC
    return reply, {NONE}


@scenario(43)
def elect_leaders(s: Session, v: int):
    reply = s.once(
        build(
            M.ElectLeadersRequest,
            {
                "election_type": 0,
                "topic_partitions": [{"topic": TOPIC, "partitions": [0]}],
                "timeout_ms": 30000,
            },
        ),
        v,
    )
    # the only replica already leads: nothing to elect
    return reply, {NONE, ELECTION_NOT_NEEDED}


@scenario(45)
def alter_partition_reassignments(s: Session, v: int):
    # replicas null cancels a reassignment; there is none
    return s.once(
        build(
            M.AlterPartitionReassignmentsRequest,
            {
                "timeout_ms": 30000,
                "allow_replication_factor_change": True,
                "topics": [{"name": TOPIC, "partitions": [{"partition_index": 0, "replicas": None}]}],
            },
        ),
        v,
    ), {NONE, NO_REASSIGNMENT_IN_PROGRESS}


@scenario(46)
def list_partition_reassignments(s: Session, v: int):
    return s.once(build(M.ListPartitionReassignmentsRequest, {"timeout_ms": 30000, "topics": None}), v), {
        NONE
    }


# -- classic groups and offsets ----------------------------------------------------------
def commit(
    s: Session,
    conn: KafkaConnection,
    group: str,
    version: int,
    offset: int = 2,
    member: str = "",
    generation: int = -1,
) -> Reply:
    topic = topic_ref(s, version >= 10)
    topic["partitions"] = [
        {
            "partition_index": 0,
            "committed_offset": offset,
            "committed_leader_epoch": -1,
            "committed_metadata": "m",
        }
    ]
    return s.call(
        conn,
        build(
            M.OffsetCommitRequest,
            {
                "group_id": group,
                "generation_id_or_member_epoch": generation,
                "member_id": member,
                "retention_time_ms": -1,
                "topics": [topic],
            },
        ),
        version,
    )


@scenario(8)
def offset_commit(s: Session, v: int):
    with s.connect() as conn:
        return commit(s, conn, s.name("commit"), v), {NONE}


@scenario(9)
def offset_fetch(s: Session, v: int):
    group = s.name("fetch")
    with s.connect() as conn:
        commit(s, conn, group, 9, offset=2)
        if v >= 8:
            topic = topic_ref(s, v >= 10)
            topic["partition_indexes"] = [0]
            req = build(
                M.OffsetFetchRequest,
                {
                    "groups": [{"group_id": group, "member_id": None, "member_epoch": -1, "topics": [topic]}],
                    "require_stable": True,
                },
            )
        else:
            req = build(
                M.OffsetFetchRequest,
                {
                    "group_id": group,
                    "require_stable": True,
                    "topics": [{"name": TOPIC, "partition_indexes": [0]}],
                },
            )
        reply = s.call(conn, req, v)
    body = reply.body
    topics = body.groups[0].topics if v >= 8 else body.topics
    assert topics[0].partitions[0].committed_offset == 2, body
    return reply, {NONE}


@scenario(10)
def find_coordinator(s: Session, v: int):
    req = (
        build(M.FindCoordinatorRequest, {"key_type": 0, "coordinator_keys": [s.name("g")]})
        if v >= 4
        else build(M.FindCoordinatorRequest, {"key": s.name("g"), "key_type": 0})
    )
    reply = s.once(req, v)
    node = reply.body.coordinators[0].node_id if v >= 4 else reply.body.node_id
    assert node == s.node_id
    return reply, {NONE}


@scenario(11)
def join_group(s: Session, v: int):
    join = build(
        M.JoinGroupRequest,
        {
            "group_id": s.name("join"),
            "session_timeout_ms": 30000,
            "rebalance_timeout_ms": 30000,
            "member_id": "",
            "protocol_type": "consumer",
            "protocols": [{"name": "range", "metadata": b"\x00\x01"}],
            "reason": "test",
        },
    )
    with s.connect() as conn:
        reply = s.call(conn, join, v)
        if v < 4:
            return reply, {NONE}
        # KIP-394: a new member first learns its id, then joins with it
        assert reply.body.error_code == MEMBER_ID_REQUIRED, reply.body
        join.member_id = reply.body.member_id
        return s.call(conn, join, v), {NONE}


@scenario(14)
def sync_group(s: Session, v: int):
    group = s.name("sync")
    with s.connect() as conn:
        join = build(
            M.JoinGroupRequest,
            {
                "group_id": group,
                "session_timeout_ms": 30000,
                "rebalance_timeout_ms": 30000,
                "member_id": "",
                "protocol_type": "consumer",
                "protocols": [{"name": "range", "metadata": b""}],
            },
        )
        join.member_id = s.call(conn, join, 9).body.member_id
        joined = s.call(conn, join, 9).body
        reply = s.call(
            conn,
            build(
                M.SyncGroupRequest,
                {
                    "group_id": group,
                    "generation_id": joined.generation_id,
                    "member_id": joined.member_id,
                    "protocol_type": "consumer",
                    "protocol_name": "range",
                    "assignments": [{"member_id": joined.member_id, "assignment": b"\x00\x07"}],
                },
            ),
            v,
        )
    assert bytes(reply.body.assignment) == b"\x00\x07"
    return reply, {NONE}


@scenario(12)
def heartbeat(s: Session, v: int):
    group = s.name("heartbeat")
    with s.connect() as conn:
        member, generation = s.join_classic(conn, group)
        return s.call(
            conn,
            build(M.HeartbeatRequest, {"group_id": group, "generation_id": generation, "member_id": member}),
            v,
        ), {NONE}


@scenario(13)
def leave_group(s: Session, v: int):
    group = s.name("leave")
    with s.connect() as conn:
        member, _ = s.join_classic(conn, group)
        return s.call(
            conn,
            build(
                M.LeaveGroupRequest,
                {
                    "group_id": group,
                    "member_id": member,
                    "members": [{"member_id": member, "reason": "done"}],
                },
            ),
            v,
        ), {NONE}


@scenario(15)
def describe_groups(s: Session, v: int):
    group = s.name("describe")
    with s.connect() as conn:
        member, _ = s.join_classic(conn, group)
        reply = s.call(
            conn,
            build(M.DescribeGroupsRequest, {"groups": [group], "include_authorized_operations": True}),
            v,
        )
    described = reply.body.groups[0]
    assert described.group_state == "Stable" and described.members[0].member_id == member
    return reply, {NONE}


@scenario(16)
def list_groups(s: Session, v: int):
    with s.connect() as conn:
        commit(s, conn, s.name("listed"), 9)
        reply = s.call(conn, build(M.ListGroupsRequest, {"states_filter": [], "types_filter": []}), v)
    assert s.name("listed") in [g.group_id for g in reply.body.groups]
    return reply, {NONE}


@scenario(42)
def delete_groups(s: Session, v: int):
    group = s.name("delete")
    with s.connect() as conn:
        commit(s, conn, group, 9)
        return s.call(conn, build(M.DeleteGroupsRequest, {"groups_names": [group]}), v), {NONE}


@scenario(47)
def offset_delete(s: Session, v: int):
    group = s.name("offset-delete")
    with s.connect() as conn:
        commit(s, conn, group, 9)
        return s.call(
            conn,
            build(
                M.OffsetDeleteRequest,
                {"group_id": group, "topics": [{"name": TOPIC, "partitions": [{"partition_index": 0}]}]},
            ),
            v,
        ), {NONE}


# -- the consumer group protocol (KIP-848) and share groups (KIP-932) ---------------------
def consumer_heartbeat(
    s: Session, conn: KafkaConnection, group: str, version: int, member: str, epoch: int
) -> Reply:
    return s.call(
        conn,
        build(
            M.ConsumerGroupHeartbeatRequest,
            {
                "group_id": group,
                "member_id": member,
                "member_epoch": epoch,
                "rebalance_timeout_ms": 30000,
                "subscribed_topic_names": [TOPIC],
                "topic_partitions": [],
            },
        ),
        version,
    )


@scenario(68)
def consumer_group_heartbeat(s: Session, v: int):
    group = s.name("consumer")
    member = str(uuid.uuid4())
    with s.connect() as conn:
        reply = consumer_heartbeat(s, conn, group, v, member, 0)
        assert reply.body.member_epoch >= 1, reply.body
        if v >= 1:
            assert reply.body.member_id == member
        # leave, so the group does not wait out a session timeout
        consumer_heartbeat(s, conn, group, v, reply.body.member_id, -1)
    return reply, {NONE}


@scenario(69)
def consumer_group_describe(s: Session, v: int):
    group = s.name("consumer-describe")
    with s.connect() as conn:
        consumer_heartbeat(s, conn, group, 1, str(uuid.uuid4()), 0)
        reply = s.call(
            conn,
            build(
                M.ConsumerGroupDescribeRequest, {"group_ids": [group], "include_authorized_operations": True}
            ),
            v,
        )
    assert reply.body.groups[0].members, reply.body
    return reply, {NONE}


@scenario(76)
def share_group_heartbeat(s: Session, v: int):
    with s.connect() as conn:
        reply = s.call(
            conn,
            build(
                M.ShareGroupHeartbeatRequest,
                {
                    "group_id": s.name("share"),
                    "member_id": str(uuid.uuid4()),
                    "member_epoch": 0,
                    "subscribed_topic_names": [TOPIC],
                },
            ),
            v,
        )
    assert reply.body.member_epoch >= 1, reply.body
    return reply, {NONE}


@scenario(77)
def share_group_describe(s: Session, v: int):
    group = s.name("share-describe")
    with s.connect() as conn:
        s.call(
            conn,
            build(
                M.ShareGroupHeartbeatRequest,
                {
                    "group_id": group,
                    "member_id": str(uuid.uuid4()),
                    "member_epoch": 0,
                    "subscribed_topic_names": [TOPIC],
                },
            ),
            v,
        )
        reply = s.call(
            conn,
            build(M.ShareGroupDescribeRequest, {"group_ids": [group], "include_authorized_operations": True}),
            v,
        )
    assert reply.body.groups[0].members, reply.body
    return reply, {NONE}


def share_fetch_request(s: Session, group: str, member: str, epoch: int):
    fields = {
        "group_id": group,
        "member_id": member,
        "share_session_epoch": epoch,
        "max_wait_ms": 1000,
        "min_bytes": 1,
        "max_bytes": 1 << 20,
        "topics": [
            {
                "topic_id": s.topic_id,
                "partitions": [
                    {"partition_index": 0, "partition_max_bytes": 1 << 20, "acknowledgement_batches": []}
                ],
            }
        ],
    }
    if "max_records" in M.ShareFetchRequest._attrs:  # v1+ (KIP-1098)
        fields.update(max_records=100, batch_size=100)
    return build(M.ShareFetchRequest, fields)


def share_fetch_until_records(
    s: Session, conn: KafkaConnection, group: str, member: str, version: int
) -> Tuple[Reply, int]:
    """Share-fetch until the broker hands out records (the group's start offset is
    initialised asynchronously); each fetch after the first continues the share session.
    Returns the reply and the session's next epoch."""
    epoch = 0
    for _ in range(30):
        reply = s.call(conn, share_fetch_request(s, group, member, epoch), version)
        assert reply.body.error_code == NONE, reply.body
        epoch += 1
        parts = reply.body.responses[0].partitions if reply.body.responses else []
        if parts and parts[0].records is not None and len(R.decode(parts[0].records)):
            return reply, epoch
    raise AssertionError("the share fetch never returned records")


def share_group_with_records(s: Session, conn: KafkaConnection, group: str, version: int) -> str:
    """A share group whose start offset is the earliest record, and one member of it."""
    reply = s.call(
        conn,
        build(
            M.IncrementalAlterConfigsRequest,
            {
                "resources": [
                    {
                        "resource_type": 32,
                        "resource_name": group,
                        "configs": [
                            {"name": "share.auto.offset.reset", "config_operation": 0, "value": "earliest"}
                        ],
                    }
                ],
                "validate_only": False,
            },
        ),
        1,
    ).body
    assert error_codes(reply) == {NONE}, reply
    member, _ = s.share_member(conn, group, version)
    return member


@scenario(78)
def share_fetch(s: Session, v: int):
    group = s.name("share-fetch")
    with s.connect() as conn:
        member = share_group_with_records(s, conn, group, 1)
        reply, _ = share_fetch_until_records(s, conn, group, member, v)
    return reply, {NONE}


@scenario(79)
def share_acknowledge(s: Session, v: int):
    group = s.name("share-ack")
    with s.connect() as conn:
        member = share_group_with_records(s, conn, group, 1)
        fetched, epoch = share_fetch_until_records(s, conn, group, member, v)
        acquired = fetched.body.responses[0].partitions[0].acquired_records[0]
        reply = s.call(
            conn,
            build(
                M.ShareAcknowledgeRequest,
                {
                    "group_id": group,
                    "member_id": member,
                    "share_session_epoch": epoch,
                    "topics": [
                        {
                            "topic_id": s.topic_id,
                            "partitions": [
                                {
                                    "partition_index": 0,
                                    "acknowledgement_batches": [
                                        {
                                            "first_offset": acquired.first_offset,
                                            "last_offset": acquired.last_offset,
                                            "acknowledge_types": [1],
                                        }
                                    ],
                                }
                            ],
                        }
                    ],
                },
            ),
            v,
        )  # 1: accept
    return reply, {NONE}


# -- transactions ----------------------------------------------------------------------
@scenario(22)
def init_producer_id(s: Session, v: int):
    reply = s.once(
        build(
            M.InitProducerIdRequest,
            {
                "transactional_id": None,
                "transaction_timeout_ms": 60000,
                "producer_id": -1,
                "producer_epoch": -1,
            },
        ),
        v,
    )
    assert reply.body.producer_id >= 0
    return reply, {NONE}


@scenario(24)
def add_partitions_to_txn(s: Session, v: int):
    txn = s.name("txn-add")
    with s.connect() as conn:
        pid, epoch = s.init_transaction(conn, txn)
        if v >= 4:
            req = build(
                M.AddPartitionsToTxnRequest,
                {
                    "transactions": [
                        {
                            "transactional_id": txn,
                            "producer_id": pid,
                            "producer_epoch": epoch,
                            "verify_only": False,
                            "topics": [{"name": TXN_TOPIC, "partitions": [0]}],
                        }
                    ]
                },
            )
        else:
            req = build(
                M.AddPartitionsToTxnRequest,
                {
                    "v3_and_below_transactional_id": txn,
                    "v3_and_below_producer_id": pid,
                    "v3_and_below_producer_epoch": epoch,
                    "v3_and_below_topics": [{"name": TXN_TOPIC, "partitions": [0]}],
                },
            )
        reply = s.call(conn, req, v)
        end_transaction(s, conn, txn, pid, epoch, 4, commit=False)
    return reply, {NONE}


def end_transaction(
    s: Session, conn: KafkaConnection, txn: str, pid: int, epoch: int, version: int, commit: bool
) -> Reply:
    return s.call(
        conn,
        build(
            M.EndTxnRequest,
            {"transactional_id": txn, "producer_id": pid, "producer_epoch": epoch, "committed": commit},
        ),
        version,
    )


@scenario(25)
def add_offsets_to_txn(s: Session, v: int):
    txn = s.name("txn-offsets")
    with s.connect() as conn:
        pid, epoch = s.init_transaction(conn, txn)
        reply = s.call(
            conn,
            build(
                M.AddOffsetsToTxnRequest,
                {
                    "transactional_id": txn,
                    "producer_id": pid,
                    "producer_epoch": epoch,
                    "group_id": s.name("txn-group"),
                },
            ),
            v,
        )
        end_transaction(s, conn, txn, pid, epoch, 4, commit=False)
    return reply, {NONE}


@scenario(26)
def end_txn(s: Session, v: int):
    txn = s.name("txn-end")
    with s.connect() as conn:
        pid, epoch = s.init_transaction(conn, txn)
        s.add_partition(conn, txn, pid, epoch)
        return end_transaction(s, conn, txn, pid, epoch, v, commit=True), {NONE}


@scenario(28)
def txn_offset_commit(s: Session, v: int):
    txn, group = s.name("txn-commit"), s.name("txn-commit-group")
    with s.connect() as conn:
        pid, epoch = s.init_transaction(conn, txn)
        added = s.call(
            conn,
            build(
                M.AddOffsetsToTxnRequest,
                {"transactional_id": txn, "producer_id": pid, "producer_epoch": epoch, "group_id": group},
            ),
            3,
        ).body
        assert added.error_code == NONE, added
        reply = s.call(
            conn,
            build(
                M.TxnOffsetCommitRequest,
                {
                    "transactional_id": txn,
                    "group_id": group,
                    "producer_id": pid,
                    "producer_epoch": epoch,
                    "topics": [
                        {
                            **topic_ref(s, v >= 6),
                            "partitions": [
                                {
                                    "partition_index": 0,
                                    "committed_offset": 1,
                                    "committed_leader_epoch": -1,
                                    "committed_metadata": "",
                                }
                            ],
                        }
                    ],
                },
            ),
            v,
        )
        end_transaction(s, conn, txn, pid, epoch, 4, commit=True)
    return reply, {NONE}


@scenario(27)
def write_txn_markers(s: Session, v: int):
    # what a transaction coordinator sends a partition leader: an abort marker for a
    # producer id, written as a control batch at the partition's end
    pid = s.once(
        build(M.InitProducerIdRequest, {"transactional_id": None, "transaction_timeout_ms": 60000}), 5
    ).body.producer_id
    before = latest_offset(s, MARKER_TOPIC)
    reply = s.once(
        build(
            M.WriteTxnMarkersRequest,
            {
                "markers": [
                    {
                        "producer_id": pid,
                        "producer_epoch": 0,
                        "transaction_result": False,
                        "topics": [{"name": MARKER_TOPIC, "partition_indexes": [0]}],
                        "coordinator_epoch": 0,
                        "transaction_version": 1,
                    }
                ]
            },
        ),
        v,
    )
    assert latest_offset(s, MARKER_TOPIC) == before + 1  # the marker takes one offset
    return reply, {NONE}


@scenario(65)
def describe_transactions(s: Session, v: int):
    txn = s.name("txn-described")
    with s.connect() as conn:
        s.init_transaction(conn, txn)
        reply = s.call(
            conn, build(M.DescribeTransactionsRequest, {"transactional_ids": [txn, s.name("no-such-txn")]}), v
        )
    states = [(t.transactional_id, t.error_code) for t in reply.body.transaction_states]
    assert states == [(txn, NONE), (s.name("no-such-txn"), TRANSACTIONAL_ID_NOT_FOUND)]
    return reply, {NONE, TRANSACTIONAL_ID_NOT_FOUND}


@scenario(66)
def list_transactions(s: Session, v: int):
    return s.once(
        build(
            M.ListTransactionsRequest,
            {
                "state_filters": [],
                "producer_id_filters": [],
                "duration_filter": -1,
                "transactional_id_pattern": None,
            },
        ),
        v,
    ), {NONE}


# -- SASL (on the SASL_PLAINTEXT listener) -------------------------------------------------
@scenario(17)
def sasl_handshake(s: Session, v: int):
    reply = s.once(M.SaslHandshakeRequest(mechanism="PLAIN"), v, sasl=True)
    assert sorted(reply.body.mechanisms) == ["PLAIN", "SCRAM-SHA-256", "SCRAM-SHA-512"]
    return reply, {NONE}


@scenario(36)
def sasl_authenticate(s: Session, v: int):
    user = next(iter(s.users))
    with s.connect(sasl=True) as conn:
        shake = s.call(conn, M.SaslHandshakeRequest(mechanism="PLAIN"), 1).body
        assert shake.error_code == NONE, shake
        token = b"\0" + user.encode() + b"\0" + s.users[user].encode()
        return s.call(conn, M.SaslAuthenticateRequest(auth_bytes=token), v), {NONE}


@scenario(50)
def describe_user_scram_credentials(s: Session, v: int):
    user = next(iter(s.users))
    reply = s.once(build(M.DescribeUserScramCredentialsRequest, {"users": [{"name": user}]}), v)
    mechanisms = sorted(c.mechanism for c in reply.body.results[0].credential_infos)
    assert mechanisms == [1, 2], reply.body  # SCRAM-SHA-256, SCRAM-SHA-512
    return reply, {NONE}


@scenario(51)
def alter_user_scram_credentials(s: Session, v: int):
    return s.once(
        build(
            M.AlterUserScramCredentialsRequest,
            {
                "deletions": [],
                "upsertions": [
                    {
                        "name": s.name("user"),
                        "mechanism": 1,
                        "iterations": 4096,
                        "salt": b"0123456789abcdef",
                        "salted_password": bytes(range(32)),
                    }
                ],
            },
        ),
        v,
    ), {NONE}


# -- ACLs, delegation tokens, quotas (no authorizer, no token support) --------------------------
ACL_FILTER = {
    "resource_type_filter": 1,
    "resource_name_filter": None,
    "pattern_type_filter": 1,
    "principal_filter": None,
    "host_filter": None,
    "operation": 1,
    "permission_type": 1,
}


@scenario(29)
def describe_acls(s: Session, v: int):
    return s.once(build(M.DescribeAclsRequest, ACL_FILTER), v), {SECURITY_DISABLED}


@scenario(30)
def create_acls(s: Session, v: int):
    return s.once(
        build(
            M.CreateAclsRequest,
            {
                "creations": [
                    {
                        "resource_type": 2,
                        "resource_name": TOPIC,
                        "resource_pattern_type": 3,
                        "principal": "User:alice",
                        "host": "*",
                        "operation": 3,
                        "permission_type": 3,
                    }
                ]
            },
        ),
        v,
    ), {SECURITY_DISABLED}


@scenario(31)
def delete_acls(s: Session, v: int):
    return s.once(build(M.DeleteAclsRequest, {"filters": [ACL_FILTER]}), v), {SECURITY_DISABLED}


@scenario(38)
def create_delegation_token(s: Session, v: int):
    return s.once(build(M.CreateDelegationTokenRequest, {"renewers": [], "max_lifetime_ms": -1}), v), {
        DELEGATION_TOKEN_REQUEST_NOT_ALLOWED
    }


@scenario(39)
def renew_delegation_token(s: Session, v: int):
    return s.once(M.RenewDelegationTokenRequest(hmac=b"not-a-token", renew_period_ms=1000), v), {
        DELEGATION_TOKEN_REQUEST_NOT_ALLOWED
    }


@scenario(40)
def expire_delegation_token(s: Session, v: int):
    return s.once(M.ExpireDelegationTokenRequest(hmac=b"not-a-token", expiry_time_period_ms=1000), v), {
        DELEGATION_TOKEN_REQUEST_NOT_ALLOWED
    }


@scenario(41)
def describe_delegation_token(s: Session, v: int):
    return s.once(M.DescribeDelegationTokenRequest(owners=None), v), {DELEGATION_TOKEN_REQUEST_NOT_ALLOWED}


@scenario(48)
def describe_client_quotas(s: Session, v: int):
    return s.once(
        build(
            M.DescribeClientQuotasRequest,
            {"components": [{"entity_type": "client-id", "match_type": 2, "match": None}], "strict": False},
        ),
        v,
    ), {NONE}


@scenario(49)
def alter_client_quotas(s: Session, v: int):
    return s.once(
        build(
            M.AlterClientQuotasRequest,
            {
                "entries": [
                    {
                        "entity": [{"entity_type": "client-id", "entity_name": s.name("client")}],
                        "ops": [{"key": "producer_byte_rate", "value": 1048576.0, "remove": False}],
                    }
                ],
                "validate_only": True,
            },
        ),
        v,
    ), {NONE}


# -- cluster, quorum, features -----------------------------------------------------------
@scenario(18)
def api_versions(s: Session, v: int):
    reply = s.once(
        M.ApiVersionsRequest(client_software_name="kafkawire-tests", client_software_version="1"), v
    )
    assert 18 in [k.api_key for k in reply.body.api_keys]
    return reply, {NONE}


@scenario(55)
def describe_quorum(s: Session, v: int):
    reply = s.once(
        build(
            M.DescribeQuorumRequest,
            {"topics": [{"topic_name": "__cluster_metadata", "partitions": [{"partition_index": 0}]}]},
        ),
        v,
    )
    assert reply.body.topics[0].partitions[0].leader_id == s.node_id
    return reply, {NONE}


@scenario(57)
def update_features(s: Session, v: int):
    # raising group.version to the level it has is a no-op that validates
    return s.once(
        build(
            M.UpdateFeaturesRequest,
            {
                "timeout_ms": 30000,
                "validate_only": True,
                "feature_updates": [
                    {
                        "feature": "group.version",
                        "max_version_level": 1,
                        "upgrade_type": 1,
                        "allow_downgrade": False,
                    }
                ],
            },
        ),
        v,
    ), {NONE}


@scenario(60)
def describe_cluster(s: Session, v: int):
    reply = s.once(
        build(
            M.DescribeClusterRequest,
            {
                "include_cluster_authorized_operations": True,
                "endpoint_type": 1,
                "include_fenced_brokers": True,
            },
        ),
        v,
    )
    assert reply.body.cluster_id == s.cluster_id
    assert [b.broker_id for b in reply.body.brokers] == [s.node_id]
    return reply, {NONE}


@scenario(64)
def unregister_broker(s: Session, v: int):
    return s.once(M.UnregisterBrokerRequest(broker_id=999), v), {BROKER_ID_NOT_REGISTERED}


@scenario(74)
def list_config_resources(s: Session, v: int):
    return s.once(build(M.ListConfigResourcesRequest, {"resource_types": [2]}), v), {NONE}


@scenario(80)
def add_raft_voter(s: Session, v: int):
    return s.once(
        build(
            M.AddRaftVoterRequest,
            {
                "cluster_id": s.cluster_id,
                "timeout_ms": 1000,
                "voter_id": 999,
                "voter_directory_id": uuid.uuid4(),
                "listeners": [{"name": "CONTROLLER", "host": "127.0.0.1", "port": 1}],
            },
        ),
        v,
    ), {REQUEST_TIMED_OUT}  # the new voter never fetches from the leader


@scenario(81)
def remove_raft_voter(s: Session, v: int):
    return s.once(
        build(
            M.RemoveRaftVoterRequest,
            {"cluster_id": s.cluster_id, "voter_id": 999, "voter_directory_id": uuid.uuid4()},
        ),
        v,
    ), {VOTER_NOT_FOUND}


# -- share group state (the share coordinator's API; brokers call it, clients may) --------------
def share_state_topics(s: Session, **partition: Any) -> list:
    return [{"topic_id": s.topic_id, "partitions": [dict(partition=0, **partition)]}]


def initialized_share_state(s: Session, conn: KafkaConnection, group: str) -> None:
    reply = s.call(
        conn,
        build(
            M.InitializeShareGroupStateRequest,
            {"group_id": group, "topics": share_state_topics(s, state_epoch=0, start_offset=0)},
        ),
        0,
    )
    assert error_codes(reply.body) == {NONE}, reply.body


@scenario(83)
def initialize_share_group_state(s: Session, v: int):
    return s.once(
        build(
            M.InitializeShareGroupStateRequest,
            {
                "group_id": s.name("state-init"),
                "topics": share_state_topics(s, state_epoch=0, start_offset=0),
            },
        ),
        v,
    ), {NONE}


@scenario(84)
def read_share_group_state(s: Session, v: int):
    group = s.name("state-read")
    with s.connect() as conn:
        initialized_share_state(s, conn, group)
        reply = s.call(
            conn,
            build(
                M.ReadShareGroupStateRequest,
                {"group_id": group, "topics": share_state_topics(s, leader_epoch=0)},
            ),
            v,
        )
    assert reply.body.results[0].partitions[0].start_offset == 0, reply.body
    return reply, {NONE}


@scenario(85)
def write_share_group_state(s: Session, v: int):
    group = s.name("state-write")
    with s.connect() as conn:
        initialized_share_state(s, conn, group)
        return s.call(
            conn,
            build(
                M.WriteShareGroupStateRequest,
                {
                    "group_id": group,
                    "topics": share_state_topics(
                        s,
                        state_epoch=0,
                        leader_epoch=0,
                        start_offset=1,
                        state_batches=[
                            {"first_offset": 1, "last_offset": 2, "delivery_state": 2, "delivery_count": 1}
                        ],
                    ),
                },
            ),
            v,
        ), {NONE}


@scenario(86)
def delete_share_group_state(s: Session, v: int):
    group = s.name("state-delete")
    with s.connect() as conn:
        initialized_share_state(s, conn, group)
        return s.call(
            conn,
            build(M.DeleteShareGroupStateRequest, {"group_id": group, "topics": share_state_topics(s)}),
            v,
        ), {NONE}


@scenario(87)
def read_share_group_state_summary(s: Session, v: int):
    group = s.name("state-summary")
    with s.connect() as conn:
        initialized_share_state(s, conn, group)
        reply = s.call(
            conn,
            build(
                M.ReadShareGroupStateSummaryRequest,
                {"group_id": group, "topics": share_state_topics(s, leader_epoch=0)},
            ),
            v,
        )
    assert reply.body.results[0].partitions[0].start_offset == 0, reply.body
    return reply, {NONE}


def wait_for_coordinators(s: Session, timeout: float = 60.0) -> None:
    """Until the group, transaction and share coordinators answer FindCoordinator (the
    broker creates their internal topics on first use)."""
    deadline = time.monotonic() + timeout
    with s.connect() as conn:
        # a share coordinator key names a share-partition: group:topic id:partition
        share_key = f"kafkawire-warm-up:{base64.urlsafe_b64encode(s.topic_id.bytes).decode().rstrip('=')}:0"
        for key_type, key in ((0, "kafkawire-warm-up"), (1, "kafkawire-warm-up"), (2, share_key)):
            while True:
                reply = s.call(
                    conn,
                    build(M.FindCoordinatorRequest, {"key_type": key_type, "coordinator_keys": [key]}),
                    6,
                )
                if reply.body.coordinators[0].error_code == NONE:
                    break
                assert reply.body.coordinators[0].error_code == COORDINATOR_NOT_AVAILABLE, reply.body
                assert time.monotonic() < deadline, f"no coordinator of key type {key_type}"
                time.sleep(0.1)


def wait_for_producer_ids(s: Session, timeout: float = 60.0) -> None:
    """Until InitProducerId stops answering COORDINATOR_LOAD_IN_PROGRESS (the broker
    fetches its first block of producer ids from the controller)."""
    deadline = time.monotonic() + timeout
    loading = _code("COORDINATOR_LOAD_IN_PROGRESS")
    with s.connect() as conn:
        while True:
            reply = s.call(
                conn,
                build(M.InitProducerIdRequest, {"transactional_id": None, "transaction_timeout_ms": 60000}),
                5,
            )
            if reply.body.error_code == NONE:
                return
            assert reply.body.error_code == loading, reply.body
            assert time.monotonic() < deadline, "no producer ids"
            time.sleep(0.1)


def prepare(s: Session) -> Session:
    """The session's topics (the data topic with records, the transactions' topic) and
    its coordinators."""
    s.topic_id = s.create_topic(TOPIC)
    s.txn_topic_id = s.create_topic(TXN_TOPIC)
    s.create_topic(MARKER_TOPIC)
    with s.connect() as conn:
        produced = s.produce(conn, 9)
    assert error_codes(produced.body) == {NONE}, produced.body
    wait_for_coordinators(s)
    wait_for_producer_ids(s)
    return s


# -- Kafka Streams groups (KIP-1071) --------------------------------------------------------
def streams_heartbeat(
    s: Session, conn: KafkaConnection, group: str, version: int, member: str, epoch: int
) -> Reply:
    topology = None
    if epoch == 0:  # a joining member describes its topology: one sub-topology reading TOPIC
        topology = {
            "epoch": 0,
            "subtopologies": [
                {
                    "subtopology_id": "0",
                    "source_topics": [TOPIC],
                    "source_topic_regex": [],
                    "state_changelog_topics": [],
                    "repartition_sink_topics": [],
                    "repartition_source_topics": [],
                    "copartition_groups": [],
                }
            ],
        }
    return s.call(
        conn,
        build(
            M.StreamsGroupHeartbeatRequest,
            {
                "group_id": group,
                "member_id": member,
                "member_epoch": epoch,
                "endpoint_information_epoch": -1,
                "rebalance_timeout_ms": 30000,
                "topology": topology,
                "active_tasks": [] if epoch == 0 else None,
                "standby_tasks": [] if epoch == 0 else None,
                "warmup_tasks": [] if epoch == 0 else None,
                "process_id": "process-1" if epoch == 0 else None,
                "client_tags": [] if epoch == 0 else None,
                "task_offsets": None,
                "task_end_offsets": None,
            },
        ),
        version,
    )


@scenario(88)
def streams_group_heartbeat(s: Session, v: int):
    group, member = s.name("streams"), str(uuid.uuid4())
    with s.connect() as conn:
        reply = streams_heartbeat(s, conn, group, v, member, 0)
        assert reply.body.member_epoch >= 1, reply.body
        streams_heartbeat(s, conn, group, v, member, -1)  # leave
    return reply, {NONE}


@scenario(89)
def streams_group_describe(s: Session, v: int):
    group = s.name("streams-describe")
    with s.connect() as conn:
        streams_heartbeat(s, conn, group, 0, str(uuid.uuid4()), 0)
        reply = s.call(
            conn,
            build(
                M.StreamsGroupDescribeRequest,
                {
                    "group_ids": [group],
                    "include_authorized_operations": True,
                    "include_topology_description": True,
                },
            ),
            v,
        )
    assert reply.body.groups[0].members, reply.body
    return reply, {NONE}


# -- share group offsets (KIP-932 admin APIs) ---------------------------------------------------
def empty_share_group(s: Session, conn: KafkaConnection, group: str) -> None:
    """A share group with its start offset on the data topic, and no member left."""
    member = share_group_with_records(s, conn, group, 1)
    share_fetch_until_records(s, conn, group, member, 1)
    left = s.call(
        conn,
        build(M.ShareGroupHeartbeatRequest, {"group_id": group, "member_id": member, "member_epoch": -1}),
        1,
    ).body
    assert left.error_code == NONE, left


@scenario(90)
def describe_share_group_offsets(s: Session, v: int):
    group = s.name("share-offsets")
    with s.connect() as conn:
        empty_share_group(s, conn, group)
        reply = s.call(
            conn,
            build(
                M.DescribeShareGroupOffsetsRequest,
                {"groups": [{"group_id": group, "topics": [{"topic_name": TOPIC, "partitions": [0]}]}]},
            ),
            v,
        )
    topic = reply.body.groups[0].topics[0]
    assert (topic.topic_name, topic.topic_id, [p.partition_index for p in topic.partitions]) == (
        TOPIC,
        s.topic_id,
        [0],
    ), reply.body
    return reply, {NONE}


@scenario(91)
def alter_share_group_offsets(s: Session, v: int):
    group = s.name("share-alter")
    with s.connect() as conn:
        empty_share_group(s, conn, group)
        return s.call(
            conn,
            build(
                M.AlterShareGroupOffsetsRequest,
                {
                    "group_id": group,
                    "topics": [
                        {"topic_name": TOPIC, "partitions": [{"partition_index": 0, "start_offset": 1}]}
                    ],
                },
            ),
            v,
        ), {NONE}


@scenario(92)
def delete_share_group_offsets(s: Session, v: int):
    group = s.name("share-delete")
    with s.connect() as conn:
        empty_share_group(s, conn, group)
        return s.call(
            conn,
            build(M.DeleteShareGroupOffsetsRequest, {"group_id": group, "topics": [{"topic_name": TOPIC}]}),
            v,
        ), {NONE}


@scenario(93)
def streams_group_topology_description_update(s: Session, v: int):
    group, member = s.name("streams-topology"), str(uuid.uuid4())
    with s.connect() as conn:
        joined = streams_heartbeat(s, conn, group, 0, member, 0).body
        assert joined.error_code == NONE, joined
        node = {
            "name": "KSTREAM-SOURCE-0000000000",
            "node_type": 0,
            "source_topics": [TOPIC],
            "sink_topic": None,
            "stores": [],
            "successors": [],
        }
        reply = s.call(
            conn,
            build(
                M.StreamsGroupTopologyDescriptionUpdateRequest,
                {
                    "group_id": group,
                    "member_id": member,
                    "topology_epoch": 0,
                    "topology_description": {
                        "subtopologies": [{"subtopology_id": "0", "nodes": [node]}],
                        "global_stores": [],
                    },
                },
            ),
            v,
        )
        streams_heartbeat(s, conn, group, 0, member, -1)
    # Kafka 4.4 advertises the API but, at its default streams.version, refuses it
    return reply, {_code("UNSUPPORTED_VERSION")}


@scenario(94)
def unregister_controller(s: Session, v: int):
    return s.once(M.UnregisterControllerRequest(controller_id=999), v), {
        _code("CONTROLLER_ID_NOT_REGISTERED")
    }  # a code Kafka 4.4 added (136)
