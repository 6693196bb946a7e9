"""The one place that picks the implementation backend.

kafkawire has two backends with the same module names and the same behaviour:
``kafkawire._fast`` (Cython, compiled to C) and ``kafkawire._pure`` (pure Python).
The Cython backend is used when its extensions import; ``KAFKAWIRE_NO_EXTENSIONS=1``
selects the pure one, and so does any Python but CPython (PyPy, whose emulation of
CPython's C API cannot run the extension types).  When the extensions fail to import
otherwise, kafkawire runs the pure backend and says so once, with a ``RuntimeWarning`` naming the cause and the fix
(the pure backend is several times slower, which nobody should find out by accident).
``KAFKAWIRE_REQUIRE_EXTENSIONS=1`` turns a failed import of the extensions into an
error instead of a fallback, so CI cannot pass on the wrong backend.

Public modules bind their functions once, at import, through :func:`bind`; the test
suite calls :func:`use` to run the same tests on each backend in one process.
"""

from __future__ import annotations

import importlib
import importlib.machinery
import os
import sys
import threading
import warnings
from contextlib import contextmanager
from types import ModuleType
from typing import TYPE_CHECKING, Any, Dict, Iterator, List, Literal, Optional, Tuple, overload

if TYPE_CHECKING:
    from kafkawire._backend_protocol import (
        AvroBackend,
        CodecBackend,
        CrcBackend,
        PrimitivesBackend,
        ProtobufBackend,
        RecordsBackend,
    )

# Modules every backend provides.
MODULES = ("primitives", "crc", "codec", "records", "avro", "protobuf")

_import_error: Optional[BaseException] = None


def _load(package: str) -> Dict[str, ModuleType]:
    return {name: importlib.import_module(f"kafkawire.{package}.{name}") for name in MODULES}


def fast_available() -> bool:
    """True when the compiled Cython backend imports on this machine."""
    return _fast is not None


def import_error() -> Optional[BaseException]:
    """Why the Cython backend did not import (None when it did)."""
    return _import_error


def _is_checkout(fast_dir: str) -> bool:
    """True when the package is imported from a source checkout (its build files beside
    it), where building in place is the fix; never for an installed copy in site-packages."""
    root = os.path.dirname(os.path.dirname(fast_dir))
    import glob  # only to explain a failed import

    return bool(glob.glob(os.path.join(fast_dir, "*.pyx"))) and os.path.exists(os.path.join(root, "setup.py"))


def fallback_reason(exc: BaseException) -> str:
    """Why the compiled extensions did not import and how to fix it, in words."""
    fast_dir = os.path.join(os.path.dirname(os.path.abspath(__file__)), "_fast")
    suffixes = importlib.machinery.EXTENSION_SUFFIXES
    missing = [
        name
        for name in MODULES
        if not any(os.path.exists(os.path.join(fast_dir, name + sfx)) for sfx in suffixes)
    ]
    if not missing:
        why = (
            f"its compiled extensions in {fast_dir} are there but failed to import "
            f"({type(exc).__name__}: {exc})"
        )
        fix = (
            "rebuild them for this Python: `python setup.py build_ext --inplace` in the source checkout"
            if _is_checkout(fast_dir)
            else "reinstall kafkawire with a wheel built for this platform and Python"
        )
    elif _is_checkout(fast_dir):
        import glob

        others = sorted(
            {
                os.path.basename(p)
                for p in glob.glob(os.path.join(fast_dir, "*.so"))
                + glob.glob(os.path.join(fast_dir, "*.pyd"))
            }
        )
        why = (
            f"kafkawire was imported from the source tree "
            f"{os.path.dirname(os.path.dirname(fast_dir))}, "
            f"whose Cython extensions are not built for this Python "
            f"(no {', '.join(missing)} extension for {suffixes[0]}"
            + (f"; found {', '.join(others)}" if others else "")
            + ")"
        )
        fix = (
            "build them in place: `pip install -e .` or `python setup.py build_ext "
            "--inplace` in that directory (or run Python from another directory to "
            "import an installed kafkawire)"
        )
    else:
        why = (
            f"the installed package at {os.path.dirname(fast_dir)} has no compiled "
            f"extension for {', '.join(missing)} ({type(exc).__name__}: {exc})"
        )
        fix = (
            "install a wheel built for this platform and Python, or build from the "
            "source distribution (needs a C compiler): `pip install --no-binary "
            "kafkawire kafkawire`"
        )
    return f"{why}. To fix it, {fix}"


_pure: Optional[Dict[str, ModuleType]] = None  # loaded when first used (see _pure_modules)
_fast: Optional[Dict[str, ModuleType]] = None
if sys.implementation.name != "cpython":
    # the extensions are built for CPython's C API only (setup.py builds none elsewhere)
    _import_error = ImportError(f"the Cython backend runs on CPython only, not {sys.implementation.name}")
    if os.environ.get("KAFKAWIRE_REQUIRE_EXTENSIONS") == "1":
        raise ImportError(f"KAFKAWIRE_REQUIRE_EXTENSIONS=1 but {_import_error}")
elif os.environ.get("KAFKAWIRE_NO_EXTENSIONS") != "1":
    try:
        _fast = _load("_fast")
    except ImportError as exc:  # no compiled extensions for this platform
        _import_error = exc
        if os.environ.get("KAFKAWIRE_REQUIRE_EXTENSIONS") == "1":
            raise ImportError(
                "KAFKAWIRE_REQUIRE_EXTENSIONS=1 but the Cython backend did not import: "
                + fallback_reason(exc)
            ) from exc
        # This module runs once per process, so the warning is given once.
        warnings.warn(  # noqa: B028
            f"kafkawire is running its pure-Python backend, several times slower: "
            f"{fallback_reason(exc)}. Set KAFKAWIRE_NO_EXTENSIONS=1 to choose the "
            f"pure backend without this warning.",
            RuntimeWarning,
        )

BACKEND = "cython" if _fast is not None else "python"


def _pure_modules() -> Dict[str, ModuleType]:
    """The pure backend's modules, imported when first needed: where the Cython backend
    runs, only tests, benchmarks and the ``backend`` options ask for them."""
    global _pure
    if _pure is None:
        _pure = _load("_pure")  # the import system's lock makes a racing load find the same modules
    return _pure


# (module globals, backend module name, names) of every public binding.
_bindings: List[Tuple[Dict[str, Any], str, Tuple[str, ...]]] = []


@overload
def implementation(module: Literal["primitives"], backend: Optional[str] = None) -> PrimitivesBackend: ...


@overload
def implementation(module: Literal["crc"], backend: Optional[str] = None) -> CrcBackend: ...


@overload
def implementation(module: Literal["codec"], backend: Optional[str] = None) -> CodecBackend: ...


@overload
def implementation(module: Literal["records"], backend: Optional[str] = None) -> RecordsBackend: ...


@overload
def implementation(module: Literal["avro"], backend: Optional[str] = None) -> AvroBackend: ...


@overload
def implementation(module: Literal["protobuf"], backend: Optional[str] = None) -> ProtobufBackend: ...


@overload
def implementation(module: str, backend: Optional[str] = None) -> object: ...


def implementation(module: str, backend: Optional[str] = None) -> Any:
    """The implementation module ``module`` of ``backend`` (default: the active one),
    typed as the protocol of :mod:`kafkawire._backend_protocol` it satisfies."""
    backend = backend or BACKEND
    if backend == "cython":
        if _fast is None:
            raise ImportError(f"the Cython backend is not available: {_import_error}")
        return _fast[module]
    if backend == "python":
        return _pure_modules()[module]
    raise ValueError(f"unknown backend {backend!r}; expected 'cython' or 'python'")


# Switching backends rebinds every public module's names: one switch (or new binding)
# at a time, so no namespace is left half on each backend.
_switch_lock = threading.RLock()


def bind(namespace: Dict[str, Any], module: str, names: Tuple[str, ...]) -> None:
    """Copy ``names`` from the active backend's ``module`` into a public namespace."""
    with _switch_lock:
        _bindings.append((namespace, module, names))
        impl = implementation(module)
        for name in names:
            namespace[name] = getattr(impl, name)


def _activate(backend: str) -> None:
    with _switch_lock:
        _rebind(backend)


def _rebind(backend: str) -> None:
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
