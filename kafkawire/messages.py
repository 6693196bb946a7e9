"""A class for every Kafka definition, generated from the schema at import.

Every request and response (API keys 0-87), the two headers, the embedded payloads of
``data/``, the ``__consumer_offsets``/``__transaction_state``/``__share_group_state``
records of ``coordinator/`` and the KRaft records of ``metadata/`` and ``raft/`` is a
module attribute by its Kafka name (``kafkawire.messages.MetadataRequest``).  Nested
structs hang off their message class by their schema names
(``MetadataResponse.MetadataResponseTopic``).

>>> from kafkawire.messages import MetadataRequest
>>> req = MetadataRequest(topics=None)
>>> MetadataRequest.decode(req.encode(0), 0) == req
True

Field values: ints for the integer types, ``float`` for float64, ``bool``, ``str`` (or
None where nullable), ``bytes`` (any bytes-like on encode), ``uuid.UUID``, lists for
arrays, nested struct objects; ``records`` fields decode as memoryviews into the input.
"""
from __future__ import annotations

from typing import Dict, Iterable, Mapping, Optional, Tuple, Type

from kafkawire._struct import Message, Struct, make_classes
from kafkawire.errors import UnknownApiError, UnsupportedVersionError
from kafkawire.schema import definitions as _raw_definitions
from kafkawire.schema.plan import DefinitionSpec, load_definitions
from kafkawire.schema.versions import VersionRange

#: Every parsed definition by Kafka name.
SPECS: Dict[str, DefinitionSpec] = load_definitions(_raw_definitions())

#: Every generated top-level class by Kafka name.
CLASSES: Dict[str, Type[Message]] = {}
_REQUESTS: Dict[int, Type[Message]] = {}
_RESPONSES: Dict[int, Type[Message]] = {}
_METADATA_RECORDS: Dict[int, Type[Message]] = {}

for _name, _spec in SPECS.items():
    _cls = make_classes(_spec, __name__)
    CLASSES[_name] = _cls
    globals()[_name] = _cls
    if _spec.type == "request":
        _REQUESTS[_spec.api_key] = _cls
    elif _spec.type == "response":
        _RESPONSES[_spec.api_key] = _cls
    elif _spec.type == "metadata":
        _METADATA_RECORDS[_spec.api_key] = _cls
del _name, _spec, _cls


def request_class(api_key: int) -> Type[Message]:
    """The request class of ``api_key`` (``request_class(3) is MetadataRequest``)."""
    try:
        return _REQUESTS[api_key]
    except (KeyError, TypeError):
        raise UnknownApiError(f"no request is defined for API key {api_key!r}") from None


def response_class(api_key: int) -> Type[Message]:
    """The response class of ``api_key``."""
    try:
        return _RESPONSES[api_key]
    except (KeyError, TypeError):
        raise UnknownApiError(f"no response is defined for API key {api_key!r}") from None


def metadata_record_class(record_type: int) -> Type[Message]:
    """The KRaft ``__cluster_metadata`` record class of ``record_type`` (its apiKey)."""
    try:
        return _METADATA_RECORDS[record_type]
    except (KeyError, TypeError):
        raise UnknownApiError(f"no metadata record has type {record_type!r}") from None


def api_keys() -> Tuple[int, ...]:
    """Every API key kafkawire defines, ascending."""
    return tuple(sorted(_REQUESTS))


def supported_versions(api_key: int) -> VersionRange:
    """The versions kafkawire can write and read for ``api_key`` (request and response)."""
    return request_class(api_key).valid_versions.intersect(response_class(api_key).valid_versions)


def negotiate_versions(api_versions: "Message | Iterable", ours: Optional[Mapping[int, VersionRange]] = None
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


def negotiate_version(api_versions: "Message | Iterable", api_key: int,
                      ours: Optional[VersionRange] = None) -> int:
    """The highest version of ``api_key`` both sides support; raises
    :class:`~kafkawire.errors.UnsupportedVersionError` when there is none."""
    mine = ours if ours is not None else supported_versions(api_key)
    found = negotiate_versions(api_versions, {api_key: mine})
    if api_key not in found:
        raise UnsupportedVersionError(f"no version of API key {api_key} is supported by both sides")
    return found[api_key]


__all__ = sorted(CLASSES) + [
    "CLASSES", "SPECS", "Message", "Struct", "api_keys", "metadata_record_class",
    "negotiate_version", "negotiate_versions", "request_class", "response_class",
    "supported_versions",
]
