"""Threads that all start on a fresh kafkawire: what is built on first use (message
classes, their plans, each backend's compiled form of them, pyarrow's import for
``to_arrow``) is built from many threads at once and every thread gets what one thread
gets afterwards.  The child runs with ``PYTHON_GIL=0``, so on a free-threaded CPython it
runs without the GIL; there, importing the compiled extensions must leave the GIL off
(they declare ``freethreading_compatible``).  No clock is read.

tests/protocol/test_hostile_threads.py covers threads sharing objects once everything is built.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
import sysconfig
import textwrap

import pytest

from kafkawire import _backend

THREADS = 8

# Runs in a fresh Python: argv[1] is the backend.  Prints one JSON line: the threads'
# results, the same work done again by one thread, and whether the GIL is on.
CHILD = textwrap.dedent(
    """
    import hashlib, json, sys, threading
    from kafkawire.protocol import messages
    from kafkawire import _backend

    from kafkawire.protocol import records

    THREADS = int(sys.argv[2])
    sys.setswitchinterval(1e-6)  # with a GIL: switch threads as often as it can

    names = sorted(messages.CLASSES)[::3]  # a third of the definitions, all versions
    RECS = [
        {"key": b"k%d" % i, "value": b"v" * i, "timestamp": 1000 + i, "headers": [("h", b"%d" % i)]}
        for i in range(40)
    ]

    def work(seed):
        digest = hashlib.sha256()
        # each thread starts at another definition, so first uses collide in every order
        for name in names[seed % len(names):] + names[: seed % len(names)]:
            cls = messages.CLASSES[name]
            for version in range(cls.valid_versions.lowest, cls.valid_versions.highest + 1):
                wire = cls().encode(version)
                back = cls.decode(wire, version)
                digest.update(name.encode() + bytes([version]) + wire + back.encode(version))
        for compression in ("none", "gzip", "zstd"):
            batch = records.encode_batch(RECS, compression=compression, base_offset=seed)
            decoded = [r.as_tuple() for b in records.iter_batches(batch) for r in b.records()]
            digest.update(batch + repr(decoded).encode())
            table = records.to_arrow(batch)
            digest.update(repr(table.to_pydict()).encode())
        return digest.hexdigest()

    barrier = threading.Barrier(THREADS)
    got = [None] * THREADS

    def run(i):
        barrier.wait()
        got[i] = work(i)

    with _backend.use(sys.argv[1]):
        threads = [threading.Thread(target=run, args=(i,)) for i in range(THREADS)]
        for t in threads:
            t.start()
        for t in threads:
            t.join()
        alone = [work(i) for i in range(THREADS)]
        print(json.dumps({"threads": got, "alone": alone, "backend": _backend.BACKEND}))
    """
)


def test_first_use_from_many_threads_builds_what_one_thread_builds(backend):
    pytest.importorskip("pyarrow")
    env = dict(os.environ)
    env["PYTHON_GIL"] = "0"  # without the GIL where the interpreter can
    env["PYTHONPATH"] = os.pathsep.join(
        [os.path.dirname(os.path.dirname(_backend.__file__)), env.get("PYTHONPATH", "")]
    )
    out = subprocess.run(
        [sys.executable, "-c", CHILD, backend, str(THREADS)],
        capture_output=True,
        text=True,
        timeout=300,
        env=env,
    )
    assert out.returncode == 0, out.stderr[-3000:]
    result = json.loads(out.stdout.strip().splitlines()[-1])
    assert result["backend"] == backend
    assert result["threads"] == result["alone"]
    assert "Warning" not in out.stderr, out.stderr


@pytest.mark.backend_independent
@pytest.mark.skipif(not sysconfig.get_config_var("Py_GIL_DISABLED"), reason="needs a free-threaded CPython")
def test_the_extensions_leave_the_gil_off():
    # A free-threaded CPython turns the GIL back on, with a RuntimeWarning, when it
    # imports an extension that does not declare it can run without.
    if not _backend.fast_available():
        pytest.skip("the compiled extensions are not built here")
    env = {k: v for k, v in os.environ.items() if k != "PYTHON_GIL"}
    env["PYTHONPATH"] = os.path.dirname(os.path.dirname(_backend.__file__))
    # kafkawire's own extensions only: cramjam (optional, imported by kafkawire.protocol.compression)
    # answers for its own
    probe = (
        "import sys; sys.modules['cramjam'] = None; import kafkawire; "
        "print(kafkawire.BACKEND, sys._is_gil_enabled())"
    )
    out = subprocess.run(
        [sys.executable, "-W", "error", "-c", probe], capture_output=True, text=True, timeout=120, env=env
    )
    assert (out.stdout.split(), out.stderr) == (["cython", "False"], "")
