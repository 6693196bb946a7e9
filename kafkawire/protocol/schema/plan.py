"""Compile Kafka's JSON message definitions into per-(struct, version) plans.

A *spec* (:class:`StructSpec`, :class:`FieldSpec`) is the parsed definition: every field
with its version ranges, defaults and flags.  A *plan* (:class:`StructPlan`,
:class:`FieldPlan`) is what the codec executors run for one struct at one version:
which fields are on the wire and in what order, each field's wire form as small
integers (kind, element kind, compact, nullable), its slot index in the message class,
the tagged fields in ascending tag order, and the fields this version lacks (their
defaults, and whether writing a non-default value there is an error).

Plans are built on first use and cached on the spec, one per version.  Both backends
execute the very same plan objects; the Cython backend additionally compiles each plan
into a C-level form that it keeps in :attr:`StructPlan.fast`.
"""

from __future__ import annotations

import re
import struct as _struct
import threading
import uuid as _uuid
from typing import Any, Callable, Dict, List, Optional, Tuple

from kafkawire.protocol.schema.versions import VersionRange

# Guards the building of plans (StructSpec.plan), for every struct at once.
_PLAN_LOCK = threading.RLock()

# -- field kinds (the opcodes both executors switch on) ------------------------------

BOOL = 1
INT8 = 2
INT16 = 3
UINT16 = 4
INT32 = 5
UINT32 = 6
INT64 = 7
FLOAT64 = 8
UUID = 9
STRING = 10
BYTES = 11
RECORDS = 12
STRUCT = 13
ARRAY = 14

KIND_NAMES = {
    BOOL: "bool",
    INT8: "int8",
    INT16: "int16",
    UINT16: "uint16",
    INT32: "int32",
    UINT32: "uint32",
    INT64: "int64",
    FLOAT64: "float64",
    UUID: "uuid",
    STRING: "string",
    BYTES: "bytes",
    RECORDS: "records",
    STRUCT: "struct",
    ARRAY: "array",
}
_PRIMITIVE_KINDS = {v: k for k, v in KIND_NAMES.items() if k not in (STRUCT, ARRAY)}

# Fixed wire widths; 0 for variable-length kinds.
WIDTH = {BOOL: 1, INT8: 1, INT16: 2, UINT16: 2, INT32: 4, UINT32: 4, INT64: 8, FLOAT64: 8, UUID: 16}
# struct module codes of the fixed kinds (the pure executor packs runs of them at once).
STRUCT_CODE = {
    BOOL: "?",
    INT8: "b",
    INT16: "h",
    UINT16: "H",
    INT32: "i",
    UINT32: "I",
    INT64: "q",
    FLOAT64: "d",
}
# int32 bounds the wire's sizes, lengths, counts and ids as well as its int32 fields
INT32_MIN, INT32_MAX = -(2**31), 2**31 - 1
INT_RANGE = {
    INT8: (-(2**7), 2**7 - 1),
    INT16: (-(2**15), 2**15 - 1),
    UINT16: (0, 2**16 - 1),
    INT32: (INT32_MIN, INT32_MAX),
    UINT32: (0, 2**32 - 1),
    INT64: (-(2**63), 2**63 - 1),
}

# How "is this value the default?" is decided (tagged fields are written only when it is
# not; a field a version lacks may hold only its default unless ignorable).
DEF_EQ = 0  # value == default
DEF_NONE = 1  # value is None
DEF_EMPTY = 2  # value is not None and len(value) == 0

ZERO_UUID = _uuid.UUID(int=0)


def snake_case(name: str) -> str:
    """Kafka's CamelCase field name in snake_case: ``IsrNodes`` -> ``isr_nodes``."""
    s = re.sub(r"(?<=[a-z0-9])(?=[A-Z])|(?<=[A-Z])(?=[A-Z][a-z])", "_", name)
    return s.lower()


# -- specs -------------------------------------------------------------------------


class FieldSpec:
    """One field of a struct, as the definition states it."""

    __slots__ = (
        "name",
        "attr",
        "type",
        "kind",
        "elem_kind",
        "struct",
        "versions",
        "nullable_versions",
        "tagged_versions",
        "tag",
        "ignorable",
        "flexible_override",
        "raw_default",
        "default_null",
        "index",
    )

    def __init__(self, raw: Dict[str, Any], index: int) -> None:
        self.name: str = raw["name"]
        self.attr: str = snake_case(self.name)
        self.type: str = raw["type"]
        self.index = index
        tagged = raw.get("taggedVersions")
        versions: Any = raw.get("versions", tagged)  # a tagged field may state only taggedVersions
        self.versions = VersionRange.parse(versions)
        self.nullable_versions = VersionRange.parse(raw.get("nullableVersions", "none"))
        self.tagged_versions = VersionRange.parse(tagged) if tagged is not None else VersionRange(1, 0)
        tag = raw.get("tag")  # a few definitions write the tag as a string ("0")
        self.tag: Optional[int] = int(tag) if tag is not None else None
        self.ignorable = bool(raw.get("ignorable", False))
        fv = raw.get("flexibleVersions")
        self.flexible_override = VersionRange.parse(fv) if fv is not None else None
        self.raw_default = raw.get("default")
        # Only the string "null" makes null the default; a JSON null is no default at all
        # (Kafka's generator reads it so: an empty array or struct, 0, "").
        self.default_null = self.raw_default == "null"
        base = self.type[2:] if self.type.startswith("[]") else self.type
        self.struct: Optional[StructSpec] = None
        if self.type.startswith("[]"):
            self.kind = ARRAY
            self.elem_kind = _PRIMITIVE_KINDS.get(base, STRUCT)
        else:
            self.kind = _PRIMITIVE_KINDS.get(base, STRUCT)
            self.elem_kind = 0

    @property
    def struct_name(self) -> Optional[str]:
        base = self.type[2:] if self.type.startswith("[]") else self.type
        return base if base not in _PRIMITIVE_KINDS else None

    # Kafka's default rules ------------------------------------------------------
    def makes_fresh_default(self) -> bool:
        """Whether the default is a new object each time (an array or a struct, not null)."""
        return self.kind in (ARRAY, STRUCT) and not self.default_null

    def default_value(self) -> Tuple[Any, Optional[Callable[[], Any]]]:
        """``(value, factory)``: the default, or a factory making a fresh one (mutable)."""
        d = self.raw_default
        kind = self.kind
        if kind == ARRAY:
            return (None, None) if self.default_null else (None, list)
        if kind == STRUCT:
            if self.default_null:
                return None, None
            assert self.struct is not None  # a struct field always has its struct
            return None, self.struct.default_factory
        if self.default_null and kind in (STRING, BYTES, RECORDS):
            return None, None
        if kind in INT_RANGE:
            if d is None or d == "":
                return 0, None
            return (int(d, 0) if isinstance(d, str) else int(d)), None
        if kind == BOOL:
            return (d is True or (isinstance(d, str) and d.lower() == "true")), None
        if kind == FLOAT64:
            return (float(d) if d not in (None, "") else 0.0), None
        if kind == STRING:
            return ("" if d is None else str(d)), None
        if kind == BYTES:
            return b"", None
        if kind == RECORDS:
            # Kafka's records fields default to null where they may be null.
            return (None if not self.nullable_versions.empty else b""), None
        if kind == UUID:
            return ZERO_UUID, None
        raise AssertionError(kind)

    def default_kind(self) -> int:
        if self.kind in (ARRAY, STRUCT, STRING, BYTES, RECORDS) and self.default_null:
            return DEF_NONE
        if self.kind == ARRAY:
            return DEF_EMPTY
        if self.kind == RECORDS and not self.nullable_versions.empty:
            return DEF_NONE
        if self.kind in (BYTES, RECORDS):
            return DEF_EMPTY
        return DEF_EQ


class StructSpec:
    """A struct of a definition (the top-level message, a nested or a common struct)."""

    def __init__(self, name: str, definition: "DefinitionSpec") -> None:
        self.name = name
        self.definition = definition
        self.fields: List[FieldSpec] = []
        self.cls: Any = None  # the generated message class, set by kafkawire.protocol.messages
        # makes an instance with every default; set with the class (kafkawire.protocol.message_class)
        self.default_factory: Optional[Callable[[], Any]] = None
        self.plans: Dict[int, StructPlan] = {}
        self._default_instance: Any = None

    @property
    def attrs(self) -> Tuple[str, ...]:
        return tuple(f.attr for f in self.fields)

    def default_instance(self) -> Any:
        if self._default_instance is None:
            self._default_instance = self.cls()
        return self._default_instance

    def plan(self, version: int) -> "StructPlan":
        """The plan of this struct at ``version``, built on first use."""
        try:
            return self.plans[version]
        except KeyError:
            pass
        # Other threads read self.plans without the lock, so a plan goes in only once
        # built; the lock is re-entrant because building a plan builds its nested ones.
        with _PLAN_LOCK:
            plan = self.plans.get(version)
            if plan is None:
                plan = StructPlan(self, version)
                plan._build()
                self.plans[version] = plan
        return plan


class DefinitionSpec:
    """One JSON definition: its top-level struct and the structs it declares."""

    def __init__(self, raw: Dict[str, Any]) -> None:
        self.raw = raw
        self.name: str = raw["name"]
        self.type: str = raw["type"]
        self.group: Optional[str] = raw.get("group")
        self.api_key: Optional[int] = raw.get("apiKey")
        self.valid_versions = VersionRange.parse(raw["validVersions"])
        self.flexible_versions = VersionRange.parse(raw.get("flexibleVersions", "none"))
        self.structs: Dict[str, StructSpec] = {}
        self.nested: List[StructSpec] = []  # every struct but the top one, in schema order
        commons = {c["name"]: c for c in raw.get("commonStructs", [])}
        self.top = StructSpec(self.name, self)
        self._fill(self.top, raw.get("fields", []), commons)  # no fields: an API retired ("none")
        for name, common in commons.items():  # declared but perhaps unreferenced
            if name not in self.structs:
                self._declare(name, common["fields"], commons)

    def _declare(
        self, name: str, fields: List[Dict[str, Any]], commons: Dict[str, Dict[str, Any]]
    ) -> StructSpec:
        spec = StructSpec(name, self)
        self.structs[name] = spec
        self.nested.append(spec)
        self._fill(spec, fields, commons)
        return spec

    def _fill(
        self, spec: StructSpec, fields: List[Dict[str, Any]], commons: Dict[str, Dict[str, Any]]
    ) -> None:
        for i, raw in enumerate(fields):
            f = FieldSpec(raw, i)
            sname = f.struct_name
            if sname is not None:
                if sname in self.structs:
                    f.struct = self.structs[sname]
                elif "fields" in raw:
                    f.struct = self._declare(sname, raw["fields"], commons)
                elif sname in commons:
                    f.struct = self._declare(sname, commons[sname]["fields"], commons)
                else:
                    raise ValueError(f"{self.name}: field {f.name} has unknown type {f.type}")
            spec.fields.append(f)


# -- plans -------------------------------------------------------------------------


class FieldPlan:
    """How one field is read and written at one version."""

    __slots__ = (
        "name",
        "attr",
        "slot",
        "kind",
        "elem_kind",
        "compact",
        "nullable",
        "sub",
        "tag",
        "default",
        "factory",
        "defkind",
        "ignorable",
        "width",
    )

    def __init__(self, spec: FieldSpec, version: int, flexible: bool, tagged: bool) -> None:
        self.name = spec.name
        self.attr = spec.attr
        self.slot = spec.index
        self.kind = spec.kind
        self.elem_kind = spec.elem_kind
        if tagged:
            self.compact = True
        elif spec.flexible_override is not None:
            self.compact = version in spec.flexible_override
        else:
            self.compact = flexible
        self.nullable = version in spec.nullable_versions
        self.sub: Optional[StructPlan] = spec.struct.plan(version) if spec.struct is not None else None
        self.tag: int = spec.tag if tagged and spec.tag is not None else -1
        self.default, self.factory = spec.default_value()
        self.defkind = spec.default_kind()
        self.ignorable = spec.ignorable
        self.width = WIDTH.get(self.kind, 0)

    def default_for_decode(self) -> Any:
        return self.factory() if self.factory is not None else self.default

    def is_default(self, value: Any) -> bool:
        """Is ``value`` this field's default (so a tagged field is not written)?"""
        dk = self.defkind
        if dk == DEF_NONE:
            return value is None
        if dk == DEF_EMPTY:
            return value is not None and len(value) == 0
        if self.kind == STRUCT:
            assert self.sub is not None
            return bool(value == self.sub.spec.default_instance())
        return bool(value == self.default)

    def __repr__(self) -> str:
        kind = KIND_NAMES[self.kind]
        if self.kind == ARRAY:
            kind = "[]" + KIND_NAMES[self.elem_kind]
        flags = "".join(["c" if self.compact else "", "?" if self.nullable else ""])
        tag = f" tag={self.tag}" if self.tag >= 0 else ""
        return f"<FieldPlan {self.attr}: {kind}{flags}{tag}>"


class StructPlan:
    """Everything an executor needs to read or write one struct at one version."""

    __slots__ = (
        "spec",
        "cls",
        "version",
        "flexible",
        "fields",
        "tagged",
        "absent",
        "tags",
        "reserved_tags",
        "nslots",
        "min_size",
        "steps",
        "fast",
        "pure",
        "__weakref__",
    )

    def __init__(self, spec: StructSpec, version: int) -> None:
        self.spec = spec
        self.cls = spec.cls
        self.version = version
        self.flexible = version in spec.definition.flexible_versions
        self.fast: Any = None  # the Cython backend's compiled form, made on first use
        self.pure: Any = None  # the pure backend's generated functions, made on first use

    def _build(self) -> None:
        spec, version, flexible = self.spec, self.version, self.flexible
        fields: List[FieldPlan] = []
        tagged: List[FieldPlan] = []
        absent: List[FieldPlan] = []
        for f in spec.fields:
            if version not in f.versions:
                absent.append(FieldPlan(f, version, flexible, False))
            elif version in f.tagged_versions:
                if not flexible:
                    raise ValueError(f"{spec.name}.{f.name}: tagged at non-flexible v{version}")
                tagged.append(FieldPlan(f, version, flexible, True))
            else:
                fields.append(FieldPlan(f, version, flexible, False))
        tagged.sort(key=lambda p: p.tag)
        self.fields = tuple(fields)
        self.tagged = tuple(tagged)
        self.absent = tuple(absent)
        self.tags = frozenset(p.tag for p in tagged)
        # Every tag the struct defines at any version: Kafka refuses one at a version
        # where its field is not tagged, so such a tag is never an unknown field.
        self.reserved_tags = frozenset(f.tag for f in spec.fields if f.tag is not None)
        self.nslots = len(spec.fields)
        self.min_size = sum(_min_size(p) for p in fields) + (1 if flexible else 0)
        self.steps = _group_steps(self.fields)

    def __repr__(self) -> str:
        return f"<StructPlan {self.spec.name} v{self.version} {list(self.fields)} tagged={list(self.tagged)}>"


def _min_size(p: FieldPlan) -> int:
    if p.width:
        return p.width
    if p.kind in (STRING,):
        return 1 if p.compact else 2
    if p.kind in (BYTES, RECORDS, ARRAY):
        return 1 if p.compact else 4
    if p.kind == STRUCT:
        assert p.sub is not None
        return 1 if p.nullable else p.sub.min_size
    raise AssertionError(p.kind)


def _group_steps(fields: Tuple[FieldPlan, ...]) -> Tuple[Any, ...]:
    """Runs of fixed-width fields as one ``struct.Struct`` each (for the pure executor).

    Each step is ``(struct.Struct, (FieldPlan, ...))`` for a run of fixed-width numbers
    or ``(None, FieldPlan)`` for anything else.
    """
    steps: List[Any] = []
    run: List[FieldPlan] = []

    def flush() -> None:
        if run:
            fmt = ">" + "".join(STRUCT_CODE[p.kind] for p in run)
            steps.append((_struct.Struct(fmt), tuple(run)))
            run.clear()

    for p in fields:
        if p.kind in STRUCT_CODE:
            run.append(p)
        else:
            flush()
            steps.append((None, p))
    flush()
    return tuple(steps)
