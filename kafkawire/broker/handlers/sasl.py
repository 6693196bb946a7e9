"""SaslHandshake and SaslAuthenticate, the bare tokens of SaslHandshake v0, and the gate
that closes connections which have not (or no longer) authenticated (KIP-368)."""

from __future__ import annotations

import asyncio
from typing import Optional

from kafkawire.protocol import messages as M
from kafkawire.broker.codes import FAILED_AUTHENTICATION_DELAY
from kafkawire.broker.connections import Connection
from kafkawire.broker.security import BEFORE_AUTHENTICATION
from kafkawire.broker.context import BrokerContext
from kafkawire.connection import SaslTokenReceived
from kafkawire.protocol.error_codes import ErrorCode
from kafkawire.errors import SaslError
from kafkawire.protocol.headers import RequestHeader
from kafkawire.sasl import ServerSession


# -- authentication --------------------------------------------------------------
def before_authentication(ctx: BrokerContext, conn: Connection, api_key: int) -> Optional[str]:
    """Why a request must close the connection: sent before SASL authentication, or
    after the session lifetime ran out without re-authentication (KIP-368)."""
    if conn.sasl is None or api_key in BEFORE_AUTHENTICATION:
        return None
    if not conn.sasl.authenticated:
        return f"API key {api_key} sent before SASL authentication"
    if conn.session_expires is not None and ctx.state.loop.time() > conn.session_expires:
        return "the SASL session expired without re-authentication"
    return None


def _authenticated(ctx: BrokerContext, conn: Connection, session: ServerSession) -> None:
    conn.principal = f"User:{session.principal}"
    lifetime = ctx.security.session_lifetime_ms
    conn.session_expires = ctx.state.loop.time() + lifetime / 1000.0 if lifetime else None
    ctx.observed.authentications.append((conn.id, session.mechanism, session.principal))


async def raw_sasl_token(ctx: BrokerContext, conn: Connection, event: SaslTokenReceived) -> Optional[str]:
    """A bare token after SaslHandshake v0: answered with a bare frame; a refusal
    closes the connection (this framing has no way to say why)."""
    if conn.sasl is None or not conn.sasl.expects_raw_token:
        return "a bare SASL token where none is expected"
    try:
        reply = conn.sasl.raw_token(event.token)
    except SaslError as exc:
        ctx.observed.authentications.append((conn.id, conn.sasl.mechanism, None))
        await asyncio.sleep(FAILED_AUTHENTICATION_DELAY)
        return f"SASL authentication failed: {exc}"
    if not conn.sasl.expects_raw_token:  # the mechanism finished: Kafka requests again
        conn.protocol.end_sasl_tokens()
        _authenticated(ctx, conn, conn.sasl)
    await conn.send(conn.protocol.respond(event, reply))
    return None


async def sasl_handshake(
    ctx: BrokerContext, conn: Connection, header: RequestHeader, req: M.SaslHandshakeRequest, version: int
) -> M.SaslHandshakeResponse:
    """SaslHandshake: choose the connection's SASL mechanism."""
    if conn.sasl is None:  # Kafka answers so on listeners without SASL
        conn.protocol.end_sasl_tokens()
        return M.SaslHandshakeResponse(error_code=ErrorCode.ILLEGAL_SASL_STATE, mechanisms=[])
    response = conn.sasl.handshake(req, version)
    if not conn.sasl.expects_raw_token:
        conn.protocol.end_sasl_tokens()
    return response


async def sasl_authenticate(
    ctx: BrokerContext, conn: Connection, header: RequestHeader, req: M.SaslAuthenticateRequest, version: int
) -> M.SaslAuthenticateResponse:
    """SaslAuthenticate: one step of the connection's SASL exchange."""
    if conn.sasl is None:
        return M.SaslAuthenticateResponse(
            error_code=ErrorCode.ILLEGAL_SASL_STATE,
            auth_bytes=b"",
            error_message="this listener has no SASL",
        )
    response = conn.sasl.authenticate(req, version)
    if conn.sasl.failure is not None:
        ctx.observed.authentications.append((conn.id, conn.sasl.mechanism, None))
    elif conn.sasl.exchange_complete:
        _authenticated(ctx, conn, conn.sasl)
    return response
