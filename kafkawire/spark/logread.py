"""The old path of :mod:`kafkawire.log.read`, which existing imports of
``kafkawire.spark.logread`` still find."""

import sys

from kafkawire.log import read as _moved
from kafkawire.log.read import *  # noqa: F401,F403 - what type checkers see here

# the moved module itself, so its private names and patches of it work through this path
sys.modules[__name__] = _moved
