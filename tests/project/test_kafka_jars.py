"""The Kafka release jars the reference tests use resolve, and are the release we name."""

from __future__ import annotations

import zipfile

import pytest

from support.kafka import jars

pytestmark = [pytest.mark.kafka, pytest.mark.backend_independent, pytest.mark.in_process]


def test_the_release_jars_resolve_at_the_pinned_version(backend):
    names = {p.name for p in jars.classpath()}
    for artifact in (
        "kafka_2.13",
        "kafka-clients",
        "kafka-metadata",
        "kafka-raft",
        "kafka-group-coordinator",
        "kafka-share-coordinator",
        "kafka-transaction-coordinator",
    ):
        assert f"{artifact}-{jars.KAFKA_VERSION}.jar" in names


def test_kafka_clients_reports_its_own_version(backend):
    with zipfile.ZipFile(jars.jar("kafka-clients")) as zf:
        props = zf.read("kafka/kafka-version.properties").decode()
    assert f"version={jars.KAFKA_VERSION}" in props


def test_a_random_cluster_id_never_reads_as_a_command_line_option(backend):
    from support.kafka.broker import _random_cluster_id

    ids = [_random_cluster_id() for _ in range(5000)]  # about 78 would start with "-"
    assert not any(i.startswith("-") for i in ids)
    assert all(len(i) == 22 for i in ids)
