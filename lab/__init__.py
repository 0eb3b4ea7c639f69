"""The lab: how boardgames-rl measures and trains what it ships (not installed; see README.md).

The lab imports the library; the library never imports the lab. Run its scripts from a clone,
``python lab/experiments/NAME.py`` or ``python -m lab.benchmarks.throughput``.
"""
