"""``kafkawire dump-log``: kafka-dump-log.sh's fields as JSON lines."""

from __future__ import annotations

import base64
import json
import os

import pytest

from kafkawire.protocol import records
from kafkawire import cli
from kafkawire.log import indexes, sample, scan, segments

pytestmark = pytest.mark.in_process


@pytest.fixture(scope="module")
def sample_log(tmp_path_factory):
    return sample.generate(str(tmp_path_factory.mktemp("dump")))


def _run(capsys, *argv):
    status = cli.main(["dump-log", *argv])
    out, err = capsys.readouterr()
    return status, [json.loads(line) for line in out.splitlines()], err


BATCH_FIELDS = [
    "baseOffset",
    "lastOffset",
    "count",
    "baseSequence",
    "lastSequence",
    "producerId",
    "producerEpoch",
    "partitionLeaderEpoch",
    "isTransactional",
    "isControl",
    "deleteHorizonMs",
    "position",
    "CreateTime",
    "size",
    "magic",
    "compresscodec",
    "crc",
    "isvalid",
    "records",
]


def test_dumps_every_batch_and_record_of_a_segment(capsys, sample_log):
    (plog,) = segments.discover(os.path.join(sample_log.directory, "payments-0"))
    seg = plog.segments[0]
    status, lines, err = _run(capsys, seg.path)
    assert status == 0 and err == ""
    assert lines[0] == {"dumping": seg.path, "logStartingOffset": 0}
    batches = lines[1:]
    assert list(batches[0]) == BATCH_FIELDS
    headers = list(scan.scan_headers(seg.path))
    assert [b["position"] for b in batches] == [h.position for h in headers]
    assert [b["size"] for b in batches] == [h.size_in_bytes for h in headers]
    assert all(b["isvalid"] and b["magic"] == 2 for b in batches)
    recs = [r for b in batches if not b["isControl"] for r in b["records"]]
    want = [r for r in sample_log.records if (r.topic, r.partition) == ("payments", 0)]
    assert [r["offset"] for r in recs] == [r.offset for r in want]
    assert [r["payload"] for r in recs] == [r.value.decode() for r in want]
    assert [r["key"] for r in recs] == [r.key.decode() for r in want]
    assert [r["CreateTime"] for r in recs] == [r.timestamp for r in want]
    assert all(r["headerKeys"] == ["txn"] and r["keySize"] == 7 for r in recs)
    markers = [r for b in batches if b["isControl"] for r in b["records"]]
    assert {m["endTxnMarker"] for m in markers} == {"COMMIT", "ABORT"}
    txn = [b for b in batches if b["isTransactional"] and not b["isControl"]]
    assert all(b["lastSequence"] == b["baseSequence"] + b["count"] - 1 for b in txn)


def test_no_data_prints_batches_only_and_binary_encodings(capsys, tmp_path):
    data = records.encode_batch(
        [{"key": b"\xff\x00k", "value": b"\x80v", "timestamp": 3}], compression="gzip"
    )
    p = tmp_path / segments.segment_name(0)
    p.write_bytes(data)
    _s, lines, _e = _run(capsys, "--no-data", str(p))
    assert "records" not in lines[1] and lines[1]["compresscodec"] == "gzip"
    _s, lines, _e = _run(capsys, "--bytes-as", "base64", str(p))
    assert base64.b64decode(lines[1]["records"][0]["key"]) == b"\xff\x00k"
    _s, lines, _e = _run(capsys, str(p))  # auto: not UTF-8, so base64
    assert base64.b64decode(lines[1]["records"][0]["payload"]) == b"\x80v"
    _s, lines, _e = _run(capsys, "--bytes-as", "text", str(p))
    assert lines[1]["records"][0]["payload"] == "\\x80v"


def test_bad_crc_is_reported_invalid_and_truncation_is_an_error(capsys, tmp_path):
    good = records.encode_batch([{"value": b"x" * 40, "timestamp": 1}] * 4)
    bad = bytearray(good)
    bad[70] ^= 1
    p = tmp_path / segments.segment_name(0)
    p.write_bytes(good + bytes(bad) + good[:30])
    status, lines, err = _run(capsys, "--skip-corrupt", str(p))
    assert status == 1
    assert [b.get("isvalid") for b in lines[1:3]] == [True, False]
    assert lines[2]["records"] == []
    assert lines[3]["position"] == 2 * len(good) and "truncated" in lines[3]["error"]
    assert f"{p}: corrupt batch at byte {len(good)}" in err
    assert f"{p}: at byte {2 * len(good)}" in err


def test_index_files_and_progress_bar(capsys, sample_log):
    (plog,) = segments.discover(os.path.join(sample_log.directory, "orders-0"))
    seg = plog.segments[0]
    status, lines, _ = _run(capsys, seg.index_path, seg.path[:-4] + ".timeindex")
    assert status == 0
    idx = [line for line in lines if "position" in line]
    assert idx == [{"offset": o, "position": p} for o, p in indexes.read_offset_index(seg.index_path)]
    assert any("timestamp" in line for line in lines)
    status, _lines, err = _run(capsys, "--progress", "always", "--no-data", seg.path)
    assert status == 0 and "100.0%" in err
    status, _lines, err = _run(capsys, seg.path)  # stderr is not a terminal here
    assert err == ""
