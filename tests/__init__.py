"""The test suite, its folders mirroring the package's parts (``tests/rules/``,
``tests/engine/``, ``tests/server/``, ...), beside the helpers they share.

:data:`ROOT` is the project's root folder: tests reach the docs, the examples
and the benchmarks from it, whatever folder they are in.
"""

from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
