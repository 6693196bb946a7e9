"""An Arrow table to framed Avro values (Confluent's wire format), side by side in one run.

The orders of ``bench_avro.py`` (20 fields, ``tests/support/avro_shapes.py``) as a
``pyarrow.Table``, written as framed values with one registered schema id by:

* kafkawire's ``RegistryAvroEncoder`` (column by column, to one binary array);
* ``Table.to_pylist`` (maps made dicts), then fastavro one record at a time (the header added);
* ``Table.to_pylist``, then confluent-kafka's ``AvroSerializer``;
* the floor: copying the written values' bytes once.

``python benchmarks/bench_avro_write.py [N [ROUNDS]]`` prints CPU seconds and ratios.
"""

from __future__ import annotations

import io
import json
import os
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path[:0] = [HERE, os.path.join(os.path.dirname(HERE), "tests")]

from _cpu_rounds import argv, cpu_rounds, print_table  # noqa: E402
from support.avro_shapes import ORDER, order  # noqa: E402

TOPIC = "orders"


def main() -> None:
    import fastavro
    import pyarrow as pa
    from confluent_kafka.schema_registry import SchemaRegistryClient as ConfluentClient
    from confluent_kafka.schema_registry.avro import AvroSerializer
    from confluent_kafka.serialization import MessageField, SerializationContext

    from kafkawire.avro.decode import decode
    from kafkawire.registry import RegistryAvroEncoder, SchemaRegistryClient
    from support.schema_registry import RegistryServer

    n, rounds = argv(1_000_000, 1)
    parsed = fastavro.parse_schema(ORDER)
    bodies = []
    for i in range(n):
        buf = io.BytesIO()
        fastavro.schemaless_writer(buf, parsed, order(i))
        bodies.append(buf.getvalue())
    table = pa.Table.from_struct_array(decode(bodies, ORDER, enums_as="string"))
    with RegistryServer() as server:
        client = SchemaRegistryClient(server.url)
        schema_id = client.register(f"{TOPIC}-value", json.dumps(ORDER))
        encoder = RegistryAvroEncoder(client, topic=TOPIC, schema=ORDER)
        header = b"\x00" + schema_id.to_bytes(4, "big")
        serializer = AvroSerializer(
            ConfluentClient({"url": server.url}), json.dumps(ORDER), conf={"auto.register.schemas": False}
        )
        ctx = SerializationContext(TOPIC, MessageField.VALUE)
        written = encoder.encode(table)

        def records():  # Arrow's maps are lists of pairs: the Python writers take dicts
            rows = table.to_pylist()
            for r in rows:
                r["attributes"] = dict(r["attributes"])
            return rows

        def fastavro_route():
            out = []
            for r in records():
                buf = io.BytesIO()
                buf.write(header)
                fastavro.schemaless_writer(buf, parsed, r)
                out.append(buf.getvalue())
            return out

        routes = {
            "kafkawire RegistryAvroEncoder": lambda: encoder.encode(table),
            "to_pylist + fastavro": fastavro_route,
            "to_pylist + confluent AvroSerializer": lambda: [serializer(r, ctx) for r in records()],
            "floor (copy the output)": lambda: written.buffers()[2].to_pybytes(),
        }
        times = cpu_rounds(routes, rounds)
    size = written.buffers()[2].size
    print_table(
        f"{n:,} orders to framed Avro ({size / 1e6:.1f} MB)", n, times, "kafkawire RegistryAvroEncoder"
    )


if __name__ == "__main__":
    main()
