"""The documentation site builds strictly from the README's command, and a person browsing it finds
every page, picture and link.

The site is built once per session with the command between the README's ``docs-command``
markers (warnings are errors, nitpicky references), into a temporary folder. It is then served by
a real HTTP server on 127.0.0.1, and every HTML page is fetched: each internal link, image,
stylesheet and script it names must answer 200, and each ``#fragment`` must name an ``id`` on
the page it points to.
"""

from __future__ import annotations

import http.server
import re
import shlex
import subprocess
import sys
import threading
import urllib.error
import urllib.request
from collections.abc import Iterator
from functools import partial
from html.parser import HTMLParser
from pathlib import Path
from urllib.parse import urldefrag, urljoin, urlparse

import pytest

pytest.importorskip("sphinx")
pytest.importorskip("myst_nb")

ROOT = Path(__file__).resolve().parents[2]


def docs_command() -> list[str]:
    """The README's docs command as an argument list, run with this interpreter's Sphinx."""
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    block = readme.split("<!-- docs-command -->")[1].split("<!-- /docs-command -->")[0]
    lines = [line for line in block.strip().splitlines() if not line.startswith(("```", "<!--"))]
    assert len(lines) == 1, f"the README's docs command is one line, got {lines}"
    argv = shlex.split(lines[0])
    assert argv[0].endswith("sphinx-build"), argv
    return [sys.executable, "-m", "sphinx", *argv[1:]]


@pytest.fixture(scope="session")
def site(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The site, built by the README's command into a temporary folder (not docs/_build)."""
    out = tmp_path_factory.mktemp("site") / "html"
    argv = docs_command()
    assert argv[-1] == "docs/_build/html", argv
    argv[-1] = str(out)
    proc = subprocess.run(argv, cwd=ROOT, capture_output=True, text=True, timeout=900)
    assert proc.returncode == 0, f"the site does not build strictly:\n{proc.stderr[-6000:]}"
    return out


class _Links(HTMLParser):
    def __init__(self) -> None:
        super().__init__()
        self.targets: list[str] = []
        self.ids: set[str] = set()

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        values = dict(attrs)
        if values.get("id"):
            self.ids.add(str(values["id"]))
        for name in ("href", "src"):
            value = values.get(name)
            if value and not (tag == "link" and values.get("rel") in ("preconnect",)):
                self.targets.append(value)


def _parse(html: str) -> _Links:
    parser = _Links()
    parser.feed(html)
    return parser


@pytest.fixture(scope="session")
def server(site: Path) -> Iterator[str]:
    handler = partial(_QuietHandler, directory=str(site))
    httpd = http.server.ThreadingHTTPServer(("127.0.0.1", 0), handler)
    thread = threading.Thread(target=httpd.serve_forever, daemon=True)
    thread.start()
    try:
        yield f"http://127.0.0.1:{httpd.server_address[1]}/"
    finally:
        httpd.shutdown()
        httpd.server_close()


class _QuietHandler(http.server.SimpleHTTPRequestHandler):
    def log_message(self, format: str, *args: object) -> None:  # noqa: A002
        pass


def _get(url: str) -> tuple[int, bytes]:
    try:
        with urllib.request.urlopen(url, timeout=30) as response:
            return response.status, response.read()
    except urllib.error.HTTPError as e:
        return e.code, b""


EXPECTED_PAGES = [
    "index.html",
    "start/index.html",
    "start/install.html",
    "start/aec.html",
    "start/gymnasium.html",
    "start/vector.html",
    "start/cli.html",
    "guide/environments.html",
    "guide/agents.html",
    "guide/training.html",
    "guide/add_your_own_game.html",
    "guide/interop.html",
    "games/index.html",
    "games/castle_nightingale.html",
    "games/night_of_the_ninja.html",
    "games/castle_flutterstone.html",
    "games/white_castle.html",
    "rules/index.html",
    "results/index.html",
    "tutorials/index.html",
    "tutorials/white_castle_quickstart.html",
    "api/index.html",
    "changelog.html",
]


def test_every_section_has_its_page(site: Path) -> None:
    missing = [page for page in EXPECTED_PAGES if not (site / page).is_file()]
    assert not missing, f"pages missing from the built site: {missing}"


def test_every_page_image_and_internal_link_answers(site: Path, server: str) -> None:
    pages = sorted(p.relative_to(site).as_posix() for p in site.rglob("*.html"))
    assert len(pages) >= len(EXPECTED_PAGES)
    ids: dict[str, set[str]] = {}
    links: dict[str, list[str]] = {}
    for page in pages:
        status, body = _get(server + page)
        assert status == 200, f"{page}: HTTP {status}"
        parsed = _parse(body.decode("utf-8"))
        ids[page] = parsed.ids
        links[page] = parsed.targets
    broken: list[str] = []
    fetched: dict[str, int] = {}
    for page, targets in links.items():
        for target in targets:
            url = urljoin(server + page, target)
            if not url.startswith(server):
                continue  # another site: not followed (no network here)
            address, fragment = urldefrag(url)
            if address not in fetched:
                fetched[address] = _get(address)[0]
            if fetched[address] != 200:
                broken.append(f"{page}: {target} -> HTTP {fetched[address]}")
                continue
            path = urlparse(address).path.lstrip("/") or "index.html"
            if path.endswith("/"):
                path += "index.html"
            if fragment and path in ids and fragment not in ids[path]:
                broken.append(f"{page}: {target} -> no id {fragment!r} on {path}")
    assert not broken, f"{len(broken)} broken links:\n" + "\n".join(broken[:50])


def test_the_home_page_shows_the_sections_and_a_picture(site: Path) -> None:
    home = (site / "index.html").read_text(encoding="utf-8")
    for section in ("Getting started", "Games", "Results", "API reference", "Tutorials"):
        assert section in home, f"the home page does not name {section!r}"
    assert re.search(r"<img [^>]*src=\"_images/[^\"]+\.png\"", home), "no picture on the home page"


def test_a_game_page_shows_its_picture_and_sections_in_order(site: Path) -> None:
    page = (site / "games" / "white_castle.html").read_text(encoding="utf-8")
    assert re.search(r"<img [^>]*src=\"\.\./_images/[^\"]+\.png\"", page)
    article = page[page.index("<article") :]  # the page itself, not the sidebar's links
    order = ["Actions", "Observation", "Rewards", "Options", "Agents", "Version history"]
    where = [article.find(f">{title}") for title in order]
    assert all(w > 0 for w in where), dict(zip(order, where, strict=True))
    assert where == sorted(where), f"sections out of order: {dict(zip(order, where, strict=True))}"


CODE_BLOCK = re.compile(
    r'<div class="highlight-([\w+-]+) notranslate"><div class="highlight"><pre>(.*?)</pre>', re.S
)
NOT_CODE = {"text", "none", "json"}


def _normal(code: str) -> str:
    return "\n".join(line.rstrip() for line in code.strip("\n").splitlines()).strip()


def _run_sources() -> set[str]:
    """The text of every block that a test runs: fenced blocks of the Markdown pages (the snippet
    test), notebook code cells (the notebook test), docstring examples (the docstring test)."""
    import json

    from tests.docs.test_docstring_examples import CONSOLE, EXAMPLES, PYTHON

    texts = set()
    for page in (ROOT / "docs").rglob("*.md"):
        text = page.read_text(encoding="utf-8")
        for language, code in re.findall(r"```(\w+)\n(.*?)```", text, flags=re.S):
            if language not in NOT_CODE:
                texts.add(_normal(code))
    for notebook in (ROOT / "notebooks").glob("*.ipynb"):
        for cell in json.loads(notebook.read_text(encoding="utf-8"))["cells"]:
            if cell["cell_type"] == "code":
                texts.add(_normal("".join(cell["source"])))
    for example in EXAMPLES:
        if example.language in PYTHON | CONSOLE or ">>>" in example.code:
            texts.add(_normal(example.code))
    return texts


def test_every_code_block_on_the_site_is_run_by_a_test(site: Path) -> None:
    import html as html_lib

    sources = _run_sources()
    unrun = []
    for page in sorted(site.rglob("*.html")):
        if page.relative_to(site).parts[0] == "_modules":
            continue  # the highlighted source code of the package, not examples
        for language, body in CODE_BLOCK.findall(page.read_text(encoding="utf-8")):
            if language in NOT_CODE:
                continue
            code = _normal(html_lib.unescape(re.sub(r"<[^>]+>", "", body)))
            if code not in sources and not any(code in source for source in sources):
                first = code.splitlines()[0] if code else ""
                unrun.append(f"{page.relative_to(site)} ({language}): {first[:80]}")
    assert not unrun, (
        f"{len(unrun)} code blocks on the site that no test runs (mark what is not code "
        "```text / .. code-block:: text):\n" + "\n".join(unrun)
    )
