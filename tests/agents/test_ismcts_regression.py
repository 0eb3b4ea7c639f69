"""ISMCTS decisions at fixed seeds, recorded before the search was made faster (issue 14.4).

The speed-ups (no info set per rollout move where the rollout agent needs none, ``_apply`` without
re-validation after a legal pick, cheaper determinization) must not change the algorithm: for a
fixed seed the agent must choose the same action *and* end the search with the same root visit
counts as the recorded version. The record (``ismcts_regression.json`` beside this file) holds, per
game configuration and agent spec, the decision states (seeded random play) and both figures.

A deliberate change of the search (a different rollout, a different tree policy) must re-record:
``python tests/agents/test_ismcts_regression.py --record`` — and say so in the commit, with a
re-measured strength series (``lab/experiments/strength_ladder.py``).

Night of the Ninja (issue 14.4, second step): the first cases' states all lie in round 1, where a
rollout cut after 10 actions never reaches House Reveal, every playout scores 0 and the visits
are even whatever the rollout does, so they could not tell one rollout policy from another. The
cases "after N random actions" are past round 1. Their ``rollout=heuristic`` records were checked
equal to the search of commit 67caefe (heuristic rollouts through ``state.info_set(p)``) before
they were recorded: ``act_on_state`` changed nothing. The tuned preset then moved to
``rollout=fast`` (the heuristic's rules on the determinization's facts; ``TUNED_SETTINGS``): its
round-1 records above stayed the same (even visits), the new "after" records are the new search
(recorded, not compared with the old one, which differs there).
"""

from __future__ import annotations

import json
import sys
from pathlib import Path
from typing import Any

import numpy as np
import pytest

from boardgames_rl.agents import make_agent
from boardgames_rl.registry import make_game

RECORD = Path(__file__).with_name("ismcts_regression.json")

CASES: list[tuple[str, dict[str, Any], str, int] | tuple[str, dict[str, Any], str, int, int]] = [
    # (game, config, agent spec, number of decision states[, random actions played first])
    ("castle_flutterstone", {}, "ismcts:preset=tuned,iterations=60", 3),
    ("castle_nightingale", {}, "ismcts:preset=tuned,iterations=60", 3),
    ("night_of_the_ninja", {"num_players": 5}, "ismcts:preset=tuned,iterations=60", 3),
    ("night_of_the_ninja", {"num_players": 11}, "ismcts:preset=tuned,iterations=40", 3),
    ("white_castle", {}, "ismcts:preset=tuned,iterations=60", 3),
    ("white_castle", {"num_players": 4}, "ismcts:preset=tuned,iterations=40", 3),
    # random rollouts to the end, no prior, no cut-off
    ("castle_flutterstone", {}, "ismcts:iterations=30", 2),
    ("castle_nightingale", {}, "ismcts:iterations=30", 2),
    ("night_of_the_ninja", {"num_players": 5}, "ismcts:iterations=30", 2),
    ("white_castle", {}, "ismcts:iterations=20", 2),
    # a heuristic rollout with epsilon in a 2-player game, and an epsilon-free one
    (
        "castle_nightingale",
        {},
        "ismcts:iterations=20,rollout=heuristic,epsilon=0.3,rollout_depth=8",
        2,
    ),
    ("white_castle", {}, "ismcts:iterations=20,rollout=heuristic,rollout_depth=6", 2),
    # Night of the Ninja after its first round: the states above are all in round 1, where a
    # rollout cut at 10 actions never reaches a House Reveal and every playout scores 0 (even
    # visits: the prior's move whatever the rollout); here tokens are held, so rollouts count
    ("night_of_the_ninja", {"num_players": 5}, "ismcts:preset=tuned,iterations=60", 3, 120),
    (
        "night_of_the_ninja",
        {"num_players": 5},
        "ismcts:preset=tuned,rollout=heuristic,iterations=60",
        3,
        120,
    ),
    ("night_of_the_ninja", {"num_players": 11}, "ismcts:preset=tuned,iterations=40", 2, 350),
    (
        "night_of_the_ninja",
        {"num_players": 11},
        "ismcts:preset=tuned,rollout=heuristic,iterations=40",
        2,
        350,
    ),
]


def _key(name: str, config: dict[str, Any], spec: str, skip: int = 0) -> str:
    after = f" after {skip} random actions" if skip else ""
    return f"{name} {json.dumps(config, sort_keys=True)} {spec}{after}"


def _decision_states(game, count: int, skip: int = 0):
    """``count`` states with 2+ legal actions, from seeded random play of seeded games (``skip``
    random actions more before the usual 4..40)."""
    found, seed = [], 0
    while len(found) < count:
        rng = np.random.default_rng(seed)
        state = game.new_state(seed)
        for _ in range(skip + 4 + 9 * (seed % 5)):
            if state.is_terminal():
                break
            state.apply(int(rng.choice(state.legal_actions())))
        if not state.is_terminal() and len(state.legal_actions()) > 1:
            found.append((seed, state))
        seed += 1
    return found


def _decide(
    name: str, config: dict[str, Any], spec: str, count: int, skip: int = 0
) -> list[dict[str, Any]]:
    game = make_game(name, **config)
    agent = make_agent(spec, game)
    out = []
    for seed, state in _decision_states(game, count, skip):
        agent.reset()
        info = state.info_set(state.current_player)
        action = agent.act(info, np.random.default_rng(1000 + seed))
        visits = [[a, v] for a, v in agent.last_visits.items()]
        out.append({"state_seed": seed, "action": int(action), "visits": visits})
    return out


@pytest.mark.parametrize("case", CASES, ids=[_key(*c[:3], *c[4:]) for c in CASES])
def test_same_decisions_and_root_visits_as_recorded(case):
    """Agent decisions must stay identical for a fixed seed where the algorithm is unchanged
    (issue 14.4): same action, same visit count of every root child."""
    name, config, spec, count, *skip = case
    recorded = json.loads(RECORD.read_text())[_key(name, config, spec, *skip)]
    assert _decide(name, config, spec, count, *skip) == recorded


def _record() -> None:
    lines = [
        f"{json.dumps(_key(n, c, s, *skip))}: {json.dumps(_decide(n, c, s, k, *skip))}"
        for n, c, s, k, *skip in CASES
    ]
    RECORD.write_text("{\n" + ",\n".join(lines) + "\n}\n")
    print(f"recorded {RECORD}")


if __name__ == "__main__":
    if sys.argv[1:] != ["--record"]:
        sys.exit("usage: python tests/agents/test_ismcts_regression.py --record")
    _record()
