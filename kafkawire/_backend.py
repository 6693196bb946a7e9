"""The one place that picks the implementation backend.

kafkawire has two backends with the same module names and the same behaviour:
``kafkawire._fast`` (Cython, compiled to C) and ``kafkawire._pure`` (pure Python).
The Cython backend is used when its extensions import (the schema decoders', found then,
when first asked for: ``import kafkawire`` does not pay for them); ``KAFKAWIRE_NO_EXTENSIONS=1``
selects the pure one, and so does any Python but CPython (PyPy, whose emulation of
CPython's C API cannot run the extension types).  When the extensions fail to import
otherwise, kafkawire runs the pure backend and says so once, with a ``RuntimeWarning`` naming the cause and the fix
(the pure backend is several times slower, which nobody should find out by accident).
``KAFKAWIRE_REQUIRE_EXTENSIONS=1`` turns a failed import of the extensions into an
error instead of a fallback, so CI cannot pass on the wrong backend.

Code that runs on the active backend (the public modules, the message classes, the
Avro decoder, the decompressors) reaches it one way: :func:`bind` puts the names it uses
in its globals at import, and :func:`use` (for tests and benchmarks) switches every such
name at once.  Where the caller chooses the backend (the ``backend`` option of the data
sources and the cluster producer), the choice is explicit: :func:`implementation` of a
module and that backend.
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
    from kafkawire._backend_interfaces import (
        AvroBackend,
        CodecBackend,
        CrcBackend,
        JsonSchemaBackend,
        PrimitivesBackend,
        ProtobufBackend,
        RecordsBackend,
    )

# Modules every backend provides.
MODULES = ("primitives", "crc", "codec", "records", "avro", "protobuf", "json_schema")
# Of the Cython backend's, the ones imported when first asked for, as the pure backend's
# all are: the schema decoders (with their plan and schema modules), which the codec
# does not need.  The choice of backend still sees that they are there.
_ON_DEMAND = ("avro", "protobuf", "json_schema")

_import_error: Optional[BaseException] = None


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


# (module globals, backend module, {local name: backend name}) of every binding.
_bindings: List[Tuple[Dict[str, Any], str, Dict[str, str]]] = []
# Binding and switching copy names into modules' globals: one at a time, so no module is
# left half on each backend.
_switch_lock = threading.RLock()


@overload
def implementation(module: Literal["primitives"], backend: Optional[str]) -> PrimitivesBackend: ...


@overload
def implementation(module: Literal["crc"], backend: Optional[str]) -> CrcBackend: ...


@overload
def implementation(module: Literal["codec"], backend: Optional[str]) -> CodecBackend: ...


@overload
def implementation(module: Literal["records"], backend: Optional[str]) -> RecordsBackend: ...


@overload
def implementation(module: Literal["avro"], backend: Optional[str]) -> AvroBackend: ...


@overload
def implementation(module: Literal["protobuf"], backend: Optional[str]) -> ProtobufBackend: ...


@overload
def implementation(module: Literal["json_schema"], backend: Optional[str]) -> JsonSchemaBackend: ...


@overload
def implementation(module: str, backend: Optional[str]) -> object: ...


def implementation(module: str, backend: Optional[str]) -> Any:
    """The implementation module ``module`` of ``backend`` ("cython", "python", or None
    for the active one), typed as the protocol of :mod:`kafkawire._backend_interfaces` it
    satisfies.  For code whose caller chooses the backend (the ``backend`` option of the
    data sources and the cluster producer) and for tests comparing the two; code that
    runs on the active backend uses :func:`bind`."""
    backend = backend or BACKEND
    if backend == "cython":
        if _fast is None:
            raise ImportError(f"the Cython backend is not available: {_import_error}")
        found = _fast.get(module)
        if found is None:  # one of _ON_DEMAND, there when the backend was chosen
            try:
                found = _fast[module] = importlib.import_module(f"kafkawire._fast.{module}")
            except ImportError as exc:
                raise ImportError(
                    f"the Cython backend's {module} module did not import: {fallback_reason(exc)}"
                ) from exc
        return found
    if backend == "python":
        # imported when first asked for: where the Cython backend runs, only tests,
        # benchmarks and the ``backend`` options ask for them
        return importlib.import_module(f"kafkawire._pure.{module}")
    raise ValueError(f"unknown backend {backend!r}; expected 'cython' or 'python'")


def bind(namespace: Dict[str, Any], module: str, names: Tuple[str, ...], *, prefix: str = "") -> None:
    """Put ``names`` of the active backend's ``module`` in a module's globals
    (``namespace``), each as ``prefix + name``, and again whenever :func:`use` switches
    the backend: the one way code that runs on the active backend reaches it.

    A module imported while the backend is being chosen (:mod:`kafkawire.protocol.compression`,
    which the backends' records modules import) gets its names once the choice is made."""
    with _switch_lock:
        binding = (namespace, module, {prefix + name: name for name in names})
        _bindings.append(binding)
        if BACKEND:
            _copy(binding, BACKEND)


def _copy(binding: Tuple[Dict[str, Any], str, Dict[str, str]], backend: str) -> None:
    namespace, module, names = binding
    impl = implementation(module, backend)
    for local, name in names.items():
        namespace[local] = getattr(impl, name)


def _activate(backend: str) -> None:
    global BACKEND
    with _switch_lock:
        for binding in _bindings:
            _copy(binding, backend)
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


# -- the choice, made once per process -------------------------------------------------

#: The active backend: "cython" or "python" ("" only while it is being chosen).
BACKEND = ""
_fast: Optional[Dict[str, ModuleType]] = None
if sys.implementation.name != "cpython":
    # the extensions are built for CPython's C API only (setup.py builds none elsewhere)
    _import_error = ImportError(f"the Cython backend runs on CPython only, not {sys.implementation.name}")
    if os.environ.get("KAFKAWIRE_REQUIRE_EXTENSIONS") == "1":
        raise ImportError(f"KAFKAWIRE_REQUIRE_EXTENSIONS=1 but {_import_error}")
elif os.environ.get("KAFKAWIRE_NO_EXTENSIONS") != "1":
    try:
        loaded = {
            name: importlib.import_module(f"kafkawire._fast.{name}")
            for name in MODULES
            if name not in _ON_DEMAND
        }
        fast_path = sys.modules["kafkawire._fast"].__path__
        for name in _ON_DEMAND:  # there, as the import will find it, but not loaded yet
            fullname = f"kafkawire._fast.{name}"
            if importlib.machinery.PathFinder.find_spec(fullname, fast_path) is None:
                raise ModuleNotFoundError(f"No module named {fullname!r}", name=fullname)
        _fast = loaded
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

_activate("cython" if _fast is not None else "python")
