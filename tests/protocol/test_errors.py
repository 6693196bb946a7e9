"""kafkawire.errors: the exception hierarchy and Kafka's error-code table."""

import copy
import importlib.util
import pickle
from pathlib import Path

import pytest

from kafkawire import errors
from kafkawire.protocol.schema import load_json
from kafkawire.protocol.schema.versions import VersionRange

pytestmark = pytest.mark.in_process


def test_known_codes():
    e = errors.for_code(6)
    assert e.name == "NOT_LEADER_OR_FOLLOWER" and e.retriable
    assert errors.for_code(0).name == "NONE" and not errors.for_code(0)
    assert errors.for_code(35).name == "UNSUPPORTED_VERSION"
    assert errors.for_name("UNKNOWN_TOPIC_OR_PARTITION").code == 3


def test_unknown_code_maps_to_unknown_server_error():
    # a code the table lacks is taken for UNKNOWN_SERVER_ERROR, as Kafka's clients do,
    # and keeps its number
    for code in (31999, 9999, -2):
        unknown = errors.for_code(code)
        assert (unknown.code, unknown.name, unknown.exception) == (
            code,
            "UNKNOWN_SERVER_ERROR",
            "UnknownServerException",
        )
        assert unknown != errors.UNKNOWN_SERVER_ERROR and f"code={code}" in repr(unknown)


def test_table_holds_every_entry_of_the_data_file():
    data = load_json("errors.json")["errors"]
    assert len(errors.ERROR_CODES) == len(data)
    for entry in data:
        e = errors.for_code(entry["code"])
        assert (e.name, e.retriable, e.exception) == (entry["name"], entry["retriable"], entry["exception"])


def test_table_is_kafka_4_4s():
    # The whole table is checked against Kafka's own Errors enum by
    # tests/protocol/test_schema_kafka.py; these are the codes Kafka 4.4 added last.
    assert errors.for_code(135).name == "STREAMS_TOPOLOGY_DESCRIPTION_UPDATE_FAILED"
    assert errors.for_code(136).name == "CONTROLLER_ID_NOT_REGISTERED"
    assert max(errors.ERROR_CODES) == 136 and min(errors.ERROR_CODES) == -1
    assert errors.for_name("REBOOTSTRAP_REQUIRED").code == 129


def test_names_and_retriability_agree_with_kio():
    """kio's error table, generated from Kafka's own, is a second opinion on every code
    both know; kio 0.6.5 stops at 133, before Kafka 4.4's newest codes."""
    kio_errors = pytest.importorskip("kio.schema.errors", reason="kio (a peer) is not installed")
    theirs_by_code = {e.value: e for e in kio_errors.ErrorCode}
    assert sorted(set(errors.ERROR_CODES) - set(theirs_by_code)) == [134, 135, 136]
    for code, e in errors.ERROR_CODES.items():
        theirs = theirs_by_code.get(code)
        if theirs is not None:
            assert (theirs.name.upper(), theirs.retriable) == (e.name, e.retriable), code


def test_hierarchy():
    # bad bytes and bad values are ValueErrors
    for cls in (
        errors.DecodeError,
        errors.EncodeError,
        errors.SaslError,
        errors.ClusterError,
        errors.StorageError,
    ):
        assert issubclass(cls, errors.KafkaWireError) and issubclass(cls, ValueError), cls
    for cls in (
        errors.TruncatedError,
        errors.InvalidVarintError,
        errors.InvalidFrame,
        errors.FrameTooLarge,
        errors.CorruptRecordError,
        errors.DecompressionError,
        errors.DecompressionLimitError,
        errors.UnknownApiError,
        errors.UnsupportedVersionError,
    ):
        assert issubclass(cls, errors.DecodeError)
    assert issubclass(errors.UnsupportedVersionError, errors.EncodeError)


def test_a_connections_errors_say_whose_fault_they_are_and_are_not_value_errors():
    ours = (errors.ConnectionStateError, errors.InFlightLimitError, errors.AuthenticationRequiredError)
    gone = (errors.ConnectionClosedError, errors.TlsHandshakeError, errors.BrokenStreamError)
    timeouts = (errors.ConnectTimeoutError, errors.RequestTimedOutError)
    for cls in ours + gone[:2] + timeouts:  # BrokenStreamError: bytes that broke the stream, below
        assert issubclass(cls, errors.KafkaWireError) and not issubclass(cls, ValueError), cls
    for cls in ours:
        assert not issubclass(cls, (ConnectionError, errors.PeerProtocolError)), cls
    for cls in gone:
        assert issubclass(cls, ConnectionError) and not issubclass(cls, errors.ConnectionStateError), cls
    for cls in timeouts:
        assert issubclass(cls, TimeoutError), cls
    # the peer's fault: bytes it should not have sent, so also decode errors (ValueErrors)
    for cls in (errors.UnexpectedResponseError, errors.BrokenStreamError):
        assert issubclass(cls, errors.PeerProtocolError) and issubclass(cls, errors.DecodeError), cls


@pytest.mark.parametrize(
    "value, same, other",
    [
        (
            errors.for_name("NOT_LEADER_OR_FOLLOWER"),
            errors.KafkaError(6, "NOT_LEADER_OR_FOLLOWER", True, "NotLeaderOrFollowerException"),
            errors.NONE,
        ),
        (VersionRange(0, 4), VersionRange.parse("0-4"), VersionRange.parse("0+")),
    ],
)
def test_table_entries_and_version_ranges_are_immutable_values(value, same, other):
    assert value == same and hash(value) == hash(same) and value != other
    assert {value: 1}[same] == 1
    assert pickle.loads(pickle.dumps(value)) == value
    assert copy.deepcopy(value) == value
    assert repr(value).startswith(type(value).__name__ + "(")
    first = type(value).__slots__[0]
    with pytest.raises(AttributeError):
        setattr(value, first, 1)
    with pytest.raises(AttributeError):
        delattr(value, first)
    assert getattr(value, first) == getattr(same, first)


TOOL = Path(__file__).resolve().parents[2] / "tools" / "gen_error_codes.py"


@pytest.mark.backend_independent
def test_error_code_enum_is_regenerated_from_the_error_table(backend):
    spec = importlib.util.spec_from_file_location("gen_error_codes", TOOL)
    tool = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(tool)
    module = Path(errors.__file__).parent / "protocol" / "error_codes.py"
    assert module.read_text(encoding="utf-8") == tool.render(), (
        "kafkawire/protocol/error_codes.py is stale: run python tools/gen_error_codes.py"
    )


@pytest.mark.backend_independent
def test_error_code_enum_agrees_with_the_table(backend):
    from kafkawire.errors import ERROR_CODES, ErrorCode

    assert {c.value: c.name for c in ErrorCode} == {e.code: e.name for e in ERROR_CODES.values()}
    assert ErrorCode.UNSUPPORTED_VERSION == 35 and errors.ErrorCode is ErrorCode
