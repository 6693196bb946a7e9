"""The base of every generated message class, and the class factory.

A message class has one ``__slots__`` entry per schema field (Kafka's name in
snake_case, in schema order) plus ``_unknown_tagged`` (None, or a tuple of
``(tag, bytes)`` pairs: tagged fields this version of kafkawire does not know, kept
byte for byte and written back in ascending tag order).  Objects know nothing of
versions until they are encoded.
"""

from __future__ import annotations

import base64
import uuid as _uuid
from typing import TYPE_CHECKING, Any, Callable, ClassVar, Dict, Optional, Self, Tuple

from kafkawire import _backend
from kafkawire.errors import EncodeError, UnsupportedVersionError
from kafkawire.protocol.schema import plan as _p
from kafkawire.protocol.schema.plan import DefinitionSpec, FieldSpec, StructPlan, StructSpec
from kafkawire.protocol.schema.versions import VersionRange

if TYPE_CHECKING:  # a type checker reads the pure twin; at run time the active backend's plan executor
    import inspect

    from kafkawire._backend_interfaces import CodecBackend
    from kafkawire._pure import codec as _pure_codec
    from kafkawire._pure.codec import decode as _decode
    from kafkawire._pure.codec import decode_from as _decode_from
    from kafkawire._pure.codec import encode as _encode
    from kafkawire._pure.codec import size as _size

    _PURE_IS_A_BACKEND: CodecBackend = _pure_codec  # what implementation("codec") promises
else:
    _backend.bind(globals(), "codec", ("encode", "size", "decode", "decode_from"), prefix="_")


def _repr_value(v: Any) -> str:
    if isinstance(v, (bytes, bytearray, memoryview)):
        n = memoryview(v).nbytes
        if n > 32:
            return f"<{type(v).__name__} of {n} bytes>"
        return repr(bytes(v)) if not isinstance(v, bytes) else repr(v)
    return repr(v)


def _b64(v: Any) -> str:
    return base64.b64encode(bytes(v)).decode("ascii")


def _value_to_json(f: FieldSpec, v: Any) -> Any:
    if v is None:
        return None
    kind = f.kind
    if kind == _p.ARRAY:
        ek = f.elem_kind
        if ek == _p.STRUCT:
            return [item.to_dict() for item in v]
        if ek == _p.UUID:
            return [str(u) for u in v]
        return list(v)
    if kind == _p.STRUCT:
        return v.to_dict()
    if kind == _p.UUID:
        return str(v)
    if kind in (_p.BYTES, _p.RECORDS):
        return _b64(v)
    return v


def _value_from_json(f: FieldSpec, v: Any) -> Any:
    if v is None:
        return None
    kind = f.kind
    if kind == _p.ARRAY:
        ek = f.elem_kind
        if ek == _p.STRUCT:
            assert f.struct is not None  # a struct field always has its struct
            cls = f.struct.cls
            return [cls.from_dict(item) for item in v]
        if ek == _p.UUID:
            return [_uuid.UUID(u) for u in v]
        return list(v)
    if kind == _p.STRUCT:
        assert f.struct is not None
        return f.struct.cls.from_dict(v)
    if kind == _p.UUID:
        return _uuid.UUID(v)
    if kind in (_p.BYTES, _p.RECORDS):
        return base64.b64decode(v)
    return v


class Struct:
    """A Kafka struct: a message, a header, or a struct nested in one."""

    __slots__ = ("_unknown_tagged",)
    _unknown_tagged: Optional[Tuple[Tuple[int, bytes], ...]]

    _spec: StructSpec
    _plans: Dict[int, StructPlan]
    _attrs: Tuple[str, ...] = ()
    _defaults: Tuple[Tuple[str, Any, Any], ...] = ()
    # (attr, struct class, is an array) of every field holding structs
    _nested: Tuple[Tuple[str, type, bool], ...] = ()
    #: The versions this struct's definition may be written at.
    valid_versions: ClassVar[VersionRange]
    #: The versions at which this struct's definition uses the compact, tagged encoding.
    flexible_versions: ClassVar[VersionRange]

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        if not args and not kwargs:
            setter = object.__setattr__
            for attr, value, factory in self._defaults:
                setter(self, attr, factory() if factory is not None else value)
            setter(self, "_unknown_tagged", None)
            return
        if len(args) > len(self._attrs):
            raise TypeError(f"{type(self).__name__} takes at most {len(self._attrs)} positional arguments")
        for attr, value in zip(self._attrs, args):
            if attr in kwargs:
                raise TypeError(f"{type(self).__name__}: {attr} given twice")
            kwargs[attr] = value
        for attr, cls, many in self._nested:
            if attr in kwargs:
                kwargs[attr] = _nested_value(type(self), attr, cls, many, kwargs[attr])
        setter = object.__setattr__
        for attr, value, factory in self._defaults:
            if attr in kwargs:
                setter(self, attr, kwargs.pop(attr))
            else:
                setter(self, attr, factory() if factory is not None else value)
        setter(self, "_unknown_tagged", kwargs.pop("_unknown_tagged", None))
        if kwargs:
            raise TypeError(
                f"{type(self).__name__} has no field {sorted(kwargs)[0]!r}; "
                f"its fields are {', '.join(self._attrs) or '(none)'}"
            )

    # -- value semantics ------------------------------------------------------------
    def __eq__(self, other: Any) -> bool:
        if type(other) is not type(self):
            return NotImplemented
        getter = object.__getattribute__
        for attr in self._attrs:
            if getter(self, attr) != getter(other, attr):
                return False
        return (self._unknown_tagged or None) == (other._unknown_tagged or None)

    def __ne__(self, other: Any) -> bool:
        eq = self.__eq__(other)
        return eq if eq is NotImplemented else not eq

    __hash__ = None  # type: ignore[assignment]  # mutable, compared by value

    def __repr__(self) -> str:
        parts = []
        for attr in self._attrs:
            try:
                parts.append(f"{attr}={_repr_value(object.__getattribute__(self, attr))}")
            except AttributeError:
                parts.append(f"{attr}=<unset>")
        if self._unknown_tagged:
            parts.append(f"_unknown_tagged={self._unknown_tagged!r}")
        return f"{type(self).__qualname__}({', '.join(parts)})"

    def __copy__(self) -> Self:
        new = type(self).__new__(type(self))
        for attr in self._attrs + ("_unknown_tagged",):
            object.__setattr__(new, attr, object.__getattribute__(self, attr))
        return new

    def __reduce__(self) -> Tuple[Any, ...]:
        return (
            _rebuild,
            (type(self), tuple(object.__getattribute__(self, a) for a in self._attrs), self._unknown_tagged),
        )

    # -- dicts ----------------------------------------------------------------------
    def to_dict(self) -> Dict[str, Any]:
        """A JSON-safe dict of this struct: bytes as base64, UUIDs as strings."""
        out: Dict[str, Any] = {}
        for f in self._spec.fields:
            out[f.attr] = _value_to_json(f, object.__getattribute__(self, f.attr))
        if self._unknown_tagged:
            out["_unknown_tagged_fields"] = [
                {"tag": tag, "data": _b64(data)} for tag, data in self._unknown_tagged
            ]
        return out

    @classmethod
    def from_dict(cls, data: Dict[str, Any]) -> Self:
        """The inverse of :meth:`to_dict`; missing fields take their defaults."""
        kwargs: Dict[str, Any] = {}
        by_attr = {f.attr: f for f in cls._spec.fields}
        for key, value in data.items():
            if key == "_unknown_tagged_fields":
                kwargs["_unknown_tagged"] = (
                    tuple((int(item["tag"]), base64.b64decode(item["data"])) for item in value) or None
                )
                continue
            f = by_attr.get(key)
            if f is None:
                raise TypeError(f"{cls.__name__} has no field {key!r}")
            kwargs[key] = _value_from_json(f, value)
        return cls(**kwargs)

    # -- wire -----------------------------------------------------------------------
    @classmethod
    def plan(cls, version: int) -> StructPlan:
        """The compiled plan of this struct at ``version`` (cached)."""
        try:
            return cls._plans[version]
        except (KeyError, TypeError):
            pass
        if type(version) is not int or version not in cls.valid_versions:
            raise UnsupportedVersionError(
                f"{cls.__qualname__} has no version {version!r} (valid: {cls.valid_versions})"
            )
        return cls._spec.plan(version)

    def encode(self, version: int) -> bytes:
        """The bytes of this struct at ``version`` (no size prefix, no header)."""
        return _encode(type(self).plan(version), self)

    def size(self, version: int) -> int:
        """Exactly ``len(self.encode(version))``, computed without encoding."""
        return _size(type(self).plan(version), self)

    @classmethod
    def decode(cls, buf: Any, version: int) -> Self:
        """Decode ``buf`` (any bytes-like object, filled exactly) at ``version``.

        ``records`` fields are memoryviews into ``buf`` (zero copy).
        """
        obj: Self = _decode(cls.plan(version), buf)
        return obj

    @classmethod
    def decode_from(cls, buf: Any, version: int, offset: int = 0) -> Tuple[Self, int]:
        """Decode one struct at ``offset``; returns ``(object, offset after it)``."""
        found: Tuple[Self, int] = _decode_from(cls.plan(version), buf, offset)
        return found


def _nested_value(owner: type, attr: str, cls: type, many: bool, value: Any) -> Any:
    """A struct field's value as given to the constructor, with each dict made into the
    struct it describes (``topics=[{"name": "t"}]``); any other non-struct value is an
    error now rather than when the message is encoded."""
    if value is None:
        return None
    if not many:
        if isinstance(value, cls):
            return value
        if isinstance(value, dict):
            return cls(**value)
        raise EncodeError(
            f"{owner.__qualname__}.{attr}: expected {cls.__qualname__} or a dict "
            f"of its fields, got {type(value).__name__}"
        )
    if not isinstance(value, (list, tuple)):
        raise EncodeError(
            f"{owner.__qualname__}.{attr}: expected a list of {cls.__qualname__}, got {type(value).__name__}"
        )
    if all(type(item) is cls for item in value):
        return value  # the common case: kept as given, not copied
    out = []
    for i, item in enumerate(value):
        if isinstance(item, dict):
            item = cls(**item)
        elif not isinstance(item, cls):
            raise EncodeError(
                f"{owner.__qualname__}.{attr}[{i}]: expected {cls.__qualname__} "
                f"or a dict of its fields, got {type(item).__name__}"
            )
        out.append(item)
    return out


def _new_default(cls: type[Struct]) -> Struct:
    """A new object of ``cls`` holding every default (what ``cls()`` makes, faster)."""
    obj = object.__new__(cls)
    setter = object.__setattr__
    for attr, value, factory in cls._defaults:
        setter(obj, attr, factory() if factory is not None else value)
    setter(obj, "_unknown_tagged", None)
    return obj


def _rebuild(
    cls: type[Struct], values: Tuple[Any, ...], unknown: Optional[Tuple[Tuple[int, bytes], ...]]
) -> Struct:
    obj = cls.__new__(cls)
    for attr, value in zip(cls._attrs, values):
        object.__setattr__(obj, attr, value)
    object.__setattr__(obj, "_unknown_tagged", unknown)
    return obj


def _default_of(value: Any, factory: Any) -> Any:
    return factory() if factory is not None else value


def _field_line(spec_field: Any, default: Any) -> str:
    f = spec_field
    facts = [f.type, f"versions {f.versions}"]
    if str(f.nullable_versions) != "none":
        facts.append(f"nullable {f.nullable_versions}")
    if str(f.tagged_versions) != "none":
        facts.append(f"tagged {f.tagged_versions}, tag {f.tag}")
    facts.append(f"default {default!r}")
    return f"    {f.attr}: {', '.join(facts)}"


class _Doc:
    """A generated class's docstring, with a line per field (type, versions, nullability,
    default), written when first read (``help()``, pydoc): most classes never are."""

    def __init__(self, head: str) -> None:
        self.head = head

    def __get__(self, obj: Any, cls: Any = None) -> str:
        cls = cls if cls is not None else type(obj)
        defaults = {attr: _default_of(value, factory) for attr, value, factory in cls._defaults}
        lines = [self.head, "", "Fields (keyword arguments; a field not given takes its default):"]
        lines += [_field_line(f, defaults.get(f.attr)) for f in cls._spec.fields]
        return "\n".join(lines)


class _Signature:
    """``inspect.signature`` of a generated class: its fields with their defaults (the
    ``__init__`` takes ``*args, **kwargs`` to stay fast), made when first asked for."""

    def __get__(self, obj: Any, cls: Any = None) -> "inspect.Signature":
        import inspect

        cls = cls if cls is not None else type(obj)
        P = inspect.Parameter
        params = [
            P(attr, P.POSITIONAL_OR_KEYWORD, default=_default_of(value, factory))
            for attr, value, factory in cls._defaults
        ]
        params.append(P("_unknown_tagged", P.KEYWORD_ONLY, default=None))
        return inspect.Signature(params)


class Message(Struct):
    """A top-level definition: a request, a response, a header or a stored record."""

    __slots__ = ()
    #: The API key (requests/responses) or record type (KRaft metadata records), else None.
    api_key: ClassVar[Optional[int]] = None
    #: "request", "response", "header", "data" or "metadata", as the definition says.
    kind: ClassVar[str] = ""


def make_classes(definition: DefinitionSpec, module: str) -> type:
    """Create the class of ``definition`` and of every struct it declares.

    Nested struct classes hang off the top-level class by their schema names
    (``MetadataResponse.MetadataResponseTopic``).
    """
    top_name = definition.name

    def build(spec: StructSpec, base: type, qualname: str, extra: Dict[str, Any]) -> type:
        attrs = spec.attrs
        ns: Dict[str, Any] = {
            "__slots__": attrs,
            "__module__": module,
            "__qualname__": qualname,
            "__doc__": _Doc(
                f"Kafka's {spec.name} ({definition.name}, versions {definition.valid_versions})."
            ),
            "__signature__": _Signature(),
            "_spec": spec,
            "_plans": spec.plans,
            "_attrs": attrs,
        }
        for key, value in extra.items():
            if key not in attrs:
                ns[key] = value
        cls = type(spec.name, (base,), ns)
        spec.cls = cls
        return cls

    common = {"valid_versions": definition.valid_versions, "flexible_versions": definition.flexible_versions}
    top = build(
        definition.top, Message, top_name, dict(common, api_key=definition.api_key, kind=definition.type)
    )
    for spec in definition.nested:
        nested = build(spec, Struct, f"{top_name}.{spec.name}", common)
        if spec.name not in top.__dict__:
            setattr(top, spec.name, nested)
    # Defaults need every class of the definition to exist (struct defaults are instances).
    specs = [definition.top] + definition.nested
    envs = []
    for spec in specs:
        maker, env = _default_maker(spec)
        spec.default_factory = maker
        envs.append(env)
    for spec, env in zip(specs, envs):
        spec.cls._defaults = tuple((f.attr,) + f.default_value() for f in spec.fields)
        spec.cls._nested = tuple(
            (f.attr, f.struct.cls, f.kind == _p.ARRAY)  # type: ignore[union-attr]
            for f in spec.fields
            if f.kind == _p.STRUCT or (f.kind == _p.ARRAY and f.elem_kind == _p.STRUCT)
        )
        for i, (_attr, value, factory) in enumerate(spec.cls._defaults):
            env[f"D{i}"] = value
            env[f"F{i}"] = factory
    return top


def _default_maker(spec: StructSpec) -> Tuple[Callable[[], Any], Dict[str, Any]]:
    """A generated function making what ``spec.cls()`` makes (every default), without
    the loop over ``_defaults``: decoders call it for each absent struct field.  Its
    values and factories are filled into the returned namespace once they all exist."""
    import keyword

    env: Dict[str, Any] = {"new": object.__new__, "set": object.__setattr__, "cls": spec.cls}
    lines = ["def make():", "    o = new(cls)"]
    for i, f in enumerate(spec.fields):
        value = f"F{i}()" if f.makes_fresh_default() else f"D{i}"
        if f.attr.isidentifier() and not keyword.iskeyword(f.attr):
            lines.append(f"    o.{f.attr} = {value}")
        else:
            lines.append(f"    set(o, {f.attr!r}, {value})")
    lines += ["    o._unknown_tagged = None", "    return o"]
    exec(compile("\n".join(lines) + "\n", f"<kafkawire default {spec.name}>", "exec"), env)
    return env["make"], env
