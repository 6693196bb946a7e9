"""The state every part of the broker shares, declared once for the type checker.

:class:`~kafkawire.broker.server.Broker` is assembled from mixins (the connection loop,
the dispatch, the frame checks, the request handlers) that read and change the same
attributes and call each other's methods.  Each mixin derives from :class:`BrokerState`,
which names those attributes and methods with their types; ``Broker.__init__`` sets the
attributes, and the mixins define the methods (their signatures here exist only for type
checkers).  What ``start()`` makes (the partitions, the ACLs, the append condition, the
loop) the mixins reach through properties that say so when the broker is not started.
"""

from __future__ import annotations

import asyncio
import itertools
from typing import TYPE_CHECKING, Any, Awaitable, Callable, ClassVar, Dict, List, Optional, Set, Tuple

if TYPE_CHECKING:
    import uuid

    from kafkawire.broker.acls import AclStore
    from kafkawire.broker.connections import CodecStats, Connection
    from kafkawire.broker.frame_log import FrameLog
    from kafkawire.broker.groups import GroupCoordinator
    from kafkawire.broker.security import ListenerSecurity
    from kafkawire.broker.storage import PartitionLog, Storage, Topic
    from kafkawire.connection import SaslTokenReceived
    from kafkawire.headers import RequestHeader
    from kafkawire.schema.catalog import ApiKey

    #: A request handler (:data:`kafkawire.broker.dispatch.HANDLERS`): called with the
    #: broker, the connection, the request's header, the decoded request and its version;
    #: returns the response.
    Handler = Callable[[Any, Connection, RequestHeader, Any, int], Awaitable[Any]]


class BrokerState:
    """The attributes and cross-mixin methods of a broker (set by ``Broker.__init__``)."""

    HANDLERS: ClassVar[Dict[ApiKey, Handler]]

    host: str
    port: int
    log_dir: Optional[str]
    node_id: int
    num_partitions: int
    auto_create_topics: bool
    max_frame_size: int
    cluster_id: str
    frame_log: Optional[FrameLog]
    check_roundtrip: bool
    api_versions: Dict[int, Tuple[int, int]]
    security: ListenerSecurity
    super_users: Tuple[str, ...]
    acl_enforce: bool
    acls: Optional[AclStore]  # made by start()
    authentications: List[Tuple[int, Optional[str], Optional[str]]]  # (conn, mechanism, principal or None)
    storage: Optional[Storage]  # made by start()
    groups: GroupCoordinator
    stats: CodecStats
    roundtrip_failures: List[Dict[str, Any]]
    handler_errors: List[str]
    versions_seen: Dict[int, Set[int]]
    frames_checked: int
    fetches_parked: int
    closed_connections: List[Tuple[int, str]]
    connections: Dict[int, Connection]
    _conn_ids: itertools.count[int]
    _producer_ids: itertools.count[int]
    _transactional: Dict[str, Tuple[int, int]]
    _producer_epochs: Dict[int, int]
    _appended: Optional[asyncio.Condition]  # made by start()
    _tasks: Set[asyncio.Task[Any]]
    _loop: Optional[asyncio.AbstractEventLoop]

    # -- what start() makes: requests are served only between start() and stop() -----
    def _not_started(self) -> RuntimeError:
        return RuntimeError("the broker is not started: use start(), or `with`/`async with`")

    @property
    def _store(self) -> Storage:
        """The partitions (``storage``)."""
        if self.storage is None:
            raise self._not_started()
        return self.storage

    @property
    def _acl_store(self) -> AclStore:
        """The ACLs (``acls``)."""
        if self.acls is None:
            raise self._not_started()
        return self.acls

    @property
    def _appended_cond(self) -> asyncio.Condition:
        """Notified after every append (parked fetches wait on it)."""
        if self._appended is None:
            raise self._not_started()
        return self._appended

    @property
    def _running_loop(self) -> asyncio.AbstractEventLoop:
        """The loop the broker serves on."""
        if self._loop is None:
            raise self._not_started()
        return self._loop

    if TYPE_CHECKING:
        # kafkawire.broker.connection_loop
        async def _send(self, conn: Connection, frame: bytes) -> None: ...

        # kafkawire.broker.dispatch
        async def _handle_event(self, conn: Connection, event: object, decode_ns: int) -> Optional[str]: ...

        # kafkawire.broker.frame_checks
        def _log_request(
            self, conn: Connection, payload: bytes, header: RequestHeader, request: Any, trailing: int = 0
        ) -> None: ...

        def _log_response(
            self, conn: Connection, frame: bytes, api_key: int, version: int, correlation_id: int
        ) -> None: ...

        # kafkawire.broker.handlers.sasl
        def _before_authentication(self, conn: Connection, api_key: int) -> Optional[str]: ...

        async def _raw_sasl_token(self, conn: Connection, event: SaslTokenReceived) -> Optional[str]: ...

        # kafkawire.broker.handlers.common
        def _allowed(self, conn: Connection, operation: int, resource_type: int, name: str) -> bool: ...

        def _may_create_topic(self, conn: Connection, name: str) -> bool: ...

        def _resolve(
            self, name: Optional[str], topic_id: Optional[uuid.UUID], by_id: bool
        ) -> Tuple[Optional[Topic], int]: ...

        @staticmethod
        def _partition(
            topic: Optional[Topic], topic_error: int, index: int
        ) -> Tuple[Optional[PartitionLog], int]: ...

        def _topic_operations(self, conn: Connection, name: str) -> int: ...

        def _auto_create(self, name: str) -> int: ...

        def _offsets_topic(self) -> None: ...
