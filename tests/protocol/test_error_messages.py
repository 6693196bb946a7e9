"""The exact class and text of kafkawire's errors, on both backends.

Every ``EncodeError`` a caller can meet with values of a normal size has a case here:
the class must be exactly ``EncodeError`` and the text must match word for word (a
pattern only where a part of it is Python's own wording).  The record decoding errors a
hostile batch can raise about its header (an unknown compression codec id, an unknown
magic byte, a legacy message's bad CRC) are checked the same way, with the checksums
computed here by zlib.

Not covered: the errors for encodings past 2 GiB (a record, a batch, a frame, a compact
length) and for a value that changes while it is being encoded.
"""

from __future__ import annotations

import re
import struct
import zlib

import pytest

import kafkawire
from kafkawire.protocol import compression, internal_topics, requests as protocol
from kafkawire import _backend
from kafkawire.protocol import messages as M
from kafkawire.protocol import primitives as P
from kafkawire.protocol import records as R
from kafkawire.errors import CorruptRecordError, DecompressionError, EncodeError

pytestmark = pytest.mark.in_process

TS = 1_700_000_000_000
REC = {"key": b"k", "value": b"v", "timestamp": TS}
Meta = M.MetadataRequest
Topic = Meta.MetadataRequestTopic
Quotas = M.DescribeClientQuotasResponse
UTF8 = r"'utf-8' codec can't encode character '\\udcff' in position 0: surrogates not allowed"


def _unset(obj, attr):
    delattr(obj, attr)
    return obj


def _set(obj, **values):
    """``obj`` with attributes set after construction (which checks them itself), so
    that the encoder meets the values."""
    for name, value in values.items():
        setattr(obj, name, value)
    return obj


def _builder_with_headers_at_magic_1():
    builder = R.BatchBuilder(magic=1)
    builder.append(b"k", b"v", [("h", b"")], 1)
    return builder.build()


# (id, what raises, the message as a regular expression matched in full)
ENCODE_ERRORS = [
    # record batches
    ("record key type", lambda: R.encode_batch([dict(REC, key=5)]), r"key: expected bytes or None, got int"),
    (
        "record value type",
        lambda: R.encode_batch([dict(REC, value=1.5)]),
        r"value: expected bytes or None, got float",
    ),
    (
        "header value type",
        lambda: R.encode_batch([dict(REC, headers=[("h", 7)])]),
        r"header value: expected bytes or None, got int",
    ),
    (
        "header key type",
        lambda: R.encode_batch([dict(REC, headers=[(7, b"v")])]),
        r"header key: expected str or bytes, got int",
    ),
    (
        "header not a pair",
        lambda: R.encode_batch([dict(REC, headers=[("a", b"b", b"c")])]),
        r"a header must be a \(key, value\) pair, got \('a', b'b', b'c'\)",
    ),
    (
        "record offset type",
        lambda: R.encode_batch([dict(REC, offset="1")]),
        r"record offset must be an int, got '1'",
    ),
    (
        "record offset beyond int64",
        lambda: R.encode_batch([dict(REC, offset=2**63)]),
        r"record offset 9223372036854775808 does not fit in int64",
    ),
    (
        "record offsets that do not increase",
        lambda: R.encode_batch([dict(REC, offset=5), dict(REC, offset=5)], base_offset=5),
        r"record offsets must increase: 5 after 5",
    ),
    (
        "record offset below the base",
        lambda: R.encode_batch([dict(REC, offset=1)], base_offset=5),
        r"record offset 1 is below base_offset 5",
    ),
    (
        "record offset too far from the base",
        lambda: R.encode_batch([dict(REC, offset=2**31 + 5)]),
        r"offset 2147483653 is too far from base_offset 0",
    ),
    (
        "record timestamp type",
        lambda: R.encode_batch([dict(REC, timestamp="now")]),
        r"record timestamp must be an int \(ms\), got 'now'",
    ),
    (
        "record timestamp beyond int64",
        lambda: R.encode_batch([dict(REC, timestamp=2**63)]),
        r"record timestamp 9223372036854775808 does not fit in int64",
    ),
    (
        "record timestamp too far from the base",
        lambda: R.encode_batch([dict(REC, timestamp=-(2**63)), dict(REC, timestamp=2**63 - 1)]),
        r"timestamp 9223372036854775807 is too far from the base timestamp -9223372036854775808",
    ),
    (
        "timestamp type name",
        lambda: R.encode_batch([REC], timestamp_type="later"),
        r"unknown timestamp_type 'later'; expected 'create' or 'log_append'",
    ),
    (
        "base offset beyond int64",
        lambda: R.encode_batch([REC], base_offset=2**63),
        r"base_offset=9223372036854775808 does not fit in int64",
    ),
    (
        "producer id type",
        lambda: R.encode_batch([REC], producer_id="x"),
        r"producer_id must be an int, got 'x'",
    ),
    (
        "producer epoch beyond int16",
        lambda: R.encode_batch([REC], producer_epoch=2**15),
        r"producer_epoch=32768 does not fit in int16",
    ),
    (
        "base sequence beyond int32",
        lambda: R.encode_batch([REC], base_sequence=2**31),
        r"base_sequence=2147483648 does not fit in int32",
    ),
    (
        "partition leader epoch beyond int32",
        lambda: R.encode_batch([REC], partition_leader_epoch=2**31),
        r"partition_leader_epoch=2147483648 does not fit in int32",
    ),
    (
        "delete horizon beyond int64",
        lambda: R.encode_batch([REC], delete_horizon_ms=2**63),
        r"delete_horizon_ms=9223372036854775808 does not fit in int64",
    ),
    ("unknown magic", lambda: R.encode_batch([REC], magic=3), r"unknown magic 3; expected 0, 1 or 2"),
    ("unknown magic of a builder", lambda: R.BatchBuilder(magic=3), r"unknown magic 3; expected 0, 1 or 2"),
    (
        "legacy timestamp beyond int64",
        lambda: R.encode_batch([dict(REC, timestamp=2**63)], magic=1),
        r"record timestamp 9223372036854775808 does not fit in int64",
    ),
    (
        "zstd in a legacy message",
        lambda: R.encode_batch([REC], magic=1, compression="zstd"),
        r"zstd compression needs magic 2",
    ),
    (
        "headers in a legacy message",
        lambda: R.encode_batch([dict(REC, headers=[("h", b"")])], magic=0),
        r"magic 0 messages cannot carry headers",
    ),
    (
        "headers in a legacy builder",
        _builder_with_headers_at_magic_1,
        r"magic 1 messages cannot carry headers",
    ),
    (
        "producer fields in a legacy message",
        lambda: R.encode_batch([REC], magic=1, producer_id=3),
        r"magic 1 messages have no producer or transaction fields",
    ),
    (
        "unknown compression name",
        lambda: R.encode_batch([REC], compression="brotli"),
        r"unknown compression 'brotli'; expected one of none, gzip, snappy, lz4, zstd",
    ),
    ("unknown compression id", lambda: R.encode_batch([REC], compression=7), r"unknown compression 7"),
    (
        "compression level type",
        lambda: compression.compress(compression.ZSTD, b"abc", "high"),
        r"zstd compression failed: .+",
    ),
    (
        "control record type",
        lambda: R.encode_control_batch("maybe", producer_id=1, producer_epoch=1),
        r"control_type must be 'commit' or 'abort', not 'maybe'",
    ),
    (
        "coordinator epoch beyond int32",
        lambda: R.encode_control_batch("commit", producer_id=1, producer_epoch=1, coordinator_epoch=2**31),
        r"coordinator_epoch=2147483648 does not fit in int32",
    ),
    (
        "builder key type",
        lambda: R.BatchBuilder().append(5, b"v", None, 1),
        r"key: expected bytes or None, got int",
    ),
    # primitives
    ("int8 out of range", lambda: P.encode_int8(128), r"int8: cannot encode 128: out of range"),
    ("int16 not an integer", lambda: P.encode_int16("1"), r"int16: cannot encode '1': not an integer"),
    ("int32 out of range", lambda: P.encode_int32(2**31), r"int32: cannot encode 2147483648: out of range"),
    ("uint16 negative", lambda: P.encode_uint16(-1), r"uint16: cannot encode -1: out of range"),
    (
        "uint32 out of range",
        lambda: P.encode_uint32(2**32),
        r"uint32: cannot encode 4294967296: out of range",
    ),
    (
        "int64 out of range",
        lambda: P.encode_int64(2**63),
        r"int64: cannot encode 9223372036854775808: out of range",
    ),
    (
        "array length out of range",
        lambda: P.encode_array_length(2**31),
        r"int32: cannot encode 2147483648: out of range",
    ),
    ("float64 not a number", lambda: P.encode_float64("x"), r"float64: cannot encode 'x': not a number"),
    ("uuid type", lambda: P.encode_uuid("abc"), r"uuid: expected uuid.UUID, got str"),
    (
        "unsigned varint negative",
        lambda: P.encode_unsigned_varint(-1),
        r"unsigned varint: -1 is not in \[0, 2\*\*32\)",
    ),
    (
        "varint out of range",
        lambda: P.encode_varint(2**31),
        r"varint: 2147483648 is not a signed 32-bit integer",
    ),
    (
        "varlong out of range",
        lambda: P.encode_varlong(2**63),
        r"varlong: 9223372036854775808 is not a signed 64-bit integer",
    ),
    ("bytes type", lambda: P.encode_bytes(5), r"bytes: expected a bytes-like object, got int"),
    (
        "bytes None",
        lambda: P.encode_bytes(None),
        r"bytes: None is not allowed here \(use encode_nullable_bytes\)",
    ),
    ("compact bytes None", lambda: P.encode_compact_bytes(None), r"compact bytes: None is not allowed here"),
    (
        "string None",
        lambda: P.encode_string(None),
        r"string: None is not allowed here \(use encode_nullable_string\)",
    ),
    (
        "compact string None",
        lambda: P.encode_compact_string(None),
        r"compact string: None is not allowed here",
    ),
    ("string type", lambda: P.encode_string(b"x"), r"string: expected str, got bytes"),
    ("nullable string type", lambda: P.encode_nullable_string(5), r"string: expected str, got int"),
    ("string not UTF-8", lambda: P.encode_string("\udcff"), r"string: not encodable as UTF-8: " + UTF8),
    (
        "string too long",
        lambda: P.encode_string("x" * 40000),
        r"string: 40000 bytes is longer than an int16 length allows",
    ),
    # messages
    ("message string type", lambda: Meta(topics=[Topic(name=5)]).encode(1), r"name: expected str, got int"),
    (
        "message string not UTF-8",
        lambda: Meta(topics=[Topic(name="\udcff")]).encode(1),
        r"name: not encodable as UTF-8: " + UTF8,
    ),
    (
        "message compact string not UTF-8",
        lambda: Meta(topics=[Topic(name="\udcff")]).encode(12),
        r"name: not encodable as UTF-8: " + UTF8,
    ),
    (
        "message string too long",
        lambda: Meta(topics=[Topic(name="x" * 40000)]).encode(1),
        r"name: 40000 bytes is longer than an int16 length allows",
    ),
    (
        "message string in an array too long",
        lambda: M.DescribeGroupsRequest(groups=["x" * 40000]).encode(0),
        r"groups: 40000 bytes is longer than an int16 length allows",
    ),
    (
        "message null string",
        lambda: Meta(topics=[Topic(name=None)]).encode(1),
        r"name: None is not allowed at this version",
    ),
    (
        "message null array",
        lambda: Meta(topics=None).encode(0),
        r"topics: None is not allowed at this version",
    ),
    (
        "message null bytes",
        lambda: M.SaslAuthenticateRequest(auth_bytes=None).encode(0),
        r"auth_bytes: None is not allowed at this version",
    ),
    ("message array type", lambda: _set(Meta(), topics=5).encode(1), r"topics: expected a list, got int"),
    (
        "message struct item type",
        lambda: _set(Meta(), topics=["x"]).encode(1),
        r"topics: expected MetadataRequestTopic items, got str",
    ),
    (
        "message struct item type, flexible",
        lambda: _set(Meta(), topics=["x"]).encode(12),
        r"topics: expected MetadataRequestTopic items, got str",
    ),
    (
        "message array type at construction",
        lambda: Meta(topics=5),
        r"MetadataRequest\.topics: expected a list of MetadataRequest\.MetadataRequestTopic, got int",
    ),
    (
        "message struct item type at construction",
        lambda: Meta(topics=["x"]),
        r"MetadataRequest\.topics\[0\]: expected MetadataRequest\.MetadataRequestTopic or a dict of its "
        r"fields, got str",
    ),
    (
        "message string array None",
        lambda: M.DescribeGroupsRequest(groups=[None]).encode(0),
        r"groups: None in an array of strings",
    ),
    (
        "message string array None, flexible",
        lambda: M.DescribeGroupsRequest(groups=[None]).encode(5),
        r"groups: None in an array of strings",
    ),
    (
        "message string array item type",
        lambda: M.DescribeGroupsRequest(groups=[5]).encode(0),
        r"groups: expected str, got int",
    ),
    (
        "message int8 out of range",
        lambda: M.FetchRequest(isolation_level=128).encode(4),
        r"isolation_level: 128 is out of range for int8",
    ),
    (
        "message int16 out of range",
        lambda: M.ProduceRequest(acks=2**15).encode(3),
        r"acks: 32768 is out of range for int16",
    ),
    (
        "message int32 out of range",
        lambda: M.FetchRequest(max_wait_ms=2**31).encode(4),
        r"max_wait_ms: 2147483648 is out of range for int32",
    ),
    (
        "message int64 out of range",
        lambda: M.ListOffsetsRequest(
            topics=[
                M.ListOffsetsRequest.ListOffsetsTopic(
                    name="t", partitions=[M.ListOffsetsRequest.ListOffsetsPartition(timestamp=2**63)]
                )
            ]
        ).encode(1),
        r"timestamp: 9223372036854775808 is out of range for int64",
    ),
    (
        "message int not an integer",
        lambda: M.FetchRequest(max_wait_ms="1").encode(4),
        r"max_wait_ms: cannot encode '1' as int32: not an integer",
    ),
    (
        "message uuid type",
        lambda: Meta(topics=[Topic(name="t", topic_id="x")]).encode(12),
        r"topic_id: expected uuid.UUID, got str",
    ),
    (
        "message float type",
        lambda: Quotas(entries=[Quotas.EntryData(values=[Quotas.ValueData(key="k", value="x")])]).encode(0),
        r"value: expected a float, got str",
    ),
    (
        "message bytes type",
        lambda: M.SaslAuthenticateRequest(auth_bytes=5).encode(0),
        r"auth_bytes: expected a (contiguous )?bytes-like object, got int",
    ),
    (
        "message field not set",
        lambda: _unset(Meta(), "topics").encode(1),
        r"MetadataRequest\.topics is not set",
    ),
    (
        "message nested field not set",
        lambda: Meta(topics=[_unset(Topic(), "name")]).encode(1),
        r"MetadataRequestTopic\.name is not set",
    ),
    (
        "message field absent at the version",
        lambda: Meta(include_topic_authorized_operations=True).encode(4),
        r"MetadataRequest\.include_topic_authorized_operations holds a non-default value \(True\) "
        r"but version 4 does not have this field",
    ),
    (
        "message of another class",
        lambda: _backend.implementation("codec", _backend.BACKEND).encode(Meta.plan(1), M.FetchRequest()),
        r"expected MetadataRequest, got FetchRequest",
    ),
    (
        "unknown tagged fields type",
        lambda: M.ApiVersionsRequest(_unknown_tagged=5).encode(3),
        r"_unknown_tagged must be None or a sequence of \(tag, bytes\) pairs",
    ),
    (
        "unknown tagged field not a pair",
        lambda: M.ApiVersionsRequest(_unknown_tagged=[5]).encode(3),
        r"_unknown_tagged: 5 is not a \(tag, bytes\) pair",
    ),
    (
        "unknown tagged field tag",
        lambda: M.ApiVersionsRequest(_unknown_tagged=[(-1, b"")]).encode(3),
        r"_unknown_tagged: tag -1 is not an unsigned 32-bit int",
    ),
    (
        "unknown tagged field data",
        lambda: M.ApiVersionsRequest(_unknown_tagged=[(5, 7)]).encode(3),
        r"_unknown_tagged: tag 5 data is not bytes-like",
    ),
    (
        "unknown tagged field with a known tag",
        lambda: M.FetchRequest(_unknown_tagged=[(0, b"")]).encode(12),
        r"_unknown_tagged: tag 0 is a known field at v12",
    ),
    (
        "unknown tagged fields at a version that is not flexible",
        lambda: M.ApiVersionsRequest(_unknown_tagged=[(5, b"x")]).encode(2),
        r"ApiVersionsRequest v2 is not flexible: it cannot carry the unknown tagged fields this object holds",
    ),
    # frames and internal topics
    (
        "a response sent as a request",
        lambda: protocol.encode_request(M.MetadataResponse(), 1, 1, "c"),
        r"expected a request message, got MetadataResponse",
    ),
    (
        "a request sent as a response",
        lambda: protocol.encode_response(M.MetadataRequest(), 1, 1),
        r"expected a response message, got MetadataRequest",
    ),
    (
        "a key of another internal topic",
        lambda: internal_topics.encode_key(
            internal_topics.CONSUMER_OFFSETS, M.TransactionLogKey(transactional_id="t")
        ),
        r"TransactionLogKey is not a key of __consumer_offsets",
    ),
    (
        "a key under another record type",
        lambda: internal_topics.encode_key(
            internal_topics.CONSUMER_OFFSETS, M.OffsetCommitKey(group="g", topic="t", partition=0), 2
        ),
        r"OffsetCommitKey is not record type 2 of __consumer_offsets",
    ),
    (
        "not a metadata record",
        lambda: internal_topics.encode_metadata_record(M.MetadataRequest(), 0),
        r"MetadataRequest is not a metadata record",
    ),
    (
        "not a control record",
        lambda: internal_topics.encode_control_record(M.MetadataRequest(), 0),
        r"MetadataRequest is not a control record",
    ),
]


@pytest.mark.parametrize(
    "make,message", [(m, t) for _, m, t in ENCODE_ERRORS], ids=[i for i, _, _ in ENCODE_ERRORS]
)
def test_encode_error_class_and_text(make, message, backend):
    with pytest.raises(EncodeError) as info:
        make()
    assert type(info.value) is EncodeError
    assert re.fullmatch(message, str(info.value)), str(info.value)


def test_every_encode_error_case_names_a_distinct_situation():
    ids = [i for i, _, _ in ENCODE_ERRORS]
    assert len(ids) == len(set(ids))


# -- record batches with a bad header -------------------------------------------------


def _recrc_v2(buf: bytearray) -> bytes:
    """Batch v2 CRC-32C over attributes to end (kafkawire's CRC-32C, checked against
    RFC 3720's vectors in test_crc32c.py): the batch must pass its CRC check to reach
    the codec."""
    struct.pack_into(">I", buf, 17, kafkawire.crc32c(bytes(buf[21:])))
    return bytes(buf)


def _recrc_legacy(buf: bytearray) -> bytes:
    """Legacy message CRC-32 (zlib) over magic to end."""
    struct.pack_into(">I", buf, 12, zlib.crc32(bytes(buf[16:])))
    return bytes(buf)


def _readers(buf):
    """Every way to read a buffer: records, lazily by batch, Arrow columns."""
    yield lambda: R.decode(buf)
    yield lambda: [b.records() for b in R.iter_batches(buf)]
    try:
        import pyarrow  # noqa: F401
    except ImportError:
        return
    yield lambda: R.to_arrow(buf)


@pytest.mark.parametrize("codec_id", [5, 6, 7])
def test_an_unknown_compression_codec_id_in_a_batch(codec_id, backend):
    buf = bytearray(R.encode_batch([REC], base_offset=5))
    struct.pack_into(">h", buf, 21, codec_id)  # attributes: the codec is the low 3 bits
    buf = _recrc_v2(buf)
    for read in _readers(buf):
        with pytest.raises(DecompressionError) as info:
            read()
        assert type(info.value) is DecompressionError
        assert str(info.value) == f"unknown compression codec id {codec_id}"


def test_an_unknown_compression_codec_id_in_a_legacy_message(backend):
    buf = bytearray(R.encode_batch([REC], magic=1, base_offset=5))
    buf[17] = 6  # attributes byte of the message
    for read in _readers(_recrc_legacy(buf)):
        with pytest.raises(DecompressionError) as info:
            read()
        assert str(info.value) == "unknown compression codec id 6"


@pytest.mark.parametrize("magic", [3, 0x7F, 0xFF])
def test_an_unknown_magic_byte(magic, backend):
    good = R.encode_batch([REC], base_offset=5)
    buf = bytearray(good + good)
    buf[len(good) + 16] = magic  # the second batch's magic
    for read in _readers(bytes(buf)):
        with pytest.raises(CorruptRecordError) as info:
            read()
        assert type(info.value) is CorruptRecordError
        assert str(info.value) == f"batch at byte {len(good)} has unknown magic {magic}"


@pytest.mark.parametrize("magic", [0, 1])
def test_a_legacy_message_with_a_bad_crc(magic, backend):
    good = R.encode_batch([REC], magic=magic, base_offset=5)
    buf = bytearray(good + good)
    buf[-1] ^= 0x01
    stored = struct.unpack_from(">I", buf, len(good) + 12)[0]
    actual = zlib.crc32(bytes(buf[len(good) + 16 :]))
    for read in _readers(bytes(buf)):
        with pytest.raises(CorruptRecordError) as info:
            read()
        assert type(info.value) is CorruptRecordError
        assert str(info.value) == (
            f"message at byte {len(good)}: CRC32 is {actual:#010x}, the message says {stored:#010x}"
        )


def test_a_frame_passed_whole_is_named_not_read_as_a_header():
    """``encode_request``/``encode_response`` return size-prefixed frames; handing one
    whole to the decoder read its size as an API key and version."""
    import kafkawire
    from kafkawire.errors import DecodeError, UnsupportedVersionError
    from kafkawire.protocol.messages import MetadataRequest, MetadataResponse

    frame = kafkawire.encode_request(MetadataRequest(topics=None), 12, correlation_id=1)
    hint = rf"starts with its own size \({len(frame) - 4}\): decode_request takes a frame without its 4-byte size prefix, frame\[4:\]"
    with pytest.raises(UnsupportedVersionError, match=hint):
        kafkawire.decode_request(frame)
    assert kafkawire.decode_request(frame[4:])[1] == MetadataRequest(topics=None)
    frame = kafkawire.encode_response(MetadataResponse(topics=[], brokers=[]), 12, 7)
    with pytest.raises(DecodeError, match=r"\(read as it is: .*\)"):
        kafkawire.decode_response(frame, 3, 12)
    assert kafkawire.decode_response(frame[4:], 3, 12)[0].correlation_id == 7
