"""``boardgames-rl replay``: replay saved game records action by action, checking the outcome."""

from __future__ import annotations

import argparse
import json
from pathlib import Path

from boardgames_rl.cli.common import CliError, add_command, format_returns
from boardgames_rl.core.game import State


def replay_one(record, index: int, quiet: bool) -> None:
    """Replay one record, printing each action by its name in context (unless ``quiet``), then
    the final board (omniscient) and the returns."""
    from boardgames_rl.arena import replay
    from boardgames_rl.registry import make_game

    game = make_game(record.game, **record.config)
    before = game.new_state(record.state_seed)  # the state each next action is applied to
    step = 0

    def on_step(state: State, player: int, action: int) -> None:
        nonlocal before, step
        step += 1
        if not quiet:
            name = before.action_name(action)  # named in the context it was chosen in
            print(f"  {step:>4}  {game.player_names[player]:<10} {name}")
            before = state.clone()

    print(f"record {index}: {record.game} {record.config or ''} agents {record.agents}")
    final = replay(record, on_step=on_step)
    print(final.render(None))
    print("returns:")
    print(format_returns(game, final.returns(), [str(a) for a in record.agents]))
    print(f"replayed {len(record.actions)} actions: outcome matches the record")


def run(args: argparse.Namespace) -> int:
    from boardgames_rl.arena import ReplayMismatchError, load_records

    path = Path(args.file)
    if not path.exists():
        raise CliError(
            f"no such file or folder: {path} (give a .jsonl record file or a "
            "tournament folder with games.jsonl)"
        )
    try:
        records = load_records(path)
    except (OSError, ValueError, KeyError, TypeError, json.JSONDecodeError) as e:
        raise CliError(f"{path} is not a game record file ({type(e).__name__}: {e})") from e
    if not records:
        raise CliError(f"{path} holds no game records")
    if args.index is not None:
        if not 0 <= args.index < len(records):
            raise CliError(f"--index must be 0..{len(records) - 1} ({len(records)} records)")
        chosen = [args.index]
    else:
        chosen = range(len(records))
    for i in chosen:
        try:
            replay_one(records[i], i, args.quiet)
        except ReplayMismatchError as e:
            raise CliError(f"record {i} of {path} does not replay: {e}") from e
        except (ValueError, KeyError, TypeError) as e:
            raise CliError(f"record {i} of {path} does not replay ({type(e).__name__}: {e})") from e
    return 0


def add_parser(sub: argparse._SubParsersAction) -> None:
    p = add_command(
        sub,
        "replay",
        "replay saved games (from play --record or an arena --out folder)",
        [
            "boardgames-rl replay games.jsonl",
            "boardgames-rl replay results/flutterstone --index 3",
            "boardgames-rl replay results/flutterstone --quiet   # check every record replays",
        ],
    )
    p.add_argument("file", help="a .jsonl of records, or a tournament folder with games.jsonl")
    p.add_argument("--index", type=int, help="replay only record I (0-based; default all)")
    p.add_argument("-q", "--quiet", action="store_true", help="don't print each action")
    p.set_defaults(func=run)
