"""The frame log: every frame of the broker's conversations as a JSON line, SASL tokens
withheld (the broker's checks that write it are :mod:`kafkawire.broker.frame_checks`)."""

from __future__ import annotations

import copy
import json
import os
from typing import IO, Any, Callable, Dict, Optional, Tuple, Union

from kafkawire.protocol import messages as M

#: What the frame log shows of a frame: its hex (None: withheld) and its decoded body.
Shown = Tuple[Optional[str], Dict[str, Any]]


def without_credentials(
    payload: Union[bytes, memoryview], request: M.SaslAuthenticateRequest, version: int
) -> Shown:
    """A SaslAuthenticate request as the frame log shows it: the SASL token (a PLAIN
    password, a SCRAM proof, an OAuth token) is zeros in the hex and a count of the
    withheld bytes in the body, so the log can be shared and still decodes."""
    body = request.to_dict()
    size = len(request.auth_bytes)
    body["auth_bytes"] = f"<{size} bytes withheld>"
    blank = copy.copy(request)
    blank.auth_bytes = bytes(size)
    encoded, wire = request.encode(version), bytes(payload)
    if not wire.endswith(encoded):  # not byte-exact: no safe place to blank the token
        return None, body
    return (wire[: len(wire) - len(encoded)] + blank.encode(version)).hex(), body


class FrameLog:
    """Writes every frame of the broker's conversations as JSON lines: direction,
    connection, API, version, correlation id, the payload in hex (what
    ``kafkawire decode`` reads back) and the decoded header and body.  SASL tokens are
    withheld: the bytes of SaslAuthenticate requests are zeros in the hex, and the bare
    tokens after SaslHandshake v0 are not logged."""

    def __init__(self, target: Union[str, os.PathLike[str], Callable[[Dict[str, Any]], None]]) -> None:
        self._fh: Optional[IO[str]] = None
        self._sink: Callable[[Dict[str, Any]], None]
        if callable(target):
            self._sink = target
        else:
            fh = open(target, "a", encoding="utf-8")
            self._fh = fh

            def write(entry: Dict[str, Any]) -> None:
                fh.write(json.dumps(entry, default=str) + "\n")
                fh.flush()

            self._sink = write

    def __call__(self, entry: Dict[str, Any]) -> None:
        self._sink(entry)

    def close(self) -> None:
        if self._fh is not None:
            self._fh.close()
            self._fh = None
