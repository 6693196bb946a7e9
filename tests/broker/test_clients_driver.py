"""Drivers that run one real Kafka client against the test broker, in a subprocess.

Each client test starts ``python tests/broker/test_clients_driver.py`` with a JSON job on stdin
(which client, produce or consume, the records or how many to expect, the client's
settings) and reads one JSON result from stdout.  A subprocess gives every client run a
hard timeout (the test kills it), keeps client threads and C libraries out of the test
process, and lets the broker run in the test process on the backend under test.

This module imports only the standard library at the top; each driver imports its
client.  Records travel as JSON: bytes as hex, None as null.

The tests of this file only check the record helpers; the client tests are in
``test_clients_e2e.py``.
"""

from __future__ import annotations

import json
import sys
import time
from typing import Any, Dict, List, Optional

# How long a job may take unless it says otherwise (``"timeout"``, seconds): the only clock
# of every client loop here, and generous, as clients crawl on a busy machine.  Loops end
# on what they wait for (every record received, every delivery reported), not on time.
JOB_TIMEOUT = 120
# Group session and request timeouts sized for a machine where a client process may get
# no CPU for seconds: a member must not be expelled, nor a request abandoned, for that.
SESSION_TIMEOUT_MS = 30000
HEARTBEAT_INTERVAL_MS = 1000
REQUEST_TIMEOUT_MS = 40000

# -- records -----------------------------------------------------------------------------


def make_records(
    topic: str,
    start: int,
    count: int,
    partitions: int,
    *,
    headers: bool = True,
    null_header_values: bool = True,
    base_timestamp: int = 1_700_000_000_000,
) -> List[Dict[str, Any]]:
    """Deterministic records for ``topic``: keys, null keys, null values, empty values
    (never a null key with a null value: aiokafka refuses those), several headers (a
    repeated key, a null header value unless ``null_header_values`` is false, as
    kafka-python needs, a non-ASCII key), sizes from a few bytes to about 3 KB, explicit
    partitions and timestamps."""
    out = []
    for i in range(start, start + count):
        key: Optional[bytes] = f"key-{i}".encode() if i % 7 != 3 else None
        if i % 11 == 5 and key is not None:
            value: Optional[bytes] = None
        elif i % 13 == 7:
            value = b""
        else:
            value = f"{topic}:{i}:".encode() + bytes(range(256)) * (i % 12)
        hdrs = []
        if headers:
            if i % 3 == 0:
                hdrs = [
                    ("trace", f"t{i}".encode()),
                    ("trace", b"second"),
                    ("empty", None if null_header_values else b""),
                ]
            elif i % 3 == 1:
                hdrs = [("ключ", "значение".encode())]
        out.append(
            {
                "key": key,
                "value": value,
                "headers": hdrs,
                "partition": i % partitions,
                "timestamp": base_timestamp + i * 3 - (5 if i % 4 == 2 else 0),
            }
        )
    return out


def to_json(records: List[Dict[str, Any]]) -> List[Dict[str, Any]]:
    def b(v):
        return None if v is None else bytes(v).hex()

    return [
        dict(r, key=b(r["key"]), value=b(r["value"]), headers=[[k, b(v)] for k, v in r["headers"]])
        for r in records
    ]


def from_json(records: List[Dict[str, Any]]) -> List[Dict[str, Any]]:
    def b(v):
        return None if v is None else bytes.fromhex(v)

    return [
        dict(r, key=b(r["key"]), value=b(r["value"]), headers=[(k, b(v)) for k, v in r["headers"]])
        for r in records
    ]


# -- librdkafka (confluent-kafka) ----------------------------------------------------------


def _confluent_base(job: Dict[str, Any]) -> Dict[str, Any]:
    conf = {
        "bootstrap.servers": job["bootstrap"],
        "client.id": job.get("client_id", "kw-test"),
        "socket.timeout.ms": REQUEST_TIMEOUT_MS,
        "topic.metadata.refresh.interval.ms": 2000,
        "reconnect.backoff.ms": 50,
        "reconnect.backoff.max.ms": 500,
    }
    if job.get("pinned"):
        conf["api.version.request"] = False
        conf["broker.version.fallback"] = job.get("fallback", "0.10.0")
    conf.update(job.get("config", {}))
    return conf


def confluent_produce(job: Dict[str, Any]) -> Dict[str, Any]:
    import confluent_kafka

    conf = _confluent_base(job)
    conf.update(
        {
            "compression.type": job.get("compression", "none"),
            "linger.ms": 20,
            "enable.idempotence": bool(job.get("idempotent")),
            "acks": job.get("acks", -1),
        }
    )
    if job.get("idempotent"):
        conf.pop("acks")
    errors: List[str] = []
    conf["error_cb"] = lambda err: errors.append(str(err))  # authentication and transport errors
    producer = confluent_kafka.Producer(conf)
    failures: List[str] = []
    delivered = []

    def report(err, msg):
        if err is not None:
            failures.append(str(err))
        else:
            delivered.append((msg.partition(), msg.offset()))

    for r in from_json(job["records"]):
        producer.produce(
            job["topic"],
            key=r["key"],
            value=r["value"],
            partition=r["partition"],
            headers=r["headers"] or None,
            timestamp=r["timestamp"],
            on_delivery=report,
        )
        producer.poll(0)
    timeout = job.get("timeout", JOB_TIMEOUT)
    stop_on = job.get("stop_on")
    if stop_on:  # a refusal under test: done once librdkafka reports it
        left = _flush_until(
            producer, timeout, lambda: any(s in e for e in errors + failures for s in stop_on)
        )
    else:
        left = producer.flush(timeout)
    return {"unflushed": left, "failures": failures, "delivered": len(delivered), "errors": errors}


def _flush_until(producer: Any, timeout: float, seen: Any) -> int:
    """Serve ``producer``'s callbacks until its queue is empty, ``seen()`` holds or
    ``timeout`` passes; what is still queued is then dropped (librdkafka would otherwise
    retry it until ``message.timeout.ms``).  Returns how many messages were left."""
    deadline = time.monotonic() + timeout
    while len(producer) and not seen() and time.monotonic() < deadline:
        producer.poll(0.1)
    left = len(producer)
    if left:
        producer.purge()
    return left


def confluent_consume(job: Dict[str, Any]) -> Dict[str, Any]:
    import confluent_kafka

    conf = _confluent_base(job)
    conf.update(
        {
            "group.id": job["group"],
            "auto.offset.reset": "earliest",
            "enable.auto.commit": False,
            "session.timeout.ms": SESSION_TIMEOUT_MS,
            "heartbeat.interval.ms": HEARTBEAT_INTERVAL_MS,
            "fetch.wait.max.ms": 100,
        }
    )
    consumer = confluent_kafka.Consumer(conf)
    consumer.subscribe(job["topics"])
    got: List[Dict[str, Any]] = []
    errors: List[str] = []
    deadline = time.monotonic() + job.get("timeout", JOB_TIMEOUT)
    # until every expected record is here (the test checks that none is missing, repeated
    # or foreign); poll returns as soon as a record arrives
    while len(got) < job["expect"] and (left := deadline - time.monotonic()) > 0:
        msg = consumer.poll(left)
        if msg is None:
            continue
        if msg.error():
            errors.append(str(msg.error()))
            continue
        ts_type, ts = msg.timestamp()
        got.append(
            {
                "topic": msg.topic(),
                "partition": msg.partition(),
                "offset": msg.offset(),
                "key": msg.key(),
                "value": msg.value(),
                "timestamp": ts,
                "headers": [(k, v) for k, v in (msg.headers() or [])],
            }
        )
    if job.get("commit", True) and got:
        consumer.commit(asynchronous=False)
    consumer.close()
    return {"records": to_json(got), "errors": errors}


def confluent_list_topics(job: Dict[str, Any]) -> Dict[str, Any]:
    """Metadata of every topic (librdkafka's ``list_topics()`` without a topic: a
    MetadataRequest with null topics)."""
    import confluent_kafka

    conf = _confluent_base(job)
    errors: List[str] = []
    conf["error_cb"] = lambda err: errors.append(str(err))
    producer = confluent_kafka.Producer(conf)
    metadata = producer.list_topics(timeout=job.get("timeout", JOB_TIMEOUT))
    topics = {name: len(t.partitions) for name, t in metadata.topics.items()}
    return {"topics": topics, "brokers": len(metadata.brokers), "errors": errors}


def confluent_group_pair(job: Dict[str, Any]) -> Dict[str, Any]:
    """Two consumers of one group: wait until the group has split the partitions
    between them, then produce the records and consume them with both."""
    import confluent_kafka

    base = _confluent_base(job)
    conf = dict(
        base,
        **{
            "group.id": job["group"],
            "auto.offset.reset": "earliest",
            "enable.auto.commit": False,
            "session.timeout.ms": SESSION_TIMEOUT_MS,
            "heartbeat.interval.ms": HEARTBEAT_INTERVAL_MS,
            "fetch.wait.max.ms": 100,
        },
    )
    consumers = [confluent_kafka.Consumer(dict(conf, **{"client.id": f"member-{i}"})) for i in range(2)]
    for c in consumers:
        c.subscribe(job["topics"])
    deadline = time.monotonic() + job.get("timeout", JOB_TIMEOUT)
    assignments: List[List[int]] = [[], []]
    while time.monotonic() < deadline:
        for c in consumers:
            c.poll(0.05)
        assignments = [sorted(tp.partition for tp in c.assignment()) for c in consumers]
        if all(assignments) and sum(len(a) for a in assignments) == job["partitions"]:
            break
    producer = confluent_kafka.Producer(base)
    for r in from_json(job["records"]):
        producer.produce(job["topics"][0], key=r["key"], value=r["value"], partition=r["partition"])
    producer.flush(max(deadline - time.monotonic(), 0))
    got: List[List[Dict[str, Any]]] = [[], []]
    while time.monotonic() < deadline and sum(map(len, got)) < len(job["records"]):
        for i, c in enumerate(consumers):
            msg = c.poll(0.05)
            if msg is not None and not msg.error():
                got[i].append(
                    {
                        "topic": msg.topic(),
                        "partition": msg.partition(),
                        "offset": msg.offset(),
                        "key": msg.key(),
                        "value": msg.value(),
                        "timestamp": msg.timestamp()[1],
                        "headers": [],
                    }
                )
    for c in consumers:
        c.close()
    return {"assignments": assignments, "records": [to_json(g) for g in got]}


# -- kafka-python --------------------------------------------------------------------------


def _kafka_python_base(job: Dict[str, Any]) -> Dict[str, Any]:
    conf: Dict[str, Any] = {
        "bootstrap_servers": job["bootstrap"],
        "client_id": job.get("client_id", "kw-test"),
        "request_timeout_ms": REQUEST_TIMEOUT_MS,
        "retry_backoff_ms": 50,
        "reconnect_backoff_ms": 50,
    }
    if job.get("api_version"):
        conf["api_version"] = tuple(job["api_version"])
    conf.update(job.get("config", {}))
    return conf


def kafka_python_produce(job: Dict[str, Any]) -> Dict[str, Any]:
    import kafka

    conf = _kafka_python_base(job)
    compression = job.get("compression", "none")
    conf.update(
        {
            "compression_type": None if compression == "none" else compression,
            "linger_ms": 20,
            "acks": "all" if job.get("acks", -1) == -1 else job.get("acks", -1),
            "enable_idempotence": bool(job.get("idempotent")),
        }
    )
    producer = kafka.KafkaProducer(**conf)
    futures = []
    for r in from_json(job["records"]):
        futures.append(
            producer.send(
                job["topic"],
                key=r["key"],
                value=r["value"],
                partition=r["partition"],
                timestamp_ms=r["timestamp"],
                headers=r["headers"] or None,
            )
        )
    deadline = time.monotonic() + job.get("timeout", JOB_TIMEOUT)
    producer.flush(job.get("timeout", JOB_TIMEOUT))
    failures = []
    for f in futures:
        try:
            f.get(timeout=max(deadline - time.monotonic(), 0.001))
        except Exception as exc:  # report every failure to the test
            failures.append(repr(exc))
    producer.close(5)
    return {"unflushed": 0, "failures": failures, "delivered": len(futures) - len(failures)}


def kafka_python_consume(job: Dict[str, Any]) -> Dict[str, Any]:
    import kafka

    conf = _kafka_python_base(job)
    conf.update(
        {
            "group_id": job["group"],
            "auto_offset_reset": "earliest",
            "enable_auto_commit": False,
            "session_timeout_ms": SESSION_TIMEOUT_MS,
            "heartbeat_interval_ms": HEARTBEAT_INTERVAL_MS,
            "fetch_max_wait_ms": 100,
        }
    )
    consumer = kafka.KafkaConsumer(*job["topics"], **conf)
    got: List[Dict[str, Any]] = []
    deadline = time.monotonic() + job.get("timeout", JOB_TIMEOUT)
    # One poll waits for the whole join: a poll that times out between JoinGroup and
    # SyncGroup makes kafka-python drop the join it sent and join again, so on a busy
    # machine short polls can rebalance forever and never fetch.  poll returns as soon
    # as records arrive.
    while len(got) < job["expect"] and (left := deadline - time.monotonic()) > 0:
        for tp, msgs in consumer.poll(timeout_ms=int(left * 1000) + 1).items():
            for m in msgs:
                got.append(
                    {
                        "topic": m.topic,
                        "partition": m.partition,
                        "offset": m.offset,
                        "key": m.key,
                        "value": m.value,
                        "timestamp": m.timestamp,
                        "headers": [(k, v) for k, v in (m.headers or [])],
                    }
                )
    if job.get("commit", True) and got:
        consumer.commit()
    consumer.close()
    return {"records": to_json(got), "errors": []}


# -- aiokafka ------------------------------------------------------------------------------


def _aiokafka_config(job: Dict[str, Any]) -> Dict[str, Any]:
    """The job's ``config`` as aiokafka keyword arguments; ``ssl_cafile``,
    ``ssl_certfile`` and ``ssl_keyfile`` become the ``ssl_context`` aiokafka takes."""
    conf = dict(job.get("config", {}))
    files = {k: conf.pop(k) for k in ("ssl_cafile", "ssl_certfile", "ssl_keyfile") if k in conf}
    if files:
        from aiokafka.helpers import create_ssl_context

        conf["ssl_context"] = create_ssl_context(
            cafile=files.get("ssl_cafile"),
            certfile=files.get("ssl_certfile"),
            keyfile=files.get("ssl_keyfile"),
        )
    return conf


def aiokafka_produce(job: Dict[str, Any]) -> Dict[str, Any]:
    import asyncio

    import aiokafka

    async def run():
        compression = job.get("compression", "none")
        producer = aiokafka.AIOKafkaProducer(
            bootstrap_servers=job["bootstrap"],
            client_id=job.get("client_id", "kw-test"),
            compression_type=None if compression == "none" else compression,
            linger_ms=20,
            enable_idempotence=bool(job.get("idempotent")),
            acks="all" if job.get("acks", -1) == -1 else job.get("acks", -1),
            **_aiokafka_config(job),
        )
        await producer.start()
        failures = []
        try:
            futures = []
            for r in from_json(job["records"]):
                futures.append(
                    await producer.send(
                        job["topic"],
                        key=r["key"],
                        value=r["value"],
                        partition=r["partition"],
                        timestamp_ms=r["timestamp"],
                        headers=r["headers"] or None,
                    )
                )
            for f in futures:
                try:
                    await f
                except Exception as exc:  # report every failure to the test
                    failures.append(repr(exc))
        finally:
            await producer.stop()
        return {"unflushed": 0, "failures": failures, "delivered": len(futures) - len(failures)}

    return asyncio.run(asyncio.wait_for(run(), job.get("timeout", JOB_TIMEOUT)))


def aiokafka_consume(job: Dict[str, Any]) -> Dict[str, Any]:
    import asyncio

    import aiokafka

    async def run():
        consumer = aiokafka.AIOKafkaConsumer(
            *job["topics"],
            bootstrap_servers=job["bootstrap"],
            client_id=job.get("client_id", "kw-test"),
            group_id=job["group"],
            auto_offset_reset="earliest",
            enable_auto_commit=False,
            session_timeout_ms=SESSION_TIMEOUT_MS,
            heartbeat_interval_ms=HEARTBEAT_INTERVAL_MS,
            request_timeout_ms=REQUEST_TIMEOUT_MS,
            fetch_max_wait_ms=100,
            **_aiokafka_config(job),
        )
        await consumer.start()
        got: List[Dict[str, Any]] = []
        try:
            loop = asyncio.get_running_loop()
            deadline = loop.time() + job.get("timeout", JOB_TIMEOUT)
            while len(got) < job["expect"] and (left := deadline - loop.time()) > 0:
                for tp, msgs in (await consumer.getmany(timeout_ms=int(left * 1000) + 1)).items():
                    for m in msgs:
                        got.append(
                            {
                                "topic": m.topic,
                                "partition": m.partition,
                                "offset": m.offset,
                                "key": m.key,
                                "value": m.value,
                                "timestamp": m.timestamp,
                                "headers": [(k, v) for k, v in (m.headers or ())],
                            }
                        )
            if job.get("commit", True) and got:
                await consumer.commit()
        finally:
            await consumer.stop()
        return {"records": to_json(got), "errors": []}

    return asyncio.run(asyncio.wait_for(run(), job.get("timeout", JOB_TIMEOUT) + 30))


DRIVERS = {
    ("confluent", "produce"): confluent_produce,
    ("confluent", "consume"): confluent_consume,
    ("confluent", "group_pair"): confluent_group_pair,
    ("confluent", "list_topics"): confluent_list_topics,
    ("kafka-python", "produce"): kafka_python_produce,
    ("kafka-python", "consume"): kafka_python_consume,
    ("aiokafka", "produce"): aiokafka_produce,
    ("aiokafka", "consume"): aiokafka_consume,
}


def run_job(job: Dict[str, Any]) -> Dict[str, Any]:
    """Run one job; a job with ``"jobs"`` runs each of them in turn (one process).  With
    ``"expect_failure"``, an exception the client raises is the result
    (``{"exception": "module.Class: message"}``)."""
    if "jobs" in job:
        common = {k: v for k, v in job.items() if k != "jobs"}
        return {"results": [run_job({**common, **j}) for j in job["jobs"]]}
    if job.get("expect_failure"):
        try:
            return DRIVERS[(job["client"], job["op"])](job)
        except BaseException as exc:  # the client's own error is what the test checks
            return {"exception": f"{type(exc).__module__}.{type(exc).__name__}: {exc}"}
    return DRIVERS[(job["client"], job["op"])](job)


class _LogTail:
    """The clients' own warnings and errors (how kafka-python and aiokafka report an
    authentication refusal before they give up bootstrapping), last ones kept."""

    def __init__(self, keep: int = 200) -> None:
        import logging

        self.lines: List[str] = []
        self._shapes: set = set()
        self.keep = keep
        handler = logging.Handler(logging.WARNING)
        handler.emit = self._emit
        logging.getLogger().addHandler(handler)

    def _emit(self, record) -> None:
        line = record.getMessage()
        if record.exc_info and record.exc_info[1] is not None:
            exc = record.exc_info[1]
            line += f" [{type(exc).__name__}: {exc}]"
        import re

        shape = re.sub(r"\d+", "N", line)  # one line per message, whatever its ports and delays
        if shape not in self._shapes:
            self._shapes.add(shape)
            self.lines = (self.lines + [line])[-self.keep :]


def main() -> int:
    job = json.load(sys.stdin)
    logs = _LogTail() if job.get("expect_failure") else None
    result = run_job(job)
    if logs is not None:
        result["log"] = logs.lines
    sys.stdout.write("\n@@RESULT@@" + json.dumps(result) + "\n")
    sys.stdout.flush()
    return 0


# -- self-tests of the helpers -----------------------------------------------------------


def test_records_survive_json():
    recs = make_records("t", 0, 40, 3)
    assert from_json(json.loads(json.dumps(to_json(recs)))) == recs
    assert any(r["key"] is None for r in recs) and any(r["value"] is None for r in recs)
    assert any(r["value"] == b"" for r in recs)
    assert {r["partition"] for r in recs} == {0, 1, 2}


if __name__ == "__main__":
    sys.exit(main())
