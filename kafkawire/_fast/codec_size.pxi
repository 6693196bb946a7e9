# Part of kafkawire._fast.codec (included by codec.pyx): pass 1 of writing, the exact
# size of a message at a plan's version.

# -- encoding: pass 1, exact size ---------------------------------------------------------

cdef inline object _get(object obj, Op *op):
    cdef PyObject *v = kw_slot_get(obj, op.offset)
    if v == NULL:
        raise EncodeError(f"{type(obj).__name__}.{_attr(op)} is not set")
    return <object>v


cdef inline Py_ssize_t _utf8_len(Op *op, object v) except -1:
    cdef Py_ssize_t n
    if not PyUnicode_Check(v):
        raise EncodeError(f"{_attr(op)}: expected str, got {type(v).__name__}")
    if kw_is_ascii(v):
        n = PyUnicode_GET_LENGTH(v)
    else:
        try:
            PyUnicode_AsUTF8AndSize(v, &n)
        except UnicodeEncodeError as exc:
            raise EncodeError(f"{_attr(op)}: not encodable as UTF-8: {exc}") from None
    if not op.compact and n > 0x7FFF:
        raise EncodeError(f"{_attr(op)}: {n} bytes is longer than an int16 length allows")
    return n


cdef inline Py_ssize_t _len_size(int compact, int short, Py_ssize_t n) noexcept:
    if compact:
        return uvarint_size(<uint64_t>(n + 1))
    return 2 if short else 4


cdef Py_ssize_t _nbytes(Op *op, object v) except -1:
    cdef Py_buffer view
    if type(v) is bytes:
        return len(<bytes>v)
    try:
        PyObject_GetBuffer(v, &view, PyBUF_SIMPLE)
    except (TypeError, BufferError):
        raise EncodeError(
            f"{_attr(op)}: expected a contiguous bytes-like object, got {type(v).__name__}") from None
    n = view.len
    PyBuffer_Release(&view)
    return n


cdef Py_ssize_t _size_value(Op *op, object v, list cache) except -1:
    cdef int kind = op.kind
    cdef Py_ssize_t n, total, i, w
    cdef CPlan sub
    if op.width:
        return op.width
    if v is None:
        if not op.nullable:
            raise EncodeError(f"{_attr(op)}: None is not allowed at this version")
        if kind == STRUCT:  # a null struct is the int8 marker -1
            return 1
        return 1 if op.compact else (2 if kind == STRING else 4)
    if kind == STRING:
        n = _utf8_len(op, v)
        return _len_size(op.compact, 1, n) + n
    if kind == BYTES or kind == RECORDS:
        n = _nbytes(op, v)
        return _len_size(op.compact, 0, n) + n
    if kind == ARRAY:
        if not (PyList_Check(v) or PyTuple_Check(v)):
            raise EncodeError(f"{_attr(op)}: expected a list, got {type(v).__name__}")
        n = PySequence_Fast_GET_SIZE(v)
        total = _len_size(op.compact, 0, n)
        if op.elem_kind == STRUCT:
            sub = <CPlan>op.sub
            i = 0
            while i < PySequence_Fast_GET_SIZE(v):
                item = <object>PySequence_Fast_GET_ITEM(v, i)
                if not PyObject_TypeCheck(item, sub.tp):
                    raise EncodeError(
                        f"{_attr(op)}: expected {sub.cls.__name__} items, got {type(item).__name__}")
                total += _size_struct(sub, item, cache)
                i += 1
            return total
        if op.elem_kind == STRING:
            i = 0
            while i < PySequence_Fast_GET_SIZE(v):
                item = <object>PySequence_Fast_GET_ITEM(v, i)
                if item is None:
                    raise EncodeError(f"{_attr(op)}: None in an array of strings")
                w = _utf8_len(op, item)
                total += _len_size(op.compact, 1, w) + w
                i += 1
            return total
        return total + _width(op.elem_kind) * n
    if kind == STRUCT:
        sub = <CPlan>op.sub
        if not PyObject_TypeCheck(v, sub.tp):
            raise EncodeError(f"{_attr(op)}: expected {sub.cls.__name__}, got {type(v).__name__}")
        return (1 if op.nullable else 0) + _size_struct(sub, v, cache)
    raise AssertionError(kind)


cdef bint _is_default(Op *op, object v) except -1:
    cdef int dk = op.defkind
    if dk == DEF_NONE:
        return v is None
    if dk == DEF_EMPTY:
        if v is None:
            return False
        try:
            return len(v) == 0
        except TypeError:
            return False
    return v == <object>op.dflt


cdef int _check_unknown(object unknown, CPlan plan) except -1:
    if not isinstance(unknown, (tuple, list)):
        raise EncodeError(f"{UNKNOWN_TAGGED} must be None or a sequence of (tag, bytes) pairs")
    for item in unknown:
        try:
            tag, data = item
        except (TypeError, ValueError):
            raise EncodeError(f"{UNKNOWN_TAGGED}: {item!r} is not a (tag, bytes) pair") from None
        if type(tag) is not int or not 0 <= tag <= 0xFFFFFFFF:
            raise EncodeError(f"{UNKNOWN_TAGGED}: tag {tag!r} is not an unsigned 32-bit int")
        if tag in plan.tags:
            raise EncodeError(f"{UNKNOWN_TAGGED}: tag {tag} is a known field at v{plan.plan.version}")
        if tag in plan.reserved_tags:
            raise EncodeError(f"{UNKNOWN_TAGGED}: tag {tag} is a field of {plan.plan.spec.name} at "
                              f"other versions, not an unknown one at v{plan.plan.version}")
        if not isinstance(data, (bytes, bytearray, memoryview)):
            raise EncodeError(f"{UNKNOWN_TAGGED}: tag {tag} data is not bytes-like")
    return 0


cdef Py_ssize_t _size_struct(CPlan plan, object obj, list cache) except -1:
    cdef Py_ssize_t total = 0
    cdef Py_ssize_t i, n, idx
    cdef Py_ssize_t count = 0
    cdef Op *op
    cdef PyObject *raw
    for i in range(plan.nops):
        op = &plan.ops[i]
        raw = kw_slot_get(obj, op.offset)
        if raw == NULL:
            _get(obj, op)
        if op.width:
            total += op.width
        else:
            total += _size_value(op, <object>raw, cache)
    for i in range(plan.nabsent):
        op = &plan.absent[i]
        if not op.ignorable:
            v = _get(obj, op)
            if not _is_default(op, v):
                raise EncodeError(
                    f"{plan.plan.spec.name}.{_attr(op)} holds a non-default value ({v!r:.80}) but "
                    f"version {plan.plan.version} does not have this field")
    raw = kw_slot_get(obj, plan.unk_off)
    unknown = <object>raw if raw != NULL else None
    if plan.flexible:
        for i in range(plan.ntagged):
            op = &plan.tagged[i]
            v = _get(obj, op)
            if _is_default(op, v):
                continue
            count += 1
            idx = len(cache)
            cache.append(0)
            n = _size_value(op, v, cache)
            cache[idx] = n
            total += uvarint_size(op.tag) + uvarint_size(n) + n
        if unknown:
            _check_unknown(unknown, plan)
            for tag, data in unknown:
                n = memoryview(data).nbytes
                count += 1
                total += uvarint_size(<uint64_t>tag) + uvarint_size(n) + n
        total += uvarint_size(count)
    elif unknown:
        raise EncodeError(
            f"{plan.plan.spec.name} v{plan.plan.version} is not flexible: it cannot carry the "
            f"unknown tagged fields this object holds")
    return total
