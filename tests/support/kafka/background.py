"""A slow set-up run in a child Python from the start of the session, so that it goes on
while the tests before its first user run.  The workloads (:mod:`support.kafka.workload`,
:mod:`support.kafka.tiered`) spend a minute or more waiting on a broker and Java clients
and little CPU: in the test process they would hold up the run for all that time.

:func:`start` runs ``python -m MODULE DEST`` (the module writes its result into DEST);
:meth:`Job.wait` returns DEST once the child is done, or fails with the child's output.
The child gets the environment of the session's start, so a test that changes
``os.environ`` or ``PATH`` meanwhile does not reach it.
"""

from __future__ import annotations

import os
import shutil
import signal
import subprocess
import sys
from pathlib import Path
from typing import Callable, Dict

from support.kafka.broker import _die_with_parent


class Job:
    """A ``python -m MODULE DEST`` child; its output goes to ``DEST.log``."""

    def __init__(self, module: str, dest: Path, env: Dict[str, str]) -> None:
        self.module = module
        self.dest = dest
        self.log = dest.with_name(dest.name + ".log")
        with open(self.log, "wb") as log:
            self.process = subprocess.Popen(
                [sys.executable, "-m", module, str(dest)],
                stdin=subprocess.DEVNULL,
                stdout=log,
                stderr=subprocess.STDOUT,
                env=env,
                preexec_fn=_die_with_parent if sys.platform.startswith("linux") else None,
            )

    def wait(self, timeout: float) -> Path:
        """DEST, once the child has exited with 0 (within ``timeout`` seconds)."""
        try:
            code = self.process.wait(timeout)
        except subprocess.TimeoutExpired:
            self.process.kill()
            self.process.wait()
            raise AssertionError(f"{self.module} did not finish in {timeout} s: {self._output()}") from None
        if code != 0:
            raise AssertionError(f"{self.module} failed ({code}): {self._output()}")
        return self.dest

    def _output(self) -> str:
        return self.log.read_text(errors="replace")[-5000:]

    def stop(self) -> None:
        """End the child if it still runs (SIGTERM: its brokers die with it); remove DEST."""
        if self.process.poll() is None:
            self.process.terminate()
            try:
                self.process.wait(60)
            except subprocess.TimeoutExpired:
                self.process.kill()
                self.process.wait()
        shutil.rmtree(self.dest, ignore_errors=True)
        self.log.unlink(missing_ok=True)


def start(module: str, dest: Path, env: Dict[str, str]) -> Job:
    """Run ``python -m module dest`` in the background (``dest`` must not exist yet)."""
    os.makedirs(dest.parent, exist_ok=True)
    return Job(module, dest, env)


def run_as_child(write: Callable[[Path], None]) -> None:
    """The child's side (``python -m MODULE DEST``): ``write(DEST)``, a SIGTERM ending it
    as an exception does, so that its own clean-up (its broker stopped, its Java driver
    killed) runs."""
    signal.signal(signal.SIGTERM, lambda *_: sys.exit(143))
    write(Path(sys.argv[1]))
