"""Pretrained reference agents shipped with the package (issue 15): ``make_agent("pretrained")``.

**What ships.** ``boardgames_rl/pretrained/`` holds one *entry* per trained policy: a JSON
description ``<entry>.json`` and its weights ``<entry>.npz``. The weights are plain numpy arrays
in an uncompressed ``.npz`` (what ``numpy.savez`` writes), read with numpy alone --
``numpy.load(..., allow_pickle=False)``, no torch anywhere on the path -- so ``pretrained`` plays
on the base install. The JSON (format :data:`FORMAT`) says what the weights are and what they
were measured at:

.. code-block:: text

    {"format": "boardgames_rl.pretrained/2", "name": "white_castle-2p",
     "game": "white_castle", "config": {...the full game.config...}, "seats": [0, 1],
     "architecture": {"kind": "mlp", "hidden": [256, 256], "activation": "tanh",
                      "observation_size": 2213, "num_actions": 20, "seat_feature": true},
     "weights": "white_castle-2p.npz", "sha256": "...the .npz file's...", "dtype": "float16",
     "arrays": {"pi.0.weight": [256, 2213], "pi.0.bias": [256], ...,
                "action.weight": [20, 256], "action.bias": [20]},
     "training": {...recipe, flags, steps, wall time...}, "commit": "...",
     "strength": {...measured win rates with 95% Wilson intervals...}}

``arrays`` names every array of the ``.npz`` with its shape (:func:`expected_arrays`: they follow
from the architecture, and must). An entry converted from the earlier torch layout (format
``boardgames_rl.pretrained/1``, ``<entry>.pt``) keeps ``"converted_from": {"weights":
"<entry>.pt", "sha256": "..."}``: the same weights, so its :meth:`PretrainedAgent.files_digest`
names them as before and a tournament folder they played resumes. A format-1 folder is refused
in one line saying how to convert it (``lab/recipes/export_pretrained.py convert``, from a
clone, with torch).

A residual entry (trained with ``--prior heuristic``,
:class:`~boardgames_rl.agents.prior_policy.PriorMaskablePolicy`) has ``"prior": {"agent":
"heuristic", "scale": 3.1}`` in its architecture: its input ends with the one-hot of the
heuristic's move (:func:`~boardgames_rl.envs.policy_obs.prior_feature`, counted in
``observation_size``) and its logits add ``scale`` times that one-hot. Only the agents in
:data:`~boardgames_rl.envs.policy_obs.SAFE_PRIORS` may be named. ``castle_flutterstone-3p``
names ``solver``: its first move on a machine solves the 2-player race once (a minute or two,
with a progress bar) and caches the tables in the solver's cache folder
(``$BOARDGAMES_RL_CACHE``, else ``~/.cache/boardgames_rl``).

The network is the policy half of an SB3 ``MlpPolicy`` (``mlp_extractor.policy_net`` then
``action_net``, tanh): arrays ``pi.<i>.weight`` / ``pi.<i>.bias`` for each hidden layer and
``action.weight`` / ``action.bias``, each weight ``(out, in)`` as torch stores it. The value head
is not shipped (playing does not need it).

**The agent** sees only ``info_set.observation``, ``info_set.legal_action_mask`` and its own seat
(``info_set.player``, for the seat feature of :mod:`boardgames_rl.envs.policy_obs`, exactly as in
training), like every agent. ``deterministic=True`` (default) plays the most probable legal
action; ``False`` draws from the masked distribution with the ``rng`` given to :meth:`act`.

**Specs.** ``pretrained`` picks, for the game and configuration it is built for, the entries
covering each seat (where several cover a seat, the one trained for the fewest seats, then the
first by name: an entry trained for one role overrides a shared one in that role);
``pretrained:seat=ninja`` (a seat name or index) only that seat's entry (playing another seat
is an error); ``pretrained:entry=NAME`` one entry by name;
``pretrained:dir=PATH`` reads entries from another folder (your own exports);
``pretrained:prior_scale=S`` plays a residual entry with the prior's logit bonus ``S`` instead of
its JSON's (a research knob: ``S = 0`` keeps only the network's logits, which still read the
prior's move; a large ``S`` plays the prior's move nearly always;
``lab/recipes/train_strong.py tune-scale`` measures a few and writes the best into an entry);
``pretrained+search`` is the tuned ISMCTS with the pretrained policy as its root prior.

**Files are data.** The JSON and the weights are read only as regular files with a size cap
(:mod:`boardgames_rl.core.files`: a FIFO or a link to ``/dev/zero`` is refused, never read), and
every field of the JSON is checked in one place (:func:`check_meta`) before anything is built:
layer widths at most :data:`MAX_UNITS`, at most :data:`MAX_HIDDEN_LAYERS` hidden layers and
:data:`MAX_PARAMETERS` weights, a prior's scale in ``[0, MAX_PRIOR_SCALE]``, the ``arrays`` the
architecture implies. The ``.npz`` must match its sha256 and then hold exactly those arrays
(:func:`read_arrays`): a zip of uncompressed, unencrypted ``.npy`` members, each header read
before its data -- the JSON's dtype, little-endian, C order, the shape the game needs, no object
(pickled) dtype -- and its values finite; ``numpy.load(allow_pickle=False)`` reads them. The
prior an entry names is built with ``make_agent(spec, game, source=...)``, so a file cannot opt
in to running code.

Every failure is one line (:class:`PretrainedError`): a damaged or hostile JSON or weights file
(bad JSON, wrong fields, checksum mismatch, pickled objects, wrong shapes, non-finite values,
compressed members, not a regular file), or no entry for the game setup
(:class:`UnsupportedSetupError`: the message names the setups there are entries for,
:func:`supported_setups`, which ``boardgames-rl list`` shows too). Entries are written by the
lab's exporter (``lab/recipes/export_pretrained.py``, which needs torch; ``lab/experiments/
train_strong.py export`` calls it); :func:`write_meta` rewrites an entry's JSON.
"""

from __future__ import annotations

import hashlib
import io
import json
import math
import os
import re
import zipfile
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import numpy as np

from boardgames_rl.core.agent import Agent
from boardgames_rl.core.errors import InvalidConfigError, UnknownAgentError
from boardgames_rl.core.files import (
    UnsafeFileError,
    printable,
    read_bytes,
    read_json,
    write_text,
)
from boardgames_rl.core.game import Game, InfoSet
from boardgames_rl.envs.policy_obs import (
    SAFE_PRIORS,
    policy_obs_size,
    policy_observation,
    prior_agent,
    prior_feature,
    seat_in_observation,
)

FORMAT = "boardgames_rl.pretrained/2"
"""The ``format`` field of every entry JSON this module reads (the lab's exporter writes it)."""
TORCH_FORMAT = "boardgames_rl.pretrained/1"
"""The earlier format (torch ``.pt`` weights), refused with the command that converts it."""
CONVERT_HINT = (
    "convert it with python lab/recipes/export_pretrained.py convert DIR (a clone, torch)"
)
"""What a format-1 folder's refusal says to do."""
FIX_WEIGHTS = "export it again (lab/recipes/export_pretrained.py) or restore the file"
"""What a damaged weights file's refusal says to do."""
PACKAGE_DIR = Path(__file__).resolve().parent.parent / "pretrained"
"""Where the shipped entries live (package data)."""
MAX_JSON_BYTES = 1 << 20
"""Largest entry JSON read."""
MAX_WEIGHTS_BYTES = 64 << 20
"""Largest entry weights file read."""
MAX_UNITS = 8192
"""Widest layer a weights file may describe (a hidden layer or the action head): 32 times the
networks this library trains; a wider claim is a damaged or hostile file."""
MAX_HIDDEN_LAYERS = 32
"""Most hidden layers a weights file may describe."""
MAX_PARAMETERS = 1 << 25
"""Most weights one network may hold (128 MiB as float32)."""
MAX_PRIOR_SCALE = 1e6
"""Largest prior bonus (an entry's ``architecture.prior.scale`` or the ``prior_scale`` option):
the logits differ by at most this much, so the prior's move is played at every decision; a
bigger number is a damaged file, not a setting."""
DTYPES: dict[str, np.dtype] = {"float16": np.dtype("<f2"), "float32": np.dtype("<f4")}
"""The dtypes an entry's arrays may have (``dtype`` in its JSON): little-endian floats."""
_NAME = re.compile(r"^[A-Za-z0-9][A-Za-z0-9_.+-]{0,99}$")
_SHA256 = re.compile(r"^[0-9a-f]{64}$")
_REQUIRED = {
    "format": str,
    "name": str,
    "game": str,
    "config": dict,
    "seats": list,
    "architecture": dict,
    "weights": str,
    "sha256": str,
    "dtype": str,
    "arrays": dict,
    "training": dict,
    "strength": dict,
}


class PretrainedError(InvalidConfigError):
    """A pretrained entry is missing, damaged or unsafe (a one-line message)."""


# ---------------------------------------------------------------------------- entries
@dataclass(frozen=True)
class Entry:
    """One shipped policy: its JSON description and where it lives."""

    name: str
    folder: Path
    meta: dict[str, Any]

    @property
    def game(self) -> str:
        return str(self.meta["game"])

    @property
    def config(self) -> dict[str, Any]:
        return dict(self.meta["config"])

    @property
    def seats(self) -> list[int]:
        return [int(s) for s in self.meta["seats"]]

    @property
    def prior(self) -> tuple[str, float] | None:
        """``(agent spec, scale)`` of a residual entry, else None."""
        prior = self.meta["architecture"].get("prior")
        return None if prior is None else (str(prior["agent"]), float(prior["scale"]))

    @property
    def weights_sha256(self) -> str:
        """What names the weights: the sha256 of the file they were first written to (the
        ``.npz``'s, or for an entry converted from a ``.pt`` the ``.pt``'s: the same weights)."""
        converted = self.meta.get("converted_from")
        return str(converted["sha256"] if converted else self.meta["sha256"])

    def describe(self) -> str:
        cfg = ",".join(f"{k}={v}" for k, v in sorted(self.config.items()) if k == "num_players")
        text = f"{self.name} ({self.game}{' ' + cfg if cfg else ''}, seats {self.seats})"
        return printable(text)[:200]


def _fail(source: Any, why: str) -> PretrainedError:
    return PretrainedError(f"pretrained entry {str(source)!r}: {why}")


def _is_int(v: Any, low: int, high: int) -> bool:
    return isinstance(v, int) and not isinstance(v, bool) and low <= v <= high


def _check_architecture(arch: dict[str, Any], source: Any) -> None:
    keys = {"kind", "activation", "hidden", "observation_size", "num_actions", "seat_feature"}
    hidden = arch.get("hidden")
    if (
        not keys <= set(arch) <= keys | {"prior"}
        or arch["kind"] != "mlp"
        or arch["activation"] not in ("tanh", "relu")
        or not isinstance(hidden, list)
        or not all(_is_int(h, 1, 2**62) for h in hidden)
        or not _is_int(arch["observation_size"], 1, 2**62)
        or not _is_int(arch["num_actions"], 1, 2**62)
        or not isinstance(arch["seat_feature"], bool)
    ):
        raise _fail(
            source,
            "architecture must be {kind: mlp, activation: tanh|relu, hidden: [ints >= 1], "
            "observation_size: int >= 1, num_actions: int >= 1, seat_feature: bool[, prior]}",
        )
    if len(hidden) > MAX_HIDDEN_LAYERS:
        raise _fail(
            source,
            f"{len(hidden)} hidden layers, more than the {MAX_HIDDEN_LAYERS} an entry may have",
        )
    for what, width in [
        *((f"hidden layer {i}", h) for i, h in enumerate(hidden)),
        ("the action head", arch["num_actions"]),
    ]:
        if width > MAX_UNITS:
            raise _fail(
                source,
                f"{what} has {width} units, more than the {MAX_UNITS} an entry may have: a "
                "damaged or hostile file",
            )
    sizes = [arch["observation_size"], *hidden, arch["num_actions"]]
    total = sum(a * b + b for a, b in zip(sizes, sizes[1:], strict=False))
    if total > MAX_PARAMETERS:
        raise _fail(
            source,
            f"the network would hold {total} weights, more than the {MAX_PARAMETERS} an entry "
            "may have: a damaged or hostile file",
        )
    prior = arch.get("prior")
    if prior is not None and (
        not isinstance(prior, dict)
        or set(prior) != {"agent", "scale"}
        or prior["agent"] not in SAFE_PRIORS
        or not isinstance(prior["scale"], int | float)
        or isinstance(prior["scale"], bool)
        or not 0 <= prior["scale"] <= MAX_PRIOR_SCALE
    ):
        raise _fail(
            source,
            f"architecture.prior must be {{agent: {' | '.join(SAFE_PRIORS)}, scale: a number in "
            f"[0, {MAX_PRIOR_SCALE:g}]}}",
        )


def expected_arrays(arch: Mapping[str, Any]) -> dict[str, list[int]]:
    """The arrays an entry of architecture ``arch`` holds, name -> shape (``[out, in]`` for a
    weight, ``[out]`` for a bias): each hidden layer's, then the action head's."""
    sizes = [int(arch["observation_size"]), *(int(h) for h in arch["hidden"])]
    arrays: dict[str, list[int]] = {}
    for i in range(len(sizes) - 1):
        arrays[f"pi.{i}.weight"] = [sizes[i + 1], sizes[i]]
        arrays[f"pi.{i}.bias"] = [sizes[i + 1]]
    arrays["action.weight"] = [int(arch["num_actions"]), sizes[-1]]
    arrays["action.bias"] = [int(arch["num_actions"])]
    return arrays


def check_meta(meta: Any, source: Any, file_name: str | None = None) -> None:
    """Every field of an entry's JSON, checked in one place (the reader and the exporter use it):
    raises :class:`PretrainedError`, one line naming ``source`` and the field. ``file_name``:
    the JSON's own file name, which must be ``<name>.json``."""
    if not isinstance(meta, dict):
        raise _fail(source, "the JSON is not an object")
    if meta.get("format") == TORCH_FORMAT:
        raise _fail(source, f"format {TORCH_FORMAT!r} holds torch weights (.pt): {CONVERT_HINT}")
    for key, kind in _REQUIRED.items():
        if not isinstance(meta.get(key), kind):
            raise _fail(source, f"field {key!r} missing or not a {kind.__name__}")
    if meta["format"] != FORMAT:
        raise _fail(source, f"format {meta['format']!r:.80}, this version reads {FORMAT!r}")
    name = meta["name"]
    if not _NAME.match(name) or (file_name is not None and file_name != f"{name}.json"):
        raise _fail(source, f"name {name!r:.120} must be a plain name matching the file name")
    if not _NAME.match(meta["game"]):
        raise _fail(source, f"game {meta['game']!r:.120} is not a game name")
    weights = meta["weights"]
    if not _NAME.match(weights) or os.path.basename(weights) != weights:
        raise _fail(
            source, f"weights {weights!r:.120} must be a plain file name in the same folder"
        )
    if not weights.endswith(".npz"):
        raise _fail(source, f"weights {weights!r:.120} must be an .npz file")
    if not _SHA256.match(meta["sha256"]):
        raise _fail(source, "sha256 must be 64 lowercase hexadecimal digits")
    seats = meta["seats"]
    if not seats or len(seats) > 64 or not all(_is_int(s, 0, 63) for s in seats):
        raise _fail(source, "seats must be a non-empty list of seat indices (0 to 63)")
    if len(set(seats)) != len(seats):
        raise _fail(source, f"seats {seats} names a seat twice")
    if meta["dtype"] not in DTYPES:
        raise _fail(source, f"dtype {meta['dtype']!r:.60} must be float16 or float32")
    if not isinstance(meta.get("commit", ""), str):
        raise _fail(source, "commit must be text")
    converted = meta.get("converted_from")
    if converted is not None and (
        not isinstance(converted, dict)
        or set(converted) != {"weights", "sha256"}
        or not isinstance(converted["weights"], str)
        or not _NAME.match(converted["weights"])
        or not isinstance(converted["sha256"], str)
        or not _SHA256.match(converted["sha256"])
    ):
        raise _fail(source, "converted_from must be {weights: a file name, sha256: 64 hex digits}")
    _check_architecture(meta["architecture"], source)
    want = expected_arrays(meta["architecture"])
    if meta["arrays"] != want:
        raise _fail(
            source,
            f"arrays {printable(str(meta['arrays']))[:120]} are not the architecture's "
            f"{printable(str(want))[:120]}",
        )


def read_entry(json_path: str | os.PathLike) -> Entry:
    """Read and check one entry's JSON (not its weights): a regular file of at most
    :data:`MAX_JSON_BYTES`, strict JSON, every field checked (:func:`check_meta`). Raises
    :class:`PretrainedError`."""
    path = Path(json_path)
    try:
        meta = read_json(path, MAX_JSON_BYTES, "pretrained entry JSON")
    except FileNotFoundError:
        raise _fail(path, "the JSON file is missing") from None
    except UnsafeFileError as e:
        raise PretrainedError(f"pretrained entry: {e}") from None
    check_meta(meta, path, path.name)
    return Entry(meta["name"], path.parent, meta)


def list_entries(folder: str | os.PathLike | None = None) -> list[Entry]:
    """Every entry in ``folder`` (default: the package's), sorted by name."""
    base = PACKAGE_DIR if folder is None else Path(folder)
    if not base.is_dir():
        if folder is None:
            return []
        raise PretrainedError(f"pretrained folder {str(base)!r} does not exist")
    return [read_entry(p) for p in sorted(base.glob("*.json"))]


def shipped() -> str:
    """One line naming the shipped entries."""
    entries = list_entries()
    return "; ".join(e.describe() for e in entries) if entries else "none"


class UnsupportedSetupError(PretrainedError, UnknownAgentError):
    """The agent has no entry for this game setup (or no entry of the name given): one short
    line naming the setups it has (:func:`supported_setups`). Like an unknown agent's, the
    message already says what there is, so the CLI adds no list of agents to it."""


def setup_label(game_name: str, config: Mapping[str, Any], seats: Iterable[int] = ()) -> str:
    """A game setup in a few words: ``white_castle 2p``, ``castle_nightingale 2p seat ninja``,
    ``night_of_the_ninja 5p target_score=5`` (the options that differ from the game's defaults
    at that player count; ``seats``: only when they are not all of them). A game this version
    does not know is named with its ``num_players`` alone."""
    from boardgames_rl.registry import make_game

    count = config.get("num_players")
    try:
        if isinstance(count, int) and not isinstance(count, bool):
            game = make_game(game_name, num_players=count)
        else:
            game = make_game(game_name)
    except Exception:  # noqa: BLE001 - a game or a count this version does not know
        text = f"{game_name} {count}p" if isinstance(count, int) else game_name
        return printable(text)[:80]
    defaults = dict(game.config)
    changed = [
        f"{k}={v}" for k, v in sorted(config.items()) if k not in defaults or defaults[k] != v
    ]
    text = f"{game_name} {game.num_players}p"
    seats = sorted(set(seats))
    if seats and seats != list(range(game.num_players)):
        names = [game.player_names[s] if 0 <= s < game.num_players else str(s) for s in seats]
        text += f" seat{'s' if len(names) > 1 else ''} {'+'.join(names)}"
    if changed:
        text += " " + " ".join(changed)
    return printable(text)[:80]


def supported_setups(folder: str | os.PathLike | None = None) -> list[str]:
    """The game setups the entries of ``folder`` (default: the shipped ones, read with the
    checked reader :func:`read_entry`) cover, one label each (:func:`setup_label`): the seats
    of every entry of a game and configuration together, sorted."""
    covered: dict[tuple[str, str], tuple[dict[str, Any], set[int]]] = {}
    for e in list_entries(folder):
        key = (e.game, json.dumps(e.config, sort_keys=True, default=str))
        covered.setdefault(key, (e.config, set()))[1].update(e.seats)
    return sorted(setup_label(g, cfg, seats) for (g, _), (cfg, seats) in covered.items())


def setups_text(folder: str | os.PathLike | None = None, limit: int = 120, first: str = "") -> str:
    """:func:`supported_setups` on one line of at most ``limit`` characters (``none``;
    ``..., and 3 more`` when they do not fit); the setups of the game ``first`` come first."""
    labels = supported_setups(folder)
    return fit_list(sorted(labels, key=lambda x: x.split(" ")[0] != first), limit)


def fit_list(items: list[str], limit: int) -> str:
    """``items`` comma-separated in at most ``limit`` characters (the first item always): the
    first ones, then ``and N more`` (``none`` when empty)."""
    for n in range(len(items), 0, -1):
        text = ", ".join(items[:n]) + (f", and {len(items) - n} more" if n < len(items) else "")
        if len(text) <= limit or n == 1:
            return text
    return "none"


def _npy_header(member: Any) -> tuple[tuple[int, ...], bool, np.dtype]:
    """``(shape, fortran_order, dtype)`` from the header of the ``.npy`` stream ``member``
    (format 1.0 or 2.0: what ``numpy.save`` writes), read before any of its data."""
    version = np.lib.format.read_magic(member)
    if version == (1, 0):
        return np.lib.format.read_array_header_1_0(member)
    if version == (2, 0):
        return np.lib.format.read_array_header_2_0(member)
    raise ValueError(f".npy format {version}, not 1.0 or 2.0")


def read_arrays(
    blob: bytes, shapes: Mapping[str, Iterable[int]], dtype: np.dtype
) -> dict[str, np.ndarray]:
    """The arrays of the ``.npz`` bytes ``blob`` (read by the caller as a capped regular file),
    which must be exactly ``shapes`` (name -> shape) of ``dtype``, as float32.

    Checked before any array is built: ``blob`` is a zip whose members are exactly
    ``<name>.npy``, each stored (uncompressed: no member can unpack to more than the file holds),
    not encrypted, its ``.npy`` header giving ``dtype`` (little-endian; an object dtype, which
    only unpickling could read, is refused), C order and the shape, and its size the header plus
    that data. Then ``numpy.load(allow_pickle=False)`` reads them and every value must be finite.

    Raises:
        ValueError: one line saying what is wrong (the caller names the file and the fix).
    """
    want = {f"{k}.npy": tuple(int(n) for n in v) for k, v in shapes.items()}
    try:
        archive = zipfile.ZipFile(io.BytesIO(blob))
    except (zipfile.BadZipFile, OSError, ValueError, EOFError) as e:
        raise ValueError(f"is not an .npz archive ({str(e)[:80] or type(e).__name__})") from None
    with archive:
        infos = archive.infolist()
        names = [i.filename for i in infos]
        if len(set(names)) != len(names) or set(names) != set(want):
            got = printable(", ".join(sorted(set(names))))[:120]
            raise ValueError(f"holds arrays [{got}], expected [{', '.join(sorted(want))[:120]}]")
        for info in infos:
            name = info.filename
            if info.compress_type != zipfile.ZIP_STORED or info.flag_bits & 0x1:
                raise ValueError(f"{name} is compressed or encrypted (the exporter stores arrays)")
            if info.file_size != info.compress_size:
                raise ValueError(f"{name} claims {info.file_size} bytes from {info.compress_size}")
            try:
                with archive.open(info) as member:
                    shape, fortran, kind = _npy_header(member)
                    data_start = member.tell()
            except (ValueError, OSError, EOFError, zipfile.BadZipFile) as e:
                raise ValueError(
                    f"{name} has no readable .npy header ({printable(str(e))[:80]})"
                ) from None
            if kind.hasobject:
                raise ValueError(f"{name} holds Python objects (dtype {kind}): refused, never read")
            if kind != dtype:
                raise ValueError(f"{name} has dtype {kind}, the entry's JSON says {dtype}")
            if fortran:
                raise ValueError(f"{name} is in Fortran order, not C order")
            if tuple(shape) != want[name]:
                raise ValueError(f"{name} has shape {tuple(shape)}, expected {want[name]}")
            size = data_start + math.prod(shape) * kind.itemsize
            if info.file_size != size:
                raise ValueError(f"{name} holds {info.file_size} bytes, its header says {size}")
    arrays: dict[str, np.ndarray] = {}
    try:
        with np.load(io.BytesIO(blob), allow_pickle=False) as npz:
            for name in want:
                value = npz[name[: -len(".npy")]]
                if value.dtype != dtype or value.shape != want[name]:  # checked above: a race
                    raise ValueError(f"{name} changed while read")
                if not np.isfinite(value).all():
                    raise ValueError(f"{name} holds non-finite values (NaN or infinity)")
                arrays[name[: -len(".npy")]] = np.ascontiguousarray(value, dtype=np.float32)
    except (OSError, EOFError, zipfile.BadZipFile) as e:
        raise ValueError(f"cannot be read ({str(e)[:80] or type(e).__name__})") from None
    return arrays


def load_weights(entry: Entry) -> list[tuple[np.ndarray, np.ndarray]]:
    """The layers ``[(W, b), ...]`` (float32, hidden layers then the action head, ``W`` of shape
    ``(out, in)``), checked against the JSON: a regular file of at most
    :data:`MAX_WEIGHTS_BYTES`, its sha256, then :func:`read_arrays` (names, dtype, shapes,
    finiteness; nothing unpickled). numpy alone: torch is never imported."""
    path = entry.folder / entry.meta["weights"]
    try:
        blob = read_bytes(path, MAX_WEIGHTS_BYTES, "pretrained weights file")
    except FileNotFoundError:
        raise _fail(entry.name, f"weights file {path.name!r} is missing") from None
    except UnsafeFileError as e:
        raise _fail(entry.name, str(e)) from None
    if hashlib.sha256(blob).hexdigest() != entry.meta["sha256"]:
        raise _fail(entry.name, f"weights file {path.name!r} does not match its sha256")
    try:
        arrays = read_arrays(blob, entry.meta["arrays"], DTYPES[entry.meta["dtype"]])
    except ValueError as e:
        raise _fail(entry.name, f"weights file {path.name!r}: {e}; {FIX_WEIGHTS}") from None
    hidden = len(entry.meta["architecture"]["hidden"])
    layers = [(arrays[f"pi.{i}.weight"], arrays[f"pi.{i}.bias"]) for i in range(hidden)]
    return [*layers, (arrays["action.weight"], arrays["action.bias"])]


class MLPPolicy:
    """The shipped network (numpy, float32): hidden layers with the activation, then logits."""

    def __init__(self, layers: list[tuple[np.ndarray, np.ndarray]], activation: str):
        self.layers = [(np.ascontiguousarray(w.T), b) for w, b in layers]
        self.activation = np.tanh if activation == "tanh" else (lambda x: np.maximum(x, 0.0))

    def logits(self, obs: np.ndarray) -> np.ndarray:
        x = obs.astype(np.float32)
        for wt, b in self.layers[:-1]:
            x = self.activation(x @ wt + b)
        wt, b = self.layers[-1]
        return x @ wt + b


_CACHE: dict[tuple[str, float, int], tuple[Entry, MLPPolicy]] = {}


def load_entry(entry: Entry) -> MLPPolicy:
    """The entry's network, cached per weights file (path, mtime, size)."""
    path = entry.folder / entry.meta["weights"]
    try:
        st = path.stat()
    except OSError as e:
        raise _fail(entry.name, f"weights file {path.name!r} missing ({e.strerror})") from None
    key = (str(path.resolve()), st.st_mtime, st.st_size)
    cached = _CACHE.get(key)
    if cached is None or cached[0].meta != entry.meta:
        policy = MLPPolicy(load_weights(entry), entry.meta["architecture"]["activation"])
        _CACHE[key] = cached = (entry, policy)
    return cached[1]


def _fits(entry: Entry, game: Game) -> bool:
    return entry.game == game.name and entry.config == dict(game.config)


def check_fits_game(entry: Entry, game: Game) -> None:
    """Refuse (one line, :class:`PretrainedError`) an entry whose network does not take this
    game's observations (its seat feature and prior included), actions or seats."""
    arch = entry.meta["architecture"]
    with_seat = not seat_in_observation(game)
    need = policy_obs_size(game) if with_seat else game.observation_spec.size
    if entry.prior is not None:
        need += game.num_actions
    if (
        arch["observation_size"] != need
        or arch["num_actions"] != game.num_actions
        or arch["seat_feature"] != with_seat
        or max(entry.seats) >= game.num_players
    ):
        raise _fail(
            entry.name,
            f"takes ({arch['observation_size']},) observations and {arch['num_actions']} actions "
            f"(seat feature {arch['seat_feature']}), {game.name} needs ({need},) and "
            f"{game.num_actions} (seat feature {with_seat})",
        )


def parse_seat_option(seat: Any, game: Game) -> int:
    """A seat given as an index or a seat name (``ninja``)."""
    if isinstance(seat, int) and not isinstance(seat, bool) and 0 <= seat < game.num_players:
        return seat
    if isinstance(seat, str) and seat in game.player_names:
        return game.player_names.index(seat)
    raise PretrainedError(
        f"pretrained: seat must be a seat index in [0, {game.num_players}) or one of "
        f"{', '.join(game.player_names)}; got {seat!r}"
    )


class PretrainedAgent(Agent):
    """Plays a shipped (or exported) policy: one network per seat it covers."""

    def __init__(
        self,
        game: Game,
        seat: Any = None,
        entry: str = "",
        dir: str = "",
        deterministic: bool = True,
        prior_scale: float | None = None,
    ):
        self.game = game
        self.policies = _select(game, seat, entry, dir, deterministic)
        self.deterministic = bool(deterministic)
        self.scale_override = _check_scale(prior_scale, self.policies)
        self.seat_feature = not seat_in_observation(game)
        self.entries = sorted({e.name for e, _ in self.policies.values()})
        self.name = "pretrained"
        self._priors: dict[str, Agent] = {}
        for e, _ in self.policies.values():
            if e.prior is not None and e.name not in self._priors:
                source = f"{e.folder / (e.name + '.json')}: architecture.prior.agent"
                self._priors[e.name] = prior_agent(e.prior[0], game, source)

    def seats_played(self, num_players: int) -> list[int]:
        """The seats its entries cover."""
        return sorted(s for s in self.policies if s < num_players)

    def files_digest(self) -> str | None:
        """The entry and the start of its weights' sha256 per seat, and for a residual entry the
        prior's bonus it plays with (the JSON's or ``prior_scale``'s: another bonus plays other
        games), e.g. ``seat 0: castle_nightingale-ninja 1a2b3c4d5e6f prior scale 3.1; ...``."""
        return "; ".join(
            f"seat {s}: {e.name} {e.weights_sha256[:12]}"
            + ("" if e.prior is None else f" prior scale {self.prior_scale(s):.6g}")
            for s, (e, _) in sorted(self.policies.items())
        )

    def reset(self) -> None:
        for prior in self._priors.values():
            prior.reset()

    def action_probabilities(self, info_set: InfoSet) -> np.ndarray:
        """The masked policy distribution (float64, sums to 1 over the legal actions)."""
        seat = int(info_set.player)
        if info_set.game != self.game:
            raise PretrainedError(
                f"pretrained agent built for {self.game.name} {self.game.config} asked to play "
                f"{info_set.game.name} {info_set.game.config}"
            )
        if seat not in self.policies:
            raise PretrainedError(
                f"pretrained agent {', '.join(self.entries)} covers seats "
                f"{sorted(self.policies)} of {self.game.name}, not seat {seat}"
            )
        mask = np.asarray(info_set.legal_action_mask, dtype=bool)
        if not mask.any():
            raise ValueError(f"{self.game.name}: no legal action for player {seat}")
        feature = self.prior_move(info_set)
        logits = np.where(mask, self.logits(info_set, feature), -np.inf)
        logits -= logits.max()
        probs = np.exp(logits)
        return probs / probs.sum()

    def prior_move(self, info_set: InfoSet) -> np.ndarray | None:
        """The one-hot of the prior's move at ``info_set`` (None for a plain entry). The prior
        may remember the seat's earlier decisions, so it is asked once at every one of them:
        :meth:`action_probabilities` does; a caller that computes the logits itself (an
        analysis, a variant) calls this instead, once per decision."""
        entry = self.policies[int(info_set.player)][0]
        if entry.prior is None:
            return None
        return prior_feature(self._priors[entry.name], info_set)

    def logits(self, info_set: InfoSet, feature: np.ndarray | None) -> np.ndarray:
        """The network's logits (float64, every action) at ``info_set`` plus, for a residual
        entry, :meth:`prior_scale` times ``feature`` (the one-hot of the prior's move there)."""
        seat = int(info_set.player)
        entry, network = self.policies[seat]
        if self.seat_feature:
            obs = policy_observation(info_set.observation, seat, self.game, feature)
        else:
            obs = np.asarray(info_set.observation, dtype=np.float32)
            obs = obs if feature is None else np.concatenate([obs, feature])
        logits = network.logits(obs).astype(np.float64)
        if feature is not None:
            logits += self.prior_scale(seat) * feature
        return logits

    def prior_scale(self, seat: int) -> float:
        """The prior's logit bonus in ``seat``: the entry's ``architecture.prior.scale``, or the
        ``prior_scale`` option given."""
        prior = self.policies[seat][0].prior
        if prior is None:
            return 0.0
        return prior[1] if self.scale_override is None else self.scale_override

    def act(self, info_set: InfoSet, rng: np.random.Generator) -> int:
        probs = self.action_probabilities(info_set)
        if self.deterministic:
            return int(np.argmax(probs))
        return int(rng.choice(len(probs), p=probs))


def build(game: Game, **kwargs: Any) -> PretrainedAgent:
    """Registry factory of ``pretrained[:seat=S][,entry=NAME][,dir=PATH][,deterministic=false]
    [,prior_scale=S]``."""
    return PretrainedAgent(game, **kwargs)


def _check_scale(scale: Any, policies: dict[int, tuple[Entry, MLPPolicy]]) -> float | None:
    """The ``prior_scale`` option: None, or a number in ``[0, MAX_PRIOR_SCALE]`` for an agent
    with a residual entry (one-line errors otherwise)."""
    if scale is None:
        return None
    if (
        isinstance(scale, bool)
        or not isinstance(scale, int | float)
        or not 0 <= scale <= MAX_PRIOR_SCALE  # NaN fails too
    ):
        raise PretrainedError(
            f"pretrained: prior_scale must be a number >= 0 (at most {MAX_PRIOR_SCALE:g}), "
            f"got {scale!r:.60}"
        )
    if all(e.prior is None for e, _ in policies.values()):
        names = ", ".join(sorted({e.name for e, _ in policies.values()}))
        raise PretrainedError(
            f"pretrained: prior_scale is for residual entries (trained with --prior); {names} "
            "has no prior: drop prior_scale"
        )
    return float(scale)


def _select(
    game: Game, seat: Any, entry: str, dir: str, deterministic: Any
) -> dict[int, tuple[Entry, MLPPolicy]]:
    """The (entry, network) playing each seat the agent covers."""
    for key, value in (("entry", entry), ("dir", dir)):
        if not isinstance(value, str):
            raise PretrainedError(f"pretrained: option {key} must be text, got {value!r}")
    if not isinstance(deterministic, bool) and deterministic not in (0, 1):
        raise PretrainedError(
            f"pretrained: deterministic must be true/false, got {deterministic!r}"
        )
    folder = dir or None
    entries = list_entries(folder)
    where = "in dir=" + printable(repr(dir))[:40] if dir else "shipped"
    if entry:
        entries = [e for e in entries if e.name == entry]
        if not entries:
            head = f"pretrained has no entry named {printable(repr(entry))[:40]}; "
            names = [e.name for e in list_entries(folder)]
            raise UnsupportedSetupError(f"{head}{where}: {fit_list(names, 132 - len(head))}")
    fitting = [e for e in entries if _fits(e, game)]
    wanted = list(range(game.num_players)) if seat is None else [parse_seat_option(seat, game)]
    policies: dict[int, tuple[Entry, MLPPolicy]] = {}
    for e in sorted(fitting, key=lambda e: (len(e.seats), e.name)):  # specialised entries first
        for s in e.seats:
            if s in wanted and s not in policies:
                check_fits_game(e, game)
                policies[s] = (e, load_entry(e))
    if not policies:
        label = setup_label(game.name, dict(game.config), wanted)
        if entry:
            have = ", ".join(setup_label(e.game, e.config, e.seats) for e in entries)
            raise UnsupportedSetupError(f"pretrained: entry {entry} is for {have}, not {label}")
        head = f"pretrained has no entry for {label}; {where}: "
        raise UnsupportedSetupError(head + setups_text(folder, 132 - len(head), game.name))
    return policies


# ---------------------------------------------------------------------------- JSON writing
def write_meta(
    path: Path, meta: dict[str, Any], root: str | os.PathLike[str] | None = None
) -> None:
    """Write an entry's JSON (finite numbers only; sorted keys for readable diffs) inside the
    folder ``root`` (default: its own folder) with :func:`boardgames_rl.core.files.write_text`:
    written to a fresh file then renamed, a link at ``path`` replaced, never followed."""

    def clean(v: Any) -> Any:
        if isinstance(v, float) and not math.isfinite(v):
            return None
        if isinstance(v, dict):
            return {str(k): clean(x) for k, x in v.items()}
        if isinstance(v, (list, tuple)):
            return [clean(x) for x in v]
        return v

    write_text(path, json.dumps(clean(meta), indent=1, sort_keys=True) + "\n", root)
