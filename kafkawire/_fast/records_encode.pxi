# Part of kafkawire._fast.records (included by records.pyx): the record batch (magic 2) encoder.

# -- encoding -----------------------------------------------------------------

cdef struct Item:
    int64_t offset
    int64_t ts
    const char *key
    Py_ssize_t klen
    const char *val
    Py_ssize_t vlen
    PyObject *kobj  # key and val point into these (references held until written)
    PyObject *vobj
    Py_ssize_t h0
    Py_ssize_t nh
    Py_ssize_t body


cdef struct HRef:
    const char *k
    Py_ssize_t kl
    const char *v
    Py_ssize_t vl
    PyObject *kobj  # k and v point into these (references held until written)
    PyObject *vobj


cdef int _check_record_fields(dict rec) except -1:
    """Raise unless every key of ``rec`` is a record field: it has as many keys as
    fields.  The records' own keys are looked up, not the shared RECORD_FIELDS set:
    a free-threaded CPython 3.13 locks a set (frozen or not) for each membership test,
    and threads encoding at once would fight over that lock's cache line."""
    if len(rec) != ("key" in rec) + ("value" in rec) + ("headers" in rec) + \
            ("timestamp" in rec) + ("offset" in rec):
        raise _common.unknown_record_fields(rec)
    return 0


cdef class _Encoder:
    """Normalised records for one batch (v2) or message set (v0/v1): C arrays plus the
    objects they point into.  Each item and header holds a reference to the objects its
    pointers read, so a record changed meanwhile (by a later record's property, or
    another thread) cannot free them before they are written."""
    # items and hrefs come from the interpreter's allocator: freed after each batch, the
    # ~130 KB for 1000 records went back to the kernel from glibc's malloc (free trims
    # its heap's top over 128 KiB), so every call faulted its pages in again; a
    # free-threaded build's allocator keeps them in the thread's heap for the next one
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
        cdef Py_ssize_t i
        for i in range(self.n):
            Py_XDECREF(self.items[i].kobj)
            Py_XDECREF(self.items[i].vobj)
        self._drop_headers(0)
        PyMem_Free(self.items)
        PyMem_Free(self.hrefs)

    cdef int _grow(self) except -1:
        cdef Py_ssize_t cap = self.cap * 2 if self.cap else 16
        cdef Item *p = <Item *>PyMem_Realloc(self.items, cap * sizeof(Item))
        if p == NULL:
            raise MemoryError()
        self.items = p
        self.cap = cap
        return 0

    cdef void _drop_headers(self, Py_ssize_t h0) noexcept:
        """Release the headers from ``h0`` on and forget them."""
        cdef Py_ssize_t j
        for j in range(h0, self.nh):
            Py_XDECREF(self.hrefs[j].kobj)
            Py_XDECREF(self.hrefs[j].vobj)
        self.nh = h0

    cdef int _hgrow(self) except -1:
        cdef Py_ssize_t cap = self.hcap * 2 if self.hcap else 16
        cdef HRef *p = <HRef *>PyMem_Realloc(self.hrefs, cap * sizeof(HRef))
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
            if len(<dict>rec) != (key is not None) + (value is not None) + \
                    (headers is not None) + (ts is not None) + (offset is not None):
                _check_record_fields(<dict>rec)
        elif type(rec) is Record:
            r = <Record>rec
            key = r.key
            value = r.value
            headers = r.headers
            ts = r.timestamp
            offset = r.offset
        elif isinstance(rec, dict):
            if not rec.keys() <= _RECORD_FIELDS:
                raise _common.unknown_record_fields(rec)
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
                Py_INCREF(hk)
                h.kobj = <PyObject *>hk
                Py_INCREF(hv)
                h.vobj = <PyObject *>hv
                self.nh += 1
                it.nh += 1
        if it.nh and self.magic != 2:
            self._drop_headers(it.h0)
            raise EncodeError(f"magic {self.magic} messages cannot carry headers")
        Py_INCREF(key)
        it.kobj = <PyObject *>key
        Py_INCREF(value)
        it.vobj = <PyObject *>value
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
