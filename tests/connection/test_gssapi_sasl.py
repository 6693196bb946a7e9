"""kafkawire.sasl.gssapi without a broker: Kafka's DEFAULT principal-to-local rule, and
(with the suite's MIT KDC) the client and server exchanging real Kerberos tokens through
ClientConnection and ServerSession, and what each side does with hostile messages."""

from __future__ import annotations

import os

import pytest

from kafkawire import decode_request, encode_response, sasl
from kafkawire.protocol import messages as M
from kafkawire.connection import Authenticated, ClientConnection
from kafkawire.errors import (
    SaslAuthenticationError,
    SaslKerberosError,
    SaslMalformedError,
    SaslStateError,
    SaslTokenTooLarge,
)
from kafkawire.protocol.framing import FrameReader, frame
from kafkawire.sasl.gssapi import kerberos_short_name, split_principal

from support.fixtures.kerberos import SERVICE_HOST

pytestmark = pytest.mark.in_process


def test_default_rule_names_the_primary_of_the_default_realm():
    assert kerberos_short_name("alice@EXAMPLE.COM", "EXAMPLE.COM") == "alice"
    assert kerberos_short_name("kafka/broker1.example.com@EXAMPLE.COM", "EXAMPLE.COM") == "kafka"
    assert kerberos_short_name("alice", "EXAMPLE.COM") == "alice"
    with pytest.raises(SaslAuthenticationError, match="no principal-to-local rule maps alice@OTHER.ORG"):
        kerberos_short_name("alice@OTHER.ORG", "EXAMPLE.COM")
    assert split_principal("kafka/host@R") == ("kafka", "host", "R")
    for bad in ("", "@R", "a@", "a/", "a/b/c@R"):
        with pytest.raises(SaslMalformedError):
            split_principal(bad)


def _pair(kerberos):
    client = sasl.GssapiClient(SERVICE_HOST, principal=kerberos.alice, keytab=str(kerberos.alice_keytab))
    return client, sasl.GssapiServer(str(kerberos.service_keytab))


@pytest.mark.kerberos
@pytest.mark.parametrize("handshake_version", [0, 1])
def test_exchange_through_the_connection_and_the_session(kerberos, handshake_version):
    """A ClientConnection against a ServerSession, bytes handed over by hand: v1 ends on
    the server's empty SaslAuthenticate answer, v0 on the client's last bare token."""
    client, _ = _pair(kerberos)
    session = sasl.ServerSession(
        {"GSSAPI": lambda: sasl.GssapiServer(str(kerberos.service_keytab))}, session_lifetime_ms=60000
    )
    conn = ClientConnection("kw", sasl=client)
    out = conn.authenticate(handshake_version=handshake_version, authenticate_version=2)
    reader = FrameReader()
    done = []
    for _ in range(10):
        answers = b""
        for payload in reader.feed(out):
            if session.expects_raw_token:
                reply = session.raw_token(payload)
                answers += frame(reply) if reply is not None else b""
                continue
            header, request = decode_request(payload)
            version = header.request_api_version
            if isinstance(request, M.SaslHandshakeRequest):
                response = session.handshake(request, version)
            else:
                response = session.authenticate(request, version)
            answers += encode_response(response, version, header.correlation_id)
        if answers:
            done += [e for e in conn.receive_data(answers) if isinstance(e, Authenticated)]
        out = conn.data_to_send()
        if done and not out:
            break
    assert done and done[0].mechanism == "GSSAPI" and conn.authenticated
    assert session.authenticated and session.principal == "alice"


@pytest.mark.kerberos
def test_hostile_messages_get_specific_errors(kerberos):
    client, server = _pair(kerberos)
    with pytest.raises(SaslKerberosError, match="client's ticket was refused"):
        server.receive(os.urandom(64))
    with pytest.raises(SaslStateError):
        server.receive(b"")  # a failed exchange stays failed
    # out of order: bytes where the empty message belongs, then a choice of no layer
    client, server = _pair(kerberos)
    reply = server.receive(client.start())
    client.receive(reply)
    with pytest.raises(SaslMalformedError, match="where an empty message belongs"):
        server.receive(b"x")
    client, server = _pair(kerberos)
    server.receive(client.start())
    offer = server.receive(b"")
    with pytest.raises(SaslKerberosError, match="does not unwrap"):
        server.receive(offer[:-3] + b"bad")
    # the client refuses an offer that does not unwrap, and one of the wrong size
    client, server = _pair(kerberos)
    client.receive(server.receive(client.start()))
    with pytest.raises(SaslKerberosError, match="offer does not unwrap"):
        client.receive(b"\x05\x04garbage")
    big = sasl.GssapiClient(
        SERVICE_HOST, principal=kerberos.alice, keytab=str(kerberos.alice_keytab), max_token_size=16
    )
    big.start()
    with pytest.raises(SaslTokenTooLarge):
        big.receive(bytes(64))
