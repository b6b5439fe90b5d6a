"""Write the pictures the repository keeps as files (the README's position).

Run from the repository root after a change to the pictures::

    python docs/make_pictures.py

The documentation's own pictures (the gallery, the notebook page) are drawn
when it is built; this script is only for files that must exist in the
repository, such as ``docs/_static/position.svg`` shown near the top of the
README.
"""

from __future__ import annotations

import random
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

import backalley as ba  # noqa: E402
from backalley.render.svg import board  # noqa: E402


def readme_position() -> str:
    """The gamerules game of seed 7, seven cards into the play: the trick in
    the middle, the last card marked, the legal cards of the seat to act."""
    state = ba.new_game(ba.variants.GAMERULES, seed=7)
    rng = random.Random(7)
    last = None
    for _ in range(11):
        last = rng.choice(state.legal_moves())
        state = state.apply(last)
    return board(state, highlight=last, legal=True)


def main() -> None:
    target = ROOT / "docs" / "_static" / "position.svg"
    target.write_text(readme_position(), encoding="utf-8")
    print(f"wrote {target.relative_to(ROOT)}")


if __name__ == "__main__":
    main()
