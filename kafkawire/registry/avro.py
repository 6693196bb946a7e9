"""Columns of Avro values framed by Confluent's serializers, decoded to typed Arrow.

Each value names its writer schema by id; the registry gives that schema once per
process, and it is compiled once per decoder into a plan that resolves it against the
one reader schema of the column (a subject's version, or a schema the caller gives).
"""

from __future__ import annotations

from typing import Any, Dict, Optional, Sequence, Union

from kafkawire.avro.decode import AvroColumnDecoder, SchemaLike
from kafkawire.avro.plan import Plan, build_layout
from kafkawire.avro.resolve import compile_plan
from kafkawire.avro.schema import Schema, parse
from kafkawire.errors import SchemaResolutionError
from kafkawire.registry.client import RegisteredSchema, SchemaRegistryClient
from kafkawire.registry.strategies import strategy


def parse_registered(client: SchemaRegistryClient, registered: RegisteredSchema) -> Schema:
    """A registered Avro schema parsed, with the named types of its references."""
    if registered.schema_type != "AVRO":
        raise SchemaResolutionError(f"schema id {registered.schema_id} is {registered.schema_type}, not Avro")
    named: Dict[str, Schema] = {}

    def add_references(schema: RegisteredSchema, depth: int) -> None:
        if depth > 32:
            raise SchemaResolutionError(f"schema id {registered.schema_id}: references nest deeper than 32")
        for ref in schema.references:
            referenced = client.schema_version(ref.subject, ref.version)
            add_references(referenced, depth + 1)
            parse(referenced.schema, named)

    add_references(registered, 0)
    try:
        return parse(registered.schema, named)
    except SchemaResolutionError as exc:
        raise SchemaResolutionError(f"schema id {registered.schema_id}: {exc}") from None


class RegistryAvroDecoder(AvroColumnDecoder):
    """Decodes framed Avro values to one Arrow type, the reader schema's.

    The reader schema is ``reader_schema`` when given (JSON text or its parsed form),
    else the registry's schema ``reader_id``, else version ``version`` of ``subject``.  Every writer schema id
    met is fetched (once per process) and resolved against it.
    """

    def __init__(
        self,
        client: SchemaRegistryClient,
        *,
        subject: Optional[str] = None,
        version: Union[int, str] = "latest",
        reader_schema: Optional[SchemaLike] = None,
        reader_id: Optional[int] = None,
        enums_as: str = "dictionary",
    ) -> None:
        self.client = client
        self.reader_id: Optional[int] = reader_id
        if reader_schema is not None:
            reader = parse(reader_schema)
        elif reader_id is not None:
            reader = parse_registered(client, client.schema_by_id(reader_id))
        elif subject is not None:
            registered = client.schema_version(subject, version)
            self.reader_id = registered.schema_id
            reader = parse_registered(client, registered)
        else:
            raise ValueError(
                "give the reader schema, its id, or the subject whose version is the reader schema"
            )
        super().__init__(build_layout(reader, enums_as), self._compile, framed=True)

    @classmethod
    def for_topic(
        cls,
        client: SchemaRegistryClient,
        topic: str,
        *,
        is_key: bool = False,
        subject_strategy: str = "topic",
        record_name: Optional[str] = None,
        **options: Any,
    ) -> "RegistryAvroDecoder":
        """The decoder whose reader schema is the latest under the subject that
        ``subject_strategy`` ("topic", "record", "topic-record") names for ``topic``."""
        subject = strategy(subject_strategy)(topic, is_key, record_name)
        return cls(client, subject=subject, **options)

    def _compile(self, schema_id: int) -> Plan:
        writer = parse_registered(self.client, self.client.schema_by_id(schema_id))
        return compile_plan(writer, self.layout, writer_id=schema_id, reader_id=self.reader_id)

    def decode(
        self,
        values: Any,
        *,
        topic: Optional[str] = None,
        partitions: Optional[Sequence[int]] = None,
        offsets: Optional[Sequence[int]] = None,
    ) -> Any:
        """The Arrow array of the decoded framed ``values`` (see :meth:`AvroColumnDecoder.decode`)."""
        return super().decode(values, topic=topic, partitions=partitions, offsets=offsets)
