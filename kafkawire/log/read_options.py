"""The options of a ``kafka-log`` read, checked and parsed, and the Arrow schema they
select (shared by :mod:`kafkawire.log.read` and the Spark data source)."""

from __future__ import annotations

import functools
from dataclasses import dataclass
from typing import (
    TYPE_CHECKING,
    Mapping,
    Optional,
    Tuple,
    Union,
)

from kafkawire.kafka_settings import ISOLATION_LEVELS
from kafkawire import datasource_options
from kafkawire.protocol.record_layout import spark_arrow_type
from kafkawire.log.storage import (
    LOCAL,
    LOCAL_OPEN_COST_BYTES,
    NO_STORAGE_OPTIONS,
    Store,
    StorageOptions,
)

if TYPE_CHECKING:
    import pyarrow


#: Spark's own default for ``spark.sql.files.maxPartitionBytes``.
DEFAULT_MAX_PARTITION_BYTES = 128 << 20
#: What opening one more local segment costs, in bytes read.  Spark's 4 MB default is
#: sized for files on a distributed store; a local segment opens in about the time it
#: takes to decode 128 KB of it, and the lower cost lets small segments share a task
#: (measured: 100 partitions of 256 KB segments on local[2] run in 2 tasks instead of
#: 33, 4x faster).  An object store's segments count their store's open cost
#: (:data:`kafkawire.log.storage.OBJECT_OPEN_COST_BYTES`) unless the option sets one.
DEFAULT_OPEN_COST_BYTES = LOCAL_OPEN_COST_BYTES
DEFAULT_CHUNK_BYTES = 4 << 20
MODES = ("FAILFAST", "PERMISSIVE", "DROPMALFORMED")
DEFAULT_CORRUPT_COLUMN = "_corrupt_record"


def byte_size(value: Union[str, int], name: str) -> int:
    """A byte size option: an integer, or with a k/m/g suffix (``128m``)."""
    if isinstance(value, int):
        return value
    text = str(value).strip().lower().rstrip("b")
    mult = {"k": 1 << 10, "m": 1 << 20, "g": 1 << 30}.get(text[-1:], 1)
    try:
        return int(text[:-1] if mult > 1 else text) * mult
    except ValueError:
        raise ValueError(
            f"option {name} must be a byte size such as 134217728 or 128m, not {value!r}"
        ) from None


def _positive(value: Union[str, int, None], name: str) -> Optional[int]:
    if value is None:
        return None
    try:
        n = int(value)
    except (TypeError, ValueError):
        n = 0
    if n < 1:
        raise ValueError(f"option {name} must be a positive integer, not {value!r}")
    return n


@dataclass(frozen=True)
class ReadOptions:
    """The ``kafka-log`` read options, parsed and checked once on the driver."""

    verify_crc: bool = True
    include_control: bool = False
    isolation_level: str = "read_uncommitted"
    mode: str = "FAILFAST"
    corrupt_column: str = DEFAULT_CORRUPT_COLUMN
    max_partition_bytes: int = DEFAULT_MAX_PARTITION_BYTES
    open_cost_bytes: Optional[int] = None  # None: the store's (see open_cost)
    min_partitions: Optional[int] = None  # None: the planning machine's core count
    chunk_bytes: int = DEFAULT_CHUNK_BYTES
    backend: Optional[str] = None
    #: tiered storage: where Kafka's file-based RemoteStorageManager (LocalTieredStorage)
    #: keeps the remote tier (its ``dir``), and the ``__remote_log_metadata`` log that
    #: says which remote segments to read (see :mod:`kafkawire.log.tiered`); both or neither
    remote_storage_path: Optional[str] = None
    remote_log_metadata_path: Optional[str] = None
    #: the columns to yield, in this order (None: all); set from the schema a query
    #: gives, since Spark passes Python data sources no pruned column list
    columns: Optional[Tuple[str, ...]] = None
    #: how to reach an object store (endpoint, credentials) for s3:// paths
    storage: StorageOptions = NO_STORAGE_OPTIONS

    def open_cost(self, store: Store = LOCAL) -> int:
        """What opening one file of ``store`` counts, in bytes, when tasks are planned:
        ``open_cost_bytes`` when set, else the store's own cost."""
        return store.open_cost_bytes if self.open_cost_bytes is None else self.open_cost_bytes

    def __post_init__(self) -> None:
        if self.isolation_level not in ISOLATION_LEVELS:
            raise ValueError(
                f"isolation_level must be one of {ISOLATION_LEVELS}, not {self.isolation_level!r}"
            )
        if self.mode not in MODES:
            raise ValueError(f"mode must be one of {MODES}, not {self.mode!r}")
        if self.backend not in (None, "cython", "python"):
            raise ValueError(f"backend must be 'cython' or 'python', not {self.backend!r}")
        if (self.remote_storage_path is None) != (self.remote_log_metadata_path is None):
            given, missing = (
                ("remoteStoragePath", "remoteLogMetadataPath")
                if self.remote_log_metadata_path is None
                else ("remoteLogMetadataPath", "remoteStoragePath")
            )
            raise ValueError(
                f"option {given} needs option {missing} too: the remote tier is read as the "
                "remote log metadata describes it"
            )

    @classmethod
    def parse(cls, options: Mapping[str, str], *, strict: bool = True) -> "ReadOptions":
        """From Spark's (case-insensitive) option map.  An option that is not a read
        option raises :class:`~kafkawire.errors.OptionError` naming it (``isolation_level`` for
        ``isolationLevel`` would read uncommitted data); ``strict=False`` ignores it, for
        the schema Spark asks of a write too."""
        if strict:
            datasource_options.check_names(options, "kafka-log", "read")
        opts = {str(k).lower(): v for k, v in options.items()}
        iso = str(opts.get("isolationlevel", "read_uncommitted")).lower()
        if iso not in ISOLATION_LEVELS:
            raise ValueError(f"option isolationLevel must be one of {ISOLATION_LEVELS}, not {iso!r}")
        mode = str(opts.get("mode", "FAILFAST")).upper()
        if mode not in MODES:
            raise ValueError(f"option mode must be one of {MODES}, not {mode!r}")
        backend = opts.get("backend")
        if backend is not None and backend not in ("cython", "python"):
            raise ValueError(f"option backend must be 'cython' or 'python', not {backend!r}")
        return cls(
            verify_crc=datasource_options.parse_bool(opts.get("verifycrc", True), "verifyCrc"),
            include_control=datasource_options.parse_bool(
                opts.get("includecontrol", False), "includeControl"
            ),
            isolation_level=iso,
            mode=mode,
            corrupt_column=opts.get("columnnameofcorruptrecord", DEFAULT_CORRUPT_COLUMN),
            max_partition_bytes=byte_size(
                opts.get("maxpartitionbytes", DEFAULT_MAX_PARTITION_BYTES), "maxPartitionBytes"
            ),
            open_cost_bytes=(
                None
                if opts.get("opencostinbytes") is None
                else byte_size(opts["opencostinbytes"], "openCostInBytes")
            ),
            min_partitions=_positive(opts.get("minpartitions"), "minPartitions"),
            chunk_bytes=byte_size(opts.get("chunkbytes", DEFAULT_CHUNK_BYTES), "chunkBytes"),
            backend=backend,
            storage=StorageOptions.parse(opts),
            remote_storage_path=opts.get("remotestoragepath"),
            remote_log_metadata_path=opts.get("remotelogmetadatapath"),
        )


#: The options of a read given none (frozen, so one value serves every call).
DEFAULT_READ_OPTIONS = ReadOptions()


# ---------------------------------------------------------------------------
# schema


def read_schema(options: Optional[ReadOptions] = None, *, pruned: bool = True) -> "pyarrow.Schema":
    """The Arrow schema of what :func:`~kafkawire.log.read.read_split` yields: ``topic``, ``partition``, the
    columns of :func:`kafkawire.protocol.records.to_arrow`, and in PERMISSIVE mode the corrupt
    record column; only ``options.columns`` of them when set (and ``pruned``).  Every
    field is nullable, as Spark's are."""
    return _read_schema(options, pruned)


@functools.lru_cache(maxsize=64)  # asked for once a split: a task may read a thousand
def _read_schema(options: Optional[ReadOptions], pruned: bool) -> "pyarrow.Schema":
    import pyarrow as pa

    from kafkawire.protocol import records

    fields = [pa.field("topic", pa.string()), pa.field("partition", pa.int32())]
    fields += [pa.field(f.name, spark_arrow_type(f.type)) for f in records.arrow_schema()]
    if options is not None and options.mode == "PERMISSIVE":
        fields.append(pa.field(options.corrupt_column, pa.string()))
    if options is None or options.columns is None or not pruned:
        return pa.schema(fields)
    by_name = {f.name: f for f in fields}
    for name in options.columns:
        if name not in by_name:
            raise ValueError(f"kafka-log has no column {name!r}; its columns are " + ", ".join(by_name))
    return pa.schema([by_name[name] for name in options.columns])


__all__ = [
    "DEFAULT_MAX_PARTITION_BYTES",
    "DEFAULT_OPEN_COST_BYTES",
    "DEFAULT_CHUNK_BYTES",
    "MODES",
    "DEFAULT_CORRUPT_COLUMN",
    "byte_size",
    "ReadOptions",
    "DEFAULT_READ_OPTIONS",
    "read_schema",
]


def __dir__() -> list[str]:  # what the module defines, not what it imports
    return sorted(__all__)
