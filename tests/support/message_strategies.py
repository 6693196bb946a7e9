"""Hypothesis strategies that make valid message objects of any definition at any version.

Driven by the schema plans: only fields the version has get random values (the rest
keep their defaults), nullable fields are sometimes None, tagged fields sometimes keep
their default (so they are not written), and flexible structs sometimes carry unknown
tagged fields.
"""

from __future__ import annotations

from functools import lru_cache

from hypothesis import strategies as st

from kafkawire.protocol.schema import plan as P

_INTS = {k: st.integers(lo, hi) for k, (lo, hi) in P.INT_RANGE.items()}
_EDGE = {
    k: st.sampled_from(sorted({lo, hi, 0, -1 if lo < 0 else 1, 1})) for k, (lo, hi) in P.INT_RANGE.items()
}


def _int(kind):
    return st.one_of(_EDGE[kind], _INTS[kind])


_TEXT = st.text(max_size=12)
_BYTES = st.binary(max_size=24)


def _primitive(kind):
    if kind in P.INT_RANGE:
        return _int(kind)
    if kind == P.BOOL:
        return st.booleans()
    if kind == P.FLOAT64:
        return st.floats(allow_nan=False, allow_infinity=True)
    if kind == P.UUID:
        return st.one_of(st.just(P.ZERO_UUID), st.uuids())
    if kind == P.STRING:
        return _TEXT
    if kind in (P.BYTES, P.RECORDS):
        return _BYTES
    raise AssertionError(kind)


_ERROR_CODES = None


def _codes_peers_know():
    """Kafka 4.4's error codes that kio's ErrorCode enum also holds (kio 0.6.5 stops
    before the newest codes)."""
    from kafkawire.errors import ERROR_CODES

    try:
        from kio.schema.errors import ErrorCode
    except ImportError:
        return sorted(ERROR_CODES)
    return sorted(set(ERROR_CODES) & {e.value for e in ErrorCode})


def _tame_int(fp):
    """Values peers can hold in their richer types: kio keeps error codes as an enum of
    the known codes and durations as timedeltas."""
    global _ERROR_CODES
    if fp.attr == "error_code" or fp.attr.endswith("_error_code"):
        if _ERROR_CODES is None:
            _ERROR_CODES = _codes_peers_know()
        return st.sampled_from(_ERROR_CODES)
    if fp.attr.endswith(("_ms", "_timestamp", "timestamp")) or "time" in fp.attr:
        return st.integers(0, 2**31 - 1)
    return None


def _field(fp, unknown):
    kind = fp.kind
    tame = None if unknown else (_tame_int(fp) if kind in P.INT_RANGE else None)
    if tame is not None:
        s = tame
    elif kind == P.ARRAY:
        elem = struct_strategy(fp.sub, unknown) if fp.elem_kind == P.STRUCT else _primitive(fp.elem_kind)
        s = st.lists(elem, max_size=2)
    elif kind == P.STRUCT:
        s = struct_strategy(fp.sub, unknown)
    else:
        s = _primitive(kind)
    if fp.nullable:
        s = st.one_of(st.none(), s)
    if fp.tag >= 0:
        s = st.one_of(st.just(fp.default_for_decode()), s)
    return s


@lru_cache(maxsize=None)
def _unknown_strategy(known_tags):
    tags = st.integers(0, 40).filter(lambda t: t not in known_tags)
    return st.one_of(
        st.none(),
        st.dictionaries(tags, st.binary(max_size=6), min_size=1, max_size=2).map(
            lambda d: tuple(sorted(d.items()))
        ),
    )


@lru_cache(maxsize=None)
def struct_strategy(plan, unknown=True):
    """Objects of ``plan.cls`` with random values in the fields ``plan.version`` has
    (and, when ``unknown``, sometimes unknown tagged fields; without, values a peer's
    richer types can hold, for the oracle tests)."""
    fields = {fp.attr: st.deferred(lambda fp=fp: _field(fp, unknown)) for fp in plan.fields + plan.tagged}
    if plan.flexible and unknown:
        fields["_unknown_tagged"] = st.one_of(st.none(), st.none(), _unknown_strategy(plan.reserved_tags))
    return st.fixed_dictionaries(fields).map(lambda kw: plan.cls(**kw))


def message_strategy(cls, version, unknown=True):
    return struct_strategy(cls.plan(version), unknown)
