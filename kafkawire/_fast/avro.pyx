# cython: language_level=3
"""Avro values to Arrow builders, compiled: the Cython twin of ``kafkawire._pure.avro``.

The plans of :mod:`kafkawire.avro.plan` are copied into C arrays once per schema id
and call; values are read straight from the column's data buffer and appended to
builder buffers (Python's raw allocator: tracemalloc sees them), which pyarrow then
wraps without a copy (see :mod:`kafkawire.avro.arrow`).  Every length and count is checked against the bytes
that remain before anything is appended.
"""

from cpython.buffer cimport PyBUF_SIMPLE, PyBuffer_FillInfo, PyBuffer_Release, PyObject_GetBuffer
from libc.stdint cimport INT32_MAX, int32_t, int64_t, uint8_t, uint32_t, uint64_t
from cpython.mem cimport PyMem_RawFree as free, PyMem_RawMalloc as malloc, PyMem_RawRealloc as realloc
from libc.string cimport memcpy, memset

from kafkawire.avro import plan as _P
from kafkawire.errors import BadMagicByteError, PayloadDecodeError, TruncatedPayloadError

cdef enum:
    OP_NULL, OP_BOOL, OP_INT, OP_LONG, OP_FLOAT, OP_DOUBLE, OP_BYTES, OP_FIXED, OP_ENUM,
    OP_RECORD, OP_ARRAY, OP_MAP, OP_UNION, OP_MEMBER, OP_DECIMAL, OP_DURATION, OP_DEFAULT,
    OP_ERROR, OP_INT_LONG, OP_INT_FLOAT, OP_INT_DOUBLE, OP_LONG_FLOAT, OP_LONG_DOUBLE,
    OP_FLOAT_DOUBLE

# the plan module is the one home of these numbers: a mismatch is a build error to see at once
assert (_P.OP_FLOAT_DOUBLE, _P.OP_DEFAULT, _P.B_STRUCT) == (OP_FLOAT_DOUBLE, OP_DEFAULT, B_STRUCT)

cdef Py_ssize_t MAX_EMPTY_ITEMS = _P.MAX_EMPTY_ITEMS

include "arrow_builders.pxi"


cdef struct Node:
    int op, out, a, b, k0, nk


cdef class _CPlan:
    """A plan's nodes, kids and constants as C arrays."""
    cdef Node *nodes
    cdef int *kids
    cdef int root
    cdef list consts
    cdef const char **cptr
    cdef Py_ssize_t *clen

    def __dealloc__(self):
        free(self.nodes)
        free(self.kids)
        free(self.cptr)
        free(self.clen)


cdef _CPlan _compile(plan):
    cdef _CPlan c = _CPlan.__new__(_CPlan)
    cdef Py_ssize_t i
    cdef bytes k
    nodes = plan.nodes
    kids = plan.kids
    c.consts = [bytes(x) for x in plan.consts]
    c.nodes = <Node *>malloc(sizeof(Node) * (len(nodes) + 1))
    c.kids = <int *>malloc(sizeof(int) * (len(kids) + 1))
    c.cptr = <const char **>malloc(sizeof(char *) * (len(c.consts) + 1))
    c.clen = <Py_ssize_t *>malloc(sizeof(Py_ssize_t) * (len(c.consts) + 1))
    if c.nodes == NULL or c.kids == NULL or c.cptr == NULL or c.clen == NULL:
        raise MemoryError()
    for i, (op, out, a, b, k0, nk) in enumerate(nodes):
        c.nodes[i].op = op
        c.nodes[i].out = out
        c.nodes[i].a = a
        c.nodes[i].b = b
        c.nodes[i].k0 = k0
        c.nodes[i].nk = nk
    for i, kid in enumerate(kids):
        c.kids[i] = kid
    for i, k in enumerate(c.consts):
        c.cptr[i] = <const char *>k
        c.clen[i] = len(k)
    c.root = plan.root
    return c


# -- reading -----------------------------------------------------------------------------

cdef inline int _read_long(const uint8_t *buf, Py_ssize_t *pos, Py_ssize_t end, int64_t *out) except -1:
    cdef Py_ssize_t p = pos[0]
    cdef uint64_t result = 0, b
    cdef int shift = 0
    while True:
        if p >= end:
            _truncated("a varint", pos[0])
        b = buf[p]
        p += 1
        if shift == 63 and b > 1:
            _bad(f"the long at byte {pos[0]} does not fit in 64 bits")
        result |= (b & 0x7F) << shift
        if not (b & 0x80):
            break
        shift += 7
    out[0] = <int64_t>((result >> 1) ^ (0 - (result & 1)))
    pos[0] = p
    return 0


cdef inline int _read_int(const uint8_t *buf, Py_ssize_t *pos, Py_ssize_t end, int32_t *out) except -1:
    cdef Py_ssize_t p = pos[0]
    cdef uint64_t result = 0, b
    cdef int shift = 0
    while True:
        if p >= end:
            _truncated("a varint", pos[0])
        b = buf[p]
        p += 1
        if shift == 28 and b > 0x0F:
            _bad(f"the int at byte {pos[0]} does not fit in 32 bits")
        result |= (b & 0x7F) << shift
        if not (b & 0x80):
            break
        shift += 7
    out[0] = <int32_t>(<uint32_t>((result >> 1) ^ (0 - (result & 1))))
    pos[0] = p
    return 0


cdef inline int _read_length(const uint8_t *buf, Py_ssize_t *pos, Py_ssize_t end, int64_t *out, str what) except -1:
    cdef Py_ssize_t start = pos[0]
    _read_long(buf, pos, end, out)
    if out[0] < 0:
        _bad(f"the {what} length {out[0]} at byte {start} is negative")
    if out[0] > end - pos[0]:
        _truncated(f"a {what} of {out[0]} bytes", pos[0])
    return 0


cdef int _read_count(const uint8_t *buf, Py_ssize_t *pos, Py_ssize_t end, int64_t least,
                     int64_t total, int64_t *out) except -1:
    cdef Py_ssize_t start = pos[0]
    cdef int64_t size
    _read_long(buf, pos, end, out)
    if out[0] < 0:
        if out[0] == (-9223372036854775807 - 1):
            _bad(f"the block count at byte {start} is out of range")
        out[0] = -out[0]
        _read_length(buf, pos, end, &size, "block")
    if least > 0:
        if out[0] > (end - pos[0]) // least:
            _truncated(f"a block of {out[0]} items", start)
    elif total + out[0] > MAX_EMPTY_ITEMS:
        _bad(f"a block of {out[0]} items of no bytes at byte {start}: over {MAX_EMPTY_ITEMS}")
    return 0


cdef struct Ctx:
    Col *cols
    Node *nodes
    int *kids
    const char **cptr
    Py_ssize_t *clen


cdef int _decimal(Col *c, const uint8_t *src, Py_ssize_t n, int width, Py_ssize_t at) except -1:
    """A big-endian two's complement integer of n bytes as a little-endian one of width."""
    cdef uint8_t out[32]
    cdef uint8_t fill = 0xFF if (n > 0 and src[0] & 0x80) else 0
    cdef Py_ssize_t i
    for i in range(n - width):  # leading bytes past the width: only sign extension
        if src[i] != fill:
            _bad(f"a decimal of {n} bytes at byte {at} is wider than {width * 8} bits")
    if n > width and (src[n - width] & 0x80) != (fill & 0x80):
        _bad(f"a decimal of {n} bytes at byte {at} is wider than {width * 8} bits")
    memset(out, fill, width)
    for i in range(min(n, width)):
        out[i] = src[n - 1 - i]
    _put(&c.data, out, width)
    return 0


cdef Py_ssize_t _run(Ctx *x, int i, const uint8_t *buf, Py_ssize_t pos, Py_ssize_t end) except -1:
    # one if/elif chain on op: Cython compiles it to a C switch
    cdef Node *nd = &x.nodes[i]
    cdef int op = nd.op
    cdef Col *c = &x.cols[nd.out] if nd.out >= 0 else NULL
    cdef Col *keys
    cdef int k, item
    cdef int32_t iv
    cdef int64_t lv, n, total, least
    cdef float fv
    cdef double dv
    cdef uint32_t months, days, millis
    cdef int64_t nanos
    cdef Py_ssize_t start
    if op == OP_RECORD:
        for k in range(nd.k0, nd.k0 + nd.nk):
            pos = _run(x, x.kids[k], buf, pos, end)
        if c != NULL:
            _put1(&c.valid, 1)
        return pos
    elif op == OP_INT:
        _read_int(buf, &pos, end, &iv)
        if c != NULL:
            _put4(&c.data, &iv)
            _put1(&c.valid, 1)
        return pos
    elif op == OP_LONG:
        _read_long(buf, &pos, end, &lv)
        if c != NULL:
            _put8(&c.data, &lv)
            _put1(&c.valid, 1)
        return pos
    elif op == OP_INT_LONG:
        _read_int(buf, &pos, end, &iv)
        if c != NULL:
            lv = iv
            _put8(&c.data, &lv)
            _put1(&c.valid, 1)
        return pos
    elif op == OP_BYTES:
        _read_length(buf, &pos, end, &n, "bytes")
        if c != NULL:
            _put_var(c, buf + pos, n)
        return pos + n
    elif op == OP_UNION:
        start = pos
        _read_long(buf, &pos, end, &lv)
        if lv < 0 or lv >= nd.nk:
            _bad(f"union branch {lv} at byte {start}; the writer's union has {nd.nk}")
        return _run(x, x.kids[nd.k0 + lv], buf, pos, end)
    elif op == OP_NULL:
        if c != NULL:
            _fill(x.cols, nd.out, 0)
        return pos
    elif op == OP_DOUBLE:
        if end - pos < 8:
            _truncated("a double", pos)
        if c != NULL:
            _put8(&c.data, buf + pos)
            _put1(&c.valid, 1)
        return pos + 8
    elif op == OP_FLOAT:
        if end - pos < 4:
            _truncated("a float", pos)
        if c != NULL:
            _put4(&c.data, buf + pos)
            _put1(&c.valid, 1)
        return pos + 4
    elif op == OP_FLOAT_DOUBLE:
        if end - pos < 4:
            _truncated("a float", pos)
        if c != NULL:
            memcpy(&fv, buf + pos, 4)
            dv = fv
            _put8(&c.data, &dv)
            _put1(&c.valid, 1)
        return pos + 4
    elif op == OP_BOOL:
        if pos >= end:
            _truncated("a boolean", pos)
        if c != NULL:
            _put1(&c.data, 1 if buf[pos] == 1 else 0)  # as Java's decoder reads it
            _put1(&c.valid, 1)
        return pos + 1
    elif op == OP_ENUM:
        start = pos
        _read_int(buf, &pos, end, &iv)
        if iv < 0 or iv >= nd.a:
            _bad(f"enum index {iv} at byte {start}; the writer's enum has {nd.a} symbols")
        if c != NULL:
            k = x.kids[nd.k0 + iv]
            if k < 0:
                raise PayloadDecodeError(x.cptr[nd.b][:x.clen[nd.b]].decode())
            _put_i32(&c.data, k)
            _put1(&c.valid, 1)
        return pos
    elif op == OP_ARRAY or op == OP_MAP:
        item = x.kids[nd.k0]
        least = nd.a if op == OP_ARRAY else 1 + nd.b
        keys = &x.cols[nd.a] if (op == OP_MAP and nd.a >= 0) else NULL
        total = 0
        while True:
            _read_count(buf, &pos, end, least, total, &n)
            if n == 0:
                break
            total += n
            while n > 0:
                n -= 1
                if op == OP_MAP:
                    _read_length(buf, &pos, end, &lv, "map key")
                    if keys != NULL:
                        _put_var(keys, buf + pos, lv)
                    pos += lv
                pos = _run(x, item, buf, pos, end)
        if c != NULL:
            _end_list(x.cols, c)
        return pos
    elif op == OP_MEMBER:
        _put1(&c.valid, 1)
        for k in range(c.nkids):
            if k != nd.a:
                _fill(x.cols, c.struct_kids[k], 0)
        return _run(x, x.kids[nd.k0], buf, pos, end)
    elif op == OP_FIXED:
        if end - pos < nd.a:
            _truncated(f"a fixed of {nd.a} bytes", pos)
        if c != NULL:
            _put(&c.data, buf + pos, nd.a)
            _put1(&c.valid, 1)
        return pos + nd.a
    elif op == OP_DECIMAL:
        if nd.a == 0:
            _read_length(buf, &pos, end, &n, "decimal")
        else:
            n = nd.a
            if end - pos < n:
                _truncated(f"a decimal of {n} bytes", pos)
        if c != NULL:
            _decimal(c, buf + pos, n, nd.b, pos)
            _put1(&c.valid, 1)
        return pos + n
    elif op == OP_DURATION:
        if end - pos < 12:
            _truncated("a fixed of 12 bytes", pos)
        if c != NULL:
            memcpy(&months, buf + pos, 4)
            memcpy(&days, buf + pos + 4, 4)
            memcpy(&millis, buf + pos + 8, 4)
            if months > INT32_MAX or days > INT32_MAX:
                _bad(f"a duration of {months} months, {days} days at byte {pos}: over Arrow's int32")
            nanos = <int64_t>millis * 1000000
            _put4(&c.data, &months)
            _put4(&c.data, &days)
            _put8(&c.data, &nanos)
            _put1(&c.valid, 1)
        return pos + 12
    elif op == OP_DEFAULT:
        _run(x, x.kids[nd.k0], <const uint8_t *>x.cptr[nd.a], 0, x.clen[nd.a])
        return pos
    elif op == OP_ERROR:
        raise PayloadDecodeError(
            f"{x.cptr[nd.a][:x.clen[nd.a]].decode()} (the union branch ends at byte {pos})")
    elif op == OP_INT_FLOAT or op == OP_INT_DOUBLE or op == OP_LONG_FLOAT or op == OP_LONG_DOUBLE:
        if op == OP_INT_FLOAT or op == OP_INT_DOUBLE:
            _read_int(buf, &pos, end, &iv)
            dv = iv
            fv = <float>iv
        else:
            _read_long(buf, &pos, end, &lv)
            dv = <double>lv
            fv = <float>lv
        if c != NULL:
            if op == OP_INT_FLOAT or op == OP_LONG_FLOAT:
                _put4(&c.data, &fv)
            else:
                _put8(&c.data, &dv)
            _put1(&c.valid, 1)
        return pos
    _bad(f"unknown plan op {op}")
    return -1


cdef class _AvroRows(_Rows):
    """Each value read with the plan of its schema id, compiled once per id and call."""
    cdef Ctx x
    cdef object plan_for
    cdef dict plans
    cdef _CPlan cp
    cdef long long last_id

    cdef int value(self, Col *cols, const uint8_t *buf, Py_ssize_t pos, Py_ssize_t end,
                   long long schema_id) except -1:
        cdef _CPlan cp = self.cp
        if cp is None or schema_id != self.last_id:  # mostly the plan of the row before
            cp = self.plans.get(schema_id)
            if cp is None:
                cp = self.plans[schema_id] = _compile(self.plan_for(schema_id))
            self.cp = cp
            self.last_id = schema_id
            self.x.nodes = cp.nodes
            self.x.kids = cp.kids
            self.x.cptr = cp.cptr
            self.x.clen = cp.clen
        self.x.cols = cols
        pos = _run(&self.x, cp.root, buf, pos, end)
        if pos != end:
            raise PayloadDecodeError(f"{end - pos} bytes after the value")
        return 0


def decode_column(Py_ssize_t count, Py_ssize_t array_offset, validity, offsets, data,
                  layout, plan_for, bint framed):
    """Decode ``count`` values of an Arrow binary column into the builders of ``layout``
    (see ``kafkawire._pure.avro.decode_column``, whose contract this twin keeps)."""
    cdef _AvroRows rows = _AvroRows.__new__(_AvroRows)
    rows.plan_for = plan_for
    rows.plans = {}
    return _decode_rows(rows, count, array_offset, validity, offsets, data, layout, framed)
