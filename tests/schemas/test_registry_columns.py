"""The ``schema.registry.`` options of the sources (:mod:`kafkawire.spark.registry_columns`)
reach a registry that asks for credentials over TLS, as Confluent's clients' settings of
the same names do: confluent-kafka's own client registers the schema through the same
settings."""

from __future__ import annotations

import json

import pytest

from support.schema_registry import RegistryServer

pytest.importorskip("pyspark")
pytest.importorskip("pyarrow")
pytestmark = pytest.mark.backend_independent

KEY = {"type": "record", "name": "K", "fields": [{"name": "id", "type": "long"}]}


def test_credentials_and_tls_options_reach_the_registry(tmp_path):
    from confluent_kafka.schema_registry import Schema
    from confluent_kafka.schema_registry import SchemaRegistryClient as ConfluentClient

    from kafkawire.errors import OptionError, SchemaRegistryError
    from kafkawire.registry.client import clear_cache
    from kafkawire.spark.registry_columns import read_formats
    from support.tls_certs import make_pki

    clear_cache()
    pki = make_pki(tmp_path)
    with RegistryServer(certfile=pki.server_cert, keyfile=pki.server_key) as server:
        server.registry.basic = ("alice", "s3cret:x")
        confluent = ConfluentClient(
            {"url": server.url, "ssl.ca.location": pki.ca, "basic.auth.user.info": "alice:s3cret:x"}
        )
        sid = confluent.register_schema("t-value", Schema(json.dumps(KEY), "AVRO"))
        base = {"valueFormat": "avro", "schema.registry.url": server.url}
        tls = {**base, "schema.registry.ssl.ca.location": pki.ca}

        def formats(**options):
            return read_formats(options, lambda: ["t"])

        typed = formats(**tls, **{"schema.registry.basic.auth.user.info": "alice:s3cret:x"})
        assert typed.value.format.schema_id == sid and str(typed.value.arrow_type) == "struct<id: int64>"
        in_url = server.url.replace("https://", "https://alice:s3cret%3Ax@")
        by_url = formats(
            **{**tls, "schema.registry.url": in_url, "schema.registry.basic.auth.credentials.source": "URL"}
        )
        assert by_url.value.format.registry.urls == server.url  # the credentials out of the URL
        with pytest.raises(SchemaRegistryError, match="HTTP 401"):
            formats(**tls, **{"schema.registry.basic.auth.user.info": "alice:wrong"})
        with pytest.raises(SchemaRegistryError, match="CERTIFICATE_VERIFY_FAILED|certificate verify failed"):
            formats(**base, **{"schema.registry.basic.auth.user.info": "alice:s3cret:x"})
        server.registry.basic, server.registry.bearer = None, "token-1"
        assert (
            formats(**tls, **{"schema.registry.bearer.auth.token": "token-1"}).value.format.schema_id == sid
        )
        with pytest.raises(OptionError, match="user:secret"):
            formats(**tls, **{"schema.registry.basic.auth.user.info": "alice"})
        with pytest.raises(OptionError, match="not both"):
            formats(
                **tls,
                **{"schema.registry.basic.auth.user.info": "a:b", "schema.registry.bearer.auth.token": "t"},
            )
        with pytest.raises(OptionError, match="valueMessage names a Protobuf message"):
            formats(**tls, valueMessage="shop.Order")
