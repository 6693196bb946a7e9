# Part of kafkawire._fast.records (included by records.pyx): record batches straight from
# Arrow columns (encode_arrow_batches) and Kafka's key partitioner over a key column
# (arrow_key_partitions), for producers that are handed Arrow data: no Python object a record.

cdef class _BinaryColumn:
    """A pyarrow binary or string array read through its buffers (the array is held)."""
    cdef object array
    cdef Py_buffer vbuf, obuf, dbuf
    cdef bint has_v, has_o, has_d
    cdef const uint8_t *valid  # NULL when the array has no null
    cdef const int32_t *offsets
    cdef const char *data
    cdef Py_ssize_t start, length

    def __dealloc__(self):
        if self.has_v:
            PyBuffer_Release(&self.vbuf)
        if self.has_o:
            PyBuffer_Release(&self.obuf)
        if self.has_d:
            PyBuffer_Release(&self.dbuf)

    cdef inline bint is_null(self, Py_ssize_t i) noexcept:
        cdef Py_ssize_t j = self.start + i
        return self.valid != NULL and not (self.valid[j >> 3] >> (j & 7)) & 1

    cdef inline const char *value(self, Py_ssize_t i, Py_ssize_t *size) noexcept:
        """Row ``i``'s bytes (NULL with size -1 for a null)."""
        cdef Py_ssize_t j = self.start + i
        if self.is_null(i):
            size[0] = -1
            return NULL
        size[0] = self.offsets[j + 1] - self.offsets[j]
        return self.data + self.offsets[j] if self.data != NULL else <const char *>""


cdef _BinaryColumn _binary_column(object array, str what):
    cdef _BinaryColumn col = _BinaryColumn.__new__(_BinaryColumn)
    _common.check_arrow_binary(array, what)
    bufs = array.buffers()
    col.array = array
    col.start = array.offset
    col.length = len(array)
    if array.null_count and bufs[0] is not None:
        PyObject_GetBuffer(bufs[0], &col.vbuf, PyBUF_SIMPLE)
        col.has_v = True
        col.valid = <const uint8_t *>col.vbuf.buf
    if col.length:  # an empty array may have no offsets
        PyObject_GetBuffer(bufs[1], &col.obuf, PyBUF_SIMPLE)
        col.has_o = True
        col.offsets = <const int32_t *>col.obuf.buf
    if bufs[2] is not None:
        PyObject_GetBuffer(bufs[2], &col.dbuf, PyBUF_SIMPLE)
        col.has_d = True
        col.data = <const char *>col.dbuf.buf
    return col


cdef class _HeaderColumn:
    """A pyarrow list<struct<key, value>> array of record headers, through its buffers."""
    cdef object array
    cdef Py_buffer lvbuf, lobuf, svbuf
    cdef bint has_lv, has_lo, has_sv
    cdef const uint8_t *list_valid  # NULL when no row's list is null
    cdef const int32_t *list_offsets
    cdef const uint8_t *struct_valid  # NULL when no header is null
    cdef Py_ssize_t list_start, struct_start
    cdef _BinaryColumn keys, values

    def __dealloc__(self):
        if self.has_lv:
            PyBuffer_Release(&self.lvbuf)
        if self.has_lo:
            PyBuffer_Release(&self.lobuf)
        if self.has_sv:
            PyBuffer_Release(&self.svbuf)


cdef _HeaderColumn _header_column(object array):
    cdef _HeaderColumn col = _HeaderColumn.__new__(_HeaderColumn)
    entries, hkeys, hvalues = _common.arrow_header_parts(array)
    col.array = array
    col.list_start = array.offset
    bufs = array.buffers()
    if array.null_count and bufs[0] is not None:
        PyObject_GetBuffer(bufs[0], &col.lvbuf, PyBUF_SIMPLE)
        col.has_lv = True
        col.list_valid = <const uint8_t *>col.lvbuf.buf
    if len(array):  # an empty array may have no offsets
        PyObject_GetBuffer(bufs[1], &col.lobuf, PyBUF_SIMPLE)
        col.has_lo = True
        col.list_offsets = <const int32_t *>col.lobuf.buf
    col.struct_start = entries.offset
    sbufs = entries.buffers()
    if entries.null_count and sbufs[0] is not None:
        PyObject_GetBuffer(sbufs[0], &col.svbuf, PyBUF_SIMPLE)
        col.has_sv = True
        col.struct_valid = <const uint8_t *>col.svbuf.buf
    col.keys = _binary_column(hkeys, "header key")
    col.values = _binary_column(hvalues, "header value")
    return col


cdef int _add_arrow_row(_Encoder enc, Py_ssize_t i, int64_t offset, int64_t ts,
                        _BinaryColumn keys, _BinaryColumn values,
                        _HeaderColumn headers) except -1:
    """Row ``i`` of the columns as the encoder's next item (pointers into the Arrow
    buffers, which the columns hold)."""
    cdef Item *it
    cdef HRef *h
    cdef Py_ssize_t j, e, first, last
    if enc.n == enc.cap:
        enc._grow()
    it = &enc.items[enc.n]
    it.offset = offset
    it.ts = ts
    it.kobj = NULL
    it.vobj = NULL
    if keys is None:
        it.key = NULL
        it.klen = -1
    else:
        it.key = keys.value(i, &it.klen)
    it.val = values.value(i, &it.vlen)
    it.h0 = enc.nh
    it.nh = 0
    j = headers.list_start + i if headers is not None else 0
    if headers is not None and not (headers.list_valid != NULL
                                    and not (headers.list_valid[j >> 3] >> (j & 7)) & 1):
        first = headers.list_offsets[j]
        last = headers.list_offsets[j + 1]
        for e in range(first, last):
            if headers.struct_valid != NULL and not (
                    headers.struct_valid[(headers.struct_start + e) >> 3]
                    >> ((headers.struct_start + e) & 7)) & 1:
                enc._drop_headers(it.h0)
                raise EncodeError(_common.NULL_HEADER)
            if enc.nh == enc.hcap:
                enc._hgrow()
            h = &enc.hrefs[enc.nh]
            h.kobj = NULL
            h.vobj = NULL
            h.k = headers.keys.value(e, &h.kl)
            if h.k == NULL:
                enc._drop_headers(it.h0)
                raise EncodeError(_common.NULL_HEADER_KEY)
            h.v = headers.values.value(e, &h.vl)
            enc.nh += 1
            it.nh += 1
    enc.n += 1
    return 0


cdef Py_ssize_t _estimate(Item *it, HRef *hrefs) noexcept:
    """A record's size as producers count it against the batch size (the pure backend's
    _record_estimate)."""
    cdef Py_ssize_t size = RECORD_ESTIMATE + (it.klen if it.klen > 0 else 0) + \
        (it.vlen if it.vlen > 0 else 0)
    cdef Py_ssize_t j
    for j in range(it.h0, it.h0 + it.nh):
        size += HEADER_ESTIMATE + hrefs[j].kl + (hrefs[j].vl if hrefs[j].vl > 0 else 0)
    return size


def encode_arrow_batches(keys, values, headers=None, *, max_bytes, timestamp,
                         compression="none", producer_id=-1, producer_epoch=-1,
                         base_sequence=-1):
    """The rows of Arrow columns as record batches of at most ``max_bytes`` (as
    producers count record sizes; a batch holds at least one record), in row order:
    a list of (batch, record count).  ``keys`` (or None: no keys) and ``values`` are
    binary or string arrays, ``headers`` a list<struct<key, value>> array (or None);
    every record gets ``timestamp``, and each batch's base sequence follows the last
    one's records."""
    cdef _BinaryColumn kcol = _binary_column(keys, "key") if keys is not None else None
    cdef _BinaryColumn vcol = _binary_column(values, "value")
    cdef _HeaderColumn hcol = _header_column(headers) if headers is not None else None
    cdef int codec = _comp.codec_id(compression)
    cdef Py_ssize_t n = vcol.length, i = 0, start, size, limit
    cdef int64_t ts
    cdef int32_t seq
    cdef _Encoder enc
    cdef list out = []
    _common.check_int("timestamp", timestamp, 64)
    _common.check_int("producer_id", producer_id, 64)
    _common.check_int("producer_epoch", producer_epoch, 16)
    _common.check_int("base_sequence", base_sequence, 32)
    _common.check_arrow_lengths(n, keys, headers)
    ts = timestamp
    seq = base_sequence
    limit = max_bytes
    while i < n:
        enc = _Encoder.__new__(_Encoder)
        enc.keep.append((keys, values, headers))
        start = i
        size = V2_HEADER_SIZE
        while i < n:
            _add_arrow_row(enc, i, i - start, ts, kcol, vcol, hcol)
            size += _estimate(&enc.items[enc.n - 1], enc.hrefs)
            if size > limit and i > start:  # this record opens the next batch
                enc._drop_headers(enc.items[enc.n - 1].h0)
                enc.n -= 1
                break
            i += 1
        out.append((_encode_v2(enc, 0, codec, None, 0, producer_id, producer_epoch, seq,
                               False, False, -1, None), i - start))
        seq = _sequence(seq, <int32_t>(i - start))
    return out


def arrow_key_partitions(keys, partitions):
    """The partition Kafka's default partitioner gives each key of a binary or string
    Arrow array among ``partitions``, -1 for a null key: native int32s, one a row."""
    cdef _BinaryColumn col = _binary_column(keys, "key")
    cdef int32_t count = _common.check_partition_count(partitions)
    cdef bytes out = PyBytes_FromStringAndSize(NULL, col.length * 4)
    cdef int32_t *o = <int32_t *>PyBytes_AS_STRING(out)
    cdef Py_ssize_t i, size
    cdef const char *p
    for i in range(col.length):
        p = col.value(i, &size)
        if p == NULL:
            o[i] = -1
        else:
            o[i] = <int32_t>((murmur2_hash(<const unsigned char *>p, size) & 0x7FFFFFFFU)
                             % <uint32_t>count)
    return out
