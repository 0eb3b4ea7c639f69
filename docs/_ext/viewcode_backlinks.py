"""Sphinx extension: the ``[docs]`` links of the highlighted source pages land on the object.

``sphinx.ext.viewcode`` keeps one module name per source module for its links back to the
documentation (Sphinx issue 6651), so when one module's objects are documented under two names
(``boardgames_rl.testing.check_game``, re-exported, and
``boardgames_rl.testing.conformance.check_options``) half of the links point at an id that is not
on the page. This extension records the id each object really got and, once the pages are
written, points every such link at it.
"""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

from sphinx import addnodes
from sphinx.ext.viewcode import OUTPUT_DIRNAME, _get_full_modname

BACKLINK = re.compile(r'(<a class="viewcode-back" href=")([^"#]*)#([^"]+)(")')


def _record(app: Any, doctree: Any) -> None:
    """The id of every Python object described on this page, by its source module and name."""
    ids: dict[tuple[str, str, str], str] = app.env.__dict__.setdefault("_backlink_ids", {})
    docname = app.env.current_document.docname
    for desc in doctree.findall(addnodes.desc):
        if desc.get("domain") != "py":
            continue
        for signature in desc:
            if not isinstance(signature, addnodes.desc_signature) or not signature["ids"]:
                continue
            module, name = signature.get("module"), signature.get("fullname")
            source = _get_full_modname(module, name) or module
            if source and name:
                ids.setdefault((source, name, docname), signature["ids"][0])


def _purge(app: Any, env: Any, docname: str) -> None:
    ids = env.__dict__.get("_backlink_ids", {})
    for key in [key for key in ids if key[2] == docname]:
        del ids[key]


def _merge(app: Any, env: Any, docnames: Any, other: Any) -> None:
    env.__dict__.setdefault("_backlink_ids", {}).update(other.__dict__.get("_backlink_ids", {}))


def _fix_links(app: Any, exception: Exception | None) -> None:
    if exception is not None or app.builder.format != "html":
        return
    ids = app.env.__dict__.get("_backlink_ids", {})
    modules = getattr(app.env, "_viewcode_modules", {})
    root = Path(app.outdir) / OUTPUT_DIRNAME
    for page in root.rglob("*.html"):
        source = ".".join(page.relative_to(root).with_suffix("").parts)
        entry = modules.get(source)
        if not entry:
            continue
        refname = entry[3]

        def fix(match: re.Match[str], source: str = source, refname: str = refname) -> str:
            href, anchor = match[2], match[3]
            name = anchor.removeprefix(refname + ".")
            docname = Path(href.replace("../", "")).with_suffix("").as_posix()
            right = ids.get((source, name, docname))
            return match[0] if right is None else f"{match[1]}{href}#{right}{match[4]}"

        text = page.read_text(encoding="utf-8")
        fixed = BACKLINK.sub(fix, text)
        if fixed != text:
            page.write_text(fixed, encoding="utf-8")


def setup(app: Any) -> dict[str, Any]:
    app.setup_extension("sphinx.ext.viewcode")
    app.connect("doctree-read", _record)
    app.connect("env-purge-doc", _purge)
    app.connect("env-merge-info", _merge)
    app.connect("build-finished", _fix_links)
    return {"parallel_read_safe": True, "parallel_write_safe": True}
