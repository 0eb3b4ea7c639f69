"""Reading torch files without unpickling: the torch floor and the plain-tensor check.

Model files (:mod:`boardgames_rl.agents.ppo`) and a run's pool snapshots
(:mod:`boardgames_rl.training.checkpoint`) hold torch state dicts. They are read with
``torch.load(weights_only=True)``: nothing is unpickled, no code runs -- a promise torch keeps
from version 2.10 on (torch <= 2.5.1 can run code even with ``weights_only=True``,
CVE-2025-32434; below 2.10 a crafted file can corrupt memory, CVE-2026-24747), so reading refuses
an older torch in one line (:func:`check_torch`). What was read is then checked: every tensor a
plain one (:func:`plain_tensor_problem`) with finite values.

Pretrained entries do not come here: they are numpy arrays read with numpy alone
(:mod:`boardgames_rl.agents.pretrained`). torch is imported inside each function, on use.
"""

from __future__ import annotations

import io
import math
import re
from collections.abc import Iterator
from typing import Any

from boardgames_rl.core.errors import InvalidConfigError

MIN_TORCH = (2, 10)
"""Oldest torch whose ``torch.load(weights_only=True)`` may read a file from elsewhere."""


def check_torch(version: str | None = None) -> None:
    """Refuse (one line) to read a weights file with a torch older than :data:`MIN_TORCH`, whose
    ``weights_only=True`` loader does not keep its promise (CVE-2025-32434: torch <= 2.5.1 can run
    code; CVE-2026-24747: memory corruption below 2.10). ``version`` defaults to
    ``torch.__version__``."""
    if version is None:
        import torch as th

        version = str(th.__version__)
    m = re.match(r"^(\d+)\.(\d+)", version)
    if m is None or (int(m.group(1)), int(m.group(2))) < MIN_TORCH:
        need = ".".join(map(str, MIN_TORCH))
        raise InvalidConfigError(
            f"torch {version} cannot read weights files safely (before {need}, "
            "torch.load(weights_only=True) can run code or corrupt memory: CVE-2025-32434, "
            f"CVE-2026-24747): pip install 'torch>={need}'"
        )


def _walk_tensors(value: Any, where: str) -> Iterator[tuple[str, Any]]:
    """Every tensor in ``value`` (nested dicts, lists and tuples, as a state dict or an optimiser
    state holds them) with the path to it; floats are yielded too (their finiteness counts)."""
    import torch as th

    stack: list[tuple[str, Any]] = [(where, value)]
    while stack:
        path, v = stack.pop()
        if isinstance(v, th.Tensor | float):
            yield path, v
        elif isinstance(v, dict):
            stack.extend((f"{path}[{k!r:.40}]", x) for k, x in v.items())
        elif isinstance(v, list | tuple):
            stack.extend((f"{path}[{i}]", x) for i, x in enumerate(v))


def plain_tensor_problem(t: Any) -> str | None:
    """Why the tensor ``t`` is not a plain tensor of finite values (None when it is): a plain
    tensor is a dense CPU tensor with standard (C-contiguous) strides whose own storage holds all
    its values -- a broadcast (stride 0) or overlapping view, a view past its storage, a sparse
    or quantized tensor is refused before anything reads it."""
    import torch as th

    if t.layout != th.strided or t.is_quantized or t.device.type != "cpu":
        return f"is not a dense CPU tensor ({t.layout}, {t.device})"
    stride, expected = tuple(t.stride()), []
    step = 1
    for size in reversed(tuple(t.shape)):
        expected.append(step)
        step *= max(int(size), 1)
    if t.numel() > 1 and stride != tuple(reversed(expected)):
        return (
            f"is a view of shape {tuple(t.shape)} with strides {stride}, not a plain tensor "
            "(its storage does not hold its values)"
        )
    needed = (int(t.storage_offset()) + int(t.numel())) * int(t.element_size())
    if t.untyped_storage().nbytes() < needed:
        return f"claims {needed} bytes from a storage of {t.untyped_storage().nbytes()}"
    if (t.is_floating_point() or t.is_complex()) and not bool(th.isfinite(t).all()):
        return "holds non-finite values (NaN or infinity)"
    return None


def check_plain_tensors(value: Any, what: str) -> None:
    """Refuse (``ValueError``, one line naming the tensor) anything in ``value`` that is not a
    plain tensor of finite values (:func:`plain_tensor_problem`) or a finite float."""
    for path, v in _walk_tensors(value, what):
        if isinstance(v, float):
            problem = None if math.isfinite(v) else "is not a finite number"
        else:
            problem = plain_tensor_problem(v)
        if problem is not None:
            raise ValueError(f"{path} {problem}")


def load_plain_weights(blob: bytes) -> Any:
    """``torch.load(weights_only=True)`` of ``blob`` (read by the caller with a size cap), after
    :func:`check_torch`: nothing is unpickled. The caller checks what it got
    (:func:`check_plain_tensors`)."""
    import torch as th

    check_torch()
    return th.load(io.BytesIO(blob), map_location="cpu", weights_only=True)
