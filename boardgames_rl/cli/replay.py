"""``boardgames-rl replay``: replay saved game records action by action, checking the outcome.

Plain: every action by name, then the final board and the returns. ``--step``: board by board,
one decision at a time (Enter for the next, ``q`` to stop; stdin may be a pipe: one line per
step). ``--html FILE``: one self-contained page with the picture of every decision
(:mod:`boardgames_rl.cli.replay_html`), drawn by ``--jobs`` processes, each distinct picture once
(:mod:`boardgames_rl.cli.replay_pictures`). ``--seat S`` shows the boards from seat S's view (and
names the other seats' hidden actions only as "acted"); by default the boards are omniscient.
In a game with an event log (:func:`boardgames_rl.cli.play.event_log`: Night of the Ninja) each
action is followed, in the text views, by the events it caused as ``play`` tells them: what seat
S knew with ``--seat S``, everything without (the House Reveal and scoring of every round among
them, which the engine plays between two decisions).
"""

from __future__ import annotations

import argparse
import os
import sys
from pathlib import Path
from typing import Any

from boardgames_rl.cli.common import (
    CliError,
    add_command,
    add_progress_arg,
    format_returns,
    positive_int,
)
from boardgames_rl.core.errors import GameError, InvalidConfigError, MissingExtraError
from boardgames_rl.core.files import printable, write_text
from boardgames_rl.core.game import State


class StopReplay(Exception):
    """The person typed ``q`` (or stdin ended) during ``--step``."""


def ask_next(prompt: str) -> bool:
    """Print ``prompt`` and read one line from stdin: False for ``q``/``quit`` or end of input."""
    print(prompt, end="", flush=True)
    line = sys.stdin.readline()
    if not line:
        print("(end of input)")
        return False
    return line.strip().lower() not in ("q", "quit", "exit")


def replay_one(record: Any, index: int, args: argparse.Namespace) -> None:
    """Replay one record as ``args`` asks (plain, ``--step``, ``--html``), then print the final
    board and the returns; the outcome is checked against the record.

    Raises:
        StopReplay: ``q`` or end of input during ``--step``.
        ReplayMismatchError: the record does not replay to its outcome.
    """
    from boardgames_rl._util.progress import progress_bar
    from boardgames_rl.arena import replay
    from boardgames_rl.cli.play import describe_action, event_log
    from boardgames_rl.registry import make_game

    game = make_game(record.game, **record.config)
    seat = getattr(args, "seat", None)
    if seat is not None and not 0 <= seat < game.num_players:
        raise CliError(f"--seat must be 0..{game.num_players - 1} for {game.name}")
    stepping = bool(getattr(args, "step", False))
    html_out = getattr(args, "html", None)
    quiet = bool(getattr(args, "quiet", False)) and not stepping
    agents = [printable(str(a)) for a in record.agents] or ["?"] * game.num_players
    n = len(record.actions)
    before = game.new_state(record.state_seed)  # the state each next action is applied to
    step = 0
    captions: list[str] = []
    events = event_log(game, seat) if stepping or not quiet else None

    def name_of(state: State, player: int, action: int) -> str:
        if seat is None:
            return f"{game.player_names[player]}: {state.action_name(action)}"
        return describe_action(state, player, action, seat)

    def on_step(state: State, player: int, action: int) -> None:
        nonlocal before, step
        step += 1
        said = name_of(before, player, action)  # named in the context it was chosen in
        seen = [] if events is None else events.step(before, action, state)
        if stepping:
            print(f"\ndecision {step} of {n}:")
            print(before.render(seat))
            print(f"-> {said} ({agents[player % len(agents)]})")
            for line in seen:
                print(f"   {line}")
            if not ask_next("[Enter] next, q quit: "):
                raise StopReplay(f"stopped at decision {step} of {n}")
        elif not quiet:
            print(f"  {step:>4}  {said}")
            for line in seen:
                print(f"        {line}")
        captions.append(said)
        if stepping or html_out or not quiet:
            before = state.clone()

    where = "" if record.table is None else f" (table {record.table}, game {record.game_index})"
    print(printable(f"record {index}{where}: {game.name} {record.config or ''} agents {agents}"))
    final = replay(record, on_step=on_step)
    if stepping:
        print("\nend of the game:")
    print(final.render(seat))
    print("returns:")
    print(format_returns(game, final.returns(), agents))
    print(f"replayed {n} actions: outcome matches the record")
    if html_out:
        from boardgames_rl.cli.replay_pictures import default_jobs, draw_pictures

        jobs = args.jobs if getattr(args, "jobs", None) is not None else default_jobs()
        bar = progress_bar(n + 1, "pictures", "picture", enabled=args.progress)
        try:
            pictures = draw_pictures(record, seat, jobs, bar.update)
        finally:
            bar.close()
        write_html(Path(html_out), record, index, game, final, captions, pictures, seat)


def write_html(
    path: Path,
    record: Any,
    index: int,
    game: Any,
    final: State,
    captions: list[str],
    pictures: list[bytes],
    seat: int | None,
) -> None:
    """Write the page of one replayed record to ``path`` (``pictures``: one per decision, then
    the end) and say so."""
    from boardgames_rl.cli.replay_html import Frame, page

    agents = [printable(str(a)) for a in record.agents]
    returns = ", ".join(
        f"{game.player_names[s]} ({a}) {float(r):+g}"
        for s, (a, r) in enumerate(zip(agents, final.returns(), strict=False))
    )
    view = "omniscient view" if seat is None else f"{game.player_names[seat]}'s view"
    where = "" if record.table is None else f", table {record.table} game {record.game_index}"
    meta = [
        f"record {index}{where}; seed {record.seed}; config {record.config or '{}'}; {view}",
        f"{len(captions)} decisions; returns: {returns}"
        + (" (cut short by the turn limit)" if record.truncated else ""),
    ]
    text = page(  # page() escapes every text for HTML
        f"{game.name}: {' vs '.join(agents)}",
        meta,
        [Frame(p, c) for p, c in zip(pictures[:-1], captions, strict=True)],
        Frame(pictures[-1], returns),
    )
    try:  # a link planted at the path is replaced, never followed
        write_text(path, text, root=path.parent)
    except InvalidConfigError as e:
        raise CliError(str(e)) from e
    except OSError as e:
        raise CliError(f"cannot write {path}: {e.strerror or e}") from e
    size = path.stat().st_size / 1e6
    print(f"wrote {path}: {len(captions)} decisions, {size:.1f} MB (opens offline in a browser)")


def run(args: argparse.Namespace) -> int:
    from boardgames_rl.arena import ReplayMismatchError, load_records

    path = Path(args.file)
    if not path.exists():
        raise CliError(
            f"no such file or folder: {path} (give a .jsonl record file or a "
            "tournament folder with games.jsonl)"
        )
    try:  # regular files only, size cap, strict JSON, fields type-checked: one line
        records = load_records(path)
    except ValueError as e:  # names the file (and the line at fault)
        raise CliError(printable(str(e))) from e
    except (OSError, KeyError, TypeError) as e:
        raise CliError(printable(f"{path} is not a game record file ({e})")) from e
    if not records:
        raise CliError(f"{path} holds no game records")
    if args.index is not None:
        if not 0 <= args.index < len(records):
            raise CliError(f"--game-index must be 0..{len(records) - 1} ({len(records)} records)")
        chosen = [args.index]
    elif args.html and len(records) > 1:
        raise CliError(
            f"{path} holds {len(records)} records: pick one for --html with --game-index "
            f"0..{len(records) - 1}"
        )
    else:
        chosen = list(range(len(records)))
    if args.jobs is not None and not args.html:
        raise CliError("--jobs sets the processes drawing an --html page: give --html FILE too")
    if args.html:  # say so before drawing every picture, not after
        target = Path(args.html)
        try:
            target.parent.mkdir(parents=True, exist_ok=True)
        except OSError as e:
            raise CliError(f"cannot write {target}: {e.strerror or e}") from e
        if target.is_dir() or not os.access(target.parent, os.W_OK):
            raise CliError(f"cannot write {target}: not a writable file path")
    for i in chosen:
        try:
            replay_one(records[i], i, args)
        except StopReplay as e:
            print(e)
            return 0
        except MissingExtraError as e:  # pictures need matplotlib (the [render] extra)
            raise CliError(str(e)) from e
        except ReplayMismatchError as e:
            raise CliError(printable(f"record {i} of {path} does not replay: {e}")) from e
        except (ValueError, KeyError, TypeError, GameError) as e:
            raise CliError(
                printable(f"record {i} of {path} does not replay ({type(e).__name__}: {e})")
            ) from e
    return 0


def add_parser(sub: argparse._SubParsersAction) -> None:
    p = add_command(
        sub,
        "replay",
        "replay saved games (from play --record or an arena --out folder)",
        [
            "boardgames-rl replay games.jsonl",
            "boardgames-rl replay results/flutterstone --game-index 3 --step",
            "boardgames-rl replay results/flutterstone --game-index 3 --html game.html",
            "boardgames-rl replay games.jsonl --step --seat 0   # as player_0 saw it",
            "boardgames-rl replay results/flutterstone --quiet   # check every record replays",
        ],
        description=(
            "Replay saved games from their seeds and actions, checking that each ends as "
            "recorded. --step walks through a game board by board (Enter for the next "
            "decision, q to stop; reads lines, so it also works from a pipe). --html writes "
            "one self-contained page: the picture of every decision, the action log, a "
            "slider and prev/next buttons (no network needed to view it)."
        ),
    )
    p.add_argument("file", help="a .jsonl of records, or a tournament folder with games.jsonl")
    p.add_argument(
        "--game-index",
        "--index",
        dest="index",
        type=int,
        metavar="I",
        help="replay only record I (0-based, in the file's order; default all)",
    )
    p.add_argument(
        "--step", action="store_true", help="board by board: Enter for the next decision, q quits"
    )
    p.add_argument(
        "--html",
        metavar="FILE",
        help="write one self-contained HTML page of the game (needs one record: --game-index)",
    )
    p.add_argument(
        "--seat",
        type=int,
        help="show the boards from this seat's view (default: omniscient, all hidden "
        "information shown)",
    )
    p.add_argument("-q", "--quiet", action="store_true", help="don't print each action")
    p.add_argument(
        "--jobs",
        type=positive_int,
        metavar="N",
        help="with --html: processes drawing the pictures (default: the cores this process "
        "may use, at most 4; 1 draws here)",
    )
    add_progress_arg(p)
    p.set_defaults(func=run)
