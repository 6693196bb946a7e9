"""``kafkawire serve``: run the single-node test broker on 127.0.0.1."""
from __future__ import annotations

import argparse
import asyncio
import logging
import signal
import sys
from typing import Dict, List, Optional

from kafkawire.broker.security import SASL_MECHANISMS, SECURITY_PROTOCOLS
from kafkawire.broker.server import Broker


def _parser() -> argparse.ArgumentParser:
    p = argparse.ArgumentParser(
        prog="kafkawire serve",
        description="Run a single-node Kafka-compatible broker for tests and demos "
                    "(kafkawire's own codec on the broker side).")
    p.add_argument("--host", default="127.0.0.1",
                   help="address to listen on (default 127.0.0.1)")
    p.add_argument("--port", type=int, default=9092, help="port to listen on; 0 picks a free one")
    p.add_argument("--log-dir", help="keep partitions as Kafka segment files in this directory")
    p.add_argument("--partitions", type=int, default=1,
                   help="partitions of auto-created topics (default 1)")
    p.add_argument("--no-auto-create", action="store_true",
                   help="do not create topics that Metadata requests name")
    p.add_argument("--frame-log", help="append every request and response (hex and decoded) "
                   "to this file as JSON lines")
    p.add_argument("--check-roundtrip", action="store_true",
                   help="re-encode every decoded frame and report any that differ")
    p.add_argument("--max-seconds", type=float,
                   help="stop after this many seconds (default: run until interrupted)")
    sec = p.add_argument_group("security")
    sec.add_argument("--security-protocol", default="PLAINTEXT", choices=SECURITY_PROTOCOLS,
                     help="the listener's protocol (default PLAINTEXT)")
    sec.add_argument("--sasl-mechanisms", default=",".join(SASL_MECHANISMS),
                     help="comma-separated SASL mechanisms (default: %(default)s)")
    sec.add_argument("--user", action="append", default=[], metavar="NAME:PASSWORD",
                     help="a SASL user (repeatable); SCRAM credentials are derived from it")
    sec.add_argument("--ssl-certfile", help="the broker's certificate (PEM), for SSL and SASL_SSL")
    sec.add_argument("--ssl-keyfile", help="the certificate's private key (PEM)")
    sec.add_argument("--ssl-cafile", help="CA certificates (PEM): client certificates are then "
                     "required, and their subject is the principal")
    sec.add_argument("--super-user", action="append", default=[], metavar="NAME",
                     help="a principal (User:NAME, or NAME) that every ACL check allows (repeatable)")
    sec.add_argument("--acl-enforce", action="store_true",
                     help="authorize every request with the ACLs (CreateAcls); without it every "
                     "authenticated principal may do everything")
    sec.add_argument("--session-lifetime-ms", type=int, default=0,
                     help="SASL session lifetime (KIP-368, connections.max.reauth.ms); 0: none")
    p.add_argument("-v", "--verbose", action="store_true", help="log connections and errors")
    return p


def _users(specs: List[str]) -> Dict[str, str]:
    users = {}
    for spec in specs:
        name, sep, password = spec.partition(":")
        if not sep or not name or not password:
            raise SystemExit(f"kafkawire serve: --user {spec!r} is not NAME:PASSWORD")
        users[name] = password
    return users


async def _serve(args: argparse.Namespace) -> int:
    broker = Broker(host=args.host, port=args.port, log_dir=args.log_dir,
                    num_partitions=args.partitions, auto_create_topics=not args.no_auto_create,
                    frame_log=args.frame_log,
                    check_roundtrip=True if args.check_roundtrip else None,
                    security_protocol=args.security_protocol,
                    sasl_mechanisms=[m for m in args.sasl_mechanisms.split(",") if m],
                    users=_users(args.user), ssl_certfile=args.ssl_certfile,
                    ssl_keyfile=args.ssl_keyfile, ssl_cafile=args.ssl_cafile,
                    super_users=args.super_user, acl_enforce=args.acl_enforce,
                    session_lifetime_ms=args.session_lifetime_ms)
    await broker.start()
    print(f"kafkawire broker listening on {broker.bootstrap_servers}", flush=True)
    stop = asyncio.Event()
    loop = asyncio.get_running_loop()
    for sig in (signal.SIGINT, signal.SIGTERM):
        try:
            loop.add_signal_handler(sig, stop.set)
        except (NotImplementedError, RuntimeError):  # not on this platform
            pass
    try:
        if args.max_seconds is not None:
            try:
                await asyncio.wait_for(stop.wait(), args.max_seconds)
            except asyncio.TimeoutError:
                pass
        else:
            await stop.wait()
    finally:
        await broker.stop()
    if broker.check_roundtrip:
        print(f"frames checked: {broker.frames_checked}, "
              f"not byte-exact: {len(broker.roundtrip_failures)}", flush=True)
        return 1 if broker.roundtrip_failures else 0
    return 0


def main(argv: Optional[List[str]] = None) -> int:
    """Entry point of ``kafkawire serve``."""
    args = _parser().parse_args(argv)
    if args.host not in ("127.0.0.1", "localhost", "::1") and args.security_protocol == "PLAINTEXT":
        print(f"kafkawire serve: listening on {args.host} exposes a broker with no "
              "authentication; use it only on a trusted network", file=sys.stderr)
    logging.basicConfig(level=logging.DEBUG if args.verbose else logging.WARNING,
                        format="%(asctime)s %(levelname)s %(name)s: %(message)s")
    try:
        return asyncio.run(_serve(args))
    except (ValueError, OSError) as exc:  # bad security settings, unreadable certificate files
        print(f"kafkawire serve: {exc}", file=sys.stderr)
        return 2
