"""Issue 12: "explicit dispatch tables with a test that decision kinds, legality, naming and
heuristic tables agree" -- for Castle Flutterstone: every decision kind of ``data.PHASES`` has
words (``naming.DECISION_WORDS``), a heuristic rule (``ai.agent.HANDLERS``), and a block of the
action layout that its legal mask never leaves."""

from __future__ import annotations

import numpy as np

from boardgames_rl.games.castle_flutterstone import data
from boardgames_rl.games.castle_flutterstone.ai.agent import HANDLERS
from boardgames_rl.games.castle_flutterstone.naming import DECISION_WORDS
from boardgames_rl.registry import make_game


def blocks(lay) -> dict[int, range]:
    """The action ids each decision kind may open (``actions.ActionLayout``)."""
    return {
        data.FLICK: range(0, lay.num_flicks),
        data.MOVE: range(lay.move, lay.play),
        data.PLAY_CARDS: range(lay.play, lay.end_play + 1),
        data.DRAW: range(lay.draw, lay.decline + 1),
        data.DISCARD: range(lay.discard, lay.give),
        data.GIVE: range(lay.give, lay.place),
        data.PLACE_GHOST: range(lay.place, lay.num_actions),
    }


def test_every_decision_kind_has_words_a_rule_and_a_block():
    game = make_game("castle_flutterstone", num_players=3, pesky_ghosts=True)
    kinds = set(range(len(data.PHASES)))
    assert set(HANDLERS) == kinds
    assert set(DECISION_WORDS) == set(data.PHASES)
    table = blocks(game.layout)
    assert set(table) == kinds
    covered = sorted(a for r in table.values() for a in r)
    assert covered == list(range(game.num_actions))  # the blocks partition the action space


def test_legal_actions_stay_in_their_decision_block_and_the_heuristic_answers_each(monkeypatch):
    """In random games of every kind of table, each decision's legal actions lie in its block,
    and the heuristic's rule for it picks a legal action. (A fourth helpful card is rare in
    random play: one hand-made position reaches the discard decision, with a moat landing.)"""
    from boardgames_rl.games.castle_flutterstone import state as state_module
    from boardgames_rl.games.castle_flutterstone.ai import CastleFlutterstoneHeuristic
    from boardgames_rl.games.castle_flutterstone.landing import Zone
    from boardgames_rl.games.castle_flutterstone.scenario import build, play

    agent = CastleFlutterstoneHeuristic()
    seen = set()
    game = make_game("castle_flutterstone", aim_levels=3, force_levels=3)
    s = build(game, positions=[2, 0], cards={0: ["Ghost jump"] * 3}, draw_pile=["Second go"])
    monkeypatch.setattr(state_module, "landing_draw", lambda *args, **kw: Zone.MOAT)
    play(s, s.action_name(0), "draw ghost card")  # no figure ahead: no Ghost jump to play
    monkeypatch.undo()
    assert s.phase == data.DISCARD
    assert all(int(a) in blocks(game.layout)[data.DISCARD] for a in s.legal_actions())
    assert s.legal_action_mask()[agent.act(s.info_set(0), np.random.default_rng(0))]
    seen.add(s.phase)
    for config in ({"num_players": 2}, {"num_players": 4, "pesky_ghosts": True}):
        game = make_game("castle_flutterstone", **config, aim_levels=3, force_levels=3)
        table = blocks(game.layout)
        rng = np.random.default_rng(1)
        for seed in range(6):
            s = game.new_state(seed)
            while not s.is_terminal():
                legal = s.legal_actions()
                assert all(int(a) in table[s.phase] for a in legal), s.phase_name
                seen.add(s.phase)
                info = s.info_set(s.current_player)
                assert s.legal_action_mask()[agent.act(info, rng)]
                s.apply(int(legal[rng.integers(len(legal))]))
    assert seen == set(range(len(data.PHASES)))
