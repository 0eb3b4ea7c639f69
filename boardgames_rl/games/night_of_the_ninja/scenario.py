"""Hand-made Night of the Ninja positions, for rule tests, examples and debugging.

:func:`build` starts from ``game.new_state(seed)`` (a legal state) and overwrites only the named
fields of ``FIELDS`` (an unknown one is refused in one line listing them) into the position asked
for: House cards, the two Ninja cards of every hand (a consistent draft history is made up: the
first card is the first pick, the second the card kept from the right neighbour's pass), the
draft discards, Honor tokens (by value) and the stack, who is alive; then it restarts the engine
at the start of a Night phase (or of the draft), and runs the game's state checks
(``state_checks.problems``, :func:`check_invariants`). :func:`commit` answers a phase's
commitment asks, :func:`play` (from :mod:`boardgames_rl.testing.scenario`) answers decisions by
their contextual names (``state.action_name(a)``), so a test reads like the rulebook::

    from boardgames_rl import make_game
    from boardgames_rl.games.night_of_the_ninja.scenario import build, commit, play

    game = make_game("night_of_the_ninja", num_players=5)
    s = build(game, houses=["L1", "C1", "L2", "C2", "R"],
              hands=[["Spy 1", "Shinobi 2"], ["Blind Assassin 3", "Mystic 2"],
                     ["Shinobi 1", "Spy 4"], ["Mystic 1", "Spy 5"], ["Shapeshifter", "Spy 2"]])
    commit(s, {0: ["Spy 1"]})                  # Spy phase: only player_0 plays a card
    play(s, "Spy 1 looks at player_2")
    commit(s, {1: ["Mystic 2"]})               # Mystic phase: only player_1 plays a card

Cards are named as in ``cards.CARD_NAMES`` ("Spy 3", "Grave Digger", "Mirror Monk"), House cards
as ``"L1".."L5"``, ``"C1".."C5"``, ``"R"`` (or their full names), players by seat.
:func:`check_invariants` checks every conservation and consistency rule of a state (used on
sampled information-set states too).
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from typing import Any

import numpy as np

from boardgames_rl.games.night_of_the_ninja import cards, state_checks
from boardgames_rl.games.night_of_the_ninja.game import NightOfTheNinja
from boardgames_rl.games.night_of_the_ninja.state import (
    LOST,
    RESOLVED,
    SRC_GD,
    SRC_HAND,
    NightOfTheNinjaState,
    compare_houses,
)
from boardgames_rl.testing.scenario import legal_names, play

FIELDS: dict[str, str] = {
    "houses": "the House card of each seat ('L1'..'L5', 'C1'..'C5', 'R' or ids; default the "
    "seed's deal)",
    "hands": "the two Ninja cards of each seat: first pick, then the card kept from the right "
    "neighbour's pass (default the seed's draft, every seat keeping its first option)",
    "discards": "the card each seat discarded in the draft (default the lowest unused ids)",
    "tokens": "the values of the Honor tokens each seat holds (default none)",
    "stack": "values of the top tokens of the stack, in order (the rest shuffled after them)",
    "stack_size": "keep only this many tokens in the stack (the others leave the game, a "
    "position the state checks see with them at the bottom of the stack)",
    "alive": "who is alive, per seat (default everybody)",
    "phase": "'draft' or the Night phase to start: 'spy' (default), 'mystic', 'trickster', "
    "'blind assassin', 'shinobi'",
    "dealt": "with phase='draft', the 3 cards dealt to each seat",
    "kept": "{seat: card}: that seat played its Grave Digger (the first card of its hand) and "
    "keeps card, one of the discards, face down (phase 'blind assassin' or 'shinobi')",
    "round": "the round number (mode 'game': a later round records the public check that every "
    "seat's tokens are below the target score)",
}
"""The fields :func:`build` overwrites, with what each one sets."""

__all__ = [
    "FIELDS",
    "build",
    "play",
    "commit",
    "legal_names",
    "check_invariants",
    "card",
    "house",
    "set_grave_digger_sight",
]

PHASES = {"spy": 0, "mystic": 1, "trickster": 2, "blind assassin": 3, "shinobi": 4}


def card(name: str | int) -> int:
    """Id of a Ninja card given by name (case-insensitive) or id."""
    if isinstance(name, int):
        return name
    lowered = [c.lower() for c in cards.CARD_NAMES]
    if name.lower() not in lowered:
        raise ValueError(f"no Ninja card named {name!r}; choose from {', '.join(cards.CARD_NAMES)}")
    return lowered.index(name.lower())


def house(name: str | int) -> int:
    """Id of a House card given as ``"L1"``, ``"Crane 3"``, ``"R"``/``"Ronin"`` or an id."""
    if isinstance(name, int):
        return name
    short = [h.lower() for h in cards.HOUSE_SHORT]
    full = [h.lower() for h in cards.HOUSE_CARD_NAMES]
    key = name.lower()
    if key in short:
        return short.index(key)
    if key in full:
        return full.index(key)
    raise ValueError(f"no House card named {name!r}")


# ------------------------------------------------------------------------------------ playing
def commit(
    state: NightOfTheNinjaState, plays: Mapping[int, Iterable[str]] | None = None
) -> NightOfTheNinjaState:
    """Answer every commitment ask of the current Night phase: each seat plays the cards listed
    for it (in order), then says "done". Returns ``state`` at the next decision."""
    to_play = {p: [card(c) for c in cs] for p, cs in (plays or {}).items()}
    if state.decision_kind != "commit":
        raise ValueError(f"no commitment pending (decision {state.decision_kind!r})")
    phase = state.phase
    while state.decision_kind == "commit" and state.phase == phase:
        p = state.current_player
        todo = to_play.get(p, [])
        if todo:
            play(state, f"play {cards.CARD_NAMES[todo.pop(0)]}")
        else:
            play(state, "done")
    left = {p: cs for p, cs in to_play.items() if cs}
    if left:
        raise ValueError(f"cards not played (too few asks): {left}")
    return state


def set_grave_digger_sight(
    state: NightOfTheNinjaState, cards: Sequence[str | int]
) -> NightOfTheNinjaState:
    """Replace the two discards a resolving Grave Digger sees (drawn at random by the engine) by
    ``cards`` (discards), at its ``gd_take`` decision. Returns ``state``."""
    if state.decision_kind != "gd_take":
        raise ValueError(f"no Grave Digger take pending (decision {state.decision_kind!r})")
    ids = sorted(card(c) for c in cards)
    if len(ids) != 2 or not set(ids) <= set(state.discards):
        raise ValueError(f"the Grave Digger sees two discards, got {cards!r}")
    state.gd[1:3] = ids
    state._mask = None
    return state


# ------------------------------------------------------------------------------------ invariants
def check_invariants(state: NightOfTheNinjaState) -> None:
    """Raise ``AssertionError`` if the state breaks a conservation or consistency rule."""
    s = state
    g = s.game
    n = g.num_players
    # --- tokens
    held = [t for p in range(n) for t in s.tokens[p]]
    assert len(set(held + s.stack)) == len(held) + len(s.stack), "a token is in two places"
    values = sorted(s.token_value)
    expect = sorted(v for v in cards.TOKEN_VALUES for _ in range(cards.HONOR_SPLIT[v]))
    assert values == expect, "token values are not the 12/12/11 split"
    for p in range(n):
        assert set(s.tokens[p]) <= set(s.known[p]), f"player {p} does not know its tokens"
    for check in s.checks:
        assert s.score_of(check) < g.target_score, f"checked set {check} reaches the target"
    # --- houses
    assert sorted(s.dealt_house) == sorted(g.house_cards), "House deal"
    expected = list(s.dealt_house)
    if s.ss and s.ss[3] == 1:
        a, b = s.ss[1], s.ss[2]
        expected[a], expected[b] = expected[b], expected[a]
    assert s.house == expected, f"houses {s.house} != deal {s.dealt_house} with swap {s.ss}"
    for _who, target, h, pre in s.looks:
        assert h == (s.dealt_house[target] if pre else s.house[target]), "look record"
        if pre:
            assert s.ss and target in s.ss[1:3], "a before-swap look needs a Shapeshifter"
    # --- Ninja cards
    places: list[int] = []
    for p in range(n):
        places += s.hand[p]
        if s.kept[p] >= 0:
            places.append(s.kept[p])
    places += [c for c, _, _ in s.committed]
    places += [r[0] for r in s.played]
    places += s.discards + s.aside
    if s.gd and s.gd[3] >= 0 and s.gd[4] < 0:
        places.append(s.gd[3])  # taken, not yet kept or played
    drafted = s.stage not in ("draft1", "draft2")
    if drafted:
        assert sorted(places) == list(range(cards.NUM_CARDS)), f"cards not conserved: {places}"
    assert len(s.aside) == cards.NUM_CARDS - 3 * n
    dealt_all = sorted(c for p in range(n) for c in s.dealt[p]) + s.aside
    assert sorted(dealt_all) == list(range(cards.NUM_CARDS)), "draft deal"
    passed = s.stage != "draft1"
    for p in range(n):
        if s.pick1[p] >= 0:
            assert s.pick1[p] in s.dealt[p]
        if passed:
            right = (p - 1) % n
            assert sorted(s.received[p]) == sorted(c for c in s.dealt[right] if c != s.pick1[right])
        if s.pick2[p] >= 0:
            assert s.pick2[p] in s.received[p] and s.discard_of[p] in s.received[p]
            assert s.pick2[p] != s.discard_of[p]
    if drafted:
        pile = sorted(s.discard_of)
        taken = s.gd[3] if s.gd else -1
        assert sorted(s.discards + ([taken] if taken >= 0 else [])) == pile, "discard pile"
        for p in range(n):
            origin = {s.pick1[p], s.pick2[p]}
            from_hand = [r[0] for r in s.played if r[1] == p and r[2] == SRC_HAND]
            from_hand += [c for c, o, src in s.committed if o == p and src == SRC_HAND]
            assert set(from_hand) <= origin, f"player {p} played a card it never held"
            assert sorted(s.hand[p] + from_hand) == sorted(origin), f"hand of player {p}"
            gd_cards = [r[0] for r in s.played if r[1] == p and r[2] == SRC_GD]
            gd_cards += [c for c, o, src in s.committed if o == p and src == SRC_GD]
            if s.kept[p] >= 0:
                gd_cards.append(s.kept[p])
            if gd_cards:
                assert s.gd and s.gd[0] == p and gd_cards == [s.gd[3]], "Grave Digger card"
        if s.gd and s.gd[3] >= 0:
            assert s.gd[3] in s.gd[1:3], "the Grave Digger took a card it did not see"
            assert all(c < 0 or c in pile for c in s.gd[1:3]), "Grave Digger saw a non-discard"
        for _who, target, c, time in s.mystic:
            if c >= 0:
                before = {r[0] for r in s.played[:time] if r[1] == target and r[2] == SRC_HAND}
                assert c in {s.pick1[target], s.pick2[target]} - before, "Mystic sight"
    for c, _o, _ in s.committed:
        assert cards.CARD_PHASE[c] == s.phase and s.stage == "commit", "commitment off phase"
    if s.stage == "commit":
        for p in range(n):
            k = sum(1 for _, o, _ in s.committed if o == p)
            done = s.asks_total[p] - s.asks_left[p]
            assert k <= done and (k == done or s.commit_done[p]), "commitment asks"
    # --- round end
    if s.result >= 0 and s.stage == "over":
        living = [p for p in range(n) if s.alive[p]]
        if not s.by_mastermind:
            assert all(cards.MASTERMIND not in s.held(p) for p in living), "unrevealed Mastermind"
            assert s.result == compare_houses([s.house[p] for p in living]), "round result"
    for r in s.played:
        if r[5] == LOST:
            assert not s.alive[r[1]], "a living player's card was lost"


# ------------------------------------------------------------------------------------ building
def build(
    game: NightOfTheNinja | None = None, *, seed: int = 0, **fields: Any
) -> NightOfTheNinjaState:
    """The position ``fields`` describe (names and meanings in ``FIELDS``), made from
    ``game.new_state(seed)`` (``game`` defaults to a 5-player ``NightOfTheNinja()``) at the start
    of a Night phase or of the draft, checked by the game's state checks. ``seed`` also drives
    later chance. An unknown field is refused in one line listing the known ones."""
    unknown = sorted(set(fields) - FIELDS.keys())
    if unknown:
        raise ValueError(
            f"night_of_the_ninja scenario: no field {', '.join(unknown)}; "
            f"the fields are {', '.join(FIELDS)}"
        )
    position = _position(NightOfTheNinja() if game is None else game, seed=seed, **fields)
    checked = position.to_dict()["state"]
    if fields.get("stack_size") is not None:  # the tokens that left the game count as stacked
        present = set(checked["stack"]).union(*checked["tokens"])
        checked["stack"] += [t for t in range(cards.NUM_TOKENS) if t not in present]
    problem = state_checks.problems(position.game, checked)
    if problem is not None:
        raise ValueError(f"night_of_the_ninja scenario: {problem}")
    check_invariants(position)
    return position


def _position(
    game: NightOfTheNinja,
    *,
    houses: Sequence[str | int] | None = None,
    hands: Sequence[Sequence[str | int]] | None = None,
    discards: Sequence[str | int] | None = None,
    tokens: Sequence[Sequence[int]] | None = None,
    stack: Sequence[int] = (),
    stack_size: int | None = None,
    alive: Sequence[bool] | None = None,
    phase: str = "spy",
    dealt: Sequence[Sequence[str | int]] | None = None,
    kept: Mapping[int, str | int] | None = None,
    round: int = 1,
    seed: int = 0,
) -> NightOfTheNinjaState:
    """The unchecked position of :func:`build` (each keyword is a ``FIELDS`` entry)."""
    s = game.new_state(seed)
    n = game.num_players
    rng = np.random.default_rng(seed)
    if hands is None and phase != "draft":  # the seed's draft, each seat keeping its first option
        drafted = s.clone()
        while drafted.stage in ("draft1", "draft2") and drafted.decision is not None:
            drafted.apply(int(drafted.legal_actions()[0]))
        hands = [list(h) for h in drafted.hand]
    if houses is not None:
        hs = [house(h) for h in houses]
        if sorted(hs) != sorted(game.house_cards):
            raise ValueError(
                f"houses must be the House cards in play: "
                f"{[cards.HOUSE_SHORT[h] for h in game.house_cards]}"
            )
        s.dealt_house = list(hs)
        s.house = list(hs)
    _set_tokens(s, tokens, stack, stack_size, rng)
    s.round = round
    if round > 1 and game.mode == "game":
        for held in s.tokens:
            if s.score_of(held) >= game.target_score:
                raise ValueError(
                    f"round {round}: every player must hold less than {game.target_score} "
                    "points (the game went on)"
                )
            if 4 * len(held) >= game.target_score and sorted(held) not in s.checks:
                s.checks.append(sorted(held))
    s.alive = [True] * n if alive is None else [bool(a) for a in alive]
    s.decision = None
    if phase == "draft":
        if dealt is not None:
            deals = [sorted(card(c) for c in cs) for cs in dealt]
            used = [c for cs in deals for c in cs]
            if len(set(used)) != len(used) or any(len(cs) != 3 for cs in deals):
                raise ValueError("dealt: three distinct cards per seat")
            s.dealt = deals
            s.aside = sorted(c for c in range(cards.NUM_CARDS) if c not in used)
        s.stage = "draft1"
        s.ask_seat = 0
        s._mask = None
        s._run()
        return s
    if phase not in PHASES:
        raise ValueError(f"phase must be 'draft' or one of {list(PHASES)}")
    assert hands is not None  # the seed's draft above, for every phase but the draft
    hs2 = [[card(c) for c in h] for h in hands]
    if any(len(h) != 2 for h in hs2):
        raise ValueError("hands: two Ninja cards per seat")
    used = [c for h in hs2 for c in h]
    if discards is None:
        spare = [c for c in range(cards.NUM_CARDS) if c not in used]
        disc = spare[:n]
    else:
        disc = [card(c) for c in discards]
    used += disc
    if len(set(used)) != len(used):
        raise ValueError(f"a card is given twice: {used}")
    for p in range(n):
        s.pick1[p] = hs2[p][0]
        s.pick2[p] = hs2[p][1]
        s.discard_of[p] = disc[p]
        s.received[p] = sorted([hs2[p][1], disc[p]])
    for p in range(n):
        left = (p + 1) % n
        s.dealt[p] = sorted([s.pick1[p], *s.received[left]])
    s.aside = sorted(c for c in range(cards.NUM_CARDS) if c not in used)
    s.hand = [list(h) for h in hs2]
    s.kept = [-1] * n
    s.discards = sorted(disc)
    for name in ("committed", "played", "looks", "mystic", "gd", "ss", "sm"):
        setattr(s, name, [])
    if kept:
        if len(kept) != 1 or PHASES[phase] < cards.BLIND_ASSASSIN:
            raise ValueError("kept: one seat, and a phase after the Trickster phase")
        ((seat, kc),) = kept.items()
        kc = card(kc)
        if s.hand[seat][0] != cards.GRAVE_DIGGER or kc not in s.discards:
            raise ValueError(
                "kept: the seat's first card must be the Grave Digger and the kept "
                "card one of the discards"
            )
        s.hand[seat].pop(0)
        s.discards.remove(kc)
        other = s.discards[0]
        s.played.append([cards.GRAVE_DIGGER, seat, SRC_HAND, -1, -1, RESOLVED])
        s.gd = [seat, *sorted([kc, other]), kc, 0]
        s.kept[seat] = kc
    s.death = [-1 if a else cards.card_of(cards.BLIND_ASSASSIN, 1) for a in s.alive]
    s.awards = [[] for _ in range(n)]
    s.result = -1
    s.by_mastermind = False
    s.phase = PHASES[phase]
    s.stage = "phase_start"
    s.queue = []
    s._mask = None
    s._run()
    return s


def _set_tokens(
    state: NightOfTheNinjaState,
    tokens: Sequence[Sequence[int]] | None,
    stack: Sequence[int],
    stack_size: int | None,
    rng: np.random.Generator,
) -> None:
    n = state.game.num_players
    counts = dict(cards.HONOR_SPLIT)
    wanted = [list(t) for t in (tokens or [[] for _ in range(n)])]
    if len(wanted) != n:
        raise ValueError("tokens: one list of values per seat")
    order: list[int] = []
    for values in [*wanted, list(stack)]:
        for v in values:
            if v not in counts or counts[v] == 0:
                raise ValueError(f"no Honor token worth {v} left (split {cards.HONOR_SPLIT})")
            counts[v] -= 1
            order.append(v)
    rest = [v for v in cards.TOKEN_VALUES for _ in range(counts[v])]
    rng.shuffle(rest)
    order += [int(v) for v in rest]
    state.token_value = [int(v) for v in order]
    k = 0
    state.tokens = []
    for values in wanted:
        state.tokens.append(list(range(k, k + len(values))))
        k += len(values)
    state.known = [sorted(t) for t in state.tokens]
    state.stack = list(range(k, cards.NUM_TOKENS))
    if stack_size is not None:
        state.stack = state.stack[:stack_size]
    state.round_start_tokens = [list(t) for t in state.tokens]
    state.checks = []
