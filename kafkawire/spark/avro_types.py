"""The Arrow types of decoded Avro columns (:mod:`kafkawire.avro`) as Spark takes them
from an Arrow UDF, and their Spark DDL: the types Spark's ``from_avro`` gives the same
Avro types."""

from __future__ import annotations

from typing import TYPE_CHECKING

from kafkawire.errors import SchemaResolutionError

if TYPE_CHECKING:
    import pyarrow


def spark_compatible(t: "pyarrow.DataType") -> "pyarrow.DataType":
    """``t`` with what Spark has no Arrow mapping for replaced: timestamps in
    microseconds, fixed as binary, enums as strings, time-millis as its int and
    time-micros as Spark's ``time(6)`` (as ``from_avro`` reads them), every field
    nullable and list items named ``element``."""
    import pyarrow as pa

    if pa.types.is_struct(t):
        return pa.struct([pa.field(f.name, spark_compatible(f.type)) for f in t])
    if pa.types.is_list(t):
        return pa.list_(pa.field("element", spark_compatible(t.value_type)))
    if pa.types.is_map(t):
        return pa.map_(spark_compatible(t.key_type), pa.field("value", spark_compatible(t.item_type)))
    if pa.types.is_dictionary(t):
        return pa.string()
    if pa.types.is_fixed_size_binary(t):
        return pa.binary()
    if pa.types.is_timestamp(t):
        return pa.timestamp("us", tz=t.tz)
    if pa.types.is_time32(t):  # time-millis: an int, as from_avro gives it
        return pa.int32()
    if pa.types.is_time64(t):  # time-micros: Spark's time(6), nanoseconds in Arrow
        return pa.time64("ns")
    if pa.types.is_decimal(t) and t.precision > 38:
        raise SchemaResolutionError(f"Spark's decimals hold at most 38 digits, not {t.precision}")
    return t


_DDL = {
    "null": "void",
    "bool": "boolean",
    "int32": "int",
    "int64": "bigint",
    "float": "float",
    "double": "double",
    "string": "string",
    "binary": "binary",
    "date32[day]": "date",
    "timestamp[us, tz=UTC]": "timestamp",
    "timestamp[us]": "timestamp_ntz",
    "time64[ns]": "time(6)",
    "duration[us]": "interval day to second",  # Protobuf's Duration, as from_protobuf types it
}


def spark_ddl(t: "pyarrow.DataType") -> str:
    """The Spark DDL of a :func:`spark_compatible` type."""
    import pyarrow as pa

    if pa.types.is_struct(t):
        return "struct<" + ", ".join(f"`{f.name}`: {spark_ddl(f.type)}" for f in t) + ">"
    if pa.types.is_list(t):
        return f"array<{spark_ddl(t.value_type)}>"
    if pa.types.is_map(t):
        return f"map<{spark_ddl(t.key_type)}, {spark_ddl(t.item_type)}>"
    if pa.types.is_decimal(t):
        return f"decimal({t.precision}, {t.scale})"
    try:
        return _DDL[str(t)]
    except KeyError:
        raise SchemaResolutionError(f"the Arrow type {t} has no Spark type") from None
