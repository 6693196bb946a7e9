"""Every error a user can meet on hostile bytes is a kafkawire.errors exception whose
message says what was wrong and where: a byte offset or position, or the field, record,
struct, API or codec concerned.

A sample of messages is collected from mutated inputs of every fuzz target (both
backends); a few important cases are checked word for word.
"""

from __future__ import annotations

import glob
import os
import random
import re
import struct
import sys

import pytest

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
if ROOT not in sys.path:
    sys.path.append(ROOT)  # after site-packages: the installed kafkawire wins

from fuzz import targets as T  # noqa: E402
from kafkawire.protocol import messages, requests as protocol  # noqa: E402
from kafkawire import errors  # noqa: E402

pytestmark = pytest.mark.in_process

_WHERE = re.compile(r"\b(byte|bytes|offset|position|at)\s+-?\d+|\bframe \d+|\bfirst \d+", re.I)
# Names that locate a problem without an offset: record parts, codecs, internal records.
_NAMED = re.compile(
    r"\b(key|value|header|headers|record|records|batch|message|crc\d*|magic|count|"
    r"attributes|gzip|snappy|lz4|zstd|compression|codec|frame version|record type|"
    r"version prefix|API key|version)\b",
    re.I,
)
_CLASS = re.compile(
    r"\b[A-Z][A-Za-z]+(Request|Response|Header|Key|Value|Record|Data|Message|"
    r"Assignment|Subscription)\b"
)
_FIELD = re.compile(r"\b[a-z]+(_[a-z0-9]+)+\b")


def says_where(text: str) -> bool:
    return bool(_WHERE.search(text) or _CLASS.search(text) or _FIELD.search(text) or _NAMED.search(text))


def _collect(monkeypatch, per_target=300, seed=3):
    seen = {}
    original = T._run

    def recording(backend, fn):
        out = original(backend, fn)
        if out.error is not None:
            key = (backend, out.error.__name__, re.sub(r"\d+", "N", out.message))
            seen.setdefault(key, out.message)
        return out

    monkeypatch.setattr(T, "_run", recording)
    rnd = random.Random(seed)
    for name in T.TARGETS:
        if name == "segment":
            continue
        seeds = []
        for path in sorted(glob.glob(os.path.join(ROOT, "fuzz", "corpus", name, "*"))):
            with open(path, "rb") as f:
                seeds.append(f.read())
        for _ in range(per_target):
            data = bytearray(rnd.choice(seeds))
            for _ in range(rnd.randint(1, 3)):
                if not data:
                    break
                at = rnd.randrange(len(data))
                op = rnd.randrange(3)
                if op == 0:
                    data[at] = rnd.randrange(256)
                elif op == 1:
                    del data[at:]
                else:
                    data[at:at] = rnd.choice([b"\xff\xff\xff\xff", b"\x7f\xff\xff\xff", b"\x80" * 5])
            if name == "records" and data:
                data[0] |= 2  # recompute CRCs: reach the record parsers
            try:
                T.TARGETS[name](bytes(data))
            except T.HostileFailure:
                pass  # the differential tests report these
    return seen


@pytest.mark.backend_independent
def test_a_sample_of_error_messages_say_what_and_where(monkeypatch):
    seen = _collect(monkeypatch)
    assert len(seen) > 100  # a real sample: many distinct messages
    vague = [
        (k[0], k[1], msg)
        for k, msg in seen.items()
        if k[1] != "TruncatedError" or "no version" not in msg  # the target's own
        if len(msg) < 12 or not says_where(msg)
    ]
    assert not vague, "messages without a what and a where:\n" + "\n".join(map(str, vague[:30]))


@pytest.mark.backend_independent
def test_most_decode_errors_give_a_byte_offset(monkeypatch):
    """Offsets, not just names, for the errors of the message codec and framing."""
    seen = _collect(monkeypatch, per_target=150, seed=4)
    codec_errors = [
        msg
        for (b, cls, _), msg in seen.items()
        if cls in ("TruncatedError", "InvalidVarintError") and "version" not in msg
    ]
    assert codec_errors
    without = [m for m in codec_errors if not _WHERE.search(m)]
    assert len(without) <= len(codec_errors) // 10, without[:20]


def test_a_truncated_message_names_the_field_and_the_byte(backend):
    req = messages.MetadataRequest(
        topics=[messages.MetadataRequest.MetadataRequestTopic(name="orders")], allow_auto_topic_creation=True
    )
    wire = req.encode(4)
    with pytest.raises(errors.TruncatedError) as info:
        messages.MetadataRequest.decode(wire[:-1], 4)
    text = str(info.value)
    assert "allow_auto_topic_creation" in text and re.search(r"byte \d+", text), text


def test_an_unknown_api_key_and_version_say_which(backend):
    frame = struct.pack(">hhi", 999, 0, 1) + b"\x00\x00"
    with pytest.raises(errors.UnknownApiError, match="999"):
        protocol.decode_request(frame)
    frame = struct.pack(">hhi", 3, 99, 1) + b"\x00\x00"
    with pytest.raises(errors.UnsupportedVersionError, match=r"MetadataRequest.*99"):
        protocol.decode_request(frame)


def test_trailing_bytes_say_how_many_and_where(backend):
    frame = protocol.encode_request(messages.ApiVersionsRequest(), 0, 1, "c")[4:] + b"xyz"
    with pytest.raises(errors.DecodeError, match=r"3 trailing bytes after byte \d+"):
        protocol.decode_request(frame)


def test_a_bad_crc_names_the_batch_position_and_both_checksums(impl):
    R = impl("records")
    good = R.encode_batch([{"key": b"k", "value": b"v", "timestamp": 1}], base_offset=42)
    bad = bytearray(good + good)
    bad[-1] ^= 1
    with pytest.raises(errors.CorruptRecordError) as info:
        list(R.iter_batches(bytes(bad)))
    text = str(info.value)
    assert f"byte {len(good)}" in text and "42" in text and "CRC" in text, text


def test_a_bad_frame_size_says_which_frame_and_where(backend):
    from kafkawire.protocol.framing import FrameReader

    reader = FrameReader(max_frame_size=100)
    assert reader.feed(struct.pack(">i", 1) + b"x") == [b"x"]
    with pytest.raises(errors.FrameTooLarge, match=r"frame 1 .*1000.*100"):
        reader.feed(struct.pack(">i", 1000))
    reader = FrameReader()
    with pytest.raises(errors.InvalidFrame, match=r"frame 0 .*negative.*offset 0"):
        reader.feed(struct.pack(">i", -5))


def test_a_segment_error_names_the_file_and_the_byte(tmp_path, backend):
    from kafkawire.log import scan, segments

    R = __import__("kafkawire.protocol.records", fromlist=["encode_batch"])
    good = R.encode_batch([{"key": None, "value": b"v", "timestamp": 1}])
    path = tmp_path / segments.segment_name(0)
    path.write_bytes(good + good[:20])
    with pytest.raises(segments.SegmentError) as info:
        list(scan.scan_headers(str(path)))
    assert str(path) in str(info.value) and f"byte {len(good)}" in str(info.value)


def test_decompression_errors_name_the_codec(impl):
    R = impl("records")
    for codec in ("gzip", "snappy", "lz4", "zstd"):
        buf = bytearray(
            R.encode_batch([{"key": b"k", "value": b"v" * 300, "timestamp": 1}], compression=codec)
        )
        buf[70:80] = b"\xa5" * 10
        (batch,) = list(R.iter_batches(T.fix_crcs(bytes(buf))))
        with pytest.raises(errors.DecompressionError) as info:
            batch.records()
        assert re.match(rf"{codec}: ", str(info.value)), str(info.value)
