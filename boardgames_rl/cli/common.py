"""Helpers shared by the subcommands: errors, parsers with examples, games and agents from args."""

from __future__ import annotations

import argparse
import inspect
import textwrap
from collections.abc import Callable, Iterable, Sequence
from typing import Any

from boardgames_rl.core.errors import GameError, InvalidConfigError, UnknownAgentError
from boardgames_rl.core.game import Game
from boardgames_rl.core.options import parse_options, split_option


class CliError(Exception):
    """A user-facing runtime error: printed as one line (saying what to do), exit code 1."""


def add_command(
    sub: argparse._SubParsersAction,
    name: str,
    help: str,
    examples: Sequence[str],
    description: str | None = None,
    **kwargs: Any,
) -> argparse.ArgumentParser:
    """A subcommand parser whose ``--help`` ends with worked examples."""
    epilog = "examples:\n" + "\n".join(f"  {e}" for e in examples)
    return sub.add_parser(
        name,
        help=help,
        # the raw formatter keeps the examples as written, so the description is wrapped here
        description=textwrap.fill(description or help, 79),
        epilog=epilog,
        formatter_class=argparse.RawDescriptionHelpFormatter,
        **kwargs,
    )


def option_pair(text: str) -> str:
    """argparse ``type`` for ``-c key=value``: a malformed pair is a usage error (exit 2)."""
    try:
        split_option(text, "-c")
    except InvalidConfigError as e:
        raise argparse.ArgumentTypeError(str(e)) from e
    return text


def positive_int(text: str) -> int:
    """argparse ``type``: an integer >= 1 (anything else is a usage error, exit 2)."""
    try:
        value = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"must be an integer >= 1, got {text!r}") from None
    if value < 1:
        raise argparse.ArgumentTypeError(f"must be an integer >= 1, got {text!r}")
    return value


def add_game_args(p: argparse.ArgumentParser) -> None:
    """The ``game`` positional and the repeatable ``-c key=value`` game options."""
    p.add_argument("game", help="game name (see `boardgames-rl list`)")
    p.add_argument(
        "-c",
        "--config",
        action="append",
        default=[],
        type=option_pair,
        metavar="KEY=VALUE",
        help="game option, repeatable; lists as a,b,c (options: `boardgames-rl list`)",
    )


def add_seed_arg(p: argparse.ArgumentParser, default: int = 0) -> None:
    p.add_argument("--seed", type=int, default=default, help=f"random seed (default {default})")


def add_progress_arg(p: argparse.ArgumentParser) -> None:
    p.add_argument(
        "--no-progress",
        dest="progress",
        action="store_false",
        help="no progress bar (none is drawn anyway when stderr is not a terminal)",
    )


def signature_options(func: Callable[..., Any], skip: Sequence[str] = ()) -> dict[str, Any]:
    """Named parameters of ``func`` with their defaults (``inspect.Parameter.empty`` if none)."""
    try:
        params = inspect.signature(func).parameters.values()
    except (TypeError, ValueError):
        return {}
    return {
        p.name: p.default
        for p in params
        if p.name not in skip
        and p.name != "self"
        and p.kind in (p.POSITIONAL_OR_KEYWORD, p.KEYWORD_ONLY)
    }


def game_options(name: str) -> dict[str, Any]:
    """Config options of a registered game and their defaults, from its factory's signature."""
    from boardgames_rl.registry import game_spec

    return signature_options(game_spec(name).game)


def format_options(options: dict[str, Any]) -> str:
    """``{"a": 1, "b": empty}`` -> ``"a=1 b=(required)"``; ``"none"`` when empty."""
    if not options:
        return "none"
    return " ".join(
        f"{k}=(required)" if v is inspect.Parameter.empty else f"{k}={v!r}"
        for k, v in options.items()
    )


def make_game_from_args(args: argparse.Namespace) -> Game:
    """The game named by ``args.game`` configured by ``args.config`` (``-c`` pairs).

    Raises:
        CliError: unknown game, unknown option or a bad option value; the message lists the
            valid names/options.
    """
    from boardgames_rl.registry import game_spec

    try:
        entry = game_spec(args.game)
        config = parse_options(args.config, "-c")
    except InvalidConfigError as e:
        raise CliError(f"{e} (see `boardgames-rl list`)") from e
    known = game_options(entry.name)
    unknown = [k for k in config if known and k not in known]
    if unknown:
        raise CliError(
            f"{entry.name} has no option {', '.join(map(repr, unknown))}; "
            f"its options (with defaults): {format_options(known)}"
        )
    try:
        return entry.game(**config)
    except (GameError, TypeError, ValueError) as e:
        raise CliError(
            f"{entry.name} with {config}: {e}; options (with defaults): {format_options(known)}"
        ) from e


def build_agent(spec: str, game: Game) -> Any:
    """An agent from a spec; a bad spec raises :class:`CliError` naming the known agents."""
    from boardgames_rl.agents import list_agents, make_agent

    try:
        return make_agent(spec, game)
    except (GameError, TypeError, ValueError) as e:
        hint = "options: `boardgames-rl list`"
        if not isinstance(e, UnknownAgentError):  # whose message lists the known agents
            hint = f"known agents: {', '.join(list_agents(game))}; {hint}"
        raise CliError(f"{e} ({hint})") from e


def seat_label(game: Game, seat: int, who: str) -> str:
    """``"player_1 (heuristic)"``."""
    return f"{game.player_names[seat]} ({who})"


def format_returns(game: Game, returns: Iterable[float], who: Sequence[str]) -> str:
    """One line per seat: name, who played it, its return."""
    return "\n".join(
        f"  {seat_label(game, s, who[s]):<32} {float(r):+g}" for s, r in enumerate(returns)
    )
