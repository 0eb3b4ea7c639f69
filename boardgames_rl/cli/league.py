"""``boardgames-rl league ...``: forwards every argument to the league self-play script
:mod:`boardgames_rl.training.league` (its flags are the fields of
:class:`~boardgames_rl.training.league_settings.LeagueArgs`; ``--help`` lists each with its help
text and the per-game defaults). The run prints a line per snapshot frozen and per evaluation,
and a summary at the end (where the model, the best model and the logs are; the final win
rates)."""

from __future__ import annotations

import argparse
from collections.abc import Callable

from boardgames_rl.cli.common import add_command
from boardgames_rl.cli.train import run_script


def forward(argv: list[str]) -> int:
    """Run ``boardgames_rl.training.league.main(argv)``; the exit codes of ``train``'s
    (:func:`boardgames_rl.cli.train.forward`): 0 saved, 1 a runtime error, 2 a bad flag, 130 /
    143 after SIGINT / SIGTERM (the checkpoint is saved; rerun the command to continue)."""

    def flags(argv: list[str]) -> object:
        from boardgames_rl.training.league_settings import parse_league_args

        return parse_league_args(argv)

    def script() -> Callable[[list[str]], object]:
        from boardgames_rl.training.league import main

        return main

    return run_script(argv, flags, script, "league")


def run(args: argparse.Namespace) -> int:
    return forward(args.args)


def add_parser(sub: argparse._SubParsersAction) -> None:
    p = add_command(
        sub,
        "league",
        "train by league self-play (all arguments go to boardgames_rl.training.league)",
        [
            "boardgames-rl league --help       # the league's own options",
            "boardgames-rl league --game white_castle -c num_players=4 --prior heuristic",
        ],
        add_help=False,
    )
    p.add_argument("args", nargs=argparse.REMAINDER, help="arguments of the league script")
    p.set_defaults(func=run)
