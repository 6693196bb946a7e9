"""Checks built wheels before they are published: no wheel carries the Cython or C
sources, a compiled wheel holds every extension of the compiled backend (and a
``py3-none-any`` one none), and every wheel has the LICENSE.  Prints each wheel's size.

    python tools/check_wheels.py wheelhouse/*.whl

Exit status 1 names every wheel that fails, and why.
"""

from __future__ import annotations

import os
import re
import sys
import zipfile
from typing import List

# kafkawire/_backend.py's MODULES: the extensions of the compiled backend
EXTENSIONS = ("primitives", "crc", "codec", "records", "avro", "protobuf", "json_schema")
SOURCES = re.compile(r"\.(pyx|pxd|pxi|c|h)$")
# package data every wheel needs: the protocol's JSON (the message classes are built from
# it at import), the message classes' stub and the typed marker
DATA = ("kafkawire/protocol/schema/data/messages/", "kafkawire/protocol/messages.pyi", "kafkawire/py.typed")


def problems(path: str) -> List[str]:
    """What is wrong with the wheel at ``path`` (empty when nothing is)."""
    with zipfile.ZipFile(path) as whl:
        names = whl.namelist()
    found = []
    sources = [n for n in names if SOURCES.search(n)]
    if sources:
        found.append(f"carries sources: {', '.join(sources)}")
    missing = [d for d in DATA if not any(n.startswith(d) for n in names)]
    if missing:
        found.append(f"lacks its package data: {', '.join(missing)}")
    if not any(n.endswith(".dist-info/licenses/LICENSE") for n in names):
        found.append("has no LICENSE in its .dist-info/licenses")
    built = {
        n.split("/")[-1].split(".")[0]
        for n in names
        if n.startswith("kafkawire/_fast/") and n.endswith((".so", ".pyd"))
    }
    if os.path.basename(path).endswith("-none-any.whl"):
        if built:
            found.append(f"is a pure wheel holding extensions: {', '.join(sorted(built))}")
    elif built != set(EXTENSIONS):
        found.append(f"lacks the extensions {', '.join(sorted(set(EXTENSIONS) - built))}")
    return found


def main(argv: List[str]) -> int:
    """Check every wheel named in ``argv``; 0 when all pass."""
    if not argv:
        print("usage: check_wheels.py WHEEL...", file=sys.stderr)
        return 2
    failed = 0
    for path in argv:
        found = problems(path)
        size = os.path.getsize(path)
        print(f"{'FAIL' if found else 'ok  '} {size / 1e6:6.2f} MB  {os.path.basename(path)}")
        for problem in found:
            print(f"       {problem}")
        failed += bool(found)
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
