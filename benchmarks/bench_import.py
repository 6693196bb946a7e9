"""Import time: ``import kafkawire`` against its peers and against ``python -c pass``.

    python -m pytest benchmarks/bench_import.py --benchmark-only

Each round starts a fresh interpreter (one benchmark group; compare the minimums, and
subtract the ``pass`` floor to get what the import itself costs).  The interpreters
share one bytecode cache, warmed before timing, as an installed package has its .pyc
files.  ``kafkawire (every class built)`` imports kafkawire and then touches all 248
message classes: what the import cost when every class was built eagerly.
"""

from __future__ import annotations

import os
import subprocess
import sys
import tempfile
from pathlib import Path

import pytest

ROOT = str(Path(__file__).resolve().parent.parent)
ROUNDS = 15

CASES = {
    "python -c pass (floor)": "pass",
    "kafkawire": "import kafkawire",
    "kafkawire --help": "import sys; sys.argv = ['kafkawire', '--help']; import kafkawire.cli as c; c.main()",
    "kafkawire (every class built)": "import kafkawire.protocol.messages as m; [m.CLASSES[n] for n in m.CLASSES]",
    "aiokafka": "import aiokafka",
    "kafka-python": "import kafka",
    "kio": "import kio.schema.metadata.v12.response",
}
PEER_MODULES = {"aiokafka": "aiokafka", "kafka-python": "kafka", "kio": "kio"}


@pytest.fixture(scope="module")
def env():
    cache = tempfile.mkdtemp(prefix="kafkawire-bench-pyc-")
    out = dict(os.environ, PYTHONPYCACHEPREFIX=cache, PYTHONPATH=ROOT)
    out.pop("PYTHONDONTWRITEBYTECODE", None)
    return out


def _run(code: str, env) -> None:
    subprocess.run([sys.executable, "-c", code], env=env, check=True, stdout=subprocess.DEVNULL)


@pytest.mark.parametrize("case", list(CASES))
def test_import(benchmark, case, env):
    module = PEER_MODULES.get(case)
    if module is not None:
        pytest.importorskip(module)
    benchmark.group = "import"
    benchmark.extra_info["implementation"] = case
    _run(CASES[case], env)  # warm the bytecode cache
    benchmark.pedantic(_run, args=(CASES[case], env), rounds=ROUNDS, iterations=1)
