"""The old path of :mod:`kafkawire.internal_topics`, which existing imports of
``kafkawire.internal`` still find."""

import sys

from kafkawire import internal_topics as _moved
from kafkawire.internal_topics import *  # noqa: F401,F403 - what type checkers see here

# the moved module itself, so its private names and patches of it work through this path
sys.modules[__name__] = _moved
