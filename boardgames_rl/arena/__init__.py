"""Matches between agents: seeded series with seat rotation, win rates with intervals."""

from boardgames_rl.arena.match import GameRecord, SeriesResult, play_game, play_series
from boardgames_rl.arena.stats import wilson_interval

__all__ = ["GameRecord", "SeriesResult", "play_game", "play_series", "wilson_interval"]
