"""``boardgames-rl watch``: agents play one game while you watch (the omniscient board)."""

from __future__ import annotations

import argparse

from boardgames_rl.cli.common import (
    CliError,
    add_command,
    add_game_args,
    add_seed_arg,
    build_agent,
    format_returns,
    make_game_from_args,
    seat_label,
)
from boardgames_rl.cli.session import Session, agent_decider, run_session
from boardgames_rl.core.game import Game, State


def watch(game: Game, specs: list[str], seed: int, verbose: bool) -> Session:
    """Play one game between the agents ``specs`` (cycled over the seats) and print it: the
    opening board, every action by name and the omniscient board whenever the turn passes
    (``verbose``), else only the final board. Same seeding as
    :func:`boardgames_rl.arena.play_game`."""
    if len(specs) > game.num_players:
        raise CliError(
            f"{game.name} has {game.num_players} seats but {len(specs)} agents were "
            "given; give at most one per seat"
        )
    who = [specs[s % len(specs)] for s in range(game.num_players)]
    deciders = [agent_decider(build_agent(w, game)) for w in who]

    def show(state: State, seat: int, action: int) -> None:
        print(f"  {seat_label(game, seat, who[seat])}: {state.action_name(action)}")

    def after(state: State) -> None:
        print(state.render(None))

    last: list[int | None] = [None]

    def before_action(state: State, seat: int, action: int) -> None:
        if last[0] is None:
            print("opening board:")
            after(state)
        elif last[0] != seat:
            after(state)
        last[0] = seat
        show(state, seat, action)

    session = run_session(game, deciders, who, seed, before_action if verbose else None)
    print(session.state.render(None))
    print("returns:")
    print(format_returns(game, session.state.returns(), who))
    print(
        f"after {len(session.actions)} actions"
        + (" (truncated)" if session.state.truncated else "")
    )
    return session


def run(args: argparse.Namespace) -> int:
    game = make_game_from_args(args)
    watch(game, args.agents, args.seed, verbose=not args.quiet)
    return 0


def add_parser(sub: argparse._SubParsersAction) -> None:
    p = add_command(
        sub,
        "watch",
        "watch agents play one game (all hidden information shown)",
        [
            "boardgames-rl watch castle_flutterstone --agents heuristic random --seed 3",
            "boardgames-rl watch night_of_the_ninja -c num_players=4 --agents heuristic -q",
        ],
    )
    add_game_args(p)
    p.add_argument(
        "--agents",
        nargs="+",
        default=["heuristic", "random"],
        metavar="AGENT",
        help="agent specs per seat, cycled over the seats (default: heuristic random)",
    )
    add_seed_arg(p)
    p.add_argument(
        "-q",
        "--quiet",
        action="store_true",
        help="print only the final board and the returns (not the opening board, the "
        "actions and the boards between)",
    )
    p.set_defaults(func=run)
