"""A recorded Kafka conversation read back: requests paired with their responses.

A traffic analyser sees both byte streams of a connection but wrote neither.
:class:`Conversation` reads the client's stream with a
:class:`~kafkawire.connection.ServerConnection` (which decodes requests) and has a
:class:`~kafkawire.connection.ClientConnection` expect each request's response, so the
server's stream decodes with the API and version it answers: the same bookkeeping a
client and a broker do.  :func:`pcap_conversations` does it for every Kafka connection
of a pcap capture.
"""

from __future__ import annotations

from typing import Any, BinaryIO, Dict, Iterable, Iterator, List, Optional, Sequence, Tuple, Union

from kafkawire.connection import (
    ClientConnection,
    ClientEvent,
    ClientPhase,
    InvalidRequest,
    RequestEvent,
    RequestFailed,
    ResponseEvent,
    SaslTokenReceived,
    ServerConnection,
    ServerEvent,
    UnexpectedResponse,
)
from kafkawire.errors import KafkaWireError
from kafkawire.protocol.framing import DEFAULT_MAX_FRAME_SIZE, BytesLike
from kafkawire.cli.pcap import Endpoint, StreamData, StreamEnd, tcp_streams

__all__ = ["Conversation", "event_json", "pcap_conversations"]


class Conversation:
    """Both directions of one connection; feed each as it was captured."""

    def __init__(self, max_frame_size: int = DEFAULT_MAX_FRAME_SIZE) -> None:
        self.requests = ServerConnection(max_frame_size=max_frame_size)
        self.responses = ClientConnection(max_in_flight=None, max_frame_size=max_frame_size)
        self._request_stream_failed = False

    def client_data(self, data: BytesLike) -> List[Union[ServerEvent, UnexpectedResponse]]:
        """Events of bytes the client sent: requests (and the response each one awaits)."""
        if self._request_stream_failed:
            return []
        events: List[Union[ServerEvent, UnexpectedResponse]] = list(self.requests.receive_data(data))
        for event in events:
            if isinstance(event, RequestEvent) and event.expects_response:
                # a response to an unsupported ApiVersions version is v0-shaped: decode_response knows
                try:
                    self.responses.track(event.correlation_id, event.api_key, event.version, event.message)
                except KafkaWireError as exc:  # a correlation id the client reused while in flight
                    events.append(
                        UnexpectedResponse(
                            correlation_id=event.correlation_id, payload=event.payload, error=exc
                        )
                    )
            elif isinstance(event, InvalidRequest):
                self._request_stream_failed = True
        return events

    def server_data(self, data: BytesLike) -> List[ClientEvent]:
        """Events of bytes the server sent: responses matched to their requests."""
        if self.responses.phase is ClientPhase.CLOSED:
            return []
        return self.responses.receive_data(data)

    def end(self, why: str = "the capture ended") -> List[RequestFailed]:
        """The requests that never got a response."""
        self.requests.connection_lost()
        # this client end never authenticates: every event is a request that failed
        return [e for e in self.responses.connection_lost(why) if isinstance(e, RequestFailed)]


def _error(exc: BaseException) -> str:
    return f"{type(exc).__name__}: {exc}"


def event_json(event: Any, *, records: bool = False, bytes_as: str = "auto") -> Dict[str, Any]:
    """One event of a :class:`Conversation` as a JSON-safe dict (record keys and values
    printed as :func:`kafkawire.cli.json_output.render_bytes` does with ``bytes_as``)."""
    from kafkawire.cli.json_output import records_json

    if isinstance(event, RequestEvent):
        out: Dict[str, Any] = {
            "direction": "request",
            "correlation_id": event.correlation_id,
            "api_key": event.api_key,
            "api_version": event.version,
            "header": event.header.to_dict(),
        }
        if event.message is None:
            out["note"] = "ApiVersions at a version the reader does not know (KIP-511)"
        else:
            out["api_name"] = type(event.message).__name__
            out["body"] = event.message.to_dict()
            if records:
                records_json(event.message, out["body"], bytes_as)
        if not event.expects_response:
            out["note"] = "acks=0: no response"
        return out
    if isinstance(event, ResponseEvent):
        out = {
            "direction": "response",
            "correlation_id": event.correlation_id,
            "api_key": event.api_key,
            "api_name": type(event.message).__name__,
            "api_version": event.version,
            "header": event.header.to_dict(),
            "body": event.message.to_dict(),
        }
        if records:
            records_json(event.message, out["body"], bytes_as)
        return out
    if isinstance(event, RequestFailed):
        return {
            "direction": "response",
            "correlation_id": event.correlation_id,
            "api_key": event.api_key,
            "api_version": event.version,
            "error": _error(event.error),
        }
    if isinstance(event, UnexpectedResponse):
        return {"direction": "response", "correlation_id": event.correlation_id, "error": _error(event.error)}
    if isinstance(event, InvalidRequest):
        return {"direction": "request", "error": _error(event.error)}
    if isinstance(event, SaslTokenReceived):
        return {"direction": "sasl-token", "size": len(event.token)}
    raise TypeError(f"not a conversation event: {event!r}")


def pcap_conversations(
    fh: BinaryIO,
    server_ports: Iterable[int] = (9092,),
    *,
    records: bool = False,
    bytes_as: str = "auto",
    max_frame_size: int = DEFAULT_MAX_FRAME_SIZE,
) -> Iterator[Dict[str, Any]]:
    """Every request and response of every Kafka connection in a pcap capture, in
    capture order, as JSON-safe dicts with a ``connection`` ("client -> server")."""
    conversations: Dict[Tuple[Endpoint, Endpoint], Conversation] = {}
    for item in tcp_streams(fh, server_ports):
        key = (item.client, item.server)
        name = f"{item.client[0]}:{item.client[1]} -> {item.server[0]}:{item.server[1]}"
        if isinstance(item, StreamEnd):
            conv: Optional[Conversation] = conversations.pop(key, None)
            events: Sequence[object] = conv.end(f"the connection ended ({item.why}) first") if conv else []
        else:
            assert isinstance(item, StreamData)
            conv = conversations.get(key)
            if conv is None:
                conv = conversations[key] = Conversation(max_frame_size)
            events = conv.client_data(item.data) if item.from_client else conv.server_data(item.data)
        for event in events:
            yield {"connection": name, **event_json(event, records=records, bytes_as=bytes_as)}


def __dir__() -> list[str]:  # what the module defines, not what it imports
    return sorted(__all__)
