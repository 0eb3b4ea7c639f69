"""Castle Flutterstone's consistency checks of an untrusted state dict (``SPEC.state_checks``,
run by ``registry.load_state`` after the learnt schema): card ids, per-player card counts and seats
within their ranges, the deck conserved, the turn counter within ``max_turns``."""

from __future__ import annotations

from typing import Any

from boardgames_rl.core.dict_checks import ints_within
from boardgames_rl.core.game import Game


def problems(game: Game, inner: dict[str, Any]) -> str | None:
    """The first broken rule of the inner state dict ``inner``, as one line, or None."""
    return field_problems(game, inner) or deck_problem(game, inner)


def deck_problem(game: Game, inner: dict[str, Any]) -> str | None:
    """The deck is conserved: every card of it in the pile, the discard, a hand or about to be
    given (a hand-made position may leave cards out of the game: ``scenario.build``)."""
    have = _cards(inner)
    if have is not None and have != _cards(game.new_state(0)._to_dict()):
        return "the cards in the pile, the discard and the hands do not add up to the deck"
    return None


def field_problems(game: Game, inner: dict[str, Any]) -> str | None:
    """The first field of ``inner`` out of its range, as one line, or None."""
    n = game.num_players
    kinds = 6 if getattr(game, "pesky_ghosts", False) else 3
    v = inner.get("turn_count")
    limit = getattr(game, "max_turns", 10**6)
    if isinstance(v, int) and v > limit:
        return f"turn_count = {v} is past the game's limit {limit}"
    if not ints_within(list(inner.get("draw_pile", [])), 0, kinds):
        return f"draw_pile holds a card id outside 0..{kinds - 1}"
    if not ints_within(list(inner.get("discard", [])), 0, 10**4):
        return "discard counts must be integers >= 0"
    for name in ("helpful_ready", "helpful_new"):
        rows = inner.get(name, [])
        if not all(isinstance(row, list) and ints_within(row, 0, 10**4) for row in rows):
            return f"{name} counts must be integers >= 0"
    if not ints_within(list(inner.get("ghost_giver", [])), -1, n):
        return f"ghost_giver entries must be -1 or a seat in 0..{n - 1}"
    finished = inner.get("finished", [])
    if not ints_within(list(finished), 0, n) or len(set(finished)) != len(finished):
        return "finished must list distinct seats"
    goal = int(getattr(game, "goal", 10**4))
    if not ints_within(list(inner.get("positions", [])), 0, goal + 1):
        return f"positions must be fields 0..{goal}"
    for name, lo in (("turn_player", 0), ("winner", -1)):
        v = inner.get(name)
        if isinstance(v, int) and not isinstance(v, bool) and not lo <= v < n:
            return f"{name} = {v} is not {'-1 or ' if lo < 0 else ''}a seat"
    v = inner.get("pending_pesky")
    if isinstance(v, int) and not isinstance(v, bool) and not -1 <= v < 6:
        return f"pending_pesky = {v} is not -1 or a card id"
    return None


def _cards(inner: dict[str, Any]) -> list[int] | None:
    """Cards of each kind in the pile, the discard, the hands and the pending pesky card (the
    deck's composition never changes), or None if the fields are not there to count."""
    try:
        counts = [0] * 6
        for c in inner["draw_pile"]:
            counts[c] += 1
        for k, n in enumerate(inner["discard"]):
            counts[k] += n
        for name in ("helpful_ready", "helpful_new"):
            for row in inner[name]:
                for k, n in enumerate(row):
                    counts[k] += n
        for row in inner["pesky"]:
            for j, held in enumerate(row):
                counts[3 + j] += int(bool(held))
        if inner["pending_pesky"] >= 0:
            counts[inner["pending_pesky"]] += 1
        return counts[:6]
    except (KeyError, IndexError, TypeError):
        return None
