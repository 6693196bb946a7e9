"""Write kafkawire/schema/catalog.py: the index of every definition in kafkawire/schema/data.

The catalog lets ``import kafkawire`` name every message class, and map an API key to
its request and response, without reading the 261 JSON files; each class is then built
from its own JSON file on first use.  Run this after any change to ``data/``:

    python tools/build_schema_catalog.py          # rewrite the catalog
    python tools/build_schema_catalog.py --check  # exit 1 if it is stale (the test suite does this)
"""

from __future__ import annotations

import json
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
DATA_DIR = ROOT / "kafkawire" / "schema" / "data"
TARGET = ROOT / "kafkawire" / "schema" / "catalog.py"
# The folders of data/, in the order their classes are listed.
GROUPS = ("messages", "data", "coordinator", "metadata", "raft")

HEADER = '''\
"""Every definition of kafkawire/schema/data, by Kafka name (generated, do not edit).

Written by tools/build_schema_catalog.py from the JSON files; the test suite fails when
it no longer matches them.  Each entry: (folder, file name, type, apiKey or None,
validVersions, flexibleVersions).
"""
'''


def render(data_dir: Path = DATA_DIR) -> str:
    """The text of catalog.py for the definitions in ``data_dir``."""
    lines = [HEADER, "CATALOG = {"]
    seen = set()
    for group in GROUPS:
        for path in sorted((data_dir / group).glob("*.json")):
            with open(path, "rb") as fh:
                raw = json.load(fh)
            name = raw["name"]
            if name in seen:
                raise SystemExit(f"{path}: definition {name} is defined twice")
            seen.add(name)
            entry = (
                group,
                path.name,
                raw["type"],
                raw.get("apiKey"),
                raw["validVersions"],
                raw.get("flexibleVersions", "none"),
            )
            lines.append(f"    {name!r}: {entry!r},")
    lines.append("}")
    return "\n".join(lines) + "\n"


def main(argv: list) -> int:
    from _generated import write_or_check  # beside this script

    return write_or_check(TARGET, render(), argv, "build_schema_catalog.py")


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
