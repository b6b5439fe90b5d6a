"""Write the golden games of ``tests/data/golden/`` (run once; see tests/engine/test_golden.py).

    python3 tests/make_golden.py            # (re)write every golden file
    python3 tests/make_golden.py --check    # only say whether the files are up to date

Each golden game is a whole game of a registered variant, started with
``new_game(variants.get(name), seed=seed)`` and played with uniformly random
legal moves (chosen by ``random.Random(f"golden/{name}/{seed}")``).  The file
stores the finished game's state document (format version 2: the rule set,
the seed, the first dealer and every move as canonical text) and what the
engine made of the moves: one deal result per scored deal, as the library
writes it (dealer, hand size, turn-up, trump, calls per seat, contracts,
declarer, tricks and points per side), and the final scores and winner.

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
FORMAT = 2

GAMES: tuple[tuple[str, int], ...] = (
    ("gamerules", 2024),
    ("gamerules", 11),  # two thrown-in deals, three joker turn-ups
    ("vietnam", 11),
    ("vietnam-42", 5),
    ("vietnam-cutthroat", 3),
)


def file_name(name: str, seed: int) -> str:
    return f"{name}-{seed}.json"


def final_state(name: str, seed: int) -> ba.GameState:
    """The golden game of ``name`` and ``seed``, played to its end."""
    rng = random.Random(f"golden/{name}/{seed}")
    state = ba.new_game(ba.variants.get(name), seed=seed)
    while not state.is_over:
        state = state.apply(rng.choice(state.legal_moves()))
    return state


def _data(value: object) -> Any:
    """A document's plain data, without its ``format`` and ``version``."""
    data = json.loads(ba.to_json(value))
    return {k: v for k, v in data.items() if k not in ("format", "version")}


def record(name: str, seed: int) -> dict[str, Any]:
    state = final_state(name, seed)
    return {
        "format": FORMAT,
        "variant": name,
        "seed": seed,
        "state": json.loads(ba.to_json(state)),
        "deals": [_data(r) for r in state.deal_results],
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
            f"wrote {path.name}: {len(doc['state']['moves'])} moves, {len(doc['deals'])} deals, "
            f"scores {doc['scores']}"
        )
    return 1 if stale else 0


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))
