"""The generated schema catalog, and message classes made on first use.

``kafkawire/protocol/schema/catalog.py`` is generated from ``schema/data`` by
``tools/build_schema_catalog.py``; these tests fail when it no longer matches the JSON,
and check that an import builds no message class but the two headers.
"""

from __future__ import annotations

import importlib.util
import json
import subprocess
import sys
from pathlib import Path

import pytest

from conftest import subprocess_env
from kafkawire.protocol import messages
from kafkawire.protocol.schema import DATA_DIR, catalog

pytestmark = pytest.mark.in_process

TOOL = Path(__file__).resolve().parents[2] / "tools" / "build_schema_catalog.py"


def _tool():
    spec = importlib.util.spec_from_file_location("build_schema_catalog", TOOL)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


@pytest.mark.backend_independent
def test_catalog_is_regenerated_from_the_json(backend):
    expected = _tool().render(DATA_DIR)
    actual = Path(catalog.__file__).read_text(encoding="utf-8")
    assert actual == expected, "schema/catalog.py is stale: run python tools/build_schema_catalog.py"


@pytest.mark.backend_independent
def test_catalog_entries_match_each_definition_file(backend):
    files = {p.relative_to(DATA_DIR).as_posix() for p in DATA_DIR.glob("*/*.json")}
    listed = set()
    for name, (group, filename, kind, api_key, valid, flexible) in catalog.CATALOG.items():
        raw = json.loads((DATA_DIR / group / filename).read_text(encoding="utf-8"))
        assert (raw["name"], raw["type"], raw.get("apiKey"), raw["validVersions"]) == (
            name,
            kind,
            api_key,
            valid,
        )
        assert raw.get("flexibleVersions", "none") == flexible
        listed.add(f"{group}/{filename}")
    assert listed == files


def test_every_class_agrees_with_its_catalog_entry(backend):
    for name, (group, _file, kind, api_key, valid, flexible) in catalog.CATALOG.items():
        cls = messages.CLASSES[name]
        assert cls is getattr(messages, name)
        assert (cls.__name__, cls.kind, cls.api_key) == (name, kind, api_key)
        assert (str(cls.valid_versions), str(cls.flexible_versions)) == (
            valid.replace(" ", ""),
            flexible.replace(" ", ""),
        )
        assert messages.SPECS[name].group == group


def _child(code: str, backend: str) -> str:
    env = subprocess_env(KAFKAWIRE_NO_EXTENSIONS="1" if backend == "python" else "0")
    done = subprocess.run([sys.executable, "-c", code], env=env, capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stderr
    return done.stdout.strip()


def test_import_builds_no_class_and_a_protocol_function_only_the_headers(backend):
    out = _child(
        "import kafkawire, kafkawire.protocol.messages as m; print(kafkawire.BACKEND, sorted(m._built)); "
        "kafkawire.encode_request; print(sorted(m._built))",
        backend,
    )
    assert out.splitlines() == [f"{backend} []", "['RequestHeader', 'ResponseHeader']"]


def test_a_class_is_built_once_when_threads_ask_for_it_together(backend):
    code = """
import threading
import kafkawire.protocol.messages as m
names = ["MetadataResponse", "FetchResponse", "OffsetCommitValue", "TopicRecord"]
barrier = threading.Barrier(8)
seen = []
def ask():
    barrier.wait()
    seen.append(tuple(id(getattr(m, n)) for n in names))
threads = [threading.Thread(target=ask) for _ in range(8)]
for t in threads: t.start()
for t in threads: t.join(60)
print(len(seen), len(set(seen)))
"""
    assert _child(code, backend) == "8 1"


def test_unknown_names_raise_the_usual_errors(backend):
    with pytest.raises(AttributeError):
        messages.NoSuchRequest  # noqa: B018
    with pytest.raises(KeyError):
        messages.CLASSES["NoSuchRequest"]
    assert "NoSuchRequest" not in messages.CLASSES
    assert "MetadataRequest" in dir(messages)
    assert sorted(messages.CLASSES) == sorted(catalog.CATALOG)


@pytest.mark.backend_independent
def test_api_key_enum_names_every_request_of_the_catalog(backend):
    requests = {e.api_key: name for name, e in catalog.CATALOG.items() if e.type == "request"}
    assert {int(k): k.name for k in catalog.ApiKey} == {key: catalog.ApiKey(key).name for key in requests}
    assert len(catalog.ApiKey) == len(requests) > 90
    for key, name in requests.items():
        # the request's name in upper snake case: FetchRequest is FETCH, ListOffsets LIST_OFFSETS
        assert name.removesuffix("Request").upper() == catalog.ApiKey(key).name.replace("_", "")
    assert catalog.ApiKey.API_VERSIONS == 18 and catalog.ApiKey.SASL_AUTHENTICATE == 36


@pytest.mark.kafka
@pytest.mark.backend_independent
def test_api_key_enum_equals_kafkas_api_keys(backend):
    """Kafka 4.4's own ``ApiKeys`` enum, asked through Java, has the same APIs under the
    same numbers and names (the retired ones, validVersions "none", included)."""
    from support.kafka import jars

    jars.require_kafka()
    java, classpath = jars.java_executable(), jars.classpath_string()
    source = Path(__file__).resolve().parents[1] / "support" / "kafka" / "KafkaApiKeys.java"
    proc = subprocess.run([java, "-cp", classpath, str(source)], capture_output=True, text=True, timeout=300)
    assert proc.returncode == 0, proc.stderr
    javas = {int(key): name for key, name in (line.split() for line in proc.stdout.splitlines())}
    assert len(javas) > 80
    assert {int(k): k.name for k in catalog.ApiKey} == javas
