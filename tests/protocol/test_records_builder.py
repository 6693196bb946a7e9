"""BatchBuilder (v2), record by record, on both backends: what aiokafka's reader (its
Cython and pure readers) decodes from the built batch, and the bytes, which must be
those encode_batch writes for the same records and those aiokafka's own
DefaultRecordBatchBuilder writes (uncompressed).  Then the unusual inputs append takes:
headers of any iterable and pair shape, bytes-like values, and a caller's code that
appends to the same builder from inside append."""

from __future__ import annotations

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from kafkawire.protocol import records
from kafkawire import _backend
from kafkawire.errors import EncodeError

pytestmark = pytest.mark.in_process


def _peer_module(name: str):
    """A peer's module, imported by the tests that compare with it: only they skip
    when the peer is not installed."""
    return pytest.importorskip(name)


CODECS = {"none": 0, "gzip": 1, "snappy": 2, "lz4": 3, "zstd": 4}
TS = 1_700_000_000_000

_header = st.tuples(st.text(max_size=12), st.none() | st.binary(max_size=20))
_records = st.lists(
    st.fixed_dictionaries(
        {
            "key": st.none() | st.binary(max_size=30),
            "value": st.none() | st.binary(max_size=400),
            "headers": st.lists(_header, max_size=3),
            "timestamp": st.integers(TS - 2**40, TS + 2**40),
        }
    ),
    max_size=25,
)


def _build(recs, **opts):
    b = records.BatchBuilder(max_bytes=1 << 30, **opts)
    for r in recs:
        assert b.append(r["key"], r["value"], r["headers"], r["timestamp"])
    assert b.record_count == len(recs)
    return b.build()


def _aiokafka_reads(buf):
    out = []
    for reader in (_peer_module("aiokafka.record.memory_records").MemoryRecords,):
        mr = reader(buf)
        while mr.has_next():
            batch = mr.next_batch()
            assert batch.validate_crc()
            out += [(r.offset, r.timestamp, r.key, r.value, list(r.headers)) for r in batch]
    py = _peer_module("aiokafka.record.default_records")._DefaultRecordBatchPy(buf)
    assert py.validate_crc()
    assert [(r.offset, r.timestamp, r.key, r.value, list(r.headers)) for r in py] == out
    return out


@pytest.mark.parametrize("codec", list(CODECS))
def test_aiokafka_decodes_what_the_builder_builds(codec):
    @settings(
        max_examples=40 if codec == "none" else 15, deadline=None, suppress_health_check=list(HealthCheck)
    )
    @given(recs=_records, base_offset=st.integers(0, 2**50), pid=st.integers(-1, 2**40))
    def run(recs, base_offset, pid):
        opts = dict(
            compression=codec,
            base_offset=base_offset,
            producer_id=pid,
            producer_epoch=0 if pid >= 0 else -1,
            base_sequence=0 if pid >= 0 else -1,
        )
        buf = _build(recs, **opts)
        if recs:
            want = [
                (base_offset + i, r["timestamp"], r["key"], r["value"], [(k, v) for k, v in r["headers"]])
                for i, r in enumerate(recs)
            ]
            assert _aiokafka_reads(buf) == want
        assert buf == records.encode_batch(recs, **opts)
        if codec == "none":
            assert buf == _peer_build(recs, base_offset, pid)

    run()


def _peer_build(recs, base_offset, pid):
    b = _peer_module("aiokafka.record.default_records").DefaultRecordBatchBuilder(
        magic=2,
        compression_type=0,
        is_transactional=0,
        producer_id=pid,
        producer_epoch=0 if pid >= 0 else -1,
        base_sequence=0 if pid >= 0 else -1,
        batch_size=1 << 30,
    )
    for i, r in enumerate(recs):
        b.append(i, timestamp=r["timestamp"], key=r["key"], value=r["value"], headers=r["headers"])
    out = bytearray(b.build())
    # aiokafka leaves the base offset to the broker (0); the rest is the same bytes
    out[0:8] = base_offset.to_bytes(8, "big")
    return bytes(out)


def test_headers_of_any_shape_give_the_same_batch():
    want = records.encode_batch(
        [
            {
                "key": b"k",
                "value": b"v",
                "timestamp": TS,
                "headers": [("a", b"1"), ("b\u00e9", None), ("c", b"")],
            }
        ]
    )

    class Raw(bytes):
        pass

    shapes = [
        [("a", b"1"), ("b\u00e9", None), ("c", b"")],
        (("a", b"1"), ("b\u00e9", None), ("c", b"")),
        [["a", b"1"], ["b\u00e9", None], ["c", bytearray()]],
        iter([("a", memoryview(b"1")), (b"b\xc3\xa9", None), (Raw(b"c"), Raw())]),
        [("a", "1"), ("b\u00e9", None), ("c", "")],
    ]
    for headers in shapes:
        b = records.BatchBuilder()
        assert b.append(b"k", bytearray(b"v"), headers, TS)
        assert b.build() == want, headers


def test_a_header_key_that_is_not_utf8_is_kept_byte_for_byte():
    key = b"\xff\xfek".decode("utf-8", "surrogateescape")
    b = records.BatchBuilder()
    assert b.append(None, b"v", [(key, b"x")], TS)
    (rec,) = records.decode(b.build())
    assert rec.headers == [(key, b"x")]


def test_bad_records_are_refused_and_leave_the_builder_as_it_was():
    b = records.BatchBuilder()
    assert b.append(b"k", b"v", None, TS)
    size = b.size_in_bytes
    for key, value, headers, ts in [
        (1, b"v", None, TS),
        (b"k", object(), None, TS),
        (b"k", b"v", [("h",)], TS),
        (b"k", b"v", [(1, b"x")], TS),
        (b"k", b"v", [("h", 2)], TS),
        (b"k", b"v", None, 1.5),
        (b"k", b"v", None, 2**63),
        (b"k", b"v", None, -(2**63)),
    ]:
        with pytest.raises(EncodeError):
            b.append(key, value, headers, ts)
    assert (b.record_count, b.size_in_bytes) == (1, size)
    assert b.build() == records.encode_batch([{"key": b"k", "value": b"v", "timestamp": TS}])


def test_a_caller_appending_from_inside_append_gets_a_consistent_batch():
    b = records.BatchBuilder()

    def headers():
        b.append(b"inner", b"1", None, TS)  # runs while the outer append reads its headers
        yield ("h", b"x")

    assert b.append(b"outer", b"2", headers(), TS + 1)
    got = [(r.offset, r.key, r.headers) for r in records.decode(b.build())]
    assert got == [(0, b"inner", []), (1, b"outer", [("h", b"x")])]


def test_build_can_be_called_again_and_appending_goes_on():
    b = records.BatchBuilder(compression="lz4")
    assert b.append(b"a", b"1", None, TS)
    first = b.build()
    assert b.build() == first
    assert b.append(b"b", b"2", None, TS + 5)
    assert [r.key for r in records.decode(b.build())] == [b"a", b"b"]


def test_an_empty_builder_builds_an_empty_batch():
    for magic in (0, 1, 2):
        assert records.BatchBuilder(magic=magic).build() == records.encode_batch([], magic=magic)


def test_the_backends_build_the_same_bytes():
    if not _backend.fast_available():
        pytest.skip("the Cython backend is not built here")
    recs = [
        {"key": b"k%d" % i, "value": b"v" * i, "headers": [("h", b"%d" % i)], "timestamp": TS - i * 1000}
        for i in range(50)
    ]
    out = {}
    for name in ("cython", "python"):
        with _backend.use(name):
            out[name] = [_build(recs, compression=c, base_offset=7) for c in CODECS]
    assert out["cython"] == out["python"]
