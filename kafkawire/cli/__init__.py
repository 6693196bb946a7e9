"""The ``kafkawire`` command line: one subcommand per tool, each a module of this package
(``demo``, ``dump_log``, ``decode``, ``serve``), loaded only when it runs.

This module also holds what the subcommands share: a parser whose errors are one line,
:func:`run_command`, which turns every user error into one line on stderr and an exit
status (2: the command line is wrong; 1: the input, a file or the system is), and the
``--bytes-as`` option (:func:`kafkawire.cli.json_output.render_bytes`, the one way keys and
values are printed).
"""

from __future__ import annotations

import argparse
import importlib
import os
import sys
import traceback
from typing import Any, Callable, List, NoReturn, Optional, TextIO

from kafkawire.cli.json_output import BYTES_AS

# subcommand -> (module, one-line help).  Each module has ``main(argv) -> int``.
COMMANDS = {
    "demo": ("kafkawire.cli.demo", "generate a sample Kafka log directory and read it with local Spark"),
    "dump-log": ("kafkawire.cli.dump_log", "print the batches and records of log segments as JSON lines"),
    "decode": ("kafkawire.cli.decode", "decode a captured request or response frame"),
    "serve": ("kafkawire.cli.serve", "run the single-node test broker on 127.0.0.1"),
}

USAGE_ERROR = 2  # the command line is wrong
DATA_ERROR = 1  # the input, a file or the system is
# the reader of our output went away (`kafkawire dump-log ... | head`): it has all it
# wanted, so stop quietly with success, as argparse does when --help meets a closed pipe
BROKEN_PIPE = 0


def add_bytes_as(parser: argparse.ArgumentParser) -> None:
    parser.add_argument(
        "--bytes-as",
        choices=BYTES_AS,
        default="auto",
        help="how record keys, values and header values are printed: auto "
        "(the default) as text when they are UTF-8 and as base64 "
        "otherwise; text (bytes that are not UTF-8 as \\x escapes); "
        "base64; hex",
    )


class CommandError(Exception):
    """A user error that a command reports in one line, exiting with ``status``."""

    def __init__(self, message: str, status: int = DATA_ERROR) -> None:
        super().__init__(message)
        self.status = status


class CommandParser(argparse.ArgumentParser):
    """An argument parser whose errors are one line (a :class:`CommandError`), with the
    ``-v/--verbose`` flag every subcommand has."""

    def __init__(self, prog: str, description: str, verbose_help: str = "") -> None:
        super().__init__(prog=prog, description=description)
        self.add_argument(
            "-v",
            "--verbose",
            action="store_true",
            help=verbose_help or "on an error, print the traceback too",
        )

    def error(self, message: str) -> NoReturn:
        raise CommandError(f"{message} (see {self.prog} --help)", USAGE_ERROR)


def _oserror_text(exc: OSError) -> str:
    reason = exc.strerror or str(exc)
    if exc.filename is not None:
        return f"{exc.filename}: {reason}"
    return reason


def error_text(exc: BaseException) -> str:
    """One line saying what is wrong, for an exception a command let through."""
    from kafkawire.errors import KafkaWireError, TruncatedError

    if isinstance(exc, OSError):
        return _oserror_text(exc)
    text = " ".join(str(exc).split()) or type(exc).__name__
    if isinstance(exc, TruncatedError) and "truncated" not in text.lower():
        text = f"truncated input: {text}"
    if not isinstance(exc, KafkaWireError):
        text = f"{type(exc).__name__}: {text}"
    return text


def _quiet_stdout() -> None:
    """After a broken pipe: point stdout at /dev/null so the interpreter's last flush
    does not fail again."""
    try:
        fd = sys.stdout.fileno()
    except (AttributeError, OSError, ValueError):
        return
    devnull = os.open(os.devnull, os.O_WRONLY)
    os.dup2(devnull, fd)
    os.close(devnull)


def run_command(
    parser: argparse.ArgumentParser, work: Callable[[Any], Optional[int]], argv: Optional[List[str]]
) -> int:
    """Parse ``argv`` with ``parser``, run ``work(args)`` and return its exit status.

    A :class:`CommandError`, a :class:`~kafkawire.errors.KafkaWireError` or an
    ``OSError`` becomes one line on stderr, ``PROG: what is wrong``, and status 1 (2 for
    command-line errors); anything else too, with its type named.  ``-v`` adds the
    traceback.  A reader that goes away (``| head``) ends the command quietly."""
    verbose = False
    try:
        try:
            args = parser.parse_args(argv)
        except SystemExit as exc:  # --help (argparse's own errors are CommandErrors)
            sys.stdout.flush()
            return int(exc.code or 0)
        verbose = bool(getattr(args, "verbose", False))
        status = int(work(args) or 0)
        sys.stdout.flush()  # a broken pipe shows here, not at the interpreter's exit
        return status
    except BrokenPipeError:
        _quiet_stdout()
        return BROKEN_PIPE
    except KeyboardInterrupt:
        print(f"{parser.prog}: interrupted", file=sys.stderr)
        return 130
    except Exception as exc:  # noqa: BLE001 - every error ends in one line
        if verbose:
            traceback.print_exc()
        if isinstance(exc, CommandError):
            print(f"{parser.prog}: {exc}", file=sys.stderr)
            return exc.status
        text = error_text(exc)
        if not verbose and not _expected(exc):
            text += " (-v shows the traceback)"
        print(f"{parser.prog}: {text}", file=sys.stderr)
        return DATA_ERROR


def _expected(exc: BaseException) -> bool:
    from kafkawire.errors import KafkaWireError

    return isinstance(exc, (OSError, KafkaWireError))


def _usage() -> str:
    lines = ["usage: kafkawire COMMAND [ARGS...]", "       kafkawire --version", "", "commands:"]
    lines += [f"  {name:<10} {help_}" for name, (_, help_) in COMMANDS.items()]
    lines += ["", "kafkawire COMMAND --help describes a command."]
    return "\n".join(lines)


def _print(text: str, stream: TextIO) -> int:
    try:
        print(text, file=stream)
        stream.flush()
    except BrokenPipeError:
        _quiet_stdout()
        return BROKEN_PIPE
    return 0


def main(argv: Optional[List[str]] = None) -> int:
    """Entry point of the ``kafkawire`` console script."""
    argv = list(sys.argv[1:] if argv is None else argv)
    if not argv:
        _print(_usage(), sys.stderr)
        return USAGE_ERROR
    if argv[0] in ("-h", "--help"):
        return _print(_usage(), sys.stdout)
    if argv[0] == "--version":
        import kafkawire

        return _print(f"kafkawire {kafkawire.__version__}", sys.stdout)
    name, rest = argv[0], argv[1:]
    if name not in COMMANDS:
        print(
            f"kafkawire: unknown command {name!r} (commands: {', '.join(COMMANDS)}; see kafkawire --help)",
            file=sys.stderr,
        )
        return USAGE_ERROR
    module = importlib.import_module(COMMANDS[name][0])
    return int(module.main(rest) or 0)
