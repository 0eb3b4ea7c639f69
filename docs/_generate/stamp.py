"""The stamp under every generated results table: when, at which commit and on what machine the
figures were measured, read from the JSON that holds them (never from the day the page is made).

A results JSON carries ``provenance``: ``{"date": "YYYY-MM-DD", "commit": "<sha>",
"machine": "<one line>"}``. Older files that predate the key carry the same facts under the names
their script used (``timestamp``, ``commit``, ``machine``); :func:`stamp` reads either.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[2]


def _machine_line(machine: Any) -> str:
    if isinstance(machine, str):
        return machine
    if isinstance(machine, dict):
        cpu = machine.get("cpu") or machine.get("processor") or machine.get("platform") or ""
        cores = machine.get("cpus") or machine.get("cpu_count") or machine.get("cores")
        parts = [str(cpu)] if cpu else []
        if cores:
            parts.append(f"{cores} cores")
        return ", ".join(parts) or "not recorded"
    return "not recorded"


def _short(commit: str) -> str:
    """12 characters of a sha, keeping the ``+`` that marks a dirty work tree."""
    if commit == "not recorded":
        return commit
    return commit[:12] + ("+" if commit.endswith("+") else "")


def provenance(data: dict[str, Any]) -> dict[str, str]:
    """``date``, ``commit`` (12 characters) and ``machine`` of one results JSON."""
    p = data.get("provenance") or {}
    date = str(p.get("date") or data.get("date") or data.get("timestamp") or "")[:10]
    date = date or "not recorded"
    commit = str(p.get("commit") or data.get("commit") or "not recorded")
    machine = _machine_line(p.get("machine") or data.get("machine"))
    return {
        "date": date,
        "commit": _short(commit),
        "machine": machine,
    }


def stamp(data: dict[str, Any], source: Path, root: Path = ROOT) -> str:
    """One italic line: ``Measured <date> at commit <sha> on <machine>; data: <file>.``

    ``source`` is named by its path relative to ``root`` (the repository's, or a copy of it).
    A ``note`` in the data's provenance (how the figures relate to the commit named) follows it.
    """
    p = provenance(data)
    rel = source.resolve().relative_to(root.resolve()).as_posix()
    note = str((data.get("provenance") or {}).get("note") or "").strip()
    line = f"*Measured {p['date']} at commit `{p['commit']}` on {p['machine']}; data: `{rel}`.*"
    return f"{line} {note[:1].upper()}{note[1:]}" if note else line
