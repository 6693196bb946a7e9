"""CRC-32C over 1 MiB: kafkawire against the ``crc32c`` package and aiokafka.

All three run in one benchmark group, so their ratios come from the same run:

    python -m pytest benchmarks/bench_crc32c.py --benchmark-only

Throughput is 1 MiB divided by the mean time of a round.
"""

from __future__ import annotations

import random

import pytest

try:
    import kafkawire

    kw_crc32c = kafkawire.crc32c
    KW_LABEL = f"kafkawire ({kafkawire.BACKEND})"
except ImportError:  # the package init is unavailable: use the compiled module directly
    from kafkawire._fast import crc as _crc

    kw_crc32c = _crc.crc32c
    KW_LABEL = "kafkawire (cython)"

SIZE = 1 << 20
DATA = random.Random(1234).randbytes(SIZE)
EXPECTED = kw_crc32c(DATA)

pytestmark = pytest.mark.benchmark(group="crc32c-1MiB")


def _run(benchmark, fn, name):
    benchmark.extra_info["implementation"] = name
    result = benchmark(fn, DATA)
    assert result == EXPECTED
    stats = benchmark.stats.stats if benchmark.stats else None
    if stats is not None:
        benchmark.extra_info["MB/s"] = round(SIZE / stats.mean / 1e6, 1)


def test_kafkawire(benchmark):
    _run(benchmark, kw_crc32c, KW_LABEL)


def test_crc32c_package(benchmark):
    crc32c = pytest.importorskip("crc32c")
    _run(benchmark, crc32c.crc32c, f"crc32c {getattr(crc32c, '__version__', '')}".strip())


def test_aiokafka(benchmark):
    util = pytest.importorskip("aiokafka.record.util")
    # calc_crc32c is aiokafka's compiled CRC when its extensions load, else pure Python.
    fn = util.calc_crc32c
    name = "aiokafka " + ("cython" if fn is not util.calc_crc32c_py else "python")
    _run(benchmark, fn, name)
