"""Charts of recorded benchmark results: kafkawire beside its peers, drawn with matplotlib.

The benchmarks are pytest-benchmark groups (``benchmarks/``), kafkawire and its peers in
one run.  ``record`` keeps of pytest-benchmark's JSON what the charts need (the group,
name and summary statistics of each benchmark, the machine, the commit, the peers'
versions), small enough to keep in the repository; ``draw`` makes one PNG per benchmark
file from such a record, each bar a library's median time relative to kafkawire's
compiled backend in the same group (log scale: below 1 is faster than kafkawire).
The documentation site draws them while it builds (``tools/docs_site.py``)::

    python -m pytest benchmarks/bench_records.py benchmarks/bench_messages.py \\
        benchmarks/bench_crc32c.py benchmarks/bench_varint.py --benchmark-only \\
        --benchmark-json=/tmp/codec.json
    python tools/benchmark_charts.py record /tmp/codec.json benchmarks/results/codec.json
    python tools/benchmark_charts.py draw benchmarks/results/codec.json /tmp/charts
"""

from __future__ import annotations

import argparse
import importlib.metadata
import json
import os
import re
import sys
from dataclasses import dataclass
from typing import Any, Dict, List, Sequence, Tuple

#: the libraries whose versions a record keeps, by distribution name
LIBRARIES = ("kafkawire", "aiokafka", "kafka-python", "kio", "crc32c", "cramjam")
#: one chart per benchmark file: (file stem, chart file, title)
CHARTS = (
    ("bench_records", "records.png", "Record batches: decode, encode, build, to_arrow"),
    ("bench_messages", "messages.png", "Protocol messages: decode and encode"),
    ("bench_crc32c", "crc32c.png", "CRC32C of 1 MiB"),
    ("bench_varint", "varint.png", "Varints: 1000 zigzag varlongs"),
)
_STATS = ("min", "median", "mean", "stddev", "rounds")


def record(raw: Dict[str, Any]) -> Dict[str, Any]:
    """What the charts need of a pytest-benchmark JSON report ``raw``."""
    versions = {}
    for name in LIBRARIES:
        try:
            versions[name] = importlib.metadata.version(name)
        except importlib.metadata.PackageNotFoundError:
            continue
    machine = raw["machine_info"]
    return {
        "datetime": raw["datetime"],
        "commit": (raw.get("commit_info") or {}).get("id"),
        "machine": {
            "cpu": (machine.get("cpu") or {}).get("brand_raw"),
            "cores": (machine.get("cpu") or {}).get("count"),
            "python": machine.get("python_version"),
            "system": f"{machine.get('system')} {machine.get('release')}",
        },
        "versions": versions,
        "benchmarks": [
            {
                "file": b["fullname"].split("::")[0],
                "group": b["group"],
                "name": b["name"],
                "stats": {k: b["stats"][k] for k in _STATS},
            }
            for b in raw["benchmarks"]
        ],
    }


def library_of(name: str) -> str:
    """The library (or floor) a benchmark's test name measures, as a chart labels it."""
    n = name.lower()
    if "floor" in n:
        if "aiokafka" in n:
            return "floor: aiokafka's codec alone"
        if "codec" in n:
            return "floor: the codec alone"
        if "loop" in n:
            return "floor: the loop alone"
        return "floor: making the objects"
    if "kafkawire" in n:
        label = "kafkawire"
        if "python" in n.split("kafkawire", 1)[1]:
            label += " (pure Python)"
        if "builder" in n:
            label += " BatchBuilder"
        return label
    for needle, label in (
        ("aiokafka", "aiokafka"),
        ("kafka_python", "kafka-python"),
        ("kafka-python", "kafka-python"),
        ("kio", "kio"),
        ("crc32c_package", "crc32c package"),
    ):
        if needle in n:
            return label
    return name


@dataclass(frozen=True)
class Bar:
    """One benchmark of a group: its label and its median relative to kafkawire's."""

    group: str
    label: str
    median: float
    relative: float


def bars(results: Sequence[Dict[str, Any]]) -> List[Bar]:
    """The bars of ``results`` (one benchmark file's), group by group in recorded order;
    a group with no kafkawire (compiled) benchmark to compare with is left out."""
    groups: Dict[str, List[Tuple[str, float, str]]] = {}
    for b in results:
        param = re.search(r"\[(.*)\]$", b["name"])
        groups.setdefault(b["group"], []).append(
            (library_of(b["name"]), b["stats"]["median"], param.group(1) if param else "")
        )
    out = []
    for group, entries in groups.items():
        labels = [label for label, _, _ in entries]
        if len(set(labels)) < len(labels):  # one library at several sizes: say which
            entries = [(f"{label} [{param}]", m, param) for label, m, param in entries]
        reference = [m for label, m, _ in entries if label.split(" [")[0] == "kafkawire"]
        if not reference:
            continue
        out += [Bar(group, label, m, m / reference[0]) for label, m, _ in entries]
    return out


def draw(recorded: Dict[str, Any], outdir: str) -> List[Tuple[str, str]]:
    """Write one PNG per benchmark file of ``recorded`` into ``outdir``; returns
    (file name, title) of each chart written."""
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt
    from matplotlib.ticker import FuncFormatter

    os.makedirs(outdir, exist_ok=True)
    written = []
    for stem, filename, title in CHARTS:
        chart = bars([b for b in recorded["benchmarks"] if os.path.basename(b["file"]) == f"{stem}.py"])
        if not chart:
            continue
        fig, ax = plt.subplots(figsize=(9, 0.8 + 0.28 * len(chart)))
        ypos = list(range(len(chart)))[::-1]
        colours = ["#2b6cb0" if bar.label.startswith("kafkawire") else "#a0aec0" for bar in chart]
        colours = ["#718096" if bar.label.startswith("floor") else c for bar, c in zip(chart, colours)]
        ax.barh(ypos, [bar.relative for bar in chart], color=colours, height=0.7)
        ax.set_xscale("log")
        ax.xaxis.set_major_formatter(FuncFormatter(lambda value, _: f"{value:g}x"))
        ax.axvline(1.0, color="black", linewidth=0.8)
        ax.set_yticks(ypos)
        ax.set_yticklabels([f"{bar.group}: {bar.label}" for bar in chart], fontsize=7)
        for y, bar in zip(ypos, chart):
            ax.text(bar.relative, y, f" {bar.relative:.2f}x ({_time(bar.median)})", va="center", fontsize=6)
        ax.set_xlabel(
            "median time relative to kafkawire (compiled backend) in the same group; lower is faster"
        )
        ax.set_title(title, fontsize=10)
        ax.margins(x=0.25)
        fig.tight_layout()
        fig.savefig(os.path.join(outdir, filename), dpi=110)
        plt.close(fig)
        written.append((filename, title))
    return written


def _time(seconds: float) -> str:
    for unit, scale in (("s", 1.0), ("ms", 1e-3), ("µs", 1e-6)):
        if seconds >= scale:
            return f"{seconds / scale:.3g} {unit}"
    return f"{seconds / 1e-9:.3g} ns"


def main(argv: Sequence[str]) -> int:
    """``record RAW OUT`` or ``draw RECORDED OUTDIR``."""
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    sub = parser.add_subparsers(dest="command", required=True)
    rec = sub.add_parser("record", help="keep what the charts need of a pytest-benchmark JSON report")
    rec.add_argument("raw")
    rec.add_argument("out")
    drw = sub.add_parser("draw", help="draw the charts of a record into a directory")
    drw.add_argument("recorded")
    drw.add_argument("outdir")
    args = parser.parse_args(argv)
    if args.command == "record":
        with open(args.raw, encoding="utf-8") as fh:
            kept = record(json.load(fh))
        with open(args.out, "w", encoding="utf-8") as fh:
            json.dump(kept, fh, indent=1)
            fh.write("\n")
        return 0
    with open(args.recorded, encoding="utf-8") as fh:
        for filename, _ in draw(json.load(fh), args.outdir):
            print(os.path.join(args.outdir, filename))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
