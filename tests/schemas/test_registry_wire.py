"""Confluent's Schema Registry framing: both directions, the Protobuf message indexes,
and the errors for bad bytes naming where the value came from."""

import pytest
from hypothesis import given
from hypothesis import strategies as st

from kafkawire.errors import (
    BadMagicByteError,
    DecodeError,
    EncodeError,
    PayloadDecodeError,
    TruncatedPayloadError,
)
from kafkawire.registry import wire

pytestmark = [pytest.mark.in_process, pytest.mark.backend_independent]


def test_header_is_magic_zero_then_big_endian_id():
    assert wire.frame(0x01020304, b"body") == b"\x00\x01\x02\x03\x04body"
    assert wire.parse_header(b"\x00\x01\x02\x03\x04body") == (0x01020304, 5)


@given(st.integers(0, 2**32 - 1), st.binary(max_size=20))
def test_frame_and_parse_round_trip(schema_id, body):
    framed = wire.frame(schema_id, body)
    assert wire.parse_header(framed) == (schema_id, 5)
    assert framed[5:] == body


def test_bad_magic_names_topic_partition_offset():
    with pytest.raises(BadMagicByteError, match="topic t, partition 3, offset 42: magic byte 1, expected 0"):
        wire.parse_header(b"\x01\x00\x00\x00\x01x", "t", 3, 42)


@pytest.mark.parametrize("value", [b"", b"\x00", b"\x00\x00\x00\x01"])
def test_short_header_is_truncated(value):
    with pytest.raises(TruncatedPayloadError, match="offset 7"):
        wire.parse_header(value, "t", 0, 7)


def test_framing_errors_are_decode_errors_and_pickle():
    import pickle

    err = BadMagicByteError("magic byte 9, expected 0", "t", 1, 2)
    assert isinstance(err, DecodeError)
    again = pickle.loads(pickle.dumps(err))
    assert (type(again), str(again), again.partition) == (BadMagicByteError, str(err), 1)


def test_schema_id_out_of_range_is_refused():
    with pytest.raises(EncodeError):
        wire.frame(2**32, b"")


def test_first_message_index_path_is_one_zero_byte():
    # what Confluent's ProtobufSerializer writes for the first message of a file
    assert wire.encode_message_indexes([0]) == b"\x00"
    assert wire.decode_message_indexes(b"\x00", 0) == ([0], 1)


def test_message_indexes_are_zigzag_count_then_indexes():
    assert wire.encode_message_indexes([1]) == b"\x02\x02"
    assert wire.encode_message_indexes([2, 0, 70]) == b"\x06\x04\x00\x8c\x01"
    framed = wire.frame(9, b"msg", [2, 0, 70])
    indexes, pos = wire.decode_message_indexes(framed)
    assert (indexes, framed[pos:]) == ([2, 0, 70], b"msg")


@given(st.lists(st.integers(0, 2**31 - 1), min_size=1, max_size=10))
def test_message_indexes_round_trip(indexes):
    raw = wire.encode_message_indexes(indexes)
    assert wire.decode_message_indexes(raw, 0) == (indexes, len(raw))


@pytest.mark.parametrize(
    "raw, error",
    [
        (b"\x02", TruncatedPayloadError),  # one index announced, none there
        (b"\x01", PayloadDecodeError),  # a negative count
        (b"\x02\x01", PayloadDecodeError),  # a negative index
        (b"\xff\xff\xff\xff\xff\x01", PayloadDecodeError),  # an overlong varint
        (b"\x80\x08", PayloadDecodeError),  # 512 indexes: past any real .proto nesting
    ],
)
def test_bad_message_indexes(raw, error):
    with pytest.raises(error, match="partition 2"):
        wire.decode_message_indexes(raw, 0, "t", 2, 5)


@given(st.binary(max_size=12))
def test_any_bytes_give_indexes_or_a_decode_error(raw):
    try:
        wire.decode_message_indexes(raw, 0)
    except DecodeError:
        pass
