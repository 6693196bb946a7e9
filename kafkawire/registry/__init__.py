"""Confluent Schema Registry: the framing of keys and values, a REST client, the subject
name strategies, and decoders of framed Avro, Protobuf and JSON Schema columns to typed
Arrow columns."""

from typing import Any, Optional, Union

from kafkawire.registry.client import RegisteredSchema, SchemaReference, SchemaRegistryClient
from kafkawire.registry.strategies import strategy
from kafkawire.registry.wire import decode_message_indexes, encode_message_indexes, frame, parse_header

__all__ = [
    "RegisteredSchema",
    "SchemaReference",
    "SchemaRegistryClient",
    "RegistryAvroDecoder",
    "RegistryAvroEncoder",
    "RegistryJsonDecoder",
    "RegistryProtobufDecoder",
    "column_decoder",
    "decode_message_indexes",
    "encode_message_indexes",
    "frame",
    "parse_header",
    "strategy",
]


def __getattr__(name: str) -> object:
    if name in ("RegistryAvroDecoder", "RegistryAvroEncoder"):  # imports Avro only when asked for
        from kafkawire.registry import avro

        return getattr(avro, name)
    if name == "RegistryJsonDecoder":
        from kafkawire.registry import json_schema

        return json_schema.RegistryJsonDecoder
    if name == "RegistryProtobufDecoder":
        from kafkawire.registry import protobuf

        return protobuf.RegistryProtobufDecoder
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


def column_decoder(
    client: SchemaRegistryClient,
    *,
    subject: Optional[str] = None,
    version: Union[int, str] = "latest",
    reader_id: Optional[int] = None,
    enums_as: str = "dictionary",
) -> Any:
    """The decoder of framed values whose reader schema is the registry's schema
    ``reader_id``, or version ``version`` of ``subject``: the decoder of that schema's
    type ("AVRO", "PROTOBUF" or "JSON")."""
    if reader_id is not None:
        registered = client.schema_by_id(reader_id)
    elif subject is not None:
        registered = client.schema_version(subject, version)
    else:
        raise ValueError("give the reader schema's id, or the subject whose version is the reader schema")
    # -- by schema type --
    if registered.schema_type == "PROTOBUF":
        from kafkawire.registry.protobuf import RegistryProtobufDecoder

        return RegistryProtobufDecoder(client, reader_id=registered.schema_id)
    if registered.schema_type == "JSON":
        from kafkawire.registry.json_schema import RegistryJsonDecoder

        return RegistryJsonDecoder(client, reader_id=registered.schema_id)
    from kafkawire.registry.avro import RegistryAvroDecoder

    return RegistryAvroDecoder(client, reader_id=registered.schema_id, enums_as=enums_as)
