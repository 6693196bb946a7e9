"""Request/response headers: versions derived from the schema and the quirks peers miss."""

from __future__ import annotations

import pytest

import kafkawire
from kafkawire.protocol import headers, messages as m
from kafkawire.errors import DecodeError, TruncatedError, UnknownApiError, UnsupportedVersionError
from kafkawire.protocol.headers import flexible_versions

pytestmark = pytest.mark.in_process


def test_request_header_version_follows_flexible_versions():
    assert headers.request_header_version(3, 8) == 1
    assert headers.request_header_version(3, 9) == 2  # Metadata flexible from v9
    assert headers.request_header_version(0, 8) == 1
    assert headers.request_header_version(0, 9) == 2  # Produce flexible from v9
    assert headers.request_header_version(18, 2) == 1
    assert headers.request_header_version(18, 3) == 2
    for key in m.api_keys():
        fv = flexible_versions(key, "request")
        for v in range(
            m.request_class(key).valid_versions.lowest, m.request_class(key).valid_versions.highest + 1
        ):
            expected = 2 if v in fv else 1
            assert headers.request_header_version(key, v) == expected


def test_response_header_version_and_the_api_versions_quirk():
    assert headers.response_header_version(3, 9) == 1
    assert headers.response_header_version(3, 8) == 0
    for v in range(0, 5):
        assert headers.response_header_version(18, v) == 0  # KIP-511: always v0
    with pytest.raises(UnknownApiError):
        headers.response_header_version(999, 0)
    with pytest.raises(UnknownApiError):
        headers.request_header_version(999, 0)


def test_client_id_stays_int16_length_in_v2(backend):
    h = m.RequestHeader(request_api_key=18, request_api_version=3, correlation_id=7, client_id="c1")
    assert h.encode(2) == bytes.fromhex("00120003000000070002633100")
    assert h.encode(1) == bytes.fromhex("001200030000000700026331")
    null = m.RequestHeader(request_api_key=18, request_api_version=3, correlation_id=7, client_id=None)
    assert null.encode(2) == bytes.fromhex("0012000300000007ffff00")
    got, end = headers.decode_request_header(h.encode(2) + b"body")
    assert got == h and end == 13


def test_retired_apis_and_header_v0_have_no_versions(backend):
    # Kafka 4 retired ControlledShutdown (the only user of request header v0) and the
    # other ZooKeeper-era inter-broker APIs: their definitions keep the key, no version.
    assert m.RequestHeader.valid_versions.lowest == 1
    with pytest.raises(UnsupportedVersionError):
        m.RequestHeader().encode(0)
    for cls in (
        m.ControlledShutdownRequest,
        m.LeaderAndIsrRequest,
        m.StopReplicaRequest,
        m.UpdateMetadataRequest,
    ):
        assert cls.valid_versions.empty
        with pytest.raises(UnsupportedVersionError):
            kafkawire.encode_request(cls(), 0, 5)
    frame = bytes.fromhex("00070000000000050000")  # ControlledShutdown v0, header v1
    with pytest.raises(UnsupportedVersionError):
        kafkawire.decode_request(frame)


def test_response_headers(backend):
    r = m.ResponseHeader(correlation_id=9)
    assert r.encode(0) == b"\x00\x00\x00\x09"
    assert r.encode(1) == b"\x00\x00\x00\x09\x00"
    frame = kafkawire.encode_response(m.MetadataResponse(), 12, 9)
    assert frame[4:9] == b"\x00\x00\x00\x09\x00"
    frame = kafkawire.encode_response(m.ApiVersionsResponse(), 3, 9)
    assert frame[4:8] == b"\x00\x00\x00\x09" and frame[8:10] == b"\x00\x00"  # no tag byte
    header, msg = kafkawire.decode_response(frame[4:], 18, 3)
    assert header.correlation_id == 9 and msg == m.ApiVersionsResponse()


def test_response_header_tagged_fields_are_preserved(backend):
    wire = b"\x00\x00\x00\x09\x01\x05\x02hi"
    h, end = headers.decode_response_header(wire, 1)
    assert h._unknown_tagged == ((5, b"hi"),) and end == len(wire)
    assert h.encode(1) == wire


def test_api_versions_fallback_to_v0_kip_511(backend):
    """A broker that does not know the requested ApiVersions version answers with a v0
    body (UNSUPPORTED_VERSION and its own range); it decodes whatever was requested."""
    v0 = m.ApiVersionsResponse(
        error_code=35, api_keys=[m.ApiVersionsResponse.ApiVersion(api_key=18, min_version=0, max_version=2)]
    )
    payload = b"\x00\x00\x00\x07" + v0.encode(0)
    for requested in range(0, 5):
        header, msg = kafkawire.decode_response(payload, 18, requested)
        assert header.correlation_id == 7
        assert msg.error_code == 35
        assert [(k.api_key, k.min_version, k.max_version) for k in msg.api_keys] == [(18, 0, 2)]
    # Other APIs get no such second chance.
    with pytest.raises(DecodeError):
        kafkawire.decode_response(b"\x00\x00\x00\x07\x00", 3, 12)


def test_decode_request_rejects_unknown_api_and_version(backend):
    with pytest.raises(UnknownApiError):
        kafkawire.decode_request(b"\x03\xe7\x00\x00\x00\x00\x00\x01\x00\x00")
    with pytest.raises(UnsupportedVersionError):
        kafkawire.decode_request(b"\x00\x03\x00\x63\x00\x00\x00\x01\x00\x00")
    with pytest.raises(TruncatedError):
        kafkawire.decode_request(b"\x00\x03")
    with pytest.raises(DecodeError):
        kafkawire.decode_request(kafkawire.encode_request(m.MetadataRequest(), 12, 1)[4:] + b"x")


def test_requests_and_responses_round_trip_through_frames(backend):
    for key in m.api_keys():
        req, resp = m.request_class(key), m.response_class(key)
        if req.valid_versions.empty:  # an API Kafka 4 retired
            continue
        for v in (req.valid_versions.lowest, req.valid_versions.highest):
            frame = kafkawire.encode_request(req(), v, 123, "cid")
            header, got = kafkawire.decode_request(frame[4:])
            assert got == req() and header.request_api_key == key and header.request_api_version == v
            assert header.correlation_id == 123
            frame = kafkawire.encode_response(resp(), v, 321)
            header, got = kafkawire.decode_response(frame[4:], key, v)
            assert got == resp() and header.correlation_id == 321
