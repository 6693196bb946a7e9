"""The test broker's listener security: which protocol (PLAINTEXT, SSL, SASL_PLAINTEXT,
SASL_SSL), the TLS context, the SASL mechanisms and users, and who a connection is.

A connection's principal is what Kafka's default principal builder names it:
``User:ANONYMOUS`` on PLAINTEXT and on SSL without a client certificate, ``User:`` and
the certificate subject's distinguished name (RFC 2253 order: ``CN=...,O=...``) with
one, and ``User:`` and the SASL user name after SASL (for GSSAPI, the Kerberos
principal's short name by Kafka's ``DEFAULT`` rule: ``alice@REALM`` is ``User:alice``).
"""

from __future__ import annotations

import functools
import os
import ssl
from typing import Any, Callable, Dict, Mapping, Optional, Sequence

from kafkawire import sasl
from kafkawire.sasl.gssapi import import_gssapi
from kafkawire.protocol.schema.catalog import ApiKey

SECURITY_PROTOCOLS = ("PLAINTEXT", "SSL", "SASL_PLAINTEXT", "SASL_SSL")
SASL_MECHANISMS = ("PLAIN", "SCRAM-SHA-256", "SCRAM-SHA-512")
#: Every mechanism a listener may enable: GSSAPI too, given a service keytab.
ALL_SASL_MECHANISMS = SASL_MECHANISMS + ("GSSAPI",)
ANONYMOUS = "User:ANONYMOUS"

# The APIs a connection may use before it has authenticated (and while re-authenticating)
BEFORE_AUTHENTICATION = frozenset((ApiKey.API_VERSIONS, ApiKey.SASL_HANDSHAKE, ApiKey.SASL_AUTHENTICATE))


class ListenerSecurity:
    """The security settings of the broker's one listener."""

    def __init__(
        self,
        protocol: str = "PLAINTEXT",
        *,
        sasl_mechanisms: Sequence[str] = SASL_MECHANISMS,
        users: Optional[Mapping[str, str]] = None,
        ssl_certfile: Optional[str] = None,
        ssl_keyfile: Optional[str] = None,
        ssl_cafile: Optional[str] = None,
        session_lifetime_ms: int = 0,
        kerberos_keytab: Optional[str] = None,
        kerberos_principal: Optional[str] = None,
    ) -> None:
        if protocol not in SECURITY_PROTOCOLS:
            raise ValueError(f"security protocol {protocol!r} is not one of {', '.join(SECURITY_PROTOCOLS)}")
        unknown = [m for m in sasl_mechanisms if m not in ALL_SASL_MECHANISMS]
        if unknown:
            raise ValueError(f"SASL mechanisms {unknown} are not among {', '.join(ALL_SASL_MECHANISMS)}")
        if "GSSAPI" in sasl_mechanisms:
            if not kerberos_keytab or not os.path.isfile(kerberos_keytab):
                raise ValueError(
                    f"SASL mechanism GSSAPI needs the service's keytab: {kerberos_keytab!r} is no file"
                )
            import_gssapi()  # a missing package is named now, not at the first client
        self.protocol = protocol
        self.uses_sasl = protocol.startswith("SASL_")
        self.uses_ssl = protocol.endswith("SSL")
        if self.uses_ssl and not (ssl_certfile and ssl_keyfile):
            raise ValueError(f"{protocol} needs a certificate and a key (ssl_certfile, ssl_keyfile)")
        if self.uses_sasl and not sasl_mechanisms:
            raise ValueError(f"{protocol} needs at least one SASL mechanism")
        self.sasl_mechanisms = tuple(sasl_mechanisms)
        self.users: Dict[str, str] = dict(users or {})
        self.ssl_certfile, self.ssl_keyfile, self.ssl_cafile = ssl_certfile, ssl_keyfile, ssl_cafile
        self.session_lifetime_ms = session_lifetime_ms
        self.kerberos_keytab, self.kerberos_principal = kerberos_keytab, kerberos_principal
        # SCRAM credentials derived once from the passwords, as a broker stores them
        self._scram: Dict[str, Dict[str, sasl.ScramCredential]] = {
            m: {u: sasl.scram_credential(m, p) for u, p in self.users.items()}
            for m in self.sasl_mechanisms
            if m in sasl.SCRAM_MECHANISMS
        }

    def ssl_context(self) -> Optional[ssl.SSLContext]:
        """The server TLS context (client certificates required when there is a CA file)."""
        if not self.uses_ssl:
            return None
        ctx = ssl.SSLContext(ssl.PROTOCOL_TLS_SERVER)
        ctx.minimum_version = ssl.TLSVersion.TLSv1_2
        assert self.ssl_certfile is not None  # __init__ requires it with SSL
        ctx.load_cert_chain(self.ssl_certfile, self.ssl_keyfile)
        if self.ssl_cafile:
            ctx.load_verify_locations(self.ssl_cafile)
            ctx.verify_mode = ssl.CERT_REQUIRED
        return ctx

    def sasl_session(self) -> Optional[sasl.ServerSession]:
        """A new connection's SASL state (None when the listener has no SASL)."""
        if not self.uses_sasl:
            return None
        servers: Dict[str, Callable[[], sasl.SaslServer]] = {}
        for mech in self.sasl_mechanisms:
            if mech == "PLAIN":
                servers[mech] = lambda: sasl.PlainServer(self.users)
            elif mech == "GSSAPI":
                assert self.kerberos_keytab is not None  # __init__ requires it with GSSAPI
                servers[mech] = functools.partial(
                    sasl.GssapiServer, self.kerberos_keytab, service_principal=self.kerberos_principal
                )
            else:
                servers[mech] = functools.partial(sasl.ScramServer, mech, self._scram[mech])
        return sasl.ServerSession(servers, session_lifetime_ms=self.session_lifetime_ms)


def certificate_principal(peercert: Optional[Dict[str, Any]]) -> str:
    """``User:`` and the subject DN of a verified client certificate (RFC 2253 order),
    or ``User:ANONYMOUS`` without one."""
    if not peercert or not peercert.get("subject"):
        return ANONYMOUS
    names = {
        "commonName": "CN",
        "organizationName": "O",
        "organizationalUnitName": "OU",
        "countryName": "C",
        "stateOrProvinceName": "ST",
        "localityName": "L",
        "domainComponent": "DC",
        "emailAddress": "EMAILADDRESS",
    }
    rdns = []
    for rdn in reversed(peercert["subject"]):
        rdns.append("+".join(f"{names.get(k, k)}={_escape_dn(v)}" for k, v in rdn))
    return "User:" + ",".join(rdns)


def _escape_dn(value: str) -> str:
    out = "".join("\\" + c if c in ',+"\\<>;' else c for c in value)
    if out.startswith((" ", "#")):
        out = "\\" + out
    if out.endswith(" "):
        out = out[:-1] + "\\ "
    return out
