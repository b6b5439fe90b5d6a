"""Write the golden games of ``tests/data/golden/`` (run once; see test_golden.py).

    python3 tests/make_golden.py            # (re)write every golden file
    python3 tests/make_golden.py --check    # only say whether the files are up to date

Each golden game is a whole game of a registered variant, started with
``new_game(variants.get(name), seed=seed)`` and played with uniformly random
legal moves (chosen by ``random.Random(f"golden/{name}/{seed}")``).  The file
stores the moves as canonical text and what the engine made of them: one
record per scored deal (dealer, hand size, turn-up, trump, calls per seat,
tricks and points per side) and the final scores and winner.

Regenerate only on purpose: a change to these files means that a saved game
(seed + moves) no longer gives the same result.
"""

from __future__ import annotations

import json
import random
import sys
from pathlib import Path
from typing import Any

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE.parent))

import backalley as ba  # noqa: E402

GOLDEN = HERE / "data" / "golden"
FORMAT = 1

GAMES: tuple[tuple[str, int], ...] = (
    ("gamerules", 2024),
    ("gamerules", 11),  # two thrown-in deals, three joker turn-ups
    ("vietnam", 11),
    ("vietnam-42", 5),
    ("vietnam-cutthroat", 3),
)


def file_name(name: str, seed: int) -> str:
    return f"{name}-{seed}.json"


def _text(value: object) -> str | None:
    return None if value is None else str(value)


def record(name: str, seed: int) -> dict[str, Any]:
    rng = random.Random(f"golden/{name}/{seed}")
    state = ba.new_game(ba.variants.get(name), seed=seed)
    first_dealer = state.dealer
    moves: list[str] = []
    while not state.is_over:
        move = rng.choice(state.legal_moves())
        moves.append(str(move))
        state = state.apply(move)
    deals = [
        {
            "number": r.number,
            "dealer": r.dealer,
            "hand_size": r.hand_size,
            "turn_up": _text(r.turn_up),
            "trump": _text(r.trump),
            "bids": [_text(b) for b in r.bids],
            "tricks": list(r.tricks),
            "points": list(r.points),
        }
        for r in state.deal_results
    ]
    return {
        "format": FORMAT,
        "variant": name,
        "seed": seed,
        "first_dealer": first_dealer,
        "moves": moves,
        "deals": deals,
        "scores": list(state.scores),
        "winner": state.winner,
    }


def dump(doc: dict[str, Any]) -> str:
    return json.dumps(doc, indent=1) + "\n"


def main(argv: list[str]) -> int:
    check = "--check" in argv
    GOLDEN.mkdir(parents=True, exist_ok=True)
    stale = 0
    for name, seed in GAMES:
        path = GOLDEN / file_name(name, seed)
        text = dump(record(name, seed))
        if check:
            if not path.exists() or path.read_text() != text:
                print(f"out of date: {path}")
                stale += 1
            continue
        path.write_text(text)
        doc = json.loads(text)
        print(
            f"wrote {path.name}: {len(doc['moves'])} moves, {len(doc['deals'])} deals, scores {doc['scores']}"
        )
    return 1 if stale else 0


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))
