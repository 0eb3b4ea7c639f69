"""The ``boardgames-rl`` command driven as a person would: typed answers in, screen text out."""

from __future__ import annotations

import io
import json
import re
import subprocess
import sys
import types

import numpy as np
import pytest

from boardgames_rl.agents import make_agent
from boardgames_rl.arena import play_game
from boardgames_rl.cli import build_parser, main
from boardgames_rl.cli import play as play_cmd
from boardgames_rl.cli.play import format_menu, parse_choice
from boardgames_rl.compiled import build_info
from boardgames_rl.core import InvalidConfigError
from boardgames_rl.core.options import parse_option_string, parse_options, parse_value
from boardgames_rl.registry import make_game

COMMANDS = ["list", "play", "watch", "replay", "arena", "demo"]


def run_cli(argv, capsys, stdin: str | None = None, monkeypatch=None):
    """``main(argv)`` with ``stdin`` typed in; returns (exit code, stdout, stderr)."""
    if stdin is not None:
        monkeypatch.setattr("sys.stdin", io.StringIO(stdin))
    code = main(argv)
    out, err = capsys.readouterr()
    return code, out, err


class ScreenReader:
    """A person at the terminal: reads what was printed since the last prompt, answers from the
    menu of numbered actions on screen. The first answers are ``scripted`` (bad inputs etc.);
    afterwards it picks a listed action at random and types its number, its name in capitals or
    a unique prefix of it, in turn."""

    CELL = re.compile(r"(\d+)\. (.*?)(?=\s{2,}\d+\. |\s*$)")

    def __init__(self, capsys, scripted: list[str], seed: int = 0, limit: int = 2000):
        self.capsys = capsys
        self.scripted = list(scripted)
        self.rng = np.random.default_rng(seed)
        self.transcript: list[str] = []
        self.errors: list[str] = []
        self.answers: list[str] = []
        self.turn = 0
        self.limit = limit

    def menu(self) -> list[str]:
        screen = "".join(self.transcript)
        start = screen.rindex("your move,")
        lines = screen[start:].splitlines()[1:]
        names: dict[int, str] = {}
        for line in lines:
            for m in self.CELL.finditer(line):
                names[int(m.group(1))] = m.group(2)
        return [names[i] for i in sorted(names)]

    def read(self) -> None:
        out, err = self.capsys.readouterr()
        self.transcript.append(out)
        self.errors.append(err)

    def __call__(self, prompt: str = "") -> str:
        self.read()
        assert len(self.answers) < self.limit, "the game does not end"
        if self.scripted:
            answer = self.scripted.pop(0)
        else:
            names = self.menu()
            k = int(self.rng.integers(len(names)))
            style = self.turn % 3
            self.turn += 1
            if style == 0:
                answer = str(k + 1)
            elif style == 1:
                answer = names[k].upper()
            else:
                answer = unique_prefix(names, k)
        self.answers.append(answer)
        return answer

    def screen(self) -> str:
        self.read()
        return "".join(self.transcript)

    def stderr(self) -> str:
        self.read()
        return "".join(self.errors)


def unique_prefix(names: list[str], k: int) -> str:
    """Shortest prefix of ``names[k]`` that no other name starts with (else the full name)."""
    low = [n.lower() for n in names]
    for end in range(1, len(low[k]) + 1):
        p = low[k][:end]
        if sum(n.startswith(p) for n in low) == 1:
            return p
    return names[k]


# ----------------------------------------------------------------------------- help and list
@pytest.mark.parametrize("command", COMMANDS)
def test_every_subcommand_has_help_with_examples(command, capsys):
    code, out, _ = run_cli([command, "--help"], capsys)
    assert code == 0
    assert "examples:" in out and f"boardgames-rl {command}" in out


def test_top_level_help_lists_every_subcommand(capsys):
    code, out, _ = run_cli(["--help"], capsys)
    assert code == 0
    for command in [*COMMANDS, "train", "league"]:
        assert command in out
    assert sorted(build_parser()._subparsers._group_actions[0].choices) == sorted(
        [*COMMANDS, "train", "league"]
    )


def test_bench_is_the_labs_command_and_says_so_in_one_line(capsys):
    """The benchmark is not the package's (issue 41): ``bench`` names the lab's command in one
    line (exit 2), whatever follows it, and the help shows no ``bench`` example."""
    for argv in (["bench"], ["bench", "--quick", "--rounds", "x"]):
        code, out, err = run_cli(argv, capsys)
        assert code == 2 and out == ""
        assert err.count("\n") == 1 and "python lab/benchmarks/throughput.py" in err
    _, help_text, _ = run_cli(["--help"], capsys)
    assert "bench" not in help_text


def test_list_shows_games_options_player_counts_and_agents(capsys):
    code, out, _ = run_cli(["list"], capsys)
    assert code == 0
    for game in ["castle_flutterstone", "castle_nightingale", "night_of_the_ninja", "white_castle"]:
        assert f"  {game}  " in out
    assert "players: 2, 3, 4 (default 2)" in out  # castle_flutterstone and white_castle
    assert "players: 4, 5, 6, 7, 8, 9, 10, 11 (default 5)" in out  # night_of_the_ninja
    assert "pesky_ghosts=False" in out and "side='A'" in out
    assert re.search(r"  random  .*\n +options \(all games\): none", out)
    assert "iterations=400" in out  # ismcts options from its signature
    assert "card_value=0.8 win_bonus=10.0" in out  # the flutterstone heuristic's options
    # a game's own agent (GameSpec.agents), with the options of its factory
    assert re.search(r"  solver  \(castle_flutterstone only\) .*\n +options \(castle_flu", out)
    assert "cache=True progress=True" in out


def test_every_listed_agent_option_is_a_spec_key_with_its_default():
    """What ``list`` shows is what a spec takes: the game is never an option, nothing the spec
    supplies shows as required, and every option shown, given at its shown default, builds the
    agent (ISMCTS's ``preset``, the rollout agent's ``base``, the tuned keys of
    ``pretrained+search`` per game)."""
    from boardgames_rl.agents import make_agent
    from boardgames_rl.agents.registry import _AGENTS, spec_options
    from boardgames_rl.cli.listing import agent_options
    from boardgames_rl.registry import make_game

    games = ["castle_flutterstone", "castle_nightingale", "night_of_the_ninja", "white_castle"]
    for name in _AGENTS:
        summary, per_game = agent_options(name, games)
        assert summary, name
        for text in per_game.values():
            assert "game=" not in text and "(required)" not in text, (name, text)
    assert "preset=None" in agent_options("ismcts", games)[1]["all games"]
    assert agent_options("rollout", games)[1]["all games"].startswith("base='heuristic'")
    for g in games:
        game = make_game(g)
        for name in ("ismcts", "rollout", "pretrained+search"):
            options = spec_options(name, game)
            assert options is not None
            given = {k: v for k, v in options.items() if v is not None and k != "seconds"}
            given["iterations" if name != "rollout" else "worlds"] = 2
            spec = name + ":" + ",".join(f"{k}={v}" for k, v in given.items())
            make_agent(spec, game)  # every key is the spec's, every default a valid value


# ----------------------------------------------------------------------------- play
def test_person_plays_a_full_game_of_castle_flutterstone(capsys, monkeypatch, tmp_path):
    bad = ["abc", "999", "", "flick", "0", "?", "board"]
    person = ScreenReader(capsys, bad, seed=4)
    monkeypatch.setattr("builtins.input", person)
    record = tmp_path / "games.jsonl"
    code = main(
        ["play", "castle_flutterstone", "--vs", "heuristic", "--seed", "5", "--record", str(record)]
    )
    screen = person.screen()
    assert code == 0
    assert "no legal action is named 'abc'" in screen
    assert "999 is not an action number: choose 1-" in screen
    assert "empty answer: type a number" in screen
    assert "'flick' is ambiguous" in screen
    assert "0 is not an action number" in screen
    assert "Commands: ? or help" in screen
    assert "game over" in screen
    assert re.search(r"player_0 \(human\) +[+-]1\n +player_1 \(heuristic\) +[+-]1", screen)
    assert re.search(r"you (won|lost)", screen)
    assert "Traceback" not in screen
    # the opponent's actions are public in this game and shown by name
    assert re.search(r"\n  player_1: (flick aim|move|start flicking)", screen)
    # answers of all three styles were accepted and the record replays to the printed result
    assert len(person.answers) > len(bad) + 6
    saved = json.loads(record.read_text().splitlines()[-1])
    assert saved["agents"] == ["human", "heuristic"] and saved["length"] == len(saved["actions"])
    code, out, _ = run_cli(["replay", str(record), "--quiet"], capsys)
    assert code == 0 and "outcome matches the record" in out


@pytest.mark.parametrize(
    "game, config",
    [
        ("castle_nightingale", []),
        ("night_of_the_ninja", ["-c", "num_players=4"]),
        ("white_castle", ["-c", "num_players=3"]),
    ],
)
def test_person_plays_a_few_moves_then_quits(game, config, capsys, monkeypatch):
    person = ScreenReader(capsys, [], seed=1)
    answers = iter(range(4))

    def ask(prompt: str = "") -> str:
        return "quit" if next(answers, 4) == 3 else person(prompt)

    monkeypatch.setattr("builtins.input", ask)
    code = main(["play", game, *config, "--vs", "random", "--seat", "1", "--seed", "3"])
    screen, err = person.screen(), person.stderr()
    assert code == 1  # abandoned: non-zero, one line on stderr
    assert len(re.findall(r"your move, \w+ \(you\):", screen)) == 4
    assert re.fullmatch(
        r"boardgames-rl: game abandoned \(quit\) after \d+ actions; nothing was "
        r"recorded\n",
        err,
    )
    assert "Traceback" not in screen


def test_person_never_sees_hidden_information(capsys, monkeypatch):
    views: list[tuple[str, str]] = []
    original = play_cmd.Person.show_board

    def spy(self, state):
        views.append((state.render(self.seat), state.render(None)))
        original(self, state)

    monkeypatch.setattr(play_cmd.Person, "show_board", spy)
    person = ScreenReader(capsys, [], seed=2, limit=40)
    answers = iter(range(12))
    monkeypatch.setattr(
        "builtins.input", lambda p="": "quit" if next(answers, 11) == 11 else person(p)
    )
    code = main(
        [
            "play",
            "night_of_the_ninja",
            "-c",
            "num_players=4",
            "--vs",
            "heuristic",
            "--seat",
            "2",
            "--seed",
            "7",
        ]
    )
    screen = person.screen()
    assert code == 1 and len(views) == 12  # 11 answers, then quit (abandoned: exit 1)
    own_lines = {line for own, _ in views for line in own.splitlines()}
    hidden = {line for _, omni in views for line in omni.splitlines()} - own_lines
    assert hidden, "the omniscient board should show something the seat cannot see"
    for own, omni in views:
        assert own in screen and own != omni
    for line in hidden:
        assert line not in screen
    # the other players' actions (their secret picks and targets) are not named in the news
    # (the board itself may list the cards revealed face up: those are public)
    news = "\n".join(re.findall(r"since your last decision:\n((?:  .*\n)+)", screen))
    assert re.search(r"^  player_[013] acted$", news, re.M)
    assert not re.search(r"^  player_[013]: ", news, re.M)
    assert re.search(r"^  you: (pick|keep|play) ", news, re.M)  # the person's own are named


def test_end_of_input_mid_game_exits_cleanly(capsys, monkeypatch):
    code, out, err = run_cli(
        ["play", "white_castle", "--vs", "heuristic"], capsys, "1\n2\n", monkeypatch
    )
    assert code == 1
    assert (
        err
        == "boardgames-rl: game abandoned (end of input) after 2 actions; nothing was recorded\n"
    )
    assert "Traceback" not in out + err


def test_ctrl_c_exits_with_130(capsys, monkeypatch):
    def interrupt(prompt: str = "") -> str:
        raise KeyboardInterrupt

    monkeypatch.setattr("builtins.input", interrupt)
    code, _, err = run_cli(["play", "castle_flutterstone"], capsys)
    assert code == 130
    assert err == "boardgames-rl: game abandoned (interrupted); nothing was recorded\n"


def test_piped_play_in_a_subprocess_has_no_traceback():
    proc = subprocess.run(
        [
            sys.executable,
            "-m",
            "boardgames_rl.cli",
            "play",
            "castle_nightingale",
            "--vs",
            "random",
            "--seed",
            "1",
        ],
        input="1\nnot an action\n",
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert proc.returncode == 1, proc.stderr
    assert "no legal action is named 'not an action'" in proc.stdout
    assert proc.stderr.startswith("boardgames-rl: game abandoned (end of input) after ")
    assert proc.stderr.count("\n") == 1 and "Traceback" not in proc.stderr


def test_parse_choice_accepts_numbers_names_and_unique_prefixes():
    names = ["play Spy 2", "play Spy 5", "done", "Done later"]
    assert parse_choice(" 2 ", names) == 1
    assert parse_choice("DONE", names) == 2  # exact beats prefix
    assert parse_choice("play spy 5", names) == 1
    assert parse_choice("done l", names) == 3
    for bad, message in [
        ("", "empty answer"),
        ("5", "5 is not an action number: choose 1-4"),
        ("play", "ambiguous"),
        ("pass", "no legal action is named 'pass'"),
    ]:
        with pytest.raises(ValueError, match=message):
            parse_choice(bad, names)


def test_menu_numbers_every_action_once_in_columns():
    names = [f"action {i}" for i in range(25)]
    menu = format_menu(names, width=60)
    assert len(menu.splitlines()) < 25
    assert sorted(int(m) for m in re.findall(r"(\d+)\. action", menu)) == list(range(1, 26))


# ----------------------------------------------------------------------------- watch, replay
def test_watch_is_reproducible_and_plays_the_arena_game(capsys):
    argv = ["watch", "castle_flutterstone", "--agents", "heuristic", "random", "--seed", "3"]
    code, out, _ = run_cli(argv, capsys)
    assert code == 0 and "player_0 (heuristic): " in out
    assert run_cli(argv, capsys)[1] == out
    # the opening board comes first: the state before any action
    seeds = np.random.SeedSequence(3).spawn(3)
    state_seed = int(seeds[0].generate_state(1, np.uint64)[0] >> np.uint64(1))
    opening = make_game("castle_flutterstone").new_state(state_seed).render(None)
    assert out.startswith(f"opening board:\n{opening}\n  player_0 (heuristic): ")
    code, quiet, _ = run_cli([*argv, "-q"], capsys)
    assert code == 0 and "(heuristic): " not in quiet.split("returns:")[0]
    assert "opening board" not in quiet
    game = make_game("castle_flutterstone")
    record = play_game(game, [make_agent("heuristic", game), make_agent("random", game)], 3)
    shown = [float(x) for x in re.findall(r"\((?:heuristic|random)\) +([+-][\d.]+)", quiet)]
    assert shown == record.returns
    assert f"after {record.length} actions" in quiet


def test_replay_of_an_arena_folder_and_a_tampered_record(capsys, tmp_path):
    out_dir = tmp_path / "cf"
    argv = [
        "arena",
        "castle_flutterstone",
        "heuristic",
        "random",
        "--games",
        "2",
        "--out",
        str(out_dir),
    ]
    code, out, _ = run_cli(argv, capsys)
    assert code == 0 and "heuristic" in out and f"files in {out_dir}/" in out
    assert {"games.jsonl", "results.csv", "tournament.json"} <= {p.name for p in out_dir.iterdir()}
    lines = (out_dir / "games.jsonl").read_text().splitlines()
    assert len(lines) == 2
    code, again, _ = run_cli(argv, capsys)  # resumed: nothing new is played
    assert code == 0 and "resumed: 2 of these games were already recorded" in again
    assert (out_dir / "games.jsonl").read_text().splitlines() == lines
    code, shown, _ = run_cli(["replay", str(out_dir), "--index", "1"], capsys)
    assert code == 0 and shown.count("outcome matches the record") == 1
    first = json.loads(lines[1])
    assert f"  {first['length']:>4}  " in shown  # every action was printed, numbered
    tampered = tmp_path / "tampered.jsonl"
    first["returns"] = first["returns"][::-1]
    tampered.write_text(json.dumps(first) + "\n")
    code, _, err = run_cli(["replay", str(tampered)], capsys)
    assert code == 1 and "does not replay" in err and "Traceback" not in err
    code, _, err = run_cli(["replay", str(tmp_path / "missing.jsonl")], capsys)
    assert code == 1 and "no such file" in err


# ----------------------------------------------------------------------------- train
def test_train_forwards_every_argument(capsys, monkeypatch):
    seen = []
    fake = types.ModuleType("boardgames_rl.training.ppo")
    fake.main = lambda argv=None: seen.append(argv) or {}
    monkeypatch.setitem(sys.modules, "boardgames_rl.training.ppo", fake)
    argv = ["--game", "white_castle", "--timesteps", "64", "--out", "runs/x"]
    argv += ["--learning-rate", "1e-4"]
    assert main(["train", *argv]) == 0
    assert seen == [argv]


def _train_flag_errors_and_help() -> subprocess.CompletedProcess:
    """A bad training flag and ``train --help`` in a fresh process: their exit codes, and
    whether torch was imported."""
    code = (
        "import sys\n"
        "from boardgames_rl.cli import main\n"
        "codes = [main(['train', '--game', 'white_castle', '--learning-rate', '-1'])]\n"
        "try:\n"
        "    codes.append(main(['train', '--help']))\n"
        "except SystemExit as e:\n"
        "    codes.append(e.code)\n"
        "print(codes, 'torch' in sys.modules)\n"
    )
    return subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=120)


def test_train_flag_errors_are_one_line_and_help_exits_0():
    done = _train_flag_errors_and_help()
    assert done.returncode == 0, done.stderr
    assert done.stdout.splitlines()[-1].startswith("[2, 0] "), done.stdout
    assert "--learning-rate must be > 0" in done.stderr
    assert len(done.stderr.strip().splitlines()) == 1, done.stderr


def test_train_flag_errors_and_help_need_no_torch():
    """A typo in a training flag and ``--help`` answer before torch is imported (the flags are
    :mod:`boardgames_rl.training.settings`, which needs no torch)."""
    done = _train_flag_errors_and_help()
    assert done.returncode == 0, done.stderr
    assert done.stdout.splitlines()[-1] == "[2, 0] False", done.stdout


def test_train_without_the_training_module_says_what_is_needed(capsys, monkeypatch):
    monkeypatch.setitem(sys.modules, "boardgames_rl.training.ppo", None)
    code, _, err = run_cli(["train", "--game", "white_castle", "--timesteps", "10"], capsys)
    assert code == 1 and "training needs" in err and "Traceback" not in err


# ----------------------------------------------------------------------------- bad input
@pytest.mark.parametrize(
    "argv, code, message",
    [
        (["play", "chess"], 1, "unknown game 'chess'; registered games: castle_flutterstone"),
        (["watch", "white_castle", "--agents", "alphazero"], 1, "unknown agent 'alphazero'"),
        (["play", "white_castle", "--vs", "heuristic:depth"], 1, "expected key=value"),
        (["play", "white_castle", "-c", "players=3"], 1, "white_castle has no option 'players'"),
        (["play", "white_castle", "-c", "num_players=9"], 1, "options (with defaults)"),
        (["play", "white_castle", "--seat", "2"], 1, "--seat must be 0..1"),
        (
            [
                "play",
                "night_of_the_ninja",
                "-c",
                "num_players=4",
                "--vs",
                "random",
                "--vs",
                "random",
            ],
            1,
            "needs 1 or 3 --vs agents, got 2",
        ),
        (["arena", "white_castle", "random"], 1, "at least 2 agents"),
        (["arena", "white_castle", "random", "random"], 1, "distinct"),
        (["play", "white_castle", "-c", "num_players"], 2, "expected key=value"),
        (["play"], 2, "required: game"),
        (["fly"], 2, "invalid choice: 'fly'"),
    ],
)
def test_bad_input_gives_a_clear_message_and_exit_code(argv, code, message, capsys):
    got, out, err = run_cli(argv, capsys)
    assert got == code
    assert message in err and "Traceback" not in err
    if code == 1:
        assert err.startswith("boardgames-rl: error: ") and err.count("\n") == 1


def test_module_entry_point_runs():
    proc = subprocess.run(
        [sys.executable, "-m", "boardgames_rl.cli", "--version"],
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert proc.returncode == 0 and proc.stdout.startswith("boardgames-rl ")
    engines = "pure Python" if build_info()["build"] == "pure" else "compiled, mypyc"
    assert f"(engines: {engines}" in proc.stdout


# ----------------------------------------------------------------------------- options
def test_one_option_parser_for_cli_agents_and_benchmark():
    assert [parse_value(t) for t in ["3", "-2", "0.5", "TRUE", "false", "A", " x "]] == [
        3,
        -2,
        0.5,
        True,
        False,
        "A",
        "x",
    ]
    assert parse_options(["num_players=4", "skills=novice,average", " play_on = true "]) == {
        "num_players": 4,
        "skills": ["novice", "average"],
        "play_on": True,
    }
    assert parse_option_string("iterations=40,c=1.4") == {"iterations": 40, "c": 1.4}
    for bad in (["num_players"], ["=3"]):
        with pytest.raises(InvalidConfigError, match="expected key=value"):
            parse_options(bad, "-c")
    from boardgames_rl.agents import parse_spec
    from lab.benchmarks.throughput import targets_for

    assert parse_spec("ismcts:iterations=40,rollout=heuristic") == (
        "ismcts",
        {"iterations": 40, "rollout": "heuristic"},
    )
    assert targets_for("white_castle:num_players=3")[0].config == {"num_players": 3}


def test_arena_agents_may_follow_a_game_option(tmp_path, capsys):
    """`arena GAME -c k=v AGENT AGENT`: the agents after an option are still the agent list;
    an unknown option is still a usage error."""
    out = tmp_path / "t"
    code, stdout, _ = run_cli(
        [
            "arena",
            "castle_flutterstone",
            "-c",
            "num_players=2",
            "random",
            "heuristic",
            "--games",
            "2",
            "--out",
            str(out),
        ],
        capsys,
    )
    assert code == 0 and "heuristic" in stdout and (out / "games.jsonl").exists()
    code, _, err = run_cli(
        ["arena", "castle_flutterstone", "random", "heuristic", "--bogus"], capsys
    )
    assert code == 2 and "--bogus" in err


@pytest.mark.parametrize(
    "spec, first",
    [("bogus", "unknown agent 'bogus' for white_castle"), ("ismcts:iterations=-3", "ismcts:")],
)
def test_a_bad_agent_spec_names_the_known_agents_once(capsys, spec, first):
    """A bad agent spec is one line saying what to do: the known agents listed once (an unknown
    name's own error, ``UnknownAgentError``, lists them; the CLI once appended the list a second
    time) and where the options are."""
    from boardgames_rl.agents import make_agent
    from boardgames_rl.core.errors import InvalidConfigError, UnknownAgentError

    game = make_game("white_castle")
    with pytest.raises(InvalidConfigError) as info:
        make_agent(spec, game)
    assert isinstance(info.value, UnknownAgentError) == (spec == "bogus")
    code, _, err = run_cli(["arena", "white_castle", spec, "random", "--games", "2"], capsys)
    assert code == 1 and len(err.strip().splitlines()) == 1
    assert first in err
    assert err.count("known agents") == 1 and err.count("pretrained+search") == 1
    assert "`boardgames-rl list`" in err
