"""What each backend module provides (:func:`kafkawire._backend.implementation` returns
it typed so): the Cython modules in ``kafkawire._fast`` and their pure-Python twins in
``kafkawire._pure`` both satisfy :class:`PrimitivesBackend`, :class:`CrcBackend`,
:class:`CodecBackend` and :class:`RecordsBackend` (mypy checks each pure twin in the
public module that binds its names; the differential tests hold the two equal).

Imported only by type checkers: nothing here runs when kafkawire is imported.
"""

from __future__ import annotations

import uuid
from typing import (
    Any,
    Callable,
    Iterable,
    Iterator,
    List,
    Optional,
    Protocol,
    Sequence,
    SupportsIndex,
    Tuple,
    Union,
)

from kafkawire.protocol.framing import BytesLike
from kafkawire.protocol.schema.plan import StructPlan


class PrimitivesBackend(Protocol):
    """Kafka's primitive types (:mod:`kafkawire.protocol.primitives` binds the active backend's):
    encoders take a value and return bytes, decoders take ``(buf, offset)`` and return
    ``(value, new_offset)``."""

    def encode_int8(self, value: Any) -> bytes: ...
    def decode_int8(self, buf: BytesLike, offset: int = ...) -> Tuple[Any, int]: ...
    def encode_int16(self, value: Any) -> bytes: ...
    def decode_int16(self, buf: BytesLike, offset: int = ...) -> Tuple[Any, int]: ...
    def encode_uint16(self, value: Any) -> bytes: ...
    def decode_uint16(self, buf: BytesLike, offset: int = ...) -> Tuple[Any, int]: ...
    def encode_int32(self, value: Any) -> bytes: ...
    def decode_int32(self, buf: BytesLike, offset: int = ...) -> Tuple[Any, int]: ...
    def encode_uint32(self, value: Any) -> bytes: ...
    def decode_uint32(self, buf: BytesLike, offset: int = ...) -> Tuple[Any, int]: ...
    def encode_int64(self, value: Any) -> bytes: ...
    def decode_int64(self, buf: BytesLike, offset: int = ...) -> Tuple[Any, int]: ...
    def encode_float64(self, value: Any) -> bytes: ...
    def decode_float64(self, buf: BytesLike, offset: int = ...) -> Tuple[Any, int]: ...
    def encode_bool(self, value: bool) -> bytes: ...
    def decode_bool(self, buf: BytesLike, offset: int = ...) -> Tuple[bool, int]: ...
    def encode_uuid(self, value: Optional[uuid.UUID]) -> bytes: ...
    def decode_uuid(self, buf: BytesLike, offset: int = ...) -> Tuple[uuid.UUID, int]: ...
    def encode_unsigned_varint(self, value: int) -> bytes: ...
    def decode_unsigned_varint(self, buf: BytesLike, offset: int = ...) -> Tuple[int, int]: ...
    def encode_varint(self, value: int) -> bytes: ...
    def decode_varint(self, buf: BytesLike, offset: int = ...) -> Tuple[int, int]: ...
    def encode_varlong(self, value: int) -> bytes: ...
    def decode_varlong(self, buf: BytesLike, offset: int = ...) -> Tuple[int, int]: ...
    def encode_array_length(self, count: Optional[int]) -> bytes: ...
    def decode_array_length(self, buf: BytesLike, offset: int = ...) -> Tuple[Optional[int], int]: ...
    def encode_compact_array_length(self, count: Optional[int]) -> bytes: ...
    def decode_compact_array_length(self, buf: BytesLike, offset: int = ...) -> Tuple[Optional[int], int]: ...
    def encode_bytes(self, value: BytesLike) -> bytes: ...
    def decode_bytes(self, buf: BytesLike, offset: int = ...) -> Tuple[bytes, int]: ...
    def encode_nullable_bytes(self, value: Optional[BytesLike]) -> bytes: ...
    def decode_nullable_bytes(self, buf: BytesLike, offset: int = ...) -> Tuple[Optional[bytes], int]: ...
    def encode_compact_bytes(self, value: BytesLike) -> bytes: ...
    def decode_compact_bytes(self, buf: BytesLike, offset: int = ...) -> Tuple[bytes, int]: ...
    def encode_compact_nullable_bytes(self, value: Optional[BytesLike]) -> bytes: ...
    def decode_compact_nullable_bytes(
        self, buf: BytesLike, offset: int = ...
    ) -> Tuple[Optional[bytes], int]: ...
    def encode_string(self, value: str) -> bytes: ...
    def decode_string(self, buf: BytesLike, offset: int = ...) -> Tuple[str, int]: ...
    def encode_nullable_string(self, value: Optional[str]) -> bytes: ...
    def decode_nullable_string(self, buf: BytesLike, offset: int = ...) -> Tuple[Optional[str], int]: ...
    def encode_compact_string(self, value: str) -> bytes: ...
    def decode_compact_string(self, buf: BytesLike, offset: int = ...) -> Tuple[str, int]: ...
    def encode_compact_nullable_string(self, value: Optional[str]) -> bytes: ...
    def decode_compact_nullable_string(
        self, buf: BytesLike, offset: int = ...
    ) -> Tuple[Optional[str], int]: ...
    def size_of_unsigned_varint(self, value: int) -> int: ...
    def size_of_varint(self, value: int) -> int: ...
    def size_of_varlong(self, value: int) -> int: ...

    def uninitialized_bytearray(self, size: int) -> bytearray:
        """A bytearray of ``size`` bytes for a decompressor to overwrite (zero-filled by
        the pure twin; the compiled one leaves it as the allocator gave it)."""
        ...


class CrcBackend(Protocol):
    """The checksums (:func:`kafkawire.crc32c` is the active backend's)."""

    def crc32c(self, data: BytesLike, crc: SupportsIndex = ...) -> int:
        """CRC32C (Castagnoli) of ``data``, continuing from ``crc``: record batches."""
        ...

    def crc32(self, data: BytesLike, crc: SupportsIndex = ...) -> int:
        """CRC32 (IEEE) of ``data``, continuing from ``crc``: legacy messages."""
        ...

    def murmur2(self, data: BytesLike) -> int:
        """MurmurHash2 of ``data`` as Kafka's clients compute it: its key partitioner."""
        ...

    def implementation(self) -> str:
        """Which CRC32C code runs (a hardware instruction or a table)."""
        ...


class CodecBackend(Protocol):
    """The executor of the schema's plans (the message classes and
    :mod:`kafkawire.protocol.requests` bind the active backend's)."""

    def encode(self, plan: StructPlan, obj: Any) -> bytes:
        """``obj`` encoded by ``plan``."""
        ...

    def encode_parts(self, parts: Sequence[Tuple[StructPlan, Any]], size_prefix: bool = ...) -> bytes:
        """Each ``(plan, obj)`` encoded, one after the other in one buffer (with a size
        prefix: a frame)."""
        ...

    def size(self, plan: StructPlan, obj: Any) -> int:
        """The size of ``obj`` encoded by ``plan``."""
        ...

    def decode(self, plan: StructPlan, buf: Any) -> Any:
        """The object ``buf`` encodes by ``plan`` (all of ``buf``)."""
        ...

    def decode_from(self, plan: StructPlan, buf: Any, offset: int = ...) -> Tuple[Any, int]:
        """The object ``buf`` encodes by ``plan`` from ``offset``, and the offset after it."""
        ...


class BatchBuilderLike(Protocol):
    """A batch being built record by record (each backend's ``BatchBuilder``)."""

    @property
    def record_count(self) -> int:
        """How many records the batch holds."""
        ...

    def append(
        self, key: Any = ..., value: Any = ..., headers: Any = ..., timestamp: Optional[int] = ...
    ) -> bool:
        """Add a record; False (nothing added) if the batch would pass its ``max_bytes``
        (the first record is always added)."""
        ...

    def build(self) -> bytes:
        """The encoded batch."""
        ...


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

    def encode_arrow_batches(
        self,
        keys: Any,
        values: Any,
        headers: Any = ...,
        *,
        max_bytes: int,
        timestamp: int,
        compression: str = ...,
        producer_id: int = ...,
        producer_epoch: int = ...,
        base_sequence: int = ...,
    ) -> List[Tuple[bytes, int]]:
        """Rows of Arrow columns as record batches of at most ``max_bytes``: (batch, records)."""
        ...

    def arrow_key_partitions(self, keys: Any, partitions: int) -> bytes:
        """Kafka's default partition of each key of an Arrow column (-1: null), as int32s."""
        ...

    def BatchBuilder(  # noqa: N802  # the backend's class, called to make one
        self,
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
        max_bytes: int = ...,
    ) -> BatchBuilderLike:
        """A new batch builder (the backend's ``BatchBuilder``)."""
        ...


class AvroBackend(Protocol):
    """The Avro-to-Arrow decoder (:mod:`kafkawire.avro.decode` runs the active backend's)."""

    def decode_column(
        self,
        count: int,
        array_offset: int,
        validity: Optional[Any],
        offsets: Any,
        data: Any,
        layout: Sequence[Tuple[int, int, Tuple[int, ...]]],
        plan_for: Callable[[int], Any],
        framed: bool,
    ) -> List[Tuple[Any, Any, Any, int]]:
        """The builders of ``layout`` filled from ``count`` values of a binary column."""
        ...


class ProtobufBackend(Protocol):
    """The Protobuf-to-Arrow decoder (:mod:`kafkawire.protobuf.decode` runs the active backend's)."""

    def decode_column(
        self,
        count: int,
        array_offset: int,
        validity: Optional[Any],
        offsets: Any,
        data: Any,
        layout: Sequence[Tuple[int, int, Tuple[int, ...]]],
        plan_for: Callable[[int, Sequence[int]], Any],
        framed: bool,
    ) -> List[Tuple[Any, Any, Any, int]]:
        """The builders of ``layout`` filled from ``count`` values of a binary column."""
        ...


class JsonSchemaBackend(Protocol):
    """The compiled JSON reader (:mod:`kafkawire.registry.json_schema` runs the active backend's)."""

    def read_column(
        self,
        count: int,
        array_offset: int,
        validity: Optional[Any],
        offsets: Any,
        data: Any,
        layout: Sequence[Tuple[int, int, Tuple[int, ...]]],
        plan: Any,
        decoder: Callable[[str], Any],
        takes_id: Optional[Callable[[int], bool]],
    ) -> Optional[Tuple[List[Tuple[Any, Any, Any, int]], List[int]]]:
        """The builders of ``layout`` filled from the values it can read and the rows it
        left to the exact reader; None: the exact reader reads every value."""
        ...
