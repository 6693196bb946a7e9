"""Type stubs of kafkawire._fast.records (same API as kafkawire._pure.records)."""

from typing import Any, Iterable, Iterator, List, Mapping, Optional, Tuple, Union

import pyarrow

Header = Tuple[str, Optional[bytes]]
RecordLike = Union["Record", Mapping[str, Any]]

class Record:
    offset: int
    timestamp: Optional[int]
    timestamp_type: Optional[str]
    key: Optional[bytes]
    value: Optional[bytes]
    headers: List[Header]
    def __init__(
        self,
        offset: int = ...,
        timestamp: Optional[int] = ...,
        timestamp_type: Optional[str] = ...,
        key: Optional[bytes] = ...,
        value: Optional[bytes] = ...,
        headers: Optional[List[Header]] = ...,
    ) -> None: ...
    def as_tuple(
        self,
    ) -> Tuple[int, Optional[int], Optional[str], Optional[bytes], Optional[bytes], List[Header]]: ...

class RecordBatch:
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
    compression_id: int
    compression: str
    timestamp_type: str
    is_transactional: bool
    is_control: bool
    has_delete_horizon: bool
    delete_horizon_ms: Optional[int]
    last_offset: int
    next_offset: int
    size_in_bytes: int
    raw: memoryview
    def sequence_of(self, offset_delta: int) -> int: ...
    def records(self) -> List[Record]: ...
    def __iter__(self) -> Iterator[Record]: ...
    def __len__(self) -> int: ...

class LegacyRecordBatch:
    offset: int
    base_offset: int
    last_offset: int
    next_offset: int
    last_offset_delta: int
    magic: int
    crc: int
    attributes: int
    timestamp: int
    base_timestamp: int
    max_timestamp: int
    compression_id: int
    compression: str
    timestamp_type: Optional[str]
    record_count: int
    size_in_bytes: int
    raw: memoryview
    partition_leader_epoch: int
    producer_id: int
    producer_epoch: int
    base_sequence: int
    is_transactional: bool
    is_control: bool
    has_delete_horizon: bool
    delete_horizon_ms: Optional[int]
    def sequence_of(self, offset_delta: int) -> int: ...
    def records(self) -> List[Record]: ...
    def __iter__(self) -> Iterator[Record]: ...
    def __len__(self) -> int: ...

class BatchIterator:
    position: int
    @property
    def remaining_bytes(self) -> int: ...
    def __init__(
        self, buf: Any, verify_crc: bool = ..., max_decompressed_size: Optional[int] = ...
    ) -> None: ...
    def __iter__(self) -> "BatchIterator": ...
    def __next__(self) -> Union[RecordBatch, LegacyRecordBatch]: ...

class BatchBuilder:
    magic: int
    base_offset: int
    max_bytes: int
    def __init__(
        self,
        *,
        magic: int = ...,
        base_offset: int = ...,
        compression: Union[str, int] = ...,
        compression_level: Optional[int] = ...,
        timestamp_type: str = ...,
        producer_id: int = ...,
        producer_epoch: int = ...,
        base_sequence: int = ...,
        is_transactional: bool = ...,
        partition_leader_epoch: int = ...,
        max_bytes: int = ...,
    ) -> None: ...
    @property
    def record_count(self) -> int: ...
    @property
    def size_in_bytes(self) -> int: ...
    def append(
        self,
        key: Optional[bytes] = ...,
        value: Optional[bytes] = ...,
        headers: Optional[Iterable[Tuple[Union[str, bytes], Optional[bytes]]]] = ...,
        timestamp: Optional[int] = ...,
    ) -> bool: ...
    def build(self) -> bytes: ...

def iter_batches(
    buf: Any, *, verify_crc: bool = ..., max_decompressed_size: Optional[int] = ...
) -> BatchIterator: ...
def decode(
    buf: Any, *, verify_crc: bool = ..., max_decompressed_size: Optional[int] = ...
) -> List[Record]: ...
def encode_batch(
    records: Iterable[RecordLike],
    *,
    magic: int = ...,
    base_offset: int = ...,
    compression: Union[str, int] = ...,
    compression_level: Optional[int] = ...,
    timestamp_type: str = ...,
    producer_id: int = ...,
    producer_epoch: int = ...,
    base_sequence: int = ...,
    is_transactional: bool = ...,
    partition_leader_epoch: int = ...,
    is_control: bool = ...,
    delete_horizon_ms: Optional[int] = ...,
) -> bytes: ...
def encode_control_batch(
    control_type: str,
    *,
    base_offset: int = ...,
    producer_id: int,
    producer_epoch: int,
    coordinator_epoch: int = ...,
    timestamp: Optional[int] = ...,
    partition_leader_epoch: int = ...,
) -> bytes: ...
def to_arrow(
    buf: Any,
    *,
    verify_crc: bool = ...,
    max_decompressed_size: Optional[int] = ...,
    columns: Optional[Iterable[str]] = ...,
) -> pyarrow.Table: ...
def arrow_schema() -> pyarrow.Schema: ...
