"""Protobuf writes: Arrow rows typed as the decoder types a message, written as the
protobuf runtime serializes the same message (``SerializeToString(deterministic=True)``,
byte for byte), framed as confluent-kafka's ProtobufSerializer frames them and read
back by its ProtobufDeserializer through the test registry; random messages likewise;
values the message cannot hold name their field and row."""

from __future__ import annotations

import base64
import datetime
import math

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from kafkawire.errors import ProtobufValueError, SchemaRegistryError, SchemaResolutionError
from kafkawire.registry.client import SchemaRegistryClient, clear_cache
from support.protobuf_shapes import build, rows
from support.schema_registry import RegistryServer
from test_protobuf_values import _orders, _serializer, orders

pa = pytest.importorskip("pyarrow")
pytest.importorskip("google.protobuf")
pytest.importorskip("grpc_tools")

pytestmark = pytest.mark.in_process


def _writable(m):
    """``m`` as its Arrow row can say it: a field of no fields (Empty) is no column, and
    a Timestamp or Duration is microseconds (as the decoder reads it), written back in
    the runtime's normal form (a Timestamp's nanos in [0, 1e9), a Duration's of the
    sign of its seconds)."""
    m = type(m).FromString(m.SerializeToString())
    m.ClearField("nothing")
    times = [m.created] * m.HasField("created") + list(m.stamps)
    for t in times + [m.ttl] * m.HasField("ttl"):
        micros = t.seconds * 1_000_000 + int(math.copysign(abs(t.nanos) // 1000, t.nanos))
        if t in times:
            t.seconds, rest = divmod(micros, 1_000_000)
        else:
            t.seconds = -(-micros // 1_000_000) if micros < 0 else micros // 1_000_000
            rest = micros - t.seconds * 1_000_000
        t.nanos = rest * 1000
    return m


def _columns(messages):
    """The runtime's deterministic bodies of ``messages`` and their decoded column."""
    from kafkawire.protobuf.decode import decoder

    *_, descriptors = build()
    bodies = [m.SerializeToString(deterministic=True) for m in messages]
    return bodies, decoder(descriptors, "shop.Order").decode(bodies)


def _encoder(message="shop.Order"):
    from kafkawire.protobuf.encode import ProtobufArrowEncoder
    from kafkawire.protobuf.schema import parse_descriptor_set

    *_, descriptors = build()
    return ProtobufArrowEncoder(parse_descriptor_set(descriptors), message)


def test_rows_are_written_as_the_runtime_serializes_them(backend):
    bodies, column = _columns([_writable(m) for m in _orders()])
    assert _encoder().encode(column) == bodies


@settings(
    max_examples=150,
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.function_scoped_fixture],
)
@given(st.lists(orders(), min_size=1, max_size=4))
def test_random_messages_are_written_as_the_runtime_serializes_them(backend, messages):
    bodies, column = _columns([_writable(m) for m in messages])
    assert _encoder().encode(column) == bodies


def test_a_column_built_by_hand(backend):
    """Rows written from Python values, read by the runtime as the message built alike."""
    import datetime

    common, order, _, _ = build()
    Order = order.Order
    utc = datetime.timezone.utc
    rows = [
        {
            "i32": -1,
            "u32": -1,  # Java's signed view of 2**32 - 1
            "status": "PAID",
            "level": "UNKNOWN_ENUM_VALUE_Level_9",
            "lines": [{"sku": "a", "qty": 2, "notes": ["n"], "status": "SHIPPED"}],
            "counts": [("x", 0)],
            "by_id": [(5, {"sku": "b", "qty": None, "notes": [], "status": None})],
            "created": datetime.datetime(1969, 12, 31, 23, 59, 59, 500000, tzinfo=utc),
            "ttl": datetime.timedelta(seconds=-1, microseconds=250000),
            "w_i32": 0,
            "maybe_count": 0,
            "cash": {"currency": "EUR", "units": 1, "nanos": -2},
        },
        {"name": "", "i64": 0, "ok": False, "w_str": None},
    ]
    *_, descriptors = build()
    from kafkawire.protobuf.decode import decoder

    arrow_type = decoder(descriptors, "shop.Order").arrow_type
    column = pa.array(rows, arrow_type)
    bodies = _encoder().encode(column)
    want = Order(
        i32=-1,
        u32=2**32 - 1,
        status=Order.PAID,
        level=9,
        lines=[Order.Line(sku="a", qty=2, notes=["n"], status=Order.SHIPPED)],
        counts={"x": 0},
        by_id={5: Order.Line(sku="b")},
        maybe_count=0,
        cash=common.Money(currency="EUR", units=1, nanos=-2),
    )
    want.created.seconds, want.created.nanos = -1, 500_000_000
    want.ttl.seconds, want.ttl.nanos = 0, -750_000_000
    want.w_i32.SetInParent()
    assert bodies[0] == want.SerializeToString(deterministic=True)
    assert bodies[1] == b""  # proto3 defaults without presence are left out


def test_proto2_required_and_defaults(backend):
    _, _, legacy, _ = build()
    column = pa.array(
        [{"id": "a", "count": 7, "xs": [1, -1]}, {"id": "b", "label": None, "color": "BLUE"}],
        _legacy_type(),
    )
    bodies = _encoder("legacy.Item").encode(column)
    # proto2: a field with presence is written even at its default, repeated numbers unpacked
    assert bodies[0] == legacy.Item(id="a", count=7, xs=[1, -1]).SerializeToString()
    assert bodies[1] == legacy.Item(id="b", color=legacy.Item.BLUE).SerializeToString()


def test_enums_from_their_numbers(backend):
    _, order, legacy, _ = build()
    status = pa.array([{"status": 7}, {"status": 0}, {"status": 2}], pa.struct([("status", pa.int32())]))
    assert _encoder().encode(status) == [order.Order(status=s).SerializeToString() for s in (7, 0, 2)]
    color = pa.struct([("id", pa.string()), ("color", pa.int64())])
    assert _encoder("legacy.Item").encode(pa.array([{"id": "a", "color": 3}], color)) == [
        legacy.Item(id="a", color=3).SerializeToString()
    ]
    with pytest.raises(ProtobufValueError, match="row 1, field color: 9 is not a value of legacy.Item.Color"):
        _encoder("legacy.Item").encode(pa.array([{"id": "a"}, {"id": "b", "color": 9}], color))


def _legacy_type():
    from kafkawire.protobuf.decode import decoder

    *_, descriptors = build()
    return decoder(descriptors, "legacy.Item").arrow_type


@pytest.mark.parametrize(
    "message, row, field, reason",
    [
        ("legacy.Item", {"id": None}, "id", "a null in a required field"),
        ("shop.Order", {"i32": 2**31}, "i32", "2147483648 does not fit in int32"),
        ("shop.Order", {"u32": -(2**31) - 1}, "u32", "does not fit in uint32"),
        ("shop.Order", {"status": "LOST"}, "status", "'LOST' is not a value of shop.Order.Status"),
        ("shop.Order", {"lines": [{"qty": 1}, {"qty": 2**40}]}, "lines[].qty", "does not fit in int32"),
        ("shop.Order", {"card": "x", "later": True}, "", "more than one of the oneof's members"),
        ("shop.Order", {"counts": [("k", None)]}, "counts{}", "a null map value"),
        ("shop.Order", {"ids": [1, None]}, "ids[]", "a null item"),
    ],
)
def test_values_the_message_cannot_hold_name_their_field_and_row(backend, message, row, field, reason):
    from kafkawire.errors import EncodeError

    types = {k: pa.int64() if k in ("i32", "u32") else None for k in row}
    fields = []
    base = _legacy_type() if message == "legacy.Item" else None
    if base is None:
        from kafkawire.protobuf.decode import decoder

        *_, descriptors = build()
        base = decoder(descriptors, message).arrow_type
    for f in base:
        if f.name in row:
            t = types.get(f.name) or f.type
            if f.name == "lines":
                t = pa.list_(pa.struct([pa.field("qty", pa.int64())]))
            if f.name in ("counts", "ids"):
                t = pa.map_(pa.string(), pa.int32()) if f.name == "counts" else pa.list_(pa.int64())
            fields.append(pa.field(f.name, t))
    column = pa.array([{}, row] if message != "legacy.Item" else [{"id": "ok"}, row], pa.struct(fields))
    with pytest.raises(ProtobufValueError) as exc:
        _encoder(message).encode(column)
    assert isinstance(exc.value, EncodeError)
    assert (exc.value.row, exc.value.field) == (1, field)
    assert reason in exc.value.reason


def test_arrow_types_the_message_cannot_take_are_refused(backend):
    with pytest.raises(SchemaResolutionError, match="not in the message"):
        _encoder().encode(pa.array([{"nope": 1}]))
    with pytest.raises(SchemaResolutionError, match="field name"):
        _encoder().encode(pa.array([{"name": 1}]))


# -- framed, with the registry ------------------------------------------------------------


def _deserializer(server, message_class):
    from confluent_kafka.schema_registry import SchemaRegistryClient as ConfluentClient
    from confluent_kafka.schema_registry.protobuf import ProtobufDeserializer
    from confluent_kafka.serialization import MessageField, SerializationContext

    deserializer = ProtobufDeserializer(message_class, {}, ConfluentClient({"url": server.url}))
    ctx = SerializationContext("orders", MessageField.VALUE)
    return lambda v: deserializer(v, ctx)


def test_framed_values_read_back_by_confluents_deserializer(backend):
    """The subject's latest version (registered by Confluent's serializer, with a
    reference per imported file), and a second message of the file by name."""
    from kafkawire.registry.protobuf import RegistryProtobufDecoder, RegistryProtobufEncoder

    _, order, _, _ = build()
    clear_cache()
    messages = [_writable(m) for m in _orders()]
    _, column = _columns(messages)
    column = pa.concat_arrays([column, pa.nulls(1, column.type)])
    with RegistryServer() as server:
        _serializer(server, order.Order)(messages[0])  # registers orders-value and common.proto
        client = SchemaRegistryClient(server.url)
        encoder = RegistryProtobufEncoder(client, topic="orders")
        values = encoder.encode(column)
        read = _deserializer(server, order.Order)
        assert [read(v) for v in values.to_pylist()[:-1]] == messages
        assert values[-1].as_py() is None
        assert rows(RegistryProtobufDecoder(client, subject="orders-value").decode(values)) == rows(column)
        # another message of the same file: message indexes [1]
        receipt = order.Receipt(order_name="r", line=order.Order.Line(sku="s", qty=3))
        receipts = RegistryProtobufEncoder(client, subject="orders-value", message="shop.Receipt")
        assert receipts.message_indexes == [1]
        value = receipts.encode(pa.array([{"order_name": "r", "line": {"sku": "s", "qty": 3}}]))[0].as_py()
        assert value[5:7] == b"\x02\x02"
        assert read_receipt(server, order)(value) == receipt
        decoded = RegistryProtobufDecoder(client, subject="orders-value", message="shop.Receipt").decode(
            [value]
        )
        assert decoded.to_pylist()[0]["order_name"] == "r"


def read_receipt(server, order):
    return _deserializer(server, order.Receipt)


def test_auto_register_and_lookup_of_a_given_schema(backend):
    """A schema given as the registry holds Confluent's (a base64 descriptor) and as
    .proto text: registered with auto_register, looked up without it."""
    from kafkawire.registry.protobuf import RegistryProtobufDecoder, RegistryProtobufEncoder

    _, _, legacy, _ = build()
    clear_cache()
    descriptor = base64.b64encode(legacy.DESCRIPTOR.serialized_pb).decode("ascii")
    text = 'syntax = "proto3"; package t; message M { sint64 n = 1; repeated fixed32 xs = 2; }'
    with RegistryServer() as server:
        client = SchemaRegistryClient(server.url)
        with pytest.raises(SchemaRegistryError, match="not registered under the subject 'legacy-value'"):
            RegistryProtobufEncoder(client, topic="legacy", schema=descriptor).encode(
                pa.array([{"id": "a"}], _legacy_type())
            )
        items = pa.array([{"id": "a", "count": 7}, {"id": "b", "xs": [3]}], _legacy_type())
        values = RegistryProtobufEncoder(
            client, topic="legacy", schema=descriptor, auto_register=True
        ).encode(items)
        again = RegistryProtobufEncoder(client, topic="legacy", schema=descriptor).encode(items)
        assert values.equals(again)
        read = _deserializer(server, legacy.Item)
        assert [read(v) for v in values.to_pylist()] == [
            legacy.Item(id="a", count=7),
            legacy.Item(id="b", xs=[3]),
        ]
        ms = pa.array(
            [{"n": -3, "xs": [1, 2**32 - 1]}], pa.struct([("n", pa.int64()), ("xs", pa.list_(pa.uint32()))])
        )
        framed = RegistryProtobufEncoder(client, subject="m", schema=text, auto_register=True).encode(ms)
        assert framed[0].as_py()[6:] == bytes.fromhex("0805" + "1208" + "01000000" + "ffffffff")
        back = RegistryProtobufDecoder(client, subject="m").decode(framed)
        assert back.to_pylist() == [{"n": -3, "xs": [1, -1]}]


def test_a_given_schema_with_imports_references_them_as_confluents_serializer_does(backend):
    """Files by name: the imported ones under the subjects of their names, referenced
    by the schema; found again without auto_register when Confluent's serializer
    registered them, and registered as text with it."""
    from kafkawire.registry.protobuf import RegistryProtobufDecoder, RegistryProtobufEncoder
    from support.protobuf_shapes import FILES

    _, order, _, _ = build()
    clear_cache()
    messages = [_writable(m) for m in _orders()]
    _, column = _columns(messages)
    with RegistryServer() as server:
        client = SchemaRegistryClient(server.url)
        payload = _serializer(server, order.Order)(messages[0])
        registered = {
            "order.proto": client.schema_version("orders-value").schema,
            "common.proto": client.schema_version("common.proto").schema,
        }
        values = RegistryProtobufEncoder(client, topic="orders", schema=registered).encode(column)
        assert values[0].as_py()[:6] == payload[:6]  # the id Confluent's serializer registered
        read = _deserializer(server, order.Order)
        assert [read(v) for v in values.to_pylist()] == messages
        text = {"order.proto": FILES["order.proto"], "common.proto": FILES["common.proto"]}
        framed = RegistryProtobufEncoder(client, subject="texts", schema=text, auto_register=True).encode(
            column
        )
        latest = client.schema_version("texts")
        assert [(r.name, r.subject) for r in latest.references] == [("common.proto", "common.proto")]
        assert client.subject_versions("common.proto") == [1, 2]  # the descriptor, then the text
        assert rows(RegistryProtobufDecoder(client, subject="texts").decode(framed)) == rows(column)


# -- random rows, read by the runtime ------------------------------------------------------

I32, I64 = st.integers(-(2**31), 2**31 - 1), st.integers(-(2**63), 2**63 - 1)
_STATUS = st.sampled_from(["NEW", "PAID", "SHIPPED", "UNKNOWN_ENUM_VALUE_Status_7"])
_LINE = st.fixed_dictionaries(
    {"sku": st.none() | st.text(max_size=3), "qty": st.none() | I32, "status": st.none() | _STATUS},
    optional={"notes": st.lists(st.text(max_size=2), max_size=2)},
)
_MICROS = st.integers(-(2**62) // 1000, 2**62 // 1000)
ROWS = st.fixed_dictionaries(
    {},
    optional={
        "i32": I32,
        "i64": I64,
        "u32": I32,  # Java's signed view, as the decoder gives it
        "u64": I64,
        "s32": I32,
        "s64": I64,
        "f32": I32,
        "f64": I64,
        "sf32": I32,
        "sf64": I64,
        "fl": st.floats(width=32, allow_nan=False),
        "db": st.floats(allow_nan=False),
        "ok": st.booleans(),
        "name": st.text(max_size=5),
        "raw": st.binary(max_size=5),
        "status": _STATUS,
        "first_line": _LINE,
        "lines": st.lists(_LINE, max_size=3),
        "ids": st.lists(I64, max_size=3),
        "tags": st.lists(st.text(max_size=2), max_size=3),
        "history": st.lists(_STATUS, max_size=3),
        "counts": st.dictionaries(st.text(max_size=2), I32, max_size=3).map(lambda d: sorted(d.items())),
        "maybe_count": I32,
        "card": st.text(max_size=3),
        "created": _MICROS.map(lambda us: _EPOCH + datetime.timedelta(microseconds=us)),
        "ttl": _MICROS.map(lambda us: datetime.timedelta(microseconds=us)),
        "w_i32": I32,
        "w_str": st.text(max_size=3),
    },
)


def _as_read(row, descriptor, names=None):
    """``row`` as the runtime's reading of its message gives it back: a proto3 field
    without presence null at its default, an absent repeated field empty, maps as dicts
    (``names``: the fields the row's type has)."""
    out = {}
    for fd in descriptor.fields:
        if names is not None and fd.name not in names:
            continue
        v = row.get(fd.name)
        if fd.message_type is not None and fd.message_type.GetOptions().map_entry:
            out[fd.name] = dict(v or [])
        elif fd.is_repeated:
            out[fd.name] = [_as_read(x, fd.message_type) if isinstance(x, dict) else x for x in v or []]
        elif isinstance(v, dict):
            out[fd.name] = _as_read(v, fd.message_type)
        elif not fd.has_presence and v is not None and _is_default(fd, v):
            out[fd.name] = None
        else:
            out[fd.name] = v
    return out


def _is_default(fd, v):
    if fd.enum_type is not None:
        return v == fd.enum_type.values[0].name
    if isinstance(v, float):
        return v == 0 and math.copysign(1, v) > 0
    return v == fd.default_value


_EPOCH = datetime.datetime(1970, 1, 1, tzinfo=datetime.timezone.utc)


def _order_type():
    from kafkawire.protobuf.decode import decoder

    *_, descriptors = build()
    return decoder(descriptors, "shop.Order").arrow_type


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(st.lists(ROWS, min_size=1, max_size=4))
def test_random_rows_read_by_the_runtime_as_they_were(backend, rows):
    from support.protobuf_shapes import expected

    _, order, _, _ = build()
    bodies = _encoder().encode(pa.array(rows, _order_type()))
    for row, body in zip(rows, bodies):
        want = _as_read(row, order.Order.DESCRIPTOR, {f.name for f in _order_type()})
        got = expected(order.Order.FromString(body))
        assert {k: got[k] for k in want} == want
