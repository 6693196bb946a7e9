"""Fuzz targets shared by the atheris harness (``fuzz/run.py``) and the hostile tests.

Every target is a function ``target(data: bytes) -> None`` that feeds ``data`` to one
decoder entry point of kafkawire on every available backend and checks that

* the only exceptions raised are :mod:`kafkawire.errors` exceptions (anything else --
  IndexError, struct.error, UnicodeDecodeError, OverflowError, MemoryError,
  SystemError... -- escapes as :class:`HostileFailure`, which atheris reports as a
  crash and the tests as a failure), and
* the Cython and pure-Python backends agree: both return equal results, or both raise
  the same exception class at the same point (differential fuzzing).

The first bytes of ``data`` usually choose what to call (which decoder, which message
class and version, which flags); the rest is the hostile payload.  ``TARGETS`` maps the
target names used by ``fuzz/run.py`` and ``fuzz/corpus/<name>/`` to the functions.
"""

from __future__ import annotations

import math
import os
import struct
import tempfile
import zlib
from typing import Any, Callable, Dict, List, Tuple

from kafkawire import _backend
from kafkawire.errors import KafkaWireError

BACKENDS: Tuple[str, ...] = ("cython", "python") if _backend.fast_available() else ("python",)

#: The cap every target passes as ``max_decompressed_size``: big enough for any seed,
#: small enough that a decompression bomb is cut off quickly.
FUZZ_MAX_DECOMPRESSED = 1 << 20


class HostileFailure(AssertionError):
    """A decoder raised something other than a kafkawire error, or the backends disagree."""


# ---------------------------------------------------------------------------
# outcome capture and comparison


def normalize(value: Any) -> Any:
    """A comparable, hashable-ish form of a decoded value (NaN-safe, view-safe)."""
    from kafkawire.protocol.message_class import Struct

    if isinstance(value, Struct):
        return (
            type(value).__qualname__,
            tuple(normalize(object.__getattribute__(value, a)) for a in value._attrs),
            normalize(value._unknown_tagged or None),
        )
    if isinstance(value, (bytes, bytearray, memoryview)):
        return ("bytes", bytes(value))
    if isinstance(value, float):
        return ("float", struct.pack(">d", value)) if math.isnan(value) else ("float", value)
    if isinstance(value, (list, tuple)):
        return tuple(normalize(v) for v in value)
    if isinstance(value, dict):
        return tuple(sorted((k, normalize(v)) for k, v in value.items()))
    if hasattr(value, "as_tuple") and callable(value.as_tuple):  # records.Record
        return ("Record",) + normalize(value.as_tuple())
    return value


class Outcome:
    """What one backend did with one input: the values it produced, in order, and the
    kafkawire exception class it stopped with (None when it finished)."""

    __slots__ = ("values", "error", "message")

    def __init__(self) -> None:
        self.values: List[Any] = []
        self.error = None
        self.message = ""

    def key(self):
        return (self.values, self.error)


def _run(backend: str, fn: Callable[[Outcome], None]) -> Outcome:
    out = Outcome()
    try:
        with _backend.use(backend):
            fn(out)
    except KafkaWireError as exc:
        out.error = type(exc)
        out.message = str(exc)
    except Exception as exc:  # noqa: BLE001 - every other exception is the bug we hunt
        raise HostileFailure(f"{backend} backend raised {type(exc).__name__}: {exc}") from exc
    return out


def differential(fn: Callable[[Outcome], None], what: str = "") -> Outcome:
    """Run ``fn`` on every backend; raise :class:`HostileFailure` unless they agree."""
    results = [(b, _run(b, fn)) for b in BACKENDS]
    first_name, first = results[0]
    for name, other in results[1:]:
        if first.key() != other.key():
            raise HostileFailure(
                f"{what}: backends disagree\n  {first_name}: {first.values!r:.2000} "
                f"error={first.error} {first.message!r}\n  {name}: {other.values!r:.2000} "
                f"error={other.error} {other.message!r}"
            )
    return first


def only_kafkawire_errors(fn: Callable[[], Any], what: str = "") -> Any:
    """Run a backend-independent ``fn``; non-kafkawire exceptions become failures."""
    try:
        return fn()
    except KafkaWireError:
        return None
    except Exception as exc:  # noqa: BLE001
        raise HostileFailure(f"{what} raised {type(exc).__name__}: {exc}") from exc


# ---------------------------------------------------------------------------
# primitives

PRIMITIVE_DECODERS = (
    "int8",
    "int16",
    "uint16",
    "int32",
    "uint32",
    "int64",
    "float64",
    "bool",
    "uuid",
    "unsigned_varint",
    "varint",
    "varlong",
    "array_length",
    "compact_array_length",
    "bytes",
    "nullable_bytes",
    "compact_bytes",
    "compact_nullable_bytes",
    "string",
    "nullable_string",
    "compact_string",
    "compact_nullable_string",
)


def _as_buffer(kind: int, payload: bytes):
    if kind == 1:
        return bytearray(payload)
    if kind == 2:
        return memoryview(payload)
    if kind == 3:  # a view that does not start at the beginning of its buffer
        return memoryview(b"\x00" + payload)[1:]
    return payload


def primitives_target(data: bytes) -> None:
    """One primitive decoder (byte 0) at an offset (byte 1) of the rest."""
    if len(data) < 2:
        return
    name = "decode_" + PRIMITIVE_DECODERS[data[0] % len(PRIMITIVE_DECODERS)]
    payload = data[2:]
    offset = (data[1] & 0x3F) - 2  # -2 .. 61: negative and past-the-end offsets too
    buf_kind = data[1] >> 6

    def fn(out: Outcome) -> None:
        decode = getattr(_backend.implementation("primitives", _backend.BACKEND), name)
        out.values.append(normalize(decode(_as_buffer(buf_kind, payload), offset)))

    differential(fn, f"{name}(offset={offset})")


# ---------------------------------------------------------------------------
# messages


def _message_pairs():
    from kafkawire.protocol import messages

    pairs = []
    for name, cls in sorted(messages.CLASSES.items()):
        vr = cls.valid_versions
        for v in range(vr.lowest, vr.highest + 1):
            pairs.append((name, v))
    return pairs


_PAIRS: List[Tuple[str, int]] = []


def message_pairs() -> List[Tuple[str, int]]:
    """Every (definition name, version), in a stable order (the target's selector)."""
    if not _PAIRS:
        _PAIRS.extend(_message_pairs())
    return _PAIRS


def _reencode(cls, version: int, msg, out: Outcome) -> None:
    """A decoded message re-encodes, and the bytes re-decode to the same message."""
    codec = _backend.implementation("codec", _backend.BACKEND)
    wire = codec.encode(cls.plan(version), msg)
    out.values.append(("reencoded", wire))
    back = codec.decode(cls.plan(version), wire)
    if normalize(back) != normalize(msg):
        raise HostileFailure(f"{cls.__name__} v{version}: re-encoded message decodes differently")


def message_target(data: bytes) -> None:
    """One message class at one version (bytes 0-1 pick it) decoding the rest."""
    from kafkawire.protocol import messages

    if len(data) < 2:
        return
    pairs = message_pairs()
    name, version = pairs[int.from_bytes(data[:2], "big") % len(pairs)]
    cls = messages.CLASSES[name]
    payload = data[2:]

    def fn(out: Outcome) -> None:
        codec = _backend.implementation("codec", _backend.BACKEND)
        msg = codec.decode(cls.plan(version), payload)
        out.values.append(normalize(msg))
        _reencode(cls, version, msg, out)

    differential(fn, f"{name} v{version}")

    def fn_from(out: Outcome) -> None:  # decode_from: trailing bytes are allowed
        codec = _backend.implementation("codec", _backend.BACKEND)
        msg, end = codec.decode_from(cls.plan(version), payload, 0)
        out.values.append((normalize(msg), end))

    differential(fn_from, f"{name} v{version} decode_from")


def request_target(data: bytes) -> None:
    """A request frame payload through ``decode_request`` and the ``decode`` command."""
    import json

    from kafkawire.protocol import requests as protocol
    from kafkawire.cli import decode as decodecmd

    def fn(out: Outcome) -> None:
        header, body = protocol.decode_request(data)
        out.values.append((normalize(header), normalize(body)))
        out.values.append(json.dumps(decodecmd.decode_frame(data, records=True), sort_keys=True))

    differential(fn, "decode_request")


def response_target(data: bytes) -> None:
    """``decode_response`` of the payload after 3 bytes (API key, version)."""
    from kafkawire.protocol import requests as protocol

    if len(data) < 3:
        return
    api_key = data[0] % 96  # a few keys past the last one too
    version = data[1] % 20
    payload = data[2:]

    def fn(out: Outcome) -> None:
        header, body = protocol.decode_response(payload, api_key, version)
        out.values.append((normalize(header), normalize(body)))

    differential(fn, f"decode_response(api_key={api_key}, version={version})")


def header_target(data: bytes) -> None:
    """Request header, and response header v0/v1 (byte 0), at an offset (byte 1)."""
    from kafkawire.protocol import headers

    if len(data) < 2:
        return
    offset = data[1] % 8
    payload = data[2:]

    def fn_req(out: Outcome) -> None:
        h, end = headers.decode_request_header(payload, offset)
        out.values.append((normalize(h), end))

    differential(fn_req, f"decode_request_header(offset={offset})")

    def fn_resp(out: Outcome) -> None:
        h, end = headers.decode_response_header(payload, data[0] & 1, offset)
        out.values.append((normalize(h), end))

    differential(fn_resp, f"decode_response_header(v{data[0] & 1}, offset={offset})")


def frames_target(data: bytes) -> None:
    """A byte stream cut into pieces through ``FrameReader``, each frame decoded."""
    from kafkawire.protocol.framing import FrameReader

    if len(data) < 2:
        return
    max_size = (data[0] << 4) or 1
    step = (data[1] % 13) + 1
    stream = data[2:]

    def run():
        reader = FrameReader(max_size)
        got = []
        for i in range(0, len(stream), step):
            got.extend(reader.feed(stream[i : i + step]))
        return got

    frames = only_kafkawire_errors(run, "FrameReader.feed") or []
    for payload in frames[:4]:
        request_target(payload)


# ---------------------------------------------------------------------------
# records

_BATCH_FIELDS = (
    "magic",
    "crc",
    "attributes",
    "compression",
    "timestamp_type",
    "is_transactional",
    "is_control",
    "has_delete_horizon",
    "delete_horizon_ms",
    "size_in_bytes",
    "partition_leader_epoch",
    "producer_id",
    "producer_epoch",
    "base_sequence",
    "max_timestamp",
    "last_offset",
)
_DERIVED_FIELDS = ("base_offset", "record_count", "last_offset_delta", "base_timestamp", "next_offset")


def _batch_values(batch, out: Outcome) -> None:
    out.values.append((type(batch).__name__,) + tuple(normalize(getattr(batch, f)) for f in _BATCH_FIELDS))
    out.values.append(normalize(bytes(batch.raw)))
    recs = batch.records()
    out.values.append(normalize(list(recs)))
    out.values.append(tuple(normalize(getattr(batch, f)) for f in _DERIVED_FIELDS))
    out.values.append(len(batch))
    out.values.append(tuple(batch.sequence_of(d) for d in (0, 1, 0x7FFFFFFF)))


def fix_crcs(buf: bytes) -> bytes:
    """``buf`` with the checksum of every top-level entry recomputed, so that mutated
    batches get past the CRC check and into the record parsers."""
    from kafkawire._pure.crc import crc32c

    out = bytearray(buf)
    pos = 0
    n = len(out)
    while n - pos >= 17:
        size = struct.unpack_from(">i", out, pos + 8)[0]
        end = pos + 12 + size
        if size < 14 or end > n:
            break
        if out[pos + 16] == 2:
            if size >= 49:
                struct.pack_into(">I", out, pos + 17, crc32c(bytes(out[pos + 21 : end])))
        else:
            struct.pack_into(">I", out, pos + 12, zlib.crc32(bytes(out[pos + 16 : end])))
        pos = end
    return bytes(out)


def records_target(data: bytes) -> None:
    """Batches of the payload after byte 0 (flags: verify CRC, recompute CRCs, cap)."""
    if not data:
        return
    flags = data[0]
    payload = data[1:]
    if flags & 2:
        payload = fix_crcs(payload)
    verify = bool(flags & 1)
    cap = FUZZ_MAX_DECOMPRESSED if not flags & 4 else 1 << 10

    def fn(out: Outcome) -> None:
        records = _backend.implementation("records", _backend.BACKEND)
        it = records.iter_batches(
            _as_buffer(flags >> 6, payload), verify_crc=verify, max_decompressed_size=cap
        )
        for batch in it:
            _batch_values(batch, out)
        out.values.append(("remaining", it.remaining_bytes, it.position))

    differential(fn, f"iter_batches(verify_crc={verify}, cap={cap})")

    def fn_decode(out: Outcome) -> None:
        records = _backend.implementation("records", _backend.BACKEND)
        out.values.append(normalize(records.decode(payload, verify_crc=verify, max_decompressed_size=cap)))

    differential(fn_decode, f"decode(verify_crc={verify}, cap={cap})")

    if flags & 8:
        arrow_target(payload, verify, cap)


def arrow_target(payload: bytes, verify: bool = False, cap: int = FUZZ_MAX_DECOMPRESSED) -> None:
    """``to_arrow`` on both backends gives equal tables (pyarrow is optional)."""
    try:
        import pyarrow
    except ImportError:
        return

    def fn(out: Outcome) -> None:
        records = _backend.implementation("records", _backend.BACKEND)
        table = records.to_arrow(payload, verify_crc=verify, max_decompressed_size=cap)
        out.values.append(str(table.schema))
        for column in table.columns:
            if pyarrow.types.is_timestamp(column.type):  # datetime objects overflow
                column = column.cast(pyarrow.int64())
            out.values.append(normalize(column.to_pylist()))

    differential(fn, f"to_arrow(verify_crc={verify})")


_V2_HEADER = struct.Struct(">qiibIhiqqqhii")


def v2_batch(
    records_section: bytes,
    *,
    attributes: int,
    count: int,
    base_offset: int = 0,
    last_offset_delta: int = 0,
    base_timestamp: int = 0,
    max_timestamp: int = 0,
    producer_id: int = -1,
    producer_epoch: int = -1,
    base_sequence: int = -1,
    partition_leader_epoch: int = 0,
) -> bytes:
    """A batch v2 with the given header fields around ``records_section`` (CRC correct)."""
    from kafkawire._pure.crc import crc32c

    length = 49 + len(records_section)
    head = bytearray(
        _V2_HEADER.pack(
            base_offset,
            length,
            partition_leader_epoch,
            2,
            0,
            attributes,
            last_offset_delta,
            base_timestamp,
            max_timestamp,
            producer_id,
            producer_epoch,
            base_sequence,
            count,
        )
    )
    body = bytes(head[21:]) + records_section
    struct.pack_into(">I", head, 17, crc32c(body))
    return bytes(head) + records_section


def legacy_message(
    value: bytes, *, magic: int, attributes: int, offset: int = 0, key: bytes = None, timestamp: int = 0
) -> bytes:
    """A legacy message (magic 0/1) with a correct CRC."""
    body = bytearray([magic, attributes])
    if magic == 1:
        body += struct.pack(">q", timestamp)
    for part in (key, value):
        if part is None:
            body += struct.pack(">i", -1)
        else:
            body += struct.pack(">i", len(part)) + part
    crc = zlib.crc32(bytes(body)) & 0xFFFFFFFF
    msg = struct.pack(">I", crc) + bytes(body)
    return struct.pack(">qi", offset, len(msg)) + msg


def compression_target(data: bytes) -> None:
    """Byte 0: codec and container; the rest: a compressed payload, decompressed alone
    (``compression.decompress``) and as the records of a batch v2 / legacy wrapper."""
    from kafkawire.protocol import compression

    if len(data) < 2:
        return
    sel = data[0]
    codec = sel % 5
    magic = (sel >> 3) % 3
    count = data[1]
    payload = data[2:]
    cap = 1 << 10 if sel & 0x80 else FUZZ_MAX_DECOMPRESSED

    only_kafkawire_errors(
        lambda: compression.decompress(codec, payload, max_size=cap, magic=magic),
        f"decompress(codec={codec}, magic={magic})",
    )
    if magic == 2:
        buf = v2_batch(
            payload,
            attributes=codec | (sel & 0x40 and 0x08),
            count=count,
            last_offset_delta=max(count - 1, 0),
        )
    else:
        buf = legacy_message(payload, magic=magic, attributes=codec, offset=count)
    records_target(bytes([0x01 | (0x04 if sel & 0x80 else 0)]) + buf)


# ---------------------------------------------------------------------------
# internal topics


def _internal_classes():
    from kafkawire.protocol import messages

    return sorted((n, c) for n, c in messages.CLASSES.items() if c.kind in ("data", "metadata"))


_INTERNAL_TOPICS = ("__consumer_offsets", "__transaction_state", "__share_group_state")


def internal_target(data: bytes) -> None:
    """A stored record of an internal topic.  Byte 0 chooses what: a coordinator-topic
    record (``__consumer_offsets``, ``__transaction_state``, ``__share_group_state``; the
    rest split into key and value at byte 1), a ``__cluster_metadata`` record value, a
    KRaft control record, or any data/metadata definition decoded after an int16 version.
    """
    if len(data) < 2:
        return
    mode = data[0] % 6
    payload = data[2:]
    cut = min(data[1], len(payload))
    key, value = payload[:cut], payload[cut:]
    internal_topics = _internal_module()
    if internal_topics is None:
        mode = 5
    if mode < 3:
        topic = _INTERNAL_TOPICS[mode]
        tomb = data[0] & 0x80

        def fn(out: Outcome) -> None:
            rec = internal_topics.decode_record(topic, key, None if tomb else value)
            out.values.append(normalize(tuple(rec)))

        differential(fn, f"decode_record({topic})")
    elif mode == 3:

        def fn(out: Outcome) -> None:
            out.values.append(normalize(tuple(internal_topics.decode_metadata_record(payload))))

        differential(fn, "decode_metadata_record")
    elif mode == 4:

        def fn(out: Outcome) -> None:
            out.values.append(normalize(tuple(internal_topics.decode_control_record(key, value))))

        differential(fn, "decode_control_record")
    else:
        classes = _internal_classes()
        name, cls = classes[data[1] % len(classes)]

        def fn(out: Outcome) -> None:
            if len(payload) < 2:
                from kafkawire.errors import TruncatedError

                raise TruncatedError("no version")
            version = struct.unpack_from(">h", payload)[0]
            codec = _backend.implementation("codec", _backend.BACKEND)
            msg = codec.decode(cls.plan(version), memoryview(payload)[2:])
            out.values.append(normalize(msg))

        differential(fn, f"{name} (version-prefixed)")


def _internal_module():
    try:
        from kafkawire.protocol import internal_topics
    except ImportError:
        return None
    return internal_topics


# ---------------------------------------------------------------------------
# segments

_TMPDIR = "/dev/shm" if os.path.isdir("/dev/shm") and os.access("/dev/shm", os.W_OK) else None


def segment_target(data: bytes) -> None:
    """A ``.log`` segment (and the same bytes as index files) read by ``segments`` and
    ``dump-log``; byte 0 chooses the chunk size."""
    from kafkawire.cli import dump_log as dumplog
    from kafkawire.log import indexes, scan, segments

    if not data:
        return
    chunk = 61 + data[0] * 4
    payload = data[1:]
    with tempfile.TemporaryDirectory(dir=_TMPDIR) as d:
        path = os.path.join(d, segments.segment_name(0))
        with open(path, "wb") as f:
            f.write(payload)

        only_kafkawire_errors(lambda: list(scan.scan_headers(path)), "scan_headers")
        only_kafkawire_errors(
            lambda: [(p, bytes(v), h) for p, v, h in scan.iter_chunks(path, chunk_size=chunk)],
            "iter_chunks",
        )
        only_kafkawire_errors(
            lambda: indexes.split_segment(segments.Segment(path, 0, len(payload)), chunk), "split_segment"
        )
        for reader in (indexes.read_offset_index, indexes.read_time_index):
            only_kafkawire_errors(lambda: reader(path, 0), reader.__name__)
        only_kafkawire_errors(lambda: indexes.read_txn_index(path), "read_txn_index")

        def fn(out: Outcome) -> None:
            for line in dumplog.dump_segment(path, data=True):
                out.values.append(normalize(line))

        differential(fn, "dump_segment")


# ---------------------------------------------------------------------------

# ---------------------------------------------------------------------------
# Avro values (kafkawire.avro)

_AVRO_EVERYTHING = {
    "type": "record",
    "name": "Everything",
    "fields": [
        {"name": "n", "type": "null"},
        {"name": "b", "type": "boolean"},
        {"name": "i", "type": "int"},
        {"name": "l", "type": "long"},
        {"name": "f", "type": "float"},
        {"name": "d", "type": "double"},
        {"name": "by", "type": "bytes"},
        {"name": "s", "type": "string"},
        {"name": "fx", "type": {"type": "fixed", "name": "Fx", "size": 4}},
        {"name": "e", "type": {"type": "enum", "name": "E", "symbols": ["A", "B", "C"]}},
        {"name": "date", "type": {"type": "int", "logicalType": "date"}},
        {"name": "tm", "type": {"type": "int", "logicalType": "time-millis"}},
        {"name": "tu", "type": {"type": "long", "logicalType": "time-micros"}},
        {"name": "ts", "type": {"type": "long", "logicalType": "timestamp-millis"}},
        {"name": "dec", "type": {"type": "bytes", "logicalType": "decimal", "precision": 20, "scale": 2}},
        {
            "name": "decf",
            "type": {"type": "fixed", "name": "Df", "size": 8, "logicalType": "decimal", "precision": 18},
        },
        {"name": "dur", "type": {"type": "fixed", "name": "Dur", "size": 12, "logicalType": "duration"}},
        {"name": "u", "type": {"type": "string", "logicalType": "uuid"}},
    ],
}
_AVRO_CONTAINERS = {
    "type": "record",
    "name": "Containers",
    "fields": [
        {"name": "opt", "type": ["null", "long"]},
        {"name": "multi", "type": ["null", "int", "string", {"type": "array", "items": "long"}]},
        {"name": "nested", "type": {"type": "array", "items": {"type": "map", "values": ["null", "double"]}}},
        {"name": "nulls", "type": {"type": "array", "items": "null"}},
        {
            "name": "inner",
            "type": ["null", {"type": "record", "name": "In", "fields": [{"name": "x", "type": "int"}]}],
        },
    ],
}
_AVRO_V2 = {
    "type": "record",
    "name": "Containers",
    "fields": [
        {"name": "opt", "type": ["null", "double"]},
        {"name": "multi", "type": ["null", "long", "bytes"], "default": None},
        {"name": "added", "type": "string", "default": "x"},
    ],
}
#: (writer, reader) pairs the first byte of an ``avro`` input chooses
AVRO_CASES = [(_AVRO_EVERYTHING, None), (_AVRO_CONTAINERS, None), (_AVRO_CONTAINERS, _AVRO_V2)]


def _avro_decoder(case: int) -> Any:
    from kafkawire.avro.decode import decoder

    found = _avro_decoders.get(case)
    if found is None:
        found = _avro_decoders[case] = decoder(*AVRO_CASES[case])
    return found


_avro_decoders: Dict[int, Any] = {}


def avro_target(data: bytes) -> None:
    """One Avro value (after byte 0, which chooses the schemas) decoded to Arrow; both
    backends give the same Arrow bytes or the same error (pyarrow is optional)."""
    try:
        import pyarrow
    except ImportError:
        return
    if not data:
        return
    case = data[0] % len(AVRO_CASES)
    payload = data[1:]

    def fn(out: Outcome) -> None:
        column = _avro_decoder(case).decode([payload])
        out.values.append(pyarrow.RecordBatch.from_struct_array(column).serialize().to_pybytes())

    differential(fn, f"avro case {case}")


TARGETS: Dict[str, Callable[[bytes], None]] = {
    "primitives": primitives_target,
    "message": message_target,
    "request": request_target,
    "response": response_target,
    "header": header_target,
    "frames": frames_target,
    "records": records_target,
    "compression": compression_target,
    "internal": internal_target,
    "segment": segment_target,
    "avro": avro_target,
}
