"""Castle Nightingale: the heuristic agent against a uniform random agent, role by role.

The roles are asymmetric (seat 0 is the ninja, seat 1 the samurai), so seats are not rotated:
every matchup plays N seeded games (default 500) with the same seeds,

* heuristic ninja vs random samurai,
* random ninja vs heuristic samurai,
* heuristic ninja vs heuristic samurai (the balance check of data sheet section 9),

and prints each role's win rate with its 95% Wilson interval, the draw rate (turn limit reached)
and the mean game length in turns; every game's record and the summary are saved as JSON.

    python experiments/nightingale_heuristic_vs_random.py
    python experiments/nightingale_heuristic_vs_random.py --games 200 -c side=B
"""

from __future__ import annotations

import argparse
import json
import time
from pathlib import Path

from boardgames_rl.arena.match import play_game
from boardgames_rl.arena.stats import wilson_interval
from boardgames_rl.core.agent import RandomAgent
from boardgames_rl.core.options import parse_options
from boardgames_rl.games.castle_nightingale.heuristic import NightingaleHeuristic
from boardgames_rl.registry import make_game

parser = argparse.ArgumentParser(description=__doc__.split("\n")[1])
parser.add_argument("--games", type=int, default=500)
parser.add_argument("--seed", type=int, default=0, help="game i uses seed + i")
parser.add_argument("-c", "--config", action="append", default=[], metavar="KEY=VALUE")
parser.add_argument("--out", default="runs/nightingale_heuristic_vs_random.json")
args = parser.parse_args()

# 1. The game: side A, first-game layout unless configured otherwise.
game = make_game("castle_nightingale", **parse_options(args.config))

# 2. The matchups: an agent factory for each seat (seat 0 = ninja, seat 1 = samurai).
MATCHUPS = {
    "heuristic ninja vs random samurai": (NightingaleHeuristic, RandomAgent),
    "random ninja vs heuristic samurai": (RandomAgent, NightingaleHeuristic),
    "heuristic ninja vs heuristic samurai": (NightingaleHeuristic, NightingaleHeuristic),
}


def play_one(agents, seed: int) -> dict:
    """One game; the last state seen by ``on_step`` gives its length in turns."""
    last = {}
    record = play_game(game, agents, seed, on_step=lambda state, p, a: last.update(state=state))
    winner = "ninja" if record.returns[0] > 0 else "samurai" if record.returns[1] > 0 else "draw"
    return {"seed": seed, "winner": winner, "turns": last["state"].turn, "actions": record.length}


# 3. Play every matchup over the same seeds.
results = {}
for name, (ninja, samurai) in MATCHUPS.items():
    agents = [ninja(), samurai()]
    start = time.perf_counter()
    games = [play_one(agents, args.seed + i) for i in range(args.games)]
    seconds = time.perf_counter() - start
    n = len(games)
    summary = {"games": n, "seconds_per_game": seconds / n}
    for role in ("ninja", "samurai", "draw"):
        count = sum(g["winner"] == role for g in games)
        low, high = wilson_interval(count, n)
        summary[role] = {"wins": count, "rate": count / n, "ci95": [low, high]}
    summary["mean_turns"] = sum(g["turns"] for g in games) / n
    results[name] = {"summary": summary, "games": games}

# 4. The table.
print(f"{game.name} {game.config}, {args.games} games per matchup, seeds {args.seed}..")
print(f"{'matchup':38s} {'ninja wins':>22s} {'samurai wins':>22s} {'draws':>6s} {'turns':>6s}")
for name, res in results.items():
    s = res["summary"]
    cells = [
        f"{s[r]['rate']:.3f} ({s[r]['ci95'][0]:.3f}-{s[r]['ci95'][1]:.3f})"
        for r in ("ninja", "samurai")
    ]
    print(
        f"{name:38s} {cells[0]:>22s} {cells[1]:>22s} {s['draw']['rate']:6.3f} "
        f"{s['mean_turns']:6.1f}   ({s['seconds_per_game']:.3f} s/game)"
    )

out = Path(args.out)
out.parent.mkdir(parents=True, exist_ok=True)
out.write_text(json.dumps({"config": game.config, "seed": args.seed, "results": results}))
summaries = {name: res["summary"] for name, res in results.items()}
out.with_suffix(".summary.json").write_text(
    json.dumps({"config": game.config, "seed": args.seed, "summary": summaries}, indent=1)
)
print(f"saved {out}")
