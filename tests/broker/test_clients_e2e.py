"""Real Kafka clients against kafkawire's test broker: librdkafka (confluent-kafka),
kafka-python and aiokafka, at their newest protocol versions.

Each scenario produces records (keys, null keys, null and empty values, headers,
explicit timestamps and partitions) to one topic per setting (every compression, an
idempotent producer, acks=1, acks=0), consumes them all with a consumer group and
commits, produces more, then starts a new consumer process in the same group that must
resume from the committed offsets: it gets exactly the new records.  Every record is
checked, the broker's stored batches are checked (compression, producer ids), and every
frame of the conversation must re-encode to the bytes on the wire.

The broker runs in the test process on the backend under test; each client runs in a
subprocess (``test_clients_driver.py``) with a hard timeout.  The full matrix runs on
the Cython backend; a smaller scenario runs on both.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from collections import defaultdict
from pathlib import Path
from typing import Any, Dict, List, Tuple

import pytest

from kafkawire.cli import decode as decodecmd
from kafkawire.cli import dump_log as dumplog
from kafkawire.log import segments
from kafkawire.protocol import messages as M
from kafkawire.broker import Broker
from test_clients_driver import JOB_TIMEOUT, from_json, make_records, to_json

pytestmark = [pytest.mark.clients, pytest.mark.in_process]

DRIVER = Path(__file__).with_name("test_clients_driver.py")
PARTITIONS = 2
COMPRESSIONS = ("none", "gzip", "snappy", "lz4", "zstd")


def run_client(job: Dict[str, Any], timeout: float = JOB_TIMEOUT + 60) -> Dict[str, Any]:
    """Run a driver job in a subprocess, killed after ``timeout`` seconds (past the job's
    own deadline, which the driver keeps)."""
    if job["client"] == "java":  # Kafka's Java clients (tests/broker/test_kafka_java_clients.py)
        from support.kafka.java_clients import run_java

        return run_java(job, timeout)
    env = dict(os.environ)
    try:
        proc = subprocess.run(
            [sys.executable, str(DRIVER)],
            input=json.dumps(job),
            capture_output=True,
            text=True,
            timeout=timeout,
            env=env,
        )
    except subprocess.TimeoutExpired as exc:
        err = exc.stderr.decode(errors="replace") if isinstance(exc.stderr, bytes) else (exc.stderr or "")
        raise AssertionError(
            f"{job['client']} {job.get('op')} timed out after {timeout}s; stderr:\n{err[-3000:]}"
        ) from None
    marker = "@@RESULT@@"
    if proc.returncode != 0 or marker not in proc.stdout:
        raise AssertionError(f"{job['client']} driver failed (rc {proc.returncode}):\n{proc.stderr[-4000:]}")
    return json.loads(proc.stdout.rsplit(marker, 1)[1])


def expected_with_offsets(produced: Dict[str, List[dict]]) -> Dict[Tuple[str, int, int], dict]:
    """Every produced record keyed by (topic, partition, offset): offsets follow the
    production order within each partition."""
    out = {}
    for topic, records in produced.items():
        next_offset: Dict[int, int] = defaultdict(int)
        for r in records:
            p = r["partition"]
            out[(topic, p, next_offset[p])] = r
            next_offset[p] += 1
    return out


def end_offsets(expected: Dict[Tuple[str, int, int], dict]) -> Dict[Tuple[str, int], int]:
    """The log end offset of every partition that holds ``expected`` records."""
    ends: Dict[Tuple[str, int], int] = {}
    for topic, partition, offset in expected:
        ends[(topic, partition)] = max(ends.get((topic, partition), 0), offset + 1)
    return ends


def committed_offsets(broker: Broker, group: str) -> Dict[Tuple[str, int], int]:
    """The offsets ``group`` has committed, as the broker stored them."""
    return broker.call(lambda: {tp: c.offset for tp, c in broker.groups.groups[group].offsets.items()})


def check_records(
    consumed: List[dict],
    expected: Dict[Tuple[str, int, int], dict],
    keys: List[Tuple[str, int, int]],
    *,
    headers: bool,
    timestamps: bool,
) -> None:
    got = {}
    for r in from_json(consumed):
        k = (r["topic"], r["partition"], r["offset"])
        assert k not in got, f"record {k} delivered twice"
        got[k] = r
    assert sorted(got) == sorted(keys), (
        f"missing {sorted(set(keys) - set(got))[:10]}, unexpected {sorted(set(got) - set(keys))[:10]}"
    )
    for k in keys:
        want, have = expected[k], got[k]
        assert have["key"] == want["key"], k
        assert have["value"] == want["value"], k
        assert have["headers"] == (want["headers"] if headers else []), k
        if timestamps:
            assert have["timestamp"] == want["timestamp"], k


def scenario(
    broker: Broker,
    client: str,
    topics: Dict[str, Dict[str, Any]],
    *,
    per_phase: int = 24,
    headers: bool = True,
    timestamps: bool = True,
    extra: Dict[str, Any] = None,
    group: str = "group-1",
) -> Dict[str, List[int]]:
    """Run the produce/consume/resume scenario; returns the versions the client used
    per API (``{"Produce": [10], ...}``)."""
    extra = dict(extra or {})
    base = {"client": client, "bootstrap": broker.bootstrap_servers, **extra}
    produced: Dict[str, List[dict]] = {t: [] for t in topics}
    phase_keys = []
    for phase in range(2):
        jobs = []
        for topic, settings in topics.items():
            recs = make_records(
                topic,
                phase * per_phase,
                per_phase,
                PARTITIONS,
                headers=headers,
                null_header_values=client != "kafka-python",
            )
            produced[topic].extend(recs)
            jobs.append({"op": "produce", "topic": topic, "records": to_json(recs), **settings})
        result = run_client({**base, "jobs": jobs}, timeout=len(jobs) * JOB_TIMEOUT)
        for topic, r in zip(topics, result["results"]):
            assert r["failures"] == [] and r["unflushed"] == 0, (topic, r)
        expected = expected_with_offsets(produced)
        keys = [k for k in expected if phase * per_phase <= _index(expected, k, produced)]
        phase_keys.append(keys)
        consumed = run_client(
            {**base, "op": "consume", "group": group, "topics": sorted(topics), "expect": len(keys)}
        )
        check_records(consumed["records"], expected, keys, headers=headers, timestamps=timestamps)
        # the consumer's commit was acknowledged: the group resumes at each partition's end
        assert committed_offsets(broker, group) == end_offsets(expected)

    # what the broker stored: every record, in batches of the requested compression
    for topic, settings in topics.items():
        stored = broker.topic_batches(topic)
        comps = {b.compression for bs in stored.values() for b in bs}
        codec = settings.get("compression", "none")
        # librdkafka sends a batch uncompressed when compressing would not make it smaller
        assert codec in comps and comps <= {codec, "none"}, (topic, comps)
        if settings.get("idempotent"):
            assert all(b.producer_id >= 0 and b.base_sequence >= 0 for bs in stored.values() for b in bs)
        n = sum(len(v) for v in broker.topic_records(topic).values())
        assert n == 2 * per_phase
    # the log directory holds Kafka segments that `kafkawire dump-log` reads back
    on_disk: Dict[str, int] = defaultdict(int)
    for plog in segments.discover(broker.log_dir):
        if plog.topic not in topics:
            continue  # an earlier scenario's topic on the same broker
        for seg in plog.segments:
            lines = list(dumplog.dump_segment(seg.path))
            batches = [line for line in lines if "baseOffset" in line]
            assert batches and all(line["isvalid"] for line in batches), seg.path
            on_disk[plog.topic] += sum(len(line["records"]) for line in batches)
    assert dict(on_disk) == {t: 2 * per_phase for t in topics}
    # every frame of the conversation so far re-encoded to the bytes on the wire
    check_conversation(broker)
    return {
        M.request_class(k).__name__[: -len("Request")]: sorted(v) for k, v in broker.versions_seen.items()
    }


def check_conversation(broker: Broker) -> None:
    """Every frame the broker read or wrote was decoded and re-encoded byte for byte,
    and answering raised nothing."""
    assert broker.frames_checked > 0
    assert broker.roundtrip_failures == []
    assert broker.handler_errors == []


def check_frame_log(path: Path, frames_checked: int) -> None:
    """The frame log holds the whole conversation, and every line decodes again (what
    ``kafkawire decode`` does with it)."""
    decoded = list(decodecmd._from_frame_log(path.read_bytes(), records=True))
    assert len(decoded) >= frames_checked  # each checked frame is logged with its bytes
    assert [d for d in decoded if "error" in d] == []


def _index(expected, key, produced) -> int:
    """The production index of the record at ``key`` within its topic."""
    rec = expected[key]
    return produced[key[0]].index(rec)


@pytest.fixture
def broker(tmp_path):
    frame_log = tmp_path / "frames.jsonl"
    with Broker(
        num_partitions=PARTITIONS,
        check_roundtrip=True,
        log_dir=str(tmp_path / "logs"),
        frame_log=str(frame_log),
    ) as b:
        yield b
    # after the broker stopped: the whole conversation, the frame log closed and complete
    check_conversation(b)
    check_frame_log(frame_log, b.frames_checked)


def _newest_topics(prefix: str) -> Dict[str, Dict[str, Any]]:
    topics = {f"{prefix}-{c}": {"compression": c, "idempotent": True} for c in COMPRESSIONS}
    topics[f"{prefix}-acks1"] = {"acks": 1, "idempotent": False}
    topics[f"{prefix}-acks0"] = {"acks": 0, "idempotent": False}
    return topics


@pytest.mark.backends("cython")
def test_librdkafka_every_compression_idempotent_group_resume(broker):
    used = scenario(broker, "confluent", _newest_topics("rdk"))
    # librdkafka takes flexible versions: Fetch by topic id, Produce v9+, Metadata v12+
    assert min(used["Fetch"]) >= 13 and min(used["Produce"]) >= 9 and min(used["Metadata"]) >= 12


@pytest.mark.backends("cython")
def test_kafka_python_every_compression_idempotent_group_resume(broker):
    used = scenario(broker, "kafka-python", _newest_topics("kp"))
    assert min(used["Fetch"]) >= 12 and min(used["Produce"]) >= 9 and used["ApiVersions"] == [4]


@pytest.mark.backends("cython")
def test_aiokafka_every_compression_idempotent_group_resume(broker):
    used = scenario(broker, "aiokafka", _newest_topics("aio"))
    # aiokafka's newest versions are older, non-flexible ones (Produce v7, Fetch v11)
    assert used["Produce"] == [7] and used["Fetch"] == [11]


# Clients pinned to pre-0.11 brokers (Produce v0-v2, Fetch v0-v3, message format v0/v1)
# are out: Kafka 4 removed those versions (KIP-896), and so does kafkawire's schema.


def test_each_client_on_each_backend_smoke(broker):
    """A small scenario per client, on both backends (the matrix above runs on Cython)."""
    for client in ("confluent", "kafka-python", "aiokafka"):
        topics = {f"smoke-{client}-zstd": {"compression": "zstd", "idempotent": True}}
        scenario(broker, client, topics, per_phase=8, group=f"smoke-{client}")


def test_librdkafka_lists_every_topic_then_produces(broker):
    """librdkafka's metadata request for every topic (MetadataRequest v13 with null
    topics; 2.16 sends 3 bytes after its body, which Kafka ignores) is answered, and a
    produce on the same client works.  The broker fixture checks the frame log and the
    round trip of every frame."""
    broker.call(lambda: broker.storage.create_topic("listed", 3))
    records = make_records("listed", 0, 6, 3, headers=False)
    result = run_client(
        {
            "client": "confluent",
            "bootstrap": broker.bootstrap_servers,
            "jobs": [
                {"op": "list_topics"},
                {"op": "produce", "topic": "listed", "records": to_json(records)},
            ],
        }
    )
    listed, produced = result["results"]
    assert listed["topics"] == {"listed": 3} and listed["brokers"] == 1
    assert produced["delivered"] == 6 and produced["failures"] == [] and produced["unflushed"] == 0
    assert not [why for _, why in broker.closed_connections if "decode" in why]
    assert sum(len(v) for v in broker.topic_records("listed").values()) == 6


@pytest.mark.backends("cython")
def test_librdkafka_two_consumers_of_one_group_split_the_partitions(tmp_path):
    with Broker(num_partitions=4, check_roundtrip=True) as broker:
        # consumers do not auto-create topics (librdkafka's allow.auto.create.topics=false)
        broker.call(lambda: broker.storage.create_topic("pair", 4))
        records = make_records("pair", 0, 40, 4, headers=False)
        result = run_client(
            {
                "client": "confluent",
                "op": "group_pair",
                "bootstrap": broker.bootstrap_servers,
                "group": "pair-group",
                "topics": ["pair"],
                "partitions": 4,
                "records": to_json(records),
            }
        )
        a, b = result["assignments"]
        assert a and b and sorted(a + b) == [0, 1, 2, 3]  # a rebalance gave each member a share
        got = [from_json(g) for g in result["records"]]
        for member, parts in zip(got, (a, b)):
            assert {r["partition"] for r in member} <= set(parts)
        values = sorted((r["partition"], r["offset"]) for g in got for r in g)
        assert len(values) == 40 and len(set(values)) == 40
        group = broker.groups.groups["pair-group"]
        assert group.generation_id >= 2
        check_conversation(broker)
