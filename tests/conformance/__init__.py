"""The conformance suite's parametrisation: every registered game in each of its test configs."""

from __future__ import annotations

import json
from typing import Any

from boardgames_rl.registry import game_spec, list_games


def case_id(name: str, config: dict[str, Any]) -> str:
    """Readable parametrisation id, e.g. ``castle_flutterstone[num_players=2]``."""

    def fmt(v: Any) -> str:
        return (
            str(v)
            if isinstance(v, str | int | float | bool)
            else json.dumps(v, separators=(",", ":"))
        )

    inner = ",".join(f"{k}={fmt(v)}" for k, v in config.items()) or "default"
    return f"{name}[{inner}]"


def game_cases() -> list[tuple[str, dict[str, Any]]]:
    """Every registered game with each of its ``test_configs``."""
    return [(name, dict(cfg)) for name in list_games() for cfg in game_spec(name).test_configs]
