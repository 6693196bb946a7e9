"""Kafka's on-disk log layout: log directories, partition folders and segment files.

A broker's log directory holds one folder per partition, named ``<topic>-<partition>``.
Each folder holds segments: ``<base offset>.log`` (the record batches, back to back,
exactly as they travel in a fetch response), with ``<base offset>.index`` (offset ->
file position, one entry every ``index.interval.bytes``), ``<base offset>.timeindex``
(timestamp -> offset) and ``<base offset>.txnindex`` (aborted transactions) beside it.
The base offset is written as 20 zero-padded digits.

Files are read through a :class:`~kafkawire.log.storage.Store` (the local filesystem by
default, or an object store): every read is at a position, of the bytes it needs.

This module names and finds those files (:func:`discover`); the log entries in a segment
are :mod:`kafkawire.log.scan`'s, the index files :mod:`kafkawire.log.indexes`', writing a
partition :mod:`kafkawire.log.write`'s.
"""

from __future__ import annotations

import glob as _glob
import os
import re
from dataclasses import dataclass, field
from typing import (
    Any,
    Dict,
    List,
    Optional,
    Sequence,
    Tuple,
    Union,
)

from kafkawire.errors import CorruptRecordError, DecodeError, LogNotFoundError
from kafkawire.log.storage import (
    LOCAL,
    NO_STORAGE_OPTIONS,
    Entry,
    StorageOptions,
    Store,
    local_path,
    open_store,
)

LOG_SUFFIX = ".log"
INDEX_SUFFIX = ".index"
TIME_INDEX_SUFFIX = ".timeindex"
TXN_INDEX_SUFFIX = ".txnindex"

_SEGMENT_NAME = re.compile(r"^(\d{20})\.log$")
# ``<topic>-<partition>``; Kafka's deleted, future and stray folders carry a suffix.
_PARTITION_DIR = re.compile(r"^(?P<topic>.+)-(?P<partition>\d+)$")
# What a partition folder holds: files named by a base offset (segments, indexes, producer
# snapshots, with their .deleted/.cleaned/.swap suffixes) and the partition's own files.
_PARTITION_FILE = re.compile(r"^(\d{20}\.|partition\.metadata|leader-epoch-checkpoint)")

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


def _segments_in(store: Store, listing: List[Entry]) -> List[Segment]:
    """The segments among a folder's entries, in file-name order."""
    names = {e.name: e for e in listing}
    return [
        _segment(store, e, names)
        for name, e in sorted(names.items())
        if _SEGMENT_NAME.match(name) and not e.is_dir
    ]


def partition_segments(store: Store, directory: str) -> List[Segment]:
    """The segments of one partition folder in ``store``, in file-name order."""
    return _segments_in(store, store.list(directory))


def _partition_like(listing: List[Entry]) -> bool:
    """Whether a folder named ``<topic>-<partition>`` holds what a Kafka partition does:
    nothing yet, or some of Kafka's partition files.  ``/etc/dbus-1`` does not."""
    return not listing or any(_PARTITION_FILE.match(e.name) for e in listing)


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
    come from the folder's name (None when it is not a partition folder).  A partition
    folder with no segments is an empty partition.  A path that does not exist, or one
    that stands for no partition folder and no segment (a folder that is not Kafka's, such
    as ``/etc``), raises :class:`~kafkawire.errors.LogNotFoundError` (a
    ``FileNotFoundError``) naming the path and what was looked for.

    Paths may be ``s3://`` or ``s3a://`` URIs of an object store, reached with ``storage``
    (:func:`kafkawire.log.storage.open_store`); each segment found knows its store.
    """
    if isinstance(paths, (str, os.PathLike)):
        paths = [paths]
    expanded: List[Tuple[str, Store, str]] = []  # (the path given, its store, a path it stands for)
    for p in paths:
        p = local_path(os.fspath(p))
        where = open_store(p, storage)
        matches = where.glob(p) if _glob.has_magic(p) else [p]
        if not matches:
            raise LogNotFoundError(p, "no file matches it")
        expanded.extend((p, where, m) for m in matches)

    by_dir: Dict[str, PartitionLog] = {}

    def add(where: Store, directory: str, segs: List[Segment]) -> None:
        if not segs:
            return  # an empty partition reads as no rows
        directory = where.absolute(directory)
        plog = by_dir.get(directory)
        if plog is None:
            topic, partition = _owner(where, directory)
            plog = by_dir[directory] = PartitionLog(topic, partition, directory)
        known = {s.path for s in plog.segments}
        plog.segments.extend(s for s in segs if s.path not in known)

    kafka = set()  # the paths given that stand for some Kafka log, even an empty one
    for given, where, p in expanded:
        info = where.info(p)
        if info is None:
            raise LogNotFoundError(p, "no such file or directory")
        if not info.is_dir:
            directory = where.dirname(where.absolute(p))
            siblings = {e.name: e for e in where.list(directory)}
            entry = Entry(info.name, where.absolute(p), False, info.size)
            add(where, directory, [_segment(where, entry, siblings)])
            kafka.add(given)
            continue
        listing = where.list(p)
        own = _segments_in(where, listing)
        if own or (_owner(where, p) != (None, None) and _partition_like(listing)):
            add(where, p, own)  # a partition folder (an empty one adds no segment)
            kafka.add(given)
            continue
        for e in listing:
            if e.is_dir and parse_partition_dir(e.name):
                inner = where.list(e.path)
                if _partition_like(inner):
                    kafka.add(given)
                    add(where, e.path, _segments_in(where, inner))
    for p in dict.fromkeys(given for given, _where, _p in expanded):
        if p not in kafka:
            # reading a folder that is not Kafka's as an empty log would be a silent wrong answer
            what = "what it matches" if _glob.has_magic(p) else "it"
            raise LogNotFoundError(
                p,
                f"no Kafka log in {what}: looked for partition folders named <topic>-<partition> "
                "holding segment files (<base offset>.log), or segment files",
            )

    logs = list(by_dir.values())
    for plog in logs:
        plog.segments.sort(key=lambda s: (s.base_offset, s.path))
    logs.sort(key=lambda pl: (pl.topic or "", -1 if pl.partition is None else pl.partition, pl.directory))
    return logs


__all__ = [
    "LOG_SUFFIX",
    "INDEX_SUFFIX",
    "TIME_INDEX_SUFFIX",
    "TXN_INDEX_SUFFIX",
    "PathLike",
    "SegmentError",
    "SegmentCorruptRecordError",
    "segment_name",
    "base_offset_of",
    "parse_partition_dir",
    "Segment",
    "PartitionLog",
    "partition_segments",
    "discover",
]


def __dir__() -> list[str]:  # what the module defines, not what it imports
    return sorted(__all__)
