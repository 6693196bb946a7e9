"""Run the test suite several times in a row while other processes keep every core busy.

The suite must not depend on an idle machine: this is how that is shown. Each run is the
README's test command (``python -m pytest``, plus any extra arguments given after ``--``)
in the current directory; ``--busy N`` processes spin in pure Python for the whole time.
A summary line per run (exit status, pytest's final counts, wall time) is printed and,
with ``--report``, written as Markdown.

    python tools/stress_suite.py --runs 5 --busy 2 --report stress.md
"""

from __future__ import annotations

import argparse
import os
import re
import signal
import subprocess
import sys
import time
from pathlib import Path

# pytest's last line, e.g. "8151 passed, 3 skipped in 536.21s (0:08:56)" (framed in "="
# without -q)
_SUMMARY = re.compile(r"^=*\s*(\d.*\b(?:passed|failed|errors?)\b.*) in [\d.]+s\b.*$")


def _start_busy_loops(count: int) -> list[subprocess.Popen[bytes]]:
    loop = "while True: pass"
    return [subprocess.Popen([sys.executable, "-c", loop]) for _ in range(count)]


def _stop(processes: list[subprocess.Popen[bytes]]) -> None:
    for process in processes:
        process.kill()
    for process in processes:
        process.wait(timeout=30)


def _last_summary(output: str) -> str:
    for line in reversed(output.splitlines()):
        match = _SUMMARY.match(line.strip())
        if match:
            return match.group(1)
    return "no pytest summary line"


def run_suite(pytest_args: list[str], timeout: float, log: Path | None) -> tuple[int, str, float]:
    """One run of the suite: (exit status, pytest's counts, seconds); its output to ``log``."""
    started = time.monotonic()
    try:
        done = subprocess.run(
            [sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider", *pytest_args],
            stdout=subprocess.PIPE,
            stderr=subprocess.STDOUT,
            text=True,
            timeout=timeout,
            check=False,
        )
    except subprocess.TimeoutExpired as exc:
        output = exc.stdout.decode(errors="replace") if isinstance(exc.stdout, bytes) else ""
        status, output = -1, output + "\ntimed out"
    else:
        status, output = done.returncode, done.stdout
    if log is not None:
        log.write_text(output)
    summary = _last_summary(output)
    return status, summary if status != -1 else "timed out: " + summary, time.monotonic() - started


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=5, help="runs in a row (default 5)")
    parser.add_argument(
        "--busy", type=int, default=os.cpu_count() or 2, help="busy-loop processes (default: one per core)"
    )
    parser.add_argument(
        "--timeout", type=float, default=3600.0, help="seconds allowed for one run (default 3600)"
    )
    parser.add_argument("--report", type=Path, help="also write the summary as Markdown")
    parser.add_argument("--log-dir", type=Path, help="keep each run's output here (run-N.log)")
    parser.add_argument("pytest_args", nargs="*", help="extra pytest arguments (after --)")
    args = parser.parse_args(argv)

    if args.log_dir:
        args.log_dir.mkdir(parents=True, exist_ok=True)
    # a plain `kill` of this script must still stop the busy loops and the running suite
    signal.signal(signal.SIGTERM, lambda signum, frame: sys.exit(143))
    rows = []
    busy = _start_busy_loops(args.busy)
    try:
        for number in range(1, args.runs + 1):
            log = args.log_dir / f"run-{number}.log" if args.log_dir else None
            status, counts, seconds = run_suite(args.pytest_args, args.timeout, log)
            rows.append((number, status, counts, seconds))
            print(f"run {number}: exit {status}, {counts}, {seconds:.0f} s", flush=True)
    finally:
        _stop(busy)

    failed = [row for row in rows if row[1] != 0]
    verdict = f"{len(rows) - len(failed)} of {len(rows)} runs passed with {args.busy} busy loops"
    print(verdict)
    if args.report:
        lines = ["| run | exit | pytest | wall time |", "|---|---|---|---|"]
        lines += [f"| {n} | {s} | {c} | {t / 60:.1f} min |" for n, s, c, t in rows]
        args.report.write_text("\n".join(lines) + "\n\n" + verdict + "\n")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
