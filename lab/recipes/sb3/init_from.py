"""Start a training run from a shipped (or exported) pretrained entry (``train_ppo --init-from``).

A run folder is usually gone by the time one wants a second phase of training for a shipped
policy; its entry (``boardgames_rl/pretrained/<name>.npz`` + ``.json``) is all that is left. The
entry holds the actor only (the hidden layers, the action head and, for a residual policy, the
prior's scale), read without unpickling (:func:`boardgames_rl.agents.pretrained.load_weights`).
:func:`init_policy_from_entry` copies it into a new model's policy, checked against the run:
the game and its configuration, the network, the activation, the observation and action sizes
and the prior must all be the entry's, else a one-line :class:`InitFromError` says which flag to
change. The critic starts untrained; ``--value-warmup STEPS`` lets it learn alone first
(:class:`lab.recipes.sb3.callbacks.ValueWarmupCallback`), so that the copied actor is not
pushed around by the advantages of a value function that knows nothing yet.

The run folder gets ``INIT_FROM.json``: the entry's name, the sha256 of its weights, its strength
and the commands that trained it, so an entry exported from the run names its whole lineage.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from boardgames_rl.agents.pretrained import Entry, PretrainedError
from boardgames_rl.core.files import UnsafeFileError, read_json, write_text
from boardgames_rl.core.game import Game
from boardgames_rl.training.from_entry import (  # the library's: the league starts from entries too
    InitFromError,
    copy_actor,
    linear_layers,
    resolve_entry,
)
from boardgames_rl.training.from_entry import check_fit as check_entry_fit

__all__ = ["INIT_FILE", "InitFromError", "check_fit", "init_policy_from_entry", "read_record",
           "resolve_entry", "write_record"]  # fmt: skip

INIT_FILE = "INIT_FROM.json"
"""Where a run started from an entry records it (in the run folder)."""
MAX_RECORD_BYTES = 2**20
"""Cap of ``INIT_FROM.json`` read back."""


def check_fit(entry: Entry, game: Game, policy: Any, prior: str) -> None:
    """Refuse (one line, :class:`InitFromError`) an entry that is not the run's SB3 policy:
    :func:`boardgames_rl.training.from_entry.check_fit` with the policy's hidden layers and
    activation, the same game configuration."""
    import torch as th

    hidden = [layer.out_features for layer in linear_layers(policy.mlp_extractor.policy_net)]
    activation = "tanh" if policy.activation_fn is th.nn.Tanh else policy.activation_fn.__name__
    activation = "relu" if policy.activation_fn is th.nn.ReLU else activation
    check_entry_fit(entry, game, hidden, activation, prior)


def init_policy_from_entry(policy: Any, entry: Entry, game: Game, prior: str = "") -> None:
    """Copy ``entry``'s actor (hidden layers, action head, prior scale) into the SB3 policy
    ``policy`` after :func:`check_fit`; the critic and the optimiser state are left as they
    are (new). The copied actor plays exactly as the entry does (same float values)."""
    check_fit(entry, game, policy, prior)
    copy_actor(policy, entry)


def write_record(out: Path, entry: Entry) -> dict[str, Any]:
    """Write the run folder's ``INIT_FROM.json`` (see the module docstring); returns it."""
    training = entry.meta.get("training", {})
    record = {
        "entry": entry.name,
        "weights_sha256": entry.meta["sha256"],
        "commit": entry.meta.get("commit", ""),
        "strength": entry.meta.get("strength", {}),
        "commands": training.get("commands", []) if isinstance(training, dict) else [],
    }
    write_text(Path(out) / INIT_FILE, json.dumps(record, indent=1), Path(out))
    return record


def read_record(run: Path) -> dict[str, Any] | None:
    """The run's ``INIT_FROM.json``, or None when it did not start from an entry.

    Raises:
        PretrainedError: the file is there but not a regular file holding a strict JSON object
            (one line).
    """
    path = Path(run) / INIT_FILE
    try:
        record = read_json(path, MAX_RECORD_BYTES, "start record")
    except FileNotFoundError:
        return None
    except UnsafeFileError as e:
        raise PretrainedError(f"{e}: restore it or remove it") from None
    if not isinstance(record, dict):
        raise PretrainedError(f"{path} is not a JSON object: restore it or remove it")
    return record
