"""Confluent Schema Registry: the framing of keys and values, a REST client, the subject
name strategies, and decoders of framed Avro, Protobuf and JSON Schema columns to typed
Arrow columns."""

import importlib
from typing import TYPE_CHECKING, Any, Optional, Union

from kafkawire.registry.strategies import strategy
from kafkawire.registry.wire import decode_message_indexes, encode_message_indexes, frame, parse_header

if TYPE_CHECKING:
    from kafkawire.registry.client import RegisteredSchema, SchemaReference, SchemaRegistryClient

__all__ = [
    "RegisteredSchema",
    "SchemaReference",
    "SchemaRegistryClient",
    "RegistryAvroDecoder",
    "RegistryAvroEncoder",
    "RegistryJsonDecoder",
    "RegistryJsonEncoder",
    "RegistryProtobufDecoder",
    "RegistryProtobufEncoder",
    "column_decoder",
    "column_encoder",
    "decode_message_indexes",
    "encode_message_indexes",
    "frame",
    "parse_header",
    "strategy",
]


# The modules behind names imported when first asked for: the client brings an HTTP
# stack and the decoders their formats, while the framing (wire) is what the compiled
# decoders import with kafkawire itself.
_LAZY = {
    "RegisteredSchema": "client",
    "SchemaReference": "client",
    "SchemaRegistryClient": "client",
    "RegistryAvroDecoder": "avro",
    "RegistryAvroEncoder": "avro",
    "RegistryJsonDecoder": "json_schema",
    "RegistryJsonEncoder": "json_schema",
    "RegistryProtobufDecoder": "protobuf",
    "RegistryProtobufEncoder": "protobuf",
}


def __getattr__(name: str) -> object:
    if name in _LAZY:
        module = importlib.import_module(f"kafkawire.registry.{_LAZY[name]}")
        return getattr(module, name)
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


def column_decoder(
    client: "SchemaRegistryClient",
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
