"""White Castle information sets: only the castle deck orders and future chance are hidden.

Every other fact is public; :class:`PublicView` is that public part typed for agents (each seat's
holdings as a :class:`SeatView`), built once per information set (``WhiteCastleInfoSet.view``);
the heuristic's value function reads the same :class:`SeatView` of the states it searches
(:func:`seat_view`), never the engine's dicts.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, Final, NamedTuple

import numpy as np

from boardgames_rl.core.draws import draws_for
from boardgames_rl.core.plain_state import RedealtInfoSet
from boardgames_rl.games.white_castle import scoring
from boardgames_rl.games.white_castle.data import ROUNDS

if TYPE_CHECKING:
    from boardgames_rl.games.white_castle.game import WhiteCastleGame  # noqa: F401
    from boardgames_rl.games.white_castle.state import WhiteCastleState

HIDDEN_DECKS: Final = ("steward_deck", "diplomat_deck")
"""The state fields whose order no player knows (their contents are public: cards not yet seen)."""


class SeatView(NamedTuple):
    """One seat's public holdings, read-only.

    A named tuple rather than a frozen dataclass: search leaves build one per seat
    (``seat_view``), and a frozen dataclass's ``__init__`` sets each field through
    ``object.__setattr__``, in both builds (mypyc compiles a dataclass's methods as the
    dataclasses module writes them)."""

    seat: int
    food: int
    iron: int
    pearl: int
    coin: int
    seal: int
    vp: int
    """Points on the scoring track (``points`` is the whole final score now)."""
    pot: int
    """Passage of Time position (0-20)."""
    members: tuple[int, ...]
    """Clan members still in the Domain: courtiers, gardeners, warriors."""
    courtiers: tuple[int, ...]
    """Courtiers at the Gate and on floors 1, 2 and 3."""
    lantern_cards: int
    """Cards in the Lantern area."""
    points: int
    """The seat's final score if the game ended now (``scoring.totals``)."""


@dataclass(frozen=True)
class PublicView:
    """What every player knows of a White Castle position, typed (all but the decks' order)."""

    player: int
    """The seat this view belongs to."""
    round: int
    turns_taken: int
    """Turns played this round (every seat plays 3 per round)."""
    phase: str
    decision: str | None
    """The kind of the pending decision (None once the game is over)."""
    seats: tuple[SeatView, ...]

    @property
    def me(self) -> SeatView:
        return self.seats[self.player]

    @property
    def game_left(self) -> float:
        """The share of the game's turns still to play (1 at the start, 0 at the end)."""
        return game_left(self.round, self.turns_taken, len(self.seats))


def game_left(round_: int, turns_taken: int, num_players: int) -> float:
    """The share of the game's turns still to play in round ``round_`` after ``turns_taken``."""
    turns_total = 3 * ROUNDS
    turns_done = 3 * (round_ - 1) + turns_taken // num_players
    return max(0.0, (turns_total - turns_done) / turns_total)


def seat_view(state: WhiteCastleState, seat: int, points: int) -> SeatView:
    """:class:`SeatView` of ``seat`` in ``state`` (``points``: its ``scoring.totals`` entry)."""
    held = state.players[seat]
    return SeatView(
        seat,
        held["food"],
        held["iron"],
        held["pearl"],
        held["coin"],
        held["seal"],
        held["vp"],
        held["pot"],
        tuple(held["members"]),
        tuple(held["courtiers"]),
        len(held["lantern"]),
        points,
    )


def public_view(state: WhiteCastleState, player: int) -> PublicView:
    """:class:`PublicView` of ``state`` for ``player``."""
    totals = scoring.totals(state)
    decision = state.decision
    return PublicView(
        player,
        state.round,
        state.turns_taken,
        state.phase,
        None if decision is None else decision["kind"],
        tuple(seat_view(state, p, totals[p]) for p in range(state.n)),
    )


class WhiteCastleInfoSet(RedealtInfoSet["WhiteCastleGame"]):
    """Sampling reshuffles the Steward and Diplomat decks and replaces the chance generator.

    ``knowledge`` holds the state with both decks already reshuffled from a fixed generator, so
    an agent holding this information set holds nothing of the true deck order.
    """

    view: PublicView
    """The public facts, typed for agents (built once, with the information set)."""

    def __init__(self, state: WhiteCastleState, player: int):
        super().__init__(state, player)
        self.view = public_view(state, player)

    @classmethod
    def of(cls, state: WhiteCastleState, player: int) -> WhiteCastleInfoSet:
        return cls(state, player)

    def deal_hidden(self, d: dict[str, Any], player: int, rng: np.random.Generator) -> None:
        for key in HIDDEN_DECKS:
            deck = sorted(d[key])
            # rng.shuffle's order: that of [deck[i] for i in rng.permutation(len(deck))]
            draws_for(rng).shuffle(deck)
            d[key] = deck
