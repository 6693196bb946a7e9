"""The old path of :mod:`kafkawire.log.sample`, which existing imports of
``kafkawire.sample`` still find."""

import sys

from kafkawire.log import sample as _moved
from kafkawire.log.sample import *  # noqa: F401,F403 - what type checkers see here

# the moved module itself, so its private names and patches of it work through this path
sys.modules[__name__] = _moved
