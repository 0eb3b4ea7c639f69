"""Issue 40 item 13: ``boardgames-rl list`` says which game setups each agent plays (for
``pretrained`` and ``pretrained+search``: the games and player counts of the shipped entries), and
asking one for a setup it has no entry for fails in one short line naming the ones it has.
Driven through the real CLI in a subprocess."""

from __future__ import annotations

import json
import re
import subprocess
import sys
from pathlib import Path

import pytest

import boardgames_rl

CLI = [sys.executable, "-m", "boardgames_rl.cli"]
SHIPPED = Path(boardgames_rl.__file__).parent / "pretrained"


def _shipped_setups() -> set[tuple[str, int]]:
    """(game, player count) of every shipped entry, read from the JSON files themselves."""
    from boardgames_rl.registry import make_game

    setups = set()
    for path in sorted(SHIPPED.glob("*.json")):
        meta = json.loads(path.read_text())
        count = meta["config"].get("num_players", make_game(meta["game"]).num_players)
        setups.add((meta["game"], int(count)))
    return setups


def _agent_block(out: str, name: str) -> str:
    """The lines of ``list``'s output about agent ``name`` (its summary, options and setups)."""
    match = re.search(rf"^  {re.escape(name)}  .*\n((?:      .*\n)+)", out, re.M)
    assert match, f"no block for agent {name} in:\n{out}"
    return match.group(1)


def test_list_names_the_setups_of_the_pretrained_agents() -> None:
    proc = subprocess.run([*CLI, "list"], capture_output=True, text=True, timeout=120)
    assert proc.returncode == 0, proc.stderr
    shipped = _shipped_setups()
    assert shipped
    for name in ("pretrained", "pretrained+search"):
        lines = [x for x in _agent_block(proc.stdout, name).splitlines() if "setups:" in x]
        assert len(lines) == 1, (name, lines)
        setups = lines[0].split("setups:", 1)[1]
        assert "every" not in setups and "all games" not in setups
        listed = set(re.findall(r"([a-z_]+) (\d+)p\b", setups))
        assert listed == {(g, str(n)) for g, n in shipped}, (name, setups)
    # an agent that plays every setup says so
    assert "setups: every setup of every game" in _agent_block(proc.stdout, "random")


@pytest.mark.parametrize("agent", ["pretrained", "pretrained+search"])
def test_an_unsupported_setup_fails_in_one_short_line(agent: str) -> None:
    proc = subprocess.run(
        [
            *CLI,
            "arena",
            "night_of_the_ninja",
            agent,
            "random",
            "-c",
            "target_score=5",
            "--games",
            "1",
        ],
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert proc.returncode == 1
    lines = proc.stderr.strip().splitlines()
    assert len(lines) == 1, proc.stderr
    line = lines[0]
    assert len(line) < 200, line
    assert "Traceback" not in proc.stderr
    assert f"{agent} has no entry for night_of_the_ninja 5p target_score=5" in line
    # the setups it does have, the same game's first
    assert "shipped: night_of_the_ninja " in line
