"""The random messages compared with Kafka's Java classes exercise every field.

For every (definition, version), over the ``_message_draws.COUNT`` messages of
``SEED``, every field of every struct the version reaches holds a non-default value at
least once, and also: null where it is nullable, an empty and a multi-element list
where it is an array, its default (so it is left out) where it is tagged, a length of
127 or more where it is text, bytes or an array of a primitive type; every flexible
struct carries unknown tagged fields at least once.
"""

from __future__ import annotations

from collections import defaultdict

import pytest

from support.message_draws import COUNT, JAVA_MAX_TAG, SEED, draw, draws
from kafkawire.protocol import messages
from kafkawire.protocol.schema import plan as P

pytestmark = [pytest.mark.backend_independent, pytest.mark.in_process]


# A length from 127 up takes two varint bytes in a compact field.
_LENGTHS = {P.STRING: lambda text: text.encode(), P.BYTES: bytes, P.RECORDS: bytes}


def _needs(plan, out):
    """What each field of ``plan`` and of the structs below it must show, by (plan, attr)."""
    for fp in plan.fields + plan.tagged:
        need = {"value"}
        if fp.nullable:
            need.add("null")
        if fp.kind == P.ARRAY:
            need |= {"empty", "many"}
        if fp.kind in _LENGTHS or (fp.kind == P.ARRAY and fp.elem_kind != P.STRUCT):
            need.add("long")
        if fp.tag >= 0:
            need.add("default")
        out[(plan, fp.attr)] = need
        if fp.sub is not None:
            _needs(fp.sub, out)
    if plan.flexible:
        out[(plan, "(unknown tagged fields)")] = {"value"}
    return out


def _shown(plan, obj, seen):
    for fp in plan.fields + plan.tagged:
        value = getattr(obj, fp.attr)
        shows = seen[(plan, fp.attr)]
        if value is None:
            shows.add("null")
        if fp.is_default(value):  # a tagged field defaulting to null: both
            shows.add("default")
        elif value is not None:
            shows.add("value")
        if fp.kind in _LENGTHS and value is not None and len(_LENGTHS[fp.kind](value)) >= 127:
            shows.add("long")
        if fp.kind == P.ARRAY and value is not None:
            if len(value) >= 127:
                shows.add("long")
            shows.add("empty" if not value else "many" if len(value) > 1 else "one")
            if fp.elem_kind == P.STRUCT:
                for item in value:
                    _shown(fp.sub, item, seen)
        elif fp.kind == P.STRUCT and value is not None:
            _shown(fp.sub, value, seen)
    if plan.flexible and obj._unknown_tagged:
        seen[(plan, "(unknown tagged fields)")].add("value")


def test_draws_exercise_every_field(backend):
    gaps = []
    for name, cls in sorted(messages.CLASSES.items()):
        for version in range(cls.valid_versions.lowest, cls.valid_versions.highest + 1):
            plan = cls.plan(version)
            seen = defaultdict(set)
            for msg in draws(cls, version, SEED, COUNT):
                _shown(plan, msg, seen)
            for (struct, attr), need in _needs(plan, {}).items():
                missing = need - seen[(struct, attr)]
                if missing:
                    gaps.append(f"{name} v{version} {struct.spec.name}.{attr}: never {sorted(missing)}")
    assert not gaps, f"{len(gaps)} gaps in {COUNT} draws of seed {SEED}:\n" + "\n".join(gaps[:40])


def test_unknown_tags_reach_the_largest_java_writes_back(backend):
    tags = {
        tag for msg in draws(messages.FetchRequest, 17, SEED, COUNT) for tag, _ in msg._unknown_tagged or ()
    }
    assert max(tags) > 2**30 and max(tags) <= JAVA_MAX_TAG
    assert any(128 <= tag < 2**14 for tag in tags) and any(tag < 128 for tag in tags)


def test_one_draw_rebuilds_the_message_a_failure_names(backend):
    # a failure of the Java comparison names its seed and index; draw() rebuilds it alone
    batch = draws(messages.MetadataResponse, 12, SEED, 20)
    assert [draw(messages.MetadataResponse, 12, SEED, i) for i in (0, 7, 19)] == [
        batch[0],
        batch[7],
        batch[19],
    ]
    assert draws(messages.MetadataResponse, 12, SEED + 1, 20) != batch
