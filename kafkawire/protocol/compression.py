"""Compression codecs of Kafka's record batches, shared by both backends.

Every codec goes through one library, `cramjam <https://github.com/milesgranger/cramjam>`_:
a single maintained wheel (Rust bindings to the reference C/Rust implementations of
gzip/deflate, snappy, lz4 and zstd) with wheels for every platform kafkawire ships, no
system libraries, and ``*_into`` functions that decompress into a buffer we size, which
is what makes the decompression cap cheap and exact.

Kafka's quirks handled here:

* snappy: Java clients write the *xerial* framing (a 16-byte header, then blocks of
  ``int32 length + raw snappy``); librdkafka writes one raw snappy block.  Both are
  read (and the "sNaPpY" framing format too).  kafkawire writes xerial, which every
  Kafka reader accepts.
* lz4: the LZ4 frame format, written with independent 64 KiB blocks (Kafka's Java
  reader decompresses each block alone) and read block by block.  Magic v0 messages written by Kafka 0.8/0.9 carry a
  header checksum computed over the wrong bytes (KAFKA-3160); it is repaired on read
  for magic 0, and written the same broken way for magic 0, as Kafka does.
* zstd: frames may lack a content size (streaming producers); they are decompressed
  into buffers that grow up to the cap.
* A cap, ``max_size`` (:data:`DEFAULT_MAX_DECOMPRESSED_SIZE` unless the caller says
  otherwise), bounds what any compressed payload may expand to:
  :class:`~kafkawire.errors.DecompressionLimitError` is raised as soon as the output
  would pass it, before the memory is used.
"""

from __future__ import annotations

import struct
from typing import TYPE_CHECKING, Any, Callable, Optional, Union

from kafkawire import _backend
from kafkawire.errors import CodecUnavailableError, DecompressionError, DecompressionLimitError, EncodeError
from kafkawire.protocol.framing import BytesLike

# cramjam, imported on first use (most batches are not compressed, and importing it costs
# more than the rest of the codec's import); an optional extra: kafkawire[compression]
_cramjam: Any = None

NONE, GZIP, SNAPPY, LZ4, ZSTD = 0, 1, 2, 3, 4
#: Codec names by the id Kafka stores in the low three bits of the attributes.
CODEC_NAMES = ("none", "gzip", "snappy", "lz4", "zstd")
CODEC_IDS = {name: i for i, name in enumerate(CODEC_NAMES)}

#: Default cap on what one compressed batch (or legacy wrapper) may decompress to.
#: Kafka's own limits (message.max.bytes, fetch.max.bytes) are far lower; 256 MiB
#: leaves room for unusual configurations while keeping a bomb from exhausting memory.
DEFAULT_MAX_DECOMPRESSED_SIZE = 256 * 1024 * 1024

# The most one compressed byte of each codec can stand for in a valid stream: deflate
# 1032 (a 258-byte match in under two bits), snappy 22 (64 bytes a 3-byte copy), lz4 256
# (255 more match bytes a length byte), zstd 32768 (an RLE block: 128 KiB for 4 bytes)
_GREATEST_EXPANSION = {GZIP: 1032, SNAPPY: 22, LZ4: 256, ZSTD: 32768}


def greatest_decompressed_size(codec: int, compressed_size: int) -> int:
    """The cap that no valid ``compressed_size`` bytes of ``codec`` (an id) can reach:
    what they stand for at the codec's greatest expansion, and never below
    :data:`DEFAULT_MAX_DECOMPRESSED_SIZE`.  A batch a broker served may decompress past
    that default (a producer fills batches by their compressed size, so very repetitive
    records make huge ones) and Kafka's consumer reads it; with this cap, only input that
    claims more than its bytes can hold is refused."""
    return max(DEFAULT_MAX_DECOMPRESSED_SIZE, compressed_size * _GREATEST_EXPANSION.get(codec, 1))


#: Default compression levels: Kafka's producer defaults (gzip 6 as java.util.zip,
#: lz4 9 since KIP-390, zstd 3).
DEFAULT_LEVELS = {GZIP: 6, LZ4: 9, ZSTD: 3}

_XERIAL_MAGIC = b"\x82SNAPPY\x00"
_XERIAL_HEADER = _XERIAL_MAGIC + struct.pack(">ii", 1, 1)
_XERIAL_BLOCK = 32 * 1024
_SNAPPY_FRAMED_MAGIC = b"\xff\x06\x00\x00sNaPpY"
_LZ4_MAGIC = b"\x04\x22\x4d\x18"
_ZSTD_MAGIC = b"\x28\xb5\x2f\xfd"
_U32 = struct.Struct(">I")
_FULL_MARKERS = ("failed to write whole buffer", "smaller than required")


def codec_id(codec: Union[str, int, None]) -> int:
    """The codec id (0-4) of a codec name (``"gzip"``...) or id; None is ``"none"``, as
    kafka-python and aiokafka spell no compression (``compression_type=None``)."""
    if codec is None:
        return NONE
    if isinstance(codec, str):
        try:
            return CODEC_IDS[codec.lower()]
        except KeyError:
            raise EncodeError(
                f"unknown compression {codec!r}; expected one of {', '.join(CODEC_NAMES)}"
            ) from None
    if isinstance(codec, int) and 0 <= codec < len(CODEC_NAMES):
        return codec
    raise EncodeError(f"unknown compression {codec!r}")


def codec_name(codec: int) -> str:
    """The name of a codec id; an id Kafka does not define gives ``"unknown(N)"``."""
    return CODEC_NAMES[codec] if 0 <= codec < len(CODEC_NAMES) else f"unknown({codec})"


def _lib(codec: int) -> Any:
    global _cramjam
    if _cramjam is None:
        try:
            import cramjam
        except ImportError:
            raise CodecUnavailableError(
                f"{CODEC_NAMES[codec]} compression needs the 'cramjam' package: "
                f"pip install 'kafkawire[compression]'"
            ) from None
        _cramjam = cramjam
    return _cramjam


# -- xxHash32, for the lz4 frame header checksum -------------------------------

_P1, _P2, _P3, _P4, _P5 = 2654435761, 2246822519, 3266489917, 668265263, 374761393
_M32 = 0xFFFFFFFF


def _rotl(x: int, r: int) -> int:
    return ((x << r) | (x >> (32 - r))) & _M32


def xxh32(data: bytes, seed: int = 0) -> int:
    """XXH32 of ``data`` (only ever used on lz4 frame descriptors: a few bytes)."""
    n = len(data)
    p = 0
    if n >= 16:
        v1 = (seed + _P1 + _P2) & _M32
        v2 = (seed + _P2) & _M32
        v3 = seed & _M32
        v4 = (seed - _P1) & _M32
        while p + 16 <= n:
            w1, w2, w3, w4 = struct.unpack_from("<4I", data, p)
            v1 = (_rotl((v1 + w1 * _P2) & _M32, 13) * _P1) & _M32
            v2 = (_rotl((v2 + w2 * _P2) & _M32, 13) * _P1) & _M32
            v3 = (_rotl((v3 + w3 * _P2) & _M32, 13) * _P1) & _M32
            v4 = (_rotl((v4 + w4 * _P2) & _M32, 13) * _P1) & _M32
            p += 16
        h = (_rotl(v1, 1) + _rotl(v2, 7) + _rotl(v3, 12) + _rotl(v4, 18)) & _M32
    else:
        h = (seed + _P5) & _M32
    h = (h + n) & _M32
    while p + 4 <= n:
        (w,) = struct.unpack_from("<I", data, p)
        h = (_rotl((h + w * _P3) & _M32, 17) * _P4) & _M32
        p += 4
    while p < n:
        h = (_rotl((h + data[p] * _P5) & _M32, 11) * _P1) & _M32
        p += 1
    h ^= h >> 15
    h = (h * _P2) & _M32
    h ^= h >> 13
    h = (h * _P3) & _M32
    h ^= h >> 16
    return h


def _lz4_descriptor_end(data: BytesLike) -> int:
    """Offset of the header-checksum byte of an lz4 frame (after the descriptor)."""
    if len(data) < 7 or bytes(data[:4]) != _LZ4_MAGIC:
        raise DecompressionError("lz4: not an LZ4 frame (bad magic number)")
    flg = data[4]
    end = 6 + (8 if flg & 0x08 else 0) + (4 if flg & 0x01 else 0)
    if len(data) <= end:
        raise DecompressionError("lz4: truncated frame header")
    return end


def _lz4_fix_checksum(data: BytesLike, broken: bool) -> bytes:
    """The frame with its header checksum set to the standard (or KAFKA-3160) value."""
    end = _lz4_descriptor_end(data)
    out = bytearray(data)
    start = 0 if broken else 4
    out[end] = (xxh32(bytes(out[start:end])) >> 8) & 0xFF
    return bytes(out)


def _lz4_bound(data: BytesLike, size: int) -> int:
    """An upper bound of what an lz4 frame decompresses to, from its block headers."""
    try:
        end = _lz4_descriptor_end(data)
    except DecompressionError:
        return max(size * 4, 1 << 16)
    flg, bd = data[4], data[5]
    if flg & 0x08:
        content: int = struct.unpack_from("<Q", data, 6)[0]
        return content
    block_max = 1 << (8 + 2 * ((bd >> 4) & 7))
    pos = end + 1
    bound = 0
    extra = 4 if flg & 0x10 else 0  # block checksums
    while pos + 4 <= size:
        (word,) = struct.unpack_from("<I", data, pos)
        if word == 0:  # end mark
            return bound
        n = word & 0x7FFFFFFF
        bound += n if word & 0x80000000 else block_max
        pos += 4 + n + extra
    return bound or max(size * 4, 1 << 16)


def _lz4_blocks(lib: Any, data: BytesLike, max_size: int) -> Optional[memoryview]:
    """Decode an LZ4 frame of independent blocks block by block (faster than the
    streaming frame decoder; the header checksum is not needed, so Kafka's broken v0
    one reads too).  None for frames this does not handle (linked blocks, a
    dictionary, another version): the caller falls back to the frame decoder."""
    size = len(data)
    end = _lz4_descriptor_end(data)
    flg, bd = data[4], data[5]
    if flg >> 6 != 1 or not flg & 0x20 or flg & 0x01:
        return None
    block_max = 1 << (8 + 2 * ((bd >> 4) & 7))
    if block_max < 1 << 16:
        return None
    extra = 4 if flg & 0x10 else 0
    blocks = []
    bound = 0
    pos = end + 1
    while True:
        if size - pos < 4:
            raise DecompressionError("lz4: truncated frame (no end mark)")
        (word,) = struct.unpack_from("<I", data, pos)
        pos += 4
        if word == 0:
            break
        n = word & 0x7FFFFFFF
        if n > block_max or n > size - pos - extra:
            raise DecompressionError("lz4: block size beyond the frame or its maximum")
        blocks.append((pos, n, bool(word & 0x80000000)))
        bound += n if word & 0x80000000 else block_max
        pos += n + extra
    # Block headers only bound each block by the frame's block size (up to 4 MiB): a few
    # hundred bytes of one-byte blocks would claim the whole cap.  lz4 cannot expand a
    # byte into more than 255, so the output is sized by what the input can hold.
    out = _output_buffer(min(bound, max_size, size * 256 + 65536))
    capacity = len(out)
    # cramjam reads a block from behind a 4-byte size prefix: each compressed block is
    # copied behind one in this scratch buffer (sized by the largest, reused for all).
    block_in = bytearray(4 + max((n for _start, n, stored in blocks if not stored), default=0))
    struct.pack_into("<I", block_in, 0, block_max)
    at = 0
    # bytes, whatever the input's item format (pyarrow's buffers say "b"): slices of it
    # are assigned into the output and scratch buffers, which need the same format
    with memoryview(out) as mv, memoryview(data).cast("B") as view, memoryview(block_in) as scratch:
        for start, n, stored in blocks:
            room = capacity - at
            if stored:
                if n > room:
                    raise _limit("lz4", max_size)
                mv[at : at + n] = view[start : start + n]
                at += n
                continue
            if room < block_max and capacity == max_size:
                # the block may not fit under the cap: decompress it alone to know
                try:
                    piece = lib.lz4.decompress_block(view[start : start + n], output_len=block_max)
                except Exception as exc:
                    raise DecompressionError(f"lz4: corrupt compressed data: {exc}") from None
                if len(piece) > room:
                    raise _limit("lz4", max_size)
                mv[at : at + len(piece)] = piece
                at += len(piece)
                continue
            scratch[4 : 4 + n] = view[start : start + n]
            try:
                at += lib.lz4.decompress_block_into(scratch[: 4 + n], mv[at : at + block_max])
            except Exception as exc:
                raise DecompressionError(f"lz4: corrupt compressed data: {exc}") from None
    return _written(out, at)


# -- compression ----------------------------------------------------------------


def compress(
    codec: Union[str, int], data: BytesLike, level: Optional[int] = None, *, magic: int = 2
) -> bytes:
    """Compress ``data`` the way Kafka expects for ``codec`` (snappy xerial-framed,
    lz4 as an LZ4 frame with the KAFKA-3160 header checksum when ``magic`` is 0)."""
    cid = codec_id(codec)
    if cid == NONE:
        return bytes(data)
    lib = _lib(cid)
    lvl = DEFAULT_LEVELS.get(cid) if level is None else level
    try:
        if cid == GZIP:
            return bytes(lib.gzip.compress(data, level=lvl))
        if cid == SNAPPY:
            view = memoryview(data)
            parts = [_XERIAL_HEADER]
            for start in range(0, len(view), _XERIAL_BLOCK):
                block = bytes(lib.snappy.compress_raw(view[start : start + _XERIAL_BLOCK]))
                parts.append(_U32.pack(len(block)))
                parts.append(block)
            return b"".join(parts)
        if cid == LZ4:
            # Independent blocks, as Kafka's Java reader decompresses each block alone.
            comp = lib.lz4.Compressor(level=lvl, content_checksum=False, block_linked=False)
            comp.compress(data if type(data) is bytes else bytes(data))
            out = bytes(comp.finish())
            if magic == 0:
                out = _lz4_fix_checksum(out, broken=True)
            return out
        if cid == ZSTD:
            if magic < 2:
                raise EncodeError("zstd compression needs record batch magic 2")
            return bytes(lib.zstd.compress(data, level=lvl))
    except EncodeError:
        raise
    except Exception as exc:  # cramjam raises its own error types
        raise EncodeError(f"{CODEC_NAMES[cid]} compression failed: {exc}") from None
    raise EncodeError(f"unknown compression {codec!r}")  # pragma: no cover


# -- decompression --------------------------------------------------------------

# Output buffers at least this big are not zero-filled before a decompressor overwrites
# them: zeroing runs under the GIL, at memory speed, for bytes nobody reads.
_NO_ZERO_MIN = 64 * 1024


if TYPE_CHECKING:  # a type checker reads the pure twin; at run time the active backend's
    from kafkawire._pure.primitives import uninitialized_bytearray as _uninitialized_bytearray
else:
    _backend.bind(globals(), "primitives", ("uninitialized_bytearray",), prefix="_")


def _output_buffer(size: int) -> bytearray:
    """A bytearray of ``size`` bytes for a decompressor to fill.  Large ones come
    uninitialised from the compiled extension when the Cython backend is the active one
    (zero-filled by the pure backend's, as without a build, so the pure backend run in a
    process that has the extensions takes the same path); callers cut the buffer to what
    was written (:func:`_written`) before anyone else sees it."""
    if size < _NO_ZERO_MIN:
        return bytearray(size)
    return _uninitialized_bytearray(size)


def _written(out: bytearray, n: int) -> memoryview:
    """The first ``n`` bytes of ``out``; the rest (never written, perhaps uninitialised)
    is cut off, so no view of the result can reach it."""
    if n < len(out):
        del out[n:]
    return memoryview(out)


def _is_full(exc: BaseException) -> bool:
    text = str(exc)
    return any(marker in text for marker in _FULL_MARKERS)


def _limit(name: str, max_size: int) -> DecompressionLimitError:
    return DecompressionLimitError(
        f"{name}: decompressed records exceed max_decompressed_size={max_size} bytes"
    )


def _into(
    fn: Callable[[BytesLike, bytearray], Any], name: str, data: BytesLike, hint: int, max_size: int
) -> memoryview:
    """Decompress with ``fn(data, out)`` into a buffer of ``hint`` bytes, growing it
    (at most to ``max_size``) while the output does not fit."""
    size = min(max(hint, 64), max_size)
    while True:
        out = _output_buffer(size)
        try:
            n = fn(data, out)
        except Exception as exc:
            if not _is_full(exc):
                raise DecompressionError(f"{name}: corrupt compressed data: {exc}") from None
            if size >= max_size:
                raise _limit(name, max_size) from None
            size = min(size * 4, max_size)
            continue
        return _written(out, n)


def _snappy_raw_len(lib: Any, block: BytesLike) -> int:
    try:
        n: int = lib.snappy.decompress_raw_len(block)
    except Exception as exc:
        raise DecompressionError(f"snappy: corrupt compressed data: {exc}") from None
    # A snappy element writes at most 64 bytes from 3 (about 21x): a length header
    # promising more than that is corrupt, and is not allocated.
    if n > 32 * len(block) + 1024:
        raise DecompressionError(
            f"snappy: a block of {len(block)} bytes declares {n} uncompressed bytes, more than it can hold"
        )
    return n


def _snappy(lib: Any, data: BytesLike, max_size: int) -> memoryview:
    view = memoryview(data)
    if bytes(view[:8]) == _XERIAL_MAGIC and len(view) >= 16:
        blocks = []
        pos = 16
        total = 0
        size = len(view)
        while pos < size:
            if size - pos < 4:
                raise DecompressionError("snappy: truncated xerial block length")
            (n,) = _U32.unpack_from(view, pos)
            pos += 4
            if n > size - pos:
                raise DecompressionError("snappy: xerial block longer than the data")
            block = view[pos : pos + n]
            pos += n
            blocks.append(block)
            total += _snappy_raw_len(lib, block)
            if total > max_size:
                raise _limit("snappy", max_size)
        out = _output_buffer(total)
        at = 0
        with memoryview(out) as mv:
            for block in blocks:
                try:
                    at += lib.snappy.decompress_raw_into(block, mv[at:])
                except Exception as exc:
                    raise DecompressionError(f"snappy: corrupt compressed data: {exc}") from None
        return _written(out, at)
    if bytes(view[:10]) == _SNAPPY_FRAMED_MAGIC:
        return _into(lib.snappy.decompress_into, "snappy", view, len(view) * 4, max_size)
    n = _snappy_raw_len(lib, view)
    if n > max_size:
        raise _limit("snappy", max_size)
    return _into(lib.snappy.decompress_raw_into, "snappy", view, n, max_size)


def _zstd_content_size(data: BytesLike) -> Optional[int]:
    if len(data) < 6 or bytes(data[:4]) != _ZSTD_MAGIC:
        return None
    fhd = data[4]
    fcs_flag = fhd >> 6
    single = (fhd >> 5) & 1
    did = (0, 1, 2, 4)[fhd & 3]
    pos = 5 + (0 if single else 1) + did
    width = (1 if single else 0, 2, 4, 8)[fcs_flag]
    if width == 0 or len(data) < pos + width:
        return None
    value = int.from_bytes(bytes(data[pos : pos + width]), "little")
    return value + 256 if width == 2 else value


# Kafka's producers (Java's, librdkafka's) write zstd frames that declare no content size.
# The ratio of the last such frame sizes the next one's buffer (within the bound a
# declared size is trusted to), so batches alike decompress in one pass rather than once
# per growth of a buffer guessed too small.  Only a guess: a wrong one costs a pass.
_zstd_ratio = 8


def _zstd_unsized(lib: Any, data: BytesLike, size: int, max_size: int) -> memoryview:
    global _zstd_ratio
    out = _into(lib.zstd.decompress_into, "zstd", data, size * _zstd_ratio, max_size)
    if size:
        _zstd_ratio = min(max(8, len(out) * 5 // (4 * size) + 1), 1024)
    return out


def decompress(
    codec: int, data: BytesLike, *, max_size: int = DEFAULT_MAX_DECOMPRESSED_SIZE, magic: int = 2
) -> memoryview:
    """Decompress a record payload compressed with ``codec`` (an id); at most
    ``max_size`` bytes of output, else :class:`DecompressionLimitError`.

    Returns a memoryview of a fresh buffer.  Corrupt input raises
    :class:`DecompressionError`.
    """
    if max_size is None:
        max_size = DEFAULT_MAX_DECOMPRESSED_SIZE
    if codec == NONE:
        return memoryview(data)
    if not 0 < codec < len(CODEC_NAMES):
        raise DecompressionError(f"unknown compression codec id {codec}")
    lib = _lib(codec)
    size = len(data)
    if codec == GZIP:
        hint = size * 4
        if size >= 18:
            (isize,) = struct.unpack_from("<I", data, size - 4)
            hint = min(isize, size * 1100 + 1024)
        return _into(lib.gzip.decompress_into, "gzip", data, hint, max_size)
    if codec == SNAPPY:
        return _snappy(lib, data, max_size)
    if codec == LZ4:
        fast = _lz4_blocks(lib, data, max_size)
        if fast is not None:
            return fast
        if magic == 0:
            data = _lz4_fix_checksum(data, broken=False)
        # lz4 expands at most ~255x: a frame header promising more is not believed.
        hint = min(_lz4_bound(data, size), size * 256 + 65536)
        return _into(lib.lz4.decompress_into, "lz4", data, hint, max_size)
    # zstd
    content = _zstd_content_size(data)
    if content is not None and content > max_size:
        raise _limit("zstd", max_size)
    if content is None:
        return _zstd_unsized(lib, data, size, max_size)
    # A declared size is trusted only within a plausible ratio; the buffer grows past it.
    return _into(lib.zstd.decompress_into, "zstd", data, min(content, size * 1024 + 65536), max_size)


__all__ = [
    "NONE",
    "GZIP",
    "SNAPPY",
    "LZ4",
    "ZSTD",
    "CODEC_NAMES",
    "CODEC_IDS",
    "DEFAULT_MAX_DECOMPRESSED_SIZE",
    "DEFAULT_LEVELS",
    "greatest_decompressed_size",
    "codec_id",
    "codec_name",
    "compress",
    "decompress",
    "xxh32",
]


def __dir__() -> list[str]:  # what the module defines, not what it imports
    return sorted(__all__)
