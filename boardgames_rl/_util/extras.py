"""Optional dependencies: a feature that needs one says which extra installs it.

The base install (numpy, gymnasium, pettingzoo) runs every game and environment. The extras:

- ``train``: torch, stable-baselines3, sb3-contrib, tqdm (PPO training and agents, progress bars);
- ``viz``: matplotlib (``render_mode="rgb_array"``, heatmaps, learning curves);
- ``bench``: rlcard, pygame, open_spiel (the comparison benchmark, ``lab/benchmarks/`` in a clone);
- ``openspiel``: open_spiel (the OpenSpiel bridge, :mod:`boardgames_rl.interop.openspiel`);
- ``ray``: ray (tournaments on a Ray cluster, ``arena --backend ray``);
- ``dev``: all of the above and the test tools.
"""

from __future__ import annotations

import importlib
import importlib.util
from types import ModuleType


class MissingExtraError(ImportError):
    """A feature needs an optional dependency that is not installed; the message names the extra
    (also importable as ``boardgames_rl.core.errors.MissingExtraError``)."""


EXTRAS: dict[str, str] = {
    "torch": "train",
    "stable_baselines3": "train",
    "sb3_contrib": "train",
    "tqdm": "train",
    "matplotlib": "viz",
    "rlcard": "bench",
    "pygame": "bench",
    "pyspiel": "openspiel",
    "ray": "ray",
}


def has_module(module: str) -> bool:
    """Whether ``module`` (a top-level package name) can be imported."""
    try:
        return importlib.util.find_spec(module.split(".")[0]) is not None
    except (ImportError, ValueError):  # a broken or blocked installation
        return False


def require(module: str, feature: str) -> ModuleType:
    """Import ``module`` or raise :class:`MissingExtraError` naming the extra that installs it.

    >>> require("numpy", "arrays").__name__
    'numpy'
    """
    top = module.split(".")[0]
    if not has_module(top):
        extra = EXTRAS.get(top)
        how = f"pip install 'boardgames-rl[{extra}]'" if extra else f"pip install {top}"
        raise MissingExtraError(f"{feature} needs {top}, which is not installed: {how}")
    return importlib.import_module(module)
