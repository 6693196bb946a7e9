# Part of kafkawire._fast.codec (included by codec.pyx): reading a plan's fields from a
# buffer into new message objects.

# -- decoding -------------------------------------------------------------------------

cdef class _Src:
    """The buffer being decoded (for zero-copy records views)."""
    cdef object obj
    cdef object view

    cdef object slice(self, Py_ssize_t a, Py_ssize_t b):
        if self.view is None:
            mv = PyMemoryView_FromObject(self.obj)
            if mv.ndim != 1 or mv.itemsize != 1 or mv.format != "B":
                mv = mv.cast("B")
            self.view = mv
        return self.view[a:b]


cdef int _trunc(str what, Py_ssize_t pos, Py_ssize_t need, Py_ssize_t end) except -1:
    cdef Py_ssize_t remain = end - pos
    if remain < 0:
        remain = 0
    raise TruncatedError(f"truncated {what} at byte {pos}: needs {need} bytes, {remain} remain")


cdef inline int _need(Op *op, Py_ssize_t pos, Py_ssize_t n, Py_ssize_t end) except -1:
    if end - pos < n:
        _trunc(_attr(op) + " " + _KIND_NAMES[op.kind if op.kind != ARRAY else op.elem_kind], pos, n, end)
    return 0


cdef inline Py_ssize_t _read_len(const uint8_t *d, Py_ssize_t end, Py_ssize_t *pos,
                                 int compact, int short, Op *op) except -2:
    """A length or count: compact (uvarint - 1) or int16/int32; -1 is null, other
    negatives raise DecodeError."""
    cdef uint32_t u
    cdef Py_ssize_t n
    cdef Py_ssize_t p = pos[0]
    if compact:
        read_uvarint32(d, end, pos, &u)
        return <Py_ssize_t>u - 1
    if short:
        if end - p < 2:
            _trunc(_attr(op) + " length", p, 2, end)
        n = <int16_t>load_be16(d + p)
        pos[0] = p + 2
    else:
        if end - p < 4:
            _trunc(_attr(op) + " length", p, 4, end)
        n = <int32_t>load_be32(d + p)
        pos[0] = p + 4
    if n < -1:
        raise DecodeError(f"{_attr(op)}: negative length {n} at byte {p}")
    return n


cdef inline int _null_ok(Op *op, Py_ssize_t pos) except -1:
    if not op.nullable:
        raise DecodeError(f"{_attr(op)}: null before byte {pos} where null is not allowed")
    return 0


# uuid.UUID keeps its value in the slots "int" and "is_safe": fill them directly.
cdef Py_ssize_t _UUID_INT = kw_member_offset(_UUID.__dict__.get("int"))
cdef Py_ssize_t _UUID_SAFE = kw_member_offset(_UUID.__dict__.get("is_safe"))


# CPython's cached ints -5..256 (what PyLong_FromLong returns for them), looked up
# without a call: most numbers in a message (error codes, counts, ids) are small.
cdef PyObject *_SMALL_INTS[262]


cdef int _fill_small_ints() except -1:
    cdef long i
    for i in range(262):
        v = PyLong_FromLong(i - 5)
        Py_INCREF(v)  # kept for the life of the module
        _SMALL_INTS[i] = <PyObject *>v
    return 0


_fill_small_ints()


cdef inline object _int(long x):
    if -5 <= x <= 256:
        return <object>_SMALL_INTS[x + 5]
    return PyLong_FromLong(x)


cdef object _uuid_at(const uint8_t *p):
    cdef uint64_t hi = load_be64(p)
    cdef uint64_t lo = load_be64(p + 8)
    if hi == 0 and lo == 0:
        return _ZERO_UUID
    i = kw_uint128_be(p)
    if _UUID_INT < 0 or _UUID_SAFE < 0:
        u = _UUID_NEW(_UUID)
        _setattr(u, "int", i)
        _setattr(u, "is_safe", _SAFE_UNKNOWN)
        return u
    u = kw_alloc(<PyTypeObject *>_UUID)
    kw_slot_set(u, _UUID_INT, i)
    kw_slot_set(u, _UUID_SAFE, _SAFE_UNKNOWN)
    return u


cdef object _text(const uint8_t *d, Py_ssize_t pos, Py_ssize_t n, Py_ssize_t end, Op *op):
    if end - pos < n:
        _trunc(_attr(op) + " string", pos, n, end)
    try:
        return PyUnicode_DecodeUTF8(<const char *>(d + pos), n, NULL)
    except UnicodeDecodeError as exc:
        raise DecodeError(f"{_attr(op)}: string at byte {pos} is not valid UTF-8: {exc}") from None


cdef inline object _read_fixed(int kind, const uint8_t *q):
    if kind == INT32:
        return _int(<int32_t>load_be32(q))
    if kind == INT16:
        return _int(<int16_t>load_be16(q))
    if kind == INT64:
        return PyLong_FromLongLong(<int64_t>load_be64(q))
    if kind == INT8:
        return _int(<int8_t>q[0])
    if kind == BOOL:
        return PyBool_FromLong(q[0] != 0)
    if kind == UINT16:
        return _int(load_be16(q))
    if kind == UINT32:
        return PyLong_FromLongLong(load_be32(q))
    if kind == FLOAT64:
        return _f64(q)
    if kind == UUID:
        return _uuid_at(q)
    raise AssertionError(kind)


cdef inline object _f64(const uint8_t *q):
    cdef uint64_t bits = load_be64(q)
    cdef double d
    memcpy(&d, &bits, 8)
    return PyFloat_FromDouble(d)


cdef object _read_array(Op *op, const uint8_t *d, Py_ssize_t end, Py_ssize_t *pos, _Src src):
    cdef Py_ssize_t n = _read_len(d, end, pos, op.compact, 0, op)
    cdef Py_ssize_t p = pos[0]
    cdef Py_ssize_t i, m, w
    cdef int ek = op.elem_kind
    cdef CPlan sub
    cdef list out
    if n < 0:
        _null_ok(op, p)
        return None
    if ek == STRUCT:
        sub = <CPlan>op.sub
        if n > end - p or n * sub.min_size > end - p:
            _trunc(f"{_attr(op)} array of {n}", p, n * (sub.min_size if sub.min_size > 1 else 1), end)
        out = PyList_New(n)
        for i in range(n):
            v = _read_struct(sub, d, end, pos, src)
            Py_INCREF(v)
            PyList_SET_ITEM(out, i, v)
        return out
    if ek == STRING:
        if n > end - p:
            _trunc(f"{_attr(op)} array of {n}", p, n, end)
        out = PyList_New(n)
        for i in range(n):
            m = _read_len(d, end, pos, op.compact, 1, op)
            if m < 0:
                raise DecodeError(f"{_attr(op)}: null or negative string in an array at byte {pos[0]}")
            v = _text(d, pos[0], m, end, op)
            pos[0] += m
            Py_INCREF(v)
            PyList_SET_ITEM(out, i, v)
        return out
    w = _width(ek)
    if n * w > end - p:
        _trunc(f"{_attr(op)} array of {n}", p, n * w, end)
    out = PyList_New(n)
    if ek == INT32:
        for i in range(n):
            v = _int(<int32_t>load_be32(d + p))
            p += 4
            Py_INCREF(v)
            PyList_SET_ITEM(out, i, v)
    else:
        for i in range(n):
            v = _read_fixed(ek, d + p)
            p += w
            Py_INCREF(v)
            PyList_SET_ITEM(out, i, v)
    pos[0] = p
    return out


cdef inline Py_ssize_t _width(int kind) noexcept:
    if kind == BOOL or kind == INT8:
        return 1
    if kind == INT16 or kind == UINT16:
        return 2
    if kind == INT32 or kind == UINT32:
        return 4
    if kind == INT64 or kind == FLOAT64:
        return 8
    if kind == UUID:
        return 16
    return 0


cdef object _read_value(Op *op, const uint8_t *d, Py_ssize_t end, Py_ssize_t *pos, _Src src):
    cdef int kind = op.kind
    cdef Py_ssize_t p = pos[0]
    cdef Py_ssize_t n
    cdef uint32_t marker
    if op.width:
        _need(op, p, op.width, end)
        pos[0] = p + op.width
        return _read_fixed(kind, d + p)
    if kind == STRING:
        n = _read_len(d, end, pos, op.compact, 1, op)
        if n < 0:
            _null_ok(op, pos[0])
            return None
        v = _text(d, pos[0], n, end, op)
        pos[0] += n
        return v
    if kind == BYTES or kind == RECORDS:
        n = _read_len(d, end, pos, op.compact, 0, op)
        p = pos[0]
        if n < 0:
            _null_ok(op, p)
            return None
        if end - p < n:
            _trunc(_attr(op) + " bytes", p, n, end)
        pos[0] = p + n
        if kind == RECORDS:
            return src.slice(p, p + n)
        return PyBytes_FromStringAndSize(<const char *>(d + p), n)
    if kind == ARRAY:
        return _read_array(op, d, end, pos, src)
    if kind == STRUCT:
        if op.nullable:
            if op.tag >= 0:  # a tagged struct's marker is an unsigned varint: 0 null
                read_uvarint32(d, end, pos, &marker)
                if marker == 0:
                    return None
                return _read_struct(<CPlan>op.sub, d, end, pos, src)
            if p >= end:
                _trunc(_attr(op) + " marker", p, 1, end)
            pos[0] = p + 1
            if d[p] >= 0x80:
                return None
        return _read_struct(<CPlan>op.sub, d, end, pos, src)
    raise AssertionError(kind)


cdef inline int _set_default(object obj, Op *op) except -1:
    if op.fac == FAC_NONE:
        kw_slot_set(obj, op.offset, <object>op.dflt)
    elif op.fac == FAC_LIST:
        kw_slot_set(obj, op.offset, PyList_New(0))
    elif op.fac == FAC_STRUCT:
        kw_slot_set(obj, op.offset, _default_struct(<CPlan>op.sub))
    else:
        kw_slot_set(obj, op.offset, (<object>op.factory)())
    return 0


cdef object _default_struct(CPlan plan):
    """What ``plan.cls()`` makes (every field at its default), without calling it: a
    decoder makes one for each absent struct field (three per FetchResponse partition)."""
    cdef Py_ssize_t i
    obj = kw_alloc(plan.tp)
    for i in range(plan.nops):
        _set_default(obj, &plan.ops[i])
    for i in range(plan.ntagged):
        _set_default(obj, &plan.tagged[i])
    for i in range(plan.nabsent):
        _set_default(obj, &plan.absent[i])
    kw_slot_set(obj, plan.unk_off, None)
    return obj


cdef object _read_struct(CPlan plan, const uint8_t *d, Py_ssize_t end, Py_ssize_t *pos, _Src src):
    cdef Py_ssize_t i, _j, start
    cdef uint32_t count, tag, size
    cdef Op *op
    cdef list unknown = None
    cdef Py_ssize_t p, n
    cdef int code
    obj = kw_alloc(plan.tp)
    for i in range(plan.nops):
        op = &plan.ops[i]
        code = op.code
        p = pos[0]
        # the common kinds read here; every check is the one _read_value makes
        if code == RD_INT32:
            if end - p < 4:
                _need(op, p, 4, end)
            v = _int(<int32_t>load_be32(d + p))
            pos[0] = p + 4
        elif code == RD_INT16:
            if end - p < 2:
                _need(op, p, 2, end)
            v = _int(<int16_t>load_be16(d + p))
            pos[0] = p + 2
        elif code == RD_INT64:
            if end - p < 8:
                _need(op, p, 8, end)
            v = PyLong_FromLongLong(<int64_t>load_be64(d + p))
            pos[0] = p + 8
        elif code == RD_INT8:
            if end - p < 1:
                _need(op, p, 1, end)
            v = _int(<int8_t>d[p])
            pos[0] = p + 1
        elif code == RD_BOOL:
            if end - p < 1:
                _need(op, p, 1, end)
            v = True if d[p] else False
            pos[0] = p + 1
        elif code == RD_STRING:
            n = _read_len(d, end, pos, op.compact, 1, op)
            if n < 0:
                _null_ok(op, pos[0])
            v = _text(d, pos[0], n, end, op)
            pos[0] += n
        elif code == RD_STRUCTS:
            v = _read_array(op, d, end, pos, src)
        else:
            v = _read_value(op, d, end, pos, src)
        kw_slot_set(obj, op.offset, v)
    for i in range(plan.nabsent):
        _set_default(obj, &plan.absent[i])
    if plan.flexible:
        for i in range(plan.ntagged):
            _set_default(obj, &plan.tagged[i])
        read_uvarint32(d, end, pos, &count)
        if <Py_ssize_t>count > end - pos[0]:
            _trunc("tagged fields", pos[0], count, end)
        for _j in range(count):
            read_uvarint32(d, end, pos, &tag)
            read_uvarint32(d, end, pos, &size)
            start = pos[0]
            if <Py_ssize_t>size > end - start:
                _trunc(f"tagged field {tag}", start, size, end)
            for i in range(plan.ntagged):
                op = &plan.tagged[i]
                if <uint32_t>op.tag == tag:
                    kw_slot_set(obj, op.offset, _read_value(op, d, start + <Py_ssize_t>size, pos, src))
                    if pos[0] != start + <Py_ssize_t>size:
                        raise DecodeError(
                            f"{_attr(op)}: tagged field {tag} at byte {start} declares {size} "
                            f"bytes but its value takes {pos[0] - start}")
                    break
            else:
                if tag in plan.reserved_tags:
                    raise DecodeError(f"tagged field {tag} at byte {start} is not valid at "
                                      f"v{plan.plan.version} of {plan.plan.spec.name}")
                if unknown is None:
                    unknown = []
                unknown.append((tag, PyBytes_FromStringAndSize(<const char *>(d + start), size)))
                pos[0] = start + size
    if unknown is not None:
        if len(unknown) > 1:
            unknown.sort(key=_first)
        kw_slot_set(obj, plan.unk_off, tuple(unknown))
    else:
        kw_slot_set(obj, plan.unk_off, None)
    return obj


def _first(t):
    return t[0]


cdef int _open(object buf, Py_buffer *view) except -1:
    try:
        PyObject_GetBuffer(buf, view, PyBUF_SIMPLE)
    except (TypeError, BufferError) as exc:
        raise DecodeError(f"expected a contiguous bytes-like object, got {type(buf).__name__}: {exc}") from None
    return 0


def decode_from(plan, buf, Py_ssize_t offset=0):
    """Decode one struct at ``offset``; returns ``(object, offset after it)``."""
    cdef CPlan cp = get_cplan(plan)
    cdef Py_buffer view
    cdef Py_ssize_t pos = offset
    cdef _Src src = _Src.__new__(_Src)
    src.obj = buf
    cdef int gc_was
    _open(buf, &view)
    gc_was = kw_gc_pause()
    try:
        if offset < 0 or offset > view.len:
            raise TruncatedError(f"offset {offset} is outside a buffer of {view.len} bytes")
        obj = _read_struct(cp, <const uint8_t *>view.buf, view.len, &pos, src)
    finally:
        kw_gc_resume(gc_was)
        PyBuffer_Release(&view)
    return obj, pos


def decode(plan, buf):
    """Decode a struct that fills ``buf`` exactly (trailing bytes raise DecodeError)."""
    cdef CPlan cp = get_cplan(plan)
    cdef Py_buffer view
    cdef Py_ssize_t pos = 0
    cdef _Src src = _Src.__new__(_Src)
    src.obj = buf
    cdef int gc_was
    _open(buf, &view)
    gc_was = kw_gc_pause()
    try:
        obj = _read_struct(cp, <const uint8_t *>view.buf, view.len, &pos, src)
        if pos != view.len:
            raise DecodeError(
                f"{plan.spec.name} v{plan.version}: {view.len - pos} trailing bytes after byte {pos}")
    finally:
        kw_gc_resume(gc_was)
        PyBuffer_Release(&view)
    return obj
