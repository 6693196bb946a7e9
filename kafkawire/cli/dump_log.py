"""``kafkawire dump-log``: what ``kafka-dump-log.sh --print-data-log`` prints, as JSON lines.

For each file, a first line ``{"dumping": PATH, "logStartingOffset": N}``, then:

* ``.log`` segments: one line per batch with Kafka's field names (``baseOffset``,
  ``lastOffset``, ``count``, ``baseSequence``, ``lastSequence``, ``producerId``,
  ``producerEpoch``, ``partitionLeaderEpoch``, ``isTransactional``, ``isControl``,
  ``deleteHorizonMs``, ``position``, ``CreateTime``/``LogAppendTime``, ``size``,
  ``magic``, ``compresscodec``, ``crc``, ``isvalid``) and, unless ``--no-data``, its
  records under ``records``: ``offset``, ``CreateTime``/``LogAppendTime``, ``keySize``,
  ``valueSize``, ``sequence``, ``headerKeys``, ``key``, ``payload`` (control records:
  ``endTxnMarker`` and ``coordinatorEpoch`` instead of key and payload; the KRaft control
  records of the metadata log as ``LeaderChange``, ``SnapshotHeader``, ``SnapshotFooter``,
  ``KRaftVersion`` or ``KRaftVoters``: the record's fields and its ``version``).
* ``.index``: ``{"offset", "position"}`` per entry; ``.timeindex``: ``{"timestamp",
  "offset"}``; ``.txnindex``: ``{"producerId", "firstOffset", "lastOffset",
  "lastStableOffset"}``.

A partition folder stands for the segment and index files in it, in name order, as if
they had been listed one by one (kafka-dump-log.sh takes such a list in ``--files``); a
log directory for those of each of its partition folders, in topic and partition order.
Paths may be ``s3://`` URIs of an object store, reached as the AWS SDKs reach it
(``AWS_ENDPOINT_URL_S3`` or ``AWS_ENDPOINT_URL``, ``AWS_ACCESS_KEY_ID`` and so on:
:mod:`kafkawire.log.storage`).  Keys and payloads are printed as
``--bytes-as`` says (:func:`kafkawire.cli.json_output.render_bytes`: text when UTF-8, else base64).

A batch whose CRC does not match is printed with ``"isvalid": false`` (as Kafka's tool
does, its records not decoded), reported on stderr, and the dump of that file stops
there unless ``--skip-corrupt``; a file that stops framing into batches ends with
``{"error": ..., "position": ...}``.  Either makes the exit status 1.  The segment is
read in bounded memory.  With stderr on a terminal, a progress bar shows there for big
files.
"""

from __future__ import annotations

import argparse
import json
import os
import sys
import time
import zlib
from typing import TYPE_CHECKING, Any, Dict, Generator, List, Optional, TextIO, Tuple, Union

from kafkawire.log import indexes, scan, segments, storage
from kafkawire.log.storage import LOCAL, Entry, Store
from kafkawire.cli import CommandError, CommandParser, add_bytes_as, run_command
from kafkawire.errors import CodecUnavailableError, DecodeError, LogNotFoundError, UnknownApiError
from kafkawire.cli.json_output import render_bytes

if TYPE_CHECKING:
    from kafkawire.protocol.records import LegacyRecordBatch, Record, RecordBatch

    AnyBatch = Union[RecordBatch, LegacyRecordBatch]

# the files a directory given on the command line stands for
_DUMPABLE = (
    segments.LOG_SUFFIX,
    segments.INDEX_SUFFIX,
    segments.TIME_INDEX_SUFFIX,
    segments.TXN_INDEX_SUFFIX,
)


def _byte_count(text: str) -> int:
    value = int(text)
    if value < 0:
        raise argparse.ArgumentTypeError(f"must not be negative: {value}")
    return value


def _parser() -> argparse.ArgumentParser:
    p = CommandParser(
        "kafkawire dump-log",
        "Print the batches and records of Kafka log segments (and the entries of .index, "
        ".timeindex and .txnindex files) as JSON lines, like kafka-dump-log.sh "
        "--print-data-log.",
    )
    p.add_argument(
        "files",
        nargs="+",
        metavar="FILE",
        help="segment or index files, or directories holding them (local paths or s3:// URIs)",
    )
    p.add_argument(
        "--no-data",
        action="store_true",
        help="print batches only, not their records (kafka-dump-log.sh without --print-data-log)",
    )
    add_bytes_as(p)
    p.add_argument(
        "--skip-corrupt",
        action="store_true",
        help="after a corrupt batch (bad CRC, records that do not decode), report "
        "it and carry on with the rest of the file; the exit status is 1 "
        "either way",
    )
    p.add_argument(
        "--max-bytes", type=_byte_count, default=None, help="stop after this many bytes of each segment"
    )
    p.add_argument(
        "--progress",
        choices=("auto", "always", "never"),
        default="auto",
        help="progress bar on stderr (auto: when stderr is a terminal)",
    )
    return p


class _Progress:
    """A one-line progress bar on stderr, redrawn at most ten times a second."""

    def __init__(self, name: str, total: int, stream: TextIO) -> None:
        self.name, self.total, self.stream = os.path.basename(name), max(total, 1), stream
        self._last = 0.0

    def update(self, done: int, final: bool = False) -> None:
        now = time.monotonic()
        if not final and now - self._last < 0.1:
            return
        self._last = now
        frac = min(done / self.total, 1.0)
        bar = "#" * int(frac * 30)
        self.stream.write(
            f"\r{self.name} [{bar:<30}] {frac * 100:5.1f}% {done / 1e6:.1f}/{self.total / 1e6:.1f} MB"
        )
        if final:
            self.stream.write("\n")
        self.stream.flush()


def _crc_of(batch: AnyBatch) -> int:
    """The CRC of the batch's bytes, to compare with the one it stores."""
    raw = batch.raw
    if batch.magic >= 2:
        from kafkawire import crc32c

        return crc32c(raw[21:])
    return zlib.crc32(raw[16:]) & 0xFFFFFFFF


def _ts_name(timestamp_type: Optional[str]) -> str:
    if timestamp_type == "log_append":
        return "LogAppendTime"
    if timestamp_type == "create":
        return "CreateTime"
    return "NoTimestamp"


# KRaft control record types as DumpLogSegments names them
_KRAFT_CONTROL_NAMES = {
    2: "LeaderChange",
    3: "SnapshotHeader",
    4: "SnapshotFooter",
    5: "KRaftVersion",
    6: "KRaftVoters",
}


def _control_fields(record: Record) -> Dict[str, Any]:
    """A control record's fields: a transaction marker's type and coordinator epoch, or
    a KRaft control record (metadata log) under its type's name, with its version."""
    from kafkawire.protocol import internal_topics, records

    marker = records.parse_control_record(record)
    ctype = marker.type_id
    if ctype not in _KRAFT_CONTROL_NAMES:
        return {"endTxnMarker": marker.type.upper(), "coordinatorEpoch": marker.coordinator_epoch}
    try:
        decoded = internal_topics.decode_control_record(record.key, record.value)
    except UnknownApiError as exc:
        raise DecodeError(str(exc)) from None
    body: Dict[str, Any] = {"version": decoded.value_version}
    body.update(decoded.message.to_dict() if decoded.message is not None else {})
    return {_KRAFT_CONTROL_NAMES[ctype]: body}


def batch_json(
    batch: AnyBatch, position: int, *, data: bool = True, bytes_as: str = "auto"
) -> Dict[str, Any]:
    """The dump of one batch (a :mod:`kafkawire.protocol.records` batch object) as a dict."""

    base_seq = batch.base_sequence
    last_seq = -1 if base_seq < 0 else (base_seq + batch.last_offset - batch.base_offset) % (1 << 31)
    out: Dict[str, Any] = {
        "baseOffset": batch.base_offset,
        "lastOffset": batch.last_offset,
        "count": batch.record_count,
        "baseSequence": base_seq,
        "lastSequence": last_seq,
        "producerId": batch.producer_id,
        "producerEpoch": batch.producer_epoch,
        "partitionLeaderEpoch": batch.partition_leader_epoch,
        "isTransactional": batch.is_transactional,
        "isControl": batch.is_control,
        "deleteHorizonMs": batch.delete_horizon_ms,
        "position": position,
        _ts_name(batch.timestamp_type): batch.max_timestamp,
        "size": batch.size_in_bytes,
        "magic": batch.magic,
        "compresscodec": batch.compression,
        "crc": batch.crc,
        "isvalid": _crc_of(batch) == batch.crc,
    }
    if not out["isvalid"]:
        out["computedCrc"] = _crc_of(batch)
    if not data:
        return out
    if not out["isvalid"]:
        out["records"] = []
        return out
    recs: List[Dict[str, Any]] = []
    ts_key = _ts_name(batch.timestamp_type)
    try:
        for r in batch:
            rec: Dict[str, Any] = {
                "offset": r.offset,
                ts_key: r.timestamp,
                "keySize": -1 if r.key is None else len(r.key),
                "valueSize": -1 if r.value is None else len(r.value),
                "sequence": batch.sequence_of(r.offset - batch.base_offset) if batch.magic >= 2 else -1,
                "headerKeys": [k for k, _v in r.headers],
            }
            if batch.is_control:
                try:
                    rec.update(_control_fields(r))
                except DecodeError as exc:
                    rec["error"] = str(exc)
            else:
                rec["key"] = render_bytes(r.key, bytes_as)
                rec["payload"] = render_bytes(r.value, bytes_as)
            recs.append(rec)
    except CodecUnavailableError:
        raise  # the machine lacks a library: the batch is not corrupt
    except DecodeError as exc:
        out["recordsError"] = str(exc)
    out["records"] = recs
    return out


def dump_segment(
    path: str,
    *,
    data: bool = True,
    bytes_as: str = "auto",
    max_bytes: Optional[int] = None,
    progress: Optional[_Progress] = None,
    store: Store = LOCAL,
) -> Generator[Dict[str, Any], None, None]:
    """The JSON-able lines of one ``.log`` segment in ``store`` (see the module docstring)."""
    from kafkawire.protocol import records

    size = _size(store, path)
    end = size if max_bytes is None else min(size, max_bytes)
    base = segments.base_offset_of(path)
    yield {"dumping": path, "logStartingOffset": base}
    try:
        for pos, view, headers in scan.iter_chunks(path, 0, end, store=store):
            for h in headers:
                rel = h.position - pos
                entry = view[rel : rel + h.size_in_bytes]
                try:
                    (batch,) = list(records.iter_batches(entry, verify_crc=False))
                except (DecodeError, ValueError) as exc:
                    yield {"position": h.position, "error": str(exc)}
                    continue
                yield batch_json(batch, h.position, data=data, bytes_as=bytes_as)
            if progress is not None:
                progress.update(pos + len(view))
    except segments.SegmentError as exc:
        if max_bytes is not None and exc.position >= 0 and "truncated" in exc.reason and end < size:
            return  # --max-bytes cut a batch in two: stop there, as Kafka's tool does
        yield {"error": str(exc), "position": exc.position}


def dump_index(path: str, store: Store = LOCAL) -> Generator[Dict[str, Any], None, None]:
    """The entries of an ``.index``, ``.timeindex`` or ``.txnindex`` file in ``store``."""
    base = segments.base_offset_of(path)
    yield {"dumping": path, "logStartingOffset": base}
    if path.endswith(segments.TIME_INDEX_SUFFIX):
        for ts, off in indexes.read_time_index(path, base, store=store):
            yield {"timestamp": ts, "offset": off}
    elif path.endswith(segments.TXN_INDEX_SUFFIX):
        for a in indexes.read_txn_index(path, store=store):
            yield {
                "producerId": a.producer_id,
                "firstOffset": a.first_offset,
                "lastOffset": a.last_offset,
                "lastStableOffset": a.last_stable_offset,
            }
    else:
        for off, pos in indexes.read_offset_index(path, base, store=store):
            yield {"offset": off, "position": pos}


# Kafka's other files in a partition folder or log directory, which are not batches
_NOT_DUMPABLE = {
    "partition.metadata": "the partition's topic id, as text",
    "leader-epoch-checkpoint": "a checkpoint, as text",
    "meta.properties": "the log directory's properties, as text",
}


def _not_dumpable(path: str) -> Optional[str]:
    name = os.path.basename(path)
    if name in _NOT_DUMPABLE:
        return _NOT_DUMPABLE[name]
    if name.endswith("-checkpoint"):
        return "a checkpoint, as text"
    if name.endswith(".snapshot"):
        return "a producer state snapshot"
    return None


def _size(store: Store, path: str) -> int:
    info = store.info(path)
    if info is None:
        raise LogNotFoundError(path, "no such file")
    return info.size


def _dumpable_in(listing: List[Entry]) -> List[str]:
    return [
        e.path for e in sorted(listing, key=lambda e: e.name) if e.name.endswith(_DUMPABLE) and not e.is_dir
    ]


def _files_of(path: str) -> Tuple[Store, List[str]]:
    """The files a command-line argument stands for, and their store: itself, a partition
    folder's segment and index files in name order, or those of every partition folder
    of a log directory (in topic and partition order)."""
    try:
        store = storage.open_store(path)
    except ValueError as exc:
        raise CommandError(str(exc)) from None
    info = store.info(path)
    if info is None:
        raise CommandError(f"{path}: no such file or directory")
    if info.is_dir:
        listing = store.list(path)
        files = _dumpable_in(listing)
        if not files:
            partitions = sorted(
                (parsed, e.path)
                for e in listing
                if e.is_dir and (parsed := segments.parse_partition_dir(e.name))
            )
            files = [f for _, folder in partitions for f in _dumpable_in(store.list(folder))]
        if not files:
            raise CommandError(
                f"{path}: no Kafka log in it: looked for .log, .index, .timeindex and .txnindex files, "
                f"in it and in partition folders named <topic>-<partition>"
            )
        return store, files
    what = _not_dumpable(path)
    if what is not None:
        raise CommandError(
            f"{path}: not a segment or index file ({what}); dump-log reads .log, .index, .timeindex "
            f"and .txnindex files"
        )
    return store, [path]


def _problem(path: str, line: Dict[str, Any]) -> Optional[str]:
    """What is wrong with the file at this dumped line, if anything."""
    if line.get("isvalid") is False:
        return (
            f"{path}: corrupt batch at byte {line['position']}: its CRC is "
            f"{line['crc']}, its bytes give {line['computedCrc']}"
        )
    if "recordsError" in line:
        return f"{path}: corrupt batch at byte {line['position']}: {line['recordsError']}"
    if "error" in line and "dumping" not in line and "baseOffset" not in line:
        error = line["error"]
        return error if error.startswith(path) else (f"{path}: at byte {line['position']}: {error}")
    return None


def _dump_file(store: Store, path: str, args: argparse.Namespace, out: TextIO, err: TextIO) -> int:
    size = _size(store, path)
    show = args.progress == "always" or (args.progress == "auto" and err.isatty() and size > (4 << 20))
    progress = None
    if path.endswith((segments.INDEX_SUFFIX, segments.TIME_INDEX_SUFFIX, segments.TXN_INDEX_SUFFIX)):
        lines = dump_index(path, store)
    else:
        progress = _Progress(path, size, err) if show else None
        lines = dump_segment(
            path,
            data=not args.no_data,
            bytes_as=args.bytes_as,
            max_bytes=args.max_bytes,
            progress=progress,
            store=store,
        )
    status = 0
    for line in lines:
        out.write(json.dumps(line, separators=(",", ":")) + "\n")
        problem = _problem(path, line)
        if problem is None:
            continue
        status = 1
        if args.skip_corrupt or "baseOffset" not in line:
            print(f"kafkawire dump-log: {problem}", file=err)
            continue
        print(f"kafkawire dump-log: {problem}; stopped there (--skip-corrupt carries on)", file=err)
        lines.close()
        return status
    if progress is not None:
        progress.update(size, final=True)
    return status


def _run(args: argparse.Namespace) -> int:
    status = 0
    for arg in args.files:
        try:
            store, files = _files_of(arg)
        except CommandError as exc:
            print(f"kafkawire dump-log: {exc}", file=sys.stderr)
            status = 1
            continue
        for path in files:
            status = max(status, _dump_file(store, path, args, sys.stdout, sys.stderr))
    return status


def main(argv: Optional[List[str]] = None) -> int:
    """Entry point of ``kafkawire dump-log``."""
    return run_command(_parser(), _run, argv)
