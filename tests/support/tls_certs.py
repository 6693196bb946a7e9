"""A throwaway certificate authority for TLS tests, made with the openssl command at test
time (no key is ever committed): a CA, a server certificate for 127.0.0.1/localhost, and
a client certificate whose subject is ``CN=client,O=kafkawire-test``."""

from __future__ import annotations

import shutil
import subprocess
from dataclasses import dataclass
from pathlib import Path

import pytest

CLIENT_SUBJECT = "/O=kafkawire-test/CN=client"
#: the principal Kafka's default builder gives that client certificate (RFC 2253 order)
CLIENT_PRINCIPAL = "User:CN=client,O=kafkawire-test"


@dataclass(frozen=True)
class Pki:
    ca: str
    server_cert: str
    server_key: str
    client_cert: str
    client_key: str


def _openssl(*args: str, cwd: Path) -> None:
    subprocess.run(["openssl", *args], cwd=cwd, check=True, capture_output=True, timeout=60)


def make_pki(directory: Path) -> Pki:
    """Generate the CA and both certificates in ``directory``."""
    if shutil.which("openssl") is None:
        pytest.skip("the openssl command is needed to generate test certificates")
    d = Path(directory)
    d.mkdir(parents=True, exist_ok=True)
    _openssl(
        "req",
        "-x509",
        "-newkey",
        "rsa:2048",
        "-nodes",
        "-keyout",
        "ca.key",
        "-out",
        "ca.pem",
        "-days",
        "2",
        "-subj",
        "/O=kafkawire-test/CN=test-ca",
        cwd=d,
    )
    (d / "server.ext").write_text("subjectAltName=IP:127.0.0.1,DNS:localhost\nextendedKeyUsage=serverAuth\n")
    (d / "client.ext").write_text("extendedKeyUsage=clientAuth\n")
    for name, subject in (("server", "/O=kafkawire-test/CN=localhost"), ("client", CLIENT_SUBJECT)):
        _openssl(
            "req",
            "-newkey",
            "rsa:2048",
            "-nodes",
            "-keyout",
            f"{name}.key",
            "-out",
            f"{name}.csr",
            "-subj",
            subject,
            cwd=d,
        )
        _openssl(
            "x509",
            "-req",
            "-in",
            f"{name}.csr",
            "-CA",
            "ca.pem",
            "-CAkey",
            "ca.key",
            "-CAcreateserial",
            "-out",
            f"{name}.pem",
            "-days",
            "2",
            "-extfile",
            f"{name}.ext",
            cwd=d,
        )
    return Pki(
        ca=str(d / "ca.pem"),
        server_cert=str(d / "server.pem"),
        server_key=str(d / "server.key"),
        client_cert=str(d / "client.pem"),
        client_key=str(d / "client.key"),
    )
