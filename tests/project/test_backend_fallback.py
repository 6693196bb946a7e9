"""No silent fallback: a kafkawire whose compiled extensions cannot load says so, once, on
stderr, naming the cause and the fix; KAFKAWIRE_NO_EXTENSIONS=1 asks for the pure backend
quietly; KAFKAWIRE_REQUIRE_EXTENSIONS=1 makes the failure an error.

Each case imports a copy of the package in a child Python, its extensions removed or
broken, the way a new user meets it.
"""

from __future__ import annotations

import importlib.machinery
import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

import kafkawire
from kafkawire import _backend

pytestmark = pytest.mark.backend_independent

PACKAGE = os.path.dirname(os.path.abspath(kafkawire.__file__))
SUFFIX = importlib.machinery.EXTENSION_SUFFIXES[0]
CHECKOUT_FAST = Path(__file__).resolve().parents[2] / "kafkawire" / "_fast"
PROBE = "import kafkawire; print(kafkawire.BACKEND)"


def _copy(root, *, sources=True):
    """A copy of the package under ``root`` without compiled extensions: a checkout (the
    Cython sources and setup.py beside the package) unless ``sources`` is false (an
    installed package)."""
    skip = ["__pycache__", "*.so", "*.pyd", "*.c", "*.html"]
    if not sources:
        skip += ["*.pyx", "*.pxd", "*.pxi"]
    shutil.copytree(PACKAGE, root / "kafkawire", ignore=shutil.ignore_patterns(*skip))
    fast = root / "kafkawire" / "_fast"
    if sources:
        if not list(fast.glob("*.pyx")):  # an installed kafkawire: take the checkout's
            for src in [*CHECKOUT_FAST.glob("*.pyx"), *CHECKOUT_FAST.glob("*.pxi")]:
                shutil.copy2(src, fast / src.name)
        shutil.copy2(CHECKOUT_FAST.parent.parent / "setup.py", root / "setup.py")
    return fast


def _run(root, **env):
    base = {
        k: v
        for k, v in os.environ.items()
        if k not in ("KAFKAWIRE_NO_EXTENSIONS", "KAFKAWIRE_REQUIRE_EXTENSIONS", "PYTHONWARNINGS")
    }
    base["PYTHONPATH"] = str(root)
    base.update(env)
    return subprocess.run(
        [sys.executable, "-c", PROBE], cwd=root, env=base, capture_output=True, text=True, timeout=120
    )


def _warnings(stderr):
    return [line for line in stderr.splitlines() if "RuntimeWarning" in line]


def test_a_source_tree_without_built_extensions_says_so_once_and_how_to_build(tmp_path):
    _copy(tmp_path)
    out = _run(tmp_path)
    assert out.returncode == 0, out.stderr
    assert out.stdout.strip() == "python"
    (line,) = _warnings(out.stderr)
    assert "pure-Python backend" in line
    assert f"source tree {tmp_path}" in line
    assert "pip install -e ." in line and "python setup.py build_ext --inplace" in line
    assert "KAFKAWIRE_NO_EXTENSIONS=1" in line


def test_an_installed_package_missing_its_shared_objects_names_them(tmp_path):
    _copy(tmp_path, sources=False)
    out = _run(tmp_path)
    assert out.stdout.strip() == "python"
    (line,) = _warnings(out.stderr)
    assert "has no compiled extension for primitives, crc, codec, records" in line
    assert "No module named 'kafkawire._fast." in line  # the import error's own text
    assert "pip install --no-binary kafkawire kafkawire" in line


def test_an_installed_package_is_never_told_to_build_in_place(tmp_path):
    # a wheel that carries the .pyx sources into site-packages (as the first builds did):
    # sources without a setup.py beside them are still an installed package, not a checkout
    fast = _copy(tmp_path, sources=False)
    for src in CHECKOUT_FAST.glob("*.pyx"):
        shutil.copy2(src, fast / src.name)
    out = _run(tmp_path)
    (line,) = _warnings(out.stderr)
    assert "the installed package at" in line and "pip install -e" not in line
    for name in _backend.MODULES:
        (fast / f"{name}{SUFFIX}").write_bytes(b"not a shared object")
    (line,) = _warnings(_run(tmp_path).stderr)
    assert "failed to import" in line and "reinstall kafkawire with a wheel" in line
    assert "pip install -e" not in line and "build_ext" not in line


def test_pypy_runs_the_pure_backend_without_a_word(tmp_path):
    # PyPy 3.11 is not packaged here: the child reports another implementation's name,
    # the one fact the choice reads, before importing kafkawire
    _copy(tmp_path)
    pretend = (
        "import sys, types; "
        "sys.implementation = types.SimpleNamespace(**{**vars(sys.implementation), 'name': 'pypy'}); "
    )
    base = dict(os.environ, PYTHONPATH=str(tmp_path))
    for key in ("KAFKAWIRE_NO_EXTENSIONS", "KAFKAWIRE_REQUIRE_EXTENSIONS", "PYTHONWARNINGS"):
        base.pop(key, None)
    out = subprocess.run(
        [sys.executable, "-c", pretend + PROBE],
        cwd=tmp_path,
        env=base,
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert (out.returncode, out.stdout.strip(), out.stderr) == (0, "python", "")
    base["KAFKAWIRE_REQUIRE_EXTENSIONS"] = "1"
    out = subprocess.run(
        [sys.executable, "-c", pretend + PROBE],
        cwd=tmp_path,
        env=base,
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert out.returncode == 1 and "runs on CPython only, not pypy" in out.stderr


def test_an_extension_that_fails_to_import_gives_the_error_text(tmp_path):
    fast = _copy(tmp_path)
    for name in _backend.MODULES:
        (fast / f"{name}{SUFFIX}").write_bytes(b"not a shared object")
    out = _run(tmp_path)
    assert out.stdout.strip() == "python"
    (line,) = _warnings(out.stderr)
    assert "are there but failed to import (ImportError:" in line
    assert f"primitives{SUFFIX}" in line  # the loader's message names the file
    assert "build_ext --inplace" in line


def test_asking_for_the_pure_backend_is_quiet(tmp_path):
    _copy(tmp_path)
    out = _run(tmp_path, KAFKAWIRE_NO_EXTENSIONS="1")
    assert (out.returncode, out.stdout.strip(), out.stderr) == (0, "python", "")


def test_requiring_the_extensions_makes_the_failure_an_error(tmp_path):
    _copy(tmp_path)
    out = _run(tmp_path, KAFKAWIRE_REQUIRE_EXTENSIONS="1")
    assert out.returncode == 1 and out.stdout == ""
    assert "ImportError: KAFKAWIRE_REQUIRE_EXTENSIONS=1 but the Cython backend did not import" in out.stderr
    assert "python setup.py build_ext --inplace" in out.stderr


def test_the_compiled_backend_loads_without_a_word():
    if not kafkawire._backend.fast_available():
        pytest.skip("the compiled extensions are not built here")
    out = subprocess.run(
        [sys.executable, "-c", PROBE],
        capture_output=True,
        text=True,
        timeout=120,
        env=dict(os.environ, PYTHONPATH=os.path.dirname(PACKAGE)),
    )
    assert (out.stdout.strip(), out.stderr) == ("cython", "")


def test_a_schema_decoder_extension_missing_or_broken_is_found_out(tmp_path):
    # the schema decoders' extensions load when first asked for: one that is not there
    # still makes the choice fall back at import; one that is there but broken fails
    # when asked for, saying why
    if not _backend.fast_available():
        pytest.skip("the compiled extensions are not built here")
    fast = _copy(tmp_path)
    for name in _backend.MODULES:
        shutil.copy2(Path(PACKAGE) / "_fast" / f"{name}{SUFFIX}", fast / f"{name}{SUFFIX}")
    (fast / f"avro{SUFFIX}").unlink()
    out = _run(tmp_path)
    assert out.stdout.strip() == "python"
    (line,) = _warnings(out.stderr)
    assert f"no avro extension for {SUFFIX}" in line and "build_ext --inplace" in line
    (fast / f"avro{SUFFIX}").write_bytes(b"not a shared object")
    base = dict(os.environ, PYTHONPATH=str(tmp_path))
    for key in ("KAFKAWIRE_NO_EXTENSIONS", "KAFKAWIRE_REQUIRE_EXTENSIONS", "PYTHONWARNINGS"):
        base.pop(key, None)
    out = subprocess.run(
        [sys.executable, "-c", PROBE + "; import kafkawire.avro.decode"],
        cwd=tmp_path,
        env=base,
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert out.returncode == 1 and out.stdout.strip() == "cython" and not _warnings(out.stderr)
    assert "ImportError: the Cython backend's avro module did not import" in out.stderr
    assert f"avro{SUFFIX}" in out.stderr and "build_ext --inplace" in out.stderr
