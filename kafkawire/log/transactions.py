"""What a partition's log says about its transactions: the aborted ones (what a broker's
``.txnindex`` records and a ``read_committed`` consumer skips) and those still open, found
by a scan of its batch headers (only control batches are read beyond their header)."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Dict, List, Optional, Tuple

from kafkawire.protocol.record_layout import BatchHeader
from kafkawire.errors import DecodeError
from kafkawire.log import scan, segments
from kafkawire.log.segments import SegmentError
from kafkawire.log.storage import RangeFile


@dataclass
class TxnState:
    """What a partition's log says about its transactions."""

    aborted: List[Tuple[int, int, int]] = field(default_factory=list)
    open: Dict[int, int] = field(default_factory=dict)  # producer id -> first offset
    errors: List[str] = field(default_factory=list)
    #: ``(producer id, marker offset)`` of ABORT markers with no batch of their
    #: transaction before them in the scan (it began before the segments scanned)
    unstarted: List[Tuple[int, int]] = field(default_factory=list)

    @property
    def last_stable_offset(self) -> Optional[int]:
        return min(self.open.values()) if self.open else None


def _control_type(path: str, header: BatchHeader, f: RangeFile) -> str:
    from kafkawire.protocol import records

    data = f.read_at(header.position, header.size_in_bytes)
    for batch in records.iter_batches(data, verify_crc=False):
        for rec in batch:
            try:
                return records.parse_control_record(rec).type
            except DecodeError as exc:
                raise SegmentError(path, header.position, f"bad control record: {exc}") from exc
    return "unknown"


def transactions(plog: segments.PartitionLog, *, strict: bool = True) -> TxnState:
    """Scan the batch headers of a partition, in offset order, for its transactions.

    A transaction starts at a producer's first transactional batch after its previous
    marker and ends at its control batch; an ABORT marker makes ``[first, marker]`` an
    aborted range, which is what a broker's ``.txnindex`` records and what a
    ``read_committed`` consumer skips.  Only control batches are read beyond their header.
    ``strict=False`` stops at a framing error of a segment instead of raising.
    """
    state = TxnState()
    for seg in plog.segments:
        with seg.store.open(seg.path, seg.size) as f:
            try:
                for h in scan.scan_headers(seg.path, 0, seg.size, f=f):
                    if not h.is_transactional:
                        continue
                    if not h.is_control:
                        state.open.setdefault(h.producer_id, h.base_offset)
                        continue
                    kind = _control_type(seg.path, h, f)
                    first = state.open.pop(h.producer_id, None)
                    if kind == "abort" and first is not None:
                        state.aborted.append((h.producer_id, first, h.last_offset))
                    elif kind == "abort":
                        state.unstarted.append((h.producer_id, h.last_offset))
            except SegmentError as exc:
                if strict:
                    raise
                state.errors.append(str(exc))
    return state


__all__ = [
    "TxnState",
    "transactions",
]


def __dir__() -> list[str]:  # what the module defines, not what it imports
    return sorted(__all__)
