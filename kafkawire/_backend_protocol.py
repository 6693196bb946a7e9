"""What a backend's ``records`` module provides to code that picks a backend by name
(:func:`kafkawire._backend.implementation`): the Cython module ``kafkawire._fast.records``
and its pure-Python twin ``kafkawire._pure.records`` both satisfy :class:`RecordsBackend`
(mypy checks the pure one in :mod:`kafkawire.records`; the differential tests hold the
two equal).

Imported only by type checkers: nothing here runs when kafkawire is imported.
"""

from __future__ import annotations

from typing import Any, Iterable, Iterator, Optional, Protocol, Union

from kafkawire.framing import BytesLike


class RecordsBackend(Protocol):
    """The record-batch functions the log readers, the cluster client and the Spark
    writer call through a backend chosen by name (the ``backend`` option)."""

    def iter_batches(
        self, buf: BytesLike, *, verify_crc: bool = ..., max_decompressed_size: int = ...
    ) -> Iterator[Any]:
        """The batches of ``buf`` (``RecordBatch`` and ``LegacyRecordBatch`` objects)."""
        ...

    def arrow_schema(self) -> Any:
        """The ``pyarrow.Schema`` of :meth:`to_arrow` tables."""
        ...

    def to_arrow(
        self,
        buf: BytesLike,
        *,
        verify_crc: bool = ...,
        max_decompressed_size: int = ...,
        columns: Optional[Iterable[str]] = ...,
    ) -> Any:
        """A ``pyarrow.Table`` with one row per record of ``buf``."""
        ...

    def encode_batch(
        self,
        records: Iterable[Any],
        *,
        magic: int = ...,
        base_offset: int = ...,
        compression: Union[str, int, None] = ...,
        compression_level: Optional[int] = ...,
        timestamp_type: Union[str, int, None] = ...,
        producer_id: int = ...,
        producer_epoch: int = ...,
        base_sequence: int = ...,
        is_transactional: bool = ...,
        partition_leader_epoch: int = ...,
        is_control: bool = ...,
        delete_horizon_ms: Optional[int] = ...,
    ) -> bytes:
        """``records`` encoded as one record batch (or legacy message set)."""
        ...
