"""Independent oracles: kafka-python 3.0.12 (generated from Kafka 4.3 definitions) and
kio 0.6.5 (a Rust-backed codec generated from Kafka's definitions).  Both predate Kafka
4.4: they are compared at the versions they share with it, and kio on the error codes
its enum knows (up to 133; Kafka 4.4 defines up to 136).

For every API and version both kafkawire and a peer support, on generated messages:
the peer decodes kafkawire's bytes to the same values (compared field by field in
schema order), writes them back byte for byte, and kafkawire decodes the peer's bytes
to the original message.  Cases where a peer is wrong are listed in ``PEER_BUGS`` with
the reason, and checked to still be wrong (so a fixed peer is noticed).
"""

from __future__ import annotations

import dataclasses
import datetime
import enum
import importlib
import io
import pkgutil
import uuid

import pytest
from hypothesis import HealthCheck, Phase, given, settings
from hypothesis import strategies as st

from kafkawire.protocol import messages
from kafkawire.protocol.schema.plan import ARRAY, STRUCT

from support.message_strategies import message_strategy

pytestmark = [pytest.mark.clients, pytest.mark.in_process]

# (peer, message, version) -> why the peer reads it differently.  These versions are left
# out of the generated comparisons; the explicit tests at the end check that each peer
# still differs there (so a fixed peer, or a definition that changed, is noticed).
# (Kafka 4.4's ReadShareGroupStateSummaryResponse v0 has the PartitionResult.LeaderEpoch
# kio 0.6.5 reads: the one difference the older definitions had is gone.)
KNOWN_DIFFERENCES: dict = {}

# -- kafka-python ------------------------------------------------------------------------


def _kafka_python_classes():
    import kafka.protocol as kp
    from kafka.protocol.api_message import ApiMessage

    for mod in pkgutil.walk_packages(kp.__path__, "kafka.protocol."):
        try:
            importlib.import_module(mod.name)
        except Exception:  # optional submodules
            pass

    def subs(c):
        for s in c.__subclasses__():
            yield s
            yield from subs(s)

    return {
        c.__name__: c
        for c in subs(ApiMessage)
        if getattr(c, "_class_version", None) is None and getattr(c, "_json", None)
    }


def _parse_range(spec):
    if spec.endswith("+"):
        return int(spec[:-1]), 10**4
    if "-" in spec:
        a, b = spec.split("-")
        return int(a), int(b)
    return int(spec), int(spec)


KP = _kafka_python_classes()
KP_PAIRS = []
for _name, _peer in sorted(KP.items()):
    _ours = messages.CLASSES.get(_name)
    if _ours is None:
        continue
    lo, hi = _parse_range(_peer._json["validVersions"])
    versions = [
        v
        for v in range(max(lo, _ours.valid_versions.lowest), min(hi, _ours.valid_versions.highest) + 1)
        if ("kafka-python", _name, v) not in KNOWN_DIFFERENCES
    ]
    if versions:
        KP_PAIRS.append((_name, tuple(versions)))

# -- kio ---------------------------------------------------------------------------------


def _kio_pairs():
    from kio.schema.index import api_key_map, schema_name_map
    from kio.static.constants import EntityType

    out = []
    for api_key, name in sorted(api_key_map.items()):
        for kind, et in (("request", EntityType.request), ("response", EntityType.response)):
            try:
                ours = (messages.request_class if kind == "request" else messages.response_class)(api_key)
            except Exception:
                continue
            versions = tuple(
                v
                for v in sorted(schema_name_map[name])
                if v in ours.valid_versions
                and et in schema_name_map[name][v]
                and ("kio", ours.__name__, v) not in KNOWN_DIFFERENCES
            )
            if versions:
                out.append((ours.__name__, api_key, kind, versions))
    return out


KIO_PAIRS = _kio_pairs()


# -- value normalisation ------------------------------------------------------------------


def _norm(v):
    if v is None or isinstance(v, (bool, str, float)):
        return v
    if isinstance(v, enum.Enum):
        return v.value
    if isinstance(v, int):
        return int(v)
    if isinstance(v, datetime.timedelta):
        return round(v.total_seconds() * 1000)
    if isinstance(v, datetime.datetime):
        return round(v.timestamp() * 1000)
    if isinstance(v, (bytes, bytearray, memoryview)):
        return bytes(v)
    if isinstance(v, uuid.UUID):
        return v if v.int else None  # peers hold the zero UUID as None
    if isinstance(v, (list, tuple)):
        return [_norm(x) for x in v]
    return v


def ours_values(obj, version, absent_tagged_struct_none=False):
    """Our struct as nested lists of the values the version has, in schema order
    (kafka-python holds a tagged struct that was not on the wire as None)."""
    out = []
    for f in obj._spec.fields:
        if version not in f.versions:
            continue
        v = getattr(obj, f.attr)
        if (
            absent_tagged_struct_none
            and f.kind == STRUCT
            and version in f.tagged_versions
            and v == f.struct.default_instance()
        ):
            v = None
        if v is not None and f.kind == STRUCT:
            v = ours_values(v, version, absent_tagged_struct_none)
        elif v is not None and f.kind == ARRAY and f.elem_kind == STRUCT:
            v = [ours_values(x, version, absent_tagged_struct_none) for x in v]
        else:
            v = _norm(v)
        out.append(v)
    return out


def kp_values(obj, version):
    out = []
    for f in obj._struct._fields:
        if not f.for_version_q(version):
            continue
        v = getattr(obj, f.name)
        if f._type_str == "bitfield":  # kafka-python: a set of bit numbers, None for -2**31
            v = -(2**31) if v is None else sum(1 << b for b in v) - (2**32 if 31 in v else 0)
        if v is not None and f.is_struct():
            v = kp_values(v, version)
        elif v is not None and f.is_struct_array():
            v = [kp_values(x, version) for x in v]
        else:
            v = _norm(v)
        out.append(v)
    return out


def kio_values(obj):
    out = []
    for f in dataclasses.fields(obj):
        v = getattr(obj, f.name)
        if dataclasses.is_dataclass(v):
            v = kio_values(v)
        elif isinstance(v, tuple) and v and dataclasses.is_dataclass(v[0]):
            v = [kio_values(x) for x in v]
        else:
            v = _norm(v)
        out.append(v)
    return out


@pytest.mark.parametrize("name,versions", KP_PAIRS, ids=[n for n, _ in KP_PAIRS])
@settings(
    max_examples=3,
    deadline=None,
    suppress_health_check=list(HealthCheck),
    database=None,
    phases=(Phase.explicit, Phase.generate),
)
@given(data=st.data())
def test_kafka_python_agrees_both_ways(name, versions, data, backend):
    ours_cls = messages.CLASSES[name]
    peer = KP[name]
    for version in versions:
        msg = data.draw(message_strategy(ours_cls, version, unknown=False), label=f"v{version}")
        if name == "ApiVersionsResponse":
            msg.error_code = 0  # see test_kafka_python_reparses_api_versions_errors_as_v0

        def check():
            wire = msg.encode(version)
            theirs = peer.decode(wire, version=version)
            assert kp_values(theirs, version) == ours_values(msg, version, True)
            theirs._header = None  # decoded without a header, kafka-python leaves it unset
            back = theirs.encode(version=version)
            assert back == wire
            assert ours_cls.decode(back, version) == msg

        check()


@pytest.mark.parametrize("name,api_key,kind,versions", KIO_PAIRS, ids=[n for n, *_ in KIO_PAIRS])
@settings(
    max_examples=3,
    deadline=None,
    suppress_health_check=list(HealthCheck),
    database=None,
    phases=(Phase.explicit, Phase.generate),
)
@given(data=st.data())
def test_kio_agrees_both_ways(name, api_key, kind, versions, data, backend):
    from kio.index import load_request_schema, load_response_schema
    from kio.serial import entity_reader, entity_writer

    ours_cls = messages.CLASSES[name]
    for version in versions:
        schema = (load_request_schema if kind == "request" else load_response_schema)(api_key, version)
        msg = data.draw(message_strategy(ours_cls, version, unknown=False), label=f"v{version}")

        def check():
            wire = msg.encode(version)
            theirs, used = entity_reader(schema)(wire, 0)
            assert used == len(wire)
            assert kio_values(theirs) == ours_values(msg, version)
            buf = io.BytesIO()
            entity_writer(schema)(buf, theirs)
            back = buf.getvalue()
            assert back == wire
            assert ours_cls.decode(back, version) == msg

        check()


def test_oracles_cover_most_apis():
    assert len({n for n, _ in KP_PAIRS}) >= 100
    assert len(KIO_PAIRS) >= 100


def test_kafka_python_reparses_api_versions_errors_as_v0(backend):
    """Peer bug (kafka-python 3.0.12): an ApiVersionsResponse at v3+ whose error code is
    not 0 is re-read as v0 whatever its shape, so a valid flexible error response fails
    to decode.  Kafka's client (and kafkawire) falls back to v0 only when the body does
    not decode at the requested version (KIP-511)."""
    peer = KP["ApiVersionsResponse"]
    wire = messages.ApiVersionsResponse(error_code=-1, api_keys=[], throttle_time_ms=0).encode(3)
    assert messages.ApiVersionsResponse.decode(wire, 3).error_code == -1
    with pytest.raises(Exception):
        peer.decode(wire, version=3)
