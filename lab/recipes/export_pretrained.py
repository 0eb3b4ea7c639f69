"""Write pretrained entries (``<name>.npz`` + ``<name>.json``) for ``make_agent("pretrained")``.

The library reads entries with numpy alone (:mod:`boardgames_rl.agents.pretrained`); writing one
starts from a trained torch policy, so this recipe lives in the lab and needs torch (the
``[train]`` extra). Run it from the root of a clone::

    python lab/recipes/export_pretrained.py model runs/wc/model.zip white_castle -c num_players=2 \\
        --name white_castle-2p --out-dir my_entries
    python lab/recipes/export_pretrained.py convert boardgames_rl/pretrained
    python lab/recipes/export_pretrained.py check OLD_DIR NEW_DIR --games 20

* :func:`export_policy` writes an entry from an SB3 ``MaskableActorCriticPolicy`` state dict (its
  policy half: ``mlp_extractor.policy_net`` and ``action_net``); ``lab/experiments/
  train_strong.py export`` calls it with a run's ``model.zip`` (read without unpickling).
* ``model MODEL.zip GAME`` (:func:`export_model`) exports a trained ``model.zip`` alone, read
  without unpickling (:func:`boardgames_rl.agents.ppo.read_model_file`); a residual policy's
  prior comes from its saved settings. Play it with ``pretrained:dir=OUT_DIR``.
* ``convert DIR`` turns every entry of the earlier torch layout in ``DIR`` (format
  ``boardgames_rl.pretrained/1``: ``<name>.pt``, a state dict read with ``weights_only=True``)
  into the numpy one beside it: ``<name>.npz`` holds the same arrays bit for bit (checked after
  writing, through the library's reader), the JSON says ``converted_from`` (the ``.pt`` and its
  sha256: the same weights keep their name in tournament folders). The ``.pt`` files are left for
  you to remove.
* ``check OLD NEW`` plays seeded games with every entry of ``NEW`` and, at every decision of a
  seat it covers, compares its logits, its action distribution and its move with those of the
  same entry's ``.pt`` in ``OLD``, computed as the torch-reading loader did (float32 arrays
  through the same numpy network); it prints the states compared and the largest differences.

The ``.npz`` is written the same way every time (members stored uncompressed in name order,
``.npy`` format 1.0, a fixed timestamp), so the same weights give the same file and sha256.
"""

from __future__ import annotations

import argparse
import hashlib
import io
import re
import subprocess
import sys
import zipfile
from pathlib import Path
from typing import Any

import numpy as np

from boardgames_rl.agents.pretrained import (
    DTYPES,
    FORMAT,
    MAX_JSON_BYTES,
    MAX_WEIGHTS_BYTES,
    TORCH_FORMAT,
    Entry,
    MLPPolicy,
    PretrainedAgent,
    PretrainedError,
    check_fits_game,
    check_meta,
    expected_arrays,
    list_entries,
    load_weights,
    read_entry,
    write_meta,
)
from boardgames_rl.cli.common import CliError, add_game_args, make_game_from_args
from boardgames_rl.core.errors import InvalidConfigError
from boardgames_rl.core.files import UnsafeFileError, read_bytes, read_json, write_stream
from boardgames_rl.core.game import Game
from boardgames_rl.envs.policy_obs import SAFE_PRIORS, seat_in_observation
from boardgames_rl.registry import make_game

_NAME = re.compile(r"^[A-Za-z0-9][A-Za-z0-9_.+-]{0,99}$")
_ZIP_TIME = (1980, 1, 1, 0, 0, 0)


def pack_npz(arrays: dict[str, np.ndarray]) -> bytes:
    """The ``.npz`` bytes of ``arrays`` (name -> array): what ``numpy.savez`` writes (stored
    ``<name>.npy`` members), in name order with a fixed timestamp, so the bytes depend on the
    arrays alone."""
    out = io.BytesIO()
    with zipfile.ZipFile(out, "w", zipfile.ZIP_STORED) as archive:
        for name in sorted(arrays):
            member = io.BytesIO()
            np.lib.format.write_array(
                member, np.ascontiguousarray(arrays[name]), version=(1, 0), allow_pickle=False
            )
            archive.writestr(zipfile.ZipInfo(f"{name}.npy", _ZIP_TIME), member.getvalue())
    return out.getvalue()


def write_entry(
    out_dir: Path, meta: dict[str, Any], arrays: dict[str, np.ndarray], game: Game
) -> Path:
    """Write ``<name>.npz`` and ``<name>.json`` into ``out_dir`` (through
    :mod:`boardgames_rl.core.files`: a planted link is replaced, never followed) after checking
    that the library's reader takes the entry; returns the JSON path. ``meta`` gets the format,
    the weights' file name, sha256, dtype and array shapes."""
    name = str(meta["name"])
    dtype = next(k for k, v in DTYPES.items() if v == next(iter(arrays.values())).dtype)
    blob = pack_npz(arrays)
    meta = {
        **meta,
        "format": FORMAT,
        "weights": f"{name}.npz",
        "sha256": hashlib.sha256(blob).hexdigest(),
        "dtype": dtype,
        "arrays": {k: [int(n) for n in v.shape] for k, v in arrays.items()},
    }
    check_meta(meta, f"export {name!r}")  # never write an entry the reader refuses
    check_fits_game(Entry(name, out_dir, meta), game)
    write_stream(out_dir / f"{name}.npz", lambda f: f.write(blob), root=out_dir)
    write_meta(out_dir / f"{name}.json", meta, root=out_dir)
    return out_dir / f"{name}.json"


def export_policy(
    policy_state: dict[str, Any],
    game: Game,
    seats: list[int],
    name: str,
    out_dir: str | Path,
    training: dict[str, Any],
    strength: dict[str, Any] | None = None,
    commit: str = "",
    dtype: str = "float16",
    activation: str = "tanh",
    prior: str | None = None,
) -> Path:
    """Write entry ``name`` (``.npz`` + ``.json``) into ``out_dir`` from an SB3
    ``MaskableActorCriticPolicy`` state dict (its policy half only); returns the JSON path.
    ``dtype`` float16 halves the size. A residual policy's state dict (with ``prior_scale``)
    needs ``prior``, its agent spec."""
    import torch as th

    if not _NAME.match(name):
        raise PretrainedError(f"entry name {name!r} must match {_NAME.pattern}")
    if dtype not in DTYPES:
        raise PretrainedError(f"dtype must be float16 or float32, got {dtype!r}")
    pat = re.compile(r"^mlp_extractor\.policy_net\.(\d+)\.weight$")
    idx = sorted(int(m.group(1)) for k in policy_state if (m := pat.match(k)))
    state: dict[str, Any] = {}
    for i, k in enumerate(idx):
        for p in ("weight", "bias"):
            state[f"pi.{i}.{p}"] = policy_state[f"mlp_extractor.policy_net.{k}.{p}"]
    state["action.weight"] = policy_state["action_net.weight"]
    state["action.bias"] = policy_state["action_net.bias"]
    torch_dtype = th.float16 if dtype == "float16" else th.float32
    arrays = {k: v.detach().cpu().to(torch_dtype).contiguous().numpy() for k, v in state.items()}
    hidden = [int(arrays[f"pi.{i}.weight"].shape[0]) for i in range(len(idx))]
    architecture: dict[str, Any] = {
        "kind": "mlp",
        "hidden": hidden,
        "activation": activation,
        "observation_size": int(arrays["pi.0.weight" if idx else "action.weight"].shape[1]),
        "num_actions": int(arrays["action.weight"].shape[0]),
        "seat_feature": not seat_in_observation(game),
    }
    if "prior_scale" in policy_state:
        if prior not in SAFE_PRIORS:
            raise PretrainedError(
                f"a residual policy needs its prior, one of {', '.join(SAFE_PRIORS)}; got {prior!r}"
            )
        scale = float(policy_state["prior_scale"])
        architecture["prior"] = {"agent": prior, "scale": round(scale, 6)}
    meta = {
        "name": name,
        "game": game.name,
        "config": dict(game.config),
        "seats": sorted(int(s) for s in seats),
        "architecture": architecture,
        "training": training,
        "commit": commit,
        "strength": strength or {},
    }
    return write_entry(Path(out_dir), meta, arrays, game)


def export_model(
    model: str | Path,
    game: Game,
    name: str,
    out_dir: str | Path,
    seats: list[int] | None = None,
    dtype: str = "float16",
) -> Path:
    """Write entry ``name`` from the SB3 ``model.zip`` at ``model`` (read without unpickling;
    settings that only unpickling could restore are refused) for ``seats`` (default: every seat
    of ``game``); returns the JSON path."""
    from boardgames_rl.agents.ppo import check_plain_settings, read_model_file

    data, weights = read_model_file(model)
    check_plain_settings(data, f"model file {str(model)!r}")
    kwargs = data.get("policy_kwargs", {})
    prior = kwargs.get("prior", "heuristic") if "prior_scale" in weights["policy"] else None
    training = {"recipe": "lab/recipes/export_pretrained.py model", "model": str(model)}
    return export_policy(
        weights["policy"],
        game,
        list(range(game.num_players)) if seats is None else seats,
        name,
        out_dir,
        training,
        commit=_commit(),
        dtype=dtype,
        prior=prior,
    )


def _commit() -> str:
    try:
        done = subprocess.run(["git", "rev-parse", "HEAD"], capture_output=True, text=True)
    except OSError:
        return ""
    return done.stdout.strip() if done.returncode == 0 else ""


# ---------------------------------------------------------------------------- the torch layout
def read_torch_entry(json_path: Path) -> tuple[dict[str, Any], dict[str, np.ndarray]]:
    """A format-1 entry's JSON and its ``.pt`` arrays (as stored: float16 or float32), read as
    the torch-reading loader did: capped regular files, the sha256, ``torch.load(weights_only=
    True)`` with the torch floor, plain finite tensors, the keys and shapes of the architecture."""
    from boardgames_rl.agents.torch_weights import check_plain_tensors, load_plain_weights

    meta = read_json(json_path, MAX_JSON_BYTES, "pretrained entry JSON")
    if not isinstance(meta, dict) or meta.get("format") != TORCH_FORMAT:
        raise PretrainedError(f"{json_path}: not a {TORCH_FORMAT} entry")
    weights = json_path.parent / str(meta["weights"])
    blob = read_bytes(weights, MAX_WEIGHTS_BYTES, "pretrained weights file")
    if hashlib.sha256(blob).hexdigest() != meta["sha256"]:
        raise PretrainedError(f"{weights}: does not match its sha256")
    state = load_plain_weights(blob)
    check_plain_tensors(state, str(weights))
    want = expected_arrays(meta["architecture"])
    if not isinstance(state, dict) or set(state) != set(want):
        raise PretrainedError(f"{weights}: keys are not {sorted(want)}")
    arrays = {k: state[k].numpy() for k in sorted(want)}
    dtype = DTYPES[meta.get("dtype", "float32")]
    for k, v in arrays.items():
        if list(v.shape) != want[k] or v.dtype != dtype:
            raise PretrainedError(f"{weights}: {k} is {v.dtype} {v.shape}, not {dtype} {want[k]}")
    return meta, arrays


def convert_folder(folder: Path, out_dir: Path | None = None) -> list[Path]:
    """Convert every format-1 entry of ``folder`` into ``out_dir`` (default: ``folder``) and
    check the new entry's arrays equal the ``.pt``'s bit for bit, read back through the
    library's reader; returns the JSON paths written."""
    out = folder if out_dir is None else out_dir
    written = []
    for json_path in sorted(folder.glob("*.json")):
        meta, arrays = read_torch_entry(json_path)
        game = make_game(str(meta["game"]), **meta["config"])
        keep = {k: v for k, v in meta.items() if k not in ("format", "weights", "sha256")}
        keep["converted_from"] = {"weights": meta["weights"], "sha256": meta["sha256"]}
        path = write_entry(out, keep, arrays, game)
        entry = read_entry(path)
        new = load_weights(entry)
        hidden = len(meta["architecture"]["hidden"])
        names = [(f"pi.{i}.weight", f"pi.{i}.bias") for i in range(hidden)]
        for (w, b), (wk, bk) in zip(new, [*names, ("action.weight", "action.bias")], strict=True):
            for got, key in ((w, wk), (b, bk)):
                if not np.array_equal(got, arrays[key].astype(np.float32)):
                    raise PretrainedError(f"{path}: {key} differs from the .pt's after conversion")
        written.append(path)
    return written


# ---------------------------------------------------------------------------- same moves
def compare_entries(old_dir: Path, new_dir: Path, games: int, seed: int) -> list[dict[str, Any]]:
    """For every entry of ``new_dir``: ``games`` seeded games (its seats played by the entry,
    the others by random), and at every decision of its seats the largest differences of the
    logits and the probabilities between the new entry and the same entry's ``.pt`` in
    ``old_dir`` (read as the torch loader did), and whether the moves agree."""
    rows = []
    for entry in list_entries(new_dir):
        _, arrays = read_torch_entry(old_dir / f"{entry.name}.json")
        hidden = len(entry.meta["architecture"]["hidden"])
        layers = [
            (arrays[f"pi.{i}.weight"].astype(np.float32), arrays[f"pi.{i}.bias"].astype(np.float32))
            for i in range(hidden)
        ]
        layers.append(
            (arrays["action.weight"].astype(np.float32), arrays["action.bias"].astype(np.float32))
        )
        old_net = MLPPolicy(layers, entry.meta["architecture"]["activation"])
        game = make_game(entry.game, **entry.config)
        new = PretrainedAgent(game, entry=entry.name, dir=str(new_dir))
        old = PretrainedAgent(game, entry=entry.name, dir=str(new_dir))
        old.policies = {s: (e, old_net) for s, (e, _) in old.policies.items()}
        states = same = 0
        logit_diff = prob_diff = 0.0
        for g in range(games):
            rng = np.random.default_rng([seed, g])
            state = game.new_state(seed + g)
            new.reset()
            while not state.is_terminal():
                p = state.current_player
                info = state.info_set(p)
                mask = np.asarray(info.legal_action_mask, dtype=bool)
                if p not in new.policies:
                    state.apply(int(rng.choice(np.flatnonzero(mask))))
                    continue
                feature = new.prior_move(info)
                a, b = new.logits(info, feature), old.logits(info, feature)
                pa, pb = (_masked_softmax(x, mask) for x in (a, b))
                logit_diff = max(logit_diff, float(np.abs(a - b).max()))
                prob_diff = max(prob_diff, float(np.abs(pa - pb).max()))
                move = int(np.argmax(pa))
                same += move == int(np.argmax(pb))
                states += 1
                state.apply(move)
        rows.append(
            {
                "entry": entry.name,
                "games": games,
                "states": states,
                "same_moves": same,
                "max_abs_logit_diff": logit_diff,
                "max_abs_prob_diff": prob_diff,
            }
        )
    return rows


def _masked_softmax(logits: np.ndarray, mask: np.ndarray) -> np.ndarray:
    x = np.where(mask, logits, -np.inf)
    x = np.exp(x - x.max())
    return x / x.sum()


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    sub = parser.add_subparsers(dest="command", required=True)
    model = sub.add_parser("model", help="a trained model.zip -> an entry")
    model.add_argument("model", type=Path)
    add_game_args(model)
    model.add_argument("--name", required=True, help="the entry's name (its file names)")
    model.add_argument("--out-dir", type=Path, required=True)
    model.add_argument("--seats", default="", help="seat indices, e.g. 0 (default: every seat)")
    model.add_argument("--dtype", choices=sorted(DTYPES), default="float16")
    conv = sub.add_parser("convert", help="torch (.pt) entries of a folder -> .npz entries")
    conv.add_argument("folder", type=Path)
    conv.add_argument("--out-dir", type=Path, default=None, help="default: the same folder")
    check = sub.add_parser("check", help="same logits and moves: OLD .pt entries vs NEW .npz")
    check.add_argument("old_dir", type=Path)
    check.add_argument("new_dir", type=Path)
    check.add_argument("--games", type=int, default=20)
    check.add_argument("--seed", type=int, default=0)
    a = parser.parse_args(argv)
    try:
        if a.command == "model":
            game = make_game_from_args(a)
            seats = [int(s) for s in a.seats.split(",")] if a.seats else None
            path = export_model(a.model, game, a.name, a.out_dir, seats, a.dtype)
            print(f"wrote {path} and {path.with_suffix('.npz').name}")
            return 0
        if a.command == "convert":
            for path in convert_folder(a.folder, a.out_dir):
                print(f"wrote {path} and {path.with_suffix('.npz').name} (same arrays as the .pt)")
            return 0
        bad = 0
        for row in compare_entries(a.old_dir, a.new_dir, a.games, a.seed):
            print(
                f"{row['entry']}: {row['states']} states in {row['games']} games, "
                f"{row['same_moves']} same moves, max |logit diff| "
                f"{row['max_abs_logit_diff']:.3g}, max |prob diff| {row['max_abs_prob_diff']:.3g}"
            )
            bad += row["same_moves"] != row["states"]
        return 1 if bad else 0
    except (InvalidConfigError, UnsafeFileError, FileNotFoundError, CliError, ValueError) as e:
        print(f"export_pretrained: {e}", file=sys.stderr)
        return 1


if __name__ == "__main__":
    sys.exit(main())
