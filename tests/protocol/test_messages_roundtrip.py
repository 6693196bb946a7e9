"""Every definition at every version: generated messages round-trip, sizes are exact,
and both backends write the same bytes."""

from __future__ import annotations

import pytest
from hypothesis import HealthCheck, Phase, given, settings
from hypothesis import strategies as st

from kafkawire.protocol import messages
from kafkawire import _backend

from support.message_strategies import message_strategy

pytestmark = pytest.mark.in_process

ALL = sorted(messages.CLASSES.items())
PAIRS = sum(len(range(c.valid_versions.lowest, c.valid_versions.highest + 1)) for _, c in ALL)


def _versions(cls):
    return range(cls.valid_versions.lowest, cls.valid_versions.highest + 1)


def test_every_definition_has_a_class():
    # Kafka 4.4: 95 request/response pairs (four of them retired, with no version), the
    # two headers, and the definitions of the five other folders (remote/: the tiered
    # storage's __remote_log_metadata records; data/ holds ProducerSnapshot too).
    assert len(messages.CLASSES) == 286
    assert {c.kind for c in messages.CLASSES.values()} == {
        "request",
        "response",
        "header",
        "data",
        "metadata",
        "coordinator-key",
        "coordinator-value",
    }
    assert sorted(messages._REQUESTS) == list(range(95)) == sorted(messages._RESPONSES)
    assert PAIRS == 744


@pytest.mark.parametrize("name", [n for n, _ in ALL])
@settings(
    max_examples=4,
    deadline=None,
    suppress_health_check=list(HealthCheck),
    database=None,
    phases=(Phase.explicit, Phase.generate),
)
@given(data=st.data())
def test_generated_messages_round_trip_at_every_version(name, data, backend):
    cls = messages.CLASSES[name]
    for version in _versions(cls):
        msg = data.draw(message_strategy(cls, version), label=f"v{version}")
        wire = msg.encode(version)
        assert msg.size(version) == len(wire)
        back = cls.decode(wire, version)
        assert back == msg
        assert back.encode(version) == wire


@pytest.mark.backend_independent
@pytest.mark.parametrize("name", [n for n, _ in ALL])
@settings(
    max_examples=4,
    deadline=None,
    suppress_health_check=list(HealthCheck),
    database=None,
    phases=(Phase.explicit, Phase.generate),
)
@given(data=st.data())
def test_both_backends_write_and_read_the_same_bytes(name, data):
    """The Cython and the pure encoders are two implementations of the plans: each one
    checks the other (the peers and Kafka check both in test_messages_oracles.py)."""
    if not _backend.fast_available():
        pytest.skip("the Cython backend did not load: no second encoder to compare with")
    cls = messages.CLASSES[name]
    fast, pure = _backend.implementation("codec", "cython"), _backend.implementation("codec", "python")
    for version in _versions(cls):
        msg = data.draw(message_strategy(cls, version), label=f"v{version}")
        plan = cls.plan(version)
        wire = fast.encode(plan, msg)
        assert pure.encode(plan, msg) == wire
        assert fast.decode(plan, wire) == pure.decode(plan, wire) == msg


@pytest.mark.parametrize("name", [n for n, _ in ALL])
def test_default_messages_round_trip_at_every_version(name, backend):
    cls = messages.CLASSES[name]
    for version in _versions(cls):
        msg = cls()
        wire = msg.encode(version)
        assert len(wire) == msg.size(version)
        assert cls.decode(wire, version) == msg
