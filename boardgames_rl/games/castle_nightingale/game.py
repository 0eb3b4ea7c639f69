"""Castle Nightingale: the game description (configuration, action space, observation)."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from boardgames_rl.core.errors import InvalidConfigError
from boardgames_rl.core.game import Game
from boardgames_rl.core.observation import Field, ObservationSpec
from boardgames_rl.core.options import parse_bool
from boardgames_rl.games.castle_nightingale import actions as A
from boardgames_rl.games.castle_nightingale.board import get_board, reference_layout
from boardgames_rl.games.castle_nightingale.observation import make_spec

LOCKDOWN_REOPEN = ("three_plus_one", "one_per_board")
"""Values of the ``lockdown_reopen`` option (data sheet G6)."""


class CastleNightingale(Game):
    """Castle Nightingale: 2 players, the ninja (seat 0) against the samurai (seat 1).

    Config:
        side: floor-board side, "A" (default) or "B".
        random_layout: side A only: place the boards in a random order instead of the
            first-game diagram (side B is always placed and rotated at random).
        max_turns: turn limit (the rulebook has none; data sheet G20), default 60.
        on_turn_limit: "draw" (default; reported as truncation) or "samurai" (dawn: he wins).
        keep_last_disc: variant (data sheet G4, default off = the rulebook): no effect of the
            samurai ever removes the last footprint disc on the board.
        lockdown_needs_trace: variant (default off = the rulebook: "If the samurai closes all
            the secret passages, the ninja is captured, whether they are spotted or still hidden
            in the shadows"): a lockdown captures only a ninja with its figurine or a footprint
            disc on the board, so a hidden ninja whose last disc the samurai removed (G4) escapes
            it. Off: it is still in the castle, hidden, and is captured.
        never_force_token: variant (default off = the rulebook: "The ninja must place all their
            footprint discs", a paid jump and a held Shuko counting as ways to do it; once only
            such a token can complete the path, spending it is the move): the jump is a "can"
            ("the ninja can discard one of their equipment tokens ... to perform a jump"), so
            spending is never forced: a step only a later paid jump could complete is refused,
            and where no disc can be placed without spending, the ninja may stop.
        lockdown_reopen: "three_plus_one" (default, data sheet G6: one closed trap door from each
            of the three boards he is not on, then one more from one of them) or
            "one_per_board" (variant: one from each of the four boards, never the trap door
            under the samurai).
        merge_zones_across_seams: variant (data sheet 2.4, default off): same-colour squares
            touching across a floor-board seam form one colour zone.
    """

    name = "castle_nightingale"
    version = 0

    def __init__(
        self,
        side: str = "A",
        random_layout: bool = False,
        max_turns: int = 60,
        on_turn_limit: str = "draw",
        keep_last_disc: bool = False,
        lockdown_reopen: str = "three_plus_one",
        merge_zones_across_seams: bool = False,
        lockdown_needs_trace: bool = False,
        never_force_token: bool = False,
    ):
        if side not in ("A", "B"):
            raise InvalidConfigError(f"castle_nightingale: side must be 'A' or 'B', got {side!r}")
        if isinstance(max_turns, bool) or not isinstance(max_turns, int) or max_turns < 1:
            raise InvalidConfigError(
                f"castle_nightingale: max_turns must be a positive int, got {max_turns!r}"
            )
        if on_turn_limit not in ("draw", "samurai"):
            raise InvalidConfigError(
                "castle_nightingale: on_turn_limit must be 'draw' or 'samurai', "
                f"got {on_turn_limit!r}"
            )
        # on/off options: the one parser of every game (true/false, yes/no, on/off, 1/0)
        random_layout = parse_bool(random_layout, "castle_nightingale: random_layout")
        keep_last_disc = parse_bool(keep_last_disc, "castle_nightingale: keep_last_disc")
        merge_zones_across_seams = parse_bool(
            merge_zones_across_seams, "castle_nightingale: merge_zones_across_seams"
        )
        lockdown_needs_trace = parse_bool(
            lockdown_needs_trace, "castle_nightingale: lockdown_needs_trace"
        )
        never_force_token = parse_bool(never_force_token, "castle_nightingale: never_force_token")
        if lockdown_reopen not in LOCKDOWN_REOPEN:
            raise InvalidConfigError(
                "castle_nightingale: lockdown_reopen must be "
                + " or ".join(repr(v) for v in LOCKDOWN_REOPEN)
                + f", got {lockdown_reopen!r}"
            )
        variants = {  # recorded only when set, so the default game's config stays as it was
            key: value
            for key, value, default in (
                ("keep_last_disc", keep_last_disc, False),
                ("lockdown_reopen", lockdown_reopen, "three_plus_one"),
                ("merge_zones_across_seams", merge_zones_across_seams, False),
                ("lockdown_needs_trace", lockdown_needs_trace, False),
                ("never_force_token", never_force_token, False),
            )
            if value != default
        }
        super().__init__(
            side=side,
            random_layout=random_layout,
            max_turns=max_turns,
            on_turn_limit=on_turn_limit,
            **variants,
        )
        self.side = side
        self.random_layout = random_layout or side == "B"
        self.max_turns = max_turns
        self.on_turn_limit = on_turn_limit
        self.keep_last_disc = keep_last_disc
        self.lockdown_reopen = lockdown_reopen
        self.merge_zones_across_seams = merge_zones_across_seams
        self.lockdown_needs_trace = lockdown_needs_trace
        self.never_force_token = never_force_token
        self.num_players = 2
        self.player_names = ("ninja", "samurai")
        self.num_actions = A.NUM_ACTIONS
        self.observation_spec = make_spec()
        self.state_spec = ObservationSpec(
            [
                Field("ninja_view", (self.observation_spec.size,), high=10),
                Field("samurai_view", (self.observation_spec.size,), high=10),
            ]
        )
        self.max_game_length = max_turns * 120 + 10
        self._labels = get_board(reference_layout("A")).labels

    def _action_name(self, action: int) -> str:
        return A.generic_name(action, self._labels)

    def new_state(self, seed: int | None = None):
        from boardgames_rl.games.castle_nightingale.state import CastleNightingaleState

        return CastleNightingaleState.initial(self, seed)

    def state_from_dict(self, d: Mapping[str, Any]):
        from boardgames_rl.games.castle_nightingale.state import CastleNightingaleState

        return CastleNightingaleState.from_state_dict(self, d)
