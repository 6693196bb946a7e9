"""kafkawire as the client of a real Apache Kafka 4.4 broker.

For every API the broker advertises, at every version it advertises (the list recorded
in ``tests/vectors/kafka/broker-4.4.0-api-versions.json``, checked against the live
broker below), kafkawire encodes the request of a meaningful conversation
(``support.kafka.scenarios``), and every response the broker sends decodes and
re-encodes to the bytes on the wire, on both backends, with the error codes Kafka's
semantics call for.  An API without a scenario gets a default request and the byte
check only.
"""

from __future__ import annotations

import json
import struct
from pathlib import Path

import pytest

import kafkawire
from kafkawire.protocol import messages as M
from kafkawire.errors import UnknownApiError, for_name

from support.kafka import scenarios as S
from support.kafka.wire import KafkaConnection

pytestmark = [pytest.mark.kafka, pytest.mark.in_process]

RECORDED = json.loads(
    (Path(__file__).parents[1] / "vectors" / "kafka" / "broker-4.4.0-api-versions.json").read_text()
)
ADVERTISED = {int(k): tuple(v) for k, v in RECORDED["api_versions"].items()}


def _api_name(key: int) -> str:
    try:
        return M.request_class(key).__name__[: -len("Request")]
    except UnknownApiError:
        return f"api{key}"


def _known_divergence(key: int, version: int) -> list:
    """Marks for pairs where kafkawire's schema is known to differ from Kafka 4.4's."""
    if key == 87 and "leader_epoch" not in M.ReadShareGroupStateSummaryResponse.PartitionResult._attrs:
        return [
            pytest.mark.xfail(
                reason="the schema's ReadShareGroupStateSummaryResponse v0 "
                "predates Kafka 4.4 (no LeaderEpoch)",
                strict=True,
            )
        ]
    return []


# Kafka 4 advertises Produce v0-v2 (old librdkafka looks for them) but refuses them
REFUSED = {(0, v) for v in range(3)}

CASES = [
    pytest.param(key, v, id=f"{_api_name(key)}-v{v}", marks=_known_divergence(key, v))
    for key, (lo, hi) in sorted(ADVERTISED.items())
    for v in range(lo, hi + 1)
    if (key, v) not in REFUSED
]


@pytest.fixture(scope="module")
def kafka_session(kafka_broker):
    """The broker with the scenarios' topics, records and coordinators ready."""
    b = kafka_broker
    return S.prepare(S.Session(b.host, b.port, b.sasl_port, b.cluster_id, b.node_id, b.users))


def _check_bytes(replies) -> None:
    for reply in replies:
        assert S.reencoded(reply) == reply.payload, (
            f"{type(reply.body).__name__} v{reply.version} does not re-encode to the broker's bytes"
        )


@pytest.mark.backend_independent
def test_broker_advertises_the_recorded_versions(kafka_session):
    with kafka_session.connect() as conn:
        reply = conn.call(
            M.ApiVersionsRequest(client_software_name="kafkawire-tests", client_software_version="1"), 3
        )
    live = {e.api_key: (e.min_version, e.max_version) for e in reply.body.api_keys}
    assert live == ADVERTISED


@pytest.mark.parametrize("api_key,version", CASES)
def test_request_against_kafka(kafka_session, backend, api_key, version):
    try:
        supported = M.supported_versions(api_key)
    except UnknownApiError:
        pytest.skip(f"kafkawire's schema has no API key {api_key}")
    if version not in supported:
        pytest.skip(f"kafkawire's schema has no version {version} of {_api_name(api_key)}")
    s = kafka_session
    s.tag, s.replies = f"{backend}-v{version}", []
    scenario = S.SCENARIOS.get(api_key)
    if scenario is None:
        reply, expected = s.once(M.request_class(api_key)(), version), None
    else:
        reply, expected = scenario(s, version)
    _check_bytes(s.replies)
    if reply is not None and expected is not None:
        assert S.error_codes(reply.body) == expected, reply.body


@pytest.mark.parametrize("version", sorted(v for k, v in REFUSED))
def test_refused_produce_versions_close_the_connection(kafka_session, backend, version):
    """Produce v0-v2: advertised, but the broker closes the connection of a client that
    sends one (the body is a v3 body: the broker stops at the header)."""
    s = kafka_session
    with s.connect() as conn:
        s.produce(conn, 3)  # the connection works
        frame = bytearray(
            kafkawire.encode_request(
                M.ProduceRequest(acks=-1, timeout_ms=1000, topic_data=[]), 3, correlation_id=9
            )
        )
        struct.pack_into(">h", frame, 6, version)  # size(4) api_key(2) then the version
        conn.send_frame(bytes(frame))
        with pytest.raises(ConnectionError):
            conn.read_payload()


@pytest.mark.parametrize("version", [ADVERTISED[18][1] + 1, 0x7FFF])
def test_api_versions_fallback(kafka_session, backend, version):
    """KIP-511: a version the broker does not know is answered in the v0 shape with
    UNSUPPORTED_VERSION and the broker's versions."""
    frame = bytearray(
        kafkawire.encode_request(
            M.ApiVersionsRequest(client_software_name="kafkawire-tests", client_software_version="1"),
            M.ApiVersionsRequest.valid_versions.highest,
            correlation_id=7,
            client_id="fallback",
        )
    )
    struct.pack_into(">h", frame, 6, version)  # size(4) api_key(2) then the version
    with kafka_session.connect() as conn:
        conn.send_frame(bytes(frame))
        payload = conn.read_payload()
    header, body = kafkawire.decode_response(payload, 18, 0)
    assert header.correlation_id == 7
    assert body.error_code == for_name("UNSUPPORTED_VERSION").code
    assert {e.api_key: (e.min_version, e.max_version) for e in body.api_keys}[18] == ADVERTISED[18]
    assert kafkawire.encode_response(body, 0, 7)[4:] == payload


# -- kafkawire's test broker answers the admin client's describe requests as Kafka does ----
DESCRIBE_REQUESTS = [
    (M.DescribeClusterRequest, 0, {"include_cluster_authorized_operations": True}),
    (M.DescribeClusterRequest, 1, {"include_cluster_authorized_operations": False, "endpoint_type": 1}),
    (
        M.DescribeClusterRequest,
        2,
        {"include_cluster_authorized_operations": True, "endpoint_type": 2, "include_fenced_brokers": True},
    ),
    (
        M.DescribeClusterRequest,
        2,
        {"include_cluster_authorized_operations": True, "endpoint_type": 1, "include_fenced_brokers": True},
    ),
    (
        M.DescribeTopicPartitionsRequest,
        0,
        {
            "topics": [{"name": "describe-b"}, {"name": "describe-a"}, {"name": "no-such-topic"}],
            "response_partition_limit": 2000,
        },
    ),
    (
        M.DescribeTopicPartitionsRequest,
        0,
        {"topics": [{"name": "describe-a"}, {"name": "describe-b"}], "response_partition_limit": 2},
    ),
    (
        M.DescribeTopicPartitionsRequest,
        0,
        {
            "topics": [{"name": "describe-a"}, {"name": "describe-b"}],
            "response_partition_limit": 2,
            "cursor": {"topic_name": "describe-a", "partition_index": 2},
        },
    ),
    (
        M.DescribeTopicPartitionsRequest,
        0,
        {"topics": [{"name": "describe-a"}, {"name": "describe-b"}], "response_partition_limit": 5},
    ),
    (
        M.DescribeTopicPartitionsRequest,
        0,
        {"topics": [{"name": "describe-a"}, {"name": "describe-b"}], "response_partition_limit": 3},
    ),
    (
        M.DescribeTopicPartitionsRequest,
        0,
        {
            "topics": [{"name": "describe-a"}, {"name": "describe-b"}, {"name": "describe-c"}],
            "response_partition_limit": 5,
        },
    ),
    (
        M.DescribeTopicPartitionsRequest,
        0,
        {
            "topics": [{"name": "describe-a"}, {"name": "describe-b"}],
            "response_partition_limit": 9,
            "cursor": {"topic_name": "describe-a", "partition_index": 7},
        },
    ),
    (
        M.DescribeTopicPartitionsRequest,
        0,
        {
            "topics": [{"name": "describe-0"}, {"name": "describe-a"}],
            "response_partition_limit": 9,
            "cursor": {"topic_name": "describe-a", "partition_index": 1},
        },
    ),
]


def _comparable(body, cluster_id: str, port: int, topic_ids: dict) -> dict:
    """The response as a dict with what differs between two brokers by nature (cluster
    id, port, topic ids, leader epochs) replaced by what it stands for."""
    names = {str(v): k for k, v in topic_ids.items()}

    def walk(value):
        if isinstance(value, dict):
            out = {}
            for k, v in value.items():
                if k == "cluster_id" and v == cluster_id:
                    v = "<cluster id>"
                elif k == "port" and v == port:
                    v = "<port>"
                elif k == "topic_id":
                    v = names.get(v, v)
                elif k == "leader_epoch" and isinstance(v, int) and v >= 0:
                    v = "<epoch>"  # history, not semantics: a busy broker may bump it
                out[k] = walk(v)
            return out
        if isinstance(value, list):
            return [walk(v) for v in value]
        return value

    return walk(body.to_dict())


@pytest.mark.backend_independent
def test_test_broker_describes_cluster_and_topics_as_kafka_does(kafka_session, tmp_path):
    from kafkawire.broker import Broker

    s = kafka_session
    real_ids = {}
    for name, partitions in (("describe-a", 3), ("describe-b", 2)):
        real_ids[name] = s.create_topic(name, partitions)
    with Broker(node_id=s.node_id, log_dir=str(tmp_path), check_roundtrip=True) as ours:
        ours_ids = {
            name: ours.call(lambda n=name, p=p: ours.storage.create_topic(n, p).topic_id)
            for name, p in (("describe-a", 3), ("describe-b", 2))
        }
        for cls, version, fields in DESCRIBE_REQUESTS:
            request = S.build(cls, fields)
            with KafkaConnection(s.host, s.port) as conn:
                kafka = conn.call(request, version).body
            with KafkaConnection(ours.host, ours.port) as conn:
                mine = conn.call(request, version).body
            ours_dict = _comparable(mine, ours.cluster_id, ours.port, ours_ids)
            kafka_dict = _comparable(kafka, s.cluster_id, s.port, real_ids)
            assert ours_dict == kafka_dict, (cls.__name__, version, fields, ours_dict, kafka_dict)
        assert ours.roundtrip_failures == [] and ours.handler_errors == []


# -- the broker never outlives its test process ----------------------------------------------
_STARTER = """
import sys, time
sys.path.insert(0, sys.argv[1])
from support.kafka.broker import start_broker
broker = start_broker()
print(broker.process.pid, flush=True)
time.sleep(600)
"""


@pytest.mark.slow
@pytest.mark.backend_independent
def test_broker_dies_with_a_killed_test_process(tmp_path):
    """A test run killed outright (SIGKILL: no finaliser, no atexit) leaves no JVM."""
    import os
    import subprocess
    import sys
    import time

    from conftest import subprocess_env

    if not sys.platform.startswith("linux"):
        pytest.skip("the parent-death signal that stops the JVM is Linux's")
    # its files go under tmp_path: the killed process cannot remove them
    errors = tmp_path / "starter.err"
    with open(errors, "wb") as err:
        starter = subprocess.Popen(
            [sys.executable, "-c", _STARTER, str(Path(__file__).parents[1])],
            stdout=subprocess.PIPE,
            stderr=err,
            text=True,
            env=subprocess_env(TMPDIR=str(tmp_path)),
        )
    try:
        line = starter.stdout.readline()  # the JVM's pid, once the broker answers
        assert line.strip().isdigit(), f"the broker did not start: {errors.read_text()[-3000:]}"
        jvm = int(line)
        os.kill(jvm, 0)  # it runs
    finally:
        starter.kill()
        starter.wait(30)
    deadline = time.monotonic() + 60
    while True:
        try:
            os.kill(jvm, 0)
        except ProcessLookupError:
            break
        # an exited child of a dead parent is reaped by init; until then it is a zombie
        try:
            with open(f"/proc/{jvm}/stat") as stat:
                if stat.read().split(")")[-1].split()[0] == "Z":
                    break
        except FileNotFoundError:
            break
        assert time.monotonic() < deadline, "the broker JVM outlived its killed test process"
        time.sleep(0.2)
