"""Avro values of a binary column decoded into one typed Arrow column.

:class:`AvroColumnDecoder` holds a reader schema's layout and one compiled plan per
writer schema; each call runs the active backend (:mod:`kafkawire._pure.avro` or
its Cython twin) over the column's buffers: no Python object per value.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, Callable, Dict, List, Optional, Sequence, Tuple, Union

from kafkawire import _backend
from kafkawire.avro.arrow import finish
from kafkawire.avro.plan import Layout, Plan, build_layout
from kafkawire.avro.resolve import compile_plan
from kafkawire.avro.schema import Schema, parse
from kafkawire.errors import SchemaFramingError

if TYPE_CHECKING:  # a type checker reads the pure twin; at run time the active backend's
    from kafkawire._backend_interfaces import AvroBackend
    from kafkawire._pure import avro as _pure_avro
    from kafkawire._pure.avro import decode_column as _decode_column

    _PURE_IS_A_BACKEND: AvroBackend = _pure_avro  # what implementation("avro") promises
else:
    _backend.bind(globals(), "avro", ("decode_column",), prefix="_")

SchemaLike = Union[str, Dict[str, Any], Sequence[Any]]


def binary_column(values: Any) -> Any:
    """``values`` (a pyarrow binary array or chunked array, or a sequence of bytes and
    None) as one ``pyarrow.BinaryArray``."""
    import pyarrow as pa

    if isinstance(values, pa.ChunkedArray):
        values = values.combine_chunks() if values.num_chunks != 1 else values.chunk(0)
    if not isinstance(values, pa.Array):
        values = pa.array(values, pa.binary())
    if pa.types.is_large_binary(values.type) or pa.types.is_binary_view(values.type):
        values = values.cast(pa.binary())
    if not pa.types.is_binary(values.type):
        raise TypeError(f"Avro values come in a binary column, not {values.type}")
    return values


class AvroColumnDecoder:
    """Decodes binary columns of Avro values to Arrow arrays of the reader schema's type.

    ``plan_for(schema_id)`` gives the writer plan of a framed value's schema id;
    ``framed=False`` reads bare Avro bodies with ``plan_for(-1)``.  Plans are kept, so
    each writer schema is compiled once per decoder.  ``backend`` ("cython", "python")
    is the backend that decodes (by default the active one, when each call runs).
    """

    def __init__(
        self,
        layout: Layout,
        plan_for: Callable[[int], Plan],
        framed: bool = True,
        backend: Optional[str] = None,
    ) -> None:
        self.layout = layout
        self.framed = framed
        self._source = plan_for
        self._plans: Dict[int, Plan] = {}
        self._spec = layout.spec()
        self._chosen = None if backend is None else _backend.implementation("avro", backend).decode_column

    @property
    def arrow_type(self) -> Any:
        """The Arrow type of decoded columns (a struct for a record schema)."""
        return self.layout.arrow_type

    def plan(self, schema_id: int) -> Plan:
        """The compiled plan for writer ``schema_id`` (compiled when first asked for)."""
        plan = self._plans.get(schema_id)
        if plan is None:
            plan = self._plans[schema_id] = self._source(schema_id)
        return plan

    def decode(
        self,
        values: Any,
        *,
        topic: Optional[str] = None,
        partitions: Optional[Sequence[int]] = None,
        offsets: Optional[Sequence[int]] = None,
    ) -> Any:
        """The Arrow array of the decoded ``values`` (null values are null rows).

        A value that does not decode raises a :class:`~kafkawire.errors.SchemaFramingError`
        naming ``topic`` and the row's partition and offset (from ``partitions`` and
        ``offsets``, one per value, when given).
        """
        column = binary_column(values)
        try:
            return self._decode(column)
        except SchemaFramingError as exc:
            raise self._located(exc, topic, partitions, offsets) from None

    def decode_permissive(
        self,
        values: Any,
        *,
        topic: Optional[str] = None,
        partitions: Optional[Sequence[int]] = None,
        offsets: Optional[Sequence[int]] = None,
    ) -> Tuple[Any, Any]:
        """``(column, reasons)``: the decoded ``values`` with a null row for each value
        that does not decode, and a string column holding why (null for good rows), as
        Spark's ``PERMISSIVE`` mode puts it in its corrupt-record column.

        Only an error that names its row (every error of a value's bytes) is taken so; a
        column-wide one (a string that is not UTF-8, found once the column is built)
        still raises.
        """
        import pyarrow as pa

        column = binary_column(values)
        pieces: List[Any] = []
        reasons: List[Optional[str]] = [None] * len(column)
        start = 0
        while start < len(column):
            rest = column.slice(start)
            try:
                pieces.append(self._decode(rest))
                break
            except SchemaFramingError as exc:
                row = getattr(exc, "row", None)
                if row is None:
                    raise self._located(exc, topic, None, None) from None
                if row:
                    pieces.append(self._decode(rest.slice(0, row)))
                pieces.append(pa.nulls(1, self.layout.arrow_type))
                here = [None if p is None else p[start:] for p in (partitions, offsets)]
                reasons[start + row] = str(self._located(exc, topic, here[0], here[1]))
                start += row + 1
        whole = pa.concat_arrays(pieces) if len(pieces) != 1 else pieces[0]
        return whole, pa.array(reasons, pa.string())

    def _decode(self, column: Any) -> Any:
        validity, offs, data = column.buffers()
        cols = (self._chosen or _decode_column)(
            len(column),
            column.offset,
            validity,
            offs,
            data if data is not None else b"",
            self._spec,
            self.plan,
            self.framed,
        )
        return finish(self.layout, cols)

    @staticmethod
    def _located(
        exc: SchemaFramingError,
        topic: Optional[str],
        partitions: Optional[Sequence[int]],
        offsets: Optional[Sequence[int]],
    ) -> SchemaFramingError:
        """``exc`` again, its message naming the topic, partition and offset of its row
        (or the row, when no offsets were given)."""
        row = getattr(exc, "row", None)
        partition = offset = None
        reason = exc.reason
        if row is not None:
            partition = partitions[row] if partitions is not None else None
            offset = offsets[row] if offsets is not None else None
            if offsets is None:
                reason = f"row {row}: {reason}"
        return type(exc)(reason, topic if topic is not None else exc.topic, partition, offset)


def decoder(
    writer_schema: SchemaLike, reader_schema: Optional[SchemaLike] = None, *, enums_as: str = "dictionary"
) -> AvroColumnDecoder:
    """A decoder of bare Avro bodies written with ``writer_schema``, read as
    ``reader_schema`` (default: the writer's) by the specification's resolution rules."""
    writer = parse(writer_schema)
    reader: Schema = parse(reader_schema) if reader_schema is not None else writer
    layout = build_layout(reader, enums_as)
    plan = compile_plan(writer, layout)
    return AvroColumnDecoder(layout, lambda _id: plan, framed=False)


def decode(
    values: Any,
    writer_schema: SchemaLike,
    reader_schema: Optional[SchemaLike] = None,
    *,
    enums_as: str = "dictionary",
) -> Any:
    """Bare Avro bodies (no registry framing) written with ``writer_schema`` as one
    Arrow array of ``reader_schema``'s type (see :func:`decoder`)."""
    return decoder(writer_schema, reader_schema, enums_as=enums_as).decode(values)
