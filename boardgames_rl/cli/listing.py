"""``boardgames-rl list``: the games (options, player counts) and the agents (options, and the
game setups each plays: every one, or for ``pretrained`` the shipped entries' games and player
counts, :func:`boardgames_rl.agents.registry.agent_setups`)."""

from __future__ import annotations

import argparse
import inspect
from typing import Any

from boardgames_rl.cli.common import add_command, format_options, game_options, signature_options
from boardgames_rl.core.errors import GameError


def player_counts(name: str) -> tuple[list[int], int]:
    """(valid player counts, default count) of a registered game; counts are found by asking
    the factory for ``num_players`` = 1..12 when it has that option."""
    from boardgames_rl.registry import game_spec

    factory = game_spec(name).game
    default = factory().num_players
    if "num_players" not in game_options(name):
        return [default], default
    counts = []
    for n in range(1, 13):
        try:
            factory(num_players=n)
        except (GameError, ValueError, TypeError):
            continue
        counts.append(n)
    return counts, default


def _first_line(obj: Any) -> str:
    doc = inspect.getdoc(obj) or ""
    return doc.strip().splitlines()[0] if doc.strip() else ""


def agent_options(name: str, games: list[str]) -> tuple[str, dict[str, str]]:
    """(summary, {game or "all games": options}) of a registered agent. Options are the spec's
    own keys when the agent declares them (``register_agent(..., options=...)``, e.g. ISMCTS's
    ``preset``, the tuned keys of ``pretrained+search``), else the constructor's of the agent
    class it builds (per game, as heuristics differ), else its factory's signature; the game is
    never an option."""
    from boardgames_rl.agents import make_agent
    from boardgames_rl.agents.registry import agent_factory, spec_options
    from boardgames_rl.registry import make_game

    factory = agent_factory(name)
    classes: set[type] = set()
    per_game: dict[str, str] = {}
    declared = False
    for g in games:
        game = make_game(g)
        try:
            agent = make_agent(name, game)
        except Exception as e:  # noqa: BLE001 - e.g. an agent that needs a model file
            options = spec_options(name, game)
            if options is None:
                params = list(signature_options(factory))[1:]  # the first one is the game
                options = {k: v for k, v in signature_options(factory).items() if k in params}
            per_game[g] = f"{format_options(options)}; {e}" if options else str(e)
            continue
        classes.add(type(agent))
        options = spec_options(name, game)
        declared = declared or options is not None
        if options is None:
            options = signature_options(type(agent).__init__, skip=("game",))
        per_game[g] = format_options(options)
    if len(classes) == 1 and not declared and _first_line(next(iter(classes))):
        summary = _first_line(next(iter(classes)))
    elif len(classes) > 1 and not _first_line(factory):
        names = ", ".join(sorted(c.__name__ for c in classes))
        summary = f"a game-specific agent ({names})"
    else:
        summary = _first_line(factory) or _first_line(next(iter(classes), None))
    if len(set(per_game.values())) == 1:
        return summary, {"all games": next(iter(per_game.values()))}
    return summary, per_game


def run(args: argparse.Namespace) -> int:
    from boardgames_rl.agents import list_agents
    from boardgames_rl.agents.registry import agent_setups
    from boardgames_rl.registry import game_spec, list_games

    games = list_games()
    print("games (boardgames-rl play GAME -c key=value ...):")
    for name in games:
        counts, default = player_counts(name)
        print(f"  {name}  {game_spec(name).summary}")
        print(f"      players: {', '.join(map(str, counts))} (default {default})")
        print(f"      options: {format_options(game_options(name))}")
    print("\nagents (spec: NAME or NAME:key=value,key=value):")
    for name in list_agents():
        summary, options = agent_options(name, games)
        print(f"  {name}  {summary}")
        for where, text in options.items():
            print(f"      options ({where}): {text}")
        print(f"      setups: {agent_setups(name) or 'every setup of every game'}")
    for game_name in games:  # a game's own agents (GameSpec.agents), not built here
        for name, factory in sorted(game_spec(game_name).agents.items()):
            params = list(signature_options(factory))[1:]  # the first one is the game
            options = {k: v for k, v in signature_options(factory).items() if k in params}
            print(f"  {name}  ({game_name} only) {_first_line(factory)}")
            print(f"      options ({game_name}): {format_options(options)}")
    return 0


def add_parser(sub: argparse._SubParsersAction) -> None:
    p = add_command(
        sub,
        "list",
        "registered games (player counts, options) and agents (options, the setups they play)",
        ["boardgames-rl list"],
    )
    p.set_defaults(func=run)
