"""The log entries of a segment file: their headers, and reading them in whole chunks.

Every log entry starts with ``base offset int64, length int32`` and has its magic byte at
position 16, whatever its format (batch v2 or legacy message v0/v1).  That is enough to
find batch boundaries, check that an index entry points at one, and read a segment in
bounded memory.  Decoding the batches themselves is :mod:`kafkawire.protocol.records`' work.
"""

from __future__ import annotations

import struct
from typing import (
    Iterator,
    List,
    Optional,
    Tuple,
)

from kafkawire.protocol.record_layout import (
    LEGACY_OVERHEAD,
    LOG_OVERHEAD,
    V2_HEADER_SIZE,
    BatchHeader,
    unpack_v2_header,
)
from kafkawire.errors import LogNotFoundError
from kafkawire.protocol.framing import BytesLike
from kafkawire.log.segments import PartitionLog, SegmentError
from kafkawire.log.storage import (
    LOCAL,
    RangeFile,
    Store,
)
from kafkawire.protocol.schema.plan import INT32_MAX

# LOG_OVERHEAD (``base offset int64, length int32``: what precedes every log entry) and
# V2_HEADER_SIZE (``baseOffset`` to ``recordsCount``) come from the batch layout.
#: Smallest value of the length field for each magic (the bytes after it).
MIN_ENTRY_LENGTH = {0: LEGACY_OVERHEAD[0], 1: LEGACY_OVERHEAD[1], 2: V2_HEADER_SIZE - LOG_OVERHEAD}
#: Largest log entry this module accepts: Kafka caps ``message.max.bytes`` far lower,
#: so a length beyond this is garbage, not a batch.
MAX_ENTRY_LENGTH = INT32_MAX - LOG_OVERHEAD

_ENTRY_HEAD = struct.Struct(">qiiB")  # base offset, length, leader epoch / crc, magic
_LEGACY_ATTR = struct.Struct(">B")

# BatchHeader is the one type of kafkawire.protocol.record_layout


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
    ``position``).  Raises :class:`~kafkawire.log.segments.SegmentError` for anything that cannot be a log entry.
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
# batch boundaries


def check_boundary(
    path: str, position: int, offset: int, size: int, *, f: Optional[RangeFile] = None, store: Store = LOCAL
) -> bool:
    """True when the batch at ``position`` of segment ``path`` (``size`` bytes, in
    ``store``; ``f``: already open) holds ``offset``: an index entry that points where it
    says."""
    if position >= size:
        return False
    if f is None:
        with store.open(path, size) as fh:
            head = fh.read_at(position, V2_HEADER_SIZE)
    else:
        head = f.read_at(position, V2_HEADER_SIZE)
    try:
        h = parse_header(head, 0, path=path, file_position=position, available=size - position)
    except SegmentError:
        return False
    return h.base_offset <= offset <= h.last_offset if h.magic >= 2 else h.base_offset == offset


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
    whole on its own.  A framing error raises :class:`~kafkawire.log.segments.SegmentError` with the position;
    the batches before it have been yielded.

    With ``reuse_buffer``, every chunk is read into the same buffer, which the next one
    overwrites: a view is good only until the generator resumes (for readers that copy
    what they keep, and save the page faults of a fresh buffer per chunk).

    ``path`` is in ``store`` (``f``: already open); each chunk is one read at its
    position, a ranged request of exactly its bytes on an object store.  A file that
    is gone raises :class:`~kafkawire.errors.LogNotFoundError` naming it and ``start``.
    """
    own = f is None
    fh = open_planned(path, start, store) if f is None else f
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
            raise _short(path, end, planned)
    finally:
        if own:
            fh.close()


def open_planned(path: str, start: int, store: Store = LOCAL) -> RangeFile:
    """``path`` opened for a read planned from ``start``; one that is gone raises
    :class:`~kafkawire.errors.LogNotFoundError` naming it and ``start``."""
    try:
        return store.open(path)
    except LogNotFoundError as exc:
        raise LogNotFoundError(path, exc.reason + " (deleted after the read was planned?)", start) from None


def read_whole(
    path: str,
    start: int,
    end: int,
    buffer: memoryview,
    *,
    f: Optional[RangeFile] = None,
    store: Store = LOCAL,
) -> Tuple[int, List[BatchHeader], Optional[SegmentError]]:
    """``path[start:end]`` read at once into ``buffer`` (``end - start`` bytes long),
    for a split small enough to hold whole: what :func:`iter_chunks` yields of it, as
    one chunk read straight where the caller wants it.  Returns ``(n, headers, error)``:
    ``buffer[:n]`` holds the whole entries ``headers`` describe, and ``error`` is the
    framing error (a :class:`~kafkawire.log.segments.SegmentError`) that ends the split
    early, if one does, as :func:`iter_chunks` would raise it."""
    fh = open_planned(path, start, store) if f is None else f
    try:
        got = 0
        while got < len(buffer):
            n = fh.readinto_at(start + got, buffer[got:])
            if not n:
                break
            got += n
    finally:
        if f is None:
            fh.close()
    whole = buffer[:got]
    headers: List[BatchHeader] = []
    off = 0
    while off < got:
        try:
            h = parse_header(whole, off, path=path, file_position=start + off, available=got - off)
        except SegmentError as exc:
            return off, headers, exc
        headers.append(h)
        off += h.size_in_bytes
    if got < end - start:
        return off, headers, _short(path, start + got, end)
    return off, headers, None


def _short(path: str, end: int, planned: int) -> SegmentError:
    """The error of a file that ends at ``end``, before the ``planned`` end of a read."""
    return SegmentError(
        path, end, f"the file ends at byte {end}, short of the {planned} the read was planned to (truncated?)"
    )


def last_offset(plog: PartitionLog) -> int:
    """The last offset stored in a partition's segments (-1 when they hold none)."""
    for seg in reversed(plog.segments):
        last = -1
        for h in scan_headers(seg.path, store=seg.store):
            last = h.last_offset
        if last >= 0:
            return last
    return -1


__all__ = [
    "MIN_ENTRY_LENGTH",
    "MAX_ENTRY_LENGTH",
    "parse_header",
    "scan_headers",
    "check_boundary",
    "iter_chunks",
    "open_planned",
    "read_whole",
    "last_offset",
]


def __dir__() -> list[str]:  # what the module defines, not what it imports
    return sorted(__all__)
