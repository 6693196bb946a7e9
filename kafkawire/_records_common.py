"""What both record backends share: the record batch layout, argument checks, their error
messages, and the Arrow schema (``kafkawire._pure.records`` and ``kafkawire._fast.records``
import these, so the two give the same answers and the same errors; ``kafkawire.log.segments``
and the broker's storage read batch headers with the same layout)."""
from __future__ import annotations

import struct
from typing import Any

from kafkawire.errors import EncodeError

# -- the record batch (magic 2) header ---------------------------------------------------
# baseOffset, batchLength, partitionLeaderEpoch, magic, crc, attributes, lastOffsetDelta,
# baseTimestamp, maxTimestamp, producerId, producerEpoch, baseSequence, recordsCount
V2_HEADER = struct.Struct(">qiibIhiqqqhii")
V2_HEADER_SIZE = 61
LOG_OVERHEAD = 12  # baseOffset and batchLength precede what batchLength counts
MAGIC_OFFSET = 16
CRC_OFFSET = 17  # the CRC-32C covers the bytes from attributes (21) to the end
ATTRIBUTES_OFFSET = 21
# legacy messages (magic 0 and 1): crc .. value length, after the 12-byte log entry head
LEGACY_OVERHEAD = (14, 22)

# attribute bits
COMPRESSION_MASK = 0x07
TIMESTAMP_TYPE_BIT = 0x08  # log append time (magic 1 and 2)
TRANSACTIONAL_BIT = 0x10
CONTROL_BIT = 0x20
DELETE_HORIZON_BIT = 0x40

INT32_MAX = 0x7FFFFFFF
CONTROL_TYPES = {"abort": 0, "commit": 1}  # a control record's type, by name


def next_sequence(base: int, delta: int) -> int:
    """The producer sequence of the record ``delta`` after one with sequence ``base``
    (-1 for none), wrapping past int32 as Kafka does."""
    if base < 0:
        return -1
    if base > INT32_MAX - delta:
        return delta - (INT32_MAX - base) - 1
    return base + delta


def timestamp_type_bit(timestamp_type: Any) -> int:
    """The batch attribute bit of a timestamp type given by name or number."""
    if timestamp_type in ("create", 0, None):
        return 0
    if timestamp_type in ("log_append", 1):
        return 1
    raise EncodeError(f"unknown timestamp_type {timestamp_type!r}; expected 'create' or "
                      "'log_append'")


def check_int(name: str, value: Any, bits: int) -> int:
    """``value``, once it is known to be an int that fits in a signed ``bits``-bit field."""
    if not isinstance(value, int):
        raise EncodeError(f"{name} must be an int, got {value!r}")
    lim = 1 << (bits - 1)
    if not -lim <= value < lim:
        raise EncodeError(f"{name}={value} does not fit in int{bits}")
    return value


def arrow_schema() -> Any:
    """The schema of :func:`to_arrow` tables."""
    import pyarrow as pa

    return pa.schema([
        pa.field("offset", pa.int64(), nullable=False),
        pa.field("timestamp", pa.timestamp("us", tz="UTC")),
        pa.field("timestamp_type", pa.int8()),
        pa.field("key", pa.binary()),
        pa.field("value", pa.binary()),
        pa.field("headers", pa.list_(pa.field("item", pa.struct([
            pa.field("key", pa.string(), nullable=False),
            pa.field("value", pa.binary())]), nullable=False)), nullable=False),
        pa.field("partition_leader_epoch", pa.int32(), nullable=False),
        pa.field("producer_id", pa.int64(), nullable=False),
        pa.field("producer_epoch", pa.int16(), nullable=False),
        pa.field("sequence", pa.int32(), nullable=False),
        pa.field("is_transactional", pa.bool_(), nullable=False),
        pa.field("is_control", pa.bool_(), nullable=False),
        pa.field("compression", pa.string(), nullable=False),
    ])
