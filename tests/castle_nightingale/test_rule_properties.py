"""Issue 40: two rulebook sentences checked as properties over many random positions.

1. "The ninja must place all their footprint discs." From random positions (board, samurai,
   figurine, trap doors, tokens held, card), random legal play through the ninja's movement always
   ends with as many discs placed as some sequence of moves could place (``footprints``, a plain
   recursion over the ninja's means): every disc whenever some path places them all. The
   exceptions are the rulebook's own (a detection stops the movement) and the data sheet's
   tokens that change the means on the way (Soft Tabi spent at a detection; a Lockpick, which
   only adds ways). "Stop" is legal exactly where no disc can be placed (under
   ``never_force_token``: where none can be placed without spending a token).
2. "If the samurai closes all the secret passages, the ninja is captured, whether they are
   spotted or still hidden in the shadows." From random samurai-phase positions one closing away
   from a lockdown, every lockdown captures the ninja exactly when it is in the castle: it
   entered in this turn's Phase 1 and no capture (or Kawarimi) has taken it out since, whether
   its figurine, its discs or nothing of it is on the board (under ``lockdown_needs_trace``: when
   its figurine or a disc is on the board).
"""

from __future__ import annotations

from dataclasses import replace

import numpy as np
import pytest

from boardgames_rl.games.castle_nightingale import actions as A
from boardgames_rl.games.castle_nightingale import data as C
from boardgames_rl.games.castle_nightingale.scenario import Ninja, Samurai, build
from boardgames_rl.registry import make_game
from tests.castle_nightingale.footprints import Means, most_discs

NAME = "castle_nightingale"
NINJA, SAMURAI = 0, 1
MOVING = ("n_reveal", "w2", "n_action", "n_start", "n_place")
"""Stages of the ninja phase up to the end of its movement."""


def _hand(card: int, rng: np.random.Generator) -> list[int]:
    others = [c for c in range(10) if c != card]
    return [card, *(int(c) for c in rng.choice(others, size=2, replace=False))]


NO_NINJA, NO_SAMURAI = Ninja(square=None), Samurai()
"""The records' defaults (the seed's deal)."""


def _random_position(
    game,
    rng: np.random.Generator,
    next_to_samurai: bool = False,
    ninja: Ninja = NO_NINJA,
    samurai: Samurai = NO_SAMURAI,
    **kw,
):
    """A random turn start: the samurai on a free non-passage square, a spotted ninja figurine
    (next to him if ``next_to_samurai``), some trap doors closed (30% each unless given), the
    rest from the records and ``kw`` (``scenario.build``'s fields); the samurai's hand holds his
    card (``samurai.card``)."""
    seed = int(rng.integers(1 << 30))
    b = game.new_state(seed).board
    vases = set(b.vase_squares)
    floor = [q for q in range(96) if not b.passage[q] and q not in vases]
    samurai_sq = int(rng.choice(floor))
    spots = [q for q in range(96) if q != samurai_sq and q not in vases]
    if next_to_samurai:
        spots = [q for q in b.neighbours[samurai_sq] if q in spots] or spots
    ninja_sq = b.labels[int(rng.choice(spots))]
    kw.setdefault("closed", [b.labels[p] for p in b.passages if rng.random() < 0.3])
    names = [c.name for c in C.SAMURAI_CARDS]
    hand = [names[c] for c in _hand(names.index(samurai.card), rng)]
    return build(
        game,
        seed=seed,
        samurai=replace(
            samurai,
            square=b.labels[samurai_sq],
            stack=[],
            hand=hand if samurai.hand is None else samurai.hand,
        ),
        ninja=replace(ninja, square=ninja_sq if ninja.square is None else ninja.square, stack=[]),
        **kw,
    )


# ------------------------------------------------------------------------- 1. must place all
def _means(s, never_force: bool) -> Means:
    f = s.flags
    held = s.n_equip
    if never_force:  # the target counts no token not yet spent
        rooftop = f["free_jump"] and not f["jump_used"]
        return Means(rooftop, rooftop, f["shuko"], False, 0)
    return Means(
        f["free_jump"] and not f["jump_used"],
        not f["jump_used"],
        f["shuko"],
        C.SHUKO in held,
        1 if any(t != C.SHUKO for t in held) else 0,
    )


def _most(s, never_force: bool) -> int:
    cur = s.turn_discs[-1] if s.turn_discs else s.start_sq
    visited = frozenset([s.start_sq, *s.turn_discs])
    open_p = frozenset(s.open_passages())
    return most_discs(
        s.board, cur, visited, s.samurai_sq, open_p, _means(s, never_force), s.flags["discs_left"]
    )


def _movement_tree(s, never_force: bool, limit: int = 1500) -> list:
    """Every end of the ninja's movement from ``s`` (each legal action of each of its decisions,
    depth first on clones); at every ``place`` decision, "stop" is legal exactly where no disc
    can be placed (by the ways the reading counts)."""
    ends, todo = [], [s]
    while todo:
        cur = todo.pop()
        if cur.stage not in MOVING or cur.is_terminal():
            ends.append(cur)
            continue
        if cur.decision_kind == "place":
            stop = bool(cur.legal_action_mask()[A.PASS])
            assert stop == (_most(cur, never_force) == 0), cur.to_dict()
        for a in cur.legal_actions():
            nxt = cur.clone()
            nxt.apply(int(a))
            todo.append(nxt)
        if len(ends) + len(todo) > limit:
            return []  # too many to walk: the position is skipped
    return ends


@pytest.mark.parametrize("never_force", [False, True], ids=["default", "never_force_token"])
@pytest.mark.parametrize("side", ["A", "B"])
def test_every_legal_movement_places_every_disc_it_can(side, never_force):
    """Every legal sequence of the ninja's decisions through its movement, from random
    positions with the figurine next to the samurai (where a dead end is one step away)."""
    game = make_game(NAME, side=side, never_force_token=never_force)
    rng = np.random.default_rng([40, side == "B", never_force])
    seen = {"ends": 0, "all placed": 0, "paid jump": 0, "shuko": 0}
    for _ in range(30):
        card = int(rng.choice([c for c in range(10) if C.NINJA_CARDS[c].move <= 4]))
        tokens = [int(t) for t in rng.choice(7, size=int(rng.integers(0, 3)), replace=False)]
        if rng.random() < 0.3 and C.SHUKO not in tokens:
            tokens.append(C.SHUKO)
        s = _random_position(
            game,
            rng,
            next_to_samurai=True,
            ninja=Ninja(card=int(card), hand=_hand(card, rng), tokens=tokens),
            samurai=Samurai(
                tokens=[], tiles=str(C.COLOURS[int(rng.integers(6))]), card="Forced March"
            ),
        )
        while s.start_sq < 0 and s.stage in MOVING:  # the ninja's action and its start
            legal = s.legal_actions()
            s.apply(int(legal[rng.integers(len(legal))]))
        if s.stage not in MOVING:
            continue
        target, move, before = _most(s, never_force), s.flags["discs_left"], set(s.n_used)
        for end in _movement_tree(s, never_force):
            placed, used = len(end.turn_discs), set(end.n_used) - before
            assert placed <= move
            seen["ends"] += 1
            if end.flags["revealed"] or C.SOFT_TABI in used:
                continue  # the rulebook's exception (detection), or the means changed mid-way
            if C.LOCKPICK in used or never_force:
                assert placed >= target  # a Lockpick adds ways; the variant may pay for more
            else:
                assert placed == target, (target, end.to_dict())
            seen["all placed"] += placed == move
            seen["paid jump"] += bool(set(end.n_spent))
            seen["shuko"] += C.SHUKO in used
    assert seen["all placed"] > 300 and seen["paid jump"] and seen["shuko"], seen


# ------------------------------------------------------------------------- 2. lockdown capture
def _entered_zone(s, action: int) -> int:
    """The zone a samurai entry enters, or -1 (any other action)."""
    if s.decision_kind in ("entry", "entry_end") and A.ZONE <= action < A.ZONE + A.MAX_ZONES:
        return action - A.ZONE
    return -1


SHORT_MOVES = [c for c in range(10) if C.NINJA_CARDS[c].move <= 2]
"""Ninja cards of 1 or 2 discs: the samurai's effects then often remove every disc."""


@pytest.mark.parametrize("needs_trace", [False, True], ids=["default", "lockdown_needs_trace"])
def test_a_lockdown_captures_the_ninja_in_the_castle_spotted_or_hidden(needs_trace):
    game = make_game(NAME, lockdown_needs_trace=needs_trace)
    rng = np.random.default_rng([40, 2, needs_trace])
    seen = {"spotted": 0, "discs": 0, "no trace": 0, "out": 0}
    for _ in range(400):
        b = game.new_state(0).board
        open_one = int(rng.choice(b.passages))
        card = int(rng.choice(SHORT_MOVES))
        s = _random_position(
            game,
            rng,
            closed=[b.labels[p] for p in b.passages if p != open_one],
            ninja=Ninja(
                card=card, hand=_hand(card, rng), tokens=[C.KAWARIMI] if rng.random() < 0.3 else []
            ),
            samurai=Samurai(
                tokens=[C.IRON_BAR, C.HOUND] if rng.random() < 0.6 else [C.IRON_BAR],
                tiles=str(C.COLOURS[int(rng.integers(6))]),
                card=str(rng.choice(["Bar the Hatch", "Track the Trail", "Lantern Sweep"])),
            ),
        )
        turn, out = s.turn, False  # out: captured or gone by Kawarimi since this turn's entry
        while not s.is_terminal() and s.turn == turn:
            legal = s.legal_actions()
            a = int(legal[rng.integers(len(legal))])
            before = s.clone()
            s.apply(a)
            if all(s.closed) and not all(before.closed):  # a lockdown (in the samurai phase)
                assert before.stage not in MOVING
                fig, entry = before.ninja_sq, _entered_zone(before, a)
                if before.decision_kind == "w8":  # the capture by entry, then the closing
                    gained, present = int(a == A.PASS), False
                elif fig >= 0 and entry == b.zone_of[fig]:  # entering his zone closes it
                    gained, present = 1, False
                else:
                    gained = 0
                    present = before.ninja_on_board() if needs_trace else not out
                assert s.captured == before.captured + gained + present, before.to_dict()
                kind = "out" if out or gained else "spotted" if fig >= 0 else "discs"
                seen["no trace" if kind == "discs" and not before.discs else kind] += 1
            if (
                s.captured > before.captured
                or len(s.n_used) > len(before.n_used)
                and (s.n_used[-1] == C.KAWARIMI)
            ):
                out = True
    assert all(v > 0 for v in seen.values()), seen
