"""What :func:`kafkawire.spark.local_session` gives Spark's Python workers.

Spark gives a worker it starts a fixed 10 s to connect back; one that compiles PySpark
from Spark's ``pyspark.zip`` (no byte code there) missed it on a busy machine
(docs/development.md, "Spark's Python workers").
"""

from __future__ import annotations

import os

import pytest

pytest.importorskip("pyspark")

pytestmark = pytest.mark.spark


@pytest.mark.backend_independent
def test_workers_import_the_installed_pyspark_not_sparks_zip(spark):
    import pyspark

    def pyspark_of_a_worker(_rows):  # nested: pickled by value, the workers lack tests/
        import pyspark

        yield pyspark.__file__

    # a worker forked from Spark's daemon shows what the daemon imported
    rdd = spark.sparkContext.parallelize(range(2), 2).mapPartitions(pyspark_of_a_worker)
    assert {os.path.realpath(f) for f in rdd.collect()} == {os.path.realpath(pyspark.__file__)}
