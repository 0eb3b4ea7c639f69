"""Benchmarks of boardgames-rl, run from a clone (not part of the installed package).

``python benchmarks/throughput.py`` (the comparison benchmark, needs the ``[bench]`` extra),
``python benchmarks/step_cpu.py``, ``python benchmarks/training_speed.py``; see README.md here.
"""
