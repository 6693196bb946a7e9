"""What a broker's parts share: the one value handed to the connection loop, the dispatch,
the frame checks and every request handler (each a function taking it first).

It has three parts, each thing under one name:

* the configuration, fixed when the broker is made: the fields of the frozen
  :class:`BrokerContext` itself (the :class:`~kafkawire.broker.config.BrokerConfig` and
  what follows from it: the versions served, the listener's security, the round-trip check);
* :class:`BrokerState` (``ctx.state``), what the broker holds while it runs: what
  ``start()`` opens (reached through properties that say so before it), the port, the
  connections, the groups, the producer ids;
* :class:`Observed` (``ctx.observed``), what the broker saw, kept for tests to read.
"""

from __future__ import annotations

import asyncio
import itertools
from collections import defaultdict
from dataclasses import dataclass, field
from types import MappingProxyType
from typing import Any, Dict, List, Mapping, NamedTuple, Optional, Set, Tuple

from kafkawire.broker.acls import AclStore
from kafkawire.broker.config import BrokerConfig
from kafkawire.broker.connections import CodecStats, Connection
from kafkawire.broker.frame_log import FrameLog
from kafkawire.broker.groups import GroupCoordinator
from kafkawire.broker.security import ListenerSecurity
from kafkawire.broker.storage import Storage

__all__ = ["BrokerContext", "BrokerState", "Observed"]


class _Opened(NamedTuple):
    """What ``start()`` opens, all at once."""

    loop: asyncio.AbstractEventLoop
    storage: Storage
    acls: AclStore
    appended: asyncio.Condition


class BrokerState:
    """What a broker holds while it runs."""

    def __init__(self, port: int) -> None:
        """``port``: the one configured (0: any), until ``start()`` binds one."""
        self.port = port  # the bound port once started; what Metadata advertises
        self.frame_log: Optional[FrameLog] = None  # open between start() and stop()
        self.groups = GroupCoordinator()
        self.connections: Dict[int, Connection] = {}
        self.tasks: Set[asyncio.Task[Any]] = set()  # one per open connection
        self.conn_ids = itertools.count(1)
        # producer ids: the next new one, each transactional id's (id, epoch), each id's epoch
        self.producer_ids = itertools.count(1000)
        self.transactional: Dict[str, Tuple[int, int]] = {}
        self.producer_epochs: Dict[int, int] = {}
        self._opened: Optional[_Opened] = None

    def open(self, loop: asyncio.AbstractEventLoop, storage: Storage, acls: AclStore) -> None:
        """What ``start()`` opened: from now on requests are served."""
        self._opened = _Opened(loop, storage, acls, asyncio.Condition())

    @property
    def is_open(self) -> bool:
        """Whether ``start()`` has opened the partitions, the ACLs and the loop."""
        return self._opened is not None

    def _started(self) -> _Opened:
        if self._opened is None:
            raise RuntimeError("the broker is not started: use start(), or `with`/`async with`")
        return self._opened

    @property
    def storage(self) -> Storage:
        """The partitions."""
        return self._started().storage

    @property
    def acls(self) -> AclStore:
        """The ACLs."""
        return self._started().acls

    @property
    def appended(self) -> asyncio.Condition:
        """Notified after every append (parked fetches wait on it)."""
        return self._started().appended

    @property
    def loop(self) -> asyncio.AbstractEventLoop:
        """The loop the broker serves on."""
        return self._started().loop


@dataclass(eq=False)
class Observed:
    """What the broker saw, for tests (the :class:`~kafkawire.broker.Broker` shows each)."""

    stats: CodecStats = field(default_factory=CodecStats)
    roundtrip_failures: List[Dict[str, Any]] = field(default_factory=list)
    handler_errors: List[str] = field(default_factory=list)  # exceptions raised while answering (bugs)
    # API key -> the versions asked
    versions_seen: Dict[int, Set[int]] = field(default_factory=lambda: defaultdict(set))
    frames_checked: int = 0
    fetches_parked: int = 0  # fetches that waited for data (min_bytes not yet met)
    closed_connections: List[Tuple[int, str]] = field(default_factory=list)  # (connection id, why)
    # (connection id, mechanism, principal)
    authentications: List[Tuple[int, Optional[str], Optional[str]]] = field(default_factory=list)


@dataclass(frozen=True, eq=False)
class BrokerContext:
    """A broker's configuration (these fields, fixed), its state and what it observed."""

    config: BrokerConfig
    #: the versions served of each API key
    api_versions: Mapping[int, Tuple[int, int]]
    #: the listener's security, made from ``config``
    security: ListenerSecurity
    #: whether every frame is re-encoded and compared with the wire
    check_roundtrip: bool
    state: BrokerState
    observed: Observed

    @classmethod
    def made(
        cls, config: BrokerConfig, api_versions: Mapping[int, Tuple[int, int]], security: ListenerSecurity
    ) -> BrokerContext:
        """A new broker's context: ``check_roundtrip`` None in ``config`` checks round
        trips when there is a frame log."""
        check = (config.frame_log is not None) if config.check_roundtrip is None else config.check_roundtrip
        return cls(
            config,
            MappingProxyType(dict(api_versions)),
            security,
            check,
            BrokerState(config.port),
            Observed(),
        )
