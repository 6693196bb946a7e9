"""ACLs for the test broker: the bindings CreateAcls stores, the filters of DescribeAcls
and DeleteAcls, and the decision Kafka's StandardAuthorizer makes for one principal,
operation and resource.

The decision, as Kafka takes it: super users may do everything; otherwise a matching
DENY wins, then a matching ALLOW; with no match the answer is no.  A binding matches a
resource by literal name, by the literal wildcard ``*``, or by a prefix (PREFIXED); its
principal matches by name or as ``User:*``; its host by address or ``*``; its operation
by equality or ALL.  An ALLOW of READ, WRITE, DELETE or ALTER also allows DESCRIBE, and
ALTER_CONFIGS allows DESCRIBE_CONFIGS.
"""

from __future__ import annotations

import json
import os
from dataclasses import asdict, dataclass
from typing import Iterable, List, Optional

# Kafka's ResourceType, PatternType, AclOperation and AclPermissionType codes
ANY = 1
TOPIC, GROUP, CLUSTER, TRANSACTIONAL_ID, DELEGATION_TOKEN, USER = 2, 3, 4, 5, 6, 7
RESOURCE_TYPES = {
    "TOPIC": TOPIC,
    "GROUP": GROUP,
    "CLUSTER": CLUSTER,
    "TRANSACTIONAL_ID": TRANSACTIONAL_ID,
    "DELEGATION_TOKEN": DELEGATION_TOKEN,
    "USER": USER,
}
MATCH, LITERAL, PREFIXED = 2, 3, 4
ALL, READ, WRITE, CREATE, DELETE, ALTER, DESCRIBE = 2, 3, 4, 5, 6, 7, 8
CLUSTER_ACTION, DESCRIBE_CONFIGS, ALTER_CONFIGS, IDEMPOTENT_WRITE = 9, 10, 11, 12
CREATE_TOKENS, DESCRIBE_TOKENS, TWO_PHASE_COMMIT = 13, 14, 15
OPERATIONS = {
    "ALL": ALL,
    "READ": READ,
    "WRITE": WRITE,
    "CREATE": CREATE,
    "DELETE": DELETE,
    "ALTER": ALTER,
    "DESCRIBE": DESCRIBE,
    "CLUSTER_ACTION": CLUSTER_ACTION,
    "DESCRIBE_CONFIGS": DESCRIBE_CONFIGS,
    "ALTER_CONFIGS": ALTER_CONFIGS,
    "IDEMPOTENT_WRITE": IDEMPOTENT_WRITE,
    "CREATE_TOKENS": CREATE_TOKENS,
    "DESCRIBE_TOKENS": DESCRIBE_TOKENS,
    "TWO_PHASE_COMMIT": TWO_PHASE_COMMIT,
}
DENY, ALLOW = 2, 3
CLUSTER_NAME = "kafka-cluster"  # the one resource name of CLUSTER
WILDCARD = "*"

_IMPLIED_BY = {DESCRIBE: (READ, WRITE, DELETE, ALTER), DESCRIBE_CONFIGS: (ALTER_CONFIGS,)}
ACLS_FILE = "kafkawire-acls.json"


class AclError(ValueError):
    """A binding or filter that Kafka would refuse as an invalid request."""


@dataclass(frozen=True)
class AclBinding:
    """One ACL: who (principal, host) may or may not (permission) do what (operation) to
    which resources (type, name, pattern)."""

    resource_type: int
    resource_name: str
    pattern_type: int
    principal: str
    host: str
    operation: int
    permission_type: int

    def validate(self) -> None:
        if self.resource_type not in RESOURCE_TYPES.values():
            raise AclError(f"invalid resource type {self.resource_type}")
        if self.pattern_type not in (LITERAL, PREFIXED):
            raise AclError(f"invalid pattern type {self.pattern_type} (LITERAL or PREFIXED)")
        if self.operation not in OPERATIONS.values():
            raise AclError(f"invalid operation {self.operation}")
        if self.permission_type not in (ALLOW, DENY):
            raise AclError(f"invalid permission type {self.permission_type}")
        kind, sep, name = self.principal.partition(":")
        if not sep or not kind or not name:
            raise AclError(f"principal {self.principal!r} is not TYPE:NAME")
        if not self.resource_name:
            raise AclError("empty resource name")
        if self.resource_type == CLUSTER and self.resource_name != CLUSTER_NAME:
            raise AclError(f"the cluster resource is named {CLUSTER_NAME!r}")

    def matches_resource(self, resource_type: int, name: str) -> bool:
        if self.resource_type != resource_type:
            return False
        if self.pattern_type == PREFIXED:
            return name.startswith(self.resource_name)
        return self.resource_name in (name, WILDCARD)


@dataclass(frozen=True)
class AclFilter:
    """A DescribeAcls/DeleteAcls filter; None and ANY match everything."""

    resource_type: int = ANY
    resource_name: Optional[str] = None
    pattern_type: int = ANY
    principal: Optional[str] = None
    host: Optional[str] = None
    operation: int = ANY
    permission_type: int = ANY

    def validate(self) -> None:
        if (
            self.resource_type < ANY
            or self.pattern_type < ANY
            or self.operation < ANY
            or self.permission_type < ANY
        ):
            raise AclError("a filter with an UNKNOWN type, pattern, operation or permission")

    def matches(self, b: AclBinding) -> bool:
        if self.resource_type != ANY and b.resource_type != self.resource_type:
            return False
        if self.pattern_type == MATCH:
            # MATCH: the bindings that would apply to the named resource
            if self.resource_name is not None and not (
                b.resource_name == WILDCARD
                and b.pattern_type == LITERAL
                or b.pattern_type == LITERAL
                and b.resource_name == self.resource_name
                or b.pattern_type == PREFIXED
                and self.resource_name.startswith(b.resource_name)
            ):
                return False
        else:
            if self.pattern_type != ANY and b.pattern_type != self.pattern_type:
                return False
            if self.resource_name is not None and b.resource_name != self.resource_name:
                return False
        return (
            (self.principal is None or b.principal == self.principal)
            and (self.host is None or b.host == self.host)
            and self.operation in (ANY, b.operation)
            and self.permission_type in (ANY, b.permission_type)
        )


class AclStore:
    """The broker's ACLs and its authorizer; kept in ``kafkawire-acls.json`` of the
    log directory when there is one."""

    def __init__(self, log_dir: Optional[str] = None, super_users: Iterable[str] = ()) -> None:
        self.path = os.path.join(log_dir, ACLS_FILE) if log_dir else None
        self.super_users = {u if ":" in u else f"User:{u}" for u in super_users}
        self.bindings: List[AclBinding] = []
        if self.path and os.path.exists(self.path):
            with open(self.path, encoding="utf-8") as fh:
                self.bindings = [AclBinding(**b) for b in json.load(fh)]

    def _save(self) -> None:
        if self.path is None:
            return
        tmp = self.path + ".tmp"
        with open(tmp, "w", encoding="utf-8") as fh:
            json.dump([asdict(b) for b in self.bindings], fh, indent=1)
        os.replace(tmp, self.path)

    def add(self, bindings: Iterable[AclBinding]) -> None:
        for b in bindings:
            if b not in self.bindings:
                self.bindings.append(b)
        self._save()

    def describe(self, flt: AclFilter) -> List[AclBinding]:
        return [b for b in self.bindings if flt.matches(b)]

    def delete(self, flt: AclFilter) -> List[AclBinding]:
        gone = self.describe(flt)
        if gone:
            self.bindings = [b for b in self.bindings if b not in gone]
            self._save()
        return gone

    def authorize(self, principal: str, host: str, operation: int, resource_type: int, name: str) -> bool:
        """Whether ``principal`` connected from ``host`` may do ``operation`` on the
        resource, as Kafka's StandardAuthorizer decides it."""
        if principal in self.super_users:
            return True
        allowed = False
        for b in self.bindings:
            if not (
                b.matches_resource(resource_type, name)
                and b.principal in (principal, "User:*")
                and b.host in (host, WILDCARD)
            ):
                continue
            if b.permission_type == DENY:
                if b.operation in (operation, ALL):
                    return False
            elif b.operation in (operation, ALL) or b.operation in _IMPLIED_BY.get(operation, ()):
                allowed = True
        return allowed

    def any_topic_allows(self, principal: str, host: str, operation: int) -> bool:
        """Whether some topic allows ``operation`` (KIP-679: WRITE on any topic implies
        IDEMPOTENT_WRITE).  Approximates Kafka's authorizeByResourceType by the topics
        the bindings name."""
        if principal in self.super_users:
            return True
        names = {b.resource_name for b in self.bindings if b.resource_type == TOPIC}
        return any(
            self.authorize(principal, host, operation, TOPIC, n if n != WILDCARD else "x") for n in names
        )

    def operations(
        self, principal: str, host: str, resource_type: int, name: str, candidates: Iterable[int]
    ) -> int:
        """The bit set of ``candidates`` the principal may do (``*_authorized_operations``)."""
        bits = 0
        for op in candidates:
            if self.authorize(principal, host, op, resource_type, name):
                bits |= 1 << op
        return bits
