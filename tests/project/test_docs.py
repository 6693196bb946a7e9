"""The documentation site builds with every warning an error, and its generated pages say
what the code does: every subcommand's every argument, every data source option with
the default its parser applies, every API, the benchmark charts; the examples in the
documented modules' docstrings run (the README's and the docs/ pages' run in test_readme.py).
"""

from __future__ import annotations

import doctest
import importlib
import re
import subprocess
import sys
from pathlib import Path

import pytest
from conftest import subprocess_env

from kafkawire import datasource_options as options

pytestmark = [pytest.mark.backend_independent, pytest.mark.timeout(300), pytest.mark.in_process]

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT / "tools"))
import docs_site  # noqa: E402  (tools/, beside mkdocs.yml)


@pytest.fixture(scope="module")
def site(tmp_path_factory):
    pytest.importorskip("mkdocs")
    pytest.importorskip("mkdocstrings_handlers.python")
    pytest.importorskip("matplotlib")
    out = tmp_path_factory.mktemp("site")
    proc = subprocess.run(
        [sys.executable, "-m", "mkdocs", "build", "--strict", "--config-file", str(ROOT / "mkdocs.yml")]
        + ["--site-dir", str(out)],
        cwd=ROOT,
        env=subprocess_env(NO_MKDOCS_2_WARNING="1"),
        capture_output=True,
        text=True,
        timeout=240,
    )
    log = proc.stdout + proc.stderr
    assert proc.returncode == 0, log[-5000:]
    return out, log


def _text(page: Path) -> str:
    return re.sub(r"<[^>]+>", "", page.read_text(encoding="utf-8"))


def test_the_site_builds_in_strict_mode_without_a_warning(site):
    _, log = site
    assert not [line for line in log.splitlines() if "WARNING" in line or "ERROR" in line], log


def test_every_page_of_the_navigation_is_built(site):
    out, _ = site
    for page in (
        "index.html",
        "getting-started/index.html",
        "spark/kafka-cluster/index.html",
        "spark/kafka-log/index.html",
        "spark/functions/index.html",
        "codec/messages/index.html",
        "codec/records/index.html",
        "codec/connections/index.html",
        "codec/broker/index.html",
        "codec/errors/index.html",
        "command-line/index.html",
        "security/index.html",
        "performance/index.html",
        "testing/index.html",
        "development/index.html",
        "benchmarks/index.html",
        "changelog/index.html",
        "reference/cli/index.html",
        "reference/spark-options/index.html",
        "reference/messages/index.html",
    ):
        assert (out / page).exists(), page
    for name in docs_site.API_PAGES:
        assert (out / "reference" / "api" / name / "index.html").exists(), name


def test_the_api_reference_shows_the_public_names_and_their_docstrings(site):
    out, _ = site
    records = (out / "reference/api/records/index.html").read_text(encoding="utf-8")
    for name in ("encode_batch", "iter_batches", "to_arrow", "BatchBuilder", "codec_id"):
        assert (
            f'id="kafkawire.protocol.records.{name}"' in records
            or f'id="kafkawire.protocol.compression.{name}"' in records
        )
    errors = _text(out / "reference/api/errors/index.html")
    import kafkawire.errors

    for name in kafkawire.errors.__all__:
        assert name in errors, name
    assert ":func:" not in records and ":class:" not in records  # the roles became code


def test_the_cli_reference_has_every_argument_of_every_parser(site):
    out, _ = site
    from kafkawire import cli

    page = _text(out / "reference/cli/index.html")
    for name, (module, _) in cli.COMMANDS.items():
        parser = importlib.import_module(module)._parser()
        assert f"kafkawire {name}" in page
        for action in parser._actions:
            for flag in action.option_strings:
                if flag not in ("-h", "--help"):
                    assert flag in page, (name, flag)


def test_the_options_page_lists_every_option_with_its_default(site):
    out, _ = site
    page = _text(out / "reference/spark-options/index.html")
    for table, prefix in (
        (options.KAFKA_LOG_READ, ""),
        (options.KAFKA_LOG_WRITE, ""),
        (options.KAFKA_CLUSTER_READ, ""),
        (options.KAFKA_CLUSTER_WRITE, ""),
        (options.KAFKA_CLUSTER_CLIENT, "kafka."),
        (options.KAFKA_CLUSTER_READ_CLIENT, "kafka."),
        (options.KAFKA_CLUSTER_WRITE_CLIENT, "kafka."),
    ):
        for option in table:
            row = re.search(rf"\n{re.escape(prefix + option.name)}\n(.*)\n", page)
            assert row, option.name
            if option.default is not None:
                assert row.group(1) == option.default, option.name


def test_the_message_reference_has_every_definition_with_its_fields(site):
    out, _ = site
    from kafkawire.protocol.schema.catalog import CATALOG

    pages = "".join(p.read_text(encoding="utf-8") for p in (out / "reference/messages").rglob("*.html"))
    for name in CATALOG:
        assert f'id="{name.lower()}"' in pages, name
    metadata = _text(out / "reference/messages/api-3/index.html")
    assert "allow_auto_topic_creation\nbool\n4+" in metadata  # versions as the schema says
    assert "rack\nstring\n1+\n1+" in metadata  # and the versions it may be null in


def test_the_benchmark_charts_are_drawn_from_the_recorded_run(site):
    out, _ = site
    charts = sorted((out / "images/benchmarks").glob("*.png"))
    assert [p.name for p in charts] == sorted(name for _, name, _ in __import__("benchmark_charts").CHARTS)
    assert all(p.read_bytes().startswith(b"\x89PNG") for p in charts)
    page = (out / "benchmark-charts/index.html").read_text(encoding="utf-8")
    assert page.count("<img") == len(charts)


def test_the_chart_bars_compare_each_library_with_kafkawire_in_its_group():
    import benchmark_charts

    stats = {"min": 1, "mean": 1, "stddev": 0, "rounds": 1}
    results = [
        {"group": "g", "name": "test_decode_kafkawire[W1]", "stats": {**stats, "median": 2.0}},
        {"group": "g", "name": "test_decode_aiokafka[W1]", "stats": {**stats, "median": 5.0}},
        {"group": "h", "name": "test_decode_kafka_python", "stats": {**stats, "median": 1.0}},  # no kafkawire
    ]
    bars = benchmark_charts.bars(results)
    assert [(b.label, b.relative) for b in bars] == [("kafkawire", 1.0), ("aiokafka", 2.5)]


# -- the option tables are the parsers' --------------------------------------------------


def test_a_documented_kafka_log_read_default_means_what_leaving_it_out_means():
    from kafkawire.log.read_options import ReadOptions

    for option in options.KAFKA_LOG_READ:
        if option.default is not None:
            assert ReadOptions.parse({option.name: option.default}) == ReadOptions.parse({}), option.name


def test_a_documented_kafka_log_write_default_means_what_leaving_it_out_means():
    pytest.importorskip("pyspark")
    from kafkawire.spark.kafka_log import LogWriteOptions

    for option in options.KAFKA_LOG_WRITE:
        if option.default is not None:
            assert LogWriteOptions.parse({option.name: option.default}) == LogWriteOptions.parse({}), (
                option.name
            )


def test_a_documented_kafka_cluster_default_means_what_leaving_it_out_means():
    pytest.importorskip("pyspark")
    from kafkawire.cluster.plan import ClusterReadOptions
    from kafkawire.spark.kafka_cluster import ClusterWriteOptions

    base = {"kafka.bootstrap.servers": "127.0.0.1:9092", "subscribe": "t"}
    for table, prefix in (
        (options.KAFKA_CLUSTER_READ, ""),
        (options.KAFKA_CLUSTER_READ_CLIENT, "kafka."),
        (options.KAFKA_CLUSTER_CLIENT, "kafka."),
    ):
        for option in table:
            if option.default is not None:
                given = {**base, prefix + option.name: option.default}
                assert ClusterReadOptions.parse(given) == ClusterReadOptions.parse(base), option.name
    base = {"kafka.bootstrap.servers": "127.0.0.1:9092"}
    for option in options.KAFKA_CLUSTER_WRITE_CLIENT:
        if option.default is not None:
            given = {**base, "kafka." + option.name: option.default}
            assert ClusterWriteOptions.parse(given) == ClusterWriteOptions.parse(base), option.name


def test_an_option_not_in_the_tables_is_refused_by_every_parser():
    pytest.importorskip("pyspark")
    from kafkawire.cluster.plan import ClusterReadOptions as ClusterRead
    from kafkawire.log.read_options import ReadOptions as LogRead
    from kafkawire.spark.kafka_cluster import ClusterWriteOptions as ClusterWrite
    from kafkawire.spark.kafka_log import LogWriteOptions as LogWrite

    cluster = {"kafka.bootstrap.servers": "127.0.0.1:9092", "subscribe": "t"}
    for parse, given in (
        (LogRead.parse, {"isolation_level": "read_committed"}),
        (LogWrite.parse, {"segment_bytes": "1m"}),
        (ClusterRead.parse, {**cluster, "startingOffset": "earliest"}),
        (ClusterRead.parse, {**cluster, "kafka.isolation.levle": "read_committed"}),
        (ClusterWrite.parse, {"kafka.bootstrap.servers": "127.0.0.1:9092", "kafka.compression": "lz4"}),
    ):
        with pytest.raises(ValueError, match="option"):
            parse(given)


# -- the examples in the documented docstrings ---------------------------------------------


def _documented_modules():
    return sorted({m for _, modules in docs_site.API_PAGES.values() for m, _ in modules})


@pytest.mark.parametrize("module", _documented_modules())
def test_the_docstring_examples_of_the_documented_modules_run(module):
    if module.startswith("kafkawire.spark"):
        pytest.importorskip("pyspark")
    mod = importlib.import_module(module)
    finder = doctest.DocTestFinder(exclude_empty=True)
    runner = doctest.DocTestRunner(optionflags=doctest.ELLIPSIS)
    for test in finder.find(mod, module):
        runner.run(test)
    assert runner.failures == 0, f"{runner.failures} docstring example(s) of {module} failed"


def test_restructured_text_docstrings_become_the_markdown_that_renders_the_same():
    from docs_griffe import markdown_of

    text = "Read::\n\n    load(p)\n\nOptions:\n\n``mode`` (FAILFAST)\n    What a bad batch does.\n\n"
    text += "    An indented remark.\n\n>>> 1 + 1\n2\n\nSee :func:`kafkawire.protocol.records.to_arrow`."
    assert markdown_of(text).split("\n") == [
        "Read:",
        "",
        "```",
        "load(p)",
        "```",
        "",
        "Options:",
        "",
        "* ``mode`` (FAILFAST): What a bad batch does.",
        "",
        "An indented remark.",
        "",
        "```pycon",
        ">>> 1 + 1",
        "2",
        "```",
        "",
        "See ``kafkawire.protocol.records.to_arrow``.",
    ]
