"""Backends asked for by name (``_backend.implementation``, ``_backend.use``): an unknown
name and a Cython backend that did not load are refused with a reason, and the active
backend stays as it was."""

from __future__ import annotations

import pytest

from kafkawire import _backend

pytestmark = [pytest.mark.backend_independent, pytest.mark.in_process]


def test_an_unknown_backend_name_is_refused():
    before = _backend.BACKEND
    with pytest.raises(ValueError, match=r"^unknown backend 'rust'; expected 'cython' or 'python'$"):
        _backend.implementation("codec", "rust")
    with pytest.raises(ValueError, match="unknown backend 'rust'"):
        with _backend.use("rust"):
            pass
    assert _backend.BACKEND == before


def test_the_cython_backend_asked_for_after_it_failed_to_load(monkeypatch):
    failure = ImportError("no module named kafkawire._fast.codec")
    monkeypatch.setattr(_backend, "_fast", None)
    monkeypatch.setattr(_backend, "_import_error", failure)
    assert not _backend.fast_available() and _backend.import_error() is failure
    with pytest.raises(ImportError, match=r"^the Cython backend is not available: no module named"):
        _backend.implementation("records", "cython")
    assert _backend.implementation("records", "python").__name__ == "kafkawire._pure.records"
