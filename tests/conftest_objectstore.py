"""The object-store fixture, loaded by ``tests/conftest.py`` as a plugin.

One SeaweedFS server (``seaweedfs_support``), a real S3-compatible store, serves every
test of the run that asks for ``seaweedfs``; it starts on first use and stops when the
session ends.
"""

from __future__ import annotations

import pytest


@pytest.fixture(scope="session")
def seaweedfs(tmp_path_factory):
    """A running SeaweedFS with its S3 gateway (:class:`seaweedfs_support.SeaweedServer`):
    ``endpoint``, ``access_key``, ``secret_key``, ``options`` (for ``kafka-log``) and
    ``upload(local_dir, bucket, prefix)``."""
    from seaweedfs_support import require_seaweedfs, start_server

    require_seaweedfs()
    server = start_server(tmp_path_factory.mktemp("seaweedfs"))
    try:
        yield server
    finally:
        server.stop()
