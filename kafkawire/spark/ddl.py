"""The Spark SQL types, as DDL, of the Arrow types that ``kafka-log`` and the column
functions yield (Spark declares a Python data source's schema and a UDF's return type
in DDL)."""

from __future__ import annotations

from typing import TYPE_CHECKING, Optional

from kafkawire.log.read_options import ReadOptions, read_schema

if TYPE_CHECKING:
    import pyarrow

_SPARK_TYPES = {
    "string": "string",
    "int32": "int",
    "int64": "bigint",
    "int16": "smallint",
    "int8": "tinyint",
    "bool": "boolean",
    "binary": "binary",
    "timestamp[us, tz=UTC]": "timestamp",
}


def spark_type(t: "pyarrow.DataType") -> str:
    """The Spark SQL type (as DDL) of the Arrow type ``t``."""
    import pyarrow as pa

    if pa.types.is_list(t):
        return f"array<{spark_type(t.value_type)}>"
    if pa.types.is_struct(t):
        return "struct<" + ", ".join(f"{f.name}: {spark_type(f.type)}" for f in t) + ">"
    return _SPARK_TYPES[str(t)]


def spark_ddl(options: Optional[ReadOptions] = None) -> str:
    """The Spark DDL of what ``kafka-log`` reads with ``options``
    (:func:`kafkawire.log.read_options.read_schema`)."""
    return ", ".join(f"`{f.name}` {spark_type(f.type)}" for f in read_schema(options))
