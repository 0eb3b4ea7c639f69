"""Issue 13: "``State.from_dict`` validates types, lengths, index ranges and consistency with the
config, raising one clear error class ...; a fuzz test over mutated dicts: every dict is either
rejected at load or plays by the rules (random play to the end without crash, invariants:
current_player valid or terminal, game length bounded)"."""

from __future__ import annotations

import copy
import importlib.util
import json
from pathlib import Path

import numpy as np
import pytest

from boardgames_rl.core.errors import GameError, InvalidStateError
from boardgames_rl.core.game import State
from boardgames_rl.registry import game_spec, load_state, make_game

ROOT = Path(__file__).resolve().parents[1]
_spec = importlib.util.spec_from_file_location(
    "reliability", ROOT / "lab/experiments/reliability.py"
)
reliability = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(reliability)

GAMES = [
    ("castle_flutterstone", {"num_players": 3}),
    ("castle_nightingale", {}),
    ("white_castle", {"num_players": 2}),
    ("night_of_the_ninja", {"num_players": 5}),
]


def _states(name: str, config: dict, n: int, seed: int = 4) -> list[dict]:
    game = make_game(name, **config)
    rng = np.random.default_rng(seed)
    state, out = game.new_state(seed), []
    while not state.is_terminal():
        out.append(state.to_dict())
        state.apply(int(rng.choice(state.legal_actions())))
    out.append(state.to_dict())
    picks = rng.choice(len(out), size=min(n, len(out)), replace=False)
    return [out[i] for i in sorted(picks)]


@pytest.mark.parametrize("name,config", GAMES, ids=[g[0] for g in GAMES])
def test_mutated_dicts_are_refused_or_play_by_the_rules(name: str, config: dict) -> None:
    game = make_game(name, **config)
    tally = reliability.Tally()
    rng = np.random.default_rng(13)
    for d in _states(name, config, 12):
        for _ in range(10):
            reliability.fuzz_dict(d, game, rng, tally)
    assert not tally.violations, tally.first
    assert tally.counts["refused"] > 0 and tally.counts["accepted"] > 0
    assert tally.counts["refused"] + tally.counts["accepted"] == 120


@pytest.mark.parametrize("name,config", GAMES, ids=[g[0] for g in GAMES])
def test_real_states_load_through_json(name: str, config: dict) -> None:
    for d in _states(name, config, 15, seed=8):
        state = load_state(json.loads(json.dumps(d)))
        assert reliability._norm(state.to_dict()) == reliability._norm(d)


def _live(name: str, config: dict) -> dict:
    return next(d for d in _states(name, config, 30) if d["state"].get("decision", True))


def _player_field(d: dict) -> tuple[dict, str]:
    s = d["state"]
    if isinstance(s.get("decision"), dict):
        return s["decision"], "player" if "player" in s["decision"] else "p"
    return s, "turn_player"


@pytest.mark.parametrize("name,config", GAMES, ids=[g[0] for g in GAMES])
def test_the_faults_of_the_issue_are_refused_in_one_error_class(name: str, config: dict) -> None:
    """ "a live state with player -1, a game running past twice its length limit, one a
    MemoryError": each is refused with InvalidStateError, whose message is one line."""
    base = _live(name, config)
    cases = []
    d = copy.deepcopy(base)
    holder, key = _player_field(d)
    holder[key] = -1
    cases.append(d)
    counter = {
        "castle_flutterstone": "turn_count",
        "castle_nightingale": "turn",
        "white_castle": "round",
        "night_of_the_ninja": "round",
    }[name]
    d = copy.deepcopy(base)
    d["state"][counter] = 10**6
    cases.append(d)
    d = copy.deepcopy(base)
    longest = max(
        (k for k, v in d["state"].items() if isinstance(v, list)), key=lambda k: len(d["state"][k])
    )
    d["state"][longest] = d["state"][longest] * 100_000
    cases.append(d)
    d = copy.deepcopy(base)
    d["state"][next(k for k in d["state"] if k != "rng")] = "text"
    cases.append(d)
    cases += [
        None,
        [],
        {"game": None, "config": {}, "state": {}},
        {**base, "game": "chess"},
        {**base, "config": {"num_players": "x"}},
        {**base, "extra": 1},
        {k: v for k, v in base.items() if k != "state"},
    ]
    for case in cases:
        with pytest.raises(InvalidStateError) as info:
            load_state(case)
        assert "\n" not in str(info.value)
        assert isinstance(info.value, GameError)


def _set(field: str, value):
    def edit(s: dict) -> None:
        s[field] = value

    return edit


def _first(field: str, value):
    def edit(s: dict) -> None:
        s[field] = [value, *s[field][1:]]

    return edit


CONSISTENCY_CASES = {
    "castle_flutterstone": [
        ("draw_pile", lambda s: s["draw_pile"].append(7)),
        ("positions", _first("positions", 10**3)),
        ("turn_player", _set("turn_player", 9)),
        ("the cards in the pile", lambda s: s["draw_pile"].append(0)),
    ],
    "night_of_the_ninja": [
        ("aside", lambda s: s["aside"].append(40)),
        ("dealt", lambda s: s["dealt"][0].append(99)),
        ("known", _first("known", [50])),
        ("round_start_tokens", _first("round_start_tokens", [35])),
        ("house", _first("house", 11)),
        ("token_value", _first("token_value", 5)),
        ("stack", lambda s: s["stack"].append(s["stack"][0] if s["stack"] else 0)),
        ("the dealt cards and the cards set aside", lambda s: s["aside"].pop()),
        ("ask_seat", _set("ask_seat", 9)),
    ],
    "castle_nightingale": [
        ("n_stack", lambda s: s["n_stack"].append(9)),
        ("n_deck", lambda s: s["n_deck"].append(s["n_deck"][0] if s["n_deck"] else 0)),
        ("s_card", _set("s_card", 12)),
        ("known_n_hand", _set("known_n_hand", [11])),
        ("winner", _set("winner", 5)),
        ("discs", _set("discs", [96])),
        ("samurai_sq", _set("samurai_sq", 200)),
    ],
    "white_castle": [
        ("turn_order", _set("turn_order", [0, 0])),
        ("players", lambda s: s["players"].pop()),
        ("round", _set("round", 4)),
        ("yards", lambda s: s["yards"][0].append(["Y99", 0])),
        ("yards", lambda s: s["yards"][0].append(["Y1", 2])),
    ],
}
"""Per game: (field the refusal must name, mutation of a live inner state dict)."""


@pytest.mark.parametrize("name,config", GAMES, ids=[g[0] for g in GAMES])
def test_the_games_consistency_checks_refuse_broken_ids_lengths_and_decks(
    name: str, config: dict
) -> None:
    """Issue 13.6, "every dict is either rejected at load or plays by the rules": a card, token,
    seat or square id out of range, a per-player list of the wrong length, or a deck that no
    longer adds up is refused with InvalidStateError naming the field (the game's own
    ``state_checks``, not core)."""
    base = _live(name, config)
    for field, edit in CONSISTENCY_CASES[name]:
        d = copy.deepcopy(base)
        edit(d["state"])
        with pytest.raises(InvalidStateError, match=field):
            load_state(d)


def test_core_holds_no_game_rules() -> None:
    """Per-game consistency rules live in the games (each GameSpec's ``state_checks``), found
    through the one registry (issue 41.4); neither the checker nor the helpers name a game."""
    from boardgames_rl import state_checks
    from boardgames_rl.core import dict_checks

    for module in (state_checks, dict_checks):
        text = Path(module.__file__).read_text()
        for name, _ in GAMES:
            assert name not in text
    for name, _ in GAMES:
        assert game_spec(name).state_checks is not None


def test_no_table_of_games_is_filled_by_defining_or_constructing() -> None:
    """Issue 41.4: one registry finds games by name. Defining a Game subclass or building a
    GameSpec registers nothing: a state dict of that game is refused until it is registered."""
    from boardgames_rl.core import game as contract
    from boardgames_rl.core.spec import GameSpec
    from boardgames_rl.testing.toy_game import ToyGame

    assert not hasattr(contract, "GAME_CLASSES")

    class Unlisted(ToyGame):
        name = "unlisted_toy"

    checks: list[str] = []
    GameSpec(name="unlisted_toy", game=Unlisted, state_checks=lambda g, d: checks.append("x"))
    d = Unlisted().new_state(0).to_dict()
    assert d["game"] == "unlisted_toy"
    with pytest.raises(InvalidStateError, match="unknown game 'unlisted_toy'"):
        load_state(d)
    assert not checks


def test_state_from_dict_is_load_state_with_a_warning() -> None:
    d = make_game("white_castle", num_players=2).new_state(3).to_dict()
    with pytest.warns(DeprecationWarning, match="boardgames_rl.load_state"):
        state = State.from_dict(d)
    assert state.to_dict() == load_state(d).to_dict()
    with pytest.warns(DeprecationWarning), pytest.raises(InvalidStateError):
        State.from_dict({**d, "game": "no_such_game"})


def test_the_old_state_check_path_gives_the_moved_names_with_a_warning() -> None:
    from boardgames_rl import state_checks
    from boardgames_rl.core import dict_checks, state_check

    with pytest.warns(DeprecationWarning, match="core.dict_checks.ints_within"):
        assert state_check.ints_within is dict_checks.ints_within
    with pytest.warns(DeprecationWarning, match="state_checks.checked_state"):
        assert state_check.checked_state is state_checks.checked_state
    with pytest.warns(DeprecationWarning, match="state_checks.time_limit"):
        assert state_check._time_limit is state_checks.time_limit
    with pytest.raises(AttributeError):
        state_check.STATE_CHECKS  # noqa: B018 - the table is gone
