"""Agents backed by a trained sb3-contrib ``MaskablePPO`` policy.

* :class:`PolicyAgent` plays with an in-memory policy (frozen self-play snapshots use it);
* :class:`PPOAgent` loads a saved ``model.zip`` (``make_agent("ppo:path=runs/x/model.zip")``);
  loaded models are cached per file, so many agents on one file share one network.

**Model files are not trusted code.** SB3's own ``MaskablePPO.load`` unpickles the ``data`` entry
of the zip (spaces, schedules, the policy class), which can run any code. :func:`read_model_file`
never does: it reads ``data`` as plain JSON (only its JSON values are used), and ``policy.pth`` /
``policy.optimizer.pth`` with ``torch.load(weights_only=True)`` (tensors and numbers only); the
policy is rebuilt from the weights' shapes (a ``MaskableActorCriticPolicy`` with the default
activation). A file that cannot be read that way (custom policy settings, a ``.pth`` holding Python
objects) raises :class:`UntrustedModelError`, a one-line message naming the opt-in: the agent
option ``trust=1`` (``ppo:path=...,trust=1``) or ``train --trust-model-file``, for files you trust.

Both agents see only ``info_set.observation``, ``info_set.legal_action_mask`` and their own seat
(``info_set.player``, for the seat feature of :mod:`boardgames_rl.core.policy_obs`). A model trained
on a plain :class:`~boardgames_rl.envs.single_agent.SingleAgentEnv` (no seat feature) is told
apart by its input size and fed the plain observation. ``deterministic=True`` plays the most
probable legal action; ``False`` draws from the masked policy distribution with the ``rng`` given
to :meth:`act` (reproducible).

A residual policy (:class:`~boardgames_rl.agents.prior_policy.PriorMaskablePolicy`, trained with
``--prior heuristic``) also gets the prior feature: the agent builds its own prior agent from the
policy's ``prior`` spec and appends the one-hot of that agent's move
(:func:`~boardgames_rl.core.policy_obs.prior_feature`), exactly as the training env did.
"""

from __future__ import annotations

import io
import json
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

from boardgames_rl.core.agent import Agent
from boardgames_rl.core.errors import InvalidConfigError
from boardgames_rl.core.game import Game, InfoSet
from boardgames_rl.core.policy_obs import (
    SAFE_PRIORS,
    policy_obs_size,
    policy_observation,
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
            from boardgames_rl.agents.registry import make_agent

            self._priors[game] = make_agent(spec, game)
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
        value = th.load(io.BytesIO(blob), map_location="cpu", weights_only=True)
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
    return value


def resolve_model_path(path: str | os.PathLike) -> Path:
    """The ``model.zip`` meant by ``path`` (the file, the path without ``.zip``, a run folder)."""
    p = Path(path)
    if p.suffix != ".zip" and p.with_suffix(".zip").is_file():
        p = p.with_suffix(".zip")
    if p.is_dir() and (p / "model.zip").is_file():
        p = p / "model.zip"
    if not p.is_file():
        raise InvalidConfigError(
            f"no PPO model at {str(path)!r}: give the model.zip written by "
            "`boardgames-rl train` / experiments/train_ppo.py (or its run folder)"
        )
    return p


def read_model_file(path: str | os.PathLike) -> tuple[dict[str, Any], dict[str, dict]]:
    """``(data, weights)`` of an SB3 ``model.zip`` without unpickling anything.

    ``data`` holds the JSON values of the zip's ``data`` entry (entries SB3 pickled are left as
    their raw JSON, never deserialized); ``weights`` maps ``"policy"`` (and
    ``"policy.optimizer"`` when saved) to state dicts loaded with ``weights_only=True``.

    Raises:
        UntrustedModelError: a damaged file, or content that only unpickling could read.
    """
    p = Path(path)
    source = f"model file {str(p)!r}"
    try:
        with zipfile.ZipFile(p) as z:
            names = set(z.namelist())
            if "policy.pth" not in names:
                raise UntrustedModelError(
                    f"{source} has no policy.pth: not a model written by `boardgames-rl train`"
                )
            data_text = z.read("data").decode() if "data" in names else "{}"
            blobs = {
                n[:-4]: z.read(n) for n in ("policy.pth", "policy.optimizer.pth") if n in names
            }
    except (zipfile.BadZipFile, zlib.error, EOFError, OSError, UnicodeDecodeError, ValueError) as e:
        raise UntrustedModelError(
            f"{source} is not a readable model.zip (truncated or damaged? {_short(e)}); "
            "retrain, or restore the file"
        ) from e
    try:
        data = json.loads(data_text)
    except (json.JSONDecodeError, RecursionError) as e:
        raise UntrustedModelError(
            f"{source}: its data entry is not valid JSON ({_short(e)})"
        ) from e
    if not isinstance(data, dict):
        raise UntrustedModelError(f"{source}: its data entry is not a JSON object")
    weights = {name: _load_weights(blob, f"{name}.pth", source) for name, blob in blobs.items()}
    return data, weights


def _layer_sizes(state: dict[str, Any], prefix: str) -> list[int]:
    pat = re.compile(re.escape(prefix) + r"\.(\d+)\.weight$")
    layers = sorted((int(m.group(1)), k) for k in state if (m := pat.match(k)))
    return [int(state[k].shape[0]) for _, k in layers]


def policy_from_weights(
    state: dict[str, Any], source: str, policy_kwargs: dict[str, Any] | None = None
) -> Any:
    """A ``MaskableActorCriticPolicy`` rebuilt from its state dict's shapes, weights loaded (a
    :class:`~boardgames_rl.agents.prior_policy.PriorMaskablePolicy` when the state dict holds
    ``prior_scale``; its ``prior`` spec comes from the saved ``policy_kwargs``).

    Raises:
        UntrustedModelError: the state dict is not one of a default-activation MLP policy.
    """
    from gymnasium import spaces
    from sb3_contrib.common.maskable.policies import MaskableActorCriticPolicy

    try:
        action_w = state["action_net.weight"]
        pi, vf = (
            _layer_sizes(state, "mlp_extractor.policy_net"),
            _layer_sizes(state, "mlp_extractor.value_net"),
        )
        first = "mlp_extractor.policy_net.0.weight"
        obs_size = int(state[first].shape[1]) if pi else int(action_w.shape[1])
        n_actions = int(action_w.shape[0])
        cls: Any = MaskableActorCriticPolicy
        extra: dict[str, Any] = {}
        if "prior_scale" in state:
            from boardgames_rl.agents.prior_policy import DEFAULT_PRIOR, PriorMaskablePolicy

            cls = PriorMaskablePolicy
            extra["prior"] = str((policy_kwargs or {}).get("prior", DEFAULT_PRIOR))
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
    return policy


def check_plain_settings(data: dict[str, Any], source: str) -> None:
    """Refuse a model whose saved policy settings would need unpickling to honour."""
    kwargs = data.get("policy_kwargs", {})
    if (
        not isinstance(kwargs, dict)
        or ":serialized:" in kwargs
        or set(kwargs) - _PLAIN_POLICY_KWARGS
        or kwargs.get("prior", "heuristic") not in SAFE_PRIORS
        or not isinstance(kwargs.get("prior_scale", 0.0), int | float)
    ):
        raise UntrustedModelError(
            f"{source} uses custom policy settings that only unpickling can restore; {TRUST_HINT}"
        )


def load_policy(path: str | os.PathLike, trust: bool = False) -> Any:
    """The policy of a saved model on the CPU, in eval mode, cached per (file, mtime, size).

    By default nothing is unpickled (see the module docstring); ``trust=True`` uses SB3's own
    ``MaskablePPO.load`` (which unpickles) for a file the user trusts.
    """
    p = resolve_model_path(path)
    st = p.stat()
    key = (str(p.resolve()), st.st_mtime, st.st_size, bool(trust))
    if key not in _MODEL_CACHE:
        source = f"model file {str(p)!r}"
        if trust:
            from sb3_contrib import MaskablePPO

            try:
                policy = MaskablePPO.load(str(p), device="cpu").policy
            except Exception as e:  # noqa: BLE001 - any failure of a trusted load: one line
                raise UntrustedModelError(f"{source} could not be loaded ({_short(e)})") from e
        else:
            data, weights = read_model_file(p)
            check_plain_settings(data, source)
            policy = policy_from_weights(weights["policy"], source, data.get("policy_kwargs"))
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
        policy = load_policy(path, trust)
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
