"""Record batches straight from Arrow columns, and Kafka's key partitioner over a key
column: the pure-Python twins of ``kafkawire._fast.records``' ``encode_arrow_batches``
and ``arrow_key_partitions`` (the same batches, the same partitions, the same errors)."""

from __future__ import annotations

import array
from typing import Any, Dict, List, Optional, Tuple

from kafkawire._pure.crc import murmur2 as _murmur2
from kafkawire._pure.records_encode import encode_batch
from kafkawire.protocol.record_layout import (
    HEADER_ESTIMATE,
    NULL_HEADER,
    NULL_HEADER_KEY,
    RECORD_ESTIMATE,
    V2_HEADER_SIZE,
)
from kafkawire.protocol.record_layout import arrow_header_parts as _arrow_header_parts
from kafkawire.protocol.record_layout import check_arrow_binary as _check_arrow_binary
from kafkawire.protocol.record_layout import check_arrow_lengths as _check_arrow_lengths
from kafkawire.protocol.record_layout import check_int as _check_int
from kafkawire.protocol.record_layout import check_partition_count as _check_partition_count
from kafkawire.protocol.record_layout import next_sequence as _next_sequence
from kafkawire.errors import EncodeError

_Bytes = Optional[bytes]


def _column(column: Any, what: str) -> List[_Bytes]:
    _check_arrow_binary(column, what)
    return [v.encode() if isinstance(v, str) else v for v in column.to_pylist()]


def _headers(headers: Any) -> List[List[Tuple[bytes, _Bytes]]]:
    entries, keys, values = _arrow_header_parts(headers)
    _check_arrow_binary(keys, "header key")
    _check_arrow_binary(values, "header value")
    out = []
    for row in headers.to_pylist():
        pairs = []
        for h in row or ():
            if h is None:
                raise EncodeError(NULL_HEADER)
            k, v = h["key"], h["value"]
            if k is None:
                raise EncodeError(NULL_HEADER_KEY)
            pairs.append((k.encode() if isinstance(k, str) else k, v))
        out.append(pairs)
    return out


def _record_estimate(key: _Bytes, value: _Bytes, headers: List[Tuple[bytes, _Bytes]]) -> int:
    """A record's size as producers count it against the batch size."""
    size = RECORD_ESTIMATE + len(key or b"") + len(value or b"")
    for k, v in headers:
        size += HEADER_ESTIMATE + len(k) + len(v or b"")
    return size


def encode_arrow_batches(
    keys: Any,
    values: Any,
    headers: Any = None,
    *,
    max_bytes: int,
    timestamp: int,
    compression: str = "none",
    producer_id: int = -1,
    producer_epoch: int = -1,
    base_sequence: int = -1,
) -> List[Tuple[bytes, int]]:
    """The rows of Arrow columns as record batches of at most ``max_bytes`` (as
    producers count record sizes; a batch holds at least one record), in row order:
    a list of (batch, record count).  ``keys`` (or None: no keys) and ``values`` are
    binary or string arrays, ``headers`` a list<struct<key, value>> array (or None);
    every record gets ``timestamp``, and each batch's base sequence follows the last
    one's records."""
    ks = _column(keys, "key") if keys is not None else None
    vs = _column(values, "value")
    hs = _headers(headers) if headers is not None else None
    n = len(vs)
    _check_int("timestamp", timestamp, 64)
    _check_int("producer_id", producer_id, 64)
    _check_int("producer_epoch", producer_epoch, 16)
    _check_int("base_sequence", base_sequence, 32)
    _check_arrow_lengths(n, keys, headers)
    out: List[Tuple[bytes, int]] = []
    batch: List[Dict[str, Any]] = []
    size = 0
    seq = base_sequence

    def close() -> None:
        nonlocal seq
        data = encode_batch(
            batch,
            compression=compression,
            producer_id=producer_id,
            producer_epoch=producer_epoch,
            base_sequence=seq,
        )
        out.append((data, len(batch)))
        seq = _next_sequence(seq, len(batch))

    for i in range(n):
        key = ks[i] if ks is not None else None
        rec_headers = hs[i] if hs is not None else []
        rec_size = _record_estimate(key, vs[i], rec_headers)
        if batch and size + rec_size > max_bytes:
            close()
            batch = []
        if not batch:
            size = V2_HEADER_SIZE
        batch.append({"key": key, "value": vs[i], "headers": rec_headers, "timestamp": timestamp})
        size += rec_size
    if batch:
        close()
    return out


def arrow_key_partitions(keys: Any, partitions: int) -> bytes:
    """The partition Kafka's default partitioner gives each key of a binary or string
    Arrow array among ``partitions``, -1 for a null key: native int32s, one a row."""
    count = _check_partition_count(partitions)
    return array.array(
        "i", [-1 if k is None else (_murmur2(k) & 0x7FFFFFFF) % count for k in _column(keys, "key")]
    ).tobytes()


__all__ = ["encode_arrow_batches", "arrow_key_partitions"]
