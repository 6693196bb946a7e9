"""The SASL mechanisms Kafka offers, each a client and a server that do no I/O: PLAIN,
SCRAM-SHA-256/512 and OAUTHBEARER, with the parsers of their messages (the package's
docstring, :mod:`kafkawire.sasl`, says how each works)."""

from __future__ import annotations

import base64
import binascii
import hashlib
import hmac
import json
import re
import secrets
from dataclasses import dataclass
from typing import Callable, Dict, List, Mapping, Optional, Tuple, Union

from kafkawire.errors import (
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

__all__ = [
    "DEFAULT_MAX_TOKEN_SIZE",
    "MIN_ITERATIONS",
    "MAX_ITERATIONS",
    "SCRAM_MECHANISMS",
    "MECHANISMS",
    "SaslClient",
    "SaslServer",
    "PlainClient",
    "parse_plain",
    "PlainServer",
    "ScramCredential",
    "salted_password",
    "scram_credential",
    "escape_saslname",
    "unescape_saslname",
    "ClientFirst",
    "parse_client_first",
    "ServerFirst",
    "parse_server_first",
    "ClientFinal",
    "parse_client_final",
    "ServerFinal",
    "parse_server_final",
    "ScramClient",
    "ScramServer",
    "oauthbearer_initial_response",
    "OAuthBearerResponse",
    "parse_oauthbearer_initial_response",
    "oauthbearer_error_reply",
    "parse_oauthbearer_error_reply",
    "OAuthBearerClient",
    "OAuthBearerServer",
    "client_for",
]

#: Kafka's ``sasl.server.max.receive.size`` default: the largest token either side accepts.
DEFAULT_MAX_TOKEN_SIZE = 524288
#: Kafka's bounds on SCRAM iteration counts (both SCRAM-SHA-256 and -512).
MIN_ITERATIONS = 4096
MAX_ITERATIONS = 16384

_HASHES = {"SCRAM-SHA-256": "sha256", "SCRAM-SHA-512": "sha512", "SCRAM-SHA-1": "sha1"}
#: The SCRAM mechanisms Kafka offers.
SCRAM_MECHANISMS = ("SCRAM-SHA-256", "SCRAM-SHA-512")
#: Every mechanism this module implements for Kafka.
MECHANISMS = ("PLAIN",) + SCRAM_MECHANISMS + ("OAUTHBEARER",)


def _check_size(token: bytes, limit: int, what: str) -> bytes:
    if len(token) > limit:
        raise SaslTokenTooLarge(f"{what} is {len(token)} bytes, over the limit of {limit}")
    return bytes(token)


def _utf8(data: bytes, what: str) -> str:
    try:
        return data.decode("utf-8")
    except UnicodeDecodeError as exc:
        raise SaslMalformedError(f"{what} is not UTF-8: {exc}") from None


class SaslClient:
    """One client side of one SASL exchange."""

    mechanism = ""

    def __init__(self) -> None:
        self.complete = False
        self._started = False

    def start(self) -> bytes:
        """The client's first message (the SASL initial response)."""
        if self._started:
            raise SaslStateError(f"{self.mechanism}: the exchange has already started")
        self._started = True
        return self._first()

    def receive(self, challenge: bytes) -> Optional[bytes]:
        """The response to the server's ``challenge``; None once the exchange is complete."""
        if not self._started or self.complete:
            raise SaslStateError(f"{self.mechanism}: no challenge is expected now")
        return self._next(bytes(challenge))

    def _first(self) -> bytes:
        raise NotImplementedError

    def _next(self, challenge: bytes) -> Optional[bytes]:
        raise NotImplementedError


class SaslServer:
    """One server side of one SASL exchange: ``receive`` each client message, send back
    what it returns; once ``complete``, ``principal`` is the authenticated user."""

    mechanism = ""
    #: Whether the server's answer to the client's last message goes back after a
    #: SaslHandshake v0 (Kafka sends PLAIN's and SCRAM's, but nothing after GSSAPI's).
    final_reply = True

    def __init__(self, max_token_size: int = DEFAULT_MAX_TOKEN_SIZE) -> None:
        self.complete = False
        self.principal: Optional[str] = None
        self.max_token_size = max_token_size
        self._failed = False

    def receive(self, response: bytes) -> bytes:
        """The challenge answering the client's ``response`` (empty when there is none)."""
        if self.complete or self._failed:
            raise SaslStateError(f"{self.mechanism}: the exchange is over")
        response = _check_size(response, self.max_token_size, f"{self.mechanism} client message")
        try:
            return self._step(response)
        except SaslError:
            self._failed = True
            raise

    def _step(self, response: bytes) -> bytes:
        raise NotImplementedError


# -- PLAIN ---------------------------------------------------------------------------------


def _plain_token(authzid: str, username: str, password: str) -> bytes:
    return "\0".join((authzid, username, password)).encode("utf-8")


class PlainClient(SaslClient):
    """PLAIN: the whole exchange is one message from the client; the server answers it
    with an empty challenge."""

    mechanism = "PLAIN"

    def __init__(self, username: str, password: str, authzid: str = "") -> None:
        super().__init__()
        if not username or not password or "\0" in username + password + authzid:
            raise ValueError("PLAIN needs a non-empty username and password without NUL")
        self._token = _plain_token(authzid, username, password)

    def _first(self) -> bytes:
        return self._token

    def _next(self, challenge: bytes) -> Optional[bytes]:
        if challenge:
            raise SaslMalformedError(
                f"PLAIN: the server sent {len(challenge)} bytes after the credentials (it sends none)"
            )
        self.complete = True
        return None


def parse_plain(token: bytes) -> Tuple[str, str, str]:
    """``(authzid, username, password)`` of a PLAIN message."""
    parts = _utf8(token, "PLAIN message").split("\0")
    if len(parts) != 3:
        raise SaslMalformedError(f"PLAIN message has {len(parts)} NUL-separated parts, not 3")
    authzid, username, password = parts
    if not username:
        raise SaslMalformedError("PLAIN message has an empty username")
    if not password:
        raise SaslMalformedError("PLAIN message has an empty password")
    return authzid, username, password


class PlainServer(SaslServer):
    """PLAIN against ``users`` (name -> password)."""

    mechanism = "PLAIN"

    def __init__(self, users: Mapping[str, str], max_token_size: int = DEFAULT_MAX_TOKEN_SIZE) -> None:
        super().__init__(max_token_size)
        self._users = users

    def _step(self, response: bytes) -> bytes:
        authzid, username, password = parse_plain(response)
        if authzid and authzid != username:
            raise SaslAuthenticationError(
                "Authentication failed: Client requested an authorization id that is different from username"
            )
        expected = self._users.get(username)
        # compare even for an unknown user, so that timing does not tell which users exist
        ok = hmac.compare_digest(
            (expected if expected is not None else "\0").encode("utf-8"), password.encode("utf-8")
        )
        if expected is None or not ok:
            raise SaslAuthenticationError("Authentication failed: Invalid username or password")
        self.principal = username
        self.complete = True
        return b""


# -- SCRAM ---------------------------------------------------------------------------------


@dataclass(frozen=True)
class ScramCredential:
    """What a SCRAM server stores for a user (never the password)."""

    salt: bytes
    stored_key: bytes
    server_key: bytes
    iterations: int


def _hash_name(mechanism: str) -> str:
    try:
        return _HASHES[mechanism]
    except KeyError:
        raise SaslMechanismError(f"not a SCRAM mechanism: {mechanism!r}") from None


def _hmac(hash_name: str, key: bytes, data: bytes) -> bytes:
    return hmac.new(key, data, hash_name).digest()


def salted_password(mechanism: str, password: str, salt: bytes, iterations: int) -> bytes:
    """RFC 5802's SaltedPassword: PBKDF2 of the password's UTF-8 bytes."""
    return hashlib.pbkdf2_hmac(_hash_name(mechanism), password.encode("utf-8"), salt, iterations)


def scram_credential(
    mechanism: str, password: str, *, salt: Optional[bytes] = None, iterations: int = MIN_ITERATIONS
) -> ScramCredential:
    """The credential a server keeps for ``password`` (a random 32-byte salt by default)."""
    name = _hash_name(mechanism)
    if not MIN_ITERATIONS <= iterations <= MAX_ITERATIONS:
        raise SaslIterationCountError(
            f"{mechanism} iterations must be within {MIN_ITERATIONS}-{MAX_ITERATIONS}, not {iterations}"
        )
    salt = secrets.token_bytes(32) if salt is None else bytes(salt)
    salted = salted_password(mechanism, password, salt, iterations)
    client_key = _hmac(name, salted, b"Client Key")
    return ScramCredential(
        salt=salt,
        stored_key=hashlib.new(name, client_key).digest(),
        server_key=_hmac(name, salted, b"Server Key"),
        iterations=iterations,
    )


def _b64decode(value: str, what: str) -> bytes:
    try:
        return base64.b64decode(value.encode("ascii"), validate=True)
    except (binascii.Error, UnicodeEncodeError, ValueError):
        raise SaslBase64Error(f"SCRAM {what} is not valid base64: {value[:40]!r}") from None


def _b64(data: bytes) -> str:
    return base64.b64encode(data).decode("ascii")


# An attribute is a name ('r', or an extension's such as Kafka's 'tokenauth'), '=', then
# a value without ','.
_ATTRIBUTE = re.compile(r"([A-Za-z][A-Za-z0-9]*)=([^,]*)\Z", re.S)
# Names RFC 5802 gives a meaning: none of them may come back as an extension.
_RESERVED = frozenset("nrcpsievma")
# A nonce is printable ASCII except ','.
_NONCE = re.compile(r"[\x21-\x2b\x2d-\x7e]+\Z")


def _attributes(message: str, what: str) -> List[Tuple[str, str]]:
    out = []
    for part in message.split(","):
        m = _ATTRIBUTE.match(part)
        if m is None:
            raise SaslMalformedError(f"SCRAM {what}: {part[:40]!r} is not an attribute (x=value)")
        out.append((m.group(1), m.group(2)))
    return out


def _expect(attrs: List[Tuple[str, str]], index: int, name: str, what: str) -> str:
    if index >= len(attrs) or attrs[index][0] != name:
        found = attrs[index][0] if index < len(attrs) else "the end"
        raise SaslMalformedError(
            f"SCRAM {what}: expected attribute {name}= at position {index + 1}, found {found!r}"
        )
    return attrs[index][1]


def _extensions(attrs: List[Tuple[str, str]], what: str) -> Dict[str, str]:
    out = {}
    for name, value in attrs:
        if name in _RESERVED:
            raise SaslMalformedError(f"SCRAM {what}: attribute {name}= is out of place")
        if name in out:
            raise SaslMalformedError(f"SCRAM {what}: extension {name!r} appears twice")
        out[name] = value
    return out


def _nonce(value: str, what: str) -> str:
    if not _NONCE.match(value):
        raise SaslMalformedError(
            f"SCRAM {what}: the nonce is empty or has characters outside printable ASCII"
        )
    return value


def escape_saslname(name: str) -> str:
    """A username as RFC 5802 writes it: ``=`` as ``=3D``, ``,`` as ``=2C``."""
    return name.replace("=", "=3D").replace(",", "=2C")


def unescape_saslname(value: str) -> str:
    """The username of an escaped saslname; any other ``=`` sequence is malformed."""
    if re.search(r"=(?!2C|3D)", value):
        raise SaslMalformedError(f"SCRAM username {value[:40]!r} has '=' not followed by 2C or 3D")
    return value.replace("=2C", ",").replace("=3D", "=")


@dataclass(frozen=True)
class ClientFirst:
    """A parsed SCRAM client-first message."""

    gs2_header: str
    authzid: str
    username: str
    nonce: str
    extensions: Dict[str, str]
    bare: str


def parse_client_first(message: bytes) -> ClientFirst:
    """Parse ``gs2-header client-first-message-bare`` (``n,,n=user,r=nonce[,ext...]``)."""
    text = _utf8(message, "SCRAM client-first message")
    parts = text.split(",", 2)
    if len(parts) != 3:
        raise SaslMalformedError("SCRAM client-first message: no GS2 header (n,, or n,a=id,)")
    flag, authz, bare = parts
    if flag in ("y",) or flag.startswith("p="):
        raise SaslAuthenticationError("SCRAM: channel binding was requested; only n,, is supported")
    if flag != "n":
        raise SaslMalformedError(f"SCRAM client-first message: GS2 flag {flag[:10]!r} is not n, y or p=")
    authzid = ""
    if authz:
        if not authz.startswith("a="):
            raise SaslMalformedError("SCRAM client-first message: GS2 authzid is not a=...")
        authzid = unescape_saslname(authz[2:])
    attrs = _attributes(bare, "client-first message")
    if attrs and attrs[0][0] == "m":
        raise SaslMalformedError("SCRAM client-first message: mandatory extension m= is not supported")
    username = unescape_saslname(_expect(attrs, 0, "n", "client-first message"))
    if not username:
        raise SaslMalformedError("SCRAM client-first message: empty username")
    nonce = _nonce(_expect(attrs, 1, "r", "client-first message"), "client-first message")
    return ClientFirst(
        gs2_header=f"{flag},{authz},",
        authzid=authzid,
        username=username,
        nonce=nonce,
        extensions=_extensions(attrs[2:], "client-first message"),
        bare=bare,
    )


@dataclass(frozen=True)
class ServerFirst:
    """A parsed SCRAM server-first message."""

    nonce: str
    salt: bytes
    iterations: int
    extensions: Dict[str, str]


def parse_server_first(message: bytes, *, max_iterations: int = MAX_ITERATIONS) -> ServerFirst:
    """Parse ``r=nonce,s=salt,i=iterations[,ext...]``; the iteration count must be within
    ``MIN_ITERATIONS`` and ``max_iterations``."""
    text = _utf8(message, "SCRAM server-first message")
    attrs = _attributes(text, "server-first message")
    if attrs and attrs[0][0] == "m":
        raise SaslMalformedError("SCRAM server-first message: mandatory extension m= is not supported")
    nonce = _nonce(_expect(attrs, 0, "r", "server-first message"), "server-first message")
    salt = _b64decode(_expect(attrs, 1, "s", "server-first message"), "salt")
    if not salt:
        raise SaslMalformedError("SCRAM server-first message: empty salt")
    count = _expect(attrs, 2, "i", "server-first message")
    if not count.isascii() or not count.isdigit() or len(count) > 10:
        raise SaslMalformedError(
            f"SCRAM server-first message: iteration count {count[:20]!r} is not a number"
        )
    iterations = int(count)
    if iterations < MIN_ITERATIONS:
        raise SaslIterationCountError(
            f"SCRAM iteration count {iterations} is below the minimum of {MIN_ITERATIONS}"
        )
    if iterations > max_iterations:
        raise SaslIterationCountError(
            f"SCRAM iteration count {iterations} is over the accepted maximum of {max_iterations}"
        )
    return ServerFirst(
        nonce=nonce,
        salt=salt,
        iterations=iterations,
        extensions=_extensions(attrs[3:], "server-first message"),
    )


@dataclass(frozen=True)
class ClientFinal:
    """A parsed SCRAM client-final message."""

    channel_binding: bytes
    nonce: str
    extensions: Dict[str, str]
    proof: bytes
    without_proof: str


def parse_client_final(message: bytes) -> ClientFinal:
    """Parse ``c=binding,r=nonce[,ext...],p=proof``."""
    text = _utf8(message, "SCRAM client-final message")
    attrs = _attributes(text, "client-final message")
    binding = _b64decode(_expect(attrs, 0, "c", "client-final message"), "channel binding")
    nonce = _nonce(_expect(attrs, 1, "r", "client-final message"), "client-final message")
    if len(attrs) < 3 or attrs[-1][0] != "p":
        raise SaslMalformedError("SCRAM client-final message: the last attribute is not p=")
    proof = _b64decode(attrs[-1][1], "client proof")
    without_proof = text[: text.rindex(",p=")]
    return ClientFinal(
        channel_binding=binding,
        nonce=nonce,
        extensions=_extensions(attrs[2:-1], "client-final message"),
        proof=proof,
        without_proof=without_proof,
    )


@dataclass(frozen=True)
class ServerFinal:
    """A parsed SCRAM server-final message: a signature, or an error."""

    signature: Optional[bytes]
    error: Optional[str]
    extensions: Dict[str, str]


def parse_server_final(message: bytes) -> ServerFinal:
    """Parse ``v=signature[,ext...]`` or ``e=error[,ext...]``."""
    text = _utf8(message, "SCRAM server-final message")
    attrs = _attributes(text, "server-final message")
    name, value = attrs[0]
    extensions = _extensions(attrs[1:], "server-final message")
    if name == "e":
        return ServerFinal(signature=None, error=value, extensions=extensions)
    if name != "v":
        raise SaslMalformedError(f"SCRAM server-final message starts with {name}=, not v= or e=")
    return ServerFinal(signature=_b64decode(value, "server signature"), error=None, extensions=extensions)


class ScramClient(SaslClient):
    """SCRAM-SHA-256 or SCRAM-SHA-512.  ``token_auth=True`` authenticates with a Kafka
    delegation token (``username`` is the token id, ``password`` its HMAC)."""

    def __init__(
        self,
        mechanism: str,
        username: str,
        password: str,
        *,
        token_auth: bool = False,
        nonce: Optional[str] = None,
        max_iterations: int = MAX_ITERATIONS,
        max_token_size: int = DEFAULT_MAX_TOKEN_SIZE,
    ) -> None:
        super().__init__()
        self._hash = _hash_name(mechanism)
        self.mechanism = mechanism
        if not username:
            raise ValueError("SCRAM needs a username")
        self._username = username
        self._password = password
        self._token_auth = token_auth
        self._nonce = _nonce(nonce, "client nonce") if nonce is not None else secrets.token_urlsafe(24)
        self._max_iterations = max_iterations
        self._max_token_size = max_token_size
        self._gs2 = "n,,"
        self._bare = ""
        self._server_signature = b""
        self._awaiting_final = False

    def _first(self) -> bytes:
        self._bare = f"n={escape_saslname(self._username)},r={self._nonce}"
        if self._token_auth:
            self._bare += ",tokenauth=true"
        return (self._gs2 + self._bare).encode("utf-8")

    def _next(self, challenge: bytes) -> Optional[bytes]:
        challenge = _check_size(challenge, self._max_token_size, "SCRAM server message")
        if self._awaiting_final:
            self._final(challenge)
            return None
        first = parse_server_first(challenge, max_iterations=self._max_iterations)
        if not first.nonce.startswith(self._nonce) or len(first.nonce) == len(self._nonce):
            raise SaslAuthenticationError("SCRAM server nonce does not extend the client nonce")
        salted = salted_password(self.mechanism, self._password, first.salt, first.iterations)
        client_key = _hmac(self._hash, salted, b"Client Key")
        stored_key = hashlib.new(self._hash, client_key).digest()
        without_proof = f"c={_b64(self._gs2.encode())},r={first.nonce}"
        auth_message = ",".join((self._bare, challenge.decode("utf-8"), without_proof)).encode("utf-8")
        signature = _hmac(self._hash, stored_key, auth_message)
        proof = bytes(a ^ b for a, b in zip(client_key, signature))
        self._server_signature = _hmac(self._hash, _hmac(self._hash, salted, b"Server Key"), auth_message)
        self._awaiting_final = True
        return f"{without_proof},p={_b64(proof)}".encode("utf-8")

    def _final(self, challenge: bytes) -> None:
        final = parse_server_final(challenge)
        if final.error is not None:
            raise SaslAuthenticationError(f"SCRAM server refused the authentication: {final.error}")
        if (
            final.signature is None
            or self._server_signature is None
            or not hmac.compare_digest(final.signature, self._server_signature)
        ):
            raise SaslServerSignatureError(
                "SCRAM server signature does not match: the server does not know this user's credential"
            )
        self.complete = True
        return None


class ScramServer(SaslServer):
    """SCRAM-SHA-256 or SCRAM-SHA-512 against ``credentials`` (username ->
    :class:`ScramCredential`); ``tokens`` (token id -> (owner, credential)) serves
    clients that send Kafka's ``tokenauth=true``, whose principal is the token's owner."""

    def __init__(
        self,
        mechanism: str,
        credentials: Mapping[str, ScramCredential],
        *,
        tokens: Optional[Mapping[str, Tuple[str, ScramCredential]]] = None,
        nonce: Optional[str] = None,
        max_token_size: int = DEFAULT_MAX_TOKEN_SIZE,
    ) -> None:
        super().__init__(max_token_size)
        self._hash = _hash_name(mechanism)
        self.mechanism = mechanism
        self._credentials = credentials
        self._tokens = tokens or {}
        self._server_nonce = nonce or secrets.token_urlsafe(24)
        self._first: Optional[ClientFirst] = None
        self._server_first = ""
        self._credential: Optional[ScramCredential] = None
        self._owner: Optional[str] = None
        self.token_authenticated = False

    def _step(self, response: bytes) -> bytes:
        if self._first is None:
            return self._on_client_first(response)
        return self._on_client_final(response)

    def _on_client_first(self, response: bytes) -> bytes:
        first = parse_client_first(response)
        token_auth = first.extensions.get("tokenauth", "false").lower() == "true"
        if token_auth:
            owner, credential = self._tokens.get(first.username, (None, None))
        else:
            owner, credential = first.username, self._credentials.get(first.username)
        if credential is None:
            raise SaslAuthenticationError("Authentication failed: Invalid user credentials")
        if first.authzid and first.authzid != first.username:
            raise SaslAuthenticationError(
                "Authentication failed: Client requested an authorization id that is different from username"
            )
        self._first, self._credential, self._owner = first, credential, owner
        self.token_authenticated = token_auth
        self._server_first = (
            f"r={first.nonce}{self._server_nonce},s={_b64(credential.salt)},i={credential.iterations}"
        )
        return self._server_first.encode("utf-8")

    def _on_client_final(self, response: bytes) -> bytes:
        final = parse_client_final(response)
        first, credential = self._first, self._credential
        if first is None or credential is None:
            raise SaslStateError("SCRAM client-final message before the client-first one")
        if final.nonce != first.nonce + self._server_nonce:
            raise SaslAuthenticationError("SCRAM client-final nonce does not match the exchange")
        if final.channel_binding != first.gs2_header.encode("utf-8"):
            raise SaslAuthenticationError("SCRAM channel binding does not repeat the GS2 header")
        auth_message = ",".join((first.bare, self._server_first, final.without_proof)).encode("utf-8")
        signature = _hmac(self._hash, credential.stored_key, auth_message)
        if len(final.proof) != len(signature):
            raise SaslAuthenticationError("Authentication failed: Invalid client proof length")
        client_key = bytes(a ^ b for a, b in zip(final.proof, signature))
        if not hmac.compare_digest(hashlib.new(self._hash, client_key).digest(), credential.stored_key):
            raise SaslAuthenticationError("Authentication failed: Invalid user credentials")
        self.principal = self._owner
        self.complete = True
        return f"v={_b64(_hmac(self._hash, credential.server_key, auth_message))}".encode("utf-8")


# -- OAUTHBEARER ---------------------------------------------------------------------------

_KVSEP = "\x01"
_EXT_KEY = re.compile(r"[A-Za-z]+\Z")
_EXT_VALUE = re.compile(r"[\x21-\x7e \t\r\n]+\Z")
_BEARER = re.compile(r"auth=Bearer ([\x21-\x7e]+)\Z")  # RFC 6750 b64token, loosely


def _check_extensions(extensions: Mapping[str, str]) -> None:
    for key, value in extensions.items():
        if not _EXT_KEY.match(key) or key == "auth":
            raise SaslMalformedError(
                f"OAUTHBEARER extension name {key[:40]!r} is not letters only, or is the reserved 'auth'"
            )
        if not _EXT_VALUE.match(value):
            raise SaslMalformedError(
                f"OAUTHBEARER extension {key!r} has a value with characters RFC 7628 does not allow"
            )


def oauthbearer_initial_response(
    token: str, *, authzid: str = "", extensions: Optional[Mapping[str, str]] = None
) -> bytes:
    """RFC 7628's client initial response: ``n,a=authzid,^Aauth=Bearer token^A...^A^A``."""
    extensions = dict(extensions or {})
    _check_extensions(extensions)
    if not re.match(r"[\x21-\x7e]+\Z", token):
        raise ValueError("an OAuth bearer token is printable ASCII without spaces")
    gs2 = f"n,{'a=' + escape_saslname(authzid) if authzid else ''},"
    kvpairs = [f"auth=Bearer {token}"] + [f"{k}={v}" for k, v in extensions.items()]
    return (gs2 + _KVSEP + _KVSEP.join(kvpairs) + _KVSEP + _KVSEP).encode("utf-8")


@dataclass(frozen=True)
class OAuthBearerResponse:
    """A parsed OAUTHBEARER client initial response."""

    token: str
    authzid: str
    extensions: Dict[str, str]


def parse_oauthbearer_initial_response(message: bytes) -> OAuthBearerResponse:
    """Parse an OAUTHBEARER client initial response (RFC 7628 section 3.1)."""
    text = _utf8(message, "OAUTHBEARER initial response")
    gs2, sep, rest = text.partition(_KVSEP)
    m = re.match(r"n,(?:a=([^,]*))?,\Z", gs2)
    if not sep or m is None:
        raise SaslMalformedError("OAUTHBEARER initial response does not start with n,[a=id], and ^A")
    if not rest.endswith(_KVSEP + _KVSEP):
        raise SaslMalformedError("OAUTHBEARER initial response does not end with ^A^A")
    token = None
    extensions: Dict[str, str] = {}
    for pair in rest[:-2].split(_KVSEP):
        if pair.startswith("auth="):
            bearer = _BEARER.match(pair)
            if bearer is None or token is not None:
                raise SaslMalformedError("OAUTHBEARER auth= is not one 'Bearer <token>'")
            token = bearer.group(1)
            continue
        key, eq, value = pair.partition("=")
        if not eq or key in extensions:
            raise SaslMalformedError(f"OAUTHBEARER key-value pair {pair[:40]!r} is malformed or repeated")
        extensions[key] = value
    if token is None:
        raise SaslMalformedError("OAUTHBEARER initial response has no auth=Bearer token")
    _check_extensions(extensions)
    return OAuthBearerResponse(
        token=token, authzid=unescape_saslname(m.group(1) or ""), extensions=extensions
    )


def oauthbearer_error_reply(
    status: str = "invalid_token", *, scope: Optional[str] = None, openid_configuration: Optional[str] = None
) -> bytes:
    """The server's JSON error challenge (RFC 7628 section 3.2.2)."""
    reply = {"status": status}
    if scope is not None:
        reply["scope"] = scope
    if openid_configuration is not None:
        reply["openid-configuration"] = openid_configuration
    return json.dumps(reply, separators=(",", ":")).encode("utf-8")


def parse_oauthbearer_error_reply(message: bytes) -> Dict[str, str]:
    """The fields of a server's JSON error challenge; ``status`` is required."""
    try:
        reply = json.loads(_utf8(message, "OAUTHBEARER error reply"))
    except ValueError:
        raise SaslMalformedError("OAUTHBEARER error reply is not JSON") from None
    if not isinstance(reply, dict) or not isinstance(reply.get("status"), str):
        raise SaslMalformedError("OAUTHBEARER error reply is not a JSON object with a status")
    return reply


class OAuthBearerClient(SaslClient):
    """OAUTHBEARER with a token.  A server that refuses the token sends a JSON error
    (kept in :attr:`error`); the client answers it with ``\\x01`` and the server then
    fails the authentication.

    ``token`` is the token, or a function that gets it (from an OAuth server, say: it
    may block): the client then has a ``prepare()`` that calls it, which
    :mod:`kafkawire.aio` runs in a thread before the exchange (``start()`` calls it
    otherwise)."""

    mechanism = "OAUTHBEARER"

    def __init__(
        self,
        token: Union[str, Callable[[], str]],
        *,
        authzid: str = "",
        extensions: Optional[Mapping[str, str]] = None,
        max_token_size: int = DEFAULT_MAX_TOKEN_SIZE,
    ) -> None:
        super().__init__()
        self._authzid = authzid
        self._extensions = dict(extensions or {})
        self._response = b""
        if callable(token):
            self._get_token = token
            self.prepare = self._prepare  # only a client that must get its token has one
        else:
            self._response = oauthbearer_initial_response(token, authzid=authzid, extensions=extensions)
        self._max_token_size = max_token_size
        self.error: Optional[Dict[str, str]] = None

    def _prepare(self) -> None:
        self._response = oauthbearer_initial_response(
            self._get_token(), authzid=self._authzid, extensions=self._extensions
        )

    def _first(self) -> bytes:
        if not self._response:
            self._prepare()
        return self._response

    def _next(self, challenge: bytes) -> Optional[bytes]:
        challenge = _check_size(challenge, self._max_token_size, "OAUTHBEARER server message")
        if self.error is not None:
            raise SaslStateError("OAUTHBEARER: the server sent more after its error reply")
        if not challenge:
            self.complete = True
            return None
        self.error = parse_oauthbearer_error_reply(challenge)
        return _KVSEP.encode()


class OAuthBearerServer(SaslServer):
    """OAUTHBEARER with ``validate(token, extensions)`` returning the principal, or None
    for a token it refuses (answered with :func:`oauthbearer_error_reply`)."""

    mechanism = "OAUTHBEARER"

    def __init__(
        self,
        validate: Callable[[str, Dict[str, str]], Optional[str]],
        *,
        scope: Optional[str] = None,
        max_token_size: int = DEFAULT_MAX_TOKEN_SIZE,
    ) -> None:
        super().__init__(max_token_size)
        self._validate = validate
        self._scope = scope
        self._refused = False
        self.extensions: Dict[str, str] = {}

    def _step(self, response: bytes) -> bytes:
        if self._refused:
            if response != _KVSEP.encode():
                raise SaslMalformedError("OAUTHBEARER: after an error reply the client must send ^A")
            raise SaslAuthenticationError("Authentication failed: invalid_token")
        parsed = parse_oauthbearer_initial_response(response)
        principal = self._validate(parsed.token, parsed.extensions)
        if principal is None:
            self._refused = True
            return oauthbearer_error_reply("invalid_token", scope=self._scope)
        if parsed.authzid and parsed.authzid != principal:
            raise SaslAuthenticationError(
                "Authentication failed: authorization id is not the token's principal"
            )
        self.extensions = parsed.extensions
        self.principal = principal
        self.complete = True
        return b""


def client_for(mechanism: str, username: str, password: str) -> SaslClient:
    """A client for a username/password mechanism (PLAIN or SCRAM-SHA-*)."""
    if mechanism == "PLAIN":
        return PlainClient(username, password)
    if mechanism in SCRAM_MECHANISMS:
        return ScramClient(mechanism, username, password)
    raise SaslMechanismError(f"no username/password client for mechanism {mechanism!r}")
