"""Writing Kafka records, in pure Python: :func:`encode_batch`, :func:`encode_control_batch`
and :class:`BatchBuilder` of ``kafkawire._pure.records`` (which re-exports them), record
batches (magic 2) and legacy message sets (magic 0 and 1) with every compression."""

from __future__ import annotations

import struct
import time
from typing import Any, Dict, Iterable, List, Optional, Sequence, Tuple, Union

from kafkawire.protocol import compression as _comp
from kafkawire._pure.crc import crc32 as _crc32
from kafkawire._pure.crc import crc32c as _crc32c
from kafkawire.protocol.record_layout import LOG_ENTRY as _LOG
from kafkawire.protocol.record_layout import (
    CONTROL_BIT,
    DELETE_HORIZON_BIT,
    LEGACY_OVERHEAD,
    LOG_OVERHEAD,
    NO_TIMESTAMP,
    TRANSACTIONAL_BIT,
    V2_HEADER_SIZE,
)
from kafkawire.protocol.record_layout import MARKER_TYPES as _MARKER_TYPES
from kafkawire.protocol.record_layout import RECORD_FIELDS as _RECORD_FIELDS
from kafkawire.protocol.record_layout import V2_HEADER as _HDR
from kafkawire.protocol.record_layout import check_int as _check_int
from kafkawire.protocol.record_layout import timestamp_type_bit as _timestamp_type_bit
from kafkawire.protocol.record_layout import unknown_record_fields as _unknown_record_fields
from kafkawire.errors import EncodeError
from kafkawire.protocol.framing import BytesLike
from kafkawire.protocol.schema.plan import INT32_MAX, INT32_MIN

# (offset, timestamp, key, value, headers) of a record to encode
_Item = Tuple[int, int, Optional[bytes], Optional[bytes], Sequence[Tuple[bytes, Optional[bytes]]]]

_I32 = struct.Struct(">i")
_I64 = struct.Struct(">q")
_U32 = struct.Struct(">I")


def _now_ms() -> int:
    return int(time.time() * 1000)


def _field(rec: Any, name: str, default: Any = None) -> Any:
    if isinstance(rec, dict):
        return rec.get(name, default)
    return getattr(rec, name, default)


def _bytes_or_none(value: object, what: str) -> Optional[bytes]:
    if value is None:
        return None
    if isinstance(value, bytes):
        return value
    if isinstance(value, (bytearray, memoryview)):
        return bytes(value)
    if isinstance(value, str):
        return value.encode("utf-8")
    raise EncodeError(f"{what}: expected bytes or None, got {type(value).__name__}")


def _header_key(key: object) -> bytes:
    if isinstance(key, str):
        return key.encode("utf-8", "surrogateescape")
    if isinstance(key, (bytes, bytearray, memoryview)):
        return bytes(key)
    raise EncodeError(f"header key: expected str or bytes, got {type(key).__name__}")


def _enc_uvarint(value: int, out: bytearray) -> None:
    while value > 0x7F:
        out.append((value & 0x7F) | 0x80)
        value >>= 7
    out.append(value)


def _enc_varint(value: int, out: bytearray) -> None:
    if not INT32_MIN <= value <= INT32_MAX:
        raise EncodeError(f"varint {value} is out of the int32 range")
    _enc_uvarint(((value << 1) ^ (value >> 31)) & 0xFFFFFFFF, out)


def _enc_varlong(value: int, out: bytearray) -> None:
    if not -(2**63) <= value < 2**63:
        raise EncodeError(f"varlong {value} is out of the int64 range")
    _enc_uvarint(((value << 1) ^ (value >> 63)) & 0xFFFFFFFFFFFFFFFF, out)


def _v2_record(
    out: bytearray,
    off_delta: int,
    ts_delta: int,
    key: Optional[bytes],
    value: Optional[bytes],
    headers: Sequence[Tuple[bytes, Optional[bytes]]],
) -> None:
    body = bytearray(b"\x00")
    _enc_varlong(ts_delta, body)
    _enc_varint(off_delta, body)
    for item in (key, value):
        if item is None:
            body.append(1)  # zigzag(-1)
        else:
            _enc_varint(len(item), body)
            body += item
    _enc_varint(len(headers), body)
    for hk, hv in headers:
        _enc_varint(len(hk), body)
        body += hk
        if hv is None:
            body.append(1)
        else:
            _enc_varint(len(hv), body)
            body += hv
    _enc_varint(len(body), out)
    out += body


def _normalize(records: Iterable[Any], base_offset: int) -> List[_Item]:
    """(offset, timestamp, key, value, headers) tuples from records or dicts."""
    items: List[_Item] = []
    now = None
    next_offset = base_offset
    for rec in records:
        if isinstance(rec, dict) and not rec.keys() <= _RECORD_FIELDS:
            raise _unknown_record_fields(rec)
        offset = _field(rec, "offset")
        if offset is None:
            offset = next_offset
        if not isinstance(offset, int):
            raise EncodeError(f"record offset must be an int, got {offset!r}")
        if not -(2**63) <= offset < 2**63:
            raise EncodeError(f"record offset {offset} does not fit in int64")
        if items and offset <= items[-1][0]:
            raise EncodeError(f"record offsets must increase: {offset} after {items[-1][0]}")
        if offset < base_offset:
            raise EncodeError(f"record offset {offset} is below base_offset {base_offset}")
        next_offset = offset + 1
        ts = _field(rec, "timestamp")
        if ts is None:
            ts = now if now is not None else _now_ms()
            now = ts
        if not isinstance(ts, int):
            raise EncodeError(f"record timestamp must be an int (ms), got {ts!r}")
        if not -(2**63) <= ts < 2**63:
            raise EncodeError(f"record timestamp {ts} does not fit in int64")
        key = _bytes_or_none(_field(rec, "key"), "key")
        value = _bytes_or_none(_field(rec, "value"), "value")
        raw_headers = _field(rec, "headers") or ()
        headers = []
        for h in raw_headers:
            try:
                hk, hv = h
            except (TypeError, ValueError):
                raise EncodeError(f"a header must be a (key, value) pair, got {h!r}") from None
            headers.append((_header_key(hk), _bytes_or_none(hv, "header value")))
        items.append((offset, ts, key, value, headers))
    return items


def _v2_batch(
    items: List[_Item],
    *,
    base_offset: int,
    codec: int,
    level: Optional[int],
    ts_bit: int,
    producer_id: int,
    producer_epoch: int,
    base_sequence: int,
    is_transactional: bool,
    is_control: bool,
    partition_leader_epoch: int,
    delete_horizon_ms: Optional[int] = None,
) -> bytes:
    _check_int("base_offset", base_offset, 64)
    _check_int("producer_id", producer_id, 64)
    _check_int("producer_epoch", producer_epoch, 16)
    _check_int("base_sequence", base_sequence, 32)
    _check_int("partition_leader_epoch", partition_leader_epoch, 32)
    if delete_horizon_ms is not None:
        _check_int("delete_horizon_ms", delete_horizon_ms, 64)
    if items:
        base_ts = items[0][1] if delete_horizon_ms is None else delete_horizon_ms
        max_ts = max(it[1] for it in items)
        last_delta = items[-1][0] - base_offset
    else:
        base_ts = NO_TIMESTAMP if delete_horizon_ms is None else delete_horizon_ms
        max_ts = NO_TIMESTAMP
        last_delta = 0
    _check_int("base timestamp", base_ts, 64)
    body = bytearray()
    for offset, ts, key, value, headers in items:
        _check_int("timestamp", ts, 64)
        delta = offset - base_offset
        if delta > INT32_MAX:
            raise EncodeError(f"offset {offset} is too far from base_offset {base_offset}")
        if not -(2**63) <= ts - base_ts < 2**63:
            raise EncodeError(f"timestamp {ts} is too far from the base timestamp {base_ts}")
        _v2_record(body, delta, ts - base_ts, key, value, headers)
    records: BytesLike = _comp.compress(codec, body, level) if codec else body
    attrs = (
        codec
        | (ts_bit << 3)
        | (TRANSACTIONAL_BIT if is_transactional else 0)
        | (CONTROL_BIT if is_control else 0)
        | (DELETE_HORIZON_BIT if delete_horizon_ms is not None else 0)
    )
    out = bytearray(V2_HEADER_SIZE)
    _HDR.pack_into(
        out,
        0,
        base_offset,
        V2_HEADER_SIZE - LOG_OVERHEAD + len(records),
        partition_leader_epoch,
        2,
        0,
        attrs,
        last_delta,
        base_ts,
        max_ts,
        producer_id,
        producer_epoch,
        base_sequence,
        len(items),
    )
    out += records
    _U32.pack_into(out, 17, _crc32c(memoryview(out)[21:]))
    return bytes(out)


def _legacy_message(
    out: bytearray, offset: int, magic: int, attrs: int, ts: int, key: Optional[bytes], value: Optional[bytes]
) -> None:
    start = len(out)
    out += _LOG.pack(offset, 0)
    out += b"\x00\x00\x00\x00"
    out.append(magic)
    out.append(attrs)
    if magic == 1:
        out += _I64.pack(ts)
    for item in (key, value):
        if item is None:
            out += b"\xff\xff\xff\xff"
        else:
            out += _I32.pack(len(item))
            out += item
    _I32.pack_into(out, start + 8, len(out) - start - LOG_OVERHEAD)
    _U32.pack_into(out, start + 12, _crc32(memoryview(out)[start + 16 :]))


def _check_legacy_item(item: _Item, magic: int) -> None:
    """What a v0/v1 message can hold: no headers, an int64 offset (and timestamp, v1)."""
    offset, ts, _key, _value, headers = item
    if headers:
        raise EncodeError(f"magic {magic} messages cannot carry headers")
    _check_int("offset", offset, 64)
    if magic == 1:
        _check_int("timestamp", ts, 64)


def _legacy_batch(
    items: List[_Item], *, magic: int, base_offset: int, codec: int, level: Optional[int], ts_bit: int
) -> bytes:
    if codec == _comp.ZSTD:
        raise EncodeError("zstd compression needs magic 2")
    for it in items:
        _check_legacy_item(it, magic)
    out = bytearray()
    if not codec:
        attrs = ts_bit << 3 if magic == 1 else 0
        for offset, ts, key, value, _h in items:
            _legacy_message(out, offset, magic, attrs, ts, key, value)
        return bytes(out)
    if not items:
        return b""
    inner = bytearray()
    for offset, ts, key, value, _h in items:
        _legacy_message(inner, offset - base_offset if magic == 1 else offset, magic, 0, ts, key, value)
    payload = _comp.compress(codec, inner, level, magic=magic)
    wrapper_ts = max(it[1] for it in items) if magic == 1 else NO_TIMESTAMP
    attrs = codec | ((ts_bit << 3) if magic == 1 else 0)
    _legacy_message(out, items[-1][0], magic, attrs, wrapper_ts, None, payload)
    return bytes(out)


def encode_batch(
    records: Iterable[Any],
    *,
    magic: int = 2,
    base_offset: int = 0,
    compression: Union[str, int, None] = "none",
    compression_level: Optional[int] = None,
    timestamp_type: Union[str, int, None] = "create",
    producer_id: int = -1,
    producer_epoch: int = -1,
    base_sequence: int = -1,
    is_transactional: bool = False,
    partition_leader_epoch: int = -1,
    is_control: bool = False,
    delete_horizon_ms: Optional[int] = None,
) -> bytes:
    """Encode ``records`` (Record objects or dicts with ``key``, ``value``,
    ``headers``, ``timestamp`` in ms (default: now) and an optional ``offset``) as one
    record batch (magic 2) or a legacy message set (magic 0/1; compressed as one
    wrapper message)."""
    codec = _comp.codec_id(compression)
    ts_bit = _timestamp_type_bit(timestamp_type)
    _check_int("base_offset", base_offset, 64)
    items = _normalize(records, base_offset)
    if magic == 2:
        return _v2_batch(
            items,
            base_offset=base_offset,
            codec=codec,
            level=compression_level,
            ts_bit=ts_bit,
            producer_id=producer_id,
            producer_epoch=producer_epoch,
            base_sequence=base_sequence,
            is_transactional=is_transactional,
            is_control=is_control,
            partition_leader_epoch=partition_leader_epoch,
            delete_horizon_ms=delete_horizon_ms,
        )
    if magic in (0, 1):
        if is_transactional or is_control or producer_id != -1 or delete_horizon_ms is not None:
            raise EncodeError(f"magic {magic} messages have no producer or transaction fields")
        return _legacy_batch(
            items, magic=magic, base_offset=base_offset, codec=codec, level=compression_level, ts_bit=ts_bit
        )
    raise EncodeError(f"unknown magic {magic!r}; expected 0, 1 or 2")


def encode_control_batch(
    control_type: str,
    *,
    base_offset: int = 0,
    producer_id: int,
    producer_epoch: int,
    coordinator_epoch: int = 0,
    timestamp: Optional[int] = None,
    partition_leader_epoch: int = -1,
) -> bytes:
    """A transaction marker batch: one control record of type ``"commit"`` or
    ``"abort"`` (key: version 0 + type; value: version 0 + coordinator epoch)."""
    try:
        ctype = _MARKER_TYPES[control_type]
    except KeyError:
        raise EncodeError(f"control_type must be 'commit' or 'abort', not {control_type!r}") from None
    key = struct.pack(">hh", 0, ctype)
    value = struct.pack(">hi", 0, _check_int("coordinator_epoch", coordinator_epoch, 32))
    rec = {"key": key, "value": value, "timestamp": timestamp}
    return encode_batch(
        [rec],
        base_offset=base_offset,
        producer_id=producer_id,
        producer_epoch=producer_epoch,
        is_transactional=True,
        is_control=True,
        partition_leader_epoch=partition_leader_epoch,
    )


class BatchBuilder:
    """Builds one batch record by record, for producers.

    :meth:`append` returns False (and keeps nothing) once the batch would pass
    ``max_bytes`` (counted uncompressed, so a compressed batch ends up smaller); the
    first record is always accepted, as in Kafka's producer.  :meth:`build` returns the
    encoded batch.
    """

    def __init__(
        self,
        *,
        magic: int = 2,
        base_offset: int = 0,
        compression: Union[str, int, None] = "none",
        compression_level: Optional[int] = None,
        timestamp_type: Union[str, int, None] = "create",
        producer_id: int = -1,
        producer_epoch: int = -1,
        base_sequence: int = -1,
        is_transactional: bool = False,
        partition_leader_epoch: int = -1,
        max_bytes: int = 1024 * 1024,
    ):
        if magic not in (0, 1, 2):
            raise EncodeError(f"unknown magic {magic!r}; expected 0, 1 or 2")
        self._opts: Dict[str, Any] = dict(
            magic=magic,
            base_offset=base_offset,
            compression=compression,
            compression_level=compression_level,
            timestamp_type=timestamp_type,
            producer_id=producer_id,
            producer_epoch=producer_epoch,
            base_sequence=base_sequence,
            is_transactional=is_transactional,
            partition_leader_epoch=partition_leader_epoch,
        )
        _comp.codec_id(compression)
        _timestamp_type_bit(timestamp_type)
        self.magic = magic
        self.base_offset = base_offset
        self.max_bytes = max_bytes
        self._items: List[_Item] = []
        self._size = (
            V2_HEADER_SIZE
            if magic == 2
            else (LOG_OVERHEAD + LEGACY_OVERHEAD[magic] if _comp.codec_id(compression) else 0)
        )
        self._first_ts: Optional[int] = None

    @property
    def record_count(self) -> int:
        return len(self._items)

    @property
    def size_in_bytes(self) -> int:
        """The batch's size so far, uncompressed."""
        return self._size

    def _record_size(
        self,
        offset: int,
        ts: int,
        key: Optional[bytes],
        value: Optional[bytes],
        headers: Sequence[Tuple[bytes, Optional[bytes]]],
    ) -> int:
        if self.magic != 2:
            return LOG_OVERHEAD + LEGACY_OVERHEAD[self.magic] + len(key or b"") + len(value or b"")
        body = bytearray()
        first = self._first_ts if self._first_ts is not None else ts
        _v2_record(body, offset - self.base_offset, ts - first, key, value, headers)
        return len(body)

    def append(
        self, key: Any = None, value: Any = None, headers: Any = None, timestamp: Optional[int] = None
    ) -> bool:
        """Add a record; False (nothing added) if it would pass ``max_bytes``."""
        (item,) = _normalize(
            [{"key": key, "value": value, "headers": headers, "timestamp": timestamp}], self.base_offset
        )
        # the offset after normalising: reading the headers may have run code that appended
        item = (self.base_offset + len(self._items),) + item[1:]
        if self.magic != 2:
            _check_legacy_item(item, self.magic)
        else:
            _check_int("timestamp", item[1], 64)
        size = self._record_size(*item)
        if self._items and self._size + size > self.max_bytes:
            return False
        if self._first_ts is None:
            self._first_ts = item[1]
        self._items.append(item)
        self._size += size
        return True

    def build(self) -> bytes:
        """The encoded batch."""
        recs = [
            {"offset": o, "timestamp": t, "key": k, "value": v, "headers": h} for o, t, k, v, h in self._items
        ]
        return encode_batch(recs, **self._opts)


__all__ = ["encode_batch", "encode_control_batch", "BatchBuilder"]
