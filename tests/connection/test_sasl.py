"""kafkawire.sasl: the mechanisms against the RFCs' worked examples, hostile messages,
and Kafka's two framings (SaslHandshake v1 + SaslAuthenticate, legacy v0 bare tokens).

Real exchanges with real clients and brokers are in test_security_clients.py and
tests/kafka/test_sasl_kafka.py."""

from __future__ import annotations

import base64

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import kafkawire
from kafkawire.protocol import messages as M
from kafkawire import sasl
from kafkawire.errors import (
    KafkaWireError,
    SaslAuthenticationError,
    SaslBase64Error,
    SaslError,
    SaslIterationCountError,
    SaslMalformedError,
    SaslMechanismError,
    SaslServerSignatureError,
    SaslStateError,
    SaslTokenTooLarge,
)
from kafkawire.protocol.framing import FrameReader, frame

pytestmark = pytest.mark.in_process

# RFC 7677 section 3: SCRAM-SHA-256, user "user", password "pencil"
RFC7677 = {
    "client_nonce": "rOprNGfwEbeRWgbNEkqO",
    "server_nonce": "%hvYDpWUa2RaTCAfuxFIlj)hNlF$k0",
    "salt": "W22ZaJ0SNY7soEsUEjb6gQ==",
    "client_first": b"n,,n=user,r=rOprNGfwEbeRWgbNEkqO",
    "server_first": b"r=rOprNGfwEbeRWgbNEkqO%hvYDpWUa2RaTCAfuxFIlj)hNlF$k0,s=W22ZaJ0SNY7soEsUEjb6gQ==,i=4096",
    "client_final": b"c=biws,r=rOprNGfwEbeRWgbNEkqO%hvYDpWUa2RaTCAfuxFIlj)hNlF$k0,"
    b"p=dHzbZapWIk4jUhN+Ute9ytag9zjfMHgsqmmiz7AndVQ=",
    "server_final": b"v=6rriTRBi23WpRR/wtup+mMhUZUn/dB5nLTJRsjl95G4=",
}
# RFC 5802 section 5: the same exchange with SCRAM-SHA-1
RFC5802 = {
    "client_nonce": "fyko+d2lbbFgONRv9qkxdawL",
    "server_nonce": "3rfcNHYJY1ZVvWVs7j",
    "salt": "QSXCR+Q6sek8bf92",
    "client_first": b"n,,n=user,r=fyko+d2lbbFgONRv9qkxdawL",
    "server_first": b"r=fyko+d2lbbFgONRv9qkxdawL3rfcNHYJY1ZVvWVs7j,s=QSXCR+Q6sek8bf92,i=4096",
    "client_final": b"c=biws,r=fyko+d2lbbFgONRv9qkxdawL3rfcNHYJY1ZVvWVs7j,p=v0X8v3Bz2T0CJGbJQyF0X+HI4Ts=",
    "server_final": b"v=rmF9pqV8S7suAoZWja4dJRkFsKQ=",
}
VECTORS = [("SCRAM-SHA-256", RFC7677), ("SCRAM-SHA-1", RFC5802)]


@pytest.mark.parametrize("mechanism,v", VECTORS, ids=["rfc7677", "rfc5802"])
def test_scram_client_reproduces_the_rfc_exchange(mechanism, v):
    client = sasl.ScramClient(mechanism, "user", "pencil", nonce=v["client_nonce"])
    assert client.start() == v["client_first"]
    assert client.receive(v["server_first"]) == v["client_final"]
    assert not client.complete
    assert client.receive(v["server_final"]) is None
    assert client.complete


@pytest.mark.parametrize("mechanism,v", VECTORS, ids=["rfc7677", "rfc5802"])
def test_scram_server_reproduces_the_rfc_exchange(mechanism, v):
    cred = sasl.scram_credential(mechanism, "pencil", salt=base64.b64decode(v["salt"]))
    server = sasl.ScramServer(mechanism, {"user": cred}, nonce=v["server_nonce"])
    assert server.receive(v["client_first"]) == v["server_first"]
    assert server.receive(v["client_final"]) == v["server_final"]
    assert server.complete and server.principal == "user"


def _exchange(client: sasl.SaslClient, server: sasl.SaslServer) -> None:
    token = client.start()
    while True:
        challenge = server.receive(token)
        token = client.receive(challenge)
        if token is None:
            break
    assert client.complete and server.complete


@pytest.mark.parametrize("mechanism", sasl.SCRAM_MECHANISMS)
def test_scram_round_trip_with_escaped_names_and_non_ascii_password(mechanism):
    name = "a,b=c"
    cred = sasl.scram_credential(mechanism, "pässwörd", iterations=8192)
    client = sasl.ScramClient(mechanism, name, "pässwörd")
    assert b"n=a=2Cb=3Dc," in client.start()
    client = sasl.ScramClient(mechanism, name, "pässwörd")
    server = sasl.ScramServer(mechanism, {name: cred})
    _exchange(client, server)
    assert server.principal == name and not server.token_authenticated


@pytest.mark.parametrize("mechanism", sasl.SCRAM_MECHANISMS)
def test_scram_wrong_password_is_refused_by_the_server(mechanism):
    server = sasl.ScramServer(mechanism, {"u": sasl.scram_credential(mechanism, "right")})
    client = sasl.ScramClient(mechanism, "u", "wrong")
    final = client.receive(server.receive(client.start()))
    with pytest.raises(SaslAuthenticationError, match="Invalid user credentials"):
        server.receive(final)
    with pytest.raises(SaslStateError):
        server.receive(final)  # a failed exchange stays failed


def test_scram_unknown_user_is_refused_at_the_first_message():
    server = sasl.ScramServer("SCRAM-SHA-256", {})
    with pytest.raises(SaslAuthenticationError):
        server.receive(sasl.ScramClient("SCRAM-SHA-256", "nobody", "x").start())


def test_scram_wrong_server_signature_is_detected():
    v = RFC7677
    client = sasl.ScramClient("SCRAM-SHA-256", "user", "pencil", nonce=v["client_nonce"])
    client.start()
    client.receive(v["server_first"])
    forged = bytearray(base64.b64decode(v["server_final"][2:]))
    forged[0] ^= 1
    with pytest.raises(SaslServerSignatureError):
        client.receive(b"v=" + base64.b64encode(bytes(forged)))
    assert not client.complete


def test_scram_server_error_attribute_is_an_authentication_error():
    v = RFC7677
    client = sasl.ScramClient("SCRAM-SHA-256", "user", "pencil", nonce=v["client_nonce"])
    client.start()
    client.receive(v["server_first"])
    with pytest.raises(SaslAuthenticationError, match="invalid-proof"):
        client.receive(b"e=invalid-proof")


def test_scram_server_nonce_must_extend_the_client_nonce():
    client = sasl.ScramClient("SCRAM-SHA-256", "user", "pencil", nonce="abc")
    client.start()
    with pytest.raises(SaslAuthenticationError, match="nonce"):
        client.receive(b"r=xyz123,s=QSXCR+Q6sek8bf92,i=4096")
    client = sasl.ScramClient("SCRAM-SHA-256", "user", "pencil", nonce="abc")
    client.start()
    with pytest.raises(SaslAuthenticationError, match="nonce"):
        client.receive(b"r=abc,s=QSXCR+Q6sek8bf92,i=4096")  # the server added nothing


@pytest.mark.parametrize("count", [b"0", b"4095", b"16385", b"4000000000", b"99999999999"])
def test_scram_iteration_count_out_of_bounds(count):
    client = sasl.ScramClient("SCRAM-SHA-512", "user", "pencil", nonce="abc")
    client.start()
    error = SaslIterationCountError if len(count) <= 10 else SaslMalformedError
    with pytest.raises(error):
        client.receive(b"r=abcdef,s=QSXCR+Q6sek8bf92,i=" + count)


@pytest.mark.parametrize(
    "message,error",
    [
        (b"r=abcdef,s=not*base64,i=4096", SaslBase64Error),
        (b"r=abcdef,s=QSXCR+Q6sek8bf9,i=4096", SaslBase64Error),  # bad padding
        (b"r=abcdef,s=,i=4096", SaslMalformedError),  # empty salt
        (b"r=abcdef,i=4096,s=QSXCR+Q6sek8bf92", SaslMalformedError),
        (b"r=abcdef,s=QSXCR+Q6sek8bf92,i=-4096", SaslMalformedError),
        (b"r=abcdef,s=QSXCR+Q6sek8bf92,i=\xd9\xa4\xd9\xa0\xd9\xa9\xd9\xa6", SaslMalformedError),
        (b"m=x,r=abcdef,s=QSXCR+Q6sek8bf92,i=4096", SaslMalformedError),
        (b"r=abcdef,s=QSXCR+Q6sek8bf92", SaslMalformedError),
        (b"r=abcdef,,s=QSXCR+Q6sek8bf92,i=4096", SaslMalformedError),
        (b"\xff\xfe", SaslMalformedError),
        (b"", SaslMalformedError),
    ],
)
def test_scram_malformed_server_first(message, error):
    client = sasl.ScramClient("SCRAM-SHA-256", "user", "pencil", nonce="abc")
    client.start()
    with pytest.raises(error):
        client.receive(message)


@pytest.mark.parametrize(
    "message,error",
    [
        (b"y,,n=user,r=abc", SaslAuthenticationError),  # channel binding wanted
        (b"p=tls-unique,,n=user,r=abc", SaslAuthenticationError),
        (b"x,,n=user,r=abc", SaslMalformedError),
        (b"n,,r=abc,n=user", SaslMalformedError),
        (b"n,,n=us=er,r=abc", SaslMalformedError),  # bad escape
        (b"n,,n=,r=abc", SaslMalformedError),
        (b"n,,n=user,r=a,b", SaslMalformedError),
        (b"n,,n=user,r=", SaslMalformedError),
        (b"n,,n=user", SaslMalformedError),
        (b"n,,n=user,r=abc,r=def", SaslMalformedError),
        (b"n,n=user,r=abc", SaslMalformedError),
    ],
)
def test_scram_malformed_client_first(message, error):
    server = sasl.ScramServer("SCRAM-SHA-256", {"user": sasl.scram_credential("SCRAM-SHA-256", "p")})
    with pytest.raises(error):
        server.receive(message)


def _server_after_first(v=RFC7677):
    cred = sasl.scram_credential("SCRAM-SHA-256", "pencil", salt=base64.b64decode(v["salt"]))
    server = sasl.ScramServer("SCRAM-SHA-256", {"user": cred}, nonce=v["server_nonce"])
    server.receive(v["client_first"])
    return server


@pytest.mark.parametrize(
    "message,error",
    [
        (RFC7677["client_final"].replace(b"p=dHzb", b"p=*Hzb"), SaslBase64Error),
        (RFC7677["client_final"].replace(b"c=biws", b"c=bi!s"), SaslBase64Error),
        (RFC7677["client_final"].replace(b"c=biws", b"c=eSws"), SaslAuthenticationError),  # "y,,"
        (RFC7677["client_final"].replace(b"%hvY", b"%hvZ"), SaslAuthenticationError),  # nonce
        (RFC7677["client_final"].replace(b"p=dHzb", b"p=dHza"), SaslAuthenticationError),  # proof
        (RFC7677["client_final"].rsplit(b",p=", 1)[0] + b",p=AAAA", SaslAuthenticationError),
        (RFC7677["client_final"].rsplit(b",p=", 1)[0], SaslMalformedError),
        (b"r=x,c=biws,p=AAAA", SaslMalformedError),
    ],
)
def test_scram_malformed_or_wrong_client_final(message, error):
    with pytest.raises(error):
        _server_after_first().receive(message)


def test_scram_delegation_token_extension():
    cred = sasl.scram_credential("SCRAM-SHA-512", "token-hmac")
    client = sasl.ScramClient("SCRAM-SHA-512", "token-id-1", "token-hmac", token_auth=True)
    first = client.start()
    assert first.endswith(b",tokenauth=true")
    client2 = sasl.ScramClient("SCRAM-SHA-512", "token-id-1", "token-hmac", token_auth=True)
    server2 = sasl.ScramServer("SCRAM-SHA-512", {}, tokens={"token-id-1": ("alice", cred)})
    _exchange(client2, server2)
    assert server2.principal == "alice" and server2.token_authenticated
    # the token id is not a user name
    with pytest.raises(SaslAuthenticationError):
        sasl.ScramServer("SCRAM-SHA-512", {}, tokens={"token-id-1": ("alice", cred)}).receive(
            sasl.ScramClient("SCRAM-SHA-512", "token-id-1", "token-hmac").start()
        )


def test_scram_credential_bounds():
    with pytest.raises(SaslIterationCountError):
        sasl.scram_credential("SCRAM-SHA-256", "p", iterations=4095)
    with pytest.raises(SaslMechanismError):
        sasl.scram_credential("SCRAM-MD5", "p")


def test_plain_exchange_and_refusals():
    users = {"alice": "alice-secret"}
    client = sasl.PlainClient("alice", "alice-secret")
    assert client.start() == b"\0alice\0alice-secret"  # RFC 4616: authzid NUL authcid NUL passwd
    server = sasl.PlainServer(users)
    assert server.receive(b"\0alice\0alice-secret") == b""
    assert server.principal == "alice"
    assert client.receive(b"") is None and client.complete
    for token in (b"\0alice\0wrong", b"\0bob\0alice-secret", b"bob\0alice\0alice-secret"):
        with pytest.raises(SaslAuthenticationError):
            sasl.PlainServer(users).receive(token)
    for token in (b"alice\0alice-secret", b"\0\0x", b"\0alice\0", b"\0a\0b\0c", b"\0\xff\0x"):
        with pytest.raises(SaslMalformedError):
            sasl.PlainServer(users).receive(token)


def test_oversized_tokens_are_refused_before_parsing():
    with pytest.raises(SaslTokenTooLarge):
        sasl.PlainServer({}, max_token_size=64).receive(b"\0" + b"a" * 64 + b"\0b")
    client = sasl.ScramClient("SCRAM-SHA-256", "user", "pencil", max_token_size=100)
    client.start()
    with pytest.raises(SaslTokenTooLarge):
        client.receive(b"r=" + b"a" * 200)


def test_oauthbearer_initial_response_matches_rfc7628_shape():
    # RFC 7628 section 4.1's example, with the key-value pairs in Kafka's order
    token = "vF9dft4qmTc2Nvb3RlckBhbHRhdmlzdGEuY29tCg=="
    got = sasl.oauthbearer_initial_response(
        token, authzid="user@example.com", extensions={"host": "server.example.com", "port": "143"}
    )
    assert got == (
        b"n,a=user@example.com,\x01auth=Bearer "
        + token.encode()
        + b"\x01host=server.example.com\x01port=143\x01\x01"
    )
    rfc = (
        b"n,a=user@example.com,\x01host=server.example.com\x01port=143\x01"
        b"auth=Bearer vF9dft4qmTc2Nvb3RlckBhbHRhdmlzdGEuY29tCg==\x01\x01"
    )
    parsed = sasl.parse_oauthbearer_initial_response(rfc)
    assert parsed.token == token and parsed.authzid == "user@example.com"
    assert parsed.extensions == {"host": "server.example.com", "port": "143"}


def test_oauthbearer_accepted_and_refused_token():
    def validate(token, extensions):
        return "alice" if token == "good" else None

    client = sasl.OAuthBearerClient("good", extensions={"traceId": "abc"})
    server = sasl.OAuthBearerServer(validate)
    _exchange(client, server)
    assert server.principal == "alice" and server.extensions == {"traceId": "abc"}

    client = sasl.OAuthBearerClient("bad")
    server = sasl.OAuthBearerServer(validate, scope="kafka")
    reply = server.receive(client.start())
    assert reply == b'{"status":"invalid_token","scope":"kafka"}'
    assert client.receive(reply) == b"\x01" and client.error == {"status": "invalid_token", "scope": "kafka"}
    with pytest.raises(SaslAuthenticationError):
        server.receive(b"\x01")


@pytest.mark.parametrize(
    "message",
    [
        b"n,,auth=Bearer x\x01\x01",
        b"n,,\x01auth=Bearer x\x01",
        b"n,,\x01\x01",
        b"n,,\x01auth=Bearer x\x01auth=Bearer y\x01\x01",
        b"n,,\x01auth=Basic x\x01\x01",
        b"n,,\x01auth=Bearer x\x01bad_key=1\x01\x01",
        b"n,,\x01auth=Bearer x\x01k\x01\x01",
        b"y,,\x01auth=Bearer x\x01\x01",
        b"\xff",
    ],
)
def test_oauthbearer_malformed_initial_response(message):
    with pytest.raises(SaslMalformedError):
        sasl.OAuthBearerServer(lambda t, e: "x").receive(message)


def test_oauthbearer_extension_names_are_checked_on_the_client():
    with pytest.raises(SaslMalformedError):
        sasl.oauthbearer_initial_response("t", extensions={"auth": "x"})
    with pytest.raises(SaslMalformedError):
        sasl.oauthbearer_initial_response("t", extensions={"k": "\x00"})
    client = sasl.OAuthBearerClient("t")
    client.start()
    with pytest.raises(SaslMalformedError):
        client.receive(b"not json")


def test_steps_out_of_order():
    client = sasl.PlainClient("a", "b")
    with pytest.raises(SaslStateError):
        client.receive(b"")
    client.start()
    with pytest.raises(SaslStateError):
        client.start()
    client.receive(b"")
    with pytest.raises(SaslStateError):
        client.receive(b"")
    client = sasl.PlainClient("a", "b")
    client.start()
    with pytest.raises(SaslMalformedError):
        client.receive(b"junk")  # PLAIN's server answers with nothing


# -- fuzz: every parser and every state machine fails only with kafkawire's errors ----------

PARSERS = [
    sasl.parse_client_first,
    sasl.parse_server_first,
    sasl.parse_client_final,
    sasl.parse_server_final,
    sasl.parse_plain,
    sasl.parse_oauthbearer_initial_response,
    sasl.parse_oauthbearer_error_reply,
]

_scram_alphabet = st.sampled_from(
    [
        b"n",
        b"r",
        b"s",
        b"i",
        b"c",
        b"p",
        b"v",
        b"e",
        b"m",
        b"a",
        b"=",
        b",",
        b"4096",
        b"biws",
        b"QSXCR+Q6sek8bf92",
        b"\x00",
        b"\xff",
        b"=2C",
        b"=3D",
        b"abc",
        b"99999999999",
        b"\x01",
        b"auth=Bearer ",
        b"{",
        b"}",
        b'"status"',
        b":",
    ]
)
scram_like = st.lists(_scram_alphabet, max_size=30).map(b"".join)
any_bytes = st.one_of(st.binary(max_size=200), scram_like)


@settings(max_examples=300, deadline=None, suppress_health_check=list(HealthCheck))
@given(data=any_bytes)
def test_fuzz_parsers_raise_only_sasl_errors(data):
    for parse in PARSERS:
        try:
            parse(data)
        except SaslError:
            pass


@settings(max_examples=200, deadline=None, suppress_health_check=list(HealthCheck))
@given(first=any_bytes, second=any_bytes, cut=st.integers(0, 200))
def test_fuzz_state_machines_raise_only_sasl_errors(first, second, cut):
    cred = sasl.scram_credential("SCRAM-SHA-256", "pencil", salt=b"salt")
    mutated_final = RFC7677["client_final"][:cut] + second
    for server in (
        sasl.ScramServer("SCRAM-SHA-256", {"user": cred}),
        sasl.PlainServer({"user": "pencil"}),
        sasl.OAuthBearerServer(lambda t, e: None),
    ):
        try:
            server.receive(first)
            server.receive(mutated_final)
        except SaslError:
            pass
    client = sasl.ScramClient("SCRAM-SHA-256", "user", "pencil", nonce=RFC7677["client_nonce"])
    client.start()
    try:
        client.receive(RFC7677["server_first"][:cut] + first)
        client.receive(second)
    except SaslError:
        pass


# -- Kafka framing: a ClientSession against a ServerSession, bytes on the "wire" -----------


def _servers(users):
    servers = {"PLAIN": lambda: sasl.PlainServer(users)}
    for mech in sasl.SCRAM_MECHANISMS:
        creds = {u: sasl.scram_credential(mech, p) for u, p in users.items()}
        servers[mech] = lambda m=mech, c=creds: sasl.ScramServer(m, c)
    return servers


def _serve(session: sasl.ServerSession, data: bytes, reader: FrameReader, wire: list) -> bytes:
    """What a broker would answer to the client bytes ``data`` (the frames it read go to ``wire``)."""
    out = b""
    for payload in reader.feed(data):
        if session.expects_raw_token:
            wire.append(("token", payload))
            try:
                out += frame(session.raw_token(payload))
            except SaslError:
                raise ConnectionAbortedError(session.failure)
            continue
        header, request = kafkawire.decode_request(payload)
        wire.append((type(request).__name__, header.request_api_version, request))
        version = header.request_api_version
        if isinstance(request, M.SaslHandshakeRequest):
            response = session.handshake(request, version)
        else:
            response = session.authenticate(request, version)
        out += kafkawire.encode_response(response, version, header.correlation_id)
    return out


def _run(client, handshake_version, users={"alice": "alice-secret"}):
    session = sasl.ClientSession(client, handshake_version=handshake_version)
    server = sasl.ServerSession(_servers(users), session_lifetime_ms=60000)
    reader, wire = FrameReader(), []
    for _ in range(10):
        data = session.data_to_send()
        if not data:
            break
        try:
            reply = _serve(server, data, reader, wire)
        except ConnectionAbortedError:
            session.connection_closed()
        session.receive_data(reply)
    return session, server, wire


@pytest.mark.parametrize("handshake_version", [0, 1])
@pytest.mark.parametrize("mechanism", ["PLAIN", "SCRAM-SHA-256", "SCRAM-SHA-512"])
def test_framed_exchange_both_ways(mechanism, handshake_version):
    client = sasl.client_for(mechanism, "alice", "alice-secret")
    session, server, wire = _run(client, handshake_version)
    assert session.done and server.authenticated and server.principal == "alice"
    assert wire[0][0] == "SaslHandshakeRequest" and wire[0][1] == handshake_version
    assert wire[0][2].mechanism == mechanism
    tokens = 1 if mechanism == "PLAIN" else 2
    if handshake_version == 0:
        # after a v0 handshake the tokens are bare frames: no Kafka header at all
        assert [w[0] for w in wire[1:]] == ["token"] * tokens
        assert wire[1][1].startswith(b"\0alice\0" if mechanism == "PLAIN" else b"n,,n=alice,r=")
        assert session.session_lifetime_ms == 0
    else:
        assert [w[0] for w in wire[1:]] == ["SaslAuthenticateRequest"] * tokens
        assert session.session_lifetime_ms == 60000


@pytest.mark.parametrize("mechanism", ["PLAIN", "SCRAM-SHA-256"])
def test_framed_wrong_password_v1_carries_the_broker_message(mechanism):
    message = "Invalid username or password" if mechanism == "PLAIN" else f"SASL mechanism {mechanism}"
    with pytest.raises(SaslAuthenticationError, match=message):
        _run(sasl.client_for(mechanism, "alice", "nope"), 1)


def test_framed_wrong_password_v0_is_a_closed_connection():
    with pytest.raises(SaslAuthenticationError, match="closed the connection"):
        _run(sasl.client_for("SCRAM-SHA-512", "alice", "nope"), 0)


def test_framed_unsupported_mechanism_names_the_broker_mechanisms():
    with pytest.raises(SaslMechanismError, match="PLAIN, SCRAM-SHA-256, SCRAM-SHA-512"):
        _run(sasl.OAuthBearerClient("t"), 1)


def test_framed_reply_too_large_for_the_client():
    session = sasl.ClientSession(sasl.PlainClient("a", "b"), max_token_size=10)
    with pytest.raises(SaslTokenTooLarge):
        session.receive_data(b"\x00\x10\x00\x00")


def test_server_session_refuses_authenticate_without_handshake():
    server = sasl.ServerSession(_servers({"a": "b"}))
    resp = server.authenticate(M.SaslAuthenticateRequest(auth_bytes=b"\0a\0b"), 2)
    assert resp.error_code == 34 and not server.authenticated  # ILLEGAL_SASL_STATE


def test_errors_are_kafkawire_errors():
    for cls in (
        SaslMalformedError,
        SaslBase64Error,
        SaslIterationCountError,
        SaslTokenTooLarge,
        SaslAuthenticationError,
        SaslServerSignatureError,
        SaslMechanismError,
        SaslStateError,
    ):
        assert issubclass(cls, SaslError) and issubclass(cls, KafkaWireError)
