"""A Schema Registry for the tests: the REST API of Confluent's Schema Registry, as far
as Confluent's clients (confluent-kafka's ``SchemaRegistryClient``, used by its
serializers) and kafkawire's client call it, in memory, on 127.0.0.1.

No real registry server can be installed here from the package registries
(Confluent's is not on Maven Central, Karapace is not on PyPI, Apicurio's server jar
there does not run without its Quarkus build), so this one stands in; the tests make
Confluent's own client register and fetch through it, so what crosses the wire is
checked by Confluent's code, not only by ours.

It can ask for basic or bearer credentials, serve TLS, fail its first requests with
503 (for the retries), and counts the requests by path (for the cache).
"""

from __future__ import annotations

import base64
import json
import ssl
import threading
from collections import Counter
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any, Dict, List, Optional, Tuple
from urllib.parse import unquote, urlsplit

CONTENT_TYPE = "application/vnd.schemaregistry.v1+json"


class Registry:
    """The registry's state: schemas by id, subjects' versions."""

    def __init__(self) -> None:
        self.lock = threading.Lock()
        self.schemas: Dict[int, Dict[str, Any]] = {}  # id -> {"schema", "schemaType", "references"}
        self.subjects: Dict[str, List[int]] = {}  # subject -> ids, version i+1 at index i
        self.requests: Counter = Counter()
        self.fail_next = 0  # answer the next requests with 503
        self.basic: Optional[Tuple[str, str]] = None
        self.bearer: Optional[str] = None

    def _key(self, body: Dict[str, Any]) -> Tuple[str, str, str]:
        refs = json.dumps(body.get("references") or [], sort_keys=True)
        return (body["schema"], body.get("schemaType") or "AVRO", refs)

    def register(self, subject: str, body: Dict[str, Any]) -> int:
        with self.lock:
            key = self._key(body)
            for sid, stored in self.schemas.items():
                if self._key(stored) == key:
                    break
            else:
                sid = len(self.schemas) + 1
                self.schemas[sid] = {
                    "schema": body["schema"],
                    "schemaType": body.get("schemaType") or "AVRO",
                    "references": body.get("references") or [],
                }
            versions = self.subjects.setdefault(subject, [])
            if sid not in versions:
                versions.append(sid)
            return sid

    def version_body(self, subject: str, version: int) -> Dict[str, Any]:
        sid = self.subjects[subject][version - 1]
        return {"subject": subject, "version": version, "id": sid, **self._schema_body(sid)}

    def _schema_body(self, sid: int) -> Dict[str, Any]:
        stored = self.schemas[sid]
        body: Dict[str, Any] = {"schema": stored["schema"]}
        if stored["schemaType"] != "AVRO":
            body["schemaType"] = stored["schemaType"]
        if stored["references"]:
            body["references"] = stored["references"]
        return body


def _handler(registry: Registry) -> type:
    class Handler(BaseHTTPRequestHandler):
        protocol_version = "HTTP/1.1"

        def log_message(self, *args: Any) -> None:  # quiet
            pass

        def _send(self, status: int, body: Any) -> None:
            data = json.dumps(body).encode()
            self.send_response(status)
            self.send_header("Content-Type", CONTENT_TYPE)
            self.send_header("Content-Length", str(len(data)))
            self.end_headers()
            self.wfile.write(data)

        def _error(self, status: int, code: int, message: str) -> None:
            self._send(status, {"error_code": code, "message": message})

        def _authorized(self) -> bool:
            header = self.headers.get("Authorization", "")
            if registry.basic is not None:
                want = "Basic " + base64.b64encode(":".join(registry.basic).encode()).decode()
                return header == want
            if registry.bearer is not None:
                return header == f"Bearer {registry.bearer}"
            return True

        def _route(self, method: str) -> None:
            path = urlsplit(self.path).path
            length = int(self.headers.get("Content-Length") or 0)
            raw = self.rfile.read(length) if length else b""
            registry.requests[f"{method} {path}"] += 1
            with registry.lock:
                if registry.fail_next > 0:
                    registry.fail_next -= 1
                    return self._error(503, 50301, "unavailable for a test")
            if not self._authorized():
                return self._error(401, 40101, "Unauthorized")
            body = json.loads(raw) if raw else {}
            parts = [unquote(p) for p in path.strip("/").split("/")]
            try:
                return self._dispatch(method, parts, body)
            except (KeyError, IndexError):
                return self._error(404, 40403, "Schema not found")

        def _dispatch(self, method: str, parts: List[str], body: Dict[str, Any]) -> None:
            if method == "GET" and parts[:2] == ["schemas", "ids"] and len(parts) == 3:
                sid = int(parts[2])
                if sid not in registry.schemas:
                    return self._error(404, 40403, f"Schema {sid} not found")
                return self._send(200, registry._schema_body(sid))
            if method == "GET" and parts == ["subjects"]:
                return self._send(200, sorted(registry.subjects))
            if parts and parts[0] == "subjects" and len(parts) >= 2:
                subject = parts[1]
                if method == "POST" and len(parts) == 3 and parts[2] == "versions":
                    return self._send(200, {"id": registry.register(subject, body)})
                if method == "POST" and len(parts) == 2:  # lookup
                    key = registry._key(body)
                    for version, sid in enumerate(registry.subjects.get(subject, []), 1):
                        if registry._key(registry.schemas[sid]) == key:
                            return self._send(200, registry.version_body(subject, version))
                    return self._error(404, 40403, "Schema not found")
                if subject not in registry.subjects:
                    return self._error(404, 40401, f"Subject {subject} not found")
                if method == "GET" and len(parts) == 3 and parts[2] == "versions":
                    return self._send(200, list(range(1, len(registry.subjects[subject]) + 1)))
                if method == "GET" and len(parts) == 4 and parts[2] == "versions":
                    versions = registry.subjects[subject]
                    version = len(versions) if parts[3] in ("latest", "-1") else int(parts[3])
                    if not 1 <= version <= len(versions):
                        return self._error(404, 40402, f"Version {version} not found")
                    return self._send(200, registry.version_body(subject, version))
            if parts and parts[0] == "config":
                return self._send(200, {"compatibilityLevel": "NONE"})
            return self._error(404, 40400, f"no route {method} /{'/'.join(parts)}")

        def do_GET(self) -> None:  # noqa: N802
            self._route("GET")

        def do_POST(self) -> None:  # noqa: N802
            self._route("POST")

        def do_PUT(self) -> None:  # noqa: N802
            self._route("PUT")

    return Handler


class RegistryServer:
    """The registry served on 127.0.0.1 (TLS when given a certificate and key)."""

    def __init__(self, certfile: Optional[str] = None, keyfile: Optional[str] = None) -> None:
        self.registry = Registry()
        self.server = ThreadingHTTPServer(("127.0.0.1", 0), _handler(self.registry))
        self.server.daemon_threads = True
        scheme = "http"
        if certfile:
            context = ssl.SSLContext(ssl.PROTOCOL_TLS_SERVER)
            context.load_cert_chain(certfile, keyfile)
            self.server.socket = context.wrap_socket(self.server.socket, server_side=True)
            scheme = "https"
        self.url = f"{scheme}://127.0.0.1:{self.server.server_address[1]}"
        self.thread = threading.Thread(
            target=self.server.serve_forever, kwargs={"poll_interval": 0.05}, daemon=True
        )

    def __enter__(self) -> "RegistryServer":
        self.thread.start()
        return self

    def __exit__(self, *exc: Any) -> None:
        self.server.shutdown()
        self.server.server_close()
        self.thread.join(timeout=10)
