"""Checking an observation encoder against a reference encoder, field by field."""

from __future__ import annotations

import numpy as np

from boardgames_rl.core.game import State


def assert_same_observation(state: State, player: int, reference: np.ndarray) -> None:
    """``state.observation(player)`` must equal ``reference`` bit for bit (``float32``, same
    shape); on a difference the ``AssertionError`` names the observation fields that differ."""
    got = state.observation(player)
    assert got.dtype == np.float32 and got.shape == reference.shape
    if not np.array_equal(got, reference):
        spec = state.game.observation_spec
        bad = [
            f.name
            for f in spec.fields
            if not np.array_equal(spec.view(got, f.name), spec.view(reference, f.name))
        ]
        raise AssertionError(f"observation of seat {player} differs in {bad}")
