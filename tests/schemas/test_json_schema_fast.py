"""The compiled JSON reader against the exact one: over random schemas and random JSON
texts (fitting, mistyped, mangled, written with duplicate keys, escapes, odd numbers and
whitespace), ``decode`` and ``decode_permissive`` give the same column (type and
values) or raise the same exception with the same message, whichever path reads them.
Each test runs on both backends (on the pure one both paths are the exact reader)."""

from __future__ import annotations

import json

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from kafkawire.errors import SchemaFramingError
from kafkawire.registry.json_schema import JsonColumnDecoder, RegistryJsonDecoder
from kafkawire.registry.wire import frame
from test_json_schema import ORDER_V2, _JsonIds, order

pa = pytest.importorskip("pyarrow")

pytestmark = pytest.mark.in_process

CONNECT = "org.apache.kafka.connect.data."

_names = st.sampled_from(["a", "b", "c", "id", "x y", "ü", "long_name_1"])
# leaves: (schema, values that fit it)
_LEAVES = {
    "integer": ({"type": "integer"}, st.integers(-(1 << 63), (1 << 63) - 1)),
    "int8": ({"type": "integer", "connect.type": "int8"}, st.integers(-130, 130)),
    "int16": ({"type": "integer", "connect.type": "int16"}, st.integers(-(1 << 15) - 2, 1 << 15)),
    "int32": ({"type": "integer", "connect.type": "int32"}, st.integers(-(1 << 31) - 2, 1 << 31)),
    "timestamp": ({"type": "integer", "title": CONNECT + "Timestamp"}, st.integers(-(1 << 50), 1 << 50)),
    "date32": ({"type": "integer", "title": CONNECT + "Date"}, st.integers(-(1 << 31), (1 << 31) - 1)),
    "time": ({"type": "integer", "title": CONNECT + "Time"}, st.integers(-5, 86_400_005)),
    "number": (
        {"type": "number"},
        st.floats(allow_nan=False, allow_infinity=False) | st.integers(-(1 << 70), 1 << 70),
    ),
    "float32": (
        {"type": "number", "connect.type": "float32"},
        st.floats(allow_nan=False, allow_infinity=False),
    ),
    "string": ({"type": "string"}, st.text(max_size=8)),
    "boolean": ({"type": "boolean"}, st.booleans()),
    "date-time": (
        {"type": "string", "format": "date-time"},
        st.builds(
            "{:04d}-{:02d}-{:02d}{}{:02d}:{:02d}:{:02d}{}{}".format,
            st.integers(0, 9999),
            st.integers(0, 13),
            st.integers(0, 32),
            st.sampled_from(["T", "t", " ", "x"]),
            st.integers(0, 24),
            st.integers(0, 60),
            st.integers(0, 60),
            st.sampled_from(["", ".", ".5", ".123456789", ".0000001"]),
            st.sampled_from(["Z", "z", "", "+05:30", "-23:59", "+24:00", "-00:00", "+5:30", "+00:99"]),
        ),
    ),
    "date": (
        {"type": "string", "format": "date"},
        st.builds(
            "{:04d}-{:02d}-{:02d}".format, st.integers(0, 9999), st.integers(0, 13), st.integers(0, 32)
        ),
    ),
    "enum": ({"enum": ["red", "green", "blue"]}, st.sampled_from(["red", "green", "blue", "Red"])),
    "enum of numbers": ({"enum": [1, 2.5, None]}, st.sampled_from([1, 1.0, 2.5, 3, None])),
    "const": ({"const": True}, st.booleans()),
    "any": ({}, st.none()),  # its values: any JSON (the random values below)
    "string or integer": ({"type": ["string", "integer"]}, st.text(max_size=3) | st.integers()),
    "one of strings": (
        {"oneOf": [{"type": "string", "format": "date"}, {"type": "string"}]},
        st.sampled_from(["2024-01-02", "x"]),
    ),
}

# any JSON value, the awkward ones among them
_json = st.recursive(
    st.none()
    | st.booleans()
    | st.integers()
    | st.integers(-(1 << 80), 1 << 80)
    | st.floats(allow_nan=False)
    | st.text(max_size=6)
    | st.sampled_from(["2024-02-29T23:59:59.5+01:00", "2023-02-29", "\U0001f600"]),
    lambda inner: st.lists(inner, max_size=3) | st.dictionaries(_names, inner, max_size=3),
    max_leaves=6,
)


@st.composite
def schemas(draw, depth=3):
    """A JSON Schema and a strategy of values most of which fit it."""
    kinds = list(_LEAVES) + ["object", "array", "map", "nullable", "all of"] * (depth > 0)
    kind = draw(st.sampled_from(kinds))
    if kind in _LEAVES:
        schema, values = _LEAVES[kind]
        return schema, values | _json if kind == "any" else values
    if kind == "nullable":
        schema, values = draw(schemas(depth - 1))
        if draw(st.booleans()) and isinstance(schema.get("type"), str):
            return {**schema, "type": [schema["type"], "null"]}, st.none() | values
        return {"anyOf": [schema, {"type": "null"}]}, st.none() | values
    if kind == "array":
        schema, values = draw(schemas(depth - 1))
        return {"type": "array", "items": schema}, st.lists(values, max_size=3)
    if kind == "map":
        schema, values = draw(schemas(depth - 1))
        return {"type": "object", "additionalProperties": schema}, st.dictionaries(_names, values, max_size=3)
    if kind == "all of":
        a, va = draw(_object(depth - 1))
        b, vb = draw(_object(depth - 1))
        return {"allOf": [a, b]}, st.builds(lambda x, y: {**x, **y}, va, vb)
    return draw(_object(depth - 1))


@st.composite
def _object(draw, depth):
    names = draw(st.lists(_names, min_size=1, max_size=4, unique=True))
    fields = {n: draw(schemas(depth)) for n in names}
    required = [n for n in names + ["undescribed"] if draw(st.integers(0, 3)) == 0]

    @st.composite
    def documents(d):
        doc = {n: d(v) for n, (_, v) in fields.items() if n in required or d(st.booleans())}
        if "undescribed" in required or d(st.booleans()):
            doc["undescribed"] = d(_json)
        return doc

    schema = {"type": "object", "properties": {n: s for n, (s, _) in fields.items()}}
    if required:
        schema["required"] = required
    return schema, documents()


@st.composite
def texts(draw, value):
    """``value`` as JSON text, written in one of the ways JSON allows (and some it does not)."""
    space = st.sampled_from(["", " ", "\n", "\t ", "\r\n"])

    def dump(v):
        if isinstance(v, dict):
            items = list(v.items())
            if items and draw(st.integers(0, 9)) == 0:  # a key met twice: the last one counts
                k, x = draw(st.sampled_from(items))
                items.append((k, x if draw(st.booleans()) else draw(_json)))
            inner = ",".join(f"{draw(space)}{dump(k)}{draw(space)}:{dump(x)}" for k, x in items)
            return "{" + inner + draw(space) + "}"
        if isinstance(v, list):
            return "[" + ",".join(draw(space) + dump(x) for x in v) + draw(space) + "]"
        if isinstance(v, float) and v.is_integer() and abs(v) < 1e20 and draw(st.booleans()):
            return draw(st.sampled_from([f"{v:.1f}", f"{int(v)}e0", f"{v:E}", f"{int(v)}.000"]))
        if isinstance(v, int) and not isinstance(v, bool) and draw(st.integers(0, 5)) == 0:
            return draw(st.sampled_from([f"{v}.0", f"{v}e0", f"{v}E+00", "0" + str(v)]))
        if isinstance(v, str) and draw(st.integers(0, 4)) == 0:
            return json.dumps(v, ensure_ascii=True)
        return json.dumps(v, ensure_ascii=False, allow_nan=True)

    text = draw(space) + dump(value) + draw(space)
    mangle = draw(st.integers(0, 9))
    if mangle == 0 and text:  # a byte replaced
        raw = bytearray(text.encode("utf-8"))
        raw[draw(st.integers(0, len(raw) - 1))] = draw(st.integers(0, 255))
        return bytes(raw)
    if mangle == 1:  # a value the parser or the schema refuses, in place of a scalar
        bad = draw(
            st.sampled_from(
                [
                    "NaN",
                    "1e400",
                    "-Infinity",
                    '"\\ud800"',
                    '"\\udc00x"',
                    "9" * 30,
                    "-",
                    "1.",
                    "tru",
                    '"\\x"',
                    '"\t"',
                ]
            )
        )
        for scalar in ("true", "false", "null", "1", "0", '""'):
            if scalar in text:
                return text.replace(scalar, bad, 1).encode("utf-8")
    if mangle == 2 and text:
        return text.encode("utf-8")[: draw(st.integers(0, len(text) - 1))]
    return text.encode("utf-8")


def _outcome(call):
    try:
        result = call()
    except (SchemaFramingError, ValueError, TypeError) as exc:
        return ("raises", type(exc), str(exc))
    return ("gives", result)


def _same(fast, exact):
    assert fast[0] == exact[0], (fast, exact)
    if fast[0] == "raises":
        assert fast == exact
        return
    for a, b in zip(
        fast[1] if isinstance(fast[1], tuple) else (fast[1],),
        exact[1] if isinstance(exact[1], tuple) else (exact[1],),
    ):
        assert a.type == b.type
        assert a.equals(b), (a, b)


def _pair(make):
    """The decoder as it runs, and one with no compiled plan (the exact reader alone)."""
    fast, exact = make(), make()
    exact.layout.fast = None
    return fast, exact


@settings(max_examples=400, deadline=None, suppress_health_check=list(HealthCheck))
@given(st.data())
def test_the_compiled_reader_gives_what_the_exact_reader_gives(data):
    schema, values = data.draw(schemas())
    try:
        fast, exact = _pair(lambda: JsonColumnDecoder(schema))
    except Exception:  # a schema without an Arrow type (allOf of non-objects, ...): not this test's
        return
    bodies = [
        None
        if data.draw(st.integers(0, 9)) == 0
        else data.draw(texts(data.draw(values | _json if data.draw(st.integers(0, 4)) == 0 else values)))
        for _ in range(data.draw(st.integers(1, 6)))
    ]
    offsets = list(range(100, 100 + len(bodies)))
    _same(_outcome(lambda: fast.decode(bodies)), _outcome(lambda: exact.decode(bodies)))
    _same(
        _outcome(lambda: fast.decode_permissive(bodies, topic="t", offsets=offsets)),
        _outcome(lambda: exact.decode_permissive(bodies, topic="t", offsets=offsets)),
    )


@settings(max_examples=150, deadline=None, suppress_health_check=list(HealthCheck))
@given(st.data())
def test_framed_orders_read_alike_whatever_is_done_to_them(data):
    """The tests' orders, framed, some cut, flipped, re-framed with a wrong magic byte or
    an id of another schema type, in columns that are slices of larger ones."""
    fast, exact = _pair(lambda: RegistryJsonDecoder(_OneAvroId(), reader_schema=ORDER_V2))
    payloads = []
    for _ in range(data.draw(st.integers(1, 8))):
        body = data.draw(texts(order(data.draw(st.integers(0, 60)), 2)))
        payloads.append(
            frame(data.draw(st.sampled_from([1, 1, 1, 7])), body)
            if data.draw(st.integers(0, 19))
            else b"\x01" + body
        )
    column = pa.array([b"{}"] + payloads + [None], pa.binary()).slice(1)
    _same(_outcome(lambda: fast.decode(column)), _outcome(lambda: exact.decode(column)))
    _same(_outcome(lambda: fast.decode_permissive(column)), _outcome(lambda: exact.decode_permissive(column)))


class _OneAvroId(_JsonIds):
    """Schema id 7 is an Avro schema; the others JSON."""

    def schema_by_id(self, schema_id):
        from kafkawire.registry.client import RegisteredSchema

        return RegisteredSchema(schema_id, "{}", "AVRO" if schema_id == 7 else "JSON")


def test_the_orders_are_read_by_the_compiled_reader():
    """The orders leave no row to the exact reader (the speed the benchmark measures)."""
    decoder = RegistryJsonDecoder(_JsonIds(), reader_schema=ORDER_V2)
    assert decoder.layout.fast is not None
    from kafkawire.registry import json_schema

    column = pa.array([frame(1, json.dumps(order(i, 2)).encode()) for i in range(50)], pa.binary())
    read = json_schema._read_column(
        len(column),
        0,
        *column.buffers(),
        decoder.layout.fast.spec,
        decoder.layout.fast.plan,
        json.loads,
        lambda _: True,
    )
    if read is not None:  # the Cython backend
        assert read[1] == []


def test_a_decoder_given_a_backend_reads_on_it(monkeypatch):
    """``backend=`` (a Spark query's backend option) picks the reader, whichever is active."""
    from kafkawire import _backend

    pure = _backend.implementation("json_schema", "python")
    calls = []
    real = pure.read_column
    monkeypatch.setattr(pure, "read_column", lambda *args: calls.append(1) or real(*args))
    column = pa.array([frame(1, json.dumps(order(i, 2)).encode()) for i in range(5)], pa.binary())
    decoder = RegistryJsonDecoder(_JsonIds(), reader_schema=ORDER_V2, backend="python")
    want = RegistryJsonDecoder(_JsonIds(), reader_schema=ORDER_V2).decode(column)
    assert decoder.decode(column).equals(want)
    assert calls  # on the cython run too, where the active backend is the compiled one


@pytest.mark.backend_independent
def test_the_compiled_reader_numbers_the_node_kinds_as_the_plan_does():
    from kafkawire import _backend
    from kafkawire.registry import json_schema as J

    if not _backend.fast_available():
        pytest.skip("no Cython backend here")
    kinds = (
        J.N_STRING,
        J.N_DATETIME,
        J.N_DATE,
        J.N_INT,
        J.N_NUMBER,
        J.N_BOOL,
        J.N_ARRAY,
        J.N_MAP,
        J.N_STRUCT,
        J.N_PY,
    )
    assert _backend.implementation("json_schema", "cython").NODE_KINDS == kinds
