"""A real MIT Kerberos KDC for the test suite (Debian's ``krb5-kdc`` and ``krb5-admin-server``).

:func:`start_kdc` makes a realm of its own in a temporary directory (``krb5.conf``,
``kdc.conf``, a database made by ``kdb5_util``), starts ``krb5kdc`` in the foreground on
127.0.0.1 at a free port (TCP and UDP), and waits, bounded, until it answers a ``kinit``.
Principals and keytabs are made with ``kadmin.local``.  :meth:`Kdc.stop` terminates the
KDC, then kills it after a bounded wait; on Linux it also gets SIGTERM when the test
process dies.  The process environment is not touched: :attr:`Kdc.env` is what a child
(or a ``monkeypatch``) needs to use the realm (``KRB5_CONFIG``, ``KRB5_KDC_PROFILE``).
"""

from __future__ import annotations

import atexit
import ctypes
import os
import shutil
import signal
import socket
import subprocess
import sys
import tempfile
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Dict, List, Optional

REALM = "KAFKAWIRE.TEST"
START_TIMEOUT = 30.0  # seconds for the KDC to answer a kinit
TOOL_TIMEOUT = 30.0  # seconds for one kdb5_util/kadmin.local/kinit run
_TOOLS = ("krb5kdc", "kdb5_util", "kadmin.local", "kinit")


class KdcUnavailable(RuntimeError):
    """MIT Kerberos's KDC or tools are not installed."""


class KdcFailed(RuntimeError):
    """The KDC could not be set up or did not answer."""


def _tool(name: str) -> Optional[str]:
    return shutil.which(name) or shutil.which(name, path="/usr/sbin:/usr/bin:/sbin")


def missing_tools() -> List[str]:
    """The MIT Kerberos programs this module needs that are not installed."""
    return [name for name in _TOOLS if _tool(name) is None]


def _free_port() -> int:
    # the KDC listens on the same number for TCP and UDP: find one free for both
    for _ in range(50):
        with socket.socket() as tcp, socket.socket(socket.AF_INET, socket.SOCK_DGRAM) as udp:
            tcp.bind(("127.0.0.1", 0))
            port = tcp.getsockname()[1]
            try:
                udp.bind(("127.0.0.1", port))
            except OSError:
                continue
            return port
    raise KdcFailed("no port free for both TCP and UDP on 127.0.0.1")


def _die_with_parent() -> None:
    libc = ctypes.CDLL(None, use_errno=True)
    libc.prctl(1, signal.SIGTERM)  # PR_SET_PDEATHSIG


@dataclass
class Kdc:
    """A running KDC: its realm, address, configuration files and how to stop it."""

    realm: str
    port: int
    directory: Path
    krb5_conf: Path
    kdc_conf: Path
    process: Optional[subprocess.Popen] = None
    principals: Dict[str, str] = field(default_factory=dict)  # name -> password, if any

    @property
    def env(self) -> Dict[str, str]:
        """The variables that point MIT Kerberos (and ``gssapi``) at this realm."""
        return {"KRB5_CONFIG": str(self.krb5_conf), "KRB5_KDC_PROFILE": str(self.kdc_conf)}

    def child_env(self, **extra: str) -> Dict[str, str]:
        """The current environment with :attr:`env` and ``extra`` added."""
        env = dict(os.environ)
        env.update(self.env)
        env.update(extra)
        return env

    def kadmin(self, query: str) -> str:
        """Run one ``kadmin.local`` query; raises :class:`KdcFailed` on failure."""
        proc = subprocess.run(
            [_tool("kadmin.local") or "kadmin.local", "-r", self.realm, "-q", query],
            env=self.child_env(),
            capture_output=True,
            text=True,
            timeout=TOOL_TIMEOUT,
        )
        # kadmin.local exits 0 even when the query failed: its errors go to stderr
        if proc.returncode != 0 or "kadmin.local:" in proc.stderr and "error" in proc.stderr.lower():
            raise KdcFailed(f"kadmin.local {query!r} failed: {(proc.stdout + proc.stderr).strip()[-1000:]}")
        return proc.stdout

    def add_principal(self, name: str, password: Optional[str] = None, *, maxlife: str = "") -> str:
        """Create ``name`` (without realm), with ``password`` or a random key; returns
        ``name@REALM``."""
        life = f'-maxlife "{maxlife}" ' if maxlife else ""
        key = f'-pw "{password}"' if password is not None else "-randkey"
        self.kadmin(f"addprinc {life}{key} {name}")
        if password is not None:
            self.principals[name] = password
        return f"{name}@{self.realm}"

    def keytab(self, name: str, path: Path) -> Path:
        """Write ``name``'s keys to the keytab ``path`` (new keys unless the principal
        has a password: ``-norandkey`` keeps its password usable)."""
        norandkey = "-norandkey " if name in self.principals else ""
        self.kadmin(f"ktadd -k {path} {norandkey}{name}")
        return path

    def kinit(
        self, principal: str, cache: Path, *, keytab: Optional[Path] = None, password: str = ""
    ) -> None:
        """Get a ticket for ``principal`` into the credential cache ``cache``."""
        args = [_tool("kinit") or "kinit", "-c", f"FILE:{cache}"]
        args += ["-k", "-t", str(keytab), principal] if keytab is not None else [principal]
        proc = subprocess.run(
            args,
            env=self.child_env(),
            input=None if keytab is not None else password + "\n",
            capture_output=True,
            text=True,
            timeout=TOOL_TIMEOUT,
        )
        if proc.returncode != 0:
            raise KdcFailed(f"kinit {principal} failed: {(proc.stdout + proc.stderr).strip()[-1000:]}")

    def stop(self) -> None:
        """Terminate the KDC (kill it after a bounded wait) and remove its files."""
        if self.process is not None and self.process.poll() is None:
            self.process.terminate()
            try:
                self.process.wait(timeout=10)
            except subprocess.TimeoutExpired:
                self.process.kill()
                self.process.wait(timeout=10)
        if self in _RUNNING:
            _RUNNING.remove(self)
        shutil.rmtree(self.directory, ignore_errors=True)


_RUNNING: List[Kdc] = []
atexit.register(lambda: [kdc.stop() for kdc in list(_RUNNING)])


def _write_config(directory: Path, realm: str, port: int) -> Kdc:
    krb5_conf, kdc_conf = directory / "krb5.conf", directory / "kdc.conf"
    # no DNS: the service host is the name the client was given, as in the tests' brokers
    krb5_conf.write_text(
        "[libdefaults]\n"
        f"  default_realm = {realm}\n"
        "  dns_lookup_kdc = false\n  dns_lookup_realm = false\n"
        "  dns_canonicalize_hostname = false\n  rdns = false\n"
        "  udp_preference_limit = 1\n"  # TCP: Java and MIT alike
        "  ticket_lifetime = 1h\n  forwardable = false\n"
        f"[realms]\n  {realm} = {{\n    kdc = 127.0.0.1:{port}\n    admin_server = 127.0.0.1:{port}\n  }}\n"
        f"[domain_realm]\n  localhost = {realm}\n  127.0.0.1 = {realm}\n"
    )
    kdc_conf.write_text(
        f"[kdcdefaults]\n  kdc_ports = {port}\n  kdc_tcp_ports = {port}\n"
        f"[realms]\n  {realm} = {{\n"
        f"    database_name = {directory}/principal\n"
        f"    admin_keytab = FILE:{directory}/kadm5.keytab\n"
        f"    acl_file = {directory}/kadm5.acl\n"
        f"    key_stash_file = {directory}/stash\n"
        f"    kdc_listen = 127.0.0.1:{port}\n    kdc_tcp_listen = 127.0.0.1:{port}\n"
        "    max_life = 1h\n    max_renewable_life = 0\n"
        "    supported_enctypes = aes256-cts-hmac-sha1-96:normal aes128-cts-hmac-sha1-96:normal\n"
        "  }\n"
        f"[logging]\n  kdc = FILE:{directory}/kdc.log\n"
    )
    (directory / "kadm5.acl").write_text("")
    return Kdc(realm=realm, port=port, directory=directory, krb5_conf=krb5_conf, kdc_conf=kdc_conf)


def start_kdc(realm: str = REALM, *, timeout: float = START_TIMEOUT) -> Kdc:
    """Create ``realm``'s database and start its KDC; return it once a ``kinit`` works."""
    missing = missing_tools()
    if missing:
        raise KdcUnavailable(
            f"MIT Kerberos is not installed (missing {', '.join(missing)}): "
            "apt-get install krb5-kdc krb5-admin-server krb5-user"
        )
    directory = Path(tempfile.mkdtemp(prefix="kafkawire-kdc-"))
    kdc = _write_config(directory, realm, _free_port())
    try:
        subprocess.run(
            [_tool("kdb5_util") or "kdb5_util", "-r", realm, "create", "-s", "-P", "master-" + realm],
            env=kdc.child_env(),
            capture_output=True,
            check=True,
            timeout=TOOL_TIMEOUT,
        )
        log = open(directory / "krb5kdc.out", "wb")
        kdc.process = subprocess.Popen(
            [_tool("krb5kdc") or "krb5kdc", "-n", "-r", realm],
            env=kdc.child_env(),
            stdin=subprocess.DEVNULL,
            stdout=log,
            stderr=subprocess.STDOUT,
            start_new_session=True,
            preexec_fn=_die_with_parent if sys.platform.startswith("linux") else None,
        )
        log.close()
        _RUNNING.append(kdc)
        kdc.add_principal("readiness", "readiness-password")
        deadline = time.monotonic() + timeout
        while True:
            if kdc.process.poll() is not None:
                raise KdcFailed(
                    f"krb5kdc exited with {kdc.process.returncode}: "
                    + (directory / "krb5kdc.out").read_text(errors="replace")[-2000:]
                )
            try:
                kdc.kinit("readiness", directory / "readiness.ccache", password="readiness-password")
                break
            except KdcFailed:
                if time.monotonic() > deadline:
                    raise
                time.sleep(0.2)
    except subprocess.CalledProcessError as exc:
        kdc.stop()
        raise KdcFailed(f"kdb5_util create failed: {exc.stderr!r}") from None
    except BaseException:
        kdc.stop()
        raise
    return kdc


__all__ = ["REALM", "Kdc", "KdcFailed", "KdcUnavailable", "missing_tools", "start_kdc"]
