"""kafkawire's exceptions, and Kafka's table of protocol error codes.

Everything kafkawire raises is a subclass of :class:`KafkaWireError`, with a message that
says what was wrong and where.  Those for bad bytes and bad values are also
:class:`ValueError` subclasses (:class:`DecodeError`, :class:`EncodeError`, the SASL,
cluster and storage errors).  A connection's errors say whose fault they are, and are
not value errors: our own misuse (:class:`ConnectionStateError`), the peer breaking the
protocol (:class:`PeerProtocolError`), or a connection that is gone
(:class:`ConnectionClosedError`, a :class:`ConnectionError`).
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, Dict, Optional, Tuple


if TYPE_CHECKING:
    from kafkawire.protocol.error_codes import ErrorCode as ErrorCode


class KafkaWireError(Exception):
    """Root of every exception kafkawire raises."""


class DecodeError(KafkaWireError, ValueError):
    """Bytes that do not decode: truncated, malformed, corrupt or hostile input."""


class TruncatedError(DecodeError):
    """The buffer ended before a value that it declares was complete."""


class InvalidVarintError(DecodeError):
    """A varint longer than its type allows (overlong or never-ending)."""


class InvalidFrame(DecodeError):
    """A frame size prefix that no valid frame can have (negative, say)."""


class FrameTooLarge(InvalidFrame):
    """A frame size prefix over the reader's ``max_frame_size``."""


class CorruptRecordError(DecodeError):
    """A record batch or legacy message whose checksum does not match its bytes."""


class DecompressionError(DecodeError):
    """Compressed records that do not decompress, or whose codec is unknown."""


class DecompressionLimitError(DecompressionError):
    """Decompressed records would exceed the caller's ``max_decompressed_size``."""


class EncodeError(KafkaWireError, ValueError):
    """Values that cannot be written: out of range, null where not nullable, or a
    non-default value in a field the chosen version does not have."""


class CodecUnavailableError(DecodeError, EncodeError):
    """Records to compress or decompress with a codec whose library (cramjam) is not
    installed: nothing is wrong with the records."""


class UnknownApiError(DecodeError, EncodeError):
    """An API key (or internal record type) that kafkawire's schema does not define."""


class UnsupportedVersionError(DecodeError, EncodeError):
    """A version outside the valid versions of a message or header."""


class SaslError(KafkaWireError, ValueError):
    """A SASL exchange that cannot go on (see :mod:`kafkawire.sasl`)."""


class SaslMalformedError(SaslError, DecodeError):
    """A SASL message that does not parse: a bad SCRAM attribute list, a PLAIN token
    without its three parts, an OAUTHBEARER response out of shape."""


class SaslBase64Error(SaslMalformedError):
    """A SASL attribute that must be base64 (a SCRAM salt, proof or signature) is not."""


class SaslIterationCountError(SaslMalformedError):
    """A SCRAM iteration count below the mechanism's minimum (4096) or over the bound
    the caller accepts (PBKDF2 cost grows with it: an absurd count is a denial of service)."""


class SaslTokenTooLarge(SaslMalformedError):
    """A SASL token longer than the caller's ``max_token_size``."""


class SaslAuthenticationError(SaslError):
    """Credentials refused: a wrong password or unknown user, or the peer said the
    authentication failed (SASL_AUTHENTICATION_FAILED and its message)."""


class SaslServerSignatureError(SaslAuthenticationError):
    """The SCRAM server's final signature does not prove it knows the credential."""


class SaslKerberosError(SaslAuthenticationError):
    """A Kerberos (SASL/GSSAPI) failure, its message naming the cause: an expired
    ticket, a service principal the KDC does not know (a wrong
    ``sasl.kerberos.service.name`` or host), a missing keytab or credential cache, a
    clock skew the KDC or the service refuses, an unreachable KDC."""


class SaslLoginError(SaslAuthenticationError):
    """The credential a SASL login presents could not be had, its message naming the
    cause: an OAuth token endpoint that refuses the client or does not answer, an access
    token that is not a JWT or has expired, AWS credentials found nowhere."""


class SaslMechanismError(SaslError):
    """A SASL mechanism that is unknown or that the peer has not enabled."""


class SaslStateError(SaslError):
    """A SASL step taken out of order (a token after the exchange ended, say)."""


class UnsupportedByPeerError(UnsupportedVersionError):
    """An API, or a version of one, that the other end of a connection did not advertise
    in its ApiVersions answer."""


class ConnectionStateError(KafkaWireError):
    """Our own misuse of a connection: asked to do something its state does not allow (a
    request over the in-flight limit, a response to a request that was never received or
    was already answered, a move its phase table does not have)."""


class InFlightLimitError(ConnectionStateError):
    """``max_in_flight`` requests are already waiting for their responses."""


class AuthenticationRequiredError(ConnectionStateError):
    """A request sent on a connection whose SASL authentication has not finished: before
    it, only ApiVersions and the SASL exchange itself may be sent (Kafka closes a
    connection that sends anything else)."""


class PeerProtocolError(DecodeError):
    """The other end broke Kafka's protocol: a response no request is waiting for, a
    frame whose size is negative or over the limit.  Also a :class:`DecodeError`."""


class ConnectionClosedError(KafkaWireError, ConnectionError):
    """The connection is gone (lost, closed by the peer, closed here, or broken by the
    peer: :class:`BrokenStreamError`); also the error of every request that was still
    waiting for its response then.  Also a :class:`ConnectionError`."""


class BrokenStreamError(ConnectionClosedError, PeerProtocolError):
    """The peer's bytes broke the stream beyond recovery (a frame of a negative or
    oversized size), so the connection was closed: the peer's fault, and a lost
    connection.  The framing error is its ``__cause__``."""


class TlsHandshakeError(ConnectionClosedError):
    """The TLS handshake did not complete: the broker's certificate did not verify (an
    unknown certificate authority, a host name it does not name, expired), the broker
    refused the client's certificate or its absence, the peer is not a TLS listener or
    closed the connection, or the handshake outlasted the timeout.  The
    :mod:`ssl` or OS error, when there is one, is its ``__cause__``."""


class ConnectTimeoutError(KafkaWireError, TimeoutError):
    """The TCP connect to a broker did not complete within the timeout.  Also a
    :class:`TimeoutError`, so code that catches that keeps working."""


class RequestTimedOutError(KafkaWireError, TimeoutError):
    """A request whose deadline passed before its response arrived."""


class UnexpectedResponseError(PeerProtocolError):
    """A response whose correlation id matches no request waiting for one: never sent,
    already answered, expired, or a Produce with ``acks=0``."""


class InvalidCaptureError(DecodeError):
    """A packet capture that cannot be read: not a classic pcap file, a truncated
    record, or a link type this reader does not know."""


class ClusterError(KafkaWireError, ValueError):
    """A live cluster (:mod:`kafkawire.cluster`) could not do what was asked: no bootstrap
    server answered, a topic does not exist, a partition has no leader within the
    deadline.  The message names the servers, topic, partition and Kafka error."""


class BrokerErrorResponse(ClusterError):
    """A broker answered with a Kafka error that retrying did not cure (or that no retry
    can: an authorization failure, a topic that does not exist).  ``error`` is the entry of
    Kafka's error table (:func:`for_code`)."""

    def __init__(self, message: str, error: "KafkaError") -> None:
        super().__init__(message)
        self.error = error


class DataLossError(ClusterError):
    """Records a read was planned to return are gone (deleted by retention, the topic
    deleted, the log truncated), and ``failOnDataLoss`` asks for an error."""


class OptionError(KafkaWireError, ValueError):
    """An option a ``kafka-log`` or ``kafka-cluster`` read or write does not take: a name
    it does not know (the message names the option probably meant) or a ``kafka.``
    setting it refuses (with why).  Every source and sink checks names alike
    (:func:`kafkawire.datasource_options.check_names`)."""


class StorageError(KafkaWireError, ValueError, OSError):
    """A log file or object that could not be read: refused (wrong credentials), missing,
    or an object store that failed.  Also an :class:`OSError`.  ``path`` names the file
    or object, ``position`` the byte a read was at (None outside a read)."""

    def __init__(self, path: str, reason: str, position: Optional[int] = None) -> None:
        where = path if position is None else f"{path}: at byte {position}"
        super().__init__(f"{where}: {reason}")
        self.path = path
        self.reason = reason
        self.position = position

    def __str__(self) -> str:  # OSError's own formatting would show the arguments
        return str(self.args[0])

    def __reduce__(self) -> Tuple[Any, ...]:  # picklable across Spark's worker boundary
        return (type(self), (self.path, self.reason, self.position))


class LogNotFoundError(StorageError, FileNotFoundError):
    """A log path, bucket, file or object that does not exist (or no longer does: a
    segment deleted after a read was planned).  Also a :class:`FileNotFoundError`."""


class SchemaFramingError(DecodeError):
    """A value that is not in Confluent's Schema Registry framing (a magic byte 0, a
    4-byte big-endian schema id, for Protobuf the message indexes).  ``topic``,
    ``partition`` and ``offset`` name the record when the caller knew them."""

    def __init__(
        self,
        reason: str,
        topic: Optional[str] = None,
        partition: Optional[int] = None,
        offset: Optional[int] = None,
    ) -> None:
        where = ", ".join(
            f"{name} {value}"
            for name, value in (("topic", topic), ("partition", partition), ("offset", offset))
            if value is not None
        )
        super().__init__(f"{where}: {reason}" if where else reason)
        self.reason = reason
        self.topic = topic
        self.partition = partition
        self.offset = offset

    def __reduce__(self) -> Tuple[Any, ...]:  # picklable across Spark's worker boundary
        return (type(self), (self.reason, self.topic, self.partition, self.offset))


class BadMagicByteError(SchemaFramingError):
    """A value whose first byte is not Confluent's magic byte 0."""


class TruncatedPayloadError(SchemaFramingError, TruncatedError):
    """A framed value that ends before its header, its message indexes or the value its
    schema describes is complete."""


class PayloadDecodeError(SchemaFramingError):
    """A framed value whose body does not decode with its writer schema: a bad union
    branch or enum index, an overlong varint, a count past any sane bound, nesting past
    the limit, a value the reader schema cannot take."""


class SchemaRegistryError(KafkaWireError):
    """The Schema Registry could not answer: unreachable after the retries, refused the
    credentials, or answered with an error.  ``status`` is the HTTP status (None when no
    answer came), ``error_code`` the registry's own code (40403: schema not found)."""

    def __init__(self, message: str, status: Optional[int] = None, error_code: Optional[int] = None) -> None:
        super().__init__(message)
        self.status = status
        self.error_code = error_code

    def __reduce__(self) -> Tuple[Any, ...]:
        return (type(self), (str(self), self.status, self.error_code))


class UnknownSchemaIdError(SchemaFramingError):
    """A framed value whose schema id the registry does not know."""


class SchemaValueError(EncodeError):
    """A value of a column that its writer schema cannot hold.  ``field`` is the
    field's path (``address.zip``, ``tags[]``), ``row`` the row of the column it is in."""

    def __init__(self, reason: str, field: str, row: int) -> None:
        super().__init__(f"row {row}, field {field or '(the value)'}: {reason}")
        self.reason = reason
        self.field = field
        self.row = row

    def __reduce__(self) -> Tuple[Any, ...]:  # picklable across Spark's worker boundary
        return (type(self), (self.reason, self.field, self.row))


class AvroValueError(SchemaValueError):
    """A value that its Avro schema cannot hold: a null in a field that is not
    nullable, an integer out of the type's range, a decimal of more digits than its
    precision, a string that is not an enum symbol."""


class ProtobufValueError(SchemaValueError):
    """A value that its Protobuf message cannot hold: a null in a required field (or a
    repeated field's item, a map's value), an integer out of the type's range, a name
    that is not one of the enum's values, two members of one oneof set."""


class JsonValueError(SchemaValueError):
    """A value that its JSON Schema does not take: a wrong type, a required property
    that is null, a value not in the enum, a number that is not finite."""


class SchemaResolutionError(KafkaWireError, ValueError):
    """A writer schema and a reader schema that the Avro specification's resolution
    rules cannot reconcile (or a schema that does not parse); the message names both
    schema ids and the field."""


class KafkaError:
    """One entry of Kafka's error-code table (immutable, compared by value)."""

    __slots__ = ("code", "name", "retriable", "exception")
    code: int
    name: str
    retriable: bool
    exception: Optional[str]

    def __init__(self, code: int, name: str, retriable: bool, exception: Optional[str]) -> None:
        for slot, value in zip(self.__slots__, (code, name, retriable, exception)):
            object.__setattr__(self, slot, value)

    def __setattr__(self, name: str, value: object) -> None:
        raise AttributeError(f"KafkaError is immutable: cannot set {name!r}")

    def __delattr__(self, name: str) -> None:
        raise AttributeError(f"KafkaError is immutable: cannot delete {name!r}")

    def _fields(self) -> Tuple[int, str, bool, Optional[str]]:
        return (self.code, self.name, self.retriable, self.exception)

    def __eq__(self, other: object) -> bool:
        if type(other) is not KafkaError:
            return NotImplemented
        return self._fields() == other._fields()

    def __hash__(self) -> int:
        return hash(self._fields())

    def __repr__(self) -> str:
        return (
            f"KafkaError(code={self.code!r}, name={self.name!r}, "
            f"retriable={self.retriable!r}, exception={self.exception!r})"
        )

    def __reduce__(self) -> Tuple[type, Tuple[int, str, bool, Optional[str]]]:
        return (KafkaError, self._fields())

    def __bool__(self) -> bool:  # NONE (code 0) is falsy, every real error truthy
        return self.code != 0


_TABLE: Optional[Dict[int, KafkaError]] = None
_BY_NAME: Dict[str, KafkaError] = {}


def _table() -> Dict[int, KafkaError]:
    """Every Kafka error by code, read from the schema's ``errors.json`` when first asked
    for (not at import: most programs never look an error code up)."""
    global _TABLE, _BY_NAME
    if _TABLE is None:
        from kafkawire.protocol.schema import load_json

        errors = [
            KafkaError(e["code"], e["name"], bool(e["retriable"]), e["exception"])
            for e in load_json("errors.json")["errors"]
        ]
        # each name bound to a whole table (threads that race build equal ones), by name first
        _BY_NAME = {e.name: e for e in errors}
        _TABLE = {e.code: e for e in errors}
    return _TABLE


def _by_name() -> Dict[str, KafkaError]:
    _table()
    return _BY_NAME


def for_code(code: int) -> KafkaError:
    """The Kafka error for ``code``.  A code this table lacks (from a newer broker, or
    garbage) is what Kafka's clients take it for, UNKNOWN_SERVER_ERROR, keeping ``code``."""
    table = _table()
    known = table.get(code)
    if known is not None:
        return known
    unknown = _by_name()["UNKNOWN_SERVER_ERROR"]
    return KafkaError(code, unknown.name, unknown.retriable, unknown.exception)


def for_name(name: str) -> KafkaError:
    """The Kafka error named ``name`` (e.g. ``"NOT_LEADER_OR_FOLLOWER"``)."""
    try:
        return _by_name()[name]
    except KeyError:
        raise KeyError(f"no Kafka error is named {name!r}") from None


if TYPE_CHECKING:
    ERROR_CODES: Dict[int, KafkaError]  # every Kafka error by code
    BY_NAME: Dict[str, KafkaError]  # every Kafka error by name
    UNKNOWN_SERVER_ERROR: KafkaError
    NONE: KafkaError


def __getattr__(name: str) -> Any:
    # ErrorCode (an IntEnum of every code) and the table of errors are made when first
    # asked for: building them costs more than the rest of this module.
    if name == "ErrorCode":
        from kafkawire.protocol.error_codes import ErrorCode

        return ErrorCode
    if name == "ERROR_CODES":
        return _table()
    if name == "BY_NAME":
        return _by_name()
    if name in ("UNKNOWN_SERVER_ERROR", "NONE"):
        return _by_name()[name]
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


__all__ = [  # what this module defines (its error classes and table), not what it imports
    n
    for n, v in list(globals().items())
    if not n.startswith("_") and n != "TYPE_CHECKING" and getattr(v, "__module__", __name__) == __name__
]
__all__ += ["ERROR_CODES", "BY_NAME", "UNKNOWN_SERVER_ERROR", "NONE", "ErrorCode"]


def __dir__() -> list[str]:  # what the module defines, not what it imports
    return sorted(__all__)
