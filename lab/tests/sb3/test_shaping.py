"""Potential-based reward shaping: the exact reward it adds, the per-game potentials, the
``--shaping`` flags (saved, kept on resume) and evaluation on the real outcome only."""

from __future__ import annotations

import json
from pathlib import Path

import numpy as np
import pytest

from boardgames_rl.core.errors import InvalidConfigError
from boardgames_rl.envs.single_agent import SingleAgentEnv
from boardgames_rl.games.night_of_the_ninja import honor_shaping
from boardgames_rl.games.night_of_the_ninja.shaping import potential as honor_potential
from boardgames_rl.registry import game_spec, list_games, make_game
from lab.recipes.sb3.args import defaults_for
from lab.recipes.sb3.shaping import (
    PotentialShaping,
    game_potential,
    make_shaping,
    relative,
)
from lab.recipes.sb3.train_ppo import main, parse_args

from .helpers import TINY, tiny_run

GAMES = ("castle_flutterstone", "castle_nightingale", "night_of_the_ninja", "white_castle")


def _random_states(game, seed: int, every: int = 7):
    """States along one random game (every ``every``-th, and the last)."""
    rng = np.random.default_rng(seed)
    state = game.new_state(seed)
    k = 0
    while not state.is_terminal():
        if k % every == 0:
            yield state.clone()
        legal = np.flatnonzero(state.legal_action_mask())
        state.apply(int(rng.choice(legal)))
        k += 1
    yield state


# ---------------------------------------------------------------------------- the wrapper
@pytest.mark.parametrize("seat", [0, 1])
def test_adds_exactly_gamma_phi_new_minus_phi_old_for_the_learner(seat: int) -> None:
    game = make_game("castle_flutterstone", num_players=2)
    potential = game_potential(game)
    gamma, scale = 0.9, 2.0
    env = SingleAgentEnv(game, seat=seat, reward_shaping=PotentialShaping(potential, gamma, scale))
    env.reset(seed=3)
    phi0 = potential(env.game_state)
    first_phi = scale * (phi0[seat] - phi0[1 - seat])
    rng = np.random.default_rng(1)
    discounted, t, done, nonzero = 0.0, 0, False, 0
    while not done:
        before = env.game_state.clone()
        action = int(rng.choice(np.flatnonzero(env.action_masks())))
        _, reward, term, trunc, _ = env.step(action)
        after = env.game_state
        done = term or trunc
        old, new = potential(before), potential(after)
        phi_old = old[seat] - old[1 - seat]  # 2 players: own progress minus the other's
        phi_new = 0.0 if done else new[seat] - new[1 - seat]
        real = float(after.returns()[seat]) if done else 0.0
        assert reward == pytest.approx(scale * (gamma * phi_new - phi_old) + real)
        nonzero += reward != 0
        discounted += gamma**t * reward
        last_real, t = real, t + 1
    assert nonzero > 0
    # the shaping telescopes: discounted shaped return = discounted real return - scale Phi(s0)
    assert discounted == pytest.approx(gamma ** (t - 1) * last_real - first_phi)


def test_relative_progress_and_terminal_potential() -> None:
    np.testing.assert_allclose(relative(np.array([3.0, 1.0])), [2.0, -2.0])
    np.testing.assert_allclose(relative(np.array([3.0, 0.0, 0.0])), [3.0, -1.5, -1.5])
    game = make_game("castle_flutterstone", num_players=2)
    last = list(_random_states(game, 0))[-1]
    assert last.is_terminal()
    np.testing.assert_array_equal(PotentialShaping(game_potential(game), 0.99).phi(last), 0.0)


def test_bad_shaping_settings_are_refused() -> None:
    game = make_game("castle_flutterstone", num_players=2)
    with pytest.raises(InvalidConfigError, match="one of none, potential"):
        make_shaping("dense", game, 0.99, 1.0)
    with pytest.raises(InvalidConfigError, match="scale"):
        make_shaping("potential", game, 0.99, -1.0)
    with pytest.raises(InvalidConfigError, match="gamma"):
        make_shaping("potential", game, 0.0, 1.0)
    assert make_shaping("none", game, 0.99, 1.0) is None
    assert make_shaping("potential", game, 0.99, 0.0) is None


def test_a_game_without_potential_says_what_to_do() -> None:
    from boardgames_rl.testing.toy_game import TOY_NAME, register_toy_game

    register_toy_game()
    with pytest.raises(InvalidConfigError, match="--shaping none"):
        game_potential(make_game(TOY_NAME))


# ---------------------------------------------------------------------------- potentials
@pytest.mark.parametrize("name", GAMES)
def test_potentials_are_finite_per_seat_on_random_states(name: str) -> None:
    assert name in list_games()
    for i, config in enumerate(game_spec(name).test_configs):
        game = make_game(name, **config)
        potential = game_potential(game)
        seen = []
        for state in _random_states(game, seed=10 + i):
            phi = np.asarray(potential(state))
            assert phi.shape == (game.num_players,)
            assert np.all(np.isfinite(phi))
            seen.append(phi)
        assert np.all(np.asarray(seen[0]) == 0.0)  # nothing achieved before the game starts
        assert np.ptp(np.asarray(seen)) > 0  # it moves during a game


def test_nightingale_potential_counts_relics_and_captures() -> None:
    from boardgames_rl.games.castle_nightingale.state import (
        BANKED,
        STOLEN,
        CastleNightingaleState,
    )

    state = make_game("castle_nightingale").new_state(0)
    assert isinstance(state, CastleNightingaleState)
    potential = game_potential(state.game)
    relics = [t for t, r in enumerate(state.vase_content) if r]
    empty = [t for t, r in enumerate(state.vase_content) if not r]
    state.vase_where[relics[0]] = BANKED
    state.vase_where[relics[1]] = STOLEN
    state.vase_where[empty[0]] = BANKED  # an empty vase is worth nothing
    state.captured = 1
    np.testing.assert_allclose(potential(state), [1.5 / 5, 1 / 3])


def test_night_of_the_ninja_potential_is_the_one_behind_honor_shaping() -> None:
    game = make_game("night_of_the_ninja", num_players=5)
    states = list(_random_states(game, seed=4, every=3))
    for before, after in zip(states, states[1:], strict=False):
        np.testing.assert_allclose(
            honor_shaping(before, after), honor_potential(after) - honor_potential(before)
        )


# ---------------------------------------------------------------------------- flags
def test_shaping_flags_defaults_and_errors(capsys: pytest.CaptureFixture) -> None:
    args = parse_args(["--game", "castle_nightingale"])
    assert (args.shaping, args.shaping_scale) == (
        defaults_for("castle_nightingale")["shaping"],
        defaults_for("castle_nightingale")["shaping_scale"],
    )
    args = parse_args(
        ["--game", "white_castle", "--shaping", "potential", "--shaping-scale", "0.25"]
    )
    assert (args.shaping, args.shaping_scale) == ("potential", 0.25)
    for bad, message in (
        (["--shaping", "dense"], "invalid choice"),
        (["--shaping-scale", "-1"], "--shaping-scale must be >= 0"),
    ):
        with pytest.raises(SystemExit):
            parse_args(["--game", "white_castle", *bad])
        assert message in capsys.readouterr().err


def test_shaping_is_saved_kept_on_resume_and_evaluation_ignores_it(tmp_path: Path) -> None:
    out = tmp_path / "run"
    settings = tiny_run(
        out,
        "castle_flutterstone",
        128,
        "--shaping",
        "potential",
        "--shaping-scale",
        "1000",
        "--eval-opponents",
        "random",
    )
    saved = json.loads((out / "config.json").read_text())
    assert (saved["shaping"], saved["shaping_scale"]) == ("potential", 1000.0)
    # evaluation counts real outcomes only: returns in [-1, 1] although shaping is x1000
    (row,) = settings["final_eval"]
    assert -1.0 <= row["mean_return"] <= 1.0
    assert row["wins"] == pytest.approx(row["rate"] * row["games"])
    args = parse_args(["--resume", "--out", str(out)])
    assert (args.shaping, args.shaping_scale) == ("potential", 1000.0)
    resumed = main(["--resume", "--out", str(out), "--timesteps", "128", "--no-progress"])
    assert (resumed["shaping"], resumed["shaping_scale"]) == ("potential", 1000.0)
    assert resumed["num_timesteps"] > settings["num_timesteps"]


def test_training_rewards_carry_the_shaping(tmp_path: Path) -> None:
    """The same tiny run with and without shaping: only the shaped one's episode rewards leave
    the real outcomes' range (SB3's monitor logs what the learner was trained on)."""
    means = {}
    for kind in ("none", "potential"):
        out = tmp_path / kind
        main(
            [
                "--game",
                "castle_flutterstone",
                "--timesteps",
                "256",
                "--out",
                str(out),
                *TINY,
                "--shaping",
                kind,
                "--shaping-scale",
                "1000",
                "--eval-games",
                "0",
            ]
        )
        rows = (out / "progress.csv").read_text().splitlines()
        header = rows[0].split(",")
        col = header.index("rollout/ep_rew_mean")
        means[kind] = [float(r.split(",")[col]) for r in rows[1:] if r.split(",")[col]]
    assert means["none"] and all(-1.0 <= m <= 1.0 for m in means["none"])
    assert means["potential"] and any(abs(m) > 1.0 for m in means["potential"])
