"""What a test broker is told when it is made: one frozen value, built by
``kafkawire serve`` from its options or by ``Broker(**settings)`` from keywords."""

from __future__ import annotations

import os
from dataclasses import dataclass
from typing import Any, Callable, Dict, Mapping, Optional, Sequence, Tuple, Union

from kafkawire.broker.security import SASL_MECHANISMS
from kafkawire.protocol.framing import DEFAULT_MAX_FRAME_SIZE

__all__ = ["BrokerConfig"]


@dataclass(frozen=True, kw_only=True)
class BrokerConfig:
    """A broker's settings (see :class:`~kafkawire.broker.Broker` for each one's effect).

    ``api_versions`` None serves every API the broker has a handler for, at every version
    kafkawire knows; ``check_roundtrip`` None checks round trips when ``frame_log`` is
    given."""

    host: str = "127.0.0.1"
    port: int = 0
    log_dir: Optional[str] = None
    node_id: int = 1
    num_partitions: int = 1
    auto_create_topics: bool = True
    frame_log: Union[None, str, "os.PathLike[str]", Callable[[Dict[str, Any]], None]] = None
    check_roundtrip: Optional[bool] = None
    max_frame_size: int = DEFAULT_MAX_FRAME_SIZE
    cluster_id: str = "kafkawire-test-cluster"
    api_versions: Optional[Mapping[int, Tuple[int, int]]] = None
    security_protocol: str = "PLAINTEXT"
    sasl_mechanisms: Sequence[str] = SASL_MECHANISMS
    users: Optional[Mapping[str, str]] = None
    ssl_certfile: Optional[str] = None
    ssl_keyfile: Optional[str] = None
    ssl_cafile: Optional[str] = None
    super_users: Sequence[str] = ()
    acl_enforce: bool = False
    session_lifetime_ms: int = 0
    kerberos_keytab: Optional[str] = None
    kerberos_principal: Optional[str] = None
