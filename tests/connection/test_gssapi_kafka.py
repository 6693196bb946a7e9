"""SASL/GSSAPI (Kerberos) between kafkawire and the real Apache Kafka 4.4 broker, with a
real MIT KDC (``conftest_kerberos``): kafkawire's client authenticates to Kafka's
GSSAPI listener with a keytab or a ``kinit`` ticket cache, over SaslHandshake v1 and the
legacy v0 bare tokens and over SASL_SSL, re-authenticates (KIP-368), produces and
fetches; each Kerberos failure (a wrong service name, an expired ticket, a missing
keytab, a clock skew) is one :class:`~kafkawire.errors.SaslKerberosError` naming its
cause."""

from __future__ import annotations

import asyncio
import base64
import os
import shutil
import socket
import ssl
import struct
import time

import pytest

from kafkawire.protocol import messages as M
from kafkawire.protocol import records as R
from kafkawire import sasl
from kafkawire.aio import open_connection
from kafkawire.connection import ClientPhase
from kafkawire.protocol.error_codes import ErrorCode
from kafkawire.errors import SaslAuthenticationError, SaslKerberosError, for_code

from support.blocking_client import BlockingClient
from support.fixtures.kerberos import SERVICE_HOST

pytestmark = [pytest.mark.kafka, pytest.mark.kerberos, pytest.mark.timeout(300), pytest.mark.in_process]


def _connect(broker) -> BlockingClient:
    return BlockingClient((SERVICE_HOST, broker.sasl_port), timeout=60)


def _alice(kerberos, **kw) -> sasl.GssapiClient:
    return sasl.GssapiClient(SERVICE_HOST, principal=kerberos.alice, keytab=str(kerberos.alice_keytab), **kw)


def _create_topic(conn: BlockingClient, topic: str) -> None:
    CT = M.CreateTopicsRequest
    resp = conn.request(
        CT(
            topics=[CT.CreatableTopic(name=topic, num_partitions=1, replication_factor=1)],
            timeout_ms=30000,
        ),
        5,
    )
    assert resp.topics[0].error_code in (0, 36), resp
    # the new partition has a leader a moment after CreateTopics answers
    MR = M.MetadataRequest
    for _ in range(100):
        meta = conn.request(MR(topics=[MR.MetadataRequestTopic(name=topic)]), 12).topics[0]
        if meta.error_code == 0 and meta.partitions and meta.partitions[0].leader_id >= 0:
            return
        time.sleep(0.1)
    raise AssertionError(f"topic {topic} has no leader")


def _produce_then_fetch(conn: BlockingClient, topic: str, values) -> list:
    PR, FR = M.ProduceRequest, M.FetchRequest
    batch = R.encode_batch([{"value": v, "timestamp": 1700000000000} for v in values])
    request = PR(
        acks=-1,
        timeout_ms=30000,
        topic_data=[
            PR.TopicProduceData(name=topic, partition_data=[PR.PartitionProduceData(index=0, records=batch)])
        ],
    )
    # Metadata may name the leader before that broker has taken the partition over; on a
    # busy machine the first Produce can then get NOT_LEADER_OR_FOLLOWER, which a Kafka
    # producer retries
    for _ in range(100):
        error = conn.request(request, 9).responses[0].partition_responses[0].error_code
        if error != ErrorCode.NOT_LEADER_OR_FOLLOWER:
            break
        time.sleep(0.1)
    assert error == 0
    fetched = conn.request(
        FR(
            replica_id=-1,
            max_wait_ms=0,
            min_bytes=0,
            max_bytes=1 << 20,
            isolation_level=0,
            topics=[
                FR.FetchTopic(
                    topic=topic,
                    partitions=[FR.FetchPartition(partition=0, fetch_offset=0, partition_max_bytes=1 << 20)],
                )
            ],
        ),
        12,
    )
    part = fetched.responses[0].partitions[0]
    assert part.error_code == 0
    return [r.value for r in R.decode(part.records)]


@pytest.mark.parametrize("handshake_version", [0, 1])
def test_keytab_client_authenticates_produces_and_fetches(
    kerberos, kerberos_kafka, handshake_version, backend
):
    conn = _connect(kerberos_kafka)
    conn.negotiate()
    done = conn.authenticate(_alice(kerberos), handshake_version=handshake_version)
    assert (done.mechanism, done.handshake_version) == ("GSSAPI", handshake_version)
    assert "GSSAPI" in done.broker_mechanisms and conn.conn.phase is ClientPhase.READY
    topic = f"kerberized-{backend}-{handshake_version}"
    _create_topic(conn, topic)
    assert _produce_then_fetch(conn, topic, [b"one", b"two"]) == [b"one", b"two"]


def test_ticket_cache_client_and_reauthentication(kerberos, kerberos_kafka, tmp_path):
    """bob's ticket comes from kinit with his password; KIP-368: Kafka gives the session
    its connections.max.reauth.ms, and a fresh exchange on the same connection renews it."""
    cache = kerberos.ccache(kerberos.bob, tmp_path / "bob.ccache", password=kerberos.bob_password)
    conn = _connect(kerberos_kafka)
    conn.negotiate()
    first = conn.authenticate(sasl.GssapiClient(SERVICE_HOST, ccache=cache))
    assert first.session_lifetime_ms == 7200000
    again = conn.authenticate(sasl.GssapiClient(SERVICE_HOST, ccache=cache))
    assert again.session_lifetime_ms > 0
    assert conn.request(M.MetadataRequest(topics=None), 12).cluster_id == kerberos_kafka.cluster_id


def test_aio_client_with_the_kafka_client_settings(kerberos, kerberos_kafka):
    async def main():
        async with await open_connection(
            SERVICE_HOST,
            kerberos_kafka.sasl_port,
            sasl_mechanism="GSSAPI",
            sasl_kerberos_service_name="kafka",
            sasl_username=kerberos.alice,
            sasl_kerberos_keytab=str(kerberos.alice_keytab),
            timeout=60,
        ) as conn:
            assert conn.authentication.mechanism == "GSSAPI"
            events = await asyncio.gather(*(conn.request(M.MetadataRequest(topics=None)) for _ in range(4)))
            assert {e.message.cluster_id for e in events} == {kerberos_kafka.cluster_id}

    asyncio.run(main())


def test_sasl_ssl_listener(kerberos, kerberos_kafka):
    async def main():
        async with await open_connection(
            SERVICE_HOST,
            kerberos_kafka.sasl_ssl_port,
            ssl=ssl.create_default_context(cafile=kerberos_kafka.pki.ca),
            sasl_mechanism="GSSAPI",
            sasl_username=kerberos.alice,
            sasl_kerberos_keytab=str(kerberos.alice_keytab),
            timeout=60,
        ) as conn:
            assert conn.authentication.mechanism == "GSSAPI"
            event = await conn.request(M.MetadataRequest(topics=None))
            assert [(b.host, b.port) for b in event.message.brokers] == [
                (SERVICE_HOST, kerberos_kafka.sasl_ssl_port)
            ]

    asyncio.run(main())


@pytest.mark.backend_independent
def test_wrong_service_name_names_the_cause(kerberos, kerberos_kafka):
    conn = _connect(kerberos_kafka)
    with pytest.raises(SaslKerberosError, match="service principal.*sasl.kerberos.service.name"):
        conn.authenticate(_alice(kerberos, service_name="kafkaa"))


@pytest.mark.backend_independent
def test_expired_ticket_names_the_cause(kerberos, kerberos_kafka, tmp_path, backend):
    """A principal whose tickets live one second: its cached ticket has expired when used."""
    name = f"shortlived-{backend}"
    kerberos.kdc.add_principal(name, "shortlived-password", maxlife="1 second")
    cache = kerberos.ccache(name, tmp_path / "short.ccache", password="shortlived-password")
    time.sleep(2)
    conn = _connect(kerberos_kafka)
    with pytest.raises(SaslKerberosError, match="expired"):
        conn.authenticate(sasl.GssapiClient(SERVICE_HOST, ccache=cache))


def _skew(cache, seconds: int) -> None:
    """Record in a credential cache file (format 4) that the KDC's clock is ``seconds``
    ahead: MIT Kerberos then dates this client's requests by it, as on a host whose
    clock is that far behind."""
    raw = cache.read_bytes()
    version, header = struct.unpack(">HH", raw[:4])
    assert version == 0x0504, hex(version)
    delta = struct.pack(">HHii", 1, 8, seconds, 0)  # tag 1: the KDC time offset
    cache.write_bytes(struct.pack(">HH", version, len(delta)) + delta + raw[4 + header :])


@pytest.mark.backend_independent
def test_clock_skew_names_the_cause(kerberos, kerberos_kafka, tmp_path):
    path = tmp_path / "skewed.ccache"
    cache = kerberos.ccache(kerberos.bob, path, password=kerberos.bob_password)
    _skew(path, 3600)  # an hour: beyond the KDC's allowed skew (5 minutes)
    conn = _connect(kerberos_kafka)
    with pytest.raises(SaslKerberosError, match=r"clock skew"):
        conn.authenticate(sasl.GssapiClient(SERVICE_HOST, ccache=cache))


def _rewrite(path: str, text: str) -> None:
    """Replace a krb5.conf so that MIT Kerberos reads it again: it compares the file's
    modification time in whole seconds, and looks at most once a second."""
    before = os.stat(path).st_mtime
    with open(path, "w") as fh:
        fh.write(text)
    later = max(time.time(), before) + 2
    os.utime(path, (later, later))
    time.sleep(1.1)


@pytest.mark.backend_independent
def test_a_silent_kdc_is_an_error_within_the_timeout(kerberos, kerberos_kafka, tmp_path):
    """The realm's KDC accepts connections and never answers (krb5.conf pointed at a
    socket nobody reads): aio's open_connection gets no ticket and says so when its
    timeout ends, not when MIT Kerberos gives up."""
    keytab = tmp_path / "alice-again.keytab"  # a keytab of its own: no ticket cached yet
    shutil.copyfile(kerberos.alice_keytab, keytab)
    config = os.environ["KRB5_CONFIG"]
    original = open(config).read()
    with socket.socket() as silent:
        silent.bind(("127.0.0.1", 0))
        silent.listen(8)
        kdc = f"kdc = 127.0.0.1:{kerberos.kdc.port}"
        assert kdc in original
        try:
            _rewrite(config, original.replace(kdc, f"kdc = 127.0.0.1:{silent.getsockname()[1]}"))

            async def main():
                await open_connection(
                    SERVICE_HOST,
                    kerberos_kafka.sasl_port,
                    sasl_mechanism="GSSAPI",
                    sasl_username=kerberos.alice,
                    sasl_kerberos_keytab=str(keytab),
                    timeout=3,
                )

            with pytest.raises(SaslKerberosError, match=r"no Kerberos ticket within the 3 s timeout"):
                asyncio.run(main())
        finally:
            _rewrite(config, original)


@pytest.mark.backend_independent
def test_missing_keytab_names_the_path(kerberos, tmp_path):
    missing = tmp_path / "nowhere.keytab"
    with pytest.raises(SaslKerberosError, match="nowhere.keytab.*does not exist"):
        sasl.GssapiClient(SERVICE_HOST, principal=kerberos.alice, keytab=str(missing))


@pytest.fixture(scope="module")
def other_service(kerberos):
    """A service principal the KDC knows but the broker has no key for."""
    return kerberos.kdc.add_principal("kafka/otherhost")


def test_kafka_refuses_a_ticket_for_another_service(kerberos, kerberos_kafka, other_service):
    """A ticket for a service principal the broker has no key for: Kafka cannot decrypt
    it and refuses with its own message, for GSSAPI as for SCRAM."""
    conn = _connect(kerberos_kafka)
    with pytest.raises(SaslAuthenticationError) as info:
        conn.authenticate(
            sasl.GssapiClient("otherhost", principal=kerberos.alice, keytab=str(kerberos.alice_keytab))
        )
    assert "invalid credentials with SASL mechanism GSSAPI" in str(info.value)


def test_delegation_token_from_a_kerberos_session_then_scram_tokenauth(kerberos, kerberos_kafka):
    """alice, logged in with Kerberos, asks CreateDelegationToken; the token's id and
    HMAC (base64) then log in over SCRAM with tokenauth=true, as JAAS lines of Kafka's
    clients write it, and the connection is alice's token session: Kafka refuses
    delegation-token requests on it."""
    from kafkawire.cluster.config import ClientConfig

    kerberos_conn = _connect(kerberos_kafka)
    kerberos_conn.authenticate(_alice(kerberos))
    made = kerberos_conn.request(M.CreateDelegationTokenRequest(renewers=[], max_lifetime_ms=-1), 3)
    assert made.error_code == 0 and (made.principal_type, made.principal_name) == ("User", "alice")
    hmac = base64.b64encode(bytes(made.hmac)).decode()
    jaas = (
        "org.apache.kafka.common.security.scram.ScramLoginModule required "
        f'username="{made.token_id}" password="{hmac}" tokenauth="true";'
    )
    config = ClientConfig.parse(
        {
            "bootstrap.servers": f"{SERVICE_HOST}:{kerberos_kafka.sasl_port}",
            "security.protocol": "SASL_PLAINTEXT",
            "sasl.mechanism": "SCRAM-SHA-512",
            "sasl.jaas.config": jaas,
        }
    )
    # the token reaches the SASL listener through the metadata log: retry briefly
    for attempt in range(50):
        conn = _connect(kerberos_kafka)
        try:
            conn.authenticate(config.sasl_client(SERVICE_HOST))
            break
        except SaslAuthenticationError:
            conn.close()
            if attempt == 49:
                raise
            time.sleep(0.2)
    again = conn.request(M.CreateDelegationTokenRequest(renewers=[], max_lifetime_ms=-1), 3)
    assert for_code(again.error_code).name == "DELEGATION_TOKEN_REQUEST_NOT_ALLOWED"
    wrong = _connect(kerberos_kafka)
    with pytest.raises(SaslAuthenticationError):
        wrong.authenticate(sasl.ScramClient("SCRAM-SHA-512", made.token_id, "not-the-hmac", token_auth=True))
