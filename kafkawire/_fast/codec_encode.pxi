# Part of kafkawire._fast.codec (included by codec.pyx): pass 2 of writing, the message
# written once into a bytes object of exactly the size pass 1 found.

# -- encoding: pass 2, write ------------------------------------------------------------

ctypedef struct W:
    uint8_t *buf
    Py_ssize_t pos
    Py_ssize_t cap
    Py_ssize_t ci


cdef inline int _room(W *w, Py_ssize_t n) except -1:
    if w.cap - w.pos < n:
        raise EncodeError("a value changed while it was being encoded")
    return 0


cdef inline int _put_uvarint(W *w, uint64_t v) except -1:
    _room(w, uvarint_size(v))
    w.pos += write_uvarint(w.buf + w.pos, v)
    return 0


cdef inline int _put_len(W *w, int compact, int short, Py_ssize_t n) except -1:
    if compact:
        return _put_uvarint(w, <uint64_t>(n + 1))
    if short:
        _room(w, 2)
        store_be16(w.buf + w.pos, <uint16_t><int16_t>n)
        w.pos += 2
    else:
        _room(w, 4)
        store_be32(w.buf + w.pos, <uint32_t><int32_t>n)
        w.pos += 4
    return 0


cdef inline int _put_raw(W *w, const void *src, Py_ssize_t n) except -1:
    _room(w, n)
    memcpy(w.buf + w.pos, src, n)
    w.pos += n
    return 0


cdef long long _as_int(Op *op, int kind, object v) except? -1:
    cdef long long x
    try:
        x = PyLong_AsLongLong(v)
    except OverflowError:
        raise EncodeError(f"{_attr(op)}: {v} is out of range for {_KIND_NAMES[kind]}") from None
    except (TypeError, ValueError):
        raise EncodeError(f"{_attr(op)}: cannot encode {v!r:.80} as {_KIND_NAMES[kind]}: not an integer") from None
    if kind == INT32:
        if x < INT32_MIN or x > INT32_MAX:
            raise EncodeError(f"{_attr(op)}: {x} is out of range for int32")
    elif kind == INT16:
        if x < -32768 or x > 32767:
            raise EncodeError(f"{_attr(op)}: {x} is out of range for int16")
    elif kind == INT8:
        if x < -128 or x > 127:
            raise EncodeError(f"{_attr(op)}: {x} is out of range for int8")
    elif kind == UINT16:
        if x < 0 or x > 65535:
            raise EncodeError(f"{_attr(op)}: {x} is out of range for uint16")
    elif kind == UINT32:
        if x < 0 or x > 4294967295:
            raise EncodeError(f"{_attr(op)}: {x} is out of range for uint32")
    return x


cdef int _put_fixed(W *w, Op *op, int kind, object v) except -1:
    cdef long long x
    cdef double f
    cdef uint64_t bits
    cdef uint8_t *q
    if kind == BOOL:
        _room(w, 1)
        w.buf[w.pos] = 1 if v else 0
        w.pos += 1
        return 0
    if kind == UUID:
        if not isinstance(v, _UUID):
            raise EncodeError(f"{_attr(op)}: expected uuid.UUID, got {type(v).__name__}")
        b = v.bytes
        return _put_raw(w, PyBytes_AS_STRING(b), 16)
    if kind == FLOAT64:
        if not (PyFloat_Check(v) or PyLong_Check(v)):
            raise EncodeError(f"{_attr(op)}: expected a float, got {type(v).__name__}")
        try:
            f = PyFloat_AsDouble(v)
        except OverflowError as exc:
            raise EncodeError(f"{_attr(op)}: cannot encode {v!r:.80} as float64: {exc}") from None
        memcpy(&bits, &f, 8)
        _room(w, 8)
        store_be64(w.buf + w.pos, bits)
        w.pos += 8
        return 0
    x = _as_int(op, kind, v)
    q = w.buf + w.pos
    if kind == INT32 or kind == UINT32:
        _room(w, 4)
        store_be32(q, <uint32_t>x)
        w.pos += 4
    elif kind == INT16 or kind == UINT16:
        _room(w, 2)
        store_be16(q, <uint16_t>x)
        w.pos += 2
    elif kind == INT64:
        _room(w, 8)
        store_be64(q, <uint64_t>x)
        w.pos += 8
    else:
        _room(w, 1)
        q[0] = <uint8_t>x
        w.pos += 1
    return 0


cdef int _put_str(W *w, Op *op, object v) except -1:
    cdef Py_ssize_t n
    cdef const char *s
    if not PyUnicode_Check(v):
        raise EncodeError(f"{_attr(op)}: expected str, got {type(v).__name__}")
    if kw_is_ascii(v):
        n = PyUnicode_GET_LENGTH(v)
        s = kw_ascii_data(v)
    else:
        try:
            s = PyUnicode_AsUTF8AndSize(v, &n)
        except UnicodeEncodeError as exc:
            raise EncodeError(f"{_attr(op)}: not encodable as UTF-8: {exc}") from None
    if not op.compact and n > 0x7FFF:
        raise EncodeError(f"{_attr(op)}: {n} bytes is longer than an int16 length allows")
    _put_len(w, op.compact, 1, n)
    return _put_raw(w, s, n)


cdef int _put_value(W *w, Op *op, object v, list cache) except -1:
    cdef int kind = op.kind
    cdef Py_ssize_t n, i
    cdef Py_buffer view
    cdef CPlan sub
    if op.width:
        return _put_fixed(w, op, kind, v)
    if v is None:
        if not op.nullable:
            raise EncodeError(f"{_attr(op)}: None is not allowed at this version")
        if kind == STRUCT:  # the int8 marker -1, or (tagged) the unsigned varint 0
            _room(w, 1)
            w.buf[w.pos] = 0xFF if op.tag < 0 else 0
            w.pos += 1
            return 0
        return _put_len(w, op.compact, kind == STRING, -1)
    if kind == STRING:
        return _put_str(w, op, v)
    if kind == BYTES or kind == RECORDS:
        try:
            PyObject_GetBuffer(v, &view, PyBUF_SIMPLE)
        except (TypeError, BufferError):
            raise EncodeError(
                f"{_attr(op)}: expected a contiguous bytes-like object, got {type(v).__name__}") from None
        try:
            _put_len(w, op.compact, 0, view.len)
            _put_raw(w, view.buf, view.len)
        finally:
            PyBuffer_Release(&view)
        return 0
    if kind == ARRAY:
        if not (PyList_Check(v) or PyTuple_Check(v)):
            raise EncodeError(f"{_attr(op)}: expected a list, got {type(v).__name__}")
        n = PySequence_Fast_GET_SIZE(v)
        _put_len(w, op.compact, 0, n)
        i = 0
        if op.elem_kind == STRUCT:
            sub = <CPlan>op.sub
            while i < PySequence_Fast_GET_SIZE(v):
                item = <object>PySequence_Fast_GET_ITEM(v, i)
                if not PyObject_TypeCheck(item, sub.tp):
                    raise EncodeError(
                        f"{_attr(op)}: expected {sub.cls.__name__} items, got {type(item).__name__}")
                _write_struct(w, sub, item, cache)
                i += 1
        elif op.elem_kind == STRING:
            while i < PySequence_Fast_GET_SIZE(v):
                item = <object>PySequence_Fast_GET_ITEM(v, i)
                if item is None:
                    raise EncodeError(f"{_attr(op)}: None in an array of strings")
                _put_str(w, op, item)
                i += 1
        else:
            while i < PySequence_Fast_GET_SIZE(v):
                _put_fixed(w, op, op.elem_kind, <object>PySequence_Fast_GET_ITEM(v, i))
                i += 1
        if i != n:
            raise EncodeError(f"{_attr(op)}: the list changed while it was being encoded")
        return 0
    if kind == STRUCT:
        sub = <CPlan>op.sub
        if not PyObject_TypeCheck(v, sub.tp):
            raise EncodeError(f"{_attr(op)}: expected {sub.cls.__name__}, got {type(v).__name__}")
        if op.nullable:
            _room(w, 1)
            w.buf[w.pos] = 1
            w.pos += 1
        return _write_struct(w, sub, v, cache)
    raise AssertionError(kind)


cdef int _put_tagged(W *w, Op *op, object v, list cache) except -1:
    cdef Py_ssize_t n = cache[w.ci]
    cdef Py_ssize_t start
    w.ci += 1
    _put_uvarint(w, <uint64_t>op.tag)
    _put_uvarint(w, <uint64_t>n)
    start = w.pos
    _put_value(w, op, v, cache)
    if w.pos - start != n:
        raise EncodeError(f"{_attr(op)}: value changed while it was being encoded")
    return 0


cdef int _put_unknown(W *w, object tag, object data) except -1:
    cdef Py_buffer view
    _put_uvarint(w, <uint64_t>tag)
    PyObject_GetBuffer(data, &view, PyBUF_SIMPLE)
    try:
        _put_uvarint(w, <uint64_t>view.len)
        _put_raw(w, view.buf, view.len)
    finally:
        PyBuffer_Release(&view)
    return 0


cdef int _write_struct(W *w, CPlan plan, object obj, list cache) except -1:
    cdef Py_ssize_t i, j, nu, count
    cdef Op *op
    cdef PyObject *raw
    for i in range(plan.nops):
        op = &plan.ops[i]
        raw = kw_slot_get(obj, op.offset)
        if raw == NULL:
            _get(obj, op)
        if op.width:
            _put_fixed(w, op, op.kind, <object>raw)
        else:
            _put_value(w, op, <object>raw, cache)
    if not plan.flexible:
        return 0
    raw = kw_slot_get(obj, plan.unk_off)
    unknown = <object>raw if raw != NULL else None
    if unknown:
        unknown = sorted(unknown, key=_first)
        nu = len(unknown)
    else:
        nu = 0
    count = nu
    for i in range(plan.ntagged):
        if not _is_default(&plan.tagged[i], _get(obj, &plan.tagged[i])):
            count += 1
    _put_uvarint(w, <uint64_t>count)
    j = 0
    for i in range(plan.ntagged):
        op = &plan.tagged[i]
        v = _get(obj, op)
        if _is_default(op, v):
            continue
        while j < nu and unknown[j][0] < op.tag:
            _put_unknown(w, unknown[j][0], unknown[j][1])
            j += 1
        _put_tagged(w, op, v, cache)
    while j < nu:
        _put_unknown(w, unknown[j][0], unknown[j][1])
        j += 1
    return 0


def size(plan, obj):
    """The exact number of bytes :func:`encode` writes for ``obj`` at the plan's version."""
    cdef CPlan cp = get_cplan(plan)
    if not PyObject_TypeCheck(obj, cp.tp):
        raise EncodeError(f"expected {cp.cls.__name__}, got {type(obj).__name__}")
    return _size_struct(cp, obj, [])


def encode_parts(parts, bint size_prefix=False):
    """Encode several structs back to back (a header then a body, say) into one buffer,
    optionally preceded by the int32 size of the rest (a Kafka frame)."""
    cdef Py_ssize_t total = 4 if size_prefix else 0
    cdef CPlan cp
    cdef W w
    cdef list caches = []
    cdef list cplans = []
    cdef list cache
    cdef Py_ssize_t k
    for plan, obj in parts:
        cp = get_cplan(plan)
        if not PyObject_TypeCheck(obj, cp.tp):
            raise EncodeError(f"expected {cp.cls.__name__}, got {type(obj).__name__}")
        cache = []
        total += _size_struct(cp, obj, cache)
        caches.append(cache)
        cplans.append((cp, obj))
    if size_prefix and total - 4 > INT32_MAX:
        raise EncodeError(f"a frame of {total - 4} bytes is larger than an int32 size allows")
    out = PyBytes_FromStringAndSize(NULL, total)
    w.buf = <uint8_t *>PyBytes_AS_STRING(out)
    w.cap = total
    w.pos = 0
    if size_prefix:
        store_be32(w.buf, <uint32_t>(total - 4))
        w.pos = 4
    for k in range(len(cplans)):
        cp, obj = cplans[k]
        w.ci = 0
        _write_struct(&w, cp, obj, <list>caches[k])
    if w.pos != total:
        raise EncodeError(f"encoded {w.pos} bytes where {total} were computed: a value changed")
    return out


def encode(plan, obj):
    """The bytes of ``obj`` at the plan's version (exact size, one output buffer)."""
    cdef CPlan cp = get_cplan(plan)
    cdef list cache = []
    cdef W w
    cdef Py_ssize_t total
    if not PyObject_TypeCheck(obj, cp.tp):
        raise EncodeError(f"expected {cp.cls.__name__}, got {type(obj).__name__}")
    total = _size_struct(cp, obj, cache)
    out = PyBytes_FromStringAndSize(NULL, total)
    w.buf = <uint8_t *>PyBytes_AS_STRING(out)
    w.cap = total
    w.pos = 0
    w.ci = 0
    _write_struct(&w, cp, obj, cache)
    if w.pos != total:
        raise EncodeError(f"encoded {w.pos} bytes where {total} were computed: a value changed")
    return out
