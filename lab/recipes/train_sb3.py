"""Train with the SB3 ``MaskablePPO`` trainer of earlier versions (:mod:`lab.recipes.sb3`): its
command line, every flag as it was (``--n-steps``, ``--lr``, ``--bc-games``, ``--shaping``,
``--prior``, ``--init-from``, ``--vec``, ...). Run it from the root of a clone::

    python lab/recipes/train_sb3.py --game castle_nightingale --seat 0 --timesteps 300000 \\
        --out runs/ppo_nightingale
    python lab/recipes/train_sb3.py --resume --out runs/ppo_nightingale --timesteps 100000
    python lab/recipes/train_sb3.py --help

The library's trainer, ``boardgames-rl train`` (:mod:`boardgames_rl.training.ppo`), needs none
of this; this recipe is for behaviour cloning, reward shaping, a residual prior, starting from a
pretrained entry, and for continuing the runs it wrote. Exit codes: 0 saved, 1 a runtime error
(one line), 2 a bad flag, 130 / 143 after SIGINT / SIGTERM (the checkpoint is saved).
"""

from __future__ import annotations

import sys
from pathlib import Path

REPO_ROOT = Path(__file__).resolve().parents[2]
if str(REPO_ROOT) not in sys.path:  # run as a script from a clone: the lab's recipe package
    sys.path.insert(0, str(REPO_ROOT))

from lab.recipes.sb3.train_ppo import main  # noqa: E402

if __name__ == "__main__":
    main()
