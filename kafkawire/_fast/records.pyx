# cython: language_level=3
"""Kafka records, compiled: the Cython twin of ``kafkawire._pure.records``.

One parser walks batches (magic 2) and legacy messages (magic 0/1) and hands each record
to a *sink*: ``_RecordSink`` makes :class:`Record` objects, ``_ArrowSink`` appends the
record's fields straight into Arrow buffers (no Python object per record).  Every length
and count is checked against the bytes present before it is used.
"""
cimport cython
from cpython.buffer cimport PyBUF_SIMPLE, PyBuffer_Release, PyObject_GetBuffer
from cpython.bytes cimport PyBytes_AS_STRING, PyBytes_FromStringAndSize, PyBytes_GET_SIZE
from cpython.list cimport PyList_New, PyList_SET_ITEM
from cpython.ref cimport Py_INCREF
from cpython.tuple cimport PyTuple_New, PyTuple_SET_ITEM
from libc.stdint cimport (
    INT64_MAX, int16_t, int32_t, int64_t, uint8_t, uint16_t, uint32_t, uint64_t,
)
from libc.stdlib cimport free, malloc, realloc
from libc.string cimport memcmp, memcpy, memset

from kafkawire._fast.crc cimport crc32_update, crc32c_update
from kafkawire._fast.primitives cimport (
    load_be16, load_be32, load_be64, read_varint32, read_varint64, store_be16, store_be32,
    store_be64, uvarint_size, write_uvarint, zigzag32, zigzag64,
)

import time as _time

from kafkawire import compression as _comp
from kafkawire import _records_common as _common
from kafkawire._records_common import arrow_schema
from kafkawire.errors import CorruptRecordError, EncodeError

cdef extern from "Python.h":
    object PyUnicode_DecodeUTF8(const char *s, Py_ssize_t size, const char *errors)
    const char *PyUnicode_AsUTF8AndSize(object unicode, Py_ssize_t *size) except NULL
    int PyList_Append(object lst, object item) except -1
    void PyObject_GC_UnTrack(void *op)

# The batch layout of kafkawire._records_common, as C values.
cdef Py_ssize_t V2_HEADER_SIZE = _common.V2_HEADER_SIZE
cdef Py_ssize_t LOG_OVERHEAD = _common.LOG_OVERHEAD
cdef int TRANSACTIONAL_BIT = _common.TRANSACTIONAL_BIT
cdef int CONTROL_BIT = _common.CONTROL_BIT
cdef int DELETE_HORIZON_BIT = _common.DELETE_HORIZON_BIT
cdef int32_t INT32_MAX = 0x7FFFFFFF
# Legacy messages at least this long are checksummed with the GIL released (as crc32c).
cdef Py_ssize_t _NOGIL_CRC_MIN = 64 * 1024
cdef object _DEFAULT_MAX = _comp.DEFAULT_MAX_DECOMPRESSED_SIZE
cdef str _CREATE = "create"
cdef str _LOG_APPEND = "log_append"
cdef tuple _TS_NAMES = (_CREATE, _LOG_APPEND)
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


# -- records ------------------------------------------------------------------

@cython.freelist(1024)
@cython.no_gc
cdef class Record:
    """One record: ``offset``, ``timestamp`` (absolute, ms; None for magic 0),
    ``timestamp_type`` ("create", "log_append", or None for magic 0), ``key`` and
    ``value`` (bytes or None), ``headers`` (list of (str, bytes|None)).

    Records are not tracked by the cycle collector (they hold bytes, str and a list of
    tuples): decoding a batch then does not trigger garbage collections.  Do not make
    a record reachable from its own headers."""
    cdef public int64_t offset
    cdef int64_t _ts
    cdef bint _has_ts
    cdef public object timestamp_type
    cdef public object key
    cdef public object value
    cdef public object headers

    def __init__(self, offset=0, timestamp=None, timestamp_type="create", key=None,
                 value=None, headers=None):
        self.offset = offset
        self.timestamp = timestamp
        self.timestamp_type = timestamp_type
        self.key = key
        self.value = value
        self.headers = [] if headers is None else headers

    @property
    def timestamp(self):
        return self._ts if self._has_ts else None

    @timestamp.setter
    def timestamp(self, value):
        if value is None:
            self._has_ts = False
            self._ts = -1
        else:
            self._ts = value
            self._has_ts = True

    def as_tuple(self):
        """(offset, timestamp, timestamp_type, key, value, headers)."""
        return (self.offset, self.timestamp, self.timestamp_type, self.key, self.value,
                self.headers)

    def __eq__(self, other):
        try:
            return self.as_tuple() == other.as_tuple()
        except AttributeError:
            return NotImplemented

    def __ne__(self, other):
        r = self.__eq__(other)
        return r if r is NotImplemented else not r

    __hash__ = None

    def __reduce__(self):
        return (Record, self.as_tuple())

    def __repr__(self):
        return (f"Record(offset={self.offset!r}, timestamp={self.timestamp!r}, "
                f"timestamp_type={self.timestamp_type!r}, key={self.key!r}, "
                f"value={self.value!r}, headers={self.headers!r})")


cdef struct BatchInfo:
    int64_t base_offset
    int32_t size          # the batch length field (bytes after it)
    int32_t ple
    int magic
    uint32_t crc
    int16_t attrs
    int32_t last_offset_delta
    int64_t base_ts
    int64_t max_ts
    int64_t pid
    int16_t epoch
    int32_t base_seq
    int32_t count


cdef class _Sink:
    """Receives parsed records; subclasses make objects or Arrow columns."""

    cdef int begin_batch(self, BatchInfo *b, Py_ssize_t max_records,
                         Py_ssize_t data_bytes) except -1:
        return 0

    cdef int record(self, int64_t offset, int64_t ts, int tstype, const uint8_t *k,
                    Py_ssize_t klen, const uint8_t *v, Py_ssize_t vlen, int32_t nheaders,
                    int32_t off_delta) except -1:
        return 0

    cdef int header(self, const uint8_t *k, Py_ssize_t klen, const uint8_t *v,
                    Py_ssize_t vlen) except -1:
        return 0

    cdef int end_record(self) except -1:
        return 0

    cdef int end_batch(self) except -1:
        return 0

    cdef int fast_records(self, const uint8_t *d, Py_ssize_t end, BatchInfo *b) except -2:
        """A sink's own loop over a v2 records section; 1 means "not handled"."""
        return 1


cdef enum:
    KEY_CACHE = 8


cdef class _RecordSink(_Sink):
    cdef list out
    cdef Record cur
    cdef list cur_headers
    cdef Py_ssize_t cur_nh
    cdef object ts_names
    # A small cache of decoded header keys, compared by their bytes.
    cdef list cache_raw
    cdef list cache_str
    cdef int cache_next

    def __cinit__(self):
        self.out = []
        self.cache_raw = [None] * KEY_CACHE
        self.cache_str = [None] * KEY_CACHE
        self.cache_next = 0

    cdef int record(self, int64_t offset, int64_t ts, int tstype, const uint8_t *k,
                    Py_ssize_t klen, const uint8_t *v, Py_ssize_t vlen, int32_t nheaders,
                    int32_t off_delta) except -1:
        cdef Record r = Record.__new__(Record)
        r.offset = offset
        if tstype >= 0:
            r._ts = ts
            r._has_ts = True
            r.timestamp_type = _LOG_APPEND if tstype else _CREATE
        else:
            r._ts = -1
            r._has_ts = False
            r.timestamp_type = None
        if klen >= 0:
            r.key = PyBytes_FromStringAndSize(<const char *>k, klen)
        else:
            r.key = None
        if vlen >= 0:
            r.value = PyBytes_FromStringAndSize(<const char *>v, vlen)
        else:
            r.value = None
        # sized once: header() fills the slots in order
        self.cur_headers = PyList_New(nheaders)
        self.cur_nh = 0
        r.headers = self.cur_headers
        self.cur = r
        return 0

    cdef object _key(self, const uint8_t *k, Py_ssize_t klen):
        cdef int i
        cdef object raw
        if klen > 64:
            return PyUnicode_DecodeUTF8(<const char *>k, klen, "surrogateescape")
        for i in range(KEY_CACHE):
            raw = self.cache_raw[i]
            if raw is not None and PyBytes_GET_SIZE(raw) == klen and \
                    memcmp(PyBytes_AS_STRING(raw), k, klen) == 0:
                return self.cache_str[i]
        s = PyUnicode_DecodeUTF8(<const char *>k, klen, "surrogateescape")
        i = self.cache_next
        self.cache_raw[i] = PyBytes_FromStringAndSize(<const char *>k, klen)
        self.cache_str[i] = s
        self.cache_next = (i + 1) % KEY_CACHE
        return s

    cdef int header(self, const uint8_t *k, Py_ssize_t klen, const uint8_t *v,
                    Py_ssize_t vlen) except -1:
        cdef tuple t = PyTuple_New(2)
        key = self._key(k, klen)
        if vlen >= 0:
            val = PyBytes_FromStringAndSize(<const char *>v, vlen)
        else:
            val = None
        Py_INCREF(key)
        PyTuple_SET_ITEM(t, 0, key)
        Py_INCREF(val)
        PyTuple_SET_ITEM(t, 1, val)
        # A (str, bytes) tuple cannot be part of a cycle: CPython's collector would
        # untrack it at its first pass; doing it now spares that pass.
        PyObject_GC_UnTrack(<void *>t)
        Py_INCREF(t)
        PyList_SET_ITEM(self.cur_headers, self.cur_nh, t)
        self.cur_nh += 1
        return 0

    cdef int end_record(self) except -1:
        PyList_Append(self.out, self.cur)
        self.cur = None
        return 0


# -- parsing ------------------------------------------------------------------

cdef int _frame(const uint8_t *d, Py_ssize_t size, Py_ssize_t pos,
                Py_ssize_t *end_out) except -2:
    """The magic of the batch at ``pos`` (its end in end_out), or -1 if the buffer
    ends before the batch does (a partial trailing batch: stop)."""
    cdef Py_ssize_t left = size - pos
    cdef int32_t bsize
    cdef int magic
    if left < LOG_OVERHEAD + 5:
        return -1
    bsize = <int32_t>load_be32(d + pos + 8)
    if bsize < 14:
        _corrupt(f"batch at byte {pos} declares an invalid size {bsize}")
    magic = d[pos + 16]
    if magic > 2:
        _corrupt(f"batch at byte {pos} has unknown magic {magic}")
    if bsize > left - LOG_OVERHEAD:
        return -1
    if magic == 2 and bsize < V2_HEADER_SIZE - LOG_OVERHEAD:
        _corrupt(f"batch at byte {pos} is smaller than a v2 batch header")
    end_out[0] = pos + LOG_OVERHEAD + bsize
    return magic


cdef int _v2_header(const uint8_t *p, Py_ssize_t n, BatchInfo *b, bint verify,
                    Py_ssize_t pos) except -1:
    cdef uint32_t actual
    b.base_offset = <int64_t>load_be64(p)
    b.size = <int32_t>load_be32(p + 8)
    b.ple = <int32_t>load_be32(p + 12)
    b.magic = p[16]
    b.crc = load_be32(p + 17)
    b.attrs = <int16_t>load_be16(p + 21)
    b.last_offset_delta = <int32_t>load_be32(p + 23)
    b.base_ts = <int64_t>load_be64(p + 27)
    b.max_ts = <int64_t>load_be64(p + 35)
    b.pid = <int64_t>load_be64(p + 43)
    b.epoch = <int16_t>load_be16(p + 51)
    b.base_seq = <int32_t>load_be32(p + 53)
    b.count = <int32_t>load_be32(p + 57)
    if verify:
        with nogil:
            actual = crc32c_update(0, p + 21, n - 21)
        if actual != b.crc:
            _corrupt(f"record batch at byte {pos} (base offset {b.base_offset}): CRC32C is "
                     f"{actual:#010x}, the batch says {b.crc:#010x}")
    return 0


cdef int _v2_records(const uint8_t *d, Py_ssize_t end, BatchInfo *b, _Sink sink) except -1:
    cdef int32_t count = b.count
    cdef Py_ssize_t pos = 0
    cdef Py_ssize_t rend
    cdef int32_t length, off_delta, klen, vlen, nh, hklen, hvlen, _i, _h
    cdef int64_t ts_delta, ts
    cdef const uint8_t *kp
    cdef const uint8_t *vp
    cdef const uint8_t *hkp
    cdef const uint8_t *hvp
    cdef bint log_append = (b.attrs >> 3) & 1
    if count < 0 or count > end // 7:
        _corrupt(f"record count {count} does not fit in {end} bytes of records")
    for _i in range(count):
        read_varint32(d, end, &pos, &length)
        if length < 6 or length > end - pos:
            _corrupt(f"record length {length} at byte {pos} is invalid or beyond the "
                     f"{end - pos} bytes left")
        rend = pos + length
        pos += 1  # attributes
        read_varint64(d, rend, &pos, &ts_delta)
        read_varint32(d, rend, &pos, &off_delta)
        read_varint32(d, rend, &pos, &klen)
        if klen < 0:
            if klen != -1:
                _corrupt(f"negative key length {klen}")
            kp = NULL
        else:
            if klen > rend - pos:
                _corrupt(f"key length {klen} goes beyond its record")
            kp = d + pos
            pos += klen
        read_varint32(d, rend, &pos, &vlen)
        if vlen < 0:
            if vlen != -1:
                _corrupt(f"negative value length {vlen}")
            vp = NULL
        else:
            if vlen > rend - pos:
                _corrupt(f"value length {vlen} goes beyond its record")
            vp = d + pos
            pos += vlen
        read_varint32(d, rend, &pos, &nh)
        if nh < 0 or nh > (rend - pos) // 2:
            _corrupt(f"header count {nh} is invalid for the bytes left in its record")
        if log_append:
            ts = b.max_ts
        else:
            ts = <int64_t>(<uint64_t>b.base_ts + <uint64_t>ts_delta)
        sink.record(<int64_t>(<uint64_t>b.base_offset + <uint64_t><int64_t>off_delta), ts,
                    log_append, kp, klen, vp, vlen, nh, off_delta)
        for _h in range(nh):
            read_varint32(d, rend, &pos, &hklen)
            if hklen < 0 or hklen > rend - pos:
                _corrupt(f"header key length {hklen} is invalid")
            hkp = d + pos
            pos += hklen
            read_varint32(d, rend, &pos, &hvlen)
            if hvlen < 0:
                if hvlen != -1:
                    _corrupt(f"negative header value length {hvlen}")
                hvp = NULL
            else:
                if hvlen > rend - pos:
                    _corrupt(f"header value length {hvlen} goes beyond its record")
                hvp = d + pos
                pos += hvlen
            sink.header(hkp, hklen, hvp, hvlen)
        if pos != rend:
            _corrupt(f"record declares {length} bytes but its fields take "
                     f"{length - (rend - pos)}")
        sink.end_record()
    if pos != end:
        _corrupt(f"{end - pos} bytes left over after the batch's {count} records")
    return 0


cdef int _v2_batch(_Source src, Py_ssize_t start, Py_ssize_t end, BatchInfo *b,
                   object max_size, _Sink sink) except -1:
    """Hand the records of the v2 batch at [start, end) (header in b) to sink."""
    cdef int codec = b.attrs & 7
    cdef Py_buffer view
    cdef Py_ssize_t n
    if codec == 0:
        n = end - start - V2_HEADER_SIZE
        sink.begin_batch(b, n // 7, n)
        if sink.fast_records(src.data + start + V2_HEADER_SIZE, n, b):
            _v2_records(src.data + start + V2_HEADER_SIZE, n, b, sink)
        sink.end_batch()
        return 0
    data = _decompress(codec, _slice(src, start + V2_HEADER_SIZE, end), max_size=max_size)
    PyObject_GetBuffer(data, &view, PyBUF_SIMPLE)
    try:
        n = view.len
        sink.begin_batch(b, n // 7, n)
        if sink.fast_records(<const uint8_t *>view.buf, n, b):
            _v2_records(<const uint8_t *>view.buf, n, b, sink)
        sink.end_batch()
    finally:
        PyBuffer_Release(&view)
    return 0


cdef struct LegacyMsg:
    int64_t offset
    uint32_t crc
    int magic
    int attrs
    int64_t ts
    Py_ssize_t kpos
    Py_ssize_t klen
    Py_ssize_t vpos
    Py_ssize_t vlen
    Py_ssize_t end


cdef inline Py_ssize_t _legacy_part(const uint8_t *d, Py_ssize_t p, Py_ssize_t mend,
                                    Py_ssize_t *part_pos, Py_ssize_t *part_len, str what,
                                    Py_ssize_t pos, str part) except -1:
    """Read a legacy message's int32-sized key or value at p (length -1 is null); the
    part's position and length go to part_pos/part_len; returns the position after it."""
    cdef int32_t n
    if mend - p < 4:
        _corrupt(f"{what} at byte {pos}: truncated {part} length")
    n = <int32_t>load_be32(d + p)
    p += 4
    if n < 0:
        if n != -1:
            _corrupt(f"{what} at byte {pos}: negative {part} length {n}")
        part_len[0] = -1
    else:
        if n > mend - p:
            _corrupt(f"{what} at byte {pos}: {part} length {n} goes beyond the message")
        part_len[0] = n
    part_pos[0] = p
    return p + n if n > 0 else p


cdef int _legacy_msg(const uint8_t *d, Py_ssize_t pos, Py_ssize_t end, bint verify,
                     LegacyMsg *m, str what) except -1:
    cdef int32_t size
    cdef Py_ssize_t start, mend, p
    cdef uint32_t actual
    if end - pos < LOG_OVERHEAD + 14:
        _corrupt(f"{what} at byte {pos} is shorter than a message")
    m.offset = <int64_t>load_be64(d + pos)
    size = <int32_t>load_be32(d + pos + 8)
    if size < 14 or size > end - pos - LOG_OVERHEAD:
        _corrupt(f"{what} at byte {pos} has an invalid size {size}")
    start = pos + LOG_OVERHEAD
    mend = start + size
    m.crc = load_be32(d + start)
    m.magic = d[start + 4]
    m.attrs = d[start + 5]
    if m.magic > 1:
        _corrupt(f"{what} at byte {pos} has magic {m.magic}, expected 0 or 1")
    if m.magic == 1 and size < 22:
        _corrupt(f"{what} at byte {pos} is shorter than a v1 message")
    if verify:
        if size >= _NOGIL_CRC_MIN:  # a compressed wrapper can be megabytes
            with nogil:
                actual = crc32_update(0, d + start + 4, size - 4)
        else:
            actual = crc32_update(0, d + start + 4, size - 4)
        if actual != m.crc:
            _corrupt(f"{what} at byte {pos}: CRC32 is {actual:#010x}, the message says "
                     f"{m.crc:#010x}")
    p = start + 6
    m.ts = -1
    if m.magic == 1:
        m.ts = <int64_t>load_be64(d + p)
        p += 8
    p = _legacy_part(d, p, mend, &m.kpos, &m.klen, what, pos, "key")
    p = _legacy_part(d, p, mend, &m.vpos, &m.vlen, what, pos, "value")
    if p != mend:
        _corrupt(f"{what} at byte {pos}: {mend - p} bytes left over in the message")
    m.end = mend
    return 0


cdef inline void _legacy_info(BatchInfo *b, LegacyMsg *m) noexcept:
    b.base_offset = m.offset
    b.size = <int32_t>(m.end - 0)
    b.ple = -1
    b.magic = m.magic
    b.crc = m.crc
    b.attrs = m.attrs
    b.last_offset_delta = 0
    b.base_ts = m.ts
    b.max_ts = m.ts
    b.pid = -1
    b.epoch = -1
    b.base_seq = -1
    b.count = 1


cdef int _legacy_batch(_Source src, Py_ssize_t start, Py_ssize_t end, bint verify_outer,
                       bint verify_inner, object max_size, _Sink sink,
                       LegacyMsg *outer) except -1:
    """Hand the records of the top-level legacy message at [start, end) to sink."""
    cdef LegacyMsg m, im
    cdef BatchInfo b
    cdef const uint8_t *d = src.data
    cdef int codec, tstype
    cdef Py_buffer view
    cdef const uint8_t *id
    cdef Py_ssize_t n, pos, count
    cdef int64_t last_inner, shift
    cdef bint log_append
    _legacy_msg(d, start, end, verify_outer, &m, "message")
    if outer != NULL:
        outer[0] = m
    _legacy_info(&b, &m)
    codec = m.attrs & 7
    tstype = -1 if m.magic == 0 else ((m.attrs >> 3) & 1)
    if codec == 0:
        sink.begin_batch(&b, 1, (m.klen if m.klen > 0 else 0) + (m.vlen if m.vlen > 0 else 0))
        sink.record(m.offset, m.ts, tstype, d + m.kpos, m.klen, d + m.vpos, m.vlen, 0, 0)
        sink.end_record()
        sink.end_batch()
        return 0
    if m.vlen < 0:
        _corrupt(f"compressed message at offset {m.offset} has a null value")
    data = _decompress(codec, _slice(src, m.vpos, m.vpos + m.vlen), max_size=max_size,
                       magic=m.magic)
    PyObject_GetBuffer(data, &view, PyBUF_SIMPLE)
    try:
        id = <const uint8_t *>view.buf
        n = view.len
        # Pass 1: validate the inner messages, count them, find the last offset.
        pos = 0
        count = 0
        last_inner = 0
        while pos < n:
            _legacy_msg(id, pos, n, verify_inner, &im, "inner message")
            if im.attrs & 7:
                _corrupt("a compressed message holds another compressed message")
            if im.magic != m.magic:
                _corrupt(f"inner message magic {im.magic} differs from its wrapper's "
                         f"{m.magic}")
            last_inner = im.offset
            pos = im.end
            count += 1
        shift = <int64_t>(<uint64_t>m.offset - <uint64_t>last_inner) if m.magic == 1 else 0
        if shift < 0:
            # A producer-side wrapper (offset 0, as kafka-python writes) before the broker
            # assigned offsets: the inner offsets stand as they are.
            shift = 0
        log_append = m.magic == 1 and (m.attrs >> 3) & 1
        b.count = <int32_t>count
        sink.begin_batch(&b, count, n)
        pos = 0
        while pos < n:
            _legacy_msg(id, pos, n, False, &im, "inner message")
            sink.record(<int64_t>(<uint64_t>im.offset + <uint64_t>shift),
                        m.ts if log_append else im.ts, tstype,
                        id + im.kpos, im.klen, id + im.vpos, im.vlen, 0, 0)
            sink.end_record()
            pos = im.end
        sink.end_batch()
    finally:
        PyBuffer_Release(&view)
    return 0


cdef int _emit_all(_Source src, bint verify, object max_size, _Sink sink) except -1:
    """Every record of every complete batch of src, to sink."""
    cdef Py_ssize_t pos = 0, end = 0
    cdef int magic
    cdef BatchInfo b
    while True:
        magic = _frame(src.data, src.size, pos, &end)
        if magic < 0:
            break
        if magic == 2:
            _v2_header(src.data + pos, end - pos, &b, verify, pos)
            _v2_batch(src, pos, end, &b, max_size, sink)
        else:
            _legacy_batch(src, pos, end, verify, verify, max_size, sink, NULL)
        pos = end
    return 0


# -- batches ------------------------------------------------------------------

cdef class RecordBatch:
    """A record batch (magic 2).  Header fields are attributes; iterating decodes the
    records (lazily: nothing is parsed or decompressed until then)."""
    cdef BatchInfo b
    cdef _Source src
    cdef Py_ssize_t start, end
    cdef object max_size
    cdef list _records

    @property
    def base_offset(self): return self.b.base_offset
    @property
    def batch_length(self): return self.b.size
    @property
    def partition_leader_epoch(self): return self.b.ple
    @property
    def magic(self): return self.b.magic
    @property
    def crc(self): return self.b.crc
    @property
    def attributes(self): return self.b.attrs
    @property
    def last_offset_delta(self): return self.b.last_offset_delta
    @property
    def base_timestamp(self): return self.b.base_ts
    @property
    def max_timestamp(self): return self.b.max_ts
    @property
    def producer_id(self): return self.b.pid
    @property
    def producer_epoch(self): return self.b.epoch
    @property
    def base_sequence(self): return self.b.base_seq
    @property
    def record_count(self): return self.b.count
    @property
    def compression_id(self): return self.b.attrs & 7
    @property
    def compression(self): return _comp.codec_name(self.b.attrs & 7)
    @property
    def timestamp_type(self): return _TS_NAMES[(self.b.attrs >> 3) & 1]
    @property
    def is_transactional(self): return bool(self.b.attrs & TRANSACTIONAL_BIT)
    @property
    def is_control(self): return bool(self.b.attrs & CONTROL_BIT)
    @property
    def has_delete_horizon(self): return bool(self.b.attrs & DELETE_HORIZON_BIT)
    @property
    def delete_horizon_ms(self):
        return self.b.base_ts if self.b.attrs & DELETE_HORIZON_BIT else None
    @property
    def last_offset(self):  # wrapped like Java's long (no C signed overflow)
        return <int64_t>(<uint64_t>self.b.base_offset + <uint64_t><int64_t>self.b.last_offset_delta)
    @property
    def next_offset(self):
        return <int64_t>(<uint64_t>self.b.base_offset + <uint64_t><int64_t>self.b.last_offset_delta
                         + 1)
    @property
    def size_in_bytes(self): return self.end - self.start
    @property
    def raw(self): return _slice(self.src, self.start, self.end)

    def sequence_of(self, offset_delta):
        """The producer sequence of the record at ``offset_delta`` (-1 if none)."""
        return _common.next_sequence(self.b.base_seq, offset_delta)

    def records(self):
        """The batch's records (decoded once, on first use)."""
        cdef _RecordSink sink
        if self._records is None:
            sink = _RecordSink.__new__(_RecordSink)
            _v2_batch(self.src, self.start, self.end, &self.b, self.max_size, sink)
            self._records = sink.out
        return self._records

    def __iter__(self):
        return iter(self.records())

    def __len__(self):
        return self.b.count

    def __repr__(self):
        return (f"RecordBatch(base_offset={self.base_offset}, magic=2, records="
                f"{self.record_count}, compression={self.compression!r}, "
                f"is_transactional={self.is_transactional}, is_control={self.is_control})")


cdef class LegacyRecordBatch:
    """One top-level legacy message (magic 0 or 1): a plain message (one record) or a
    compressed wrapper whose value holds inner messages."""
    cdef LegacyMsg m
    cdef _Source src
    cdef Py_ssize_t start, end
    cdef bint verify
    cdef object max_size
    cdef list _records

    partition_leader_epoch = -1
    producer_id = -1
    producer_epoch = -1
    base_sequence = -1
    is_transactional = False
    is_control = False
    has_delete_horizon = False
    delete_horizon_ms = None

    @property
    def offset(self): return self.m.offset
    @property
    def magic(self): return self.m.magic
    @property
    def crc(self): return self.m.crc
    @property
    def attributes(self): return self.m.attrs
    @property
    def timestamp(self): return self.m.ts
    @property
    def compression_id(self): return self.m.attrs & 7
    @property
    def compression(self): return _comp.codec_name(self.m.attrs & 7)
    @property
    def timestamp_type(self):
        return None if self.m.magic == 0 else _TS_NAMES[(self.m.attrs >> 3) & 1]
    @property
    def size_in_bytes(self): return self.end - self.start
    @property
    def raw(self): return _slice(self.src, self.start, self.end)
    @property
    def last_offset(self):
        if self.m.attrs & 7:
            recs = self.records()
            if recs:
                return recs[len(recs) - 1].offset
        return self.m.offset
    @property
    def next_offset(self): return self.last_offset + 1
    @property
    def max_timestamp(self): return self.m.ts
    @property
    def base_timestamp(self): return self.m.ts
    @property
    def base_offset(self):
        if self.m.attrs & 7:
            recs = self.records()
            if recs:
                return recs[0].offset
        return self.m.offset
    @property
    def record_count(self): return len(self.records())
    @property
    def last_offset_delta(self): return self.last_offset - self.base_offset

    def sequence_of(self, offset_delta):
        return -1

    def records(self):
        cdef _RecordSink sink
        if self._records is None:
            sink = _RecordSink.__new__(_RecordSink)
            _legacy_batch(self.src, self.start, self.end, False, self.verify, self.max_size,
                          sink, NULL)
            self._records = sink.out
        return self._records

    def __iter__(self):
        return iter(self.records())

    def __len__(self):
        return self.record_count

    def __repr__(self):
        return (f"LegacyRecordBatch(offset={self.offset}, magic={self.magic}, "
                f"compression={self.compression!r})")


cdef class BatchIterator:
    """Iterates the batches of a buffer (any mix of magic 0, 1 and 2).

    Iteration stops cleanly at a trailing partial batch (as at the end of a fetch
    response); :attr:`remaining_bytes` then says how many bytes were left unread, and
    :attr:`position` where they start.  Anything else malformed raises a
    :mod:`kafkawire.errors` exception.
    """
    cdef _Source src
    cdef bint verify
    cdef object max_size
    cdef public Py_ssize_t position

    def __init__(self, buf, verify_crc=True, max_decompressed_size=_DEFAULT_MAX):
        self.src = _source(buf)
        self.verify = verify_crc
        self.max_size = _DEFAULT_MAX if max_decompressed_size is None else max_decompressed_size
        self.position = 0

    @property
    def remaining_bytes(self):
        """Bytes not yet consumed (after exhaustion: the size of a trailing partial batch)."""
        return self.src.size - self.position

    def __iter__(self):
        return self

    def __next__(self):
        cdef Py_ssize_t pos = self.position, end = 0
        cdef int magic
        cdef RecordBatch rb
        cdef LegacyRecordBatch lb
        magic = _frame(self.src.data, self.src.size, pos, &end)
        if magic < 0:
            raise StopIteration
        if magic == 2:
            rb = RecordBatch.__new__(RecordBatch)
            _v2_header(self.src.data + pos, end - pos, &rb.b, self.verify, pos)
            rb.src = self.src
            rb.start = pos
            rb.end = end
            rb.max_size = self.max_size
            self.position = end
            return rb
        lb = LegacyRecordBatch.__new__(LegacyRecordBatch)
        _legacy_msg(self.src.data, pos, end, self.verify, &lb.m, "message")
        lb.src = self.src
        lb.start = pos
        lb.end = end
        lb.verify = self.verify
        lb.max_size = self.max_size
        self.position = end
        return lb


def iter_batches(buf, *, verify_crc=True, max_decompressed_size=_DEFAULT_MAX):
    """The batches of ``buf``, as a :class:`BatchIterator` (see there)."""
    return BatchIterator(buf, verify_crc, max_decompressed_size)


def decode(buf, *, verify_crc=True, max_decompressed_size=_DEFAULT_MAX):
    """Every record of every complete batch in ``buf`` (a trailing partial batch is
    ignored, as Kafka's consumers do)."""
    cdef _Source src = _source(buf)
    cdef _RecordSink sink = _RecordSink.__new__(_RecordSink)
    if max_decompressed_size is None:
        max_decompressed_size = _DEFAULT_MAX
    _emit_all(src, verify_crc, max_decompressed_size, sink)
    return sink.out


# -- Arrow --------------------------------------------------------------------
#
# Columns are filled into malloc'd buffers and handed to pyarrow through the Arrow C
# data interface (one ArrowArray tree, imported as a RecordBatch): no Python object per
# record, and none per column either.

cdef extern from *:
    """
    struct KwArrowArray {
        int64_t length;
        int64_t null_count;
        int64_t offset;
        int64_t n_buffers;
        int64_t n_children;
        const void **buffers;
        struct KwArrowArray **children;
        struct KwArrowArray *dictionary;
        void (*release)(struct KwArrowArray *);
        void *private_data;
    };
    typedef struct KwArrowArray KwArrowArray;
    """
    ctypedef struct KwArrowArray:
        int64_t length
        int64_t null_count
        int64_t offset
        int64_t n_buffers
        int64_t n_children
        const void **buffers
        KwArrowArray **children
        KwArrowArray *dictionary
        void (*release)(KwArrowArray *) noexcept nogil
        void *private_data

# Millisecond timestamps whose microseconds overflow int64 are null in Arrow.
cdef int64_t _TS_US_LIMIT = 9223372036854775807 // 1000

cdef enum:
    B_OFFSET, B_TS, B_TS_FLAG, B_TSTYPE, B_KEY_OFF, B_KEY_DATA, B_KEY_FLAG, B_VAL_OFF,
    B_VAL_DATA, B_VAL_FLAG, B_HLIST_OFF, B_HKEY_OFF, B_HKEY_DATA, B_HVAL_OFF, B_HVAL_DATA,
    B_HVAL_FLAG, B_SEQ, B_PLE, B_PID, B_EPOCH, B_COMP_OFF, B_COMP_DATA,
    B_TS_BM, B_KEY_BM, B_VAL_BM, B_HVAL_BM, B_TX_BM, B_CTRL_BM, NBUF

cdef enum:
    # ArrowArray nodes: the root struct, its 13 columns, the headers' struct and its 2
    N_ROOT, N_OFFSET, N_TS, N_TSTYPE, N_KEY, N_VALUE, N_HEADERS, N_PLE, N_PID, N_EPOCH,
    N_SEQ, N_TX, N_CTRL, N_COMP, N_HSTRUCT, N_HKEY, N_HVAL, NNODES


cdef struct CBuf:
    char *p
    Py_ssize_t n
    Py_ssize_t cap
    bint owned  # p is its own allocation (else it lies in the Export's block)


cdef struct Export:
    KwArrowArray nodes[NNODES]
    const void *bufptrs[NNODES][3]
    KwArrowArray *root_kids[13]
    KwArrowArray *list_kids[1]
    KwArrowArray *struct_kids[2]
    CBuf bufs[NBUF]


cdef void _free_export(Export *e) noexcept nogil:
    """Free the buffers that outgrew e's block, then the block (e itself)."""
    cdef int i
    for i in range(NBUF):
        if e.bufs[i].owned:
            free(e.bufs[i].p)
    free(e)


cdef void _release_child(KwArrowArray *a) noexcept nogil:
    a.release = NULL


cdef void _release_root(KwArrowArray *a) noexcept nogil:
    cdef Export *e = <Export *>a.private_data
    a.release = NULL
    _free_export(e)


cdef inline Py_ssize_t _align64(Py_ssize_t n) noexcept nogil:
    return (n + 63) & ~<Py_ssize_t>63


cdef Export *_new_export(Py_ssize_t rows, Py_ssize_t data, Py_ssize_t hdrs) except NULL:
    """One block holding the Export and every buffer sized for ``rows`` records of
    uncompressed v2 batches with ``data`` bytes of records sections and at most ``hdrs``
    headers (bounds read from the batch headers): one malloc per table instead of one per
    buffer plus reallocs.  Input the bounds miss (compressed or legacy batches) grows
    the buffers out of the block."""
    cdef Py_ssize_t cap[NBUF]
    cdef Py_ssize_t r = rows, h = hdrs, total, i
    cdef Export *e
    cdef char *p
    cap[B_OFFSET] = 8 * r; cap[B_TS] = 8 * r; cap[B_PID] = 8 * r
    cap[B_SEQ] = 4 * r; cap[B_PLE] = 4 * r; cap[B_EPOCH] = 2 * r
    cap[B_TS_FLAG] = r; cap[B_TSTYPE] = r; cap[B_KEY_FLAG] = r; cap[B_VAL_FLAG] = r
    # offsets: one more than rows (the leading 0)
    cap[B_KEY_OFF] = 4 * r + 4; cap[B_VAL_OFF] = 4 * r + 4; cap[B_HLIST_OFF] = 4 * r + 4
    cap[B_COMP_OFF] = 4 * r + 4
    cap[B_COMP_DATA] = 4 * r  # "none"
    cap[B_KEY_DATA] = data; cap[B_VAL_DATA] = data
    cap[B_HKEY_DATA] = data; cap[B_HVAL_DATA] = data
    cap[B_HKEY_OFF] = 4 * h + 4; cap[B_HVAL_OFF] = 4 * h + 4; cap[B_HVAL_FLAG] = h
    for i in (B_TS_BM, B_KEY_BM, B_VAL_BM, B_TX_BM, B_CTRL_BM):
        cap[i] = (r + 7) // 8 + 1
    cap[B_HVAL_BM] = (h + 7) // 8 + 1
    # 64-byte steps keep every buffer as aligned as the block; never empty, so no NULL
    # buffer reaches Arrow
    total = _align64(sizeof(Export))
    for i in range(NBUF):
        total += _align64(cap[i] if cap[i] > 0 else 1)
    e = <Export *>malloc(total)
    if e == NULL:
        raise MemoryError()
    memset(e, 0, sizeof(Export))
    p = <char *>e + _align64(sizeof(Export))
    for i in range(NBUF):
        e.bufs[i].p = p
        e.bufs[i].cap = _align64(cap[i] if cap[i] > 0 else 1)
        p += e.bufs[i].cap
    return e


cdef void _v2_bounds(const uint8_t *d, Py_ssize_t size, Py_ssize_t *rows,
                     Py_ssize_t *data, Py_ssize_t *hdrs) noexcept:
    """Sum the record counts, records-section sizes and header bounds (a header takes
    at least 2 bytes) of the uncompressed v2 batches at the start of d, from their headers
    alone; stop quietly at anything odd (the parser reports it, in order)."""
    cdef Py_ssize_t pos = 0, n
    cdef int32_t bsize, count
    rows[0] = data[0] = hdrs[0] = 0
    while size - pos >= V2_HEADER_SIZE:
        bsize = <int32_t>load_be32(d + pos + 8)
        if bsize < 14 or bsize > size - pos - LOG_OVERHEAD:
            break
        if d[pos + 16] == 2 and bsize >= V2_HEADER_SIZE - LOG_OVERHEAD and \
                (load_be16(d + pos + 21) & 7) == 0:
            n = bsize + LOG_OVERHEAD - V2_HEADER_SIZE
            count = <int32_t>load_be32(d + pos + 57)
            if 0 <= count <= n // 7:
                rows[0] += count
                data[0] += n + COPY_SLACK
                hdrs[0] += n // 2 + 1
        pos += LOG_OVERHEAD + bsize


cdef int _grow(CBuf *b, Py_ssize_t extra) except -1:
    cdef Py_ssize_t want = b.n + extra
    cdef Py_ssize_t cap
    cdef char *p
    if want <= b.cap:
        return 0
    cap = b.cap * 2
    if cap < want:
        cap = want
    if cap < 64:
        cap = 64
    if b.owned:
        p = <char *>realloc(b.p, cap)
    else:  # leave the Export's block
        p = <char *>malloc(cap)
        if p != NULL and b.n:
            memcpy(p, b.p, b.n)
    if p == NULL:
        raise MemoryError()
    b.p = p
    b.cap = cap
    b.owned = True
    return 0

cdef inline int _reserve(CBuf *b, Py_ssize_t extra) except -1:
    if b.n + extra > b.cap:
        _grow(b, extra)
    return 0

cdef inline void _put_i64(CBuf *b, int64_t v) noexcept nogil:
    (<int64_t *>(b.p + b.n))[0] = v
    b.n += 8

cdef inline void _put_i32(CBuf *b, int32_t v) noexcept nogil:
    (<int32_t *>(b.p + b.n))[0] = v
    b.n += 4

cdef inline void _put_u8(CBuf *b, uint8_t v) noexcept nogil:
    (<uint8_t *>(b.p + b.n))[0] = v
    b.n += 1

cdef inline void _put_bytes(CBuf *b, const uint8_t *src, Py_ssize_t n) noexcept nogil:
    memcpy(b.p + b.n, src, n)
    b.n += n


cdef enum:
    # The data buffers keep this much room past their fields for _copy's last move.
    COPY_SLACK = 16


cdef inline void _copy(char *dst, const uint8_t *src, Py_ssize_t n,
                       Py_ssize_t src_room) noexcept nogil:
    """memcpy for a field of the fused record loop.  A short one (keys, header fields,
    small values) is copied inline in 16-byte moves that may read and write up to 15
    bytes past it: no call, so the loop's cursors stay in registers.  ``src_room`` is how
    many bytes can be read at src; dst has COPY_SLACK bytes to spare."""
    cdef Py_ssize_t j = 0
    if n <= 128 and n + COPY_SLACK <= src_room:
        while j < n:
            memcpy(dst + j, src + j, 16)
            j += 16
    else:
        memcpy(dst, src, n)


cdef inline bint _ascii(const uint8_t *p, Py_ssize_t n) noexcept nogil:
    cdef Py_ssize_t i = 0
    cdef uint64_t w
    while i + 8 <= n:
        memcpy(&w, p + i, 8)
        if w & <uint64_t>0x8080808080808080:
            return False
        i += 8
    while i < n:
        if p[i] & 0x80:
            return False
        i += 1
    return True


cdef class _ArrowSink(_Sink):
    cdef Export *e  # the ArrowArray tree and the buffers' block, until exported
    cdef CBuf *b    # e.bufs
    cdef Py_ssize_t rows, batch_rows0, nheaders
    cdef Py_ssize_t ts_nulls, key_nulls, val_nulls, hval_nulls
    cdef BatchInfo cur

    cdef int alloc(self, Py_ssize_t rows, Py_ssize_t data, Py_ssize_t hdrs) except -1:
        cdef int i
        self.e = _new_export(rows, data, hdrs)
        self.b = self.e.bufs
        for i in (B_KEY_OFF, B_VAL_OFF, B_HLIST_OFF, B_HKEY_OFF, B_HVAL_OFF, B_COMP_OFF):
            _put_i32(&self.b[i], 0)
        return 0

    def __dealloc__(self):
        if self.e != NULL:
            _free_export(self.e)

    cdef int begin_batch(self, BatchInfo *b, Py_ssize_t max_records,
                         Py_ssize_t data_bytes) except -1:
        # The parsers write at most count rows and reject a count above max_records
        # before writing any.  A header takes at least 2 bytes.
        cdef Py_ssize_t r = b.count if 0 <= b.count <= max_records else max_records
        cdef Py_ssize_t h = data_bytes // 2 + 1
        self.cur = b[0]
        self.batch_rows0 = self.rows
        _reserve(&self.b[B_OFFSET], r * 8); _reserve(&self.b[B_TS], r * 8)
        _reserve(&self.b[B_TS_FLAG], r); _reserve(&self.b[B_TSTYPE], r)
        _reserve(&self.b[B_KEY_OFF], r * 4); _reserve(&self.b[B_KEY_FLAG], r)
        _reserve(&self.b[B_VAL_OFF], r * 4); _reserve(&self.b[B_VAL_FLAG], r)
        _reserve(&self.b[B_HLIST_OFF], r * 4); _reserve(&self.b[B_SEQ], r * 4)
        _reserve(&self.b[B_KEY_DATA], data_bytes + COPY_SLACK)
        _reserve(&self.b[B_VAL_DATA], data_bytes + COPY_SLACK)
        _reserve(&self.b[B_HKEY_DATA], data_bytes + COPY_SLACK)
        _reserve(&self.b[B_HVAL_DATA], data_bytes + COPY_SLACK)
        _reserve(&self.b[B_HKEY_OFF], h * 4); _reserve(&self.b[B_HVAL_OFF], h * 4)
        _reserve(&self.b[B_HVAL_FLAG], h)
        return 0

    cdef int record(self, int64_t offset, int64_t ts, int tstype, const uint8_t *k,
                    Py_ssize_t klen, const uint8_t *v, Py_ssize_t vlen, int32_t nheaders,
                    int32_t off_delta) except -1:
        cdef CBuf *b = self.b
        cdef int32_t base_seq = self.cur.base_seq
        _put_i64(&b[B_OFFSET], offset)
        if tstype >= 0 and -_TS_US_LIMIT <= ts <= _TS_US_LIMIT:
            _put_i64(&b[B_TS], ts * 1000)
            _put_u8(&b[B_TS_FLAG], 1)
            _put_u8(&b[B_TSTYPE], <uint8_t>tstype)
        else:
            _put_i64(&b[B_TS], 0)
            _put_u8(&b[B_TS_FLAG], 0)
            _put_u8(&b[B_TSTYPE], 0)
            self.ts_nulls += 1
        if klen >= 0:
            _put_bytes(&b[B_KEY_DATA], k, klen)
            _put_u8(&b[B_KEY_FLAG], 1)
        else:
            _put_u8(&b[B_KEY_FLAG], 0)
            self.key_nulls += 1
        if vlen >= 0:
            _put_bytes(&b[B_VAL_DATA], v, vlen)
            _put_u8(&b[B_VAL_FLAG], 1)
        else:
            _put_u8(&b[B_VAL_FLAG], 0)
            self.val_nulls += 1
        if b[B_KEY_DATA].n > INT32_MAX or b[B_VAL_DATA].n > INT32_MAX:
            raise OverflowError("more than 2 GiB of keys or values in one table")
        _put_i32(&b[B_KEY_OFF], <int32_t>b[B_KEY_DATA].n)
        _put_i32(&b[B_VAL_OFF], <int32_t>b[B_VAL_DATA].n)
        _put_i32(&b[B_SEQ], _sequence(base_seq, off_delta))
        self.rows += 1
        return 0

    cdef int header(self, const uint8_t *k, Py_ssize_t klen, const uint8_t *v,
                    Py_ssize_t vlen) except -1:
        cdef CBuf *b = self.b
        cdef bytes fixed
        if _ascii(k, klen):
            _put_bytes(&b[B_HKEY_DATA], k, klen)
        else:
            try:
                PyUnicode_DecodeUTF8(<const char *>k, klen, "strict")
                _put_bytes(&b[B_HKEY_DATA], k, klen)
            except UnicodeDecodeError:
                # Arrow strings are UTF-8: invalid bytes become U+FFFD here.
                fixed = PyUnicode_DecodeUTF8(<const char *>k, klen, "replace").encode("utf-8")
                _reserve(&b[B_HKEY_DATA], len(fixed))
                _put_bytes(&b[B_HKEY_DATA], <const uint8_t *>PyBytes_AS_STRING(fixed),
                           len(fixed))
        _put_i32(&b[B_HKEY_OFF], <int32_t>b[B_HKEY_DATA].n)
        if vlen >= 0:
            _put_bytes(&b[B_HVAL_DATA], v, vlen)
            _put_u8(&b[B_HVAL_FLAG], 1)
        else:
            _put_u8(&b[B_HVAL_FLAG], 0)
            self.hval_nulls += 1
        _put_i32(&b[B_HVAL_OFF], <int32_t>b[B_HVAL_DATA].n)
        self.nheaders += 1
        return 0

    cdef int end_record(self) except -1:
        if self.nheaders > INT32_MAX or self.b[B_HKEY_DATA].n > INT32_MAX or \
                self.b[B_HVAL_DATA].n > INT32_MAX:
            raise OverflowError("more than 2 GiB of headers in one table")
        _put_i32(&self.b[B_HLIST_OFF], <int32_t>self.nheaders)
        return 0

    cdef int fast_records(self, const uint8_t *d, Py_ssize_t end, BatchInfo *bi) except -2:
        """The v2 record loop fused with the column writes (cursors in registers, no
        virtual calls).  Returns 1, having written nothing, when a header key is not
        valid UTF-8: the generic path then handles the batch."""
        cdef CBuf *B = self.b
        cdef int32_t count = bi.count
        cdef Py_ssize_t pos = 0, rend, i, _h
        cdef int32_t length, off_delta, klen, vlen, nh, hklen, hvlen
        cdef int64_t ts_delta, ts
        cdef bint log_append = (bi.attrs >> 3) & 1
        cdef int32_t base_seq = bi.base_seq
        cdef int64_t *o_off = <int64_t *>(B[B_OFFSET].p + B[B_OFFSET].n)
        cdef int64_t *o_ts = <int64_t *>(B[B_TS].p + B[B_TS].n)
        cdef uint8_t *o_tsf = <uint8_t *>(B[B_TS_FLAG].p + B[B_TS_FLAG].n)
        cdef uint8_t *o_tst = <uint8_t *>(B[B_TSTYPE].p + B[B_TSTYPE].n)
        cdef int32_t *o_koff = <int32_t *>(B[B_KEY_OFF].p + B[B_KEY_OFF].n)
        cdef uint8_t *o_kf = <uint8_t *>(B[B_KEY_FLAG].p + B[B_KEY_FLAG].n)
        cdef int32_t *o_voff = <int32_t *>(B[B_VAL_OFF].p + B[B_VAL_OFF].n)
        cdef uint8_t *o_vf = <uint8_t *>(B[B_VAL_FLAG].p + B[B_VAL_FLAG].n)
        cdef int32_t *o_hl = <int32_t *>(B[B_HLIST_OFF].p + B[B_HLIST_OFF].n)
        cdef int32_t *o_seq = <int32_t *>(B[B_SEQ].p + B[B_SEQ].n)
        cdef int32_t *o_hkoff = <int32_t *>(B[B_HKEY_OFF].p + B[B_HKEY_OFF].n)
        cdef int32_t *o_hvoff = <int32_t *>(B[B_HVAL_OFF].p + B[B_HVAL_OFF].n)
        cdef uint8_t *o_hvf = <uint8_t *>(B[B_HVAL_FLAG].p + B[B_HVAL_FLAG].n)
        cdef char *kdata = B[B_KEY_DATA].p
        cdef char *vdata = B[B_VAL_DATA].p
        cdef char *hkdata = B[B_HKEY_DATA].p
        cdef char *hvdata = B[B_HVAL_DATA].p
        cdef Py_ssize_t kn = B[B_KEY_DATA].n, vn = B[B_VAL_DATA].n
        cdef Py_ssize_t hkn = B[B_HKEY_DATA].n, hvn = B[B_HVAL_DATA].n
        cdef Py_ssize_t nheaders = self.nheaders, hcount = 0
        cdef Py_ssize_t ts_nulls = 0, key_nulls = 0, val_nulls = 0, hval_nulls = 0
        if count < 0 or count > end // 7:
            _corrupt(f"record count {count} does not fit in {end} bytes of records")
        if kn + end > INT32_MAX or vn + end > INT32_MAX or hkn + end > INT32_MAX or \
                hvn + end > INT32_MAX or nheaders + end > INT32_MAX:
            return 1  # near the int32 offset limit: the checked path raises
        for i in range(count):
            read_varint32(d, end, &pos, &length)
            if length < 6 or length > end - pos:
                _corrupt(f"record length {length} at byte {pos} is invalid or beyond the "
                         f"{end - pos} bytes left")
            rend = pos + length
            pos += 1
            read_varint64(d, rend, &pos, &ts_delta)
            read_varint32(d, rend, &pos, &off_delta)
            # Key and value are written out twice on purpose: a shared helper would take
            # the addresses of the cursors (kn, vn, the null counts) and keep them out of
            # registers in the loop that sets to_arrow's speed.
            read_varint32(d, rend, &pos, &klen)
            if klen < 0:
                if klen != -1:
                    _corrupt(f"negative key length {klen}")
                o_kf[i] = 0
                key_nulls += 1
            else:
                if klen > rend - pos:
                    _corrupt(f"key length {klen} goes beyond its record")
                _copy(kdata + kn, d + pos, klen, end - pos)
                kn += klen
                pos += klen
                o_kf[i] = 1
            o_koff[i] = <int32_t>kn
            read_varint32(d, rend, &pos, &vlen)
            if vlen < 0:
                if vlen != -1:
                    _corrupt(f"negative value length {vlen}")
                o_vf[i] = 0
                val_nulls += 1
            else:
                if vlen > rend - pos:
                    _corrupt(f"value length {vlen} goes beyond its record")
                _copy(vdata + vn, d + pos, vlen, end - pos)
                vn += vlen
                pos += vlen
                o_vf[i] = 1
            o_voff[i] = <int32_t>vn
            read_varint32(d, rend, &pos, &nh)
            if nh < 0 or nh > (rend - pos) // 2:
                _corrupt(f"header count {nh} is invalid for the bytes left in its record")
            for _h in range(nh):
                read_varint32(d, rend, &pos, &hklen)
                if hklen < 0 or hklen > rend - pos:
                    _corrupt(f"header key length {hklen} is invalid")
                if not _ascii(d + pos, hklen):
                    try:
                        PyUnicode_DecodeUTF8(<const char *>(d + pos), hklen, "strict")
                    except UnicodeDecodeError:
                        return 1
                _copy(hkdata + hkn, d + pos, hklen, end - pos)
                hkn += hklen
                pos += hklen
                o_hkoff[hcount] = <int32_t>hkn
                read_varint32(d, rend, &pos, &hvlen)
                if hvlen < 0:
                    if hvlen != -1:
                        _corrupt(f"negative header value length {hvlen}")
                    o_hvf[hcount] = 0
                    hval_nulls += 1
                else:
                    if hvlen > rend - pos:
                        _corrupt(f"header value length {hvlen} goes beyond its record")
                    _copy(hvdata + hvn, d + pos, hvlen, end - pos)
                    hvn += hvlen
                    pos += hvlen
                    o_hvf[hcount] = 1
                o_hvoff[hcount] = <int32_t>hvn
                hcount += 1
            if pos != rend:
                _corrupt(f"record declares {length} bytes but its fields take "
                         f"{length - (rend - pos)}")
            o_hl[i] = <int32_t>(nheaders + hcount)
            o_off[i] = <int64_t>(<uint64_t>bi.base_offset + <uint64_t><int64_t>off_delta)
            ts = bi.max_ts if log_append else <int64_t>(<uint64_t>bi.base_ts + <uint64_t>ts_delta)
            if -_TS_US_LIMIT <= ts <= _TS_US_LIMIT:
                o_ts[i] = ts * 1000
                o_tsf[i] = 1
                o_tst[i] = log_append
            else:
                o_ts[i] = 0
                o_tsf[i] = 0
                o_tst[i] = 0
                ts_nulls += 1
            o_seq[i] = _sequence(base_seq, off_delta)
        if pos != end:
            _corrupt(f"{end - pos} bytes left over after the batch's {count} records")
        # commit
        B[B_OFFSET].n += count * 8; B[B_TS].n += count * 8; B[B_TS_FLAG].n += count
        B[B_TSTYPE].n += count; B[B_KEY_OFF].n += count * 4; B[B_KEY_FLAG].n += count
        B[B_VAL_OFF].n += count * 4; B[B_VAL_FLAG].n += count; B[B_HLIST_OFF].n += count * 4
        B[B_SEQ].n += count * 4
        B[B_HKEY_OFF].n += hcount * 4; B[B_HVAL_OFF].n += hcount * 4; B[B_HVAL_FLAG].n += hcount
        B[B_KEY_DATA].n = kn; B[B_VAL_DATA].n = vn; B[B_HKEY_DATA].n = hkn
        B[B_HVAL_DATA].n = hvn
        self.nheaders = nheaders + hcount
        self.rows += count
        self.ts_nulls += ts_nulls; self.key_nulls += key_nulls; self.val_nulls += val_nulls
        self.hval_nulls += hval_nulls
        return 0

    cdef int end_batch(self) except -1:
        """Fill the columns that are constant over a batch for its rows."""
        cdef Py_ssize_t n = self.rows - self.batch_rows0
        cdef Py_ssize_t i, at, done, step
        cdef int codec = self.cur.attrs & 7
        cdef bytes raw = (_CODEC_NAMES[codec] if codec < 5 else _comp.codec_name(codec)
                          ).encode("ascii")
        cdef Py_ssize_t rl = len(raw)
        cdef const char *rp = PyBytes_AS_STRING(raw)
        cdef bint legacy = self.cur.magic < 2
        cdef uint8_t tx = 0 if legacy else (self.cur.attrs >> 4) & 1
        cdef uint8_t ctrl = 0 if legacy else (self.cur.attrs >> 5) & 1
        cdef CBuf *b = self.b
        cdef int32_t *ple
        cdef int64_t *pid
        cdef int16_t *ep
        cdef int32_t *co
        cdef char *cd
        if n == 0:
            return 0
        _reserve(&b[B_PLE], n * 4); _reserve(&b[B_PID], n * 8); _reserve(&b[B_EPOCH], n * 2)
        _reserve(&b[B_COMP_OFF], n * 4); _reserve(&b[B_COMP_DATA], n * rl)
        _reserve(&b[B_TX_BM], (self.rows + 7) // 8 - b[B_TX_BM].n)
        _reserve(&b[B_CTRL_BM], (self.rows + 7) // 8 - b[B_CTRL_BM].n)
        ple = <int32_t *>(b[B_PLE].p + b[B_PLE].n)
        pid = <int64_t *>(b[B_PID].p + b[B_PID].n)
        ep = <int16_t *>(b[B_EPOCH].p + b[B_EPOCH].n)
        co = <int32_t *>(b[B_COMP_OFF].p + b[B_COMP_OFF].n)
        cd = b[B_COMP_DATA].p + b[B_COMP_DATA].n
        at = b[B_COMP_DATA].n
        if at + n * rl > INT32_MAX:
            raise OverflowError("too many rows in one table")
        for i in range(n):
            ple[i] = self.cur.ple
            pid[i] = self.cur.pid
            ep[i] = self.cur.epoch
            co[i] = <int32_t>(at + (i + 1) * rl)
        # the codec name once, then copies of what is written, doubling
        memcpy(cd, rp, rl)
        done = rl
        while done < n * rl:
            step = done if done <= n * rl - done else n * rl - done
            memcpy(cd + done, cd, step)
            done += step
        _fill_bits(<uint8_t *>b[B_TX_BM].p, self.batch_rows0, n, tx)
        _fill_bits(<uint8_t *>b[B_CTRL_BM].p, self.batch_rows0, n, ctrl)
        b[B_PLE].n += n * 4; b[B_PID].n += n * 8; b[B_EPOCH].n += n * 2
        b[B_COMP_OFF].n += n * 4; b[B_COMP_DATA].n += n * rl
        b[B_TX_BM].n = (self.rows + 7) // 8; b[B_CTRL_BM].n = b[B_TX_BM].n
        return 0


cdef void _fill_bits(uint8_t *bm, Py_ssize_t start, Py_ssize_t n, bint on) noexcept nogil:
    """Set bits [start, start + n) of a bitmap to on, and the bits after them in their
    last byte to 0 (so a later call only has to set bits)."""
    cdef Py_ssize_t i = start, end = start + n
    while i < end and i & 7:  # the rest of a byte an earlier batch began
        if on:
            bm[i >> 3] |= <uint8_t>(1 << (i & 7))
        i += 1
    if i < end:
        memset(bm + (i >> 3), 0xFF if on else 0, (end - i + 7) >> 3)
        if on and end & 7:
            bm[end >> 3] = <uint8_t>((1 << (end & 7)) - 1)


cdef const void *_pack(CBuf *flags, CBuf *out, Py_ssize_t n) except? NULL:
    """Pack one-byte-per-row flags into an Arrow bitmap in ``out``."""
    cdef Py_ssize_t i
    cdef uint8_t *o
    cdef const uint8_t *f = <const uint8_t *>flags.p
    _reserve(out, (n + 7) // 8 + 1)
    o = <uint8_t *>out.p
    memset(o, 0, (n + 7) // 8 + 1)
    for i in range(n):
        if f[i]:
            o[i >> 3] |= <uint8_t>(1 << (i & 7))
    return o


cdef void _node(Export *e, int node, int64_t length, int64_t nulls, int nbuf,
                const void *b0, const void *b1, const void *b2) noexcept:
    cdef KwArrowArray *a = &e.nodes[node]
    a.length = length
    a.null_count = nulls
    a.offset = 0
    a.n_buffers = nbuf
    a.n_children = 0
    e.bufptrs[node][0] = b0
    e.bufptrs[node][1] = b1
    e.bufptrs[node][2] = b2
    a.buffers = e.bufptrs[node]
    a.children = NULL
    a.dictionary = NULL
    a.release = _release_child
    a.private_data = NULL


cdef object _SCHEMA = None
cdef object _import_batch = None
cdef object _from_batches = None


cdef object _export(_ArrowSink s):
    """Hand the sink's Export (the ArrowArray tree and its buffers) to pyarrow."""
    global _SCHEMA, _import_batch, _from_batches
    if _SCHEMA is None:
        import pyarrow as pa
        _SCHEMA = arrow_schema()
        _import_batch = pa.RecordBatch._import_from_c
        _from_batches = pa.Table.from_batches
    cdef Export *e = s.e
    cdef CBuf *b = e.bufs
    cdef int64_t n = s.rows, nh = s.nheaders
    cdef int i
    cdef const void *ts_bm = NULL
    cdef const void *key_bm = NULL
    cdef const void *val_bm = NULL
    cdef const void *hval_bm = NULL
    if s.ts_nulls:
        ts_bm = _pack(&b[B_TS_FLAG], &b[B_TS_BM], n)
    if s.key_nulls:
        key_bm = _pack(&b[B_KEY_FLAG], &b[B_KEY_BM], n)
    if s.val_nulls:
        val_bm = _pack(&b[B_VAL_FLAG], &b[B_VAL_BM], n)
    if s.hval_nulls:
        hval_bm = _pack(&b[B_HVAL_FLAG], &b[B_HVAL_BM], nh)
    s.e = NULL  # the ArrowArray's release frees it from here on
    s.b = NULL
    _node(e, N_OFFSET, n, 0, 2, NULL, b[B_OFFSET].p, NULL)
    _node(e, N_TS, n, s.ts_nulls, 2, ts_bm, b[B_TS].p, NULL)
    _node(e, N_TSTYPE, n, s.ts_nulls, 2, ts_bm, b[B_TSTYPE].p, NULL)
    _node(e, N_KEY, n, s.key_nulls, 3, key_bm, b[B_KEY_OFF].p, b[B_KEY_DATA].p)
    _node(e, N_VALUE, n, s.val_nulls, 3, val_bm, b[B_VAL_OFF].p, b[B_VAL_DATA].p)
    _node(e, N_HEADERS, n, 0, 2, NULL, b[B_HLIST_OFF].p, NULL)
    _node(e, N_HSTRUCT, nh, 0, 1, NULL, NULL, NULL)
    _node(e, N_HKEY, nh, 0, 3, NULL, b[B_HKEY_OFF].p, b[B_HKEY_DATA].p)
    _node(e, N_HVAL, nh, s.hval_nulls, 3, hval_bm, b[B_HVAL_OFF].p, b[B_HVAL_DATA].p)
    _node(e, N_PLE, n, 0, 2, NULL, b[B_PLE].p, NULL)
    _node(e, N_PID, n, 0, 2, NULL, b[B_PID].p, NULL)
    _node(e, N_EPOCH, n, 0, 2, NULL, b[B_EPOCH].p, NULL)
    _node(e, N_SEQ, n, 0, 2, NULL, b[B_SEQ].p, NULL)
    _node(e, N_TX, n, 0, 2, NULL, b[B_TX_BM].p, NULL)
    _node(e, N_CTRL, n, 0, 2, NULL, b[B_CTRL_BM].p, NULL)
    _node(e, N_COMP, n, 0, 3, NULL, b[B_COMP_OFF].p, b[B_COMP_DATA].p)
    _node(e, N_ROOT, n, 0, 1, NULL, NULL, NULL)
    # schema order: offset, timestamp, timestamp_type, key, value, headers, ple, pid,
    # producer_epoch, sequence, is_transactional, is_control, compression
    for i, node in enumerate((N_OFFSET, N_TS, N_TSTYPE, N_KEY, N_VALUE, N_HEADERS, N_PLE,
                              N_PID, N_EPOCH, N_SEQ, N_TX, N_CTRL, N_COMP)):
        e.root_kids[i] = &e.nodes[<int>node]
    e.nodes[N_ROOT].n_children = 13
    e.nodes[N_ROOT].children = e.root_kids
    e.list_kids[0] = &e.nodes[N_HSTRUCT]
    e.nodes[N_HEADERS].n_children = 1
    e.nodes[N_HEADERS].children = e.list_kids
    e.struct_kids[0] = &e.nodes[N_HKEY]
    e.struct_kids[1] = &e.nodes[N_HVAL]
    e.nodes[N_HSTRUCT].n_children = 2
    e.nodes[N_HSTRUCT].children = e.struct_kids
    e.nodes[N_ROOT].release = _release_root
    e.nodes[N_ROOT].private_data = e
    try:
        batch = _import_batch(<size_t>&e.nodes[N_ROOT], _SCHEMA)
    except BaseException:
        if e.nodes[N_ROOT].release != NULL:
            _release_root(&e.nodes[N_ROOT])
        raise
    return _from_batches([batch], _SCHEMA)


def to_arrow(buf, *, verify_crc=True, max_decompressed_size=_DEFAULT_MAX):
    """A ``pyarrow.Table`` with one row per record of ``buf``; the columns' buffers are
    filled directly and handed to Arrow through its C data interface, without a Python
    object per record."""
    cdef _Source src = _source(buf)
    cdef _ArrowSink s = _ArrowSink.__new__(_ArrowSink)
    cdef Py_ssize_t rows, data, hdrs
    if max_decompressed_size is None:
        max_decompressed_size = _DEFAULT_MAX
    _v2_bounds(src.data, src.size, &rows, &data, &hdrs)
    s.alloc(rows, data, hdrs)
    _emit_all(src, verify_crc, max_decompressed_size, s)
    return _export(s)


# -- encoding -----------------------------------------------------------------

cdef struct Item:
    int64_t offset
    int64_t ts
    const char *key
    Py_ssize_t klen
    const char *val
    Py_ssize_t vlen
    Py_ssize_t h0
    Py_ssize_t nh
    Py_ssize_t body


cdef struct HRef:
    const char *k
    Py_ssize_t kl
    const char *v
    Py_ssize_t vl


cdef class _Encoder:
    """Normalised records for one batch (v2) or message set (v0/v1): C arrays plus the
    objects they point into."""
    cdef Item *items
    cdef Py_ssize_t n, cap
    cdef HRef *hrefs
    cdef Py_ssize_t nh, hcap
    cdef list keep
    cdef int64_t now
    cdef bint has_now
    cdef int magic

    def __cinit__(self):
        self.items = NULL
        self.hrefs = NULL
        self.keep = []
        self.magic = 2

    def __dealloc__(self):
        free(self.items)
        free(self.hrefs)

    cdef int _grow(self) except -1:
        cdef Py_ssize_t cap = self.cap * 2 if self.cap else 16
        cdef Item *p = <Item *>realloc(self.items, cap * sizeof(Item))
        if p == NULL:
            raise MemoryError()
        self.items = p
        self.cap = cap
        return 0

    cdef int _hgrow(self) except -1:
        cdef Py_ssize_t cap = self.hcap * 2 if self.hcap else 16
        cdef HRef *p = <HRef *>realloc(self.hrefs, cap * sizeof(HRef))
        if p == NULL:
            raise MemoryError()
        self.hrefs = p
        self.hcap = cap
        return 0

    cdef const char *_data(self, object value, Py_ssize_t *size, str what) except? NULL:
        """Pointer to the bytes of value (None: NULL with size -1)."""
        if value is None:
            size[0] = -1
            return NULL
        if type(value) is not bytes:
            if isinstance(value, (bytearray, memoryview)):
                value = bytes(value)
            elif isinstance(value, str):
                value = (<str>value).encode("utf-8")
            elif isinstance(value, bytes):
                value = bytes(value)
            else:
                raise EncodeError(f"{what}: expected bytes or None, got "
                                  f"{type(value).__name__}")
            self.keep.append(value)
        size[0] = PyBytes_GET_SIZE(value)
        return PyBytes_AS_STRING(value)

    cdef const char *_hkey(self, object key, Py_ssize_t *size) except NULL:
        if type(key) is str:
            try:
                return PyUnicode_AsUTF8AndSize(key, size)
            except UnicodeEncodeError:
                key = (<str>key).encode("utf-8", "surrogateescape")
                self.keep.append(key)
        elif isinstance(key, (bytes, bytearray, memoryview)):
            key = bytes(key)
            self.keep.append(key)
        elif isinstance(key, str):
            key = str(key).encode("utf-8", "surrogateescape")
            self.keep.append(key)
        else:
            raise EncodeError(f"header key: expected str or bytes, got {type(key).__name__}")
        size[0] = PyBytes_GET_SIZE(key)
        return PyBytes_AS_STRING(key)

    cdef int add(self, object rec, int64_t base_offset) except -1:
        cdef Item *it
        cdef Record r
        cdef HRef *h
        cdef object key, value, headers, ts, offset
        if self.n == self.cap:
            self._grow()
        it = &self.items[self.n]
        if type(rec) is dict:
            key = (<dict>rec).get("key")
            value = (<dict>rec).get("value")
            headers = (<dict>rec).get("headers")
            ts = (<dict>rec).get("timestamp")
            offset = (<dict>rec).get("offset")
        elif type(rec) is Record:
            r = <Record>rec
            key = r.key
            value = r.value
            headers = r.headers
            ts = r.timestamp
            offset = r.offset
        elif isinstance(rec, dict):
            key = rec.get("key"); value = rec.get("value"); headers = rec.get("headers")
            ts = rec.get("timestamp"); offset = rec.get("offset")
        else:
            key = getattr(rec, "key", None); value = getattr(rec, "value", None)
            headers = getattr(rec, "headers", None); ts = getattr(rec, "timestamp", None)
            offset = getattr(rec, "offset", None)
        if offset is None:
            it.offset = self.items[self.n - 1].offset + 1 if self.n else base_offset
        else:
            if not isinstance(offset, int):
                raise EncodeError(f"record offset must be an int, got {offset!r}")
            try:
                it.offset = offset
            except OverflowError:
                raise EncodeError(f"record offset {offset} does not fit in int64") from None
            if self.n and it.offset <= self.items[self.n - 1].offset:
                raise EncodeError(f"record offsets must increase: {offset} after "
                                  f"{self.items[self.n - 1].offset}")
            if it.offset < base_offset:
                raise EncodeError(f"record offset {offset} is below base_offset {base_offset}")
        if self.magic == 2 and it.offset - base_offset > INT32_MAX:
            raise EncodeError(f"offset {it.offset} is too far from base_offset {base_offset}")
        if ts is None:
            if not self.has_now:
                self.now = int(_time.time() * 1000)
                self.has_now = True
            it.ts = self.now
        else:
            if not isinstance(ts, int):
                raise EncodeError(f"record timestamp must be an int (ms), got {ts!r}")
            try:
                it.ts = ts
            except OverflowError:
                raise EncodeError(f"record timestamp {ts} does not fit in int64") from None
        it.key = self._data(key, &it.klen, "key")
        it.val = self._data(value, &it.vlen, "value")
        it.h0 = self.nh
        it.nh = 0
        if headers:
            for pair in headers:
                try:
                    hk, hv = pair
                except (TypeError, ValueError):
                    raise EncodeError(f"a header must be a (key, value) pair, got {pair!r}") \
                        from None
                if self.nh == self.hcap:
                    self._hgrow()
                h = &self.hrefs[self.nh]
                h.k = self._hkey(hk, &h.kl)
                h.v = self._data(hv, &h.vl, "header value")
                self.nh += 1
                it.nh += 1
        if it.nh and self.magic != 2:
            self.nh = it.h0
            raise EncodeError(f"magic {self.magic} messages cannot carry headers")
        self.n += 1
        return 0


cdef inline int _zz32_size(int64_t v) noexcept:
    return uvarint_size(zigzag32(<int32_t>v))


cdef Py_ssize_t _body_size(Item *it, HRef *hrefs, int64_t base_offset,
                           int64_t base_ts) except -1:
    cdef Py_ssize_t size = 1
    cdef HRef *h
    cdef Py_ssize_t j
    cdef int64_t tsd = <int64_t>(<uint64_t>it.ts - <uint64_t>base_ts)
    if (it.ts >= 0 and base_ts < 0 and tsd < 0) or (it.ts < 0 and base_ts >= 0 and tsd >= 0):
        raise EncodeError(f"timestamp {it.ts} is too far from the base timestamp {base_ts}")
    size += uvarint_size(zigzag64(tsd))
    size += _zz32_size(it.offset - base_offset)
    size += _zz32_size(it.klen) + (it.klen if it.klen > 0 else 0)
    size += _zz32_size(it.vlen) + (it.vlen if it.vlen > 0 else 0)
    size += _zz32_size(it.nh)
    for j in range(it.h0, it.h0 + it.nh):
        h = &hrefs[j]
        size += _zz32_size(h.kl) + h.kl
        size += _zz32_size(h.vl) + (h.vl if h.vl > 0 else 0)
    if size > INT32_MAX:
        raise EncodeError("a record is larger than 2 GiB")
    return size


cdef inline Py_ssize_t _w32(uint8_t *o, int64_t v) noexcept:
    return write_uvarint(o, zigzag32(<int32_t>v))


cdef Py_ssize_t _write_record(uint8_t *o, Item *it, HRef *hrefs, int64_t base_offset,
                              int64_t base_ts) noexcept:
    cdef Py_ssize_t p = 0
    cdef HRef *h
    cdef Py_ssize_t j
    p += _w32(o, it.body)
    o[p] = 0
    p += 1
    p += write_uvarint(o + p, zigzag64(<int64_t>(<uint64_t>it.ts - <uint64_t>base_ts)))
    p += _w32(o + p, it.offset - base_offset)
    p += _w32(o + p, it.klen)
    if it.klen > 0:
        memcpy(o + p, it.key, it.klen)
        p += it.klen
    p += _w32(o + p, it.vlen)
    if it.vlen > 0:
        memcpy(o + p, it.val, it.vlen)
        p += it.vlen
    p += _w32(o + p, it.nh)
    for j in range(it.h0, it.h0 + it.nh):
        h = &hrefs[j]
        p += _w32(o + p, h.kl)
        memcpy(o + p, h.k, h.kl)
        p += h.kl
        p += _w32(o + p, h.vl)
        if h.vl > 0:
            memcpy(o + p, h.v, h.vl)
            p += h.vl
    return p


cdef bytes _encode_v2(_Encoder enc, int64_t base_offset, int codec, object level, int ts_bit,
                      int64_t producer_id, int16_t producer_epoch, int32_t base_sequence,
                      bint is_transactional, bint is_control, int32_t ple,
                      object delete_horizon_ms):
    cdef Py_ssize_t i, total = 0, p
    cdef int64_t base_ts, max_ts
    cdef int32_t last_delta
    cdef Item *it
    cdef bytes out
    cdef uint8_t *o
    cdef int16_t attrs
    cdef Py_ssize_t clen
    if enc.n:
        base_ts = enc.items[0].ts if delete_horizon_ms is None else delete_horizon_ms
        max_ts = enc.items[0].ts
        for i in range(1, enc.n):
            if enc.items[i].ts > max_ts:
                max_ts = enc.items[i].ts
        last_delta = <int32_t>(enc.items[enc.n - 1].offset - base_offset)
    else:
        base_ts = -1 if delete_horizon_ms is None else delete_horizon_ms
        max_ts = -1
        last_delta = 0
    for i in range(enc.n):
        it = &enc.items[i]
        it.body = _body_size(it, enc.hrefs, base_offset, base_ts)
        total += uvarint_size(zigzag32(<int32_t>it.body)) + it.body
    attrs = codec | (ts_bit << 3) | (TRANSACTIONAL_BIT if is_transactional else 0) | \
        (CONTROL_BIT if is_control else 0) | (DELETE_HORIZON_BIT if delete_horizon_ms is not None else 0)
    if codec == 0:
        if total > INT32_MAX - V2_HEADER_SIZE:
            raise EncodeError("a batch is larger than 2 GiB")
        out = PyBytes_FromStringAndSize(NULL, V2_HEADER_SIZE + total)
        o = <uint8_t *>PyBytes_AS_STRING(out)
        p = V2_HEADER_SIZE
        for i in range(enc.n):
            p += _write_record(o + p, &enc.items[i], enc.hrefs, base_offset, base_ts)
    else:
        body = PyBytes_FromStringAndSize(NULL, total)
        o = <uint8_t *>PyBytes_AS_STRING(body)
        p = 0
        for i in range(enc.n):
            p += _write_record(o + p, &enc.items[i], enc.hrefs, base_offset, base_ts)
        comp = _comp.compress(codec, body, level)
        clen = len(comp)
        if clen > INT32_MAX - V2_HEADER_SIZE:
            raise EncodeError("a batch is larger than 2 GiB")
        out = PyBytes_FromStringAndSize(NULL, V2_HEADER_SIZE + clen)
        o = <uint8_t *>PyBytes_AS_STRING(out)
        memcpy(o + V2_HEADER_SIZE, PyBytes_AS_STRING(comp), clen)
        total = clen
    with nogil:
        _write_v2_header(o, total, base_offset, ple, attrs, last_delta, base_ts, max_ts,
                         producer_id, producer_epoch, base_sequence, <int32_t>enc.n)
    return out


cdef void _write_v2_header(uint8_t *o, Py_ssize_t body, int64_t base_offset, int32_t ple,
                           int16_t attrs, int32_t last_delta, int64_t base_ts, int64_t max_ts,
                           int64_t producer_id, int16_t producer_epoch, int32_t base_sequence,
                           int32_t count) noexcept nogil:
    """The 61-byte v2 header at ``o``, ``body`` bytes of records after it, and the CRC."""
    store_be64(o, <uint64_t>base_offset)
    store_be32(o + 8, <uint32_t>(V2_HEADER_SIZE - LOG_OVERHEAD + body))
    store_be32(o + 12, <uint32_t>ple)
    o[16] = 2
    store_be16(o + 21, <uint16_t>attrs)
    store_be32(o + 23, <uint32_t>last_delta)
    store_be64(o + 27, <uint64_t>base_ts)
    store_be64(o + 35, <uint64_t>max_ts)
    store_be64(o + 43, <uint64_t>producer_id)
    store_be16(o + 51, <uint16_t>producer_epoch)
    store_be32(o + 53, <uint32_t>base_sequence)
    store_be32(o + 57, <uint32_t>count)
    store_be32(o + 17, crc32c_update(0, o + 21, V2_HEADER_SIZE + body - 21))


cdef _Encoder _normalize(object records, int64_t base_offset, int magic):
    cdef _Encoder enc = _Encoder.__new__(_Encoder)
    enc.magic = magic
    if type(records) is not list and type(records) is not tuple:
        records = list(records)
    enc.keep.append(records)
    for rec in records:
        enc.add(rec, base_offset)
    return enc


# -- legacy message sets (magic 0 and 1) --------------------------------------

# crc .. value length of one legacy message, magic 0 and 1 (the pure LEGACY_OVERHEAD).
cdef Py_ssize_t[2] LEGACY_OVERHEAD = [14, 22]


cdef inline Py_ssize_t _legacy_entry_size(int magic, Py_ssize_t klen, Py_ssize_t vlen) noexcept:
    """One log entry: offset, size, then the message (absent key/value: length -1)."""
    return LOG_OVERHEAD + LEGACY_OVERHEAD[magic] + (klen if klen > 0 else 0) + \
        (vlen if vlen > 0 else 0)


cdef Py_ssize_t _write_legacy(uint8_t *o, int64_t offset, int magic, uint8_t attrs, int64_t ts,
                              const char *key, Py_ssize_t klen, const char *val,
                              Py_ssize_t vlen) noexcept nogil:
    """Writes one log entry at ``o``; returns its size.  The CRC-32 covers magic to end."""
    cdef Py_ssize_t p = 18
    store_be64(o, <uint64_t>offset)
    o[16] = <uint8_t>magic
    o[17] = attrs
    if magic == 1:
        store_be64(o + 18, <uint64_t>ts)
        p = 26
    store_be32(o + p, <uint32_t><int32_t>klen)  # -1 (absent) is 0xFFFFFFFF
    p += 4
    if klen > 0:
        memcpy(o + p, key, klen)
        p += klen
    store_be32(o + p, <uint32_t><int32_t>vlen)
    p += 4
    if vlen > 0:
        memcpy(o + p, val, vlen)
        p += vlen
    store_be32(o + 8, <uint32_t>(p - LOG_OVERHEAD))
    store_be32(o + 12, crc32_update(0, o + 16, p - 16))
    return p


cdef bytes _write_legacy_set(_Encoder enc, int64_t base_offset, bint relative, uint8_t attrs):
    """Every record of ``enc`` as one message each (inner offsets relative to
    ``base_offset`` when ``relative``, as in a compressed v1 wrapper)."""
    cdef Py_ssize_t i, p = 0, total = 0
    cdef Item *it
    cdef bytes out
    cdef uint8_t *o
    for i in range(enc.n):
        it = &enc.items[i]
        total += _legacy_entry_size(enc.magic, it.klen, it.vlen)
        if it.klen > INT32_MAX or it.vlen > INT32_MAX or total > INT32_MAX:
            raise EncodeError("a message set is larger than 2 GiB")
    out = PyBytes_FromStringAndSize(NULL, total)
    o = <uint8_t *>PyBytes_AS_STRING(out)
    with nogil:
        for i in range(enc.n):
            it = &enc.items[i]
            p += _write_legacy(o + p, it.offset - base_offset if relative else it.offset,
                               enc.magic, attrs, it.ts, it.key, it.klen, it.val, it.vlen)
    return out


cdef bytes _encode_legacy(_Encoder enc, int64_t base_offset, int codec, object level,
                          int ts_bit):
    """A legacy message set: one message per record, or with a codec one wrapper message
    (offset: the last record's; v1 timestamp: the highest) whose value is the compressed
    inner set (v1 inner offsets relative to the base offset, as Kafka writes them)."""
    cdef int magic = enc.magic
    cdef int64_t wrapper_ts = -1
    cdef Py_ssize_t i, n
    cdef bytes payload, out
    if codec == _comp.ZSTD:
        raise EncodeError("zstd compression needs magic 2")
    if codec == 0:
        return _write_legacy_set(enc, base_offset, False, (ts_bit << 3) if magic == 1 else 0)
    if enc.n == 0:
        return b""
    payload = _comp.compress(codec, _write_legacy_set(enc, base_offset, magic == 1, 0), level,
                             magic=magic)
    if magic == 1:
        wrapper_ts = enc.items[0].ts
        for i in range(1, enc.n):
            if enc.items[i].ts > wrapper_ts:
                wrapper_ts = enc.items[i].ts
    n = PyBytes_GET_SIZE(payload)
    if n > INT32_MAX - LOG_OVERHEAD - LEGACY_OVERHEAD[magic]:
        raise EncodeError("a message set is larger than 2 GiB")
    out = PyBytes_FromStringAndSize(NULL, _legacy_entry_size(magic, -1, n))
    _write_legacy(<uint8_t *>PyBytes_AS_STRING(out), enc.items[enc.n - 1].offset, magic,
                  <uint8_t>(codec | ((ts_bit << 3) if magic == 1 else 0)), wrapper_ts, NULL, -1,
                  PyBytes_AS_STRING(payload), n)
    return out


cdef int _check_legacy_options(int magic, bint is_transactional, bint is_control,
                               object producer_id, object delete_horizon_ms) except -1:
    if is_transactional or is_control or producer_id != -1 or delete_horizon_ms is not None:
        raise EncodeError(f"magic {magic} messages have no producer or transaction fields")
    return 0


def encode_batch(records, *, magic=2, base_offset=0, compression="none",
                 compression_level=None, timestamp_type="create", producer_id=-1,
                 producer_epoch=-1, base_sequence=-1, is_transactional=False,
                 partition_leader_epoch=-1, is_control=False, delete_horizon_ms=None):
    """Encode ``records`` (Record objects or dicts with ``key``, ``value``,
    ``headers``, ``timestamp`` in ms (default: now) and an optional ``offset``) as one
    record batch (magic 2) or a legacy message set (magic 0/1; compressed as one
    wrapper message)."""
    cdef int codec = _comp.codec_id(compression)
    cdef int ts_bit = _common.timestamp_type_bit(timestamp_type)
    cdef _Encoder enc
    if magic not in (0, 1, 2):
        raise EncodeError(f"unknown magic {magic!r}; expected 0, 1 or 2")
    _common.check_int("base_offset", base_offset, 64)
    if magic != 2:
        enc = _normalize(records, base_offset, magic)
        _check_legacy_options(magic, is_transactional, is_control, producer_id,
                              delete_horizon_ms)
        return _encode_legacy(enc, base_offset, codec, compression_level, ts_bit)
    _common.check_int("producer_id", producer_id, 64)
    _common.check_int("producer_epoch", producer_epoch, 16)
    _common.check_int("base_sequence", base_sequence, 32)
    _common.check_int("partition_leader_epoch", partition_leader_epoch, 32)
    if delete_horizon_ms is not None:
        _common.check_int("delete_horizon_ms", delete_horizon_ms, 64)
    enc = _normalize(records, base_offset, 2)
    return _encode_v2(enc, base_offset, codec, compression_level, ts_bit, producer_id,
                      producer_epoch, base_sequence, is_transactional, is_control,
                      partition_leader_epoch, delete_horizon_ms)


def encode_control_batch(control_type, *, base_offset=0, producer_id, producer_epoch,
                         coordinator_epoch=0, timestamp=None, partition_leader_epoch=-1):
    """A transaction marker batch: one control record of type ``"commit"`` or
    ``"abort"`` (key: version 0 + type; value: version 0 + coordinator epoch)."""
    try:
        ctype = _common.CONTROL_TYPES[control_type]
    except (KeyError, TypeError):
        raise EncodeError(f"control_type must be 'commit' or 'abort', not {control_type!r}") \
            from None
    key = bytes((0, 0, 0, ctype))
    epoch = _common.check_int("coordinator_epoch", coordinator_epoch, 32)
    value = b"\x00\x00" + (epoch & 0xFFFFFFFF).to_bytes(4, "big")
    return encode_batch([{"key": key, "value": value, "timestamp": timestamp}],
                        base_offset=base_offset, producer_id=producer_id,
                        producer_epoch=producer_epoch, is_transactional=True, is_control=True,
                        partition_leader_epoch=partition_leader_epoch)


cdef object _as_bytes(object value, str what):
    """``value`` as a bytes object (or None), with encode_batch's rules."""
    if value is None or type(value) is bytes:
        return value
    if isinstance(value, (bytearray, memoryview, bytes)):
        return bytes(value)
    if isinstance(value, str):
        return (<str>value).encode("utf-8")
    raise EncodeError(f"{what}: expected bytes or None, got {type(value).__name__}")


cdef tuple _plain_headers(object headers):
    """``headers`` as a tuple of (bytes key, bytes-or-None value) pairs: the general case of
    BatchBuilder.append, for any iterable of any pairs (it may run the caller's code)."""
    out = []
    for pair in headers:
        try:
            hk, hv = pair
        except (TypeError, ValueError):
            raise EncodeError(f"a header must be a (key, value) pair, got {pair!r}") from None
        if isinstance(hk, str):
            hk = (<str>hk).encode("utf-8", "surrogateescape")
        elif isinstance(hk, (bytes, bytearray, memoryview)):
            hk = bytes(hk)
        else:
            raise EncodeError(f"header key: expected str or bytes, got {type(hk).__name__}")
        out.append((hk, _as_bytes(hv, "header value")))
    return tuple(out)


cdef class BatchBuilder:
    """Builds one batch record by record, for producers.

    :meth:`append` returns False (and keeps nothing) once the batch would pass
    ``max_bytes`` (counted uncompressed, so a compressed batch ends up smaller); the
    first record is always accepted, as in Kafka's producer.  :meth:`build` returns the
    encoded batch.

    Each appended record is written at once into one growing buffer (v2: its offset and
    timestamp deltas are known from the first record; v0/v1: each message is complete),
    so :meth:`build` only adds the header, or compresses.
    """
    cdef uint8_t *buf  # the records (v2) or messages (v0/v1), as they go on the wire
    cdef Py_ssize_t used, cap
    cdef HRef *hrefs  # one append's headers, reused
    cdef Py_ssize_t hcap
    cdef Py_ssize_t count
    cdef int64_t first_ts, max_ts
    cdef dict opts
    cdef readonly int magic
    cdef readonly int64_t base_offset
    cdef public Py_ssize_t max_bytes
    cdef Py_ssize_t size
    cdef int codec
    cdef uint8_t legacy_attrs

    def __cinit__(self, *args, **kwargs):
        self.buf = NULL
        self.hrefs = NULL

    def __dealloc__(self):
        free(self.buf)
        free(self.hrefs)

    def __init__(self, *, magic=2, base_offset=0, compression="none", compression_level=None,
                 timestamp_type="create", producer_id=-1, producer_epoch=-1, base_sequence=-1,
                 is_transactional=False, partition_leader_epoch=-1, max_bytes=1024 * 1024):
        if magic not in (0, 1, 2):
            raise EncodeError(f"unknown magic {magic!r}; expected 0, 1 or 2")
        self.opts = dict(magic=magic, base_offset=base_offset, compression=compression,
                         compression_level=compression_level, timestamp_type=timestamp_type,
                         producer_id=producer_id, producer_epoch=producer_epoch,
                         base_sequence=base_sequence, is_transactional=is_transactional,
                         partition_leader_epoch=partition_leader_epoch)
        _common.check_int("base_offset", base_offset, 64)
        if magic == 2:
            _common.check_int("producer_id", producer_id, 64)
            _common.check_int("producer_epoch", producer_epoch, 16)
            _common.check_int("base_sequence", base_sequence, 32)
            _common.check_int("partition_leader_epoch", partition_leader_epoch, 32)
        self.codec = _comp.codec_id(compression)
        ts_bit = _common.timestamp_type_bit(timestamp_type)
        self.magic = magic
        self.base_offset = base_offset
        self.max_bytes = max_bytes
        self.used = 0
        self.count = 0
        if magic == 2:
            self.size = V2_HEADER_SIZE
        else:  # a compressed set is one wrapper message around the others
            self.size = LOG_OVERHEAD + LEGACY_OVERHEAD[magic] if self.codec else 0
        # Uncompressed v1 messages carry the timestamp type; inner ones of a wrapper do not.
        self.legacy_attrs = (ts_bit << 3) if magic == 1 and not self.codec else 0

    @property
    def record_count(self):
        return self.count

    @property
    def size_in_bytes(self):
        """The batch's size so far, uncompressed."""
        return self.size

    cdef int _reserve(self, Py_ssize_t n) except -1:
        cdef Py_ssize_t cap
        cdef uint8_t *p
        if self.used + n <= self.cap:
            return 0
        if n > INT32_MAX - V2_HEADER_SIZE - self.used:
            raise EncodeError("a batch is larger than 2 GiB")
        cap = max(self.cap * 2, self.used + n, 4096)
        p = <uint8_t *>realloc(self.buf, cap)
        if p == NULL:
            raise MemoryError()
        self.buf = p
        self.cap = cap
        return 0

    cdef Py_ssize_t _collect_headers(self, object headers) except -2:
        """Points ``hrefs`` at the parts of ``headers`` (a list or tuple of exact
        (str|bytes, bytes|None) tuples); -1 if any is otherwise, so that the caller
        normalises them first.  Runs none of the caller's code, so the pointers stay valid."""
        cdef Py_ssize_t i, n = len(headers)
        cdef HRef *h
        cdef tuple pair
        cdef object hk, hv
        if n > self.hcap:
            h = <HRef *>realloc(self.hrefs, n * sizeof(HRef))
            if h == NULL:
                raise MemoryError()
            self.hrefs = h
            self.hcap = n
        for i in range(n):
            item = headers[i]
            if type(item) is not tuple or len(<tuple>item) != 2:
                return -1
            pair = <tuple>item
            hk = pair[0]
            hv = pair[1]
            h = &self.hrefs[i]
            if type(hk) is str:
                try:
                    h.k = PyUnicode_AsUTF8AndSize(hk, &h.kl)
                except UnicodeEncodeError:  # lone surrogates: the general path escapes them
                    return -1
            elif type(hk) is bytes:
                h.k = PyBytes_AS_STRING(hk)
                h.kl = PyBytes_GET_SIZE(hk)
            else:
                return -1
            if hv is None:
                h.v = NULL
                h.vl = -1
            elif type(hv) is bytes:
                h.v = PyBytes_AS_STRING(hv)
                h.vl = PyBytes_GET_SIZE(hv)
            else:
                return -1
        return n

    def append(self, key=None, value=None, headers=None, timestamp=None):
        """Add a record; False (nothing added) if it would pass ``max_bytes``."""
        cdef Item it
        cdef Py_ssize_t body, total
        cdef int64_t base_ts
        key = _as_bytes(key, "key")
        value = _as_bytes(value, "value")
        if timestamp is None:
            it.ts = int(_time.time() * 1000)
        elif not isinstance(timestamp, int):
            raise EncodeError(f"record timestamp must be an int (ms), got {timestamp!r}")
        else:
            try:
                it.ts = timestamp
            except OverflowError:
                raise EncodeError(f"record timestamp {timestamp} does not fit in int64") from None
        it.nh = 0
        it.h0 = 0
        if headers:
            if type(headers) is list or type(headers) is tuple:
                it.nh = self._collect_headers(headers)
            else:
                it.nh = -1
            if it.nh < 0:
                headers = _plain_headers(headers)
                it.nh = self._collect_headers(headers)
        if it.nh and self.magic != 2:
            raise EncodeError(f"magic {self.magic} messages cannot carry headers")
        if key is None:
            it.key = NULL
            it.klen = -1
        else:
            it.key = PyBytes_AS_STRING(key)
            it.klen = PyBytes_GET_SIZE(key)
        if value is None:
            it.val = NULL
            it.vlen = -1
        else:
            it.val = PyBytes_AS_STRING(value)
            it.vlen = PyBytes_GET_SIZE(value)
        # From here on no code of the caller's runs (the headers' iterator might have
        # appended records itself): the pointers above stay valid, the count is final.
        if self.base_offset > INT64_MAX - self.count:
            raise EncodeError(f"record offset {self.base_offset + self.count} does not fit in int64")
        it.offset = self.base_offset + self.count
        if self.magic != 2:
            if it.klen > INT32_MAX or it.vlen > INT32_MAX:
                raise EncodeError("a message is larger than 2 GiB")
            total = _legacy_entry_size(self.magic, it.klen, it.vlen)
        else:
            if self.count > INT32_MAX:
                raise EncodeError(f"offset {it.offset} is too far from base_offset {self.base_offset}")
            base_ts = self.first_ts if self.count else it.ts
            body = _body_size(&it, self.hrefs, self.base_offset, base_ts)
            it.body = body
            total = uvarint_size(zigzag32(<int32_t>body)) + body
        if self.count and self.size + total > self.max_bytes:
            return False
        self._reserve(total)
        if self.magic != 2:
            _write_legacy(self.buf + self.used,
                          it.offset - self.base_offset if self.magic == 1 and self.codec else it.offset,
                          self.magic, self.legacy_attrs, it.ts, it.key, it.klen, it.val, it.vlen)
        else:
            _write_record(self.buf + self.used, &it, self.hrefs, self.base_offset, base_ts)
        if self.count == 0:
            self.first_ts = it.ts
            self.max_ts = it.ts
        elif it.ts > self.max_ts:
            self.max_ts = it.ts
        self.used += total
        self.size += total
        self.count += 1
        return True

    def build(self):
        """The encoded batch."""
        o = self.opts
        cdef int ts_bit = _common.timestamp_type_bit(o["timestamp_type"])
        cdef bytes out, payload
        cdef uint8_t *p
        cdef Py_ssize_t body
        cdef int16_t attrs
        if self.magic != 2:
            _check_legacy_options(self.magic, o["is_transactional"], False, o["producer_id"], None)
            return self._build_legacy(o["compression_level"], ts_bit)
        attrs = self.codec | (ts_bit << 3) | (TRANSACTIONAL_BIT if o["is_transactional"] else 0)
        if self.codec:
            payload = _comp.compress(self.codec, self._records(), o["compression_level"])
            body = PyBytes_GET_SIZE(payload)
            if body > INT32_MAX - V2_HEADER_SIZE:
                raise EncodeError("a batch is larger than 2 GiB")
        else:
            body = self.used
        out = PyBytes_FromStringAndSize(NULL, V2_HEADER_SIZE + body)
        p = <uint8_t *>PyBytes_AS_STRING(out)
        if self.codec:
            memcpy(p + V2_HEADER_SIZE, PyBytes_AS_STRING(payload), body)
        elif body:
            memcpy(p + V2_HEADER_SIZE, self.buf, body)
        cdef int64_t base_ts = self.first_ts if self.count else -1
        cdef int64_t max_ts = self.max_ts if self.count else -1
        cdef int32_t last_delta = <int32_t>(self.count - 1) if self.count else 0
        cdef int64_t pid = o["producer_id"]
        cdef int16_t epoch = o["producer_epoch"]
        cdef int32_t seq = o["base_sequence"]
        cdef int32_t ple = o["partition_leader_epoch"]
        with nogil:
            _write_v2_header(p, body, self.base_offset, ple, attrs, last_delta, base_ts, max_ts,
                             pid, epoch, seq, <int32_t>self.count)
        return out

    cdef bytes _records(self):
        return PyBytes_FromStringAndSize(<char *>self.buf, self.used)

    cdef bytes _build_legacy(self, object level, int ts_bit):
        cdef bytes payload, out
        cdef Py_ssize_t n
        cdef int magic = self.magic
        if self.codec == _comp.ZSTD:
            raise EncodeError("zstd compression needs magic 2")
        if not self.codec:
            return self._records()
        if self.count == 0:
            return b""
        payload = _comp.compress(self.codec, self._records(), level, magic=magic)
        n = PyBytes_GET_SIZE(payload)
        if n > INT32_MAX - LOG_OVERHEAD - LEGACY_OVERHEAD[magic]:
            raise EncodeError("a message set is larger than 2 GiB")
        out = PyBytes_FromStringAndSize(NULL, _legacy_entry_size(magic, -1, n))
        _write_legacy(<uint8_t *>PyBytes_AS_STRING(out), self.base_offset + self.count - 1, magic,
                      <uint8_t>(self.codec | ((ts_bit << 3) if magic == 1 else 0)),
                      self.max_ts if magic == 1 else -1, NULL, -1, PyBytes_AS_STRING(payload), n)
        return out
