"""What both record backends share: the record batch layout, argument checks, their error
messages, and the Arrow schema (``kafkawire._pure.records`` and ``kafkawire._fast.records``
import these, so the two give the same answers and the same errors; ``kafkawire.log.segments``
and the broker's storage read batch headers with the same layout), and that schema's types
as Spark takes them in Arrow, for the ``kafka-log`` and ``kafka-cluster`` readers alike."""

from __future__ import annotations

import struct
from typing import Any, List, NamedTuple, Optional

from kafkawire.protocol.compression import codec_name
from kafkawire.errors import CorruptRecordError, EncodeError
from kafkawire.protocol.schema.plan import INT32_MAX

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
# the log entry head of both formats: offset, size
LOG_ENTRY = struct.Struct(">qi")
# a legacy message's crc, magic and attributes (read unsigned, as the Cython backend does)
LEGACY_HEAD = struct.Struct(">IbB")
NO_TIMESTAMP = -1  # a record or message with no timestamp

# attribute bits
COMPRESSION_MASK = 0x07
TIMESTAMP_TYPE_BIT = 0x08  # log append time (magic 1 and 2)
TRANSACTIONAL_BIT = 0x10
CONTROL_BIT = 0x20
DELETE_HORIZON_BIT = 0x40


def next_sequence(base: int, delta: int) -> int:
    """The producer sequence of the record ``delta`` after one with sequence ``base``
    (-1 for none), wrapping past int32 as Kafka does."""
    if base < 0:
        return -1
    if base > INT32_MAX - delta:
        return delta - (INT32_MAX - base) - 1
    return base + delta


class BatchHeader(NamedTuple):
    """What the first bytes of a log entry say, without decoding its records: a record
    batch (magic 2), or a legacy message (magic 0/1), whose ``base_offset`` is its offset
    field (the last inner offset of a compressed wrapper) and whose v2-only fields keep
    their "none" values.  ``position`` is where the entry starts in the file or buffer it
    was read from; ``size_in_bytes`` counts the whole entry, LOG_OVERHEAD included.
    (A named tuple: built once per batch when a log is scanned, cheaper than a frozen
    dataclass.)"""

    position: int
    base_offset: int
    size_in_bytes: int
    magic: int
    attributes: int = 0
    last_offset_delta: int = 0
    crc: int = 0
    partition_leader_epoch: int = -1
    base_timestamp: int = -1
    max_timestamp: int = -1
    producer_id: int = -1
    producer_epoch: int = -1
    base_sequence: int = -1
    record_count: int = 1

    @property
    def last_offset(self) -> int:
        return self.base_offset + self.last_offset_delta

    @property
    def end(self) -> int:
        """The position just after this entry."""
        return self.position + self.size_in_bytes

    @property
    def compression_id(self) -> int:
        return self.attributes & COMPRESSION_MASK

    @property
    def compression(self) -> str:
        return codec_name(self.attributes & COMPRESSION_MASK)

    @property
    def is_transactional(self) -> bool:
        return self.magic >= 2 and bool(self.attributes & TRANSACTIONAL_BIT)

    @property
    def is_control(self) -> bool:
        return self.magic >= 2 and bool(self.attributes & CONTROL_BIT)

    @property
    def last_sequence(self) -> int:
        """The producer sequence of the batch's last record (-1 for none)."""
        return next_sequence(self.base_sequence, self.last_offset_delta)


def unpack_v2_header(buf: Any, pos: int = 0, position: Optional[int] = None) -> BatchHeader:
    """The header of the record batch at ``buf[pos:]``, which holds at least
    V2_HEADER_SIZE bytes (the caller checks the length and the magic); ``position`` is
    the one to report (``pos`` by default)."""
    (
        base_offset,
        length,
        epoch,
        magic,
        crc,
        attributes,
        last_delta,
        base_ts,
        max_ts,
        producer_id,
        producer_epoch,
        base_seq,
        count,
    ) = V2_HEADER.unpack_from(buf, pos)
    return BatchHeader(
        pos if position is None else position,
        base_offset,
        LOG_OVERHEAD + length,
        magic,
        attributes,
        last_delta,
        crc,
        epoch,
        base_ts,
        max_ts,
        producer_id,
        producer_epoch,
        base_seq,
        count,
    )


# -- control records (the records of a control batch) ------------------------------------
# key: int16 version, int16 type; a transaction marker's value: int16 version, int32
# coordinator epoch; a KRaft control record's value: its message, version first.
CONTROL_KEY = struct.Struct(">hh")
MARKER_VALUE = struct.Struct(">hi")
#: Control record types by number, named after Kafka's ControlRecordType.
CONTROL_TYPE_NAMES = {
    0: "abort",
    1: "commit",
    2: "leader_change",
    3: "snapshot_header",
    4: "snapshot_footer",
    5: "kraft_version",
    6: "kraft_voters",
}
#: The transaction markers' types, by name (what encode_control_batch writes).
MARKER_TYPES = {"abort": 0, "commit": 1}


def control_type_name(type_id: int) -> str:
    """The name of a control record type; a number Kafka does not define gives
    ``"unknown(N)"``."""
    return CONTROL_TYPE_NAMES.get(type_id, f"unknown({type_id})")


class ControlRecord(NamedTuple):
    """A control record: its key's ``version`` and type (``type``, the name;
    ``type_id``, the number) and what its value holds: a transaction marker's
    ``coordinator_epoch``, or a KRaft control record's ``value_version`` and ``message``
    (``raw``: the value bytes when no message was decoded from them)."""

    version: int
    type: str
    type_id: int
    coordinator_epoch: Optional[int] = None
    value_version: Optional[int] = None
    message: Any = None
    raw: Optional[bytes] = None


def parse_control_record(key: Any, value: Any) -> ControlRecord:
    """The type of a control record, and for a transaction marker its value's version and
    coordinator epoch (a KRaft control record's message is :mod:`kafkawire.protocol.internal_topics`'s
    to decode)."""
    if key is None or len(key) < CONTROL_KEY.size:
        raise CorruptRecordError("a control record key needs 4 bytes (version, type)")
    version, type_id = CONTROL_KEY.unpack_from(key)
    value_version = epoch = None
    if type_id in (0, 1) and value is not None and len(value) >= MARKER_VALUE.size:
        value_version, epoch = MARKER_VALUE.unpack_from(value)
    return ControlRecord(version, control_type_name(type_id), type_id, epoch, value_version)


def timestamp_type_bit(timestamp_type: Any) -> int:
    """The batch attribute bit of a timestamp type given by name or number."""
    if timestamp_type in ("create", 0, None):
        return 0
    if timestamp_type in ("log_append", 1):
        return 1
    raise EncodeError(f"unknown timestamp_type {timestamp_type!r}; expected 'create' or 'log_append'")


def check_int(name: str, value: Any, bits: int) -> int:
    """``value``, once it is known to be an int that fits in a signed ``bits``-bit field."""
    if not isinstance(value, int):
        raise EncodeError(f"{name} must be an int, got {value!r}")
    lim = 1 << (bits - 1)
    if not -lim <= value < lim:
        raise EncodeError(f"{name}={value} does not fit in int{bits}")
    return value


#: the fields a record given to ``encode_batch`` as a dict may have
RECORD_FIELDS = frozenset(("offset", "timestamp", "key", "value", "headers"))


def unknown_record_fields(rec: Any) -> EncodeError:
    """The error for a record dict with keys :data:`RECORD_FIELDS` does not have (a
    misspelt ``headrs`` would otherwise encode a record without its headers)."""
    import difflib

    unknown = sorted((k for k in rec if k not in RECORD_FIELDS), key=repr)
    hints = []
    for k in unknown:
        near = difflib.get_close_matches(str(k), sorted(RECORD_FIELDS), n=1)
        hints.append(f"{k!r}" + (f" (did you mean {near[0]!r}?)" if near else ""))
    which = "field" if len(unknown) == 1 else "fields"
    return EncodeError(
        f"unknown record {which} {', '.join(hints)}: a record dict has offset, timestamp, key, value and headers"
    )


#: the columns of :func:`to_arrow` tables, in order
ARROW_COLUMNS = (
    "offset",
    "timestamp",
    "timestamp_type",
    "key",
    "value",
    "headers",
    "partition_leader_epoch",
    "producer_id",
    "producer_epoch",
    "sequence",
    "is_transactional",
    "is_control",
    "compression",
)


def arrow_columns(columns: Any) -> Optional[List[str]]:
    """The names a ``to_arrow(columns=...)`` call asks for, checked (None: all)."""
    if columns is None:
        return None
    if isinstance(columns, str):
        raise TypeError("columns must be a sequence of column names, not a string")
    names = list(columns)
    for name in names:
        if name not in ARROW_COLUMNS:
            raise ValueError(f"to_arrow has no column {name!r}; its columns are " + ", ".join(ARROW_COLUMNS))
    return names


def import_pyarrow() -> Any:
    """pyarrow, or an ``ImportError`` naming the extra that installs it."""
    try:
        import pyarrow
    except ImportError as exc:
        raise ModuleNotFoundError(
            "Arrow output needs the 'pyarrow' package: pip install 'kafkawire[arrow]'", name="pyarrow"
        ) from exc
    return pyarrow


def arrow_schema() -> Any:
    """The schema of :func:`to_arrow` tables."""
    pa = import_pyarrow()

    return pa.schema(
        [
            pa.field("offset", pa.int64(), nullable=False),
            pa.field("timestamp", pa.timestamp("us", tz="UTC")),
            pa.field("timestamp_type", pa.int8()),
            pa.field("key", pa.binary()),
            pa.field("value", pa.binary()),
            pa.field(
                "headers",
                pa.list_(
                    pa.field(
                        "item",
                        pa.struct(
                            [pa.field("key", pa.string(), nullable=False), pa.field("value", pa.binary())]
                        ),
                        nullable=False,
                    )
                ),
                nullable=False,
            ),
            pa.field("partition_leader_epoch", pa.int32(), nullable=False),
            pa.field("producer_id", pa.int64(), nullable=False),
            pa.field("producer_epoch", pa.int16(), nullable=False),
            pa.field("sequence", pa.int32(), nullable=False),
            pa.field("is_transactional", pa.bool_(), nullable=False),
            pa.field("is_control", pa.bool_(), nullable=False),
            pa.field("compression", pa.string(), nullable=False),
        ]
    )


def spark_arrow_type(t: Any) -> Any:
    """``t`` as Spark writes it in Arrow: every field nullable, list items named
    ``element``.  Spark compares the batches a data source yields to exactly that."""
    pa = import_pyarrow()
    if pa.types.is_list(t):
        return pa.list_(pa.field("element", spark_arrow_type(t.value_type)))
    if pa.types.is_struct(t):
        return pa.struct([pa.field(f.name, spark_arrow_type(f.type)) for f in t])
    return t


# -- records from Arrow columns (encode_arrow_batches, arrow_key_partitions) -------------

#: a producer counts each record against its batch size as this many bytes plus its key
#: and value, and each header as HEADER_ESTIMATE plus its key and value (an upper bound
#: of the varints and attributes around them)
RECORD_ESTIMATE = 24
HEADER_ESTIMATE = 8
NULL_HEADER = "a header is null: each header needs a key"
NULL_HEADER_KEY = "header key: expected str or bytes, got NoneType"
_ARROW_BINARY = ("binary", "string")


def check_arrow_binary(array: Any, what: str) -> None:
    """Raise unless ``array`` is a pyarrow binary or string array (32-bit offsets)."""
    kind = str(getattr(array, "type", type(array).__name__))
    if kind not in _ARROW_BINARY:
        raise EncodeError(f"{what}: expected an Arrow binary or string array, got {kind}")
    _check_arrow_valid(array, what)


def _check_arrow_valid(array: Any, what: str) -> None:
    # the encoders read an array's offsets as they are: offsets that run backwards or past
    # the data (an array built from buffers by hand) would read outside it; a full check
    # costs about 0.6 ms a million rows
    try:
        array.validate(full=True)
    except Exception as exc:  # pyarrow's ArrowInvalid
        raise EncodeError(f"{what}: not a valid Arrow array: {exc}") from None


def arrow_header_parts(headers: Any) -> Any:
    """The header entries (a struct array), their keys and their values, of a pyarrow
    list<struct<key, value>> array of record headers."""
    kind = getattr(headers, "type", type(headers).__name__)
    entries: Any = getattr(headers, "values", None)
    names = getattr(getattr(entries, "type", None), "names", ())
    if not str(kind).startswith("list<") or "key" not in names or "value" not in names:
        raise EncodeError(f"headers: expected an Arrow list<struct<key, value>> array, got {kind}")
    _check_arrow_valid(headers, "headers")
    return entries, entries.field("key"), entries.field("value")


def check_arrow_lengths(n: int, keys: Any, headers: Any) -> None:
    """Raise unless the key and header columns have the value column's ``n`` rows."""
    for what, column in (("key", keys), ("headers", headers)):
        if column is not None and len(column) != n:
            raise EncodeError(f"the {what} column has {len(column)} rows, the value column {n}")


def check_partition_count(partitions: Any) -> int:
    """``partitions``, once it is known to be a positive int32."""
    check_int("partitions", partitions, 32)
    if partitions < 1:
        raise EncodeError(f"partitions must be positive, got {partitions}")
    return int(partitions)
