"""The client settings of a live cluster, taken from the ``kafka.``-prefixed options Spark's
Kafka connector hands to Kafka's Java clients, so the same option map works here.

Security follows Kafka's client configs: ``kafka.security.protocol`` (PLAINTEXT, SSL,
SASL_PLAINTEXT, SASL_SSL), ``kafka.sasl.mechanism`` (PLAIN, SCRAM-SHA-256, SCRAM-SHA-512)
with the credentials in the JAAS line users already write
(``org.apache.kafka.common.security.plain.PlainLoginModule required username="u"
password="p";``, read with Kafka's JAAS grammar; SCRAM's ``tokenauth=true`` for a
delegation token), and TLS stores of Kafka's types: a trust store of CA certificates
(``ssl.truststore.location`` or the text in ``ssl.truststore.certificates``) and a key
store holding the private key and its certificate chain (``ssl.keystore.location``, or
``ssl.keystore.key`` with ``ssl.keystore.certificate.chain``), JKS (Kafka's default),
PKCS12 (:mod:`kafkawire.cluster.stores`) or PEM, with their passwords and
``ssl.key.password``; ``ssl.protocol``, ``ssl.enabled.protocols`` and
``ssl.cipher.suites`` as Java's client takes them.  ``ssl.endpoint.identification.algorithm``
set to the empty string turns off the host name check, as in Kafka.  Every other setting
of Kafka's clients is checked against :mod:`kafkawire.kafka_settings`
(:func:`kafkawire.datasource_options.check_names`).

OAUTHBEARER takes its token from the source ``kafka.sasl.login.callback.handler.class``
names: Kafka's ``OAuthBearerLoginCallbackHandler`` (the OAuth client-credentials grant at
``kafka.sasl.oauthbearer.token.endpoint.url`` with the JAAS line's ``clientId``,
``clientSecret``, ``scope`` and ``extension_<name>`` options, :mod:`kafkawire.sasl.oauth`),
Strimzi's handler (the same grant from its ``oauth.*`` JAAS options) or Amazon's
``IAMOAuthBearerLoginCallbackHandler``; ``AWS_MSK_IAM`` logs in with Amazon's
``IAMLoginModule`` (:mod:`kafkawire.sasl.msk_iam`).

Kerberos (``kafka.sasl.mechanism`` GSSAPI) takes ``kafka.sasl.kerberos.service.name``
(or the JAAS line's ``serviceName``) and the ``Krb5LoginModule`` line Kafka's clients
use: ``useKeyTab=true keyTab="..." principal="..."`` gets tickets from the keytab,
``useTicketCache=true`` (with ``ticketCache="..."`` or the default cache, as without
a JAAS line) uses a ``kinit`` ticket.  The broker's principal is
``service/host``, host as the bootstrap servers or the cluster's metadata name it.

A :class:`ClientConfig` is plain data (it travels to Spark's tasks); the
:class:`ssl.SSLContext` and SASL client are made from it where a connection is opened.
"""

from __future__ import annotations

import dataclasses
import os
import re
import ssl
import tempfile
from dataclasses import dataclass
from typing import TYPE_CHECKING, Dict, List, Mapping, Optional, Tuple, Union

from kafkawire import datasource_options
from kafkawire.cluster.options import integer
from kafkawire.sasl.msk_iam import MskIamLogin
from kafkawire.sasl.oauth import TokenLogin, extensions_of

SaslLogin = Union[TokenLogin, MskIamLogin]

if TYPE_CHECKING:
    from kafkawire.sasl import SaslClient

SECURITY_PROTOCOLS = ("PLAINTEXT", "SSL", "SASL_PLAINTEXT", "SASL_SSL")
SASL_MECHANISMS = ("PLAIN", "SCRAM-SHA-256", "SCRAM-SHA-512", "GSSAPI", "OAUTHBEARER", "AWS_MSK_IAM")
# the login module each mechanism's JAAS line names
_LOGIN_MODULES = {
    "PLAIN": "org.apache.kafka.common.security.plain.PlainLoginModule",
    "SCRAM-SHA-256": "org.apache.kafka.common.security.scram.ScramLoginModule",
    "SCRAM-SHA-512": "org.apache.kafka.common.security.scram.ScramLoginModule",
    "GSSAPI": "com.sun.security.auth.module.Krb5LoginModule",
    "OAUTHBEARER": "org.apache.kafka.common.security.oauthbearer.OAuthBearerLoginModule",
    "AWS_MSK_IAM": "software.amazon.msk.auth.iam.IAMLoginModule",
}
# OAUTHBEARER's token sources, by sasl.login.callback.handler.class
_OIDC_HANDLERS = (
    "org.apache.kafka.common.security.oauthbearer.OAuthBearerLoginCallbackHandler",
    "org.apache.kafka.common.security.oauthbearer.secured.OAuthBearerLoginCallbackHandler",  # before 3.4
)
_MSK_OAUTH_HANDLER = "software.amazon.msk.auth.iam.IAMOAuthBearerLoginCallbackHandler"
# Strimzi's client handler: the token endpoint and client in its own JAAS options
_STRIMZI_HANDLER = "io.strimzi.kafka.oauth.client.JaasClientOauthLoginCallbackHandler"
_MSK_CLIENT_HANDLER = "software.amazon.msk.auth.iam.IAMClientCallbackHandler"

#: The ``kafka.``-prefixed settings this client uses (lower case, without the prefix),
#: with Kafka's Java client defaults where it has one.
CLIENT_SETTINGS: Dict[str, Optional[str]] = datasource_options.defaults(
    datasource_options.KAFKA_CLUSTER_CLIENT + datasource_options.KAFKA_CLUSTER_READ_CLIENT
)


def _int(options: Mapping[str, str], name: str, minimum: int = 0) -> int:
    return integer(options.get(name, CLIENT_SETTINGS.get(name)), f"kafka.{name}", minimum)


def parse_servers(raw: str) -> Tuple[Tuple[str, int], ...]:
    """``host:port[,host:port...]`` as (host, port) pairs (an IPv6 host in brackets)."""
    servers = []
    for item in raw.split(","):
        item = item.strip()
        if not item:
            continue
        host, sep, port = item.rpartition(":")
        if not sep or not host or not port.isdigit() or not 0 < int(port) < 65536:
            raise ValueError(f"option kafka.bootstrap.servers: {item!r} is not host:port")
        servers.append((host.strip("[]"), int(port)))
    if not servers:
        raise ValueError("option kafka.bootstrap.servers names no server")
    return tuple(servers)


# Kafka reads sasl.jaas.config with Java's StreamTokenizer: words of letters, digits,
# '.', '-', '_' and '$'; strings in single or double quotes with Java's escapes; // and
# /* */ comments; a bare word that starts as a number has no text (an error there)
_JAAS_TOKEN = re.compile(
    r"""\s+|//[^\n]*|/\*.*?(?:\*/|\Z)|(?P<word>[A-Za-z_$\u0080-\uffff][\w.$-]*)|(?P<number>[-.\d][\w.$-]*)"""
    r"""|(?P<quote>["'])(?P<text>(?:\\.|(?!(?P=quote))[^\\\n])*)(?P=quote)|(?P<char>.)""",
    re.S,
)
_JAVA_ESCAPES = {"n": "\n", "t": "\t", "r": "\r", "b": "\b", "f": "\f", "a": "\a", "v": "\v"}
#: Databricks' runtime ships Kafka's client under this package prefix
_SHADED = "kafkashaded."


def _unescape(text: str) -> str:
    def one(m: "re.Match[str]") -> str:
        c = m.group(1)
        if c[0] in "01234567":
            return chr(int(c, 8))
        return _JAVA_ESCAPES.get(c, c)

    return re.sub(r"\\([0-3][0-7]{0,2}|[4-7][0-7]?|.)", one, text, flags=re.S)


def _jaas_tokens(line: str) -> List[Tuple[str, str]]:
    """(kind, text) tokens of a JAAS line: ``word``, ``number``, ``string`` or a ``char``."""
    out: List[Tuple[str, str]] = []
    for m in _JAAS_TOKEN.finditer(line):
        if m.group("word") is not None:
            out.append(("word", m.group("word")))
        elif m.group("number") is not None:
            out.append(("number", m.group("number")))
        elif m.group("quote") is not None:
            out.append(("string", _unescape(m.group("text"))))
        elif m.group("char") is not None:
            if m.group("char") in "\"'":
                raise ValueError("option kafka.sasl.jaas.config: a quoted value is not closed")
            out.append(("char", m.group("char")))
    return out


def parse_jaas(line: str) -> Tuple[str, Dict[str, str]]:
    """A ``sasl.jaas.config`` value as (login module class, options), read as Kafka reads
    it: ``LoginModuleClass flag key="value" ...;`` over one line or several, values in
    double or single quotes (with Java's escapes) or bare words, comments allowed;
    exactly one login module, as Kafka's clients take.  A class under Databricks'
    ``kafkashaded.`` prefix is the same class."""
    where = "option kafka.sasl.jaas.config"
    tokens = _jaas_tokens(line)
    entries: List[Tuple[str, Dict[str, str]]] = []
    i = 0
    while i < len(tokens):
        kind, module = tokens[i]
        if kind != "word":
            raise ValueError(f"{where}: expected a login module class, found {module!r}")
        flag = tokens[i + 1][1] if i + 1 < len(tokens) else ""
        if flag.lower() not in ("required", "requisite", "sufficient", "optional"):
            raise ValueError(f"{where}: invalid control flag {flag!r} after {module}")
        i += 2
        options: Dict[str, str] = {}
        while True:
            if i >= len(tokens):
                raise ValueError(f"{where}: the login module entry must end with ';'")
            kind, key = tokens[i]
            if (kind, key) == ("char", ";"):
                i += 1
                break
            if kind != "word":
                raise ValueError(f"{where}: expected key=value options then ';', found {key!r}")
            if (
                i + 2 >= len(tokens)
                or tokens[i + 1] != ("char", "=")
                or tokens[i + 2][0] not in ("word", "string")
            ):
                raise ValueError(f"{where}: value not specified for key {key!r}")
            options[key] = tokens[i + 2][1]
            i += 3
        if module.startswith(_SHADED):
            module = module[len(_SHADED) :]
        entries.append((module, options))
    if len(entries) != 1:
        raise ValueError(f"{where}: it holds {len(entries)} login modules, Kafka's clients take 1")
    return entries[0]


@dataclass(frozen=True)
class ClientConfig:
    """How to reach and talk to a cluster (plain data: it is pickled into Spark tasks)."""

    bootstrap: Tuple[Tuple[str, int], ...]
    client_id: str = "kafkawire"
    request_timeout: float = 30.0  # seconds a request may wait for its answer
    api_timeout: float = 60.0  # seconds a call may spend retrying, in all
    connect_timeout: float = 10.0  # seconds a TCP connect may take, at first
    connect_timeout_max: float = 30.0  # ... and after connects that failed in a row
    retry_backoff: float = 0.1
    retry_backoff_max: float = 1.0
    security_protocol: str = "PLAINTEXT"
    sasl_mechanism: Optional[str] = None
    sasl_username: Optional[str] = None
    sasl_password: Optional[str] = None
    sasl_token_auth: bool = False  # SCRAM with a delegation token (JAAS tokenauth=true)
    sasl_login: Optional["SaslLogin"] = None  # where OAUTHBEARER and AWS_MSK_IAM get credentials
    truststore: Optional[str] = None  # PEM text of the trusted CA certificates
    truststore_path: Optional[str] = None
    truststore_type: Optional[str] = None  # of the file at truststore_path; None: unset
    truststore_password: Optional[str] = None
    keystore_path: Optional[str] = None  # private key and certificate chain
    keystore_type: Optional[str] = None
    keystore_password: Optional[str] = None
    keystore_key: Optional[str] = None  # PEM text, with keystore_chain
    keystore_chain: Optional[str] = None
    key_password: Optional[str] = None
    check_hostname: bool = True
    tls_versions: Tuple[str, ...] = ("TLSv1.2", "TLSv1.3")
    cipher_suites: Optional[Tuple[str, ...]] = None
    receive_buffer: int = -1  # socket buffer sizes; -1: the system's
    send_buffer: int = -1
    fetch_min_bytes: int = 1
    fetch_max_wait_ms: int = 500
    kerberos_service_name: Optional[str] = None
    kerberos_principal: Optional[str] = None
    kerberos_keytab: Optional[str] = None
    kerberos_ccache: Optional[str] = None

    @classmethod
    def parse(cls, options: Mapping[str, str], *, client_id: str = "kafkawire") -> "ClientConfig":
        """The config of the ``kafka.``-prefixed entries of ``options`` (keys lower case,
        prefix removed); ``kafka.bootstrap.servers`` is required."""
        if not options.get("bootstrap.servers"):
            raise ValueError("option kafka.bootstrap.servers is required")
        protocol = str(options.get("security.protocol", "PLAINTEXT")).upper()
        if protocol not in SECURITY_PROTOCOLS:
            raise ValueError(
                f"option kafka.security.protocol: {protocol!r} is not one of {', '.join(SECURITY_PROTOCOLS)}"
            )
        mechanism = user = password = None
        login: Optional[SaslLogin] = None
        token_auth = False
        kerberos: Dict[str, Optional[str]] = {}
        if protocol.startswith("SASL_") and str(options.get("sasl.mechanism", "GSSAPI")).upper() == "GSSAPI":
            mechanism, kerberos = "GSSAPI", _kerberos_options(options)
        elif protocol.startswith("SASL_"):
            mechanism = str(options.get("sasl.mechanism", "GSSAPI")).upper()
            if mechanism not in SASL_MECHANISMS:
                raise ValueError(
                    f"option kafka.sasl.mechanism: {mechanism!r} is not supported"
                    f" (supported: {', '.join(SASL_MECHANISMS)})"
                )
            jaas = options.get("sasl.jaas.config")
            if not jaas:
                raise ValueError(f"{protocol} with {mechanism} needs option kafka.sasl.jaas.config")
            module, jaas_options = parse_jaas(str(jaas))
            if _class_name(module) != _LOGIN_MODULES[mechanism]:
                raise ValueError(
                    f"option kafka.sasl.jaas.config: {mechanism} logs in with {_LOGIN_MODULES[mechanism]},"
                    f" not {module}"
                )
            if mechanism in ("OAUTHBEARER", "AWS_MSK_IAM"):
                login = _token_login(options, mechanism, jaas_options)
            else:
                user, password = jaas_options.get("username"), jaas_options.get("password")
                token_auth = jaas_options.get("tokenauth", "false").lower() == "true"
                if token_auth and mechanism == "PLAIN":
                    raise ValueError(
                        "option kafka.sasl.jaas.config: tokenauth=true goes with SCRAM, not PLAIN"
                    )
                if user is None or password is None:
                    raise ValueError("option kafka.sasl.jaas.config: username and password are required")
        tls: Dict[str, object] = {}
        if protocol in ("SSL", "SASL_SSL"):
            tls = _tls_options(options)
        config = cls(
            bootstrap=parse_servers(str(options["bootstrap.servers"])),
            client_id=str(options.get("client.id") or client_id),
            request_timeout=_int(options, "request.timeout.ms", 1) / 1000,
            api_timeout=_int(options, "default.api.timeout.ms", 1) / 1000,
            connect_timeout=_int(options, "socket.connection.setup.timeout.ms", 1) / 1000,
            connect_timeout_max=_int(options, "socket.connection.setup.timeout.max.ms", 1) / 1000,
            retry_backoff=_int(options, "retry.backoff.ms") / 1000,
            retry_backoff_max=_int(options, "retry.backoff.max.ms") / 1000,
            security_protocol=protocol,
            sasl_mechanism=mechanism,
            sasl_username=user,
            sasl_password=password,
            sasl_token_auth=token_auth,
            sasl_login=login,
            receive_buffer=_int(options, "receive.buffer.bytes", -1),
            send_buffer=_int(options, "send.buffer.bytes", -1),
            fetch_min_bytes=_int(options, "fetch.min.bytes"),
            fetch_max_wait_ms=_int(options, "fetch.max.wait.ms"),
            **tls,  # type: ignore[arg-type]
            **kerberos,  # type: ignore[arg-type]
        )
        if isinstance(login, TokenLogin) and (config.truststore or config.truststore_path):
            # Kafka asks an https: token endpoint with the client's own trust store
            cafile, cadata = config.trusted()
            config = dataclasses.replace(
                config, sasl_login=dataclasses.replace(login, cafile=cafile, cadata=cadata)
            )
        return config

    def sasl_client(self, host: str) -> Optional["SaslClient"]:
        """A fresh SASL client for one connection to ``host`` (None without SASL)."""
        if self.sasl_mechanism is None:
            return None
        from kafkawire.sasl import GssapiClient, OAuthBearerClient, ScramClient, client_for
        from kafkawire.sasl.oauth import current_token

        if self.sasl_mechanism == "GSSAPI":
            return GssapiClient(
                host,
                service_name=self.kerberos_service_name or "kafka",
                principal=self.kerberos_principal,
                keytab=self.kerberos_keytab,
                ccache=self.kerberos_ccache,
            )

        if isinstance(self.sasl_login, TokenLogin):
            login = self.sasl_login
            return OAuthBearerClient(lambda: current_token(login).value, extensions=dict(login.extensions))
        if isinstance(self.sasl_login, MskIamLogin):
            return self.sasl_login.sasl_client(host)
        if self.sasl_token_auth:
            return ScramClient(
                self.sasl_mechanism, self.sasl_username or "", self.sasl_password or "", token_auth=True
            )
        return client_for(self.sasl_mechanism, self.sasl_username or "", self.sasl_password or "")

    def trusted(self) -> Tuple[Optional[str], Optional[str]]:
        """The trust store as ``ssl.create_default_context`` takes it: a PEM file's path
        and PEM text (a JKS or PKCS12 store read into text); both None: the system's CAs."""
        from kafkawire.cluster import stores

        if not self.truststore_path:
            return None, self.truststore
        kind = stores.kind_of(self.truststore_path, self.truststore_type, "truststore")
        if kind == "PEM":
            return self.truststore_path, self.truststore
        return None, stores.trusted_certificates(self.truststore_path, kind, self.truststore_password)

    def ssl_context(self) -> Optional[ssl.SSLContext]:
        """The TLS context of an SSL or SASL_SSL connection (None otherwise): the system's
        CAs unless a trust store is given, the client certificate when a key store is."""
        if self.security_protocol not in ("SSL", "SASL_SSL"):
            return None
        from kafkawire.cluster import stores

        cafile, trusted = self.trusted()
        context = ssl.create_default_context(cafile=cafile, cadata=trusted)
        context.check_hostname = self.check_hostname
        low, high = min(self.tls_versions), max(self.tls_versions)
        context.minimum_version = ssl.TLSVersion[low.replace(".", "_")]
        context.maximum_version = ssl.TLSVersion[high.replace(".", "_")]
        if self.cipher_suites:
            tls12 = [stores.openssl_cipher(c) for c in self.cipher_suites if c not in stores.TLS13_SUITES]
            if tls12:
                try:
                    context.set_ciphers(":".join(tls12))
                except ssl.SSLError:
                    raise ValueError(
                        "option kafka.ssl.cipher.suites: OpenSSL takes none of " + ", ".join(tls12)
                    ) from None
            else:  # only TLS 1.3 suites named: no TLS 1.2 connection can be made
                context.minimum_version = ssl.TLSVersion.TLSv1_3
        key: Optional[str] = None
        chain: Optional[str] = None
        password: Optional[object] = self.key_password
        if self.keystore_path:
            key_kind = stores.kind_of(self.keystore_path, self.keystore_type, "keystore")
            if key_kind == "PEM":
                context.load_cert_chain(self.keystore_path, password=self.key_password)
            else:
                key, chain, password = stores.key_and_chain(
                    self.keystore_path, key_kind, self.keystore_password, self.key_password
                )
        elif self.keystore_key and self.keystore_chain:
            key, chain = self.keystore_key, self.keystore_chain
        if key is not None and chain is not None:
            # ssl loads a certificate chain only from a file: a private temporary one
            fd, path = tempfile.mkstemp(suffix=".pem")
            try:
                with os.fdopen(fd, "w") as fh:
                    fh.write(key.strip() + "\n" + chain.strip() + "\n")
                context.load_cert_chain(path, password=password)  # type: ignore[arg-type]
            finally:
                os.unlink(path)
        return context

    def describe_bootstrap(self) -> str:
        """The bootstrap servers as the option spelled them."""
        return ",".join(f"{h}:{p}" for h, p in self.bootstrap)


_TLS_VERSIONS = ("TLSv1.2", "TLSv1.3")


def _tls_versions(options: Mapping[str, str]) -> Tuple[str, ...]:
    """The TLS versions ``ssl.enabled.protocols`` or else ``ssl.protocol`` allow, as Java's
    client does: TLSv1.3 allows TLSv1.2 too; ``TLS`` is the newest."""
    enabled = options.get("ssl.enabled.protocols")
    if enabled is not None and enabled.strip():
        wanted = [v.strip() for v in enabled.split(",") if v.strip()]
        name = "ssl.enabled.protocols"
    else:
        wanted = [str(options.get("ssl.protocol", "TLSv1.3")).strip()]
        name = "ssl.protocol"
        if wanted[0] in ("TLS", "TLSv1.3"):
            wanted = list(_TLS_VERSIONS)
    bad = [v for v in wanted if v not in _TLS_VERSIONS]
    if bad:
        raise ValueError(
            f"option kafka.{name}: {', '.join(bad)} is not a TLS version kafka-cluster speaks"
            f" ({', '.join(_TLS_VERSIONS)})"
        )
    return tuple(sorted(set(wanted)))


def _tls_options(options: Mapping[str, str]) -> Dict[str, object]:
    """The TLS fields of an SSL or SASL_SSL config: the stores (JKS when no type is given,
    as in Kafka), their passwords, the versions and cipher suites."""
    from kafkawire.cluster import stores

    fields: Dict[str, object] = {}
    for store in ("truststore", "keystore"):
        given = options.get(f"ssl.{store}.type")
        kind = str(given).strip().upper() if given is not None else None
        if kind is not None and kind not in stores.STORE_TYPES:
            raise ValueError(
                f"option kafka.ssl.{store}.type: {kind!r} is not one of {', '.join(stores.STORE_TYPES)}"
            )
        location = options.get(f"ssl.{store}.location")
        if location and kind in ("JKS", "PKCS12"):
            stores.require_extra(f"kafka.ssl.{store}.type {kind}")
            if store == "keystore" and not options.get("ssl.keystore.password"):
                raise ValueError(f"a {kind} key store needs option kafka.ssl.keystore.password, as in Kafka")
        fields.update(
            {
                f"{store}_path": location,
                f"{store}_type": kind,
                f"{store}_password": options.get(f"ssl.{store}.password"),
            }
        )
    key, chain = options.get("ssl.keystore.key"), options.get("ssl.keystore.certificate.chain")
    if bool(key) != bool(chain):
        raise ValueError(
            "options kafka.ssl.keystore.key and kafka.ssl.keystore.certificate.chain go together"
        )
    suites = options.get("ssl.cipher.suites")
    fields.update(
        truststore=options.get("ssl.truststore.certificates"),
        keystore_key=key,
        keystore_chain=chain,
        key_password=options.get("ssl.key.password"),
        check_hostname=options.get("ssl.endpoint.identification.algorithm", "https") != "",
        tls_versions=_tls_versions(options),
        cipher_suites=tuple(c.strip() for c in suites.split(",") if c.strip()) if suites else None,
    )
    return fields


def _kerberos_options(options: Mapping[str, str]) -> Dict[str, Optional[str]]:
    """The Kerberos fields of a GSSAPI config, from the service name and the
    ``Krb5LoginModule`` JAAS line (none: the default ticket cache)."""
    jaas = options.get("sasl.jaas.config")
    login: Dict[str, str] = {}
    if jaas:
        module, login = parse_jaas(str(jaas))
        if module != _LOGIN_MODULES["GSSAPI"]:
            raise ValueError(
                f"option kafka.sasl.jaas.config: GSSAPI logs in with {_LOGIN_MODULES['GSSAPI']}, not {module}"
            )
    service = options.get("sasl.kerberos.service.name") or login.get("serviceName")
    if not service:
        raise ValueError(
            "SASL mechanism GSSAPI needs the broker's Kerberos service name: "
            "option kafka.sasl.kerberos.service.name (Kafka's brokers usually run as 'kafka')"
        )
    fields: Dict[str, Optional[str]] = {"kerberos_service_name": str(service)}
    if login.get("useKeyTab", "false").lower() == "true":
        if not login.get("keyTab") or not login.get("principal"):
            raise ValueError(
                "option kafka.sasl.jaas.config: useKeyTab=true needs keyTab=... and principal=..."
            )
        fields.update(kerberos_keytab=login["keyTab"], kerberos_principal=login["principal"])
    elif jaas and login.get("useTicketCache", "false").lower() != "true":
        raise ValueError(
            "option kafka.sasl.jaas.config: Krb5LoginModule needs useKeyTab=true (with keyTab and "
            "principal) or useTicketCache=true; kafkawire cannot prompt for a password"
        )
    else:
        fields.update(kerberos_ccache=login.get("ticketCache"), kerberos_principal=login.get("principal"))
    return fields


def _class_name(name: str) -> str:
    """A Java class name as Kafka's shaded copy in Databricks' runtime spells it, unshaded."""
    return name[len("kafkashaded.") :] if name.startswith("kafkashaded.") else name


def _float(options: Mapping[str, str], name: str, low: float, high: float, scale: float = 1.0) -> float:
    raw = options.get(name, CLIENT_SETTINGS.get(name))
    try:
        value = float(str(raw).strip())
    except ValueError:
        raise ValueError(f"option kafka.{name}: {raw!r} is not a number") from None
    if not low <= value <= high:
        raise ValueError(f"option kafka.{name}: {raw} is not within {low:g} and {high:g}")
    return value * scale


def _token_login(options: Mapping[str, str], mechanism: str, jaas: Mapping[str, str]) -> SaslLogin:
    """Where an OAUTHBEARER or AWS_MSK_IAM login gets its credentials, from the callback
    handler classes, the JAAS line's options and the ``sasl.oauthbearer.*`` and
    ``sasl.login.*`` settings."""
    login_handler = _class_name(str(options.get("sasl.login.callback.handler.class") or ""))
    client_handler = _class_name(str(options.get("sasl.client.callback.handler.class") or ""))
    if mechanism == "AWS_MSK_IAM":
        if client_handler not in ("", _MSK_CLIENT_HANDLER):
            raise ValueError(
                f"option kafka.sasl.client.callback.handler.class: AWS_MSK_IAM takes {_MSK_CLIENT_HANDLER},"
                f" not {client_handler}"
            )
        return MskIamLogin.from_jaas(jaas)
    if client_handler:
        raise ValueError(
            f"option kafka.sasl.client.callback.handler.class: OAUTHBEARER takes no client callback "
            f"handler here (found {client_handler}); its token source is kafka.sasl.login.callback.handler.class"
        )
    if login_handler == _MSK_OAUTH_HANDLER:
        return MskIamLogin.from_jaas(jaas, oauthbearer=True)
    if login_handler == _STRIMZI_HANDLER:
        endpoint = jaas.get("oauth.token.endpoint.uri")
        if not endpoint:
            raise ValueError(
                f"option kafka.sasl.jaas.config: {_STRIMZI_HANDLER} needs oauth.token.endpoint.uri"
            )
        options = {
            **options,
            "sasl.oauthbearer.token.endpoint.url": endpoint,
            "sasl.oauthbearer.client.credentials.client.id": jaas.get("oauth.client.id", ""),
            "sasl.oauthbearer.client.credentials.client.secret": jaas.get("oauth.client.secret", ""),
            "sasl.oauthbearer.scope": jaas.get("oauth.scope", ""),
        }
    elif login_handler not in _OIDC_HANDLERS:
        raise ValueError(
            "OAUTHBEARER needs option kafka.sasl.login.callback.handler.class: "
            f"{_OIDC_HANDLERS[0]} (the OAuth client-credentials grant), {_STRIMZI_HANDLER} "
            f"or {_MSK_OAUTH_HANDLER}" + (f", not {login_handler}" if login_handler else "")
        )
    endpoint = options.get("sasl.oauthbearer.token.endpoint.url")
    if not endpoint:
        raise ValueError(f"{login_handler} needs option kafka.sasl.oauthbearer.token.endpoint.url")
    if not re.match(r"(?i)(https?|file):", str(endpoint)):
        raise ValueError(
            f"option kafka.sasl.oauthbearer.token.endpoint.url: {endpoint!r} is not an https:, http: or file: URL"
        )
    client_id = options.get("sasl.oauthbearer.client.credentials.client.id") or jaas.get("clientId")
    secret = options.get("sasl.oauthbearer.client.credentials.client.secret") or jaas.get("clientSecret")
    if not str(endpoint).lower().startswith("file:") and (not client_id or not secret):
        raise ValueError(
            "option kafka.sasl.jaas.config: the OAuth client-credentials grant needs clientId and clientSecret"
        )
    ms = 1 / 1000
    return TokenLogin(
        endpoint=str(endpoint),
        client_id=client_id,
        client_secret=secret,
        scope=options.get("sasl.oauthbearer.scope") or jaas.get("scope"),
        extensions=extensions_of(jaas),
        urlencode_header=datasource_options.parse_bool(
            options.get("sasl.oauthbearer.header.urlencode", "false"),
            "kafka.sasl.oauthbearer.header.urlencode",
        ),
        sub_claim=str(options.get("sasl.oauthbearer.sub.claim.name") or "sub"),
        # the bounds Kafka's ConfigDef puts on them
        window_factor=_float(options, "sasl.login.refresh.window.factor", 0.5, 1.0),
        window_jitter=_float(options, "sasl.login.refresh.window.jitter", 0.0, 0.25),
        min_period=_float(options, "sasl.login.refresh.min.period.seconds", 0, 900),
        buffer=_float(options, "sasl.login.refresh.buffer.seconds", 0, 3600),
        connect_timeout=_int(options, "sasl.login.connect.timeout.ms", 1) * ms,
        read_timeout=_int(options, "sasl.login.read.timeout.ms", 1) * ms,
        retry_backoff=_int(options, "sasl.login.retry.backoff.ms") * ms,
        retry_backoff_max=_int(options, "sasl.login.retry.backoff.max.ms") * ms,
    )


def client_settings(options: Mapping[str, str]) -> Dict[str, str]:
    """The ``kafka.``-prefixed entries of ``options`` (keys lower case, prefix removed)."""
    return {k[len("kafka.") :]: v for k, v in options.items() if k.startswith("kafka.")}
