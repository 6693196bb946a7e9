"""Confluent Schema Registry: the framing of keys and values, a REST client, the subject
name strategies, decoders of framed Avro, Protobuf and JSON Schema columns to typed
Arrow columns, and encoders of Arrow rows to such columns."""

import importlib
from typing import TYPE_CHECKING, Any, Dict, Optional, Union

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
    "schema_type_of",
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
    message: Optional[str] = None,
    backend: Optional[str] = None,
) -> Any:
    """The decoder of framed values whose reader schema is the registry's schema
    ``reader_id``, or version ``version`` of ``subject``: the decoder of that schema's
    type ("AVRO", "PROTOBUF" or "JSON").  ``message`` is the Protobuf message (default:
    the schema's first; a message for another type is a ``ValueError``); ``backend``
    ("cython", "python") is the backend that decodes."""
    if reader_id is not None:
        registered = client.schema_by_id(reader_id)
    elif subject is not None:
        registered = client.schema_version(subject, version)
    else:
        raise ValueError("give the reader schema's id, or the subject whose version is the reader schema")
    # -- by schema type --
    if registered.schema_type == "PROTOBUF":
        from kafkawire.registry.protobuf import RegistryProtobufDecoder

        return RegistryProtobufDecoder(
            client, reader_id=registered.schema_id, message=message, backend=backend
        )
    if message is not None:
        raise ValueError(
            f"a message is chosen in a Protobuf schema; schema id {registered.schema_id} is "
            f"{registered.schema_type}"
        )
    if registered.schema_type == "JSON":
        from kafkawire.registry.json_schema import RegistryJsonDecoder

        return RegistryJsonDecoder(client, reader_id=registered.schema_id, backend=backend)
    from kafkawire.registry.avro import RegistryAvroDecoder

    return RegistryAvroDecoder(client, reader_id=registered.schema_id, enums_as=enums_as, backend=backend)


_SCHEMA_TYPES = ("AVRO", "PROTOBUF", "JSON")


def schema_type_of(schema: Any) -> str:
    """The registry's schema type of a schema given as text (or parsed JSON): "PROTOBUF"
    for text that is not JSON, "JSON" for a JSON Schema (a boolean, or an object with
    ``$schema``, ``properties``, or the type ``object``, ``integer`` or ``number``), else
    "AVRO"."""
    import json

    if isinstance(schema, str):
        try:
            schema = json.loads(schema)
        except ValueError:
            return "PROTOBUF"
    if isinstance(schema, bool):
        return "JSON"
    if isinstance(schema, dict) and (
        "$schema" in schema or "properties" in schema or schema.get("type") in ("object", "integer", "number")
    ):
        return "JSON"
    return "AVRO"


def column_encoder(
    client: "SchemaRegistryClient",
    *,
    schema_type: Optional[str] = None,
    subject: Optional[str] = None,
    topic: Optional[str] = None,
    is_key: bool = False,
    subject_strategy: str = "topic",
    schema: Any = None,
    message: Optional[str] = None,
    auto_register: bool = False,
    use_latest_version: bool = False,
) -> Any:
    """The encoder of struct columns to framed values of ``schema_type`` ("AVRO",
    "PROTOBUF" or "JSON"): by default the type of ``schema`` when given
    (:func:`schema_type_of`), else of the subject's latest version, else Avro (with the
    schema derived from the column).  The options are the encoders' own."""
    from kafkawire.errors import SchemaRegistryError

    if schema_type is None:
        if schema is not None:
            schema_type = schema_type_of(schema)
        else:
            name = subject
            if name is None and topic is not None and strategy(subject_strategy) is strategy("topic"):
                name = strategy("topic")(topic, is_key, None)
            schema_type = "AVRO"
            if name is not None:
                try:
                    schema_type = client.schema_version(name).schema_type
                except SchemaRegistryError as exc:
                    if exc.status != 404:  # no version under the subject: Avro, derived
                        raise
    schema_type = schema_type.upper()
    if schema_type not in _SCHEMA_TYPES:
        raise ValueError(f"schema_type {schema_type!r} is not one of {', '.join(_SCHEMA_TYPES)}")
    where: Dict[str, Any] = {
        "subject": subject,
        "topic": topic,
        "is_key": is_key,
        "subject_strategy": subject_strategy,
    }
    if schema_type != "PROTOBUF" and message is not None:
        raise ValueError(f"a message is chosen in a Protobuf schema, not {schema_type}")
    if schema_type == "AVRO":
        from kafkawire.registry.avro import RegistryAvroEncoder

        return RegistryAvroEncoder(
            client, schema=schema, auto_register=auto_register, use_latest_version=use_latest_version, **where
        )
    if schema_type == "PROTOBUF":
        from kafkawire.registry.protobuf import RegistryProtobufEncoder

        return RegistryProtobufEncoder(
            client, schema=schema, message=message, auto_register=auto_register, **where
        )
    from kafkawire.registry.json_schema import RegistryJsonEncoder

    return RegistryJsonEncoder(client, schema=schema, auto_register=auto_register, **where)
