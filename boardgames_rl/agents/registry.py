"""Agents by spec string, so the CLI, notebooks and tournaments name them alike.

A spec is ``name`` or ``name:key=value,key=value``, e.g. ``"random"``, ``"heuristic"``,
``"heuristic:win_bonus=5"``. Values are parsed as int, float, bool or left as strings.

This module is the one place that turns spec strings into agents, nested ones included
(``ismcts:rollout=heuristic,prior=pretrained``, ``rollout:base=heuristic``): an agent that plays
with another agent receives it built (no agent module imports this registry). The one exception
is the closed set of priors a file may name (:data:`~boardgames_rl.envs.policy_obs.SAFE_PRIORS`,
``random`` and ``heuristic``, without options), which a model or a pretrained entry builds itself
(:func:`~boardgames_rl.envs.policy_obs.prior_agent`).

**Specs read back from a file are data.** An option that lets an agent run code from a file
(:data:`TRUST_OPTIONS`: ``ppo``'s ``trust=1``, which unpickles a model file) is an opt-in only the
person gives, in a spec typed on the command line or passed in Python. Every spec the library
reads back from a file (a run's ``config.json``, a tournament's ``tournament.json``, game
records, pretrained entries) goes through :func:`file_spec`, which refuses such an option in one
line, and every writer stores specs through :func:`spec_for_file`, which drops it.
"""

from __future__ import annotations

import inspect
import math
from collections.abc import Callable
from typing import Any

from boardgames_rl.core.agent import Agent, RandomAgent
from boardgames_rl.core.errors import InvalidConfigError, UnknownAgentError
from boardgames_rl.core.game import Game
from boardgames_rl.core.options import parse_option_string
from boardgames_rl.registry import game_spec

AgentFactory = Callable[..., Agent]
SpecOptions = Callable[[Game], dict[str, Any]]
_AGENTS: dict[str, Callable[..., Agent]] = {}
_SPEC_OPTIONS: dict[str, SpecOptions] = {}
_SETUPS: dict[str, Callable[[], str]] = {}


def register_agent(
    name: str,
    factory: Callable[..., Agent],
    options: SpecOptions | None = None,
    setups: Callable[[], str] | None = None,
) -> None:
    """``factory(game, **kwargs) -> Agent``. ``options(game)``, when the spec's keys are not the
    agent class's constructor parameters, gives them with their defaults for ``game`` (what
    ``boardgames-rl list`` shows). ``setups()``, for an agent that plays only some game setups
    (games, player counts, options), says which in one line (``agent_setups(name)``)."""
    _AGENTS[name] = factory
    for table, value in ((_SPEC_OPTIONS, options), (_SETUPS, setups)):
        if value is None:
            table.pop(name, None)
        else:
            table[name] = value  # type: ignore[assignment]


def unregister_agent(name: str) -> None:
    """Remove ``name`` from the registry (no-op when absent), e.g. a temporary registration."""
    _AGENTS.pop(name, None)
    _SPEC_OPTIONS.pop(name, None)
    _SETUPS.pop(name, None)


def agent_factory(name: str) -> Callable[..., Agent]:
    """The factory registered for agent ``name`` (:func:`register_agent`); KeyError if none."""
    return _AGENTS[name]


def agent_setups(name: str) -> str | None:
    """The game setups agent ``name`` plays, in one line (``white_castle 2p, ...``), when it
    declared them (:func:`register_agent`'s ``setups``); None: every setup of every game."""
    setups = _SETUPS.get(name)
    return None if setups is None else setups()


def spec_options(name: str, game: Game) -> dict[str, Any] | None:
    """The spec keys of agent ``name`` on ``game`` with their defaults, when the agent declares
    them (:func:`register_agent`'s ``options``), else None (its class's constructor says)."""
    options = _SPEC_OPTIONS.get(name)
    return None if options is None else options(game)


def parse_spec(spec: str) -> tuple[str, dict[str, Any]]:
    """``"ismcts:iterations=400,c=1.4"`` -> ``("ismcts", {"iterations": 400, "c": 1.4})``."""
    name, _, rest = spec.strip().partition(":")
    kwargs = parse_option_string(rest, f"agent spec {spec!r}")
    return name.strip(), kwargs


TRUST_OPTIONS = frozenset({"trust"})
"""Spec options that switch on code from a file: given by the person, never read from a file."""


def _nested(value: Any) -> list[str]:
    """The specs nested in an option value (``rollout:base=ppo:path=x``), to check them too."""
    return [value] if isinstance(value, str) and (":" in value or "=" in value) else []


def _trust_keys(spec: str, depth: int = 0) -> list[str]:
    if depth > 8:
        return []
    try:
        _, kwargs = parse_spec(spec)
    except (ValueError, TypeError):
        return []  # not a spec: make_agent refuses it in its own words
    keys = [k for k in kwargs if k in TRUST_OPTIONS]
    for value in kwargs.values():
        for inner in _nested(value):
            keys += _trust_keys(inner, depth + 1)
    return keys


def split_specs(text: str) -> list[str]:
    """A comma-separated list of agent specs, whose options also use commas:
    ``"random,ismcts:iterations=50,rollout=random,self"`` -> 3 specs (a piece with ``=`` and no
    ``:`` continues the previous spec's options)."""
    out: list[str] = []
    for piece in (s.strip() for s in text.split(",")):
        if out and "=" in piece and ":" not in piece:
            out[-1] += "," + piece
        elif piece:
            out.append(piece)
    return out


def file_spec(spec: Any, source: str) -> str:
    """An agent spec read back from a file (``source`` names the file and the field): a string,
    without any :data:`TRUST_OPTIONS` key (an opt-in is the person's, never a file's).

    Raises:
        InvalidConfigError: one line naming ``source``, the spec and what to do.
    """
    if not isinstance(spec, str):
        raise InvalidConfigError(f"{source}: an agent spec must be text, got {spec!r:.60}")
    keys = _trust_keys(spec)
    if keys:
        raise InvalidConfigError(
            f"{source}: agent spec {spec!r:.120} carries {keys[0]}=..., an opt-in to run code that "
            "a file cannot give; remove it from the file and give it on the command line (or in "
            "the Python call) if you trust the model"
        )
    return spec


def spec_for_file(spec: str) -> str:
    """``spec`` as a file stores it: without :data:`TRUST_OPTIONS` (at any nesting level), so
    reading the file back never opts in on its own."""
    name, sep, rest = spec.partition(":")
    if not sep:
        return spec
    pieces = []
    for piece in rest.split(","):
        key, eq, value = piece.partition("=")
        if key.strip() in TRUST_OPTIONS:
            continue
        if eq and _nested(value.strip()):
            value = spec_for_file(value.strip())
        pieces.append(f"{key}{eq}{value}")
    return f"{name}:{','.join(pieces)}" if pieces else name


def check_option_types(func: Callable[..., Any], kwargs: dict[str, Any], spec: str) -> None:
    """Each option must have the type of the parameter's default (a number for a float, an int
    for an int, true/false for a bool, text for a str), so a bad value fails when the agent is
    built, not in the middle of a game."""
    try:
        params = inspect.signature(func).parameters
    except (TypeError, ValueError):
        return
    for key, value in kwargs.items():
        p = params.get(key)
        if p is None or p.default is inspect.Parameter.empty or p.default is None:
            continue
        d = p.default
        if isinstance(d, bool):
            kind, ok = "true or false", isinstance(value, bool)
        elif isinstance(d, int):
            kind, ok = "an integer", isinstance(value, int) and not isinstance(value, bool)
        elif isinstance(d, float):
            kind = "a finite number"
            ok = (
                isinstance(value, (int, float))
                and not isinstance(value, bool)
                and math.isfinite(value)
            )
        elif isinstance(d, str):
            kind, ok = "text", isinstance(value, str)
        else:
            continue
        if not ok:
            raise InvalidConfigError(
                f"agent spec {spec!r}: option {key} must be {kind} (default {d!r}), got {value!r}"
            )


def _heuristic_class(game: Game) -> Callable[..., Agent]:
    heuristic = game_spec(game.name).heuristic
    if heuristic is None:
        raise InvalidConfigError(f"game {game.name!r} declares no heuristic agent in its GameSpec")
    return heuristic


def _heuristic(game: Game, **kwargs: Any) -> Agent:
    return _heuristic_class(game)(**kwargs)


def make_agent(spec: str | Agent, game: Game, source: str | None = None) -> Agent:
    """An agent from a spec string (or an Agent, returned as is).

    ``source``: the spec was read from a file (``source`` names it); it is checked by
    ``file_spec`` first, so it cannot opt in to running code.
    """
    if isinstance(spec, Agent):
        return spec
    if source is not None:
        file_spec(spec, source)
    name, kwargs = parse_spec(spec)
    own = game_spec(game.name).agents
    if name not in _AGENTS and name not in own:
        raise UnknownAgentError(
            f"unknown agent {name!r} for {game.name}; known agents: {', '.join(list_agents(game))}"
        )
    factory = _AGENTS.get(name) or own[name]
    target = _heuristic_class(game) if name == "heuristic" else _SIGNATURES.get(name, factory)
    check_option_types(target, kwargs, spec if isinstance(spec, str) else name)
    try:
        agent = factory(game, **kwargs)
    except TypeError as e:
        raise InvalidConfigError(f"agent spec {spec!r}: {e}") from e
    agent.name = spec if isinstance(spec, str) else agent.name
    return agent


def list_agents(game: Game | None = None) -> list[str]:
    """The agent names every game has, and with ``game`` also that game's own
    (``GameSpec.agents``)."""
    own = game_spec(game.name).agents if game is not None else {}
    return sorted({*_AGENTS, *own})


def _ismcts(game: Game, **kwargs: Any) -> Agent:
    """Single-observer ISMCTS: search over worlds sampled from the info set. The spec's nested
    ``rollout`` and ``prior`` specs (after ``preset=tuned``) are built here, each its own agent."""
    from boardgames_rl.agents.ismcts import build_ismcts, fast_rollout, with_preset

    kwargs = with_preset(game, kwargs)
    rollout: Any = kwargs.pop("rollout", "random")
    if isinstance(rollout, str) and rollout == "fast":
        rollout = fast_rollout(make_agent("heuristic", game), game)
    elif isinstance(rollout, str | int | float) and str(rollout) != "random":
        rollout = make_agent(str(rollout), game)
    prior: Any = kwargs.pop("prior", "none")
    if isinstance(prior, str | int | float | bool):
        named = str(prior)
        prior = None if named.lower() in ("none", "false") else make_agent(named, game)
    return build_ismcts(game, rollout=rollout, prior=prior, **kwargs)


def _ismcts_options(game: Game) -> dict[str, Any]:
    from boardgames_rl.agents.ismcts import ISMCTSAgent

    params = inspect.signature(ISMCTSAgent.__init__).parameters.values()
    defaults = {p.name: p.default for p in params if p.name != "self"}
    return {"preset": None, **defaults}


def _search_options(game: Game) -> dict[str, Any]:
    """``pretrained+search``: the tuned preset's keys (the policy is the prior)."""
    from boardgames_rl.agents.ismcts import TUNED_SETTINGS

    options = _ismcts_options(game)
    if game.name in TUNED_SETTINGS:
        options.update(parse_option_string(TUNED_SETTINGS[game.name], "ismcts preset"))
    return {k: v for k, v in options.items() if k not in ("preset", "prior")}


_SIGNATURES: dict[str, Callable[..., Any]] = {"random": RandomAgent}
"""Where an agent's option defaults are read when its factory takes ``**kwargs``."""
register_agent("random", lambda game, **kw: RandomAgent(**kw))
register_agent("heuristic", _heuristic)
register_agent("ismcts", _ismcts, _ismcts_options)


def _rollout(game: Game, **kwargs: Any) -> Agent:
    """One-step Monte Carlo rollout improvement of a base agent over sampled worlds (the spec's
    nested ``base`` spec built here)."""
    from boardgames_rl.agents.rollout import build_rollout

    base = make_agent(str(kwargs.pop("base", "heuristic")), game)
    return build_rollout(game, base, **kwargs)


def _rollout_options(game: Game) -> dict[str, Any]:
    from boardgames_rl.agents.rollout import RolloutAgent

    params = inspect.signature(RolloutAgent.__init__).parameters
    keys = ("worlds", "depth", "margin")  # evaluate: the game's, built with depth
    return {"base": "heuristic", **{k: params[k].default for k in keys}}


register_agent("rollout", _rollout, _rollout_options)


def _ppo(game: Game, **kwargs: Any) -> Agent:
    """A trained MaskablePPO policy: a run's model.zip, read without unpickling."""
    from boardgames_rl.agents.ppo import build  # needs the [train] extra: imported on use

    return build(game, **kwargs)


register_agent("ppo", _ppo, setups=lambda: "the game and setup its model was trained on")


def _pretrained(game: Game, **kwargs: Any) -> Agent:
    """The shipped policy of the game (boardgames_rl/pretrained/)."""
    from boardgames_rl.agents.pretrained import build as build_pretrained  # torch: on use

    return build_pretrained(game, **kwargs)


def _pretrained_search(game: Game, **kwargs: Any) -> Agent:
    """``pretrained+search``: the tuned ISMCTS (``ismcts:preset=tuned``) with the shipped policy
    as its root prior (its move tried first and credited ``prior_visits``); ISMCTS options pass
    through."""
    from boardgames_rl.agents.pretrained import UnsupportedSetupError

    try:
        prior = make_agent("pretrained", game)  # fails with the setups shipped, when none fits
    except UnsupportedSetupError as e:
        raise UnsupportedSetupError(str(e).replace("pretrained", "pretrained+search", 1)) from None
    return _ismcts(game, **{"preset": "tuned", **kwargs, "prior": prior})


def _pretrained_setups() -> str:
    """The setups of the shipped entries (read with the checked reader)."""
    from boardgames_rl.agents.pretrained import setups_text

    return f"{setups_text(limit=400)} (shipped; your own exports: dir=PATH)"


register_agent("pretrained", _pretrained, setups=_pretrained_setups)
register_agent("pretrained+search", _pretrained_search, _search_options, setups=_pretrained_setups)
