"""One Kafka connection's bookkeeping, without I/O: both ends of it.

The codec turns one message into bytes and back; a connection needs more.  A client
numbers its requests with correlation ids, remembers what each one asked for (a
response does not say which API or version it answers), bounds how many wait at once,
negotiates versions with ApiVersions, and must account for every request when the
connection drops.  A broker must answer in request order even when its handlers finish
out of order, and must not answer a Produce with ``acks=0``.

:class:`ClientConnection` and :class:`ServerConnection` do this as state machines in the
style of h11: bytes in (``receive_data``), events out; messages in (``send``,
``respond``), bytes out.  They never touch a socket or read a clock, so the same object
serves a blocking client, an asyncio one, a proxy, a mock broker or a capture analyser.
Each end's phase (:class:`ClientPhase`, :class:`ServerPhase`) is all it knows of where it
is; :mod:`kafkawire.connection.state` holds the tables that move it.

SASL: a client authenticates through the same object.  Given a mechanism from
:mod:`kafkawire.sasl` (``sasl=`` or :meth:`ClientConnection.authenticate`), the client
goes ApiVersions -> SaslHandshake -> SaslAuthenticate -> ready: it sends the SASL
requests with correlation ids like any other request, answers each challenge by itself
(the bytes wait in :meth:`ClientConnection.data_to_send`), refuses other requests until
the exchange ends, and reports :class:`Authenticated` or :class:`AuthenticationFailed`.
After a SaslHandshake v0 the tokens travel as bare size-prefixed frames with no Kafka
header until the mechanism finishes; from v1 on they ride in SaslAuthenticate requests.
Without a mechanism the raw-token mode is still there by hand: both ends switch to it by
themselves after a v0 handshake, :meth:`ClientConnection.send_sasl_token`,
:class:`SaslTokenReceived` and :meth:`ServerConnection.respond` carry the tokens, and
``end_sasl_tokens()`` returns to Kafka messages.
"""

from kafkawire.connection._shared import Versions
from kafkawire.connection.client import SASL_RESERVED_MIN, ClientConnection, next_correlation_id
from kafkawire.connection.events import (
    Authenticated,
    AuthenticationFailed,
    ClientEvent,
    InvalidRequest,
    RequestEvent,
    RequestFailed,
    ResponseEvent,
    SaslTokenReceived,
    ServerEvent,
    UnexpectedResponse,
)
from kafkawire.connection.server import ServerConnection
from kafkawire.connection.state import ClientPhase, ServerPhase

__all__ = [
    "ClientConnection",
    "ServerConnection",
    "ResponseEvent",
    "RequestFailed",
    "UnexpectedResponse",
    "SaslTokenReceived",
    "Authenticated",
    "AuthenticationFailed",
    "RequestEvent",
    "InvalidRequest",
    "ClientEvent",
    "ServerEvent",
    "ClientPhase",
    "ServerPhase",
    "next_correlation_id",
    "SASL_RESERVED_MIN",
    "Versions",
]
