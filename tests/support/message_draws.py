"""Many random message objects of a definition at a version, fast and reproducible.

The same kind of values as the hypothesis strategies of ``_message_strategies`` (only
the fields the version has, extreme and random integers, unicode text, nulls where a
field is nullable, empty and multi-element arrays, tagged fields at and off their
default, unknown tagged fields in flexible structs), drawn with :mod:`random` from
generators compiled once per plan: a few hundred messages of every (definition,
version) pair cost seconds where hypothesis's engine needs minutes.  Draw ``index`` of
``seed`` depends on nothing else, so :func:`draw` rebuilds any one message of a batch.
"""

from __future__ import annotations

import math
import os
import random
import struct
import uuid
from functools import lru_cache
from typing import Any, Callable, List

from kafkawire.protocol.schema import plan as P

Gen = Callable[[random.Random], Any]

# The messages per (definition, version) that the comparison with Kafka's Java classes
# draws, and their seed.
COUNT = int(os.environ.get("KAFKAWIRE_JAVA_DRAWS", "300"))
SEED = int(os.environ.get("KAFKAWIRE_JAVA_SEED", "440"))

# Characters from every UTF-8 length (1 to 4 bytes; 4 are two UTF-16 units in Java),
# controls, NUL, and the ends of the Unicode range; lone surrogates are no text.
_CHARS = (
    "a",
    "Z",
    "0",
    " ",
    '"',
    "\\",
    "/",
    "\x00",
    "\t",
    "\n",
    "\x1f",
    "\x7f",
    "\x80",
    "é",
    "ß",
    "Ω",
    "ж",
    "\u07ff",
    "\u0800",
    "€",
    "中",
    "\u200b",
    "\ufeff",
    "\uffff",
    "😀",
    "𝄞",
    "\U00010000",
    "\U0010ffff",
)
_FLOATS = (
    0.0,
    -0.0,
    1.0,
    -1.5,
    0.1,
    math.inf,
    -math.inf,
    5e-324,
    -5e-324,
    2.2250738585072014e-308,
    1.7976931348623157e308,
    -1.7976931348623157e308,
)
# Sizes, now and then past 127: a compact length of two varint bytes.
_TEXT_SIZES = (0, 1, 2, 3, 5, 8, 11) * 2 + (70,)  # 70 characters: some 160 UTF-8 bytes
_BYTES_SIZES = (0, 1, 3, 8, 24) * 3 + (200,)
_ARRAY_SIZES = (0, 0, 1, 1, 2, 2, 3)  # empty and multi-element arrays in about equal shares
_LONG_ARRAY = 130  # of a primitive element, one array in 15
# the largest tag Java writes back: its writer takes 2**31 - 1 for "no more tags"
JAVA_MAX_TAG = 2**31 - 2


def _pick(rng: random.Random, options: tuple) -> Any:
    return options[int(rng.random() * len(options))]  # random.choice, at a third of its cost


def _int_gen(kind: int) -> Gen:
    lo, hi = P.INT_RANGE[kind]
    bits = (hi - lo).bit_length()  # every range spans a power of two
    edges = tuple(sorted({lo, lo + 1, hi - 1, hi, 0, 1, -1 if lo < 0 else 2}))
    small = tuple(range(max(lo, -300), min(hi, 300) + 1))

    def gen(rng: random.Random) -> int:
        r = rng.random()
        if r < 0.35:
            return _pick(rng, edges)
        if r < 0.6:
            return _pick(rng, small)
        return lo + rng.getrandbits(bits)

    return gen


def _float(rng: random.Random) -> float:
    r = rng.random()
    if r < 0.4:
        return _pick(rng, _FLOATS)
    if r < 0.7:
        return (rng.random() - 0.5) * 2e6
    while True:  # any finite bit pattern
        value = struct.unpack("<d", rng.getrandbits(64).to_bytes(8, "little"))[0]
        if not math.isnan(value):
            return value


def _text(rng: random.Random) -> str:
    text = "".join(rng.choices(_CHARS, k=_pick(rng, _TEXT_SIZES)))
    if text and rng.random() < 0.3:  # and any other character
        cp = int(rng.random() * (0x110000 - 0x800))
        text += chr(cp if cp < 0xD800 else cp + 0x800)  # skipping the surrogates
    return text


def _bytes(rng: random.Random) -> bytes:
    return rng.randbytes(_pick(rng, _BYTES_SIZES))


def _uuid(rng: random.Random) -> uuid.UUID:
    return P.ZERO_UUID if rng.random() < 0.2 else uuid.UUID(int=rng.getrandbits(128))


def _primitive_gen(kind: int) -> Gen:
    if kind in P.INT_RANGE:
        return _int_gen(kind)
    if kind == P.BOOL:
        return lambda rng: rng.random() < 0.5
    if kind == P.FLOAT64:
        return _float
    if kind == P.UUID:
        return _uuid
    if kind == P.STRING:
        return _text
    if kind in (P.BYTES, P.RECORDS):
        return _bytes
    raise AssertionError(kind)


def _field_gen(fp: P.FieldPlan) -> Gen:
    if fp.kind == P.ARRAY:
        elem = struct_gen(fp.sub) if fp.elem_kind == P.STRUCT else _primitive_gen(fp.elem_kind)
        long = fp.elem_kind != P.STRUCT

        def value(rng: random.Random) -> Any:
            size = _LONG_ARRAY if long and rng.random() < 1 / 15 else _pick(rng, _ARRAY_SIZES)
            return [elem(rng) for _ in range(size)]
    elif fp.kind == P.STRUCT:
        value = struct_gen(fp.sub)
    else:
        value = _primitive_gen(fp.kind)
    gen = value
    if fp.nullable:

        def gen(rng: random.Random, value: Gen = value) -> Any:
            return None if rng.random() < 0.2 else value(rng)

    if fp.tag >= 0:  # tagged: sometimes at its default, so not written

        def gen(rng: random.Random, inner: Gen = gen, fp: P.FieldPlan = fp) -> Any:
            return fp.default_for_decode() if rng.random() < 0.25 else inner(rng)

    return gen


def _unknown_gen(reserved: frozenset) -> Gen:
    small = tuple(t for t in range(41) if t not in reserved)

    def tag(rng: random.Random) -> int:
        r = rng.random()
        if r < 0.8:
            return _pick(rng, small)
        if r < 0.95:
            return 128 + int(rng.random() * 20000)  # a tag of two or three varint bytes
        return JAVA_MAX_TAG - int(rng.random() * 4)

    def gen(rng: random.Random) -> Any:
        if rng.random() < 0.7:
            return None
        tags = {tag(rng) for _ in range(_pick(rng, (1, 1, 2, 3)))}
        return tuple((t, rng.randbytes(_pick(rng, (0, 1, 6)))) for t in sorted(tags))

    return gen


@lru_cache(maxsize=None)
def struct_gen(plan: P.StructPlan) -> Gen:
    """A generator of objects of ``plan.cls`` with random values in the fields
    ``plan.version`` has (the others keep their defaults)."""
    fields = [(fp.attr, _field_gen(fp)) for fp in plan.fields + plan.tagged]
    unknown = _unknown_gen(plan.reserved_tags) if plan.flexible else None
    cls = plan.cls

    def gen(rng: random.Random) -> Any:
        kw = {attr: field(rng) for attr, field in fields}
        if unknown is not None:
            kw["_unknown_tagged"] = unknown(rng)
        return cls(**kw)

    return gen


def draw(cls: type, version: int, seed: int, index: int) -> Any:
    """Message ``index`` of ``seed`` for ``cls`` at ``version``."""
    rng = random.Random(f"{seed}/{cls.__name__}/{version}/{index}")
    return struct_gen(cls.plan(version))(rng)


def draws(cls: type, version: int, seed: int, count: int) -> List[Any]:
    """Messages 0 .. ``count`` - 1 of ``seed`` for ``cls`` at ``version``."""
    gen = struct_gen(cls.plan(version))
    name = cls.__name__
    return [gen(random.Random(f"{seed}/{name}/{version}/{index}")) for index in range(count)]
