"""A ``ppo:path=...`` model.zip is data (issue 39): only a regular file is read, nothing is
unpacked or built past a cap, every tensor is a plain one with finite values, and torch must be
one whose ``weights_only`` loader keeps its promise -- each refusal one line.

The crafted files are real zips written with the standard library and ``torch.save`` (the same
layout SB3 writes); each is loaded through ``make_agent("ppo:path=...", game)``.
"""

from __future__ import annotations

import io
import json
import os
import tracemalloc
import zipfile
from pathlib import Path

import numpy as np
import pytest

pytest.importorskip("sb3_contrib")
import torch as th  # noqa: E402
from gymnasium import spaces  # noqa: E402
from sb3_contrib.common.maskable.policies import MaskableActorCriticPolicy  # noqa: E402

from boardgames_rl.agents import make_agent  # noqa: E402
from boardgames_rl.core.errors import InvalidConfigError  # noqa: E402
from boardgames_rl.envs.policy_obs import policy_obs_size  # noqa: E402
from boardgames_rl.registry import make_game  # noqa: E402

GAME = make_game("castle_flutterstone", num_players=2)
OBS, ACTIONS = policy_obs_size(GAME), GAME.num_actions


def _state() -> dict[str, th.Tensor]:
    """The state dict of a small, sound policy for GAME (what a tiny training run saves)."""
    th.manual_seed(0)
    policy = MaskableActorCriticPolicy(
        spaces.Box(-np.inf, np.inf, (OBS,), np.float32),
        spaces.Discrete(ACTIONS),
        lambda _: 0.0,
        net_arch=dict(pi=[8], vf=[8]),
    )
    return policy.state_dict()


def _pth(state) -> bytes:
    buf = io.BytesIO()
    th.save(state, buf)
    return buf.getvalue()


def _write_model(path: Path, state, data: str | None = None) -> Path:
    with zipfile.ZipFile(path, "w", zipfile.ZIP_DEFLATED) as z:
        z.writestr("data", data or json.dumps({"policy_kwargs": {"net_arch": [8]}}))
        z.writestr("policy.pth", _pth(state))
    return path


def _refused(path: Path, match: str, spec_extra: str = "") -> str:
    with pytest.raises(InvalidConfigError, match=match) as e:
        make_agent(f"ppo:path={path}{spec_extra}", GAME)
    assert "\n" not in str(e.value)
    return str(e.value)


def test_a_sound_crafted_model_plays(tmp_path: Path) -> None:
    """The crafted layout is the real one: the sound file loads and plays a legal move."""
    agent = make_agent(f"ppo:path={_write_model(tmp_path / 'model.zip', _state())}", GAME)
    state = GAME.new_state(0)
    info = state.info_set(state.current_player)
    assert info.legal_action_mask[agent.act(info, np.random.default_rng(0))]


def test_a_zip_bomb_is_refused_before_it_is_unpacked(tmp_path: Path) -> None:
    """A 1 MB model.zip whose policy.pth unpacks to 273 MiB (over the 272 MiB an entry may
    hold): refused from its header, nothing unpacked (the old reader unpacked it whole; at
    3 GiB, a MemoryError)."""
    path = tmp_path / "model.zip"
    with zipfile.ZipFile(path, "w", zipfile.ZIP_DEFLATED, compresslevel=1) as z:
        z.writestr("data", "{}")
        with z.open("policy.pth", "w", force_zip64=True) as f:
            chunk = bytes(1 << 20)
            for _ in range(273):
                f.write(chunk)
    assert path.stat().st_size < 4 << 20
    tracemalloc.start()
    try:
        _refused(path, "unpacks to .* more than")
        peak = tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()
    assert peak < 64 << 20, f"{peak / 2**20:.0f} MiB held while refusing"


def test_a_broadcast_view_claiming_a_huge_layer_is_refused_before_building(tmp_path: Path):
    """A 2 KB policy.pth whose stride-0 tensors claim a 200,000-unit layer: refused as a view,
    before any network is built (the old loader built it: tens of seconds, ~2 GB)."""
    state = _state()
    wide = 200_000
    state["mlp_extractor.policy_net.0.weight"] = th.zeros(1).expand(wide, OBS)
    state["mlp_extractor.policy_net.0.bias"] = th.zeros(1).expand(wide)
    state["action_net.weight"] = th.zeros(1).expand(ACTIONS, wide)
    path = _write_model(tmp_path / "model.zip", state)
    assert path.stat().st_size < 64 << 10
    _refused(path, "view .* not a plain tensor")


def test_a_real_layer_wider_than_the_cap_is_refused_before_building(tmp_path: Path) -> None:
    """A plain 20,000-unit layer (zeros: the zip stays small) is over MAX_UNITS: refused by its
    shape, no network of that size built."""
    state = _state()
    state["mlp_extractor.policy_net.0.weight"] = th.zeros(20_000, OBS)
    state["mlp_extractor.policy_net.0.bias"] = th.zeros(20_000)
    state["action_net.weight"] = th.zeros(ACTIONS, 20_000)
    _refused(_write_model(tmp_path / "model.zip", state), "20000 units, more than the 8192")


@pytest.mark.parametrize("bad", [float("nan"), float("inf")])
def test_non_finite_weights_are_refused_at_load(tmp_path: Path, bad: float) -> None:
    """NaN or infinite weights: refused when the agent is built, not at its first move."""
    state = _state()
    state["action_net.bias"][3] = bad
    _refused(_write_model(tmp_path / "model.zip", state), "non-finite")


def test_a_data_entry_with_numbers_beyond_json_is_refused(tmp_path: Path) -> None:
    """The data entry is strict JSON: ``1e400`` (infinity to Python's json) is refused."""
    data = '{"policy_kwargs": {"net_arch": [8], "prior_scale": 1e400}}'
    _refused(_write_model(tmp_path / "model.zip", _state(), data), "beyond the float range")


@pytest.mark.parametrize("trust", ["", ",trust=1"])
@pytest.mark.parametrize("kind", ["fifo", "dev-zero link"])
def test_a_model_zip_that_is_not_a_regular_file_is_refused(
    tmp_path: Path, kind: str, trust: str
) -> None:
    """A FIFO or a link to /dev/zero as model.zip, given as the file or as its run folder, with
    or without trust=1: refused in one line saying what it is, never read."""
    path = tmp_path / "model.zip"
    if kind == "fifo":
        os.mkfifo(path)
    else:
        path.symlink_to("/dev/zero")
    what = "FIFO" if kind == "fifo" else "character device"
    _refused(path, what, trust)
    _refused(tmp_path, what, trust)


def test_torch_older_than_2_10_is_refused(tmp_path: Path, monkeypatch) -> None:
    """torch <= 2.5.1 can run code even with weights_only=True (CVE-2025-32434), torch < 2.10
    can corrupt memory (CVE-2026-24747): a model file is not read with them."""
    path = _write_model(tmp_path / "model.zip", _state())
    monkeypatch.setattr(th, "__version__", "2.5.1")
    message = _refused(path, "2.10")
    assert "CVE-2025-32434" in message
