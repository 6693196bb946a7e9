"""Kafka records: record batches (magic 2) and legacy message sets (magic 0 and 1).

Decode
    ``iter_batches(buf, *, verify_crc=True, max_decompressed_size=...)`` returns a
    :class:`BatchIterator` over the batches of ``buf``; a buffer may mix magics (each
    batch's magic is read at its own offset).  Iteration stops cleanly at a trailing
    partial batch, as at the end of a fetch response; the iterator's
    ``remaining_bytes`` then says how many bytes were left over (0 when the buffer
    ended on a batch boundary) and ``position`` where they start.

    Each batch (:class:`RecordBatch` for magic 2, :class:`LegacyRecordBatch` for one
    top-level legacy message or compressed wrapper) exposes every header field as an
    attribute: ``base_offset``, ``last_offset``, ``magic``, ``crc``, ``attributes``,
    ``compression`` ("none", "gzip", "snappy", "lz4", "zstd"), ``timestamp_type``
    ("create", "log_append"; None for magic 0), ``is_transactional``, ``is_control``,
    ``has_delete_horizon``/``delete_horizon_ms``, ``base_timestamp``,
    ``max_timestamp``, ``producer_id``, ``producer_epoch``, ``base_sequence``,
    ``partition_leader_epoch``, ``record_count``, ``size_in_bytes`` and ``raw`` (a
    memoryview of the input: batches are not copied).  The checksum (CRC32C over
    attributes-to-end for magic 2, CRC32 over magic-to-end for legacy messages) is
    verified when the batch is yielded, unless ``verify_crc=False``; records are
    parsed, and decompressed, only when the batch is iterated (``records()``).

    ``decode(buf, ...)`` returns every :class:`Record` of every complete batch.  A
    Record has ``offset``, ``timestamp`` (absolute ms; for ``log_append`` batches the
    batch's time; None for magic 0), ``timestamp_type``, ``key`` and ``value`` (bytes or
    None: copied out of the buffer, so records outlive it) and ``headers`` (list of
    ``(str, bytes | None)``; a key that is not valid UTF-8 decodes with
    ``surrogateescape`` and re-encodes to the same bytes).

    Malformed input raises a :mod:`kafkawire.errors` exception:
    :class:`~kafkawire.errors.CorruptRecordError` for a checksum mismatch or a batch
    whose sizes, counts or lengths are inconsistent,
    :class:`~kafkawire.errors.TruncatedError`/``InvalidVarintError`` for varints
    running off their record, :class:`~kafkawire.errors.DecompressionError` and
    :class:`~kafkawire.errors.DecompressionLimitError` for compressed payloads.
    Counts and lengths are checked against the bytes present before anything is
    allocated.

Encode
    ``encode_batch(records, *, magic=2, base_offset=0, compression="none", ...)``,
    ``encode_control_batch("commit"|"abort", ...)`` and :class:`BatchBuilder` (an
    incremental builder that refuses records past ``max_bytes``).

Arrow
    ``to_arrow(buf, ...)`` returns a ``pyarrow.Table`` (pyarrow is an optional extra),
    one row per record, columns: ``offset`` int64, ``timestamp`` timestamp[us, UTC]
    (null for magic 0, and for a
    timestamp whose microseconds overflow int64), ``timestamp_type`` int8 (0 create, 1 log append, null for
    magic 0: Kafka's and Spark's numbering), ``key``/``value`` binary, ``headers``
    list<struct<key: string, value: binary>> (non-UTF-8 key bytes become U+FFFD),
    ``partition_leader_epoch`` int32, ``producer_id`` int64, ``producer_epoch`` int16,
    ``sequence`` int32 (the record's producer sequence, -1 if none),
    ``is_transactional``/``is_control`` bool and ``compression`` string.  The Cython
    backend fills the Arrow buffers directly, without a Python object per record.
    ``columns=[...]`` builds only those columns, in that order (keys, values and
    headers not asked for are never copied).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from kafkawire import _backend
from kafkawire.protocol.record_layout import ControlRecord
from kafkawire.protocol.record_layout import parse_control_record as _parse_control_record
from kafkawire.protocol.compression import DEFAULT_MAX_DECOMPRESSED_SIZE

# Listed, not computed, so that type checkers know what the module exports: the active
# backend's names here, those both backends share added below.
__all__ = [
    "Record",
    "RecordBatch",
    "LegacyRecordBatch",
    "BatchIterator",
    "BatchBuilder",
    "iter_batches",
    "decode",
    "encode_batch",
    "encode_control_batch",
    "to_arrow",
    "arrow_schema",
]

if TYPE_CHECKING:  # a type checker reads the pure twin; at run time the active backend's objects
    from kafkawire._pure.records import (
        BatchBuilder,
        BatchIterator,
        LegacyRecordBatch,
        Record,
        RecordBatch,
        decode,
        encode_batch,
        encode_control_batch,
        iter_batches,
        to_arrow,
    )
    from kafkawire._backend_interfaces import RecordsBackend
    from kafkawire._pure import records as _pure_records
    from kafkawire.protocol.record_layout import arrow_schema

    _PURE_IS_A_BACKEND: RecordsBackend = _pure_records  # what implementation("records") promises
else:
    _backend.bind(globals(), "records", tuple(__all__))


def parse_control_record(record: Record) -> ControlRecord:
    """The control record a control batch's record holds: its type (``"commit"``,
    ``"abort"``, a KRaft type) and, for a transaction marker, the coordinator epoch."""
    return _parse_control_record(record.key, record.value)


__all__ += ["ControlRecord", "parse_control_record", "DEFAULT_MAX_DECOMPRESSED_SIZE"]


def __dir__() -> list[str]:  # what the module defines, not what it imports
    return sorted(__all__)
