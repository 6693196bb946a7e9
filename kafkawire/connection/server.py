"""The server end of a connection: requests in, decoded and numbered; responses out in
request order, whatever order the handlers finish in."""

from __future__ import annotations

from typing import Any, Dict, List, Optional, Tuple, Union

from kafkawire.connection._shared import CORRELATION_ID, Versions, is_acks0_produce, ranges
from kafkawire.connection.events import InvalidRequest, RequestEvent, SaslTokenReceived, ServerEvent
from kafkawire.connection.state import SERVER_MOVES, ServerMove, ServerPhase
from kafkawire.errors import (
    ConnectionClosedError,
    ConnectionStateError,
    DecodeError,
    EncodeError,
    InvalidFrame,
    KafkaWireError,
    TruncatedError,
    UnknownApiError,
    UnsupportedVersionError,
)
from kafkawire.protocol.framing import DEFAULT_MAX_FRAME_SIZE, BytesLike, FrameReader, frame
from kafkawire.protocol.headers import RequestHeader, peek_request_api
from kafkawire.protocol.messages import ApiVersionsResponse, Message, request_class
from kafkawire.protocol.requests import decode_request_prefix, encode_response
from kafkawire.protocol.schema.catalog import ApiKey
from kafkawire.protocol.schema.versions import VersionRange

__all__ = ["ServerConnection"]


class ServerConnection:
    """The broker end of one connection.

    ``supported`` is what the server serves (API key -> ``VersionRange`` or
    ``(lowest, highest)``), by default every API and version kafkawire knows; it is
    also what :meth:`api_versions_response` advertises.  Responses leave in request
    order: :meth:`respond` returns the bytes that may be written now.
    """

    def __init__(
        self, supported: Optional[Versions] = None, *, max_frame_size: int = DEFAULT_MAX_FRAME_SIZE
    ) -> None:
        if supported is None:
            self.supported = ranges(None)
        else:
            self.supported = {
                k: v if isinstance(v, VersionRange) else VersionRange(*v) for k, v in supported.items()
            }
        self.client_id: Optional[str] = None
        #: ``(name, version)`` from an ApiVersions request v3+.
        self.client_software: Optional[Tuple[str, str]] = None
        self.requests_received = 0
        self._frames = FrameReader(max_frame_size)
        self._next_sequence = 0
        self._next_out = 0  # sequence of the oldest unanswered request
        self._unanswered: Dict[int, List[Any]] = {}  # sequence -> [event, frame or None]
        self._phase = ServerPhase.REQUESTS
        self._closed_by = ""  # why the connection closed, for the errors that follow

    @property
    def phase(self) -> ServerPhase:
        """Where the connection is: all it knows of it (each move's next phase is in
        :data:`~kafkawire.connection.state.SERVER_MOVES`)."""
        return self._phase

    def _move(self, move: ServerMove) -> None:
        """Make ``move`` into the phase the table gives; the one move a phase can refuse
        is receiving on a closed connection."""
        to = SERVER_MOVES[self._phase].get(move)
        if to is None:
            if self._phase is ServerPhase.CLOSED:
                raise ConnectionClosedError(f"cannot receive on a closed connection: {self._closed_by}")
            raise ConnectionStateError(f"the connection cannot {move.name} in phase {self._phase.name}")
        self._phase = to

    @property
    def unanswered(self) -> int:
        """Requests received that still wait for their response."""
        return len(self._unanswered)

    @property
    def at_frame_boundary(self) -> bool:
        """False when the stream holds part of a frame (say so if the client closes now)."""
        return self._frames.at_boundary

    @property
    def buffered(self) -> int:
        return self._frames.buffered

    def api_versions_response(self, error_code: int = 0, throttle_time_ms: int = 0) -> ApiVersionsResponse:
        """An ApiVersionsResponse advertising ``supported`` (KIP-511 answers pass
        ``error_code=35``, UNSUPPORTED_VERSION)."""
        Entry = ApiVersionsResponse.ApiVersion
        entries = [
            Entry(api_key=k, min_version=r.lowest, max_version=r.highest)
            for k, r in sorted(self.supported.items())
            if not r.empty
        ]
        return ApiVersionsResponse(error_code=error_code, api_keys=entries, throttle_time_ms=throttle_time_ms)

    def begin_sasl_tokens(self) -> None:
        """Read the next frames as bare SASL tokens (done by itself on SaslHandshake v0)."""
        self._move(ServerMove.BARE_TOKENS)

    def end_sasl_tokens(self) -> None:
        """Back to Kafka requests, once the SASL mechanism has finished."""
        self._move(ServerMove.TOKENS_ENDED)

    def _close(self, error: KafkaWireError) -> None:
        self._closed_by = self._closed_by or str(error)  # the first reason stays
        self._move(ServerMove.CLOSE)

    def receive_data(self, data: BytesLike) -> List[ServerEvent]:
        """The events that ``data`` completes (:class:`RequestEvent`,
        :class:`InvalidRequest`, :class:`SaslTokenReceived`).  After an
        :class:`InvalidRequest` (always the last event) the connection is closed and takes
        no more data."""
        self._move(ServerMove.RECEIVE)
        try:
            payloads = self._frames.feed(data)
        except InvalidFrame as exc:
            self._close(exc)
            return [InvalidRequest(error=exc, payload=None)]
        events: List[ServerEvent] = []
        for payload in payloads:
            event = self._request(payload)
            events.append(event)
            if isinstance(event, InvalidRequest):
                self._close(event.error)
                break
        return events

    def _sequence(self) -> int:
        """The place of the next request that gets an answer."""
        sequence = self._next_sequence
        self._next_sequence += 1
        return sequence

    def _enqueue(self, event: Union[RequestEvent, SaslTokenReceived]) -> None:
        assert event.sequence is not None
        self._unanswered[event.sequence] = [event, None]

    def _request(self, payload: bytes) -> ServerEvent:
        if self._phase is ServerPhase.SASL_TOKENS:
            token = SaslTokenReceived(token=payload, sequence=self._sequence())
            self._enqueue(token)
            return token
        try:
            api_key, version = peek_request_api(payload)
            request_class(api_key)
        except (TruncatedError, UnknownApiError) as exc:
            return InvalidRequest(error=exc, payload=payload)
        served = self.supported.get(api_key)
        if served is None or served.empty:
            return InvalidRequest(
                error=UnknownApiError(
                    f"{request_class(api_key).__name__} (API key {api_key}) is not served here"
                ),
                payload=payload,
            )
        if version not in served:
            if api_key == ApiKey.API_VERSIONS:
                return self._unsupported_api_versions(payload, version)
            return InvalidRequest(
                error=UnsupportedVersionError(
                    f"{request_class(api_key).__name__} v{version} is outside the served v{served}"
                ),
                payload=payload,
            )
        try:
            # Kafka's broker reads the body it expects and ignores any bytes after it
            # (it serves librdkafka 2.16's MetadataRequests, which carry 3 extra bytes):
            # so does this end, keeping the count in ``event.trailing``.
            header, message, end = decode_request_prefix(payload)
        except DecodeError as exc:
            return InvalidRequest(error=exc, payload=payload)
        self.requests_received += 1
        self.client_id = header.client_id
        if api_key == ApiKey.API_VERSIONS and version >= 3:
            self.client_software = (message.client_software_name, message.client_software_version)
        elif api_key == ApiKey.SASL_HANDSHAKE and version == 0:
            self._move(ServerMove.BARE_TOKENS)
        answered = not is_acks0_produce(api_key, message)
        event = RequestEvent(
            correlation_id=header.correlation_id,
            api_key=api_key,
            version=version,
            header=header,
            message=message,
            expects_response=answered,
            sequence=self._sequence() if answered else None,
            payload=payload,
            trailing=len(payload) - end,
        )
        if answered:
            self._enqueue(event)
        return event

    def _unsupported_api_versions(self, payload: bytes, version: int) -> ServerEvent:
        if len(payload) < 8:
            return InvalidRequest(
                error=TruncatedError(f"an ApiVersions request of {len(payload)} bytes has no correlation id"),
                payload=payload,
            )
        correlation_id = CORRELATION_ID.unpack_from(payload, 4)[0]
        try:  # a newer client's header is v2 (ApiVersions has been flexible since v3)
            header, _ = RequestHeader.decode_from(payload, 2, 0)
        except DecodeError:
            header = RequestHeader(
                request_api_key=ApiKey.API_VERSIONS,
                request_api_version=version,
                correlation_id=correlation_id,
                client_id=None,
            )
        self.requests_received += 1
        event = RequestEvent(
            correlation_id=header.correlation_id,
            api_key=ApiKey.API_VERSIONS,
            version=version,
            header=header,
            message=None,
            expects_response=True,
            unsupported_version=True,
            sequence=self._sequence(),
            payload=payload,
        )
        self._enqueue(event)
        return event

    def respond(self, event: Union[RequestEvent, SaslTokenReceived], message: Any) -> bytes:
        """Answer ``event`` with ``message`` (a response message; the token bytes for a
        :class:`SaslTokenReceived`, or None when the mechanism answers its last token with
        nothing, as GSSAPI does); returns what may be written now, possibly b"":
        the responses, in request order, that no earlier unanswered request holds back."""
        sequence = getattr(event, "sequence", None)
        slot = self._unanswered.get(sequence) if sequence is not None else None
        if slot is None or slot[0] is not event:
            if isinstance(event, RequestEvent) and not event.expects_response:
                raise ConnectionStateError("a Produce with acks=0 gets no response")
            raise ConnectionStateError(
                f"{event!r} is not a request of this connection waiting for its response"
            )
        if slot[1] is not None:
            raise ConnectionStateError(f"{event!r} was already answered")
        if isinstance(event, SaslTokenReceived):
            if message is None:
                slot[1] = b""  # its place in the order passes, with nothing written
            elif not isinstance(message, (bytes, bytearray, memoryview)):
                raise EncodeError(f"a SASL token is bytes, not {type(message).__name__}")
            else:
                slot[1] = frame(message)
        else:
            if (
                not isinstance(message, Message)
                or message.kind != "response"
                or message.api_key != event.api_key
            ):
                raise EncodeError(
                    f"a {type(message).__name__} cannot answer a request of API key {event.api_key}"
                )
            version = 0 if event.unsupported_version else event.version
            slot[1] = encode_response(message, version, event.correlation_id)
        return self._ready()

    def _ready(self) -> bytes:
        out = []
        while True:
            slot = self._unanswered.get(self._next_out)
            if slot is None or slot[1] is None:
                break
            out.append(slot[1])
            del self._unanswered[self._next_out]
            self._next_out += 1
        return b"".join(out)

    def connection_lost(self) -> int:
        """The connection is gone; returns how many requests were left unanswered."""
        self._close(ConnectionClosedError("the connection was lost"))
        left = len(self._unanswered)
        self._unanswered.clear()
        return left
