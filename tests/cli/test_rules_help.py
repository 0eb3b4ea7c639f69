"""Issue 16.1: "In `play`, `?` shows the rules summary of the current decision and the text of the
cards or tiles involved" -- each game's ``rules_help(state, player)`` hook (``GameSpec``): one
entry per decision kind, text for every decision reached in random games, lines that fit 100
columns, and only what the asking seat can see (the same text on every state its info set
allows)."""

from __future__ import annotations

from importlib import import_module

import numpy as np
import pytest

from boardgames_rl.registry import game_spec, make_game

GAMES = [
    ("castle_flutterstone", {"num_players": 3, "pesky_ghosts": True}),
    ("castle_nightingale", {}),
    ("night_of_the_ninja", {"num_players": 6}),
    ("white_castle", {"num_players": 3}),
]


def kind_of(state) -> str:
    """The decision kind the hook explains (Flutterstone: its phase)."""
    if state.game.name == "castle_flutterstone":
        from boardgames_rl.games.castle_flutterstone.data import PHASES

        return PHASES[state.phase]
    return state.decision["kind"]


def test_one_entry_per_decision_kind():
    """ "one entry per decision kind, with a test that every decision kind has one"."""
    from boardgames_rl.games.castle_flutterstone import data as cf_data

    # (``from package import rules_help`` would give the function the package re-exports)
    cf = import_module("boardgames_rl.games.castle_flutterstone.rules_help")
    from boardgames_rl.games.castle_nightingale import naming as cn
    from boardgames_rl.games.castle_nightingale import state as cn_state
    from boardgames_rl.games.night_of_the_ninja import data as nn_data

    nn = import_module("boardgames_rl.games.night_of_the_ninja.rules_help")
    from boardgames_rl.games.night_of_the_ninja import state as nn_state
    from boardgames_rl.games.white_castle import observation as wc_obs

    wc = import_module("boardgames_rl.games.white_castle.rules_help")

    assert set(cf.RULES) == set(cf.TITLES) == set(cf_data.PHASES)
    assert set(cf.CARD_TEXT) == set(cf_data.Card)
    assert set(cn.DECISION_WORDS) == set(cn_state.DECISIONS)
    assert set(nn.RULES) == set(nn.TITLES) == set(nn_state.DECISIONS)
    assert set(nn.CARD_TEXT) == {c.kind for c in nn_data.NINJA_CARDS}
    assert set(wc.RULES) == set(wc_obs.KINDS)
    for table in (cf.RULES, cf.CARD_TEXT, nn.RULES, nn.CARD_TEXT, wc.RULES):
        assert all(len(text) > 30 for text in table.values())


@pytest.mark.parametrize("name, config", GAMES, ids=[g for g, _ in GAMES])
def test_every_decision_reached_has_help_that_only_uses_the_seats_view(name, config):
    """Every decision kind reached in random games gets its text, for the decider and for the
    others, in lines of at most 100 columns; the text is the same on states sampled from the
    seat's info set (it uses nothing hidden from that seat)."""
    hook = game_spec(name).rules_help
    assert hook is not None
    game = make_game(name, **config)
    rng = np.random.default_rng(0)
    seen: set[str] = set()
    for seed in range(6):
        state = game.new_state(seed)
        steps = 0
        while not state.is_terminal() and steps < 400:
            p = state.current_player
            text = hook(state, p)
            assert text.strip() and max(len(line) for line in text.splitlines()) <= 100
            kind = kind_of(state)
            if kind not in seen or steps % 25 == 0:
                for seat in {p, (p + 1) % game.num_players}:
                    mine = hook(state, seat)
                    for _ in range(2):
                        other = state.info_set(seat).sample(rng)
                        assert hook(other, seat) == mine, (kind, seat)
            seen.add(kind)
            state.apply(int(rng.choice(state.legal_actions())))
            steps += 1
    assert len(seen) >= 5


def test_the_cards_involved_are_named():
    """ "the text of the cards or tiles involved": the draft shows the dealt cards' text (Night of
    the Ninja), the starting pairs in words (The White Castle), the flick explains its aim,
    force and yaw (Castle Flutterstone)."""
    from boardgames_rl.games.night_of_the_ninja.data import CARD_KIND, CARD_NAMES
    from boardgames_rl.games.night_of_the_ninja.rules_help import CARD_TEXT

    state = make_game("night_of_the_ninja", num_players=4).new_state(3)
    p = state.current_player
    text = game_spec("night_of_the_ninja").rules_help(state, p)
    flat = " ".join(text.split())
    for card in state.dealt[p]:
        assert f"dealt to you: {CARD_NAMES[card]}: {CARD_TEXT[CARD_KIND[card]]}" in flat
    others = {c for q in range(4) if q != p for c in state.dealt[q]} - set(state.dealt[p])
    assert not any(f"{CARD_NAMES[c]}:" in flat for c in others)  # nobody else's hand

    from boardgames_rl.games.white_castle import describe

    state = make_game("white_castle").new_state(3)
    flat = " ".join(game_spec("white_castle").rules_help(state, state.current_player).split())
    for res, act in state.offer:
        assert f"pair {res} + {act}: {describe.starting_pair(res, act)}" in flat

    state = make_game("castle_flutterstone").new_state(3)
    text = game_spec("castle_flutterstone").rules_help(state, 0)
    assert "RULES - flick a bat" in text and "'yaw'" in text and "window 2" in text
