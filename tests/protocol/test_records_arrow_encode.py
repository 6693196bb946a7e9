"""Record batches straight from Arrow columns (``encode_arrow_batches``) and Kafka's key
partitioner over a key column (``arrow_key_partitions``), on both backends: the two
backends give the same bytes, and those are the bytes ``encode_batch`` writes for the
same records split at the same places; each batch stays within the size a producer
counts; the partitions are those of ``partition_for_key`` (pinned to Kafka's own hash
values in test_spark_kafka_cluster, and to its Java producer's placement there).  Bad
columns are refused with ``EncodeError``."""

from __future__ import annotations

import array
import re
import struct

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from kafkawire import _backend
from kafkawire.cluster.produce import partition_for_key
from kafkawire.errors import EncodeError

pa = pytest.importorskip("pyarrow")

pytestmark = [pytest.mark.in_process, pytest.mark.backend_independent]  # each test runs both

HEADERS = pa.list_(pa.struct([("key", pa.string()), ("value", pa.binary())]))
TS = 1_700_000_000_000

_row = st.fixed_dictionaries(
    {
        "key": st.none() | st.binary(max_size=40),
        "value": st.none() | st.binary(max_size=600),
        "headers": st.none()
        | st.lists(
            st.fixed_dictionaries({"key": st.text(max_size=8), "value": st.none() | st.binary(max_size=30)}),
            max_size=3,
        ),
    }
)


def _columns(rows, key_type=pa.binary()):
    keys = pa.array([r["key"] for r in rows], pa.binary()).cast(key_type)
    values = pa.array([r["value"] for r in rows], pa.binary())
    headers = pa.array([r["headers"] for r in rows], HEADERS)
    return keys, values, headers


def _estimate(row):
    size = 24 + len(row["key"] or b"") + len(row["value"] or b"")
    return size + sum(8 + len(h["key"].encode()) + len(h["value"] or b"") for h in row["headers"] or ())


def _encode(backend, *args, **kwargs):
    return _backend.implementation("records", backend).encode_arrow_batches(*args, **kwargs)


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    rows=st.lists(_row, max_size=40),
    cut=st.integers(0, 5),
    max_bytes=st.integers(1, 3000),
    codec=st.sampled_from(["none", "gzip", "snappy", "lz4", "zstd"]),
    seq=st.sampled_from([-1, 0, 7, 2**31 - 3]),
)
def test_the_batches_are_encode_batchs_for_the_same_records_split_by_size(rows, cut, max_bytes, codec, seq):
    keys, values, headers = (c.slice(min(cut, len(rows))) for c in _columns(rows))
    rows = rows[min(cut, len(rows)) :]
    options = dict(timestamp=TS, compression=codec, producer_id=9, producer_epoch=2, base_sequence=seq)
    got = _encode("python", keys, values, headers, max_bytes=max_bytes, **options)
    if _backend.fast_available():
        assert _encode("cython", keys, values, headers, max_bytes=max_bytes, **options) == got
    assert sum(n for _, n in got) == len(rows)
    records = _backend.implementation("records", "python")
    start = 0
    for data, n in got:
        batch = rows[start : start + n]
        assert n == 1 or 61 + sum(_estimate(r) for r in batch) <= max_bytes
        if start + n < len(rows):  # the next record would not have fitted
            assert 61 + sum(_estimate(r) for r in batch) + _estimate(rows[start + n]) > max_bytes
        dicts = [
            {
                "key": r["key"],
                "value": r["value"],
                "headers": [(h["key"], h["value"]) for h in r["headers"] or ()],
                "timestamp": TS,
            }
            for r in batch
        ]
        assert data == records.encode_batch(
            dicts, compression=codec, producer_id=9, producer_epoch=2, base_sequence=seq
        )
        seq = -1 if seq < 0 else (seq + n) % 2**31
        start += n


@pytest.mark.parametrize("backend_name", ["python", "cython"])
def test_string_columns_and_no_keys_or_headers_encode_as_their_bytes(backend_name):
    if backend_name == "cython" and not _backend.fast_available():
        pytest.skip("no Cython build")
    records = _backend.implementation("records", backend_name)
    keys = pa.array(["k\u00e9", None, ""])
    values = pa.array(["v1", "", None])
    got = records.encode_arrow_batches(keys, values, max_bytes=1 << 20, timestamp=TS)
    assert got == [
        (
            records.encode_batch(
                [
                    {"key": k, "value": v, "timestamp": TS}
                    for k, v in [("k\u00e9".encode(), b"v1"), (None, b""), (b"", None)]
                ]
            ),
            3,
        )
    ]
    assert records.encode_arrow_batches(None, values, max_bytes=1, timestamp=TS) == [
        (records.encode_batch([{"value": v, "timestamp": TS}]), 1) for v in (b"v1", b"", None)
    ]
    assert records.encode_arrow_batches(None, values.slice(0, 0), max_bytes=1, timestamp=TS) == []


@settings(max_examples=40, deadline=None)
@given(
    keys=st.lists(st.none() | st.binary(max_size=20), max_size=30),
    partitions=st.integers(1, 50),
    cut=st.integers(0, 3),
)
def test_key_partitions_are_kafkas_default_partitioners(keys, partitions, cut):
    column = pa.array(keys, pa.binary()).slice(min(cut, len(keys)))
    want = [-1 if k is None else partition_for_key(k, partitions) for k in keys[min(cut, len(keys)) :]]
    for name in ("python", "cython") if _backend.fast_available() else ("python",):
        got = array.array(
            "i", _backend.implementation("records", name).arrow_key_partitions(column, partitions)
        )
        assert got.tolist() == want, name


def _by_hand(*offsets: int):
    """A binary array of ``len(offsets) - 1`` rows over 8 bytes, with these offsets."""
    packed = pa.py_buffer(struct.pack(f"<{len(offsets)}i", *offsets))
    return pa.Array.from_buffers(pa.binary(), len(offsets) - 1, [None, packed, pa.py_buffer(b"abcdefgh")])


def _headers_by_hand(*offsets: int):
    """A headers array over one header entry, with these list offsets."""
    entries = pa.array([{"key": "k", "value": b"v"}], HEADERS.value_type)
    packed = pa.py_buffer(struct.pack(f"<{len(offsets)}i", *offsets))
    return pa.Array.from_buffers(HEADERS, len(offsets) - 1, [None, packed], children=[entries])


@pytest.mark.parametrize(
    "call, message",
    [
        (
            lambda r: r.encode_arrow_batches(None, pa.array([1, 2]), max_bytes=100, timestamp=TS),
            "value: expected an Arrow binary or string array, got int64",
        ),
        (
            lambda r: r.encode_arrow_batches(pa.array([1.5]), pa.array([b"v"]), max_bytes=100, timestamp=TS),
            "key: expected an Arrow binary or string array, got double",
        ),
        (
            lambda r: r.encode_arrow_batches(
                pa.array([b"k"]), pa.array([b"v", b"w"]), max_bytes=100, timestamp=TS
            ),
            "the key column has 1 rows, the value column 2",
        ),
        (
            lambda r: r.encode_arrow_batches(
                None, pa.array([b"v"]), pa.array([[1]]), max_bytes=100, timestamp=TS
            ),
            "headers: expected an Arrow list<struct<key, value>> array",
        ),
        (
            lambda r: r.encode_arrow_batches(
                None, pa.array([b"v"]), pa.array([[None]], HEADERS), max_bytes=100, timestamp=TS
            ),
            "a header is null",
        ),
        (
            lambda r: r.encode_arrow_batches(
                None,
                pa.array([b"v"]),
                pa.array([[{"key": None, "value": b"x"}]], HEADERS),
                max_bytes=100,
                timestamp=TS,
            ),
            "header key: expected str or bytes, got NoneType",
        ),
        (
            lambda r: r.encode_arrow_batches(
                None, pa.array([b"v"]), max_bytes=100, timestamp=TS, producer_epoch=1 << 20
            ),
            "producer_epoch=1048576 does not fit in int16",
        ),
        (lambda r: r.arrow_key_partitions(pa.array([b"k"]), 0), "partitions must be positive, got 0"),
        (
            lambda r: r.arrow_key_partitions(pa.array([b"k"], pa.large_binary()), 3),
            "key: expected an Arrow binary or string array, got large_binary",
        ),
        # arrays built from buffers by hand, with offsets pyarrow's cheap check lets by
        (
            lambda r: r.arrow_key_partitions(_by_hand(0, 2_000_000_000, 4, 8), 3),
            "key: not a valid Arrow array",
        ),
        (
            lambda r: r.encode_arrow_batches(None, _by_hand(0, 6, 2), max_bytes=100, timestamp=TS),
            "value: not a valid Arrow array",
        ),
        (
            lambda r: r.encode_arrow_batches(
                None, pa.array([b"v", b"w"]), _headers_by_hand(0, 5, 1), max_bytes=100, timestamp=TS
            ),
            "headers: not a valid Arrow array",
        ),
    ],
)
def test_bad_columns_are_refused_alike(call, message):
    for name in ("python", "cython") if _backend.fast_available() else ("python",):
        with pytest.raises(EncodeError, match=re.escape(message)):
            call(_backend.implementation("records", name))
