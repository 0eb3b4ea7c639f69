"""``boardgames-rl bench``: engine throughput beside PettingZoo classic games."""

from __future__ import annotations

import argparse

from boardgames_rl.cli.common import add_command


def run(args: argparse.Namespace) -> int:
    from boardgames_rl.benchmark import main as bench_main

    argv = ["--seconds", str(args.seconds)]
    if args.games:
        argv += ["--games", *args.games]
    if args.out:
        argv += ["--out", args.out]
    return int(bench_main(argv) or 0)


def add_parser(sub: argparse._SubParsersAction) -> None:
    p = add_command(
        sub,
        "bench",
        "throughput beside PettingZoo connect_four and texas_holdem",
        [
            "boardgames-rl bench --seconds 2",
            "boardgames-rl bench --games castle_flutterstone 'white_castle:num_players=4'",
        ],
    )
    p.add_argument("--games", nargs="*", help="games to measure (default: all)")
    p.add_argument("--seconds", type=float, default=3.0, help="time per measurement")
    p.add_argument("-o", "--out", help="JSON file for the results")
    p.set_defaults(func=run)
