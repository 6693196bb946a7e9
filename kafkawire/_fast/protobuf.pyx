# cython: language_level=3
"""Protobuf values to Arrow builders, compiled: the Cython twin of ``kafkawire._pure.protobuf``.

The plans of :mod:`kafkawire.protobuf.plan` are copied into C arrays once per plan and
call, with room beside each field entry for the value a message holds while it is
read; values are read straight from the column's data buffer into the builders of
``arrow_builders.pxi``.  Every length is checked against the bytes that remain.
"""

from cpython.buffer cimport PyBUF_SIMPLE, PyBuffer_FillInfo, PyBuffer_Release, PyObject_GetBuffer
from libc.stdint cimport INT32_MAX, INT64_MAX, INT64_MIN, int32_t, int64_t, uint8_t, uint32_t, uint64_t
from cpython.mem cimport PyMem_RawFree as free, PyMem_RawMalloc as malloc, PyMem_RawRealloc as realloc
from libc.math cimport signbit
from libc.string cimport memcpy, memset

from kafkawire.errors import BadMagicByteError, PayloadDecodeError, TruncatedPayloadError
from kafkawire.protobuf import plan as _P
from kafkawire.registry.wire import decode_message_indexes

include "arrow_builders.pxi"

cdef enum:
    K_INT32, K_INT64, K_SINT32, K_SINT64, K_BOOL, K_ENUM, K_FIXED32, K_FIXED64, K_FLOAT, K_DOUBLE,
    K_STRING, K_BYTES, K_MESSAGE

cdef enum:
    M_NULLABLE, M_IMPLICIT, M_DEFAULT, M_REQUIRED, M_REPEATED

cdef enum:
    N_STRUCT, N_INLINE, N_TIME

# the plan module is the one home of these numbers: a mismatch is an error to see at once
assert (_P.K_MESSAGE, _P.M_REPEATED, _P.N_TIME, _P.B_STRUCT) == (K_MESSAGE, M_REPEATED, N_TIME, B_STRUCT)

cdef int MAX_DEPTH = _P.MAX_DEPTH
cdef int WIRE[13]
for _k, _w in enumerate(_P.WIRE_TYPE):
    WIRE[_k] = _w


cdef struct PNode:
    int kind, out, first, count


cdef struct PField:
    int64_t number
    int kind, out, mode, sub, oneof, list_out, wire
    bint closed  # a closed enum: an unknown number is refused
    # the value of a singular field while its message is read
    bint has
    int64_t ival
    double dval
    Py_ssize_t s0, s1  # a string's or bytes' span; a message's first
    int nspans  # a message field's occurrences (more than one: merged, spans in a list)


cdef class _CPlan:
    """A plan's nodes and field entries as C arrays; its constants as Python objects."""
    cdef PNode *nodes
    cdef PField *fields
    cdef int root
    cdef list consts
    cdef list spans  # per field entry: the spans of a recurring message field
    cdef dict names  # per enum field entry: number -> name

    def __dealloc__(self):
        free(self.nodes)
        free(self.fields)


cdef _CPlan _compile(plan):
    cdef _CPlan c = _CPlan.__new__(_CPlan)
    cdef Py_ssize_t i
    cdef PField *f
    c.nodes = <PNode *>malloc(sizeof(PNode) * (len(plan.nodes) + 1))
    c.fields = <PField *>malloc(sizeof(PField) * (len(plan.fields) + 1))
    if c.nodes == NULL or c.fields == NULL:
        raise MemoryError()
    memset(c.fields, 0, sizeof(PField) * (len(plan.fields) + 1))
    for i, (kind, out, first, count) in enumerate(plan.nodes):
        c.nodes[i].kind = kind
        c.nodes[i].out = out
        c.nodes[i].first = first
        c.nodes[i].count = count
    c.consts = list(plan.consts)
    c.spans = [None] * len(plan.fields)
    for i, (number, kind, out, mode, sub, oneof, list_out) in enumerate(plan.fields):
        f = &c.fields[i]
        f.number = number
        f.kind = kind
        f.out = out
        f.mode = mode
        f.sub = sub
        f.oneof = oneof
        f.list_out = list_out
        f.wire = WIRE[kind]
        if kind == K_ENUM:
            f.closed = plan.consts[sub][1]
    c.root = plan.root
    return c


cdef struct Ctx:
    Col *cols
    PNode *nodes
    PField *fields


# -- reading -------------------------------------------------------------------------------

cdef inline int _varint(const uint8_t *buf, Py_ssize_t *pos, Py_ssize_t end, uint64_t *out) except -1:
    """An unsigned 64-bit varint (a 10th byte's high bits dropped, as protobuf drops them)."""
    cdef Py_ssize_t p = pos[0]
    cdef uint64_t result = 0, b
    cdef int shift = 0
    while True:
        if p >= end:
            _truncated("a varint", pos[0])
        b = buf[p]
        p += 1
        if shift == 63:
            if b & 0x80:
                _bad(f"the varint at byte {pos[0]} is longer than 10 bytes")
            out[0] = result | ((b & 1) << 63)
            pos[0] = p
            return 0
        result |= (b & 0x7F) << shift
        if not b & 0x80:
            out[0] = result
            pos[0] = p
            return 0
        shift += 7


cdef inline Py_ssize_t _length(const uint8_t *buf, Py_ssize_t *pos, Py_ssize_t end) except -1:
    cdef Py_ssize_t start = pos[0]
    cdef uint64_t n
    _varint(buf, pos, end, &n)
    if n > <uint64_t>(end - pos[0]):
        _truncated(f"a length-delimited field of {n} bytes", start)
    return <Py_ssize_t>n


cdef Py_ssize_t _skip(const uint8_t *buf, Py_ssize_t pos, Py_ssize_t end, int wt, uint64_t number,
                      int depth) except -1:
    """Past an unknown field's value (a group's fields included)."""
    cdef uint64_t v, key
    cdef Py_ssize_t n, start
    if wt == 0:
        _varint(buf, &pos, end, &v)
        return pos
    if wt == 1 or wt == 5:
        n = 8 if wt == 1 else 4
        if end - pos < n:
            _truncated(f"a {n}-byte field", pos)
        return pos + n
    if wt == 2:
        n = _length(buf, &pos, end)
        return pos + n
    if wt == 3:
        if depth >= MAX_DEPTH:
            _bad(f"groups nest deeper than {MAX_DEPTH} at byte {pos}")
        while True:
            start = pos
            _varint(buf, &pos, end, &key)
            if key & 7 == 4:
                if key >> 3 != number:
                    _bad(f"the group ending at byte {start} is not the one open")
                return pos
            pos = _skip(buf, pos, end, key & 7, key >> 3, depth + 1)
    _bad(f"wire type {wt} at byte {pos}")


cdef Py_ssize_t _scalar(PField *f, const uint8_t *buf, Py_ssize_t pos, Py_ssize_t end) except -1:
    """One value of ``f``'s scalar kind into its slot; the position after it."""
    cdef uint64_t v
    cdef uint32_t v32
    cdef int32_t i32
    cdef int64_t i64
    cdef float f32
    cdef Py_ssize_t n
    cdef int kind = f.kind
    if kind <= K_ENUM:
        _varint(buf, &pos, end, &v)
        if kind == K_INT32 or kind == K_ENUM:
            f.ival = <int32_t>v
        elif kind == K_INT64:
            f.ival = <int64_t>v
        elif kind == K_SINT32:
            v32 = <uint32_t>v
            f.ival = <int32_t>((v32 >> 1) ^ (0 - (v32 & 1)))
        elif kind == K_SINT64:
            f.ival = <int64_t>((v >> 1) ^ (0 - (v & 1)))
        else:
            f.ival = v != 0
        return pos
    if kind == K_FIXED32 or kind == K_FLOAT:
        if end - pos < 4:
            _truncated("a 4-byte field", pos)
        if kind == K_FIXED32:
            memcpy(&i32, buf + pos, 4)
            f.ival = i32
        else:
            memcpy(&f32, buf + pos, 4)
            f.dval = f32
        return pos + 4
    if kind == K_FIXED64 or kind == K_DOUBLE:
        if end - pos < 8:
            _truncated("an 8-byte field", pos)
        if kind == K_FIXED64:
            memcpy(&i64, buf + pos, 8)
            f.ival = i64
        else:
            memcpy(&f.dval, buf + pos, 8)
        return pos + 8
    n = _length(buf, &pos, end)
    f.s0 = pos
    f.s1 = pos + n
    return pos + n


cdef inline int _known(_CPlan cp, PField *f, Py_ssize_t start) except -1:
    """A closed enum's number that is none of its values refused (see ``_mistyped``)."""
    if f.closed and f.ival not in cp.consts[f.sub][0]:
        _bad(f"field {f.number} at byte {start}: {f.ival} is none of its closed enum's values")
    return 0


cdef int _mistyped(PField *f, Py_ssize_t start, int wt) except -1:
    """A known field in a wire type not its own: from_protobuf refuses it (the pure twin says why)."""
    _bad(f"field {f.number} at byte {start} has wire type {wt}, not its type's {f.wire}")


cdef int _append(Ctx *x, _CPlan cp, PField *f, const uint8_t *buf) except -1:
    """The value in ``f``'s slot to its builder."""
    cdef Col *c = &x.cols[f.out]
    cdef int kind = f.kind
    cdef float f32
    cdef int32_t i32
    cdef bytes name
    if kind == K_STRING or kind == K_BYTES:
        return _put_var(c, buf + f.s0, f.s1 - f.s0)
    if kind == K_ENUM:
        names, _closed, prefix, _default = cp.consts[f.sub]
        name = names.get(f.ival)
        if name is None:
            name = prefix + str(f.ival).encode()
        return _put_var(c, <const char *>name, len(name))
    if kind == K_BOOL:
        _put1(&c.data, 1 if f.ival else 0)
    elif kind == K_FLOAT:
        f32 = <float>f.dval
        _put4(&c.data, &f32)
    elif kind == K_DOUBLE:
        _put8(&c.data, &f.dval)
    elif c.width == 4:
        i32 = <int32_t>f.ival
        _put4(&c.data, &i32)
    else:
        _put8(&c.data, &f.ival)
    _put1(&c.valid, 1)
    return 0


cdef int _append_default(Ctx *x, _CPlan cp, PField *f) except -1:
    """``f``'s default (a constant of the plan) to its builder."""
    cdef bytes raw
    default = cp.consts[f.sub]
    if f.kind == K_STRING or f.kind == K_BYTES:
        raw = default
        return _put_var(&x.cols[f.out], <const char *>raw, len(raw))
    if f.kind == K_ENUM:
        f.ival = default[3]
    elif f.kind == K_FLOAT or f.kind == K_DOUBLE:
        f.dval = default
    else:
        f.ival = default
    return _append(x, cp, f, NULL)


cdef inline bint _is_zero(PField *f):
    """A proto3 default (0, false, empty; +0.0 but not -0.0, as Java compares)."""
    if f.kind == K_FLOAT or f.kind == K_DOUBLE:
        return f.dval == 0.0 and not signbit(f.dval)
    if f.kind == K_STRING or f.kind == K_BYTES:
        return f.s1 == f.s0
    return f.ival == 0


cdef int _message(Ctx *x, _CPlan cp, int node, const uint8_t *buf, Py_ssize_t pos, Py_ssize_t end,
                  int depth) except -1:
    """The message at ``buf[pos:end]`` into the builders of ``node``."""
    cdef PNode *nd = &x.nodes[node]
    cdef int first = nd.first, count = nd.count, i, j, hint = 0
    cdef PField *f
    cdef PField *g
    cdef uint64_t key, number
    cdef int wt
    cdef Py_ssize_t n, start, stop
    cdef int64_t seconds, nanos, micros
    cdef Col *lst
    cdef bytes merged
    if depth > MAX_DEPTH:
        _bad(f"messages nest deeper than {MAX_DEPTH}")
    for i in range(first, first + count):
        x.fields[i].has = 0
        x.fields[i].nspans = 0
    while pos < end:
        start = pos
        _varint(buf, &pos, end, &key)
        number = key >> 3
        wt = key & 7
        if number == 0:
            _bad(f"field number 0 at byte {start}")
        # the field entry: fields mostly come in order, so look from the last one found
        i = -1
        for j in range(count):
            if x.fields[first + (hint + j) % count].number == <int64_t>number:
                i = first + (hint + j) % count
                hint = (hint + j) % count
                break
        if i < 0:
            pos = _skip(buf, pos, end, wt, number, 0)
            continue
        f = &x.fields[i]
        if f.mode == M_REPEATED:
            if wt == f.wire:
                if f.kind == K_MESSAGE:
                    n = _length(buf, &pos, end)
                    _message(x, cp, f.sub, buf, pos, pos + n, depth + 1)
                    pos += n
                else:
                    pos = _scalar(f, buf, pos, end)
                    _known(cp, f, start)
                    _append(x, cp, f, buf)
            elif wt == 2 and f.wire != 2:  # packed
                n = _length(buf, &pos, end)
                stop = pos + n
                while pos < stop:
                    pos = _scalar(f, buf, pos, stop)
                    _known(cp, f, start)
                    _append(x, cp, f, buf)
            else:
                _mistyped(f, start, wt)
            continue
        if wt != f.wire:
            _mistyped(f, start, wt)
        if f.kind == K_MESSAGE:
            n = _length(buf, &pos, end)
            if f.nspans == 0:
                f.s0 = pos
                f.s1 = pos + n
            elif f.nspans == 1:
                cp.spans[i] = [(f.s0, f.s1), (pos, pos + n)]
            else:
                cp.spans[i].append((pos, pos + n))
            f.nspans += 1
            pos += n
        else:
            pos = _scalar(f, buf, pos, end)
            _known(cp, f, start)
        f.has = 1
        if f.oneof != -1:
            for j in range(first, first + count):
                g = &x.fields[j]
                if j != i and g.oneof == f.oneof:
                    g.has = 0
                    g.nspans = 0
    if nd.kind == N_TIME:
        f = &x.fields[first]
        g = &x.fields[first + 1]
        seconds = f.ival if f.has else 0
        nanos = g.ival if g.has else 0
        # C division truncates toward zero, as Java's does
        nanos = nanos / 1000 if nanos >= 0 else -((-nanos) / 1000)
        if -(INT64_MAX // 1000000) < seconds < INT64_MAX // 1000000:
            micros = seconds * 1000000 + nanos
        else:  # near the ends of the range: Python's integers say whether it fits
            big = (<object>seconds) * 1000000 + nanos
            if not INT64_MIN <= big <= INT64_MAX:
                _bad(f"{seconds} seconds is out of the microsecond range")
            micros = big
        lst = &x.cols[nd.out]
        _put8(&lst.data, &micros)
        _put1(&lst.valid, 1)
        return 0
    for i in range(first, first + count):
        f = &x.fields[i]
        if f.mode == M_REPEATED:
            _end_list(x.cols, &x.cols[f.list_out])
            continue
        if f.kind == K_MESSAGE:
            if f.nspans == 0:
                if f.mode == M_DEFAULT:  # a map entry's value: the empty message
                    _message(x, cp, f.sub, buf, 0, 0, depth + 1)
                elif f.mode == M_REQUIRED:
                    _bad(f"the required field {f.number} is missing")
                else:
                    _fill(x.cols, f.out, 0)
            elif f.nspans == 1:
                _message(x, cp, f.sub, buf, f.s0, f.s1, depth + 1)
            else:  # occurrences of one message field merge: read them as one
                merged = b"".join([(<const char *>buf)[s:e] for s, e in cp.spans[i]])
                _message(x, cp, f.sub, <const uint8_t *><const char *>merged, 0, len(merged), depth + 1)
            continue
        if not f.has:
            if f.mode == M_DEFAULT:
                if f.out >= 0:
                    _append_default(x, cp, f)
            elif f.mode == M_REQUIRED:
                _bad(f"the required field {f.number} is missing")
            elif f.out >= 0:
                _fill(x.cols, f.out, 0)
        elif f.mode == M_IMPLICIT and _is_zero(f):
            if f.out >= 0:
                _fill(x.cols, f.out, 0)
        elif f.out >= 0:
            _append(x, cp, f, buf)
    if nd.kind == N_STRUCT:
        _put1(&x.cols[nd.out].valid, 1)
    return 0


cdef _CPlan _plan_of(dict plans, dict compiled, plan_for, tuple key):
    """The compiled plan of ``key`` (schema id and message indexes; -1 unframed), each
    plan compiled once per call."""
    cdef _CPlan cp = plans.get(key)
    if cp is None:
        plan = plan_for(key[0], key[1])
        cp = compiled.get(id(plan))
        if cp is None:
            cp = compiled[id(plan)] = _compile(plan)
        plans[key] = cp
    return cp


cdef class _ProtobufRows(_Rows):
    """Each value read with the plan of its schema id and message indexes."""
    cdef Ctx x
    cdef object plan_for
    cdef object data
    cdef dict plans
    cdef dict compiled
    cdef _CPlan cp
    cdef long long last_simple

    cdef int value(self, Col *cols, const uint8_t *buf, Py_ssize_t pos, Py_ssize_t end,
                   long long schema_id) except -1:
        cdef _CPlan cp = self.cp
        if schema_id < 0:  # unframed: one plan
            if cp is None:
                cp = _plan_of(self.plans, self.compiled, self.plan_for, (-1, ()))
        elif end > pos and buf[pos] == 0:  # the common path [0]: one byte
            pos += 1
            if schema_id != self.last_simple:  # the plan of the row before, mostly
                cp = _plan_of(self.plans, self.compiled, self.plan_for, (schema_id, (0,)))
                self.last_simple = schema_id
        else:  # the indexes read from the whole framed value, as the pure twin reads them
            indexes, after = decode_message_indexes(memoryview(self.data)[pos - 5:end], 5)
            cp = _plan_of(self.plans, self.compiled, self.plan_for, (schema_id, tuple(indexes)))
            self.last_simple = -1
            pos += after - 5
        self.cp = cp
        self.x.cols = cols
        self.x.nodes = cp.nodes
        self.x.fields = cp.fields
        return _message(&self.x, cp, cp.root, buf, pos, end, 0)


def decode_column(Py_ssize_t count, Py_ssize_t array_offset, validity, offsets, data,
                  layout, plan_for, bint framed):
    """Decode ``count`` Protobuf values of an Arrow binary column into the builders of
    ``layout`` (see ``kafkawire._pure.protobuf.decode_column``, whose contract this twin keeps)."""
    cdef _ProtobufRows rows = _ProtobufRows.__new__(_ProtobufRows)
    rows.plan_for = plan_for
    rows.data = data
    rows.plans = {}
    rows.compiled = {}
    rows.last_simple = -1
    return _decode_rows(rows, count, array_offset, validity, offsets, data, layout, framed)
