"""The group coordinator: the classic consumer group protocol and committed offsets.

A group moves through Kafka's states::

    Empty --join--> PreparingRebalance --all members joined--> CompletingRebalance
      ^                  ^                                          | leader's SyncGroup
      |                  +---- join / leave / member expiry --------+---------+
      +---- last member leaves or expires ---- Stable <----------------------+

JoinGroup requests wait (as futures) until every known member has rejoined or the
rebalance timeout evicts the stragglers; then the coordinator picks the protocol all
members support (by vote, as Kafka does), makes the first member to join the leader,
and answers every waiting join.  SyncGroup from followers waits for the leader's
assignments.  Members that stop heartbeating for their session timeout are removed.
Everything runs on the broker's event loop; nothing here blocks.
"""

from __future__ import annotations

import asyncio
import time
import uuid
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Dict, Iterator, List, Literal, Optional, Protocol, Set, Tuple, overload

from kafkawire.protocol import messages
from kafkawire.protocol.error_codes import ErrorCode

if TYPE_CHECKING:
    from kafkawire.broker.storage import PartitionLog
    from kafkawire.protocol.internal_topics import CoordinatorRecord

EMPTY = "Empty"
PREPARING_REBALANCE = "PreparingRebalance"
COMPLETING_REBALANCE = "CompletingRebalance"
STABLE = "Stable"
DEAD = "Dead"

MIN_SESSION_TIMEOUT_MS = 1000
MAX_SESSION_TIMEOUT_MS = 1800000


def _now() -> float:
    return time.monotonic()


@dataclass
class JoinResult:
    error_code: int
    generation_id: int = -1
    protocol_type: Optional[str] = None
    protocol_name: Optional[str] = None
    leader: str = ""
    member_id: str = ""
    members: List[Tuple[str, Optional[str], bytes]] = field(default_factory=list)


@dataclass
class Member:
    member_id: str
    group_instance_id: Optional[str]
    client_id: str
    client_host: str
    session_timeout_ms: int
    rebalance_timeout_ms: int
    protocol_type: str
    protocols: List[Tuple[str, bytes]]
    assignment: bytes = b""
    join_future: Optional[asyncio.Future[JoinResult]] = None
    sync_future: Optional[asyncio.Future[Tuple[int, bytes]]] = None
    last_heartbeat: float = field(default_factory=_now)

    def metadata_for(self, protocol: str) -> bytes:
        for name, metadata in self.protocols:
            if name == protocol:
                return metadata
        return b""


@dataclass
class CommittedOffset:
    offset: int
    leader_epoch: int
    metadata: Optional[str]
    commit_timestamp: int


class Group:
    """One consumer group: members, generation, assignments and committed offsets."""

    def __init__(self, group_id: str, coordinator: "GroupCoordinator") -> None:
        self.group_id = group_id
        self.coordinator = coordinator
        self.state = EMPTY
        self.generation_id = 0
        self.protocol_type: Optional[str] = None
        self.protocol_name: Optional[str] = None
        self.leader: Optional[str] = None
        self.members: Dict[str, Member] = {}
        self.pending_members: Set[str] = set()  # ids handed out with MEMBER_ID_REQUIRED
        self.offsets: Dict[Tuple[str, int], CommittedOffset] = {}
        self._rebalance_timer: Optional[asyncio.TimerHandle] = None

    # -- helpers -----------------------------------------------------------------------
    def _supports(self, protocol_type: str, protocols: List[Tuple[str, bytes]]) -> bool:
        if not protocols:
            return False
        if self.state == EMPTY and not self.members:
            return True
        if protocol_type != self.protocol_type:
            return False
        names = {n for n, _ in protocols}
        common = self._candidates()
        return bool(names & common) if common is not None else True

    def _candidates(self) -> Optional[Set[str]]:
        common: Optional[Set[str]] = None
        for m in self.members.values():
            names = {n for n, _ in m.protocols}
            common = names if common is None else common & names
        return common

    def _select_protocol(self) -> str:
        candidates = self._candidates() or set()
        votes: Dict[str, int] = {}
        for m in self.members.values():
            for name, _ in m.protocols:  # each member votes for its first candidate
                if name in candidates:
                    votes[name] = votes.get(name, 0) + 1
                    break
        return max(sorted(candidates), key=lambda n: votes.get(n, 0))

    def _all_joined(self) -> bool:
        return all(m.join_future is not None for m in self.members.values())

    # -- rebalancing -----------------------------------------------------------------
    def _prepare_rebalance(self) -> None:
        if self.state == COMPLETING_REBALANCE:
            # members waiting in SyncGroup must rejoin
            for m in self.members.values():
                if m.sync_future is not None and not m.sync_future.done():
                    m.sync_future.set_result((ErrorCode.REBALANCE_IN_PROGRESS, b""))
                m.sync_future = None
        self.state = PREPARING_REBALANCE
        if self._rebalance_timer is not None:
            self._rebalance_timer.cancel()
        timeout = max((m.rebalance_timeout_ms for m in self.members.values()), default=0)
        loop = asyncio.get_running_loop()
        self._rebalance_timer = loop.call_later(timeout / 1000.0, self._rebalance_expired)

    def _rebalance_expired(self) -> None:
        self._rebalance_timer = None
        if self.state != PREPARING_REBALANCE:
            return
        for mid in [mid for mid, m in self.members.items() if m.join_future is None]:
            del self.members[mid]
        self._maybe_complete_join()

    def _maybe_complete_join(self) -> None:
        if self.state != PREPARING_REBALANCE or not self._all_joined():
            return
        if self._rebalance_timer is not None:
            self._rebalance_timer.cancel()
            self._rebalance_timer = None
        if not self.members:
            self.state = EMPTY
            self.generation_id += 1
            self.protocol_name = None
            self.leader = None
            self._settled()
            return
        self.generation_id += 1
        self.protocol_name = self._select_protocol()
        if self.leader not in self.members:
            self.leader = next(iter(self.members))
        self.state = COMPLETING_REBALANCE
        members = [
            (m.member_id, m.group_instance_id, m.metadata_for(self.protocol_name))
            for m in self.members.values()
        ]
        for m in self.members.values():
            fut, m.join_future = m.join_future, None
            m.last_heartbeat = _now()
            if fut is not None and not fut.done():
                fut.set_result(
                    JoinResult(
                        ErrorCode.NONE,
                        self.generation_id,
                        self.protocol_type,
                        self.protocol_name,
                        self.leader,
                        m.member_id,
                        members if m.member_id == self.leader else [],
                    )
                )

    def _remove_member(self, member_id: str) -> None:
        m = self.members.pop(member_id, None)
        if m is None:
            return
        if m.join_future is not None and not m.join_future.done():
            m.join_future.set_result(JoinResult(ErrorCode.UNKNOWN_MEMBER_ID, member_id=member_id))
        if m.sync_future is not None and not m.sync_future.done():
            m.sync_future.set_result((ErrorCode.UNKNOWN_MEMBER_ID, b""))
        if self.leader == member_id:
            self.leader = next(iter(self.members), None)
        if self.state in (STABLE, COMPLETING_REBALANCE):
            if self.members:
                self._prepare_rebalance()
            else:
                self.state = EMPTY
                self.generation_id += 1
                self.protocol_name = None
                self._settled()
        elif self.state == PREPARING_REBALANCE:
            self._maybe_complete_join()

    # -- the APIs ------------------------------------------------------------------------
    async def join(
        self,
        member_id: str,
        group_instance_id: Optional[str],
        client_id: str,
        client_host: str,
        session_timeout_ms: int,
        rebalance_timeout_ms: int,
        protocol_type: str,
        protocols: List[Tuple[str, bytes]],
        require_known_member_id: bool,
    ) -> JoinResult:
        if not MIN_SESSION_TIMEOUT_MS <= session_timeout_ms <= MAX_SESSION_TIMEOUT_MS:
            return JoinResult(ErrorCode.INVALID_SESSION_TIMEOUT, member_id=member_id)
        if rebalance_timeout_ms < 0:
            rebalance_timeout_ms = session_timeout_ms
        if not self._supports(protocol_type, protocols):
            return JoinResult(ErrorCode.INCONSISTENT_GROUP_PROTOCOL, member_id=member_id)
        if not member_id:
            if group_instance_id is not None:
                # static membership: the instance id names the member
                for m in self.members.values():
                    if m.group_instance_id == group_instance_id:
                        member_id = m.member_id
                        break
            if not member_id:
                member_id = f"{client_id or 'member'}-{uuid.uuid4()}"
                if require_known_member_id and group_instance_id is None:
                    self.pending_members.add(member_id)
                    return JoinResult(ErrorCode.MEMBER_ID_REQUIRED, member_id=member_id)
        elif member_id not in self.members and member_id not in self.pending_members:
            return JoinResult(ErrorCode.UNKNOWN_MEMBER_ID, member_id=member_id)
        self.pending_members.discard(member_id)

        existing = self.members.get(member_id)
        if (
            existing is not None
            and self.state == STABLE
            and member_id != self.leader
            and existing.protocols == protocols
        ):
            # a follower rejoining with nothing changed gets the current generation
            existing.last_heartbeat = _now()
            return JoinResult(
                ErrorCode.NONE,
                self.generation_id,
                self.protocol_type,
                self.protocol_name,
                self.leader or "",
                member_id,
                [],
            )
        if existing is not None and existing.join_future is not None and not existing.join_future.done():
            existing.join_future.set_result(JoinResult(ErrorCode.UNKNOWN_MEMBER_ID, member_id=member_id))
        m = Member(
            member_id,
            group_instance_id,
            client_id,
            client_host,
            session_timeout_ms,
            rebalance_timeout_ms,
            protocol_type,
            list(protocols),
        )
        if existing is not None:
            m.assignment = existing.assignment
        if not self.members:
            self.protocol_type = protocol_type
        self.members[member_id] = m
        m.join_future = asyncio.get_running_loop().create_future()
        fut = m.join_future
        if self.state != PREPARING_REBALANCE:
            self._prepare_rebalance()
        self._maybe_complete_join()
        return await fut

    async def sync(
        self, member_id: str, generation_id: int, assignments: List[Tuple[str, bytes]]
    ) -> Tuple[int, bytes]:
        m = self.members.get(member_id)
        if m is None:
            return ErrorCode.UNKNOWN_MEMBER_ID, b""
        if generation_id != self.generation_id:
            return ErrorCode.ILLEGAL_GENERATION, b""
        m.last_heartbeat = _now()
        if self.state == PREPARING_REBALANCE:
            return ErrorCode.REBALANCE_IN_PROGRESS, b""
        if self.state == STABLE:
            return ErrorCode.NONE, m.assignment
        if self.state != COMPLETING_REBALANCE:
            return ErrorCode.UNKNOWN_MEMBER_ID, b""
        if m.sync_future is not None and not m.sync_future.done():
            m.sync_future.set_result((ErrorCode.REBALANCE_IN_PROGRESS, b""))
        m.sync_future = asyncio.get_running_loop().create_future()
        fut = m.sync_future
        if member_id == self.leader:
            given = dict(assignments)
            for mid, member in self.members.items():
                member.assignment = given.get(mid, b"")
            self.state = STABLE
            self._settled()
            for member in self.members.values():
                f, member.sync_future = member.sync_future, None
                member.last_heartbeat = _now()
                if f is not None and not f.done():
                    f.set_result((ErrorCode.NONE, member.assignment))
        return await fut

    def heartbeat(self, member_id: str, generation_id: int) -> int:
        m = self.members.get(member_id)
        if m is None:
            return ErrorCode.UNKNOWN_MEMBER_ID
        if generation_id != self.generation_id:
            return ErrorCode.ILLEGAL_GENERATION
        m.last_heartbeat = _now()
        if self.state == PREPARING_REBALANCE:
            return ErrorCode.REBALANCE_IN_PROGRESS
        return ErrorCode.NONE

    def leave(self, member_id: str, group_instance_id: Optional[str] = None) -> int:
        if not member_id and group_instance_id is not None:
            for m in self.members.values():
                if m.group_instance_id == group_instance_id:
                    member_id = m.member_id
                    break
        if member_id not in self.members:
            return ErrorCode.UNKNOWN_MEMBER_ID
        self._remove_member(member_id)
        return ErrorCode.NONE

    def expire(self, now: float) -> None:
        """Remove members whose session timed out (a member waiting in a join is alive)."""
        for mid, m in list(self.members.items()):
            if m.join_future is not None:
                continue
            if now - m.last_heartbeat > m.session_timeout_ms / 1000.0:
                self._remove_member(mid)

    def check_commit(self, member_id: str, generation_id: int) -> int:
        """The error for an OffsetCommit from (member, generation), or NONE."""
        if generation_id < 0 and not member_id:
            # a commit from outside any generation (the simple consumer)
            return ErrorCode.NONE if self.state == EMPTY or not self.members else ErrorCode.UNKNOWN_MEMBER_ID
        m = self.members.get(member_id)
        if m is None:
            return ErrorCode.UNKNOWN_MEMBER_ID
        if generation_id != self.generation_id:
            return ErrorCode.ILLEGAL_GENERATION
        if self.state == PREPARING_REBALANCE:
            return ErrorCode.REBALANCE_IN_PROGRESS
        m.last_heartbeat = _now()
        return ErrorCode.NONE

    def commit(
        self,
        topic: str,
        partition: int,
        offset: int,
        leader_epoch: int,
        metadata: Optional[str],
        topic_id: Optional[uuid.UUID] = None,
    ) -> None:
        committed = self.offsets[(topic, partition)] = CommittedOffset(
            offset, leader_epoch, metadata, int(time.time() * 1000)
        )
        if self.coordinator.log is not None:
            self.coordinator.log.offset_committed(self.group_id, topic, partition, committed, topic_id)

    def _settled(self) -> None:
        """The group reached Stable or Empty: record it (with a log directory)."""
        if self.coordinator.log is not None:
            self.coordinator.log.group_settled(self)


class GroupRecorder(Protocol):
    """Where the coordinator keeps its groups: what it asks of
    :class:`kafkawire.broker.group_log.GroupLog` (named here by what it does, so that the
    two modules do not import each other)."""

    log: PartitionLog  # the __consumer_offsets partition the records go to

    def offset_committed(
        self,
        group_id: str,
        topic: str,
        partition: int,
        committed: CommittedOffset,
        topic_id: Optional[uuid.UUID],
    ) -> None: ...

    def group_settled(self, group: Group) -> None: ...

    def replay(self) -> Iterator[CoordinatorRecord]: ...

    def close(self) -> None: ...


class GroupCoordinator:
    """Every group of the broker, and the session-expiry task."""

    def __init__(self) -> None:
        self.groups: Dict[str, Group] = {}
        self._task: Optional[asyncio.Task[None]] = None
        self.log: Optional[GroupRecorder] = None  # with a log directory

    def attach_log(self, log: GroupRecorder) -> None:
        """Keep groups in ``log`` from now on, after loading what it holds: committed
        offsets, and each group's generation and protocol type (its members are gone,
        as after their sessions expired)."""
        for rec in log.replay():
            key = rec.key
            if isinstance(key, messages.GroupMetadataKey):
                if rec.value is not None:
                    g = self.get(key.group)
                    g.generation_id = rec.value.generation
                    g.protocol_type = rec.value.protocol_type or None
                continue
            if not isinstance(key, (messages.OffsetCommitKey, messages.LegacyOffsetCommitKey)):
                continue
            g = self.get(key.group)
            if rec.value is None:
                g.offsets.pop((key.topic, key.partition), None)
                continue
            v = rec.value
            g.offsets[(key.topic, key.partition)] = CommittedOffset(
                v.offset, getattr(v, "leader_epoch", -1), v.metadata, v.commit_timestamp
            )
        self.log = log

    @overload
    def get(self, group_id: str) -> Group: ...
    @overload
    def get(self, group_id: str, create: Literal[True]) -> Group: ...
    @overload
    def get(self, group_id: str, create: bool) -> Optional[Group]: ...

    def get(self, group_id: str, create: bool = True) -> Optional[Group]:
        g = self.groups.get(group_id)
        if g is None and create:
            g = self.groups[group_id] = Group(group_id, self)
        return g

    def start(self) -> None:
        self._task = asyncio.get_running_loop().create_task(self._expiry_loop())

    async def stop(self) -> None:
        if self._task is not None:
            self._task.cancel()
            try:
                await self._task
            except asyncio.CancelledError:
                pass
            self._task = None
        for g in self.groups.values():
            for m in list(g.members.values()):
                for fut in (m.join_future, m.sync_future):
                    if fut is not None and not fut.done():
                        fut.cancel()

    async def _expiry_loop(self) -> None:
        while True:
            await asyncio.sleep(0.25)
            now = _now()
            for g in list(self.groups.values()):
                g.expire(now)
