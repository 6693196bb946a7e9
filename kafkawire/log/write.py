"""Writing a partition folder as a broker does: segments rolled by size, with their
``.index`` and ``.timeindex`` (for the sample log, the test broker and the tests)."""

from __future__ import annotations

import os
import struct
from typing import (
    IO,
    List,
    Optional,
    Union,
)

from kafkawire.protocol.record_layout import (
    V2_HEADER_SIZE,
)
from kafkawire.log.indexes import INDEX_ENTRY, TIME_INDEX_ENTRY
from kafkawire.log.scan import parse_header
from kafkawire.log.segments import (
    INDEX_SUFFIX,
    LOG_SUFFIX,
    partition_segments,
    segment_name,
    TIME_INDEX_SUFFIX,
)
from kafkawire.log.storage import (
    LOCAL,
)

#: Kafka's default ``index.interval.bytes`` and ``segment.bytes``.
DEFAULT_INDEX_INTERVAL_BYTES = 4096
DEFAULT_SEGMENT_BYTES = 1 << 30
_INT64 = struct.Struct(">q")

# ---------------------------------------------------------------------------
# writing


def set_base_offset(batch: Union[bytearray, memoryview], base_offset: int) -> None:
    """Rewrite the base offset of the batch v2 in ``batch`` (in place).

    The base offset is outside the CRC's span, which is what lets a batch encoded with
    offsets from zero be placed anywhere in a log without re-encoding.
    """
    if len(batch) < V2_HEADER_SIZE or batch[16] != 2:
        raise ValueError("set_base_offset needs a batch of magic 2")
    _INT64.pack_into(batch, 0, base_offset)


class PartitionWriter:
    """Appends batches to a partition folder as Kafka would: segments, ``.index``,
    ``.timeindex``, rolling to a new segment past ``segment_bytes``.

    Batches are given as bytes of complete log entries with their offsets already
    right; :meth:`append` checks they follow on from the log's end.
    """

    def __init__(
        self,
        directory: str,
        *,
        next_offset: int = 0,
        segment_bytes: int = DEFAULT_SEGMENT_BYTES,
        index_interval_bytes: int = DEFAULT_INDEX_INTERVAL_BYTES,
    ) -> None:
        os.makedirs(directory, exist_ok=True)
        self.directory = directory
        self.next_offset = next_offset
        self.segment_bytes = segment_bytes
        self.index_interval_bytes = index_interval_bytes
        self._log: Optional[IO[bytes]] = None
        self._index: Optional[IO[bytes]] = None
        self._timeindex: Optional[IO[bytes]] = None
        self._base = 0
        self._size = 0
        self._since_index = 0
        self._max_ts = -1
        self._max_ts_offset = -1
        self._indexed_ts = -1  # the last timestamp written to the time index
        self.segments: List[str] = []
        existing = partition_segments(LOCAL, directory)
        if existing:
            last = existing[-1]
            # append to the last segment, rebuilding nothing: new index entries follow
            self._open(last.base_offset, append=True)

    def _open(self, base_offset: int, append: bool = False) -> None:
        self._close_segment()
        stem = os.path.join(self.directory, segment_name(base_offset, ""))
        mode = "ab" if append else "xb"
        self._log = open(stem + LOG_SUFFIX, mode)
        self._index = open(stem + INDEX_SUFFIX, "ab" if append else "wb")
        self._timeindex = open(stem + TIME_INDEX_SUFFIX, "ab" if append else "wb")
        self._base = base_offset
        self._size = self._log.tell()
        self._since_index = 0
        self._max_ts = self._max_ts_offset = self._indexed_ts = -1
        self.segments.append(stem + LOG_SUFFIX)

    def _close_segment(self) -> None:
        # as Kafka does when a segment is closed or rolled: the time index ends with the
        # segment's largest timestamp, so it tells how new the whole segment is
        if self._timeindex is not None and self._max_ts > self._indexed_ts:
            self._timeindex.write(TIME_INDEX_ENTRY.pack(self._max_ts, self._max_ts_offset - self._base))
            self._indexed_ts = self._max_ts
        for fh in (self._log, self._index, self._timeindex):
            if fh is not None:
                fh.close()
        self._log = self._index = self._timeindex = None

    def append(self, entries: Union[bytes, bytearray, memoryview]) -> None:
        """Append complete log entries (one or more batches) to the partition."""
        mv = memoryview(entries)
        off = 0
        while off < len(mv):
            h = parse_header(mv, off, path=self.directory)
            if h.base_offset < self.next_offset:
                raise ValueError(
                    f"batch at offset {h.base_offset} does not follow the log end {self.next_offset}"
                )
            if self._log is None:
                self._open(h.base_offset)
            elif self._size > 0 and self._size + h.size_in_bytes > self.segment_bytes:
                self._open(h.base_offset)
            log, index, timeindex = self._log, self._index, self._timeindex
            assert log is not None and index is not None and timeindex is not None  # _open made them
            if self._since_index > self.index_interval_bytes:
                index.write(INDEX_ENTRY.pack(h.last_offset - self._base, self._size))
                if self._max_ts_offset >= 0 and self._max_ts > self._indexed_ts:
                    timeindex.write(TIME_INDEX_ENTRY.pack(self._max_ts, self._max_ts_offset - self._base))
                    self._indexed_ts = self._max_ts
                self._since_index = 0
            log.write(mv[off : off + h.size_in_bytes])
            if h.magic >= 2 and h.max_timestamp > self._max_ts:
                self._max_ts, self._max_ts_offset = h.max_timestamp, h.last_offset
            self._size += h.size_in_bytes
            self._since_index += h.size_in_bytes
            self.next_offset = h.last_offset + 1
            off += h.size_in_bytes

    def roll(self) -> None:
        """Close the current segment: the next batch starts a new one, named after it."""
        self._close_segment()
        self._size = 0
        self._since_index = 0

    def close(self) -> None:
        """Flush and close the open segment."""
        self._close_segment()

    def __enter__(self) -> "PartitionWriter":
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()


__all__ = [
    "DEFAULT_INDEX_INTERVAL_BYTES",
    "DEFAULT_SEGMENT_BYTES",
    "set_base_offset",
    "PartitionWriter",
]


def __dir__() -> list[str]:  # what the module defines, not what it imports
    return sorted(__all__)
