"""What a broker's parts share: the one value handed to the connection loop, the dispatch,
the frame checks and every request handler (each a function taking it first).

:class:`~kafkawire.broker.server.Broker` makes one :class:`BrokerContext` from its
:class:`~kafkawire.broker.config.BrokerConfig` and fills in what ``start()`` opens (the
partitions, the ACLs, the append condition, the loop); handlers reach those through
properties that say so when the broker is not started.
"""

from __future__ import annotations

import asyncio
import itertools
from collections import defaultdict
from typing import Any, Dict, List, Mapping, Optional, Set, Tuple

from kafkawire.broker.acls import AclStore
from kafkawire.broker.config import BrokerConfig
from kafkawire.broker.connections import CodecStats, Connection
from kafkawire.broker.frame_log import FrameLog
from kafkawire.broker.groups import GroupCoordinator
from kafkawire.broker.security import ListenerSecurity
from kafkawire.broker.storage import Storage

__all__ = ["BrokerContext"]


class BrokerContext:
    """A running broker's settings, state and records of what it served."""

    def __init__(
        self, config: BrokerConfig, api_versions: Mapping[int, Tuple[int, int]], security: ListenerSecurity
    ) -> None:
        """``api_versions``: the versions served of each API key; ``security``: the
        listener's, made from ``config``."""
        self.config = config
        self.port = config.port  # the bound port once started
        self.api_versions: Dict[int, Tuple[int, int]] = dict(api_versions)
        self.security = security
        self.check_roundtrip = (
            (config.frame_log is not None) if config.check_roundtrip is None else config.check_roundtrip
        )
        self.frame_log: Optional[FrameLog] = None  # opened by start()
        self.storage: Optional[Storage] = None  # opened by start()
        self.acls: Optional[AclStore] = None  # opened by start()
        self.groups = GroupCoordinator()
        self.connections: Dict[int, Connection] = {}
        self.tasks: Set[asyncio.Task[Any]] = set()  # one per open connection
        self.conn_ids = itertools.count(1)
        # producer ids: the next new one, each transactional id's (id, epoch), each id's epoch
        self.producer_ids = itertools.count(1000)
        self.transactional: Dict[str, Tuple[int, int]] = {}
        self.producer_epochs: Dict[int, int] = {}
        self._appended: Optional[asyncio.Condition] = None
        self.event_loop: Optional[asyncio.AbstractEventLoop] = None  # set by start()
        # what the broker saw, for tests
        self.stats = CodecStats()
        self.roundtrip_failures: List[Dict[str, Any]] = []
        self.handler_errors: List[str] = []  # exceptions raised while answering (bugs)
        self.versions_seen: Dict[int, Set[int]] = defaultdict(set)  # API key -> versions asked
        self.frames_checked = 0
        self.fetches_parked = 0  # fetches that waited for data (min_bytes not yet met)
        self.closed_connections: List[Tuple[int, str]] = []  # (connection id, why)
        self.authentications: List[
            Tuple[int, Optional[str], Optional[str]]
        ] = []  # (conn, mechanism, principal)

    def started(self, loop: asyncio.AbstractEventLoop, storage: Storage, acls: AclStore) -> None:
        """What ``start()`` opened: from now on requests are served."""
        self.event_loop = loop
        self.storage = storage
        self.acls = acls
        self._appended = asyncio.Condition()

    # -- what start() makes: requests are served only between start() and stop() -----
    @staticmethod
    def _not_started() -> RuntimeError:
        return RuntimeError("the broker is not started: use start(), or `with`/`async with`")

    @property
    def store(self) -> Storage:
        """The partitions (``storage``)."""
        if self.storage is None:
            raise self._not_started()
        return self.storage

    @property
    def acl_store(self) -> AclStore:
        """The ACLs (``acls``)."""
        if self.acls is None:
            raise self._not_started()
        return self.acls

    @property
    def appended(self) -> asyncio.Condition:
        """Notified after every append (parked fetches wait on it)."""
        if self._appended is None:
            raise self._not_started()
        return self._appended

    @property
    def loop(self) -> asyncio.AbstractEventLoop:
        """The loop the broker serves on."""
        if self.event_loop is None:
            raise self._not_started()
        return self.event_loop
