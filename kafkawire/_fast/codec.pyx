# cython: language_level=3
"""The compiled plan executor: the Cython twin of ``kafkawire._pure.codec``.

Each :class:`kafkawire.protocol.schema.plan.StructPlan` is compiled once into a :class:`CPlan`
(kept in ``plan.fast``): a C array of field operations holding the byte offset of the
field's slot in the message object, so reading and writing a field is a pointer access
rather than an attribute lookup.  Decoding allocates message objects with the type's
``tp_alloc`` and fills their slots directly; encoding computes the exact size first
(strings' UTF-8 is cached by CPython inside the str object; tagged values' sizes in a
list) and then writes once into a bytes object of exactly that size.

This file holds the imports, the field kinds and the compiled plan; decoding, sizing and
writing are included from the ``codec_*.pxi`` parts into this one extension module.
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
from kafkawire.protocol.schema import plan as _plan_mod

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

# Field kinds: the same small integers as kafkawire.protocol.schema.plan (checked below).
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


include "codec_decode.pxi"
include "codec_size.pxi"
include "codec_encode.pxi"
