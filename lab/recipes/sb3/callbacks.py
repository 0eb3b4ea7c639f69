"""SB3 callbacks and the logger of a training run.

* :func:`make_logger` -- SB3 logger writing ``progress.csv`` (appended to on resume) and TensorBoard
  events when ``tensorboard`` is installed;
* :class:`EvalCallback` -- every ``every`` steps (checked between updates), win rates of the
  current (deterministic) policy against fixed opponents, with Wilson 95% intervals, appended
  to ``eval.csv`` and logged; the best-scoring policy so far is kept in ``best/`` (``model.zip``
  and ``best.json``), since a run's last policy need not be its strongest;
* :class:`SnapshotCallback` -- a frozen copy of the learner into every env's pool at the start and
  every ``every`` steps (self-play);
* :class:`CheckpointCallback` -- a checkpoint every N steps (between updates), a clean stop on a
  signal (:mod:`boardgames_rl.training.checkpoint`);
* :class:`WallClockCallback` -- stops training after a wall-time budget;
* :class:`TqdmCallback` -- a progress bar over the timesteps.

What a run says as it goes (:func:`report`: standard output, flushed, whether or not a progress
bar is drawn on standard error, so a log file or a notebook gets it too): one line per
evaluation (:func:`eval_line`) and, from ``train_ppo``, a start line and a final summary.
"""

from __future__ import annotations

import csv
import importlib.util
import io
import json
import os
import time
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any, cast

from stable_baselines3.common.callbacks import BaseCallback
from stable_baselines3.common.logger import (
    CSVOutputFormat,
    Logger,
    TensorBoardOutputFormat,
    filter_excluded_keys,
)

from boardgames_rl.agents.ppo import PolicyAgent, freeze_policy
from boardgames_rl.agents.registry import spec_for_file
from boardgames_rl.core.errors import InvalidConfigError
from boardgames_rl.core.files import (
    make_dir,
    open_append,
    read_text,
    write_text,
)
from boardgames_rl.core.game import Game
from boardgames_rl.training.checkpoint import MAX_LOG_BYTES, save_model
from boardgames_rl.training.evaluation import EvaluationStopped, evaluate
from boardgames_rl.training.report import duration, eval_line, report, win_rates  # noqa: F401 (re-exported)
from boardgames_rl.training.runs import read_best

EVAL_FIELDS = [
    "timesteps",
    "opponent",
    "games",
    "wins",
    "rate",
    "low",
    "high",
    "mean_return",
    "wall_time",
]
"""Columns of ``eval.csv``."""


class AppendingCSVOutputFormat(CSVOutputFormat):
    """SB3's CSV writer, continuing an existing file (its header and rows) instead of erasing it,
    and writing only inside the run folder ``root``: rows are appended to the regular file (a link
    there is refused, :func:`~boardgames_rl.core.files.open_append`), and when new columns appear
    the file is rewritten whole with the wider header (a fresh file renamed over it)."""

    def __init__(self, filename: str | os.PathLike, root: str | os.PathLike | None = None):
        self.path = Path(filename)
        self.root = Path(root) if root is not None else self.path.parent
        self.file = cast(Any, open_append(self.path, self.root))
        self.separator = ","
        self.quotechar = '"'
        self.keys: list[str] = []
        if self.file.tell() > 0:
            header = self._text().partition("\n")[0].strip()
            self.keys = header.split(",") if header else []

    def _text(self) -> str:
        return read_text(self.path, MAX_LOG_BYTES, "training log")

    def write(
        self, key_values: dict[str, Any], key_excluded: dict[str, tuple[str, ...]], step: int = 0
    ) -> None:
        extra = [
            k for k in filter_excluded_keys(key_values, key_excluded, "csv") if k not in self.keys
        ]
        if extra:
            self.file.flush()
            lines = self._text().splitlines(keepends=True)
            self.keys.extend(extra)
            body = [line.rstrip("\r\n") + self.separator * len(extra) + "\n" for line in lines[1:]]
            self.file.close()
            write_text(self.path, ",".join(self.keys) + "\n" + "".join(body), self.root)
            self.file = cast(Any, open_append(self.path, self.root))
        super().write(key_values, key_excluded, step)


def make_logger(out_dir: str | os.PathLike) -> Logger:
    """Logger writing ``out_dir/progress.csv`` (and TensorBoard events if available), inside
    ``out_dir`` only."""
    out = make_dir(Path(out_dir), root=Path(out_dir))
    formats: list[Any] = [AppendingCSVOutputFormat(out / "progress.csv", out)]
    if importlib.util.find_spec("tensorboard") is not None:
        make_dir(out / "tensorboard", root=out)  # a link there is refused
        formats.append(TensorBoardOutputFormat(str(out / "tensorboard")))
    return Logger(str(out), formats)


class EvalCallback(BaseCallback):
    """Periodic evaluation against fixed opponents (``every`` <= 0: only at the end).

    Args:
        game: the game.
        opponents: agent specs to evaluate against (e.g. ``("random", "heuristic")``).
        games: games per opponent.
        seats: the learner's seats (rotated).
        every: evaluate when the step count crosses a multiple of ``every``.
        csv_path: ``eval.csv`` to append to (None: not written).
        seed: evaluation seed (the same games at every evaluation).
        deterministic: evaluate the most probable action (default) or draws from the policy.
        best_dir: keep the policy with the highest mean win rate over ``opponents`` here
            (``model.zip`` and ``best.json``: its steps, score and rows); an earlier best in the
            folder (a resumed run) is only replaced by a higher score. None: not kept.
        root: the run folder: every file is written inside it, never through a link (default:
            the folder of ``csv_path``, else of ``best_dir``).
        started: ``time.perf_counter()`` when the run started (the time each evaluation line
            gives; default: when this callback is made).
        quiet: no line per evaluation (:func:`eval_line`, printed by :func:`report`).

    The best is picked on the evaluation games, so its score there is optimistic: measure a kept
    policy again on other seeds (``train_strong.py export`` does) before quoting it.
    """

    def __init__(
        self,
        game: Game,
        opponents: Sequence[str],
        games: int,
        seats: Sequence[int],
        every: int,
        csv_path: str | os.PathLike | None = None,
        seed: int = 0,
        verbose: int = 0,
        deterministic: bool = True,
        best_dir: str | os.PathLike | None = None,
        root: str | os.PathLike | None = None,
        started: float | None = None,
        quiet: bool = False,
    ):
        super().__init__(verbose)
        self.started = time.perf_counter() if started is None else float(started)
        self.quiet = quiet
        self.deterministic = deterministic
        self.best_dir = Path(best_dir) if best_dir is not None else None
        anchor = csv_path if csv_path is not None else best_dir
        self.root = Path(root) if root is not None else Path(anchor or ".").parent
        self.best_score = read_best(self.best_dir)["score"] if self.best_dir is not None else -1.0
        self.game = game
        self.opponents = list(opponents)
        self.games = int(games)
        self.seats = list(seats)
        self.every = int(every)
        self.csv_path = Path(csv_path) if csv_path is not None else None
        self.seed = seed
        self.history: list[dict[str, Any]] = []
        self._start = time.perf_counter()
        self._last_eval = -1
        self.interrupted = False  # set on SIGINT/SIGTERM: no final evaluation
        self.stop: Callable[[], bool] | None = None  # asked between games: abandon an evaluation

    def _on_training_start(self) -> None:
        self._start = time.perf_counter()
        self._last_eval = self.num_timesteps if self.num_timesteps > 0 else -1
        logged = self._last_logged_step()
        if self.num_timesteps > 0 and logged is not None and logged < self.num_timesteps:
            self._last_eval = logged  # a resumed run whose evaluation a signal cut: play it again

    def _last_logged_step(self) -> int | None:
        """The step of ``eval.csv``'s last row (cut back to the checkpoint on resume); -1 when
        it has none (or is not there: no evaluation ever finished); None without a log."""
        if self.csv_path is None:
            return None
        try:
            text = read_text(self.csv_path, MAX_LOG_BYTES, "evaluation log")
            steps = [int(row["timesteps"]) for row in csv.DictReader(io.StringIO(text))]
        except FileNotFoundError:
            return -1
        except (InvalidConfigError, ValueError, KeyError, TypeError):
            return None
        return steps[-1] if steps else -1

    def _on_rollout_start(self) -> None:
        # checked between updates, so the policy evaluated is the one trained on every step counted
        last = max(self._last_eval, 0)
        if self.every > 0 and self.num_timesteps // self.every > last // self.every:
            self.run_eval()

    def _on_step(self) -> bool:
        return True

    def _on_training_end(self) -> None:
        if self._last_eval != self.num_timesteps and not self.interrupted:
            self.run_eval()

    def run_eval(self) -> list[dict[str, Any]]:
        """Evaluate now, log and append the rows; returns them."""
        self._last_eval = self.num_timesteps
        if self.games <= 0 or not self.opponents:
            return []
        agent = PolicyAgent(self.model.policy, self.deterministic, name="learner")
        training = self.model.policy.training
        self.model.policy.set_training_mode(False)
        rows = []
        for opp in self.opponents:
            try:
                res = evaluate(agent, self.game, opp, self.games, self.seats, self.seed, self.stop)
            except EvaluationStopped:  # a signal: no row; training stops at its next step
                self.interrupted = True
                self.model.policy.set_training_mode(training)
                return []
            row = {
                "timesteps": self.num_timesteps,
                **res.as_dict(),
                "opponent": spec_for_file(opp),  # a name in files: never an opt-in
                "wall_time": round(time.perf_counter() - self._start, 2),
            }
            rows.append(row)
            # SB3's CSV log writes its header unquoted: a comma in a spec would shift every column
            key = str(row["opponent"]).replace(",", ";")
            self.logger.record(f"eval/win_rate_{key}", res.rate)
            if self.verbose:
                print(
                    f"[eval] {self.num_timesteps} steps vs {opp}: {res.rate:.3f} "
                    f"[{res.low:.3f}, {res.high:.3f}] over {res.games} games"
                )
        self.model.policy.set_training_mode(training)
        self.history.extend(rows)
        if self.csv_path is not None:
            with open_append(self.csv_path, self.root) as f:
                w = csv.DictWriter(f, fieldnames=EVAL_FIELDS)
                if f.tell() == 0:
                    w.writeheader()
                w.writerows(rows)
        best = self._keep_if_best(rows)
        if not self.quiet:
            report(eval_line(self.num_timesteps, rows, time.perf_counter() - self.started, best))
        return rows

    def _keep_if_best(self, rows: list[dict[str, Any]]) -> bool:
        """Keep the policy in ``best/`` when its mean win rate beats the best so far; whether it
        did."""
        if self.best_dir is None or not rows:
            return False
        score = sum(float(r["rate"]) for r in rows) / len(rows)
        if score <= self.best_score:
            return False
        self.best_score = score
        make_dir(self.best_dir, self.root)  # a link there is refused
        save_model(self.model, self.best_dir / "model.zip", self.root)
        record = {"timesteps": self.num_timesteps, "score": score, "rows": rows}
        write_text(self.best_dir / "best.json", json.dumps(record, indent=1), self.root)
        if self.verbose:
            print(f"[eval] new best policy kept in {self.best_dir} (mean win rate {score:.3f})")
        return True


class SnapshotCallback(BaseCallback):
    """Adds a frozen copy of the learner to every env's pool at the start, then every ``every``
    steps (snapshots named ``self-<timesteps>``). ``every`` <= 0: only the initial one."""

    def __init__(self, every: int, verbose: int = 0):
        super().__init__(verbose)
        self.every = int(every)
        self.names: list[str] = []
        self._last = 0

    def _snapshot(self) -> None:
        name = f"self-{self.num_timesteps}"
        frozen = freeze_policy(self.model.policy)  # one copy, shared by the in-process envs
        self.training_env.env_method("add_snapshot", name, frozen)
        self.names.append(name)
        self._last = self.num_timesteps

    def _on_training_start(self) -> None:
        self._snapshot()

    def _on_rollout_start(self) -> None:
        if self.every > 0 and self.num_timesteps - self._last >= self.every:
            self._snapshot()

    def _on_step(self) -> bool:
        return True


def actor_parameters(policy: Any) -> list[Any]:
    """The parameters of a policy's actor (its policy network, action head and, for a residual
    policy, the prior scale): what a value warm-up holds fixed."""
    parts = [policy.mlp_extractor.policy_net, policy.action_net]
    params = [p for part in parts for p in part.parameters()]
    scale = getattr(policy, "prior_scale", None)
    return params + ([scale] if scale is not None else [])


class ValueWarmupCallback(BaseCallback):
    """For the run's first ``steps`` learner steps only the critic learns: the actor's
    parameters (:func:`actor_parameters`) get no gradient, so a policy that starts strong (a
    residual policy on the heuristic, a cloned one) is not pushed around by the advantages of an
    untrained value function. Checked before every update, so a resumed run past ``steps``
    trains the actor at once."""

    def __init__(self, steps: int, verbose: int = 0):
        super().__init__(verbose)
        self.steps = int(steps)

    def _set(self) -> None:
        frozen = self.num_timesteps < self.steps
        for p in actor_parameters(self.model.policy):
            p.requires_grad_(not frozen)
            if frozen:
                p.grad = None

    def _on_training_start(self) -> None:
        self._set()

    def _on_rollout_end(self) -> None:
        self._set()

    def _on_step(self) -> bool:
        return True


class CheckpointCallback(BaseCallback):
    """Checkpoints between updates and stops cleanly on a signal.

    ``save()`` is called at the start of a rollout once ``every`` steps have passed since the
    last checkpoint (``every`` <= 0: never here). ``stop`` is polled at every step: when it
    returns true, training stops at once; :attr:`rollout_start` is then the step count of the
    last update (the steps of the unfinished rollout were never learned from). Put it last in the
    callback list so the evaluation rows of a step are in its checkpoint.
    """

    def __init__(
        self,
        every: int,
        save: Callable[[], Any],
        stop: Callable[[], bool],
        evaluator: EvalCallback | None = None,
    ):
        super().__init__()
        self.every = int(every)
        self.save = save
        self.stop = stop
        self.evaluator = evaluator
        self.rollout_start = 0
        self._last = 0
        self.stopped = False

    def _on_training_start(self) -> None:
        self.rollout_start = self._last = self.num_timesteps

    def _on_rollout_start(self) -> None:
        self.rollout_start = self.num_timesteps
        if self.every > 0 and self.num_timesteps - self._last >= self.every:
            self.save()
            self._last = self.num_timesteps

    def _on_step(self) -> bool:
        if self.stop():
            self.stopped = True
            if self.evaluator is not None:
                self.evaluator.interrupted = True
            return False
        return True


class WallClockCallback(BaseCallback):
    """Stops training (at the next step) once ``seconds`` of wall time have passed."""

    def __init__(self, seconds: float):
        super().__init__()
        self.seconds = float(seconds)
        self._start = time.perf_counter()
        self.stopped_early = False

    def _on_training_start(self) -> None:
        self._start = time.perf_counter()

    def _on_step(self) -> bool:
        if time.perf_counter() - self._start >= self.seconds:
            self.stopped_early = True
            return False
        return True


class TqdmCallback(BaseCallback):
    """A tqdm progress bar over the run's timesteps."""

    def __init__(self, total: int, initial: int = 0):
        super().__init__()
        self.total = total
        self.initial = initial
        self.bar: Any = None

    def _on_training_start(self) -> None:
        from boardgames_rl._util.progress import progress_bar

        self.bar = progress_bar(self.total, "ppo", "step", self.initial)

    def _on_step(self) -> bool:
        self.bar.update(self.num_timesteps - self.bar.n)
        return True

    def _on_training_end(self) -> None:
        self.bar.close()
