"""Kafka's tiered storage (KIP-405): a topic's remote segments, joined to its local log.

A broker with tiered storage copies each closed segment, with its indexes, to a remote
store through its RemoteStorageManager, and records every step in the
``__remote_log_metadata`` topic (TopicBasedRemoteLogMetadataManager): a segment's copy
started (``RemoteLogSegmentMetadataRecord``: topic id, partition, segment id, first and
last offset, size), then finished, then its deletion started and finished
(``RemoteLogSegmentMetadataUpdateRecord``); a deleted partition gets a
``RemotePartitionDeleteMetadataRecord``.  Once a segment is copied, local retention may
delete it from the broker's disk, so a topic's history is the remote tier's segments
followed by the local log, with an overlap of segments held in both.

:func:`remote_segments` folds the metadata records into the segments whose copy has
finished and that are not being deleted; :func:`join_tiers` puts those of each local
partition before its local segments, each offset once: the remote tier up to where the
local log starts (the last remote segment cut at that offset's batch), then the local
log.  Remote segments are read where Kafka's file-based RemoteStorageManager
(``LocalTieredStorage``) writes them::

    <dir>/kafka-tiered-storage/<topic>-<partition>-<topic id>/<start offset>-<segment id>.log

with ``.index``, ``.timeindex``, ``.txnindex``, ``.snapshot`` and
``.leader_epoch_checkpoint`` beside it (the start offset as 20 digits, ids in Kafka's
base64 form), where ``<dir>`` is its ``dir`` setting: a local folder, or the same layout
copied to an object store (``s3://bucket/prefix``, read through
:mod:`kafkawire.log.storage`).
"""

from __future__ import annotations

import base64
import os
import uuid
from dataclasses import dataclass, replace
from typing import Dict, Iterator, List, Optional, Sequence, Tuple, Union

from kafkawire.errors import DecodeError
from kafkawire.log import segments
from kafkawire.log.segments import PartitionLog, PathLike, Segment, SegmentError
from kafkawire.log.storage import LOCAL, NO_STORAGE_OPTIONS, Entry, StorageOptions, Store, resolve

#: RemoteLogSegmentState, by the int8 the metadata records carry
SEGMENT_STATES = (
    "COPY_SEGMENT_STARTED",
    "COPY_SEGMENT_FINISHED",
    "DELETE_SEGMENT_STARTED",
    "DELETE_SEGMENT_FINISHED",
)
#: RemotePartitionDeleteState, by the int8 the metadata records carry
PARTITION_DELETE_STATES = ("DELETE_PARTITION_MARKED", "DELETE_PARTITION_STARTED", "DELETE_PARTITION_FINISHED")
COPY_SEGMENT_FINISHED = 1
#: the folder LocalTieredStorage keeps its partitions in, under its ``dir``
LOCAL_TIERED_STORAGE_ROOT = "kafka-tiered-storage"
#: the file a broker keeps a partition's topic id in, in its partition folder
PARTITION_METADATA = "partition.metadata"


def kafka_uuid(value: uuid.UUID) -> str:
    """A UUID as Kafka prints it (``Uuid.toString``): url-safe base64, no padding."""
    return base64.urlsafe_b64encode(value.bytes).decode().rstrip("=")


def segment_state_name(state: int) -> str:
    """The RemoteLogSegmentState name of a metadata record's ``remote_log_segment_state``."""
    return SEGMENT_STATES[state] if 0 <= state < len(SEGMENT_STATES) else f"UNKNOWN({state})"


@dataclass(frozen=True)
class RemoteSegment:
    """One segment of the remote tier, as the remote log metadata last described it."""

    topic: str
    partition: int
    topic_id: uuid.UUID
    segment_id: uuid.UUID
    start_offset: int
    end_offset: int
    size: int  # segmentSizeInBytes: the .log object's size
    state: int  # see SEGMENT_STATES

    @property
    def folder(self) -> str:
        """The name of its partition's folder in LocalTieredStorage's layout."""
        return f"{self.topic}-{self.partition}-{kafka_uuid(self.topic_id)}"

    def object_name(self, suffix: str = segments.LOG_SUFFIX) -> str:
        """The name of its ``suffix`` file in that folder."""
        return f"{self.start_offset:020d}-{kafka_uuid(self.segment_id)}{suffix}"

    def object_path(self, root: str, suffix: str = segments.LOG_SUFFIX, store: Store = LOCAL) -> str:
        """Where LocalTieredStorage under ``root`` (in ``store``) keeps its ``suffix`` file."""
        return store.join(_folder_path(root, self.folder, store), self.object_name(suffix))


def _folder_path(root: str, folder: str, store: Store) -> str:
    return store.join(store.join(root, LOCAL_TIERED_STORAGE_ROOT), folder)


def remote_segments(
    metadata_paths: Union[PathLike, Sequence[PathLike]], storage: StorageOptions = NO_STORAGE_OPTIONS
) -> Dict[Tuple[str, int], List[RemoteSegment]]:
    """The remote segments of each ``(topic, partition)`` whose copy has finished and
    whose deletion has not started, in offset order, from the ``__remote_log_metadata``
    log at ``metadata_paths`` (its partition folders, or the broker's log directory;
    local, or in an object store reached with ``storage``).

    Each metadata partition is folded in offset order (a user partition's records all
    go to one of them).  A record that names a segment the log never started, or a record
    type the topic does not carry, raises :class:`~kafkawire.errors.DecodeError` naming
    its offset.
    """
    from kafkawire import internal_topics, messages

    paths = [metadata_paths] if isinstance(metadata_paths, (str, os.PathLike)) else list(metadata_paths)
    logs = [pl for pl in segments.discover(paths, storage) if pl.topic == internal_topics.REMOTE_LOG_METADATA]
    if not logs:
        raise FileNotFoundError(
            f"no {internal_topics.REMOTE_LOG_METADATA} partition folder under "
            + ", ".join(repr(os.fspath(p)) for p in paths)
        )
    known: Dict[uuid.UUID, RemoteSegment] = {}
    deleted: Dict[uuid.UUID, int] = {}  # topic id -> partition delete state
    for part, offset, value in _metadata_values(logs):
        where = f"{internal_topics.REMOTE_LOG_METADATA}-{part} offset {offset}"
        if value is None:
            raise DecodeError(f"{where}: a remote log metadata record without a value")
        try:
            rec = internal_topics.decode_remote_log_metadata_record(value)
        except DecodeError as exc:
            raise DecodeError(f"{where}: {exc}") from exc
        msg = rec.message
        if isinstance(msg, messages.RemoteLogSegmentMetadataRecord):
            sid = msg.remote_log_segment_id
            known[sid.id] = RemoteSegment(
                topic=sid.topic_id_partition.name,
                partition=sid.topic_id_partition.partition,
                topic_id=sid.topic_id_partition.id,
                segment_id=sid.id,
                start_offset=msg.start_offset,
                end_offset=msg.end_offset,
                size=msg.segment_size_in_bytes,
                state=msg.remote_log_segment_state,
            )
        elif isinstance(msg, messages.RemoteLogSegmentMetadataUpdateRecord):
            updated = msg.remote_log_segment_id
            seg = known.get(updated.id)
            if seg is None:
                tip = updated.topic_id_partition
                raise DecodeError(
                    f"{where}: an update of remote segment {kafka_uuid(updated.id)} "
                    f"of {tip.name}-{tip.partition}, "
                    "which no earlier record started"
                )
            known[updated.id] = replace(seg, state=msg.remote_log_segment_state)
        elif isinstance(msg, messages.RemotePartitionDeleteMetadataRecord):
            deleted[msg.topic_id_partition.id] = msg.remote_partition_delete_state
        else:  # the snapshot record lives in the metadata manager's own files
            raise DecodeError(f"{where}: a {type(msg).__name__} does not belong on the topic")
    out: Dict[Tuple[str, int], List[RemoteSegment]] = {}
    for seg in known.values():
        if seg.state == COPY_SEGMENT_FINISHED and seg.topic_id not in deleted:
            out.setdefault((seg.topic, seg.partition), []).append(seg)
    for segs in out.values():
        segs.sort(key=lambda s: (s.start_offset, s.end_offset))
    return out


def _metadata_values(logs: List[PartitionLog]) -> Iterator[Tuple[Optional[int], int, Optional[bytes]]]:
    """``(partition, offset, value)`` of each data record of the metadata logs, in offset
    order per partition (its producer writes no transactions: every record counts)."""
    from kafkawire import records

    for plog in logs:
        for seg in plog.segments:
            for _position, view, _headers in segments.iter_chunks(seg.path, 0, seg.size, store=seg.store):
                for batch in records.iter_batches(view):
                    if batch.is_control:
                        continue
                    for rec in batch:
                        yield plog.partition, rec.offset, None if rec.value is None else bytes(rec.value)


def local_topic_id(plog: PartitionLog) -> Optional[uuid.UUID]:
    """The topic id in a partition folder's ``partition.metadata`` (None without one)."""
    store = plog.segments[0].store if plog.segments else LOCAL
    path = store.join(plog.directory, PARTITION_METADATA)
    try:
        with store.open(path) as f:
            text = f.read_at(0, 1 << 12).decode("utf-8", errors="replace")
    except OSError:  # absent (FileNotFoundError), or a store that cannot be read
        return None
    for line in text.splitlines():
        key, _, value = line.partition(":")
        if key.strip() == "topic_id":
            raw = value.strip()
            try:
                return uuid.UUID(bytes=base64.urlsafe_b64decode(raw + "=" * (-len(raw) % 4)))
            except ValueError:
                raise DecodeError(f"{plog.directory}: {PARTITION_METADATA} has topic id {raw!r}") from None
    return None


def _remote_segment_file(seg: RemoteSegment, root: str, store: Store, listing: Dict[str, Entry]) -> Segment:
    """The segment of ``seg``'s ``.log`` object (``listing``: its folder's files), checked
    against its metadata."""
    path = seg.object_path(root, store=store)
    what = (
        f"remote segment {kafka_uuid(seg.segment_id)} of {seg.topic}-{seg.partition} "
        f"(offsets {seg.start_offset}-{seg.end_offset})"
    )
    entry = listing.get(seg.object_name())
    if entry is None:
        raise SegmentError(path, 0, f"{what} is missing from the remote tier")
    if entry.size != seg.size:
        raise SegmentError(
            path,
            min(entry.size, seg.size),
            f"{what} holds {entry.size} bytes; the remote log metadata says {seg.size}"
            + (" (truncated)" if entry.size < seg.size else ""),
        )
    index = listing.get(seg.object_name(segments.INDEX_SUFFIX))
    time_index = listing.get(seg.object_name(segments.TIME_INDEX_SUFFIX))
    return Segment(
        path,
        seg.start_offset,
        entry.size,
        index.path if index is not None else None,
        store,
        time_index.path if time_index is not None else None,
    )


def _listing(root: str, folder: str, store: Store) -> Dict[str, Entry]:
    """The files of one remote partition folder, by name (none if it is absent)."""
    try:
        return {e.name: e for e in store.list(_folder_path(root, folder, store)) if not e.is_dir}
    except FileNotFoundError:
        return {}


def _cut_before(seg: Segment, offset: int) -> int:
    """The byte position in ``seg`` of its first batch at or past ``offset``."""
    start = segments.index_floor(seg, offset)
    for h in segments.scan_headers(seg.path, start, seg.size, store=seg.store):
        if h.last_offset >= offset:
            if h.base_offset < offset:
                raise SegmentError(
                    seg.path,
                    h.position,
                    f"the batch of offsets {h.base_offset}-{h.last_offset} straddles offset {offset}, "
                    "where the local log starts: the tiers do not share batch boundaries",
                )
            return h.position
    return seg.size


def join_tiers(
    logs: List[PartitionLog],
    remote: Dict[Tuple[str, int], List[RemoteSegment]],
    root: str,
    storage: StorageOptions = NO_STORAGE_OPTIONS,
) -> List[PartitionLog]:
    """Each local partition log with its remote segments (under LocalTieredStorage's
    ``root``, local or in an object store reached with ``storage``) put before its local ones, so that every offset is read once: remote
    segments up to the offset the local log starts at, the last one cut there.

    A remote segment of another topic id than the local partition's (a topic deleted
    and made again under its name) is left out; a gap between remote segments, or
    between the remote tier and the local log, raises
    :class:`~kafkawire.log.segments.SegmentError` naming the offsets missing.
    """
    store = resolve(root, storage)
    out = []
    for plog in logs:
        segs = (
            remote.get((plog.topic, plog.partition), [])
            if plog.topic is not None and plog.partition is not None
            else []
        )
        topic_id = local_topic_id(plog) if segs else None
        if topic_id is not None:
            segs = [s for s in segs if s.topic_id == topic_id]
        if not segs:
            out.append(plog)
            continue
        local_start = plog.segments[0].base_offset if plog.segments else None
        joined: List[Segment] = []
        next_offset: Optional[int] = None
        listing = _listing(root, segs[0].folder, store)
        for seg in segs:
            if local_start is not None and seg.start_offset >= local_start:
                break
            if next_offset is not None and seg.end_offset < next_offset:
                continue  # wholly inside segments already taken
            if next_offset is not None and seg.start_offset != next_offset:
                missing = (
                    f"has no segment for offsets {next_offset}-{seg.start_offset - 1}"
                    if seg.start_offset > next_offset
                    else f"has two segments holding offsets {seg.start_offset}-{next_offset - 1}"
                )
                raise SegmentError(
                    seg.object_path(root, store=store),
                    0,
                    f"{plog.topic}-{plog.partition}: the remote tier {missing}",
                )
            file = _remote_segment_file(seg, root, store, listing)
            if local_start is not None and seg.end_offset >= local_start:
                file = replace(file, size=_cut_before(file, local_start))
            joined.append(file)
            next_offset = seg.end_offset + 1
        if local_start is not None and next_offset is not None and next_offset < local_start:
            raise SegmentError(
                plog.segments[0].path,
                0,
                f"{plog.topic}-{plog.partition}: neither tier holds offsets {next_offset}-{local_start - 1} "
                "(the remote tier ends before the local log starts)",
            )
        out.append(PartitionLog(plog.topic, plog.partition, plog.directory, joined + list(plog.segments)))
    return out


__all__ = [
    "SEGMENT_STATES",
    "PARTITION_DELETE_STATES",
    "COPY_SEGMENT_FINISHED",
    "LOCAL_TIERED_STORAGE_ROOT",
    "kafka_uuid",
    "segment_state_name",
    "RemoteSegment",
    "remote_segments",
    "local_topic_id",
    "join_tiers",
]


def __dir__() -> list[str]:  # what the module defines, not what it imports
    return sorted(__all__)
