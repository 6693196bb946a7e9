"""Byte equality with Kafka 4.4's generated Java message classes, for every definition
and version Java defines, on both backends.

One JVM (``kafka_support/MessageOracle.java``) serves the whole session.  For each
(definition, version):

* ``to-java``: a kafkawire-encoded message with random values in every field (the
  hypothesis strategies of ``_message_strategies``, unknown tagged fields included) is
  read by Java's generated class and written back to identical bytes (so unknown tagged
  fields survive Java too); Java's JSON (its ``*JsonConverter``) equals kafkawire's
  ``to_dict()`` field for field.
* ``from-java``: Java builds the message from the JSON form of kafkawire's
  ``to_dict()``; kafkawire decodes Java's bytes to an equal message and re-encodes
  them byte for byte.

``KAFKAWIRE_JAVA_DRAWS`` sets the messages drawn per case (a fixed seed each).
"""
from __future__ import annotations

import json
import os

import pytest
from hypothesis import HealthCheck, Phase, assume, given, settings
from hypothesis import strategies as st

from kafka_support import jars, oracle
from kafka_support.java_json import all_finite, java_form, without_unknown_tags
from kafka_support.oracle import JSON, WIRE, JavaError
from kafkawire import messages
from kafkawire.schema import DATA_DIR

from _message_strategies import message_strategy

pytestmark = pytest.mark.kafka

DRAWS = int(os.environ.get("KAFKAWIRE_JAVA_DRAWS", "4"))
MANIFEST = json.loads((DATA_DIR / "MANIFEST.json").read_text())["files"]


def _all_pairs():
    out = []
    for name, cls in sorted(messages.CLASSES.items()):
        vr = cls.valid_versions
        for version in range(vr.lowest, vr.highest + 1):
            out.append((name, version))
    return out


PAIRS = _all_pairs()
CASES = [(name, version, direction) for name, version in PAIRS for direction in ("to-java", "from-java")]


@pytest.fixture(scope="session")
def java():
    jars.require_kafka()
    server = oracle.JavaMessages()
    yield server
    server.close()


def _target(name, server):
    spec = messages.SPECS[name]
    target = oracle.java_target(spec, MANIFEST, server.class_names)
    assert target is not None, f"no generated Java class for {name}"
    return target


_SETTINGS = settings(max_examples=DRAWS, derandomize=True, database=None, deadline=None,
                     suppress_health_check=list(HealthCheck), phases=(Phase.explicit, Phase.generate))


@pytest.mark.parametrize("name,version,direction", CASES, ids=[f"{n}-v{v}-{d}" for n, v, d in CASES])
@_SETTINGS
@given(data=st.data())
def test_java_agrees(java, name, version, direction, data, backend):
    server = java
    kind, jname, ident = _target(name, server)
    cls = messages.CLASSES[name]
    plan = cls.plan(version)
    msg = data.draw(message_strategy(cls, version), label=f"v{version}")
    ours = msg.to_dict()
    if direction == "to-java":
        wire = msg.encode(version)
        theirs, their_json = server.ask(WIRE, kind, jname, ident, version, wire)
        assert theirs == wire
        assert their_json == java_form(msg, ours, plan)
    else:
        # Kafka's JSON reader refuses the non-finite float64 values its writer emits
        # (as the strings "Infinity", "-Infinity"): such messages cannot go this way.
        assume(all_finite(ours))
        sent = java_form(msg, ours, plan, for_reading=True)
        theirs, _ = server.ask(JSON, kind, jname, ident, version, json.dumps(sent).encode())
        expected = without_unknown_tags(ours)
        got = cls.decode(theirs, version)
        assert got.to_dict() == expected
        assert got.encode(version) == theirs
        assert cls.from_dict(expected).encode(version) == theirs


def test_java_refuses_a_tag_its_struct_defines_at_other_versions(java, backend):
    # Why kafkawire refuses it too: FetchRequest tags ReplicaState as 1 from v15 only.
    wire = messages.FetchRequest().encode(12)
    with pytest.raises(JavaError, match="Tag 1 is not valid for version 12"):
        java.ask(WIRE, "request", "", 1, 12, wire[:-1] + b"\x01\x01\x01\x00")
    theirs, _ = java.ask(WIRE, "request", "", 1, 12, wire[:-1] + b"\x01\x02\x01\x00")
    assert theirs == wire[:-1] + b"\x01\x02\x01\x00"  # tag 2 is unknown: kept


def test_java_json_writes_infinity_as_text_and_cannot_read_it_back(java, backend):
    R = messages.AlterClientQuotasRequest
    msg = R(entries=[R.EntryData(entity=[], ops=[R.OpData(key="k", value=float("inf"))])])
    theirs, their_json = java.ask(WIRE, "request", "", 49, 1, msg.encode(1))
    assert theirs == msg.encode(1)
    assert their_json["entries"][0]["ops"][0]["value"] == "Infinity"
    with pytest.raises(JavaError, match="expected a floating point type"):
        java.ask(JSON, "request", "", 49, 1, json.dumps(their_json).encode())


# Hypothesis's pytest plugin wraps a parametrized test's settings once per case, each
# wrapper the parent of the next; over this test's ~3000 cases that chain outgrows
# Python's recursion limit.  Each case starts again from the settings given above.
_BASE_SETTINGS = test_java_agrees._hypothesis_internal_use_settings


@pytest.fixture(autouse=True)
def _settings_chain_reset():
    test_java_agrees._hypothesis_internal_use_settings = _BASE_SETTINGS
