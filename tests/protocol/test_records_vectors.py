"""Golden vectors built by real peers (tests/vectors/records, see generate.py there)
decode to the records their sidecars list, on both backends."""

from __future__ import annotations

import glob
import json
import os

import pytest

from kafkawire.protocol import records

pytestmark = pytest.mark.in_process

HERE = os.path.join(os.path.dirname(os.path.dirname(__file__)), "vectors", "records")
SIDECARS = sorted(glob.glob(os.path.join(HERE, "*.json")))


def _load(path):
    with open(path) as f:
        meta = json.load(f)
    with open(os.path.join(HERE, meta["file"]), "rb") as f:
        data = f.read()
    return meta, data


def _expected(meta):
    out = []
    for r in meta["records"]:
        out.append(
            (
                r["offset"],
                r["timestamp"],
                r["timestamp_type"],
                None if r["key"] is None else bytes.fromhex(r["key"]),
                None if r["value"] is None else bytes.fromhex(r["value"]),
                [(k, None if v is None else bytes.fromhex(v)) for k, v in r["headers"]],
            )
        )
    return out


def test_every_vector_has_a_sidecar_and_provenance():
    assert len(SIDECARS) >= 30
    for path in SIDECARS:
        meta, data = _load(path)
        assert meta["size"] == len(data)
        assert meta["producer"]["library"] in ("aiokafka", "kafka-python")
        assert meta["producer"]["version"]


@pytest.mark.parametrize("path", SIDECARS, ids=lambda p: os.path.basename(p)[:-5])
def test_vector_decodes_to_its_records(path):
    meta, data = _load(path)
    got = [r.as_tuple() for r in records.decode(data)]
    assert got == _expected(meta)


@pytest.mark.parametrize("path", SIDECARS, ids=lambda p: os.path.basename(p)[:-5])
def test_vector_batch_fields(path):
    meta, data = _load(path)
    it = records.iter_batches(data)
    batches = list(it)
    assert it.remaining_bytes == 0
    assert len(batches) == len(meta["batches"])
    for batch, want in zip(batches, meta["batches"]):
        for name, value in want.items():
            assert getattr(batch, name) == value, name


@pytest.mark.parametrize("path", SIDECARS, ids=lambda p: os.path.basename(p)[:-5])
def test_vector_to_arrow_rows(path):
    pytest.importorskip("pyarrow")
    meta, data = _load(path)
    table = records.to_arrow(data)
    want = _expected(meta)
    assert table.num_rows == len(want)
    rows = table.to_pylist()
    for row, (offset, ts, tstype, key, value, headers) in zip(rows, want):
        assert row["offset"] == offset
        if ts is None:
            assert row["timestamp"] is None and row["timestamp_type"] is None
        else:
            assert int(row["timestamp"].timestamp() * 1000) == ts
            assert row["timestamp_type"] == (0 if tstype == "create" else 1)
        assert row["key"] == key and row["value"] == value
        assert [(h["key"], h["value"]) for h in row["headers"]] == headers


@pytest.mark.parametrize(
    "name,kind,epoch", [("v2-control-commit", "commit", 7), ("v2-control-abort", "abort", 0)]
)
def test_control_vectors(name, kind, epoch):
    _meta, data = _load(os.path.join(HERE, name + ".json"))
    (batch,) = list(records.iter_batches(data))
    assert batch.is_control and batch.is_transactional
    (rec,) = batch.records()
    marker = records.parse_control_record(rec)
    assert (marker.type, marker.coordinator_epoch, marker.version) == (kind, epoch, 0)
