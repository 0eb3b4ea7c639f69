"""The White Castle: the game description (configuration, action space, observation)."""

from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any

from boardgames_rl.core.errors import InvalidConfigError
from boardgames_rl.core.game import Game, State
from boardgames_rl.core.observation import Field, ObservationSpec
from boardgames_rl.core.options import parse_bool
from boardgames_rl.games.white_castle.actions import NUM_ACTIONS, generic_name

if TYPE_CHECKING:
    from boardgames_rl.games.white_castle.state import WhiteCastleState


class WhiteCastleGame(Game):
    """The White Castle, 2 to 4 players. Returns +1 winner, -1 others.

    The options are keyword arguments, every value JSON-safe.

    Config:
        num_players: 2-4 (default 2).
        well_one_pays_tiles: a die showing 1 on the Well pays both Well tiles too (default
            False, the literal rulebook reading: "If you place a die with a value greater than
            1, you gain the difference in coins (beyond the 1 value), plus the benefits
            indicated on the 2 tiles in the Well. You always gain 1 Daimyo Seal": a 1 gains
            only the seal). True is the data sheet's reading §14.3 (+1 seal, coins = die - 1 =
            0, both tiles), the default before issue 40. An on/off option
            (``core.options.parse_bool``: also "yes"/"no", "on"/"off", 1/0); kept in ``config``
            only when True.
    """

    name = "white_castle"
    shares_masks = True  # legal.legal_mask builds each mask once per process
    version = 0

    def __init__(self, num_players: int = 2, well_one_pays_tiles: bool = False):
        if (
            isinstance(num_players, bool)
            or not isinstance(num_players, int)
            or not (2 <= num_players <= 4)
        ):
            raise InvalidConfigError(
                f"white_castle: num_players must be an int in 2..4, got {num_players!r}"
            )
        well_one_pays_tiles = parse_bool(well_one_pays_tiles, "white_castle: well_one_pays_tiles")
        extra = {"well_one_pays_tiles": True} if well_one_pays_tiles else {}
        super().__init__(num_players=num_players, **extra)
        self.well_one_pays_tiles = well_one_pays_tiles
        from boardgames_rl.games.white_castle.observation import make_spec

        self.num_players = num_players
        self.player_names = tuple(f"player_{i}" for i in range(num_players))
        self.num_actions = NUM_ACTIONS
        self.observation_spec = make_spec(num_players)
        self.state_spec = ObservationSpec(
            [
                Field(f"view_{i}", (self.observation_spec.size,), high=1000.0)
                for i in range(num_players)
            ]
        )
        self.max_game_length = 1500 * num_players

    def _action_name(self, action: int) -> str:
        return generic_name(action)

    def new_state(self, seed: int | None = None) -> WhiteCastleState:
        from boardgames_rl.games.white_castle.state import WhiteCastleState

        return WhiteCastleState.initial(self, seed)

    def state_from_dict(self, d: Mapping[str, Any]) -> State:
        from boardgames_rl.games.white_castle.state import WhiteCastleState

        return WhiteCastleState.from_state_dict(self, d)


WhiteCastle = WhiteCastleGame
"""Deprecated name of :class:`WhiteCastleGame` (kept so that old imports still work)."""
