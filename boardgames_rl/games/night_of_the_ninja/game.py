"""Night of the Ninja: the game description (configuration, action space, observation)."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from boardgames_rl.core.errors import InvalidConfigError
from boardgames_rl.core.game import Game
from boardgames_rl.core.observation import Field, ObservationSpec
from boardgames_rl.core.options import parse_bool
from boardgames_rl.games.night_of_the_ninja import actions, cards
from boardgames_rl.games.night_of_the_ninja.observation import make_spec

MODES = ("game", "round")


def _positive_int(name: str, value: Any, low: int, high: int | None = None) -> int:
    if isinstance(value, bool) or not isinstance(value, int) or value < low:
        raise InvalidConfigError(
            f"night_of_the_ninja: {name} must be an int >= {low}, got {value!r}"
        )
    if high is not None and value > high:
        raise InvalidConfigError(
            f"night_of_the_ninja: {name} must be between {low} and {high}, got {value!r}"
        )
    return value


class NightOfTheNinja(Game):
    """Night of the Ninja: 4 to 11 players, two secret Houses, a draft and a Night of cards.

    Config:
        num_players: 4 to 11 (default 5). House cards by count, Ronin at odd counts.
        mode: ``"game"`` (default): rounds until someone has ``target_score`` Honor points at the
            end of a round (equal highest scores share the victory); ``"round"``: one round only.
        target_score: points that end the game (default 10, the rulebook's).
        max_rounds: safety cap on the number of rounds (default 40); reaching it ends the game as
            a truncation (all returns 0).
        living_targets_only: ``False`` (default, the literal card text): a card that does not
            KILL (Spy, Mystic, Shapeshifter, Troublemaker, Spirit Merchant, Thief) may name a dead
            player; ``True``: the earlier reading, every target is a living player (the killers,
            Judge, Blind Assassin and Shinobi, always need a living one).
        target_learns_look: ``True`` (default): the target of a Mystic learns which of its Ninja
            cards was seen, the target of a Spirit Merchant which of its Honor tokens was looked
            at (the card or token is taken from them at the table); ``False``: the earlier
            reading, the target's observation does not say.

    Returns: mode ``"game"``: +1 for every player sharing the highest final score, -1 for the
    others (0 for everyone after a truncation). Mode ``"round"``: +1 for each player who gained
    Honor points this round, -1 for the others (all 0 if nobody did). See
    :func:`boardgames_rl.games.night_of_the_ninja.honor_shaping` for an optional dense reward.
    """

    name = "night_of_the_ninja"
    version = 0

    def __init__(
        self,
        num_players: int = 5,
        mode: str = "game",
        target_score: int = 10,
        max_rounds: int = 40,
        living_targets_only: bool = False,
        target_learns_look: bool = True,
    ):
        n = _positive_int("num_players", num_players, cards.MIN_PLAYERS, cards.MAX_PLAYERS)
        if mode not in MODES:
            raise InvalidConfigError(
                f"night_of_the_ninja: mode must be one of {MODES}, got {mode!r}"
            )
        _positive_int("target_score", target_score, 1)
        _positive_int("max_rounds", max_rounds, 1)
        living_targets_only = parse_bool(
            living_targets_only, "night_of_the_ninja: living_targets_only"
        )
        target_learns_look = parse_bool(
            target_learns_look, "night_of_the_ninja: target_learns_look"
        )
        super().__init__(
            num_players=n,
            mode=mode,
            target_score=target_score,
            max_rounds=max_rounds,
            living_targets_only=living_targets_only,
            target_learns_look=target_learns_look,
        )
        self.num_players = n
        self.mode = mode
        self.target_score = target_score
        self.max_rounds = 1 if mode == "round" else max_rounds
        self.living_targets_only = living_targets_only
        self.target_learns_look = target_learns_look
        self.player_names = tuple(f"player_{i}" for i in range(n))
        self.layout = actions.layout(n)
        self.num_actions = self.layout.num_actions
        self.house_cards = cards.houses_for(n)
        self.observation_spec = make_spec(n)
        self.state_spec = ObservationSpec(
            [Field(f"view_{i}", (self.observation_spec.size,), high=140) for i in range(n)]
        )
        # upper bound per round: draft 2n, commitments <= 3 asks x 5 phases x n, resolutions of
        # at most 2n + 1 cards with <= 6 decisions each (a Grave Digger card played now nests),
        # the kept-Trickster questions
        self.max_game_length = self.max_rounds * (29 * n + 16) + 1

    def _action_name(self, action: int) -> str:
        return actions.generic_name(action, self.layout, self.player_names)

    def new_state(self, seed: int | None = None):
        from boardgames_rl.games.night_of_the_ninja.state import NightOfTheNinjaState

        return NightOfTheNinjaState.initial(self, seed)

    def state_from_dict(self, d: Mapping[str, Any]):
        from boardgames_rl.games.night_of_the_ninja.state import NightOfTheNinjaState

        return NightOfTheNinjaState.from_state_dict(self, d)
