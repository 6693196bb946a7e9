"""Protobuf values of a binary column decoded into one typed Arrow column.

:class:`ProtobufColumnDecoder` holds one message type's layout and plan: every value
is read with it, as ``from_protobuf`` reads every value with its one descriptor (a
field the schema lacks is skipped, one the value lacks is null).  Framed values name
their writer's message by schema id and message indexes; ``message_for`` says which
message that is, and a value of another message type is an error.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, Callable, Dict, List, Optional, Sequence, Tuple, Union

from kafkawire import _backend
from kafkawire.avro.arrow import finish
from kafkawire.avro.decode import AvroColumnDecoder
from kafkawire.errors import PayloadDecodeError, SchemaResolutionError
from kafkawire.protobuf.plan import Plan, compile_message
from kafkawire.protobuf.schema import WELL_KNOWN, Pool, add_schema, parse_descriptor_set

if TYPE_CHECKING:  # a type checker reads the pure twin; at run time the active backend's
    from kafkawire._backend_interfaces import ProtobufBackend
    from kafkawire._pure import protobuf as _pure_protobuf

    from kafkawire._pure.protobuf import decode_column as _decode_column

    _PURE_IS_A_BACKEND: ProtobufBackend = _pure_protobuf  # what implementation("protobuf") promises
else:
    _backend.bind(globals(), "protobuf", ("decode_column",), prefix="_")


class ProtobufColumnDecoder(AvroColumnDecoder):
    """Decodes binary columns of ``message`` (a full name in ``pool``) values to Arrow.

    ``framed``: the values carry Confluent's header (magic byte, schema id, message
    indexes); ``message_for(schema id, indexes)`` then names each writer's message
    (None: any value is taken for ``message``).  ``backend`` ("cython", "python") is the
    backend that decodes (by default the active one, when each call runs).
    """

    def __init__(
        self,
        pool: Pool,
        message: str,
        *,
        framed: bool = False,
        message_for: Optional[Callable[[int, Tuple[int, ...]], Optional[str]]] = None,
        backend: Optional[str] = None,
    ) -> None:
        self.message = pool.message(message).full_name
        layout, self._plan = compile_message(pool, pool.message(message))
        self._message_for = message_for
        self._writers: Dict[Tuple[int, Tuple[int, ...]], Plan] = {}
        super().__init__(layout, lambda _id: self._plan, framed=framed)  # type: ignore[arg-type,return-value]
        self._chosen_protobuf = (
            None if backend is None else _backend.implementation("protobuf", backend).decode_column
        )

    def plan_for(self, schema_id: int, indexes: Sequence[int]) -> Plan:
        """The plan for values of writer ``schema_id`` at message ``indexes``."""
        key = (schema_id, tuple(indexes))
        plan = self._writers.get(key)
        if plan is None:
            if self._message_for is not None and schema_id >= 0:
                written = self._message_for(schema_id, key[1])
                if written != self.message:
                    raise PayloadDecodeError(
                        f"schema id {schema_id}, message indexes {list(indexes)}: "
                        + ("no such message" if written is None else f"the message {written}")
                        + f", not the column's {self.message}"
                    )
            plan = self._writers[key] = self._plan
        return plan

    def _decode(self, column: Any) -> Any:
        validity, offs, data = column.buffers()
        cols = (self._chosen_protobuf or _decode_column)(
            len(column),
            column.offset,
            validity,
            offs,
            data if data is not None else b"",
            self._spec,
            self.plan_for,
            self.framed,
        )
        return finish(self.layout, cols)


def pool_from_proto(files: Union[str, Dict[str, str]]) -> Pool:
    """A pool of ``.proto`` text: one file, or several by name (the well-known types
    need no text)."""
    texts = {"schema.proto": files} if isinstance(files, str) else dict(files)
    pool = Pool()
    loading: List[str] = []

    def load(name: str) -> None:
        if name not in texts:
            if name in WELL_KNOWN:
                add_schema(pool, WELL_KNOWN[name], name)
            return
        if name in loading:
            raise SchemaResolutionError(f"{name} imports itself")
        loading.append(name)
        add_schema(pool, texts[name], name, load)
        loading.pop()

    for name in texts:
        if name not in pool.files:
            load(name)
    return pool


def decoder(
    schema: Union[str, bytes, Dict[str, str]], message: Optional[str] = None, *, framed: bool = False
) -> ProtobufColumnDecoder:
    """A decoder of ``message`` values (full name; default: the first message of the
    first file): ``schema`` is a descriptor set (``FileDescriptorSet`` bytes, as
    ``protoc --descriptor_set_out`` writes and ``from_protobuf``'s ``descFilePath``
    reads) or ``.proto`` text (one file, or files by name).  ``framed``: each value
    starts with Confluent's header, skipped."""
    pool = (
        parse_descriptor_set(schema)
        if isinstance(schema, (bytes, bytearray, memoryview))
        else pool_from_proto(schema)
    )
    if message is None:
        for pf in pool.files.values():
            if pf.messages and pf.name not in WELL_KNOWN:
                message = pf.messages[0].full_name
                break
        else:
            raise SchemaResolutionError("the schema has no message")
    return ProtobufColumnDecoder(pool, message, framed=framed)


def decode(
    values: Any,
    schema: Union[str, bytes, Dict[str, str]],
    message: Optional[str] = None,
    *,
    framed: bool = False,
) -> Any:
    """Protobuf values as one Arrow array of ``message``'s type (see :func:`decoder`)."""
    return decoder(schema, message, framed=framed).decode(values)
