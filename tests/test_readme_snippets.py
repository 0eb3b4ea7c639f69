"""Every ```python block of the README and of the docs pages runs, in a fresh interpreter from the
repository root, without an error.

A block that leans on names the reader supplies (``MyGame`` in "Add your own game") is preceded
by an HTML comment ``<!-- setup ... -->`` holding the code that defines them (the toy game), and
may be preceded by a ``<!-- check ... -->`` comment too: code run after the block that calls what
the block only defines.
"""

from __future__ import annotations

import re
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
PAGES = [ROOT / "README.md", *sorted((ROOT / "docs").rglob("*.md"))]
BLOCK = re.compile(r"((?:<!-- (?:setup|check)[^\n]*\n.*?-->\n)*)```python\n(.*?)```", flags=re.S)
COMMENT = re.compile(r"<!-- (setup|check)[^\n]*\n(.*?)-->", flags=re.S)


def _blocks() -> list[tuple[str, str]]:
    out = []
    for page in PAGES:
        text = page.read_text(encoding="utf-8")
        for match in BLOCK.finditer(text):
            parts = dict.fromkeys(("setup", "check"), "")
            for kind, code in COMMENT.findall(match[1]):
                parts[kind] += code
            line = text.count("\n", 0, match.start(2))
            where = f"{page.relative_to(ROOT)}:{line}"
            out.append((where, parts["setup"] + match[2] + parts["check"]))
    return out


BLOCKS = _blocks()


def test_the_pages_have_snippets() -> None:
    assert len(BLOCKS) >= 10
    assert sum("rate_against_ladder" in code for _, code in BLOCKS) >= 1


@pytest.mark.parametrize(("where", "code"), BLOCKS, ids=[w for w, _ in BLOCKS])
def test_snippet_runs(where: str, code: str) -> None:
    proc = subprocess.run(
        [sys.executable, "-c", code],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=600,
    )
    assert proc.returncode == 0, f"{where} failed:\n{code}\n{proc.stderr[-3000:]}"
