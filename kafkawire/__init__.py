"""kafkawire: the Apache Kafka wire protocol for Python.

``kafkawire.BACKEND`` says which implementation runs: ``"cython"`` (compiled) or
``"python"`` (the pure-Python twin, selected by ``KAFKAWIRE_NO_EXTENSIONS=1`` or used
where no compiled extension is available).
"""

from typing import TYPE_CHECKING

from kafkawire import _backend
from kafkawire._backend import BACKEND

if TYPE_CHECKING:  # a type checker reads the pure twin; at run time the active backend's function
    from kafkawire._pure.crc import crc32c
    from kafkawire._backend_interfaces import CrcBackend
    from kafkawire._pure import crc as _pure_crc

    _PURE_IS_A_BACKEND: CrcBackend = _pure_crc  # what implementation("crc") promises
else:
    _backend.bind(globals(), "crc", ("crc32c",))

if TYPE_CHECKING:
    from kafkawire.protocol.requests import (
        decode_request,
        decode_request_prefix,
        decode_response,
        encode_request,
        encode_response,
    )

# kafkawire.protocol.requests (and with it the header and message classes, built from the schema's
# JSON) is imported when one of its functions is first asked for, not by ``import
# kafkawire``: the command line and Spark's Python workers import the package for other
# modules, and pay for its import each time.
_PROTOCOL = (
    "encode_request",
    "decode_request",
    "decode_request_prefix",
    "encode_response",
    "decode_response",
)


def __getattr__(name: str) -> object:
    if name in _PROTOCOL:
        from kafkawire.protocol import requests as protocol

        return getattr(protocol, name)
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


def __dir__() -> list[str]:
    return sorted(set(globals()) | set(_PROTOCOL))


__version__ = "0.1.0"
__all__ = [
    "BACKEND",
    "crc32c",
    "__version__",
    "encode_request",
    "decode_request",
    "decode_request_prefix",
    "encode_response",
    "decode_response",
]
