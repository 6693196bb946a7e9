"""The dispatch: which handler function answers each API key, and the steps around every request
(the SASL gate, KIP-511's answer to an unsupported ApiVersions version, the frame log,
the codec statistics, sending the response)."""

from __future__ import annotations

import asyncio
import time
from typing import TYPE_CHECKING, ClassVar, Dict, Optional

from kafkawire.broker.codes import FAILED_AUTHENTICATION_DELAY
from kafkawire.broker.connections import Connection
from kafkawire.broker.handlers.acls import AclHandlers
from kafkawire.broker.handlers.groups import GroupHandlers
from kafkawire.broker.handlers.produce_fetch import ProduceFetchHandlers
from kafkawire.broker.handlers.sasl import SaslHandlers
from kafkawire.broker.handlers.topics import TopicHandlers
from kafkawire.broker.state import BrokerState
from kafkawire.connection import InvalidRequest, RequestEvent, SaslTokenReceived
from kafkawire.error_codes import ErrorCode
from kafkawire.errors import InvalidFrame, UnknownApiError, UnsupportedVersionError
from kafkawire.schema.catalog import ApiKey


if TYPE_CHECKING:
    from kafkawire.broker.state import Handler

#: The handler of each API the broker serves.  ApiVersions advertises exactly these.
HANDLERS: Dict[ApiKey, Handler] = {
    ApiKey.PRODUCE: ProduceFetchHandlers._produce,
    ApiKey.FETCH: ProduceFetchHandlers._fetch,
    ApiKey.LIST_OFFSETS: ProduceFetchHandlers._list_offsets,
    ApiKey.METADATA: TopicHandlers._metadata,
    ApiKey.OFFSET_COMMIT: GroupHandlers._offset_commit,
    ApiKey.OFFSET_FETCH: GroupHandlers._offset_fetch,
    ApiKey.FIND_COORDINATOR: GroupHandlers._find_coordinator,
    ApiKey.JOIN_GROUP: GroupHandlers._join_group,
    ApiKey.HEARTBEAT: GroupHandlers._heartbeat,
    ApiKey.LEAVE_GROUP: GroupHandlers._leave_group,
    ApiKey.SYNC_GROUP: GroupHandlers._sync_group,
    ApiKey.SASL_HANDSHAKE: SaslHandlers._sasl_handshake,
    ApiKey.API_VERSIONS: TopicHandlers._api_versions,
    ApiKey.CREATE_TOPICS: TopicHandlers._create_topics,
    ApiKey.DELETE_TOPICS: TopicHandlers._delete_topics,
    ApiKey.INIT_PRODUCER_ID: ProduceFetchHandlers._init_producer_id,
    ApiKey.DESCRIBE_ACLS: AclHandlers._describe_acls,
    ApiKey.CREATE_ACLS: AclHandlers._create_acls,
    ApiKey.DELETE_ACLS: AclHandlers._delete_acls,
    ApiKey.SASL_AUTHENTICATE: SaslHandlers._sasl_authenticate,
    ApiKey.DESCRIBE_CLUSTER: TopicHandlers._describe_cluster,
    ApiKey.DESCRIBE_TOPIC_PARTITIONS: TopicHandlers._describe_topic_partitions,
}


class Dispatch(BrokerState):
    """Answers one request with the handler its API key names."""

    HANDLERS: ClassVar[Dict[ApiKey, Handler]] = HANDLERS

    @staticmethod
    def _why_invalid(error: Exception) -> str:
        """Why a request the connection could not serve closes it, as Kafka closes it."""
        if isinstance(error, InvalidFrame):
            return f"invalid frame: {error}"
        if isinstance(error, UnknownApiError):
            return f"unknown or unimplemented API: {error}"
        if isinstance(error, UnsupportedVersionError):
            return f"unsupported version: {error}"
        return f"request does not decode: {error}"

    async def _handle_event(self, conn: Connection, event: object, decode_ns: int) -> Optional[str]:
        """Answer one request; returns why the connection must close, or None.

        Requests of one connection are handled one at a time, as Kafka does, so what
        ``respond`` releases is exactly this request's response."""
        if isinstance(event, InvalidRequest):
            return self._why_invalid(event.error)
        if isinstance(event, SaslTokenReceived):
            return await self._raw_sasl_token(conn, event)
        if not isinstance(event, RequestEvent):
            return f"{type(event).__name__} is not served by this broker"
        api_key, version = event.api_key, event.version
        self.versions_seen[api_key].add(version)
        if event.unsupported_version:
            await self._unsupported_api_versions(conn, event)
            return None
        refused = self._before_authentication(conn, api_key)
        if refused:
            return refused
        handler = self.HANDLERS.get(ApiKey(api_key))  # a decoded request's key is a catalog's
        if handler is None:
            return f"API key {api_key} ({type(event.message).__name__}) is not implemented by this broker"
        header, request = event.header, event.message
        if self.frame_log is not None or self.check_roundtrip:
            self._log_request(conn, event.payload, header, request, event.trailing)
        response = await handler(self, conn, header, request, version)
        self.stats.count[api_key] += 1
        self.stats.decode_ns[api_key] += decode_ns
        if not event.expects_response:  # Produce with acks=0 has no response
            return None
        t2 = time.perf_counter_ns()
        frame = conn.protocol.respond(event, response)
        self.stats.encode_ns[api_key] += time.perf_counter_ns() - t2
        if self.frame_log is not None or self.check_roundtrip:
            self._log_response(conn, frame, api_key, version, header.correlation_id)
        await self._send(conn, frame)
        if conn.sasl is not None and conn.sasl.failure is not None:
            await asyncio.sleep(FAILED_AUTHENTICATION_DELAY)
            return f"SASL authentication failed: {conn.sasl.failure}"
        return None

    async def _unsupported_api_versions(self, conn: Connection, event: "RequestEvent") -> None:
        """KIP-511: an ApiVersions request at a version this broker does not serve gets a
        v0-shaped response: UNSUPPORTED_VERSION plus the versions the broker supports."""
        response = conn.protocol.api_versions_response(error_code=ErrorCode.UNSUPPORTED_VERSION)
        frame = conn.protocol.respond(event, response)
        if self.frame_log is not None:
            self.frame_log(
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
        if self.frame_log is not None or self.check_roundtrip:
            self._log_response(conn, frame, ApiKey.API_VERSIONS, 0, event.correlation_id)
        await self._send(conn, frame)
        return None
