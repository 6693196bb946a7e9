"""FrameReader: any split of a stream gives the same frames; bad sizes fail early."""

import random
import struct

import pytest

from kafkawire.errors import FrameTooLarge, InvalidFrame
from kafkawire.protocol.framing import FrameReader, frame

pytestmark = pytest.mark.in_process

PAYLOADS = [b"", b"a", b"hello kafka", bytes(range(256)) * 3, b"\x00\x00\x00\x05"]
STREAM = b"".join(frame(p) for p in PAYLOADS)


def test_whole_stream_at_once():
    reader = FrameReader()
    assert reader.feed(STREAM) == PAYLOADS
    assert reader.at_boundary and reader.frames_read == len(PAYLOADS)


def test_every_split_point_of_two_pieces():
    for cut in range(len(STREAM) + 1):
        reader = FrameReader()
        out = reader.feed(STREAM[:cut]) + reader.feed(STREAM[cut:])
        assert out == PAYLOADS, cut


def test_one_byte_at_a_time():
    reader = FrameReader()
    out = []
    for i in range(len(STREAM)):
        out += reader.feed(STREAM[i : i + 1])
    assert out == PAYLOADS


def test_random_splits_and_input_types():
    rng = random.Random(7)
    for _ in range(200):
        reader, out, pos = FrameReader(), [], 0
        while pos < len(STREAM):
            step = rng.randint(1, 40)
            piece = STREAM[pos : pos + step]
            out += reader.feed(rng.choice([bytes, bytearray, memoryview])(piece))
            pos += step
        assert out == PAYLOADS


def test_a_reused_input_buffer_is_copied():
    # a socket loop reading into one buffer overwrites it after each feed
    reader, out = FrameReader(), []
    buf = bytearray(3)
    for i in range(0, len(STREAM), 3):
        piece = STREAM[i : i + 3]
        buf[: len(piece)] = piece
        out += reader.feed(memoryview(buf)[: len(piece)])
        buf[:] = b"\xff\xff\xff"
    assert out == PAYLOADS


def test_large_frames_in_socket_sized_pieces():
    rng = random.Random(11)
    payloads = [rng.randbytes(n) for n in (1 << 20, 3, 300_000, 0, 1 << 18)]
    stream = b"".join(frame(p) for p in payloads)
    for step in (1 << 16, 1 << 18, 65_537, len(stream)):
        reader, out = FrameReader(), []
        for i in range(0, len(stream), step):
            out += reader.feed(stream[i : i + step])
            fed = min(i + step, len(stream))
            assert reader.buffered == fed - sum(4 + len(p) for p in out)
        assert out == payloads and reader.at_boundary, step


def test_a_frame_arriving_a_byte_at_a_time_costs_its_bytes_not_an_object_each():
    import tracemalloc

    payload = bytes(range(256)) * 800  # 200 KiB
    stream = frame(payload)
    reader = FrameReader()
    tracemalloc.start()
    try:
        out = []
        for i in range(len(stream)):
            out += reader.feed(stream[i : i + 1])
        _, peak = tracemalloc.get_traced_memory()
    finally:
        tracemalloc.stop()
    assert out == [payload]
    # the payload held while it arrives, then joined: about twice its size, where an
    # object a byte would take tens of times more
    assert peak < 4 * len(payload), peak


def test_partial_frame_is_reported():
    reader = FrameReader()
    assert reader.feed(frame(b"abcdef")[:7]) == []
    assert reader.buffered == 7 and not reader.at_boundary


def test_negative_size_raises_invalid_frame():
    reader = FrameReader()
    with pytest.raises(InvalidFrame):
        reader.feed(struct.pack(">i", -5) + b"xx")
    with pytest.raises(InvalidFrame):  # the reader stays failed
        reader.feed(frame(b"ok"))


def test_a_negative_size_names_its_place_in_the_whole_stream():
    reader = FrameReader()
    assert reader.feed(frame(b"abc")[:5]) == []
    assert reader.feed(frame(b"abc")[5:] + frame(b"")) == [b"abc", b""]
    with pytest.raises(InvalidFrame, match=r"frame 2 has a negative size \(-1\) at stream byte offset 11"):
        reader.feed(struct.pack(">i", -1))


def test_oversized_frame_raises_before_buffering():
    reader = FrameReader(max_frame_size=10)
    assert reader.feed(frame(b"0123456789")) == [b"0123456789"]
    with pytest.raises(FrameTooLarge):
        reader.feed(struct.pack(">i", 11))
    huge = FrameReader()
    with pytest.raises(FrameTooLarge):  # 2 GiB declared: fails on the 4 size bytes alone
        huge.feed(struct.pack(">i", 2**31 - 1))


def test_frame_too_large_is_an_invalid_frame():
    assert issubclass(FrameTooLarge, InvalidFrame)
