"""``kafkawire serve``: run the single-node test broker on 127.0.0.1."""

from __future__ import annotations

import argparse
import asyncio
import logging
import os
import signal
import ssl
import sys
from typing import Dict, List, Optional

from kafkawire.broker.config import BrokerConfig
from kafkawire.broker.security import SASL_MECHANISMS, SECURITY_PROTOCOLS
from kafkawire.broker.server import Broker
from kafkawire.cli import USAGE_ERROR, CommandError, CommandParser, run_command
from kafkawire.errors import KafkaWireError


def _port(text: str) -> int:
    port = int(text)
    if not 0 <= port <= 65535:
        raise argparse.ArgumentTypeError(f"not a TCP port: {port}")
    return port


def _count(text: str) -> int:
    value = int(text)
    if value < 1:
        raise argparse.ArgumentTypeError(f"must be at least 1: {value}")
    return value


def _parser() -> argparse.ArgumentParser:
    p = CommandParser(
        "kafkawire serve",
        "Run a single-node Kafka-compatible broker for tests and demos (kafkawire's own "
        "codec on the broker side).",
        verbose_help="log connections and errors; on an error, print the traceback too",
    )
    p.add_argument("--host", default="127.0.0.1", help="address to listen on (default 127.0.0.1)")
    p.add_argument("--port", type=_port, default=9092, help="port to listen on; 0 picks a free one")
    p.add_argument("--log-dir", help="keep partitions as Kafka segment files in this directory")
    p.add_argument(
        "--partitions", type=_count, default=1, help="partitions of auto-created topics (default 1)"
    )
    p.add_argument(
        "--no-auto-create", action="store_true", help="do not create topics that Metadata requests name"
    )
    p.add_argument(
        "--frame-log", help="append every request and response (hex and decoded) to this file as JSON lines"
    )
    p.add_argument(
        "--check-roundtrip",
        action="store_true",
        help="re-encode every decoded frame and report any that differ",
    )
    p.add_argument(
        "--max-seconds", type=float, help="stop after this many seconds (default: run until interrupted)"
    )
    sec = p.add_argument_group("security")
    sec.add_argument(
        "--security-protocol",
        default="PLAINTEXT",
        choices=SECURITY_PROTOCOLS,
        help="the listener's protocol (default PLAINTEXT)",
    )
    sec.add_argument(
        "--sasl-mechanisms",
        default=",".join(SASL_MECHANISMS),
        help="comma-separated SASL mechanisms (default: %(default)s)",
    )
    sec.add_argument(
        "--user",
        action="append",
        default=[],
        metavar="NAME:PASSWORD",
        help="a SASL user (repeatable); SCRAM credentials are derived from it",
    )
    sec.add_argument("--ssl-certfile", help="the broker's certificate (PEM), for SSL and SASL_SSL")
    sec.add_argument("--ssl-keyfile", help="the certificate's private key (PEM)")
    sec.add_argument(
        "--ssl-cafile",
        help="CA certificates (PEM): client certificates are then "
        "required, and their subject is the principal",
    )
    sec.add_argument(
        "--super-user",
        action="append",
        default=[],
        metavar="NAME",
        help="a principal (User:NAME, or NAME) that every ACL check allows (repeatable)",
    )
    sec.add_argument(
        "--acl-enforce",
        action="store_true",
        help="authorize every request with the ACLs (CreateAcls); without it every "
        "authenticated principal may do everything",
    )
    sec.add_argument(
        "--session-lifetime-ms",
        type=int,
        default=0,
        help="SASL session lifetime (KIP-368, connections.max.reauth.ms); 0: none",
    )
    sec.add_argument("--kerberos-keytab", help="the service's keytab, for SASL mechanism GSSAPI")
    sec.add_argument(
        "--kerberos-principal",
        help="the service principal in the keytab (default: any), e.g. kafka/HOST@REALM",
    )
    return p


def _users(specs: List[str]) -> Dict[str, str]:
    users = {}
    for spec in specs:
        name, sep, password = spec.partition(":")
        if not sep or not name or not password:
            raise CommandError(f"--user {spec!r} is not NAME:PASSWORD", USAGE_ERROR)
        users[name] = password
    return users


def _config(args: argparse.Namespace) -> BrokerConfig:
    """The broker's settings from the command line."""
    return BrokerConfig(
        host=args.host,
        port=args.port,
        log_dir=args.log_dir,
        num_partitions=args.partitions,
        auto_create_topics=not args.no_auto_create,
        frame_log=args.frame_log,
        check_roundtrip=True if args.check_roundtrip else None,
        security_protocol=args.security_protocol,
        sasl_mechanisms=[m for m in args.sasl_mechanisms.split(",") if m],
        users=_users(args.user),
        ssl_certfile=args.ssl_certfile,
        ssl_keyfile=args.ssl_keyfile,
        ssl_cafile=args.ssl_cafile,
        super_users=args.super_user,
        acl_enforce=args.acl_enforce,
        session_lifetime_ms=args.session_lifetime_ms,
        kerberos_keytab=args.kerberos_keytab,
        kerberos_principal=args.kerberos_principal,
    )


async def _serve(args: argparse.Namespace) -> Broker:
    """Run the broker until it is told to stop; returns it, stopped."""
    broker = Broker(_config(args))
    try:
        await broker.start()
    except BaseException as exc:
        await broker.stop()
        if not isinstance(exc, OSError):
            raise
        if isinstance(exc, ssl.SSLError):  # the certificate files do not make a TLS context
            raise CommandError(f"the --ssl-* files: {exc}") from exc
        reason = exc.strerror or str(exc)
        if exc.filename is not None and exc.filename == args.frame_log:
            raise CommandError(f"--frame-log {args.frame_log}: {reason}") from exc
        if exc.filename is not None and args.log_dir is not None:  # the log directory
            where = "" if exc.filename == args.log_dir else f"{exc.filename}: "
            raise CommandError(f"--log-dir {args.log_dir}: {where}{reason}") from exc
        if exc.filename is not None:  # a file, not the socket
            raise CommandError(f"{exc.filename}: {reason}") from exc
        if exc.errno is not None:  # asyncio's text repeats the address: keep the reason
            reason = os.strerror(exc.errno)
        raise CommandError(f"cannot listen on {args.host}:{args.port}: {reason}") from exc
    print(f"kafkawire broker listening on {broker.bootstrap_servers}", flush=True)
    try:
        await _until_stopped(args.max_seconds)
    finally:
        await broker.stop()
    return broker


async def _until_stopped(max_seconds: Optional[float]) -> None:
    """Wait for SIGINT or SIGTERM, or for ``max_seconds`` when given."""
    stop = asyncio.Event()
    loop = asyncio.get_running_loop()
    for sig in (signal.SIGINT, signal.SIGTERM):
        try:
            loop.add_signal_handler(sig, stop.set)
        except (NotImplementedError, RuntimeError):  # not on this platform
            pass
    try:
        await asyncio.wait_for(stop.wait(), max_seconds)
    except asyncio.TimeoutError:
        pass


def _run(args: argparse.Namespace) -> int:
    if args.log_dir is not None and os.path.exists(args.log_dir) and not os.path.isdir(args.log_dir):
        raise CommandError(f"--log-dir {args.log_dir}: not a directory")
    for option in ("ssl_certfile", "ssl_keyfile", "ssl_cafile", "kerberos_keytab"):
        path = getattr(args, option)
        if path is not None and not os.path.isfile(path):
            raise CommandError(f"--{option.replace('_', '-')} {path}: no such file")
    if args.security_protocol in ("SSL", "SASL_SSL") and not (args.ssl_certfile and args.ssl_keyfile):
        raise CommandError(
            f"--security-protocol {args.security_protocol} needs the broker's certificate and key: "
            f"--ssl-certfile FILE --ssl-keyfile FILE",
            USAGE_ERROR,
        )
    if args.host not in ("127.0.0.1", "localhost", "::1") and args.security_protocol == "PLAINTEXT":
        print(
            f"kafkawire serve: listening on {args.host} exposes a broker with no "
            "authentication; use it only on a trusted network",
            file=sys.stderr,
        )
    logging.basicConfig(
        level=logging.DEBUG if args.verbose else logging.WARNING,
        format="%(asctime)s %(levelname)s %(name)s: %(message)s",
    )
    try:
        broker = asyncio.run(_serve(args))
    except ValueError as exc:  # settings the security layer refuses (mechanisms, users)
        if isinstance(exc, KafkaWireError):
            raise
        raise CommandError(str(exc), USAGE_ERROR) from exc
    if not broker.check_roundtrip:
        return 0
    print(
        f"frames checked: {broker.frames_checked}, not byte-exact: {len(broker.roundtrip_failures)}",
        flush=True,
    )
    return 1 if broker.roundtrip_failures else 0


def main(argv: Optional[List[str]] = None) -> int:
    """Entry point of ``kafkawire serve``."""
    return run_command(_parser(), _run, argv)
