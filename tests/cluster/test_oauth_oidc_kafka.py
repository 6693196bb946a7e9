"""OAUTHBEARER with OpenID Connect client credentials (KIP-768) against a real Kafka 4.4
broker that validates JWTs through the key set of a real OAuth server, Ory Hydra, run
here (``hydra_support``): Hydra issues JWT access tokens to a client of the
client-credentials grant; the broker's SASL listener checks their signature against
Hydra's JWKS endpoint, their issuer and their expiry (not their audience: Kafka's login
asks for none, so Hydra grants none).

Kafka's own Java consumer (``tests/support/kafka/java_clients.py``, logging in through
Hydra with Kafka's ``OAuthBearerLoginCallbackHandler``) is the oracle: ``kafka-cluster``
reads the same topic with the same options and must give the same records.  Hydra's tokens live 20
seconds here, so a connection outlives several of them: the broker gives each session
the token's remaining life, and the client must re-authenticate on the same connection
(KIP-368) with a token fetched again before the old one expires.
"""

from __future__ import annotations

import random
import time
import uuid

import pytest

from kafkawire.cluster.client import LATEST, Cluster

from kafkawire.cluster.config import ClientConfig, client_settings
from kafkawire.errors import SaslLoginError
from kafkawire.sasl import oauth

pytestmark = [pytest.mark.kafka]

TOKEN_TTL = 20  # seconds Hydra's access tokens live
HANDLER = "org.apache.kafka.common.security.oauthbearer.OAuthBearerLoginCallbackHandler"
LOGIN_MODULE = "org.apache.kafka.common.security.oauthbearer.OAuthBearerLoginModule"
ALLOWED_URLS = "org.apache.kafka.sasl.oauthbearer.allowed.urls"


@pytest.fixture(scope="module")
def hydra():
    from support.hydra import require_hydra, start_server

    require_hydra()
    server = start_server(ttl=TOKEN_TTL)
    try:
        yield server
    finally:
        server.stop()


@pytest.fixture(scope="module")
def oidc_broker(hydra):
    """A broker whose SASL_PLAINTEXT listener also takes OAUTHBEARER, validating tokens
    with Hydra's keys."""
    from support.kafka.jars import require_kafka

    require_kafka()
    from support.kafka.broker import start_broker

    broker = start_broker(
        extra_properties={
            "sasl.enabled.mechanisms": "PLAIN,SCRAM-SHA-256,SCRAM-SHA-512,OAUTHBEARER",
            "listener.name.sasl_plaintext.oauthbearer.sasl.jaas.config": f"{LOGIN_MODULE} required;",
            "listener.name.sasl_plaintext.oauthbearer.sasl.server.callback.handler.class": (
                "org.apache.kafka.common.security.oauthbearer.OAuthBearerValidatorCallbackHandler"
            ),
            "sasl.oauthbearer.jwks.endpoint.url": hydra.jwks_endpoint,
            "sasl.oauthbearer.expected.issuer": hydra.issuer,
            # Kafka's login asks no audience of the server, and Hydra then grants none
            "sasl.oauthbearer.allow.unverified.audience": "true",
        },
        jvm_options=(f"-D{ALLOWED_URLS}={hydra.jwks_endpoint},{hydra.token_endpoint}",),
    )
    try:
        yield broker
    finally:
        broker.stop()


def oidc_options(broker, hydra, client, **extra) -> dict:
    jaas = (
        f'{LOGIN_MODULE} required clientId="{client["client_id"]}" '
        f'clientSecret="{client["client_secret"]}" scope="kafka";'
    )
    return {
        "kafka.bootstrap.servers": broker.sasl_bootstrap_servers,
        "kafka.security.protocol": "SASL_PLAINTEXT",
        "kafka.sasl.mechanism": "OAUTHBEARER",
        "kafka.sasl.login.callback.handler.class": HANDLER,
        "kafka.sasl.oauthbearer.token.endpoint.url": hydra.token_endpoint,
        "kafka.sasl.jaas.config": jaas,
        **extra,
    }


def cluster_config(options: dict) -> ClientConfig:
    return ClientConfig.parse(client_settings({k.lower(): v for k, v in options.items()}))


@pytest.fixture(scope="module")
def topic(oidc_broker):
    """A topic of 3 partitions holding random records (keys, values, headers, nulls)."""
    from confluent_kafka import Producer
    from test_spark_kafka_cluster import create_topic

    name = f"kw-oidc-{uuid.uuid4().hex[:8]}"
    create_topic(oidc_broker.bootstrap_servers, name, 3)
    rng = random.Random()
    producer = Producer({"bootstrap.servers": oidc_broker.bootstrap_servers, "linger.ms": 5})
    for i in range(300):
        key = None if rng.random() < 0.2 else rng.randbytes(rng.randrange(1, 20))
        value = None if rng.random() < 0.1 else rng.randbytes(rng.randrange(0, 300))
        headers = [(f"h{j}", rng.randbytes(rng.randrange(0, 8))) for j in range(rng.randrange(0, 3))]
        producer.produce(name, key=key, value=value, headers=headers, partition=i % 3)
    assert producer.flush(30) == 0
    return name


@pytest.mark.spark
def test_kafkas_java_consumer_and_kafka_cluster_log_in_through_hydra_and_read_the_same(
    spark, oidc_broker, hydra, topic, backend
):
    from support.kafka.java_clients import run_java

    options = oidc_options(oidc_broker, hydra, hydra.add_client(), subscribe=topic, includeHeaders="true")
    java = run_java(
        {
            "op": "consume",
            "bootstrap": oidc_broker.sasl_bootstrap_servers,
            "config": {
                k[len("kafka.") :]: v
                for k, v in options.items()
                if k.startswith("kafka.sasl.") or k == "kafka.security.protocol"
            },
            "group": f"kw-oidc-java-{uuid.uuid4().hex[:8]}",
            "topics": [topic],
            "expect": 300,
            "commit": False,
        },
        timeout=180,
        # Kafka's client asks only the token endpoints this property lists
        jvm_options=(f"-D{ALLOWED_URLS}={hydra.token_endpoint}",),
    )
    hex_or_none = lambda b: None if b is None else bytes(b).hex()  # noqa: E731
    expected = sorted(
        (r["partition"], r["offset"], r["key"], r["value"], r["timestamp"], [tuple(h) for h in r["headers"]])
        for r in java["records"]
    )
    reader = spark.read.format("kafka-cluster")
    for k, v in {**options, "backend": backend}.items():
        reader = reader.option(k, v)
    ours = sorted(
        (
            r.partition,
            r.offset,
            hex_or_none(r.key),
            hex_or_none(r.value),
            int(r.timestamp.timestamp() * 1000),
            [(h.key, hex_or_none(h.value)) for h in r.headers or []],
        )
        for r in reader.load().collect()
    )
    assert len(expected) == 300
    assert ours == expected


def test_a_connection_outliving_its_tokens_re_authenticates_with_fresh_ones(
    oidc_broker, hydra, topic, backend
):
    options = oidc_options(
        oidc_broker,
        hydra,
        hydra.add_client(),
        # Kafka's refresh settings: no floor or buffer around a 20-second token
        **{
            "kafka.sasl.login.refresh.min.period.seconds": "0",
            "kafka.sasl.login.refresh.buffer.seconds": "0",
        },
    )
    config = cluster_config(options)
    login = config.sasl_login
    assert isinstance(login, oauth.TokenLogin)
    tokens = set()
    deadline = time.monotonic() + 10 * TOKEN_TTL  # bounds the loop; not asserted
    with Cluster(config) as cluster:
        ends = cluster.list_offsets({(topic, p): LATEST for p in range(3)})
        assert sum(offset for offset, _ in ends.values()) == 300
        connections = dict(cluster.aio._connections)
        while (cluster.reauthentications < 3 or len(tokens) < 3) and time.monotonic() < deadline:
            tokens.add(oauth.current_token(login).value)
            assert cluster.list_offsets({(topic, p): LATEST for p in range(3)}) == ends
            time.sleep(0.5)
        # every request went on the connections first opened: none was dropped by the
        # broker for an expired session, each session renewed with a token Hydra issued
        assert cluster.aio._connections == connections
        assert cluster.reauthentications >= 3
    assert len(tokens) >= 3


def test_a_wrong_client_secret_is_a_login_error_naming_the_endpoint(oidc_broker, hydra, backend):
    client = dict(hydra.add_client(), client_secret="not-the-secret")
    config = cluster_config(oidc_options(oidc_broker, hydra, client))
    with Cluster(config) as cluster, pytest.raises(SaslLoginError, match=r"oauth2/token answered HTTP 401"):
        cluster.topics()


def test_a_token_from_a_file_url_logs_in(oidc_broker, hydra, topic, tmp_path, backend):
    # Kafka's client reads a token from a file: URL as it stands; fetch one from Hydra
    client = hydra.add_client()
    fetched = oauth.current_token(
        oauth.TokenLogin(hydra.token_endpoint, client["client_id"], client["client_secret"], scope="kafka")
    )
    path = tmp_path / "token.jwt"
    path.write_text(fetched.value + "\n")
    options = oidc_options(
        oidc_broker, hydra, client, **{"kafka.sasl.oauthbearer.token.endpoint.url": path.as_uri()}
    )
    options["kafka.sasl.jaas.config"] = f"{LOGIN_MODULE} required;"
    with Cluster(cluster_config(options)) as cluster:
        assert topic in cluster.topics()


def test_strimzis_jaas_options_log_in_through_the_same_server(oidc_broker, hydra, topic, backend):
    client = hydra.add_client()
    options = oidc_options(oidc_broker, hydra, client)
    del options["kafka.sasl.oauthbearer.token.endpoint.url"]
    options["kafka.sasl.login.callback.handler.class"] = (
        "io.strimzi.kafka.oauth.client.JaasClientOauthLoginCallbackHandler"
    )
    options["kafka.sasl.jaas.config"] = (
        f'{LOGIN_MODULE} required oauth.token.endpoint.uri="{hydra.token_endpoint}" '
        f'oauth.client.id="{client["client_id"]}" oauth.client.secret="{client["client_secret"]}" oauth.scope="kafka";'
    )
    with Cluster(cluster_config(options)) as cluster:
        assert topic in cluster.topics()
