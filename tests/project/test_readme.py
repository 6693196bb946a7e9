"""The README and the pages of docs/ run as written: every ```python block of README.md
and of docs/ (every folder) is executed, as its text stands, in a fresh namespace (Spark
blocks once, with the session's SparkSession already running; temporary files go to the
test's own directory).  The site's generated pages have no examples of their own; the
examples in docstrings run in test_docs.py.  The README stays a front page: under 500
lines, the long-form text in docs/."""

from __future__ import annotations

import re
import tempfile
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
README = ROOT / "README.md"
DOCUMENTS = [README, *sorted((ROOT / "docs").rglob("*.md"))]
_BLOCK = re.compile(r"^```python\n(.*?)^```$", re.S | re.M)
_FENCED = re.compile(r"^```.*?^```$", re.S | re.M)


def _blocks(document):
    text = document.read_text(encoding="utf-8")
    where = "" if document == README else f"{document.relative_to(ROOT)}: "
    out = []
    for match in _BLOCK.finditer(text):
        line = text.count("\n", 0, match.start(1)) + 1
        prose = _FENCED.sub("", text[: match.start()])  # a shell comment is no heading
        heading = re.findall(r"^#+ (.+)$", prose, re.M)[-1]
        out.append((f"{where}{heading} (line {line})", document, line, match.group(1)))
    return out


BLOCKS = [block for document in DOCUMENTS for block in _blocks(document)]
SPARK = [b for b in BLOCKS if "spark" in b[3]]
PLAIN = [b for b in BLOCKS if "spark" not in b[3]]


def _run(block, tmp_path, monkeypatch):
    _name, document, line, code = block
    monkeypatch.setattr(tempfile, "tempdir", str(tmp_path))  # the block's mkdtemp() lands here
    monkeypatch.chdir(tmp_path)
    # Blank lines first, so tracebacks point at the README's own line numbers.
    exec(compile("\n" * (line - 1) + code, str(document), "exec"), {"__name__": "__readme__"})


def test_the_readme_and_the_pages_have_the_blocks_they_are_expected_to_have():
    sections = {name.rsplit(" (line ", 1)[0] for name, _, _, _ in BLOCKS}
    for section in (
        "Decode a captured frame",  # the README's tour
        "Build and read a batch with headers and lz4",
        "Read a Kafka log directory or a live cluster in Spark",
        "docs/codec/messages.md: Requests and responses",
        "docs/codec/records.md: Records",
        "docs/codec/records.md: Internal topics",
        "docs/codec/connections.md: Connections",
        "docs/spark/kafka-log.md: Reading a log directory",
        "docs/spark/functions.md: Record batches in a binary column",
        "docs/security.md: SASL",
        "docs/security.md: TLS",
    ):
        assert section in sections, section


def test_the_readme_is_a_front_page_of_under_500_lines():
    lines = README.read_text(encoding="utf-8").count("\n")
    assert lines < 500, f"README.md has {lines} lines: long-form text goes to a page of docs/"


@pytest.mark.parametrize("block", PLAIN, ids=[b[0] for b in PLAIN])
def test_readme_block_runs(block, tmp_path, monkeypatch):
    _run(block, tmp_path, monkeypatch)


@pytest.mark.spark
@pytest.mark.backend_independent
@pytest.mark.parametrize("block", SPARK, ids=[b[0] for b in SPARK])
def test_readme_spark_block_runs(block, spark, tmp_path, monkeypatch):
    _run(block, tmp_path, monkeypatch)
