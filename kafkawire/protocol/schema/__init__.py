"""Kafka's protocol facts, shipped as package data, and the code that reads them.

``data/`` is a verbatim copy of the project's protocol definitions (one JSON file per
Kafka message definition, plus ``errors.json``); nothing in kafkawire hand-writes what
those files say.  ``catalog.py`` indexes them (generated from them by
``tools/build_schema_catalog.py``), so that each file is read only when its definition
is first used.
"""

from __future__ import annotations

import os
from typing import TYPE_CHECKING, Any, Dict

if TYPE_CHECKING:
    from pathlib import Path

    DATA_DIR: Path

# os.path, not pathlib, on the import path of every ``import kafkawire`` (pathlib and
# what it imports cost more than this whole package's Python code)
_DATA_DIR = os.path.join(os.path.dirname(os.path.abspath(__file__)), "data")
GROUPS = ("messages", "data", "coordinator", "metadata", "raft", "remote")


def load_json(relative: str) -> Any:
    """One file of the protocol data, parsed."""
    import json  # not at import: nothing reads the data until a definition is used

    with open(os.path.join(_DATA_DIR, relative), "rb") as fh:
        return json.load(fh)


def __getattr__(name: str) -> Any:
    if name == "DATA_DIR":  # the data folder as a Path, for tools and tests
        from pathlib import Path

        return Path(_DATA_DIR)
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


def load_definition(name: str) -> Dict[str, Any]:
    """The JSON definition called ``name`` (``"ProduceRequest"``), with ``"group"`` added."""
    from kafkawire.protocol.schema.catalog import CATALOG  # not at import: building ApiKey takes time

    entry = CATALOG[name]
    group, filename = entry.group, entry.filename
    spec: Dict[str, Any] = load_json(f"{group}/{filename}")
    spec["group"] = group
    return spec
