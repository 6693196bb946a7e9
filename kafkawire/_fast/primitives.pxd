# C-level building blocks shared by kafkawire's Cython modules: big-endian loads and
# stores, and varints.  Readers take (data, size, &pos), check every byte against
# `size` before reading it, advance `pos`, and raise a kafkawire.errors exception
# (return -1) on truncated or overlong input.
#
# `pragma: no cover` on the signature lines of the inline functions: a traced build
# reports the definition of a .pxd inline function against the module that cimports it
# (Cython issue 6295), so coverage.py would count these lines missed although every line
# of every body is measured.
from libc.stdint cimport int8_t, int16_t, int32_t, int64_t, uint8_t, uint16_t, uint32_t, uint64_t

cdef int raise_truncated(str what, Py_ssize_t pos, Py_ssize_t need, Py_ssize_t size) except -1
cdef int read_uvarint(const uint8_t *data, Py_ssize_t size, Py_ssize_t *pos,
                      uint64_t *out, int max_bytes, str what) except -1


cdef inline uint16_t load_be16(const uint8_t *p) noexcept nogil:  # pragma: no cover
    return (<uint16_t>p[0] << 8) | p[1]

cdef inline uint32_t load_be32(const uint8_t *p) noexcept nogil:  # pragma: no cover
    return (<uint32_t>p[0] << 24) | (<uint32_t>p[1] << 16) | (<uint32_t>p[2] << 8) | p[3]

cdef inline uint64_t load_be64(const uint8_t *p) noexcept nogil:  # pragma: no cover
    return (<uint64_t>load_be32(p) << 32) | load_be32(p + 4)

cdef inline void store_be16(uint8_t *p, uint16_t v) noexcept nogil:  # pragma: no cover
    p[0] = <uint8_t>(v >> 8)
    p[1] = <uint8_t>v

cdef inline void store_be32(uint8_t *p, uint32_t v) noexcept nogil:  # pragma: no cover
    p[0] = <uint8_t>(v >> 24)
    p[1] = <uint8_t>(v >> 16)
    p[2] = <uint8_t>(v >> 8)
    p[3] = <uint8_t>v

cdef inline void store_be64(uint8_t *p, uint64_t v) noexcept nogil:  # pragma: no cover
    store_be32(p, <uint32_t>(v >> 32))
    store_be32(p + 4, <uint32_t>v)


cdef inline uint32_t zigzag32(int32_t v) noexcept nogil:  # pragma: no cover
    return (<uint32_t>v << 1) ^ <uint32_t>(v >> 31)

cdef inline uint64_t zigzag64(int64_t v) noexcept nogil:  # pragma: no cover
    return (<uint64_t>v << 1) ^ <uint64_t>(v >> 63)

cdef inline int64_t unzigzag64(uint64_t v) noexcept nogil:  # pragma: no cover
    return <int64_t>(v >> 1) ^ -<int64_t>(v & 1)


cdef inline int uvarint_size(uint64_t v) noexcept nogil:  # pragma: no cover
    cdef int n = 1
    while v > 0x7F:
        v >>= 7
        n += 1
    return n

cdef inline int write_uvarint(uint8_t *out, uint64_t v) noexcept nogil:  # pragma: no cover
    """Write v as LEB128 at out; returns the bytes written (1 to 10)."""
    cdef int n = 0
    while v > 0x7F:
        out[n] = <uint8_t>((v & 0x7F) | 0x80)
        v >>= 7
        n += 1
    out[n] = <uint8_t>v
    return n + 1


cdef inline bint short_uvarint(const uint8_t *data, Py_ssize_t size, Py_ssize_t *pos,  # pragma: no cover
                               uint64_t *out) noexcept:
    """The fast path of every varint reader: a one- or two-byte varint (most lengths,
    deltas and counts) read inline; False leaves the rest to read_uvarint."""
    cdef Py_ssize_t p = pos[0]
    cdef uint64_t b0, b1
    if p < size:
        b0 = data[p]
        if b0 < 0x80:
            out[0] = b0
            pos[0] = p + 1
            return True
        if p + 1 < size:
            b1 = data[p + 1]
            if b1 < 0x80:
                out[0] = (b0 & 0x7F) | (b1 << 7)
                pos[0] = p + 2
                return True
    return False

cdef inline int read_uvarint32(const uint8_t *data, Py_ssize_t size, Py_ssize_t *pos,  # pragma: no cover
                               uint32_t *out) except -1:
    cdef uint64_t v
    if not short_uvarint(data, size, pos, &v):
        read_uvarint(data, size, pos, &v, 5, "unsigned varint")
    out[0] = <uint32_t>v
    return 0

cdef inline int read_varint32(const uint8_t *data, Py_ssize_t size, Py_ssize_t *pos,  # pragma: no cover
                              int32_t *out) except -1:
    cdef uint64_t v
    if not short_uvarint(data, size, pos, &v):
        read_uvarint(data, size, pos, &v, 5, "varint")
    out[0] = <int32_t>unzigzag64(v)
    return 0

cdef inline int read_varint64(const uint8_t *data, Py_ssize_t size, Py_ssize_t *pos,  # pragma: no cover
                              int64_t *out) except -1:
    cdef uint64_t v
    if not short_uvarint(data, size, pos, &v):
        read_uvarint(data, size, pos, &v, 10, "varlong")
    out[0] = unzigzag64(v)
    return 0
