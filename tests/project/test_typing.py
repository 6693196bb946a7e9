"""kafkawire as a type checker sees it.

``kafkawire/protocol/messages.pyi`` is generated from the schema by ``tools/gen_message_stubs.py``;
the first test fails when it no longer matches.  Then mypy runs (through its API) on
typical user code, the blocks of the README and of docs/ among it, which must pass, and on a file of
mistakes, each of which must be reported where and as ``tests/typing/mistakes.py`` says.
"""

from __future__ import annotations

import importlib.util
import re
from pathlib import Path

import pytest

import kafkawire

mypy_api = pytest.importorskip("mypy.api", reason="mypy is in the test extra")

pytestmark = [pytest.mark.backend_independent, pytest.mark.in_process]

HERE = Path(__file__).resolve().parents[1]
TOOL = HERE.parent / "tools" / "gen_message_stubs.py"
STUB = Path(kafkawire.__file__).parent / "protocol" / "messages.pyi"
README = HERE.parent / "README.md"
DOCUMENTS = [README, *sorted((HERE.parent / "docs").rglob("*.md"))]
_BLOCK = re.compile(r"^```python\n(.*?)^```$", re.S | re.M)


def _mypy(tmp_path: Path, files: list[Path], *flags: str) -> list[str]:
    """mypy's error lines for ``files``; errors inside kafkawire are the package's own
    check (CI runs it), here only what user code is told counts."""
    config = tmp_path / "mypy.ini"
    config.write_text("[mypy]\nignore_missing_imports = True\n", encoding="utf-8")
    stdout, stderr, _status = mypy_api.run([
        "--config-file", str(config), "--cache-dir", str(tmp_path / ".mypy_cache"),
        "--follow-imports=silent", "--no-error-summary", "--show-error-codes",
        "--python-version", "3.11", *flags, *map(str, files),
    ])  # fmt: skip
    assert not stderr, stderr
    return [line for line in stdout.splitlines() if ": error:" in line]


def test_the_messages_stub_is_regenerated_from_the_schema(backend):
    spec = importlib.util.spec_from_file_location("gen_message_stubs", TOOL)
    assert spec is not None and spec.loader is not None
    tool = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(tool)
    expected = tool.render()
    actual = STUB.read_text(encoding="utf-8")
    assert actual == expected, (
        "kafkawire/protocol/messages.pyi is stale: run python tools/gen_message_stubs.py"
    )


def test_typical_user_code_and_the_documented_examples_pass_mypy(backend, tmp_path):
    blocks = []
    for document in DOCUMENTS:
        text = document.read_text(encoding="utf-8")
        name = re.sub(r"\W", "_", str(document.relative_to(HERE.parent)))
        for i, match in enumerate(_BLOCK.finditer(text)):
            path = tmp_path / f"{name}_{i}.py"
            # Blank lines first, so errors point at the document's own line numbers.
            path.write_text("\n" * text.count("\n", 0, match.start(1)) + match.group(1), encoding="utf-8")
            blocks.append(path)
    assert len(blocks) >= 10
    assert _mypy(tmp_path, [HERE / "typing" / "usage.py"], "--strict") == []
    assert _mypy(tmp_path, blocks, "--check-untyped-defs") == []


def test_mistakes_are_reported_by_mypy(backend, tmp_path):
    source = HERE / "typing" / "mistakes.py"
    expected = {}
    for number, line in enumerate(source.read_text(encoding="utf-8").splitlines(), 1):
        if "# E: " in line:
            expected[number] = line.split("# E: ", 1)[1].strip()
    assert len(expected) >= 5
    reported: dict[int, list[str]] = {}
    for line in _mypy(tmp_path, [source], "--strict"):
        match = re.match(r".*mistakes\.py:(\d+): error: (.*)$", line)
        assert match, line
        reported.setdefault(int(match.group(1)), []).append(match.group(2))
    assert sorted(reported) == sorted(expected), reported
    for number, wanted in expected.items():
        assert any(wanted in message for message in reported[number]), (number, reported[number])
