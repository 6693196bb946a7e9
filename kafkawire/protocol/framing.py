"""Splitting a Kafka byte stream into frames.

Every Kafka request and response travels as a 4-byte big-endian size followed by that
many bytes.  :class:`FrameReader` takes the stream in whatever pieces a socket delivers
and hands back whole frames; the size prefix is checked against ``max_frame_size``
before the frame's bytes are buffered.  This is buffer bookkeeping, not byte decoding,
so one implementation serves both backends.
"""

from __future__ import annotations

import struct
from collections import deque
from typing import Deque, List, Optional, Union

from kafkawire.errors import FrameTooLarge, InvalidFrame

DEFAULT_MAX_FRAME_SIZE = 104857600  # Kafka's socket.request.max.bytes default, 100 MiB
_SIZE = struct.Struct(">i")
# Pieces shorter than this are gathered into buffers of up to _GATHER_SIZE bytes, so that a
# stream arriving a few bytes at a time costs its bytes, not an object each.
_GATHER_BELOW = 4096
_GATHER_SIZE = 1 << 16
BytesLike = Union[bytes, bytearray, memoryview]


def frame(payload: BytesLike) -> bytes:
    """``payload`` with its 4-byte size prefix, ready for ``socket.sendall``."""
    return _SIZE.pack(len(payload)) + bytes(payload)


class FrameReader:
    """Reassembles size-prefixed frames from arbitrary pieces of a byte stream.

    ``feed(data)`` returns the frames (payloads without the size prefix) that ``data``
    completes, possibly none.  A negative size raises :class:`InvalidFrame`, a size over
    ``max_frame_size`` raises :class:`FrameTooLarge`; after either the reader stays
    failed (a stream that lost its framing cannot be resynchronised).
    """

    __slots__ = ("max_frame_size", "_pieces", "_skip", "_have", "_taken", "_need", "_error", "frames_read")

    def __init__(self, max_frame_size: int = DEFAULT_MAX_FRAME_SIZE) -> None:
        if not isinstance(max_frame_size, int) or max_frame_size < 0:
            raise ValueError(f"max_frame_size must be a non-negative int, not {max_frame_size!r}")
        self.max_frame_size = max_frame_size
        # The pieces received and not yet handed out, kept as they came and joined once
        # a frame is whole: one copy a byte.  (Growing one buffer piece by piece copies
        # a large frame many times over.)
        self._pieces: Deque[Union[bytes, bytearray]] = deque()
        self._skip = 0  # bytes of the first piece already handed out
        self._have = 0  # bytes of the pieces not yet handed out
        self._taken = 0  # bytes of the stream handed out (size prefixes and frames)
        self._need: Optional[int] = None  # payload size of the frame being read
        self._error: Optional[InvalidFrame] = None
        self.frames_read = 0

    @property
    def buffered(self) -> int:
        """Bytes received that do not yet form a whole frame."""
        return self._have + (4 if self._need is not None else 0)

    @property
    def at_boundary(self) -> bool:
        """True when no partial frame is buffered (a clean place for the stream to end)."""
        return not self._have and self._need is None

    def feed(self, data: BytesLike) -> List[bytes]:
        """Add ``data`` (any bytes-like) to the stream; return the frames it completes."""
        if self._error is not None:
            raise self._error
        with memoryview(data) as view:
            n = view.nbytes
            if n >= _GATHER_BELOW:  # kept as it came (bytes are not copied)
                self._pieces.append(data if type(data) is bytes else view.tobytes())
            elif n:  # gathered with its neighbours: a piece costs its bytes, not an object
                last = self._pieces[-1] if self._pieces else None
                if type(last) is bytearray and len(last) + n <= _GATHER_SIZE:
                    last += view
                else:
                    self._pieces.append(bytearray(view))
            self._have += n
        frames: List[bytes] = []
        while True:
            if self._need is None:
                if self._have < 4:
                    break
                at = self._taken
                size = _SIZE.unpack(self._take(4))[0]
                if size < 0:
                    self._error = InvalidFrame(
                        f"frame {self.frames_read} has a negative size ({size}) at stream byte offset {at}"
                    )
                    raise self._error
                if size > self.max_frame_size:
                    self._error = FrameTooLarge(
                        f"frame {self.frames_read} declares {size} bytes, over the "
                        f"limit of {self.max_frame_size}"
                    )
                    raise self._error
                self._need = size
            if self._have < self._need:
                break
            frames.append(self._take(self._need))
            self._need = None
            self.frames_read += 1
        return frames

    def _take(self, n: int) -> bytes:
        """The next ``n`` bytes of the stream (``n`` at most ``_have``)."""
        if not n:
            return b""
        pieces = self._pieces
        self._have -= n
        self._taken += n
        first = pieces[0]
        skip = self._skip
        if len(first) - skip > n:  # within the first piece, which stays
            self._skip = skip + n
            return (
                first[skip : skip + n] if type(first) is bytes else bytes(memoryview(first)[skip : skip + n])
            )
        if skip == 0 and len(first) == n:  # exactly the first piece
            pieces.popleft()
            return first if type(first) is bytes else bytes(first)
        parts: List[Union[bytes, bytearray, memoryview]] = []
        while n:
            piece = pieces[0]
            room = len(piece) - skip
            if room <= n:
                parts.append(memoryview(piece)[skip:] if skip else piece)
                pieces.popleft()
                n -= room
                skip = 0
            else:
                parts.append(memoryview(piece)[skip : skip + n])
                skip += n
                n = 0
        self._skip = skip
        return b"".join(parts)


__all__ = [
    "DEFAULT_MAX_FRAME_SIZE",
    "BytesLike",
    "frame",
    "FrameReader",
]


def __dir__() -> list[str]:  # what the module defines, not what it imports
    return sorted(__all__)
