"""The source distribution carries every build input, and the version has one source.

The sdist is built the way a release is (``python -m build --sdist``, here without build
isolation so no network is needed) from the files git tracks (and new files it does not ignore), into a temporary directory.
"""

from __future__ import annotations

import re
import shutil
import subprocess
import sys
import tarfile
from pathlib import Path

import pytest

import kafkawire

pytestmark = [pytest.mark.backend_independent, pytest.mark.timeout(300)]

ROOT = Path(__file__).resolve().parent.parent
# What a build reads: Python and Cython sources, C helpers, stubs, schema data, markers.
BUILD_INPUT = re.compile(r"\.(py|pyx|pxd|pxi|pyi|h|json)$|(^|/)py\.typed$|_impl\.c$")
DOCUMENTS = {"README.md", "CHANGELOG.md", "pyproject.toml", "setup.py", "MANIFEST.in"}


def _tracked():
    if shutil.which("git") is None or not (ROOT / ".git").exists():
        pytest.skip("needs a git checkout of kafkawire (the tracked files are the inputs)")
    out = subprocess.run(
        ["git", "ls-files", "-z", "--cached", "--others", "--exclude-standard"],
        cwd=ROOT,
        capture_output=True,
        check=True,
        timeout=60,
    ).stdout.decode()
    return [p for p in out.split("\0") if p and (ROOT / p).exists()]


@pytest.fixture(scope="module")
def sdist(tmp_path_factory):
    pytest.importorskip("build")
    tracked = _tracked()
    src = tmp_path_factory.mktemp("checkout")
    for rel in tracked:
        (src / rel).parent.mkdir(parents=True, exist_ok=True)
        shutil.copy2(ROOT / rel, src / rel)
    out = subprocess.run(
        [
            sys.executable,
            "-m",
            "build",
            "--sdist",
            "--no-isolation",
            "--skip-dependency-check",
            "--outdir",
            str(src / "dist"),
            str(src),
        ],
        capture_output=True,
        text=True,
        timeout=240,
    )
    assert out.returncode == 0, out.stdout + out.stderr
    (path,) = (src / "dist").glob("kafkawire-*.tar.gz")
    with tarfile.open(path) as tar:
        names = tar.getnames()
        top = names[0].split("/")[0]
        pkg_info = tar.extractfile(f"{top}/PKG-INFO").read().decode()
    return tracked, {n.split("/", 1)[1] for n in names if "/" in n}, pkg_info


def test_the_sdist_holds_every_build_input(sdist):
    tracked, names, _ = sdist
    wanted = {p for p in tracked if p.startswith("kafkawire/") and BUILD_INPUT.search(p)}
    wanted |= DOCUMENTS
    assert any(p.endswith(".pyx") for p in wanted)  # the pattern does see the sources
    missing = sorted(wanted - names)
    assert not missing, f"build inputs missing from the sdist: {missing}"


def test_the_sdist_ships_sources_not_generated_or_compiled_files(sdist):
    _, names, _ = sdist
    generated = [
        n
        for n in names
        if n.startswith("kafkawire/_fast/") and n.endswith(".c") and not n.endswith("_impl.c")
    ]
    compiled = [n for n in names if n.endswith((".so", ".pyd", ".pyc"))]
    assert (generated, compiled) == ([], [])


def test_the_version_has_one_source(sdist):
    _, _, pkg_info = sdist
    assert f"\nVersion: {kafkawire.__version__}\n" in pkg_info
    pyproject = (ROOT / "pyproject.toml").read_text()
    assert re.search(r'(?m)^dynamic = \["version"\]', pyproject)
    assert not re.search(r'(?m)^version\s*=\s*"', pyproject), "a second version in pyproject.toml"
    assert f"## {kafkawire.__version__}" in (ROOT / "CHANGELOG.md").read_text()


def test_cibuildwheel_sets_its_variables_for_every_platform():
    tomllib = pytest.importorskip("tomllib")
    config = tomllib.loads((ROOT / "pyproject.toml").read_text())["tool"]["cibuildwheel"]
    assert config["environment"]["KAFKAWIRE_REQUIRE_EXTENSIONS"] == "1"
    # `VAR=value command` and single quotes mean nothing to Windows' cmd.exe.
    assert not re.match(r"\s*\w+=", config["test-command"]) and "'" not in config["test-command"]
    for platform in ("linux", "macos", "windows"):
        assert "environment" not in config.get(platform, {}), f"{platform} overrides it"
