"""The code base stays `ruff` clean and formatted, and the infrastructure type-checks (mypy).

Configuration in pyproject.toml (``[tool.ruff]``, ``[tool.mypy]``). The type checker covers the
infrastructure every game relies on (core, envs, registry, agents, arena, training, testing);
rules engines are checked by their tests.
"""

from __future__ import annotations

import shutil
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]


def _tool(name: str) -> str:
    path = shutil.which(name) or str(Path(sys.executable).with_name(name))
    if not Path(path).exists():
        pytest.fail(f"{name} is not installed: pip install -e '.[dev]'")
    return path


def test_ruff_check_is_clean() -> None:
    result = subprocess.run([_tool("ruff"), "check", str(ROOT)], capture_output=True, text=True)
    assert result.returncode == 0, result.stdout + result.stderr


def test_ruff_format_is_applied() -> None:
    result = subprocess.run(
        [_tool("ruff"), "format", "--check", str(ROOT)], capture_output=True, text=True
    )
    assert result.returncode == 0, "run `ruff format .`:\n" + result.stdout + result.stderr


def test_mypy_is_clean_on_the_infrastructure() -> None:
    result = subprocess.run([_tool("mypy")], capture_output=True, text=True, cwd=ROOT, timeout=900)
    assert result.returncode == 0, result.stdout[-5000:] + result.stderr[-2000:]
