"""Castle Nightingale observations: each player's information state as one flat vector.

Built only from public facts and the observer's own knowledge (data sheet section 8): the board,
trap doors, vase positions, discs, figurines, face-up and revealed tiles, discard piles, revealed
cards, token counts and publicly used tokens; plus, for the observer only, its hand, programmed
card, tokens (and the ones it spent face down or knows at the bottom of its stack), the vase
contents it has seen, and what it has learned (the samurai: the ninja's hand seen from the
Watchtower; the ninja: which colours it knows to be programmed or safe this turn).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

import numpy as np

from boardgames_rl.core.observation import Field, ObservationSpec
from boardgames_rl.games.castle_nightingale import cards as C
from boardgames_rl.games.castle_nightingale.actions import MAX_ZONES

if TYPE_CHECKING:
    from boardgames_rl.games.castle_nightingale.state import NightingaleState

NINJA, SAMURAI = 0, 1
HAND, PROGRAMMED, FACE_UP = 0, 1, 2
STOLEN, BANKED = -1, -2

SQUARE_FEATURES = (
    "red", "blue", "green", "yellow", "purple", "white", "passage", "trap door closed",
    "vase icon", "vase token", "vase known relic", "vase known empty", "vase seen by ninja",
    "vase seen by samurai", "disc", "disc placed this turn", "ninja figurine", "samurai figurine",
    "start square this turn", "Watch Fire zone (active)", "Watch Fire zone (next turn)",
    "samurai's zone", "decision zone",
)
FLAG_NAMES = (
    "twin", "twin_next", "free_jump", "jump_used", "shuko", "vanish", "decoys", "discs_left",
    "revealed", "target", "entries", "adjust_used", "silent_night", "watchtower", "bell_used",
    "hound_left", "looks_left",
)


def make_spec() -> ObservationSpec:
    from boardgames_rl.games.castle_nightingale.state import DECISIONS

    return ObservationSpec(
        [
            Field("squares", (96, len(SQUARE_FEATURES)), high=1,
                  description="per square: " + ", ".join(SQUARE_FEATURES)),
            Field("role", (2,), description="you are the ninja / the samurai"),
            Field("decision", (len(DECISIONS),), description="kind of the pending decision"),
            Field("decider", (2,), description="ninja / samurai decides"),
            Field("tile_face_up", (6,), description="last turn's tile(s), safe now"),
            Field("tile_programmed", (6,), description="tiles you know to be programmed"),
            Field("tile_not_programmed", (6,), description="tiles you know are not programmed"),
            Field("tile_revealed", (6,), description="programmed tiles turned face up"),
            Field("listen", (6, 2), description="Listen at the Floor answers: no / yes"),
            Field("own_hand", (10,), description="your action cards"),
            Field("own_card", (10,), description="the card you programmed"),
            Field("ninja_card", (10,), description="the ninja's card once revealed"),
            Field("samurai_card", (10,), description="the samurai's card once revealed"),
            Field("ninja_discard", (10,)),
            Field("samurai_discard", (10,)),
            Field("known_opponent_hand", (10,),
                  description="opponent cards you have seen (Watchtower)"),
            Field("deck_sizes", (2,), high=10),
            Field("own_tokens", (7,), description="your equipment tokens"),
            Field("own_spent", (7,), description="your tokens discarded face down"),
            Field("own_bottom", (7,), description="your tokens you know lie under your stack"),
            Field("peek", (7,), description="the two tokens you are looking at"),
            Field("ninja_used", (7,), description="ninja tokens used for their effect"),
            Field("samurai_used", (7,), description="samurai tokens used for their effect"),
            Field("tokens_held", (2,), high=7),
            Field("stacks", (2,), high=7),
            Field("vases", (7,), high=8, description=(
                "stolen this turn, banked, on the board, relics known stolen this turn, relics "
                "known banked, captured ninjas, decision vase known relic")),
            Field("flags", (len(FLAG_NAMES),), high=10, description=", ".join(FLAG_NAMES)),
            Field("turn", (1,), description="turn / turn limit"),
        ]
    )


def encode(s: NightingaleState, observer: int | None) -> np.ndarray:
    """The observation of ``observer`` (0 ninja, 1 samurai); ``None`` = both views concatenated
    (the omniscient state vector)."""
    if observer is None:
        return np.concatenate([encode(s, NINJA), encode(s, SAMURAI)])
    from boardgames_rl.games.castle_nightingale.state import DECISION_INDEX

    g = s.game
    spec = g.observation_spec
    vec = spec.zeros()
    v = spec.view
    b = s.board
    me_ninja = observer == NINJA
    knows = s.ninja_knows if me_ninja else s.samurai_knows

    sq = v(vec, "squares")
    sq[:, :9] = _static_features(b)
    for p in s.closed_passages():
        sq[p, 7] = 1
    for t, where in enumerate(s.vase_where):
        if where >= 0:
            sq[where, 9] = 1
            if knows[t]:
                sq[where, 10 if s.vase_content[t] else 11] = 1
            sq[where, 12] = s.ninja_knows[t]
            sq[where, 13] = s.samurai_knows[t]
    for i in s.discs:
        sq[i, 14] = 1
    for i in s.turn_discs:
        if i in s.discs:
            sq[i, 15] = 1
    if s.ninja_sq >= 0:
        sq[s.ninja_sq, 16] = 1
    if s.samurai_sq >= 0:
        sq[s.samurai_sq, 17] = 1
    if s.start_sq >= 0:
        sq[s.start_sq, 18] = 1
    for col, key in ((19, "watch_fire_zone"), (20, "watch_fire_next")):
        z = s.flags.get(key, -1)
        if z >= 0:
            for i in b.zone_squares[z]:
                sq[i, col] = 1
    if s.samurai_zone >= 0:
        for i in b.zone_squares[s.samurai_zone]:
            sq[i, 21] = 1
    d = s.decision
    if d is not None and "zone" in d:
        for i in b.zone_squares[d["zone"]]:
            sq[i, 22] = 1

    v(vec, "role")[observer] = 1
    if d is not None:
        v(vec, "decision")[DECISION_INDEX[d["kind"]]] = 1
        v(vec, "decider")[d["player"]] = 1
    loc = s.tile_loc
    v(vec, "tile_face_up")[:] = [x == FACE_UP for x in loc]
    v(vec, "tile_revealed")[:] = s.tile_revealed
    if me_ninja:
        v(vec, "tile_programmed")[:] = s.tile_in
        v(vec, "tile_not_programmed")[:] = s.tile_out
    else:
        v(vec, "tile_programmed")[:] = [x == PROGRAMMED for x in loc]
        v(vec, "tile_not_programmed")[:] = [x == HAND for x in loc]
    for colour, answer in s.listen_answers:
        v(vec, "listen")[colour, int(answer)] = 1

    hand = s.n_hand if me_ninja else s.s_hand
    v(vec, "own_hand")[hand] = 1
    own_card = s.n_card if me_ninja else s.s_card
    if own_card >= 0:
        v(vec, "own_card")[own_card] = 1
    if s.n_card >= 0 and s.n_card_shown:
        v(vec, "ninja_card")[s.n_card] = 1
    if s.s_card >= 0 and s.s_card_shown:
        v(vec, "samurai_card")[s.s_card] = 1
    v(vec, "ninja_discard")[s.n_discard] = 1
    v(vec, "samurai_discard")[s.s_discard] = 1
    if not me_ninja:
        v(vec, "known_opponent_hand")[s.known_n_hand] = 1
    v(vec, "deck_sizes")[:] = (len(s.n_deck), len(s.s_deck))

    equip = s.n_equip if me_ninja else s.s_equip
    spent = s.n_spent if me_ninja else s.s_spent
    bottom = s.n_bottom if me_ninja else s.s_bottom
    v(vec, "own_tokens")[equip] = 1
    v(vec, "own_spent")[spent] = 1
    v(vec, "own_bottom")[bottom] = 1
    if d is not None and d["kind"] in ("meditate", "muster") and d["player"] == observer:
        v(vec, "peek")[s.peek] = 1
    v(vec, "ninja_used")[s.n_used] = 1
    v(vec, "samurai_used")[s.s_used] = 1
    v(vec, "tokens_held")[:] = (len(s.n_equip), len(s.s_equip))
    v(vec, "stacks")[:] = (len(s.n_stack), len(s.s_stack))

    vases = v(vec, "vases")
    vases[0] = sum(1 for w in s.vase_where if w == STOLEN)
    vases[1] = sum(1 for w in s.vase_where if w == BANKED)
    vases[2] = sum(1 for w in s.vase_where if w >= 0)
    if me_ninja:
        vases[3] = sum(1 for t, w in enumerate(s.vase_where) if w == STOLEN and s.vase_content[t])
        vases[4] = s.banked_relics()
    vases[5] = s.captured
    if d is not None and "token" in d and knows[d["token"]]:
        vases[6] = 1 + s.vase_content[d["token"]]
    f = s.flags
    flags = v(vec, "flags")
    values = (
        f.get("twin"), f.get("twin_next"), f.get("free_jump"), f.get("jump_used"), f.get("shuko"),
        f.get("vanish"), f.get("decoys"), f.get("discs_left"), f.get("revealed"),
        f.get("target"), f.get("entries"), f.get("adjust_used"), f.get("silent_night"),
        f.get("watchtower"), s.bell_used, f.get("hound_left"),
        f.get("ledger_looks", 0) + f.get("map_looks", 0),
    )
    flags[:] = [min(10.0, float(x or 0)) for x in values]
    v(vec, "turn")[0] = min(1.0, s.turn / g.max_turns)
    return vec


_STATIC: dict[object, np.ndarray] = {}


def _static_features(b) -> np.ndarray:
    """Colour one-hot, passage and vase-icon columns of a board (cached per board)."""
    key = b.layout
    block = _STATIC.get(key)
    if block is None:
        block = np.zeros((96, 9), dtype=np.float32)
        block[np.arange(96), list(b.colour)] = 1
        block[list(b.passages), 6] = 1
        block[list(b.vase_squares), 8] = 1
        _STATIC[key] = block
    return block


_ = (C, MAX_ZONES)
