"""Protobuf schemas: ``.proto`` text (proto2 and proto3, as registries hold it) and
descriptor sets (``FileDescriptorSet`` bytes, as ``protoc --descriptor_set_out`` writes
them; a registry's base64 ``FileDescriptorProto``) read into one model of messages,
fields and enums, with their type names resolved.

Options are read only where they change decoding (``default``, ``map_entry``); the
rest are skipped.  A schema this module cannot read raises
:class:`~kafkawire.errors.SchemaResolutionError`.
"""

from __future__ import annotations

import base64
import binascii
import codecs
import re
from dataclasses import dataclass, field
from typing import Callable, Dict, Iterator, List, Optional, Sequence, Tuple

from kafkawire.errors import SchemaResolutionError

# the scalar types, by their descriptor.proto number (FieldDescriptorProto.Type)
SCALARS = {
    1: "double",
    2: "float",
    3: "int64",
    4: "uint64",
    5: "int32",
    6: "fixed64",
    7: "fixed32",
    8: "bool",
    9: "string",
    10: "group",
    11: "message",
    12: "bytes",
    13: "uint32",
    14: "enum",
    15: "sfixed32",
    16: "sfixed64",
    17: "sint32",
    18: "sint64",
}
_TYPE_NUMBERS = {v: k for k, v in SCALARS.items()}


@dataclass
class Field:
    """A field: ``type`` is a scalar's name, "message" or "enum" (``type_name`` then
    its full name, without the leading dot); ``label`` "optional", "required" or
    "repeated"; ``presence`` False for proto3's implicit scalars (null when default)."""

    name: str
    number: int
    type: str
    label: str = "optional"
    type_name: str = ""
    oneof: Optional[int] = None
    presence: bool = True
    default: Optional[str] = None
    packed: bool = False  # a repeated number written packed (proto3's default, proto2's [packed = true])


@dataclass
class Message:
    full_name: str
    fields: List[Field] = field(default_factory=list)
    nested: List["Message"] = field(default_factory=list)  # in declaration order: message indexes
    map_entry: bool = False


@dataclass
class Enum:
    full_name: str
    values: List[Tuple[str, int]] = field(default_factory=list)
    closed: bool = False  # proto2's: an unknown number is an unknown field, not a value


@dataclass
class ProtoFile:
    name: str
    package: str
    messages: List[Message]  # the top-level ones, in declaration order
    imports: List[str] = field(default_factory=list)


@dataclass
class Pool:
    """The messages and enums of a set of files, by full name."""

    files: Dict[str, ProtoFile] = field(default_factory=dict)
    messages: Dict[str, Message] = field(default_factory=dict)
    enums: Dict[str, Enum] = field(default_factory=dict)

    def message(self, name: str) -> Message:
        """The message named ``name`` (full name)."""
        try:
            return self.messages[name.lstrip(".")]
        except KeyError:
            raise SchemaResolutionError(f"no message {name!r} in the schema") from None

    def by_indexes(self, file: str, indexes: Sequence[int]) -> Optional[Message]:
        """The message at ``indexes`` of ``file`` (Confluent's message indexes), or None."""
        level = self.files[file].messages
        found: Optional[Message] = None
        for i in indexes:
            if not 0 <= i < len(level):
                return None
            found = level[i]
            level = found.nested
        return found


# -- .proto text ------------------------------------------------------------------------

_TOKEN = re.compile(
    r"""\s+|//[^\n]*|/\*.*?\*/|(?P<tok>"(?:[^"\\\n]|\\.)*"|'(?:[^'\\\n]|\\.)*'|"""
    r"""[A-Za-z_][\w.]*|\.[A-Za-z_][\w.]*|[-+]?(?:0[xX][0-9a-fA-F]+|\d+\.?\d*(?:[eE][-+]?\d+)?|\.\d+)|[^\s\w])""",
    re.S,
)


class _Tokens:
    def __init__(self, text: str, name: str) -> None:
        self.name = name
        self.toks: List[str] = []
        pos = 0
        while pos < len(text):
            m = _TOKEN.match(text, pos)
            if m is None:
                raise SchemaResolutionError(f"{name}: cannot read the .proto text at character {pos}")
            if m.group("tok") is not None:
                self.toks.append(m.group("tok"))
            pos = m.end()
        self.i = 0

    def peek(self) -> str:
        return self.toks[self.i] if self.i < len(self.toks) else ""

    def next(self) -> str:
        if self.i >= len(self.toks):
            raise SchemaResolutionError(f"{self.name}: the .proto text ends early")
        self.i += 1
        return self.toks[self.i - 1]

    def expect(self, tok: str) -> None:
        got = self.next()
        if got != tok:
            raise SchemaResolutionError(f"{self.name}: expected {tok!r}, found {got!r}")

    def skip_statement(self) -> None:
        """Past the next ``;`` or balanced ``{...}`` block at this level."""
        depth = 0
        while True:
            t = self.next()
            if t == "{":
                depth += 1
            elif t == "}":
                depth -= 1
                if depth == 0:
                    return
            elif t == ";" and depth == 0:
                return

    def skip_brackets(self) -> Dict[str, str]:
        """The ``[name = value, ...]`` options after a field (values as their tokens)."""
        options: Dict[str, str] = {}
        if self.peek() != "[":
            return options
        self.next()
        depth = 1
        name: List[str] = []
        while depth:
            t = self.next()
            if t in ("[", "{"):
                depth += 1
            elif t in ("]", "}"):
                depth -= 1
            elif t == "=" and depth == 1:
                value = self.next()
                if value == "-":
                    value += self.next()
                options["".join(name)] = value
                name = []
            elif t != "," and depth == 1:
                name.append(t)
        return options


def _unquote(tok: str) -> str:
    """A string literal's text, its C escapes decoded (other tokens as they are)."""
    if tok[:1] not in "\"'":
        return tok
    return codecs.escape_decode(tok[1:-1].encode("utf-8"))[0].decode("utf-8", "replace")


def _int(tok: str, where: str) -> int:
    try:
        return int(tok, 0)
    except ValueError:
        raise SchemaResolutionError(f"{where}: {tok!r} is not a number") from None


def parse_proto(
    text: str, name: str = "schema.proto"
) -> Tuple[ProtoFile, List[Enum], List[Tuple[Field, str]]]:
    """A .proto file's messages, enums and imports, and its message and enum fields
    with their types as written (``scope|type``, to be resolved in the pool)."""
    t = _Tokens(text, name)
    syntax = "proto2"
    package = ""
    imports: List[str] = []
    top: List[Message] = []
    enums: List[Enum] = []
    unresolved: List[Tuple[Field, str]] = []  # (field, "scope|type as written")

    def read_enum(scope: str) -> None:
        e = Enum(f"{scope}.{t.next()}".lstrip("."), closed=syntax == "proto2")
        t.expect("{")
        while t.peek() != "}":
            tok = t.next()
            if tok in ("option", "reserved"):
                t.i -= 1
                t.skip_statement()
            elif tok == ";":
                continue
            else:
                t.expect("=")
                number = t.next()
                if number == "-":
                    number += t.next()
                e.values.append((tok, _int(number, name)))
                t.skip_brackets()
                t.expect(";")
        t.next()
        if not e.values:
            raise SchemaResolutionError(f"{name}: the enum {e.full_name} has no values")
        enums.append(e)

    def read_field(m: Message, label: str, oneof: Optional[int]) -> None:
        typ = t.next()
        if typ == "map":
            t.expect("<")
            key = t.next()
            t.expect(",")
            value = t.next()
            t.expect(">")
            fname = t.next()
            t.expect("=")
            number = _int(t.next(), name)
            t.skip_brackets()
            t.expect(";")
            entry_name = "".join(p[:1].upper() + p[1:] for p in fname.split("_")) + "Entry"
            entry = Message(f"{m.full_name}.{entry_name}", map_entry=True)
            for fn, ft, num in (("key", key, 1), ("value", value, 2)):
                f = Field(fn, num, ft if ft in _TYPE_NUMBERS else "message", presence=True)
                if ft not in _TYPE_NUMBERS:
                    unresolved.append((f, f"{m.full_name}|{ft}"))
                entry.fields.append(f)
            m.nested.append(entry)
            f = Field(fname, number, "message", "repeated", entry.full_name)
            m.fields.append(f)
            return
        if typ == "group":
            raise SchemaResolutionError(f"{name}: group fields are not supported")
        fname = t.next()
        t.expect("=")
        number = _int(t.next(), name)
        options = t.skip_brackets()
        t.expect(";")
        f = Field(fname, number, typ if typ in _TYPE_NUMBERS else "message", label or "optional", oneof=oneof)
        if typ not in _TYPE_NUMBERS:
            unresolved.append((f, f"{m.full_name}|{typ}"))
        f.packed = options.get("packed", "true" if syntax == "proto3" else "false") == "true"
        if "default" in options:  # a bytes default stays C-escaped, as descriptors hold it
            f.default = options["default"][1:-1] if typ == "bytes" else _unquote(options["default"])
        # proto3: a scalar without a label (and outside a oneof) has no presence
        f.presence = not (syntax == "proto3" and not label and oneof is None)
        if syntax == "proto3" and label == "optional":  # a synthetic oneof of its own
            f.oneof = -1 - len(m.fields)
        m.fields.append(f)

    def read_message(scope: str) -> Message:
        m = Message(f"{scope}.{t.next()}".lstrip("."))
        t.expect("{")
        oneofs = 0
        while True:
            tok = t.next()
            if tok == "}":
                return m
            if tok == ";":
                continue
            if tok == "message":
                m.nested.append(read_message(m.full_name))
            elif tok == "enum":
                read_enum(m.full_name)
            elif tok in ("option", "reserved", "extensions", "extend"):
                t.i -= 1
                t.skip_statement()
            elif tok == "oneof":
                t.next()
                t.expect("{")
                while t.peek() != "}":
                    if t.peek() in ("option",):
                        t.skip_statement()
                    elif t.peek() == ";":
                        t.next()
                    else:
                        read_field(m, "", oneofs)
                t.next()
                oneofs += 1
            elif tok in ("optional", "required", "repeated"):
                read_field(m, tok, None)
            else:
                t.i -= 1
                read_field(m, "", None)

    while t.peek():
        tok = t.next()
        if tok == "syntax":
            t.expect("=")
            syntax = _unquote(t.next())
            t.expect(";")
            if syntax not in ("proto2", "proto3"):
                raise SchemaResolutionError(f"{name}: syntax {syntax!r} is not proto2 or proto3")
        elif tok == "edition":
            raise SchemaResolutionError(f"{name}: protobuf editions are not supported")
        elif tok == "package":
            package = t.next()
            t.expect(";")
        elif tok == "import":
            if t.peek() in ("public", "weak"):
                t.next()
            imports.append(_unquote(t.next()))
            t.expect(";")
        elif tok == "message":
            top.append(read_message(package))
        elif tok == "enum":
            read_enum(package)
        elif tok == ";":
            continue
        else:  # option, service, extend
            t.i -= 1
            t.skip_statement()
    return ProtoFile(name, package, top, imports), enums, unresolved


def _walk(messages: Sequence[Message]) -> Iterator[Message]:
    for m in messages:
        yield m
        yield from _walk(m.nested)


def _resolve(pool: Pool, scope: str, name: str) -> str:
    """The full name ``name`` means in ``scope`` (protobuf's innermost-first rule)."""
    if name.startswith("."):
        return name[1:]
    parts = scope.split(".") if scope else []
    while True:
        candidate = ".".join(parts + [name])
        if candidate in pool.messages or candidate in pool.enums:
            return candidate
        if not parts:
            raise SchemaResolutionError(f"the type {name!r} (used in {scope}) is not defined")
        parts.pop()


def _imports(pool: Pool, pf: ProtoFile, load: Optional[Callable[[str], None]]) -> None:
    """The files ``pf`` imports into ``pool``: by ``load``, else the well-known types."""
    for name in pf.imports:
        if name not in pool.files:
            if load is not None:
                load(name)
            if name not in pool.files and name in WELL_KNOWN:
                add_schema(pool, WELL_KNOWN[name], name)
            if name not in pool.files:
                raise SchemaResolutionError(f"{pf.name}: the import {name!r} is not given")


def _add(pool: Pool, pf: ProtoFile, enums: Sequence[Enum]) -> None:
    pool.files[pf.name] = pf
    for m in _walk(pf.messages):
        pool.messages[m.full_name] = m
    for e in enums:
        pool.enums[e.full_name] = e


# -- descriptors (protobuf-encoded descriptor.proto messages) --------------------------


def _fields_of(data: bytes, what: str) -> Iterator[Tuple[int, object]]:
    """(field number, value) of an encoded message: ints for varints, bytes for the
    length-delimited, skipped otherwise."""
    pos, end = 0, len(data)

    def varint() -> int:
        nonlocal pos
        result = shift = 0
        while True:
            if pos >= end or shift > 63:
                raise SchemaResolutionError(f"a {what} descriptor is truncated or corrupt")
            b = data[pos]
            pos += 1
            result |= (b & 0x7F) << shift
            if not b & 0x80:
                return result
            shift += 7

    while pos < end:
        key = varint()
        wt = key & 7
        if wt == 0:
            yield key >> 3, varint()
        elif wt == 2:
            n = varint()
            if n > end - pos:
                raise SchemaResolutionError(f"a {what} descriptor is truncated")
            yield key >> 3, data[pos : pos + n]
            pos += n
        elif wt in (1, 5):
            pos += 8 if wt == 1 else 4
        else:
            raise SchemaResolutionError(f"a {what} descriptor has wire type {wt}")
    if pos != end:
        raise SchemaResolutionError(f"a {what} descriptor is truncated")


def _text(v: object) -> str:
    assert isinstance(v, bytes)
    return v.decode("utf-8")


def parse_file_descriptor(data: bytes) -> Tuple[ProtoFile, List[Enum]]:
    """A ``FileDescriptorProto``'s messages and enums (type names already full)."""
    name, package, syntax = "", "", "proto2"
    imports: List[str] = []
    raw_messages: List[bytes] = []
    raw_enums: List[bytes] = []
    for num, v in _fields_of(data, "file"):
        if num == 1:
            name = _text(v)
        elif num == 2:
            package = _text(v)
        elif num == 3:
            imports.append(_text(v))
        elif num == 4:
            raw_messages.append(v)  # type: ignore[arg-type]
        elif num == 5:
            raw_enums.append(v)  # type: ignore[arg-type]
        elif num == 12:
            syntax = _text(v)
        elif num == 14:
            raise SchemaResolutionError(f"{name}: protobuf editions are not supported")
    enums: List[Enum] = []

    def enum(raw: bytes, scope: str) -> None:
        e = Enum("", closed=syntax == "proto2")
        for num, v in _fields_of(raw, "enum"):
            if num == 1:
                e.full_name = f"{scope}.{_text(v)}".lstrip(".")
            elif num == 2:
                vname, vnum = "", 0
                for n2, v2 in _fields_of(v, "enum value"):  # type: ignore[arg-type]
                    if n2 == 1:
                        vname = _text(v2)
                    elif n2 == 2:
                        vnum = int(v2) - (1 << 64) if int(v2) >= 1 << 63 else int(v2)  # type: ignore[call-overload]
                e.values.append((vname, vnum))
        enums.append(e)

    def message(raw: bytes, scope: str) -> Message:
        m = Message("")
        for num, v in _fields_of(raw, "message"):
            if num == 1:
                m.full_name = f"{scope}.{_text(v)}".lstrip(".")
        for num, v in _fields_of(raw, "message"):
            if num == 2:
                m.fields.append(field_(v))  # type: ignore[arg-type]
            elif num == 3:
                m.nested.append(message(v, m.full_name))  # type: ignore[arg-type]
            elif num == 4:
                enum(v, m.full_name)  # type: ignore[arg-type]
            elif num == 7:
                for n2, v2 in _fields_of(v, "message options"):  # type: ignore[arg-type]
                    if n2 == 7 and v2:
                        m.map_entry = True
        return m

    def field_(raw: bytes) -> Field:
        f = Field("", 0, "")
        proto3_optional = False
        type_number = 0
        packed: Optional[bool] = None
        for num, v in _fields_of(raw, "field"):
            if num == 1:
                f.name = _text(v)
            elif num == 3:
                f.number = int(v)  # type: ignore[call-overload]
            elif num == 4:
                f.label = {1: "optional", 2: "required", 3: "repeated"}.get(int(v), "optional")  # type: ignore[call-overload]
            elif num == 5:
                type_number = int(v)  # type: ignore[call-overload]
            elif num == 6:
                f.type_name = _text(v).lstrip(".")
            elif num == 7:
                f.default = _text(v)
            elif num == 9:
                f.oneof = int(v)  # type: ignore[call-overload]
            elif num == 8:  # FieldOptions: packed is its field 2
                for n2, v2 in _fields_of(v, "field options"):  # type: ignore[arg-type]
                    if n2 == 2:
                        packed = bool(v2)
            elif num == 17:
                proto3_optional = bool(v)
        if type_number not in SCALARS or type_number == 10:
            raise SchemaResolutionError(f"the field {f.name!r} has type {type_number}, not supported")
        f.type = SCALARS[type_number]
        f.packed = packed if packed is not None else syntax == "proto3"
        if proto3_optional:
            f.oneof = -1 - f.number  # its own presence, as a oneof of one
        f.presence = not (
            syntax == "proto3" and f.label == "optional" and f.oneof is None and f.type != "message"
        )
        return f

    messages = [message(raw, package) for raw in raw_messages]
    for raw in raw_enums:
        enum(raw, package)
    return ProtoFile(name, package, messages, imports), enums


def parse_descriptor_set(data: bytes) -> Pool:
    """A pool of every file in ``FileDescriptorSet`` bytes."""
    pool = Pool()
    for num, v in _fields_of(bytes(data), "file set"):
        if num == 1:
            pf, enums = parse_file_descriptor(v)  # type: ignore[arg-type]
            _add(pool, pf, enums)
    return pool


def add_schema(pool: Pool, text: str, name: str, load: Optional[Callable[[str], None]] = None) -> ProtoFile:
    """A schema into ``pool`` as the file ``name``: .proto text, or the base64
    ``FileDescriptorProto`` some serializers register.  Its imports are added first,
    by ``load(import name)`` (which adds that file), else from the well-known types."""
    if "{" not in text and ";" not in text:
        try:
            raw = base64.b64decode(text, validate=True)
        except (binascii.Error, ValueError):
            raise SchemaResolutionError(f"{name}: neither .proto text nor a base64 descriptor") from None
        pf, enums = parse_file_descriptor(raw)
        pf.name = name
        _imports(pool, pf, load)
        _add(pool, pf, enums)
        return pf
    pf, enums, unresolved = parse_proto(text, name)
    _imports(pool, pf, load)
    _add(pool, pf, enums)
    for f, where in unresolved:
        scope, written = where.split("|", 1)
        f.type_name = _resolve(pool, scope, written)
        f.type = "enum" if f.type_name in pool.enums else "message"
        if f.type == "message":
            f.presence = True  # a message field is present or not, in every syntax
    return pf


# -- the well-known types a schema may import without a reference ------------------------

WELL_KNOWN = {
    "google/protobuf/timestamp.proto": "syntax = 'proto3'; package google.protobuf;"
    " message Timestamp { int64 seconds = 1; int32 nanos = 2; }",
    "google/protobuf/duration.proto": "syntax = 'proto3'; package google.protobuf;"
    " message Duration { int64 seconds = 1; int32 nanos = 2; }",
    "google/protobuf/any.proto": "syntax = 'proto3'; package google.protobuf;"
    " message Any { string type_url = 1; bytes value = 2; }",
    "google/protobuf/empty.proto": "syntax = 'proto3'; package google.protobuf; message Empty {}",
    "google/protobuf/field_mask.proto": "syntax = 'proto3'; package google.protobuf;"
    " message FieldMask { repeated string paths = 1; }",
    "google/protobuf/wrappers.proto": "syntax = 'proto3'; package google.protobuf;"
    + "".join(
        f" message {n}Value {{ {t} value = 1; }}"
        for n, t in (
            ("Double", "double"),
            ("Float", "float"),
            ("Int64", "int64"),
            ("UInt64", "uint64"),
            ("Int32", "int32"),
            ("UInt32", "uint32"),
            ("Bool", "bool"),
            ("String", "string"),
            ("Bytes", "bytes"),
        )
    ),
    "google/protobuf/struct.proto": "syntax = 'proto3'; package google.protobuf;"
    " message Struct { map<string, Value> fields = 1; }"
    " message Value { oneof kind { NullValue null_value = 1; double number_value = 2;"
    " string string_value = 3; bool bool_value = 4; Struct struct_value = 5; ListValue list_value = 6; } }"
    " enum NullValue { NULL_VALUE = 0; }"
    " message ListValue { repeated Value values = 1; }",
}
