# The Arrow builders both value decoders (avro.pyx, protobuf.pyx) fill: one per array of
# a layout (kafkawire.avro.plan), its values, one validity byte per value and int32
# offsets in buffers from Python's raw allocator (tracemalloc sees them), handed to
# pyarrow without a copy (kafkawire.avro.arrow).  Included, not imported: each decoder
# inlines them.

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
