"""Castle Flutterstone: the heuristic agent against a uniform random agent.

Plays N seeded 2-player games (default 1,000) with the seats rotated every game, prints the
heuristic's win rate with its 95% Wilson interval and saves every game's record as JSON.

    python experiments/flutterstone_heuristic_vs_random.py
    python experiments/flutterstone_heuristic_vs_random.py --games 1000 -c pesky_ghosts=true
"""

from __future__ import annotations

import argparse
import json
from pathlib import Path

from boardgames_rl.arena import play_series
from boardgames_rl.core.options import parse_options
from boardgames_rl.registry import make_game

parser = argparse.ArgumentParser(description=__doc__.split("\n")[1])
parser.add_argument("--games", type=int, default=1000)
parser.add_argument("--seed", type=int, default=0)
parser.add_argument("-c", "--config", action="append", default=[], metavar="KEY=VALUE")
parser.add_argument("--out", default="runs/flutterstone_heuristic_vs_random.json")
args = parser.parse_args()

# 1. The game: 2 players, basic game unless configured otherwise.
game = make_game("castle_flutterstone", **{"num_players": 2, **parse_options(args.config)})

# 2. The series: heuristic and random swap seats every game; every game has its own seed.
result = play_series(game, ["heuristic", "random"], args.games, seed=args.seed)

# 3. The figure.
rate, low, high = result.win_rate(0)
print(result.table())
print(
    f"\nheuristic win rate vs random: {rate:.3f} "
    f"(95% CI {low:.3f}-{high:.3f}) over {args.games} games"
)

out = Path(args.out)
out.parent.mkdir(parents=True, exist_ok=True)
out.write_text(result.to_json())
summary = {
    "win_rate": rate,
    "ci95": [low, high],
    "games": args.games,
    "seed": args.seed,
    "config": game.config,
}
out.with_suffix(".summary.json").write_text(json.dumps(summary, indent=1))
print(f"saved {out}")
