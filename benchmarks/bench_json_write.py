"""An Arrow table to framed JSON values (Confluent's wire format), side by side in one run.

The orders of the JSON Schema tests (version 2 of ``tests/schemas/test_json_schema.py``:
nested objects, a list of objects, an enum, a date-time and a date) as a ``pyarrow``
struct array, written as framed values with one registered schema id by:

* kafkawire's ``RegistryJsonEncoder`` (each row checked against the schema, then
  ``json.dumps``);
* ``to_pylist`` and ``json.dumps`` with no check (dates by ``str``): a bound on any
  route through Python's JSON writer;
* confluent-kafka's ``JSONSerializer`` (validating with ``jsonschema``) on the
  documents already made (no Arrow), timed on at most 20,000 and scaled.

``python benchmarks/bench_json_write.py [N [ROUNDS]]`` prints CPU seconds and ratios.
"""

from __future__ import annotations

import json
import os
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
TESTS = os.path.join(os.path.dirname(HERE), "tests")
sys.path[:0] = [HERE, TESTS, os.path.join(TESTS, "schemas")]

from _cpu_rounds import argv, cpu_rounds, print_table  # noqa: E402
from test_json_schema import ORDER_V2, _ctx, _serializer, order  # noqa: E402


def main() -> None:
    from kafkawire.registry import SchemaRegistryClient
    from kafkawire.registry.json_schema import JsonColumnDecoder, RegistryJsonEncoder
    from support.schema_registry import RegistryServer

    n, rounds = argv(100_000, 1)
    column = JsonColumnDecoder(ORDER_V2).decode([json.dumps(order(i, 2)).encode() for i in range(n)])
    m = min(n, 20_000)
    documents = [order(i, 2) for i in range(m)]
    with RegistryServer() as server:
        encoder = RegistryJsonEncoder(
            SchemaRegistryClient(server.url), subject="orders-value", schema=ORDER_V2, auto_register=True
        )
        serializer = _serializer(server, ORDER_V2)
        ctx = _ctx("orders")
        written = encoder.encode(column)
        scaled = "confluent JSONSerializer (scaled)"
        times = cpu_rounds(
            {
                "kafkawire RegistryJsonEncoder": lambda: encoder.encode(column),
                "to_pylist + json.dumps, unchecked": lambda: [
                    json.dumps(r, default=str).encode() for r in column.to_pylist()
                ],
                scaled: lambda: [serializer(d, ctx) for d in documents],
            },
            rounds,
        )
    times[scaled] = [t * n / m for t in times[scaled]]  # timed on m documents
    size = written.buffers()[2].size
    print_table(
        f"{n:,} orders to framed JSON ({size / 1e6:.1f} MB)", n, times, "kafkawire RegistryJsonEncoder"
    )


if __name__ == "__main__":
    main()
