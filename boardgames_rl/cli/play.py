"""``boardgames-rl play``: a person plays in the terminal against agents on the other seats.

The person only ever sees ``state.render(seat)`` (their own view) and their own legal actions.
Other players' actions are shown by name in games where every action is public, in the words of
the game's ``public_action_name`` hook (what the person's seat sees of them) where it declares
one, else as "player_k acted"; the board is always from the person's seat.
``?`` prints the game's rules summary of the pending decision (the ``rules_help`` hook of its
:class:`~boardgames_rl.core.spec.GameSpec`) before the input help. A decision with a single legal
option is answered at once, with a line saying so. An abandoned game (``quit``, end of input,
Ctrl-C) exits non-zero (1, or 130 for Ctrl-C) with one line on stderr; nothing is recorded.
"""

from __future__ import annotations

import argparse
import shutil
import sys
from collections.abc import Callable

import numpy as np

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
from boardgames_rl.cli.session import QuitGame, Session, agent_decider, run_session
from boardgames_rl.core.errors import InvalidConfigError
from boardgames_rl.core.game import Game, State

PUBLIC_ACTION_GAMES = frozenset({"castle_flutterstone", "white_castle"})
"""Games whose action names never reveal hidden information (all choices are public; only
chance, the deck order, is hidden). In the others an opponent's action is shown as
"player_k acted" because its name may name a secret card, square or target."""

HUMAN = "human"

HELP_TEXT = """\
Type the number of an action, its name (any case) or the start of its name if only one
action starts that way. Commands: ? or help (the rules of this decision and this text), board
(show the board again), quit (abandon the game). Ctrl-D also abandons the game; Ctrl-C stops at
once. A decision with only one option is played for you, with a line saying so."""

ABANDONED_CODE = 1
"""Exit code of a game abandoned with ``quit`` or end of input (Ctrl-C gives 130)."""


def rules_help(state: State, seat: int) -> str | None:
    """The game's rules summary of the pending decision for ``seat`` (its spec's ``rules_help``
    hook), or ``None`` when the game declares none."""
    from boardgames_rl.registry import game_spec

    hook = game_spec(state.game.name).rules_help
    return None if hook is None else hook(state, seat)


def describe_action(state: State, seat: int, action: int, viewer: int) -> str:
    """What ``viewer`` learns of ``seat`` playing ``action`` in ``state`` (before it is applied):
    in the words of the game's ``public_action_name`` hook where it declares one."""
    from boardgames_rl.registry import game_spec

    who = state.game.player_names[seat]
    if state.game.name in PUBLIC_ACTION_GAMES or seat == viewer:
        return f"{who}: {state.action_name(action)}"
    public = game_spec(state.game.name).public_action_name
    if public is not None:
        return f"{who}: {public(state, action, viewer)}"
    return f"{who} acted"


def parse_choice(text: str, names: list[str]) -> int:
    """Index into ``names`` of the person's answer: a 1-based number, an exact name (any case)
    or a unique prefix.

    Raises:
        ValueError: with a message telling the person what to type instead.
    """
    answer = text.strip()
    n = len(names)
    if not answer:
        raise ValueError(f"empty answer: type a number 1-{n}, an action name, or ? for help")
    if answer.isdigit():
        k = int(answer)
        if not 1 <= k <= n:
            raise ValueError(f"{k} is not an action number: choose 1-{n}")
        return k - 1
    low = answer.lower()
    exact = [i for i, name in enumerate(names) if name.lower() == low]
    if len(exact) == 1:
        return exact[0]
    matches = exact or [i for i, name in enumerate(names) if name.lower().startswith(low)]
    if not matches:
        raise ValueError(f"no legal action is named {answer!r}: type a number 1-{n} or ? for help")
    if len(matches) > 1:
        shown = ", ".join(f"{i + 1}. {names[i]}" for i in matches[:6])
        more = " ..." if len(matches) > 6 else ""
        raise ValueError(f"{answer!r} is ambiguous ({shown}{more}): type more or a number")
    return matches[0]


def format_menu(names: list[str], width: int | None = None) -> str:
    """The numbered actions in as many columns as fit the terminal."""
    width = width or shutil.get_terminal_size((100, 24)).columns
    cells = [f"{i + 1:>3}. {name}" for i, name in enumerate(names)]
    cell = max(len(c) for c in cells) + 2
    cols = max(1, min(len(cells), width // cell))
    rows = -(-len(cells) // cols)
    lines = []
    for r in range(rows):
        lines.append("".join(cells[i].ljust(cell) for i in range(r, len(cells), rows)).rstrip())
    return "\n".join(lines)


class Person:
    """The decider of the person's seat: shows their view, reads answers from ``ask``."""

    def __init__(self, game: Game, seat: int, ask: Callable[[str], str]):
        self.game = game
        self.seat = seat
        self.ask = ask
        self.news: list[str] = []
        self.forced = 0  # decisions with one option, answered without asking
        self.just_forced = False
        self.forced_last = False  # the last thing printed was a forced-decision line

    def heard(self, state: State, seat: int, action: int) -> None:
        """Note an action (before it is applied) as the person may see it."""
        if seat == self.seat and self.just_forced:
            self.just_forced = False  # already said: "only one option, played for you"
        elif seat == self.seat:
            self.news.append(f"you: {state.action_name(action)}")
        else:
            self.news.append(describe_action(state, seat, action, self.seat))

    def tell_news(self) -> bool:
        """Print the actions noted since the person's last decision, and forget them; whether
        there were any."""
        if not self.news:
            return False
        print("\nsince your last decision:")
        for line in self.news:
            print(f"  {line}")
        self.news.clear()
        return True

    def show_board(self, state: State) -> None:
        print(state.render(self.seat))

    def __call__(self, state: State, seat: int, rng: np.random.Generator) -> int:
        legal = [int(a) for a in state.legal_actions()]
        names = [state.action_name(a) for a in legal]
        if len(legal) == 1:
            told = self.tell_news()
            gap = "" if self.forced_last and not told else "\n"  # a run of them: one block
            print(f"{gap}only one option, played for you: {names[0]}")
            self.forced += 1
            self.just_forced = self.forced_last = True
            return legal[0]
        self.forced_last = False
        self.tell_news()
        print()
        self.show_board(state)
        print(f"\nyour move, {seat_label(self.game, seat, 'you')}:")
        print(format_menu(names))
        while True:
            try:
                answer = self.ask("> ")
            except EOFError:
                raise QuitGame("end of input") from None
            command = answer.strip().lower()
            if command in ("?", "help"):
                text = rules_help(state, seat)
                if text:
                    print(text.rstrip())
                    print()
                print(HELP_TEXT)
                print(format_menu(names))
                continue
            if command == "board":
                self.show_board(state)
                print(format_menu(names))
                continue
            if command in ("quit", "exit"):
                raise QuitGame("quit")
            try:
                return legal[parse_choice(answer, names)]
            except ValueError as e:
                print(e)


def opponent_specs(game: Game, seat: int, vs: list[str]) -> list[str]:
    """Spec per seat (``"human"`` at ``seat``) from ``--vs``: one for all, or one per other seat."""
    others = game.num_players - 1
    if len(vs) == 1:
        vs = vs * others
    if len(vs) != others:
        raise CliError(
            f"{game.name} with {game.num_players} players needs 1 or {others} --vs agents, "
            f"got {len(vs)}"
        )
    return vs[:seat] + [HUMAN] + vs[seat:]


def run(args: argparse.Namespace) -> int:
    game = make_game_from_args(args)
    n = game.num_players
    if not 0 <= args.seat < n:
        raise CliError(f"--seat must be 0..{n - 1} for {game.name} with {n} players")
    who = opponent_specs(game, args.seat, args.vs or ["random"])
    person = Person(game, args.seat, input)
    deciders = [
        person if s == args.seat else agent_decider(build_agent(w, game)) for s, w in enumerate(who)
    ]
    print(
        f"{game.name}: you are {game.player_names[args.seat]} "
        f"(seat {args.seat} of {n}); type ? for help"
    )
    try:
        session = run_session(game, deciders, who, args.seed, before_action=person.heard)
    except QuitGame as e:
        return abandoned(str(e) or "quit", getattr(e, "session", None), ABANDONED_CODE)
    except KeyboardInterrupt:
        print()
        return abandoned("interrupted", None, 130)
    finish(session, person, args.record)
    return 0


def abandoned(reason: str, session: Session | None, code: int) -> int:
    """One line on stderr for an abandoned game; returns the exit code ``code``."""
    done = f" after {len(session.actions)} actions" if session is not None else ""
    sys.stdout.flush()
    print(f"boardgames-rl: game abandoned ({reason}){done}; nothing was recorded", file=sys.stderr)
    return code


def finish(session: Session, person: Person, record: str | None) -> None:
    """Final board from the person's seat, the returns, and the saved record if asked."""
    person.tell_news()
    print("\ngame over\n")
    person.show_board(session.state)
    returns = session.state.returns()
    print("\nreturns:")
    print(format_returns(session.game, returns, session.who))
    best = max(returns)
    mine = returns[person.seat]
    if session.state.truncated:
        print("the game was cut short by the turn limit")
    elif mine == best and list(returns).count(best) == 1:
        print("you won")
    elif mine == best:
        print("you shared the win")
    else:
        print("you lost")
    if record:
        try:
            path = session.save(record)
        except (OSError, InvalidConfigError) as e:
            raise CliError(f"the game was not recorded: {e}") from e
        print(f"record appended to {path} (replay it: boardgames-rl replay {path})")


def add_parser(sub: argparse._SubParsersAction) -> None:
    p = add_command(
        sub,
        "play",
        "play a game yourself in the terminal against agents",
        [
            "boardgames-rl play castle_flutterstone --vs heuristic",
            "boardgames-rl play night_of_the_ninja -c num_players=4 --vs heuristic --seat 2",
            "boardgames-rl play white_castle --vs random --vs heuristic -c num_players=3 "
            "--record games.jsonl",
        ],
        description=(
            "Play one game yourself against agents on the other seats. Each turn shows the "
            "board from your seat, what the others did (by name where actions are public), and "
            "your numbered legal actions. " + HELP_TEXT.replace("\n", " ") + " An abandoned "
            "game exits with code 1 (130 after Ctrl-C) and is not recorded."
        ),
    )
    add_game_args(p)
    p.add_argument(
        "--vs",
        action="append",
        metavar="AGENT",
        help="agent spec for the other seats, repeatable: one for all seats or one per seat "
        "in seat order (default random)",
    )
    p.add_argument("--seat", type=int, default=0, help="your seat, 0-based (default 0)")
    add_seed_arg(p)
    p.add_argument("--record", metavar="FILE", help="append the finished game to this .jsonl")
    p.set_defaults(func=run)
