"""Columns of Protobuf values framed by Confluent's serializers, decoded to typed Arrow,
and Arrow rows written as such values (:class:`RegistryProtobufEncoder`).

The column's message type is one of the registry's schemas (a subject's version, or a
schema id), read with the schemas it references; every value is read with it, as
``from_protobuf`` reads with one descriptor.  Each value's writer schema id and
message indexes must name a message of the same full name.
"""

from __future__ import annotations

from typing import Any, Dict, Optional, Tuple, Union

from kafkawire.errors import SchemaResolutionError
from kafkawire.protobuf.decode import ProtobufColumnDecoder
from kafkawire.protobuf.schema import Pool, add_schema
from kafkawire.registry.client import RegisteredSchema, SchemaReference, SchemaRegistryClient
from kafkawire.registry.strategies import ForTopic, strategy

# the name a registered schema's own file goes by (its references go by theirs)
_ROOT = "<registered>.proto"


def registered_pool(client: SchemaRegistryClient, registered: RegisteredSchema) -> Pool:
    """A registered Protobuf schema and the schemas it references, read into one pool."""
    if registered.schema_type != "PROTOBUF":
        raise SchemaResolutionError(
            f"schema id {registered.schema_id} is {registered.schema_type}, not Protobuf"
        )
    pool = Pool()

    def add(schema: RegisteredSchema, name: str, depth: int) -> None:
        if depth > 32:
            raise SchemaResolutionError(f"schema id {registered.schema_id}: references nest deeper than 32")
        refs = {r.name: r for r in schema.references}

        def load(imported: str) -> None:
            ref = refs.get(imported)
            if ref is not None:
                add(client.schema_version(ref.subject, ref.version), imported, depth + 1)

        add_schema(pool, schema.schema, name, load)

    try:
        add(registered, _ROOT, 0)
    except SchemaResolutionError as exc:
        raise SchemaResolutionError(f"schema id {registered.schema_id}: {exc}") from None
    return pool


class RegistryProtobufDecoder(ProtobufColumnDecoder, ForTopic):
    """Decodes framed Protobuf values to the Arrow type of one message.

    The message is ``message`` (a full name; default: the schema's first message,
    Confluent's message indexes ``[0]``) of the registry's schema ``reader_id``, else
    of version ``version`` of ``subject``.  ``backend`` ("cython", "python") decodes (by
    default the active one).
    """

    def __init__(
        self,
        client: SchemaRegistryClient,
        *,
        subject: Optional[str] = None,
        version: Union[int, str] = "latest",
        reader_id: Optional[int] = None,
        message: Optional[str] = None,
        backend: Optional[str] = None,
    ) -> None:
        self.client = client
        if reader_id is not None:
            registered = client.schema_by_id(reader_id)
        elif subject is not None:
            registered = client.schema_version(subject, version)
        else:
            raise ValueError("give the schema id, or the subject whose version is the schema")
        self.reader_id: Optional[int] = registered.schema_id
        pool = registered_pool(client, registered)
        if message is None:
            first = pool.by_indexes(_ROOT, [0])
            if first is None:
                raise SchemaResolutionError(f"schema id {registered.schema_id} has no message")
            message = first.full_name
        self._pools: Dict[int, Pool] = {registered.schema_id: pool}
        super().__init__(pool, message, framed=True, message_for=self._written, backend=backend)

    def _written(self, schema_id: int, indexes: Tuple[int, ...]) -> Optional[str]:
        """The full name of the message a value of ``schema_id`` at ``indexes`` holds."""
        pool = self._pools.get(schema_id)
        if pool is None:
            pool = self._pools[schema_id] = registered_pool(self.client, self.client.schema_by_id(schema_id))
        found = pool.by_indexes(_ROOT, indexes)
        return None if found is None else found.full_name


class RegistryProtobufEncoder:
    """Writes the rows of struct columns (or tables), typed as the decoder types
    ``message``, as Protobuf values framed as Confluent's ``ProtobufSerializer`` frames
    them: the magic byte, the schema's registered id, the message indexes, the body.

    The schema is ``schema`` when given: ``.proto`` text (or the base64
    ``FileDescriptorProto`` the serializers register), or such files by name, the first
    the schema's own and the others the files it imports, each referenced under the
    subject of its name as the serializer references them (the well-known types need
    none); registered under the subject with ``auto_register`` (as the serializer's
    ``auto.register.schemas``) or else looked up there.  Without it, the subject's
    latest version.  The subject is ``subject``, or the one ``subject_strategy`` names for
    ``topic`` (and the message's full name).  ``message`` is a full name (default: the
    schema's first message).  The registry is asked once per encoder.
    """

    def __init__(
        self,
        client: SchemaRegistryClient,
        *,
        subject: Optional[str] = None,
        topic: Optional[str] = None,
        is_key: bool = False,
        subject_strategy: str = "topic",
        schema: Union[None, str, Dict[str, str]] = None,
        message: Optional[str] = None,
        auto_register: bool = False,
    ) -> None:
        from kafkawire.protobuf.decode import pool_from_proto
        from kafkawire.protobuf.encode import ProtobufArrowEncoder, message_indexes

        if subject is None and topic is None:
            raise ValueError("give the subject, or the topic whose subject the strategy names")
        self.client = client
        self.schema_id: Optional[int] = None
        registered = None
        if schema is None:
            if subject is None and subject_strategy == "topic":
                subject = strategy("topic")(topic or "", is_key, None)
            if subject is None:
                raise ValueError("without a schema, give the subject whose latest version is the schema")
            registered = client.schema_version(subject)
            pool, root = registered_pool(client, registered), _ROOT
            self.schema_id = registered.schema_id
        else:
            self._files = {"schema.proto": schema} if isinstance(schema, str) else dict(schema)
            pool, root = pool_from_proto(self._files), next(iter(self._files))
        if message is None:
            first = pool.by_indexes(root, [0])
            if first is None:
                raise SchemaResolutionError("the schema has no message")
            message = first.full_name
        self.message = pool.message(message).full_name
        self.message_indexes = message_indexes(pool, root, self.message)
        self.subject = subject or strategy(subject_strategy)(topic or "", is_key, self.message)
        self._pool, self._root, self._auto_register = pool, root, auto_register
        self._writer = ProtobufArrowEncoder(pool, self.message)

    def _schema_id(self) -> int:
        if self.schema_id is None:
            self.schema_id = self._registered(self.subject, self._root, 0).schema_id
        return self.schema_id

    def _registered(self, subject: str, name: str, depth: int) -> RegisteredSchema:
        """The given file ``name`` under ``subject``, after the files it imports (each
        under the subject of its name, as the serializer's reference subject names them)."""
        if depth > 32:
            raise SchemaResolutionError("imports nest deeper than 32")
        references = []
        for imported in self._pool.files[name].imports:
            if imported in self._files:
                version = self._registered(imported, imported, depth + 1).version
                references.append(SchemaReference(imported, imported, int(version or 0)))
        return self.client.writer_schema(
            subject, self._files[name], "PROTOBUF", self._auto_register, references
        )

    def encode(self, column: Any) -> Any:
        """A binary Arrow array of the framed values (null for a null row)."""
        from kafkawire.avro.write import binary_array, one_array
        from kafkawire.registry.wire import frame

        column = one_array(column)
        self._writer.compile(column.type)  # the column's type checked before the registry is asked
        prefix = frame(self._schema_id(), b"", self.message_indexes)
        return binary_array(*self._writer.encode_parts(column, prefix))
