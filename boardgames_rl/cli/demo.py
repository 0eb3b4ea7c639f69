"""``boardgames-rl demo``: one seeded game and a short series, the quick-start check."""

from __future__ import annotations

import argparse

from boardgames_rl.cli.common import add_command, add_progress_arg, add_seed_arg
from boardgames_rl.cli.watch import watch


def run(args: argparse.Namespace) -> int:
    from boardgames_rl.arena import play_series
    from boardgames_rl.registry import make_game

    game = make_game("castle_flutterstone", num_players=2)
    agents = ["heuristic", "random"]
    print("One seeded game of Castle Flutterstone, heuristic (A) against random (B):\n")
    watch(game, agents, args.seed, verbose=False)
    print(f"\nA short demo series ({args.games} games, seats rotated):")
    print(play_series(game, agents, args.games, seed=args.seed, progress=args.progress).table())
    return 0


def add_parser(sub: argparse._SubParsersAction) -> None:
    p = add_command(
        sub,
        "demo",
        "a short demo: one game and a small series",
        ["boardgames-rl demo", "boardgames-rl demo --games 20 --seed 1"],
    )
    p.add_argument("--games", type=int, default=100, help="games in the series (default 100)")
    add_seed_arg(p)
    add_progress_arg(p)
    p.set_defaults(func=run)
