"""Collect a teacher's demonstrations once, in resumable chunks, for the SB3 recipe's ``--bc-data``
(``python lab/recipes/train_sb3.py``, :mod:`lab.recipes.sb3`).

    python lab/experiments/collect_demos.py --game castle_nightingale \\
        --teacher ismcts:preset=tuned,iterations=400 --actor pretrained \\
        --opponents heuristic --prior heuristic --games 400 --chunk-games 10 \\
        --workers 2 --out runs/demos_ngale_ismcts400

1. The learner's seat (``--seat``: an index, a seat name or ``random``) is played against
   ``--opponents`` (agent specs drawn with ``--opponent-weights``). At each of its decisions the
   teacher picks an action from the seat's information set (never the true state); the row
   records the observation the policy will see (the seat feature, and the prior's one-hot with
   ``--prior``), the mask, the teacher's action and the game's final return.
2. With ``--actor SPEC`` the actor's move is played and the teacher's is only the label
   (DAgger, Ross et al. 2011): the rows cover the states the actor reaches. ``--actor
   pretrained`` labels the states the shipped policy reaches, to fine-tune it there
   (``train_ppo --init-from ENTRY --bc-data DIR``).
3. Chunk ``k`` is ``--chunk-games`` games from seed ``--seed + k * 7919``, written atomically as
   ``chunk-k.npz`` (``lab.recipes.sb3.demos``). The same command again skips the chunks
   present, so a killed collection loses at most the chunks in progress; a larger ``--games``
   adds chunks. ``--workers`` plays chunks in parallel processes; the rows do not depend on it.
"""

from __future__ import annotations

import argparse
import multiprocessing
import sys
import time
from concurrent.futures import ProcessPoolExecutor, as_completed
from pathlib import Path
from typing import Any

from boardgames_rl._util.threads import one_blas_thread_in_children
from boardgames_rl.core.errors import InvalidConfigError
from boardgames_rl.core.options import parse_options
from boardgames_rl.envs.policy_obs import policy_obs_size
from boardgames_rl.registry import list_games, make_game

REPO_ROOT = Path(__file__).resolve().parents[2]
if str(REPO_ROOT) not in sys.path:  # run as a script from a clone: the lab's SB3 recipe
    sys.path.insert(0, str(REPO_ROOT))

CHUNK_SEED_STRIDE = 7919
"""Chunk ``k`` plays from seed ``--seed + k * CHUNK_SEED_STRIDE``."""


def parse_args(argv: list[str] | None = None) -> argparse.Namespace:
    p = argparse.ArgumentParser(
        prog="collect_demos.py", description=__doc__.split("\n\n")[0] if __doc__ else None
    )
    p.add_argument("--game", required=True, choices=list_games())
    p.add_argument("-c", "--config", action="append", default=[], help="game option key=value")
    p.add_argument("--seat", default="random", help="learner seat: index, name or 'random'")
    p.add_argument("--teacher", default="ismcts:preset=tuned,iterations=400", help="agent spec")
    p.add_argument("--actor", default="", help="agent spec that plays (''= the teacher)")
    p.add_argument("--opponents", default="heuristic", help="opponent specs, comma-separated")
    p.add_argument("--opponent-weights", default="", help="draw weights, comma-separated")
    p.add_argument("--prior", default="", help="the residual policy's prior spec ('' = none)")
    p.add_argument("--games", type=int, default=100, help="games in all (whole chunks)")
    p.add_argument("--chunk-games", type=int, default=10, help="games per chunk file")
    p.add_argument("--seed", type=int, default=0)
    p.add_argument("--workers", type=int, default=1, help="parallel processes")
    p.add_argument("--out", required=True, help="the demonstration folder")
    p.add_argument("--no-progress", dest="progress", action="store_false")
    args = p.parse_args(argv)
    if args.games < 1 or args.chunk_games < 1 or args.workers < 1:
        p.error("--games, --chunk-games and --workers must be >= 1")
    try:
        args.config = parse_options(args.config, "-c")
    except InvalidConfigError as e:
        p.error(str(e))
    args.opponents = [s for s in args.opponents.split(",") if s]
    if "self" in args.opponents:
        p.error("--opponents: 'self' needs a learner; give agent specs")
    try:
        args.opponent_weights = (
            [float(w) for w in args.opponent_weights.split(",")] if args.opponent_weights else None
        )
    except ValueError:
        p.error(f"--opponent-weights must be numbers, got {args.opponent_weights!r}")
    return args


def _seat(text: str) -> int | str:
    return int(text) if text.lstrip("-").isdigit() else text


def play_chunk(args: argparse.Namespace, index: int) -> tuple[int, Any]:
    """Chunk ``index``: ``--chunk-games`` games from its own seed (in a worker process)."""
    import torch

    from boardgames_rl.agents.registry import make_agent
    from boardgames_rl.training.envs import parse_seat
    from boardgames_rl.training.pool import OpponentPool
    from lab.recipes.sb3.imitation import collect_demonstrations

    torch.set_num_threads(1)
    game = make_game(args.game, **args.config)
    pool = OpponentPool.from_specs(game, args.opponents, args.opponent_weights, 1)
    actor = make_agent(args.actor, game) if args.actor else None
    data = collect_demonstrations(
        game,
        parse_seat(_seat(args.seat), game),
        args.teacher,
        pool,
        args.chunk_games,
        seed=args.seed + index * CHUNK_SEED_STRIDE,
        progress=False,
        actor=actor,
        prior=args.prior or None,
    )
    return index, data


def main(argv: list[str] | None = None) -> int:
    args = parse_args(argv)
    from boardgames_rl._util.progress import progress_bar
    from boardgames_rl.agents.registry import make_agent
    from boardgames_rl.training.envs import parse_seat
    from boardgames_rl.training.pool import OpponentPool
    from lab.recipes.sb3 import demos

    out = Path(args.out)
    try:
        game = make_game(args.game, **args.config)
        seat = parse_seat(_seat(args.seat), game)
        for spec in [args.teacher, *([args.actor] if args.actor else []), *args.opponents]:
            make_agent(spec, game)  # a bad spec fails now, in one line
        OpponentPool.from_specs(game, args.opponents, args.opponent_weights, 1)
        meta = demos.describe(
            game,
            policy_obs_size(game, bool(args.prior)),  # what train_ppo --bc-data checks against
            seat=seat,
            teacher=args.teacher,
            actor=args.actor,
            opponents=args.opponents,
            prior=args.prior,
            seed=args.seed,
            chunk_games=args.chunk_games,
        )
        demos.open_folder(out, meta)
    except (InvalidConfigError, TypeError, ValueError) as e:
        print(f"collect_demos.py: error: {e}", file=sys.stderr)
        return 1
    chunks = -(-args.games // args.chunk_games)
    todo = [k for k in range(chunks) if not demos.chunk_path(out, k).is_file()]
    print(f"{out}: {chunks - len(todo)} of {chunks} chunks present, {len(todo)} to play")
    bar = progress_bar(total=len(todo), desc="chunks", enabled=args.progress)
    start = time.perf_counter()
    rows = 0
    try:
        if args.workers == 1:
            for k in todo:
                _, data = play_chunk(args, k)
                demos.save_chunk(out, k, data)
                rows += len(data)
                bar.update(1)
        else:
            # spawned workers load their own libraries, with one BLAS thread each (forked ones
            # would keep this process's thread pools)
            spawn = multiprocessing.get_context("spawn")
            with (
                ProcessPoolExecutor(args.workers, mp_context=spawn) as pool,
                one_blas_thread_in_children(),
            ):
                futures = [pool.submit(play_chunk, args, k) for k in todo]  # starts the workers
                for done in as_completed(futures):
                    k, data = done.result()
                    demos.save_chunk(out, k, data)
                    rows += len(data)
                    bar.update(1)
    except KeyboardInterrupt:
        bar.close()
        print(f"stopped: {rows} rows saved; the same command continues", file=sys.stderr)
        return 130
    bar.close()
    print(f"{len(todo)} chunks, {rows} rows in {time.perf_counter() - start:.0f} s -> {out}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
