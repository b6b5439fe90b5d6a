"""The modules of the benchmark suite that ``run.py`` runs (see ``run.py``):

- :mod:`suite.common`: the clock, medians, the measured tree's description;
- :mod:`suite.cases`: the workloads and per-call timers of each variant, memory, the profile;
- :mod:`suite.serialization`: the JSON, pickle, vectors and import timings;
- :mod:`suite.batched`: the batch engine's compile, batches and memory per game;
- :mod:`suite.targets`: the targets judged and reported;
- :mod:`suite.runner`: the rounds and the figures gathered from them;
- :mod:`suite.baseline`: the side-by-side comparison with another checkout;
- :mod:`suite.report`: the printed report.

``run.py`` puts the measured tree's ``backalley`` on the path before it
imports any of them.
"""
