# cython: language_level=3, boundscheck=False, wraparound=False
"""The object-creation floor of message decoding, for the benchmarks only.

``Floor(message)`` flattens a decoded message into a tape of plain C values (a
struct's class, an integer, a string's bytes, a list's length, ...) in the order a
decoder meets them; calling it makes the very objects a decoder returns (the same
message classes filled slot by slot, a new int per integer, a new str per string, a
new UUID and its 128-bit int, a new list per array, a new memoryview slice per records
field) from that tape, with no parsing, no bounds checks and no errors to raise: what
any decoder returning these objects must pay.
"""
from cpython.list cimport PyList_New, PyList_SET_ITEM
from cpython.long cimport PyLong_AsLongLong, PyLong_FromLongLong
from cpython.object cimport PyObject, PyTypeObject
from cpython.ref cimport Py_INCREF
from cpython.unicode cimport PyUnicode_DecodeUTF8
from libc.stdint cimport int64_t
from libc.stdlib cimport free, realloc

import uuid

cdef extern from *:
    """
    #include <structmember.h>
    static Py_ssize_t fl_member_offset(PyObject *d) {
        if (Py_TYPE(d) != &PyMemberDescr_Type) return -1;
        return ((PyMemberDescrObject *)d)->d_member->offset;
    }
    static inline PyObject *fl_slot_get(PyObject *o, Py_ssize_t off) {
        return *(PyObject **)((char *)o + off);
    }
    /* Move a new reference into an empty slot of a freshly allocated object. */
    static inline void fl_slot_put(PyObject *o, Py_ssize_t off, PyObject *v) {
        *(PyObject **)((char *)o + off) = v;
    }
    static inline PyObject *fl_alloc(PyTypeObject *t) {
        return t->tp_alloc(t, 0);
    }
    static PyObject *fl_uuid_int(const unsigned char *be16) {
        return _PyLong_FromByteArray(be16, 16, 0, 0);
    }
    static int fl_int_bytes(PyObject *v, unsigned char *be16) {
        return _PyLong_AsByteArray((PyLongObject *)v, be16, 16, 0, 0);
    }
    """
    Py_ssize_t fl_member_offset(object d)
    PyObject *fl_slot_get(object o, Py_ssize_t off)
    void fl_slot_put(object o, Py_ssize_t off, PyObject *v)
    object fl_alloc(PyTypeObject *t)
    object fl_uuid_int(const unsigned char *be16)
    int fl_int_bytes(PyObject *v, unsigned char *be16) except -1
    bint PyLong_CheckExact(object o)
    bint PyUnicode_CheckExact(object o)
    bint PyList_CheckExact(object o)
    bint PyMemoryView_Check(object o)
    const char *PyUnicode_AsUTF8AndSize(object s, Py_ssize_t *size) except NULL

# tape entries: an opcode, then its operands
cdef enum:
    T_INT = 1       # value
    T_CONST = 2     # index into consts (None, True, False: shared objects)
    T_STR = 3       # pointer to UTF-8, length
    T_UUID = 4      # pointer to 16 big-endian bytes
    T_SLICE = 5     # start, stop into the records buffer
    T_LIST = 6      # n, then n values
    T_STRUCT = 7    # class index, then one value per slot

_UUID = uuid.UUID
cdef Py_ssize_t _UUID_INT = fl_member_offset(uuid.UUID.__dict__["int"])
cdef Py_ssize_t _UUID_SAFE = fl_member_offset(uuid.UUID.__dict__["is_safe"])
cdef object _SAFE_UNKNOWN = uuid.SafeUUID.unknown

cdef enum:
    MAX_CLASSES = 32
    MAX_SLOTS = 64

ctypedef struct Layout:
    PyTypeObject *tp
    Py_ssize_t nslots
    Py_ssize_t offsets[MAX_SLOTS]


cdef class Floor:
    """Makes the objects of one decoded message again, from a flat tape."""
    cdef int64_t *tape
    cdef Py_ssize_t n, cap
    cdef Layout layouts[MAX_CLASSES]
    cdef Py_ssize_t nlayouts
    cdef list keep          # the classes, strings' and UUIDs' bytes the tape points into
    cdef object consts
    cdef object records     # a memoryview over every records field's bytes, back to back
    cdef bytearray raw

    def __cinit__(self):
        self.tape = NULL

    def __dealloc__(self):
        free(self.tape)

    def __init__(self, message):
        self.keep = []
        self.consts = (None, True, False)
        self.raw = bytearray()
        self._flatten(message)
        self.records = memoryview(bytes(self.raw))

    cdef int _emit(self, int64_t v) except -1:
        cdef int64_t *grown
        if self.n == self.cap:
            self.cap = self.cap * 2 + 64
            grown = <int64_t *>realloc(self.tape, self.cap * sizeof(int64_t))
            if grown == NULL:
                raise MemoryError()
            self.tape = grown
        self.tape[self.n] = v
        self.n += 1
        return 0

    cdef Py_ssize_t _layout(self, object cls) except -1:
        cdef Py_ssize_t i
        cdef Layout *lay
        for i in range(self.nlayouts):
            if self.layouts[i].tp == <PyTypeObject *>cls:
                return i
        names = tuple(cls._attrs) + ("_unknown_tagged",)
        if self.nlayouts == MAX_CLASSES or len(names) > MAX_SLOTS:
            raise ValueError("too many message classes or fields for the floor")
        lay = &self.layouts[self.nlayouts]
        lay.tp = <PyTypeObject *>cls
        lay.nslots = len(names)
        for i, name in enumerate(names):
            for klass in cls.__mro__:
                if name in klass.__dict__:
                    lay.offsets[i] = fl_member_offset(klass.__dict__[name])
                    break
        self.keep.append(cls)
        self.nlayouts += 1
        return self.nlayouts - 1

    cdef int _flatten(self, object v) except -1:
        cdef Py_ssize_t i
        cdef unsigned char be[16]
        if v is None or v is True or v is False:
            self._emit(T_CONST)
            self._emit(0 if v is None else (1 if v is True else 2))
        elif PyLong_CheckExact(v):
            self._emit(T_INT)
            self._emit(PyLong_AsLongLong(v))
        elif PyUnicode_CheckExact(v):
            b = v.encode("utf-8")
            self.keep.append(b)
            self._emit(T_STR)
            self._emit(<int64_t><const char *>b)
            self._emit(len(b))
        elif type(v) is _UUID:
            fl_int_bytes(fl_slot_get(v, _UUID_INT), be)
            b = bytes(be[:16])
            self.keep.append(b)
            self._emit(T_UUID)
            self._emit(<int64_t><const char *>b)
        elif PyMemoryView_Check(v):
            self._emit(T_SLICE)
            self._emit(len(self.raw))
            self.raw += v
            self._emit(len(self.raw))
        elif PyList_CheckExact(v):
            self._emit(T_LIST)
            self._emit(len(v))
            for item in v:
                self._flatten(item)
        elif hasattr(type(v), "_attrs"):
            i = self._layout(type(v))
            self._emit(T_STRUCT)
            self._emit(i)
            for name in tuple(type(v)._attrs) + ("_unknown_tagged",):
                self._flatten(getattr(v, name))
        else:
            raise TypeError(f"the floor does not rebuild {type(v).__name__}")
        return 0

    cdef object _make(self, Py_ssize_t *pos):
        cdef int64_t *t = self.tape
        cdef Py_ssize_t p = pos[0]
        cdef Py_ssize_t i, n
        cdef Layout *lay
        cdef int64_t op = t[p]
        if op == T_INT:
            pos[0] = p + 2
            return PyLong_FromLongLong(t[p + 1])
        if op == T_LIST:
            n = t[p + 1]
            pos[0] = p + 2
            out = PyList_New(n)
            for i in range(n):
                v = self._make(pos)
                Py_INCREF(v)
                PyList_SET_ITEM(out, i, v)
            return out
        if op == T_STRUCT:
            lay = &self.layouts[t[p + 1]]
            pos[0] = p + 2
            out = fl_alloc(lay.tp)
            for i in range(lay.nslots):
                v = self._make(pos)
                Py_INCREF(v)
                fl_slot_put(out, lay.offsets[i], <PyObject *>v)
            return out
        if op == T_CONST:
            pos[0] = p + 2
            return self.consts[t[p + 1]]
        if op == T_STR:
            pos[0] = p + 3
            return PyUnicode_DecodeUTF8(<const char *>t[p + 1], t[p + 2], NULL)
        if op == T_UUID:
            pos[0] = p + 2
            out = fl_alloc(<PyTypeObject *>_UUID)
            v = fl_uuid_int(<const unsigned char *>t[p + 1])
            Py_INCREF(v)
            fl_slot_put(out, _UUID_INT, <PyObject *>v)
            Py_INCREF(_SAFE_UNKNOWN)
            fl_slot_put(out, _UUID_SAFE, <PyObject *>_SAFE_UNKNOWN)
            return out
        if op == T_SLICE:
            pos[0] = p + 3
            return self.records[t[p + 1]:t[p + 2]]
        raise AssertionError(op)

    def __call__(self):
        cdef Py_ssize_t pos = 0
        return self._make(&pos)
