"""Scenarios: cluster, quorum, features."""

from __future__ import annotations

import uuid

from kafkawire.protocol import messages as M

from support.kafka.scenarios.session import (
    BROKER_ID_NOT_REGISTERED,
    NONE,
    REQUEST_TIMED_OUT,
    Session,
    VOTER_NOT_FOUND,
    build,
    scenario,
)


@scenario(18)
def api_versions(s: Session, v: int):
    reply = s.once(
        M.ApiVersionsRequest(client_software_name="kafkawire-tests", client_software_version="1"), v
    )
    assert 18 in [k.api_key for k in reply.body.api_keys]
    return reply, {NONE}


@scenario(55)
def describe_quorum(s: Session, v: int):
    reply = s.once(
        build(
            M.DescribeQuorumRequest,
            {"topics": [{"topic_name": "__cluster_metadata", "partitions": [{"partition_index": 0}]}]},
        ),
        v,
    )
    assert reply.body.topics[0].partitions[0].leader_id == s.node_id
    return reply, {NONE}


@scenario(57)
def update_features(s: Session, v: int):
    # raising group.version to the level it has is a no-op that validates
    return s.once(
        build(
            M.UpdateFeaturesRequest,
            {
                "timeout_ms": 30000,
                "validate_only": True,
                "feature_updates": [
                    {
                        "feature": "group.version",
                        "max_version_level": 1,
                        "upgrade_type": 1,
                        "allow_downgrade": False,
                    }
                ],
            },
        ),
        v,
    ), {NONE}


@scenario(60)
def describe_cluster(s: Session, v: int):
    reply = s.once(
        build(
            M.DescribeClusterRequest,
            {
                "include_cluster_authorized_operations": True,
                "endpoint_type": 1,
                "include_fenced_brokers": True,
            },
        ),
        v,
    )
    assert reply.body.cluster_id == s.cluster_id
    assert [b.broker_id for b in reply.body.brokers] == [s.node_id]
    return reply, {NONE}


@scenario(64)
def unregister_broker(s: Session, v: int):
    return s.once(M.UnregisterBrokerRequest(broker_id=999), v), {BROKER_ID_NOT_REGISTERED}


@scenario(74)
def list_config_resources(s: Session, v: int):
    return s.once(build(M.ListConfigResourcesRequest, {"resource_types": [2]}), v), {NONE}


@scenario(80)
def add_raft_voter(s: Session, v: int):
    return s.once(
        build(
            M.AddRaftVoterRequest,
            {
                "cluster_id": s.cluster_id,
                "timeout_ms": 1000,
                "voter_id": 999,
                "voter_directory_id": uuid.uuid4(),
                "listeners": [{"name": "CONTROLLER", "host": "127.0.0.1", "port": 1}],
            },
        ),
        v,
    ), {REQUEST_TIMED_OUT}  # the new voter never fetches from the leader


@scenario(81)
def remove_raft_voter(s: Session, v: int):
    return s.once(
        build(
            M.RemoveRaftVoterRequest,
            {"cluster_id": s.cluster_id, "voter_id": 999, "voter_directory_id": uuid.uuid4()},
        ),
        v,
    ), {VOTER_NOT_FOUND}
