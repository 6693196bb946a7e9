"""Hostile Avro values: lengths past the end, huge counts, bad varints, mutated bytes,
deep schemas.  Each gives a :class:`~kafkawire.errors.SchemaFramingError` (or a
decoded column), never another exception, a crash or an allocation out of proportion
to the input; both backends give the same answer."""

import io
import tracemalloc

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from support.avro_shapes import ORDER, order, parsed, schemas, values
from kafkawire import _backend
from kafkawire.avro.decode import decode
from kafkawire.avro.encode import zigzag
from kafkawire.errors import (
    KafkaWireError,
    PayloadDecodeError,
    SchemaFramingError,
    SchemaResolutionError,
    TruncatedPayloadError,
)

pa = pytest.importorskip("pyarrow")
fastavro = pytest.importorskip("fastavro")

pytestmark = pytest.mark.in_process

LIST_OF_LONGS = {
    "type": "record",
    "name": "R",
    "fields": [{"name": "xs", "type": {"type": "array", "items": "long"}}],
}
LIST_OF_NULLS = {
    "type": "record",
    "name": "R",
    "fields": [{"name": "xs", "type": {"type": "array", "items": "null"}}],
}
MAP_OF_EMPTY = {
    "type": "record",
    "name": "R",
    "fields": [
        {"name": "m", "type": {"type": "map", "values": {"type": "record", "name": "E", "fields": []}}}
    ],
}
STRING = {"type": "record", "name": "R", "fields": [{"name": "s", "type": "string"}]}


def _write(schema, record):
    buf = io.BytesIO()
    fastavro.schemaless_writer(buf, fastavro.parse_schema(schema), record)
    return buf.getvalue()


def _outcome(payloads, schema):
    """The decoded column (its Arrow IPC bytes: values Python cannot hold compare
    too), or the class and message of the error."""
    try:
        column = decode(payloads, schema)
        column.validate(full=True)
        return pa.RecordBatch.from_struct_array(column).serialize().to_pybytes()
    except SchemaFramingError as exc:
        return (type(exc), str(exc))


def _peak(fn, *args):
    tracemalloc.start()
    try:
        tracemalloc.reset_peak()
        base = tracemalloc.get_traced_memory()[0]
        try:
            fn(*args)
        except KafkaWireError:
            pass
        return tracemalloc.get_traced_memory()[1] - base
    finally:
        tracemalloc.stop()


@pytest.mark.parametrize(
    "schema, payload, error, words",
    [
        (LIST_OF_LONGS, zigzag(2**40), TruncatedPayloadError, "block of 1099511627776 items"),
        (LIST_OF_LONGS, zigzag(-(2**40)) + zigzag(3), TruncatedPayloadError, "block of 3 bytes"),
        (LIST_OF_NULLS, zigzag(2**62), PayloadDecodeError, "items of no bytes"),
        (LIST_OF_NULLS, zigzag(2**11) * 3, PayloadDecodeError, "items of no bytes"),  # blocks that add up
        (MAP_OF_EMPTY, zigzag(2**40), TruncatedPayloadError, "items"),
        (STRING, zigzag(2**62), TruncatedPayloadError, "a bytes of 4611686018427387904 bytes"),
        (STRING, zigzag(-5), PayloadDecodeError, "negative"),
        (STRING, b"\xff" * 11, PayloadDecodeError, "does not fit in 64 bits"),
    ],
)
def test_huge_counts_and_lengths_fail_before_allocating(schema, payload, error, words):
    with pytest.raises(error, match=words):
        decode([payload], schema)
    assert _peak(decode, [payload], schema) < 512 * 1024


def test_block_count_of_the_smallest_long_is_refused():
    with pytest.raises(PayloadDecodeError, match="out of range"):
        decode([b"\xff\xff\xff\xff\xff\xff\xff\xff\xff\x01"], LIST_OF_LONGS)


def test_allocation_stays_in_proportion_to_the_input():
    payloads = [_write(ORDER, order(i)) for i in range(2000)]
    size = sum(map(len, payloads))
    # the Arrow output of an order is a few times its Avro bytes (offsets, validity, padding)
    assert _peak(decode, payloads, ORDER) < 16 * size + 1024 * 1024


def test_deep_and_recursive_schemas_are_refused():
    deep = "long"
    for _ in range(120):
        deep = {"type": "array", "items": deep}
    with pytest.raises(SchemaResolutionError, match="deeper than"):
        decode([], {"type": "record", "name": "R", "fields": [{"name": "x", "type": deep}]})
    recursive = {"type": "record", "name": "Node", "fields": [{"name": "next", "type": ["null", "Node"]}]}
    with pytest.raises(SchemaResolutionError, match="recursive"):
        decode([], recursive)


def test_nesting_as_deep_as_the_limit_allows_decodes():
    deep, value = "long", 7
    for _ in range(90):
        deep, value = {"type": "array", "items": deep}, [value]
    schema = {"type": "record", "name": "R", "fields": [{"name": "x", "type": deep}]}
    assert decode([_write(schema, {"x": value})], schema).to_pylist() == [{"x": value}]


@settings(max_examples=200, suppress_health_check=[HealthCheck.too_slow])
@given(
    st.integers(0, 1000),
    st.lists(st.tuples(st.integers(0, 10**6), st.integers(0, 255)), max_size=6),
    st.integers(0, 400),
)
def test_mutated_orders_give_rows_or_a_framing_error_on_both_backends(i, flips, cut):
    payload = bytearray(_write(ORDER, order(i)))
    for at, byte in flips:
        payload[at % len(payload)] = byte
    payload = bytes(payload[: len(payload) - cut % len(payload)])
    mine = _outcome([payload], ORDER)
    with _backend.use("python"):
        assert _outcome([payload], ORDER) == mine


@settings(max_examples=80, suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large])
@given(st.data())
def test_random_schemas_with_random_bytes(data):
    schema = {"type": "record", "name": "Root", "fields": [{"name": "v", "type": data.draw(schemas())}]}
    good = [_write(schema, data.draw(values(parsed(schema))))]
    noise = data.draw(st.binary(max_size=64))
    for payloads in (good, [noise], [good[0][: len(good[0]) // 2] + noise]):
        mine = _outcome(payloads, schema)
        with _backend.use("python"):
            assert _outcome(payloads, schema) == mine
