"""The learning-curve figure: drawn from a run folder's logs, with the even-share line."""

from __future__ import annotations

import json

import pytest

pytest.importorskip("matplotlib")

from boardgames_rl.training.plots import even_share, plot_learning_curve  # noqa: E402


def test_the_even_share_comes_from_the_runs_game(tmp_path):
    """1 / players of the game in config.json (a seat's rate among equals); no line (None) when
    the folder does not say, and the figure is still drawn."""
    (tmp_path / "config.json").write_text(
        json.dumps({"game": "night_of_the_ninja", "config": {"num_players": 5}})
    )
    assert even_share(tmp_path) == pytest.approx(0.2)
    (tmp_path / "config.json").write_text(json.dumps({"game": "castle_nightingale"}))
    assert even_share(tmp_path) == pytest.approx(0.5)
    (tmp_path / "config.json").write_text("{damaged")
    assert even_share(tmp_path) is None
    (tmp_path / "eval.csv").write_text(
        "timesteps,opponent,games,wins,rate,low,high,mean_return,wall_time\n"
        "100,heuristic,10,3,0.3,0.1,0.6,-0.2,5.0\n"
    )
    out = plot_learning_curve(tmp_path)
    assert out.is_file() and out.stat().st_size > 1000
