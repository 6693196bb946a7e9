"""Spark's Python daemon for coverage runs: every worker it forks saves coverage.py's
data at the end of each task.

Spark ends its Python workers where no exit handler runs: the daemon kills a worker with
SIGKILL when the JVM is done with it (a planning worker that is not kept, a failed
task) and all of them with SIGHUP when the session stops.  Saving before the worker
hands its last answer to the JVM keeps what each task measured, whatever happens to the
worker afterwards.  coverage.py already runs in the daemon (``patch = ["subprocess"]``
starts it in every child Python) and ``patch = ["fork"]`` gives each forked worker a
data file of its own.  Used through Spark's setting::

    spark.python.daemon.module=tools.spark_coverage_daemon
"""

from __future__ import annotations

import importlib
import sys

import coverage
from pyspark import daemon

_serve = daemon.worker


def _saving(main):
    def main_then_save(infile, outfile):
        try:
            main(infile, outfile)
        finally:
            cov = coverage.Coverage.current()
            if cov is not None:
                cov.save()

    main_then_save.saves_coverage = True
    return main_then_save


def worker(sock, authenticated):
    """``pyspark.daemon.worker`` with the served module's ``main`` saving the data
    before the daemon flushes the task's last answer to the JVM."""
    # the module pyspark.daemon serves, imported after the fork as it does
    name = sys.argv[1] if len(sys.argv) > 1 and sys.argv[1].startswith("pyspark") else "pyspark.worker"
    module = importlib.import_module(name)
    if not getattr(module.main, "saves_coverage", False):
        module.main = _saving(module.main)
    return _serve(sock, authenticated)


daemon.worker = worker

if __name__ == "__main__":
    daemon.manager()
