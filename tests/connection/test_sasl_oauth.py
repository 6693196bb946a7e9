"""OAUTHBEARER's token login without a server: when Kafka's rules fetch the next token,
what a token must carry, and the errors of a bad setting or an endpoint that does not
answer.  The login against a real OAuth server and broker is in
``tests/cluster/test_oauth_oidc_kafka.py``."""

from __future__ import annotations

import base64
import json
import random
import re
import socket

import pytest

from kafkawire.cluster.config import ClientConfig
from kafkawire.errors import SaslLoginError
from kafkawire.sasl import oauth

HANDLER = "org.apache.kafka.common.security.oauthbearer.OAuthBearerLoginCallbackHandler"
MODULE = "org.apache.kafka.common.security.oauthbearer.OAuthBearerLoginModule"


def jwt(claims: dict) -> str:
    def part(obj) -> str:
        return base64.urlsafe_b64encode(json.dumps(obj).encode()).rstrip(b"=").decode()

    return f"{part({'alg': 'RS256', 'kid': 'k'})}.{part(claims)}.c2ln"


class NoJitter(random.Random):
    def random(self) -> float:
        return 0.0


@pytest.mark.parametrize(
    "start, expiry, now, expected",
    [
        # an hour's token: at 80% of its life
        (0, 3600, 0, 2880),
        # a 10-minute token: 80% (480) is inside the 300 s buffer before expiry: at its start
        (0, 600, 0, 300),
        # 80% would come sooner than the 60 s floor after now: at the floor
        (0, 3600, 2850, 2910),
        # shorter than floor and buffer together: 80% of what is left, whatever they say
        (0, 200, 100, 180),
    ],
)
def test_the_next_token_is_fetched_when_kafka_would(start, expiry, now, expected, backend):
    login = oauth.TokenLogin("https://idp/token", "c", "s")
    assert oauth.refresh_time(login, start, expiry, now, NoJitter()) == expected


def test_the_jitter_adds_up_to_its_share_of_the_life(backend):
    login = oauth.TokenLogin("https://idp/token", "c", "s", window_jitter=0.25, buffer=0, min_period=0)
    times = {oauth.refresh_time(login, 0, 1000, 0, random.Random(seed)) for seed in range(50)}
    assert min(times) >= 800 and max(times) <= 1000 and len(times) > 1


@pytest.mark.parametrize(
    "token, message",
    [
        ("opaque-token", "not a JWT: it has 1 dot-separated parts"),
        (jwt({"sub": "app"}), "no numeric 'exp' claim"),
        (jwt({"exp": 4102444800}), "no 'sub' claim"),
        (jwt({"sub": "app", "exp": 1000}), "the access token expired at 1000"),
    ],
)
def test_a_token_kafkas_client_would_refuse_is_a_login_error(token, message, tmp_path, backend):
    path = tmp_path / "token"
    path.write_text(token)
    with pytest.raises(SaslLoginError, match=message):
        oauth.current_token(oauth.TokenLogin(path.as_uri()))


def test_a_token_file_is_read_and_kept_until_its_refresh_time(tmp_path, backend):
    path = tmp_path / "token"
    first = jwt({"sub": "app", "iat": 1700000000, "exp": 4102444800})
    path.write_text(first + "\n")
    login = oauth.TokenLogin(path.as_uri())
    token = oauth.current_token(login)
    assert (token.value, token.principal, token.start) == (first, "app", 1700000000)
    path.write_text(jwt({"sub": "other", "exp": 4102444800}))
    assert oauth.current_token(login) is token  # not yet due: the same token


def test_an_endpoint_that_does_not_answer_fails_after_the_retries(backend):
    with socket.socket() as s:  # a port nobody listens on
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
    login = oauth.TokenLogin(
        f"http://127.0.0.1:{port}/token", "c", "s", retry_backoff=0.01, retry_backoff_max=0.05
    )
    with pytest.raises(SaslLoginError, match=rf"127.0.0.1:{port}/token cannot be reached.*gave up after"):
        oauth.current_token(login)


def _options(**extra) -> dict:
    return {
        "bootstrap.servers": "kafka:9093",
        "security.protocol": "SASL_SSL",
        "sasl.mechanism": "OAUTHBEARER",
        "sasl.login.callback.handler.class": HANDLER,
        "sasl.oauthbearer.token.endpoint.url": "https://idp.example.com/token",
        "sasl.jaas.config": f'{MODULE} required clientId="app" clientSecret="s3cret" scope="kafka";',
        **extra,
    }


def test_the_login_takes_kafkas_settings_and_the_jaas_options(backend):
    config = ClientConfig.parse(
        _options(**{
            "sasl.jaas.config": f'{MODULE} required clientId="app" clientSecret="s3cret" extension_traceId="t1";',
            "sasl.oauthbearer.scope": "kafka.read",
            "sasl.login.refresh.window.factor": "0.9",
            "sasl.login.retry.backoff.max.ms": "2000",
            "ssl.truststore.certificates": "-----BEGIN CERTIFICATE-----",
        })
    )  # fmt: skip
    login = config.sasl_login
    assert (login.client_id, login.client_secret, login.scope) == ("app", "s3cret", "kafka.read")
    assert login.extensions == (("traceId", "t1"),)
    assert (login.window_factor, login.retry_backoff_max) == (0.9, 2.0)
    assert login.cadata == "-----BEGIN CERTIFICATE-----"  # the client's trust store asks the endpoint
    assert "s3cret" not in repr(config)
    older = ClientConfig.parse(
        _options(
            **{"sasl.login.callback.handler.class": HANDLER.replace("oauthbearer.", "oauthbearer.secured.")}
        )
    )
    assert older.sasl_login == ClientConfig.parse(_options()).sasl_login


@pytest.mark.parametrize(
    "extra, message",
    [
        ({"sasl.login.callback.handler.class": "com.example.Mine"}, "OAUTHBEARER needs option kafka.sasl.login.callback.handler.class"),
        ({"sasl.oauthbearer.token.endpoint.url": ""}, "needs option kafka.sasl.oauthbearer.token.endpoint.url"),
        ({"sasl.oauthbearer.token.endpoint.url": "idp/token"}, "is not an https:, http: or file: URL"),
        ({"sasl.jaas.config": f"{MODULE} required;"}, "needs clientId and clientSecret"),
        ({"sasl.login.refresh.window.factor": "0.2"}, r"window.factor: 0.2 is not within 0.5 and 1"),
        ({"sasl.client.callback.handler.class": "com.example.Cb"}, "OAUTHBEARER takes no client callback handler"),
    ],
)  # fmt: skip
def test_bad_login_settings_are_errors_naming_them(extra, message, backend):
    with pytest.raises(ValueError, match=message):
        ClientConfig.parse(_options(**extra))


def test_every_option_set_of_the_managed_cluster_page_is_taken(backend):
    # docs/security-managed.md's examples, their secrets as placeholders
    from pathlib import Path

    from kafkawire.cluster.config import client_settings

    page = (Path(__file__).parents[2] / "docs" / "security-managed.md").read_text()
    blocks = re.findall(r"^```py\n(.*?)^```$", page, re.S | re.M)
    sets = 0
    for block in blocks:
        # the names a block sets, and its options (not what it does with them in Spark)
        assignments = re.findall(r"^(?:[\w, ]+ = (?!\{|spark)[^\n]*|options = \{.*?^\})$", block, re.S | re.M)
        space = dict(api_key="KEY", api_secret="SECRET", client_id="app", client_secret="s3cret")
        exec("\n".join(assignments), space)
        config = ClientConfig.parse(client_settings({k.lower(): v for k, v in space["options"].items()}))
        assert config.security_protocol == "SASL_SSL" and config.sasl_mechanism
        sets += 1
    assert sets == len(blocks) == 7
