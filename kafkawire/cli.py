"""The ``kafkawire`` command line: one subcommand per tool, each in its own module."""
from __future__ import annotations

import importlib
import sys
from typing import List, Optional

# subcommand -> (module, one-line help).  Each module has ``main(argv) -> int``.
COMMANDS = {
    "demo": ("kafkawire.demo", "generate a sample Kafka log directory and read it with local Spark"),
    "dump-log": ("kafkawire.dumplog", "print the batches and records of log segments as JSON lines"),
    "decode": ("kafkawire.decodecmd", "decode a captured request or response frame"),
    "serve": ("kafkawire.broker.cli", "run the single-node test broker on 127.0.0.1"),
}


def _usage() -> str:
    lines = ["usage: kafkawire COMMAND [ARGS...]", "", "commands:"]
    lines += [f"  {name:<10} {help_}" for name, (_, help_) in COMMANDS.items()]
    return "\n".join(lines)


def main(argv: Optional[List[str]] = None) -> int:
    """Entry point of the ``kafkawire`` console script."""
    argv = list(sys.argv[1:] if argv is None else argv)
    if not argv or argv[0] in ("-h", "--help"):
        print(_usage())
        return 0 if argv else 2
    name, rest = argv[0], argv[1:]
    if name not in COMMANDS:
        print(f"kafkawire: unknown command {name!r}\n\n{_usage()}", file=sys.stderr)
        return 2
    module = importlib.import_module(COMMANDS[name][0])
    return int(module.main(rest) or 0)


if __name__ == "__main__":
    sys.exit(main())
