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

__all__ = [
    "AgentStats",
    "GameRecord",
    "LadderRating",
    "LadderResult",
    "PairRate",
    "Pairwise",
    "PictureSkippedWarning",
    "Rating",
    "ReplayMismatchError",
    "SeriesResult",
    "TournamentMismatchError",
    "TournamentResult",
    "fit_ratings",
    "ladder_agents",
    "load_records",
    "play_game",
    "play_series",
    "rate_against_ladder",
    "replay",
    "tournament",
    "wilson_interval",
]
