"""Checksums of the Kafka wire protocol, in pure Python.

``crc32c`` (Castagnoli) guards record batches (magic 2); ``crc32`` (IEEE, as in
zlib) guards the legacy message sets (magic 0 and 1).

This is the fallback for machines without the compiled backend, and it is slow:
about 15-20 MB/s, against several GB/s for ``kafkawire._fast.crc`` with a CRC
instruction.  It uses slicing-by-16: sixteen 256-entry tables let one loop turn
consume 16 bytes, with the bytes unpacked by ``zip`` over a single iterator (the
cheapest way CPython has to take a buffer 16 bytes at a time).  ``crc32`` is
zlib's C code and fast on either backend.
"""

from __future__ import annotations

import operator
import zlib
from typing import TYPE_CHECKING, List, SupportsIndex, Union

if TYPE_CHECKING:
    from typing_extensions import Buffer

    _BytesLike = Union[bytes, bytearray, memoryview, Buffer]

__all__ = ["crc32c", "crc32", "murmur2", "implementation"]

_POLY = 0x82F63B78  # CRC-32C, bit-reflected
_MASK = 0xFFFFFFFF
_CHUNK = 64 * 1024  # bytes copied out of the buffer per step (bounds extra memory)


def _tables() -> List[List[int]]:
    """``t[k][b]``: the CRC register after byte ``b`` followed by ``k`` zero bytes."""
    first = []
    for n in range(256):
        c = n
        for _ in range(8):
            c = (c >> 1) ^ (_POLY if c & 1 else 0)
        first.append(c)
    tables = [first]
    for _ in range(15):
        tables.append([(c >> 8) ^ first[c & 0xFF] for c in tables[-1]])
    return tables


_T = _tables()


def _start_value(crc: SupportsIndex) -> int:
    value = crc if type(crc) is int else operator.index(crc)  # TypeError for floats, strings, ...
    if value < 0 or value > _MASK:
        raise ValueError(f"crc must be in [0, 2**32), got {value!r}")
    return value


def _bytes_view(data: _BytesLike) -> memoryview:
    try:
        view = memoryview(data)
    except TypeError:
        raise TypeError(f"a bytes-like object is required, not {type(data).__name__!r}") from None
    if not view.c_contiguous:
        raise TypeError("a C-contiguous bytes-like object is required")
    if view.ndim != 1 or view.format != "B":
        view = view.cast("B")
    return view


def _update(c: int, view: memoryview) -> int:
    """The raw (uninverted) CRC register ``c`` advanced over ``view``."""
    t0, t1, t2, t3, t4, t5, t6, t7, t8, t9, t10, t11, t12, t13, t14, t15 = _T
    size = len(view)
    whole = size & ~15
    for start in range(0, whole, _CHUNK):
        it = iter(bytes(view[start : min(start + _CHUNK, whole)]))
        for b0, b1, b2, b3, b4, b5, b6, b7, b8, b9, b10, b11, b12, b13, b14, b15 in zip(
            it, it, it, it, it, it, it, it, it, it, it, it, it, it, it, it
        ):
            c = (
                t15[(c ^ b0) & 0xFF]
                ^ t14[((c >> 8) ^ b1) & 0xFF]
                ^ t13[((c >> 16) ^ b2) & 0xFF]
                ^ t12[(c >> 24) ^ b3]
                ^ t11[b4]
                ^ t10[b5]
                ^ t9[b6]
                ^ t8[b7]
                ^ t7[b8]
                ^ t6[b9]
                ^ t5[b10]
                ^ t4[b11]
                ^ t3[b12]
                ^ t2[b13]
                ^ t1[b14]
                ^ t0[b15]
            )
    for b in view[whole:]:
        c = t0[(c ^ b) & 0xFF] ^ (c >> 8)
    return c


def crc32c(data: _BytesLike, crc: SupportsIndex = 0) -> int:
    """CRC-32C (Castagnoli) of ``data``, continuing from ``crc``.

    ``data`` is any C-contiguous bytes-like object; ``crc`` is the CRC of the
    bytes before it (0 to start), so ``crc32c(b, crc32c(a)) == crc32c(a + b)``.
    Raises TypeError for anything else and ValueError for a ``crc`` outside
    [0, 2**32).  Slow (pure Python): the compiled backend is ~1000x faster.
    """
    start = _start_value(crc)
    view = _bytes_view(data)
    if not view:
        return start
    return _update(start ^ _MASK, view) ^ _MASK


def crc32(data: _BytesLike, crc: SupportsIndex = 0) -> int:
    """CRC-32 (IEEE 802.3, as ``zlib.crc32``) of ``data``, continuing from ``crc``.

    Same arguments, continuation rule and errors as :func:`crc32c`.
    """
    start = _start_value(crc)
    try:  # zlib checks the buffer itself: no view per call (legacy records call this per message)
        return zlib.crc32(data, start)
    except TypeError:
        raise TypeError(f"a bytes-like object is required, not {type(data).__name__!r}") from None
    except BufferError:
        raise TypeError("a C-contiguous bytes-like object is required") from None


_M = 0x5BD1E995
_SEED = 0x9747B28C


def murmur2(data: _BytesLike) -> int:
    """The 32-bit MurmurHash2 of ``data`` as Kafka's clients compute it (a signed int):
    the hash of Kafka's default partitioner (seed ``0x9747b28c``)."""
    raw = bytes(_bytes_view(data))
    n = len(raw)
    h = (_SEED ^ n) & _MASK
    whole = n - n % 4
    for i in range(0, whole, 4):
        k = int.from_bytes(raw[i : i + 4], "little")
        k = (k * _M) & _MASK
        k ^= k >> 24
        k = (k * _M) & _MASK
        h = ((h * _M) & _MASK) ^ k
    tail = n % 4
    if tail:
        if tail == 3:
            h ^= raw[whole + 2] << 16
        if tail >= 2:
            h ^= raw[whole + 1] << 8
        h ^= raw[whole]
        h = (h * _M) & _MASK
    h ^= h >> 13
    h = (h * _M) & _MASK
    h ^= h >> 15
    return h - (1 << 32) if h & 0x80000000 else h


def implementation() -> str:
    """The CRC-32C code in use here: always ``"python"`` for this backend."""
    return "python"
