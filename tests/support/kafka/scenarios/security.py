"""Scenarios: ACLs, delegation tokens, quotas (no authorizer, no token support)."""

from __future__ import annotations


from kafkawire.protocol import messages as M

from support.kafka.scenarios.session import (
    DELEGATION_TOKEN_REQUEST_NOT_ALLOWED,
    NONE,
    SECURITY_DISABLED,
    Session,
    TOPIC,
    build,
    scenario,
)


ACL_FILTER = {
    "resource_type_filter": 1,
    "resource_name_filter": None,
    "pattern_type_filter": 1,
    "principal_filter": None,
    "host_filter": None,
    "operation": 1,
    "permission_type": 1,
}


@scenario(29)
def describe_acls(s: Session, v: int):
    return s.once(build(M.DescribeAclsRequest, ACL_FILTER), v), {SECURITY_DISABLED}


@scenario(30)
def create_acls(s: Session, v: int):
    return s.once(
        build(
            M.CreateAclsRequest,
            {
                "creations": [
                    {
                        "resource_type": 2,
                        "resource_name": TOPIC,
                        "resource_pattern_type": 3,
                        "principal": "User:alice",
                        "host": "*",
                        "operation": 3,
                        "permission_type": 3,
                    }
                ]
            },
        ),
        v,
    ), {SECURITY_DISABLED}


@scenario(31)
def delete_acls(s: Session, v: int):
    return s.once(build(M.DeleteAclsRequest, {"filters": [ACL_FILTER]}), v), {SECURITY_DISABLED}


@scenario(38)
def create_delegation_token(s: Session, v: int):
    return s.once(build(M.CreateDelegationTokenRequest, {"renewers": [], "max_lifetime_ms": -1}), v), {
        DELEGATION_TOKEN_REQUEST_NOT_ALLOWED
    }


@scenario(39)
def renew_delegation_token(s: Session, v: int):
    return s.once(M.RenewDelegationTokenRequest(hmac=b"not-a-token", renew_period_ms=1000), v), {
        DELEGATION_TOKEN_REQUEST_NOT_ALLOWED
    }


@scenario(40)
def expire_delegation_token(s: Session, v: int):
    return s.once(M.ExpireDelegationTokenRequest(hmac=b"not-a-token", expiry_time_period_ms=1000), v), {
        DELEGATION_TOKEN_REQUEST_NOT_ALLOWED
    }


@scenario(41)
def describe_delegation_token(s: Session, v: int):
    return s.once(M.DescribeDelegationTokenRequest(owners=None), v), {DELEGATION_TOKEN_REQUEST_NOT_ALLOWED}


@scenario(48)
def describe_client_quotas(s: Session, v: int):
    return s.once(
        build(
            M.DescribeClientQuotasRequest,
            {"components": [{"entity_type": "client-id", "match_type": 2, "match": None}], "strict": False},
        ),
        v,
    ), {NONE}


@scenario(49)
def alter_client_quotas(s: Session, v: int):
    return s.once(
        build(
            M.AlterClientQuotasRequest,
            {
                "entries": [
                    {
                        "entity": [{"entity_type": "client-id", "entity_name": s.name("client")}],
                        "ops": [{"key": "producer_byte_rate", "value": 1048576.0, "remove": False}],
                    }
                ],
                "validate_only": True,
            },
        ),
        v,
    ), {NONE}
