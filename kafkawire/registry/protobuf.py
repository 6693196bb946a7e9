"""Columns of Protobuf values framed by Confluent's serializers, decoded to typed Arrow.

The column's message type is one of the registry's schemas (a subject's version, or a
schema id), read with the schemas it references; every value is read with it, as
``from_protobuf`` reads with one descriptor.  Each value's writer schema id and
message indexes must name a message of the same full name.
"""

from __future__ import annotations

from typing import Dict, Optional, Tuple, Union

from kafkawire.errors import SchemaResolutionError
from kafkawire.protobuf.decode import ProtobufColumnDecoder
from kafkawire.protobuf.schema import Pool, add_schema
from kafkawire.registry.client import RegisteredSchema, SchemaRegistryClient
from kafkawire.registry.strategies import ForTopic

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
    of version ``version`` of ``subject``.
    """

    def __init__(
        self,
        client: SchemaRegistryClient,
        *,
        subject: Optional[str] = None,
        version: Union[int, str] = "latest",
        reader_id: Optional[int] = None,
        message: Optional[str] = None,
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
        super().__init__(pool, message, framed=True, message_for=self._written)

    def _written(self, schema_id: int, indexes: Tuple[int, ...]) -> Optional[str]:
        """The full name of the message a value of ``schema_id`` at ``indexes`` holds."""
        pool = self._pools.get(schema_id)
        if pool is None:
            pool = self._pools[schema_id] = registered_pool(self.client, self.client.schema_by_id(schema_id))
        found = pool.by_indexes(_ROOT, indexes)
        return None if found is None else found.full_name
