"""The Schema Registry client against the test registry (tests/support/schema_registry.py),
whose schemas Confluent's own client (confluent-kafka's ``SchemaRegistryClient``)
registers: the REST exchange is checked by Confluent's code on one side."""

import json
import socket
import threading

import pytest

from kafkawire.errors import SchemaRegistryError, UnknownSchemaIdError
from kafkawire.registry import SchemaRegistryClient, strategy
from kafkawire.registry.client import clear_cache
from support.schema_registry import RegistryServer

pytestmark = [pytest.mark.in_process, pytest.mark.backend_independent]

confluent_sr = pytest.importorskip("confluent_kafka.schema_registry")

V1 = json.dumps(
    {"type": "record", "name": "User", "namespace": "ex", "fields": [{"name": "id", "type": "long"}]}
)
V2 = json.dumps(
    {
        "type": "record",
        "name": "User",
        "namespace": "ex",
        "fields": [{"name": "id", "type": "long"}, {"name": "name", "type": "string", "default": ""}],
    }
)


@pytest.fixture
def server():
    clear_cache()
    with RegistryServer() as s:
        yield s


def _confluent(url, **conf):
    return confluent_sr.SchemaRegistryClient({"url": url, **conf})


def test_schemas_registered_by_confluents_client_read_back(server):
    confluent = _confluent(server.url)
    id1 = confluent.register_schema("users-value", confluent_sr.Schema(V1, "AVRO"))
    id2 = confluent.register_schema("users-value", confluent_sr.Schema(V2, "AVRO"))
    client = SchemaRegistryClient(server.url)
    assert json.loads(client.schema_by_id(id1).schema) == json.loads(V1)
    assert client.schema_by_id(id2).schema_type == "AVRO"
    assert client.subject_versions("users-value") == [1, 2]
    latest = client.schema_version("users-value")
    assert (latest.schema_id, latest.version, latest.subject) == (id2, 2, "users-value")
    assert client.schema_version("users-value", 1).schema_id == id1
    assert client.subjects() == ["users-value"]


def test_schemas_registered_here_read_by_confluents_client(server):
    client = SchemaRegistryClient(server.url)
    sid = client.register("orders-value", V1)
    assert client.register("orders-value", V1) == sid  # the same schema keeps its id
    fetched = _confluent(server.url).get_schema(sid)
    assert json.loads(fetched.schema_str) == json.loads(V1)
    assert _confluent(server.url).get_latest_version("orders-value").schema_id == sid


def test_one_fetch_per_id_per_process(server):
    sid = SchemaRegistryClient(server.url).register("s", V1)
    clients = [SchemaRegistryClient(server.url) for _ in range(4)]
    threads = [threading.Thread(target=c.schema_by_id, args=(sid,)) for c in clients for _ in range(3)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert server.registry.requests[f"GET /schemas/ids/{sid}"] == 1


def test_unknown_id_is_its_own_error(server):
    with pytest.raises(UnknownSchemaIdError, match="schema id 77"):
        SchemaRegistryClient(server.url).schema_by_id(77)


def test_unknown_subject_is_not_retried(server):
    with pytest.raises(SchemaRegistryError) as info:
        SchemaRegistryClient(server.url, retries=5).schema_version("nope")
    assert (info.value.status, info.value.error_code) == (404, 40401)
    assert server.registry.requests["GET /subjects/nope/versions/latest"] == 1


def test_basic_auth(server):
    server.registry.basic = ("alice", "s3cret")
    confluent = _confluent(server.url, **{"basic.auth.user.info": "alice:s3cret"})
    sid = confluent.register_schema("s", confluent_sr.Schema(V1, "AVRO"))
    assert SchemaRegistryClient(server.url, basic_auth=("alice", "s3cret")).schema_by_id(sid).schema_id == sid
    with pytest.raises(SchemaRegistryError) as info:
        SchemaRegistryClient(server.url, basic_auth=("alice", "wrong")).subject_versions("s")
    assert info.value.status == 401


def test_bearer_token_fresh_per_request(server):
    server.registry.bearer = "tok-1"
    tokens = iter(["tok-1", "tok-1", "expired"])
    client = SchemaRegistryClient(server.url, bearer_token=lambda: next(tokens))
    sid = client.register("s", V1)
    assert client.subject_versions("s") == [1]
    with pytest.raises(SchemaRegistryError, match="401"):
        client.schema_version("s")
    assert sid == 1


def test_tls_with_the_callers_context(tmp_path):
    import ssl

    from support.tls_certs import make_pki

    clear_cache()
    pki = make_pki(tmp_path)
    with RegistryServer(certfile=pki.server_cert, keyfile=pki.server_key) as server:
        context = ssl.create_default_context(cafile=pki.ca)
        sid = _confluent(server.url, **{"ssl.ca.location": pki.ca}).register_schema(
            "s", confluent_sr.Schema(V1, "AVRO")
        )
        assert SchemaRegistryClient(server.url, ssl_context=context).schema_by_id(sid).schema_id == sid
        with pytest.raises(SchemaRegistryError, match="CERTIFICATE_VERIFY_FAILED|certificate verify failed"):
            SchemaRegistryClient(server.url, retries=0).subject_versions("s")


def test_retries_cure_unavailable_then_give_up(server):
    client = SchemaRegistryClient(server.url, retries=3, backoff=0.01)
    sid = client.register("s", V1)
    server.registry.fail_next = 2
    assert client.subject_versions("s") == [1]
    server.registry.fail_next = 10
    with pytest.raises(SchemaRegistryError, match="after 2 attempts.*503"):
        SchemaRegistryClient(server.url, retries=1, backoff=0.01).schema_by_id(sid)


def test_a_silent_server_times_out():
    listener = socket.socket()
    listener.bind(("127.0.0.1", 0))
    listener.listen(8)  # accepts, never answers
    try:
        url = f"http://127.0.0.1:{listener.getsockname()[1]}"
        with pytest.raises(SchemaRegistryError, match="after 2 attempts"):
            SchemaRegistryClient(url, timeout=0.3, retries=1, backoff=0.01).subject_versions("s")
    finally:
        listener.close()


def test_several_urls_are_tried_in_turn(server):
    dead = socket.socket()
    dead.bind(("127.0.0.1", 0))
    port = dead.getsockname()[1]
    dead.close()  # nothing listens there
    client = SchemaRegistryClient(f"http://127.0.0.1:{port},{server.url}", retries=1, backoff=0.01)
    assert client.register("s", V1) == 1


@pytest.mark.parametrize(
    "name, topic, is_key, record, subject",
    [
        ("topic", "orders", False, None, "orders-value"),
        ("TopicNameStrategy", "orders", True, None, "orders-key"),
        ("record", "orders", False, "ex.Order", "ex.Order"),
        ("topic-record", "orders", False, "ex.Order", "orders-ex.Order"),
    ],
)
def test_subject_name_strategies(name, topic, is_key, record, subject):
    assert strategy(name)(topic, is_key, record) == subject


def test_subject_name_strategies_agree_with_confluents():
    from confluent_kafka.serialization import MessageField, SerializationContext

    ctx = SerializationContext("orders", MessageField.VALUE)
    record = {"type": "record", "name": "Order", "namespace": "ex", "fields": []}
    assert strategy("topic")("orders", False, "ex.Order") == confluent_sr.topic_subject_name_strategy(
        ctx, "ex.Order"
    )
    assert strategy("record")("orders", False, "ex.Order") == confluent_sr.record_subject_name_strategy(
        ctx, "ex.Order"
    )
    assert strategy("topic-record")(
        "orders", False, "ex.Order"
    ) == confluent_sr.topic_record_subject_name_strategy(ctx, "ex.Order")
    assert record["name"] == "Order"
