"""A Schema Registry client over HTTP(S), from the standard library (``urllib``).

It speaks the REST API that Confluent's Schema Registry defines (and that Karapace
and Apicurio's compatibility API serve): schemas by id, the versions of a subject,
registration.  Schemas by id never change, so each is fetched once per process and
per registry (a Spark worker's tasks share the fetch); subjects' versions are asked
each time.  Basic and bearer authentication, TLS through an :class:`ssl.SSLContext`,
a timeout per request and bounded retries with backoff on the failures that a retry
can cure (no answer, 5xx, 429).
"""

from __future__ import annotations

import base64
import hashlib
import json
import random
import ssl
import threading
import time
import urllib.error
import urllib.parse
import urllib.request
from dataclasses import dataclass
from typing import Any, Callable, Dict, List, Mapping, Optional, Sequence, Tuple, Union

from kafkawire.errors import SchemaRegistryError, UnknownSchemaIdError

CONTENT_TYPE = "application/vnd.schemaregistry.v1+json"
# the registry's error codes for a schema, subject or version it does not have
SCHEMA_NOT_FOUND = 40403
SUBJECT_NOT_FOUND = 40401
VERSION_NOT_FOUND = 40402


@dataclass(frozen=True)
class SchemaReference:
    """A named type that a schema takes from another subject's version."""

    name: str
    subject: str
    version: int


@dataclass(frozen=True)
class RegisteredSchema:
    """A schema as the registry holds it: its id, text and type ("AVRO", "PROTOBUF",
    "JSON"), the references it imports, and its subject and version when asked by those."""

    schema_id: int
    schema: str
    schema_type: str = "AVRO"
    references: Tuple[SchemaReference, ...] = ()
    subject: Optional[str] = None
    version: Optional[int] = None


# schema id -> schema, per (registry, principal): one fetch per id per process
_by_id: Dict[Tuple[str, str, int], RegisteredSchema] = {}
_fetch_locks: Dict[Tuple[str, str, int], threading.Lock] = {}
_cache_lock = threading.Lock()


def clear_cache() -> None:
    """Forget every schema fetched by id (for tests, or a registry that was wiped)."""
    with _cache_lock:
        _by_id.clear()
        _fetch_locks.clear()


def _schema_body(schema: str, schema_type: str, references: Sequence[SchemaReference]) -> Dict[str, Any]:
    """A schema as the registry's requests hold it."""
    body: Dict[str, Any] = {"schema": schema}
    if schema_type != "AVRO":
        body["schemaType"] = schema_type
    if references:
        body["references"] = [
            {"name": r.name, "subject": r.subject, "version": r.version} for r in references
        ]
    return body


def _parse_schema(body: Mapping[str, Any], schema_id: Optional[int] = None) -> RegisteredSchema:
    refs = tuple(
        SchemaReference(r["name"], r["subject"], int(r["version"])) for r in body.get("references") or ()
    )
    return RegisteredSchema(
        schema_id=int(body["id"]) if schema_id is None else schema_id,
        schema=body["schema"],
        schema_type=body.get("schemaType") or "AVRO",
        references=refs,
        subject=body.get("subject"),
        version=body.get("version"),
    )


class SchemaRegistryClient:
    """A client of one Schema Registry (several ``urls`` are tried in turn).

    ``basic_auth`` is ``(user, password)``; ``bearer_token`` a token or a callable that
    returns a fresh one for each request; ``headers`` more headers (Confluent Cloud's
    ``target-sr-cluster``, say).  ``ssl_context`` verifies an ``https`` registry (and
    carries the client certificate for mutual TLS).  A request waits at most
    ``timeout`` seconds and is tried ``retries`` more times, ``backoff`` seconds apart
    and doubling, when no answer came or the answer was 5xx or 429.
    """

    def __init__(
        self,
        urls: Union[str, Sequence[str]],
        *,
        basic_auth: Optional[Tuple[str, str]] = None,
        bearer_token: Union[None, str, Callable[[], str]] = None,
        headers: Optional[Mapping[str, str]] = None,
        ssl_context: Optional[ssl.SSLContext] = None,
        timeout: float = 10.0,
        retries: int = 3,
        backoff: float = 0.1,
    ) -> None:
        if isinstance(urls, str):
            urls = [u.strip() for u in urls.split(",") if u.strip()]
        if not urls:
            raise ValueError("a Schema Registry client needs at least one URL")
        for url in urls:
            if urllib.parse.urlsplit(url).scheme not in ("http", "https"):
                raise ValueError(f"Schema Registry URL {url!r} is not http:// or https://")
        if basic_auth is not None and bearer_token is not None:
            raise ValueError("give basic_auth or bearer_token, not both")
        if retries < 0 or timeout <= 0:
            raise ValueError("retries must be >= 0 and timeout > 0")
        self.urls: List[str] = [u.rstrip("/") for u in urls]
        self._basic = basic_auth
        self._bearer = bearer_token
        self._headers = dict(headers or {})
        self._ssl = ssl_context
        self.timeout = timeout
        self.retries = retries
        self.backoff = backoff
        # whose view of the registry this is: the cache keeps principals apart
        who = basic_auth[0] if basic_auth else ("bearer" if bearer_token is not None else "")
        self._cache_key = (",".join(self.urls), hashlib.sha256(who.encode()).hexdigest()[:16])

    # -- the REST calls ------------------------------------------------------------

    def schema_by_id(self, schema_id: int) -> RegisteredSchema:
        """The schema registered with ``schema_id`` (fetched once per process)."""
        key = (*self._cache_key, schema_id)
        cached = _by_id.get(key)
        if cached is not None:
            return cached
        with _cache_lock:
            lock = _fetch_locks.setdefault(key, threading.Lock())
        with lock:  # threads asking for the same id wait for the one fetch
            cached = _by_id.get(key)
            if cached is None:
                try:
                    body = self._request("GET", f"/schemas/ids/{int(schema_id)}")
                except SchemaRegistryError as exc:
                    if exc.status == 404:
                        raise UnknownSchemaIdError(
                            f"schema id {schema_id} is not in the registry {self.urls[0]}"
                        ) from exc
                    raise
                cached = _by_id[key] = _parse_schema(body, schema_id)
        return cached

    def subjects(self) -> List[str]:
        """Every subject the registry holds."""
        return list(self._request("GET", "/subjects"))

    def subject_versions(self, subject: str) -> List[int]:
        """The versions registered under ``subject``, oldest first."""
        return [int(v) for v in self._request("GET", f"/subjects/{_quote(subject)}/versions")]

    def schema_version(self, subject: str, version: Union[int, str] = "latest") -> RegisteredSchema:
        """Version ``version`` (a number or "latest") of ``subject``."""
        return _parse_schema(
            self._request("GET", f"/subjects/{_quote(subject)}/versions/{_quote(str(version))}")
        )

    def register(
        self,
        subject: str,
        schema: str,
        schema_type: str = "AVRO",
        references: Sequence[SchemaReference] = (),
    ) -> int:
        """Register ``schema`` under ``subject`` (a schema already there keeps its id); its id."""
        body = _schema_body(schema, schema_type, references)
        return int(self._request("POST", f"/subjects/{_quote(subject)}/versions", body)["id"])

    def lookup(
        self,
        subject: str,
        schema: str,
        schema_type: str = "AVRO",
        references: Sequence[SchemaReference] = (),
    ) -> RegisteredSchema:
        """The version of ``subject`` that is ``schema`` (as the registry compares them);
        :class:`~kafkawire.errors.SchemaRegistryError` with status 404 when none is."""
        body = _schema_body(schema, schema_type, references)
        return _parse_schema(self._request("POST", f"/subjects/{_quote(subject)}", body))

    def writer_schema(
        self,
        subject: str,
        schema: str,
        schema_type: str = "AVRO",
        auto_register: bool = False,
        references: Sequence[SchemaReference] = (),
    ) -> RegisteredSchema:
        """``schema`` (with ``references``) as ``subject`` holds it, for a writer:
        registered there first with ``auto_register`` (as the serializers'
        ``auto.register.schemas``), else looked up, a schema the subject does not hold
        being an error that says so."""
        if auto_register:
            self.register(subject, schema, schema_type, references)
        try:
            return self.lookup(subject, schema, schema_type, references)
        except SchemaRegistryError as exc:
            if exc.status != 404:
                raise
            raise SchemaRegistryError(
                f"the writer schema is not registered under the subject {subject!r}: register it, "
                "or write with auto_register",
                exc.status,
                exc.error_code,
            ) from None

    # -- HTTP ---------------------------------------------------------------------------

    def _request_headers(self) -> Dict[str, str]:
        headers = {"Accept": CONTENT_TYPE, "Content-Type": CONTENT_TYPE, **self._headers}
        if self._basic is not None:
            token = base64.b64encode(f"{self._basic[0]}:{self._basic[1]}".encode()).decode("ascii")
            headers["Authorization"] = f"Basic {token}"
        elif self._bearer is not None:
            token = self._bearer() if callable(self._bearer) else self._bearer
            headers["Authorization"] = f"Bearer {token}"
        return headers

    def _request(self, method: str, path: str, body: Optional[Mapping[str, Any]] = None) -> Any:
        data = None if body is None else json.dumps(body).encode()
        delay = self.backoff
        failure = "no request was made"
        for attempt in range(self.retries + 1):
            url = self.urls[attempt % len(self.urls)] + path
            request = urllib.request.Request(url, data=data, method=method, headers=self._request_headers())
            try:
                with urllib.request.urlopen(request, timeout=self.timeout, context=self._ssl) as response:
                    return json.loads(response.read() or b"null")
            except urllib.error.HTTPError as exc:
                status, error_code, message = exc.code, None, exc.reason
                try:
                    answer = json.loads(exc.read())
                    error_code, message = answer.get("error_code"), answer.get("message", message)
                except (ValueError, AttributeError, OSError):
                    pass
                failure = f"{method} {url}: HTTP {status}: {message}"
                if status < 500 and status != 429:  # the request is wrong: asking again cannot help
                    raise SchemaRegistryError(failure, status, error_code) from None
            except (urllib.error.URLError, OSError, ValueError) as exc:
                # ValueError: an answer that is not JSON (a proxy's error page, say)
                failure = f"{method} {url}: {getattr(exc, 'reason', exc)}"
            if attempt < self.retries:
                time.sleep(delay * (0.5 + random.random()))
                delay *= 2
        raise SchemaRegistryError(
            f"Schema Registry request failed after {self.retries + 1} attempts: {failure}"
        )


def _quote(part: str) -> str:
    return urllib.parse.quote(part, safe="")
