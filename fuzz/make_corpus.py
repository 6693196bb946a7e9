"""Write the seed corpus of every fuzz target into ``fuzz/corpus/<target>/``.

Seeds are the golden vectors of ``tests/vectors/`` (every ``*.bin``) and encodings made
with kafkawire itself: every message definition at every version (default values), a
request and a response frame of every API, headers, primitives, record batches of every
magic and compression, control batches, internal-topic records and small segments.  Each
seed starts with the selector bytes its target reads (see ``fuzz/targets.py``).

    python fuzz/make_corpus.py            # (re)write the seeds; keeps fuzzer-found files
    python fuzz/make_corpus.py --clean    # remove the corpus directories first

Seeds are named ``seed-<what>``; files atheris adds are named by their SHA-1, so the
two never collide.
"""

from __future__ import annotations

import argparse
import glob
import os
import shutil
import struct
import sys
import uuid

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(HERE)
sys.path.insert(0, ROOT)

from fuzz import targets as T  # noqa: E402

CORPUS = os.path.join(HERE, "corpus")


def _records():
    """(name, bytes) of record batches/message sets made with kafkawire."""
    from kafkawire.protocol import records

    recs = [
        {
            "key": b"k1",
            "value": b"v" * 40,
            "timestamp": 1_700_000_000_000,
            "headers": [("h", b"x"), ("\udcff", None)],
        },
        {"key": None, "value": b"second", "timestamp": 1_699_999_999_000},
        {"key": b"", "value": None, "timestamp": 1_700_000_000_500, "headers": []},
    ]
    plain = [{k: v for k, v in r.items() if k != "headers"} for r in recs]
    out = []
    for codec in ("none", "gzip", "snappy", "lz4", "zstd"):
        out.append(
            (
                f"v2-{codec}",
                records.encode_batch(
                    recs, compression=codec, base_offset=5, producer_id=7, producer_epoch=1, base_sequence=3
                ),
            )
        )
        for magic in (0, 1):
            if codec == "zstd":
                continue
            out.append(
                (
                    f"v{magic}-{codec}",
                    records.encode_batch(plain, magic=magic, compression=codec, base_offset=10),
                )
            )
    out.append(
        (
            "v2-log-append",
            records.encode_batch(
                recs, timestamp_type="log_append", is_transactional=True, producer_id=1, producer_epoch=0
            ),
        )
    )
    out.append(
        (
            "v2-control-commit",
            records.encode_control_batch(
                "commit", base_offset=9, producer_id=3, producer_epoch=2, timestamp=1
            ),
        )
    )
    out.append(("v2-empty", records.encode_batch([], base_offset=0)))
    mixed = records.encode_batch(plain, magic=1, base_offset=0) + records.encode_batch(
        recs, base_offset=3, compression="lz4"
    )
    out.append(("mixed-v1-v2", mixed))
    out.append(("mixed-partial", mixed + records.encode_batch(recs)[:30]))
    return out


def _vectors():
    """(name, bytes) of every golden vector file."""
    out = []
    for path in sorted(glob.glob(os.path.join(ROOT, "tests", "vectors", "**", "*.bin"), recursive=True)):
        rel = os.path.relpath(path, os.path.join(ROOT, "tests", "vectors"))
        with open(path, "rb") as f:
            data = f.read()
        if len(data) <= 64 * 1024:
            out.append(("vector-" + rel.replace(os.sep, "-"), data))
    return out


def _primitives():
    from kafkawire._pure import primitives as p

    samples = {
        "int8": p.encode_int8(-5),
        "int16": p.encode_int16(300),
        "uint16": p.encode_uint16(65535),
        "int32": p.encode_int32(-1),
        "uint32": p.encode_uint32(7),
        "int64": p.encode_int64(1 << 40),
        "float64": p.encode_float64(1.5),
        "bool": p.encode_bool(True),
        "uuid": p.encode_uuid(uuid.UUID(int=12345)),
        "unsigned_varint": p.encode_unsigned_varint(300),
        "varint": p.encode_varint(-300),
        "varlong": p.encode_varlong(-(1 << 40)),
        "array_length": p.encode_array_length(3),
        "compact_array_length": p.encode_compact_array_length(3),
        "bytes": p.encode_bytes(b"abc"),
        "nullable_bytes": p.encode_nullable_bytes(None),
        "compact_bytes": p.encode_compact_bytes(b"abc"),
        "compact_nullable_bytes": p.encode_compact_nullable_bytes(b"xyz"),
        "string": p.encode_string("héllo"),
        "nullable_string": p.encode_nullable_string(None),
        "compact_string": p.encode_compact_string("héllo"),
        "compact_nullable_string": p.encode_compact_nullable_string("x"),
    }
    out = []
    for i, name in enumerate(T.PRIMITIVE_DECODERS):
        out.append((name, bytes([i, 2]) + samples[name]))
    return out


def _messages():
    from kafkawire.protocol import messages

    out = []
    pairs = T.message_pairs()
    for i, (name, version) in enumerate(pairs):
        cls = messages.CLASSES[name]
        try:
            wire = cls().encode(version)
        except Exception:  # a default a version cannot write: skip the seed
            continue
        out.append((f"{name}-v{version}", i.to_bytes(2, "big") + wire))
    return out


def _frames():
    """(requests, responses): frames of every API at its lowest and highest version."""
    from kafkawire.protocol import messages, requests as protocol

    reqs, resps = [], []
    for key in messages.api_keys():
        req_cls, resp_cls = messages.request_class(key), messages.response_class(key)
        for version in sorted({req_cls.valid_versions.lowest, req_cls.valid_versions.highest}):
            try:
                frame = protocol.encode_request(req_cls(), version, 7, "fuzz")
                reqs.append((f"{req_cls.__name__}-v{version}", frame[4:]))
            except Exception:
                pass
            try:
                frame = protocol.encode_response(resp_cls(), version, 7)
                resps.append((f"{resp_cls.__name__}-v{version}", bytes([key, version]) + frame[4:]))
            except Exception:
                pass
    return reqs, resps


def _internal():
    out = []
    classes = T._internal_classes()
    for i, (name, cls) in enumerate(classes):  # mode 5: any definition, int16 version
        vr = cls.valid_versions
        for version in sorted({vr.lowest, vr.highest}):
            try:
                wire = cls().encode(version)
            except Exception:
                continue
            out.append((f"{name}-v{version}", bytes([5, i % 256]) + struct.pack(">h", version) + wire))
    try:
        from kafkawire.protocol import internal_topics
    except ImportError:
        return out
    for mode, topic in enumerate(T._INTERNAL_TOPICS):
        for record_type, (key_cls, value_cls) in sorted(internal_topics._KEYS[topic].items()):
            try:
                key = internal_topics.encode_key(topic, key_cls(), record_type)
            except Exception:
                continue
            vr = value_cls.valid_versions
            for version in sorted({vr.lowest, vr.highest}):
                try:
                    value = internal_topics.encode_value(value_cls(), version)
                except Exception:
                    continue
                if len(key) < 256:
                    out.append((f"{topic}-{record_type}-v{version}", bytes([mode, len(key)]) + key + value))
    from kafkawire.protocol import messages

    for name, cls in sorted(messages.CLASSES.items()):
        if cls.kind != "metadata":
            continue
        version = cls.valid_versions.highest
        try:
            out.append(
                (
                    f"metadata-{name}-v{version}",
                    bytes([3, 0]) + internal_topics.encode_metadata_record(cls(), version),
                )
            )
        except Exception:
            continue
    for ctype, name in sorted(internal_topics.CONTROL_TYPES.items()):
        if name is None:
            out.append((f"control-{ctype}", bytes([4, 4]) + struct.pack(">hh", 0, ctype) + b"\0\0\0\0\0\0"))
            continue
        try:
            key, value = internal_topics.encode_control_record(messages.CLASSES[name](), 0)
        except Exception:
            continue
        out.append((f"control-{name}", bytes([4, len(key)]) + key + value))
    return out


def _segments(batches):
    from kafkawire.log.write import set_base_offset

    out = []
    log = bytearray()
    offset = 0
    for _name, b in batches:
        if b[16] == 2:
            entry = bytearray(b)
            set_base_offset(entry, offset)
            log += entry
            offset += 10
    out.append(("log-v2", bytes([4]) + bytes(log)))
    out.append(("log-mixed", bytes([0]) + dict(batches)["mixed-v1-v2"]))
    out.append(("log-truncated", bytes([1]) + bytes(log[:-7])))
    return out


def _avro():
    """(name, bytes) of Avro values of each case's writer schema, made with kafkawire's
    encoder of JSON values (the case's index first)."""
    from kafkawire.avro.encode import encode_json
    from kafkawire.avro.schema import parse

    values = [
        {
            "n": None,
            "b": True,
            "i": -7,
            "l": 2**40,
            "f": 1.5,
            "d": -0.25,
            "by": "\u0000\u00ff",
            "s": "h\u00e9",
            "fx": "abcd",
            "e": "C",
            "date": 19000,
            "tm": 3_600_000,
            "tu": 7_200_000_001,
            "ts": 1_700_000_000_000,
            "dec": "\u0001\u0000",
            "decf": "\u0000" * 7 + "\u0001",
            "dur": "\u0001" + "\u0000" * 11,
            "u": "0f8fad5b-d9cb-469f-a165-70867728950e",
        },
        {"opt": None, "multi": None, "nested": [{"a": None}], "nulls": [None, None], "inner": None},
    ]
    out = []
    for case, (writer, _reader) in enumerate(T.AVRO_CASES):
        body = encode_json(parse(writer), values[min(case, 1)])
        out.append((f"avro-case{case}", bytes([case]) + body))
    # the multi branch 3 (an array) and a present inner record
    tail = bytes([2, 10, 6, 4, 2, 4, 0, 0, 0, 2, 8])  # opt 5, multi [1, 2], nested [], nulls [], inner {x: 4}
    out.append(("avro-case1-union-array", b"\x01" + tail))
    return out


def seeds():
    """{target: [(name, bytes)]}: every seed of every target."""
    batches = _records() + [(n, d) for n, d in _vectors()]
    reqs, resps = _frames()
    out = {
        "primitives": _primitives(),
        "message": _messages(),
        "request": reqs,
        "response": resps,
        "header": [(n, bytes([0, 0]) + d) for n, d in reqs[::4]]
        + [(n, bytes([1, 0]) + d[2:]) for n, d in resps[::8]],
        "frames": [
            (
                "frames-" + reqs[i][0],
                bytes([0xFF, 5]) + b"".join(struct.pack(">i", len(d)) + d for _n, d in reqs[i : i + 3]),
            )
            for i in range(0, len(reqs), 12)
        ],
        "records": [(f"{n}-flags{f:02x}", bytes([f]) + d) for n, d in batches for f in (0x01, 0x0A)],
        "compression": [],
        "internal": _internal(),
        "segment": _segments(batches),
        "avro": _avro(),
    }
    # compression: the compressed payload of every compressed batch, with its codec
    for n, d in _records():
        magic = d[16]
        attrs = struct.unpack_from(">h", d, 21)[0] if magic == 2 else d[21]
        codec = attrs & 7
        if not codec:
            continue
        if magic == 2:
            count = struct.unpack_from(">i", d, 57)[0]
            out["compression"].append((n, bytes([codec | (2 << 3), count]) + d[61:]))
        else:
            value_at = 22 + (8 if magic == 1 else 0) + 4  # key is null (-1)
            (vlen,) = struct.unpack_from(">i", d, value_at)
            out["compression"].append(
                (n, bytes([codec | (magic << 3), 0]) + d[value_at + 4 : value_at + 4 + vlen])
            )
    return out


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--clean", action="store_true", help="remove the corpus first")
    args = ap.parse_args(argv)
    if args.clean and os.path.isdir(CORPUS):
        shutil.rmtree(CORPUS)
    total = 0
    for target, items in seeds().items():
        d = os.path.join(CORPUS, target)
        os.makedirs(d, exist_ok=True)
        for old in glob.glob(os.path.join(d, "seed-*")):
            os.remove(old)
        for name, data in items:
            safe = "".join(c if c.isalnum() or c in "-_." else "_" for c in name)
            with open(os.path.join(d, f"seed-{safe}"), "wb") as f:
                f.write(data)
            total += len(data)
        print(f"{target}: {len(items)} seeds")
    print(f"{total} bytes of seeds")
    return 0


if __name__ == "__main__":
    sys.exit(main())
