"""The White Castle: the heuristic agent against a uniform random agent.

Plays N seeded 2-player games (default 500) with the seats rotated every game, prints the
heuristic's win rate with its 95% Wilson interval and the average final score of each agent,
and saves every game's record (with the final scores) as JSON.

    python experiments/white_castle_heuristic_vs_random.py
    python experiments/white_castle_heuristic_vs_random.py --games 200 --seed 1
"""

from __future__ import annotations

import argparse
import json
import time
from pathlib import Path

import numpy as np

from boardgames_rl.arena import SeriesResult, play_game, wilson_interval
from boardgames_rl.core.agent import RandomAgent
from boardgames_rl.games.white_castle.heuristic import WhiteCastleHeuristic
from boardgames_rl.registry import make_game

parser = argparse.ArgumentParser(description=__doc__.split("\n")[1])
parser.add_argument("--games", type=int, default=500)
parser.add_argument("--seed", type=int, default=0)
parser.add_argument("--out", default="runs/white_castle_heuristic_vs_random.json")
args = parser.parse_args()

# 1. The game and the agents: agent 0 is the heuristic, agent 1 the random agent.
game = make_game("white_castle", num_players=2)
agents = [WhiteCastleHeuristic(), RandomAgent()]
names = ["heuristic", "random"]

# 2. The series: seats rotate every game (as in arena.play_series, same seeds); the final
#    scores are read from the last state seen by the on_step callback.
result = SeriesResult(game.name, game.config, names)
final_scores = np.zeros((args.games, 2))  # by agent, not by seat
last: dict = {}


def remember(state, _player, _action):
    last["state"] = state


start = time.perf_counter()
for i in range(args.games):
    seat_agents = [(s - i) % 2 for s in range(2)]  # seat -> agent
    record = play_game(
        game,
        [agents[j] for j in seat_agents],
        args.seed * 1_000_003 + i,
        on_step=remember,
    )
    record.seats = seat_agents
    result.records.append(record)
    totals = [b["total"] for b in last["state"].scores()]
    for seat, agent in enumerate(seat_agents):
        final_scores[i, agent] = totals[seat]
elapsed = time.perf_counter() - start

# 3. The figures.
wins = result.wins(0)
low, high = wilson_interval(wins, args.games)
rate = wins / args.games
mean_h, mean_r = final_scores.mean(axis=0)
print(result.table())
print(
    f"\nheuristic win rate vs random: {rate:.3f} "
    f"(95% CI {low:.3f}-{high:.3f}) over {args.games} games in {elapsed:.1f} s"
)
print(f"average final score: heuristic {mean_h:.2f}, random {mean_r:.2f}")

out = Path(args.out)
out.parent.mkdir(parents=True, exist_ok=True)
out.write_text(result.to_json())
summary = {
    "win_rate": rate,
    "ci95": [low, high],
    "games": args.games,
    "seed": args.seed,
    "config": game.config,
    "mean_score": {"heuristic": float(mean_h), "random": float(mean_r)},
    "final_scores": final_scores.tolist(),
    "seconds": elapsed,
}
out.with_suffix(".summary.json").write_text(json.dumps(summary, indent=1))
print(f"saved {out}")
