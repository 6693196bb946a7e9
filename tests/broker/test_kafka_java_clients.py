"""Apache Kafka's Java clients (kafka-clients 4.4) against kafkawire's test broker.

The producer (every compression, idempotent; acks=1 and acks=0), the classic-group
consumer (consume, commit, a new consumer resumes from the committed offsets) and the
admin client (create, list and describe topics, describe the cluster) run in a JVM
(``kafka_support/JavaClientDriver.java``) against ``kafkawire.broker.Broker``; the same
scenario and checks as the other clients (``test_clients_e2e.py``): every record, the
stored batches, the segments on disk, and every frame re-encoded byte for byte.
"""

from __future__ import annotations

import pytest

from kafkawire.cli import decode as decodecmd
from kafkawire.protocol import messages as M
from kafkawire.broker import Broker
from support.kafka.java_clients import run_java
from test_clients_e2e import PARTITIONS, _newest_topics, check_conversation, scenario

pytestmark = [pytest.mark.kafka, pytest.mark.clients, pytest.mark.in_process]


def check_frame_log(path, frames_checked: int) -> None:
    """Every frame of the log decodes again, except the ApiVersions requests at a version
    newer than kafkawire's schema that the broker answered with the KIP-511 fallback
    (the Java client opens each connection at the newest version it knows)."""
    decoded = list(decodecmd._from_frame_log(path.read_bytes(), records=True))
    assert len(decoded) >= frames_checked
    newest = M.ApiVersionsRequest.valid_versions.highest
    for d in decoded:
        if "error" in d:
            assert (d["direction"], d["api_key"]) == ("request", 18), d
            assert d["api_version"] > newest, d


@pytest.fixture
def broker(tmp_path):
    frame_log = tmp_path / "frames.jsonl"
    with Broker(
        num_partitions=PARTITIONS,
        check_roundtrip=True,
        log_dir=str(tmp_path / "logs"),
        frame_log=str(frame_log),
    ) as b:
        yield b
    check_conversation(b)
    check_frame_log(frame_log, b.frames_checked)


@pytest.mark.backends("cython")
def test_java_every_compression_idempotent_group_resume(broker):
    used = scenario(broker, "java", _newest_topics("java"))
    print("java client versions:", used)
    # kafka-clients 4.4 takes the newest versions the broker offers
    assert used["Produce"] == [max(broker.api_versions[0])]
    assert used["Fetch"] == [max(broker.api_versions[1])]


def test_java_smoke(broker):
    """A small scenario on both backends (the full one runs on Cython)."""
    scenario(
        broker,
        "java",
        {"java-smoke-lz4": {"compression": "lz4", "idempotent": True}},
        per_phase=8,
        group="java-smoke",
    )


@pytest.mark.timeout(240)
def test_java_admin_client(backend):
    with Broker(check_roundtrip=True, auto_create_topics=False) as b:
        result = run_java(
            {
                "client": "java",
                "op": "admin",
                "bootstrap": b.bootstrap_servers,
                "create": [{"name": "admin-a", "partitions": 3}, {"name": "admin-b", "partitions": 1}],
            }
        )
        check_conversation(b)
        used = sorted(b.versions_seen)
    print("java admin versions:", {k: sorted(v) for k, v in b.versions_seen.items()})
    assert {"admin-a", "admin-b"} <= set(result["listed"])
    assert result["described"]["admin-a"]["partitions"] == 3
    assert result["described"]["admin-b"]["partitions"] == 1
    assert result["cluster_id"] == b.cluster_id and result["nodes"] == [b.node_id]
    # the admin client asks the describe APIs the broker offers, not Metadata, for these
    assert {19, 60, 75} <= set(used)


# -- the real broker's SASL listener, as Kafka's own client sees it --------------------------
_LOGIN_MODULES = {
    "PLAIN": "org.apache.kafka.common.security.plain.PlainLoginModule",
    "SCRAM-SHA-256": "org.apache.kafka.common.security.scram.ScramLoginModule",
    "SCRAM-SHA-512": "org.apache.kafka.common.security.scram.ScramLoginModule",
}


def _sasl_job(kafka_broker, mechanism: str, user: str, password: str, topic: str) -> dict:
    jaas = f'{_LOGIN_MODULES[mechanism]} required username="{user}" password="{password}";'
    return {
        "client": "java",
        "op": "admin",
        "bootstrap": kafka_broker.sasl_bootstrap_servers,
        "create": [{"name": topic, "partitions": 1}],
        "config": {
            "security.protocol": "SASL_PLAINTEXT",
            "sasl.mechanism": mechanism,
            "sasl.jaas.config": jaas,
        },
    }


@pytest.mark.backend_independent
def test_kafka_broker_fixture_sasl_listener(kafka_broker):
    """The fixture's SASL_PLAINTEXT listener takes its users with each mechanism (PLAIN
    users from the listener's JAAS config, SCRAM credentials written at format time);
    one JVM logs in with each in turn."""
    assert set(kafka_broker.sasl_mechanisms) == set(_LOGIN_MODULES)
    user = "alice"
    jobs = [
        _sasl_job(kafka_broker, m, user, kafka_broker.users[user], f"sasl-{m.lower()}")
        for m in sorted(_LOGIN_MODULES)
    ]
    result = run_java({"client": "java", "jobs": jobs}, timeout=120)
    for job, answer in zip(jobs, result["results"]):
        assert job["create"][0]["name"] in answer["listed"], job["config"]["sasl.mechanism"]
        assert answer["cluster_id"] == kafka_broker.cluster_id


@pytest.mark.backend_independent
def test_kafka_broker_fixture_sasl_listener_refuses_a_wrong_password(kafka_broker):
    with pytest.raises(AssertionError, match="SaslAuthenticationException"):
        run_java(_sasl_job(kafka_broker, "SCRAM-SHA-256", "alice", "wrong", "sasl-refused"), timeout=60)
