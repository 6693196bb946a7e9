"""Request and response headers, built from the RequestHeader/ResponseHeader definitions.

The header version is never on the wire: it follows from the API key and version.

* Request header v2 for flexible API versions, else v1 (v0 served only ControlledShutdown
  v0, an API Kafka 4 retired).  ``ClientId`` stays an int16-length (non-compact) string even
  in v2, so that any broker can read the header of any request.
* Response header v1 for flexible API versions, else v0; ApiVersions responses always
  use v0 (KIP-511), so a client that guessed a version too high can still read the
  error the broker answers with.
"""

from __future__ import annotations

import struct
from functools import lru_cache
from typing import Any, Optional, Tuple

from kafkawire.errors import TruncatedError, UnknownApiError
from kafkawire.protocol.messages import RequestHeader, ResponseHeader
from kafkawire.protocol.schema.catalog import CATALOG, ApiKey
from kafkawire.protocol.schema.versions import VersionRange

__all__ = [
    "RequestHeader",
    "ResponseHeader",
    "request_header_version",
    "response_header_version",
    "encode_request_header",
    "decode_request_header",
    "encode_response_header",
    "decode_response_header",
    "peek_request_api",
    "flexible_versions",
]

_PEEK = struct.Struct(">hh")


@lru_cache(maxsize=None)
def flexible_versions(api_key: int, kind: str) -> VersionRange:
    """The flexible versions of the ``kind`` ("request" or "response") of ``api_key``, from
    the catalog (without building the message class)."""
    for entry in CATALOG.values():
        if entry.api_key == api_key and entry.type == kind:
            return VersionRange.parse(entry.flexible_versions)
    raise UnknownApiError(f"no {kind} is defined for API key {api_key}")


def request_header_version(api_key: int, api_version: int) -> int:
    """The request header version for ``api_key`` at ``api_version`` (1 or 2)."""
    return 2 if api_version in flexible_versions(api_key, "request") else 1


def response_header_version(api_key: int, api_version: int) -> int:
    """The response header version for ``api_key`` at ``api_version`` (0 or 1)."""
    if api_key == ApiKey.API_VERSIONS:
        flexible_versions(api_key, "response")  # unknown keys raise like any other
        return 0
    return 1 if api_version in flexible_versions(api_key, "response") else 0


def encode_request_header(header: RequestHeader, version: Optional[int] = None) -> bytes:
    """The bytes of ``header``; ``version`` defaults to the one its API key and version imply."""
    if version is None:
        version = request_header_version(header.request_api_key, header.request_api_version)
    return header.encode(version)


def peek_request_api(payload: Any) -> Tuple[int, int]:
    """``(api_key, api_version)``: the first four bytes of a request (after the size)."""
    try:
        return _PEEK.unpack_from(payload, 0)
    except struct.error:
        raise TruncatedError(
            f"a request needs at least 4 bytes for its API key and version, got {len(payload)}"
        ) from None
    except TypeError as exc:
        raise TruncatedError(f"cannot read a request header from {type(payload).__name__}: {exc}") from None


def decode_request_header(payload: Any, offset: int = 0) -> Tuple[RequestHeader, int]:
    """Decode the request header at ``offset``; returns ``(header, offset of the body)``.

    The header version comes from the API key and version the header starts with; an
    unknown API key raises :class:`~kafkawire.errors.UnknownApiError`.
    """
    view = memoryview(payload)[offset:] if offset else payload
    api_key, api_version = peek_request_api(view)
    version = request_header_version(api_key, api_version)
    header, end = RequestHeader.decode_from(payload, version, offset)
    return header, end


def encode_response_header(header: ResponseHeader, version: int) -> bytes:
    """The bytes of a response header at ``version`` (0 or 1)."""
    return header.encode(version)


def decode_response_header(payload: Any, version: int, offset: int = 0) -> Tuple[ResponseHeader, int]:
    """Decode a response header at ``version``; returns ``(header, offset of the body)``."""
    return ResponseHeader.decode_from(payload, version, offset)


def __dir__() -> list[str]:  # what the module defines, not what it imports
    return sorted(__all__)
