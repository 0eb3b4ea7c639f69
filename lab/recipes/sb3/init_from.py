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
import os
from pathlib import Path
from typing import Any

from boardgames_rl.agents.pretrained import (
    PACKAGE_DIR,
    Entry,
    PretrainedError,
    check_fits_game,
    load_weights,
    read_entry,
)
from boardgames_rl.core.errors import InvalidConfigError
from boardgames_rl.core.files import UnsafeFileError, read_json, write_text
from boardgames_rl.core.game import Game

INIT_FILE = "INIT_FROM.json"
"""Where a run started from an entry records it (in the run folder)."""
MAX_RECORD_BYTES = 2**20
"""Cap of ``INIT_FROM.json`` read back."""


class InitFromError(InvalidConfigError):
    """The entry does not fit the run (one line, naming the flag to change)."""


def resolve_entry(ref: str | os.PathLike) -> Entry:
    """An entry given by name (a shipped one, ``castle_nightingale-2p``) or by the path of its
    JSON file. Raises :class:`InitFromError` (one line) when there is none, or a
    :class:`PretrainedError` when its JSON is damaged."""
    text = str(ref)
    path = Path(text)
    if path.suffix == ".json" or os.sep in text:
        if not path.is_file():
            raise InitFromError(f"--init-from {text}: no such entry JSON file")
        return read_entry(path)
    shipped = PACKAGE_DIR / f"{text}.json"
    if not shipped.is_file():
        names = sorted(p.stem for p in PACKAGE_DIR.glob("*.json"))
        raise InitFromError(
            f"--init-from {text}: no shipped entry of that name; one of {', '.join(names)} "
            "or the path of an entry's .json"
        )
    return read_entry(shipped)


def _linear_layers(net: Any) -> list[Any]:
    import torch as th

    return [m for m in net if isinstance(m, th.nn.Linear)]


def check_fit(entry: Entry, game: Game, policy: Any, prior: str) -> None:
    """Refuse (one line, :class:`InitFromError`) an entry that is not the run's network: the
    run's game, hidden layers, activation and prior here; the sizes it shares with every use of
    an entry by :func:`~boardgames_rl.agents.pretrained.check_fits_game`."""
    import torch as th

    arch = entry.meta["architecture"]
    if entry.game != game.name or entry.config != dict(game.config):
        raise InitFromError(
            f"--init-from {entry.name}: it plays {entry.game} {entry.config}, the run is "
            f"{game.name} {dict(game.config)}; give the entry's game and -c options"
        )
    hidden = [layer.out_features for layer in _linear_layers(policy.mlp_extractor.policy_net)]
    if hidden != list(arch["hidden"]):
        net = ",".join(str(h) for h in arch["hidden"])
        raise InitFromError(
            f"--init-from {entry.name}: its network is {arch['hidden']}, the run's {hidden}; "
            f"pass --net {net}"
        )
    want_act = th.nn.Tanh if arch["activation"] == "tanh" else th.nn.ReLU
    if policy.activation_fn is not want_act:
        raise InitFromError(
            f"--init-from {entry.name}: its activation is {arch['activation']}, the run's "
            f"{policy.activation_fn.__name__}"
        )
    entry_prior = entry.prior[0] if entry.prior is not None else ""
    if entry_prior != (prior or ""):
        raise InitFromError(
            f"--init-from {entry.name}: "
            + (
                f"it is a residual policy on {entry_prior}: pass --prior {entry_prior}"
                if entry_prior
                else "it is a plain policy (no prior): drop --prior"
            )
        )
    try:  # observation (with the seat feature and the prior's part), action and seat sizes
        check_fits_game(entry, game)
    except PretrainedError as e:
        raise InitFromError(f"--init-from {entry.name}: {e}") from e


def init_policy_from_entry(policy: Any, entry: Entry, game: Game, prior: str = "") -> None:
    """Copy ``entry``'s actor (hidden layers, action head, prior scale) into the SB3 policy
    ``policy`` after :func:`check_fit`; the critic and the optimiser state are left as they
    are (new). The copied actor plays exactly as the entry does (same float values)."""
    import torch as th

    check_fit(entry, game, policy, prior)
    layers = load_weights(entry)  # checked: checksum, keys, shapes, finite; nothing unpickled
    targets = [*_linear_layers(policy.mlp_extractor.policy_net), policy.action_net]
    with th.no_grad():
        for module, (w, b) in zip(targets, layers, strict=True):
            module.weight.copy_(th.as_tensor(w))
            module.bias.copy_(th.as_tensor(b))
        if entry.prior is not None:
            policy.prior_scale.copy_(th.tensor(entry.prior[1]))


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
