"""Write kafkawire/protocol/schema/catalog.py: the index of every definition in kafkawire/protocol/schema/data.

The catalog lets ``import kafkawire`` name every message class, and map an API key to
its request and response, without reading the 261 JSON files; each class is then built
from its own JSON file on first use.  Run this after any change to ``data/``:

    python tools/build_schema_catalog.py          # rewrite the catalog
    python tools/build_schema_catalog.py --check  # exit 1 if it is stale (the test suite does this)
"""

from __future__ import annotations

import json
import re
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
DATA_DIR = ROOT / "kafkawire" / "protocol" / "schema" / "data"
TARGET = ROOT / "kafkawire" / "protocol" / "schema" / "catalog.py"
# The folders of data/, in the order their classes are listed.
GROUPS = ("messages", "data", "coordinator", "metadata", "raft", "remote")

HEADER = '''\
"""Every definition of kafkawire/protocol/schema/data, by Kafka name, and the API keys of the
requests (generated, do not edit).

Written by tools/build_schema_catalog.py from the JSON files; the test suite fails when
it no longer matches them.
"""

from enum import IntEnum
from typing import NamedTuple, Optional


class Entry(NamedTuple):
    """One definition, as its JSON file states it."""

    group: str  # the folder of data/
    filename: str
    type: str  # "request", "response", "data", "header", "metadata" or a coordinator type
    api_key: Optional[int]  # apiKey: the API of a request or response, a record type
    valid_versions: str
    flexible_versions: str


class ApiKey(IntEnum):
    """The API key of every request Kafka defines, under Java's ``ApiKeys`` name (the
    request's name without "Request", upper snake case); retired APIs included."""

'''


def _enum_name(request_name: str) -> str:
    """``OffsetForLeaderEpochRequest`` -> ``OFFSET_FOR_LEADER_EPOCH``, as Java names it."""
    base = request_name.removesuffix("Request")
    return re.sub(r"(?<=[a-z0-9])(?=[A-Z])|(?<=[A-Z])(?=[A-Z][a-z])", "_", base).upper()


def render(data_dir: Path = DATA_DIR) -> str:
    """The text of catalog.py for the definitions in ``data_dir``."""
    catalog = ["", "", "CATALOG = {"]
    keys = {}
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
            catalog.append(f"    {name!r}: Entry{entry!r},")
            if raw["type"] == "request":
                keys[raw["apiKey"]] = _enum_name(name)
    catalog.append("}")
    members = [f"    {keys[key]} = {key}" for key in sorted(keys)]
    return HEADER + "\n".join(members + catalog) + "\n"


def main(argv: list) -> int:
    from _generated import write_or_check  # beside this script

    return write_or_check(TARGET, render(), argv, "build_schema_catalog.py")


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
