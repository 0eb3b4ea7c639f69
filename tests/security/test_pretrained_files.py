"""A ``pretrained:dir=...`` entry is data (issues 39 and 41): its JSON and ``.npz`` weights are
read only as regular files with a size cap, every field is checked in one place, layer widths
are capped before anything is built, every array's header (names, dtype, order, shape) is read
before its data, object (pickled) arrays, compressed members and non-finite values are refused,
nothing is unpickled, and the exporter never writes through a planted link -- each refusal one
line.

The entries are crafted with numpy and ``zipfile`` (the layout the exporter writes, and broken
variants of it) and loaded through ``make_agent("pretrained:dir=...", game)``, or the CLI in a
subprocess where an unchecked reader would hang or run out of memory.
"""

from __future__ import annotations

import hashlib
import io
import json
import os
import pickle
import resource
import subprocess
import sys
import zipfile
from collections.abc import Callable
from pathlib import Path
from typing import Any

import numpy as np
import pytest

from boardgames_rl.agents import make_agent
from boardgames_rl.agents.pretrained import MAX_WEIGHTS_BYTES, expected_arrays
from boardgames_rl.core.errors import InvalidConfigError
from boardgames_rl.registry import make_game
from lab.recipes.export_pretrained import pack_npz

GAME = make_game("castle_flutterstone", num_players=2)
OBS, ACTIONS = 124, GAME.num_actions  # the policy observation: the game's and the seat feature


def _arrays(hidden=(8,), prior=None) -> dict[str, np.ndarray]:
    """Seeded float16 arrays of a toy network for GAME."""
    obs = OBS + (ACTIONS if prior else 0)
    arch = {"observation_size": obs, "hidden": list(hidden), "num_actions": ACTIONS}
    rng = np.random.default_rng(0)
    return {
        k: rng.standard_normal(shape).astype(np.float16)
        for k, shape in expected_arrays(arch).items()
    }


def _entry(
    folder: Path,
    hidden=(8,),
    prior=None,
    arrays: dict[str, np.ndarray] | None = None,
    blob: bytes | None = None,
    change: Callable[[dict[str, Any]], None] | None = None,
    text: Callable[[str], str] | None = None,
) -> Path:
    """Write entry ``toy`` (JSON and ``.npz``) for GAME into ``folder``; ``arrays`` replaces the
    weights, ``blob`` the ``.npz`` bytes (the JSON's sha256 always matches: only the content is
    bad), ``change(meta)`` edits the JSON, ``text(json_text)`` its raw text."""
    obs = OBS + (ACTIONS if prior else 0)
    arch: dict[str, Any] = {"kind": "mlp", "hidden": list(hidden), "activation": "tanh"}
    arch.update(observation_size=obs, num_actions=ACTIONS, seat_feature=True)
    if prior:
        arch["prior"] = {"agent": "heuristic", "scale": prior}
    if blob is None:
        blob = pack_npz(_arrays(hidden, prior) if arrays is None else arrays)
    (folder / "toy.npz").write_bytes(blob)
    meta = {
        "format": "boardgames_rl.pretrained/2",
        "name": "toy",
        "game": GAME.name,
        "config": dict(GAME.config),
        "seats": [0, 1],
        "architecture": arch,
        "weights": "toy.npz",
        "sha256": hashlib.sha256(blob).hexdigest(),
        "dtype": "float16",
        "arrays": expected_arrays(arch),
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


def test_huge_layers_are_refused_from_the_json_before_reading_weights(tmp_path: Path) -> None:
    """A JSON claiming two 10**6-unit layers beside a small ``.npz``: refused from the JSON
    (the widths are capped before any array is read or built)."""
    wide = 10**6
    _entry(tmp_path, hidden=(wide, wide), blob=pack_npz(_arrays()))
    _refused(tmp_path, "1000000 units, more than the 8192")


def _member(name: str, data: bytes, compress: int = zipfile.ZIP_STORED) -> bytes:
    """An ``.npz`` holding the sound arrays, the member ``name`` replaced by ``data``."""
    out = io.BytesIO()
    with zipfile.ZipFile(out, "w", compress) as z:
        for key, value in _arrays().items():
            if f"{key}.npy" != name:
                buf = io.BytesIO()
                np.save(buf, value)
                z.writestr(f"{key}.npy", buf.getvalue())
        z.writestr(name, data)
    return out.getvalue()


def _npy(value: np.ndarray) -> bytes:
    buf = io.BytesIO()
    np.save(buf, value, allow_pickle=True)
    return buf.getvalue()


class _Hostile:
    """Unpickling it would create a marker file."""

    marker = ""

    def __reduce__(self):
        return (Path.touch, (Path(self.marker),))


def _bad_weights(case: str, marker: Path) -> bytes:
    sound = _arrays()
    _Hostile.marker = str(marker)
    if case == "object array":
        hostile = np.empty(8, dtype=object)
        hostile[0] = _Hostile()
        return _member("pi.0.bias.npy", _npy(hostile))
    if case == "a pickle, not an npz":
        return pickle.dumps({"pi.0.bias": _Hostile()})
    if case == "a pickle as a member":
        return _member("pi.0.bias.npy", pickle.dumps(_Hostile()))
    if case == "NaN":
        return pack_npz({**sound, "action.bias": np.full(ACTIONS, np.nan, np.float16)})
    if case == "infinity":
        return pack_npz({**sound, "pi.0.weight": np.full((8, OBS), np.inf, np.float16)})
    if case == "wrong shape":
        return pack_npz({**sound, "action.bias": np.zeros(3, np.float16)})
    if case == "transposed weight":
        return pack_npz({**sound, "pi.0.weight": sound["pi.0.weight"].T.copy()})
    if case == "another dtype":
        return pack_npz({**sound, "pi.0.bias": sound["pi.0.bias"].astype(np.float64)})
    if case == "big-endian":
        return pack_npz({**sound, "pi.0.bias": sound["pi.0.bias"].astype(">f2")})
    if case == "Fortran order":
        return _member("pi.0.weight.npy", _npy(np.asfortranarray(sound["pi.0.weight"])))
    if case == "a missing array":
        return pack_npz({k: v for k, v in sound.items() if k != "action.bias"})
    if case == "an extra array":
        return pack_npz({**sound, "value.bias": np.zeros(1, np.float16)})
    if case == "compressed members":
        buf = io.BytesIO()
        np.savez_compressed(buf, **sound)
        return buf.getvalue()
    if case == "a header lying about its size":
        npy = _npy(sound["pi.0.bias"])
        return _member("pi.0.bias.npy", npy + b"\0" * 64)
    if case == "truncated data":
        npy = _npy(sound["pi.0.weight"])
        return _member("pi.0.weight.npy", npy[:-16])
    if case == "not a zip":
        return b"PK\x03\x04 this is not really a zip archive"
    raise AssertionError(case)


BAD_WEIGHTS = {
    "object array": "holds Python objects",
    "a pickle, not an npz": "not an .npz archive",
    "a pickle as a member": "no readable .npy header",
    "NaN": "non-finite",
    "infinity": "non-finite",
    "wrong shape": r"has shape \(3,\)",
    "transposed weight": "has shape",
    "another dtype": "has dtype float64",
    "big-endian": "has dtype >f2",
    "Fortran order": "Fortran order",
    "a missing array": "holds arrays",
    "an extra array": "holds arrays",
    "compressed members": "compressed",
    "a header lying about its size": "bytes, its header says",
    "truncated data": "bytes, its header says",
    "not a zip": "not an .npz archive",
}


@pytest.mark.parametrize("case", list(BAD_WEIGHTS))
def test_a_crafted_npz_is_refused_in_one_line_and_nothing_is_unpickled(
    tmp_path: Path, case: str
) -> None:
    """Crafted weights with a matching sha256 (only the content is bad): refused in one line
    that names the file and says what to do; a pickled object inside is never unpickled."""
    marker = tmp_path / "ran"
    folder = tmp_path / "entry"
    folder.mkdir()
    _entry(folder, blob=_bad_weights(case, marker))
    message = _refused(folder, BAD_WEIGHTS[case])
    assert "'toy.npz'" in message and "export it again" in message
    assert not marker.exists()


def test_a_torch_entry_is_refused_with_the_command_that_converts_it(tmp_path: Path) -> None:
    """An entry of the earlier torch layout (format 1, ``.pt``) is refused in one line saying
    how to convert it; nothing of the ``.pt`` is read."""
    _entry(tmp_path, change=lambda m: m.update(format="boardgames_rl.pretrained/1"))
    (tmp_path / "toy.pt").write_bytes(pickle.dumps(_Hostile()))
    _refused(tmp_path, "holds torch weights .* lab/recipes/export_pretrained.py convert")


def test_an_oversized_weights_file_is_refused_before_it_is_read(tmp_path: Path) -> None:
    """A weights file one byte over :data:`MAX_WEIGHTS_BYTES` (sparse: nothing is written) is
    refused from its size."""
    _entry(tmp_path)
    with open(tmp_path / "toy.npz", "r+b") as f:
        f.truncate(MAX_WEIGHTS_BYTES + 1)
    _refused(tmp_path, "more than the 64")


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
    "arrays not the architecture's": (
        dict(change=lambda m: m["arrays"].update({"pi.0.bias": [9]})),
        "are not the architecture's",
    ),
    "no arrays": (dict(change=lambda m: m.pop("arrays")), "field 'arrays' missing"),
    "weights not an npz": (dict(change=lambda m: m.update(weights="toy.pt")), "an .npz file"),
    "dtype float64": (dict(change=lambda m: m.update(dtype="float64")), "dtype"),
    "converted_from a path": (
        dict(change=lambda m: m.update(converted_from={"weights": "../x", "sha256": "0" * 64})),
        "converted_from",
    ),
}


@pytest.mark.parametrize("case", list(BAD_FIELDS))
def test_every_json_field_is_checked_in_one_line(tmp_path: Path, case: str) -> None:
    edit, match = BAD_FIELDS[case]
    _refused(_entry(tmp_path, prior=3.0, **edit), match)


def _limit_memory() -> None:  # an unchecked reader reads /dev/zero until memory runs out
    resource.setrlimit(resource.RLIMIT_AS, (6 << 30, 6 << 30))


@pytest.mark.parametrize("file", ["toy.json", "toy.npz"])
@pytest.mark.parametrize("kind", ["fifo", "dev-zero link"])
def test_an_entry_file_that_is_not_a_regular_file_is_refused_by_the_cli(
    tmp_path: Path, file: str, kind: str
) -> None:
    """``boardgames-rl arena`` with ``pretrained:dir=D``: a FIFO or a link to /dev/zero as the
    entry JSON or its weights is refused in one line (an unchecked reader hangs or runs out of
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
    pytest.importorskip("torch")
    from gymnasium import spaces
    from sb3_contrib.common.maskable.policies import MaskableActorCriticPolicy

    from lab.recipes.export_pretrained import export_policy

    policy = MaskableActorCriticPolicy(
        spaces.Box(-np.inf, np.inf, (OBS,), np.float32),
        spaces.Discrete(ACTIONS),
        lambda _: 0.0,
        net_arch=dict(pi=[8], vf=[8]),
    )
    out, outside = tmp_path / "out", tmp_path / "outside.txt"
    out.mkdir()
    outside.write_text("keep me")
    for name in ("toy.npz", "toy.json.tmp"):
        (out / name).symlink_to(outside)
    export_policy(policy.state_dict(), GAME, [0, 1], "toy", out, {"recipe": "test"})
    assert outside.read_text() == "keep me"
    for name in ("toy.npz", "toy.json"):
        assert (out / name).is_file() and not (out / name).is_symlink()
    _plays(out)
