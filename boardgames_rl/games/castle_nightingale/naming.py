"""Readable names of Castle Nightingale actions in the context of the pending decision.

``NAMING`` gives every decision kind the words of its actions (a :class:`Words`: one template per
action group, ``{}`` for the square, zone, colour or token); :func:`contextual_name` fills them in.
``DECISION_WORDS`` / :func:`decision_words` say what is being decided, :func:`public_name` what
the other seat learns of a move. What ``?`` says is in :mod:`.rules_help`.
"""

from __future__ import annotations

from dataclasses import dataclass, field, replace
from typing import TYPE_CHECKING

from boardgames_rl.core.game import State
from boardgames_rl.games.castle_nightingale import actions as A
from boardgames_rl.games.castle_nightingale.data import (
    COLOURS,
    NINJA_CARDS,
    NINJA_TOKENS,
    SAMURAI_CARDS,
    SAMURAI_TOKENS,
)
from boardgames_rl.games.castle_nightingale.state import as_nightingale_state

if TYPE_CHECKING:
    from boardgames_rl.games.castle_nightingale.state import CastleNightingaleState


@dataclass(frozen=True)
class Words:
    """How one decision names its actions (cards are always "play card" / "programme card")."""

    square: str = "square {}"
    zone: str = "samurai enters zone {}"
    tile: str = "tile {}"
    ninja_token: str = "use {}"
    samurai_token: str = "use {}"
    special: dict[int, str] = field(default_factory=dict)
    """Names of pass / jump / adjust / reveal / clear / +2 that differ from ``SPECIAL_NAMES``."""


_PLAIN = Words()

NAMING: dict[str, Words] = {
    "setup_close": Words(square="close trap door on {}"),
    "setup_start": Words(square="samurai starts on {}"),
    "prog_s_card": _PLAIN,
    "prog_s_tile": Words(tile="programme nightingale tile {}"),
    "prog_n_card": _PLAIN,
    "w2": _PLAIN,
    "bell_out": Words(tile="Alarm Bell: take back {}"),
    "bell_in": Words(tile="Alarm Bell: programme {} instead"),
    "sprint_out": Words(tile="Sprint: take back {}", special={A.PASS: "keep the tiles"}),
    "sprint_in": Words(tile="Sprint: programme {} instead", special={A.PASS: "keep the tiles"}),
    "pick_lock": Words(square="pick the lock on {}"),
    "pebble": Words(square="throw pebble: samurai to {}"),
    "scout": Words(square="scout vase on {}"),
    "listen": Words(tile="listen: is {} programmed?"),
    "meditate": Words(ninja_token="keep {}"),
    "start": Words(square="ninja starts on {}"),
    "place": Words(square="disc -> {}", special={A.PASS: "stop: the unplaced discs go back"}),
    "jump_token": Words(ninja_token="discard {} to jump"),
    "jump_land": Words(square="jump -> {}"),
    "lockpick": Words(square="Lockpick on {}"),
    "map_vase": Words(square="Rice-Paper Map: look at vase on {}"),
    "w4": _PLAIN,
    "w3_end": _PLAIN,
    "decoy": Words(square="decoy disc -> {}"),
    "w5": _PLAIN,
    "lantern_zone": Words(zone="name zone {}"),
    "lantern_choice": _PLAIN,
    "lantern_disc": Words(square="ninja appears on {}"),
    "w6_s": _PLAIN,
    "sandals": Words(special={A.ADJUST_PLUS: "+1 entry"}),
    "w6_n": _PLAIN,
    "entry": _PLAIN,
    "entry_end": Words(special={A.PASS: "end the movement"}),
    "adjust_token": Words(samurai_token="discard {} to adjust"),
    "final_square": Words(square="samurai square {}"),
    "vase_move": Words(square="move the vase to {}"),
    "w8": _PLAIN,
    "confiscate": Words(square="confiscated vase -> {}"),
    "reopen": Words(square="reopen passage {}"),
    "reopen_extra": Words(square="reopen passage {}"),
    "w9": _PLAIN,
    "iron_bar": Words(square="Iron Bar closes {}"),
    "hound": Words(square="Hound removes the disc on {}"),
    "track": Words(square="remove the disc on {}"),
    "bar": Words(square="bar the hatch on {}"),
    "sweep_keep": Words(square="keep the disc on {}"),
    "inspect": Words(square="inspect vase on {}"),
    "inspect_move": Words(
        square="move the inspected vase to {}", special={A.PASS: "leave the vase"}
    ),
    "muster": Words(samurai_token="keep {}"),
    "ledger": Words(square="Ledger: look at vase on {}"),
}
"""Decision kind -> the words of its actions (in the order of ``state.DECISIONS``)."""


def contextual_name(state: CastleNightingaleState, action: int, words: Words | None = None) -> str:
    """The name of ``action`` in the pending decision (in ``words``, default its ``NAMING``)."""
    labels = state.board.labels
    if words is None:
        words = NAMING.get(state.decision["kind"], _PLAIN) if state.decision else _PLAIN
    if action < A.ZONE:
        return words.square.format(labels[action])
    if action < A.NINJA_CARD:
        z = action - A.ZONE
        name = state.board.zone_names[z] if z < state.board.num_zones else f"zone #{z}"
        return words.zone.format(name)
    if action < A.SAMURAI_CARD:
        return f"play card {NINJA_CARDS[action - A.NINJA_CARD].name}"
    if action < A.TILE:
        return f"programme card {SAMURAI_CARDS[action - A.SAMURAI_CARD].name}"
    if action < A.NINJA_TOKEN:
        return words.tile.format(COLOURS[action - A.TILE])
    if action < A.SAMURAI_TOKEN:
        return words.ninja_token.format(NINJA_TOKENS[action - A.NINJA_TOKEN])
    if action < A.PASS:
        return words.samurai_token.format(SAMURAI_TOKENS[action - A.SAMURAI_TOKEN])
    return words.special.get(action, A.SPECIAL_NAMES[action])


DECISION_WORDS: dict[str, str] = {
    "setup_close": "setup: the samurai closes a trap door",
    "setup_start": "setup: the samurai places his figurine (not on a trap door or a vase)",
    "prog_s_card": "programming: the samurai chooses his action card, face down",
    "prog_s_tile": "programming: the samurai chooses the nightingale tile (the colour that sings)",
    "prog_n_card": "programming: the ninja chooses his action card (or uses the Listening Tube)",
    "w2": "ninja's card shown: the samurai may use the Alarm Bell",
    "bell_out": "Alarm Bell: the samurai takes back a programmed tile",
    "bell_in": "Alarm Bell: the samurai programmes another tile in its place",
    "sprint_out": "Sprint: the samurai may take back his programmed tile",
    "sprint_in": "Sprint: the samurai programmes a tile in its place",
    "pick_lock": "Pick the Lock: the ninja opens a closed trap door",
    "pebble": "Thrown Pebble: the ninja moves the samurai into an adjacent zone",
    "scout": "Scout: the ninja looks into a vase",
    "listen": "Listen at the Floor: the ninja asks whether a colour is programmed",
    "meditate": "Meditate: the ninja keeps one of the top two equipment tokens",
    "start": "ninja's movement: he chooses where he starts",
    "place": "ninja's movement: he places his next footprint disc",
    "jump_token": "ninja's jump: he discards an equipment token face down to pay for it",
    "jump_land": "ninja's jump: he lands two squares away",
    "lockpick": "Lockpick: the ninja opens a closed trap door",
    "map_vase": "Rice-Paper Map: the ninja looks into a vase",
    "w4": "the floor sings under the ninja: he may use the Soft Tabi to stay hidden",
    "w3_end": "end of the ninja's movement: he may use an equipment token",
    "decoy": "False Trail: the ninja places a decoy disc",
    "w5": "ninja's movement done: the samurai may use the Paper Lantern",
    "lantern_zone": "Paper Lantern: the samurai names a zone",
    "lantern_choice": "Paper Lantern: the ninja shows himself in that zone or clears its discs",
    "lantern_disc": "Paper Lantern: the ninja chooses the disc he appears on",
    "w6_s": "samurai's movement begins: he may use an equipment token",
    "sandals": "Straw Sandals: the samurai adds one or two zone entries",
    "w6_n": "samurai's movement begins: the ninja may use the Blowgun (one entry less)",
    "entry": "samurai's movement: he enters the next zone",
    "entry_end": "samurai's movement: entries made; he may use a token or end his movement",
    "adjust_token": "samurai's adjustment: he discards an equipment token face down to pay",
    "final_square": "samurai's movement: he chooses his square in the zone he is in",
    "vase_move": "the samurai ended on a vase and looked into it: he moves it on the same board",
    "w8": "capture: the ninja may use the Kawarimi to escape",
    "confiscate": "capture: the samurai puts a confiscated vase back, face down",
    "reopen": "after a lockdown: the samurai reopens a trap door on another board",
    "reopen_extra": "after a lockdown: the samurai reopens one more trap door",
    "w9": "samurai's action step: he may use an equipment token",
    "iron_bar": "Iron Bar: the samurai closes a trap door",
    "hound": "Hound: the samurai removes a footprint disc (two at most)",
    "track": "Track the Trail: the samurai removes a footprint disc",
    "bar": "Bar the Hatch: the samurai closes an open trap door on his floor board",
    "sweep_keep": "Lantern Sweep: the ninja chooses the disc that stays",
    "inspect": "Inspect the Vases: the samurai looks into a vase in or next to his zone",
    "inspect_move": "Inspect the Vases: the samurai may move the vase he looked into",
    "muster": "Muster the Guard: the samurai keeps one of the top two equipment tokens",
    "ledger": "Inventory Ledger: the samurai looks into a vase",
}
"""Decision kind -> what is being decided, in words (for boards and prompts; every kind of
``state.DECISIONS`` has one, checked by a test)."""


def decision_words(state: CastleNightingaleState) -> str:
    """The pending decision in words, with its public counts ("2 discs left", "entry 3 of 4")."""
    if state.decision is None:
        return "game over"
    kind = state.decision["kind"]
    words = DECISION_WORDS[kind]
    f = state.flags
    if kind == "place":
        left = f["discs_left"]
        words += f" ({left} disc{'s' if left != 1 else ''} left)"
    elif kind == "entry":
        words += f" (entry {f['entries'] + 1} of {f['target']})"
    elif kind == "setup_close":
        words += f" ({state.setup_closed + 1} of 2)"
    elif kind == "decoy":
        words += f" ({f['decoys']} left)"
    return words


SECRET_FROM_OPPONENT: dict[str, str] = {
    "prog_s_card": "programmes an action card, face down",
    "prog_s_tile": "programmes a nightingale tile, face down",
    "prog_n_card": "programmes an action card, face down",
    "bell_out": "Alarm Bell: takes back a programmed tile, unseen",
    "bell_in": "Alarm Bell: programmes another tile, unseen",
    "sprint_out": "Sprint: may exchange his programmed tile, unseen",
    "sprint_in": "Sprint: may exchange his programmed tile, unseen",
    "meditate": "Meditate: keeps one of the top two tokens, unseen",
    "muster": "Muster the Guard: keeps one of the top two tokens, unseen",
    "jump_token": "discards an equipment token face down to jump",
    "adjust_token": "discards an equipment token face down to adjust his movement",
}
"""Decisions whose choice the other player does not see: what he learns instead. (The Listening
Tube, used openly in ``prog_n_card``, is named.) Every other decision is public: its effect is on
the board or in the open (checked by a test against the other player's observation)."""


TOLD: dict[str, Words] = {
    "setup_start": Words(square="places his figurine on {}"),
    "start": Words(square="starts on {}"),
    "place": replace(NAMING["place"], square="places a disc on {}"),
    "entry": Words(zone="enters zone {}"),
    "entry_end": Words(zone="enters zone {}", special={A.PASS: "ends his movement"}),
    "setup_close": Words(square="closes the trap door on {}"),
    "inspect": Words(square="looks into the vase on {}"),
    "scout": Words(square="looks into the vase on {}"),
    "final_square": Words(square="stops on {}"),
    "vase_move": Words(square="moves the vase to {}"),
    "inspect_move": replace(NAMING["inspect_move"], square="moves the inspected vase to {}"),
    **{
        window: replace(NAMING[window], special={A.PASS: "uses no equipment token"})
        for window in ("w2", "w4", "w3_end", "w5", "w6_s", "w6_n", "w8", "w9")
    },
}
"""Where a move told to the other player reads better than its menu name (the actor's name
comes first: "samurai: enters zone II-A green")."""


def public_name(state: State, action: int, viewer: int | None) -> str:
    """What ``viewer`` (a seat, or ``None``: omniscient) learns when the player to move plays
    ``action`` in ``s`` (before it is applied), told after the actor's name ("enters zone
    II-A green": ``TOLD``'s words where they differ from the menu's): the whole move for the
    player himself and for an observer; for the other player the same where the choice is public
    (discs, zones, squares, trap doors, tokens used openly), else only that something was done
    (``SECRET_FROM_OPPONENT``).

    Raises:
        ValueError: the game is over (no player to move).
    """
    state = as_nightingale_state(state)
    if state.decision is None:
        raise ValueError("castle_nightingale: the game is over, no action to name")
    kind = state.decision["kind"]
    name = contextual_name(state, action, TOLD.get(kind))
    if viewer is None or viewer == state.decision["player"]:
        return name
    if kind == "prog_n_card" and A.NINJA_TOKEN <= action < A.SAMURAI_TOKEN:
        return name  # the Listening Tube is used openly
    if action in (A.ADJUST_PLUS, A.ADJUST_MINUS):  # the direction shows once he has paid
        return "adjusts his movement by one zone (a token face down pays for it)"
    return SECRET_FROM_OPPONENT.get(kind, name)
