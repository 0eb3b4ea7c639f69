"""Night of the Ninja components as plain tables: Ninja cards, House cards, Honor tokens, and the
kind enums (the Night phases a Ninja card belongs to, the three Houses).

Source: the rulebook and the game's component data sheet (sections 2-4). Effects are implemented
in ``state.py``; ``cards`` is the older name of this module (a re-export).

Ids used everywhere:

* Ninja cards ``0..32``: Spy 1-6 (0-5), Mystic 1-6 (6-11), the six Tricksters numbered 1-6
  (12-17: Shapeshifter, Grave Digger, Troublemaker, Spirit Merchant, Thief, Judge),
  Blind Assassin 1-6 (18-23), Shinobi 1-6 (24-29), Mirror Monk 30, Martyr 31, Mastermind 32.
* House cards ``0..10``: Lotus 1-5 (0-4), Crane 1-5 (5-9), Ronin 10.
* Honor tokens ``0..34``: physical tokens with public identities; their values (2, 3 or 4) are
  dealt at the start of the game and hidden (``HONOR_SPLIT``).
"""

from __future__ import annotations

from enum import IntEnum
from typing import Final, NamedTuple


class Phase(IntEnum):
    """When a Ninja card is used: the five Night phases (0-4, in order), a react, a reveal."""

    SPY = 0
    MYSTIC = 1
    TRICKSTER = 2
    BLIND_ASSASSIN = 3
    SHINOBI = 4
    REACT = 5
    REVEAL = 6


class House(IntEnum):
    """The House of a House card (also a round's winning House: ``LOTUS`` or ``CRANE``)."""

    LOTUS = 0
    CRANE = 1
    RONIN = 2


class NinjaCard(NamedTuple):
    """One Ninja card: ``phase`` 0-4 for the five Night phases, 5 react, 6 reveal."""

    name: str
    phase: Phase
    kind: str
    number: int


SPY, MYSTIC, TRICKSTER, BLIND_ASSASSIN, SHINOBI, REACT, REVEAL = Phase
"""The phases by name (``Phase`` members; the state's fields keep plain ints)."""
NIGHT_PHASES: Final = (SPY, MYSTIC, TRICKSTER, BLIND_ASSASSIN, SHINOBI)
PHASE_NAMES: Final = ("Spy", "Mystic", "Trickster", "Blind Assassin", "Shinobi", "react", "reveal")

TRICKSTER_NAMES: Final = (
    "Shapeshifter",
    "Grave Digger",
    "Troublemaker",
    "Spirit Merchant",
    "Thief",
    "Judge",
)


def _deck() -> tuple[NinjaCard, ...]:
    cards: list[NinjaCard] = []
    for phase, kind in ((SPY, "Spy"), (MYSTIC, "Mystic")):
        cards += [NinjaCard(f"{kind} {k}", phase, kind, k) for k in range(1, 7)]
    cards += [NinjaCard(name, TRICKSTER, name, k + 1) for k, name in enumerate(TRICKSTER_NAMES)]
    for phase, kind in ((BLIND_ASSASSIN, "Blind Assassin"), (SHINOBI, "Shinobi")):
        cards += [NinjaCard(f"{kind} {k}", phase, kind, k) for k in range(1, 7)]
    cards += [
        NinjaCard("Mirror Monk", REACT, "Mirror Monk", 0),
        NinjaCard("Martyr", REACT, "Martyr", 0),
        NinjaCard("Mastermind", REVEAL, "Mastermind", 0),
    ]
    return tuple(cards)


NINJA_CARDS: Final[tuple[NinjaCard, ...]] = _deck()
NUM_CARDS: Final = len(NINJA_CARDS)  # 33
CARD_NAMES: Final[tuple[str, ...]] = tuple(c.name for c in NINJA_CARDS)
CARD_PHASE: Final[tuple[int, ...]] = tuple(int(c.phase) for c in NINJA_CARDS)
CARD_NUMBER: Final[tuple[int, ...]] = tuple(c.number for c in NINJA_CARDS)
CARD_KIND: Final[tuple[str, ...]] = tuple(c.kind for c in NINJA_CARDS)

SHAPESHIFTER, GRAVE_DIGGER, TROUBLEMAKER, SPIRIT_MERCHANT, THIEF, JUDGE = range(12, 18)
MIRROR_MONK: Final = 30
MARTYR: Final = 31
MASTERMIND: Final = 32
REACTS: Final = (MIRROR_MONK, MARTYR)
ACTIVE_CARDS: Final = frozenset(c for c in range(NUM_CARDS) if CARD_PHASE[c] in NIGHT_PHASES)
"""Cards with an effect of their own (every card but the reacts and the Mastermind)."""


def card_of(phase: int, number: int) -> int:
    """Id of the card of a Night phase with a given number (1-6)."""
    return 6 * phase + number - 1


# ----------------------------------------------------------------------------- House cards
LOTUS, CRANE, RONIN_HOUSE = House
HOUSE_NAMES: Final = ("Lotus", "Crane", "Ronin")
RONIN = 10
NUM_HOUSE_CARDS: Final = 11
HOUSE_CARD_NAMES: Final[tuple[str, ...]] = (
    *(f"Lotus {k}" for k in range(1, 6)),
    *(f"Crane {k}" for k in range(1, 6)),
    "Ronin",
)
HOUSE_SHORT: Final[tuple[str, ...]] = (
    *(f"L{k}" for k in range(1, 6)),
    *(f"C{k}" for k in range(1, 6)),
    "R",
)


def house_of(card: int) -> int:
    """House of a House card: ``LOTUS``, ``CRANE`` or ``RONIN_HOUSE`` (as a plain int)."""
    return int(RONIN_HOUSE) if card == RONIN else card // 5


def rank_of(card: int) -> int:
    """Rank 1-5 of a House card (0 for the Ronin)."""
    return 0 if card == RONIN else card % 5 + 1


def houses_for(num_players: int) -> tuple[int, ...]:
    """The House cards in play (data sheet section 2): Lotus and Crane ranks ``1..n//2``, plus
    the Ronin at odd player counts."""
    k = num_players // 2
    cards = [*range(k), *range(5, 5 + k)]
    if num_players % 2:
        cards.append(RONIN)
    return tuple(cards)


# ----------------------------------------------------------------------------- Honor tokens
NUM_TOKENS: Final = 35
TOKEN_VALUES: Final = (2, 3, 4)
HONOR_SPLIT: Final = {2: 12, 3: 12, 4: 11}
"""Honor token values in the stack: 12 x 2, 12 x 3, 11 x 4 (data sheet section 4, ASSUMED)."""

MIN_PLAYERS: Final = 4
MAX_PLAYERS: Final = 11
DRAFT_DEAL: Final = 3
