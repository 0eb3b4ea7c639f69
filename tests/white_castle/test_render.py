"""The White Castle's text board and picture (issue 16): readable, within 100 columns, every
code explained, and a seat's view showing exactly what its observation holds."""

from __future__ import annotations

import re

import numpy as np
import pytest

from boardgames_rl.games.white_castle import WhiteCastle, describe
from boardgames_rl.games.white_castle.data import COLOURS, START_RESOURCES
from boardgames_rl.games.white_castle.render import legend
from boardgames_rl.games.white_castle.scenario import Scenario

# internal names that must never reach a person: decision kinds, effect kinds, phase ids
_INTERNAL = re.compile(
    r"lantern_q|courtier_cont|daimyo_q|wellspace|blockc|domrow|pickof|payseal|paycoin"
    r"|_decree|\bopt\b|\bpot\b|\bres\b|\bdraft\b"
)


def _states(n: int, seed: int, every: int = 9):
    """States of one random game (every ``every``-th decision and the terminal one)."""
    s = WhiteCastle(num_players=n).new_state(seed)
    rng = np.random.default_rng(seed)
    k = 0
    while not s.is_terminal():
        if k % every == 0:
            yield s.clone()
        s.apply(int(rng.choice(s.legal_actions())))
        k += 1
    yield s


@pytest.mark.parametrize("n", [2, 3, 4])
def test_text_views_fit_and_explain_every_code(n):
    """Every seat's view and the omniscient one, over whole games: at most 100 columns, no raw
    Python list or dict, no internal names, a legend, the viewer marked, the phase in words."""
    kinds = set()
    for seed in range(2):
        for s in _states(n, seed):
            kinds.add(s.decision["kind"] if s.decision else s.phase)
            for seat in [None, *range(n)]:
                txt = s.render(seat)
                lines = txt.splitlines()
                assert max(len(line) for line in lines) <= 100, max(lines, key=len)
                for bad in ("[[", "{'", "['", "None", "[]"):
                    assert bad not in txt, (bad, [x for x in lines if bad in x])
                assert not _INTERNAL.search(txt), _INTERNAL.search(txt).group()
                assert "LEGEND" in txt
                assert describe.PHASE_WORDS[s.phase] in lines[0]
                if s.decision is not None and not s.is_terminal():
                    flat = " ".join(txt.split())
                    assert describe.DECISION_WORDS[s.decision["kind"]] in flat
                    for o in s.options():  # every option in words on the board
                        assert " ".join(describe.option_text(s, o).split()) in flat
                if seat is None:
                    assert "omniscient view" in lines[0] and "(you)" not in txt
                else:
                    assert f"view of P{seat}" in lines[0] and f"P{seat} (you)" in txt
            if s.is_terminal():
                assert f"GAME OVER -- winner P{s.winner()}" in s.render(None)
    assert {"pair", "die", "place", "over"} <= kinds


def test_card_actions_and_starting_pairs_written_out():
    """'R2 + A3a' and 'S7' are explained: each room's card blocks appear in words next to the
    colour of their die tile, the starting pairs in words."""
    s = WhiteCastle(num_players=2).new_state(0)
    txt = s.render(s.current_player)
    assert s.decision["kind"] == "pair"
    for r, a in s.offer:
        line = next(x for x in txt.splitlines() if x.strip().startswith(f"{r} + {a}"))
        # the Resource card's setup gains, in words
        first = describe.effect(START_RESOURCES[r][1][0])
        assert first in line, line
    assert "action card: all rows:" in txt
    sc = Scenario(3).rooms(["S2", "S4", "S9", "D2", "D7"], None)
    s = sc.bridges([[2, 3], [4], [5, 6]]).turn(0).build()
    txt = s.render(0)
    assert "(dark) pay 1 seal: Courtier action" in txt  # S2 top block
    assert "+1 coin, Well action" in txt  # S4 middle / S9 top block
    assert "+2 Passage of Time" in txt  # D2 lower block
    assert "(dark) Gardener action" in txt  # D7 lower block
    for r in range(5):
        for col in s.room_tiles[r]:
            assert COLOURS[col] in txt


def test_starting_pair_in_words():
    """The issue's example: R2 + A3a reads as resources and a Gardener action."""
    text = describe.starting_pair("R2", "A3a")
    assert text.startswith("+2 any resources, +4 coins, +2 seals")
    assert "Gardener action" in text and "lantern +1 pearl" in text


def test_stacked_dice_and_well_dice_are_named_with_colour_value_and_owner():
    spaces = [[[3, 0, 2], [5, 1, 1]], [], [], [], [], [], [[6, 2, 0]], [[4, 0, 0], [2, 1, 2]]]
    s = Scenario(3).rooms(["S2", "S4", "S9", "D2", "D7"], None)
    s = s.set(spaces=spaces).bridges([[2, 3], [4], [5, 6]]).turn(0).build()
    txt = s.render(None)
    assert "dice: white 3 (P0) under black 5 (P1)" in txt
    assert "dice: coral 6 (P2)" in txt
    assert "coral 4 (P0), white 2 (P1)" in txt  # the Well


def test_seat_view_shows_what_the_observation_holds():
    """Two states of one information set (decks reshuffled) give every seat the same text and
    picture; the omniscient view lists the deck order, so it tells them apart."""
    told_apart = 0
    for n in (2, 3, 4):
        rng = np.random.default_rng(n)
        for s in _states(n, seed=n, every=15):
            p = s.current_player if not s.is_terminal() else 0
            t = s.info_set(p).sample(rng)
            for q in range(n):
                assert t.render(q) == s.render(q)
            if t.steward_deck != s.steward_deck or t.diplomat_deck != s.diplomat_deck:
                assert t.render(None) != s.render(None)
                told_apart += 1
    assert told_apart > 5
    s = next(x for i, x in enumerate(_states(4, 1)) if i == 6)
    t = s.info_set(0).sample(np.random.default_rng(0))
    assert t.steward_deck != s.steward_deck
    assert np.array_equal(s.render_rgb(0), t.render_rgb(0))
    assert not np.array_equal(s.render_rgb(None), t.render_rgb(None))


def test_deck_order_only_in_the_omniscient_view():
    s = WhiteCastle(num_players=3).new_state(4)
    top = s.steward_deck[0]
    omni = s.render(None)
    assert f"deck top first: {top}," in omni
    for q in range(3):
        txt = s.render(q)
        assert f"deck: {len(s.steward_deck)} cards, order hidden" in txt
        assert "top first" not in txt


@pytest.mark.parametrize("n,steps", [(2, 0), (3, 80), (4, 10**6)])
def test_picture_at_early_mid_and_terminal_states(n, steps):
    """The picture (render_mode='rgb_array'): an RGB image of fixed size from every view."""
    s = WhiteCastle(num_players=n).new_state(n)
    rng = np.random.default_rng(n)
    k = 0
    while not s.is_terminal() and k < steps:
        s.apply(int(rng.choice(s.legal_actions())))
        k += 1
    assert s.is_terminal() == (steps > 1000)
    seat = s.render_rgb(n - 1)
    omni = s.render_rgb(None)
    for img in (seat, omni):
        assert img.dtype == np.uint8 and img.shape == (1036, 1920, 3)
        assert img.std() > 20  # a drawn board, not a blank page
    assert not np.array_equal(seat, omni)  # the viewer's panel first, '(you)', deck order


def test_env_rgb_array_is_the_picture():
    from boardgames_rl.envs import white_castle_v0

    env = white_castle_v0.env(num_players=2, render_mode="rgb_array")
    env.reset(seed=3)
    img = env.render()
    assert img.shape == (1036, 1920, 3) and img.dtype == np.uint8


def test_legend_names_every_code_family():
    text = legend(4)
    for code in ("S1-S15", "D1-D12", "DY1-DY9", "R1-R9", "A1-A3", "P3 = player_3", "PoT", "VP"):
        assert code in text
    assert max(len(line) for line in text.splitlines()) <= 100
    assert "P2 = player_2" in legend(3) and "P3" not in legend(3)
