"""Column functions for Kafka bytes held in binary columns (Arrow UDFs).

``decode_record_batches(col)``
    A column of record-batch bytes (one or more batches per value: a fetch response's
    ``records``, a segment read with ``binaryFile``) to an array of record structs, the
    columns of :func:`kafkawire.protocol.records.to_arrow`.  Built with Arrow, no Python object
    per record.
``decode_consumer_offsets(key, value)``
    ``__consumer_offsets`` keys and values to one struct: ``record_type``
    (``offset_commit``, ``group_metadata``, the record types of the consumer, share and
    streams group protocols by name, such as ``consumer_group_member_metadata`` or
    ``share_group_target_assignment_member``, or ``unknown(N)``), ``key_version``,
    ``value_version``, ``group``, ``topic``, ``partition``, ``offset``, ``leader_epoch``,
    ``metadata``, ``commit_timestamp``, ``expire_timestamp``, ``protocol_type``,
    ``generation``, ``protocol``, ``leader``, ``members``; for the new protocols'
    records ``member_id``, ``epoch`` (the group, member or assignment epoch) and
    ``fields`` (the whole value as JSON); a null value (tombstone) gives the key's
    fields only.
``decode_transaction_state(key, value)``, ``decode_cluster_metadata(value)`` and
``decode_remote_log_metadata(value)`` (tiered storage's ``__remote_log_metadata``)
    To ``record_type``, ``version`` and ``fields`` (the record as JSON, Kafka's field
    names in snake_case).

``from_registry(value, url, ...)``
    Values framed by Confluent's serializers (Avro or JSON Schema) to a typed struct
    column of the reader schema (a subject's version, or an Avro schema given); see
    docs/schemas.md.
``to_registry(col, url, ...)``
    A struct column to Avro values framed with a registered schema id (the schema
    given, or derived from the column's type as ``to_avro`` derives it).

The pure functions (``*_array``) take and return ``pyarrow`` arrays and run without Spark.
Records are decoded by :mod:`kafkawire.protocol.records`, internal-topic keys and values by
:mod:`kafkawire.protocol.internal_topics` (which also says which class a version prefix selects); here
is only how their fields become columns.
"""

from __future__ import annotations

import functools
import json
import re
import struct
from typing import TYPE_CHECKING, Any, Callable, Dict, List, Optional, Tuple, Type

from kafkawire.protocol import internal_topics, messages
from kafkawire.errors import DecodeError, UnknownApiError
from kafkawire.protocol.record_layout import spark_arrow_type
from kafkawire.spark.ddl import spark_type

if TYPE_CHECKING:
    import pyarrow
    from pyspark.sql import Column
    from pyspark.sql._typing import ColumnOrName

    from kafkawire.protocol.message_class import Message

_INT16 = struct.Struct(">h")

# The struct types these functions return, by name.
_RECORD, _CONSUMER_OFFSETS, _TYPED_JSON = "record", "consumer_offsets", "typed_json"


@functools.lru_cache(maxsize=None)
def _arrow_types() -> Dict[str, "pyarrow.DataType"]:
    """The Arrow struct types of what these functions return, as Spark writes them
    (every field nullable, list items named ``element``); their Spark DDL is derived
    from them (:func:`_ddl`)."""
    import pyarrow as pa

    from kafkawire.protocol import records

    member = pa.struct(
        [
            ("member_id", pa.string()),
            ("group_instance_id", pa.string()),
            ("client_id", pa.string()),
            ("client_host", pa.string()),
            ("rebalance_timeout", pa.int32()),
            ("session_timeout", pa.int32()),
            ("subscription", pa.binary()),
            ("assignment", pa.binary()),
        ]
    )
    consumer_offsets = pa.struct(
        [
            ("record_type", pa.string()),
            ("key_version", pa.int16()),
            ("value_version", pa.int16()),
            ("group", pa.string()),
            ("topic", pa.string()),
            ("partition", pa.int32()),
            ("offset", pa.int64()),
            ("leader_epoch", pa.int32()),
            ("metadata", pa.string()),
            ("commit_timestamp", pa.int64()),
            ("expire_timestamp", pa.int64()),
            ("protocol_type", pa.string()),
            ("generation", pa.int32()),
            ("protocol", pa.string()),
            ("leader", pa.string()),
            ("members", pa.list_(member)),
            ("member_id", pa.string()),
            ("epoch", pa.int32()),
            ("fields", pa.string()),
            ("error", pa.string()),
        ]
    )
    typed_json = pa.struct(
        [
            ("record_type", pa.string()),
            ("version", pa.int16()),
            ("fields", pa.string()),
            ("error", pa.string()),
        ]
    )
    return {
        name: spark_arrow_type(t)
        for name, t in (
            (_RECORD, pa.struct(list(records.arrow_schema()))),
            (_CONSUMER_OFFSETS, consumer_offsets),
            (_TYPED_JSON, typed_json),
        )
    }


def _arrow_type(name: str) -> "pyarrow.DataType":
    return _arrow_types()[name]


def _ddl(name: str) -> str:
    """The Spark DDL of the struct type ``name``."""
    return spark_type(_arrow_type(name))


# ---------------------------------------------------------------------------
# record batches


def decode_record_batches_array(
    batches: "pyarrow.BinaryArray", *, verify_crc: bool = True
) -> "pyarrow.ListArray":
    """``pyarrow`` binary array of record-batch bytes -> list<struct<record>> array."""
    import pyarrow as pa

    from kafkawire.protocol import records

    target = _arrow_type(_RECORD)
    tables = []
    offsets = [0]
    valid = []
    for i in range(len(batches)):
        item = batches[i]
        if not item.is_valid:
            offsets.append(offsets[-1])
            valid.append(False)
            continue
        t = records.to_arrow(memoryview(item.as_buffer()), verify_crc=verify_crc)
        tables.append(t)
        offsets.append(offsets[-1] + t.num_rows)
        valid.append(True)
    if tables:
        table = pa.concat_tables(tables).combine_chunks()
        columns = [
            table.column(f.name).chunk(0) if table.column(f.name).num_chunks else pa.array([], f.type)
            for f in target
        ]
        columns = [c if c.type == f.type else c.cast(f.type) for c, f in zip(columns, target)]
        values = pa.StructArray.from_arrays(columns, fields=list(target))
    else:
        values = pa.array([], target)
    mask = pa.array([not v for v in valid], pa.bool_())
    return pa.ListArray.from_arrays(
        pa.array(offsets, pa.int32()), values, type=pa.list_(pa.field("element", target)), mask=mask
    )


# ---------------------------------------------------------------------------
# internal topics


def _json_default(v: Any) -> str:
    if isinstance(v, (bytes, bytearray, memoryview)):
        import base64

        return base64.b64encode(bytes(v)).decode("ascii")
    return str(v)


def _version_prefix(data: Optional[bytes]) -> int:
    """The int16 that starts a coordinator-topic key (its record type) or value."""
    if data is None or len(data) < 2:
        raise DecodeError("an internal-topic key or value starts with an int16 version")
    version: int = _INT16.unpack_from(data)[0]
    return version


def _key_class_or_none(topic: str, record_type: int) -> Optional[Type["Message"]]:
    try:
        return internal_topics.key_class(topic, record_type)
    except UnknownApiError:
        return None


# the value field that holds each new-protocol record's epoch, by preference
_EPOCH_FIELDS = ("epoch", "member_epoch", "assignment_epoch")


def _record_type_name(key_cls: type) -> str:
    """``ConsumerGroupMemberMetadataKey`` -> ``consumer_group_member_metadata``."""
    return re.sub(r"(?<=[a-z0-9])(?=[A-Z])", "_", key_cls.__name__[:-3]).lower()


def _group_protocol_record(
    topic: str, record_type: int, key: Optional[bytes], value: Optional[bytes]
) -> Dict[str, Any]:
    """A record of the consumer (KIP-848), share (KIP-932) or streams group protocols:
    its type, group, member and epoch as columns, the whole value as JSON ``fields``."""
    k: Any  # the key and value classes of record_type (chosen at run time)
    v: Any
    _, k = internal_topics.decode_key(topic, key)
    out: Dict[str, Any] = {
        "record_type": _record_type_name(type(k)),
        "group": k.group_id,
        "member_id": getattr(k, "member_id", None),
    }
    if value is not None:
        out["value_version"], v = internal_topics.decode_value(topic, record_type, value)
        out["epoch"] = next((getattr(v, f) for f in _EPOCH_FIELDS if hasattr(v, f)), None)
        out["fields"] = json.dumps(v.to_dict(), default=_json_default, sort_keys=True)
    return out


def consumer_offsets_record(key: Optional[bytes], value: Optional[bytes]) -> Dict[str, Any]:
    """One ``__consumer_offsets`` record as a dict of ``decode_consumer_offsets`` fields."""
    topic = internal_topics.CONSUMER_OFFSETS
    out: Dict[str, Any] = {}
    k: Any  # the key and value classes of record_type (chosen at run time)
    v: Any
    try:
        record_type = _version_prefix(key)
        out["key_version"] = record_type
        key_cls = _key_class_or_none(topic, record_type)
        if key_cls in (messages.LegacyOffsetCommitKey, messages.OffsetCommitKey):
            out["record_type"] = "offset_commit"
            _, k = internal_topics.decode_key(topic, key)
            out.update(group=k.group, topic=k.topic, partition=k.partition)
            if value is not None:
                out["value_version"] = vver = _version_prefix(value)
                _, v = internal_topics.decode_value(topic, record_type, value)
                out.update(
                    offset=v.offset,
                    metadata=v.metadata,
                    commit_timestamp=v.commit_timestamp,
                    leader_epoch=getattr(v, "leader_epoch", None),
                    expire_timestamp=getattr(v, "expire_timestamp", None),
                )
                if out["leader_epoch"] == -1 and vver < 3:
                    out["leader_epoch"] = None
                if out["expire_timestamp"] == -1:
                    out["expire_timestamp"] = None
        elif key_cls is messages.GroupMetadataKey:
            out["record_type"] = "group_metadata"
            _, k = internal_topics.decode_key(topic, key)
            out["group"] = k.group
            if value is not None:
                out["value_version"] = _version_prefix(value)
                _, v = internal_topics.decode_value(topic, record_type, value)
                out.update(
                    protocol_type=v.protocol_type,
                    generation=v.generation,
                    protocol=v.protocol,
                    leader=v.leader,
                    commit_timestamp=getattr(v, "current_state_timestamp", None),
                )
                if out["commit_timestamp"] == -1:
                    out["commit_timestamp"] = None
                out["members"] = [
                    {
                        "member_id": m.member_id,
                        "group_instance_id": getattr(m, "group_instance_id", None),
                        "client_id": m.client_id,
                        "client_host": m.client_host,
                        "rebalance_timeout": getattr(m, "rebalance_timeout", None),
                        "session_timeout": m.session_timeout,
                        "subscription": None if m.subscription is None else bytes(m.subscription),
                        "assignment": None if m.assignment is None else bytes(m.assignment),
                    }
                    for m in v.members
                ]
        elif key_cls is not None:  # the consumer, share and streams group protocols
            out.update(_group_protocol_record(topic, record_type, key, value))
        else:
            out["record_type"] = f"unknown({record_type})"
    except (DecodeError, UnknownApiError) as exc:
        out["error"] = str(exc)
    return out


def transaction_state_record(key: Optional[bytes], value: Optional[bytes]) -> Dict[str, Any]:
    """One ``__transaction_state`` record: record_type, version, fields (JSON)."""
    try:
        rec = internal_topics.decode_record(internal_topics.TRANSACTION_STATE, key, value)
        fields = {"key": rec.key.to_dict()}
        version: Optional[int] = rec.record_type
        if rec.value is not None:
            fields["value"] = rec.value.to_dict()
            version = rec.value_version
        return {
            "record_type": "transaction_log",
            "version": version,
            "fields": json.dumps(fields, default=_json_default, sort_keys=True),
        }
    except (DecodeError, UnknownApiError) as exc:
        return {"error": str(exc)}


def cluster_metadata_record(value: Optional[bytes]) -> Dict[str, Any]:
    """One ``__cluster_metadata`` record value (frame version, type, version, struct)."""
    return _framed_record(value, internal_topics.decode_metadata_record)


def remote_log_metadata_record(value: Optional[bytes]) -> Dict[str, Any]:
    """One ``__remote_log_metadata`` record value (frame version, type, version, struct)."""
    return _framed_record(value, internal_topics.decode_remote_log_metadata_record)


def _framed_record(
    value: Optional[bytes], decode: Callable[[Any], internal_topics.MetadataRecord]
) -> Dict[str, Any]:
    if value is None:
        return {}
    try:
        rec = decode(value)
        return {
            "record_type": type(rec.message).__name__,
            "version": rec.version,
            "fields": json.dumps(rec.message.to_dict(), default=_json_default, sort_keys=True),
        }
    except (DecodeError, UnknownApiError) as exc:
        return {"error": str(exc)}


def _struct_array(rows: List[Dict[str, Any]], name: str) -> "pyarrow.StructArray":
    import pyarrow as pa

    typ = _arrow_type(name)
    return pa.array([{f.name: r.get(f.name) for f in typ} if r is not None else None for r in rows], type=typ)


def _py(item: "pyarrow.Scalar") -> Any:
    return None if not item.is_valid else item.as_py()


def decode_consumer_offsets_array(keys, values):  # type: ignore[no-untyped-def]  # see _arrow_udf
    return _struct_array(
        [consumer_offsets_record(_py(k), _py(v)) for k, v in zip(keys, values)], _CONSUMER_OFFSETS
    )


def decode_transaction_state_array(keys, values):  # type: ignore[no-untyped-def]  # see _arrow_udf
    return _struct_array(
        [transaction_state_record(_py(k), _py(v)) for k, v in zip(keys, values)], _TYPED_JSON
    )


def decode_cluster_metadata_array(values):  # type: ignore[no-untyped-def]  # see _arrow_udf
    return _struct_array([cluster_metadata_record(_py(v)) for v in values], _TYPED_JSON)


def decode_remote_log_metadata_array(values):  # type: ignore[no-untyped-def]  # see _arrow_udf
    return _struct_array([remote_log_metadata_record(_py(v)) for v in values], _TYPED_JSON)


# ---------------------------------------------------------------------------
# Spark columns


def _arrow_udf() -> Callable[..., Callable[..., "Column"]]:
    """pyspark's ``arrow_udf``, which its type stubs leave untyped.

    The functions handed to it carry no annotations: pyspark infers a UDF's kind from
    them, and without any makes the scalar Arrow UDF these are."""
    from pyspark.sql.pandas.functions import arrow_udf

    udf: Callable[..., Callable[..., Column]] = arrow_udf
    return udf


def decode_record_batches(col: "ColumnOrName", verify_crc: bool = True) -> "Column":
    """Column of record-batch bytes -> ``array<struct<record>>`` Column."""
    verify = bool(verify_crc)

    def _decode(batches):  # type: ignore[no-untyped-def]  # see _arrow_udf
        return decode_record_batches_array(batches, verify_crc=verify)

    return _arrow_udf()(_decode, f"array<{_ddl(_RECORD)}>")(col)


def decode_consumer_offsets(key: "ColumnOrName", value: "ColumnOrName") -> "Column":
    """``__consumer_offsets`` key and value Columns -> struct Column."""
    return _arrow_udf()(decode_consumer_offsets_array, _ddl(_CONSUMER_OFFSETS))(key, value)


def decode_transaction_state(key: "ColumnOrName", value: "ColumnOrName") -> "Column":
    """``__transaction_state`` key and value Columns -> struct(record_type, version,
    fields JSON) Column."""
    return _arrow_udf()(decode_transaction_state_array, _ddl(_TYPED_JSON))(key, value)


def decode_cluster_metadata(value: "ColumnOrName") -> "Column":
    """``__cluster_metadata`` value Column -> struct(record_type, version, fields JSON)."""
    return _arrow_udf()(decode_cluster_metadata_array, _ddl(_TYPED_JSON))(value)


def decode_remote_log_metadata(value: "ColumnOrName") -> "Column":
    """``__remote_log_metadata`` value Column -> struct(record_type, version, fields JSON)."""
    return _arrow_udf()(decode_remote_log_metadata_array, _ddl(_TYPED_JSON))(value)


def from_registry(
    value: "ColumnOrName",
    url: str,
    *,
    subject: Optional[str] = None,
    topic: Optional[str] = None,
    subject_strategy: str = "topic",
    is_key: bool = False,
    version: Any = "latest",
    reader_schema: Optional[str] = None,
    message: Optional[str] = None,
    basic_auth: Optional[Tuple[str, str]] = None,
    bearer_token: Optional[str] = None,
    timeout: float = 10.0,
) -> "Column":
    """A column of framed Avro, Protobuf or JSON values -> a struct Column of the reader
    schema's fields.

    The reader schema is ``reader_schema`` (JSON) when given, else version ``version``
    of ``subject`` (or of the subject ``subject_strategy`` names for ``topic``), read
    on the driver, which so knows the column's type (the workers read that schema by
    its id, so a version registered meanwhile changes nothing).  Each worker fetches a
    writer schema once per process.  Enums are strings, timestamps microseconds, fixed
    binary, time-millis an int (as ``from_avro`` gives them).  A Protobuf schema's
    message ``message`` (a full name; by default its first) is the column's type, as
    ``from_protobuf`` types it
    (:mod:`kafkawire.registry.protobuf`); a registered JSON Schema gives the columns of
    :mod:`kafkawire.registry.json_schema` (``reader_schema`` is Avro).
    """
    from kafkawire.registry.strategies import strategy
    from kafkawire.spark import registry_columns

    if subject is None and reader_schema is None:
        if topic is None:
            raise ValueError("from_registry needs a subject, a topic or a reader schema")
        subject = strategy(subject_strategy)(topic, is_key, None)
    registry = registry_columns.Registry(
        url, basic_auth=basic_auth, bearer_token=bearer_token, timeout=float(timeout)
    )
    typed = registry_columns.resolve(
        registry_columns.ColumnFormat(
            "key" if is_key else "value",
            "avro" if reader_schema is not None else "registry",
            registry,
            subject=subject,
            version=str(version),
            reader_schema=reader_schema,
            message=message,
        )
    )

    def _decode(values):  # type: ignore[no-untyped-def]  # see _arrow_udf
        return registry_columns.decoder(typed.format).decode(values).cast(typed.arrow_type)

    return _arrow_udf()(_decode, typed.spark_ddl)(value)


def to_registry(
    value: "ColumnOrName",
    url: str,
    *,
    subject: Optional[str] = None,
    topic: Optional[str] = None,
    subject_strategy: str = "topic",
    is_key: bool = False,
    schema: Optional[str] = None,
    auto_register: bool = False,
    use_latest_version: bool = False,
    schema_type: Optional[str] = None,
    message: Optional[str] = None,
    basic_auth: Optional[Tuple[str, str]] = None,
    bearer_token: Optional[str] = None,
    timeout: float = 10.0,
) -> "Column":
    """A struct Column -> a binary Column of Avro, Protobuf or JSON values framed as
    Confluent's serializers frame them (a null row gives a null value).

    The format is ``schema_type`` ("AVRO", "PROTOBUF", "JSON") when given, else the
    type of ``schema`` (Avro or JSON Schema JSON, ``.proto`` text), else of the
    subject's latest version, else Avro.  The writer schema is ``schema`` when given,
    else the subject's latest version (for Avro with ``use_latest_version``; without,
    the one derived from the column's type as ``to_avro`` derives it).  Its subject is
    ``subject``, or the one ``subject_strategy`` names for ``topic``; ``auto_register``
    registers it there, else its id is looked up.  ``message`` names the Protobuf
    message the rows are (by default the schema's first).  Each worker asks the
    registry once per process.
    """
    from kafkawire.spark import registry_columns

    if subject is None and topic is None:
        raise ValueError("to_registry needs a subject or a topic")
    fmt = registry_columns.WriteFormat(
        "key" if is_key else "value",
        registry_columns.Registry(
            url, basic_auth=basic_auth, bearer_token=bearer_token, timeout=float(timeout)
        ),
        subject,
        topic,
        subject_strategy,
        auto_register=bool(auto_register),
        use_latest_version=bool(use_latest_version),
        schema=schema,
        schema_type=schema_type,
        message=message,
    )

    def _encode(rows):  # type: ignore[no-untyped-def]  # see _arrow_udf
        return registry_columns.encoder(fmt).encode(rows)

    return _arrow_udf()(_encode, "binary")(value)
