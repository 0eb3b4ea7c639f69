"""Solve Castle Flutterstone's race on the default track and ship the tables with the package.

The race solver (``solver`` agent, and the prior of the pretrained 3-player entry) solves its
game's race at its first decision: a minute or two on the default track, then cached per user.
The package ships the default track's tables (``boardgames_rl/games/castle_flutterstone/ai/
race_tables/``) so that first decision is instant on a fresh machine. Run this after a change
to the solved model (with ``CACHE_VERSION`` bumped) and commit what it writes::

    python lab/recipes/ship_race_tables.py            # every default game's races, 2-4 players
    python lab/recipes/ship_race_tables.py --check    # exit 1 if a shipped table is missing/stale

Each table is the configuration's race solved to the solver's tolerance; the test
``tests/castle_flutterstone/test_solver.py`` checks that every shipped file is a fixed point.
"""

from __future__ import annotations

import argparse
import json
import sys
from collections.abc import Sequence
from pathlib import Path

import numpy as np

REPO_ROOT = Path(__file__).resolve().parents[2]
if str(REPO_ROOT) not in sys.path:  # run as a script from a clone
    sys.path.insert(0, str(REPO_ROOT))

from boardgames_rl import make_game  # noqa: E402
from boardgames_rl.core.files import write_stream  # noqa: E402
from boardgames_rl.games.castle_flutterstone.ai import race_agent  # noqa: E402
from boardgames_rl.games.castle_flutterstone.ai.solver import (  # noqa: E402
    RaceModel,
    two_player_twin,
)
from boardgames_rl.games.castle_flutterstone.game import CastleFlutterstoneGame  # noqa: E402


def default_races() -> dict[str, CastleFlutterstoneGame]:
    """The 2-player races the solver reads on the default track, by configuration key: the
    2-player game's, and each seat pair's twin at 3 and 4 players."""
    races: dict[str, CastleFlutterstoneGame] = {}
    for players in (2, 3, 4):
        game = make_game("castle_flutterstone", num_players=players)
        assert isinstance(game, CastleFlutterstoneGame)
        pairs = (
            [(0, 1)]
            if players == 2
            else [(me, rival) for me in range(players) for rival in range(players) if me != rival]
        )
        for pair in pairs:
            race = game if players == 2 else two_player_twin(game, pair)
            races.setdefault(json.dumps(race.config, sort_keys=True), race)
    return races


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--check", action="store_true", help="only check the shipped tables")
    args = parser.parse_args(argv)
    race_agent.SHIPPED_DIR.mkdir(exist_ok=True)
    missing = 0
    for key, game in default_races().items():
        path = race_agent.shipped_path(key)
        model = RaceModel(game)
        shipped = race_agent._read_cached(path, model, key)
        if args.check:
            state = "ok" if shipped is not None else "MISSING or stale"
            missing += shipped is None
            print(f"{path.name}: {state}")
            continue
        _, tables = race_agent.solved(game, cache=True, progress=True)
        value = tables.value

        def save(f, value: np.ndarray = value, key: str = key) -> None:
            np.savez_compressed(f, value=value, config=np.array(key))

        write_stream(path, save, root=race_agent.SHIPPED_DIR)
        print(f"wrote {path.relative_to(REPO_ROOT)} ({path.stat().st_size / 1e6:.1f} MB)")
    return 1 if missing else 0


if __name__ == "__main__":
    raise SystemExit(main())
