"""SASL/GSSAPI (Kerberos) on kafkawire's test broker, with a real MIT KDC
(``conftest_kerberos``): the broker accepts GSSAPI with the service keytab Kafka's
broker uses, names ``alice@REALM`` ``User:alice`` as Kafka's DEFAULT rule does and
enforces ACLs on that name; kafkawire's client (v0 and v1), Kafka's Java client and
librdkafka's kcat authenticate to it; a ticket for another service is refused the same
way by Kafka's broker and by the test broker."""

from __future__ import annotations

import subprocess

import pytest

from kafkawire.protocol import messages as M
from kafkawire import sasl
from kafkawire.broker import Broker
from kafkawire.broker import acls as A
from kafkawire.errors import SaslAuthenticationError

from support.blocking_client import BlockingClient
from support.fixtures.kerberos import SERVICE_HOST, require_kerberos
from test_broker_security import _creation, fetch_error, produce

pytestmark = [pytest.mark.kerberos, pytest.mark.timeout(300), pytest.mark.in_process]


@pytest.fixture
def gssapi_broker(kerberos, tmp_path):
    """The test broker on ``localhost`` (the host in the service principal), with GSSAPI
    and SCRAM; ACLs enforced, ``admin`` (SCRAM) a super user."""
    with Broker(
        host=SERVICE_HOST,
        security_protocol="SASL_PLAINTEXT",
        sasl_mechanisms=["GSSAPI", "SCRAM-SHA-256"],
        users={"admin": "admin-secret"},
        super_users=["admin"],
        acl_enforce=True,
        kerberos_keytab=str(kerberos.service_keytab),
        session_lifetime_ms=600000,
        log_dir=str(tmp_path / "logs"),
        check_roundtrip=True,
    ) as b:
        admin = BlockingClient(b)
        admin.login("SCRAM-SHA-256", "admin", "admin-secret")
        b.call(lambda: b.storage.create_topic("orders", 1))
        b.call(lambda: b.storage.create_topic("secret", 1))
        resp = admin.request(
            M.CreateAclsRequest(
                creations=[
                    _creation(A.TOPIC, "orders", "User:alice", A.ALL),
                    _creation(A.CLUSTER, "kafka-cluster", "User:alice", A.DESCRIBE),
                    _creation(A.GROUP, "*", "User:alice", A.ALL),
                ]
            ),
            3,
        )
        assert [r.error_code for r in resp.results] == [0, 0, 0]
        yield b
        assert b.handler_errors == [] and b.roundtrip_failures == []


def _alice(kerberos) -> sasl.GssapiClient:
    return sasl.GssapiClient(SERVICE_HOST, principal=kerberos.alice, keytab=str(kerberos.alice_keytab))


@pytest.mark.parametrize("handshake_version", [0, 1])
def test_kafkawire_client_acls_on_the_kerberos_short_name(
    kerberos, gssapi_broker, handshake_version, tmp_path
):
    alice = BlockingClient(gssapi_broker)
    done = alice.authenticate(_alice(kerberos), handshake_version=handshake_version)
    assert done.mechanism == "GSSAPI"
    assert produce(alice, "orders") == 0 and fetch_error(alice, "orders") == 0
    assert gssapi_broker.authentications[-1][1:] == ("GSSAPI", "alice")
    assert produce(alice, "secret") == 29  # TOPIC_AUTHORIZATION_FAILED: ACLs on User:alice
    # bob, from a kinit ticket cache, has no ACL at all
    cache = kerberos.ccache(kerberos.bob, tmp_path / "bob.ccache", password=kerberos.bob_password)
    bob = BlockingClient(gssapi_broker)
    bob.authenticate(sasl.GssapiClient(SERVICE_HOST, ccache=cache), handshake_version=handshake_version)
    assert produce(bob, "orders") == 29


def test_reauthentication_keeps_the_principal(kerberos, gssapi_broker, tmp_path):
    alice = BlockingClient(gssapi_broker)
    assert alice.authenticate(_alice(kerberos)).session_lifetime_ms == 600000
    alice.authenticate(_alice(kerberos))  # KIP-368, on the same connection
    assert produce(alice, "orders") == 0
    cache = kerberos.ccache(kerberos.bob, tmp_path / "bob.ccache", password=kerberos.bob_password)
    with pytest.raises(SaslAuthenticationError, match="Cannot change principals.*User.alice: User.bob"):
        alice.authenticate(sasl.GssapiClient(SERVICE_HOST, ccache=cache))


@pytest.mark.kafka
def test_a_session_outlives_its_ticket_on_both_brokers(kerberos, kerberos_kafka):
    """Re-authentication every 2 hours, tickets of 1 hour: Kafka's broker does not cut a
    GSSAPI session at the ticket's end (only OAUTHBEARER's credential lifetime does
    that), and neither does the test broker."""
    with Broker(
        host=SERVICE_HOST,
        security_protocol="SASL_PLAINTEXT",
        sasl_mechanisms=["GSSAPI"],
        kerberos_keytab=str(kerberos.service_keytab),
        session_lifetime_ms=7200000,
    ) as ours:
        lifetimes = []
        for port in (kerberos_kafka.sasl_port, ours.port):
            conn = BlockingClient((SERVICE_HOST, port))
            lifetimes.append(conn.authenticate(_alice(kerberos)).session_lifetime_ms)
    assert lifetimes == [7200000, 7200000]


@pytest.mark.kafka
@pytest.mark.backend_independent
def test_kafka_java_client_authenticates_to_the_test_broker(kerberos, gssapi_broker):
    from support.kafka.java_clients import run_java

    jaas = (
        "com.sun.security.auth.module.Krb5LoginModule required useKeyTab=true storeKey=true "
        f'keyTab="{kerberos.alice_keytab}" principal="{kerberos.alice}";'
    )
    result = run_java(
        {
            "client": "java",
            "op": "admin",
            "bootstrap": gssapi_broker.bootstrap_servers,
            "create": [],
            "config": {
                "security.protocol": "SASL_PLAINTEXT",
                "sasl.mechanism": "GSSAPI",
                "sasl.kerberos.service.name": "kafka",
                "sasl.jaas.config": jaas,
            },
        },
        timeout=120,
        jvm_options=(f"-Djava.security.krb5.conf={kerberos.kdc.krb5_conf}",),
    )
    assert result["cluster_id"] == gssapi_broker.cluster_id
    assert "orders" in result["listed"] and "secret" not in result["listed"]  # DESCRIBE by ACL
    assert ("GSSAPI", "alice") in [a[1:] for a in gssapi_broker.authentications]


def _kcat(kerberos, broker, tmp_path, *args: str, stdin: str = "") -> subprocess.CompletedProcess:
    command = [
        "kcat",
        "-b",
        broker.bootstrap_servers,
        "-X",
        "security.protocol=SASL_PLAINTEXT",
        "-X",
        "sasl.mechanisms=GSSAPI",
        "-X",
        "sasl.kerberos.service.name=kafka",
        "-X",
        f"sasl.kerberos.keytab={kerberos.alice_keytab}",
        "-X",
        f"sasl.kerberos.principal={kerberos.alice}",
        *args,
    ]
    # librdkafka runs kinit with the keytab into the default cache
    env = kerberos.kdc.child_env(KRB5CCNAME=f"FILE:{tmp_path / 'kcat.ccache'}")
    return subprocess.run(command, input=stdin, env=env, capture_output=True, text=True, timeout=120)


@pytest.mark.backend_independent
def test_kcat_produces_and_consumes_on_the_test_broker(kerberos, gssapi_broker, tmp_path):
    require_kerberos("kcat")
    features = subprocess.run(["kcat", "-X", "list"], capture_output=True, text=True, timeout=30).stdout
    assert "sasl_gssapi" in features  # Debian's librdkafka is built with GSSAPI
    made = _kcat(kerberos, gssapi_broker, tmp_path, "-P", "-t", "orders", stdin="one\ntwo\n")
    assert made.returncode == 0, made.stderr
    read = _kcat(kerberos, gssapi_broker, tmp_path, "-C", "-t", "orders", "-o", "beginning", "-e", "-q")
    assert read.returncode == 0, read.stderr
    assert read.stdout.split() == ["one", "two"]
    assert ("GSSAPI", "alice") in [a[1:] for a in gssapi_broker.authentications]


@pytest.mark.kafka
def test_a_ticket_for_another_service_is_refused_alike(kerberos, kerberos_kafka, gssapi_broker):
    """The ticket is for kafka/otherhost, whose key neither broker has: Kafka's broker
    and the test broker answer SaslAuthenticate alike, then close the connection."""
    kerberos.kdc.add_principal(f"kafka/otherhost-{id(gssapi_broker)}")
    answers = []
    for port in (kerberos_kafka.sasl_port, gssapi_broker.port):
        conn = BlockingClient((SERVICE_HOST, port))
        shake = conn.request(M.SaslHandshakeRequest(mechanism="GSSAPI"), 1)
        client = sasl.GssapiClient(
            f"otherhost-{id(gssapi_broker)}", principal=kerberos.alice, keytab=str(kerberos.alice_keytab)
        )
        refusal = conn.request(M.SaslAuthenticateRequest(auth_bytes=client.start()), 2)
        answers.append(
            (
                shake.error_code,
                refusal.error_code,
                refusal.error_message,
                bytes(refusal.auth_bytes),
                conn.closed_by_peer(),
            )
        )
    assert answers[0] == answers[1]
    assert answers[0] == (
        0,
        58,  # SASL_AUTHENTICATION_FAILED
        "Authentication failed during authentication due to invalid credentials with SASL mechanism GSSAPI",
        b"",
        True,
    )
