"""Scenarios: topics, configs, partitions."""

from __future__ import annotations


from kafkawire.protocol import messages as M

from support.kafka.scenarios.session import (
    ELECTION_NOT_NEEDED,
    LOG_DIR_NOT_FOUND,
    NONE,
    NO_REASSIGNMENT_IN_PROGRESS,
    Session,
    TOPIC,
    build,
    scenario,
)


@scenario(19)
def create_topics(s: Session, v: int):
    reply = s.once(
        build(
            M.CreateTopicsRequest,
            {
                "topics": [
                    {
                        "name": s.name("created"),
                        "num_partitions": 2,
                        "replication_factor": 1,
                        "configs": [{"name": "retention.ms", "value": "3600000"}],
                    }
                ],
                "timeout_ms": 30000,
                "validate_only": False,
            },
        ),
        v,
    )
    return reply, {NONE}


@scenario(20)
def delete_topics(s: Session, v: int):
    name = s.name("deleted")
    s.create_topic(name)
    req = (
        build(M.DeleteTopicsRequest, {"topics": [{"name": name}], "timeout_ms": 30000})
        if v >= 6
        else build(M.DeleteTopicsRequest, {"topic_names": [name], "timeout_ms": 30000})
    )
    return s.once(req, v), {NONE}


@scenario(32)
def describe_configs(s: Session, v: int):
    reply = s.once(
        build(
            M.DescribeConfigsRequest,
            {
                "resources": [
                    {
                        "resource_type": 2,
                        "resource_name": TOPIC,
                        "configuration_keys": ["cleanup.policy", "retention.ms"],
                    }
                ],
                "include_synonyms": True,
                "include_documentation": True,
            },
        ),
        v,
    )
    names = sorted(c.name for c in reply.body.results[0].configs)
    assert names == ["cleanup.policy", "retention.ms"], names
    return reply, {NONE}


@scenario(33)
def alter_configs(s: Session, v: int):
    return s.once(
        build(
            M.AlterConfigsRequest,
            {
                "resources": [
                    {
                        "resource_type": 2,
                        "resource_name": TOPIC,
                        "configs": [{"name": "retention.ms", "value": "86400000"}],
                    }
                ],
                "validate_only": True,
            },
        ),
        v,
    ), {NONE}


@scenario(44)
def incremental_alter_configs(s: Session, v: int):
    return s.once(
        build(
            M.IncrementalAlterConfigsRequest,
            {
                "resources": [
                    {
                        "resource_type": 2,
                        "resource_name": TOPIC,
                        "configs": [{"name": "retention.ms", "config_operation": 0, "value": "86400000"}],
                    }
                ],
                "validate_only": True,
            },
        ),
        v,
    ), {NONE}


@scenario(37)
def create_partitions(s: Session, v: int):
    return s.once(
        build(
            M.CreatePartitionsRequest,
            {
                "topics": [{"name": TOPIC, "count": 2, "assignments": None}],
                "timeout_ms": 30000,
                "validate_only": True,
            },
        ),
        v,
    ), {NONE}


@scenario(34)
def alter_replica_log_dirs(s: Session, v: int):
    return s.once(
        build(
            M.AlterReplicaLogDirsRequest,
            {"dirs": [{"path": "/no/such/log/dir", "topics": [{"name": TOPIC, "partitions": [0]}]}]},
        ),
        v,
    ), {LOG_DIR_NOT_FOUND}


@scenario(35)
def describe_log_dirs(s: Session, v: int):
    reply = s.once(build(M.DescribeLogDirsRequest, {"topics": [{"topic": TOPIC, "partitions": [0]}]}), v)
    assert reply.body.results and reply.body.results[0].topics[0].name == TOPIC
    return reply, {NONE}


@scenario(43)
def elect_leaders(s: Session, v: int):
    reply = s.once(
        build(
            M.ElectLeadersRequest,
            {
                "election_type": 0,
                "topic_partitions": [{"topic": TOPIC, "partitions": [0]}],
                "timeout_ms": 30000,
            },
        ),
        v,
    )
    # the only replica already leads: nothing to elect
    return reply, {NONE, ELECTION_NOT_NEEDED}


@scenario(45)
def alter_partition_reassignments(s: Session, v: int):
    # replicas null cancels a reassignment; there is none
    return s.once(
        build(
            M.AlterPartitionReassignmentsRequest,
            {
                "timeout_ms": 30000,
                "allow_replication_factor_change": True,
                "topics": [{"name": TOPIC, "partitions": [{"partition_index": 0, "replicas": None}]}],
            },
        ),
        v,
    ), {NONE, NO_REASSIGNMENT_IN_PROGRESS}


@scenario(46)
def list_partition_reassignments(s: Session, v: int):
    return s.once(build(M.ListPartitionReassignmentsRequest, {"timeout_ms": 30000, "topics": None}), v), {
        NONE
    }
