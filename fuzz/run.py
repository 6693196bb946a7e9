"""Run kafkawire's coverage-guided fuzz targets (atheris / libFuzzer), or replay a corpus.

    python fuzz/run.py --list
    python fuzz/run.py records --time 300           # fuzz one target for 5 minutes
    python fuzz/run.py all --time 60                # every target, one minute each
    python fuzz/run.py records --time 300 --merge   # then keep new coverage in the corpus
    python fuzz/run.py --replay [TARGET ...]        # every corpus file once, no atheris
    python fuzz/run.py --replay records --input crash-1234   # one file, e.g. a crash

Inputs that find new coverage go to a work directory (``--workdir``, default
``$TMPDIR/kafkawire-fuzz/<target>``), not into the repository; the seeds and the
minimized inputs kept in ``fuzz/corpus/<target>/`` are read as a second corpus.
``--merge`` adds to ``fuzz/corpus/<target>/`` only the work-directory inputs that bring
new coverage (libFuzzer's ``-merge=1``), which keeps the saved corpus small.  Crashes
are written as ``<workdir>/crash-*``; replay one with ``--replay TARGET --input FILE``.

Every target runs both backends and fails on any exception that is not a
``kafkawire.errors`` exception, and on any disagreement between the Cython and the
pure-Python backend (see ``fuzz/targets.py``).  Arguments after ``--`` go to libFuzzer
(e.g. ``-- -max_len=4096 -jobs=1``).  Fuzz nice'd on shared machines:
``nice -n 15 python fuzz/run.py ...``.
"""

from __future__ import annotations

import argparse
import glob
import os
import subprocess
import sys
import tempfile
import time

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(HERE)
CORPUS = os.path.join(HERE, "corpus")
sys.path.insert(0, ROOT)

#: Modules imported under atheris' instrumentation (their Python code gets coverage
#: feedback; the Cython backend is compiled C and is exercised, not instrumented).
INSTRUMENTED = (
    "kafkawire",
    "kafkawire._pure.primitives",
    "kafkawire._pure.codec",
    "kafkawire._pure.codec_compile",
    "kafkawire._pure.records",
    "kafkawire._pure.records_encode",
    "kafkawire._pure.crc",
    "kafkawire.protocol.primitives",
    "kafkawire.protocol.framing",
    "kafkawire.protocol.messages",
    "kafkawire.protocol.headers",
    "kafkawire.protocol.requests",
    "kafkawire.protocol.records",
    "kafkawire.protocol.compression",
    "kafkawire.log.segments",
    "kafkawire.cli.dump_log",
    "kafkawire.cli.decode",
    "fuzz.targets",
)

MAX_LEN = {"segment": 8192, "frames": 8192, "records": 16384, "compression": 16384}


def _target_names():
    from fuzz import targets

    return list(targets.TARGETS)


def _replay(names, inputs):
    """Run corpus files through their targets without atheris; count failures."""
    import traceback

    from fuzz import targets

    failures = 0
    total = 0
    for name in names:
        files = inputs or sorted(glob.glob(os.path.join(CORPUS, name, "*")))
        start = time.perf_counter()
        for path in files:
            with open(path, "rb") as f:
                data = f.read()
            total += 1
            try:
                targets.TARGETS[name](data)
            except Exception as exc:  # noqa: BLE001 - report every failure
                failures += 1
                print(f"FAIL {name} {path}: {type(exc).__name__}: {str(exc)[:2000]}")
                if exc.__cause__ is not None:
                    traceback.print_exception(exc.__cause__)
        print(f"{name}: {len(files)} inputs replayed in {time.perf_counter() - start:.1f}s")
    print(f"replayed {total} inputs, {failures} failures")
    return 1 if failures else 0


def _launcher(name, workdir):
    """An executable that runs ``name``'s fuzzer: libFuzzer re-executes its argv[0]
    (for ``-merge=1`` and ``-fork``), which must therefore be runnable on its own."""
    path = os.path.join(workdir, f"fuzz-{name}")
    with open(path, "w") as f:
        f.write(
            f"#!/bin/sh\nKAFKAWIRE_FUZZ_ARGV0={path} exec {sys.executable} "
            f'{os.path.abspath(__file__)} --child {name} -- "$@"\n'
        )
    os.chmod(path, 0o755)
    return path


def _fuzz_one(name, args, extra):
    """Fuzz ``name`` in a child process (libFuzzer owns the process and exits)."""
    workdir = os.path.join(args.workdir, name)
    os.makedirs(workdir, exist_ok=True)
    corpus = os.path.join(CORPUS, name)
    os.makedirs(corpus, exist_ok=True)
    launcher = _launcher(name, args.workdir)
    max_len = f"-max_len={MAX_LEN.get(name, 4096)}"
    rc = 0
    if not args.merge_only:
        libfuzzer = [
            f"-max_total_time={args.time}",
            max_len,
            "-timeout=20",
            "-rss_limit_mb=3072",
            f"-artifact_prefix={workdir}/",
            "-print_final_stats=1",
        ] + extra
        cmd = [launcher] + libfuzzer + [workdir, corpus]
        print("+", " ".join(cmd), flush=True)
        rc = subprocess.call(cmd)
    if (args.merge or args.merge_only) and rc == 0:
        merge = [launcher, "-merge=1", max_len, corpus, workdir]
        print("+", " ".join(merge), flush=True)
        rc = subprocess.call(merge)
    return rc


def _child(name, libfuzzer_args):
    import atheris

    with atheris.instrument_imports(include=["kafkawire", "fuzz"]):
        import importlib

        for module in INSTRUMENTED:
            importlib.import_module(module)
        from fuzz import targets
    target = targets.TARGETS[name]
    argv0 = os.environ.get("KAFKAWIRE_FUZZ_ARGV0") or sys.argv[0]
    atheris.Setup([argv0] + libfuzzer_args, target)
    atheris.Fuzz()


def main(argv=None) -> int:
    argv = list(sys.argv[1:] if argv is None else argv)
    extra = []
    if "--" in argv:
        i = argv.index("--")
        argv, extra = argv[:i], argv[i + 1 :]
    if argv[:1] == ["--child"]:
        _child(argv[1], extra)
        return 0
    ap = argparse.ArgumentParser(description="Fuzz kafkawire's decoders (see fuzz/run.py).")
    ap.add_argument("targets", nargs="*", help="target names, or 'all'")
    ap.add_argument("--time", type=int, default=60, help="seconds per target (default 60)")
    ap.add_argument(
        "--workdir",
        default=os.path.join(tempfile.gettempdir(), "kafkawire-fuzz"),
        help="where new inputs and crashes go",
    )
    ap.add_argument(
        "--merge", action="store_true", help="afterwards, keep new-coverage inputs in fuzz/corpus/<target>/"
    )
    ap.add_argument(
        "--merge-only",
        action="store_true",
        help="do not fuzz: merge what an earlier run left in the work directory",
    )
    ap.add_argument(
        "--replay", action="store_true", help="run corpus files through the targets once, without atheris"
    )
    ap.add_argument("--input", nargs="*", default=None, help="with --replay: these files only")
    ap.add_argument("--list", action="store_true", help="list the targets")
    args = ap.parse_args(argv)
    names = _target_names()
    if args.list:
        print("\n".join(names))
        return 0
    chosen = names if not args.targets or args.targets == ["all"] else args.targets
    unknown = [n for n in chosen if n not in names]
    if unknown:
        ap.error(f"unknown target(s) {', '.join(unknown)}; --list shows them")
    if args.replay:
        return _replay(chosen, args.input)
    if not args.targets:
        ap.error("name a target (or 'all') to fuzz")
    rc = 0
    for name in chosen:
        rc = _fuzz_one(name, args, extra) or rc
    return rc


if __name__ == "__main__":
    sys.exit(main())
