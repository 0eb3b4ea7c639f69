"""``boardgames-rl train ...``: forwards every argument to the masked PPO script
:mod:`boardgames_rl.training.ppo` (its flags are the fields of
:class:`~boardgames_rl.training.settings.Args`; ``--help`` lists each with its help text, and the
per-game defaults). The run prints on standard output, terminal or not, a line per evaluation and
a summary at the end (where the model, the best model and the logs are; the final win rates)."""

from __future__ import annotations

import argparse

from boardgames_rl.cli.common import CliError, add_command


def forward(argv: list[str]) -> int:
    """Run ``boardgames_rl.training.ppo.main(argv)``; returns the exit code: 0 when the run is
    saved, 1 a runtime error (one line, raised as :class:`CliError`), 2 a bad flag, 130 / 143
    after SIGINT / SIGTERM (the checkpoint is saved; rerun the command to continue)."""
    try:
        from boardgames_rl.training.settings import parse_args

        parse_args(argv)  # the flags first: a typo or --help needs no torch
        try:
            from boardgames_rl.training.ppo import main as train_main
        except ImportError as e:
            raise CliError(
                "training needs torch and the [train] extra (`pip install 'boardgames-rl[train]'`)"
                f": {e}"
            ) from e
        train_main(argv)
    except SystemExit as e:
        if e.code is None or isinstance(e.code, int):
            return int(e.code or 0)
        raise CliError(str(e.code).removeprefix("train: error: ")) from None
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
