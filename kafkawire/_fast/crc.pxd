# C-level CRC entry points of kafkawire._fast.crc, for other Cython modules:
#
#     from kafkawire._fast.crc cimport crc32c_update, crc32_update
#
from libc.stdint cimport uint32_t

# CRC-32C (Castagnoli) of data[0:n], continuing from the finished CRC `crc`
# (0 to start); pre- and post-inversion happen inside, so
# crc32c_update(crc32c_update(0, a, na), b, nb) is the CRC of a followed by b.
# Needs no GIL; uses the fastest instruction set the CPU has.
cdef uint32_t crc32c_update(uint32_t crc, const unsigned char *data, size_t n) noexcept nogil

# CRC-32 (IEEE, as zlib.crc32) of data[0:n], continuing from the finished CRC `crc`;
# the checksum of legacy messages.  Needs no GIL.
cdef uint32_t crc32_update(uint32_t crc, const unsigned char *data, size_t n) noexcept nogil

# The 32-bit MurmurHash2 of data[0:n] (seed 0x9747b28c), unsigned: the key hash of Kafka's
# default partitioner.  Needs no GIL.
cdef uint32_t murmur2_hash(const unsigned char *data, Py_ssize_t n) noexcept nogil
