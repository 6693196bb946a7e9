"""``kafka-log`` and ``read_all`` over an S3-compatible object store (SeaweedFS).

The same log directories are read from local disk and from the store: the answers must be
the same, record for record, and for a real Kafka 4.4 broker's log also what Kafka's own
consumer read.  Reads are counted at the store (bytes fetched by ranged GETs): a selective
offset or timestamp filter fetches a small multiple of what it returns.
"""

from __future__ import annotations

import os
import pickle
from dataclasses import replace

import pyarrow as pa
import pytest

from kafkawire.protocol import records
from kafkawire.errors import LogNotFoundError, StorageError
from kafkawire.log import planning, read, read_options, sample, scan, segments, storage, write
from kafkawire.log.segments import SegmentError

pytestmark = pytest.mark.objectstore

BUCKET = "kafkawire-logs"
BASE_TS = sample.BASE_TIMESTAMP


def _rows(table):
    return sorted(
        zip(
            *(
                table.column(c).to_pylist()
                for c in (
                    "topic",
                    "partition",
                    "offset",
                    "timestamp",
                    "key",
                    "value",
                    "headers",
                    "is_control",
                )
            )
        ),
        key=lambda r: (r[0], r[1], -1 if r[2] is None else r[2]),  # a corrupt row's offset may be null
    )


def _opts(server, **fields):
    return read_options.ReadOptions(
        storage=storage.StorageOptions(
            endpoint=server.endpoint, access_key=server.access_key, secret_key=server.secret_key
        ),
        **fields,
    )


@pytest.fixture(scope="module")
def sample_logs(seaweedfs, tmp_path_factory):
    """The sample log directory on disk and its copy in the store."""
    local = tmp_path_factory.mktemp("s3-sample")
    log = sample.generate(str(local))
    return log, seaweedfs.upload(str(local), BUCKET, "sample")


@pytest.mark.parametrize("isolation", ["read_uncommitted", "read_committed"])
def test_read_all_over_s3_gives_what_the_local_directory_gives(seaweedfs, sample_logs, isolation):
    log, uri = sample_logs
    local = read.read_all(
        log.directory, read_options.ReadOptions(isolation_level=isolation, include_control=True)
    )
    remote = read.read_all(uri, _opts(seaweedfs, isolation_level=isolation, include_control=True))
    assert remote.num_rows == local.num_rows > 0
    assert _rows(remote) == _rows(local)
    # and what the generator wrote
    kept = {
        (r.topic, r.partition, r.offset)
        for r in log.records
        if not (isolation == "read_committed" and r.aborted)
    }
    assert {(r[0], r[1], r[2]) for r in _rows(remote) if not r[7]} == kept


@pytest.mark.backend_independent
def test_s3a_uris_globs_and_one_partition_read_as_on_disk(seaweedfs, sample_logs):
    log, uri = sample_logs
    opts = _opts(seaweedfs)
    whole = _rows(read.read_all(uri.replace("s3://", "s3a://"), opts))
    assert whole == _rows(read.read_all(log.directory))
    one = _rows(read.read_all(uri + "/orders-1", opts))
    assert one == _rows(read.read_all(os.path.join(log.directory, "orders-1")))
    globbed = _rows(read.read_all(uri + "/payments-*/0000*.log", opts))
    assert globbed == _rows(read.read_all(os.path.join(log.directory, "payments-*", "0000*.log")))
    # segments in the store are planned like local ones, with the store's open cost
    plans = planning.plan(uri, opts), planning.plan(log.directory)
    assert [(s.topic, s.partition, s.start, s.end) for s in plans[0]] != []
    assert all(isinstance(s.store, storage.ObjectStore) for s in plans[0])
    assert opts.open_cost(plans[0][0].store) == storage.OBJECT_OPEN_COST_BYTES


def _large_topic(directory):
    """One partition of 40,000 records in 100-record batches over 3 segments, indexed
    every 4 KB as a broker indexes; timestamps one per millisecond."""
    with write.PartitionWriter(os.path.join(directory, "big-0"), segment_bytes=2 << 20) as w:
        for base in range(0, 40_000, 100):
            recs = [
                {"key": b"k%d" % (base + i), "value": b"v" * 100, "timestamp": BASE_TS + base + i}
                for i in range(100)
            ]
            w.append(records.encode_batch(recs, base_offset=base))


@pytest.fixture(scope="module")
def large_topic(seaweedfs, tmp_path_factory):
    local = tmp_path_factory.mktemp("s3-large")
    _large_topic(str(local))
    return str(local), seaweedfs.upload(str(local), BUCKET, "large")


def _bytes_returned(directory, rows):
    """The bytes of the batches that hold ``rows`` (what the filter returns)."""
    lo, hi = min(r[2] for r in rows), max(r[2] for r in rows)
    total = 0
    for plog in segments.discover(directory):
        for seg in plog.segments:
            total += sum(
                h.size_in_bytes
                for h in scan.scan_headers(seg.path)
                if h.last_offset >= lo and h.base_offset <= hi
            )
    return total


@pytest.mark.backend_independent
@pytest.mark.parametrize(
    "row_filter",
    [
        planning.RowFilter(min_offset=25_150, max_offset=25_449),
        # the newest records: an upper timestamp bound cannot end a read early, since
        # Kafka's timestamps need not grow along a partition
        planning.RowFilter(min_timestamp=BASE_TS + 39_700),
    ],
    ids=["offsets", "timestamps"],
)
def test_a_selective_filter_reads_a_small_multiple_of_what_it_returns(seaweedfs, large_topic, row_filter):
    local, uri = large_topic
    opts = _opts(seaweedfs)
    splits = planning.plan(uri, opts, row_filter)
    store = splits[0].store
    table = pa.Table.from_batches(list(read.read_splits(splits, opts, row_filter=row_filter)))
    got = [r for r in _rows(table) if _in(r, row_filter)]
    assert got == [r for r in _rows(read.read_all(local)) if _in(r, row_filter)]
    assert len(got) == 300
    returned = _bytes_returned(local, got)
    total = sum(s.size for p in segments.discover(local) for s in p.segments)
    ratio = store.bytes_read / returned
    print(
        f"\n{row_filter}: fetched {store.bytes_read} bytes in {store.requests} requests "
        f"for {returned} bytes of batches returned ({ratio:.2f}x; the topic is {total} bytes)"
    )
    assert ratio <= 4, (store.bytes_read, returned)


@pytest.mark.backend_independent
def test_a_long_split_is_fetched_ahead_range_after_range(seaweedfs, large_topic):
    # chunks of 32 KB: about 30 a split, each ending short of a fetched range's end
    local, uri = large_topic
    opts = _opts(seaweedfs, chunk_bytes=32 << 10)
    splits = planning.plan(uri, opts)
    store = splits[0].store
    assert max(s.end - s.start for s in splits) > 20 * opts.chunk_bytes
    planned = store.bytes_read  # the plan's index reads
    table = pa.Table.from_batches(list(read.read_splits(splits, opts)))
    assert _rows(table) == _rows(read.read_all(local))
    assert store.waited_reads == 0  # every chunk found its range fetched (or being fetched)
    assert store.bytes_read - planned == sum(s.end - s.start for s in splits)  # and nothing twice


def _in(row, f):
    ts = row[3].timestamp() * 1000 if hasattr(row[3], "timestamp") else row[3]
    return (
        (f.min_offset is None or row[2] >= f.min_offset)
        and (f.max_offset is None or row[2] <= f.max_offset)
        and (f.min_timestamp is None or ts >= f.min_timestamp)
        and (f.max_timestamp is None or ts <= f.max_timestamp)
    )


@pytest.mark.backend_independent
def test_a_missing_bucket_wrong_credentials_and_an_empty_prefix_are_named(seaweedfs, sample_logs, tmp_path):
    _log, uri = sample_logs
    with pytest.raises(LogNotFoundError, match="s3://no-such-bucket-here: no such bucket"):
        planning.plan("s3://no-such-bucket-here/logs", _opts(seaweedfs))
    wrong = read_options.ReadOptions(
        storage=storage.StorageOptions(endpoint=seaweedfs.endpoint, access_key="intruder", secret_key="guess")
    )
    with pytest.raises(StorageError, match=f"{uri}: access denied"):
        planning.plan(uri, wrong)
    anonymous = read_options.ReadOptions(
        storage=storage.StorageOptions(endpoint=seaweedfs.endpoint, anonymous=True)
    )
    with pytest.raises(StorageError, match="access denied"):
        planning.plan(uri, anonymous)
    # a prefix with nothing under it is an error, as a missing local folder is
    (tmp_path / "empty").mkdir()
    with pytest.raises(LogNotFoundError, match="no such file or directory"):
        planning.plan(str(tmp_path / "nothing"))
    with pytest.raises(LogNotFoundError, match=f"{BUCKET}/nothing-here: no such file or directory"):
        planning.plan(f"s3://{BUCKET}/nothing-here", _opts(seaweedfs))
    with pytest.raises(LogNotFoundError, match="no file matches"):
        planning.plan(f"s3://{BUCKET}/sample/nope-*", _opts(seaweedfs))


@pytest.mark.backend_independent
def test_a_segment_deleted_after_planning_is_named_with_its_offset(seaweedfs, tmp_path):
    for kind in ("local", "s3"):
        local = tmp_path / kind
        _large_topic(str(local))
        if kind == "s3":
            where, opts = seaweedfs.upload(str(local), BUCKET, "deleted"), _opts(seaweedfs)
        else:
            where, opts = str(local), read_options.ReadOptions()
        f = planning.RowFilter(min_offset=30_000)
        splits = planning.plan(where, opts, f)
        whole = planning.plan(where, opts)  # unfiltered, read whole in 64 MB chunks below
        victim = splits[-1]
        if kind == "s3":
            seaweedfs.filesystem().delete_file(victim.store.key(victim.path))
        else:
            os.remove(victim.path)
        for mode in read_options.MODES:
            for some, row_filter, chunk in (
                (splits, f, opts.chunk_bytes),
                (whole, planning.NO_FILTER, 64 << 20),
            ):
                with pytest.raises(LogNotFoundError) as err:
                    list(
                        read.read_splits(
                            some, replace(opts, mode=mode, chunk_bytes=chunk), row_filter=row_filter
                        )
                    )
                first = min(s.start for s in some if s.path == victim.path)  # its first split fails
                assert err.value.path == victim.path and err.value.position == first
                assert f"{victim.path}: at byte {first}: no such" in str(err.value)


@pytest.fixture(scope="module")
def truncated_topic(seaweedfs, tmp_path_factory):
    """The large topic with its first segment cut 1000 bytes short (its last batch loses
    its end), on disk and in the store."""
    local = tmp_path_factory.mktemp("s3-truncated")
    _large_topic(str(local))
    seg = segments.discover(str(local))[0].segments[0]
    with open(seg.path, "r+b") as fh:
        fh.truncate(seg.size - 1000)
    return str(local), seaweedfs.upload(str(local), BUCKET, "truncated")


@pytest.mark.parametrize("mode", read_options.MODES)
# 64 MB chunks: every split is small beside them, and read whole into the task's buffer
@pytest.mark.parametrize("chunk_bytes", [read_options.DEFAULT_CHUNK_BYTES, 64 << 20], ids=["chunks", "whole"])
def test_a_truncated_object_behaves_as_a_truncated_local_file_in_every_mode(
    seaweedfs, truncated_topic, mode, chunk_bytes
):
    local, uri = truncated_topic
    results = []
    for where, opts in (
        (local, read_options.ReadOptions(mode=mode, chunk_bytes=chunk_bytes)),
        (uri, _opts(seaweedfs, mode=mode, chunk_bytes=chunk_bytes)),
    ):
        try:
            table = read.read_all(where, opts)
        except SegmentError as exc:
            results.append(("raised", exc.path.rsplit("/", 2)[-2:], exc.position, exc.reason))
        else:
            rows = _rows(table)
            corrupt = table.column("_corrupt_record").to_pylist() if mode == "PERMISSIVE" else []
            results.append(
                (
                    "rows",
                    len(rows),
                    rows[-1][2],
                    [c.rsplit(": at byte", 1)[-1] for c in corrupt if c is not None],
                )
            )
    assert results[0] == results[1]
    if mode == "FAILFAST":
        assert results[0][0] == "raised" and "truncated" in results[0][3]
    else:
        assert results[0][0] == "rows"


@pytest.mark.backend_independent
def test_storage_options_are_checked_and_unknown_ones_named():
    with pytest.raises(ValueError, match="'endpointUrl' \\(did you mean 'endpoint'\\?\\)"):
        read_options.ReadOptions.parse({"endpointUrl": "http://x"})
    with pytest.raises(ValueError, match="accessKey and secretKey go together"):
        read_options.ReadOptions.parse({"accessKey": "a"})
    with pytest.raises(ValueError, match="option anonymous must be true or false"):
        read_options.ReadOptions.parse({"anonymous": "maybe"})
    opts = read_options.ReadOptions.parse({"accessKey": "a", "secretKey": "s3cr3t", "endpoint": "http://h:1"})
    assert "s3cr3t" not in repr(opts) and opts.storage.endpoint == "http://h:1"
    with pytest.raises(ValueError, match="no store for scheme 'gs'"):
        storage.open_store("gs://bucket/logs")


def test_a_prefix_that_is_not_kafkas_is_an_error_not_an_empty_log(seaweedfs, tmp_path):
    # what /etc holds: folders named as partitions are, holding other things
    etc = tmp_path / "etc"
    (etc / "dbus-1" / "system.d").mkdir(parents=True)
    (etc / "dbus-1" / "system.d" / "org.freedesktop.conf").write_text("<busconfig/>\n")
    (etc / "polkit-1" / "rules.d").mkdir(parents=True)
    (etc / "polkit-1" / "rules.d" / "50-default.rules").write_text("\n")
    (etc / "hostname").write_text("box\n")
    uri = seaweedfs.upload(str(etc), BUCKET, "etc")
    for path in (uri, uri + "/dbus-1", uri + "/*-1"):
        with pytest.raises(LogNotFoundError) as err:
            read.read_all(path, _opts(seaweedfs))
        assert err.value.path == path
        assert (
            f"no Kafka log in {'what it matches' if '*' in path else 'it'}: looked for partition folders named "
            "<topic>-<partition> holding segment files (<base offset>.log), or segment files"
            in str(err.value)
        )
    # a partition whose segments are all deleted keeps Kafka's own files: an empty log
    (etc / "orders-0").mkdir()
    (etc / "orders-0" / "leader-epoch-checkpoint").write_text("0\n0\n")
    uri = seaweedfs.upload(str(etc), BUCKET, "etc-and-kafka")
    for path in (uri, uri + "/orders-0"):
        assert read.read_all(path, _opts(seaweedfs)).num_rows == 0


def _aws_environment(monkeypatch, server, **variables):
    """The AWS SDKs' variables for ``server``'s credentials, and ``variables``."""
    for name in ("AWS_ENDPOINT_URL_S3", "AWS_ENDPOINT_URL", "AWS_IGNORE_CONFIGURED_ENDPOINT_URLS"):
        monkeypatch.delenv(name, raising=False)
    monkeypatch.setenv("AWS_ACCESS_KEY_ID", server.access_key)
    monkeypatch.setenv("AWS_SECRET_ACCESS_KEY", server.secret_key)
    for name, value in variables.items():
        monkeypatch.setenv(name, value)


def test_the_aws_endpoint_variables_reach_the_store_with_no_option(seaweedfs, sample_logs, monkeypatch):
    log, uri = sample_logs
    local = _rows(read.read_all(log.directory))
    nowhere = "http://127.0.0.1:9"  # the discard port: nothing answers S3 there
    for variables in (
        {"AWS_ENDPOINT_URL": seaweedfs.endpoint},
        {"AWS_ENDPOINT_URL_S3": seaweedfs.endpoint},
        {"AWS_ENDPOINT_URL_S3": seaweedfs.endpoint, "AWS_ENDPOINT_URL": nowhere},  # S3's own wins
    ):
        _aws_environment(monkeypatch, seaweedfs, **variables)
        assert _rows(read.read_all(uri)) == local, variables
    # the option wins over both
    _aws_environment(monkeypatch, seaweedfs, AWS_ENDPOINT_URL_S3=nowhere, AWS_ENDPOINT_URL=nowhere)
    given = read_options.ReadOptions(storage=storage.StorageOptions(endpoint=seaweedfs.endpoint))
    assert _rows(read.read_all(uri, given)) == local
    # a task reads where its driver planned, whatever its own environment says
    _aws_environment(monkeypatch, seaweedfs, AWS_ENDPOINT_URL=seaweedfs.endpoint)
    splits = pickle.dumps(planning.plan(uri))
    monkeypatch.setenv("AWS_ENDPOINT_URL", nowhere)
    assert _rows(pa.Table.from_batches(read.read_splits(pickle.loads(splits)))) == local


def test_dump_log_reads_the_store_the_aws_variables_name(
    seaweedfs, sample_logs, monkeypatch, capsys, tmp_path
):
    from kafkawire import cli

    log, uri = sample_logs
    _aws_environment(monkeypatch, seaweedfs, AWS_ENDPOINT_URL=seaweedfs.endpoint)
    for sub in ("orders-0", ""):  # a partition folder, a log directory
        assert cli.main(["dump-log", "--no-data", os.path.join(log.directory, sub).rstrip("/")]) == 0
        local = capsys.readouterr().out
        assert cli.main(["dump-log", "--no-data", f"{uri}/{sub}".rstrip("/")]) == 0
        remote, err = capsys.readouterr()
        assert err == "" and local.count('"dumping"') > 1
        assert remote == local.replace(log.directory, uri)
    etc = tmp_path / "etc"
    (etc / "dbus-1" / "system.d").mkdir(parents=True)
    (etc / "dbus-1" / "system.d" / "org.freedesktop.conf").write_text("<busconfig/>\n")
    etc_uri = seaweedfs.upload(str(etc), BUCKET, "dump-etc")
    for path, why in (
        (etc_uri, "no Kafka log in it: looked for .log, .index, .timeindex and .txnindex files"),
        (f"{uri}/nothing-here", "no such file or directory"),
    ):
        assert cli.main(["dump-log", path]) == 1
        out, err = capsys.readouterr()
        assert out == "" and err.startswith(f"kafkawire dump-log: {path}: {why}") and err.count("\n") == 1


@pytest.mark.backend_independent
def test_path_style_takes_its_endpoint_from_the_environment_too(monkeypatch):
    monkeypatch.delenv("AWS_ENDPOINT_URL_S3", raising=False)
    monkeypatch.delenv("AWS_ENDPOINT_URL", raising=False)
    with pytest.raises(ValueError, match="pathStyle=true needs an endpoint"):
        read_options.ReadOptions.parse({"pathStyle": "true"})
    monkeypatch.setenv("AWS_ENDPOINT_URL", "http://127.0.0.1:9")
    assert read_options.ReadOptions.parse({"pathStyle": "true"}).storage.path_style
    monkeypatch.setenv("AWS_IGNORE_CONFIGURED_ENDPOINT_URLS", "true")  # as every AWS SDK takes it
    assert storage.open_store("s3://b/k").options.endpoint is None


# -- Spark ------------------------------------------------------------------------------


@pytest.mark.spark
def test_kafka_log_over_s3_with_a_pushed_filter_equals_the_local_read(kafka_log, seaweedfs, sample_logs):
    from pyspark.sql import functions as F

    log, uri = sample_logs
    cond = (F.col("topic") == "orders") & (F.col("offset").between(500, 1500))
    cols = ["topic", "partition", "offset", "timestamp", "key", "value"]
    remote = kafka_log(**seaweedfs.options).load(uri).where(cond).select(*cols).orderBy(*cols[:3]).collect()
    local = kafka_log().load(log.directory).where(cond).select(*cols).orderBy(*cols[:3]).collect()
    assert len(remote) == 3 * 1001 and remote == local


@pytest.mark.spark
def test_kafka_log_over_s3_fails_a_query_naming_a_wrong_credential(kafka_log, seaweedfs, sample_logs):
    _log, uri = sample_logs
    with pytest.raises(Exception, match="access denied"):
        kafka_log(endpoint=seaweedfs.endpoint, accessKey="intruder", secretKey="guess").load(uri).count()


# -- a real Kafka broker's log directory --------------------------------------------------


@pytest.mark.kafka
@pytest.mark.spark
def test_a_kafka_brokers_log_in_s3_reads_what_kafkas_consumer_read(
    kafka_log, seaweedfs, kafka_workload, backend
):
    from support.kafka.workload import consumed_rows
    from test_kafka_real_logs import _spark_rows

    uri = seaweedfs.upload(str(kafka_workload.log_dir), BUCKET, f"workload-{backend}")
    for isolation in ("read_uncommitted", "read_committed"):
        want = consumed_rows(kafka_workload.records[isolation])
        # read_all without Spark, and Spark's query, both from the store
        table = read.read_all(uri, _opts(seaweedfs, isolation_level=isolation))
        local = read.read_all(
            str(kafka_workload.log_dir), read_options.ReadOptions(isolation_level=isolation)
        )
        assert _rows(table) == _rows(local)
        if isolation == "read_committed":
            df = kafka_log(isolationLevel=isolation, **seaweedfs.options).load(uri)
            assert _spark_rows(df, kafka_workload.topics) == want
