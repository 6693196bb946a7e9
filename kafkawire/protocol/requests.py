"""Whole requests and responses: header plus body, as they travel on a connection.

``encode_request``/``encode_response`` give a size-prefixed frame ready for
``socket.sendall`` (header and body written into one buffer of exactly the right
size); ``decode_request``/``decode_response`` take a frame's payload (what a
``FrameReader`` yields: the bytes after the size prefix).
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, Optional, Tuple, cast

from kafkawire import _backend
from kafkawire.protocol.message_class import Message
from kafkawire.errors import DecodeError, EncodeError, UnsupportedVersionError
from kafkawire.protocol.headers import (
    RequestHeader,
    ResponseHeader,
    peek_request_api,
    request_header_version,
    response_header_version,
)
from kafkawire.protocol.messages import request_class, response_class
from kafkawire.protocol.schema.catalog import ApiKey

__all__ = ["encode_request", "decode_request", "decode_request_prefix", "encode_response", "decode_response"]

if TYPE_CHECKING:  # a type checker reads the pure twin; at run time the active backend's
    from kafkawire._pure.codec import decode_from as _decode_from
    from kafkawire._pure.codec import encode_parts as _encode_parts
else:
    _backend.bind(globals(), "codec", ("encode_parts", "decode_from"), prefix="_")


def _check(msg: Any, kind: str) -> int:
    """The API key of ``msg``, once it is known to be a ``kind`` message."""
    if not isinstance(msg, Message) or msg.kind != kind:
        raise EncodeError(f"expected a {kind} message, got {type(msg).__name__}")
    return cast(int, msg.api_key)  # every request and response has one


def encode_request(msg: Message, version: int, correlation_id: int, client_id: Optional[str] = None) -> bytes:
    """A size-prefixed request frame: size, request header, ``msg`` at ``version``.

    The header version follows from the API and version (v2 for flexible versions, v1
    otherwise).
    """
    api_key = _check(msg, "request")
    body_plan = type(msg).plan(version)
    hv = request_header_version(api_key, version)
    header = RequestHeader(
        request_api_key=api_key,
        request_api_version=version,
        correlation_id=correlation_id,
        client_id=client_id,
    )
    return _encode_parts(((RequestHeader.plan(hv), header), (body_plan, msg)), True)


def _body(cls: type[Message], payload: Any, version: int, offset: int) -> Any:
    msg, end = _decode_from(cls.plan(version), payload, offset)
    size = memoryview(payload).nbytes
    if end != size:
        raise DecodeError(f"{cls.__name__} v{version}: {size - end} trailing bytes after byte {end}")
    return msg


def decode_request_prefix(payload: Any) -> Tuple[RequestHeader, Any, int]:
    """``(header, request, end)``: the request at the start of a frame's payload and the
    offset where its body ends.  Bytes from ``end`` on are not read.

    This is how Kafka's broker parses a request: it reads the body it expects and never
    looks at what follows, so a request with bytes after its body is served (librdkafka
    2.16 sends such MetadataRequests).  A broker or proxy that must accept what Kafka
    accepts uses this; :func:`decode_request` is the strict, byte-exact reading.
    """
    api_key, api_version = peek_request_api(payload)
    cls = request_class(api_key)
    if api_version not in cls.valid_versions:
        raise UnsupportedVersionError(
            f"{cls.__name__} has no version {api_version} (valid: {cls.valid_versions})"
        )
    hv = request_header_version(api_key, api_version)
    header, offset = _decode_from(RequestHeader.plan(hv), payload, 0)
    msg, end = _decode_from(cls.plan(api_version), payload, offset)
    return header, msg, end


def _size_prefixed(payload: Any) -> Optional[int]:
    """The size a payload's first four bytes give when they are its own size: the frame
    was passed whole (``encode_request`` returns it so) rather than ``frame[4:]``."""
    view = memoryview(payload).cast("B")
    if view.nbytes < 4:
        return None
    size = int.from_bytes(view[:4], "big")
    return size if size == view.nbytes - 4 else None


def _frame_passed_whole(exc: DecodeError, payload: Any, function: str) -> DecodeError:
    """``exc`` with what went wrong when the payload still has its size prefix."""
    size = _size_prefixed(payload)
    if size is None:
        return exc
    return type(exc)(
        f"the payload starts with its own size ({size}): {function} takes a frame without "
        f"its 4-byte size prefix, frame[4:] (read as it is: {exc})"
    )


def decode_request(payload: Any) -> Tuple[RequestHeader, Any]:
    """``(header, request)`` of a request frame's payload (no size prefix).

    The API key and version come from the header.  An unknown API key raises
    :class:`~kafkawire.errors.UnknownApiError`, a version the API does not have
    :class:`~kafkawire.errors.UnsupportedVersionError`.  The body must fill the payload:
    bytes after it raise :class:`~kafkawire.errors.DecodeError` (a decode is byte-exact;
    :func:`decode_request_prefix` reads a request as Kafka's broker does).
    """
    try:
        header, msg, end = decode_request_prefix(payload)
        size = memoryview(payload).nbytes
        if end != size:
            name = type(msg).__name__
            raise DecodeError(
                f"{name} v{header.request_api_version}: {size - end} trailing bytes after byte {end}"
            )
    except DecodeError as exc:
        hinted = _frame_passed_whole(exc, payload, "decode_request")
        if hinted is exc:
            raise
        raise hinted from exc
    return header, msg


def encode_response(msg: Message, version: int, correlation_id: int) -> bytes:
    """A size-prefixed response frame: size, response header, ``msg`` at ``version``."""
    api_key = _check(msg, "response")
    body_plan = type(msg).plan(version)
    hv = response_header_version(api_key, version)
    header = ResponseHeader(correlation_id=correlation_id)
    return _encode_parts(((ResponseHeader.plan(hv), header), (body_plan, msg)), True)


def decode_response(payload: Any, api_key: int, version: int) -> Tuple[ResponseHeader, Any]:
    """``(header, response)`` of a response frame's payload to a request of ``api_key``
    at ``version`` (responses do not say what they answer: the caller knows).

    KIP-511: a broker that does not support the requested ApiVersions version answers
    with a v0 ApiVersionsResponse (error UNSUPPORTED_VERSION and the versions it does
    support).  As Kafka's own client does, when the body does not decode at the
    requested version it is decoded again at v0.
    """
    cls = response_class(api_key)
    hv = response_header_version(api_key, version)
    cls.plan(version)  # an UnsupportedVersionError before anything is read
    header, offset = _decode_from(ResponseHeader.plan(hv), payload, 0)
    try:
        return header, _body(cls, payload, version, offset)
    except DecodeError as exc:
        if api_key != ApiKey.API_VERSIONS or version == 0:
            hinted = _frame_passed_whole(exc, payload, "decode_response")
            if hinted is exc:
                raise
            raise hinted from exc
        try:
            return header, _body(cls, payload, 0, offset)
        except DecodeError:
            pass
        raise


def __dir__() -> list[str]:  # what the module defines, not what it imports
    return sorted(__all__)
