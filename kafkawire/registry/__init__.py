"""Confluent Schema Registry: the framing of keys and values, a REST client, the subject
name strategies, and decoders of framed Avro and Protobuf columns to typed Arrow columns."""

from kafkawire.registry.client import RegisteredSchema, SchemaReference, SchemaRegistryClient
from kafkawire.registry.strategies import strategy
from kafkawire.registry.wire import decode_message_indexes, encode_message_indexes, frame, parse_header

__all__ = [
    "RegisteredSchema",
    "SchemaReference",
    "SchemaRegistryClient",
    "RegistryAvroDecoder",
    "RegistryAvroEncoder",
    "RegistryProtobufDecoder",
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
    if name == "RegistryProtobufDecoder":
        from kafkawire.registry import protobuf

        return protobuf.RegistryProtobufDecoder
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
