"""Matches and tournaments between agents: seeded games with seats rotated, replayable records,
win rates with intervals and Bradley–Terry (Elo-scale) ratings."""

from boardgames_rl.arena.ladder import (
    LadderRating,
    LadderResult,
    PairRate,
    ladder_agents,
    rate_against_ladder,
)
from boardgames_rl.arena.match import SeriesResult, play_series
from boardgames_rl.arena.play import play_game
from boardgames_rl.arena.ratings import Rating, fit_ratings
from boardgames_rl.arena.records import GameRecord, ReplayMismatchError, load_records, replay
from boardgames_rl.arena.results import (
    AgentStats,
    Pairwise,
    PictureSkippedWarning,
    TournamentResult,
)
from boardgames_rl.arena.stats import wilson_interval
from boardgames_rl.arena.tournament import TournamentMismatchError, tournament

__all__ = [  # in the order the API reference shows them: what you call, then what it returns
    "play_game",
    "play_series",
    "tournament",
    "rate_against_ladder",
    "ladder_agents",
    "replay",
    "load_records",
    "fit_ratings",
    "wilson_interval",
    "GameRecord",
    "SeriesResult",
    "TournamentResult",
    "LadderResult",
    "Rating",
    "ReplayMismatchError",
    "TournamentMismatchError",
    "AgentStats",
    "Pairwise",
    "LadderRating",
    "PairRate",
    "PictureSkippedWarning",
]
