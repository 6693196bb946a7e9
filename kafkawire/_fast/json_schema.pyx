# cython: language_level=3
"""JSON values to Arrow builders, compiled: parsed and checked in one pass by the plan of
``kafkawire.registry.json_schema`` (the reader JSON Schema, compiled once).

The rules are the exact reader's (``kafkawire.registry.json_schema``, the pure backend's
whole work): this reader only lays a value in its builders when it can tell the exact
reader would give that same row.  Anything else (an error, a duplicate key, an escaped
surrogate, an integer of many digits, ``1.0`` for an integer) rolls the row's builders
back and names the row, for the exact reader to give its value or its error.
"""

from cpython.buffer cimport PyBUF_SIMPLE, PyBuffer_FillInfo, PyBuffer_Release, PyObject_GetBuffer
from cpython.mem cimport PyMem_RawFree as free, PyMem_RawMalloc as malloc, PyMem_RawRealloc as realloc
from cpython.ref cimport PyObject
from libc.math cimport isfinite
from libc.stdint cimport INT32_MAX, int32_t, int64_t, uint8_t, uint32_t, uint64_t
from libc.string cimport memcmp, memcpy, memset

from kafkawire.errors import BadMagicByteError, PayloadDecodeError, TruncatedPayloadError

include "arrow_builders.pxi"

cdef extern from "Python.h":
    double PyOS_string_to_double(const char *s, char **endptr, PyObject *overflow_exception) except? -1.0

# the node kinds, numbered as kafkawire.registry.json_schema numbers them (not imported
# here: that module imports the registry's HTTP client; a test checks they agree)
cdef enum:
    N_STRING, N_DATETIME, N_DATE, N_INT, N_NUMBER, N_BOOL, N_ARRAY, N_MAP, N_STRUCT, N_PY

NODE_KINDS = (N_STRING, N_DATETIME, N_DATE, N_INT, N_NUMBER, N_BOOL, N_ARRAY, N_MAP, N_STRUCT, N_PY)

# nesting past this is left to the exact reader (whose parser has its own limit)
cdef int MAX_DEPTH = 64
# integers of more digits are left to the exact reader: 18 digits always fit 64 bits
cdef int MAX_INT_DIGITS = 18

cdef enum:
    OK = 0
    BAIL = 1  # not this reader's to decide: the exact reader takes the row


cdef struct JNode:
    int kind, out, a, b, width
    int64_t low, high


cdef struct JField:
    const char *name
    Py_ssize_t nlen
    int node  # -1: required, not described (only its presence is checked)
    bint nullable, required, seen


cdef class _Plan:
    cdef JNode *nodes
    cdef JField *fields
    cdef int nnodes, nfields, root
    cdef bint root_nullable
    cdef list keep  # the field names' bytes, which the fields point into
    cdef list pyconv  # per node: the exact converter of an N_PY node

    def __dealloc__(self):
        free(self.nodes)
        free(self.fields)


cdef _Plan _compile(plan):
    cdef _Plan c = _Plan.__new__(_Plan)
    cdef Py_ssize_t i
    nodes, fields, c.root_nullable = plan
    c.nnodes = len(nodes)
    c.nfields = len(fields)
    c.nodes = <JNode *>malloc(sizeof(JNode) * (c.nnodes + 1))
    c.fields = <JField *>malloc(sizeof(JField) * (c.nfields + 1))
    if c.nodes == NULL or c.fields == NULL:
        raise MemoryError()
    memset(c.fields, 0, sizeof(JField) * (c.nfields + 1))
    c.keep = []
    c.pyconv = []
    for i, (kind, out, a, b, width, low, high, conv) in enumerate(nodes):
        c.nodes[i].kind = kind
        c.nodes[i].out = out
        c.nodes[i].a = a
        c.nodes[i].b = b
        c.nodes[i].width = width
        c.nodes[i].low = low
        c.nodes[i].high = high
        c.pyconv.append(conv)
    for i, (name, node, nullable, required) in enumerate(fields):
        c.keep.append(name)
        c.fields[i].name = <const char *>(<bytes>name)
        c.fields[i].nlen = len(name)
        c.fields[i].node = node
        c.fields[i].nullable = nullable
        c.fields[i].required = required
    c.root = 0
    return c


cdef struct Snap:
    Py_ssize_t data, valid, offs, nulls


cdef class _Reader:
    cdef _Plan plan
    cdef Col *cols
    cdef const uint8_t *p
    cdef const uint8_t *end
    cdef int depth
    cdef GBuf scratch
    cdef object decoder

    def __dealloc__(self):
        free(self.scratch.p)

    cdef inline void ws(self):
        cdef uint8_t c
        while self.p < self.end:
            c = self.p[0]
            if c == 32 or c == 10 or c == 13 or c == 9:
                self.p += 1
            else:
                break

    cdef inline bint lit(self, const char *word, int n):
        if self.end - self.p < n or memcmp(self.p, word, n) != 0:
            return False
        self.p += n
        return True

    cdef int string(self, GBuf *dst) except -1:
        """A JSON string at ``p`` (its quote) decoded into ``dst`` as UTF-8; BAIL for
        what the exact reader refuses (or might): control characters, bad escapes,
        lone surrogates, bytes that are not UTF-8."""
        cdef const uint8_t *q = self.p + 1
        cdef const uint8_t *end = self.end
        cdef const uint8_t *run
        cdef uint8_t c, c1
        cdef uint32_t cp, lo
        cdef int k, need
        cdef char enc[4]
        while True:
            run = q
            while q < end and q[0] >= 0x20 and q[0] < 0x80 and q[0] != 34 and q[0] != 92:
                q += 1
            if q > run:
                _put(dst, run, q - run)
            if q >= end:
                return BAIL
            c = q[0]
            if c == 34:
                self.p = q + 1
                return OK
            if c < 0x20:
                return BAIL
            if c == 92:
                if end - q < 2:
                    return BAIL
                c1 = q[1]
                if c1 == 117:  # \uXXXX
                    if _hex4(q + 2, end, &cp) != OK:
                        return BAIL
                    q += 6
                    if 0xD800 <= cp <= 0xDBFF:
                        if end - q < 6 or q[0] != 92 or q[1] != 117 or _hex4(q + 2, end, &lo) != OK:
                            return BAIL
                        if not (0xDC00 <= lo <= 0xDFFF):
                            return BAIL
                        cp = 0x10000 + ((cp - 0xD800) << 10) + (lo - 0xDC00)
                        q += 6
                    elif 0xDC00 <= cp <= 0xDFFF:
                        return BAIL
                    _put(dst, enc, _utf8(cp, enc))
                    continue
                if c1 == 34 or c1 == 92 or c1 == 47:
                    _put1(dst, <char>c1)
                elif c1 == 98:
                    _put1(dst, 8)
                elif c1 == 102:
                    _put1(dst, 12)
                elif c1 == 110:
                    _put1(dst, 10)
                elif c1 == 114:
                    _put1(dst, 13)
                elif c1 == 116:
                    _put1(dst, 9)
                else:
                    return BAIL
                q += 2
                continue
            # a non-ASCII character: well-formed UTF-8 (no overlong form, no surrogate)
            if 0xC2 <= c <= 0xDF:
                need = 1
            elif 0xE0 <= c <= 0xEF:
                need = 2
            elif 0xF0 <= c <= 0xF4:
                need = 3
            else:
                return BAIL
            if end - q <= need:
                return BAIL
            for k in range(1, need + 1):
                if (q[k] & 0xC0) != 0x80:
                    return BAIL
            if (c == 0xE0 and q[1] < 0xA0) or (c == 0xED and q[1] > 0x9F):
                return BAIL
            if (c == 0xF0 and q[1] < 0x90) or (c == 0xF4 and q[1] > 0x8F):
                return BAIL
            _put(dst, q, need + 1)
            q += need + 1

    cdef int number(self, bint *is_int, int64_t *ival, const uint8_t **start) except -1:
        """The number token at ``p``, JSON's grammar exactly; an integer (no fraction or
        exponent) of at most 18 digits in ``ival``, else BAIL for integers."""
        cdef const uint8_t *q = self.p
        cdef const uint8_t *end = self.end
        cdef const uint8_t *digits
        cdef bint neg = False
        cdef int64_t v = 0
        start[0] = q
        if q < end and q[0] == 45:
            neg = True
            q += 1
        if q >= end or not (48 <= q[0] <= 57):
            return BAIL
        digits = q
        if q[0] == 48:
            q += 1
        else:
            while q < end and 48 <= q[0] <= 57:
                q += 1
        is_int[0] = True
        if q < end and q[0] == 46:
            q += 1
            if q >= end or not (48 <= q[0] <= 57):
                return BAIL
            while q < end and 48 <= q[0] <= 57:
                q += 1
            is_int[0] = False
        if q < end and (q[0] == 101 or q[0] == 69):
            q += 1
            if q < end and (q[0] == 43 or q[0] == 45):
                q += 1
            if q >= end or not (48 <= q[0] <= 57):
                return BAIL
            while q < end and 48 <= q[0] <= 57:
                q += 1
            is_int[0] = False
        self.p = q
        if is_int[0]:
            if q - digits > MAX_INT_DIGITS:
                return BAIL
            while digits < q:
                v = v * 10 + (digits[0] - 48)
                digits += 1
            ival[0] = -v if neg else v
        return OK

    cdef int skip(self) except -1:
        """Past one JSON value, checked as the exact reader's parser checks it."""
        cdef bint is_int
        cdef int64_t iv
        cdef const uint8_t *s
        cdef uint8_t c
        self.ws()
        if self.p >= self.end:
            return BAIL
        c = self.p[0]
        if c == 34:
            self.scratch.n = 0
            return self.string(&self.scratch)
        if c == 123 or c == 91:
            self.depth += 1
            if self.depth > MAX_DEPTH:
                return BAIL
            self.p += 1
            self.ws()
            if self.p < self.end and self.p[0] == (125 if c == 123 else 93):
                self.p += 1
                self.depth -= 1
                return OK
            while True:
                if c == 123:
                    self.ws()
                    if self.p >= self.end or self.p[0] != 34:
                        return BAIL
                    self.scratch.n = 0
                    if self.string(&self.scratch) != OK:
                        return BAIL
                    self.ws()
                    if self.p >= self.end or self.p[0] != 58:
                        return BAIL
                    self.p += 1
                if self.skip() != OK:
                    return BAIL
                self.ws()
                if self.p >= self.end:
                    return BAIL
                if self.p[0] == 44:
                    self.p += 1
                    continue
                if self.p[0] == (125 if c == 123 else 93):
                    self.p += 1
                    self.depth -= 1
                    return OK
                return BAIL
        if c == 116:
            return OK if self.lit("true", 4) else BAIL
        if c == 102:
            return OK if self.lit("false", 5) else BAIL
        if c == 110:
            return OK if self.lit("null", 4) else BAIL
        return self.number(&is_int, &iv, &s)

    cdef int slot(self, int n, bint nullable) except -1:
        """One value of node ``n`` (null where ``nullable``) into its builder."""
        self.ws()
        if self.p < self.end and self.p[0] == 110:
            if nullable and self.lit("null", 4):
                _fill(self.cols, self.plan.nodes[n].out, 0)
                return OK
            return BAIL
        return self.value(n)

    cdef int value(self, int n) except -1:
        cdef JNode *node = &self.plan.nodes[n]
        cdef Col *col = &self.cols[node.out]
        cdef bint is_int
        cdef int64_t iv
        cdef int32_t i32
        cdef double d
        cdef float f
        cdef const uint8_t *s
        cdef char num[64]
        cdef char b
        if self.p >= self.end:
            return BAIL
        if node.kind == N_STRING:
            if self.p[0] != 34 or self.string(&col.data) != OK:
                return BAIL
            _put1(&col.valid, 1)
            _put_i32(&col.offs, <int32_t>col.data.n)
            return OK
        if node.kind == N_DATETIME or node.kind == N_DATE:
            self.scratch.n = 0
            if self.p[0] != 34 or self.string(&self.scratch) != OK:
                return BAIL
            if node.kind == N_DATE:
                if _date(<const uint8_t *>self.scratch.p, self.scratch.n, &i32) != OK:
                    return BAIL
                _put(&col.data, &i32, 4)
            else:
                if _date_time(<const uint8_t *>self.scratch.p, self.scratch.n, &iv) != OK:
                    return BAIL
                _put(&col.data, &iv, 8)
            _put1(&col.valid, 1)
            return OK
        if node.kind == N_INT:
            if self.number(&is_int, &iv, &s) != OK or not is_int or iv < node.low or iv > node.high:
                return BAIL
            if node.width == 4:
                i32 = <int32_t>iv
                _put(&col.data, &i32, 4)
            else:
                _put(&col.data, &iv, 8)
            _put1(&col.valid, 1)
            return OK
        if node.kind == N_NUMBER:
            if self.number(&is_int, &iv, &s) != OK:
                return BAIL
            if is_int:
                d = <double>iv  # rounded to nearest, as Python's float(int)
            else:
                if self.p - s >= 64:
                    return BAIL
                memcpy(num, s, self.p - s)
                num[self.p - s] = 0
                d = PyOS_string_to_double(num, NULL, NULL)  # Python's float(): correctly rounded
                if not isfinite(d):
                    return BAIL
            if node.width == 4:
                f = <float>d
                _put(&col.data, &f, 4)
            else:
                _put(&col.data, &d, 8)
            _put1(&col.valid, 1)
            return OK
        if node.kind == N_BOOL:
            if self.lit("true", 4):
                b = 1
            elif self.lit("false", 5):
                b = 0
            else:
                return BAIL
            _put1(&col.data, b)
            _put1(&col.valid, 1)
            return OK
        if node.kind == N_ARRAY:
            return self.read_array(node, col)
        if node.kind == N_MAP:
            return self.read_map(node, col)
        if node.kind == N_STRUCT:
            return self.read_struct(node, col)
        return self.read_python(n, node, col)

    cdef int read_array(self, JNode *node, Col *col) except -1:
        if self.p[0] != 91:
            return BAIL
        self.depth += 1
        if self.depth > MAX_DEPTH:
            return BAIL
        self.p += 1
        self.ws()
        if self.p < self.end and self.p[0] == 93:
            self.p += 1
        else:
            while True:
                if self.slot(node.a, node.b) != OK:
                    return BAIL
                self.ws()
                if self.p >= self.end:
                    return BAIL
                if self.p[0] == 44:
                    self.p += 1
                    continue
                if self.p[0] != 93:
                    return BAIL
                self.p += 1
                break
        self.depth -= 1
        _put1(&col.valid, 1)
        _put_i32(&col.offs, <int32_t>self.cols[col.kids[0]].valid.n)
        return OK

    cdef int read_map(self, JNode *node, Col *col) except -1:
        cdef Col *keys = &self.cols[col.kids[0]]
        cdef Py_ssize_t first = keys.valid.n, k, at, size
        cdef const int32_t *offs
        if self.p[0] != 123:
            return BAIL
        self.depth += 1
        if self.depth > MAX_DEPTH:
            return BAIL
        self.p += 1
        self.ws()
        if self.p < self.end and self.p[0] == 125:
            self.p += 1
        else:
            while True:
                self.ws()
                if self.p >= self.end or self.p[0] != 34:
                    return BAIL
                at = keys.data.n
                if self.string(&keys.data) != OK:
                    return BAIL
                size = keys.data.n - at
                # a key met again: the exact reader keeps the last value (not this one's to do)
                offs = <const int32_t *>keys.offs.p
                if keys.valid.n - first > 64:
                    return BAIL
                for k in range(first, keys.valid.n):
                    if offs[k + 1] - offs[k] == size and memcmp(keys.data.p + offs[k], keys.data.p + at, size) == 0:
                        return BAIL
                _put1(&keys.valid, 1)
                _put_i32(&keys.offs, <int32_t>keys.data.n)
                self.ws()
                if self.p >= self.end or self.p[0] != 58:
                    return BAIL
                self.p += 1
                if self.slot(node.a, node.b) != OK:
                    return BAIL
                self.ws()
                if self.p >= self.end:
                    return BAIL
                if self.p[0] == 44:
                    self.p += 1
                    continue
                if self.p[0] != 125:
                    return BAIL
                self.p += 1
                break
        self.depth -= 1
        _put1(&col.valid, 1)
        _put_i32(&col.offs, <int32_t>keys.valid.n)
        return OK

    cdef int read_struct(self, JNode *node, Col *col) except -1:
        cdef JField *fields = self.plan.fields + node.a
        cdef int count = node.b, k, hint = 0
        cdef JField *f
        if self.p[0] != 123:
            return BAIL
        self.depth += 1
        if self.depth > MAX_DEPTH:
            return BAIL
        self.p += 1
        self.ws()
        if self.p < self.end and self.p[0] == 125:
            self.p += 1
        else:
            while True:
                self.ws()
                if self.p >= self.end or self.p[0] != 34:
                    return BAIL
                self.scratch.n = 0
                if self.string(&self.scratch) != OK:
                    return BAIL
                self.ws()
                if self.p >= self.end or self.p[0] != 58:
                    return BAIL
                self.p += 1
                f = NULL
                for k in range(count):  # keys mostly come in the schema's order: start at the next
                    f = &fields[(hint + k) % count]
                    if f.nlen == self.scratch.n and memcmp(f.name, self.scratch.p, f.nlen) == 0:
                        hint = (hint + k + 1) % count
                        break
                    f = NULL
                if f == NULL:
                    if self.skip() != OK:
                        return BAIL
                else:
                    if f.seen:  # a key met again: the exact reader keeps the last value
                        return BAIL
                    f.seen = True
                    if f.node < 0:
                        if self.skip() != OK:
                            return BAIL
                    elif self.slot(f.node, f.nullable) != OK:
                        return BAIL
                self.ws()
                if self.p >= self.end:
                    return BAIL
                if self.p[0] == 44:
                    self.p += 1
                    continue
                if self.p[0] != 125:
                    return BAIL
                self.p += 1
                break
        self.depth -= 1
        for k in range(count):
            f = &fields[k]
            if f.seen:
                f.seen = False
            elif f.required:
                return BAIL
            elif f.node >= 0:
                _fill(self.cols, self.plan.nodes[f.node].out, 0)
        _put1(&col.valid, 1)
        return OK

    cdef int read_python(self, int n, JNode *node, Col *col) except -1:
        """A node of the exact reader's own converter: the value parsed by its parser,
        converted by it, laid in the builder of its Arrow type (string, int64, float64,
        bool)."""
        cdef const uint8_t *s = self.p
        cdef bytes text
        cdef double d
        cdef int64_t iv
        cdef char b
        if self.skip() != OK:
            return BAIL
        try:
            value = self.plan.pyconv[n](self.decoder((<const char *>s)[:self.p - s].decode("utf-8")))
            if value is None:
                _fill(self.cols, node.out, 0)
                return OK
            if node.a == 0:
                if type(value) is not str:
                    return BAIL
                text = (<str>value).encode("utf-8")
                _put(&col.data, <const char *>text, len(text))
                _put_i32(&col.offs, <int32_t>col.data.n)
            elif node.a == 1:
                if type(value) is not int:
                    return BAIL
                iv = value
                _put(&col.data, &iv, 8)
            elif node.a == 2:
                if type(value) is not float:
                    return BAIL
                d = value
                _put(&col.data, &d, 8)
            else:
                if type(value) is not bool:
                    return BAIL
                b = 1 if value else 0
                _put1(&col.data, b)
        except Exception:  # the exact reader's to report
            return BAIL
        _put1(&col.valid, 1)
        return OK


cdef inline int _hexval(uint8_t c):
    if 48 <= c <= 57:
        return c - 48
    if 97 <= c <= 102:
        return c - 87
    if 65 <= c <= 70:
        return c - 55
    return -1


cdef int _hex4(const uint8_t *q, const uint8_t *end, uint32_t *cp):
    cdef int k, h
    cdef uint32_t v = 0
    if end - q < 4:
        return BAIL
    for k in range(4):
        h = _hexval(q[k])
        if h < 0:
            return BAIL
        v = (v << 4) | <uint32_t>h
    cp[0] = v
    return OK


cdef int _utf8(uint32_t cp, char *out):
    if cp < 0x80:
        out[0] = <char>cp
        return 1
    if cp < 0x800:
        out[0] = <char>(0xC0 | (cp >> 6))
        out[1] = <char>(0x80 | (cp & 0x3F))
        return 2
    if cp < 0x10000:
        out[0] = <char>(0xE0 | (cp >> 12))
        out[1] = <char>(0x80 | ((cp >> 6) & 0x3F))
        out[2] = <char>(0x80 | (cp & 0x3F))
        return 3
    out[0] = <char>(0xF0 | (cp >> 18))
    out[1] = <char>(0x80 | ((cp >> 12) & 0x3F))
    out[2] = <char>(0x80 | ((cp >> 6) & 0x3F))
    out[3] = <char>(0x80 | (cp & 0x3F))
    return 4


cdef inline int _digits(const uint8_t *s, int n, int *v):
    cdef int k
    v[0] = 0
    for k in range(n):
        if not (48 <= s[k] <= 57):
            return BAIL
        v[0] = v[0] * 10 + (s[k] - 48)
    return OK


cdef int64_t _days(int64_t y, int64_t m, int64_t d):
    """Days since 1970-01-01 of a proleptic Gregorian date."""
    cdef int64_t era, yoe, doy, doe
    y -= m <= 2
    era = (y if y >= 0 else y - 399) // 400
    yoe = y - era * 400
    doy = (153 * (m + (-3 if m > 2 else 9)) + 2) // 5 + d - 1
    doe = yoe * 365 + yoe // 4 - yoe // 100 + doy
    return era * 146097 + doe - 719468


cdef int _ymd(const uint8_t *s, int *y, int *m, int *d):
    """``YYYY-MM-DD`` at ``s``, a date Python's ``datetime.date`` takes (years 2 to 9998:
    the ends are left to the exact reader)."""
    cdef int dim
    if _digits(s, 4, y) != OK or s[4] != 45 or _digits(s + 5, 2, m) != OK or s[7] != 45:
        return BAIL
    if _digits(s + 8, 2, d) != OK or y[0] < 2 or y[0] > 9998 or m[0] < 1 or m[0] > 12 or d[0] < 1:
        return BAIL
    if m[0] == 2:
        dim = 29 if (y[0] % 4 == 0 and (y[0] % 100 != 0 or y[0] % 400 == 0)) else 28
    else:
        dim = 30 if m[0] in (4, 6, 9, 11) else 31
    return OK if d[0] <= dim else BAIL


cdef int _date(const uint8_t *s, Py_ssize_t n, int32_t *out):
    """An RFC 3339 full-date, as the exact reader's ``_parse_date`` reads it."""
    cdef int y, m, d
    if n != 10 or _ymd(s, &y, &m, &d) != OK:
        return BAIL
    out[0] = <int32_t>_days(y, m, d)
    return OK


cdef int _date_time(const uint8_t *s, Py_ssize_t n, int64_t *out):
    """An RFC 3339 date-time, as the exact reader's ``_parse_date_time`` reads it, to
    microseconds since the epoch (UTC), the fraction truncated to microseconds."""
    cdef int y, mo, d, h, mi, sec, oh, om, k
    cdef int64_t micros = 0, offset = 0, scale = 100000
    cdef Py_ssize_t i = 19
    if n < 20 or _ymd(s, &y, &mo, &d) != OK:
        return BAIL
    if not (s[10] == 84 or s[10] == 116 or s[10] == 32):
        return BAIL
    if _digits(s + 11, 2, &h) != OK or s[13] != 58 or _digits(s + 14, 2, &mi) != OK or s[16] != 58:
        return BAIL
    if _digits(s + 17, 2, &sec) != OK or h > 23 or mi > 59 or sec > 59:
        return BAIL
    if s[i] == 46:
        i += 1
        k = 0
        while i < n and 48 <= s[i] <= 57:
            if k < 6:
                micros += (s[i] - 48) * scale
                scale //= 10
            k += 1
            i += 1
        if k == 0:
            return BAIL
    if i >= n:
        return BAIL
    if s[i] == 90 or s[i] == 122:
        if i + 1 != n:
            return BAIL
    elif s[i] == 43 or s[i] == 45:
        if i + 6 != n or _digits(s + i + 1, 2, &oh) != OK or s[i + 3] != 58 or _digits(s + i + 4, 2, &om) != OK:
            return BAIL
        offset = oh * 60 + om
        if offset >= 24 * 60:  # past what a Python timezone takes
            return BAIL
        if s[i] == 45:
            offset = -offset
    else:
        return BAIL
    out[0] = ((_days(y, mo, d) * 86400 + h * 3600 + mi * 60 + sec - offset * 60) * 1000000) + micros
    return OK


def read_column(Py_ssize_t count, Py_ssize_t array_offset, validity, offsets, data, layout, plan,
                decoder, takes_id):
    """Read ``count`` JSON values of an Arrow binary column into the builders of
    ``layout`` by ``plan`` (see ``kafkawire._pure.json_schema.read_column``, whose
    contract this twin keeps): ``(builders, rows left to the exact reader)``, those rows
    null.  ``takes_id(schema id)``: whether a framed value of that id is read (None:
    the values are not framed); ``decoder``: the exact reader's JSON parser."""
    cdef _Builders bs = _builders(layout, count)
    cdef _Plan cp = _compile(plan)
    cdef _Reader r = _Reader.__new__(_Reader)
    cdef Py_buffer vview, oview, dview
    cdef bint have_v = False, have_o = False, have_d = False
    cdef const uint8_t *bits = NULL
    cdef const int32_t *offs
    cdef const uint8_t *buf
    cdef Py_ssize_t i, j, row, pos, end
    cdef int64_t schema_id
    cdef Snap *snap = NULL
    cdef int rc
    cdef list left = []
    cdef dict ids = {}
    cdef bint framed = takes_id is not None
    r.plan = cp
    r.cols = bs.cols
    r.decoder = decoder
    try:
        snap = <Snap *>malloc(sizeof(Snap) * (bs.ncols + 1))
        if snap == NULL:
            raise MemoryError()
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
            if bits != NULL and not ((bits[row >> 3] >> (row & 7)) & 1):
                _fill(bs.cols, 0, 0)
                continue
            pos = offs[row]
            end = offs[row + 1]
            if pos < 0 or end < pos or end > dview.len:
                raise ValueError(f"row {row}: offsets outside the data buffer")
            for j in range(bs.ncols):
                snap[j].data = bs.cols[j].data.n
                snap[j].valid = bs.cols[j].valid.n
                snap[j].offs = bs.cols[j].offs.n
                snap[j].nulls = bs.cols[j].nulls
            rc = BAIL
            if framed:
                if end - pos >= 5 and buf[pos] == 0:
                    schema_id = (<int64_t>buf[pos + 1] << 24) | (buf[pos + 2] << 16) | (buf[pos + 3] << 8) | buf[pos + 4]
                    taken = ids.get(schema_id)
                    if taken is None:
                        taken = ids[schema_id] = bool(takes_id(schema_id))
                    if taken:
                        pos += 5
                        rc = OK
            else:
                rc = OK
            if rc == OK:
                r.p = buf + pos
                r.end = buf + end
                r.depth = 0
                rc = r.slot(cp.root, cp.root_nullable)
                if rc == OK:
                    r.ws()
                    if r.p != r.end:
                        rc = BAIL
            if rc != OK:
                for j in range(bs.ncols):
                    bs.cols[j].data.n = snap[j].data
                    bs.cols[j].valid.n = snap[j].valid
                    bs.cols[j].offs.n = snap[j].offs
                    bs.cols[j].nulls = snap[j].nulls
                for j in range(cp.nfields):
                    cp.fields[j].seen = False
                _fill(bs.cols, 0, 0)
                left.append(i)
    finally:
        free(snap)
        if have_v:
            PyBuffer_Release(&vview)
        if have_o:
            PyBuffer_Release(&oview)
        if have_d:
            PyBuffer_Release(&dview)
    return _handed_over(bs), left
