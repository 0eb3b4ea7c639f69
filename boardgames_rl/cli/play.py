"""``boardgames-rl play``: a person plays in the terminal against agents on the other seats.

The person only ever sees ``state.render(seat)`` (their own view) and their own legal actions.
Other players' actions are shown by name in games where every action is public, in the words of
the game's ``public_action_name`` hook (what the person's seat sees of them) where it declares
one, else as "player_k acted"; the board is always from the person's seat. In a game with an
event log (:func:`event_log`: Night of the Ninja) each action is followed, indented under it, by
the events it caused that the person's seat may know: cards shown, what the person's own cards
saw, kills, the House Reveal, who drew Honor tokens, the end of each round (which the engine
plays on its own after the last decision of a round).

An answer is the number of an option, or words of its name (:func:`parse_choice`: the whole
name, its start, a word or any part of it, whichever names one option). A Castle Flutterstone
flick is aimed as a player would (:mod:`boardgames_rl.games.castle_flutterstone.aiming`): its
three numbers typed (``flick 20 0.9 -15``: aim, force, yaw, the order of a flick's name),
chosen one at a time (``aim``: yaw, then aim, then force, each force with where it lands), or
one of the best flicks by its number; the board shows those best flicks with their landing
chances beside a small picture of where they aim, and the list of every flick is printed only
on demand (``list``).
``?`` prints the game's rules summary of the pending decision (the ``rules_help`` hook of its
:class:`~boardgames_rl.core.spec.GameSpec`) before the input help. A decision with a single legal
option is answered at once, with a line saying so. An abandoned game (``quit``, end of input,
Ctrl-C) exits non-zero (1, or 130 for Ctrl-C) with one line on stderr; nothing is recorded.
"""

from __future__ import annotations

import argparse
import re
import shutil
import sys
from collections.abc import Callable
from typing import Protocol

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
Type the number of an action, or any part of its name (any case: a word, its start or a few
letters) that only one action holds; when several do, they are listed. Commands: ? or help
(the rules of this decision and this text), board (show the board again), quit (abandon the
game). Ctrl-D also abandons the game; Ctrl-C stops at once. A decision with only one option is
played for you, with a line saying so."""

ABANDONED_CODE = 1
"""Exit code of a game abandoned with ``quit`` or end of input (Ctrl-C gives 130)."""


def rules_help(state: State, seat: int) -> str | None:
    """The game's rules summary of the pending decision for ``seat`` (its spec's ``rules_help``
    hook), or ``None`` when the game declares none."""
    from boardgames_rl.registry import game_spec

    hook = game_spec(state.game.name).rules_help
    return None if hook is None else hook(state, seat)


class EventLog(Protocol):
    """A game's log of events as one seat sees them (e.g.
    :class:`boardgames_rl.games.night_of_the_ninja.events.EventLog`)."""

    def step(self, before: State, action: int, after: State) -> list[str]:
        """Lines the seat learns from ``action`` played in ``before`` (giving ``after``)."""
        ...


def _ninja_events(game: Game, viewer: int | None) -> EventLog:
    from boardgames_rl.games.night_of_the_ninja.events import EventLog as NinjaEvents

    return NinjaEvents(game, viewer)


EVENT_LOGS: dict[str, Callable[[Game, int | None], EventLog]] = {
    "night_of_the_ninja": _ninja_events,
}
"""Games whose engine plays on between a person's decisions past events the person may know
(Night of the Ninja: the rest of a round, its House Reveal and scoring): game name -> the maker
of its event log for a seat (``None``: the observer)."""


def event_log(game: Game, viewer: int | None) -> EventLog | None:
    """The event log of ``game`` seen from seat ``viewer`` (``None``: everything), or ``None``
    when the game has none."""
    make = EVENT_LOGS.get(game.name)
    return None if make is None else make(game, viewer)


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


MATCH_SHOWN = 6
"""How many matching options an ambiguous answer lists."""


def _matchers(low: str) -> list[Callable[[str], bool]]:
    """Ways a lower-case answer may name an option, the most precise first: the whole name, its
    start, whole words of it, any part of it, every word of the answer somewhere in it."""
    word = re.compile(rf"(?<!\w){re.escape(low)}(?!\w)")
    words = low.split()
    return [
        lambda name: name == low,
        lambda name: name.startswith(low),
        lambda name: word.search(name) is not None,
        lambda name: low in name,
        lambda name: all(w in name for w in words),
    ]


def parse_choice(text: str, names: list[str]) -> int:
    """Index into ``names`` of the person's answer: a 1-based number, or words of one name, any
    case: the whole name, its start, a whole word (or words) of it, any part of it, or words
    found in it in any order -- tried in that order; the first way that matches any option must
    match exactly one.

    Raises:
        ValueError: with a message telling the person what to type instead (for an answer that
            matches several options, the first few of them with their numbers).
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
    low = " ".join(answer.lower().split())
    lows = [" ".join(name.lower().split()) for name in names]
    for matches_name in _matchers(low):
        matches = [i for i, name in enumerate(lows) if matches_name(name)]
        if len(matches) == 1:
            return matches[0]
        if matches:
            shown = ", ".join(f"{i + 1}. {names[i]}" for i in matches[:MATCH_SHOWN])
            more = f" and {len(matches) - MATCH_SHOWN} more" if len(matches) > MATCH_SHOWN else ""
            raise ValueError(
                f"{answer!r} is ambiguous, {len(matches)} options hold it ({shown}{more}): "
                "type more of the name or its number"
            )
    raise ValueError(f"no legal action is named {answer!r}: type a number 1-{n} or ? for help")


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
        self.events = event_log(game, seat)
        self._before: State | None = None  # the state before the action being played
        self._forced_name: str | None = None  # that action's name, if played for the person

    def heard(self, state: State, seat: int, action: int) -> None:
        """Note an action (before it is applied) as the person may see it."""
        if self.events is not None:
            self._before = state.clone()
        self._forced_name = None
        if seat == self.seat and self.just_forced:
            self.just_forced = False  # already said: "only one option, played for you"
            self._forced_name = state.action_name(action)
        elif seat == self.seat:
            self.news.append(f"you: {state.action_name(action)}")
        else:
            self.news.append(describe_action(state, seat, action, self.seat))

    def saw(self, state: State, seat: int, action: int) -> None:
        """Note what the person's seat learns from an action once it is applied (the game's
        event log, if it has one), indented under the action."""
        if self.events is not None and self._before is not None:
            lines = self.events.step(self._before, action, state)
            if lines and self._forced_name is not None:  # the action the events come under
                self.news.append(f"you: {self._forced_name} (played for you)")
            self.news += [f"  {line}" for line in lines]
            self._before = None

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
        aim = aim_for(state, legal, names)
        show_menu = (lambda: print(aim.prompt())) if aim else (lambda: print(format_menu(names)))
        show_menu()
        while True:
            answer = self.read("> ")
            command = answer.strip().lower()
            if command in ("?", "help"):
                text = rules_help(state, seat)
                if text:
                    print(text.rstrip())
                    print()
                print(HELP_TEXT)
                if aim:
                    print(aim.help())
                show_menu()
                continue
            if command == "board":
                self.show_board(state)
                show_menu()
                continue
            if command in ("quit", "exit"):
                raise QuitGame("quit")
            if aim:
                try:
                    action = aim.answer(answer, self.read)
                except ValueError as e:
                    print(e)
                    continue
                if action == AIM_MENU:
                    show_menu()
                    continue
                if action == AIM_LIST:
                    print(format_menu(names))
                    continue
                if action is not None:
                    if action in legal:
                        return action
                    print(f"{state.action_name(action)} is not legal now: type ? for help")
                    continue
            try:
                return legal[parse_choice(answer, names)]
            except ValueError as e:
                print(e)

    def read(self, prompt: str) -> str:
        """One answer; end of input abandons the game."""
        try:
            return self.ask(prompt)
        except EOFError:
            raise QuitGame("end of input") from None


AIM_MENU, AIM_LIST = -1, -2
""":meth:`FlickAim.answer` results: show the short flick menu again / list every flick."""

AIM_BEST = 3
"""How many of the best flicks the flick menu offers by number."""


class FlickAim:
    """A Castle Flutterstone flick decision answered as a player aims
    (:mod:`boardgames_rl.games.castle_flutterstone.aiming`): three typed numbers, or the three
    asked one at a time, or the number of a best flick of the board's hint; the list of every
    flick only on demand (``list``)."""

    def __init__(self, state: State, legal: list[int], names: list[str]):
        from boardgames_rl.games.castle_flutterstone.aiming import Aim

        self.state = state
        self.legal = legal
        self.names = names
        self.aim = Aim(state)  # type: ignore[arg-type]

    def prompt(self) -> str:
        """The short menu: the best flicks by their numbers in the list of every flick, and how
        else to answer."""
        from boardgames_rl.games.castle_flutterstone.render import HINT_MARKS, best_flick_ids

        a = self.aim
        best = best_flick_ids(self.state, AIM_BEST)  # type: ignore[arg-type]
        lines = [
            f"{self.legal.index(f) + 1:>4}. {self.names[self.legal.index(f)]}  ({mark})"
            for mark, f in zip(HINT_MARKS, best, strict=False)
            if f in self.legal
        ]
        steps = ", ".join(a.steps[:-1]) + " and " + a.steps[-1]
        lines.append(
            f"type a number (these are the best flicks a, b, c), {a.typed_form} (e.g. "
            f"{a.example()}),\nor aim to choose the {steps} one at a time; list: all "
            f"{len(self.legal)} flicks by number; ? help"
        )
        return "\n".join(lines)

    def help(self) -> str:
        from boardgames_rl.games.castle_flutterstone.aiming import aim_help

        return aim_help(self.state)  # type: ignore[arg-type]

    def answer(self, text: str, read: Callable[[str], str]) -> int | None:
        """The flick ``text`` chooses, ``AIM_MENU`` / ``AIM_LIST`` for those commands, or
        ``None`` when ``text`` is none of the ways to aim (then it is read as an option's number
        or name).

        Raises:
            ValueError: a typed flick that is not valid (one line saying what to type).
        """
        command = " ".join(text.lower().split())
        if command == "aim":
            action = self.one_at_a_time(read)
            return AIM_MENU if action is None else action
        if command == "list":
            return AIM_LIST
        return self.aim.parse(text)

    def one_at_a_time(self, read: Callable[[str], str]) -> int | None:
        """Ask the numbers one at a time; ``None`` if the person goes back."""
        a = self.aim
        chosen: dict[str, float] = {}
        for what in a.steps:
            print(a.step_menu(what, chosen))
            while True:
                answer = read(f"{what}> ").strip()
                command = answer.lower()
                if command == "back":
                    return None
                if command in ("quit", "exit"):
                    raise QuitGame("quit")
                if command in ("", "?", "help"):
                    print(a.step_menu(what, chosen))
                    print(f"type one {what} value, or back")
                    continue
                try:
                    chosen[what] = a.value(what, answer)
                    break
                except ValueError as e:
                    print(f"{e}; or back")
        return a.action(chosen)


def aim_for(state: State, legal: list[int], names: list[str]) -> FlickAim | None:
    """How the pending decision is aimed, for a Castle Flutterstone flick; else ``None`` (the
    numbered list of the options)."""
    if state.game.name != "castle_flutterstone":
        return None
    from boardgames_rl.games.castle_flutterstone.aiming import is_flick

    return FlickAim(state, legal, names) if is_flick(state) else None  # type: ignore[arg-type]


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
        session = run_session(
            game, deciders, who, args.seed, before_action=person.heard, after_action=person.saw
        )
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
            "your numbered legal actions. " + HELP_TEXT.replace("\n", " ") + " A Castle "
            "Flutterstone flick is typed as flick AIM FORCE YAW (e.g. flick 20 0.9 -15) or "
            "chosen number by number (aim), instead of from a list of every flick. In Night of "
            "the Ninja every event your seat may see is told as it happens, the end of each "
            "round too. An abandoned game exits with code 1 (130 after Ctrl-C) and is not "
            "recorded."
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
