"""``tools/coverage_floor.py``, the CI check that no module is under 85% of its lines,
run as CI runs it on JSON reports in coverage.py's format."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

pytestmark = [pytest.mark.backend_independent, pytest.mark.in_process]

TOOL = Path(__file__).resolve().parents[2] / "tools" / "coverage_floor.py"


def _file(statements, covered):
    return {
        "summary": {
            "num_statements": statements,
            "covered_lines": covered,
            "missing_lines": statements - covered,
        }
    }


def _run(tmp_path, files, *args):
    report = tmp_path / "coverage.json"
    report.write_text(json.dumps({"meta": {}, "files": files}), encoding="utf-8")
    return subprocess.run(
        [sys.executable, str(TOOL), str(report), *args], capture_output=True, text=True, timeout=60
    )


def test_passes_when_every_module_is_at_the_floor(tmp_path):
    proc = _run(
        tmp_path,
        {
            "kafkawire/a.py": _file(20, 17),
            "kafkawire/b.pyx": _file(3, 3),
            "kafkawire/__init__.py": _file(0, 0),
        },
    )
    assert proc.returncode == 0, proc.stdout + proc.stderr
    assert "3 files" in proc.stdout


def test_names_each_module_under_the_floor(tmp_path):
    proc = _run(
        tmp_path,
        {
            "kafkawire/a.py": _file(271, 62),
            "kafkawire/b.py": _file(100, 85),
            "kafkawire/c.pxd": _file(67, 52),
        },
    )
    assert proc.returncode == 1
    assert proc.stdout.splitlines() == [
        "kafkawire/a.py: 22.9% of 271 lines, under 85%",
        "kafkawire/c.pxd: 77.6% of 67 lines, under 85%",
    ]


def test_the_floor_is_an_option(tmp_path):
    files = {"kafkawire/a.py": _file(10, 9)}
    assert _run(tmp_path, files, "--floor", "90").returncode == 0
    assert _run(tmp_path, files, "--floor", "95").returncode == 1


def test_an_empty_report_fails(tmp_path):
    proc = _run(tmp_path, {})
    assert proc.returncode == 1 and "no files measured" in proc.stderr
