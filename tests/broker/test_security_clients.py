"""Real Kafka clients against the test broker's security: librdkafka (confluent-kafka),
kafka-python and aiokafka produce and consume over SASL_PLAINTEXT with PLAIN, SASL_SSL
with SCRAM-SHA-256 and -512, and SSL with client certificates; each is refused, with its
own authentication error, for a wrong password, an unknown user and no credentials, and
gets its own authorization error for a topic an ACL does not grant (nothing is written).

Kafka's Java clients (kafka-clients 4.4) do the same where Java and the Kafka jars are
there (marker ``kafka``), and librdkafka's view of a refusal from the test broker is
compared with its view of the same refusal from a real Kafka 4.4 broker.

The machinery is test_clients_e2e's: each client runs in a subprocess
(test_clients_driver.py) with a hard timeout; the broker runs in this process.
"""

from __future__ import annotations

import json
from typing import Any, Dict, Optional

import pytest

from kafkawire.broker import Broker
from kafkawire.broker import acls as A
from test_clients_driver import from_json, make_records, to_json
from test_clients_e2e import run_client
from support.tls_certs import CLIENT_PRINCIPAL, make_pki

pytestmark = [pytest.mark.clients, pytest.mark.in_process]

CLIENTS = ("confluent", "kafka-python", "aiokafka")
USERS = {"alice": "alice-secret", "bob": "bob-secret"}


@pytest.fixture(scope="module")
def pki(tmp_path_factory):
    return make_pki(tmp_path_factory.mktemp("pki"))


def client_config(
    client: str,
    protocol: str,
    pki,
    *,
    mechanism: Optional[str] = None,
    user: Optional[str] = None,
    password: Optional[str] = None,
    certificate: bool = False,
) -> Dict[str, Any]:
    """Each client's own names for the same security settings."""
    if client == "confluent":
        conf: Dict[str, Any] = {"security.protocol": protocol}
        if mechanism:
            conf.update({"sasl.mechanism": mechanism, "sasl.username": user, "sasl.password": password})
        if protocol.endswith("SSL"):
            conf["ssl.ca.location"] = pki.ca
        if certificate:
            conf.update({"ssl.certificate.location": pki.client_cert, "ssl.key.location": pki.client_key})
        return conf
    conf = {"security_protocol": protocol}
    if mechanism:
        conf.update(
            {"sasl_mechanism": mechanism, "sasl_plain_username": user, "sasl_plain_password": password}
        )
    if protocol.endswith("SSL"):
        conf["ssl_cafile"] = pki.ca
    if certificate:
        conf.update({"ssl_certfile": pki.client_cert, "ssl_keyfile": pki.client_key})
    return conf


SETTINGS = {
    "SASL_PLAINTEXT-PLAIN": dict(protocol="SASL_PLAINTEXT", mechanism="PLAIN"),
    "SASL_SSL-SCRAM-SHA-256": dict(protocol="SASL_SSL", mechanism="SCRAM-SHA-256"),
    "SASL_SSL-SCRAM-SHA-512": dict(protocol="SASL_SSL", mechanism="SCRAM-SHA-512"),
    "SSL-client-certificate": dict(protocol="SSL", mechanism=None),
}


def _broker(protocol: str, pki, **extra) -> Broker:
    tls = dict(ssl_certfile=pki.server_cert, ssl_keyfile=pki.server_key) if protocol.endswith("SSL") else {}
    if protocol == "SSL":
        tls["ssl_cafile"] = pki.ca  # client certificates required
    return Broker(security_protocol=protocol, users=USERS, check_roundtrip=True, **tls, **extra)


def _produce_and_consume(broker: Broker, client: str, config: Dict[str, Any], topic: str) -> None:
    broker.call(lambda: broker.storage.create_topic(topic, 1))
    records = make_records(topic, 0, 6, 1, headers=False)
    base = {"client": client, "bootstrap": broker.bootstrap_servers, "config": config}
    produced = run_client({**base, "op": "produce", "topic": topic, "records": to_json(records)})
    assert produced["failures"] == [] and produced["delivered"] == 6, produced
    consumed = run_client({**base, "op": "consume", "group": f"g-{topic}", "topics": [topic], "expect": 6})
    got = sorted((r["offset"], r["key"], r["value"]) for r in from_json(consumed["records"]))
    assert got == [(i, r["key"], r["value"]) for i, r in enumerate(records)]
    assert broker.roundtrip_failures == [] and broker.handler_errors == []


def _check(broker: Broker, client: str, setting: str, pki) -> None:
    s = SETTINGS[setting]
    config = client_config(
        client,
        s["protocol"],
        pki,
        mechanism=s["mechanism"],
        user="alice",
        password=USERS["alice"],
        certificate=s["protocol"] == "SSL",
    )
    _produce_and_consume(broker, client, config, f"{client}-{setting}".lower())
    if s["mechanism"]:
        assert {(m, p) for _c, m, p in broker.authentications} == {(s["mechanism"], "alice")}


@pytest.mark.backends("cython")
@pytest.mark.timeout(240)
@pytest.mark.parametrize("setting", sorted(SETTINGS))
@pytest.mark.parametrize("client", CLIENTS)
def test_client_produces_and_consumes_securely(pki, client, setting):
    with _broker(SETTINGS[setting]["protocol"], pki) as broker:
        _check(broker, client, setting, pki)


@pytest.mark.timeout(240)
def test_each_client_over_sasl_ssl_scram_on_each_backend(pki):
    with _broker("SASL_SSL", pki) as broker:
        for client in CLIENTS:
            _produce_and_consume(
                broker,
                client,
                client_config(
                    client, "SASL_SSL", pki, mechanism="SCRAM-SHA-256", user="bob", password="bob-secret"
                ),
                f"smoke-{client}",
            )


@pytest.mark.timeout(120)
def test_ssl_client_certificate_subject_is_the_acl_principal(pki):
    with _broker("SSL", pki, acl_enforce=True) as broker:
        for topic in ("cert-ok", "cert-other"):
            broker.call(lambda t=topic: broker.storage.create_topic(t, 1))
        broker.call(
            lambda: broker.acls.add(
                [
                    A.AclBinding(A.TOPIC, "cert-ok", A.LITERAL, CLIENT_PRINCIPAL, "*", A.WRITE, A.ALLOW),
                    A.AclBinding(
                        A.TOPIC,
                        "cert-other",
                        A.LITERAL,
                        "User:CN=other,O=kafkawire-test",
                        "*",
                        A.WRITE,
                        A.ALLOW,
                    ),
                ]
            )
        )
        config = client_config("confluent", "SSL", pki, certificate=True)
        ok = run_client(
            {
                "client": "confluent",
                "op": "produce",
                "bootstrap": broker.bootstrap_servers,
                "topic": "cert-ok",
                "records": to_json(make_records("cert-ok", 0, 2, 1, headers=False)),
                "config": config,
            },
            timeout=60,
        )
        assert ok["delivered"] == 2 and ok["failures"] == []
        said = _refused_produce(broker.bootstrap_servers, "confluent", config, "cert-other")
        assert AUTHZ_ERROR["confluent"] in said


# -- refusals ----------------------------------------------------------------------------------

# How each client reports a refused authentication: librdkafka through its error callback,
# kafka-python and aiokafka in their logs while they retry (then fail to bootstrap).
AUTH_ERROR = {
    "confluent": "_AUTHENTICATION",
    "kafka-python": "SaslAuthenticationFailedError",
    "aiokafka": "SaslAuthenticationFailed",
}
AUTHZ_ERROR = {
    "confluent": "TOPIC_AUTHORIZATION_FAILED",
    "kafka-python": "TopicAuthorizationFailedError",
    "aiokafka": "TopicAuthorizationFailedError",
}


def _kafka_python_bootstrap_timeout(ms: int) -> Dict[str, int]:
    """How long kafka-python's producer may try to bootstrap, where its version has the
    setting (30 s by default: a refused client would wait all of it)."""
    import kafka

    return (
        {"bootstrap_timeout_ms": ms} if "bootstrap_timeout_ms" in kafka.KafkaProducer.DEFAULT_CONFIG else {}
    )


def _refused_produce(bootstrap: str, client: str, config: Dict[str, Any], topic: str) -> str:
    """Try to produce to ``topic`` at ``bootstrap``; return everything the client said, as text."""
    records = to_json(make_records(topic, 0, 3, 1, headers=False))
    # give up sooner than a client that is only slow would be allowed to
    job: Dict[str, Any] = {}
    if client == "confluent":
        config = dict(config, **{"message.timeout.ms": 8000})
        # librdkafka retries a refused record until it times out: stop at the refusal
        job["stop_on"] = [AUTH_ERROR[client], AUTHZ_ERROR[client]]
    elif client in ("kafka-python", "aiokafka"):
        config = dict(config, request_timeout_ms=8000)
    if client == "kafka-python":
        config = dict(config, max_block_ms=8000, **_kafka_python_bootstrap_timeout(8000))
    result = run_client(
        {
            "client": client,
            "op": "produce",
            "bootstrap": bootstrap,
            "topic": topic,
            "records": records,
            "config": config,
            "timeout": 12,
            "expect_failure": True,
            **job,
        },
        timeout=90,
    )
    assert result.get("delivered", 0) == 0, result
    return json.dumps(result)


def _nothing_written(broker: Broker, topic: str) -> bool:
    return topic not in broker.storage.topics or broker.topic_records(topic) == {0: []}


@pytest.mark.backends("cython")
@pytest.mark.timeout(240)
@pytest.mark.parametrize("client", CLIENTS)
def test_wrong_password_and_unknown_user_are_refused(pki, client):
    with _broker("SASL_SSL", pki) as broker:
        said = _refused_produce(
            broker.bootstrap_servers,
            client,
            client_config(client, "SASL_SSL", pki, mechanism="SCRAM-SHA-512", user="alice", password="wrong"),
            "t-wrong",
        )
        assert AUTH_ERROR[client] in said and "SASL mechanism SCRAM-SHA-512" in said
        assert _nothing_written(broker, "t-wrong")
    with _broker("SASL_PLAINTEXT", pki) as broker:
        said = _refused_produce(
            broker.bootstrap_servers,
            client,
            client_config(client, "SASL_PLAINTEXT", pki, mechanism="PLAIN", user="mallory", password="x"),
            "t-unknown",
        )
        assert AUTH_ERROR[client] in said and "Invalid username or password" in said
        assert {p for _c, _m, p in broker.authentications} == {None}
        assert _nothing_written(broker, "t-unknown")


@pytest.mark.backends("cython")
@pytest.mark.timeout(240)
@pytest.mark.parametrize("client", CLIENTS)
def test_no_credentials_is_refused(pki, client):
    with _broker("SASL_PLAINTEXT", pki) as broker:
        broker.call(lambda: broker.storage.create_topic("t-anon", 1))
        config = client_config(client, "PLAINTEXT", pki)
        said = _refused_produce(broker.bootstrap_servers, client, config, "t-anon")
        assert 'delivered": 0' in said or "exception" in said
        reasons = [why for _id, why in broker.closed_connections]
        assert reasons and all("before SASL authentication" in r for r in reasons if "client closed" not in r)
        assert any("before SASL authentication" in r for r in reasons)
        assert _nothing_written(broker, "t-anon")


@pytest.mark.backends("cython")
@pytest.mark.timeout(240)
@pytest.mark.parametrize("client", CLIENTS)
def test_acl_denial_is_the_client_authorization_error(pki, client):
    with _broker("SASL_PLAINTEXT", pki, acl_enforce=True, super_users=["bob"]) as broker:
        for topic in ("granted", "denied"):
            broker.call(lambda t=topic: broker.storage.create_topic(t, 1))
        broker.call(
            lambda: broker.acls.add(
                [A.AclBinding(A.TOPIC, "granted", A.LITERAL, "User:alice", "*", A.WRITE, A.ALLOW)]
            )
        )
        config = client_config(
            client, "SASL_PLAINTEXT", pki, mechanism="SCRAM-SHA-256", user="alice", password=USERS["alice"]
        )
        said = _refused_produce(broker.bootstrap_servers, client, config, "denied")
        assert AUTHZ_ERROR[client] in said
        assert _nothing_written(broker, "denied")
        # the same principal may write where the ACL allows it
        ok = run_client(
            {
                "client": client,
                "op": "produce",
                "bootstrap": broker.bootstrap_servers,
                "topic": "granted",
                "records": to_json(make_records("granted", 0, 3, 1, headers=False)),
                "config": config,
            },
            timeout=90,
        )
        assert ok["delivered"] == 3 and ok["failures"] == []


# -- Kafka's Java clients (kafka-clients 4.4; need Java and the Kafka jars) ------------------


def java_config(
    protocol: str,
    pki,
    *,
    mechanism: Optional[str] = None,
    user: str = "alice",
    password: str = "alice-secret",
    certificate: bool = False,
    tmp_path=None,
) -> Dict[str, Any]:
    """The Java client's names: a JAAS line for SASL, PEM trust and key stores for TLS."""
    conf: Dict[str, Any] = {"security.protocol": protocol}
    if mechanism:
        module = (
            "org.apache.kafka.common.security.plain.PlainLoginModule"
            if mechanism == "PLAIN"
            else "org.apache.kafka.common.security.scram.ScramLoginModule"
        )
        conf.update(
            {
                "sasl.mechanism": mechanism,
                "sasl.jaas.config": f'{module} required username="{user}" password="{password}";',
            }
        )
    if protocol.endswith("SSL"):
        conf.update({"ssl.truststore.type": "PEM", "ssl.truststore.location": pki.ca})
    if certificate:
        # a PEM key store is one file: the private key, then the certificate
        combined = tmp_path / "client-keystore.pem"
        combined.write_text(open(pki.client_key).read() + open(pki.client_cert).read())
        conf.update({"ssl.keystore.type": "PEM", "ssl.keystore.location": str(combined)})
    return conf


@pytest.mark.kafka
@pytest.mark.backends("cython")
@pytest.mark.timeout(300)
@pytest.mark.parametrize("setting", sorted(SETTINGS))
def test_java_client_produces_and_consumes_securely(pki, tmp_path, setting):
    s = SETTINGS[setting]
    with _broker(s["protocol"], pki) as broker:
        config = java_config(
            s["protocol"],
            pki,
            mechanism=s["mechanism"],
            certificate=s["protocol"] == "SSL",
            tmp_path=tmp_path,
        )
        _produce_and_consume(broker, "java", config, f"java-{setting}".lower())
        if s["mechanism"]:
            assert {(m, p) for _c, m, p in broker.authentications} == {(s["mechanism"], "alice")}


@pytest.mark.kafka
@pytest.mark.backends("cython")
@pytest.mark.timeout(300)
def test_java_client_refusals(pki, tmp_path):
    with _broker("SASL_SSL", pki) as broker:
        said = _refused_produce(
            broker.bootstrap_servers,
            "java",
            java_config("SASL_SSL", pki, mechanism="SCRAM-SHA-512", password="wrong"),
            "java-wrong",
        )
        assert "SaslAuthenticationException" in said and "SASL mechanism SCRAM-SHA-512" in said
        said = _refused_produce(
            broker.bootstrap_servers,
            "java",
            java_config("SASL_SSL", pki, mechanism="PLAIN", user="mallory", password="x"),
            "java-unknown",
        )
        assert "SaslAuthenticationException" in said and "Invalid username or password" in said
        assert _nothing_written(broker, "java-wrong") and _nothing_written(broker, "java-unknown")
    with _broker("SASL_PLAINTEXT", pki, acl_enforce=True) as broker:
        broker.call(lambda: broker.storage.create_topic("java-denied", 1))
        said = _refused_produce(
            broker.bootstrap_servers,
            "java",
            java_config("SASL_PLAINTEXT", pki, mechanism="SCRAM-SHA-256"),
            "java-denied",
        )
        assert "TopicAuthorizationException" in said
        assert _nothing_written(broker, "java-denied")


def _librdkafka_auth_errors(said: str):
    """librdkafka's authentication error texts, without the broker address and timing."""
    import re

    return sorted(
        {m.group(1) for m in re.finditer(r"SASL authentication error: (.*?)(?: \(after \d+ms|\")", said)}
    )


@pytest.mark.kafka
@pytest.mark.backends("cython")
@pytest.mark.timeout(300)
@pytest.mark.parametrize("mechanism", ["PLAIN", "SCRAM-SHA-256", "SCRAM-SHA-512"])
def test_librdkafka_refusal_is_the_same_from_kafka_and_the_test_broker(kafka_broker, pki, mechanism):
    """The real broker is the reference for what a refusal looks like to librdkafka."""
    config = client_config(
        "confluent", "SASL_PLAINTEXT", pki, mechanism=mechanism, user="alice", password="wrong"
    )
    with _broker("SASL_PLAINTEXT", pki) as ours:
        from_ours = _librdkafka_auth_errors(
            _refused_produce(ours.bootstrap_servers, "confluent", config, "refused")
        )
    from_kafka = _librdkafka_auth_errors(
        _refused_produce(kafka_broker.sasl_bootstrap_servers, "confluent", config, "refused")
    )
    assert from_kafka and from_ours == from_kafka


@pytest.mark.backends("cython")
@pytest.mark.timeout(240)
@pytest.mark.parametrize("mechanism", ["PLAIN", "SCRAM-SHA-256"])
def test_legacy_client_sends_bare_sasl_tokens(pki, mechanism):
    """kafka-python pinned to a broker older than 1.0 (0.11: Kafka 4 has no older Produce)
    uses SaslHandshake v0 and then bare, size-prefixed tokens: the test broker reads them
    without a Kafka header.  (librdkafka asks ApiVersions on a SASL connection even when
    pinned, and so uses v1.)"""
    with _broker("SASL_PLAINTEXT", pki) as broker:
        topic = f"legacy-{mechanism}".lower()
        broker.call(lambda: broker.storage.create_topic(topic, 1))
        config = client_config(
            "kafka-python", "SASL_PLAINTEXT", pki, mechanism=mechanism, user="alice", password=USERS["alice"]
        )
        records = make_records(topic, 0, 4, 1, headers=False)
        result = run_client(
            {
                "client": "kafka-python",
                "op": "produce",
                "bootstrap": broker.bootstrap_servers,
                "topic": topic,
                "records": to_json(records),
                "config": config,
                "api_version": [0, 11],
            },
            timeout=90,
        )
        assert result["delivered"] == 4 and result["failures"] == []
        assert broker.versions_seen[17] == {0}  # SaslHandshake v0 only
        assert 36 not in broker.versions_seen  # no SaslAuthenticate
        assert {(m, p) for _c, m, p in broker.authentications} == {(mechanism, "alice")}
        assert len(broker.topic_records(topic)[0]) == 4
