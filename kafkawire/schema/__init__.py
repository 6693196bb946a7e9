"""Kafka's protocol facts, shipped as package data, and the code that reads them.

``data/`` is a verbatim copy of the project's protocol definitions (one JSON file per
Kafka message definition, plus ``errors.json``); nothing in kafkawire hand-writes what
those files say.  ``catalog.py`` indexes them (generated from them by
``tools/build_schema_catalog.py``), so that each file is read only when its definition
is first used.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any, Dict

from kafkawire.schema.catalog import CATALOG

DATA_DIR = Path(__file__).parent / "data"
GROUPS = ("messages", "data", "coordinator", "metadata", "raft")


def load_json(relative: str) -> Any:
    """One file of the protocol data, parsed."""
    with open(DATA_DIR / relative, "rb") as fh:
        return json.load(fh)


def load_definition(name: str) -> Dict[str, Any]:
    """The JSON definition called ``name`` (``"ProduceRequest"``), with ``"group"`` added."""
    entry = CATALOG[name]
    group, filename = entry.group, entry.filename
    spec: Dict[str, Any] = load_json(f"{group}/{filename}")
    spec["group"] = group
    return spec
