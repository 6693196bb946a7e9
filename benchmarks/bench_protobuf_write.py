"""An Arrow table to framed Protobuf values (Confluent's wire format), side by side in one run.

The orders of ``bench_protobuf.py`` (the tests' ``shop.Order`` with the fields a real
order fills) as a ``pyarrow.Table`` typed as ``from_protobuf`` types them, written as
framed values with one registered schema id and the message indexes ``[0]`` by:

* kafkawire's ``RegistryProtobufEncoder`` (column by column, to one binary array);
* the protobuf runtime (upb): ``Table.to_pylist``, each row made an ``Order`` (enums by
  name, timestamps, wrappers, maps), ``SerializeToString``, the header added;
* the same messages through confluent-kafka's ``ProtobufSerializer``;
* the runtime's ``SerializeToString`` alone, of messages already built (a bound on any
  route through the runtime);
* the floor: copying the written values' bytes once.

``python benchmarks/bench_protobuf_write.py [N [ROUNDS]]`` prints CPU seconds and ratios.
"""

from __future__ import annotations

import os
import sys
from typing import Any, Dict

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path[:0] = [HERE, os.path.join(os.path.dirname(HERE), "tests")]

from _cpu_rounds import argv, cpu_rounds, print_table  # noqa: E402
from bench_protobuf import order  # noqa: E402
from support.protobuf_shapes import build  # noqa: E402

TOPIC = "orders"
_WRAPPERS = {"Int32Value", "Int64Value", "UInt32Value", "UInt64Value", "BoolValue", "StringValue"}
_WRAPPERS |= {"BytesValue", "FloatValue", "DoubleValue"}


def _fill(msg: Any, row: Dict[str, Any]) -> Any:
    """``msg`` set from a row as ``from_protobuf`` types it (the runtime route's work)."""
    for fd in msg.DESCRIPTOR.fields:
        value = row.get(fd.name)
        if value is None:
            continue
        md = fd.message_type
        if md is not None and md.GetOptions().map_entry:
            target = getattr(msg, fd.name)
            value_fd = md.fields_by_name["value"]
            for k, v in value:
                if value_fd.message_type is not None:
                    _fill(target[k], v)
                else:
                    target[k] = _scalar(value_fd, v)
        elif fd.is_repeated:
            target = getattr(msg, fd.name)
            for v in value:
                if md is not None:
                    _set_message(target.add(), md, v)
                else:
                    target.append(_scalar(fd, v))
        elif md is not None:
            _set_message(getattr(msg, fd.name), md, value)
        else:
            setattr(msg, fd.name, _scalar(fd, value))
    return msg


def _set_message(target: Any, md: Any, value: Any) -> None:
    if md.name == "Timestamp":
        target.FromDatetime(value)
    elif md.name == "Duration":
        target.FromTimedelta(value)
    elif md.name in _WRAPPERS:
        target.value = value
    else:
        _fill(target, value)


def _scalar(fd: Any, value: Any) -> Any:
    if fd.enum_type is not None:
        return fd.enum_type.values_by_name[value].number
    if fd.type in (fd.TYPE_UINT32, fd.TYPE_FIXED32, fd.TYPE_UINT64, fd.TYPE_FIXED64) and value < 0:
        return value + (1 << (32 if fd.type in (fd.TYPE_UINT32, fd.TYPE_FIXED32) else 64))
    return value


def main() -> None:
    import pyarrow as pa
    from confluent_kafka.schema_registry import SchemaRegistryClient as ConfluentClient
    from confluent_kafka.schema_registry.protobuf import ProtobufSerializer
    from confluent_kafka.serialization import MessageField, SerializationContext

    from kafkawire.protobuf.decode import decoder
    from kafkawire.registry import SchemaRegistryClient
    from kafkawire.registry.protobuf import RegistryProtobufEncoder
    from support.schema_registry import RegistryServer

    n, rounds = argv(100_000, 1)
    _, shop, _, descriptors = build()
    bodies = [order(i).SerializeToString(deterministic=True) for i in range(n)]
    table = pa.Table.from_struct_array(decoder(descriptors, "shop.Order").decode(bodies))
    with RegistryServer() as server:
        serializer = ProtobufSerializer(
            shop.Order, ConfluentClient({"url": server.url}), {"use.deprecated.format": False}
        )
        ctx = SerializationContext(TOPIC, MessageField.VALUE)
        serializer(order(0), ctx)  # registers the schema and its references
        encoder = RegistryProtobufEncoder(SchemaRegistryClient(server.url), topic=TOPIC)
        written = encoder.encode(table)
        header = bytes(written[0].as_py()[:6])

        def messages():
            return [_fill(shop.Order(), r) for r in table.to_pylist()]

        built = messages()
        routes = {
            "kafkawire RegistryProtobufEncoder": lambda: encoder.encode(table),
            "to_pylist + runtime SerializeToString": lambda: [
                header + m.SerializeToString() for m in messages()
            ],
            "to_pylist + confluent ProtobufSerializer": lambda: [serializer(m, ctx) for m in messages()],
            "runtime SerializeToString alone (messages built)": lambda: [
                m.SerializeToString() for m in built
            ],
            "floor (copy the output)": lambda: written.buffers()[2].to_pybytes(),
        }
        times = cpu_rounds(routes, rounds)
        # the routes write the same bytes (the runtime's, its map entries in a fixed order)
        check = [header + m.SerializeToString(deterministic=True) for m in built[:1000]]
        assert check == written.to_pylist()[:1000], "the runtime's bytes differ from kafkawire's"
    size = written.buffers()[2].size
    print_table(
        f"{n:,} orders to framed Protobuf ({size / 1e6:.1f} MB)",
        n,
        times,
        "kafkawire RegistryProtobufEncoder",
    )


if __name__ == "__main__":
    main()
