"""A segment's index files, and the lookups that use them.

``.index`` (offset -> file position), ``.timeindex`` (timestamp -> offset) and
``.txnindex`` (aborted transactions) are read whole or looked up by binary search; the
lookups say where to cut a segment into ranges (:func:`split_segment`) and where a read
bounded by offset or timestamp can start and stop.  An index entry is checked against
the batch header it points at before it is trusted.
"""

from __future__ import annotations

import struct
from dataclasses import dataclass
from typing import (
    Callable,
    Iterable,
    List,
    Optional,
    Tuple,
    TypeVar,
)

from kafkawire.protocol.record_layout import (
    V2_HEADER_SIZE,
)
from kafkawire.log.scan import check_boundary, parse_header, scan_headers
from kafkawire.log.segments import LOG_SUFFIX, TIME_INDEX_SUFFIX, Segment, SegmentError
from kafkawire.log.storage import (
    LOCAL,
    RangeFile,
    Store,
)

#: The entry layouts of ``.index``, ``.timeindex`` and ``.txnindex`` (version 0) files.
INDEX_ENTRY = struct.Struct(">ii")
TIME_INDEX_ENTRY = struct.Struct(">qi")
TXN_INDEX_ENTRY = struct.Struct(">hqqqq")

# ---------------------------------------------------------------------------
# index files


def _read_whole(path: str, store: Store) -> bytes:
    with store.open(path) as f:
        return f.read_at(0, f.size)


def read_offset_index(path: str, base_offset: int = 0, *, store: Store = LOCAL) -> List[Tuple[int, int]]:
    """``(absolute offset, position)`` entries of a ``.index`` file, in order.

    Kafka preallocates the active segment's index and fills it with zeros; entries stop
    at the first one that does not increase.
    """
    data = _read_whole(path, store)
    out: List[Tuple[int, int]] = []
    last_rel = last_pos = -1
    for i in range(0, len(data) - len(data) % 8, 8):
        rel, pos = INDEX_ENTRY.unpack_from(data, i)
        if out and (rel <= last_rel or pos <= last_pos):
            break
        if rel < 0 or pos < 0:
            break
        out.append((base_offset + rel, pos))
        last_rel, last_pos = rel, pos
    return out


def read_time_index(path: str, base_offset: int = 0, *, store: Store = LOCAL) -> List[Tuple[int, int]]:
    """``(timestamp ms, absolute offset)`` entries of a ``.timeindex`` file, in order."""
    data = _read_whole(path, store)
    out: List[Tuple[int, int]] = []
    for i in range(0, len(data) - len(data) % 12, 12):
        ts, rel = TIME_INDEX_ENTRY.unpack_from(data, i)
        if out and (ts < out[-1][0] or base_offset + rel <= out[-1][1]):
            break
        if ts == 0 and rel == 0 and out:
            break
        out.append((ts, base_offset + rel))
    return out


_Entry = Tuple[int, ...]  # one index entry's fields
_IndexT = TypeVar("_IndexT", bound="_IndexFile")


class _IndexFile:
    """The fixed-size entries of an ``.index`` or ``.timeindex`` file, read where a
    lookup needs them (a few reads per binary search, as a broker looks them up) instead
    of all at once.  Plain reads, not mmap: a broker may shrink the file meanwhile, and
    a read then comes back short instead of killing the process.

    Kafka preallocates the active segment's index with zeros; the entries end at the
    first one that does not grow over the one before, found by binary search too.
    """

    entry: struct.Struct

    def __init__(self, path: str, base_offset: int = 0, *, store: Store = LOCAL) -> None:
        self.base_offset = base_offset
        self._f = store.open(path)
        try:
            n = self._f.size // self.entry.size
            first = self._raw(0) if n else None
            if first is None or not self._valid_first(first):
                self.count = 0
            else:
                # the first entry that does not grow over the one before it
                self.count = _first_true(1, n, lambda i: not self._grows(i))
        except BaseException:
            self._f.close()
            raise

    def _raw(self, i: int) -> Optional[_Entry]:
        data = self._f.read_at(i * self.entry.size, self.entry.size)
        return self.entry.unpack(data) if len(data) == self.entry.size else None

    def _grows(self, i: int) -> bool:
        prev, cur = self._raw(i - 1), self._raw(i)
        return prev is not None and cur is not None and self._after(prev, cur)

    def __len__(self) -> int:
        return self.count

    def close(self) -> None:
        self._f.close()

    def __enter__(self: _IndexT) -> _IndexT:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    @staticmethod
    def _valid_first(raw: _Entry) -> bool:
        raise NotImplementedError

    @staticmethod
    def _after(prev: _Entry, cur: _Entry) -> bool:
        raise NotImplementedError


def _first_true(lo: int, hi: int, pred: Callable[[int], bool]) -> int:
    """The smallest ``i`` in ``[lo, hi)`` with ``pred(i)`` true (``hi`` if none), for a
    ``pred`` that is false up to some point and true from there on."""
    while lo < hi:
        mid = (lo + hi) // 2
        if pred(mid):
            hi = mid
        else:
            lo = mid + 1
    return lo


class OffsetIndex(_IndexFile):
    """A segment's ``.index``: ``entry(i)`` is ``(absolute offset, position)``, the
    offset being the last one of the batch at that position."""

    entry = INDEX_ENTRY

    @staticmethod
    def _valid_first(raw: _Entry) -> bool:
        return raw[0] >= 0 and raw[1] >= 0

    @staticmethod
    def _after(prev: _Entry, cur: _Entry) -> bool:
        return cur[0] > prev[0] and cur[1] > prev[1]

    def entry_at(self, i: int) -> Tuple[int, int]:
        raw = self._raw(i)
        if raw is None:  # the file shrank since it was opened
            raise OSError(f"{self._f.path} shrank while being read")
        return self.base_offset + raw[0], raw[1]

    def first_offset_at_least(self, offset: int) -> int:
        """The first entry whose offset is ``>= offset`` (``len(self)`` if none)."""
        return _first_true(0, self.count, lambda i: self.entry_at(i)[0] >= offset)

    def first_position_at_least(self, position: int) -> int:
        """The first entry whose position is ``>= position`` (``len(self)`` if none)."""
        return _first_true(0, self.count, lambda i: self.entry_at(i)[1] >= position)


class TimeIndex(_IndexFile):
    """A segment's ``.timeindex``: ``entry(i)`` is ``(timestamp ms, absolute offset)``,
    the largest timestamp of the segment up to that offset."""

    entry = TIME_INDEX_ENTRY

    @staticmethod
    def _valid_first(raw: _Entry) -> bool:
        return raw[1] >= 0

    @staticmethod
    def _after(prev: _Entry, cur: _Entry) -> bool:
        return cur[0] >= prev[0] and cur[1] > prev[1] and cur != (0, 0)

    def entry_at(self, i: int) -> Tuple[int, int]:
        raw = self._raw(i)
        if raw is None:
            raise OSError(f"{self._f.path} shrank while being read")
        return raw[0], self.base_offset + raw[1]

    def first_timestamp_at_least(self, timestamp: int) -> int:
        """The first entry whose timestamp is ``>= timestamp`` (``len(self)`` if none)."""
        return _first_true(0, self.count, lambda i: self.entry_at(i)[0] >= timestamp)


@dataclass(frozen=True)
class AbortedTxn:
    """An entry of a ``.txnindex`` file: the offsets an aborted transaction spans."""

    producer_id: int
    first_offset: int
    last_offset: int
    last_stable_offset: int


def read_txn_index(path: str, *, store: Store = LOCAL) -> List[AbortedTxn]:
    """The aborted transactions of a ``.txnindex`` file."""
    data = _read_whole(path, store)
    out = []
    for i in range(0, len(data) - len(data) % TXN_INDEX_ENTRY.size, TXN_INDEX_ENTRY.size):
        _version, pid, first, last, lso = TXN_INDEX_ENTRY.unpack_from(data, i)
        out.append(AbortedTxn(pid, first, last, lso))
    return out


def split_segment(
    segment: Segment, target_bytes: int, start: int = 0, end: Optional[int] = None
) -> List[Tuple[int, int]]:
    """Byte ranges ``(start, end)`` covering ``segment[start:end]`` (``start`` a batch
    boundary) with about ``target_bytes`` each.

    Every range starts at a batch boundary.  The ``.index`` file gives the boundaries when
    present (each cut looked up by binary search and checked against the batch header it
    points at); otherwise the batch headers are scanned.  A range smaller than
    ``target_bytes`` stays whole.
    """
    end = segment.size if end is None else end
    if target_bytes <= 0 or end - start <= target_bytes:
        return [(start, end)] if end > start else []
    cuts: Optional[List[int]] = None
    with segment.store.open(segment.path, segment.size) as f:
        if segment.index_path:
            try:
                cuts = _index_cuts(f, segment, target_bytes, start, end)
            except OSError:
                cuts = None
        if cuts is None:  # no index, or a stale or foreign one: trust the headers
            cuts = []
            want = start + target_bytes
            for h in scan_headers(segment.path, start, end, f=f):
                if h.position >= want:
                    cuts.append(h.position)
                    want = h.position + target_bytes
    bounds = [start] + cuts + [end]
    return [(a, b) for a, b in zip(bounds, bounds[1:]) if b > a]


def _index_cuts(
    f: RangeFile, segment: Segment, target_bytes: int, start: int, end: int
) -> Optional[List[int]]:
    """Cut positions from the ``.index``: the first entry at or past each target, each
    checked; None when the index is empty or an entry does not check out."""
    cuts: List[int] = []
    if segment.index_path is None:
        return None
    with OffsetIndex(segment.index_path, segment.base_offset, store=segment.store) as index:
        if not len(index):
            return None
        i = index.first_position_at_least(start + target_bytes)
        while i < len(index):
            offset, position = index.entry_at(i)
            if position >= end:
                break
            if not check_boundary(segment.path, position, offset, segment.size, f=f):
                return None
            cuts.append(position)
            i = index.first_position_at_least(position + target_bytes)
    return cuts


def index_floor(segment: Segment, offset: int) -> int:
    """A batch boundary at or before the first batch that can hold ``offset``, from
    the segment's ``.index`` by binary search (0 without one, or when its entry does not
    check out)."""
    if not segment.index_path or offset <= segment.base_offset:
        return 0
    try:
        with OffsetIndex(segment.index_path, segment.base_offset, store=segment.store) as index:
            # the entry names the last offset of its batch: the last entry below
            # ``offset`` is a batch that ends before it
            i = index.first_offset_at_least(offset) - 1
            if i < 0:
                return 0
            entry_offset, position = index.entry_at(i)
    except OSError:
        return 0
    if position and not check_boundary(
        segment.path, position, entry_offset, segment.size, store=segment.store
    ):
        return 0
    return position


def index_ceiling(segment: Segment, offset: int) -> int:
    """A batch boundary from which every batch of the segment is past ``offset``, from
    the ``.index`` by binary search (the segment's size without one, or when the batch
    there does not check out).  Offsets only grow along a partition, so nothing from
    that point on can hold ``offset`` or less."""
    if not segment.index_path:
        return segment.size
    try:
        with OffsetIndex(segment.index_path, segment.base_offset, store=segment.store) as index:
            # the batch after the first entry reaching ``offset`` starts past it
            i = index.first_offset_at_least(offset) + 1
            if i >= len(index):
                return segment.size
            entry_offset, position = index.entry_at(i)
    except OSError:
        return segment.size
    if position >= segment.size:
        return segment.size
    with segment.store.open(segment.path, segment.size) as f:
        head = f.read_at(position, V2_HEADER_SIZE)
    try:
        h = parse_header(
            head, 0, path=segment.path, file_position=position, available=segment.size - position
        )
    except SegmentError:
        return segment.size
    if h.magic < 2 or not offset < h.base_offset <= entry_offset <= h.last_offset:
        return segment.size
    return position


def time_index_start(segment: Segment, min_timestamp: int) -> Optional[int]:
    """The first offset that can hold a timestamp >= ``min_timestamp``, from the
    segment's ``.timeindex`` by binary search: each entry says the largest timestamp up
    to its offset.  None when the index does not tell (absent, empty, or its first entry
    is already that late)."""
    path = segment.time_index_path
    if path is None and segment.store is LOCAL:
        path = segment.path[: -len(LOG_SUFFIX)] + TIME_INDEX_SUFFIX
    if path is None:
        return None
    try:
        with TimeIndex(path, segment.base_offset, store=segment.store) as index:
            i = index.first_timestamp_at_least(min_timestamp) - 1
            return index.entry_at(i)[1] + 1 if i >= 0 else None
    except OSError:  # absent, unreadable, or shrank meanwhile
        return None


def write_txn_index(path: str, aborted: Iterable[AbortedTxn]) -> None:
    """Write a ``.txnindex`` file (version 0 entries) listing aborted transactions."""
    with open(path, "wb") as f:
        for a in aborted:
            f.write(
                TXN_INDEX_ENTRY.pack(0, a.producer_id, a.first_offset, a.last_offset, a.last_stable_offset)
            )


__all__ = [
    "INDEX_ENTRY",
    "TIME_INDEX_ENTRY",
    "TXN_INDEX_ENTRY",
    "read_offset_index",
    "read_time_index",
    "OffsetIndex",
    "TimeIndex",
    "AbortedTxn",
    "read_txn_index",
    "split_segment",
    "index_floor",
    "index_ceiling",
    "time_index_start",
    "write_txn_index",
]


def __dir__() -> list[str]:  # what the module defines, not what it imports
    return sorted(__all__)
