"""Amazon's MSK IAM library for Kafka's Java clients (``aws-msk-iam-auth``) as an oracle:
``MskIamOracle.java`` beside this file, compiled against that library (resolved by Maven
from ``msk-iam-pom.xml``, its classpath cached under ``~/.cache/kafkawire`` keyed by the
pom's hash) and the Kafka jars.

:func:`iam_payload` is the library's AWS_MSK_IAM message for a broker host and fixed
credentials; :func:`oauth_token` the token of its OAUTHBEARER login callback handler,
the credentials and region given as the AWS chain's environment variables.
"""

from __future__ import annotations

import functools
import hashlib
import os
import shutil
import subprocess
from pathlib import Path
from typing import Dict, Optional, Tuple

from support.kafka.jars import (
    CACHE_DIR,
    RESOLVE_TIMEOUT,
    KafkaUnavailable,
    cached_jars,
    classpath_string,
    java_executable,
    maven_lock,
)
from support.kafka.java_clients import COMPILE_TIMEOUT

POM = Path(__file__).with_name("msk-iam-pom.xml")
SOURCE = Path(__file__).with_name("MskIamOracle.java")
RUN_TIMEOUT = 120  # seconds for one JVM on a busy 2-core machine


@functools.lru_cache(maxsize=None)
def _library() -> Tuple[Path, ...]:
    cached = CACHE_DIR / f"msk-iam-{hashlib.sha256(POM.read_bytes()).hexdigest()[:16]}.classpath"
    jars = cached_jars(cached)
    if jars:
        return jars
    mvn = shutil.which("mvn")
    if mvn is None:
        raise KafkaUnavailable("no Maven (mvn) to resolve aws-msk-iam-auth")
    with maven_lock():
        jars = cached_jars(cached)
        if jars:
            return jars
        out = cached.with_suffix(".tmp")
        cmd = [mvn, "-q", "-B", "-f", str(POM), "dependency:build-classpath", f"-Dmdep.outputFile={out}"]
        try:
            proc = subprocess.run(cmd, capture_output=True, text=True, timeout=RESOLVE_TIMEOUT)
        except subprocess.TimeoutExpired:
            raise KafkaUnavailable(f"Maven did not resolve aws-msk-iam-auth in {RESOLVE_TIMEOUT} s")
        if proc.returncode != 0 or not out.exists():
            tail = (proc.stdout + proc.stderr).strip().splitlines()[-3:]
            raise KafkaUnavailable("Maven could not resolve aws-msk-iam-auth: " + " | ".join(tail))
        out.replace(cached)
    return cached_jars(cached)


@functools.lru_cache(maxsize=None)
def _classpath() -> str:
    """The compiled oracle, the library and the Kafka jars."""
    libs = os.pathsep.join([*map(str, _library()), classpath_string()])
    key = hashlib.sha256(SOURCE.read_bytes() + libs.encode()).hexdigest()[:16]
    built = CACHE_DIR / f"msk-iam-oracle-{key}"
    if not (built / "MskIamOracle.class").exists():
        partial = built.with_name(built.name + f".{os.getpid()}.tmp")
        shutil.rmtree(partial, ignore_errors=True)
        javac = str(Path(java_executable()).with_name("javac"))
        proc = subprocess.run(
            [javac, "-nowarn", "-cp", libs, "-d", str(partial), str(SOURCE)],
            capture_output=True,
            text=True,
            timeout=COMPILE_TIMEOUT,
        )
        if proc.returncode:
            raise AssertionError(f"javac failed on {SOURCE.name}:\n{proc.stdout}{proc.stderr}")
        shutil.rmtree(built, ignore_errors=True)
        os.replace(partial, built)
    return os.pathsep.join([str(built), libs])


def _run(args, env: Optional[Dict[str, str]] = None) -> str:
    proc = subprocess.run(
        [
            java_executable(),
            "-Xmx256m",
            "-XX:TieredStopAtLevel=1",
            "-cp",
            _classpath(),
            "MskIamOracle",
            *args,
        ],
        capture_output=True,
        text=True,
        timeout=RUN_TIMEOUT,
        env={**os.environ, **(env or {})},
    )
    if proc.returncode:
        raise AssertionError(f"MskIamOracle failed (rc {proc.returncode}):\n{proc.stderr[-3000:]}")
    return proc.stdout.strip().splitlines()[-1]


def iam_payload(host: str, access_key: str, secret_key: str, session_token: Optional[str] = None) -> bytes:
    """The library's AWS_MSK_IAM client message for ``host`` and these credentials."""
    return _run(["iam", host, access_key, secret_key, *([session_token] if session_token else [])]).encode()


def oauth_token(region: str, access_key: str, secret_key: str, session_token: str) -> str:
    """The library's OAUTHBEARER token, the credentials and region from the environment."""
    env = {
        "AWS_REGION": region,
        "AWS_ACCESS_KEY_ID": access_key,
        "AWS_SECRET_ACCESS_KEY": secret_key,
        "AWS_SESSION_TOKEN": session_token,
        # nothing else of the chain: no profile files, no instance metadata
        "AWS_CONFIG_FILE": os.devnull,
        "AWS_SHARED_CREDENTIALS_FILE": os.devnull,
        "AWS_EC2_METADATA_DISABLED": "true",
    }
    return _run(["oauth"], env)
