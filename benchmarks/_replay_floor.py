"""The replay floor of the Spark benchmarks: a trivial Python data source (``arrow-replay``)
that memory-maps Arrow IPC files and yields their batches as they are, one task a file.

What it costs Spark to take those rows is what any Python data source pays to hand Spark
rows already decoded; a source measured against it shows what its own reading and
decoding add.  Each benchmark writes the files from its source's own batches
(:func:`write_replay_file`) and registers :func:`replay_source` with that source's schema.

With the option ``fetch`` (JSON: the broker's ``host:port`` and, for each file, the
``[topic, partition, start, end]`` its rows came from) each task also fetches its range
from the broker, and yields a batch once the bytes of its offsets have arrived: the
transport floor.  The bytes are received into one reused buffer and only the Fetch
response's envelope and the batch headers are read, so this is the least a reader that
takes its records from a broker adds to the replay: the broker's serving, the socket,
the response's framing.  Decoding the records is what it leaves out.
"""

from __future__ import annotations

import json
import os
import sys
from typing import Iterable, Iterator

#: The Fetch version of the transport floor: the last that names topics (from v13 they go by id).
FETCH_VERSION = 12


def write_replay_file(path: str, schema, batches: Iterable) -> None:
    """Write ``batches`` (of Arrow ``schema``) as the IPC file ``path``: one task's rows."""
    import pyarrow as pa

    with pa.OSFile(path, "wb") as sink, pa.ipc.new_file(sink, schema) as w:
        for b in batches:
            w.write_batch(b)


def fetch_raw(
    address: str, topic: str, partition: int, start: int, end: int, partition_max_bytes: int = 1 << 20
) -> Iterator[int]:
    """Fetch offsets ``start``..``end`` of one partition from the broker at ``address``
    (its leader), as Spark's tasks do, keeping no record: yields the offset reached after
    each response."""
    import socket
    import struct

    from kafkawire.protocol import messages as M
    from kafkawire.protocol.requests import decode_response, encode_request
    from kafkawire.protocol.schema.catalog import ApiKey

    host, port = address.rsplit(":", 1)
    frame = bytearray(2 * partition_max_bytes)
    offset, correlation_id = start, 0
    with socket.create_connection((host, int(port)), timeout=30) as sock:
        while offset < end:
            correlation_id += 1
            request = M.FetchRequest(
                replica_id=-1,
                max_wait_ms=500,
                min_bytes=1,
                max_bytes=50 << 20,
                isolation_level=0,
                topics=[
                    M.FetchRequest.FetchTopic(
                        topic=topic,
                        partitions=[
                            M.FetchRequest.FetchPartition(
                                partition=partition,
                                fetch_offset=offset,
                                partition_max_bytes=partition_max_bytes,
                            )
                        ],
                    )
                ],
            )
            sock.sendall(encode_request(request, FETCH_VERSION, correlation_id, "transport-floor"))
            size = struct.unpack(">i", _receive(sock, memoryview(bytearray(4))))[0]
            if size > len(frame):
                frame = bytearray(size)
            _, response = decode_response(
                _receive(sock, memoryview(frame)[:size]), ApiKey.FETCH, FETCH_VERSION
            )
            (p,) = response.responses[0].partitions
            if p.error_code:
                raise RuntimeError(f"Fetch of {topic}-{partition} at {offset}: error {p.error_code}")
            records, pos, reached = p.records or b"", 0, offset
            while pos + 12 <= len(records):  # batch headers: base offset, length, ..., last offset delta
                base, length = struct.unpack_from(">qi", records, pos)
                if pos + 12 + length > len(records):
                    break  # cut off by the size limit
                reached = base + struct.unpack_from(">i", records, pos + 23)[0] + 1
                pos += 12 + length
            if reached <= offset:
                raise RuntimeError(f"Fetch of {topic}-{partition} at {offset}: no whole batch")
            offset = reached
            yield offset


def _receive(sock, view: memoryview) -> memoryview:
    """``view`` filled from ``sock``."""
    got = 0
    while got < view.nbytes:
        n = sock.recv_into(view[got:])
        if not n:
            raise ConnectionError("the broker closed the connection")
        got += n
    return view


def replay_source(schema):
    """The ``arrow-replay`` data source over files of Arrow ``schema``; ``load(dir)`` reads
    every file of ``dir`` (sorted, one partition each).  A user schema naming some of the
    columns gets those columns selected from each batch."""
    from pyspark.sql.datasource import DataSource, DataSourceReader, InputPartition

    from kafkawire.spark.ddl import spark_type

    # Built here, and this module's functions sent by value: the Python workers do not
    # have this directory on their path.
    from pyspark import cloudpickle

    cloudpickle.register_pickle_by_value(sys.modules[__name__])
    full_ddl = ", ".join(f"`{f.name}` {spark_type(f.type)}" for f in schema)
    full_names = list(schema.names)

    class ReplayReader(DataSourceReader):
        def __init__(self, path, columns, fetch):
            self.path = path
            self.columns = columns
            self.fetch = fetch

        def partitions(self):
            return [InputPartition(os.path.join(self.path, n)) for n in sorted(os.listdir(self.path))]

        def read(self, partition):
            import pyarrow as pa

            with pa.memory_map(partition.value) as source:
                reader = pa.ipc.open_file(source)
                batches = (reader.get_batch(i) for i in range(reader.num_record_batches))
                if self.fetch is not None:
                    batches = self._as_fetched(batches, os.path.basename(partition.value))
                for batch in batches:
                    yield batch if self.columns is None else batch.select(self.columns)

        def _as_fetched(self, batches, name):
            """``batches``, each once the bytes of its last offset are fetched."""
            topic, part, start, end = self.fetch["ranges"][name]
            reached = start
            fetched = fetch_raw(self.fetch["broker"], topic, part, start, end)
            for batch in batches:
                last = batch.column("offset")[-1].as_py()
                while reached <= last:
                    reached = next(fetched)
                yield batch
            for _ in fetched:  # the rest of the range, if the last batch ended before it
                pass

    class ReplaySource(DataSource):
        @classmethod
        def name(cls):
            return "arrow-replay"

        def schema(self):
            return full_ddl

        def reader(self, schema):
            names = schema.fieldNames()
            fetch = self.options.get("fetch")
            return ReplayReader(
                self.options["path"], None if names == full_names else names, fetch and json.loads(fetch)
            )

    return ReplaySource
