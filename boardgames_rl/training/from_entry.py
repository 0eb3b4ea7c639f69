"""A learner's actor from a pretrained entry: the league's ``--init-from`` (and the lab's SB3
trainer's).

An entry (``boardgames_rl/pretrained/<name>.npz`` + ``.json``, or one exported elsewhere) holds
an actor only: its hidden layers, its action head and, for a residual policy, its prior's
scale, read without unpickling (:func:`boardgames_rl.agents.pretrained.load_weights`).
:func:`copy_actor` writes them into a network of the SB3 layout (``mlp_extractor.policy_net``,
``action_net``, ``prior_scale``: :class:`~boardgames_rl.training.network.ActorCritic` and
sb3-contrib's policies alike), after :func:`check_fit` has refused, in one line naming the flag
to change, an entry that is not the run's network: its game, hidden layers, activation, prior,
observation and action sizes. The critic is left as it is.

The configuration may differ where the sizes fit (``same_config=False``): a variant of the
entry's game (Castle Nightingale's side B, Castle Flutterstone's pesky ghosts) starts from the
basic game's entry. The caller says so; nothing in a file switches it on.
"""

from __future__ import annotations

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
from boardgames_rl.core.game import Game


class InitFromError(InvalidConfigError):
    """The entry does not fit the run (one line, naming the flag to change)."""


def resolve_entry(ref: str | os.PathLike[str], flag: str = "--init-from") -> Entry:
    """An entry given by name (a shipped one, ``castle_nightingale-2p``) or by the path of its
    JSON file. Raises :class:`InitFromError` (one line) when there is none, or a
    :class:`~boardgames_rl.agents.pretrained.PretrainedError` when its JSON is damaged."""
    text = str(ref)
    path = Path(text)
    if path.suffix == ".json" or os.sep in text:
        if not path.is_file():
            raise InitFromError(f"{flag} {text}: no such entry JSON file")
        return read_entry(path)
    shipped = PACKAGE_DIR / f"{text}.json"
    if not shipped.is_file():
        names = sorted(p.stem for p in PACKAGE_DIR.glob("*.json"))
        raise InitFromError(
            f"{flag} {text}: no shipped entry of that name; one of {', '.join(names)} "
            "or the path of an entry's .json"
        )
    return read_entry(shipped)


def check_fit(
    entry: Entry,
    game: Game,
    hidden: list[int],
    activation: str,
    prior: str,
    same_config: bool = True,
    flag: str = "--init-from",
) -> None:
    """Refuse (one line, :class:`InitFromError`) an entry that is not the run's network: the
    run's game (and its configuration, with ``same_config``), hidden layers, activation
    (``tanh`` / ``relu``) and prior here; the observation, action and seat sizes by
    :func:`~boardgames_rl.agents.pretrained.check_fits_game`."""
    arch = entry.meta["architecture"]
    if entry.game != game.name or (same_config and entry.config != dict(game.config)):
        raise InitFromError(
            f"{flag} {entry.name}: it plays {entry.game} {entry.config}, the run is "
            f"{game.name} {dict(game.config)}; give the entry's game and -c options"
        )
    if list(hidden) != list(arch["hidden"]):
        net = ",".join(str(h) for h in arch["hidden"])
        raise InitFromError(
            f"{flag} {entry.name}: its network is {arch['hidden']}, the run's {list(hidden)}; "
            f"pass --net {net}"
        )
    if activation != arch["activation"]:
        raise InitFromError(
            f"{flag} {entry.name}: its activation is {arch['activation']}, the run's {activation}"
        )
    entry_prior = entry.prior[0] if entry.prior is not None else ""
    if entry_prior != (prior or ""):
        raise InitFromError(
            f"{flag} {entry.name}: "
            + (
                f"it is a residual policy on {entry_prior}: pass --prior {entry_prior}"
                if entry_prior
                else "it is a plain policy (no prior): drop --prior"
            )
        )
    try:  # observation (with the seat feature and the prior's part), action and seat sizes
        check_fits_game(entry, game)
    except PretrainedError as e:
        raise InitFromError(f"{flag} {entry.name}: {e}") from e


def linear_layers(net: Any) -> list[Any]:
    """The ``Linear`` layers of a ``Sequential``, in order."""
    import torch as th

    return [m for m in net if isinstance(m, th.nn.Linear)]


def copy_actor(policy: Any, entry: Entry) -> None:
    """Copy ``entry``'s actor (hidden layers, action head, prior scale) into ``policy`` (the
    SB3 layout; checked first with :func:`check_fit`). The copied actor plays exactly as the
    entry does (the same float values); the critic and any optimiser state are untouched."""
    import torch as th

    layers = load_weights(entry)  # checked: checksum, keys, shapes, finite; nothing unpickled
    targets = [*linear_layers(policy.mlp_extractor.policy_net), policy.action_net]
    with th.no_grad():
        for module, (w, b) in zip(targets, layers, strict=True):
            module.weight.copy_(th.as_tensor(w))
            module.bias.copy_(th.as_tensor(b))
        if entry.prior is not None:
            policy.prior_scale.copy_(th.tensor(entry.prior[1]))
