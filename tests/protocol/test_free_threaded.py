"""kafkawire on a free-threaded CPython, without the GIL: importing it leaves the GIL off,
and many threads decoding, encoding and building Arrow at once get what one thread gets
(tools/free_threaded_stress.py, run with ``PYTHON_GIL=0``).

The interpreter is KAFKAWIRE_FREETHREADED_PYTHON, or the one
tools/build_freethreaded_python.sh caches under KAFKAWIRE_CACHE_DIR.  Without one these
tests skip (KAFKAWIRE_REQUIRE_FREETHREADED=1 makes that a failure).  Its packages
(Cython, and pyarrow where PyPI has a wheel for it) live in a venv beside it in the cache;
the extensions are compiled for it from this tree, once per version of their sources.
tests/protocol/test_threads_first_use.py and tests/protocol/test_hostile_threads.py run the same kind of
checks on the interpreter running the suite.
"""

from __future__ import annotations

import glob
import hashlib
import json
import os
import shutil
import subprocess
from pathlib import Path

import pytest

pytestmark = [pytest.mark.freethreaded, pytest.mark.in_process]

ROOT = Path(__file__).resolve().parents[2]
CACHE = Path(os.environ.get("KAFKAWIRE_CACHE_DIR") or Path.home() / ".cache" / "kafkawire")
THREADS = 8
# what the extensions are compiled from: a change to any of these rebuilds them
# the extensions' sources (not what a build or an import leaves beside them: the
# generated .c files, the .so files, __pycache__)
BUILD_INPUTS = [
    "setup.py",
    *sorted(
        str(p.relative_to(ROOT))
        for p in (ROOT / "kafkawire" / "_fast").iterdir()
        if p.is_file() and (p.suffix in (".py", ".pyx", ".pxi", ".pxd", ".h") or p.name.endswith("_impl.c"))
    ),
]


def _interpreter() -> str | None:
    given = os.environ.get("KAFKAWIRE_FREETHREADED_PYTHON")
    if given:
        return given
    found = sorted(glob.glob(str(CACHE / "cpython-*t" / "bin" / "python3.*t")))
    return found[-1] if found else None


def _run(cmd: list, timeout: float = 900, **kwargs) -> subprocess.CompletedProcess:
    done = subprocess.run(cmd, capture_output=True, text=True, timeout=timeout, **kwargs)
    assert done.returncode == 0, f"{cmd}: {done.stdout[-2000:]}{done.stderr[-3000:]}"
    return done


@pytest.fixture(scope="module")
def free_threaded_python() -> str:
    """The free-threaded interpreter's venv python, with Cython (and pyarrow if PyPI has
    a wheel for it) installed."""
    base = _interpreter()
    if base is None or not os.access(base, os.X_OK):
        message = "no free-threaded CPython (tools/build_freethreaded_python.sh builds one)"
        if os.environ.get("KAFKAWIRE_REQUIRE_FREETHREADED") == "1":
            pytest.fail(message)
        pytest.skip(message)
    gil = _run([base, "-c", "import sys; print(sys._is_gil_enabled())"], env={"PYTHON_GIL": "0"})
    assert gil.stdout.strip() == "False", f"{base} is not a free-threaded build"
    tag = _run(
        [
            base,
            "-c",
            "import sys, sysconfig; print(sys.version.split()[0] + sysconfig.get_config_var('ABIFLAGS'))",
        ]
    )
    venv = CACHE / f"freethreaded-venv-{tag.stdout.strip()}"
    python = venv / "bin" / "python"
    if not python.exists():
        shutil.rmtree(venv, ignore_errors=True)
        partial = venv.with_name(venv.name + ".partial")
        shutil.rmtree(partial, ignore_errors=True)
        _run([base, "-m", "venv", str(partial)])
        pip = [str(partial / "bin" / "python"), "-m", "pip", "install", "-q", "--only-binary=:all:"]
        _run([*pip, "setuptools>=77", "Cython>=3.1,<3.4"])
        # optional: covered when PyPI has a wheel for this interpreter (never built here)
        for extra in ("pyarrow>=14", "cramjam>=2.8"):
            subprocess.run([*pip, extra], capture_output=True, timeout=900, check=False)
        partial.rename(venv)
    return str(python)


@pytest.fixture(scope="module")
def free_threaded_tree(free_threaded_python, tmp_path_factory) -> Path:
    """A copy of this tree's ``kafkawire`` with the extensions compiled for the
    free-threaded interpreter (kept in the cache per version of their sources)."""
    digest = hashlib.sha256(free_threaded_python.encode())
    for name in BUILD_INPUTS:
        digest.update(name.encode() + (ROOT / name).read_bytes())
    built = CACHE / "freethreaded-extensions" / digest.hexdigest()[:16]
    tree = tmp_path_factory.mktemp("freethreaded")
    shutil.copytree(
        ROOT / "kafkawire", tree / "kafkawire", ignore=shutil.ignore_patterns("*.so", "__pycache__")
    )
    if not built.is_dir():
        shutil.copy(ROOT / "setup.py", tree / "setup.py")
        env = {**os.environ, "KAFKAWIRE_REQUIRE_EXTENSIONS": "1"}
        _run([free_threaded_python, "setup.py", "-q", "build_ext", "--inplace"], cwd=tree, env=env)
        staging = built.with_name(built.name + ".partial")
        shutil.rmtree(staging, ignore_errors=True)
        staging.mkdir(parents=True)
        for so in (tree / "kafkawire" / "_fast").glob("*.so"):
            shutil.copy(so, staging / so.name)
        staging.rename(built)
    for so in built.glob("*.so"):
        shutil.copy(so, tree / "kafkawire" / "_fast" / so.name)
    return tree


def _env(tree: Path, **extra: str) -> dict:
    # the copy always has its extensions built: the outer leg's backend switch does not apply
    dropped = ("PYTHON_GIL", "PYTHONPATH", "KAFKAWIRE_NO_EXTENSIONS")
    env = {k: v for k, v in os.environ.items() if k not in dropped}
    env.update(PYTHONPATH=str(tree), **extra)
    return env


@pytest.mark.backend_independent
def test_importing_kafkawire_leaves_the_gil_off(free_threaded_python, free_threaded_tree):
    # No PYTHON_GIL: an extension that did not declare it runs without the GIL would turn
    # the GIL back on here, with a RuntimeWarning.
    probe = (
        "import sys, kafkawire, kafkawire.protocol.records, kafkawire.protocol.messages; "
        "print(kafkawire.BACKEND, sys._is_gil_enabled())"
    )
    # run in the copy: `-c` puts the working directory, a source tree, first on sys.path
    out = _run(
        [free_threaded_python, "-W", "error", "-c", probe],
        env=_env(free_threaded_tree),
        cwd=free_threaded_tree,
    )
    assert (out.stdout.split(), out.stderr) == (["cython", "False"], "")


def test_threads_without_the_gil_get_what_one_thread_gets(backend, free_threaded_python, free_threaded_tree):
    script = ROOT / "tools" / "free_threaded_stress.py"
    out = _run(
        [free_threaded_python, "-W", "error", str(script), backend, str(THREADS)],
        env=_env(free_threaded_tree, PYTHON_GIL="0", KAFKAWIRE_REQUIRE_EXTENSIONS="1"),
    )
    result = json.loads(out.stdout.strip().splitlines()[-1])
    assert result["backend"] == backend
    assert result["gil_enabled"] is False
    assert result["mismatch"] is None
    # the job list really ran: every definition, and decodes that succeed and that fail
    assert 0 < result["errors"] < result["jobs"]
    assert out.stderr == ""
    print(f"free-threaded stress: {result}")
