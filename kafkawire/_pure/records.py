"""Kafka records, in pure Python: the twin of ``kafkawire._fast.records``.

Record batches (magic 2) and legacy message sets (magic 0 and 1), decode and encode,
every compression.  See :mod:`kafkawire.protocol.records` for the public API and its contract.
Reading and the Arrow output are here; writing is in :mod:`kafkawire._pure.records_encode`
(as ``records_encode.pxi``, ``records_builder.pxi`` and ``records_legacy_encode.pxi`` are
parts of the Cython twin), whose names this module re-exports.
"""

from __future__ import annotations

import struct
from typing import Any, Dict, Iterable, Iterator, List, Optional, Tuple, Union

from kafkawire.protocol import compression as _comp
from kafkawire._pure.crc import crc32 as _crc32
from kafkawire._pure.crc import crc32c as _crc32c
from kafkawire._pure.primitives import read_uvarint

# writing is records_encode's; the backend binds these names from this module
from kafkawire._pure.records_arrow_encode import arrow_key_partitions as arrow_key_partitions
from kafkawire._pure.records_arrow_encode import encode_arrow_batches as encode_arrow_batches
from kafkawire._pure.records_encode import BatchBuilder as BatchBuilder
from kafkawire._pure.records_encode import encode_batch as encode_batch
from kafkawire._pure.records_encode import encode_control_batch as encode_control_batch
from kafkawire.protocol.record_layout import LEGACY_HEAD as _LEGACY
from kafkawire.protocol.record_layout import LOG_ENTRY as _LOG
from kafkawire.protocol.record_layout import (
    COMPRESSION_MASK,
    CONTROL_BIT,
    DELETE_HORIZON_BIT,
    LEGACY_OVERHEAD,
    LOG_OVERHEAD,
    NO_TIMESTAMP,
    TIMESTAMP_TYPE_BIT,
    TRANSACTIONAL_BIT,
    V2_HEADER_SIZE,
)
from kafkawire.protocol.record_layout import V2_HEADER as _HDR
from kafkawire.protocol.record_layout import arrow_columns as _arrow_columns
from kafkawire.protocol.record_layout import arrow_schema as arrow_schema
from kafkawire.protocol.record_layout import import_pyarrow as _import_pyarrow
from kafkawire.protocol.record_layout import next_sequence as _next_sequence
from kafkawire.errors import CorruptRecordError
from kafkawire.protocol.framing import BytesLike

_Headers = List[Tuple[str, Optional[bytes]]]

_I32 = struct.Struct(">i")
_I64 = struct.Struct(">q")

MIN_RECORD_SIZE = 7  # length, attributes, ts delta, offset delta, key, value, headers

TIMESTAMP_TYPES = ("create", "log_append")
_TS_US_LIMIT = (2**63 - 1) // 1000  # ms timestamps beyond this are null in Arrow


# -- records -----------------------------------------------------------------


class Record:
    """One record: ``offset``, ``timestamp`` (absolute, ms; None for magic 0, which
    has none), ``timestamp_type`` ("create", "log_append", or None for magic 0),
    ``key`` and ``value`` (bytes or None), ``headers`` (list of (str, bytes|None))."""

    __slots__ = ("offset", "timestamp", "timestamp_type", "key", "value", "headers")

    def __init__(
        self,
        offset: int = 0,
        timestamp: Optional[int] = None,
        timestamp_type: Optional[str] = "create",
        key: Optional[bytes] = None,
        value: Optional[bytes] = None,
        headers: Optional[_Headers] = None,
    ) -> None:
        self.offset = offset
        self.timestamp = timestamp
        self.timestamp_type = timestamp_type
        self.key = key
        self.value = value
        self.headers = [] if headers is None else headers

    def as_tuple(self) -> Tuple[Any, ...]:
        """(offset, timestamp, timestamp_type, key, value, headers)."""
        return (self.offset, self.timestamp, self.timestamp_type, self.key, self.value, self.headers)

    def __eq__(self, other: Any) -> bool:
        try:
            same: bool = self.as_tuple() == other.as_tuple()
        except AttributeError:
            return NotImplemented
        return same

    def __reduce__(self) -> Tuple[Any, ...]:
        return (Record, self.as_tuple())

    __hash__ = None  # type: ignore[assignment]

    def __repr__(self) -> str:
        return (
            f"Record(offset={self.offset!r}, timestamp={self.timestamp!r}, "
            f"timestamp_type={self.timestamp_type!r}, key={self.key!r}, "
            f"value={self.value!r}, headers={self.headers!r})"
        )


def _corrupt(msg: str) -> CorruptRecordError:
    return CorruptRecordError(msg)


# Reads are bounded by the end of the record, not of the buffer: hence read_uvarint.
def _varint(buf: BytesLike, pos: int, end: int) -> Tuple[int, int]:
    raw, pos = read_uvarint(buf, pos, end, 5, 32, "varint")
    return (raw >> 1) ^ -(raw & 1), pos


def _varlong(buf: BytesLike, pos: int, end: int) -> Tuple[int, int]:
    raw, pos = read_uvarint(buf, pos, end, 10, 64, "varlong")
    return (raw >> 1) ^ -(raw & 1), pos


def _i64(v: int) -> int:
    """``v`` wrapped to a signed 64-bit integer, as Java's (and the C backend's) long
    arithmetic does with hostile offsets and timestamps."""
    if -0x8000000000000000 <= v <= 0x7FFFFFFFFFFFFFFF:
        return v
    return ((v + 0x8000000000000000) & 0xFFFFFFFFFFFFFFFF) - 0x8000000000000000


def _parse_v2_records(
    data: BytesLike,
    count: int,
    base_offset: int,
    base_ts: int,
    log_append: bool,
    max_ts: int,
    out: List[Record],
) -> None:
    """Parse ``count`` records from ``data`` (the whole, uncompressed records section)."""
    end = len(data)
    if count < 0 or count > end // MIN_RECORD_SIZE:
        raise _corrupt(f"record count {count} does not fit in {end} bytes of records")
    pos = 0
    tstype = "log_append" if log_append else "create"
    for _ in range(count):
        length, pos = _varint(data, pos, end)
        if length < MIN_RECORD_SIZE - 1 or length > end - pos:
            raise _corrupt(
                f"record length {length} at byte {pos} is invalid or beyond the {end - pos} bytes left"
            )
        rend = pos + length
        pos += 1  # attributes (unused)
        ts_delta, pos = _varlong(data, pos, rend)
        off_delta, pos = _varint(data, pos, rend)
        # Key, value and header parts are read inline, not by a shared helper: that
        # would cost a Python call per part of every record.
        klen, pos = _varint(data, pos, rend)
        if klen < 0:
            if klen != -1:
                raise _corrupt(f"negative key length {klen}")
            key = None
        else:
            if klen > rend - pos:
                raise _corrupt(f"key length {klen} goes beyond its record")
            key = bytes(data[pos : pos + klen])
            pos += klen
        vlen, pos = _varint(data, pos, rend)
        if vlen < 0:
            if vlen != -1:
                raise _corrupt(f"negative value length {vlen}")
            value = None
        else:
            if vlen > rend - pos:
                raise _corrupt(f"value length {vlen} goes beyond its record")
            value = bytes(data[pos : pos + vlen])
            pos += vlen
        nh, pos = _varint(data, pos, rend)
        if nh < 0 or nh > (rend - pos) // 2:
            raise _corrupt(f"header count {nh} is invalid for the bytes left in its record")
        headers = []
        for _h in range(nh):
            hklen, pos = _varint(data, pos, rend)
            if hklen < 0 or hklen > rend - pos:
                raise _corrupt(f"header key length {hklen} is invalid")
            hkey = bytes(data[pos : pos + hklen]).decode("utf-8", "surrogateescape")
            pos += hklen
            hvlen, pos = _varint(data, pos, rend)
            if hvlen < 0:
                if hvlen != -1:
                    raise _corrupt(f"negative header value length {hvlen}")
                hval = None
            else:
                if hvlen > rend - pos:
                    raise _corrupt(f"header value length {hvlen} goes beyond its record")
                hval = bytes(data[pos : pos + hvlen])
                pos += hvlen
            headers.append((hkey, hval))
        if pos != rend:
            raise _corrupt(f"record declares {length} bytes but its fields take {length - (rend - pos)}")
        out.append(
            Record(
                _i64(base_offset + off_delta),
                max_ts if log_append else _i64(base_ts + ts_delta),
                tstype,
                key,
                value,
                headers,
            )
        )
    if pos != end:
        raise _corrupt(f"{end - pos} bytes left over after the batch's {count} records")


# -- batches -----------------------------------------------------------------


class RecordBatch:
    """A record batch (magic 2).  Header fields are attributes; iterating decodes the
    records (lazily: nothing is parsed or decompressed until then)."""

    __slots__ = (
        "base_offset",
        "batch_length",
        "partition_leader_epoch",
        "magic",
        "crc",
        "attributes",
        "last_offset_delta",
        "base_timestamp",
        "max_timestamp",
        "producer_id",
        "producer_epoch",
        "base_sequence",
        "record_count",
        "_buf",
        "_max_size",
        "_records",
    )

    base_offset: int
    batch_length: int
    partition_leader_epoch: int
    magic: int
    crc: int
    attributes: int
    last_offset_delta: int
    base_timestamp: int
    max_timestamp: int
    producer_id: int
    producer_epoch: int
    base_sequence: int
    record_count: int

    def __init__(self, buf: memoryview, max_size: int):
        (
            self.base_offset,
            self.batch_length,
            self.partition_leader_epoch,
            self.magic,
            self.crc,
            self.attributes,
            self.last_offset_delta,
            self.base_timestamp,
            self.max_timestamp,
            self.producer_id,
            self.producer_epoch,
            self.base_sequence,
            self.record_count,
        ) = _HDR.unpack_from(buf, 0)
        self._buf = buf
        self._max_size = max_size
        self._records: Optional[List[Record]] = None

    compression_id = property(
        lambda self: self.attributes & COMPRESSION_MASK,
        doc="Codec id (0 none, 1 gzip, 2 snappy, 3 lz4, 4 zstd).",
    )
    compression = property(
        lambda self: _comp.codec_name(self.attributes & COMPRESSION_MASK),
        doc='Codec name: "none", "gzip", "snappy", "lz4" or "zstd".',
    )
    timestamp_type = property(
        lambda self: TIMESTAMP_TYPES[1 if self.attributes & TIMESTAMP_TYPE_BIT else 0],
        doc='"create" or "log_append".',
    )
    is_transactional = property(lambda self: bool(self.attributes & TRANSACTIONAL_BIT))
    is_control = property(lambda self: bool(self.attributes & CONTROL_BIT))
    has_delete_horizon = property(lambda self: bool(self.attributes & DELETE_HORIZON_BIT))
    delete_horizon_ms = property(
        lambda self: self.base_timestamp if self.attributes & DELETE_HORIZON_BIT else None,
        doc="The delete horizon (KIP-534) when the batch has one, else None.",
    )
    last_offset = property(lambda self: _i64(self.base_offset + self.last_offset_delta))
    next_offset = property(lambda self: _i64(self.base_offset + self.last_offset_delta + 1))
    size_in_bytes = property(lambda self: len(self._buf), doc="Bytes of the batch on the wire.")
    raw = property(lambda self: self._buf, doc="The batch's bytes (a view of the input).")

    def sequence_of(self, offset_delta: int) -> int:
        """The producer sequence of the record at ``offset_delta`` (-1 if none)."""
        return _next_sequence(self.base_sequence, offset_delta)

    def records(self) -> List[Record]:
        """The batch's records (decoded once, on first use)."""
        if self._records is None:
            data = self._buf[V2_HEADER_SIZE:]
            codec = self.attributes & COMPRESSION_MASK
            if codec:
                data = _comp.decompress(codec, data, max_size=self._max_size)
            out: List[Record] = []
            _parse_v2_records(
                data,
                self.record_count,
                self.base_offset,
                self.base_timestamp,
                bool(self.attributes & TIMESTAMP_TYPE_BIT),
                self.max_timestamp,
                out,
            )
            self._records = out
        return self._records

    def __iter__(self) -> Iterator[Record]:
        return iter(self.records())

    def __len__(self) -> int:
        return self.record_count

    def __repr__(self) -> str:
        return (
            f"RecordBatch(base_offset={self.base_offset}, magic=2, records="
            f"{self.record_count}, compression={self.compression!r}, "
            f"is_transactional={self.is_transactional}, is_control={self.is_control})"
        )


def _parse_legacy_message(
    buf: BytesLike, pos: int, end: int, verify_crc: bool, what: str, shift: int = 0
) -> Tuple[Any, ...]:
    """Parse one log entry at ``pos``; returns (offset, crc, magic, attributes,
    timestamp, key, value, next_pos).  The entry must lie within ``end``.  Errors give
    its position as ``pos + shift`` (``buf`` may be a view starting at ``shift``)."""
    at = pos + shift
    if end - pos < LOG_OVERHEAD + LEGACY_OVERHEAD[0]:
        raise _corrupt(f"{what} at byte {at} is shorter than a message")
    offset, size = _LOG.unpack_from(buf, pos)
    if size < LEGACY_OVERHEAD[0] or size > end - pos - LOG_OVERHEAD:
        raise _corrupt(f"{what} at byte {at} has an invalid size {size}")
    start = pos + LOG_OVERHEAD
    mend = start + size
    crc, magic, attrs = _LEGACY.unpack_from(buf, start)
    if magic not in (0, 1):
        raise _corrupt(f"{what} at byte {at} has magic {magic}, expected 0 or 1")
    if size < LEGACY_OVERHEAD[magic]:
        raise _corrupt(f"{what} at byte {at} is shorter than a v{magic} message")
    if verify_crc:
        actual = _crc32(buf[start + 4 : mend])
        if actual != crc:
            raise CorruptRecordError(
                f"{what} at byte {at}: CRC32 is {actual:#010x}, the message says {crc:#010x}"
            )
    p = start + 6
    timestamp = NO_TIMESTAMP
    if magic == 1:
        (timestamp,) = _I64.unpack_from(buf, p)
        p += 8
    fields: List[Optional[BytesLike]] = []
    for name in ("key", "value"):
        if mend - p < 4:
            raise _corrupt(f"{what} at byte {pos}: truncated {name} length")
        (n,) = _I32.unpack_from(buf, p)
        p += 4
        if n < 0:
            if n != -1:
                raise _corrupt(f"{what} at byte {pos}: negative {name} length {n}")
            fields.append(None)
        else:
            if n > mend - p:
                raise _corrupt(f"{what} at byte {pos}: {name} length {n} goes beyond the message")
            fields.append(buf[p : p + n])
            p += n
    if p != mend:
        raise _corrupt(f"{what} at byte {pos}: {mend - p} bytes left over in the message")
    return offset, crc, magic, attrs, timestamp, fields[0], fields[1], mend


class LegacyRecordBatch:
    """One top-level legacy message (magic 0 or 1): a plain message (one record) or a
    compressed wrapper whose value holds inner messages.  Same attribute names as
    :class:`RecordBatch`; fields legacy messages lack have Kafka's "none" values."""

    __slots__ = (
        "offset",
        "magic",
        "crc",
        "attributes",
        "timestamp",
        "_key",
        "_value",
        "_buf",
        "_verify",
        "_max_size",
        "_records",
    )

    partition_leader_epoch = -1
    producer_id = -1
    producer_epoch = -1
    base_sequence = -1
    is_transactional = False
    is_control = False
    has_delete_horizon = False
    delete_horizon_ms = None

    def __init__(self, buf: memoryview, verify_crc: bool, max_size: int, position: int = 0):
        (self.offset, self.crc, self.magic, self.attributes, self.timestamp, self._key, self._value, _end) = (
            _parse_legacy_message(buf, 0, len(buf), verify_crc, "message", position)
        )
        self._buf = buf
        self._verify = verify_crc
        self._max_size = max_size
        self._records: Optional[List[Record]] = None

    compression_id = property(lambda self: self.attributes & COMPRESSION_MASK)
    compression = property(lambda self: _comp.codec_name(self.attributes & COMPRESSION_MASK))
    timestamp_type = property(
        lambda self: (
            None if self.magic == 0 else TIMESTAMP_TYPES[1 if self.attributes & TIMESTAMP_TYPE_BIT else 0]
        )
    )
    size_in_bytes = property(lambda self: len(self._buf))
    raw = property(lambda self: self._buf)
    last_offset = property(
        lambda self: (
            self.records()[-1].offset
            if self.attributes & COMPRESSION_MASK and self.records()
            else self.offset
        )
    )
    next_offset = property(lambda self: self.last_offset + 1)
    max_timestamp = property(lambda self: self.timestamp)
    base_offset = property(
        lambda self: (
            self.records()[0].offset if self.attributes & COMPRESSION_MASK and self.records() else self.offset
        )
    )
    base_timestamp = property(lambda self: self.timestamp)
    record_count = property(lambda self: len(self.records()))
    last_offset_delta = property(lambda self: self.last_offset - self.base_offset)

    def sequence_of(self, offset_delta: int) -> int:
        return -1

    def records(self) -> List[Record]:
        if self._records is not None:
            return self._records
        codec = self.attributes & COMPRESSION_MASK
        tstype = self.timestamp_type
        if not codec:
            out = [
                Record(
                    self.offset,
                    self.timestamp if self.magic else None,
                    tstype,
                    None if self._key is None else bytes(self._key),
                    None if self._value is None else bytes(self._value),
                    [],
                )
            ]
            self._records = out
            return out
        if self._value is None:
            raise _corrupt(f"compressed message at offset {self.offset} has a null value")
        inner = _comp.decompress(codec, self._value, max_size=self._max_size, magic=self.magic)
        msgs = []
        pos = 0
        end = len(inner)
        while pos < end:
            off, _crc, magic, attrs, ts, key, value, pos = _parse_legacy_message(
                inner, pos, end, self._verify, "inner message"
            )
            if attrs & COMPRESSION_MASK:
                raise _corrupt("a compressed message holds another compressed message")
            if magic != self.magic:
                raise _corrupt(f"inner message magic {magic} differs from its wrapper's {self.magic}")
            msgs.append((off, ts, key, value))
        out = []
        if msgs:
            log_append = self.magic == 1 and self.attributes & TIMESTAMP_TYPE_BIT
            shift = _i64(self.offset - msgs[-1][0]) if self.magic == 1 else 0
            if shift < 0:
                # A producer-side wrapper (offset 0, as kafka-python writes) before the
                # broker assigned offsets: the inner offsets stand as they are.
                shift = 0
            for off, ts, key, value in msgs:
                out.append(
                    Record(
                        _i64(off + shift),
                        None if self.magic == 0 else self.timestamp if log_append else ts,
                        tstype,
                        None if key is None else bytes(key),
                        None if value is None else bytes(value),
                        [],
                    )
                )
        self._records = out
        return out

    def __iter__(self) -> Iterator[Record]:
        return iter(self.records())

    def __len__(self) -> int:
        return len(self.records())

    def __repr__(self) -> str:
        return (
            f"LegacyRecordBatch(offset={self.offset}, magic={self.magic}, compression={self.compression!r})"
        )


class BatchIterator:
    """Iterates the batches of a buffer (any mix of magic 0, 1 and 2).

    Iteration stops cleanly at a trailing partial batch (as at the end of a fetch
    response); :attr:`remaining_bytes` then says how many bytes were left unread, and
    :attr:`position` where they start.  Anything else malformed raises a
    :mod:`kafkawire.errors` exception.
    """

    __slots__ = ("_buf", "_verify", "_max_size", "position")

    def __init__(
        self,
        buf: BytesLike,
        verify_crc: bool = True,
        max_decompressed_size: int = _comp.DEFAULT_MAX_DECOMPRESSED_SIZE,
    ):
        view = memoryview(buf)
        if view.ndim != 1 or view.itemsize != 1:
            view = view.cast("B")
        self._buf = view
        self._verify = verify_crc
        self._max_size = (
            _comp.DEFAULT_MAX_DECOMPRESSED_SIZE if max_decompressed_size is None else max_decompressed_size
        )
        self.position = 0

    @property
    def remaining_bytes(self) -> int:
        """Bytes not yet consumed (after exhaustion: the size of a trailing partial batch)."""
        return len(self._buf) - self.position

    def __iter__(self) -> "BatchIterator":
        return self

    def __next__(self) -> Union[RecordBatch, LegacyRecordBatch]:
        buf = self._buf
        pos = self.position
        left = len(buf) - pos
        if left < LOG_OVERHEAD + 5:
            raise StopIteration
        (size,) = _I32.unpack_from(buf, pos + 8)
        if size < LEGACY_OVERHEAD[0]:
            raise _corrupt(f"batch at byte {pos} declares an invalid size {size}")
        magic = buf[pos + 16]
        if magic > 2:
            raise _corrupt(f"batch at byte {pos} has unknown magic {magic}")
        if size > left - LOG_OVERHEAD:
            raise StopIteration  # partial trailing batch
        end = pos + LOG_OVERHEAD + size
        view = buf[pos:end]
        batch: Union[RecordBatch, LegacyRecordBatch]
        if magic == 2:
            if size < V2_HEADER_SIZE - LOG_OVERHEAD:
                raise _corrupt(f"batch at byte {pos} is smaller than a v2 batch header")
            batch = RecordBatch(view, self._max_size)
            if self._verify:
                actual = _crc32c(view[21:])
                if actual != batch.crc:
                    raise CorruptRecordError(
                        f"record batch at byte {pos} (base offset {batch.base_offset}): CRC32C "
                        f"is {actual:#010x}, the batch says {batch.crc:#010x}"
                    )
        else:
            batch = LegacyRecordBatch(view, self._verify, self._max_size, pos)
        self.position = end
        return batch


def iter_batches(
    buf: BytesLike,
    *,
    verify_crc: bool = True,
    max_decompressed_size: int = _comp.DEFAULT_MAX_DECOMPRESSED_SIZE,
) -> BatchIterator:
    """The batches of ``buf``, as a :class:`BatchIterator` (see there)."""
    return BatchIterator(buf, verify_crc, max_decompressed_size)


def decode(
    buf: BytesLike,
    *,
    verify_crc: bool = True,
    max_decompressed_size: int = _comp.DEFAULT_MAX_DECOMPRESSED_SIZE,
) -> List[Record]:
    """Every record of every complete batch in ``buf`` (a trailing partial batch is
    ignored, as Kafka's consumers do)."""
    out: List[Record] = []
    for batch in BatchIterator(buf, verify_crc, max_decompressed_size):
        out.extend(batch.records())
    return out


# -- Arrow -------------------------------------------------------------------


def _arrow_key(key: str) -> str:
    """A header key for Arrow: non-UTF-8 bytes (surrogate-escaped) become U+FFFD."""
    try:
        key.encode("utf-8")
        return key
    except UnicodeEncodeError:
        return key.encode("utf-8", "surrogateescape").decode("utf-8", "replace")


def to_arrow(
    buf: BytesLike,
    *,
    verify_crc: bool = True,
    max_decompressed_size: int = _comp.DEFAULT_MAX_DECOMPRESSED_SIZE,
    columns: Optional[Iterable[str]] = None,
) -> Any:
    """A ``pyarrow.Table`` with one row per record of ``buf`` (see
    :func:`kafkawire.protocol.records.to_arrow` for the columns), only ``columns`` of them when
    given, in that order."""
    pa = _import_pyarrow()

    wanted = _arrow_columns(columns)
    if wanted == []:  # no columns, but as many rows as records, as the Cython backend
        return to_arrow(buf, verify_crc=verify_crc, max_decompressed_size=max_decompressed_size).select([])
    schema = arrow_schema()
    if wanted is not None:
        schema = pa.schema([schema.field(name) for name in wanted])
    cols: Dict[str, List[Any]] = {name: [] for name in schema.names}
    fill = {name: (lambda value: None) for name in arrow_schema().names}
    fill.update({name: cols[name].append for name in cols})
    for batch in BatchIterator(buf, verify_crc, max_decompressed_size):
        recs = batch.records()
        legacy = batch.magic < 2
        base = batch.base_offset if not legacy else 0
        tstype = -1 if batch.magic == 0 else (1 if batch.timestamp_type == "log_append" else 0)
        for r in recs:
            fill["offset"](r.offset)
            ts = r.timestamp  # None exactly for magic 0
            ts_null = ts is None or not -_TS_US_LIMIT <= ts <= _TS_US_LIMIT
            fill["timestamp"](None if ts is None or ts_null else ts * 1000)
            fill["timestamp_type"](None if ts_null else tstype)
            fill["key"](r.key)
            fill["value"](r.value)
            if "headers" in cols:
                cols["headers"].append([{"key": _arrow_key(k), "value": v} for k, v in r.headers])
            fill["sequence"](-1 if legacy else batch.sequence_of(r.offset - base))
        n = len(recs)
        for name, value in (
            ("partition_leader_epoch", batch.partition_leader_epoch),
            ("producer_id", batch.producer_id),
            ("producer_epoch", batch.producer_epoch),
            ("is_transactional", batch.is_transactional),
            ("is_control", batch.is_control),
            ("compression", batch.compression),
        ):
            if name in cols:
                cols[name].extend([value] * n)
    arrays = [pa.array(cols[field.name], type=field.type) for field in schema]
    return pa.Table.from_arrays(arrays, schema=schema)
