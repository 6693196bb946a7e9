"""A class for every Kafka definition, generated from the schema on first use.

Every request and response (API keys 0-87), the two headers, the embedded payloads of
``data/``, the ``__consumer_offsets``/``__transaction_state``/``__share_group_state``
records of ``coordinator/``, the KRaft records of ``metadata/`` and ``raft/`` and the
``__remote_log_metadata`` records of ``remote/`` is a
module attribute by its Kafka name (``kafkawire.protocol.messages.MetadataRequest``).  Nested
structs hang off their message class by their schema names
(``MetadataResponse.MetadataResponseTopic``).

A class is made from its JSON definition the first time it is asked for (an attribute
of this module, ``CLASSES``, ``request_class`` ...), so an import reads no definition
but the headers'; the generated ``schema/catalog.py`` names them all beforehand.

>>> from kafkawire.protocol.messages import MetadataRequest
>>> req = MetadataRequest(topics=None)
>>> MetadataRequest.decode(req.encode(12), 12) == req  # null topics (all) from v1 on
True

Field values: ints for the integer types, ``float`` for float64, ``bool``, ``str`` (or
None where nullable), ``bytes`` (any bytes-like on encode), ``uuid.UUID``, lists for
arrays, nested struct objects; ``records`` fields decode as memoryviews into the input.
"""

from __future__ import annotations

import threading
from typing import Any, Callable, Dict, Iterable, Iterator, List, Mapping, Optional, Tuple, Type, TypeVar

from kafkawire.protocol.message_class import Message, Struct, make_classes
from kafkawire.errors import UnknownApiError, UnsupportedVersionError
from kafkawire.protocol.schema import load_definition
from kafkawire.protocol.schema.catalog import CATALOG
from kafkawire.protocol.schema.plan import DefinitionSpec
from kafkawire.protocol.schema.versions import VersionRange

_built: Dict[str, Type[Message]] = {}
# Two threads asking for the same class first must get the same class object.
_build_lock = threading.Lock()


def _class(name: str) -> Type[Message]:
    """The class of definition ``name``, made from its JSON file on first use."""
    try:
        return _built[name]
    except KeyError:
        pass
    if name not in CATALOG:
        raise KeyError(name)
    with _build_lock:
        cls = _built.get(name)
        if cls is None:
            cls = make_classes(DefinitionSpec(load_definition(name)), __name__)
            globals()[name] = cls  # later lookups skip __getattr__
            _built[name] = cls
    return cls


V = TypeVar("V")


class _LazyByName(Mapping[str, V]):
    """A read-only mapping over every definition name whose values are made on first use."""

    def __init__(self, value: Callable[[str], V]) -> None:
        self._value = value

    def __getitem__(self, name: str) -> V:
        if not isinstance(name, str) or name not in CATALOG:
            raise KeyError(name)
        return self._value(name)

    def __contains__(self, name: object) -> bool:
        return name in CATALOG

    def __iter__(self) -> Iterator[str]:
        return iter(CATALOG)

    def __len__(self) -> int:
        return len(CATALOG)

    def __repr__(self) -> str:
        return f"<{len(CATALOG)} Kafka definitions, {len(_built)} built>"


#: Every top-level class by Kafka name (each made on first access).
CLASSES: Mapping[str, Type[Message]] = _LazyByName(_class)
#: Every parsed definition by Kafka name (each made on first access).
SPECS: Mapping[str, DefinitionSpec] = _LazyByName(lambda name: _class(name)._spec.definition)


def _names_by_key(kind: str, group: Optional[str] = None) -> Dict[int, str]:
    return {
        entry.api_key: name
        for name, entry in CATALOG.items()
        if entry.type == kind and (group is None or entry.group == group)
    }


_REQUESTS = _names_by_key("request")
_RESPONSES = _names_by_key("response")
# two numberings of "metadata" records: KRaft's and the remote log metadata topic's
_METADATA_RECORDS = _names_by_key("metadata", "metadata")
_REMOTE_LOG_METADATA_RECORDS = _names_by_key("metadata", "remote")


def __getattr__(name: str) -> Any:
    if name in CATALOG:
        return _class(name)
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


def __dir__() -> List[str]:
    return sorted(set(globals()) | set(CATALOG))


def request_class(api_key: int) -> Type[Message]:
    """The request class of ``api_key`` (``request_class(3) is MetadataRequest``)."""
    try:
        name = _REQUESTS[api_key]
    except (KeyError, TypeError):
        raise UnknownApiError(f"no request is defined for API key {api_key!r}") from None
    return _class(name)


def response_class(api_key: int) -> Type[Message]:
    """The response class of ``api_key``."""
    try:
        name = _RESPONSES[api_key]
    except (KeyError, TypeError):
        raise UnknownApiError(f"no response is defined for API key {api_key!r}") from None
    return _class(name)


def metadata_record_class(record_type: int) -> Type[Message]:
    """The KRaft ``__cluster_metadata`` record class of ``record_type`` (its apiKey)."""
    try:
        name = _METADATA_RECORDS[record_type]
    except (KeyError, TypeError):
        raise UnknownApiError(f"no metadata record has type {record_type!r}") from None
    return _class(name)


def remote_log_metadata_record_class(record_type: int) -> Type[Message]:
    """The ``__remote_log_metadata`` record class of ``record_type`` (its apiKey)."""
    try:
        name = _REMOTE_LOG_METADATA_RECORDS[record_type]
    except (KeyError, TypeError):
        raise UnknownApiError(f"no remote log metadata record has type {record_type!r}") from None
    return _class(name)


def api_keys() -> Tuple[int, ...]:
    """Every API key kafkawire defines, ascending."""
    return tuple(sorted(_REQUESTS))


def supported_versions(api_key: int) -> VersionRange:
    """The versions kafkawire can write and read for ``api_key`` (request and response)."""
    return request_class(api_key).valid_versions.intersect(response_class(api_key).valid_versions)


def negotiate_versions(
    api_versions: "Message | Iterable", ours: Optional[Mapping[int, VersionRange]] = None
) -> Dict[int, int]:
    """Per API key, the highest version both sides support.

    ``api_versions`` is an ``ApiVersionsResponse`` (or its ``api_keys`` list: objects
    with ``api_key``, ``min_version`` and ``max_version``).  ``ours`` optionally narrows
    our side (API key -> VersionRange); by default every version kafkawire knows.
    APIs unknown to us, or with no version in common, are left out.
    """
    entries = getattr(api_versions, "api_keys", api_versions)
    out: Dict[int, int] = {}
    for entry in entries:
        key = entry.api_key
        if ours is not None:
            if key not in ours:
                continue
            mine = ours[key]
        else:
            if key not in _REQUESTS or key not in _RESPONSES:
                continue
            mine = supported_versions(key)
        common = mine.intersect(VersionRange(entry.min_version, entry.max_version))
        if not common.empty:
            out[key] = common.highest
    return out


def negotiate_version(
    api_versions: "Message | Iterable", api_key: int, ours: Optional[VersionRange] = None
) -> int:
    """The highest version of ``api_key`` both sides support; raises
    :class:`~kafkawire.errors.UnsupportedVersionError` when there is none."""
    mine = ours if ours is not None else supported_versions(api_key)
    found = negotiate_versions(api_versions, {api_key: mine})
    if api_key not in found:
        raise UnsupportedVersionError(f"no version of API key {api_key} is supported by both sides")
    return found[api_key]


__all__ = sorted(CATALOG) + [
    "CLASSES",
    "SPECS",
    "Message",
    "Struct",
    "api_keys",
    "metadata_record_class",
    "negotiate_version",
    "negotiate_versions",
    "remote_log_metadata_record_class",
    "request_class",
    "response_class",
    "supported_versions",
]
