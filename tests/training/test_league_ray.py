"""Issue 43.1, the league's rollouts on Ray: "Rollouts run on Ray actors (a local Ray by default,
``--address`` for a cluster, the same seeds and the same results as the local process pool, a lost
node costs at most its rollouts) ... Tested on a simulated multi-node cluster as the arena's Ray
backend is."

The cluster tests come last: while the simulated cluster is up, every Ray run in this process
joins it."""

from __future__ import annotations

import threading
import time
from pathlib import Path

import numpy as np
import pytest

ray = pytest.importorskip("ray")
cluster_utils = pytest.importorskip("ray.cluster_utils")

from boardgames_rl import make_game  # noqa: E402
from boardgames_rl.cli import main as cli  # noqa: E402
from boardgames_rl.training.league import fresh_network  # noqa: E402
from boardgames_rl.training.league_settings import parse_league_args  # noqa: E402
from boardgames_rl.training.rollouts import (  # noqa: E402
    LocalRollouts,
    RayRollouts,
    RolloutTask,
    Trajectories,
    plain_state,
)
from tests.training.helpers import same_weights  # noqa: E402

pytestmark = pytest.mark.timeout(300)

LEAGUE = [
    "league", "--game", "castle_flutterstone", "--timesteps", "500", "--games-per-iteration",
    "8", "--games-per-task", "2", "--eval-games", "0", "--freeze-min-steps", "0",
    "--freeze-every", "200", "--net", "32,32",
]  # fmt: skip


def same(a: list[Trajectories], b: list[Trajectories]) -> bool:
    return len(a) == len(b) and all(
        np.array_equal(getattr(x, f), getattr(y, f))
        for x, y in zip(a, b, strict=True)
        for f in Trajectories.FIELDS
    )


@pytest.fixture(scope="module", autouse=True)
def no_ray_left_running():
    assert not ray.is_initialized()
    yield
    if ray.is_initialized():
        ray.shutdown()


@pytest.fixture(scope="module")
def local_league(tmp_path_factory) -> Path:
    """The league in 2 local worker processes (the reference of the Ray runs)."""
    out = tmp_path_factory.mktemp("local") / "league"
    assert cli([*LEAGUE, "--num-workers", "2", "--out", str(out)]) == 0
    return out


def test_a_local_ray_gives_the_league_of_the_local_processes(local_league, tmp_path, capsys):
    """ "a local Ray by default ... the same seeds and the same results as the local process
    pool": ``--backend ray`` starts a Ray of its own (2 CPUs), stops it at the end."""
    out = tmp_path / "ray"
    assert cli([*LEAGUE, "--backend", "ray", "--num-workers", "2", "--out", str(out)]) == 0
    assert "rollouts on 2 Ray actors" in capsys.readouterr().out
    assert same_weights(local_league / "model.zip", out / "model.zip")
    assert (local_league / "league.csv").read_text() == (out / "league.csv").read_text()
    assert not ray.is_initialized(), "the Ray the command started is stopped"


def slow_tasks() -> tuple[object, list[RolloutTask]]:
    """Six tasks of a few seconds each: a 3-player White Castle network against heuristics, six
    games a task (the compiled engines played two games a task within the second the node-loss
    test waits before it removes a node)."""
    game = make_game("white_castle", num_players=3)
    args = parse_league_args(["--game", "white_castle", "--net", "16,16"])
    net, _ = fresh_network(game, args, (5,))
    state = plain_state(net)
    tasks = [
        RolloutTask(
            "main",
            tuple(100 * k + i for k in range(1, 7)),
            tuple((i + k) % 3 for k in range(6)),
            tuple(
                tuple("net:main" if s == seat else "heuristic" for s in range(3))
                for seat in ((i + k) % 3 for k in range(6))
            ),
            {"main": state},
            (16, 16),
        )
        for i in range(6)
    ]
    return game, tasks


@pytest.fixture(scope="module")
def cluster():
    """Ray's own simulated multi-node cluster on this machine: a head node with 0 CPUs (so every
    rollout runs on a worker node) and 2 worker nodes of 1 CPU each, their workers at the test's
    own priority (as the arena's cluster tests, test_ray_backend.py)."""
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
    yield c, workers
    if ray.is_initialized():
        ray.shutdown()
    c.shutdown()


def test_address_joins_the_cluster_and_gives_the_same_league(cluster, local_league, tmp_path):
    """ "--address for a cluster": the command joins the running cluster (as `ray start --head`
    prints its address), plays its rollouts on the worker nodes, leaves the cluster running."""
    c, _ = cluster
    out = tmp_path / "cluster"
    assert cli([*LEAGUE, "--backend", "ray", "--address", c.address, "--out", str(out)]) == 0
    assert same_weights(local_league / "model.zip", out / "model.zip")
    ray.init(address=c.address, include_dashboard=False, logging_level="warning")
    assert len([n for n in ray.nodes() if n["Alive"]]) == 3, "the cluster is still up"


def test_a_node_lost_mid_iteration_costs_only_its_rollouts(cluster):
    """ "a lost node costs at most its rollouts": a worker node removed while both actors play
    takes its actor and the task it was playing; that task is played again by the other actor,
    and the iteration's trajectories are those of the local process pool."""
    c, workers = cluster
    if not ray.is_initialized():
        ray.init(address=c.address, include_dashboard=False, logging_level="warning")
    game, tasks = slow_tasks()
    local = LocalRollouts(game, workers=0)
    try:
        expected = local.run(tasks)
    finally:
        local.close()
    rollouts = RayRollouts(game, workers=2)
    assert len(rollouts.actors) == 2
    nodes = {ray.get(a.node.remote()) for a in rollouts.actors}
    assert nodes == {w.node_id for w in workers}, "one actor on each worker node"
    results: list = []
    runner = threading.Thread(target=lambda: results.append(rollouts.run(tasks)))
    runner.start()
    time.sleep(1.0)  # both actors are playing their first task
    c.remove_node(workers[0], allow_graceful=False)
    runner.join(timeout=240)
    assert not runner.is_alive()
    assert rollouts.lost_actors == 1 and rollouts.resubmitted >= 1
    assert same(results[0], expected), "the same trajectories as the local process pool"
    alive = [n for n in ray.nodes() if n["Alive"] and n["Resources"].get("CPU")]
    assert len(alive) == 1
    again = rollouts.run(tasks[:2])  # the next iteration runs on what is left
    assert same(again, expected[:2])
    rollouts.close()
