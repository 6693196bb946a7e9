"""Records of Kafka's internal topics, decoded and encoded through the schema.

* ``__consumer_offsets``, ``__transaction_state``, ``__share_group_state``: a record's
  key starts with an int16 that selects the record type (the ``apiKey`` of a
  ``coordinator-key`` definition: 0 LegacyOffsetCommit, 1 OffsetCommit, 2 GroupMetadata,
  then consumer, share and streams groups on ``__consumer_offsets``; 0 TransactionLog
  on ``__transaction_state``; 0 ShareSnapshot, 1 ShareUpdate on
  ``__share_group_state``), then the key struct at version 0.  The value starts with an
  int16 version, then the matching ``...Value`` struct at that version; a null value is
  a tombstone.
* ``__cluster_metadata``: a record value is an unsigned varint frame version (1), an
  unsigned varint record type (the ``apiKey`` of a ``metadata/`` definition), an
  unsigned varint version, then the record struct.
* ``__remote_log_metadata`` (tiered storage, KIP-405): the key is null; the value has
  the frame of ``__cluster_metadata`` records (frame version 1, record type, version,
  struct) with record types of its own: 0 RemoteLogSegmentMetadataRecord (a segment
  whose copy started), 1 RemoteLogSegmentMetadataUpdateRecord (its later states),
  2 RemotePartitionDeleteMetadataRecord, 3 RemoteLogSegmentMetadataSnapshotRecord.
* KRaft control records (in control batches of the metadata log): the key is an int16
  version and an int16 type; the value is the struct, whose first field (``Version``,
  int16) gives the version the rest is in
  (LeaderChangeMessage, SnapshotHeaderRecord, SnapshotFooterRecord, KRaftVersionRecord,
  VotersRecord).
"""

from __future__ import annotations

import struct
from typing import Any, Callable, Dict, NamedTuple, Optional, Tuple, Type

from kafkawire.protocol import messages, primitives
from kafkawire.protocol.message_class import Message
from kafkawire.protocol.record_layout import CONTROL_KEY, MARKER_VALUE, ControlRecord, control_type_name
from kafkawire.errors import DecodeError, EncodeError, InvalidVarintError, TruncatedError, UnknownApiError
from kafkawire.protocol.schema.catalog import CATALOG

__all__ = [
    "CONSUMER_OFFSETS",
    "TRANSACTION_STATE",
    "SHARE_GROUP_STATE",
    "CLUSTER_METADATA",
    "REMOTE_LOG_METADATA",
    "CoordinatorRecord",
    "MetadataRecord",
    "ControlRecord",
    "key_class",
    "value_class",
    "decode_key",
    "decode_value",
    "decode_record",
    "encode_key",
    "encode_value",
    "decode_metadata_record",
    "encode_metadata_record",
    "decode_remote_log_metadata_record",
    "encode_remote_log_metadata_record",
    "decode_control_record",
    "encode_control_record",
]

CONSUMER_OFFSETS = "__consumer_offsets"
TRANSACTION_STATE = "__transaction_state"
SHARE_GROUP_STATE = "__share_group_state"
CLUSTER_METADATA = "__cluster_metadata"
REMOTE_LOG_METADATA = "__remote_log_metadata"
METADATA_FRAME_VERSION = 1

_I16 = struct.Struct(">h")
KEY_VERSION = 0  # every coordinator key struct has this one version; the prefix is its type


def _topic_of(name: str) -> str:
    if name.startswith("TransactionLog"):
        return TRANSACTION_STATE
    if name.startswith(("ShareSnapshot", "ShareUpdate")):
        return SHARE_GROUP_STATE
    return CONSUMER_OFFSETS


def _key_table() -> Dict[str, Dict[int, Tuple[Type[Message], Type[Message]]]]:
    table: Dict[str, Dict[int, Tuple[Type[Message], Type[Message]]]] = {
        CONSUMER_OFFSETS: {},
        TRANSACTION_STATE: {},
        SHARE_GROUP_STATE: {},
    }
    for name, entry in CATALOG.items():
        if entry.type != "coordinator-key":
            continue
        key_cls = messages.CLASSES[name]
        value_cls = messages.CLASSES[name[:-3] + "Value"]
        topic = _topic_of(name)
        record_type = entry.api_key
        if record_type is None:
            raise AssertionError(f"{name}: a coordinator key without a record type")
        if record_type in table[topic]:
            raise AssertionError(f"{topic}: record type {record_type} defined twice")
        table[topic][record_type] = (key_cls, value_cls)
    return table


_KEYS = _key_table()


class CoordinatorRecord(NamedTuple):
    """A decoded record of a coordinator topic; ``value`` is None for a tombstone."""

    record_type: int
    key: Any  # the key class of record_type (chosen at run time)
    value_version: Optional[int]
    value: Any  # its value class, or None


class MetadataRecord(NamedTuple):
    """A decoded ``__cluster_metadata`` or ``__remote_log_metadata`` record value."""

    frame_version: int
    record_type: int
    version: int
    message: Message


def _table(topic: str) -> Dict[int, Tuple[Type[Message], Type[Message]]]:
    try:
        return _KEYS[topic]
    except KeyError:
        raise UnknownApiError(f"{topic!r} is not a coordinator topic ({', '.join(_KEYS)})") from None


def key_class(topic: str, record_type: int) -> Type[Message]:
    """The key class of ``record_type`` on ``topic``."""
    try:
        return _table(topic)[record_type][0]
    except KeyError:
        raise UnknownApiError(f"{topic}: unknown record type {record_type}") from None


def value_class(topic: str, record_type: int) -> Type[Message]:
    """The value class of ``record_type`` on ``topic``."""
    try:
        return _table(topic)[record_type][1]
    except KeyError:
        raise UnknownApiError(f"{topic}: unknown record type {record_type}") from None


def _prefix(data: Any, what: str) -> int:
    try:
        version: int = _I16.unpack_from(data, 0)[0]
    except struct.error:
        raise TruncatedError(f"a {what} needs a 2-byte version prefix") from None
    except TypeError:
        raise DecodeError(f"a {what} must be bytes-like, got {type(data).__name__}") from None
    return version


def _decode_rest(cls: Type[Message], data: Any, version: int, pos: int) -> Message:
    """``cls`` at ``version`` from byte ``pos`` of ``data``, which it must fill."""
    msg, end = cls.decode_from(data, version, pos)
    if end != memoryview(data).nbytes:
        raise DecodeError(f"{cls.__name__}: trailing bytes after byte {end}")
    return msg


def decode_key(topic: str, data: Any) -> Tuple[int, Message]:
    """``(record_type, key)`` of a coordinator-topic record key."""
    record_type = _prefix(data, "key")
    cls = key_class(topic, record_type)
    return record_type, _decode_rest(cls, data, KEY_VERSION, 2)


def decode_value(topic: str, record_type: int, data: Any) -> Tuple[Optional[int], Optional[Message]]:
    """``(version, value)`` of a coordinator-topic record value (``(None, None)`` for a
    tombstone, ``data=None``)."""
    if data is None:
        return None, None
    version = _prefix(data, "value")
    cls = value_class(topic, record_type)
    return version, _decode_rest(cls, data, version, 2)


def decode_record(topic: str, key: Any, value: Any) -> CoordinatorRecord:
    """Decode the key and value of one coordinator-topic record."""
    record_type, k = decode_key(topic, key)
    version, v = decode_value(topic, record_type, value)
    return CoordinatorRecord(record_type, k, version, v)


def encode_key(topic: str, key: Message, record_type: Optional[int] = None) -> bytes:
    """The bytes of a coordinator-topic key: int16 record type, then the key struct.

    ``record_type``, if given, must be the key class's own type.
    """
    table = _table(topic)
    types = [t for t, (k, _) in table.items() if k is type(key)]
    if not types:
        raise EncodeError(f"{type(key).__name__} is not a key of {topic}")
    if record_type is None:
        record_type = max(types)
    elif record_type not in types:
        raise EncodeError(f"{type(key).__name__} is not record type {record_type} of {topic}")
    return _I16.pack(record_type) + key.encode(KEY_VERSION)


def encode_value(value: Optional[Message], version: int) -> Optional[bytes]:
    """The bytes of a coordinator-topic value: int16 version, then the struct (None for
    a tombstone)."""
    if value is None:
        return None
    return _I16.pack(version) + value.encode(version)


def _uvarint(data: Any, pos: int, what: str) -> Tuple[int, int]:
    """An unsigned varint of the metadata record frame, which must fit in an int16."""
    try:
        value, end = primitives.decode_unsigned_varint(data, pos)
    except TruncatedError:
        raise TruncatedError(f"truncated {what} at byte {pos}") from None
    except InvalidVarintError as exc:  # same checks, named after the frame field
        raise DecodeError(str(exc).replace("unsigned varint", what, 1)) from None
    if value > 0x7FFF:
        raise DecodeError(f"{what} {value} at byte {pos} is larger than an int16")
    return value, end


def _decode_framed(data: Any, what: str, class_of: Callable[[int], Type[Message]]) -> MetadataRecord:
    """A record value in the metadata frame: frame version, record type, version, struct."""
    try:
        mv = memoryview(data)
    except TypeError:
        raise DecodeError(f"a {what} must be bytes-like, got {type(data).__name__}") from None
    frame, pos = _uvarint(mv, 0, "frame version")
    if frame != METADATA_FRAME_VERSION:
        raise DecodeError(f"unknown {what} frame version {frame}")
    record_type, pos = _uvarint(mv, pos, "record type")
    version, pos = _uvarint(mv, pos, "record version")
    cls = class_of(record_type)
    return MetadataRecord(frame, record_type, version, _decode_rest(cls, data, version, pos))


def _encode_framed(message: Message, version: int, group: str, what: str) -> bytes:
    name = type(message).__name__
    entry = CATALOG.get(name)
    if entry is None or entry.group != group or getattr(message, "kind", None) != "metadata":
        raise EncodeError(f"{name} is not a {what}")
    api_key = message.api_key
    if api_key is None:
        raise EncodeError(f"{name} has no record type")
    body = message.encode(version)
    put = primitives.encode_unsigned_varint
    return put(METADATA_FRAME_VERSION) + put(api_key) + put(version) + body


def decode_metadata_record(data: Any) -> MetadataRecord:
    """Decode a ``__cluster_metadata`` record value."""
    return _decode_framed(data, "metadata record", messages.metadata_record_class)


def encode_metadata_record(message: Message, version: int) -> bytes:
    """The bytes of a ``__cluster_metadata`` record value for ``message`` at ``version``."""
    return _encode_framed(message, version, "metadata", "metadata record")


def decode_remote_log_metadata_record(data: Any) -> MetadataRecord:
    """Decode a ``__remote_log_metadata`` record value (tiered storage's segment and
    partition states)."""
    return _decode_framed(data, "remote log metadata record", messages.remote_log_metadata_record_class)


def encode_remote_log_metadata_record(message: Message, version: int) -> bytes:
    """The bytes of a ``__remote_log_metadata`` record value for ``message`` at ``version``."""
    return _encode_framed(message, version, "remote", "remote log metadata record")


CONTROL_TYPES: Dict[int, Optional[str]] = {
    0: None,  # ABORT marker
    1: None,  # COMMIT marker
    2: "LeaderChangeMessage",
    3: "SnapshotHeaderRecord",
    4: "SnapshotFooterRecord",
    5: "KRaftVersionRecord",
    6: "VotersRecord",
}


def decode_control_record(key: Any, value: Any) -> ControlRecord:
    """Decode a KRaft control record (key: int16 version, int16 type)."""
    try:
        version, ctype = CONTROL_KEY.unpack_from(key, 0)
    except struct.error:
        raise TruncatedError("a control record key needs 4 bytes") from None
    except TypeError:
        raise DecodeError(f"a control record key must be bytes-like, got {type(key).__name__}") from None
    if ctype not in CONTROL_TYPES:
        raise UnknownApiError(f"unknown control record type {ctype}")
    name = CONTROL_TYPES[ctype]
    type_name = control_type_name(ctype)
    if name is None or value is None:  # a transaction marker, or no value
        raw = None if value is None else bytes(value)
        if raw is not None and len(raw) >= MARKER_VALUE.size:
            value_version, epoch = MARKER_VALUE.unpack_from(raw)
            return ControlRecord(version, type_name, ctype, epoch, value_version, None, raw)
        return ControlRecord(version, type_name, ctype, raw=raw)
    value_version = _prefix(value, "control record value")
    cls = messages.CLASSES[name]
    # the int16 that starts the value is the struct's own first field, Version
    return ControlRecord(
        version, type_name, ctype, None, value_version, _decode_rest(cls, value, value_version, 0)
    )


def encode_control_record(message: Message, value_version: int, key_version: int = 0) -> Tuple[bytes, bytes]:
    """``(key, value)`` bytes of a KRaft control record holding ``message``."""
    for ctype, name in CONTROL_TYPES.items():
        if name is not None and name == type(message).__name__:
            own_version = getattr(message, "version", value_version)
            if own_version != value_version:
                raise EncodeError(
                    f"{type(message).__name__}: its version field is {own_version}, not {value_version}"
                )
            # the struct's own first field, Version, is the value's version prefix
            return (CONTROL_KEY.pack(key_version, ctype), message.encode(value_version))
    raise EncodeError(f"{type(message).__name__} is not a control record")


def __dir__() -> list[str]:  # what the module defines, not what it imports
    return sorted(__all__)
