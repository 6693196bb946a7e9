"""kafkawire.errors: the exception hierarchy and Kafka's error-code table."""
import json
from pathlib import Path

import pytest

from kafkawire import errors

SHARED = Path(__file__).resolve().parents[2] / "shared" / "kafka-protocol" / "errors.json"


def test_known_codes():
    e = errors.for_code(6)
    assert e.name == "NOT_LEADER_OR_FOLLOWER" and e.retriable
    assert errors.for_code(0).name == "NONE" and not errors.for_code(0)
    assert errors.for_code(35).name == "UNSUPPORTED_VERSION"
    assert errors.for_name("UNKNOWN_TOPIC_OR_PARTITION").code == 3


def test_unknown_code_maps_to_unknown_server_error():
    assert errors.for_code(31999) is errors.UNKNOWN_SERVER_ERROR
    assert errors.for_code(-2).code == -1


def test_table_matches_the_protocol_data():
    path = SHARED if SHARED.exists() else None
    if path is None:
        pytest.skip("the shared protocol folder is not beside this checkout")
    data = json.loads(path.read_text())["errors"]
    assert len(errors.ERROR_CODES) == len(data)
    for entry in data:
        e = errors.for_code(entry["code"])
        assert (e.name, e.retriable, e.exception) == (entry["name"], entry["retriable"], entry["exception"])


def test_hierarchy():
    assert issubclass(errors.KafkaWireError, ValueError)
    for cls in (errors.TruncatedError, errors.InvalidVarintError, errors.InvalidFrame,
                errors.FrameTooLarge, errors.CorruptRecordError, errors.DecompressionError,
                errors.DecompressionLimitError, errors.UnknownApiError, errors.UnsupportedVersionError):
        assert issubclass(cls, errors.DecodeError)
    assert issubclass(errors.UnsupportedVersionError, errors.EncodeError)
