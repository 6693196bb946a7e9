"""The one place that picks the implementation backend.

kafkawire has two backends with the same module names and the same behaviour:
``kafkawire._fast`` (Cython, compiled to C) and ``kafkawire._pure`` (pure Python).
The Cython backend is used when its extensions import; ``KAFKAWIRE_NO_EXTENSIONS=1``
selects the pure one.  ``KAFKAWIRE_REQUIRE_EXTENSIONS=1`` turns a failed import of the
extensions into an error instead of a fallback, so CI cannot pass on the wrong backend.

Public modules bind their functions once, at import, through :func:`bind`; the test
suite calls :func:`use` to run the same tests on each backend in one process.
"""
from __future__ import annotations

import importlib
import os
from contextlib import contextmanager
from types import ModuleType
from typing import Dict, Iterator, List, Optional, Tuple

# Modules every backend provides.
MODULES = ("primitives", "crc", "codec", "records")

_import_error: Optional[BaseException] = None


def _load(package: str) -> Dict[str, ModuleType]:
    return {name: importlib.import_module(f"kafkawire.{package}.{name}") for name in MODULES}


def fast_available() -> bool:
    """True when the compiled Cython backend imports on this machine."""
    return _fast is not None


def import_error() -> Optional[BaseException]:
    """Why the Cython backend did not import (None when it did)."""
    return _import_error


_pure = _load("_pure")
_fast: Optional[Dict[str, ModuleType]] = None
if os.environ.get("KAFKAWIRE_NO_EXTENSIONS") != "1":
    try:
        _fast = _load("_fast")
    except ImportError as exc:  # no compiled extensions for this platform
        _import_error = exc
        if os.environ.get("KAFKAWIRE_REQUIRE_EXTENSIONS") == "1":
            raise ImportError(
                "KAFKAWIRE_REQUIRE_EXTENSIONS=1 but the Cython backend did not import"
            ) from exc

BACKEND = "cython" if _fast is not None else "python"

# (module globals, backend module name, names) of every public binding.
_bindings: List[Tuple[dict, str, Tuple[str, ...]]] = []


def implementation(module: str, backend: Optional[str] = None) -> ModuleType:
    """The implementation module ``module`` of ``backend`` (default: the active one)."""
    backend = backend or BACKEND
    if backend == "cython":
        if _fast is None:
            raise ImportError(f"the Cython backend is not available: {_import_error}")
        return _fast[module]
    if backend == "python":
        return _pure[module]
    raise ValueError(f"unknown backend {backend!r}; expected 'cython' or 'python'")


def bind(namespace: dict, module: str, names: Tuple[str, ...]) -> None:
    """Copy ``names`` from the active backend's ``module`` into a public namespace."""
    _bindings.append((namespace, module, names))
    impl = implementation(module)
    for name in names:
        namespace[name] = getattr(impl, name)


def _activate(backend: str) -> None:
    global BACKEND
    for namespace, module, names in _bindings:
        impl = implementation(module, backend)
        for name in names:
            namespace[name] = getattr(impl, name)
    BACKEND = backend
    import kafkawire

    kafkawire.BACKEND = backend


@contextmanager
def use(backend: str) -> Iterator[None]:
    """Run the enclosed code on ``backend`` ("cython" or "python"); for tests and benchmarks."""
    previous = BACKEND
    implementation(MODULES[0], backend)  # fail early if it is not available
    _activate(backend)
    try:
        yield
    finally:
        _activate(previous)
