"""Hostile input: truncations and random mutations of valid encodings raise
kafkawire.errors.DecodeError (or a subclass) and nothing else, identically on both
backends; declared lengths and counts beyond the buffer are rejected before allocating."""

from __future__ import annotations

import random
import tracemalloc

import pytest
from hypothesis import HealthCheck, Phase, given, settings
from hypothesis import strategies as st

from kafkawire.protocol import messages
from kafkawire import _backend
from kafkawire.errors import DecodeError, TruncatedError

from support.message_strategies import message_strategy

pytestmark = pytest.mark.in_process

# Every definition with a version (Kafka 4 retired a few APIs: no version to mutate).
ALL = sorted(n for n, c in messages.CLASSES.items() if not c.valid_versions.empty)


def _outcome(codec, plan, buf):
    try:
        return ("ok", codec.decode(plan, buf))
    except DecodeError as exc:
        return ("error", type(exc))


@pytest.mark.parametrize("name", ALL)
@settings(
    max_examples=1,
    deadline=None,
    suppress_health_check=list(HealthCheck),
    database=None,
    phases=(Phase.explicit, Phase.generate),
)
@given(data=st.data())
def test_truncations_and_mutations_raise_decode_errors_only(name, data, backend):
    cls = messages.CLASSES[name]
    this = _backend.implementation("codec", backend)
    other = None  # the other backend, to compare with when it loaded (not on a pure install)
    if _backend.fast_available():
        other = _backend.implementation("codec", "python" if backend == "cython" else "cython")
    rng = random.Random(name)
    for version in sorted({cls.valid_versions.lowest, cls.valid_versions.highest}):
        plan = cls.plan(version)
        wire = data.draw(message_strategy(cls, version), label=f"v{version}").encode(version)
        cuts = range(len(wire)) if len(wire) <= 64 else sorted(rng.sample(range(len(wire)), 64))
        for cut in cuts:
            with pytest.raises(DecodeError):
                this.decode(plan, wire[:cut])
        for _ in range(40):
            mutated = bytearray(wire)
            for _ in range(rng.randint(1, 3)):
                op = rng.random()
                i = rng.randrange(len(mutated) + 1)
                if op < 0.5 and mutated and i < len(mutated):
                    mutated[i] = rng.choice((0x00, 0xFF, 0x7F, 0x80, rng.randrange(256)))
                elif op < 0.75:
                    mutated[i:i] = bytes([rng.randrange(256)])
                elif mutated and i < len(mutated):
                    del mutated[i]
            mutated = bytes(mutated)
            got = _outcome(this, plan, mutated)  # a value or a DecodeError, nothing else
            if other is not None:
                assert got == _outcome(other, plan, mutated)  # same values or same exception type


HUGE = 2**31 - 1


@pytest.mark.parametrize(
    "buf,cls,version",
    [
        # MetadataResponse v0: brokers array count 2**31-1 in a 10-byte buffer.
        (b"\x7f\xff\xff\xff" + bytes(6), messages.MetadataResponse, 0),
        # ...and as a compact (flexible) count: uvarint 2**32-1.
        (b"\x00\x00\x00\x00" + b"\xff\xff\xff\xff\x0f" + bytes(1), messages.MetadataResponse, 12),
        # MetadataRequest v0: topics array of 2**31-1 structs.
        (b"\x7f\xff\xff\xff" + bytes(6), messages.MetadataRequest, 0),
        # A string length of 32767 in 2 remaining bytes (ApiVersionsRequest v3, compact).
        (b"\xff\xff\x03" + b"ab", messages.ApiVersionsRequest, 3),
        # A bytes length of 2**31-1 (SaslAuthenticateRequest v0: auth bytes).
        (b"\x7f\xff\xff\xff" + bytes(6), messages.SaslAuthenticateRequest, 0),
        # OffsetFetchRequest v2: group id, then an array of 2**31-1 topics.
        (b"\x00\x01g" + b"\x7f\xff\xff\xff" + bytes(3), messages.OffsetFetchRequest, 2),
        # ListOffsets v1 partitions: array of int32 elements that cannot fit.
        (
            b"\x00\x00\x00\x00" + b"\x00\x00\x00\x01" + b"\x00\x01t" + b"\x7f\xff\xff\xff",
            messages.ListOffsetsRequest,
            1,
        ),
    ],
)
def test_declared_lengths_beyond_the_buffer_fail_fast(buf, cls, version, backend):
    cls.decode(cls().encode(version), version)  # compile the plans first: measure the decode only
    tracemalloc.start()
    with pytest.raises(TruncatedError):
        cls.decode(buf, version)
    _, peak = tracemalloc.get_traced_memory()
    tracemalloc.stop()
    assert peak < 1_000_000  # nothing sized by the declared count was allocated


def test_tagged_field_count_and_size_are_bounded(backend):
    # ResponseHeader v1: 2**32-1 tagged fields declared in 1 remaining byte.
    with pytest.raises(TruncatedError):
        messages.ResponseHeader.decode(b"\x00\x00\x00\x01\xff\xff\xff\xff\x0f\x00", 1)
    # One tagged field declaring 100 bytes of data with 2 present.
    with pytest.raises(TruncatedError):
        messages.ResponseHeader.decode(b"\x00\x00\x00\x01\x01\x05\x64ab", 1)


def test_known_tagged_field_must_fill_its_declared_size(backend):
    ok = messages.FetchRequest(cluster_id="c").encode(12)
    assert messages.FetchRequest.decode(ok, 12).cluster_id == "c"
    # Tag 0 (ClusterId) declares 3 bytes but the compact string inside takes 2.
    bad = ok.replace(b"\x01\x00\x02\x02c", b"\x01\x00\x03\x02c\x00")
    assert bad != ok
    with pytest.raises(DecodeError):
        messages.FetchRequest.decode(bad, 12)


def test_nulls_and_bad_text_raise_decode_errors(backend):
    # A null string where the version does not allow one (MetadataRequest v1 topic name).
    with pytest.raises(DecodeError):
        messages.MetadataRequest.decode(b"\x00\x00\x00\x01\xff\xff", 1)
    # A negative length other than -1.
    with pytest.raises(DecodeError):
        messages.MetadataRequest.decode(b"\x00\x00\x00\x01\xff\xfe", 1)
    # Invalid UTF-8.
    with pytest.raises(DecodeError):
        messages.MetadataRequest.decode(b"\x00\x00\x00\x01\x00\x01\xff", 1)
    # An overlong varint.
    with pytest.raises(DecodeError):
        messages.MetadataRequest.decode(b"\xff\xff\xff\xff\xff\xff", 12)
    # Not bytes at all.
    with pytest.raises(DecodeError):
        messages.MetadataRequest.decode("text", 1)
    # Trailing bytes.
    with pytest.raises(DecodeError):
        messages.MetadataRequest.decode(b"\x00\x00\x00\x00\x00", 1)
