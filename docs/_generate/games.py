"""The game pages: ``games/index.md`` and one ``games/<game>.md`` per built-in game.

Every fact on a page is read from where it lives, so the pages cannot drift from the code:

* the words (the game in a paragraph, hidden information, chance, actions, rewards, version
  history) from the sections of the game package's docstring
  (``boardgames_rl/games/<game>/__init__.py``: ``Players``, ``Config``, ``Actions``,
  ``Observation``, ``Hidden information``, ``Chance``, ``Rewards``, ``Version history``);
* the numbers (player counts, action counts and names, observation fields and sizes) from the
  game built through the registry (:func:`boardgames_rl.make_game`);
* the options from ``inspect.signature`` of the Game class and the ``Config:`` section of its
  docstring, linked to the flags section of ``docs/rules/<game>.md``;
* the measured figures from the committed results JSON, each followed by its :func:`stamp` line.

``pages()`` is called by ``docs/generate.py``.
"""

from __future__ import annotations

import importlib
import importlib.util
import inspect
import json
import re
import sys
import textwrap
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from stamp import stamp

ROOT = Path(__file__).resolve().parents[2]
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

import boardgames_rl  # noqa: E402
from boardgames_rl.agents.registry import agent_factory, list_agents  # noqa: E402
from boardgames_rl.core.agent import RandomAgent  # noqa: E402
from boardgames_rl.core.errors import InvalidConfigError  # noqa: E402
from boardgames_rl.core.observation import ObservationSpec  # noqa: E402
from boardgames_rl.envs import env_id  # noqa: E402
from boardgames_rl.registry import game_spec  # noqa: E402

DOCS = ROOT / "docs"
RESULTS = DOCS / "results"
PRETRAINED = ROOT / "boardgames_rl" / "pretrained"
MAX_PLAYERS_TRIED = 16


# --- reading docstrings -------------------------------------------------------------------------


@dataclass(frozen=True)
class PackageDoc:
    """A game package's docstring: title line, intro paragraphs and named sections."""

    title: str
    intro: str
    sections: dict[str, str]


def _heading(line: str, following: str) -> str | None:
    """The section name when ``line`` opens a section (unindented, body indented below it)."""
    if not line or line[0].isspace() or not following.startswith(" "):
        return None
    if line.lstrip().startswith(("*", "-")):
        return None
    return re.split(r"\s*[(:]", line.strip(), maxsplit=1)[0]


def parse_package_doc(doc: str) -> PackageDoc:
    """Split a package docstring into title, intro and its ``Name\\n    body`` sections."""
    lines = inspect.cleandoc(doc).splitlines()
    title, rest = lines[0], lines[1:]
    blocks: dict[str, list[str]] = {"": []}
    current = ""
    for i, line in enumerate(rest):
        following = next((s for s in rest[i + 1 :] if s.strip()), "")
        name = _heading(line, following)
        if name is not None:
            current = name
            blocks[current] = []
        else:
            blocks[current].append(line)
    body = {k: textwrap.dedent("\n".join(v)).strip() for k, v in blocks.items()}
    intro = body.pop("")
    return PackageDoc(title=title.strip(), intro=intro, sections=body)


def config_entries(doc: str) -> dict[str, str]:
    """The ``Config:`` entries of a Game class docstring: option name -> its text."""
    lines = inspect.cleandoc(doc or "").splitlines()
    start = next((i for i, s in enumerate(lines) if s.strip() == "Config:"), None)
    if start is None:
        return {}
    entries: dict[str, str] = {}
    names: list[str] = []
    indent = None
    for line in lines[start + 1 :]:
        if not line.strip():
            continue
        depth = len(line) - len(line.lstrip())
        indent = depth if indent is None else indent
        if depth < indent:
            break
        match = re.match(r"([\w, ]+):\s+(.*)", line.strip()) if depth == indent else None
        if match:
            names = [n.strip() for n in match.group(1).split(",")]
            for n in names:
                entries[n] = match.group(2)
        else:
            for n in names:
                entries[n] += " " + line.strip()
    return entries


def markdown(text: str) -> str:
    """reST-flavoured docstring text as MyST Markdown: literals, ``::`` blocks, rules links."""
    text = re.sub(r"``(.+?)``", r"`\1`", text, flags=re.S)
    text = re.sub(r":\w+:`[~.]*([^`]+)`", r"`\1`", text)
    text = re.sub(r"`docs/rules/(\w+)\.md`", r"[the rules page](../rules/\1.md)", text)
    out: list[str] = []
    lines = text.splitlines()
    i = 0
    while i < len(lines):
        line = lines[i]
        if line.rstrip().endswith("::"):
            out.append(line.rstrip()[:-1])
            block: list[str] = []
            i += 1
            while i < len(lines) and (not lines[i].strip() or lines[i].startswith(" ")):
                block.append(lines[i])
                i += 1
            out += ["", "```python", textwrap.dedent("\n".join(block)).strip(), "```", ""]
            continue
        out.append(line)
        i += 1
    return "\n".join(out).strip()


def first_sentence(text: str, stops: str = ".;") -> str:
    """The first sentence of a section (up to one of ``stops``), on one line (for a table
    cell)."""
    one_line = " ".join(markdown(text).split())
    return re.split(rf"(?<=[{stops}])\s", one_line, maxsplit=1)[0].rstrip(stops)


def cell(text: str) -> str:
    """Text safe inside one Markdown table cell."""
    one_line = re.sub(r"[ \t\r\n]+", " ", str(text)).strip()  # keeps no-break spaces
    return one_line.replace("|", "\\|") or "—"


def table(header: list[str], rows: list[list[str]]) -> str:
    """A Markdown table."""
    lines = ["| " + " | ".join(header) + " |", "|" + "---|" * len(header)]
    lines += ["| " + " | ".join(cell(c) for c in row) + " |" for row in rows]
    return "\n".join(lines)


# --- facts from the code ------------------------------------------------------------------------


def builtin_games() -> list[str]:
    """The registered games that ship with the library (a game registered by a user or a test,
    defined outside ``boardgames_rl.games``, has no page)."""
    return [
        n
        for n in boardgames_rl.list_games()
        if game_spec(n).game.__module__.startswith("boardgames_rl.games.")
    ]


def players_config(name: str, count: int) -> dict[str, int]:
    """The option that sets the player count (none for a game with one count)."""
    params = inspect.signature(game_spec(name).game.__init__).parameters
    return {"num_players": count} if "num_players" in params else {}


def game_title(name: str) -> str:
    """The game's name as people write it: its package docstring's title before the colon."""
    return package_doc(name).title.partition(":")[0].strip()


def player_counts(name: str) -> list[int]:
    """Every player count the game accepts (its default only, without ``num_players``)."""
    default = boardgames_rl.make_game(name).num_players
    if not players_config(name, default):
        return [default]
    counts = []
    for n in range(1, MAX_PLAYERS_TRIED + 1):
        try:
            boardgames_rl.make_game(name, num_players=n)
        except (InvalidConfigError, ValueError):
            continue
        counts.append(n)
    return counts


def game_for(name: str, count: int) -> Any:
    """The game at ``count`` players, otherwise with its defaults."""
    return boardgames_rl.make_game(name, **players_config(name, count))


def observation_specs(name: str) -> dict[int, ObservationSpec]:
    """The observation spec at every player count."""
    return {n: game_for(name, n).observation_spec for n in player_counts(name)}


def package_doc(name: str) -> PackageDoc:
    """The parsed docstring of the game's package."""
    module = sys.modules[game_spec(name).game.__module__.rsplit(".", 1)[0]]
    return parse_package_doc(module.__doc__ or "")


def options(name: str) -> list[tuple[str, Any]]:
    """Every option of the Game class with its default, in signature order."""
    params = inspect.signature(game_spec(name).game.__init__).parameters
    return [
        (p.name, p.default)
        for p in params.values()
        if p.name != "self" and p.kind not in (p.VAR_POSITIONAL, p.VAR_KEYWORD)
    ]


def action_groups(game: Any) -> list[tuple[int, int, str, str]]:
    """Consecutive action ids of one kind: (first id, last id, first name, last name)."""
    groups: list[tuple[int, int, str, str]] = []
    previous = None
    for a in range(game.num_actions):
        label = game.action_name(a)
        kind = _action_kind(label)
        if groups and kind == previous:
            first, _, first_label, _ = groups[-1]
            groups[-1] = (first, a, first_label, label)
        else:
            groups.append((a, a, label, label))
        previous = kind
    return groups


def _action_kind(label: str) -> str:
    """The leading words of an action name, up to its first argument (a number, a name)."""
    words = []
    for word in label.split():
        if re.search(r"[\d#+A-Z]", word) or word.endswith(":"):
            break
        words.append(word)
    return " ".join(words) or label


# --- measured figures ---------------------------------------------------------------------------


def load(path: Path) -> dict[str, Any] | None:
    """A results JSON, or None when it is not there."""
    return json.loads(path.read_text(encoding="utf-8")) if path.is_file() else None


def rate(r: float, low: float, high: float) -> str:
    """A win rate with its interval."""
    return f"{r:.3f}\u00a0[{low:.3f},\u00a0{high:.3f}]"


def seat_balance_files(name: str) -> list[Path]:
    """The seat-balance measurements of a game, by player count."""
    return sorted((RESULTS / "seat_balance").glob(f"{name}-*/seat_balance.json"))


def seat_balance_cell(name: str, path: Path) -> str:
    """One measurement's win rate per seat, in one table cell."""
    data = json.loads(path.read_text(encoding="utf-8"))
    seats = "; ".join(
        f"`{s['name']}` {rate(s['rate'], s['low'], s['high'])}" for s in data["seats"]
    )
    setup = setup_text(name, data["config"])
    return f"{setup}; `{data['agent']}` in every seat, {data['games']} games: {seats}"


def length_cell(name: str) -> tuple[str, Path | None]:
    """The mean game length from the game's tournament results, with where it comes from."""
    path = RESULTS / "tournaments" / name / "results.json"
    data = load(path)
    if data is None:
        return "not measured", None
    agents = ", ".join(f"`{a}`" for a in data["agents"])
    text = (
        f"{data['mean_length']:.0f} actions (mean of {data['games_played']} games "
        f"among {agents}; {setup_text(name, data['config'])})"
    )
    return text, path


def setup_text(name: str, config: dict[str, Any]) -> str:
    """A measured setup in words: the player count and the options that differ from the
    defaults (``4 players, `pesky_ghosts=True```), from a results JSON's ``config``."""
    try:
        game = boardgames_rl.make_game(name, **config)
    except (InvalidConfigError, TypeError, ValueError):
        return ", ".join(f"`{k}={v}`" for k, v in config.items())
    defaults = game_for(name, game.num_players).config
    changed = [f"`{k}={v!r}`" for k, v in game.config.items() if defaults.get(k) != v]
    return ", ".join([f"{game.num_players} players", *(changed or ["default options"])])


# --- page sections ------------------------------------------------------------------------------


def picture(name: str) -> str:
    """The game's picture with a caption naming the seat it shows (the text twin's first line)."""
    stem = next(
        (s for s in (f"{name}_board", f"{name}_table") if (DOCS / "img" / f"{s}.png").is_file()),
        None,
    )
    if stem is None:
        return ""
    twin = DOCS / "img" / f"{stem}.txt"
    header = twin.read_text(encoding="utf-8").splitlines()[0].strip() if twin.is_file() else ""
    caption = " ".join(header.split()).replace("|", "·")
    return "\n".join(
        [
            f"```{{figure}} ../img/{stem}.png",
            f":alt: {name} as one seat sees it",
            ":width: 100%",
            "",
            f"What one seat sees, `state.render_rgb(seat)`: “{caption}” (the header of the "
            f"same position as text, `docs/img/{stem}.txt`).",
            "```",
        ]
    )


def spec_table(name: str, doc: PackageDoc) -> str:
    """The table of facts: players, actions, observation, information, chance, length, balance."""
    counts = player_counts(name)
    default = boardgames_rl.make_game(name)
    games = {n: game_for(name, n) for n in counts}
    players = _players_text(counts, default)
    actions = sorted({g.num_actions for g in games.values()})
    sizes = per_count({n: g.observation_spec.size for n, g in games.items()})
    states = per_count({n: g.state_spec.size for n, g in games.items()})
    length, length_path = length_cell(name)
    balance = [seat_balance_cell(name, p) for p in seat_balance_files(name)]
    env = env_id(name)
    rows = [
        ["Players", players],
        ["Actions", " / ".join(f"`Discrete({a})`" for a in actions) + " (default options)"],
        ["Observation", f"`float32` vector, {sizes} floats"],
        [
            "State vector",
            f"`state.state_vector()` (every seat's information, for centralised critics): "
            f"{states} floats",
        ],
        ["Hidden information", first_sentence(doc.sections.get("Hidden information", ""))],
        ["Chance", first_sentence(doc.sections.get("Chance", ""))],
        ["Typical length", length],
        ["Seat balance", "<br>".join(balance) or "not measured"],
        ["Environment id", f"`{env}`"],
        ["Import", import_line(name)],
        ["By id", f'`pettingzoo.make("aec", "{env}")` after `import boardgames_rl`'],
        ["Rules engine", f'`boardgames_rl.make_game("{name}")`'],
    ]
    notes = [stamp(json.loads(p.read_text(encoding="utf-8")), p) for p in seat_balance_files(name)]
    if length_path is not None:
        notes.insert(0, stamp(json.loads(length_path.read_text(encoding="utf-8")), length_path))
    return table(["", ""], rows) + "\n\n" + "\n\n".join(notes)


def per_count(values: dict[int, int]) -> str:
    """One figure per player count (``2 players: 122 · 3 players: 167``), or the one figure."""
    if len(values) == 1:
        return str(next(iter(values.values())))
    return " · ".join(f"{n} players: {v}" for n, v in values.items())


def usage(doc: PackageDoc) -> str:
    """The package docstring's usage example (run by ``tests/docs/test_docstring_examples.py``)."""
    code = doc.sections.get("Usage", "")
    return f"Usage:\n\n```python\n{code}\n```" if code else ""


def import_line(name: str) -> str:
    """The PettingZoo-style env module of the game and its ``env()``."""
    module = env_id(name).split("/")[-1].replace("-", "_")
    if importlib.util.find_spec(f"boardgames_rl.envs.{module}") is None:
        return "—"
    return f"`from boardgames_rl.envs import {module}`; `env = {module}.env()`"


def _players_text(counts: list[int], default: Any) -> str:
    names = ", ".join(f"`{p}`" for p in default.player_names)
    if len(counts) == 1:
        return f"{counts[0]}: {names}"
    return f"{counts[0]}–{counts[-1]} (`num_players`, default {default.num_players}: {names})"


def actions_section(name: str, doc: PackageDoc) -> str:
    """What the action ids mean: the docstring's words, then every id range with its names."""
    game = boardgames_rl.make_game(name)
    rows = []
    for first, last, first_label, last_label in action_groups(game):
        ids = str(first) if first == last else f"{first}–{last}"
        names = f"`{first_label}`" + ("" if first == last else f" … `{last_label}`")
        rows.append([ids, str(last - first + 1), names])
    intro = (
        f"`Discrete({game.num_actions})` with the default options; the env's "
        '`observation["action_mask"]` marks the legal ones. `game.action_name(a)` names an id, '
        "`state.action_name(a)` names it in the context of the pending decision."
    )
    words = markdown(doc.sections.get("Actions", ""))
    parts = [intro, words, table(["ids", "count", "names"], rows), first_decision(name)]
    return "\n\n".join(filter(None, parts))


FIRST_DECISION_SHOWN = 5


def first_decision(name: str) -> str:
    """The legal actions of a game's first decision, by id, generic name and name in context."""
    game = boardgames_rl.make_game(name)
    state = game.new_state(seed=0)
    legal = [int(a) for a in state.legal_actions()]
    seat = game.player_names[state.current_player]
    package = sys.modules[game.__module__].__package__
    found = importlib.util.find_spec(f"{package}.naming") if package else None
    naming = importlib.import_module(found.name) if found else None
    source = f"Names in context are written by `{naming.__name__}`. " if naming else ""
    rows = [
        [str(a), f"`{game.action_name(a)}`", state.action_name(a)]
        for a in legal[:FIRST_DECISION_SHOWN]
    ]
    more = len(legal) - len(rows)
    tail = f"; the first {len(rows)}" if more else ""
    return (
        f"{source}The first decision of `game.new_state(seed=0)` is `{seat}`'s, among "
        f"{len(legal)} legal actions{tail}:\n\n"
        + table(["id", "`game.action_name(a)`", "`state.action_name(a)`"], rows)
    )


def observation_section(name: str, doc: PackageDoc) -> str:
    """The field table at the default player count and the sizes of the fields that vary."""
    specs = observation_specs(name)
    default_count = boardgames_rl.make_game(name).num_players
    spec = specs[default_count]
    parts = [markdown(doc.sections.get("Observation", ""))]
    parts.append(
        f"The fields at {default_count} players ({spec.size} floats), in order "
        "(`game.observation_spec`, whose `describe()` prints this table; `spec.unflatten(vec)` "
        "reads a vector back by field name):"
    )
    parts.append(observation_table(spec))
    if len(specs) > 1:
        parts.append(
            "The fields whose shape depends on the player count (every other field is the same "
            "at every count):"
        )
        parts.append(shapes_by_count(specs))
    hidden = doc.sections.get("Hidden information")
    if hidden:
        parts += ["**What is hidden.** " + markdown(hidden)]
    return "\n\n".join(filter(None, parts))


def observation_table(spec: ObservationSpec) -> str:
    """One row per field: name, offset, shape, range, description (the spec's ``describe``)."""
    rows = [
        [
            f"`{f.name}`",
            str(spec.slices[f.name].start),
            _shape(f.shape),
            f"[{f.low:g},\u00a0{f.high:g}]",
            f.description,
        ]
        for f in spec.fields
    ]
    return table(["field", "offset", "shape", "range", "description"], rows)


def shapes_by_count(specs: dict[int, ObservationSpec]) -> str:
    """Shape of each varying field at each player count, and the total size."""
    counts = list(specs)
    names = [f.name for f in specs[counts[0]].fields]
    rows = []
    for field_name in names:
        shapes = [
            _shape(specs[n][field_name].shape) if field_name in specs[n] else "—" for n in counts
        ]
        if len(set(shapes)) > 1:
            rows.append([f"`{field_name}`", *shapes])
    rows.append(["total size", *(str(specs[n].size) for n in counts)])
    return table(["field", *(f"{n}p" for n in counts)], rows)


def _shape(shape: tuple[int, ...]) -> str:
    return "×".join(str(d) for d in shape) or "1"


def options_section(name: str) -> str:
    """Every option with its default, what it does and the rule it answers (linked)."""
    game_class = game_spec(name).game
    words = config_entries(game_class.__doc__ or "")
    anchor = flags_anchor(name)
    reasons = flag_reasons(name)
    rows = []
    for option, default in options(name):
        rule = ""
        if anchor and option in reasons:
            rule = f"{reasons[option]} ([rules](../rules/{name}.md#{anchor}))"
        rows.append([f"`{option}`", f"`{default!r}`", markdown(words.get(option, "")), rule])
    intro = (
        f'Keyword arguments of `boardgames_rl.make_game("{name}", ...)` (and of the env), '
        f"read from `{game_class.__name__}`; the defaults are the rulebook's game. "
    )
    if anchor:
        intro += (
            f"Each rule an option answers, in full and with its test: [the rules page, flags "
            f"section](../rules/{name}.md#{anchor})."
        )
    return intro + "\n\n" + table(["option", "default", "what it does", "rule"], rows)


def flag_reasons(name: str) -> dict[str, str]:
    """Option -> the first sentence of its reason in the flags table of the rules page."""
    rows = [
        [c.strip() for c in line.strip().strip("|").split(" | ")]
        for line in flags_text(name).splitlines()
        if line.startswith("|") and not line.startswith("|---")
    ]
    if not rows:
        return {}
    header = [c.lower() for c in rows[0]]
    column = next((i for i, c in enumerate(header) if "reason" in c), None)
    if column is None:
        return {}
    reasons = {}
    for row in rows[1:]:
        if len(row) != len(header):
            continue
        for option in re.findall(r"`(\w+)`", row[0]):
            reasons[option] = first_sentence(row[column], stops=".")
    return reasons


def _flags_heading(name: str) -> tuple[int, str] | None:
    path = DOCS / "rules" / f"{name}.md"
    if not path.is_file():
        return None
    lines = path.read_text(encoding="utf-8").splitlines()
    for i, line in enumerate(lines):
        if line.startswith("#") and re.search(r"flag|option", line, re.I):
            return i, line.lstrip("#").strip()
    return None


def flags_anchor(name: str) -> str | None:
    """The MyST anchor of the flags section of ``docs/rules/<game>.md``."""
    from myst_parser.slugs import github_slugify

    found = _flags_heading(name)
    return github_slugify(found[1].replace("`", "")) if found else None


def flags_text(name: str) -> str:
    """The text of the flags section of the rules page (up to the next heading of its level)."""
    found = _flags_heading(name)
    if found is None:
        return ""
    lines = (DOCS / "rules" / f"{name}.md").read_text(encoding="utf-8").splitlines()
    level = len(lines[found[0]]) - len(lines[found[0]].lstrip("#"))
    body = []
    for line in lines[found[0] + 1 :]:
        if line.startswith("#") and len(line) - len(line.lstrip("#")) <= level:
            break
        body.append(line)
    return "\n".join(body)


def agents_section(name: str) -> str:
    """The agents that play the game and their measured strength, each figure stamped."""
    game = boardgames_rl.make_game(name)
    rows = []
    for agent in list_agents(game):
        rows.append([f"`{agent}`", first_sentence(agent_summary(name, agent))])
    parts = [
        "Agents by spec string (`boardgames_rl.make_agent(spec, game)`):",
        table(["agent", "what it is"], rows),
    ]
    parts += ladder_part(name) + rating_part(name) + pretrained_part(name)
    parts.append(results_links())
    return "\n\n".join(filter(None, parts))


RESULTS_PAGES = ("strength_ladder", "tournaments", "pretrained", "seat_balance")


def results_links() -> str:
    """Links to the results pages that hold every game's measurements in full."""
    links = []
    for page in RESULTS_PAGES:
        path = RESULTS / f"{page}.md"
        if path.is_file():
            title = next(
                (
                    ln[2:].strip()
                    for ln in path.read_text(encoding="utf-8").splitlines()
                    if ln.startswith("# ")
                ),
                page,
            )
            links.append(f"[{title}](../results/{page}.md)")
    return (
        "Every game's measurements in full, with how they were made: " + ", ".join(links) + "."
        if links
        else ""
    )


def agent_summary(name: str, agent: str) -> str:
    """The first paragraph of what an agent is: its factory's docstring, or for ``heuristic`` and
    ``random`` (plain factories) the game's heuristic class and :class:`RandomAgent`."""
    classes = {"heuristic": game_spec(name).heuristic, "random": RandomAgent}
    source = game_spec(name).agents.get(agent) or agent_factory(agent)
    doc = inspect.getdoc(source) or inspect.getdoc(classes.get(agent)) or ""
    return doc.split("\n\n")[0]


def ladder_part(name: str) -> list[str]:
    """The strength ladder rows of the game: the search agent against random and heuristic."""
    path = RESULTS / "strength_ladder.json"
    data = load(path)
    rows = [r for r in (data or {}).get("rows", []) if r["game"] == name]
    if data is None or not rows:
        return []
    spec = data["specs"].get(name, "")
    body = [
        [
            r["opponent"],
            r["seat"],
            f"{r['wins']:g} / {r['games']}",
            rate(r["rate"], r["low"], r["high"]),
            r["target"],
        ]
        for r in rows
    ]
    return [
        f"### Strength ladder\n\n`{spec}` against each opponent (win rate with its Wilson 95 % "
        "interval):",
        table(["opponent", "seat", "wins / games", "win rate", "target"], body),
        stamp(data, path),
    ]


def spec_cell(spec: str) -> str:
    """An agent spec in a table cell, broken after each option so that the column can wrap."""
    parts = spec.split(",")
    return (
        " ".join(f"`{p},`" for p in parts[:-1]) + (" " if len(parts) > 1 else "") + f"`{parts[-1]}`"
    )


def rating_part(name: str) -> list[str]:
    """The ratings of the game's ladder tournament (``random`` anchored at 0)."""
    path = RESULTS / "ladder" / name / "results.json"
    data = load(path)
    if data is None:
        return []
    body = [
        [
            spec_cell(r["agent"]),
            f"{r['rating']:.0f}\u00a0[{r['rating_low']:.0f},\u00a0{r['rating_high']:.0f}]",
            rate(r["win_rate"], r["win_low"], r["win_high"]),
            str(r["games"]),
        ]
        for r in data["results"]
    ]
    return [
        f"### Ratings\n\nThe ladder tournament ({data['games_played']} games, "
        f"{setup_text(name, data['config'])}; rating anchored at `{data['rating_anchor']}` = 0):",
        table(["agent", "rating", "win rate", "games"], body),
        stamp(data, path),
    ]


def pretrained_part(name: str) -> list[str]:
    """The shipped pretrained entries of the game and their measured strength."""
    parts = []
    for path in sorted(PRETRAINED.glob(f"{name}-*.json")):
        data = json.loads(path.read_text(encoding="utf-8"))
        strength = data.get("strength", {})
        body = []
        for key, value in strength.items():
            if not key.startswith("vs ") or not isinstance(value, dict):
                continue
            for seat, figures in value.items():
                if isinstance(figures, dict) and "rate" in figures:
                    body.append(
                        [
                            key[3:],
                            seat,
                            f"{figures['wins']:g} / {figures['games']}",
                            rate(figures["rate"], figures["low"], figures["high"]),
                        ]
                    )
        parts.append(
            f"### Pretrained `{data['name']}`\n\n`pretrained` on "
            f"{setup_text(name, data.get('config', {}))}, playing "
            f"{_seat_names(name, data)}:"
        )
        if body:
            parts.append(table(["opponent", "seat", "wins / games", "win rate"], body))
        parts.append(stamp(entry_provenance(data), path))
    return parts


def entry_provenance(entry: dict[str, Any]) -> dict[str, Any]:
    """A pretrained entry's ``provenance``: its own key, else where the entry keeps the facts
    (``strength.measured_at``, ``commit``, ``training.machine``), as the results pages read it."""
    if entry.get("provenance"):
        return entry
    return {
        "provenance": {
            "date": entry.get("strength", {}).get("measured_at") or "not recorded",
            "commit": entry.get("commit") or "not recorded",
            "machine": entry.get("training", {}).get("machine") or "not recorded",
        }
    }


def _seat_names(name: str, entry: dict[str, Any]) -> str:
    """The seats a pretrained entry plays, by name."""
    names = boardgames_rl.make_game(name, **entry.get("config", {})).player_names
    return ", ".join(f"`{names[s]}`" for s in entry.get("seats", range(len(names))))


def history_section(name: str, doc: PackageDoc) -> str:
    """The env's version, then the package docstring's version history (and observation
    version history)."""
    game = boardgames_rl.make_game(name)
    now = (
        f"The environment is `{env_id(name)}` (`{type(game).__name__}.version = "
        f"{game.version}`). The changes made under that id:"
    )
    parts = [now, markdown(doc.sections.get("Version history", ""))]
    if doc.sections.get("Observation version history"):
        parts += ["**Observation.** " + markdown(doc.sections["Observation version history"])]
    return "\n\n".join(filter(None, parts)) or "No version history recorded."


# --- pages --------------------------------------------------------------------------------------


def header(sources: list[str]) -> str:
    """The first line of a generated page."""
    return f"<!-- generated by docs/generate.py from {', '.join(sources)}: do not edit -->"


def game_page(name: str) -> str:
    """The page of one game."""
    doc = package_doc(name)
    title, _, tagline = doc.title.partition(":")
    package = f"boardgames_rl/games/{name}/__init__.py"
    module = game_spec(name).game.__module__.replace(".", "/") + ".py"
    sources = [package, module, f"docs/rules/{name}.md", "docs/results", "boardgames_rl/pretrained"]
    tagline = tagline.strip()
    lead = markdown(tagline[:1].upper() + tagline[1:] + "." if tagline else "")
    sections = [
        header(sources),
        f"({name})=",
        f"# {title.strip()}",
        "\n\n".join(filter(None, [lead.replace("..", "."), markdown(doc.intro)])),
        picture(name),
        "## At a glance",
        spec_table(name, doc),
        usage(doc),
        "## Actions",
        actions_section(name, doc),
        "## Observation",
        observation_section(name, doc),
        "## Rewards",
        markdown(doc.sections.get("Rewards", "")),
        "## Options and flags",
        options_section(name),
        "## Agents and their measured strength",
        agents_section(name),
        "## Version history",
        history_section(name, doc),
    ]
    return "\n\n".join(s for s in sections if s) + "\n"


def index_page(names: list[str]) -> str:
    """The games index: one row per game and the toctree."""
    rows = []
    for name in names:
        counts = player_counts(name)
        players = str(counts[0]) if len(counts) == 1 else f"{counts[0]}–{counts[-1]}"
        title = game_title(name)
        rows.append(
            [f"[{title}]({name}.md)", players, game_spec(name).summary, f"`{env_id(name)}`"]
        )
    toctree = "\n".join(["```{toctree}", ":hidden:", "", *names, "```"])
    return (
        "\n\n".join(
            [
                header(["boardgames_rl.registry", "the game packages' docstrings"]),
                "# Games",
                "Every registered game, built by name with `boardgames_rl.make_game(name)` and "
                'played as a PettingZoo AEC env with `pettingzoo.make("aec", env_id)`.',
                table(["game", "players", "in one line", "environment id"], rows),
                "Each game's page gives, in this order: the game in a paragraph and its picture; "
                "its facts at a glance (players, action count, observation size, hidden "
                "information, chance, measured length and seat balance, env id); what the "
                "actions and the observation hold; the rewards; the options and the rules they "
                "answer; the agents and their measured strength; the version history. "
                "`docs/generate.py` writes every page from the code, the rules pages and the "
                "committed measurements.",
                toctree,
            ]
        )
        + "\n"
    )


def pages() -> dict[str, str]:
    """``games/index.md`` and ``games/<game>.md`` for every built-in game."""
    names = builtin_games()
    out = {"games/index.md": index_page(names)}
    for name in names:
        out[f"games/{name}.md"] = game_page(name)
    return out
