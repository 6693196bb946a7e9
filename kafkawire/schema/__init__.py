"""Kafka's protocol facts, shipped as package data, and the code that reads them.

``data/`` is a verbatim copy of the project's protocol definitions (one JSON file per
Kafka message definition, plus ``errors.json``); nothing in kafkawire hand-writes what
those files say.
"""
from __future__ import annotations

import json
from functools import lru_cache
from pathlib import Path
from typing import Any, Dict

from kafkawire.schema.versions import VersionRange

DATA_DIR = Path(__file__).parent / "data"
GROUPS = ("messages", "data", "coordinator", "metadata", "raft")


def load_json(relative: str) -> Any:
    """One file of the protocol data, parsed."""
    with open(DATA_DIR / relative, "rb") as fh:
        return json.load(fh)


@lru_cache(maxsize=None)
def definitions() -> Dict[str, Dict[str, Any]]:
    """Every message definition by name (``"ProduceRequest"``), with ``"group"`` added."""
    out: Dict[str, Dict[str, Any]] = {}
    for group in GROUPS:
        for path in sorted((DATA_DIR / group).glob("*.json")):
            with open(path, "rb") as fh:
                spec = json.load(fh)
            spec["group"] = group
            out[spec["name"]] = spec
    return out


@lru_cache(maxsize=None)
def flexible_versions(api_key: int, kind: str) -> VersionRange:
    """The flexible versions of the ``kind`` ("request" or "response") of ``api_key``."""
    for spec in definitions().values():
        if spec.get("apiKey") == api_key and spec["type"] == kind:
            return VersionRange.parse(spec["flexibleVersions"])
    from kafkawire.errors import UnknownApiError

    raise UnknownApiError(f"no {kind} is defined for API key {api_key}")


@lru_cache(maxsize=None)
def valid_versions(api_key: int, kind: str) -> VersionRange:
    """The valid versions of the ``kind`` ("request" or "response") of ``api_key``."""
    for spec in definitions().values():
        if spec.get("apiKey") == api_key and spec["type"] == kind:
            return VersionRange.parse(spec["validVersions"])
    from kafkawire.errors import UnknownApiError

    raise UnknownApiError(f"no {kind} is defined for API key {api_key}")
