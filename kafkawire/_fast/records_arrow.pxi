# Part of kafkawire._fast.records (included by records.pyx): to_arrow() and its sink.

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
    Py_ssize_t block_size  # of the block e starts, for _block_give


cdef void _free_export(Export *e) noexcept nogil:
    """Give back the buffers that outgrew e's block, then the block (e itself)."""
    cdef int i
    for i in range(NBUF):
        if e.bufs[i].owned:
            _block_give(e.bufs[i].p, e.bufs[i].cap)
    _block_give(e, e.block_size)


# -- blocks kept for the next table ---------------------------------------------------
#
# The pages of a fresh block fault in one by one as they are first written: over 4 MB
# chunks of small records, that kernel work cost more than the decoding itself.  A log
# is read chunk by chunk, each table freed before the next one is made, so a few freed
# blocks are kept and handed out again: a table's block, and the columns that outgrow
# it (those of compressed batches, whose sizes no header gives: kept too, they halved
# the CPU of reading lz4 batches of small records from a broker).  Bounded: at most
# _POOL_SLOTS blocks, each of _POOL_MIN to _POOL_MAX bytes (smaller ones are cheap to
# get, bigger ones are rare).
# The release callback may run on any thread, without the GIL: a plain lock guards it.

cdef enum:
    _POOL_SLOTS = 4
cdef Py_ssize_t _POOL_MIN = 1 << 20
cdef Py_ssize_t _POOL_MAX = 64 << 20
cdef void *_pool_block[_POOL_SLOTS]
cdef Py_ssize_t _pool_size[_POOL_SLOTS]
cdef Py_ssize_t _pool_reused = 0
cdef PyThread_type_lock _pool_lock = PyThread_allocate_lock()


cdef void *_block_take(Py_ssize_t want, Py_ssize_t *size) noexcept nogil:
    """A block of at least ``want`` bytes (its real size in ``size``): the smallest kept
    one that fits, else a new one; NULL when memory is short."""
    global _pool_reused
    cdef int i, best = -1
    cdef void *p = NULL
    if _POOL_MIN <= want <= _POOL_MAX:
        PyThread_acquire_lock(_pool_lock, WAIT_LOCK)
        for i in range(_POOL_SLOTS):
            if _pool_block[i] != NULL and _pool_size[i] >= want:
                if best < 0 or _pool_size[i] < _pool_size[best]:
                    best = i
        if best >= 0:
            p = _pool_block[best]
            size[0] = _pool_size[best]
            _pool_block[best] = NULL
            _pool_reused += 1
        PyThread_release_lock(_pool_lock)
        if p != NULL:
            return p
    size[0] = want
    return malloc(want)


cdef void _block_give(void *p, Py_ssize_t size) noexcept nogil:
    """Keep ``p`` for a later table in a free slot, or in place of the smallest kept
    block when that one is smaller (the pool follows the tables being made); free
    what is not kept."""
    cdef int i, slot = -1
    if _POOL_MIN <= size <= _POOL_MAX:
        PyThread_acquire_lock(_pool_lock, WAIT_LOCK)
        for i in range(_POOL_SLOTS):
            if _pool_block[i] == NULL:
                slot = i
                break
            if _pool_size[i] < size and (slot < 0 or _pool_size[i] < _pool_size[slot]):
                slot = i
        if slot >= 0:
            p, _pool_block[slot] = _pool_block[slot], p
            _pool_size[slot] = size
        PyThread_release_lock(_pool_lock)
    free(p)


def _arrow_pool():
    """(blocks kept now, blocks handed out again so far): for the tests."""
    cdef int i, kept = 0
    PyThread_acquire_lock(_pool_lock, WAIT_LOCK)
    for i in range(_POOL_SLOTS):
        if _pool_block[i] != NULL:
            kept += 1
    reused = _pool_reused
    PyThread_release_lock(_pool_lock)
    return kept, reused


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
    e = <Export *>_block_take(total, &total)
    if e == NULL:
        raise MemoryError()
    memset(e, 0, sizeof(Export))
    e.block_size = total
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
                (load_be16(d + pos + 21) & COMPRESSION_MASK) == 0:
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
    if cap >= _POOL_MIN:
        # a kept block, its pages already in: the columns of compressed batches, which
        # the block's bounds cannot see, grow here table after table
        p = <char *>_block_take(cap, &cap)
        if p != NULL:
            if b.n:
                memcpy(p, b.p, b.n)
            if b.owned:
                _block_give(b.p, b.cap)
    elif b.owned:
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
    # columns not asked for: their bytes are not copied (every row empty), and the
    # table drops them before anyone sees them
    cdef bint skip_key, skip_value, skip_headers

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
            if not self.skip_key:
                _put_bytes(&b[B_KEY_DATA], k, klen)
            _put_u8(&b[B_KEY_FLAG], 1)
        else:
            _put_u8(&b[B_KEY_FLAG], 0)
            self.key_nulls += 1
        if vlen >= 0:
            if not self.skip_value:
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
        if self.skip_headers:
            return 0
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
        cdef bint log_append = (bi.attrs & TIMESTAMP_TYPE_BIT) != 0
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
        cdef bint keys = not self.skip_key, values = not self.skip_value
        cdef bint headers = not self.skip_headers
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
                if keys:
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
                if values:
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
                if not headers:  # checked and stepped over, as the generic path does
                    pos += hklen
                    read_varint32(d, rend, &pos, &hvlen)
                    if hvlen < -1:
                        _corrupt(f"negative header value length {hvlen}")
                    if hvlen > rend - pos:
                        _corrupt(f"header value length {hvlen} goes beyond its record")
                    if hvlen > 0:
                        pos += hvlen
                    continue
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
        cdef int codec = self.cur.attrs & COMPRESSION_MASK
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


# (schema, RecordBatch._import_from_c, Table.from_batches): pyarrow is imported on first
# use, once, and the tuple is set whole (threads read it without the lock).
cdef tuple _PYARROW = None
_pyarrow_lock = threading.Lock()


cdef tuple _pyarrow():
    global _PYARROW
    if _PYARROW is None:
        with _pyarrow_lock:  # waits with the GIL released: pyarrow's import needs it
            if _PYARROW is None:
                pa = _common.import_pyarrow()
                _PYARROW = (arrow_schema(), pa.RecordBatch._import_from_c, pa.Table.from_batches)
    return _PYARROW


cdef object _export(_ArrowSink s):
    """Hand the sink's Export (the ArrowArray tree and its buffers) to pyarrow."""
    schema, import_batch, from_batches = _pyarrow()
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
        batch = import_batch(<size_t>&e.nodes[N_ROOT], schema)
    except BaseException:
        if e.nodes[N_ROOT].release != NULL:
            _release_root(&e.nodes[N_ROOT])
        raise
    return from_batches([batch], schema)


def to_arrow(buf, *, verify_crc=True, max_decompressed_size=_DEFAULT_MAX, columns=None):
    """A ``pyarrow.Table`` with one row per record of ``buf``; the columns' buffers are
    filled directly and handed to Arrow through its C data interface, without a Python
    object per record.  With ``columns``, only those (in that order): keys, values and
    headers not asked for are never copied."""
    cdef list wanted = _common.arrow_columns(columns)
    cdef _Source src = _source(buf)
    cdef _ArrowSink s = _ArrowSink.__new__(_ArrowSink)
    cdef Py_ssize_t rows, data, hdrs
    if max_decompressed_size is None:
        max_decompressed_size = _DEFAULT_MAX
    if wanted is not None:
        s.skip_key = "key" not in wanted
        s.skip_value = "value" not in wanted
        s.skip_headers = "headers" not in wanted
    _v2_bounds(src.data, src.size, &rows, &data, &hdrs)
    s.alloc(rows, data, hdrs)
    _emit_all(src, verify_crc, max_decompressed_size, s)
    table = _export(s)
    return table if wanted is None else table.select(wanted)
