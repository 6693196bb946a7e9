"""What both ends of a connection share: the version ranges they start from, which
requests get no response, where a frame keeps its correlation id."""

from __future__ import annotations

import struct
from typing import Any, Dict, Mapping, Optional, Tuple, Union

from kafkawire.protocol.messages import api_keys, supported_versions
from kafkawire.protocol.schema.catalog import ApiKey
from kafkawire.protocol.schema.versions import VersionRange

#: API key -> the versions to use, as a ``VersionRange`` or ``(lowest, highest)``.
Versions = Mapping[int, Union[VersionRange, Tuple[int, int]]]
# a response's correlation id is its first field; a request's follows the API key and version
CORRELATION_ID = struct.Struct(">i")


def ranges(versions: Optional[Versions]) -> Dict[int, VersionRange]:
    """Every API kafkawire knows at the versions it supports, narrowed by ``versions``."""
    out = {key: supported_versions(key) for key in api_keys()}
    for key, rng in (versions or {}).items():
        if not isinstance(rng, VersionRange):
            rng = VersionRange(*rng)
        out[key] = rng
    return out


def is_acks0_produce(api_key: Optional[int], message: Any) -> bool:
    """Whether a request is a Produce with ``acks=0``, which gets no response."""
    return api_key == ApiKey.PRODUCE and getattr(message, "acks", None) == 0
