# Part of kafkawire._fast.records (included by records.pyx): encode_batch(), encode_control_batch() and BatchBuilder.

def encode_batch(records, *, magic=2, base_offset=0, compression="none",
                 compression_level=None, timestamp_type="create", producer_id=-1,
                 producer_epoch=-1, base_sequence=-1, is_transactional=False,
                 partition_leader_epoch=-1, is_control=False, delete_horizon_ms=None):
    """Encode ``records`` (Record objects or dicts with ``key``, ``value``,
    ``headers``, ``timestamp`` in ms (default: now) and an optional ``offset``) as one
    record batch (magic 2) or a legacy message set (magic 0/1; compressed as one
    wrapper message)."""
    cdef int codec = _comp.codec_id(compression)
    cdef int ts_bit = _common.timestamp_type_bit(timestamp_type)
    cdef _Encoder enc
    if magic not in (0, 1, 2):
        raise EncodeError(f"unknown magic {magic!r}; expected 0, 1 or 2")
    _common.check_int("base_offset", base_offset, 64)
    if magic != 2:
        enc = _normalize(records, base_offset, magic)
        _check_legacy_options(magic, is_transactional, is_control, producer_id,
                              delete_horizon_ms)
        return _encode_legacy(enc, base_offset, codec, compression_level, ts_bit)
    _common.check_int("producer_id", producer_id, 64)
    _common.check_int("producer_epoch", producer_epoch, 16)
    _common.check_int("base_sequence", base_sequence, 32)
    _common.check_int("partition_leader_epoch", partition_leader_epoch, 32)
    if delete_horizon_ms is not None:
        _common.check_int("delete_horizon_ms", delete_horizon_ms, 64)
    enc = _normalize(records, base_offset, 2)
    return _encode_v2(enc, base_offset, codec, compression_level, ts_bit, producer_id,
                      producer_epoch, base_sequence, is_transactional, is_control,
                      partition_leader_epoch, delete_horizon_ms)


def encode_control_batch(control_type, *, base_offset=0, producer_id, producer_epoch,
                         coordinator_epoch=0, timestamp=None, partition_leader_epoch=-1):
    """A transaction marker batch: one control record of type ``"commit"`` or
    ``"abort"`` (key: version 0 + type; value: version 0 + coordinator epoch)."""
    try:
        ctype = _common.MARKER_TYPES[control_type]
    except (KeyError, TypeError):
        raise EncodeError(f"control_type must be 'commit' or 'abort', not {control_type!r}") \
            from None
    key = bytes((0, 0, 0, ctype))
    epoch = _common.check_int("coordinator_epoch", coordinator_epoch, 32)
    value = b"\x00\x00" + (epoch & 0xFFFFFFFF).to_bytes(4, "big")
    return encode_batch([{"key": key, "value": value, "timestamp": timestamp}],
                        base_offset=base_offset, producer_id=producer_id,
                        producer_epoch=producer_epoch, is_transactional=True, is_control=True,
                        partition_leader_epoch=partition_leader_epoch)


cdef object _as_bytes(object value, str what):
    """``value`` as a bytes object (or None), with encode_batch's rules."""
    if value is None or type(value) is bytes:
        return value
    if isinstance(value, (bytearray, memoryview, bytes)):
        return bytes(value)
    if isinstance(value, str):
        return (<str>value).encode("utf-8")
    raise EncodeError(f"{what}: expected bytes or None, got {type(value).__name__}")


cdef tuple _plain_headers(object headers):
    """``headers`` as a tuple of (bytes key, bytes-or-None value) pairs: the general case of
    BatchBuilder.append, for any iterable of any pairs (it may run the caller's code)."""
    out = []
    for pair in headers:
        try:
            hk, hv = pair
        except (TypeError, ValueError):
            raise EncodeError(f"a header must be a (key, value) pair, got {pair!r}") from None
        if isinstance(hk, str):
            hk = (<str>hk).encode("utf-8", "surrogateescape")
        elif isinstance(hk, (bytes, bytearray, memoryview)):
            hk = bytes(hk)
        else:
            raise EncodeError(f"header key: expected str or bytes, got {type(hk).__name__}")
        out.append((hk, _as_bytes(hv, "header value")))
    return tuple(out)


cdef class BatchBuilder:
    """Builds one batch record by record, for producers.

    :meth:`append` returns False (and keeps nothing) once the batch would pass
    ``max_bytes`` (counted uncompressed, so a compressed batch ends up smaller); the
    first record is always accepted, as in Kafka's producer.  :meth:`build` returns the
    encoded batch.

    Each appended record is written at once into one growing buffer (v2: its offset and
    timestamp deltas are known from the first record; v0/v1: each message is complete),
    so :meth:`build` only adds the header, or compresses.
    """
    cdef uint8_t *buf  # the records (v2) or messages (v0/v1), as they go on the wire
    cdef Py_ssize_t used, cap
    cdef HRef *hrefs  # one append's headers, reused
    cdef Py_ssize_t hcap
    cdef Py_ssize_t count
    cdef int64_t first_ts, max_ts
    cdef dict opts
    cdef readonly int magic
    cdef readonly int64_t base_offset
    cdef public Py_ssize_t max_bytes
    cdef Py_ssize_t size
    cdef int codec
    cdef uint8_t legacy_attrs

    def __cinit__(self, *args, **kwargs):
        self.buf = NULL
        self.hrefs = NULL

    def __dealloc__(self):
        free(self.buf)
        free(self.hrefs)

    def __init__(self, *, magic=2, base_offset=0, compression="none", compression_level=None,
                 timestamp_type="create", producer_id=-1, producer_epoch=-1, base_sequence=-1,
                 is_transactional=False, partition_leader_epoch=-1, max_bytes=1024 * 1024):
        if magic not in (0, 1, 2):
            raise EncodeError(f"unknown magic {magic!r}; expected 0, 1 or 2")
        self.opts = dict(magic=magic, base_offset=base_offset, compression=compression,
                         compression_level=compression_level, timestamp_type=timestamp_type,
                         producer_id=producer_id, producer_epoch=producer_epoch,
                         base_sequence=base_sequence, is_transactional=is_transactional,
                         partition_leader_epoch=partition_leader_epoch)
        _common.check_int("base_offset", base_offset, 64)
        if magic == 2:
            _common.check_int("producer_id", producer_id, 64)
            _common.check_int("producer_epoch", producer_epoch, 16)
            _common.check_int("base_sequence", base_sequence, 32)
            _common.check_int("partition_leader_epoch", partition_leader_epoch, 32)
        self.codec = _comp.codec_id(compression)
        ts_bit = _common.timestamp_type_bit(timestamp_type)
        self.magic = magic
        self.base_offset = base_offset
        self.max_bytes = max_bytes
        self.used = 0
        self.count = 0
        if magic == 2:
            self.size = V2_HEADER_SIZE
        else:  # a compressed set is one wrapper message around the others
            self.size = LOG_OVERHEAD + LEGACY_OVERHEAD[magic] if self.codec else 0
        # Uncompressed v1 messages carry the timestamp type; inner ones of a wrapper do not.
        self.legacy_attrs = (ts_bit << 3) if magic == 1 and not self.codec else 0

    @property
    def record_count(self):
        return self.count

    @property
    def size_in_bytes(self):
        """The batch's size so far, uncompressed."""
        return self.size

    cdef int _reserve(self, Py_ssize_t n) except -1:
        cdef Py_ssize_t cap
        cdef uint8_t *p
        if self.used + n <= self.cap:
            return 0
        if n > INT32_MAX - V2_HEADER_SIZE - self.used:
            raise EncodeError("a batch is larger than 2 GiB")
        cap = max(self.cap * 2, self.used + n, 4096)
        p = <uint8_t *>realloc(self.buf, cap)
        if p == NULL:
            raise MemoryError()
        self.buf = p
        self.cap = cap
        return 0

    cdef Py_ssize_t _collect_headers(self, object headers) except -2:
        """Points ``hrefs`` at the parts of ``headers`` (a list or tuple of exact
        (str|bytes, bytes|None) tuples); -1 if any is otherwise, so that the caller
        normalises them first.  Runs none of the caller's code, so the pointers stay valid."""
        cdef Py_ssize_t i, n = len(headers)
        cdef HRef *h
        cdef tuple pair
        cdef object hk, hv
        if n > self.hcap:
            h = <HRef *>realloc(self.hrefs, n * sizeof(HRef))
            if h == NULL:
                raise MemoryError()
            self.hrefs = h
            self.hcap = n
        for i in range(n):
            item = headers[i]
            if type(item) is not tuple or len(<tuple>item) != 2:
                return -1
            pair = <tuple>item
            hk = pair[0]
            hv = pair[1]
            h = &self.hrefs[i]
            if type(hk) is str:
                try:
                    h.k = PyUnicode_AsUTF8AndSize(hk, &h.kl)
                except UnicodeEncodeError:  # lone surrogates: the general path escapes them
                    return -1
            elif type(hk) is bytes:
                h.k = PyBytes_AS_STRING(hk)
                h.kl = PyBytes_GET_SIZE(hk)
            else:
                return -1
            if hv is None:
                h.v = NULL
                h.vl = -1
            elif type(hv) is bytes:
                h.v = PyBytes_AS_STRING(hv)
                h.vl = PyBytes_GET_SIZE(hv)
            else:
                return -1
        return n

    def append(self, key=None, value=None, headers=None, timestamp=None):
        """Add a record; False (nothing added) if it would pass ``max_bytes``."""
        cdef Item it
        cdef Py_ssize_t body, total
        cdef int64_t base_ts
        key = _as_bytes(key, "key")
        value = _as_bytes(value, "value")
        if timestamp is None:
            it.ts = int(_time.time() * 1000)
        elif not isinstance(timestamp, int):
            raise EncodeError(f"record timestamp must be an int (ms), got {timestamp!r}")
        else:
            try:
                it.ts = timestamp
            except OverflowError:
                raise EncodeError(f"record timestamp {timestamp} does not fit in int64") from None
        it.nh = 0
        it.h0 = 0
        if headers:
            if type(headers) is list or type(headers) is tuple:
                it.nh = self._collect_headers(headers)
            else:
                it.nh = -1
            if it.nh < 0:
                headers = _plain_headers(headers)
                it.nh = self._collect_headers(headers)
        if it.nh and self.magic != 2:
            raise EncodeError(f"magic {self.magic} messages cannot carry headers")
        if key is None:
            it.key = NULL
            it.klen = -1
        else:
            it.key = PyBytes_AS_STRING(key)
            it.klen = PyBytes_GET_SIZE(key)
        if value is None:
            it.val = NULL
            it.vlen = -1
        else:
            it.val = PyBytes_AS_STRING(value)
            it.vlen = PyBytes_GET_SIZE(value)
        # From here on no code of the caller's runs (the headers' iterator might have
        # appended records itself): the pointers above stay valid, the count is final.
        if self.base_offset > INT64_MAX - self.count:
            raise EncodeError(f"record offset {self.base_offset + self.count} does not fit in int64")
        it.offset = self.base_offset + self.count
        if self.magic != 2:
            if it.klen > INT32_MAX or it.vlen > INT32_MAX:
                raise EncodeError("a message is larger than 2 GiB")
            total = _legacy_entry_size(self.magic, it.klen, it.vlen)
        else:
            if self.count > INT32_MAX:
                raise EncodeError(f"offset {it.offset} is too far from base_offset {self.base_offset}")
            base_ts = self.first_ts if self.count else it.ts
            body = _body_size(&it, self.hrefs, self.base_offset, base_ts)
            it.body = body
            total = uvarint_size(zigzag32(<int32_t>body)) + body
        if self.count and self.size + total > self.max_bytes:
            return False
        self._reserve(total)
        if self.magic != 2:
            _write_legacy(self.buf + self.used,
                          it.offset - self.base_offset if self.magic == 1 and self.codec else it.offset,
                          self.magic, self.legacy_attrs, it.ts, it.key, it.klen, it.val, it.vlen)
        else:
            _write_record(self.buf + self.used, &it, self.hrefs, self.base_offset, base_ts)
        if self.count == 0:
            self.first_ts = it.ts
            self.max_ts = it.ts
        elif it.ts > self.max_ts:
            self.max_ts = it.ts
        self.used += total
        self.size += total
        self.count += 1
        return True

    def build(self):
        """The encoded batch."""
        o = self.opts
        cdef int ts_bit = _common.timestamp_type_bit(o["timestamp_type"])
        cdef bytes out, payload
        cdef uint8_t *p
        cdef Py_ssize_t body
        cdef int16_t attrs
        if self.magic != 2:
            _check_legacy_options(self.magic, o["is_transactional"], False, o["producer_id"], None)
            return self._build_legacy(o["compression_level"], ts_bit)
        attrs = self.codec | (ts_bit << 3) | (TRANSACTIONAL_BIT if o["is_transactional"] else 0)
        if self.codec:
            payload = _comp.compress(self.codec, self._records(), o["compression_level"])
            body = PyBytes_GET_SIZE(payload)
            if body > INT32_MAX - V2_HEADER_SIZE:
                raise EncodeError("a batch is larger than 2 GiB")
        else:
            body = self.used
        out = PyBytes_FromStringAndSize(NULL, V2_HEADER_SIZE + body)
        p = <uint8_t *>PyBytes_AS_STRING(out)
        if self.codec:
            memcpy(p + V2_HEADER_SIZE, PyBytes_AS_STRING(payload), body)
        elif body:
            memcpy(p + V2_HEADER_SIZE, self.buf, body)
        cdef int64_t base_ts = self.first_ts if self.count else -1
        cdef int64_t max_ts = self.max_ts if self.count else -1
        cdef int32_t last_delta = <int32_t>(self.count - 1) if self.count else 0
        cdef int64_t pid = o["producer_id"]
        cdef int16_t epoch = o["producer_epoch"]
        cdef int32_t seq = o["base_sequence"]
        cdef int32_t ple = o["partition_leader_epoch"]
        with nogil:
            _write_v2_header(p, body, self.base_offset, ple, attrs, last_delta, base_ts, max_ts,
                             pid, epoch, seq, <int32_t>self.count)
        return out

    cdef bytes _records(self):
        return PyBytes_FromStringAndSize(<char *>self.buf, self.used)

    cdef bytes _build_legacy(self, object level, int ts_bit):
        cdef bytes payload, out
        cdef Py_ssize_t n
        cdef int magic = self.magic
        if self.codec == _comp.ZSTD:
            raise EncodeError("zstd compression needs magic 2")
        if not self.codec:
            return self._records()
        if self.count == 0:
            return b""
        payload = _comp.compress(self.codec, self._records(), level, magic=magic)
        n = PyBytes_GET_SIZE(payload)
        if n > INT32_MAX - LOG_OVERHEAD - LEGACY_OVERHEAD[magic]:
            raise EncodeError("a message set is larger than 2 GiB")
        out = PyBytes_FromStringAndSize(NULL, _legacy_entry_size(magic, -1, n))
        _write_legacy(<uint8_t *>PyBytes_AS_STRING(out), self.base_offset + self.count - 1, magic,
                      <uint8_t>(self.codec | ((ts_bit << 3) if magic == 1 else 0)),
                      self.max_ts if magic == 1 else -1, NULL, -1, PyBytes_AS_STRING(payload), n)
        return out
