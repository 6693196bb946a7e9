"""The loop that reads a connection's bytes, hands every complete request to the dispatch
and closes the connection when a request must close it (see :mod:`kafkawire.broker.server`)."""

from __future__ import annotations

import asyncio
import logging
import time

from kafkawire.broker.connections import Connection
from kafkawire.broker.security import certificate_principal
from kafkawire.broker.context import BrokerContext
from kafkawire.broker.dispatch import handle_event
from kafkawire.connection import ServerConnection

log = logging.getLogger("kafkawire.broker")


async def serve_connection(
    ctx: BrokerContext, reader: asyncio.StreamReader, writer: asyncio.StreamWriter
) -> None:
    """Serve one client connection until it closes, the broker stops or a request must close it."""
    task = asyncio.current_task()
    assert task is not None  # asyncio runs this callback as a task
    ctx.state.tasks.add(task)
    peer = writer.get_extra_info("peername")
    protocol = ServerConnection(ctx.api_versions, max_frame_size=ctx.config.max_frame_size)
    conn = Connection(next(ctx.state.conn_ids), f"{peer[0]}:{peer[1]}" if peer else "?", writer, protocol)
    if ctx.security.uses_ssl:
        tls = writer.get_extra_info("ssl_object")
        conn.principal = certificate_principal(tls.getpeercert() if tls is not None else None)
    conn.sasl = ctx.security.sasl_session()
    ctx.state.connections[conn.id] = conn
    why = "client closed the connection"
    try:
        while True:
            data = await reader.read(1 << 18)
            if not data:
                if not protocol.at_frame_boundary:
                    why = f"client closed the connection inside a frame ({protocol.buffered} bytes buffered)"
                break
            t0 = time.perf_counter_ns()
            events = protocol.receive_data(data)
            # decode time of this read, shared by the requests it completed
            decode_ns = (time.perf_counter_ns() - t0) // max(1, len(events))
            close = None
            for event in events:
                try:
                    close = await handle_event(ctx, conn, event, decode_ns)
                except (ConnectionError, asyncio.CancelledError):
                    raise
                except Exception as exc:  # a broker bug: keep it visible, drop the connection
                    log.exception("connection %d: request failed", conn.id)
                    ctx.observed.handler_errors.append(f"{type(exc).__name__}: {exc}")
                    close = f"internal error: {type(exc).__name__}: {exc}"
                if close:
                    break
            if close:
                why = close
                break
    except (ConnectionError, asyncio.IncompleteReadError) as exc:
        why = f"connection error: {exc}"
    except asyncio.CancelledError:
        why = "broker stopping"
    finally:
        protocol.connection_lost()
        ctx.state.connections.pop(conn.id, None)
        ctx.observed.closed_connections.append((conn.id, why))
        log.debug("connection %d (%s) closed: %s", conn.id, conn.peer, why)
        ctx.state.tasks.discard(task)
        writer.close()  # closing a transport that is already closed does nothing
