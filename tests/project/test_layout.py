"""The package's layers: the log package works where pyspark cannot be imported, only the
Spark package (and the Spark demo command) import pyspark, the library never imports the
command line, and ``kafkawire --help`` loads none of the subcommands."""

from __future__ import annotations

import ast
import subprocess
import sys
from pathlib import Path

import pytest
from conftest import subprocess_env

import kafkawire
from kafkawire import cli

PACKAGE = Path(kafkawire.__file__).parent

# A finder that refuses pyspark and py4j, as on a machine without them; then the whole
# log package is imported and a generated log is planned and read.
_WITHOUT_SPARK = """
import sys

class NoSpark:
    def find_spec(self, name, path=None, target=None):
        if name.split(".")[0] in ("pyspark", "py4j"):
            raise ImportError(f"{name} is not installed here")
        return None

sys.meta_path.insert(0, NoSpark())
import kafkawire.log
from kafkawire.log import read, read_options, sample, segments

log = sample.generate(sys.argv[1])
committed = read.read_all(sys.argv[1], read_options.ReadOptions(isolation_level="read_committed"))
print(len(segments.discover(sys.argv[1])), read.read_all(sys.argv[1]).num_rows,
      committed.num_rows, len(log.records), len(log.aborted))
print(sorted(m for m in sys.modules if m.split(".")[0] in ("pyspark", "py4j")))
"""


def _env(backend: str) -> dict:
    return subprocess_env(
        **({"KAFKAWIRE_NO_EXTENSIONS": "1"} if backend == "python" else {"KAFKAWIRE_REQUIRE_EXTENSIONS": "1"})
    )


def test_the_log_package_reads_a_log_without_pyspark(backend, tmp_path):
    pytest.importorskip("pyarrow")
    proc = subprocess.run(
        [sys.executable, "-c", _WITHOUT_SPARK, str(tmp_path)],
        env=_env(backend),
        capture_output=True,
        text=True,
        timeout=300,
    )
    assert proc.returncode == 0, proc.stderr
    counts, spark_modules = proc.stdout.splitlines()
    partitions, rows, committed, written, aborted = map(int, counts.split())
    assert partitions > 1 and written > 0 and aborted > 0
    assert (rows, committed) == (written, written - aborted)
    assert spark_modules == "[]"


def _imports(path: Path, depth: int = 1) -> set:
    """The names a source file imports, anywhere in it, cut to their first ``depth``
    parts (``from kafkawire import cli`` counts as ``kafkawire.cli``)."""
    names = set()
    for node in ast.walk(ast.parse(path.read_text(), str(path))):
        if isinstance(node, ast.Import):
            full = [alias.name for alias in node.names]
        elif isinstance(node, ast.ImportFrom) and node.level == 0 and node.module:
            full = [node.module] + [f"{node.module}.{alias.name}" for alias in node.names]
        else:
            continue
        names.update(".".join(name.split(".")[:depth]) for name in full)
    return names


@pytest.mark.backend_independent
def test_only_the_spark_package_and_the_spark_demo_import_pyspark(backend):
    importers = {str(p.relative_to(PACKAGE)) for p in PACKAGE.rglob("*.py") if "pyspark" in _imports(p)}
    assert "spark/kafka_log.py" in importers  # the check sees what it looks for
    assert {p for p in importers if not p.startswith("spark/")} == {"cli/demo.py"}


@pytest.mark.backend_independent
def test_the_library_does_not_import_the_command_line(backend):
    importers = {
        str(p.relative_to(PACKAGE)) for p in PACKAGE.rglob("*.py") if "kafkawire.cli" in _imports(p, depth=2)
    }
    assert "cli/dump_log.py" in importers  # the check sees what it looks for
    assert {p for p in importers if not p.startswith("cli/")} == {"__main__.py"}


@pytest.mark.backend_independent
def test_help_imports_no_subcommand(backend):
    code = (
        "import sys\nfrom kafkawire.cli import main\nmain(['--help'])\n"
        # json_output holds the --bytes-as choices the parser shows; nothing else of the cli
        "print(sorted(m for m in sys.modules if m.startswith('kafkawire.cli.') and m != 'kafkawire.cli.json_output'"
        " or m.split('.')[0] in ('pyarrow', 'pyspark')"
        " or m.startswith(('kafkawire.broker', 'kafkawire.log', 'kafkawire.spark'))))"
    )
    proc = subprocess.run(
        [sys.executable, "-c", code], env=_env("python"), capture_output=True, text=True, timeout=120
    )
    assert proc.returncode == 0, proc.stderr
    assert "dump-log" in proc.stdout
    assert proc.stdout.splitlines()[-1] == "[]"


@pytest.mark.backend_independent
def test_every_subcommand_is_a_module_of_the_cli_package(backend):
    import importlib

    for name, (module, _help) in cli.COMMANDS.items():
        assert module == "kafkawire.cli." + name.replace("-", "_")
        assert callable(importlib.import_module(module).main)


@pytest.mark.backend_independent
def test_the_layout_map_is_the_tree(backend):
    page = (PACKAGE.parent / "docs" / "development.md").read_text(encoding="utf-8")
    block = page.split("\n## Layout\n", 1)[1].split("```")[1]
    mapped = {line.split()[0] for line in block.splitlines() if line.startswith("kafkawire/")}
    assert "kafkawire/connection/" in mapped  # the check sees the map
    for path in mapped:
        assert (PACKAGE.parent / path).exists(), f"the layout map names {path}, which is not there"
    packages = {f"kafkawire/{p.parent.relative_to(PACKAGE)}/" for p in PACKAGE.glob("*/__init__.py")}
    assert packages <= mapped, f"the layout map leaves out {sorted(packages - mapped)}"
