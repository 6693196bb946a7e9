"""Message codec benchmarks: kafkawire against kio and kafka-python in the same run.

Groups (ratios are peer time / kafkawire time within a group):

* ``metadata-decode`` / ``metadata-encode``: MetadataResponse v12, 100 topics x 12
  partitions (about 35 KB), on the Cython backend, the pure-Python backend, kio and
  kafka-python.  Decodes run with the cyclic GC off, as ``timeit`` does (kafkawire
  pauses it while decoding anyway; the peers' allocations would otherwise pay for
  collections).
* ``fetch-many-decode`` / ``produce-many-decode``: FetchResponse v12 and ProduceRequest v9
  with 20 topics x 50 partitions of 200 bytes of records, against kafka-python.
* the ``floor`` entry of each decode group: the same objects made by a tight Cython loop
  (``benchmarks/_message_floor.pyx``) from an already decoded message, with no parsing:
  what any decoder returning these objects must pay.
* ``fetch-decode-size``: FetchResponse v12 with 1 KB and with 1 MB of records in one
  partition: the decode time does not depend on the record bytes (zero-copy views).
* ``small-<message>-decode`` / ``small-<message>-encode``: small everyday messages
  (ProduceRequest v9 with one partition of 1 KB, FetchRequest v12 with one partition,
  ApiVersionsResponse v3 with 60 APIs, FetchResponse v12 with 1 KB) on both backends and
  kafka-python, where per-message overhead rather than per-field work dominates.
"""

from __future__ import annotations

import gc
import io
import uuid

import pytest

from kafkawire import _backend
from kafkawire.protocol import messages as m

VERSION = 12


def _metadata_response():
    R = m.MetadataResponse
    brokers = [
        R.MetadataResponseBroker(
            node_id=i, host=f"broker-{i}.kafka.internal", port=9092, rack=f"rack-{i % 3}"
        )
        for i in range(6)
    ]
    topics = []
    for t in range(100):
        parts = [
            R.MetadataResponsePartition(
                error_code=0,
                partition_index=p,
                leader_id=p % 6,
                leader_epoch=17,
                replica_nodes=[p % 6, (p + 1) % 6, (p + 2) % 6],
                isr_nodes=[p % 6, (p + 1) % 6, (p + 2) % 6],
                offline_replicas=[],
            )
            for p in range(12)
        ]
        topics.append(
            R.MetadataResponseTopic(
                error_code=0,
                name=f"orders.events.topic-{t:03d}",
                topic_id=uuid.UUID(int=t + 1),
                is_internal=False,
                partitions=parts,
                topic_authorized_operations=-2147483648,
            )
        )
    return R(
        throttle_time_ms=0,
        brokers=brokers,
        cluster_id="kafkawire-bench-cluster",
        controller_id=1,
        topics=topics,
    )


MSG = _metadata_response()
WIRE = MSG.encode(VERSION)


def test_metadata_payload_size():
    assert 30_000 <= len(WIRE) <= 45_000


# -- decode ---------------------------------------------------------------------------------


@pytest.fixture
def gc_off():
    """The cyclic GC off while a decode is timed, as timeit has it."""
    was = gc.isenabled()
    gc.disable()
    yield
    if was:
        gc.enable()


def _floor():
    """benchmarks/_message_floor.pyx, compiled on first use (Cython and a C compiler)."""
    pyximport = pytest.importorskip("pyximport")
    pyximport.install(language_level=3, inplace=False)
    try:
        from benchmarks import _message_floor
    except ImportError:
        import _message_floor
    return _message_floor


@pytest.mark.benchmark(group="metadata-decode")
def test_decode_floor(benchmark, gc_off):
    got = benchmark(_floor().Floor(MSG))
    assert got == MSG and got.topics[0] is not MSG.topics[0]


@pytest.mark.benchmark(group="metadata-decode")
def test_decode_kafkawire_cython(benchmark, gc_off):
    with _backend.use("cython"):
        plan = m.MetadataResponse.plan(VERSION)
        decode = _backend.implementation("codec", "cython").decode
        got = benchmark(decode, plan, WIRE)
    assert got == MSG


@pytest.mark.benchmark(group="metadata-decode")
def test_decode_kafkawire_python(benchmark, gc_off):
    decode = _backend.implementation("codec", "python").decode
    got = benchmark(decode, m.MetadataResponse.plan(VERSION), WIRE)
    assert got == MSG


@pytest.mark.benchmark(group="metadata-decode")
def test_decode_kio(benchmark, gc_off):
    from kio.index import load_response_schema
    from kio.serial import entity_reader

    reader = entity_reader(load_response_schema(3, VERSION))
    got, used = benchmark(reader, WIRE, 0)
    assert used == len(WIRE) and len(got.topics) == 100


@pytest.mark.benchmark(group="metadata-decode")
def test_decode_kafka_python(benchmark, gc_off):
    from kafka.protocol.metadata import MetadataResponse

    got = benchmark(MetadataResponse.decode, WIRE, version=VERSION)
    assert len(got.topics) == 100


# -- encode ---------------------------------------------------------------------------------


@pytest.mark.benchmark(group="metadata-encode")
def test_encode_kafkawire_cython(benchmark):
    encode = _backend.implementation("codec", "cython").encode
    assert benchmark(encode, m.MetadataResponse.plan(VERSION), MSG) == WIRE


@pytest.mark.benchmark(group="metadata-encode")
def test_encode_kafkawire_python(benchmark):
    encode = _backend.implementation("codec", "python").encode
    assert benchmark(encode, m.MetadataResponse.plan(VERSION), MSG) == WIRE


@pytest.mark.benchmark(group="metadata-encode")
def test_encode_kio(benchmark):
    from kio.index import load_response_schema
    from kio.serial import entity_reader, entity_writer

    schema = load_response_schema(3, VERSION)
    obj, _ = entity_reader(schema)(WIRE, 0)
    writer = entity_writer(schema)

    def run():
        buf = io.BytesIO()
        writer(buf, obj)
        return buf.getvalue()

    assert benchmark(run) == WIRE


@pytest.mark.benchmark(group="metadata-encode")
def test_encode_kafka_python(benchmark):
    from kafka.protocol.metadata import MetadataResponse

    obj = MetadataResponse.decode(WIRE, version=VERSION)
    obj._header = None
    assert benchmark(obj.encode, version=VERSION) == WIRE


# -- fetch: decode cost independent of the record bytes -------------------------------------


def _fetch(nbytes):
    F = m.FetchResponse
    records = bytes(nbytes)
    part = F.PartitionData(
        partition_index=0,
        error_code=0,
        high_watermark=10,
        last_stable_offset=10,
        log_start_offset=0,
        aborted_transactions=[],
        preferred_read_replica=-1,
        records=records,
    )
    return F(
        throttle_time_ms=0,
        error_code=0,
        session_id=1,
        responses=[F.FetchableTopicResponse(topic="t", partitions=[part])],
    ).encode(VERSION)


FETCH_SMALL = _fetch(1024)
FETCH_LARGE = _fetch(1024 * 1024)


@pytest.mark.benchmark(group="fetch-decode-size")
@pytest.mark.parametrize("size", ["1KB", "1MB"])
def test_fetch_decode_kafkawire_cython(benchmark, size):
    wire = FETCH_SMALL if size == "1KB" else FETCH_LARGE
    decode = _backend.implementation("codec", "cython").decode
    got = benchmark(decode, m.FetchResponse.plan(VERSION), wire)
    assert isinstance(got.responses[0].partitions[0].records, memoryview)


@pytest.mark.benchmark(group="fetch-decode-size")
@pytest.mark.parametrize("size", ["1KB", "1MB"])
def test_fetch_decode_kafkawire_python(benchmark, size):
    wire = FETCH_SMALL if size == "1KB" else FETCH_LARGE
    decode = _backend.implementation("codec", "python").decode
    got = benchmark(decode, m.FetchResponse.plan(VERSION), wire)
    assert isinstance(got.responses[0].partitions[0].records, memoryview)


@pytest.mark.benchmark(group="fetch-decode-size")
@pytest.mark.parametrize("size", ["1KB", "1MB"])
def test_fetch_decode_kafka_python(benchmark, size):
    from kafka.protocol.consumer import FetchResponse

    wire = FETCH_SMALL if size == "1KB" else FETCH_LARGE
    benchmark(FetchResponse.decode, wire, version=VERSION)


# -- many partitions: per-partition work ------------------------------------------------------


def _fetch_many():
    F = m.FetchResponse
    return F(
        throttle_time_ms=0,
        error_code=0,
        session_id=1,
        responses=[
            F.FetchableTopicResponse(
                topic=f"orders.events.topic-{t:03d}",
                partitions=[
                    F.PartitionData(
                        partition_index=p,
                        error_code=0,
                        high_watermark=100_000 + p,
                        last_stable_offset=100_000 + p,
                        log_start_offset=1000 * p,
                        aborted_transactions=[],
                        preferred_read_replica=-1,
                        records=bytes(200),
                    )
                    for p in range(50)
                ],
            )
            for t in range(20)
        ],
    )


def _produce_many():
    P = m.ProduceRequest
    return P(
        transactional_id=None,
        acks=-1,
        timeout_ms=30000,
        topic_data=[
            P.TopicProduceData(
                name=f"orders.events.topic-{t:03d}",
                partition_data=[P.PartitionProduceData(index=p, records=bytes(200)) for p in range(50)],
            )
            for t in range(20)
        ],
    )


MANY = {
    "fetch": (m.FetchResponse, 12, _fetch_many(), ("kafka.protocol.consumer", "FetchResponse")),
    "produce": (m.ProduceRequest, 9, _produce_many(), ("kafka.protocol.producer", "ProduceRequest")),
}


@pytest.mark.parametrize("impl", ["kafkawire-cython", "kafkawire-python", "kafka-python", "floor"])
@pytest.mark.parametrize("name", sorted(MANY))
def test_many_partitions_decode(benchmark, gc_off, name, impl):
    import importlib

    cls, version, msg, (module, peer) = MANY[name]
    wire = msg.encode(version)
    benchmark.group = f"{name}-many-decode"
    if impl == "kafka-python":
        got = benchmark(getattr(importlib.import_module(module), peer).decode, wire, version=version)
        assert len(getattr(got, "responses" if name == "fetch" else "topic_data")) == 20
        return
    if impl == "floor":
        got = benchmark(_floor().Floor(cls.decode(wire, version)))
    else:
        got = benchmark(_backend.implementation("codec", impl.split("-")[1]).decode, cls.plan(version), wire)
    assert got == msg


# -- small messages: per-message overhead -----------------------------------------------------


def _small_messages():
    P, F, A = m.ProduceRequest, m.FetchRequest, m.ApiVersionsResponse
    produce = P(
        transactional_id=None,
        acks=-1,
        timeout_ms=30000,
        topic_data=[
            P.TopicProduceData(
                name="orders", partition_data=[P.PartitionProduceData(index=0, records=bytes(1024))]
            )
        ],
    )
    fetch = F(
        replica_id=-1,
        max_wait_ms=500,
        min_bytes=1,
        max_bytes=52428800,
        isolation_level=0,
        session_id=0,
        session_epoch=-1,
        topics=[
            F.FetchTopic(
                topic="orders",
                partitions=[
                    F.FetchPartition(
                        partition=0,
                        current_leader_epoch=5,
                        fetch_offset=1234,
                        last_fetched_epoch=-1,
                        log_start_offset=-1,
                        partition_max_bytes=1048576,
                    )
                ],
            )
        ],
        forgotten_topics_data=[],
        rack_id="",
    )
    api_versions = A(
        error_code=0,
        throttle_time_ms=0,
        api_keys=[A.ApiVersion(api_key=k, min_version=0, max_version=k % 13 + 1) for k in range(60)],
    )
    return {
        "produce-v9": (m.ProduceRequest, 9, produce, ("kafka.protocol.producer", "ProduceRequest")),
        "fetch-request-v12": (m.FetchRequest, 12, fetch, ("kafka.protocol.consumer", "FetchRequest")),
        "api-versions-v3": (
            m.ApiVersionsResponse,
            3,
            api_versions,
            ("kafka.protocol.metadata", "ApiVersionsResponse"),
        ),
        "fetch-response-v12": (
            m.FetchResponse,
            12,
            m.FetchResponse.decode(FETCH_SMALL, 12),
            ("kafka.protocol.consumer", "FetchResponse"),
        ),
    }


SMALL = _small_messages()
SMALL_NAMES = sorted(SMALL)
IMPLS = ["kafkawire-cython", "kafkawire-python", "kafka-python"]


def _kafka_python_class(name):
    import importlib

    module, cls = SMALL[name][3]
    return getattr(importlib.import_module(module), cls)


@pytest.mark.parametrize("impl", IMPLS)
@pytest.mark.parametrize("name", SMALL_NAMES)
def test_small_decode(benchmark, name, impl):
    cls, version, msg, _ = SMALL[name]
    wire = msg.encode(version)
    benchmark.group = f"small-{name}-decode"
    if impl == "kafka-python":
        benchmark(_kafka_python_class(name).decode, wire, version=version)
        return
    decode = _backend.implementation("codec", impl.split("-")[1]).decode
    got = benchmark(decode, cls.plan(version), wire)
    assert got == msg


@pytest.mark.parametrize("impl", IMPLS)
@pytest.mark.parametrize("name", SMALL_NAMES)
def test_small_encode(benchmark, name, impl):
    cls, version, msg, _ = SMALL[name]
    wire = msg.encode(version)
    benchmark.group = f"small-{name}-encode"
    if impl == "kafka-python":
        obj = _kafka_python_class(name).decode(wire, version=version)
        obj._header = None
        assert benchmark(obj.encode, version=version) == wire
        return
    encode = _backend.implementation("codec", impl.split("-")[1]).encode
    assert benchmark(encode, cls.plan(version), msg) == wire
