"""``boardgames-rl train ...``: forwards every argument to the masked PPO script
:mod:`boardgames_rl.training.ppo` (its flags are the fields of
:class:`~boardgames_rl.training.settings.Args`; ``--help`` lists each with its help text, and the
per-game defaults). The run prints on standard output, terminal or not, a line per evaluation and
a summary at the end (where the model, the best model and the logs are; the final win rates)."""

from __future__ import annotations

import argparse
from collections.abc import Callable

from boardgames_rl.cli.common import CliError, add_command


def forward(argv: list[str]) -> int:
    """Run ``boardgames_rl.training.ppo.main(argv)``; returns the exit code: 0 when the run is
    saved, 1 a runtime error (one line, raised as :class:`CliError`), 2 a bad flag, 130 / 143
    after SIGINT / SIGTERM (the checkpoint is saved; rerun the command to continue)."""

    def flags(argv: list[str]) -> object:
        from boardgames_rl.training.settings import parse_args

        return parse_args(argv)

    def script() -> Callable[[list[str]], object]:
        from boardgames_rl.training.ppo import main

        return main

    return run_script(argv, flags, script, "train")


def run_script(
    argv: list[str],
    flags: Callable[[list[str]], object],
    script: Callable[[], Callable[[list[str]], object]],
    name: str,
) -> int:
    """The flags read first (a typo or ``--help`` needs no torch), then the script's ``main``;
    the exit codes of :func:`forward` (what ``train`` and ``league`` share)."""
    try:
        flags(argv)
        try:
            main = script()
        except ImportError as e:
            raise CliError(
                "training needs torch and the [train] extra (`pip install 'boardgames-rl[train]'`)"
                f": {e}"
            ) from e
        main(argv)
    except SystemExit as e:
        if e.code is None or isinstance(e.code, int):
            return int(e.code or 0)
        raise CliError(str(e.code).removeprefix(f"{name}: error: ")) from None
    return 0


def run(args: argparse.Namespace) -> int:
    return forward(args.args)


def add_parser(sub: argparse._SubParsersAction) -> None:
    p = add_command(
        sub,
        "train",
        "train a masked PPO agent (all arguments go to boardgames_rl.training.ppo)",
        [
            "boardgames-rl train --help        # the training script's own options",
            "boardgames-rl train --game castle_flutterstone",
        ],
        add_help=False,
    )
    p.add_argument("args", nargs=argparse.REMAINDER, help="arguments of the training script")
    p.set_defaults(func=run)
