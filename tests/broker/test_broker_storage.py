"""The broker's partition log and group coordinator, without a network.

The log reads only batch headers, so these tests need no codec backend beyond building
batches; they run on both backends like the rest of the suite.
"""

from __future__ import annotations

import asyncio
import os

import pytest

from kafkawire.protocol import records as R
from kafkawire.broker import Broker
from kafkawire.broker.groups import (
    COMPLETING_REBALANCE,
    EMPTY,
    STABLE,
    GroupCoordinator,
)
from kafkawire.broker.storage import (
    PartitionLog,
    Storage,
    StorageError,
    split_batches,
    topic_name_error,
)

pytestmark = [pytest.mark.timeout(60), pytest.mark.in_process]


def batch(n, start=0, **kw):
    return R.encode_batch(
        [{"key": None, "value": b"%d" % i, "timestamp": 100 + i} for i in range(start, start + n)], **kw
    )


def test_append_rewrites_base_offsets_and_keeps_the_crc_valid():
    log = PartitionLog("t", 0)
    assert log.append(split_batches(batch(3))) == (0, False)
    assert log.append(split_batches(batch(2) + batch(4))) == (3, False)
    data = b"".join(log.iter_batches())
    batches = list(R.iter_batches(data))  # CRCs verified
    assert [(b.base_offset, b.last_offset) for b in batches] == [(0, 2), (3, 4), (5, 8)]
    assert log.high_watermark == 9
    assert [r.offset for r in R.decode(b"".join(log.read(4, 10**6)))] == [3, 4, 5, 6, 7, 8]


def test_read_limits_and_out_of_range():
    log = PartitionLog("t", 0)
    for i in range(3):
        log.append(split_batches(batch(5, start=5 * i)))
    sizes = [len(b) for b in log.iter_batches()]
    assert len(log.read(0, sizes[0] + 1)) == 1
    assert len(log.read(0, 1)) == 1  # at least one batch
    assert log.read(0, 1, min_one=False) == []
    assert log.read(15, 100) == []
    with pytest.raises(StorageError) as e:
        log.read(16, 100)
    assert e.value.code == 1


def test_timestamps_lookup():
    log = PartitionLog("t", 0)
    log.append(split_batches(batch(3)))  # timestamps 100..102
    log.append(split_batches(batch(3, start=10)))  # 110..112
    assert log.offset_for_timestamp(101) == (0, 102)
    assert log.offset_for_timestamp(105) == (3, 112)
    assert log.offset_for_timestamp(500) == (-1, -1)
    assert log.max_timestamp_offset() == (5, 112)


def test_idempotent_sequences_wrap_around_int32():
    log = PartitionLog("t", 0)
    top = 2**31 - 2
    log.append(split_batches(batch(1, producer_id=7, producer_epoch=0, base_sequence=0)))
    log.producers[7].batches[-1] = (top - 1, top - 1, 0)  # as if 2^31 records were sent
    assert log.append(split_batches(batch(3, producer_id=7, producer_epoch=0, base_sequence=top)))[1] is False
    # the batch above ends at sequence (top + 2) mod 2^31 = 0; the next starts at 1
    assert log.producers[7].last_sequence == 0
    log.append(split_batches(batch(1, producer_id=7, producer_epoch=0, base_sequence=1)))
    with pytest.raises(StorageError) as e:
        log.append(split_batches(batch(1, producer_id=7, producer_epoch=0, base_sequence=5)))
    assert e.value.code == 45


def test_log_dir_reload_drops_a_torn_tail(tmp_path):
    storage = Storage(str(tmp_path))
    topic = storage.create_topic("torn", 1)
    p = topic.partitions[0]
    p.append(split_batches(batch(2)))
    p.append(split_batches(batch(2, start=2)))
    storage.close()
    seg = tmp_path / "torn-0" / "00000000000000000000.log"
    whole = seg.read_bytes()
    with open(seg, "ab") as fh:
        fh.write(batch(3)[:20])  # a crash in the middle of a write
    again = Storage(str(tmp_path))
    t = again.topics["torn"]
    assert t.topic_id == topic.topic_id
    assert t.partitions[0].high_watermark == 4
    assert b"".join(t.partitions[0].iter_batches()) == whole
    again.close()


def test_topic_names():
    assert topic_name_error("ok.topic_name-1") is None
    for bad in ("", ".", "..", "a" * 250, "sp ace", "slash/"):
        assert topic_name_error(bad)


def test_group_protocol_vote_and_states():
    async def run():
        gc = GroupCoordinator()
        g = gc.get("g")
        a = asyncio.ensure_future(
            g.join("", None, "a", "h", 6000, 200, "consumer", [("range", b"a"), ("roundrobin", b"a")], False)
        )
        await asyncio.sleep(0)
        ra = await a
        assert ra.error_code == 0 and g.state == COMPLETING_REBALANCE and ra.protocol_name == "range"
        err, _ = await g.sync(ra.member_id, ra.generation_id, [(ra.member_id, b"x")])
        assert err == 0 and g.state == STABLE
        # b prefers roundrobin; with one vote each, the tie breaks by name
        b = asyncio.ensure_future(
            g.join("", None, "b", "h", 6000, 200, "consumer", [("roundrobin", b"b"), ("range", b"b")], False)
        )
        await asyncio.sleep(0)
        ra2 = await g.join(
            ra.member_id,
            None,
            "a",
            "h",
            6000,
            200,
            "consumer",
            [("range", b"a"), ("roundrobin", b"a")],
            False,
        )
        rb = await b
        assert ra2.generation_id == rb.generation_id == ra.generation_id + 1
        assert ra2.protocol_name == rb.protocol_name == "range"
        # a member that never rejoins is dropped when the rebalance times out
        c = asyncio.ensure_future(g.join("", None, "c", "h", 6000, 200, "consumer", [("range", b"c")], False))
        rc = await asyncio.wait_for(c, 5)
        assert rc.error_code == 0 and set(g.members) == {rc.member_id}
        assert g.leave(rc.member_id) == 0 and g.state == EMPTY
        # a protocol nobody else speaks is refused while members exist
        g2 = gc.get("g2")
        f = asyncio.ensure_future(g2.join("", None, "x", "h", 6000, 200, "consumer", [("range", b"")], False))
        await f
        bad = await g2.join("", None, "y", "h", 6000, 200, "consumer", [("sticky", b"")], False)
        assert bad.error_code == 23
        await gc.stop()

    asyncio.run(asyncio.wait_for(run(), 20))


def test_async_context_manager_on_the_running_loop(tmp_path):
    async def run():
        async with Broker(log_dir=str(tmp_path)) as b:
            reader, writer = await asyncio.open_connection("127.0.0.1", b.port)
            import kafkawire
            from kafkawire.protocol import messages as M

            writer.write(kafkawire.encode_request(M.ApiVersionsRequest(), 3, 9, "async"))
            size = int.from_bytes(await reader.readexactly(4), "big")
            header, resp = kafkawire.decode_response(await reader.readexactly(size), 18, 3)
            writer.close()
            return header.correlation_id, resp.error_code

    assert asyncio.run(asyncio.wait_for(run(), 20)) == (9, 0)
    assert os.path.isdir(tmp_path)


def test_a_broker_is_made_from_a_config_or_from_keywords(tmp_path):
    from kafkawire.broker import BrokerConfig

    config = BrokerConfig(log_dir=str(tmp_path), num_partitions=3, cluster_id="c")
    made = Broker(config)
    assert made.config is config and (made.log_dir, made.config.num_partitions) == (str(tmp_path), 3)
    assert Broker(num_partitions=3, cluster_id="c", log_dir=str(tmp_path)).config == config
    assert Broker(config, num_partitions=5).config.num_partitions == 5
    with pytest.raises(TypeError, match="num_partition"):
        Broker(num_partition=3)  # a misspelt setting is refused, not ignored
