"""Checksums of the Kafka wire protocol, compiled.

``crc32c`` (Castagnoli) guards record batches (magic 2); ``crc32`` (IEEE, as in
zlib) guards the legacy message sets (magic 0 and 1).  The CRC-32C work is done
in ``crc32c_impl.c``, which picks the SSE4.2 or ARMv8 CRC instructions when the
CPU has them and slicing-by-8 tables otherwise; ``crc32_impl.c`` gives the compiled
legacy encoder a C CRC-32.  ``murmur2`` is the key hash of Kafka's default partitioner.
"""
from cpython.buffer cimport PyBUF_SIMPLE, PyBuffer_Release, PyObject_GetBuffer
from cpython.number cimport PyNumber_Index
from libc.stdint cimport int32_t, uint32_t

from zlib import crc32 as _zlib_crc32

cdef extern from "crc32c_impl.h" nogil:
    uint32_t kw_crc32c(uint32_t crc, const void *data, size_t len)
    uint32_t kw_crc32c_portable(uint32_t crc, const void *data, size_t len)
    const char *kw_crc32c_implementation()
    void kw_crc32c_init()
kw_crc32_init()

cdef extern from "crc32_impl.h" nogil:
    uint32_t kw_crc32(uint32_t crc, const void *data, size_t len)
    void kw_crc32_init()

# Inputs at least this long are checksummed with the GIL released.
cdef Py_ssize_t _NOGIL_MIN = 64 * 1024

# Build the tables and detect the CPU now, while the import lock serialises us.
kw_crc32c_init()
kw_crc32_init()


cdef uint32_t crc32c_update(uint32_t crc, const unsigned char *data, size_t n) noexcept nogil:
    return kw_crc32c(crc, data, n)


cdef uint32_t crc32_update(uint32_t crc, const unsigned char *data, size_t n) noexcept nogil:
    return kw_crc32(crc, data, n)


cdef int _start_value(object crc, uint32_t *out) except -1:
    """Checks ``crc`` (an integer in [0, 2**32)) and stores it in ``out``."""
    cdef object value
    if type(crc) is int:
        value = crc
    else:
        value = PyNumber_Index(crc)  # TypeError for floats, strings, ...
    if value < 0 or value > 0xFFFFFFFF:
        raise ValueError(f"crc must be in [0, 2**32), got {value!r}")
    out[0] = <uint32_t>value
    return 0


cdef object _not_bytes_like(object data, object exc):
    """The TypeError for ``data`` whose buffer export raised ``exc``."""
    if isinstance(exc, BufferError):
        return TypeError("a C-contiguous bytes-like object is required")
    return TypeError(f"a bytes-like object is required, not {type(data).__name__!r}")


cdef int _get_buffer(object data, Py_buffer *view) except -1:
    """Exports ``data`` as one contiguous run of bytes (TypeError if it cannot)."""
    try:
        PyObject_GetBuffer(data, view, PyBUF_SIMPLE)
    except (TypeError, BufferError) as exc:
        raise _not_bytes_like(data, exc) from None
    return 0


def crc32c(data, crc=0):
    """CRC-32C (Castagnoli) of ``data``, continuing from ``crc``.

    ``data`` is any C-contiguous bytes-like object; ``crc`` is the CRC of the
    bytes before it (0 to start), so ``crc32c(b, crc32c(a)) == crc32c(a + b)``.
    Raises TypeError for anything else and ValueError for a ``crc`` outside
    [0, 2**32).  Inputs of 64 KiB or more are checksummed with the GIL released.
    """
    cdef uint32_t start, result
    cdef Py_buffer view
    _start_value(crc, &start)
    _get_buffer(data, &view)
    try:
        if view.len >= _NOGIL_MIN:
            with nogil:
                result = kw_crc32c(start, view.buf, <size_t>view.len)
        else:
            result = kw_crc32c(start, view.buf, <size_t>view.len)
    finally:
        PyBuffer_Release(&view)
    return result


def _crc32c_portable(data, crc=0):
    """``crc32c`` computed by the portable table code, whatever the CPU (for tests)."""
    cdef uint32_t start, result
    cdef Py_buffer view
    _start_value(crc, &start)
    _get_buffer(data, &view)
    try:
        with nogil:
            result = kw_crc32c_portable(start, view.buf, <size_t>view.len)
    finally:
        PyBuffer_Release(&view)
    return result


def crc32(data, crc=0):
    """CRC-32 (IEEE 802.3, as ``zlib.crc32``) of ``data``, continuing from ``crc``.

    Same arguments, continuation rule and errors as :func:`crc32c`.
    """
    cdef uint32_t start
    _start_value(crc, &start)
    try:
        return _zlib_crc32(data, start)
    except (TypeError, BufferError) as exc:
        raise _not_bytes_like(data, exc) from None


def _crc32_table(data, crc=0):
    """``crc32`` computed by the C tables legacy encoding uses (for tests against zlib)."""
    cdef uint32_t start, result
    cdef Py_buffer view
    _start_value(crc, &start)
    _get_buffer(data, &view)
    try:
        with nogil:
            result = kw_crc32(start, view.buf, <size_t>view.len)
    finally:
        PyBuffer_Release(&view)
    return result


cdef uint32_t murmur2_hash(const unsigned char *p, Py_ssize_t n) noexcept nogil:
    cdef uint32_t m = 0x5BD1E995U
    cdef uint32_t h = 0x9747B28CU ^ <uint32_t>n
    cdef uint32_t k
    cdef Py_ssize_t i = 0
    cdef Py_ssize_t whole = n - (n & 3)
    while i < whole:
        k = (<uint32_t>p[i] | (<uint32_t>p[i + 1] << 8) | (<uint32_t>p[i + 2] << 16)
             | (<uint32_t>p[i + 3] << 24))
        k *= m
        k ^= k >> 24
        k *= m
        h = (h * m) ^ k
        i += 4
    if n & 3:
        if (n & 3) == 3:
            h ^= <uint32_t>p[whole + 2] << 16
        if (n & 3) >= 2:
            h ^= <uint32_t>p[whole + 1] << 8
        h ^= <uint32_t>p[whole]
        h *= m
    h ^= h >> 13
    h *= m
    h ^= h >> 15
    return h


def murmur2(data):
    """The 32-bit MurmurHash2 of ``data`` as Kafka's clients compute it (a signed int):
    the hash of Kafka's default partitioner (seed ``0x9747b28c``)."""
    cdef Py_buffer view
    cdef uint32_t h
    _get_buffer(data, &view)
    try:
        h = murmur2_hash(<const unsigned char *>view.buf, view.len)
    finally:
        PyBuffer_Release(&view)
    return <int32_t>h


def implementation():
    """The CRC-32C code in use here: ``"sse4.2"``, ``"armv8"`` or ``"table"``."""
    return kw_crc32c_implementation().decode("ascii")
