"""kafkawire.aio over TLS: ``open_connection(..., ssl=, server_hostname=)`` on SSL and
SASL_SSL listeners of a real Kafka 4.4 broker (marker ``kafka``) and of the test broker,
then pipelined requests; and every way the TLS handshake can fail (a certificate from
another authority, a host name the certificate does not carry, a client certificate
missing or refused, a plaintext listener, a peer that never answers) is a
TlsHandshakeError within the connection's timeout."""

from __future__ import annotations

import asyncio
import re
import ssl
from pathlib import Path

import pytest

from kafkawire.protocol import messages as M
from kafkawire.aio import open_connection
from kafkawire.broker import Broker
from kafkawire.connection import ClientPhase
from kafkawire.errors import ConnectionClosedError, TlsHandshakeError
from support.tls_certs import make_pki

pytestmark = [pytest.mark.timeout(120), pytest.mark.in_process]

SCRAM = ["SCRAM-SHA-256", "SCRAM-SHA-512"]
USERS = {"alice": "alice-secret"}


@pytest.fixture(scope="module")
def pki(tmp_path_factory):
    return make_pki(tmp_path_factory.mktemp("pki"))


@pytest.fixture(scope="module")
def other_pki(tmp_path_factory):
    """A second certificate authority: a client that trusts only it must refuse the broker."""
    return make_pki(tmp_path_factory.mktemp("other-pki"))


def trusting(pki, client=None) -> ssl.SSLContext:
    """A context that trusts ``pki``'s authority (and shows ``client``'s certificate)."""
    context = ssl.create_default_context(cafile=pki.ca)
    if client is not None:
        context.load_cert_chain(client.client_cert, client.client_key)
    return context


def topic_metadata(name: str):
    return M.MetadataRequest(topics=[M.MetadataRequest.MetadataRequestTopic(name=name)])


async def pipelined_metadata(conn, count: int = 8):
    """``count`` Metadata requests at once (more than the 5 in flight): each answer matches."""
    names = [f"tls-{i}" for i in range(count)]
    events = await asyncio.gather(*(conn.request(topic_metadata(n)) for n in names))
    assert [e.message.topics[0].name for e in events] == names
    assert len({e.correlation_id for e in events}) == count
    assert conn.protocol.in_flight == 0
    return events


def refused(port: int, context, server_hostname=None, timeout: float = 20) -> TlsHandshakeError:
    async def main():
        await open_connection(
            "127.0.0.1", port, ssl=context, server_hostname=server_hostname, timeout=timeout
        )

    with pytest.raises(TlsHandshakeError) as info:
        asyncio.run(main())
    return info.value


# -- the real Kafka 4.4 broker ------------------------------------------------------------


@pytest.fixture(scope="module")
def kafka_tls(pki):
    """A Kafka broker of this module's own, listening on SSL (client certificates
    required) and SASL_SSL (none asked for) too."""
    from support.kafka.jars import require_kafka

    require_kafka()
    from support.kafka.broker import start_broker

    broker = start_broker(
        tls=(pki.server_cert, pki.server_key),
        extra_properties={
            "ssl.truststore.type": "PEM",
            "ssl.truststore.location": pki.ca,
            "listener.name.ssl.ssl.client.auth": "required",
        },
    )
    try:
        yield broker
    finally:
        broker.stop()


@pytest.mark.kafka
@pytest.mark.timeout(300)
def test_kafka_ssl_listener_then_pipelined_requests(kafka_tls, pki):
    async def main():
        async with await open_connection(
            "127.0.0.1", kafka_tls.ssl_port, ssl=trusting(pki, pki), client_id="aio-tls", timeout=60
        ) as conn:
            assert conn.negotiated[3] >= 12
            events = await pipelined_metadata(conn)
            assert events[0].message.cluster_id == kafka_tls.cluster_id
            # Kafka advertises the listener the request came in on
            assert [(b.host, b.port) for b in events[0].message.brokers] == [
                ("127.0.0.1", kafka_tls.ssl_port)
            ]

    asyncio.run(main())


@pytest.mark.kafka
@pytest.mark.timeout(300)
@pytest.mark.parametrize("mechanism", SCRAM)
def test_kafka_sasl_ssl_scram_then_pipelined_requests(kafka_tls, pki, mechanism):
    async def main():
        async with await open_connection(
            "localhost",
            kafka_tls.sasl_ssl_port,
            ssl=trusting(pki),
            timeout=60,
            sasl_mechanism=mechanism,
            sasl_username="alice",
            sasl_password=kafka_tls.users["alice"],
        ) as conn:
            assert conn.authentication.mechanism == mechanism
            assert conn.protocol.phase is ClientPhase.READY
            events = await pipelined_metadata(conn)
            assert [b.port for b in events[0].message.brokers] == [kafka_tls.sasl_ssl_port]

    asyncio.run(main())


@pytest.mark.kafka
@pytest.mark.timeout(300)
def test_kafka_certificate_from_another_authority_is_refused(kafka_tls, pki, other_pki):
    for port in (kafka_tls.ssl_port, kafka_tls.sasl_ssl_port):
        error = refused(port, trusting(other_pki, pki))
        assert "did not verify" in str(error) and isinstance(error.__cause__, ssl.SSLCertVerificationError)


@pytest.mark.kafka
@pytest.mark.timeout(300)
def test_kafka_certificate_for_another_host_name_is_refused(kafka_tls, pki):
    error = refused(kafka_tls.sasl_ssl_port, trusting(pki), server_hostname="kafka.example.com")
    assert "Hostname mismatch" in str(error) and "'kafka.example.com'" in str(error)


@pytest.mark.kafka
@pytest.mark.timeout(300)
def test_kafka_refuses_a_missing_or_untrusted_client_certificate(kafka_tls, pki, other_pki):
    """TLS 1.3: Kafka checks the client's certificate after the client's half of the
    handshake; its alert (or close) is still a TlsHandshakeError, before any request."""
    for context in (trusting(pki), trusting(pki, other_pki)):
        error = refused(kafka_tls.ssl_port, context)
        assert "before answering ApiVersions" in str(error)
        assert isinstance(error.__cause__, ConnectionClosedError)


@pytest.mark.kafka
@pytest.mark.timeout(300)
def test_kafka_plaintext_listener_spoken_to_in_tls_is_a_handshake_error(kafka_tls, pki):
    """Kafka reads the ClientHello as an absurd frame size and closes the connection."""
    refused(kafka_tls.port, trusting(pki))
    refused(kafka_tls.sasl_port, trusting(pki))


# -- the test broker (kafkawire serve) ------------------------------------------------------


def _tls_broker(protocol: str, pki, **extra) -> Broker:
    return Broker(
        security_protocol=protocol,
        users=USERS,
        ssl_certfile=pki.server_cert,
        ssl_keyfile=pki.server_key,
        check_roundtrip=True,
        **extra,
    )


def test_test_broker_ssl_then_pipelined_requests(pki):
    with _tls_broker("SSL", pki) as broker:

        async def main():
            async with await open_connection("127.0.0.1", broker.port, ssl=trusting(pki), timeout=30) as conn:
                await pipelined_metadata(conn)

        asyncio.run(main())
        assert broker.roundtrip_failures == [] and broker.handler_errors == []


def test_test_broker_ssl_with_a_client_certificate(pki, other_pki):
    with _tls_broker("SSL", pki, ssl_cafile=pki.ca) as broker:  # client certificates required

        async def main():
            async with await open_connection(
                "localhost", broker.port, ssl=trusting(pki, pki), timeout=30
            ) as conn:
                await pipelined_metadata(conn, 3)

        asyncio.run(main())
        for context in (trusting(pki), trusting(pki, other_pki)):  # none, or not trusted
            assert "before answering ApiVersions" in str(refused(broker.port, context))


@pytest.mark.parametrize("mechanism", SCRAM)
def test_test_broker_sasl_ssl_scram_then_pipelined_requests(pki, mechanism):
    with _tls_broker("SASL_SSL", pki) as broker:

        async def main():
            async with await open_connection(
                "127.0.0.1",
                broker.port,
                ssl=trusting(pki),
                server_hostname="localhost",
                timeout=30,
                sasl_mechanism=mechanism,
                sasl_username="alice",
                sasl_password=USERS["alice"],
            ) as conn:
                assert conn.authentication.mechanism == mechanism
                await pipelined_metadata(conn)

        asyncio.run(main())
        assert [(m, p) for _c, m, p in broker.authentications] == [(mechanism, "alice")]
        assert broker.roundtrip_failures == [] and broker.handler_errors == []


def test_test_broker_refuses_another_authority_and_another_host_name(pki, other_pki):
    with _tls_broker("SASL_SSL", pki) as broker:
        error = refused(broker.port, trusting(other_pki))
        assert "did not verify" in str(error) and "unable to get local issuer" in str(error)
        error = refused(broker.port, trusting(pki), server_hostname="kafka.example.com")
        assert "Hostname mismatch" in str(error)
        # ssl=True: the system's authorities, which do not include the test's own
        error = refused(broker.port, True)
        assert "did not verify" in str(error)
        assert broker.authentications == []


def test_tls_to_the_test_brokers_plaintext_listener_is_a_handshake_error(pki):
    with Broker() as broker:
        error = refused(broker.port, trusting(pki), timeout=5)
        assert isinstance(error, ConnectionClosedError)


def test_a_peer_that_never_answers_the_handshake_times_out(pki):
    async def main():
        accepted = []

        async def silent(reader, writer):  # reads the ClientHello, says nothing
            accepted.append(writer)
            await reader.read(65536)

        server = await asyncio.start_server(silent, "127.0.0.1", 0)
        port = server.sockets[0].getsockname()[1]
        try:
            with pytest.raises(TlsHandshakeError, match="did not finish within 2 s"):
                await open_connection("127.0.0.1", port, ssl=trusting(pki), timeout=2)
        finally:
            for writer in accepted:
                writer.close()
            server.close()
            await server.wait_closed()

    asyncio.run(main())


def test_tls_arguments_are_checked():
    async def main(**kw):
        await open_connection("127.0.0.1", 1, **kw)

    with pytest.raises(ValueError, match="server_hostname"):
        asyncio.run(main(server_hostname="localhost"))
    with pytest.raises(TypeError, match="ssl must be"):
        asyncio.run(main(ssl="yes"))


def test_the_security_pages_sasl_ssl_example_runs_as_written(capsys, tmp_path, monkeypatch):
    page = Path(__file__).resolve().parents[2] / "docs" / "security.md"
    blocks = re.findall(r"```python\n(.*?)```", page.read_text(encoding="utf-8"), re.S)
    (block,) = [b for b in blocks if "ssl=trust" in b]
    monkeypatch.setattr("tempfile.tempdir", str(tmp_path))
    exec(compile(block, str(page), "exec"), {"__name__": "readme"})
    assert capsys.readouterr().out.splitlines() == [
        "SCRAM-SHA-512 [True, True, True]",
        "TlsHandshakeError True",
    ]
