"""Round-robin tournaments for every game: the tables in the README.

    python lab/experiments/tournaments.py                       # every game, defaults below
    python lab/experiments/tournaments.py --only white_castle --games 100 --workers 2

For each game this runs ``boardgames_rl.arena.tournament`` (every pairing of the agents, seats
rotated; "one against a field" tables for Night of the Ninja), saves the run folder under
``--runs`` (``games.jsonl`` replays with ``boardgames-rl replay``; running the script again resumes
an interrupted tournament), copies the result files (CSV, JSON, heatmap PNG) to
``docs/results/tournaments/<game>/`` and writes ``docs/results/tournaments.md`` with one table per
game and the command that made it.
"""

from __future__ import annotations

import argparse
import shutil
import sys
from pathlib import Path

from boardgames_rl.arena import tournament
from boardgames_rl.registry import make_game

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
    parser.add_argument("--docs", default="docs/results", help="where the tables and files go")
    args = parser.parse_args()

    docs = Path(args.docs)
    sections = []
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
        options = " ".join(f"-c {k}={v}" for k, v in config.items())
        specs = " ".join(f"'{a}'" if ":" in a else a for a in agents)
        command = (
            f"boardgames-rl arena {name} {options} {specs} --games {games}"
            f" --workers {args.workers} --seed {args.seed} --out {out}"
        ).replace("  ", " ")
        sections.append(
            f"## {name}\n\n{result.to_markdown()}\n\n"
            f"![pairwise win rates](tournaments/{name}/heatmap.png)\n\n"
            f"Made by `{command}` (files in `docs/results/tournaments/{name}/`).\n"
        )

    if not args.only:
        text = (
            "# Tournaments\n\n"
            "Every pairing of the agents, seats rotated, seeded"
            " (`python lab/experiments/tournaments.py`). Win rate per seat held with 95% Wilson"
            " intervals; ratings are Bradley-Terry on the Elo scale with `random` = 0 and 95%"
            " bootstrap intervals over games. In Night of the Ninja each table is one agent alone"
            " against a field of another.\n\n" + "\n".join(sections)
        )
        (docs / "tournaments.md").write_text(text)
        print(f"wrote {docs / 'tournaments.md'}", file=sys.stderr)


if __name__ == "__main__":  # worker processes re-import this module
    main()
