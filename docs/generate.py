"""Write the site's generated pages, or check that the committed ones are what it writes.

Every page that shows a figure or a table drawn from code or from committed JSON is written here,
never by hand: the game pages (``docs/_generate/games.py``) and the results pages
(``docs/_generate/results.py``). Each generator module has ``pages() -> dict[str, str]``, the
page's path relative to ``docs/`` and its text.

Usage (from the repository root)::

    python docs/generate.py          # write every generated page
    python docs/generate.py --check  # exit 1, naming each page that differs from what it writes
"""

from __future__ import annotations

import argparse
import importlib
import sys
from pathlib import Path

DOCS = Path(__file__).resolve().parent
GENERATORS = ("games", "results")


def generated_pages() -> dict[str, str]:
    """Every generated page: its path relative to ``docs/`` and its text."""
    sys.path.insert(0, str(DOCS / "_generate"))
    sys.path.insert(0, str(DOCS.parent))
    pages: dict[str, str] = {}
    for name in GENERATORS:
        module = importlib.import_module(name)
        for path, text in module.pages().items():
            if path in pages:
                raise SystemExit(f"docs/generate.py: {path} is written by two generators")
            pages[path] = text
    return pages


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--check", action="store_true", help="compare instead of writing")
    args = parser.parse_args(argv)
    stale = []
    for path, text in sorted(generated_pages().items()):
        target = DOCS / path
        if args.check:
            if not target.is_file() or target.read_text(encoding="utf-8") != text:
                stale.append(path)
            continue
        target.parent.mkdir(parents=True, exist_ok=True)
        target.write_text(text, encoding="utf-8")
    if stale:
        print(
            "docs/generate.py --check: these pages differ from what the generator writes "
            "(run `python docs/generate.py`): " + ", ".join(stale),
            file=sys.stderr,
        )
        return 1
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
