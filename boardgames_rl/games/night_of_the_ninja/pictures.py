"""The docs pictures of Night of the Ninja: a heuristic game's table, seen by a player and by an
observer, as the ``rgb_array`` picture and the text table.

``python -m boardgames_rl.games.night_of_the_ninja.pictures [OUT]`` writes (default ``docs/img``)
``night_of_the_ninja_table.png`` (seat 0's view), ``night_of_the_ninja_table_omniscient.png``
and ``night_of_the_ninja_table.txt`` (seat 0's text table). Needs matplotlib (the ``[viz]``
extra).
"""

from __future__ import annotations

import sys
from functools import partial
from pathlib import Path

import numpy as np

from boardgames_rl.games.night_of_the_ninja.ai import NightOfTheNinjaHeuristic
from boardgames_rl.games.night_of_the_ninja.game import NightOfTheNinja

PLAYERS, SEED, SEAT = 7, 4, 0
"""The pictured game: 7 heuristic players, game seed 4, seen by seat 0."""


def pictured_state(num_players: int = PLAYERS, seed: int = SEED):
    """The state pictured: seeded heuristic self-play up to the first Shinobi decision of the
    second round (a Night with cards played, looks, deaths and tokens from the first round), or
    the end of the game if that never comes."""
    game = NightOfTheNinja(num_players=num_players)
    state = game.new_state(seed)
    agents = [NightOfTheNinjaHeuristic() for _ in range(num_players)]
    rngs = [np.random.default_rng([seed, p]) for p in range(num_players)]
    while not state.is_terminal():
        d = state.decision
        if state.round >= 2 and d["kind"] in ("shinobi_kill", "react") and state.phase == 4:
            break
        p = state.current_player
        state.apply(int(agents[p].act(state.info_set(p), rngs[p])))
    return state


def write_docs_pictures(out: str | Path = "docs/img") -> list[Path]:
    """Write the pictures and the text table into ``out``; returns the paths written."""
    from matplotlib.image import imsave

    from boardgames_rl.core.files import make_dir, write_stream, write_text

    out = make_dir(Path(out))
    state = pictured_state()
    paths = [
        out / "night_of_the_ninja_table.png",
        out / "night_of_the_ninja_table_omniscient.png",
        out / "night_of_the_ninja_table.txt",
    ]
    for path, seat in zip(paths[:2], (SEAT, None), strict=True):
        image = state.render_rgb(seat)
        write_stream(path, partial(imsave, arr=image, format="png"))
    write_text(paths[2], state.render(SEAT) + "\n")
    return paths


if __name__ == "__main__":
    for path in write_docs_pictures(*sys.argv[1:2]):
        print(path)
