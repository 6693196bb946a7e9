"""Hostile input, differential: every decoder entry point, on random, mutated and
truncated inputs, raises only kafkawire.errors exceptions, and the Cython and pure-Python
backends agree (same results, or the same exception class at the same point).

The targets live in ``fuzz/targets.py`` (shared with the atheris harness); each one runs
its input through both backends itself, so these tests run once, not once per backend.
The pass is bounded (a few hundred examples per target); ``fuzz/run.py`` runs the long,
coverage-guided one.
"""

from __future__ import annotations

import glob
import os
import struct
import sys

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
if ROOT not in sys.path:
    sys.path.append(ROOT)  # after site-packages: the installed kafkawire wins

from fuzz import targets as T  # noqa: E402

pytestmark = [pytest.mark.backend_independent, pytest.mark.in_process]

CORPUS = os.path.join(ROOT, "fuzz", "corpus")
EXAMPLES = int(os.environ.get("KAFKAWIRE_HOSTILE_EXAMPLES", "150"))
# Targets that create files or decode whole tables cost more per example.
_SCALE = {"segment": 0.25, "records": 0.6, "compression": 0.6, "frames": 0.6, "message": 1.5}


def _examples(name):
    return max(10, int(EXAMPLES * _SCALE.get(name, 1)))


def _seeds(name):
    files = sorted(glob.glob(os.path.join(CORPUS, name, "*")))
    out = []
    for path in files:
        with open(path, "rb") as f:
            out.append(f.read())
    return out or [b""]


_SEEDS = {name: _seeds(name) for name in T.TARGETS}

_INTERESTING = [
    b"\xff\xff\xff\xff",
    b"\x7f\xff\xff\xff",
    b"\x80\x00\x00\x00",
    b"\x00\x00\x00\x00",
    b"\xff\xff\xff\xff\x0f",
    b"\xff" * 10,
    b"\x80" * 10,
    b"\x00\x01",
    b"\xff\xfe",
]


@st.composite
def mutated(draw, name):
    """A seed of ``name`` with a few byte-level mutations (libFuzzer's usual ones)."""
    data = bytearray(draw(st.sampled_from(_SEEDS[name])))
    for _ in range(draw(st.integers(0, 5))):
        op = draw(st.integers(0, 6))
        n = len(data)
        at = draw(st.integers(0, n)) if n else 0
        if op == 0 and n:  # set a byte
            data[min(at, n - 1)] = draw(st.integers(0, 255))
        elif op == 1:  # truncate
            del data[at:]
        elif op == 2:  # insert bytes
            data[at:at] = draw(st.binary(min_size=1, max_size=4))
        elif op == 3 and n:  # flip a bit
            data[min(at, n - 1)] ^= 1 << draw(st.integers(0, 7))
        elif op == 4:  # overwrite with an interesting integer
            word = draw(st.sampled_from(_INTERESTING))
            data[at : at + len(word)] = word
        elif op == 5:  # delete a run
            del data[at : at + draw(st.integers(1, 16))]
        elif op == 6 and n > 4:  # duplicate a run
            run = data[at : at + draw(st.integers(1, 32))]
            data[at:at] = run
    return bytes(data)


def _inputs(name):
    raw = st.binary(max_size=256)
    if name in ("records", "segment", "compression"):
        raw = st.binary(max_size=96).map(lambda b: b"\x01" + b)
    return st.one_of(mutated(name), raw)


def _settings(name):
    return settings(
        max_examples=_examples(name), deadline=None, database=None, suppress_health_check=list(HealthCheck)
    )


@pytest.mark.parametrize("name", list(T.TARGETS))
def test_saved_corpus_decodes_alike_on_both_backends(name):
    """Every saved input (seeds and what the fuzzer kept) passes its target."""
    for data in _SEEDS[name]:
        T.TARGETS[name](data)


@pytest.mark.parametrize("name", list(T.TARGETS))
def test_mutated_and_random_inputs_decode_alike_on_both_backends(name):
    @_settings(name)
    @given(data=_inputs(name))
    def run(data):
        T.TARGETS[name](data)

    run()


@pytest.mark.parametrize("name", ["message", "request", "records", "internal"])
def test_every_truncation_of_a_seed_decodes_alike(name):
    """Each prefix of a sample of seeds: truncation must be a kafkawire error, never a crash."""
    seeds = _SEEDS[name]
    sample = seeds[:: max(1, len(seeds) // 12)]
    for data in sample:
        for cut in range(len(data)):
            T.TARGETS[name](data[:cut])


def test_every_message_class_at_every_version_decodes_alike_when_mutated():
    """All (definition, version) pairs, each with a few deterministic mutations."""
    import random

    rnd = random.Random(1234)
    pairs = T.message_pairs()
    seeds = {s[:2]: s for s in _SEEDS["message"]}
    for i in range(len(pairs)):
        sel = i.to_bytes(2, "big")
        base = seeds.get(sel, sel)
        for _ in range(3):
            data = bytearray(base)
            if len(data) > 2:
                at = rnd.randrange(2, len(data) + 1)
                data[at:at] = rnd.choice(_INTERESTING)
            else:
                data += rnd.choice(_INTERESTING)
            T.message_target(bytes(data))
            T.message_target(bytes(data[: rnd.randrange(2, len(data) + 1)]))


def test_a_non_kafkawire_exception_is_reported():
    """The harness itself catches what it is meant to catch."""

    def broken(out):
        raise IndexError("boom")

    with pytest.raises(T.HostileFailure, match="IndexError"):
        T.differential(broken, "self-test")


def test_a_disagreement_between_backends_is_reported():
    from kafkawire import _backend

    if not _backend.fast_available():
        pytest.skip("only the pure backend is available")

    def split(out):
        out.values.append(_backend.BACKEND)

    with pytest.raises(T.HostileFailure, match="disagree"):
        T.differential(split, "self-test")


def test_fix_crcs_makes_mutated_batches_pass_the_checksum():
    from kafkawire.protocol import records
    from kafkawire.errors import CorruptRecordError

    batch = bytearray(records.encode_batch([{"key": b"k", "value": b"v", "timestamp": 5}]))
    batch[-1] ^= 0xFF
    with pytest.raises(CorruptRecordError):
        list(records.iter_batches(bytes(batch)))
    fixed = T.fix_crcs(bytes(batch))
    assert struct.unpack_from(">I", fixed, 17) != struct.unpack_from(">I", batch, 17)
    (again,) = records.iter_batches(fixed)  # the checksum passes now
    assert again.record_count == 1
