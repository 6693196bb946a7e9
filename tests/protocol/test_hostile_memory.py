"""Hostile input, memory: no leaks, bounded allocation, lengths checked before allocating.

* Decoding the same inputs (the saved fuzz corpus, valid and mutated, error paths
  included) round after round, in a fresh subprocess, leaves memory flat: the number of
  allocated Python blocks and the RSS stop growing after a warm-up.
* tracemalloc: no decoder allocates more than a small multiple of its input (Python
  objects cost tens of bytes each, so "small" is :data:`ALLOC_FACTOR`), except inside the
  decompression cap.
* A length or count declared beyond the bytes that remain is rejected (a kafkawire
  error) before anything of that size is allocated.
"""

from __future__ import annotations

import json
import os
import struct
import subprocess
import sys
import tempfile
import textwrap
import tracemalloc

import pytest
from conftest import subprocess_env

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
if ROOT not in sys.path:
    sys.path.append(ROOT)  # after site-packages: the installed kafkawire wins

from fuzz import targets as T  # noqa: E402
from kafkawire.protocol import compression, messages  # noqa: E402
from kafkawire.errors import DecompressionLimitError, KafkaWireError  # noqa: E402

pytestmark = pytest.mark.in_process

#: Bytes allocated per input byte a decoder may use at most (a decoded struct or record
#: is a Python object of 50-150 bytes that can come from 3-4 input bytes).
ALLOC_FACTOR = 64
#: Fixed allowance per call (plans built on first use, small caches, exception objects).
ALLOC_BASE = 64 * 1024
#: What "nothing big was allocated" means for a few-byte hostile input.
SMALL = 256 * 1024

HUGE32 = 0x7FFFFFFF

#: Under AddressSanitizer freed memory sits in a quarantine, so RSS measures nothing.
SANITIZED = "asan" in os.environ.get("LD_PRELOAD", "")


def _peak(fn, *args, **kwargs):
    """(result or exception, peak bytes traced while ``fn`` ran)."""
    tracemalloc.start()
    try:
        tracemalloc.reset_peak()
        base = tracemalloc.get_traced_memory()[0]
        try:
            result = fn(*args, **kwargs)
        except KafkaWireError as exc:
            result = exc
        peak = tracemalloc.get_traced_memory()[1] - base
    finally:
        tracemalloc.stop()
    return result, peak


# ---------------------------------------------------------------------------
# leaks: a fresh process, the same inputs round after round

_LEAK_SCRIPT = textwrap.dedent("""
    import gc, glob, json, os, random, resource, sys
    sys.path.append({root!r})
    from fuzz import targets as T
    from kafkawire import _backend

    rnd = random.Random(7)
    inputs = []
    for name in T.TARGETS:
        if name == "segment":
            continue  # temporary files: measured separately, slower
        files = sorted(glob.glob(os.path.join({root!r}, "fuzz", "corpus", name, "*")))
        rnd.shuffle(files)
        for path in files[:{per_target}]:
            data = bytearray(open(path, "rb").read())
            inputs.append((name, bytes(data)))
            if len(data) > 3:
                cut = rnd.randrange(2, len(data))
                inputs.append((name, bytes(data[:cut])))          # truncated
                data[rnd.randrange(2, len(data))] ^= 0xFF
                inputs.append((name, T.fix_crcs(bytes(data)) if name == "records" else bytes(data)))
    page = os.sysconf("SC_PAGE_SIZE")

    def rss():
        with open("/proc/self/statm") as f:
            return int(f.read().split()[1]) * page

    blocks, rsses = [], []
    for _ in range({rounds}):
        for name, data in inputs:
            try:
                T.TARGETS[name](data)
            except T.HostileFailure:
                pass  # reported by the differential tests; here only memory counts
        gc.collect()
        blocks.append(sys.getallocatedblocks())
        rsses.append(rss())
    print(json.dumps({{"inputs": len(inputs), "blocks": blocks, "rss": rsses}}))
""")


def _run_isolated(script: str, timeout: int = 120) -> dict:
    env = subprocess_env()
    env.pop("PYTHONTRACEMALLOC", None)
    # Not measured by coverage.py either: its tracer's allocations would count as the
    # decoders', and from the temporary directory Cython's coverage plugin cannot find
    # the .pxi parts (it gives up, and that child's data no longer combines).
    env.pop("COVERAGE_PROCESS_START", None)
    env.pop("COVERAGE_PROCESS_CONFIG", None)
    proc = subprocess.run(
        [sys.executable, "-c", script],
        capture_output=True,
        text=True,
        timeout=timeout,
        env=env,
        cwd=tempfile.gettempdir(),
    )
    assert proc.returncode == 0, proc.stderr[-4000:]
    return json.loads(proc.stdout.strip().splitlines()[-1])


@pytest.mark.backend_independent
def test_decoding_the_same_inputs_again_and_again_leaves_memory_flat():
    """Both backends, valid and broken inputs (error paths leak most often)."""
    out = _run_isolated(_LEAK_SCRIPT.format(root=ROOT, per_target=40, rounds=8))
    blocks, rss = out["blocks"], out["rss"]
    warm = 3  # caches (plans, the records key cache) fill during the first rounds
    grown_blocks = blocks[-1] - blocks[warm]
    grown_rss = rss[-1] - rss[warm]
    # A leak of one object per input per round would add inputs * rounds blocks.
    assert grown_blocks < out["inputs"] // 4, (
        f"allocated blocks grew by {grown_blocks} over {len(blocks) - warm - 1} rounds "
        f"of {out['inputs']} inputs: {blocks}"
    )
    if not SANITIZED:
        assert grown_rss < 8 << 20, f"RSS grew by {grown_rss} bytes: {rss}"


_BIG_SCRIPT = textwrap.dedent("""
    import gc, json, os, sys
    sys.path.append({root!r})
    from kafkawire import _backend
    page = os.sysconf("SC_PAGE_SIZE")

    def rss():
        with open("/proc/self/statm") as f:
            return int(f.read().split()[1]) * page

    recs = [{{"key": b"k%d" % i, "value": os.urandom(64) + b"v" * 400, "timestamp": i,
             "headers": [("h", b"x")]}} for i in range(4000)]
    out = {{}}
    for backend in ("cython", "python") if _backend.fast_available() else ("python",):
        R = _backend.implementation("records", backend)
        bufs = [R.encode_batch(recs, compression=c) for c in ("none", "gzip", "zstd", "lz4", "snappy")]
        bufs.append(R.encode_batch([dict(r, headers=[]) for r in recs[:500]], magic=1,
                                   compression="gzip"))
        samples = []
        for i in range({rounds}):
            for buf in bufs:
                n = sum(len(b.records()) for b in R.iter_batches(buf))
                assert n in (4000, 500)
                try:
                    list(R.iter_batches(buf[:-1] + b"\\x00"))
                except Exception:
                    pass
            gc.collect()
            samples.append(rss())
        out[backend] = samples
    print(json.dumps(out))
""")


@pytest.mark.backend_independent
def test_decoding_big_compressed_batches_repeatedly_leaves_rss_flat():
    if SANITIZED:
        pytest.skip("RSS is meaningless under AddressSanitizer (freed memory is quarantined)")
    out = _run_isolated(_BIG_SCRIPT.format(root=ROOT, rounds=6))
    for backend, rss in out.items():
        assert rss[-1] - rss[2] < 16 << 20, f"{backend}: RSS {rss}"


# ---------------------------------------------------------------------------
# allocation bounds


def _message_inputs():
    """Message payloads made to hold long arrays of small structs (the worst ratio of
    objects to bytes), plus the saved corpus."""
    import glob

    out = []
    for path in sorted(glob.glob(os.path.join(ROOT, "fuzz", "corpus", "message", "*")))[::3]:
        with open(path, "rb") as f:
            data = f.read()
        payload = data[2:]
        for variant in (
            payload,
            payload + b"\x00" * 4096,
            b"\x00\x00\x04\x00" + b"\x00" * 4096,
            b"\x81\x20" + b"\x01" * 4096,
        ):
            out.append((data[:2], variant))
    return out


def test_message_decoding_allocates_a_small_multiple_of_its_input(impl):
    codec = impl("codec")
    pairs = T.message_pairs()
    worst = (0.0, None)
    for sel, payload in _message_inputs():
        name, version = pairs[int.from_bytes(sel, "big") % len(pairs)]
        plan = messages.CLASSES[name].plan(version)
        try:  # build the plan's caches outside the measurement
            codec.decode_from(plan, payload, 0)
        except KafkaWireError:
            pass
        result, peak = _peak(codec.decode_from, plan, payload, 0)
        del result
        ratio = (peak - ALLOC_BASE) / max(len(payload), 1)
        worst = max(worst, (ratio, (name, version, len(payload), peak)))
        assert peak <= ALLOC_BASE + ALLOC_FACTOR * len(payload), (
            f"{name} v{version}: {peak} bytes allocated for {len(payload)} bytes of input"
        )


def _record_buffers(R):
    recs = [{"key": None, "value": b"", "timestamp": 0}] * 2000  # the smallest records
    hdrs = [{"key": b"k", "value": b"v", "timestamp": 0, "headers": [("a", b"")] * 20}] * 200
    return [
        R.encode_batch(recs),
        R.encode_batch(hdrs),
        R.encode_batch(recs, magic=1),
        R.encode_batch(recs, magic=0),
    ]


def test_record_decoding_allocates_a_small_multiple_of_its_input(impl):
    R = impl("records")
    for buf in _record_buffers(R):
        R.decode(buf)
        result, peak = _peak(R.decode, buf)
        assert not isinstance(result, Exception)
        assert peak <= ALLOC_BASE + 2 * ALLOC_FACTOR * len(buf), (
            f"{peak} bytes allocated decoding {len(buf)} bytes of records"
        )


def test_arrow_decoding_allocates_a_small_multiple_of_its_input(impl):
    pytest.importorskip("pyarrow")
    R = impl("records")
    for buf in _record_buffers(R):
        R.to_arrow(buf)
        result, peak = _peak(R.to_arrow, buf)
        assert not isinstance(result, Exception)
        # Arrow buffers live outside tracemalloc's view; what is traced must be small.
        assert peak <= ALLOC_BASE + 2 * ALLOC_FACTOR * len(buf), peak


@pytest.mark.parametrize("codec", ["gzip", "snappy", "lz4", "zstd"])
def test_a_decompression_bomb_stops_at_the_cap(codec, impl):
    R = impl("records")
    bomb_records = [{"key": None, "value": b"\x00" * (1 << 20), "timestamp": 0}] * 8
    buf = R.encode_batch(bomb_records, compression=codec)
    assert len(buf) < (8 << 20) // 20  # it is a bomb
    cap = 1 << 20
    (batch,) = list(R.iter_batches(buf, max_decompressed_size=cap))
    result, peak = _peak(batch.records)
    assert isinstance(result, DecompressionLimitError), result
    assert "max_decompressed_size" in str(result)
    assert peak <= 6 * cap, f"{codec}: {peak} bytes allocated with a cap of {cap}"


# ---------------------------------------------------------------------------
# declared lengths beyond the input


def _check_rejected_small(fn, *args, **kwargs):
    try:  # first calls build plans and caches: not what is measured
        fn(*args, **kwargs)
    except KafkaWireError:
        pass
    result, peak = _peak(fn, *args, **kwargs)
    assert isinstance(result, KafkaWireError), f"accepted: {result!r}"
    assert peak < SMALL, f"{peak} bytes allocated before rejecting: {result}"
    return result


@pytest.mark.parametrize(
    "name,buf",
    [
        ("decode_bytes", struct.pack(">i", HUGE32) + b"abc"),
        ("decode_nullable_bytes", struct.pack(">i", HUGE32) + b"abc"),
        ("decode_string", struct.pack(">h", 0x7FFF) + b"abc"),
        ("decode_compact_bytes", b"\xff\xff\xff\xff\x07abc"),
        ("decode_compact_string", b"\xff\xff\xff\xff\x07abc"),
        ("decode_compact_nullable_bytes", b"\xff\xff\xff\xff\x07"),
        ("decode_array_length", b"\x7f\xff"),
    ],
)
def test_a_primitive_length_beyond_the_input_is_rejected_before_allocation(name, buf, impl):
    _check_rejected_small(getattr(impl("primitives"), name), buf, 0)


def test_an_array_count_beyond_the_input_is_rejected_before_allocation(impl):
    codec = impl("codec")
    cases = [
        ("MetadataRequest", 0, struct.pack(">i", HUGE32) + b"\x00\x01a"),  # array of structs
        ("MetadataRequest", 12, b"\xff\xff\xff\xff\x07\x00"),  # compact array of structs
        ("FetchResponse", 4, b"\x00\x00\x00\x00" + struct.pack(">i", HUGE32)),
        ("OffsetForLeaderEpochRequest", 2, struct.pack(">i", HUGE32)),
        ("DescribeClusterResponse", 0, b"\x00" * 4 + b"\x00\x00" + b"\xff\xff\xff\xff\x07"),
    ]
    for name, version, payload in cases:
        plan = messages.CLASSES[name].plan(version)
        err = _check_rejected_small(codec.decode, plan, payload)
        assert "byte" in str(err), str(err)


def test_int32_arrays_and_string_arrays_with_huge_counts_are_rejected(impl):
    codec = impl("codec")
    # ListOffsetsRequest v0 ... use any definition with an int32 / string array field.
    from kafkawire.protocol.schema import plan as P

    found = 0
    for name, cls in sorted(messages.CLASSES.items()):
        if cls.valid_versions.empty:  # an API Kafka 4 retired
            continue
        plan = cls.plan(cls.valid_versions.lowest)
        first = plan.fields[0] if plan.fields else None
        if first is None or first.kind != P.ARRAY or first.elem_kind == P.STRUCT:
            continue
        payload = (b"\xff\xff\xff\xff\x07" if first.compact else struct.pack(">i", HUGE32)) + b"\x00" * 8
        _check_rejected_small(codec.decode, plan, payload)
        found += 1
    assert found >= 1


def test_a_record_count_beyond_the_batch_is_rejected_before_allocation(impl):
    R = impl("records")
    buf = T.v2_batch(b"\x00" * 16, attributes=0, count=HUGE32)
    (batch,) = list(R.iter_batches(buf))
    _check_rejected_small(batch.records)
    _check_rejected_small(R.decode, buf)
    if _arrow():
        _check_rejected_small(R.to_arrow, buf)


def test_record_field_lengths_beyond_the_record_are_rejected_before_allocation(impl):
    R = impl("records")

    def zz(v):  # zigzag varint
        u = (v << 1) ^ (v >> 63)
        out = bytearray()
        while u > 0x7F:
            out.append((u & 0x7F) | 0x80)
            u >>= 7
        out.append(u)
        return bytes(out)

    body = b"\x00" + zz(0) + zz(0)  # attributes, timestamp delta, offset delta
    for tail in (
        zz(HUGE32) + b"ab",  # key length
        zz(-1) + zz(HUGE32) + b"ab",  # value length
        zz(-1) + zz(-1) + zz(HUGE32) + b"ab",  # header count
        zz(-1) + zz(-1) + zz(1) + zz(HUGE32) + b"ab",
    ):  # header key length
        record = body + tail
        section = zz(len(record)) + record
        buf = T.v2_batch(section, attributes=0, count=1)
        _check_rejected_small(R.decode, buf)


def test_legacy_lengths_beyond_the_message_are_rejected_before_allocation(impl):
    R = impl("records")
    msg = bytearray(T.legacy_message(b"value", magic=1, attributes=0))
    struct.pack_into(">i", msg, 12 + 4 + 2 + 8, HUGE32)  # key length
    _check_rejected_small(R.decode, T.fix_crcs(bytes(msg)))


def test_a_huge_frame_size_is_not_buffered_ahead(backend):
    from kafkawire.errors import FrameTooLarge
    from kafkawire.protocol.framing import FrameReader

    reader = FrameReader(max_frame_size=1 << 30)
    result, peak = _peak(reader.feed, struct.pack(">i", (1 << 30) - 1) + b"abc")
    assert result == []
    assert peak < SMALL
    small = FrameReader()
    err = _check_rejected_small(small.feed, struct.pack(">i", HUGE32))
    assert isinstance(err, FrameTooLarge)


def test_compressed_payloads_that_declare_huge_sizes_are_rejected_before_allocation():
    """With the default 256 MiB cap: a few bytes declaring a huge output must not make
    kafkawire allocate (and zero) anything near it."""
    zstd = b"\x28\xb5\x2f\xfd" + bytes([0xC0]) + struct.pack("<Q", 1 << 40) + b"\x00" * 8
    zstd_in_cap = b"\x28\xb5\x2f\xfd" + bytes([0xC0]) + struct.pack("<Q", 200 << 20) + b"\x00" * 8
    lz4 = b"\x04\x22\x4d\x18" + bytes([0x68, 0x40]) + struct.pack("<Q", 1 << 40) + b"\x00" * 8
    lz4_head = b"\x04\x22\x4d\x18" + bytes([0x60, 0x70])
    lz4_head += bytes([(compression.xxh32(lz4_head[4:6]) >> 8) & 0xFF])
    lz4_tiny_blocks = lz4_head + (struct.pack("<I", 1) + b"\x00") * 100 + b"\x00" * 4
    snappy_raw = b"\xff\xff\xff\xff\x07" + b"\x00" * 8
    snappy_in_cap = b"\x80\x80\x80\x60" + b"\x00" * 4  # 192 MiB
    xerial = b"\x82SNAPPY\x00" + struct.pack(">ii", 1, 1) + struct.pack(">I", HUGE32) + b"abc"
    xerial_in_cap = (
        b"\x82SNAPPY\x00" + struct.pack(">ii", 1, 1) + (struct.pack(">I", 5) + b"\xfe\xff\xff\x07\x00") * 2
    )
    gz = compression.compress("gzip", b"x" * 100)
    gz = gz[:-4] + struct.pack("<I", 0xFFFFFFFF)
    cases = {
        "zstd": (compression.ZSTD, zstd),
        "zstd in cap": (compression.ZSTD, zstd_in_cap),
        "lz4": (compression.LZ4, lz4),
        "lz4 tiny blocks": (compression.LZ4, lz4_tiny_blocks),
        "snappy": (compression.SNAPPY, snappy_raw),
        "snappy in cap": (compression.SNAPPY, snappy_in_cap),
        "xerial": (compression.SNAPPY, xerial),
        "xerial in cap": (compression.SNAPPY, xerial_in_cap),
        "gzip": (compression.GZIP, gz),
    }
    for what, (codec, data) in cases.items():
        result, peak = _peak(compression.decompress, codec, data)
        # lz4's block reader does not check the declared content size: what matters
        # here is that the declaration is not believed (nothing of that size is made).
        assert isinstance(result, KafkaWireError) or len(result) < 1 << 20, (what, result)
        assert peak < 4 << 20, f"{what}: {peak} bytes allocated for {len(data)} bytes of input"


def test_segment_entries_longer_than_the_file_are_rejected(tmp_path):
    from kafkawire.log import scan, segments

    path = tmp_path / segments.segment_name(0)
    path.write_bytes(struct.pack(">qiiB", 0, HUGE32 - 12, 0, 2) + b"\x00" * 60)
    with pytest.raises(segments.SegmentError, match="truncated"):
        list(scan.scan_headers(str(path)))
    result, peak = _peak(lambda: list(scan.iter_chunks(str(path))))
    assert isinstance(result, segments.SegmentError)
    assert peak < SMALL


def _arrow():
    try:
        import pyarrow  # noqa: F401
    except ImportError:
        return False
    return True


def test_uninitialized_output_buffers_are_plain_bytearrays_cut_to_size(impl):
    make = impl("primitives").uninitialized_bytearray
    out = make(1 << 20)
    assert type(out) is bytearray and len(out) == 1 << 20
    out[-3:] = b"end"
    del out[100:]
    assert len(out) == 100 and len(make(0)) == 0
    with pytest.raises(ValueError, match="negative size -1"):
        make(-1)


@pytest.mark.parametrize("codec", ["gzip", "snappy", "lz4", "zstd"])
def test_decompressed_output_reaches_only_the_bytes_written(codec, impl):
    # Large outputs are not zero-filled before the decompressor writes them; whatever of
    # the buffer was not written must be cut off, not reachable through the result.
    R = impl("records")
    text = b"".join(b"value %d " % i * 40 for i in range(3000))  # ~1 MB, compressible
    for data in (b"", b"x" * 100, os.urandom(300_000), text):
        packed = compression.compress(codec, data)
        for given in (packed, memoryview(bytearray(packed)).cast("b")):  # pyarrow's format
            out = compression.decompress(compression.CODEC_IDS[codec], given)
            assert out.obj is not None and len(out.obj) == len(out) == len(data)
            assert out == data
    recs = [{"key": None, "value": text[i * 5000 : (i + 1) * 5000], "timestamp": i} for i in range(150)]
    got = R.decode(R.encode_batch(recs, compression=codec))
    assert [bytes(r.value) for r in got] == [r["value"] for r in recs]


def _unsized_zstd(data: bytes) -> bytes:
    """A zstd frame that declares no content size, as Kafka's producers write them."""
    import cramjam

    c = cramjam.zstd.Compressor()
    c.compress(data)
    out = bytes(c.finish())
    assert compression._zstd_content_size(out) is None
    return out


def test_zstd_frames_without_a_size_decompress_whole_at_any_ratio_and_within_the_cap(impl):
    # The buffer of an unsized frame is sized from the ratio of the last one: a frame
    # far more (or less) compressible than the one before still comes out whole.
    R = impl("records")
    frames = [os.urandom(5000), b"a" * 3_000_000, os.urandom(200_000), b"b" * 1000, b"value-1 " * 100_000]
    for data in frames + frames[::-1]:
        out = compression.decompress(compression.ZSTD, _unsized_zstd(data))
        assert out == data and len(out.obj) == len(data)
    bomb = _unsized_zstd(b"\x00" * (8 << 20))
    compression.decompress(compression.ZSTD, bomb)  # a ratio as high as the bomb's is learned
    with pytest.raises(DecompressionLimitError, match="max_decompressed_size"):
        compression.decompress(compression.ZSTD, bomb, max_size=1 << 20)
    recs = [{"key": None, "value": b"v%d" % i * 50, "timestamp": i} for i in range(200)]
    assert [bytes(r.value) for r in R.decode(R.encode_batch(recs, compression="zstd"))] == [
        r["value"] for r in recs
    ]
