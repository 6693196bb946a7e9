"""One way to reach the backend: code that runs on the active one binds its names at
import (``_backend.bind``) and :func:`kafkawire._backend.use` switches every such name;
code whose caller chooses a backend names that choice (``implementation(module, backend)``)."""

from __future__ import annotations

import ast
import importlib
from pathlib import Path

import pytest

import kafkawire
from kafkawire import _backend

pytestmark = [pytest.mark.backend_independent, pytest.mark.in_process]

PACKAGE = Path(kafkawire.__file__).parent
# the modules that bind names of the active backend (each imported here)
BINDERS = (
    "kafkawire",
    "kafkawire.protocol.primitives",
    "kafkawire.protocol.records",
    "kafkawire.protocol.message_class",
    "kafkawire.protocol.requests",
    "kafkawire.protocol.compression",
    "kafkawire.avro.decode",
    "kafkawire.protobuf.decode",
    "kafkawire.registry.json_schema",
)


def _calls_and_imports(path: Path):
    """``(line, what)`` of each look-up of the backend in ``path`` that is not the one way:
    an ``implementation`` call that does not name the backend, or ``_backend`` imported
    inside a function."""
    tree = ast.parse(path.read_text(encoding="utf-8"), str(path))
    found = []
    for node in ast.walk(tree):
        if isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute):
            named = len(node.args) + len(node.keywords)
            if node.func.attr == "implementation" and getattr(node.func.value, "id", "") == "_backend":
                if named < 2:
                    found.append((node.lineno, "implementation() without a backend"))
        if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)):
            for inner in ast.walk(node):
                if isinstance(inner, ast.ImportFrom) and any(a.name == "_backend" for a in inner.names):
                    found.append((inner.lineno, f"_backend imported inside {node.name}()"))
    return found


def test_the_package_reaches_the_backend_one_way():
    offences = {
        str(p.relative_to(PACKAGE)): found
        for p in sorted(PACKAGE.rglob("*.py"))
        if p.name != "_backend.py" and (found := _calls_and_imports(p))
    }
    assert offences == {}


@pytest.mark.parametrize("chosen", ["cython", "python"])
def test_use_switches_every_bound_name_and_restores_it(chosen):
    if chosen == "cython" and not _backend.fast_available():
        pytest.skip("the Cython backend is not available here")
    for module in BINDERS:
        importlib.import_module(module)
    bound = {(id(ns), local): ns[local] for ns, _, names in _backend._bindings for local in names}
    assert {module for _, module, _ in _backend._bindings} == set(_backend.MODULES)
    with _backend.use(chosen):
        assert kafkawire.BACKEND == _backend.BACKEND == chosen
        for namespace, module, names in _backend._bindings:
            impl = _backend.implementation(module, chosen)
            for local, name in names.items():
                assert namespace[local] is getattr(impl, name), (module, local)
    assert {(id(ns), local): ns[local] for ns, _, names in _backend._bindings for local in names} == bound
