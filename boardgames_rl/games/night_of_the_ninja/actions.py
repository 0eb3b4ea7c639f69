"""The flat action space of Night of the Ninja: the same ``Discrete(51)`` for every player count
(sized for 11 players; the seats beyond the table are never legal), so one policy fits them all.

======================  ==========================================================================
ids                     meaning (the pending decision gives the context, see ``naming.py``)
======================  ==========================================================================
``0 .. 32``             a Ninja card: pick / keep in the draft, play, take (Grave Digger),
                        reveal as a react
``33 .. 43``            a player (seat 0..10): target of a card, player named by the
                        Shapeshifter, victim of the Thief
``DONE``                done / no / pass: stop playing this phase, don't swap, keep the Grave
                        Digger's card, don't reveal, spare, no theft, no swap, no react
``YES``                 yes: swap, play the Grave Digger's card now, reveal, kill
``LOOK_HOUSE``          Spirit Merchant looks at the House card
``LOOK_TOKEN``          Spirit Merchant looks at an Honor token
``GIVE_2..GIVE_4``      Spirit Merchant gives one of its tokens worth 2 / 3 / 4 points
======================  ==========================================================================
"""

from __future__ import annotations

from typing import Final, NamedTuple

from boardgames_rl.games.night_of_the_ninja.cards import CARD_NAMES, MAX_PLAYERS, NUM_CARDS

CARD: Final = 0
PLAYER: Final = NUM_CARDS
SPECIALS: Final = (
    "done",
    "yes",
    "look at house",
    "look at honor token",
    "give 2",
    "give 3",
    "give 4",
)


class Layout(NamedTuple):
    """Action ids of one player count."""

    num_players: int
    DONE: int
    YES: int
    LOOK_HOUSE: int
    LOOK_TOKEN: int
    GIVE: int  # GIVE + 0/1/2 = give a token worth 2/3/4
    num_actions: int


def layout(num_players: int) -> Layout:
    """The action ids at a table of ``num_players`` (the layout itself never changes)."""
    base = PLAYER + MAX_PLAYERS
    return Layout(num_players, base, base + 1, base + 2, base + 3, base + 4, base + 7)


def generic_name(action: int, lay: Layout, player_names: tuple[str, ...]) -> str:
    """Context-free name of an action id (unique per id)."""
    if action < PLAYER:
        return f"card {CARD_NAMES[action]}"
    if action < lay.DONE:
        seat = action - PLAYER
        return f"choose {player_names[seat]}" if seat < len(player_names) else f"choose seat {seat}"
    return SPECIALS[action - lay.DONE]
