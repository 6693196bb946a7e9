"""CRC-32C (and CRC-32) on both backends: known values, a reference package, every
length and alignment around the block edges of the hardware code, continuation, the
bytes-like inputs accepted, the errors raised, and the GIL being released."""

from __future__ import annotations

import array
import os
import platform
import random
import sys
import zlib

import pytest
from support.gil_probe import python_ran_during

import kafkawire
from kafkawire import _backend

pytestmark = pytest.mark.in_process


def _ref():
    """The crc32c package, the reference some tests compare with: only those tests skip
    without it, the known-answer tests run everywhere."""
    return pytest.importorskip("crc32c", reason="the crc32c reference package is not installed")


# Lengths that straddle the edges of the compiled code: 8-byte words, the three-lane
# blocks of 3 x 128, 3 x 1024 and 3 x 8192 bytes, the 26 KiB blocks of the x86
# crc32 + carry-less-multiply path, and mixes of all of them.
FUSED_BLOCK = 8192 + 3 * 6144
EDGE_LENGTHS = sorted(
    {
        383,
        384,
        385,
        767,
        768,
        769,
        3071,
        3072,
        3073,
        4095,
        4096,
        4097,
        12287,
        12288,
        12289,
        24575,
        24576,
        24577,
        FUSED_BLOCK - 1,
        FUSED_BLOCK,
        FUSED_BLOCK + 1,
        2 * FUSED_BLOCK,
        3 * FUSED_BLOCK + 24576 + 3072 + 384 + 13,
        2 * 24576 + 3072 + 384 + 7,
        2 * 24576 + 7 * 3072 + 7 * 384 + 47,
        (1 << 20) + 7,
    }
)


def _random_bytes(n: int, seed: int = 0) -> bytes:
    return random.Random(seed).randbytes(n)


@pytest.fixture
def crc(impl):
    """The active backend's ``crc`` module."""
    return impl("crc")


def _reference(data) -> int:
    return _ref().crc32c(bytes(data))


# --- known values -------------------------------------------------------------------


def test_public_function_is_the_backends(crc):
    assert kafkawire.crc32c is crc.crc32c
    assert kafkawire.crc32c(b"123456789") == 0xE3069283


def test_check_value(crc):
    assert crc.crc32c(b"123456789") == 0xE3069283
    assert crc.crc32c(b"123456789", 0) == 0xE3069283


def test_rfc3720_vectors(crc):
    # iSCSI (RFC 3720, appendix B.4) test patterns.
    assert crc.crc32c(bytes(32)) == 0x8A9136AA
    assert crc.crc32c(b"\xff" * 32) == 0x62A8AB43
    assert crc.crc32c(bytes(range(32))) == 0x46DD794E
    assert crc.crc32c(bytes(range(31, -1, -1))) == 0x113FDB5C


def test_empty_input(crc):
    assert crc.crc32c(b"") == 0
    assert crc.crc32c(bytearray()) == 0
    assert crc.crc32c(memoryview(b"")) == 0
    for start in (0, 1, 0xE3069283, 0xFFFFFFFF):
        assert crc.crc32c(b"", start) == start


def test_result_is_an_unsigned_int(crc):
    value = crc.crc32c(b"\xff" * 32)
    assert type(value) is int
    assert 0 <= value < 2**32


def test_implementation(crc, backend):
    name = crc.implementation()
    if backend == "python":
        assert name == "python"
        return
    assert name in ("sse4.2", "armv8", "table")
    expected = _hardware_crc_path()
    if expected is not None:
        assert name == expected


def _hardware_crc_path():
    """The hardware CRC32C path this CPU has ("sse4.2", "armv8" or "table"), from the
    operating system's own list of CPU features where it gives one; None where unknown."""
    machine = platform.machine().lower()
    x86, arm = machine in ("x86_64", "amd64"), machine in ("aarch64", "arm64")
    if (x86 or arm) and os.path.exists("/proc/cpuinfo"):
        with open("/proc/cpuinfo") as f:
            lines = f.read().splitlines()
        # x86 lists "flags", Arm "Features"; neither (qemu-user shows the host's file,
        # of another CPU) means the OS does not say
        key, flag, path = ("flags", "sse4_2", "sse4.2") if x86 else ("Features", "crc32", "armv8")
        listed = [line.split(":", 1)[1].split() for line in lines if line.split(":")[0].strip() == key]
        return (path if flag in listed[0] else "table") if listed else None
    if x86:  # Windows 11 and the macOS releases CI runs need SSE4.2 of every x86-64 CPU
        return "sse4.2"
    if arm and sys.platform == "darwin":  # every Apple CPU has the CRC32 instructions
        return "armv8"
    if arm and sys.platform == "win32":  # Windows on Arm: the OS says
        import ctypes

        PF_ARM_V8_CRC32_INSTRUCTIONS_AVAILABLE = 31
        present = ctypes.windll.kernel32.IsProcessorFeaturePresent(PF_ARM_V8_CRC32_INSTRUCTIONS_AVAILABLE)
        return "armv8" if present else "table"
    return None


# --- against the reference package --------------------------------------------------


def test_every_short_length(crc, backend):
    data = _random_bytes(301, seed=1)
    top = 301 if backend == "cython" else 80
    for n in range(top):
        assert crc.crc32c(data[:n]) == _reference(data[:n]), n


@pytest.mark.backends("cython")
@pytest.mark.parametrize("n", EDGE_LENGTHS)
def test_block_edge_lengths(crc, n):
    data = _random_bytes(n, seed=n)
    assert crc.crc32c(data) == _reference(data)


@pytest.mark.backends("cython")
def test_alignments(crc):
    buf = bytearray(_random_bytes(40000 + 16, seed=2))
    view = memoryview(buf)
    for offset in range(16):
        for n in (0, 1, 7, 8, 9, 63, 255, 383, 384, 1000, 3073, 24577, 26625, 40000):
            piece = view[offset : offset + n]
            assert crc.crc32c(piece) == _reference(piece), (offset, n)


def test_alignments_small(crc):
    buf = bytearray(_random_bytes(200, seed=3))
    view = memoryview(buf)
    for offset in range(1, 16):
        for n in (1, 15, 16, 17, 100, 180):
            piece = view[offset : offset + n]
            assert crc.crc32c(piece) == _reference(piece), (offset, n)


def test_random_lengths(crc, backend):
    rng = random.Random(4)
    top = 70000 if backend == "cython" else 3000
    count = 200 if backend == "cython" else 20
    for _ in range(count):
        n = rng.randrange(top)
        data = rng.randbytes(n)
        assert crc.crc32c(data) == _reference(data), n


@pytest.mark.backends("cython")
def test_portable_table_code(crc):
    # The slicing-by-8 fallback, exercised whatever this CPU offers.
    buf = _random_bytes(30000, seed=5)
    view = memoryview(buf)
    for offset in range(9):
        for n in list(range(0, 40)) + [255, 4097, 24577, 29000]:
            piece = view[offset : offset + n]
            assert crc._crc32c_portable(piece) == _reference(piece), (offset, n)
    assert crc._crc32c_portable(b"3456789", crc._crc32c_portable(b"12")) == 0xE3069283


@pytest.mark.backends("cython")
def test_legacy_crc32_tables_match_zlib(crc):
    # The C CRC-32 the compiled legacy-message encoder uses, against zlib.
    buf = _random_bytes(30000, seed=8)
    view = memoryview(buf)
    for offset in range(9):
        for n in list(range(0, 40)) + [255, 4097, 29000]:
            piece = view[offset : offset + n]
            assert crc._crc32_table(piece) == zlib.crc32(piece), (offset, n)
    assert crc._crc32_table(b"3456789", crc._crc32_table(b"12")) == 0xCBF43926


@pytest.mark.backends("cython")
def test_pure_and_fast_agree(crc):
    pure = _backend.implementation("crc", "python")
    rng = random.Random(6)
    for n in list(range(0, 40)) + [100, 383, 384, 385, 1000, 3073, 5000]:
        data = rng.randbytes(n)
        start = rng.randrange(2**32)
        assert crc.crc32c(data) == pure.crc32c(data)
        assert crc.crc32c(data, start) == pure.crc32c(data, start)
        assert crc.crc32(data, start) == pure.crc32(data, start)


# --- continuation -------------------------------------------------------------------


def test_continuation(crc, backend):
    data = _random_bytes(30000 if backend == "cython" else 1000, seed=7)
    whole = crc.crc32c(data)
    assert whole == _reference(data)
    for cut in (0, 1, 7, 8, 9, 100, 385, len(data) // 2, len(data) - 1, len(data)):
        assert crc.crc32c(data[cut:], crc.crc32c(data[:cut])) == whole, cut


def test_continuation_byte_by_byte(crc):
    data = b"123456789"
    value = 0
    for i in range(len(data)):
        value = crc.crc32c(data[i : i + 1], value)
    assert value == 0xE3069283


def test_continuation_matches_reference_package(crc):
    a, b = _random_bytes(500, seed=8), _random_bytes(77, seed=9)
    assert crc.crc32c(b, crc.crc32c(a)) == _ref().crc32c(b, _ref().crc32c(a))


# --- inputs -------------------------------------------------------------------------


def test_bytes_like_inputs(crc):
    data = _random_bytes(1000, seed=10)
    expected = _reference(data)
    assert crc.crc32c(bytearray(data)) == expected
    assert crc.crc32c(memoryview(data)) == expected
    assert crc.crc32c(memoryview(bytearray(data))) == expected
    assert crc.crc32c(memoryview(bytearray(data)).toreadonly()) == expected
    assert crc.crc32c(memoryview(data).toreadonly()) == expected
    assert crc.crc32c(memoryview(data)[10:500]) == _reference(data[10:500])
    # A buffer of wider items is checksummed as its raw bytes.
    words = array.array("I", data[:800])
    assert crc.crc32c(words) == _reference(words.tobytes())
    # A C-contiguous multi-dimensional view too.
    assert crc.crc32c(memoryview(data).cast("B", (10, 100))) == expected


@pytest.mark.parametrize("bad", ["123456789", 12345, None, [1, 2, 3], 1.5, object()])
def test_non_bytes_input_raises_type_error(crc, bad):
    with pytest.raises(TypeError):
        crc.crc32c(bad)
    with pytest.raises(TypeError):
        crc.crc32(bad)


def test_non_contiguous_input_raises_type_error(crc):
    strided = memoryview(b"abcdefgh")[::2]
    with pytest.raises(TypeError):
        crc.crc32c(strided)
    with pytest.raises(TypeError):
        crc.crc32(strided)


# --- the crc argument ---------------------------------------------------------------


@pytest.mark.parametrize("bad", [-1, 2**32, 2**32 + 5, 2**64, -(2**63)])
def test_crc_out_of_range_raises_value_error(crc, bad):
    with pytest.raises(ValueError):
        crc.crc32c(b"abc", bad)
    with pytest.raises(ValueError):
        crc.crc32(b"abc", bad)


@pytest.mark.parametrize("bad", [1.0, "0", None, b"\x00", [0]])
def test_crc_of_wrong_type_raises_type_error(crc, bad):
    with pytest.raises(TypeError):
        crc.crc32c(b"abc", bad)
    with pytest.raises(TypeError):
        crc.crc32(b"abc", bad)


def test_crc_accepts_integer_likes(crc):
    class Index:
        def __index__(self):
            return 0xE3069283

    assert crc.crc32c(b"", Index()) == 0xE3069283
    assert crc.crc32c(b"abc", True) == _ref().crc32c(b"abc", 1)
    assert crc.crc32c(b"abc", crc=0xFFFFFFFF) == _ref().crc32c(b"abc", 0xFFFFFFFF)


# --- CRC-32 (IEEE) ------------------------------------------------------------------


def test_crc32_matches_zlib(crc):
    assert crc.crc32(b"123456789") == 0xCBF43926
    assert crc.crc32(b"") == 0
    rng = random.Random(11)
    for n in (1, 2, 3, 100, 5000):
        data = rng.randbytes(n)
        assert crc.crc32(data) == zlib.crc32(data)
        assert crc.crc32(bytearray(data), 123) == zlib.crc32(data, 123)
        assert crc.crc32(data[n // 2 :], crc.crc32(data[: n // 2])) == zlib.crc32(data)
    assert crc.crc32(memoryview(b"abc").toreadonly()) == zlib.crc32(b"abc")


# --- the C API and the GIL ----------------------------------------------------------


@pytest.mark.backends("cython")
def test_c_api_is_exported(crc):
    assert "crc32c_update" in crc.__pyx_capi__


@pytest.mark.backends("cython")
def test_gil_is_released_for_large_inputs(crc):
    buffers = [bytes(4 << 20), bytearray(4 << 20)]
    expected = _reference(buffers[0])
    assert crc.crc32c(buffers[0]) == crc.crc32c(buffers[1]) == expected
    for buf in buffers:
        assert python_ran_during(lambda: crc.crc32c(buf)), "crc32c held the GIL"
