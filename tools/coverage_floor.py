"""Fail when a module of the package has fewer than FLOOR% of its lines covered.

The total of a coverage report can hide a module nobody tests; this checks each file
of coverage.py's JSON report (Python and Cython files alike)::

    python -m pytest --cov --cov-report=json
    python tools/coverage_floor.py coverage.json --floor 85
"""

from __future__ import annotations

import argparse
import json
import sys


def below_floor(report: dict, floor: float) -> list[tuple[str, int, float]]:
    """(file, lines, percent) of every file with lines under ``floor`` percent."""
    low = []
    for name, entry in sorted(report["files"].items()):
        summary = entry["summary"]
        lines = summary["num_statements"]
        if lines == 0:
            continue
        percent = 100.0 * summary["covered_lines"] / lines
        if percent < floor:
            low.append((name, lines, percent))
    return low


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("report", help="coverage.py JSON report (coverage json)")
    parser.add_argument("--floor", type=float, default=85.0, help="percent of lines (85)")
    args = parser.parse_args(argv)
    with open(args.report, encoding="utf-8") as fh:
        report = json.load(fh)
    if not report.get("files"):
        print(f"{args.report}: no files measured", file=sys.stderr)
        return 1
    low = below_floor(report, args.floor)
    for name, lines, percent in low:
        print(f"{name}: {percent:.1f}% of {lines} lines, under {args.floor:g}%")
    if low:
        return 1
    print(f"{len(report['files'])} files, each at {args.floor:g}% of its lines or more")
    return 0


if __name__ == "__main__":
    sys.exit(main())
