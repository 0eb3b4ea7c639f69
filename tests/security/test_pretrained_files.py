"""A ``pretrained:dir=...`` entry is data (issue 39): its JSON and weights are read only as
regular files with a size cap, every field is checked in one place, layer widths are capped
before anything is built, every tensor is a plain one (no broadcast view claiming a huge layer),
and the exporter never writes through a planted link -- each refusal one line.

The entries are crafted with ``json`` and ``torch.save`` (the layout the exporter writes) and
loaded through ``make_agent("pretrained:dir=...", game)``, or the CLI in a subprocess where the
old reader hung or ran out of memory.
"""

from __future__ import annotations

import hashlib
import io
import json
import os
import resource
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest

pytest.importorskip("torch")
import torch as th  # noqa: E402

from boardgames_rl.agents import make_agent  # noqa: E402
from boardgames_rl.agents.pretrained import export_policy  # noqa: E402
from boardgames_rl.core.errors import InvalidConfigError  # noqa: E402
from boardgames_rl.registry import make_game  # noqa: E402

GAME = make_game("castle_flutterstone", num_players=2)
OBS, ACTIONS = 124, GAME.num_actions  # the policy observation: the game's and the seat feature


def _entry(folder: Path, hidden=(8,), prior=None, state=None, change=None, text=None) -> Path:
    """Write entry ``toy`` (JSON and weights) for GAME into ``folder``; ``state`` replaces the
    weights, ``change(meta)`` edits the JSON, ``text(json_text)`` its raw text."""
    obs = OBS + (ACTIONS if prior else 0)
    sizes = [obs, *hidden]
    if state is None:
        gen = th.Generator().manual_seed(0)
        state = {}
        for i, (a, b) in enumerate(zip(sizes, sizes[1:], strict=False)):
            state[f"pi.{i}.weight"] = th.randn(b, a, generator=gen).half()
            state[f"pi.{i}.bias"] = th.zeros(b).half()
        state["action.weight"] = th.randn(ACTIONS, sizes[-1], generator=gen).half()
        state["action.bias"] = th.zeros(ACTIONS).half()
    buf = io.BytesIO()
    th.save(state, buf)
    (folder / "toy.pt").write_bytes(buf.getvalue())
    arch = {"kind": "mlp", "hidden": list(hidden), "activation": "tanh"}
    arch.update(observation_size=obs, num_actions=ACTIONS, seat_feature=True)
    if prior:
        arch["prior"] = {"agent": "heuristic", "scale": prior}
    meta = {
        "format": "boardgames_rl.pretrained/1",
        "name": "toy",
        "game": GAME.name,
        "config": dict(GAME.config),
        "seats": [0, 1],
        "architecture": arch,
        "weights": "toy.pt",
        "sha256": hashlib.sha256(buf.getvalue()).hexdigest(),
        "dtype": "float16",
        "training": {},
        "strength": {},
    }
    if change:
        change(meta)
    raw = json.dumps(meta)
    (folder / "toy.json").write_text(text(raw) if text else raw)
    return folder


def _refused(folder: Path, match: str) -> str:
    with pytest.raises(InvalidConfigError, match=match) as e:
        make_agent(f"pretrained:dir={folder}", GAME)
    assert "\n" not in str(e.value)
    return str(e.value)


def _plays(folder: Path) -> None:
    agent = make_agent(f"pretrained:dir={folder}", GAME)
    state = GAME.new_state(0)
    info = state.info_set(state.current_player)
    assert info.legal_action_mask[agent.act(info, np.random.default_rng(0))]


def test_sound_crafted_entries_play(tmp_path: Path) -> None:
    """The crafted layout is the real one: a plain and a residual entry load and play."""
    _plays(_entry(tmp_path))
    _plays(_entry(tmp_path, prior=3.0))


def test_broadcast_tensors_claiming_huge_layers_are_refused_before_building(tmp_path: Path):
    """A 2 KB weights file of stride-0 tensors, its JSON claiming two 10**6-unit layers: refused
    from the JSON (the old loader tried to allocate 4 TB)."""
    wide = 10**6
    one = th.zeros(1, dtype=th.float16)
    state = {
        "pi.0.weight": one.expand(wide, OBS),
        "pi.0.bias": one.expand(wide),
        "pi.1.weight": one.expand(wide, wide),
        "pi.1.bias": one.expand(wide),
        "action.weight": one.expand(ACTIONS, wide),
        "action.bias": one.expand(ACTIONS),
    }
    _entry(tmp_path, hidden=(wide, wide), state=state)
    assert (tmp_path / "toy.pt").stat().st_size < 16 << 10
    _refused(tmp_path, "1000000 units, more than the 8192")


@pytest.mark.parametrize("view", ["stride 0", "overlapping"])
def test_a_view_is_not_a_plain_tensor(tmp_path: Path, view: str) -> None:
    """Shapes the JSON allows, but the tensor is a view whose storage does not hold its values
    (broadcast, or rows overlapping): refused before it is copied."""
    state = dict(th.load(io.BytesIO(_pt(_entry(tmp_path))), weights_only=True))
    if view == "stride 0":
        state["pi.0.weight"] = th.zeros(1, dtype=th.float16).expand(8, OBS)
    else:
        state["pi.0.weight"] = th.zeros(OBS + 8, dtype=th.float16).as_strided((8, OBS), (1, 1))
    _refused(_entry(tmp_path, state=state), "not a plain tensor")


def _pt(folder: Path) -> bytes:
    return (folder / "toy.pt").read_bytes()


def _set_scale(meta, scale) -> None:
    meta["architecture"]["prior"]["scale"] = scale


BAD_FIELDS = {
    "prior scale 10**400": (
        dict(text=lambda raw: raw.replace('"scale": 3.0', '"scale": 1' + "0" * 400)),
        "not valid JSON",
    ),
    "negative prior scale": (dict(change=lambda m: _set_scale(m, -1.0)), "architecture.prior"),
    "prior scale 1e7": (dict(change=lambda m: _set_scale(m, 1e7)), "architecture.prior"),
    "a seat twice": (dict(change=lambda m: m.update(seats=[0, 0])), "seats"),
    "unknown architecture key": (
        dict(change=lambda m: m["architecture"].update(dropout=0.5)),
        "architecture must be",
    ),
    "num_actions true": (
        dict(change=lambda m: m["architecture"].update(num_actions=True)),
        "architecture must be",
    ),
}


@pytest.mark.parametrize("case", list(BAD_FIELDS))
def test_every_json_field_is_checked_in_one_line(tmp_path: Path, case: str) -> None:
    edit, match = BAD_FIELDS[case]
    _refused(_entry(tmp_path, prior=3.0, **edit), match)


def test_torch_older_than_2_10_is_refused(tmp_path: Path, monkeypatch) -> None:
    """torch <= 2.5.1 can run code even with weights_only=True (CVE-2025-32434), torch < 2.10
    can corrupt memory (CVE-2026-24747): entry weights are not read with them."""
    _entry(tmp_path, hidden=(8, 4))  # weights of their own: not loaded before in this process
    monkeypatch.setattr(th, "__version__", "2.5.1")
    assert "CVE-2025-32434" in _refused(tmp_path, "2.10")


def _limit_memory() -> None:  # the old reader read /dev/zero until memory ran out
    resource.setrlimit(resource.RLIMIT_AS, (6 << 30, 6 << 30))


@pytest.mark.parametrize("file", ["toy.json", "toy.pt"])
@pytest.mark.parametrize("kind", ["fifo", "dev-zero link"])
def test_an_entry_file_that_is_not_a_regular_file_is_refused_by_the_cli(
    tmp_path: Path, file: str, kind: str
) -> None:
    """``boardgames-rl arena`` with ``pretrained:dir=D``: a FIFO or a link to /dev/zero as the
    entry JSON or its weights is refused in one line (the old reader hung or ran out of
    memory)."""
    _entry(tmp_path)
    (tmp_path / file).unlink()
    if kind == "fifo":
        os.mkfifo(tmp_path / file)
    else:
        (tmp_path / file).symlink_to("/dev/zero")
    cmd = [sys.executable, "-m", "boardgames_rl.cli", "arena", "castle_flutterstone"]
    cmd += [f"pretrained:dir={tmp_path}", "random", "-n", "1", "--no-progress"]
    try:
        run = subprocess.run(
            cmd, capture_output=True, text=True, timeout=90, preexec_fn=_limit_memory
        )
    except subprocess.TimeoutExpired:
        pytest.fail(f"the CLI blocked on a {kind} as {file}")
    assert run.returncode != 0
    assert len(run.stderr.strip().splitlines()) == 1, run.stderr[-2000:]
    assert ("FIFO" if kind == "fifo" else "character device") in run.stderr


def test_the_exporter_never_writes_through_a_planted_link(tmp_path: Path) -> None:
    """Links planted at the entry's weights path and at the old exporter's temporary JSON name,
    both pointing outside the export folder: the outside file is never written, the entry's
    files are regular files that load."""
    from gymnasium import spaces
    from sb3_contrib.common.maskable.policies import MaskableActorCriticPolicy

    policy = MaskableActorCriticPolicy(
        spaces.Box(-np.inf, np.inf, (OBS,), np.float32),
        spaces.Discrete(ACTIONS),
        lambda _: 0.0,
        net_arch=dict(pi=[8], vf=[8]),
    )
    out, outside = tmp_path / "out", tmp_path / "outside.txt"
    out.mkdir()
    outside.write_text("keep me")
    for name in ("toy.pt", "toy.json.tmp"):
        (out / name).symlink_to(outside)
    export_policy(policy.state_dict(), GAME, [0, 1], "toy", out, {"recipe": "test"})
    assert outside.read_text() == "keep me"
    for name in ("toy.pt", "toy.json"):
        assert (out / name).is_file() and not (out / name).is_symlink()
    _plays(out)
