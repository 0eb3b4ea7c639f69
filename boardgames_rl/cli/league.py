"""``boardgames-rl league ...``: forwards every argument to the league self-play script
:mod:`boardgames_rl.training.league` (its flags are the fields of
:class:`~boardgames_rl.training.league_settings.LeagueArgs`; ``--help`` lists each with its help
text and the per-game defaults). The run prints a line per snapshot frozen and per evaluation,
and a summary at the end (where the model, the best model and the logs are; the final win
rates)."""

from __future__ import annotations

import argparse

from boardgames_rl.cli.common import CliError, add_command


def forward(argv: list[str]) -> int:
    """Run ``boardgames_rl.training.league.main(argv)``; returns the exit code: 0 when the
    league is saved, 1 a runtime error (one line, raised as :class:`CliError`), 2 a bad flag,
    130 / 143 after SIGINT / SIGTERM (the checkpoint is saved; rerun the command to continue)."""
    try:
        from boardgames_rl.training.league_settings import parse_league_args

        parse_league_args(argv)  # the flags first: a typo or --help needs no torch
        try:
            from boardgames_rl.training.league import main as league_main
        except ImportError as e:
            raise CliError(
                "training needs torch and the [train] extra (`pip install 'boardgames-rl[train]'`)"
                f": {e}"
            ) from e
        league_main(argv)
    except SystemExit as e:
        if e.code is None or isinstance(e.code, int):
            return int(e.code or 0)
        raise CliError(str(e.code).removeprefix("league: error: ")) from None
    return 0


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
