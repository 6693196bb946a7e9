"""OAUTHBEARER tokens from an OAuth 2 / OpenID Connect server, as Kafka's Java clients get
them (KIP-768): the client-credentials grant at ``sasl.oauthbearer.token.endpoint.url``
(or a token read from a ``file:`` URL), kept per process and fetched again once the
refresh time Kafka would pick has passed.

A :class:`TokenLogin` is plain data (it travels inside a cluster config to Spark's
tasks); :func:`current_token` returns its token, asking the server only when there is
none yet or the one held is due for refresh.  The refresh time is Kafka's
(``ExpiringCredentialRefreshingLogin``): at ``sasl.login.refresh.window.factor`` of the
token's lifetime plus up to ``sasl.login.refresh.window.jitter``, no later than
``sasl.login.refresh.buffer.seconds`` before it expires and no sooner than
``sasl.login.refresh.min.period.seconds`` from now, the buffers dropped when the token
lives shorter than both together.

The token request is Kafka's: a form POST of ``grant_type=client_credentials`` (and
``scope``), the client id and secret in HTTP Basic authentication (URL-encoded first
when ``sasl.oauthbearer.header.urlencode`` is true), retried with exponential backoff
between ``sasl.login.retry.backoff.ms`` and ``sasl.login.retry.backoff.max.ms`` when the
server cannot be reached or answers 5xx.  The access token must be a JWT with an ``exp``
and a subject claim (``sasl.oauthbearer.sub.claim.name``), as Kafka's client checks;
every failure is a :class:`~kafkawire.errors.SaslLoginError` naming the cause.
"""

from __future__ import annotations

import base64
import json
import random
import ssl
import threading
import time
import urllib.error
import urllib.parse
import urllib.request
from dataclasses import dataclass, field
from typing import Dict, Mapping, Optional, Tuple

from kafkawire.errors import SaslLoginError

__all__ = ["TokenLogin", "Token", "current_token", "refresh_time", "jwt_claims", "extensions_of"]


@dataclass(frozen=True)
class TokenLogin:
    """Where and how to get OAUTHBEARER tokens (Kafka's names in the comments)."""

    endpoint: str  # sasl.oauthbearer.token.endpoint.url: https:, http: or file:
    client_id: Optional[str] = None  # JAAS clientId
    client_secret: Optional[str] = field(default=None, repr=False)  # JAAS clientSecret
    scope: Optional[str] = None  # JAAS scope
    extensions: Tuple[Tuple[str, str], ...] = ()  # JAAS extension_<name>=<value>
    urlencode_header: bool = False  # sasl.oauthbearer.header.urlencode
    sub_claim: str = "sub"  # sasl.oauthbearer.sub.claim.name
    window_factor: float = 0.8  # sasl.login.refresh.window.factor
    window_jitter: float = 0.05  # sasl.login.refresh.window.jitter
    min_period: float = 60.0  # sasl.login.refresh.min.period.seconds
    buffer: float = 300.0  # sasl.login.refresh.buffer.seconds
    connect_timeout: float = 10.0  # sasl.login.connect.timeout.ms
    read_timeout: float = 10.0  # sasl.login.read.timeout.ms
    retry_backoff: float = 0.1  # sasl.login.retry.backoff.ms
    retry_backoff_max: float = 10.0  # sasl.login.retry.backoff.max.ms
    cafile: Optional[str] = None  # the trust store of an https: endpoint (PEM)
    cadata: Optional[str] = None


@dataclass(frozen=True)
class Token:
    """An access token with what Kafka's client reads from it."""

    value: str
    principal: str
    start: float  # seconds since the epoch: ``iat``, else when it was fetched
    expiry: float  # ``exp``
    refresh_at: float


def _b64url(part: str) -> bytes:
    return base64.urlsafe_b64decode(part + "=" * (-len(part) % 4))


def jwt_claims(token: str) -> Dict[str, object]:
    """The claims of a JWT in compact serialization, not verified (the broker verifies
    it; the client only reads when it expires and whose it is)."""
    parts = token.split(".")
    if len(parts) != 3:
        raise SaslLoginError(f"the access token is not a JWT: it has {len(parts)} dot-separated parts, not 3")
    try:
        claims = json.loads(_b64url(parts[1]))
    except ValueError:
        raise SaslLoginError("the access token's payload is not base64url-encoded JSON") from None
    if not isinstance(claims, dict):
        raise SaslLoginError("the access token's payload is not a JSON object")
    return claims


def refresh_time(login: TokenLogin, start: float, expiry: float, now: float, rng: random.Random) -> float:
    """When Kafka's client would fetch the next token (seconds since the epoch)."""
    pct = login.window_factor + login.window_jitter * rng.random()
    if now + login.min_period + login.buffer > expiry:
        return now + (expiry - now) * pct
    proposed = start + (expiry - start) * pct
    if proposed > expiry - login.buffer:
        return expiry - login.buffer
    return max(proposed, now + login.min_period)


def _token_of(login: TokenLogin, value: str, now: float) -> Token:
    claims = jwt_claims(value)
    expiry = claims.get("exp")
    if not isinstance(expiry, (int, float)) or isinstance(expiry, bool):
        raise SaslLoginError("the access token has no numeric 'exp' claim")
    principal = claims.get(login.sub_claim)
    if not isinstance(principal, str) or not principal.strip():
        raise SaslLoginError(f"the access token has no '{login.sub_claim}' claim naming its subject")
    if expiry <= now:
        raise SaslLoginError(f"the access token expired at {expiry} (now {now:.0f})")
    issued = claims.get("iat")
    start = float(issued) if isinstance(issued, (int, float)) and not isinstance(issued, bool) else now
    return Token(
        value,
        principal,
        start,
        float(expiry),
        refresh_time(login, start, float(expiry), now, random.Random()),
    )


def _request(login: TokenLogin) -> urllib.request.Request:
    client_id, secret = login.client_id or "", login.client_secret or ""
    if login.urlencode_header:
        client_id, secret = urllib.parse.quote_plus(client_id), urllib.parse.quote_plus(secret)
    basic = base64.b64encode(f"{client_id}:{secret}".encode("utf-8")).decode("ascii")
    body = "grant_type=client_credentials"
    if login.scope:
        body += "&scope=" + urllib.parse.quote_plus(login.scope)
    return urllib.request.Request(
        login.endpoint,
        data=body.encode("ascii"),
        method="POST",
        headers={
            "Accept": "application/json",
            "Authorization": f"Basic {basic}",
            "Cache-Control": "no-cache",
            "Content-Type": "application/x-www-form-urlencoded",
        },
    )


class _Retry(Exception):
    pass


def _post_once(login: TokenLogin) -> str:
    context = None
    if login.endpoint.lower().startswith("https:"):
        context = ssl.create_default_context(cafile=login.cafile, cadata=login.cadata)
    # urllib has one timeout for the connect and each read: the longer of the two
    timeout = max(login.connect_timeout, login.read_timeout)
    try:
        with urllib.request.urlopen(_request(login), timeout=timeout, context=context) as answer:
            body = answer.read(1 << 20)
    except urllib.error.HTTPError as exc:
        detail = exc.read(2000).decode("utf-8", "replace")
        message = f"the token endpoint {login.endpoint} answered HTTP {exc.code}: {detail}"
        if exc.code >= 500:
            raise _Retry(message) from None
        raise SaslLoginError(message) from None
    except (urllib.error.URLError, OSError) as exc:
        raise _Retry(f"the token endpoint {login.endpoint} cannot be reached: {exc}") from None
    try:
        answer_json = json.loads(body)
        token = answer_json["access_token"]
    except (ValueError, KeyError, TypeError):
        raise SaslLoginError(
            f"the token endpoint {login.endpoint} did not answer JSON with an access_token: {body[:200]!r}"
        ) from None
    if not isinstance(token, str) or not token:
        raise SaslLoginError(f"the token endpoint {login.endpoint} answered an empty access_token")
    return token


def _fetch(login: TokenLogin) -> str:
    """The token the endpoint gives now, retried as Kafka retries."""
    if login.endpoint.lower().startswith("file:"):
        path = urllib.request.url2pathname(urllib.parse.urlparse(login.endpoint).path)
        try:
            with open(path, encoding="utf-8") as fh:
                return fh.read().strip()
        except OSError as exc:
            raise SaslLoginError(f"cannot read the access token from {login.endpoint}: {exc}") from None
    if login.client_id is None or login.client_secret is None:
        raise SaslLoginError(
            "OAUTHBEARER with a token endpoint needs clientId and clientSecret in the JAAS line"
        )
    backoff, waited = login.retry_backoff, 0.0
    while True:
        try:
            return _post_once(login)
        except _Retry as exc:
            if waited + backoff > login.retry_backoff_max:
                raise SaslLoginError(f"{exc} (gave up after {waited + backoff:g} s of retries)") from None
            time.sleep(backoff)
            waited += backoff
            backoff = min(backoff * 2, login.retry_backoff_max)


_lock = threading.Lock()
_tokens: Dict[TokenLogin, Token] = {}


def current_token(login: TokenLogin) -> Token:
    """The token to present now: the one this process holds, or a new one once the held
    one is due for refresh (blocking: call it off an event loop)."""
    with _lock:  # one fetch at a time: the connections of a process share the token
        held = _tokens.get(login)
        now = time.time()
        if held is not None and now < held.refresh_at and now < held.expiry:
            return held
        token = _token_of(login, _fetch(login), time.time())
        _tokens[login] = token
        return token


def extensions_of(jaas: Mapping[str, str]) -> Tuple[Tuple[str, str], ...]:
    """The SASL extensions of a JAAS line's ``extension_<name>=<value>`` options."""
    return tuple(
        (key[len("extension_") :], value) for key, value in jaas.items() if key.startswith("extension_")
    )
