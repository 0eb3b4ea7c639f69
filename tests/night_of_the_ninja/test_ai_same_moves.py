"""The heuristic's split into ``ai/`` (issue 12 point 3: small modules, one value function) must
not change a single move: 50 seeded games of the heuristic against itself at 5 and at 11 players
hash to the values recorded before the split.

The hash covers, per game, the seed, every decision's player, kind and chosen action, and the
returns; the number of random fallbacks must stay 0. Regenerate (only for a deliberate heuristic
change) with ``python tests/night_of_the_ninja/test_ai_same_moves.py``.
"""

from __future__ import annotations

import hashlib
import json
import sys
from pathlib import Path

import numpy as np
import pytest

from boardgames_rl.registry import game_spec, make_game

NAME = "night_of_the_ninja"
FIXTURE = Path(__file__).parent / "data" / "ai_same_moves.json"
GAMES = 50
PLAYERS = (5, 11)


def trajectories_hash(num_players: int, games: int = GAMES) -> dict[str, object]:
    """SHA-256 over ``games`` seeded heuristic-vs-heuristic trajectories, and the fallbacks."""
    game = make_game(NAME, num_players=num_players)
    heuristic = game_spec(NAME).heuristic
    agents = [heuristic() for _ in range(num_players)]
    h = hashlib.sha256()
    for seed in range(games):
        state = game.new_state(seed)
        rngs = [np.random.default_rng([seed, p]) for p in range(num_players)]
        for agent in agents:
            agent.reset()
        while not state.is_terminal():
            p = state.current_player
            a = int(agents[p].act(state.info_set(p), rngs[p]))
            h.update(f"{seed}:{p}:{state.decision['kind']}:{a};".encode())
            state.apply(a)
        h.update(np.asarray(state.returns(), dtype=np.float64).tobytes())
    return {"hash": h.hexdigest(), "fallbacks": sum(a.fallbacks for a in agents)}


@pytest.mark.parametrize("num_players", PLAYERS)
def test_heuristic_moves_unchanged_by_the_split(num_players):
    """Same seed -> the heuristic chooses the same action at every decision of 50 games as before
    it was split into ``ai/``, and never falls back to a random action."""
    want = json.loads(FIXTURE.read_text())[str(num_players)]
    got = trajectories_hash(num_players)
    assert got == want
    assert got["fallbacks"] == 0


if __name__ == "__main__":
    FIXTURE.parent.mkdir(exist_ok=True)
    record = {str(n): trajectories_hash(n) for n in PLAYERS}
    FIXTURE.write_text(json.dumps(record, indent=1) + "\n")
    sys.exit(0)
