"""Issue 43.1, league self-play training: "a population of frozen snapshots plus fixed members
(random, the heuristic, optionally search), opponents drawn by prioritised fictitious self-play
(more often the ones the learner loses to), a snapshot frozen when it beats the pool or after a
step cap, optional exploiters; multi-player tables filled from the pool seat by seat. Rollouts ...
without Ray on local worker processes ... the same seeds and the same results ... Checkpoint and
resume as training already does."

The Ray half (a local Ray, a simulated multi-node cluster, a node lost) is
``test_league_ray.py``."""

from __future__ import annotations

import csv
import json
import os
import signal
import subprocess
import sys
import zipfile
from collections import Counter
from pathlib import Path

import numpy as np
import pytest

from boardgames_rl import make_game
from boardgames_rl.agents.registry import make_agent
from boardgames_rl.arena import play_game
from boardgames_rl.cli import main as cli
from boardgames_rl.core.errors import InvalidConfigError
from boardgames_rl.training.league import advantages, main_tasks, train_league
from boardgames_rl.training.league_settings import parse_league_args
from boardgames_rl.training.population import LATEST, Population, PopulationSettings
from boardgames_rl.training.rollouts import LocalRollouts, RolloutTask, TaskPlayer, Trajectories
from tests.training.helpers import model_weights, same_weights, wait_for_checkpoint

pytestmark = pytest.mark.timeout(600)

TINY = [
    "--game", "castle_flutterstone", "--timesteps", "900", "--games-per-iteration", "8",
    "--games-per-task", "4", "--eval-games", "2", "--eval-every", "0", "--checkpoint-every",
    "200", "--freeze-min-steps", "0", "--freeze-every", "300", "--net", "32,32",
]  # fmt: skip
"""A few iterations of a 2-player league: snapshots frozen by the step cap, checkpoints often."""


def rows(path: Path, drop: tuple[str, ...] = ()) -> list[dict[str, str]]:
    with open(path) as f:
        return [{k: v for k, v in r.items() if k not in drop} for r in csv.DictReader(f)]


TIME_COLUMNS = ("time/fps", "time/time_elapsed")


# ---------------------------------------------------------------------------- the population
def population(**settings) -> Population:
    return Population(["random", "heuristic"], PopulationSettings(**settings), num_players=2)


def test_pfsp_draws_more_often_the_member_the_learner_loses_to():
    """ "opponents drawn by prioritised fictitious self-play (more often the ones the learner
    loses to)": weights (1 - score) ** power; power 0 is uniform; latest_weight is self-play."""
    pop = population(latest_weight=0.2, power=2.0, prior_games=0)
    for _ in range(50):
        pop.record(["random"], 1.0)  # the learner always beats random
        pop.record(["heuristic"], 0.0 if _ % 5 else 1.0)  # and mostly loses to the heuristic
    p = pop.probabilities()
    assert p[LATEST] == pytest.approx(0.2)
    assert p["heuristic"] == pytest.approx(0.8) and p["random"] == pytest.approx(0.0)
    counts = Counter(pop.draw(np.random.default_rng(0), 1000))
    assert counts["random"] == 0 and 700 < counts["heuristic"] < 900
    uniform = population(latest_weight=0.0, power=0.0)
    uniform.record(["random"], 1.0)
    assert uniform.probabilities() == {"random": 0.5, "heuristic": 0.5}


def test_multi_player_tables_are_filled_seat_by_seat():
    """ "multi-player tables filled from the pool seat by seat": each other seat is its own
    draw, so one table mixes members; a game counts for every member at its table, scored so
    that an even result is 0.5."""
    pop = Population(["random", "heuristic"], PopulationSettings(latest_weight=0.3), 4)
    tables = [pop.draw(np.random.default_rng(i), 3) for i in range(200)]
    assert any(len(set(t)) == 3 for t in tables), "one table, three different members"
    assert all(len(t) == 3 for t in tables)
    assert pop.score_of(0.25) == 0.5 and pop.score_of(1.0) == 1.0 and pop.score_of(0) == 0
    pop.record(["random", "random", "heuristic"], 0.5)
    assert list(pop.members["random"].scores) == [1.0] == list(pop.members["heuristic"].scores)


def test_a_snapshot_is_frozen_when_it_beats_the_pool_or_after_the_step_cap():
    pop = population(freeze_score=0.6, min_games=10, freeze_every=1000, freeze_min_steps=50)
    assert pop.should_freeze(40) is None, "never sooner than freeze_min_steps"
    assert pop.should_freeze(100) is None, "no member has its min_games yet"
    for _ in range(10):
        pop.record(["random"], 1.0)
        pop.record(["heuristic"], 1.0)
    assert pop.should_freeze(100).startswith("beats the pool")
    pop.add_snapshot("main-100", 100)
    assert pop.should_freeze(150) is None, "the new snapshot has no games yet"
    assert pop.should_freeze(1100) == "step cap"


def test_the_snapshot_cap_drops_the_one_the_learner_beats_most():
    pop = population(max_snapshots=2, prior_games=0)
    pop.add_snapshot("a", 1)
    pop.add_snapshot("b", 2)
    pop.record(["a"], 1.0)
    pop.record(["b"], 0.0)
    assert pop.add_snapshot("c", 3) == ["a"]
    assert pop.snapshot_names == ["b", "c"]


def test_no_snapshot_is_frozen_with_a_cap_of_zero():
    """``max_snapshots = 0``: the fixed members are the whole population (a best response to
    them), whatever the score and however many steps pass."""
    pop = population(max_snapshots=0, min_games=1, freeze_every=1, freeze_min_steps=0,
                     latest_weight=0.0)  # fmt: skip
    for _ in range(5):
        pop.record(["random"], 1.0)
        pop.record(["heuristic"], 1.0)
    assert pop.pool_score() == 1.0
    assert pop.should_freeze(10) is None and pop.should_freeze(10**9) is None
    assert set(pop.probabilities()) == {"random", "heuristic"}


@pytest.mark.parametrize(
    "damage, message",
    [
        ({"last_freeze": -1}, "last_freeze"),
        ({"members": "x"}, "members must be a list"),
        (
            {"members": [{"name": "ppo:path=/etc/x", "kind": "fixed", "spec": "ppo:path=/etc/x"}]},
            "not one of --members",
        ),  # fmt: skip
        ({"members": [{"name": "s", "kind": "code"}]}, "kind must be"),
        ({"members": [{"name": "s", "kind": "snapshot", "scores": [2]}]}, "scores must be"),
    ],
)
def test_a_saved_population_is_data_checked_value_by_value(damage, message):
    pop = population()
    saved = pop.to_dict()
    with pytest.raises(InvalidConfigError, match=message):
        pop.restore({**saved, **damage}, "config.json")


# ---------------------------------------------------------------------------- rollouts
def test_a_task_is_a_pure_function_of_its_seeds_and_weights():
    """The same task gives the same trajectories in a fresh player, in a worker process, and in
    any batch; agents are reset at every game, so a player that played before plays the same."""
    game = make_game("castle_flutterstone", num_players=3)
    from boardgames_rl.training.league import fresh_network, parse_league_args

    args = parse_league_args(["--game", "castle_flutterstone", "--net", "16,16"])
    net, _ = fresh_network(game, args, (0,))
    state = {k: v.detach().numpy().copy() for k, v in net.state_dict().items()}
    lineups = (("net:main", "heuristic", "random"), ("random", "net:main", "net:main"))
    task = RolloutTask("main", (11, 12), (0, 1), lineups, {"main": state}, (16, 16))
    first = TaskPlayer(game).play(task, task.networks)
    player = TaskPlayer(game)
    player.play(task, task.networks)  # plays once before
    again = player.play(task, task.networks)
    pool = LocalRollouts(game, workers=1)
    try:
        remote = pool.run([task])[0]
    finally:
        pool.close()
    for other in (again, remote):
        for f in Trajectories.FIELDS:
            assert np.array_equal(getattr(first, f), getattr(other, f)), f
    assert first.lengths.sum() == len(first.actions) > 0
    assert set(first.win_shares) <= {0.0, 0.5, 1.0 / 3, 1.0}
    # only the learner's seat is recorded: game 1 has the network at seats 1 and 2
    game1 = slice(int(first.lengths[0]), None)
    seat_column = first.obs[game1, -3:]  # the seat feature of a seat-relative game
    assert (seat_column.argmax(1) == 1).all()


def test_advantages_are_gae_over_each_whole_game():
    traj = Trajectories(
        obs=np.zeros((3, 1), np.float32),
        legal=np.ones((3, 1), bool),
        actions=np.zeros(3, np.int64),
        logprobs=np.zeros(3, np.float32),
        values=np.array([0.5, 0.2, -0.1], np.float32),
        lengths=np.array([2, 1]),
        returns=np.array([1.0, -1.0]),
        win_shares=np.array([1.0, 0.0]),
    )
    adv = advantages(traj, gamma=0.9, lam=0.5)
    last0 = 1.0 - 0.2
    first0 = 0.9 * 0.2 - 0.5 + 0.9 * 0.5 * last0
    assert adv == pytest.approx([first0, last0, -1.0 + 0.1])


def test_the_learner_seat_and_the_opponents_come_from_the_seed_and_step():
    game = make_game("white_castle", num_players=4)
    args = parse_league_args(["--game", "white_castle", "-c", "num_players=4",
                              "--games-per-iteration", "40"])  # fmt: skip
    pop = Population(args.members, PopulationSettings(latest_weight=0.25), 4)
    state = {"w": np.zeros(1)}
    a, names_a = main_tasks(args, game, 100, pop, state, {})
    b, names_b = main_tasks(args, game, 100, pop, state, {})
    c, _ = main_tasks(args, game, 200, pop, state, {})
    assert [t.seeds for t in a] == [t.seeds for t in b] and names_a == names_b
    assert [t.seeds for t in a] != [t.seeds for t in c]
    seats = [s for t in a for s in t.seats]
    assert set(seats) == {0, 1, 2, 3}, "the learner's seat is drawn"
    lineups = [lineup for t in a for lineup in t.lineups]
    assert any(lineup.count("net:main") > 1 for lineup in lineups), "self-play seats"
    assert any({"random", "heuristic"} <= set(lineup) for lineup in lineups)


@pytest.mark.parametrize("seats", [[2], [1, 3]])
def test_the_learner_plays_only_its_seats_when_they_are_given(seats):
    """``--seats``: the learner's seat of every game is drawn from them (each comes up), the
    other seats are the population's."""
    game = make_game("white_castle", num_players=4)
    args = parse_league_args(["--game", "white_castle", "-c", "num_players=4",
                              "--games-per-iteration", "40", "--latest-weight", "0",
                              "--seats", ",".join(map(str, seats))])  # fmt: skip
    pop = Population(args.members, PopulationSettings(latest_weight=0.0), 4)
    tasks, _ = main_tasks(args, game, 100, pop, {"w": np.zeros(1)}, {})
    drawn = [s for t in tasks for s in t.seats]
    assert set(drawn) == set(seats) and len(drawn) == 40
    for t in tasks:
        for seat, lineup in zip(t.seats, t.lineups, strict=True):
            assert lineup[seat] == "net:main" and lineup.count("net:main") == 1


# ---------------------------------------------------------------------------- the trainer
def run(argv: list[str]) -> dict:
    return train_league(parse_league_args(argv))


def test_same_seed_same_league_in_this_process_and_in_worker_processes(tmp_path, capsys):
    """ "the same seeds and the same results as the local process pool": in this process and in
    2 worker processes, the same weights, snapshots and league table. The summary names the run
    folder as it is (a path with "train" in it was once printed with "league" in its place)."""
    here, pool = tmp_path / "training" / "here", tmp_path / "pool"
    run([*TINY, "--out", str(here)])
    summary = capsys.readouterr().out
    assert "league: done" in summary and f"model:       {here / 'model.zip'} (play" in summary
    assert f"boardgames-rl league --resume --out {here} " in summary
    run([*TINY, "--out", str(pool), "--num-workers", "2"])
    out = capsys.readouterr().out
    assert "froze main-" in out + summary and "rollouts on 2 worker processes" in out
    assert same_weights(here / "model.zip", pool / "model.zip")
    assert rows(here / "league.csv") == rows(pool / "league.csv")
    assert rows(here / "progress.csv", TIME_COLUMNS) == rows(pool / "progress.csv", TIME_COLUMNS)
    config = json.loads((here / "config.json").read_text())
    assert config["trainer"] == "league" and config["complete"] is True
    assert len([m for m in config["league"]["members"] if m["kind"] == "snapshot"]) >= 2
    game = make_game("castle_flutterstone")
    agent = make_agent(f"ppo:path={here / 'model.zip'}", game)
    record = play_game(game, [agent, make_agent("random", game)], 1)
    assert record.length > 0, "the main learner's model.zip plays as ppo:path="


def test_sigterm_then_the_same_command_continues_as_if_never_stopped(tmp_path):
    """ "Checkpoint and resume as training already does": a real process stopped by SIGTERM
    after its first checkpoint exits 143 with the checkpoint saved; the same command continues
    it, and the league ends as the uninterrupted one (weights, league table, logs), exploiters
    included."""
    argv = [*TINY, "--exploiters", "1", "--exploiter-every", "250", "--timesteps", "1200"]
    straight = tmp_path / "straight"
    run([*argv, "--out", str(straight)])
    stopped = tmp_path / "stopped"
    command = [sys.executable, "-m", "boardgames_rl.training.league", *argv, "--out", str(stopped)]
    proc = subprocess.Popen(command, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    wait_for_checkpoint(stopped, proc)
    proc.send_signal(signal.SIGTERM)
    _, err = proc.communicate(timeout=120)
    assert proc.returncode == 143, err
    assert "SIGTERM: stopped at step" in err and "checkpoint saved" in err
    config = json.loads((stopped / "config.json").read_text())
    assert config["complete"] is False and 0 < config["num_timesteps"] < 1200
    resumed = subprocess.run(command, capture_output=True, text=True, timeout=300)
    assert resumed.returncode == 0, resumed.stderr
    assert "resuming at step" in resumed.stdout
    assert same_weights(straight / "model.zip", stopped / "model.zip")
    assert rows(straight / "league.csv") == rows(stopped / "league.csv")
    assert rows(straight / "progress.csv", TIME_COLUMNS) == rows(
        stopped / "progress.csv", TIME_COLUMNS
    )
    members = json.loads((straight / "config.json").read_text())["league"]["members"]
    assert any(m["name"].startswith("exploiter0-") for m in members), "an exploiter was frozen"


def test_a_residual_league_starts_from_its_prior_and_its_model_plays(tmp_path):
    """``--prior heuristic``: the network adds the learned ``prior_scale`` times the heuristic's
    move to its logits (sb3-contrib's residual layout), so its model.zip plays as ppo:path=
    with its prior, as the exporter reads it."""
    out = tmp_path / "prior"
    run([*TINY, "--timesteps", "200", "--prior", "heuristic", "--out", str(out)])
    w = model_weights(out / "model.zip")
    assert "prior_scale" in w
    with zipfile.ZipFile(out / "model.zip") as z:
        kwargs = json.loads(z.read("data"))["policy_kwargs"]
    assert kwargs["prior"] == "heuristic"
    game = make_game("castle_flutterstone")
    agent = make_agent(f"ppo:path={out / 'model.zip'}", game)
    assert play_game(game, [agent, make_agent("heuristic", game)], 3).length > 0


def test_bad_settings_are_refused_in_one_line(tmp_path, capsys):
    cases = {
        ("--freeze-score", "0"): "--freeze-score must be in (0, 1]",
        ("--backend", "dask"): "invalid choice",
        ("--address", "127.0.0.1:6379"): "--address is for --backend ray",
        ("--prior", "ppo:path=x"): "--prior must be one of",
        ("--members", "heuristic,heuristic"): "--members must be distinct",
        ("--members", "", "--latest-weight", "0"): "needs a fixed member",
        ("--games-per-task", "0"): "--games-per-task must be >= 1",
        ("--seats", "1,1"): "--seats must be distinct seat indices",
        ("--seats", "one"): "--seats: 'one' is not a list of int",
        ("--max-snapshots", "-1"): "--max-snapshots must be >= 0",
        ("--seats", "1", "--exploiters", "1"): "--seats with --exploiters",
    }
    for flags, message in cases.items():
        code = cli(["league", "--game", "white_castle", *flags, "--out", str(tmp_path / "x")])
        err = capsys.readouterr().err
        assert code == 2 and message in err, (flags, err)
        assert len(err.strip().splitlines()) == 1 or "usage" in err
    code = cli(["league", "--game", "white_castle", "--members", "nobody", "--out",
                str(tmp_path / "y")])  # fmt: skip
    assert code == 1 and "nobody" in capsys.readouterr().err
    assert not (tmp_path / "y" / "config.json").exists()
    code = cli(["league", "--game", "white_castle", "--seats", "2", "--out", str(tmp_path / "z")])
    err = capsys.readouterr().err
    assert code == 1 and "--seats [2]" in err and "seats 0 to 1" in err, err
    assert not (tmp_path / "z" / "config.json").exists()


def test_a_league_folder_and_a_training_folder_are_not_read_as_each_other(tmp_path, capsys):
    league = tmp_path / "league"
    run([*TINY, "--timesteps", "100", "--out", str(league)])
    code = cli(["train", "--resume", "--out", str(league), "--timesteps", "10"])
    err = capsys.readouterr().err
    assert code == 1 and "another trainer" in err and "boardgames-rl league --resume" in err
    ppo = tmp_path / "ppo"
    assert cli(["train", "--game", "castle_flutterstone", "--timesteps", "64", "--num-steps",
                "16", "--eval-games", "0", "--out", str(ppo)]) == 0  # fmt: skip
    capsys.readouterr()
    code = cli(["league", "--resume", "--out", str(ppo), "--timesteps", "10"])
    assert code == 2 and "is not a league run" in capsys.readouterr().err


def test_a_trust_option_in_a_saved_league_is_refused_never_honoured(tmp_path, capsys):
    """Files are data: ``--members`` read back from config.json cannot opt in to code."""
    out = tmp_path / "league"
    run([*TINY, "--timesteps", "100", "--out", str(out)])
    config = json.loads((out / "config.json").read_text())
    config["settings"]["members"] = ["ppo:path=/tmp/evil.zip,trust=1"]
    (out / "config.json").write_text(json.dumps(config))
    code = cli(["league", "--resume", "--out", str(out), "--timesteps", "10"])
    err = capsys.readouterr().err
    assert code == 2 and "trust" in err
    assert os.path.exists(out / "model.zip")


def test_the_evaluation_plays_the_network_with_its_own_prior(tmp_path):
    """A residual network on the random agent's moves is evaluated with that prior, not the
    heuristic (the default of a file that names none): its best/ model says so too."""
    out = tmp_path / "random_prior"
    run([*TINY, "--timesteps", "100", "--prior", "random", "--eval-games", "2", "--out", str(out)])
    for path in (out / "model.zip", out / "best" / "model.zip"):
        with zipfile.ZipFile(path) as z:
            assert json.loads(z.read("data"))["policy_kwargs"]["prior"] == "random"
    from boardgames_rl.training.ppo import snapshot_policy

    assert snapshot_policy(model_weights(out / "model.zip"), "random").prior == "random"


def test_a_solver_prior_league_plays_three_players_on_the_solver(tmp_path, monkeypatch):
    """``--prior solver``: Castle Flutterstone's race solver (racing its rival at 3 players) is
    the prior a residual league starts from; the model names it, and plays with it. A small
    track solves in a second, into a cache folder of the test's own."""
    monkeypatch.setenv("BOARDGAMES_RL_CACHE", str(tmp_path / "cache"))
    small = ["-c", "num_players=3", "-c", "goal=8", "-c", "bridges=3,5", "-c", "aim_levels=3",
             "-c", "force_levels=4", "-c", "yaws=-15,0"]  # fmt: skip
    out = tmp_path / "solver"
    run([*TINY, *small, "--timesteps", "200", "--prior", "solver", "--prior-scale", "6",
         "--out", str(out)])  # fmt: skip
    with zipfile.ZipFile(out / "model.zip") as z:
        assert json.loads(z.read("data"))["policy_kwargs"]["prior"] == "solver"
    game = make_game("castle_flutterstone", num_players=3, goal=8, bridges=[3, 5], aim_levels=3,
                     force_levels=4, yaws=[-15, 0])  # fmt: skip
    agent = make_agent(f"ppo:path={out / 'model.zip'}", game)
    assert play_game(game, [agent, *[make_agent("heuristic", game)] * 2], 3).length > 0


def test_a_solver_prior_is_refused_where_the_game_has_no_solver(tmp_path, capsys):
    out = tmp_path / "nosolver"
    code = cli(["league", "--game", "white_castle", "--prior", "solver", "--out", str(out)])
    err = capsys.readouterr().err
    assert code in (1, 2) and "declares no 'solver' agent" in err
    assert len(err.strip().splitlines()) == 1
    assert not (out / "config.json").exists()


def test_a_league_starts_from_an_entry_even_of_another_variant(tmp_path, capsys):
    """``--init-from ENTRY``: the main learner's actor is the entry's, float for float (here the
    basic game's shipped entry starting a pesky-ghost league, whose sizes fit); config.json
    names the entry and its weights' sha256. An entry that is not the run's network is refused
    in one line naming the flag, before a run folder exists."""
    from boardgames_rl.agents.pretrained import load_weights
    from boardgames_rl.training.from_entry import resolve_entry

    out = tmp_path / "pesky"
    code = cli(["league", "--game", "castle_flutterstone", "-c", "pesky_ghosts=true", "--net",
                "256,256", "--init-from", "castle_flutterstone-2p", "--timesteps", "0",
                "--eval-games", "2", "--out", str(out)])  # fmt: skip
    assert code == 0, capsys.readouterr().err
    entry = resolve_entry("castle_flutterstone-2p")
    w = model_weights(out / "model.zip")
    names = ["mlp_extractor.policy_net.0", "mlp_extractor.policy_net.2", "action_net"]
    for name, (weight, bias) in zip(names, load_weights(entry), strict=True):
        assert np.array_equal(w[f"{name}.weight"].numpy(), weight)
        assert np.array_equal(w[f"{name}.bias"].numpy(), bias)
    config = json.loads((out / "config.json").read_text())
    assert config["initialised_from"]["entry"] == "castle_flutterstone-2p"
    assert config["initialised_from"]["weights_sha256"] == entry.meta["sha256"]
    refusals = {
        ("--prior", "heuristic"): "it is a plain policy (no prior): drop --prior",
        ("--net", "64"): "pass --net 256,256",
        ("-c", "num_players=3"): "takes (124,) observations",
        ("--init-from", "no_such_entry"): "no shipped entry of that name",
    }
    for flags, message in refusals.items():
        bad = tmp_path / "bad"
        argv = ["league", "--game", "castle_flutterstone", "--init-from", "castle_flutterstone-2p",
                *flags, "--out", str(bad)]  # fmt: skip
        assert cli(argv) != 0
        err = capsys.readouterr().err
        assert message in err and len(err.strip().splitlines()) == 1, (flags, err)
        assert not bad.exists()
