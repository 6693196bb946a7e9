"""kafkawire's OAUTHBEARER client against a real Kafka 4.4 broker whose SASL listener
also enables OAUTHBEARER with Kafka's default validator for unsecured JWTs (``alg:
none``, a ``sub`` and an ``exp`` claim): a valid token authenticates (with SASL
extensions in the initial response), an expired one gets Kafka's JSON error reply,
which the client answers with ``\\x01`` before the broker refuses."""

from __future__ import annotations

import base64
import json

import pytest

from kafkawire.protocol import messages as M
from kafkawire import sasl
from kafkawire.errors import SaslAuthenticationError

from support.blocking_client import BlockingClient

pytestmark = [pytest.mark.kafka, pytest.mark.in_process]

FAR_FUTURE = 4102444800  # 2100-01-01: fixed claims, no clock in the test


@pytest.fixture(scope="module")
def oauth_kafka():
    from support.kafka.broker import start_broker

    broker = start_broker(
        extra_properties={
            "sasl.enabled.mechanisms": "PLAIN,SCRAM-SHA-256,SCRAM-SHA-512,OAUTHBEARER",
            "listener.name.sasl_plaintext.oauthbearer.sasl.jaas.config": "org.apache.kafka.common.security.oauthbearer.OAuthBearerLoginModule required;",
        }
    )
    try:
        yield broker
    finally:
        broker.stop()


def unsecured_jwt(claims: dict) -> str:
    def part(obj) -> str:
        return base64.urlsafe_b64encode(json.dumps(obj).encode()).rstrip(b"=").decode()

    return f"{part({'alg': 'none'})}.{part(claims)}."


def test_oauthbearer_token_authenticates(oauth_kafka):
    conn = BlockingClient((oauth_kafka.host, oauth_kafka.sasl_port))
    token = unsecured_jwt({"sub": "alice", "iat": 1700000000, "exp": FAR_FUTURE})
    client = sasl.OAuthBearerClient(token, extensions={"traceId": "kafkawire-1"})
    session = conn.authenticate(client)
    assert client.complete and client.error is None
    assert "OAUTHBEARER" in session.broker_mechanisms
    assert conn.request(M.MetadataRequest(topics=None), 12).cluster_id == oauth_kafka.cluster_id


def test_oauthbearer_expired_token_gets_the_json_error_reply(oauth_kafka):
    conn = BlockingClient((oauth_kafka.host, oauth_kafka.sasl_port))
    client = sasl.OAuthBearerClient(unsecured_jwt({"sub": "alice", "iat": 1000, "exp": 2000}))
    with pytest.raises(SaslAuthenticationError):
        conn.authenticate(client)
    assert client.error is not None and client.error["status"] == "invalid_token"
