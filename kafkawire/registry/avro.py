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
from kafkawire.registry.strategies import ForTopic, strategy
from kafkawire.registry.wire import frame


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


class RegistryAvroDecoder(AvroColumnDecoder, ForTopic):
    """Decodes framed Avro values to one Arrow type, the reader schema's.

    The reader schema is ``reader_schema`` when given (JSON text or its parsed form),
    else the registry's schema ``reader_id``, else version ``version`` of ``subject``.  Every writer schema id
    met is fetched (once per process) and resolved against it.  ``backend`` ("cython",
    "python") decodes (by default the active one).
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
        backend: Optional[str] = None,
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
        super().__init__(build_layout(reader, enums_as), self._compile, framed=True, backend=backend)

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


class RegistryAvroEncoder:
    """Writes the rows of struct columns (or tables) as Avro values framed as Confluent's
    ``AvroSerializer`` frames them: the magic byte, the writer schema's registered id,
    the Avro body.

    The writer schema is ``schema`` (JSON text or its parsed form) when given, else the
    latest version of the subject when ``use_latest_version``, else the schema derived
    from the column's Arrow type (:func:`kafkawire.avro.write.avro_schema`).  Its
    subject is ``subject``, or the one ``subject_strategy`` names for ``topic`` (and the
    record's full name).  With ``auto_register`` the schema is registered there (as the
    serializer's ``auto.register.schemas``); without, its id is looked up and a schema
    the subject does not hold is an error.  The registry is asked once per encoder.
    """

    def __init__(
        self,
        client: SchemaRegistryClient,
        *,
        subject: Optional[str] = None,
        topic: Optional[str] = None,
        is_key: bool = False,
        subject_strategy: str = "topic",
        schema: Optional[SchemaLike] = None,
        auto_register: bool = False,
        use_latest_version: bool = False,
    ) -> None:
        from kafkawire.avro.write import AvroArrowEncoder

        if subject is None and topic is None:
            raise ValueError("give the subject, or the topic whose subject the strategy names")
        if use_latest_version and auto_register:
            raise ValueError("use_latest_version writes with a registered schema: it excludes auto_register")
        self.client = client
        self._subject, self._topic, self._is_key = subject, topic, is_key
        self._strategy = strategy(subject_strategy)
        self.auto_register = auto_register
        self.schema_id: Optional[int] = None
        if use_latest_version:
            registered = client.schema_version(self._subject_for(None))
            self.schema_id = registered.schema_id
            self._writer = AvroArrowEncoder(registered.schema, parse_registered(client, registered))
        else:
            self._writer = AvroArrowEncoder(schema)

    def _subject_for(self, record_name: Optional[str]) -> str:
        if self._subject is not None:
            return self._subject
        assert self._topic is not None
        return self._strategy(self._topic, self._is_key, record_name)

    @property
    def subject(self) -> str:
        """The subject the writer schema is (or will be) registered under."""
        schema = self._writer.schema
        return self._subject_for(schema.get("name") if schema is not None else None)

    def _schema_id(self) -> int:
        if self.schema_id is None:
            import json

            text = self._writer.schema_json
            text = text if isinstance(text, str) else json.dumps(text)
            self.schema_id = self.client.writer_schema(
                self.subject, text, "AVRO", self.auto_register
            ).schema_id
        return self.schema_id

    def encode(self, column: Any) -> Any:
        """A binary Arrow array of the framed values (null for a null row)."""
        from kafkawire.avro.write import binary_array, one_array

        column = one_array(column)
        self._writer.compile(column.type)  # the writer schema known, its id can be had
        return binary_array(*self._writer.encode_parts(column, frame(self._schema_id(), b"")))
