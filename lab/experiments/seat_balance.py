"""Seat balance: the win rate of every seat when the same agent plays all of them.

A seat's share of the wins in a table of equals says how much the seat itself is worth, the
baseline to read any agent's per-seat figures against (a trained agent winning least in seat 0
may only be sitting in the game's worst seat). Plays ``--games`` seeded games with ``--agent`` in
every seat (game ``i`` from seed ``seed * 1_000_003 + i``, as every series in the arena) and
prints each seat's rate with its 95% Wilson interval; a victory shared by k players counts 1/k
for each of them (as ``lab/recipes/train_strong.py`` counts its strength games). ``--workers``
processes play the games; the figures do not depend on their number. Writes the figures as
``seat_balance.json`` with their provenance; the site's page is written from it by
``python docs/generate.py``.

    python lab/experiments/seat_balance.py night_of_the_ninja -c num_players=5 --games 3000 \\
        --seed 2026 --workers 2
    python lab/experiments/seat_balance.py white_castle -c num_players=4 --agent random
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from pathlib import Path
from typing import Any

from boardgames_rl.arena import play_series, wilson_interval
from boardgames_rl.cli.common import (
    CliError,
    add_game_args,
    add_progress_arg,
    add_seed_arg,
    build_agent,
    make_game_from_args,
    positive_int,
)
from boardgames_rl.core.errors import MissingExtraError

REPO_ROOT = Path(__file__).resolve().parents[2]
if str(REPO_ROOT) not in sys.path:  # run as a script from a clone: the lab's helpers
    sys.path.insert(0, str(REPO_ROOT))

from lab.provenance import provenance  # noqa: E402

parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
add_game_args(parser)
parser.add_argument("--agent", default="heuristic", help="the agent spec in every seat")
parser.add_argument("--games", type=positive_int, default=1000)
add_seed_arg(parser)
parser.add_argument("--workers", type=positive_int, default=1, help="processes playing the games")
add_progress_arg(parser)
parser.add_argument("--out", default="runs/seat_balance", help="folder for seat_balance.json")


def main(argv: list[str] | None = None) -> dict:
    """Play the games, print and write the table; returns the summary written as JSON."""
    args = parser.parse_args(argv)

    # 1. The game, and the same agent in every seat (built once here: a bad spec stops at once).
    try:
        game = make_game_from_args(args)
        build_agent(args.agent, game)
    except (CliError, MissingExtraError) as e:
        sys.exit(f"seat_balance: {e}")
    agents = [args.agent] * game.num_players

    # 2. The games (seats need no rotation: every seat holds the same agent).
    start = time.perf_counter()
    result = play_series(
        game, agents, args.games, seed=args.seed, progress=args.progress, workers=args.workers
    )
    elapsed = time.perf_counter() - start
    records = result.records

    # 3. Each seat's share of the wins, with its interval.
    rows: list[dict[str, Any]] = []
    for seat in range(game.num_players):
        wins = sum(1.0 / len(r.winners) for r in records if seat in r.winners)
        low, high = wilson_interval(wins, len(records))
        rows.append(
            {
                "seat": seat,
                "name": game.player_names[seat],
                "rate": wins / len(records),
                "low": low,
                "high": high,
                "wins": wins,
            }
        )
    even = 1 / game.num_players
    lines = [
        f"| seat | win rate (95% interval) | / an even share ({even:.3f}) |",
        "|---|---|---|",
        *(
            f"| {r['name']} | {r['rate']:.3f} [{r['low']:.3f}, {r['high']:.3f}] "
            f"| {r['rate'] / even:.2f} |"
            for r in rows
        ),
    ]
    truncated = sum(r.truncated for r in records)
    print(
        f"{game.name} {game.config}: {args.agent} in every seat, {len(records)} games, seed "
        f"{args.seed} ({elapsed:.0f} s; {truncated} truncated, no winner counted)"
    )
    print("\n".join(lines))

    # 4. The files.
    out = Path(args.out)
    out.mkdir(parents=True, exist_ok=True)
    summary = {
        "game": game.name,
        "config": game.config,
        "agent": args.agent,
        "games": len(records),
        "seed": args.seed,
        "truncated": truncated,
        "seconds": round(elapsed, 1),
        "seats": rows,
        "provenance": provenance(),
    }
    (out / "seat_balance.json").write_text(json.dumps(summary, indent=1) + "\n")
    print(f"files in {out}")
    return summary


if __name__ == "__main__":  # spawned worker processes import this file: play only when run
    main()
