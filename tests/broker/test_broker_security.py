"""The test broker's security: SASL (PLAIN, SCRAM-SHA-256/512; SaslHandshake v0 and v1),
TLS with and without client certificates, KIP-368 session lifetimes, and ACLs (CreateAcls,
DescribeAcls, DeleteAcls, and the *_AUTHORIZATION_FAILED answers under ``acl_enforce``),
and a frame log that withholds the SASL tokens.

The client side here is kafkawire.connection.ClientConnection on a blocking socket
(tests/support/blocking_client.py), authenticating with kafkawire.sasl's mechanisms; real
clients (librdkafka, kafka-python, aiokafka) are in test_security_clients.py.
"""

from __future__ import annotations

import base64
import json
import ssl
import time

import pytest

import kafkawire
from kafkawire.protocol import messages as M
from kafkawire.protocol import records as R
from kafkawire.broker import Broker
from kafkawire.broker import acls as A
from kafkawire.connection import ClientPhase
from kafkawire.errors import ConnectionClosedError, SaslAuthenticationError, SaslMechanismError

from support.blocking_client import BlockingClient
from test_broker_protocol import Client
from support.tls_certs import CLIENT_PRINCIPAL, make_pki

USERS = {"alice": "alice-secret", "bob": "bob-secret", "admin": "admin-secret"}


@pytest.fixture(scope="module")
def pki(tmp_path_factory):
    return make_pki(tmp_path_factory.mktemp("pki"))


def metadata(wire: BlockingClient, topics=None, version: int = 12):
    req = M.MetadataRequest(
        topics=None if topics is None else [M.MetadataRequest.MetadataRequestTopic(name=t) for t in topics],
        allow_auto_topic_creation=True,
    )
    return wire.request(req, version)


def produce(wire: BlockingClient, topic: str, version: int = 9):
    batch = R.encode_batch([{"key": b"k", "value": b"v", "timestamp": 1700000000000}])
    PR = M.ProduceRequest
    req = PR(
        acks=-1,
        timeout_ms=5000,
        topic_data=[
            PR.TopicProduceData(name=topic, partition_data=[PR.PartitionProduceData(index=0, records=batch)])
        ],
    )
    return wire.request(req, version).responses[0].partition_responses[0].error_code


def fetch_error(wire: BlockingClient, topic: str, version: int = 12):
    FR = M.FetchRequest
    req = FR(
        replica_id=-1,
        max_wait_ms=0,
        min_bytes=0,
        max_bytes=1 << 20,
        isolation_level=0,
        topics=[
            FR.FetchTopic(
                topic=topic,
                partitions=[FR.FetchPartition(partition=0, fetch_offset=0, partition_max_bytes=1 << 20)],
            )
        ],
    )
    return wire.request(req, version).responses[0].partitions[0].error_code


@pytest.fixture
def sasl_broker():
    with Broker(security_protocol="SASL_PLAINTEXT", users=USERS, check_roundtrip=True) as b:
        yield b
        assert b.handler_errors == [] and b.roundtrip_failures == []


@pytest.mark.parametrize("handshake_version", [0, 1])
@pytest.mark.parametrize("mechanism", ["PLAIN", "SCRAM-SHA-256", "SCRAM-SHA-512"])
def test_sasl_plaintext_authenticates_then_serves(sasl_broker, mechanism, handshake_version):
    wire = BlockingClient(sasl_broker)
    session = wire.login(mechanism, "alice", "alice-secret", handshake_version)
    assert session.broker_mechanisms == ["PLAIN", "SCRAM-SHA-256", "SCRAM-SHA-512"]
    assert metadata(wire, ["t1"]).topics[0].error_code == 0
    assert produce(wire, "t1") == 0
    wire.close()
    assert sasl_broker.authentications == [(1, mechanism, "alice")]


@pytest.mark.parametrize("mechanism", ["PLAIN", "SCRAM-SHA-256", "SCRAM-SHA-512"])
def test_wrong_password_or_unknown_user_is_refused_and_closed(sasl_broker, mechanism):
    for user, password in (("alice", "wrong"), ("mallory", "alice-secret")):
        wire = BlockingClient(sasl_broker)
        with pytest.raises(SaslAuthenticationError, match="Authentication failed"):
            wire.login(mechanism, user, password)
        assert wire.closed_by_peer()
    wire = BlockingClient(sasl_broker)
    with pytest.raises(SaslAuthenticationError, match="closed the connection"):
        wire.login(mechanism, "alice", "wrong", handshake_version=0)
    assert [a[2] for a in sasl_broker.authentications] == [None, None, None]


def test_only_api_versions_and_sasl_before_authentication(sasl_broker):
    wire = BlockingClient(sasl_broker)
    versions = wire.request(M.ApiVersionsRequest(client_software_name="t", client_software_version="1"), 3)
    keys = {a.api_key for a in versions.api_keys}
    assert {17, 36, 29, 30, 31} <= keys
    with pytest.raises(ConnectionClosedError, match="broker closed the connection"):
        metadata(wire)
    assert "before SASL authentication" in sasl_broker.closed_connections[-1][1]


def test_unsupported_mechanism_lists_the_enabled_ones():
    with Broker(security_protocol="SASL_PLAINTEXT", users=USERS, sasl_mechanisms=["SCRAM-SHA-512"]) as b:
        wire = BlockingClient(b)
        with pytest.raises(SaslMechanismError, match="offers SCRAM-SHA-512"):
            wire.login("PLAIN", "alice", "alice-secret")
        assert wire.closed_by_peer()


def test_session_lifetime_is_reported_and_expiry_closes_the_connection():
    with Broker(security_protocol="SASL_PLAINTEXT", users=USERS, session_lifetime_ms=1) as b:
        wire = BlockingClient(b)
        assert wire.login("SCRAM-SHA-256", "alice", "alice-secret").session_lifetime_ms == 1
        time.sleep(0.05)  # well past the 1 ms lifetime
        with pytest.raises(ConnectionClosedError, match="broker closed the connection"):
            metadata(wire)
        assert "expired" in b.closed_connections[-1][1]


def test_reauthentication_keeps_the_connection_and_the_principal():
    with Broker(security_protocol="SASL_PLAINTEXT", users=USERS, session_lifetime_ms=600000) as b:
        wire = BlockingClient(b)
        assert wire.login("PLAIN", "alice", "alice-secret").session_lifetime_ms == 600000
        wire.login("PLAIN", "alice", "alice-secret")  # KIP-368 re-authentication
        assert metadata(wire, ["after-reauthentication"]).topics[0].error_code == 0
        with pytest.raises(
            SaslAuthenticationError,
            match="Cannot change principals during re-authentication from User.alice: User.bob",
        ):
            wire.login("PLAIN", "bob", "bob-secret")
        assert wire.closed_by_peer()
        wire = BlockingClient(b)
        wire.login("PLAIN", "alice", "alice-secret")
        with pytest.raises(
            SaslAuthenticationError,
            match="SASL mechanism 'SCRAM-SHA-256' requested "
            "by client is not supported for re-authentication of mechanism 'PLAIN'",
        ):
            wire.login("SCRAM-SHA-256", "alice", "alice-secret")
        assert wire.closed_by_peer()


@pytest.mark.parametrize("handshake_version", [0, 1])
def test_the_frame_log_withholds_the_sasl_credentials(handshake_version):
    entries: list = []
    with Broker(security_protocol="SASL_PLAINTEXT", users=USERS, frame_log=entries.append) as b:
        wire = BlockingClient(b)
        wire.login("PLAIN", "alice", "alice-secret", handshake_version)
        assert metadata(wire, ["after-login"]).topics[0].error_code == 0
        wire.close()
    logged = json.dumps(entries)
    token = b"\x00alice\x00alice-secret"
    for secret in ("alice-secret", b"alice-secret".hex(), base64.b64encode(token).decode()):
        assert secret not in logged
    assert "MetadataRequest" in logged
    authenticate = [e for e in entries if e["api_name"] == "SaslAuthenticateRequest"]
    assert len(authenticate) == (1 if handshake_version else 0)  # v0 tokens are bare frames
    for entry in authenticate:
        assert entry["body"]["auth_bytes"] == f"<{len(token)} bytes withheld>"
        _, request = kafkawire.decode_request(bytes.fromhex(entry["hex"]))
        assert request.auth_bytes == bytes(len(token))


def test_a_sasl_token_not_byte_exact_is_logged_without_its_hex():
    token = b"\x00alice\x00alice-secret"
    frame = kafkawire.encode_request(M.SaslAuthenticateRequest(auth_bytes=token), 2, 2, "x")
    length = bytes([len(token) + 1])  # compact bytes: the length plus one, one varint byte
    assert frame.count(length + token) == 1
    padded = frame[4:].replace(length + token, bytes([length[0] | 0x80, 0]) + token)  # same varint, 2 bytes
    entries: list = []
    with Broker(security_protocol="SASL_PLAINTEXT", users=USERS, frame_log=entries.append) as b:
        wire = Client(b, client_id="x")
        try:
            assert wire.request(M.SaslHandshakeRequest(mechanism="PLAIN"), 1).error_code == 0
            wire.sock.sendall(len(padded).to_bytes(4, "big") + padded)
            _, answer = kafkawire.decode_response(wire.recv_frame(), 36, 2)
            assert answer.error_code == 0
        finally:
            wire.close()
    (entry,) = [e for e in entries if e["api_name"] == "SaslAuthenticateRequest"]
    assert entry["roundtrip"] is False and "hex" not in entry
    assert entry["body"]["auth_bytes"] == f"<{len(token)} bytes withheld>"
    assert "alice-secret" not in json.dumps(entries)


def test_sasl_on_a_plaintext_listener_is_an_illegal_state():
    with Broker() as b:
        wire = BlockingClient(b)
        resp = wire.request(M.SaslHandshakeRequest(mechanism="PLAIN"), 1)
        assert resp.error_code == 34 and resp.mechanisms == []  # ILLEGAL_SASL_STATE


# -- TLS -------------------------------------------------------------------------------------


def _client_context(pki, with_certificate: bool) -> ssl.SSLContext:
    ctx = ssl.create_default_context(cafile=pki.ca)
    if with_certificate:
        ctx.load_cert_chain(pki.client_cert, pki.client_key)
    return ctx


def _principal_of_last_connection(b: Broker, wire: BlockingClient) -> str:
    return b.call(lambda: next(iter(b.connections.values())).principal)


def test_ssl_listener_without_client_certificates(pki):
    with Broker(security_protocol="SSL", ssl_certfile=pki.server_cert, ssl_keyfile=pki.server_key) as b:
        wire = BlockingClient(b, _client_context(pki, False))
        assert metadata(wire, ["tls"]).topics[0].error_code == 0
        assert _principal_of_last_connection(b, wire) == "User:ANONYMOUS"
        with pytest.raises((ConnectionClosedError, OSError)):  # plaintext on a TLS port
            plain = BlockingClient(b)
            metadata(plain)


def test_ssl_client_certificate_is_required_and_names_the_principal(pki):
    with Broker(
        security_protocol="SSL", ssl_certfile=pki.server_cert, ssl_keyfile=pki.server_key, ssl_cafile=pki.ca
    ) as b:
        wire = BlockingClient(b, _client_context(pki, True))
        assert metadata(wire).brokers[0].port == b.port
        assert _principal_of_last_connection(b, wire) == CLIENT_PRINCIPAL
        with pytest.raises((ConnectionClosedError, ssl.SSLError, OSError)):
            metadata(BlockingClient(b, _client_context(pki, False)))


@pytest.mark.parametrize("mechanism", ["PLAIN", "SCRAM-SHA-512"])
def test_sasl_ssl(pki, mechanism):
    with Broker(
        security_protocol="SASL_SSL", users=USERS, ssl_certfile=pki.server_cert, ssl_keyfile=pki.server_key
    ) as b:
        wire = BlockingClient(b, _client_context(pki, False))
        wire.login(mechanism, "bob", "bob-secret")
        assert metadata(wire, ["over-tls"]).topics[0].error_code == 0  # creates it
        assert produce(wire, "over-tls") == 0
        assert _principal_of_last_connection(b, wire) == "User:bob"


# -- ACLs ------------------------------------------------------------------------------------


def _creation(rtype, name, principal, op, perm=A.ALLOW, pattern=A.LITERAL):
    return M.CreateAclsRequest.AclCreation(
        resource_type=rtype,
        resource_name=name,
        resource_pattern_type=pattern,
        principal=principal,
        host="*",
        operation=op,
        permission_type=perm,
    )


@pytest.fixture
def acl_broker(tmp_path):
    with Broker(
        security_protocol="SASL_PLAINTEXT",
        users=USERS,
        super_users=["admin"],
        acl_enforce=True,
        log_dir=str(tmp_path / "logs"),
        check_roundtrip=True,
    ) as b:
        admin = BlockingClient(b)
        admin.login("SCRAM-SHA-256", "admin", "admin-secret")
        for t in ("orders", "secret", "pre-a", "pre-b"):
            b.call(lambda t=t: b.storage.create_topic(t, 1))
        resp = admin.request(
            M.CreateAclsRequest(
                creations=[
                    _creation(A.TOPIC, "orders", "User:alice", A.WRITE),
                    _creation(A.TOPIC, "orders", "User:alice", A.READ),
                    _creation(A.TOPIC, "pre-", "User:alice", A.ALL, pattern=A.PREFIXED),
                    _creation(A.TOPIC, "pre-b", "User:alice", A.READ, perm=A.DENY),
                    _creation(A.GROUP, "g-ok", "User:alice", A.READ),
                    _creation(A.TOPIC, "*", "User:bob", A.DESCRIBE),
                ]
            ),
            3,
        )
        assert [r.error_code for r in resp.results] == [0] * 6
        yield b, admin
        assert b.handler_errors == [] and b.roundtrip_failures == []


def test_acls_allow_and_deny_produce_fetch_metadata(acl_broker):
    b, _admin = acl_broker
    alice = BlockingClient(b)
    alice.login("PLAIN", "alice", "alice-secret")
    assert produce(alice, "orders") == 0
    assert produce(alice, "secret") == 29  # TOPIC_AUTHORIZATION_FAILED
    assert fetch_error(alice, "orders") == 0
    assert fetch_error(alice, "secret") == 29
    assert fetch_error(alice, "pre-a") == 0  # PREFIXED ALL
    assert fetch_error(alice, "pre-b") == 29  # DENY wins over the prefixed ALLOW
    assert produce(alice, "pre-b") == 0  # ... for READ only
    listed = {t.name for t in metadata(alice).topics}
    assert listed == {"orders", "pre-a", "pre-b"}  # "secret" is hidden
    named = {t.name: t.error_code for t in metadata(alice, ["secret", "orders"]).topics}
    assert named == {"secret": 29, "orders": 0}
    assert b.topic_records("secret") == {0: []}  # nothing was written
    # DESCRIBE is implied by READ and WRITE
    req = M.MetadataRequest(
        topics=[M.MetadataRequest.MetadataRequestTopic(name="orders")],
        include_topic_authorized_operations=True,
    )
    bits = alice.request(req, 12).topics[0].topic_authorized_operations
    assert bits == (1 << A.READ) | (1 << A.WRITE) | (1 << A.DESCRIBE)


def test_acls_groups_and_cluster(acl_broker):
    b, admin = acl_broker
    alice = BlockingClient(b)
    alice.login("SCRAM-SHA-512", "alice", "alice-secret")
    JG = M.JoinGroupRequest
    join = lambda g: alice.request(  # noqa: E731
        JG(
            group_id=g,
            session_timeout_ms=6000,
            rebalance_timeout_ms=6000,
            member_id="",
            protocol_type="consumer",
            protocols=[JG.JoinGroupRequestProtocol(name="range", metadata=b"")],
        ),
        5,
    )
    assert join("g-no").error_code == 30  # GROUP_AUTHORIZATION_FAILED
    assert join("g-ok").error_code in (0, 79)  # allowed (79: MEMBER_ID_REQUIRED)
    fc = alice.request(M.FindCoordinatorRequest(key_type=0, coordinator_keys=["g-no", "g-ok"]), 4)
    assert [c.error_code for c in fc.coordinators] == [30, 0]
    assert (
        alice.request(
            M.InitProducerIdRequest(transactional_id="tx", transaction_timeout_ms=1000), 4
        ).error_code
        == 53
    )  # TRANSACTIONAL_ID_AUTHORIZATION_FAILED
    assert (
        alice.request(
            M.InitProducerIdRequest(transactional_id=None, transaction_timeout_ms=1000), 4
        ).error_code
        == 0
    )  # KIP-679: WRITE on a topic is enough
    bob = BlockingClient(b)
    bob.login("PLAIN", "bob", "bob-secret")
    assert (
        bob.request(M.InitProducerIdRequest(transactional_id=None, transaction_timeout_ms=1000), 4).error_code
        == 31
    )  # CLUSTER_AUTHORIZATION_FAILED
    # DESCRIBE on every topic: alice's FindCoordinator made __consumer_offsets, and Kafka lists
    # the internal topic to a principal allowed to describe it
    assert {t.name for t in metadata(bob).topics} == {
        "orders",
        "secret",
        "pre-a",
        "pre-b",
        "__consumer_offsets",
    }
    assert produce(bob, "orders") == 29
    assert (
        bob.request(
            M.DescribeAclsRequest(
                resource_type_filter=A.ANY, pattern_type_filter=A.ANY, operation=A.ANY, permission_type=A.ANY
            ),
            3,
        ).error_code
        == 31
    )
    CT = M.CreateTopicsRequest
    created = bob.request(
        CT(topics=[CT.CreatableTopic(name="new", num_partitions=1, replication_factor=1)], timeout_ms=1000), 5
    ).topics[0]
    assert created.error_code == 29


def test_describe_and_delete_acls_persist_in_the_log_dir(acl_broker, tmp_path):
    b, admin = acl_broker
    described = admin.request(
        M.DescribeAclsRequest(
            resource_type_filter=A.TOPIC,
            resource_name_filter="pre-b",
            pattern_type_filter=A.MATCH,
            principal_filter=None,
            host_filter=None,
            operation=A.ANY,
            permission_type=A.ANY,
        ),
        3,
    )
    got = {
        (r.resource_name, r.pattern_type, a.operation, a.permission_type)
        for r in described.resources
        for a in r.acls
    }
    # MATCH: the bindings that apply to "pre-b": the literal one and the prefixed one, and "*"
    assert got == {
        ("pre-b", A.LITERAL, A.READ, A.DENY),
        ("pre-", A.PREFIXED, A.ALL, A.ALLOW),
        ("*", A.LITERAL, A.DESCRIBE, A.ALLOW),
    }
    DF = M.DeleteAclsRequest.DeleteAclsFilter
    deleted = admin.request(
        M.DeleteAclsRequest(
            filters=[
                DF(
                    resource_type_filter=A.TOPIC,
                    resource_name_filter="orders",
                    pattern_type_filter=A.LITERAL,
                    principal_filter="User:alice",
                    host_filter=None,
                    operation=A.ANY,
                    permission_type=A.ANY,
                )
            ]
        ),
        3,
    )
    assert sorted(m.operation for m in deleted.filter_results[0].matching_acls) == [A.READ, A.WRITE]
    log_dir = b.log_dir
    b.shutdown()
    with Broker(security_protocol="SASL_PLAINTEXT", users=USERS, acl_enforce=True, log_dir=log_dir) as again:
        alice = BlockingClient(again)
        alice.login("PLAIN", "alice", "alice-secret")
        assert produce(alice, "orders") == 29  # its ACL was deleted
        assert fetch_error(alice, "pre-a") == 0  # the others were reloaded


def test_create_acls_rejects_invalid_bindings(acl_broker):
    b, admin = acl_broker
    resp = admin.request(
        M.CreateAclsRequest(
            creations=[
                _creation(A.ANY, "x", "User:alice", A.READ),
                _creation(A.TOPIC, "x", "alice", A.READ),
                _creation(A.TOPIC, "x", "User:alice", A.ANY),
                _creation(A.TOPIC, "x", "User:alice", A.READ, pattern=A.MATCH),
            ]
        ),
        3,
    )
    assert [r.error_code for r in resp.results] == [42] * 4  # INVALID_REQUEST


def test_without_acl_enforce_everyone_may_do_everything(sasl_broker):
    wire = BlockingClient(sasl_broker)
    wire.login("PLAIN", "bob", "bob-secret")
    assert produce(wire, "anything") in (0, 3)  # 3 until Metadata creates it
    metadata(wire, ["anything"])
    assert produce(wire, "anything") == 0


def test_kafkawire_serve_with_sasl_ssl_options(pki):
    import subprocess
    import sys

    from conftest import subprocess_env

    cmd = [
        sys.executable,
        "-m",
        "kafkawire",
        "serve",
        "--port",
        "0",
        "--max-seconds",
        "60",
        "--security-protocol",
        "SASL_SSL",
        "--sasl-mechanisms",
        "SCRAM-SHA-256",
        "--user",
        "alice:alice-secret",
        "--ssl-certfile",
        pki.server_cert,
        "--ssl-keyfile",
        pki.server_key,
    ]
    proc = subprocess.Popen(cmd, stdout=subprocess.PIPE, text=True, env=subprocess_env())
    try:
        line = proc.stdout.readline()
        assert "listening on" in line, line
        host, port = line.rsplit(" ", 1)[1].strip().rsplit(":", 1)
        with pytest.raises(SaslMechanismError):
            BlockingClient((host, int(port)), _client_context(pki, False)).login(
                "PLAIN", "alice", "alice-secret"
            )
        wire = BlockingClient((host, int(port)), _client_context(pki, False))
        wire.login("SCRAM-SHA-256", "alice", "alice-secret")
        assert metadata(wire, ["cli"]).topics[0].error_code == 0
    finally:
        proc.terminate()
        proc.wait(10)


def test_kafkawire_serve_sasl_plaintext_through_client_connection():
    """The CLI's broker: SASL through ClientConnection after ApiVersions (v1 and the v0
    bare tokens, PLAIN and SCRAM), five requests pipelined after it, a wrong password
    refused with its own error."""
    import subprocess
    import sys

    from conftest import subprocess_env
    from kafkawire import sasl

    cmd = [
        sys.executable,
        "-m",
        "kafkawire",
        "serve",
        "--port",
        "0",
        "--max-seconds",
        "60",
        "--security-protocol",
        "SASL_PLAINTEXT",
        "--user",
        "alice:alice-secret",
    ]
    proc = subprocess.Popen(cmd, stdout=subprocess.PIPE, text=True, env=subprocess_env())
    try:
        line = proc.stdout.readline()
        assert "listening on" in line, line
        host, port = line.rsplit(" ", 1)[1].strip().rsplit(":", 1)
        for mechanism in ("PLAIN", "SCRAM-SHA-256", "SCRAM-SHA-512"):
            for handshake_version in (0, 1):
                wire = BlockingClient(
                    (host, int(port)),
                    max_in_flight=5,
                    sasl=sasl.client_for(mechanism, "alice", "alice-secret"),
                )
                wire.negotiate()
                done = wire.authenticate(handshake_version=handshake_version)
                assert (done.mechanism, done.handshake_version) == (mechanism, handshake_version)
                names = [f"cli-{i}" for i in range(5)]
                events = wire.pipeline_events(
                    [
                        M.MetadataRequest(topics=[M.MetadataRequest.MetadataRequestTopic(name=n)])
                        for n in names
                    ]
                )
                assert [e.message.topics[0].name for e in events] == names
                wire.close()
            wire = BlockingClient((host, int(port)))
            with pytest.raises(SaslAuthenticationError, match="Authentication failed"):
                wire.login(mechanism, "alice", "wrong")
            assert wire.conn.phase is ClientPhase.CLOSED and wire.closed_by_peer()
    finally:
        proc.terminate()
        proc.wait(10)


def test_the_security_page_runs_as_written(capsys):
    import re
    from pathlib import Path

    page = Path(__file__).resolve().parents[2] / "docs" / "security.md"
    section = page.read_text(encoding="utf-8")
    blocks = re.findall(r"```python\n(.*?)```", section, re.S)
    # the third block (SASL_SSL through kafkawire.aio) is run and its output checked by
    # tests/connection/test_aio_tls.py
    assert len(blocks) == 3
    for block in blocks[:2]:
        exec(compile(block, str(page), "exec"), {"__name__": "readme"})
    out = capsys.readouterr().out.splitlines()
    assert out == [
        "True user",
        "Authenticated SCRAM-SHA-512 ready",
        "authenticated: [(1, 'SCRAM-SHA-512', 'alice')]",
    ]
    # the command line's flags are the ones the broker takes
    flags = set(re.findall(r"--[a-z-]+", section))
    from kafkawire.cli.serve import _parser

    known = {o for a in _parser()._actions for o in a.option_strings}
    assert flags <= known, flags - known
