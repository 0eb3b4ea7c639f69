"""Night of the Ninja's consistency checks of an untrusted state dict (``SPEC.state_checks``, run
by ``State.from_dict`` after the learnt schema): every card, House card, Honor token and seat id
in range, one entry per player where the state keeps one, the 35 Honor tokens and their values
conserved (the stack and the holdings hold each token once; the values are the rulebook's
12 x 2, 12 x 3, 11 x 4), the round's Ninja cards conserved (the dealt cards and the cards set
aside hold each card once), the round within ``max_rounds``."""

from __future__ import annotations

from collections import Counter
from typing import Any

from boardgames_rl.core.dict_checks import flat, ints_within, is_permutation
from boardgames_rl.core.game import Game
from boardgames_rl.games.night_of_the_ninja import cards


def problems(game: Game, d: dict[str, Any]) -> str | None:
    """The first broken rule of the inner state dict ``d``, as one line, or None."""
    n = game.num_players
    v = d.get("round")
    limit = getattr(game, "max_rounds", 10**6)
    if isinstance(v, int) and v > limit:
        return f"round = {v} is past the game's limit {limit}"
    T, C, H = cards.NUM_TOKENS, cards.NUM_CARDS, cards.NUM_HOUSE_CARDS
    values = d.get("token_value")
    if (
        not isinstance(values, list)
        or len(values) != T
        or any(x not in cards.TOKEN_VALUES or isinstance(x, bool) for x in values)
        or Counter(values) != Counter(cards.HONOR_SPLIT)
    ):
        return f"token_value must hold the {T} Honor token values {dict(cards.HONOR_SPLIT)}"
    per_player = (
        "tokens", "known", "round_start_tokens", "house", "dealt_house", "alive", "dealt",
        "hand", "kept", "death", "awards", "asks_total", "asks_left", "commit_done",
    )  # fmt: skip
    for name in per_player:
        if name in d and (not isinstance(d[name], list) or len(d[name]) != n):
            return f"{name} must have {n} entries (one per player)"
    for name in ("tokens", "known", "round_start_tokens", "checks"):
        if not all(isinstance(r, list) for r in d.get(name, [])) or not ints_within(
            d.get(name, []), 0, T
        ):
            return f"{name} holds a token id outside 0..{T - 1}"
    if not ints_within(d.get("stack", []), 0, T):
        return f"stack holds a token id outside 0..{T - 1}"
    if not is_permutation(list(d.get("stack", [])) + flat(d.get("tokens", [])), T):
        return f"the stack and the players' tokens must hold each of the {T} Honor tokens once"
    for name in ("round_start_tokens",):
        if not all(len(set(r)) == len(r) for r in d.get(name, [])):
            return f"{name} lists a token twice"
    for name in ("house", "dealt_house"):
        if not ints_within(d.get(name, []), 0, H):
            return f"{name} holds a House card id outside 0..{H - 1}"
        if len(set(d.get(name, []))) != len(d.get(name, [])):
            return f"{name} deals a House card twice"
    if sorted(d.get("house", [])) != sorted(d.get("dealt_house", [])):
        return "house must hold the House cards dealt (dealt_house), swapped around"
    for name in ("dealt", "received", "hand", "awards"):
        if not all(isinstance(r, list) for r in d.get(name, [])):
            return f"{name} must be a list of lists"
    for name in ("dealt", "received", "hand", "aside", "discards"):
        if not ints_within(d.get(name, []), 0, C):
            return f"{name} holds a Ninja card id outside 0..{C - 1}"
    for name in ("kept", "death", "discard_of", "pick1", "pick2"):
        if not ints_within(d.get(name, []), -1, C):
            return f"{name} holds a Ninja card id outside -1..{C - 1}"
    if not is_permutation(flat(d.get("dealt", [])) + list(d.get("aside", [])), C):
        return f"the dealt cards and the cards set aside must hold each of the {C} Ninja cards once"
    for name in ("committed", "played", "looks", "mystic"):
        rows = d.get(name, [])
        if not all(isinstance(r, list) for r in rows):
            return f"{name} must be a list of lists"
    for row in d.get("committed", []):
        if len(row) != 3 or not ints_within(row[0], 0, C) or not ints_within(row[1], 0, n):
            return f"committed holds a card or owner out of range: {row!r:.40}"
    for row in d.get("played", []):
        if len(row) < 5 or not ints_within(row[0], 0, C) or not ints_within(row[1], 0, n):
            return f"played holds a card or owner out of range: {row!r:.40}"
        if not ints_within(row[3:5], -1, n):
            return f"played holds a target that is not -1 or a seat: {row!r:.40}"
    for name in ("looks", "mystic"):
        for row in d.get(name, []):
            if len(row) < 3 or not ints_within(row[0], -1, n) or not ints_within(row[1], 0, n):
                return f"{name} holds a seat out of range: {row!r:.40}"
    for name in ("gd", "ss", "sm"):
        row = d.get(name, [])
        if row and not ints_within(row[0], 0, n):
            return f"{name} holds an owner that is not a seat: {row!r:.40}"
    if not ints_within(d.get("winners", []), 0, n):
        return "winners must be seats"
    for name in ("ask_seat",):
        v = d.get(name)
        if isinstance(v, int) and not isinstance(v, bool) and not 0 <= v <= n:
            return f"{name} = {v} is not a seat or {n}"
    dec = d.get("decision")
    if isinstance(dec, dict) and "player" in dec and not ints_within(dec["player"], 0, n):
        return f"decision.player = {dec['player']!r} is not a seat"
    return None
