"""Night of the Ninja: one heuristic seat against four uniform random seats.

Plays N seeded 5-player games (default 1,000). Game ``i`` uses seed ``seed + i`` and puts the
heuristic in seat ``i % 5`` (the seat rotates), the other four seats are random agents. Prints
the heuristic's win rate and the mean random seat's win rate in the same games, with 95% Wilson
intervals and their ratio, counted two ways:

* "any win": a shared victory (equal highest scores) is a win for every sharer;
* "1/k share": a victory shared by k players counts 1/k for each.

A random seat's rate is the mean over the four random seats of each game (its Wilson interval is
taken over the N games, a conservative choice since the four seats of one game are not
independent). Truncated games (the round cap) count as no win for anybody. Saves a summary and
every game's record as JSON.

    python experiments/ninja_heuristic_vs_random.py
    python experiments/ninja_heuristic_vs_random.py --games 200 --seed 7
"""

from __future__ import annotations

import argparse
import json
import time
from pathlib import Path

from boardgames_rl.arena.match import play_game
from boardgames_rl.arena.stats import wilson_interval
from boardgames_rl.core.agent import RandomAgent
from boardgames_rl.games.night_of_the_ninja.game import NightOfTheNinja
from boardgames_rl.games.night_of_the_ninja.heuristic import NightOfTheNinjaHeuristic

parser = argparse.ArgumentParser(description=__doc__.split("\n")[1])
parser.add_argument("--games", type=int, default=1000)
parser.add_argument("--seed", type=int, default=0)
parser.add_argument("--players", type=int, default=5)
parser.add_argument("--out", default="runs/ninja_heuristic_vs_random.json")
args = parser.parse_args()
n = args.players

# 1. The game and the agents: one heuristic (reused, it keeps no memory between games).
game = NightOfTheNinja(num_players=n)
heuristic = NightOfTheNinjaHeuristic()

# 2. The games: the heuristic's seat rotates; the winners of every game are recorded.
records = []
wins = {"any": [0.0, 0.0], "share": [0.0, 0.0]}  # [heuristic, mean random seat]
start = time.perf_counter()
for i in range(args.games):
    seat = i % n
    agents = [RandomAgent() for _ in range(n)]
    agents[seat] = heuristic
    record = play_game(game, agents, args.seed + i)
    winners = record.winners
    k = len(winners)
    if seat in winners:
        wins["any"][0] += 1
        wins["share"][0] += 1 / k
    others = [w for w in winners if w != seat]
    wins["any"][1] += len(others) / (n - 1)
    wins["share"][1] += len(others) / k / (n - 1)
    records.append(
        {
            "seed": record.seed,
            "heuristic_seat": seat,
            "winners": winners,
            "returns": record.returns,
            "length": record.length,
            "truncated": record.truncated,
        }
    )
elapsed = time.perf_counter() - start

# 3. The figures.
summary = {
    "game": game.name,
    "config": game.config,
    "games": args.games,
    "seed": args.seed,
    "seconds": elapsed,
    "fallbacks": heuristic.fallbacks,
    "truncated": sum(r["truncated"] for r in records),
}
print(f"{args.games} games, {n} players, one heuristic seat (rotating), {elapsed:.0f} s")
for how, label in (("any", "any win"), ("share", "1/k share")):
    h, r = wins[how]
    h_rate, r_rate = h / args.games, r / args.games
    h_ci, r_ci = wilson_interval(h, args.games), wilson_interval(r, args.games)
    ratio = h_rate / r_rate if r_rate else float("inf")
    print(
        f"  {label:9s}: heuristic {h_rate:.3f} (95% CI {h_ci[0]:.3f}-{h_ci[1]:.3f})  "
        f"random seat {r_rate:.3f} (95% CI {r_ci[0]:.3f}-{r_ci[1]:.3f})  ratio {ratio:.2f}"
    )
    summary[how] = {
        "heuristic": h_rate,
        "heuristic_ci95": list(h_ci),
        "random_seat": r_rate,
        "random_seat_ci95": list(r_ci),
        "ratio": ratio,
    }

out = Path(args.out)
out.parent.mkdir(parents=True, exist_ok=True)
out.write_text(json.dumps({"summary": summary, "records": records}, indent=1))
out.with_suffix(".summary.json").write_text(json.dumps(summary, indent=1))
print(f"saved {out}")
