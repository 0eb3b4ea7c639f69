"""Observation, info sets, names and renders of The White Castle."""

from __future__ import annotations

import re

import numpy as np

from boardgames_rl.games.white_castle import WhiteCastle
from boardgames_rl.games.white_castle.data import GARDENS, PLANTS
from boardgames_rl.games.white_castle.naming import MAX_NAME, contextual_name, option_names
from boardgames_rl.games.white_castle.scenario import Scenario


def _midgame(n=3, steps=40, seed=2):
    s = WhiteCastle(num_players=n).new_state(seed)
    rng = np.random.default_rng(seed)
    for _ in range(steps):
        s.apply(int(rng.choice(s.legal_actions())))
    return s


def test_infoset_hides_only_deck_order():
    s = _midgame()
    info = s.info_set(0)
    t = info.sample(np.random.default_rng(1))
    assert sorted(t.steward_deck) == sorted(s.steward_deck)
    assert np.array_equal(t.observation(0), s.observation(0))
    assert np.array_equal(t.observation(1), s.observation(1))


def test_names_and_renders():
    s = _midgame()
    names = option_names(s)
    assert len(names) == len(s.options()) and all(names)
    for a in s.legal_actions():
        assert contextual_name(s, int(a))
    txt = s.render(0)
    assert "P0 (you)" in txt and "coral " in txt and "player_0" in txt
    img = s.render_rgb()
    assert img.ndim == 3 and img.dtype == np.uint8
    assert WhiteCastle(num_players=2).action_name(16) == "exchange seal_to_coin"


def test_turn_order_tie_later_arrival_first():
    sc = Scenario(3).player(0, pot=4, pot_arr=9).player(1, pot=4, pot_arr=3).player(2, pot=1)
    s = sc.build()
    s._end_round()
    assert s.turn_order == [0, 1, 2]


def test_state_action_names_say_what_each_legal_action_does():
    """``state.action_name`` (what the CLI, the AEC env and replays show) is the contextual name:
    distinct for the legal actions of every decision, never the generic ``choose k``."""
    game = WhiteCastle(num_players=2)
    rng = np.random.default_rng(5)
    for seed in range(5):
        s = game.new_state(seed)
        while not s.is_terminal():
            legal = s.legal_actions()
            names = [s.action_name(int(a)) for a in legal]
            assert len(set(names)) == len(names), names
            assert not any(n.startswith("choose ") for n in names), names
            s.apply(int(rng.choice(legal)))
    assert s.action_name(0) == game.action_name(0)  # no decision pending: the generic name


CARD_CODE = re.compile(r"\b(?:[RASDG]\d+[ab]?|DY\d|P\d)\b")  # R2, A3a, S7, D12, DY3, G1, P1


def test_menu_names_are_words_distinct_and_short_in_random_games():
    """Issue 16: the ``play`` menu (``state.action_name``) says what each legal action does in
    words, not codes ("take starting pair R2 + A3a", "block 2 of S7", "gardener to garden P1"):
    in random 2-4 player games every legal action's name is distinct, holds no card or garden
    code and fits a menu line (at most 90 characters)."""
    seen_kinds = set()
    for n in (2, 3, 4):
        game = WhiteCastle(num_players=n)
        for seed in range(8):
            s = game.new_state(seed)
            rng = np.random.default_rng(seed)
            while not s.is_terminal():
                legal = s.legal_actions()
                names = [s.action_name(int(a)) for a in legal]
                seen_kinds.add(s.decision["kind"])
                assert len(set(names)) == len(names), names
                for name in names:
                    assert not CARD_CODE.search(name), name
                    assert 0 < len(name) <= MAX_NAME, name
                s.apply(int(legal[rng.integers(len(legal))]))
    assert {"pair", "die", "place", "order", "gardener", "courtier", "pay"} <= seen_kinds


def test_starting_pair_names_say_what_the_pair_gives():
    """Data sheet: "R7 | +1 food | VP-Decree, 1 any res, 2 coins, 2 seals", "R1 | +1 pearl |
    Coin-Decree, 2 food, 1 iron, 2 coins, 1 seal", "A2 | Warrior action": the draft menu names a
    pair by its setup gains, its lantern icon and its action card."""
    s = WhiteCastle(num_players=2).new_state(0)
    s.offer = [["R7", "A2b"], ["R1", "A1b"]]
    s._mask = None
    assert [s.action_name(int(a)) for a in s.legal_actions()] == [
        "+1 any resource, +2 coins, +2 seals, VP Decree; lantern +1 food; Warrior action card",
        "+2 food, +1 iron, +2 coins, +1 seal, Coin Decree; lantern +1 pearl; Courtier action card",
    ]


def test_block_and_garden_names_say_their_effects():
    """Rulebook: a light action takes "one light block" of a card, a gardener goes to a garden
    card: the menu names the block by its effects and the garden by colour, cost, points and
    reward, where the scenario handles say ``block 2 of S4`` / ``gardener to garden P2``."""
    sc = Scenario(3).rooms(["S2", "S4", "S9", "D2", "D7"], None)
    s = sc.bridges([[2, 3], [4], [5, 6]]).turn(0).build()
    s.decision = {
        "player": 0,
        "kind": "pick",
        "choices": [["blockc", "S4", 1], ["blockc", "S4", 2]],
    }
    s._mask = None
    words = [s.action_name(i) for i in range(len(s.options()))]
    from boardgames_rl.games.white_castle import describe as W

    blocks = W.card_blocks("S4")
    assert words == [f"block {i + 1}: {W.effects(blocks[i][2])}" for i in (1, 2)]
    s.decision = {"player": 0, "kind": "gardener"}
    s.players[0]["food"] = 7
    s._mask = None
    gardener = [s.action_name(i) for i in range(len(s.options()))]
    g = s.gardens[0]
    cost, vp, eff = GARDENS[g]
    kind = "plant" if g in PLANTS else "stone"
    want = f"gardener to coral garden 1 ({kind}, {cost} food, {vp} VP): {W.effect(eff)}"
    assert want in gardener and "skip" in gardener


# ---------------------------------------------------------------- every public fact is observed
def _obs_differ_only_in(a, b, fields: set[str]) -> None:
    """``a`` and ``b`` (two states) give different observations for every seat, and they
    differ exactly in ``fields``."""
    spec = a.game.observation_spec
    for p in range(a.n):
        oa, ob = a.observation(p), b.observation(p)
        assert not np.array_equal(oa, ob), f"seat {p} cannot tell the states apart"
        differ = {
            f.name
            for f in spec.fields
            if not np.array_equal(spec.view(oa, f.name), spec.view(ob, f.name))
        }
        assert differ == fields, differ


def _board(n=3, spaces=None):
    sc = Scenario(n).rooms(["S2", "S4", "S9", "D2", "D7"], None)
    sc.set(spaces=spaces or [[] for _ in range(8)])
    return sc.bridges([[2, 3], [4], [5, 6]]).turn(0)


def test_die_colour_in_a_room_changes_the_observation():
    """A coral 5 and a black 5 in the same room trigger different actions: they are observed
    apart (die value, owner and colour of every slot; colour = the die's bridge)."""
    coral = [[[5, 1, 0]], [], [], [], [], [], [], []]
    black = [[[5, 1, 1]], [], [], [], [], [], [], []]
    _obs_differ_only_in(
        _board(spaces=coral).build(), _board(spaces=black).build(), {"space_colours"}
    )
    # the second slot (stacked die, 3+ players) and Outside the Walls too
    low = [[], [[3, 0, 2], [5, 2, 0]], [], [], [], [], [[6, 1, 1]], []]
    high = [[], [[3, 0, 2], [5, 2, 2]], [], [], [], [], [[6, 1, 0]], []]
    _obs_differ_only_in(_board(spaces=low).build(), _board(spaces=high).build(), {"space_colours"})


def test_well_dice_colour_value_and_owner_are_observed():
    """The Well takes any number of dice; each one's colour, value and owner is public."""
    base = [[4, 0, 0], [2, 1, 2]]
    for other in ([[4, 0, 1], [2, 1, 2]], [[4, 0, 0], [3, 1, 2]], [[4, 2, 0], [2, 1, 2]]):
        a = _board(spaces=[[]] * 7 + [base]).build()
        b = _board(spaces=[[]] * 7 + [other]).build()
        _obs_differ_only_in(a, b, {"well_slots"})


def _pending(kind: str, stack: list, **d):
    s = _board().build()
    s.stack = [{"p": 0, "effs": effs, "mode": mode} for effs, mode in stack]
    s.decision = {"player": 0, "kind": kind, **d}
    s._mask = None
    return s


def test_pending_effect_details_are_observed():
    """Steps left to move at a checkpoint, resource picks left, and the card action that
    follows the Lantern question are public and observed."""
    pl = {"pot": 5, "seal": 3}
    a, b = _pending("checkpoint", [], steps=1), _pending("checkpoint", [], steps=2)
    for s in (a, b):
        s.players[0].update(pl)
    _obs_differ_only_in(a, b, {"decision_info"})
    a = _pending("res", [([["any", 1]], "any")], left=2)
    b = _pending("res", [([["any", 2]], "any")], left=3)
    _obs_differ_only_in(a, b, {"decision_info", "pending"})
    # the Lantern question: the space's actions waiting below it (S2 top vs bottom block)
    a = _pending("lantern_q", [([["block", 0, 0]], "any")])
    b = _pending("lantern_q", [([["block", 0, 2]], "any")])
    _obs_differ_only_in(a, b, {"pending"})
    # a paid part: its price and what it buys (a die-tile action of a given colour)
    a = _pending("pay", [], key="coin", amount=4, then=["tile", 0])
    b = _pending("pay", [], key="coin", amount=4, then=["tile", 2])
    _obs_differ_only_in(a, b, {"decision_info"})
    # effects nested in a pending effect: pay 1 seal -> Courtier vs -> Warrior
    a = _pending("lantern_q", [([["payseal", ["courtier"]]], "any")])
    b = _pending("lantern_q", [([["payseal", ["warrior"]]], "any")])
    _obs_differ_only_in(a, b, {"pending"})


def test_states_of_one_information_set_give_the_same_observation():
    """No leak: states sampled from a player's information set (decks reshuffled, new chance)
    give every seat the same observation, at every player count, over whole games."""
    for n in (2, 3, 4):
        game = WhiteCastle(num_players=n)
        rng = np.random.default_rng(n)
        for seed in range(3):
            s = game.new_state(seed)
            step = 0
            while not s.is_terminal():
                if step % 7 == 0:
                    p = s.current_player
                    t = s.info_set(p).sample(rng)
                    for q in range(n):
                        assert np.array_equal(t.observation(q), s.observation(q))
                s.apply(int(rng.choice(s.legal_actions())))
                step += 1
