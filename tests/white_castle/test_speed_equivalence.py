"""The speed work on The White Castle engine changed no behaviour (issue 14).

Before the engine, masks and observation were optimised, fixed-seed random games were recorded as
hashes in ``speed_fixture.json`` (``python tests/white_castle/test_speed_equivalence.py`` writes
it). Each hash covers, at every step: the full ``to_dict`` output, every player's observation, the
mask of every player, the contextual name of every legal action, the action played, a clone's and
a ``state_from_dict`` copy's mask and observation, and a sampled information-set state's dict; then
the returns. The optimised engine must reproduce every hash exactly.

Also checked here: an AEC-env episode (``pettingzoo.make``) reproduces its recorded observations,
masks, rewards and action names.
"""

from __future__ import annotations

import hashlib
import json
import sys
from pathlib import Path

import numpy as np
import pytest

from boardgames_rl.games.white_castle import WhiteCastle

FIXTURE = Path(__file__).with_name("speed_fixture.json")
CONFIGS = {
    "2p": {"num_players": 2},
    "3p": {"num_players": 3},
    "4p": {"num_players": 4},
    "2p_well_one_pays_tiles": {"num_players": 2, "well_one_pays_tiles": True},
}
GAMES = {"2p": 50, "3p": 50, "4p": 50, "2p_well_one_pays_tiles": 10}


def _update_array(h, a) -> None:
    h.update(np.ascontiguousarray(a).tobytes())


def game_hash(game: WhiteCastle, seed: int) -> str:
    """SHA-256 of one seeded random game (see the module docstring)."""
    h = hashlib.sha256()
    state = game.new_state(seed)
    rng = np.random.default_rng(seed)
    n = game.num_players
    steps = 0
    while True:
        h.update(json.dumps(state.to_dict(), sort_keys=True).encode())
        if state.is_terminal():
            break
        for p in range(n):
            _update_array(h, state.observation(p).astype(np.float32))
            _update_array(h, state.legal_action_mask_for(p))
        legal = state.legal_actions()
        h.update("|".join(state.action_name(int(a)) for a in legal).encode())
        if steps % 7 == 0:
            c = state.clone()
            _update_array(h, c.legal_action_mask())
            _update_array(h, c.observation(state.current_player))
            r = game.state_from_dict(state.to_dict())
            _update_array(h, r.legal_action_mask())
            _update_array(h, r.observation(0))
            info = state.info_set(state.current_player)
            sample = info.sample(np.random.default_rng(steps))
            h.update(json.dumps(sample.to_dict(), sort_keys=True).encode())
        a = int(legal[rng.integers(len(legal))])
        h.update(str(a).encode())
        state.apply(a)
        steps += 1
        assert steps <= game.max_game_length
    _update_array(h, np.asarray(state.returns(), dtype=np.float64))
    return h.hexdigest()


def aec_hash(num_players: int, seed: int) -> str:
    """SHA-256 of an AEC episode with random legal actions: observations, masks, rewards."""
    import pettingzoo

    import boardgames_rl  # noqa: F401  (registers the envs)

    env = pettingzoo.make("aec", "boardgames_rl/white_castle-v0", num_players=num_players)
    h = hashlib.sha256()
    env.reset(seed=seed)
    rng = np.random.default_rng(seed)
    for agent in env.agent_iter():
        obs, reward, term, trunc, _ = env.last()
        h.update(agent.encode())
        _update_array(h, obs["observation"])
        _update_array(h, obs["action_mask"])
        h.update(repr((float(reward), bool(term), bool(trunc))).encode())
        if term or trunc:
            action = None
        else:
            legal = np.flatnonzero(obs["action_mask"])
            action = int(legal[int(rng.random() * len(legal))])
        env.step(action)
    return h.hexdigest()


def compute() -> dict:
    out: dict = {}
    for name, cfg in CONFIGS.items():
        game = WhiteCastle(**cfg)
        out[name] = [game_hash(game, seed) for seed in range(GAMES[name])]
    out["aec"] = {str(n): [aec_hash(n, seed) for seed in range(10)] for n in (2, 4)}
    return out


@pytest.fixture(scope="module")
def recorded() -> dict:
    return json.loads(FIXTURE.read_text())


@pytest.mark.parametrize("name", list(CONFIGS))
def test_seeded_games_unchanged(recorded, name):
    """Same seed -> identical states, observations, masks, action names, clones and samples."""
    game = WhiteCastle(**CONFIGS[name])
    got = [game_hash(game, seed) for seed in range(GAMES[name])]
    diff = [seed for seed, (a, b) in enumerate(zip(got, recorded[name], strict=True)) if a != b]
    assert not diff, f"{name}: seeds {diff} differ from the recorded trajectories"


@pytest.mark.parametrize("num_players", [2, 4])
def test_aec_episodes_unchanged(recorded, num_players):
    """The env ``pettingzoo.make`` returns gives the recorded observations, masks and rewards."""
    got = [aec_hash(num_players, seed) for seed in range(10)]
    assert got == recorded["aec"][str(num_players)]


if __name__ == "__main__":  # regenerate the fixture (only on a behaviour change on purpose)
    if "--write" not in sys.argv:
        sys.exit("pass --write to overwrite " + str(FIXTURE))
    FIXTURE.write_text(json.dumps(compute(), indent=1) + "\n")


def _states(num_players: int, count: int, seed: int):
    game = WhiteCastle(num_players=num_players)
    rng = np.random.default_rng(seed)
    s = game.new_state(seed)
    out = []
    while len(out) < count:
        if s.is_terminal():
            s = game.new_state(int(rng.integers(1 << 30)))
            continue
        out.append(s)
        legal = s.legal_actions()
        s = s.clone()
        s.apply(int(legal[rng.integers(len(legal))]))
    return out


def test_options_cache_dropped_with_the_mask():
    """Options are listed once per decision and kept beside the mask: editing the state and
    dropping the mask (``_mask = None``, as scenario tests do) lists them again."""
    for s in _states(2, 200, 3):
        assert s.options() is s.options()  # cached
        assert s.options() == s._options()
        if s.decision["kind"] == "place":
            s.players[s.decision["player"]]["coin"] = 0
            s.domain_dice[s.decision["player"]] = [1, 1, 1]
            s._mask = None
            assert s.options() == s._options()
            assert s.legal_action_mask()[: len(s.options())].all()
            assert not s.legal_action_mask()[len(s.options()) : 16].any()


def test_observation_cache_is_never_stale():
    """The cached slowly changing part of the observation is keyed by value: editing those
    fields directly gives the same observation as a fresh clone (which has no cache)."""
    for s in _states(3, 60, 4):
        for p in [0, 1, 2, 0]:
            s.observation(p)  # the first call marks the state for caching, the others fill it
        s.rooms[0] = None if s.rooms[0] else "S1"
        s.players[1]["lantern"].append("D1")
        s.yard_warriors[2].append(0)
        s.turn_order.reverse()
        s._mask = None  # the options may change too (they follow the mask, see above)
        for p in range(3):
            assert np.array_equal(s.observation(p), s.clone().observation(p))


def test_shared_masks_are_read_only():
    """Masks are shared between states with the same pattern, so they must be read-only."""
    masks = [s.legal_action_mask() for s in _states(2, 50, 5)]
    assert all(not m.flags.writeable for m in masks)
    with pytest.raises(ValueError):
        masks[0][0] = not masks[0][0]
