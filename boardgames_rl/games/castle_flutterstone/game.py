"""Castle Flutterstone: the game description (validated configuration, action and observation
spaces). The action layout lives in ``actions.py``, the observation layout in ``observation.py``."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

import numpy as np

from boardgames_rl.core.arguments import check_int
from boardgames_rl.core.errors import InvalidConfigError
from boardgames_rl.core.game import Game
from boardgames_rl.core.options import parse_bool
from boardgames_rl.games.castle_flutterstone import data
from boardgames_rl.games.castle_flutterstone.actions import (
    PER_TURN_MAX_DECISIONS,
    ActionLayout,
    generic_names,
)
from boardgames_rl.games.castle_flutterstone.data import PHASES
from boardgames_rl.games.castle_flutterstone.flight import Shooter
from boardgames_rl.games.castle_flutterstone.landing import (
    FORCE_RANGE,
    LANDING_MODELS,
    YAW_GRID_V2,
    SkillProfile,
    resolve_skill,
)
from boardgames_rl.games.castle_flutterstone.observation import Layout, make_spec, make_state_spec

__all__ = [
    "DEFAULT_GRIDS",
    "PER_TURN_MAX_DECISIONS",
    "PHASES",
    "ActionLayout",
    "CastleFlutterstone",
    "CastleFlutterstoneGame",
]

DEFAULT_GRIDS: dict[str, dict[str, Any]] = {
    "v1": {"aim_levels": 7, "force_levels": 11, "yaws": (0.0,)},
    "v2": {"aim_levels": 11, "force_levels": 11, "yaws": YAW_GRID_V2},
}
"""Default flick grid of each landing model: v1 = 7 x 11 (50..80 deg in 5 deg, force in 0.1),
v2 = 5 yaws x 11 elevations (10..60 deg in 5 deg) x 11 forces."""


class CastleFlutterstoneGame(Game):
    """Castle Flutterstone (Drei Magier Spiele, 2016) for 2–4 players.

    The options are keyword arguments, every value JSON-safe.

    Config:
        num_players: 2–4 (default 2).
        pesky_ghosts: play the variant with the 14 pesky ghosts shuffled in (default False).
        landing_model: ``"v2"`` (default, data sheet 7.2b: three windows at distinct places, a
            lateral aim in the action, elevations 10°–60°) or ``"v1"`` (data sheet 7.1–7.7: one
            column of windows, no lateral aim, elevations 50°–80°; reproduces earlier results).
        aim_levels, force_levels: resolution of the flick grid; elevations evenly spaced over
            the model's range, forces over [0, 1] (defaults 11 and 11 in v2, 7 and 11 in v1:
            5° and 0.1 steps).
        yaws: the lateral aims in degrees offered (v2 default ``[-25, -15, 0, 15, 25]``: the
            three windows and the wall's edges; v1 allows only ``[0]``).
        skills: one skill profile for every seat or a list with one per seat; a profile is a
            name ("skilled", "average", "novice") or a dict of sigma values (default "average").
        goal: index of the last step (default 22).
        bridges: rotten bridge fields (default [5, 10]).
        courtyard_optional: a courtyard landing moves *up to* 1 field (default True; False makes
            the 1-field move mandatory).
        play_on: after the winner, play on for the other places (default False).
        max_turns: engine safety cap on the number of turns; a game reaching it ends as a draw
            (truncated), unless a figure has already reached the last step (play-on): then that
            player has won and the others take their places. Default 150 per player, far beyond
            any real game.
        first_player: seat of the youngest player, who starts (default 0).
    """

    name = "castle_flutterstone"
    shares_masks = True  # legal.legal_mask builds each decision's few masks once per game
    version = 0

    def __init__(
        self,
        num_players: int = 2,
        pesky_ghosts: bool = False,
        landing_model: str = "v2",
        aim_levels: int | None = None,
        force_levels: int | None = None,
        yaws: Sequence[float] | None = None,
        skills: str | Mapping[str, float] | Sequence[str | Mapping[str, float]] = "average",
        goal: int = data.GOAL,
        bridges: Sequence[int] = data.BRIDGES,
        courtyard_optional: bool = True,
        play_on: bool = False,
        max_turns: int | None = None,
        first_player: int = 0,
    ):
        if (
            isinstance(num_players, bool)
            or not isinstance(num_players, int)
            or not 2 <= num_players <= 4
        ):
            raise InvalidConfigError(
                f"castle_flutterstone: num_players must be 2, 3 or 4, got {num_players!r}"
            )
        pesky_ghosts = parse_bool(pesky_ghosts, "castle_flutterstone: pesky_ghosts")
        courtyard_optional = parse_bool(
            courtyard_optional, "castle_flutterstone: courtyard_optional"
        )
        play_on = parse_bool(play_on, "castle_flutterstone: play_on")
        if landing_model not in LANDING_MODELS:
            raise InvalidConfigError(
                f"castle_flutterstone: landing_model must be 'v1' or 'v2', got {landing_model!r}"
            )
        geometry = LANDING_MODELS[landing_model]
        grid = DEFAULT_GRIDS[landing_model]
        aim_levels = grid["aim_levels"] if aim_levels is None else aim_levels
        force_levels = grid["force_levels"] if force_levels is None else force_levels
        try:
            yaw_list = [float(y) for y in (grid["yaws"] if yaws is None else yaws)]
        except (TypeError, ValueError) as e:
            raise InvalidConfigError(
                f"castle_flutterstone: yaws must be a list of numbers, got {yaws!r}"
            ) from e
        if (
            not yaw_list
            or len(yaw_list) > 31
            or len(set(yaw_list)) != len(yaw_list)
            or not all(abs(y) <= geometry.yaw_max for y in yaw_list)
        ):
            raise InvalidConfigError(
                "castle_flutterstone: yaws must be 1 to 31 distinct lateral aims in "
                f"[-{geometry.yaw_max:g}, {geometry.yaw_max:g}] degrees for landing model "
                f"{landing_model}, got {yaws!r}"
            )
        for label, levels, low in (
            ("aim_levels", aim_levels, 1),
            ("force_levels", force_levels, 2),
        ):
            if isinstance(levels, bool) or not isinstance(levels, int) or not low <= levels <= 201:
                raise InvalidConfigError(
                    f"castle_flutterstone: {label} must be an int in [{low}, 201], got {levels!r}"
                )
        if isinstance(goal, bool) or not isinstance(goal, int) or not 3 <= goal <= 200:
            raise InvalidConfigError(
                f"castle_flutterstone: goal must be an int in [3, 200], got {goal!r}"
            )
        if isinstance(bridges, str | bytes) or not isinstance(bridges, Sequence):
            raise InvalidConfigError(
                f"castle_flutterstone: bridges must be a list of fields, got {bridges!r:.60}"
            )
        bridges = [check_int(b, "castle_flutterstone: a bridge field") for b in bridges]
        if any(not 1 <= b < goal for b in bridges) or len(set(bridges)) != len(bridges):
            raise InvalidConfigError(
                "castle_flutterstone: bridges must be distinct fields in "
                f"[1, {goal - 1}], got {bridges}"
            )
        if any(b + 1 in bridges for b in bridges) or 1 in bridges or goal - 1 in bridges:
            raise InvalidConfigError(
                "castle_flutterstone: bridges must be single fields with a free field on each side "
                f"(not field 1, not goal-1, not adjacent), got {bridges}"
            )
        if max_turns is None:
            max_turns = 150 * num_players
        if isinstance(max_turns, bool) or not isinstance(max_turns, int) or max_turns < 1:
            raise InvalidConfigError(
                f"castle_flutterstone: max_turns must be a positive int, got {max_turns!r}"
            )
        if (
            isinstance(first_player, bool)
            or not isinstance(first_player, int)
            or not 0 <= first_player < num_players
        ):
            raise InvalidConfigError(
                "castle_flutterstone: first_player must be a seat in "
                f"[0, {num_players}), got {first_player!r}"
            )
        if isinstance(skills, str | Mapping):
            skill_list = [skills] * num_players
        else:
            skill_list = list(skills)
            if len(skill_list) != num_players:
                raise InvalidConfigError(
                    f"castle_flutterstone: skills needs one profile per seat ({num_players}), "
                    f"got {len(skill_list)}"
                )
        try:
            self.skills: tuple[SkillProfile, ...] = tuple(resolve_skill(s) for s in skill_list)
        except (ValueError, TypeError, KeyError) as e:
            raise InvalidConfigError(f"castle_flutterstone: bad skill profile: {e}") from e
        for sk in self.skills:
            values = (sk.sigma_theta, 100 * sk.sigma_v, sk.sigma_psi, sk.sigma_flutter)
            if not all(0 <= v <= 50 for v in values):
                raise InvalidConfigError(
                    f"castle_flutterstone: skill {sk.name!r} sigmas must lie in [0, 50] "
                    "(sigma_v in [0, 0.5]), got " + str(values)
                )
        super().__init__(
            num_players=num_players,
            pesky_ghosts=pesky_ghosts,
            landing_model=landing_model,
            aim_levels=aim_levels,
            force_levels=force_levels,
            yaws=yaw_list,
            skills=[s if isinstance(s, str) else dict(s) for s in skill_list],
            goal=goal,
            bridges=sorted(bridges),
            courtyard_optional=courtyard_optional,
            play_on=play_on,
            max_turns=max_turns,
            first_player=first_player,
        )
        self.num_players = num_players
        self.player_names = tuple(f"player_{i}" for i in range(num_players))
        self.pesky_ghosts = pesky_ghosts
        self.goal = goal
        self.bridges = frozenset(bridges)
        self.courtyard_optional = courtyard_optional
        self.play_on = play_on
        self.max_turns = max_turns
        self.first_player = first_player
        self.landing_model = landing_model
        self.geometry = geometry
        self.aims = (
            np.linspace(geometry.aim_min, geometry.aim_max, aim_levels)
            if aim_levels > 1
            else np.array([geometry.aim_min])
        )
        self.forces = np.linspace(FORCE_RANGE[0], FORCE_RANGE[1], force_levels)
        self.yaws = np.array(yaw_list)
        self.layout = ActionLayout(aim_levels, force_levels, len(yaw_list))
        self._flicks = [
            (float(y), float(a), float(f))
            for y in self.yaws
            for a in self.aims
            for f in self.forces
        ]
        self.num_actions = self.layout.num_actions
        self.deck_counts = {
            card: n
            for card, n in data.DECK_COUNTS.items()
            if card in data.HELPFUL or self.pesky_ghosts
        }
        self.max_game_length = max_turns * PER_TURN_MAX_DECISIONS
        self.observation_spec = make_spec(num_players, goal)
        self.state_spec = make_state_spec(num_players, goal)
        self.skill_features = [
            [sk.sigma_theta, 100.0 * sk.sigma_v, sk.sigma_psi, sk.sigma_flutter]
            for sk in self.skills
        ]
        self._masks: dict[tuple[tuple[int, int], ...], np.ndarray] = {}  # legal.legal_mask's
        self.obs_layout = Layout(self)  # what observation.encode reads of the game
        self._shooters: dict[int, Shooter] = {}  # state._shooter's, by seat and effects
        self._names = generic_names(self.layout, self._flicks, landing_model)

    # ----------------------------------------------------------------------------- actions
    def flick_params(self, action: int) -> tuple[float, float]:
        """(elevation in degrees, force in [0, 1]) of a flick action."""
        _, aim, force = self._flicks[action]
        return aim, force

    def flick_yaw(self, action: int) -> float:
        """Lateral aim in degrees of a flick action (negative = left, towards window 1)."""
        return self._flicks[action][0]

    def _action_name(self, action: int) -> str:
        return self._names[action]

    # ----------------------------------------------------------------------------- factories
    def new_state(self, seed: int | None = None):
        from boardgames_rl.games.castle_flutterstone.state import CastleFlutterstoneState

        return CastleFlutterstoneState.initial(self, seed)

    def state_from_dict(self, d: Mapping[str, Any]):
        from boardgames_rl.games.castle_flutterstone.state import CastleFlutterstoneState

        return CastleFlutterstoneState.from_state_dict(self, d)


CastleFlutterstone = CastleFlutterstoneGame
"""Deprecated name of :class:`CastleFlutterstoneGame` (kept so that old imports still work)."""
