"""The torch floor: every "nothing is unpickled" promise rests on ``torch.load(weights_only=True)``.

torch <= 2.5.1 can run code even then (CVE-2025-32434) and torch below 2.10 has a
memory-corruption flaw in it (CVE-2026-24747), so no extra of the package may admit them.
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest

tomllib = pytest.importorskip("tomllib")
FLOOR = (2, 10)


def _torch_requirements() -> list[tuple[str, str]]:
    data = tomllib.loads((Path(__file__).resolve().parents[2] / "pyproject.toml").read_text())
    extras = data["project"]["optional-dependencies"]
    return [
        (extra, req)
        for extra, reqs in extras.items()
        for req in reqs
        if re.match(r"torch\b(?!rl)", req)
    ]


def test_every_extra_with_torch_has_the_security_floor():
    found = _torch_requirements()
    assert {extra for extra, _ in found} >= {"train", "rllib", "torchrl"}
    for extra, req in found:
        m = re.fullmatch(r"torch>=(\d+)\.(\d+)(?:\.\d+)?(?:,<[\d.]+)?", req.replace(" ", ""))
        assert m, f"[{extra}] {req}: a torch requirement needs a >= floor"
        assert (int(m[1]), int(m[2])) >= FLOOR, f"[{extra}] {req} admits torch below 2.10"


def test_the_installed_torch_is_above_the_floor():
    torch = pytest.importorskip("torch")
    major, minor = (int(x) for x in torch.__version__.split("+")[0].split(".")[:2])
    assert (major, minor) >= FLOOR
