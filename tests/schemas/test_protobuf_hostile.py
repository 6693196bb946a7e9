"""Hostile Protobuf values: truncated, bad message indexes, deep nesting, huge lengths,
mutated and random bytes.  Each gives a :class:`~kafkawire.errors.SchemaFramingError`
(or a decoded column), never another exception, a crash or an allocation out of
proportion to the input; both backends give the same answer."""

from __future__ import annotations

import tracemalloc

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from kafkawire import _backend
from kafkawire.errors import (
    BadMagicByteError,
    KafkaWireError,
    PayloadDecodeError,
    SchemaFramingError,
    TruncatedPayloadError,
)
from kafkawire.registry.wire import frame
from support.protobuf_shapes import build
from test_protobuf_values import _orders

pa = pytest.importorskip("pyarrow")
pytest.importorskip("google.protobuf")
pytest.importorskip("grpc_tools")

pytestmark = pytest.mark.in_process


def _decoder(framed=False):
    from kafkawire.protobuf.decode import decoder

    return decoder(build()[3], "shop.Order", framed=framed)


def _outcome(payloads, framed=False):
    """The decoded column (its Arrow IPC bytes), or the class and message of the error."""
    try:
        column = _decoder(framed).decode(payloads)
        column.validate(full=True)
        return pa.RecordBatch.from_struct_array(column).serialize().to_pybytes()
    except SchemaFramingError as exc:
        return (type(exc), str(exc))


def _both(payloads, framed=False):
    answers = []
    for name in ("cython", "python") if _backend.fast_available() else ("python",):
        with _backend.use(name):
            answers.append(_outcome(payloads, framed))
    assert all(a == answers[0] for a in answers), answers
    return answers[0]


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


def _varint(n):
    out = bytearray()
    while n > 0x7F:
        out.append(n & 0x7F | 0x80)
        n >>= 7
    out.append(n)
    return bytes(out)


def _group(depth):
    """An unknown field 99 holding groups ``depth`` deep."""
    return _varint(99 << 3 | 3) * depth + _varint(99 << 3 | 4) * depth


@pytest.mark.parametrize(
    "payload, error, words",
    [
        (_varint(14 << 3 | 2) + _varint(2**62), TruncatedPayloadError, "of 4611686018427387904 bytes"),
        (_varint(19 << 3 | 2) + _varint(2**40), TruncatedPayloadError, "length-delimited field"),
        (_varint(20 << 3 | 2) + _varint(2**31) + b"\x01", TruncatedPayloadError, "length-delimited"),
        (_varint(99 << 3 | 2) + _varint(2**63), TruncatedPayloadError, "length-delimited"),
        (_varint(1 << 3) + b"\xff" * 11, PayloadDecodeError, "longer than 10 bytes"),
        (_varint(1 << 3), TruncatedPayloadError, "inside a varint"),
        (_varint(8 << 3 | 1) + b"\x00" * 7, TruncatedPayloadError, "8-byte field"),
        (b"\x00", PayloadDecodeError, "field number 0"),
        (_varint(99 << 3 | 6), PayloadDecodeError, "wire type 6"),
        (_group(200), PayloadDecodeError, "groups nest deeper than 100"),
        (_varint(99 << 3 | 3) + _varint(98 << 3 | 4), PayloadDecodeError, "not the one open"),
        (_varint(99 << 3 | 3) * 3, TruncatedPayloadError, "varint"),
        (b"\x92\x01\x03" + b"\x0a\x01\xff", PayloadDecodeError, "not UTF-8"),  # first_line.sku
    ],
)
def test_hostile_bodies_give_framing_errors_before_allocating(backend, payload, error, words):
    with pytest.raises(error, match=words):
        _decoder().decode([payload])
    assert _peak(_decoder().decode, [payload]) < 512 * 1024
    _both([payload])


def test_groups_as_deep_as_the_limit_are_skipped(backend):
    assert _decoder().decode([_group(100) + b"\x08\x05"]).to_pylist()[0]["i32"] == 5


@pytest.mark.parametrize(
    "framed, error, words",
    [
        (b"", TruncatedPayloadError, "shorter than its 5-byte header"),
        (b"\x01\x00\x00\x00\x01\x00", BadMagicByteError, "magic byte 1"),
        (b"\x00\x00\x00\x00\x01", TruncatedPayloadError, "message indexes end"),
        (b"\x00\x00\x00\x00\x01\x02", TruncatedPayloadError, "message indexes end"),
        (b"\x00\x00\x00\x00\x01\x03", PayloadDecodeError, "count -2"),
        (b"\x00\x00\x00\x00\x01" + _varint(2 * 300), PayloadDecodeError, "count 300"),
        (b"\x00\x00\x00\x00\x01\x02\x01", PayloadDecodeError, "negative"),
        (b"\x00\x00\x00\x00\x01\x02\xff\xff\xff\xff\xff\xff", PayloadDecodeError, "overlong"),
    ],
)
def test_bad_headers_and_message_indexes(backend, framed, error, words):
    with pytest.raises(error, match=words):
        _decoder(framed=True).decode([framed])
    _both([framed], framed=True)


@pytest.mark.parametrize(
    "seconds, nanos, micros",
    [
        (9223372036854, 775807000, 2**63 - 1),
        (9223372036854, 775808000, None),
        (-9223372036854, -775808999, -(2**63)),
        (-9223372036855, 224192000, -(2**63)),
        (-9223372036855, 224191999, None),
        (-(2**63), 0, None),
    ],
)
def test_timestamps_at_the_ends_of_the_microsecond_range(backend, seconds, nanos, micros):
    _, order, _, _ = build()
    body = order.Order(created={"seconds": seconds, "nanos": nanos}).SerializeToString()
    if micros is None:
        with pytest.raises(PayloadDecodeError, match="out of the microsecond range"):
            _decoder().decode([body])
    else:
        assert _decoder().decode([body]).field("created").cast(pa.int64()).to_pylist() == [micros]


def test_allocation_stays_in_proportion_to_the_input(backend):
    bodies = [m.SerializeToString() for m in _orders()] * 300
    size = sum(map(len, bodies))
    assert _peak(_decoder().decode, bodies) < 24 * size + 1024 * 1024


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    st.integers(0, 5),
    st.lists(st.tuples(st.integers(0, 10**6), st.integers(0, 255)), max_size=6),
    st.integers(0, 2000),
)
def test_mutated_orders_give_rows_or_a_framing_error_on_both_backends(i, flips, cut):
    payload = bytearray(_orders()[i].SerializeToString())
    for at, byte in flips if payload else ():
        payload[at % len(payload)] = byte
    _both([bytes(payload[:cut])])
    _both([frame(1, bytes(payload), [0])], framed=True)


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.lists(st.binary(max_size=64), min_size=1, max_size=4))
def test_random_bytes_give_rows_or_a_framing_error_on_both_backends(payloads):
    _both(payloads)
    _both(payloads, framed=True)


def test_every_truncation_of_every_order_on_both_backends():
    for m in _orders():
        body = m.SerializeToString()
        for cut in range(len(body)):
            _both([body[:cut]])
