"""The ``kafkawire`` command line: one-line errors with meaningful exit statuses, help in
plain text, truncated input called truncated, directories and corrupt batches in
``dump-log``, one way of printing keys and values, quiet broken pipes, ``--version``,
and the demo's log directory."""

from __future__ import annotations

import argparse
import base64
import json
import os
import re
import runpy
import shutil
import signal
import socket
import struct
import subprocess
import sys
import threading
from pathlib import Path

import pytest
from conftest import subprocess_env

import kafkawire
from kafkawire.protocol import records
from kafkawire import cli
from kafkawire.cli import demo
from kafkawire.log import sample, scan, segments
from kafkawire.protocol import messages as M

pytestmark = pytest.mark.in_process

VECTORS = Path(__file__).parents[1] / "vectors"
# The message set of the protocol guide's worked Produce v0 example (see its sidecar) in a
# size-prefixed Produce v3 frame, the oldest version Kafka 4.4 has
_GUIDE = (VECTORS / "messages" / "produce_v0_request.bin").read_bytes()
PRODUCE = kafkawire.encode_request(
    M.ProduceRequest(
        acks=1,
        timeout_ms=1500,
        topic_data=[
            M.ProduceRequest.TopicProduceData(
                name="test",
                partition_data=[M.ProduceRequest.PartitionProduceData(index=0, records=_GUIDE[-37:])],
            )
        ],
    ),
    3,
    1,
    "foo",
)
# a v2 batch written by kafka-python: UTF-8, empty, null and binary keys, values, headers
KP_BATCH = VECTORS / "records" / "v2-none-kafka-python"


def _main(capsys, *argv):
    status = cli.main(list(argv))
    out, err = capsys.readouterr()
    return status, out, err


def _one_line(err: str, prog: str) -> str:
    """The single stderr line of a failed command, checked to name the command."""
    lines = err.splitlines()
    assert len(lines) == 1, err
    assert lines[0].startswith(f"{prog}: "), err
    assert "Traceback" not in err
    return lines[0]


def _kafkawire(backend: str, *argv, **kwargs) -> subprocess.CompletedProcess:
    """``python -m kafkawire ARGV`` on the test's backend, importing this kafkawire."""
    env = subprocess_env(
        **({"KAFKAWIRE_NO_EXTENSIONS": "1"} if backend == "python" else {"KAFKAWIRE_REQUIRE_EXTENSIONS": "1"})
    )
    kwargs.setdefault("stdout", subprocess.PIPE)
    return subprocess.run(
        [sys.executable, "-m", "kafkawire", *argv],
        env=env,
        stderr=subprocess.PIPE,
        text=True,
        timeout=120,
        **kwargs,
    )


# -- arguments, help and version -------------------------------------------------------


@pytest.mark.backend_independent
def test_version_prints_the_package_version(backend):
    proc = _kafkawire(backend, "--version")
    assert (proc.returncode, proc.stdout, proc.stderr) == (0, f"kafkawire {kafkawire.__version__}\n", "")


@pytest.mark.backend_independent
def test_python_dash_m_kafkawire_is_the_command(capsys, monkeypatch):
    monkeypatch.setattr(sys, "argv", ["kafkawire", "--version"])
    with pytest.raises(SystemExit) as exit_:
        runpy.run_module("kafkawire", run_name="__main__")
    assert exit_.value.code == 0
    assert capsys.readouterr().out == f"kafkawire {kafkawire.__version__}\n"


@pytest.mark.backend_independent
@pytest.mark.parametrize("argv", [["--help"]] + [[name, "--help"] for name in cli.COMMANDS])
def test_every_help_is_plain_text(capsys, argv):
    status, out, err = _main(capsys, *argv)
    assert (status, err) == (0, "")
    assert out.startswith("usage: kafkawire")
    assert not re.search(r"``|:(mod|class|func|meth|attr):`", out), out


@pytest.mark.backend_independent
@pytest.mark.parametrize(
    "argv",
    [
        ["decode", "--bogus"],
        ["decode", "--request", "--response"],
        ["decode", "--response", "--hex", "00"],
        ["decode", "--hex", "zzzz"],
        ["decode", "--hex", "abc"],
        ["dump-log"],
        ["dump-log", "--max-bytes", "-1", "x.log"],
        ["dump-log", "--bytes-as", "utf16", "x.log"],
        ["serve", "--port", "70000"],
        ["serve", "--partitions", "0"],
        ["serve", "--port", "0", "--max-seconds", "0", "--user", "no-password"],
        ["demo", "--scale", "0"],
        ["demo", "--dir"],
        ["no-such-command"],
    ],
)
def test_usage_errors_are_one_line_with_status_2(capsys, argv):
    status, out, err = _main(capsys, *argv)
    prog = "kafkawire" if argv[0] not in cli.COMMANDS else f"kafkawire {argv[0]}"
    _one_line(err, prog)
    assert (status, out) == (2, "")


@pytest.mark.backend_independent
def test_no_command_prints_the_usage_with_status_2(capsys):
    status, out, err = _main(capsys)
    assert status == 2 and out == "" and "commands:" in err


@pytest.mark.backend_independent
def test_verbose_adds_the_traceback_to_the_line(capsys):
    cut = PRODUCE[:40].hex()
    status, _out, err = _main(capsys, "decode", "--hex", cut)
    assert status == 1 and "truncated" in _one_line(err, "kafkawire decode")
    status, _out, err = _main(capsys, "decode", "-v", "--hex", cut)
    assert status == 1 and err.startswith("Traceback") and "TruncatedError" in err
    assert err.splitlines()[-1].startswith("kafkawire decode: truncated")


@pytest.mark.backend_independent
def test_unexpected_errors_are_one_line_naming_their_type(capsys):
    parser = cli.CommandParser("kafkawire test", "a command that fails")

    def fails(exc):
        def work(args: argparse.Namespace):
            raise exc

        return work

    status = cli.run_command(parser, fails(RuntimeError("went\nwrong")), [])
    err = capsys.readouterr().err
    assert status == 1
    assert _one_line(err, "kafkawire test") == (
        "kafkawire test: RuntimeError: went wrong (-v shows the traceback)"
    )
    assert cli.run_command(parser, fails(KeyboardInterrupt()), []) == 130
    assert _one_line(capsys.readouterr().err, "kafkawire test") == "kafkawire test: interrupted"


# -- serve -----------------------------------------------------------------------------


@pytest.mark.backend_independent
@pytest.mark.timeout(120)
def test_serve_on_a_used_port_says_so_in_one_line(backend, capsys):
    with socket.socket() as taken:
        taken.bind(("127.0.0.1", 0))
        taken.listen()
        port = taken.getsockname()[1]
        proc = _kafkawire(backend, "serve", "--port", str(port), "--max-seconds", "30")
        in_process = _main(capsys, "serve", "--port", str(port), "--max-seconds", "30")
    line = _one_line(proc.stderr, "kafkawire serve")
    assert proc.returncode == 1 and proc.stdout == ""
    assert line.startswith(f"kafkawire serve: cannot listen on 127.0.0.1:{port}: ")
    if sys.platform.startswith("linux"):
        assert line.endswith("Address already in use")
    status, out, err = in_process
    assert (status, out, _one_line(err, "kafkawire serve")) == (1, "", line)


@pytest.mark.backend_independent
def test_serve_with_a_bad_log_dir_says_so_in_one_line(capsys, tmp_path):
    a_file = tmp_path / "a-file"
    a_file.write_text("not a directory")
    for log_dir in (a_file, a_file / "below"):
        status, out, err = _main(
            capsys, "serve", "--port", "0", "--max-seconds", "0", "--log-dir", str(log_dir)
        )
        assert (status, out) == (1, "")
        line = _one_line(err, "kafkawire serve")
        assert line.startswith(f"kafkawire serve: --log-dir {log_dir}: ")
        assert "directory" in line.lower()
    status, out, err = _main(
        capsys,
        "serve",
        "--port",
        "0",
        "--max-seconds",
        "0",
        "--security-protocol",
        "SSL",
        "--ssl-certfile",
        str(tmp_path / "missing.pem"),
    )
    assert (status, out) == (1, "")
    assert "--ssl-certfile" in _one_line(err, "kafkawire serve")
    # flags, not the keyword arguments of Broker
    status, out, err = _main(
        capsys, "serve", "--port", "0", "--max-seconds", "0", "--security-protocol", "SSL"
    )
    assert (status, out) == (2, "")
    assert _one_line(err, "kafkawire serve").endswith(
        "--security-protocol SSL needs the broker's certificate and key: --ssl-certfile FILE --ssl-keyfile FILE"
    )
    missing = tmp_path / "missing" / "frames.jsonl"
    status, out, err = _main(
        capsys, "serve", "--port", "0", "--max-seconds", "0", "--frame-log", str(missing)
    )
    assert (status, out) == (1, "")
    assert (
        _one_line(err, "kafkawire serve")
        == f"kafkawire serve: --frame-log {missing}: No such file or directory"
    )


@pytest.mark.backend_independent
@pytest.mark.timeout(60)
def test_serve_runs_until_its_time_is_up(capsys, tmp_path):
    status, out, err = _main(
        capsys,
        "serve",
        "--port",
        "0",
        "--max-seconds",
        "0.1",
        "--partitions",
        "2",
        "--check-roundtrip",
        "--log-dir",
        str(tmp_path / "logs"),
    )
    assert (status, err) == (0, "")
    assert re.match(
        r"kafkawire broker listening on 127\.0\.0\.1:\d+\n"
        r"frames checked: 0, not byte-exact: 0\n$",
        out,
    ), out
    assert (tmp_path / "logs").is_dir()


@pytest.mark.backend_independent
@pytest.mark.skipif(sys.platform == "win32", reason="asyncio has no signal handlers on Windows")
@pytest.mark.timeout(60)
def test_serve_stops_cleanly_on_ctrl_c(capsys):
    with socket.socket() as probe:  # a free port, known before the broker starts
        probe.bind(("127.0.0.1", 0))
        port = probe.getsockname()[1]
    answered = []

    def interrupt_once_serving():
        # once a request is answered the command waits for its stop signal
        for _ in range(200):
            try:
                with socket.create_connection(("127.0.0.1", port), timeout=5) as s:
                    s.sendall(kafkawire.encode_request(M.ApiVersionsRequest(), 3, 1, "t"))
                    answered.append(len(s.recv(4)) == 4)
                break
            except OSError:
                threading.Event().wait(0.05)
        os.kill(os.getpid(), signal.SIGINT)

    thread = threading.Thread(target=interrupt_once_serving, daemon=True)
    thread.start()
    status, out, err = _main(capsys, "serve", "--port", str(port))
    thread.join(10)
    assert answered == [True]
    assert (status, err) == (0, "")
    assert out == f"kafkawire broker listening on 127.0.0.1:{port}\n"


# -- decode ----------------------------------------------------------------------------


def test_decode_of_a_truncated_frame_says_truncated(capsys, tmp_path):
    status, out, err = _main(capsys, "decode", "--hex", PRODUCE[:40].hex())
    line = _one_line(err, "kafkawire decode")
    assert (status, out) == (1, "")
    assert "truncated" in line and "version" not in line
    assert f"{len(PRODUCE) - 4} bytes" in line and "36 follow" in line  # the size prefix promised
    # a captured stream cut inside its second frame: the first decodes, then the error
    stream = tmp_path / "stream.bin"
    stream.write_bytes(PRODUCE + PRODUCE[:50])
    status, out, err = _main(capsys, "decode", "--compact", str(stream))
    assert status == 1
    (first,) = [json.loads(line) for line in out.splitlines()]
    assert first["api_name"] == "ProduceRequest" and first["header"]["client_id"] == "foo"
    assert f"the frame at byte {len(PRODUCE)}" in _one_line(err, "kafkawire decode")
    # a bare payload that ends early says truncated too
    status, _out, err = _main(capsys, "decode", "--no-size-prefix", "--hex", PRODUCE[4:30].hex())
    assert status == 1 and "truncated" in _one_line(err, "kafkawire decode")
    status, _out, err = _main(capsys, "decode", "--hex", "00ff")
    assert status == 1 and "truncated" in _one_line(err, "kafkawire decode")


def test_decode_says_what_is_wrong_with_hex_and_api_keys(capsys, tmp_path):
    status, out, err = _main(capsys, "decode", "--hex", "zzzz")
    assert (status, out) == (2, "")
    assert "not hexadecimal" in _one_line(err, "kafkawire decode")
    # a whole frame of API key 999: the size prefix fits, the key is unknown
    payload = struct.pack(">hhi", 999, 0, 1) + b"\x00\x00"
    status, out, err = _main(capsys, "decode", "--hex", (struct.pack(">i", len(payload)) + payload).hex())
    assert (status, out) == (1, "")
    assert "API key 999" in _one_line(err, "kafkawire decode")
    status, out, err = _main(
        capsys, "decode", "--response", "--api-key", "999", "--version", "0", "--hex", "0000000100"
    )
    assert (status, out) == (1, "")
    assert "999" in _one_line(err, "kafkawire decode")
    hex_file = tmp_path / "odd.hex"
    hex_file.write_text("0x000\n")
    status, out, err = _main(capsys, "decode", str(hex_file))
    assert (status, out) == (1, "")
    assert "odd number" in _one_line(err, "kafkawire decode")
    status, out, err = _main(capsys, "decode", str(tmp_path / "missing.bin"))
    assert (status, out) == (1, "")
    assert "missing.bin" in _one_line(err, "kafkawire decode")
    bad_log = tmp_path / "frames.jsonl"
    bad_log.write_text('{"hex": "00"}\n{"hex": \n')
    status, _out, err = _main(capsys, "decode", str(bad_log))
    assert status == 1 and "line 2" in _one_line(err, "kafkawire decode")


# -- keys and values: one way for decode and dump-log ----------------------------------


def _expected(hex_text, how):
    """The printing rule of --bytes-as, written out here from its description."""
    if hex_text is None:
        return None
    data = bytes.fromhex(hex_text)
    if how == "hex":
        return hex_text
    if how == "text":
        return data.decode("utf-8", "backslashreplace")
    if how == "auto":
        try:
            return data.decode("utf-8")
        except UnicodeDecodeError:
            pass
    return base64.b64encode(data).decode()


@pytest.mark.parametrize("how", ["auto", "text", "base64", "hex"])
def test_decode_and_dump_log_print_keys_and_values_the_same_way(capsys, tmp_path, how):
    batch = KP_BATCH.with_suffix(".bin").read_bytes()
    want = json.loads(KP_BATCH.with_suffix(".json").read_text())["records"]
    assert {_expected(r["value"], "auto") == _expected(r["value"], "base64") for r in want if r["value"]} == {
        True,
        False,
    }  # both kinds are there
    segment = tmp_path / segments.segment_name(0)
    segment.write_bytes(batch)
    P = M.ProduceRequest
    frame = kafkawire.encode_request(
        P(
            acks=1,
            timeout_ms=100,
            topic_data=[
                P.TopicProduceData(name="t", partition_data=[P.PartitionProduceData(index=0, records=batch)])
            ],
        ),
        8,
        5,
        "c",
    )

    status, out, err = _main(
        capsys, "decode", "--records", "--compact", "--bytes-as", how, "--hex", frame.hex()
    )
    assert (status, err) == (0, "")
    decoded = json.loads(out)["body"]["topic_data"][0]["partition_data"][0]["records"]
    status, out, err = _main(capsys, "dump-log", "--bytes-as", how, str(segment))
    assert (status, err) == (0, "")
    dumped = json.loads(out.splitlines()[1])["records"]

    assert (
        [(r["key"], r["value"]) for r in decoded]
        == [(r["key"], r["payload"]) for r in dumped]
        == [(_expected(r["key"], how), _expected(r["value"], how)) for r in want]
    )
    assert [r["headers"] for r in decoded] == [
        [[k, _expected(v, how)] for k, v in r["headers"]] for r in want
    ]


# -- dump-log ----------------------------------------------------------------------------


def test_dump_log_of_a_directory_dumps_its_segments(capsys, tmp_path):
    log = sample.generate(str(tmp_path / "logs"))
    partition = Path(log.directory) / "orders-0"
    status, out, err = _main(capsys, "dump-log", "--no-data", str(partition))
    assert (status, err) == (0, "")
    dumped = [json.loads(line)["dumping"] for line in out.splitlines() if "dumping" in line]
    files = sorted(p.name for p in partition.iterdir() if p.suffix in (".log", ".index", ".timeindex"))
    assert len(files) >= 6  # several segments, each with its two indexes
    assert dumped == [str(partition / name) for name in files]
    batches = [json.loads(line) for line in out.splitlines() if "baseOffset" in line]
    (plog,) = segments.discover(str(partition))
    assert len(batches) == sum(len(list(scan.scan_headers(s.path))) for s in plog.segments)

    status, out, err = _main(capsys, "dump-log", "--no-data", log.directory)  # the path the demo prints
    assert (status, err) == (0, "")
    dumped = [json.loads(line)["dumping"] for line in out.splitlines() if "dumping" in line]
    folders = sorted(segments.discover(log.directory), key=lambda p: (p.topic, p.partition))
    assert [os.path.dirname(d) for d in dumped if d.endswith(".log")] == [
        p.directory for p in folders for _ in p.segments
    ]
    assert len({os.path.dirname(d) for d in dumped}) == 6
    (partition / "partition.metadata").write_text("version: 0\ntopic_id: 8Xm2dZ0nRBuK3cS0v2OYcA\n")
    (tmp_path / "logs" / "not-a-partition").mkdir()
    for path, why in (
        (partition / "partition.metadata", "not a segment or index file (the partition's topic id, as text)"),
        (tmp_path / "logs" / "not-a-partition", "no Kafka log in it: looked for .log, .index"),
    ):
        status, out, err = _main(capsys, "dump-log", str(path))
        assert (status, out) == (1, "")
        assert why in _one_line(err, "kafkawire dump-log")
    status, out, err = _main(capsys, "dump-log", str(tmp_path / "nothing-here"))
    assert (status, out) == (1, "")
    assert "no such file" in _one_line(err, "kafkawire dump-log")


def test_dump_log_stops_at_a_corrupt_batch_unless_skip_corrupt(capsys, tmp_path):
    good = KP_BATCH.with_suffix(".bin").read_bytes()
    bad = bytearray(good)
    bad[-3] ^= 0x01  # in the records: the stored CRC no longer matches
    segment = tmp_path / segments.segment_name(0)
    segment.write_bytes(good + bytes(bad) + good)

    status, out, err = _main(capsys, "dump-log", str(segment))
    batches = [json.loads(line) for line in out.splitlines()[1:]]
    assert status == 1
    assert [b["isvalid"] for b in batches] == [True, False]  # stopped there
    line = _one_line(err, "kafkawire dump-log")
    assert f"{segment}: corrupt batch at byte {len(good)}" in line and "--skip-corrupt" in line

    status, out, err = _main(capsys, "dump-log", "--skip-corrupt", str(segment))
    batches = [json.loads(line) for line in out.splitlines()[1:]]
    assert status == 1
    assert [b["isvalid"] for b in batches] == [True, False, True]
    assert [b["position"] for b in batches] == [0, len(good), 2 * len(good)]
    assert len(batches[2]["records"]) == len(batches[0]["records"]) == 5
    assert f"corrupt batch at byte {len(good)}" in _one_line(err, "kafkawire dump-log")


# -- broken pipes --------------------------------------------------------------------------


@pytest.mark.backend_independent
@pytest.mark.skipif(sys.platform == "win32", reason="a closed pipe is EINVAL on Windows")
@pytest.mark.parametrize(
    "argv",
    [
        ["--help"],
        ["--version"],
        ["decode", "--help"],
        ["dump-log", "--help"],
        ["decode", "--hex", PRODUCE.hex()],
        ["dump-log", "SEGMENT"],
    ],
)
def test_output_into_a_closed_pipe_ends_quietly(backend, tmp_path, argv):
    if argv == ["dump-log", "SEGMENT"]:
        segment = tmp_path / segments.segment_name(0)
        segment.write_bytes(
            records.encode_batch([{"value": b"v%d" % i, "timestamp": i} for i in range(2000)])
        )
        argv = ["dump-log", str(segment)]
    read_end, write_end = os.pipe()
    os.close(read_end)  # the reader is gone before anything is written (`| head`)
    try:
        proc = _kafkawire(backend, *argv, stdout=write_end)
    finally:
        os.close(write_end)
    assert (proc.returncode, proc.stderr) == (0, "")


@pytest.mark.backend_independent
@pytest.mark.skipif(sys.platform == "win32", reason="a closed pipe is EINVAL on Windows")
@pytest.mark.parametrize(
    "argv", [["--help"], ["--version"], ["decode", "--help"], ["decode", "--hex", PRODUCE.hex()]]
)
def test_output_into_a_closed_pipe_ends_quietly_in_process(monkeypatch, capsys, argv):
    read_end, write_end = os.pipe()
    os.close(read_end)
    with open(write_end, "w") as closed:
        monkeypatch.setattr(sys, "stdout", closed)
        status = cli.main(argv)
        monkeypatch.undo()  # before the file closes: its last flush goes to /dev/null
    assert (status, capsys.readouterr().err) == (0, "")


# -- demo -----------------------------------------------------------------------------------


@pytest.mark.backend_independent
def test_demo_keeps_its_log_dir_only_with_dir(capsys, tmp_path):
    with demo.log_dir(None) as directory:
        os.makedirs(directory)
        temporary = os.path.dirname(directory)
    out = capsys.readouterr().out
    assert f"a temporary directory, removed at exit: {temporary}" in out
    assert f"removed {temporary}" in out and not os.path.exists(temporary)

    keep = tmp_path / "kept"
    with demo.log_dir(str(keep)) as directory:
        os.makedirs(directory)
    assert directory == str(keep) and keep.is_dir()
    assert f"to {keep} (kept afterwards)" in capsys.readouterr().out

    (keep / "x").write_text("")
    for bad, why in ((keep, "not empty"), (keep / "x", "not a directory")):
        status, out, err = _main(capsys, "demo", "--dir", str(bad))
        assert (status, out) == (1, "")
        assert why in _one_line(err, "kafkawire demo")


@pytest.mark.backend_independent
def test_demo_reuse_needs_a_written_sample(capsys, tmp_path):
    status, out, err = _main(capsys, "demo", "--reuse")
    assert (status, out) == (2, "")
    assert "--reuse needs --dir DIR" in _one_line(err, "kafkawire demo")
    (tmp_path / "empty").mkdir()
    for where, why in (
        (tmp_path / "missing", "no such directory"),
        (tmp_path / "empty", "no Kafka log in it: looked for partition folders"),
    ):
        status, out, err = _main(capsys, "demo", "--dir", str(where), "--reuse")
        assert (status, out) == (1, "")
        assert why in _one_line(err, "kafkawire demo")


@pytest.mark.backend_independent
def test_demo_without_java_17_says_so_in_one_line(capsys, monkeypatch, tmp_path):
    pytest.importorskip("pyspark")
    monkeypatch.delenv("JAVA_HOME", raising=False)
    monkeypatch.setenv("PATH", str(tmp_path))  # no java here
    status, out, err = _main(capsys, "demo", "--dir", str(tmp_path / "logs"))
    assert (status, out) == (1, "")
    assert (
        _one_line(err, "kafkawire demo")
        == "kafkawire demo: needs Java 17 or newer for Spark: no java in PATH"
    )

    old = tmp_path / "jdk11"
    (old / "bin").mkdir(parents=True)
    java = old / "bin" / "java"  # what `java -version` of a Java 11 prints, on stderr
    java.write_text("#!/bin/sh\necho 'openjdk version \"11.0.22\" 2024-01-16' >&2\n")
    java.chmod(0o755)
    monkeypatch.setenv("JAVA_HOME", str(old))
    status, out, err = _main(capsys, "demo", "--dir", str(tmp_path / "logs"))
    assert (status, out) == (1, "")
    assert _one_line(err, "kafkawire demo").endswith(f"needs Java 17 or newer for Spark: {java} is Java 11")
    assert demo.java_version(str(java)) == 11 and not (tmp_path / "logs").exists()


def _unbuilt_checkout(tmp_path: Path) -> Path:
    """A kafkawire source tree without compiled extensions, as a fresh clone is: the
    directory the README's commands run in."""
    checkout = tmp_path / "checkout"
    shutil.copytree(
        Path(kafkawire.__file__).parent,
        checkout / "kafkawire",
        ignore=shutil.ignore_patterns("*.so", "*.pyd", "__pycache__", "build"),
    )
    return checkout


def _demo_process(tmp_path: Path, *argv: str, **popen) -> subprocess.Popen:
    """``kafkawire demo`` started as its console script starts it (the script's folder,
    not the working directory, first on sys.path: ``python -P``), from a checkout."""
    if shutil.which("java") is None and not os.environ.get("JAVA_HOME"):
        pytest.skip("Spark needs a Java runtime (java on PATH or JAVA_HOME)")
    env = {"PYSPARK_PYTHON": sys.executable, "SPARK_LOCAL_IP": "127.0.0.1", "TMPDIR": str(tmp_path)}
    env = subprocess_env(**env)
    for name in ("KAFKAWIRE_REQUIRE_EXTENSIONS", "KAFKAWIRE_NO_EXTENSIONS", "PYTHONSAFEPATH"):
        env.pop(name, None)
    return subprocess.Popen(
        [sys.executable, "-P", "-m", "kafkawire", "demo", "--master", "local[1]", *argv],
        cwd=_unbuilt_checkout(tmp_path),
        env=env,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        **popen,
    )


@pytest.fixture(scope="module")
def demo_processes(tmp_path_factory):
    """Two ``kafkawire demo`` processes started at once (each starts its own Spark, most of
    its time, and most of it waiting on one core): one to interrupt, one to run through.
    Each gets a folder of its own as TMPDIR: ``{"interrupted": (proc, folder), "full": ...}``."""
    pytest.importorskip("pyspark")
    pytest.importorskip("pyarrow")
    started = {}
    try:
        for name in ("interrupted", "full"):
            folder = tmp_path_factory.mktemp(f"demo-{name}")
            started[name] = (_demo_process(folder), folder)
        yield started
    finally:
        for proc, _ in started.values():
            proc.kill()
            proc.wait(60)
            proc.stdout.close()
            proc.stderr.close()


@pytest.mark.spark
@pytest.mark.slow
@pytest.mark.backends("cython")
@pytest.mark.timeout(900)
def test_demo_interrupted_says_so_in_one_line(backend, demo_processes):
    proc, _ = demo_processes["interrupted"]
    seen = []
    for line in proc.stdout:  # Ctrl-C while Spark runs the first query
        seen.append(line)
        if line.startswith("[1/4]"):
            proc.send_signal(signal.SIGINT)
            break
    stdout, stderr = proc.communicate(timeout=300)
    assert seen and seen[-1].startswith("[1/4]"), "".join(seen)
    assert proc.returncode == 130, stderr[-3000:]
    assert _one_line(stderr, "kafkawire demo") == "kafkawire demo: interrupted"
    assert "removed " in stdout  # the temporary directory too


@pytest.mark.spark
@pytest.mark.slow
@pytest.mark.backends("cython")
@pytest.mark.timeout(900)
def test_demo_runs_from_the_command_line(backend, demo_processes):
    """Run in a checkout whose extensions are not built, the demo's Spark workers import
    the same compiled kafkawire as the driver, not the checkout (``python -m
    pyspark.daemon`` would put it first on their sys.path), and stderr stays empty:
    no fallback warning, no Spark log."""
    proc, tmp_path = demo_processes["full"]
    stdout, stderr = proc.communicate(timeout=840)
    assert (proc.returncode, stderr) == (0, ""), stderr[-3000:]
    match = re.search(r"a temporary directory, removed at exit: (\S+)", stdout)
    assert match, stdout
    temporary = match.group(1)
    assert temporary.startswith(str(tmp_path))
    assert f"removed {temporary}" in stdout and not os.path.exists(temporary)
    assert "kafkawire backend: cython in the driver and the workers\n" in stdout, stdout
    steps = re.findall(r"^\[(\d)/4\] ", stdout, re.M)
    assert steps == ["1", "2", "3", "4"], stdout
    for text in (
        "starting local Spark (local[1])",
        "records per topic and compression",
        "what read_committed removed",
    ):
        assert text in stdout
    assert not list(tmp_path.glob("kafkawire-demo-spark-*.log"))  # removed after a clean run
