# What both value decoders (avro.pyx, protobuf.pyx) share: the Arrow builders they fill,
# one per array of a layout (kafkawire.avro.plan), its values, one validity byte per
# value and int32 offsets in buffers from Python's raw allocator (tracemalloc sees
# them), handed to pyarrow without a copy (kafkawire.avro.arrow); and the walk over a
# binary column's rows (_decode_rows), which hands each value's bytes to the format's
# _Rows.  The twin of kafkawire._pure.arrow_builders.  Included, not imported: each
# decoder inlines them (the includer cimports what they use and imports the errors).

cdef enum:
    B_NULL, B_FIXED, B_VAR, B_LIST, B_MAP, B_STRUCT

cdef struct GBuf:
    char *p
    Py_ssize_t n
    Py_ssize_t cap


cdef struct Col:
    int kind
    int width
    int nkids
    int kids[2]  # a list's item; a map's key and value (a struct's are in struct_kids)
    int *struct_kids
    GBuf data
    GBuf valid
    GBuf offs
    Py_ssize_t nulls


cdef int _truncated(str what, Py_ssize_t pos) except -1:
    raise TruncatedPayloadError(f"the value ends inside {what} at byte {pos}")


cdef int _bad(str why) except -1:
    raise PayloadDecodeError(why)


cdef int _reserve(GBuf *g, Py_ssize_t extra) except -1:
    cdef Py_ssize_t cap
    cdef char *p
    if g.n + extra <= g.cap:
        return 0
    cap = g.cap * 2 if g.cap else 256
    while cap < g.n + extra:
        cap *= 2
    p = <char *>realloc(g.p, cap)
    if p == NULL:
        raise MemoryError(f"no memory for a builder of {cap} bytes")
    g.p = p
    g.cap = cap
    return 0


cdef inline int _put(GBuf *g, const void *src, Py_ssize_t n) except -1:
    if g.n + n > g.cap:
        _reserve(g, n)
    memcpy(g.p + g.n, src, n)
    g.n += n
    return 0


cdef inline int _put1(GBuf *g, char v) except -1:
    if g.n + 1 > g.cap:
        _reserve(g, 1)
    g.p[g.n] = v
    g.n += 1
    return 0


cdef inline int _put_i32(GBuf *g, int32_t v) except -1:
    return _put(g, &v, 4)


cdef inline int _put8(GBuf *g, const void *src) except -1:
    if g.n + 8 > g.cap:
        _reserve(g, 8)
    (<uint64_t *>(g.p + g.n))[0] = (<const uint64_t *>src)[0]
    g.n += 8
    return 0


cdef inline int _put4(GBuf *g, const void *src) except -1:
    if g.n + 4 > g.cap:
        _reserve(g, 4)
    (<uint32_t *>(g.p + g.n))[0] = (<const uint32_t *>src)[0]
    g.n += 4
    return 0


cdef inline int _put_var(Col *c, const void *src, Py_ssize_t n) except -1:
    """One value of a variable-width builder (bytes, a string): its bytes and its end."""
    if c.data.n + n > INT32_MAX:  # past what the int32 offsets can point to
        _bad("over 2 GiB of bytes in one column of one batch")
    _put(&c.data, src, n)
    _put_i32(&c.offs, <int32_t>c.data.n)
    _put1(&c.valid, 1)
    return 0


cdef inline int _end_list(Col *cols, Col *c) except -1:
    """A list or map value closed: its items are those its item builder took since it began."""
    _put_i32(&c.offs, <int32_t>cols[c.kids[0]].valid.n)
    _put1(&c.valid, 1)
    return 0


cdef class _Owned:
    """A builder buffer handed to pyarrow: freed when the last array using it goes."""
    cdef char *p
    cdef Py_ssize_t n

    def __getbuffer__(self, Py_buffer *view, int flags):
        PyBuffer_FillInfo(view, self, self.p, self.n, 1, flags)

    def __releasebuffer__(self, Py_buffer *view):
        pass

    def __len__(self):
        return self.n

    def __dealloc__(self):
        free(self.p)


cdef _Owned _own(GBuf *g):
    cdef _Owned o = _Owned.__new__(_Owned)
    if g.p == NULL:  # never a NULL address for pyarrow, even for no bytes
        _reserve(g, 1)
    o.p = g.p
    o.n = g.n
    g.p = NULL
    g.n = g.cap = 0
    return o


cdef class _Builders:
    """The builders of one call, freed whole unless handed over."""
    cdef Col *cols
    cdef int ncols
    cdef int *kid_store

    def __dealloc__(self):
        cdef int i
        if self.cols != NULL:
            for i in range(self.ncols):
                free(self.cols[i].data.p)
                free(self.cols[i].valid.p)
                free(self.cols[i].offs.p)
            free(self.cols)
        free(self.kid_store)


cdef int _fill(Col *cols, int b, char valid) except -1:
    cdef Col *c = &cols[b]
    cdef int k
    if c.kind == B_NULL:
        valid = 0
    _put1(&c.valid, valid)
    if not valid:
        c.nulls += 1
    if c.kind == B_FIXED:
        _reserve(&c.data, c.width)
        memset(c.data.p + c.data.n, 0, c.width)
        c.data.n += c.width
    elif c.kind == B_VAR:
        _put_i32(&c.offs, <int32_t>c.data.n)
    elif c.kind == B_LIST or c.kind == B_MAP:
        _put_i32(&c.offs, <int32_t>cols[c.kids[0]].valid.n)
    elif c.kind == B_STRUCT:
        for k in range(c.nkids):
            _fill(cols, c.struct_kids[k], 1)
    return 0


cdef _Builders _builders(layout, Py_ssize_t count):
    """The builders of ``layout`` (kind, width, kids per builder), the ones that take
    one value per row sized for ``count`` rows."""
    cdef _Builders bs = _Builders.__new__(_Builders)
    cdef Py_ssize_t total_kids = 0
    cdef int j, k
    cdef Col *col
    bs.ncols = len(layout)
    bs.cols = <Col *>malloc(sizeof(Col) * bs.ncols)
    if bs.cols == NULL:
        raise MemoryError()
    memset(bs.cols, 0, sizeof(Col) * bs.ncols)
    for _kind, _width, kids in layout:
        total_kids += len(kids)
    bs.kid_store = <int *>malloc(sizeof(int) * (total_kids + 1))
    if bs.kid_store == NULL:
        raise MemoryError()
    total_kids = 0
    for j, (kind, width, kids) in enumerate(layout):
        col = &bs.cols[j]
        col.kind = kind
        col.width = width
        col.nkids = len(kids)
        col.struct_kids = bs.kid_store + total_kids
        for k, kid in enumerate(kids):
            bs.kid_store[total_kids] = kid
            total_kids += 1
            if k < 2:
                col.kids[k] = kid
        if kind == B_VAR or kind == B_LIST or kind == B_MAP:
            _put_i32(&col.offs, 0)
    # the builders that take one value per row (the root and its struct fields, theirs
    # in turn; parents before their kids) are sized once: no regrowth
    per_row = [False] * bs.ncols
    if bs.ncols:
        per_row[0] = True
    for j, (kind, width, kids) in enumerate(layout):
        if per_row[j]:
            col = &bs.cols[j]
            _reserve(&col.valid, count)
            if kind == B_FIXED:
                _reserve(&col.data, count * width)
            elif kind != B_NULL and kind != B_STRUCT:
                _reserve(&col.offs, count * 4 + 4)
            if kind == B_STRUCT:
                for kid in kids:
                    per_row[kid] = True
    return bs


cdef list _handed_over(_Builders bs):
    """Each builder's (data, validity bytes, offsets, null count), its buffers now pyarrow's."""
    cdef int j
    return [(_own(&bs.cols[j].data), _own(&bs.cols[j].valid), _own(&bs.cols[j].offs), bs.cols[j].nulls)
            for j in range(bs.ncols)]


cdef class _Rows:
    """How a format reads one row's value into the builders: :func:`_decode_rows` calls
    ``value`` with the bytes of each row that is not null, its framing header read."""

    cdef int value(self, Col *cols, const uint8_t *buf, Py_ssize_t pos, Py_ssize_t end,
                   long long schema_id) except -1:
        raise NotImplementedError


cdef list _decode_rows(_Rows rows, Py_ssize_t count, Py_ssize_t array_offset, validity, offsets, data,
                       layout, bint framed):
    """The builders of ``layout`` (handed over) filled from ``count`` values of an Arrow
    binary column (its validity bitmap or None, int32 offsets and data, from
    ``array_offset``): a null value is a null row; a framed value's magic byte is checked
    and its schema id read (-1 unframed).  An error carries its row (from 0) in ``row``."""
    cdef _Builders bs = _builders(layout, count)
    cdef Py_buffer vview, oview, dview
    cdef bint have_v = False, have_o = False, have_d = False
    cdef const uint8_t *bits = NULL
    cdef const int32_t *offs
    cdef const uint8_t *buf
    cdef Py_ssize_t i, row, pos, end
    cdef long long schema_id = -1
    try:
        if validity is not None:
            PyObject_GetBuffer(validity, &vview, PyBUF_SIMPLE)
            have_v = True
            bits = <const uint8_t *>vview.buf
        PyObject_GetBuffer(offsets, &oview, PyBUF_SIMPLE)
        have_o = True
        offs = <const int32_t *>oview.buf
        PyObject_GetBuffer(data, &dview, PyBUF_SIMPLE)
        have_d = True
        buf = <const uint8_t *>dview.buf
        if (array_offset + count + 1) * 4 > oview.len:
            raise ValueError("the offsets buffer is shorter than the column")
        for i in range(count):
            row = array_offset + i
            try:
                if bits != NULL and not ((bits[row >> 3] >> (row & 7)) & 1):
                    _fill(bs.cols, 0, 0)
                    continue
                pos = offs[row]
                end = offs[row + 1]
                if pos < 0 or end < pos or end > dview.len:
                    raise ValueError(f"row {row}: offsets outside the data buffer")
                if framed:
                    if end - pos < 5:
                        if end > pos and buf[pos] != 0:
                            raise BadMagicByteError(f"magic byte {buf[pos]}, expected 0")
                        raise TruncatedPayloadError(
                            f"a framed value of {end - pos} bytes, shorter than its 5-byte header")
                    if buf[pos] != 0:
                        raise BadMagicByteError(f"magic byte {buf[pos]}, expected 0")
                    schema_id = ((<uint32_t>buf[pos + 1] << 24) | (<uint32_t>buf[pos + 2] << 16)
                                 | (<uint32_t>buf[pos + 3] << 8) | <uint32_t>buf[pos + 4])
                    pos += 5
                rows.value(bs.cols, buf, pos, end, schema_id)
            except Exception as exc:
                if not hasattr(exc, "row"):
                    exc.row = i
                raise
    finally:
        if have_v:
            PyBuffer_Release(&vview)
        if have_o:
            PyBuffer_Release(&oview)
        if have_d:
            PyBuffer_Release(&dview)
    return _handed_over(bs)
