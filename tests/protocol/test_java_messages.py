"""Byte equality with Kafka 4.4's generated Java message classes, for every definition
and version Java defines, on both backends.

One JVM (``kafka_support/MessageOracle.java``) serves the whole session.  For each
(definition, version), ``KAFKAWIRE_JAVA_DRAWS`` messages (default 300) with random
values in every field and random unknown tagged fields (``_message_draws``, seed
``KAFKAWIRE_JAVA_SEED``) go to Java in one batch per direction:

* ``to-java``: Java reads each kafkawire-encoded message with its generated class and
  writes it back to identical bytes (so unknown tagged fields survive Java too; Java
  compares and reports only differences); Java's JSON (its ``*JsonConverter``) equals
  kafkawire's ``to_dict()`` field for field; kafkawire reads its bytes back to the
  message it wrote, unknown tagged fields included.
* ``from-java``: Java builds each message from the JSON form of kafkawire's
  ``to_dict()``; kafkawire decodes Java's bytes to an equal message and re-encodes
  them byte for byte.

A failure names the draw (its seed and index); ``_message_draws.draw`` rebuilds it.
"""

from __future__ import annotations

import json
from functools import lru_cache

import pytest

from support.kafka import jars, oracle
from support.kafka.java_json import all_finite, java_form, without_unknown_tags
from support.kafka.oracle import JSON, OTHER_BYTES, WIRE, JavaError
from kafkawire.protocol import messages
from kafkawire.protocol.schema import DATA_DIR

from support.message_draws import COUNT, JAVA_MAX_TAG, SEED, draws

pytestmark = [pytest.mark.kafka, pytest.mark.in_process]

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


@lru_cache(maxsize=1)  # the two directions of a pair run one after the other
def _drawn(name, version):
    """The messages of a pair and their ``to_dict()`` (which no backend changes)."""
    drawn = draws(messages.CLASSES[name], version, SEED, COUNT)
    return drawn, [msg.to_dict() for msg in drawn]


def _draw_name(name, version, index):
    return (
        f"{name} v{version}, draw {index} of seed {SEED} "
        f"(_message_draws.draw(messages.{name}, {version}, seed={SEED}, index={index}))"
    )


def _same(got, want, what, name, version, indexes):
    """Lists compared whole (fast); a difference is shown for its first draw."""
    if got != want:
        i = next(i for i, (g, w) in enumerate(zip(got, want)) if g != w)
        assert got[i] == want[i], f"{what} at {_draw_name(name, version, indexes[i])}"


def _no_problems(problems, name, version, indexes, direction):
    if problems:
        at, (what, data) = min(problems.items())
        said = data.hex() if what == OTHER_BYTES else data.decode("utf-8", "replace")
        kind = "Java wrote other bytes" if what == OTHER_BYTES else "Java refused it"
        pytest.fail(
            f"{direction}: {kind} ({len(problems)} of {len(indexes)} messages), first "
            f"{_draw_name(name, version, indexes[at])}: {said}"
        )


@pytest.mark.parametrize("name,version,direction", CASES, ids=[f"{n}-v{v}-{d}" for n, v, d in CASES])
def test_java_agrees(java, name, version, direction, backend):
    kind, jname, ident = _target(name, java)
    cls = messages.CLASSES[name]
    plan = cls.plan(version)
    drawn, ours = _drawn(name, version)
    if direction == "to-java":
        indexes = range(len(drawn))
        wires = [msg.encode(version) for msg in drawn]
        problems, their_json = java.wire_batch(kind, jname, ident, version, wires)
        _no_problems(problems, name, version, indexes, direction)
        _same(
            their_json,
            [java_form(msg, d, plan) for msg, d in zip(drawn, ours)],
            "Java's JSON differs",
            name,
            version,
            indexes,
        )
        _same(
            [cls.decode(wire, version) for wire in wires],
            drawn,
            "kafkawire reads back another message",
            name,
            version,
            indexes,
        )
        return
    # Kafka's JSON reader refuses the non-finite float64 values its writer emits
    # (as the strings "Infinity", "-Infinity"): such messages cannot go this way.
    indexes = [i for i, d in enumerate(ours) if all_finite(d)]
    assert len(indexes) >= COUNT // 2, "too few messages without infinite floats"
    sent = [java_form(drawn[i], ours[i], plan, for_reading=True) for i in indexes]
    problems, theirs = java.json_batch(kind, jname, ident, version, sent)
    _no_problems(problems, name, version, indexes, direction)
    want = [without_unknown_tags(ours[i]) for i in indexes]
    got = [cls.decode(wire, version) for wire in theirs]
    _same(
        [g.to_dict() for g in got],
        want,
        "kafkawire decodes Java's bytes to another message",
        name,
        version,
        indexes,
    )
    _same(
        [g.encode(version) for g in got],
        theirs,
        "kafkawire re-encodes Java's bytes differently",
        name,
        version,
        indexes,
    )
    _same(
        [cls.from_dict(w).encode(version) for w in want],
        theirs,
        "kafkawire encodes the message Java read differently",
        name,
        version,
        indexes,
    )


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


@pytest.mark.parametrize(
    "tag,refusal",
    [
        (2**31 - 1, "Attempted to use tag 2147483647 as an undefined tag"),  # its "no more tags"
        (2**31, "tag -2147483648 comes after tag 2, but is not higher than it"),  # read as an int32
        (2**32 - 1, "tag -1 comes after tag 2, but is not higher than it"),
    ],
)
def test_java_cannot_write_back_an_unknown_tag_above_2_31_minus_2(java, backend, tag, refusal):
    # A tag is an unsigned varint, which Kafka's Java code keeps in an int: it reads these
    # tags but refuses to write them back.  kafkawire keeps them; the random messages stop
    # at the largest tag Java writes back.
    def fetch_with(unknown_tag):
        return messages.FetchRequest(cluster_id="c", _unknown_tagged=((2, b"a"), (unknown_tag, b"b")))

    largest = fetch_with(JAVA_MAX_TAG).encode(17)
    assert java.ask(WIRE, "request", "", 1, 17, largest)[0] == largest
    wire = fetch_with(tag).encode(17)
    with pytest.raises(JavaError, match=refusal):
        java.ask(WIRE, "request", "", 1, 17, wire)
    assert messages.FetchRequest.decode(wire, 17) == fetch_with(tag)
    assert messages.FetchRequest.decode(wire, 17).encode(17) == wire
