"""Castle Flutterstone observation: every public fact of the table as one flat ``float32`` vector.

Ghost cards lie face up in front of their owners (rulebook: "place it face-up in front of you"),
so a player's view differs from another's only in the frame: rows are seat-relative (row 0 = the
viewer, then clockwise). The one hidden fact is the order of the face-down draw pile; its
contents by kind are public by counting and are in the vector.

Fields (``game.observation_spec``; ``p`` players, ``goal`` the last step):

==============  ===========  ==========================================================
position        (p, goal+1)  one-hot field of each figure
progress        (p,)         field / goal per figure
finished        (p,)         the figure has reached the last step
helpful_ready   (p, 3)       usable helpful cards by kind (Second go, Moving forward,
                             Ghost jump)
helpful_new     (p, 3)       helpful cards drawn in the holder's last turn (usable at its
                             next turn start)
pesky_held      (p, 3)       pesky cards in front of each player (Eyes closed, Change
                             hands, Pesky ghost)
ghost_giver     (p, p)       row r: who gave player r the Pesky ghost card
turn_player     (p,)         whose turn it is (all 0 once over)
decider         (p,)         who makes the pending decision (the giver places the ghost)
phase           (7,)         decision kind, ``data.PHASES`` order
shots_left      (1,)         bats still to fly this turn
move_points     (4,)         one-hot N of a pending "up to N" move
pending_pesky   (3,)         pesky kind waiting to be given
blocked_band    (4,)         window blocked by the ghost figure (0 = none)
last_outcome    (6,)         landing zone of the last bat (miss .. window, none)
draw_pile       (6,)         cards left in the draw pile by kind
discard_pile    (6,)         discard pile by kind
skill           (p, 4)       sigma theta, sigma v x100, sigma psi, sigma flutter per seat
turn_fraction   (1,)         turns played / max_turns
==============  ===========  ==========================================================

The state vector (``game.state_spec``, for centralised critics) is the table seen from seat 0's
chair (absolute seat order) plus ``finish_order`` (p, p): row s one-hot at the place seat s
took on reaching the last step. Nothing at this table is private, so that is omniscient short
of the pile order and future chance, which nobody knows.
"""

from __future__ import annotations

from array import array
from typing import TYPE_CHECKING, Final

import numpy as np

from boardgames_rl.core.observation import Field, ObservationSpec
from boardgames_rl.games.castle_flutterstone import data
from boardgames_rl.games.castle_flutterstone.data import OVER, PHASES, Card

if TYPE_CHECKING:
    from boardgames_rl.games.castle_flutterstone.game import CastleFlutterstoneGame
    from boardgames_rl.games.castle_flutterstone.state import CastleFlutterstoneState


_F32: Final = np.dtype(np.float32)
"""The vector's dtype (an object: ``dtype=np.float32`` converts the type at every call)."""


def observation_fields(num_players: int, goal: int) -> list[Field]:
    p, g = num_players, goal
    return [
        Field(
            "position",
            (p, g + 1),
            description="one-hot field of each figure; row 0 = you, then clockwise",
        ),
        Field("progress", (p,), description="field / goal per figure"),
        Field("finished", (p,), description="figure has reached the last step"),
        Field("helpful_ready", (p, 3), high=3, description="usable helpful cards by kind"),
        Field(
            "helpful_new",
            (p, 3),
            high=3,
            description="helpful cards drawn this turn (usable next turn)",
        ),
        Field("pesky_held", (p, 3), description="pesky cards in front of each player"),
        Field(
            "ghost_giver",
            (p, p),
            description="row r: who gave player r the Pesky ghost card",
        ),
        Field("turn_player", (p,), description="whose turn it is"),
        Field("decider", (p,), description="who makes the current decision"),
        Field("phase", (len(PHASES),), description="decision kind: " + ", ".join(PHASES)),
        Field("shots_left", (1,), high=4, description="bats still to fly this turn"),
        Field(
            "move_points",
            (data.MAX_MOVE_POINTS + 1,),
            description="one-hot N of a pending 'up to N' move",
        ),
        Field("pending_pesky", (3,), description="pesky card kind waiting to be given"),
        Field(
            "blocked_band",
            (data.WINDOW_BANDS + 1,),
            description="one-hot window blocked by the ghost figure (0 = none)",
        ),
        Field(
            "last_outcome",
            (6,),
            description="one-hot landing zone of the last bat (miss..window, none)",
        ),
        Field(
            "draw_pile",
            (6,),
            high=5,
            description="cards left in the draw pile by kind (public by counting)",
        ),
        Field("discard_pile", (6,), high=5, description="discard pile by kind"),
        Field(
            "skill",
            (p, 4),
            high=50,
            description="sigma theta, sigma v x100, sigma psi, sigma flutter per seat",
        ),
        Field("turn_fraction", (1,), description="turns played / max_turns"),
    ]


def make_spec(num_players: int, goal: int) -> ObservationSpec:
    """Layout of ``state.observation(player)``."""
    return ObservationSpec(observation_fields(num_players, goal))


def make_state_spec(num_players: int, goal: int) -> ObservationSpec:
    """Layout of ``state.state_vector()``: seat 0's view in absolute seat order, then the order
    in which the figures reached the last step."""
    return ObservationSpec(
        [
            *observation_fields(num_players, goal),
            Field(
                "finish_order",
                (num_players, num_players),
                description="row s: one-hot place seat s took on reaching the last step",
            ),
        ]
    )


class Layout:
    """What :func:`encode` reads of its game, as plain fields: the sizes and every field's
    offset in the vector (``game.obs_layout``, made once per game), and the seats' constant
    templates (:func:`_template`)."""

    def __init__(self, game: CastleFlutterstoneGame) -> None:
        at = {name: sl.start for name, sl in game.observation_spec.slices.items()}
        self.num_players: int = game.num_players
        self.goal: int = game.goal
        self.max_turns: int = game.max_turns
        self.size: int = game.observation_spec.size
        self.position: int = at["position"]
        self.progress: int = at["progress"]
        self.finished: int = at["finished"]
        self.helpful_ready: int = at["helpful_ready"]
        self.helpful_new: int = at["helpful_new"]
        self.pesky_held: int = at["pesky_held"]
        self.ghost_giver: int = at["ghost_giver"]
        self.turn_player: int = at["turn_player"]
        self.decider: int = at["decider"]
        self.phase: int = at["phase"]
        self.shots_left: int = at["shots_left"]
        self.move_points: int = at["move_points"]
        self.pending_pesky: int = at["pending_pesky"]
        self.blocked_band: int = at["blocked_band"]
        self.last_outcome: int = at["last_outcome"]
        self.draw_pile: int = at["draw_pile"]
        self.discard_pile: int = at["discard_pile"]
        self.skill: int = at["skill"]
        self.turn_fraction: int = at["turn_fraction"]
        self.skill_features: list[list[float]] = game.skill_features
        self.templates: dict[tuple[int, int], array] = {}


_NO_CARDS: Final = [0, 0, 0]
_NO_PESKY: Final = [False, False, False]


def _template(lay: Layout, player: int, size: int) -> array:
    """The part of ``player`` 's vector that never changes in a game (the seats' skills), made
    once per game, seat and size."""
    key = (player, size)
    out = lay.templates.get(key)
    if out is None:
        n = lay.num_players
        out = array("f", bytes(4 * size))
        at = lay.skill
        for r in range(n):
            out[at + 4 * r : at + 4 * r + 4] = array("f", lay.skill_features[(player + r) % n])
        lay.templates[key] = out
    return out


def encode(state: CastleFlutterstoneState, player: int, size: int = 0) -> np.ndarray:
    """``player`` 's observation (layout ``game.observation_spec``), padded with zeros to
    ``size`` entries when given.

    Written into a copy of the seat's constant template (the skills), a C ``float`` array
    (``array.array``), which numpy then wraps without copying: several times faster than
    building a Python list or writing numpy entries one by one.
    """
    lay = state.game.obs_layout
    n = lay.num_players
    if not 0 <= player < n:
        raise ValueError(f"castle_flutterstone: no seat {player}")
    out = _template(lay, player, size or lay.size)[:]
    width, goal = lay.goal + 1, lay.goal
    o_pos, o_prog, o_fin, o_giver = lay.position, lay.progress, lay.finished, lay.ghost_giver
    o_ready, o_new, o_pesky = lay.helpful_ready, lay.helpful_new, lay.pesky_held
    for r in range(n):
        s = (player + r) % n
        here = state.positions[s]
        out[o_pos + r * width + here] = 1.0
        out[o_prog + r] = here / goal
        if s in state.finished:
            out[o_fin + r] = 1.0
        ready, new, pesky = state.helpful_ready[s], state.helpful_new[s], state.pesky[s]
        if ready != _NO_CARDS or new != _NO_CARDS or pesky != _NO_PESKY:  # most seats hold none
            for k in range(3):
                out[o_ready + 3 * r + k] = ready[k]
                out[o_new + 3 * r + k] = new[k]
                out[o_pesky + 3 * r + k] = 1.0 if pesky[k] else 0.0
        giver = state.ghost_giver[s]
        if giver >= 0:
            out[o_giver + r * n + (giver - player) % n] = 1.0
    if state.phase != OVER:
        out[lay.turn_player + (state.turn_player - player) % n] = 1.0
        out[lay.decider + (state.current_player - player) % n] = 1.0
        out[lay.phase + state.phase] = 1.0
    out[lay.shots_left] = max(state.shots_left, 0)
    out[lay.move_points + state.move_points] = 1.0
    if state.pending_pesky >= 0:
        out[lay.pending_pesky + state.pending_pesky - Card.EYES_CLOSED] = 1.0
    out[lay.blocked_band + state.blocked_band] = 1.0
    out[lay.last_outcome + (state.last_outcome if state.last_outcome >= 0 else 5)] = 1.0
    counts = [0] * 6  # one pass over the pile (not one count per kind)
    for kind in state.draw_pile:
        counts[kind] += 1
    pile, discard_pile, discard = lay.draw_pile, lay.discard_pile, state.discard
    for kind in range(6):  # (entry by entry: cheaper than an array made from a list)
        out[pile + kind] = counts[kind]
        out[discard_pile + kind] = discard[kind]
    out[lay.turn_fraction] = min(1.0, state.turn_count / lay.max_turns)
    return np.frombuffer(out, _F32)


def state_vector(state: CastleFlutterstoneState) -> np.ndarray:
    """The omniscient vector (layout ``game.state_spec``)."""
    g = state.game
    n = g.num_players
    out = encode(state, 0, g.state_spec.size)
    at = g.state_spec.slices["finish_order"].start
    for place, seat in enumerate(state.finished):
        out[at + seat * n + place] = 1.0
    return out
