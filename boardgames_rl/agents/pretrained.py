"""Pretrained reference agents shipped with the package (issue 15): ``make_agent("pretrained")``.

**What ships.** ``boardgames_rl/pretrained/`` holds one *entry* per trained policy: a JSON
description ``<entry>.json`` and its weights ``<entry>.pt``. The weights are a plain torch state
dict (tensors only) read with ``torch.load(weights_only=True)``: nothing is unpickled, no code
runs. The JSON (format :data:`FORMAT`) says what the weights are and what they were measured at::

    {"format": "boardgames_rl.pretrained/1", "name": "white_castle-2p",
     "game": "white_castle", "config": {...the full game.config...}, "seats": [0, 1],
     "architecture": {"kind": "mlp", "hidden": [256, 256], "activation": "tanh",
                      "observation_size": 2213, "num_actions": 20, "seat_feature": true},
     "weights": "white_castle-2p.pt", "sha256": "...", "dtype": "float16",
     "training": {...recipe, flags, steps, wall time...}, "commit": "...",
     "strength": {...measured win rates with 95% Wilson intervals...}}

A residual entry (trained with ``--prior heuristic``,
:class:`~boardgames_rl.agents.prior_policy.PriorMaskablePolicy`) has ``"prior": {"agent":
"heuristic", "scale": 3.1}`` in its architecture: its input ends with the one-hot of the
heuristic's move (:func:`~boardgames_rl.core.policy_obs.prior_feature`, counted in
``observation_size``) and its logits add ``scale`` times that one-hot. Only the agents in
:data:`~boardgames_rl.core.policy_obs.SAFE_PRIORS` may be named.

The network is the policy half of an SB3 ``MlpPolicy`` (``mlp_extractor.policy_net`` then
``action_net``, tanh): keys ``pi.<i>.weight`` / ``pi.<i>.bias`` for each hidden layer and
``action.weight`` / ``action.bias``. The value head is not shipped (playing does not need it).

**The agent** sees only ``info_set.observation``, ``info_set.legal_action_mask`` and its own seat
(``info_set.player``, for the seat feature of :mod:`boardgames_rl.core.policy_obs`, exactly as in
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
``experiments/train_strong.py tune-scale`` measures a few and writes the best into an entry);
``pretrained+search`` is the tuned ISMCTS with the pretrained policy as its root prior.

Every failure is one line (:class:`PretrainedError`): a damaged or hostile JSON or weights file
(bad JSON, wrong fields, checksum mismatch, pickled objects, wrong shapes, non-finite values), or
no entry for the game / seat (the message lists what is shipped). :func:`export_policy` and
:func:`export_run` write entries (``experiments/train_strong.py export``).
"""

from __future__ import annotations

import hashlib
import io
import json
import math
import os
import re
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import numpy as np

from boardgames_rl.core.agent import Agent
from boardgames_rl.core.errors import InvalidConfigError
from boardgames_rl.core.game import Game, InfoSet
from boardgames_rl.core.policy_obs import (
    SAFE_PRIORS,
    policy_obs_size,
    policy_observation,
    prior_feature,
    seat_in_observation,
)

FORMAT = "boardgames_rl.pretrained/1"
"""The ``format`` field of every entry JSON this module reads and writes."""
PACKAGE_DIR = Path(__file__).resolve().parent.parent / "pretrained"
"""Where the shipped entries live (package data)."""
MAX_JSON_BYTES = 1 << 20
MAX_WEIGHTS_BYTES = 64 << 20
_NAME = re.compile(r"^[A-Za-z0-9][A-Za-z0-9_.+-]{0,99}$")
_REQUIRED = {
    "format": str,
    "name": str,
    "game": str,
    "config": dict,
    "seats": list,
    "architecture": dict,
    "weights": str,
    "sha256": str,
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

    def describe(self) -> str:
        cfg = ",".join(f"{k}={v}" for k, v in sorted(self.config.items()) if k == "num_players")
        return f"{self.name} ({self.game}{' ' + cfg if cfg else ''}, seats {self.seats})"


def _fail(source: Any, why: str) -> PretrainedError:
    return PretrainedError(f"pretrained entry {str(source)!r}: {why}")


def read_entry(json_path: str | os.PathLike) -> Entry:
    """Read and check one entry's JSON (not its weights). Raises :class:`PretrainedError`."""
    path = Path(json_path)
    try:
        if path.stat().st_size > MAX_JSON_BYTES:
            raise _fail(path, f"the JSON is larger than {MAX_JSON_BYTES} bytes")
        meta = json.loads(path.read_bytes().decode("utf-8"))
    except PretrainedError:
        raise
    except (OSError, UnicodeDecodeError, json.JSONDecodeError, RecursionError, ValueError) as e:
        raise _fail(path, f"not readable JSON ({str(e).splitlines()[0][:120]})") from None
    if not isinstance(meta, dict):
        raise _fail(path, "the JSON is not an object")
    for key, kind in _REQUIRED.items():
        if not isinstance(meta.get(key), kind):
            raise _fail(path, f"field {key!r} missing or not a {kind.__name__}")
    if meta["format"] != FORMAT:
        raise _fail(path, f"format {meta['format']!r}, this version reads {FORMAT!r}")
    name = meta["name"]
    if not _NAME.match(name) or path.name != f"{name}.json":
        raise _fail(path, f"name {name!r} must be a plain name matching the file name")
    weights = meta["weights"]
    if not _NAME.match(weights) or os.path.basename(weights) != weights:
        raise _fail(path, f"weights {weights!r} must be a plain file name in the same folder")
    if not all(isinstance(s, int) and not isinstance(s, bool) and s >= 0 for s in meta["seats"]):
        raise _fail(path, "seats must be a list of seat indices")
    if not meta["seats"]:
        raise _fail(path, "seats is empty")
    arch = meta["architecture"]
    hidden = arch.get("hidden")
    ints = ("observation_size", "num_actions")
    if (
        arch.get("kind") != "mlp"
        or arch.get("activation") not in ("tanh", "relu")
        or not isinstance(hidden, list)
        or not all(isinstance(h, int) and not isinstance(h, bool) and h > 0 for h in hidden)
        or not all(isinstance(arch.get(k), int) and arch[k] > 0 for k in ints)
        or not isinstance(arch.get("seat_feature"), bool)
    ):
        raise _fail(
            path,
            "architecture must be {kind: mlp, activation: tanh|relu, hidden: [ints], "
            "observation_size: int, num_actions: int, seat_feature: bool}",
        )
    prior = arch.get("prior")
    if prior is not None and (
        not isinstance(prior, dict)
        or set(prior) != {"agent", "scale"}
        or prior["agent"] not in SAFE_PRIORS
        or not isinstance(prior["scale"], int | float)
        or isinstance(prior["scale"], bool)
        or not math.isfinite(prior["scale"])
    ):
        raise _fail(
            path, f"architecture.prior must be {{agent: {' | '.join(SAFE_PRIORS)}, scale: number}}"
        )
    return Entry(name, path.parent, meta)


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


def _check_tensor(entry: Entry, key: str, value: Any, shape: tuple[int, ...]) -> np.ndarray:
    import torch as th

    if not isinstance(value, th.Tensor):
        raise _fail(entry.name, f"weights entry {key!r} is not a tensor")
    if tuple(value.shape) != shape:
        raise _fail(
            entry.name, f"weights entry {key!r} has shape {tuple(value.shape)}, expected {shape}"
        )
    if not value.is_floating_point():
        raise _fail(entry.name, f"weights entry {key!r} is not a float tensor")
    array = value.detach().to(th.float32).cpu().numpy()
    if not np.isfinite(array).all():
        raise _fail(entry.name, f"weights entry {key!r} holds non-finite values")
    return array


def load_weights(entry: Entry) -> list[tuple[np.ndarray, np.ndarray]]:
    """The layers ``[(W, b), ...]`` (float32, hidden layers then the action head), checked
    against the JSON: checksum, keys, shapes, finiteness. Nothing is unpickled."""
    try:
        import torch as th
    except ImportError:
        raise PretrainedError(
            "the pretrained agent needs torch: pip install 'boardgames-rl[train]'"
        ) from None
    path = entry.folder / entry.meta["weights"]
    try:
        if path.stat().st_size > MAX_WEIGHTS_BYTES:
            raise _fail(entry.name, f"weights file larger than {MAX_WEIGHTS_BYTES} bytes")
        blob = path.read_bytes()
    except OSError as e:
        raise _fail(entry.name, f"weights file {path.name!r} unreadable ({e.strerror})") from None
    if hashlib.sha256(blob).hexdigest() != entry.meta["sha256"]:
        raise _fail(entry.name, f"weights file {path.name!r} does not match its sha256")
    try:
        state = th.load(io.BytesIO(blob), map_location="cpu", weights_only=True)
    except Exception as e:  # noqa: BLE001 - pickled objects, damage: one line, nothing run
        first = (str(e).strip().splitlines() or [type(e).__name__])[0][:120]
        raise _fail(entry.name, f"weights are not a plain tensor state dict ({first})") from None
    if not isinstance(state, dict):
        raise _fail(entry.name, "weights are not a state dict")
    arch = entry.meta["architecture"]
    sizes = [arch["observation_size"], *arch["hidden"]]
    expected = {f"pi.{i}.{p}" for i in range(len(arch["hidden"])) for p in ("weight", "bias")}
    expected |= {"action.weight", "action.bias"}
    if set(state) != expected:
        raise _fail(
            entry.name, f"weights keys {sorted(map(str, state))[:6]} are not {sorted(expected)[:6]}"
        )
    layers = []
    for i in range(len(arch["hidden"])):
        w = _check_tensor(
            entry, f"pi.{i}.weight", state[f"pi.{i}.weight"], (sizes[i + 1], sizes[i])
        )
        b = _check_tensor(entry, f"pi.{i}.bias", state[f"pi.{i}.bias"], (sizes[i + 1],))
        layers.append((w, b))
    n = arch["num_actions"]
    w = _check_tensor(entry, "action.weight", state["action.weight"], (n, sizes[-1]))
    b = _check_tensor(entry, "action.bias", state["action.bias"], (n,))
    layers.append((w, b))
    return layers


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
                from boardgames_rl.agents.registry import make_agent

                self._priors[e.name] = make_agent(e.prior[0], game)

    def files_digest(self) -> str | None:
        """The entry and the start of its weights' sha256 per seat, and for a residual entry the
        prior's bonus it plays with (the JSON's or ``prior_scale``'s: another bonus plays other
        games), e.g. ``seat 0: castle_nightingale-ninja 1a2b3c4d5e6f prior scale 3.1; ...``."""
        return "; ".join(
            f"seat {s}: {e.name} {str(e.meta.get('sha256', ''))[:12]}"
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
    """The ``prior_scale`` option: None, or a finite number >= 0 for an agent with a residual
    entry (one-line errors otherwise)."""
    if scale is None:
        return None
    if isinstance(scale, bool) or not isinstance(scale, int | float) or not math.isfinite(scale):
        raise PretrainedError(f"pretrained: prior_scale must be a number >= 0, got {scale!r}")
    if scale < 0:
        raise PretrainedError(f"pretrained: prior_scale must be a number >= 0, got {scale!r}")
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
    where = f"in {dir!r}" if dir else "shipped"
    listing = "; ".join(e.describe() for e in entries) if entries else "none"
    if entry:
        entries = [e for e in entries if e.name == entry]
        if not entries:
            raise PretrainedError(f"no pretrained entry {entry!r} {where}; {where}: {listing}")
    fitting = [e for e in entries if _fits(e, game)]
    wanted = list(range(game.num_players)) if seat is None else [parse_seat_option(seat, game)]
    policies: dict[int, tuple[Entry, MLPPolicy]] = {}
    for e in sorted(fitting, key=lambda e: (len(e.seats), e.name)):  # specialised entries first
        for s in e.seats:
            if s in wanted and s not in policies:
                check_fits_game(e, game)
                policies[s] = (e, load_entry(e))
    if not policies:
        seat_text = "any seat" if seat is None else f"seat {seat}"
        raise PretrainedError(
            f"no pretrained agent for {game.name} {dict(game.config)} ({seat_text}); "
            f"{where}: {listing}"
        )
    return policies


def build_search(game: Game, **kwargs: Any) -> Agent:
    """``pretrained+search``: the tuned ISMCTS (``ismcts:preset=tuned``) with the shipped policy
    as its root prior (its move tried first and credited ``prior_visits``); ISMCTS options pass
    through."""
    from boardgames_rl.agents.ismcts import build_ismcts

    build(game)  # fail now, with the listing, when nothing is shipped for the game
    return build_ismcts(game, **{"preset": "tuned", **kwargs, "prior": "pretrained"})


# ---------------------------------------------------------------------------- export
def export_policy(
    policy_state: dict[str, Any],
    game: Game,
    seats: list[int],
    name: str,
    out_dir: str | os.PathLike,
    training: dict[str, Any],
    strength: dict[str, Any] | None = None,
    commit: str = "",
    dtype: str = "float16",
    activation: str = "tanh",
    prior: str | None = None,
) -> Path:
    """Write ``<name>.pt`` and ``<name>.json`` from an SB3 ``MaskableActorCriticPolicy`` state
    dict (its policy half only); returns the JSON path. ``dtype`` float16 halves the size.
    A residual policy's state dict (with ``prior_scale``) needs ``prior``, its agent spec."""
    import torch as th

    if not _NAME.match(name):
        raise PretrainedError(f"entry name {name!r} must match {_NAME.pattern}")
    if dtype not in ("float16", "float32"):
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
    state = {k: v.detach().cpu().to(torch_dtype).contiguous() for k, v in state.items()}
    hidden = [int(state[f"pi.{i}.weight"].shape[0]) for i in range(len(idx))]
    obs_size = int(state["pi.0.weight"].shape[1]) if idx else int(state["action.weight"].shape[1])
    buf = io.BytesIO()
    th.save(state, buf)
    blob = buf.getvalue()
    out = Path(out_dir)
    out.mkdir(parents=True, exist_ok=True)
    meta = {
        "format": FORMAT,
        "name": name,
        "game": game.name,
        "config": dict(game.config),
        "seats": sorted(int(s) for s in seats),
        "architecture": {
            "kind": "mlp",
            "hidden": hidden,
            "activation": activation,
            "observation_size": obs_size,
            "num_actions": int(state["action.weight"].shape[0]),
            "seat_feature": not seat_in_observation(game),
        },
        "weights": f"{name}.pt",
        "sha256": hashlib.sha256(blob).hexdigest(),
        "dtype": dtype,
        "training": training,
        "commit": commit,
        "strength": strength or {},
    }
    if "prior_scale" in policy_state:
        if prior not in SAFE_PRIORS:
            raise PretrainedError(
                f"a residual policy needs its prior, one of {', '.join(SAFE_PRIORS)}; got {prior!r}"
            )
        scale = float(policy_state["prior_scale"])
        meta["architecture"]["prior"] = {"agent": prior, "scale": round(scale, 6)}  # type: ignore[index]
    entry = Entry(name, out, meta)
    check_fits_game(entry, game)
    (out / f"{name}.pt").write_bytes(blob)
    write_meta(out / f"{name}.json", meta)
    return out / f"{name}.json"


def write_meta(path: Path, meta: dict[str, Any]) -> None:
    """Write an entry's JSON (finite numbers only; sorted keys for readable diffs)."""

    def clean(v: Any) -> Any:
        if isinstance(v, float) and not math.isfinite(v):
            return None
        if isinstance(v, dict):
            return {str(k): clean(x) for k, x in v.items()}
        if isinstance(v, (list, tuple)):
            return [clean(x) for x in v]
        return v

    tmp = path.with_suffix(".json.tmp")
    tmp.write_text(json.dumps(clean(meta), indent=1, sort_keys=True) + "\n")
    os.replace(tmp, path)
