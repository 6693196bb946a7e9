"""Amazon MSK's IAM authentication, built as AWS's own libraries build it.

Two ways to present the same proof, a SigV4 presigned ``GET
/?Action=kafka-cluster:Connect`` signed for the ``kafka-cluster`` service:

* the ``AWS_MSK_IAM`` mechanism (``software.amazon.msk.auth.iam.IAMLoginModule``): the
  client's one message is a JSON object of the presigned request's query parameters and
  host, with ``version`` and ``user-agent`` (:func:`iam_payload`, as the
  ``aws-msk-iam-auth`` jar writes it); the broker answers with a JSON object holding its
  ``version`` and ``request-id``;
* OAUTHBEARER with MSK's signer token (``IAMOAuthBearerLoginCallbackHandler``, and the
  ``aws-msk-iam-sasl-signer`` libraries): the presigned URL of
  ``kafka.<region>.amazonaws.com`` with a ``User-Agent`` parameter, base64url without
  padding (:func:`oauth_token`).

Credentials come from the standard AWS chain through botocore (the ``aws`` extra):
environment variables, the shared config and credentials files (``awsProfileName``), a
web identity, container or instance role, or a role assumed through STS
(``awsRoleArn``).  The region is the broker host's (``...kafka.<region>.amazonaws.com``),
else the chain's (``AWS_REGION``, the profile's ``region``).
"""

from __future__ import annotations

import base64
import datetime
import hashlib
import hmac
import json
import re
import urllib.parse
from dataclasses import dataclass
from typing import Any, Callable, List, Mapping, Optional, Tuple

from kafkawire.errors import SaslAuthenticationError, SaslLoginError, SaslMalformedError
from kafkawire.sasl.mechanisms import OAuthBearerClient, SaslClient

__all__ = [
    "AwsCredentials",
    "MskIamLogin",
    "MskIamClient",
    "presigned_query",
    "iam_payload",
    "oauth_token",
    "region_of_host",
]

SERVICE = "kafka-cluster"
ACTION = "kafka-cluster:Connect"
PAYLOAD_VERSION = "2020_10_22"
EXPIRES = 900  # seconds: the 15 minutes both of AWS's libraries sign for
_EMPTY_SHA256 = hashlib.sha256(b"").hexdigest()
# The order the jar's JSON has its keys in: that of a Java HashMap of 16 buckets (eleven
# keys do not outgrow it), bucket (h ^ h >>> 16) & 15 of String.hashCode h, a shared
# bucket in the jar's insertion order
_PAYLOAD_ORDER = (
    "x-amz-date",
    "x-amz-signedheaders",
    "x-amz-signature",
    "host",
    "action",
    "x-amz-expires",
    "x-amz-security-token",
    "version",
    "x-amz-algorithm",
    "x-amz-credential",
    "user-agent",
)
_REGION_HOST = re.compile(r"\.([a-z]{2}(?:-[a-z]+)+-\d+)\.amazonaws\.com(?:\.cn)?\.?\Z")


@dataclass(frozen=True)
class AwsCredentials:
    """An access key, its secret and, for temporary credentials, the session token."""

    access_key: str
    secret_key: str
    session_token: Optional[str] = None

    def __repr__(self) -> str:  # never the secret in a log or traceback
        return f"AwsCredentials(access_key={self.access_key!r}, secret_key=***)"


def region_of_host(host: str) -> Optional[str]:
    """The AWS region an MSK broker's DNS name is in (None for any other name)."""
    m = _REGION_HOST.search(host.lower())
    return m.group(1) if m else None


def _quote(value: str) -> str:
    """SigV4's URI encoding: every byte but unreserved characters as %XX."""
    return urllib.parse.quote(value, safe="-_.~")


def _signing_key(secret: str, day: str, region: str) -> bytes:
    key = ("AWS4" + secret).encode("utf-8")
    for part in (day, region, SERVICE, "aws4_request"):
        key = hmac.new(key, part.encode("utf-8"), hashlib.sha256).digest()
    return key


def presigned_query(
    host: str, region: str, credentials: AwsCredentials, now: datetime.datetime, expires: int = EXPIRES
) -> List[Tuple[str, str]]:
    """The query parameters of the SigV4 presigned ``GET https://host/?Action=...``,
    signature last, at time ``now`` (UTC)."""
    stamp = now.astimezone(datetime.timezone.utc).strftime("%Y%m%dT%H%M%SZ")
    scope = f"{stamp[:8]}/{region}/{SERVICE}/aws4_request"
    params = [
        ("Action", ACTION),
        ("X-Amz-Algorithm", "AWS4-HMAC-SHA256"),
        ("X-Amz-Credential", f"{credentials.access_key}/{scope}"),
        ("X-Amz-Date", stamp),
        ("X-Amz-Expires", str(expires)),
        ("X-Amz-SignedHeaders", "host"),
    ]
    if credentials.session_token:
        params.append(("X-Amz-Security-Token", credentials.session_token))
    canonical_query = "&".join(f"{_quote(k)}={_quote(v)}" for k, v in sorted(params))
    canonical = "\n".join(("GET", "/", canonical_query, f"host:{host}", "", "host", _EMPTY_SHA256))
    to_sign = "\n".join(
        ("AWS4-HMAC-SHA256", stamp, scope, hashlib.sha256(canonical.encode("utf-8")).hexdigest())
    )
    key = _signing_key(credentials.secret_key, stamp[:8], region)
    signature = hmac.new(key, to_sign.encode("utf-8"), hashlib.sha256).hexdigest()
    return params + [("X-Amz-Signature", signature)]


def iam_payload(
    host: str,
    region: str,
    credentials: AwsCredentials,
    now: datetime.datetime,
    user_agent: str,
    expires: int = EXPIRES,
) -> bytes:
    """The ``AWS_MSK_IAM`` client message for the broker at ``host``."""
    fields = {k.lower(): v for k, v in presigned_query(host, region, credentials, now, expires)}
    fields.update(version=PAYLOAD_VERSION, host=host)
    fields["user-agent"] = user_agent
    ordered = {k: fields[k] for k in _PAYLOAD_ORDER if k in fields}
    return json.dumps(ordered, separators=(",", ":"), ensure_ascii=False).encode("utf-8")


def oauth_token(
    region: str, credentials: AwsCredentials, now: datetime.datetime, user_agent: str, expires: int = EXPIRES
) -> str:
    """MSK's OAUTHBEARER token: the presigned URL of ``kafka.<region>.amazonaws.com``
    with a ``User-Agent`` parameter, base64url without padding."""
    host = f"kafka.{region}.amazonaws.com"
    query = presigned_query(host, region, credentials, now, expires) + [("User-Agent", user_agent)]
    url = f"https://{host}/?" + "&".join(f"{_quote(k)}={_quote(v)}" for k, v in query)
    return base64.urlsafe_b64encode(url.encode("utf-8")).decode("ascii").rstrip("=")


def _user_agent() -> str:
    from kafkawire import __version__

    return f"kafkawire/{__version__}"


@dataclass(frozen=True)
class MskIamLogin:
    """Where MSK IAM credentials come from (the JAAS options of AWS's login module)."""

    oauthbearer: bool = False  # the OAUTHBEARER token rather than AWS_MSK_IAM
    profile: Optional[str] = None  # awsProfileName
    role_arn: Optional[str] = None  # awsRoleArn
    role_session_name: Optional[str] = None  # awsRoleSessionName
    role_external_id: Optional[str] = None  # awsRoleExternalId
    sts_region: Optional[str] = None  # awsStsRegion

    @classmethod
    def from_jaas(cls, jaas: Mapping[str, str], *, oauthbearer: bool = False) -> "MskIamLogin":
        """The login of a JAAS line's options (unknown options of AWS's are ignored, as
        its login module ignores them: ``awsDebugCreds``, ``awsMaxRetries``, ...)."""
        if jaas.get("awsRoleAccessKeyId") or jaas.get("awsRoleSecretAccessKey"):
            raise ValueError(
                "option kafka.sasl.jaas.config: awsRoleAccessKeyId/awsRoleSecretAccessKey are not taken; "
                "give the keys through the AWS credential chain (variables or a profile)"
            )
        return cls(
            oauthbearer=oauthbearer,
            profile=jaas.get("awsProfileName"),
            role_arn=jaas.get("awsRoleArn"),
            role_session_name=jaas.get("awsRoleSessionName"),
            role_external_id=jaas.get("awsRoleExternalId"),
            sts_region=jaas.get("awsStsRegion"),
        )

    def _session(self) -> Any:  # a botocore.session.Session (botocore is optional)
        try:
            import botocore.session
        except ImportError as exc:
            raise ModuleNotFoundError(
                "Amazon MSK IAM needs the 'botocore' package for the AWS credential chain: "
                "pip install 'kafkawire[aws]'",
                name="botocore",
            ) from exc
        return botocore.session.Session(profile=self.profile)

    def credentials(self) -> AwsCredentials:
        """The credentials of the AWS chain now (blocking: it may ask STS or the
        instance metadata service)."""
        session = self._session()
        import botocore.exceptions

        try:
            if self.role_arn:
                sts = session.create_client(
                    "sts", region_name=self.sts_region or session.get_config_variable("region")
                )
                kwargs = {
                    "RoleArn": self.role_arn,
                    "RoleSessionName": self.role_session_name or "aws-msk-iam-auth",
                }
                if self.role_external_id:
                    kwargs["ExternalId"] = self.role_external_id
                got = sts.assume_role(**kwargs)["Credentials"]
                return AwsCredentials(got["AccessKeyId"], got["SecretAccessKey"], got["SessionToken"])
            found = session.get_credentials()
        except botocore.exceptions.BotoCoreError as exc:
            raise SaslLoginError(f"Amazon MSK IAM: no AWS credentials: {exc}") from None
        except botocore.exceptions.ClientError as exc:
            raise SaslLoginError(f"Amazon MSK IAM: assuming role {self.role_arn} failed: {exc}") from None
        if found is None:
            raise SaslLoginError(
                "Amazon MSK IAM: no AWS credentials in the chain (AWS_ACCESS_KEY_ID and AWS_SECRET_ACCESS_KEY, "
                "a profile, a web identity or an instance role)"
            )
        frozen = found.get_frozen_credentials()
        return AwsCredentials(frozen.access_key, frozen.secret_key, frozen.token)

    def region(self, host: str) -> str:
        """The region to sign for: the broker host's, else the AWS chain's."""
        region = region_of_host(host)
        if region is None:
            region = self._session().get_config_variable("region")
        if not region:
            raise SaslLoginError(
                f"Amazon MSK IAM: no AWS region: {host} is no MSK broker name and neither AWS_REGION "
                "nor the profile names one"
            )
        return region

    def oauth_token(self, host: str) -> str:
        """The OAUTHBEARER token to present now (blocking)."""
        return oauth_token(self.region(host), self.credentials(), _utc_now(), _user_agent())

    def sasl_client(self, host: str) -> SaslClient:
        """A SASL client for one connection to ``host``."""
        if self.oauthbearer:
            return OAuthBearerClient(lambda: self.oauth_token(host))
        return MskIamClient(
            host, lambda: iam_payload(host, self.region(host), self.credentials(), _utc_now(), _user_agent())
        )


def _utc_now() -> datetime.datetime:
    return datetime.datetime.now(datetime.timezone.utc)


class MskIamClient(SaslClient):
    """``AWS_MSK_IAM``: one JSON message from the client, one JSON answer from the broker
    (its ``version`` and ``request-id``, kept in :attr:`request_id`).  ``payload`` makes
    the message (it may block: :mod:`kafkawire.aio` calls ``prepare()`` in a thread)."""

    mechanism = "AWS_MSK_IAM"

    def __init__(self, host: str, payload: Callable[[], bytes]) -> None:
        super().__init__()
        self.host = host
        self._payload = payload
        self._message = b""
        self.request_id: Optional[str] = None

    def prepare(self) -> None:
        """Make the message now (credentials, signature)."""
        self._message = self._payload()

    def _first(self) -> bytes:
        if not self._message:
            self.prepare()
        return self._message

    def _next(self, challenge: bytes) -> Optional[bytes]:
        if not challenge:
            raise SaslAuthenticationError("AWS_MSK_IAM: the broker answered with an empty message")
        try:
            answer = json.loads(challenge.decode("utf-8"))
        except ValueError:
            raise SaslMalformedError("AWS_MSK_IAM: the broker's answer is not JSON") from None
        if not isinstance(answer, dict) or "request-id" not in answer:
            raise SaslMalformedError("AWS_MSK_IAM: the broker's answer has no request-id")
        self.request_id = str(answer["request-id"])
        self.complete = True
        return None
