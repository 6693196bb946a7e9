"""``kafkawire dump-log``: what ``kafka-dump-log.sh --print-data-log`` prints, as JSON lines.

For each file, a first line ``{"dumping": PATH, "logStartingOffset": N}``, then:

* ``.log`` segments: one line per batch with Kafka's field names (``baseOffset``,
  ``lastOffset``, ``count``, ``baseSequence``, ``lastSequence``, ``producerId``,
  ``producerEpoch``, ``partitionLeaderEpoch``, ``isTransactional``, ``isControl``,
  ``deleteHorizonMs``, ``position``, ``CreateTime``/``LogAppendTime``, ``size``,
  ``magic``, ``compresscodec``, ``crc``, ``isvalid``) and, unless ``--no-data``, its
  records under ``records``: ``offset``, ``CreateTime``/``LogAppendTime``, ``keySize``,
  ``valueSize``, ``sequence``, ``headerKeys``, ``key``, ``payload`` (control records:
  ``endTxnMarker`` and ``coordinatorEpoch`` instead of key and payload).
* ``.index``: ``{"offset", "position"}`` per entry; ``.timeindex``: ``{"timestamp",
  "offset"}``; ``.txnindex``: ``{"producerId", "firstOffset", "lastOffset",
  "lastStableOffset"}``.

A batch whose CRC does not match is printed with ``"isvalid": false`` (as Kafka's tool
does) and its records are not decoded; a file that stops framing into batches ends with
``{"error": ..., "position": ...}`` and the exit status is 1.  The segment is read in
bounded memory.  With stderr on a terminal, a progress bar shows there for big files.
"""
from __future__ import annotations

import argparse
import base64
import json
import os
import sys
import time
import zlib
from typing import Any, Callable, Dict, Iterator, List, Optional, TextIO

from kafkawire import segments
from kafkawire.errors import DecodeError

_RENDER: Dict[str, Callable[[bytes], str]] = {
    "text": lambda b: b.decode("utf-8", "backslashreplace"),
    "base64": lambda b: base64.b64encode(b).decode("ascii"),
    "hex": lambda b: b.hex(),
}


def _parser() -> argparse.ArgumentParser:
    p = argparse.ArgumentParser(
        prog="kafkawire dump-log",
        description="Print the batches and records of Kafka log segments (and the entries "
                    "of .index, .timeindex and .txnindex files) as JSON lines, like "
                    "kafka-dump-log.sh --print-data-log.")
    p.add_argument("files", nargs="+", metavar="FILE", help="segment or index files")
    p.add_argument("--no-data", action="store_true",
                   help="print batches only, not their records (kafka-dump-log.sh without "
                        "--print-data-log)")
    p.add_argument("--encoding", choices=sorted(_RENDER), default="text",
                   help="how keys and payloads are printed (default: text, UTF-8 with "
                        "\\x escapes for bytes that are not)")
    p.add_argument("--max-bytes", type=int, default=None,
                   help="stop after this many bytes of each segment")
    p.add_argument("--progress", choices=("auto", "always", "never"), default="auto",
                   help="progress bar on stderr (auto: when stderr is a terminal)")
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
        self.stream.write(f"\r{self.name} [{bar:<30}] {frac * 100:5.1f}% "
                          f"{done / 1e6:.1f}/{self.total / 1e6:.1f} MB")
        if final:
            self.stream.write("\n")
        self.stream.flush()


def _crc_ok(batch) -> bool:
    raw = batch.raw
    if batch.magic >= 2:
        from kafkawire import crc32c

        return crc32c(raw[21:]) == batch.crc
    return zlib.crc32(raw[16:]) & 0xFFFFFFFF == batch.crc


def _ts_name(timestamp_type: Optional[str]) -> str:
    if timestamp_type == "log_append":
        return "LogAppendTime"
    if timestamp_type == "create":
        return "CreateTime"
    return "NoTimestamp"


def batch_json(batch, position: int, *, data: bool = True, render=_RENDER["text"]
               ) -> Dict[str, Any]:
    """The dump of one batch (a :mod:`kafkawire.records` batch object) as a dict."""
    from kafkawire import records

    base_seq = batch.base_sequence
    last_seq = -1 if base_seq < 0 else (base_seq + batch.last_offset - batch.base_offset) % (
        1 << 31)
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
        "isvalid": _crc_ok(batch),
    }
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
                "sequence": batch.sequence_of(r.offset - batch.base_offset)
                if batch.magic >= 2 else -1,
                "headerKeys": [k for k, _v in r.headers],
            }
            if batch.is_control:
                try:
                    marker = records.parse_control_record(r)
                    rec["endTxnMarker"] = marker.type.upper()
                    rec["coordinatorEpoch"] = marker.coordinator_epoch
                except DecodeError as exc:
                    rec["error"] = str(exc)
            else:
                rec["key"] = None if r.key is None else render(bytes(r.key))
                rec["payload"] = None if r.value is None else render(bytes(r.value))
            recs.append(rec)
    except DecodeError as exc:
        out["recordsError"] = str(exc)
    out["records"] = recs
    return out


def dump_segment(path: str, *, data: bool = True, render=_RENDER["text"],
                 max_bytes: Optional[int] = None,
                 progress: Optional[_Progress] = None) -> Iterator[Dict[str, Any]]:
    """The JSON-able lines of one ``.log`` segment (see the module docstring)."""
    from kafkawire import records

    size = os.path.getsize(path)
    end = size if max_bytes is None else min(size, max_bytes)
    base = segments.base_offset_of(path)
    yield {"dumping": path, "logStartingOffset": base}
    try:
        for pos, view, headers in segments.iter_chunks(path, 0, end):
            for h in headers:
                rel = h.position - pos
                entry = view[rel:rel + h.size]
                try:
                    (batch,) = list(records.iter_batches(entry, verify_crc=False))
                except (DecodeError, ValueError) as exc:
                    yield {"position": h.position, "error": str(exc)}
                    continue
                yield batch_json(batch, h.position, data=data, render=render)
            if progress is not None:
                progress.update(pos + len(view))
    except segments.SegmentError as exc:
        if max_bytes is not None and exc.position >= 0 and "truncated" in exc.reason \
                and end < size:
            return  # --max-bytes cut a batch in two: stop there, as Kafka's tool does
        yield {"error": str(exc), "position": exc.position}


def dump_index(path: str) -> Iterator[Dict[str, Any]]:
    """The entries of an ``.index``, ``.timeindex`` or ``.txnindex`` file."""
    base = segments.base_offset_of(path)
    yield {"dumping": path, "logStartingOffset": base}
    if path.endswith(segments.TIME_INDEX_SUFFIX):
        for ts, off in segments.read_time_index(path, base):
            yield {"timestamp": ts, "offset": off}
    elif path.endswith(segments.TXN_INDEX_SUFFIX):
        for a in segments.read_txn_index(path):
            yield {"producerId": a.producer_id, "firstOffset": a.first_offset,
                   "lastOffset": a.last_offset, "lastStableOffset": a.last_stable_offset}
    else:
        for off, pos in segments.read_offset_index(path, base):
            yield {"offset": off, "position": pos}


def main(argv: Optional[List[str]] = None) -> int:
    """Entry point of ``kafkawire dump-log``."""
    args = _parser().parse_args(argv)
    out = sys.stdout
    err = sys.stderr
    render = _RENDER[args.encoding]
    status = 0
    for path in args.files:
        if not os.path.isfile(path):
            print(f"kafkawire dump-log: {path}: no such file", file=err)
            status = 1
            continue
        show = args.progress == "always" or (args.progress == "auto" and err.isatty()
                                             and os.path.getsize(path) > (4 << 20))
        if path.endswith((segments.INDEX_SUFFIX, segments.TIME_INDEX_SUFFIX,
                          segments.TXN_INDEX_SUFFIX)):
            lines = dump_index(path)
            progress = None
        else:
            progress = _Progress(path, os.path.getsize(path), err) if show else None
            lines = dump_segment(path, data=not args.no_data, render=render,
                                 max_bytes=args.max_bytes, progress=progress)
        try:
            for line in lines:
                if "error" in line and "dumping" not in line and "baseOffset" not in line:
                    status = 1
                    print(f"kafkawire dump-log: {line['error']}", file=err)
                out.write(json.dumps(line, separators=(",", ":")) + "\n")
        except BrokenPipeError:  # `| head`: stop quietly
            devnull = os.open(os.devnull, os.O_WRONLY)
            os.dup2(devnull, out.fileno())
            return status
        if progress is not None:
            progress.update(os.path.getsize(path), final=True)
    return status
