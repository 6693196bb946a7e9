"""CreateAcls, DescribeAcls and DeleteAcls."""

from __future__ import annotations

from collections import defaultdict
from typing import Dict, List, Tuple, Union

from kafkawire.protocol import messages as M
from kafkawire.broker import acls as A
from kafkawire.broker.acls import AclBinding, AclError, AclFilter
from kafkawire.broker.connections import Connection
from kafkawire.broker.context import BrokerContext
from kafkawire.broker.handlers.common import allowed
from kafkawire.protocol.error_codes import ErrorCode
from kafkawire.protocol.headers import RequestHeader


# -- ACLs ------------------------------------------------------------------------
def _cluster_allowed(ctx: BrokerContext, conn: Connection, operation: int) -> bool:
    return allowed(ctx, conn, operation, A.CLUSTER, A.CLUSTER_NAME)


async def create_acls(
    ctx: BrokerContext, conn: Connection, header: RequestHeader, req: M.CreateAclsRequest, version: int
) -> M.CreateAclsResponse:
    """CreateAcls: add each valid binding (ALTER on the cluster needed)."""
    R_ = M.CreateAclsResponse
    results, added = [], []
    allowed = _cluster_allowed(ctx, conn, A.ALTER)
    for c in req.creations:
        binding = AclBinding(
            c.resource_type,
            c.resource_name,
            c.resource_pattern_type if version >= 1 else A.LITERAL,
            c.principal,
            c.host,
            c.operation,
            c.permission_type,
        )
        error, message = ErrorCode.NONE, None
        if not allowed:
            error, message = ErrorCode.CLUSTER_AUTHORIZATION_FAILED, "Authorization failed."
        else:
            try:
                binding.validate()
                added.append(binding)
            except AclError as exc:
                error, message = ErrorCode.INVALID_REQUEST, str(exc)
        results.append(R_.AclCreationResult(error_code=error, error_message=message))
    ctx.state.acls.add(added)
    return R_(throttle_time_ms=0, results=results)


def _acl_filter(
    f: Union[M.DescribeAclsRequest, M.DeleteAclsRequest.DeleteAclsFilter], version: int
) -> AclFilter:
    return AclFilter(
        f.resource_type_filter,
        f.resource_name_filter,
        f.pattern_type_filter if version >= 1 else A.LITERAL,
        f.principal_filter,
        f.host_filter,
        f.operation,
        f.permission_type,
    )


async def describe_acls(
    ctx: BrokerContext, conn: Connection, header: RequestHeader, req: M.DescribeAclsRequest, version: int
) -> M.DescribeAclsResponse:
    """DescribeAcls: the bindings a filter matches, grouped by resource."""
    R_ = M.DescribeAclsResponse
    if not _cluster_allowed(ctx, conn, A.DESCRIBE):
        return R_(
            throttle_time_ms=0,
            error_code=ErrorCode.CLUSTER_AUTHORIZATION_FAILED,
            error_message="Authorization failed.",
            resources=[],
        )
    flt = _acl_filter(req, version)
    try:
        flt.validate()
    except AclError as exc:
        return R_(
            throttle_time_ms=0, error_code=ErrorCode.INVALID_REQUEST, error_message=str(exc), resources=[]
        )
    by_resource: Dict[Tuple[int, str, int], List[M.DescribeAclsResponse.AclDescription]] = defaultdict(list)
    for b in ctx.state.acls.describe(flt):
        by_resource[(b.resource_type, b.resource_name, b.pattern_type)].append(
            R_.AclDescription(
                principal=b.principal,
                host=b.host,
                operation=b.operation,
                permission_type=b.permission_type,
            )
        )
    return R_(
        throttle_time_ms=0,
        error_code=ErrorCode.NONE,
        error_message=None,
        resources=[
            R_.DescribeAclsResource(resource_type=t, resource_name=n, pattern_type=p, acls=acls)
            for (t, n, p), acls in by_resource.items()
        ],
    )


async def delete_acls(
    ctx: BrokerContext, conn: Connection, header: RequestHeader, req: M.DeleteAclsRequest, version: int
) -> M.DeleteAclsResponse:
    """DeleteAcls: remove and list the bindings each filter matches."""
    R_ = M.DeleteAclsResponse
    allowed = _cluster_allowed(ctx, conn, A.ALTER)
    results = []
    for f in req.filters:
        if not allowed:
            results.append(
                R_.DeleteAclsFilterResult(
                    error_code=ErrorCode.CLUSTER_AUTHORIZATION_FAILED,
                    error_message="Authorization failed.",
                    matching_acls=[],
                )
            )
            continue
        flt = _acl_filter(f, version)
        try:
            flt.validate()
        except AclError as exc:
            results.append(
                R_.DeleteAclsFilterResult(
                    error_code=ErrorCode.INVALID_REQUEST, error_message=str(exc), matching_acls=[]
                )
            )
            continue
        results.append(
            R_.DeleteAclsFilterResult(
                error_code=ErrorCode.NONE,
                error_message=None,
                matching_acls=[
                    R_.DeleteAclsMatchingAcl(
                        error_code=ErrorCode.NONE,
                        error_message=None,
                        resource_type=b.resource_type,
                        resource_name=b.resource_name,
                        pattern_type=b.pattern_type,
                        principal=b.principal,
                        host=b.host,
                        operation=b.operation,
                        permission_type=b.permission_type,
                    )
                    for b in ctx.state.acls.delete(flt)
                ],
            )
        )
    return R_(throttle_time_ms=0, filter_results=results)
