"""``kafkawire decode``: decode captured Kafka frames and print them as JSON.

Input, from a file or stdin (``-``, the default), or ``--hex`` on the command line:

* hex text (whitespace and a leading ``0x`` ignored) or raw binary bytes;
* one frame with or without its 4-byte size prefix, or several size-prefixed frames
  back to back (a captured TCP stream of one direction);
* or the JSON lines that the test broker's frame log writes (``kafkawire serve
  --frame-log``): each line's ``hex`` is decoded with the API and version it names.

Requests say what they are in their header.  Responses do not: give ``--response``
with ``--api-key`` and ``--version`` of the request they answer.

A whole conversation pairs each request with its response (a response does not say what
it answers: the pairing is :mod:`kafkawire.cli.conversation`'s bookkeeping):

* ``--pcap FILE``: every Kafka connection of a classic pcap capture (``tcpdump -w``);
  the broker is the side that received the SYN, else the side on ``--port`` (9092);
* ``--streams CLIENT SERVER``: the two byte streams of one connection, each a file of
  raw bytes or hex (the client's requests, the server's responses).

Each line then also has ``direction`` and ``correlation_id`` (and ``connection`` for a
capture); a request that never got its response is listed with an ``error``.

Output: one JSON object per frame with ``api_key``, ``api_name``, ``api_version``,
``header`` and ``body`` (bytes as base64, as ``to_dict()`` gives them).  ``--records``
also decodes the ``records`` fields (Produce, Fetch, ...) into record lists, whose keys
and values are printed as ``--bytes-as`` says (:func:`kafkawire.cli.json_output.render_bytes`).

Input that ends inside a frame is reported as truncated, with the frames before it
decoded.
"""

from __future__ import annotations

import argparse
import binascii
import json
import re
import struct
import sys
from typing import Any, Callable, Dict, Iterator, List, Optional, Tuple

import kafkawire
from kafkawire.cli import USAGE_ERROR, CommandError, CommandParser, add_bytes_as, run_command
from kafkawire.errors import DecodeError, KafkaWireError, TruncatedError
from kafkawire.protocol.headers import peek_request_api
from kafkawire.cli.json_output import records_json
from kafkawire.protocol.messages import Message

_HEX = re.compile(rb"^(?:0x)?[0-9a-fA-F\s]+$")


def _parser() -> argparse.ArgumentParser:
    p = CommandParser(
        "kafkawire decode", "Decode captured Kafka request or response frames and print them as JSON."
    )
    p.add_argument(
        "input",
        nargs="?",
        default="-",
        help="file holding the frame(s): hex text, binary, or frame-log JSON lines (default: stdin)",
    )
    p.add_argument("--hex", dest="hex_text", help="the frame as hex on the command line")
    kind = p.add_mutually_exclusive_group()
    kind.add_argument("--request", action="store_true", help="the input is requests (default)")
    kind.add_argument(
        "--response", action="store_true", help="the input is responses (needs --api-key and --version)"
    )
    p.add_argument("--api-key", type=int, help="API key of the request a response answers")
    p.add_argument("--version", type=int, help="version of the request a response answers")
    p.add_argument(
        "--no-size-prefix",
        action="store_true",
        help="the input is one frame payload without its 4-byte size "
        "(by default a matching size prefix is detected)",
    )
    p.add_argument("--pcap", metavar="FILE", help="pair the requests and responses of a pcap capture")
    p.add_argument(
        "--port",
        type=int,
        action="append",
        help="with --pcap: a broker port, for connections whose SYN is not in the "
        "capture (repeatable; default 9092)",
    )
    p.add_argument(
        "--streams",
        nargs=2,
        metavar=("CLIENT", "SERVER"),
        help="pair the two byte streams of one connection (files of raw bytes or hex)",
    )
    p.add_argument("--records", action="store_true", help="decode records fields into lists of records")
    add_bytes_as(p)
    p.add_argument("--compact", action="store_true", help="one JSON object per line")
    return p


def _read_input(args: argparse.Namespace) -> bytes:
    if args.hex_text is not None:
        text = args.hex_text.encode()
        if not _HEX.match(text):
            raise CommandError(f"--hex: not hexadecimal: {args.hex_text[:40]!r}", USAGE_ERROR)
        try:
            return _unhex(text)
        except binascii.Error:
            raise CommandError("--hex: an odd number of hex digits", USAGE_ERROR) from None
    if args.input == "-":
        return sys.stdin.buffer.read()
    with open(args.input, "rb") as fh:
        return fh.read()


def _unhex(data: bytes) -> bytes:
    text = re.sub(rb"\s+", b"", data)
    if text[:2].lower() == b"0x":
        text = text[2:]
    return binascii.unhexlify(text)


def _prefixed(data: bytes) -> Tuple[List[bytes], int]:
    """The whole size-prefixed frames at the start of ``data`` and where they end."""
    frames = []
    pos = 0
    while pos + 4 <= len(data):
        size = struct.unpack_from(">i", data, pos)[0]
        if size < 0 or pos + 4 + size > len(data):
            break
        frames.append(data[pos + 4 : pos + 4 + size])
        pos += 4 + size
    return frames, pos


def decode_frame(
    payload: bytes,
    *,
    response: bool = False,
    api_key: Optional[int] = None,
    version: Optional[int] = None,
    records: bool = False,
    bytes_as: str = "auto",
) -> Dict[str, Any]:
    """One frame payload (no size prefix) as a JSON-safe dict."""
    header: Message
    if response:
        if api_key is None or version is None:
            raise KafkaWireError("a response needs --api-key and --version of its request")
        header, body = kafkawire.decode_response(payload, api_key, version)
    else:
        header, body = kafkawire.decode_request(payload)
        api_key, version = peek_request_api(payload)
    out = {
        "api_key": api_key,
        "api_name": type(body).__name__,
        "api_version": version,
        "header": header.to_dict(),
        "body": body.to_dict(),
    }
    if records:
        records_json(body, out["body"], bytes_as)
    return out


def _cut_short(payload: bytes, decode: Callable[[bytes], Any]) -> bool:
    """Whether ``payload`` reads as the start of a frame that ran out of bytes."""
    try:
        decode(payload)
    except TruncatedError:
        return True
    except KafkaWireError:
        return False
    return False


def decode_input(
    data: bytes, decode: Callable[[bytes], Dict[str, Any]], *, bare: bool = False
) -> Iterator[Dict[str, Any]]:
    """``decode(payload)`` of every frame in ``data``: size-prefixed frames back to
    back, or (when the prefixes do not fit, or ``bare`` says so) one bare payload.

    When the input is neither whole size-prefixed frames nor one bare payload that
    decodes, but ends inside a size-prefixed frame, the frames before it are decoded
    and a :class:`~kafkawire.errors.TruncatedError` says where the input was cut."""
    if bare:
        yield decode(data)
        return
    frames, pos = _prefixed(data)
    if frames and pos == len(data):
        for payload in frames:
            yield decode(payload)
        return
    try:
        whole = decode(data)
    except KafkaWireError:
        rest = len(data) - pos
        if rest >= 4:
            size = struct.unpack_from(">i", data, pos)[0]
            if size > rest - 4 and _cut_short(data[pos + 4 :], decode):
                for payload in frames:
                    yield decode(payload)
                raise TruncatedError(
                    f"truncated input: the frame at byte {pos} is {size} bytes long "
                    f"(its size prefix says), only {rest - 4} follow"
                ) from None
        elif frames:
            for payload in frames:
                yield decode(payload)
            raise TruncatedError(
                f"truncated input: {rest} bytes after the last whole frame (at byte {pos}), "
                "too few for a size prefix"
            ) from None
        raise
    yield whole


def _from_frame_log(data: bytes, records: bool, bytes_as: str = "auto") -> Iterator[Dict[str, Any]]:
    for n, line in enumerate(data.splitlines(), 1):
        if not line.strip():
            continue
        try:
            entry = json.loads(line)
            payload = bytes.fromhex(entry["hex"]) if "hex" in entry else None
        except (ValueError, TypeError) as exc:
            raise DecodeError(f"frame log line {n} is not a frame-log entry: {exc}") from None
        if payload is None:
            continue
        try:
            decoded = decode_frame(
                payload,
                response=entry.get("direction") == "response",
                api_key=entry.get("api_key"),
                version=entry.get("api_version"),
                records=records,
                bytes_as=bytes_as,
            )
        except KafkaWireError as exc:
            decoded = {
                "api_key": entry.get("api_key"),
                "api_version": entry.get("api_version"),
                "error": f"{type(exc).__name__}: {exc}",
            }
        decoded = {
            "line": n,
            "direction": entry.get("direction"),
            "connection": entry.get("connection"),
            **decoded,
        }
        yield decoded


def _stream_bytes(path: str) -> bytes:
    with open(path, "rb") as fh:
        data = fh.read()
    if data.strip() and _HEX.match(data.strip()):
        return _unhex(data)
    return data


def _conversation(args: argparse.Namespace, indent: Optional[int]) -> int:
    from kafkawire.cli.conversation import Conversation, event_json, pcap_conversations

    if args.pcap:
        with open(args.pcap, "rb") as fh:
            for item in pcap_conversations(
                fh, tuple(args.port or (9092,)), records=args.records, bytes_as=args.bytes_as
            ):
                print(json.dumps(item, indent=indent))
        return 0
    client, server = (_stream_bytes(path) for path in args.streams)
    conv = Conversation()
    events = conv.client_data(client) + conv.server_data(server) + conv.end()
    for event in events:
        print(json.dumps(event_json(event, records=args.records, bytes_as=args.bytes_as), indent=indent))
    return 0


def _run(args: argparse.Namespace) -> int:
    indent = None if args.compact else 2
    if args.pcap or args.streams:
        return _conversation(args, indent)
    if args.response and (args.api_key is None or args.version is None):
        raise CommandError("--response needs --api-key and --version of the request it answers", USAGE_ERROR)
    data = _read_input(args)
    if args.hex_text is None and data.lstrip()[:1] == b"{":
        for item in _from_frame_log(data, args.records, args.bytes_as):
            print(json.dumps(item, indent=indent))
        return 0
    if args.hex_text is None and data.strip() and _HEX.match(data.strip()):
        try:
            data = _unhex(data)
        except binascii.Error:
            raise DecodeError("the input reads as hex text with an odd number of digits") from None

    def decode(payload: bytes) -> Dict[str, Any]:
        return decode_frame(
            payload,
            response=args.response,
            api_key=args.api_key,
            version=args.version,
            records=args.records,
            bytes_as=args.bytes_as,
        )

    for item in decode_input(data, decode, bare=args.no_size_prefix):
        print(json.dumps(item, indent=indent))
    return 0


def main(argv: Optional[List[str]] = None) -> int:
    """Entry point of ``kafkawire decode``."""
    return run_command(_parser(), _run, argv)
