"""kafkawire's SASL client side against the real Apache Kafka 4.4 broker, through
kafkawire.connection.ClientConnection (and kafkawire.aio on top of it): PLAIN,
SCRAM-SHA-256 and SCRAM-SHA-512, over SaslHandshake v1 + SaslAuthenticate and over the
legacy v0 bare tokens, then requests pipelined on the authenticated connection; SCRAM
users made at format time (``kafka-storage format --add-scram``) and at run time with
AlterUserScramCredentials from a salted password that kafkawire computed; and what each
refusal looks like on the wire, compared with kafkawire's test broker."""

from __future__ import annotations

import asyncio
import time

import pytest

from kafkawire.protocol import messages as M
from kafkawire import sasl
from kafkawire.aio import open_connection
from kafkawire.broker import Broker
from kafkawire.connection import ClientPhase
from kafkawire.errors import (
    AuthenticationRequiredError,
    ConnectionClosedError,
    SaslAuthenticationError,
    SaslMechanismError,
)

from support.blocking_client import BlockingClient

pytestmark = [pytest.mark.kafka, pytest.mark.in_process]

MECHANISMS = ["PLAIN", "SCRAM-SHA-256", "SCRAM-SHA-512"]


def _metadata_ok(conn: BlockingClient) -> bool:
    return conn.request(M.MetadataRequest(topics=None), 12).cluster_id is not None


def _sasl_client(kafka_broker, **kw) -> BlockingClient:
    return BlockingClient((kafka_broker.host, kafka_broker.sasl_port), **kw)


@pytest.mark.parametrize("handshake_version", [0, 1])
@pytest.mark.parametrize("mechanism", MECHANISMS)
def test_kafkawire_client_authenticates_to_kafka(kafka_broker, mechanism, handshake_version):
    """ApiVersions, SASL, then five requests pipelined: one ClientConnection throughout."""
    conn = _sasl_client(
        kafka_broker, sasl=sasl.client_for(mechanism, "alice", kafka_broker.users["alice"]), max_in_flight=5
    )
    conn.negotiate()
    assert conn.conn.phase is ClientPhase.UNAUTHENTICATED
    with pytest.raises(AuthenticationRequiredError):
        conn.conn.send(M.MetadataRequest(topics=None))
    done = conn.authenticate(handshake_version=handshake_version)
    assert (done.mechanism, done.handshake_version) == (mechanism, handshake_version)
    assert sorted(done.broker_mechanisms) == MECHANISMS
    assert conn.conn.phase is ClientPhase.READY
    names = [f"sasl-{mechanism}-{handshake_version}-{i}".lower() for i in range(5)]
    events = conn.pipeline_events(
        [
            M.MetadataRequest(
                topics=[M.MetadataRequest.MetadataRequestTopic(name=n)], allow_auto_topic_creation=False
            )
            for n in names
        ]
    )
    assert [e.message.topics[0].name for e in events] == names
    assert [e.version for e in events] == [conn.conn.negotiated[3]] * 5
    assert all(e.message.cluster_id == kafka_broker.cluster_id for e in events)
    conn.close()


def test_sasl_requests_take_the_next_correlation_ids(kafka_broker):
    """SaslHandshake and each SaslAuthenticate are numbered like any other request."""
    conn = _sasl_client(
        kafka_broker, sasl=sasl.client_for("SCRAM-SHA-256", "alice", kafka_broker.users["alice"])
    )
    first = conn.negotiate().correlation_id
    conn.authenticate()
    # handshake, client-first, client-final: three ids after ApiVersions
    assert conn.conn.next_correlation_id == first + 4
    assert conn.request(M.MetadataRequest(topics=None)).cluster_id == kafka_broker.cluster_id


@pytest.mark.parametrize("mechanism", MECHANISMS)
def test_kafka_refuses_a_wrong_password_with_its_message(kafka_broker, mechanism):
    conn = _sasl_client(kafka_broker)
    with pytest.raises(SaslAuthenticationError, match="Authentication failed"):
        conn.login(mechanism, "alice", "not-the-password")
    assert conn.conn.phase is ClientPhase.CLOSED
    assert conn.closed_by_peer()


@pytest.mark.parametrize("mechanism", MECHANISMS)
def test_kafka_refuses_a_wrong_password_v0_by_closing(kafka_broker, mechanism):
    conn = _sasl_client(kafka_broker)
    with pytest.raises(SaslAuthenticationError, match="closed the connection during SASL"):
        conn.login(mechanism, "alice", "nope", handshake_version=0)


def test_kafka_refuses_an_unknown_user(kafka_broker):
    conn = _sasl_client(kafka_broker)
    with pytest.raises(SaslAuthenticationError):
        conn.login("SCRAM-SHA-512", "nobody", "x")


def test_kafka_names_its_mechanisms_for_one_it_lacks(kafka_broker):
    conn = _sasl_client(kafka_broker)
    with pytest.raises(SaslMechanismError, match="does not enable OAUTHBEARER") as refused:
        conn.authenticate(sasl.OAuthBearerClient("token"))
    assert "SCRAM-SHA-512" in str(refused.value)


def test_kafka_closes_a_connection_that_skips_authentication(kafka_broker):
    conn = _sasl_client(kafka_broker)  # no sasl=: the connection lets the request go
    with pytest.raises((ConnectionClosedError, OSError)):
        conn.request(M.MetadataRequest(topics=None), 12)


@pytest.mark.parametrize("handshake_version", [0, 1])
@pytest.mark.parametrize("mechanism", ["PLAIN", "SCRAM-SHA-512"])
def test_aio_open_connection_authenticates_to_kafka(kafka_broker, mechanism, handshake_version):
    async def main():
        async with await open_connection(
            kafka_broker.host,
            kafka_broker.sasl_port,
            client_id="aio-sasl",
            sasl_mechanism=mechanism,
            sasl_username="alice",
            sasl_password=kafka_broker.users["alice"],
            sasl_handshake_version=handshake_version,
            timeout=60,
        ) as conn:
            assert conn.authentication.mechanism == mechanism
            events = await asyncio.gather(*(conn.request(M.MetadataRequest(topics=None)) for _ in range(8)))
            assert {e.message.cluster_id for e in events} == {kafka_broker.cluster_id}
            assert len({e.correlation_id for e in events}) == 8
        with pytest.raises(SaslAuthenticationError):
            await open_connection(
                kafka_broker.host,
                kafka_broker.sasl_port,
                sasl_mechanism=mechanism,
                sasl_username="alice",
                sasl_password="wrong",
                sasl_handshake_version=handshake_version,
                timeout=60,
            )

    asyncio.run(main())


@pytest.mark.parametrize("mechanism,code", [("SCRAM-SHA-256", 1), ("SCRAM-SHA-512", 2)])
def test_scram_user_created_with_kafkawire_salted_password(kafka_broker, mechanism, code):
    """AlterUserScramCredentials carries the salted password, not the password: Kafka
    accepts kafkawire's PBKDF2 output and then authenticates kafkawire's SCRAM client."""
    name, password = f"made-{code}", "pässwörd, with = and ,"
    salt, iterations = b"kafkawire-salt-" + bytes([code]), 8192
    admin = BlockingClient((kafka_broker.host, kafka_broker.port))
    A = M.AlterUserScramCredentialsRequest
    resp = admin.request(
        A(
            deletions=[],
            upsertions=[
                A.ScramCredentialUpsertion(
                    name=name,
                    mechanism=code,
                    iterations=iterations,
                    salt=salt,
                    salted_password=sasl.salted_password(mechanism, password, salt, iterations),
                )
            ],
        ),
        0,
    )
    assert [r.error_code for r in resp.results] == [0]
    # the credential reaches the SASL listener through the metadata log: retry a few times
    for attempt in range(50):
        conn = _sasl_client(kafka_broker)
        try:
            conn.authenticate(sasl.ScramClient(mechanism, name, password))
            break
        except SaslAuthenticationError:
            conn.close()
            if attempt == 49:
                raise
            time.sleep(0.2)
    assert _metadata_ok(conn)
    wrong = _sasl_client(kafka_broker)
    with pytest.raises(SaslAuthenticationError):
        wrong.authenticate(sasl.ScramClient(mechanism, name, password + "x"))


@pytest.mark.parametrize("mechanism", MECHANISMS)
def test_refusals_look_the_same_from_kafka_and_the_test_broker(kafka_broker, mechanism):
    """A wrong password, byte for byte where Kafka's answer does not depend on the
    broker: SaslHandshake's answer, then SaslAuthenticate's error code, no auth bytes,
    the same message, and then a closed connection."""
    answers = []
    with Broker(security_protocol="SASL_PLAINTEXT", users=kafka_broker.users) as ours:
        for host, port in ((kafka_broker.host, kafka_broker.sasl_port), (ours.host, ours.port)):
            conn = BlockingClient((host, port))
            shake = conn.request(M.SaslHandshakeRequest(mechanism=mechanism), 1)
            client = sasl.client_for(mechanism, "alice", "wrong-password")
            token = client.start()
            if mechanism != "PLAIN":  # SCRAM: the first round succeeds, the proof fails
                first = conn.request(M.SaslAuthenticateRequest(auth_bytes=token), 2)
                assert first.error_code == 0
                token = client.receive(bytes(first.auth_bytes))
            refusal = conn.request(M.SaslAuthenticateRequest(auth_bytes=token), 2)
            answers.append(
                (
                    (shake.error_code, sorted(shake.mechanisms)),
                    refusal.error_code,
                    bytes(refusal.auth_bytes),
                    refusal.session_lifetime_ms,
                    conn.closed_by_peer(),
                    refusal.error_message,
                )
            )
    (k_shake, *kafka), (o_shake, *ours_) = answers
    assert k_shake == o_shake
    assert kafka == ours_
    assert kafka[:4] == [58, b"", 0, True]
