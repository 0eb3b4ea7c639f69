"""``boardgames-rl arena``: a tournament between agents, seats rotated, resumable with --out."""

from __future__ import annotations

import argparse
import warnings
from pathlib import Path

from boardgames_rl.cli.common import (
    CliError,
    add_command,
    add_game_args,
    add_progress_arg,
    add_seed_arg,
    build_agent,
    make_game_from_args,
)
from boardgames_rl.core.files import list_dir, printable


def run(args: argparse.Namespace) -> int:
    from boardgames_rl.arena import tournament
    from boardgames_rl.arena.backends import RayGameLostError
    from boardgames_rl.arena.results import PictureSkippedWarning
    from boardgames_rl.core.errors import MissingExtraError

    game = make_game_from_args(args)
    agents = list(args.agents) + list(args.agents_opt or [])
    if len(agents) < 2:
        raise CliError("arena needs at least 2 agents, e.g. `arena GAME heuristic random`")
    if len(set(agents)) != len(agents):
        raise CliError(f"agent specs must be distinct, got {agents}")
    if args.games < 1:
        raise CliError(f"--games must be at least 1, got {args.games}")
    if args.workers < 1:
        raise CliError(f"--workers must be at least 1, got {args.workers}")
    if args.address is not None and args.backend != "ray":
        raise CliError("--address is the Ray cluster's head for --backend ray; add --backend ray")
    for spec in agents:  # fail fast, with the list of known agents, before any worker starts
        build_agent(spec, game)
    out = Path(args.out) if args.out else None
    played: list[object] = []  # the games played now; the others were already in the folder
    try:
        with warnings.catch_warnings():  # a skipped picture is said once, after the table
            warnings.simplefilter("ignore", PictureSkippedWarning)
            result = tournament(
                game,
                agents,
                args.games,
                seats="rotate",
                workers=args.workers,
                seed=args.seed,
                out=str(out) if out else None,
                progress=args.progress,
                backend=args.backend,
                address=args.address,
                on_game=played.append,
            )
    except (ValueError, OSError, MissingExtraError, RayGameLostError) as e:
        raise CliError(printable(str(e))) from e
    print(printable(result.table()))
    done = len(result.records) - len(played)
    if done:
        print(f"resumed: {done} of these games were already recorded in {out}/")
    if out is not None:
        files = ", ".join(printable(name) for name in list_dir(out, out) if (out / name).is_file())
        print(f"files in {out}/: {files}")
        for note in result.skipped_pictures:  # no matplotlib: the picture, not the result
            print(printable(note))
        print(f"run the same command again to resume; replay: boardgames-rl replay {out}")
    return 0


def add_parser(sub: argparse._SubParsersAction) -> None:
    p = add_command(
        sub,
        "arena",
        "a seeded tournament between agents: win rates with 95%% intervals and ratings",
        [
            "boardgames-rl arena castle_flutterstone heuristic random --games 200",
            "boardgames-rl arena castle_flutterstone heuristic random 'ismcts:iterations=100' "
            "--games 50 --workers 2 --out results/flutterstone",
            "boardgames-rl arena night_of_the_ninja heuristic random -c num_players=4",
            "boardgames-rl arena white_castle heuristic random --backend ray --workers 4",
            "boardgames-rl arena white_castle heuristic random --backend ray --address HEAD:6379",
        ],
        description=(
            "Play every pairing of the agents with seats rotated (2-player games: every pair; "
            "more players: each agent alone against a field of another). With --out the games "
            "are written as they finish and running the same command again resumes."
        ),
    )
    add_game_args(p)
    p.add_argument("agents", nargs="*", metavar="AGENT", help="agent specs (at least 2)")
    p.add_argument(
        "--agents",
        dest="agents_opt",
        nargs="+",
        metavar="AGENT",
        help="the agent specs given as an option instead (older form)",
    )
    p.add_argument("-n", "--games", type=int, default=100, help="games per pairing (default 100)")
    p.add_argument(
        "-w",
        "--workers",
        type=int,
        default=1,
        help="worker processes, or the CPUs of the local Ray with --backend ray (default 1)",
    )
    p.add_argument(
        "--backend",
        choices=("process", "ray"),
        default="process",
        help="process: this machine's worker processes (default); ray: every game a Ray task, "
        "on a local Ray (started and stopped by the command) or the cluster at --address; "
        "same seeds, same files (needs the [ray] extra)",
    )
    p.add_argument(
        "--address",
        metavar="ADDR",
        help="with --backend ray: the cluster's head as printed by `ray start --head` "
        "(host:6379) or 'auto'",
    )
    add_seed_arg(p)
    add_progress_arg(p)
    p.add_argument("-o", "--out", metavar="DIR", help="folder for records and result tables")
    p.set_defaults(func=run)
