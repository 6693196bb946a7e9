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
log.  Of the remote segments it reads only those of the partition's leader epoch
lineage, and of overlapping ones each offset once; :func:`tiered_logs` adds the
partitions with no local segments left, and :func:`transactions` takes the remote
tier's aborted transactions from its ``.txnindex`` objects.  Remote segments are read where Kafka's file-based RemoteStorageManager
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
import glob
import os
import struct
import uuid
from dataclasses import dataclass, field, replace
from typing import Callable, Dict, Iterator, List, Optional, Sequence, Set, Tuple, Union

from kafkawire.errors import DecodeError, LogNotFoundError
from kafkawire.log import indexes, scan, segments
from kafkawire.log.segments import PartitionLog, PathLike, Segment, SegmentError
from kafkawire.log.storage import (
    LOCAL,
    NO_STORAGE_OPTIONS,
    Entry,
    StorageOptions,
    Store,
    local_path,
    open_store,
)
from kafkawire.log.transactions import TxnState
from kafkawire.log.transactions import transactions as scanned

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
    #: ``(leader epoch, its first offset in the segment)``, in offset order
    leader_epochs: Tuple[Tuple[int, int], ...] = ()

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
    from kafkawire.protocol import internal_topics, messages

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
                leader_epochs=tuple(
                    sorted(
                        ((e.leader_epoch, e.offset) for e in msg.segment_leader_epochs), key=lambda e: e[1]
                    )
                ),
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
    for segs in out.values():  # a stable sort: copies of one range stay in metadata order
        segs.sort(key=lambda s: (s.start_offset, s.end_offset))
    return out


def _metadata_values(logs: List[PartitionLog]) -> Iterator[Tuple[Optional[int], int, Optional[bytes]]]:
    """``(partition, offset, value)`` of each data record of the metadata logs, in offset
    order per partition (its producer writes no transactions: every record counts)."""
    from kafkawire.protocol import records

    for plog in logs:
        for seg in plog.segments:
            for _position, view, _headers in scan.iter_chunks(seg.path, 0, seg.size, store=seg.store):
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


def _remote_segment_file(
    seg: RemoteSegment, root: str, store: Store, listing: Dict[str, Entry], strict: bool = True
) -> Segment:
    """The segment of ``seg``'s ``.log`` object (``listing``: its folder's files), checked
    against its metadata.

    An object the metadata names but the remote tier lacks raises
    :class:`~kafkawire.errors.LogNotFoundError` in every mode, as a local segment gone
    does.  One of another size than the metadata's raises
    :class:`~kafkawire.log.segments.SegmentError` when ``strict`` (FAILFAST); otherwise
    it is read as long as the metadata says, so that the read reports, per ``mode``, the
    batch it finds cut or the byte the object ends at, as it does for a truncated local
    segment."""
    path = seg.object_path(root, store=store)
    what = (
        f"remote segment {kafka_uuid(seg.segment_id)} of {seg.topic}-{seg.partition} "
        f"(offsets {seg.start_offset}-{seg.end_offset})"
    )
    entry = listing.get(seg.object_name())
    if entry is None:
        raise LogNotFoundError(
            path, f"{what} is missing from the remote tier (the remote log metadata names it)", 0
        )
    if entry.size != seg.size and strict:
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
        seg.size,
        index.path if index is not None else None,
        store,
        time_index.path if time_index is not None else None,
    )


@dataclass
class TieredLog(PartitionLog):
    """A partition log whose first ``remote_count`` segments come from the remote tier;
    ``remote_txn_indexes`` are those segments' ``.txnindex`` objects (a segment without
    an aborted transaction has none)."""

    remote_count: int = 0
    remote_txn_indexes: List[str] = field(default_factory=list)
    #: the producer state snapshot uploaded with the last remote segment read whole
    #: (None: none, or that segment is cut where the local log starts)
    remote_snapshot: Optional[str] = None


#: a producer state snapshot (ProducerStateManager's file, version 1): version int16,
#: CRC-32C int32 of what follows, an int32 count of entries of producer id int64, epoch
#: int16, last sequence int32, last offset int64, offset delta int32, timestamp int64,
#: coordinator epoch int32, and the first offset of its open transaction int64 (-1: none)
_SNAPSHOT_HEAD = struct.Struct(">hIi")
_SNAPSHOT_ENTRY = struct.Struct(">qhiqiqiq")


def snapshot_open_transactions(path: str, store: Store = LOCAL) -> Optional[Dict[int, int]]:
    """The transactions open where a producer state snapshot was taken (the end of the
    segment it was uploaded with): producer id -> first offset; None for a snapshot
    version this does not know.  A damaged snapshot raises
    :class:`~kafkawire.errors.DecodeError` naming it."""
    from kafkawire import crc32c

    with store.open(path) as f:
        data = f.read_at(0, f.size)
    if len(data) < _SNAPSHOT_HEAD.size:
        raise DecodeError(f"{path}: a producer snapshot of {len(data)} bytes")
    version, crc, count = _SNAPSHOT_HEAD.unpack_from(data, 0)
    if version != 1:
        return None
    if crc != crc32c(data[6:]) or len(data) != _SNAPSHOT_HEAD.size + count * _SNAPSHOT_ENTRY.size:
        raise DecodeError(f"{path}: a damaged producer snapshot (its CRC or length does not match)")
    out = {}
    for i in range(count):
        entry = _SNAPSHOT_ENTRY.unpack_from(data, _SNAPSHOT_HEAD.size + i * _SNAPSHOT_ENTRY.size)
        if entry[7] >= 0:
            out[entry[0]] = entry[7]
    return out


def transactions(log: TieredLog, *, strict: bool = True) -> Optional[TxnState]:
    """The aborted transactions and open ones of ``log`` (as
    :func:`kafkawire.log.transactions.transactions` finds them) without scanning the remote
    tier: its aborted transactions from the ``.txnindex`` objects the RemoteStorageManager
    uploaded, the local log's from a scan of its batch headers.

    A transaction the local log aborts may have begun in the remote tier; the local
    segment's ``.txnindex``, which the broker wrote, says where.  With no local log, the
    transactions open at the remote tier's end come from the producer state snapshot
    uploaded with its last segment.  When neither tells (a local log not written by a
    broker, no snapshot), this gives None: scan.
    """
    local = PartitionLog(log.topic, log.partition, log.directory, log.segments[log.remote_count :])
    remote_aborted: Set[Tuple[int, int, int]] = set()
    for path in log.remote_txn_indexes:
        remote_aborted.update(
            (t.producer_id, t.first_offset, t.last_offset)
            for t in indexes.read_txn_index(path, store=log.segments[0].store)
        )
    if not any(seg.size for seg in local.segments):
        if log.remote_snapshot is None:
            return None
        still_open = snapshot_open_transactions(log.remote_snapshot, log.segments[0].store)
        if still_open is None:
            return None
        return TxnState(aborted=sorted(remote_aborted, key=lambda t: (t[1], t[2], t[0])), open=still_open)
    state = scanned(local, strict=strict)
    indexed: Dict[Tuple[int, int], int] = {}  # (producer id, marker offset) -> first offset
    for seg in local.segments:
        path = seg.path[: -len(segments.LOG_SUFFIX)] + segments.TXN_INDEX_SUFFIX
        if seg.store.info(path) is not None:
            for t in indexes.read_txn_index(path, store=seg.store):
                indexed[(t.producer_id, t.last_offset)] = t.first_offset
    aborted = remote_aborted
    for pid, marker in [(pid, last) for pid, _first, last in state.aborted] + state.unstarted:
        first = indexed.get((pid, marker))
        if first is None:
            return None
        aborted.add((pid, first, marker))
    return TxnState(
        aborted=sorted(aborted, key=lambda t: (t[1], t[2], t[0])), open=state.open, errors=state.errors
    )


def _listing(root: str, folder: str, store: Store) -> Dict[str, Entry]:
    """The files of one remote partition folder, by name (none if it is absent)."""
    try:
        return {e.name: e for e in store.list(_folder_path(root, folder, store)) if not e.is_dir}
    except FileNotFoundError:
        return {}


def _cut_before(seg: Segment, offset: int) -> int:
    """The byte position in ``seg`` of its first batch at or past ``offset``."""
    start = indexes.index_floor(seg, offset)
    for h in scan.scan_headers(seg.path, start, seg.size, store=seg.store):
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


#: the file a broker keeps a partition's leader epochs in (LeaderEpochCheckpointFile), and
#: the suffix of the copy of it the RemoteStorageManager uploads with each segment
LEADER_EPOCH_CHECKPOINT = "leader-epoch-checkpoint"
LEADER_EPOCH_SUFFIX = ".leader_epoch_checkpoint"
#: the suffix of the producer state snapshot uploaded with each segment
SNAPSHOT_SUFFIX = ".snapshot"


def read_leader_epochs(path: str, store: Store = LOCAL) -> Optional[List[Tuple[int, int]]]:
    """The ``(epoch, start offset)`` entries of a leader epoch checkpoint (a version
    line, a count line, then one ``epoch offset`` line each), or None when the file is
    absent.  A malformed file raises :class:`~kafkawire.errors.DecodeError` naming it."""
    try:
        with store.open(path) as f:
            data = f.read_at(0, 1 << 16)
    except FileNotFoundError:
        return None
    lines = data.decode("ascii", errors="replace").split()
    try:
        version, count = int(lines[0]), int(lines[1])
        pairs = [(int(lines[2 + 2 * i]), int(lines[3 + 2 * i])) for i in range(count)]
    except (IndexError, ValueError):
        raise DecodeError(f"{path}: not a leader epoch checkpoint") from None
    if version != 0 or len(lines) != 2 + 2 * count:
        raise DecodeError(f"{path}: not a version 0 leader epoch checkpoint of {count} entries")
    return pairs


def in_lineage(seg: RemoteSegment, lineage: Sequence[Tuple[int, int]]) -> bool:
    """Whether ``seg``'s leader epochs agree with the partition's leader epoch chain
    ``lineage`` (``(epoch, start offset)`` in order): each epoch the segment holds is in
    the chain, holds there every offset the segment gives it, and an epoch that starts
    inside the segment starts where the chain says.  A segment copied by a leader whose
    log later diverged (truncated when another replica led) fails; so does one of epochs
    the chain has dropped."""
    if not seg.leader_epochs or not lineage:
        return True  # nothing to check against: the metadata alone decides
    starts = dict(lineage)
    ends = {e: (lineage[i + 1][1] - 1 if i + 1 < len(lineage) else None) for i, (e, _o) in enumerate(lineage)}
    for i, (epoch, offset) in enumerate(seg.leader_epochs):
        if epoch not in starts:
            return False
        last = seg.leader_epochs[i + 1][1] - 1 if i + 1 < len(seg.leader_epochs) else seg.end_offset
        if i > 0 and offset != starts[epoch]:
            return False  # the epoch began elsewhere in the chain
        if i == 0 and offset < starts[epoch] and epoch != lineage[0][0]:
            return False  # the chain's first epoch may have been cut at the log's start
        end = ends[epoch]
        if end is not None and last > end:
            return False
        if i + 1 < len(seg.leader_epochs) and end is not None and last != end:
            return False  # the segment moves to its next epoch where the chain does not
    return True


def partition_lineage(
    plog: PartitionLog, segs: Sequence[RemoteSegment], root: str, store: Store, listing: Dict[str, Entry]
) -> Optional[List[Tuple[int, int]]]:
    """The leader epoch chain a partition's remote segments are checked against: the
    local log's ``leader-epoch-checkpoint`` (what the broker itself goes by), else the
    chain uploaded with the remote segment of the latest epoch (the newest leader's)."""
    local_store = plog.segments[0].store if plog.segments else LOCAL
    if plog.segments or local_store.info(plog.directory) is not None:
        chain = read_leader_epochs(local_store.join(plog.directory, LEADER_EPOCH_CHECKPOINT), local_store)
        if chain:
            return chain
    dated = [s for s in segs if s.leader_epochs]
    if not dated:
        return None
    latest = max(dated, key=lambda s: (s.leader_epochs[-1][0], s.end_offset))
    if listing.get(latest.object_name(LEADER_EPOCH_SUFFIX)) is None:
        return None
    return read_leader_epochs(latest.object_path(root, LEADER_EPOCH_SUFFIX, store), store)


def _cover(
    segs: Sequence[RemoteSegment], until: Optional[int], path_of: Callable[[RemoteSegment], str]
) -> Tuple[List[Tuple[RemoteSegment, int]], int]:
    """The segments that give each offset from the earliest of ``segs`` up to ``until``
    (exclusive; None: to their end) once, each with the offset after the last it gives,
    and the offset after the last any gives.

    At each offset the segment reaching furthest is taken (of equal ones, the one the
    metadata recorded last, as a broker keeps the newest copy); one that starts before
    the offset instead cuts the segments before it where it starts, so each segment is
    read from its first batch (the segments agree on the offsets they share: the same
    leader epoch chain wrote them).  A gap raises :class:`SegmentError` naming it and the
    object after it (``path_of``).
    """
    taken: List[RemoteSegment] = []
    following = min(s.start_offset for s in segs)
    while until is None or following < until:
        holding = [i for i, s in enumerate(segs) if s.start_offset <= following <= s.end_offset]
        if not holding:
            later = [s for s in segs if s.start_offset > following]
            if later and (until is None or min(s.start_offset for s in later) < until):
                first = min(later, key=lambda s: s.start_offset)
                raise SegmentError(
                    path_of(first),
                    0,
                    f"{first.topic}-{first.partition}: the remote tier has no segment for offsets "
                    f"{following}-{first.start_offset - 1}",
                )
            break
        best = segs[max(holding, key=lambda i: (segs[i].end_offset, i))]
        while taken and taken[-1].start_offset >= best.start_offset:
            taken.pop()  # wholly inside ``best``'s range
        taken.append(best)
        following = best.end_offset + 1
    stops = [s.start_offset for s in taken[1:]] + [following if until is None else min(following, until)]
    return list(zip(taken, stops)), following


def _partition_segs(
    plog: PartitionLog, remote: Dict[Tuple[str, int], List[RemoteSegment]]
) -> List[RemoteSegment]:
    """The remote segments of ``plog``'s topic id (the one in its ``partition.metadata``,
    else the only one the metadata has under its name)."""
    if plog.topic is None or plog.partition is None:
        return []
    segs = remote.get((plog.topic, plog.partition), [])
    if not segs:
        return []
    topic_id = local_topic_id(plog) if plog.segments else None
    if topic_id is None:
        ids = {s.topic_id for s in segs}
        if len(ids) > 1:
            raise SegmentError(
                plog.directory,
                0,
                f"{plog.topic}-{plog.partition}: the remote log metadata has segments of topic ids "
                + ", ".join(sorted(kafka_uuid(i) for i in ids))
                + " and no local partition.metadata says which is this topic's",
            )
        return segs
    return [s for s in segs if s.topic_id == topic_id]


def join_tiers(
    logs: List[PartitionLog],
    remote: Dict[Tuple[str, int], List[RemoteSegment]],
    root: str,
    storage: StorageOptions = NO_STORAGE_OPTIONS,
    strict: bool = True,
) -> List[PartitionLog]:
    """Each partition log with its remote segments (under LocalTieredStorage's ``root``,
    local or in an object store reached with ``storage``) put before its local ones, so
    that every offset is read once: remote segments up to the offset the local log starts
    at, the last one cut there.  A log without local segments is read from the remote
    tier alone.

    Remote segments are checked against the partition's leader epoch chain
    (:func:`partition_lineage`, :func:`in_lineage`) as a broker does before serving them:
    a copy made by a leader whose log then diverged is not read.  Of the rest,
    overlapping ones (a range copied twice, by one leader and then the next) give each
    offset once (:func:`_cover`).  A remote segment of another topic id than the local
    partition's (a topic deleted and made again under its name) is left out; a gap in the
    remote tier, or between it and the local log, raises
    :class:`~kafkawire.log.segments.SegmentError` naming the offsets missing.  A remote
    object missing or of the wrong size: see :func:`_remote_segment_file` (``strict``:
    the FAILFAST mode).
    """
    store = open_store(root, storage)
    out = []
    for plog in logs:
        segs = _partition_segs(plog, remote)
        if not segs:
            out.append(plog)
            continue
        listing = _listing(root, segs[0].folder, store)
        lineage = partition_lineage(plog, segs, root, store, listing)
        if lineage is not None:
            segs = [s for s in segs if in_lineage(s, lineage)]
        local = [s for s in plog.segments if s.size > 0] or list(plog.segments)
        local_start = local[0].base_offset if local else None
        segs = [s for s in segs if local_start is None or s.start_offset < local_start]
        if not segs:
            out.append(plog)
            continue
        cover, following = _cover(segs, local_start, lambda s: s.object_path(root, store=store))
        if local_start is not None and following < local_start:
            raise SegmentError(
                plog.segments[0].path,
                0,
                f"{plog.topic}-{plog.partition}: neither tier holds offsets {following}-{local_start - 1} "
                "(the remote tier ends before the local log starts)",
            )
        joined: List[Segment] = []
        txn_indexes = []
        for seg, stop in cover:
            file = _remote_segment_file(seg, root, store, listing, strict)
            if stop <= seg.end_offset:
                file = replace(file, size=_cut_before(file, stop))
            joined.append(file)
            txn_index = listing.get(seg.object_name(segments.TXN_INDEX_SUFFIX))
            if txn_index is not None and txn_index.size > 0:
                txn_indexes.append(txn_index.path)
        last, stop = cover[-1]
        snapshot = listing.get(last.object_name(SNAPSHOT_SUFFIX)) if stop > last.end_offset else None
        out.append(
            TieredLog(
                plog.topic,
                plog.partition,
                plog.directory,
                joined + list(plog.segments),
                len(joined),
                txn_indexes,
                snapshot.path if snapshot is not None else None,
            )
        )
    return out


def tiered_logs(
    paths: Union[PathLike, Sequence[PathLike]],
    remote_storage_path: str,
    remote_log_metadata_path: Union[PathLike, Sequence[PathLike]],
    storage: StorageOptions = NO_STORAGE_OPTIONS,
    strict: bool = True,
) -> List[PartitionLog]:
    """The partitions under ``paths`` (:func:`kafkawire.log.segments.discover`), each
    with its remote tier (:func:`join_tiers`), and the partitions the remote tier holds
    that have no local segments left.

    Those are the partitions of the remote log metadata that a path names but that are
    not on disk: a partition folder (``<log dir>/<topic>-<partition>``) that does not
    exist or holds no segment, or, for a path that is a log directory, every partition
    of the metadata it has no folder with segments for (local retention deleted them all,
    or the partition lives on another broker).  They are read from the remote tier alone.
    """
    remote = remote_segments(remote_log_metadata_path, storage)
    given = [paths] if isinstance(paths, (str, os.PathLike)) else list(paths)
    present: List[PathLike] = []
    absent: List[Tuple[str, Tuple[str, int]]] = []  # remote-only partition folders named outright
    log_dirs: List[Tuple[Store, str]] = []
    for p in given:
        text = local_path(os.fspath(p))
        where = open_store(text, storage)
        owner = segments.parse_partition_dir(where.basename(text.rstrip("/")))
        if glob.has_magic(text):
            present.append(p)
            continue
        info = where.info(text)
        if info is None and owner is not None and owner in remote:
            absent.append((text, owner))
            continue
        present.append(p)
        if info is not None and info.is_dir and owner is None:
            log_dirs.append((where, where.absolute(text)))
        elif info is not None and info.is_dir and owner in remote:
            absent.append((text, owner))  # kept if discovery finds no segment in it
    logs = segments.discover(present, storage) if present else []
    have = {(pl.topic, pl.partition) for pl in logs if pl.segments}
    for text, owner in absent:
        if owner not in have:
            logs.append(PartitionLog(owner[0], owner[1], text, []))
            have.add(owner)
    for where, directory in log_dirs:
        for owner in sorted(remote):
            if owner not in have:
                logs.append(
                    PartitionLog(owner[0], owner[1], where.join(directory, f"{owner[0]}-{owner[1]}"), [])
                )
                have.add(owner)
    logs.sort(key=lambda pl: (pl.topic or "", -1 if pl.partition is None else pl.partition, pl.directory))
    return join_tiers(logs, remote, remote_storage_path, storage, strict)


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
    "LEADER_EPOCH_CHECKPOINT",
    "LEADER_EPOCH_SUFFIX",
    "read_leader_epochs",
    "in_lineage",
    "partition_lineage",
    "TieredLog",
    "SNAPSHOT_SUFFIX",
    "snapshot_open_transactions",
    "transactions",
    "join_tiers",
    "tiered_logs",
]


def __dir__() -> list[str]:  # what the module defines, not what it imports
    return sorted(__all__)
