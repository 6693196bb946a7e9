"""Test set-up: every behavioural test runs once per backend.

Each test gets the ``backend`` fixture, parametrized over "cython" and "python", and runs
with that backend active (``kafkawire._backend.use``).  The Cython run fails, not skips,
when the compiled extension did not load, unless ``KAFKAWIRE_NO_EXTENSIONS=1`` says the
pure backend was asked for.  ``@pytest.mark.backends("cython")`` narrows a test to the
named backends; ``@pytest.mark.backend_independent`` runs it once.  ``in_process`` marks
the modules whose python run here already checks all that a run with
``KAFKAWIRE_NO_EXTENSIONS=1`` would (docs/development.md, "The pure-Python leg").
"""

from __future__ import annotations

import os

import pytest
from hypothesis import settings

from kafkawire import _backend

# No deadline for hypothesis examples: its default (200 ms per example) is a timing
# assertion, and the suite must pass on a machine whose cores are busy.
settings.register_profile("kafkawire", deadline=None)
settings.load_profile("kafkawire")

BACKENDS = ("cython", "python")

pytest_plugins = [
    "support.fixtures.spark",  # the session-scoped SparkSession fixture
    "support.fixtures.kafka",  # the session-scoped real Kafka broker
    "support.fixtures.kerberos",  # the session-scoped MIT KDC and Kerberized Kafka broker
    "support.fixtures.objectstore",  # the session-scoped SeaweedFS (S3) server
]


def pytest_configure(config):
    config.addinivalue_line("markers", "backends(*names): run only on these backends")
    config.addinivalue_line("markers", "backend_independent: checks data, not a backend")
    config.addinivalue_line(
        "markers",
        "in_process: its python run already checks all that KAFKAWIRE_NO_EXTENSIONS=1 would: "
        "kafkawire runs in the test process or in children given their backend, never in a "
        "Spark worker or a child left to the default; the pure-Python leg of .ci/run leaves it out",
    )
    config.addinivalue_line("markers", "spark: needs a local SparkSession (pyspark, Java 17)")
    config.addinivalue_line("markers", "clients: talks to real Kafka client libraries")
    config.addinivalue_line("markers", "slow: takes more than a few seconds")
    config.addinivalue_line(
        "markers",
        "kafka: needs Java and Apache Kafka's release jars (skips without them; "
        "KAFKAWIRE_REQUIRE_KAFKA=1 makes that skip a failure)",
    )
    config.addinivalue_line(
        "markers",
        "objectstore: needs the SeaweedFS S3 server built by `python tests/support/seaweedfs.py build` "
        "(skips without it; KAFKAWIRE_REQUIRE_OBJECTSTORE=1 makes that skip a failure)",
    )
    config.addinivalue_line(
        "markers",
        "freethreaded: runs a free-threaded CPython built by tools/build_freethreaded_python.sh "
        "(skips without it; KAFKAWIRE_REQUIRE_FREETHREADED=1 makes that skip a failure)",
    )


def pytest_generate_tests(metafunc):
    if "backend" not in metafunc.fixturenames:
        return
    if metafunc.definition.get_closest_marker("backend_independent"):
        names = ("python",)
    else:
        marker = metafunc.definition.get_closest_marker("backends")
        names = marker.args if marker else BACKENDS
    metafunc.parametrize("backend", names, indirect=True)


@pytest.fixture
def backend(request):
    """The active backend's name; the test runs with it selected."""
    name = request.param
    if name == "cython" and not _backend.fast_available():
        if os.environ.get("KAFKAWIRE_NO_EXTENSIONS") == "1":
            pytest.skip("the Cython backend was disabled with KAFKAWIRE_NO_EXTENSIONS=1")
        pytest.fail(f"the Cython backend was expected but did not load: {_backend.import_error()}")
    with _backend.use(name):
        yield name


@pytest.fixture(autouse=True)
def _active_backend(backend):
    yield backend


@pytest.fixture(autouse=True)
def _kafka_available(request):
    """Tests marked ``kafka`` skip (or fail, under KAFKAWIRE_REQUIRE_KAFKA=1) without Kafka."""
    if request.node.get_closest_marker("kafka"):
        from support.kafka.jars import require_kafka

        require_kafka()


@pytest.fixture
def impl(backend):
    """``impl("records")``: the active backend's implementation module of that name."""
    return lambda module: _backend.implementation(module, backend)


def subprocess_env(**extra: str) -> dict:
    """The environment for a child Python that must import the same kafkawire as this
    process: an installed wheel, an editable install or an in-place build alike."""
    import kafkawire

    package_parent = os.path.dirname(os.path.dirname(os.path.abspath(kafkawire.__file__)))
    env = dict(os.environ)
    env["PYTHONPATH"] = os.pathsep.join(p for p in (package_parent, env.get("PYTHONPATH")) if p)
    env.update(extra)
    return env
