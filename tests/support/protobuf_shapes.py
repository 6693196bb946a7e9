"""The Protobuf tests' schemas, message classes built from them by protoc (grpcio-tools,
from PyPI) and the protobuf runtime's reading of a message as ``from_protobuf`` types
it: the oracle the decoded rows are compared with.
"""

from __future__ import annotations

import atexit
import datetime
import importlib
import math
import os
import shutil
import sys
import tempfile
from typing import Any, Dict, Tuple

COMMON = """
syntax = "proto3";
package shop.common;

message Money { string currency = 1; int64 units = 2; sint32 nanos = 3; }
enum Level { LEVEL_UNSPECIFIED = 0; LOW = 1; HIGH = 2; }
"""

ORDER = """
// every kind of field spark-protobuf types
syntax = "proto3";
package shop;

import "common.proto";
import "google/protobuf/timestamp.proto";
import "google/protobuf/duration.proto";
import "google/protobuf/wrappers.proto";
import "google/protobuf/any.proto";
import "google/protobuf/empty.proto";

option java_package = "com.example.shop";

message Order {
  int32 i32 = 1; int64 i64 = 2; uint32 u32 = 3; uint64 u64 = 4; sint32 s32 = 5; sint64 s64 = 6;
  fixed32 f32 = 7; fixed64 f64 = 8; sfixed32 sf32 = 9; sfixed64 sf64 = 10;
  float fl = 11; double db = 12; bool ok = 13; string name = 14; bytes raw = 15;
  Status status = 16;
  shop.common.Level level = 17;
  Line first_line = 18;
  repeated Line lines = 19;
  repeated int64 ids = 20;
  repeated string tags = 21;
  repeated Status history = 22;
  map<string, int32> counts = 23;
  map<int64, Line> by_id = 24;
  map<string, common.Money> prices = 25;
  oneof payment {
    string card = 26;
    shop.common.Money cash = 27;
    bool later = 28;
  }
  optional int32 maybe_count = 29;
  optional string maybe_note = 30 [json_name = "note"];
  google.protobuf.Timestamp created = 31;
  google.protobuf.Duration ttl = 32;
  google.protobuf.Int32Value w_i32 = 33;
  google.protobuf.StringValue w_str = 34;
  google.protobuf.BoolValue w_bool = 35;
  google.protobuf.DoubleValue w_db = 36;
  google.protobuf.BytesValue w_bytes = 37;
  google.protobuf.UInt64Value w_u64 = 38;
  google.protobuf.Any extra = 39;
  google.protobuf.Empty nothing = 40;
  repeated google.protobuf.Timestamp stamps = 41;
  repeated double ratios = 42 [packed = false];
  .shop.common.Money total = 43;
  reserved 100 to 110;

  enum Status { NEW = 0; PAID = 1; SHIPPED = 2; }
  message Line {
    string sku = 1;
    int32 qty = 2;
    repeated string notes = 3;
    Status status = 4;
  }
}

/* a second message: its values carry the message indexes [1] */
message Receipt { string order_name = 1; Order.Line line = 2; }
"""

LEGACY = r"""
syntax = "proto2";
package legacy;

message Item {
  required string id = 1;
  optional int32 count = 2 [default = 7];
  optional string label = 3 [default = "none"];
  optional Color color = 4 [default = GREEN];
  optional Color shade = 5;
  repeated int32 xs = 6;
  optional double ratio = 7 [default = -1.5];
  optional bool flag = 8 [default = true];
  optional int64 plain = 9;
  optional bytes blob = 10 [default = "a\001\xff"];
  optional string motto = 11 [default = "zo\303\253 \"q\""];
  optional int32 octal = 12 [default = 017];
  optional sint64 hex = 13 [default = -0x10];
  optional float inf = 14 [default = -inf];
  enum Color { RED = 1; GREEN = 2; BLUE = 3; }
}
"""

FILES = {"common.proto": COMMON, "order.proto": ORDER, "legacy.proto": LEGACY}

_built: Dict[str, Any] = {}


def build() -> Tuple[Any, Any, Any, bytes]:
    """The modules ``common_pb2``, ``order_pb2``, ``legacy_pb2`` protoc makes of the
    schemas, and the descriptor set of all of them (their imports included)."""
    if not _built:
        from grpc_tools import protoc

        import grpc_tools

        out = tempfile.mkdtemp(prefix="kafkawire-proto-")
        atexit.register(shutil.rmtree, out, True)
        for name, text in FILES.items():
            with open(os.path.join(out, name), "w") as f:
                f.write(text)
        include = os.path.join(os.path.dirname(grpc_tools.__file__), "_proto")
        descriptors = os.path.join(out, "all.desc")
        rc = protoc.main(
            [
                "protoc",
                f"-I{out}",
                f"-I{include}",
                f"--python_out={out}",
                f"--descriptor_set_out={descriptors}",
                "--include_imports",
                *(os.path.join(out, n) for n in FILES),
            ]
        )
        assert rc == 0, "protoc failed"
        sys.path.insert(0, out)
        try:
            modules = [importlib.import_module(n[: -len(".proto")] + "_pb2") for n in FILES]
        finally:
            sys.path.remove(out)
        with open(descriptors, "rb") as f:
            _built["all"] = (*modules, f.read())
        _built["dir"] = out
    return _built["all"]


def descriptor_path() -> str:
    build()
    return os.path.join(_built["dir"], "all.desc")


_EPOCH = datetime.datetime(1970, 1, 1, tzinfo=datetime.timezone.utc)
_WRAPPERS = {
    f"google.protobuf.{n}Value"
    for n in ("Double", "Float", "Int64", "UInt64", "Int32", "UInt32", "Bool", "String", "Bytes")
}


def _micros(seconds: int, nanos: int) -> int:
    return seconds * 1_000_000 + int(math.copysign(abs(nanos) // 1000, nanos))


def _keeps(fd: Any) -> bool:
    """False for a message field of no fields: Spark leaves it out."""
    return fd.message_type is None or _time(fd.message_type) or any(_keeps(f) for f in fd.message_type.fields)


def _time(md: Any) -> bool:
    return md.name in ("Timestamp", "Duration") and [f.name for f in md.fields] == ["seconds", "nanos"]


def _value(fd: Any, v: Any) -> Any:
    if fd.type in (fd.TYPE_UINT32, fd.TYPE_FIXED32, fd.TYPE_UINT64, fd.TYPE_FIXED64):
        bits = 32 if fd.type in (fd.TYPE_UINT32, fd.TYPE_FIXED32) else 64
        return v - (1 << bits) if v >> (bits - 1) else v  # Java's int and long: signed
    if fd.type == fd.TYPE_ENUM:
        known = fd.enum_type.values_by_number.get(v)
        return known.name if known is not None else f"UNKNOWN_ENUM_VALUE_{fd.enum_type.name}_{v}"
    if fd.message_type is None:
        return v
    md = fd.message_type
    if _time(md):
        micros = _micros(v.seconds, v.nanos)
        if md.name == "Timestamp":
            return _EPOCH + datetime.timedelta(microseconds=micros)
        return datetime.timedelta(microseconds=micros)
    if md.full_name in _WRAPPERS:
        return _value(md.fields_by_name["value"], v.value)
    return expected(v)


def expected(msg: Any) -> Dict[str, Any]:
    """``msg``, as parsed by the protobuf runtime, walked as spark-protobuf types it:
    null for an absent field with presence (or a proto3 default without), the default
    for an absent proto2 field that declares one, empty for an absent repeated field."""
    out: Dict[str, Any] = {}
    for fd in msg.DESCRIPTOR.fields:
        if not _keeps(fd):
            continue
        value = getattr(msg, fd.name)
        if fd.message_type is not None and fd.message_type.GetOptions().map_entry:
            vfd = fd.message_type.fields_by_name["value"]
            out[fd.name] = {k: _value(vfd, value[k]) for k in value}
        elif fd.is_repeated:
            out[fd.name] = [_value(fd, v) for v in value]
        elif fd.has_presence:
            present = msg.HasField(fd.name) or fd.has_default_value
            out[fd.name] = _value(fd, value) if present else None
        else:
            zero = value == fd.default_value and not (
                isinstance(value, float) and math.copysign(1, value) < 0
            )
            out[fd.name] = None if zero else _value(fd, value)
    return out


def rows(column: Any) -> list:
    """A decoded column's rows as ``expected`` gives them (maps as dicts, NaN as a string)."""
    import pyarrow as pa

    def norm(t: Any, v: Any) -> Any:
        if v is None:
            return None
        if pa.types.is_struct(t):
            return {f.name: norm(f.type, v[f.name]) for f in t}
        if pa.types.is_map(t):
            return {k: norm(t.item_type, x) for k, x in v}
        if pa.types.is_list(t):
            return [norm(t.value_type, x) for x in v]
        if isinstance(v, float) and math.isnan(v):
            return "NaN"
        return v

    return [norm(column.type, v) for v in column.to_pylist()]


def oracle_rows(messages: Any) -> list:
    """``expected`` of each message (None for None), NaN as a string."""

    def nan(v: Any) -> Any:
        if isinstance(v, dict):
            return {k: nan(x) for k, x in v.items()}
        if isinstance(v, list):
            return [nan(x) for x in v]
        return "NaN" if isinstance(v, float) and math.isnan(v) else v

    return [None if m is None else nan(expected(m)) for m in messages]
