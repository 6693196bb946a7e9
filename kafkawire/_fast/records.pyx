# cython: language_level=3
"""Kafka records, compiled: the Cython twin of ``kafkawire._pure.records``.

One parser walks batches (magic 2) and legacy messages (magic 0/1) and hands each record
to a *sink*: ``_RecordSink`` makes :class:`Record` objects, ``_ArrowSink`` appends the
record's fields straight into Arrow buffers (no Python object per record).  Every length
and count is checked against the bytes present before it is used.

This file holds the imports, the shared constants and the input buffer; the rest is
included from the ``records_*.pxi`` parts into this one extension module, in this order.
"""
cimport cython
from cpython.buffer cimport PyBUF_SIMPLE, PyBuffer_Release, PyObject_GetBuffer
from cpython.bytes cimport PyBytes_AS_STRING, PyBytes_FromStringAndSize, PyBytes_GET_SIZE
from cpython.list cimport PyList_New, PyList_SET_ITEM
from cpython.mem cimport PyMem_Free, PyMem_Realloc
from cpython.pythread cimport (
    WAIT_LOCK, PyThread_acquire_lock, PyThread_allocate_lock, PyThread_release_lock,
    PyThread_type_lock,
)
from cpython.ref cimport Py_INCREF, Py_XDECREF, PyObject
from cpython.tuple cimport PyTuple_New, PyTuple_SET_ITEM
from libc.stdint cimport (
    INT32_MAX, INT64_MAX, int16_t, int32_t, int64_t, uint8_t, uint16_t, uint32_t, uint64_t,
)
from libc.stdlib cimport free, malloc, realloc
from libc.string cimport memcmp, memcpy, memset

from kafkawire._fast.crc cimport crc32_update, crc32c_update, murmur2_hash
from kafkawire._fast.primitives cimport (
    load_be16, load_be32, load_be64, read_varint32, read_varint64, store_be16, store_be32,
    store_be64, uvarint_size, write_uvarint, zigzag32, zigzag64,
)

import threading
import time as _time

from kafkawire.protocol import compression as _comp
from kafkawire.protocol import record_layout as _common
from kafkawire.protocol.record_layout import arrow_schema
from kafkawire.errors import CorruptRecordError, EncodeError

cdef extern from "Python.h":
    object PyUnicode_DecodeUTF8(const char *s, Py_ssize_t size, const char *errors)
    const char *PyUnicode_AsUTF8AndSize(object unicode, Py_ssize_t *size) except NULL
    int PyList_Append(object lst, object item) except -1
    void PyObject_GC_UnTrack(void *op)

# The batch layout of kafkawire.protocol.record_layout, as C values.
cdef Py_ssize_t V2_HEADER_SIZE = _common.V2_HEADER_SIZE
cdef Py_ssize_t LOG_OVERHEAD = _common.LOG_OVERHEAD
cdef int COMPRESSION_MASK = _common.COMPRESSION_MASK
cdef int TIMESTAMP_TYPE_BIT = _common.TIMESTAMP_TYPE_BIT
cdef int TRANSACTIONAL_BIT = _common.TRANSACTIONAL_BIT
cdef int CONTROL_BIT = _common.CONTROL_BIT
cdef int DELETE_HORIZON_BIT = _common.DELETE_HORIZON_BIT
cdef Py_ssize_t RECORD_ESTIMATE = _common.RECORD_ESTIMATE
cdef Py_ssize_t HEADER_ESTIMATE = _common.HEADER_ESTIMATE
# Legacy messages at least this long are checksummed with the GIL released (as crc32c).
cdef Py_ssize_t _NOGIL_CRC_MIN = 64 * 1024
cdef object _DEFAULT_MAX = _comp.DEFAULT_MAX_DECOMPRESSED_SIZE
cdef str _CREATE = "create"
cdef str _LOG_APPEND = "log_append"
cdef tuple _TS_NAMES = (_CREATE, _LOG_APPEND)
cdef frozenset _RECORD_FIELDS = _common.RECORD_FIELDS
cdef tuple _CODEC_NAMES = tuple(_comp.CODEC_NAMES)
_decompress = _comp.decompress


cdef inline int32_t _sequence(int32_t base_seq, int32_t off_delta) noexcept nogil:
    """The producer sequence of the record at ``off_delta``: -1 when the batch has none,
    wrapping past INT32_MAX as Kafka does (the pure backend's _next_sequence)."""
    if base_seq < 0:
        return -1
    if <int64_t>base_seq > <int64_t>INT32_MAX - off_delta:  # int64: no overflow
        return <int32_t>(off_delta - (<int64_t>INT32_MAX - base_seq) - 1)
    return base_seq + off_delta


cdef int _corrupt(str msg) except -1:
    raise CorruptRecordError(msg)


# -- the input buffer -----------------------------------------------------------

cdef class _Source:
    """Holds the caller's buffer (exported once) for the batches that view it."""
    cdef Py_buffer view
    cdef bint has_view
    cdef object mv
    cdef const uint8_t *data
    cdef Py_ssize_t size

    def __dealloc__(self):
        if self.has_view:
            PyBuffer_Release(&self.view)


cdef _Source _source(object buf):
    cdef _Source s = _Source.__new__(_Source)
    try:
        PyObject_GetBuffer(buf, &s.view, PyBUF_SIMPLE)
    except BufferError:
        raise TypeError("a C-contiguous bytes-like object is required") from None
    s.has_view = True
    s.data = <const uint8_t *>s.view.buf
    s.size = s.view.len
    s.mv = buf
    return s


cdef object _slice(_Source src, Py_ssize_t start, Py_ssize_t end):
    mv = memoryview(src.mv)
    if mv.ndim != 1 or mv.itemsize != 1:
        mv = mv.cast("B")
    return mv[start:end]


include "records_parse.pxi"
include "records_batches.pxi"
include "records_arrow.pxi"
include "records_encode.pxi"
include "records_legacy_encode.pxi"
include "records_builder.pxi"
include "records_arrow_encode.pxi"
