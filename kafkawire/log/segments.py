"""Kafka's on-disk log layout: log directories, partition folders, segments and indexes.

A broker's log directory holds one folder per partition, named ``<topic>-<partition>``.
Each folder holds segments: ``<base offset>.log`` (the record batches, back to back,
exactly as they travel in a fetch response), with ``<base offset>.index`` (offset ->
file position, one entry every ``index.interval.bytes``), ``<base offset>.timeindex``
(timestamp -> offset) and ``<base offset>.txnindex`` (aborted transactions) beside it.
The base offset is written as 20 zero-padded digits.

Files are read through a :class:`~kafkawire.log.storage.Store` (the local filesystem by
default, or an object store): every read is at a position, of the bytes it needs.

This module only knows the layout and the framing of batches in a file: every log entry
starts with ``base offset int64, length int32`` and has its magic byte at position 16,
whatever its format (batch v2 or legacy message v0/v1).  That is enough to find batch
boundaries, split a big segment into ranges, and read a segment in bounded memory.
Decoding the batches themselves is :mod:`kafkawire.records`' work.
"""

from __future__ import annotations

import glob as _glob
import os
import re
import struct
from dataclasses import dataclass, field
from typing import (
    IO,
    Any,
    Callable,
    Dict,
    Iterable,
    Iterator,
    List,
    Optional,
    Sequence,
    Tuple,
    TypeVar,
    Union,
)

from kafkawire._records_common import (
    LEGACY_OVERHEAD,
    LOG_OVERHEAD,
    V2_HEADER_SIZE,
    BatchHeader,
    unpack_v2_header,
)
from kafkawire.errors import CorruptRecordError, DecodeError, LogNotFoundError
from kafkawire.framing import BytesLike
from kafkawire.log.storage import (
    LOCAL,
    NO_STORAGE_OPTIONS,
    Entry,
    RangeFile,
    StorageOptions,
    Store,
    local_path,
    resolve,
)
from kafkawire.schema.plan import INT32_MAX

LOG_SUFFIX = ".log"
INDEX_SUFFIX = ".index"
TIME_INDEX_SUFFIX = ".timeindex"
TXN_INDEX_SUFFIX = ".txnindex"

# LOG_OVERHEAD (``base offset int64, length int32``: what precedes every log entry) and
# V2_HEADER_SIZE (``baseOffset`` to ``recordsCount``) come from the batch layout.
#: Smallest value of the length field for each magic (the bytes after it).
MIN_ENTRY_LENGTH = {0: LEGACY_OVERHEAD[0], 1: LEGACY_OVERHEAD[1], 2: V2_HEADER_SIZE - LOG_OVERHEAD}
#: Kafka's default ``index.interval.bytes`` and ``segment.bytes``.
DEFAULT_INDEX_INTERVAL_BYTES = 4096
DEFAULT_SEGMENT_BYTES = 1 << 30
#: Largest log entry this module accepts: Kafka caps ``message.max.bytes`` far lower,
#: so a length beyond this is garbage, not a batch.
MAX_ENTRY_LENGTH = INT32_MAX - LOG_OVERHEAD

_ENTRY_HEAD = struct.Struct(">qiiB")  # base offset, length, leader epoch / crc, magic
_LEGACY_ATTR = struct.Struct(">B")
_INDEX_ENTRY = struct.Struct(">ii")
_TIME_INDEX_ENTRY = struct.Struct(">qi")
_TXN_INDEX_ENTRY = struct.Struct(">hqqqq")
_INT64 = struct.Struct(">q")

_SEGMENT_NAME = re.compile(r"^(\d{20})\.log$")
# ``<topic>-<partition>``; Kafka's deleted, future and stray folders carry a suffix.
_PARTITION_DIR = re.compile(r"^(?P<topic>.+)-(?P<partition>\d+)$")

PathLike = Union[str, "os.PathLike[str]"]


class SegmentError(DecodeError):
    """A log segment that does not frame into batches: names the file and byte position."""

    def __init__(self, path: str, position: int, reason: str) -> None:
        super().__init__(f"{path}: at byte {position}: {reason}")
        self.path = path
        self.position = position
        self.reason = reason

    def __reduce__(self) -> Tuple[Any, ...]:  # picklable across Spark's worker boundary
        return (type(self), (self.path, self.position, self.reason))


class SegmentCorruptRecordError(SegmentError, CorruptRecordError):
    """A batch in a segment whose CRC (or contents) do not match: file and position."""


def segment_name(base_offset: int, suffix: str = LOG_SUFFIX) -> str:
    """The file name Kafka gives the segment starting at ``base_offset``."""
    return f"{base_offset:020d}{suffix}"


def base_offset_of(path: str) -> int:
    """The base offset a segment or index file's name says (0 if it is not Kafka's)."""
    stem = os.path.basename(path).split(".", 1)[0]
    return int(stem) if stem.isdigit() else 0


def parse_partition_dir(name: str) -> Optional[Tuple[str, int]]:
    """``(topic, partition)`` of a partition folder name, or None if it is not one."""
    m = _PARTITION_DIR.match(name)
    if m is None:
        return None
    return m.group("topic"), int(m.group("partition"))


# ---------------------------------------------------------------------------
# discovery


@dataclass(frozen=True)
class Segment:
    """One ``.log`` file of a partition, in ``store``; ``index_path`` and
    ``time_index_path`` are its ``.index`` and ``.timeindex`` when they exist (None: none
    known; for a local segment the ``.timeindex`` beside it is looked for)."""

    path: str
    base_offset: int
    size: int
    index_path: Optional[str] = None
    store: Store = LOCAL
    time_index_path: Optional[str] = None

    @property
    def name(self) -> str:
        return self.store.basename(self.path)


@dataclass
class PartitionLog:
    """The segments of one topic partition, in offset order."""

    topic: Optional[str]
    partition: Optional[int]
    directory: str
    segments: List[Segment] = field(default_factory=list)

    @property
    def size(self) -> int:
        return sum(s.size for s in self.segments)


def _segment(store: Store, entry: Entry, siblings: Dict[str, Entry]) -> Segment:
    """The segment of the ``.log`` file ``entry``, with the indexes among ``siblings``
    (the names in its folder): a listing tells it all, with no request per file."""
    m = _SEGMENT_NAME.match(entry.name)
    base = int(m.group(1)) if m else 0
    stem = entry.name[: -len(LOG_SUFFIX)] if entry.name.endswith(LOG_SUFFIX) else None
    index = siblings.get(stem + INDEX_SUFFIX) if stem is not None else None
    tindex = siblings.get(stem + TIME_INDEX_SUFFIX) if stem is not None else None
    return Segment(
        path=entry.path,
        base_offset=base,
        size=entry.size,
        index_path=index.path if index is not None and not index.is_dir else None,
        store=store,
        time_index_path=tindex.path if tindex is not None and not tindex.is_dir else None,
    )


def _partition_segments(store: Store, directory: str) -> List[Segment]:
    listing = {e.name: e for e in store.list(directory)}
    return [
        _segment(store, e, listing)
        for name, e in sorted(listing.items())
        if _SEGMENT_NAME.match(name) and not e.is_dir
    ]


def _owner(store: Store, directory: str) -> Tuple[Optional[str], Optional[int]]:
    parsed = parse_partition_dir(store.basename(store.absolute(directory)))
    return parsed if parsed else (None, None)


def discover(
    paths: Union[PathLike, Sequence[PathLike]], storage: StorageOptions = NO_STORAGE_OPTIONS
) -> List[PartitionLog]:
    """The partitions and segments under ``paths``, sorted by topic, partition, offset.

    Each path may be a Kafka log directory (holding ``<topic>-<partition>`` folders), one
    partition folder (holding ``*.log`` segments), a segment file, or a glob of any of
    these.  Segments given directly are grouped by their folder; the topic and partition
    come from the folder's name (None when it is not a partition folder).  A path that
    does not exist, or a directory named outright that holds no partition folder and no
    segment, raises :class:`~kafkawire.errors.LogNotFoundError` (a ``FileNotFoundError``).

    Paths may be ``s3://`` or ``s3a://`` URIs of an object store, reached with ``storage``
    (:func:`kafkawire.log.storage.resolve`); each segment found knows its store.
    """
    if isinstance(paths, (str, os.PathLike)):
        paths = [paths]
    expanded: List[Tuple[Store, str]] = []
    given = set()  # named, not matched by a glob (which may match foreign folders too)
    for p in paths:
        p = local_path(os.fspath(p))
        where = resolve(p, storage)
        magic = _glob.has_magic(p)
        matches = where.glob(p) if magic else [p]
        if not magic:
            given.add(p)
        if not matches:
            raise LogNotFoundError(p, "no file matches it")
        expanded.extend((where, m) for m in matches)

    by_dir: Dict[str, PartitionLog] = {}

    def add(where: Store, directory: str, segs: Iterable[Segment]) -> None:
        directory = where.absolute(directory)
        plog = by_dir.get(directory)
        if plog is None:
            topic, partition = _owner(where, directory)
            plog = by_dir[directory] = PartitionLog(topic, partition, directory)
        known = {s.path for s in plog.segments}
        plog.segments.extend(s for s in segs if s.path not in known)

    for where, p in expanded:
        info = where.info(p)
        if info is None:
            raise LogNotFoundError(p, "no such file or directory")
        if not info.is_dir:
            directory = where.dirname(where.absolute(p))
            siblings = {e.name: e for e in where.list(directory)}
            entry = Entry(info.name, where.absolute(p), False, info.size)
            add(where, directory, [_segment(where, entry, siblings)])
            continue
        listing = where.list(p)
        names = {e.name: e for e in listing}
        own = [_segment(where, e, names) for e in listing if _SEGMENT_NAME.match(e.name) and not e.is_dir]
        if own:
            add(where, p, own)
            continue
        partitions = 0
        for e in listing:
            if e.is_dir and parse_partition_dir(e.name):
                partitions += 1
                segs = _partition_segments(where, e.path)
                if segs:
                    add(where, e.path, segs)
        if not partitions and p in given and _owner(where, p) == (None, None):
            # neither a partition folder (which may be empty) nor a log directory:
            # reading it as one with no records would be a silent wrong answer
            raise LogNotFoundError(
                p, "no Kafka partition folders (<topic>-<partition>) or .log segments in it"
            )

    logs = list(by_dir.values())
    for plog in logs:
        plog.segments.sort(key=lambda s: (s.base_offset, s.path))
    logs.sort(key=lambda pl: (pl.topic or "", -1 if pl.partition is None else pl.partition, pl.directory))
    return logs


# ---------------------------------------------------------------------------
# batch headers (BatchHeader is the one type of kafkawire._records_common)


def parse_header(
    buf: BytesLike,
    position: int = 0,
    *,
    path: str = "<buffer>",
    file_position: Optional[int] = None,
    available: Optional[int] = None,
) -> BatchHeader:
    """The header of the log entry at ``buf[position:]``.

    ``available`` is how many bytes of the file are left from this entry's start (for
    the truncation check; defaults to what ``buf`` holds).  ``file_position`` is the
    entry's position in the file, for error messages and the result (defaults to
    ``position``).  Raises :class:`SegmentError` for anything that cannot be a log entry.
    """
    where = position if file_position is None else file_position
    have = len(buf) - position
    if available is None:
        available = have
    if available < 17 or have < 17:  # have < available: the file shrank under us
        raise SegmentError(
            path, where, f"truncated log entry header: {min(available, have)} bytes left, at least 17 needed"
        )
    base_offset, length, epoch_or_crc, magic = _ENTRY_HEAD.unpack_from(buf, position)
    if magic > 2:
        raise SegmentError(path, where, f"unknown magic {magic} (not a Kafka log entry)")
    if length < MIN_ENTRY_LENGTH[magic] or length > MAX_ENTRY_LENGTH:
        raise SegmentError(path, where, f"invalid log entry length {length} for magic {magic}")
    size = LOG_OVERHEAD + length
    if size > available:
        raise SegmentError(
            path, where, f"truncated log entry: declares {size} bytes, {available} left in the file"
        )
    if base_offset < 0:
        raise SegmentError(path, where, f"negative base offset {base_offset}")
    if magic < 2:
        attributes = _LEGACY_ATTR.unpack_from(buf, position + 17)[0] if have > 17 else 0
        return BatchHeader(
            where, base_offset, size, magic, attributes=attributes, crc=epoch_or_crc & 0xFFFFFFFF
        )
    if have < V2_HEADER_SIZE:
        raise SegmentError(path, where, "buffer too short for a batch v2 header")
    header = unpack_v2_header(buf, position, where)
    if header.last_offset_delta < 0:
        raise SegmentError(path, where, f"negative lastOffsetDelta {header.last_offset_delta}")
    return header


def scan_headers(
    path: str,
    start: int = 0,
    end: Optional[int] = None,
    *,
    f: Optional[RangeFile] = None,
    store: Store = LOCAL,
) -> Iterator[BatchHeader]:
    """Every log entry header of the segment ``path`` (in ``store``) from ``start`` to
    ``end``; ``f`` is the segment already open, if it is.

    Reads only the first 61 bytes of each entry, skipping the rest, so scanning a
    segment costs one small read per batch whatever its size (an object store's
    read-ahead makes these few ranged requests).
    """
    own = f is None
    fh = store.open(path) if f is None else f
    try:
        if end is None:
            end = fh.size
        pos = start
        while pos < end:
            head = fh.read_at(pos, V2_HEADER_SIZE)
            header = parse_header(head, 0, path=path, file_position=pos, available=end - pos)
            yield header
            pos = header.end
    finally:
        if own:
            fh.close()


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
        rel, pos = _INDEX_ENTRY.unpack_from(data, i)
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
        ts, rel = _TIME_INDEX_ENTRY.unpack_from(data, i)
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

    entry = _INDEX_ENTRY

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

    entry = _TIME_INDEX_ENTRY

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
    for i in range(0, len(data) - len(data) % _TXN_INDEX_ENTRY.size, _TXN_INDEX_ENTRY.size):
        _version, pid, first, last, lso = _TXN_INDEX_ENTRY.unpack_from(data, i)
        out.append(AbortedTxn(pid, first, last, lso))
    return out


# ---------------------------------------------------------------------------
# splitting


def _check_boundary(f: RangeFile, path: str, position: int, offset: int, size: int) -> bool:
    """True when an index entry ``(offset, position)`` really points at a batch start."""
    if position >= size:
        return False
    head = f.read_at(position, V2_HEADER_SIZE)
    try:
        h = parse_header(head, 0, path=path, file_position=position, available=size - position)
    except SegmentError:
        return False
    return h.base_offset <= offset <= h.last_offset if h.magic >= 2 else h.base_offset == offset


def check_boundary(path: str, position: int, offset: int, size: int, *, store: Store = LOCAL) -> bool:
    """True when the batch at ``position`` of segment ``path`` (``size`` bytes) holds
    ``offset``: an index entry that points where it says."""
    with store.open(path, size) as f:
        return _check_boundary(f, path, position, offset, size)


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
            if not _check_boundary(f, segment.path, position, offset, segment.size):
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


# ---------------------------------------------------------------------------
# bounded-memory reading


def iter_chunks(
    path: str,
    start: int = 0,
    end: Optional[int] = None,
    *,
    chunk_size: int = 8 << 20,
    f: Optional[RangeFile] = None,
    reuse_buffer: bool = False,
    store: Store = LOCAL,
) -> Iterator[Tuple[int, memoryview, List[BatchHeader]]]:
    """Whole batches of ``path[start:end]``, about ``chunk_size`` bytes at a time.

    Yields ``(position, view, headers)``: ``view`` holds complete log entries only, the
    first starting at file position ``position``, and ``headers`` their headers.  Memory
    stays within ``chunk_size`` plus one batch: a batch bigger than the chunk is read
    whole on its own.  A framing error raises :class:`SegmentError` with the position;
    the batches before it have been yielded.

    With ``reuse_buffer``, every chunk is read into the same buffer, which the next one
    overwrites: a view is good only until the generator resumes (for readers that copy
    what they keep, and save the page faults of a fresh buffer per chunk).

    ``path`` is in ``store`` (``f``: already open); each chunk is one read at its
    position, a ranged request of exactly its bytes on an object store.  A file that
    is gone raises :class:`~kafkawire.errors.LogNotFoundError` naming it and ``start``.
    """
    own = f is None
    if f is None:
        try:
            fh = store.open(path)
        except LogNotFoundError as exc:
            raise LogNotFoundError(
                path, exc.reason + " (deleted after the read was planned?)", start
            ) from None
    else:
        fh = f
    try:
        if end is None:
            end = fh.size
        fh.sequential(end, start, min(chunk_size, end - start))
        chunk_size = max(chunk_size, V2_HEADER_SIZE)
        pos = start
        buf = bytearray()
        filled = 0  # buf[:filled] holds the file from pos on
        planned = end  # where the read was to end; ``end`` becomes where the file does

        def fill(n: int) -> None:
            """Read until buf holds n bytes from pos on (growing it when it must), or
            the file ends (its whole entries are still given, then the end reported)."""
            nonlocal buf, filled, end
            if len(buf) < n:
                grown = bytearray(n)
                grown[:filled] = memoryview(buf)[:filled]
                buf = grown
            view = memoryview(buf)
            while filled < n:
                got = fh.readinto_at(pos + filled, view[filled:n])
                if not got:
                    end = pos + filled
                    return
                filled += got

        while pos < end:
            fill(min(chunk_size, end - pos))
            if pos == end:
                break
            n = filled
            mv = memoryview(buf)[:n]
            at_end = pos + n == end
            headers: List[BatchHeader] = []
            off = 0
            while off < n:
                if n - off < V2_HEADER_SIZE and not at_end:
                    break
                try:
                    h = parse_header(mv, off, path=path, file_position=pos + off, available=end - pos - off)
                except SegmentError:
                    if headers:  # what frames before the bad entry is still given
                        yield pos, mv[:off], headers
                    raise
                if off + h.size_in_bytes > n:
                    if off:
                        break
                    # a single entry bigger than the chunk: read it whole
                    fill(h.size_in_bytes)
                    n = filled
                    mv = memoryview(buf)[:n]
                    if n < h.size_in_bytes:
                        raise SegmentError(
                            path,
                            pos,
                            f"truncated log entry: declares {h.size_in_bytes} bytes, {n} left in the file",
                        )
                headers.append(h)
                off += h.size_in_bytes
            yield pos, mv[:off], headers
            # what follows the last whole entry starts the next chunk
            rest = bytes(mv[off:n])
            if not reuse_buffer:
                buf = bytearray(len(rest))
            buf[: len(rest)] = rest
            filled = len(rest)
            pos += off
        if end < planned:
            raise SegmentError(
                path,
                end,
                f"the file ends at byte {end}, short of the {planned} the read was planned to (truncated?)",
            )
    finally:
        if own:
            fh.close()


def last_offset(plog: PartitionLog) -> int:
    """The last offset stored in a partition's segments (-1 when they hold none)."""
    for seg in reversed(plog.segments):
        last = -1
        for h in scan_headers(seg.path, store=seg.store):
            last = h.last_offset
        if last >= 0:
            return last
    return -1


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
        existing = _partition_segments(LOCAL, directory)
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
            self._timeindex.write(_TIME_INDEX_ENTRY.pack(self._max_ts, self._max_ts_offset - self._base))
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
                index.write(_INDEX_ENTRY.pack(h.last_offset - self._base, self._size))
                if self._max_ts_offset >= 0 and self._max_ts > self._indexed_ts:
                    timeindex.write(_TIME_INDEX_ENTRY.pack(self._max_ts, self._max_ts_offset - self._base))
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


def write_txn_index(path: str, aborted: Iterable[AbortedTxn]) -> None:
    """Write a ``.txnindex`` file (version 0 entries) listing aborted transactions."""
    with open(path, "wb") as f:
        for a in aborted:
            f.write(
                _TXN_INDEX_ENTRY.pack(0, a.producer_id, a.first_offset, a.last_offset, a.last_stable_offset)
            )


__all__ = [
    "LOG_SUFFIX",
    "INDEX_SUFFIX",
    "TIME_INDEX_SUFFIX",
    "TXN_INDEX_SUFFIX",
    "MIN_ENTRY_LENGTH",
    "DEFAULT_INDEX_INTERVAL_BYTES",
    "DEFAULT_SEGMENT_BYTES",
    "MAX_ENTRY_LENGTH",
    "PathLike",
    "SegmentError",
    "SegmentCorruptRecordError",
    "segment_name",
    "base_offset_of",
    "parse_partition_dir",
    "Segment",
    "PartitionLog",
    "discover",
    "parse_header",
    "scan_headers",
    "read_offset_index",
    "read_time_index",
    "OffsetIndex",
    "TimeIndex",
    "AbortedTxn",
    "read_txn_index",
    "check_boundary",
    "split_segment",
    "index_floor",
    "index_ceiling",
    "time_index_start",
    "iter_chunks",
    "last_offset",
    "set_base_offset",
    "PartitionWriter",
    "write_txn_index",
]


def __dir__() -> list[str]:  # what the module defines, not what it imports
    return sorted(__all__)
