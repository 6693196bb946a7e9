"""Golden vectors: the worked examples of the seed documents, byte for byte.

Each ``tests/vectors/messages/*.bin`` has a ``.json`` sidecar saying where it came from.
"""

from __future__ import annotations

import json
import pathlib
import struct
import zlib

import pytest

import kafkawire
from kafkawire.protocol import messages as m
from kafkawire.errors import DecodeError, UnsupportedVersionError
from kafkawire.protocol.headers import decode_request_header

pytestmark = pytest.mark.in_process

VECTORS = pathlib.Path(__file__).parents[1] / "vectors" / "messages"


def _vector(name):
    meta = json.loads((VECTORS / f"{name}.json").read_text())
    assert meta["source"] and meta["what"]
    return (VECTORS / f"{name}.bin").read_bytes(), meta


def test_every_vector_has_a_sidecar():
    bins = sorted(p.stem for p in VECTORS.glob("*.bin"))
    assert bins and bins == sorted(p.stem for p in VECTORS.glob("*.json"))


def test_produce_v0_request_frame_is_refused_as_kafka_4_refuses_it(backend):
    frame, meta = _vector("produce_v0_request")
    assert len(frame) == 4 + 78 and struct.unpack(">i", frame[:4])[0] == 78
    message_set = frame[-37:]
    # The legacy message inside: CRC32 (IEEE) over magic..end is 0x73ACF77C.
    assert message_set[12:16] == bytes.fromhex("73ACF77C")
    assert zlib.crc32(message_set[16:]) == 0x73ACF77C
    # Kafka 4 removed Produce v0-v2 (KIP-896): the header reads, the body version does not.
    header, _ = decode_request_header(frame[4:])
    assert (header.request_api_key, header.request_api_version, header.correlation_id, header.client_id) == (
        0,
        0,
        1,
        "foo",
    )
    with pytest.raises(UnsupportedVersionError):
        kafkawire.decode_request(frame[4:])


def test_metadata_v0_request_seed_uses_a_null_that_v0_does_not_allow(backend):
    frame, meta = _vector("metadata_v0_request")
    # Topics became nullable in v1: Kafka rejects a null array at v0, and so do we.
    with pytest.raises(DecodeError):
        kafkawire.decode_request(frame[4:])
    # The very same bytes with the version field set to 1 mean "all topics".
    v1 = bytearray(frame[4:])
    v1[2:4] = b"\x00\x01"
    header, got = kafkawire.decode_request(bytes(v1))
    assert got.topics is None and header.client_id == "test"
    assert kafkawire.encode_request(m.MetadataRequest(topics=None), 1, 1, "test")[4:] == bytes(v1)
    # At v0, "all topics" is the empty array: the seed's frame with 00000000.
    assert (
        kafkawire.encode_request(m.MetadataRequest(topics=[]), 0, 1, "test")
        == frame[:-4] + b"\x00\x00\x00\x00"
    )


def test_metadata_v0_response_byte_for_byte(backend):
    frame, meta = _vector("metadata_v0_response")
    header, got = kafkawire.decode_response(frame[4:], 3, 0)
    assert header.correlation_id == 1
    assert got == m.MetadataResponse(brokers=[], topics=[])
    assert kafkawire.encode_response(got, 0, 1) == frame


def test_api_versions_v3_request_layout(backend):
    """The seed's worked example: ApiVersionsRequest v3, correlation id 7, client id "c1"."""
    msg = m.ApiVersionsRequest(client_software_name="apache-kafka-java", client_software_version="3.9.0")
    frame = kafkawire.encode_request(msg, 3, correlation_id=7, client_id="c1")
    assert struct.unpack_from(">ihhi", frame, 0) == (len(frame) - 4, 18, 3, 7)
    assert frame[12:14] == b"\x00\x02"  # ClientId: int16 length, not compact
    assert frame[14:16] == b"c1"
    assert frame[16] == 0  # header v2 tagged fields
    assert frame[17] == 18  # compact length of the 17-byte name
    assert frame[18:35] == b"apache-kafka-java"
    assert frame[35] == len("3.9.0") + 1 and frame[36:41] == b"3.9.0"
    assert frame[41:] == b"\x00"  # body tagged fields
    header, got = kafkawire.decode_request(frame[4:])
    assert got == msg and header.client_id == "c1"
