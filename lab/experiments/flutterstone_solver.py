"""Castle Flutterstone: the race solver against the heuristic and random agents.

Solves the basic 2-player game (or reads the solved table from the cache), prints what the
table says of the opening (the first player's chance), then plays seeded series with the
seats rotated every game and prints each win rate with its 95% Wilson interval. The summary
goes to JSON with its provenance; ``python docs/generate.py`` writes the site's page from it.

    python lab/experiments/flutterstone_solver.py
    python lab/experiments/flutterstone_solver.py --games 2000 -c skills=skilled
    python lab/experiments/flutterstone_solver.py --players 3 --opponents heuristic --games 600

With ``--players 3`` or ``4`` the solver (racing its rival with the 2-player tables) sits alone
against a table of one opponent, seats rotated, and the page shows a heuristic seat's rate in
the same games beside its own (into ``docs/results/flutterstone_solver_<N>p.json``).
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from pathlib import Path

from boardgames_rl.agents import make_agent
from boardgames_rl.arena import play_series
from boardgames_rl.core.options import parse_options
from boardgames_rl.games.castle_flutterstone.ai.race_agent import RaceSolverAgent
from boardgames_rl.registry import make_game

REPO_ROOT = Path(__file__).resolve().parents[2]
if str(REPO_ROOT) not in sys.path:  # run as a script from a clone: the lab's helpers
    sys.path.insert(0, str(REPO_ROOT))

from lab.provenance import provenance  # noqa: E402

parser = argparse.ArgumentParser(description=__doc__.split("\n")[1])
parser.add_argument("--games", type=int, default=1000, help="games per opponent")
parser.add_argument("--opponents", default="heuristic,random")
parser.add_argument("--seed", type=int, default=2026)
parser.add_argument("-c", "--config", action="append", default=[], metavar="KEY=VALUE")
parser.add_argument("--players", type=int, default=2, choices=(2, 3, 4))
parser.add_argument(
    "--out", default="", help="default docs/results/flutterstone_solver[_<N>p].json"
)
parser.add_argument("--progress", action=argparse.BooleanOptionalAction, default=True)
args = parser.parse_args()

# 1. The game and the solved race (a minute or two the first time, then from the cache).
game = make_game(
    "castle_flutterstone", **{"num_players": args.players, **parse_options(args.config)}
)
n = game.num_players
start = time.perf_counter()
solver = make_agent(f"solver:progress={str(args.progress).lower()}", game)
assert isinstance(solver, RaceSolverAgent)
tables = solver.tables
print(
    f"solved in {time.perf_counter() - start:.1f} s ({tables.sweeps} sweeps, last change "
    f"{tables.residual:.1e}); the first player's chance at the opening: "
    f"{tables.value[tables.seat_class[0], 0, 0, 0, 0]:.3f}"
)

# 2. The series: the solver and each opponent swap seats every game.
summary: dict = {"config": game.config, "seed": args.seed, "games": args.games, "vs": {}}
for opponent in args.opponents.split(","):
    result = play_series(
        game, [solver] + [opponent] * (n - 1), args.games, seed=args.seed, progress=args.progress
    )
    rate, low, high = result.win_rate(0)
    seats = {}
    for seat in range(n):
        mine = [r for r in result.records if r.seats[seat] == 0]
        wins = sum(1 for r in mine if r.returns[seat] > 0)
        seats[f"player_{seat}"] = {"games": len(mine), "wins": wins}
    print(f"solver vs {opponent}: {rate:.3f} [{low:.3f}, {high:.3f}] over {args.games} games")
    summary["vs"][opponent] = {"rate": rate, "low": low, "high": high, "seats": seats}
    if n > 2:  # a seat of the opponent's, in the same games
        seat_rate = sum(result.wins(i) for i in range(1, n)) / (n - 1) / len(result.records)
        summary["vs"][opponent]["opponent_seat"] = seat_rate
        print(f"  a {opponent} seat: {seat_rate:.3f} ({rate / seat_rate:.2f}x)")

suffix = "" if n == 2 else f"_{n}p"
out = Path(args.out or f"docs/results/flutterstone_solver{suffix}.json")
out.parent.mkdir(parents=True, exist_ok=True)
out.write_text(json.dumps({**summary, "provenance": provenance()}, indent=1) + "\n")
print(f"saved {out}; now run `python docs/generate.py` to write the site's page")
