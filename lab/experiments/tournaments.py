"""Round-robin tournaments for every game: the data of the site's Tournaments page.

    python lab/experiments/tournaments.py                       # every game, defaults below
    python lab/experiments/tournaments.py --only white_castle --games 100 --workers 2

For each game this runs ``boardgames_rl.arena.tournament`` (every pairing of the agents, seats
rotated; "one against a field" tables for Night of the Ninja), saves the run folder under
``--runs`` (``games.jsonl`` replays with ``boardgames-rl replay``; running the script again resumes
an interrupted tournament), copies the result files (CSV, JSON, heatmap PNG) to
``docs/results/tournaments/<game>/`` (``results.json`` stamped with its provenance). The page is
written from them by ``python docs/generate.py``.
"""

from __future__ import annotations

import argparse
import json
import shutil
import sys
from pathlib import Path

from boardgames_rl.arena import tournament
from boardgames_rl.registry import make_game

REPO_ROOT = Path(__file__).resolve().parents[2]
if str(REPO_ROOT) not in sys.path:  # run as a script from a clone: the lab's helpers
    sys.path.insert(0, str(REPO_ROOT))

from lab.provenance import provenance  # noqa: E402

# game -> (config, agents, games per pairing). ISMCTS uses the per-game tuned settings at 100
# iterations so that the whole run fits in about half an hour on a 2-core machine; the strength
# ladder (lab/experiments/strength_ladder.py) measures the 400-iteration agent. Night of the Ninja
# tables put one agent against a field of four copies of another, so its ISMCTS tables are the
# slow ones.
AGENTS = ["random", "heuristic", "ismcts:preset=tuned,iterations=100"]
PLAN: dict[str, tuple[dict, list[str], int]] = {
    "castle_flutterstone": ({"num_players": 2}, AGENTS, 100),
    "castle_nightingale": ({}, AGENTS, 40),
    "white_castle": ({"num_players": 2}, AGENTS, 40),
    "night_of_the_ninja": ({"num_players": 5}, AGENTS, 20),
}
RESULT_FILES = ("results.csv", "pairwise.csv", "ratings.csv", "results.json", "heatmap.png")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--only", nargs="*", choices=sorted(PLAN), help="games (default all)")
    parser.add_argument("--games", type=int, help="games per pairing (default: per game, see PLAN)")
    parser.add_argument("--agents", nargs="*", help="agent specs (default: per game, see PLAN)")
    parser.add_argument("--workers", type=int, default=2)
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--runs", default="runs/tournaments", help="run folders (resumable)")
    parser.add_argument("--docs", default="docs/results", help="where the result files go")
    args = parser.parse_args()

    docs = Path(args.docs)
    for name in args.only or list(PLAN):
        config, agents, games = PLAN[name]
        agents = args.agents or agents
        games = args.games or games
        game = make_game(name, **config)
        out = Path(args.runs) / name
        result = tournament(
            game, agents, games, seats="rotate", workers=args.workers, seed=args.seed, out=out
        )
        print(result.table())
        files = docs / "tournaments" / name
        files.mkdir(parents=True, exist_ok=True)
        for f in RESULT_FILES:
            shutil.copy(out / f, files / f)
        summary = json.loads((files / "results.json").read_text())
        summary["provenance"] = provenance()
        (files / "results.json").write_text(json.dumps(summary, indent=1))
    print(f"wrote {docs / 'tournaments'}; now run `python docs/generate.py`", file=sys.stderr)


if __name__ == "__main__":  # worker processes re-import this module
    main()
