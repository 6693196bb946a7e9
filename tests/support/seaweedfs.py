"""SeaweedFS: a real S3-compatible server for the object-store tests and benchmarks.

The ``weed`` binary is built from SeaweedFS's Go module (pinned below) with the Go
toolchain, once, into ``$KAFKAWIRE_CACHE_DIR/seaweedfs/<version>/weed`` (default
``~/.cache/kafkawire``): ``python tests/support/seaweedfs.py build`` does it (``.ci/run``
calls it; the build takes minutes on a busy 2-core machine, a warm run none).

:func:`start_server` runs ``weed server`` as one process on 127.0.0.1 (master, volume
server, filer and S3 gateway, each on a free port) with one S3 identity, so a request
signed with other credentials, or unsigned, is refused.  Tests without the binary skip;
``KAFKAWIRE_REQUIRE_OBJECTSTORE=1`` (set by ``.ci/run``) makes that skip a failure.
"""

from __future__ import annotations

import json
import os
import shutil
import socket
import subprocess
import sys
import tempfile
import time
import urllib.error
import urllib.request
from dataclasses import dataclass, field
from pathlib import Path
from typing import Dict, List, Optional

MODULE = "github.com/seaweedfs/seaweedfs"
VERSION = "v0.0.0-20261109003541-7506e5f91cd6"
CACHE_DIR = Path(os.environ.get("KAFKAWIRE_CACHE_DIR", Path.home() / ".cache" / "kafkawire"))
WEED = CACHE_DIR / "seaweedfs" / VERSION / "weed"
#: the test identity's credentials (a throwaway server on loopback)
ACCESS_KEY = "kafkawire-test"
SECRET_KEY = "kafkawire-test-secret-key"
START_TIMEOUT = 90.0  # seconds until the S3 port answers, on a busy 2-core machine
STOP_TIMEOUT = 15.0


class SeaweedUnavailable(RuntimeError):
    """The ``weed`` binary is not built (or cannot be)."""


def go_executable() -> str:
    """The Go toolchain: ``go`` on PATH, else Go's default install folder."""
    found = shutil.which("go") or (
        "/usr/local/go/bin/go" if os.access("/usr/local/go/bin/go", os.X_OK) else None
    )
    if found is None:
        raise SeaweedUnavailable(
            "no Go toolchain (go on PATH or /usr/local/go/bin/go) to build SeaweedFS with"
        )
    return found


def build() -> Path:
    """Build ``weed`` into the cache if it is not there; its path."""
    if WEED.is_file():
        return WEED
    go = go_executable()
    out = subprocess.run(
        [go, "mod", "download", "-json", f"{MODULE}@{VERSION}"], capture_output=True, text=True
    )
    if out.returncode:
        raise SeaweedUnavailable(f"go mod download {MODULE}@{VERSION} failed: {out.stdout}{out.stderr}")
    source = json.loads(out.stdout)["Dir"]
    WEED.parent.mkdir(parents=True, exist_ok=True)
    partial = WEED.with_name(f"weed.partial-{os.getpid()}")
    # built inside the module's own folder: its go.mod has replace directives, which
    # `go install module@version` refuses
    done = subprocess.run(
        [go, "build", "-C", source, "-trimpath", "-ldflags=-s -w", "-o", str(partial), "./weed"],
        stdout=subprocess.PIPE,
        stderr=subprocess.STDOUT,
        text=True,
    )
    if done.returncode:
        raise SeaweedUnavailable(f"building SeaweedFS {VERSION} failed:\n{done.stdout[-5000:]}")
    os.replace(partial, WEED)
    return WEED


def require_seaweedfs() -> Path:
    """The ``weed`` binary; skips the calling test without it (fails it under
    ``KAFKAWIRE_REQUIRE_OBJECTSTORE=1``)."""
    import pytest

    if WEED.is_file():
        return WEED
    reason = f"SeaweedFS {VERSION} is not built at {WEED}: run `python tests/support/seaweedfs.py build`"
    if os.environ.get("KAFKAWIRE_REQUIRE_OBJECTSTORE") == "1":
        pytest.fail(reason + " (KAFKAWIRE_REQUIRE_OBJECTSTORE=1)", pytrace=False)
    pytest.skip(reason)


def _free_ports(n: int) -> List[int]:
    socks = []
    try:
        for _ in range(n):
            s = socket.socket()
            s.bind(("127.0.0.1", 0))
            socks.append(s)
        return [s.getsockname()[1] for s in socks]
    finally:
        for s in socks:
            s.close()


@dataclass
class SeaweedServer:
    """A running ``weed server`` with its S3 gateway at ``endpoint``."""

    process: "subprocess.Popen[bytes]"
    endpoint: str
    directory: Path
    log: Path
    access_key: str = ACCESS_KEY
    secret_key: str = SECRET_KEY
    ports: Dict[str, int] = field(default_factory=dict)

    @property
    def options(self) -> Dict[str, str]:
        """The ``kafka-log`` options that reach this server."""
        return {"endpoint": self.endpoint, "accessKey": self.access_key, "secretKey": self.secret_key}

    def filesystem(self, **extra: object):  # -> pyarrow.fs.S3FileSystem
        """A pyarrow S3 client of this server, with the test identity."""
        from pyarrow.fs import S3FileSystem

        return S3FileSystem(
            access_key=self.access_key,
            secret_key=self.secret_key,
            endpoint_override=self.endpoint.partition("://")[2],
            scheme="http",
            allow_bucket_creation=True,
            allow_bucket_deletion=True,
            **extra,
        )

    def upload(self, local_dir: str, bucket: str, prefix: str = "") -> str:
        """Copy ``local_dir`` under ``s3://bucket/prefix`` (the bucket made if need
        be); the ``s3://`` URI of the copy."""
        from pyarrow.fs import FileType, LocalFileSystem, copy_files

        fs = self.filesystem()
        if fs.get_file_info(bucket).type == FileType.NotFound:
            fs.create_dir(bucket)
        dest = f"{bucket}/{prefix}".rstrip("/")
        copy_files(
            os.path.abspath(local_dir), dest, source_filesystem=LocalFileSystem(), destination_filesystem=fs
        )
        # a store out of volumes can take a PUT and keep nothing: check every size
        root = os.path.abspath(local_dir)
        for folder, _, files in os.walk(root):
            for name in files:
                path = os.path.join(folder, name)
                key = f"{dest}/{os.path.relpath(path, root)}"
                stored = fs.get_file_info(key).size
                if stored != os.path.getsize(path):
                    raise SeaweedUnavailable(
                        f"s3://{key} holds {stored} bytes, not {os.path.getsize(path)}: {self.output()[-2000:]}"
                    )
        return f"s3://{dest}"

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


def _s3_config(path: Path) -> None:
    path.write_text(
        json.dumps(
            {
                "identities": [
                    {
                        "name": "kafkawire",
                        "credentials": [{"accessKey": ACCESS_KEY, "secretKey": SECRET_KEY}],
                        "actions": ["Admin", "Read", "List", "Tagging", "Write"],
                    }
                ]
            }
        )
    )


def start_server(directory: Optional[Path] = None) -> SeaweedServer:
    """Start ``weed server`` with S3 on 127.0.0.1 (free ports), data in ``directory``
    (a new temporary folder by default); returns once the S3 gateway answers."""
    weed = WEED if WEED.is_file() else None
    if weed is None:
        raise SeaweedUnavailable(f"SeaweedFS is not built at {WEED}")
    directory = Path(directory or tempfile.mkdtemp(prefix="kafkawire-seaweedfs-"))
    (directory / "data").mkdir(parents=True, exist_ok=True)
    config = directory / "s3.json"
    _s3_config(config)
    names = ["master", "master.grpc", "volume", "volume.grpc", "filer", "filer.grpc", "s3", "s3.grpc"]
    ports = dict(zip(names, _free_ports(len(names))))
    args = [
        str(weed),
        "server",
        "-ip=127.0.0.1",
        "-ip.bind=127.0.0.1",
        f"-dir={directory / 'data'}",
        f"-master.port={ports['master']}",
        f"-master.port.grpc={ports['master.grpc']}",
        "-master.volumeSizeLimitMB=64",
        "-master.telemetry=false",
        f"-volume.port={ports['volume']}",
        f"-volume.port.grpc={ports['volume.grpc']}",
        "-volume.max=128",  # each bucket grows 7 volumes at a time; 16 ran out
        "-filer",
        f"-filer.port={ports['filer']}",
        f"-filer.port.grpc={ports['filer.grpc']}",
        "-s3",
        f"-s3.port={ports['s3']}",
        f"-s3.port.grpc={ports['s3.grpc']}",
        "-s3.port.iceberg=0",
        "-s3.port.lance=0",
        f"-s3.config={config}",
    ]
    log = directory / "weed.log"
    with open(log, "wb") as out:
        proc = subprocess.Popen(args, stdout=out, stderr=subprocess.STDOUT, stdin=subprocess.DEVNULL)
    server = SeaweedServer(proc, f"http://127.0.0.1:{ports['s3']}", directory, log, ports=ports)
    deadline = time.monotonic() + START_TIMEOUT
    try:
        while True:
            if proc.poll() is not None:
                raise SeaweedUnavailable(
                    f"weed server exited with {proc.returncode}: {server.output()[-3000:]}"
                )
            if _ready(server):
                return server
            if time.monotonic() > deadline:
                raise SeaweedUnavailable(
                    f"weed server's S3 gateway did not answer within {START_TIMEOUT:.0f} s: {server.output()[-3000:]}"
                )
            time.sleep(0.5)
    except BaseException:
        server.stop()
        raise


def _ready(server: SeaweedServer) -> bool:
    """True once a signed request goes through: the gateway is up and the filer and
    volume server behind it take writes."""
    try:
        urllib.request.urlopen(server.endpoint, timeout=2).close()
    except urllib.error.HTTPError:
        pass  # an S3 error answer (anonymous access refused): the gateway is listening
    except OSError:
        return False
    try:
        fs = server.filesystem()
        fs.create_dir("kafkawire-ready")
        with fs.open_output_stream("kafkawire-ready/probe") as f:
            f.write(b"ok")
        return True
    except OSError:
        return False


if __name__ == "__main__":
    if sys.argv[1:] != ["build"]:
        sys.exit("usage: python tests/support/seaweedfs.py build")
    print(build())
