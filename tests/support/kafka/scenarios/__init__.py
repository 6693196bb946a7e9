"""One meaningful conversation with a real Kafka broker per API, at any version.

``SCENARIOS[api_key](session, version)`` sends the request of ``api_key`` at ``version``
(after whatever set-up requests it needs: a joined group, an open transaction, a share
group member) and returns ``(reply, expected)``: the broker's reply to the request
under test and the set of error codes its response must carry (every ``*error_code``
field, at any depth).  Every reply, set-up ones included, is checked by the session:
it decodes, and re-encodes to the bytes the broker sent.

The scenarios are written from Kafka's documented semantics: a single node broker
without an authorizer (so ACL APIs answer SECURITY_DISABLED), asked for delegation
tokens on a PLAINTEXT connection (DELEGATION_TOKEN_REQUEST_NOT_ALLOWED), running the
classic, consumer, share and streams group protocols.
"""

from support.kafka.scenarios import data  # noqa: F401  (registers its scenarios)
from support.kafka.scenarios import topics  # noqa: F401  (registers its scenarios)
from support.kafka.scenarios import groups  # noqa: F401  (registers its scenarios)
from support.kafka.scenarios import new_groups  # noqa: F401  (registers its scenarios)
from support.kafka.scenarios import transactions  # noqa: F401  (registers its scenarios)
from support.kafka.scenarios import sasl  # noqa: F401  (registers its scenarios)
from support.kafka.scenarios import security  # noqa: F401  (registers its scenarios)
from support.kafka.scenarios import cluster  # noqa: F401  (registers its scenarios)
from support.kafka.scenarios import share_state  # noqa: F401  (registers its scenarios)
from support.kafka.scenarios import streams  # noqa: F401  (registers its scenarios)
from support.kafka.scenarios import share_offsets  # noqa: F401  (registers its scenarios)
from support.kafka.scenarios.session import SCENARIOS, Session, build, error_codes, reencoded
from support.kafka.scenarios.share_state import prepare

__all__ = ["SCENARIOS", "Session", "build", "error_codes", "prepare", "reencoded"]
