"""The broker's frame checks: each request and response written to the frame log and,
with ``check_roundtrip``, re-encoded and compared with the bytes on the wire."""

from __future__ import annotations

import logging
import time
from typing import Any, Callable, Dict, Optional, Union

import kafkawire
from kafkawire.protocol import messages as M
from kafkawire.broker.connections import Connection
from kafkawire.broker.frame_log import Shown, without_credentials
from kafkawire.broker.context import BrokerContext
from kafkawire.protocol.error_codes import ErrorCode
from kafkawire.errors import DecodeError
from kafkawire.protocol.headers import (
    RequestHeader,
    encode_request_header,
    encode_response_header,
    request_header_version,
    response_header_version,
)
from kafkawire.protocol.schema.catalog import ApiKey

log = logging.getLogger("kafkawire.broker")


def _roundtrip_failed(ctx: BrokerContext, entry: Dict[str, Any], expected: bytes, got: bytes) -> None:
    diff_at = next((i for i, (a, b) in enumerate(zip(expected, got)) if a != b), min(len(expected), len(got)))
    failure = dict(entry, reencoded_hex=got.hex(), first_difference=diff_at)
    ctx.observed.roundtrip_failures.append(failure)
    log.error(
        "frame does not re-encode to the same bytes: %s v%s (byte %d)",
        entry.get("api_name"),
        entry.get("api_version"),
        diff_at,
    )


def log_request(
    ctx: BrokerContext,
    conn: Connection,
    payload: bytes,
    header: RequestHeader,
    request: Any,
    trailing: int = 0,
) -> None:
    """Log a request and check its round trip.  ``trailing`` bytes at the end of
    ``payload`` were not read (Kafka ignores them): the log keeps them apart, as
    ``trailing_hex``, so that ``hex`` is the request that decodes."""
    version = header.request_api_version
    entry = {
        "time": time.time(),
        "connection": conn.id,
        "direction": "request",
        "api_key": header.request_api_key,
        "api_name": type(request).__name__,
        "api_version": version,
        "correlation_id": header.correlation_id,
    }
    if trailing:
        entry["trailing_hex"] = payload[len(payload) - trailing :].hex()
        payload = payload[: len(payload) - trailing]

    def encode_again() -> bytes:
        hv = request_header_version(header.request_api_key, version)
        again: bytes = encode_request_header(header, hv) + request.encode(version)
        return again

    shown = None
    if isinstance(request, M.SaslAuthenticateRequest):
        shown = without_credentials(payload, request, version)
    _check_and_log(ctx, entry, payload, header, request, encode_again, shown)


def log_response(
    ctx: BrokerContext, conn: Connection, frame: bytes, api_key: int, version: int, correlation_id: int
) -> None:
    """Log a response and check that it decodes and re-encodes to ``frame``'s bytes."""
    payload = memoryview(frame)[4:]
    cls = M.response_class(api_key)
    entry = {
        "time": time.time(),
        "connection": conn.id,
        "direction": "response",
        "api_key": api_key,
        "api_name": cls.__name__,
        "api_version": version,
        "correlation_id": correlation_id,
    }
    try:
        header, body = kafkawire.decode_response(payload, api_key, version)
    except DecodeError as exc:
        entry["decode_error"] = str(exc)
        ctx.observed.roundtrip_failures.append(dict(entry, hex=bytes(payload).hex()))
        if ctx.state.frame_log is not None:
            ctx.state.frame_log(dict(entry, hex=bytes(payload).hex()))
        return

    def encode_again() -> bytes:
        # KIP-511 answers are v0-shaped whatever was asked
        body_version = version
        if api_key == ApiKey.API_VERSIONS and body.error_code == ErrorCode.UNSUPPORTED_VERSION:
            body_version = 0
        hv = response_header_version(api_key, version)
        again: bytes = encode_response_header(header, hv) + body.encode(body_version)
        return again

    _check_and_log(ctx, entry, payload, header, body, encode_again)


def _check_and_log(
    ctx: BrokerContext,
    entry: Dict[str, Any],
    payload: Union[bytes, memoryview],
    header: Any,
    body: Any,
    encode_again: Callable[[], bytes],
    shown: Optional[Shown] = None,
) -> None:
    """With ``check_roundtrip``, whether re-encoding ``header`` and ``body`` gives
    ``payload`` back; then ``entry`` to the frame log, if there is one, with the hex
    and body of ``shown`` when given."""
    if ctx.check_roundtrip:
        again = encode_again()
        ctx.observed.frames_checked += 1
        entry["roundtrip"] = again == bytes(payload)
        if not entry["roundtrip"]:
            _roundtrip_failed(ctx, dict(entry, hex=bytes(payload).hex()), bytes(payload), again)
    if ctx.state.frame_log is not None:
        hex_shown, body_shown = shown or (bytes(payload).hex(), body.to_dict())
        if hex_shown is not None:
            entry["hex"] = hex_shown
        entry["header"] = header.to_dict()
        entry["body"] = body_shown
        ctx.state.frame_log(entry)
