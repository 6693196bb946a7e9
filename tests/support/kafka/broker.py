"""A real Apache Kafka 4.4 broker for the test suite, run from the Maven-resolved jars.

:func:`start_broker` formats a temporary log directory (random cluster id, SCRAM users
added at format time) and runs ``kafka.Kafka`` as one KRaft node that is broker and
controller at once, on 127.0.0.1 ports picked free at start.  It listens for clients on
PLAINTEXT and on SASL_PLAINTEXT (PLAIN, SCRAM-SHA-256, SCRAM-SHA-512), and given a
certificate (``tls=``) also on SSL and SASL_SSL, runs the consumer,
share and streams group protocols (4.4's defaults), and is ready when it answers
ApiVersions (asked with kafkawire's own codec).  :meth:`KafkaBroker.stop` terminates the
JVM, then kills it after a bounded wait; an ``atexit`` hook does the same for a run that
ends abnormally, and on Linux the JVM gets SIGTERM when the test process dies, however it
dies.  :meth:`KafkaBroker.restart` stops it cleanly and starts it again on the same log
directory and ports; :meth:`KafkaBroker.kill` and :meth:`KafkaBroker.start` crash it and
bring it back.  Kafka's warnings and errors are in ``broker.output()``.  A node of a
cluster of several (``support.kafka.cluster``, or one more node joining the session's
broker) is started with the first node's cluster id and controller address: it is then a
broker only.
"""

from __future__ import annotations

import atexit
import base64
import ctypes
import os
import shutil
import signal
import socket
import subprocess
import sys
import tempfile
import time
import uuid
from dataclasses import dataclass, field
from pathlib import Path
from typing import Callable, Dict, List, Optional, Sequence, Tuple

from support.kafka.jars import KafkaUnavailable, classpath_string, java_executable
from support.kafka.jvm import start_options

START_TIMEOUT = 120.0  # seconds for the JVM to answer ApiVersions, on a busy 2-core machine
STOP_TIMEOUT = 15.0  # seconds between SIGTERM and SIGKILL
HEAP = "-Xmx384m"

#: SASL users: name -> password.  PLAIN users live in the listener's JAAS config; SCRAM
#: credentials are written into the metadata log by the storage tool at format time.
USERS: Dict[str, str] = {"admin": "admin-secret", "alice": "alice-secret"}
SCRAM_MECHANISMS = ("SCRAM-SHA-256", "SCRAM-SHA-512")


class BrokerFailed(RuntimeError):
    """The Kafka broker could not be formatted, started or reached."""


@dataclass
class KafkaBroker:
    """A running broker: where it listens, who may log in, and how to stop it."""

    host: str
    port: int  # PLAINTEXT listener
    sasl_port: int  # SASL_PLAINTEXT listener (PLAIN, SCRAM-SHA-256/512)
    controller_port: int
    cluster_id: str
    node_id: int
    log_dir: Path
    users: Dict[str, str] = field(default_factory=lambda: dict(USERS))
    sasl_mechanisms: tuple = ("PLAIN",) + SCRAM_MECHANISMS
    process: Optional[subprocess.Popen] = None
    after_exit: Callable[[], None] = lambda: None  # run once the JVM has exited
    start_seconds: float = 0.0
    ssl_port: Optional[int] = None  # SSL listener, when started with a certificate
    sasl_ssl_port: Optional[int] = None  # SASL_SSL listener (the same mechanisms)
    command: List[str] = field(default_factory=list)  # what runs the broker's JVM

    @property
    def bootstrap_servers(self) -> str:
        return f"{self.host}:{self.port}"

    @property
    def sasl_bootstrap_servers(self) -> str:
        return f"{self.host}:{self.sasl_port}"

    @property
    def controller(self) -> str:
        """``host:port`` of its controller listener: what a node joining its cluster is
        given (``start_broker(controller=...)``)."""
        return f"{self.host}:{self.controller_port}"

    def output(self) -> str:
        """The broker's console output so far (for failure messages)."""
        path = self.log_dir.parent / "broker.out"
        return path.read_text(errors="replace") if path.exists() else ""

    def _end_process(self) -> None:
        proc, self.process = self.process, None
        if proc is not None:
            if proc.poll() is None:
                proc.terminate()
                try:
                    proc.wait(STOP_TIMEOUT)
                except subprocess.TimeoutExpired:
                    proc.kill()
                    proc.wait(STOP_TIMEOUT)
            self.after_exit()

    def stop(self) -> None:
        """Terminate the JVM, kill it if it outlives ``STOP_TIMEOUT``; remove its files."""
        self._end_process()
        _RUNNING[:] = [b for b in _RUNNING if b is not self]
        shutil.rmtree(self.log_dir.parent, ignore_errors=True)

    def kill(self) -> None:
        """Kill the JVM at once (SIGKILL: no controlled shutdown, as a crash or a lost
        machine), keeping its log directory for :meth:`start`."""
        proc, self.process = self.process, None
        if proc is not None:
            proc.kill()
            proc.wait(STOP_TIMEOUT)
            self.after_exit()

    def start(self, timeout: float = START_TIMEOUT) -> None:
        """Start the JVM again (after :meth:`kill`) on the same log directory and ports;
        return once it answers ApiVersions."""
        _launch(self, time.monotonic() + timeout)

    def restart(self, timeout: float = START_TIMEOUT) -> None:
        """Stop the JVM (a clean shutdown, as an operator's restart) and start it again
        on the same log directory and ports; return once it answers ApiVersions."""
        self._end_process()
        _launch(self, time.monotonic() + timeout)


def _free_ports(count: int) -> List[int]:
    """``count`` distinct ports the kernel just handed out on 127.0.0.1 (held open together
    so they differ; Kafka binds them moments later)."""
    socks = []
    try:
        for _ in range(count):
            s = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
            s.bind(("127.0.0.1", 0))
            socks.append(s)
        return [s.getsockname()[1] for s in socks]
    finally:
        for s in socks:
            s.close()


def _random_cluster_id() -> str:
    """Kafka's ``Uuid.randomUuid().toString()``: url-safe base64 of 16 random bytes, no
    padding, and (as Kafka makes sure) never starting with "-", which a command line
    would take for an option: the storage tool then fails with "expected one argument"."""
    while True:
        text = base64.urlsafe_b64encode(uuid.uuid4().bytes).decode().rstrip("=")
        if not text.startswith("-"):
            return text


def _jaas_string(value: str) -> str:
    return '"' + value.replace("\\", "\\\\").replace('"', '\\"') + '"'


def server_properties(
    *,
    node_id: int,
    port: int,
    sasl_port: int,
    controller_port: int,
    log_dir: Path,
    users: Dict[str, str],
    extra: Optional[Dict[str, object]] = None,
    ssl_port: Optional[int] = None,
    sasl_ssl_port: Optional[int] = None,
    keystore: Optional[str] = None,
    sasl_host: str = "127.0.0.1",
    controller: Optional[str] = None,
) -> str:
    """The ``server.properties`` of a one-node KRaft broker+controller (``extra``
    settings added or overriding).  With ``keystore`` (a PEM file: the private key, then
    the certificate) it listens on SSL and SASL_SSL too.  ``sasl_host`` is the host the
    SASL listeners advertise (Kerberos needs the name in the broker's principal).  With
    ``controller`` (``host:port`` of another node's controller) the node is a broker
    only, of that node's cluster."""
    host = "127.0.0.1"
    admin = next(iter(users))
    plain_users = " ".join(f"user_{name}={_jaas_string(pw)}" for name, pw in users.items())
    props = {
        "process.roles": "broker" if controller else "broker,controller",
        "node.id": node_id,
        "controller.quorum.bootstrap.servers": controller or f"{host}:{controller_port}",
        "controller.listener.names": "CONTROLLER",
        "listeners": f"PLAINTEXT://{host}:{port},SASL_PLAINTEXT://{host}:{sasl_port}"
        + ("" if controller else f",CONTROLLER://{host}:{controller_port}"),
        "advertised.listeners": f"PLAINTEXT://{host}:{port},SASL_PLAINTEXT://{sasl_host}:{sasl_port}",
        "listener.security.protocol.map": "PLAINTEXT:PLAINTEXT,SASL_PLAINTEXT:SASL_PLAINTEXT,CONTROLLER:PLAINTEXT",
        "inter.broker.listener.name": "PLAINTEXT",
        "log.dirs": str(log_dir),
        "num.partitions": 1,
        "default.replication.factor": 1,
        "auto.create.topics.enable": "false",
        "offsets.topic.replication.factor": 1,
        "offsets.topic.num.partitions": 1,
        "transaction.state.log.replication.factor": 1,
        "transaction.state.log.min.isr": 1,
        "transaction.state.log.num.partitions": 1,
        "share.coordinator.state.topic.replication.factor": 1,
        "share.coordinator.state.topic.min.isr": 1,
        "share.coordinator.state.topic.num.partitions": 1,
        "group.initial.rebalance.delay.ms": 0,
        # a busy machine can stall the JVM for seconds: the node must not fence itself
        "broker.session.timeout.ms": 60000,
        # no group.coordinator.rebalance.protocols: 4.4 deprecates it and runs the classic,
        # consumer, share and streams protocols by default (share.version=2 and
        # streams.version=1, the storage tool's defaults for 4.4-IV2)
        "delete.topic.enable": "true",
        # small and quick: one node, few threads, small buffers
        "num.network.threads": 2,
        "num.io.threads": 2,
        "background.threads": 2,
        "num.replica.fetchers": 1,
        "log.segment.bytes": 16 * 1024 * 1024,
        "sasl.enabled.mechanisms": "PLAIN," + ",".join(SCRAM_MECHANISMS),
        "listener.name.sasl_plaintext.plain.sasl.jaas.config": (
            "org.apache.kafka.common.security.plain.PlainLoginModule required "
            f"username={_jaas_string(admin)} password={_jaas_string(users[admin])} "
            f"{plain_users};"
        ),
    }
    sasl_listeners = ["sasl_plaintext"]
    if keystore:
        tls = f"SSL://{host}:{ssl_port},SASL_SSL://{host}:{sasl_ssl_port}"
        props["listeners"] += "," + tls
        props["advertised.listeners"] += f",SSL://{host}:{ssl_port},SASL_SSL://{sasl_host}:{sasl_ssl_port}"
        props["listener.security.protocol.map"] += ",SSL:SSL,SASL_SSL:SASL_SSL"
        props["ssl.keystore.type"] = "PEM"
        props["ssl.keystore.location"] = keystore
        props["listener.name.sasl_ssl.plain.sasl.jaas.config"] = props[
            "listener.name.sasl_plaintext.plain.sasl.jaas.config"
        ]
        sasl_listeners.append("sasl_ssl")
    for listener in sasl_listeners:
        for mech in SCRAM_MECHANISMS:
            props[f"listener.name.{listener}.{mech.lower()}.sasl.jaas.config"] = (
                "org.apache.kafka.common.security.scram.ScramLoginModule required;"
            )
    props.update(extra or {})
    return "".join(f"{k}={v}\n" for k, v in props.items())


def _run_tool(args: List[str], cwd: Path, timeout: float) -> str:
    proc = subprocess.run(args, cwd=cwd, capture_output=True, text=True, timeout=timeout)
    if proc.returncode != 0:
        raise BrokerFailed(
            f"the Kafka storage tool failed ({proc.returncode}): "
            + (proc.stdout + proc.stderr).strip()[-2000:]
        )
    return proc.stdout


def _answers_api_versions(host: str, port: int) -> bool:
    """True once the broker answers an ApiVersions v3 request (kafkawire's codec)."""
    import kafkawire
    from kafkawire.protocol.framing import FrameReader
    from kafkawire.protocol.messages import ApiVersionsRequest

    frame = kafkawire.encode_request(
        ApiVersionsRequest(client_software_name="kafkawire-tests", client_software_version="1"),
        3,
        correlation_id=1,
        client_id="readiness",
    )
    try:
        with socket.create_connection((host, port), timeout=2.0) as sock:
            sock.settimeout(5.0)
            sock.sendall(frame)
            reader = FrameReader()
            while True:
                chunk = sock.recv(65536)
                if not chunk:
                    return False
                for payload in reader.feed(chunk):
                    _, resp = kafkawire.decode_response(payload, 18, 3)
                    return resp.error_code == 0 and bool(resp.api_keys)
    except OSError:
        return False


_RUNNING: List[KafkaBroker] = []


def _die_with_parent() -> None:
    """In the child before exec: Linux sends it SIGTERM when the test process dies, even by
    SIGKILL, so no JVM outlives its run."""
    libc = ctypes.CDLL(None, use_errno=True)
    libc.prctl(1, signal.SIGTERM)  # PR_SET_PDEATHSIG


def _stop_all() -> None:
    for broker in list(_RUNNING):
        broker.stop()


atexit.register(_stop_all)


def _launch(broker: KafkaBroker, deadline: float) -> None:
    """Run the broker's JVM (its output appended to ``broker.out``) and wait until it
    answers ApiVersions, by ``deadline`` (monotonic seconds)."""
    work = broker.log_dir.parent
    java, *rest = broker.command
    # the class-data archive is per classpath: a broker with a plugin jar has its own
    options, broker.after_exit = start_options("kafka-broker", rest[rest.index("-cp") + 1])
    with open(work / "broker.out", "ab") as out:
        broker.process = subprocess.Popen(
            [java, *rest[:2], *options, *rest[2:]],
            cwd=work,
            stdin=subprocess.DEVNULL,
            stdout=out,
            stderr=subprocess.STDOUT,
            start_new_session=True,
            preexec_fn=_die_with_parent if sys.platform.startswith("linux") else None,
        )
    while not _answers_api_versions(broker.host, broker.port):
        if broker.process.poll() is not None:
            raise BrokerFailed(
                f"the Kafka broker exited with {broker.process.returncode}: " + broker.output()[-2000:]
            )
        if time.monotonic() > deadline:
            raise BrokerFailed(
                "the Kafka broker did not answer ApiVersions in time: " + broker.output()[-2000:]
            )
        time.sleep(0.2)


def start_broker(
    *,
    timeout: float = START_TIMEOUT,
    extra_properties: Optional[Dict[str, object]] = None,
    tls: Optional[Tuple[str, str]] = None,
    jvm_options: Tuple[str, ...] = (),
    sasl_host: str = "127.0.0.1",
    extra_classpath: Sequence[Path] = (),
    node_id: int = 1,
    cluster_id: Optional[str] = None,
    controller: Optional[str] = None,
    heap: str = HEAP,
) -> KafkaBroker:
    """Format storage and start one broker; return it once it answers ApiVersions.
    ``extra_properties`` are added to its ``server.properties`` (an authorizer, say);
    ``tls`` is ``(certificate, key)``, PEM files, for SSL and SASL_SSL listeners;
    ``jvm_options`` go to the broker's JVM (``-Djava.security.krb5.conf=...``, say);
    ``sasl_host`` is the host its SASL listeners advertise;
    ``extra_classpath`` jars go before Kafka's (a plugin, say).  A node of a cluster of
    several: ``node_id``, the ``cluster_id`` of the first node, and ``controller``, the
    ``host:port`` of the controller quorum (this node is then a broker only)."""
    java = java_executable()
    cp = os.pathsep.join([*map(str, extra_classpath), classpath_string()])
    work = Path(tempfile.mkdtemp(prefix="kafkawire-kafka-"))
    port, sasl_port, controller_port, ssl_port, sasl_ssl_port = _free_ports(5)
    broker = KafkaBroker(
        host="127.0.0.1",
        port=port,
        sasl_port=sasl_port,
        controller_port=controller_port,
        cluster_id=cluster_id or _random_cluster_id(),
        node_id=node_id,
        log_dir=work / "logs",
    )
    keystore = None
    if tls is not None:
        broker.ssl_port, broker.sasl_ssl_port = ssl_port, sasl_ssl_port
        # Kafka's PEM key store is one file: the private key, then the certificate
        keystore = work / "keystore.pem"
        certificate, key = tls
        keystore.write_text(Path(key).read_text() + Path(certificate).read_text())
    config = work / "server.properties"
    config.write_text(
        server_properties(
            node_id=broker.node_id,
            port=port,
            sasl_port=sasl_port,
            controller_port=controller_port,
            log_dir=broker.log_dir,
            users=broker.users,
            extra=extra_properties,
            ssl_port=ssl_port,
            sasl_ssl_port=sasl_ssl_port,
            keystore=str(keystore) if keystore else None,
            sasl_host=sasl_host,
            controller=controller,
        )
    )
    began = time.monotonic()
    try:
        scram = []
        for mech in SCRAM_MECHANISMS:
            for name, password in broker.users.items():
                scram += ["--add-scram", f"{mech}=[name={name},password={password}]"]
        options, dumped = start_options("kafka-storage-tool")
        _run_tool(
            [
                java,
                *options,
                "-cp",
                cp,
                "kafka.tools.StorageTool",
                "format",
                "--config",
                str(config),
                "--cluster-id",
                broker.cluster_id,
                *([] if controller else ["--standalone"]),  # only a controller starts a quorum
                *scram,
            ],
            cwd=work,
            timeout=timeout,
        )
        dumped()
        broker.command = [java, heap, "-Xms64m", *jvm_options, "-cp", cp, "kafka.Kafka", str(config)]
        _RUNNING.append(broker)
        _launch(broker, began + timeout)
    except BaseException:
        broker.stop()
        raise
    broker.start_seconds = time.monotonic() - began
    return broker


__all__ = [
    "KafkaBroker",
    "BrokerFailed",
    "KafkaUnavailable",
    "start_broker",
    "USERS",
    "SCRAM_MECHANISMS",
    "server_properties",
]
