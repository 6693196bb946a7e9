"""The main job, ``kafkawire demo``, on the shared local SparkSession."""

from __future__ import annotations

import os

import pytest

from kafkawire.cli import demo
from kafkawire.log import sample

pytestmark = pytest.mark.spark


@pytest.mark.backends("cython")
def test_demo_prints_the_aggregates_of_the_sample_log(spark, tmp_path, capsys):
    figures = demo.run(str(tmp_path / "kafka-logs"), spark=spark)
    out = capsys.readouterr().out
    log = sample.generate(str(tmp_path / "again"))  # deterministic: the same records
    assert figures["removed_by_read_committed"] == len(log.aborted) > 0
    assert figures["committed"] == len(log.records) - len(log.aborted)
    assert {c for _t, c, *_ in figures["per_topic_compression"]} == set(sample.CODECS)
    assert sum(r[2] for r in figures["per_topic_compression"]) == len(log.records)
    assert figures["users_keys"] == 40
    for text in (
        "records per topic and compression",
        "what read_committed removed",
        "the compacted-looking topic 'users'",
        "orders",
        "payments",
    ):
        assert text in out
    assert "kafkawire backend: cython in the driver and the workers\n" in out
    assert not spark.sparkContext._jsc.sc().isStopped()  # the shared session lives on

    again = demo.run(str(tmp_path / "kafka-logs"), spark=spark, reuse=True)  # --reuse
    assert again == figures
    out = capsys.readouterr().out
    assert "reading the sample already in" in out and "what read_committed removed" in out
    assert set(os.listdir(tmp_path / "kafka-logs")) == {d.name for d in (tmp_path / "again").iterdir()}


def test_demo_command_is_wired(backend):
    from kafkawire import cli

    assert cli.COMMANDS["demo"][0] == "kafkawire.cli.demo"
    assert demo.main(["--help"]) == 0
