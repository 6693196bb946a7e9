"""The dispatch: which handler function answers each API key, and the steps around every request
(the SASL gate, KIP-511's answer to an unsupported ApiVersions version, the frame log,
the codec statistics, sending the response)."""

from __future__ import annotations

import asyncio
import time
from typing import Any, Awaitable, Callable, Dict, Optional

from kafkawire.broker.codes import FAILED_AUTHENTICATION_DELAY
from kafkawire.broker.connections import Connection
from kafkawire.broker.context import BrokerContext
from kafkawire.broker.frame_checks import log_request, log_response
from kafkawire.broker.handlers import acls, groups, produce_fetch, sasl, topics
from kafkawire.connection import InvalidRequest, RequestEvent, SaslTokenReceived
from kafkawire.protocol.error_codes import ErrorCode
from kafkawire.errors import InvalidFrame, UnknownApiError, UnsupportedVersionError
from kafkawire.protocol.headers import RequestHeader
from kafkawire.protocol.schema.catalog import ApiKey

#: A request handler: called with the broker's context, the connection, the request's
#: header, the decoded request and its version; returns the response (None for a
#: Produce with ``acks=0``).
Handler = Callable[[BrokerContext, Connection, RequestHeader, Any, int], Awaitable[Any]]

#: The handler of each API the broker serves.  ApiVersions advertises exactly these.
HANDLERS: Dict[ApiKey, Handler] = {
    ApiKey.PRODUCE: produce_fetch.produce,
    ApiKey.FETCH: produce_fetch.fetch,
    ApiKey.LIST_OFFSETS: produce_fetch.list_offsets,
    ApiKey.METADATA: topics.metadata,
    ApiKey.OFFSET_COMMIT: groups.offset_commit,
    ApiKey.OFFSET_FETCH: groups.offset_fetch,
    ApiKey.FIND_COORDINATOR: groups.find_coordinator,
    ApiKey.JOIN_GROUP: groups.join_group,
    ApiKey.HEARTBEAT: groups.heartbeat,
    ApiKey.LEAVE_GROUP: groups.leave_group,
    ApiKey.SYNC_GROUP: groups.sync_group,
    ApiKey.SASL_HANDSHAKE: sasl.sasl_handshake,
    ApiKey.API_VERSIONS: topics.api_versions,
    ApiKey.CREATE_TOPICS: topics.create_topics,
    ApiKey.DELETE_TOPICS: topics.delete_topics,
    ApiKey.INIT_PRODUCER_ID: produce_fetch.init_producer_id,
    ApiKey.DESCRIBE_ACLS: acls.describe_acls,
    ApiKey.CREATE_ACLS: acls.create_acls,
    ApiKey.DELETE_ACLS: acls.delete_acls,
    ApiKey.SASL_AUTHENTICATE: sasl.sasl_authenticate,
    ApiKey.DESCRIBE_CLUSTER: topics.describe_cluster,
    ApiKey.DESCRIBE_TOPIC_PARTITIONS: topics.describe_topic_partitions,
}


def _why_invalid(error: Exception) -> str:
    """Why a request the connection could not serve closes it, as Kafka closes it."""
    if isinstance(error, InvalidFrame):
        return f"invalid frame: {error}"
    if isinstance(error, UnknownApiError):
        return f"unknown or unimplemented API: {error}"
    if isinstance(error, UnsupportedVersionError):
        return f"unsupported version: {error}"
    return f"request does not decode: {error}"


async def handle_event(ctx: BrokerContext, conn: Connection, event: object, decode_ns: int) -> Optional[str]:
    """Answer one request; returns why the connection must close, or None.

    Requests of one connection are handled one at a time, as Kafka does, so what
    ``respond`` releases is exactly this request's response."""
    if isinstance(event, InvalidRequest):
        return _why_invalid(event.error)
    if isinstance(event, SaslTokenReceived):
        return await sasl.raw_sasl_token(ctx, conn, event)
    if not isinstance(event, RequestEvent):
        return f"{type(event).__name__} is not served by this broker"
    api_key, version = event.api_key, event.version
    ctx.observed.versions_seen[api_key].add(version)
    if event.unsupported_version:
        await _unsupported_api_versions(ctx, conn, event)
        return None
    refused = sasl.before_authentication(ctx, conn, api_key)
    if refused:
        return refused
    handler = HANDLERS.get(ApiKey(api_key))  # a decoded request's key is a catalog's
    if handler is None:
        return f"API key {api_key} ({type(event.message).__name__}) is not implemented by this broker"
    header, request = event.header, event.message
    if ctx.state.frame_log is not None or ctx.check_roundtrip:
        log_request(ctx, conn, event.payload, header, request, event.trailing)
    response = await handler(ctx, conn, header, request, version)
    ctx.observed.stats.count[api_key] += 1
    ctx.observed.stats.decode_ns[api_key] += decode_ns
    if not event.expects_response:  # Produce with acks=0 has no response
        return None
    t2 = time.perf_counter_ns()
    frame = conn.protocol.respond(event, response)
    ctx.observed.stats.encode_ns[api_key] += time.perf_counter_ns() - t2
    if ctx.state.frame_log is not None or ctx.check_roundtrip:
        log_response(ctx, conn, frame, api_key, version, header.correlation_id)
    await conn.send(frame)
    if conn.sasl is not None and conn.sasl.failure is not None:
        await asyncio.sleep(FAILED_AUTHENTICATION_DELAY)
        return f"SASL authentication failed: {conn.sasl.failure}"
    return None


async def _unsupported_api_versions(ctx: BrokerContext, conn: Connection, event: RequestEvent) -> None:
    """KIP-511: an ApiVersions request at a version this broker does not serve gets a
    v0-shaped response: UNSUPPORTED_VERSION plus the versions the broker supports."""
    response = conn.protocol.api_versions_response(error_code=ErrorCode.UNSUPPORTED_VERSION)
    frame = conn.protocol.respond(event, response)
    if ctx.state.frame_log is not None:
        ctx.state.frame_log(
            {
                "time": time.time(),
                "connection": conn.id,
                "direction": "request",
                "api_key": ApiKey.API_VERSIONS,
                "api_version": event.version,
                "correlation_id": event.correlation_id,
                "hex": event.payload.hex(),
                "note": "version not supported: answered as KIP-511 asks",
            }
        )
    if ctx.state.frame_log is not None or ctx.check_roundtrip:
        log_response(ctx, conn, frame, ApiKey.API_VERSIONS, 0, event.correlation_id)
    await conn.send(frame)
    return None
