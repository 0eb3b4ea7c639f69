"""The long differential run: the compiled and the pure engines play a million steps of every game.

    python lab/benchmarks/differential.py                      # 1,000,000 steps a game, resumable
    python lab/benchmarks/differential.py --steps-per-game 20000 --out /tmp/d.json   # a smoke run

Every game's million steps are spread over its setups (player counts and rule variants) and cut
into chunks of ``--chunk`` steps, each chunk one :func:`~boardgames_rl.testing.differential.
compare_builds` call with a seed of its own (the chunk's index times 1,000): both builds play the
chunk's seeded random games in two processes and compare, at every step, the player on move, the
mask, the rewards, every seat's observation, the state vector, ``to_dict`` and an info-set
sample. A chunk's line is printed as it ends and the JSON (``--out``) is rewritten after each, so
an interrupted run resumes where it stopped. Exit 1 if any chunk differs.
"""

from __future__ import annotations

import argparse
import json
import os
import sys
import tempfile
import time
from datetime import datetime, timezone
from pathlib import Path
from typing import Any

REPO_ROOT = Path(__file__).resolve().parents[2]
if str(REPO_ROOT) not in sys.path:  # run as a script from a clone
    sys.path.insert(0, str(REPO_ROOT))

from boardgames_rl.compiled import build_info  # noqa: E402
from boardgames_rl.core.files import read_bytes  # noqa: E402
from boardgames_rl.testing.differential import compare_builds  # noqa: E402

GAMES: dict[str, list[dict[str, Any]]] = {
    "castle_flutterstone": [
        {"num_players": 2},
        {"num_players": 3},
        {"num_players": 4, "pesky_ghosts": True},
        {"num_players": 2, "landing_model": "v1"},
    ],
    "castle_nightingale": [{}, {"side": "B"}],
    "night_of_the_ninja": [{"num_players": n} for n in (4, 5, 6, 7, 8, 9, 10, 11)],
    "white_castle": [{"num_players": n} for n in (2, 3, 4)],
}
"""Every game's setups; a game's steps are shared equally among them."""

DEFAULT_OUT = REPO_ROOT / "lab" / "benchmarks" / "results" / "differential.json"


def _write(path: Path, data: dict[str, Any]) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    fd, tmp = tempfile.mkstemp(dir=path.parent, prefix=path.name, suffix=".tmp")
    with os.fdopen(fd, "w") as f:
        json.dump(data, f, indent=1)
        f.write("\n")
    os.replace(tmp, path)


def _commit() -> str | None:
    """The checkout's commit (a resumed run may span commits: each chunk records its own)."""
    import subprocess

    try:
        done = subprocess.run(
            ["git", "rev-parse", "--short", "HEAD"], cwd=REPO_ROOT, capture_output=True, text=True
        )
    except OSError:
        return None
    return done.stdout.strip() or None


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--steps-per-game", type=int, default=1_000_000)
    parser.add_argument("--chunk", type=int, default=50_000)
    parser.add_argument("--games", nargs="*", default=list(GAMES), choices=list(GAMES))
    parser.add_argument("--out", type=Path, default=DEFAULT_OUT)
    args = parser.parse_args()
    if args.steps_per_game < 1 or args.chunk < 1:
        parser.error("--steps-per-game and --chunk must be at least 1")
    if build_info()["build"] != "compiled":
        parser.error(f"no compiled build to compare here: {build_info()['reason']}")
    data: dict[str, Any] = {"chunks": []}
    if args.out.is_file():
        # the run's own results: a regular file of a bounded size, refused in one line otherwise
        data = json.loads(read_bytes(args.out, 64 << 20, "differential results"))
    done = {(c["game"], json.dumps(c["config"], sort_keys=True), c["seed"]) for c in data["chunks"]}
    data["settings"] = {"steps_per_game": args.steps_per_game, "chunk": args.chunk}
    data["build"] = build_info()["compiler"]
    commit = _commit()
    different = 0
    for name in args.games:
        setups = GAMES[name]
        per_setup = -(-args.steps_per_game // len(setups))
        for config in setups:
            for index in range(-(-per_setup // args.chunk)):
                steps = min(args.chunk, per_setup - index * args.chunk)
                key = (name, json.dumps(config, sort_keys=True), index * 1000)
                if key in done:
                    continue
                start = time.perf_counter()
                result = compare_builds(name, config, seed=index * 1000, steps=steps)
                print(result.line(), flush=True)
                different += not result.same
                data["chunks"].append(
                    {
                        "game": name,
                        "config": config,
                        "seed": index * 1000,
                        "steps": steps,
                        "games": result.games,
                        "same": result.same,
                        "first_difference": result.first_difference,
                        "error": result.error,
                        "seconds": result.seconds,
                        "wall_seconds": round(time.perf_counter() - start, 1),
                        "commit": commit,
                    }
                )
                data["updated"] = datetime.now(timezone.utc).strftime("%Y-%m-%d %H:%M UTC")
                _write(args.out, data)
    totals: dict[str, dict[str, int]] = {}
    for c in data["chunks"]:
        t = totals.setdefault(c["game"], {"steps": 0, "games": 0, "chunks_different": 0})
        t["steps"] += c["steps"]
        t["games"] += c["games"]
        t["chunks_different"] += not c["same"]
    data["totals"] = totals
    _write(args.out, data)
    for name, t in totals.items():
        print(
            f"{name}: {t['steps']:,} steps in {t['games']:,} games, "
            f"{t['chunks_different']} chunk(s) different"
        )
    return 1 if different or any(t["chunks_different"] for t in totals.values()) else 0


if __name__ == "__main__":
    sys.exit(main())
