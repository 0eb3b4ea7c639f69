"""Agents backed by a trained sb3-contrib ``MaskablePPO`` policy.

* :class:`PolicyAgent` plays with an in-memory policy (frozen self-play snapshots use it);
* :class:`PPOAgent` loads a saved ``model.zip`` (``make_agent("ppo:path=runs/x/model.zip")``);
  loaded models are cached per file, so many agents on one file share one network.

**Model files are not trusted code.** SB3's own ``MaskablePPO.load`` unpickles the ``data`` entry
of the zip (spaces, schedules, the policy class), which can run any code. :func:`read_model_file`
never does: it reads ``data`` as plain JSON (only its JSON values are used), and ``policy.pth`` /
``policy.optimizer.pth`` with ``torch.load(weights_only=True)`` (tensors and numbers only) -- a
promise torch keeps from version 2.10 on (torch <= 2.5.1 can run code even with
``weights_only=True``, CVE-2025-32434; below 2.10 a crafted file can corrupt memory,
CVE-2026-24747), so an older torch is refused in one line; the policy is rebuilt from the
weights' shapes (a ``MaskableActorCriticPolicy`` with the default activation). A file that cannot
be read that way (custom policy settings, a ``.pth`` holding Python objects) raises
:class:`UntrustedModelError`, a one-line message naming the opt-in: the agent option ``trust=1``
(``ppo:path=...,trust=1``) or ``train --trust-model-file``, for files you trust.

**Nothing is built before it is checked.** The ``model.zip`` is read as a regular file of at most
:data:`MAX_MODEL_BYTES` (a FIFO or a link to ``/dev/zero`` is refused) and unzipped in memory,
each entry read with a bounded read (at most :data:`MAX_MEMBER_BYTES`, whatever its header
claims); every tensor must be a plain one with finite values (no broadcast or overlapping view,
no NaN); the network's layers are at most ``MAX_UNITS`` wide and hold at most
``MAX_PARAMETERS`` weights (``boardgames_rl.agents.pretrained``), and with
a game given its input and action sizes must be the game's -- all before the policy is built.

Both agents see only ``info_set.observation``, ``info_set.legal_action_mask`` and their own seat
(``info_set.player``, for the seat feature of ``boardgames_rl.envs.policy_obs``). A model trained
on a plain :class:`~boardgames_rl.envs.single_agent.SingleAgentEnv` (no seat feature) is told
apart by its input size and fed the plain observation. ``deterministic=True`` plays the most
probable legal action; ``False`` draws from the masked policy distribution with the ``rng`` given
to ``act`` (reproducible).

A residual policy (``boardgames_rl.agents.prior_policy.PriorMaskablePolicy``, trained with
``--prior heuristic``) also gets the prior feature: the agent builds its own prior agent from the
policy's ``prior`` spec and appends the one-hot of that agent's move
(``boardgames_rl.envs.policy_obs.prior_feature``), exactly as the training env did.
"""

from __future__ import annotations

import io
import lzma
import os
import pickle
import re
import zipfile
import zlib
from pathlib import Path
from types import SimpleNamespace
from typing import Any

import numpy as np
import torch as th

from boardgames_rl.agents.pretrained import MAX_HIDDEN_LAYERS, MAX_PARAMETERS, MAX_UNITS
from boardgames_rl.agents.torch_weights import check_plain_tensors, load_plain_weights
from boardgames_rl.core.agent import Agent
from boardgames_rl.core.errors import InvalidConfigError
from boardgames_rl.core.files import MAX_JSON_BYTES, UnsafeFileError, loads_json, read_bytes
from boardgames_rl.core.game import Game, InfoSet
from boardgames_rl.envs.policy_obs import (
    SAFE_PRIORS,
    policy_obs_size,
    policy_observation,
    prior_agent,
    prior_feature,
)

_MODEL_CACHE: dict[tuple[str, float, int, bool], Any] = {}
TRUST_HINT = (
    "if you trust this file (it may run code when loaded), add trust=1 to the agent "
    "(ppo:path=...,trust=1) or pass --trust-model-file to train"
)
"""How to opt in to unpickling a model file, quoted by every refusal."""
_PLAIN_POLICY_KWARGS = {"net_arch", "prior", "prior_scale"}
"""``policy_kwargs`` entries the safe loader rebuilds (anything else needs ``trust=1``)."""
MAX_MEMBER_BYTES = 8 * MAX_PARAMETERS + (16 << 20)
"""Most bytes one entry of a model.zip may unpack to: the optimiser state of the largest network
allowed (two float32 per weight) and room for its headers."""
MAX_MODEL_BYTES = 12 * MAX_PARAMETERS + MAX_JSON_BYTES
"""Largest model.zip read, and most bytes its read entries may unpack to together (the weights,
the optimiser state and the ``data`` JSON)."""


class UntrustedModelError(InvalidConfigError):
    """A model file would have to be unpickled (run code) to load, or cannot be read safely."""


def freeze_policy(policy: Any) -> Any:
    """An independent copy of an SB3 ``policy`` on the CPU, in eval mode, without gradients (nor
    optimizer state): later training of the original does not change it. A policy frozen by this
    function is returned as is."""
    if getattr(policy, "_boardgames_frozen", False):
        return policy
    frozen = policy.__class__(**policy._get_constructor_parameters())
    frozen.load_state_dict(policy.state_dict())
    frozen.to("cpu")
    frozen.set_training_mode(False)
    frozen.optimizer = None
    for p in frozen.parameters():
        p.requires_grad_(False)
    frozen._boardgames_frozen = True
    return frozen


def seat_feature(policy: Any, game: Game) -> bool:
    """Whether ``policy`` takes the seat feature for ``game`` (decided by its input size).

    Raises:
        InvalidConfigError: the policy fits neither the game's observation nor the observation
            with the seat feature, or not its action count.
    """
    size = int(np.prod(policy.observation_space.shape))
    n_actions = int(getattr(policy.action_space, "n", -1))
    extra = game.num_actions if prior_spec(policy) else 0
    with_seat, plain = policy_obs_size(game) + extra, game.observation_spec.size + extra
    if n_actions != game.num_actions or size not in (with_seat, plain):
        raise InvalidConfigError(
            f"the model does not fit {game.name} {game.config}: it takes observations of "
            f"shape ({size},) and has {n_actions} actions, the game needs ({with_seat},) (with "
            f"the seat feature) or ({plain},) and {game.num_actions}. Use a model trained on "
            "this game and configuration."
        )
    return size == with_seat


def prior_spec(policy: Any) -> str | None:
    """The agent spec of a residual policy's prior (None for a plain policy)."""
    prior = getattr(policy, "prior", None)
    return prior if isinstance(prior, str) else None


def check_spaces(policy: Any, game: Game, source: str) -> None:
    """Raise ``InvalidConfigError`` unless ``policy`` was trained for ``game`` 's spaces."""
    try:
        seat_feature(policy, game)
    except InvalidConfigError as e:
        raise InvalidConfigError(f"{source}: {e}") from None


class PolicyAgent(Agent):
    """Plays with a ``MaskableActorCriticPolicy`` held in memory."""

    def __init__(self, policy: Any, deterministic: bool = True, name: str = "policy"):
        self.policy = policy
        self.deterministic = bool(deterministic)
        self.name = name
        self._seat_feature: dict[Game, bool] = {}
        self._checked = self._seat_feature  # games already checked (kept for callers)
        self._priors: dict[Game, Agent] = {}

    def reset(self) -> None:
        for prior in self._priors.values():
            prior.reset()

    def _prior_feature(self, info_set: InfoSet) -> np.ndarray | None:
        spec = prior_spec(self.policy)
        if spec is None:
            return None
        game = info_set.game
        if game not in self._priors:
            source = getattr(self.policy, "_boardgames_source", None) or "policy.prior"
            self._priors[game] = prior_agent(spec, game, source)
        return prior_feature(self._priors[game], info_set)

    def _check(self, game: Game) -> bool:
        if game not in self._seat_feature:
            try:
                self._seat_feature[game] = seat_feature(self.policy, game)
            except InvalidConfigError as e:
                raise InvalidConfigError(f"policy {self.name!r}: {e}") from None
        return self._seat_feature[game]

    def action_probabilities(self, info_set: InfoSet) -> np.ndarray:
        """The masked policy distribution over actions (float64, sums to 1 over legal ones)."""
        game = info_set.game
        with_seat = self._check(game)
        mask = np.asarray(info_set.legal_action_mask, dtype=bool)
        if not mask.any():
            raise ValueError(f"{game.name}: no legal action for player {info_set.player}")
        prior = self._prior_feature(info_set)
        if with_seat:
            obs = policy_observation(info_set.observation, info_set.player, game, prior)
        else:
            obs = np.asarray(info_set.observation, dtype=np.float32)
            obs = obs.copy() if prior is None else np.concatenate([obs, prior])
        with th.no_grad():
            dist = self.policy.get_distribution(th.as_tensor(obs[None]), action_masks=mask[None])
            probs = dist.distribution.probs[0].cpu().numpy().astype(np.float64)
        probs = np.where(mask, probs, 0.0)
        total = probs.sum()
        return probs / total if total > 0 else mask / mask.sum()

    def act(self, info_set: InfoSet, rng: np.random.Generator) -> int:
        probs = self.action_probabilities(info_set)
        if self.deterministic:
            return int(np.argmax(probs))
        return int(rng.choice(len(probs), p=probs))


# ---------------------------------------------------------------------------- safe loading
def _zero_lr(_progress: float) -> float:
    return 0.0


def _short(e: BaseException) -> str:
    """The first line of an exception's message (torch's refusals run to 40 lines)."""
    text = str(e).strip().splitlines()
    return (text[0] if text else type(e).__name__)[:200]


def _load_weights(blob: bytes, what: str, source: str) -> dict[str, Any]:
    try:
        value = load_plain_weights(blob)
    except InvalidConfigError as e:  # a torch too old to read files safely
        raise UntrustedModelError(f"{source}: {e}") from e
    except pickle.UnpicklingError as e:
        raise UntrustedModelError(
            f"{source}: {what} holds Python objects that loading would execute "
            f"(refused: model files are not trusted code); {TRUST_HINT}"
        ) from e
    except (RuntimeError, EOFError, ValueError, zipfile.BadZipFile, OSError, zlib.error) as e:
        raise UntrustedModelError(
            f"{source}: {what} is damaged ({_short(e)}); retrain, or restore the file"
        ) from e
    if not isinstance(value, dict):
        raise UntrustedModelError(f"{source}: {what} is not a state dict; {TRUST_HINT}")
    try:
        check_plain_tensors(value, what)
    except ValueError as e:
        raise UntrustedModelError(
            f"{source}: {_short(e)}: a damaged or hostile file; retrain, or restore the file"
        ) from e
    return value


def _read_member(z: zipfile.ZipFile, name: str, limit: int, source: str) -> bytes:
    """The entry ``name`` unpacked, at most ``limit`` bytes whatever its header claims."""
    info = z.getinfo(name)
    if info.file_size > limit:
        raise UntrustedModelError(
            f"{source}: its {name} entry unpacks to {info.file_size} bytes, more than the {limit} "
            "a model file may hold: a damaged or hostile file; retrain, or restore the file"
        )
    with z.open(info) as f:
        data = f.read(limit + 1)
    if len(data) > limit:
        raise UntrustedModelError(
            f"{source}: its {name} entry unpacks to more than {limit} bytes: a damaged or hostile "
            "file; retrain, or restore the file"
        )
    return data


def resolve_model_path(path: str | os.PathLike) -> Path:
    """The ``model.zip`` meant by ``path`` (the file, the path without ``.zip``, a run folder).
    Something that is there but not a regular file (a FIFO, a device) is returned as it is, for
    the reader to refuse in its own words."""
    p = Path(path)
    if p.suffix != ".zip" and os.path.lexists(p.with_suffix(".zip")):
        p = p.with_suffix(".zip")
    if p.is_dir() and os.path.lexists(p / "model.zip"):
        p = p / "model.zip"
    if not os.path.lexists(p) or p.is_dir():
        raise InvalidConfigError(
            f"no PPO model at {str(path)!r}: give the model.zip written by "
            "`boardgames-rl train` / lab/experiments/train_ppo.py (or its run folder)"
        )
    return p


def read_model_file(path: str | os.PathLike) -> tuple[dict[str, Any], dict[str, dict]]:
    """``(data, weights)`` of an SB3 ``model.zip`` without unpickling anything.

    ``data`` holds the JSON values of the zip's ``data`` entry (entries SB3 pickled are left as
    their raw JSON, never deserialized); ``weights`` maps ``"policy"`` (and
    ``"policy.optimizer"`` when saved) to state dicts loaded with ``weights_only=True``, every
    tensor a plain one with finite values. The file is read as a regular file of at most
    :data:`MAX_MODEL_BYTES`, each entry unpacked with a bounded read (see the module docstring).

    Raises:
        UntrustedModelError: a damaged or oversized file, a file that is not a regular file, or
            content that only unpickling could read.
    """
    p = Path(path)
    source = f"model file {str(p)!r}"
    try:
        blob = read_bytes(p, MAX_MODEL_BYTES, "model file")
    except FileNotFoundError as e:
        raise UntrustedModelError(f"{source} does not exist: give the run's model.zip") from e
    except UnsafeFileError as e:
        raise UntrustedModelError(str(e)) from e
    wanted = ("data", "policy.pth", "policy.optimizer.pth")
    data_bytes: bytes | None = None
    try:
        with zipfile.ZipFile(io.BytesIO(blob)) as z:
            names = set(z.namelist())
            if "policy.pth" not in names:
                raise UntrustedModelError(
                    f"{source} is not a readable model.zip (it has no policy.pth: truncated, "
                    "damaged, or not a model written by `boardgames-rl train`)"
                )
            declared = sum(z.getinfo(n).file_size for n in wanted if n in names)
            if declared > MAX_MODEL_BYTES:
                raise UntrustedModelError(
                    f"{source}: its entries unpack to {declared} bytes, more than the "
                    f"{MAX_MODEL_BYTES} a model file may hold: a damaged or hostile file; "
                    "retrain, or restore the file"
                )
            if "data" in names:
                data_bytes = _read_member(z, "data", MAX_JSON_BYTES, source)
            blobs = {
                n[:-4]: _read_member(z, n, MAX_MEMBER_BYTES, source)
                for n in ("policy.pth", "policy.optimizer.pth")
                if n in names
            }
    except UntrustedModelError:
        raise
    except (
        zipfile.BadZipFile,
        zlib.error,
        lzma.LZMAError,
        EOFError,
        OSError,
        RuntimeError,  # an encrypted entry
        NotImplementedError,  # an unknown compression
        ValueError,
    ) as e:
        raise UntrustedModelError(
            f"{source} is not a readable model.zip (truncated or damaged? {_short(e)}); "
            "retrain, or restore the file"
        ) from e
    try:
        data = {} if data_bytes is None else loads_json(data_bytes, f"{source}: its data entry")
    except UnsafeFileError as e:
        raise UntrustedModelError(str(e)) from e
    if not isinstance(data, dict):
        raise UntrustedModelError(f"{source}: its data entry is not a JSON object")
    weights = {name: _load_weights(b, f"{name}.pth", source) for name, b in blobs.items()}
    return data, weights


def _shape(value: Any) -> tuple[int, ...] | None:
    return tuple(int(n) for n in value.shape) if isinstance(value, th.Tensor) else None


def _mlp(state: dict[str, Any], prefix: str, source: str) -> list[int]:
    """The hidden widths of the SB3 MLP ``prefix`` (``Linear`` modules at indices 0, 2, 4, ...),
    each checked against the caps."""
    pat = re.compile(re.escape(prefix) + r"\.(\d+)\.weight$")
    indices = sorted(int(m.group(1)) for k in state if (m := pat.match(str(k))))
    if len(indices) > MAX_HIDDEN_LAYERS:
        raise UntrustedModelError(
            f"{source}: {prefix} has {len(indices)} layers, more than the {MAX_HIDDEN_LAYERS} a "
            "model file may have: a damaged or hostile file"
        )
    sizes = []
    for i in indices:
        shape = _shape(state[f"{prefix}.{i}.weight"])
        units = shape[0] if shape and len(shape) == 2 else 0
        if units > MAX_UNITS:
            raise UntrustedModelError(
                f"{source}: layer {prefix}.{i} has {units} units, more than the {MAX_UNITS} a "
                "model file may have: a damaged or hostile file; retrain, or restore the file"
            )
        sizes.append(units)
    return sizes


def _expected_shapes(
    state: dict[str, Any], source: str
) -> tuple[int, list[int], list[int], int, dict[str, tuple[int, ...]]]:
    """``(obs_size, pi, vf, n_actions, shapes)``: what the state dict describes, and the shape
    every key of such a policy must have."""
    action = _shape(state.get("action_net.weight"))
    first = _shape(state.get("mlp_extractor.policy_net.0.weight"))
    obs = (first or action or (0, 0))[-1]
    pi = _mlp(state, "mlp_extractor.policy_net", source)
    vf = _mlp(state, "mlp_extractor.value_net", source)
    n_actions = action[0] if action and len(action) == 2 else 0
    if n_actions > MAX_UNITS:
        raise UntrustedModelError(
            f"{source}: its action head has {n_actions} units, more than the {MAX_UNITS} a "
            "model file may have: a damaged or hostile file; retrain, or restore the file"
        )
    shapes: dict[str, tuple[int, ...]] = {}
    for prefix, hidden, head, out in (
        ("mlp_extractor.policy_net", pi, "action_net", n_actions),
        ("mlp_extractor.value_net", vf, "value_net", 1),
    ):
        width = obs
        for i, units in enumerate(hidden):
            shapes[f"{prefix}.{2 * i}.weight"] = (units, width)
            shapes[f"{prefix}.{2 * i}.bias"] = (units,)
            width = units
        shapes[f"{head}.weight"] = (out, width)
        shapes[f"{head}.bias"] = (out,)
    if "prior_scale" in state:
        shapes["prior_scale"] = ()
    return obs, pi, vf, n_actions, shapes


def _check_policy_state(
    state: dict[str, Any], source: str
) -> tuple[int, list[int], list[int], int]:
    """The sizes of the default-activation MLP policy ``state`` holds, every key and shape
    checked and the caps applied, before anything is built."""
    obs, pi, vf, n_actions, shapes = _expected_shapes(state, source)
    keys = set(state)
    problem = ""
    if keys != set(shapes):
        odd = sorted(map(str, keys ^ set(shapes)))[:3]
        problem = f"keys {', '.join(odd)} {'are' if len(odd) > 1 else 'is'} unexpected or missing"
    elif min([obs, n_actions, *pi, *vf]) < 1:
        problem = "a layer of no units"
    else:
        for key, shape in shapes.items():
            if _shape(state[key]) != shape:
                problem = f"{key} has shape {_shape(state[key])}, expected {shape}"
                break
    if problem:
        raise UntrustedModelError(
            f"{source}: its weights are not those of a standard MLP policy ({problem[:160]}); "
            f"{TRUST_HINT}"
        )
    total = sum(int(np.prod(shape)) for shape in shapes.values())
    if total > MAX_PARAMETERS:
        raise UntrustedModelError(
            f"{source}: its network holds {total} weights, more than the {MAX_PARAMETERS} a model "
            "file may have: a damaged or hostile file; retrain, or restore the file"
        )
    return obs, pi, vf, n_actions


def policy_from_weights(
    state: dict[str, Any],
    source: str,
    policy_kwargs: dict[str, Any] | None = None,
    game: Game | None = None,
) -> Any:
    """A ``MaskableActorCriticPolicy`` rebuilt from its state dict's shapes, weights loaded (a
    :class:`~boardgames_rl.agents.prior_policy.PriorMaskablePolicy` when the state dict holds
    ``prior_scale``; its ``prior`` spec comes from the saved ``policy_kwargs``). Every key and
    shape is checked first, the layer widths and the weight count capped, and with ``game``
    the input and action sizes must be the game's: nothing is built before that.

    Raises:
        UntrustedModelError: the state dict is not one of a default-activation MLP policy.
        InvalidConfigError: the policy does not fit ``game``.
    """
    from gymnasium import spaces
    from sb3_contrib.common.maskable.policies import MaskableActorCriticPolicy

    obs_size, pi, vf, n_actions = _check_policy_state(state, source)
    cls: Any = MaskableActorCriticPolicy
    extra: dict[str, Any] = {}
    if "prior_scale" in state:
        from boardgames_rl.agents.prior_policy import DEFAULT_PRIOR, PriorMaskablePolicy

        cls = PriorMaskablePolicy
        extra["prior"] = (policy_kwargs or {}).get("prior", DEFAULT_PRIOR)
        if extra["prior"] not in SAFE_PRIORS:
            raise UntrustedModelError(
                f"{source} names the prior {str(extra['prior'])!r:.60}, not one of "
                f"{', '.join(SAFE_PRIORS)}; {TRUST_HINT}"
            )
    if game is not None:
        stand_in = SimpleNamespace(
            observation_space=SimpleNamespace(shape=(obs_size,)),
            action_space=SimpleNamespace(n=n_actions),
            prior=extra.get("prior"),
        )
        check_spaces(stand_in, game, source)
    try:
        policy = cls(
            spaces.Box(-np.inf, np.inf, (obs_size,), np.float32),
            spaces.Discrete(n_actions),
            _zero_lr,
            net_arch=dict(pi=pi, vf=vf),
            **extra,
        )
        policy.load_state_dict(state, strict=True)
    except (KeyError, AttributeError, IndexError, RuntimeError, ValueError, TypeError) as e:
        raise UntrustedModelError(
            f"{source}: its weights are not those of a standard MLP policy ({_short(e)}); "
            f"{TRUST_HINT}"
        ) from e
    policy._boardgames_source = f"{source}: policy_kwargs.prior"
    return policy


def check_plain_settings(data: dict[str, Any], source: str) -> None:
    """Refuse a model whose saved policy settings would need unpickling to honour."""
    kwargs = data.get("policy_kwargs", {})
    scale = kwargs.get("prior_scale", 0.0) if isinstance(kwargs, dict) else None
    if (
        not isinstance(kwargs, dict)
        or ":serialized:" in kwargs
        or set(kwargs) - _PLAIN_POLICY_KWARGS
        or kwargs.get("prior", "heuristic") not in SAFE_PRIORS
        or not isinstance(scale, int | float)
        or isinstance(scale, bool)
    ):
        raise UntrustedModelError(
            f"{source} uses custom policy settings that only unpickling can restore; {TRUST_HINT}"
        )


def load_policy(path: str | os.PathLike, trust: bool = False, game: Game | None = None) -> Any:
    """The policy of a saved model on the CPU, in eval mode, cached per (file, mtime, size).

    By default nothing is unpickled (see the module docstring); ``trust=True`` lets SB3's own
    ``MaskablePPO.load`` (which unpickles) read a file the user trusts when the safe reader
    cannot (a file the safe reader reads is read that way either way). Either way only a regular
    file of at most :data:`MAX_MODEL_BYTES` is read. With ``game``, a model that does not fit
    it is refused before its policy is built.
    """
    p = resolve_model_path(path)
    source = f"model file {str(p)!r}"
    try:
        st = p.stat()
    except OSError as e:
        raise UntrustedModelError(f"{source} cannot be read ({e.strerror})") from e
    key = (str(p.resolve()), st.st_mtime, st.st_size, bool(trust))
    if key not in _MODEL_CACHE:
        policy = None
        if trust:  # a permission, not a requirement: a file read without unpickling is read so
            try:
                data, weights = read_model_file(p)
                check_plain_settings(data, source)
                policy = policy_from_weights(
                    weights["policy"], source, data.get("policy_kwargs"), game
                )
            except UntrustedModelError:
                policy = None
        if trust and policy is None:
            from sb3_contrib import MaskablePPO

            try:
                blob = read_bytes(p, MAX_MODEL_BYTES, "model file")
            except UnsafeFileError as e:
                raise UntrustedModelError(str(e)) from e
            try:
                policy = MaskablePPO.load(io.BytesIO(blob), device="cpu").policy
            except Exception as e:  # noqa: BLE001 - any failure of a trusted load: one line
                raise UntrustedModelError(f"{source} could not be loaded ({_short(e)})") from e
        elif policy is None:
            data, weights = read_model_file(p)
            check_plain_settings(data, source)
            policy = policy_from_weights(weights["policy"], source, data.get("policy_kwargs"), game)
        policy.set_training_mode(False)
        _MODEL_CACHE[key] = policy
    return _MODEL_CACHE[key]


def load_model(path: str | os.PathLike, trust: bool = False) -> Any:
    """Kept for callers of the old API: an object whose ``.policy`` is :func:`load_policy`'s."""
    return SimpleNamespace(policy=load_policy(path, trust))


class PPOAgent(PolicyAgent):
    """A saved MaskablePPO model as an agent.

    Args:
        path: the ``model.zip`` (or the run folder holding it).
        deterministic: most probable legal action (default) or a draw with the ``rng``.
        game: when given, the model's spaces are checked against it now (else at the first act).
        trust: unpickle the file with SB3's loader (only for a file you trust; see the module
            docstring). Default: never unpickle.
    """

    def __init__(
        self,
        path: str | os.PathLike,
        deterministic: bool = True,
        game: Game | None = None,
        trust: bool = False,
    ):
        policy = load_policy(path, trust, game)
        super().__init__(policy, deterministic=deterministic, name=f"ppo:{path}")
        self.path = str(path)
        if game is not None:
            check_spaces(policy, game, f"PPO model {self.path!r}")
            self._check(game)


def build(
    game: Game, path: str | None = None, deterministic: bool = True, trust: bool = False
) -> PPOAgent:
    """Registry factory: ``make_agent("ppo:path=runs/x/model.zip,deterministic=false", game)``
    (``trust=1``: allow unpickling a file you trust)."""
    if path is None:
        raise InvalidConfigError("the ppo agent needs a model: use 'ppo:path=runs/<run>/model.zip'")
    for name, value in (("deterministic", deterministic), ("trust", trust)):
        if not isinstance(value, bool) and value not in (0, 1):
            raise InvalidConfigError(
                f"ppo agent option {name} must be true/false or 1/0, got {value!r}"
            )
    return PPOAgent(str(path), deterministic=bool(deterministic), game=game, trust=bool(trust))
