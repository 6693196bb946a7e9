"""Scenarios: transactions."""

from __future__ import annotations


from kafkawire.protocol import messages as M

from support.kafka.wire import KafkaConnection, Reply
from support.kafka.scenarios.data import latest_offset
from support.kafka.scenarios.session import (
    MARKER_TOPIC,
    NONE,
    Session,
    TRANSACTIONAL_ID_NOT_FOUND,
    TXN_TOPIC,
    build,
    scenario,
    topic_ref,
)


@scenario(22)
def init_producer_id(s: Session, v: int):
    reply = s.once(
        build(
            M.InitProducerIdRequest,
            {
                "transactional_id": None,
                "transaction_timeout_ms": 60000,
                "producer_id": -1,
                "producer_epoch": -1,
            },
        ),
        v,
    )
    assert reply.body.producer_id >= 0
    return reply, {NONE}


@scenario(24)
def add_partitions_to_txn(s: Session, v: int):
    txn = s.name("txn-add")
    with s.connect() as conn:
        pid, epoch = s.init_transaction(conn, txn)
        if v >= 4:
            req = build(
                M.AddPartitionsToTxnRequest,
                {
                    "transactions": [
                        {
                            "transactional_id": txn,
                            "producer_id": pid,
                            "producer_epoch": epoch,
                            "verify_only": False,
                            "topics": [{"name": TXN_TOPIC, "partitions": [0]}],
                        }
                    ]
                },
            )
        else:
            req = build(
                M.AddPartitionsToTxnRequest,
                {
                    "v3_and_below_transactional_id": txn,
                    "v3_and_below_producer_id": pid,
                    "v3_and_below_producer_epoch": epoch,
                    "v3_and_below_topics": [{"name": TXN_TOPIC, "partitions": [0]}],
                },
            )
        reply = s.call(conn, req, v)
        end_transaction(s, conn, txn, pid, epoch, 4, commit=False)
    return reply, {NONE}


def end_transaction(
    s: Session, conn: KafkaConnection, txn: str, pid: int, epoch: int, version: int, commit: bool
) -> Reply:
    return s.call(
        conn,
        build(
            M.EndTxnRequest,
            {"transactional_id": txn, "producer_id": pid, "producer_epoch": epoch, "committed": commit},
        ),
        version,
    )


@scenario(25)
def add_offsets_to_txn(s: Session, v: int):
    txn = s.name("txn-offsets")
    with s.connect() as conn:
        pid, epoch = s.init_transaction(conn, txn)
        reply = s.call(
            conn,
            build(
                M.AddOffsetsToTxnRequest,
                {
                    "transactional_id": txn,
                    "producer_id": pid,
                    "producer_epoch": epoch,
                    "group_id": s.name("txn-group"),
                },
            ),
            v,
        )
        end_transaction(s, conn, txn, pid, epoch, 4, commit=False)
    return reply, {NONE}


@scenario(26)
def end_txn(s: Session, v: int):
    txn = s.name("txn-end")
    with s.connect() as conn:
        pid, epoch = s.init_transaction(conn, txn)
        s.add_partition(conn, txn, pid, epoch)
        return end_transaction(s, conn, txn, pid, epoch, v, commit=True), {NONE}


@scenario(28)
def txn_offset_commit(s: Session, v: int):
    txn, group = s.name("txn-commit"), s.name("txn-commit-group")
    with s.connect() as conn:
        pid, epoch = s.init_transaction(conn, txn)
        added = s.call(
            conn,
            build(
                M.AddOffsetsToTxnRequest,
                {"transactional_id": txn, "producer_id": pid, "producer_epoch": epoch, "group_id": group},
            ),
            3,
        ).body
        assert added.error_code == NONE, added
        reply = s.call(
            conn,
            build(
                M.TxnOffsetCommitRequest,
                {
                    "transactional_id": txn,
                    "group_id": group,
                    "producer_id": pid,
                    "producer_epoch": epoch,
                    "topics": [
                        {
                            **topic_ref(s, v >= 6),
                            "partitions": [
                                {
                                    "partition_index": 0,
                                    "committed_offset": 1,
                                    "committed_leader_epoch": -1,
                                    "committed_metadata": "",
                                }
                            ],
                        }
                    ],
                },
            ),
            v,
        )
        end_transaction(s, conn, txn, pid, epoch, 4, commit=True)
    return reply, {NONE}


@scenario(27)
def write_txn_markers(s: Session, v: int):
    # what a transaction coordinator sends a partition leader: an abort marker for a
    # producer id, written as a control batch at the partition's end
    pid = s.once(
        build(M.InitProducerIdRequest, {"transactional_id": None, "transaction_timeout_ms": 60000}), 5
    ).body.producer_id
    before = latest_offset(s, MARKER_TOPIC)
    reply = s.once(
        build(
            M.WriteTxnMarkersRequest,
            {
                "markers": [
                    {
                        "producer_id": pid,
                        "producer_epoch": 0,
                        "transaction_result": False,
                        "topics": [{"name": MARKER_TOPIC, "partition_indexes": [0]}],
                        "coordinator_epoch": 0,
                        "transaction_version": 1,
                    }
                ]
            },
        ),
        v,
    )
    assert latest_offset(s, MARKER_TOPIC) == before + 1  # the marker takes one offset
    return reply, {NONE}


@scenario(65)
def describe_transactions(s: Session, v: int):
    txn = s.name("txn-described")
    with s.connect() as conn:
        s.init_transaction(conn, txn)
        reply = s.call(
            conn, build(M.DescribeTransactionsRequest, {"transactional_ids": [txn, s.name("no-such-txn")]}), v
        )
    states = [(t.transactional_id, t.error_code) for t in reply.body.transaction_states]
    assert states == [(txn, NONE), (s.name("no-such-txn"), TRANSACTIONAL_ID_NOT_FOUND)]
    return reply, {NONE, TRANSACTIONAL_ID_NOT_FOUND}


@scenario(66)
def list_transactions(s: Session, v: int):
    return s.once(
        build(
            M.ListTransactionsRequest,
            {
                "state_filters": [],
                "producer_id_filters": [],
                "duration_filter": -1,
                "transactional_id_pattern": None,
            },
        ),
        v,
    ), {NONE}
