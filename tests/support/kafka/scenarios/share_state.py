"""Scenarios: share group state (the share coordinator's API; brokers call it, clients may)."""

from __future__ import annotations

import base64
import time
from typing import Any

from kafkawire.protocol import messages as M

from support.kafka.wire import KafkaConnection
from support.kafka.scenarios.session import (
    COORDINATOR_NOT_AVAILABLE,
    MARKER_TOPIC,
    NONE,
    Session,
    TOPIC,
    TXN_TOPIC,
    _code,
    build,
    error_codes,
    scenario,
)


def share_state_topics(s: Session, **partition: Any) -> list:
    return [{"topic_id": s.topic_id, "partitions": [dict(partition=0, **partition)]}]


def initialized_share_state(s: Session, conn: KafkaConnection, group: str) -> None:
    reply = s.call(
        conn,
        build(
            M.InitializeShareGroupStateRequest,
            {"group_id": group, "topics": share_state_topics(s, state_epoch=0, start_offset=0)},
        ),
        0,
    )
    assert error_codes(reply.body) == {NONE}, reply.body


@scenario(83)
def initialize_share_group_state(s: Session, v: int):
    return s.once(
        build(
            M.InitializeShareGroupStateRequest,
            {
                "group_id": s.name("state-init"),
                "topics": share_state_topics(s, state_epoch=0, start_offset=0),
            },
        ),
        v,
    ), {NONE}


@scenario(84)
def read_share_group_state(s: Session, v: int):
    group = s.name("state-read")
    with s.connect() as conn:
        initialized_share_state(s, conn, group)
        reply = s.call(
            conn,
            build(
                M.ReadShareGroupStateRequest,
                {"group_id": group, "topics": share_state_topics(s, leader_epoch=0)},
            ),
            v,
        )
    assert reply.body.results[0].partitions[0].start_offset == 0, reply.body
    return reply, {NONE}


@scenario(85)
def write_share_group_state(s: Session, v: int):
    group = s.name("state-write")
    with s.connect() as conn:
        initialized_share_state(s, conn, group)
        return s.call(
            conn,
            build(
                M.WriteShareGroupStateRequest,
                {
                    "group_id": group,
                    "topics": share_state_topics(
                        s,
                        state_epoch=0,
                        leader_epoch=0,
                        start_offset=1,
                        state_batches=[
                            {"first_offset": 1, "last_offset": 2, "delivery_state": 2, "delivery_count": 1}
                        ],
                    ),
                },
            ),
            v,
        ), {NONE}


@scenario(86)
def delete_share_group_state(s: Session, v: int):
    group = s.name("state-delete")
    with s.connect() as conn:
        initialized_share_state(s, conn, group)
        return s.call(
            conn,
            build(M.DeleteShareGroupStateRequest, {"group_id": group, "topics": share_state_topics(s)}),
            v,
        ), {NONE}


@scenario(87)
def read_share_group_state_summary(s: Session, v: int):
    group = s.name("state-summary")
    with s.connect() as conn:
        initialized_share_state(s, conn, group)
        reply = s.call(
            conn,
            build(
                M.ReadShareGroupStateSummaryRequest,
                {"group_id": group, "topics": share_state_topics(s, leader_epoch=0)},
            ),
            v,
        )
    assert reply.body.results[0].partitions[0].start_offset == 0, reply.body
    return reply, {NONE}


def wait_for_coordinators(s: Session, timeout: float = 60.0) -> None:
    """Until the group, transaction and share coordinators answer FindCoordinator (the
    broker creates their internal topics on first use)."""
    deadline = time.monotonic() + timeout
    with s.connect() as conn:
        # a share coordinator key names a share-partition: group:topic id:partition
        share_key = f"kafkawire-warm-up:{base64.urlsafe_b64encode(s.topic_id.bytes).decode().rstrip('=')}:0"
        for key_type, key in ((0, "kafkawire-warm-up"), (1, "kafkawire-warm-up"), (2, share_key)):
            while True:
                reply = s.call(
                    conn,
                    build(M.FindCoordinatorRequest, {"key_type": key_type, "coordinator_keys": [key]}),
                    6,
                )
                if reply.body.coordinators[0].error_code == NONE:
                    break
                assert reply.body.coordinators[0].error_code == COORDINATOR_NOT_AVAILABLE, reply.body
                assert time.monotonic() < deadline, f"no coordinator of key type {key_type}"
                time.sleep(0.1)


def wait_for_producer_ids(s: Session, timeout: float = 60.0) -> None:
    """Until InitProducerId stops answering COORDINATOR_LOAD_IN_PROGRESS (the broker
    fetches its first block of producer ids from the controller)."""
    deadline = time.monotonic() + timeout
    loading = _code("COORDINATOR_LOAD_IN_PROGRESS")
    with s.connect() as conn:
        while True:
            reply = s.call(
                conn,
                build(M.InitProducerIdRequest, {"transactional_id": None, "transaction_timeout_ms": 60000}),
                5,
            )
            if reply.body.error_code == NONE:
                return
            assert reply.body.error_code == loading, reply.body
            assert time.monotonic() < deadline, "no producer ids"
            time.sleep(0.1)


def prepare(s: Session) -> Session:
    """The session's topics (the data topic with records, the transactions' topic) and
    its coordinators."""
    s.topic_id = s.create_topic(TOPIC)
    s.txn_topic_id = s.create_topic(TXN_TOPIC)
    s.create_topic(MARKER_TOPIC)
    with s.connect() as conn:
        produced = s.produce(conn, 9)
    assert error_codes(produced.body) == {NONE}, produced.body
    wait_for_coordinators(s)
    wait_for_producer_ids(s)
    return s
