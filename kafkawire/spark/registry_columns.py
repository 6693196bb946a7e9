"""Keys and values framed by Confluent's serializers, decoded to typed columns: what
:func:`kafkawire.spark.functions.from_registry` and the ``keyFormat``/``valueFormat``
read options of ``kafka-log`` and ``kafka-cluster`` share.

On the driver, :func:`resolve` reads the reader schema from the registry, so the
column's Spark type is known when the query is planned, and pins it by its id: the
tasks decode by that id, and a version registered meanwhile changes nothing.  In the
tasks, :func:`decoder` gives each worker process one decoder per pinned format and
backend, which fetches each writer schema once; :func:`typed_batches` puts the decoded
struct columns in place of the binary ones in the Arrow batches a read yields.  A query's
schema whose value (or key) is a struct of some fields narrows the column to them
(:func:`narrowed`), its Avro reader schema too.
"""

from __future__ import annotations

import threading
from dataclasses import dataclass, field, replace
from typing import TYPE_CHECKING, Any, Callable, Dict, Iterator, List, Mapping, Optional, Sequence, Tuple

from kafkawire.datasource_options import COLUMN_FORMATS, nearest
from kafkawire.errors import (
    KafkaWireError,
    OptionError,
    SchemaFramingError,
    SchemaRegistryError,
    UnknownSchemaIdError,
)
from kafkawire.log.read_options import DEFAULT_CORRUPT_COLUMN, MODES

if TYPE_CHECKING:
    import pyarrow
    from pyspark.sql.types import StructType

    from kafkawire.registry.client import SchemaRegistryClient

#: the values of ``keyFormat`` and ``valueFormat``; ``binary`` leaves the bytes as they are
FORMATS = ("binary", "avro", "protobuf", "json", "registry")
#: the columns that say where a key or value was, for its errors
LOCATION = ("topic", "partition", "offset")
_CREDENTIAL_SOURCES = ("USER_INFO", "URL")


@dataclass(frozen=True)
class Registry:
    """How to reach a Schema Registry: hashable and picklable, so that the tasks make
    their client from it (and a worker's decoders are found by it)."""

    urls: str
    basic_auth: Optional[Tuple[str, str]] = field(default=None, repr=False)
    bearer_token: Optional[str] = field(default=None, repr=False)
    headers: Tuple[Tuple[str, str], ...] = ()
    ca_location: Optional[str] = None
    certificate_location: Optional[str] = None
    key_location: Optional[str] = None
    key_password: Optional[str] = field(default=None, repr=False)
    timeout: float = 10.0

    def client(self) -> "SchemaRegistryClient":
        """A client of the registry with these settings."""
        import ssl

        from kafkawire.registry.client import SchemaRegistryClient

        context = None
        if self.ca_location is not None or self.certificate_location is not None:
            context = ssl.create_default_context(cafile=self.ca_location)
            if self.certificate_location is not None:
                context.load_cert_chain(self.certificate_location, self.key_location, self.key_password)
        return SchemaRegistryClient(
            self.urls,
            basic_auth=self.basic_auth,
            bearer_token=self.bearer_token,
            headers=dict(self.headers),
            ssl_context=context,
            timeout=self.timeout,
        )

    @classmethod
    def parse(cls, opts: Mapping[str, str]) -> "Registry":
        """The ``schema.registry.`` options (keys lower case), as Confluent's clients name them."""
        from urllib.parse import unquote, urlsplit, urlunsplit

        urls = opts.get("schema.registry.url")
        if not urls:
            raise OptionError(
                "option keyFormat or valueFormat needs option schema.registry.url (the Schema Registry)"
            )
        basic: Optional[Tuple[str, str]] = None
        source = opts.get("schema.registry.basic.auth.credentials.source", "USER_INFO").upper()
        if source not in _CREDENTIAL_SOURCES:
            raise OptionError(
                f"option schema.registry.basic.auth.credentials.source: {source!r} is not one of "
                + ", ".join(_CREDENTIAL_SOURCES)
            )
        info = opts.get("schema.registry.basic.auth.user.info")
        if source == "URL":
            found, bare = set(), []
            for url in (u.strip() for u in urls.split(",") if u.strip()):
                parts = urlsplit(url)
                if parts.username is not None:
                    found.add((unquote(parts.username), unquote(parts.password or "")))
                bare.append(urlunsplit(parts._replace(netloc=parts.netloc.rpartition("@")[2])))
            if len(found) != 1:
                raise OptionError(
                    "option schema.registry.basic.auth.credentials.source URL takes the credentials "
                    "from the URLs (https://user:secret@host): give them there, the same in each"
                )
            basic, urls = found.pop(), ",".join(bare)
        elif info is not None:
            user, colon, secret = info.partition(":")
            if not colon:
                raise OptionError("option schema.registry.basic.auth.user.info is user:secret")
            basic = (user, secret)
        token = opts.get("schema.registry.bearer.auth.token")
        if basic is not None and token is not None:
            raise OptionError("give the registry basic credentials or a bearer token, not both")
        headers = tuple(
            (header, opts[key])
            for key, header in (
                ("schema.registry.bearer.auth.logical.cluster", "target-sr-cluster"),
                ("schema.registry.bearer.auth.identity.pool.id", "Confluent-Identity-Pool-Id"),
            )
            if opts.get(key)
        )
        raw_timeout = opts.get("schema.registry.timeout.ms", "10000")
        try:
            timeout_ms = int(raw_timeout)
        except ValueError:
            timeout_ms = 0
        if timeout_ms < 1:
            raise OptionError(f"option schema.registry.timeout.ms: {raw_timeout!r} is not a positive integer")
        return cls(
            urls=urls,
            basic_auth=basic,
            bearer_token=token,
            headers=headers,
            ca_location=opts.get("schema.registry.ssl.ca.location"),
            certificate_location=opts.get("schema.registry.ssl.certificate.location"),
            key_location=opts.get("schema.registry.ssl.key.location"),
            key_password=opts.get("schema.registry.ssl.key.password"),
            timeout=timeout_ms / 1000,
        )


@dataclass(frozen=True)
class ColumnFormat:
    """How one column (``key`` or ``value``) is decoded: its format (``avro``,
    ``protobuf``, ``json``, or ``registry``: the reader schema's type) and where its
    reader schema is: the registry's schema ``schema_id``, a ``version`` of ``subject``,
    or ``reader_schema`` text; ``message`` is the Protobuf message."""

    column: str
    format: str
    registry: Registry
    subject: Optional[str] = None
    version: str = "latest"
    schema_id: Optional[int] = None
    reader_schema: Optional[str] = None
    message: Optional[str] = None

    def decoder(self, backend: Optional[str] = None) -> Any:
        """A new decoder of this format (enums as strings, as Spark takes them)."""
        from kafkawire.registry import column_decoder
        from kafkawire.registry.avro import RegistryAvroDecoder
        from kafkawire.registry.json_schema import RegistryJsonDecoder
        from kafkawire.registry.protobuf import RegistryProtobufDecoder

        client = self.registry.client()
        where: Dict[str, Any] = {
            "subject": self.subject,
            "version": self.version,
            "reader_id": self.schema_id,
        }
        if self.format == "avro":
            return RegistryAvroDecoder(
                client, reader_schema=self.reader_schema, enums_as="string", backend=backend, **where
            )
        if self.format == "json":
            return RegistryJsonDecoder(client, reader_schema=self.reader_schema, backend=backend, **where)
        if self.format == "protobuf":
            return RegistryProtobufDecoder(client, message=self.message, backend=backend, **where)
        return column_decoder(client, enums_as="string", message=self.message, backend=backend, **where)


@dataclass(frozen=True)
class TypedColumn:
    """A column format pinned to its reader schema's id (or text), and the Arrow type
    (as Spark takes it) of its decoded column."""

    format: ColumnFormat
    arrow_type: Any

    @property
    def spark_ddl(self) -> str:
        from kafkawire.spark.avro_types import spark_ddl

        return spark_ddl(self.arrow_type)


def resolve(fmt: ColumnFormat) -> TypedColumn:
    """``fmt``'s reader schema read from the registry (on the driver): the format pinned
    to that schema's id, and the column's type.  A subject, version or schema id the
    registry does not have is a :class:`~kafkawire.errors.SchemaRegistryError` naming it."""
    from kafkawire.spark.avro_types import spark_compatible

    try:
        driver = fmt.decoder()
    except UnknownSchemaIdError as exc:
        raise SchemaRegistryError(f"the {fmt.column}s' reader schema: {exc.reason}", 404) from None
    except SchemaRegistryError as exc:
        if fmt.subject is None:
            raise
        raise SchemaRegistryError(
            f"the {fmt.column}s' reader schema, version {fmt.version} of subject {fmt.subject!r}: {exc}",
            exc.status,
            exc.error_code,
        ) from None
    pinned = replace(
        fmt,
        subject=None,
        version="latest",
        schema_id=driver.reader_id,
        message=getattr(driver, "message", fmt.message),
    )
    with _lock:  # the driver's decoder serves a driver that decodes too (a local session)
        _decoders.setdefault((pinned, None), driver)
    return TypedColumn(pinned, spark_compatible(driver.arrow_type))


# a process's decoders, by pinned format and backend: each writer schema compiled once per worker
_decoders: Dict[Tuple[ColumnFormat, Optional[str]], Any] = {}
_lock = threading.Lock()


def decoder(fmt: ColumnFormat, backend: Optional[str] = None) -> Any:
    """This process's decoder of the pinned format ``fmt`` on ``backend`` (None: the
    active one)."""
    with _lock:
        found = _decoders.get((fmt, backend))
        if found is None:
            found = _decoders[fmt, backend] = fmt.decoder(backend)
        return found


# ---------------------------------------------------------------------------
# the read options


@dataclass(frozen=True)
class Formats:
    """The decoded columns of a read (``key``, ``value``: None when left binary) and
    what a key or value that does not decode does (``mode``, ``corrupt_column``)."""

    key: Optional[TypedColumn]
    value: Optional[TypedColumn]
    mode: str = "FAILFAST"
    corrupt_column: str = DEFAULT_CORRUPT_COLUMN

    @property
    def columns(self) -> Dict[str, TypedColumn]:
        return {c.format.column: c for c in (self.key, self.value) if c is not None}


def _column_format(
    opts: Mapping[str, str],
    column: str,
    registry: Callable[[], Registry],
    topics: Callable[[], Optional[Sequence[str]]],
) -> Optional[ColumnFormat]:
    """The ``column``'s format from the options (keys lower case), its subject named."""
    kind = opts.get(f"{column}format", "binary").strip().lower()
    if kind not in FORMATS:
        raise OptionError(f"option {column}Format: {kind!r} is not one of {', '.join(FORMATS)}")
    ours = [o for o in COLUMN_FORMATS if o.name.startswith(column) and o.name != f"{column}Format"]
    given = {o.name: opts[o.name.lower()] for o in ours if o.name.lower() in opts}
    if kind == "binary":
        meant = sorted(o.name for o in ours if o.name in given and given[o.name] != o.default)
        if meant:
            raise OptionError(
                f"option {', '.join(meant)} needs option {column}Format (avro, protobuf, json or registry)"
            )
        return None
    sources = [n for n in (f"{column}Subject", f"{column}SchemaId", f"{column}ReaderSchema") if n in given]
    if len(sources) > 1:
        raise OptionError(f"options {' and '.join(sources)} each name the {column}s' reader schema: give one")
    reader_schema = given.get(f"{column}ReaderSchema")
    if reader_schema is not None and kind not in ("avro", "json"):
        raise OptionError(
            f"option {column}ReaderSchema is Avro ({column}Format avro) or JSON Schema (json) text, "
            f"not for {column}Format {kind}"
        )
    schema_id = None
    if f"{column}SchemaId" in given:
        schema_id = _number(given[f"{column}SchemaId"], f"{column}SchemaId", 0)
    version = given.get(f"{column}SchemaVersion", "latest").strip().lower()
    if version != "latest":
        version = str(_number(version, f"{column}SchemaVersion", 1))
    message = given.get(f"{column}Message")
    strategy_name = given.get(f"{column}SubjectStrategy", "topic")
    if message is not None and kind in ("avro", "json") and "record" not in strategy_name.lower():
        raise OptionError(
            f"option {column}Message names a Protobuf message, or the record whose subject the "
            f"record strategies name: not for {column}Format {kind} under the {strategy_name} strategy"
        )
    subject = given.get(f"{column}Subject")
    if not sources:
        subject = _subject(column, strategy_name, message, topics)
    return ColumnFormat(
        column,
        kind,
        registry(),
        subject=subject,
        version=version,
        schema_id=schema_id,
        reader_schema=reader_schema,
        message=message if kind in ("protobuf", "registry") else None,
    )


def _number(raw: str, name: str, minimum: int) -> int:
    try:
        n = int(raw)
    except ValueError:
        n = minimum - 1
    if n < minimum:
        raise OptionError(f"option {name}: {raw!r} is not an integer of at least {minimum}")
    return n


def _subject(
    column: str, strategy_name: str, record: Optional[str], topics: Callable[[], Optional[Sequence[str]]]
) -> str:
    """The subject the strategy names for the one topic read (and the record ``record``)."""
    from kafkawire.registry.strategies import STRATEGIES

    if strategy_name not in STRATEGIES:
        near = nearest(strategy_name, STRATEGIES, cutoff=0.6)
        raise OptionError(
            f"option {column}SubjectStrategy: {strategy_name!r} is not one of {', '.join(STRATEGIES)}"
            + (f" (did you mean {near!r}?)" if near else "")
        )
    strategy = STRATEGIES[strategy_name]
    by_record = strategy_name in ("record", "RecordNameStrategy")
    if by_record or strategy_name in ("topic-record", "TopicRecordNameStrategy"):
        if record is None:
            raise OptionError(
                f"option {column}SubjectStrategy {strategy_name} names the subject after the record: "
                f"give its full name in option {column}Message (or the subject in {column}Subject)"
            )
        if by_record:
            return strategy("", column == "key", record)
    read = topics()
    if read is None or len(read) != 1:
        what = "a pattern's topics" if read is None else f"{len(read)} topics ({', '.join(read)})"
        raise OptionError(
            f"the {column}s' subject is named after the topic, and this read covers {what}: "
            f"read one topic, or give option {column}Subject, {column}SchemaId or {column}ReaderSchema"
        )
    return strategy(read[0], column == "key", record)


def read_formats(
    options: Mapping[str, str], topics: Callable[[], Optional[Sequence[str]]]
) -> Optional[Formats]:
    """The ``keyFormat``/``valueFormat`` options of a read (any case), their reader
    schemas read from the registry: None when both columns stay binary.  ``topics()``
    gives the topics the read covers (None: not known, a pattern), for the subjects the
    topic strategies name."""
    opts = {str(k).lower(): str(v) for k, v in options.items()}
    registry: List[Registry] = []

    def once() -> Registry:
        if not registry:
            registry.append(Registry.parse(opts))
        return registry[0]

    key = _column_format(opts, "key", once, topics)
    value = _column_format(opts, "value", once, topics)
    if key is None and value is None:
        return None
    mode = opts.get("mode", "FAILFAST").strip().upper()
    if mode not in MODES:
        raise OptionError(f"option mode: {mode!r} is not one of {', '.join(MODES)}")
    return Formats(
        key=None if key is None else resolve(key),
        value=None if value is None else resolve(value),
        mode=mode,
        corrupt_column=opts.get("columnnameofcorruptrecord", DEFAULT_CORRUPT_COLUMN),
    )


def narrowed(formats: Optional[Formats], schema: Optional["StructType"]) -> Optional[Formats]:
    """``formats`` with each decoded column that the query's ``schema`` (given with
    ``spark.read.schema``) types as a struct narrowed to that struct's fields
    (:func:`narrow_column`); the other columns as they are."""
    import pyarrow as pa
    from pyspark.sql.pandas.types import to_arrow_schema

    if formats is None or schema is None:
        return formats
    wanted = to_arrow_schema(schema, timezone="UTC")

    def kept(typed: Optional[TypedColumn]) -> Optional[TypedColumn]:
        if typed is None or typed.format.column not in wanted.names:
            return typed
        given = wanted.field(typed.format.column).type
        if pa.types.is_struct(given) and pa.types.is_struct(typed.arrow_type):
            return narrow_column(typed, given)
        return typed  # another type: columns_of names it

    return replace(formats, key=kept(formats.key), value=kept(formats.value))


def narrow_column(typed: TypedColumn, wanted: "pyarrow.DataType") -> TypedColumn:
    """``typed`` narrowed to the fields of the struct type ``wanted``: an Avro column
    decodes by a reader schema of only those fields (the fields' types, defaults and
    names as the reader schema has them); a Protobuf or JSON one is decoded whole and
    cast to the narrowed type.  A field the reader schema lacks, or of another type, is
    an :class:`~kafkawire.errors.OptionError`."""
    import pyarrow as pa

    from kafkawire.avro.schema import parse
    from kafkawire.registry.avro import RegistryAvroDecoder, parse_registered
    from kafkawire.spark.projection import avro_json, narrow_avro, narrow_type

    fmt = typed.format
    arrow_type = narrow_type(typed.arrow_type, wanted, fmt.column)
    if arrow_type.equals(typed.arrow_type):
        return typed
    if not isinstance(decoder(fmt), RegistryAvroDecoder):
        try:  # pyarrow before 20 casts structs to their fields in their order only
            pa.array([], typed.arrow_type).cast(arrow_type)
        except (pa.ArrowInvalid, pa.ArrowNotImplementedError, pa.ArrowTypeError) as exc:
            raise OptionError(
                f"the schema's {fmt.column}: pyarrow {pa.__version__} cannot narrow it so ({exc}); "
                "give the fields in the reader schema's order"
            ) from None
        return TypedColumn(fmt, arrow_type)
    if fmt.reader_schema is not None:
        reader = parse(fmt.reader_schema)
    else:
        assert fmt.schema_id is not None  # resolve pinned it
        client = fmt.registry.client()
        reader = parse_registered(client, client.schema_by_id(fmt.schema_id))
    text = avro_json(narrow_avro(reader, typed.arrow_type, arrow_type, fmt.column))
    few = resolve(replace(fmt, format="avro", schema_id=None, reader_schema=text, message=None))
    if not few.arrow_type.equals(arrow_type):
        raise AssertionError(f"{fmt.column}: the narrowed reader schema decodes as {few.arrow_type}")
    return few


# ---------------------------------------------------------------------------
# schemas and batches


def typed_schema(schema: "pyarrow.Schema", formats: Optional[Formats]) -> "pyarrow.Schema":
    """A read's Arrow ``schema`` with its decoded columns' types, and in ``PERMISSIVE``
    mode the corrupt-record column (last, if not there)."""
    import pyarrow as pa

    if formats is None:
        return schema
    typed = formats.columns
    fields = [pa.field(f.name, typed[f.name].arrow_type) if f.name in typed else f for f in schema]
    if formats.mode == "PERMISSIVE" and formats.corrupt_column not in schema.names:
        fields.append(pa.field(formats.corrupt_column, pa.string()))
    return pa.schema(fields)


def ddl(schema: "pyarrow.Schema", formats: Optional[Formats]) -> str:
    """The Spark DDL of a read's ``schema`` typed by ``formats``."""
    from kafkawire.spark.ddl import spark_type

    typed = {} if formats is None else formats.columns
    return ", ".join(
        f"`{f.name}` {typed[f.name].spark_ddl if f.name in typed else spark_type(f.type)}"
        for f in typed_schema(schema, formats)
    )


def read_columns(wanted: Sequence[str], formats: Optional[Formats], source: Sequence[str]) -> Tuple[str, ...]:
    """The columns a read of ``source``'s columns yields for the ``wanted`` ones: a
    decoded column brings the columns that locate its errors."""
    names = [n for n in wanted if n in source]
    if formats is not None and any(n in formats.columns for n in names):
        names += [n for n in LOCATION if n not in names]
    return tuple(names)


class _Located(Sequence[Any]):
    """A column's values as Python values, one made when asked for (an error's place)."""

    def __init__(self, column: "pyarrow.Array") -> None:
        self.column = column

    def __len__(self) -> int:
        return len(self.column)

    def __getitem__(self, i: Any) -> Any:
        if isinstance(i, slice):
            return _Located(self.column[i])
        return self.column[i].as_py()


def _topic_runs(topics: "pyarrow.Array") -> List[Tuple[int, int]]:
    """``(start, end)`` of each run of one topic (a read's batch is mostly one)."""
    import pyarrow.compute as pc

    n = len(topics)
    if n < 2:
        return [(0, n)]
    changes = pc.indices_nonzero(pc.not_equal(topics.slice(1), topics.slice(0, n - 1))).to_pylist()
    starts = [0] + [c + 1 for c in changes]
    return list(zip(starts, starts[1:] + [n]))


def _decoded(
    batch: "pyarrow.RecordBatch", typed: TypedColumn, mode: str, backend: Optional[str]
) -> Tuple["pyarrow.Array", Optional["pyarrow.Array"]]:
    """The decoded column of ``batch`` and, unless in ``FAILFAST`` mode, why each row that
    did not decode did not (null for the others)."""
    import pyarrow as pa

    name = typed.format.column
    values = batch.column(name)
    topics = batch.column("topic")
    work = decoder(typed.format, backend)
    columns, reasons = [], []
    for start, end in _topic_runs(topics):
        where = {
            "topic": topics[start].as_py() if end > start else None,
            "partitions": _Located(batch.column("partition").slice(start, end - start)),
            "offsets": _Located(batch.column("offset").slice(start, end - start)),
        }
        run = values.slice(start, end - start)
        if mode == "FAILFAST":
            try:
                columns.append(work.decode(run, **where))
            except SchemaFramingError as exc:
                raise type(exc)(f"{name}: {exc.reason}", exc.topic, exc.partition, exc.offset) from None
        else:
            column, why = work.decode_permissive(run, **where)
            columns.append(column)
            reasons.append(why)
    whole = columns[0] if len(columns) == 1 else pa.concat_arrays(columns)
    why_all = None
    if reasons:
        why_all = reasons[0] if len(reasons) == 1 else pa.concat_arrays(reasons)
    return whole.cast(typed.arrow_type), why_all


def _with_prefix(reasons: "pyarrow.Array", prefix: str) -> "pyarrow.Array":
    import pyarrow as pa
    import pyarrow.compute as pc

    return pc.binary_join_element_wise(pa.scalar(prefix), reasons, "")


def _either(a: Optional["pyarrow.Array"], b: Optional["pyarrow.Array"]) -> Optional["pyarrow.Array"]:
    """``a`` and ``b`` joined by "; " where both are set, else whichever is."""
    import pyarrow.compute as pc

    if a is None or b is None:
        return a if b is None else b
    return pc.coalesce(pc.binary_join_element_wise(a, b, "; "), a, b)


def typed_batch(
    batch: "pyarrow.RecordBatch", formats: Formats, output: Sequence[str], backend: Optional[str]
) -> "pyarrow.RecordBatch":
    """``batch`` with its key and value decoded, as the columns ``output``."""
    import pyarrow as pa
    import pyarrow.compute as pc

    columns = {n: batch.column(i) for i, n in enumerate(batch.schema.names)}
    corrupt: Optional[pa.Array] = None
    for name, typed in formats.columns.items():
        if name not in columns:
            continue
        columns[name], why = _decoded(batch, typed, formats.mode, backend)
        if why is not None and why.null_count < len(why):
            corrupt = _either(corrupt, _with_prefix(why, f"{name}: "))
    if formats.mode == "DROPMALFORMED" and corrupt is not None:
        keep = pc.is_null(corrupt)
        return pa.RecordBatch.from_arrays([columns[n].filter(keep) for n in output], names=list(output))
    if formats.corrupt_column in output:
        earlier = columns.get(formats.corrupt_column)  # a corrupt batch's row, from kafka-log
        found = _either(earlier, corrupt)
        columns[formats.corrupt_column] = (
            found if found is not None else pa.nulls(batch.num_rows, pa.string())
        )
    return pa.RecordBatch.from_arrays([columns[n] for n in output], names=list(output))


def typed_batches(
    batches: Iterator["pyarrow.RecordBatch"], formats: Formats, output: Sequence[str], backend: Optional[str]
) -> Iterator["pyarrow.RecordBatch"]:
    """A read task's batches with their keys and values decoded (:func:`typed_batch`)."""
    for batch in batches:
        yield typed_batch(batch, formats, output, backend)


# ---------------------------------------------------------------------------
# writes


@dataclass(frozen=True)
class WriteFormat:
    """How one column (``key`` or ``value``) of a write is encoded: framed with the id
    of its schema under ``subject`` (or the one ``strategy`` names for ``topic``), as
    :func:`kafkawire.registry.column_encoder` takes them (``schema_type`` None: the type
    of ``schema``, else of the subject's latest version, else Avro).  A sink's formats
    are pinned on the driver (:func:`pinned`): ``schema`` is then the registry's text of
    the writer schema ``schema_id``, which every task frames its values with."""

    column: str
    registry: Registry
    subject: Optional[str]
    topic: Optional[str]
    strategy: str = "topic"
    auto_register: bool = True
    use_latest_version: bool = False
    schema: Optional[str] = None  # the writer schema (None: the subject's, or derived from the column)
    schema_type: Optional[str] = None
    message: Optional[str] = None  # a Protobuf schema's message (None: its first)
    schema_id: Optional[int] = None  # the writer schema's id, pinned on the driver

    def encoder(self) -> Any:
        """A new encoder of this format."""
        from kafkawire.registry import column_encoder

        made = column_encoder(
            self.registry.client(),
            schema_type=self.schema_type,
            subject=self.subject,
            topic=self.topic,
            is_key=self.column == "key",
            subject_strategy=self.strategy,
            schema=self.schema,
            message=self.message,
            auto_register=self.auto_register,
            use_latest_version=self.use_latest_version,
        )
        if self.schema_id is not None:  # the encoder frames with it and asks the registry nothing
            made.schema_id = self.schema_id
        return made


# a process's encoders: each asks the registry for its schema's id once per worker
_encoders: Dict[WriteFormat, Any] = {}


def encoder(fmt: WriteFormat) -> Any:
    """This process's encoder of ``fmt``."""
    with _lock:
        found = _encoders.get(fmt)
        if found is None:
            found = _encoders[fmt] = fmt.encoder()
        return found


#: the registry's schema type of each format a write takes (``registry``: the subject's)
_WRITE_TYPES = {"avro": "AVRO", "protobuf": "PROTOBUF", "json": "JSON", "registry": None}


def write_formats(options: Mapping[str, str]) -> Tuple[WriteFormat, ...]:
    """The ``keyFormat``/``valueFormat`` options of a write (any case): the struct
    columns written framed (none when both stay as they are), not yet pinned to their
    writer schemas (:func:`pinned`)."""
    from kafkawire.datasource_options import parse_bool
    from kafkawire.registry.strategies import STRATEGIES

    opts = {str(k).lower(): str(v) for k, v in options.items()}
    auto = parse_bool(opts.get("auto.register.schemas", "true"), "auto.register.schemas")
    latest = parse_bool(opts.get("use.latest.version", "false"), "use.latest.version")
    out: List[WriteFormat] = []
    for column in ("key", "value"):
        kind = opts.get(f"{column}format", "binary").strip().lower()
        if kind not in FORMATS:
            raise OptionError(f"option {column}Format: {kind!r} is not one of {', '.join(FORMATS)}")
        schema, message = opts.get(f"{column}writerschema"), opts.get(f"{column}message")
        if kind == "binary":
            meant = [f"{column}{n}" for n in ("WriterSchema", "Message") if f"{column}{n}".lower() in opts]
            if meant:
                raise OptionError(
                    f"option {', '.join(meant)} needs option {column}Format (avro, protobuf, json or registry)"
                )
            continue
        strategy = opts.get(f"{column}subjectstrategy", "topic")
        if strategy not in STRATEGIES:
            raise OptionError(
                f"option {column}SubjectStrategy: {strategy!r} is not one of {', '.join(STRATEGIES)}"
            )
        subject, topic = opts.get(f"{column}subject"), opts.get("topic")
        if subject is None and topic is None and strategy not in ("record", "RecordNameStrategy"):
            raise OptionError(
                f"the {column}s' subject is named after the topic: give option topic, or option "
                f"{column}Subject"
            )
        if auto and latest:
            raise OptionError(
                "option use.latest.version writes with a registered schema: set auto.register.schemas false"
            )
        if schema is not None and (latest or kind == "registry"):
            why = "use.latest.version" if latest else f"{column}Format registry"
            raise OptionError(
                f"option {column}WriterSchema and {why} each name the {column}s' writer schema: give one"
            )
        if message is not None and kind in ("avro", "json"):
            raise OptionError(
                f"option {column}Message names a Protobuf message, not for {column}Format {kind}"
            )
        out.append(
            WriteFormat(
                column,
                Registry.parse(opts),
                subject,
                topic,
                strategy,
                auto,
                latest,
                schema=schema,
                schema_type=_WRITE_TYPES[kind],
                message=message,
            )
        )
    return tuple(out)


def _latest(fmt: WriteFormat) -> Any:
    """The latest version under the subject of ``fmt`` (which must be named without the
    schema), or None when the subject has none."""
    subject = fmt.subject
    if subject is None and fmt.topic is not None and fmt.strategy in ("topic", "TopicNameStrategy"):
        from kafkawire.registry.strategies import strategy

        subject = strategy("topic")(fmt.topic, fmt.column == "key", None)
    if subject is None:
        raise OptionError(
            f"the {fmt.column}s' writer schema is the subject's latest version, and the "
            f"{fmt.strategy} strategy names it after the schema: give option {fmt.column}Subject "
            f"or {fmt.column}WriterSchema"
        )
    try:
        return fmt.registry.client().schema_version(subject)
    except SchemaRegistryError as exc:
        if exc.status != 404:
            raise
        return None


def pinned(fmt: WriteFormat, column_type: "pyarrow.DataType") -> WriteFormat:
    """``fmt`` pinned on the driver, for a column of ``column_type``: its writer schema
    registered (``auto.register.schemas``) or looked up once, the column's type checked
    against it (a :class:`~kafkawire.errors.SchemaResolutionError` naming the field), and
    its id and text kept for the tasks, which so all frame with one id however the
    subject changes meanwhile."""
    import pyarrow as pa

    from kafkawire.errors import SchemaResolutionError

    where = f"the {fmt.column}s"
    if fmt.schema is None and (fmt.schema_type != "AVRO" or fmt.use_latest_version):
        latest = _latest(fmt)
        if latest is None:
            raise OptionError(
                f"{where}' writer schema is the latest version of their subject, which has none: "
                f"give option {fmt.column}WriterSchema"
                + (" (or set use.latest.version false to derive it)" if fmt.schema_type == "AVRO" else "")
            )
        if fmt.schema_type is None:
            fmt = replace(fmt, schema_type=latest.schema_type)
        elif latest.schema_type != fmt.schema_type:
            raise OptionError(
                f"{where}' subject's latest version is {latest.schema_type}, not {fmt.column}Format "
                f"{fmt.schema_type.lower()}"
            )
    if not pa.types.is_struct(column_type):
        raise SchemaResolutionError(
            f"{where}: {fmt.schema_type} is written from a struct column, not {column_type}"
        )
    try:
        made = fmt.encoder()
        if fmt.schema_type == "JSON":
            _check_json(column_type, made.layout.arrow_type, "")
        made.encode(pa.array([], column_type))  # checks the type, and has the id registered or found
    except SchemaResolutionError as exc:
        raise SchemaResolutionError(f"{where}: {exc}") from None
    except KafkaWireError:
        raise
    except ValueError as exc:  # an encoder's check of its arguments
        raise OptionError(f"{where}: {exc}") from None
    registered = fmt.registry.client().schema_by_id(made.schema_id)
    if registered.references:
        raise OptionError(
            f"{where}' writer schema (id {made.schema_id}) references other schemas: not yet written by a sink"
        )
    return replace(
        fmt,
        subject=made.subject,
        auto_register=False,
        use_latest_version=False,
        schema=registered.schema,
        schema_type=registered.schema_type,
        message=getattr(made, "message", None),
        schema_id=made.schema_id,
    )


def _kind(t: "pyarrow.DataType") -> Optional[str]:
    """A JSON kind of an Arrow type, for the check of a column against a JSON Schema."""
    import pyarrow as pa

    for kind, test in (
        ("struct", pa.types.is_struct),
        ("object", pa.types.is_map),
        (
            "array",
            lambda t: pa.types.is_list(t) or pa.types.is_large_list(t) or pa.types.is_fixed_size_list(t),
        ),
        ("integer", pa.types.is_integer),
        ("number", lambda t: pa.types.is_floating(t) or pa.types.is_decimal(t)),
        ("boolean", pa.types.is_boolean),
        ("string", lambda t: pa.types.is_string(t) or pa.types.is_large_string(t)),
    ):
        if test(t):
            return kind
    return None  # a type that several JSON kinds write (times, bytes), or a union: rows are checked


def _check_json(column: "pyarrow.DataType", schema: "pyarrow.DataType", path: str) -> None:
    """A :class:`~kafkawire.errors.SchemaResolutionError` naming the first field of
    ``column`` that the JSON Schema typed ``schema`` (as its decoder types it) does not
    take; fields the schema does not name are its additional properties."""
    from kafkawire.errors import SchemaResolutionError

    ours, theirs = _kind(column), _kind(schema)
    if ours is None or theirs is None or ours == theirs or (ours, theirs) == ("integer", "number"):
        if ours == theirs == "struct":
            for f in column:
                i = schema.get_field_index(f.name)
                if i >= 0:
                    _check_json(f.type, schema.field(i).type, f"{path}.{f.name}" if path else f.name)
        elif ours == theirs == "array":
            _check_json(column.value_type, schema.value_type, f"{path}[]")
        return
    raise SchemaResolutionError(
        f"field {path or '(the value)'}: the column is {column}, the schema takes {theirs}"
    )


def pinned_formats(formats: Sequence[WriteFormat], schema: "StructType") -> Tuple[WriteFormat, ...]:
    """A sink's ``formats`` pinned (:func:`pinned`) for the columns of the query's ``schema``."""
    from pyspark.sql.pandas.types import to_arrow_type

    names = schema.fieldNames()
    return tuple(
        pinned(fmt, to_arrow_type(schema[fmt.column].dataType, timezone="UTC"))
        if fmt.column in names
        else fmt
        for fmt in formats
    )


def encoded_batches(
    batches: Iterator["pyarrow.RecordBatch"], formats: Sequence[WriteFormat]
) -> Iterator["pyarrow.RecordBatch"]:
    """A write task's batches with the struct columns of ``formats`` framed."""
    import pyarrow as pa

    for batch in batches:
        names = batch.schema.names
        columns = list(batch.columns)
        for fmt in formats:
            if fmt.column in names:
                i = names.index(fmt.column)
                columns[i] = encoder(fmt).encode(columns[i])
        yield pa.RecordBatch.from_arrays(columns, names=names)
