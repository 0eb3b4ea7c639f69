"""The ``boardgames-rl`` command: list | demo | play | arena | bench.

Examples::

    boardgames-rl list
    boardgames-rl demo
    boardgames-rl play castle_flutterstone --agents heuristic random --seed 3
    boardgames-rl arena castle_flutterstone --agents heuristic random --games 500 --out results/
    boardgames-rl arena castle_flutterstone -c num_players=4 -c pesky_ghosts=true \
        --agents heuristic random
    boardgames-rl bench --games castle_flutterstone --seconds 2
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path
from typing import Any

from boardgames_rl import __version__


def _config(pairs: list[str]) -> dict[str, Any]:
    from boardgames_rl.agents.registry import _parse_value

    config: dict[str, Any] = {}
    for pair in pairs:
        key, eq, value = pair.partition("=")
        if not eq:
            raise SystemExit(f"boardgames-rl: --config expects key=value, got {pair!r}")
        if "," in value:
            config[key] = [_parse_value(v) for v in value.split(",")]
        else:
            config[key] = _parse_value(value)
    return config


def _game(args: argparse.Namespace):
    from boardgames_rl.core import GameError, make_game

    try:
        return make_game(args.game, **_config(args.config))
    except (GameError, TypeError) as e:
        raise SystemExit(f"boardgames-rl: {e}") from e


def cmd_list(args: argparse.Namespace) -> int:
    from boardgames_rl.agents import list_agents
    from boardgames_rl.core.registry import game_entry, list_games

    print("games:")
    for name in list_games():
        print(f"  {name:<24} {game_entry(name).summary}")
    print("agents:")
    for name in list_agents():
        print(f"  {name}")
    return 0


def _watch(game, specs: list[str], seed: int, verbose: bool) -> None:
    from boardgames_rl.agents import make_agent
    from boardgames_rl.arena import play_game

    agents = [make_agent(s, game) for s in specs]
    last_turn = [None]
    final: list = []

    def show(state, player: int, action: int) -> None:
        final[:] = [state]
        if verbose:
            print(f"  {game.player_names[player]} ({specs[player]}): {state.action_name(action)}")
            turn = getattr(state, "turn_player", None)
            if turn != last_turn[0] or state.is_terminal():
                last_turn[0] = turn
                print(state.render(None))

    record = play_game(game, agents, seed, on_step=show)
    if final and not verbose:
        print(final[0].render(None))
    print(f"returns {record.returns} after {record.length} actions")


def cmd_play(args: argparse.Namespace) -> int:
    game = _game(args)
    specs = (args.agents * game.num_players)[: game.num_players]
    _watch(game, specs, args.seed, verbose=not args.quiet)
    return 0


def _series(game, agents: list[str], games: int, seed: int, out: str | None) -> int:
    from boardgames_rl.arena import play_series

    result = play_series(game, agents, games, seed=seed, progress=True)
    print(result.table())
    if out:
        path = Path(out)
        path.mkdir(parents=True, exist_ok=True)
        file = path / f"{game.name}_{'_vs_'.join(a.replace(':', '-') for a in agents)}.json"
        file.write_text(result.to_json())
        print(f"saved {file}")
    return 0


def cmd_arena(args: argparse.Namespace) -> int:
    return _series(_game(args), args.agents, args.games, args.seed, args.out)


def cmd_demo(args: argparse.Namespace) -> int:
    from boardgames_rl.core import make_game

    game = make_game("castle_flutterstone", num_players=2)
    print(
        "One seeded game of Castle Flutterstone, heuristic (A) against random (B), "
        "final position:\n"
    )
    _watch(game, ["heuristic", "random"], args.seed, verbose=False)
    print(f"\nA short demo series ({args.games} games, seats rotated):")
    return _series(game, ["heuristic", "random"], args.games, args.seed, None)


def cmd_bench(args: argparse.Namespace) -> int:
    from boardgames_rl.benchmark import main as bench_main

    argv = ["--seconds", str(args.seconds)]
    if args.games:
        argv += ["--games", *args.games]
    if args.out:
        argv += ["--out", args.out]
    return bench_main(argv)


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="boardgames-rl",
        description=__doc__.split("\n")[0],
        formatter_class=argparse.RawDescriptionHelpFormatter,
        epilog=__doc__.split("\n", 1)[1],
    )
    parser.add_argument("--version", action="version", version=f"%(prog)s {__version__}")
    sub = parser.add_subparsers(dest="command", required=True)

    sub.add_parser("list", help="registered games and agents").set_defaults(func=cmd_list)

    demo = sub.add_parser("demo", help="a short demo: one game and a small series")
    demo.add_argument("--games", type=int, default=100)
    demo.add_argument("--seed", type=int, default=0)
    demo.set_defaults(func=cmd_demo)

    def game_args(p: argparse.ArgumentParser) -> None:
        p.add_argument("game", help="game name (see `boardgames-rl list`)")
        p.add_argument(
            "-c",
            "--config",
            action="append",
            default=[],
            metavar="KEY=VALUE",
            help="game option, repeatable (lists as a,b,c)",
        )
        p.add_argument(
            "--agents",
            nargs="+",
            default=["heuristic", "random"],
            help="agent specs, e.g. random heuristic 'heuristic:win_bonus=5'",
        )
        p.add_argument("--seed", type=int, default=0)

    play = sub.add_parser("play", help="watch one game between agents")
    game_args(play)
    play.add_argument("-q", "--quiet", action="store_true", help="print only the result")
    play.set_defaults(func=cmd_play)

    arena = sub.add_parser(
        "arena", help="a seeded series with seats rotated; win rates with 95%% CIs"
    )
    game_args(arena)
    arena.add_argument("-n", "--games", type=int, default=200)
    arena.add_argument("-o", "--out", help="folder for the JSON results")
    arena.set_defaults(func=cmd_arena)

    bench = sub.add_parser(
        "bench", help="throughput beside PettingZoo connect_four and texas_holdem"
    )
    bench.add_argument("--games", nargs="*", help="games to measure (default: all)")
    bench.add_argument("--seconds", type=float, default=3.0, help="time per measurement")
    bench.add_argument("-o", "--out", help="JSON file for the results")
    bench.set_defaults(func=cmd_bench)
    return parser


def main(argv: list[str] | None = None) -> int:
    args = build_parser().parse_args(argv)
    return int(args.func(args) or 0)


if __name__ == "__main__":
    sys.exit(main())
