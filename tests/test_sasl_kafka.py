"""kafkawire.sasl's client side against the real Apache Kafka 4.4 broker: PLAIN,
SCRAM-SHA-256 and SCRAM-SHA-512, over SaslHandshake v1 + SaslAuthenticate and over the
legacy v0 bare tokens; SCRAM users made at format time (``kafka-storage format
--add-scram``) and at run time with AlterUserScramCredentials from a salted password
that kafkawire computed; and what each refusal looks like on the wire, compared with
kafkawire's test broker."""
from __future__ import annotations

import socket
import time

import pytest

import kafkawire
from kafkawire import messages as M
from kafkawire import sasl
from kafkawire.broker import Broker
from kafkawire.errors import SaslAuthenticationError, SaslMechanismError
from kafkawire.framing import FrameReader

pytestmark = pytest.mark.kafka

MECHANISMS = ["PLAIN", "SCRAM-SHA-256", "SCRAM-SHA-512"]


class Conn:
    """A blocking socket to a broker, reads bounded by a timeout."""

    def __init__(self, host: str, port: int) -> None:
        self.sock = socket.create_connection((host, port), timeout=30)
        self.frames = FrameReader()
        self.pending = []
        self.correlation_id = 1000

    def authenticate(self, client: sasl.SaslClient, handshake_version: int = 1) -> sasl.ClientSession:
        session = sasl.ClientSession(client, handshake_version=handshake_version)
        while not session.done:
            out = session.data_to_send()
            if out:
                self.sock.sendall(out)
            data = self.sock.recv(65536)
            if not data:
                session.connection_closed()
            session.receive_data(data)
        return session

    def request(self, message, version: int):
        self.correlation_id += 1
        self.sock.sendall(kafkawire.encode_request(message, version, correlation_id=self.correlation_id,
                                                   client_id="kafkawire-sasl-test"))
        while not self.pending:
            data = self.sock.recv(65536)
            if not data:
                raise ConnectionResetError("the broker closed the connection")
            self.pending.extend(self.frames.feed(data))
        _header, response = kafkawire.decode_response(self.pending.pop(0), message.api_key, version)
        return response

    def raw_request(self, message, version: int) -> bytes:
        """The response payload exactly as the broker sent it."""
        self.correlation_id += 1
        self.sock.sendall(kafkawire.encode_request(message, version, correlation_id=self.correlation_id,
                                                   client_id="kafkawire-sasl-test"))
        while not self.pending:
            data = self.sock.recv(65536)
            if not data:
                raise ConnectionResetError("the broker closed the connection")
            self.pending.extend(self.frames.feed(data))
        return self.pending.pop(0)

    def closed_by_peer(self) -> bool:
        try:
            return self.sock.recv(1) == b""
        except ConnectionResetError:
            return True

    def close(self) -> None:
        self.sock.close()


def _metadata_ok(conn: Conn) -> bool:
    return conn.request(M.MetadataRequest(topics=None), 12).cluster_id is not None


@pytest.mark.parametrize("handshake_version", [0, 1])
@pytest.mark.parametrize("mechanism", MECHANISMS)
def test_kafkawire_client_authenticates_to_kafka(kafka_broker, mechanism, handshake_version):
    conn = Conn(kafka_broker.host, kafka_broker.sasl_port)
    session = conn.authenticate(sasl.client_for(mechanism, "alice", kafka_broker.users["alice"]),
                                handshake_version)
    assert sorted(session.broker_mechanisms) == MECHANISMS
    assert _metadata_ok(conn)  # the connection is now a Kafka connection
    conn.close()


@pytest.mark.parametrize("mechanism", MECHANISMS)
def test_kafka_refuses_a_wrong_password_with_its_message(kafka_broker, mechanism):
    conn = Conn(kafka_broker.host, kafka_broker.sasl_port)
    with pytest.raises(SaslAuthenticationError, match="Authentication failed"):
        conn.authenticate(sasl.client_for(mechanism, "alice", "not-the-password"))
    assert conn.closed_by_peer()


def test_kafka_refuses_a_wrong_password_v0_by_closing(kafka_broker):
    conn = Conn(kafka_broker.host, kafka_broker.sasl_port)
    with pytest.raises(SaslAuthenticationError, match="closed the connection"):
        conn.authenticate(sasl.client_for("SCRAM-SHA-256", "alice", "nope"), handshake_version=0)


def test_kafka_refuses_an_unknown_user(kafka_broker):
    conn = Conn(kafka_broker.host, kafka_broker.sasl_port)
    with pytest.raises(SaslAuthenticationError):
        conn.authenticate(sasl.client_for("SCRAM-SHA-512", "nobody", "x"))


def test_kafka_names_its_mechanisms_for_one_it_lacks(kafka_broker):
    conn = Conn(kafka_broker.host, kafka_broker.sasl_port)
    with pytest.raises(SaslMechanismError, match="does not enable OAUTHBEARER") as refused:
        conn.authenticate(sasl.OAuthBearerClient("token"))
    assert "SCRAM-SHA-512" in str(refused.value)


def test_kafka_closes_a_connection_that_skips_authentication(kafka_broker):
    conn = Conn(kafka_broker.host, kafka_broker.sasl_port)
    with pytest.raises((ConnectionResetError, OSError)):
        conn.request(M.MetadataRequest(topics=None), 12)


@pytest.mark.parametrize("mechanism,code", [("SCRAM-SHA-256", 1), ("SCRAM-SHA-512", 2)])
def test_scram_user_created_with_kafkawire_salted_password(kafka_broker, mechanism, code):
    """AlterUserScramCredentials carries the salted password, not the password: Kafka
    accepts kafkawire's PBKDF2 output and then authenticates kafkawire's SCRAM client."""
    name, password = f"made-{code}", "pässwörd, with = and ,"
    salt, iterations = b"kafkawire-salt-" + bytes([code]), 8192
    admin = Conn(kafka_broker.host, kafka_broker.port)
    A = M.AlterUserScramCredentialsRequest
    resp = admin.request(A(deletions=[], upsertions=[A.ScramCredentialUpsertion(
        name=name, mechanism=code, iterations=iterations, salt=salt,
        salted_password=sasl.salted_password(mechanism, password, salt, iterations))]), 0)
    assert [r.error_code for r in resp.results] == [0]
    # the credential reaches the SASL listener through the metadata log: retry a few times
    for attempt in range(50):
        conn = Conn(kafka_broker.host, kafka_broker.sasl_port)
        try:
            conn.authenticate(sasl.ScramClient(mechanism, name, password))
            break
        except SaslAuthenticationError:
            conn.close()
            if attempt == 49:
                raise
            time.sleep(0.2)
    assert _metadata_ok(conn)
    wrong = Conn(kafka_broker.host, kafka_broker.sasl_port)
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
            conn = Conn(host, port)
            shake = conn.raw_request(M.SaslHandshakeRequest(mechanism=mechanism), 1)
            client = sasl.client_for(mechanism, "alice", "wrong-password")
            token = client.start()
            if mechanism != "PLAIN":  # SCRAM: the first round succeeds, the proof fails
                first = conn.request(M.SaslAuthenticateRequest(auth_bytes=token), 2)
                assert first.error_code == 0
                token = client.receive(bytes(first.auth_bytes))
            refusal = conn.request(M.SaslAuthenticateRequest(auth_bytes=token), 2)
            answers.append((shake, refusal.error_code, bytes(refusal.auth_bytes),
                            refusal.session_lifetime_ms, conn.closed_by_peer(), refusal.error_message))
    (k_shake, *kafka), (o_shake, *ours_) = answers
    k_hs = M.SaslHandshakeResponse.decode(k_shake[4:], 1)
    o_hs = M.SaslHandshakeResponse.decode(o_shake[4:], 1)
    assert (k_hs.error_code, sorted(k_hs.mechanisms)) == (o_hs.error_code, sorted(o_hs.mechanisms))
    assert kafka == ours_
    assert kafka[:4] == [58, b"", 0, True]
