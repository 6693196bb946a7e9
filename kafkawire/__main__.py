"""``python -m kafkawire``: the same as the ``kafkawire`` command."""

import sys

from kafkawire.cli import main

sys.exit(main())
