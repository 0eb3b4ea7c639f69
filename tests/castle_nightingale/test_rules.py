"""Scenario tests for every rule of Castle Nightingale (rulebook + data sheet readings G1-G21).

Each test sets up a hand-made position with ``scenario.build`` (side A, first-game layout unless
said otherwise), then asserts the legal actions by their contextual names and the outcome. The
rulebook is ``shared/rulebooks/castle_nightingale.txt``; the data sheet (cards, equipment, windows
W1-W9, readings G1-G21) is ``shared/games/castle_nightingale.md``.

Side A map used throughout (colour letter; S passage, V vase icon; ## garden)::

         A  B  C  D  E  F  G  H  I  J  K
     1  B. B. W. WV W. G. GV Y. P. P. P.
     2  B. P. P. W. G. G. Y. Y. R. R. PV
     3  B. BS P. P. G. Y. Y. YS R. R. G.
     4  W. W. W. ## ## ## ## ## RS G. G.
     5  RV W. RS ## ## ## ## ## G. G. G.
     6  R. R. R. ## ## ## ## ## Y. Y. YV
     7  BS B. B. ## ## ## ## ## W. WS Y.
     8  B. B. P. ## ## ## ## ## W. W. Y.
     9  B. P. P. Y. Y. WS B. P. P. P. R.
    10  GV P. G. Y. Y. W. B. B. R. PS R.
    11  G. G. G. Y. WV W. B. B. RV R. R.
"""

from __future__ import annotations

from dataclasses import replace

import numpy as np
import pytest

from boardgames_rl.core.errors import InvalidConfigError
from boardgames_rl.games.castle_nightingale import data as C
from boardgames_rl.games.castle_nightingale.board import FIRST_GAME_LAYOUT, Layout
from boardgames_rl.games.castle_nightingale.data import COLOURS
from boardgames_rl.games.castle_nightingale.paths import PlacementContext, legal_placements
from boardgames_rl.games.castle_nightingale.scenario import (
    FIELDS,
    Ninja,
    Samurai,
    build,
    check_invariants,
    legal_names,
    play,
)
from boardgames_rl.games.castle_nightingale.state import (
    BANKED,
    FACE_UP,
    HAND,
    PROGRAMMED,
    STOLEN,
)
from boardgames_rl.registry import make_game

NINJA, SAMURAI = 0, 1
NAME = "castle_nightingale"
GAME = make_game(NAME)
N_NAMES = [c.name for c in C.NINJA_CARDS]
S_NAMES = [c.name for c in C.SAMURAI_CARDS]
PASSAGES_A = ["B3", "H3", "I4", "C5", "A7", "J7", "F9", "J10"]
VASES_A = ["D1", "G1", "K2", "A5", "K6", "A10", "E11", "I11"]
OPEN_BY_DEFAULT = ["I4", "C5", "A7", "J7", "F9", "J10"]  # build() closes B3 and H3
NO_NINJA, NO_SAMURAI = Ninja(), Samurai()
"""The records' defaults (the seed's deal; the samurai on E2)."""


# ------------------------------------------------------------------------------------ helpers
def _hand(card: str | None, names: list[str]) -> list[str] | None:
    if card is None:
        return None
    return [card, *[n for n in names if n != card][:2]]


def turn(
    ninja_card: str | None = "Supply Cache",
    samurai_card: str | None = "Forced March",
    tiles: str | list[str] | None = "red",
    game=GAME,
    ninja: Ninja = NO_NINJA,
    samurai: Samurai = NO_SAMURAI,
    samurai_stack_dealt: bool = False,
    **kw,
):
    """A position right after the programming. Defaults: no equipment held and empty stacks
    (so no token window opens unless a test asks for it; ``samurai_stack_dealt``: his stack as
    ``build`` deals it), hands holding the programmed cards."""
    ninja = replace(
        ninja,
        card=ninja_card,
        hand=_hand(ninja_card, N_NAMES) if ninja.hand is None else ninja.hand,
        tokens=[] if ninja.tokens is None else ninja.tokens,
        stack=[] if ninja.stack is None else ninja.stack,
    )
    samurai = replace(
        samurai,
        card=samurai_card,
        tiles=tiles,
        hand=_hand(samurai_card, S_NAMES) if samurai.hand is None else samurai.hand,
        tokens=[] if samurai.tokens is None else samurai.tokens,
        stack=[] if samurai.stack is None and not samurai_stack_dealt else samurai.stack,
    )
    return build(game, ninja=ninja, samurai=samurai, **kw)


def names(s) -> set[str]:
    return set(legal_names(s))


def sq(s, label: str) -> int:
    return s.board.square(label)


def labels(s, squares) -> list[str]:
    return [s.board.labels[x] for x in squares]


def labels_of(board, squares) -> set[str]:
    return {board.labels[x] for x in squares}


def discs(s, *squares: str) -> None:
    play(s, *[f"disc -> {x}" for x in squares])


def enter(s, *zone_names: str) -> None:
    play(s, *[f"samurai enters zone {z}" for z in zone_names])


def obs(s, player: int) -> dict[str, np.ndarray]:
    return GAME.observation_spec.unflatten(s.observation(player))


def closed_labels(s) -> set[str]:
    return set(labels(s, s.closed_passages()))


def _movement_ends(s, limit: int = 5000) -> list:
    """Every end of the ninja's movement from ``s``: each legal action of each of its decisions
    tried in turn (depth first, on clones) until the movement is over."""
    ends, todo = [], [s]
    while todo:
        cur = todo.pop()
        if cur.stage not in ("n_start", "n_place") or cur.current_player != NINJA:
            ends.append(cur)
            continue
        for a in cur.legal_actions():
            nxt = cur.clone()
            nxt.apply(int(a))
            todo.append(nxt)
        assert len(ends) + len(todo) < limit
    return ends


def vase_token(s, label: str) -> int:
    t = s.vase_at(sq(s, label))
    assert t >= 0, f"no vase on {label}"
    return t


# ========================================================================================== setup
class TestSetup:
    def test_samurai_closes_two_trap_doors_then_starts_off_passages_and_vases(self):
        # Setup 4: "The samurai places two closed trap door tokens ... secret passage spaces of
        # their choice." 5: "place their figurine ... avoiding secret passage spaces and those
        # containing a vase."
        s = GAME.new_state(3)
        assert s.current_player == SAMURAI and s.decision_kind == "setup_close"
        assert names(s) == {f"close trap door on {p}" for p in PASSAGES_A}
        play(s, "close trap door on B3")
        assert "close trap door on B3" not in names(s)
        play(s, "close trap door on J10")
        assert closed_labels(s) == {"B3", "J10"}
        assert s.decision_kind == "setup_start" and s.current_player == SAMURAI
        starts = names(s)
        assert len(starts) == 96 - 8 - 8
        for label in PASSAGES_A + VASES_A:
            assert f"samurai starts on {label}" not in starts
        play(s, "samurai starts on E2")
        assert labels(s, [s.samurai_sq]) == ["E2"]
        assert s.decision_kind == "prog_s_card" and s.turn == 1
        check_invariants(s)

    def test_hands_of_three_one_secret_token_vases_face_down(self):
        # Setup 3, 5, 6: shuffled decks, 3 cards, 1 equipment token each, 6 tiles in the
        # samurai's hand; 8 vases (6 relics) face down on the vase spaces, unknown to both.
        for seed in range(5):
            s = GAME.new_state(seed)
            play(s, "close trap door on B3", "close trap door on H3", "samurai starts on E2")
            assert len(s.n_hand) == len(s.s_hand) == 3 and len(s.n_deck) == len(s.s_deck) == 7
            assert len(s.n_equip) == len(s.s_equip) == 1
            assert len(s.n_stack) == len(s.s_stack) == 6
            assert s.vase_where == list(s.board.vase_squares)
            assert sum(s.vase_content) == 6
            assert not any(s.ninja_knows) and not any(s.samurai_knows)
            assert s.tile_loc == [HAND] * 6
            assert s.discs == [] and s.ninja_sq == -1 and s.captured == 0
            for player in (NINJA, SAMURAI):
                o = obs(s, player)
                assert o["squares"][:, 10].sum() == o["squares"][:, 11].sum() == 0
                assert o["own_tokens"].sum() == 1 and list(o["tokens_held"]) == [1, 1]
        deals = {tuple(GAME.new_state(seed).vase_content) for seed in range(20)}
        assert len(deals) > 1

    def test_trap_doors_are_closed_before_the_samurai_draws_his_hand(self):
        # Setup 4 then 5: "The samurai places two closed trap door tokens on the game board"
        # comes before "They draw 3 cards to form their starting hand ... They draw 1 equipment
        # token"; step 6, the ninja's draw, comes after his figurine (G8: the trap-door choice is
        # made without knowing his hand).
        views, hands = set(), set()
        for seed in range(12):
            s = GAME.new_state(seed)
            for _ in range(2):
                assert s.decision_kind == "setup_close"
                assert s.s_hand == [] and s.s_equip == [] and s.n_hand == [] and s.n_equip == []
                o = obs(s, SAMURAI)
                assert o["own_hand"].sum() == 0 and o["own_tokens"].sum() == 0
                assert list(o["tokens_held"]) == [0, 0] and list(o["deck_sizes"]) == [10, 10]
                assert not s.info_set(SAMURAI).knowledge["s_hand"]
                # side A first game: nothing public differs between seeds, so neither may his view
                views.add(s.observation(SAMURAI).tobytes())
                play(
                    s,
                    "close trap door on B3"
                    if "close trap door on B3" in names(s)
                    else "close trap door on H3",
                )
            assert s.decision_kind == "setup_start"
            assert len(s.s_hand) == 3 and len(s.s_equip) == 1 and len(s.s_deck) == 7
            assert s.n_hand == [] and s.n_equip == []  # the ninjas prepare after him (step 6)
            assert obs(s, SAMURAI)["own_hand"].sum() == 3
            hands.add(tuple(sorted(s.s_hand)))
            play(s, "samurai starts on E2")
            assert len(s.n_hand) == 3 and len(s.n_equip) == 1 and len(s.n_deck) == 7
        assert len(views) == 2 and len(hands) > 3  # the hands differ, his trap-door view does not

    def test_side_a_first_game_layout_puts_vases_on_the_outer_border(self):
        # Setup 1 and 3: first game = the diagram (I, II, III, IV at N, E, S, W); "When playing
        # with side A, the vases must be placed on the outer border spaces of the castle."
        s = GAME.new_state(0)
        assert Layout.from_list(s.layout) == FIRST_GAME_LAYOUT
        assert labels(s, s.board.passages) == sorted(PASSAGES_A, key=lambda x: sq(s, x))
        assert set(labels(s, s.vase_where)) == set(VASES_A)
        assert all(s.board.on_border[w] for w in s.vase_where)

    def test_later_games_place_boards_randomly_side_b_also_rotated(self):
        # Setup 1: "choose either all side A or all side B ... then place and orient them
        # randomly" (sheet 2.5: side A is never rotated).
        g_a = make_game("castle_nightingale", random_layout=True)
        g_b = make_game("castle_nightingale", side="B")
        a_layouts = {tuple(g_a.new_state(seed).layout[1]) for seed in range(30)}
        assert len(a_layouts) > 5
        assert not any(any(g_a.new_state(seed).layout[2]) for seed in range(30))
        b_layouts = [Layout.from_list(g_b.new_state(seed).layout) for seed in range(30)]
        assert all(lay.side == "B" for lay in b_layouts)
        assert len({lay.boards for lay in b_layouts}) > 5
        assert any(any(lay.rotated) for lay in b_layouts)
        assert any(not all(lay.rotated) for lay in b_layouts)
        s = g_b.new_state(4)
        assert s.vase_where == list(s.board.vase_squares)
        assert names(s) == {f"close trap door on {p}" for p in labels(s, s.board.passages)}


# ==================================================================================== programming
class TestProgramming:
    def test_samurai_card_and_tile_first_last_turns_tile_unavailable_then_ninja_card(self):
        # 1/ Programming: the samurai picks a card, then a tile (never last turn's face-up one);
        # then the ninja picks its card, seeing only that he has programmed (G21).
        s = build(
            GAME,
            face_up="red",
            samurai=Samurai(hand=["Forced March", "Patrol", "Silent Night"], tokens=[]),
            ninja=Ninja(hand=["Sprint", "Vanish", "Meditate"], tokens=[]),
        )
        assert s.current_player == SAMURAI and s.decision_kind == "prog_s_card"
        assert names(s) == {
            "programme card Forced March",
            "programme card Patrol",
            "programme card Silent Night",
        }
        play(s, "programme card Patrol")
        assert names(s) == {f"programme nightingale tile {c}" for c in COLOURS if c != "red"}
        play(s, "programme nightingale tile blue")
        assert s.current_player == NINJA and s.decision_kind == "prog_n_card"
        assert names(s) == {"play card Sprint", "play card Vanish", "play card Meditate"}
        o = obs(s, NINJA)
        assert o["tile_programmed"].sum() == 0 and o["samurai_card"].sum() == 0
        assert o["tile_face_up"][COLOURS.index("red")] == 1
        assert obs(s, SAMURAI)["own_card"][S_NAMES.index("Patrol")] == 1

    def test_first_turn_any_of_the_six_tiles(self):
        # G8: no tile is face-up on turn 1.
        s = GAME.new_state(1)
        play(s, "close trap door on B3", "close trap door on H3", "samurai starts on E2")
        play(s, s.action_name(int(s.legal_actions()[0])))
        assert names(s) == {f"programme nightingale tile {c}" for c in COLOURS}

    def test_twin_nightingales_turn_programmes_two_different_tiles(self):
        # Sheet 3 / S8: the samurai programmes 2 different tiles from his hand.
        s = build(
            GAME, twin=True, face_up="red", samurai=Samurai(tokens=[]), ninja=Ninja(tokens=[])
        )
        play(s, s.action_name(int(s.legal_actions()[0])))
        play(s, "programme nightingale tile blue")
        assert s.decision_kind == "prog_s_tile"
        assert names(s) == {
            f"programme nightingale tile {c}" for c in COLOURS if c not in ("red", "blue")
        }
        play(s, "programme nightingale tile green")
        assert s.decision_kind == "prog_n_card"
        assert s.programmed_tiles() == [COLOURS.index("blue"), COLOURS.index("green")]


# ==================================================================================== ninja phase
class TestNinjaStart:
    def test_first_entry_on_an_open_passage_of_its_choice(self):
        # Phase 1, case 1: no disc, no figurine: "places a ninja figurine on an open secret
        # passage space of their choice."
        s = turn()
        assert s.decision_kind == "start"
        assert names(s) == {f"ninja starts on {p}" for p in OPEN_BY_DEFAULT}
        play(s, "ninja starts on C5")
        assert labels(s, [s.ninja_sq, s.start_sq]) == ["C5", "C5"]
        o = obs(s, SAMURAI)  # the silhouette is public
        assert o["squares"][sq(s, "C5"), 16] == 1

    def test_choose_one_footprint_disc_the_others_are_removed(self):
        # Phase 1, case 2: "the ninja chooses one disk to replace with a ninja figurine ... They
        # then remove all remaining footprint discs from the board."
        s = turn(discs=["J5", "K8", "I7"])
        assert names(s) == {"ninja starts on J5", "ninja starts on K8", "ninja starts on I7"}
        play(s, "ninja starts on K8")
        assert s.discs == [] and labels(s, [s.ninja_sq]) == ["K8"]
        assert s.decision_kind == "place"

    def test_a_spotted_figurine_continues_from_its_square(self):
        # Phase 1, case 3: "The ninja will begin their movement from that space."
        s = turn(ninja=Ninja(square="J5"))
        assert s.decision_kind == "place" and labels(s, [s.start_sq]) == ["J5"]


class TestNinjaMovement:
    def test_exact_count_orthogonal_one_disc_per_square_no_retracing(self):
        # Phase 2: place exactly the card's number of discs, square by square, orthogonally,
        # one per square, never retracing; then the hidden ninja's figurine leaves the board.
        s = turn("Supply Cache", ninja=Ninja(square="J5"))  # Supply Cache: 2 discs
        assert names(s) == {"disc -> J4", "disc -> I5", "disc -> K5", "disc -> J6"}
        discs(s, "K5")
        assert names(s) == {"disc -> K4", "disc -> K6"}  # not J5 (start), no diagonal
        discs(s, "K4")
        assert labels(s, s.discs) == ["K5", "K4"] and s.ninja_sq == -1
        assert s.current_player == SAMURAI and s.decision_kind == "entry"

    def test_never_through_the_samurai_square_but_a_paid_jump_over_him(self):
        # "The ninja cannot cross the square occupied by the samurai but can jump over it";
        # "discard one of their equipment tokens ... without revealing it, to perform a jump."
        s = turn(
            ninja=Ninja(square="I5", tokens=["Blowgun", "Kawarimi"]), samurai=Samurai(square="J5")
        )
        assert names(s) == {"disc -> I4", "disc -> I6", "jump"}
        play(s, "jump")
        assert names(s) == {"discard Blowgun to jump", "discard Kawarimi to jump"}
        play(s, "discard Blowgun to jump")
        assert names(s) == {"jump -> K5", "jump -> I3", "jump -> I7"}
        play(s, "jump -> K5")
        assert s.n_equip == [C.KAWARIMI] and s.n_spent == [C.BLOWGUN]
        assert C.BLOWGUN not in s.n_used
        assert "jump" not in names(s)  # one jump per game turn
        assert names(s) == {"disc -> K4", "disc -> K6"}
        o = obs(s, SAMURAI)  # the discarded token stays hidden; only the count is known
        assert o["ninja_used"][C.BLOWGUN] == 0 and o["tokens_held"][0] == 1

    def test_closed_passage_can_be_entered_but_not_used(self):
        s = turn(ninja=Ninja(square="H2"), ninja_card="Vanish")  # H3 closed by default
        play(s, "ninja starts on H2")
        assert "disc -> H3" in names(s)
        discs(s, "H3")
        assert names(s) == {"disc -> G3", "disc -> I3"}

    def test_open_passages_teleport_and_chain(self):
        # "if they place a footprint disc on an open secret passage square, they can place their
        # next footprint disc on any other open secret passage square" (G15: chaining allowed).
        s = turn("Pick the Lock", ninja=Ninja(square="C4"), closed=(), tiles="green")
        discs(s, "C5")
        others = {f"disc -> {p}" for p in PASSAGES_A if p != "C5"}
        assert names(s) == others | {"disc -> B5", "disc -> C6"}
        discs(s, "J7")
        assert names(s) == {f"disc -> {p}" for p in PASSAGES_A if p not in ("C5", "J7")} | {
            "disc -> I7",
            "disc -> K7",
            "disc -> J6",
            "disc -> J8",
        }
        discs(s, "F9")
        assert "disc -> F10" in names(s) and "disc -> B3" in names(s)

    def test_a_figurine_on_an_open_passage_may_travel_first(self):
        s = turn()
        play(s, "ninja starts on C5")
        assert names(s) == {f"disc -> {p}" for p in OPEN_BY_DEFAULT if p != "C5"} | {
            "disc -> C4",
            "disc -> B5",
            "disc -> C6",
        }

    def test_the_garden_is_impassable_even_by_a_jump(self):
        s = turn("Rooftop Leap", ninja=Ninja(square="C6"))
        jumps = {"disc -> C4", "disc -> A6", "disc -> C8"}  # none across the garden (D6-E6)
        assert names(s) == {"disc -> C5", "disc -> B6", "disc -> C7"} | jumps

    def test_n2_rooftop_leap_jump_is_free_but_still_one_per_turn(self):
        s = turn(
            "Rooftop Leap",
            ninja=Ninja(square="I5", tokens=["Kawarimi"]),
            samurai=Samurai(square="J5"),
        )
        assert "disc -> K5" in names(s) and "jump" not in names(s)
        discs(s, "K5")
        assert s.n_equip == [C.KAWARIMI] and s.n_spent == []
        assert names(s) == {"disc -> K4", "disc -> K6"}  # K5 -> K3 would be a second jump

    def test_stranding_rule_g7_no_dead_end_while_a_full_path_exists(self):
        # G7: free placements must keep the longest achievable path; A1 is a dead end here
        # (A2 is the samurai's), unless a free jump over him is still available.
        s = turn("Pick the Lock", ninja=Ninja(square="B2"), samurai=Samurai(square="A2"), closed=())
        discs(s, "B1")
        assert names(s) == {"disc -> C1"}
        s = turn("Rooftop Leap", ninja=Ninja(square="B2"), samurai=Samurai(square="A2"))
        discs(s, "B1")
        assert "disc -> A1" in names(s)  # then the free jump over the samurai to A3

    def test_g7_a_paid_jump_later_in_the_movement_counts_in_the_look_ahead(self):
        # "The ninja must place all their footprint discs"; "The ninja can perform only one jump
        # per game turn" - at any point of the movement (G7). Data sheet example: start B2,
        # samurai on A2, discs B1 and A1, then a paid jump over A2 to A3. Having stepped to A1,
        # only that jump places the rest: it is the move (no "stop").
        s = turn(
            "Pick the Lock",
            ninja=Ninja(square="B2", tokens=["Blowgun"]),
            samurai=Samurai(square="A2"),
            closed=(),
        )
        discs(s, "B1")
        assert names(s) == {"disc -> A1", "disc -> C1", "jump"}  # jump: B1 over C1 to D1
        discs(s, "A1")
        assert names(s) == {"jump"}
        play(s, "jump", "discard Blowgun to jump")
        assert names(s) == {"jump -> A3", "jump -> C1"}  # over A2 (samurai) or B1 (own disc)
        play(s, "jump -> A3")
        assert names(s) == {"disc -> A4", "disc -> B3"}
        discs(s, "A4")
        assert labels(s, s.discs) == ["B1", "A1", "A3", "A4"] and s.n_spent == [C.BLOWGUN]

    def test_issue_40_every_disc_is_placed_the_committed_jump_is_the_move(self):
        # Issue 40.1: start B2, samurai on A2, a three-disc movement, one token held. "The ninja
        # must place all their footprint discs": every legal step keeps a completion placing all
        # three (B1-C1-D1 needs no token); A1 is legal only because a paid jump from it completes
        # the path, so after A1 that jump is the only move: never "stop" with 2 of 3 placed.
        s = turn(
            "Vanish", ninja=Ninja(square="B2", tokens=["Blowgun"]), samurai=Samurai(square="A2")
        )
        play(s, "ninja starts on B2")
        assert "stop: the unplaced discs go back" not in names(s)
        discs(s, "B1")
        assert names(s) == {"disc -> A1", "disc -> C1", "jump"}
        discs(s, "A1")
        assert names(s) == {"jump"}
        play(s, "jump", "discard Blowgun to jump", "jump -> A3")
        assert labels(s, s.turn_discs) == ["B1", "A1", "A3"] and s.ninja_sq == -1
        # the same turn without a token: A1 is refused (no completion from it), C1 is the way
        s = turn("Vanish", ninja=Ninja(square="B2"), samurai=Samurai(square="A2"))
        play(s, "ninja starts on B2")
        discs(s, "B1")
        assert names(s) == {"disc -> C1"}
        # every legal sequence of the ninja's movement from that position places all three
        s = turn(
            "Vanish", ninja=Ninja(square="B2", tokens=["Blowgun"]), samurai=Samurai(square="A2")
        )
        play(s, "ninja starts on B2")
        ends = _movement_ends(s)
        assert len(ends) > 20 and {len(e.turn_discs) for e in ends} == {3}
        assert any(e.n_spent == [C.BLOWGUN] for e in ends)  # some spend it, some do not
        assert any(e.n_equip == [C.BLOWGUN] for e in ends)

    def test_variant_never_force_token_refuses_a_step_only_a_paid_jump_completes(self):
        # never_force_token: "the ninja can discard one of their equipment tokens ... to perform
        # a jump" read as never compulsory: a step only a later paid jump completes is refused
        # (A1 here), a paid jump now stays legal when it places at least as many discs.
        game = make_game("castle_nightingale", never_force_token=True)
        s = turn(
            "Vanish",
            ninja=Ninja(square="B2", tokens=["Blowgun"]),
            samurai=Samurai(square="A2"),
            game=game,
        )
        play(s, "ninja starts on B2")
        discs(s, "B1")
        assert names(s) == {"disc -> C1", "jump"}  # the jump: over C1 to D1, now
        s = turn(
            "Vanish",
            ninja=Ninja(square="B2", tokens=["Blowgun"]),
            samurai=Samurai(square="A2"),
            game=game,
        )
        play(s, "ninja starts on B2")
        assert {len(e.turn_discs) for e in _movement_ends(s)} == {3}

    def test_g7_stop_only_where_no_disc_can_be_placed(self):
        # "stop: the unplaced discs go back" exists only where the rulebook's "must" cannot be
        # met: by default where no disc can be placed at all (with a token held, the paid jump
        # is the move); under never_force_token also where only spending a token could go on.
        b = GAME.new_state(0).board
        A1, B1, A2, B2 = (b.square(x) for x in ("A1", "B1", "A2", "B2"))
        pocket = (B2, B1, A1)  # A1 after B1 (from B2), the samurai on A2
        bare = PlacementContext(A1, pocket, A2, (), False, False, False)
        token = bare._replace(paid_jump=True)
        for never_force in (False, True):
            dead = legal_placements(b, bare, 2, never_force)
            assert dead.may_stop and not dead.any and dead.best == 0
        assert legal_placements(b, token, 2).jump and not legal_placements(b, token, 2).may_stop
        variant = legal_placements(b, token, 2, True)
        assert variant.jump and variant.may_stop and variant.best == 0
        # in play: stranded with no token, the movement just ends, hidden on the discs placed
        s = turn("Pick the Lock", ninja=Ninja(square="B2"), samurai=Samurai(square="A2"), closed=())
        s.flags["discs_left"] = 2
        s.turn_discs, s.discs = [sq(s, "B1"), sq(s, "A1")], [sq(s, "B1"), sq(s, "A1")]
        s.stage, s.decision = "n_place", None
        s._run()
        assert s.ninja_sq == -1 and labels(s, s.discs) == ["B1", "A1"]
        assert s.current_player == SAMURAI

    def test_g7_only_the_shuko_goes_on_then_it_is_the_move(self):
        # A held Shuko counts like the paid jump: with the turn's (free) jump made, B1 -> A1 is
        # a pocket (samurai on A2) that only the Shuko's diagonal to B2 leaves; A1 is legal
        # because of it, and then using the Shuko is the only move.
        s = turn(
            "Rooftop Leap", ninja=Ninja(square="E1", tokens=["Shuko"]), samurai=Samurai(square="A2")
        )
        discs(s, "C1", "B1")  # the free jump over D1, then a step
        assert names(s) == {"disc -> A1", "disc -> B2", "use Shuko"}
        discs(s, "A1")
        assert names(s) == {"use Shuko"}
        play(s, "use Shuko")
        assert names(s) == {"disc -> B2"}
        discs(s, "B2")
        assert labels(s, s.turn_discs) == ["C1", "B1", "A1", "B2"]
        game = make_game("castle_nightingale", never_force_token=True)
        s = turn(
            "Rooftop Leap",
            ninja=Ninja(square="E1", tokens=["Shuko"]),
            samurai=Samurai(square="A2"),
            game=game,
        )
        discs(s, "C1", "B1")
        assert names(s) == {"disc -> B2", "use Shuko"}  # A1 refused; the Shuko stays optional

    def test_g7_a_held_shuko_counts_in_the_look_ahead(self):
        # G7: the look-ahead counts "likewise a still-usable Shuko": from B1 (start C1, samurai
        # A2, the turn's jump already made) A1 is a dead end unless a Shuko diagonal to B2 follows.
        b = GAME.new_state(0).board
        B1, C1, A2 = (b.square(x) for x in ("B1", "C1", "A2"))
        no_shuko = PlacementContext(B1, (C1, B1), A2, (), False, False, False)
        shuko = PlacementContext(B1, (C1, B1), A2, (), False, False, False, shuko_held=True)
        assert labels_of(b, legal_placements(b, no_shuko, 3).free) == {"B2"}
        assert labels_of(b, legal_placements(b, shuko, 3).free) == {"A1", "B2"}

    def test_stranding_rule_g7_movement_ends_early_when_no_candidate(self):
        # G7: "If no candidate exists, the movement ends early"; the lengths are capped.
        b = GAME.new_state(0).board
        A1, B1, A2, B2 = (b.square(x) for x in ("A1", "B1", "A2", "B2"))
        ctx = PlacementContext(A1, (B2, B1, A1), A2, (), False, False, False)
        assert not legal_placements(b, ctx, 3).any
        ctx = PlacementContext(A1, (B2, B1, A1), A2, (), False, True, False)
        assert labels_of(b, legal_placements(b, ctx, 3).paid_jumps) == {"A3", "C1"}


class TestNightingale:
    def test_the_floor_sings_figurine_replaces_the_disc_all_discs_go_tile_turned_up(self):
        s = turn("Vanish", ninja=Ninja(square="J5"), tiles="white")
        play(s, "ninja starts on J5")
        discs(s, "J6")  # yellow: safe
        assert obs(s, NINJA)["tile_not_programmed"][COLOURS.index("yellow")] == 1
        discs(s, "J7")  # white: the floor sings
        white = COLOURS.index("white")
        assert labels(s, [s.ninja_sq]) == ["J7"] and s.discs == []
        assert s.tile_revealed[white] and s.tile_loc[white] == PROGRAMMED
        assert s.flags["revealed"] and s.flags["discs_left"] == 0
        assert s.current_player == SAMURAI  # the ninja's turn ended with a disc unused
        for player in (NINJA, SAMURAI):
            o = obs(s, player)
            assert o["squares"][sq(s, "J7"), 16] == 1 and o["tile_revealed"][white] == 1
        assert obs(s, NINJA)["tile_programmed"][white] == 1
        # not captured: the spotted figurine stays for the next turn (Phase 1, case 3)
        enter(s, "I-A white", "I-A green", "I-A white", "I-A green")
        play(s, "samurai square E2", "programme card Patrol", "programme nightingale tile blue")
        play(s, "play card Rooftop Leap")
        assert s.decision_kind == "place" and labels(s, [s.start_sq]) == ["J7"]

    def test_stealing_a_vase_the_moment_a_disc_lands_on_it(self):
        s = turn("Vanish", ninja=Ninja(square="J5"), vases={"K6": True, "D1": False})
        play(s, "ninja starts on J5")
        t = vase_token(s, "K6")
        discs(s, "K5", "K6")
        assert s.vase_where[t] == STOLEN and s.ninja_knows[t] and not s.samurai_knows[t]
        assert s.decision_kind == "place"  # the movement continues
        discs(s, "K7")
        o_n, o_s = obs(s, NINJA), obs(s, SAMURAI)
        assert o_n["vases"][0] == o_s["vases"][0] == 1  # this turn's vases, kept apart
        assert o_n["vases"][3] == 1 and o_s["vases"][3] == 0  # contents: the ninja's secret

    def test_g14_a_vase_on_a_singing_square_is_taken_then_the_ninja_is_detected(self):
        s = turn("Vanish", ninja=Ninja(square="J5"), tiles="yellow", vases={"K6": True})
        play(s, "ninja starts on J5")
        t = vase_token(s, "K6")
        discs(s, "K5", "K6")
        assert s.vase_where[t] == STOLEN and labels(s, [s.ninja_sq]) == ["K6"]


# ================================================================================== samurai phase
class TestSamuraiMovement:
    def test_tile_and_card_are_revealed_when_his_phase_starts(self):
        s = turn(ninja=Ninja(square="J5"), tiles="blue")
        o = obs(s, NINJA)
        assert o["samurai_card"].sum() == 0 and o["tile_revealed"].sum() == 0
        discs(s, "K5", "K4")
        blue = COLOURS.index("blue")
        for player in (NINJA, SAMURAI):
            o = obs(s, player)
            assert o["samurai_card"][S_NAMES.index("Forced March")] == 1
            assert o["tile_revealed"][blue] == 1 and o["tile_programmed"][blue] == 1

    def test_s1_forced_march_zone_to_zone_exactly_four_entries_returns_allowed(self):
        # 1 - Movement: "the number of colored zones the samurai must travel through ... The
        # samurai can turn around and return to a colored zone"; then any square of that zone.
        s = turn(
            ninja=Ninja(square="J5")
        )  # Forced March: 4 entries; the samurai starts on E2 (I-A green)
        discs(s, "K5", "K4")
        assert names(s) == {
            "samurai enters zone I-A white",
            "samurai enters zone I-A yellow",
            "samurai enters zone I-A purple",
        }
        enter(s, "I-A yellow")
        assert names(s) == {
            "samurai enters zone I-A green",
            "samurai enters zone I-A passage-2",
            "samurai enters zone II-A purple",
            "samurai enters zone II-A red",
        }
        enter(s, "I-A green", "I-A yellow", "I-A green")
        assert s.decision_kind == "final_square"
        assert names(s) == {f"samurai square {x}" for x in ("F1", "G1", "E2", "F2", "E3")}
        play(s, "samurai square F2")
        assert labels(s, [s.samurai_sq]) == ["F2"]
        assert s.turn == 2 and s.decision_kind == "prog_s_card"

    def test_a_passage_is_its_own_zone_and_closes_when_he_enters_it(self):
        # "A secret passage space counts as a separate colored zone."; "As soon as the samurai
        # enters a space with an open secret passage, they must immediately close it".
        s = turn(
            ninja=Ninja(square="J5"), samurai=Samurai(square="C6")
        )  # IV-A red, next to passages C5 and A7
        discs(s, "K5", "K4")
        assert names(s) == {
            "samurai enters zone IV-A blue",
            "samurai enters zone IV-A passage-1",
            "samurai enters zone IV-A white",
            "samurai enters zone IV-A passage-2",
        }
        enter(s, "IV-A passage-2")
        assert closed_labels(s) == {"B3", "H3", "C5"}
        assert names(s) == {"samurai enters zone IV-A red", "samurai enters zone IV-A white"}
        enter(s, "IV-A white", "I-A passage-1")  # a closed passage can be entered too
        assert closed_labels(s) == {"B3", "H3", "C5"}
        enter(s, "IV-A white")
        play(s, "samurai square B4")
        assert s.turn == 2

    def test_variant_merge_zones_across_seams_one_zone_over_two_boards(self):
        # Data sheet 2.4: "Zones never merge across a board seam ... (Variant flag:
        # merge_zones_across_seams, default off)". With the variant, same-colour squares touching
        # across a seam are one zone: "When entering a colored zone, the samurai must place their
        # figurine on any square of their choice within that zone" - on either board, chosen at
        # the entry, since the board he stands on matters (confiscation, reopening).
        plain = make_game("castle_nightingale", side="B")
        merged = make_game("castle_nightingale", side="B", merge_zones_across_seams=True)
        kw = dict(
            seed=1, samurai=Samurai(square="A1"), ninja=Ninja(square="K5"), closed=("B2", "I2")
        )
        s0, s = turn(game=plain, **kw), turn(game=merged, **kw)
        assert s.layout == s0.layout  # seed 1: board I at N, board IV at W (rotated)
        b0, b = s0.board, s.board
        assert b0.zone_of[sq(s0, "A3")] != b0.zone_of[sq(s0, "A4")]
        assert b.zone_of[sq(s, "A3")] == b.zone_of[sq(s, "A4")]
        assert b.num_zones == b0.num_zones - 1
        assert "I-B white-2+IV-B white" in b.zone_names
        assert b.zone_positions[b.zone_of[sq(s, "A3")]] == (0, 3)
        assert all(  # adjacency stays symmetric
            z in b.zone_neighbours[n] for z in range(b.num_zones) for n in b.zone_neighbours[z]
        )
        discs(s, "K4", "K3")
        enter(s, "I-B white-2+IV-B white")  # one entry covers both boards' squares
        assert s.decision_kind == "final_square" and s.flags["entries"] == 1
        squares = {"A3", "B3", "C3", "A4", "B4", "C4", "A5", "B5"}
        assert names(s) == {f"samurai square {x}" for x in squares}
        play(s, "samurai square B5")
        assert s.samurai_position() == 3 and s.decision_kind == "entry"
        assert "samurai enters zone IV-B yellow" in names(s)
        with_plain = turn(game=plain, **kw)
        discs(with_plain, "K4", "K3")
        assert "samurai enters zone IV-B white" not in names(with_plain)  # two entries away

    def test_adjust_by_one_zone_discarding_a_token_once_per_turn(self):
        s = turn(ninja=Ninja(square="J5"), samurai=Samurai(tokens=["Hound", "Iron Bar"]))
        play(s, "pass")  # W2: no Alarm Bell
        discs(s, "K5", "K4")
        play(s, "pass", "pass")  # W5, W6: neither token works there
        assert {"adjust +1", "adjust -1"} <= names(s)
        play(s, "adjust -1")
        assert names(s) == {"discard Hound to adjust", "discard Iron Bar to adjust"}
        play(s, "discard Hound to adjust")
        assert s.flags["target"] == 3 and s.s_spent == [C.HOUND]
        assert not {"adjust +1", "adjust -1"} & names(s)
        enter(s, "I-A yellow", "I-A green", "I-A white")
        assert names(s) == {"end the movement"}
        o = obs(s, NINJA)
        assert o["samurai_used"][C.HOUND] == 0 and o["tokens_held"][1] == 1
        play(s, "end the movement", "samurai square C1")
        assert s.decision_kind == "w9"

    def test_adjust_never_below_one_zone(self):
        s = turn(
            ninja=Ninja(square="J5"),
            samurai_card="Twin Nightingales",
            samurai=Samurai(tokens=["Hound"]),
        )
        play(s, "pass")
        discs(s, "K5", "K4")
        play(s, "pass", "pass")
        assert "adjust +1" in names(s) and "adjust -1" not in names(s)


class TestCapture:
    def test_capture_on_entering_the_zone_of_the_revealed_figurine(self):
        s = turn("Meditate", ninja=Ninja(square="J4"), samurai=Samurai(square="K7"), tiles="green")
        discs(s, "K4")  # green: detected, the figurine stays on K4 (II-A green)
        assert labels(s, [s.ninja_sq]) == ["K4"]
        enter(s, "II-A green")
        assert s.captured == 1 and s.ninja_sq == -1 and s.discs == []
        assert s.decision_kind == "entry"  # the movement goes on (G5.5)
        enter(s, "II-A yellow", "II-A green", "II-A yellow")
        play(s, "samurai square K8")
        assert s.turn == 2
        play(s, "programme card Patrol", "programme nightingale tile blue", "play card Sprint")
        play(s, "keep the tiles", "keep the tiles")
        # the next ninja enters on an open passage (Phase 1, case 1)
        assert names(s) == {f"ninja starts on {p}" for p in OPEN_BY_DEFAULT}

    def test_his_starting_zone_does_not_count_until_he_comes_back(self):
        # G12: the zone the samurai starts in does not count unless he leaves and returns.
        s = turn("Meditate", ninja=Ninja(square="J4"), samurai=Samurai(square="J5"), tiles="green")
        discs(s, "K4")
        enter(s, "II-A yellow")
        assert s.captured == 0
        enter(s, "II-A green")
        assert s.captured == 1

    def test_no_capture_by_footprint_discs_only(self):
        # "If only footprint discs are visible, the ninja cannot be captured in this way."
        s = turn(ninja=Ninja(square="J5"), samurai=Samurai(square="K7"))
        discs(s, "K5", "K4")
        enter(s, "II-A green", "II-A yellow", "II-A green", "II-A yellow")
        assert s.captured == 0 and labels(s, s.discs) == ["K5", "K4"]

    def test_lockdown_captures_a_hidden_ninja_confiscates_this_turns_vases_and_reopens(self):
        # "If the samurai closes all the secret passages, the ninja is captured, whether they are
        # spotted or still hidden"; this turn's vases are confiscated onto free floor squares of
        # his board; G6 reopening: one from each of the three other boards, then one more.
        others = ("B3", "H3", "I4", "A7", "J7", "F9", "J10")
        s = turn(
            ninja=Ninja(square="J5"),
            samurai=Samurai(square="C6"),
            closed=others,
            vases={"K6": True, "A5": False},
            banked=(True,),
        )
        t = vase_token(s, "K6")
        discs(s, "K5", "K6")  # takes the vase on K6
        enter(s, "IV-A passage-2")  # closes C5, the last open passage
        assert s.captured == 1 and s.discs == [] and s.ninja_sq == -1
        assert s.decision_kind == "confiscate" and s.current_player == SAMURAI
        board_iv = set(labels(s, s.board.squares_at[3])) - {"A7", "C5", "A5", "A10"}
        assert len(board_iv) == 20  # its free floor squares (A5, A10 hold vases)
        assert names(s) == {f"confiscated vase -> {x}" for x in board_iv}
        play(s, "confiscated vase -> B5")
        assert labels(s, [s.vase_where[t]]) == ["B5"]
        assert s.ninja_knows[t] and not s.samurai_knows[t]  # placed face down, without looking
        assert obs(s, NINJA)["squares"][sq(s, "B5"), 10] == 1
        assert obs(s, SAMURAI)["squares"][sq(s, "B5"), 10] == 0
        assert s.vase_where.count(BANKED) == 1  # earlier vases are never lost
        assert s.decision_kind == "reopen"
        assert names(s) == {f"reopen passage {p}" for p in others if p != "A7"}
        play(s, "reopen passage B3")
        assert names(s) == {f"reopen passage {p}" for p in ("I4", "J7", "F9", "J10")}
        play(s, "reopen passage J7")
        assert names(s) == {"reopen passage F9", "reopen passage J10"}
        play(s, "reopen passage F9")
        assert s.decision_kind == "reopen_extra"
        assert names(s) == {f"reopen passage {p}" for p in ("H3", "I4", "J10")}
        play(s, "reopen passage J10")
        assert closed_labels(s) == {"H3", "I4", "A7", "C5"}  # none reopened on his board
        assert s.decision_kind == "entry" and s.flags["entries"] == 1

    def test_ending_on_a_disc_removes_it_even_the_last_one(self):
        # "If the samurai ends their movement on a space containing a footprint disc, they
        # remove it from the board" - no exception (G4, revised): the last disc goes too, and
        # with no disc and no figurine left the next ninja phase is Phase 1, case 1 ("Neither a
        # footprint disc nor a ninja figurine is on the board ... places a ninja figurine on an
        # open secret passage space of their choice"). He is not captured ("If only footprint
        # discs are visible, the ninja cannot be captured in this way").
        s = turn(ninja=Ninja(square="J5"), samurai=Samurai(square="K7"), samurai_card="Patrol")
        discs(s, "K5", "K4")
        enter(s, "II-A green", "II-A yellow", "II-A green")
        play(s, "samurai square K5")
        assert labels(s, s.discs) == ["K4"]
        s = turn(
            "Meditate",
            ninja=Ninja(square="J5"),
            samurai=Samurai(square="K7"),
            samurai_card="Patrol",
        )
        discs(s, "K5")
        enter(s, "II-A green", "II-A yellow", "II-A green")
        play(s, "samurai square K5")
        assert s.discs == [] and s.ninja_sq == -1 and s.captured == 0
        assert s.samurai_sq == sq(s, "K5")
        play(s, "programme card Forced March", "programme nightingale tile blue")
        play(s, "play card Rooftop Leap")
        assert s.decision_kind == "start"
        assert names(s) == {f"ninja starts on {p}" for p in OPEN_BY_DEFAULT}

    def test_issue_40_a_lockdown_captures_the_hidden_ninja_whose_last_disc_he_took(self):
        # "If the samurai closes all the secret passages, the ninja is captured, whether they
        # are spotted or still hidden in the shadows." Issue 40.2: his movement ends on the
        # ninja's only disc (removed, G4); Bar the Hatch then closes the last open passage. The
        # ninja has not left the castle (only a capture takes it out: "When a ninja is caught
        # by the samurai, another ninja from their clan takes over and enters the castle"): it
        # is hidden with no disc, and it is captured.
        others = ("B3", "H3", "C5", "A7", "J7", "F9", "J10")  # I4 (board II) stays open
        for game, caught in ((GAME, 1), (make_game(NAME, lockdown_needs_trace=True), 0)):
            s = turn(
                "Meditate",
                "Bar the Hatch",
                ninja=Ninja(square="J5"),
                samurai=Samurai(square="I8"),
                closed=others,
                game=game,
            )
            discs(s, "K5")  # hidden on K5 (II-A green)
            assert s.ninja_in_castle() and s.ninja_sq == -1
            enter(s, "II-A yellow", "II-A green")
            play(s, "samurai square K5")
            assert s.discs == [] and s.ninja_sq == -1 and s.captured == 0
            assert s.ninja_in_castle()
            assert ("a lockdown still catches" in s.render(SAMURAI)) == bool(caught)
            play(s, "bar the hatch on I4")
            assert all(s.closed) and s.captured == caught
            assert s.decision_kind == "reopen"  # then the passages reopen (G6)
            assert s.ninja_in_castle() != bool(caught)  # captured: no ninja in the castle

    def test_variant_lockdown_needs_trace_spares_only_a_ninja_with_no_disc_and_no_figurine(self):
        # lockdown_needs_trace (G6 as the data sheet words it: "If a ninja is on the board (as a
        # figurine or as discs), it is captured"): a hidden ninja with discs is still captured.
        game = make_game(NAME, lockdown_needs_trace=True)
        others = ("B3", "H3", "I4", "A7", "J7", "F9", "J10")
        s = turn(ninja=Ninja(square="J5"), samurai=Samurai(square="C6"), closed=others, game=game)
        discs(s, "K5", "K4")
        enter(s, "IV-A passage-2")  # closes C5: lockdown
        assert s.captured == 1 and s.decision_kind == "reopen"

    def test_keep_last_disc_variant_the_disc_under_the_samurai_stays(self):
        # Variant keep_last_disc (G4's earlier reading): no samurai effect removes the last disc;
        # it stays under him, the ninja may start there (G3), and the pictures show it.
        game = make_game("castle_nightingale", keep_last_disc=True)
        s = turn(
            "Meditate",
            ninja=Ninja(square="J5"),
            samurai=Samurai(square="K7"),
            samurai_card="Patrol",
            game=game,
        )
        discs(s, "K5")
        enter(s, "II-A green", "II-A yellow", "II-A green")
        play(s, "samurai square K5")
        assert labels(s, s.discs) == ["K5"] and s.samurai_sq == sq(s, "K5")
        assert s.render().splitlines()[6].endswith("GSo")  # row 5: K5, samurai and disc
        assert "GSo" in s.render(NINJA) and "GSo" in s.render(SAMURAI)
        bare = s.clone()
        bare.discs = []
        assert (s.render_rgb(NINJA) != bare.render_rgb(NINJA)).any()  # the picture shows it
        plain = turn(
            "Meditate",
            ninja=Ninja(square="J5"),
            samurai=Samurai(square="K7"),
            samurai_card="Patrol",
        )
        grid = "\n".join(plain.render().splitlines()[1:13])  # the board (a token is "Soft Tabi")
        assert "So" not in grid  # cells stay 2 characters wide otherwise
        play(s, "programme card Forced March", "programme nightingale tile blue")
        play(s, "play card Rooftop Leap")
        assert s.start_sq == sq(s, "K5") == s.samurai_sq
        assert "disc -> K5" not in names(s) and {"disc -> K4", "disc -> K6"} <= names(s)

    def test_kawarimi_cancels_a_capture_by_entry_but_the_haul_is_still_lost(self):
        # Kawarimi (W8): the figurine goes back to the supply, the count does not rise; discs
        # removed and this turn's vases confiscated all the same (G5).
        s = turn(
            "Vanish",
            ninja=Ninja(square="J5", tokens=["Kawarimi"]),
            samurai=Samurai(square="K8"),
            tiles="yellow",
            vases={"K6": True},
        )
        play(s, "ninja starts on J5")
        discs(s, "K5", "K6")  # takes the vase, then yellow sings
        assert s.decision_kind == "w4" and names(s) == {"pass"}  # no Soft Tabi to cancel it
        play(s, "pass")
        assert labels(s, [s.ninja_sq]) == ["K6"]
        play(s, "pass")  # W6: no Blowgun
        enter(s, "II-A green", "II-A yellow")
        assert s.decision_kind == "w8" and s.current_player == NINJA
        assert names(s) == {"use Kawarimi", "pass"}
        play(s, "use Kawarimi")
        assert s.captured == 0 and s.ninja_sq == -1 and s.n_used[-1] == C.KAWARIMI
        assert s.decision_kind == "confiscate"
        # any free floor square of his board, even in the zone he is passing through (G12)
        assert "confiscated vase -> I6" in names(s)
        play(s, "confiscated vase -> I6")
        assert s.ninja_knows[vase_token(s, "I6")]

    def test_a_lockdown_with_no_ninja_on_the_board_only_reopens(self):
        # G6: "If none is on the board (for example, one was already captured earlier in this
        # phase), only the reopening happens."
        s = turn(
            "Meditate",
            ninja=Ninja(square="J4"),
            samurai=Samurai(square="K7"),
            tiles="green",
            closed=("B3", "H3", "C5", "A7", "J7", "F9", "J10"),
        )
        discs(s, "K4")
        enter(s, "II-A green", "II-A passage-2")  # capture, then close I4: lockdown
        assert s.captured == 1 and s.decision_kind == "reopen"
        assert names(s) == {f"reopen passage {p}" for p in ("B3", "H3", "C5", "A7", "F9", "J10")}

    def test_variant_lockdown_reopen_one_per_board(self):
        # Rulebook: "the samurai removes one closed trap door token from each of the four floor
        # boards ... However, they cannot remove the closed trap door token from the one they
        # are currently on." Variant lockdown_reopen="one_per_board" (G6): one from each of
        # the four boards, never the trap door under the samurai.
        game = make_game("castle_nightingale", lockdown_reopen="one_per_board")
        s = turn(
            ninja=Ninja(square="J5"),
            samurai=Samurai(square="C6"),
            closed=("B3", "H3", "I4", "A7", "J7", "F9", "J10"),
            game=game,
        )
        discs(s, "K5", "K4")
        enter(s, "IV-A passage-2")  # closes C5 under him: lockdown, the hidden ninja is caught
        assert s.captured == 1 and s.decision_kind == "reopen"
        others = {"B3", "H3", "I4", "J7", "F9", "J10"}
        assert names(s) == {f"reopen passage {p}" for p in others | {"A7"}}  # never C5
        play(s, "reopen passage A7")
        assert names(s) == {f"reopen passage {p}" for p in others}
        play(s, "reopen passage B3", "reopen passage J7", "reopen passage F9")
        assert closed_labels(s) == {"H3", "I4", "J10", "C5"}  # one open per board, no extra
        assert s.decision_kind == "entry" and s.flags["entries"] == 1

    def test_kawarimi_is_not_offered_against_a_lockdown(self):
        s = turn(
            ninja=Ninja(square="J5", tokens=["Kawarimi"]),
            samurai=Samurai(square="C6"),
            closed=("B3", "H3", "I4", "A7", "J7", "F9", "J10"),
        )
        discs(s, "K5", "K4")
        play(s, "pass", "pass")  # W3 after the last disc, W6: nothing to use
        enter(s, "IV-A passage-2")
        assert s.captured == 1 and s.decision_kind == "reopen"


class TestVaseMoves:
    def test_ending_on_a_vase_he_looks_and_must_move_it_on_the_same_board(self):
        # "If the samurai ends their movement on a space containing a vase token, they secretly
        # check its contents. They then place it face down on any free floor space on the same
        # floor board." (G11: compulsory, a different square; passing over it does nothing.)
        s = turn(ninja=Ninja(square="J5"), vases={"G1": True})
        discs(s, "K5", "K4")
        t = vase_token(s, "G1")
        enter(s, "I-A white", "I-A green", "I-A white", "I-A green")
        assert not s.samurai_knows[t]  # he passed through I-A green twice
        play(s, "samurai square G1")
        assert s.decision_kind == "vase_move" and s.samurai_knows[t]
        moves = names(s)
        assert len(moves) == 24 - 2 - 2  # board I minus its passages, G1 itself and D1's vase
        assert "move the vase to D1" not in moves and "move the vase to I1" not in moves
        assert "pass" not in moves and "leave the vase" not in moves
        play(s, "move the vase to A1")
        assert labels(s, [s.vase_where[t]]) == ["A1"] and not s.ninja_knows[t]
        assert obs(s, SAMURAI)["squares"][sq(s, "A1"), 10] == 1
        assert obs(s, NINJA)["squares"][sq(s, "A1"), 9:12].tolist() == [1, 0, 0]


# ==================================================================================== ninja cards
class TestNinjaCards:
    def test_n1_sprint_lets_the_samurai_secretly_exchange_a_programmed_tile(self):
        s = turn("Sprint", ninja=Ninja(square="J5"), tiles="red", face_up="blue")
        assert s.decision_kind == "sprint_out" and s.current_player == SAMURAI
        assert names(s) == {"Sprint: take back red", "keep the tiles"}
        play(s, "Sprint: take back red")
        assert names(s) == {
            f"Sprint: programme {c} instead" for c in COLOURS if c not in ("red", "blue")
        }
        play(s, "Sprint: programme green instead")
        assert s.programmed_tiles() == [COLOURS.index("green")]
        assert s.decision_kind == "place" and s.flags["discs_left"] == 5

    def test_n1_sprint_the_ninja_is_not_told_whether_he_exchanged(self):
        def run(*answers):
            s = turn("Sprint", ninja=Ninja(square="J5"), tiles="red")
            seen = []
            for answer in answers:
                seen.append((s.current_player, s.observation(NINJA).tobytes()))
                play(s, answer)
            while s.current_player != NINJA:
                seen.append((s.current_player, s.observation(NINJA).tobytes()))
                play(s, legal_names(s)[0])
            seen.append((s.current_player, s.observation(NINJA).tobytes()))
            return s, seen

        kept, seen_kept = run("keep the tiles", "keep the tiles")
        swapped, seen_swapped = run("Sprint: take back red", "Sprint: programme green instead")
        assert kept.programmed_tiles() != swapped.programmed_tiles()
        assert seen_kept == seen_swapped

    def test_n3_pick_the_lock_not_under_the_samurai(self):
        s = turn(
            "Pick the Lock", ninja=Ninja(square="J5"), samurai=Samurai(square="B3")
        )  # he stands on the closed B3
        assert s.decision_kind == "pick_lock" and names(s) == {"pick the lock on H3"}
        play(s, "pick the lock on H3")
        assert closed_labels(s) == {"B3"}
        assert s.decision_kind == "place"
        s = turn("Pick the Lock", ninja=Ninja(square="J5"), closed=())  # impossible: nothing to do
        assert s.decision_kind == "place"
        s = turn(
            "Pick the Lock", ninja=Ninja(square="J5"), closed=("B3",), samurai=Samurai(square="B3")
        )  # impossible too
        assert s.decision_kind == "place" and closed_labels(s) == {"B3"}

    def test_n4_thrown_pebble_moves_the_samurai_without_an_entry(self):
        # To a free floor square of an adjacent colour zone: no capture, closing or removal.
        s = turn("Thrown Pebble", ninja=Ninja(square="B5"), samurai=Samurai(square="C6"))
        assert s.decision_kind == "pebble" and s.current_player == NINJA
        targets = {"B7", "C7", "A8", "B8", "A9", "A4", "B4", "C4"}  # IV-A blue and white, no B5
        assert names(s) == {f"throw pebble: samurai to {x}" for x in targets}
        play(s, "throw pebble: samurai to A4")  # into the figurine's own zone: no capture
        assert s.captured == 0 and s.samurai_zone == s.board.zone_of[sq(s, "A4")]
        assert labels(s, [s.samurai_sq]) == ["A4"] and s.decision_kind == "place"
        assert "disc -> A4" not in names(s)

    def test_n5_vanish_may_start_from_any_open_passage(self):
        s = turn("Vanish", discs=["K8", "I7"])
        assert names(s) == {f"ninja starts on {x}" for x in ["K8", "I7", *OPEN_BY_DEFAULT]}
        play(s, "ninja starts on A7")
        assert s.discs == [] and labels(s, [s.ninja_sq]) == ["A7"]
        s = turn("Vanish", ninja=Ninja(square="J5"))
        assert names(s) == {f"ninja starts on {x}" for x in ["J5", *OPEN_BY_DEFAULT]}

    def test_n6_scout_looks_at_a_vase_then_draws(self):
        s = turn("Scout", ninja=Ninja(square="J5", stack=["Lockpick", "Shuko"]))
        assert s.decision_kind == "scout"
        assert names(s) == {f"scout vase on {x}" for x in VASES_A}
        play(s, "scout vase on D1")
        t = vase_token(s, "D1")
        assert s.ninja_knows[t] and s.n_equip == [C.LOCKPICK]
        o = obs(s, SAMURAI)  # he sees which vase was looked at, not its contents
        assert o["squares"][sq(s, "D1"), 12] == 1 and o["squares"][sq(s, "D1"), 10:12].sum() == 0
        assert obs(s, NINJA)["squares"][sq(s, "D1"), 10:12].sum() == 1

    def test_n7_false_trail_two_decoys_next_to_this_turns_discs(self):
        s = turn("False Trail", ninja=Ninja(square="J5"), tiles="green")
        discs(s, "J6", "I6")  # yellow: hidden
        assert s.decision_kind == "decoy"
        # free floor squares next to J6 or I6: J5 (the start), I5, I7 (K6 vase, J7 passage)
        assert names(s) == {"decoy disc -> J5", "decoy disc -> I5", "decoy disc -> I7"}
        play(s, "decoy disc -> I7")
        # the second decoy may also go next to the first one (I8); "this turn's discs" include
        # the decoys (sheet section 1)
        assert names(s) == {"decoy disc -> J5", "decoy disc -> I5", "decoy disc -> I8"}
        play(s, "decoy disc -> I5")  # green, but a decoy never sings
        assert labels(s, s.discs) == ["J6", "I6", "I7", "I5"] and s.ninja_sq == -1
        assert not s.flags["revealed"]
        enter(s, "I-A white", "I-A green", "I-A white", "I-A green")
        play(s, "samurai square E2", "programme card Patrol", "programme nightingale tile blue")
        play(s, "play card Sprint", "keep the tiles", "keep the tiles")
        assert names(s) == {f"ninja starts on {x}" for x in ("J6", "I6", "I7", "I5")}
        # revealed: the decoys go back unused
        s = turn("False Trail", ninja=Ninja(square="J5"), tiles="yellow")
        discs(s, "J6")
        assert s.decision_kind == "entry" and s.discs == []

    def test_n8_listen_at_the_floor_two_different_colours_answered_truthfully(self):
        s = turn("Listen at the Floor", ninja=Ninja(square="J5"), tiles="blue", face_up="red")
        assert s.decision_kind == "listen"
        assert names(s) == {f"listen: is {c} programmed?" for c in COLOURS if c != "red"}
        play(s, "listen: is blue programmed?")
        assert "listen: is blue programmed?" not in names(s)
        play(s, "listen: is green programmed?")
        blue, green = COLOURS.index("blue"), COLOURS.index("green")
        assert s.listen_answers == [[blue, True], [green, False]]
        for player in (NINJA, SAMURAI):  # the answers are public
            o = obs(s, player)
            assert o["listen"][blue, 1] == 1 and o["listen"][green, 0] == 1
        o = obs(s, NINJA)
        assert o["tile_programmed"][blue] == 1 and o["tile_not_programmed"][green] == 1

    def test_n9_supply_cache_draws_one_token(self):
        s = turn("Supply Cache", ninja=Ninja(square="J5", stack=["Shuko", "Lockpick"]))
        assert s.n_equip == [C.SHUKO] and s.n_stack == [C.LOCKPICK]
        assert "use Shuko" in names(s)  # a token drawn this turn may be used this turn
        s = turn("Supply Cache", ninja=Ninja(square="J5"))  # empty stack: nothing
        assert s.n_equip == []

    def test_n10_meditate_keeps_one_of_the_top_two_the_other_to_the_bottom(self):
        s = turn("Meditate", ninja=Ninja(square="J5", stack=["Shuko", "Lockpick", "Blowgun"]))
        assert s.decision_kind == "meditate" and names(s) == {"keep Shuko", "keep Lockpick"}
        o = obs(s, NINJA)
        assert o["peek"][C.SHUKO] == o["peek"][C.LOCKPICK] == 1
        assert obs(s, SAMURAI)["peek"].sum() == 0
        play(s, "keep Lockpick")
        assert s.n_equip == [C.LOCKPICK] and s.n_stack == [C.BLOWGUN, C.SHUKO]
        assert s.n_bottom == [C.SHUKO]
        s = turn("Meditate", ninja=Ninja(square="J5", stack=["Shuko"]))  # one left: take it
        assert s.n_equip == [C.SHUKO] and s.decision_kind == "place"


# ================================================================================== samurai cards
class TestSamuraiCards:
    def test_s2_patrol_draws_a_token_after_the_movement(self):
        s = turn(
            ninja=Ninja(square="J5"),
            samurai_card="Patrol",
            samurai=Samurai(stack=["Hound", "Iron Bar"]),
        )
        discs(s, "K5", "K4")
        enter(s, "I-A white", "I-A green", "I-A white")
        assert s.s_equip == []
        play(s, "samurai square C1")
        assert s.s_equip == [C.HOUND] and s.decision_kind == "w9"

    def test_s3_track_the_trail_removes_one_disc_even_the_last(self):
        # S3 "Remove 1 footprint disc of the samurai's choice anywhere on the board (last-disc
        # rule)"; G4 revised: by default the last disc may go; keep_last_disc keeps it.
        s = turn(
            "Pick the Lock",
            ninja=Ninja(square="J5"),
            samurai_card="Track the Trail",
            closed=(),
            tiles="blue",
        )
        discs(s, "K5", "K4", "K3", "J3")
        enter(s, "I-A white", "I-A green", "I-A white")
        play(s, "samurai square C1")
        assert s.decision_kind == "track"
        assert names(s) == {f"remove the disc on {x}" for x in ("K5", "K4", "K3", "J3")}
        play(s, "remove the disc on K4")
        assert labels(s, s.discs) == ["K5", "K3", "J3"] and s.turn == 2
        s = turn("Meditate", ninja=Ninja(square="J5"), samurai_card="Track the Trail")
        discs(s, "K5")
        enter(s, "I-A white", "I-A green", "I-A white")
        play(s, "samurai square C1")
        assert names(s) == {"remove the disc on K5"}
        play(s, "remove the disc on K5")
        assert s.discs == [] and s.turn == 2
        game = make_game("castle_nightingale", keep_last_disc=True)
        s = turn("Meditate", ninja=Ninja(square="J5"), samurai_card="Track the Trail", game=game)
        discs(s, "K5")
        enter(s, "I-A white", "I-A green", "I-A white")
        play(s, "samurai square C1")
        assert labels(s, s.discs) == ["K5"] and s.turn == 2  # variant: the last disc stays

    def test_s4_bar_the_hatch_closes_an_open_passage_of_his_board(self):
        s = turn(
            ninja=Ninja(square="J5"), samurai=Samurai(square="C6"), samurai_card="Bar the Hatch"
        )
        discs(s, "K5", "K4")
        enter(s, "IV-A white", "IV-A red")
        play(s, "samurai square C6")
        assert names(s) == {"bar the hatch on C5", "bar the hatch on A7"}
        play(s, "bar the hatch on A7")
        assert closed_labels(s) == {"B3", "H3", "A7"}

    def test_s4_bar_the_hatch_can_cause_a_lockdown(self):
        s = turn(
            ninja=Ninja(square="J5"),
            samurai=Samurai(square="C6"),
            samurai_card="Bar the Hatch",
            closed=("B3", "H3", "I4", "A7", "J7", "F9", "J10"),
        )
        discs(s, "K5", "K4")
        enter(s, "IV-A white", "IV-A red")
        play(s, "samurai square C6", "bar the hatch on C5")
        assert s.captured == 1 and s.decision_kind == "reopen"

    def test_s5_lantern_sweep_clears_his_zone_and_the_adjacent_ones(self):
        s = turn(
            "Vanish",
            ninja=Ninja(square="J5"),
            samurai=Samurai(square="K7"),
            samurai_card="Lantern Sweep",
            tiles="blue",
        )
        play(s, "ninja starts on J5")
        discs(s, "J4", "J3", "I3")  # II-A green, then II-A red (not next to II-A yellow)
        enter(s, "II-A white", "II-A yellow")
        play(s, "samurai square K8")
        assert labels(s, s.discs) == ["J3", "I3"]

    def test_s5_lantern_sweep_may_remove_every_disc(self):
        # S5 "Remove every footprint disc in the samurai's zone and in every zone adjacent to
        # it"; G4 revised: by default even the last ones go (the ninja re-enters by a passage).
        s = turn(
            ninja=Ninja(square="J5"), samurai=Samurai(square="K7"), samurai_card="Lantern Sweep"
        )
        discs(s, "K5", "K4")
        enter(s, "II-A white", "II-A yellow")
        play(s, "samurai square K8")
        assert s.discs == [] and s.turn == 2 and s.captured == 0

    def test_s5_lantern_sweep_the_ninja_keeps_one_disc_if_all_would_go(self):
        # S5 "If that would leave no disc on the board, the ninja picks one of those discs to
        # stay" - the last-disc rule, variant keep_last_disc (G4).
        game = make_game("castle_nightingale", keep_last_disc=True)
        s = turn(
            ninja=Ninja(square="J5"),
            samurai=Samurai(square="K7"),
            samurai_card="Lantern Sweep",
            game=game,
        )
        discs(s, "K5", "K4")
        enter(s, "II-A white", "II-A yellow")
        play(s, "samurai square K8")
        assert s.decision_kind == "sweep_keep" and s.current_player == NINJA
        assert names(s) == {"keep the disc on K5", "keep the disc on K4"}
        play(s, "keep the disc on K4")
        assert labels(s, s.discs) == ["K4"]

    def test_s6_silent_night_next_turn_has_no_face_up_tile(self):
        s = turn(ninja=Ninja(square="J5"), samurai_card="Silent Night", tiles="red", face_up="blue")
        discs(s, "K5", "K4")
        enter(s, "I-A white", "I-A green")
        play(s, "samurai square E2")
        assert s.turn == 2 and s.tile_loc == [HAND] * 6
        play(s, s.action_name(int(s.legal_actions()[0])))
        assert names(s) == {f"programme nightingale tile {c}" for c in COLOURS}

    def test_s7_inspect_the_vases_in_or_next_to_his_zone_and_maybe_move_it(self):
        s = turn(
            ninja=Ninja(square="J5"),
            samurai=Samurai(square="K7"),
            samurai_card="Inspect the Vases",
            vases={"K6": True, "I11": False, "K2": True},
        )
        discs(s, "K5", "K4")
        enter(s, "II-A white", "II-A yellow")
        play(s, "samurai square K8")
        assert names(s) == {"inspect vase on K6", "inspect vase on I11"}  # not K2 (too far)
        play(s, "inspect vase on K6")
        t = vase_token(s, "K6")
        assert s.samurai_knows[t] and not s.ninja_knows[t]
        assert "leave the vase" in names(s) and "move the inspected vase to I1" in names(s)
        assert "move the inspected vase to K5" not in names(s)  # a disc is there
        assert "move the inspected vase to I11" not in names(s)  # another board
        play(s, "move the inspected vase to I1")
        assert labels(s, [s.vase_where[t]]) == ["I1"]

    def test_s8_twin_nightingales_two_tiles_both_sing_the_matching_one_turns_up(self):
        s = turn(ninja=Ninja(square="J5", tokens=["Blowgun"]), samurai_card="Twin Nightingales")
        discs(s, "K5", "K4")
        play(s, "pass", "pass")  # W3 after the last disc, W6
        enter(s, "I-A white")
        play(s, "samurai square C1")
        assert s.turn == 2 and s.flags["twin"]
        play(s, "programme card Forced March", "programme nightingale tile blue")
        assert s.decision_kind == "prog_s_tile" and "programme nightingale tile red" not in names(s)
        play(s, "programme nightingale tile yellow", "play card Rooftop Leap")
        assert names(s) == {"ninja starts on K5", "ninja starts on K4"}
        play(s, "ninja starts on K5", "disc -> K6")  # yellow sings
        yellow, blue = COLOURS.index("yellow"), COLOURS.index("blue")
        assert s.decision_kind == "w4"  # (a Soft Tabi could cancel it)
        assert s.tile_revealed[yellow] and not s.tile_revealed[blue]
        assert obs(s, NINJA)["tile_programmed"][blue] == 0
        play(s, "pass", "pass")  # W4, W6
        enter(s, "I-A green", "I-A white", "I-A green", "I-A white")
        play(s, "samurai square C1")
        assert s.turn == 3
        assert [COLOURS[c] for c in range(6) if s.tile_loc[c] == FACE_UP] == ["blue", "yellow"]
        play(s, s.action_name(int(s.legal_actions()[0])))
        assert len(names(s)) == 4 and not s.flags["twin"]

    def test_s9_muster_the_guard_keeps_one_of_the_top_two(self):
        s = turn(
            ninja=Ninja(square="J5"),
            samurai_card="Muster the Guard",
            samurai=Samurai(stack=["Hound", "Iron Bar", "Watch Fire"]),
        )
        discs(s, "K5", "K4")
        enter(s, "I-A white")
        play(s, "samurai square C1")
        assert s.decision_kind == "muster" and names(s) == {"keep Hound", "keep Iron Bar"}
        assert obs(s, SAMURAI)["peek"][C.HOUND] == 1 and obs(s, NINJA)["peek"].sum() == 0
        play(s, "keep Iron Bar")
        assert s.s_equip == [C.IRON_BAR] and s.s_stack == [C.WATCH_FIRE, C.HOUND]
        assert s.s_bottom == [C.HOUND]

    def test_s10_watchtower_draws_then_sees_the_ninjas_new_hand(self):
        s = turn(
            ninja=Ninja(square="J5", hand=["Supply Cache", "Sprint", "Vanish"], deck=["Scout"]),
            samurai_card="Watchtower",
            samurai=Samurai(stack=["Hound"]),
        )
        discs(s, "K5", "K4")
        enter(s, "I-A white")
        play(s, "samurai square C1")
        assert s.s_equip == [C.HOUND]
        play(s, "pass")  # W9 after the action
        assert s.turn == 2
        hand = sorted(N_NAMES.index(x) for x in ("Sprint", "Vanish", "Scout"))
        assert sorted(s.n_hand) == s.known_n_hand == hand
        o = obs(s, SAMURAI)
        assert list(np.flatnonzero(o["known_opponent_hand"])) == hand
        assert obs(s, NINJA)["known_opponent_hand"].sum() == 0


# ====================================================================================== equipment
class TestNinjaEquipment:
    def test_soft_tabi_cancels_a_detection_the_movement_goes_on(self):
        s = turn("Vanish", ninja=Ninja(square="J5", tokens=["Soft Tabi"]), tiles="yellow")
        play(s, "ninja starts on J5")
        discs(s, "J6")  # yellow sings
        assert s.decision_kind == "w4" and names(s) == {"use Soft Tabi", "pass"}
        play(s, "use Soft Tabi")
        yellow = COLOURS.index("yellow")
        assert labels(s, s.discs) == ["J6"] and s.tile_revealed[yellow]
        assert s.decision_kind == "place" and C.SOFT_TABI in s.n_used
        discs(s, "I6")  # yellow again: detected again
        assert labels(s, [s.ninja_sq]) == ["I6"] and s.discs == []

    def test_lockpick_reopens_a_passage_then_the_ninja_travels_through_it(self):
        s = turn(ninja=Ninja(square="H2", tokens=["Lockpick"]), samurai=Samurai(square="B3"))
        assert "use Lockpick" in names(s)
        play(s, "use Lockpick")
        assert names(s) == {"Lockpick on H3"}  # not B3: the samurai stands on it
        play(s, "Lockpick on H3")
        discs(s, "H3")
        assert {f"disc -> {p}" for p in OPEN_BY_DEFAULT} <= names(s)
        discs(s, "J10")
        assert s.ninja_sq == -1 and closed_labels(s) == {"B3"}

    def test_shuko_allows_one_diagonal_placement_not_combined_with_a_jump(self):
        s = turn(ninja=Ninja(square="J5", tokens=["Shuko", "Blowgun"]))
        assert {"use Shuko", "jump"} <= names(s)
        play(s, "use Shuko")
        diagonal = {"disc -> I4", "disc -> K4", "disc -> I6", "disc -> K6"}
        assert names(s) == diagonal | {"disc -> J4", "disc -> I5", "disc -> K5", "disc -> J6"}
        discs(s, "K4")
        assert names(s) == {"disc -> K3", "disc -> K5", "disc -> J4", "jump"}

    def test_blowgun_takes_one_entry_off_his_movement_never_below_one(self):
        s = turn(ninja=Ninja(square="J5", tokens=["Blowgun"]))
        discs(s, "K5", "K4")
        play(s, "pass")  # W3 after the last disc
        assert s.decision_kind == "w6_n" and names(s) == {"use Blowgun", "pass"}
        play(s, "use Blowgun")
        assert s.flags["target"] == 3
        assert obs(s, SAMURAI)["ninja_used"][C.BLOWGUN] == 1
        s = turn(ninja=Ninja(square="J5", tokens=["Blowgun"]), samurai_card="Twin Nightingales")
        discs(s, "K5", "K4")
        play(s, "pass", "use Blowgun")
        assert s.flags["target"] == 1

    def test_listening_tube_shows_the_programmed_tile_before_the_ninja_chooses(self):
        s = turn(
            ninja_card=None,
            ninja=Ninja(
                square="J5", tokens=["Listening Tube"], hand=["Sprint", "Vanish", "Meditate"]
            ),
            tiles="green",
        )
        assert s.decision_kind == "prog_n_card" and "use Listening Tube" in names(s)
        play(s, "use Listening Tube")
        o = obs(s, NINJA)
        assert list(o["tile_programmed"]) == [c == "green" for c in COLOURS]
        assert list(o["tile_not_programmed"]) == [c != "green" for c in COLOURS]
        assert s.decision_kind == "prog_n_card"
        assert names(s) == {"play card Sprint", "play card Vanish", "play card Meditate"}

    def test_rice_paper_map_looks_at_two_vases(self):
        s = turn(ninja=Ninja(square="J5", tokens=["Rice-Paper Map"], knows=["D1"]))
        play(s, "use Rice-Paper Map")
        assert names(s) == {f"Rice-Paper Map: look at vase on {x}" for x in VASES_A[1:]}
        play(s, "Rice-Paper Map: look at vase on G1", "Rice-Paper Map: look at vase on K2")
        assert all(s.ninja_knows[vase_token(s, x)] for x in ("D1", "G1", "K2"))
        assert sum(s.ninja_knows) == 3 and s.decision_kind == "place"


class TestSamuraiEquipment:
    def test_alarm_bell_exchanges_a_tile_the_ninja_sees_only_that_it_rang(self):
        s = turn(
            ninja_card=None,
            ninja=Ninja(
                square="J5", tokens=["Listening Tube"], hand=["Sprint", "Vanish", "Meditate"]
            ),
            samurai=Samurai(tokens=["Alarm Bell"]),
            tiles="red",
        )
        play(s, "use Listening Tube", "play card Vanish")
        assert obs(s, NINJA)["tile_programmed"][0] == 1
        assert s.decision_kind == "w2" and names(s) == {"use Alarm Bell", "pass"}
        play(s, "use Alarm Bell")
        assert names(s) == {"Alarm Bell: take back red"}
        play(s, "Alarm Bell: take back red")
        assert "Alarm Bell: programme red instead" not in names(s)
        play(s, "Alarm Bell: programme green instead")
        assert s.programmed_tiles() == [COLOURS.index("green")]
        o = obs(s, NINJA)
        assert o["tile_programmed"].sum() == 0 and o["tile_not_programmed"].sum() == 0
        assert o["samurai_used"][C.ALARM_BELL] == 1 and s.bell_used

    def test_iron_bar_closes_any_open_passage_and_can_lock_down(self):
        s = turn(ninja=Ninja(square="J5"), samurai=Samurai(tokens=["Iron Bar"]))
        play(s, "pass")  # W2
        discs(s, "K5", "K4")
        play(s, "pass", "pass")  # W5, W6
        enter(s, "I-A white", "I-A green", "I-A white", "I-A green")
        play(s, "end the movement", "samurai square E2")
        assert s.decision_kind == "w9" and names(s) == {"use Iron Bar", "pass"}
        play(s, "use Iron Bar")
        assert names(s) == {f"Iron Bar closes {p}" for p in OPEN_BY_DEFAULT}
        play(s, "Iron Bar closes J10")
        assert "J10" in closed_labels(s) and s.s_used[-1] == C.IRON_BAR
        s = turn(
            ninja=Ninja(square="J5"),
            samurai=Samurai(tokens=["Iron Bar"]),
            closed=("B3", "H3", "I4", "C5", "A7", "J7", "F9"),
        )
        play(s, "pass")
        discs(s, "K5", "K4")
        play(s, "pass", "pass")
        enter(s, "I-A white", "I-A green", "I-A white", "I-A green")
        play(s, "end the movement", "samurai square E2", "use Iron Bar", "Iron Bar closes J10")
        assert s.captured == 1 and s.decision_kind == "reopen"
        assert not any(x.endswith(("B3", "H3")) for x in names(s))  # not on his board I

    def test_paper_lantern_reveal(self):
        s = turn(
            "Vanish",
            ninja=Ninja(square="J5"),
            samurai=Samurai(square="K3", tokens=["Paper Lantern"]),
            tiles="blue",
        )
        play(s, "pass", "ninja starts on J5")
        discs(s, "J4", "J3", "I3")
        assert s.decision_kind == "w5" and names(s) == {"use Paper Lantern", "pass"}
        play(s, "use Paper Lantern")
        assert names(s) == {"name zone II-A green", "name zone II-A red"}
        play(s, "name zone II-A red")
        assert s.current_player == NINJA
        assert names(s) == {"lantern: reveal", "lantern: clear"}
        play(s, "lantern: reveal")
        assert names(s) == {"ninja appears on J3", "ninja appears on I3"}
        play(s, "ninja appears on I3")
        assert labels(s, [s.ninja_sq]) == ["I3"] and s.discs == []
        enter(s, "II-A red")
        assert s.captured == 1

    def test_paper_lantern_clear_only_if_a_disc_stays_elsewhere(self):
        s = turn(
            "Vanish",
            ninja=Ninja(square="J5"),
            tiles="blue",
            samurai=Samurai(tokens=["Paper Lantern"]),
        )
        play(s, "pass", "ninja starts on J5")
        discs(s, "J4", "J3", "I3")
        play(s, "use Paper Lantern", "name zone II-A green", "lantern: clear")
        assert labels(s, s.discs) == ["J3", "I3"] and s.ninja_sq == -1
        s = turn(ninja=Ninja(square="J5"), samurai=Samurai(tokens=["Paper Lantern"]))
        play(s, "pass")
        discs(s, "K5", "K4")
        play(s, "use Paper Lantern", "name zone II-A green")
        assert names(s) == {"lantern: reveal"}

    def test_straw_sandals_one_or_two_more_entries_at_w6_or_w7(self):
        s = turn(ninja=Ninja(square="J5"), samurai=Samurai(tokens=["Straw Sandals"]))
        play(s, "pass")
        discs(s, "K5", "K4")
        play(s, "pass")  # W5
        assert s.decision_kind == "w6_s" and names(s) == {"use Straw Sandals", "pass"}
        play(s, "use Straw Sandals")
        assert names(s) == {"+1 entry", "+2 entries"}
        play(s, "+2 entries")
        assert s.flags["target"] == 6 and not s.flags["adjust_used"]
        s = turn(ninja=Ninja(square="J5"), samurai=Samurai(tokens=["Straw Sandals"]))
        play(s, "pass")
        discs(s, "K5", "K4")
        play(s, "pass", "pass")
        enter(s, "I-A white", "I-A green", "I-A white", "I-A green")
        assert s.decision_kind == "entry_end" and "use Straw Sandals" in names(s)  # W7
        play(s, "use Straw Sandals", "+1 entry")
        assert s.decision_kind == "entry" and s.flags["target"] == 5

    def test_hound_removes_up_to_two_discs_even_the_last(self):
        # Hound: "Remove up to 2 footprint discs anywhere (last-disc rule)"; G4 revised: the last
        # may go by default; with keep_last_disc it stays.
        s = turn(
            "Pick the Lock",
            ninja=Ninja(square="J5"),
            samurai=Samurai(tokens=["Hound"]),
            closed=(),
            tiles="blue",
        )
        play(s, "pass")
        discs(s, "K5", "K4", "K3", "J3")
        play(s, "pass", "pass")
        enter(s, "I-A white", "I-A green", "I-A white", "I-A green")
        play(s, "end the movement", "samurai square E2", "use Hound")
        assert names(s) == {f"Hound removes the disc on {x}" for x in ("K5", "K4", "K3", "J3")} | {
            "pass"
        }
        play(s, "Hound removes the disc on K5", "Hound removes the disc on J3")
        assert labels(s, s.discs) == ["K4", "K3"]
        s = turn(ninja=Ninja(square="J5"), samurai=Samurai(tokens=["Hound"]))
        play(s, "pass")
        discs(s, "K5", "K4")
        play(s, "pass", "pass")
        enter(s, "I-A white", "I-A green", "I-A white", "I-A green")
        play(s, "end the movement", "samurai square E2", "use Hound")
        play(s, "Hound removes the disc on K5")
        assert names(s) == {"Hound removes the disc on K4", "pass"}
        play(s, "Hound removes the disc on K4")
        assert s.discs == [] and s.decision_kind != "hound"
        game = make_game("castle_nightingale", keep_last_disc=True)
        s = turn(ninja=Ninja(square="J5"), samurai=Samurai(tokens=["Hound"]), game=game)
        play(s, "pass")
        discs(s, "K5", "K4")
        play(s, "pass", "pass")
        enter(s, "I-A white", "I-A green", "I-A white", "I-A green")
        play(s, "end the movement", "samurai square E2", "use Hound")
        play(s, "Hound removes the disc on K5")
        assert labels(s, s.discs) == ["K4"] and s.decision_kind != "hound"

    def test_watch_fire_marks_his_zone_for_the_next_ninja_phase(self):
        s = turn(ninja=Ninja(square="J5"), samurai=Samurai(tokens=["Watch Fire"]))
        play(s, "pass")
        discs(s, "K5", "K4")
        play(s, "pass", "pass")
        enter(s, "I-A white", "I-A green", "I-A white", "I-A green")
        play(s, "end the movement", "samurai square E2", "use Watch Fire")
        green = s.board.zone("I-A green")
        assert s.turn == 2 and s.flags["watch_fire_zone"] == green  # the marker is public
        assert obs(s, NINJA)["squares"][sq(s, "E2"), 19] == 1

    def test_watch_fire_detects_the_first_disc_in_its_zone_without_turning_a_tile(self):
        s = turn("Vanish", ninja=Ninja(square="J5", tokens=["Soft Tabi"]), watch_fire="K4")
        play(s, "ninja starts on J5")
        discs(s, "K5")  # II-A green: the Watch Fire zone
        assert s.decision_kind == "w4"
        play(s, "use Soft Tabi")  # it cancels a Watch Fire detection too
        discs(s, "K4")  # only the first disc in the zone counts
        assert s.decision_kind == "place" and not any(s.tile_revealed)
        discs(s, "K3")
        assert s.flags["watch_fire_zone"] == -1  # removed at the end of that ninja phase
        s = turn("Vanish", ninja=Ninja(square="J5"), watch_fire="K4")
        play(s, "ninja starts on J5")
        discs(s, "K5")
        assert labels(s, [s.ninja_sq]) == ["K5"] and s.discs == []
        assert s.tile_loc[COLOURS.index("red")] == PROGRAMMED

    def test_watch_fire_ignores_decoys(self):
        s = turn("False Trail", ninja=Ninja(square="J5"), watch_fire="I5", tiles="green")
        discs(s, "J6", "I6")
        play(s, "decoy disc -> I5", "decoy disc -> J5")
        assert s.ninja_sq == -1 and len(s.discs) == 4

    def test_inventory_ledger_looks_at_two_vases(self):
        s = turn(ninja=Ninja(square="J5"), samurai=Samurai(tokens=["Inventory Ledger"]))
        play(s, "pass")
        discs(s, "K5", "K4")
        play(s, "pass")
        play(s, "use Inventory Ledger")
        assert names(s) == {f"Ledger: look at vase on {x}" for x in VASES_A}
        play(s, "Ledger: look at vase on A5", "Ledger: look at vase on A10")
        assert sum(s.samurai_knows) == 2 and s.samurai_knows[vase_token(s, "A5")]
        assert s.decision_kind == "entry"
        assert obs(s, SAMURAI)["squares"][sq(s, "A5"), 10:12].sum() == 1
        assert obs(s, NINJA)["squares"][sq(s, "A5"), 10:12].sum() == 0


# ==================================================================================== end of turn
def _quick_turn(s) -> None:
    """Finish a default turn: the ninja on J5 lays K5, K4; Forced March around I-A green."""
    discs(s, "K5", "K4")
    enter(s, "I-A white", "I-A green", "I-A white", "I-A green")
    play(s, "samurai square E2")


class TestEndOfTurn:
    def test_discard_the_played_cards_and_draw_back_to_three(self):
        s = turn(
            ninja=Ninja(square="J5", hand=["Supply Cache", "Sprint", "Vanish"], deck=["Scout"]),
            samurai=Samurai(hand=["Forced March", "Patrol", "Watchtower"], deck=["Silent Night"]),
        )
        _quick_turn(s)
        assert s.n_discard == [N_NAMES.index("Supply Cache")]
        assert s.n_hand == [N_NAMES.index(x) for x in ("Sprint", "Vanish", "Scout")]
        assert s.s_discard == [S_NAMES.index("Forced March")]
        assert s.s_hand == [S_NAMES.index(x) for x in ("Patrol", "Watchtower", "Silent Night")]
        assert len(s.n_deck) == len(s.s_deck) == 6
        for player in (NINJA, SAMURAI):  # the discard piles are public
            o = obs(s, player)
            assert o["ninja_discard"][N_NAMES.index("Supply Cache")] == 1
            assert o["samurai_discard"][S_NAMES.index("Forced March")] == 1

    def test_an_empty_draw_pile_is_the_reshuffled_discard_pile(self):
        # G9: the card just played is discarded first, then the whole pile is shuffled.
        hand = ["Supply Cache", "Sprint", "Vanish"]
        s = turn(ninja=Ninja(square="J5", hand=hand, discard=[x for x in N_NAMES if x not in hand]))
        assert s.n_deck == []
        _quick_turn(s)
        assert s.n_discard == [] and len(s.n_deck) == 7 and len(s.n_hand) == 3
        assert s.n_hand[:2] == [N_NAMES.index("Sprint"), N_NAMES.index("Vanish")]
        check_invariants(s)

    def test_tiles_rotate_the_played_one_face_up_the_old_one_back_in_hand(self):
        s = turn(ninja=Ninja(square="J5"), tiles="red", face_up="blue")
        _quick_turn(s)
        assert s.tile_loc[COLOURS.index("red")] == FACE_UP
        assert s.tile_loc[COLOURS.index("blue")] == HAND
        play(s, s.action_name(int(s.legal_actions()[0])))
        assert names(s) == {f"programme nightingale tile {c}" for c in COLOURS if c != "red"}

    def test_this_turns_vases_are_banked_at_the_end_of_the_turn(self):
        s = turn("Vanish", ninja=Ninja(square="J5"), vases={"K6": True})
        play(s, "ninja starts on J5")
        t = vase_token(s, "K6")
        discs(s, "K5", "K6", "K7")
        enter(s, "I-A white", "I-A green", "I-A white", "I-A green")
        assert s.vase_where[t] == STOLEN
        play(s, "samurai square E2")
        assert s.vase_where[t] == BANKED and s.banked_relics() == 1


class TestVictory:
    def test_the_ninja_wins_with_five_relics_at_the_end_of_the_turn(self):
        s = turn(
            "Vanish", ninja=Ninja(square="J5"), vases={"K6": True}, banked=(True, True, True, True)
        )
        play(s, "ninja starts on J5")
        discs(s, "K5", "K6", "K7")
        enter(s, "I-A white", "I-A green", "I-A white", "I-A green")
        assert not s.is_terminal()
        play(s, "samurai square E2")
        assert s.is_terminal() and s.winner == NINJA and list(s.returns()) == [1.0, -1.0]
        assert not s.truncated

    def test_an_empty_vase_is_no_relic(self):
        s = turn(
            "Vanish", ninja=Ninja(square="J5"), vases={"K6": False}, banked=(True, True, True, True)
        )
        play(s, "ninja starts on J5")
        discs(s, "K5", "K6", "K7")
        enter(s, "I-A white", "I-A green", "I-A white", "I-A green")
        play(s, "samurai square E2")
        assert not s.is_terminal() and s.banked_relics() == 4

    def test_the_samurai_wins_at_the_third_capture(self):
        s = turn(
            "Meditate",
            ninja=Ninja(square="J4"),
            samurai=Samurai(square="K7"),
            tiles="green",
            captured=2,
        )
        discs(s, "K4")
        enter(s, "II-A green")
        assert s.is_terminal() and s.winner == SAMURAI and list(s.returns()) == [-1.0, 1.0]
        assert s.current_player == -1

    def test_turn_limit_is_a_draw_or_dawn_for_the_samurai(self):
        # G20: the rulebook has no limit; environments stop after max_turns.
        for outcome, winner, returns in (("draw", -1, [0.0, 0.0]), ("samurai", 1, [-1.0, 1.0])):
            g = make_game("castle_nightingale", max_turns=3, on_turn_limit=outcome)
            s = turn(ninja=Ninja(square="J5"), game=g, turn=3)
            _quick_turn(s)
            assert s.is_terminal() and s.winner == winner and list(s.returns()) == returns
            assert s.truncated == (outcome == "draw")
            s = turn(ninja=Ninja(square="J5"), game=g, turn=2)
            _quick_turn(s)
            assert not s.is_terminal() and s.turn == 3


# ==================================================================================== information
class TestInformation:
    def test_the_samurai_sees_nothing_of_the_ninjas_hand_tokens_or_vase_contents(self):
        def samurai_views(ninja: Ninja, **kw):
            s = turn(ninja=replace(ninja, square="J5"), **kw)
            views = [s.observation(SAMURAI)]
            discs(s, "K5", "K4")
            views.append(s.observation(SAMURAI))
            return views

        base = samurai_views(ninja=Ninja(hand=["Supply Cache", "Sprint", "Vanish"]))
        other = samurai_views(
            ninja=Ninja(hand=["Supply Cache", "Scout", "Meditate"], deck=["Sprint"]),
            vases={"D1": False, "G1": True, "K2": True, "A5": True, "K6": False},
        )
        for a, b in zip(base, other, strict=True):
            assert np.array_equal(a, b)
        # hand and stack differ, yet the ninja sees the difference
        s1 = turn(ninja=Ninja(square="J5", hand=["Supply Cache", "Sprint", "Vanish"]))
        s2 = turn(ninja=Ninja(square="J5", hand=["Supply Cache", "Scout", "Meditate"]))
        assert not np.array_equal(s1.observation(NINJA), s2.observation(NINJA))

    def test_the_ninja_sees_nothing_of_the_samurais_programming(self):
        def ninja_view(card, tile, tokens):
            s = turn(
                ninja_card=None,
                samurai_card=card,
                tiles=tile,
                samurai=Samurai(tokens=tokens),
                samurai_stack_dealt=True,
                ninja=Ninja(square="J5", hand=["Sprint", "Vanish", "Meditate"]),
            )
            assert s.decision_kind == "prog_n_card"
            return s.observation(NINJA)

        a = ninja_view("Forced March", "red", ["Hound"])
        b = ninja_view("Patrol", "green", ["Iron Bar"])
        assert np.array_equal(a, b)

    def test_the_ninja_learns_a_colour_is_safe_when_it_steps_on_it_undetected(self):
        s = turn("Vanish", ninja=Ninja(square="J5", tokens=["Blowgun"]), tiles="white")
        play(s, "ninja starts on J5")
        green, yellow = COLOURS.index("green"), COLOURS.index("yellow")
        assert obs(s, NINJA)["tile_not_programmed"].sum() == 0
        discs(s, "K5", "K6")
        o = obs(s, NINJA)
        assert o["tile_not_programmed"][green] == o["tile_not_programmed"][yellow] == 1
        rng = np.random.default_rng(0)
        for _ in range(20):  # the ninja's samples never programme a colour known safe
            sample = s.info_set(NINJA).sample(rng)
            assert not {green, yellow} & set(sample.programmed_tiles())
        assert obs(s, SAMURAI)["tile_programmed"][COLOURS.index("white")] == 1

    def test_samples_of_the_samurais_view_keep_what_he_knows(self):
        s = turn(
            ninja=Ninja(square="J5"),
            samurai=Samurai(knows=["D1"], tokens=["Hound"]),
            vases={"D1": True},
        )
        play(s, "pass")
        rng = np.random.default_rng(1)
        hands = set()
        for _ in range(20):
            sample = s.info_set(SAMURAI).sample(rng)
            assert sample.vase_content[vase_token(s, "D1")]
            assert np.array_equal(sample.observation(SAMURAI), s.observation(SAMURAI))
            hands.add(tuple(sorted(sample.n_hand)))
        assert len(hands) > 1  # the ninja's hand is unknown to him


# ============================================================================ the scenario builder
class TestConfig:
    def test_variant_options_are_validated_with_a_one_line_error(self):
        # Every option is checked when the game is made; a bad value gets a one-line error.
        for bad in (
            {"keep_last_disc": "maybe"},
            {"keep_last_disc": 2},
            {"merge_zones_across_seams": None},
            {"random_layout": "sometimes"},
            {"lockdown_reopen": "two"},
            {"lockdown_reopen": True},
            {"lockdown_needs_trace": 0.5},
            {"never_force_token": ""},
        ):
            with pytest.raises(InvalidConfigError) as err:
                make_game("castle_nightingale", **bad)
            (key,) = bad
            assert key in str(err.value) and "\n" not in str(err.value)
        assert make_game("castle_nightingale").config == {
            "side": "A",
            "random_layout": False,
            "max_turns": 60,
            "on_turn_limit": "draw",
        }  # defaults: the rulebook; the recorded config of the default game is unchanged
        g = make_game(
            "castle_nightingale",
            keep_last_disc=True,
            lockdown_reopen="one_per_board",
            lockdown_needs_trace=True,
            never_force_token=True,
        )
        assert g.config["keep_last_disc"] is True
        assert g.config["lockdown_needs_trace"] is g.config["never_force_token"] is True
        assert g.config["lockdown_reopen"] == "one_per_board"
        assert make_game("castle_nightingale", **g.config) == g
        # on/off options read like every game's (core.options.parse_bool)
        assert make_game("castle_nightingale", never_force_token="yes").never_force_token is True
        assert make_game("castle_nightingale", random_layout="no").config == GAME.config


class TestScenarioBuilder:
    def test_build_keeps_every_invariant_and_rejects_impossible_positions(self):
        s = build(
            GAME,
            samurai=Samurai(square="K8"),
            discs=["A1", "B1"],
            vases={"C1": True},
            banked=(True,),
        )
        check_invariants(s)
        assert s.vase_where.count(BANKED) == 1 and sum(s.vase_content) == 6
        assert labels(s, [s.samurai_sq]) == ["K8"] and s.decision_kind == "prog_s_card"
        for bad in (
            {"samurai": Samurai(square="C5")},  # an open passage
            {"samurai": Samurai(square="D1")},  # a vase
            {"ninja": Ninja(square="A1"), "discs": ["B1"]},
            {"closed": ["A1"]},
            {"vases": {"A1": True}, "banked": (True,) * 6},
            {"ninja": Ninja(hand=["Sprint", "Sprint", "Vanish"])},
            {"ninja": "A1"},  # a square, not a record
            {"ninja_hand": ["Sprint"]},  # not a field
        ):
            try:
                build(GAME, **bad)
            except ValueError:
                continue
            raise AssertionError(f"build accepted {bad}")

    def test_build_starts_from_a_legal_state_and_refuses_unknown_fields_in_one_line(self):
        s = build()  # the default game, seed 0: the setup's deal and the documented defaults
        assert s.game == GAME and s.decision_kind == "prog_s_card" and s.turn == 1
        fresh = GAME.new_state(0)
        while fresh.decision_kind != "prog_s_card":
            fresh.apply(int(fresh.legal_actions()[0]))
        assert s.n_hand == fresh.n_hand and s.s_hand == fresh.s_hand  # dealt at setup, kept
        assert s.n_equip == fresh.n_equip and s.vase_content == fresh.vase_content
        with pytest.raises(ValueError) as err:
            build(GAME, samurai_hand=["Patrol"], colour="red")
        message = str(err.value)
        assert "\n" not in message and "colour, samurai_hand" in message
        assert all(field in message for field in FIELDS)

    def test_contextual_names_are_unique_within_every_decision(self):
        rng = np.random.default_rng(7)
        for seed in range(6):
            s = GAME.new_state(seed)
            while not s.is_terminal() and s.turn < 8:
                here = legal_names(s)
                assert len(set(here)) == len(here), (s.decision_kind, here)
                s.apply(int(rng.choice(s.legal_actions())))
