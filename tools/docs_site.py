"""MkDocs hooks that generate the documentation site's reference pages while it builds
(``mkdocs.yml`` names this file): nothing in them is written by hand.

* ``index.md`` and ``changelog.md``: the README and the CHANGELOG, links to ``docs/``
  and the CHANGELOG made relative to the site;
* ``reference/api/*.md``: one page per area of the public API, each a list of
  mkdocstrings directives (``API_PAGES``), rendered from the docstrings and type hints;
* ``reference/messages/*.md``: every message class with each field's Kafka type, Python
  attribute, versions, nullable versions, tag and default, read from the schema plans;
* ``reference/cli.md``: every ``kafkawire`` subcommand, from its argparse parser;
* ``reference/spark-options.md``: the ``kafka-log`` and ``kafka-cluster`` options, from
  :mod:`kafkawire.datasource_options`;
* ``benchmark-charts.md`` and its images: drawn by ``tools/benchmark_charts.py`` from
  ``benchmarks/results/codec.json``.
"""

from __future__ import annotations

import argparse
import importlib
import json
import os
import re
import sys
import tempfile
from typing import TYPE_CHECKING, Any, Dict, Iterable, List, Sequence, Tuple

if TYPE_CHECKING:
    from mkdocs.structure.files import Files


ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))

#: the API reference: page -> (title, the modules it shows, with mkdocstrings options)
API_PAGES: Dict[str, Tuple[str, Sequence[Tuple[str, Dict[str, Any]]]]] = {
    "kafkawire": (
        "kafkawire: requests, responses, frames",
        [
            ("kafkawire", {}),
            ("kafkawire.protocol.requests", {}),
            ("kafkawire.protocol.framing", {}),
            ("kafkawire.protocol.headers", {}),
            ("kafkawire.protocol.primitives", {}),
        ],
    ),
    "messages": (
        "kafkawire.protocol.messages",
        [("kafkawire.protocol.messages", {"filters": ["!^_", "!^[A-Z][a-z]"]})],
    ),
    "records": (
        "kafkawire.protocol.records",
        [("kafkawire.protocol.records", {}), ("kafkawire.protocol.compression", {})],
    ),
    "errors": ("kafkawire.errors", [("kafkawire.errors", {}), ("kafkawire.protocol.error_codes", {})]),
    "connection": (
        "kafkawire.connection",
        [("kafkawire.connection", {}), ("kafkawire.connection.state", {})],
    ),
    "aio": ("kafkawire.aio", [("kafkawire.aio", {})]),
    "sasl": (
        "kafkawire.sasl",
        [("kafkawire.sasl", {}), ("kafkawire.sasl.oauth", {}), ("kafkawire.sasl.msk_iam", {})],
    ),
    "internal_topics": ("kafkawire.protocol.internal_topics", [("kafkawire.protocol.internal_topics", {})]),
    "captures": (
        "Captured traffic",
        [("kafkawire.cli.conversation", {}), ("kafkawire.cli.pcap", {})],
    ),
    "log": (
        "kafkawire.log",
        [
            ("kafkawire.log.read", {}),
            ("kafkawire.log.read_options", {}),
            ("kafkawire.log.planning", {}),
            ("kafkawire.log.transactions", {}),
            ("kafkawire.log.segments", {}),
            ("kafkawire.log.scan", {}),
            ("kafkawire.log.indexes", {}),
            ("kafkawire.log.write", {}),
            ("kafkawire.log.storage", {}),
            ("kafkawire.log.tiered", {}),
            ("kafkawire.log.sample", {}),
        ],
    ),
    "cluster": (
        "kafkawire.cluster",
        [
            ("kafkawire.cluster.config", {}),
            ("kafkawire.cluster.client", {}),
            ("kafkawire.cluster.plan", {}),
            ("kafkawire.cluster.fetch", {}),
            ("kafkawire.cluster.produce", {}),
        ],
    ),
    "schemas": (
        "kafkawire.registry, kafkawire.avro and kafkawire.protobuf: values with schemas",
        [
            ("kafkawire.registry.wire", {}),
            ("kafkawire.registry.client", {}),
            ("kafkawire.registry.strategies", {}),
            ("kafkawire.registry.avro", {}),
            ("kafkawire.registry.json_schema", {}),
            ("kafkawire.avro.decode", {}),
            ("kafkawire.avro.schema", {}),
            ("kafkawire.avro.resolve", {}),
            ("kafkawire.registry.protobuf", {}),
            ("kafkawire.protobuf.decode", {}),
            ("kafkawire.protobuf.schema", {}),
        ],
    ),
    "spark": (
        "kafkawire.spark",
        [
            ("kafkawire.spark", {}),
            ("kafkawire.spark.functions", {}),
            ("kafkawire.spark.kafka_log", {}),
            ("kafkawire.spark.kafka_cluster", {}),
        ],
    ),
    "broker": ("kafkawire.broker", [("kafkawire.broker", {}), ("kafkawire.broker.config", {})]),
}


def _markdown_cell(text: str) -> str:
    """``text`` fit for one cell of a Markdown table."""
    return " ".join(str(text).split()).replace("|", "\\|")


def _table(header: Sequence[str], rows: Iterable[Sequence[str]]) -> str:
    lines = ["| " + " | ".join(header) + " |", "|" + "---|" * len(header)]
    lines += ["| " + " | ".join(_markdown_cell(c) for c in row) + " |" for row in rows]
    return "\n".join(lines) + "\n"


# -- pages from the repository's own documents ---------------------------------------


def readme_page() -> str:
    """The README as the site's front page (its ``docs/`` and CHANGELOG links made
    site-relative)."""
    with open(os.path.join(ROOT, "README.md"), encoding="utf-8") as fh:
        text = fh.read()
    return re.sub(r"\]\(docs/", "](", text).replace("](CHANGELOG.md)", "](changelog.md)")


def changelog_page() -> str:
    with open(os.path.join(ROOT, "CHANGELOG.md"), encoding="utf-8") as fh:
        return fh.read()


# -- the API reference ------------------------------------------------------------------


def api_page(title: str, modules: Sequence[Tuple[str, Dict[str, Any]]]) -> str:
    out = [f"# {title}\n"]
    for module, options in modules:
        out.append(f"::: {module}")
        if options:
            out.append("    options:")
            out += [f"      {key}: {json.dumps(value)}" for key, value in options.items()]
        out.append("")
    return "\n".join(out)


# -- the message classes ------------------------------------------------------------------


def _kafka_type(field: Any) -> str:
    return field.type


def _default(field: Any) -> str:
    value, factory = field.default_value()
    if factory is list:
        return "[]"
    if factory is not None:
        return f"{field.struct.name}()"
    return repr(value)


def _struct_section(spec: Any, level: int) -> str:
    heading = "#" * level
    rows = []
    for f in spec.fields:
        kind = _kafka_type(f)
        if f.struct is not None:
            kind = f"[`{kind}`](#{f.struct.name.lower()})"
        else:
            kind = f"`{kind}`"
        rows.append(
            (
                f"`{f.attr}`",
                kind,
                str(f.versions),
                "" if f.nullable_versions.empty else str(f.nullable_versions),
                "" if f.tag is None else f"{f.tag} ({f.tagged_versions})",
                f"`{_default(f)}`",
            )
        )
    body = _table(("field", "Kafka type", "versions", "nullable", "tag (versions)", "default"), rows)
    return f"{heading} {spec.name}\n\n{body if rows else 'No fields.'}\n"


def _definition_section(name: str, level: int) -> str:
    from kafkawire.protocol import messages

    definition = messages.SPECS[name]
    what = definition.type + ("" if definition.api_key is None else f" {definition.api_key}")
    out = [
        f"{'#' * level} {name}\n\n`kafkawire.protocol.messages.{name}`: {what}, versions "
        f"{definition.valid_versions}, flexible versions {definition.flexible_versions}.\n",
        _struct_section(definition.top, level + 1).split("\n", 2)[2],
    ]
    out += [_struct_section(spec, level + 1) for spec in definition.nested]
    return "\n".join(out)


def message_pages() -> Dict[str, str]:
    """reference/messages/*.md: one page per API (its request and response), one per
    other group of definitions, and an index."""
    from kafkawire.protocol.schema.catalog import CATALOG

    pages: Dict[str, str] = {}
    apis: Dict[int, List[str]] = {}
    groups: Dict[str, List[str]] = {}
    for name, entry in CATALOG.items():
        if entry.type in ("request", "response"):
            apis.setdefault(entry.api_key, []).append(name)
        else:
            groups.setdefault(entry.type if entry.group == "messages" else entry.group, []).append(name)
    rows = []
    for key in sorted(apis):
        names = sorted(apis[key], key=lambda n: not n.endswith("Request"))
        page = f"api-{key}.md"
        title = names[0][: -len("Request")]
        pages[page] = f"# {title} (API key {key})\n\n" + "\n".join(_definition_section(n, 2) for n in names)
        entry = CATALOG[names[0]]
        rows.append((str(key), f"[{title}]({page})", entry.valid_versions, entry.flexible_versions))
    group_titles = {
        "header": "Request and response headers",
        "coordinator": "Coordinator records (__consumer_offsets, __transaction_state, __share_group_state)",
        "metadata": "KRaft metadata records (__cluster_metadata)",
        "raft": "Raft control records",
        "data": "Embedded data",
    }
    links = []
    for group, names in groups.items():
        page = f"{group}.md"
        title = group_titles.get(group, group)
        pages[page] = f"# {title}\n\n" + "\n".join(_definition_section(n, 2) for n in sorted(names))
        links.append(f"* [{title}]({page})")
    pages["index.md"] = (
        "# Message classes\n\n"
        "Every class of `kafkawire.protocol.messages`, as the schema of Kafka 4.4 defines it: each "
        "field's Python attribute, Kafka type, the versions it is on the wire, the versions "
        "in which it may be null, its tag when it is a tagged field, and the value it has "
        "when not given. Nested structs hang off their message class "
        "(`MetadataResponse.MetadataResponseTopic`).\n\n"
        "## Requests and responses\n\n"
        + _table(("API key", "API", "versions", "flexible versions"), rows)
        + "\n## Other definitions\n\n"
        + "\n".join(links)
        + "\n"
    )
    return pages


# -- the command line ----------------------------------------------------------------------


def _argument_rows(parser: argparse.ArgumentParser) -> List[Tuple[str, str, str, str]]:
    rows = []
    for action in parser._actions:
        if isinstance(action, argparse._HelpAction) or action.help == argparse.SUPPRESS:
            continue
        names = ", ".join(f"`{s}`" for s in action.option_strings) or f"`{action.dest}`"
        if action.choices:
            value = ", ".join(f"`{c}`" for c in action.choices)
        elif action.nargs == 0:
            value = ""
        else:
            metavar = action.metavar or action.dest.upper()
            value = " ".join(f"`{m}`" for m in (metavar if isinstance(metavar, tuple) else (metavar,)))
            if action.nargs in ("*", "+"):
                value += " ..."
        default = action.default
        shown = "" if default in (None, False, argparse.SUPPRESS) or action.nargs == 0 else f"`{default}`"
        rows.append((names, value, shown, (action.help or "").replace("%(default)s", str(default))))
    return rows


def cli_page() -> str:
    """reference/cli.md: each subcommand's usage, description and arguments, from the
    parser the command itself runs."""
    from kafkawire import cli

    out = [
        "# Command line\n",
        "`kafkawire COMMAND [ARGS...]`; `kafkawire --version` prints the version. An error is "
        f"one line on stderr; the exit status is {cli.USAGE_ERROR} when the command line is "
        f"wrong, {cli.DATA_ERROR} when the input, a file or the system is; `-v` adds the "
        "traceback.\n",
        _table(("command", "what it does"), [(f"[`{n}`](#{n})", h) for n, (_, h) in cli.COMMANDS.items()]),
    ]
    for name, (module_name, help_) in cli.COMMANDS.items():
        parser = importlib.import_module(module_name)._parser()
        usage = parser.format_usage().strip().removeprefix("usage: ")
        out.append(f"## {name}\n\n{help_[:1].upper() + help_[1:]}.\n\n```\n{usage}\n```\n")
        if parser.description:
            out.append(_escape_prose(parser.description.strip()) + "\n")
        out.append(_table(("argument", "value", "default", "meaning"), _argument_rows(parser)))
    return "\n".join(out)


def _escape_prose(text: str) -> str:
    """An argparse description as Markdown: its lines kept as they were written."""
    return "\n".join(f"    {line}" if line.startswith(" ") else line for line in text.splitlines())


# -- the Spark options ---------------------------------------------------------------------


def spark_options_page() -> str:
    """reference/spark-options.md, from :mod:`kafkawire.datasource_options`."""
    from kafkawire import datasource_options as o
    from kafkawire import kafka_settings as k

    def table(options: Sequence[Any], prefix: str = "") -> str:
        return _table(
            ("option", "default", "meaning"),
            [
                (f"`{prefix}{x.name}`", "" if x.default is None else f"`{x.default}`", x.meaning)
                for x in options
            ],
        )

    return "\n".join(
        [
            "# Spark options\n",
            "Options are given as `.option(name, value)` (names in any case). An option a data "
            "source does not take is an error naming it, with the option probably meant. "
            "A default is the value that means the same as leaving the option out.\n",
            "## kafka-log: read\n",
            '`spark.read.format("kafka-log").load(path)`: a log directory, a partition '
            "directory or segment globs.\n",
            table(o.KAFKA_LOG_READ),
            "## kafka-log: write\n",
            '`df.write.format("kafka-log").mode("overwrite" or "append").save(path)`.\n',
            table(o.KAFKA_LOG_WRITE),
            "## kafka-cluster: read\n",
            '`spark.read.format("kafka-cluster")` and `spark.readStream.format("kafka-cluster")`, '
            "with the names and meanings of Spark's Kafka connector.\n",
            table(o.KAFKA_CLUSTER_READ),
            "The consumer's settings:\n",
            table(o.KAFKA_CLUSTER_READ_CLIENT, "kafka."),
            "## kafka-cluster: write\n",
            '`df.write.format("kafka-cluster").mode("append").save()` and `df.writeStream`.\n',
            table(o.KAFKA_CLUSTER_WRITE),
            "The producer's settings:\n",
            table(o.KAFKA_CLUSTER_WRITE_CLIENT, "kafka."),
            "## kafka-cluster: the connection\n",
            "Reads and writes alike; Kafka's Java client defaults.\n",
            table(o.KAFKA_CLUSTER_CLIENT, "kafka."),
            "## kafka-cluster: every other setting of Kafka's clients\n",
            f"Every setting Kafka {k.KAFKA_VERSION}'s consumer (on a read) or producer (on a "
            "write) defines is taken, as Spark's connector hands them all to those clients. A "
            "setting of the other client (a producer setting on a read) is taken with a one-line "
            "warning, as Kafka's clients log one. A name that is no setting of Kafka's clients is "
            "an error that names the setting probably meant.\n",
            "These change nothing in `kafka-cluster`:\n",
            _table(
                ("setting", "why"),
                [(", ".join(f"`kafka.{n}`" for n in names), why) for why, names in k.NO_EFFECT],
            ),
            "Spark's connector refuses these itself; `kafka-cluster` refuses them with its words:\n",
            _table(
                ("setting", "on", "what the connector says"),
                [
                    (f"`kafka.{n}`", side, why)
                    for side, refused in k.CONNECTOR_REFUSES.items()
                    for n, why in refused.items()
                ],
            ),
            "These name Java code or a Java indirection; each is an error that says what to do instead:\n",
            _table(("setting", "why"), [(f"`kafka.{n}`", why) for n, why in k.NOT_RUN.items()]),
            "## kafka-cluster: options of other sources\n",
            "An option that is neither one of the tables above nor a `kafka.` setting is one "
            "Spark's connector ignores (`inferSchema`, `multiline`, `checkpointLocation` on "
            "a reader, `path`): `kafka-cluster` ignores it too, with a one-line warning naming it. "
            "A near miss of an option (`maxOffsetPerTrigger`, `startingOffset`) is an error that "
            "names the option meant, where the connector would quietly ignore it.\n",
        ]
    )


# -- the benchmark charts --------------------------------------------------------------------

RESULTS = os.path.join(ROOT, "benchmarks", "results", "codec.json")


def benchmark_pages(outdir: str) -> Tuple[str, List[str]]:
    """benchmark-charts.md and the images it shows, drawn into ``outdir``."""
    if os.path.join(ROOT, "tools") not in sys.path:
        sys.path.append(os.path.join(ROOT, "tools"))  # benchmark_charts, beside this file
    import benchmark_charts

    with open(RESULTS, encoding="utf-8") as fh:
        recorded = json.load(fh)
    charts = benchmark_charts.draw(recorded, outdir)
    machine = recorded["machine"]
    peers = ", ".join(f"{k} {v}" for k, v in recorded["versions"].items() if k != "kafkawire")
    out = [
        "# Benchmark charts\n",
        "Drawn by `tools/benchmark_charts.py` from the run recorded in "
        "`benchmarks/results/codec.json`: each bar is a library's median time relative to "
        "kafkawire's compiled backend in the same pytest-benchmark group, in the same run "
        "(log scale; below 1 is faster than kafkawire). How each workload is measured, and "
        "the floors: [benchmarks](benchmarks.md).\n",
        f"Run {recorded['datetime'][:16].replace('T', ' ')} UTC at commit "
        f"`{(recorded['commit'] or 'unknown')[:10]}` on {machine['cpu']} ({machine['cores']} "
        f"cores, shared with other work), Python {machine['python']}, {machine['system']}; "
        f"peers: {peers}.\n",
    ]
    for filename, title in charts:
        out.append(f"## {title}\n\n![{title}](images/benchmarks/{filename})\n")
    return "\n".join(out), [name for name, _ in charts]


# -- the hook -------------------------------------------------------------------------------

_charts_dir = tempfile.TemporaryDirectory(prefix="kafkawire-docs-charts-")


def generated_pages() -> Dict[str, str]:
    """Every generated Markdown page, by its path in the site's source."""
    pages = {"index.md": readme_page(), "changelog.md": changelog_page()}
    pages.update({f"reference/api/{k}.md": api_page(t, m) for k, (t, m) in API_PAGES.items()})
    pages.update({f"reference/messages/{k}": v for k, v in message_pages().items()})
    pages["reference/cli.md"] = cli_page()
    pages["reference/spark-options.md"] = spark_options_page()
    return pages


def on_files(files: "Files", config: Any) -> "Files":
    """Add the generated pages and the benchmark charts to the site's files."""
    from mkdocs.structure.files import File

    for path, text in generated_pages().items():
        files.append(File.generated(config, path, content=text))
    charts_page, images = benchmark_pages(_charts_dir.name)
    files.append(File.generated(config, "benchmark-charts.md", content=charts_page))
    for name in images:
        files.append(
            File.generated(
                config, f"images/benchmarks/{name}", abs_src_path=os.path.join(_charts_dir.name, name)
            )
        )
    return files
