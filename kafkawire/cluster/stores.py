"""Java's trust and key stores as PEM, for :mod:`ssl`: what ``kafka.ssl.truststore.*`` and
``kafka.ssl.keystore.*`` name when their type is ``JKS`` (Kafka's default) or ``PKCS12``.

PKCS12 files are read by ``cryptography``; JKS (and JCEKS) files by ``pyjks``, the one
library on PyPI that reads Java's own key store format, with its key protection
(Sun's proprietary SHA-1 keystream) and the store's integrity hash; both come with the
``stores`` extra (``pip install kafkawire[stores]``).  A JKS trust store may be read
without its password, as Java reads one; its integrity is checked when the password is
given.  A private key's password is ``ssl.key.password``, else the store's, as in Kafka.

The cipher suites of ``ssl.cipher.suites`` are IANA names as Java takes them
(``TLS_ECDHE_RSA_WITH_AES_256_GCM_SHA384``); :func:`openssl_cipher` gives OpenSSL's name
for one (``ECDHE-RSA-AES256-GCM-SHA384``).
"""

from __future__ import annotations

import functools
import os
import re
from typing import List, Optional, Tuple

STORE_TYPES = ("JKS", "PKCS12", "PEM")
#: TLS 1.3's suites: OpenSSL always offers these on a TLS 1.3 connection
TLS13_SUITES = ("TLS_AES_128_GCM_SHA256", "TLS_AES_256_GCM_SHA384", "TLS_CHACHA20_POLY1305_SHA256")


_JKS_MAGIC = (b"\xfe\xed\xfe\xed", b"\xce\xce\xce\xce")  # JKS, JCEKS


def kind_of(path: str, given: Optional[str], what: str) -> str:
    """What the store at ``path`` is: ``PEM`` for a PEM file, else JKS or PKCS12 by its
    first bytes.  Java reads a store of type JKS (the default) in either format, so the
    bytes decide; a store of no type that is PEM text is read as PEM, as kafkawire always
    read one."""
    if given == "PEM":
        return "PEM"
    head = _read(path, what)[:64]
    if given is None and head.lstrip().startswith(b"-----BEGIN"):
        return "PEM"
    if head[:4] in _JKS_MAGIC:
        require_extra("kafka.ssl.*store.type JKS")
        return "JKS"
    require_extra("kafka.ssl.*store.type PKCS12")
    return "PKCS12"


def require_extra(what: str) -> None:
    """Raise a ``ValueError`` naming ``what`` unless the ``stores`` extra is installed."""
    try:
        import cryptography  # noqa: F401

        if "JKS" in what:
            import jks  # noqa: F401
    except ImportError as exc:
        raise ValueError(
            f"option {what} needs the package {exc.name}: pip install kafkawire[stores]"
        ) from None


def _pem_certificates(ders: List[bytes]) -> str:
    from cryptography import x509
    from cryptography.hazmat.primitives.serialization import Encoding

    return "".join(x509.load_der_x509_certificate(d).public_bytes(Encoding.PEM).decode() for d in ders)


def _read(path: str, what: str) -> bytes:
    try:
        with open(path, "rb") as fh:
            return fh.read()
    except OSError as exc:
        raise ValueError(f"option kafka.ssl.{what}.location: cannot read {path}: {exc.strerror}") from None


def _jks(path: str, password: Optional[str], what: str) -> "object":
    import jks

    data = _read(path, what)
    try:
        # no password: the store read unchecked, as Java reads a trust store without one
        return jks.KeyStore.loads(data, password or None, try_decrypt_keys=False)
    except jks.util.KeystoreSignatureException:
        raise ValueError(f"option kafka.ssl.{what}.password: wrong password for {path}") from None
    except jks.util.KeystoreException as exc:
        raise ValueError(f"option kafka.ssl.{what}.location: {path} is not a JKS store ({exc})") from None


def _pkcs12(path: str, password: Optional[str], what: str) -> "object":
    from cryptography.hazmat.primitives.serialization import pkcs12

    data = _read(path, what)
    try:
        return pkcs12.load_pkcs12(data, password.encode() if password else None)
    except ValueError:
        raise ValueError(
            f"option kafka.ssl.{what}.location: {path} is not a PKCS12 store or the password is wrong"
        ) from None


@functools.lru_cache(maxsize=16)
def trusted_certificates(path: str, kind: str, password: Optional[str]) -> str:
    """The certificates a JKS or PKCS12 trust store trusts, as PEM text."""
    if kind == "PKCS12":
        store = _pkcs12(path, password, "truststore")
        ders = [c.certificate.public_bytes(_der()) for c in store.additional_certs]  # type: ignore[attr-defined]
        if store.cert is not None:  # type: ignore[attr-defined]
            ders.insert(0, store.cert.certificate.public_bytes(_der()))  # type: ignore[attr-defined]
    else:
        store = _jks(path, password, "truststore")
        ders = [entry.cert for entry in store.certs.values()]  # type: ignore[attr-defined]
        ders += [d for entry in store.private_keys.values() for _, d in entry.cert_chain[:1]]  # type: ignore[attr-defined]
    if not ders:
        raise ValueError(f"option kafka.ssl.truststore.location: {path} holds no certificate")
    return _pem_certificates(ders)


def _der() -> "object":
    from cryptography.hazmat.primitives.serialization import Encoding

    return Encoding.DER


@functools.lru_cache(maxsize=16)
def key_and_chain(
    path: str, kind: str, store_password: Optional[str], key_password: Optional[str]
) -> Tuple[str, str, bytes]:
    """``(key, chain, password)``: the one private key of a JKS or PKCS12 key store as PEM
    encrypted with ``password`` (made up here: the key never touches a disk in the clear),
    and its certificate chain as PEM."""
    from cryptography.hazmat.primitives import serialization

    if kind == "PKCS12":
        store = _pkcs12(path, store_password or key_password, "keystore")
        if store.key is None or store.cert is None:  # type: ignore[attr-defined]
            raise ValueError(f"option kafka.ssl.keystore.location: {path} holds no private key")
        key = store.key  # type: ignore[attr-defined]
        ders = [store.cert.certificate.public_bytes(_der())]  # type: ignore[attr-defined]
        ders += [c.certificate.public_bytes(_der()) for c in store.additional_certs]  # type: ignore[attr-defined]
    else:
        import jks

        store = _jks(path, store_password, "keystore")
        entries = list(store.private_keys.values())  # type: ignore[attr-defined]
        if len(entries) != 1:
            raise ValueError(
                f"option kafka.ssl.keystore.location: {path} holds {len(entries)} private keys, not 1"
            )
        entry = entries[0]
        try:
            entry.decrypt(key_password or store_password or "")
        except jks.util.DecryptionFailureException:
            raise ValueError(
                f"option kafka.ssl.key.password: the key {entry.alias!r} of {path} does not open with it"
            ) from None
        key = serialization.load_der_private_key(entry.pkey_pkcs8, None)
        ders = [d for _, d in entry.cert_chain]
    password = os.urandom(24).hex().encode()
    pem = key.private_bytes(
        serialization.Encoding.PEM,
        serialization.PrivateFormat.PKCS8,
        serialization.BestAvailableEncryption(password),
    ).decode()
    return pem, _pem_certificates(ders), password


_KEY_EXCHANGES = {"ECDHE_RSA": "ECDHE-RSA-", "ECDHE_ECDSA": "ECDHE-ECDSA-", "DHE_RSA": "DHE-RSA-", "RSA": ""}


def openssl_cipher(name: str) -> str:
    """OpenSSL's name of a TLS 1.2 cipher suite given by its IANA name (an OpenSSL name is
    returned as it is); a ``ValueError`` names one it cannot map."""
    if not name.startswith("TLS_"):
        return name
    m = re.fullmatch(r"TLS_(\w+?)_WITH_(AES_(128|256)_(GCM|CBC)_(SHA\d*)|CHACHA20_POLY1305_SHA256)", name)
    if m is None or m.group(1) not in _KEY_EXCHANGES:
        raise ValueError(f"option kafka.ssl.cipher.suites: {name} is not a TLS 1.2 suite kafka-cluster knows")
    kx = _KEY_EXCHANGES[m.group(1)]
    if m.group(2).startswith("CHACHA20"):
        return f"{kx}CHACHA20-POLY1305"
    bits, mode, mac = m.group(3), m.group(4), m.group(5)
    return f"{kx}AES{bits}-GCM-{mac}" if mode == "GCM" else f"{kx}AES{bits}-{mac}"
