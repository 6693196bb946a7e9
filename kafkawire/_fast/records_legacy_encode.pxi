# Part of kafkawire._fast.records (included by records.pyx): the legacy message set (magic 0 and 1) encoder.

# -- legacy message sets (magic 0 and 1) --------------------------------------

# crc .. value length of one legacy message, magic 0 and 1 (the pure LEGACY_OVERHEAD).
cdef Py_ssize_t[2] LEGACY_OVERHEAD = [14, 22]


cdef inline Py_ssize_t _legacy_entry_size(int magic, Py_ssize_t klen, Py_ssize_t vlen) noexcept:
    """One log entry: offset, size, then the message (absent key/value: length -1)."""
    return LOG_OVERHEAD + LEGACY_OVERHEAD[magic] + (klen if klen > 0 else 0) + \
        (vlen if vlen > 0 else 0)


cdef Py_ssize_t _write_legacy(uint8_t *o, int64_t offset, int magic, uint8_t attrs, int64_t ts,
                              const char *key, Py_ssize_t klen, const char *val,
                              Py_ssize_t vlen) noexcept nogil:
    """Writes one log entry at ``o``; returns its size.  The CRC-32 covers magic to end."""
    cdef Py_ssize_t p = 18
    store_be64(o, <uint64_t>offset)
    o[16] = <uint8_t>magic
    o[17] = attrs
    if magic == 1:
        store_be64(o + 18, <uint64_t>ts)
        p = 26
    store_be32(o + p, <uint32_t><int32_t>klen)  # -1 (absent) is 0xFFFFFFFF
    p += 4
    if klen > 0:
        memcpy(o + p, key, klen)
        p += klen
    store_be32(o + p, <uint32_t><int32_t>vlen)
    p += 4
    if vlen > 0:
        memcpy(o + p, val, vlen)
        p += vlen
    store_be32(o + 8, <uint32_t>(p - LOG_OVERHEAD))
    store_be32(o + 12, crc32_update(0, o + 16, p - 16))
    return p


cdef bytes _write_legacy_set(_Encoder enc, int64_t base_offset, bint relative, uint8_t attrs):
    """Every record of ``enc`` as one message each (inner offsets relative to
    ``base_offset`` when ``relative``, as in a compressed v1 wrapper)."""
    cdef Py_ssize_t i, p = 0, total = 0
    cdef Item *it
    cdef bytes out
    cdef uint8_t *o
    for i in range(enc.n):
        it = &enc.items[i]
        total += _legacy_entry_size(enc.magic, it.klen, it.vlen)
        if it.klen > INT32_MAX or it.vlen > INT32_MAX or total > INT32_MAX:
            raise EncodeError("a message set is larger than 2 GiB")
    out = PyBytes_FromStringAndSize(NULL, total)
    o = <uint8_t *>PyBytes_AS_STRING(out)
    with nogil:
        for i in range(enc.n):
            it = &enc.items[i]
            p += _write_legacy(o + p, it.offset - base_offset if relative else it.offset,
                               enc.magic, attrs, it.ts, it.key, it.klen, it.val, it.vlen)
    return out


cdef bytes _encode_legacy(_Encoder enc, int64_t base_offset, int codec, object level,
                          int ts_bit):
    """A legacy message set: one message per record, or with a codec one wrapper message
    (offset: the last record's; v1 timestamp: the highest) whose value is the compressed
    inner set (v1 inner offsets relative to the base offset, as Kafka writes them)."""
    cdef int magic = enc.magic
    cdef int64_t wrapper_ts = -1
    cdef Py_ssize_t i, n
    cdef bytes payload, out
    if codec == _comp.ZSTD:
        raise EncodeError("zstd compression needs magic 2")
    if codec == 0:
        return _write_legacy_set(enc, base_offset, False, (ts_bit << 3) if magic == 1 else 0)
    if enc.n == 0:
        return b""
    payload = _comp.compress(codec, _write_legacy_set(enc, base_offset, magic == 1, 0), level,
                             magic=magic)
    if magic == 1:
        wrapper_ts = enc.items[0].ts
        for i in range(1, enc.n):
            if enc.items[i].ts > wrapper_ts:
                wrapper_ts = enc.items[i].ts
    n = PyBytes_GET_SIZE(payload)
    if n > INT32_MAX - LOG_OVERHEAD - LEGACY_OVERHEAD[magic]:
        raise EncodeError("a message set is larger than 2 GiB")
    out = PyBytes_FromStringAndSize(NULL, _legacy_entry_size(magic, -1, n))
    _write_legacy(<uint8_t *>PyBytes_AS_STRING(out), enc.items[enc.n - 1].offset, magic,
                  <uint8_t>(codec | ((ts_bit << 3) if magic == 1 else 0)), wrapper_ts, NULL, -1,
                  PyBytes_AS_STRING(payload), n)
    return out


cdef int _check_legacy_options(int magic, bint is_transactional, bint is_control,
                               object producer_id, object delete_horizon_ms) except -1:
    if is_transactional or is_control or producer_id != -1 or delete_horizon_ms is not None:
        raise EncodeError(f"magic {magic} messages have no producer or transaction fields")
    return 0
