# cython: language_level=3
"""The compiled plan executor: the Cython twin of ``kafkawire._pure.codec``.

Each :class:`kafkawire.schema.plan.StructPlan` is compiled once into a :class:`CPlan`
(kept in ``plan.fast``): a C array of field operations holding the byte offset of the
field's slot in the message object, so reading and writing a field is a pointer access
rather than an attribute lookup.  Decoding allocates message objects with the type's
``tp_alloc`` and fills their slots directly; encoding computes the exact size first
(strings' UTF-8 is cached by CPython inside the str object; tagged values' sizes in a
list) and then writes once into a bytes object of exactly that size.
"""
import uuid as _uuid

from cpython.buffer cimport PyBUF_SIMPLE, PyBuffer_Release, PyObject_GetBuffer
from cpython.bytes cimport PyBytes_AS_STRING, PyBytes_FromStringAndSize
from cpython.list cimport PyList_New, PyList_SET_ITEM
from cpython.long cimport (
    PyLong_AsLongLong, PyLong_FromLong, PyLong_FromLongLong,
)
from cpython.object cimport PyObject, PyTypeObject, PyObject_TypeCheck
from cpython.ref cimport Py_INCREF
from cpython.unicode cimport PyUnicode_DecodeUTF8
from libc.stdint cimport (
    INT32_MAX, INT32_MIN, int8_t, int16_t, int32_t, int64_t, uint8_t, uint16_t, uint32_t, uint64_t,
)
from libc.stdlib cimport free, malloc
from libc.string cimport memcpy

from kafkawire._fast.primitives cimport (
    load_be16, load_be32, load_be64, read_uvarint32, store_be16, store_be32, store_be64,
    uvarint_size, write_uvarint,
)

from kafkawire.errors import DecodeError, EncodeError, TruncatedError
from kafkawire.schema import plan as _plan_mod

__all__ = ["encode", "encode_parts", "size", "decode", "decode_from", "UNKNOWN_TAGGED"]

UNKNOWN_TAGGED = "_unknown_tagged"

cdef extern from *:
    """
    #include <structmember.h>
    static Py_ssize_t kw_member_offset(PyObject *d) {
        if (Py_TYPE(d) != &PyMemberDescr_Type) return -1;
        return ((PyMemberDescrObject *)d)->d_member->offset;
    }
    static inline PyObject *kw_slot_get(PyObject *o, Py_ssize_t off) {
        return *(PyObject **)((char *)o + off);
    }
    /* Store v (a new reference is taken) into the slot, releasing what was there. */
    static inline void kw_slot_set(PyObject *o, Py_ssize_t off, PyObject *v) {
        PyObject **p = (PyObject **)((char *)o + off);
        PyObject *old = *p;
        Py_INCREF(v);
        *p = v;
        Py_XDECREF(old);
    }
    static inline PyObject *kw_alloc(PyTypeObject *t) {
        return t->tp_alloc(t, 0);
    }
    static inline int kw_is_ascii(PyObject *s) {
        return PyUnicode_IS_COMPACT_ASCII(s);
    }
    static inline const char *kw_ascii_data(PyObject *s) {
        return (const char *)PyUnicode_DATA(s);
    }
    /* Pause the cyclic GC while a message is decoded: decoding allocates thousands of
       container objects and makes no reference cycles, so the collections those
       allocations would trigger are pure overhead.  Returns whether it was enabled. */
    static inline int kw_gc_pause(void) {
    #if PY_VERSION_HEX >= 0x030A0000
        return PyGC_Disable();
    #else
        return 0;
    #endif
    }
    /* The 128-bit unsigned int of 16 big-endian bytes, made in one step. */
    static PyObject *kw_uint128_be(const unsigned char *p) {
    #if PY_VERSION_HEX >= 0x030D0000
        return PyLong_FromUnsignedNativeBytes(p, 16, Py_ASNATIVEBYTES_BIG_ENDIAN | Py_ASNATIVEBYTES_UNSIGNED_BUFFER);
    #else
        return _PyLong_FromByteArray(p, 16, 0, 0);
    #endif
    }
    static inline void kw_gc_resume(int was) {
    #if PY_VERSION_HEX >= 0x030A0000
        if (was) PyGC_Enable();
    #endif
    }
    """
    Py_ssize_t kw_member_offset(object d)
    PyObject *kw_slot_get(object o, Py_ssize_t off)
    void kw_slot_set(object o, Py_ssize_t off, object v)
    object kw_alloc(PyTypeObject *t)
    int kw_is_ascii(object s)
    const char *kw_ascii_data(object s)
    int kw_gc_pause()
    void kw_gc_resume(int was)
    object kw_uint128_be(const uint8_t *p)

cdef extern from "Python.h":
    const char *PyUnicode_AsUTF8AndSize(object s, Py_ssize_t *size) except NULL
    Py_ssize_t PyUnicode_GET_LENGTH(object s)
    bint PyUnicode_Check(object o)
    bint PyList_Check(object o)
    bint PyTuple_Check(object o)
    bint PyLong_Check(object o)
    bint PyFloat_Check(object o)
    double PyFloat_AsDouble(object o) except? -1.0
    object PyFloat_FromDouble(double v)
    object PyBool_FromLong(long v)
    PyObject *PySequence_Fast_GET_ITEM(object o, Py_ssize_t i)
    Py_ssize_t PySequence_Fast_GET_SIZE(object o)
    object PyMemoryView_FromObject(object o)

# Field kinds: the same small integers as kafkawire.schema.plan (checked below).
cdef enum:
    BOOL = 1
    INT8 = 2
    INT16 = 3
    UINT16 = 4
    INT32 = 5
    UINT32 = 6
    INT64 = 7
    FLOAT64 = 8
    UUID = 9
    STRING = 10
    BYTES = 11
    RECORDS = 12
    STRUCT = 13
    ARRAY = 14
    DEF_EQ = 0
    DEF_NONE = 1
    DEF_EMPTY = 2
    # how an absent field's fresh default is made
    FAC_NONE = 0     # none needed: the (immutable) default value itself
    FAC_LIST = 1     # an empty list
    FAC_STRUCT = 2   # the sub-struct with every field at its default, made here
    FAC_CALL = 3     # call the factory
    # what the decoder reads inline, without a call per field
    RD_OTHER = 0     # anything else: _read_value
    RD_INT32 = 1
    RD_INT16 = 2
    RD_INT64 = 3
    RD_INT8 = 4
    RD_BOOL = 5
    RD_STRING = 6    # a non-nullable string (compact or not)
    RD_STRUCTS = 7   # an array of structs (compact or not)

assert (_plan_mod.BOOL, _plan_mod.INT8, _plan_mod.INT16, _plan_mod.UINT16, _plan_mod.INT32,
        _plan_mod.UINT32, _plan_mod.INT64, _plan_mod.FLOAT64, _plan_mod.UUID, _plan_mod.STRING,
        _plan_mod.BYTES, _plan_mod.RECORDS, _plan_mod.STRUCT, _plan_mod.ARRAY) == tuple(range(1, 15))
assert (_plan_mod.DEF_EQ, _plan_mod.DEF_NONE, _plan_mod.DEF_EMPTY) == (0, 1, 2)

_UUID = _uuid.UUID
_UUID_NEW = _uuid.UUID.__new__
_ZERO_UUID = _uuid.UUID(int=0)
_SAFE_UNKNOWN = _uuid.SafeUUID.unknown
_setattr = object.__setattr__
_KIND_NAMES = _plan_mod.KIND_NAMES


ctypedef struct Op:
    int kind
    int elem_kind
    int compact
    int nullable
    int width
    int tag
    int defkind
    int ignorable
    Py_ssize_t offset
    PyObject *sub        # CPlan of a struct / struct-array field (owned by CPlan.keep)
    PyObject *dflt       # the default value (owned by CPlan.keep)
    PyObject *factory    # a factory making a fresh default, or None
    int fac              # how a fresh default is made (FAC_*)
    int code             # what the decoder reads inline (RD_*)
    PyObject *fplan      # the FieldPlan (names, for messages)


cdef class CPlan:
    """A StructPlan compiled for this executor."""
    cdef Op *ops
    cdef Py_ssize_t nops
    cdef Op *tagged
    cdef Py_ssize_t ntagged
    cdef Op *absent
    cdef Py_ssize_t nabsent
    cdef object cls
    cdef PyTypeObject *tp
    cdef bint flexible
    cdef Py_ssize_t min_size
    cdef Py_ssize_t unk_off
    cdef object plan
    cdef object tags
    cdef object reserved_tags
    cdef list keep

    def __cinit__(self):
        self.ops = NULL
        self.tagged = NULL
        self.absent = NULL

    def __dealloc__(self):
        free(self.ops)
        free(self.tagged)
        free(self.absent)

    cdef int _fill(self, Op *op, object fp) except -1:
        cls = self.cls
        op.kind = fp.kind
        op.elem_kind = fp.elem_kind
        op.compact = fp.compact
        op.nullable = fp.nullable
        op.width = fp.width
        op.tag = fp.tag
        op.defkind = fp.defkind
        op.ignorable = fp.ignorable
        desc = None
        for klass in cls.__mro__:
            if fp.attr in klass.__dict__:
                desc = klass.__dict__[fp.attr]
                break
        op.offset = kw_member_offset(desc) if desc is not None else -1
        if op.offset < 0:
            raise TypeError(f"{cls.__name__}.{fp.attr} is not a slot")
        sub = None
        if fp.sub is not None:
            sub = get_cplan(fp.sub)
        dflt = fp.default
        if fp.kind == STRUCT and fp.defkind == DEF_EQ:
            dflt = fp.sub.spec.default_instance()
        self.keep.extend((sub, dflt, fp.factory, fp))
        op.sub = <PyObject *>sub
        op.dflt = <PyObject *>dflt
        op.factory = <PyObject *>fp.factory
        op.fplan = <PyObject *>fp
        if fp.factory is None:
            op.fac = FAC_NONE
        elif fp.factory is list:
            op.fac = FAC_LIST
        elif fp.kind == STRUCT:  # a struct field's factory makes the all-default struct
            op.fac = FAC_STRUCT
        else:
            op.fac = FAC_CALL
        op.code = RD_OTHER
        if fp.kind == INT32:
            op.code = RD_INT32
        elif fp.kind == INT16:
            op.code = RD_INT16
        elif fp.kind == INT64:
            op.code = RD_INT64
        elif fp.kind == INT8:
            op.code = RD_INT8
        elif fp.kind == BOOL:
            op.code = RD_BOOL
        elif fp.kind == STRING and not fp.nullable:
            op.code = RD_STRING
        elif fp.kind == ARRAY and fp.elem_kind == STRUCT:
            op.code = RD_STRUCTS
        return 0

    def __init__(self, plan):
        cdef Py_ssize_t i
        self.plan = plan
        self.cls = plan.cls
        self.tp = <PyTypeObject *>self.cls
        self.flexible = plan.flexible
        self.min_size = plan.min_size
        self.tags = plan.tags
        self.reserved_tags = plan.reserved_tags
        self.keep = []
        unk = None
        for klass in self.cls.__mro__:
            if UNKNOWN_TAGGED in klass.__dict__:
                unk = klass.__dict__[UNKNOWN_TAGGED]
                break
        self.unk_off = kw_member_offset(unk) if unk is not None else -1
        if self.unk_off < 0:
            raise TypeError(f"{self.cls.__name__} has no {UNKNOWN_TAGGED} slot")
        self.nops = len(plan.fields)
        self.ntagged = len(plan.tagged)
        self.nabsent = len(plan.absent)
        self.ops = <Op *>malloc(sizeof(Op) * (self.nops + 1))
        self.tagged = <Op *>malloc(sizeof(Op) * (self.ntagged + 1))
        self.absent = <Op *>malloc(sizeof(Op) * (self.nabsent + 1))
        if self.ops == NULL or self.tagged == NULL or self.absent == NULL:
            raise MemoryError()
        for i in range(self.nops):
            self._fill(&self.ops[i], plan.fields[i])
        for i in range(self.ntagged):
            self._fill(&self.tagged[i], plan.tagged[i])
        for i in range(self.nabsent):
            self._fill(&self.absent[i], plan.absent[i])


cdef CPlan get_cplan(object plan):
    cdef object fast = plan.fast
    if fast is None:
        fast = CPlan(plan)
        plan.fast = fast
    return <CPlan>fast


cdef inline str _attr(Op *op):
    return (<object>op.fplan).attr


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
