"""Framed JSON Schema values (Confluent's ``JSONSerializer`` framing) to Arrow, side by side in one run.

Orders of the tests' version-2 schema (``tests/schemas/test_json_schema.py``: integers,
strings with non-ASCII text, a double, a boolean, a date-time, a date, an enum, a
nullable coupon, a nested nullable address, lists of strings and of line objects),
framed with one schema id, decoded to an Arrow column by:

* kafkawire's ``RegistryJsonDecoder`` on the active backend (each value checked against
  the schema: Cython parses and checks in one pass);
* the same decoder with no compiled plan: the exact reader alone (``json`` then one
  checking converter per node, the pure backend's work);
* ``json.loads`` of each body and ``Table.from_pylist`` (types inferred, nothing
  checked);
* pyarrow's JSON reader over the bodies as newline-delimited JSON with the same columns
  (no checks, no per-value errors; the bodies are one line each).

``python -m pytest benchmarks/bench_json_schema.py --benchmark-only`` for pytest-benchmark's
groups, or ``python benchmarks/bench_json_schema.py [N [ROUNDS]]`` for a table of ratios
(``KAFKAWIRE_BENCH_JSON_N`` sets N for the pytest run; default 100,000).
"""

from __future__ import annotations

import io
import json
import os
import sys

import pytest

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path[:0] = [
    HERE,
    os.path.join(os.path.dirname(HERE), "tests"),
    os.path.join(os.path.dirname(HERE), "tests", "schemas"),
]

from _cpu_rounds import argv, cpu_rounds, print_table  # noqa: E402
from test_json_schema import ORDER_V2, _date_fields_as_strings, _JsonIds, order  # noqa: E402

N = int(os.environ.get("KAFKAWIRE_BENCH_JSON_N", "100000"))


class Setup:
    def __init__(self, n: int) -> None:
        import pyarrow as pa

        from kafkawire.registry.json_schema import RegistryJsonDecoder
        from kafkawire.registry.wire import frame

        self.n = n
        bodies = [json.dumps(order(i, 2), ensure_ascii=False).encode() for i in range(n)]
        self.column = pa.array([frame(1, b) for b in bodies], pa.binary())
        self.bodies = bodies
        self.ndjson = b"\n".join(bodies) + b"\n"
        self.decoder = RegistryJsonDecoder(_JsonIds(), reader_schema=ORDER_V2)
        self.exact_decoder = RegistryJsonDecoder(_JsonIds(), reader_schema=ORDER_V2)
        self.exact_decoder.layout.fast = None
        self.schema = pa.schema(list(_date_fields_as_strings(self.decoder.arrow_type)))

    def kafkawire(self):
        return self.decoder.decode(self.column)

    def exact(self):
        return self.exact_decoder.decode(self.column)

    def loads_from_pylist(self):
        import pyarrow as pa

        return pa.Table.from_pylist([json.loads(v[5:]) for v in self.column.to_pylist()])

    def pyarrow_reader(self):
        import pyarrow.json as pj

        options = pj.ParseOptions(explicit_schema=self.schema, unexpected_field_behavior="ignore")
        return pj.read_json(io.BytesIO(self.ndjson), parse_options=options)


@pytest.fixture(scope="module")
def setup():
    return Setup(N)


@pytest.mark.benchmark(group="json-schema-framed-to-arrow")
def test_kafkawire(benchmark, setup):
    assert len(benchmark.pedantic(setup.kafkawire, rounds=3, iterations=1)) == N


@pytest.mark.benchmark(group="json-schema-framed-to-arrow")
def test_kafkawire_exact_reader(benchmark, setup):
    assert len(benchmark.pedantic(setup.exact, rounds=1, iterations=1)) == N


@pytest.mark.benchmark(group="json-schema-framed-to-arrow")
def test_json_loads_then_from_pylist(benchmark, setup):
    assert benchmark.pedantic(setup.loads_from_pylist, rounds=1, iterations=1).num_rows == N


@pytest.mark.benchmark(group="json-schema-framed-to-arrow")
def test_pyarrow_json_reader(benchmark, setup):
    assert benchmark.pedantic(setup.pyarrow_reader, rounds=3, iterations=1).num_rows == N


def main() -> None:
    import kafkawire

    n, rounds = argv(N, 3)
    s = Setup(n)
    assert s.kafkawire().equals(s.exact())  # the same column either way
    routes = {
        "kafkawire": s.kafkawire,
        "kafkawire, the exact reader alone": s.exact,
        "json.loads + Table.from_pylist (unchecked)": s.loads_from_pylist,
        "pyarrow.json.read_json (unchecked)": s.pyarrow_reader,
    }
    print_table(
        f"{n:,} framed JSON orders ({len(s.ndjson) / 1e6:.1f} MB of JSON), backend {kafkawire.BACKEND}",
        n,
        cpu_rounds(routes, rounds),
        "kafkawire",
        unit="values/s",
    )


if __name__ == "__main__":
    main()
