"""Confluent's Schema Registry framing of a Kafka key or value, both directions.

A framed value is a magic byte 0, the schema id as a 4-byte big-endian integer, and
for Protobuf the message indexes (the path of the message type inside its .proto
file, as a zigzag varint count and zigzag varints; the common path ``[0]`` as the one
byte 0), then the serialized value.  Bad bytes raise the :mod:`kafkawire.errors`
exceptions of :class:`~kafkawire.errors.SchemaFramingError`, naming the topic, partition
and offset the caller gives.
"""

from __future__ import annotations

import struct
from typing import List, Optional, Sequence, Tuple, Union

from kafkawire.errors import BadMagicByteError, EncodeError, PayloadDecodeError, TruncatedPayloadError

MAGIC_BYTE = 0
HEADER_SIZE = 5  # the magic byte and the schema id
# far more than any .proto nests messages: a bigger count is a corrupt value
MAX_MESSAGE_INDEXES = 256

_HEADER = struct.Struct(">bI")


def frame(schema_id: int, payload: bytes, message_indexes: Optional[Sequence[int]] = None) -> bytes:
    """``payload`` framed with ``schema_id`` (and, for Protobuf, ``message_indexes``)."""
    if not 0 <= schema_id < 1 << 32:
        raise EncodeError(f"schema id {schema_id!r} is not an unsigned 32-bit integer")
    head = _HEADER.pack(MAGIC_BYTE, schema_id)
    if message_indexes is None:
        return head + bytes(payload)
    return head + encode_message_indexes(message_indexes) + bytes(payload)


def parse_header(
    value: bytes,
    topic: Optional[str] = None,
    partition: Optional[int] = None,
    offset: Optional[int] = None,
) -> Tuple[int, int]:
    """The schema id of a framed ``value`` and where its body starts (byte 5)."""
    if len(value) < HEADER_SIZE:
        if len(value) >= 1 and value[0] != MAGIC_BYTE:
            raise BadMagicByteError(f"magic byte {value[0]}, expected {MAGIC_BYTE}", topic, partition, offset)
        raise TruncatedPayloadError(
            f"a framed value of {len(value)} bytes, shorter than its {HEADER_SIZE}-byte header",
            topic,
            partition,
            offset,
        )
    magic, schema_id = _HEADER.unpack_from(value, 0)
    if magic != MAGIC_BYTE:
        raise BadMagicByteError(f"magic byte {magic & 0xFF}, expected {MAGIC_BYTE}", topic, partition, offset)
    return schema_id, HEADER_SIZE


def _zigzag(n: int) -> bytes:
    n = (n << 1) ^ (n >> 63)
    out = bytearray()
    while n > 0x7F:
        out.append((n & 0x7F) | 0x80)
        n >>= 7
    out.append(n)
    return bytes(out)


def encode_message_indexes(indexes: Sequence[int]) -> bytes:
    """Protobuf message indexes as Confluent's serializers write them."""
    if list(indexes) == [0]:
        return b"\x00"  # the first message of the file: one byte, as the serializers write it
    for i in indexes:
        if not 0 <= i < 1 << 31:
            raise EncodeError(f"message index {i!r} is not a non-negative 32-bit integer")
    return _zigzag(len(indexes)) + b"".join(_zigzag(i) for i in indexes)


def _read_zigzag(
    value: Union[bytes, memoryview],
    pos: int,
    topic: Optional[str],
    partition: Optional[int],
    offset: Optional[int],
) -> Tuple[int, int]:
    result = shift = 0
    for _ in range(5):  # the indexes are zigzag int32s
        if pos >= len(value):
            raise TruncatedPayloadError(f"message indexes end at byte {pos}", topic, partition, offset)
        b = value[pos]
        pos += 1
        result |= (b & 0x7F) << shift
        if not b & 0x80:
            return (result >> 1) ^ -(result & 1), pos
        shift += 7
    raise PayloadDecodeError(f"message index varint at byte {pos - 5} is overlong", topic, partition, offset)


def decode_message_indexes(
    value: Union[bytes, memoryview],
    pos: int = HEADER_SIZE,
    topic: Optional[str] = None,
    partition: Optional[int] = None,
    offset: Optional[int] = None,
) -> Tuple[List[int], int]:
    """The Protobuf message indexes at ``pos`` of a framed value and the position after them."""
    count, pos = _read_zigzag(value, pos, topic, partition, offset)
    if count == 0:
        return [0], pos
    if not 0 < count <= MAX_MESSAGE_INDEXES:
        raise PayloadDecodeError(
            f"message index count {count} is not in [1, {MAX_MESSAGE_INDEXES}]", topic, partition, offset
        )
    indexes = []
    for _ in range(count):
        i, pos = _read_zigzag(value, pos, topic, partition, offset)
        if i < 0:
            raise PayloadDecodeError(f"message index {i} is negative", topic, partition, offset)
        indexes.append(i)
    return indexes, pos
