"""What the ``kafka-log`` and ``kafka-cluster`` sources share about a query's options: they
are parsed once on the driver (:class:`ParsedOnce`), their names are checked by the one
checker of every source and sink (:func:`kafkawire.datasource_options.check_names`), and
a schema the query gives names the columns it wants (:func:`columns_of`)."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, Callable, Dict, Mapping, MutableMapping, Optional, Tuple, TypeVar

from kafkawire.spark.ddl import spark_type

if TYPE_CHECKING:
    import pyarrow
    from pyspark.sql.types import StructType

_T = TypeVar("_T")


class ParsedOnce:
    """A data source whose query's options are parsed once, whatever Spark asks of it.

    Spark makes the data source in a Python worker on the driver and asks it for the
    schema there, pickles it, and asks the copy for its reader (with the filters pushed)
    in another worker; a stream or a sink is asked again later.  What the first parse of
    a kind gave is kept on the source and travels in the pickle, so every later call
    takes it instead of parsing again (and warning again)."""

    options: MutableMapping[str, str]  # the query's options, as DataSource keeps them

    def parsed(self, kind: str, parse: Callable[[Mapping[str, str]], _T]) -> _T:
        """The query's options parsed by ``parse``, a ``kind`` of parse (``read``,
        ``stream``, ``write``) done once per source."""
        done: Dict[str, Any] = self.__dict__.setdefault("_parsed", {})
        if kind not in done:
            done[kind] = parse(self.options)
        result: _T = done[kind]
        return result


def columns_of(schema: "StructType", full: "pyarrow.Schema", source: str) -> Optional[Tuple[str, ...]]:
    """The columns a query's schema asks for (None: all of them, in order).

    Spark gives a Python data source no list of the columns a query uses, but it does
    pass on a schema given with ``spark.read.schema(...)``: a subset of the columns
    makes the reader decode and hand over only those.  Each must be one of ``full``
    (the ``source``'s columns), with its type, nullable as every column Spark gets is.
    """
    from pyspark.sql.pandas.types import to_arrow_schema

    wanted = to_arrow_schema(schema, timezone="UTC")
    for f in wanted:
        i = full.get_field_index(f.name)
        if i < 0:
            raise ValueError(f"{source} has no column {f.name!r}; its columns are " + ", ".join(full.names))
        ours = full.field(i)
        if not f.type.equals(ours.type) or not f.nullable:
            raise ValueError(
                f"{source} column {f.name!r} is {spark_type(ours.type)}"
                f" (nullable), not {schema[f.name].dataType.simpleString()}"
            )
    return None if wanted.names == full.names else tuple(wanted.names)
