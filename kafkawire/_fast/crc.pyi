"""Checksums of the Kafka wire protocol, compiled (``kafkawire._fast.crc``).

``crc32c`` (Castagnoli) guards record batches (magic 2); ``crc32`` (IEEE, as in zlib)
guards the legacy message sets (magic 0 and 1).  ``kafkawire._pure.crc`` has the same
functions in pure Python.
"""

from typing import Literal, SupportsIndex, Union

from typing_extensions import Buffer

_BytesLike = Union[bytes, bytearray, memoryview, Buffer]

def crc32c(data: _BytesLike, crc: SupportsIndex = 0) -> int:
    """CRC-32C (Castagnoli) of ``data``, continuing from ``crc``.

    ``data`` is any C-contiguous bytes-like object; ``crc`` is the CRC of the bytes
    before it (0 to start), so ``crc32c(b, crc32c(a)) == crc32c(a + b)``.  The result is
    in [0, 2**32).  Raises TypeError for other ``data`` (including non-contiguous
    views) and ValueError for a ``crc`` outside [0, 2**32).  Inputs of 64 KiB or more
    are checksummed with the GIL released.
    """

def crc32(data: _BytesLike, crc: SupportsIndex = 0) -> int:
    """CRC-32 (IEEE 802.3, as ``zlib.crc32``) of ``data``, continuing from ``crc``.

    Same arguments, continuation rule and errors as :func:`crc32c`.
    """

def implementation() -> Literal["sse4.2", "armv8", "table"]:
    """The CRC-32C code chosen for this CPU: the SSE4.2 or ARMv8 CRC instructions, or
    the portable slicing-by-8 tables."""

def _crc32c_portable(data: _BytesLike, crc: SupportsIndex = 0) -> int:
    """:func:`crc32c` computed by the portable table code whatever the CPU (for tests)."""

def _crc32_table(data: _BytesLike, crc: SupportsIndex = 0) -> int:
    """:func:`crc32` computed by the C tables the compiled legacy encoder uses (for tests)."""
