"""``python -m boardgames_rl.cli``."""

import sys

from boardgames_rl.cli import main

sys.exit(main())
