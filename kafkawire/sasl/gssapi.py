"""SASL/GSSAPI (Kerberos V5, RFC 4752) as Kafka runs it, client and server, without I/O.

The Kerberos work is MIT Kerberos's, through the ``gssapi`` package (the optional extra
``kafkawire[kerberos]``); this module only carries the SASL exchange around it:

1. the client sends its first GSS-API token (an AP-REQ for ``service@host``), the
   server answers with its own (an AP-REP) until the security context is established;
   the client answers the server's last token with an empty message;
2. the server sends a wrapped 4-byte offer: the security layers it supports (Kafka
   offers only "no protection", bit 1) and the largest message it takes (0 without a
   layer);
3. the client sends back, wrapped, its choice (no protection), its own largest message
   (0) and its authorization id (the client's principal, as Kafka's Java client sends);
   the exchange is then over: Kafka sends nothing back after a SaslHandshake v0, an
   empty SaslAuthenticate answer after v1.

The server names the client as Kafka's default ``sasl.kerberos.principal.to.local.rules``
(``DEFAULT``) do: ``primary[/instance]@REALM`` becomes ``primary`` when ``REALM`` is the
default realm, and is refused otherwise.  Every Kerberos failure raises
:class:`~kafkawire.errors.SaslKerberosError` with its cause named.
"""

from __future__ import annotations

import enum
import hashlib
import os
import re
from typing import Any, Optional, Tuple

from kafkawire.errors import (
    SaslAuthenticationError,
    SaslKerberosError,
    SaslMalformedError,
    SaslStateError,
)
from kafkawire.sasl.mechanisms import DEFAULT_MAX_TOKEN_SIZE, SaslClient, SaslServer, _check_size

__all__ = [
    "GSSAPI",
    "NO_SECURITY_LAYER",
    "import_gssapi",
    "kerberos_short_name",
    "split_principal",
    "GssapiClient",
    "GssapiServer",
]

GSSAPI = "GSSAPI"
#: RFC 4752's bit for "no security layer", the only one Kafka offers.
NO_SECURITY_LAYER = 0x01

# Kerberos's own words (regular expressions, on the lower-cased message) for the failures
# a user can act on, and what to tell them.
_CAUSES: Tuple[Tuple[str, str], ...] = (
    ("ticket expired", "the Kerberos ticket has expired (kinit again, or use a keytab)"),
    ("credentials have expired", "the Kerberos ticket has expired (kinit again, or use a keytab)"),
    (
        r"server \S* ?not found in kerberos database",
        "the KDC does not know the service principal: check sasl.kerberos.service.name and the broker's host name",
    ),
    ("clock skew too great", "the clocks of this host, the KDC and the broker differ too much (clock skew)"),
    ("cannot contact any kdc", "no KDC of the realm answers"),
    (r"client \S* ?not found in kerberos database", "the KDC does not know the client principal"),
    ("key table file", "the keytab cannot be read"),
    ("no key table entry found", "the keytab has no key for the principal"),
    ("preauthentication failed", "the key or password does not match the principal"),
    ("password incorrect", "the key or password does not match the principal"),
    ("decrypt integrity check failed", "the key or password does not match the principal"),
    ("no kerberos credentials available", "no Kerberos ticket: kinit first, or give a keytab"),
    ("no credentials cache found", "no Kerberos ticket: kinit first, or give a keytab"),
    ("ticket not yet valid", "the Kerberos ticket is not valid yet (clock skew)"),
)


def import_gssapi() -> Any:
    """The ``gssapi`` package, or :class:`ModuleNotFoundError` naming the extra that
    installs it."""
    try:
        import gssapi
    except ImportError as exc:
        raise ModuleNotFoundError(
            "SASL mechanism GSSAPI (Kerberos) needs the 'gssapi' package (on MIT Kerberos): "
            "pip install 'kafkawire[kerberos]'",
            name="gssapi",
        ) from exc
    return gssapi


def kerberos_error(exc: Exception, doing: str) -> SaslKerberosError:
    """A :class:`SaslKerberosError` for the GSS-API failure ``exc`` met while ``doing``."""
    text = " ".join(str(exc).split())
    lowered = text.lower()
    cause = next((why for words, why in _CAUSES if re.search(words, lowered)), "Kerberos refused it")
    return SaslKerberosError(f"GSSAPI {doing}: {cause} ({text})")


def split_principal(principal: str) -> Tuple[str, Optional[str], Optional[str]]:
    """``(primary, instance, realm)`` of ``primary[/instance][@REALM]``."""
    name, at, realm = principal.partition("@")
    primary, slash, instance = name.partition("/")
    if not primary or (at and not realm) or (slash and not instance) or "/" in instance:
        raise SaslMalformedError(f"{principal!r} is not a Kerberos principal (primary[/instance][@REALM])")
    return primary, instance or None, realm or None


def kerberos_short_name(principal: str, default_realm: str) -> str:
    """The short name Kafka's ``DEFAULT`` principal-to-local rule gives ``principal``:
    its primary when its realm is ``default_realm``; any other realm is refused."""
    primary, _, realm = split_principal(principal)
    if realm is not None and realm != default_realm:
        raise SaslAuthenticationError(
            f"Authentication failed: no principal-to-local rule maps {principal} "
            f"(only the default realm {default_realm} is mapped)"
        )
    return primary


def _layer_message(max_size: int, authzid: bytes = b"") -> bytes:
    return bytes([NO_SECURITY_LAYER]) + max_size.to_bytes(3, "big") + authzid


class GssapiClient(SaslClient):
    """The client side: authenticates to ``service_name/host`` (the broker's host name
    as the client was given it, which must be the one in the broker's principal).

    Credentials, as Kafka's ``Krb5LoginModule`` options give them: ``keytab`` (with
    ``principal``, or the keytab's first principal) gets tickets from the KDC by itself
    (into a memory cache kept per keytab and principal, so connections share them);
    otherwise ``ccache`` (a credential cache name such as ``FILE:/tmp/krb5cc_1000``)
    or the default cache (``KRB5CCNAME``) holds a ticket from ``kinit``.
    """

    mechanism = GSSAPI

    def __init__(
        self,
        host: str,
        *,
        service_name: str = "kafka",
        principal: Optional[str] = None,
        keytab: Optional[str] = None,
        ccache: Optional[str] = None,
        max_token_size: int = DEFAULT_MAX_TOKEN_SIZE,
    ) -> None:
        super().__init__()
        if not host or not service_name:
            raise ValueError("GSSAPI needs the broker's host name and a service name")
        if keytab is not None and not os.path.isfile(keytab):
            raise SaslKerberosError(f"GSSAPI: the keytab {keytab!r} does not exist")
        if principal is not None:
            split_principal(principal)
        self._gssapi = import_gssapi()
        self.service = f"{service_name}@{host}"
        self.principal = principal
        self._keytab = keytab
        self._ccache = ccache
        self._max_token_size = max_token_size
        self._context: Any = None
        self._established = False
        self._prepared: Optional[bytes] = None

    def prepare(self) -> None:
        """Get the ticket and the first token now.  This is the step that may ask the
        KDC, and MIT Kerberos waits for a silent KDC by itself: a caller with a timeout
        runs it in a thread (as :mod:`kafkawire.aio` does); :meth:`start` then sends the
        token without waiting.  Raises :class:`~kafkawire.errors.SaslKerberosError`."""
        if self._prepared is None and self._context is None:
            self._prepared = self._initial_token()

    def _credentials(self) -> Any:
        gssapi = self._gssapi
        store = {}
        if self._keytab is not None:
            key = hashlib.sha256(f"{self.principal}\0{os.path.abspath(self._keytab)}".encode()).hexdigest()
            store = {"client_keytab": self._keytab, "ccache": f"MEMORY:kafkawire-{key[:24]}"}
        elif self._ccache is not None:
            store = {"ccache": self._ccache}
        name = None
        if self.principal is not None:
            name = gssapi.Name(self.principal, gssapi.NameType.kerberos_principal)
        return gssapi.Credentials(name=name, usage="initiate", store=store or None)

    def _first(self) -> bytes:
        token, self._prepared = self._prepared, None
        return token if token is not None else self._initial_token()

    def _initial_token(self) -> bytes:
        gssapi = self._gssapi
        try:
            creds = self._credentials()
            self._context = gssapi.SecurityContext(
                name=gssapi.Name(self.service, gssapi.NameType.hostbased_service),
                creds=creds,
                usage="initiate",
                flags=gssapi.RequirementFlag.mutual_authentication | gssapi.RequirementFlag.integrity,
            )
            token = self._context.step()
            self._established = self._context.complete  # raises an error step() kept
        except gssapi.exceptions.GSSError as exc:
            raise kerberos_error(exc, f"could not get a ticket for {self.service}") from None
        return token or b""

    def _next(self, challenge: bytes) -> Optional[bytes]:
        challenge = _check_size(challenge, self._max_token_size, "GSSAPI server message")
        gssapi = self._gssapi
        if not self._established:
            try:
                token = self._context.step(challenge)
                self._established = self._context.complete
            except gssapi.exceptions.GSSError as exc:
                raise kerberos_error(exc, f"the broker's answer as {self.service} does not verify") from None
            return token or b""
        try:
            offer = self._context.unwrap(challenge).message
        except gssapi.exceptions.GSSError as exc:
            raise kerberos_error(exc, "the broker's security-layer offer does not unwrap") from None
        if len(offer) != 4:
            raise SaslMalformedError(f"GSSAPI security-layer offer is {len(offer)} bytes, not 4")
        if not offer[0] & NO_SECURITY_LAYER:
            raise SaslAuthenticationError(
                f"GSSAPI: the broker requires a security layer (offer {offer[0]:#04x}); Kafka uses none"
            )
        authzid = str(self._context.initiator_name).encode("utf-8")
        reply = self._context.wrap(_layer_message(0, authzid), False).message
        self.complete = True
        return bytes(reply)


class _ServerPhase(enum.Enum):
    ACCEPTING = "accepting"  # GSS-API tokens until the context is established
    OFFERING = "offering"  # the client's empty message, answered with the wrapped offer
    CHOOSING = "choosing"  # the client's wrapped choice of layer and authorization id


class GssapiServer(SaslServer):
    """The server side, for the service principal(s) in ``keytab`` (``service_principal``
    picks one, e.g. ``kafka/broker1.example.com@REALM``).  :attr:`principal` is the
    client's short name (:func:`kerberos_short_name` against ``default_realm``, by
    default the realm of this machine's Kerberos configuration);
    :attr:`kerberos_principal` the full one.  The client's authorization id is kept in
    :attr:`authzid` but, as in Kafka, does not change who the client is."""

    mechanism = GSSAPI
    #: Kafka sends nothing after the client's last GSSAPI message (SaslHandshake v0).
    final_reply = False

    def __init__(
        self,
        keytab: str,
        *,
        service_principal: Optional[str] = None,
        default_realm: Optional[str] = None,
        max_token_size: int = DEFAULT_MAX_TOKEN_SIZE,
    ) -> None:
        super().__init__(max_token_size)
        if not os.path.isfile(keytab):
            raise SaslKerberosError(f"GSSAPI: the service keytab {keytab!r} does not exist")
        gssapi = self._gssapi = import_gssapi()
        try:
            name = None
            if service_principal is not None:
                name = gssapi.Name(service_principal, gssapi.NameType.kerberos_principal)
            creds = gssapi.Credentials(name=name, usage="accept", store={"keytab": keytab})
            self._context = gssapi.SecurityContext(creds=creds, usage="accept")
            self.default_realm = default_realm or _default_realm(gssapi)
        except gssapi.exceptions.GSSError as exc:
            raise kerberos_error(exc, f"cannot use the service keytab {keytab!r}") from None
        self._phase = _ServerPhase.ACCEPTING
        self.kerberos_principal: Optional[str] = None
        self.authzid: Optional[str] = None

    def _step(self, response: bytes) -> bytes:
        gssapi = self._gssapi
        if self._phase is _ServerPhase.ACCEPTING:
            try:
                # step() keeps an error that comes with a token (a KRB-ERROR for the
                # client) and raises it at the next use of the context
                token = self._context.step(response)
                complete = self._context.complete
            except gssapi.exceptions.GSSError as exc:
                raise kerberos_error(exc, "the client's ticket was refused") from None
            if complete:
                self.kerberos_principal = str(self._context.initiator_name)
                self._phase = _ServerPhase.OFFERING
            return token or b""
        if self._phase is _ServerPhase.OFFERING:
            if response:
                raise SaslMalformedError(
                    f"GSSAPI: the client sent {len(response)} bytes where an empty message belongs"
                )
            self._phase = _ServerPhase.CHOOSING
            return bytes(self._context.wrap(_layer_message(0), False).message)
        if self._phase is _ServerPhase.CHOOSING:
            try:
                choice = self._context.unwrap(response).message
            except gssapi.exceptions.GSSError as exc:
                raise kerberos_error(exc, "the client's security-layer choice does not unwrap") from None
            if len(choice) < 4 or choice[0] != NO_SECURITY_LAYER:
                raise SaslAuthenticationError(
                    "Authentication failed: the client did not choose the offered 'no security layer'"
                )
            try:
                self.authzid = choice[4:].decode("utf-8")
            except UnicodeDecodeError:
                raise SaslMalformedError("GSSAPI authorization id is not UTF-8") from None
            assert self.kerberos_principal is not None
            self.principal = kerberos_short_name(self.kerberos_principal, self.default_realm)
            self.complete = True
            return b""
        raise SaslStateError("GSSAPI: the exchange is over")  # pragma: no cover - receive() guards


def _default_realm(gssapi: Any) -> str:
    # a principal without a realm canonicalizes into the configuration's default realm
    name = gssapi.Name("kafkawire", gssapi.NameType.kerberos_principal)
    return str(name.canonicalize(gssapi.MechType.kerberos)).partition("@")[2]
