"""What a Python user writes first works as they mean it: ``async with
open_connection(...)`` without an inner ``await``, ``compression=None`` for no
compression, ``read_all(path, isolation_level=...)``, ``help()`` of a message class
showing its fields, and ``dir()`` of a module showing what it defines, not its imports."""

from __future__ import annotations

import asyncio
import importlib
import inspect
import pydoc

import pytest

from kafkawire.protocol import records
from kafkawire.errors import EncodeError
from kafkawire.protocol.messages import MetadataRequest, MetadataResponse

pytestmark = pytest.mark.in_process


def test_async_with_open_connection_needs_no_await_inside():
    from kafkawire.aio import open_connection
    from kafkawire.broker import Broker

    async def talk(port: int):
        async with open_connection("127.0.0.1", port, client_id="conventions", timeout=10) as conn:
            response = await conn.request(MetadataRequest(topics=None))
            assert isinstance(response.message, MetadataResponse)
        assert conn._stream.is_closing()  # closed at the end of the block
        conn = await open_connection("127.0.0.1", port, timeout=10)  # awaited as before
        try:
            assert isinstance((await conn.request(MetadataRequest(topics=None))).message, MetadataResponse)
        finally:
            await conn.close()

    with Broker() as broker:
        asyncio.run(talk(broker.port))


def test_compression_none_is_no_compression():
    recs = [{"value": b"v", "timestamp": 1}]
    assert records.encode_batch(recs, compression=None) == records.encode_batch(recs, compression="none")
    (batch,) = records.iter_batches(records.encode_batch(recs, compression=None, magic=1))
    assert batch.compression == "none"
    with pytest.raises(EncodeError, match="unknown compression 'lz5'"):
        records.encode_batch(recs, compression="lz5")


def test_read_all_takes_options_as_keywords(tmp_path):
    pytest.importorskip("pyarrow")
    from kafkawire.log import read, read_options, sample

    log = sample.generate(str(tmp_path / "logs"))
    committed = read.read_all(log.directory, isolation_level="read_committed")
    assert committed.num_rows == len(log.records) - len(log.aborted)
    assert committed.equals(
        read.read_all(log.directory, read_options.ReadOptions(isolation_level="read_committed"))
    )
    with pytest.raises(TypeError, match="unknown option 'isolationLevel'"):
        read.read_all(log.directory, isolationLevel="read_committed")
    with pytest.raises(ValueError, match="isolation_level must be one of"):
        read.read_all(log.directory, isolation_level="read_comitted")


@pytest.mark.backend_independent
def test_help_of_a_message_class_shows_its_fields():
    params = inspect.signature(MetadataRequest).parameters
    assert list(params) == [
        "topics",
        "allow_auto_topic_creation",
        "include_cluster_authorized_operations",
        "include_topic_authorized_operations",
        "_unknown_tagged",
    ]
    assert params["allow_auto_topic_creation"].default is True
    text = pydoc.render_doc(MetadataRequest, renderer=pydoc.plaintext)
    assert "MetadataRequest(topics=[], allow_auto_topic_creation=True," in text
    assert "topics: []MetadataRequestTopic, versions 0+, nullable 1+, default []" in text
    assert "include_cluster_authorized_operations: bool, versions 8-10, default False" in text
    topic = MetadataRequest.MetadataRequestTopic
    assert "name: string, versions 0+, nullable 10+, default ''" in topic.__doc__
    assert MetadataRequest(topics=[{"name": "t"}]).topics == [topic(name="t")]  # still fast to make


@pytest.mark.backend_independent
@pytest.mark.parametrize(
    "name",
    [
        "kafkawire.log.read",
        "kafkawire.log.read_options",
        "kafkawire.log.planning",
        "kafkawire.log.transactions",
        "kafkawire.log.segments",
        "kafkawire.log.scan",
        "kafkawire.log.indexes",
        "kafkawire.log.write",
        "kafkawire.log.sample",
        "kafkawire.protocol.records",
        "kafkawire.errors",
        "kafkawire.protocol.compression",
        "kafkawire.protocol.framing",
        "kafkawire.protocol.requests",
        "kafkawire.protocol.headers",
        "kafkawire.protocol.primitives",
        "kafkawire.protocol.internal_topics",
        "kafkawire.cli.json_output",
        "kafkawire.cli.pcap",
        "kafkawire.aio",
        "kafkawire.cli.conversation",
    ],
)
def test_a_module_lists_what_it_defines_not_its_imports(name):
    module = importlib.import_module(name)
    listed = dir(module)
    assert listed == sorted(module.__all__)
    assert not {"os", "Any", "Optional", "annotations", "struct", "dataclass"} & set(listed)
    assert all(hasattr(module, n) for n in listed)
