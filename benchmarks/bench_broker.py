"""Produce and consume throughput of one real client through kafkawire's test broker,
and the broker's own codec time per request.

    python benchmarks/bench_broker.py                      # librdkafka, 200k records
    python benchmarks/bench_broker.py --client aiokafka --records 100000
    python benchmarks/bench_broker.py --backend python     # the pure-Python codec
    python -m pytest benchmarks/bench_broker.py --benchmark-only

The broker runs in this process (on the chosen backend); the client runs in a
subprocess, so the two do not share a GIL.  Records: 16-byte keys, 100-byte values, no
compression, acks=all.  Produce time runs from the first ``produce`` to the end of the
flush; consume time from the consumer's start to the last record (partitions assigned
directly, no group, from offset 0).

The codec figures are the broker's time in :func:`kafkawire.decode_request` and
:func:`kafkawire.encode_response`, per request, for Produce and Fetch; "codec share" is
that time over the broker's wall time for the phase.  There is no peer broker to
compare with here, so the figures are absolute; they are for this machine only.
"""

from __future__ import annotations

import argparse
import json
import subprocess
import sys
import time
from pathlib import Path
from typing import Any, Dict

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

KEY_SIZE = 16
VALUE_SIZE = 100
TOPIC = "bench"


# -- the client side (runs in a subprocess) -------------------------------------------------


def _client_confluent(job: Dict[str, Any]) -> Dict[str, Any]:
    import confluent_kafka

    n, bs = job["records"], job["bootstrap"]
    value = b"v" * VALUE_SIZE
    if job["op"] == "produce":
        p = confluent_kafka.Producer(
            {
                "bootstrap.servers": bs,
                "linger.ms": 5,
                "acks": -1,
                "queue.buffering.max.messages": 1000000,
                "batch.size": 1000000,
                "enable.idempotence": False,
            }
        )
        p.produce(TOPIC, key=b"warmup".ljust(KEY_SIZE), value=value)  # connect, metadata
        p.flush(30)
        t0 = time.perf_counter()
        for i in range(n):
            while True:
                try:
                    p.produce(TOPIC, key=b"%016d" % i, value=value)
                    break
                except BufferError:
                    p.poll(0.01)
        left = p.flush(120)
        return {"seconds": time.perf_counter() - t0, "unflushed": left}
    c = confluent_kafka.Consumer(
        {"bootstrap.servers": bs, "group.id": "bench", "enable.auto.commit": False, "fetch.wait.max.ms": 50}
    )
    t0 = time.perf_counter()
    c.assign([confluent_kafka.TopicPartition(TOPIC, 0, 0)])
    got = 0
    deadline = time.monotonic() + 120
    while got < n + 1 and time.monotonic() < deadline:
        for m in c.consume(10000, 0.5):
            if not m.error():
                got += 1
    seconds = time.perf_counter() - t0
    c.close()
    return {"seconds": seconds, "consumed": got - 1}


def _client_aiokafka(job: Dict[str, Any]) -> Dict[str, Any]:
    import asyncio

    import aiokafka

    n, bs = job["records"], job["bootstrap"]
    value = b"v" * VALUE_SIZE

    async def produce():
        p = aiokafka.AIOKafkaProducer(bootstrap_servers=bs, linger_ms=5, acks="all", max_batch_size=1 << 20)
        await p.start()
        await (await p.send(TOPIC, key=b"warmup".ljust(KEY_SIZE), value=value))
        t0 = time.perf_counter()
        futs = [await p.send(TOPIC, key=b"%016d" % i, value=value) for i in range(n)]
        await asyncio.gather(*futs)
        seconds = time.perf_counter() - t0
        await p.stop()
        return {"seconds": seconds, "unflushed": 0}

    async def consume():
        c = aiokafka.AIOKafkaConsumer(
            bootstrap_servers=bs,
            enable_auto_commit=False,
            fetch_max_wait_ms=50,
            max_partition_fetch_bytes=8 << 20,
        )
        await c.start()
        t0 = time.perf_counter()
        tp = aiokafka.TopicPartition(TOPIC, 0)
        c.assign([tp])
        c.seek(tp, 0)
        got = 0
        loop = asyncio.get_running_loop()
        deadline = loop.time() + 120
        while got < n + 1 and loop.time() < deadline:
            for msgs in (await c.getmany(timeout_ms=500, max_records=100000)).values():
                got += len(msgs)
        seconds = time.perf_counter() - t0
        await c.stop()
        return {"seconds": seconds, "consumed": got - 1}

    return asyncio.run(asyncio.wait_for(produce() if job["op"] == "produce" else consume(), 180))


def _client_kafka_python(job: Dict[str, Any]) -> Dict[str, Any]:
    import kafka

    n, bs = job["records"], job["bootstrap"]
    value = b"v" * VALUE_SIZE
    if job["op"] == "produce":
        p = kafka.KafkaProducer(bootstrap_servers=bs, linger_ms=5, acks="all", batch_size=1 << 20)
        p.send(TOPIC, key=b"warmup".ljust(KEY_SIZE), value=value).get(30)
        t0 = time.perf_counter()
        for i in range(n):
            p.send(TOPIC, key=b"%016d" % i, value=value)
        p.flush(120)
        seconds = time.perf_counter() - t0
        p.close(5)
        return {"seconds": seconds, "unflushed": 0}
    c = kafka.KafkaConsumer(
        bootstrap_servers=bs,
        enable_auto_commit=False,
        fetch_max_wait_ms=50,
        max_partition_fetch_bytes=8 << 20,
    )
    t0 = time.perf_counter()
    tp = kafka.TopicPartition(TOPIC, 0)
    c.assign([tp])
    c.seek(tp, 0)
    got = 0
    deadline = time.monotonic() + 120
    while got < n + 1 and time.monotonic() < deadline:
        for msgs in c.poll(timeout_ms=500, max_records=100000).values():
            got += len(msgs)
    seconds = time.perf_counter() - t0
    c.close()
    return {"seconds": seconds, "consumed": got - 1}


CLIENTS = {"confluent": _client_confluent, "aiokafka": _client_aiokafka, "kafka-python": _client_kafka_python}


def _run_client(job: Dict[str, Any], timeout: float = 240) -> Dict[str, Any]:
    proc = subprocess.run(
        [sys.executable, __file__, "--client-job", json.dumps(job)],
        capture_output=True,
        text=True,
        timeout=timeout,
    )
    if proc.returncode != 0:
        raise RuntimeError(f"client failed:\n{proc.stderr[-3000:]}")
    return json.loads(proc.stdout.strip().splitlines()[-1])


# -- the broker side --------------------------------------------------------------------------


def _codec(stats, before, api: str) -> Dict[str, float]:
    key = {"Produce": 0, "Fetch": 1}[api]
    n = stats.count[key] - before["count"].get(key, 0)
    dec = stats.decode_ns[key] - before["decode"].get(key, 0)
    enc = stats.encode_ns[key] - before["encode"].get(key, 0)
    return {
        "requests": n,
        "decode_us": dec / max(n, 1) / 1000,
        "encode_us": enc / max(n, 1) / 1000,
        "total_ms": (dec + enc) / 1e6,
    }


def _snapshot(stats) -> Dict[str, Dict[int, int]]:
    return {"count": dict(stats.count), "decode": dict(stats.decode_ns), "encode": dict(stats.encode_ns)}


def run(client: str = "confluent", records: int = 200_000, backend: str = None) -> Dict[str, Any]:
    """One produce phase and one consume phase; returns the figures."""
    from kafkawire import _backend
    from kafkawire.broker import Broker

    backend = backend or _backend.BACKEND
    with _backend.use(backend):
        with Broker(num_partitions=1) as broker:
            job = {"bootstrap": broker.bootstrap_servers, "records": records}
            before = _snapshot(broker.stats)
            t0 = time.perf_counter()
            produced = _run_client({**job, "client": client, "op": "produce"})
            produce_wall = time.perf_counter() - t0
            produce_codec = _codec(broker.stats, before, "Produce")
            before = _snapshot(broker.stats)
            t0 = time.perf_counter()
            consumed = _run_client({**job, "client": client, "op": "consume"})
            consume_wall = time.perf_counter() - t0
            fetch_codec = _codec(broker.stats, before, "Fetch")
    assert consumed["consumed"] == records, consumed
    return {
        "client": client,
        "backend": backend,
        "records": records,
        "record_bytes": KEY_SIZE + VALUE_SIZE,
        "produce_records_per_s": round(records / produced["seconds"]),
        "consume_records_per_s": round(records / consumed["seconds"]),
        "produce": produce_codec,
        "fetch": fetch_codec,
        "produce_codec_share": round(produce_codec["total_ms"] / 1000 / produced["seconds"], 4),
        "consume_codec_share": round(fetch_codec["total_ms"] / 1000 / consumed["seconds"], 4),
        "client_process_wall_s": {"produce": round(produce_wall, 2), "consume": round(consume_wall, 2)},
    }


def main(argv=None) -> int:
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--client", default="confluent", choices=sorted(CLIENTS))
    p.add_argument("--records", type=int, default=200_000)
    p.add_argument("--backend", choices=("cython", "python"))
    p.add_argument("--client-job", help=argparse.SUPPRESS)
    args = p.parse_args(argv)
    if args.client_job:
        job = json.loads(args.client_job)
        print(json.dumps(CLIENTS[job["client"]](job)))
        return 0
    print(json.dumps(run(args.client, args.records, args.backend), indent=2))
    return 0


# -- pytest-benchmark entry ---------------------------------------------------------------------

try:
    import pytest
except ImportError:  # running as a script without pytest
    pytest = None

if pytest is not None and __name__ != "__main__":

    @pytest.mark.benchmark(group="broker-throughput")
    @pytest.mark.parametrize("client", ["confluent", "aiokafka"])
    def test_broker_throughput(benchmark, client):
        result = benchmark.pedantic(run, args=(client, 50_000), rounds=1, iterations=1)
        for k in (
            "produce_records_per_s",
            "consume_records_per_s",
            "produce_codec_share",
            "consume_codec_share",
        ):
            benchmark.extra_info[k] = result[k]
        benchmark.extra_info["produce_codec_us_per_request"] = round(
            result["produce"]["decode_us"] + result["produce"]["encode_us"], 1
        )
        benchmark.extra_info["fetch_codec_us_per_request"] = round(
            result["fetch"]["decode_us"] + result["fetch"]["encode_us"], 1
        )


if __name__ == "__main__":
    sys.exit(main())
