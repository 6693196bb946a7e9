# Part of kafkawire._fast.records (included by records.pyx): the batch objects, the batch iterator and decode().

# -- batches ------------------------------------------------------------------

cdef class RecordBatch:
    """A record batch (magic 2).  Header fields are attributes; iterating decodes the
    records (lazily: nothing is parsed or decompressed until then)."""
    cdef BatchInfo b
    cdef _Source src
    cdef Py_ssize_t start, end
    cdef object max_size
    cdef list _records

    @property
    def base_offset(self): return self.b.base_offset
    @property
    def batch_length(self): return self.b.size
    @property
    def partition_leader_epoch(self): return self.b.ple
    @property
    def magic(self): return self.b.magic
    @property
    def crc(self): return self.b.crc
    @property
    def attributes(self): return self.b.attrs
    @property
    def last_offset_delta(self): return self.b.last_offset_delta
    @property
    def base_timestamp(self): return self.b.base_ts
    @property
    def max_timestamp(self): return self.b.max_ts
    @property
    def producer_id(self): return self.b.pid
    @property
    def producer_epoch(self): return self.b.epoch
    @property
    def base_sequence(self): return self.b.base_seq
    @property
    def record_count(self): return self.b.count
    @property
    def compression_id(self): return self.b.attrs & COMPRESSION_MASK
    @property
    def compression(self): return _comp.codec_name(self.b.attrs & COMPRESSION_MASK)
    @property
    def timestamp_type(self): return _TS_NAMES[1 if self.b.attrs & TIMESTAMP_TYPE_BIT else 0]
    @property
    def is_transactional(self): return bool(self.b.attrs & TRANSACTIONAL_BIT)
    @property
    def is_control(self): return bool(self.b.attrs & CONTROL_BIT)
    @property
    def has_delete_horizon(self): return bool(self.b.attrs & DELETE_HORIZON_BIT)
    @property
    def delete_horizon_ms(self):
        return self.b.base_ts if self.b.attrs & DELETE_HORIZON_BIT else None
    @property
    def last_offset(self):  # wrapped like Java's long (no C signed overflow)
        return <int64_t>(<uint64_t>self.b.base_offset + <uint64_t><int64_t>self.b.last_offset_delta)
    @property
    def next_offset(self):
        return <int64_t>(<uint64_t>self.b.base_offset + <uint64_t><int64_t>self.b.last_offset_delta
                         + 1)
    @property
    def size_in_bytes(self): return self.end - self.start
    @property
    def raw(self): return _slice(self.src, self.start, self.end)

    def sequence_of(self, offset_delta):
        """The producer sequence of the record at ``offset_delta`` (-1 if none)."""
        return _common.next_sequence(self.b.base_seq, offset_delta)

    def records(self):
        """The batch's records (decoded once, on first use)."""
        cdef _RecordSink sink
        # one decoding per batch, also when threads share it (a no-op with the GIL)
        with cython.critical_section(self):
            if self._records is None:
                sink = _RecordSink.__new__(_RecordSink)
                _v2_batch(self.src, self.start, self.end, &self.b, self.max_size, sink)
                self._records = sink.out
            return self._records

    def __iter__(self):
        return iter(self.records())

    def __len__(self):
        return self.b.count

    def __repr__(self):
        return (f"RecordBatch(base_offset={self.base_offset}, magic=2, records="
                f"{self.record_count}, compression={self.compression!r}, "
                f"is_transactional={self.is_transactional}, is_control={self.is_control})")


cdef class LegacyRecordBatch:
    """One top-level legacy message (magic 0 or 1): a plain message (one record) or a
    compressed wrapper whose value holds inner messages."""
    cdef LegacyMsg m
    cdef _Source src
    cdef Py_ssize_t start, end
    cdef bint verify
    cdef object max_size
    cdef list _records

    partition_leader_epoch = -1
    producer_id = -1
    producer_epoch = -1
    base_sequence = -1
    is_transactional = False
    is_control = False
    has_delete_horizon = False
    delete_horizon_ms = None

    @property
    def offset(self): return self.m.offset
    @property
    def magic(self): return self.m.magic
    @property
    def crc(self): return self.m.crc
    @property
    def attributes(self): return self.m.attrs
    @property
    def timestamp(self): return self.m.ts
    @property
    def compression_id(self): return self.m.attrs & COMPRESSION_MASK
    @property
    def compression(self): return _comp.codec_name(self.m.attrs & COMPRESSION_MASK)
    @property
    def timestamp_type(self):
        return None if self.m.magic == 0 else _TS_NAMES[1 if self.m.attrs & TIMESTAMP_TYPE_BIT else 0]
    @property
    def size_in_bytes(self): return self.end - self.start
    @property
    def raw(self): return _slice(self.src, self.start, self.end)
    @property
    def last_offset(self):
        if self.m.attrs & COMPRESSION_MASK:
            recs = self.records()
            if recs:
                return recs[len(recs) - 1].offset
        return self.m.offset
    @property
    def next_offset(self): return self.last_offset + 1
    @property
    def max_timestamp(self): return self.m.ts
    @property
    def base_timestamp(self): return self.m.ts
    @property
    def base_offset(self):
        if self.m.attrs & COMPRESSION_MASK:
            recs = self.records()
            if recs:
                return recs[0].offset
        return self.m.offset
    @property
    def record_count(self): return len(self.records())
    @property
    def last_offset_delta(self): return self.last_offset - self.base_offset

    def sequence_of(self, offset_delta):
        return -1

    def records(self):
        cdef _RecordSink sink
        with cython.critical_section(self):  # as RecordBatch.records
            if self._records is None:
                sink = _RecordSink.__new__(_RecordSink)
                _legacy_batch(self.src, self.start, self.end, False, self.verify, self.max_size,
                              sink, NULL)
                self._records = sink.out
            return self._records

    def __iter__(self):
        return iter(self.records())

    def __len__(self):
        return self.record_count

    def __repr__(self):
        return (f"LegacyRecordBatch(offset={self.offset}, magic={self.magic}, "
                f"compression={self.compression!r})")


cdef class BatchIterator:
    """Iterates the batches of a buffer (any mix of magic 0, 1 and 2).

    Iteration stops cleanly at a trailing partial batch (as at the end of a fetch
    response); :attr:`remaining_bytes` then says how many bytes were left unread, and
    :attr:`position` where they start.  Anything else malformed raises a
    :mod:`kafkawire.errors` exception.
    """
    cdef _Source src
    cdef bint verify
    cdef object max_size
    cdef public Py_ssize_t position

    def __init__(self, buf, verify_crc=True, max_decompressed_size=_DEFAULT_MAX):
        self.src = _source(buf)
        self.verify = verify_crc
        self.max_size = _DEFAULT_MAX if max_decompressed_size is None else max_decompressed_size
        self.position = 0

    @property
    def remaining_bytes(self):
        """Bytes not yet consumed (after exhaustion: the size of a trailing partial batch)."""
        return self.src.size - self.position

    def __iter__(self):
        return self

    def __next__(self):
        cdef Py_ssize_t pos = self.position, end = 0
        cdef int magic
        cdef RecordBatch rb
        cdef LegacyRecordBatch lb
        magic = _frame(self.src.data, self.src.size, pos, &end)
        if magic < 0:
            raise StopIteration
        if magic == 2:
            rb = RecordBatch.__new__(RecordBatch)
            _v2_header(self.src.data + pos, end - pos, &rb.b, self.verify, pos)
            rb.src = self.src
            rb.start = pos
            rb.end = end
            rb.max_size = self.max_size
            self.position = end
            return rb
        lb = LegacyRecordBatch.__new__(LegacyRecordBatch)
        _legacy_msg(self.src.data, pos, end, self.verify, &lb.m, "message")
        lb.src = self.src
        lb.start = pos
        lb.end = end
        lb.verify = self.verify
        lb.max_size = self.max_size
        self.position = end
        return lb


def iter_batches(buf, *, verify_crc=True, max_decompressed_size=_DEFAULT_MAX):
    """The batches of ``buf``, as a :class:`BatchIterator` (see there)."""
    return BatchIterator(buf, verify_crc, max_decompressed_size)


def decode(buf, *, verify_crc=True, max_decompressed_size=_DEFAULT_MAX):
    """Every record of every complete batch in ``buf`` (a trailing partial batch is
    ignored, as Kafka's consumers do)."""
    cdef _Source src = _source(buf)
    cdef _RecordSink sink = _RecordSink.__new__(_RecordSink)
    if max_decompressed_size is None:
        max_decompressed_size = _DEFAULT_MAX
    _emit_all(src, verify_crc, max_decompressed_size, sink)
    return sink.out
