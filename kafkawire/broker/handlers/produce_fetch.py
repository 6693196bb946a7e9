"""Produce, Fetch (with its wait for ``min_bytes``), ListOffsets and InitProducerId."""

from __future__ import annotations

import asyncio
from typing import List, Optional, Tuple

from kafkawire.protocol import messages as M
from kafkawire.protocol import records as R
from kafkawire.protocol.record_layout import BatchHeader
from kafkawire.broker import acls as A
from kafkawire.broker.connections import Connection
from kafkawire.broker.context import BrokerContext
from kafkawire.broker.handlers.common import allowed, partition_of, find_topic
from kafkawire.broker.storage import StorageError, peek_magic, split_batches
from kafkawire.protocol.error_codes import ErrorCode
from kafkawire.errors import DecodeError
from kafkawire.protocol.framing import BytesLike
from kafkawire.protocol.headers import RequestHeader
from kafkawire.protocol.schema.plan import INT32_MAX


# -- Produce ---------------------------------------------------------------------
def _to_batches(buf: Optional[BytesLike], produce_version: int) -> List[Tuple[BatchHeader, memoryview]]:
    """The magic-2 batches of a produce request's records.  Produce v3+ (the only
    versions since Kafka 4) must carry record batches, never legacy message sets."""
    if buf is None or len(buf) == 0:
        raise StorageError(ErrorCode.INVALID_RECORD, "no records")
    magic = peek_magic(buf)
    if magic in (0, 1):
        raise StorageError(
            ErrorCode.UNSUPPORTED_FOR_MESSAGE_FORMAT, "Produce v3+ must carry record batches (magic 2)"
        )
    if magic != 2:
        raise StorageError(ErrorCode.CORRUPT_MESSAGE, f"unknown magic {magic}")
    batches = split_batches(buf)
    for _batch in R.iter_batches(buf):  # CRC check of every batch (records stay packed)
        pass
    return batches


async def produce(
    ctx: BrokerContext, conn: Connection, header: RequestHeader, req: M.ProduceRequest, version: int
) -> Optional[M.ProduceResponse]:
    """Produce: append each partition's record batches (None with ``acks=0``)."""
    R_ = M.ProduceResponse
    by_id = version >= 13
    responses = []
    appended = False
    txn_denied = req.transactional_id is not None and not allowed(
        ctx, conn, A.WRITE, A.TRANSACTIONAL_ID, req.transactional_id
    )
    for td in req.topic_data:
        topic, terr = find_topic(ctx, td.name, td.topic_id, by_id)
        if txn_denied:
            topic, terr = None, ErrorCode.TRANSACTIONAL_ID_AUTHORIZATION_FAILED
        elif not allowed(ctx, conn, A.WRITE, A.TOPIC, topic.name if topic else td.name or ""):
            topic, terr = None, ErrorCode.TOPIC_AUTHORIZATION_FAILED
        elif topic is not None and topic.is_internal:
            topic, terr = None, ErrorCode.INVALID_TOPIC_EXCEPTION  # the coordinator's, as in Kafka
        parts = []
        for pd in td.partition_data:
            res = R_.PartitionProduceResponse(
                index=pd.index,
                error_code=ErrorCode.NONE,
                base_offset=-1,
                log_append_time_ms=-1,
                log_start_offset=-1,
            )
            plog, res.error_code = partition_of(topic, terr, pd.index)
            if plog is not None and req.acks not in (-1, 0, 1):
                res.error_code = ErrorCode.INVALID_REQUIRED_ACKS
                plog = None
            if plog is not None:
                try:
                    batches = _to_batches(pd.records, version)
                    base, _dup = plog.append(batches)
                    res.base_offset = base
                    res.log_start_offset = plog.log_start_offset
                    appended = appended or not _dup
                except StorageError as exc:
                    res.error_code = exc.code
                    if version >= 8:
                        res.error_message = str(exc)
                except DecodeError as exc:
                    res.error_code = ErrorCode.CORRUPT_MESSAGE
                    if version >= 8:
                        res.error_message = str(exc)
            parts.append(res)
        responses.append(
            R_.TopicProduceResponse(
                name=td.name if not by_id else (topic.name if topic else ""),
                topic_id=td.topic_id,
                partition_responses=parts,
            )
        )
    if appended:
        async with ctx.state.appended:
            ctx.state.appended.notify_all()
    if req.acks == 0:
        return None
    return R_(responses=responses, throttle_time_ms=0)


# -- Fetch -----------------------------------------------------------------------
async def fetch(
    ctx: BrokerContext, conn: Connection, header: RequestHeader, req: M.FetchRequest, version: int
) -> M.FetchResponse:
    """Fetch: read from each partition, waiting up to ``max_wait_ms`` for ``min_bytes``."""
    loop = asyncio.get_running_loop()

    deadline = loop.time() + max(req.max_wait_ms, 0) / 1000.0
    min_bytes = max(req.min_bytes, 0)
    parked = False
    while True:
        async with ctx.state.appended:
            response, total, errors = _fetch_once(ctx, conn, req, version)
            remaining = deadline - loop.time()
            if total >= min_bytes or errors or remaining <= 0:
                return response
            if not parked:
                parked = True
                ctx.observed.fetches_parked += 1
            try:
                await asyncio.wait_for(ctx.state.appended.wait(), remaining)
            except asyncio.TimeoutError:
                pass


def _fetch_once(
    ctx: BrokerContext, conn: Connection, req: M.FetchRequest, version: int
) -> Tuple[M.FetchResponse, int, bool]:
    R_ = M.FetchResponse
    by_id = version >= 13
    budget = req.max_bytes if version >= 3 else INT32_MAX
    total = 0
    errors = False
    topics = []
    for ft in req.topics:
        topic, terr = find_topic(ctx, ft.topic, ft.topic_id, by_id)
        if not allowed(ctx, conn, A.READ, A.TOPIC, topic.name if topic else ft.topic or ""):
            topic, terr = None, ErrorCode.TOPIC_AUTHORIZATION_FAILED
        parts = []
        for fp in ft.partitions:
            pd = R_.PartitionData(
                partition_index=fp.partition,
                error_code=ErrorCode.NONE,
                high_watermark=-1,
                last_stable_offset=-1,
                log_start_offset=-1,
                aborted_transactions=None if version >= 4 else [],
                records=b"",
            )
            plog, pd.error_code = partition_of(topic, terr, fp.partition)
            if plog is None:
                errors = True
                parts.append(pd)
                continue
            pd.high_watermark = plog.high_watermark
            pd.last_stable_offset = plog.high_watermark
            pd.log_start_offset = plog.log_start_offset
            limit = min(fp.partition_max_bytes, budget - total)
            try:
                # KIP-74: the first batch of the response comes whole whatever the limits
                chunks = plog.read(fp.fetch_offset, max(limit, 0), min_one=total == 0)
            except StorageError as exc:
                pd.error_code = exc.code
                errors = True
                parts.append(pd)
                continue
            if chunks:
                data = b"".join(chunks)
                pd.records = data
                total += len(data)
            parts.append(pd)
        topics.append(
            R_.FetchableTopicResponse(
                topic=ft.topic if not by_id else (topic.name if topic else ""),
                topic_id=ft.topic_id,
                partitions=parts,
            )
        )
    return (
        R_(throttle_time_ms=0, error_code=ErrorCode.NONE, session_id=0, responses=topics),
        total,
        errors,
    )


# -- ListOffsets -----------------------------------------------------------------
async def list_offsets(
    ctx: BrokerContext, conn: Connection, header: RequestHeader, req: M.ListOffsetsRequest, version: int
) -> M.ListOffsetsResponse:
    """ListOffsets: the offset of each partition at a timestamp or a special position."""
    R_ = M.ListOffsetsResponse
    topics = []
    for lt in req.topics:
        topic = ctx.state.storage.topics.get(lt.name)
        terr = ErrorCode.UNKNOWN_TOPIC_OR_PARTITION
        if not allowed(ctx, conn, A.DESCRIBE, A.TOPIC, lt.name):
            topic, terr = None, ErrorCode.TOPIC_AUTHORIZATION_FAILED
        parts = []
        for lp in lt.partitions:
            res = R_.ListOffsetsPartitionResponse(
                partition_index=lp.partition_index, error_code=ErrorCode.NONE
            )
            plog, res.error_code = partition_of(topic, terr, lp.partition_index)
            if plog is None:
                parts.append(res)
                continue
            ts = lp.timestamp
            if ts == -1:
                offset, found_ts = plog.high_watermark, -1
            elif ts in (-2, -4):
                offset, found_ts = plog.log_start_offset, -1
            elif ts == -3:
                offset, found_ts = plog.max_timestamp_offset()
            elif ts < 0:
                offset, found_ts = -1, -1
            else:
                offset, found_ts = plog.offset_for_timestamp(ts)
            # v1+ only (Kafka 4 dropped v0 and its old_style_offsets list)
            res.offset, res.timestamp = offset, found_ts
            if version >= 4:
                res.leader_epoch = plog.leader_epoch if offset >= 0 else -1
            parts.append(res)
        topics.append(R_.ListOffsetsTopicResponse(name=lt.name, partitions=parts))
    return R_(throttle_time_ms=0, topics=topics)


# -- InitProducerId --------------------------------------------------------------
async def init_producer_id(
    ctx: BrokerContext, conn: Connection, header: RequestHeader, req: M.InitProducerIdRequest, version: int
) -> M.InitProducerIdResponse:
    """InitProducerId: a new producer id, or the next epoch of a known one."""
    R_ = M.InitProducerIdResponse
    if req.transactional_id is not None:
        if not allowed(ctx, conn, A.WRITE, A.TRANSACTIONAL_ID, req.transactional_id):
            return R_(
                throttle_time_ms=0,
                error_code=ErrorCode.TRANSACTIONAL_ID_AUTHORIZATION_FAILED,
                producer_id=-1,
                producer_epoch=-1,
            )
    elif ctx.config.acl_enforce and not (
        allowed(ctx, conn, A.IDEMPOTENT_WRITE, A.CLUSTER, A.CLUSTER_NAME)
        or ctx.state.acls.any_topic_allows(conn.principal, conn.host, A.WRITE)
    ):
        return R_(
            throttle_time_ms=0,
            error_code=ErrorCode.CLUSTER_AUTHORIZATION_FAILED,
            producer_id=-1,
            producer_epoch=-1,
        )
    if req.transactional_id is not None:
        pid, epoch = ctx.state.transactional.get(req.transactional_id, (None, -1))
        if pid is None:
            pid = next(ctx.state.producer_ids)
        epoch = epoch + 1
        ctx.state.transactional[req.transactional_id] = (pid, epoch)
    elif version >= 3 and req.producer_id >= 0 and req.producer_id in ctx.state.producer_epochs:
        pid = req.producer_id
        epoch = ctx.state.producer_epochs[pid] + 1  # KIP-360: bump the epoch, keep the id
    else:
        pid, epoch = next(ctx.state.producer_ids), 0
    ctx.state.producer_epochs[pid] = epoch
    return R_(throttle_time_ms=0, error_code=ErrorCode.NONE, producer_id=pid, producer_epoch=epoch)
