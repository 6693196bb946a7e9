"""Write kafkawire/protocol/error_codes.py: Kafka's error codes as an IntEnum, from errors.json.

The enum is written out, not built at import, so that type checkers and editors know
its members.  Run this after any change to ``kafkawire/protocol/schema/data/errors.json``:

    python tools/gen_error_codes.py          # rewrite the module
    python tools/gen_error_codes.py --check  # exit 1 if it is stale (the test suite does this)
"""

from __future__ import annotations

import json
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
SOURCE = ROOT / "kafkawire" / "protocol" / "schema" / "data" / "errors.json"
TARGET = ROOT / "kafkawire" / "protocol" / "error_codes.py"

HEADER = '''\
"""Kafka's protocol error codes by name (generated, do not edit).

Written by tools/gen_error_codes.py from kafkawire/protocol/schema/data/errors.json; the test
suite fails when it no longer matches.  :mod:`kafkawire.errors` has each code's
retriability and Java exception (``for_code``).
"""

from enum import IntEnum


class ErrorCode(IntEnum):
    """The ``error_code`` values of Kafka's responses and records."""

'''


def render(source: Path = SOURCE) -> str:
    """The text of error_codes.py for the error table in ``source``."""
    with open(source, "rb") as fh:
        table = json.load(fh)["errors"]
    lines = [f"    {entry['name']} = {entry['code']}" for entry in table]
    return HEADER + "\n".join(lines) + "\n"


def main(argv: list[str]) -> int:
    from _generated import write_or_check  # beside this script

    return write_or_check(TARGET, render(), argv, "gen_error_codes.py")


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
