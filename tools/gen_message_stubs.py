"""Write kafkawire/protocol/messages.pyi: what a type checker knows of every generated message class.

``kafkawire.protocol.messages`` makes its classes from the JSON schema on first use, so a type
checker cannot see them; this stub declares each one (every definition and every struct
it declares, nested under its top-level class as at run time) with its fields and their
Python types, its constructor, and its ``api_key`` and ``kind``.  Run it after any change
to ``kafkawire/protocol/schema/data``:

    python tools/gen_message_stubs.py          # rewrite the stub
    python tools/gen_message_stubs.py --check  # exit 1 if it is stale (the test suite does this)
"""

from __future__ import annotations

import os
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
TARGET = ROOT / "kafkawire" / "protocol" / "messages.pyi"

HEADER = '''\
"""Types of kafkawire.protocol.messages (generated from the schema, do not edit).

Written by tools/gen_message_stubs.py; the test suite fails when it no longer matches
the schema.
"""

import uuid
from collections.abc import Iterable, Mapping, Sequence
from typing import Any, ClassVar, Literal, overload

from kafkawire.protocol.message_class import Message as Message
from kafkawire.protocol.message_class import Struct as Struct
from kafkawire.protocol.schema.plan import DefinitionSpec
from kafkawire.protocol.schema.versions import VersionRange

_Bytes = bytes | bytearray | memoryview

CLASSES: Mapping[str, type[Message]]
SPECS: Mapping[str, DefinitionSpec]

def metadata_record_class(record_type: int) -> type[Message]: ...
def remote_log_metadata_record_class(record_type: int) -> type[Message]: ...
def api_keys() -> tuple[int, ...]: ...
def supported_versions(api_key: int) -> VersionRange: ...
def negotiate_versions(
    api_versions: Message | Iterable[Any], ours: Mapping[int, VersionRange] | None = None
) -> dict[int, int]: ...
def negotiate_version(
    api_versions: Message | Iterable[Any], api_key: int, ours: VersionRange | None = None
) -> int: ...
'''


def _scalar(kind: int) -> str:
    from kafkawire.protocol.schema import plan as p

    return {
        p.BOOL: "bool", p.INT8: "int", p.INT16: "int", p.UINT16: "int", p.INT32: "int",
        p.UINT32: "int", p.INT64: "int", p.FLOAT64: "float", p.UUID: "uuid.UUID",
        p.STRING: "str", p.BYTES: "bytes", p.RECORDS: "_Bytes",
    }[kind]  # fmt: skip


def _types(field, owner: str) -> tuple[str, str]:
    """(attribute type, constructor argument type) of a field."""
    from kafkawire.protocol.schema import plan as p

    value, _factory = field.default_value()
    optional = not field.nullable_versions.empty or (value is None and not field.makes_fresh_default())
    if field.kind == p.ARRAY:
        if field.elem_kind == p.STRUCT:
            elem = f"{owner}.{field.struct.name}"
            attr, arg = f"list[{elem}]", f"Sequence[{elem} | dict[str, Any]]"
        else:
            elem = _scalar(field.elem_kind)
            attr, arg = f"list[{elem}]", f"Sequence[{elem}]"
    elif field.kind == p.STRUCT:
        attr = f"{owner}.{field.struct.name}"
        arg = f"{attr} | dict[str, Any]"
    elif field.kind == p.BYTES:
        attr, arg = "bytes", "_Bytes"
    else:
        attr = arg = _scalar(field.kind)
    if optional:
        attr, arg = f"{attr} | None", f"{arg} | None"
    return attr, arg


def _struct_lines(spec, owner: str, indent: str, top: bool) -> list[str]:
    from kafkawire.protocol.message_class import Message, Struct

    base = Message if top else Struct
    definition = spec.definition
    lines = [f"{indent}class {spec.name}({base.__name__}):"]
    body = indent + "    "
    if top:
        what = definition.type + ("" if definition.api_key is None else f" {definition.api_key}")
        lines.append(f'{body}"""Kafka\'s {spec.name} ({what}, versions {definition.valid_versions})."""')
    else:
        lines.append(f'{body}"""A struct of Kafka\'s {definition.name}."""')
    if top:
        key = "None" if definition.api_key is None else f"Literal[{definition.api_key}]"
        lines.append(f"{body}api_key: ClassVar[{key}]")
        lines.append(f"{body}kind: ClassVar[Literal[{definition.type!r}]]")
    params = []
    for field in spec.fields:
        attr, arg = _types(field, owner)
        # A field named like a method of the base class shadows it at run time.
        clash = "  # type: ignore[assignment]" if hasattr(base, field.attr) else ""
        lines.append(f"{body}{field.attr}: {attr}{clash}")
        params.append(f"{body}    {field.attr}: {arg} = ...,")
    params.append(f"{body}    _unknown_tagged: tuple[tuple[int, bytes], ...] | None = ...,")
    lines += [f"{body}def __init__(", f"{body}    self,", *params, f"{body}) -> None: ..."]
    return lines


def render() -> str:
    """The text of messages.pyi for the schema of the kafkawire that is imported."""
    from kafkawire.protocol.schema import load_definition
    from kafkawire.protocol.schema.catalog import CATALOG
    from kafkawire.protocol.schema.plan import DefinitionSpec

    out = [HEADER]
    requests, responses = [], []
    for name in CATALOG:
        definition = DefinitionSpec(load_definition(name))
        lines = _struct_lines(definition.top, name, "", top=True)
        attrs = set(definition.top.attrs)
        for spec in definition.nested:
            if spec.name not in attrs:  # as kafkawire.protocol.message_class.make_classes hangs them
                lines += _struct_lines(spec, name, "    ", top=False)
        out.append("\n".join(lines) + "\n")
        if definition.type == "request":
            requests.append((definition.api_key, name))
        elif definition.type == "response":
            responses.append((definition.api_key, name))
    for func, pairs in (("request_class", requests), ("response_class", responses)):
        lines = []
        for key, name in sorted(pairs):
            lines += ["@overload", f"def {func}(api_key: Literal[{key}]) -> type[{name}]: ..."]
        lines += ["@overload", f"def {func}(api_key: int) -> type[Message]: ..."]
        out.append("\n".join(lines) + "\n")
    names = sorted(CATALOG) + [
        "CLASSES", "SPECS", "Message", "Struct", "api_keys", "metadata_record_class",
        "negotiate_version", "negotiate_versions", "remote_log_metadata_record_class",
        "request_class", "response_class",
        "supported_versions",
    ]  # fmt: skip
    out.append("__all__ = [\n" + "".join(f"    {n!r},\n" for n in names) + "]\n")
    return "\n".join(out)


def main(argv: list[str]) -> int:
    sys.path.insert(0, str(ROOT))  # the kafkawire of this checkout
    os.environ.setdefault("KAFKAWIRE_NO_EXTENSIONS", "1")  # the schema is all it reads
    from _generated import write_or_check  # beside this script

    return write_or_check(TARGET, render(), argv, "gen_message_stubs.py")


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
