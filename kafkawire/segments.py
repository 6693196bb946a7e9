"""The old path of :mod:`kafkawire.log.segments`, which existing imports of
``kafkawire.segments`` still find."""

import sys

from kafkawire.log import segments as _moved
from kafkawire.log.segments import *  # noqa: F401,F403 - what type checkers see here

# the moved module itself, so its private names and patches of it work through this path
sys.modules[__name__] = _moved
