"""Framed Avro values (Confluent's wire format) to an Arrow table, side by side in one run.

One million orders of a realistic 20-field schema (strings, longs, doubles, a float,
a nullable union, two enums, a nested record, an array, a map, a timestamp, a date, a
decimal, a uuid; ``tests/support/avro_shapes.py``), framed with one schema id, decoded to a
``pyarrow.Table`` by:

* kafkawire's ``RegistryAvroDecoder`` (the active backend; the schema from the
  registry once, compiled once);
* fastavro, one record at a time, then ``pyarrow.Table.from_pylist``;
* confluent-kafka's ``AvroDeserializer`` (fastavro under a registry client), then
  ``Table.from_pylist``;
* the floor: copying the bytes of the finished table's buffers once (what any decoder
  must at least write).

The registry is the test suite's (``tests/support/schema_registry.py``), on 127.0.0.1.
``python -m pytest benchmarks/bench_avro.py --benchmark-only`` for pytest-benchmark's
groups, or ``python benchmarks/bench_avro.py [N [ROUNDS]]`` for a table of ratios
(``KAFKAWIRE_BENCH_AVRO_N`` sets N for the pytest run; default 1,000,000).
"""

from __future__ import annotations

import copy
import io
import json
import os
import sys

import pytest

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path[:0] = [HERE, os.path.join(os.path.dirname(HERE), "tests")]

from _cpu_rounds import argv, cpu_rounds, print_table  # noqa: E402
from support.avro_shapes import ORDER, order  # noqa: E402

N = int(os.environ.get("KAFKAWIRE_BENCH_AVRO_N", "1000000"))
TOPIC = "orders"


def _fastavro_schema():
    """ORDER with uuid read as a plain string: from_pylist cannot take uuid.UUID objects
    for a string column, so the fastavro route is spared that conversion."""
    import fastavro

    schema = copy.deepcopy(ORDER)
    for f in schema["fields"]:
        if f["name"] == "session":
            f["type"] = "string"
    return fastavro.parse_schema(schema)


class Setup:
    """The registry, the framed values, and each route as a function of no arguments."""

    def __init__(self, n: int) -> None:
        import fastavro
        import pyarrow as pa

        from kafkawire.registry import SchemaRegistryClient
        from kafkawire.registry.avro import RegistryAvroDecoder
        from support.schema_registry import RegistryServer

        self.server = RegistryServer().__enter__()
        client = SchemaRegistryClient(self.server.url)
        schema_id = client.register(f"{TOPIC}-value", json.dumps(ORDER))
        parsed = fastavro.parse_schema(ORDER)
        header = b"\x00" + schema_id.to_bytes(4, "big")
        values = []
        for i in range(n):
            buf = io.BytesIO()
            buf.write(header)
            fastavro.schemaless_writer(buf, parsed, order(i))
            values.append(buf.getvalue())
        self.column = pa.array(values, pa.binary())
        self.values = values
        self.avro_bytes = self.column.buffers()[2].size
        self.decoder = RegistryAvroDecoder.for_topic(client, TOPIC)
        self.string_decoder = RegistryAvroDecoder.for_topic(client, TOPIC, enums_as="string")
        self.arrow_schema = pa.schema(list(self.string_decoder.arrow_type))
        self.reader = _fastavro_schema()
        table = self.kafkawire()
        self.table_buffers = [b for col in table.columns for chunk in col.chunks for b in _buffers(chunk)]
        self.table_bytes = sum(b.size for b in self.table_buffers)

    def close(self) -> None:
        self.server.__exit__(None, None, None)

    def kafkawire(self):
        import pyarrow as pa

        return pa.Table.from_struct_array(self.decoder.decode(self.column, topic=TOPIC))

    def fastavro(self):
        import fastavro
        import pyarrow as pa

        reader, read = self.reader, fastavro.schemaless_reader
        records = [read(io.BytesIO(memoryview(v)[5:]), reader) for v in self.values]
        return pa.Table.from_pylist(records, schema=self.arrow_schema)

    def confluent(self):
        import pyarrow as pa
        from confluent_kafka.schema_registry import SchemaRegistryClient
        from confluent_kafka.schema_registry.avro import AvroDeserializer
        from confluent_kafka.serialization import MessageField, SerializationContext

        deserializer = AvroDeserializer(SchemaRegistryClient({"url": self.server.url}))
        ctx = SerializationContext(TOPIC, MessageField.VALUE)
        records = [deserializer(v, ctx) for v in self.values]
        for r in records:  # uuid.UUID objects, as from_pylist cannot take them
            r["session"] = str(r["session"])
        return pa.Table.from_pylist(records, schema=self.arrow_schema)

    def floor(self):
        return sum(len(b.to_pybytes()) for b in self.table_buffers)


def _buffers(array):
    out = [b for b in array.buffers() if b is not None]
    if hasattr(array.type, "value_type") and hasattr(array, "dictionary"):
        out += [b for b in array.dictionary.buffers() if b is not None]
    return out


@pytest.fixture(scope="module")
def setup():
    s = Setup(N)
    yield s
    s.close()


@pytest.mark.benchmark(group="avro-framed-to-arrow")
def test_kafkawire(benchmark, setup):
    assert benchmark.pedantic(setup.kafkawire, rounds=3, iterations=1).num_rows == N


@pytest.mark.benchmark(group="avro-framed-to-arrow")
def test_fastavro_then_from_pylist(benchmark, setup):
    assert benchmark.pedantic(setup.fastavro, rounds=1, iterations=1).num_rows == N


@pytest.mark.benchmark(group="avro-framed-to-arrow")
def test_confluent_deserializer_then_from_pylist(benchmark, setup):
    assert benchmark.pedantic(setup.confluent, rounds=1, iterations=1).num_rows == N


@pytest.mark.benchmark(group="avro-framed-to-arrow")
def test_floor_copy_of_the_output(benchmark, setup):
    assert benchmark.pedantic(setup.floor, rounds=3, iterations=1) == setup.table_bytes


def main() -> None:
    import kafkawire

    n, rounds = argv(N, 3)
    s = Setup(n)
    try:
        times = cpu_rounds(
            {
                "kafkawire": s.kafkawire,
                "fastavro + from_pylist": s.fastavro,
                "confluent AvroDeserializer + from_pylist": s.confluent,
                "floor (copy the output)": s.floor,
            },
            rounds,
        )
    finally:
        s.close()
    print_table(
        f"{n:,} framed Avro orders ({s.avro_bytes / 1e6:.1f} MB of Avro, {s.table_bytes / 1e6:.1f} MB of "
        f"Arrow buffers), backend {kafkawire.BACKEND}",
        n,
        times,
        "kafkawire",
    )


if __name__ == "__main__":
    main()
