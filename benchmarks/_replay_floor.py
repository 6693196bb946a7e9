"""The replay floor of the Spark benchmarks: a trivial Python data source (``arrow-replay``)
that memory-maps Arrow IPC files and yields their batches as they are, one task a file.

What it costs Spark to take those rows is what any Python data source pays to hand Spark
rows already decoded; a source measured against it shows what its own reading and
decoding add.  Each benchmark writes the files from its source's own batches
(:func:`write_replay_file`) and registers :func:`replay_source` with that source's schema.
"""

from __future__ import annotations

import os
from typing import Iterable


def write_replay_file(path: str, schema, batches: Iterable) -> None:
    """Write ``batches`` (of Arrow ``schema``) as the IPC file ``path``: one task's rows."""
    import pyarrow as pa

    with pa.OSFile(path, "wb") as sink, pa.ipc.new_file(sink, schema) as w:
        for b in batches:
            w.write_batch(b)


def replay_source(schema):
    """The ``arrow-replay`` data source over files of Arrow ``schema``; ``load(dir)`` reads
    every file of ``dir`` (sorted, one partition each).  A user schema naming some of the
    columns gets those columns selected from each batch."""
    from pyspark.sql.datasource import DataSource, DataSourceReader, InputPartition

    from kafkawire.spark.ddl import spark_type

    # Built here, not at module level: Spark pickles the classes by value, so the
    # Python workers need not import this module.
    full_ddl = ", ".join(f"`{f.name}` {spark_type(f.type)}" for f in schema)
    full_names = list(schema.names)

    class ReplayReader(DataSourceReader):
        def __init__(self, path, columns):
            self.path = path
            self.columns = columns

        def partitions(self):
            return [InputPartition(os.path.join(self.path, n)) for n in sorted(os.listdir(self.path))]

        def read(self, partition):
            import pyarrow as pa

            with pa.memory_map(partition.value) as source:
                reader = pa.ipc.open_file(source)
                for i in range(reader.num_record_batches):
                    batch = reader.get_batch(i)
                    yield batch if self.columns is None else batch.select(self.columns)

    class ReplaySource(DataSource):
        @classmethod
        def name(cls):
            return "arrow-replay"

        def schema(self):
            return full_ddl

        def reader(self, schema):
            names = schema.fieldNames()
            return ReplayReader(self.options["path"], None if names == full_names else names)

    return ReplaySource
