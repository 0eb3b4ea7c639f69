"""The README's code: every ```python block of its "Using the environments" and "Use with your
stack" sections runs (in a fresh interpreter, from the repository root) without an error."""

from __future__ import annotations

import re
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
SECTIONS = ("## Using the environments", "## Use with your stack")


def _blocks() -> list[tuple[str, str]]:
    text = (ROOT / "README.md").read_text(encoding="utf-8")
    out = []
    for heading in SECTIONS:
        start = text.index(heading)
        end = text.find("\n## ", start + len(heading))
        body = text[start : end if end != -1 else len(text)]
        for i, code in enumerate(re.findall(r"```python\n(.*?)```", body, flags=re.S)):
            out.append((f"{heading[3:]} #{i + 1}", code))
    return out


BLOCKS = _blocks()


def test_the_sections_have_snippets() -> None:
    assert len(BLOCKS) >= 5


@pytest.mark.parametrize(("where", "code"), BLOCKS, ids=[w for w, _ in BLOCKS])
def test_readme_snippet_runs(where: str, code: str) -> None:
    proc = subprocess.run(
        [sys.executable, "-c", code],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=600,
    )
    assert proc.returncode == 0, f"README {where} failed:\n{code}\n{proc.stderr[-3000:]}"
