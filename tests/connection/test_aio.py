"""kafkawire.aio: the asyncio client connection against the test broker over real sockets."""

from __future__ import annotations

import asyncio
import re
import socket
from pathlib import Path

import pytest

from kafkawire import errors
from kafkawire.protocol import messages as M
from kafkawire.protocol import records as R
from kafkawire.aio import open_connection
from kafkawire.broker import Broker
from kafkawire.connection import ClientPhase

pytestmark = [pytest.mark.timeout(120), pytest.mark.in_process]


def topic_metadata(name: str):
    return M.MetadataRequest(topics=[M.MetadataRequest.MetadataRequestTopic(name=name)])


def produce(topic_id, value: bytes, acks: int):
    P = M.ProduceRequest
    return P(
        acks=acks,
        timeout_ms=5000,
        topic_data=[
            P.TopicProduceData(
                topic_id=topic_id,
                partition_data=[
                    P.PartitionProduceData(
                        index=0, records=R.encode_batch([{"key": None, "value": value, "timestamp": 1}])
                    )
                ],
            )
        ],
    )


@pytest.fixture
def broker():
    with Broker(num_partitions=1, check_roundtrip=True) as b:
        yield b
    assert b.roundtrip_failures == [] and b.handler_errors == []


def test_handshake_then_more_pipelined_requests_than_the_in_flight_bound(broker):
    async def main():
        async with await open_connection("127.0.0.1", broker.port, client_id="aio", timeout=30) as conn:
            assert conn.negotiated[3] == M.supported_versions(3).highest
            names = [f"topic-{i}" for i in range(12)]
            events = await asyncio.gather(*(conn.request(topic_metadata(n)) for n in names))
            assert [e.message.topics[0].name for e in events] == names
            assert len({e.correlation_id for e in events}) == 12
            assert conn.protocol.in_flight == 0
            # acks=0: written, never answered; the next request is answered as usual
            topic_id = events[0].message.topics[0].topic_id
            await conn.send(produce(topic_id, b"quiet", acks=0))
            ack = await conn.request(produce(topic_id, b"loud", acks=-1))
            assert ack.message.responses[0].partition_responses[0].base_offset == 1
            with pytest.raises(errors.ConnectionStateError, match="acks=0"):
                await conn.request(produce(topic_id, b"x", acks=0))

    asyncio.run(main())
    assert [r.value for r in broker.topic_records("topic-0")[0]] == [b"quiet", b"loud"]
    assert broker.versions_seen[18] == {M.supported_versions(18).highest}


def test_kip_511_fallback_to_the_brokers_api_versions_version():
    versions = {k: (lo, hi) for k, (lo, hi) in Broker().api_versions.items()}
    versions[18] = (0, 2)
    with Broker(api_versions=versions) as broker:

        async def main():
            async with await open_connection("127.0.0.1", broker.port) as conn:
                assert conn.negotiated[18] == 2
                assert (await conn.request(topic_metadata("t"))).message.topics[0].name == "t"

        asyncio.run(main())
        assert broker.versions_seen[18] == {2, M.supported_versions(18).highest}


def test_a_request_past_its_timeout_fails_and_the_late_answer_is_skipped(broker):
    async def main():
        async with await open_connection("127.0.0.1", broker.port) as conn:
            await conn.request(topic_metadata("slow"))
            F = M.FetchRequest
            # the broker holds this fetch for seconds: even a stalled loop sees the
            # request's timeout before the answer
            long_poll = F(
                max_wait_ms=5000,
                min_bytes=1 << 20,
                max_bytes=1 << 20,
                topics=[
                    F.FetchTopic(
                        topic="slow",
                        partitions=[
                            F.FetchPartition(partition=0, fetch_offset=0, partition_max_bytes=1 << 20)
                        ],
                    )
                ],
            )
            with pytest.raises(errors.RequestTimedOutError):
                await conn.request(long_poll, version=12, timeout=0.05)
            # the fetch's answer arrives later and is skipped; the connection goes on
            assert (await conn.request(topic_metadata("after"))).message.topics[0].name == "after"

    asyncio.run(main())


def test_a_dropped_connection_fails_every_waiting_request():
    broker = Broker(num_partitions=1).__enter__()
    try:

        async def main():
            conn = await open_connection("127.0.0.1", broker.port, timeout=30)
            F = M.FetchRequest
            waits = [
                F(
                    max_wait_ms=20000,
                    min_bytes=1 << 20,
                    max_bytes=1 << 20,
                    topics=[
                        F.FetchTopic(
                            topic="idle",
                            partitions=[
                                F.FetchPartition(partition=0, fetch_offset=0, partition_max_bytes=1 << 20)
                            ],
                        )
                    ],
                )
                for _ in range(3)
            ]
            await conn.request(topic_metadata("idle"))
            pending = [asyncio.ensure_future(conn.request(w, version=12)) for w in waits]
            while conn.protocol.in_flight < 3:
                await asyncio.sleep(0.01)
            await asyncio.get_running_loop().run_in_executor(None, broker.shutdown)
            results = await asyncio.gather(*pending, return_exceptions=True)
            assert all(isinstance(r, errors.ConnectionClosedError) for r in results), results
            with pytest.raises(errors.ConnectionClosedError):
                await conn.request(topic_metadata("idle"))
            await conn.close()

        asyncio.run(main())
    finally:
        broker.shutdown()


def test_connecting_to_a_closed_port_fails_within_the_timeout():
    with Broker() as broker:
        port = broker.port
    with pytest.raises(OSError):
        asyncio.run(open_connection("127.0.0.1", port, timeout=5))


def test_a_connect_that_outlasts_the_timeout_is_a_connect_timeout_error():
    # A listener whose accept queue is full: Linux drops further SYNs, so a connect
    # neither succeeds nor is refused until the client gives up.
    listener = socket.create_server(("127.0.0.1", 0), backlog=0)
    queued = []
    try:
        for _ in range(16):
            sock = socket.socket()
            queued.append(sock)
            sock.settimeout(1.0)
            try:
                sock.connect(listener.getsockname())
            except socket.timeout:
                break
        else:
            pytest.skip("this system does not leave a connect to a full accept queue hanging")
        port = listener.getsockname()[1]
        with pytest.raises(errors.ConnectTimeoutError, match=rf"127\.0\.0\.1:{port} .* 0\.2 s") as raised:
            asyncio.run(open_connection("127.0.0.1", port, timeout=0.2))
        assert isinstance(raised.value, TimeoutError) and isinstance(raised.value, errors.KafkaWireError)
    finally:
        for sock in queued:
            sock.close()
        listener.close()


def test_the_connections_page_runs_as_written(capsys):
    page = Path(__file__).resolve().parents[2] / "docs" / "codec" / "connections.md"
    blocks = re.findall(r"```python\n(.*?)```", page.read_text(encoding="utf-8"), re.S)
    assert len(blocks) == 2
    for block in blocks:
        exec(compile(block, str(page), "exec"), {"__name__": "readme"})
    out = capsys.readouterr().out.splitlines()
    assert out[:3] == ["1 a", "2 b", "3 c"]
    assert out[3].startswith("['t0', 't1', 't2', 't3', 't4', 't5', 't6', 't7'] Metadata v")


@pytest.mark.parametrize("handshake_version", [0, 1])
@pytest.mark.parametrize("mechanism", ["PLAIN", "SCRAM-SHA-256", "SCRAM-SHA-512"])
def test_open_connection_authenticates_then_pipelines(mechanism, handshake_version):
    async def main(port):
        async with await open_connection(
            "127.0.0.1",
            port,
            client_id="aio-sasl",
            timeout=30,
            sasl_mechanism=mechanism,
            sasl_username="alice",
            sasl_password="alice-secret",
            sasl_handshake_version=handshake_version,
        ) as conn:
            assert conn.authentication.mechanism == mechanism and conn.protocol.phase is ClientPhase.READY
            names = [f"sasl-{i}" for i in range(8)]
            events = await asyncio.gather(*(conn.request(topic_metadata(n)) for n in names))
            assert [e.message.topics[0].name for e in events] == names
        with pytest.raises(errors.SaslAuthenticationError):
            await open_connection(
                "127.0.0.1",
                port,
                timeout=30,
                sasl_mechanism=mechanism,
                sasl_username="alice",
                sasl_password="wrong",
                sasl_handshake_version=handshake_version,
            )

    with Broker(
        security_protocol="SASL_PLAINTEXT", users={"alice": "alice-secret"}, check_roundtrip=True
    ) as b:
        asyncio.run(main(b.port))
        assert [a[1:] for a in b.authentications] == [(mechanism, "alice"), (mechanism, None)]
        assert b.roundtrip_failures == [] and b.handler_errors == []


def test_authenticate_on_an_open_connection_and_reauthenticate():
    from kafkawire import sasl

    async def main(port):
        async with await open_connection("127.0.0.1", port, timeout=30) as conn:
            with pytest.raises(errors.SaslMechanismError, match="offers SCRAM-SHA-512"):
                await conn.authenticate(sasl.PlainClient("alice", "alice-secret"))
        async with await open_connection(
            "127.0.0.1", port, timeout=30, sasl=sasl.ScramClient("SCRAM-SHA-512", "alice", "alice-secret")
        ) as conn:
            first = conn.authentication
            again = await conn.authenticate(sasl.ScramClient("SCRAM-SHA-512", "alice", "alice-secret"))
            assert first.session_lifetime_ms == again.session_lifetime_ms == 600000
            assert (await conn.request(topic_metadata("after"))).message.topics[0].name == "after"

    with Broker(
        security_protocol="SASL_PLAINTEXT",
        users={"alice": "alice-secret"},
        sasl_mechanisms=["SCRAM-SHA-512"],
        session_lifetime_ms=600000,
    ) as b:
        asyncio.run(main(b.port))
        assert [a[1:] for a in b.authentications] == [("SCRAM-SHA-512", "alice")] * 2
