"""kafkawire's ``to_dict()`` in the JSON form of Kafka's generated ``*JsonConverter``.

The two forms carry the same facts in different spellings: Kafka names a field in
camelCase (``ThrottleTimeMs`` -> ``throttleTimeMs``), writes a UUID as Kafka's
``Uuid.toString()`` (URL-safe base64 without padding) and only the fields the version
has, leaves a tagged field out while it holds its default, and writes no unknown
tagged fields.  Bytes are standard base64 in both.  Kafka's JSON writer gives a
``records`` field as an empty binary whatever it holds (the JSON form is meant for
request logs; its reader does take records), so :func:`java_form` writes records the
same way unless the JSON is for Java to read.
"""

from __future__ import annotations

import base64
import math
import uuid
from typing import Any, Dict

from kafkawire.protocol.schema import plan as P


def json_name(field_name: str) -> str:
    return field_name[:1].lower() + field_name[1:]


def kafka_uuid(text: str) -> str:
    return base64.urlsafe_b64encode(uuid.UUID(text).bytes).rstrip(b"=").decode("ascii")


def _value(fp: P.FieldPlan, obj_value: Any, dict_value: Any, for_reading: bool) -> Any:
    if dict_value is None:
        return None
    kind = fp.kind
    if kind == P.STRUCT:
        return java_form(obj_value, dict_value, fp.sub, for_reading)
    if kind == P.ARRAY:
        if fp.elem_kind == P.STRUCT:
            return [java_form(o, d, fp.sub, for_reading) for o, d in zip(obj_value, dict_value)]
        if fp.elem_kind == P.UUID:
            return [kafka_uuid(u) for u in dict_value]
        return list(dict_value)
    if kind == P.UUID:
        return kafka_uuid(dict_value)
    if kind == P.RECORDS and not for_reading:
        return ""
    if kind == P.FLOAT64 and not math.isfinite(dict_value):
        return "Infinity" if dict_value > 0 else "-Infinity"  # Jackson writes them as text
    return dict_value


def java_form(
    obj: Any, as_dict: Dict[str, Any], plan: P.StructPlan, for_reading: bool = False
) -> Dict[str, Any]:
    """``as_dict`` (``obj.to_dict()``) as Kafka's JsonConverter writes ``obj`` at ``plan``'s
    version; ``for_reading``: with the records, for Java to read."""
    out: Dict[str, Any] = {}
    for fp in plan.fields:
        out[json_name(fp.name)] = _value(fp, getattr(obj, fp.attr), as_dict[fp.attr], for_reading)
    for fp in plan.tagged:
        value = getattr(obj, fp.attr)
        if not fp.is_default(value):
            out[json_name(fp.name)] = _value(fp, value, as_dict[fp.attr], for_reading)
    return out


def without_unknown_tags(as_dict: Any) -> Any:
    """``to_dict()`` output without the unknown tagged fields (which Kafka's JSON drops)."""
    if isinstance(as_dict, dict):
        return {k: without_unknown_tags(v) for k, v in as_dict.items() if k != "_unknown_tagged_fields"}
    if isinstance(as_dict, list):
        return [without_unknown_tags(v) for v in as_dict]
    return as_dict


def all_finite(as_dict: Any) -> bool:
    """Does ``to_dict()`` output hold no infinite float?"""
    if isinstance(as_dict, dict):
        return all(all_finite(v) for v in as_dict.values())
    if isinstance(as_dict, list):
        return all(all_finite(v) for v in as_dict)
    return not (isinstance(as_dict, float) and math.isinf(as_dict))
