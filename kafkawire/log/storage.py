"""Where a log lives: the local filesystem or an S3-compatible object store.

Everything in :mod:`kafkawire.log` reads through a :class:`Store`: it lists folders,
and opens files for reads at a position (:class:`RangeFile`).  :data:`LOCAL` is the
machine's own filesystem; :class:`ObjectStore` is an S3-compatible bucket, for paths
``s3://bucket/key`` and ``s3a://bucket/key``.  :func:`open_store` picks the store a path
names::

    store = open_store("s3://logs/kafka", StorageOptions(endpoint="http://127.0.0.1:8333"))
    for entry in store.list("s3://logs/kafka/orders-0"):
        ...
    with store.open("s3://logs/kafka/orders-0/00000000000000000000.index") as f:
        first = f.read_at(0, 8)

Object stores go through ``pyarrow.fs.S3FileSystem``, not fsspec: pyarrow is already a
dependency, its reads are native ranged GETs that release the GIL (a task's reads and
Spark's other threads overlap), and it takes an endpoint, static credentials, anonymous
access and virtual-host or path-style addressing, which is what S3-compatible servers
need.  fsspec would add s3fs, aiobotocore and an asyncio loop per process for the same
ranged GETs.

Small reads of an object (a batch header, an index probe) fetch a window around them
that grows while reads move forward (as an OS read-ahead does) and shrinks after a jump
back, so a binary search over an ``.index`` fetches a few small ranges and a header scan
fetches big ones, and no read fetches a whole segment it does not need.
"""

from __future__ import annotations

import fnmatch
import functools
import os
import posixpath
from collections import deque
from concurrent.futures import Future, ThreadPoolExecutor
from dataclasses import dataclass, fields, replace
from typing import TYPE_CHECKING, Any, Deque, List, Mapping, Optional, Tuple

from kafkawire import datasource_options
from kafkawire.errors import LogNotFoundError, StorageError

if TYPE_CHECKING:
    import pyarrow.fs

#: URI schemes read through :class:`ObjectStore` (``s3a`` is Hadoop's name for S3).
OBJECT_SCHEMES = ("s3", "s3a")
#: What opening one file costs, in bytes read, for planning (see ``openCostInBytes``):
#: a local file opens in about the time it takes to decode 128 KB of it.
LOCAL_OPEN_COST_BYTES = 128 << 10
#: An object's open is a HEAD request and its first read a round trip more: on the
#: SeaweedFS of the tests and benchmarks, 4-6 ms, the time 0.4-1.6 MB of reading takes
#: (Spark's own default of 4 MB is sized for stores farther away).
OBJECT_OPEN_COST_BYTES = 1 << 20
#: The read-ahead window of small object reads: its first size, and its largest.
MIN_READ_AHEAD = 8 << 10
MAX_READ_AHEAD = 1 << 20
#: How many ranges a sequential read keeps being fetched ahead of the one it uses.
AHEAD_FETCHES = 2

#: the storage options, as Spark spells them (case does not matter)
STORAGE_OPTIONS = datasource_options.names(datasource_options.OBJECT_STORE)
#: The AWS SDKs' endpoint variables, the S3 service's own first: where no ``endpoint``
#: option is given, the first one set names the endpoint, as for every AWS SDK and CLI
#: (unless ``AWS_IGNORE_CONFIGURED_ENDPOINT_URLS=true``).
ENDPOINT_VARIABLES = ("AWS_ENDPOINT_URL_S3", "AWS_ENDPOINT_URL")


def environment_endpoint() -> Optional[str]:
    """The endpoint :data:`ENDPOINT_VARIABLES` name in this process, or None."""
    if os.environ.get("AWS_IGNORE_CONFIGURED_ENDPOINT_URLS", "").lower() == "true":
        return None
    return next((os.environ[v] for v in ENDPOINT_VARIABLES if os.environ.get(v)), None)


@dataclass(frozen=True)
class StorageOptions:
    """How to reach an object store (all optional; unset: the AWS SDK's defaults,
    which read ``AWS_ACCESS_KEY_ID``, ``~/.aws/credentials`` and so on).

    ``endpoint`` is an S3-compatible server's URL (``http://127.0.0.1:8333``; without a
    scheme, https); unset, ``AWS_ENDPOINT_URL_S3`` or else ``AWS_ENDPOINT_URL`` where the
    store is opened (:data:`ENDPOINT_VARIABLES`).  ``path_style`` False asks for
    virtual-host addressing (``bucket.host``) at such an endpoint, whose default is
    path-style (``host/bucket``).
    ``anonymous`` sends unsigned requests, for public buckets.
    """

    endpoint: Optional[str] = None
    region: Optional[str] = None
    access_key: Optional[str] = None
    secret_key: Optional[str] = None
    session_token: Optional[str] = None
    anonymous: bool = False
    path_style: Optional[bool] = None

    def __post_init__(self) -> None:
        if (self.access_key is None) != (self.secret_key is None):
            raise ValueError("options accessKey and secretKey go together: set both or neither")
        if self.anonymous and self.access_key is not None:
            raise ValueError("option anonymous=true and accessKey/secretKey contradict each other")
        if self.path_style and not (self.endpoint or environment_endpoint()):
            raise ValueError(
                "option pathStyle=true needs an endpoint (AWS itself only takes virtual-host addressing)"
            )

    def __repr__(self) -> str:  # never show a secret in a log or a plan
        shown = {f.name: getattr(self, f.name) for f in fields(self)}
        for secret in ("secret_key", "session_token"):
            if shown[secret] is not None:
                shown[secret] = "***"
        return (
            "StorageOptions("
            + ", ".join(f"{k}={v!r}" for k, v in shown.items() if v not in (None, False))
            + ")"
        )

    @classmethod
    def parse(cls, options: Mapping[str, Any]) -> "StorageOptions":
        """From Spark's (case-insensitive) option map; other options are ignored."""
        opts = {str(k).lower(): v for k, v in options.items()}

        def text(name: str) -> Optional[str]:
            value = opts.get(name.lower())
            return None if value is None else str(value)

        path_style = opts.get("pathstyle")
        return cls(
            endpoint=text("endpoint"),
            region=text("region"),
            access_key=text("accessKey"),
            secret_key=text("secretKey"),
            session_token=text("sessionToken"),
            anonymous=datasource_options.parse_bool(opts.get("anonymous", False), "anonymous"),
            path_style=None if path_style is None else datasource_options.parse_bool(path_style, "pathStyle"),
        )


NO_STORAGE_OPTIONS = StorageOptions()


@dataclass(frozen=True)
class Entry:
    """One name in a folder listing: a file with its size, or a sub-folder."""

    name: str
    path: str
    is_dir: bool
    size: int = 0


class RangeFile:
    """A file open for reads at a position (no shared cursor).  Subclasses say how."""

    path: str
    size: int

    def read_at(self, position: int, n: int) -> bytes:
        """Up to ``n`` bytes from ``position`` (fewer only at the end of the file)."""
        raise NotImplementedError

    def readinto_at(self, position: int, buffer: memoryview) -> int:
        """Fill ``buffer`` from ``position``; how many bytes came (fewer at the end)."""
        raise NotImplementedError

    def sequential(self, end: int, start: Optional[int] = None, first: int = 0) -> None:
        """A hint: the reads that follow go forward in order up to ``end``, so the next
        range may be fetched while the caller works on this one (an object store's
        round trips then overlap decoding); with ``start`` and ``first``, the first
        read will be ``first`` bytes at ``start``.  Nothing past ``end`` is fetched."""

    def close(self) -> None:
        """Release the file."""

    def __enter__(self) -> "RangeFile":
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()


class Store:
    """A filesystem the log readers list and open files in; :data:`LOCAL` or an
    :class:`ObjectStore`.  Paths are what the user gave: OS paths for local files,
    ``scheme://bucket/key`` URIs for objects."""

    #: what opening one file costs, in bytes read (the planner's default open cost)
    open_cost_bytes: int = LOCAL_OPEN_COST_BYTES

    def open(self, path: str, size: Optional[int] = None) -> RangeFile:
        """``path`` open for reads; ``size`` is its size when the caller knows it.
        Raises :class:`~kafkawire.errors.LogNotFoundError` when it does not exist."""
        raise NotImplementedError

    def info(self, path: str) -> Optional[Entry]:
        """What ``path`` is (None if nothing is there)."""
        raise NotImplementedError

    def list(self, directory: str) -> List[Entry]:
        """The files and folders directly in ``directory``, sorted by name."""
        raise NotImplementedError

    def glob(self, pattern: str) -> List[str]:
        """The paths matching a ``*``/``?``/``[...]`` pattern, sorted."""
        raise NotImplementedError

    def open_ahead(self, path: str, start: int, end: int, first: int) -> "Optional[Future[RangeFile]]":
        """``path`` being opened in the background for reads from ``start`` to ``end``
        (:meth:`RangeFile.sequential`), or None where opening costs too little for that
        (local files)."""
        return None

    def join(self, directory: str, name: str) -> str:
        raise NotImplementedError

    def dirname(self, path: str) -> str:
        raise NotImplementedError

    def basename(self, path: str) -> str:
        raise NotImplementedError

    def absolute(self, path: str) -> str:
        """``path`` made absolute and normal (one spelling per file)."""
        raise NotImplementedError


# ---------------------------------------------------------------------------
# the local filesystem


class _LocalFile(RangeFile):
    def __init__(self, path: str, size: Optional[int]) -> None:
        self.path = path
        try:
            self._fd = os.open(path, os.O_RDONLY | getattr(os, "O_BINARY", 0))
        except FileNotFoundError:
            raise LogNotFoundError(path, "no such file") from None
        self.size = os.fstat(self._fd).st_size if size is None else size

    def read_at(self, position: int, n: int) -> bytes:
        return os.pread(self._fd, n, position)

    def readinto_at(self, position: int, buffer: memoryview) -> int:
        return os.preadv(self._fd, [buffer], position)

    def close(self) -> None:
        if self._fd >= 0:
            os.close(self._fd)
            self._fd = -1


class LocalStore(Store):
    """The machine's filesystem (and whatever is mounted on it)."""

    open_cost_bytes = LOCAL_OPEN_COST_BYTES

    def open(self, path: str, size: Optional[int] = None) -> RangeFile:
        return _LocalFile(path, size)

    def info(self, path: str) -> Optional[Entry]:
        try:
            st = os.stat(path)
        except (FileNotFoundError, NotADirectoryError):
            return None
        import stat

        return Entry(os.path.basename(path), path, stat.S_ISDIR(st.st_mode), st.st_size)

    def list(self, directory: str) -> List[Entry]:
        out = []
        with os.scandir(directory) as it:
            for e in it:
                is_dir = e.is_dir()
                out.append(Entry(e.name, e.path, is_dir, 0 if is_dir else e.stat().st_size))
        return sorted(out, key=lambda e: e.name)

    def glob(self, pattern: str) -> List[str]:
        import glob

        return sorted(glob.glob(pattern))

    def join(self, directory: str, name: str) -> str:
        return os.path.join(directory, name)

    def dirname(self, path: str) -> str:
        return os.path.dirname(path)

    def basename(self, path: str) -> str:
        return os.path.basename(path)

    def absolute(self, path: str) -> str:
        return os.path.abspath(path)

    def __reduce__(self) -> Tuple[Any, ...]:  # one LOCAL per process
        return (_local, ())

    def __repr__(self) -> str:
        return "LOCAL"


LOCAL = LocalStore()


def _local() -> LocalStore:
    return LOCAL


# ---------------------------------------------------------------------------
# S3-compatible object stores


def _s3_error(exc: OSError, uri: str, position: Optional[int] = None) -> StorageError:
    """A pyarrow S3 error as a :class:`StorageError` naming the object, saying in
    words what the AWS error code means."""
    text = str(exc)
    where = uri if position is None else f"{uri}: at byte {position}"
    if "NO_SUCH_BUCKET" in text or "NoSuchBucket" in text:
        return LogNotFoundError(uri, "no such bucket", position)
    if (
        "ACCESS_DENIED" in text
        or "AccessDenied" in text
        or "InvalidAccessKeyId" in text
        or "SignatureDoesNotMatch" in text
    ):
        return StorageError(
            uri, "access denied: the credentials (accessKey, secretKey) were refused", position
        )
    if isinstance(exc, FileNotFoundError) or "Path does not exist" in text or "NOT_FOUND" in text:
        return LogNotFoundError(uri, "no such object", position)
    return StorageError(uri, f"object store error: {text.strip()}" if where else text, position)


class _ObjectFile(RangeFile):
    def __init__(self, store: "ObjectStore", path: str, size: Optional[int]) -> None:
        self.path = path
        self._store = store
        try:
            self._f = store.filesystem.open_input_file(store.key(path))
            self.size = self._f.size() if size is None else size
        except OSError as exc:
            raise _s3_error(exc, path) from exc
        self._window_at = 0
        self._window = b""
        self._ahead = MIN_READ_AHEAD
        self._sequential_end = 0
        self._spare: Optional[Tuple[int, memoryview]] = None  # fetched, not yet asked for
        # ranges being fetched ahead, in file order: (position, size, the fetch)
        self._ahead_fetches: Deque[Tuple[int, int, "Future[memoryview]"]] = deque()

    def _fetch(self, position: int, n: int) -> bytes:
        return bytes(self._fetch_view(position, n))

    def _fetch_view(self, position: int, n: int) -> memoryview:
        """One ranged GET, counted, as a view of pyarrow's buffer (no copy)."""
        try:
            got = self._f.read_at(n, position)
        except OSError as exc:
            raise _s3_error(exc, self.path, position) from exc
        self._store.bytes_read += len(got)
        self._store.requests += 1
        return memoryview(got)

    def fetched_now(self, position: int, size: int) -> None:
        """Fetch a range on this thread, kept as if it had been fetched ahead (an
        error too: the read that reaches it raises it)."""
        done: "Future[memoryview]" = Future()
        try:
            done.set_result(self._fetch_view(position, size))
        except StorageError as exc:
            done.set_exception(exc)
        self._ahead_fetches.append((position, size, done))

    def _fetch_ahead(self, position: int, size: int) -> None:
        self._ahead_fetches.append((position, size, _prefetcher().submit(self._fetch_view, position, size)))

    def read_at(self, position: int, n: int) -> bytes:
        if n >= MAX_READ_AHEAD:
            return self._fetch(position, n)
        at, window = self._window_at, self._window
        if at <= position and position + n <= at + len(window):
            return window[position - at : position - at + n]
        # forward and near the last window: read further ahead; elsewhere start small
        if at <= position <= at + len(window) + self._ahead:
            self._ahead = min(MAX_READ_AHEAD, self._ahead * 2)
        else:
            self._ahead = MIN_READ_AHEAD
        want = max(n, min(self._ahead, self.size - position))
        self._window_at, self._window = position, self._fetch(position, want)
        return self._window[:n]

    def sequential(self, end: int, start: Optional[int] = None, first: int = 0) -> None:
        self._sequential_end = end
        if start is not None and first > 0 and start < end and not self._ahead_fetches:
            self._fetch_ahead(start, min(first, end - start))

    def _fetched(self, position: int) -> Optional[memoryview]:
        """Bytes already fetched (or being fetched) from ``position`` on, if any."""
        spare, self._spare = self._spare, None
        if spare is not None and spare[0] == position:
            return spare[1]
        if self._ahead_fetches and self._ahead_fetches[0][0] == position:
            return self._ahead_fetches.popleft()[2].result()
        self._drop_ahead()  # the reads went elsewhere: what was fetched ahead is not wanted
        return None

    def _drop_ahead(self) -> None:
        while self._ahead_fetches:
            pending = self._ahead_fetches.popleft()[2]
            pending.cancel() or pending.exception()  # let a running fetch end first

    def readinto_at(self, position: int, buffer: memoryview) -> int:
        got = 0
        while got < len(buffer):
            ahead = self._fetched(position + got)
            if ahead is None or not len(ahead):
                break
            k = min(len(ahead), len(buffer) - got)
            buffer[got : got + k] = ahead[:k]
            got += k
            if k < len(ahead):
                self._spare = (position + got, ahead[k:])
        if got < len(buffer):
            # read_at, not seek and read: a dropped prefetch may still use the handle
            self._store.waited_reads += 1
            direct = self._fetch(position + got, len(buffer) - got)
            buffer[got : got + len(direct)] = direct
            got += len(direct)
        # keep the next ranges of the same size being fetched while the caller decodes
        # this one: two GETs in flight serve more bytes a second than one on a store
        # that answers each after a fixed delay.  Topped up after every read, also one
        # that left part of a range unread (a read of whole batches seldom ends where a
        # range does), or the queue drains and every third read waits for its GET.
        if self._ahead_fetches:
            following = self._ahead_fetches[-1][0] + self._ahead_fetches[-1][1]
        elif self._spare is not None:
            following = self._spare[0] + len(self._spare[1])
        else:
            following = position + got
        while len(self._ahead_fetches) < AHEAD_FETCHES and following < self._sequential_end:
            size = min(len(buffer), self._sequential_end - following)
            self._fetch_ahead(following, size)
            following += size
        return got

    def close(self) -> None:
        self._drop_ahead()
        self._f.close()


_PREFETCHER: Optional[Tuple[int, "ThreadPoolExecutor"]] = None


def _prefetcher() -> "ThreadPoolExecutor":
    """The threads that fetch ahead (made anew in a forked child: Spark's workers)."""
    global _PREFETCHER
    if _PREFETCHER is None or _PREFETCHER[0] != os.getpid():
        _PREFETCHER = (
            os.getpid(),
            ThreadPoolExecutor(max_workers=4, thread_name_prefix="kafkawire-prefetch"),
        )
    return _PREFETCHER[1]


class ObjectStore(Store):
    """An S3-compatible object store, for ``s3://`` and ``s3a://`` paths, through
    ``pyarrow.fs.S3FileSystem`` made from :class:`StorageOptions`.

    Folders are key prefixes, as every S3 tool shows them.  ``bytes_read`` and
    ``requests`` count what this process fetched through this store object (for tests
    and benchmarks of ranged reads); ``waited_reads`` the chunk reads that found no
    range fetched ahead for them and made a GET of their own.  Picklable: a Spark task
    makes its own client.
    """

    open_cost_bytes = OBJECT_OPEN_COST_BYTES

    def __init__(self, scheme: str, options: StorageOptions = NO_STORAGE_OPTIONS) -> None:
        if scheme not in OBJECT_SCHEMES:
            raise ValueError(
                f"no object store for scheme {scheme!r}; kafkawire reads {', '.join(OBJECT_SCHEMES)}"
            )
        self.scheme = scheme
        # the endpoint of the environment goes with the options: a Spark task reads
        # where its driver planned, whatever its own environment says
        endpoint = options.endpoint or environment_endpoint()
        self.options = options if endpoint == options.endpoint else replace(options, endpoint=endpoint)
        self.bytes_read = 0
        self.requests = 0
        self.waited_reads = 0

    @property
    def filesystem(self) -> "pyarrow.fs.S3FileSystem":
        return _s3_filesystem(self.options)

    def __eq__(self, other: object) -> bool:
        return isinstance(other, ObjectStore) and (other.scheme, other.options) == (self.scheme, self.options)

    def __hash__(self) -> int:
        return hash((self.scheme, self.options))

    def __reduce__(self) -> Tuple[Any, ...]:
        return (ObjectStore, (self.scheme, self.options))

    def __repr__(self) -> str:
        return f"ObjectStore({self.scheme!r}, {self.options!r})"

    def key(self, path: str) -> str:
        """``bucket/key`` of an ``s3://bucket/key`` URI (what pyarrow takes)."""
        prefix = self.scheme + "://"
        if not path.startswith(prefix):
            raise ValueError(f"{path!r} is not an {prefix} path")
        return path[len(prefix) :].strip("/")

    def _uri(self, key: str) -> str:
        return f"{self.scheme}://{key}"

    def open(self, path: str, size: Optional[int] = None) -> RangeFile:
        return _ObjectFile(self, path, size)

    def open_ahead(self, path: str, start: int, end: int, first: int) -> "Optional[Future[RangeFile]]":
        def opening() -> RangeFile:
            f = _ObjectFile(self, path, None)
            f.sequential(end)
            if start < end and first > 0:
                # fetched here, not handed to another prefetch thread: one hand-off
                # between threads an object, which on a loaded machine each wait for
                # the scheduler
                f.fetched_now(start, min(first, end - start))
            return f

        return _prefetcher().submit(opening)

    def info(self, path: str) -> Optional[Entry]:
        from pyarrow.fs import FileType

        try:
            fi = self.filesystem.get_file_info(self.key(path))
        except OSError as exc:
            raise _s3_error(exc, path) from exc
        if fi.type == FileType.NotFound:
            bucket = self.key(path).split("/", 1)[0]
            if bucket != self.key(path) and self.info(self._uri(bucket)) is None:
                raise LogNotFoundError(self._uri(bucket), "no such bucket")
            return None
        is_dir = fi.type == FileType.Directory
        return Entry(self.basename(path), path, is_dir, 0 if is_dir else int(fi.size or 0))

    def list(self, directory: str) -> List[Entry]:
        from pyarrow.fs import FileSelector, FileType

        try:
            infos = self.filesystem.get_file_info(FileSelector(self.key(directory), allow_not_found=True))
        except OSError as exc:
            raise _s3_error(exc, directory) from exc
        out = [
            Entry(
                fi.base_name,
                self._uri(fi.path),
                fi.type == FileType.Directory,
                0 if fi.type == FileType.Directory else int(fi.size or 0),
            )
            for fi in infos
        ]
        return sorted(out, key=lambda e: e.name)

    def glob(self, pattern: str) -> List[str]:
        # walk the pattern a component at a time, listing only folders a pattern names
        parts = self.key(pattern).split("/")
        found = [self._uri(parts[0])]
        for i, part in enumerate(parts[1:], 1):
            last = i == len(parts) - 1
            nxt = []
            for base in found:
                if not any(c in part for c in "*?["):
                    nxt.append(self.join(base, part))
                    continue
                nxt.extend(
                    e.path
                    for e in self.list(base)
                    if fnmatch.fnmatchcase(e.name, part) and (last or e.is_dir)
                )
            found = nxt
        return sorted(p for p in found if self.info(p) is not None)

    def join(self, directory: str, name: str) -> str:
        return directory.rstrip("/") + "/" + name

    def dirname(self, path: str) -> str:
        return posixpath.dirname(path.rstrip("/"))

    def basename(self, path: str) -> str:
        return posixpath.basename(path.rstrip("/"))

    def absolute(self, path: str) -> str:
        return self._uri(posixpath.normpath(self.key(path)))


@functools.lru_cache(maxsize=16)  # one client per set of options and process
def _s3_filesystem(options: StorageOptions) -> "pyarrow.fs.S3FileSystem":
    from pyarrow.fs import S3FileSystem

    kwargs: dict[str, Any] = {
        "access_key": options.access_key,
        "secret_key": options.secret_key,
        "session_token": options.session_token,
        "anonymous": options.anonymous,
        "region": options.region,
        "force_virtual_addressing": options.path_style is False,
    }
    if options.endpoint:
        scheme, sep, host = options.endpoint.partition("://")
        kwargs["endpoint_override"] = host.rstrip("/") if sep else scheme.rstrip("/")
        kwargs["scheme"] = scheme if sep else "https"
    return S3FileSystem(**kwargs)


def scheme_of(path: str) -> Optional[str]:
    """The URI scheme of ``path`` (``s3``), or None for a plain filesystem path."""
    head, sep, _rest = path.partition("://")
    return head.lower() if sep and head.isalnum() and len(head) > 1 else None


def open_store(path: str, options: StorageOptions = NO_STORAGE_OPTIONS) -> Store:
    """The store ``path`` lives in: an :class:`ObjectStore` for ``s3://`` and
    ``s3a://`` URIs, :data:`LOCAL` for filesystem paths (``file://`` too)."""
    scheme = scheme_of(path)
    if scheme is None or scheme == "file":
        return LOCAL
    if scheme in OBJECT_SCHEMES:
        return ObjectStore(scheme, options)
    raise ValueError(
        f"kafka-log cannot read {path!r}: no store for scheme {scheme!r} (it reads local paths, {', '.join(s + '://' for s in OBJECT_SCHEMES)})"
    )


def local_path(path: str) -> str:
    """``path`` without a ``file://`` prefix."""
    return path[len("file://") :] if path.lower().startswith("file://") else path


__all__ = [
    "OBJECT_SCHEMES",
    "LOCAL_OPEN_COST_BYTES",
    "OBJECT_OPEN_COST_BYTES",
    "MIN_READ_AHEAD",
    "MAX_READ_AHEAD",
    "STORAGE_OPTIONS",
    "ENDPOINT_VARIABLES",
    "environment_endpoint",
    "StorageOptions",
    "NO_STORAGE_OPTIONS",
    "Entry",
    "RangeFile",
    "Store",
    "LocalStore",
    "LOCAL",
    "ObjectStore",
    "scheme_of",
    "open_store",
    "local_path",
]


def __dir__() -> list[str]:  # what the module defines, not what it imports
    return sorted(__all__)
