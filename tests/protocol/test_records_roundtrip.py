"""Records encode and decode: every magic and compression, every header field, both
backends giving the same bytes and the same records."""

from __future__ import annotations

import pickle
import struct

import pytest

from kafkawire.protocol import records
from kafkawire import _backend
from kafkawire.errors import CorruptRecordError, EncodeError, KafkaWireError

pytestmark = pytest.mark.in_process

CODECS = ["none", "gzip", "snappy", "lz4", "zstd"]
TS = 1_700_000_000_000

RECS = [
    {"key": b"k0", "value": b"v0", "headers": [("a", b"1"), ("b", None)], "timestamp": TS + 5},
    {"key": None, "value": b"", "headers": [], "timestamp": TS - 7},  # negative delta
    {"key": b"", "value": None, "headers": [("\udcff\udcfe", b"raw")], "timestamp": TS},
    {
        "key": b"x" * 300,
        "value": bytes(range(256)) * 20,
        "headers": [("h", b"y" * 200)],
        "timestamp": TS + 100_000,
    },
]
LEGACY = [dict(r, headers=[]) for r in RECS]


def _tuples(recs):
    return [r.as_tuple() for r in recs]


@pytest.mark.parametrize("codec", CODECS)
def test_v2_roundtrip_every_codec(codec):
    buf = records.encode_batch(RECS, compression=codec, base_offset=1000)
    out = records.decode(buf)
    assert [r.offset for r in out] == [1000, 1001, 1002, 1003]
    assert [r.timestamp for r in out] == [r["timestamp"] for r in RECS]
    assert [r.key for r in out] == [r["key"] for r in RECS]
    assert [r.value for r in out] == [r["value"] for r in RECS]
    assert out[0].headers == [("a", b"1"), ("b", None)]
    assert all(r.timestamp_type == "create" for r in out)


@pytest.mark.parametrize("magic", [0, 1])
@pytest.mark.parametrize("codec", CODECS[:4])
def test_legacy_roundtrip_every_codec(magic, codec):
    buf = records.encode_batch(LEGACY, magic=magic, compression=codec, base_offset=50)
    out = records.decode(buf)
    assert [r.offset for r in out] == [50, 51, 52, 53]
    assert [(r.key, r.value) for r in out] == [(r["key"], r["value"]) for r in LEGACY]
    if magic == 0:
        assert all(r.timestamp is None and r.timestamp_type is None for r in out)
    else:
        assert [r.timestamp for r in out] == [r["timestamp"] for r in LEGACY]
    batches = list(records.iter_batches(buf))
    assert len(batches) == (4 if codec == "none" else 1)
    assert batches[-1].last_offset == 53 and batches[0].base_offset == 50
    assert all(b.magic == magic and b.compression == codec for b in batches)


@pytest.mark.parametrize("magic", [0, 1])
def test_legacy_refuses_headers_and_zstd(magic):
    with pytest.raises(EncodeError):
        records.encode_batch(RECS, magic=magic)
    with pytest.raises(EncodeError):
        records.encode_batch(LEGACY, magic=magic, compression="zstd")


def test_non_utf8_header_key_roundtrips_byte_for_byte():
    raw = b"\xff\xfe"
    buf = records.encode_batch([{"key": b"k", "value": b"v", "headers": [(raw, b"x")], "timestamp": 1}])
    (rec,) = records.decode(buf)
    assert rec.headers[0][0] == raw.decode("utf-8", "surrogateescape")
    assert raw in buf
    assert records.encode_batch([rec]) == buf


def test_header_fields_of_an_idempotent_transactional_batch():
    buf = records.encode_batch(
        RECS,
        base_offset=7,
        producer_id=42,
        producer_epoch=3,
        base_sequence=100,
        is_transactional=True,
        partition_leader_epoch=9,
        compression="gzip",
    )
    (b,) = list(records.iter_batches(buf))
    assert (b.base_offset, b.last_offset, b.magic, b.compression) == (7, 10, 2, "gzip")
    assert (b.producer_id, b.producer_epoch, b.base_sequence) == (42, 3, 100)
    assert (b.partition_leader_epoch, b.is_transactional, b.is_control) == (9, True, False)
    assert b.base_timestamp == TS + 5 and b.max_timestamp == TS + 100_000
    assert b.record_count == len(b) == 4 and b.size_in_bytes == len(buf)
    assert bytes(b.raw) == buf
    assert b.crc == struct.unpack_from(">I", buf, 17)[0]
    assert b.timestamp_type == "create" and b.delete_horizon_ms is None


def test_log_append_time_uses_the_batch_max_timestamp():
    buf = records.encode_batch(RECS, timestamp_type="log_append")
    out = records.decode(buf)
    assert {r.timestamp for r in out} == {TS + 100_000}
    assert {r.timestamp_type for r in out} == {"log_append"}
    buf1 = records.encode_batch(LEGACY, magic=1, timestamp_type="log_append", compression="gzip")
    assert {r.timestamp for r in records.decode(buf1)} == {TS + 100_000}


def test_delete_horizon():
    buf = records.encode_batch(RECS[:2], delete_horizon_ms=TS - 1_000_000)
    (b,) = list(records.iter_batches(buf))
    assert b.has_delete_horizon and b.delete_horizon_ms == TS - 1_000_000
    assert [r.timestamp for r in b] == [RECS[0]["timestamp"], RECS[1]["timestamp"]]


@pytest.mark.parametrize("kind,code", [("commit", 1), ("abort", 0)])
def test_control_batch(kind, code):
    buf = records.encode_control_batch(
        kind, base_offset=500, producer_id=8, producer_epoch=2, coordinator_epoch=11, timestamp=TS
    )
    (b,) = list(records.iter_batches(buf))
    assert b.is_control and b.is_transactional and b.producer_id == 8
    (rec,) = b.records()
    assert rec.key == struct.pack(">hh", 0, code)
    marker = records.parse_control_record(rec)
    assert (marker.type, marker.coordinator_epoch) == (kind, 11)
    with pytest.raises(EncodeError):
        records.encode_control_batch("maybe", producer_id=1, producer_epoch=1)


def test_explicit_offsets_and_sequences():
    recs = [dict(RECS[0], offset=10), dict(RECS[1], offset=12), dict(RECS[2])]
    buf = records.encode_batch(recs, base_offset=10, base_sequence=2**31 - 2, producer_id=1)
    assert [r.offset for r in records.decode(buf)] == [10, 12, 13]
    (b,) = list(records.iter_batches(buf))
    assert [b.sequence_of(d) for d in (0, 1, 2, 3)] == [2**31 - 2, 2**31 - 1, 0, 1]
    with pytest.raises(EncodeError):
        records.encode_batch([dict(RECS[0], offset=5), dict(RECS[1], offset=5)], base_offset=5)
    with pytest.raises(EncodeError):
        records.encode_batch([dict(RECS[0], offset=1)], base_offset=5)


def test_record_objects_encode_like_dicts():
    out = records.decode(records.encode_batch(RECS))
    assert records.encode_batch(out) == records.encode_batch(RECS)
    r = records.Record(offset=3, timestamp=9, key=b"k", value=b"v", headers=[("h", b"")])
    assert records.decode(records.encode_batch([r], base_offset=3))[0] == r
    assert pickle.loads(pickle.dumps(r)) == r


def test_bad_encode_arguments():
    with pytest.raises(EncodeError):
        records.encode_batch(RECS, compression="brotli")
    with pytest.raises(EncodeError):
        records.encode_batch(RECS, magic=3)
    with pytest.raises(EncodeError):
        records.encode_batch(RECS, producer_epoch=2**15)
    with pytest.raises(EncodeError):
        records.encode_batch([{"key": 5}])
    with pytest.raises(EncodeError):
        records.encode_batch([{"headers": [("a", b"b", b"c")]}])
    with pytest.raises(EncodeError):
        records.encode_batch([{"timestamp": "now"}])


@pytest.mark.parametrize("magic", [0, 1, 2])
def test_a_misspelt_record_field_is_named_not_dropped(magic):
    """A dict key that is no record field would otherwise encode a record without it."""
    headers = [("trace", b"1")] if magic == 2 else []
    with pytest.raises(EncodeError, match=r"unknown record field 'headrs' \(did you mean 'headers'\?\)"):
        records.encode_batch([{"value": b"v", "headrs": headers}], magic=magic)
    with pytest.raises(EncodeError, match=r"unknown record fields 'partition', 'topic'"):
        records.encode_batch([{"value": b"v", "topic": "t", "partition": 0}], magic=magic)

    # fields set to None count as fields, and do not hide an unknown one
    with pytest.raises(EncodeError, match=r"unknown record field 'vlaue'"):
        records.encode_batch([{"key": None, "value": None, "vlaue": b"v"}], magic=magic)
    (r,) = records.decode(
        records.encode_batch([{"key": None, "value": None, "headers": None, "offset": None}], magic=magic)
    )
    assert (r.key, r.value, r.headers) == (None, None, [])

    class Row(dict):  # a dict subclass is a dict too
        pass

    with pytest.raises(EncodeError, match="'vlaue'"):
        records.encode_batch([Row(key=b"k", vlaue=b"v")], magic=magic)
    (r,) = records.decode(
        records.encode_batch([{"value": b"v", "headers": headers, "offset": 0}], magic=magic)
    )
    assert (r.value, r.headers) == (b"v", headers)


def test_empty_batch():
    buf = records.encode_batch([])
    (b,) = list(records.iter_batches(buf))
    assert b.record_count == 0 and list(b) == []
    assert records.decode(buf) == []


def test_mixed_magics_and_partial_trailing_batch():
    v0 = records.encode_batch(LEGACY[:2], magic=0, base_offset=0)
    v1 = records.encode_batch(LEGACY[:2], magic=1, compression="snappy", base_offset=2)
    v2 = records.encode_batch(RECS, base_offset=4, compression="lz4")
    buf = v0 + v1 + v2 + v2[:40]
    it = records.iter_batches(buf)
    magics = [b.magic for b in it]
    assert magics == [0, 0, 1, 2]
    assert it.remaining_bytes == 40 and it.position == len(buf) - 40
    assert [r.offset for r in records.decode(buf)] == list(range(8))
    it2 = records.iter_batches(v2 + v2[:5])  # fewer bytes than a size field
    assert len(list(it2)) == 1 and it2.remaining_bytes == 5


def test_crc_is_checked_unless_disabled():
    buf = bytearray(records.encode_batch(RECS))
    buf[-1] ^= 1
    with pytest.raises(CorruptRecordError):
        records.decode(bytes(buf))
    with pytest.raises(CorruptRecordError):
        list(records.iter_batches(bytes(buf)))
    assert len(records.decode(bytes(buf), verify_crc=False)) == 4
    legacy = bytearray(records.encode_batch(LEGACY, magic=1))
    legacy[-1] ^= 1
    with pytest.raises(CorruptRecordError):
        records.decode(bytes(legacy))
    unchecked = records.decode(bytes(legacy), verify_crc=False)
    assert [(r.key, r.value) for r in unchecked[:-1]] == [(r["key"], r["value"]) for r in LEGACY[:-1]]
    assert unchecked[-1].key == LEGACY[-1]["key"] and unchecked[-1].value != LEGACY[-1]["value"]


def test_input_buffers_of_any_kind_are_not_mutated():
    buf = records.encode_batch(RECS, compression="zstd")
    for kind in (bytes, bytearray, lambda b: memoryview(bytearray(b))):
        data = kind(buf)
        before = bytes(data)
        assert len(records.decode(data)) == 4
        assert bytes(data) == before


def test_builder_stops_at_its_byte_limit():
    b = records.BatchBuilder(max_bytes=1000, base_offset=20, compression="gzip")
    n = 0
    while b.append(b"key", b"v" * 100, [("h", b"x")], TS + n):
        n += 1
    assert 5 < n < 10 and b.record_count == n
    assert b.size_in_bytes <= 1000
    out = records.decode(b.build())
    assert [r.offset for r in out] == list(range(20, 20 + n))
    big = records.BatchBuilder(max_bytes=10)
    assert big.append(b"k", b"v" * 100, None, 1)  # the first record is always taken
    assert not big.append(b"k", b"v", None, 1)
    legacy = records.BatchBuilder(magic=1, max_bytes=200)
    assert legacy.append(b"k", b"v" * 50, None, 1)
    assert legacy.append(b"k", b"v" * 50, None, 2)
    assert not legacy.append(b"k", b"v" * 50, None, 3)
    assert len(records.decode(legacy.build())) == 2


def test_builder_matches_encode_batch():
    b = records.BatchBuilder(base_offset=3, producer_id=5, producer_epoch=1, base_sequence=0)
    for r in RECS:
        assert b.append(r["key"], r["value"], r["headers"], r["timestamp"])
    assert b.build() == records.encode_batch(
        RECS, base_offset=3, producer_id=5, producer_epoch=1, base_sequence=0
    )


def test_timestamps_default_to_now(monkeypatch):
    import time

    monkeypatch.setattr(time, "time", lambda: 1_700_000_000.123)
    (r,) = records.decode(records.encode_batch([{"key": b"k"}]))
    assert r.timestamp == 1_700_000_000_123


@pytest.mark.backend_independent
@pytest.mark.parametrize(
    "magic,codec", [(m, c) for m in (0, 1, 2) for c in CODECS if m == 2 or c != "zstd"]
)  # zstd needs magic 2
def test_backends_give_the_same_bytes_records_and_tables(codec, magic):
    if not _backend.fast_available():
        pytest.skip("the Cython backend did not load: nothing to compare the pure one with")
    fast = _backend.implementation("records", "cython")
    pure = _backend.implementation("records", "python")
    recs = RECS if magic == 2 else LEGACY
    kw = dict(
        magic=magic,
        compression=codec,
        base_offset=77,
        compression_level=1 if codec in ("gzip", "zstd") else None,
    )
    a, b = fast.encode_batch(recs, **kw), pure.encode_batch(recs, **kw)
    assert a == b  # gzip included: its header carries no time, so the bytes are stable
    for buf in (a, b):
        assert _tuples(fast.decode(buf)) == _tuples(pure.decode(buf))
        pytest.importorskip("pyarrow")
        assert fast.to_arrow(buf).equals(pure.to_arrow(buf))


@pytest.mark.parametrize(
    "columns", [["value", "offset"], ["headers"], ["compression", "key", "timestamp"], []]
)
def test_to_arrow_of_some_columns_is_those_columns_of_the_whole_table(columns):
    pytest.importorskip("pyarrow")
    buf = (
        records.encode_batch(LEGACY, magic=1)
        + records.encode_batch(RECS, base_offset=4, compression="snappy")
        + records.encode_batch(RECS, base_offset=8)
    )
    t = records.to_arrow(buf, columns=columns)
    assert t.schema.names == columns and t.num_rows == 12
    assert t.equals(records.to_arrow(buf).select(columns))
    with pytest.raises(ValueError, match="no column 'nope'"):
        records.to_arrow(buf, columns=["offset", "nope"])


def test_to_arrow_checks_the_columns_it_does_not_build():
    """A record's skipped key, value or headers are still checked: every one-byte
    change fails (or not) the same way whatever the columns asked for."""
    pytest.importorskip("pyarrow")
    good = records.encode_batch(RECS)

    def outcome(buf, columns):
        try:
            records.to_arrow(buf, verify_crc=False, columns=columns)
        except KafkaWireError as exc:
            return type(exc)
        return None

    failures = 0
    for i in range(61, len(good)):
        for byte in (0x00, 0x7F, 0xFF):
            bad = bytearray(good)
            bad[i] = byte
            want = outcome(bytes(bad), None)
            failures += want is not None
            assert outcome(bytes(bad), ["offset"]) == want, (i, byte)
    assert failures > 50


def test_to_arrow_columns():
    pa = pytest.importorskip("pyarrow")
    v1 = records.encode_batch(LEGACY[:1], magic=0)
    buf = v1 + records.encode_batch(
        RECS,
        producer_id=4,
        producer_epoch=2,
        base_sequence=10,
        is_transactional=True,
        compression="snappy",
        partition_leader_epoch=6,
        base_offset=1,
    )
    t = records.to_arrow(buf)
    assert t.schema == records.arrow_schema()
    assert t.schema.field("timestamp").type == pa.timestamp("us", tz="UTC")
    rows = t.to_pylist()
    assert rows[0]["timestamp"] is None and rows[0]["compression"] == "none"
    assert rows[0]["producer_id"] == -1 and rows[0]["sequence"] == -1
    r = rows[1]
    assert (r["offset"], r["key"], r["value"]) == (1, b"k0", b"v0")
    assert r["headers"] == [{"key": "a", "value": b"1"}, {"key": "b", "value": None}]
    assert (r["partition_leader_epoch"], r["producer_id"], r["producer_epoch"]) == (6, 4, 2)
    assert [x["sequence"] for x in rows[1:]] == [10, 11, 12, 13]
    assert r["is_transactional"] and not r["is_control"] and r["compression"] == "snappy"
    assert rows[3]["headers"][0]["key"] == "\ufffd\ufffd"  # not UTF-8: replaced in Arrow
    assert rows[2]["key"] is None and rows[3]["value"] is None
    empty = records.to_arrow(b"")
    assert empty.num_rows == 0 and empty.schema == records.arrow_schema()


def test_header_fields_and_repr_of_a_batch_of_each_magic():
    # v2: the batch length field counts the bytes after itself (all but the 8-byte base
    # offset and the 4-byte length)
    v2 = records.encode_batch(RECS, compression="gzip", base_offset=1000)
    (batch,) = records.iter_batches(v2)
    assert (batch.size_in_bytes, batch.batch_length) == (len(v2), len(v2) - 12)
    assert repr(batch) == (
        "RecordBatch(base_offset=1000, magic=2, records=4, compression='gzip', "
        "is_transactional=False, is_control=False)"
    )
    # magic 1, compressed: Kafka's wrapper message carries the last inner offset and, for
    # create time, the largest inner timestamp
    legacy = records.encode_batch(LEGACY, magic=1, compression="snappy", base_offset=50)
    (wrapper,) = records.iter_batches(legacy)
    assert (wrapper.compression_id, wrapper.compression) == (2, "snappy")
    assert wrapper.timestamp == max(r["timestamp"] for r in LEGACY)
    assert repr(wrapper) == "LegacyRecordBatch(offset=53, magic=1, compression='snappy')"


def test_no_decompression_limit_given_means_the_default_one():
    buf = records.encode_batch(RECS, compression="zstd")
    assert _tuples(records.decode(buf, max_decompressed_size=None)) == _tuples(records.decode(buf))


@pytest.mark.backends("cython")
def test_to_arrow_in_a_block_another_table_used_matches_the_pure_backend():
    """Big tables' blocks are kept for the next table: nothing of the first may show."""
    pytest.importorskip("pyarrow")
    from kafkawire._fast import records as fast

    pure = _backend.implementation("records", "python")
    full = [
        {"key": b"k" * 40, "value": b"v" * 400, "headers": [("h", b"x" * 30)], "timestamp": TS + i}
        for i in range(3000)
    ]
    sparse = [
        {
            "key": None if i % 3 else b"k",
            "value": None if i % 5 == 0 else b"w" * 400,
            "headers": [("h", None)] if i % 2 else [],
            "timestamp": TS - i,
        }
        for i in range(3000)
    ]
    first = fast.encode_batch(full, is_transactional=True, producer_id=9, producer_epoch=1, base_sequence=0)
    second = b"".join(fast.encode_batch(sparse[i : i + 500], base_offset=i) for i in range(0, 3000, 500))
    # a pool already full of smaller blocks (as other tables leave it) makes room
    small = fast.encode_batch([{"key": None, "value": b"s" * 300, "timestamp": TS}] * 1000)
    held = [fast.to_arrow(small) for _ in range(5)]
    del held
    _, reused = fast._arrow_pool()
    assert fast.to_arrow(first).num_rows == 3000  # made, then dropped: its block is kept
    table = fast.to_arrow(second)
    assert fast._arrow_pool()[1] > reused
    assert table.equals(pure.to_arrow(second))
    assert table.column("key").null_count == 2000 and not any(table.column("is_transactional").to_pylist())


@pytest.mark.backends("cython")
@pytest.mark.parametrize("codec", ["lz4", "zstd", "gzip", "snappy"])
def test_to_arrow_of_compressed_batches_grown_in_kept_blocks_matches_the_pure_backend(codec):
    """The columns of compressed batches (which the headers do not size) grow into blocks
    earlier tables left: nothing of those tables may show."""
    pytest.importorskip("pyarrow")
    from kafkawire._fast import records as fast

    pure = _backend.implementation("records", "python")
    full = [
        {
            "key": b"k" * 40,
            "value": bytes([i % 251]) * 700,
            "headers": [("h", b"x" * 30)],
            "timestamp": TS + i,
        }
        for i in range(6000)
    ]
    sparse = [
        {
            "key": None if i % 3 else b"q",
            "value": None if i % 5 == 0 else b"w" * (i % 900),
            "headers": [("g", None)] if i % 2 else [],
            "timestamp": TS - i,
        }
        for i in range(6000)
    ]

    def batches(recs):
        return b"".join(
            fast.encode_batch(recs[i : i + 1000], base_offset=i, compression=codec)
            for i in range(0, 6000, 1000)
        )

    first, second = batches(full), batches(sparse)
    assert fast.to_arrow(first).num_rows == 6000  # made, then dropped: its blocks are kept
    _, reused = fast._arrow_pool()
    table = fast.to_arrow(second)
    assert fast._arrow_pool()[1] > reused  # the growing columns took kept blocks
    assert table.equals(pure.to_arrow(second))
    again = fast.to_arrow(first)  # into the blocks the sparse table's growth gave back
    assert again.equals(pure.to_arrow(first))


@pytest.mark.backends("cython")
def test_to_arrow_keeps_a_bounded_number_of_blocks():
    pytest.importorskip("pyarrow")
    from kafkawire._fast import records as fast

    buf = records.encode_batch([{"key": b"k", "value": b"v" * 1000, "timestamp": TS}] * 2000)
    tables = [fast.to_arrow(buf) for _ in range(10)]
    del tables  # ten blocks freed at once
    kept, _ = fast._arrow_pool()
    assert 1 <= kept <= 4


def test_a_record_changed_while_the_batch_is_encoded_encodes_whole(backend):
    """encode_batch holds what it read from each record: a later record that replaces an
    earlier one's value (here a property; on a free-threaded CPython any other thread)
    leaves the batch with the old value or the new one, never with freed memory."""
    old = bytes(bytearray(b"o" * 3000))  # held by the dict alone once `old` is gone
    first = {"value": old, "headers": [("h", bytes(bytearray(b"p" * 3000)))]}
    del old
    junk = []

    class Replacer:
        @property
        def value(self) -> bytes:
            first["value"] = b"n" * 3000
            first["headers"] = []
            # reuse the freed memory, as any later allocation may
            junk.extend(bytes(bytearray(b"z" * 3000)) for _ in range(64))
            return b"v"

    r0, r1 = records.decode(records.encode_batch([first, Replacer()]))
    assert r0.value in (b"o" * 3000, b"n" * 3000)
    assert r0.headers in ([("h", b"p" * 3000)], [])
    assert r1.value == b"v"
