"""Ory Hydra: a real OAuth 2 / OpenID Connect server for the OAUTHBEARER tests.

The ``hydra`` binary is built from Hydra's Go module (pinned below) with the Go
toolchain, once, into ``$KAFKAWIRE_CACHE_DIR/hydra/<version>/hydra`` (default
``~/.cache/kafkawire``): ``python tests/support/hydra.py build`` does it (``.ci/run``
calls it; the build takes minutes on a busy 2-core machine, a warm run none).  Hydra's
``go.mod`` replaces one of its modules with a folder its module archive leaves out, so
``go install module@version`` refuses it: the build goes through a module of its own
that requires Hydra and repeats Hydra's other replacement.

:func:`start_server` runs ``hydra serve all`` on 127.0.0.1 (public and admin ports picked
free), its state in memory, issuing JWT access tokens (``strategies.access_token=jwt``)
that live ``ttl`` seconds; :meth:`HydraServer.add_client` registers a client of the
client-credentials grant.  Tests without the binary skip;
``KAFKAWIRE_REQUIRE_KAFKA=1`` (set by ``.ci/run``) makes that skip a failure.
"""

from __future__ import annotations

import json
import os
import secrets
import subprocess
import sys
import tempfile
import time
import urllib.error
import urllib.request
from dataclasses import dataclass
from pathlib import Path
from typing import Dict, Optional

sys.path.insert(0, str(Path(__file__).parents[1]))

from support.seaweedfs import _free_ports, go_executable  # noqa: E402  (the Go toolchain)

MODULE = "github.com/ory/hydra/v2"
VERSION = "v2.3.0"
# Hydra's own go.mod replaces pop with Ory's fork; a module that requires Hydra must repeat it
REPLACE = "github.com/gobuffalo/pop/v6 => github.com/ory/pop/v6 v6.2.1-0.20241121111754-e5dfc0f3344b"
CACHE_DIR = Path(os.environ.get("KAFKAWIRE_CACHE_DIR", Path.home() / ".cache" / "kafkawire"))
HYDRA = CACHE_DIR / "hydra" / VERSION / "hydra"
START_TIMEOUT = 90.0  # seconds until the public port answers, on a busy 2-core machine
STOP_TIMEOUT = 15.0


class HydraUnavailable(RuntimeError):
    """The ``hydra`` binary is not built (or cannot be), or the server did not start."""


def build() -> Path:
    """Build ``hydra`` into the cache if it is not there; its path."""
    if HYDRA.is_file():
        return HYDRA
    try:
        go = go_executable()
    except RuntimeError as exc:
        raise HydraUnavailable(str(exc)) from None
    HYDRA.parent.mkdir(parents=True, exist_ok=True)
    partial = HYDRA.with_name(f"hydra.partial-{os.getpid()}")
    with tempfile.TemporaryDirectory(prefix="kafkawire-hydra-build-") as work:
        Path(work, "go.mod").write_text(
            f"module kafkawire.test/hydra\n\ngo 1.22\n\nrequire {MODULE} {VERSION}\n\nreplace {REPLACE}\n"
        )
        # the sqlite tags give the in-memory store (DSN "memory"), as Hydra's own builds do
        steps = [
            [go, "mod", "download", f"{MODULE}@{VERSION}"],
            [go, "build", "-mod=mod", "-trimpath", "-ldflags=-s -w",
             "-tags", "sqlite,sqlite_omit_load_extension", "-o", str(partial), MODULE],
        ]  # fmt: skip
        for step in steps:
            done = subprocess.run(step, cwd=work, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
            if done.returncode:
                raise HydraUnavailable(
                    f"building Hydra {VERSION} failed ({' '.join(step[:3])}):\n{done.stdout[-5000:]}"
                )
    os.replace(partial, HYDRA)
    return HYDRA


def require_hydra() -> Path:
    """The ``hydra`` binary; skips the calling test without it (fails it under
    ``KAFKAWIRE_REQUIRE_KAFKA=1``)."""
    import pytest

    if HYDRA.is_file():
        return HYDRA
    reason = f"Ory Hydra {VERSION} is not built at {HYDRA}: run `python tests/support/hydra.py build`"
    if os.environ.get("KAFKAWIRE_REQUIRE_KAFKA") == "1":
        pytest.fail(reason + " (KAFKAWIRE_REQUIRE_KAFKA=1)", pytrace=False)
    pytest.skip(reason)


@dataclass
class HydraServer:
    """A running ``hydra serve all``."""

    process: "subprocess.Popen[bytes]"
    public: str  # http://127.0.0.1:port, the issuer
    admin: str
    log: Path

    @property
    def token_endpoint(self) -> str:
        return f"{self.public}/oauth2/token"

    @property
    def jwks_endpoint(self) -> str:
        return f"{self.public}/.well-known/jwks.json"

    @property
    def issuer(self) -> str:
        return f"{self.public}/"

    def add_client(self, scope: str = "kafka") -> Dict[str, str]:
        """Register a client of the client-credentials grant; its ``client_id`` and
        ``client_secret``."""
        secret = secrets.token_urlsafe(24)
        body = {
            "client_secret": secret,
            "grant_types": ["client_credentials"],
            "token_endpoint_auth_method": "client_secret_basic",
            "scope": scope,
            "access_token_strategy": "jwt",
        }
        request = urllib.request.Request(
            f"{self.admin}/admin/clients",
            data=json.dumps(body).encode(),
            method="POST",
            headers={"Content-Type": "application/json"},
        )
        with urllib.request.urlopen(request, timeout=30) as answer:
            made = json.load(answer)
        return {"client_id": made["client_id"], "client_secret": secret}

    def output(self) -> str:
        return self.log.read_text(errors="replace") if self.log.exists() else ""

    def stop(self) -> None:
        if self.process.poll() is None:
            self.process.terminate()
            try:
                self.process.wait(STOP_TIMEOUT)
            except subprocess.TimeoutExpired:
                self.process.kill()
                self.process.wait(STOP_TIMEOUT)


def start_server(ttl: int = 3600, directory: Optional[Path] = None) -> HydraServer:
    """Start Hydra on 127.0.0.1, its access tokens living ``ttl`` seconds; returns once
    its public port serves the key set."""
    if not HYDRA.is_file():
        raise HydraUnavailable(f"Ory Hydra is not built at {HYDRA}")
    directory = Path(directory or tempfile.mkdtemp(prefix="kafkawire-hydra-"))
    public_port, admin_port = _free_ports(2)
    public = f"http://127.0.0.1:{public_port}"
    env = {
        "PATH": os.environ.get("PATH", ""),
        "HOME": str(directory),
        "DSN": "memory",
        "URLS_SELF_ISSUER": f"{public}/",
        "SECRETS_SYSTEM": secrets.token_hex(16),
        "STRATEGIES_ACCESS_TOKEN": "jwt",
        "TTL_ACCESS_TOKEN": f"{ttl}s",
        "SERVE_PUBLIC_HOST": "127.0.0.1",
        "SERVE_PUBLIC_PORT": str(public_port),
        "SERVE_ADMIN_HOST": "127.0.0.1",
        "SERVE_ADMIN_PORT": str(admin_port),
        "SQA_OPT_OUT": "true",  # no usage reports
        "LOG_LEVEL": "warn",
    }
    log = directory / "hydra.log"
    with open(log, "wb") as out:
        # --dev: plain HTTP on loopback (a TLS-less issuer Hydra otherwise refuses)
        proc = subprocess.Popen(
            [str(HYDRA), "serve", "all", "--dev"],
            env=env,
            stdout=out,
            stderr=subprocess.STDOUT,
            stdin=subprocess.DEVNULL,
        )
    server = HydraServer(proc, public, f"http://127.0.0.1:{admin_port}", log)
    deadline = time.monotonic() + START_TIMEOUT
    try:
        while True:
            if proc.poll() is not None:
                raise HydraUnavailable(f"hydra exited with {proc.returncode}: {server.output()[-3000:]}")
            try:
                with urllib.request.urlopen(server.jwks_endpoint, timeout=5) as answer:
                    if json.load(answer).get("keys"):
                        return server
            except (urllib.error.URLError, OSError, ValueError):
                pass
            if time.monotonic() > deadline:
                raise HydraUnavailable(
                    f"hydra did not answer within {START_TIMEOUT:.0f} s: {server.output()[-3000:]}"
                )
            time.sleep(0.5)
    except BaseException:
        server.stop()
        raise


if __name__ == "__main__":
    if sys.argv[1:] != ["build"]:
        sys.exit("usage: python tests/support/hydra.py build")
    print(build())
