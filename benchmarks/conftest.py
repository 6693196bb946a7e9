"""Benchmarks compare kafkawire with its peers in the same run.

Each comparison is a pytest-benchmark group; the README's ratios are peer time divided
by kafkawire time within one group.  Run: ``python -m pytest benchmarks --benchmark-only``.
"""

import pytest

import kafkawire


def pytest_report_header(config):
    return f"kafkawire backend: {kafkawire.BACKEND}"


@pytest.fixture(scope="session")
def peers():
    """The peer libraries importable here, by name."""
    found = {}
    for name in ("aiokafka", "kafka", "kio", "crc32c"):
        try:
            found[name] = __import__(name)
        except ImportError:
            pass
    return found
