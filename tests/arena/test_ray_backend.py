"""Issue 17.4, tournaments on Ray: "``boardgames-rl arena ... --backend ray [--address ADDR]`` runs
games as Ray tasks on a local Ray or an existing cluster, with the same seeds, the same resumable
``games.jsonl``, and results byte-identical to the process-pool backend for the same command; a
worker node lost mid-tournament loses no game (its games are rerun)."

The cluster tests come last: while the simulated cluster is up, every Ray run in this process
joins it."""

from __future__ import annotations

import json
import socket
import time
from pathlib import Path

import pytest

ray = pytest.importorskip("ray")
cluster_utils = pytest.importorskip("ray.cluster_utils")

from boardgames_rl._util import extras  # noqa: E402
from boardgames_rl.arena import tournament  # noqa: E402
from boardgames_rl.arena.backends import RayBackend, RayGameLostError, make_backend  # noqa: E402
from boardgames_rl.arena.records import GAMES_FILE  # noqa: E402
from boardgames_rl.cli import main  # noqa: E402
from boardgames_rl.core.errors import MissingExtraError  # noqa: E402

pytestmark = pytest.mark.timeout(300)

COMMAND = ["arena", "white_castle", "random", "heuristic", "--games", "3", "--seed", "5"]
# About 1 s of CPU a game: a game begun when a node is removed is still being played when the
# node's processes die (with 0.3 s games, a CI run once saw the game finish first, so that Ray had
# nothing to retry and the "played again" check failed)
SLOW_AGENTS = ["ismcts:iterations=40", "random"]
SLOW_GAMES = 6  # one table (a pair), seats alternating


def folder_bytes(folder: Path) -> dict[str, bytes]:
    return {p.name: p.read_bytes() for p in sorted(folder.iterdir()) if p.is_file()}


@pytest.fixture(scope="module", autouse=True)
def no_ray_left_running():
    assert not ray.is_initialized()
    yield
    if ray.is_initialized():
        ray.shutdown()


def test_cli_local_ray_equals_process_pool_byte_for_byte(tmp_path, capsys, monkeypatch):
    """ "results byte-identical to the process-pool backend for the same command (same games.jsonl
    lines in the same order, same results files)"; "on a local Ray (started by the command when
    no address is given, with num_cpus = --workers)"."""
    pool, on_ray = tmp_path / "pool", tmp_path / "ray"
    assert main([*COMMAND, "--workers", "2", "--no-progress", "--out", str(pool)]) == 0
    pool_table = capsys.readouterr().out.split("files in")[0]
    argv = [*COMMAND, "--workers", "2", "--no-progress", "--out", str(on_ray), "--backend", "ray"]
    monkeypatch.setenv("RAY_ADDRESS", "127.0.0.1:1")  # a Ray of its own, not one found around
    assert main(argv) == 0
    ray_table = capsys.readouterr().out.split("files in")[0]
    assert not ray.is_initialized(), "the command stops the local Ray it started"
    assert ray_table == pool_table
    pool_files, ray_files = folder_bytes(pool), folder_bytes(on_ray)
    assert set(ray_files) >= {GAMES_FILE, "tournament.json", "results.json", "results.csv"}
    assert ray_files == pool_files
    lines = ray_files[GAMES_FILE].decode().splitlines()
    assert len(lines) == 3
    assert [json.loads(x)["game_index"] for x in lines] == [0, 1, 2]


def test_unreachable_address_is_one_line_saying_what_to_do(tmp_path, capsys):
    """ "Errors: --address unreachable -> one-line error saying what to do"."""
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]  # closed again: nothing listens there
    out = tmp_path / "t"
    argv = [*COMMAND, "--no-progress", "--backend", "ray", "--address", f"127.0.0.1:{port}"]
    assert main([*argv, "--out", str(out)]) == 1
    err = capsys.readouterr().err
    assert len(err.strip().splitlines()) == 1, err
    assert f"cannot reach a Ray cluster at 127.0.0.1:{port}" in err
    assert "ray start --head" in err and "drop --address" in err
    assert main([*COMMAND, "--no-progress", "--backend", "ray", "--address", "nohost"]) == 1
    assert "is not host:port" in capsys.readouterr().err
    assert main([*COMMAND, "--no-progress", "--address", "127.0.0.1:6379"]) == 1
    assert "add --backend ray" in capsys.readouterr().err


def test_ray_not_installed_names_the_extra(monkeypatch, tmp_path, capsys):
    """ "ray not installed -> the MissingExtraError naming [ray]", before any file is written."""
    real = extras.has_module
    monkeypatch.setattr(extras, "has_module", lambda m: m != "ray" and real(m))
    with pytest.raises(MissingExtraError, match=r"boardgames-rl\[ray\]"):
        make_backend("ray")
    out = tmp_path / "t"
    assert main([*COMMAND, "--no-progress", "--backend", "ray", "--out", str(out)]) == 1
    err = capsys.readouterr().err
    assert len(err.strip().splitlines()) == 1 and "pip install 'boardgames-rl[ray]'" in err
    assert not out.exists()


def test_backend_argument_errors():
    """The arena's Python API takes the backend: a name, or an object; bad ones are refused."""
    with pytest.raises(ValueError, match="backend must be one of"):
        make_backend("dask")
    with pytest.raises(ValueError, match="address is for backend='ray'"):
        make_backend("process", "127.0.0.1:6379")
    with pytest.raises(ValueError, match="max_retries"):
        RayBackend(max_retries=-1)
    with pytest.raises(TypeError, match="backend must be one of"):
        tournament("white_castle", ["random", "heuristic"], 1, progress=False, backend=object())


@pytest.fixture(scope="module")
def pool_slow(tmp_path_factory) -> Path:
    """The process-pool run of the slow tournament (the reference for the cluster runs)."""
    out = tmp_path_factory.mktemp("pool_slow")
    tournament("white_castle", SLOW_AGENTS, SLOW_GAMES, workers=2, seed=3, out=out, progress=False)
    return out


@pytest.fixture(scope="module")
def cluster():
    """Ray's own simulated multi-node cluster on this machine: a head node with 0 CPUs (so
    every game runs on a worker node) and 2 worker nodes of 1 CPU each. Its worker processes run
    at the test's own priority: Ray nices them to 15 by default, and on a machine loaded by
    other work (a CI run beside another job) the games then crawl at a few percent of a core,
    which once made the node-kill test wait past its 300 s timeout for the game played again."""
    system = {
        "health_check_period_ms": 500,
        "health_check_failure_threshold": 3,
        "worker_niceness": 0,
    }
    c = cluster_utils.Cluster(
        initialize_head=True,
        head_node_args={
            "num_cpus": 0,
            "object_store_memory": 80 * 2**20,
            "include_dashboard": False,
            "_system_config": system,
        },
    )
    workers = [c.add_node(num_cpus=1, object_store_memory=80 * 2**20) for _ in range(2)]
    c.wait_for_nodes()
    ray.init(address=c.address, include_dashboard=False, logging_level="warning")
    yield c, workers
    ray.shutdown()
    c.shutdown()


def test_node_killed_mid_tournament_loses_no_game(cluster, pool_slow, tmp_path):
    """ "a worker node lost mid-tournament loses no game (its games are rerun: Ray task retries,
    max_retries, plus the resumable record)"; "kill one worker node mid-run (remove_node while
    tasks are in flight) ... check every game is there, once, and the results equal the
    process-pool run"."""
    c, workers = cluster
    backend = RayBackend(max_retries=3, track_attempts=True)
    killed: list[tuple[tuple[int, int], str]] = []
    by_id = {n.node_id: n for n in workers}

    def kill_a_node_playing_a_game(record):
        """After the first game: remove the worker node of a game that began after that first
        game ended (a task in flight with a whole game still to play). A game already running
        then may be about to end, and one that ends before its node goes is not played again:
        killing its node tested nothing (a race that faster engines lost)."""
        if killed:
            return
        earlier = set(backend.running_games())
        deadline = time.monotonic() + 20
        while not killed and time.monotonic() < deadline:
            running = [
                (k, n)
                for k, n in backend.running_games().items()
                if n in by_id and k not in earlier
            ]
            if running:
                c.remove_node(by_id[running[-1][1]], allow_graceful=False)
                killed.append(running[-1])
            else:
                time.sleep(0.01)

    out = tmp_path / "cluster"
    result = tournament(
        "white_castle",
        SLOW_AGENTS,
        SLOW_GAMES,
        seed=3,
        out=out,
        progress=False,
        backend=backend,
        on_game=kill_a_node_playing_a_game,
    )
    assert killed
    deadline = time.monotonic() + 30  # Ray's control store notes a removed node's death late
    while True:
        alive = [n for n in ray.nodes() if n["Alive"] and n["Resources"].get("CPU")]
        if len(alive) == 1 or time.monotonic() > deadline:
            break
        time.sleep(0.1)
    assert len(alive) == 1, "one worker node is gone"
    keys = [(r.table, r.game_index) for r in result.records]
    assert sorted(keys) == [(0, g) for g in range(SLOW_GAMES)]
    lines = (out / GAMES_FILE).read_text().splitlines()
    assert len(lines) == SLOW_GAMES == len(set(lines)), "every game there, once"
    assert folder_bytes(out) == folder_bytes(pool_slow)
    assert sorted(backend.attempts) == keys
    print(f"\nkilled (game, node) {killed}; games rerun {backend.reruns}; {backend.attempts}")
    assert backend.attempts[killed[0][0]] == 2, "the game on the killed node was played again"
    assert backend.started_games()[killed[0][0]][0] == killed[0][1]


def test_resume_on_the_cluster_plays_only_the_missing_games(cluster, pool_slow, tmp_path):
    """ "the same resumable games.jsonl": a folder begun by the process pool (first game recorded,
    the second half-written) is finished on Ray, with the same files."""
    out = tmp_path / "resumed"
    out.mkdir()
    (out / "tournament.json").write_bytes((pool_slow / "tournament.json").read_bytes())
    first, second = (pool_slow / GAMES_FILE).read_text().splitlines(keepends=True)[:2]
    (out / GAMES_FILE).write_text(first + second[: len(second) // 2])
    backend = RayBackend(track_attempts=True)
    tournament(
        "white_castle", SLOW_AGENTS, SLOW_GAMES, seed=3, out=out, progress=False, backend=backend
    )
    assert sorted(backend.attempts) == [(0, g) for g in range(1, SLOW_GAMES)]
    assert folder_bytes(out) == folder_bytes(pool_slow)


def test_cli_address_joins_the_existing_cluster(cluster, tmp_path, capsys):
    """ "or an existing cluster": ``--address`` of the cluster's head (as ``ray start --head``
    prints it) runs the games there and leaves the cluster running; same files as the pool."""
    c, _ = cluster
    ray.shutdown()  # the command connects by itself
    try:
        pool, on_ray = tmp_path / "pool", tmp_path / "ray"
        assert main([*COMMAND, "--no-progress", "--out", str(pool)]) == 0
        argv = [*COMMAND, "--no-progress", "--backend", "ray", "--address", c.address]
        assert main([*argv, "--out", str(on_ray)]) == 0
        assert not ray.is_initialized()
        assert folder_bytes(on_ray) == folder_bytes(pool)
    finally:
        ray.init(address=c.address, include_dashboard=False, logging_level="warning")
    assert len([n for n in ray.nodes() if n["Alive"]]) >= 2, "the cluster is still up"


def test_game_lost_beyond_retries_stops_with_the_record_resumable(cluster, pool_slow, tmp_path):
    """ "plus the resumable record": with no retries left a lost game stops the tournament with a
    one-line error saying to run it again; the finished games are in games.jsonl and running the
    same tournament again plays only the missing ones, with the same files as the pool."""
    c, _ = cluster
    fresh = c.add_node(num_cpus=1, object_store_memory=80 * 2**20)
    c.wait_for_nodes()
    backend = RayBackend(max_retries=0, track_attempts=True)
    killed: list[str] = []

    def kill_the_fresh_node_while_it_plays(record):
        deadline = time.monotonic() + 20
        while not killed and time.monotonic() < deadline:
            if fresh.node_id in backend.running_games().values():
                c.remove_node(fresh, allow_graceful=False)
                killed.append(fresh.node_id)
            else:
                time.sleep(0.01)

    out = tmp_path / "lost"
    args = ("white_castle", SLOW_AGENTS, SLOW_GAMES)
    with pytest.raises(RayGameLostError, match="run the same tournament again") as e:
        tournament(*args, seed=3, out=out, progress=False, backend=backend,
                   on_game=kill_the_fresh_node_while_it_plays)  # fmt: skip
    assert killed and len(str(e.value).splitlines()) == 1
    kept = (out / GAMES_FILE).read_text().splitlines()
    assert 1 <= len(kept) < SLOW_GAMES
    again = RayBackend(track_attempts=True)
    tournament(*args, seed=3, out=out, progress=False, backend=again)
    assert len(again.attempts) == SLOW_GAMES - len(kept)
    assert folder_bytes(out) == folder_bytes(pool_slow)
