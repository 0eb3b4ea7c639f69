"""The ``boardgames-rl`` command: list | play | watch | replay | arena | train | league | demo.

Examples:

.. code-block:: bash

    boardgames-rl list                                         # games, options, agents
    boardgames-rl watch castle_flutterstone --agents heuristic random --seed 3
    boardgames-rl arena castle_flutterstone heuristic random --games 4 --out results/cf
    boardgames-rl replay results/cf --game-index 0 --step      # board by board, Enter for more
    boardgames-rl train --help                                 # PPO training options
    boardgames-rl league --help                                # league self-play options

``boardgames-rl play castle_flutterstone --vs heuristic`` puts you at the table against the
heuristic (it reads your moves from the terminal), and ``boardgames-rl replay results/cf
--game-index 0 --html g.html`` writes one page of that game, with a picture of every decision.

Every subcommand has ``--help`` with examples. Exit codes: 0 success, 1 a runtime error (one
line saying what to do: a bad option value, an unreadable or tampered file, a model file that
would run code), 2 a usage error (one line: an unknown flag, a flag without its value),
130 interrupted (Ctrl-C; ``train`` and ``league`` save a checkpoint first, 143 on SIGTERM). An
abandoned ``play`` (``quit``, end of input) exits 1 with one line on stderr, 130 on Ctrl-C. Long
commands (arena, demo, train, league, replay --html) draw a progress bar only on a terminal;
--no-progress (arena, demo, replay) or ``BOARDGAMES_RL_NO_PROGRESS=1`` (every command) turns it
off.

One module per subcommand (``play``, ``watch``, ``replay``, ``arena``, ``train``, ``league``,
``demo``, ``listing``); ``common`` holds the shared argument and error helpers and ``session`` the
seat-by-seat game loop that ``play`` and ``watch`` share. The benchmarks are the lab's, not the
package's: ``boardgames-rl bench`` only says where they are (one line on stderr, exit 2).
"""

from __future__ import annotations

import argparse
import os
import sys
from collections.abc import Sequence
from typing import NoReturn

from boardgames_rl import __version__, build_info
from boardgames_rl.cli import arena, demo, league, listing, play, replay, train, watch
from boardgames_rl.cli.common import CliError
from boardgames_rl.core.errors import GameError

_COMMANDS = (listing, play, watch, replay, arena, train, league, demo)

BENCH_IS_THE_LABS = (
    "boardgames-rl: error: `bench` is the lab's command, not the package's: in a clone of the "
    "repository, run `python lab/benchmarks/throughput.py --quick` (pip install -e '.[bench]')"
)


class OneLineParser(argparse.ArgumentParser):
    """argparse whose usage errors are one line (``prog: error: ... (see prog --help)``, exit 2)
    instead of the usage block then the error."""

    def error(self, message: str) -> NoReturn:
        self.exit(2, f"{self.prog}: error: {message} (see `{self.prog} --help`)\n")


def build_parser() -> argparse.ArgumentParser:
    """The argument parser of ``boardgames-rl`` with every subcommand."""
    doc = __doc__ or ""
    parser = OneLineParser(
        prog="boardgames-rl",
        description=doc.split("\n")[0],
        formatter_class=argparse.RawDescriptionHelpFormatter,
        epilog=doc.split("\n", 1)[1].split("\n\nOne module")[0].replace("::", ":"),
    )
    info = build_info()
    engines = f"compiled, {info['compiler']}" if info["build"] == "compiled" else "pure Python"
    parser.add_argument(
        "--version", action="version", version=f"%(prog)s {__version__} (engines: {engines})"
    )
    sub = parser.add_subparsers(
        dest="command", required=True, metavar="COMMAND", parser_class=OneLineParser
    )
    for module in _COMMANDS:
        module.add_parser(sub)
    return parser


def _error(message: str) -> int:
    """Print one error line; control characters (a file's terminal escapes) are dropped."""
    from boardgames_rl.core.files import printable

    print(f"boardgames-rl: error: {printable(message)}", file=sys.stderr)
    return 1


SCRIPTS = {
    "train": (train.forward, "boardgames_rl.training.ppo"),
    "league": (league.forward, "boardgames_rl.training.league"),
}
"""Subcommands that hand every argument to a training script (its own ``--help`` included)."""


def _script(command: str, rest: list[str]) -> int:
    """``train ...`` / ``league ...`` bypass argparse so ``--help`` and every option reach the
    script."""
    forward, module = SCRIPTS[command]
    if {"-h", "--help"} & set(rest[:1]):
        print(
            f"usage: boardgames-rl {command} [ARGS...]: every argument goes to "
            f"{module}.main(ARGS); its own --help follows.\n"
        )
    return forward(rest)


def main(argv: Sequence[str] | None = None) -> int:
    """Run the command line; returns the exit code (0 ok, 1 runtime error, 2 usage, 130 ^C)."""
    argv = list(sys.argv[1:] if argv is None else argv)
    try:
        if argv and argv[0] in SCRIPTS:
            return _script(argv[0], argv[1:])
        if argv and argv[0] == "bench":  # moved to the lab: say where, in one line
            print(BENCH_IS_THE_LABS, file=sys.stderr)
            return 2
        try:
            parser = build_parser()
            args, extra = parser.parse_known_args(argv)
            # argparse cannot resume a positional list after an option (`arena GAME -c k=v a b`):
            # the words left over are the rest of the agent list.
            if (
                extra
                and isinstance(getattr(args, "agents", None), list)
                and not any(x.startswith("-") for x in extra)
            ):
                args.agents = [*args.agents, *extra]
            elif extra:
                parser.error(f"unrecognized arguments: {' '.join(extra)}")
        except SystemExit as e:  # --help, --version (0) or a usage error (2)
            return e.code if isinstance(e.code, int) else (0 if e.code is None else 2)
        return int(args.func(args) or 0)
    except CliError as e:
        return _error(str(e))
    except GameError as e:
        return _error(f"{e} (see `boardgames-rl list` and `boardgames-rl COMMAND --help`)")
    except KeyboardInterrupt:
        print("\ninterrupted", file=sys.stderr)
        return 130
    except BrokenPipeError:  # e.g. `boardgames-rl list | head`
        sys.stdout = open(os.devnull, "w")  # noqa: SIM115 - silence the flush at exit
        return 1
    except (OSError, RecursionError) as e:  # e.g. an unreadable file, absurdly nested input
        return _error(f"{type(e).__name__}: {e}")


__all__ = ["build_parser", "main"]
