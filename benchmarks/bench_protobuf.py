"""Framed Protobuf values (Confluent's wire format) to an Arrow table, side by side in one run.

Orders of the tests' ``shop.Order`` message (``tests/support/protobuf_shapes.py``) with the
fields a real order fills (ids, names, an enum of each kind, a nested line and a list
of them, tags, a map, a timestamp, money, a wrapper, a proto3 optional), framed with
one schema id and the message indexes ``[0]``, decoded to a ``pyarrow.Table`` by:

* kafkawire's ``RegistryProtobufDecoder`` (the active backend; the schema from the
  registry once, compiled once);
* the protobuf runtime (upb): ``Order.FromString``, then a walk of each message to
  the rows ``from_protobuf`` gives (the tests' oracle), then ``Table.from_pylist``;
* the runtime's ``FromString`` alone: the messages, no Arrow (a bound on any route
  through the runtime);
* confluent-kafka's ``ProtobufDeserializer`` (the same runtime under a registry
  client), then the same walk and ``Table.from_pylist``;
* the floor: copying the bytes of the finished table's buffers once.

The registry is the test suite's (``tests/support/schema_registry.py``), on 127.0.0.1.
``python -m pytest benchmarks/bench_protobuf.py --benchmark-only`` for pytest-benchmark's
groups, or ``python benchmarks/bench_protobuf.py [N [ROUNDS]]`` for a table of ratios
(``KAFKAWIRE_BENCH_PROTOBUF_N`` sets N for the pytest run; default 200,000).
"""

from __future__ import annotations

import os
import sys

import pytest

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path[:0] = [HERE, os.path.join(os.path.dirname(HERE), "tests")]

from _cpu_rounds import argv, cpu_rounds, print_table  # noqa: E402
from support.protobuf_shapes import build, expected, rows  # noqa: E402

N = int(os.environ.get("KAFKAWIRE_BENCH_PROTOBUF_N", "200000"))
TOPIC = "orders"


def order(i: int):
    """A realistic order, its fields varied by ``i``."""
    common, shop, _, _ = build()
    Order = shop.Order
    m = Order(
        i64=1_000_000 + i,
        name=f"customer-{i % 5000}",
        status=i % 3,
        level=i % 3,
        first_line=Order.Line(sku=f"sku-{i % 997}", qty=1 + i % 9, status=Order.PAID),
        tags=["gift", "express"][: i % 3],
        counts={"apples": i % 7, "pears": 1 + i % 4},
        db=i * 0.25,
        fl=float(i % 100),
        ok=i % 2 == 0,
        maybe_note="leave at the door" if i % 4 == 0 else None,
        total=common.Money(currency="EUR", units=i % 500, nanos=(i * 7919) % 1_000_000_000 - 500_000_000),
    )
    for k in range(i % 3):
        m.lines.add(sku=f"sku-{(i + k) % 997}", qty=1 + k, notes=["fragile"][: k % 2])
    m.created.FromSeconds(1_700_000_000 + i * 37)
    m.w_str.value = f"ref-{i}"
    return m


class Setup:
    """The registry, the framed values, and each route as a function of no arguments."""

    def __init__(self, n: int) -> None:
        import pyarrow as pa
        from confluent_kafka.schema_registry import SchemaRegistryClient as ConfluentClient
        from confluent_kafka.schema_registry.protobuf import ProtobufSerializer
        from confluent_kafka.serialization import MessageField, SerializationContext

        from kafkawire.registry import SchemaRegistryClient
        from kafkawire.registry.protobuf import RegistryProtobufDecoder
        from kafkawire.registry.wire import frame
        from support.schema_registry import RegistryServer

        _, shop, _, _ = build()
        self.Order = shop.Order
        self.server = RegistryServer().__enter__()
        self.ctx = SerializationContext(TOPIC, MessageField.VALUE)
        serializer = ProtobufSerializer(
            shop.Order, ConfluentClient({"url": self.server.url}), {"use.deprecated.format": False}
        )
        first = serializer(order(0), self.ctx)  # registers the schema
        schema_id = int.from_bytes(first[1:5], "big")
        values = [first] + [frame(schema_id, order(i).SerializeToString(), [0]) for i in range(1, n)]
        self.column = pa.array(values, pa.binary())
        self.values = values
        self.protobuf_bytes = self.column.buffers()[2].size
        self.decoder = RegistryProtobufDecoder.for_topic(SchemaRegistryClient(self.server.url), TOPIC)
        self.arrow_schema = pa.schema(list(self.decoder.arrow_type))
        table = self.kafkawire()
        self.table_buffers = [b for col in table.columns for chunk in col.chunks for b in _buffers(chunk)]
        self.table_bytes = sum(b.size for b in self.table_buffers)

    def close(self) -> None:
        self.server.__exit__(None, None, None)

    def kafkawire(self):
        import pyarrow as pa

        return pa.Table.from_struct_array(self.decoder.decode(self.column, topic=TOPIC))

    def _table(self, messages):
        import pyarrow as pa

        rows = [expected(m) for m in messages]
        for r in rows:  # from_pylist takes a map as key-value pairs
            for name in ("counts", "by_id", "prices"):
                r[name] = list(r[name].items())
        return pa.Table.from_pylist(rows, schema=self.arrow_schema)

    def runtime(self):
        parse = self.Order.FromString
        return self._table([parse(memoryview(v)[6:]) for v in self.values])

    def parse_only(self):
        parse = self.Order.FromString
        return [parse(memoryview(v)[6:]) for v in self.values]

    def confluent(self):
        from confluent_kafka.schema_registry import SchemaRegistryClient
        from confluent_kafka.schema_registry.protobuf import ProtobufDeserializer

        deserializer = ProtobufDeserializer(
            self.Order, {"use.deprecated.format": False}, SchemaRegistryClient({"url": self.server.url})
        )
        return self._table([deserializer(v, self.ctx) for v in self.values])

    def floor(self):
        return sum(len(b.to_pybytes()) for b in self.table_buffers)


def _buffers(array):
    return [b for b in array.buffers() if b is not None]


@pytest.fixture(scope="module")
def setup():
    s = Setup(N)
    yield s
    s.close()


@pytest.mark.benchmark(group="protobuf-framed-to-arrow")
def test_kafkawire(benchmark, setup):
    assert benchmark.pedantic(setup.kafkawire, rounds=3, iterations=1).num_rows == N


@pytest.mark.benchmark(group="protobuf-framed-to-arrow")
def test_runtime_then_from_pylist(benchmark, setup):
    assert benchmark.pedantic(setup.runtime, rounds=1, iterations=1).num_rows == N


@pytest.mark.benchmark(group="protobuf-framed-to-arrow")
def test_confluent_deserializer_then_from_pylist(benchmark, setup):
    assert benchmark.pedantic(setup.confluent, rounds=1, iterations=1).num_rows == N


@pytest.mark.benchmark(group="protobuf-framed-to-arrow")
def test_floor_copy_of_the_output(benchmark, setup):
    assert benchmark.pedantic(setup.floor, rounds=3, iterations=1) == setup.table_bytes


def main() -> None:
    import kafkawire

    n, rounds = argv(N, 3)
    s = Setup(n)
    try:
        # the same rows (maps compared as dicts: the runtime's map order is its own)
        assert rows(s.runtime().to_struct_array()) == rows(s.kafkawire().to_struct_array())
        times = cpu_rounds(
            {
                "kafkawire": s.kafkawire,
                "protobuf runtime + walk + from_pylist": s.runtime,
                "protobuf runtime's parse alone (no Arrow)": s.parse_only,
                "confluent ProtobufDeserializer + walk + from_pylist": s.confluent,
                "floor (copy the output)": s.floor,
            },
            rounds,
        )
    finally:
        s.close()
    print_table(
        f"{n:,} framed Protobuf orders ({s.protobuf_bytes / 1e6:.1f} MB of Protobuf, "
        f"{s.table_bytes / 1e6:.1f} MB of Arrow buffers), backend {kafkawire.BACKEND}",
        n,
        times,
        "kafkawire",
    )


if __name__ == "__main__":
    main()
