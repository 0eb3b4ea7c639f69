"""``boardgames-rl train ...``: forwards every argument to the PPO training script (its flags are
the fields of :class:`boardgames_rl.training.args.TrainArgs`; ``--help`` lists each with its help
text and its default, per game where a game has its own). The run prints on standard output,
terminal or not, a line per evaluation and a summary at the end (where the model, the best
model and the logs are; the final win rates): see :mod:`boardgames_rl.training.train_ppo`."""

from __future__ import annotations

import argparse

from boardgames_rl.cli.common import CliError, add_command


def forward(argv: list[str]) -> int:
    """Run ``boardgames_rl.training.train_ppo.main(argv)``; returns the exit code: 0 when the run
    is saved, 1 a runtime error (one line, raised as :class:`CliError`), 2 a bad flag, 130 / 143
    after SIGINT / SIGTERM (the checkpoint is saved; rerun the command to continue)."""
    from boardgames_rl.training.args import parse_args

    try:
        parse_args(argv)  # the flags first: a typo or --help needs no torch (a second, not five)
        try:
            from boardgames_rl.training.train_ppo import main as train_main
        except ImportError as e:
            raise CliError(
                "training needs boardgames_rl.training.train_ppo and its dependencies "
                f"(torch, stable-baselines3, sb3-contrib; `pip install -e .`): {e}"
            ) from e
        result = train_main(argv)
    except SystemExit as e:
        if e.code is None or isinstance(e.code, int):
            return int(e.code or 0)
        raise CliError(str(e.code).removeprefix("train_ppo: error: ")) from None
    return result if isinstance(result, int) else 0


def run(args: argparse.Namespace) -> int:
    return forward(args.args)


def add_parser(sub: argparse._SubParsersAction) -> None:
    p = add_command(
        sub,
        "train",
        "train a PPO agent (all arguments go to boardgames_rl.training.train_ppo)",
        [
            "boardgames-rl train --help        # the training script's own options",
            "boardgames-rl train --game castle_flutterstone",
        ],
        add_help=False,
    )
    p.add_argument("args", nargs=argparse.REMAINDER, help="arguments of the training script")
    p.set_defaults(func=run)
