"""Readable names of Castle Nightingale actions in the context of the pending decision.

``NAMING`` gives every decision kind the words of its actions (a :class:`Words`: one template per
action group, ``{}`` for the square, zone, colour or token); :func:`contextual_name` fills them in.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import TYPE_CHECKING

from boardgames_rl.games.castle_nightingale import actions as A
from boardgames_rl.games.castle_nightingale.data import (
    COLOURS,
    NINJA_CARDS,
    NINJA_TOKENS,
    SAMURAI_CARDS,
    SAMURAI_TOKENS,
)

if TYPE_CHECKING:
    from boardgames_rl.games.castle_nightingale.state import NightingaleState


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


def contextual_name(s: NightingaleState, action: int) -> str:
    labels = s.board.labels
    words = NAMING.get(s.decision["kind"], _PLAIN) if s.decision else _PLAIN
    if action < A.ZONE:
        return words.square.format(labels[action])
    if action < A.NINJA_CARD:
        z = action - A.ZONE
        name = s.board.zone_names[z] if z < s.board.num_zones else f"zone #{z}"
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
