"""The source distribution carries every build input, its wheels carry no sources, a
machine without a C compiler still gets a working install, and the version and the
metadata each have one source.

The sdist is built the way a release is (``python -m build --sdist``, here without build
isolation so no network is needed) from the files git tracks (and new files it does not
ignore), into a temporary directory; wheels are built from that sdist with pip.
"""

from __future__ import annotations

import os
import re
import shutil
import subprocess
import sys
import tarfile
import zipfile
from pathlib import Path

import pytest

import kafkawire

pytestmark = [pytest.mark.backend_independent, pytest.mark.timeout(300)]

ROOT = Path(__file__).resolve().parents[2]
# What a build reads: Python and Cython sources, C helpers, stubs, schema data, markers.
BUILD_INPUT = re.compile(r"\.(py|pyx|pxd|pxi|pyi|h|json)$|(^|/)py\.typed$|_impl\.c$")
DOCUMENTS = {"README.md", "CHANGELOG.md", "LICENSE", "pyproject.toml", "setup.py", "MANIFEST.in"}
# What only the sdist carries: the Cython sources and the C they and the helpers are.
SOURCES = re.compile(r"\.(pyx|pxd|pxi|c|h)$")


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
    return tracked, {n.split("/", 1)[1] for n in names if "/" in n}, pkg_info, path


def _wheel_from(sdist_path, outdir, **env):
    """A wheel built by pip from the sdist alone (no build isolation), and pip's log."""
    base = {k: v for k, v in os.environ.items() if not k.startswith("KAFKAWIRE_")}
    out = subprocess.run(
        [sys.executable, "-m", "pip", "wheel", "-v", "--no-deps", "--no-build-isolation"]
        + ["--wheel-dir", str(outdir), str(sdist_path)],
        capture_output=True,
        text=True,
        timeout=240,
        env={**base, **env},
        cwd=outdir.parent,
    )
    assert out.returncode == 0, out.stdout[-3000:] + out.stderr
    (wheel,) = outdir.glob("kafkawire-*.whl")
    return wheel, out.stdout + out.stderr


def _import_in_a_child(wheel, root):
    """Install ``wheel`` into a directory of its own and import it from there, elsewhere
    than the checkout, building a message class (from the package data): the backend that
    runs and what it printed on stderr."""
    target = root / "site"
    subprocess.run(
        [sys.executable, "-m", "pip", "install", "-q", "--no-deps", "--target", str(target), str(wheel)],
        check=True,
        timeout=120,
    )
    env = {k: v for k, v in os.environ.items() if not k.startswith("KAFKAWIRE_") and k != "PYTHONWARNINGS"}
    env["PYTHONPATH"] = str(target)
    out = subprocess.run(
        # a message class too: it is built from the protocol's JSON, package data of the wheel
        [
            sys.executable,
            "-c",
            "import kafkawire\nfrom kafkawire.protocol import messages\n"
            "messages.CLASSES['MetadataRequest'](topics=None).encode(12)\n"
            "print(kafkawire.BACKEND, kafkawire.__file__)",
        ],
        capture_output=True,
        text=True,
        timeout=120,
        env=env,
        cwd=root,
    )
    assert out.returncode == 0, out.stderr
    return out.stdout.split(), out.stderr


def test_the_sdist_holds_every_build_input(sdist):
    tracked, names, _, _ = sdist
    wanted = {p for p in tracked if p.startswith("kafkawire/") and BUILD_INPUT.search(p)}
    wanted |= DOCUMENTS
    wanted |= {p for p in tracked if re.fullmatch(r"docs/.+\.md", p)}
    assert {"docs/testing.md", "docs/spark/kafka-cluster.md"} <= wanted  # the pattern sees them
    assert any(p.endswith(".pyx") for p in wanted)  # the pattern does see the sources
    missing = sorted(wanted - names)
    assert not missing, f"build inputs missing from the sdist: {missing}"


def test_the_sdist_ships_sources_not_generated_or_compiled_files(sdist):
    _, names, _, _ = sdist
    generated = [
        n
        for n in names
        if n.startswith("kafkawire/_fast/") and n.endswith(".c") and not n.endswith("_impl.c")
    ]
    compiled = [n for n in names if n.endswith((".so", ".pyd", ".pyc"))]
    assert (generated, compiled) == ([], [])


def test_the_version_has_one_source(sdist):
    _, _, pkg_info, _ = sdist
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


def test_without_a_c_compiler_the_sdist_installs_the_pure_backend(sdist, tmp_path):
    # a compiler that is not there, as on a machine without one
    wheel, log = _wheel_from(sdist[3], tmp_path / "wheels", CC="kafkawire-no-such-cc")
    (warning,) = [line for line in log.splitlines() if "WARNING: kafkawire's Cython extensions" in line]
    assert "runs the pure-Python backend" in warning and "kafkawire-no-such-cc" in log
    names = zipfile.ZipFile(wheel).namelist()
    assert not [n for n in names if n.endswith((".so", ".pyd")) or SOURCES.search(n)], names
    (backend, where), stderr = _import_in_a_child(wheel, tmp_path)
    assert backend == "python" and where.startswith(str(tmp_path / "site"))
    (line,) = [line for line in stderr.splitlines() if "RuntimeWarning" in line]
    assert "has no compiled extension" in line and "pip install -e" not in line


def test_requiring_the_extensions_makes_a_failed_build_fail(sdist, tmp_path):
    base = {k: v for k, v in os.environ.items() if not k.startswith("KAFKAWIRE_")}
    out = subprocess.run(
        [sys.executable, "-m", "pip", "wheel", "--no-deps", "--no-build-isolation"]
        + ["--wheel-dir", str(tmp_path), str(sdist[3])],
        capture_output=True,
        text=True,
        timeout=240,
        env={**base, "CC": "kafkawire-no-such-cc", "KAFKAWIRE_REQUIRE_EXTENSIONS": "1"},
    )
    assert out.returncode != 0 and not list(tmp_path.glob("*.whl"))
    assert "KAFKAWIRE_REQUIRE_EXTENSIONS=1 but the extensions cannot be built" in out.stdout + out.stderr


def test_the_pure_wheel_is_for_any_python_and_carries_the_metadata(sdist, tmp_path):
    wheel, _ = _wheel_from(sdist[3], tmp_path / "wheels", KAFKAWIRE_NO_EXTENSIONS="1")
    assert wheel.name.endswith("-py3-none-any.whl")
    with zipfile.ZipFile(wheel) as whl:
        names = whl.namelist()
        (metadata,) = [n for n in names if n.endswith(".dist-info/METADATA")]
        meta = whl.read(metadata).decode()
    assert not [n for n in names if SOURCES.search(n)]
    assert any(n.endswith(".dist-info/licenses/LICENSE") for n in names)
    assert "\nLicense-Expression: Apache-2.0\n" in meta and "\nLicense-File: LICENSE\n" in meta
    assert "\nRequires-Python: >=3.11\n" in meta
    # one classifier per CPython from requires-python's to the newest the wheels are built for
    versions = re.findall(r"Classifier: Programming Language :: Python :: 3\.(\d+)\n", meta)
    assert [int(v) for v in versions] == list(range(11, 16))
    (backend, _), stderr = _import_in_a_child(wheel, tmp_path)
    assert backend == "python" and "RuntimeWarning" in stderr  # announced: nothing was compiled


def test_an_editable_install_is_seen_by_mypy_from_another_directory(tmp_path):
    pytest.importorskip("mypy")
    import sysconfig
    import venv

    src = tmp_path / "checkout"
    for rel in _tracked():
        (src / rel).parent.mkdir(parents=True, exist_ok=True)
        shutil.copy2(ROOT / rel, src / rel)
    env_dir = tmp_path / "venv"
    venv.create(env_dir, with_pip=False)
    python = env_dir / ("Scripts/python.exe" if os.name == "nt" else "bin/python")
    site = subprocess.run(
        [str(python), "-c", "import sysconfig; print(sysconfig.get_paths()['purelib'])"],
        capture_output=True,
        text=True,
        check=True,
        timeout=60,
    ).stdout.strip()
    # pip, setuptools and Cython from this environment, for a build without isolation
    Path(site, "test-tools.pth").write_text(sysconfig.get_paths()["purelib"] + "\n")
    env = {k: v for k, v in os.environ.items() if k not in ("PYTHONPATH", "KAFKAWIRE_REQUIRE_EXTENSIONS")}
    env["KAFKAWIRE_NO_EXTENSIONS"] = "1"  # the type checker reads sources only
    out = subprocess.run(
        [str(python), "-m", "pip", "install", "-q", "--no-deps", "--no-build-isolation", "-e", str(src)],
        capture_output=True,
        text=True,
        timeout=240,
        env=env,
    )
    assert out.returncode == 0, out.stdout[-3000:] + out.stderr
    user = tmp_path / "elsewhere"
    user.mkdir()
    (user / "use.py").write_text(
        "from kafkawire.protocol import records\n\nreveal_type(records.encode_batch)\n"
    )
    out = subprocess.run(
        [sys.executable, "-m", "mypy", "--no-incremental", "--python-executable", str(python), "use.py"],
        cwd=user,
        capture_output=True,
        text=True,
        timeout=240,
        env=env,
    )
    assert out.returncode == 0 and "-> bytes" in out.stdout, out.stdout + out.stderr
