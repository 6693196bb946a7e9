"""Amazon MSK IAM authentication, built byte for byte as AWS's own libraries build it.

No AWS endpoint is reachable here: the oracles are AWS's libraries, given the same
random credentials and the same clock:

* the ``AWS_MSK_IAM`` message: the Java ``aws-msk-iam-auth`` library's own SASL client
  (``support.kafka.msk_iam``), which reads the clock itself: kafkawire signs for the
  time and expiry the library wrote into its message;
* the OAUTHBEARER token: ``aws-msk-iam-sasl-signer-python``, AWS's signer for Python,
  its clock fixed; and the Java library's ``IAMOAuthBearerLoginCallbackHandler``, whose
  token puts the same parameters in another order (and signs the same request).

Credentials come through botocore's chain: the environment, a named profile.
"""

from __future__ import annotations

import base64
import datetime
import json
import random
import string
import urllib.parse

import pytest

from kafkawire.cluster.config import ClientConfig
from kafkawire.errors import SaslLoginError
from kafkawire.sasl import msk_iam
from kafkawire.sasl.msk_iam import AwsCredentials

REGIONS = ("us-east-1", "eu-west-1", "ap-southeast-2", "us-gov-west-1", "cn-north-1", "il-central-1")
IAM_JAAS = "software.amazon.msk.auth.iam.IAMLoginModule required;"
OAUTH_JAAS = "org.apache.kafka.common.security.oauthbearer.OAuthBearerLoginModule required;"


def random_credentials(rng: random.Random, session: bool) -> AwsCredentials:
    alnum = string.ascii_uppercase + string.digits
    secret = "".join(rng.choice(string.ascii_letters + string.digits + "/+") for _ in range(40))
    token = None
    if session:  # session tokens carry base64's '/', '+' and '='
        token = base64.b64encode(rng.randbytes(rng.randrange(100, 300))).decode()
    return AwsCredentials("ASIA" + "".join(rng.choice(alnum) for _ in range(16)), secret, token)


def random_time(rng: random.Random) -> datetime.datetime:
    return datetime.datetime(2020, 1, 1, tzinfo=datetime.timezone.utc) + datetime.timedelta(
        seconds=rng.randrange(0, 20 * 365 * 86400)
    )


def broker_host(rng: random.Random, region: str) -> str:
    cluster = "".join(rng.choice(string.ascii_lowercase) for _ in range(8))
    suffix = ".cn" if region.startswith("cn-") else ""
    return f"b-{rng.randrange(1, 4)}.{cluster}.{rng.randrange(10**5):05d}.c{rng.randrange(1, 9)}.kafka.{region}.amazonaws.com{suffix}"


@pytest.mark.kafka
@pytest.mark.parametrize("session", [False, True], ids=["long-term", "session"])
def test_the_aws_msk_iam_message_is_the_java_librarys(session, backend):
    from support.kafka.jars import require_kafka
    from support.kafka.msk_iam import iam_payload as java_payload

    require_kafka()
    rng = random.Random()
    region = rng.choice(REGIONS)
    host, creds = broker_host(rng, region), random_credentials(rng, session)
    theirs = java_payload(host, creds.access_key, creds.secret_key, creds.session_token)
    fields = json.loads(theirs)
    # the library reads the clock: sign for the time and expiry it wrote
    when = datetime.datetime.strptime(fields["x-amz-date"], "%Y%m%dT%H%M%SZ").replace(
        tzinfo=datetime.timezone.utc
    )
    ours = msk_iam.iam_payload(
        host, region, creds, when, fields["user-agent"], expires=int(fields["x-amz-expires"])
    )
    assert ours == theirs


def test_the_oauthbearer_token_is_the_python_signers(monkeypatch, backend):
    pytest.importorskip("botocore")
    signer = pytest.importorskip("aws_msk_iam_sasl_signer.MSKAuthTokenProvider")
    import botocore.auth
    from botocore.credentials import CredentialProvider, Credentials

    rng = random.Random()
    for _ in range(20):
        region, when = rng.choice(REGIONS), random_time(rng)
        creds = random_credentials(rng, session=rng.random() < 0.5)

        class Fixed(CredentialProvider):
            def load(self):
                return Credentials(creds.access_key, creds.secret_key, creds.session_token)

        # botocore's signers read the clock through this one function
        monkeypatch.setattr(botocore.auth, "get_current_datetime", lambda: when.replace(tzinfo=None))
        theirs, _ = signer.generate_auth_token_from_credentials_provider(region, Fixed())
        agent = urllib.parse.parse_qs(urllib.parse.urlsplit(_url(theirs)).query)["User-Agent"][0]
        assert msk_iam.oauth_token(region, creds, when, agent) == theirs


def _url(token: str) -> str:
    return base64.urlsafe_b64decode(token + "=" * (-len(token) % 4)).decode()


@pytest.mark.kafka
def test_the_oauthbearer_token_signs_what_the_java_handler_signs(backend):
    from support.kafka.jars import require_kafka
    from support.kafka.msk_iam import oauth_token as java_token

    require_kafka()
    rng = random.Random()
    region, creds = rng.choice(REGIONS), random_credentials(rng, session=True)
    theirs = urllib.parse.parse_qs(
        urllib.parse.urlsplit(
            _url(java_token(region, creds.access_key, creds.secret_key, creds.session_token))
        ).query
    )
    theirs = {k: v[0] for k, v in theirs.items()}
    when = datetime.datetime.strptime(theirs["X-Amz-Date"], "%Y%m%dT%H%M%SZ").replace(
        tzinfo=datetime.timezone.utc
    )
    ours = urllib.parse.parse_qs(
        urllib.parse.urlsplit(
            _url(
                msk_iam.oauth_token(
                    region, creds, when, theirs["User-Agent"], expires=int(theirs["X-Amz-Expires"])
                )
            )
        ).query
    )
    assert {k: v[0] for k, v in ours.items()} == theirs


def test_region_of_a_broker_name(backend):
    assert msk_iam.region_of_host("b-1.demo.x1y2z3.c4.kafka.eu-central-1.amazonaws.com") == "eu-central-1"
    assert msk_iam.region_of_host("boot-abc.c2.kafka-serverless.us-east-2.amazonaws.com") == "us-east-2"
    assert msk_iam.region_of_host("b-2.x.kafka.cn-northwest-1.amazonaws.com.cn") == "cn-northwest-1"
    assert msk_iam.region_of_host("127.0.0.1") is None


def _msk_options(**extra) -> dict:
    return {
        "bootstrap.servers": "b-1.demo.x1y2z3.c4.kafka.eu-central-1.amazonaws.com:9098",
        "security.protocol": "SASL_SSL",
        **extra,
    }


@pytest.fixture
def aws_environment(monkeypatch, tmp_path):
    """An AWS chain of nothing but what the test puts in it: no files, no metadata service."""
    for name in ("AWS_ACCESS_KEY_ID", "AWS_SECRET_ACCESS_KEY", "AWS_SESSION_TOKEN", "AWS_PROFILE", "AWS_REGION",
                 "AWS_DEFAULT_REGION", "AWS_ROLE_ARN", "AWS_WEB_IDENTITY_TOKEN_FILE",
                 "AWS_CONTAINER_CREDENTIALS_RELATIVE_URI", "AWS_CONTAINER_CREDENTIALS_FULL_URI"):  # fmt: skip
        monkeypatch.delenv(name, raising=False)
    monkeypatch.setenv("AWS_CONFIG_FILE", str(tmp_path / "config"))
    monkeypatch.setenv("AWS_SHARED_CREDENTIALS_FILE", str(tmp_path / "credentials"))
    monkeypatch.setenv("AWS_EC2_METADATA_DISABLED", "true")
    return tmp_path


def _first_message(config: ClientConfig, host: str) -> bytes:
    client = config.sasl_client(host)
    client.prepare()
    return client.start()


def test_aws_msk_iam_signs_with_the_environments_credentials(aws_environment, monkeypatch, backend):
    pytest.importorskip("botocore")
    monkeypatch.setenv("AWS_ACCESS_KEY_ID", "AKIAENVIRONMENT00001")
    monkeypatch.setenv("AWS_SECRET_ACCESS_KEY", "environment-secret")
    config = ClientConfig.parse(
        _msk_options(**{
            "sasl.mechanism": "AWS_MSK_IAM",
            "sasl.jaas.config": "kafkashaded." + IAM_JAAS,
            "sasl.client.callback.handler.class": "software.amazon.msk.auth.iam.IAMClientCallbackHandler",
        })
    )  # fmt: skip
    host = "b-1.demo.x1y2z3.c4.kafka.eu-central-1.amazonaws.com"
    message = json.loads(_first_message(config, host))
    assert message["x-amz-credential"].startswith("AKIAENVIRONMENT00001/")
    assert "/eu-central-1/kafka-cluster/" in message["x-amz-credential"]
    assert message["host"] == host and "x-amz-security-token" not in message
    when = datetime.datetime.strptime(message["x-amz-date"], "%Y%m%dT%H%M%SZ").replace(
        tzinfo=datetime.timezone.utc
    )
    expected = msk_iam.iam_payload(
        host,
        "eu-central-1",
        AwsCredentials("AKIAENVIRONMENT00001", "environment-secret"),
        when,
        message["user-agent"],
    )
    assert json.loads(expected) == message


def test_a_named_profile_gives_the_credentials_and_a_region_for_the_token(aws_environment, backend):
    pytest.importorskip("botocore")
    (aws_environment / "credentials").write_text(
        "[analytics]\naws_access_key_id = AKIAPROFILE000000001\naws_secret_access_key = profile-secret\n"
        "aws_session_token = profile-session\n"
    )
    (aws_environment / "config").write_text("[profile analytics]\nregion = ap-south-1\n")
    config = ClientConfig.parse(
        _msk_options(**{
            "bootstrap.servers": "10.0.0.7:9098",  # no region in the name: the profile's
            "sasl.mechanism": "OAUTHBEARER",
            "sasl.jaas.config": OAUTH_JAAS[:-1] + ' awsProfileName="analytics";',
            "sasl.login.callback.handler.class": "software.amazon.msk.auth.iam.IAMOAuthBearerLoginCallbackHandler",
        })
    )  # fmt: skip
    token = _first_message(config, "10.0.0.7").split(b"auth=Bearer ")[1].split(b"\x01")[0].decode()
    query = dict(urllib.parse.parse_qsl(urllib.parse.urlsplit(_url(token)).query))
    assert urllib.parse.urlsplit(_url(token)).netloc == "kafka.ap-south-1.amazonaws.com"
    assert query["X-Amz-Credential"].startswith("AKIAPROFILE000000001/")
    assert query["X-Amz-Security-Token"] == "profile-session"


def test_no_credentials_anywhere_is_a_login_error(aws_environment, backend):
    pytest.importorskip("botocore")
    config = ClientConfig.parse(
        _msk_options(**{"sasl.mechanism": "AWS_MSK_IAM", "sasl.jaas.config": IAM_JAAS})
    )
    with pytest.raises(SaslLoginError, match="no AWS credentials"):
        _first_message(config, "b-1.demo.x1y2z3.c4.kafka.eu-central-1.amazonaws.com")


@pytest.mark.parametrize(
    "options, message",
    [
        (
            {"sasl.mechanism": "AWS_MSK_IAM", "sasl.jaas.config": IAM_JAAS,
             "sasl.client.callback.handler.class": "com.example.Other"},
            "AWS_MSK_IAM takes software.amazon.msk.auth.iam.IAMClientCallbackHandler, not com.example.Other",
        ),
        (
            {"sasl.mechanism": "AWS_MSK_IAM", "sasl.jaas.config": OAUTH_JAAS},
            "AWS_MSK_IAM logs in with software.amazon.msk.auth.iam.IAMLoginModule",
        ),
        (
            {"sasl.mechanism": "OAUTHBEARER", "sasl.jaas.config": OAUTH_JAAS},
            "OAUTHBEARER needs option kafka.sasl.login.callback.handler.class",
        ),
    ],
)  # fmt: skip
def test_mismatched_msk_settings_are_errors_naming_them(options, message, backend):
    with pytest.raises(ValueError, match=message.replace(".", r"\.")):
        ClientConfig.parse(_msk_options(**options))
