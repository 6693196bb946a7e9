"""Schema resolution as the Avro specification defines it: many writer schemas (ids)
read as one reader schema in one column, against fastavro's resolving reader."""

import io
import json

import pytest

from support.avro_shapes import as_fastavro, normalize, parsed
from kafkawire.avro.decode import decode
from kafkawire.errors import PayloadDecodeError, SchemaResolutionError
from kafkawire.registry import SchemaRegistryClient
from kafkawire.registry.avro import RegistryAvroDecoder
from kafkawire.registry.client import clear_cache
from support.schema_registry import RegistryServer

pa = pytest.importorskip("pyarrow")
fastavro = pytest.importorskip("fastavro")

pytestmark = pytest.mark.in_process

V1 = {
    "type": "record",
    "name": "User",
    "namespace": "ex",
    "fields": [
        {"name": "id", "type": "int"},
        {"name": "score", "type": "float"},
        {"name": "nick", "type": "string"},
        {
            "name": "gone",
            "type": {
                "type": "array",
                "items": {"type": "record", "name": "Old", "fields": [{"name": "o", "type": "long"}]},
            },
        },
        {"name": "level", "type": {"type": "enum", "name": "Level", "symbols": ["LOW", "HIGH"]}},
        {"name": "tag", "type": ["int", "string"]},
    ],
}
# v2: fields reordered, id and score promoted, gone removed, added fields with defaults,
# nick read as bytes, a symbol added, a union widened
V2 = {
    "type": "record",
    "name": "User",
    "namespace": "ex",
    "fields": [
        {"name": "level", "type": {"type": "enum", "name": "Level", "symbols": ["LOW", "MID", "HIGH"]}},
        {"name": "nick", "type": "bytes"},
        {"name": "score", "type": "double"},
        {"name": "id", "type": "long"},
        {"name": "email", "type": ["null", "string"], "default": None},
        {"name": "visits", "type": "long", "default": 7},
        {
            "name": "home",
            "type": {"type": "record", "name": "Home", "fields": [{"name": "city", "type": "string"}]},
            "default": {"city": "Paris"},
        },
        {"name": "tag", "type": ["null", "long", "string"], "default": None},
    ],
}


def _write(schema, record):
    buf = io.BytesIO()
    fastavro.schemaless_writer(buf, fastavro.parse_schema(schema), record)
    return buf.getvalue()


def _fastavro(payload, writer, reader):
    return fastavro.schemaless_reader(
        io.BytesIO(payload), fastavro.parse_schema(writer), fastavro.parse_schema(reader)
    )


def test_promotions_defaults_reordered_added_removed_fields():
    records = [
        {"id": 1, "score": 0.5, "nick": "ann", "gone": [{"o": 1}], "level": "HIGH", "tag": 3},
        {"id": -2, "score": 1e30, "nick": "bob", "gone": [], "level": "LOW", "tag": "x"},
    ]
    payloads = [_write(V1, r) for r in records]
    column = decode(payloads, V1, V2)
    assert column.type.field("id").type == pa.int64()
    ours = [as_fastavro(parsed(V2), v) for v in column.to_pylist()]
    assert normalize(ours) == normalize([_fastavro(p, V1, V2) for p in payloads])


def test_many_writer_ids_in_one_column_read_as_the_latest():
    clear_cache()
    with RegistryServer() as server:
        client = SchemaRegistryClient(server.url)
        id1 = client.register("users-value", json.dumps(V1))
        id2 = client.register("users-value", json.dumps(V2))
        r1 = {"id": 1, "score": 2.0, "nick": "ann", "gone": [], "level": "LOW", "tag": "t"}
        r2 = {
            "level": "MID",
            "nick": b"b",
            "score": 0.25,
            "id": 2**40,
            "email": "b@x",
            "visits": 1,
            "home": {"city": "Oslo"},
            "tag": 9,
        }
        framed = [
            b"\x00" + id1.to_bytes(4, "big") + _write(V1, r1),
            b"\x00" + id2.to_bytes(4, "big") + _write(V2, r2),
            b"\x00" + id1.to_bytes(4, "big") + _write(V1, r1),
        ]
        column = RegistryAvroDecoder(client, subject="users-value").decode(framed)
        ours = [as_fastavro(parsed(V2), v) for v in column.to_pylist()]
        oracle = [
            _fastavro(framed[0][5:], V1, V2),
            _fastavro(framed[1][5:], V2, V2),
            _fastavro(framed[2][5:], V1, V2),
        ]
        assert normalize(ours) == normalize(oracle)
        assert server.registry.requests[f"GET /schemas/ids/{id1}"] == 1


def test_incompatible_pair_names_both_ids_and_the_field():
    clear_cache()
    reader = dict(V2, fields=V2["fields"] + [{"name": "required", "type": "string"}])
    with RegistryServer() as server:
        client = SchemaRegistryClient(server.url)
        id1 = client.register("u-value", json.dumps(V1))
        id3 = client.register("u-value", json.dumps(reader))
        framed = (
            b"\x00"
            + id1.to_bytes(4, "big")
            + _write(V1, {"id": 1, "score": 2.0, "nick": "a", "gone": [], "level": "LOW", "tag": 1})
        )
        with pytest.raises(
            SchemaResolutionError,
            match=f"writer schema id {id1} and reader schema id {id3}, field required: .*no default",
        ):
            RegistryAvroDecoder(client, subject="u-value").decode([framed])


@pytest.mark.parametrize(
    "writer, reader, words",
    [
        ("string", "int", "cannot be read as"),
        ("long", "int", "cannot be read as"),
        (
            {"type": "fixed", "name": "F", "size": 4},
            {"type": "fixed", "name": "F", "size": 8},
            "4 bytes in the writer",
        ),
        (
            {"type": "enum", "name": "A", "symbols": ["X"]},
            {"type": "enum", "name": "B", "symbols": ["X"]},
            "is not the reader's",
        ),
        ("int", ["null", "string"], "no branch of the reader's union"),
    ],
)
def test_incompatible_types(writer, reader, words):
    w = {"type": "record", "name": "R", "fields": [{"name": "f", "type": writer}]}
    r = {"type": "record", "name": "R", "fields": [{"name": "f", "type": reader}]}
    with pytest.raises(SchemaResolutionError, match=f"field f: .*{words}"):
        decode([], w, r)


def test_writer_branch_the_reader_lacks_fails_only_when_used():
    w = {"type": "record", "name": "R", "fields": [{"name": "f", "type": ["int", "string"]}]}
    r = {"type": "record", "name": "R", "fields": [{"name": "f", "type": "long"}]}
    assert decode([_write(w, {"f": 4})], w, r).field("f").to_pylist() == [4]
    with pytest.raises(
        PayloadDecodeError, match="field f: the writer's string cannot be read as the reader's long"
    ):
        decode([_write(w, {"f": "no"})], w, r)


def test_unknown_enum_symbol_takes_the_readers_default_or_fails():
    w = {"type": "enum", "name": "E", "symbols": ["A", "B", "C"]}
    with_default = {"type": "enum", "name": "E", "symbols": ["A", "Z"], "default": "Z"}
    without = {"type": "enum", "name": "E", "symbols": ["A"]}
    payloads = [_write(w, s) for s in "ABC"]
    assert decode(payloads, w, with_default).to_pylist() == ["A", "Z", "Z"]
    assert decode(payloads[:1], w, without).to_pylist() == ["A"]
    with pytest.raises(PayloadDecodeError, match=r"symbol of the writer's E \(B, C\)"):
        decode(payloads, w, without)


def test_field_alias_matches_a_renamed_field():
    w = {"type": "record", "name": "R", "fields": [{"name": "old", "type": "int"}]}
    r = {"type": "record", "name": "R", "fields": [{"name": "new", "type": "int", "aliases": ["old"]}]}
    assert decode([_write(w, {"old": 5})], w, r).to_pylist() == [{"new": 5}]
