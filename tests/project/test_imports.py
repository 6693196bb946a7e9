"""Every module imports on its own, in a fresh interpreter, with warnings as errors (an
import that works only after some other module ran first, or that warns, fails here), and
the package's modules import one another without a cycle: not at module level, not under
``TYPE_CHECKING`` and not from inside a function."""

from __future__ import annotations

import ast
import subprocess
import sys
from pathlib import Path
from typing import Dict, List, Set

import pytest
from conftest import subprocess_env

import kafkawire

pytestmark = pytest.mark.in_process

PACKAGE = Path(kafkawire.__file__).parent

# Imports each module named on stdin in a child forked from an interpreter that has
# imported only the package itself (which any import of a module of it runs first) and the
# heavy third-party libraries, so each module's own import runs alone; prints one line per
# failure.
_IMPORT_EACH = """
import importlib, os, sys, traceback, warnings

with warnings.catch_warnings():
    warnings.simplefilter("error")
    import kafkawire
    for heavy in ("pyarrow", "pyspark.sql"):
        try:
            importlib.import_module(heavy)
        except ImportError:
            pass

for name in sys.stdin.read().split():
    pid = os.fork()
    if pid == 0:
        warnings.simplefilter("error")
        try:
            importlib.import_module(name)
        except ImportError as exc:
            if (exc.name or "").split(".")[0] in ("pyspark", "py4j", "pyarrow"):
                os._exit(0)  # an optional dependency missing here: nothing to check
            print(name, "".join(traceback.format_exception_only(exc)).strip(), flush=True)
            os._exit(1)
        except BaseException as exc:
            print(name, "".join(traceback.format_exception_only(exc)).strip(), flush=True)
            os._exit(1)
        os._exit(0)
    _, status = os.waitpid(pid, 0)
    if os.WIFSIGNALED(status):
        print(name, "killed by signal", os.WTERMSIG(status), flush=True)
"""

# cycles not yet taken apart, each a set of modules; a cycle broken is taken off here
KNOWN_CYCLES: Set[frozenset] = set()


def _module_name(path: Path) -> str:
    parts = list(path.relative_to(PACKAGE.parent).with_suffix("").parts)
    if parts[-1] == "__init__":
        parts.pop()
    return ".".join(parts)


MODULES = {_module_name(p): p for p in sorted(PACKAGE.rglob("*.py"))}


def _imported(module: str, path: Path) -> Set[str]:
    """The package's modules that ``module`` imports anywhere in its source (module level,
    under ``TYPE_CHECKING`` or in a function), leaving out its own parent packages."""
    package = module if path.name == "__init__.py" else module.rpartition(".")[0]
    names: Set[str] = set()
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"), str(path))):
        if isinstance(node, ast.Import):
            names.update(alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom):
            base = node.module or ""
            if node.level:
                parts = package.split(".")[: len(package.split(".")) - node.level + 1]
                base = ".".join(parts + ([base] if base else []))
            names.add(base)
            names.update(f"{base}.{alias.name}" for alias in node.names)
    found = set()
    for name in names:
        while name and name not in MODULES:  # an imported name, not a module: its module
            name = name.rpartition(".")[0]
        if name and name != module and not module.startswith(name + "."):
            found.add(name)
    return found


def _cycles(graph: Dict[str, Set[str]]) -> Set[frozenset]:
    """The strongly connected groups of more than one module (Tarjan's algorithm)."""
    index: Dict[str, int] = {}
    low: Dict[str, int] = {}
    stack: List[str] = []
    out: Set[frozenset] = set()

    def visit(v: str) -> None:
        index[v] = low[v] = len(index)
        stack.append(v)
        for w in graph[v]:
            if w not in index:
                visit(w)
                low[v] = min(low[v], low[w])
            elif w in stack:
                low[v] = min(low[v], index[w])
        if low[v] == index[v]:
            group = set()
            while True:
                w = stack.pop()
                group.add(w)
                if w == v:
                    break
            if len(group) > 1:
                out.add(frozenset(group))

    for v in graph:
        if v not in index:
            visit(v)
    return out


@pytest.mark.backend_independent
def test_no_import_cycles_among_the_modules(backend):
    graph = {name: _imported(name, path) for name, path in MODULES.items()}
    assert (
        "kafkawire.protocol.schema.plan" in graph["kafkawire.protocol.message_class"]
    )  # the check sees imports
    assert _cycles({"a": {"b"}, "b": {"a"}, "c": {"a"}}) == {frozenset({"a", "b"})}
    assert _cycles(graph) == KNOWN_CYCLES


def test_every_module_imports_alone_without_warnings(backend):
    env = subprocess_env(
        **({"KAFKAWIRE_NO_EXTENSIONS": "1"} if backend == "python" else {"KAFKAWIRE_REQUIRE_EXTENSIONS": "1"})
    )
    names = [name for name in MODULES if name != "kafkawire.__main__"]  # __main__ runs the CLI
    assert "kafkawire.log.read" in names
    proc = subprocess.run(
        [sys.executable, "-c", _IMPORT_EACH],
        input="\n".join(names + ["kafkawire._not_a_module"]),  # one that must fail
        env=env,
        capture_output=True,
        text=True,
        timeout=600,
    )
    assert proc.returncode == 0, proc.stderr
    assert proc.stdout.splitlines() == [
        "kafkawire._not_a_module ModuleNotFoundError: No module named 'kafkawire._not_a_module'"
    ]


def test_import_kafkawire_leaves_heavy_modules_for_later(backend):
    """What ``import kafkawire`` needs not import (every CLI call and every Spark worker
    pays for it): cramjam until a compressed batch, pathlib, pyarrow, the HTTP stack of
    the Schema Registry client (http, urllib, email)."""
    env = subprocess_env(
        **({"KAFKAWIRE_NO_EXTENSIONS": "1"} if backend == "python" else {"KAFKAWIRE_REQUIRE_EXTENSIONS": "1"})
    )
    code = (
        "import sys\nbefore = set(sys.modules)\nimport kafkawire\n"
        "print(sorted(m for m in set(sys.modules) - before if m.split('.')[0] in "
        "('cramjam', 'pathlib', 'pyarrow', 'pyspark', 'http', 'urllib', 'email')))"
    )
    proc = subprocess.run([sys.executable, "-c", code], env=env, capture_output=True, text=True, timeout=120)
    assert proc.returncode == 0, proc.stderr
    assert proc.stdout.strip() == "[]"


def test_import_kafkawire_leaves_the_schema_decoders_for_later(backend):
    """The Avro and Protobuf decoders (the compiled modules too, and the plan and schema
    modules they are built on) load when a decoder is first asked for, not with the codec."""
    env = subprocess_env(
        **({"KAFKAWIRE_NO_EXTENSIONS": "1"} if backend == "python" else {"KAFKAWIRE_REQUIRE_EXTENSIONS": "1"})
    )
    code = (
        "import sys\nimport kafkawire\n"
        "print(kafkawire.BACKEND, sorted(m for m in sys.modules if m.split('.')[1:2] in "
        "(['avro'], ['protobuf'], ['registry']) or m.split('.')[2:3] in (['avro'], ['protobuf'])))\n"
        "import kafkawire.protobuf.decode\n"
        "print(sorted(m for m in sys.modules if m.startswith(('kafkawire._fast.', 'kafkawire._pure.'))))"
    )
    proc = subprocess.run([sys.executable, "-c", code], env=env, capture_output=True, text=True, timeout=120)
    assert proc.returncode == 0, proc.stderr
    at_import, after = proc.stdout.splitlines()
    assert at_import == f"{backend} []"
    side = "_fast" if backend == "cython" else "_pure"
    assert f"'kafkawire.{side}.avro'" in after and f"'kafkawire.{side}.protobuf'" in after
