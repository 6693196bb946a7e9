"""The Kerberos fixtures, loaded by ``tests/conftest.py`` as a plugin.

One MIT KDC (``kdc.start_kdc``) serves the whole run: its realm has the service
principal ``kafka/localhost`` (keytab ``service_keytab``, shared by Kafka's broker and
kafkawire's test broker), a client ``alice`` with a keytab and ``bob`` with a password
(for ``kinit`` into a credential cache).  ``kerberos_kafka`` is a Kafka 4.4 broker of
its own whose SASL_PLAINTEXT and SASL_SSL listeners (advertised as ``localhost``, the
host in its principal) enable GSSAPI beside PLAIN and SCRAM.  Tests marked ``kerberos`` skip without
MIT Kerberos or the ``gssapi`` package, and fail instead under KAFKAWIRE_REQUIRE_KERBEROS=1.

``KRB5_CONFIG`` names, from the start of the run, the file where the realm's
``krb5.conf`` will be written once the KDC starts: processes started before that (the
session's Spark, whose Python workers run the kafka-cluster source) inherit the name.
"""

from __future__ import annotations

import os
import shutil
import tempfile
from dataclasses import dataclass
from pathlib import Path

import pytest

SERVICE = "kafka"
SERVICE_HOST = "localhost"


_KRB5_CONFIG = {"saved": None, "path": None}


def pytest_configure(config):
    directory = tempfile.mkdtemp(prefix="kafkawire-krb5-")
    _KRB5_CONFIG.update(saved=os.environ.get("KRB5_CONFIG"), path=os.path.join(directory, "krb5.conf"))
    os.environ["KRB5_CONFIG"] = _KRB5_CONFIG["path"]
    config.addinivalue_line(
        "markers",
        "kerberos: needs MIT Kerberos (krb5-kdc, krb5-admin-server, krb5-user) and the gssapi "
        "package (skips without them; KAFKAWIRE_REQUIRE_KERBEROS=1 makes that skip a failure)",
    )


def pytest_unconfigure(config):
    path, saved = _KRB5_CONFIG["path"], _KRB5_CONFIG["saved"]
    if path is not None:
        shutil.rmtree(os.path.dirname(path), ignore_errors=True)
        if saved is None:
            os.environ.pop("KRB5_CONFIG", None)
        else:
            os.environ["KRB5_CONFIG"] = saved


def require_kerberos(*programs: str) -> None:
    """Skip the calling test (or fail it under KAFKAWIRE_REQUIRE_KERBEROS=1) without MIT
    Kerberos's KDC and tools, the ``gssapi`` package or the ``programs`` it names
    (``kcat``), saying what to install."""
    from kdc import missing_tools

    missing = []
    tools = missing_tools()
    if tools:
        missing.append(f"{', '.join(tools)} (Debian: apt-get install krb5-kdc krb5-admin-server krb5-user)")
    try:
        import gssapi  # noqa: F401
    except ImportError:
        missing.append(
            "the gssapi package (pip install -e '.[kerberos]', which builds against MIT Kerberos's "
            "krb5-config: Debian's libkrb5-dev)"
        )
    if "kcat" in programs and shutil.which("kcat") is None:
        missing.append("kcat (Debian: apt-get install kcat libsasl2-modules-gssapi-mit)")
    if missing:
        reason = f"the Kerberos tests need {'; '.join(missing)}"
        if os.environ.get("KAFKAWIRE_REQUIRE_KERBEROS") == "1":
            pytest.fail(reason + " (KAFKAWIRE_REQUIRE_KERBEROS=1)", pytrace=False)
        pytest.skip(reason)


@pytest.fixture(autouse=True)
def _kerberos_available(request):
    if request.node.get_closest_marker("kerberos"):
        require_kerberos()


@dataclass
class Realm:
    """The test realm: its KDC and the principals and keytabs the tests use."""

    kdc: object  # kdc.Kdc
    name: str
    service_principal: str  # kafka/localhost@REALM
    service_keytab: Path
    alice: str  # alice@REALM, with alice_keytab
    alice_keytab: Path
    bob: str  # bob@REALM, with bob_password
    bob_password: str

    def ccache(self, principal: str, path: Path, *, keytab=None, password: str = "") -> str:
        """``kinit`` ``principal`` into the credential cache file ``path``; its name."""
        self.kdc.kinit(principal, path, keytab=keytab, password=password)
        return f"FILE:{path}"


@pytest.fixture(scope="session")
def kerberos(tmp_path_factory):
    """A running KDC with the suite's principals (:class:`Realm`); its ``krb5.conf``
    goes where ``KRB5_CONFIG`` points for the whole run (gssapi reads it)."""
    require_kerberos()
    from kdc import start_kdc

    kdc = start_kdc()
    shutil.copyfile(kdc.krb5_conf, _KRB5_CONFIG["path"])
    try:
        keys = tmp_path_factory.mktemp("keytabs")
        service = kdc.add_principal(f"{SERVICE}/{SERVICE_HOST}")
        alice = kdc.add_principal("alice")
        bob = kdc.add_principal("bob", "bob-password")
        yield Realm(
            kdc=kdc,
            name=kdc.realm,
            service_principal=service,
            service_keytab=kdc.keytab(f"{SERVICE}/{SERVICE_HOST}", keys / "kafka.keytab"),
            alice=alice,
            alice_keytab=kdc.keytab("alice", keys / "alice.keytab"),
            bob=bob,
            bob_password="bob-password",
        )
    finally:
        kdc.stop()
        os.unlink(_KRB5_CONFIG["path"])


def kerberos_broker_properties(realm: Realm, mechanisms: str) -> dict:
    """The ``server.properties`` lines that enable GSSAPI on a Kafka broker's SASL
    listeners, with ``realm``'s service keytab."""
    jaas = (
        "com.sun.security.auth.module.Krb5LoginModule required useKeyTab=true storeKey=true "
        f'keyTab="{realm.service_keytab}" principal="{realm.service_principal}";'
    )
    return {
        "sasl.enabled.mechanisms": mechanisms,
        "sasl.kerberos.service.name": SERVICE,
        # KIP-368: re-authentication every two hours, longer than a ticket lives (1 h)
        "connections.max.reauth.ms": 7200000,
        "listener.name.sasl_plaintext.gssapi.sasl.jaas.config": jaas,
        "listener.name.sasl_ssl.gssapi.sasl.jaas.config": jaas,
        # delegation tokens (CreateDelegationToken, then SCRAM with tokenauth=true)
        "delegation.token.secret.key": "kafkawire-test-token-secret",
    }


@pytest.fixture(scope="session")
def kerberos_kafka(kerberos, tmp_path_factory):
    """A Kafka 4.4 broker whose SASL_PLAINTEXT and SASL_SSL listeners, advertised as
    ``localhost``, enable GSSAPI (service ``kafka``), PLAIN and SCRAM; its JVM uses the
    test realm.  ``broker.pki`` is the TLS material (:func:`tls_certs.make_pki`)."""
    from kafka_support.jars import require_kafka

    require_kafka()
    from kafka_support.broker import start_broker
    from tls_certs import make_pki

    pki = make_pki(tmp_path_factory.mktemp("kerberos-pki"))
    broker = start_broker(
        tls=(pki.server_cert, pki.server_key),
        extra_properties=kerberos_broker_properties(kerberos, "GSSAPI,PLAIN,SCRAM-SHA-256,SCRAM-SHA-512"),
        jvm_options=(f"-Djava.security.krb5.conf={kerberos.kdc.krb5_conf}",),
        sasl_host=SERVICE_HOST,
    )
    broker.pki = pki
    try:
        yield broker
    finally:
        broker.stop()
