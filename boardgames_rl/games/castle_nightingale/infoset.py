"""Castle Nightingale information sets: sampling full states consistent with one player's view.

What is resampled (data sheet section 8) for the opponent of the observer: its hand and
programmed card (the samurai's Watchtower knowledge is kept in the ninja's hand), its equipment
tokens held and spent face down, the order of its decks and stacks (the tokens it knows lie at the
bottom stay there); for the observer itself: the order of its own deck and stack (known bottom
and peeked tokens kept). Vase contents the observer has not seen are dealt again (6 relics in all;
never a banked relic count that would already have ended the game). The ninja also redraws the
programmed tile(s) consistent with every colour it knows to be programmed or not. The chance
generator is replaced.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, fields
from itertools import combinations
from typing import TYPE_CHECKING, Any, Final

import numpy as np

from boardgames_rl.core.draws import draws_for
from boardgames_rl.core.plain_state import RedealtInfoSet
from boardgames_rl.games.castle_nightingale import data as C
from boardgames_rl.games.castle_nightingale.data import (
    BANKED,
    FACE_UP,
    HAND,
    NINJA,
    PROGRAMMED,
    SAMURAI,
)
from boardgames_rl.games.castle_nightingale.renamed import renamed

if TYPE_CHECKING:
    from boardgames_rl.games.castle_nightingale.game import CastleNightingale  # noqa: F401

Decision = Mapping[str, Any]
"""A pending decision: ``kind``, ``player`` and its public context (``token``, ``when``...)."""


@dataclass(frozen=True)
class TurnFlags:
    """The flags of the turn under way (the engine's ``state.flags``), typed."""

    twin: bool = False
    """Two tiles are programmed this turn (Twin Nightingales)."""
    free_jump: bool = False
    """Rooftop Leap: this turn's jump costs no token."""
    jump_used: bool = False
    jump_paid: bool = False
    """A token was discarded for the jump about to land."""
    shuko: bool = False
    """The next disc may go diagonally."""
    vanish: bool = False
    decoys: int = 0
    discs_left: int = 0
    revealed: bool = False
    """The ninja was seen this turn."""
    watch_fire_used: bool = False
    map_looks: int = 0
    target: int = 0
    """The samurai's zone entries this turn."""
    entries: int = 0
    """The entries he has made."""
    adjust_used: bool = False
    watchtower: bool = False
    hound_left: int = 0
    ledger_looks: int = 0
    reopen_boards: tuple[int, ...] = ()
    twin_next: bool = False
    silent_night: bool = False
    watch_fire_next: int = -1
    watch_fire_zone: int = -1
    """The zone of last turn's Watch Fire marker (-1: none)."""


_FLAG_NAMES: Final = frozenset(f.name for f in fields(TurnFlags))


@dataclass(frozen=True)
class CastleNightingaleView:
    """What one seat knows at one decision, typed: the public board and what that player has
    seen (the info set's ``knowledge``, whose hidden parts are dealt again, so nothing here is
    hidden from it). The heuristic reads these attributes, never the engine's state dict; one
    view is built per info set (``CastleNightingaleInfoSet.view``). Fields are named as the
    engine's (``state.py``); the lists are the knowledge's own (do not change them)."""

    player: int
    decision: Decision
    """The pending decision: ``kind``, ``player``, its public context (``token``, ``when``...)."""
    layout: list[Any]
    turn: int
    flags: TurnFlags
    closed: list[bool]
    """Per passage (``board.passages`` order): its trap door is closed."""
    samurai_sq: int
    samurai_zone: int
    ninja_sq: int
    """The ninja figurine's square (-1: hidden or not in the castle)."""
    start_sq: int
    discs: list[int]
    turn_discs: list[int]
    captured: int
    vase_where: list[int]
    """Per vase token: its square, ``STOLEN`` (taken this turn) or ``BANKED``."""
    vase_content: list[bool]
    """Per vase token: holds a relic (only the entries its player ``*_knows`` are certain)."""
    ninja_knows: list[bool]
    samurai_knows: list[bool]
    tile_loc: list[int]
    """Per colour: ``HAND``, ``PROGRAMMED`` or ``FACE_UP`` (for the ninja, a consistent deal)."""
    tile_revealed: list[bool]
    tile_in: list[bool]
    """Colours the ninja knows programmed this turn."""
    tile_out: list[bool]
    """Colours the ninja knows safe this turn."""
    listen_answers: list[list[int]]
    bell_used: bool
    n_hand: list[int]
    n_card: int
    n_card_shown: bool
    n_discard: list[int]
    n_equip: list[int]
    n_stack: list[int]
    n_used: list[int]
    s_hand: list[int]
    s_card: int
    s_card_shown: bool
    s_discard: list[int]
    s_equip: list[int]
    s_stack: list[int]
    known_n_hand: list[int]
    """Ninja cards the samurai saw with his Watchtower."""

    @classmethod
    def of(cls, player: int, knowledge: Mapping[str, Any]) -> CastleNightingaleView:
        """The view of an info set's ``knowledge`` (a state dict with its hidden parts dealt)."""
        flags: dict[str, Any] = {
            name: tuple(value) if name == "reopen_boards" else value
            for name, value in knowledge["flags"].items()
            if name in _FLAG_NAMES
        }
        return cls(
            player=player,
            decision=knowledge["decision"] or {"kind": "over", "player": -1},
            flags=TurnFlags(**flags),
            **{name: knowledge[name] for name in _VIEW_FIELDS},
        )


_VIEW_FIELDS: Final = tuple(
    f.name for f in fields(CastleNightingaleView) if f.name not in ("player", "decision", "flags")
)


class CastleNightingaleInfoSet(RedealtInfoSet["CastleNightingale"]):
    """One player's information state. ``sample(rng)`` deals everything that player cannot see
    (see the module docstring); ``knowledge`` carries nothing hidden; ``view`` is its typed
    public view (:class:`CastleNightingaleView`, built on first use)."""

    def deal_hidden(self, d: dict[str, Any], player: int, rng: np.random.Generator) -> None:
        _deal_hidden(d, player, rng)

    _view: CastleNightingaleView | None = None

    @property
    def view(self) -> CastleNightingaleView:
        """What this seat knows, typed (the heuristic reads it; built at the first read)."""
        view = self._view
        if view is None:
            view = self._view = CastleNightingaleView.of(self.player, self.knowledge)
        return view


def _deal_hidden(d: dict[str, Any], me: int, rng: np.random.Generator) -> None:
    """Deal again everything ``me`` cannot see; the result depends only on what ``me`` knows."""
    _cards(d, "s" if me == NINJA else "n", rng, known=d["known_n_hand"] if me == SAMURAI else [])
    _own_deck(d, "n" if me == NINJA else "s", rng)
    _tokens(d, "s" if me == NINJA else "n", rng)
    _own_stack(d, "n" if me == NINJA else "s", rng)
    _vases(d, me, rng)
    if me == NINJA:
        _tiles(d, rng)


def _cards(d: dict[str, Any], who: str, rng: np.random.Generator, known: list[int]) -> None:
    """The opponent's hand, hidden programmed card and deck order."""
    hidden_card = d[f"{who}_card"] >= 0 and not d[f"{who}_card_shown"]
    pool = list(d[f"{who}_hand"]) + list(d[f"{who}_deck"])
    if hidden_card:
        pool.append(d[f"{who}_card"])
    rest = sorted(c for c in pool if c not in known)
    draws_for(rng).shuffle(rest)
    n_hand = len(d[f"{who}_hand"])
    slots = n_hand + (1 if hidden_card else 0)
    chosen = list(known) + rest[: slots - len(known)]
    draws_for(rng).shuffle(chosen)
    deck = rest[slots - len(known) :]
    if hidden_card:
        d[f"{who}_card"] = int(chosen.pop())
    d[f"{who}_hand"] = [int(c) for c in chosen]
    d[f"{who}_deck"] = [int(c) for c in deck]


def _own_deck(d: dict[str, Any], who: str, rng: np.random.Generator) -> None:
    deck = sorted(d[f"{who}_deck"])
    draws_for(rng).shuffle(deck)
    d[f"{who}_deck"] = [int(c) for c in deck]


def _tokens(d: dict[str, Any], who: str, rng: np.random.Generator) -> None:
    """The opponent's tokens held, spent face down and in its stack are dealt again."""
    pool = sorted(list(d[f"{who}_equip"]) + list(d[f"{who}_spent"]) + list(d[f"{who}_stack"]))
    draws_for(rng).shuffle(pool)
    n_equip, n_spent = len(d[f"{who}_equip"]), len(d[f"{who}_spent"])
    d[f"{who}_equip"] = [int(t) for t in pool[:n_equip]]
    d[f"{who}_spent"] = [int(t) for t in pool[n_equip : n_equip + n_spent]]
    stack = [int(t) for t in pool[n_equip + n_spent :]]
    d[f"{who}_stack"] = stack
    k = len(d[f"{who}_bottom"])
    d[f"{who}_bottom"] = stack[len(stack) - k :] if k else []
    kind = d["decision"]["kind"] if d["decision"] else ""
    if kind == ("meditate" if who == "n" else "muster"):
        d["peek"] = stack[:2]


def _own_stack(d: dict[str, Any], who: str, rng: np.random.Generator) -> None:
    """The observer's own stack: contents known, order unknown but for the known bottom and the
    tokens it is looking at."""
    stack = list(d[f"{who}_stack"])
    k = len(d[f"{who}_bottom"])
    kind = d["decision"]["kind"] if d["decision"] else ""
    top = 2 if kind == ("meditate" if who == "n" else "muster") else 0
    if top + k >= len(stack):
        return  # every position in the stack is known
    middle = sorted(stack[top : len(stack) - k])
    draws_for(rng).shuffle(middle)
    d[f"{who}_stack"] = stack[:top] + [int(t) for t in middle] + stack[len(stack) - k :]


def _vases(d: dict[str, Any], me: int, rng: np.random.Generator) -> None:
    knows = d["ninja_knows"] if me == NINJA else d["samurai_knows"]
    unknown = [t for t in range(C.NUM_VASES) if not knows[t]]
    values = sorted(d["vase_content"][t] for t in unknown)
    for _ in range(1000):
        draws_for(rng).shuffle(values)
        trial = list(d["vase_content"])
        for t, value in zip(unknown, values):
            trial[t] = bool(value)
        banked = sum(1 for t, w in enumerate(d["vase_where"]) if w == BANKED and trial[t])
        if d["decision"] is None or banked < C.RELICS_TO_WIN:
            d["vase_content"] = trial
            return
    raise RuntimeError("castle_nightingale: no consistent vase deal found")


def _tiles(d: dict[str, Any], rng: np.random.Generator) -> None:
    """The programmed tile(s), redrawn among the samurai's tiles consistent with what the ninja
    knows: tiles it knows programmed stay, tiles it knows safe stay out."""
    loc = d["tile_loc"]
    count = sum(1 for c in range(6) if loc[c] == PROGRAMMED)
    if count == 0:
        return
    candidates = [c for c in range(6) if loc[c] != FACE_UP]
    combos = [
        set(combo)
        for combo in combinations(candidates, count)
        if all(c in combo for c in range(6) if d["tile_in"][c])
        and not any(c in combo for c in range(6) if d["tile_out"][c])
    ]
    chosen = combos[draws_for(rng).below(len(combos))]
    for c in candidates:
        loc[c] = PROGRAMMED if c in chosen else HAND
    dec = d["decision"]
    if dec is not None and "out" in dec:  # Sprint: he may also have kept his tiles (-1)
        options = sorted(chosen) + ([-1] if dec["kind"] == "sprint_in" else [])
        dec["out"] = draws_for(rng).pick(options)


__getattr__ = renamed(__name__, globals())
