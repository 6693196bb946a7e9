# Part of kafkawire._fast.records (included by records.pyx): records and the parser that hands them to a sink.

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
    cdef bint log_append = (b.attrs & TIMESTAMP_TYPE_BIT) != 0
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
    cdef int codec = b.attrs & COMPRESSION_MASK
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
    codec = m.attrs & COMPRESSION_MASK
    tstype = -1 if m.magic == 0 else (1 if m.attrs & TIMESTAMP_TYPE_BIT else 0)
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
            if im.attrs & COMPRESSION_MASK:
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
        log_append = m.magic == 1 and (m.attrs & TIMESTAMP_TYPE_BIT) != 0
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
