"""Scenarios: SASL (on the SASL_PLAINTEXT listener)."""

from __future__ import annotations


from kafkawire.protocol import messages as M

from support.kafka.scenarios.session import NONE, Session, build, scenario


@scenario(17)
def sasl_handshake(s: Session, v: int):
    reply = s.once(M.SaslHandshakeRequest(mechanism="PLAIN"), v, sasl=True)
    assert sorted(reply.body.mechanisms) == ["PLAIN", "SCRAM-SHA-256", "SCRAM-SHA-512"]
    return reply, {NONE}


@scenario(36)
def sasl_authenticate(s: Session, v: int):
    user = next(iter(s.users))
    with s.connect(sasl=True) as conn:
        shake = s.call(conn, M.SaslHandshakeRequest(mechanism="PLAIN"), 1).body
        assert shake.error_code == NONE, shake
        token = b"\0" + user.encode() + b"\0" + s.users[user].encode()
        return s.call(conn, M.SaslAuthenticateRequest(auth_bytes=token), v), {NONE}


@scenario(50)
def describe_user_scram_credentials(s: Session, v: int):
    user = next(iter(s.users))
    reply = s.once(build(M.DescribeUserScramCredentialsRequest, {"users": [{"name": user}]}), v)
    mechanisms = sorted(c.mechanism for c in reply.body.results[0].credential_infos)
    assert mechanisms == [1, 2], reply.body  # SCRAM-SHA-256, SCRAM-SHA-512
    return reply, {NONE}


@scenario(51)
def alter_user_scram_credentials(s: Session, v: int):
    return s.once(
        build(
            M.AlterUserScramCredentialsRequest,
            {
                "deletions": [],
                "upsertions": [
                    {
                        "name": s.name("user"),
                        "mechanism": 1,
                        "iterations": 4096,
                        "salt": b"0123456789abcdef",
                        "salted_password": bytes(range(32)),
                    }
                ],
            },
        ),
        v,
    ), {NONE}
