"""JSON-safe forms of what kafkawire decodes, as the ``kafkawire`` commands print them
and :func:`kafkawire.cli.conversation.event_json` returns them: record keys, values and
header values as text, base64 or hex, and the ``records`` fields of a message decoded."""

from __future__ import annotations

import base64
from typing import Any, Dict, Optional

from kafkawire.errors import KafkaWireError
from kafkawire.protocol.schema.plan import ARRAY, RECORDS, STRUCT

#: the ways bytes can be printed (the commands' ``--bytes-as``)
BYTES_AS = ("auto", "text", "base64", "hex")


def render_bytes(data: Optional[bytes], how: str = "auto") -> Optional[str]:
    """A key, value or header value as JSON text: ``auto`` gives the text when the bytes
    are UTF-8 and base64 otherwise; ``text`` always text (bytes that are not UTF-8 as
    ``\\x..`` escapes); ``base64``; ``hex``.  None stays None."""
    if data is None:
        return None
    data = bytes(data)
    if how in ("auto", "text"):
        try:
            return data.decode("utf-8")
        except UnicodeDecodeError:
            if how == "text":
                return data.decode("utf-8", "backslashreplace")
    if how == "hex":
        return data.hex()
    return base64.b64encode(data).decode("ascii")


def records_json(obj: Any, out: Dict[str, Any], bytes_as: str = "auto") -> None:
    """Replace the base64 of every ``records`` field in ``out`` (``obj.to_dict()``) by
    the decoded records, their bytes rendered as ``bytes_as`` says."""
    from kafkawire.protocol import records as R

    for f in obj._spec.fields:
        value = getattr(obj, f.attr)
        if value is None or f.attr not in out:
            continue
        if f.kind == RECORDS:
            try:
                recs = R.decode(value)
            except KafkaWireError as exc:
                out[f.attr] = {"error": str(exc), "base64": out[f.attr]}
                continue
            out[f.attr] = [
                {
                    "offset": r.offset,
                    "timestamp": r.timestamp,
                    "key": render_bytes(r.key, bytes_as),
                    "value": render_bytes(r.value, bytes_as),
                    "headers": [[k, render_bytes(v, bytes_as)] for k, v in r.headers],
                }
                for r in recs
            ]
        elif f.kind == STRUCT:
            records_json(value, out[f.attr], bytes_as)
        elif f.kind == ARRAY and f.elem_kind == STRUCT:
            for item, d in zip(value, out[f.attr]):
                records_json(item, d, bytes_as)


__all__ = [
    "BYTES_AS",
    "render_bytes",
    "records_json",
]


def __dir__() -> list[str]:  # what the module defines, not what it imports
    return sorted(__all__)
