"""Test settings shared by the whole suite.

Hypothesis: no per-example deadline (CI machines are shared and their timing
says nothing about correctness), and under CI (``CI`` set) a derandomized
run, so that a submission's result does not depend on luck.
"""

import os

from hypothesis import HealthCheck, settings

settings.register_profile(
    "dev", deadline=None, suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large]
)
settings.register_profile(
    "ci",
    parent=settings.get_profile("dev"),
    derandomize=True,
    database=None,
    print_blob=True,
)
settings.load_profile("ci" if os.environ.get("CI") else "dev")
