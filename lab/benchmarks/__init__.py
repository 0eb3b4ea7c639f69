"""Benchmarks of boardgames-rl, run from a clone (not part of the installed package).

``python lab/benchmarks/throughput.py`` (the comparison benchmark, needs the ``[bench]`` extra),
``python lab/benchmarks/step_cpu.py``, ``python lab/benchmarks/training_speed.py``; see README.md
here.
"""
