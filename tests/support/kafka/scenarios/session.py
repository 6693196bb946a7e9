"""The session the scenarios share: one broker's connections, the checks every reply
passes, the registry of scenarios by API key and the helpers that build requests."""

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
        self._wait_for_leaders(name, partitions)
        return topic.topic_id

    def _wait_for_leaders(self, name: str, partitions: int) -> None:
        """Until the broker's metadata shows every partition of ``name`` led: CreateTopics
        answers once the controller has the topic, and a busy broker's own metadata may
        lag behind it for a while (its answers to the describe requests with it)."""
        request = build(M.MetadataRequest, {"topics": [{"name": name}], "allow_auto_topic_creation": False})
        deadline = time.monotonic() + 60
        while True:
            with self.connect() as conn:
                (found,) = conn.call(at_version(request, 12), 12).body.topics
            led = [p for p in found.partitions if p.leader_id >= 0]
            if found.error_code == NONE and len(led) == partitions:
                return
            assert time.monotonic() < deadline, (
                f"topic {name} has not got {partitions} led partitions: {found}"
            )
            time.sleep(0.1)

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
