"""The PLAIN option sets of docs/security-managed.md, as users copy them, against a real
Kafka 4.4 broker whose SASL_SSL listener knows credentials shaped as the services hand
them out: Azure Event Hubs' ``$ConnectionString`` user with a connection string for its
password (``;`` and ``=`` inside the quoted JAAS value), and a Confluent Cloud API key
and secret.  Only the bootstrap address and the trust store (the test CA is private)
differ from the page.  ``kafka-cluster`` reads the rows Spark's own connector reads with
the same options; a wrong secret is a SASL authentication error naming the broker.
"""

from __future__ import annotations

import base64
import random
import re
import secrets
import string
import uuid
from pathlib import Path

import pytest
from test_spark_kafka_cluster import create_topic, produce

pytestmark = [pytest.mark.kafka]

PAGE = Path(__file__).resolve().parents[2] / "docs" / "security-managed.md"
PLAIN_MODULE = "org.apache.kafka.common.security.plain.PlainLoginModule"


def _page_options(heading: str, **names: str) -> dict:
    """The ``options`` dict of the first Python block under ``heading``, evaluated with
    ``names`` (the credentials) in place of the page's own assignments of them."""
    text = PAGE.read_text()
    block = re.search(r"```py\n(.*?)```", text[text.index(heading) :], re.S).group(1)
    lines = [line for line in block.splitlines() if line.split(" = ")[0] not in names]
    source = "\n".join(lines) + "\n"
    source = source[: source.index("\n}\n") + 3]  # the dict; the page's read follows it
    scope = dict(names)
    exec(source, scope)
    return scope["options"]


def _event_hubs(connection: str) -> dict:
    return _page_options("### `$ConnectionString` over PLAIN", connection=connection)


def _confluent_cloud(api_key: str, api_secret: str) -> dict:
    return _page_options("## Confluent Cloud: PLAIN over SASL_SSL", api_key=api_key, api_secret=api_secret)


def _connection_string(rng: random.Random) -> str:
    key = base64.b64encode(rng.randbytes(32)).decode()  # 44 characters, ending in "="
    return f"Endpoint=sb://ns.servicebus.windows.net/;SharedAccessKeyName=k;SharedAccessKey={key}"


def _api_key(rng: random.Random) -> tuple:
    key = "".join(rng.choices(string.ascii_uppercase + string.digits, k=16))
    secret = base64.b64encode(rng.randbytes(48)).decode()  # 64 characters, may hold + and /
    return key, secret


RNG = random.Random(secrets.randbits(32))
CONNECTION = _connection_string(RNG)
API_KEY, API_SECRET = _api_key(RNG)


def _jaas_string(value: str) -> str:
    return '"' + value.replace("\\", "\\\\").replace('"', '\\"') + '"'


@pytest.fixture(scope="module")
def pki(tmp_path_factory):
    from support.tls_certs import make_pki

    return make_pki(tmp_path_factory.mktemp("pki"))


@pytest.fixture(scope="module")
def managed_kafka(pki):
    """A broker whose SASL_SSL PLAIN users are the two services' shapes of credential."""
    from support.kafka.jars import require_kafka

    require_kafka()
    from support.kafka.broker import start_broker

    users = {"$ConnectionString": CONNECTION, API_KEY: API_SECRET}
    jaas = (
        f"{PLAIN_MODULE} required " + " ".join(f"user_{n}={_jaas_string(p)}" for n, p in users.items()) + ";"
    )
    broker = start_broker(
        tls=(pki.server_cert, pki.server_key),
        extra_properties={"listener.name.sasl_ssl.plain.sasl.jaas.config": jaas},
    )
    try:
        yield broker
    finally:
        broker.stop()


@pytest.fixture(scope="module")
def managed_topic(managed_kafka):
    topic = f"kw-managed-{uuid.uuid4().hex[:8]}"
    create_topic(managed_kafka.bootstrap_servers, topic, 3)
    rng = random.Random(RNG.getrandbits(32))
    records = [
        (rng.randrange(3), rng.randbytes(rng.randrange(1, 20)), rng.randbytes(rng.randrange(200)), [])
        for _ in range(240)
    ]
    produce(managed_kafka.bootstrap_servers, topic, records)
    return topic


def _here(options: dict, broker, pki) -> dict:
    """The page's options with this broker's address and the test CA as trust store."""
    return {
        **options,
        "kafka.bootstrap.servers": f"{broker.host}:{broker.sasl_ssl_port}",
        "kafka.ssl.truststore.type": "PEM",
        "kafka.ssl.truststore.location": pki.ca,
    }


@pytest.mark.spark
@pytest.mark.timeout(300)
@pytest.mark.parametrize("service", ["event-hubs", "confluent-cloud"])
def test_the_pages_plain_option_sets_read_as_the_connector_does(
    spark_connector, managed_kafka, managed_topic, pki, backend, service
):
    from test_spark_kafka_cluster import same_as_connector

    page = _event_hubs(CONNECTION) if service == "event-hubs" else _confluent_cloud(API_KEY, API_SECRET)
    options = {**_here(page, managed_kafka, pki), "subscribe": managed_topic}
    assert len(same_as_connector(spark_connector, options, backend)) == 240


@pytest.mark.timeout(120)
@pytest.mark.parametrize("service", ["event-hubs", "confluent-cloud"])
def test_a_wrong_secret_is_a_sasl_authentication_error_naming_the_broker(
    managed_kafka, managed_topic, pki, backend, service
):
    from kafkawire.cluster.client import Cluster
    from kafkawire.cluster.plan import ClusterReadOptions, plan
    from kafkawire.errors import SaslAuthenticationError

    if service == "event-hubs":
        page = _event_hubs(_connection_string(random.Random(RNG.getrandbits(32))))
    else:
        page = _confluent_cloud(API_KEY, _api_key(random.Random(RNG.getrandbits(32)))[1])
    opts = ClusterReadOptions.parse({**_here(page, managed_kafka, pki), "subscribe": managed_topic})
    broker = f"{managed_kafka.host}:{managed_kafka.sasl_ssl_port}"
    with pytest.raises(SaslAuthenticationError, match=re.escape(broker)):
        with Cluster(opts.client) as cluster:
            plan(cluster, opts)
