"""Without an optional extra, kafkawire says which package is missing and how to install
it: a compressed batch is not reported corrupt and ``to_arrow`` does not end in a bare
``ModuleNotFoundError``.  Each case runs in a child Python in which ``cramjam`` and
``pyarrow`` cannot be imported (``sys.modules[name] = None``), on the test's backend."""

from __future__ import annotations

import json
import subprocess
import sys

import pytest
from conftest import subprocess_env

from kafkawire.protocol import records
from kafkawire.log import segments

pytest.importorskip("cramjam")

CHILD = """
import json, sys
for name in sys.argv[1].split(","):
    sys.modules[name] = None  # what `import name` meets when it is not installed
import kafkawire
from kafkawire.protocol import records
from kafkawire.log import read, read_options, segments
seen = {"backend": kafkawire.BACKEND}
def attempt(what, call):
    try:
        call()
        seen[what] = None
    except Exception as exc:
        seen[what] = [type(exc).__name__, str(exc)]
attempt("encode", lambda: records.encode_batch([{"value": b"v"}], compression="zstd"))
attempt("decode", lambda: records.decode(bytes.fromhex(sys.argv[2])))
attempt("to_arrow", lambda: records.to_arrow(records.encode_batch([{"value": b"v"}])))
if "pyarrow" not in sys.argv[1]:
    attempt("kafka-log", lambda: read.read_all(sys.argv[3], read_options.ReadOptions(mode="PERMISSIVE")))
print(json.dumps(seen))
"""


def _without(backend, missing, *argv):
    env = subprocess_env(
        **({"KAFKAWIRE_NO_EXTENSIONS": "1"} if backend == "python" else {"KAFKAWIRE_REQUIRE_EXTENSIONS": "1"})
    )
    proc = subprocess.run(
        [sys.executable, "-c", CHILD, missing, *argv], env=env, capture_output=True, text=True, timeout=120
    )
    assert proc.returncode == 0, proc.stderr
    seen = json.loads(proc.stdout.strip().splitlines()[-1])
    assert seen.pop("backend") == backend
    return seen


def _compressed_log(tmp_path):
    batch = records.encode_batch([{"value": b"v", "timestamp": 1}], compression="lz4")
    folder = tmp_path / "t-0"
    folder.mkdir()
    (folder / segments.segment_name(0)).write_bytes(batch)
    return batch, tmp_path


def test_without_cramjam_compressed_records_name_the_package(backend, tmp_path):
    pytest.importorskip("pyarrow")
    batch, log_dir = _compressed_log(tmp_path)
    seen = _without(backend, "cramjam", batch.hex(), str(log_dir))
    hint = "compression needs the 'cramjam' package: pip install 'kafkawire[compression]'"
    assert seen["encode"] == ["CodecUnavailableError", f"zstd {hint}"]
    assert seen["decode"] == ["CodecUnavailableError", f"lz4 {hint}"]  # not a corrupt batch
    assert seen["kafka-log"] == ["CodecUnavailableError", f"lz4 {hint}"]  # not a corrupt row
    assert seen["to_arrow"] is None  # nothing compressed: nothing missing


def test_without_pyarrow_to_arrow_names_the_extra(backend, tmp_path):
    batch, _ = _compressed_log(tmp_path)
    seen = _without(backend, "pyarrow", batch.hex())
    assert seen["to_arrow"] == [
        "ModuleNotFoundError",
        "Arrow output needs the 'pyarrow' package: pip install 'kafkawire[arrow]'",
    ]
    assert seen["decode"] is None and seen["encode"] is None


def test_dump_log_without_cramjam_says_what_is_missing_not_corrupt(backend, tmp_path):
    _batch, log_dir = _compressed_log(tmp_path)
    code = "import sys; sys.modules['cramjam'] = None; from kafkawire.cli import main; sys.exit(main(sys.argv[1:]))"
    env = subprocess_env(
        **({"KAFKAWIRE_NO_EXTENSIONS": "1"} if backend == "python" else {"KAFKAWIRE_REQUIRE_EXTENSIONS": "1"})
    )
    proc = subprocess.run(
        [sys.executable, "-c", code, "dump-log", str(log_dir / "t-0")],
        env=env,
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert proc.returncode == 1
    assert proc.stderr == (
        "kafkawire dump-log: lz4 compression needs the 'cramjam' package: pip install 'kafkawire[compression]'\n"
    )


GSSAPI_CHILD = """
import json, sys
sys.modules["gssapi"] = None  # what `import gssapi` meets when it is not installed
from kafkawire import sasl
from kafkawire.broker import Broker
from kafkawire.cluster.config import ClientConfig
seen = {}
def attempt(what, call):
    try:
        call()
        seen[what] = None
    except Exception as exc:
        seen[what] = [type(exc).__name__, str(exc)]
attempt("client", lambda: sasl.GssapiClient("broker1"))
attempt("broker", lambda: Broker(security_protocol="SASL_PLAINTEXT", sasl_mechanisms=["GSSAPI"],
                                 kerberos_keytab=sys.argv[1]))
config = ClientConfig.parse({"bootstrap.servers": "broker1:9092", "security.protocol": "SASL_PLAINTEXT",
                             "sasl.kerberos.service.name": "kafka"})
attempt("kafka-cluster", lambda: config.sasl_client("broker1"))
attempt("plain", lambda: sasl.client_for("PLAIN", "u", "p"))
print(json.dumps(seen))
"""


@pytest.mark.backend_independent
def test_without_gssapi_kerberos_names_the_extra(tmp_path):
    keytab = tmp_path / "service.keytab"
    keytab.write_bytes(b"\x05\x02")  # an empty keytab: the package is missing before it is read
    proc = subprocess.run(
        [sys.executable, "-c", GSSAPI_CHILD, str(keytab)],
        env=subprocess_env(),
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert proc.returncode == 0, proc.stderr
    seen = json.loads(proc.stdout.strip().splitlines()[-1])
    missing = [
        "ModuleNotFoundError",
        "SASL mechanism GSSAPI (Kerberos) needs the 'gssapi' package (on MIT Kerberos): "
        "pip install 'kafkawire[kerberos]'",
    ]
    assert seen == {"client": missing, "broker": missing, "kafka-cluster": missing, "plain": None}


@pytest.mark.backend_independent
def test_without_kerberos_its_tests_skip_saying_what_to_install(monkeypatch, tmp_path):
    from support import kdc
    from support.fixtures.kerberos import require_kerberos

    monkeypatch.setitem(sys.modules, "gssapi", None)  # what `import gssapi` meets when it is not installed
    monkeypatch.setattr(kdc, "missing_tools", lambda: ["krb5kdc", "kadmin.local"])
    monkeypatch.setenv("PATH", str(tmp_path))  # no kcat
    monkeypatch.delenv("KAFKAWIRE_REQUIRE_KERBEROS", raising=False)
    reason = (
        "the Kerberos tests need krb5kdc, kadmin.local (Debian: apt-get install krb5-kdc krb5-admin-server "
        "krb5-user); the gssapi package (pip install -e '.[kerberos]', which builds against MIT Kerberos's "
        "krb5-config: Debian's libkrb5-dev); kcat (Debian: apt-get install kcat libsasl2-modules-gssapi-mit)"
    )
    with pytest.raises(pytest.skip.Exception) as skipped:
        require_kerberos("kcat")
    assert skipped.value.msg == reason
    monkeypatch.setenv("KAFKAWIRE_REQUIRE_KERBEROS", "1")
    with pytest.raises(pytest.fail.Exception) as failed:
        require_kerberos("kcat")
    assert failed.value.msg == reason + " (KAFKAWIRE_REQUIRE_KERBEROS=1)"


BOTOCORE_CHILD = """
import json, sys
sys.modules["botocore"] = None  # what `import botocore` meets when it is not installed
from kafkawire.cluster.config import ClientConfig
config = ClientConfig.parse({"bootstrap.servers": "b-1.x.kafka.eu-west-1.amazonaws.com:9098",
                             "security.protocol": "SASL_SSL", "sasl.mechanism": "AWS_MSK_IAM",
                             "sasl.jaas.config": "software.amazon.msk.auth.iam.IAMLoginModule required;"})
client = config.sasl_client("b-1.x.kafka.eu-west-1.amazonaws.com")  # no credentials asked yet
try:
    client.prepare()
    print(json.dumps(None))
except Exception as exc:
    print(json.dumps([type(exc).__name__, str(exc)]))
"""


@pytest.mark.backend_independent
def test_without_botocore_msk_iam_names_the_extra():
    proc = subprocess.run(
        [sys.executable, "-c", BOTOCORE_CHILD],
        env=subprocess_env(),
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert proc.returncode == 0, proc.stderr
    assert json.loads(proc.stdout.strip().splitlines()[-1]) == [
        "ModuleNotFoundError",
        "Amazon MSK IAM needs the 'botocore' package for the AWS credential chain: pip install 'kafkawire[aws]'",
    ]
