"""Facts of the components that the heuristic's modules share: the House and rank of each House
card, the Ninja card kinds grouped as the rules use them, and the result of a round."""

from __future__ import annotations

from boardgames_rl.games.night_of_the_ninja import data

TIE, NOBODY = 2, 3  # round results besides Lotus (0) / Crane (1), as in ``state.py``
HOUSE = tuple(data.house_of(h) for h in range(data.NUM_HOUSE_CARDS))
RANK = tuple(data.rank_of(h) for h in range(data.NUM_HOUSE_CARDS))

KIND = data.CARD_KIND
INFO_KINDS = ("Spy", "Mystic")
KILL_KINDS = ("Blind Assassin", "Shinobi", "Judge")


def round_result(cur: list[int], living: list[bool], mm: int) -> int:
    """Round result with current House cards ``cur``, survivors ``living``, Mastermind holder."""
    if mm >= 0 and living[mm]:
        h = HOUSE[cur[mm]]
        return NOBODY if h == data.RONIN_HOUSE else h
    # ranks as card ids: Lotus k is card k - 1, Crane k is card k + 4 (the Ronin, card 10, is out)
    lotus = sorted([c for c, ok in zip(cur, living) if ok and c < 5])
    crane = sorted([c - 5 for c, ok in zip(cur, living) if ok and 4 < c < 10])
    for a, b in zip(lotus, crane):
        if a != b:
            return data.LOTUS if a < b else data.CRANE
    if len(lotus) != len(crane):
        return data.LOTUS if len(lotus) > len(crane) else data.CRANE
    return TIE
