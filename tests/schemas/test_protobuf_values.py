"""Protobuf values to typed Arrow: payloads written by confluent-kafka's
ProtobufSerializer (message classes protoc builds from .proto text) through the test
registry, decoded rows equal to the protobuf runtime's own reading of the same bytes
walked as spark-protobuf types it (tests/support/protobuf_shapes.py); random messages and
merged ones (concatenated bodies, as protobuf defines merging) likewise."""

from __future__ import annotations

import datetime

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from kafkawire.errors import PayloadDecodeError, SchemaResolutionError
from kafkawire.registry.client import SchemaReference, SchemaRegistryClient, clear_cache
from kafkawire.registry.wire import frame
from support.protobuf_shapes import FILES, build, oracle_rows, rows
from support.schema_registry import RegistryServer

pa = pytest.importorskip("pyarrow")
pytest.importorskip("google.protobuf")
pytest.importorskip("grpc_tools")

pytestmark = pytest.mark.in_process

INT32 = st.integers(-(2**31), 2**31 - 1)
INT64 = st.integers(-(2**63), 2**63 - 1)


def _orders():
    """Orders that between them set every field, each way it can be set."""
    common, order, _legacy, _ = build()
    Order = order.Order
    full = Order(
        i32=-5,
        i64=-(2**40),
        u32=2**32 - 1,
        u64=2**64 - 1,
        s32=-(2**31),
        s64=2**63 - 1,
        f32=2**32 - 1,
        f64=2**64 - 1,
        sf32=-7,
        sf64=-(2**63),
        fl=1.5,
        db=-0.0,
        ok=True,
        name="zoë ☃",
        raw=b"\x00\xff",
        status=Order.SHIPPED,
        level=common.HIGH,
        first_line=Order.Line(sku="a", qty=2, notes=["x", ""], status=Order.PAID),
        lines=[Order.Line(sku="b"), Order.Line()],
        ids=[0, -1, 2**62],
        tags=["t", ""],
        history=[Order.NEW, Order.PAID],
        counts={"a": 1, "b": 0},
        by_id={-3: Order.Line(sku="c"), 0: Order.Line()},
        prices={"eur": common.Money(currency="EUR", units=3, nanos=-5)},
        cash=common.Money(currency="USD"),
        maybe_count=0,
        maybe_note="",
        ratios=[1.0, float("inf"), float("nan"), -0.0],
        total=common.Money(),
    )
    full.created.FromDatetime(datetime.datetime(2024, 2, 29, 12, 0, 0, 123456))
    full.created.nanos += 789  # below a microsecond: truncated
    full.ttl.FromSeconds(-90061)
    full.ttl.nanos = -500_000
    full.w_i32.value = 0
    full.w_str.value = "w"
    full.w_bool.value = False
    full.w_db.value = 2.5
    full.w_bytes.value = b"b"
    full.w_u64.value = 2**64 - 1
    full.extra.Pack(common.Money(currency="X"))
    full.nothing.SetInParent()
    full.stamps.add(seconds=-1, nanos=999_999_999)
    full.stamps.add()
    open_enums = Order(status=7, level=-3, history=[9, 0])  # proto3 enums take unknown numbers
    return [full, Order(), Order(card="4111"), Order(later=False), open_enums, Order(name="only", i32=1)]


def _serializer(server, message_class, topic="orders"):
    from confluent_kafka.schema_registry import SchemaRegistryClient as ConfluentClient
    from confluent_kafka.schema_registry.protobuf import ProtobufSerializer
    from confluent_kafka.serialization import MessageField, SerializationContext

    serializer = ProtobufSerializer(
        message_class, ConfluentClient({"url": server.url}), {"use.deprecated.format": False}
    )
    ctx = SerializationContext(topic, MessageField.VALUE)
    return lambda m: serializer(m, ctx)


def test_serializer_payloads_decode_as_the_runtime_reads_them(backend):
    from kafkawire.registry.protobuf import RegistryProtobufDecoder

    _, order, _, _ = build()
    clear_cache()
    messages = _orders()
    with RegistryServer() as server:
        write = _serializer(server, order.Order)
        payloads = [write(m) for m in messages] + [None]
        decoder = RegistryProtobufDecoder.for_topic(SchemaRegistryClient(server.url), "orders")
        column = decoder.decode(payloads)
    runtime = [order.Order.FromString(p[6:]) for p in payloads[:-1]]  # past the header and [0]
    assert rows(column) == oracle_rows(runtime + [None])
    types = {f.name: str(f.type) for f in column.type}
    assert types["u64"] == "int64" and types["s32"] == "int32" and types["status"] == "string"
    assert types["created"] == "timestamp[us, tz=UTC]" and types["ttl"] == "duration[us]"
    assert types["w_i32"] == "int32" and types["w_bytes"] == "binary"
    assert types["by_id"].startswith("map<int64, struct<sku: string")
    assert types["extra"] == "struct<type_url: string, value: binary>"
    assert "nothing" not in types  # a message of no fields: Spark leaves it out
    assert column.type.field("ids").type == pa.list_(pa.field("element", pa.int64(), nullable=False))
    assert rows(column)[4]["status"] == "UNKNOWN_ENUM_VALUE_Status_7"


def test_a_second_message_of_the_file_by_its_indexes(backend):
    from kafkawire.registry.protobuf import RegistryProtobufDecoder

    _, order, _, _ = build()
    clear_cache()
    receipt = order.Receipt(order_name="r", line=order.Order.Line(sku="s", qty=3))
    with RegistryServer() as server:
        payload = _serializer(server, order.Receipt, "receipts")(receipt)
        assert payload[5:7] == b"\x02\x02"  # one index: 1
        client = SchemaRegistryClient(server.url)
        decoder = RegistryProtobufDecoder(client, subject="receipts-value", message="shop.Receipt")
        assert rows(decoder.decode([payload])) == oracle_rows([receipt])
        # the column of the first message (Order) refuses a Receipt, naming its row
        with pytest.raises(
            PayloadDecodeError, match=r"the message shop.Receipt, not the column's shop.Order"
        ):
            RegistryProtobufDecoder(client, subject="receipts-value").decode([payload], offsets=[41])
        with pytest.raises(PayloadDecodeError, match="no such message"):
            decoder.decode([frame(decoder.reader_id, b"", [7])])


def test_proto_text_with_references_as_a_registry_returns_it(backend):
    """A registry that holds .proto text (as Confluent's returns schemas) and a
    reference per imported file: the serializer's bodies, framed with that schema's id."""
    from kafkawire.registry.protobuf import RegistryProtobufDecoder

    _, order, _, _ = build()
    clear_cache()
    messages = _orders()
    with RegistryServer() as server:
        client = SchemaRegistryClient(server.url)
        client.register("common.proto", FILES["common.proto"], "PROTOBUF")
        sid = client.register(
            "orders-value",
            FILES["order.proto"],
            "PROTOBUF",
            [SchemaReference("common.proto", "common.proto", 1)],
        )
        payloads = [frame(sid, m.SerializeToString(), [0]) for m in messages]
        column = RegistryProtobufDecoder(client, subject="orders-value").decode(payloads)
    assert rows(column) == oracle_rows(messages)


def test_descriptor_set_and_proto_text_give_the_same_column(backend):
    from kafkawire.protobuf.decode import decoder, pool_from_proto

    _, order, _, descriptors = build()
    messages = _orders()
    bodies = [m.SerializeToString() for m in messages]
    from_set = decoder(descriptors, "shop.Order")
    from_text = decoder(
        {"order.proto": FILES["order.proto"], "common.proto": FILES["common.proto"]}, "shop.Order"
    )
    assert from_set.arrow_type == from_text.arrow_type
    assert rows(from_set.decode(bodies)) == rows(from_text.decode(bodies)) == oracle_rows(messages)
    framed = decoder(descriptors, "shop.Order", framed=True).decode([frame(9, b, [0]) for b in bodies])
    assert rows(framed) == oracle_rows(messages)
    assert "shop.common.Level" in pool_from_proto(dict(FILES)).enums


def test_proto2_defaults_required_and_closed_enums(backend):
    from kafkawire.protobuf.decode import decoder

    _, _, legacy, descriptors = build()
    Item = legacy.Item
    items = [
        Item(id="a"),
        Item(id="b", count=0, label="", color=Item.RED, shade=Item.BLUE, xs=[1, 2], flag=False),
    ]
    d = decoder({"legacy.proto": FILES["legacy.proto"]})
    bodies = [i.SerializeToString() for i in items]
    expected = oracle_rows(items)
    assert rows(d.decode(bodies)) == expected
    assert expected[0]["count"] == 7 and expected[0]["color"] == "GREEN" and expected[0]["shade"] is None
    assert d.arrow_type.field("id").nullable is False
    with pytest.raises(PayloadDecodeError, match="required field 1 is missing"):
        d.decode([Item(count=1).SerializePartialToString()])
    assert rows(decoder(descriptors, "legacy.Item").decode(bodies)) == expected
    # a closed enum's unknown number: the runtime keeps it among the unknown fields (the
    # field reads as absent), and from_protobuf refuses a value whose unknown fields have
    # a number of the schema's
    unknown_color = Item(id="c").SerializeToString() + b"\x20\x09"
    assert not Item.FromString(unknown_color).HasField("color")
    with pytest.raises(PayloadDecodeError, match="field 4 at byte 3: 9 is none of its closed enum's values"):
        d.decode([unknown_color])


def test_a_known_field_of_another_wire_type_is_refused(backend):
    """As from_protobuf refuses it: the runtime keeps it among the unknown fields."""
    from kafkawire.protobuf.decode import decoder

    d = decoder(build()[3], "shop.Order")
    with pytest.raises(PayloadDecodeError, match="field 14 at byte 2 has wire type 5, not its type's 2"):
        d.decode([b"\x08\x01\x75\x00\x00\x00\x00"])  # name (a string) as a fixed32
    with pytest.raises(PayloadDecodeError, match="field 20 at byte 2 has wire type 5, not its type's 0"):
        d.decode([b"\x08\x01\xa5\x01\x00\x00\x00\x00"])  # ids (repeated int64) as a fixed32


def test_recursive_and_unsupported_schemas_are_refused():
    from kafkawire.protobuf.decode import decoder

    with pytest.raises(SchemaResolutionError, match="recursive"):
        decoder('syntax = "proto3"; message Node { string v = 1; Node next = 2; }')
    with pytest.raises(SchemaResolutionError, match="recursive"):
        decoder(
            'syntax = "proto3"; import "google/protobuf/struct.proto"; message M { google.protobuf.Struct s = 1; }'
        )
    with pytest.raises(SchemaResolutionError, match="not defined"):
        decoder('syntax = "proto3"; message M { Missing m = 1; }')
    with pytest.raises(SchemaResolutionError, match="not given"):
        decoder('syntax = "proto3"; import "elsewhere.proto"; message M { int32 x = 1; }')
    with pytest.raises(SchemaResolutionError, match="editions"):
        decoder('edition = "2023"; message M { int32 x = 1; }')


# -- random messages ---------------------------------------------------------------------


@st.composite
def orders(draw):
    common, order, _, _ = build()
    Order = order.Order
    m = Order()
    for name, strategy in (
        ("i32", INT32),
        ("i64", INT64),
        ("u32", st.integers(0, 2**32 - 1)),
        ("u64", st.integers(0, 2**64 - 1)),
        ("s32", INT32),
        ("s64", INT64),
        ("f32", st.integers(0, 2**32 - 1)),
        ("sf64", INT64),
        ("fl", st.floats(width=32)),
        ("db", st.floats()),
        ("ok", st.booleans()),
        ("name", st.text(max_size=8)),
        ("raw", st.binary(max_size=8)),
        ("status", st.integers(-3, 4)),
        ("maybe_count", INT32),
    ):
        if draw(st.booleans()):
            setattr(m, name, draw(strategy))
    for _ in range(draw(st.integers(0, 3))):
        m.lines.add(
            sku=draw(st.text(max_size=3)),
            qty=draw(INT32),
            notes=draw(st.lists(st.text(max_size=2), max_size=2)),
        )
    m.ids.extend(draw(st.lists(INT64, max_size=4)))
    m.ratios.extend(draw(st.lists(st.floats(), max_size=3)))
    m.history.extend(draw(st.lists(st.integers(0, 5), max_size=3)))
    for k, v in draw(st.dictionaries(st.text(max_size=3), INT32, max_size=3)).items():
        m.counts[k] = v
    for k in draw(st.lists(INT64, max_size=2)):
        m.by_id[k].sku = draw(st.text(max_size=2))
    choice = draw(st.integers(0, 3))
    if choice == 1:
        m.card = draw(st.text(max_size=4))
    elif choice == 2:
        m.cash.units = draw(INT64)
    elif choice == 3:
        m.later = draw(st.booleans())
    if draw(st.booleans()):
        m.created.seconds = draw(st.integers(-62135596800, 253402300799))
        m.created.nanos = draw(st.integers(0, 999_999_999))
    if draw(st.booleans()):
        m.ttl.seconds = draw(st.integers(-(10**11), 10**11))
        m.ttl.nanos = draw(st.integers(-999_999_999, 999_999_999))
    if draw(st.booleans()):
        m.w_str.value = draw(st.text(max_size=3))
    if draw(st.booleans()):
        m.w_i32.value = draw(INT32)
    return m


@settings(
    max_examples=150,
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.function_scoped_fixture],
)
@given(st.lists(orders(), min_size=1, max_size=4))
def test_random_messages_decode_as_the_runtime_reads_them(backend, messages):
    from kafkawire.protobuf.decode import decoder

    _, order, _, descriptors = build()
    bodies = [m.SerializeToString() for m in messages]
    d = decoder(descriptors, "shop.Order")
    assert rows(d.decode(bodies)) == oracle_rows([order.Order.FromString(b) for b in bodies])
    # merging: one body after another is one message, singular fields the last ones,
    # repeated ones joined, message fields merged, a oneof's last member kept
    merged = b"".join(bodies)
    assert rows(d.decode([merged])) == oracle_rows([order.Order.FromString(merged)])


def test_permissive_decoding_nulls_the_rows_that_do_not_decode(backend):
    from kafkawire.protobuf.decode import decoder

    _, order, _, descriptors = build()
    messages = _orders()[:3]
    bodies = [m.SerializeToString() for m in messages]
    column, reasons = decoder(descriptors, "shop.Order").decode_permissive(
        [bodies[0], b"\x72\x05ab", bodies[1], b"\x08", bodies[2]],
        topic="orders",
        offsets=[10, 11, 12, 13, 14],
    )
    got = rows(column)
    assert got[1] is None and got[3] is None
    assert [got[0], got[2], got[4]] == oracle_rows(messages)
    assert "offset 11" in reasons[1].as_py() and "length-delimited" in reasons[1].as_py()
    assert "offset 13" in reasons[3].as_py() and reasons[0].as_py() is None
